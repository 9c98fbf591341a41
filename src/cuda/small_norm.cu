/* Register kernels for lange/gecon: not yet; the policy falls back. */
#include "small.h"
cudaError_t bb_small_lange(bb_prec, const bb_problem &, const bb_dev_batch &, batchblas_queue *)
{
    return cudaErrorNotSupported;
}
cudaError_t bb_small_gecon(bb_prec, const bb_problem &, const bb_dev_batch &, batchblas_queue *)
{
    return cudaErrorNotSupported;
}
