/*
 * Tests of the LU family (compiled once per precision): getrf, getrfnp,
 * getrs, gesv, getri, getri_oop, gecon and geinv through the public API: every
 * form, both layouts, every trans/norm option, odd sizes up to 41 and 70
 * (beyond most own-code crossovers; 130 and 260 for the solves and gecon,
 * whose own code goes further), non-square getrf/getrfnp, padded
 * leading dimensions, zero sizes, empty batches, and mixed batches whose
 * singular members (a zero column, a NaN, a zero U(k,k)) must report the
 * right k while the others stay exact.
 *
 * References are computed here with plain loops in double complex; residuals
 * are judged with tu_ratio / tu_accept only.  Padding (ld > rows), the gaps
 * between matrices and every read-only operand must keep their bits.
 */
#include <stdio.h>
#include "prec.h"
#include "tu_prec.h"
#include "tests.h"

/* precision for tu_ratio (0 s, 1 d, 2 c, 3 z) */
#if defined(BB_PREC_S)
#  define PREC_ID 0
#elif defined(BB_PREC_D)
#  define PREC_ID 1
#elif defined(BB_PREC_C)
#  define PREC_ID 2
#else
#  define PREC_ID 3
#endif

enum { OP_GETRF, OP_GETRFNP, OP_GETRS, OP_GESV, OP_GETRI, OP_GETRI_OOP, OP_GECON, OP_GEINV, NOP };
static const char *const op_name[NOP] = {"getrf", "getrfnp", "getrs", "gesv",
                                         "getri", "getri_oop", "gecon", "geinv"};
enum { F_GROUP, F_FIXED, F_VAR, F_STRIDED, NFORM };
static const char *const form_name[NFORM] = {"batch", "batchf", "batchv", "batch_strided"};

/* one parameter set, user view; opt: trans (getrs) or norm (gecon); m only
   for getrf/getrfnp (the other routines are n x n) */
typedef struct {
    int opt, m, n, nrhs, lda, ldb;
} pset;

/* defects planted in one problem */
enum {
    D_NONE,
    D_ZEROCOL, /* column c of A is zero: getrf, getrfnp, gesv report c+1 */
    D_NAN,     /* A(r,c) = NaN: getrf, gesv report c+1, getrfnp max(r,c)+1 */
    D_ZEROPIV, /* stored U(c,c) = 0: getri(_oop) report c+1, gecon gives 0 */
    D_ANORM0,  /* gecon: anorm = 0, rcond must be 0 */
    D_ZEROCROSS /* row and column c of A zero: geinv reports c+1 in both
                   layouts (it works on the stored matrix, A^T for row-major) */
};
typedef struct {
    int kind, r, c;
} defect;

typedef struct {
    pset p;
    defect d;
    T *A, *B;       /* the problem's matrices (B: B or Ainv) */
    int *piv;       /* its pivots */
    int64_t fa, fb; /* footprints (elements) */
    T *A0, *B0;     /* the footprints before the call */
    int *piv0;
    zd *M;          /* logical A (rows x n, column-major): the input matrix, or
                       the matrix the input factors are of */
    R *anorm, *rcond;
} prob;

#define GAP 3          /* elements between matrices */
#define PIV_GAP 2      /* ints between pivot vectors */
#define PIV_SENT (-7)  /* pivot sentinel */

static int imin(int a, int b) { return a < b ? a : b; }
static int imax(int a, int b) { return a > b ? a : b; }
static int is_sq(int op) { return op != OP_GETRF && op != OP_GETRFNP; }
static int rows_of(int op, const pset *p) { return is_sq(op) ? p->n : p->m; }
static int has_b(int op) { return op == OP_GETRS || op == OP_GESV || op == OP_GETRI_OOP || op == OP_GEINV; }
static int has_piv(int op) { return op != OP_GETRFNP && op != OP_GECON && op != OP_GEINV; }
static int factors_in(int op)
{
    return op == OP_GETRS || op == OP_GETRI || op == OP_GETRI_OOP || op == OP_GECON;
}
static int piv_len(int op, const pset *p) { return op == OP_GETRF ? imin(p->m, p->n) : p->n; }
static int b_cols(int op, const pset *p) { return op == OP_GETRI_OOP || op == OP_GEINV ? p->n : p->nrhs; }

static const char *opt_name(int op, int opt)
{
    if (op == OP_GETRS) return opt == BblasNoTrans ? "N" : opt == BblasTrans ? "T" : "C";
    if (op == OP_GECON) return opt == BblasOneNorm ? "one" : "inf";
    return "-";
}

static int expected_info(int op, const defect *d)
{
    switch (d->kind) {
    case D_ZEROCOL: case D_ZEROCROSS: return d->c + 1;
    case D_NAN: return op == OP_GETRFNP ? imax(d->r, d->c) + 1 : d->c + 1;
    case D_ZEROPIV: return op == OP_GECON ? 0 : d->c + 1;
    default: return 0;
    }
}

static void set_el(T *A, int64_t ld, int layout, int i, int j, T v) { A[tu_idx(ld, layout, i, j)] = v; }
static zd get_el(const T *A, int64_t ld, int layout, int i, int j) { return tu_z(A[tu_idx(ld, layout, i, j)]); }


/* ---- reference arithmetic (double complex, column-major, ld = rows) ---- */

static double abs1z(zd v) { return fabs(creal(v)) + fabs(cimag(v)); }

static double normf(const zd *X, int64_t len)
{
    double s = 0;
    for (int64_t i = 0; i < len; i++) s += creal(X[i]) * creal(X[i]) + cimag(X[i]) * cimag(X[i]);
    return sqrt(s);
}

/* one norm (inf = 0) or infinity norm (inf = 1) of the r x c X */
static double norm_oi(const zd *X, int r, int c, int inf)
{
    double v = 0;
    if (!inf) {
        for (int j = 0; j < c; j++) {
            double s = 0;
            for (int i = 0; i < r; i++) s += cabs(X[i + (int64_t)j * r]);
            if (s > v) v = s;
        }
    } else {
        for (int i = 0; i < r; i++) {
            double s = 0;
            for (int j = 0; j < c; j++) s += cabs(X[i + (int64_t)j * r]);
            if (s > v) v = s;
        }
    }
    return v;
}

/* LU with partial pivoting of the n x n F in place (test's own, to make
   factors for getrs/getri/gecon) */
static void ref_lu(int n, zd *F, int *ipiv)
{
    for (int k = 0; k < n; k++) {
        int p = k;
        for (int i = k + 1; i < n; i++)
            if (abs1z(F[i + k * n]) > abs1z(F[p + k * n])) p = i;
        ipiv[k] = p + 1;
        for (int j = 0; j < n; j++) {
            zd t = F[k + j * n];
            F[k + j * n] = F[p + j * n];
            F[p + j * n] = t;
        }
        if (F[k + k * n] == 0) continue;
        for (int i = k + 1; i < n; i++) F[i + k * n] /= F[k + k * n];
        for (int j = k + 1; j < n; j++)
            for (int i = k + 1; i < n; i++) F[i + j * n] -= F[i + k * n] * F[k + j * n];
    }
}


/* logical r x c block of a stored matrix */
static zd *block(const T *B, int64_t ld, int layout, int r, int c)
{
    zd *Z = zalloc((int64_t)r * c);
    for (int j = 0; j < c; j++)
        for (int i = 0; i < r; i++) Z[i + (int64_t)j * r] = get_el(B, ld, layout, i, j);
    return Z;
}

/* L*U of the factors stored in an m x n A (L m x min unit lower, U min x n) */
static zd *lu_product(const T *A, int64_t ld, int layout, int m, int n)
{
    int mn = imin(m, n);
    zd *Z = zalloc((int64_t)m * n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            zd s = 0;
            for (int l = 0; l <= imin(imin(i, j), mn - 1); l++) {
                zd lv = l == i ? 1.0 : get_el(A, ld, layout, i, l);
                s += lv * get_el(A, ld, layout, l, j);
            }
            Z[i + (int64_t)j * m] = s;
        }
    return Z;
}

static void swap_rows(zd *X, int r, int c, int i, int k)
{
    for (int j = 0; j < c; j++) {
        zd t = X[i + (int64_t)j * r];
        X[i + (int64_t)j * r] = X[k + (int64_t)j * r];
        X[k + (int64_t)j * r] = t;
    }
}

