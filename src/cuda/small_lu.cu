/*
 * Register kernels for the LU family, m, n <= 32 (seed 003):
 *   getrf / getrfnp  a row per thread, pivot search by shuffles over the
 *                    group, lazy swap (rows never move in registers; each
 *                    thread tracks the position of its row and writes it
 *                    there at the end), 1-based LAPACK ipiv
 *   getri / _oop     inv(A) = inv(U) inv(L) P: thread j solves
 *                    U L x = e_sigma(j) for column j of the inverse, reading
 *                    the factors from shared memory, then the inverse is
 *                    written back through shared memory (coalesced)
 * p.rowmajor (element (i,j) at j + i*ld) is honoured through the strides.
 */
#include "small.h"

namespace {

/* ------------------------------------------------------------------ getrf */

template <typename T, int N, int BS>
__global__ void __launch_bounds__(BS) k_getrf(const bb_dev_batch d, int m, int n, int64_t lda0, int rowmajor,
                                              int pivot)
{
    typedef typename bb_real<T>::type R;
    constexpr int PPB = BS / N;
    __shared__ __align__(16) T sbuf[PPB][2][N];
    const int i = threadIdx.x % N, g = threadIdx.x / N;
    const int mn = m < n ? m : n;
    for (int64_t base = (int64_t)blockIdx.x * PPB; base < d.count; base += (int64_t)gridDim.x * PPB) {
        const int64_t lda = bb_opaque(lda0), si = rowmajor ? lda : 1, sj = rowmajor ? 1 : lda;
        const bb_small_slot s = bb_small_take(d, base, g);
        T *A = s.active ? bb_dev_ptr<T>(d.opd[BB_A], s.pid) : NULL;
        const bool mine = s.active && i < m;
        T r[N];
#pragma unroll
        for (int j = 0; j < N; j++) r[j] = (mine && j < n) ? A[i * si + j * sj] : bb_zero<T>();

        int pos = i;     /* current position of my row */
        int myipiv = 0;  /* lane k: ipiv[k] (1-based) */
        int info = 0;
#pragma unroll
        for (int k = 0; k < N; k++) {
            if (k < mn) {
                int plane = k, ppos = k;
                if (pivot) {
                    /* candidate: rows not yet pivoted; the first NaN wins (CPU rule) */
                    R v = bb_abs1(r[k]);
                    if (v != v) v = (R)INFINITY; /* a NaN is taken first, so it is flagged as the CPU does */
                    if (!(pos >= k && i < m)) v = -1;
                    int bp = pos, bl = i;
#pragma unroll
                    for (int o = 1; o < N; o <<= 1) {
                        R ov = bb_shfl_xor(v, o, N);
                        int op = bb_shfl_xor(bp, o, N), ol = bb_shfl_xor(bl, o, N);
                        if (ov > v || (ov == v && op < bp)) { v = ov; bp = op; bl = ol; }
                    }
                    plane = bl;
                    ppos = bp;
                }
                T *buf = sbuf[g][k & 1];
                if (i == plane) bb_row_put<T, N>(buf, r, k);
                __syncwarp();
                T prow[N];
                bb_row_get<T, N>(buf, prow, k);
                const T piv = prow[k];
                const bool nz = bb_abs1(piv) > 0; /* false for 0 and NaN */
                if (!nz && info == 0) info = k + 1;
                const T inv = nz ? bb_inv(piv) : bb_one<T>();
                if (pivot) {
                    if (i == k) myipiv = ppos + 1;
                    int np = pos;
                    if (pos == k) np = ppos;
                    if (i == plane) np = k;
                    pos = np;
                }
                if (pos > k && i < m) {
                    const T l = r[k] * inv;
                    r[k] = l;
#pragma unroll
                    for (int j = k + 1; j < N; j++) r[j] = r[j] - l * prow[j];
                }
            }
        }
        if (mine) {
            T *dst = A + pos * si;
#pragma unroll
            for (int j = 0; j < N; j++)
                if (j < n) dst[j * sj] = r[j];
        }
        if (pivot && s.active && i < mn) bb_dev_ptr<int>(d.opd[BB_IPIV], s.pid)[i] = myipiv;
        if (s.active && i == 0 && d.info) d.info[s.pid] = info;
        __syncwarp(); /* the row buffers are reused by the next problem */
    }
}

template <typename T, int N>
cudaError_t run_getrf(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int pivot)
{
    constexpr int BS = bb_small_threads(N, 2 * N * (int)sizeof(T));
    k_getrf<T, N, BS><<<bb_grid(d.count, BS / N), BS, 0, q->stream>>>(d, p.m, p.n, p.lda, p.rowmajor, pivot);
    return cudaGetLastError();
}

template <typename T>
cudaError_t getrf_T(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int pivot)
{
    int s = p.m > p.n ? p.m : p.n;
    BB_SMALL_BY_BOUND(s, (run_getrf<T, N>(p, d, q, pivot)));
}

/* ------------------------------------------------------------------ getri */

/* Shared memory of one group: the factors (ld = N + E, 16-byte aligned
   columns for vector broadcasts), reciprocals of diag(U). */
template <typename T, int N> struct __align__(16) getri_smem {
    static constexpr int LD = N + bb_vec<T>::E;
    T f[N * LD];
    T dinv[N];
};

template <typename T, int N, int BS>
__global__ void __launch_bounds__(BS) k_getri(const bb_dev_batch d, int n, int64_t lda0, int64_t ldb0,
                                              int rowmajor, int oop)
{
    constexpr int PPB = BS / N;
    constexpr int E = bb_vec<T>::E;
    constexpr int LD = getri_smem<T, N>::LD;
    __shared__ __align__(16) getri_smem<T, N> sm[PPB];
    const int t = threadIdx.x % N, g = threadIdx.x / N;
    const int lane0 = (threadIdx.x & 31) & ~(N - 1);
    T *F = sm[g].f;

    for (int64_t base = (int64_t)blockIdx.x * PPB; base < d.count; base += (int64_t)gridDim.x * PPB) {
        const int64_t lda = bb_opaque(lda0), ldb = bb_opaque(ldb0);
        const int64_t sa_i = rowmajor ? lda : 1, sa_j = rowmajor ? 1 : lda;
        const int64_t sb_i = rowmajor ? ldb : 1, sb_j = rowmajor ? 1 : ldb;
        const bb_small_slot s = bb_small_take(d, base, g);
        const T *A = s.active ? bb_dev_ptr<T>(d.opd[BB_A], s.pid) : NULL;
        const bool mine = s.active && t < n;
        /* row t of the factors into column-major shared memory */
#pragma unroll
        for (int c = 0; c < N; c++) F[t + c * LD] = (mine && c < n) ? A[t * sa_i + c * sa_j] : bb_zero<T>();
        int ip = t;
        if (mine) ip = bb_dev_ptr<int>(d.opd[BB_IPIV], s.pid)[t] - 1;
        const T diag = F[t * (LD + 1)]; /* own store: no barrier needed */
        /* info: first exactly zero (or NaN) U(k,k) */
        const bool bad = t < n && !(bb_abs1(diag) > 0);
        const unsigned ball = (__ballot_sync(0xffffffffu, bad) >> lane0) & (N == 32 ? 0xffffffffu : ((1u << N) - 1));
        const int info = ball ? __ffs(ball) : 0;
        sm[g].dinv[t] = (t < n && !bad) ? bb_inv(diag) : bb_zero<T>();
        /* sigma(t): final position of row t under the interchanges */
        int sg = t;
        for (int k = 0; k < n; k++) {
            int pk = bb_shfl(ip, k, N);
            if (sg == k) sg = pk;
            else if (sg == pk) sg = k;
        }
        __syncwarp();
        T x[N];
#pragma unroll
        for (int r = 0; r < N; r++) x[r] = (r == sg) ? bb_one<T>() : bb_zero<T>();
        /* L y = e_sigma (unit lower) */
#pragma unroll
        for (int k = 0; k < N - 1; k++) {
            if (k < n) {
                T lcol[N];
                bb_row_get<T, N>(F + k * LD, lcol, k + 1);
                const T xk = x[k];
#pragma unroll
                for (int r = k + 1; r < N; r++) x[r] = x[r] - lcol[r] * xk;
            }
        }
        /* U x = y */
#pragma unroll
        for (int k = N - 1; k >= 0; k--) {
            if (k < n) {
                x[k] = x[k] * sm[g].dinv[k];
                if (k > 0) {
                    T ucol[N];
                    /* rows 0..k-1 of column k */
#pragma unroll
                    for (int r0 = 0; r0 < N; r0 += E)
                        if (r0 < k) bb_ld16(F + k * LD + r0, &ucol[r0]);
                    const T xk = x[k];
#pragma unroll
                    for (int r = 0; r < k; r++) x[r] = x[r] - ucol[r] * xk;
                }
            }
        }
        __syncwarp();
        /* thread t holds column t of the inverse: transpose through F */
#pragma unroll
        for (int r = 0; r < N; r++) F[r + t * LD] = x[r];
        __syncwarp();
        if (mine && info == 0) {
            T *B = oop ? bb_dev_ptr<T>(d.opd[BB_B], s.pid) : (T *)A;
            const int64_t si = oop ? sb_i : sa_i, sj = oop ? sb_j : sa_j;
#pragma unroll
            for (int c = 0; c < N; c++)
                if (c < n) B[t * si + c * sj] = F[t + c * LD];
        }
        if (s.active && t == 0 && d.info) d.info[s.pid] = info;
        __syncwarp();
    }
}

template <typename T, int N>
cudaError_t run_getri(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int oop)
{
    constexpr int BS = bb_small_threads(N, (int)sizeof(getri_smem<T, N>));
    k_getri<T, N, BS><<<bb_grid(d.count, BS / N), BS, 0, q->stream>>>(d, p.n, p.lda, p.ldb, p.rowmajor, oop);
    return cudaGetLastError();
}

template <typename T>
cudaError_t getri_T(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int oop)
{
    BB_SMALL_BY_BOUND(p.n, (run_getri<T, N>(p, d, q, oop)));
}

} // namespace

cudaError_t bb_small_getrf(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int pivot)
{
    if (p.m > bb_small_max(prec) || p.n > bb_small_max(prec)) return cudaErrorNotSupported;
    BB_SMALL_BY_PREC(prec, getrf_T<T>(p, d, q, pivot));
}

cudaError_t bb_small_getri(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int oop)
{
    if (p.n > bb_small_max(prec)) return cudaErrorNotSupported;
    BB_SMALL_BY_PREC(prec, getri_T<T>(p, d, q, oop));
}
