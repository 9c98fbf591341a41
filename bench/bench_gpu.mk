# batchblas-bench-gpu (CUDA only): rules added by the GPU bench
