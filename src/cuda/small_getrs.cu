/*
 * Register kernels for getrs and gesv, n <= 32 (seed 003), one kernel:
 *
 *   - A group of N threads (N = the size bound, 4/8/16/32) per problem,
 *     BS/N problems a block, the grid-stride loop of small.h.
 *   - A moves through per-group shared memory with flat, coalesced loops
 *     over the stored elements (element e of the n x n matrix is read by
 *     thread e mod N): the same loop serves column- and row-major storage,
 *     only the place the element lands in shared memory differs, so both
 *     layouts compute the same logical problem with the same arithmetic.
 *   - gesv (FACTOR): thread i takes row i of A from shared memory into
 *     registers and runs small_lu.cu's getrf (pivot search by shuffles, lazy
 *     swap: rows never move, each thread tracks its row's final position);
 *     the factored rows are written back to shared memory in their final
 *     order, from there to A (coalesced), and the pivots to ipiv.
 *     getrs: the factors stay in shared memory as loaded; the final position
 *     of each row under ipiv's interchanges is tracked by shuffles as getri
 *     does.  Either way perm[p] = the original row that ends at position p.
 *   - The solve (the shape of small_chol.cu's k_potrs), B in blocks of W
 *     columns (W = 1 for one right-hand side, else N: the whole B at
 *     nrhs <= N), straight from B into registers: row p of the solved
 *     system is row perm[p] of B (NoTrans: P^T B, the interchanges cost
 *     nothing) or row p (Trans/ConjTrans); two triangular solves in which
 *     the coefficient M(i,k) comes from shared memory (M = L, U or their
 *     (conjugate) transposes: a row or a column of the factors, both
 *     conflict-free with the odd leading dimension).  W = 1: thread p holds
 *     row p, x_k is broadcast by shuffle.  W = N: bb_tile_solve's 2-D tiles
 *     (small.h: R rows x W/R columns a thread, bb_tile_rows: R = 4 at N = 32,
 *     2 at complex N = 16, else 1),
 *     row k of X broadcast through the double-buffered row buffer, column
 *     pieces past nrhs skipped; then row p is written (NoTrans) or row
 *     perm[p] (Trans: X = P Z).
 *     Both layouts load the same logical values and run the same arithmetic
 *     (bit-identical results).  B is read once and written once.
 *   - gesv on a singular problem (info = first exactly zero or NaN pivot, as
 *     getrf): A and ipiv are written, B is not (the CPU backend's rule).
 *     All groups of a warp run the same loops (shuffles), a failed or
 *     skipped problem computing without writing.  getrs writes no info.
 */
#include "small.h"

