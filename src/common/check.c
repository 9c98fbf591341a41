/*
 * Argument checks: the only place they happen.  Backends never re-check.
 * Every test of a group is evaluated and the failing argument with the
 * lowest signature position wins, so the checks need not be written in
 * signature order and every form reports the right position.
 */
#include <string.h>
#include "batch.h"
#include "rules.h"

static int is_trans(int t) { return t == BblasNoTrans || t == BblasTrans || t == BblasConjTrans; }
static int is_uplo(int u) { return u == BblasUpper || u == BblasLower; }
static int is_side(int s) { return s == BblasLeft || s == BblasRight; }
static int is_diag(int d) { return d == BblasNonUnit || d == BblasUnit; }

/* Raw (user-view) parameter of group g. */
static int P(const bb_batch *b, int slot, int64_t g)
{
    return b->par[slot] ? b->par[slot][g * b->pinc] : 0;
}

/* A failing option: kept if its position is the lowest so far. */
static void opt_fail(const bb_batch *b, bb_rules *r, int bad, int slot)
{
    int pos = b->pos[slot];
    if (bad && pos && (r->worst == 0 || pos < r->worst)) r->worst = pos;
}

/* A size rule: par[slot] >= 0 (dim < 0), or par[slot] >= max(1, par[dim])
   (a leading dimension). */
static void size_rule(const bb_batch *b, bb_rules *r, int slot, int dim)
{
    if (!b->pos[slot]) return;
    bb_rule *q = &r->rule[r->nrule++];
    q->slot = (signed char)slot;
    q->dim = (signed char)dim;
    q->pos = b->pos[slot];
}

/* The checks of group g, from its options: the options' own failures in
   r->worst, the rules every problem's sizes must pass, and the operands'
   dimensions (as the parameter slots that give them). */
void bb_check_rules(const bb_batch *b, int64_t g, bb_rules *r)
{
    memset(r, 0, sizeof *r);
    memset(r->dims, -1, sizeof r->dims);
    memset(r->piv, -1, sizeof r->piv);
    int row = b->layout == BblasRowMajor;
    int side = P(b, BB_SIDE, g), uplo = P(b, BB_UPLO, g), tr = P(b, BB_TRANS, g);
    int trb = P(b, BB_TRANSB, g), diag = P(b, BB_DIAG, g), norm = P(b, BB_NORM, g);
    int cplx = b->prec == BB_P_C || b->prec == BB_P_Z;
    /* rows/cols of each operand, logical (user) view, as parameter slots;
       -1 = not checked */
    int ar = -1, ac = -1, br = -1, bc = -1, cr = -1, cc = -1;
    const int M = BB_M, N = BB_N, K = BB_K;

    switch (b->op) {
    case BB_OP_GEMM:
        opt_fail(b, r, !is_trans(tr), BB_TRANS);
        opt_fail(b, r, !is_trans(trb), BB_TRANSB);
        size_rule(b, r, M, -1); size_rule(b, r, N, -1); size_rule(b, r, K, -1);
        ar = tr == BblasNoTrans ? M : K; ac = tr == BblasNoTrans ? K : M;
        br = trb == BblasNoTrans ? K : N; bc = trb == BblasNoTrans ? N : K;
        cr = M; cc = N;
        break;
    case BB_OP_SYMM: case BB_OP_HEMM:
        opt_fail(b, r, !is_side(side), BB_SIDE);
        opt_fail(b, r, !is_uplo(uplo), BB_UPLO);
        size_rule(b, r, M, -1); size_rule(b, r, N, -1);
        ar = ac = side == BblasLeft ? M : N;
        br = cr = M; bc = cc = N;
        break;
    case BB_OP_SYRK: case BB_OP_SYR2K: case BB_OP_HERK: case BB_OP_HER2K: {
        int herm = b->op == BB_OP_HERK || b->op == BB_OP_HER2K;
        int ok = tr == BblasNoTrans ||
                 (herm ? tr == BblasConjTrans : (tr == BblasTrans || (!cplx && tr == BblasConjTrans)));
        opt_fail(b, r, !is_uplo(uplo), BB_UPLO);
        opt_fail(b, r, !ok, BB_TRANS);
        size_rule(b, r, N, -1); size_rule(b, r, K, -1);
        ar = br = tr == BblasNoTrans ? N : K; ac = bc = tr == BblasNoTrans ? K : N;
        cr = cc = N;
        break;
    }
    case BB_OP_TRMM: case BB_OP_TRSM:
        opt_fail(b, r, !is_side(side), BB_SIDE);
        opt_fail(b, r, !is_uplo(uplo), BB_UPLO);
        opt_fail(b, r, !is_trans(tr), BB_TRANS);
        opt_fail(b, r, !is_diag(diag), BB_DIAG);
        size_rule(b, r, M, -1); size_rule(b, r, N, -1);
        ar = ac = side == BblasLeft ? M : N;
        br = M; bc = N;
        break;
    case BB_OP_POTRF: case BB_OP_LAUUM: case BB_OP_POTRI: case BB_OP_POTI: case BB_OP_TRTRI:
        opt_fail(b, r, !is_uplo(uplo), BB_UPLO);
        if (b->op == BB_OP_TRTRI) opt_fail(b, r, !is_diag(diag), BB_DIAG);
        size_rule(b, r, N, -1);
        ar = ac = N;
        break;
    case BB_OP_POTRS: case BB_OP_POSV: case BB_OP_GETRS: case BB_OP_GESV:
        if (b->op == BB_OP_GETRS) opt_fail(b, r, !is_trans(tr), BB_TRANS);
        if (b->op == BB_OP_POTRS || b->op == BB_OP_POSV) opt_fail(b, r, !is_uplo(uplo), BB_UPLO);
        size_rule(b, r, N, -1); size_rule(b, r, BB_NRHS, -1);
        ar = ac = N; br = N; bc = BB_NRHS;
        if (b->op == BB_OP_GESV) r->piv[0] = r->piv[1] = N;
        break;
    case BB_OP_GETRF: case BB_OP_GETRFNP:
        size_rule(b, r, M, -1); size_rule(b, r, N, -1);
        ar = M; ac = N;
        if (b->op == BB_OP_GETRF) r->piv[0] = M, r->piv[1] = N;
        break;
    case BB_OP_GETRI: case BB_OP_GETRI_OOP: case BB_OP_GEINV:
        size_rule(b, r, N, -1);
        ar = ac = N;
        if (b->op != BB_OP_GETRI) br = bc = N;
        break;
    case BB_OP_LANGE:
        opt_fail(b, r, norm != BblasOneNorm && norm != BblasInfNorm && norm != BblasMaxNorm &&
                    norm != BblasFrobeniusNorm, BB_NORM);
        size_rule(b, r, M, -1); size_rule(b, r, N, -1);
        ar = M; ac = N;
        break;
    case BB_OP_GECOND: case BB_OP_GECON:
        opt_fail(b, r, norm != BblasOneNorm && norm != BblasInfNorm, BB_NORM);
        size_rule(b, r, N, -1);
        ar = ac = N;
        break;
    default:
        break;
    }
    /* leading dimensions: max(1, rows) column-major, max(1, columns) row-major */
    if (ar >= 0) size_rule(b, r, BB_LDA, row ? ac : ar);
    if (br >= 0) size_rule(b, r, BB_LDB, row ? bc : br);
    if (cr >= 0) size_rule(b, r, BB_LDC, row ? cc : cr);
    r->dims[0][0] = (signed char)ar, r->dims[0][1] = (signed char)ac;
    r->dims[1][0] = (signed char)br, r->dims[1][1] = (signed char)bc;
    r->dims[2][0] = (signed char)cr, r->dims[2][1] = (signed char)cc;
}

