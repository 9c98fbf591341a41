#include "generic.h"
cudaError_t bb_generic_launch(bb_op, bb_prec, const bb_problem &, const bb_dev_batch &, batchblas_queue *)
{
    return cudaErrorNotSupported;
}
int bb_generic_supports(bb_op, bb_prec) { return 0; }