namespace {

template <typename T, int N> struct __align__(16) getrs_smem {
    static constexpr int LD = N + 1; /* S: column-major, odd ld */
    T rb[2 * N];                     /* row buffer (first: 16-byte aligned) */
    T S[N * LD];                     /* A, then the LU factors (logical, column-major) */
    int perm[N];
};

/* Columns of B a block (W > 1): N, the whole B at nrhs <= N. */
template <typename T, int N> struct getrs_width { static constexpr int value = N; };

/* Stored mr x mc matrix P (element (a,b) at P[a + b*ld]) to shared D
   (element (a,b) at D[a*da + b*db]) and back: thread t takes the flat
   indices t, t + N, ... (consecutive threads, consecutive addresses). */
template <typename T, int N>
__device__ __forceinline__ void stage_in(const T *P, int64_t ld, int mr, int mc, T *D, int da, int db, int t)
{
    const int tot = mr * mc;
    if (tot <= 0) return;
    const int q = N / mr, rem = N - q * mr;
    int a = t % mr, b = t / mr;
#pragma unroll 4
    for (int e = t; e < tot; e += N) {
        D[a * da + b * db] = P[a + b * ld];
        a += rem;
        b += q;
        if (a >= mr) { a -= mr; b++; }
    }
}
template <typename T, int N>
__device__ __forceinline__ void stage_out(T *P, int64_t ld, int mr, int mc, const T *D, int da, int db, int t)
{
    const int tot = mr * mc;
    if (tot <= 0) return;
    const int q = N / mr, rem = N - q * mr;
    int a = t % mr, b = t / mr;
#pragma unroll 4
    for (int e = t; e < tot; e += N) {
        P[a + b * ld] = D[a * da + b * db];
        a += rem;
        b += q;
        if (a >= mr) { a -= mr; b++; }
    }
}

/*
 * One triangular solve on one right-hand side (W = 1): thread p holds
 * B(p) in b; M(p,k) = S[p*si + k*sk] (conjugated if cj), lower (forward)
 * or upper (backward); dinv = 1 / M(p,p) unless unit (then nothing is
 * scaled); x_k is broadcast by shuffle.  Blocks of right-hand sides go
 * through bb_tile_solve (small.h) instead.
 */
template <typename T, int N>
__device__ __forceinline__ void lu_solve1(T &b, int p, int n, const T *S, int si, int sk, bool cj, bool lower,
                                          bool unit, T dinv)
{
#pragma unroll (N <= 8 ? N : 1)
    for (int s = 0; s < n; s++) {
        const int k = lower ? s : n - 1 - s;
        const bool upd = lower ? (p > k && p < n) : p < k;
        if (!unit && p == k) b = b * dinv;
        const T x = bb_shfl(b, k, N);
        if (upd) b = b - bb_conj_if(S[p * si + k * sk], cj) * x;
    }
}

template <typename T, int N, int M, int W, int BS, bool FACTOR, bool VAR>
__global__ void __launch_bounds__(BS) k_getrs(const bb_dev_batch d, int n0, int nrhs0, int64_t lda0, int64_t ldb0,
                                              int rowmajor, int trans)
{
    typedef typename bb_real<T>::type R;
    typedef getrs_smem<T, N> SM;
    constexpr int PPB = BS / N, LD = SM::LD;
    __shared__ SM sm[PPB];
    const int t = threadIdx.x % N, g = threadIdx.x / N;
    T *S = sm[g].S, *rb = sm[g].rb;
    const bool tr = !FACTOR && trans != BblasNoTrans, cj = !FACTOR && trans == BblasConjTrans;
    const int si = tr ? LD : 1, sk = tr ? 1 : LD; /* M(p,k) = S[p*si + k*sk] */
    /* shared position of A's stored element (a,b) */
    const int ada = rowmajor ? LD : 1, adb = rowmajor ? 1 : LD;
    for (int64_t base = (int64_t)blockIdx.x * PPB; base < d.count; base += (int64_t)gridDim.x * PPB) {
        const bb_vdim z = bb_dims<VAR>(d, base + g, 0, n0, 0, nrhs0, lda0, ldb0, 0);
        const int n = z.n, nrhs = z.nrhs;
        const int64_t lda = bb_opaque(z.lda);
        const bb_small_slot s = bb_small_take(d, base, g);
        T *A = s.active ? bb_dev_ptr<T>(d.opd[BB_A], s.pid) : NULL;
        int *ipiv = s.active ? bb_dev_ptr<int>(d.opd[BB_IPIV], s.pid) : NULL;
        if (s.active) stage_in<T, N>(A, lda, n, n, S, ada, adb, t);
        __syncwarp();
        int info = 0;
        if (FACTOR) {
            T r[N];
#pragma unroll
            for (int j = 0; j < N; j++) r[j] = (t < n && j < n) ? S[t + j * LD] : bb_zero<T>();
            int pos = t, myipiv = 0;
            info = bb_getrf_rows<T, N, M>(r, t, n, n, pos, myipiv, (T(*)[N])rb, 1);
            /* S was read into registers before the first step's barrier */
            if (t < n) {
#pragma unroll
                for (int j = 0; j < N; j++)
                    if (j < n) S[pos + j * LD] = r[j];
                sm[g].perm[pos] = t;
                if (s.active) ipiv[t] = myipiv;
            }
            __syncwarp();
            if (s.active) stage_out<T, N>(A, lda, n, n, S, ada, adb, t);
        } else {
            /* final position of row t under the interchanges (invalid pivots: no swap) */
            const int ip = (s.active && t < n) ? ipiv[t] - 1 : t;
            int pos = t;
            for (int k = 0; k < n; k++) {
                const int pk = bb_shfl(ip, k, N);
                if (pk >= 0 && pk < n) {
                    if (pos == k) pos = pk;
                    else if (pos == pk) pos = k;
                }
            }
            if (t < n) sm[g].perm[pos] = t;
            __syncwarp();
        }
        const bool ok = s.active && info == 0; /* B is read and written */
        T *B = ok ? bb_dev_ptr<T>(d.opd[BB_B], s.pid) : NULL;
        if constexpr (W == 1) {
            const int orig = t < n ? sm[g].perm[t] : t;
            const T dinv = t < n ? bb_inv(bb_conj_if(S[t * (LD + 1)], cj)) : bb_zero<T>();
            const bool io = ok && t < n; /* row t of B */
            const int src = tr ? t : orig, dst = tr ? orig : t;
            __syncwarp();
            for (int cb = 0; cb < nrhs; cb++) {
                const int64_t ldb = bb_opaque(z.ldb);
                const int64_t bi = rowmajor ? ldb : 1, bj = rowmajor ? 1 : ldb;
                T b = io ? B[src * bi + cb * bj] : bb_zero<T>();
                if (tr) { /* op(U) Y = B (lower, diagonal), op(L) Z = Y (upper, unit) */
                    lu_solve1<T, N>(b, t, n, S, si, sk, cj, true, false, dinv);
                    lu_solve1<T, N>(b, t, n, S, si, sk, cj, false, true, dinv);
                } else {      /* L Y = P^T B, U X = Y */
                    lu_solve1<T, N>(b, t, n, S, si, sk, cj, true, true, dinv);
                    lu_solve1<T, N>(b, t, n, S, si, sk, cj, false, false, dinv);
                }
                if (io) B[dst * bi + cb * bj] = b;
            }
        } else {
            /* blocks of W columns in bb_tile_solve's tiles: thread t holds
               rows t % G + G r (r < R), columns c0 .. c0 + WC - 1 */
            constexpr int R = bb_tile_rows<T, N, true>::value, WC = W / R, G = N / R;
            const int rg = t % G, c0 = (t / G) * WC;
            int src[R], dst[R];
            T dinv[R];
#pragma unroll
            for (int r = 0; r < R; r++) {
                const int i = rg + G * r;
                const int orig = i < n ? sm[g].perm[i] : i;
                src[r] = tr ? i : orig;
                dst[r] = tr ? orig : i;
                dinv[r] = i < n ? bb_inv(bb_conj_if(S[i * (LD + 1)], cj)) : bb_zero<T>();
            }
            __syncwarp();
            for (int cb = 0; cb < nrhs; cb += W) {
                const int nb = nrhs - cb < W ? nrhs - cb : W;
                /* logical B(i,j) at B[i*bi + j*bj]; laundered here, so the
                   offsets are not held across blocks */
                const int64_t ldb = bb_opaque(z.ldb);
                const int64_t bi = rowmajor ? ldb : 1, bj = rowmajor ? 1 : ldb;
                T b[R][WC];
#pragma unroll
                for (int r = 0; r < R; r++) {
                    const bool io = ok && rg + G * r < n;
#pragma unroll
                    for (int j = 0; j < WC; j++)
                        b[r][j] = (io && c0 + j < nb) ? B[src[r] * bi + (cb + c0 + j) * bj] : bb_zero<T>();
                }
                __syncwarp(); /* every row read before any is written (Trans writes row perm[i]) */
                if (tr) { /* op(U) Y = B (lower, diagonal), op(L) Z = Y (upper, unit) */
                    bb_tile_solve<T, N, R, WC>(b, t, n, nb, S, si, sk, true, cj, false, dinv, rb);
                    bb_tile_solve<T, N, R, WC>(b, t, n, nb, S, si, sk, false, cj, true, dinv, rb);
                } else {      /* L Y = P^T B, U X = Y */
                    bb_tile_solve<T, N, R, WC>(b, t, n, nb, S, si, sk, true, cj, true, dinv, rb);
                    bb_tile_solve<T, N, R, WC>(b, t, n, nb, S, si, sk, false, cj, false, dinv, rb);
                }
#pragma unroll
                for (int r = 0; r < R; r++)
                    if (ok && rg + G * r < n) {
#pragma unroll
                        for (int j = 0; j < WC; j++)
                            if (c0 + j < nb) B[dst[r] * bi + (cb + c0 + j) * bj] = b[r][j];
                    }
            }
        }
        if (FACTOR && s.active && t == 0 && d.info) d.info[s.pid] = info;
        __syncwarp(); /* shared memory is reused by the next problem */
    }
}

template <typename T, int N, int M, int W>
cudaError_t run_getrs_w(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int factor)
{
    constexpr int BS = bb_small_threads(N, (int)sizeof(getrs_smem<T, N>));
    const unsigned grid = bb_grid(d.count, BS / N);
    const int v = d.vdim != NULL;
    if constexpr (M != N) { /* the cut columns are the factorisation's (gesv) */
        if (!factor) return cudaErrorNotSupported;
        if (v) k_getrs<T, N, M, W, BS, true, true><<<grid, BS, 0, q->stream>>>(d, p.n, p.nrhs, p.lda, p.ldb, p.rowmajor, BblasNoTrans);
        else k_getrs<T, N, M, W, BS, true, false><<<grid, BS, 0, q->stream>>>(d, p.n, p.nrhs, p.lda, p.ldb, p.rowmajor, BblasNoTrans);
        return cudaGetLastError();
    }
    if (factor && v)
        k_getrs<T, N, M, W, BS, true, true><<<grid, BS, 0, q->stream>>>(d, p.n, p.nrhs, p.lda, p.ldb, p.rowmajor, BblasNoTrans);
    else if (factor)
        k_getrs<T, N, M, W, BS, true, false><<<grid, BS, 0, q->stream>>>(d, p.n, p.nrhs, p.lda, p.ldb, p.rowmajor, BblasNoTrans);
    else if (v)
        k_getrs<T, N, M, W, BS, false, true><<<grid, BS, 0, q->stream>>>(d, p.n, p.nrhs, p.lda, p.ldb, p.rowmajor, p.trans);
    else
        k_getrs<T, N, M, W, BS, false, false><<<grid, BS, 0, q->stream>>>(d, p.n, p.nrhs, p.lda, p.ldb, p.rowmajor, p.trans);
    return cudaGetLastError();
}

template <typename T, int N, int M = N>
cudaError_t run_getrs(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int factor)
{
    if (p.nrhs <= 1) return run_getrs_w<T, N, M, 1>(p, d, q, factor);
    return run_getrs_w<T, N, M, getrs_width<T, N>::value>(p, d, q, factor);
}

/* every size up to 32 in every precision (no spills: see the head comment of
   the report / -Xptxas -v) */
template <typename T>
cudaError_t getrs_T(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int factor)
{
    switch (bb_small_bound(p.n)) {
    case 4: return run_getrs<T, 4>(p, d, q, factor);
    case 8: return run_getrs<T, 8>(p, d, q, factor);
    case 16: return run_getrs<T, 16>(p, d, q, factor);
    default: /* gesv's LU loops to 24 columns for 17..24 (bb_small_cols) */
        return factor && bb_small_cols(p.n) == 24 ? run_getrs<T, 32, 24>(p, d, q, factor) : run_getrs<T, 32>(p, d, q, factor);
    }
}

} // namespace

cudaError_t bb_small_getrs(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int factor)
{
    if (p.n < 1 || p.n > BB_SMALL_MAX || p.nrhs < 0) return cudaErrorNotSupported;
    if (d.count <= 0 || (!factor && p.nrhs == 0)) return cudaSuccess;
    BB_SMALL_BY_PREC(prec, getrs_T<T>(p, d, q, factor));
}