/* Z (n x c) = op(A) X with A n x n; op 0 N, 1 T, 2 C */
static void op_mul(int n, int c, const zd *A, int op, const zd *Xm, zd *Z)
{
    for (int j = 0; j < c; j++)
        for (int i = 0; i < n; i++) {
            zd s = 0;
            for (int l = 0; l < n; l++) {
                zd a = op == 0 ? A[i + (int64_t)l * n] : A[l + (int64_t)i * n];
                if (op == 2) a = conj(a);
                s += a * Xm[l + (int64_t)j * n];
            }
            Z[i + (int64_t)j * n] = s;
        }
}

/* ---- problem set-up ---- */

static void make_problem(int op, int layout, prob *q)
{
    const pset *p = &q->p;
    int m = rows_of(op, p), n = p->n;
    int64_t lda = p->lda;
    q->M = zalloc((int64_t)m * n);
    zd *M = q->M;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) M[i + (int64_t)j * m] = tu_z(tu_rand_T());
    if (op == OP_GETRFNP) /* diagonally dominant: no pivoting needed */
        for (int i = 0; i < imin(m, n); i++) M[i + (int64_t)i * m] += 2.0 * imax(m, n);
    if (q->d.kind == D_ZEROCOL || q->d.kind == D_ZEROCROSS)
        for (int i = 0; i < m; i++) M[i + (int64_t)q->d.c * m] = 0;
    if (q->d.kind == D_ZEROCROSS)
        for (int j = 0; j < n; j++) M[q->d.c + (int64_t)j * m] = 0;
    if (q->d.kind == D_NAN) M[q->d.r + (int64_t)q->d.c * m] = NAN;

    if (!factors_in(op)) {
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++) set_el(q->A, lda, layout, i, j, tu_T(M[i + (int64_t)j * m]));
        for (int j = 0; j < n; j++) /* exactly what is stored */
            for (int i = 0; i < m; i++) M[i + (int64_t)j * m] = get_el(q->A, lda, layout, i, j);
    } else if (n > 0) {
        int *ip = (int *)malloc(sizeof(int) * (size_t)n);
        ck_assert_ptr_nonnull(ip);
        ref_lu(n, M, ip);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) set_el(q->A, lda, layout, i, j, tu_T(M[i + (int64_t)j * n]));
        if (q->d.kind == D_ZEROPIV) set_el(q->A, lda, layout, q->d.c, q->d.c, 0);
        for (int k = 0; k < n; k++) q->piv[k] = ip[k];
        /* M := P^T L U of the stored factors */
        free(q->M);
        q->M = M = lu_product(q->A, lda, layout, n, n);
        for (int k = n - 1; k >= 0; k--)
            if (ip[k] - 1 != k) swap_rows(M, n, n, k, ip[k] - 1);
        free(ip);
    }
    if (op == OP_GETRS || op == OP_GESV) tu_fill(q->B, p->ldb, layout, n, p->nrhs);
    if (op == OP_GECON) {
        double an = norm_oi(M, n, n, p->opt == BblasInfNorm);
        *q->anorm = q->d.kind == D_ANORM0 ? 0 : (R)an;
        *q->rcond = (R)TU_SENTINEL;
    }

    q->A0 = (T *)malloc(sizeof(T) * (size_t)q->fa);
    ck_assert_ptr_nonnull(q->A0);
    memcpy(q->A0, q->A, sizeof(T) * (size_t)q->fa);
    if (has_b(op)) {
        q->B0 = (T *)malloc(sizeof(T) * (size_t)q->fb);
        ck_assert_ptr_nonnull(q->B0);
        memcpy(q->B0, q->B, sizeof(T) * (size_t)q->fb);
    }
    if (has_piv(op)) {
        int np = piv_len(op, p) + PIV_GAP;
        q->piv0 = (int *)malloc(sizeof(int) * (size_t)np);
        ck_assert_ptr_nonnull(q->piv0);
        memcpy(q->piv0, q->piv, sizeof(int) * (size_t)np);
    }
}

/* ---- checks ---- */

static int same(const void *x, const void *y, size_t bytes) { return memcmp(x, y, bytes) == 0; }

static void verify(int op, int form, int layout, const prob *q, int idx, int info)
{
    const pset *p = &q->p;
    int m = rows_of(op, p), n = p->n, nrhs = p->nrhs, mn = imin(m, n);
    int expect = expected_info(op, &q->d);
    char where[240];
    snprintf(where, sizeof where,
             "%s%s_%s %s opt=%s m=%d n=%d nrhs=%d lda=%d ldb=%d defect=%d(%d,%d) (problem %d)", TU_PNAME,
             op_name[op], form_name[form], tu_layout_name(layout), opt_name(op, p->opt), m, n, nrhs,
             p->lda, p->ldb, q->d.kind, q->d.r, q->d.c, idx);

    ck_assert_msg(info == expect, "%s: info %d, expected %d", where, info, expect);

    /* operands that must keep their bits; padding of written ones */
    int a_read_only = (factors_in(op) && !(op == OP_GETRI && expect == 0)) || op == OP_GEINV;
    /* (an empty matrix has a footprint of one element: nothing may change) */
    if (a_read_only || m == 0 || n == 0)
        ck_assert_msg(same(q->A, q->A0, sizeof(T) * (size_t)q->fa), "%s: A was written", where);
    else
        ck_assert_msg(tu_padding_untouched(q->A, p->lda, layout, m, n), "%s: A padding written", where);
    if (has_b(op)) {
        int bc = b_cols(op, p);
        if (expect != 0 || n == 0 || bc == 0)
            ck_assert_msg(same(q->B, q->B0, sizeof(T) * (size_t)q->fb), "%s: B written (info %d)", where, info);
        else
            ck_assert_msg(tu_padding_untouched(q->B, p->ldb, layout, n, bc), "%s: B padding written", where);
    }
    if (has_piv(op)) {
        int np = piv_len(op, p);
        if (op == OP_GETRF || op == OP_GESV) {
            for (int k = 0; k < np; k++)
                ck_assert_msg(q->piv[k] >= k + 1 && q->piv[k] <= m, "%s: ipiv[%d] = %d out of range", where, k,
                              q->piv[k]);
            ck_assert_msg(q->piv[np] == PIV_SENT && q->piv[np + 1] == PIV_SENT, "%s: written past ipiv", where);
        } else {
            ck_assert_msg(same(q->piv, q->piv0, sizeof(int) * (size_t)(np + PIV_GAP)), "%s: ipiv was written",
                          where);
        }
    }

    double ratio;
    switch (op) {
    case OP_GETRF: case OP_GETRFNP: case OP_GESV: {
        if (mn == 0 || q->d.kind == D_NAN) break;
        /* P A - L U (the factorisation is complete also after a zero pivot) */
        zd *PA = zalloc((int64_t)m * n);
        memcpy(PA, q->M, sizeof(zd) * (size_t)m * n);
        if (op != OP_GETRFNP)
            for (int k = 0; k < mn; k++) swap_rows(PA, m, n, k, q->piv[k] - 1);
        zd *LU = lu_product(q->A, p->lda, layout, m, n);
        for (int64_t x = 0; x < (int64_t)m * n; x++) LU[x] -= PA[x];
        ratio = tu_ratio(normf(LU, (int64_t)m * n), normf(q->M, (int64_t)m * n), imax(m, n), PREC_ID);
        ck_assert_msg(tu_accept(ratio), "%s: ||P A - L U|| ratio %g", where, ratio);
        free(PA);
        free(LU);
        if (op != OP_GESV || expect || nrhs == 0) break;
    }
        /* fall through */ /* (gesv also solves) */
    case OP_GETRS: {
        if (n == 0 || nrhs == 0) break;
        int o = op == OP_GESV || p->opt == BblasNoTrans ? 0 : p->opt == BblasTrans ? 1 : 2;
        zd *Xs = block(q->B, p->ldb, layout, n, nrhs), *B0 = block(q->B0, p->ldb, layout, n, nrhs);
        zd *Rz = zalloc((int64_t)n * nrhs);
        op_mul(n, nrhs, q->M, o, Xs, Rz);
        for (int64_t x = 0; x < (int64_t)n * nrhs; x++) Rz[x] -= B0[x];
        ratio = tu_ratio(normf(Rz, (int64_t)n * nrhs),
                         normf(q->M, (int64_t)n * n) * normf(Xs, (int64_t)n * nrhs), n, PREC_ID);
        ck_assert_msg(tu_accept(ratio), "%s: ||op(A) X - B|| ratio %g", where, ratio);
        free(Xs); free(B0); free(Rz);
        break;
    }
    case OP_GETRI: case OP_GETRI_OOP: case OP_GEINV: {
        if (expect) {
            if (op != OP_GETRI)
                ck_assert_msg(tu_untouched(q->B, q->fb), "%s: Ainv written for a singular member", where);
            break;
        }
        if (n == 0) break;
        zd *Ai = op == OP_GETRI ? block(q->A, p->lda, layout, n, n) : block(q->B, p->ldb, layout, n, n);
        zd *Z = zalloc((int64_t)n * n);
        op_mul(n, n, q->M, 0, Ai, Z);
        for (int i = 0; i < n; i++) Z[i + (int64_t)i * n] -= 1.0;
        ratio = tu_ratio(normf(Z, (int64_t)n * n), normf(q->M, (int64_t)n * n) * normf(Ai, (int64_t)n * n), n,
                         PREC_ID);
        ck_assert_msg(tu_accept(ratio), "%s: ||A inv(A) - I|| ratio %g", where, ratio);
        free(Ai); free(Z);
        break;
    }
    case OP_GECON: {
        double rc = *q->rcond;
        ck_assert_msg(!isnan(rc), "%s: rcond is NaN", where);
        if (n == 0) {
            ck_assert_msg(rc == 1, "%s: rcond %g for n = 0, expected 1", where, rc);
            break;
        }
        if (q->d.kind == D_ZEROPIV || q->d.kind == D_ANORM0) {
            ck_assert_msg(rc == 0, "%s: rcond %g, expected 0", where, rc);
            break;
        }
        zd *Ai = zalloc((int64_t)n * n);
        ck_assert_msg(ref_inv(n, q->M, Ai), "%s: test matrix singular", where);
        int inf = p->opt == BblasInfNorm;
        double truth = 1.0 / (norm_oi(q->M, n, n, inf) * norm_oi(Ai, n, n, inf));
        ck_assert_msg(rc >= truth / 10 && rc <= truth * 10, "%s: rcond %g, true %g (not within a factor 10)",
                      where, rc, truth);
        free(Ai);
        break;
    }
    }
}

