/*
 * The recursive driver (seed 004, section 6: KBLAS's two-sided recursion)
 * for the routines above the register bound L (32 real, 16 complex):
 *
 *   trmm, syrk, herk, syr2k, her2k, symm, hemm, trtri, lauum, potri, poti,
 *   getrs, gesv.
 *
 * A routine is a rule: the order n of its triangle (or symmetric matrix) is
 * split as n = n1 + n2 (n1 the largest power of two below n, so every leaf
 * is a power-of-two block of the register kernels plus one remainder); the
 * rule lists the sub-calls on the four blocks, each of which is either
 *   - the same rule on a diagonal block (rec_*: down to a leaf of order <= L),
 *   - another routine on a block (sub(): through the launch policy, so a
 *     nested TRMM or TRSM takes its own register kernel or recursion), or
 *   - a GEMM on the off-diagonal block (gemm(): register gemm, cuBLAS or the
 *     generic kernel, as the policy decides for that shape).
 * Every step is one launch over the whole batch on sub-matrix views (a
 * strided operand becomes base + offset, a pointer-array operand gets an
 * element offset); nothing is copied and no pointer array is rebuilt.
 * A leaf whose free dimension (the columns of B beside a triangle, the k of
 * a rank-k update) exceeds L goes whole to the register kernel if it takes
 * it, else in chunks of L.
 *
 *   routine   rule (lower; upper mirrors it)                 seed 004
 *   trmm      B2 = M22 B2; B2 += M21 B1; B1 = M11 B1         Table 1
 *             (M = op(A) lower: left; the other cases by symmetry)
 *   syrk      C11, C22 recursive; C21 = a A2 A1^T + b C21    (herk: ^H;
 *             syr2k/her2k: two GEMMs)
 *   symm      C1 = symm(A11) B1 + A21^T B2, C2 = A21 B1 + symm(A22) B2
 *   trtri     A11 = inv(A11); A21 = -A21 A11 (trmm); A21 = A22^-1 A21
 *             (trsm); A22 = inv(A22).  A zero diagonal is found first (one
 *             scan): the problem gets info k and is left untouched (LAPACK)
 *   lauum     A11 = lauum(L11) + L21^H L21 (herk); A21 = L22^H A21 (trmm);
 *             A22 = lauum(L22)
 *   potri     trtri then lauum; poti: potrf (blocked driver) then potri
 *   getrs     B = P B (row swaps), L Y = B, U X = Y (blocked trsm); trans:
 *             U^T, L^T, then P^T.  Row-major A and B are transposed into
 *             column-major workspace and back (same bits as column-major)
 *   gesv      getrf (blocked driver), then getrs on the problems it did not
 *             find singular (B untouched otherwise, LAPACK)
 *
 * Problems flagged in d.info (argument errors, or failures of an earlier
 * step) are skipped by every step: the kernels test info, and the GEMMs of
 * routines that can fail on the way run masked (cuBLAS sees a dummy matrix
 * in their place).
 */
#include <string.h>
#include "small.h"
#include "generic.h"
#include "views.h"

