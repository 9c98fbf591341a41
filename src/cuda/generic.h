/* Generic CUDA kernels: every routine, any size, one entry point. */
#pragma once
#include "cuda_internal.h"

/* Runs one launch with the generic kernels (any op the table has). */
cudaError_t bb_generic_launch(bb_op op, bb_prec prec, const bb_problem &p, const bb_dev_batch &d,
                              batchblas_queue *q);
int bb_generic_supports(bb_op op, bb_prec prec);