/* ---- one batch call ---- */

#define FN(name, form) BB_PUB(lapack, name, form)

static void call(int op, int form, int layout, int ng, const int *gs, const pset *gp, int count, prob *q,
                 T *baseA, int64_t sa, T *baseB, int64_t sb, int *baseP, int64_t sp, R *xv, R *yv, int *info)
{
    int np = form == F_GROUP ? ng : count;
    int *ibuf = malloc(sizeof(int) * 6 * (size_t)(np + 1));
    T **Ap = malloc(sizeof(T *) * (size_t)(count + 1)), **Bp = malloc(sizeof(T *) * (size_t)(count + 1));
    int **Pp = malloc(sizeof(int *) * (size_t)(count + 1));
    ck_assert(ibuf && Ap && Bp && Pp);
    int *O = ibuf, *Mm = O + np + 1, *N = Mm + np + 1, *NR = N + np + 1, *LA = NR + np + 1, *LB = LA + np + 1;
    for (int i = 0; i < np; i++) {
        const pset *p = form == F_GROUP ? &gp[i] : &q[i].p;
        O[i] = p->opt; Mm[i] = p->m; N[i] = p->n; NR[i] = p->nrhs; LA[i] = p->lda; LB[i] = p->ldb;
    }
    for (int i = 0; i < count; i++) { Ap[i] = q[i].A; Bp[i] = q[i].B; Pp[i] = q[i].piv; }
    T **Ak = Ap, **Bk = Bp;
    int **Pk = Pp;
    if (count == 0) { /* empty batch: every array NULL */
        O = Mm = N = NR = LA = LB = NULL;
        Ap = Bp = NULL;
        Pp = NULL;
    }
    T const *const *Ac = (T const *const *)Ap;
    int const *const *Pc = (int const *const *)Pp;
    const pset *g = &gp[0];

    switch (op) {
    case OP_GETRF:
        switch (form) {
        case F_GROUP: FN(getrf, batch)(ng, gs, layout, Mm, N, Ap, LA, Pp, info); break;
        case F_FIXED: FN(getrf, batchf)(count, layout, g->m, g->n, Ap, g->lda, Pp, info); break;
        case F_VAR: FN(getrf, batchv)(count, layout, Mm, N, Ap, LA, Pp, info); break;
        case F_STRIDED:
            FN(getrf, batch_strided)(layout, g->m, g->n, baseA, g->lda, sa, baseP, sp, count, info);
            break;
        }
        break;
    case OP_GETRFNP:
        switch (form) {
        case F_GROUP: FN(getrfnp, batch)(ng, gs, layout, Mm, N, Ap, LA, info); break;
        case F_FIXED: FN(getrfnp, batchf)(count, layout, g->m, g->n, Ap, g->lda, info); break;
        case F_VAR: FN(getrfnp, batchv)(count, layout, Mm, N, Ap, LA, info); break;
        case F_STRIDED: FN(getrfnp, batch_strided)(layout, g->m, g->n, baseA, g->lda, sa, count, info); break;
        }
        break;
    case OP_GETRS:
        switch (form) {
        case F_GROUP: FN(getrs, batch)(ng, gs, layout, O, N, NR, Ac, LA, Pc, Bp, LB, info); break;
        case F_FIXED:
            FN(getrs, batchf)(count, layout, g->opt, g->n, g->nrhs, Ac, g->lda, Pc, Bp, g->ldb, info);
            break;
        case F_VAR: FN(getrs, batchv)(count, layout, O, N, NR, Ac, LA, Pc, Bp, LB, info); break;
        case F_STRIDED:
            FN(getrs, batch_strided)(layout, g->opt, g->n, g->nrhs, baseA, g->lda, sa, baseP, sp, baseB, g->ldb,
                                     sb, count, info);
            break;
        }
        break;
    case OP_GESV:
        switch (form) {
        case F_GROUP: FN(gesv, batch)(ng, gs, layout, N, NR, Ap, LA, Pp, Bp, LB, info); break;
        case F_FIXED: FN(gesv, batchf)(count, layout, g->n, g->nrhs, Ap, g->lda, Pp, Bp, g->ldb, info); break;
        case F_VAR: FN(gesv, batchv)(count, layout, N, NR, Ap, LA, Pp, Bp, LB, info); break;
        case F_STRIDED:
            FN(gesv, batch_strided)(layout, g->n, g->nrhs, baseA, g->lda, sa, baseP, sp, baseB, g->ldb, sb, count,
                                    info);
            break;
        }
        break;
    case OP_GETRI:
        switch (form) {
        case F_GROUP: FN(getri, batch)(ng, gs, layout, N, Ap, LA, Pc, info); break;
        case F_FIXED: FN(getri, batchf)(count, layout, g->n, Ap, g->lda, Pc, info); break;
        case F_VAR: FN(getri, batchv)(count, layout, N, Ap, LA, Pc, info); break;
        case F_STRIDED: FN(getri, batch_strided)(layout, g->n, baseA, g->lda, sa, baseP, sp, count, info); break;
        }
        break;
    case OP_GETRI_OOP:
        switch (form) {
        case F_GROUP: FN(getri_oop, batch)(ng, gs, layout, N, Ac, LA, Pc, Bp, LB, info); break;
        case F_FIXED: FN(getri_oop, batchf)(count, layout, g->n, Ac, g->lda, Pc, Bp, g->ldb, info); break;
        case F_VAR: FN(getri_oop, batchv)(count, layout, N, Ac, LA, Pc, Bp, LB, info); break;
        case F_STRIDED:
            FN(getri_oop, batch_strided)(layout, g->n, baseA, g->lda, sa, baseP, sp, baseB, g->ldb, sb, count,
                                         info);
            break;
        }
        break;
    case OP_GEINV:
        switch (form) {
        case F_GROUP: FN(geinv, batch)(ng, gs, layout, N, Ac, LA, Bp, LB, info); break;
        case F_FIXED: FN(geinv, batchf)(count, layout, g->n, Ac, g->lda, Bp, g->ldb, info); break;
        case F_VAR: FN(geinv, batchv)(count, layout, N, Ac, LA, Bp, LB, info); break;
        case F_STRIDED:
            FN(geinv, batch_strided)(layout, g->n, baseA, g->lda, sa, baseB, g->ldb, sb, count, info);
            break;
        }
        break;
    case OP_GECON:
        switch (form) {
        case F_GROUP: FN(gecon, batch)(ng, gs, layout, O, N, Ac, LA, xv, yv, info); break;
        case F_FIXED: FN(gecon, batchf)(count, layout, g->opt, g->n, Ac, g->lda, xv, yv, info); break;
        case F_VAR: FN(gecon, batchv)(count, layout, O, N, Ac, LA, xv, yv, info); break;
        case F_STRIDED: FN(gecon, batch_strided)(layout, g->opt, g->n, baseA, g->lda, sa, xv, yv, count, info); break;
        }
        break;
    }
    free(ibuf); free(Ak); free(Bk); free(Pk);
}

