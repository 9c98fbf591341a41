/*
 * Tests of the BLAS-3 family (compiled once per precision): gemm, symm,
 * hemm, syrk, herk, syr2k, her2k, trmm, trsm through the public API, in
 * every form (group, fixed, variable, strided), both layouts and every
 * side/uplo/trans/diag option.  Each result is compared with a reference
 * computed here with plain loops in double (complex) arithmetic and judged
 * by tu_ratio/tu_accept only (trsm: by the residual op(A)*X - alpha*B).
 * Every element of the output buffers that the routine may not write (the
 * padding of ld > rows, the other triangle of syrk-type results, the gaps
 * between problems) must keep its bits, and the inputs must not change.
 * Entries the routine must not read (the other triangle of symmetric,
 * Hermitian and triangular A, a unit diagonal, C when beta == 0, A and B
 * when alpha == 0) hold NaN.
 */
#include <stdio.h>
#include "prec.h"
#include "tu_prec.h"
#include "tests.h"

enum { OP_GEMM, OP_SYMM, OP_HEMM, OP_SYRK, OP_HERK, OP_SYR2K, OP_HER2K, OP_TRMM, OP_TRSM, NOP };
static const char *const op_name[NOP] = {"gemm", "symm", "hemm", "syrk", "herk",
                                         "syr2k", "her2k", "trmm", "trsm"};
enum { F_GROUP, F_FIXED, F_VAR, F_STRIDED, NFORM };
static const char *const form_name[NFORM] = {"batch", "batchf", "batchv", "batch_strided"};
enum { OA, OB, OC, NOPD }; /* operands */


/* One parameter set, user view.  ld[o] = 0: the minimum plus pad[o]. */
typedef struct {
    int side, uplo, trans, transb, diag;
    int m, n, k;
    int ld[NOPD];
    zd alpha, beta;
} spec;

#define GAP 3 /* extra elements between consecutive problems */

static int has_b(int op) { return op != OP_SYRK && op != OP_HERK; }
static int has_c(int op) { return op != OP_TRMM && op != OP_TRSM; }
static int out_opd(int op) { return has_c(op) ? OC : OB; }
static int is_rk(int op) { return op >= OP_SYRK && op <= OP_HER2K; }
static int is_herm_rk(int op) { return op == OP_HERK || op == OP_HER2K; }
static int has_beta(int op) { return has_c(op); }
static int in_tri(int uplo, int i, int j) { return uplo == BblasUpper ? i <= j : i >= j; }
static char opt_char(int v)
{
    switch (v) {
    case BblasNoTrans: return 'N';
    case BblasTrans: return 'T';
    case BblasConjTrans: return 'C';
    case BblasUpper: return 'U';
    case BblasLower: return 'L';
    case BblasUnit: return 'U';
    case BblasNonUnit: return 'N';
    case BblasLeft: return 'L';
    case BblasRight: return 'R';
    default: return '-';
    }
}

/* rows x columns of operand o (user view); 0 x 0 if absent */
static void dims(int op, const spec *s, int o, int *r, int *c)
{
    int nt = s->trans == BblasNoTrans, ka = s->side == BblasLeft ? s->m : s->n;
    *r = *c = 0;
    switch (op) {
    case OP_GEMM:
        if (o == OA) { *r = nt ? s->m : s->k; *c = nt ? s->k : s->m; }
        if (o == OB) { int ntb = s->transb == BblasNoTrans; *r = ntb ? s->k : s->n; *c = ntb ? s->n : s->k; }
        if (o == OC) { *r = s->m; *c = s->n; }
        break;
    case OP_SYMM: case OP_HEMM:
        if (o == OA) *r = *c = ka;
        if (o == OB || o == OC) { *r = s->m; *c = s->n; }
        break;
    case OP_SYRK: case OP_HERK: case OP_SYR2K: case OP_HER2K:
        if (o == OA || (o == OB && has_b(op))) { *r = nt ? s->n : s->k; *c = nt ? s->k : s->n; }
        if (o == OC) *r = *c = s->n;
        break;
    default: /* trmm, trsm */
        if (o == OA) *r = *c = ka;
        if (o == OB) { *r = s->m; *c = s->n; }
        break;
    }
}

static int present(int op, int o) { return o == OA || (o == OB && has_b(op)) || (o == OC && has_c(op)); }

static int64_t ld_of(int op, const spec *s, int o, int layout)
{
    int r, c;
    dims(op, s, o, &r, &c);
    int need = layout == BblasColMajor ? r : c;
    return need > 1 ? need : 1;
}

static void describe(char *buf, size_t len, int op, int form, int layout, const spec *s)
{
    snprintf(buf, len,
             "%s%s_%s %s side=%c uplo=%c trans=%c transb=%c diag=%c m=%d n=%d k=%d lda=%d ldb=%d "
             "ldc=%d alpha=(%g,%g) beta=(%g,%g)",
             TU_PNAME, op_name[op], form_name[form], tu_layout_name(layout), opt_char(s->side),
             opt_char(s->uplo), opt_char(s->trans), opt_char(s->transb), opt_char(s->diag), s->m, s->n,
             s->k, s->ld[OA], s->ld[OB], s->ld[OC], creal(s->alpha), cimag(s->alpha), creal(s->beta),
             cimag(s->beta));
}

static zd get(const T *M, int64_t ld, int layout, int i, int j) { return tu_z(M[tu_idx(ld, layout, i, j)]); }
static void set(T *M, int64_t ld, int layout, int i, int j, T v) { M[tu_idx(ld, layout, i, j)] = v; }

/* op(M)(i, j) */
static zd opget(const T *M, int64_t ld, int layout, int trans, int i, int j)
{
    if (trans == BblasNoTrans) return get(M, ld, layout, i, j);
    zd v = get(M, ld, layout, j, i);
    return trans == BblasConjTrans ? conj(v) : v;
}

/* NaN in every part: marks what must not be read */
static T nan_t(void) { return MAKE_T(NAN, NAN); }

/* the scalars as the routine sees them (herk: real alpha, beta; her2k: real beta) */
static zd alpha_of(int op, const spec *s) { return op == OP_HERK ? creal(s->alpha) : s->alpha; }
static zd beta_of(int op, const spec *s) { return is_herm_rk(op) ? creal(s->beta) : s->beta; }

/* ---------------------------------------------------------------- setup */

