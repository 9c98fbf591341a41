/*
 * CUDA backend internals: the contract between the backend driver
 * (backend_cuda.cu: queues, host<->device staging, grouping, info), the
 * launch policy (launch.cu: which kernel runs a launch) and the kernels
 * (generic_*.cu for every routine, small_*.cu register kernels for tiny n).
 *
 * A launch is one set of uniform, normalised column-major parameters
 * (bb_problem, pointers unused) applied to `count` problems whose operands
 * are addressed through bb_dev_opd (pointer array or base + stride, always
 * device memory).  Kernels skip problem i when info[i] != 0 on entry and
 * store its numerical code (0, LAPACK k > 0) in info[i] otherwise.
 */
#pragma once

#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cuComplex.h>
#include <stdint.h>
#include "backend.h"

/* Operand addressing on the device (KBLAS-style accessor: one kernel serves
   pointer-array and strided batches). */
struct bb_dev_opd {
    void *const *ptr; /* device array of device pointers, or NULL */
    char *base;       /* else: base + i * stride elements */
    int64_t stride;
    int64_t off;      /* elements added to every ptr[i] (sub-matrix views of
                         pointer-array batches, src/cuda/blocked.cu) */
};

struct bb_dev_batch {
    bb_dev_opd opd[BB_NOPD];
    int64_t count; /* problems in this launch (64-bit: grids loop, no 65535 limit) */
    int *info;     /* device [count] */
    int masked;    /* 1: info may flag skipped problems even in a strided
                      launch (the blocked drivers): vendor calls must not
                      write them */
};

template <typename E>
__device__ __forceinline__ E *bb_dev_ptr(const bb_dev_opd &o, int64_t i)
{
    return o.ptr ? (E *)o.ptr[i] + o.off : (E *)(o.base + (size_t)(i * o.stride) * sizeof(E));
}

/* Element types: T = float, double, cuFloatComplex, cuDoubleComplex; the
   arithmetic helpers below let one template serve all four. */
template <typename T> struct bb_real;
template <> struct bb_real<float> { typedef float type; };
template <> struct bb_real<double> { typedef double type; };
template <> struct bb_real<cuFloatComplex> { typedef float type; };
template <> struct bb_real<cuDoubleComplex> { typedef double type; };

__host__ __device__ __forceinline__ float bb_re(float a) { return a; }
__host__ __device__ __forceinline__ double bb_re(double a) { return a; }
__host__ __device__ __forceinline__ float bb_re(cuFloatComplex a) { return a.x; }
__host__ __device__ __forceinline__ double bb_re(cuDoubleComplex a) { return a.x; }
__host__ __device__ __forceinline__ float bb_im(float) { return 0.f; }
__host__ __device__ __forceinline__ double bb_im(double) { return 0.; }
__host__ __device__ __forceinline__ float bb_im(cuFloatComplex a) { return a.y; }
__host__ __device__ __forceinline__ double bb_im(cuDoubleComplex a) { return a.y; }

template <typename T> __host__ __device__ __forceinline__ T bb_make(double re, double im);
template <> __host__ __device__ __forceinline__ float bb_make<float>(double re, double) { return (float)re; }
template <> __host__ __device__ __forceinline__ double bb_make<double>(double re, double) { return re; }
template <> __host__ __device__ __forceinline__ cuFloatComplex bb_make<cuFloatComplex>(double re, double im) { return make_cuFloatComplex((float)re, (float)im); }
template <> __host__ __device__ __forceinline__ cuDoubleComplex bb_make<cuDoubleComplex>(double re, double im) { return make_cuDoubleComplex(re, im); }

__host__ __device__ __forceinline__ float bb_conj(float a) { return a; }
__host__ __device__ __forceinline__ double bb_conj(double a) { return a; }
__host__ __device__ __forceinline__ cuFloatComplex bb_conj(cuFloatComplex a) { return cuConjf(a); }
__host__ __device__ __forceinline__ cuDoubleComplex bb_conj(cuDoubleComplex a) { return cuConj(a); }