/* Does the value v of a rule's slot, with dim value d, break it? */
static int rule_broken(const bb_rule *q, int v, int d)
{
    return q->dim < 0 ? bb_size_bad(v) : bb_ld_bad(v, d);
}

int bb_check_group(const bb_batch *b, int64_t g)
{
    bb_rules r;
    bb_check_rules(b, g, &r);
    int worst = r.worst;
    for (int j = 0; j < r.nrule; j++) {
        const bb_rule *q = &r.rule[j];
        if (rule_broken(q, P(b, q->slot, g), q->dim >= 0 ? P(b, q->dim, g) : 0)) worst = bb_first_pos(worst, q->pos);
    }

    /* strided form: written operands must not overlap between problems */
    if (b->form == BB_FORM_STRIDED && b->count > 1) {
        int row = b->layout == BblasRowMajor;
        const int opd[3] = {BB_A, BB_B, BB_C}, ldslot[3] = {BB_LDA, BB_LDB, BB_LDC};
        for (int q = 2; q >= 0; q--) { /* C, B, A: the order of the positions' ties never matters */
            if (r.dims[q][0] < 0 || !b->pos[BB_STRIDE0 + opd[q]]) continue;
            int rr = P(b, r.dims[q][0], g), cl = P(b, r.dims[q][1], g), ld = P(b, ldslot[q], g);
            int64_t st = b->opd[opd[q]].stride;
            int64_t foot = (int64_t)(ld > 0 ? ld : 0) * (row ? rr : cl);
            int written = b->pos[BB_OPD0 + opd[q]] && bb_op_writes(b->op, opd[q]);
            int pos = b->pos[BB_STRIDE0 + opd[q]];
            if ((st < 0 || (written && rr > 0 && cl > 0 && st < foot)) && (worst == 0 || pos < worst)) worst = pos;
        }
        if (b->pos[BB_STRIDE0 + BB_IPIV]) {
            int64_t st = b->opd[BB_IPIV].stride;
            int piv = -1;
            if (r.piv[0] >= 0) {
                int p0 = P(b, r.piv[0], g), p1 = P(b, r.piv[1], g);
                piv = p0 < p1 ? p0 : p1;
            }
            int pos = b->pos[BB_STRIDE0 + BB_IPIV];
            if ((st < 0 || (piv > 0 && st < piv)) && (worst == 0 || pos < worst)) worst = pos;
        }
    }
    return worst ? -worst : 0;
}

