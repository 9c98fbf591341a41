#!/bin/sh
# The kernels across problems come in one variant per instruction set
# (src/cpu/across.c); make check's other tests run the widest this CPU has.
# This runs the narrower ones (BATCHBLAS_CPU_ISA) through test_isolation
# (every routine against LAPACK, broken members, one problem against its
# batch) and the chol, blas3 and norm suites in s and d.  The lu suite runs
# under the widest only (84 s more a variant on 2 cores).
set -e
isas=base
grep -qw avx512f /proc/cpuinfo 2>/dev/null && isas="avx2 base"
for isa in $isas; do
    echo "== BATCHBLAS_CPU_ISA=$isa"
    BATCHBLAS_CPU_ISA=$isa tests/test_isolation
    for s in chol blas3 norm; do
        BATCHBLAS_CPU_ISA=$isa CK_RUN_SUITE=$s tests/runner ds
    done
done
