/*
 * The variable-size driver: a class launch of a variable batch whose
 * problems are above the register bound L (32 real, 16 complex), any mix
 * of sizes, in one launch sequence (seed 000: per-problem sizes read on the
 * device, idle blocks exit at once; the planner lays the problems out
 * largest first).  Routines: potrf (both uplo), trsm and trmm (every side,
 * uplo, trans, diag), gemm (every trans), symm, hemm, syrk, herk, syr2k,
 * her2k; the LU family and the Cholesky solves (below); lange and gecon
 * (the generic kernels, which read each problem's sizes themselves).
 *
 * The steps walk the batch's largest size; each step is
 *   1. a view kernel (k_view): for every slot, its block of this step as a
 *      problem of its own: sizes, operand pointers (base + row offset +
 *      column offset times the slot's own leading dimension) and a skip
 *      flag (the slot is skipped, failed, or its block is empty), into
 *      workspace arrays; a block's free dimension above L is cut into
 *      chunks of L, each a slot of the step (one launch for all of them);
 *   2. the register kernel with per-problem sizes (bb_dev_batch.vdim) on
 *      those arrays, or the variable-size GEMM below.
 *
 *   potrf  left-looking by block columns of L (lower; upper mirrors it):
 *          A(j:n, j) -= A(j:n, <j) A(j, <j)^H  (k_vgemm, only the lower
 *          part of the diagonal block written), then one launch (k_vpotrf_step, a
 *          thread block a problem, of one warp or four: step_warps):
 *          A(j, j) = chol(A(j, j))
 *          (bb_potrf_rows; a failure at k sets info = j + k and the later
 *          steps skip the problem, as LAPACK stops) and A(>j, j) = A(>j,
 *          j) A(j, j)^-H, a row a thread against the factor in shared
 *          memory.  Or the whole factorisation in one launch
 *          (k_vpotrf_full: a thread block walks its problem's block
 *          columns, the update inside, the idle warps of the last columns
 *          taking parts of it), where potrf_full says (slices that do not
 *          fill the GPU: up to 256 in real types, any order in z; single
 *          complex always).
 *          BATCHBLAS_CUDA_VAR_FUSED (fused_on) picks one path, to compare.
 *   trsm   M = op(A), recursive (seed 004; tri_walk below), forward from
 *          the top or backward from the bottom of each problem's own
 *          triangle: solve the first half, update the second with one
 *          GEMM, solve the second half.  The leaves: in double, ranges of
 *          up to 256 on chip (trsm_panel.cu: the diagonal blocks of 32
 *          inverted, then a thread block a chunk of 32 right-hand sides
 *          solves the leaf whole in shared memory); else ranges of L, the
 *          register trsm (or the inverted block and the register trmm) in
 *          chunks of L of the free dimension.
 *   trmm   the walk of trsm from the other end (the blocks a block's
 *          update reads are not yet multiplied): the register trmm on the
 *          diagonal block in place, then one GEMM (beta 1).
 *   gemm   k_vgemm on the slots themselves; syrk .. her2k, symm, hemm: the
 *          same with the operand modes VM_* and a triangle to write.
 *
 * The step arrays need no host copy of the sizes: the host knows only the
 * launch's largest sizes (the class launch's bb_problem).
 */
#include <stdlib.h>
#include <string.h>
#include <type_traits>
#include "small.h"
#include "dmma.h"
#include "generic.h"
#include "views.h"

namespace {

__host__ __device__ __forceinline__ int imin(int a, int b) { return a < b ? a : b; }

/* One step's problems on the device. */
struct vstep {
    bb_vdim *vdim;
    void **pa, **pb, **pc;
    int *info; /* 0: computed; -1: skipped (the kernels skip info != 0) */
};

/* ------------------------------------------------------------ the views */

/* Where a step's items lie (k_view): the chunks in ng groups of gw
   (a multiple of the chunks a warp holds, so that a warp's items stay one
   slot's): group q is chunks q gw .. of the slots [0, its count) only
   (the slots whose problems reach the group's first chunk, bb_var_head),
   items [start[q], start[q + 1]), slot-major.  A step whose free
   dimension is cut into chunks (the leaves of the trsm walk, potrf's
   panel) then has no items for the chunks past a problem's own size:
   a skewed [1, 512] batch's first leaves had 16 chunks for each of
   3941 slots, of which about 3941 x 2 + 1600 held work.  Every chunk of
   every slot (flat): one group of nch over all the slots. */
const int VIEW_GROUPS = 16;
struct vlayout {
    int ng, gw;
    int64_t start[VIEW_GROUPS + 1];
};
inline vlayout flat_layout(int64_t slots, int nch)
{
    vlayout lay;
    lay.ng = 1;
    lay.gw = nch;
    lay.start[0] = 0;
    lay.start[1] = slots * nch;
    return lay;
}

/* f(v, c, A, B, C, P, o, pa, pb, pc) -> active: slot t's chunk c (P: its
   pivots, or NULL).  An active slot is computed if its code is 0, or, with
   skip (the LU steps, where a zero pivot does not stop the factorisation),
   if its entry flag skip[t] is 0.  The items: lay (vlayout). */
template <typename T, typename F>
__global__ void k_view(const F f, const bb_dev_batch d, vstep w, int nch, const int *skip, const vlayout lay)
{
    const int64_t n = lay.start[lay.ng], step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t u = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; u < n; u += step) {
        int q = 0;
        while (q + 1 < lay.ng && u >= lay.start[q + 1]) q++;
        const int c0 = q * lay.gw, wq = imin(lay.gw, nch - c0);
        const int64_t loc = u - lay.start[q], t = loc / wq;
        const int c = c0 + (int)(loc - t * wq);
        const bb_vdim v = d.vdim[t];
        const bool has[3] = {d.opd[BB_A].ptr || d.opd[BB_A].base, d.opd[BB_B].ptr || d.opd[BB_B].base,
                             d.opd[BB_C].ptr || d.opd[BB_C].base};
        T *A = has[0] ? bb_dev_ptr<T>(d.opd[BB_A], t) : NULL;
        T *B = has[1] ? bb_dev_ptr<T>(d.opd[BB_B], t) : NULL;
        T *C = has[2] ? bb_dev_ptr<T>(d.opd[BB_C], t) : NULL;
        int *P = d.opd[BB_IPIV].ptr || d.opd[BB_IPIV].base ? bb_dev_ptr<int>(d.opd[BB_IPIV], t) : NULL;
        bb_vdim o = v;
        T *pa = NULL, *pb = NULL, *pc = NULL;
        const bool act = f(v, c, A, B, C, P, o, pa, pb, pc);
        if (!act) o.m = o.n = o.k = o.nrhs = 0; /* a skipped slot's sizes stay within the kernels' bounds */
        w.vdim[u] = o;
        w.pa[u] = pa;
        w.pb[u] = pb;
        w.pc[u] = pc;
        w.info[u] = act && (skip ? skip[t] == 0 : d.info == NULL || d.info[t] == 0) ? 0 : -1;
    }
}

/* info[t] = code + off for the slots whose step code is a failure */
__global__ void k_merge(int *info, const int *code, int64_t n, int nch, int off)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < n; t += step) {
        const int v = code[t * nch];
        if (v > 0 && info[t] == 0) info[t] = v + off;
    }
}

/* --------------------------------------- potrf: one launch a block column */

/* Threads of k_vpotrf_step: warp 0 factors the diagonal block, every warp
   solves rows of the panel below it. */
const int VP_THREADS = 128;
/* columns of a row that vp_update holds at once */
const int VP_UPD_COLS = 4;

/* Row p of k_vpotrf_step's panel (m rows, n columns) as a row of the
   lower view; zeros past it. */
template <typename T, int L>
__device__ __forceinline__ void vp_load_row(T (&r)[L], const T *P, int p, int m, int n, int64_t lda, int upper)
{
    const bool ok = p < m;
#pragma unroll
    for (int j = 0; j < L; j++) {
        const bool in = ok && j < n;
        const T x = in ? P[upper ? j + p * lda : p + j * lda] : bb_zero<T>();
        r[j] = upper ? bb_conj(x) : x;
    }
}

/* r = r D^-H (Lc: D's columns conjugated, dinv: 1 / D(k, k)), stored as
   panel row p */
template <typename T, int L>
__device__ __forceinline__ void vp_solve_store(T (&r)[L], T *P, int p, int m, int n, int64_t lda, int upper,
                                               const T *Lc, const typename bb_real<T>::type *dinv)
{
    if (p >= m) return;
#pragma unroll
    for (int k = 0; k < L; k++)
        if (k < n) {
            r[k] = bb_rmul(dinv[k], r[k]);
            bb_row_update<T, L>(r, Lc + k * L, r[k], k);
        }
    T *dst = bb_launder(P);
#pragma unroll
    for (int j = 0; j < L; j++)
        if (j < n) {
            if (upper) dst[j + p * lda] = bb_conj(r[j]);
            else dst[p + j * lda] = r[j];
        }
}

/* Blocks an SM for k_vpotrf_step: 4 for the real types (d: 128
   registers, 160 bytes of spill loads; it ran 2-5% faster than 3 blocks
   at 143 registers, uniform [1, 128] and [1, 256] on the H100), 3 for
   complex (z: 168 registers; 4 blocks spilled 1.6 KB a thread; not
   measured against 2); one fewer with the update inside (UPD: its
   chunk of the row in registers; d 168, z 200 registers, no spills) */
template <typename T, bool UPD> struct vp_minb {
    static constexpr int value = (bb_small_cap<T>::value == 32 ? 4 : 3) - (UPD ? 1 : 0);
};

/* The left-looking update of a row of the block column (row: its index
   below the diagonal block's first row; ok: the thread has that row):
   r(j) -= sum over the columns c < c0 left of the block of L(row, c)
   conj(L(j, c)), the columns L at a time, the diagonal block's rows of
   them staged in shared memory (Bc[c][j] = conj(L(j, c)); zero for
   j >= bt).  S > 1: this thread takes the g-th S-th of each chunk's
   columns only (a part of the sum; vp_update_rows adds the parts).  D:
   the diagonal block's first element; every thread of the block calls it
   (barriers). */
template <typename T, int L, int S>
__device__ __forceinline__ void vp_update(T (&r)[L], const T *D, int row, bool ok, int c0, int bt, int64_t lda,
                                          int upper, int g, T (*Bc)[L])
{
    constexpr int E = bb_vec<T>::E, LS = L / S;
    static_assert(LS % VP_UPD_COLS == 0, "a part is whole groups of columns");
    for (int cc = -c0; cc < 0; cc += L) {
        __syncthreads(); /* the last chunk's readers are done */
        for (int e = threadIdx.x; e < L * L; e += blockDim.x) {
            const int j = e % L, c = e / L;
            const int64_t col = cc + c;
            const T x = j < bt ? (upper ? D[col + j * lda] : bb_conj(D[j + col * lda])) : bb_zero<T>();
            Bc[c][j] = x; /* conj of the lower view's (j, col) */
        }
        __syncthreads();
        if (ok) {
            /* the row's chunk and its stride, laundered: the unrolled
               loop's offsets are not held in registers */
            const int64_t ld = bb_opaque(lda), cs = upper ? 1 : ld;
            const int cb = g * LS;
            const T *Ar = bb_launder(D) + (upper ? cc + cb + row * ld : row + (cc + cb) * ld);
            const T (*Bg)[L] = Bc + cb;
#pragma unroll
            for (int c8 = 0; c8 < LS; c8 += VP_UPD_COLS) {
                T a[VP_UPD_COLS];
#pragma unroll
                for (int t = 0; t < VP_UPD_COLS; t++) {
                    const T x = Ar[(c8 + t) * cs];
                    a[t] = upper ? bb_conj(x) : x;
                }
#pragma unroll
                for (int t = 0; t < VP_UPD_COLS; t++)
#pragma unroll
                    for (int j0 = 0; j0 < L; j0 += E) {
                        T pv[E];
                        bb_ld16(&Bg[c8 + t][j0], pv);
#pragma unroll
                        for (int e = 0; e < E; e++) r[j0 + e] = r[j0 + e] - a[t] * pv[e];
                    }
            }
        }
    }
}

/* k_vpotrf_step's and k_vpotrf_full's shared arrays (UPD: with the
   update's) */
template <typename T, bool UPD> struct vp_smem {
    static constexpr int L = bb_small_cap<T>::value;
    T Lc[L][L]; /* Lc[k][j] = conj(L(j, k)), j > k; zero for j >= n */
    T Bc[UPD ? L : 1][L]; /* the update's columns (vp_update) */
    T rb[32 / L][2 * L];
    typename bb_real<T>::type dinv[L];
    int info;
    T red[UPD ? L : 1][3 * 32]; /* vp_update_rows: the parts' sums, red[j][row] */
};

/* The update (vp_update) of the first rows of a block column: the
   diagonal block's rows (warp 0) and the first m panel rows (warps 1..,
   at most blockDim.x - 32).  Where they fill fewer than 3 warps, the idle
   warps take a part of each chunk's columns for the rows of the busy
   ones (W busy warps: 4 parts with one, 2 with two), and the parts' sums
   are added through shared memory: at the last block columns of a problem
   (m <= 32) the update ran in one or two warps, a row's c0 x L products
   in one thread. */
template <typename T>
__device__ __forceinline__ void vp_update_rows(T (&r)[bb_small_cap<T>::value], const T *D, int n, int m, int c0,
                                               int64_t lda, int upper, vp_smem<T, true> &sm)
{
    constexpr int L = bb_small_cap<T>::value;
    const int tid = threadIdx.x;
    const int NW = blockDim.x / 32;
    const int W = 1 + (imin(m, (NW - 1) * 32) + 31) / 32;  /* warps with rows */
    const int S = NW / W >= 4 ? 4 : NW / W >= 2 ? 2 : 1;    /* parts */
    const int g = S == 1 ? 0 : tid / (32 * W);              /* my part */
    const int to = tid - g * 32 * W;                        /* the thread whose row it is */
    const int i = to % L;
    const int row = to < 32 ? i : n + to - 32;
    const bool ok = to < 32 ? i < n : to - 32 < m;
    if (S == 4) vp_update<T, L, 4>(r, D, row, ok, c0, n, lda, upper, g, sm.Bc);
    else if (S == 2) vp_update<T, L, 2>(r, D, row, ok, c0, n, lda, upper, g, sm.Bc);
    else vp_update<T, L, 1>(r, D, row, ok, c0, n, lda, upper, 0, sm.Bc);
    if (S == 1) return;
    /* the other parts' r started at zero (their own rows are past m) */
    if (g > 0)
#pragma unroll
        for (int j = 0; j < L; j++) sm.red[j][(g - 1) * 32 * W + to] = r[j];
    __syncthreads();
    if (g == 0)
        for (int q = 1; q < S; q++)
#pragma unroll
            for (int j = 0; j < L; j++) r[j] = r[j] + sm.red[j][(q - 1) * 32 * W + to];
}

/* One block column of the left-looking Cholesky, a thread block a
   problem: the diagonal block D (n x n, n <= L) factored by warp 0
   (bb_potrf_rows, one row a lane, as the register potrf; with L = 16 the
   warp's second half factors a copy) and stored, its factor kept in
   shared memory; then the m panel rows below it (lower; upper: the
   columns beside it, as rows of the lower view) solved against it, one
   row a thread: P = P D^-H, one read and one write of the panel.  With
   more than one warp, the first panel rows are read by warps 1.. while
   warp 0 factors.
   UPD and c0 > 0: the block column's left-looking update first
   (vp_update), from the c0 columns left of it.  Returns D's info (k: its
   k-th column failed; D is left as the register potrf leaves it and the
   panel untouched), the same in every thread.  Every thread of the block
   calls it (barriers). */