/*
 * Runs one batch: ng parameter sets gp[g], group g holding gs[g] problems
 * (fixed and strided forms: one set; variable form: one problem per set),
 * defects d[i] per problem (NULL: none).  Every form stores the problems in
 * one buffer per operand, GAP elements (PIV_GAP ints) apart, so writes past
 * a matrix show.
 */
static void run(int op, int form, int layout, int ng, const int *gs, const pset *gp, const defect *d)
{
    int count = 0;
    for (int g = 0; g < ng; g++) count += gs[g];
    prob *q = calloc((size_t)count + 1, sizeof(prob));
    ck_assert_ptr_nonnull(q);
    int64_t sa = 1, sb = 1, sp = 1;
    for (int g = 0, i = 0; g < ng; g++)
        for (int s = 0; s < gs[g]; s++, i++) {
            const pset *p = &gp[g];
            q[i].p = *p;
            if (d) q[i].d = d[i];
            q[i].fa = tu_foot(p->lda, layout, rows_of(op, p), p->n);
            q[i].fb = has_b(op) ? tu_foot(p->ldb, layout, p->n, b_cols(op, p)) : 0;
            if (q[i].fa + GAP > sa) sa = q[i].fa + GAP;
            if (q[i].fb + GAP > sb) sb = q[i].fb + GAP;
            if (piv_len(op, p) + PIV_GAP > sp) sp = piv_len(op, p) + PIV_GAP;
        }
    T *baseA = tu_alloc(count, sa), *baseB = has_b(op) ? tu_alloc(count, sb) : NULL;
    int *baseP = malloc(sizeof(int) * (size_t)(count * sp + 1));
    R *xv = malloc(sizeof(R) * (size_t)(count + 1)), *yv = malloc(sizeof(R) * (size_t)(count + 1));
    ck_assert(baseP && xv && yv);
    for (int64_t x = 0; x < count * sp + 1; x++) baseP[x] = PIV_SENT;
    for (int i = 0; i < count; i++) {
        q[i].A = baseA + i * sa;
        q[i].B = baseB ? baseB + i * sb : NULL;
        q[i].piv = baseP + i * sp;
        q[i].anorm = xv + i;
        q[i].rcond = yv + i;
        make_problem(op, layout, &q[i]);
    }

    int *info = malloc(sizeof(int) * (size_t)(count + 1));
    ck_assert_ptr_nonnull(info);
    info[0] = BblasErrorsReportAll;
    call(op, form, layout, form == F_GROUP ? ng : 1, gs, gp, count, q, baseA, sa, baseB, sb, baseP, sp, xv, yv,
         info);

    int first = 0;
    for (int i = 0; i < count; i++) {
        verify(op, form, layout, &q[i], i, info[1 + i]);
        if (!first) first = info[1 + i];
        ck_assert_msg(tu_untouched(q[i].A + q[i].fa, sa - q[i].fa), "%s%s_%s %s: written past A of problem %d",
                      TU_PNAME, op_name[op], form_name[form], tu_layout_name(layout), i);
        if (has_b(op))
            ck_assert_msg(tu_untouched(q[i].B + q[i].fb, sb - q[i].fb), "%s%s_%s %s: written past B of problem %d",
                          TU_PNAME, op_name[op], form_name[form], tu_layout_name(layout), i);
    }
    ck_assert_msg(info[0] == first, "%s%s_%s %s: info[0] = %d, first problem code %d", TU_PNAME, op_name[op],
                  form_name[form], tu_layout_name(layout), info[0], first);

    for (int i = 0; i < count; i++) {
        free(q[i].A0); free(q[i].B0); free(q[i].piv0); free(q[i].M);
    }
    free(baseA); free(baseB); free(baseP); free(xv); free(yv); free(info); free(q);
}

/* ---- sweeps ---- */

/* sizes: odd up to 41, some even, 49..65 (across the GPU on-chip kernels'
   column bounds 48, 56, 64: mid.cu) and 70 (beyond the own-code
   crossovers) */
static const int sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 21, 25, 29, 31, 32, 33, 37, 41, 49, 56, 63, 64, 65, 70};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))
/* getrf/getrfnp shapes beyond the square ones (m < n and m > n); 300 rows:
   panels of more than 256 rows (two rows per thread in the GPU's register
   panel) */
static const int shapes[][2] = {{1, 4}, {4, 1}, {2, 3}, {3, 2}, {5, 9}, {9, 5}, {13, 20}, {20, 13},
                                {31, 40}, {40, 33}, {45, 70}, {70, 45}, {64, 47}, {47, 64}, {33, 64}, {64, 33},
                                {50, 17}, {17, 50}, {300, 37}};
#define NSHAPES ((int)(sizeof shapes / sizeof shapes[0]))

static const int transes[3] = {BblasNoTrans, BblasTrans, BblasConjTrans};
static const int norms[2] = {BblasOneNorm, BblasInfNorm};

/* parameters: size m x n (square routines: n), option index o, variant v
   (nrhs cycles through tu_nrhs_cycle; leading dimensions alternately tight and padded) */
static pset make_pset(int op, int layout, int m, int n, int o, int v)
{
    pset p;
    p.m = is_sq(op) ? n : m;
    p.n = n;
    p.opt = op == OP_GETRS ? transes[o % 3] : op == OP_GECON ? norms[o % 2] : 0;
    p.nrhs = (op == OP_GETRS || op == OP_GESV) ? tu_nrhs_cycle(n, v) : 0;
    int pad = v % 2 ? 0 : 2;
    int ca = layout == BblasColMajor ? p.m : n; /* what lda counts */
    p.lda = (ca > 0 ? ca : 1) + pad;
    int bc = b_cols(op, &p), cb = layout == BblasColMajor ? n : bc;
    p.ldb = has_b(op) ? (cb > 0 ? cb : 1) + (v % 2 ? 1 : 0) : 0;
    return p;
}

/* the defect a singular member of an m x n problem gets (variant v) */
static defect make_defect(int op, int m, int n, int v)
{
    defect d = {D_NONE, 0, 0};
    int mn = imin(m, n);
    if (mn < 1) return d;
    switch (op) {
    case OP_GEINV: /* singular the same way in A and A^T: a zero cross, a NaN on the diagonal */
        d.kind = v % 2 == 0 ? D_ZEROCROSS : D_NAN;
        d.c = v % 2 == 0 ? mn / 2 : (mn - 1) / 2;
        d.r = d.c;
        break;
    case OP_GETRF: case OP_GETRFNP: case OP_GESV:
        if (v % 2 == 0) {
            d.kind = D_ZEROCOL;
            d.c = mn / 2;
        } else {
            d.kind = D_NAN;
            d.r = (mn - 1) * (v % 3) / 2;
            d.c = (mn - 1) / 2;
        }
        break;
    case OP_GETRI: case OP_GETRI_OOP:
        d.kind = D_ZEROPIV;
        d.c = v % 2 ? mn - 1 : mn / 3;
        break;
    case OP_GECON:
        d.kind = v % 2 ? D_ZEROPIV : D_ANORM0;
        d.c = mn / 2;
        break;
    default:
        break;
    }
    return d;
}

