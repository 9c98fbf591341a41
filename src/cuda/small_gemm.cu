/*
 * gemm: C = alpha op(A) op(B) + beta C.
 *   bb_small_gemm   register kernel for m, n <= 32 and any k: A and B
 *                   staged in shared memory (coalesced loads) in chunks
 *                   of the bound N of k, thread i accumulates row i of C
 *                   in registers over every chunk (one launch, the sum in
 *                   the order of k whatever N: a thin product with a long
 *                   k, the blocked drivers' updates of a remainder block,
 *                   runs at the bound of its m and n).
 *   bb_cublas_gemm  cuBLAS for the sizes where it is at the hardware limit:
 *                   gemmStridedBatched for strided batches, gemmBatched
 *                   with pointer arrays otherwise; batches are cut into
 *                   calls of at most BB_CUBLAS_CHUNK problems.
 * beta == 0: C is not read (cuBLAS documents the same); alpha == 0: A and
 * B are not read (the policy keeps alpha == 0 off cuBLAS).
 */
#include "small.h"

namespace {

template <typename T, int N> struct __align__(16) gemm_smem {
    T a[bb_smat<T, N>::SIZE];
    T b[bb_smat<T, N>::SIZE];
};

/* stored r x c matrix -> column-major shared memory, row t by thread t */
template <typename T, int N>
__device__ __forceinline__ void stage(T *S, const T *M, int t, int r, int c, int64_t ld, bool ok)
{
    constexpr int LD = bb_smat<T, N>::LD;
#pragma unroll
    for (int j = 0; j < N; j++) S[t + j * LD] = (ok && t < r && j < c) ? M[t + j * ld] : bb_zero<T>();
}

template <typename T, int N, int BS, bool TA, bool TB, bool VAR>
__global__ void __launch_bounds__(BS) k_gemm(const bb_dev_batch d, int cja, int cjb, int m0, int n0, int k0,
                                             int64_t lda0, int64_t ldb0, int64_t ldc0, T alpha, T beta,
                                             int alpha_zero, int beta_zero)
{
    constexpr int PPB = BS / N;
    constexpr int LD = bb_smat<T, N>::LD;
    __shared__ __align__(16) gemm_smem<T, N> sm[PPB];
    const int i = threadIdx.x % N, g = threadIdx.x / N;
    const T *Sa = sm[g].a, *Sb = sm[g].b;
    for (int64_t base = (int64_t)blockIdx.x * PPB; base < d.count; base += (int64_t)gridDim.x * PPB) {
        const bb_vdim z = bb_dims<VAR>(d, base + g, m0, n0, k0, 0, lda0, ldb0, ldc0);
        const int m = z.m, n = z.n, k = z.k;
        const int64_t lda = bb_opaque(z.lda), ldb = bb_opaque(z.ldb), ldc = bb_opaque(z.ldc);
        const bb_small_slot s = bb_small_take(d, base, g);
        T *C = s.active ? bb_dev_ptr<T>(d.opd[BB_C], s.pid) : NULL;
        const bool mine = s.active && i < m;
        T acc[N];
#pragma unroll
        for (int j = 0; j < N; j++) acc[j] = bb_zero<T>();
        if (!alpha_zero) {
            const T *A = s.active ? bb_dev_ptr<T>(d.opd[BB_A], s.pid) : NULL;
            const T *B = s.active ? bb_dev_ptr<T>(d.opd[BB_B], s.pid) : NULL;
            /* k in chunks of N, staged one after another and accumulated
               in the same registers in the order of k */
#pragma unroll 1
            for (int k0 = 0; k0 < k; k0 += N) {
                const int kc = k - k0 < N ? k - k0 : N;
                if (k0 > 0) __syncwarp(); /* the previous chunk's reads done */
                const T *Ak = s.active ? A + (TA ? k0 : k0 * lda) : A, *Bk = s.active ? B + (TB ? k0 * ldb : k0) : B;
                stage<T, N>(sm[g].a, Ak, i, TA ? kc : m, TA ? m : kc, lda, s.active);
                stage<T, N>(sm[g].b, Bk, i, TB ? n : kc, TB ? kc : n, ldb, s.active);
                __syncwarp();
#pragma unroll 1
                for (int l = 0; l < kc; l++) {
                    T a = TA ? Sa[l + i * LD] : Sa[i + l * LD];
                    if (TA && cja) a = bb_conj(a);
#pragma unroll
                    for (int j = 0; j < N; j++) {
                        T b = TB ? Sb[j + l * LD] : Sb[l + j * LD];
                        if (TB && cjb) b = bb_conj(b);
                        acc[j] = acc[j] + a * b;
                    }
                }
            }
        }
        if (mine) {
#pragma unroll
            for (int j = 0; j < N; j++) {
                if (j < n) {
                    T v = alpha * acc[j];
                    if (!beta_zero) v = v + beta * C[i + j * ldc];
                    C[i + j * ldc] = v;
                }
            }
        }
        __syncwarp();
    }
}

template <typename T, int N, bool TA, bool TB>
cudaError_t run_gemm(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    constexpr int BS = bb_small_threads(N, (int)sizeof(gemm_smem<T, N>));
    const T alpha = bb_make<T>(p.alpha[0], p.alpha[1]), beta = bb_make<T>(p.beta[0], p.beta[1]);
    const int az = p.alpha[0] == 0 && p.alpha[1] == 0, bz = p.beta[0] == 0 && p.beta[1] == 0;
    const unsigned grid = bb_grid(d.count, BS / N);
    const int ca = p.trans == BblasConjTrans, cb = p.transb == BblasConjTrans;
    if (d.vdim)
        k_gemm<T, N, BS, TA, TB, true><<<grid, BS, 0, q->stream>>>(d, ca, cb, p.m, p.n, p.k, p.lda, p.ldb, p.ldc,
                                                                   alpha, beta, az, bz);
    else
        k_gemm<T, N, BS, TA, TB, false><<<grid, BS, 0, q->stream>>>(d, ca, cb, p.m, p.n, p.k, p.lda, p.ldb, p.ldc,
                                                                    alpha, beta, az, bz);
    return cudaGetLastError();
}

template <typename T, int N>
cudaError_t gemm_N(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    const bool ta = p.trans != BblasNoTrans, tb = p.transb != BblasNoTrans;
    if (ta) return tb ? run_gemm<T, N, true, true>(p, d, q) : run_gemm<T, N, true, false>(p, d, q);
    return tb ? run_gemm<T, N, false, true>(p, d, q) : run_gemm<T, N, false, false>(p, d, q);
}

template <typename T>
cudaError_t gemm_T(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    /* the bound of C's shape: k goes through the kernel in chunks of it
       (a variable batch's class bound covers every problem's k too) */
    int s = p.m > p.n ? p.m : p.n;
    if (d.vdim && p.k > s) s = p.k;
    BB_SMALL_BY_BOUND(s, (gemm_N<T, N>(p, d, q)));
}

/* ------------------------------------------------------------------ cuBLAS */

#define BB_CUBLAS_CHUNK 65535

cublasStatus_t gemm_strided(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                            const float *al, const float *A, int lda, long long sa, const float *B, int ldb, long long sb,
                            const float *be, float *C, int ldc, long long sc, int cnt)
{ return cublasSgemmStridedBatched(h, ta, tb, m, n, k, al, A, lda, sa, B, ldb, sb, be, C, ldc, sc, cnt); }
cublasStatus_t gemm_strided(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                            const double *al, const double *A, int lda, long long sa, const double *B, int ldb, long long sb,
                            const double *be, double *C, int ldc, long long sc, int cnt)
{ return cublasDgemmStridedBatched(h, ta, tb, m, n, k, al, A, lda, sa, B, ldb, sb, be, C, ldc, sc, cnt); }
cublasStatus_t gemm_strided(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                            const cuFloatComplex *al, const cuFloatComplex *A, int lda, long long sa, const cuFloatComplex *B,
                            int ldb, long long sb, const cuFloatComplex *be, cuFloatComplex *C, int ldc, long long sc, int cnt)
{ return cublasCgemmStridedBatched(h, ta, tb, m, n, k, al, A, lda, sa, B, ldb, sb, be, C, ldc, sc, cnt); }
cublasStatus_t gemm_strided(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                            const cuDoubleComplex *al, const cuDoubleComplex *A, int lda, long long sa, const cuDoubleComplex *B,
                            int ldb, long long sb, const cuDoubleComplex *be, cuDoubleComplex *C, int ldc, long long sc, int cnt)
{ return cublasZgemmStridedBatched(h, ta, tb, m, n, k, al, A, lda, sa, B, ldb, sb, be, C, ldc, sc, cnt); }

cublasStatus_t gemm_ptrs(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                         const float *al, const float *const *A, int lda, const float *const *B, int ldb,
                         const float *be, float *const *C, int ldc, int cnt)
{ return cublasSgemmBatched(h, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc, cnt); }
cublasStatus_t gemm_ptrs(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                         const double *al, const double *const *A, int lda, const double *const *B, int ldb,
                         const double *be, double *const *C, int ldc, int cnt)
{ return cublasDgemmBatched(h, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc, cnt); }
cublasStatus_t gemm_ptrs(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                         const cuFloatComplex *al, const cuFloatComplex *const *A, int lda, const cuFloatComplex *const *B,
                         int ldb, const cuFloatComplex *be, cuFloatComplex *const *C, int ldc, int cnt)
{ return cublasCgemmBatched(h, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc, cnt); }
cublasStatus_t gemm_ptrs(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                         const cuDoubleComplex *al, const cuDoubleComplex *const *A, int lda, const cuDoubleComplex *const *B,
                         int ldb, const cuDoubleComplex *be, cuDoubleComplex *const *C, int ldc, int cnt)
{ return cublasZgemmBatched(h, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc, cnt); }

/* Pointer arrays for gemmBatched: problems skipped by info (and every
   problem when info is NULL is computed) point at a dummy matrix. */
template <typename T>
__global__ void k_gemm_ptrs(const bb_dev_batch d, T *dummy, const T **pa, const T **pb, T **pc)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < d.count; i += (int64_t)gridDim.x * blockDim.x) {
        const bool skip = d.info && d.info[i] != 0;
        pa[i] = skip ? dummy : bb_dev_ptr<T>(d.opd[BB_A], i);
        pb[i] = skip ? dummy : bb_dev_ptr<T>(d.opd[BB_B], i);
        pc[i] = skip ? dummy : bb_dev_ptr<T>(d.opd[BB_C], i);
    }
}