template <typename T, bool UPD>
__device__ __forceinline__ int vp_column(T *D, T *P, int n, int m, int64_t lda, int upper, int c0, vp_smem<T, UPD> &sm)
{
    constexpr int L = bb_small_cap<T>::value;
    typedef typename bb_real<T>::type R;
    const int tid = threadIdx.x;
    T r[L];
    const int i = tid % L;
    if (tid < 32) bb_load_lower_row<T, L>(r, D, i, n, lda, upper, i < n);
    else vp_load_row<T, L>(r, P, tid - 32, m, n, lda, upper);
    if constexpr (UPD)
        if (c0 > 0) vp_update_rows<T>(r, D, n, m, c0, lda, upper, sm);
    if (tid < 32) {
        const int inf = bb_potrf_rows<T, L, L>(r, i, n, sm.rb[tid / L]);
        if (tid < L) {
            if (i < n) bb_store_lower_row<T, L>(r, bb_launder(D), i, n, lda, upper);
            R dii = R(1);
#pragma unroll
            for (int k = 0; k < L; k++) {
                if (k < i) sm.Lc[k][i] = i < n ? bb_conj(r[k]) : bb_zero<T>();
                if (k == i) dii = bb_re(r[k]); /* r[i] without a run-time index (which puts r in memory) */
            }
            if (i < n) sm.dinv[i] = R(1) / dii;
            if (tid == 0) sm.info = inf;
        }
    }
    __syncthreads();
    const int inf = sm.info;
    if (inf == 0) {
        if (tid >= 32) vp_solve_store<T, L>(r, P, tid - 32, m, n, lda, upper, &sm.Lc[0][0], sm.dinv);
        for (int p0 = blockDim.x - 32; p0 < m; p0 += blockDim.x) {
            vp_load_row<T, L>(r, P, p0 + tid, m, n, lda, upper);
            if (UPD && c0 > 0) vp_update<T, L, 1>(r, D, n + p0 + tid, p0 + tid < m, c0, n, lda, upper, 0, sm.Bc);
            vp_solve_store<T, L>(r, P, p0 + tid, m, n, lda, upper, &sm.Lc[0][0], sm.dinv);
        }
    }
    return inf;
}

/* One block column of every problem (vp_column; the view f_potrf_step
   gives D, P and their sizes); info: the column's code, merged by the
   caller (a slot whose code is set on entry is skipped). */
template <typename T, bool UPD, int NT>
__global__ void __launch_bounds__(NT, (vp_minb<T, UPD>::value * (VP_THREADS / NT))) k_vpotrf_step(const bb_vdim *vd, T *const *pd, T *const *pp, int *info,
                                                            int64_t count, int upper, int c0)
{
    __shared__ __align__(16) vp_smem<T, UPD> sm;
    for (int64_t u = blockIdx.x; u < count; u += gridDim.x) {
        if (info[u]) continue; /* the same for the whole block */
        const bb_vdim v = vd[u];
        const int inf = vp_column<T, UPD>(pd[u], pp[u], v.n, v.m, bb_opaque(v.lda), upper, c0, sm);
        if (threadIdx.x == 0) info[u] = inf;
        __syncthreads(); /* the shared factor is reused by the next problem */
    }
}

/* The whole factorisation of every problem in one launch (seed 000's
   fused left-looking kernel): a thread block walks its problem's block
   columns (vp_column with the update), the problems in slot order (the
   largest first: the plan's order), each finishing on its own.  info:
   LAPACK's (c0 + the failing column), the later columns skipped. */
/* Blocks an SM as k_vpotrf_step with the update (d: 168 registers, 512
   bytes of spill loads; at 2 blocks an SM without spills, 228 registers,
   it ran 15-35% slower on uniform sizes: session 20) */
template <typename T>
__global__ void __launch_bounds__(VP_THREADS, (vp_minb<T, true>::value)) k_vpotrf_full(const bb_vdim *vd, T *const *pa, int *info,
                                                             int64_t count, int upper)
{
    constexpr int L = bb_small_cap<T>::value;
    __shared__ __align__(16) vp_smem<T, true> sm;
    for (int64_t u = blockIdx.x; u < count; u += gridDim.x) {
        if (info[u]) continue; /* the same for the whole block */
        const bb_vdim v = vd[u];
        const int N = v.n;
        const int64_t lda = bb_opaque(v.lda);
        T *A = pa[u];
        int res = 0;
        for (int c0 = 0; c0 < N; c0 += L) {
            const int bt = imin(L, N - c0), r0 = c0 + bt;
            T *D = A + c0 + c0 * lda;
            T *P = upper ? A + c0 + r0 * lda : A + r0 + c0 * lda;
            const int inf = vp_column<T, true>(D, P, bt, N - r0, lda, upper, c0, sm);
            __syncthreads(); /* this column's stores before the next one's loads; the shared arrays reused */
            if (inf) {
                res = c0 + inf;
                break;
            }
        }
        if (threadIdx.x == 0) info[u] = res;
    }
}

/* ------------------------------------------- GEMM with per-problem sizes */

/* How a GEMM operand is read: op(M)(r, c) from the stored matrix M: as it
   is, transposed, conjugate-transposed, or (symm, hemm) expanded from one
   stored triangle, a Hermitian diagonal taken real. */
enum { VM_N, VM_T, VM_C, VM_SYM_L, VM_SYM_U, VM_HER_L, VM_HER_U };

/* BblasNoTrans / BblasTrans / BblasConjTrans as a mode */
int vm_trans(int trans) { return trans == BblasNoTrans ? VM_N : trans == BblasTrans ? VM_T : VM_C; }

/* op(M)(r, c) of the symmetric and Hermitian modes */
template <typename T>
__device__ __forceinline__ T vg_sym(const T *M, int64_t ld, int r, int c, int mode)
{
    const bool her = mode >= VM_HER_L, lo = mode == VM_SYM_L || mode == VM_HER_L;
    const bool sw = lo ? r < c : r > c; /* outside the stored triangle: read (c, r) */
    T x = sw ? M[c + r * ld] : M[r + c * ld];
    if (her && sw) x = bb_conj(x);
    if (her && r == c) x = bb_make<T>(bb_re(x), 0);
    return x;
}

/* The RR x CC tile of op(M) at (r0, c0) (zeros outside its nr x nc) into
   shared memory: element (rr, cc) to S[rr * rs + cc * cs], by NT threads,
   consecutive threads on consecutive stored elements.  One loop per kind
   of mode, the mode tested outside it (a test per element cost the GEMMs
   20-35%: gemm d uniform [1, 512] 53.7 -> 71.8 ms). */
template <typename T, int RR, int CC, int NT>
__device__ __forceinline__ void vg_stage(const T *M, int64_t ld, int mode, int r0, int nr, int c0, int nc, T *S,
                                         int rs, int cs)
{
    if (mode == VM_N) {
        for (int e = threadIdx.x; e < RR * CC; e += NT) {
            const int rr = e % RR, cc = e / RR;
            T x = bb_zero<T>();
            if (r0 + rr < nr && c0 + cc < nc) x = M[(r0 + rr) + (int64_t)(c0 + cc) * ld];
            S[rr * rs + cc * cs] = x;
        }
    } else if (mode <= VM_C) {
        const bool cj = mode == VM_C;
        for (int e = threadIdx.x; e < RR * CC; e += NT) {
            const int cc = e % CC, rr = e / CC;
            T x = bb_zero<T>();
            if (r0 + rr < nr && c0 + cc < nc) x = bb_conj_if(M[(c0 + cc) + (int64_t)(r0 + rr) * ld], cj);
            S[rr * rs + cc * cs] = x;
        }
    } else {
        for (int e = threadIdx.x; e < RR * CC; e += NT) {
            const int rr = e % RR, cc = e / RR;
            T x = bb_zero<T>();
            if (r0 + rr < nr && c0 + cc < nc) x = vg_sym(M, ld, r0 + rr, c0 + cc, mode);
            S[rr * rs + cc * cs] = x;
        }
    }
}

/* What the GEMMs write: all of C, or one triangle; VT_HERM: the diagonal
   real (herk, her2k: its imaginary part is neither read nor kept). */
enum { VT_ALL = 0, VT_LOWER = 1, VT_UPPER = 2, VT_HERM = 4 };

__device__ __forceinline__ bool vg_skip_tile(int tri, int i0, int j0, int bm, int bn)
{
    return ((tri & VT_LOWER) && j0 > i0 + bm - 1) || ((tri & VT_UPPER) && i0 > j0 + bn - 1);
}

/* C(i, j) = alpha acc + beta C(i, j), within the part that is written */
template <typename T>
__device__ __forceinline__ void vg_put(T *C, int64_t ldc, int i, int j, int m, int n, int tri, T alpha, T acc,
                                       T beta, int beta_zero)
{
    if (i >= m || j >= n || ((tri & VT_LOWER) && i < j) || ((tri & VT_UPPER) && i > j)) return;
    T *cij = C + i + (int64_t)j * ldc;
    const bool hd = (tri & VT_HERM) && i == j;
    T s = alpha * acc;
    if (!beta_zero) s = s + beta * (hd ? bb_make<T>(bb_re(*cij), 0) : *cij);
    *cij = hd ? bb_make<T>(bb_re(s), 0) : s;
}

/* C = alpha op(A) op(B) + beta C per slot (sizes m, n, k and leading
   dimensions from vdim, operands from the pointer arrays, the modes VM_*
   ma and mb); tri: VT_*.  A thread block computes 32 x 32 tiles of C (a
   thread TR x TC of each: vg_shape) over k in chunks of 16 through shared memory; grid
   x: a column of tiles (of the largest problem) and the first of the
   block's row tiles, the next ones split apart (vgemm: split > 1 only
   where the slots alone would not fill the GPU); grid y: the slots.  A
   slot's code, sizes and operand pointers are read together, once for
   all its tiles.  (A block a tile, with those reads one after the other
   and a third of the blocks outside their problem, kept 22% of the warp
   slots busy in potrf's updates at uniform [1, 128], double: session 20's
   profile.) */
const int VG_BM = 32, VG_BN = 32, VG_BK = 16;
/* A thread's TR x TC elements of C, the threads a block and the blocks an
   SM (__launch_bounds__).  Real types: 2 x 4 in blocks of 128 threads,
   as many blocks as ptxas fits without spills (sm_90: d 72 registers, 7
   blocks of 4 warps; s 64, 8).  The 4 x 4 of 64 threads took 128
   registers in double, 8 blocks of 2 warps an SM, and potrf's updates ran
   at that 25% of the warp slots; 2 x 4 runs at 41%: potrf d uniform
   [1, 256] 26.9 -> 30.6% of the floor (session 21).  Complex types keep
   4 x 4 of 64 threads (z 164 registers): at 2 x 4 (z 80 registers with
   spills, twice the shared-memory reads a multiply) complex double gemm
   uniform [1, 128] lost 15.3-15.5 -> 13.5-13.8%. */
template <typename T> struct vg_shape {
    static constexpr bool cplx = bb_small_cap<T>::value == 16;
    static constexpr int TR = cplx ? 4 : 2, TC = 4;
    static constexpr int threads = (VG_BM / TR) * (VG_BN / TC);
    static constexpr int minb = cplx ? 0 : sizeof(T) == 4 ? 8 : 7;
};
/* k_vgemm's split: blocks an SM that a launch is to offer at least, and
   the most tiles a block walks.  Potrf d uniform [1, 128] / [1, 256] /
   [1, 512] (10240 problems, H100, session 21, measured with the 4 x 4
   thread tile of 64 threads, before vg_shape): a tile a block (session
   20's kernel) 26.0-27.0 / 26.0 / 20.4% of the floor; walks of at most
   2: 27.3 / 26.5 / 21.3%; of 4: 26.1 / 26.3 / 20.9%; of a whole column
   (15 tiles at 512): 27.2 / 25.6 / 18.6%, the launch's last blocks its
   tail.  BATCHBLAS_CUDA_VAR_VG_WALK sets the walk, to compare. */
const int VG_WAVE = 32, VG_WALK = 2;

template <typename T>
__global__ void __launch_bounds__(vg_shape<T>::threads, vg_shape<T>::minb)
k_vgemm(const bb_vdim *vd, T *const *pa, T *const *pb, T *const *pc, const int *info, int64_t count, int ma, int mb,
        T alpha, T beta, int alpha_zero, int beta_zero, int tri, int tiles_n, int split)
{
    __shared__ T As[VG_BK][VG_BM + 1];
    __shared__ T Bs[VG_BK][VG_BN + 1];
    const int tn = blockIdx.x % tiles_n, tm0 = blockIdx.x / tiles_n;
    constexpr int VG_TR = vg_shape<T>::TR, VG_TC = vg_shape<T>::TC, VG_THREADS = vg_shape<T>::threads;
    constexpr int XS = VG_BM / VG_TR, YS = VG_BN / VG_TC; /* a thread's rows and columns are XS and YS apart */
    const int tx = threadIdx.x % XS, ty = threadIdx.x / XS;
    const int j0 = tn * VG_BN;
    for (int64_t t = blockIdx.y; t < count; t += gridDim.y) {
        const int inf = info[t];
        const bb_vdim v = vd[t];
        const T *A = pa[t], *B = pb[t];
        T *C = pc[t];
        if (inf) continue;
        const int m = v.m, n = v.n, k = alpha_zero ? 0 : v.k;
        if (j0 >= n) continue;
        for (int i0 = tm0 * VG_BM; i0 < m; i0 += split * VG_BM) {
            if (vg_skip_tile(tri, i0, j0, VG_BM, VG_BN)) continue;
            T acc[VG_TR][VG_TC];
#pragma unroll
            for (int r = 0; r < VG_TR; r++)
#pragma unroll
                for (int c = 0; c < VG_TC; c++) acc[r][c] = bb_zero<T>();
            for (int k0 = 0; k0 < k; k0 += VG_BK) {
                vg_stage<T, VG_BM, VG_BK, VG_THREADS>(A, v.lda, ma, i0, m, k0, k, &As[0][0], 1, VG_BM + 1);
                vg_stage<T, VG_BK, VG_BN, VG_THREADS>(B, v.ldb, mb, k0, k, j0, n, &Bs[0][0], VG_BN + 1, 1);
                __syncthreads();
#pragma unroll 4
                for (int kk = 0; kk < VG_BK; kk++) {
                    T a[VG_TR], b[VG_TC];
#pragma unroll
                    for (int r = 0; r < VG_TR; r++) a[r] = As[kk][tx + XS * r];
#pragma unroll
                    for (int c = 0; c < VG_TC; c++) b[c] = Bs[kk][ty + YS * c];
#pragma unroll
                    for (int r = 0; r < VG_TR; r++)
#pragma unroll
                        for (int c = 0; c < VG_TC; c++) acc[r][c] = acc[r][c] + a[r] * b[c];
                }
                __syncthreads();
            }
#pragma unroll
            for (int r = 0; r < VG_TR; r++)
#pragma unroll
                for (int c = 0; c < VG_TC; c++)
                    vg_put(C, v.ldc, i0 + tx + XS * r, j0 + ty + YS * c, m, n, tri, alpha, acc[r][c], beta, beta_zero);
        }
    }
}

const int TC_BK = 16; /* k_vgemm_tc's chunk of k */

/* The double GEMMs on the FP64 tensor cores, pipelined (mma.sync
   m16n8k8 on sm_90 and later, m8n8k4 on sm_80: bb_dmma16, dmma.h).  A thread block
   of WM x WN warps computes a BM x BN tile of C, each warp (BM / WM) x
   (BN / WN) of it as FM x FN accumulator blocks of 8 x 8 held in
   registers, over k in chunks of TC_BK.  A chunk of op(A) is stored
   k-major (As[kk * LA + i]) and one of op(B) column by column (Bs[j * LB
   + kk]): with LA = BM + 4 and LB = TC_BK + 4 the fragments' loads and the
   stores of column-major (mode N) operands are free of bank conflicts.
   Two chunks live in shared memory: the next one is copied in by cp.async
   (tc_part::copy, no registers held) while the tensor cores work on the
   current one.  C takes alpha, beta and tri element by element, straight
   from the accumulators.  The symmetric modes (symm) stage each chunk as
   k_vgemm does (vg_stage), without the overlap. */
template <int BM, int BN, int WM, int WN> struct tc_shape {
    static constexpr int threads = 32 * WM * WN, FM = BM / WM / 8, FN = BN / WN / 8;
    static constexpr int LA = BM + 4, LB = TC_BK + 4;
    /* blocks an SM (__launch_bounds__): 64 x 64 took 168 registers at 3
       (sm_90, no spill; unbounded 194), and at 4 (128 registers, 52 bytes
       spilled) gemm d uniform [1, 512] ran 25.5 ms against 23.5-24.2
       (H200, session 31).  Since tc_part's copy walks its elements (session
       34), 4 fit in 128 registers without a spill; the symmetric modes'
       staging (vg_stage) still spills there, and keeps 3. */
    static constexpr int minb = 4, minb_sym = 3;
    static_assert(FM * WM * 8 == BM && FN * WN * 8 == BN && FM % 2 == 0 && TC_BK % 8 == 0,
                  "whole 16 x 8 fragments a warp");
};

/* A thread's elements of an RR x CC chunk of op(M) (M stored as is, mode
   N, or transposed, T and C: double has no conjugate), the chunks at rows
   r0 and columns c0 + s CC (A, along = 1) or rows r0 + s RR and columns
   c0 (B, along = 0), s = 0, 1, ...; consecutive threads on consecutive
   stored elements, so a column-major operand's reads coalesce.  Mode N:
   the thread's elements are (rr, cc + q DC), q < per; transposed: (rr + q
   DR, cc).  Either way one stride (step) apart in M and ds in the shared
   tile, and those in the problem are the first lim of them: the copy
   walks one pointer, with no tests when all are in.  Until session 34 it
   computed each element's address and bounds from scratch, 64-bit
   products included: 234 of the 322 instructions a warp issued per chunk
   of k, for 16 MMAs (H200, gemm d uniform [1, 512]); the walk with its
   tests took 178 of 266. */
