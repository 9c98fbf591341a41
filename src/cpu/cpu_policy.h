/*
 * CPU kernel policy: the crossover sizes where a kernel switches from our own
 * small-size code to OpenBLAS/LAPACKE.  One named constant per decision,
 * measured with batchblas-bench (doc/performance.md).  Each family edits only
 * its own section.
 */
#ifndef BB_CPU_POLICY_H
#define BB_CPU_POLICY_H

/* ---- BLAS-3 (src/cpu/blas3.c) ---- */
/* gemm: own loops while m*n*k <= this, OpenBLAS above */
#define BB_CPU_GEMM_OWN_MAX_MNK 4096

/* ---- Cholesky family (src/cpu/chol.c) ---- */

/* ---- LU family (src/cpu/lu.c) ---- */

/* ---- norms and condition numbers (src/cpu/norm.c) ---- */

#endif