/* Fills one problem's operands (all sentinel before). */
static void fill_problem(int op, int layout, const spec *s, T *A, T *B, T *C)
{
    int ar, ac, br, bc, cr, cc;
    dims(op, s, OA, &ar, &ac);
    dims(op, s, OB, &br, &bc);
    dims(op, s, OC, &cr, &cc);
    int64_t lda = s->ld[OA], ldb = s->ld[OB], ldc = s->ld[OC];
    int alpha0 = alpha_of(op, s) == 0;
    int ka = ar;

    /* A */
    for (int j = 0; j < ac; j++)
        for (int i = 0; i < ar; i++) {
            T v = tu_rand_T();
            if (op == OP_SYMM || op == OP_HEMM) {
                if (!in_tri(s->uplo, i, j)) v = nan_t();
            } else if (op == OP_TRMM || op == OP_TRSM) {
                if (!in_tri(s->uplo, i, j)) {
                    v = nan_t();
                } else if (i == j) {
                    if (s->diag == BblasUnit) {
                        v = nan_t();
                    } else if (op == OP_TRSM) { /* modulus in [1, 2), random phase */
                        double r = 1.5 + 0.5 * tu_rand(), t = 3.14159265358979 * tu_rand();
                        v = BB_COMPLEX ? MAKE_T(r * cos(t), r * sin(t)) : MAKE_T(t < 0 ? -r : r, 0);
                    }
                } else if (op == OP_TRSM) {
                    v = tu_T(tu_z(v) / (double)ka); /* well conditioned */
                }
            }
            if (alpha0) v = nan_t(); /* must not be read */
            set(A, lda, layout, i, j, v);
        }
    /* B */
    if (has_b(op))
        for (int j = 0; j < bc; j++)
            for (int i = 0; i < br; i++) set(B, ldb, layout, i, j, alpha0 ? nan_t() : tu_rand_T());
    /* C: NaN when beta == 0 (must not be read) */
    if (has_c(op))
        for (int j = 0; j < cc; j++)
            for (int i = 0; i < cr; i++)
                set(C, ldc, layout, i, j, beta_of(op, s) == 0 ? nan_t() : tu_rand_T());
}

/* ----------------------------------------------------------- reference */

/* Reference result (r x c, column-major) in the elements the routine
   writes; *scale gets the norms the error is measured against, *nf the
   dimension factor.  trsm is judged by its residual instead (check). */
static void reference(int op, int layout, const spec *s, const T *A, const T *B, const T *C, zd *ref,
                      double *scale, double *nf)
{
    int ar, ac, br, bc, cr, cc;
    dims(op, s, OA, &ar, &ac);
    dims(op, s, OB, &br, &bc);
    dims(op, s, OC, &cr, &cc);
    int64_t lda = s->ld[OA], ldb = s->ld[OB], ldc = s->ld[OC];
    zd alpha = alpha_of(op, s), beta = beta_of(op, s);
    int a0 = alpha == 0, b0 = beta == 0;
    double na = a0 ? 0 : tu_normf(A, lda, layout, ar, ac), nb = 0, nc = 0;
    if (has_b(op) && !a0) nb = tu_normf(B, ldb, layout, br, bc);
    int m = s->m, n = s->n, k = s->k, left = s->side == BblasLeft;

    switch (op) {
    case OP_GEMM:
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++) {
                zd t = 0;
                if (!a0)
                    for (int l = 0; l < k; l++)
                        t += opget(A, lda, layout, s->trans, i, l) * opget(B, ldb, layout, s->transb, l, j);
                ref[i + j * m] = alpha * t + (b0 ? 0 : beta * get(C, ldc, layout, i, j));
            }
        if (!b0) nc = tu_normf(C, ldc, layout, m, n);
        *scale = cabs(alpha) * na * nb + cabs(beta) * nc;
        *nf = k + 2;
        break;
    case OP_SYMM: case OP_HEMM: {
        int ka = left ? m : n, herm = op == OP_HEMM;
        /* full symmetric / Hermitian matrix from the uplo triangle */
        zd *S = (zd *)calloc((size_t)ka * ka + 1, sizeof(zd));
        ck_assert_ptr_nonnull(S);
        double ns = 0;
        if (!a0)
            for (int j = 0; j < ka; j++)
                for (int i = 0; i < ka; i++) {
                    zd v = in_tri(s->uplo, i, j) ? get(A, lda, layout, i, j) : get(A, lda, layout, j, i);
                    if (herm && !in_tri(s->uplo, i, j)) v = conj(v);
                    if (herm && i == j) v = creal(v);
                    S[i + j * ka] = v;
                    ns += creal(v * conj(v));
                }
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++) {
                zd t = 0;
                if (!a0)
                    for (int l = 0; l < ka; l++)
                        t += left ? S[i + l * ka] * get(B, ldb, layout, l, j)
                                  : get(B, ldb, layout, i, l) * S[l + j * ka];
                ref[i + j * m] = alpha * t + (b0 ? 0 : beta * get(C, ldc, layout, i, j));
            }
        free(S);
        if (!b0) nc = tu_normf(C, ldc, layout, m, n);
        *scale = cabs(alpha) * sqrt(ns) * nb + cabs(beta) * nc;
        *nf = ka + 2;
        break;
    }
    case OP_SYRK: case OP_HERK: case OP_SYR2K: case OP_HER2K: {
        int two = op == OP_SYR2K || op == OP_HER2K, herm = is_herm_rk(op);
        int tr = s->trans;
        double ncs = 0;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                if (!in_tri(s->uplo, i, j)) continue;
                zd t = 0;
                if (!a0)
                    for (int l = 0; l < k; l++) {
                        zd pa = opget(A, lda, layout, tr, i, l), qa = opget(A, lda, layout, tr, j, l);
                        if (!two) {
                            t += alpha * pa * (herm ? conj(qa) : qa);
                        } else {
                            zd pb = opget(B, ldb, layout, tr, i, l), qb = opget(B, ldb, layout, tr, j, l);
                            if (herm)
                                t += alpha * pa * conj(qb) + conj(alpha) * pb * conj(qa);
                            else
                                t += alpha * (pa * qb + pb * qa);
                        }
                    }
                zd c = 0;
                if (!b0) {
                    c = get(C, ldc, layout, i, j);
                    if (herm && i == j) c = creal(c);
                    ncs += creal(c * conj(c));
                }
                zd v = t + beta * c;
                if (herm && i == j) v = creal(v);
                ref[i + j * n] = v;
            }
        *scale = cabs(alpha) * (two ? 2 * na * nb : na * na) + cabs(beta) * sqrt(ncs);
        *nf = (two ? 2 * k : k) + 2;
        break;
    }
    case OP_TRMM: {
        int ka = left ? m : n, unit = s->diag == BblasUnit;
        /* op(A) in full */
        zd *Tm = (zd *)calloc((size_t)ka * ka + 1, sizeof(zd));
        ck_assert_ptr_nonnull(Tm);
        double nt = 0;
        if (!a0)
            for (int j = 0; j < ka; j++)
                for (int i = 0; i < ka; i++) {
                    zd v = 0;
                    int si = s->trans == BblasNoTrans ? i : j, sj = s->trans == BblasNoTrans ? j : i;
                    if (i == j && unit) v = 1;
                    else if (in_tri(s->uplo, si, sj)) v = opget(A, lda, layout, s->trans, i, j);
                    Tm[i + j * ka] = v;
                    nt += creal(v * conj(v));
                }
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++) {
                zd t = 0;
                if (!a0)
                    for (int l = 0; l < ka; l++)
                        t += left ? Tm[i + l * ka] * get(B, ldb, layout, l, j)
                                  : get(B, ldb, layout, i, l) * Tm[l + j * ka];
                ref[i + j * m] = alpha * t;
            }
        free(Tm);
        *scale = cabs(alpha) * sqrt(nt) * nb;
        *nf = ka + 2;
        break;
    }
    default:
        break;
    }
}

/* trsm: ratio of the residual ||op(A)*X - alpha*B|| (left) or
   ||X*op(A) - alpha*B|| (right) against ||op(A)|| ||X|| + |alpha| ||B||;
   with alpha == 0, of ||X|| (X must be exactly zero). */