static void sweep(int op, int form, int layout)
{
    int nopt = op == OP_GETRS ? 3 : op == OP_GECON ? 2 : 1;
    int nshape = op == OP_GETRF || op == OP_GETRFNP ? NSHAPES : 0;
    if (form == F_FIXED) {
        /* each size (and shape) with every option: 3 problems, the middle one singular */
        for (int s = 0; s < NSIZES + nshape; s++)
            for (int o = 0; o < nopt; o++) {
                int m = s < NSIZES ? sizes[s] : shapes[s - NSIZES][0];
                int n = s < NSIZES ? sizes[s] : shapes[s - NSIZES][1];
                pset p = make_pset(op, layout, m, n, o, s + o);
                int cnt = 3;
                defect d[3] = {{D_NONE, 0, 0}, make_defect(op, p.m, n, s + o), {D_NONE, 0, 0}};
                run(op, form, layout, 1, &cnt, &p, d);
            }
        /* above every crossover of any precision: the LAPACKE paths of the
           solves (130) and of gecon (260) */
        if (op == OP_GETRS || op == OP_GESV || op == OP_GECON) {
            int nb = op == OP_GECON ? 260 : 130;
            for (int v = 0; v < (op == OP_GECON ? 1 : 2); v++) {
                pset p = make_pset(op, layout, nb, nb, layout == BblasRowMajor, v);
                int cnt = 1;
                run(op, form, layout, 1, &cnt, &p, NULL);
            }
        }
        /* zero sizes */
        for (int z = 0; z < 3; z++) {
            int m = z == 1 ? 3 : 0, n = z == 2 ? 3 : 0;
            if (is_sq(op) && z == 2) { /* nrhs = 0 */
                pset p = make_pset(op, layout, 4, 4, 0, 0);
                p.nrhs = 0;
                int cnt = 2;
                if (op == OP_GETRS || op == OP_GESV) run(op, form, layout, 1, &cnt, &p, NULL);
                continue;
            }
            pset p = make_pset(op, layout, m, n, z, z);
            int cnt = 2;
            run(op, form, layout, 1, &cnt, &p, NULL);
        }
    } else if (form == F_STRIDED) {
        const int ss[4][2] = {{6, 6}, {7, 10}, {10, 7}, {35, 35}};
        for (int s = 0; s < 4; s++)
            for (int o = 0; o < nopt; o++) {
                int m = ss[s][0], n = is_sq(op) ? ss[s][0] : ss[s][1];
                if (is_sq(op) && s == 2) n = m = 70;
                pset p = make_pset(op, layout, m, n, o, s + o);
                int cnt = 4;
                defect d[4] = {{D_NONE, 0, 0}, {D_NONE, 0, 0}, make_defect(op, p.m, n, s), {D_NONE, 0, 0}};
                run(op, form, layout, 1, &cnt, &p, d);
            }
    } else if (form == F_VAR) {
        /* all sizes (and shapes) in one batch, options cycling, every third singular, zero sizes too */
        int nv = NSIZES + nshape + 2;
        pset *p = malloc(sizeof(pset) * (size_t)nv);
        defect *d = malloc(sizeof(defect) * (size_t)nv);
        int *ones = malloc(sizeof(int) * (size_t)nv);
        ck_assert(p && d && ones);
        for (int s = 0; s < nv; s++) {
            int m, n;
            if (s < NSIZES) m = n = sizes[s];
            else if (s < NSIZES + nshape) { m = shapes[s - NSIZES][0]; n = shapes[s - NSIZES][1]; }
            else { m = s % 2 ? 0 : 5; n = s % 2 ? 5 : 0; }
            p[s] = make_pset(op, layout, m, n, s, s);
            if (s == NSIZES + nshape && (op == OP_GETRS || op == OP_GESV)) { /* nrhs = 0 */
                p[s] = make_pset(op, layout, 5, 5, s, s);
                p[s].nrhs = 0;
            }
            d[s] = s % 3 == 1 ? make_defect(op, p[s].m, p[s].n, s) : (defect){D_NONE, 0, 0};
            ones[s] = 1;
        }
        run(op, form, layout, nv, ones, p, d);
        free(p); free(d); free(ones);
    } else { /* groups of different sizes and options, one empty, singular members */
        for (int s = 0; s + 2 < NSIZES; s += 4) {
            pset p[4];
            int gs[4] = {2, 3, 0, 2};
            int m1 = sizes[s], n1 = sizes[s + 1], m2 = sizes[s + 2];
            p[0] = make_pset(op, layout, m1, is_sq(op) ? m1 : n1, 0, s);
            p[1] = make_pset(op, layout, n1, is_sq(op) ? n1 : m2, 1, s + 1);
            p[2] = make_pset(op, layout, m2, m2, 2, s + 2);
            p[3] = make_pset(op, layout, m2, is_sq(op) ? m2 : m1, 2, s + 3);
            defect d[7];
            for (int i = 0; i < 7; i++) d[i] = (defect){D_NONE, 0, 0};
            d[3] = make_defect(op, p[1].m, p[1].n, s);
            d[5] = make_defect(op, p[3].m, p[3].n, s + 1);
            run(op, form, layout, 4, gs, p, d);
        }
    }
}

/*
 * The variable form at the GPU variable-size driver's bounds (panels of 32
 * columns, complex 16, up to 512 rows: src/cuda/vardriver.cu): one batch
 * of sizes 1, 2, 31..33, 63..65, 127..129, 255..257, 512 and shapes with
 * m > n and m < n (getrf, getrfnp), every getrs trans, every third member
 * singular (a zero column or a NaN, in every block position), a zero size;
 * the same for the inverses (getri, getri_oop, geinv) and gecon.
 */
static void var_big(int op, int layout)
{
    static const int ns[] = {33, 1, 64, 129, 2, 257, 31, 65, 128, 512, 32, 255, 63, 127, 256};
    /* m < n: the last panel narrower than a block, the widest row right of it */
    static const int shp[][2] = {{300, 37}, {37, 300}, {512, 129}, {129, 512}, {96, 70}, {0, 40}, {20, 512},
                                 {40, 512}};
    const int nsq = (int)(sizeof ns / sizeof ns[0]), nsh = op == OP_GETRF || op == OP_GETRFNP ? 8 : 0;
    const int nv = nsq + nsh;
    pset p[32];
    defect d[32];
    int ones[32];
    for (int s = 0; s < nv; s++) {
        const int m = s < nsq ? ns[s] : shp[s - nsq][0], n = s < nsq ? ns[s] : shp[s - nsq][1];
        p[s] = make_pset(op, layout, m, n, s, s);
        d[s] = s % 3 == 1 ? make_defect(op, p[s].m, p[s].n, s) : (defect){D_NONE, 0, 0};
        ones[s] = 1;
    }
    run(op, F_VAR, layout, nv, ones, p, d);
}

/* loop index: op (getrf, getrfnp, getrs, gesv, getri, getri_oop, geinv,
   gecon) x layout */
START_TEST(t_var_big)
{
    static const int ops[8] = {OP_GETRF, OP_GETRFNP, OP_GETRS, OP_GESV, OP_GETRI, OP_GETRI_OOP, OP_GEINV, OP_GECON};
    tu_seed(7200 + (uint64_t)_i);
    var_big(ops[_i / 2], _i % 2 ? BblasRowMajor : BblasColMajor);
}
END_TEST

/*
 * Fixed-size batches at the blocked LU's recursion bounds (the GPU's
 * getrf_core, src/cuda/blocked.cu: panels of 32 columns, complex 16,
 * split at powers of two, interchanges deferred up to 1024 rows; double:
 * panels of 64 columns on chip up to 128 rows): n = 65, 100, 127, 128,
 * 129, 255, 256, 257 and, for getrf / getrfnp, shapes with m > n and m < n
 * (a wide matrix's last update, a panel of more than 256 rows, panels on
 * chip of 120 and 90 rows); three problems a size, the middle one singular.
 */
