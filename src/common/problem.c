/*
 * From the descriptor to one problem: group parameters, row-major
 * normalisation, and operand addresses.  Every backend reads problems only
 * through these functions.
 */
#include "batch.h"

static int par(const bb_batch *b, int slot, int64_t g)
{
    const int *q = b->par[slot];
    return q ? q[g * b->pinc] : 0;
}

size_t bb_prec_size(bb_prec p)
{
    static const size_t sz[4] = {sizeof(float), sizeof(double), 2 * sizeof(float),
                                 2 * sizeof(double)};
    return sz[p];
}

/* alpha/beta of herk and beta of her2k are real */
static int scalar_is_real(bb_op op, int which_beta)
{
    return op == BB_OP_HERK || (op == BB_OP_HER2K && which_beta);
}

size_t bb_scalar_bytes(const bb_batch *b, int which)
{
    if (scalar_is_real(b->op, which))
        return (b->prec == BB_P_S || b->prec == BB_P_C) ? sizeof(float) : sizeof(double);
    return bb_prec_size(b->prec);
}

static void read_scalar(const bb_batch *b, const void *s, int64_t g, int is_real,
                        double out[2])
{
    out[0] = out[1] = 0.0;
    if (!s) return;
    int64_t i = g * b->pinc;
    int single = (b->prec == BB_P_S || b->prec == BB_P_C);
    int cplx = (b->prec == BB_P_C || b->prec == BB_P_Z) && !is_real;
    if (single) {
        const float *f = (const float *)s + (cplx ? 2 * i : i);
        out[0] = f[0];
        if (cplx) out[1] = f[1];
    } else {
        const double *d = (const double *)s + (cplx ? 2 * i : i);
        out[0] = d[0];
        if (cplx) out[1] = d[1];
    }
}

static int flip_uplo(int u) { return u == BblasUpper ? BblasLower : u == BblasLower ? BblasUpper : u; }
static int flip_side(int s) { return s == BblasLeft ? BblasRight : s == BblasRight ? BblasLeft : s; }

void bb_group_problem(const bb_batch *b, int64_t g, bb_problem *p)
{
    p->side = par(b, BB_SIDE, g);
    p->uplo = par(b, BB_UPLO, g);
    p->trans = b->par[BB_TRANS] ? par(b, BB_TRANS, g) : BblasNoTrans;
    p->transb = b->par[BB_TRANSB] ? par(b, BB_TRANSB, g) : BblasNoTrans;
    p->diag = par(b, BB_DIAG, g);
    p->norm = par(b, BB_NORM, g);
    p->m = par(b, BB_M, g);
    p->n = par(b, BB_N, g);
    p->k = par(b, BB_K, g);
    p->nrhs = par(b, BB_NRHS, g);
    p->lda = par(b, BB_LDA, g);
    p->ldb = par(b, BB_LDB, g);
    p->ldc = par(b, BB_LDC, g);
    read_scalar(b, b->alpha, g, scalar_is_real(b->op, 0), p->alpha);
    read_scalar(b, b->beta, g, scalar_is_real(b->op, 1), p->beta);
    p->rowmajor = p->rhs_right = p->swap_ab = 0;
    p->a = p->b = p->c = p->x = p->y = NULL;
    p->ipiv = NULL;

    if (b->layout != BblasRowMajor) return;

    /* A row-major matrix is its transpose in column-major: rewrite the
       problem as the column-major problem on the transposes. */
    int t;
    switch (b->op) {
    case BB_OP_GEMM: /* C^T = op(B)^T op(A)^T */
        t = p->m; p->m = p->n; p->n = t;
        t = p->trans; p->trans = p->transb; p->transb = t;
        { int64_t l = p->lda; p->lda = p->ldb; p->ldb = l; }
        p->swap_ab = 1;
        break;
    case BB_OP_SYMM: case BB_OP_HEMM: case BB_OP_TRMM: case BB_OP_TRSM:
        p->side = flip_side(p->side);
        p->uplo = flip_uplo(p->uplo);
        t = p->m; p->m = p->n; p->n = t;
        break;
    case BB_OP_SYRK: case BB_OP_SYR2K:
        p->uplo = flip_uplo(p->uplo);
        p->trans = p->trans == BblasNoTrans ? BblasTrans : BblasNoTrans;
        break;
    case BB_OP_HERK: case BB_OP_HER2K:
        p->uplo = flip_uplo(p->uplo);
        p->trans = p->trans == BblasNoTrans ? BblasConjTrans : BblasNoTrans;
        if (b->op == BB_OP_HER2K) p->alpha[1] = -p->alpha[1];
        break;
    case BB_OP_POTRF: case BB_OP_TRTRI: case BB_OP_LAUUM: case BB_OP_POTRI:
    case BB_OP_POTI:
        p->uplo = flip_uplo(p->uplo);
        break;
    case BB_OP_POTRS: case BB_OP_POSV:
        p->uplo = flip_uplo(p->uplo);
        p->rhs_right = 1;
        break;
    case BB_OP_LANGE:
        t = p->m; p->m = p->n; p->n = t;
        /* fall through */
    case BB_OP_GECOND:
        if (p->norm == BblasOneNorm) p->norm = BblasInfNorm;
        else if (p->norm == BblasInfNorm) p->norm = BblasOneNorm;
        break;
    case BB_OP_GEINV: /* inv(A^T) = inv(A)^T: the stored matrices as they are */
        break;
    default: /* LU family: the backend transposes */
        p->rowmajor = 1;
        break;
    }
}