template <int RR, int CC, int NT> struct tc_part {
    static constexpr int per = RR * CC / NT, DC = NT / RR, DR = NT / CC;
    static_assert(NT % RR == 0 && NT % CC == 0, "a thread's elements on one row or one column of the chunk");
    const double *p; /* element (rr, cc) of the first chunk */
    int64_t step, next; /* to the thread's next element; to the same element of the next chunk */
    int rr, cc, s0, ds; /* the thread's first element, its place in the shared tile and the step there */
    bool tr;

    __device__ __forceinline__ tc_part(const double *M, int64_t ld, int mode, int r0, int c0, int along, int rs, int cs)
    {
        const int t = threadIdx.x;
        tr = mode != VM_N;
        /* stored (r, c) of op(M)(r, c): M[r + c ld] (N) or M[c + r ld] */
        const int64_t sr = tr ? ld : 1, sc = tr ? 1 : ld;
        if (!tr) rr = t % RR, cc = t / RR;
        else cc = t % CC, rr = t / CC;
        s0 = rr * rs + cc * cs;
        ds = tr ? DR * rs : DC * cs;
        rr += r0, cc += c0;
        p = M + rr * sr + cc * sc;
        step = (tr ? DR : DC) * ld;
        next = along ? CC * sc : RR * sr;
    }
    /* how many of D-apart positions from 0 fall below room (at most per) */
    static __device__ __forceinline__ int fit(int room, int D)
    {
        const int f = room <= 0 ? 0 : (int)(((unsigned)room + D - 1) / D);
        return f < per ? f : per;
    }
    /* chunk s (its offset o = s CC or s RR along the walk) copied into the
       shared tile S without passing through registers (cp.async), zeros
       outside nr x nc (a copy of no bytes from base, which stays valid) */
    __device__ __forceinline__ void copy(int64_t s, int o, int along, int nr, int nc, const double *base,
                                         double *S) const
    {
        const int r = rr + (along ? 0 : o), c = cc + (along ? o : 0);
        const int lim = tr ? (c < nc ? fit(nr - r, DR) : 0) : (r < nr ? fit(nc - c, DC) : 0);
        const double *g = p + s * next;
        unsigned sa = (unsigned)__cvta_generic_to_shared(S + s0);
        const unsigned dsa = ds * (unsigned)sizeof(double);
        if (lim == per) { /* all inside (the tiles and chunks away from the edges): no tests */
#pragma unroll
            for (int q = 0; q < per; q++, g += step, sa += dsa) bb_cp8(sa, g, true);
        } else {
#pragma unroll
            for (int q = 0; q < per; q++, g += step, sa += dsa) bb_cp8(sa, q < lim ? g : base, q < lim);
        }
    }
};

template <int BM, int BN, int WM, int WN, bool SYM>
__global__ void __launch_bounds__(tc_shape<BM, BN, WM, WN>::threads, (SYM ? tc_shape<BM, BN, WM, WN>::minb_sym : tc_shape<BM, BN, WM, WN>::minb))
k_vgemm_tc(const bb_vdim *vd, double *const *pa, double *const *pb, double *const *pc, const int *info, int64_t count,
           int ma, int mb, double alpha, double beta, int alpha_zero, int beta_zero, int tri, int tiles_m)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    typedef tc_shape<BM, BN, WM, WN> S;
    constexpr int NT = S::threads, FM = S::FM, FN = S::FN, LA = S::LA, LB = S::LB;
    __shared__ __align__(16) double As[2][TC_BK * LA]; /* two chunks: one copied in, one multiplied */
    __shared__ __align__(16) double Bs[2][BN * LB];
    const int tm = blockIdx.x % tiles_m, tn = blockIdx.x / tiles_m;
    const int i0 = tm * BM, j0 = tn * BN, w = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int wi = (w % WM) * (BM / WM), wj = (w / WM) * (BN / WN); /* the warp's sub-tile */
    const int g = lane / 4, h = lane % 4;
    for (int64_t t = blockIdx.y; t < count; t += gridDim.y) {
        if (info[t]) continue;
        const bb_vdim v = vd[t];
        const int m = v.m, n = v.n, k = alpha_zero ? 0 : v.k;
        if (i0 >= m || j0 >= n || vg_skip_tile(tri, i0, j0, BM, BN)) continue;
        const double *A = pa[t], *B = pb[t];
        double acc[FM][FN][2];
#pragma unroll
        for (int r = 0; r < FM; r++)
#pragma unroll
            for (int c = 0; c < FN; c++) acc[r][c][0] = acc[r][c][1] = 0.0;
        const tc_part<BM, TC_BK, NT> pA(A, v.lda, ma, i0, 0, 1, 1, LA);
        const tc_part<TC_BK, BN, NT> pB(B, v.ldb, mb, 0, j0, 0, 1, LB);
        if (!SYM && k > 0) pA.copy(0, 0, 1, m, k, A, As[0]), pB.copy(0, 0, 0, k, n, B, Bs[0]), bb_cp_commit();
        for (int k0 = 0, s = 0; k0 < k; k0 += TC_BK, s++) {
            const int cur = SYM ? 0 : s & 1;
            if (SYM) {
                vg_stage<double, BM, TC_BK, NT>(A, v.lda, ma, i0, m, k0, k, As[0], 1, LA);
                vg_stage<double, TC_BK, BN, NT>(B, v.ldb, mb, k0, k, j0, n, Bs[0], 1, LB);
            } else {
                if (k0 + TC_BK < k) /* the next chunk in flight */
                    pA.copy(s + 1, k0 + TC_BK, 1, m, k, A, As[cur ^ 1]),
                        pB.copy(s + 1, k0 + TC_BK, 0, k, n, B, Bs[cur ^ 1]);
                bb_cp_commit();
                bb_cp_wait<1>(); /* this chunk's copies done */
            }
            __syncthreads();
            const double *Ac = As[cur], *Bc = Bs[cur];
#pragma unroll
            for (int kk = 0; kk < TC_BK; kk += 8) {
                double a[FM][2], b[FN][2];
#pragma unroll
                for (int q = 0; q < 2; q++) {
#pragma unroll
                    for (int r = 0; r < FM; r++) a[r][q] = Ac[(kk + h + 4 * q) * LA + wi + 8 * r + g];
#pragma unroll
                    for (int c = 0; c < FN; c++) b[c][q] = Bc[(wj + 8 * c + g) * LB + kk + h + 4 * q];
                }
#pragma unroll
                for (int r = 0; r < FM; r += 2)
#pragma unroll
                    for (int c = 0; c < FN; c++) bb_dmma16(acc[r][c], acc[r + 1][c], a[r], a[r + 1], b[c]);
            }
            __syncthreads();
        }
        double *C = pc[t];
#pragma unroll
        for (int r = 0; r < FM; r++)
#pragma unroll
            for (int c = 0; c < FN; c++)
#pragma unroll
                for (int e = 0; e < 2; e++) {
                    const int i = i0 + wi + 8 * r + g, j = j0 + wj + 8 * c + 2 * h + e;
                    if (i < m && j < n && !((tri & VT_LOWER) && i < j) && !((tri & VT_UPPER) && i > j)) {
                        double *cij = C + i + (int64_t)j * v.ldc;
                        const double s = alpha * acc[r][c][e];
                        *cij = beta_zero ? s : s + beta * *cij;
                    }
                }
    }
#endif
}

/* ------------------------------------------------------------ the steps */

struct vctx {
    bb_prec prec;
    batchblas_queue *q;
    int L;
    vstep w;
    int tc;       /* double GEMMs on the tensor cores (k_vgemm_tc) */
    int fused;    /* potrf (BATCHBLAS_CUDA_VAR_FUSED, fused_on): 0 .. 3 */
    int fused_set; /* fused was set by the variable (3: always the whole factorisation, else never) */
    int step_warps; /* k_vpotrf_step without the update: warps a block (1 or 4; 0: step_warps's rule) */
    int vg_walk;  /* k_vgemm: the most tiles of a column a block walks (vg_walk_on) */
    vstep sv;     /* [slice]: a sub-call's problems (sub_batch) */
    void *wk[2];  /* [slice]: per-problem workspace matrices of order p.n (getri in place: W; geinv, gecond: LU, X) */
    int *piv;     /* [slice][p.n]: geinv's and gecond's pivots */
    int *entry;   /* [slice]: gecond's codes on entry */
    int *skip;    /* [slice]: the LU steps' entry flags (k_flags) */
    void *dinv;   /* [slice][L x L]: a trsm leaf's inverted diagonal blocks, or NULL */
    int dinv_min; /* a leaf inverts them from this many chunks a problem on (bb_cuda_dinv_min) */
    int panel;    /* double trsm walks: the widest leaf the on-chip trsm takes (bb_cuda_trsm_panel_max; 0: none) */
    int64_t wcap; /* the step arrays' entries (w) */
};

template <typename T, typename F>
cudaError_t view(const vctx &c, const F &f, const bb_dev_batch &d, int nch, const int *skip = NULL)
{
    const int64_t n = d.count * nch;
    k_view<T, F><<<bb_grid(n, 256), 256, 0, c.q->stream>>>(f, d, c.w, nch, skip, flat_layout(d.count, nch));
    return cudaGetLastError();
}

/* The items of a step cut into nch chunks of L along a free dimension,
   chunk k at walk position max(x0, xs + k L) (it has work only for the
   problems with a size above that), in chunk groups over the slots that
   reach them (vlayout); lay.start[lay.ng]: the step's items (0: none). */
vlayout chunk_layout(const vctx &c, const bb_dev_batch &d, int nch, int x0, int xs)
{
    const int per = 32 / c.L;
    vlayout lay;
    const int ngr = (nch + per - 1) / per; /* groups of one warp's chunks */
    lay.gw = per * ((ngr + VIEW_GROUPS - 1) / VIEW_GROUPS);
    lay.ng = 0;
    int64_t n = 0;
    for (int c0 = 0; c0 < nch; c0 += lay.gw) {
        const int x = xs + c0 * c.L > x0 ? xs + c0 * c.L : x0;
        const int64_t cnt = bb_var_active(d, x);
        lay.start[lay.ng++] = n;
        n += cnt * imin(lay.gw, nch - c0);
    }
    lay.start[lay.ng] = n;
    return lay;
}

/* The view of such a step (chunk_layout) */
template <typename T, typename F>
cudaError_t view_chunks(const vctx &c, const F &f, const bb_dev_batch &d, int nch, const vlayout &lay)
{
    const int64_t n = lay.start[lay.ng];
    if (n == 0) return cudaSuccess;
    k_view<T, F><<<bb_grid(n, 256), 256, 0, c.q->stream>>>(f, d, c.w, nch, NULL, lay);
    return cudaGetLastError();
}

/* The step's problems as a class launch (pointer arrays, sizes, codes) of
   a register kernel reading operands A .. the nopd-th (a kernel may give
   an operand a meaning by its presence: potrf's C). */
bb_dev_batch step_batch(const vctx &c, int64_t n, int nopd)
{
    bb_dev_batch s;
    memset(&s, 0, sizeof s);
    s.opd[BB_A].ptr = c.w.pa;
    if (nopd > 1) s.opd[BB_B].ptr = c.w.pb;
    if (nopd > 2) s.opd[BB_C].ptr = c.w.pc;
    s.count = n;
    s.info = c.w.info;
    s.vdim = c.w.vdim;
    s.masked = 1;
    return s;
}

/* The register trtri on the n diagonal blocks (of order <= 32) that the
   step arrays hold: in place (nopd 1), or out of place into B (nopd 2).
   The bound-32 kernel, one problem a warp (complex L = 16 would put two
   blocks of other orders in one). */
cudaError_t step_trtri(const vctx &c, int uplo, int diag, int lda, int64_t n, int nopd)
{
    bb_problem tp = bb_blank_problem();
    tp.uplo = uplo;
    tp.diag = diag;
    tp.n = 32;
    tp.lda = lda;
    return bb_small_tri(BB_OP_TRTRI, c.prec, tp, step_batch(c, n, nopd), c.q);
}

/* k_vgemm_tc in BM x BN tiles of WM x WN warps over the step arrays */
template <int BM, int BN, int WM, int WN>
cudaError_t tc_launch(const vctx &c, int64_t n, int ma, int mb, const double alpha[2], const double beta[2], int az,
                      int bz, int tri, int mmax, int nmax)
{
    const int tm = (mmax + BM - 1) / BM, tn = (nmax + BN - 1) / BN;
    if ((int64_t)tm * tn > INT32_MAX) return cudaErrorNotSupported;
    const dim3 grid((unsigned)(tm * tn), (unsigned)(n < 65535 ? n : 65535));
    const bool sym = ma > VM_C || mb > VM_C; /* the symmetric modes (symm) */
    void (*k)(const bb_vdim *, double *const *, double *const *, double *const *, const int *, int64_t, int, int,
              double, double, int, int, int, int) =
        sym ? k_vgemm_tc<BM, BN, WM, WN, true> : k_vgemm_tc<BM, BN, WM, WN, false>;
    k<<<grid, tc_shape<BM, BN, WM, WN>::threads, 0, c.q->stream>>>(c.w.vdim, (double *const *)c.w.pa,
                                                                   (double *const *)c.w.pb, (double *const *)c.w.pc,
                                                                   c.w.info, n, ma, mb, alpha[0], beta[0], az, bz,
                                                                   tri, tm);
    return cudaGetLastError();
}

template <typename T>
/* The GEMMs of the steps on the step arrays (c.w): modes ma, mb (VM_*),
   tri (VT_*); mmax, nmax: the largest m and n among the slots. */
cudaError_t vgemm(const vctx &c, int64_t n, int ma, int mb, const double alpha[2], const double beta[2], int tri,
                  int mmax, int nmax)
{
    if (n <= 0 || mmax <= 0 || nmax <= 0) return cudaSuccess;
    const int az = alpha[0] == 0 && alpha[1] == 0, bz = beta[0] == 0 && beta[1] == 0;
    /* the tensor cores, in 64 x 64 tiles of 4 warps, where both sides fill
       them: the thin updates of potrf and trsm (a side of L) ran 1.3x
       slower there.  Tiles of 128 x 128 (8 warps, 254 registers: one
       block an SM) ran gemm d uniform [1, 256] / [1, 512] in 7.9 / 40.0
       ms against 6.5 / 32.5 (H200, session 30). */
    if (std::is_same<T, double>::value && c.tc && mmax >= 64 && nmax >= 64)
        return tc_launch<64, 64, 2, 2>(c, n, ma, mb, alpha, beta, az, bz, tri, mmax, nmax);
    const int tiles_m = (mmax + VG_BM - 1) / VG_BM, tiles_n = (nmax + VG_BN - 1) / VG_BN;
    /* a block walks at most VG_WALK tiles of a column (its problem's
       pointers read once); the column is split over more blocks where the
       slots alone would not give every SM VG_WAVE blocks */
    const int64_t want = (int64_t)VG_WAVE * (c.q->sm_count > 0 ? c.q->sm_count : 132);
    const int64_t per = (int64_t)tiles_n * (n < 65535 ? n : 65535);
    const int64_t fill = std::max<int64_t>((want + per - 1) / per, (tiles_m + c.vg_walk - 1) / c.vg_walk);
    const int split = (int)std::min<int64_t>(tiles_m, fill);
    if ((int64_t)tiles_n * split > INT32_MAX) return cudaErrorNotSupported;
    const dim3 grid((unsigned)(tiles_n * split), (unsigned)(n < 65535 ? n : 65535));
    k_vgemm<T><<<grid, vg_shape<T>::threads, 0, c.q->stream>>>(c.w.vdim, (T *const *)c.w.pa, (T *const *)c.w.pb, (T *const *)c.w.pc,
                                            c.w.info, n, ma, mb, bb_make<T>(alpha[0], alpha[1]),
                                            bb_make<T>(beta[0], beta[1]), az, bz, tri, tiles_n, split);
    return cudaGetLastError();
}

/* A triangle step's problem (trsm, trmm): m = n the launch's bound (the
   slots carry their own), leading dimensions ld. */
bb_problem tri_step(int side, int uplo, int trans, int diag, int m, int n, int64_t ld, double alpha)
{
    return bb_tri_problem(side, uplo, trans, diag, m, n, ld, ld, alpha);
}

/* ---- potrf */