static double trsm_ratio(int layout, const spec *s, const T *A, const T *B0, const T *X)
{
    int m = s->m, n = s->n, left = s->side == BblasLeft, ka = left ? m : n;
    int unit = s->diag == BblasUnit;
    int64_t lda = s->ld[OA], ldb = s->ld[OB];
    zd alpha = s->alpha;
    double nx = tu_normf(X, ldb, layout, m, n);
    if (alpha == 0) return tu_ratio(nx, 1.0, ka, TU_PREC_ID);
    zd *Tm = (zd *)calloc((size_t)ka * ka + 1, sizeof(zd));
    ck_assert_ptr_nonnull(Tm);
    double nt = 0, err = 0;
    for (int j = 0; j < ka; j++)
        for (int i = 0; i < ka; i++) {
            int si = s->trans == BblasNoTrans ? i : j, sj = s->trans == BblasNoTrans ? j : i;
            zd v = 0;
            if (i == j && unit) v = 1;
            else if (in_tri(s->uplo, si, sj)) v = opget(A, lda, layout, s->trans, i, j);
            Tm[i + j * ka] = v;
            nt += creal(v * conj(v));
        }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            zd t = 0;
            for (int l = 0; l < ka; l++)
                t += left ? Tm[i + l * ka] * get(X, ldb, layout, l, j) : get(X, ldb, layout, i, l) * Tm[l + j * ka];
            zd e = t - alpha * get(B0, ldb, layout, i, j);
            err += creal(e * conj(e));
        }
    free(Tm);
    double scale = sqrt(nt) * nx + cabs(alpha) * tu_normf(B0, ldb, layout, m, n);
    return tu_ratio(sqrt(err), scale, ka + 2, TU_PREC_ID);
}

/* ---------------------------------------------------------------- a case */

typedef struct {
    int op, form, layout;
    int nspec;          /* parameter sets: groups (group form), problems (variable), or 1 */
    const spec *sp;
    const int *gsz;     /* problems per parameter set */
} kase;

/* parameter arrays, one entry per parameter set */
typedef struct {
    bblas_enum_t *side, *uplo, *trans, *transb, *diag;
    int *m, *n, *k, *lda, *ldb, *ldc;
    T *alpha, *beta;
    R *ralpha, *rbeta;
} parr;

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    ck_assert_ptr_nonnull(p);
    return p;
}

#define UNP(...) __VA_ARGS__
/* Calls form `form` of routine OP.  PA: the arguments after layout in the
   group/variable forms (arrays), SA: in the fixed form (scalars), TA: in the
   strided form (scalars, base pointers and strides), without batch_size. */
#define DISPATCH(OP, PA, SA, TA)                                                              \
    switch (form) {                                                                           \
    case F_GROUP: BB_PUB(blas, OP, batch)(ng, gsz, layout, UNP PA, info); break;              \
    case F_VAR: BB_PUB(blas, OP, batchv)(count, layout, UNP PA, info); break;                 \
    case F_FIXED: BB_PUB(blas, OP, batchf)(count, layout, UNP SA, info); break;               \
    default: BB_PUB(blas, OP, batch_strided)(layout, UNP TA, count, info); break;             \
    }

/* one call of the routine */
static void call(int op, int form, int layout, int ng, const int *gsz, int count, const parr *q,
                 T **pa, T **pb, T **pc, T *ba, T *bb, T *bc, const int64_t *st, int *info)
{
    const T *const *ca = (const T *const *)pa, *const *cb = (const T *const *)pb;
    switch (op) {
    case OP_GEMM:
        DISPATCH(gemm,
                 (q->trans, q->transb, q->m, q->n, q->k, q->alpha, ca, q->lda, cb, q->ldb, q->beta, pc, q->ldc),
                 (q->trans[0], q->transb[0], q->m[0], q->n[0], q->k[0], q->alpha[0], ca, q->lda[0], cb,
                  q->ldb[0], q->beta[0], pc, q->ldc[0]),
                 (q->trans[0], q->transb[0], q->m[0], q->n[0], q->k[0], q->alpha[0], ba, q->lda[0], st[OA],
                  bb, q->ldb[0], st[OB], q->beta[0], bc, q->ldc[0], st[OC]))
        break;
    case OP_SYMM:
        DISPATCH(symm,
                 (q->side, q->uplo, q->m, q->n, q->alpha, ca, q->lda, cb, q->ldb, q->beta, pc, q->ldc),
                 (q->side[0], q->uplo[0], q->m[0], q->n[0], q->alpha[0], ca, q->lda[0], cb, q->ldb[0],
                  q->beta[0], pc, q->ldc[0]),
                 (q->side[0], q->uplo[0], q->m[0], q->n[0], q->alpha[0], ba, q->lda[0], st[OA], bb,
                  q->ldb[0], st[OB], q->beta[0], bc, q->ldc[0], st[OC]))
        break;
    case OP_SYRK:
        DISPATCH(syrk, (q->uplo, q->trans, q->n, q->k, q->alpha, ca, q->lda, q->beta, pc, q->ldc),
                 (q->uplo[0], q->trans[0], q->n[0], q->k[0], q->alpha[0], ca, q->lda[0], q->beta[0], pc,
                  q->ldc[0]),
                 (q->uplo[0], q->trans[0], q->n[0], q->k[0], q->alpha[0], ba, q->lda[0], st[OA],
                  q->beta[0], bc, q->ldc[0], st[OC]))
        break;
    case OP_SYR2K:
        DISPATCH(syr2k,
                 (q->uplo, q->trans, q->n, q->k, q->alpha, ca, q->lda, cb, q->ldb, q->beta, pc, q->ldc),
                 (q->uplo[0], q->trans[0], q->n[0], q->k[0], q->alpha[0], ca, q->lda[0], cb, q->ldb[0],
                  q->beta[0], pc, q->ldc[0]),
                 (q->uplo[0], q->trans[0], q->n[0], q->k[0], q->alpha[0], ba, q->lda[0], st[OA], bb,
                  q->ldb[0], st[OB], q->beta[0], bc, q->ldc[0], st[OC]))
        break;
#if BB_COMPLEX
    case OP_HEMM:
        DISPATCH(hemm,
                 (q->side, q->uplo, q->m, q->n, q->alpha, ca, q->lda, cb, q->ldb, q->beta, pc, q->ldc),
                 (q->side[0], q->uplo[0], q->m[0], q->n[0], q->alpha[0], ca, q->lda[0], cb, q->ldb[0],
                  q->beta[0], pc, q->ldc[0]),
                 (q->side[0], q->uplo[0], q->m[0], q->n[0], q->alpha[0], ba, q->lda[0], st[OA], bb,
                  q->ldb[0], st[OB], q->beta[0], bc, q->ldc[0], st[OC]))
        break;
    case OP_HERK:
        DISPATCH(herk, (q->uplo, q->trans, q->n, q->k, q->ralpha, ca, q->lda, q->rbeta, pc, q->ldc),
                 (q->uplo[0], q->trans[0], q->n[0], q->k[0], q->ralpha[0], ca, q->lda[0], q->rbeta[0], pc,
                  q->ldc[0]),
                 (q->uplo[0], q->trans[0], q->n[0], q->k[0], q->ralpha[0], ba, q->lda[0], st[OA],
                  q->rbeta[0], bc, q->ldc[0], st[OC]))
        break;
    case OP_HER2K:
        DISPATCH(her2k,
                 (q->uplo, q->trans, q->n, q->k, q->alpha, ca, q->lda, cb, q->ldb, q->rbeta, pc, q->ldc),
                 (q->uplo[0], q->trans[0], q->n[0], q->k[0], q->alpha[0], ca, q->lda[0], cb, q->ldb[0],
                  q->rbeta[0], pc, q->ldc[0]),
                 (q->uplo[0], q->trans[0], q->n[0], q->k[0], q->alpha[0], ba, q->lda[0], st[OA], bb,
                  q->ldb[0], st[OB], q->rbeta[0], bc, q->ldc[0], st[OC]))
        break;
#endif
    case OP_TRMM:
        DISPATCH(trmm,
                 (q->side, q->uplo, q->trans, q->diag, q->m, q->n, q->alpha, ca, q->lda, pb, q->ldb),
                 (q->side[0], q->uplo[0], q->trans[0], q->diag[0], q->m[0], q->n[0], q->alpha[0], ca,
                  q->lda[0], pb, q->ldb[0]),
                 (q->side[0], q->uplo[0], q->trans[0], q->diag[0], q->m[0], q->n[0], q->alpha[0], ba,
                  q->lda[0], st[OA], bb, q->ldb[0], st[OB]))
        break;
    case OP_TRSM:
        DISPATCH(trsm,
                 (q->side, q->uplo, q->trans, q->diag, q->m, q->n, q->alpha, ca, q->lda, pb, q->ldb),
                 (q->side[0], q->uplo[0], q->trans[0], q->diag[0], q->m[0], q->n[0], q->alpha[0], ca,
                  q->lda[0], pb, q->ldb[0]),
                 (q->side[0], q->uplo[0], q->trans[0], q->diag[0], q->m[0], q->n[0], q->alpha[0], ba,
                  q->lda[0], st[OA], bb, q->ldb[0], st[OB]))
        break;
    default:
        ck_abort_msg("%s: routine %d is not one of this precision", TU_PNAME, op);
    }
}

