/*
 * Register kernels for the Cholesky family, n <= 32 (seed 004, in
 * registers): potrf (both uplo), potrs (any nrhs, left or right-hand
 * storage) and posv (potrf + potrs fused: A is read once).
 * A row per thread: lower keeps row i of L, upper row i of U, so the loads
 * of a column-major triangle are coalesced in both cases.
 */
#include "small.h"

namespace {

/* row i of A's uplo triangle (zeros elsewhere; the other triangle is never read) */
template <typename T, int N>
__device__ __forceinline__ void load_tri_row(T (&r)[N], const T *A, int i, int n, int64_t lda, bool upper, bool ok)
{
#pragma unroll
    for (int j = 0; j < N; j++) {
        const bool in = ok && j < n && (upper ? j >= i : j <= i);
        r[j] = in ? A[i + j * lda] : bb_zero<T>();
    }
}

template <typename T, int N>
__device__ __forceinline__ void store_tri_row(const T (&r)[N], T *A, int i, int n, int64_t lda, bool upper)
{
#pragma unroll
    for (int j = 0; j < N; j++)
        if (j < n && (upper ? j >= i : j <= i)) A[i + j * lda] = r[j];
}

/* ------------------------------------------------------------------ potrf */

template <typename T, int N, int BS>
__global__ void __launch_bounds__(BS) k_potrf(const bb_dev_batch d, int n, int64_t lda, int upper)
{
    constexpr int PPB = BS / N;
    __shared__ __align__(16) T rbuf[PPB][2 * N];
    const int i = threadIdx.x % N, g = threadIdx.x / N;
    for (int64_t base = (int64_t)blockIdx.x * PPB; base < d.count; base += (int64_t)gridDim.x * PPB) {
        const bb_small_slot s = bb_small_take(d, base, g);
        T *A = s.active ? bb_dev_ptr<T>(d.opd[BB_A], s.pid) : NULL;
        const bool mine = s.active && i < n;
        T r[N];
        load_tri_row<T, N>(r, A, i, n, lda, upper, mine);
        const int info = bb_potrf_rows<T, N>(r, i, n, upper, rbuf[g]);
        if (mine) store_tri_row<T, N>(r, A, i, n, lda, upper);
        if (s.active && i == 0 && d.info) d.info[s.pid] = info;
    }
}

/* ---------------------------------------------------------- potrs / posv */

template <typename T, int N> struct __align__(16) potrs_smem {
    T rb[2 * N];                  /* row buffer (first: 16-byte aligned) */
    T dv[N], dvc[N];              /* 1/A(k,k) and its conjugate */
    T S[bb_smat<T, N>::SIZE];     /* the factor */
};

/*
 * Solves A X = B with A = L L^H (lower) or U^H U (upper) given by its
 * factor in S.  rhs_right: B is stored nrhs x n and X A = B is solved (the
 * row-major normalisation of potrs).  FACTOR: posv, A is factored first.
 */
template <typename T, int N, int BS, bool FACTOR>
__global__ void __launch_bounds__(BS) k_potrs(const bb_dev_batch d, int n, int nrhs, int64_t lda, int64_t ldb,
                                              int upper, int right)
{
    constexpr int PPB = BS / N;
    constexpr int LD = bb_smat<T, N>::LD;
    __shared__ __align__(16) potrs_smem<T, N> sm[PPB];
    const int i = threadIdx.x % N, g = threadIdx.x / N;
    T *S = sm[g].S;
    for (int64_t base = (int64_t)blockIdx.x * PPB; base < d.count; base += (int64_t)gridDim.x * PPB) {
        const bb_small_slot s = bb_small_take(d, base, g);
        T *A = s.active ? bb_dev_ptr<T>(d.opd[BB_A], s.pid) : NULL;
        T *B = s.active ? bb_dev_ptr<T>(d.opd[BB_B], s.pid) : NULL;
        const bool mine = s.active && i < n;
        T r[N];
        load_tri_row<T, N>(r, A, i, n, lda, upper, mine);
        int info = 0;
        if (FACTOR) {
            info = bb_potrf_rows<T, N>(r, i, n, upper, sm[g].rb);
            if (mine) store_tri_row<T, N>(r, A, i, n, lda, upper);
        }
        T dii = bb_zero<T>();
#pragma unroll
        for (int j = 0; j < N; j++) {
            S[i + j * LD] = r[j];
            if (j == i) dii = r[j];
        }
        const T di = i < n ? bb_inv(dii) : bb_zero<T>();
        sm[g].dv[i] = di;
        sm[g].dvc[i] = bb_conj(di);
        __syncwarp();
        const bool write = s.active && info == 0;
        if (!right) {
            /* B is n x nrhs: blocks of N columns, thread i holds row i */
            for (int cb = 0; cb < nrhs; cb += N) {
                T b[N];
#pragma unroll
                for (int j = 0; j < N; j++) b[j] = (mine && cb + j < nrhs) ? B[i + (cb + j) * ldb] : bb_zero<T>();
                if (!upper) {
                    bb_left_solve<T, N>(b, i, n, S, LD, true, false, false, di, sm[g].rb);           /* L Y = B */
                    bb_left_solve<T, N>(b, i, n, S, LD, false, true, true, bb_conj(di), sm[g].rb);   /* L^H X = Y */
                } else {
                    bb_left_solve<T, N>(b, i, n, S, LD, true, true, true, bb_conj(di), sm[g].rb);    /* U^H Y = B */
                    bb_left_solve<T, N>(b, i, n, S, LD, false, false, false, di, sm[g].rb);          /* U X = Y */
                }
                if (write && i < n) {
#pragma unroll
                    for (int j = 0; j < N; j++)
                        if (cb + j < nrhs) B[i + (cb + j) * ldb] = b[j];
                }
            }
        } else {
            /* B is nrhs x n: blocks of N rows, thread i holds row rb0 + i */
            for (int rb0 = 0; rb0 < nrhs; rb0 += N) {
                const int row = rb0 + i;
                const bool rok = s.active && row < nrhs;
                T b[N];
#pragma unroll
                for (int j = 0; j < N; j++) b[j] = (rok && j < n) ? B[row + j * ldb] : bb_zero<T>();
                if (!upper) {
                    bb_right_solve<T, N, true, true>(b, n, S, LD, true, sm[g].dvc);     /* Z L^H = B */
                    bb_right_solve<T, N, false, false>(b, n, S, LD, false, sm[g].dv);   /* X L = Z */
                } else {
                    bb_right_solve<T, N, true, false>(b, n, S, LD, false, sm[g].dv);    /* Z U = B */
                    bb_right_solve<T, N, false, true>(b, n, S, LD, true, sm[g].dvc);    /* X U^H = Z */
                }
                if (write && row < nrhs) {
#pragma unroll
                    for (int j = 0; j < N; j++)
                        if (j < n) B[row + j * ldb] = b[j];
                }
            }
        }
        if (FACTOR && s.active && i == 0 && d.info) d.info[s.pid] = info;
        __syncwarp();
    }
}

template <typename T, int N>
cudaError_t run_potrf(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    constexpr int BS = bb_small_threads(N, 2 * N * (int)sizeof(T));
    k_potrf<T, N, BS><<<bb_small_grid(d.count, BS / N), BS, 0, q->stream>>>(d, p.n, p.lda, p.uplo == BblasUpper);
    return cudaGetLastError();
}

template <typename T, int N>
cudaError_t run_potrs(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int factor)
{
    constexpr int BS = bb_small_threads(N, (int)sizeof(potrs_smem<T, N>));
    const unsigned grid = bb_small_grid(d.count, BS / N);
    const int up = p.uplo == BblasUpper;
    if (factor)
        k_potrs<T, N, BS, true><<<grid, BS, 0, q->stream>>>(d, p.n, p.nrhs, p.lda, p.ldb, up, p.rhs_right);
    else
        k_potrs<T, N, BS, false><<<grid, BS, 0, q->stream>>>(d, p.n, p.nrhs, p.lda, p.ldb, up, p.rhs_right);
    return cudaGetLastError();
}

template <typename T>
cudaError_t potrf_T(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    BB_SMALL_BY_BOUND(p.n, (run_potrf<T, N>(p, d, q)));
}

template <typename T>
cudaError_t potrs_T(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int factor)
{
    BB_SMALL_BY_BOUND(p.n, (run_potrs<T, N>(p, d, q, factor)));
}

} // namespace

cudaError_t bb_small_potrf(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    if (p.n > BB_SMALL_MAX) return cudaErrorNotSupported;
    BB_SMALL_BY_PREC(prec, potrf_T<T>(p, d, q));
}

cudaError_t bb_small_potrs(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int factor)
{
    if (p.n > BB_SMALL_MAX) return cudaErrorNotSupported;
    BB_SMALL_BY_PREC(prec, potrs_T<T>(p, d, q, factor));
}