namespace {

struct rctx {
    bb_prec prec;
    batchblas_queue *q;
    int L;     /* leaf bound */
    size_t es; /* element bytes */
    bool cplx;
};

bb_problem blank(void) { return bb_blank_problem(); }
bb_dev_opd view(const rctx &c, const bb_dev_opd &o, int64_t off) { return bb_view(o, off, c.es); }

/* The split: the largest power of two below n. */
int split(int n)
{
    int s = 1;
    while (2 * s < n) s *= 2;
    return s;
}

/* Another routine on views, through the launch policy. */
cudaError_t sub(const rctx &c, bb_op op, const bb_problem &p, const bb_dev_batch &d)
{
    return bb_cuda_launch(op, c.prec, p, d, c.q);
}

bool is_zero(const double a[2]) { return a[0] == 0 && a[1] == 0; }

/* C = alpha op(A) op(B) + beta C on views (views.h). */
cudaError_t gemm(const rctx &c, const bb_dev_batch &d, const bb_dev_opd &A, int ta, int64_t lda, const bb_dev_opd &B,
                 int tb, int64_t ldb, const bb_dev_opd &C, int64_t ldc, int m, int n, int k, const double alpha[2],
                 const double beta[2])
{
    return bb_gemm_views(c.prec, c.q, d, A, ta, lda, B, tb, ldb, C, ldc, m, n, k, alpha, beta);
}

const double ONE[2] = {1, 0};

/* A triangle's block M(r, s) of M = op(A) (rows r0.., columns s0..) as a
   GEMM operand: the view and the transposition to apply. */
struct tri_block {
    bb_dev_opd v;
    int t;
};
tri_block op_block(const rctx &c, const bb_dev_opd &A, int64_t lda, int trans, int r0, int s0)
{
    tri_block b;
    if (trans == BblasNoTrans) {
        b.v = view(c, A, r0 + (int64_t)s0 * lda);
        b.t = BblasNoTrans;
    } else {
        b.v = view(c, A, s0 + (int64_t)r0 * lda);
        b.t = trans;
    }
    return b;
}

/* ------------------------------------------------------------------ trmm */

cudaError_t trmm(const rctx &c, const bb_problem &p, const bb_dev_batch &d)
{
    const bool left = p.side == BblasLeft;
    const int t = left ? p.m : p.n, f = left ? p.n : p.m;
    if (t <= 0 || f <= 0) return cudaSuccess;
    const bb_dev_opd &A = d.opd[BB_A], &B = d.opd[BB_B];
    if (t <= c.L) {
        if (f <= c.L) return cudaErrorNotSupported; /* the leaf itself did not fit */
        cudaError_t e = bb_small_blas3(BB_OP_TRMM, c.prec, p, d, c.q); /* the whole free dimension */
        if (e != cudaErrorNotSupported) return e;
        for (int j0 = 0; j0 < f; j0 += c.L) {      /* else chunks of it */
            bb_problem lp = p;
            const int w = f - j0 < c.L ? f - j0 : c.L;
            if (left) lp.n = w;
            else lp.m = w;
            bb_dev_batch ld = d;
            ld.opd[BB_B] = view(c, B, left ? (int64_t)j0 * p.ldb : j0);
            e = sub(c, BB_OP_TRMM, lp, ld);
            if (e != cudaSuccess) return e;
        }
        return cudaSuccess;
    }
    const int t1 = split(t), t2 = t - t1;
    const bool tr = p.trans != BblasNoTrans;
    const bool mlower = (p.uplo == BblasLower) != tr;
    const int64_t lda = p.lda, ldb = p.ldb;
    bb_problem p1 = p, p2 = p;
    bb_dev_batch d1 = d, d2 = d;
    d1.opd[BB_A] = A;
    d2.opd[BB_A] = view(c, A, t1 + t1 * lda);
    if (left) {
        p1.m = t1, p2.m = t2;
        d1.opd[BB_B] = B;
        d2.opd[BB_B] = view(c, B, t1);
    } else {
        p1.n = t1, p2.n = t2;
        d1.opd[BB_B] = B;
        d2.opd[BB_B] = view(c, B, t1 * ldb);
    }
    const bb_dev_opd B1 = d1.opd[BB_B], B2 = d2.opd[BB_B];
    /* the off-diagonal block of M: M21 (lower) or M12 (upper) */
    const tri_block Mo = mlower ? op_block(c, A, lda, p.trans, t1, 0) : op_block(c, A, lda, p.trans, 0, t1);
    cudaError_t e;
    /* which half is updated by the GEMM: left lower / right upper: B2; else B1 */
    const bool second = left == mlower;
    if (second) {
        if ((e = trmm(c, p2, d2)) != cudaSuccess) return e;
        if (left) /* B2 += alpha M21 B1 */
            e = gemm(c, d, Mo.v, Mo.t, lda, B1, BblasNoTrans, ldb, B2, ldb, t2, f, t1, p.alpha, ONE);
        else /* B2 += alpha B1 M12 */
            e = gemm(c, d, B1, BblasNoTrans, ldb, Mo.v, Mo.t, lda, B2, ldb, f, t2, t1, p.alpha, ONE);
        if (e != cudaSuccess) return e;
        return trmm(c, p1, d1);
    }
    if ((e = trmm(c, p1, d1)) != cudaSuccess) return e;
    if (left) /* B1 += alpha M12 B2 */
        e = gemm(c, d, Mo.v, Mo.t, lda, B2, BblasNoTrans, ldb, B1, ldb, t1, f, t2, p.alpha, ONE);
    else /* B1 += alpha B2 M21 */
        e = gemm(c, d, B2, BblasNoTrans, ldb, Mo.v, Mo.t, lda, B1, ldb, f, t1, t2, p.alpha, ONE);
    if (e != cudaSuccess) return e;
    return trmm(c, p2, d2);
}

/* ---------------------------------------------- syrk, herk, syr2k, her2k */

/* Rows r0.. of op(X) (n x k) as a GEMM operand, plain (h = 0) or as
   op(X)^T / op(X)^H (h = 1; tt the transposition). */
bb_dev_opd rows_of(const rctx &c, const bb_dev_opd &X, int64_t ldx, int trans, int r0)
{
    return view(c, X, trans == BblasNoTrans ? r0 : (int64_t)r0 * ldx);
}

cudaError_t rankk(const rctx &c, bb_op op, const bb_problem &p, const bb_dev_batch &d)
{
    const int n = p.n, k = p.k;
    if (n <= 0) return cudaSuccess;
    const bool two = op == BB_OP_SYR2K || op == BB_OP_HER2K;
    const bool herm = op == BB_OP_HERK || op == BB_OP_HER2K;
    const int tt = herm ? BblasConjTrans : BblasTrans;
    const bool nt = p.trans == BblasNoTrans;
    const bb_dev_opd &A = d.opd[BB_A], &B = d.opd[BB_B], &C = d.opd[BB_C];
    if (n <= c.L) {
        if (k <= c.L) return cudaErrorNotSupported;
        cudaError_t e = bb_small_blas3(op, c.prec, p, d, c.q); /* the whole k */
        if (e != cudaErrorNotSupported) return e;
        for (int k0 = 0; k0 < k; k0 += c.L) { /* else chunks of k: C = a A_k A_k^T + (first ? b : 1) C */
            bb_problem lp = p;
            lp.k = k - k0 < c.L ? k - k0 : c.L;
            if (k0 > 0) lp.beta[0] = 1, lp.beta[1] = 0;
            bb_dev_batch ld = d;
            ld.opd[BB_A] = view(c, A, nt ? (int64_t)k0 * p.lda : k0);
            if (two) ld.opd[BB_B] = view(c, B, nt ? (int64_t)k0 * p.ldb : k0);
            e = sub(c, op, lp, ld);
            if (e != cudaSuccess) return e;
        }
        return cudaSuccess;
    }
    const int n1 = split(n), n2 = n - n1;
    bb_problem p1 = p, p2 = p;
    p1.n = n1;
    p2.n = n2;
    bb_dev_batch d2 = d;
    d2.opd[BB_A] = rows_of(c, A, p.lda, p.trans, n1);
    if (two) d2.opd[BB_B] = rows_of(c, B, p.ldb, p.trans, n1);
    d2.opd[BB_C] = view(c, C, n1 + n1 * p.ldc);
    cudaError_t e = rankk(c, op, p1, d);
    if (e == cudaSuccess) e = rankk(c, op, p2, d2);
    if (e != cudaSuccess) return e;
    /* the off-diagonal block: lower C21 = a X2 Y1^H (+ conj(a) Y2 X1^H) + b C21,
       upper C12 = a X1 Y2^H (+ ...) + b C12; X = op(A), Y = op(B) (syrk/herk: Y = X) */
    const bool lower = p.uplo == BblasLower;
    const int ra = lower ? n1 : 0, rb = lower ? 0 : n1; /* row blocks of X and of Y^H */
    const int m = lower ? n2 : n1, nn = lower ? n1 : n2;
    const bb_dev_opd Co = view(c, C, lower ? n1 : (int64_t)n1 * p.ldc);
    const int ta = nt ? BblasNoTrans : tt, tb = nt ? tt : BblasNoTrans;
    double alpha[2] = {p.alpha[0], herm && !two ? 0.0 : p.alpha[1]};
    double beta[2] = {p.beta[0], herm ? 0.0 : p.beta[1]};
    if (is_zero(alpha) || k == 0) { /* C = beta C on the block (gemm() runs nothing when alpha or k is zero) */
        bb_problem sp = blank();
        sp.m = m;
        sp.n = nn;
        sp.k = 0;
        /* the generic gemm with k = 0 scales C by beta (C not read if beta = 0) */
        sp.lda = p.lda > 0 ? p.lda : 1;
        sp.ldb = sp.lda;
        sp.ldc = p.ldc;
        memcpy(sp.beta, beta, sizeof beta);
        bb_dev_batch g = d;
        g.opd[BB_A] = A;
        g.opd[BB_B] = A;
        g.opd[BB_C] = Co;
        return bb_generic_launch(BB_OP_GEMM, c.prec, sp, g, c.q);
    }
    const bb_dev_opd &Y = two ? B : A;
    const int64_t ldy = two ? p.ldb : p.lda;
    e = gemm(c, d, rows_of(c, A, p.lda, p.trans, ra), ta, p.lda, rows_of(c, Y, ldy, p.trans, rb), tb, ldy, Co, p.ldc,
             m, nn, k, alpha, beta);
    if (e != cudaSuccess || !two) return e;
    double a2[2] = {p.alpha[0], herm ? -p.alpha[1] : p.alpha[1]};
    return gemm(c, d, rows_of(c, B, p.ldb, p.trans, ra), ta, p.ldb, rows_of(c, A, p.lda, p.trans, rb), tb, p.lda, Co,
                p.ldc, m, nn, k, a2, ONE);
}

/* ------------------------------------------------------------ symm, hemm */

cudaError_t symm(const rctx &c, bb_op op, const bb_problem &p, const bb_dev_batch &d)
{
    const bool left = p.side == BblasLeft;
    const int t = left ? p.m : p.n, f = left ? p.n : p.m;
    if (t <= 0 || f <= 0) return cudaSuccess;
    const bb_dev_opd &A = d.opd[BB_A], &B = d.opd[BB_B], &C = d.opd[BB_C];
    const int64_t lda = p.lda, ldb = p.ldb, ldc = p.ldc;
    if (t <= c.L) {
        if (f <= c.L) return cudaErrorNotSupported;
        cudaError_t e = bb_small_blas3(op, c.prec, p, d, c.q); /* the whole free dimension */
        if (e != cudaErrorNotSupported) return e;
        for (int j0 = 0; j0 < f; j0 += c.L) {
            bb_problem lp = p;
            const int w = f - j0 < c.L ? f - j0 : c.L;
            if (left) lp.n = w;
            else lp.m = w;
            bb_dev_batch ld = d;
            ld.opd[BB_B] = view(c, B, left ? (int64_t)j0 * ldb : j0);
            ld.opd[BB_C] = view(c, C, left ? (int64_t)j0 * ldc : j0);
            e = sub(c, op, lp, ld);
            if (e != cudaSuccess) return e;
        }
        return cudaSuccess;
    }
    const int t1 = split(t), t2 = t - t1;
    const int tt = op == BB_OP_HEMM ? BblasConjTrans : BblasTrans;
    const bool lower = p.uplo == BblasLower;
    bb_problem p1 = p, p2 = p;
    bb_dev_batch d2 = d;
    d2.opd[BB_A] = view(c, A, t1 + t1 * lda);
    int64_t b2, c2;
    if (left) {
        p1.m = t1, p2.m = t2;
        b2 = t1, c2 = t1;
    } else {
        p1.n = t1, p2.n = t2;
        b2 = t1 * ldb, c2 = t1 * ldc;
    }
    d2.opd[BB_B] = view(c, B, b2);
    d2.opd[BB_C] = view(c, C, c2);
    cudaError_t e = symm(c, op, p1, d);
    if (e == cudaSuccess) e = symm(c, op, p2, d2);
    if (e != cudaSuccess) return e;
    /* the stored off-diagonal block: A21 (lower) or A12 (upper); S21 = A21
       or A12^T, S12 = A21^T or A12 */
    const bb_dev_opd Ao = view(c, A, lower ? t1 : t1 * lda);
    const int t21 = lower ? BblasNoTrans : tt, t12 = lower ? tt : BblasNoTrans;
    const bb_dev_opd B1 = B, B2 = d2.opd[BB_B], C1 = C, C2 = d2.opd[BB_C];
    if (left) { /* C1 += a S12 B2; C2 += a S21 B1 */
        e = gemm(c, d, Ao, t12, lda, B2, BblasNoTrans, ldb, C1, ldc, t1, f, t2, p.alpha, ONE);
        if (e == cudaSuccess)
            e = gemm(c, d, Ao, t21, lda, B1, BblasNoTrans, ldb, C2, ldc, t2, f, t1, p.alpha, ONE);
    } else { /* C1 += a B2 S21; C2 += a B1 S12 */
        e = gemm(c, d, B2, BblasNoTrans, ldb, Ao, t21, lda, C1, ldc, f, t1, t2, p.alpha, ONE);
        if (e == cudaSuccess)
            e = gemm(c, d, B1, BblasNoTrans, ldb, Ao, t12, lda, C2, ldc, f, t2, t1, p.alpha, ONE);
    }
    return e;
}

/* ------------------------------------------------ trtri, lauum, potri */

cudaError_t zero_diag(const rctx &c, const bb_problem &p, const bb_dev_batch &d)
{
    if (!d.info) return cudaErrorInvalidValue;
    const unsigned g = bb_grid(d.count, 8);
    switch (c.prec) {
    case BB_P_S: bb_k_zero_diag<float><<<g, 256, 0, c.q->stream>>>(d, p.n, p.lda); break;
    case BB_P_D: bb_k_zero_diag<double><<<g, 256, 0, c.q->stream>>>(d, p.n, p.lda); break;
    case BB_P_C: bb_k_zero_diag<cuFloatComplex><<<g, 256, 0, c.q->stream>>>(d, p.n, p.lda); break;
    case BB_P_Z: bb_k_zero_diag<cuDoubleComplex><<<g, 256, 0, c.q->stream>>>(d, p.n, p.lda); break;
    }
    return cudaGetLastError();
}

/* A triangle-by-block product or solve on views (trmm / trsm of the rules
   below): op(T) X or X op(T), T = the diagonal block at toff. */
cudaError_t tri_op(const rctx &c, bb_op op, const bb_dev_batch &d, int side, int uplo, int trans, int diag,
                   double alpha, const bb_dev_opd &T, int64_t ldt, const bb_dev_opd &X, int64_t ldx, int m, int n)
{
    if (m <= 0 || n <= 0) return cudaSuccess;
    const bb_problem p = bb_tri_problem(side, uplo, trans, diag, m, n, ldt, ldx, alpha);
    bb_dev_batch g = d;
    g.opd[BB_A] = T;
    g.opd[BB_B] = X;
    return sub(c, op, p, g);
}

/* In-place inverse of the triangle (zero diagonals already flagged). */
cudaError_t trtri_rec(const rctx &c, const bb_problem &p, const bb_dev_batch &d)
{
    const int n = p.n;
    if (n <= c.L) return sub(c, BB_OP_TRTRI, p, d);
    const int n1 = split(n), n2 = n - n1;
    const int64_t lda = p.lda;
    const bb_dev_opd &A = d.opd[BB_A];
    const bb_dev_opd A22 = view(c, A, n1 + n1 * lda);
    bb_problem p1 = p, p2 = p;
    p1.n = n1;
    p2.n = n2;
    bb_dev_batch d2 = d;
    d2.opd[BB_A] = A22;
    cudaError_t e;
    if (p.uplo == BblasLower) { /* A21 = -A22^-1 A21 A11^-1 */
        const bb_dev_opd A21 = view(c, A, n1);
        if ((e = trtri_rec(c, p1, d)) != cudaSuccess) return e;
        if ((e = tri_op(c, BB_OP_TRMM, d, BblasRight, BblasLower, BblasNoTrans, p.diag, -1.0, A, lda, A21, lda, n2,
                        n1)) != cudaSuccess)
            return e;
        if ((e = tri_op(c, BB_OP_TRSM, d, BblasLeft, BblasLower, BblasNoTrans, p.diag, 1.0, A22, lda, A21, lda, n2,
                        n1)) != cudaSuccess)
            return e;
        return trtri_rec(c, p2, d2);
    }
    /* upper: A12 = -A11^-1 A12 A22^-1 */
    const bb_dev_opd A12 = view(c, A, n1 * lda);
    if ((e = trtri_rec(c, p2, d2)) != cudaSuccess) return e;
    if ((e = tri_op(c, BB_OP_TRMM, d, BblasRight, BblasUpper, BblasNoTrans, p.diag, -1.0, A22, lda, A12, lda, n1,
                    n2)) != cudaSuccess)
        return e;
    if ((e = tri_op(c, BB_OP_TRSM, d, BblasLeft, BblasUpper, BblasNoTrans, p.diag, 1.0, A, lda, A12, lda, n1, n2)) !=
        cudaSuccess)
        return e;
    return trtri_rec(c, p1, d);
}

cudaError_t trtri(const rctx &c, const bb_problem &p, const bb_dev_batch &d)
{
    if (p.n <= 0) return cudaSuccess;
    if (p.n <= c.L) return cudaErrorNotSupported; /* the leaf itself did not fit */
    if (p.diag != BblasUnit) {
        cudaError_t e = zero_diag(c, p, d);
        if (e != cudaSuccess) return e;
    }
    return trtri_rec(c, p, d);
}

/* lower: A = L^H L, upper: A = U U^H, in place. */
cudaError_t lauum_rec(const rctx &c, const bb_problem &p, const bb_dev_batch &d)
{
    const int n = p.n;
    if (n <= c.L) return sub(c, BB_OP_LAUUM, p, d);
    const int n1 = split(n), n2 = n - n1;
    const int64_t lda = p.lda;
    const bb_dev_opd &A = d.opd[BB_A];
    const bb_dev_opd A22 = view(c, A, n1 + n1 * lda);
    const bool lower = p.uplo == BblasLower;
    const bb_dev_opd Ao = view(c, A, lower ? n1 : n1 * lda); /* L21 or U12 */
    bb_problem p1 = p, p2 = p;
    p1.n = n1;
    p2.n = n2;
    bb_dev_batch d2 = d;
    d2.opd[BB_A] = A22;
    cudaError_t e = lauum_rec(c, p1, d);
    if (e != cudaSuccess) return e;
    /* A11 += L21^H L21 (lower) or U12 U12^H (upper) */
    bb_problem hp = blank();
    hp.uplo = p.uplo;
    hp.trans = lower ? (c.cplx ? BblasConjTrans : BblasTrans) : BblasNoTrans;
    hp.n = n1;
    hp.k = n2;
    hp.lda = lda;
    hp.ldc = lda;
    hp.alpha[0] = 1;
    hp.beta[0] = 1;
    bb_dev_batch hd = d;
    hd.opd[BB_A] = Ao;
    hd.opd[BB_C] = A;
    if ((e = sub(c, c.cplx ? BB_OP_HERK : BB_OP_SYRK, hp, hd)) != cudaSuccess) return e;
    /* A21 = L22^H A21 (lower) or A12 = A12 U22^H (upper) */
    if (lower)
        e = tri_op(c, BB_OP_TRMM, d, BblasLeft, BblasLower, BblasConjTrans, BblasNonUnit, 1.0, A22, lda, Ao, lda, n2,
                   n1);
    else
        e = tri_op(c, BB_OP_TRMM, d, BblasRight, BblasUpper, BblasConjTrans, BblasNonUnit, 1.0, A22, lda, Ao, lda, n1,
                   n2);
    if (e != cudaSuccess) return e;
    return lauum_rec(c, p2, d2);
}

cudaError_t potri(const rctx &c, const bb_problem &p, const bb_dev_batch &d)
{
    bb_problem tp = p;
    tp.diag = BblasNonUnit;
    cudaError_t e = trtri(c, tp, d);
    if (e != cudaSuccess) return e;
    return lauum_rec(c, p, d);
}

/* ------------------------------------------------------------ getrs, gesv */

/* Interchanges of the rows of B (column-major, ldb), k = 0..n-1 forward or
   backward, swap by swap (for n > PERM_MAX).  A warp per problem, a lane
   per right-hand side. */
template <typename T>
__global__ void k_swap_rows(const bb_dev_batch d, int n, int nrhs, int64_t ldb, int forward)
{
    const int lane = threadIdx.x % 32;
    const int64_t w0 = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const int64_t nw = (int64_t)gridDim.x * blockDim.x / 32;
    for (int64_t i = w0; i < d.count; i += nw) {
        if (d.info && d.info[i] != 0) continue;
        T *B = bb_dev_ptr<T>(d.opd[BB_B], i);
        const int *ip = bb_dev_ptr<int>(d.opd[BB_IPIV], i);
        for (int s = 0; s < n; s++) {
            const int k = forward ? s : n - 1 - s;
            const int r = ip[k] - 1;
            if (r == k || r < 0 || r >= n) continue; /* out of range: no interchange */
            for (int j = lane; j < nrhs; j += 32) {
                T *x = B + k + j * ldb, *y = B + r + j * ldb;
                const T t = *x;
                *x = *y;
                *y = t;
            }
        }
    }
}

/* The same interchanges as one gather (n <= PERM_MAX): thread 0 turns the
   swaps into the permutation (perm[r] = the row that ends in row r), then
   chunks of whole columns are read permuted into registers (coalesced
   down the columns) and written back.  A block per problem. */
const int PERM_THREADS = 256, PERM_E = 8, PERM_MAX = PERM_THREADS * PERM_E;

template <typename T>
__global__ void __launch_bounds__(PERM_THREADS) k_permute_rows(const bb_dev_batch d, int n, int nrhs, int64_t ldb,
                                                               int forward)
{
    __shared__ int perm[PERM_MAX];
    const int cols = PERM_MAX / n; /* columns per chunk */
    for (int64_t i = blockIdx.x; i < d.count; i += gridDim.x) {
        if (d.info && d.info[i] != 0) continue; /* uniform over the block */
        T *B = bb_dev_ptr<T>(d.opd[BB_B], i);
        __syncthreads(); /* perm of the previous problem is no longer read */
        if (threadIdx.x == 0) {
            const int *ip = bb_dev_ptr<int>(d.opd[BB_IPIV], i);
            for (int r = 0; r < n; r++) perm[r] = r;
            bb_swaps_to_perm(perm, ip, n, n, 1, !forward);
        }
        __syncthreads();
        for (int j0 = 0; j0 < nrhs; j0 += cols) {
            const int w = nrhs - j0 < cols ? nrhs - j0 : cols, tot = n * w;
            T v[PERM_E];
#pragma unroll
            for (int e = 0; e < PERM_E; e++) {
                const int x = threadIdx.x + e * PERM_THREADS;
                if (x < tot) v[e] = B[perm[x % n] + (int64_t)(j0 + x / n) * ldb];
            }
            __syncthreads();
#pragma unroll
            for (int e = 0; e < PERM_E; e++) {
                const int x = threadIdx.x + e * PERM_THREADS;
                if (x < tot) B[x % n + (int64_t)(j0 + x / n) * ldb] = v[e];
            }
            __syncthreads();
        }
    }
}

template <typename T>
cudaError_t swap_rows_T(const rctx &c, const bb_problem &p, const bb_dev_batch &d, int forward)
{
    if (p.n <= PERM_MAX)
        k_permute_rows<T><<<bb_grid(d.count, 1), PERM_THREADS, 0, c.q->stream>>>(d, p.n, p.nrhs, p.ldb, forward);
    else
        k_swap_rows<T><<<bb_grid(d.count, 8), 256, 0, c.q->stream>>>(d, p.n, p.nrhs, p.ldb, forward);
    return cudaGetLastError();
}

cudaError_t swap_rows(const rctx &c, const bb_problem &p, const bb_dev_batch &d, int forward)
{
    BB_SMALL_BY_PREC(c.prec, (swap_rows_T<T>(c, p, d, forward)));
}


/* op(A) X = B with P A = L U, column-major: NoTrans: P, L (unit lower),
   U; trans: U^T, L^T, then P^T (getrs_any brings row-major data here). */
cudaError_t getrs(const rctx &c, const bb_problem &p, const bb_dev_batch &d)
{
    const int n = p.n, nrhs = p.nrhs;
    if (n <= 0 || nrhs <= 0) return cudaSuccess;
    const bb_dev_opd &A = d.opd[BB_A], &B = d.opd[BB_B];
    cudaError_t e;
    if (p.trans == BblasNoTrans) {
        /* on chip (trsm_panel.cu): the three steps on one read of B */
        if ((e = bb_getrs_panel(c.prec, p, d, c.q)) != cudaErrorNotSupported) return e;
        e = swap_rows(c, p, d, 1);
        if (e == cudaSuccess)
            e = tri_op(c, BB_OP_TRSM, d, BblasLeft, BblasLower, BblasNoTrans, BblasUnit, 1.0, A, p.lda, B, p.ldb, n,
                       nrhs);
        if (e == cudaSuccess)
            e = tri_op(c, BB_OP_TRSM, d, BblasLeft, BblasUpper, BblasNoTrans, BblasNonUnit, 1.0, A, p.lda, B, p.ldb,
                       n, nrhs);
        return e;
    }
    e = tri_op(c, BB_OP_TRSM, d, BblasLeft, BblasUpper, p.trans, BblasNonUnit, 1.0, A, p.lda, B, p.ldb, n, nrhs);
    if (e == cudaSuccess)
        e = tri_op(c, BB_OP_TRSM, d, BblasLeft, BblasLower, p.trans, BblasUnit, 1.0, A, p.lda, B, p.ldb, n, nrhs);
    if (e == cudaSuccess) e = swap_rows(c, p, d, 0);
    return e;
}

/* Row-major getrs/gesv give the same bits as column-major ones: A and B
   are transposed into column-major workspace (chunks of at most RM_WORK
   bytes), solved there, and B is transposed back. */
const size_t RM_WORK = (size_t)1 << 30;

/* Operand o (rows x cols, row-major, ld) to or from (out) column-major
   matrices packed in W; a block per problem, problems with a code skipped. */
template <typename T>
__global__ void k_rm_copy(const bb_dev_batch d, int o, int rows, int cols, int64_t ld, T *W, int out)
{
    const int64_t sz = (int64_t)rows * cols;
    for (int64_t i = blockIdx.x; i < d.count; i += gridDim.x) {
        if (d.info && d.info[i] != 0) continue;
        T *X = bb_dev_ptr<T>(d.opd[o], i), *Wi = W + (size_t)i * sz;
        for (int64_t e = threadIdx.x; e < sz; e += blockDim.x) {
            const int64_t r = e % rows, col = e / rows;
            if (out) X[r * ld + col] = Wi[e];
            else Wi[e] = X[r * ld + col];
        }
    }
}

template <typename T>
cudaError_t getrs_rm_T(const rctx &c, const bb_problem &p, const bb_dev_batch &d)
{
    const int n = p.n, nrhs = p.nrhs;
    const size_t per = ((size_t)n * n + (size_t)n * nrhs) * sizeof(T);
    int64_t chunk = (int64_t)(RM_WORK / per);
    if (chunk < 1) chunk = 1;
    if (chunk > d.count) chunk = d.count;
    T *WA = (T *)bb_cuda_workspace2(c.q, (size_t)chunk * per);
    if (!WA) return cudaErrorMemoryAllocation;
    T *WB = WA + (size_t)chunk * n * n;
    bb_problem cp = p;
    cp.rowmajor = 0;
    cp.lda = n;
    cp.ldb = n;
    for (int64_t first = 0; first < d.count; first += chunk) {
        const int64_t cnt = d.count - first < chunk ? d.count - first : chunk;
        const bb_dev_batch s = bb_slice(d, first, cnt, c.prec);
        const unsigned g = bb_grid(cnt, 1);
        k_rm_copy<T><<<g, 256, 0, c.q->stream>>>(s, BB_A, n, n, p.lda, WA, 0);
        k_rm_copy<T><<<g, 256, 0, c.q->stream>>>(s, BB_B, n, nrhs, p.ldb, WB, 0);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) return e;
        bb_dev_batch w = s;
        w.opd[BB_A] = bb_workspace_opd(WA, (int64_t)n * n);
        w.opd[BB_B] = bb_workspace_opd(WB, (int64_t)n * nrhs);
        if ((e = getrs(c, cp, w)) != cudaSuccess) return e;
        k_rm_copy<T><<<g, 256, 0, c.q->stream>>>(s, BB_B, n, nrhs, p.ldb, WB, 1);
        if ((e = cudaGetLastError()) != cudaSuccess) return e;
    }
    return cudaSuccess;
}