struct f_potrf_upd { /* A(j:n, j) and the finished columns left of it */
    int c0, L, upper;
    template <typename T>
    __device__ bool operator()(const bb_vdim &v, int, T *A, T *, T *, int *, bb_vdim &o, T *&pa, T *&pb, T *&pc) const
    {
        if (v.n <= c0) return false;
        const int bt = imin(L, v.n - c0);
        const int64_t lda = v.lda;
        o.m = upper ? bt : v.n - c0;
        o.n = upper ? v.n - c0 : bt;
        o.k = c0;
        o.lda = o.ldb = o.ldc = lda;
        pc = A + c0 + c0 * lda;
        pa = pb = upper ? A + c0 * lda : A + c0;
        return true;
    }
};

struct f_potrf_diag {
    int c0, L;
    template <typename T>
    __device__ bool operator()(const bb_vdim &v, int, T *A, T *, T *, int *, bb_vdim &o, T *&pa, T *&, T *&) const
    {
        if (v.n <= c0) return false;
        o.n = imin(L, v.n - c0);
        o.m = o.k = o.nrhs = 0;
        pa = A + c0 + c0 * v.lda;
        return true;
    }
};

struct f_potrf_panel { /* chunk c of the rows (lower) or columns (upper) below/beside the block */
    int c0, L, upper;
    template <typename T>
    __device__ bool operator()(const bb_vdim &v, int c, T *A, T *, T *, int *, bb_vdim &o, T *&pa, T *&pb, T *&) const
    {
        const int r = c0 + L + c * L;
        if (v.n <= r) return false;
        const int bt = imin(L, v.n - c0), w = imin(L, v.n - r);
        const int64_t lda = v.lda;
        o.m = upper ? bt : w;
        o.n = upper ? w : bt;
        o.k = o.nrhs = 0;
        o.lda = o.ldb = lda;
        pa = A + c0 + c0 * lda;
        pb = upper ? A + c0 + r * lda : A + r + c0 * lda;
        return true;
    }
};

struct f_potrf_full { /* k_vpotrf_full's problem: all of it */
    template <typename T>
    __device__ bool operator()(const bb_vdim &v, int, T *A, T *, T *, int *, bb_vdim &o, T *&pa, T *&, T *&) const
    {
        if (v.n <= 0) return false;
        o.m = o.k = o.nrhs = 0;
        pa = A;
        return true;
    }
};

struct f_potrf_step { /* k_vpotrf_step's problem: the diagonal block and the panel below (lower) or beside it */
    int c0, L, upper;
    template <typename T>
    __device__ bool operator()(const bb_vdim &v, int, T *A, T *, T *, int *, bb_vdim &o, T *&pa, T *&pb, T *&) const
    {
        if (v.n <= c0) return false;
        const int bt = imin(L, v.n - c0), r = c0 + bt;
        const int64_t lda = v.lda;
        o.n = bt;
        o.m = v.n - r;
        o.k = o.nrhs = 0;
        o.lda = lda;
        pa = A + c0 + c0 * lda;
        pb = upper ? A + c0 + r * lda : A + r + c0 * lda;
        return true;
    }
};

/* Chunks per slot: a multiple of the problems one warp holds at the
   step's bound (32 / L), so that a warp's items stay one problem's. */
int chunks(const vctx &c, int w)
{
    const int per = 32 / c.L;
    const int n = (w + c.L - 1) / c.L;
    return n < 1 ? per : (n + per - 1) / per * per;
}

/* The slice's work in problems of its largest order (the planner's
   vwork; the count of problems where it is unknown), and whether it fills
   the GPU: more than VP_FULL_FEW such problems, twice that in complex
   (blocks of 16 columns: twice the launches a problem).  The measured
   rows (H100, session 22): skewed batches give about 100 (a few problems
   at Nmax, thousands of small ones: complex types send 17..25 to the
   driver, and z skewed [1, 256] lost 35% when the rule counted problems
   of any size, as it did until session 22); uniform [1, Nmax] of 3000 /
   10240 problems about 735 / 2500.  d uniform [1, 128] of 3000 problems
   runs 18.6-19.2% a launch a column against 15.5-17.1% in one launch, z
   16.5% against 17.4-17.8%. */
const double VP_FULL_FEW = 512;

template <typename T>
bool fills_gpu(const bb_dev_batch &d)
{
    const double work = d.vwork > 0 ? d.vwork : (double)d.count;
    return work > VP_FULL_FEW * (bb_small_cap<T>::value == 16 ? 2 : 1);
}

/* k_vpotrf_step without the update: a warp a block (16 blocks an SM in
   double, 12 in complex; a problem's panel rows 32 a pass) where the
   slice fills the GPU and no problem is above VP_FULL_MAX_N, else 4 warps
   (the panel rows 128 a pass: a large problem's chain of passes is what a
   few problems wait for).  Uniform sizes, 10240 problems, H100 (session
   20): d Nmax 128 / 256 23.2-24.0 -> 26.4-26.6%, 24.9-25.0 -> 25.7-26.0%,
   512 20.3-20.5 -> 20.0-20.1%; skewed d 512 (about 100 problems above 48)
   9.5 -> 8.2%.  BATCHBLAS_CUDA_VAR_STEP_WARPS=1 or 4 forces one. */
const int VP_FULL_MAX_N = 256;

template <typename T>
int step_warps(const vctx &c, int N, const bb_dev_batch &d)
{
    if (c.step_warps) return c.step_warps;
    return N <= VP_FULL_MAX_N && fills_gpu<T>(d) ? 1 : 4;
}

/* Whether a slice of potrf (the largest of order N) takes k_vpotrf_full
   (the whole factorisation in one launch) rather than a launch a block
   column and a k_vgemm launch for each column's update: where it measured
   faster (uniform and skewed sizes, Nmax 128..512, H100; doc/performance.md,
   sessions 20 and 22).  The per-column launches spread a large problem's
   update over many thread blocks; the whole factorisation saves their
   launches and their waits, which is what a slice that does not fill the
   GPU waits for.  So: where the slice does not fill the GPU, up to order
   256 in real types (d skewed [1, 512]: 9.6-9.8% a launch a column
   against 6.0-6.1%) and at every order in z (skewed [1, 512]: 5.6%
   against 5.1-5.2%); single complex always (its per-column path lost at
   Nmax 128 and 512).  BATCHBLAS_CUDA_VAR_FUSED=3: always; 0..2: never. */
template <typename T>
bool potrf_full(const vctx &c, int N, const bb_dev_batch &d)
{
    if (c.fused_set) return c.fused == 3;
    if (std::is_same<T, cuFloatComplex>::value) return true;
    if (fills_gpu<T>(d)) return false;
    return bb_small_cap<T>::value == 16 || N <= VP_FULL_MAX_N;
}

template <typename T>
cudaError_t potrf_slice(const vctx &c, const bb_problem &p, const bb_dev_batch &d)
{
    const int N = p.n, L = c.L, up = p.uplo == BblasUpper;
    const double m1[2] = {-1, 0}, one[2] = {1, 0};
    const int ct = sizeof(T) == 2 * sizeof(typename bb_real<T>::type) ? BblasConjTrans : BblasTrans;
    cudaError_t e = cudaSuccess;
    if (potrf_full<T>(c, N, d)) { /* every block column in one launch */
        const int64_t n = d.count;
        e = view<T>(c, f_potrf_full{}, d, 1);
        if (e == cudaSuccess) {
            const unsigned grid = (unsigned)(n < (1 << 20) ? n : (1 << 20));
            k_vpotrf_full<T><<<grid, VP_THREADS, 0, c.q->stream>>>(c.w.vdim, (T *const *)c.w.pa, c.w.info, n, up);
            e = cudaGetLastError();
        }
        if (e == cudaSuccess && d.info) {
            k_merge<<<bb_grid(n, 256), 256, 0, c.q->stream>>>(d.info, c.w.info, n, 1, 0);
            e = cudaGetLastError();
        }
        return e;
    }
    for (int c0 = 0; c0 < N && e == cudaSuccess; c0 += L) {
        const bb_dev_batch h = bb_var_head(d, c0); /* the problems of order above c0 */
        const int64_t n = h.count;
        if (n <= 0) break;
        /* the update inside k_vpotrf_step (BATCHBLAS_CUDA_VAR_FUSED=2, to
           compare): single precision took it until session 22, when
           k_vgemm's 2 x 4 tile made the GEMM launch faster there too
           (uniform [1, 128] / [1, 256] / [1, 512], H100: 14.0-14.7 ->
           18.0-18.2%, 16.8 -> 20.5-20.9%, 14.1 -> 16.0-16.1%); double
           lost there (session 19: 3 blocks an SM, and c0 x L FMAs a row
           in one thread) */
        const int kupd = c.fused == 2;
        if (c0 > 0 && !kupd) {
            e = view<T>(c, f_potrf_upd{c0, L, up}, h, 1);
            if (e == cudaSuccess)
                e = vgemm<T>(c, n, vm_trans(up ? ct : BblasNoTrans), vm_trans(up ? BblasNoTrans : ct), m1, one,
                             up ? VT_UPPER : VT_LOWER,
                             up ? L : N - c0, up ? N - c0 : L);
            if (e != cudaSuccess) break;
        }
        if (c.fused) { /* the diagonal block and its panel in one launch */
            e = view<T>(c, f_potrf_step{c0, L, up}, h, 1);
            if (e == cudaSuccess) {
                const unsigned grid = (unsigned)(n < (1 << 20) ? n : (1 << 20));
                if (kupd && c0 > 0)
                    k_vpotrf_step<T, true, VP_THREADS><<<grid, VP_THREADS, 0, c.q->stream>>>(
                        c.w.vdim, (T *const *)c.w.pa, (T *const *)c.w.pb, c.w.info, n, up, c0);
                else if (step_warps<T>(c, N, d) == 1) {
                    /* a warp a block: 16 (real) or 12 (complex) of them an SM,
                       in the shared memory's largest carve-out (an attribute
                       of the device's context: set once a device) */
                    static unsigned long long carved = 0; /* devices 0..63 */
                    const int dv = c.q->device;
                    const bool known = dv >= 0 && dv < 64;
                    if (!known || !((__atomic_load_n(&carved, __ATOMIC_RELAXED) >> dv) & 1)) {
                        if (cudaFuncSetAttribute(k_vpotrf_step<T, false, 32>,
                                                 cudaFuncAttributePreferredSharedMemoryCarveout,
                                                 (int)cudaSharedmemCarveoutMaxShared) == cudaSuccess && known)
                            __atomic_fetch_or(&carved, 1ull << dv, __ATOMIC_RELAXED);
                    }
                    k_vpotrf_step<T, false, 32><<<grid, 32, 0, c.q->stream>>>(
                        c.w.vdim, (T *const *)c.w.pa, (T *const *)c.w.pb, c.w.info, n, up, 0);
                } else
                    k_vpotrf_step<T, false, VP_THREADS><<<grid, VP_THREADS, 0, c.q->stream>>>(
                        c.w.vdim, (T *const *)c.w.pa, (T *const *)c.w.pb, c.w.info, n, up, 0);
                e = cudaGetLastError();
            }
            if (e == cudaSuccess && d.info) {
                k_merge<<<bb_grid(n, 256), 256, 0, c.q->stream>>>(d.info, c.w.info, n, 1, c0);
                e = cudaGetLastError();
            }
            continue;
        }
        e = view<T>(c, f_potrf_diag{c0, L}, h, 1);
        bb_problem lp = bb_blank_problem();
        lp.uplo = p.uplo;
        lp.n = L;
        lp.lda = p.lda;
        if (e == cudaSuccess) e = bb_small_potrf(c.prec, lp, step_batch(c, n, 1), c.q);
        if (e == cudaSuccess && d.info) {
            k_merge<<<bb_grid(n, 256), 256, 0, c.q->stream>>>(d.info, c.w.info, n, 1, c0);
            e = cudaGetLastError();
        }
        if (e != cudaSuccess || c0 + L >= N) break;
        const int nch = chunks(c, N - c0 - L);
        /* chunk k: rows c0 + L + k L on */
        const vlayout lay = chunk_layout(c, h, nch, 0, c0 + L);
        const int64_t items = lay.start[lay.ng];
        e = view_chunks<T>(c, f_potrf_panel{c0, L, up}, h, nch, lay);
        const bb_problem tp = tri_step(up ? BblasLeft : BblasRight, p.uplo, BblasConjTrans, BblasNonUnit, L, L, p.lda, 1);
        if (e == cudaSuccess && items > 0) e = bb_small_trsm_chunked(c.prec, tp, step_batch(c, items, 2), c.q, L);
    }
    return e;
}

/* ---- trsm and trmm: M = op(A), recursive (seed 004's TRSM and TRMM
   rows), walked forward (from the top) or backward (from the bottom of
   each problem's own triangle).  Positions along the walk x = 0, 1, ...
   are rows x (forward) or t - 1 - x (backward) of a problem of order t; the
   recursion runs on the batch's largest order, cut at multiples of L, and
   each problem clips the blocks to its own t.  A range [a, b) wider than
   L is cut at mid (half of its blocks of L, rounded up):
   - trsm: solve [a, mid); update [mid, b) with the product of M(mid:b,
     a:mid) and the solution [a, mid) (one GEMM); solve [mid, b);
   - trmm, whose walk starts at the end that the other rows do not read (M
     lower, left: the bottom): multiply [a, mid) in place; add to it the
     product of M(a:mid, mid:b) and [mid, b), not yet multiplied (one GEMM,
     beta 1); multiply [mid, b).
   A range of L or less is the register kernel's (trsm, trmm), in chunks
   of L of the free dimension (one launch).  The updates of the first
   levels are square GEMMs of half the order, on the tensor cores in
   double; the blocked walk that this replaces (session 30 and before)
   gave every update a side of L, on k_vgemm. */

struct trsm_geo {
    int left, forward, L;
    int x0, x1; /* the block: walk positions [x0, x1) */
    int y0, y1; /* the part of the triangle its update reads: [y0, y1) */
    /* the triangle's order t and free dimension f of a problem; its block
       rows [r0, r1) and the rows [s0, s1) its update reads; false: no
       block */
    __device__ bool at(const bb_vdim &v, int &t, int &f, int &r0, int &r1, int &s0, int &s1) const
    {
        t = left ? v.m : v.n;
        f = left ? v.n : v.m;
        const int z0 = imin(y0, t), z1 = imin(y1, t);
        if (forward) {
            r0 = x0, r1 = imin(x1, t);
            s0 = z0, s1 = z1;
        } else {
            r1 = t - x0, r0 = t - x1 > 0 ? t - x1 : 0;
            s0 = t - z1, s1 = t - z0;
        }
        return r0 < r1 && f > 0;
    }
};

/* The problem a trsm or trmm walk takes from a slot: the slot's own
   (sub_all), or a part of it (sub_lu, the recursive LU's update): v, A, B
   become the part's sizes and operands; false: no part. */
struct sub_all {
    template <typename T>
    __device__ bool operator()(bb_vdim &, T *&, T *&) const { return true; }
};

template <typename S = sub_all>
struct f_trsm_upd {
    trsm_geo g;
    int tr;
    S sub;
    template <typename T>
    __device__ bool operator()(const bb_vdim &v0, int, T *A, T *B, T *, int *, bb_vdim &o, T *&pa, T *&pb, T *&pc) const
    {
        bb_vdim v = v0;
        if (!sub(v, A, B)) return false;
        int t, f, r0, r1, s0, s1;
        if (!g.at(v, t, f, r0, r1, s0, s1) || s1 <= s0) return false;
        const int64_t lda = v.lda, ldb = v.ldb;
        o.k = s1 - s0;
        if (g.left) { /* B_j = alpha B_j - M(r0:r1, s0:s1) X(s0:s1, :) */
            o.m = r1 - r0, o.n = f;
            pa = A + (tr ? s0 + r0 * lda : r0 + s0 * lda);
            pb = B + s0;
            pc = B + r0;
            o.lda = lda, o.ldb = ldb, o.ldc = ldb;
        } else { /* B_j = alpha B_j - X(:, s0:s1) M(s0:s1, r0:r1) */
            o.m = f, o.n = r1 - r0;
            pa = B + s0 * ldb;
            pb = A + (tr ? r0 + s0 * lda : s0 + r0 * lda);
            pc = B + r0 * ldb;
            o.lda = ldb, o.ldb = lda, o.ldc = ldb;
        }
        return true;
    }
};

/* a leaf's chunk c: the diagonal block and chunk c of its rows of B; inv:
   the block's inverse in C (f_trsm_dinv), for trmm; pc: C (the on-chip
   trsm's inverted blocks, leaf_panel) */
