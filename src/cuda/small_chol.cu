/*
 * Register kernels for the Cholesky family, n <= 32 (seed 004, in
 * registers): potrf (both uplo), potrs (any nrhs, left or right-hand
 * storage) and posv (potrf + potrs fused: A is read once).
 * A row per thread, always in the lower view: thread i holds row i of L
 * (lower: coalesced loads of the column-major triangle; upper: L = U^H,
 * row i of L is conj of column i of U, loaded with a stride).
 */
#include "small.h"

namespace {

/* ------------------------------------------------------------------ potrf */

template <typename T, int N, int M, int BS, bool VAR>
__global__ void __launch_bounds__(BS, (bb_var_minb<T, N, VAR>::value)) k_potrf(const bb_dev_batch d, int n0, int64_t lda0, int upper, int sub)
{
    constexpr int PPB = BS / N;
    __shared__ __align__(16) T rbuf[PPB][2 * N];
    const int i = threadIdx.x % N, g = threadIdx.x / N;
    for (int64_t base = (int64_t)blockIdx.x * PPB; base < d.count; base += (int64_t)gridDim.x * PPB) {
        const bb_vdim z = bb_dims<VAR>(d, base + g, 0, n0, 0, 0, lda0, 0, 0);
        const int n = z.n;
        const int64_t lda = bb_opaque(z.lda);
        const bb_small_slot s = bb_small_take(d, base, g);
        T *A = s.active ? bb_dev_ptr<T>(d.opd[BB_A], s.pid) : NULL;
        const bool mine = s.active && i < n;
        T r[N];
        bb_load_lower_row<T, N>(r, A, i, n, lda, upper, mine);
        if (sub && mine) { /* A - W, W's lower view (ld n): the blocked driver's update */
            const T *W = bb_dev_ptr<T>(d.opd[BB_C], s.pid);
#pragma unroll
            for (int j = 0; j < N; j++)
                if (j < n && j <= i) r[j] = r[j] - (upper ? bb_conj(W[j + i * n]) : W[i + j * n]);
        }
        const int info = bb_potrf_rows<T, N, M>(r, i, n, rbuf[g]);
        if (mine) bb_store_lower_row<T, N>(r, A, i, n, lda, upper);
        if (s.active && i == 0 && d.info) d.info[s.pid] = info;
    }
}

/* ---------------------------------------------------------- potrs / posv */

template <typename T, int N> struct __align__(16) potrs_smem {
    T rb[2 * N];                  /* row buffer (first: 16-byte aligned) */
    T S[bb_smat<T, N>::SIZE];     /* L (= U^H for upper) */
};

/*
 * Solves A X = B with A = L L^H, L = the factor (U^H for upper) held in S.
 * B is n x nrhs, done in blocks of WB columns (N; 16 for posv at N = 32),
 * thread i holding row i (bb_left_solve), or in bb_tile_solve's 2-D tiles
 * where bb_tile_rows says (R rows x WB/R columns a thread: complex types
 * from N = 16).
 * rhs_right (the row-major normalisation): B is stored nrhs x n and
 * X A = B is solved as conj(A) X^T = B^T: the same two solves on the
 * conjugated factor, rows of the tile being columns of B (strided loads).
 * FACTOR: posv, A is factored first (and written back).
 */
template <typename T, int N, int BS, bool FACTOR, bool VAR>
__global__ void __launch_bounds__(BS) k_potrs(const bb_dev_batch d, int n0, int nrhs0, int64_t lda0, int64_t ldb0,
                                              int upper, int right)
{
    constexpr int PPB = BS / N;
    constexpr int LD = bb_smat<T, N>::LD;
    /* columns of B a block: posv at N = 32 takes two blocks of 16 (d: 94
       registers instead of 168, 5 blocks an SM instead of 3); the columns are
       independent, so the bits do not depend on it */
    constexpr int WB = FACTOR && N == 32 ? 16 : N;
    __shared__ __align__(16) potrs_smem<T, N> sm[PPB];
    const int i = threadIdx.x % N, g = threadIdx.x / N;
    T *S = sm[g].S;
    for (int64_t base = (int64_t)blockIdx.x * PPB; base < d.count; base += (int64_t)gridDim.x * PPB) {
        const bb_vdim z = bb_dims<VAR>(d, base + g, 0, n0, 0, nrhs0, lda0, ldb0, 0);
        const int n = z.n, nrhs = z.nrhs;
        const int64_t lda = bb_opaque(z.lda), ldb = bb_opaque(z.ldb);
        const int64_t bi = right ? ldb : 1, bj = right ? 1 : ldb;
        const bb_small_slot s = bb_small_take(d, base, g);
        T *A = s.active ? bb_dev_ptr<T>(d.opd[BB_A], s.pid) : NULL;
        T *B = s.active ? bb_dev_ptr<T>(d.opd[BB_B], s.pid) : NULL;
        const bool mine = s.active && i < n;
        T r[N];
        bb_load_lower_row<T, N>(r, A, i, n, lda, upper, mine);
        int info = 0;
        if (FACTOR) {
            info = bb_potrf_rows<T, N>(r, i, n, sm[g].rb);
            if (mine) bb_store_lower_row<T, N>(r, A, i, n, lda, upper);
        }
#pragma unroll
        for (int j = 0; j < N; j++) S[i + j * LD] = r[j];
        constexpr int R = bb_tile_rows<T, N, false>::value;
        if constexpr (R == 1) { /* one row a thread */
            const T di = i < n ? bb_inv(S[i * (LD + 1)]) : bb_zero<T>(), dic = bb_conj(di);
            __syncwarp();
            const bool write = mine && info == 0;
            for (int cb = 0; cb < nrhs; cb += WB) {
                T b[WB];
#pragma unroll
                for (int j = 0; j < WB; j++) b[j] = (mine && cb + j < nrhs) ? B[i * bi + (cb + j) * bj] : bb_zero<T>();
                /* L Y = B, L^H X = Y (right: conj(L) Y = B^T, L^T X^T = Y) */
                bb_left_solve<T, WB>(b, i, n, S, LD, true, false, right, right ? dic : di, sm[g].rb);
                bb_left_solve<T, WB>(b, i, n, S, LD, false, true, !right, right ? di : dic, sm[g].rb);
                if (write) {
#pragma unroll
                    for (int j = 0; j < WB; j++)
                        if (cb + j < nrhs) B[i * bi + (cb + j) * bj] = b[j];
                }
            }
            if (FACTOR && s.active && i == 0 && d.info) d.info[s.pid] = info;
            __syncwarp();
            continue;
        }
        /* the solve in bb_tile_solve's tiles: thread i holds rows
           i % G + G r (r < R), columns c0 .. c0 + WC - 1 of a block */
        constexpr int WC = WB / R, G = N / R;
        const int rg = i % G, c0 = (i / G) * WC;
        __syncwarp(); /* S complete: the tiles' rows are other threads' */
        T di[R], dic[R];
#pragma unroll
        for (int r = 0; r < R; r++) {
            const int row = rg + G * r;
            di[r] = row < n ? bb_inv(S[row * (LD + 1)]) : bb_zero<T>();
            dic[r] = bb_conj(di[r]);
        }
        const bool write = s.active && info == 0;
        for (int cb = 0; cb < nrhs; cb += WB) {
            const int nb = nrhs - cb < WB ? nrhs - cb : WB;
            T b[R][WC];
#pragma unroll
            for (int r = 0; r < R; r++) {
                const int row = rg + G * r;
                const bool in = s.active && row < n;
#pragma unroll
                for (int j = 0; j < WC; j++)
                    b[r][j] = (in && c0 + j < nb) ? B[row * bi + (cb + c0 + j) * bj] : bb_zero<T>();
            }
            /* L Y = B, L^H X = Y (right: conj(L) Y = B^T, L^T X^T = Y) */
            bb_tile_solve<T, N, R, WC>(b, i, n, nb, S, 1, LD, true, right, false, right ? dic : di, sm[g].rb);
            bb_tile_solve<T, N, R, WC>(b, i, n, nb, S, LD, 1, false, !right, false, right ? di : dic, sm[g].rb);
            if (write) {
#pragma unroll
                for (int r = 0; r < R; r++)
                    if (rg + G * r < n) {
#pragma unroll
                        for (int j = 0; j < WC; j++)
                            if (c0 + j < nb) B[(rg + G * r) * bi + (cb + c0 + j) * bj] = b[r][j];
                    }
            }
        }
        if (FACTOR && s.active && i == 0 && d.info) d.info[s.pid] = info;
        __syncwarp();
    }
}

template <typename T, int N, int M>
cudaError_t run_potrf(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    constexpr int BS = bb_small_threads(N, 2 * N * (int)sizeof(T));
    const int sub = d.opd[BB_C].ptr != NULL || d.opd[BB_C].base != NULL;
    const unsigned grid = bb_grid(d.count, BS / N);
    const int up = p.uplo == BblasUpper;
    if (d.vdim) k_potrf<T, N, M, BS, true><<<grid, BS, 0, q->stream>>>(d, p.n, p.lda, up, sub);
    else k_potrf<T, N, M, BS, false><<<grid, BS, 0, q->stream>>>(d, p.n, p.lda, up, sub);
    return cudaGetLastError();
}

template <typename T, int N>
cudaError_t run_potrs(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int factor)
{
    constexpr int BS = bb_small_threads(N, (int)sizeof(potrs_smem<T, N>));
    const unsigned grid = bb_grid(d.count, BS / N);
    const int up = p.uplo == BblasUpper;
    const int v = d.vdim != NULL;
    if (factor && v) k_potrs<T, N, BS, true, true><<<grid, BS, 0, q->stream>>>(d, p.n, p.nrhs, p.lda, p.ldb, up, p.rhs_right);
    else if (factor) k_potrs<T, N, BS, true, false><<<grid, BS, 0, q->stream>>>(d, p.n, p.nrhs, p.lda, p.ldb, up, p.rhs_right);
    else if (v) k_potrs<T, N, BS, false, true><<<grid, BS, 0, q->stream>>>(d, p.n, p.nrhs, p.lda, p.ldb, up, p.rhs_right);
    else k_potrs<T, N, BS, false, false><<<grid, BS, 0, q->stream>>>(d, p.n, p.nrhs, p.lda, p.ldb, up, p.rhs_right);
    return cudaGetLastError();
}

template <typename T>
cudaError_t potrf_T(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    BB_SMALL_BY_BOUND(p.n, (run_potrf<T, N, M>(p, d, q)));
}

template <typename T>
cudaError_t potrs_T(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int factor)
{
    BB_SMALL_BY_BOUND(p.n, (run_potrs<T, N>(p, d, q, factor)));
}

} // namespace

cudaError_t bb_small_potrf(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    if (p.n > bb_small_max(prec)) return cudaErrorNotSupported;
    BB_SMALL_BY_PREC(prec, potrf_T<T>(p, d, q));
}

cudaError_t bb_small_potrs(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int factor)
{
    if (p.n > bb_small_max(prec)) return cudaErrorNotSupported;
    BB_SMALL_BY_PREC(prec, potrs_T<T>(p, d, q, factor));
}