cudaError_t getrs_any(const rctx &c, const bb_problem &p, const bb_dev_batch &d)
{
    if (p.n <= 0 || p.nrhs <= 0) return cudaSuccess;
    /* the LU solve on chip (getrf_chip.cu) where the order fits it: either
       layout, any number of right-hand sides, one launch */
    if (p.n <= bb_cuda_chip_max(BB_OP_GETRS, c.prec)) return bb_getrs_chip(c.prec, p, d, c.q);
    if (!p.rowmajor) return getrs(c, p, d);
    BB_SMALL_BY_PREC(c.prec, (getrs_rm_T<T>(c, p, d)));
}

} // namespace

int bb_recursive_supports(bb_op op)
{
    switch (op) {
    case BB_OP_TRMM: case BB_OP_SYRK: case BB_OP_HERK: case BB_OP_SYR2K: case BB_OP_HER2K: case BB_OP_SYMM:
    case BB_OP_HEMM: case BB_OP_TRTRI: case BB_OP_LAUUM: case BB_OP_POTRI: case BB_OP_POTI: case BB_OP_GETRS:
    case BB_OP_GESV:
        return 1;
    default:
        return 0;
    }
}

cudaError_t bb_recursive_launch(bb_op op, bb_prec prec, const bb_problem &p, const bb_dev_batch &d,
                                batchblas_queue *q, int L)
{
    rctx c;
    c.prec = prec;
    c.q = q;
    c.L = L;
    c.es = bb_elem_size(prec);
    c.cplx = prec == BB_P_C || prec == BB_P_Z;
    /* routines that can fail on the way (a zero diagonal, a failed
       factorisation) run their later steps masked: cuBLAS must not write the
       problems that failed; the others keep the caller's mask (a strided
       launch has no skipped problem: unmasked, cuBLAS takes the strided call) */
    bb_dev_batch m = d;
    if ((op == BB_OP_TRTRI && p.diag != BblasUnit) || op == BB_OP_POTRI || op == BB_OP_POTI || op == BB_OP_GESV)
        m.masked = 1;
    switch (op) {
    case BB_OP_TRMM: return trmm(c, p, m);
    case BB_OP_SYRK: case BB_OP_HERK: case BB_OP_SYR2K: case BB_OP_HER2K: return rankk(c, op, p, m);
    case BB_OP_SYMM: case BB_OP_HEMM: return symm(c, op, p, m);
    case BB_OP_TRTRI: return trtri(c, p, m);
    case BB_OP_LAUUM: return p.n <= L ? cudaErrorNotSupported : lauum_rec(c, p, m);
    case BB_OP_POTRI: return p.n <= L ? cudaErrorNotSupported : potri(c, p, m);
    case BB_OP_POTI: {
        if (p.n <= L) return cudaErrorNotSupported;
        bb_problem fp = p;
        cudaError_t e = sub(c, BB_OP_POTRF, fp, m);
        if (e != cudaSuccess) return e;
        return potri(c, p, m);
    }
    case BB_OP_GETRS:
        if (p.n <= L && p.nrhs <= L) return cudaErrorNotSupported;
        if (!d.opd[BB_IPIV].ptr && !d.opd[BB_IPIV].base) return cudaErrorNotSupported;
        return getrs_any(c, p, m);
    case BB_OP_GESV: {
        if (p.n <= L && p.nrhs <= L) return cudaErrorNotSupported;
        if (!d.opd[BB_IPIV].ptr && !d.opd[BB_IPIV].base) return cudaErrorNotSupported;
        bb_problem fp = p;
        fp.m = p.n;
        cudaError_t e = sub(c, BB_OP_GETRF, fp, m);
        if (e != cudaSuccess) return e;
        return getrs_any(c, p, m);
    }
    default: return cudaErrorNotSupported;
    }
}
