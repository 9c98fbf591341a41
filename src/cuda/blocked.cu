/*
 * Blocked drivers for sizes above the register-kernel bound L (32 real, 16
 * complex): trsm, potrf, potrs, posv, getrf, getrfnp, getri, getri_oop.
 * The KBLAS scheme (seed 004) in its
 * left-looking form: the register kernels (small_*.cu) work on diagonal
 * blocks of order <= L, everything else is batched GEMM (cuBLAS, or the
 * generic kernel without a handle).  Each step
 * is one launch over the whole batch on sub-matrix views: a strided operand
 * becomes base + offset, a pointer-array operand gets an element offset
 * (bb_dev_opd.off); no pointer array is rebuilt for our own kernels.
 *
 *   trsm   op(A) X = alpha B (left) or X op(A) = alpha B (right).  Double
 *          up to order 128 (bb_cuda_trsm_panel_split): on chip, whole
 *          (trsm_panel.cu).  Above, the recursion below, each range of up
 *          to 128 solved on chip (two at order 256).  Else M = op(A)
 *          is cut into diagonal blocks of order <= L (trsm_steps), walked
 *          left-looking in real types (block j updated with every solved
 *          block at once, one GEMM, then solved) and recursively in complex
 *          ones (seed 004's TRSM row: the first half of the blocks solved,
 *          the second half updated with it, B_2 = alpha B_2 - M_21 X_1,
 *          the second half solved; trsm_rec_on).  A block: the register
 *          trsm solves it, in chunks of <= L columns (left) or rows (right)
 *          of the free dimension, all chunks in one launch; or, from
 *          bb_cuda_dinv_min chunks on, the register trtri inverts the block
 *          into workspace and the register trmm multiplies the chunks by
 *          it (trsm_leaf_inv).
 *          Forward or backward order as M is lower
 *          or upper.  The inverted blocks of the trsm on chip and of
 *          those leaves in real types: one launch of k_trtri_cols
 *          (small_tri.cu) for every block of every problem.
 *   potrf  lower: for each block column j: W = A_j,<j A_j,<j^H (one batched
 *          GEMM into workspace), A_jj = chol(A_jj - W) (register potrf, which
 *          subtracts W as it loads the triangle: the other triangle of A_jj
 *          is never touched), A_>j,j -= A_>j,<j A_j,<j^H (gemm),
 *          A_>j,j = A_>j,j A_jj^-H (blocked trsm).  Upper mirrors it.
 *          Blocks of 64 in double where the Cholesky on chip runs
 *          (potrf_chip.cu, potrf_block; its trsm then on chip too), else L;
 *          the Cholesky on chip reads A_j,<j itself and subtracts its
 *          product (no W); a last block within the register bound by the
 *          register potrf.
 *          Info: a problem that fails in block j gets j's offset added; the
 *          later steps skip it (info != 0), as LAPACK stops at the failure.
 *   potrs  two blocked trsm (L then L^H, or U^H then U; right-hand storage
 *          of row-major B solves from the right); in double up to
 *          bb_cuda_potrs_panel_max (224), both on one read of B
 *          (bb_potrs_panel, trsm_panel.cu).
 *   posv   potrf, then potrs on the problems whose factorisation succeeded
 *          (the others keep B unchanged, as LAPACK).
 *   getri  X = P^T I, then the blocked trsm with L and U: inv(A) as the
 *          solution of A X = I (bb_k_getri_prep, views.h).
 *   getrf  recursive LU over panels of L columns (a register kernel), the
 *          row interchanges of a half applied to the other half at once
 *          (getrf_core below); zero pivots do not stop it (LAPACK).
 *   gecond ||A|| ||inv(A)|| on a workspace copy of A: getrf, then getri out
 *          of place, then both norms (gecond_T below); geinv the same with
 *          getri writing the caller's Ainv.
 *   With the on-chip kernels on (c.mid_on, mid.cu), a problem they take
 *   (bb_mid_max) goes whole to them: potrf, the LU inside getrf, gecond,
 *   geinv.
 *   Row-major LU-family data is transposed to column-major (workspace, or in
 *   place for the square getri) so that both layouts give the same bits.
 *
 * Problems flagged in d.info on entry (or failed on the way) are skipped by
 * every step: the register and generic kernels test info, and the GEMMs run
 * with d.masked so that cuBLAS sees a dummy matrix in their place.
 */
#include <string.h>
#include "small.h"
#include "dmma.h"
#include "generic.h"
#include "views.h"

