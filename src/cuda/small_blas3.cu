/* Register kernels for symm/hemm/syrk/herk/syr2k/her2k/trmm (n <= 32): not yet; the policy falls back. */
#include "small.h"
cudaError_t bb_small_blas3(bb_op, bb_prec, const bb_problem &, const bb_dev_batch &, batchblas_queue *)
{
    return cudaErrorNotSupported;
}
