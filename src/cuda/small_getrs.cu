/* Register kernels for getrs/gesv (n <= 32): not yet; the policy falls back. */
#include "small.h"
cudaError_t bb_small_getrs(bb_prec, const bb_problem &, const bb_dev_batch &, batchblas_queue *, int)
{
    return cudaErrorNotSupported;
}