/* Runs one case: builds the batch, calls the routine, checks every problem. */
static void run(const kase *kc)
{
    const int op = kc->op, form = kc->form, layout = kc->layout, ns = kc->nspec;
    int count = 0;
    for (int g = 0; g < ns; g++) count += kc->gsz[g];

    /* parameter sets with their leading dimensions resolved */
    spec *sp = (spec *)xcalloc((size_t)ns, sizeof(spec));
    for (int g = 0; g < ns; g++) {
        sp[g] = kc->sp[g];
        for (int o = 0; o < NOPD; o++) sp[g].ld[o] = (int)ld_of(op, &sp[g], o, layout) + kc->sp[g].ld[o];
    }
    int *ps = (int *)xcalloc((size_t)count, sizeof(int)); /* parameter set of each problem */
    for (int g = 0, i = 0; g < ns; g++)
        for (int x = 0; x < kc->gsz[g]; x++) ps[i++] = g;

    /* one buffer per operand, problems stride[o] apart (gaps included) */
    int64_t stride[NOPD] = {0, 0, 0}, len[NOPD];
    T *buf[NOPD] = {NULL, NULL, NULL}, *save[NOPD] = {NULL, NULL, NULL};
    for (int o = 0; o < NOPD; o++) {
        if (!present(op, o)) continue;
        for (int g = 0; g < ns; g++) {
            int r, c;
            dims(op, &sp[g], o, &r, &c);
            int64_t f = tu_foot(sp[g].ld[o], layout, r, c);
            if (f > stride[o]) stride[o] = f;
        }
        stride[o] += GAP + o;
        len[o] = (int64_t)count * stride[o] + 1;
        buf[o] = tu_alloc(count, stride[o]);
    }
    for (int i = 0; i < count; i++)
        fill_problem(op, layout, &sp[ps[i]], buf[OA] + i * stride[OA],
                     buf[OB] ? buf[OB] + i * stride[OB] : NULL, buf[OC] ? buf[OC] + i * stride[OC] : NULL);
    for (int o = 0; o < NOPD; o++) {
        if (!buf[o]) continue;
        save[o] = (T *)xcalloc((size_t)len[o], sizeof(T));
        memcpy(save[o], buf[o], (size_t)len[o] * sizeof(T));
    }

    /* arguments */
    parr q;
    q.side = (bblas_enum_t *)xcalloc((size_t)ns, sizeof(bblas_enum_t));
    q.uplo = (bblas_enum_t *)xcalloc((size_t)ns, sizeof(bblas_enum_t));
    q.trans = (bblas_enum_t *)xcalloc((size_t)ns, sizeof(bblas_enum_t));
    q.transb = (bblas_enum_t *)xcalloc((size_t)ns, sizeof(bblas_enum_t));
    q.diag = (bblas_enum_t *)xcalloc((size_t)ns, sizeof(bblas_enum_t));
    q.m = (int *)xcalloc((size_t)ns, sizeof(int));
    q.n = (int *)xcalloc((size_t)ns, sizeof(int));
    q.k = (int *)xcalloc((size_t)ns, sizeof(int));
    q.lda = (int *)xcalloc((size_t)ns, sizeof(int));
    q.ldb = (int *)xcalloc((size_t)ns, sizeof(int));
    q.ldc = (int *)xcalloc((size_t)ns, sizeof(int));
    q.alpha = (T *)xcalloc((size_t)ns, sizeof(T));
    q.beta = (T *)xcalloc((size_t)ns, sizeof(T));
    q.ralpha = (R *)xcalloc((size_t)ns, sizeof(R));
    q.rbeta = (R *)xcalloc((size_t)ns, sizeof(R));
    for (int g = 0; g < ns; g++) {
        q.side[g] = sp[g].side; q.uplo[g] = sp[g].uplo; q.trans[g] = sp[g].trans;
        q.transb[g] = sp[g].transb; q.diag[g] = sp[g].diag;
        q.m[g] = sp[g].m; q.n[g] = sp[g].n; q.k[g] = sp[g].k;
        q.lda[g] = sp[g].ld[OA]; q.ldb[g] = sp[g].ld[OB]; q.ldc[g] = sp[g].ld[OC];
        q.alpha[g] = tu_T(sp[g].alpha); q.beta[g] = tu_T(sp[g].beta);
        q.ralpha[g] = (R)creal(sp[g].alpha); q.rbeta[g] = (R)creal(sp[g].beta);
    }
    T **ptr[NOPD];
    for (int o = 0; o < NOPD; o++) {
        ptr[o] = (T **)xcalloc((size_t)count, sizeof(T *));
        for (int i = 0; i < count && buf[o]; i++) ptr[o][i] = buf[o] + i * stride[o];
    }
    int *info = (int *)xcalloc((size_t)count + 1, sizeof(int));
    info[0] = BblasErrorsReportAll;

    call(op, form, layout, ns, kc->gsz, count, &q, ptr[OA], ptr[OB], ptr[OC], buf[OA], buf[OB], buf[OC],
         stride, info);

    /* checks */
    char what[400];
    const int oo = out_opd(op);
    for (int i = 0; i <= count; i++) {
        describe(what, sizeof what, op, form, layout, &sp[ps[i > 0 ? i - 1 : 0]]);
        ck_assert_msg(info[i] == 0, "%s: info[%d] = %d (batch of %d)", what, i, info[i], count);
    }
    /* inputs unchanged */
    for (int o = 0; o < NOPD; o++) {
        if (!buf[o] || o == oo) continue;
        describe(what, sizeof what, op, form, layout, &sp[0]);
        ck_assert_msg(memcmp(buf[o], save[o], (size_t)len[o] * sizeof(T)) == 0, "%s: input %c changed", what,
                      "ABC"[o]);
    }
    /* which elements of the output buffer each problem may write */
    unsigned char *mask = (unsigned char *)xcalloc((size_t)len[oo], 1);
    for (int i = 0; i < count; i++) {
        const spec *s = &sp[ps[i]];
        int r, c;
        dims(op, s, oo, &r, &c);
        for (int j = 0; j < c; j++)
            for (int x = 0; x < r; x++)
                if (!is_rk(op) || in_tri(s->uplo, x, j)) mask[i * stride[oo] + tu_idx(s->ld[oo], layout, x, j)] = 1;
    }
    for (int64_t x = 0; x < len[oo]; x++)
        if (!mask[x] && memcmp(&buf[oo][x], &save[oo][x], sizeof(T)) != 0) {
            int i = (int)(x / stride[oo]);
            if (i >= count) i = count - 1;
            describe(what, sizeof what, op, form, layout, &sp[ps[i]]);
            ck_abort_msg("%s: problem %d: %c written outside its %s (offset %lld)", what, i, "ABC"[oo],
                         is_rk(op) ? "uplo triangle" : "matrix", (long long)(x - (int64_t)i * stride[oo]));
        }
    free(mask);

    for (int i = 0; i < count; i++) {
        const spec *s = &sp[ps[i]];
        describe(what, sizeof what, op, form, layout, s);
        const T *A0 = save[OA] + i * stride[OA];
        const T *B0 = save[OB] ? save[OB] + i * stride[OB] : NULL;
        const T *C0 = save[OC] ? save[OC] + i * stride[OC] : NULL;
        const T *Out = buf[oo] + i * stride[oo];
        int r, c;
        dims(op, s, oo, &r, &c);
        ck_assert_msg(tu_padding_untouched(Out, s->ld[oo], layout, r, c), "%s: problem %d: padding of %c written",
                      what, i, "ABC"[oo]);
        double ratio;
        if (op == OP_TRSM) {
            ratio = trsm_ratio(layout, s, A0, B0, Out);
        } else {
            zd *ref = (zd *)xcalloc((size_t)r * c, sizeof(zd));
            double scale = 0, nf = 1, err = 0;
            reference(op, layout, s, A0, B0, C0, ref, &scale, &nf);
            for (int j = 0; j < c; j++)
                for (int x = 0; x < r; x++) {
                    if (is_rk(op) && !in_tri(s->uplo, x, j)) continue;
                    zd e = get(Out, s->ld[oo], layout, x, j) - ref[x + j * r];
                    err += creal(e * conj(e));
                }
            free(ref);
            ratio = tu_ratio(sqrt(err), scale, nf, TU_PREC_ID);
            if (is_herm_rk(op))
                for (int x = 0; x < r; x++)
                    ck_assert_msg(IMAG(Out[tu_idx(s->ld[oo], layout, x, x)]) == 0,
                                  "%s: problem %d: imaginary part of C(%d,%d) not zero", what, i, x, x);
        }
        ck_assert_msg(tu_accept(ratio), "%s: problem %d of %d: error ratio %g", what, i, count, ratio);
    }

    for (int o = 0; o < NOPD; o++) {
        free(buf[o]);
        free(save[o]);
        free(ptr[o]);
    }
    free(q.side); free(q.uplo); free(q.trans); free(q.transb); free(q.diag);
    free(q.m); free(q.n); free(q.k); free(q.lda); free(q.ldb); free(q.ldc);
    free(q.alpha); free(q.beta); free(q.ralpha); free(q.rbeta);
    free(info);
    free(ps);
    free(sp);
}