template <typename T>
cudaError_t cublas_gemm_T(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    /* the queue's handle is bound to the queue's stream and its own
       workspace at creation (queue.cu); cublasSetStream here would
       drop that workspace for the default pool */
    cublasHandle_t h = q->cublas;
    cudaStream_t hs = NULL;
    if (cublasGetStream(h, &hs) != CUBLAS_STATUS_SUCCESS || hs != q->stream ||
        cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST) != CUBLAS_STATUS_SUCCESS)
        return cudaErrorUnknown;
    const T alpha = bb_make<T>(p.alpha[0], p.alpha[1]), beta = bb_make<T>(p.beta[0], p.beta[1]);
    const cublasOperation_t ta = bb_cublas_op(p.trans), tb = bb_cublas_op(p.transb);
    const bb_dev_opd &oa = d.opd[BB_A], &ob = d.opd[BB_B], &oc = d.opd[BB_C];
    const bool strided = !oa.ptr && !ob.ptr && !oc.ptr && !d.masked;
    cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
    if (strided) {
        /* No problem of a strided launch is skipped: the strided forms have no
           per-problem argument errors, and in the driver's host-data staging
           (compact strided chunks) a skipped slot is never gathered nor
           scattered, so computing it is harmless.  Reading info here would
           need a host synchronisation. */
        for (int64_t off = 0; off < d.count && st == CUBLAS_STATUS_SUCCESS; off += BB_CUBLAS_CHUNK) {
            const int cnt = (int)(d.count - off < BB_CUBLAS_CHUNK ? d.count - off : BB_CUBLAS_CHUNK);
            st = gemm_strided(h, ta, tb, p.m, p.n, p.k, &alpha, (const T *)oa.base + off * oa.stride, (int)p.lda,
                              oa.stride, (const T *)ob.base + off * ob.stride, (int)p.ldb, ob.stride, &beta,
                              (T *)oc.base + off * oc.stride, (int)p.ldc, oc.stride, cnt);
        }
    } else {
        const bool direct = oa.ptr && ob.ptr && oc.ptr && !oa.off && !ob.off && !oc.off && !d.info;
        const T *const *pa = (const T *const *)oa.ptr, *const *pb = (const T *const *)ob.ptr;
        T *const *pc = (T *const *)oc.ptr;
        if (!direct) {
            /* dummy matrix: the largest footprint of A, B, C */
            const int ca = p.trans == BblasNoTrans ? p.k : p.m, cb = p.transb == BblasNoTrans ? p.n : p.k;
            size_t foot = (size_t)p.lda * ca;
            if ((size_t)p.ldb * cb > foot) foot = (size_t)p.ldb * cb;
            if ((size_t)p.ldc * p.n > foot) foot = (size_t)p.ldc * p.n;
            foot = (foot * sizeof(T) + 255) / 256 * 256;
            const size_t arrays = 3 * (size_t)d.count * sizeof(void *);
            char *w = (char *)bb_cuda_workspace(q, foot + arrays);
            if (!w) return cudaErrorMemoryAllocation;
            T *dummy = (T *)w;
            const T **wa = (const T **)(w + foot), **wb = wa + d.count;
            T **wc = (T **)(wb + d.count);
            /* zeroed, so that cuBLAS never computes on uninitialised memory
               for a skipped problem (compute-sanitizer initcheck; one
               matrix's footprint, on the queue's stream) */
            cudaError_t e = cudaMemsetAsync(dummy, 0, foot, q->stream);
            if (e != cudaSuccess) return e;
            k_gemm_ptrs<T><<<bb_grid(d.count, 256), 256, 0, q->stream>>>(d, dummy, wa, wb, wc);
            e = cudaGetLastError();
            if (e != cudaSuccess) return e;
            pa = wa; pb = wb; pc = wc;
        }
        for (int64_t off = 0; off < d.count && st == CUBLAS_STATUS_SUCCESS; off += BB_CUBLAS_CHUNK) {
            const int cnt = (int)(d.count - off < BB_CUBLAS_CHUNK ? d.count - off : BB_CUBLAS_CHUNK);
            st = gemm_ptrs(h, ta, tb, p.m, p.n, p.k, &alpha, pa + off, (int)p.lda, pb + off, (int)p.ldb, &beta,
                           pc + off, (int)p.ldc, cnt);
        }
    }
    if (st != CUBLAS_STATUS_SUCCESS) return st == CUBLAS_STATUS_ALLOC_FAILED ? cudaErrorMemoryAllocation : cudaErrorUnknown;
    return cudaGetLastError();
}

} // namespace

cudaError_t bb_small_gemm(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    /* any k for equal sizes; a variable batch's class bound covers k */
    if (p.m > bb_small_max(prec) || p.n > bb_small_max(prec) || (d.vdim && p.k > bb_small_max(prec)))
        return cudaErrorNotSupported;
    BB_SMALL_BY_PREC(prec, gemm_T<T>(p, d, q));
}

cudaError_t bb_cublas_gemm(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    if (!q->cublas) return cudaErrorNotSupported;
    BB_SMALL_BY_PREC(prec, cublas_gemm_T<T>(p, d, q));
}