/* The variable form (one problem per group) with every option the same:
   the options' rules once, then each size rule over whole arrays of
   problems [lo, hi) (rule by rule, so the loops vectorise); codes go to
   pinfo, and vmax[slot] grows to the largest value of each size checked
   (m, n, k, nrhs) among the problems that pass.  Returns the number of bad
   problems, or -1 where a rule reads a parameter the batch does not have
   (bb_check_group per problem then). */
int64_t bb_check_var_sizes(bb_batch *b, const bb_rules *r, int64_t lo, int64_t hi, int vmax[BB_NPAR])
{
    for (int j = 0; j < r->nrule; j++)
        if (!b->par[r->rule[j].slot] || (r->rule[j].dim >= 0 && !b->par[r->rule[j].dim])) return -1;
    enum { CH = 1024 };
    unsigned w[CH]; /* per problem: bit q set where rule q fails */
    int cmx[6];     /* per rule v >= 0: the chunk's largest v */
    int64_t bad = 0;
    for (int64_t c0 = lo; c0 < hi; c0 += CH) {
        const int len = (int)(hi - c0 < CH ? hi - c0 : CH);
#pragma omp simd
        for (int j = 0; j < len; j++) w[j] = 0;
        for (int q = 0; q < r->nrule; q++) {
            const bb_rule *rq = &r->rule[q];
            const int *__restrict__ v = b->par[rq->slot] + c0;
            if (rq->dim < 0) {
                int mx = -1;
#pragma omp simd reduction(max : mx)
                for (int j = 0; j < len; j++) {
                    w[j] |= (unsigned)bb_size_bad(v[j]) << q;
                    mx = v[j] > mx ? v[j] : mx;
                }
                cmx[q] = mx;
            } else {
                const int *__restrict__ d = b->par[rq->dim] + c0;
#pragma omp simd
                for (int j = 0; j < len; j++) w[j] |= (unsigned)bb_ld_bad(v[j], d[j]) << q;
            }
        }
        unsigned any = r->worst != 0;
#pragma omp simd reduction(| : any)
        for (int j = 0; j < len; j++) any |= w[j];
        /* the largest value of each size (rules v >= 0) among the good
           problems: of the whole chunk, unless some problem failed */
        for (int q = 0; q < r->nrule; q++) {
            if (r->rule[q].dim >= 0) continue;
            int mx = cmx[q];
            if (any) {
                const int *__restrict__ v = b->par[r->rule[q].slot] + c0;
                mx = -1;
                for (int j = 0; !r->worst && j < len; j++) mx = !w[j] && v[j] > mx ? v[j] : mx;
            }
            if (mx > vmax[r->rule[q].slot]) vmax[r->rule[q].slot] = mx;
        }
        for (int j = 0; any && j < len; j++) {
            if (!w[j] && !r->worst) continue;
            int worst = r->worst; /* the options' failure, then the lowest failing rule */
            for (int q = 0; q < r->nrule; q++)
                if (w[j] >> q & 1u) worst = bb_first_pos(worst, r->rule[q].pos);
            b->pinfo[c0 + j] = -worst;
            bad++;
        }
    }
    return bad;
}

/* Groups [lo, hi) of a per-group parameter batch (pinc 1) have, with
   options set, the options (side, uplo, trans, transb, diag, norm) of
   group 0, and, with scalars set, its alpha and beta.  Each array is
   compared with itself shifted by one value (all equal), and its value lo
   with value 0. */
static int same_as_first(const char *a, size_t sz, int64_t lo, int64_t hi)
{
    return !memcmp(a, a + lo * sz, sz) && (hi - lo < 2 || !memcmp(a + lo * sz, a + (lo + 1) * sz, (size_t)(hi - lo - 1) * sz));
}

int bb_uniform_range(const bb_batch *b, int64_t lo, int64_t hi, int options, int scalars)
{
    if (b->pinc != 1 || hi <= lo) return 1;
    for (int s = BB_SIDE; options && s <= BB_NORM; s++) /* the options */
        if (b->par[s] && !same_as_first((const char *)b->par[s], sizeof(int), lo, hi)) return 0;
    const void *sc[2] = {b->alpha, b->beta};
    for (int w = 0; scalars && w < 2; w++)
        if (sc[w] && !same_as_first((const char *)sc[w], bb_scalar_bytes(b, w), lo, hi)) return 0;
    return 1;
}

int bb_uniform_options(const bb_batch *b, int options, int scalars)
{
    return bb_uniform_range(b, 0, b->ngroups, options, scalars);
}

/* The user operands a problem of this group must provide (non-empty ones),
   as a bit mask over BB_A..BB_Y. */
unsigned bb_needed_operands(const bb_batch *b, const bb_problem *gp)
{
    unsigned mask = 0;
    for (int o = 0; o < BB_NOPD; o++) {
        int uo = bb_user_slot(gp, o);
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