__host__ __device__ __forceinline__ cuFloatComplex operator+(cuFloatComplex a, cuFloatComplex b) { return cuCaddf(a, b); }
__host__ __device__ __forceinline__ cuFloatComplex operator-(cuFloatComplex a, cuFloatComplex b) { return cuCsubf(a, b); }
__host__ __device__ __forceinline__ cuFloatComplex operator*(cuFloatComplex a, cuFloatComplex b) { return cuCmulf(a, b); }
__host__ __device__ __forceinline__ cuFloatComplex operator/(cuFloatComplex a, cuFloatComplex b) { return cuCdivf(a, b); }
__host__ __device__ __forceinline__ cuFloatComplex operator-(cuFloatComplex a) { return make_cuFloatComplex(-a.x, -a.y); }
__host__ __device__ __forceinline__ cuDoubleComplex operator+(cuDoubleComplex a, cuDoubleComplex b) { return cuCadd(a, b); }
__host__ __device__ __forceinline__ cuDoubleComplex operator-(cuDoubleComplex a, cuDoubleComplex b) { return cuCsub(a, b); }
__host__ __device__ __forceinline__ cuDoubleComplex operator*(cuDoubleComplex a, cuDoubleComplex b) { return cuCmul(a, b); }
__host__ __device__ __forceinline__ cuDoubleComplex operator/(cuDoubleComplex a, cuDoubleComplex b) { return cuCdiv(a, b); }
__host__ __device__ __forceinline__ cuDoubleComplex operator-(cuDoubleComplex a) { return make_cuDoubleComplex(-a.x, -a.y); }

/* Per-queue state.  The driver owns it; kernels get it for the stream, the
   cuBLAS handle and the workspace. */
struct batchblas_queue {
    int device;
    cudaStream_t stream;
    int own_stream;
    cublasHandle_t cublas;
    int sm_count;
    void *work;        /* device workspace, grown by bb_cuda_workspace() */
    size_t work_size;
    void *work2;       /* second workspace (bb_cuda_workspace2): data a blocked
                          driver keeps across the launches it makes, which
                          may use the first one */
    size_t work2_size;
};

/* Device workspace of at least `bytes` on the queue (grown only between
   launches; returns NULL on failure). */
void *bb_cuda_workspace(batchblas_queue *q, size_t bytes);
void *bb_cuda_workspace2(batchblas_queue *q, size_t bytes);

/* launch.cu: THE GPU kernel policy.  Runs one launch of `op` in precision
   `prec` with uniform parameters p on the problems of d, asynchronously on
   q->stream.  Returns cudaSuccess or the launch error. */
cudaError_t bb_cuda_launch(bb_op op, bb_prec prec, const bb_problem &p, const bb_dev_batch &d,
                           batchblas_queue *q);

/* backend_cuda.cu: the launch-fault hook (src/common/fault.c's launch
   counter, handed over by the loader through bb_cuda_plugin_set_launch_fault;
   false when no hook was set).  Asked once by every entry of bb_cuda_launch:
   true means this launch is to fail (a test, doc/reliability.md). */
bool bb_cuda_launch_fault(void);

/* 1 if bb_cuda_launch implements op in prec (every routine, once complete). */
int bb_cuda_launch_supports(bb_op op, bb_prec prec);

/* Grid helper: problems per launch are 64-bit; kernels loop over
   blockIdx.x + k * gridDim.x, so grids never exceed this many blocks. */
#define BB_CUDA_MAX_GRID 65535u

/* Blocks for n items at per_block items a block: at least 1, at most
   BB_CUDA_MAX_GRID (the kernels loop over the rest). */
static inline unsigned bb_grid(int64_t n, int per_block)
{
    int64_t g = (n + per_block - 1) / per_block;
    return g < 1 ? 1u : g > (int64_t)BB_CUDA_MAX_GRID ? BB_CUDA_MAX_GRID : (unsigned)g;
}