/* -------------------------------------------------------- option sets */

/* The option combinations of a routine: combo c of ncombo(op). */
static int ncombo(int op)
{
    switch (op) {
    case OP_GEMM: return 9;                      /* transa x transb */
    case OP_SYMM: case OP_HEMM: return 4;        /* side x uplo */
    case OP_TRMM: case OP_TRSM: return 24;       /* side x uplo x trans x diag */
    default: return BB_COMPLEX || is_herm_rk(op) ? 4 : 6; /* uplo x trans (real: N, T, C) */
    }
}

static void set_combo(int op, int c, spec *s)
{
    static const int tr3[3] = {BblasNoTrans, BblasTrans, BblasConjTrans};
    s->side = BblasLeft; s->uplo = BblasUpper; s->trans = BblasNoTrans;
    s->transb = BblasNoTrans; s->diag = BblasNonUnit;
    c %= ncombo(op);
    switch (op) {
    case OP_GEMM:
        s->trans = tr3[c % 3];
        s->transb = tr3[c / 3];
        break;
    case OP_SYMM: case OP_HEMM:
        s->side = c % 2 ? BblasRight : BblasLeft;
        s->uplo = c / 2 ? BblasLower : BblasUpper;
        break;
    case OP_TRMM: case OP_TRSM:
        s->side = c % 2 ? BblasRight : BblasLeft;
        s->uplo = (c / 2) % 2 ? BblasLower : BblasUpper;
        s->trans = tr3[(c / 4) % 3];
        s->diag = c / 12 ? BblasUnit : BblasNonUnit;
        break;
    default:
        s->uplo = c % 2 ? BblasLower : BblasUpper;
        if (is_herm_rk(op)) s->trans = c / 2 ? BblasConjTrans : BblasNoTrans;
        else s->trans = tr3[c / 2];
        break;
    }
}

/* Sizes (m, n, k) from 1 to 40, odd and non-square, 47..64, and four
   beyond 64 (the GPU's blocked trsm, blocks of 32 rows with a GEMM between
   two, runs several blocks and chunks there; 129 and 257 end on a block
   of one row).  Each of m, n and k crosses the register kernels' bounds:
   1, 2, 4, 5, 8, 9, 16, 17, 31, 32, 33.  The last two: thin products with
   a k of several chunks of the GPU register gemm's bound (small_gemm.cu). */
static const int sizes[][3] = {
    {5, 3, 7}, {1, 1, 1}, {3, 5, 2}, {8, 8, 8}, {13, 7, 11}, {4, 9, 1}, {17, 16, 5}, {2, 33, 3},
    {37, 6, 40}, {24, 23, 24}, {9, 2, 31}, {1, 12, 6}, {11, 1, 9}, {6, 14, 13}, {31, 29, 4}, {40, 40, 2},
    {70, 45, 3}, {35, 97, 5}, {32, 32, 32}, {16, 4, 17}, {33, 31, 16}, {17, 32, 33}, {4, 17, 32},
    {64, 63, 2}, {47, 64, 9}, {129, 70, 2}, {257, 9, 3}, {3, 20, 75}, {12, 5, 130},
};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

static void set_size(spec *s, int z, int pad)
{
    s->m = sizes[z % NSIZES][0];
    s->n = sizes[z % NSIZES][1];
    s->k = sizes[z % NSIZES][2];
    s->ld[OA] = pad % 3;
    s->ld[OB] = (pad + 1) % 3;
    s->ld[OC] = (pad + 2) % 3 + 1;
}

