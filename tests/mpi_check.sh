#!/bin/sh
# The MPI example (examples/mpi_batch) on 2 ranks on the CPU backend: every
# rank solves its share of one global batch, rank 0 gathers the codes and the
# largest residual (exit 0: all solved, residuals pass).  CI runs as root,
# hence --allow-run-as-root; --oversubscribe lets 2 ranks share 1 core.
# Skips (77) without mpirun.
MPIRUN=${MPIRUN:-`command -v mpirun`}
[ -n "$MPIRUN" ] || exit 77
# Under the sanitizer build of .ci/run, leak detection is off for this one
# test: Open MPI itself leaks at MPI_Finalize (ompi_op_base_op_select and
# its plugins); every other test keeps it on.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS
BATCHBLAS_BACKEND=cpu OMP_NUM_THREADS=1 \
exec "$MPIRUN" -n 2 --oversubscribe --allow-run-as-root examples/mpi_batch 20000 8
