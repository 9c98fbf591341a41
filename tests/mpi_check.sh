#!/bin/sh
# The MPI example (examples/mpi_batch) on 2 ranks on the CPU backend: every
# rank solves its share of one global batch, rank 0 gathers the codes and the
# largest residual (exit 0: all solved, residuals pass).  CI runs as root,
# hence --allow-run-as-root; --oversubscribe lets 2 ranks share 1 core.
# Skips (77) without mpirun.
MPIRUN=${MPIRUN:-`command -v mpirun`}
[ -n "$MPIRUN" ] || exit 77
BATCHBLAS_BACKEND=cpu OMP_NUM_THREADS=1 \
exec "$MPIRUN" -n 2 --oversubscribe --allow-run-as-root examples/mpi_batch 20000 8