static void set_scalars(int op, spec *s, int v)
{
    static const double al[][2] = {{0.75, -0.5}, {-1.25, 0.25}, {1.0, 0.0}, {0.5, 1.5}};
    static const double be[][2] = {{-0.5, 0.75}, {1.0, 0.0}, {0.25, -1.0}, {-1.5, 0.5}};
    s->alpha = al[v % 4][0] + (BB_COMPLEX ? al[v % 4][1] : 0.0) * I;
    s->beta = be[v % 4][0] + (BB_COMPLEX ? be[v % 4][1] : 0.0) * I;
    if (op == OP_HERK) s->alpha = creal(s->alpha);
    if (is_herm_rk(op)) s->beta = creal(s->beta);
}

/* ----------------------------------------------------------------- tests */

/* Precision-local routine index of the loop tests: routine of this
   precision number _i (complex-only routines skipped in real precisions). */
static const int real_ops[] = {OP_GEMM, OP_SYMM, OP_SYRK, OP_SYR2K, OP_TRMM, OP_TRSM};
static const int cplx_ops[] = {OP_GEMM, OP_SYMM, OP_HEMM, OP_SYRK, OP_HERK, OP_SYR2K, OP_HER2K, OP_TRMM, OP_TRSM};
#define NOPS_PREC (BB_COMPLEX ? (int)(sizeof cplx_ops / sizeof cplx_ops[0]) : (int)(sizeof real_ops / sizeof real_ops[0]))
static int op_at(int i) { return BB_COMPLEX ? cplx_ops[i] : real_ops[i]; }

/* Every option combination, both layouts, every form, sizes 1..40 with
   padded leading dimensions.  Group form: three groups (options, sizes,
   scalars differ; one group is empty); variable form: four problems, each
   with its own options and sizes. */
START_TEST(test_options_forms)
{
    const int op = op_at(_i);
    tu_seed(1000 + 17 * (uint64_t)op + 101 * TU_PREC_ID);
    int z = 0;
    for (int layout = BblasRowMajor; layout <= BblasColMajor; layout++)
        for (int c = 0; c < ncombo(op); c++)
            for (int form = 0; form < NFORM; form++) {
                spec sp[4];
                int gsz[4];
                kase kc = {op, form, layout, 1, sp, gsz};
                memset(sp, 0, sizeof sp);
                if (form == F_FIXED || form == F_STRIDED) {
                    set_combo(op, c, &sp[0]);
                    set_size(&sp[0], z++, c + form);
                    set_scalars(op, &sp[0], c + form);
                    gsz[0] = 3;
                } else {
                    kc.nspec = form == F_GROUP ? 3 : 4;
                    for (int g = 0; g < kc.nspec; g++) {
                        set_combo(op, c + g * 5, &sp[g]);
                        set_size(&sp[g], z++, c + g);
                        set_scalars(op, &sp[g], c + g);
                        gsz[g] = form == F_GROUP ? (g == 1 ? 0 : g + 1) : 1;
                    }
                }
                run(&kc);
            }
}
END_TEST

/* Sizes around 70, past the crossovers into the OpenBLAS path: every
   option combination, both layouts, fixed and group forms. */
START_TEST(test_large)
{
    const int op = op_at(_i);
    tu_seed(2000 + 17 * (uint64_t)op + 101 * TU_PREC_ID);
    for (int c = 0; c < ncombo(op); c++) {
        int layout = c % 2 ? BblasRowMajor : BblasColMajor, form = (c / 2) % 2 ? F_GROUP : F_FIXED;
        spec sp[2];
        int gsz[2] = {1, 1};
        memset(sp, 0, sizeof sp);
        for (int g = 0; g < 2; g++) {
            set_combo(op, c + g, &sp[g]);
            sp[g].m = 70 - 3 * g;
            sp[g].n = 67 + 5 * g;
            sp[g].k = 72 - 2 * g;
            sp[g].ld[OA] = 1; sp[g].ld[OB] = 2; sp[g].ld[OC] = 3;
            set_scalars(op, &sp[g], c + g);
        }
        kase kc = {op, form, layout, form == F_GROUP ? 2 : 1, sp, gsz};
        run(&kc);
    }
}
END_TEST

/* beta == 0 with NaN in C; alpha == 0 with NaN in A and B (trmm/trsm: B
   becomes zero); both zero; alpha == 1 with beta 0 (NaN in C) and 1 (the
   CPU gemm's LIBXSMM path); every form and layout, a few sizes. */
START_TEST(test_special_scalars)
{
    const int op = op_at(_i);
    tu_seed(3000 + 17 * (uint64_t)op + 101 * TU_PREC_ID);
    static const double cases[][2] = {{0.75, 0.0}, {0.0, 0.5}, {0.0, 0.0}, {-1.0, 1.0}, /* alpha, beta */
                                      {1.0, 0.0}, {1.0, 1.0}};
    int z = 0;
    for (int v = 0; v < 6; v++) {
        if (!has_beta(op) && v != 2) continue; /* trmm/trsm: alpha == 0 only */
        for (int layout = BblasRowMajor; layout <= BblasColMajor; layout++)
            for (int form = 0; form < NFORM; form++) {
                spec sp[2];
                int gsz[2] = {2, 1};
                memset(sp, 0, sizeof sp);
                int ns = form == F_GROUP ? 2 : form == F_VAR ? 2 : 1;
                for (int g = 0; g < ns; g++) {
                    set_combo(op, z + 3 * g, &sp[g]);
                    set_size(&sp[g], z++, g);
                    sp[g].alpha = cases[v][0];
                    sp[g].beta = v == 3 ? 0.0 : cases[v][1]; /* v == 3: beta 0, general alpha */
                    if (v == 3) sp[g].alpha = BB_COMPLEX && op != OP_HERK ? 0.5 - 1.0 * I : -1.0;
                }
                if (form == F_VAR) gsz[0] = 1;
                if (form == F_FIXED || form == F_STRIDED) gsz[0] = 3;
                kase kc = {op, form, layout, ns, sp, gsz};
                run(&kc);
            }
    }
}
END_TEST

/* Zero sizes (each dimension in turn, and mixed with nonzero problems in
   the group and variable forms): nothing is read or written except
   C = beta*C when only k is zero. */
START_TEST(test_zero_sizes)
{
    const int op = op_at(_i);
    tu_seed(4000 + 17 * (uint64_t)op + 101 * TU_PREC_ID);
    for (int layout = BblasRowMajor; layout <= BblasColMajor; layout++)
        for (int zd_ = 0; zd_ < 3; zd_++) /* which of m, n, k is zero */
            for (int form = 0; form < NFORM; form++) {
                spec sp[3];
                int gsz[3] = {2, 1, 1};
                memset(sp, 0, sizeof sp);
                int ns = (form == F_GROUP || form == F_VAR) ? 3 : 1;
                for (int g = 0; g < ns; g++) {
                    set_combo(op, zd_ + 2 * g, &sp[g]);
                    set_size(&sp[g], zd_ + g, g);
                    set_scalars(op, &sp[g], g);
                    if (g == 0 || g == 2) { /* group/problem 1 stays nonzero */
                        if (zd_ == 0) sp[g].m = 0;
                        if (zd_ == 1) sp[g].n = 0;
                        if (zd_ == 2) sp[g].k = 0;
                    }
                }
                if (form == F_VAR) gsz[0] = 1;
                if (form == F_FIXED || form == F_STRIDED) gsz[0] = 2;
                kase kc = {op, form, layout, ns, sp, gsz};
                run(&kc);
            }
}
END_TEST