namespace {

struct ctx {
    bb_prec prec;
    batchblas_queue *q;
    int L;     /* block order: the register-kernel bound */
    int mid_on; /* the on-chip kernels (mid.cu) take what they can (mid()) */
    size_t es; /* element bytes */
};

/* The on-chip kernels' bound for op (0: off): problems up to it go whole
   to them. */
int mid(const ctx &c, bb_op op) { return c.mid_on ? bb_mid_max(op, c.prec) : 0; }

/* Workspace regions start on 256-byte boundaries. */
size_t round256(size_t x) { return (x + 255) / 256 * 256; }

/* The shared views (views.h) in this driver's context. */
bb_dev_opd view(const ctx &c, const bb_dev_opd &o, int64_t off) { return bb_view(o, off, c.es); }
bb_dev_opd workspace_opd(void *w, int64_t stride) { return bb_workspace_opd(w, stride); }
bb_problem blank(void) { return bb_blank_problem(); }

/* C = alpha op(A) op(B) + beta C on views; alpha real. */
cudaError_t gemm(const ctx &c, const bb_dev_batch &d, const bb_dev_opd &A, int ta, int64_t lda, const bb_dev_opd &B,
                 int tb, int64_t ldb, const bb_dev_opd &C, int64_t ldc, int m, int n, int k, double alpha,
                 const double beta[2])
{
    const double a[2] = {alpha, 0};
    return bb_gemm_views(c.prec, c.q, d, A, ta, lda, B, tb, ldb, C, ldc, m, n, k, a, beta);
}

/* A leaf of the blocked trsm by its inverted diagonal block
   (bb_cuda_dinv_min): lp, ld as for the register trsm (the block of order
   bt at ld's A, its rows or columns of B at ld's B); the block inverted
   out of place into workspace (register trtri), then B's part multiplied
   by it (register trmm, alpha), in slices of BB_CUDA_DINV_BYTES (bb_cuda_workspace3). */
cudaError_t trsm_leaf_inv(const ctx &c, const bb_problem &lp, const bb_dev_batch &ld, int bt)
{
    const int L = c.L;
    const size_t blk = (size_t)L * L * c.es;
    int64_t chunk = (int64_t)(BB_CUDA_DINV_BYTES / blk);
    if (chunk > ld.count) chunk = ld.count;
    void *W = bb_cuda_workspace3(c.q, (size_t)chunk * blk);
    if (!W) return cudaErrorMemoryAllocation;
    bb_problem mp = lp;
    mp.lda = L;
    for (int64_t first = 0; first < ld.count; first += chunk) {
        const int64_t cnt = ld.count - first < chunk ? ld.count - first : chunk;
        const bb_dev_batch s = bb_slice(ld, first, cnt, c.prec);
        bb_dev_batch m = s;
        m.opd[BB_A] = workspace_opd(W, (int64_t)L * L); /* inv(A's block) */
        cudaError_t e = bb_small_trtri_blocks(c.prec, lp, s, bt, L, W, (int64_t)L * L, c.q);
        if (e == cudaSuccess) e = bb_small_blas3(BB_OP_TRMM, c.prec, mp, m, c.q);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

/* The blocked trsm's steps on the blocks of L of M = op(A), numbered in
   the order of the solve (s = 0 first: the top block when the walk goes
   forward, the bottom one backward). */
struct trsm_steps {
    const ctx &c;
    const bb_problem &p;
    const bb_dev_batch &d;
    bool left, tr, forward, alpha_zero, inv;
    int t, f, nb;
    int panel; /* the on-chip trsm takes a range of up to this order (0: none) */

    /* the rows (left) or columns (right) of B of the blocks [s0, s1) */
    void rows(int s0, int s1, int &r0, int &r1) const
    {
        const int L = c.L;
        r0 = forward ? s0 * L : (nb - s1) * L;
        r1 = forward ? s1 * L : (nb - s0) * L;
        if (r1 > t) r1 = t;
    }
    /* the blocks [x0, x1) of B, scaled by alpha already or not, less the
       product of M's part beside them and the solved blocks [y0, y1) */
    cudaError_t update(int x0, int x1, int y0, int y1, bool scaled) const
    {
        int r0, r1, s0, s1;
        rows(x0, x1, r0, r1);
        rows(y0, y1, s0, s1);
        const double one[2] = {1, 0};
        const double *beta = scaled ? one : p.alpha;
        const bb_dev_opd &A = d.opd[BB_A], &B = d.opd[BB_B];
        if (left) { /* B_x = beta B_x - M(r0:r1, s0:s1) X(s0:s1, :) */
            const int64_t moff = tr ? s0 + r0 * p.lda : r0 + s0 * p.lda;
            return gemm(c, d, view(c, A, moff), tr ? p.trans : BblasNoTrans, p.lda, view(c, B, s0), BblasNoTrans,
                        p.ldb, view(c, B, r0), p.ldb, r1 - r0, f, s1 - s0, -1.0, beta);
        }
        /* B_x = beta B_x - X(:, s0:s1) M(s0:s1, r0:r1) */
        const int64_t moff = tr ? r0 + s0 * p.lda : s0 + r0 * p.lda;
        return gemm(c, d, view(c, B, s0 * p.ldb), BblasNoTrans, p.ldb, view(c, A, moff), tr ? p.trans : BblasNoTrans,
                    p.lda, view(c, B, r0 * p.ldb), p.ldb, f, r1 - r0, s1 - s0, -1.0, beta);
    }
    /* block s solved in place, in chunks of L of the free dimension (one
       launch; or by its inverse, trsm_leaf_inv) */
    cudaError_t leaf(int s, bool scaled) const
    {
        int r0, r1;
        rows(s, s + 1, r0, r1);
        const int bt = r1 - r0;
        bb_problem lp;
        bb_dev_batch ld;
        part(r0, r1, scaled, lp, ld);
        return inv ? trsm_leaf_inv(c, lp, ld, bt) : bb_small_trsm_chunked(c.prec, lp, ld, c.q, c.L);
    }
    /* the problem of rows (left) or columns (right) [r0, r1): its diagonal
       block of M and its part of B */
    void part(int r0, int r1, bool scaled, bb_problem &lp, bb_dev_batch &ld) const
    {
        lp = p;
        if (scaled) lp.alpha[0] = 1, lp.alpha[1] = 0;
        lp.m = left ? r1 - r0 : f;
        lp.n = left ? f : r1 - r0;
        ld = d;
        ld.opd[BB_A] = view(c, d.opd[BB_A], r0 + r0 * p.lda);
        ld.opd[BB_B] = view(c, d.opd[BB_B], left ? r0 : r0 * p.ldb);
    }
    /* seed 004's TRSM row: solve the first half of [s0, s1), update the
       second with it (one GEMM), solve the second half */
    cudaError_t run(int s0, int s1, bool scaled) const
    {
        int r0, r1;
        rows(s0, s1, r0, r1);
        if (panel && r1 - r0 <= panel) { /* on chip (trsm_panel.cu) */
            bb_problem lp;
            bb_dev_batch ld;
            part(r0, r1, scaled, lp, ld);
            const cudaError_t e = bb_trsm_panel(c.prec, lp, ld, c.q);
            if (e != cudaErrorNotSupported) return e;
        }
        if (s1 - s0 == 1) return leaf(s0, scaled);
        const int mid = s0 + (s1 - s0 + 1) / 2;
        cudaError_t e = run(s0, mid, scaled);
        if (e == cudaSuccess && !alpha_zero) e = update(mid, s1, s0, mid, scaled);
        return e != cudaSuccess ? e : run(mid, s1, scaled || !alpha_zero);
    }
};

/* The blocked trsm recursive (trsm_steps::run) or left-looking (each
   block updated by all the solved ones at once, then solved): recursive
   for the complex types, whose blocks are half as wide (L = 16: twice the
   blocks, and the left-looking GEMMs reread the solved rows once a
   block).  Measured on the H200, session 35 (10240 problems, recursive
   against left-looking): z trsm n = 64 / 128 / 256 1.03 / 1.07 / 1.21x;
   d 0.97-1.03 / 0.96 / 0.98x, d potrs 128 0.95x; s 1.00 / 0.98 / 0.96x.
   BATCHBLAS_CUDA_TRSM_REC=1 or 0 forces one way, to compare. */
bool trsm_rec_on(bb_prec prec)
{
    static int v = BB_ENV_UNREAD;
    const int x = bb_env_int("BATCHBLAS_CUDA_TRSM_REC", -1, &v);
    return x < 0 ? prec == BB_P_C || prec == BB_P_Z : x != 0;
}

cudaError_t trsm(const ctx &c, const bb_problem &p, const bb_dev_batch &d)
{
    const bool left = p.side == BblasLeft;
    const int t = left ? p.m : p.n; /* order of the triangle */
    const int f = left ? p.n : p.m; /* free dimension */
    if (t <= 0 || f <= 0) return cudaSuccess;
    const bool alpha_zero = p.alpha[0] == 0 && p.alpha[1] == 0;
    const bool tr = p.trans != BblasNoTrans;
    const bool mlower = (p.uplo == BblasLower) != tr; /* M = op(A) lower */
    const int L = c.L, nb = (t + L - 1) / L, dmin = bb_cuda_dinv_min();
    /* on chip whole up to bb_cuda_trsm_panel_split (trsm_panel.cu), and
       above it the recursion's ranges that fit (two of 128 at t = 256) */
    const int panel = !alpha_zero ? bb_cuda_trsm_panel_split(c.prec) : 0;
    const trsm_steps w = {c,  p, d, left, tr, left ? mlower : !mlower, alpha_zero,
                          !alpha_zero && dmin > 0 && (f + L - 1) / L >= dmin, /* the leaves by inverted blocks */
                          t,  f, nb, panel};
    if (panel || trsm_rec_on(c.prec)) return w.run(0, nb, false);
    for (int s = 0; s < nb; s++) {
        cudaError_t e = s > 0 && !alpha_zero ? w.update(s, s + 1, 0, s, false) : cudaSuccess;
        if (e == cudaSuccess) e = w.leaf(s, s > 0 && !alpha_zero);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

/* Codes of problems that failed in earlier blocks are hidden (made
   negative, below every argument code) while a block's register potrf runs,
   so that the kernel skips them and only new failures are positive; those
   get the block's offset when the old codes are restored. */
const int HIDE = 1 << 29;

__global__ void k_info_hide(int *info, int64_t n)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        if (info[i] > 0) info[i] = -info[i] - HIDE;
}

__global__ void k_info_show(int *info, int64_t n, int off)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        const int v = info[i];
        if (v > 0) info[i] = v + off;
        else if (v < -HIDE) info[i] = -(v + HIDE);
    }
}

cudaError_t info_pass(const ctx &c, const bb_dev_batch &d, int show, int off)
{
    if (!d.info) return cudaSuccess;
    const unsigned g = bb_grid(d.count, 256);
    if (show) k_info_show<<<g, 256, 0, c.q->stream>>>(d.info, d.count, off);
    else k_info_hide<<<g, 256, 0, c.q->stream>>>(d.info, d.count);
    return cudaGetLastError();
}

/* Workspace bound of the potrf driver's diagonal-block products. */
const size_t POTRF_WORK = (size_t)1 << 30;

bb_dev_batch slice(const ctx &c, const bb_dev_batch &d, int64_t first, int64_t cnt);

/* potrf's diagonal blocks: of the order of the Cholesky on chip
   (potrf_chip.cu) where it runs, else of the register kernel's L. */
int potrf_block(const ctx &c)
{
    const int x = bb_cuda_chip_max(BB_OP_POTRF, c.prec);
    return x > c.L ? x : c.L;
}

/* One slice of problems; W: workspace of d.count blocks of
   potrf_block x potrf_block. */
cudaError_t potrf_core(const ctx &c, const bb_problem &p, bb_dev_batch d, void *W)
{
    const int n = p.n, L = potrf_block(c);
    const bool upper = p.uplo == BblasUpper;
    const int64_t lda = p.lda;
    const bb_dev_opd A = d.opd[BB_A];
    const double one[2] = {1, 0}, zero[2] = {0, 0};
    d.masked = 1;
    for (int c0 = 0; c0 < n; c0 += L) {
        const int c1 = c0 + L < n ? c0 + L : n, bt = c1 - c0;
        cudaError_t e = cudaSuccess;
        bb_problem lp = blank();
        lp.uplo = p.uplo;
        lp.n = bt;
        lp.lda = lda;
        bb_dev_batch ld = d;
        ld.opd[BB_A] = view(c, A, c0 + c0 * lda);
        const bool chip = bt > c.L;
        if (c0 > 0 && chip) {
            /* the Cholesky on chip takes A_j,<j (lower) or A_<j,j (upper)
               itself and subtracts its product before it factors (H200,
               session 48, d, 10240 problems: potrf 128 1.33 ms against 1.38
               with W from cuBLAS; 256 6.25 against 6.24) */
            lp.k = c0;
            ld.opd[BB_C] = view(c, A, upper ? c0 * lda : c0);
            e = info_pass(c, d, 0, 0);
            if (e != cudaSuccess) return e;
        } else if (c0 > 0) {
            /* W = A_j,<j A_j,<j^H (lower) or A_<j,j^H A_<j,j (upper), one
               batched GEMM (ld bt); the register potrf subtracts W's lower
               view as it loads the block, so the other triangle of A_jj is
               never written */
            const bb_dev_opd wo = workspace_opd(W, (int64_t)L * L);
            if (upper)
                e = gemm(c, d, view(c, A, c0 * lda), BblasConjTrans, lda, view(c, A, c0 * lda), BblasNoTrans, lda,
                         wo, bt, bt, bt, c0, 1.0, zero);
            else
                e = gemm(c, d, view(c, A, c0), BblasNoTrans, lda, view(c, A, c0), BblasConjTrans, lda, wo, bt, bt,
                         bt, c0, 1.0, zero);
            if (e == cudaSuccess) e = info_pass(c, d, 0, 0);
            if (e != cudaSuccess) return e;
            ld.opd[BB_C] = wo;
        }
        /* the Cholesky on chip for a block above the register bound, the
           register kernel for one within it (the last block of an order
           just above a multiple of L) */
        e = chip ? bb_potrf_chip(c.prec, lp, ld, c.q) : bb_small_potrf(c.prec, lp, ld, c.q);
        if (e == cudaSuccess && c0 > 0) e = info_pass(c, d, 1, c0);
        if (e != cudaSuccess || c1 == n) return e;
        /* the panel beside the block: update with the finished part, then solve */
        const int r = n - c1;
        if (c0 > 0) {
            if (upper) /* A_j,>j -= A_<j,j^H A_<j,>j */
                e = gemm(c, d, view(c, A, c0 * lda), BblasConjTrans, lda, view(c, A, c1 * lda), BblasNoTrans, lda,
                         view(c, A, c0 + c1 * lda), lda, bt, r, c0, -1.0, one);
            else /* A_>j,j -= A_>j,<j A_j,<j^H */
                e = gemm(c, d, view(c, A, c1), BblasNoTrans, lda, view(c, A, c0), BblasConjTrans, lda,
                         view(c, A, c1 + c0 * lda), lda, r, bt, c0, -1.0, one);
            if (e != cudaSuccess) return e;
        }
        const bb_problem tp = bb_tri_problem(upper ? BblasLeft : BblasRight, p.uplo, BblasConjTrans, BblasNonUnit,
                                             upper ? bt : r, upper ? r : bt, lda, lda, 1);
        bb_dev_batch td = d;
        td.opd[BB_A] = view(c, A, c0 + c0 * lda);
        td.opd[BB_B] = view(c, A, upper ? c0 + c1 * lda : c1 + c0 * lda);
        e = trsm(c, tp, td);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

cudaError_t potrf(const ctx &c, const bb_problem &p, const bb_dev_batch &d)
{
    if (p.n <= mid(c, BB_OP_POTRF)) return bb_mid_potrf(c.prec, p, d, c.q);
    const int L = potrf_block(c);
    if (p.n <= L) return potrf_core(c, p, d, NULL);
    const size_t blk = (size_t)L * L * c.es;
    int64_t chunk = (int64_t)(POTRF_WORK / blk);
    if (chunk > d.count) chunk = d.count;
    void *W = bb_cuda_workspace2(c.q, (size_t)chunk * blk);
    if (!W) return cudaErrorMemoryAllocation;
    for (int64_t first = 0; first < d.count; first += chunk) {
        const int64_t cnt = d.count - first < chunk ? d.count - first : chunk;
        cudaError_t e = potrf_core(c, p, slice(c, d, first, cnt), W);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

/* A X = B with A = L L^H (lower) or U^H U (upper); rhs_right: X A = B. */
cudaError_t potrs(const ctx &c, const bb_problem &p, const bb_dev_batch &d)
{
    if (p.n <= 0 || p.nrhs <= 0) return cudaSuccess;
    /* the solve on chip (getrf_chip.cu) where the order fits it: one
       launch, any number of right-hand sides */
    if (p.n <= bb_cuda_chip_max(BB_OP_POTRS, c.prec)) return bb_potrs_chip(c.prec, p, d, c.q);
    const bool upper = p.uplo == BblasUpper, right = p.rhs_right != 0;
    /* first solve: the factor met first from the side of B; then the
       other */
    const bool conj_first = upper != right;
    bb_problem tp[2];
    tp[0] = bb_tri_problem(right ? BblasRight : BblasLeft, p.uplo, conj_first ? BblasConjTrans : BblasNoTrans,
                           BblasNonUnit, right ? p.nrhs : p.n, right ? p.n : p.nrhs, p.lda, p.ldb, 1);
    tp[1] = tp[0];
    tp[1].trans = conj_first ? BblasNoTrans : BblasConjTrans;
    /* both on one read of B (trsm_panel.cu) where the order fits */
    cudaError_t e = bb_potrs_panel(c.prec, tp, d, c.q);
    if (e != cudaErrorNotSupported) return e;
    e = trsm(c, tp[0], d);
    return e != cudaSuccess ? e : trsm(c, tp[1], d);
}

/* getrf / getrfnp, column-major: the recursive LU (seed 004's recursion,
   Toledo's LU) over the column blocks, or LAPACK's right-looking order
   (BATCHBLAS_CUDA_LU_RECURSIVE=0, to compare).  Both are made of two steps:
     panel (lu_panel): the register panel kernel (bb_panel_getrf; the
        generic getrf kernel for panels of more than 512 rows) factors the
        (m - j) x jb panel at column j (pivots and code relative to row j:
        k_lu_merge makes them global) and applies its interchanges to every
        other column of the matrix (the generic kernel: k_laswp after it);
     update (lu_update): the rows j..j+jb of columns [c0, c1) become
        L11^-1 A(j:j+jb, c0:c1) (blocked trsm, unit lower), then the rows
        below lose A(j+jb:m, j:j+jb) A(j:j+jb, c0:c1) (one GEMM, k = jb).
   Right-looking: a panel of L columns, then the update of every column to
   its right, for each panel: the trailing matrix is read and written once
   per panel (k = L).  Recursive: columns [j, j + w) are split w = w1 + w2
   (w1 the largest power of two below w); the left half recursively, then
   the update of the right half by the left (k = w1), then the right half
   recursively.  Same panels, the same interchanges (applying a panel's
   interchanges to columns not yet updated commutes with nothing pending on
   them), fewer and larger GEMMs: at n = 256 the GEMMs read and write about
   a third of the right-looking order's trailing-matrix elements.
   Deferred interchanges (lu_perm, where bb_lu_deferred says, small.h): the panel
   swaps only its own columns; the left half's interchanges reach the
   right half at once before its update (bb_lu_perm, small_lu.cu: a row that moves is
   read and written once, whole sectors), and the right half's reach the
   left half at the end.  In column-major storage a panel's own swaps touch
   one 32-byte sector per element of every other column (H200, getrf d 256:
   33 of the panels' 39 GB); deferred, 18 GB in all.
   Panels on chip (double, where bb_cuda_lu_panel_chip_rows, launch.cu,
   says; session 44): the walk's leaves are 64 columns wide, and a leaf
   of at most that many rows is factored by the LU on chip
   (bb_lu_panel_chip: the panel read once into shared memory, its 64
   steps there, written once), every interchange deferred; a taller leaf
   walks on over register panels of L columns.  At n = 128: one 128 x 64
   panel on chip, one trsm and GEMM of 64, one 64 x 64 panel on chip, and
   two permutations, where the register panels took four panels, three
   trsm and three GEMMs.
   A wide matrix's columns past min(m, n) get one last update.
   As LAPACK, a zero pivot does not stop the factorisation: the steps skip
   only the problems flagged with argument errors (negative codes, kept in
   the workspace array t), and info gets the first zero pivot. */
__global__ void k_lu_flags(const int *info, int *t, int64_t n)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        t[i] = info[i] < 0 ? info[i] : 0;
}

__global__ void k_lu_merge(const bb_dev_batch d, int *t, int j, int jb)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < d.count; i += (int64_t)gridDim.x * blockDim.x) {
        const int v = t[i];
        if (v < 0) continue;
        if (v > 0) {
            if (d.info[i] == 0) d.info[i] = v + j;
            t[i] = 0;
        }
        if (d.opd[BB_IPIV].ptr || d.opd[BB_IPIV].base) {
            int *ip = bb_dev_ptr<int>(d.opd[BB_IPIV], i) + j;
            for (int k = 0; k < jb; k++) ip[k] += j;
        }
    }
}

/* Row interchanges j..j+jb-1 (global pivots) on the columns outside
   [j, j+jb), column-major.  A block per problem. */
template <typename T>
__global__ void k_laswp(const bb_dev_batch d, const int *t, int n, int j, int jb, int64_t lda)
{
    for (int64_t i = blockIdx.x; i < d.count; i += gridDim.x) {
        if (t[i] < 0) continue;
        T *A = bb_dev_ptr<T>(d.opd[BB_A], i);
        const int *ip = bb_dev_ptr<int>(d.opd[BB_IPIV], i);
        for (int c = threadIdx.x; c < n - jb; c += blockDim.x) {
            const int col = c < j ? c : c + jb;
            for (int k = j; k < j + jb; k++) {
                const int p = ip[k] - 1;
                if (p == k) continue;
                T *x = A + k + col * lda, *y = A + p + col * lda;
                const T tmp = *x;
                *x = *y;
                *y = tmp;
            }
        }
    }
}

/* One LU's state: the problem, the batch (d: info and ipiv as the caller's;
   s: the steps' view, info = the codes t, GEMMs masked). */
struct lu_run {
    const ctx &c;
    const bb_problem &p;
    const bb_dev_batch &d;
    bb_dev_batch s;
    int pivot;
    int *t;
    bool defer; /* interchanges on the other columns by lu_perm, not by the panel */
    int chip;   /* panels of up to this many rows (and CHIP_T columns) on chip; 0: none */
    /* the leaf at column j goes on chip (its interchanges deferred: chip is set only so) */
    bool chip_leaf(int j) const { return chip && p.m - j <= chip; }
};

/* The panel of columns [j, j + jb), jb <= L, rows j..m. */
template <typename T>
cudaError_t lu_panel(const lu_run &r, int j, int jb)
{
    const ctx &c = r.c;
    const int64_t lda = r.p.lda;
    bb_problem pp = r.p;
    pp.m = r.p.m - j;
    pp.n = jb;
    bb_dev_batch pd = r.s;
    pd.opd[BB_A] = view(c, r.d.opd[BB_A], j + j * lda);
    if (r.pivot) {
        pd.opd[BB_IPIV] = r.d.opd[BB_IPIV];
        if (pd.opd[BB_IPIV].ptr) pd.opd[BB_IPIV].off += j;
        else pd.opd[BB_IPIV].base += (size_t)j * sizeof(int);
    }
    /* the register panel applies the interchanges to the other columns
       itself; the panel on chip (r.chip: only where they are deferred)
       and the generic kernel (panels too tall for the others) do not */
    bool swapped = true;
    cudaError_t e = cudaErrorNotSupported;
    if (r.chip_leaf(j)) e = bb_lu_panel_chip(c.prec, pp, pd, c.q, r.pivot);
    if (e == cudaErrorNotSupported)
        e = r.defer ? bb_panel_getrf(c.prec, pp, pd, c.q, r.pivot, jb, 0)
                    : bb_panel_getrf(c.prec, pp, pd, c.q, r.pivot, r.p.n, j);
    if (e == cudaErrorNotSupported) {
        swapped = false;
        e = bb_generic_launch(r.pivot ? BB_OP_GETRF : BB_OP_GETRFNP, c.prec, pp, pd, c.q);
    }
    if (e != cudaSuccess) return e;
    bb_dev_batch md = r.d;
    if (!r.pivot) md.opd[BB_IPIV].ptr = NULL, md.opd[BB_IPIV].base = NULL;
    k_lu_merge<<<bb_grid(r.d.count, 256), 256, 0, c.q->stream>>>(md, r.t, j, jb);
    if ((e = cudaGetLastError()) != cudaSuccess) return e;
    if (r.pivot && r.p.n > jb && !swapped && !r.defer) {
        k_laswp<T><<<bb_grid(r.d.count, 1), 128, 0, c.q->stream>>>(r.s, r.t, r.p.n, j, jb, lda);
        e = cudaGetLastError();
    }
    return e;
}

/* The columns [c0, c1) by the factored columns [j, j + jb) (rows j.. of
   those columns final). */
cudaError_t lu_update(const lu_run &r, int j, int jb, int c0, int c1)
{
    const ctx &c = r.c;
    const int64_t lda = r.p.lda;
    const int q = c1 - c0, rows = r.p.m - j - jb;
    if (q <= 0 || jb <= 0) return cudaSuccess;
    const bb_problem tp = bb_tri_problem(BblasLeft, BblasLower, BblasNoTrans, BblasUnit, jb, q, lda, lda, 1);
    bb_dev_batch td = r.s;
    const bb_dev_opd A = r.d.opd[BB_A];
    td.opd[BB_A] = view(c, A, j + j * lda);
    td.opd[BB_B] = view(c, A, j + c0 * lda);
    cudaError_t e = trsm(c, tp, td);
    if (e != cudaSuccess || rows <= 0) return e;
    const double one[2] = {1, 0};
    return gemm(c, r.s, view(c, A, (j + jb) + j * lda), BblasNoTrans, lda, view(c, A, j + c0 * lda), BblasNoTrans,
                lda, view(c, A, (j + jb) + c0 * lda), lda, rows, q, jb, -1.0, one);
}

/* The interchanges of rows j..j+w-1 on the columns [c0, c1) (deferred). */
template <typename T>
cudaError_t lu_perm(const lu_run &r, int j, int w, int c0, int c1)
{
    if (!r.defer || c1 <= c0 || w <= 0) return cudaSuccess;
    bb_dev_batch pd = r.s;
    pd.opd[BB_IPIV] = r.d.opd[BB_IPIV];
    return bb_lu_perm(r.c.prec, pd, r.t, r.p.m, j, w, c0, c1, r.p.lda, 0, r.c.q);
}

/* The steps of bb_lu_walk (small.h) on this LU.  With panels on chip the
   walk's leaves are CHIP_T columns wide; a leaf taller than the chip's
   panel walks on in register panels of c.L columns. */
template <typename T>
struct lu_steps {
    const lu_run &r;
    cudaError_t panel(int j, int w) const
    {
        if (w > r.c.L && !r.chip_leaf(j)) return bb_lu_walk(*this, r.c.L, j, w);
        return lu_panel<T>(r, j, w);
    }
    cudaError_t perm(int j, int w, int c0, int c1) const { return lu_perm<T>(r, j, w, c0, c1); }
    cudaError_t update(int j, int w1, int c1) const { return lu_update(r, j, w1, j + w1, c1); }
};

/* t: workspace for d.count codes */
template <typename T>
cudaError_t getrf_core(const ctx &c, const bb_problem &p, const bb_dev_batch &d, int pivot, int *t)
{
    const int m = p.m, n = p.n, mn = m < n ? m : n, L = c.L;
    if (!d.info) return cudaErrorInvalidValue;
    if (m <= mid(c, BB_OP_GETRF) && n <= mid(c, BB_OP_GETRF)) return bb_mid_getrf(c.prec, p, d, c.q, pivot);
    k_lu_flags<<<bb_grid(d.count, 256), 256, 0, c.q->stream>>>(d.info, t, d.count);
    cudaError_t e = cudaGetLastError();
    lu_run r = {c, p, d, d, pivot, t, false, 0};
    r.s.info = t; /* the steps skip only argument errors */
    r.s.masked = 1;
    if (e != cudaSuccess) return e;
    const int mode = bb_lu_rec_mode();
    /* the recursive walk: over leaves of CHIP_T columns with panels on
       chip (bb_cuda_lu_panel_chip_rows, launch.cu; every interchange
       deferred), else over register panels of L where bb_lu_recursive
       says */
    const int chip = mode == 1 && (!pivot || m <= BB_LU_PERM_ROWS) ? bb_cuda_lu_panel_chip_rows(c.prec) : 0;
    int leaf = 0;
    if (chip && (mn > CHIP_T || m <= chip)) {
        r.chip = chip;
        r.defer = pivot != 0;
        leaf = CHIP_T;
    } else if (bb_lu_recursive(mode, mn, L)) {
        r.defer = bb_lu_deferred(mode, pivot, m, mn, L);
        leaf = L;
    }
    if (leaf) {
        e = bb_lu_walk(lu_steps<T>{r}, leaf, 0, mn);
        if (e == cudaSuccess) e = lu_perm<T>(r, 0, mn, mn, n);
        return e == cudaSuccess ? lu_update(r, 0, mn, mn, n) : e;
    }
    for (int j = 0; j < mn && e == cudaSuccess; j += L) {
        const int jb = mn - j < L ? mn - j : L;
        e = lu_panel<T>(r, j, jb);
        if (e == cudaSuccess) e = lu_update(r, j, jb, j + jb, n);
    }
    return e;
}

/* Layouts.  The arithmetic of the steps above depends on the layout (the
   GEMMs run on transposed shapes), so row-major data is transposed into
   column-major workspace (in chunks of at most LU_WORK bytes), factored
   there and transposed back: both layouts give the same bits, as on the
   CPU.  Problems with an argument error (info < 0) are neither read nor
   written. */
const size_t LU_WORK = (size_t)1 << 30;

template <typename T>
__global__ void k_rm_to_cm(const bb_dev_batch d, int m, int n, int64_t lda, T *W, int out)
{
    for (int64_t i = blockIdx.x; i < d.count; i += gridDim.x) {
        if (d.info && d.info[i] < 0) continue;
        T *A = bb_dev_ptr<T>(d.opd[BB_A], i), *Wi = W + (size_t)i * m * n;
        for (int64_t e = threadIdx.x; e < (int64_t)m * n; e += blockDim.x) {
            const int64_t r = e % m, col = e / m; /* W(r, col), ld m */
            if (out) A[r * lda + col] = Wi[e];
            else Wi[e] = A[r * lda + col];
        }
    }
}

/* In-place transposition of square n x n matrices (ld): a block per problem;
   skip: problems with info < 0, and also info > 0 when skip_failed. */
template <typename T>
__global__ void k_transpose_sq(const bb_dev_batch d, int o, int n, int64_t ld, int skip_failed)
{
    for (int64_t i = blockIdx.x; i < d.count; i += gridDim.x) {
        if (d.info && (d.info[i] < 0 || (skip_failed && d.info[i] > 0))) continue;
        T *A = bb_dev_ptr<T>(d.opd[o], i);
        for (int64_t e = threadIdx.x; e < (int64_t)n * n; e += blockDim.x) {
            const int64_t r = e % n, col = e / n;
            if (r < col) {
                const T x = A[r + col * ld];
                A[r + col * ld] = A[col + r * ld];
                A[col + r * ld] = x;
            }
        }
    }
}

/* The problems [first, first + cnt) of d. */
bb_dev_batch slice(const ctx &c, const bb_dev_batch &d, int64_t first, int64_t cnt)
{
    return bb_slice(d, first, cnt, c.prec);
}

template <typename T>
cudaError_t getrf_T(const ctx &c, const bb_problem &p, const bb_dev_batch &d, int pivot)
{
    const size_t codes = round256((size_t)d.count * sizeof(int));
    if (p.m <= mid(c, BB_OP_GETRF) && p.n <= mid(c, BB_OP_GETRF)) /* either layout */
        return bb_mid_getrf(c.prec, p, d, c.q, pivot);
    if (!p.rowmajor) {
        int *t = (int *)bb_cuda_workspace2(c.q, codes);
        return t ? getrf_core<T>(c, p, d, pivot, t) : cudaErrorMemoryAllocation;
    }
    const size_t mat = (size_t)p.m * p.n * sizeof(T);
    int64_t chunk = (int64_t)(LU_WORK / mat);
    if (chunk < 1) chunk = 1;
    if (chunk > d.count) chunk = d.count;
    char *w = (char *)bb_cuda_workspace2(c.q, codes + (size_t)chunk * mat);
    if (!w) return cudaErrorMemoryAllocation;
    int *t = (int *)w;
    T *W = (T *)(w + codes);
    bb_problem cp = p;
    cp.rowmajor = 0;
    cp.lda = p.m;
    for (int64_t first = 0; first < d.count; first += chunk) {
        const int64_t cnt = d.count - first < chunk ? d.count - first : chunk;
        const bb_dev_batch s = slice(c, d, first, cnt);
        const unsigned g = bb_grid(cnt, 1);
        k_rm_to_cm<T><<<g, 256, 0, c.q->stream>>>(s, p.m, p.n, p.lda, W, 0);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) return e;
        bb_dev_batch ws = s;
        ws.opd[BB_A] = workspace_opd(W, (int64_t)p.m * p.n);
        if ((e = getrf_core<T>(c, cp, ws, pivot, t)) != cudaSuccess) return e;
        k_rm_to_cm<T><<<g, 256, 0, c.q->stream>>>(s, p.m, p.n, p.lda, W, 1);
        if ((e = cudaGetLastError()) != cudaSuccess) return e;
    }
    return cudaSuccess;
}

cudaError_t getrf(const ctx &c, const bb_problem &p, const bb_dev_batch &d, int pivot)
{
    BB_SMALL_BY_PREC(c.prec, (getrf_T<T>(c, p, d, pivot)));
}

/* getri (in place) / getri_oop, column-major: inv(A) = inv(U) inv(L) P^T
   is the solution X of L U X = P^T I, so X starts as the permuted identity
   and two blocked trsm (unit lower L, then U) finish it.  bb_k_getri_prep
   (views.h), one block per problem: U(k,k) == 0 gives info = k (first such k) and leaves
   the problem untouched, as LAPACK; otherwise (in place) the factors are
   copied to workspace W (ld n) and X = P^T I is written.  In place, the
   batch goes in chunks so that W stays below GETRI_WORK bytes. */
const size_t GETRI_WORK = (size_t)1 << 30;
const int GETRI_MAX_N = 8192; /* perm[] in shared memory */

template <typename T>
cudaError_t getri_T(const ctx &c, const bb_problem &p, const bb_dev_batch &d, int oop)
{
    const int n = p.n;
    const size_t mat = (size_t)n * n * sizeof(T);
    int64_t chunk = oop ? d.count : (int64_t)(GETRI_WORK / mat);
    if (chunk < 1) chunk = 1;
    if (chunk > d.count) chunk = d.count;
    T *W = NULL;
    if (!oop) {
        W = (T *)bb_cuda_workspace2(c.q, (size_t)chunk * mat);
        if (!W) return cudaErrorMemoryAllocation;
    }
    const int64_t ldx = oop ? p.ldb : p.lda;
    for (int64_t first = 0; first < d.count; first += chunk) {
        const int64_t cnt = d.count - first < chunk ? d.count - first : chunk;
        bb_dev_batch s = slice(c, d, first, cnt);
        s.masked = 1;
        bb_k_getri_prep<T><<<bb_grid(cnt, 1), 256, (size_t)(n + 1) * sizeof(int), c.q->stream>>>(
            s, n, p.lda, ldx, W, (int64_t)n * n, NULL);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) return e;
        /* L U X = X: the triangles from W (ld n, stride n^2) or A itself */
        bb_dev_batch t = s;
        int64_t ldf = p.lda;
        if (W) {
            t.opd[BB_A] = workspace_opd(W, (int64_t)n * n);
            ldf = n;
        }
        t.opd[BB_B] = oop ? s.opd[BB_B] : s.opd[BB_A];
        bb_problem tp = bb_tri_problem(BblasLeft, BblasLower, BblasNoTrans, BblasUnit, n, n, ldf, ldx, 1);
        if ((e = trsm(c, tp, t)) != cudaSuccess) return e;
        tp.uplo = BblasUpper;
        tp.diag = BblasNonUnit;
        if ((e = trsm(c, tp, t)) != cudaSuccess) return e;
    }
    return cudaSuccess;
}

/* Row-major: the factors are transposed in place (square), inverted as
   column-major and transposed back, with the inverse (same bits as the
   column-major call; a singular problem's matrices come back unchanged). */
template <typename T>
cudaError_t getri_L(const ctx &c, const bb_problem &p, const bb_dev_batch &d, int oop)
{
    if (!p.rowmajor) return getri_T<T>(c, p, d, oop);
    const unsigned g = bb_grid(d.count, 1);
    k_transpose_sq<T><<<g, 256, 0, c.q->stream>>>(d, BB_A, p.n, p.lda, 0);
    cudaError_t e = cudaGetLastError();
    bb_problem cp = p;
    cp.rowmajor = 0;
    if (e == cudaSuccess) e = getri_T<T>(c, cp, d, oop);
    if (e != cudaSuccess) return e;
    /* in place, the inverse (or the untouched factors) goes back; out of
       place the factors always, the inverse where it was computed */
    k_transpose_sq<T><<<g, 256, 0, c.q->stream>>>(d, BB_A, p.n, p.lda, 0);
    if ((e = cudaGetLastError()) != cudaSuccess || !oop) return e;
    k_transpose_sq<T><<<g, 256, 0, c.q->stream>>>(d, BB_B, p.n, p.ldb, 1);
    return cudaGetLastError();
}

cudaError_t getri(const ctx &c, const bb_problem &p, const bb_dev_batch &d, int oop)
{
    if (p.n <= 0 || p.n > GETRI_MAX_N) return cudaErrorNotSupported;
    BB_SMALL_BY_PREC(c.prec, (getri_L<T>(c, p, d, oop)));
}

/* gecond above the register bound: cond = ||A|| ||inv(A)|| exactly, as the
   register and generic kernels, but through the blocked LU: A is copied to
   workspace (A itself is never written), factored by getrf_core, inverted
   out of place by the blocked getri, and bb_k_cond_norms (views.h) takes both norms.
   Singular (a zero or NaN pivot at step k): info = k, cond = +Inf.
   Chunks of at most LU_WORK bytes of workspace. */
template <typename T>
__global__ void k_cond_copy(const bb_dev_batch d, int n, int64_t lda, T *W)
{
    for (int64_t i = blockIdx.x; i < d.count; i += gridDim.x) {
        if (d.info && d.info[i] != 0) continue;
        const T *A = bb_dev_ptr<T>(d.opd[BB_A], i);
        T *Wi = W + (size_t)i * n * n;
        for (int64_t e = threadIdx.x; e < (int64_t)n * n; e += blockDim.x) Wi[e] = A[e % n + (e / n) * lda];
    }
}

/* inv = 1: geinv (no norms: the inverse goes straight to the caller's Ainv,
   which getri leaves untouched for singular problems) */
template <typename T>
cudaError_t gecond_T(const ctx &c, const bb_problem &p, const bb_dev_batch &d, int inv)
{
    const int n = p.n;
    const size_t mat = (size_t)n * n * sizeof(T);
    const size_t per = (inv ? 1 : 2) * mat + (size_t)n * sizeof(int) + 2 * sizeof(int);
    int64_t chunk = (int64_t)(LU_WORK / per);
    if (chunk < 1) chunk = 1;
    if (chunk > d.count) chunk = d.count;
    const size_t o_t = round256((size_t)chunk * sizeof(int)), o_piv = o_t + round256((size_t)chunk * sizeof(int));
    const size_t o_lu = o_piv + round256((size_t)chunk * n * sizeof(int)), o_x = o_lu + round256((size_t)chunk * mat);
    char *w = (char *)bb_cuda_workspace2(c.q, o_x + (inv ? 0 : (size_t)chunk * mat));
    if (!w || !d.info) return w ? cudaErrorInvalidValue : cudaErrorMemoryAllocation;
    int *entry = (int *)w, *t = (int *)(w + o_t), *piv = (int *)(w + o_piv);
    T *LU = (T *)(w + o_lu), *X = (T *)(w + o_x);
    for (int64_t first = 0; first < d.count; first += chunk) {
        const int64_t cnt = d.count - first < chunk ? d.count - first : chunk;
        const bb_dev_batch s = slice(c, d, first, cnt);
        cudaError_t e = cudaMemcpyAsync(entry, s.info, (size_t)cnt * sizeof(int), cudaMemcpyDeviceToDevice, c.q->stream);
        if (e != cudaSuccess) return e;
        k_cond_copy<T><<<bb_grid(cnt, 1), 256, 0, c.q->stream>>>(s, n, p.lda, LU);
        if ((e = cudaGetLastError()) != cudaSuccess) return e;
        bb_dev_batch f = s;
        f.opd[BB_A] = workspace_opd(LU, (int64_t)n * n);
        f.opd[BB_B] = inv ? s.opd[BB_B] : workspace_opd(X, (int64_t)n * n);
        f.opd[BB_IPIV] = workspace_opd(piv, n);
        bb_problem fp = blank();
        fp.m = fp.n = n;
        fp.lda = n;
        fp.ldb = inv ? p.ldb : n;
        if ((e = getrf_core<T>(c, fp, f, 1, t)) != cudaSuccess) return e;
        if ((e = getri_T<T>(c, fp, f, 1)) != cudaSuccess) return e;
        if (inv) continue;
        bb_k_cond_norms<T><<<bb_grid(cnt, 1), 256, 0, c.q->stream>>>(s, entry, n, p.lda, X, (int64_t)n * n,
                                                              p.norm == BblasInfNorm);
        if ((e = cudaGetLastError()) != cudaSuccess) return e;
    }
    return cudaSuccess;
}

cudaError_t gecond(const ctx &c, const bb_problem &p, const bb_dev_batch &d, int inv)
{
    if (p.n <= 0 || p.n > GETRI_MAX_N) return cudaErrorNotSupported;
    BB_SMALL_BY_PREC(c.prec, (gecond_T<T>(c, p, d, inv)));
}

} // namespace

cudaError_t bb_blocked_launch(bb_op op, bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q,
                              int L, int mid_on)
{
    ctx c;
    c.prec = prec;
    c.q = q;
    c.L = L;
    c.mid_on = mid_on;
    c.es = bb_elem_size(prec);
    switch (op) {
    case BB_OP_TRSM: return trsm(c, p, d);
    case BB_OP_POTRF: return potrf(c, p, d);
    case BB_OP_POTRS: return potrs(c, p, d);
    case BB_OP_GETRF: return getrf(c, p, d, 1);
    case BB_OP_GETRFNP: return getrf(c, p, d, 0);
    case BB_OP_GETRI: return getri(c, p, d, 0);
    case BB_OP_GETRI_OOP: return getri(c, p, d, 1);
    case BB_OP_GECOND: return gecond(c, p, d, 0);
    case BB_OP_GEINV: return gecond(c, p, d, 1);
    case BB_OP_POSV: {
        cudaError_t e = potrf(c, p, d);
        if (e != cudaSuccess) return e;
        bb_dev_batch m = d;
        m.masked = 1;
        return potrs(c, p, m);
    }
    default: return cudaErrorNotSupported;
    }
}