static void fixed_big(int op, int form, int layout)
{
    static const int ns[] = {65, 96, 97, 100, 127, 128, 129, 255, 256, 257};
    static const int shp[][2] = {{300, 129}, {129, 300}, {257, 100}, {100, 257}, {520, 70}, {120, 90}, {90, 120}};
    const int nsq = (int)(sizeof ns / sizeof ns[0]), nsh = op == OP_GETRF || op == OP_GETRFNP ? 7 : 0;
    for (int s = 0; s < nsq + nsh; s++) {
        const int m = s < nsq ? ns[s] : shp[s - nsq][0], n = s < nsq ? ns[s] : shp[s - nsq][1];
        pset p = make_pset(op, layout, m, n, s, s);
        int cnt = 3;
        defect d[3] = {{D_NONE, 0, 0}, make_defect(op, p.m, p.n, s), {D_NONE, 0, 0}};
        run(op, form, layout, 1, &cnt, &p, d);
    }
}

/* loop index: op (getrf, getrfnp, gesv, getri, geinv, getrs: the GPU's
   getrs on chip, trsm_panel.cu) x form (fixed, strided) x layout */
START_TEST(t_fixed_big)
{
    static const int ops[6] = {OP_GETRF, OP_GETRFNP, OP_GESV, OP_GETRI, OP_GEINV, OP_GETRS};
    tu_seed(7300 + (uint64_t)_i);
    fixed_big(ops[_i / 4], (_i / 2) % 2 ? F_STRIDED : F_FIXED, _i % 2 ? BblasRowMajor : BblasColMajor);
}
END_TEST

static void sweep_test(int op, int i)
{
    tu_seed(2000 + 31 * op + i);
    sweep(op, i / 2, i % 2 ? BblasRowMajor : BblasColMajor);
}

/* loop index i: form i / 2, layout i % 2 */
START_TEST(t_getrf) { sweep_test(OP_GETRF, _i); }
END_TEST
START_TEST(t_getrfnp) { sweep_test(OP_GETRFNP, _i); }
END_TEST
START_TEST(t_getrs) { sweep_test(OP_GETRS, _i); }
END_TEST
START_TEST(t_gesv) { sweep_test(OP_GESV, _i); }
END_TEST
START_TEST(t_getri) { sweep_test(OP_GETRI, _i); }
END_TEST
START_TEST(t_getri_oop) { sweep_test(OP_GETRI_OOP, _i); }
END_TEST
START_TEST(t_gecon) { sweep_test(OP_GECON, _i); }
END_TEST
START_TEST(t_geinv) { sweep_test(OP_GEINV, _i); }
END_TEST

/*
 * getrf, getrfnp, getrs, gesv, getri and getri_oop at the CPU's
 * across-problems bound (16, src/cpu/across.c): batches of 35 problems (full blocks of V lanes,
 * V = 2..8 doubles or 4..16 floats, and a partial one), n = 1..17 and 31..33, every
 * trans of getrs, singular members (a zero column, a NaN; getri: a zero
 * U(k,k)) at lanes 1, 9, 17 and 34.  Loop index: op (getrf, getrs, gesv,
 * getri, getri_oop, getrfnp, geinv) x form (fixed, strided) x layout.
 * (geinv from n = V, getri and getri_oop column-major from n = 12: the
 * inverse's column interchanges by the unpacking, session 38.)
 */
static const int across_sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 31, 32, 33};
#define NACROSS ((int)(sizeof across_sizes / sizeof across_sizes[0]))

START_TEST(t_across)
{
    static const int ops[7] = {OP_GETRF, OP_GETRS, OP_GESV, OP_GETRI, OP_GETRI_OOP, OP_GETRFNP, OP_GEINV};
    const int op = ops[_i / 4], form = (_i / 2) % 2 ? F_STRIDED : F_FIXED;
    const int layout = _i % 2 ? BblasRowMajor : BblasColMajor;
    tu_seed(5000 + 13 * (uint64_t)_i);
    for (int s = 0; s < NACROSS; s++)
        for (int o = 0; o < (op == OP_GETRS ? 3 : 1); o++) {
            const int n = across_sizes[s];
            pset p = make_pset(op, layout, n, n, o, n + o);
            int cnt = 35;
            defect d[35];
            for (int i = 0; i < cnt; i++) d[i] = (defect){D_NONE, 0, 0};
            if (op != OP_GETRS) {
                d[1] = make_defect(op, n, n, 0);
                d[9] = make_defect(op, n, n, 1);
                d[17] = make_defect(op, n, n, n);
                d[34] = make_defect(op, n, n, n + 1);
            }
            run(op, form, layout, 1, &cnt, &p, d);
        }
}
END_TEST

/*
 * The pivots of getrf at the across bound: every multiplier |L(i,k)| <= 1
 * (the pivot is the column's largest entry; complex: sqrt(2), the pivot
 * measure being |re| + |im|), a NaN or zero member changes
 * nothing in the others, and every member's factors, pivots and info are
 * bitwise those of the same problem in the variable form (one problem at a
 * time) and alone.  n = 1..17, both layouts, 35 members (every fifth a
 * NaN, every seventh a zero column).
 */
START_TEST(t_across_pivots)
{
    const int layout = _i % 2 ? BblasRowMajor : BblasColMajor;
    tu_seed(6000 + (uint64_t)_i);
    enum { CNT = 35 };
    for (int n = 1; n <= 17; n++) {
        const int lda = n + 1 + _i / 2, sa = lda * n + GAP;
        T *A = tu_alloc(CNT, sa), *Av = tu_alloc(CNT, sa), *A1 = tu_alloc(1, sa);
        int piv[CNT * 17], pivv[CNT * 17], piv1[17], info[CNT + 1], infov[CNT + 1], info1[2];
        for (int i = 0; i < CNT; i++) {
            T *a = A + (int64_t)i * sa;
            tu_fill(a, lda, layout, n, n);
            if (i % 5 == 2) a[tu_idx(lda, layout, (i / 5) % n, (i / 3) % n)] = NAN;
            if (i % 7 == 3)
                for (int r = 0; r < n; r++) a[tu_idx(lda, layout, r, (i / 7) % n)] = 0;
        }
        memcpy(Av, A, sizeof(T) * (size_t)(CNT * sa));
        T *A0 = tu_alloc(CNT, sa);
        memcpy(A0, A, sizeof(T) * (size_t)(CNT * sa));
        info[0] = infov[0] = BblasErrorsReportAll;
        FN(getrf, batch_strided)(layout, n, n, A, lda, sa, piv, n, CNT, info);
        T *pa[CNT];
        int *pp[CNT], vn[CNT], vld[CNT];
        for (int i = 0; i < CNT; i++) {
            pa[i] = Av + (int64_t)i * sa;
            pp[i] = pivv + i * n;
            vn[i] = n;
            vld[i] = lda;
        }
        FN(getrf, batchv)(CNT, layout, vn, vn, pa, vld, pp, infov);
        for (int i = 0; i < CNT; i++) {
            const T *a = A + (int64_t)i * sa;
            char where[120];
            snprintf(where, sizeof where, "%sgetrf %s n=%d lda=%d member %d", TU_PNAME, tu_layout_name(layout), n,
                     lda, i);
            ck_assert_msg(!memcmp(a, Av + (int64_t)i * sa, sizeof(T) * (size_t)sa) &&
                              !memcmp(piv + i * n, pivv + i * n, sizeof(int) * (size_t)n) &&
                              info[1 + i] == infov[1 + i],
                          "%s: strided and variable forms differ", where);
            int nan = 0;
            for (int k = 0; k < n; k++) {
                ck_assert_msg(piv[i * n + k] >= k + 1 && piv[i * n + k] <= n, "%s: ipiv[%d] = %d", where, k,
                              piv[i * n + k]);
                for (int r = k + 1; r < n; r++) {
                    double l = cabs(tu_z(a[tu_idx(lda, layout, r, k)]));
                    nan |= l != l;
                    if (!nan && info[1 + i] == 0)
                        ck_assert_msg(l <= (BB_COMPLEX ? 1.41422 : 1), "%s: |L(%d,%d)| = %g", where, r, k, l);
                }
            }
            ck_assert_msg(i % 5 != 2 || (info[1 + i] > 0 && info[1 + i] <= n), "%s: NaN member info %d", where,
                          info[1 + i]);
            if (i % 7 == 3 && i % 5 != 2)
                ck_assert_msg(info[1 + i] > 0 && info[1 + i] <= (i / 7) % n + 1, "%s: zero column, info %d", where,
                              info[1 + i]);
        }
        /* members alone (a batch of one: a single lane of the block): the same bits */
        for (int i = 1; i < CNT; i += 8) {
            memcpy(A1, A0 + (int64_t)i * sa, sizeof(T) * (size_t)sa);
            T *p1[1] = {A1};
            int *q1[1] = {piv1};
            info1[0] = BblasErrorsReportAll;
            FN(getrf, batchf)(1, layout, n, n, p1, lda, q1, info1);
            ck_assert_msg(!memcmp(A1, A + (int64_t)i * sa, sizeof(T) * (size_t)sa) &&
                              !memcmp(piv1, piv + i * n, sizeof(int) * (size_t)n) && info1[1] == info[1 + i],
                          "%sgetrf %s n=%d member %d: alone differs from the batch", TU_PNAME,
                          tu_layout_name(layout), n, i);
        }
        free(A); free(Av); free(A1); free(A0);
    }
}
END_TEST

