/*
 * Register kernels for the LU family, m, n <= 32 (seed 003):
 *   getrf / getrfnp  a row per thread, pivot search over the group
 *                    (bb_group_argmax), lazy swap (rows never move in
 *                    registers; each thread tracks the position of its row
 *                    and writes it there at the end), 1-based LAPACK ipiv
 *   getri / _oop     inv(A) = inv(U) inv(L) P: thread j solves
 *                    U L x = e_sigma(j) for column j of the inverse, reading
 *                    the factors from shared memory, then the inverse is
 *                    written back through shared memory (coalesced)
 * p.rowmajor (element (i,j) at j + i*ld) is honoured through the strides.
 */
#include "small.h"

namespace {

/* ------------------------------------------------------------------ getrf */

template <typename T, int N, int M, int BS, bool VAR>
__global__ void __launch_bounds__(BS, (bb_var_minb<T, N, VAR>::value)) k_getrf(const bb_dev_batch d, int m0, int n0, int64_t lda0, int rowmajor,
                                              int pivot)
{
    constexpr int PPB = BS / N;
    __shared__ __align__(16) T sbuf[PPB][2][N];
    const int i = threadIdx.x % N, g = threadIdx.x / N;
    for (int64_t base = (int64_t)blockIdx.x * PPB; base < d.count; base += (int64_t)gridDim.x * PPB) {
        const bb_vdim z = bb_dims<VAR>(d, base + g, m0, n0, 0, 0, lda0, 0, 0);
        const int m = z.m, n = z.n, mn = m < n ? m : n;
        const int64_t lda = bb_opaque(z.lda), si = rowmajor ? lda : 1, sj = rowmajor ? 1 : lda;
        const bb_small_slot s = bb_small_take(d, base, g);
        T *A = s.active ? bb_dev_ptr<T>(d.opd[BB_A], s.pid) : NULL;
        const bool mine = s.active && i < m;
        T r[N];
#pragma unroll
        for (int j = 0; j < N; j++) r[j] = (mine && j < n) ? A[i * si + j * sj] : bb_zero<T>();

        int pos = i;     /* current position of my row */
        int myipiv = 0;  /* lane k: ipiv[k] (1-based) */
        const int info = bb_getrf_rows<T, N, M>(r, i, m, mn, pos, myipiv, sbuf[g], pivot);
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

template <typename T, int N, int M>
cudaError_t run_getrf(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int pivot)
{
    constexpr int BS = bb_small_threads(N, 2 * N * (int)sizeof(T));
    const unsigned grid = bb_grid(d.count, BS / N);
    if (d.vdim) k_getrf<T, N, M, BS, true><<<grid, BS, 0, q->stream>>>(d, p.m, p.n, p.lda, p.rowmajor, pivot);
    else k_getrf<T, N, M, BS, false><<<grid, BS, 0, q->stream>>>(d, p.m, p.n, p.lda, p.rowmajor, pivot);
    return cudaGetLastError();
}

template <typename T>
cudaError_t getrf_T(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int pivot)
{
    int s = p.m > p.n ? p.m : p.n;
    BB_SMALL_BY_BOUND(s, (run_getrf<T, N, M>(p, d, q, pivot)));
}

/* ------------------------------------------------------------------ getri */

/* Shared memory of one group: the factors (ld = N + E, 16-byte aligned
   columns for vector broadcasts), reciprocals of diag(U). */
template <typename T, int N> struct __align__(16) getri_smem {
    static constexpr int LD = N + bb_vec<T>::E;
    T f[N * LD];
    T dinv[N];
};

/* d, bound 32: held to 4 blocks of 128 an SM (128 registers, 12 bytes of
   spills; the compiler's own choice, 146, gives 3) */
template <typename T, int N, int BS, bool VAR>
__global__ void __launch_bounds__(BS, (N == 32 && sizeof(T) == 8 ? 4 : 0)) k_getri(const bb_dev_batch d, int n0, int64_t lda0, int64_t ldb0,
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
        const bb_vdim z = bb_dims<VAR>(d, base + g, 0, n0, 0, 0, lda0, ldb0, 0);
        const int n = z.n;
        const int64_t lda = bb_opaque(z.lda), ldb = bb_opaque(z.ldb);
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
        /* info: first exactly zero U(k,k), as LAPACK's getri, the CPU
           backend (src/cpu/lu.c) and the blocked getri (bb_k_getri_prep); a NaN
           there is computed through (the inverse is NaN, info 0) */
        const bool bad = t < n && bb_abs1(diag) == bb_abs1(bb_zero<T>());
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
                /* column k of L in 16-byte pieces (held whole, the two
                   columns took N registers each: d, bound 32, 162) */
                const T xk = x[k];
#pragma unroll
                for (int r0 = 0; r0 < N; r0 += E)
                    if (r0 + E > k + 1) {
                        T lv[E];
                        bb_ld16(F + k * LD + r0, lv);
#pragma unroll
                        for (int e = 0; e < E; e++)
                            if (r0 + e > k) x[r0 + e] = x[r0 + e] - lv[e] * xk;
                    }
            }
        }
        /* U x = y */
#pragma unroll
        for (int k = N - 1; k >= 0; k--) {
            if (k < n) {
                x[k] = x[k] * sm[g].dinv[k];
                if (k > 0) {
                    /* rows 0..k-1 of column k, in pieces */
                    const T xk = x[k];
#pragma unroll
                    for (int r0 = 0; r0 < N; r0 += E)
                        if (r0 < k) {
                            T uv[E];
                            bb_ld16(F + k * LD + r0, uv);
#pragma unroll
                            for (int e = 0; e < E; e++)
                                if (r0 + e < k) x[r0 + e] = x[r0 + e] - uv[e] * xk;
                        }
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
    const unsigned grid = bb_grid(d.count, BS / N);
    if (d.vdim) k_getri<T, N, BS, true><<<grid, BS, 0, q->stream>>>(d, p.n, p.lda, p.ldb, p.rowmajor, oop);
    else k_getri<T, N, BS, false><<<grid, BS, 0, q->stream>>>(d, p.n, p.lda, p.ldb, p.rowmajor, oop);
    return cudaGetLastError();
}

template <typename T>
cudaError_t getri_T(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int oop)
{
    BB_SMALL_BY_BOUND(p.n, (run_getri<T, N>(p, d, q, oop)));
}

/* ---------------------------------------------------- getrf panel (tall) */

/*
 * The panel of the blocked LU (blocked.cu): an m x jb panel (jb <= NC, m up
 * to RPT * 256 rows), one problem per block, RPT rows per thread in
 * registers, the lazy-swap algorithm of k_getrf (rows never move while the
 * panel is factored; pos tracks a row's position) with the pivot search
 * reduced over the block: each warp's best row by bb_group_argmax, its
 * lane putting the whole row in the warp's slot of shared memory, one
 * barrier, then the best of the warps' candidates by one more warp
 * reduction, read from that slot.  One barrier a step.
 *
 * The step loop is not unrolled (the unrolled one, 284 KB of code for
 * double, spent half its cycles waiting for instructions, H200 session 25):
 * a thread's row is held rotated, w[c] = column k + c at step k, so the
 * pivot column is always w[0] and the update shifts the row by one as it
 * goes (w[c] = w[c + 1] - l p[c + 1]), every index a constant.  The steps
 * run as two loops of one body (panel_step): the first half on all NC
 * columns, the second on the NC / 2 that are left by then.  What leaves
 * the registers goes to the row's own place in A: the multiplier l of
 * column k at step k, and a pivot row's U part at its step; at the end the
 * rows are read back and stored at their final positions.
 *
 * Pivots and the code are relative to the panel (the driver's merge step
 * adds the panel offset).  The interchanges are applied to the other
 * columns of the matrix too (ncols columns in all, the panel starting at
 * column c0 of them): a row that moved carries its whole row along, which
 * is LAPACK's laswp on the left and right blocks.  A problem whose info is
 * nonzero on entry is skipped.
 */
/* One step k of k_getrf_panel on the first W columns of the rotated rows
   (the columns k.. that are left: W = NC while k < NC / 2, then NC / 2). */
template <typename T, int NC, int RPT, int W>
__device__ __forceinline__ void panel_step(T (&w)[RPT][NC], int (&pos)[RPT], int &info, const int k, const int m,
                                           const int jb, const int64_t lda, T *A, int *ipiv, const int pivot,
                                           const int poff, T (*crow)[8][NC], typename bb_real<T>::type (*cval)[8],
                                           int (*cpos)[8])
{
    typedef typename bb_real<T>::type R;
    const int tid = threadIdx.x, nt = blockDim.x, lane = tid & 31, wid = tid >> 5, nw = (nt + 31) >> 5;
    /* this thread's candidate among its rows not yet pivoted: the
       first NaN wins (as the CPU backend), ties go to the lower
       position */
    R bv = -1;
    int bp = 0x7fffffff, bq = 0;
#pragma unroll
    for (int q = 0; q < RPT; q++) {
        const int row = tid + q * nt;
        R v = pivot ? bb_abs1(w[q][0]) : (pos[q] == k ? R(1) : R(-1));
        int kp = pos[q];
        if (v != v) v = (R)INFINITY, kp -= BB_NAN_FIRST; /* a NaN beats a true Inf */
        if (!(row < m && pos[q] >= k)) v = -1;
        if (v > bv || (v == bv && kp < bp)) { bv = v; bp = kp; bq = q; }
    }
    /* the warp's best: its lane puts the row in the warp's slot */
    int wl;
    bp = bb_group_argmax<32, true>(bv, bp, wl);
    if (lane == wl) {
#pragma unroll
        for (int q = 0; q < RPT; q++)
            if (q == bq) bb_row_put<T, NC, W>(crow[k & 1][wid], w[q], 0);
        cval[k & 1][wid] = bv;
        cpos[k & 1][wid] = bp;
    }
    __syncthreads();
    /* the best of the warps' candidates (lane x reads warp x's) */
    R xv = -1;
    int xp = 0x7fffffff, bw;
    if (lane < nw) xv = cval[k & 1][lane], xp = cpos[k & 1][lane];
    int ppos = bb_group_argmax<32, true>(xv, xp, bw);
    if (ppos < 0) ppos += BB_NAN_FIRST;
    const T *prow = crow[k & 1][bw];
    const T piv = prow[0];
    const bool nz = bb_abs1(piv) > 0; /* false for 0 and NaN */
    if (!nz && info == 0) info = k + 1;
    const T inv = nz ? bb_inv(piv) : bb_one<T>();
    if (pivot && tid == 0) ipiv[k] = ppos + 1 + poff;
#pragma unroll
    for (int q = 0; q < RPT; q++) {
        const int row = tid + q * nt;
        const bool me = wid == bw && lane == wl && q == bq; /* my row is the pivot row */
        int np = pos[q];
        if (pos[q] == k) np = ppos;
        if (me) np = k;
        pos[q] = np;
        if (me) { /* U(k, k..jb-1), final: to the row's own place */
            const int64_t ld = bb_opaque(lda); /* (the offsets c * lda not held in registers) */
            T *u = A + row + k * ld;
#pragma unroll
            for (int c = 0; c < W; c++)
                if (c < jb - k) u[0] = w[q][c], u += ld;
        }
        if (np > k && row < m) {
            const T l = w[q][0] * inv;
            A[row + (int64_t)k * lda] = l; /* L(row, k), final */
            bb_row_update_shift<T, NC, W>(w[q], prow, l);
        }
    }
}

template <typename T, int NC, int RPT, bool VAR>
__global__ void __launch_bounds__(256) k_getrf_panel(const bb_dev_batch d, int m_, int jb_, int64_t lda_, int pivot,
                                                     int ncols_, int c0, int poff, int rlo)
{
    typedef typename bb_real<T>::type R;
    __shared__ __align__(16) T crow[2][8][NC]; /* [step & 1][warp]: the warp's candidate row, rotated */
    __shared__ R cval[2][8];
    __shared__ int cpos[2][8];
    const int tid = threadIdx.x, nt = blockDim.x;
    for (int64_t pid = blockIdx.x; pid < d.count; pid += gridDim.x) {
        if (d.info && d.info[pid] != 0) continue; /* uniform over the block */
        int m = m_, jb = jb_, ncols = ncols_;
        int64_t lda = lda_;
        if (VAR) { /* the variable-size driver's step: rows, panel width, the row's columns;
                      this launch takes the panels of rlo < rows <= m_ */
            const bb_vdim v = d.vdim[pid];
            if (v.m <= rlo || v.m > m_) continue;
            m = v.m, jb = v.n, ncols = v.k, lda = v.lda;
        }
        const int mn = m < jb ? m : jb;
        T *A = bb_dev_ptr<T>(d.opd[BB_A], pid);
        int *ipiv = pivot ? bb_dev_ptr<int>(d.opd[BB_IPIV], pid) : NULL;
        T w[RPT][NC];
        int pos[RPT];
#pragma unroll
        for (int q = 0; q < RPT; q++) {
            const int row = tid + q * nt;
            pos[q] = row;
#pragma unroll
            for (int c = 0; c < NC; c++) w[q][c] = (row < m && c < jb) ? A[row + c * lda] : bb_zero<T>();
        }
        int info = 0;
        /* the first half of the steps on all NC columns, the second on the
           NC / 2 that are left (half the update's FMAs there) */
        const int k1 = mn < NC / 2 ? mn : NC / 2;
#pragma unroll 1
        for (int k = 0; k < k1; k++)
            panel_step<T, NC, RPT, NC>(w, pos, info, k, m, jb, lda, A, ipiv, pivot, poff, crow, cval, cpos);
#pragma unroll 1
        for (int k = k1; k < mn; k++)
            panel_step<T, NC, RPT, NC / 2>(w, pos, info, k, m, jb, lda, A, ipiv, pivot, poff, crow, cval, cpos);
        /* every row's final values are in its own place in A: read back,
           then (after every thread has read) stored at their positions */
        __syncthreads();
        { /* (the addresses recomputed, not held from the first loads) */
            const T *src = bb_launder(A);
            const int64_t ld = bb_opaque(lda);
#pragma unroll
            for (int q = 0; q < RPT; q++) {
                const int row = tid + q * nt;
                if (row < m && pos[q] != row) {
#pragma unroll
                    for (int c = 0; c < NC; c++)
                        if (c < jb) w[q][c] = src[row + c * ld];
                }
            }
        }
        __syncthreads();
        {
            T *dst = bb_launder(A);
            const int64_t ld = bb_opaque(lda);
#pragma unroll
            for (int q = 0; q < RPT; q++) {
                const int row = tid + q * nt;
                if (row < m && pos[q] != row) {
#pragma unroll
                    for (int c = 0; c < NC; c++)
                        if (c < jb) dst[pos[q] + c * ld] = w[q][c];
                }
            }
        }
        /* the other columns follow their rows, in chunks of CH columns */
        if (pivot) {
            constexpr int CH = NC / RPT; /* the panel's registers are free again: few barriers */
            const int other = ncols - jb;
            for (int x0 = 0; x0 < other; x0 += CH) {
                /* the chunk's e-th other column, as an offset from the panel
                   (computed where used, not held: the chunk's values are
                   what lives across the barrier) */
                const int64_t ld = bb_opaque(lda);
                const auto col = [&](int e) { return (int64_t)((x0 + e < c0 ? x0 + e : x0 + e + jb) - c0) * ld; };
                T v[RPT][CH];
#pragma unroll
                for (int q = 0; q < RPT; q++) {
                    const bool moved = tid + q * nt < m && pos[q] != tid + q * nt;
#pragma unroll
                    for (int e = 0; e < CH; e++)
                        v[q][e] = moved && x0 + e < other ? A[tid + q * nt + col(e)] : bb_zero<T>();
                }
                __syncthreads();
#pragma unroll
                for (int q = 0; q < RPT; q++) {
                    const bool moved = tid + q * nt < m && pos[q] != tid + q * nt;
#pragma unroll
                    for (int e = 0; e < CH; e++)
                        if (moved && x0 + e < other) A[pos[q] + col(e)] = v[q][e];
                }
                __syncthreads();
            }
        }
        if (tid == 0 && d.info) d.info[pid] = info;
        __syncthreads(); /* the slots are reused by the next problem */
    }
}

template <typename T, int NC>
cudaError_t run_getrf_panel(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int pivot, int ncols,
                            int c0)
{
    if (p.n > NC) return cudaErrorNotSupported;
    const int rpt = p.m <= 256 ? 1 : 2;
    const int rows = (p.m + rpt - 1) / rpt, nt = (rows + 31) / 32 * 32;
    const unsigned g = bb_grid(d.count, 1);
    if (d.vdim) {
        /* a launch per class of rows, each with blocks of its own class's
           width: a small panel does not hold a block sized for the
           largest one (the others' blocks exit at once) */
        static const int hi[4] = {64, 128, 256, 512};
        static_assert(BB_VAR_LU_ROWS <= 512, "the classes of rows cover every panel of the driver");
        for (int c = 0, lo = 0; c < 4 && lo < p.m; lo = hi[c++]) {
            if (hi[c] <= 256)
                k_getrf_panel<T, NC, 1, true><<<g, hi[c], 0, q->stream>>>(d, hi[c], p.n, p.lda, pivot, ncols, c0, c0, lo);
            else
                k_getrf_panel<T, NC, 2, true><<<g, 256, 0, q->stream>>>(d, hi[c], p.n, p.lda, pivot, ncols, c0, c0, lo);
            const cudaError_t e = cudaGetLastError();
            if (e != cudaSuccess) return e;
        }
        return cudaSuccess;
    }
    if (rpt == 1) k_getrf_panel<T, NC, 1, false><<<g, nt, 0, q->stream>>>(d, p.m, p.n, p.lda, pivot, ncols, c0, 0, 0);
    else k_getrf_panel<T, NC, 2, false><<<g, nt, 0, q->stream>>>(d, p.m, p.n, p.lda, pivot, ncols, c0, 0, 0);
    return cudaGetLastError();
}

/* ------------------------------------ the blocked LUs' deferred interchanges */

/*
 * The interchanges of rows j..j+w-1 (global pivots, as LAPACK applies them:
 * in order) on the columns [c0, c1), rows j..m, column-major, all at once.
 * The composed permutation (src[r]: the row whose values end in row r) is
 * built in shared memory; then, cw columns at a time, every row that
 * changes is read into a shared tile (by its own row: the reads are
 * coalesced), and after a barrier every such row takes its new values from
 * the tile (the writes coalesced too).  A row moves once however many of
 * the w interchanges touch it, and the rows that do not change are neither
 * read nor written.  A block per problem, RPT rows per thread (m - j <=
 * RPT * blockDim.x); dynamic shared memory: m - j + w ints, then the tile
 * of (m - j) x cw elements (the launch's largest).  skip[i] != 0: problem
 * i is left alone.
 * VAR (the variable-size driver): each problem's m, n, lda from d.vdim; w
 * is cut to its min(m, n) - j pivots and c1 to min(m, n) (its columns past
 * that take the tail), or, with tail, all its interchanges (j = 0, w =
 * min(m, n)) on its columns [min(m, n), n).
 */
template <typename T, int RPT, bool VAR>
__global__ void __launch_bounds__(256) k_lu_perm(const bb_dev_batch d, const int *skip, int m_, int j_, int w_, int c0_,
                                                 int c1_, int64_t lda_, int tail, int cw, size_t tile_off)
{
    extern __shared__ __align__(16) unsigned char perm_sh[];
    const int tid = threadIdx.x, nt = blockDim.x;
    for (int64_t pid = blockIdx.x; pid < d.count; pid += gridDim.x) {
        if (skip[pid] != 0) continue; /* uniform over the block */
        int m = m_, j = j_, w = w_, c0 = c0_, c1 = c1_;
        int64_t lda = lda_;
        if (VAR) {
            const bb_vdim v = d.vdim[pid];
            const int mn = v.m < v.n ? v.m : v.n;
            m = v.m, lda = v.lda;
            if (tail) j = 0, w = mn, c0 = mn, c1 = v.n;
            else w = w < mn - j ? w : mn - j, c1 = c1 < mn ? c1 : mn;
            if (w <= 0 || c1 <= c0) continue; /* uniform too */
        }
        const int R = m - j;
        int *src = (int *)perm_sh, *piv = src + R;
        T *tile = (T *)(perm_sh + tile_off); /* tile[e * R + r]: row r of the chunk's column e */
        T *A = bb_dev_ptr<T>(d.opd[BB_A], pid) + j;
        const int *ip = bb_dev_ptr<int>(d.opd[BB_IPIV], pid) + j;
        for (int i = tid; i < R; i += nt) src[i] = i;
        for (int i = tid; i < w; i += nt) piv[i] = ip[i] - 1 - j;
        __syncthreads();
        if (tid == 0) bb_swaps_to_perm(src, piv, w, R, 0, false);
        __syncthreads();
        int from[RPT]; /* the rows that change are also the rows read */
#pragma unroll
        for (int q = 0; q < RPT; q++) {
            const int r = tid + q * nt;
            from[q] = r < R ? src[r] : r;
        }
        for (int c = c0; c < c1; c += cw) {
            const int ce = c1 - c < cw ? c1 - c : cw;
#pragma unroll
            for (int q = 0; q < RPT; q++) {
                const int r = tid + q * nt;
                if (from[q] != r)
                    for (int e = 0; e < ce; e++) tile[e * R + r] = A[r + (c + e) * lda];
            }
            __syncthreads();
#pragma unroll
            for (int q = 0; q < RPT; q++) {
                const int r = tid + q * nt;
                if (from[q] != r)
                    for (int e = 0; e < ce; e++) A[r + (c + e) * lda] = tile[e * R + from[q]];
            }
            __syncthreads();
        }
    }
}

/* k_lu_perm's tile: at most this many bytes (with the rows' indices,
   within the 48 KB of shared memory a launch gets without asking). */
const size_t LU_PERM_TILE = 36 * 1024;

template <typename T, bool VAR>
cudaError_t lu_perm_T(const bb_dev_batch &d, const int *skip, int m, int j, int w, int c0, int c1, int64_t lda,
                      int tail, batchblas_queue *q)
{
    const int R = m - j;
    if (R <= 0 || w <= 0 || (!tail && c1 <= c0)) return cudaSuccess;
    if (R > BB_LU_PERM_ROWS) return cudaErrorNotSupported;
    const int nt = R < 256 ? (R + 31) / 32 * 32 : 256, rpt = (R + nt - 1) / nt;
    const size_t toff = ((size_t)(R + w) * sizeof(int) + 255) / 256 * 256, row = (size_t)R * sizeof(T);
    int cw = (int)(LU_PERM_TILE / row); /* columns a chunk */
    cw = cw < 1 ? 1 : cw > 8 ? 8 : cw;
    const size_t sh = toff + (size_t)cw * row;
    const unsigned g = bb_grid(d.count, 1);
    cudaStream_t st = q->stream;
    if (rpt == 1) k_lu_perm<T, 1, VAR><<<g, nt, sh, st>>>(d, skip, m, j, w, c0, c1, lda, tail, cw, toff);
    else if (rpt == 2) k_lu_perm<T, 2, VAR><<<g, nt, sh, st>>>(d, skip, m, j, w, c0, c1, lda, tail, cw, toff);
    else k_lu_perm<T, 4, VAR><<<g, nt, sh, st>>>(d, skip, m, j, w, c0, c1, lda, tail, cw, toff);
    return cudaGetLastError();
}

template <typename T>
cudaError_t getrf_panel_T(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int pivot, int ncols, int c0)
{
    if (p.m > 512 || (!d.vdim && p.lda > INT32_MAX)) return cudaErrorNotSupported;
    return run_getrf_panel<T, bb_small_cap<T>::value>(p, d, q, pivot, ncols, c0);
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

cudaError_t bb_panel_getrf(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int pivot,
                           int ncols, int c0)
{
    BB_SMALL_BY_PREC(prec, getrf_panel_T<T>(p, d, q, pivot, ncols, c0));
}

template <bool VAR>
static cudaError_t lu_perm_prec(bb_prec prec, const bb_dev_batch &d, const int *skip, int m, int j, int w, int c0,
                                int c1, int64_t lda, int tail, batchblas_queue *q)
{
    BB_SMALL_BY_PREC(prec, (lu_perm_T<T, VAR>(d, skip, m, j, w, c0, c1, lda, tail, q)));
}

cudaError_t bb_lu_perm(bb_prec prec, const bb_dev_batch &d, const int *skip, int m, int j, int w, int c0, int c1,
                       int64_t lda, int tail, batchblas_queue *q)
{
    return d.vdim ? lu_perm_prec<true>(prec, d, skip, m, j, w, c0, c1, lda, tail, q)
                  : lu_perm_prec<false>(prec, d, skip, m, j, w, c0, c1, lda, 0, q);
}

int bb_lu_rec_mode(void)
{
    static int v = BB_ENV_UNREAD;
    return bb_env_int("BATCHBLAS_CUDA_LU_RECURSIVE", 1, &v);
}