template <typename S = sub_all>
struct f_trsm_diag {
    trsm_geo g;
    S sub;
    bool inv;
    template <typename T>
    __device__ bool operator()(const bb_vdim &v0, int c, T *A, T *B, T *C, int *, bb_vdim &o, T *&pa, T *&pb, T *&pc) const
    {
        bb_vdim v = v0;
        if (!sub(v, A, B)) return false;
        int t, f, r0, r1, s0, s1;
        if (!g.at(v, t, f, r0, r1, s0, s1) || c * g.L >= f) return false;
        const int64_t lda = v.lda, ldb = v.ldb;
        const int w = imin(g.L, f - c * g.L), bt = r1 - r0;
        o.m = g.left ? bt : w;
        o.n = g.left ? w : bt;
        o.k = o.nrhs = 0;
        o.lda = inv ? g.L : lda, o.ldb = ldb;
        pa = inv ? C : A + r0 + r0 * lda;
        pb = g.left ? B + r0 + (int64_t)c * g.L * ldb : B + c * g.L + r0 * ldb;
        pc = C;
        return true;
    }
};

/* a leaf's diagonal block c of order L (from its top; the leaf's only
   one where the leaf is L wide), to invert (trtri) into C + c L x L, ld L */
template <typename S = sub_all>
struct f_trsm_dinv {
    trsm_geo g;
    S sub;
    template <typename T>
    __device__ bool operator()(const bb_vdim &v0, int c, T *A, T *B, T *C, int *, bb_vdim &o, T *&pa, T *&pb, T *&) const
    {
        bb_vdim v = v0;
        if (!sub(v, A, B)) return false;
        int t, f, r0, r1, s0, s1;
        if (!g.at(v, t, f, r0, r1, s0, s1)) return false;
        const int x = r0 + c * g.L;
        if (x >= r1) return false;
        o.m = o.n = imin(g.L, r1 - x);
        o.k = o.nrhs = 0;
        o.lda = v.lda, o.ldb = g.L;
        pa = A + x + x * (int64_t)v.lda;
        pb = C + (int64_t)c * g.L * g.L;
        return true;
    }
};

/* The recursion of trsm_slice and trmm_slice (the comment above trsm_geo). */
template <typename T, typename S>
struct tri_walk {
    const vctx &c;
    const bb_problem &p;
    const bb_dev_batch &d;
    S sub;
    int trmm, left, tr, forward, tmax, fmax, nch;
    bool az;

    /* the register kernel on the block [a, b); scaled: alpha is applied
       already (trsm: the block took an update).  A trsm leaf with at least
       c.dinv_min chunks a problem (bb_cuda_dinv_min) first inverts its diagonal
       blocks (trtri into c.dinv, once a problem), then multiplies each
       chunk by the inverse (the register trmm: no chain of dependent
       steps, which the solve has in every chunk). */
    cudaError_t leaf(int a, int b, bool scaled) const
    {
        const trsm_geo g = {left, forward, c.L, a, b, 0, 0};
        /* chunk k of the free dimension: the problems whose order passes
           a and whose free dimension passes k L */
        const vlayout lay = chunk_layout(c, d, nch, a, 0);
        const int64_t items = lay.start[lay.ng], heads = bb_var_active(d, a);
        if (items == 0) return cudaSuccess;
        const bool inv = !trmm && !az && c.dinv && items >= c.dinv_min * heads;
        bb_dev_batch dd = d;
        cudaError_t e = cudaSuccess;
        if (inv) {
            dd.opd[BB_C] = bb_workspace_opd(c.dinv, (int64_t)c.L * c.L);
            const bb_dev_batch h = bb_var_head(dd, a); /* the problems whose order passes a */
            if ((e = view<T>(c, f_trsm_dinv<S>{g, sub}, h, 1)) != cudaSuccess) return e;
            if ((e = step_trtri(c, p.uplo, p.diag, p.lda, h.count, 2)) != cudaSuccess) return e;
        }
        if ((e = view_chunks<T>(c, f_trsm_diag<S>{g, sub, inv}, dd, nch, lay)) != cudaSuccess) return e;
        bb_problem lp = p;
        lp.m = lp.n = c.L;
        if (scaled) lp.alpha[0] = 1, lp.alpha[1] = 0;
        const bb_dev_batch sb = step_batch(c, items, 2);
        return trmm || inv ? bb_small_blas3(BB_OP_TRMM, c.prec, lp, sb, c.q)
                           : bb_small_trsm_chunked(c.prec, lp, sb, c.q, c.L);
    }
    /* block [x0, x1) -= (trsm) or += (trmm) M(x0:x1, y0:y1) B(y0:y1) */
    cudaError_t update(int x0, int x1, int y0, int y1, bool scaled) const
    {
        const trsm_geo g = {left, forward, c.L, x0, x1, y0, y1};
        const bb_dev_batch h = bb_var_head(d, x0 > y0 ? x0 : y0); /* the problems whose order passes both */
        if (h.count <= 0) return cudaSuccess;
        cudaError_t e = view<T>(c, f_trsm_upd<S>{g, tr, sub}, h, 1);
        if (e != cudaSuccess) return e;
        const double m1[2] = {-1, 0}, one[2] = {1, 0};
        const int w = imin(x1, tmax) - x0;
        return vgemm<T>(c, h.count, left ? vm_trans(p.trans) : VM_N, left ? VM_N : vm_trans(p.trans),
                        trmm ? p.alpha : m1, trmm || scaled ? one : p.alpha, VT_ALL, left ? w : fmax, left ? fmax : w);
    }
    /* the leaf [a, b) on chip (trsm_panel.cu; double, b - a <= c.panel):
       each problem's diagonal blocks of 32 inverted into workspace3 (one
       view, one register trtri launch), then a thread block a chunk of 32
       of the free dimension solves it whole in shared memory, one launch
       a class of the problems' order in the leaf (up to 64, 128, 256: the
       kernel's shared memory, so its blocks an SM, follow the class) */
    cudaError_t leaf_panel(int a, int b, bool scaled) const
    {
        const bb_dev_batch h = bb_var_head(d, a); /* the problems whose order passes a */
        if (h.count <= 0) return cudaSuccess;
        const int L = c.L, wd = imin(b, tmax) - a, nbk = (wd + L - 1) / L;
        const int64_t stride = (int64_t)nbk * L * L; /* a slot's inverted blocks */
        int64_t per = std::min<int64_t>(c.wcap / nbk, (int64_t)(BB_CUDA_DINV_BYTES / (stride * sizeof(T))));
        if (per > h.count) per = h.count;
        if (per <= 0) return cudaErrorNotSupported;
        void *W = bb_cuda_workspace3(c.q, (size_t)(per * stride) * sizeof(T));
        if (!W) return cudaErrorMemoryAllocation;
        const trsm_geo g = {left, forward, L, a, b, 0, 0};
        bb_problem lp = p;
        if (scaled) lp.alpha[0] = 1, lp.alpha[1] = 0;
        /* the classes: slots [0, end[0]) have orders up to cap[0] in the
           leaf, [end[0], end[1]) up to cap[1], .. (the slots lie largest
           first: past bb_var_active(d, x) no size passes x) */
        int cap[3], ncls = 0;
        int64_t end[3];
        if (wd > 4 * L) cap[ncls] = wd, end[ncls++] = bb_var_active(h, a + 4 * L);
        if (wd > 2 * L) cap[ncls] = imin(wd, 4 * L), end[ncls++] = bb_var_active(h, a + 2 * L);
        cap[ncls] = imin(wd, 2 * L), end[ncls++] = h.count;
        cudaError_t e = cudaSuccess;
        for (int64_t first = 0; first < h.count && e == cudaSuccess; first += per) {
            const int64_t cnt = std::min<int64_t>(per, h.count - first);
            bb_dev_batch s = bb_slice(h, first, cnt, c.prec);
            s.opd[BB_C] = bb_workspace_opd(W, stride);
            if ((e = view<T>(c, f_trsm_dinv<S>{g, sub}, s, nbk)) != cudaSuccess) break;
            if ((e = step_trtri(c, p.uplo, p.diag, p.lda, cnt * nbk, 2)) != cudaSuccess) break;
            int64_t lo = first;
            for (int k = 0; k < ncls && e == cudaSuccess; k++) {
                const int64_t hi = std::min<int64_t>(end[k], first + cnt);
                if (hi <= lo) continue;
                const bb_dev_batch sk = bb_slice(s, lo - first, hi - lo, c.prec);
                lo = hi;
                const vlayout lay = chunk_layout(c, sk, nch, a, 0);
                const int64_t items = lay.start[lay.ng];
                if (items == 0) continue;
                if ((e = view_chunks<T>(c, f_trsm_diag<S>{g, sub, false}, sk, nch, lay)) != cudaSuccess) break;
                e = bb_trsm_panel_run(lp, step_batch(c, items, 3), cap[k], L, c.q);
            }
        }
        return e;
    }
    cudaError_t run(int a, int b, bool scaled) const
    {
        if (std::is_same<T, double>::value && c.panel && !trmm && !az && b - a <= c.panel)
            return leaf_panel(a, b, scaled);
        if (b - a <= c.L) return leaf(a, b, scaled);
        const int mid = a + ((b - a + c.L - 1) / c.L + 1) / 2 * c.L;
        cudaError_t e = run(a, mid, scaled);
        if (e != cudaSuccess || mid >= tmax) return e;
        if (!az) e = trmm ? update(a, mid, mid, b, scaled) : update(mid, b, a, mid, scaled);
        return e != cudaSuccess ? e : run(mid, b, scaled || (!trmm && !az));
    }
};

template <typename T, typename S>
tri_walk<T, S> make_walk(const vctx &c, const bb_problem &p, const bb_dev_batch &d, const S &sub, int trmm)
{
    const int left = p.side == BblasLeft, tr = p.trans != BblasNoTrans;
    const bool mlower = (p.uplo == BblasLower) != (tr != 0);
    const int forward = (left ? mlower : !mlower) != (trmm != 0);
    const int fmax = left ? p.n : p.m;
    return tri_walk<T, S>{c,   p,      d,    sub,  trmm, left, tr, forward, left ? p.m : p.n,
                          fmax, chunks(c, fmax), p.alpha[0] == 0 && p.alpha[1] == 0};
}

template <typename T, typename S = sub_all>
cudaError_t trsm_slice(const vctx &c, const bb_problem &p, const bb_dev_batch &d, const S &sub = S())
{
    const tri_walk<T, S> w = make_walk<T>(c, p, d, sub, 0);
    return w.tmax > 0 ? w.run(0, w.tmax, false) : cudaSuccess;
}

template <typename T>
cudaError_t trmm_slice(const vctx &c, const bb_problem &p, const bb_dev_batch &d)
{
    const tri_walk<T, sub_all> w = make_walk<T>(c, p, d, sub_all(), 1);
    return w.tmax > 0 ? w.run(0, w.tmax, false) : cudaSuccess;
}

/* ---- the rest of the BLAS-3 family: one GEMM on the problems themselves.
   syrk, herk: C = alpha P P^T (P^H) + beta C on the uplo triangle, P =
   op(A) n x k; syr2k, her2k: the same with alpha P Q^T, then the second
   term alpha Q P^T (her2k: conj(alpha) Q P^H) with beta 1; herk and her2k
   keep the diagonal real.  symm, hemm: the symmetric or Hermitian operand
   read whole from its stored triangle. */

struct f_rank { /* term 0: P = op(A), Q = op(B); term 1: the two exchanged */
    int second;
    template <typename T>
    __device__ bool operator()(const bb_vdim &v, int, T *A, T *B, T *C, int *, bb_vdim &o, T *&pa, T *&pb, T *&pc) const
    {
        if (v.n <= 0) return false;
        o.m = o.n = v.n;
        o.k = v.k;
        T *X = B ? B : A; /* syrk, herk: Q = P */
        const int64_t ldx = B ? v.ldb : v.lda;
        pa = second ? X : A;
        pb = second ? A : X;
        o.lda = second ? ldx : v.lda;
        o.ldb = second ? v.lda : ldx;
        o.ldc = v.ldc;
        pc = C;
        return true;
    }
};

struct f_symm {
    int left;
    template <typename T>
    __device__ bool operator()(const bb_vdim &v, int, T *A, T *B, T *C, int *, bb_vdim &o, T *&pa, T *&pb, T *&pc) const
    {
        if (v.m <= 0 || v.n <= 0) return false;
        o.k = left ? v.m : v.n;
        pa = left ? A : B;
        pb = left ? B : A;
        o.lda = left ? v.lda : v.ldb;
        o.ldb = left ? v.ldb : v.lda;
        pc = C;
        return true;
    }
};

template <typename T>
cudaError_t blas3_slice(bb_op op, const vctx &c, const bb_problem &p, const bb_dev_batch &d)
{
    const int lower = p.uplo == BblasLower;
    cudaError_t e = cudaSuccess;
    if (op == BB_OP_SYMM || op == BB_OP_HEMM) {
        const int left = p.side == BblasLeft;
        const int sm = op == BB_OP_HEMM ? (lower ? VM_HER_L : VM_HER_U) : (lower ? VM_SYM_L : VM_SYM_U);
        e = view<T>(c, f_symm{left}, d, 1);
        if (e == cudaSuccess)
            e = vgemm<T>(c, d.count, left ? sm : VM_N, left ? VM_N : sm, p.alpha, p.beta, VT_ALL, p.m, p.n);
        return e;
    }
    const bool herm = op == BB_OP_HERK || op == BB_OP_HER2K, two = op == BB_OP_SYR2K || op == BB_OP_HER2K;
    const int nt = p.trans == BblasNoTrans;
    const int ma = vm_trans(p.trans), mb = nt ? (herm ? VM_C : VM_T) : VM_N;
    const int tri = (lower ? VT_LOWER : VT_UPPER) | (herm ? VT_HERM : 0);
    for (int t = 0; t < (two ? 2 : 1) && e == cudaSuccess; t++) {
        const double one[2] = {1, 0}, a2[2] = {p.alpha[0], herm ? -p.alpha[1] : p.alpha[1]};
        e = view<T>(c, f_rank{t}, d, 1);
        if (e == cudaSuccess) e = vgemm<T>(c, d.count, ma, mb, t ? a2 : p.alpha, t ? one : p.beta, tri, p.n, p.n);
    }
    return e;
}

/* ---- the LU family and the Cholesky solves: steps of the routines above,
   and other routines' steps on parts of the same problems (a sub-call gets
   its own sizes and operand pointers per problem, sub_batch) */

struct s_square { /* getrf or potrf on the n x n matrix of a solve */
    template <typename T>
    __device__ bool operator()(const bb_vdim &v, int, T *A, T *B, T *C, int *, bb_vdim &o, T *&pa, T *&pb, T *&pc) const
    {
        o.m = v.n;
        o.k = o.nrhs = 0;
        pa = A, pb = B, pc = C;
        return true;
    }
};

struct s_solve { /* the trsm of a solve: n x nrhs (left) or nrhs x n (right) */
    int right;
    template <typename T>
    __device__ bool operator()(const bb_vdim &v, int, T *A, T *B, T *C, int *, bb_vdim &o, T *&pa, T *&pb, T *&pc) const
    {
        o.m = right ? v.nrhs : v.n;
        o.n = right ? v.n : v.nrhs;
        o.k = o.nrhs = 0;
        pa = A, pb = B, pc = C;
        return true;
    }
};

/* The batch d as another routine's call: each problem's sizes and operand
   pointers A, B, C from f (a view functor; an inactive problem gets zero
   sizes), in c.sv, whether d has those operands or not (trtri's trmm
   makes a B of part of A); pivots and codes stay d's. */
template <typename T, typename F>
cudaError_t sub_batch(const vctx &c, const F &f, const bb_dev_batch &d, bb_dev_batch &s)
{
    k_view<T, F><<<bb_grid(d.count, 256), 256, 0, c.q->stream>>>(f, d, c.sv, 1, NULL, flat_layout(d.count, 1));
    s = d;
    s.vdim = c.sv.vdim;
    void **arr[3] = {c.sv.pa, c.sv.pb, c.sv.pc};
    const int opd[3] = {BB_A, BB_B, BB_C};
    for (int o = 0; o < 3; o++) {
        memset(&s.opd[opd[o]], 0, sizeof s.opd[opd[o]]);
        s.opd[opd[o]].ptr = arr[o];
    }
    return cudaGetLastError();
}

/* skip[t] = (info[t] != 0): the problems the LU steps leave out (padding,
   argument errors); later codes (zero pivots) do not stop them */
__global__ void k_flags(const int *info, int *skip, int64_t n)
{
    for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < n; t += (int64_t)gridDim.x * blockDim.x)
        skip[t] = info ? info[t] != 0 : 0;
}

/* In-place transposition of each problem's n x n matrix o (BB_A, ld lda;
   BB_B, ld ldb) (row-major LU data: the steps run on the column-major
   matrix), skip[t] == 0 only. */
