/*
 * Argument checks: the only place they happen.  Backends never re-check.
 * Every test of a group is evaluated and the failing argument with the
 * lowest signature position wins, so the checks need not be written in
 * signature order and every form reports the right position.
 */
#include "batch.h"

typedef struct {
    const bb_batch *b;
    int worst; /* lowest failing position, 0 if none */
} ck;

static void fail_if(ck *c, int bad, int slot)
{
    int pos = c->b->pos[slot];
    if (bad && pos && (c->worst == 0 || pos < c->worst)) c->worst = pos;
}

static int max1(int v) { return v > 1 ? v : 1; }
static int is_trans(int t) { return t == BblasNoTrans || t == BblasTrans || t == BblasConjTrans; }
static int is_uplo(int u) { return u == BblasUpper || u == BblasLower; }
static int is_side(int s) { return s == BblasLeft || s == BblasRight; }
static int is_diag(int d) { return d == BblasNonUnit || d == BblasUnit; }

/* Raw (user-view) parameter of group g. */
static int P(const bb_batch *b, int slot, int64_t g)
{
    return b->par[slot] ? b->par[slot][g * b->pinc] : 0;
}

int bb_check_group(const bb_batch *b, int64_t g)
{
    ck c = {b, 0};
    int row = b->layout == BblasRowMajor;
    int side = P(b, BB_SIDE, g), uplo = P(b, BB_UPLO, g), tr = P(b, BB_TRANS, g);
    int trb = P(b, BB_TRANSB, g), diag = P(b, BB_DIAG, g), norm = P(b, BB_NORM, g);
    int m = P(b, BB_M, g), n = P(b, BB_N, g), k = P(b, BB_K, g), nrhs = P(b, BB_NRHS, g);
    int lda = P(b, BB_LDA, g), ldb = P(b, BB_LDB, g), ldc = P(b, BB_LDC, g);
    int cplx = b->prec == BB_P_C || b->prec == BB_P_Z;
    /* leading dimension needed by an r x c matrix in this layout */
#define LD(r, cc) max1(row ? (cc) : (r))
    /* rows/cols of each operand, logical (user) view; -1 = not checked */
    int ar = -1, ac = -1, br = -1, bc = -1, cr = -1, cc = -1, piv = -1;

    switch (b->op) {
    case BB_OP_GEMM:
        fail_if(&c, !is_trans(tr), BB_TRANS);
        fail_if(&c, !is_trans(trb), BB_TRANSB);
        fail_if(&c, m < 0, BB_M); fail_if(&c, n < 0, BB_N); fail_if(&c, k < 0, BB_K);
        ar = tr == BblasNoTrans ? m : k; ac = tr == BblasNoTrans ? k : m;
        br = trb == BblasNoTrans ? k : n; bc = trb == BblasNoTrans ? n : k;
        cr = m; cc = n;
        break;
    case BB_OP_SYMM: case BB_OP_HEMM:
        fail_if(&c, !is_side(side), BB_SIDE);
        fail_if(&c, !is_uplo(uplo), BB_UPLO);
        fail_if(&c, m < 0, BB_M); fail_if(&c, n < 0, BB_N);
        ar = ac = side == BblasLeft ? m : n;
        br = cr = m; bc = cc = n;
        break;
    case BB_OP_SYRK: case BB_OP_SYR2K: case BB_OP_HERK: case BB_OP_HER2K: {
        int herm = b->op == BB_OP_HERK || b->op == BB_OP_HER2K;
        int ok = tr == BblasNoTrans ||
                 (herm ? tr == BblasConjTrans : (tr == BblasTrans || (!cplx && tr == BblasConjTrans)));
        fail_if(&c, !is_uplo(uplo), BB_UPLO);
        fail_if(&c, !ok, BB_TRANS);
        fail_if(&c, n < 0, BB_N); fail_if(&c, k < 0, BB_K);
        ar = br = tr == BblasNoTrans ? n : k; ac = bc = tr == BblasNoTrans ? k : n;
        cr = cc = n;
        break;
    }
    case BB_OP_TRMM: case BB_OP_TRSM:
        fail_if(&c, !is_side(side), BB_SIDE);
        fail_if(&c, !is_uplo(uplo), BB_UPLO);
        fail_if(&c, !is_trans(tr), BB_TRANS);
        fail_if(&c, !is_diag(diag), BB_DIAG);
        fail_if(&c, m < 0, BB_M); fail_if(&c, n < 0, BB_N);
        ar = ac = side == BblasLeft ? m : n;
        br = m; bc = n;
        break;
    case BB_OP_POTRF: case BB_OP_LAUUM: case BB_OP_POTRI: case BB_OP_POTI: case BB_OP_TRTRI:
        fail_if(&c, !is_uplo(uplo), BB_UPLO);
        if (b->op == BB_OP_TRTRI) fail_if(&c, !is_diag(diag), BB_DIAG);
        fail_if(&c, n < 0, BB_N);
        ar = ac = n;
        break;
    case BB_OP_POTRS: case BB_OP_POSV: case BB_OP_GETRS: case BB_OP_GESV:
        if (b->op == BB_OP_GETRS) fail_if(&c, !is_trans(tr), BB_TRANS);
        if (b->op == BB_OP_POTRS || b->op == BB_OP_POSV) fail_if(&c, !is_uplo(uplo), BB_UPLO);
        fail_if(&c, n < 0, BB_N); fail_if(&c, nrhs < 0, BB_NRHS);
        ar = ac = n; br = n; bc = nrhs;
        if (b->op == BB_OP_GESV) piv = n;
        break;
    case BB_OP_GETRF: case BB_OP_GETRFNP:
        fail_if(&c, m < 0, BB_M); fail_if(&c, n < 0, BB_N);
        ar = m; ac = n;
        if (b->op == BB_OP_GETRF) piv = m < n ? m : n;
        break;
    case BB_OP_GETRI: case BB_OP_GETRI_OOP: case BB_OP_GEINV:
        fail_if(&c, n < 0, BB_N);
        ar = ac = n;
        if (b->op != BB_OP_GETRI) br = bc = n;
        break;
    case BB_OP_LANGE:
        fail_if(&c, norm != BblasOneNorm && norm != BblasInfNorm && norm != BblasMaxNorm &&
                    norm != BblasFrobeniusNorm, BB_NORM);
        fail_if(&c, m < 0, BB_M); fail_if(&c, n < 0, BB_N);
        ar = m; ac = n;
        break;
    case BB_OP_GECOND: case BB_OP_GECON:
        fail_if(&c, norm != BblasOneNorm && norm != BblasInfNorm, BB_NORM);
        fail_if(&c, n < 0, BB_N);
        ar = ac = n;
        break;
    default:
        break;
    }
    if (ar >= 0) fail_if(&c, lda < LD(ar, ac), BB_LDA);
    if (br >= 0) fail_if(&c, ldb < LD(br, bc), BB_LDB);
    if (cr >= 0) fail_if(&c, ldc < LD(cr, cc), BB_LDC);

    /* strided form: written operands must not overlap between problems */
    if (b->form == BB_FORM_STRIDED && b->count > 1) {
        const int wr[3] = {cr >= 0, br >= 0, ar >= 0};
        const int rr[3] = {cr, br, ar}, cl[3] = {cc, bc, ac}, ld[3] = {ldc, ldb, lda};
        const int opd[3] = {BB_C, BB_B, BB_A};
        for (int q = 0; q < 3; q++) {
            if (!wr[q] || !b->pos[BB_STRIDE0 + opd[q]]) continue;
            int64_t st = b->opd[opd[q]].stride;
            int64_t foot = (int64_t)(ld[q] > 0 ? ld[q] : 0) * (row ? rr[q] : cl[q]);
            int written = b->pos[BB_OPD0 + opd[q]] && bb_op_writes(b->op, opd[q]);
            fail_if(&c, st < 0 || (written && rr[q] > 0 && cl[q] > 0 && st < foot),
                    BB_STRIDE0 + opd[q]);
        }
        if (b->pos[BB_STRIDE0 + BB_IPIV]) {
            int64_t st = b->opd[BB_IPIV].stride;
            fail_if(&c, st < 0 || (piv > 0 && st < piv), BB_STRIDE0 + BB_IPIV);
        }
    }
    (void)piv;
#undef LD
    return c.worst ? -c.worst : 0;
}

