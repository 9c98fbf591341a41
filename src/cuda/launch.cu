/* THE GPU kernel policy: which kernel runs a launch. */
#include "generic.h"
#include "small.h"

cudaError_t bb_cuda_launch(bb_op op, bb_prec prec, const bb_problem &p, const bb_dev_batch &d,
                           batchblas_queue *q)
{
    return bb_generic_launch(op, prec, p, d, q);
}

int bb_cuda_launch_supports(bb_op op, bb_prec prec) { return bb_generic_supports(op, prec); }