/*
 * getri and getri_oop across problems: every member of a strided batch
 * (35 members: full blocks of V lanes, V = 2..8 doubles or 4..16 floats and a partial one)
 * gives bitwise the inverse and info of the same member in the variable
 * form (one problem at a time) and alone, while members hold a NaN in
 * their factors (every fifth: that lane's inverse is garbage, the others'
 * must not change) or an exactly zero U(k,k) (every seventh: info k,
 * nothing written).  Factors from the library's getrf of random matrices;
 * n = 1..17 and 31..33, both layouts, lda > n.  Loop index: op x layout.
 */
/* x and y agree: bitwise for n <= 16 (the across bound: a problem's bits
   never depend on its batch or form there); above it the GPU's blocked
   getri may pick other kernels for another batch or form, so every entry
   within 1e3 eps of the largest (NaN where the other is NaN). */
static int getri_agree(const T *x, const T *y, int64_t len, int n)
{
    if (!memcmp(x, y, sizeof(T) * (size_t)len)) return 1;
    if (n <= 16) return 0;
    double big = 0;
    for (int64_t e = 0; e < len; e++) {
        double v = fabs((double)ABS1(y[e]));
        if (isfinite(v) && v > big && v < 1e30) big = v;
    }
    for (int64_t e = 0; e < len; e++) {
        double a = (double)ABS1(x[e]), b = (double)ABS1(y[e]);
        if (isnan(a) || isnan(b)) {
            if (isnan(a) != isnan(b)) return 0;
            continue;
        }
        if (fabs((double)ABS1(x[e] - y[e])) > 1e3 * tu_eps(TU_PREC_ID) * (big > 1 ? big : 1)) return 0;
    }
    return 1;
}

START_TEST(t_across_getri)
{
    const int oop = _i / 2, layout = _i % 2 ? BblasRowMajor : BblasColMajor;
    tu_seed(6500 + (uint64_t)_i);
    enum { CNT = 35 };
    for (int s = 0; s < NACROSS; s++) {
        const int n = across_sizes[s], lda = n + 2, ldb = n + 1, sa = lda * n + GAP, sb = ldb * n + GAP;
        T *A = tu_alloc(CNT, sa), *Av = tu_alloc(CNT, sa), *A1 = tu_alloc(1, sa);
        T *B = tu_alloc(CNT, sb), *Bv = tu_alloc(CNT, sb), *B1 = tu_alloc(1, sb);
        int *piv = malloc(sizeof(int) * CNT * (size_t)n), info[CNT + 1], infov[CNT + 1], info1[2];
        ck_assert_ptr_nonnull(piv);
        for (int i = 0; i < CNT; i++) tu_fill(A + (int64_t)i * sa, lda, layout, n, n);
        info[0] = BblasErrorsReportAll;
        FN(getrf, batch_strided)(layout, n, n, A, lda, sa, piv, n, CNT, info);
        for (int i = 0; i < CNT; i++) {
            T *a = A + (int64_t)i * sa;
            if (i % 5 == 2) a[tu_idx(lda, layout, (i / 5) % n, (i / 3) % n)] = NAN;
            if (i % 7 == 3) a[tu_idx(lda, layout, (i / 7) % n, (i / 7) % n)] = 0;
        }
        T *A0 = tu_alloc(CNT, sa);
        memcpy(A0, A, sizeof(T) * (size_t)(CNT * sa));
        memcpy(Av, A, sizeof(T) * (size_t)(CNT * sa));
        T *pa[CNT], *pb[CNT];
        const int *pp[CNT];
        int vn[CNT], vla[CNT], vlb[CNT];
        for (int i = 0; i < CNT; i++) {
            pa[i] = Av + (int64_t)i * sa;
            pb[i] = Bv + (int64_t)i * sb;
            pp[i] = piv + i * n;
            vn[i] = n;
            vla[i] = lda;
            vlb[i] = ldb;
        }
        info[0] = infov[0] = BblasErrorsReportAll;
        if (oop) {
            FN(getri_oop, batch_strided)(layout, n, A, lda, sa, piv, n, B, ldb, sb, CNT, info);
            FN(getri_oop, batchv)(CNT, layout, vn, (T const *const *)pa, vla, pp, pb, vlb, infov);
        } else {
            FN(getri, batch_strided)(layout, n, A, lda, sa, piv, n, CNT, info);
            FN(getri, batchv)(CNT, layout, vn, pa, vla, pp, infov);
        }
        for (int i = 0; i < CNT; i++) {
            char where[120];
            snprintf(where, sizeof where, "%s%s %s n=%d member %d", TU_PNAME, oop ? "getri_oop" : "getri",
                     tu_layout_name(layout), n, i);
            const T *a0 = A0 + (int64_t)i * sa;
            int z = 0; /* the first exactly zero U(k,k) */
            for (int k = 0; k < n && !z; k++)
                if (a0[tu_idx(lda, layout, k, k)] == 0) z = k + 1;
            ck_assert_msg(info[1 + i] == z, "%s: info %d, expected %d", where, info[1 + i], z);
            ck_assert_msg(getri_agree(A + (int64_t)i * sa, Av + (int64_t)i * sa, sa, n) &&
                              getri_agree(B + (int64_t)i * sb, Bv + (int64_t)i * sb, sb, n) &&
                              info[1 + i] == infov[1 + i],
                          "%s: strided and variable forms differ", where);
            if (z || oop)
                ck_assert_msg(!memcmp(A + (int64_t)i * sa, a0, sizeof(T) * (size_t)sa), "%s: A written", where);
            if (z || !oop)
                ck_assert_msg(tu_untouched(B + (int64_t)i * sb, sb), "%s: B written", where);
        }
        /* members alone: a batch of one (real precisions: above the bound
           complex getri runs LAPACKE, whose bits here depend on where the
           matrix lies in memory) */
        for (int i = 0; i < CNT && !BB_COMPLEX; i += 3) {
            memcpy(A1, A0 + (int64_t)i * sa, sizeof(T) * (size_t)sa);
            for (int x = 0; x < sb; x++) B1[x] = MAKE_T(TU_SENTINEL, 0);
            T *p1[1] = {A1}, *q1[1] = {B1};
            const int *r1[1] = {piv + i * n};
            info1[0] = BblasErrorsReportAll;
            if (oop)
                FN(getri_oop, batchf)(1, layout, n, (T const *const *)p1, lda, r1, q1, ldb, info1);
            else
                FN(getri, batchf)(1, layout, n, p1, lda, r1, info1);
            ck_assert_msg(getri_agree(A1, A + (int64_t)i * sa, sa, n) &&
                              (!oop || getri_agree(B1, B + (int64_t)i * sb, sb, n)) &&
                              info1[1] == info[1 + i],
                          "%s%s %s n=%d member %d: alone differs from the batch", TU_PNAME,
                          oop ? "getri_oop" : "getri", tu_layout_name(layout), n, i);
        }
        free(A); free(Av); free(A1); free(A0); free(B); free(Bv); free(B1); free(piv);
    }
}
END_TEST