/* The user operands a problem of this group must provide (non-empty ones),
   as a bit mask over BB_A..BB_Y. */
unsigned bb_needed_operands(const bb_batch *b, const bb_problem *gp)
{
    unsigned mask = 0;
    for (int o = 0; o < BB_NOPD; o++) {
        int uo = (gp->swap_ab && o < 2) ? 1 - o : o; /* the user's operand */
        if (!b->pos[BB_OPD0 + uo]) continue;
        int r, cl;
        bb_operand_dims(b->op, gp, o, &r, &cl);
        if (r > 0 && cl > 0) mask |= 1u << uo;
    }
    return mask;
}

/* Per problem: a NULL pointer for an operand the problem needs. */
int bb_null_operands(const bb_batch *b, unsigned needed, int64_t i)
{
    int worst = 0;
    for (int o = 0; o < BB_NOPD; o++) {
        if (!(needed >> o & 1u) || bb_operand_ptr(b, o, i) != NULL) continue;
        int pos = b->pos[BB_OPD0 + o];
        if (worst == 0 || pos < worst) worst = pos;
    }
    return worst ? -worst : 0;
}

/* Per problem: bb_null_operands, and for gecon (host data) a negative or NaN
   anorm, as LAPACK's gecon checks. */
int bb_check_problem(const bb_batch *b, unsigned needed, int64_t i)
{
    int code = bb_null_operands(b, needed, i);
    if (b->op != BB_OP_GECON || b->device_data || !(needed >> BB_X & 1u)) return code;
    const void *x = bb_operand_ptr(b, BB_X, i);
    if (!x) return code;
    double v = (b->prec == BB_P_S || b->prec == BB_P_C) ? *(const float *)x : *(const double *)x;
    int xc = v >= 0 ? 0 : -b->pos[BB_OPD0 + BB_X]; /* negative or NaN */
    if (!xc || (code && code > xc)) return code; /* the first bad argument wins */
    return xc;
}
