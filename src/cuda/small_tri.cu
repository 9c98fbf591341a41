/* Register kernels for trtri/lauum/potri/poti (n <= 32): not yet; the policy falls back. */
#include "small.h"
cudaError_t bb_small_tri(bb_op, bb_prec, const bb_problem &, const bb_dev_batch &, batchblas_queue *)
{
    return cudaErrorNotSupported;
}