/* Empty batches: NULL arrays everywhere, a no-op with info[0] = 0. */
START_TEST(t_empty)
{
    for (int f = 0; f < NFORM; f++)
        for (int op = 0; op < NOP; op++) {
            int info[2] = {BblasErrorsReportAll, 12345};
            pset g = {op == OP_GETRS ? BblasNoTrans : op == OP_GECON ? BblasOneNorm : 0, 1, 1, 1, 1, 1};
            prob q0;
            memset(&q0, 0, sizeof q0);
            q0.p = g;
            info[0] = BblasErrorsReportAll;
            if (f == F_GROUP)
                call(op, f, BblasColMajor, 0, NULL, &g, 0, &q0, NULL, 1, NULL, 1, NULL, 1, NULL, NULL, info);
            else
                call(op, f, BblasColMajor, 1, NULL, &g, 0, &q0, NULL, 1, NULL, 1, NULL, 1, NULL, NULL, info);
            ck_assert_msg(info[0] == 0, "%s%s_%s: empty batch gave info[0] = %d", TU_PNAME, op_name[op],
                          form_name[f], info[0]);
            ck_assert_msg(info[1] == 12345, "%s%s_%s: empty batch wrote info[1]", TU_PNAME, op_name[op],
                          form_name[f]);
        }
}
END_TEST

/*
 * Row-major and column-major calls on the same logical matrices give the
 * same bits (factors, pivots, solutions, inverses, estimates): the row-major
 * path only transposes.
 */
static void store(T *A, int64_t ld, int layout, int r, int c, const T *src)
{
    for (int j = 0; j < c; j++)
        for (int i = 0; i < r; i++) A[tu_idx(ld, layout, i, j)] = src[i + (int64_t)j * r];
}

static int same_logical(const T *X, int64_t ldx, const T *Y, int64_t ldy, int r, int c)
{
    for (int j = 0; j < c; j++)
        for (int i = 0; i < r; i++)
            if (memcmp(&X[tu_idx(ldx, BblasColMajor, i, j)], &Y[tu_idx(ldy, BblasRowMajor, i, j)], sizeof(T)))
                return 0;
    return 1;
}

START_TEST(t_layouts_agree)
{
    tu_seed(77);
    const int shp[][2] = {{5, 5}, {9, 6}, {6, 9}, {40, 40}, {70, 50}, {70, 70}};
    for (int s = 0; s < (int)(sizeof shp / sizeof shp[0]); s++) {
        int m = shp[s][0], n = shp[s][1], mn = imin(m, n), nrhs = 3;
        int ldc = m + 1, ldr = n + 2;
        T *src = tu_alloc(1, (int64_t)m * n), *Ac = tu_alloc(1, (int64_t)ldc * n), *Ar = tu_alloc(1, (int64_t)ldr * m);
        tu_fill(src, m, BblasColMajor, m, n);
        store(Ac, ldc, BblasColMajor, m, n, src);
        store(Ar, ldr, BblasRowMajor, m, n, src);
        int pc[80], pr[80], info[2];
        T *a1[1] = {Ac}, *a2[1] = {Ar};
        int *p1[1] = {pc}, *p2[1] = {pr};
        info[0] = 0;
        FN(getrf, batchf)(1, BblasColMajor, m, n, a1, ldc, p1, info);
        info[0] = 0;
        FN(getrf, batchf)(1, BblasRowMajor, m, n, a2, ldr, p2, info);
        ck_assert_msg(same_logical(Ac, ldc, Ar, ldr, m, n) && !memcmp(pc, pr, sizeof(int) * (size_t)mn),
                      "%sgetrf m=%d n=%d: row-major factors differ from column-major", TU_PNAME, m, n);
        if (m == n) {
            /* getrs, every trans */
            for (int t = 0; t < 3; t++) {
                T *Bc = tu_alloc(1, (int64_t)n * nrhs), *Br = tu_alloc(1, (int64_t)n * (nrhs + 1));
                T *bs = tu_alloc(1, (int64_t)n * nrhs);
                tu_fill(bs, n, BblasColMajor, n, nrhs);
                store(Bc, n, BblasColMajor, n, nrhs, bs);
                store(Br, nrhs + 1, BblasRowMajor, n, nrhs, bs);
                T *b1[1] = {Bc}, *b2[1] = {Br};
                info[0] = 0;
                FN(getrs, batchf)(1, BblasColMajor, transes[t], n, nrhs, (T const *const *)a1, ldc,
                                  (int const *const *)p1, b1, n, info);
                info[0] = 0;
                FN(getrs, batchf)(1, BblasRowMajor, transes[t], n, nrhs, (T const *const *)a2, ldr,
                                  (int const *const *)p2, b2, nrhs + 1, info);
                ck_assert_msg(same_logical(Bc, n, Br, nrhs + 1, n, nrhs),
                              "%sgetrs trans=%d n=%d: row-major solution differs", TU_PNAME, transes[t], n);
                free(Bc); free(Br); free(bs);
            }
            /* gecon, both norms */
            for (int t = 0; t < 2; t++) {
                R an = 3, r1 = 0, r2 = 1;
                info[0] = 0;
                FN(gecon, batchf)(1, BblasColMajor, norms[t], n, (T const *const *)a1, ldc, &an, &r1, info);
                info[0] = 0;
                FN(gecon, batchf)(1, BblasRowMajor, norms[t], n, (T const *const *)a2, ldr, &an, &r2, info);
                ck_assert_msg(!memcmp(&r1, &r2, sizeof(R)), "%sgecon n=%d: row-major rcond %g, column-major %g",
                              TU_PNAME, n, (double)r2, (double)r1);
            }
            /* getri_oop, then getri */
            T *Ic = tu_alloc(1, (int64_t)n * n), *Ir = tu_alloc(1, (int64_t)n * n);
            T *i1[1] = {Ic}, *i2[1] = {Ir};
            info[0] = 0;
            FN(getri_oop, batchf)(1, BblasColMajor, n, (T const *const *)a1, ldc, (int const *const *)p1, i1, n,
                                  info);
            info[0] = 0;
            FN(getri_oop, batchf)(1, BblasRowMajor, n, (T const *const *)a2, ldr, (int const *const *)p2, i2, n,
                                  info);
            ck_assert_msg(same_logical(Ic, n, Ir, n, n, n), "%sgetri_oop n=%d: row-major inverse differs",
                          TU_PNAME, n);
            info[0] = 0;
            FN(getri, batchf)(1, BblasColMajor, n, a1, ldc, (int const *const *)p1, info);
            info[0] = 0;
            FN(getri, batchf)(1, BblasRowMajor, n, a2, ldr, (int const *const *)p2, info);
            ck_assert_msg(same_logical(Ac, ldc, Ar, ldr, n, n), "%sgetri n=%d: row-major inverse differs",
                          TU_PNAME, n);
            free(Ic); free(Ir);
        }
        free(src); free(Ac); free(Ar);
    }
}
END_TEST

void X(add_lu_tests)(Suite *s)
{
    TCase *tc = tcase_create("lu_" TU_PNAME);
    tcase_set_timeout(tc, 60);
    BB_ADD_LOOP(tc, t_getrf, 0, 2 * NFORM);
    BB_ADD_LOOP(tc, t_getrfnp, 0, 2 * NFORM);
    BB_ADD_LOOP(tc, t_getrs, 0, 2 * NFORM);
    BB_ADD_LOOP(tc, t_gesv, 0, 2 * NFORM);
    BB_ADD_LOOP(tc, t_getri, 0, 2 * NFORM);
    BB_ADD_LOOP(tc, t_getri_oop, 0, 2 * NFORM);
    BB_ADD_LOOP(tc, t_gecon, 0, 2 * NFORM);
    BB_ADD_LOOP(tc, t_geinv, 0, 2 * NFORM);
    BB_ADD_LOOP(tc, t_across, 0, 28);
    BB_ADD_LOOP(tc, t_across_getri, 0, 4);
    BB_ADD_LOOP(tc, t_across_pivots, 0, 4);
    tcase_add_test(tc, t_empty);
    tcase_add_test(tc, t_layouts_agree);
    suite_add_tcase(s, tc);
    TCase *vb = tcase_create("lu_var_big_" TU_PNAME); /* its own case: a sanitizer run can take it alone */
    tcase_set_timeout(vb, 60);
    BB_ADD_LOOP(vb, t_var_big, 0, 16);
    BB_ADD_LOOP(vb, t_fixed_big, 0, 24);
    suite_add_tcase(s, vb);
}