static size_t operand_size(const bb_batch *b, int o)
{
    if (o == BB_IPIV) return sizeof(int);
    if (o == BB_X || o == BB_Y) return (b->prec == BB_P_S || b->prec == BB_P_C) ? sizeof(float) : sizeof(double);
    return bb_prec_size(b->prec);
}

void *bb_operand_ptr(const bb_batch *b, int o, int64_t i)
{
    const bb_operand *d = &b->opd[o];
    if (d->arr) return d->arr[i];
    if (d->base) return d->base + (size_t)(i * d->stride) * operand_size(b, o);
    return NULL;
}

static bb_opview opview(const bb_batch *b, int o)
{
    const bb_operand *d = &b->opd[o];
    bb_opview v = {d->arr, d->arr ? NULL : d->base, d->stride * (int64_t)operand_size(b, o)};
    return v;
}

/* The one place that maps the user's operands to the normalised slots
   (row-major gemm exchanges A and B). */
void bb_problem_views(const bb_batch *b, const bb_problem *gp, bb_views *v)
{
    v->a = opview(b, bb_user_slot(gp, BB_A));
    v->b = opview(b, bb_user_slot(gp, BB_B));
    v->c = opview(b, BB_C);
    v->ipiv = opview(b, BB_IPIV);
    v->x = opview(b, BB_X);
    v->y = opview(b, BB_Y);
}

void bb_problem_data(const bb_batch *b, int64_t i, bb_problem *p)
{
    bb_views v;
    bb_problem_views(b, p, &v);
    bb_problem_at(&v, i, p);
}

int64_t bb_group_first(const bb_batch *b, int64_t g)
{
    if (b->form == BB_FORM_GROUP) return b->gstart[g];
    if (b->form == BB_FORM_VAR) return g;
    return g == 0 ? 0 : b->count;
}

void bb_operand_dims(bb_op op, const bb_problem *p, int o, int *r, int *c)
{
    int nt = p->trans == BblasNoTrans;
    *r = *c = 0;
    switch (op) {
    case BB_OP_GEMM:
        if (o == BB_A) { *r = nt ? p->m : p->k; *c = nt ? p->k : p->m; }
        if (o == BB_B) { int ntb = p->transb == BblasNoTrans; *r = ntb ? p->k : p->n; *c = ntb ? p->n : p->k; }
        if (o == BB_C) { *r = p->m; *c = p->n; }
        break;
    case BB_OP_SYMM: case BB_OP_HEMM:
        if (o == BB_A) *r = *c = p->side == BblasLeft ? p->m : p->n;
        if (o == BB_B || o == BB_C) { *r = p->m; *c = p->n; }
        break;
    case BB_OP_SYRK: case BB_OP_HERK: case BB_OP_SYR2K: case BB_OP_HER2K:
        if (o == BB_A || o == BB_B) { *r = nt ? p->n : p->k; *c = nt ? p->k : p->n; }
        if (o == BB_C) *r = *c = p->n;
        break;
    case BB_OP_TRMM: case BB_OP_TRSM:
        if (o == BB_A) *r = *c = p->side == BblasLeft ? p->m : p->n;
        if (o == BB_B) { *r = p->m; *c = p->n; }
        break;
    case BB_OP_POTRS: case BB_OP_POSV: case BB_OP_GETRS: case BB_OP_GESV:
        if (o == BB_A) *r = *c = p->n;
        if (o == BB_B) { *r = p->rhs_right ? p->nrhs : p->n; *c = p->rhs_right ? p->n : p->nrhs; }
        if (o == BB_IPIV) { *r = p->n; *c = 1; }
        break;
    case BB_OP_GETRF: case BB_OP_GETRFNP: case BB_OP_LANGE:
        if (o == BB_A) { *r = p->m; *c = p->n; }
        if (o == BB_IPIV) { *r = p->m < p->n ? p->m : p->n; *c = 1; }
        if (o == BB_Y) *r = *c = 1;
        break;
    default: /* square n x n: potrf, trtri, lauum, potri, poti, getri(_oop), gecond, gecon, geinv */
        if (o == BB_A) *r = *c = p->n;
        if (o == BB_B && (op == BB_OP_GETRI_OOP || op == BB_OP_GEINV)) *r = *c = p->n;
        if (o == BB_IPIV && (op == BB_OP_GETRI || op == BB_OP_GETRI_OOP)) { *r = p->n; *c = 1; }
        if ((o == BB_X && op == BB_OP_GECON) || (o == BB_Y && (op == BB_OP_GECOND || op == BB_OP_GECON)))
            *r = *c = 1;
        break;
    }
    if (p->rowmajor && o <= BB_C) { int t = *r; *r = *c; *c = t; } /* storage view */
}
