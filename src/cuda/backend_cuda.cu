/* The CUDA backend plugin entry point. */
#include "cuda_internal.h"
#include <cuda_runtime.h>

static int cu_probe(void)
{
    int n = 0;
    return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}
static int cu_supports(const bb_batch *b) { (void)b; return 0; }
static void cu_run(bb_batch *b) { (void)b; }

static const bb_backend cuda_backend = {"cuda", cu_probe, cu_supports, cu_run, NULL, NULL, NULL, NULL};

extern "C" __attribute__((visibility("default"))) const bb_backend *bb_cuda_plugin_backend(void)
{
    return &cuda_backend;
}