template <typename T>
__global__ void k_vtranspose(const bb_dev_batch d, const int *skip, int o)
{
    for (int64_t t = blockIdx.x; t < d.count; t += gridDim.x) {
        if (skip[t]) continue;
        const bb_vdim v = d.vdim[t];
        T *A = bb_dev_ptr<T>(d.opd[o], t);
        const int n = v.n;
        const int64_t ld = o == BB_A ? v.lda : v.ldb;
        for (int64_t e = threadIdx.x; e < (int64_t)n * n; e += blockDim.x) {
            const int r = (int)(e % n), col = (int)(e / n);
            if (r < col) {
                const T x = A[r + col * ld];
                A[r + col * ld] = A[col + r * ld];
                A[col + r * ld] = x;
            }
        }
    }
}

/* The row interchanges of getrs on B (n x nrhs, element (r, c) at
   r rs + c cs: rs = 1, cs = ldb column-major; rs = ldb, cs = 1 row-major):
   forward (P B) or backward (P^T B), as LAPACK's laswp.  The block turns
   the interchanges into a gather order in shared memory (row r of the
   result is row perm[r] of B; pivots outside 1..n, which getrf never
   writes, are ignored), then moves tiles of columns through shared
   memory.  A block a problem; problems with info != 0 are left as they
   are.  n <= VL_MAXN. */
const int VL_MAXN = 512, VL_TILE = 2048, VL_THREADS = 256;
static_assert(VL_MAXN >= BB_VAR_LU_ROWS, "k_vlaswp holds the interchanges of every getrs problem of the driver");

template <typename T>
__global__ void __launch_bounds__(VL_THREADS) k_vlaswp(const bb_dev_batch d, int forward, int rowmajor)
{
    __shared__ int perm[VL_MAXN];
    __shared__ T tile[VL_TILE];
    for (int64_t t = blockIdx.x; t < d.count; t += gridDim.x) {
        if (d.info[t] != 0) continue;
        const bb_vdim v = d.vdim[t];
        const int n = v.n, nrhs = v.nrhs;
        if (n <= 0 || nrhs <= 0) continue;
        const int *ip = bb_dev_ptr<int>(d.opd[BB_IPIV], t);
        T *B = bb_dev_ptr<T>(d.opd[BB_B], t);
        const int64_t rs = rowmajor ? v.ldb : 1, cs = rowmajor ? 1 : v.ldb;
        for (int r = threadIdx.x; r < n; r += blockDim.x) perm[r] = r;
        __syncthreads();
        if (threadIdx.x == 0)
            for (int x = 0; x < n; x++) {
                const int k = forward ? x : n - 1 - x, p = ip[k] - 1;
                if (p < 0 || p >= n || p == k) continue;
                const int y = perm[k];
                perm[k] = perm[p];
                perm[p] = y;
            }
        __syncthreads();
        const int cb = VL_TILE / n;
        for (int c0 = 0; c0 < nrhs; c0 += cb) {
            const int w = nrhs - c0 < cb ? nrhs - c0 : cb;
            for (int e = threadIdx.x; e < n * w; e += blockDim.x) {
                const int r = rowmajor ? e / w : e % n, col = rowmajor ? e % w : e / n;
                tile[r + col * n] = B[r * rs + (c0 + col) * cs];
            }
            __syncthreads();
            for (int e = threadIdx.x; e < n * w; e += blockDim.x) {
                const int r = rowmajor ? e / w : e % n, col = rowmajor ? e % w : e / n;
                const int src = perm[r];
                if (src != r) B[r * rs + (c0 + col) * cs] = tile[src + col * n];
            }
            __syncthreads();
        }
    }
}

/* getrf / getrfnp, column-major: the blocked driver's LU (blocked.cu,
   getrf_core) with per-problem sizes, the same two steps walking the
   slice's largest min(m, n):
     panel (vlu_panel): the register panel (bb_panel_getrf) factors rows j..
        of each problem's panel, writes global pivots and, unless the
        interchanges are deferred, applies them to the rest of the
        problem's row (both sides of the panel);
     update (vlu_update, lu_geo): the columns [a, b) of rows r0..r0+k
        become L(r0.., r0..)^-1 of themselves (trsm_slice on that part of
        each problem, sub_lu), then the rows below lose L A (k_vgemm).
   Recursive where bb_lu_recursive says (small.h): bb_lu_walk, the walk
   of blocked.cu's LU too (the left half, the update of the right half by
   it, the right half), the interchanges deferred (bb_lu_perm) where
   bb_lu_deferred says.  Each problem takes the part of the walk that lies
   within its own min(m, n) (lu_geo); a wide problem's columns past it
   get all its interchanges and one trsm at the end (the tail), as
   blocked.cu's.  Else LAPACK's right-looking order: a panel of L, then
   the update of everything right of the problem's own panel.
   A zero pivot gives info (the first one) and does not stop the problem:
   the steps skip only the problems flagged on entry (c.skip). */
struct f_lu_panel {
    int j, w, defer;
    template <typename T>
    __device__ bool operator()(const bb_vdim &v, int, T *A, T *, T *, int *P, bb_vdim &o, T *&pa, T *&pb,
                               T *&) const
    {
        const int mn = imin(v.m, v.n);
        if (j >= mn) return false;
        o.m = v.m - j;
        o.n = imin(w, mn - j);
        o.k = defer ? o.n : v.n; /* the columns the panel's interchanges reach */
        o.nrhs = 0;
        pa = A + j + j * v.lda;
        pb = P ? reinterpret_cast<T *>(P + j) : NULL;
        return true;
    }
};

/* One update's part of a problem: its columns [a, b) by its factored
   columns [r0, r0 + k).  Recursive (c1 >= 0): r0 = j, the left half's k =
   w columns, [j + w, c1) cut to min(m, n) (nothing where the problem's
   factorisation ends in the left half); right-looking (c1 < 0): the
   problem's own panel of at most w columns at j, and every column right of
   it; tail: k = min(m, n), [min(m, n), n). */
struct lu_geo {
    int j, w, c1, tail;
    __device__ bool at(const bb_vdim &v, int &r0, int &k, int &a, int &b) const
    {
        const int mn = imin(v.m, v.n);
        if (tail) {
            r0 = 0, k = mn, a = mn, b = v.n;
        } else {
            r0 = j, k = imin(w, mn - j), a = j + k;
            b = c1 < 0 ? v.n : imin(c1, mn);
        }
        return k > 0 && b > a;
    }
};

struct sub_lu { /* the update's trsm: L(r0.., r0..), unit lower, k x k, on A(r0.., a:b) */
    lu_geo g;
    template <typename T>
    __device__ bool operator()(bb_vdim &v, T *&A, T *&B) const
    {
        int r0, k, a, b;
        if (!g.at(v, r0, k, a, b)) return false;
        const int64_t lda = v.lda;
        B = A + r0 + a * lda;
        A = A + r0 + r0 * lda;
        v.m = k;
        v.n = b - a;
        v.ldb = lda;
        return true;
    }
};

struct f_lu_gemm { /* the update's GEMM: A(r0+k.., a:b) -= A(r0+k.., r0:r0+k) A(r0:r0+k, a:b) */
    lu_geo g;
    template <typename T>
    __device__ bool operator()(const bb_vdim &v, int, T *A, T *, T *, int *, bb_vdim &o, T *&pa, T *&pb,
                               T *&pc) const
    {
        int r0, k, a, b;
        if (!g.at(v, r0, k, a, b) || v.m <= r0 + k) return false;
        const int64_t lda = v.lda;
        o.m = v.m - r0 - k, o.n = b - a, o.k = k;
        o.lda = o.ldb = o.ldc = lda;
        pa = A + (r0 + k) + r0 * lda;
        pb = A + r0 + a * lda;
        pc = A + (r0 + k) + a * lda;
        return true;
    }
};

struct vlu { /* one slice's LU */
    const vctx &c;
    const bb_problem &p;
    const bb_dev_batch &d;
    int pivot;
    int defer;
};

template <typename T>
cudaError_t vlu_panel(const vlu &r, int j, int w)
{
    const vctx &c = r.c;
    const bb_dev_batch h = bb_var_head(r.d, j); /* the problems with min(m, n) above j */
    const int64_t n = h.count;
    if (n <= 0) return cudaSuccess;
    cudaError_t e = view<T>(c, f_lu_panel{j, w, r.defer}, h, 1, c.skip);
    if (e != cudaSuccess) return e;
    bb_problem pp = bb_blank_problem();
    pp.m = r.p.m - j;
    pp.n = c.L;
    bb_dev_batch pd = step_batch(c, n, 1);
    if (r.pivot) pd.opd[BB_IPIV].ptr = c.w.pb;
    if ((e = bb_panel_getrf(c.prec, pp, pd, c.q, r.pivot, r.p.n, j)) != cudaSuccess || !r.d.info) return e;
    k_merge<<<bb_grid(n, 256), 256, 0, c.q->stream>>>(r.d.info, c.w.info, n, 1, j);
    return cudaGetLastError();
}

/* tmax, fmax: the largest k and b - a of g's parts; mmax, nmax: the
   largest rows below and b - a of the parts that have rows below */
template <typename T>
cudaError_t vlu_update(const vlu &r, const lu_geo &g, int tmax, int fmax, int mmax, int nmax)
{
    const vctx &c = r.c;
    if (tmax <= 0 || fmax <= 0) return cudaSuccess;
    const double m1[2] = {-1, 0}, one[2] = {1, 0};
    const bb_dev_batch h = bb_var_head(r.d, g.tail ? 0 : g.j); /* the problems with min(m, n) above j */
    if (h.count <= 0) return cudaSuccess;
    bb_dev_batch sd = h;
    sd.info = c.skip; /* trsm_slice's views skip info != 0 */
    cudaError_t e = trsm_slice<T>(c, tri_step(BblasLeft, BblasLower, BblasNoTrans, BblasUnit, tmax, fmax, r.p.lda, 1),
                                  sd, sub_lu{g});
    if (e != cudaSuccess || mmax <= 0 || nmax <= 0) return e;
    if ((e = view<T>(c, f_lu_gemm{g}, h, 1, c.skip)) != cudaSuccess) return e;
    return vgemm<T>(c, h.count, VM_N, VM_N, m1, one, VT_ALL, mmax, nmax);
}

/* the interchanges of [j, j + w) on [c0, c1), each problem's part (tail:
   its columns past min(m, n), all of them) */
cudaError_t vlu_perm(const vlu &r, int j, int w, int c0, int c1, int tail)
{
    if (!r.defer) return cudaSuccess;
    const bb_dev_batch h = bb_var_head(r.d, tail ? 0 : j); /* the problems with min(m, n) above j */
    if (h.count <= 0) return cudaSuccess;
    return bb_lu_perm(r.c.prec, h, r.c.skip, r.p.m, j, w, c0, c1, 0, tail, r.c.q);
}

/* The steps of bb_lu_walk (small.h) on this LU. */
template <typename T>
struct vlu_steps {
    const vlu &r;
    cudaError_t panel(int j, int w) const { return vlu_panel<T>(r, j, w); }
    cudaError_t perm(int j, int w, int c0, int c1) const { return vlu_perm(r, j, w, c0, c1, 0); }
    cudaError_t update(int j, int w1, int c1) const
    {
        return vlu_update<T>(r, lu_geo{j, w1, c1, 0}, w1, c1 - j - w1, r.p.m - j - w1, c1 - j - w1);
    }
};

template <typename T>
cudaError_t getrf_slice(const vctx &c, const bb_problem &p, const bb_dev_batch &d, int pivot)
{
    const int M = p.m, N = p.n, L = c.L, mnx = M < N ? M : N;
    const int64_t n = d.count;
    k_flags<<<bb_grid(n, 256), 256, 0, c.q->stream>>>(d.info, c.skip, n);
    cudaError_t e = cudaGetLastError();
    const bool rm = p.rowmajor != 0; /* square problems only (bb_cuda_var_class) */
    if (rm && e == cudaSuccess) {
        k_vtranspose<T><<<bb_grid(n, 1), 256, 0, c.q->stream>>>(d, c.skip, BB_A);
        e = cudaGetLastError();
    }
    const int mode = bb_lu_rec_mode();
    vlu r = {c, p, d, pivot, 0};
    /* by default only where the slice fills the GPU: a slice of few
       problems (a skewed batch's largest) waits on its chain of launches,
       and the recursion's trsm walks add launches (H200, session 27,
       skewed d Nmax 256 / 512: getrf 0.85 / 0.96x, gesv 0.88 / 0.98x) */
    if (e == cudaSuccess && bb_lu_recursive(mode, mnx, L) && (mode != 1 || fills_gpu<T>(d))) {
        r.defer = bb_lu_deferred(mode, pivot, M, mnx, L);
        e = bb_lu_walk(vlu_steps<T>{r}, L, 0, mnx);
        /* the tail: wide problems' columns past min(m, n) (the launches
           find nothing to do where there are none) */
        if (e == cudaSuccess && N > 1) e = vlu_perm(r, 0, mnx, 0, 0, 1);
        if (e == cudaSuccess && N > 1) e = vlu_update<T>(r, lu_geo{0, 0, 0, 1}, mnx, N - 1, 0, 0);
    } else {
        for (int j = 0; j < mnx && e == cudaSuccess; j += L) {
            e = vlu_panel<T>(r, j, L);
            /* a problem whose panel is narrower than L (its last one) has
               up to n - j - 1 columns right of it, and no rows below */
            if (e == cudaSuccess && j + 1 < N) e = vlu_update<T>(r, lu_geo{j, L, -1, 0}, L, N - j - 1, M - j - L, N - j - L);
        }
    }
    if (rm && e == cudaSuccess) {
        k_vtranspose<T><<<bb_grid(n, 1), 256, 0, c.q->stream>>>(d, c.skip, BB_A);
        e = cudaGetLastError();
    }
    return e;
}

/* One trsm of a solve on the problems of d (sizes n, nrhs per problem):
   A the triangle, B the right-hand sides (right: B holds them as rows). */
template <typename T>
cudaError_t solve_step(const vctx &c, const bb_problem &p, const bb_dev_batch &d, int right, int uplo, int trans,
                       int diag)
{
    bb_dev_batch s;
    cudaError_t e = sub_batch<T>(c, s_solve{right}, d, s);
    if (e != cudaSuccess) return e;
    bb_problem tp = tri_step(right ? BblasRight : BblasLeft, uplo, trans, diag, right ? p.nrhs : p.n,
                             right ? p.n : p.nrhs, p.lda, 1);
    tp.ldb = p.ldb;
    return trsm_slice<T>(c, tp, s);
}

/* getrs on the factors of getrf.  Column-major: B = P B, L Y = B, U X = Y;
   trans: U^T, L^T, then P^T B.  Row-major data is solved where it lies:
   the stored A is (LU)^T (L^T its unit upper triangle, U^T its lower one)
   and the stored B is B^T, so the same steps become solves from the right
   with the stored triangles, and the interchanges move stored columns. */
template <typename T>
cudaError_t getrs_slice(const vctx &c, const bb_problem &p, const bb_dev_batch &d)
{
    if (p.n <= 0 || p.nrhs <= 0) return cudaSuccess;
    const int rm = p.rowmajor != 0, tr = p.trans != BblasNoTrans;
    /* the triangles as the solve sees them: column-major L is lower unit,
       U upper; row-major, the stored L^T is upper unit, U^T lower */
    const int lo = rm ? BblasUpper : BblasLower, up = rm ? BblasLower : BblasUpper;
    cudaError_t e = cudaSuccess;
    if (!tr) {
        k_vlaswp<T><<<bb_grid(d.count, 1), VL_THREADS, 0, c.q->stream>>>(d, 1, rm);
        if ((e = cudaGetLastError()) == cudaSuccess) e = solve_step<T>(c, p, d, rm, lo, BblasNoTrans, BblasUnit);
        if (e == cudaSuccess) e = solve_step<T>(c, p, d, rm, up, BblasNoTrans, BblasNonUnit);
    } else {
        e = solve_step<T>(c, p, d, rm, up, p.trans, BblasNonUnit);
        if (e == cudaSuccess) e = solve_step<T>(c, p, d, rm, lo, p.trans, BblasUnit);
        if (e == cudaSuccess) {
            k_vlaswp<T><<<bb_grid(d.count, 1), VL_THREADS, 0, c.q->stream>>>(d, 0, rm);
            e = cudaGetLastError();
        }
    }
    return e;
}

/* gesv: getrf on A, then getrs on the problems it found nonsingular (the
   others keep B, LAPACK). */