/* A small triangle, symmetric matrix or C beside a long free dimension
   (the k of the rank-k updates, the other side of B and C of trmm/symm):
   the GPU register kernels loop over it in chunks inside one launch, with
   a last partial chunk.  Every option combination, both layouts (row-major
   swaps the sides), fixed and group forms. */
START_TEST(test_free_dim)
{
    const int op = op_at(_i);
    if (op == OP_GEMM || op == OP_TRSM) return;
    tu_seed(5000 + 17 * (uint64_t)op + 101 * TU_PREC_ID);
    /* (order of the triangle / C, free dimension) */
    static const int fs[][2] = {{5, 70}, {7, 75}, {31, 45}, {16, 33}, {2, 40}, {9, 70}};
    int z = 0;
    for (int layout = BblasRowMajor; layout <= BblasColMajor; layout++)
        for (int c = 0; c < ncombo(op); c++) {
            const int form = c % 2 ? F_GROUP : F_FIXED;
            spec sp[2];
            int gsz[2] = {2, 1};
            memset(sp, 0, sizeof sp);
            for (int g = 0; g < 2; g++) {
                const int t = fs[z % 6][0], f = fs[z % 6][1];
                z++;
                set_combo(op, c + 3 * g, &sp[g]);
                if (is_rk(op)) {
                    sp[g].n = t;
                    sp[g].k = f;
                    sp[g].m = t;
                } else if (sp[g].side == BblasLeft) {
                    sp[g].m = t;
                    sp[g].n = f;
                    sp[g].k = t;
                } else {
                    sp[g].m = f;
                    sp[g].n = t;
                    sp[g].k = t;
                }
                sp[g].ld[OA] = g;
                sp[g].ld[OB] = 1 - g;
                sp[g].ld[OC] = 2;
                set_scalars(op, &sp[g], c + g);
            }
            kase kc = {op, form, layout, form == F_GROUP ? 2 : 1, sp, gsz};
            run(&kc);
        }
}
END_TEST

/* Empty batch: batch_size 0 (group_count 0) with NULL arrays is a no-op
   reporting info[0] == 0, in every form. */
START_TEST(test_empty_batch)
{
    const int op = op_at(_i);
    for (int layout = BblasRowMajor; layout <= BblasColMajor; layout++)
        for (int form = 0; form < NFORM; form++) {
            int info[1] = {BblasErrorsReportAll};
            /* group and variable forms: every array NULL; fixed and
               strided forms: valid scalars (read by the call itself) */
            bblas_enum_t side[1] = {BblasLeft}, uplo[1] = {BblasUpper}, tr[1] = {BblasNoTrans};
            bblas_enum_t diag[1] = {BblasNonUnit};
            int one[1] = {1};
            T t[1] = {0};
            R r[1] = {0};
            parr q;
            memset(&q, 0, sizeof q);
            if (form == F_FIXED || form == F_STRIDED) {
                q.side = side; q.uplo = uplo; q.trans = q.transb = tr; q.diag = diag;
                q.m = q.n = q.k = q.lda = q.ldb = q.ldc = one;
                q.alpha = q.beta = t;
                q.ralpha = q.rbeta = r;
            }
            int64_t st[NOPD] = {1, 1, 1};
            call(op, form, layout, 0, NULL, 0, &q, NULL, NULL, NULL, NULL, NULL, NULL, st, info);
            ck_assert_msg(info[0] == 0, "%s%s_%s %s: empty batch gives info[0] = %d", TU_PNAME, op_name[op],
                          form_name[form], tu_layout_name(layout), info[0]);
        }
}
END_TEST

/* trsm at the CPU's across-problems bound (16, src/cpu/across.c): batches
   of 35 problems (full blocks of V lanes, V = 2..8 doubles or 4..16 floats, and a partial
   one), every option combination, both layouts, the fixed and strided
   forms, m and n from 1 to 17 (odd sizes, each with the other size cycling
   through 1..17), padded leading dimensions, alpha cycling (never 0). */
START_TEST(test_trsm_across)
{
    const int layout = _i % 2 ? BblasRowMajor : BblasColMajor, form = _i / 2 ? F_STRIDED : F_FIXED;
    tu_seed(4000 + 7 * (uint64_t)_i + 101 * TU_PREC_ID);
    int z = 0;
    for (int c = 0; c < ncombo(OP_TRSM); c++)
        for (int m = 1 + c % 2; m <= 17; m += 2) {
            spec sp[1];
            int gsz[1] = {35};
            memset(sp, 0, sizeof sp);
            set_combo(OP_TRSM, c, &sp[0]);
            sp[0].m = m;
            sp[0].n = 1 + (m * 7 + c) % 17;
            sp[0].k = 1;
            sp[0].ld[OA] = z % 3;
            sp[0].ld[OB] = (z + 1) % 3;
            set_scalars(OP_TRSM, &sp[0], z++);
            kase kc = {OP_TRSM, form, layout, 1, sp, gsz};
            run(&kc);
        }
}
END_TEST

/* syrk and trmm at the CPU's across-problems bounds (src/cpu/across.c,
   cpu_policy.h) as test_trsm_across: batches of 35 problems, every option
   combination, both layouts, the fixed and strided forms, the sizes from 1
   to 17 (syrk: n odd and k cycling, or the reverse; trmm: m and n), padded
   leading dimensions; alpha cycling, with 0 now and then, syrk's beta too
   (C then NaN: not to be read).  Loop index: routine _i / 4, layout _i % 2,
   form (_i / 2) % 2. */
START_TEST(test_syrk_trmm_across)
{
    const int op = _i / 4 ? OP_TRMM : OP_SYRK;
    const int layout = _i % 2 ? BblasRowMajor : BblasColMajor, form = (_i / 2) % 2 ? F_STRIDED : F_FIXED;
    tu_seed(5000 + 7 * (uint64_t)_i + 101 * TU_PREC_ID);
    int z = 0;
    for (int c = 0; c < ncombo(op); c++)
        for (int m = 1 + c % 2; m <= 17; m += 2) {
            spec sp[1];
            int gsz[1] = {35};
            memset(sp, 0, sizeof sp);
            set_combo(op, c, &sp[0]);
            const int other = 1 + (m * 7 + c) % 17;
            if (op == OP_SYRK) { /* n odd, k cycling; every other combination the reverse */
                sp[0].n = c / 2 % 2 ? other : m;
                sp[0].k = c / 2 % 2 ? m : other;
                sp[0].m = sp[0].n;
            } else {
                sp[0].m = m;
                sp[0].n = other;
                sp[0].k = 1;
            }
            sp[0].ld[OA] = z % 3;
            sp[0].ld[OB] = (z + 1) % 3;
            sp[0].ld[OC] = (z + 2) % 3;
            set_scalars(op, &sp[0], z);
            if (z % 11 == 10) sp[0].alpha = 0;
            if (op == OP_SYRK && z % 3 == 2) sp[0].beta = 0;
            z++;
            kase kc = {op, form, layout, 1, sp, gsz};
            run(&kc);
        }
}
END_TEST

/* Variable batches whose sizes cross every bound of the GPU's kernels
   (the register bound 16/32, the driver's blocks of it, the tensor-core
   tiles of 64): every routine, every option combination (the layout
   alternating), eleven problems with the same options and scalars (one
   class launch of the variable-size driver), orders 1 .. 150 beside free
   dimensions 1 .. 129, padded leading dimensions; every fifth combination
   with alpha = 0. */