template <typename T>
cudaError_t gesv_slice(const vctx &c, const bb_problem &p, const bb_dev_batch &d)
{
    bb_dev_batch s;
    cudaError_t e = sub_batch<T>(c, s_square{}, d, s);
    bb_problem fp = p;
    fp.m = p.n;
    if (e == cudaSuccess) e = getrf_slice<T>(c, fp, s, 1);
    if (e == cudaSuccess) e = getrs_slice<T>(c, p, d);
    return e;
}

/* potrs: A X = B with A = L L^H (lower) or U^H U (upper); rhs_right
   (row-major): X A = B.  posv: potrf first, potrs on the problems it
   factored. */
template <typename T>
cudaError_t potrs_slice(const vctx &c, const bb_problem &p, const bb_dev_batch &d)
{
    if (p.n <= 0 || p.nrhs <= 0) return cudaSuccess;
    const int upper = p.uplo == BblasUpper, right = p.rhs_right != 0;
    const bool conj_first = upper != right; /* the factor met first from B's side */
    cudaError_t e = solve_step<T>(c, p, d, right, p.uplo, conj_first ? BblasConjTrans : BblasNoTrans, BblasNonUnit);
    if (e == cudaSuccess)
        e = solve_step<T>(c, p, d, right, p.uplo, conj_first ? BblasNoTrans : BblasConjTrans, BblasNonUnit);
    return e;
}

template <typename T>
cudaError_t posv_slice(const vctx &c, const bb_problem &p, const bb_dev_batch &d)
{
    bb_dev_batch s;
    cudaError_t e = sub_batch<T>(c, s_square{}, d, s);
    if (e == cudaSuccess) e = potrf_slice<T>(c, p, s);
    if (e == cudaSuccess) e = potrs_slice<T>(c, p, d);
    return e;
}

/* ---- trtri, lauum, potri, poti: LAPACK's blocked algorithms (dtrtri,
   dlauum) with blocks of L on each problem's own triangle; a block's
   diagonal part goes to the register kernels with per-problem sizes.

   trtri  lower: blocks [r0, r1) from the bottom of each problem's
          triangle (r1 = n - s L), upper: from the top (r0 = s L); the
          part P beside the block's diagonal D within the inverted part
          (lower: A(r1:n, r0:r1), upper: A(0:r0, r0:r1), s L rows either
          way) becomes -inv(T) P inv(D), T the part already inverted:
            P = T P     (trmm on the sub-batch of the parts: a triangle of
                         s L, the walk above)
            D = inv(D)  (register trtri)
            P = -P D    (register trmm from the right, chunks of L rows;
                         BATCHBLAS_CUDA_DINV=0: P = -P D^-1 by the
                         register trsm, before D is inverted).
          A zero diagonal (non-unit) is found first (one scan, the
          recursive driver's kernel): info k, the problem left untouched.
   lauum  upper (A = U U^H), blocks [r0, r1) from the top; lower mirrors it:
            A(0:r0, D) = A(0:r0, D) D^H  (register trmm, chunks of L rows)
            D = lauum(D)                 (register lauum)
            A(0:r0, D) += A(0:r0, r1:n) A(D, r1:n)^H   (GEMM)
            D += A(D, r1:n) A(D, r1:n)^H               (GEMM, upper part).
   potri  trtri (non-unit), then lauum on the problems it found
          nonsingular; poti: potrf first (its info stops a problem). */

struct tri_geo {
    int from_end, L, s; /* from_end: walked from the bottom (trtri lower), else from the top */
    /* the block [r0, r1) of a problem of order n at this step */
    __device__ bool at(const bb_vdim &v, int &r0, int &r1) const
    {
        if (from_end) {
            r1 = v.n - s * L;
            r0 = r1 - L > 0 ? r1 - L : 0;
        } else {
            r0 = s * L;
            r1 = imin(r0 + L, v.n);
        }
        return r0 < r1;
    }
};

struct f_trtri_part { /* trmm: T (the inverted part) times P */
    tri_geo g;
    template <typename T>
    __device__ bool operator()(const bb_vdim &v, int, T *A, T *, T *, int *, bb_vdim &o, T *&pa, T *&pb, T *&) const
    {
        int r0, r1;
        if (!g.at(v, r0, r1) || g.s == 0) return false;
        const int64_t lda = v.lda;
        o.m = g.s * g.L;
        o.n = r1 - r0;
        o.k = o.nrhs = 0;
        o.lda = o.ldb = lda;
        pa = g.from_end ? A + r1 + r1 * lda : A;
        pb = g.from_end ? A + r1 + r0 * lda : A + r0 * lda;
        return true;
    }
};

struct f_tri_rows { /* chunk c of the L-row chunks of the s L rows beside D: below it when the walk comes
                      from the end (trtri lower), above it otherwise (trtri upper, lauum upper) */
    tri_geo g;
    template <typename T>
    __device__ bool operator()(const bb_vdim &v, int c, T *A, T *, T *, int *, bb_vdim &o, T *&pa, T *&pb, T *&) const
    {
        int r0, r1;
        const int h = g.s * g.L, i0 = c * g.L;
        if (!g.at(v, r0, r1) || i0 >= h) return false;
        const int64_t lda = v.lda;
        o.m = imin(g.L, h - i0);
        o.n = r1 - r0;
        o.k = o.nrhs = 0;
        o.lda = o.ldb = lda;
        pa = A + r0 + r0 * lda;
        pb = A + (g.from_end ? r1 : 0) + i0 + r0 * lda;
        return true;
    }
};

struct f_tri_cols { /* lauum lower: chunk c of the L-column chunks of A(D, 0:r0) */
    tri_geo g;
    template <typename T>
    __device__ bool operator()(const bb_vdim &v, int c, T *A, T *, T *, int *, bb_vdim &o, T *&pa, T *&pb, T *&) const
    {
        int r0, r1;
        if (!g.at(v, r0, r1) || c * g.L >= r0) return false;
        const int64_t lda = v.lda;
        o.m = r1 - r0;
        o.n = imin(g.L, r0 - c * g.L);
        o.k = o.nrhs = 0;
        o.lda = o.ldb = lda;
        pa = A + r0 + r0 * lda;
        pb = A + r0 + (int64_t)c * g.L * lda;
        return true;
    }
};

struct f_tri_diag {
    tri_geo g;
    template <typename T>
    __device__ bool operator()(const bb_vdim &v, int, T *A, T *, T *, int *, bb_vdim &o, T *&pa, T *&, T *&) const
    {
        int r0, r1;
        if (!g.at(v, r0, r1)) return false;
        o.n = r1 - r0;
        o.m = o.k = o.nrhs = 0;
        pa = A + r0 + r0 * v.lda;
        return true;
    }
};

struct f_lauum_upd { /* diag 0: the part beside D, 1: D itself (upper: columns D, lower: rows D) */
    tri_geo g; /* walked from the top for both triangles */
    int diag, lower;
    template <typename T>
    __device__ bool operator()(const bb_vdim &v, int, T *A, T *, T *, int *, bb_vdim &o, T *&pa, T *&pb, T *&pc) const
    {
        int r0, r1;
        if (!g.at(v, r0, r1) || r1 >= v.n || (!diag && r0 == 0)) return false;
        const int64_t lda = v.lda;
        const int bt = r1 - r0, w = diag ? bt : r0, i0 = diag ? r0 : 0;
        o.k = v.n - r1;
        o.lda = o.ldb = o.ldc = lda;
        if (!lower) { /* C(i0.., D) += A(i0.., r1:n) A(D, r1:n)^H */
            o.m = w, o.n = bt;
            pa = A + i0 + r1 * lda;
            pb = A + r0 + r1 * lda;
            pc = A + i0 + r0 * lda;
        } else { /* C(D, i0..) += A(r1:n, D)^H A(r1:n, i0..) */
            o.m = bt, o.n = w;
            pa = A + r1 + r0 * lda;
            pb = A + r1 + i0 * lda;
            pc = A + r0 + i0 * lda;
        }
        return true;
    }
};

/* In-place inverse of each problem's triangle (zero diagonals flagged). */
template <typename T>
cudaError_t trtri_slice(const vctx &c, const bb_problem &p, const bb_dev_batch &d)
{
    const int N = p.n, L = c.L, lower = p.uplo == BblasLower;
    cudaError_t e = cudaSuccess;
    if (p.diag != BblasUnit) {
        if (!d.info) return cudaErrorInvalidValue;
        bb_k_zero_diag<T><<<bb_grid(d.count, 8), 256, 0, c.q->stream>>>(d, 0, 0);
        if ((e = cudaGetLastError()) != cudaSuccess) return e;
    }
    /* the rows beside D times -inv(D): after D is inverted, by the
       register trmm (no chain of dependent steps); BATCHBLAS_CUDA_DINV=0:
       before, by the register trsm with D (bb_cuda_dinv_min, launch.cu) */
    const bool rows_trmm = bb_cuda_dinv_min() != 0;
    for (int s = 0; s * L < N && e == cudaSuccess; s++) {
        const tri_geo g = {lower, L, s};
        const bb_dev_batch h = bb_var_head(d, s * L); /* the problems of order above s L */
        const int64_t n = h.count;
        if (n <= 0) break;
        const int nch = chunks(c, s * L);
        const bb_problem tp = tri_step(BblasRight, p.uplo, BblasNoTrans, p.diag, L, L, p.lda, -1);
        if (s > 0) {
            bb_dev_batch sb;
            const bb_problem mp = tri_step(BblasLeft, p.uplo, BblasNoTrans, p.diag, s * L, L, p.lda, 1);
            if ((e = sub_batch<T>(c, f_trtri_part{g}, h, sb)) != cudaSuccess) break;
            if ((e = trmm_slice<T>(c, mp, sb)) != cudaSuccess) break;
            if (!rows_trmm) {
                if ((e = view<T>(c, f_tri_rows{g}, h, nch)) != cudaSuccess) break;
                if ((e = bb_small_trsm_chunked(c.prec, tp, step_batch(c, n * nch, 2), c.q, L)) != cudaSuccess) break;
            }
        }
        if ((e = view<T>(c, f_tri_diag{g}, h, 1)) != cudaSuccess) break;
        if ((e = step_trtri(c, p.uplo, p.diag, p.lda, n, 1)) != cudaSuccess) break;
        if (s > 0 && rows_trmm) {
            if ((e = view<T>(c, f_tri_rows{g}, h, nch)) != cudaSuccess) break;
            e = bb_small_blas3(BB_OP_TRMM, c.prec, tp, step_batch(c, n * nch, 2), c.q);
        }
    }
    return e;
}

template <typename T>
cudaError_t lauum_slice(const vctx &c, const bb_problem &p, const bb_dev_batch &d)
{
    const int N = p.n, L = c.L, lower = p.uplo == BblasLower;
    const int ct = vm_trans(sizeof(T) == 2 * sizeof(typename bb_real<T>::type) ? BblasConjTrans : BblasTrans);
    const int herm = sizeof(T) == 2 * sizeof(typename bb_real<T>::type) ? VT_HERM : 0;
    const double one[2] = {1, 0};
    cudaError_t e = cudaSuccess;
    for (int s = 0; s * L < N && e == cudaSuccess; s++) {
        const tri_geo g = {0, L, s}; /* from the top, both triangles */
        const bb_dev_batch h = bb_var_head(d, s * L); /* the problems of order above s L */
        const int64_t n = h.count;
        if (n <= 0) break;
        if (s > 0) {
            const int nch = chunks(c, s * L);
            e = lower ? view<T>(c, f_tri_cols{g}, h, nch) : view<T>(c, f_tri_rows{g}, h, nch);
            const bb_problem tp = tri_step(lower ? BblasLeft : BblasRight, p.uplo, BblasConjTrans, BblasNonUnit, L, L,
                                           p.lda, 1);
            if (e == cudaSuccess) e = bb_small_blas3(BB_OP_TRMM, c.prec, tp, step_batch(c, n * nch, 2), c.q);
            if (e != cudaSuccess) break;
        }
        if ((e = view<T>(c, f_tri_diag{g}, h, 1)) != cudaSuccess) break;
        bb_problem lp = bb_blank_problem();
        lp.uplo = p.uplo;
        lp.n = 32; /* one problem a warp, as trtri's */
        lp.lda = p.lda;
        if ((e = bb_small_tri(BB_OP_LAUUM, c.prec, lp, step_batch(c, n, 1), c.q)) != cudaSuccess) break;
        if ((s + 1) * L >= N) break;
        for (int dg = 0; dg < 2 && e == cudaSuccess; dg++) {
            if (!dg && s == 0) continue;
            if ((e = view<T>(c, f_lauum_upd{g, dg, lower}, h, 1)) != cudaSuccess) break;
            const int w = dg ? L : s * L;
            const int tri = dg ? (lower ? VT_LOWER : VT_UPPER) | herm : VT_ALL;
            e = vgemm<T>(c, n, lower ? ct : VM_N, lower ? VM_N : ct, one, one, tri, lower ? L : w, lower ? w : L);
        }
    }
    return e;
}

template <typename T>
cudaError_t potri_slice(const vctx &c, const bb_problem &p, const bb_dev_batch &d)
{
    bb_problem tp = p;
    tp.diag = BblasNonUnit;
    cudaError_t e = trtri_slice<T>(c, tp, d);
    return e == cudaSuccess ? lauum_slice<T>(c, p, d) : e;
}

template <typename T>
cudaError_t poti_slice(const vctx &c, const bb_problem &p, const bb_dev_batch &d)
{
    cudaError_t e = potrf_slice<T>(c, p, d);
    return e == cudaSuccess ? potri_slice<T>(c, p, d) : e;
}

/* ---- getri, getri_oop, geinv, gecond: the blocked driver's scheme
   (blocked.cu) with per-problem sizes.  getri: inv(A) = inv(U) inv(L) P^T
   is the solution X of L U X = P^T I: X starts as the permuted identity
   (bb_k_getri_prep, views.h; in place, the factors first go to workspace W, order
   p.n apart, ld n), then two trsm walks (unit lower L, then U).  A zero
   U(k,k) gives info k (the first) and leaves the problem untouched
   (LAPACK).  Row-major: the factors are transposed in place, inverted as
   column-major and transposed back with the inverse.
   geinv, gecond: A copied to workspace (A is never written), getrf there,
   getri out of place into Ainv (geinv) or workspace X (gecond, whose
   norms then take A and X: ||A|| ||inv(A)||, +Inf for a singular
   problem).  Both layouts take the same steps (the stored matrix's
   inverse is the transpose of the other layout's). */

/* the workspace of those, per slice, for a batch that needs `need` bytes
   in all: BATCHBLAS_CUDA_VAR_WORK_MB (MiB) if set; else the need, held
   between 1 GiB and an eighth of the device's free memory, at most 8 GiB.
   The slices run one after the other, each with the whole launch sequence
   over its problems (H200, session 27, uniform [1, 512], 10240 problems:
   8 GiB against 1 GiB, getri 1.17x, geinv 1.24x, gecond 1.46x, the host's
   time in the call 125 / 218 / 273 ms -> 2 / 48 / 157 ms; [1, 256]
   1.09 / 1.12 / 1.25x).  The queue keeps its workspace until it is
   destroyed. */
const size_t VAR_WORK_MIN = (size_t)1 << 30, VAR_WORK_MAX = (size_t)8 << 30;

size_t var_work(size_t need)
{
    static int mb = BB_ENV_UNREAD;
    const int x = bb_env_int("BATCHBLAS_CUDA_VAR_WORK_MB", 0, &mb);
    if (x > 0) return (size_t)x << 20;
    if (need <= VAR_WORK_MIN) return VAR_WORK_MIN;
    size_t fr = 0, tot = 0;
    size_t w = cudaMemGetInfo(&fr, &tot) == cudaSuccess ? fr / 8 : VAR_WORK_MIN;
    w = w < VAR_WORK_MIN ? VAR_WORK_MIN : w > VAR_WORK_MAX ? VAR_WORK_MAX : w;
    return w < need ? w : need;
}

/* column-major getri on d (out of place: into B) */
template <typename T>
cudaError_t getri_cm(const vctx &c, const bb_problem &p, const bb_dev_batch &d, int oop)
{
    const int N = p.n;
    const int64_t ws = (int64_t)N * N;
    T *W = oop ? NULL : (T *)c.wk[0];
    bb_k_getri_prep<T><<<bb_grid(d.count, 1), 256, (size_t)(N + 1) * sizeof(int), c.q->stream>>>(d, N, 0, 0, W, ws,
                                                                                            c.sv.vdim);
    cudaError_t e = cudaGetLastError();
    bb_dev_batch t = d;
    t.vdim = c.sv.vdim;
    if (!oop) {
        t.opd[BB_A] = bb_workspace_opd(W, ws);
        t.opd[BB_B] = d.opd[BB_A];
    }
    if (e == cudaSuccess) e = trsm_slice<T>(c, tri_step(BblasLeft, BblasLower, BblasNoTrans, BblasUnit, N, N, N, 1), t);
    if (e == cudaSuccess) e = trsm_slice<T>(c, tri_step(BblasLeft, BblasUpper, BblasNoTrans, BblasNonUnit, N, N, N, 1), t);
    return e;
}

template <typename T>
cudaError_t getri_slice(const vctx &c, const bb_problem &p, const bb_dev_batch &d, int oop)
{
    if (!p.rowmajor) return getri_cm<T>(c, p, d, oop);
    const int64_t n = d.count;
    const unsigned g = bb_grid(n, 1);
    k_flags<<<bb_grid(n, 256), 256, 0, c.q->stream>>>(d.info, c.skip, n);
    k_vtranspose<T><<<g, 256, 0, c.q->stream>>>(d, c.skip, BB_A);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) e = getri_cm<T>(c, p, d, oop);
    if (e != cudaSuccess) return e;
    /* the factors back (in place: the inverse or the untouched factors);
       out of place, the inverse where it was computed */
    k_vtranspose<T><<<g, 256, 0, c.q->stream>>>(d, c.skip, BB_A);
    if (oop) {
        k_flags<<<bb_grid(n, 256), 256, 0, c.q->stream>>>(d.info, c.skip, n);
        k_vtranspose<T><<<g, 256, 0, c.q->stream>>>(d, c.skip, BB_B);
    }
    return cudaGetLastError();
}

/* geinv, gecond: entry codes kept, A copied to LU_t (ld n), the sizes of
   the steps on the copy (ldb: Ainv's, or n for X_t) */
template <typename T>
__global__ void k_vcond_copy(const bb_dev_batch d, T *LU, int64_t ws, bb_vdim *sv, int *entry, int inv)
{
    for (int64_t t = blockIdx.x; t < d.count; t += gridDim.x) {
        const bb_vdim v = d.vdim[t];
        const int n = v.n, skip = d.info[t] != 0;
        if (threadIdx.x == 0) {
            entry[t] = d.info[t];
            bb_vdim o = v;
            o.m = skip ? 0 : n;
            o.n = skip ? 0 : n;
            o.k = o.nrhs = 0;
            o.lda = n > 0 ? n : 1;
            o.ldb = inv ? v.ldb : o.lda;
            sv[t] = o;
        }
        if (skip) continue;
        const T *A = bb_dev_ptr<T>(d.opd[BB_A], t);
        T *L = LU + t * ws;
        for (int64_t e = threadIdx.x; e < (int64_t)n * n; e += blockDim.x) L[e] = A[e % n + (e / n) * v.lda];
    }
}

template <typename T>
cudaError_t gecond_slice(const vctx &c, const bb_problem &p, const bb_dev_batch &d, int inv)
{
    const int N = p.n;
    const int64_t ws = (int64_t)N * N;
    if (!d.info) return cudaErrorInvalidValue;
    T *LU = (T *)c.wk[0], *X = (T *)c.wk[1];
    k_vcond_copy<T><<<bb_grid(d.count, 1), 256, 0, c.q->stream>>>(d, LU, ws, c.sv.vdim, c.entry, inv);
    cudaError_t e = cudaGetLastError();
    bb_dev_batch f = d;
    f.vdim = c.sv.vdim;
    f.opd[BB_A] = bb_workspace_opd(LU, ws);
    f.opd[BB_B] = inv ? d.opd[BB_B] : bb_workspace_opd(X, ws);
    f.opd[BB_IPIV] = bb_workspace_opd(c.piv, N);
    bb_problem fp = bb_blank_problem();
    fp.m = fp.n = N;
    fp.lda = fp.ldb = N;
    if (e == cudaSuccess) e = getrf_slice<T>(c, fp, f, 1);
    if (e == cudaSuccess) e = getri_cm<T>(c, fp, f, 1);
    if (e != cudaSuccess || inv) return e;
    bb_k_cond_norms<T><<<bb_grid(d.count, 1), 256, 0, c.q->stream>>>(d, c.entry, 0, 0, X, ws,
                                                                     p.norm == BblasInfNorm);
    return cudaGetLastError();
}

/* ---- gemm */

struct f_same {
    template <typename T>
    __device__ bool operator()(const bb_vdim &v, int, T *A, T *B, T *C, int *, bb_vdim &, T *&pa, T *&pb, T *&pc) const
    {
        pa = A, pb = B, pc = C;
        return v.m > 0 && v.n > 0;
    }
};

template <typename T>
cudaError_t gemm_slice(const vctx &c, const bb_problem &p, const bb_dev_batch &d)
{
    cudaError_t e = view<T>(c, f_same{}, d, 1);
    if (e == cudaSuccess) e = vgemm<T>(c, d.count, vm_trans(p.trans), vm_trans(p.transb), p.alpha, p.beta, VT_ALL, p.m, p.n);
    return e;
}

template <typename T>
cudaError_t run_T(bb_op op, const vctx &c0, const bb_problem &p, const bb_dev_batch &d)
{
    vctx c = c0;
    /* the step arrays: slots x chunks, in slices of the class */
    /* the widest free dimension a step cuts into chunks of L */
    int wmax = 1;
    switch (op) {
    case BB_OP_POTRF: case BB_OP_GETRF: case BB_OP_GETRFNP: case BB_OP_TRTRI: case BB_OP_LAUUM: case BB_OP_POTRI:
    case BB_OP_POTI: case BB_OP_GETRI: case BB_OP_GETRI_OOP: case BB_OP_GEINV: case BB_OP_GECOND: wmax = p.n; break;
    case BB_OP_TRSM: case BB_OP_TRMM: wmax = p.side == BblasLeft ? p.n : p.m; break;
    case BB_OP_GETRS: case BB_OP_POTRS: wmax = p.nrhs; break;
    case BB_OP_GESV: case BB_OP_POSV: wmax = p.n > p.nrhs ? p.n : p.nrhs; break;
    default: break;
    }
    const bool whole = op == BB_OP_GEMM || op == BB_OP_SYMM || op == BB_OP_HEMM || op == BB_OP_SYRK ||
                       op == BB_OP_HERK || op == BB_OP_SYR2K || op == BB_OP_HER2K; /* one GEMM, no chunks */
    const int64_t nch = whole ? 1 : chunks(c, wmax);
    const int per = 32 / c.L;
    int64_t slice = ((int64_t)1 << 20) / nch;
    slice = slice < per ? per : slice / per * per;
    /* per-problem workspace matrices: at most var_work's bytes a slice */
    const size_t mat = (size_t)p.n * p.n * sizeof(T);
    const int nwk = op == BB_OP_GETRI || op == BB_OP_GEINV ? 1 : op == BB_OP_GECOND ? 2 : 0;
    const bool lu = op == BB_OP_GEINV || op == BB_OP_GECOND;
    if (nwk) {
        const size_t per_p = nwk * mat + (lu ? (size_t)p.n * sizeof(int) + sizeof(int) : 0);
        int64_t lim = (int64_t)(var_work(per_p * (size_t)d.count) / per_p);
        lim = lim < per ? per : lim / per * per;
        if (slice > lim) slice = lim;
    }
    /* the trsm walks' inverted diagonal blocks (bb_cuda_dinv_min, launch.cu):
       at most BB_CUDA_DINV_BYTES a slice */
    const bool walks = op == BB_OP_TRSM || op == BB_OP_GETRF || op == BB_OP_GETRFNP || op == BB_OP_GETRS ||
                       op == BB_OP_GESV || op == BB_OP_POTRS || op == BB_OP_POSV || op == BB_OP_GETRI ||
                       op == BB_OP_GETRI_OOP || op == BB_OP_GEINV || op == BB_OP_GECOND;
    /* double: the on-chip trsm takes every leaf of alpha != 0 (c.panel) */
    int dm = walks && !(std::is_same<T, double>::value && c.panel) ? bb_cuda_dinv_min() : 0;
    const size_t dblk = (size_t)c.L * c.L * sizeof(T);
    if (dm && (dm == 1 || wmax > c.L)) { /* a leaf of one chunk a problem inverts only with 1 */
        int64_t lim = (int64_t)(BB_CUDA_DINV_BYTES / dblk);
        lim = lim < per ? per : lim / per * per;
        if (slice > lim) slice = lim;
    } else {
        dm = 0;
    }
    if (slice > d.count) slice = d.count;
    /* at least one slot's inverted blocks for the on-chip trsm's view
       (leaf_panel goes in slices of what the arrays hold) */
    const int tri = std::min(std::max(p.m, p.n), c.panel);
    const int64_t cap = std::max<int64_t>(slice * nch, (tri + c.L - 1) / c.L);
    c.wcap = cap;
    const size_t bv = (cap * sizeof(bb_vdim) + 255) / 256 * 256, bp = (cap * sizeof(void *) + 255) / 256 * 256,
                 bi = (cap * sizeof(int) + 255) / 256 * 256;
    const size_t bs = (slice * sizeof(bb_vdim) + 255) / 256 * 256, bq = (slice * sizeof(void *) + 255) / 256 * 256,
                 bk = (slice * sizeof(int) + 255) / 256 * 256;
    const size_t bw = nwk ? ((size_t)slice * mat + 255) / 256 * 256 : 0;
    const size_t bpv = lu ? ((size_t)slice * p.n * sizeof(int) + 255) / 256 * 256 : 0;
    const size_t bd = dm ? ((size_t)slice * dblk + 255) / 256 * 256 : 0;
    char *w = (char *)bb_cuda_workspace2(c.q, bv + 3 * bp + bi + bs + 3 * bq + 2 * bk + nwk * bw + bpv + (lu ? bk : 0) +
                                                  bd);
    if (!w) return cudaErrorMemoryAllocation;
    c.w.vdim = (bb_vdim *)w;
    c.w.pa = (void **)(w + bv);
    c.w.pb = (void **)(w + bv + bp);
    c.w.pc = (void **)(w + bv + 2 * bp);
    c.w.info = (int *)(w + bv + 3 * bp);
    w += bv + 3 * bp + bi;
    c.sv.vdim = (bb_vdim *)w;
    c.sv.pa = (void **)(w + bs);
    c.sv.pb = (void **)(w + bs + bq);
    c.sv.pc = (void **)(w + bs + 2 * bq);
    c.sv.info = (int *)(w + bs + 3 * bq);
    c.skip = (int *)(w + bs + 3 * bq + bk);
    w += bs + 3 * bq + 2 * bk;
    for (int i = 0; i < nwk; i++) c.wk[i] = w + i * bw;
    w += nwk * bw;
    c.piv = lu ? (int *)w : NULL;
    c.entry = lu ? (int *)(w + bpv) : NULL;
    w += bpv + (lu ? bk : 0);
    c.dinv = dm ? w : NULL;
    c.dinv_min = dm;
    for (int64_t first = 0; first < d.count; first += slice) {
        const int64_t cnt = d.count - first < slice ? d.count - first : slice;
        bb_dev_batch s = bb_slice(d, first, cnt, c.prec);
        s.vwork = d.vwork * ((double)cnt / (double)d.count); /* about: the slots are largest first */
        cudaError_t e;
        switch (op) {
        case BB_OP_POTRF: e = potrf_slice<T>(c, p, s); break;
        case BB_OP_TRSM: e = trsm_slice<T>(c, p, s); break;
        case BB_OP_GETRF: e = getrf_slice<T>(c, p, s, 1); break;
        case BB_OP_GETRFNP: e = getrf_slice<T>(c, p, s, 0); break;
        case BB_OP_GETRS: e = getrs_slice<T>(c, p, s); break;
        case BB_OP_GESV: e = gesv_slice<T>(c, p, s); break;
        case BB_OP_POTRS: e = potrs_slice<T>(c, p, s); break;
        case BB_OP_POSV: e = posv_slice<T>(c, p, s); break;
        case BB_OP_TRMM: e = trmm_slice<T>(c, p, s); break;
        case BB_OP_TRTRI: e = trtri_slice<T>(c, p, s); break;
        case BB_OP_LAUUM: e = lauum_slice<T>(c, p, s); break;
        case BB_OP_POTRI: e = potri_slice<T>(c, p, s); break;
        case BB_OP_POTI: e = poti_slice<T>(c, p, s); break;
        case BB_OP_GETRI: e = getri_slice<T>(c, p, s, 0); break;
        case BB_OP_GETRI_OOP: e = getri_slice<T>(c, p, s, 1); break;
        case BB_OP_GEINV: e = gecond_slice<T>(c, p, s, 1); break;
        case BB_OP_GECOND: e = gecond_slice<T>(c, p, s, 0); break;
        case BB_OP_GEMM: e = gemm_slice<T>(c, p, s); break;
        default: e = blas3_slice<T>(op, c, p, s); break;
        }
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

/* BATCHBLAS_CUDA_VAR_TC=0: the double GEMMs of the driver on the FP64
   units (k_vgemm) instead of the tensor cores, to compare; devices before
   sm_80 have no FP64 tensor cores */
/* BATCHBLAS_CUDA_VAR_FUSED, to compare potrf's paths (potrf_slice): 0:
   its block columns as three launches (register potrf, register trsm in
   chunks) instead of k_vpotrf_step; 1: a launch a block column
   (k_vpotrf_step, its update a k_vgemm launch); 2: the update inside
   k_vpotrf_step; 3: the whole factorisation in one launch
   (k_vpotrf_full).  Unset (or another value): 1 or 3 by potrf_full's
   rule.  *set: whether the variable chose. */
int fused_on(int *set)
{
    static int v = BB_ENV_UNREAD;
    const int x = bb_env_int("BATCHBLAS_CUDA_VAR_FUSED", -1, &v);
    *set = x >= 0 && x <= 3;
    return *set ? x : 1;
}

/* BATCHBLAS_CUDA_VAR_STEP_WARPS=1 or 4: the warps of a k_vpotrf_step
   block without the update; 0 (unset, other values): step_warps's rule */
int step_warps_on(void)
{
    static int v = BB_ENV_UNREAD;
    const int x = bb_env_int("BATCHBLAS_CUDA_VAR_STEP_WARPS", 0, &v);
    return x == 1 || x == 4 ? x : 0;
}

/* BATCHBLAS_CUDA_VAR_VG_WALK=N: k_vgemm's walk (at least 1; default VG_WALK) */
int vg_walk_on(void)
{
    static int v = BB_ENV_UNREAD;
    return std::max(1, bb_env_int("BATCHBLAS_CUDA_VAR_VG_WALK", VG_WALK, &v));
}

/* BATCHBLAS_CUDA_VAR_TC=0: the double GEMMs on the FP64 units (k_vgemm)
   instead of the tensor cores (k_vgemm_tc, on devices that have them) */
int tc_on(void)
{
    static int env = BB_ENV_UNREAD;
    return bb_env_int("BATCHBLAS_CUDA_VAR_TC", 1, &env) != 0 && bb_cuda_has_dmma();
}

} // namespace

int bb_var_driver_supports(bb_op op)
{
    switch (op) {
    case BB_OP_POTRF: case BB_OP_TRSM: case BB_OP_GEMM: case BB_OP_GETRF: case BB_OP_GETRFNP: case BB_OP_GETRS:
    case BB_OP_GESV: case BB_OP_POTRS: case BB_OP_POSV: case BB_OP_TRMM: case BB_OP_SYMM: case BB_OP_HEMM:
    case BB_OP_SYRK: case BB_OP_HERK: case BB_OP_SYR2K: case BB_OP_HER2K: case BB_OP_LANGE: case BB_OP_GECON:
    case BB_OP_TRTRI: case BB_OP_LAUUM: case BB_OP_POTRI: case BB_OP_POTI: case BB_OP_GETRI: case BB_OP_GETRI_OOP:
    case BB_OP_GEINV: case BB_OP_GECOND:
        return 1;
    default:
        return 0;
    }
}

cudaError_t bb_var_driver_launch(bb_op op, bb_prec prec, const bb_problem &p, const bb_dev_batch &d,
                                 batchblas_queue *q)
{
    if (!bb_var_driver_supports(op) || !d.vdim) return cudaErrorNotSupported;
    if (d.count <= 0) return cudaSuccess;
    /* lange, gecon: the generic kernels (a block a problem) read each
       problem's sizes themselves */
    if (op == BB_OP_LANGE || op == BB_OP_GECON) return bb_generic_launch(op, prec, p, d, q);
    vctx c;
    memset(&c, 0, sizeof c);
    c.prec = prec;
    c.q = q;
    c.L = bb_small_max(prec);
    c.tc = tc_on();
    c.panel = bb_cuda_trsm_panel_max(prec);
    c.fused = fused_on(&c.fused_set);
    c.step_warps = step_warps_on();
    c.vg_walk = vg_walk_on();
    BB_SMALL_BY_PREC(prec, run_T<T>(op, c, p, d));
}