START_TEST(test_var_big)
{
    const int op = op_at(_i);
    tu_seed(6000 + 17 * (uint64_t)op + 101 * TU_PREC_ID);
    enum { NP = 11 };
    static const int ord[NP] = {1, 2, 31, 32, 33, 63, 64, 65, 127, 129, 150};
    static const int fr[NP] = {40, 1, 65, 7, 33, 100, 2, 31, 64, 17, 129};
    for (int c = 0; c < ncombo(op); c++) {
        const int layout = ((c >> 1) ^ c) & 1 ? BblasRowMajor : BblasColMajor;
        spec sp[NP];
        int gsz[NP];
        memset(sp, 0, sizeof sp);
        for (int g = 0; g < NP; g++) {
            const int t = ord[(g + c) % NP], f = fr[(g + 2 * c) % NP];
            set_combo(op, c, &sp[g]);
            if (op == OP_GEMM) {
                sp[g].m = t, sp[g].n = f, sp[g].k = ord[(g + 3 * c + 5) % NP];
            } else if (is_rk(op)) {
                sp[g].m = sp[g].n = t, sp[g].k = f;
            } else if (sp[g].side == BblasLeft) {
                sp[g].m = sp[g].k = t, sp[g].n = f;
            } else {
                sp[g].n = sp[g].k = t, sp[g].m = f;
            }
            sp[g].ld[OA] = g % 3;
            sp[g].ld[OB] = (g + 1) % 3;
            sp[g].ld[OC] = (g + 2) % 3;
            set_scalars(op, &sp[g], c);
            if (c % 5 == 4) sp[g].alpha = 0;
            gsz[g] = 1;
        }
        kase kc = {op, F_VAR, layout, NP, sp, gsz};
        run(&kc);
    }
}
END_TEST

/* An Inf in B reaches only the rows solved after it, as BLAS solves
   (reference dtrsm): left trsm, lower (forward) and upper (backward),
   unit and non-unit, orders that cross the GPU's blocks of 16 and 32
   (its on-chip trsm multiplies by inverted diagonal blocks, whose zeros
   would turn the Inf into NaN in the rows solved before it, and the LU's
   update would take that for a NaN pivot: test_isolation); column-major,
   strided, three problems, 5 right-hand sides, the Inf in column 2 at a
   row that ends, starts or sits inside a block.  The rows solved before
   it must match a plain substitution, the rest must not be finite. */
START_TEST(test_trsm_inf_rhs)
{
    static const int orders[] = {40, 64, 100, 129};
    const int m = orders[_i % 4], lower = _i / 4 % 2, unit = _i / 8, n = 5, cnt = 3, lda = m + 3, ldb = m + 1;
    const int at[] = {m - 1, 31, 47, m / 2 + 1};
    tu_seed(6000 + 13 * (uint64_t)_i + 101 * TU_PREC_ID);
    const int64_t sa = (int64_t)lda * m, sb = (int64_t)ldb * n;
    T *A = malloc(sa * cnt * sizeof(T)), *B = malloc(sb * cnt * sizeof(T)), *B0 = malloc(sb * cnt * sizeof(T));
    ck_assert(A && B && B0);
    for (int64_t e = 0; e < sa * cnt; e++) A[e] = tu_rand_T();
    for (int p = 0; p < cnt; p++)
        for (int i = 0; i < m; i++) A[p * sa + i + (int64_t)i * lda] = tu_T(m + tu_rand());
    for (int64_t e = 0; e < sb * cnt; e++) B[e] = tu_rand_T();
    for (int p = 0; p < cnt; p++) {
        const int r = at[(p + _i) % 4] % m;
        B[p * sb + r + 2 * ldb] = tu_T(INFINITY);
    }
    memcpy(B0, B, sb * cnt * sizeof(T));
    int info[1] = {BblasErrorsReportAny};
    BB_PUB(blas, trsm, batch_strided)(BblasColMajor, BblasLeft, lower ? BblasLower : BblasUpper, BblasNoTrans,
                                      unit ? BblasUnit : BblasNonUnit, m, n, tu_T(1.0), A, lda, sa, B, ldb, sb,
                                      cnt, info);
    ck_assert_int_eq(info[0], 0);
    const double tol = TU_PREC_ID % 2 ? 1e-11 : 1e-4;
    zd *x = malloc(m * sizeof *x);
    for (int p = 0; p < cnt; p++) {
        const int r = at[(p + _i) % 4] % m;
        const T *a = A + p * sa, *b0 = B0 + p * sb, *b = B + p * sb;
        for (int j = 0; j < n; j++) {
            /* the rows solved before the Inf (all of them outside column 2) */
            const int lo = j != 2 ? 0 : lower ? 0 : r + 1, hi = j != 2 ? m : lower ? r : m;
            double big = 0.0, err = 0.0;
            for (int s2 = 0; s2 < hi - lo; s2++) {
                const int i = lower ? lo + s2 : hi - 1 - s2;
                zd v = tu_z(b0[i + j * ldb]);
                for (int k = lower ? lo : i + 1; k < (lower ? i : hi); k++) v -= tu_z(a[i + (int64_t)k * lda]) * x[k];
                x[i] = unit ? v : v / tu_z(a[i + (int64_t)i * lda]);
                big = fmax(big, cabs(x[i]));
                err = fmax(err, cabs(tu_z(b[i + j * ldb]) - x[i]));
            }
            ck_assert_msg(err <= tol * (1.0 + big), "%s trsm m %d %s %s problem %d column %d: rows before the Inf "
                          "off by %g", TU_PNAME, m, lower ? "lower" : "upper", unit ? "unit" : "non-unit", p, j, err);
            if (j == 2)
                for (int i = lower ? r : 0; i < (lower ? m : r + 1); i++) {
                    const zd v = tu_z(b[i + j * ldb]);
                    ck_assert_msg(!(isfinite(creal(v)) && isfinite(cimag(v))), "%s trsm m %d: row %d after the Inf "
                                  "(row %d) finite", TU_PNAME, m, i, r);
                }
        }
    }
    free(x);
    free(A);
    free(B);
    free(B0);
}
END_TEST

void X(add_blas3_tests)(Suite *s)
{
    TCase *tc = tcase_create(TU_PNAME "blas3");
    tcase_set_timeout(tc, 120);
    BB_ADD_LOOP(tc, test_options_forms, 0, NOPS_PREC);
    BB_ADD_LOOP(tc, test_large, 0, NOPS_PREC);
    BB_ADD_LOOP(tc, test_special_scalars, 0, NOPS_PREC);
    BB_ADD_LOOP(tc, test_zero_sizes, 0, NOPS_PREC);
    BB_ADD_LOOP(tc, test_free_dim, 0, NOPS_PREC);
    BB_ADD_LOOP(tc, test_empty_batch, 0, NOPS_PREC);
    BB_ADD_LOOP(tc, test_trsm_across, 0, 4);
    BB_ADD_LOOP(tc, test_syrk_trmm_across, 0, 8);
    BB_ADD_LOOP(tc, test_trsm_inf_rhs, 0, 16);
    suite_add_tcase(s, tc);
    TCase *vb = tcase_create("blas3_var_big_" TU_PNAME); /* its own case: a sanitizer run can take it alone */
    tcase_set_timeout(vb, 120);
    BB_ADD_LOOP(vb, test_var_big, 0, NOPS_PREC);
    suite_add_tcase(s, vb);
}
