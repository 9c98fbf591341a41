/*
 * Tests of the chol family (compiled once per precision): potrf, potrs,
 * posv, trtri, lauum, potri, poti through the public API, every form, both
 * layouts, both triangles.  Results are judged by residuals computed here
 * with plain loops in double complex (tu_ratio / tu_accept); the opposite
 * triangle, the padding of lda/ldb > rows and the gaps between strided
 * matrices must still hold what was there before the call.
 */
#include <stdio.h>
#include "prec.h"
#include "tu_prec.h"
#include "tests.h"

enum { OP_POTRF, OP_POTRS, OP_POSV, OP_TRTRI, OP_LAUUM, OP_POTRI, OP_POTI, NOP };
static const char *const op_name[NOP] = {"potrf", "potrs", "posv", "trtri", "lauum", "potri", "poti"};
enum { F_GROUP, F_FIXED, F_VAR, F_STRIDED, NFORM };
static const char *const form_name[NFORM] = {"batch", "batchf", "batchv", "batch_strided"};

/* one parameter set (user view) */
typedef struct {
    int uplo, diag, n, nrhs, lda, ldb;
} pset;

/* a defect planted in one problem: the expected info is k */
enum { BAD_NONE, BAD_NEGDIAG, BAD_NANDIAG, BAD_NANOFF, BAD_ZERODIAG };
typedef struct {
    int kind, k;
} defect;

typedef struct {
    pset p;
    defect d;
    T *A, *B;        /* the problem's matrices */
    int64_t fa, fb;  /* their footprints (elements) */
    T *A0, *B0;      /* copies of the footprints before the call */
    zd *M;           /* reference input, n x n column-major (see make_problem) */
} prob;

#define GAP 3 /* elements between strided matrices */

static int has_b(int op) { return op == OP_POTRS || op == OP_POSV; }
static int in_tri(int uplo, int i, int j) { return uplo == BblasUpper ? i <= j : i >= j; }
static const char *uplo_name(int u) { return u == BblasUpper ? "U" : "L"; }
static const char *diag_name(int d) { return d == BblasUnit ? "U" : "N"; }

static void set_el(T *A, int64_t ld, int layout, int i, int j, T v) { A[tu_idx(ld, layout, i, j)] = v; }
static zd get_el(const T *A, int64_t ld, int layout, int i, int j) { return tu_z(A[tu_idx(ld, layout, i, j)]); }

/* ---- reference arithmetic (double complex, column-major, ld = rows) ---- */

/* a * b without the Annex G special cases (NaN/Inf results fail anyway) */
static inline zd zmul(zd a, zd b)
{
    return CMPLX(creal(a) * creal(b) - cimag(a) * cimag(b), creal(a) * cimag(b) + cimag(a) * creal(b));
}

/* Z (n x m) = X * Y; X n x n, Y n x m (zeros of Y skipped: triangular factors) */
static void mmz(int n, int m, const zd *X, const zd *Y, zd *Z)
{
    memset(Z, 0, sizeof(zd) * (size_t)n * (size_t)m);
    for (int j = 0; j < m; j++)
        for (int l = 0; l < n; l++) {
            zd y = Y[l + j * n];
            if (y == 0) continue;
            const zd *x = X + (int64_t)l * n;
            zd *z = Z + (int64_t)j * n;
            for (int i = 0; i < n; i++) z[i] += zmul(x[i], y);
        }
}

/* Z = X * X^H (xfirst = 1) or X^H * X, n x n */
static void gram(int n, const zd *X, int xfirst, zd *Z)
{
    if (xfirst) { /* column j: sum_l X(:,l) conj(X(j,l)) */
        memset(Z, 0, sizeof(zd) * (size_t)n * (size_t)n);
        for (int j = 0; j < n; j++)
            for (int l = 0; l < n; l++) {
                zd c = conj(X[j + (int64_t)l * n]);
                if (c == 0) continue;
                const zd *x = X + (int64_t)l * n;
                zd *z = Z + (int64_t)j * n;
                for (int i = 0; i < n; i++) z[i] += zmul(x[i], c);
            }
        return;
    }
    for (int j = 0; j < n; j++) /* dots of columns i <= j, mirrored */
        for (int i = 0; i <= j; i++) {
            zd s = 0;
            for (int l = 0; l < n; l++) s += zmul(conj(X[l + (int64_t)i * n]), X[l + (int64_t)j * n]);
            Z[i + (int64_t)j * n] = s;
            Z[j + (int64_t)i * n] = conj(s);
        }
}

static double normz(const zd *X, int64_t len)
{
    double s = 0;
    for (int64_t i = 0; i < len; i++) s += creal(X[i]) * creal(X[i]) + cimag(X[i]) * cimag(X[i]);
    return sqrt(s);
}

/* ||X - I||_F, X n x n */
static double dist_eye(int n, const zd *X)
{
    double s = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            zd e = X[i + j * n] - (i == j ? 1.0 : 0.0);
            s += creal(e) * creal(e) + cimag(e) * cimag(e);
        }
    return sqrt(s);
}

/* The uplo triangle of a stored matrix as an n x n matrix: zero outside
   (herm = 0) or completed to a Hermitian one (herm = 1); unit: diagonal 1. */
static zd *tri(const T *A, int64_t ld, int layout, int uplo, int n, int unit, int herm)
{
    zd *Z = zalloc((int64_t)n * n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            if (!in_tri(uplo, i, j)) continue;
            zd v = (i == j && unit) ? 1.0 : get_el(A, ld, layout, i, j);
            Z[i + j * n] = v;
            if (herm && i != j) Z[j + i * n] = conj(v);
        }
    return Z;
}

/* logical r x c block of a stored matrix */
static zd *block(const T *B, int64_t ld, int layout, int r, int c)
{
    zd *Z = zalloc((int64_t)r * c);
    for (int j = 0; j < c; j++)
        for (int i = 0; i < r; i++) Z[i + j * r] = get_el(B, ld, layout, i, j);
    return Z;
}

/* ---- problem set-up ---- */

/* random triangular factor with a real positive diagonal (as potrf leaves it) */
static void fill_factor(prob *q, int layout)
{
    int n = q->p.n;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            if (!in_tri(q->p.uplo, i, j)) continue;
            T v = i == j ? MAKE_T(1.0 + sqrt((double)n) + 0.5 * tu_rand(), 0.0) : tu_rand_T();
            set_el(q->A, q->p.lda, layout, i, j, v);
        }
}

/* random triangular matrix for trtri: non-unit diagonal of modulus about
   sqrt(n) with a random phase; unit: small off-diagonal entries and a zero
   stored on the diagonal, which must be neither read nor written */
static void fill_tri(prob *q, int layout)
{
    int n = q->p.n, unit = q->p.diag == BblasUnit;
    double off = unit ? 1.0 / sqrt((double)n) : 1.0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            if (!in_tri(q->p.uplo, i, j)) continue;
            T v;
            if (i != j) {
                v = tu_T(off * tu_z(tu_rand_T()));
            } else if (unit) {
                v = 0;
            } else {
                double r = 1.0 + sqrt((double)n) + 0.5 * tu_rand();
                double t = BB_COMPLEX ? 3.14159 * tu_rand() : tu_rand() < 0 ? 3.14159265358979 : 0.0;
                v = MAKE_T(r * cos(t), r * sin(t));
            }
            set_el(q->A, q->p.lda, layout, i, j, v);
        }
}

/* Fills problem q (buffers already allocated, all sentinel) and its
   reference M: the Hermitian input (potrf, posv, poti), the factor (potrs,
   lauum, potri) or the triangular matrix with its true diagonal (trtri). */
static void make_problem(int op, int layout, prob *q)
{
    int n = q->p.n, uplo = q->p.uplo;
    int64_t lda = q->p.lda;
    q->M = zalloc((int64_t)n * n);
    if (n > 0) {
        switch (op) {
        case OP_POTRF: case OP_POSV: case OP_POTI: {
            T *H = (T *)malloc(sizeof(T) * (size_t)(n * n));
            ck_assert_ptr_nonnull(H);
            tu_fill_hpd(H, n, BblasColMajor, n);
            for (int j = 0; j < n; j++)
                for (int i = 0; i < n; i++) {
                    q->M[i + j * n] = tu_z(H[i + j * n]);
                    if (in_tri(uplo, i, j)) set_el(q->A, lda, layout, i, j, H[i + j * n]);
                }
            free(H);
            break;
        }
        case OP_POTRS: case OP_LAUUM: case OP_POTRI:
            fill_factor(q, layout);
            break;
        case OP_TRTRI:
            fill_tri(q, layout);
            break;
        }
        if (op != OP_POTRF && op != OP_POSV && op != OP_POTI) {
            zd *F = tri(q->A, lda, layout, uplo, n, q->p.diag == BblasUnit && op == OP_TRTRI, 0);
            memcpy(q->M, F, sizeof(zd) * (size_t)(n * n));
            free(F);
        }
    }
    if (has_b(op)) tu_fill(q->B, q->p.ldb, layout, n, q->p.nrhs);

    /* plant the defect: the leading minors before k stay as they were */
    int k = q->d.k - 1;
    switch (q->d.kind) {
    case BAD_NEGDIAG: set_el(q->A, lda, layout, k, k, MAKE_T(-1.0, 0.0)); break;
    case BAD_NANDIAG: set_el(q->A, lda, layout, k, k, MAKE_T(NAN, 0.0)); break;
    case BAD_NANOFF: /* first column (lower) or row (upper) of row/column k */
        if (uplo == BblasLower) set_el(q->A, lda, layout, k, 0, MAKE_T(NAN, 0.0));
        else set_el(q->A, lda, layout, 0, k, MAKE_T(NAN, 0.0));
        break;
    case BAD_ZERODIAG: set_el(q->A, lda, layout, k, k, 0); break;
    default: break;
    }

    q->A0 = (T *)malloc(sizeof(T) * (size_t)q->fa);
    ck_assert_ptr_nonnull(q->A0);
    memcpy(q->A0, q->A, sizeof(T) * (size_t)q->fa);
    if (has_b(op)) {
        q->B0 = (T *)malloc(sizeof(T) * (size_t)q->fb);
        ck_assert_ptr_nonnull(q->B0);
        memcpy(q->B0, q->B, sizeof(T) * (size_t)q->fb);
    }
}

/* ---- checks ---- */

/* Every element of a footprint outside the writable part (the logical
   r x c block, restricted to the uplo triangle when uplo != 0, without the
   diagonal when nodiag) still holds its old bits. */
static int others_untouched(const T *now, const T *before, int64_t foot, int64_t ld, int layout,
                            int r, int c, int uplo, int nodiag)
{
    for (int64_t x = 0; x < foot; x++) {
        int64_t in = x % ld, out = x / ld;
        int64_t i = layout == BblasColMajor ? in : out, j = layout == BblasColMajor ? out : in;
        int writable = i < r && j < c && (!uplo || in_tri(uplo, (int)i, (int)j)) && !(nodiag && i == j);
        if (!writable && memcmp(&now[x], &before[x], sizeof(T)) != 0) return 0;
    }
    return 1;
}

static void verify(int op, int form, int layout, const prob *q, int idx, int info)
{
    const pset *p = &q->p;
    int n = p->n, nrhs = p->nrhs, uplo = p->uplo, unit = op == OP_TRTRI && p->diag == BblasUnit;
    int expect = q->d.kind == BAD_NONE ? 0 : q->d.k;
    char where[200];
    snprintf(where, sizeof where, "%s%s_%s %s uplo=%s diag=%s n=%d nrhs=%d lda=%d ldb=%d (problem %d)",
             TU_PNAME, op_name[op], form_name[form], tu_layout_name(layout), uplo_name(uplo),
             diag_name(p->diag), n, nrhs, p->lda, p->ldb, idx);

    ck_assert_msg(info == expect, "%s: info %d, expected %d", where, info, expect);

    /* what may have been written */
    int a_written = op != OP_POTRS && !(expect && (op == OP_TRTRI || op == OP_POTRI));
    int b_written = op == OP_POTRS || (op == OP_POSV && !expect);
    ck_assert_msg(tu_padding_untouched(q->A, p->lda, layout, n, n), "%s: A padding written", where);
    ck_assert_msg(others_untouched(q->A, q->A0, q->fa, p->lda, layout, a_written ? n : 0, n, uplo, unit),
                  "%s: A written outside the %s triangle%s", where, a_written ? uplo_name(uplo) : "(read-only)",
                  unit ? " (unit diagonal)" : "");
    if (has_b(op)) {
        ck_assert_msg(tu_padding_untouched(q->B, p->ldb, layout, n, nrhs), "%s: B padding written", where);
        ck_assert_msg(others_untouched(q->B, q->B0, q->fb, p->ldb, layout, b_written ? n : 0, nrhs, 0, 0),
                      "%s: B written where it must not be", where);
    }
    if (expect || n == 0) return;

    int64_t nn = (int64_t)n * n;
    zd *Z = zalloc(nn);
    double ratio = 0;
    switch (op) {
    case OP_POTRF: case OP_POSV: {
        zd *F = tri(q->A, p->lda, layout, uplo, n, 0, 0);
        gram(n, F, uplo == BblasLower, Z); /* L L^H or U^H U */
        for (int64_t x = 0; x < nn; x++) Z[x] -= q->M[x];
        ratio = tu_ratio(normz(Z, nn), normz(q->M, nn), n, TU_PREC_ID);
        ck_assert_msg(tu_accept(ratio), "%s: factor residual ratio %g", where, ratio);
        free(F);
        if (op == OP_POTRF) break;
    } /* posv also solves: */
        /* fall through */
    case OP_POTRS: {
        zd *A = q->M;
        zd *G = NULL;
        if (op == OP_POTRS) { /* M is the factor */
            G = zalloc(nn);
            gram(n, q->M, uplo == BblasLower, G);
            A = G;
        }
        if (nrhs > 0) {
            zd *Xs = block(q->B, p->ldb, layout, n, nrhs), *B0 = block(q->B0, p->ldb, layout, n, nrhs);
            zd *R = zalloc((int64_t)n * nrhs);
            mmz(n, nrhs, A, Xs, R);
            for (int64_t x = 0; x < (int64_t)n * nrhs; x++) R[x] -= B0[x];
            ratio = tu_ratio(normz(R, (int64_t)n * nrhs), normz(A, nn) * normz(Xs, (int64_t)n * nrhs), n,
                             TU_PREC_ID);
            ck_assert_msg(tu_accept(ratio), "%s: solve residual ratio %g", where, ratio);
            free(Xs); free(B0); free(R);
        }
        free(G);
        break;
    }
    case OP_TRTRI: {
        zd *Ti = tri(q->A, p->lda, layout, uplo, n, unit, 0);
        mmz(n, n, q->M, Ti, Z);
        ratio = tu_ratio(dist_eye(n, Z), normz(q->M, nn) * normz(Ti, nn), n, TU_PREC_ID);
        ck_assert_msg(tu_accept(ratio), "%s: ||T*inv(T) - I|| ratio %g", where, ratio);
        free(Ti);
        break;
    }
    case OP_LAUUM: {
        gram(n, q->M, uplo == BblasUpper, Z); /* U U^H or L^H L */
        zd *P = tri(q->A, p->lda, layout, uplo, n, 0, 0);
        double s = 0;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                if (in_tri(uplo, i, j)) {
                    double e = cabs(P[i + j * n] - Z[i + j * n]);
                    s += e * e;
                }
        double f = normz(q->M, nn);
        ratio = tu_ratio(sqrt(s), f * f, n, TU_PREC_ID);
        ck_assert_msg(tu_accept(ratio), "%s: product ratio %g", where, ratio);
        free(P);
        break;
    }
    case OP_POTRI: case OP_POTI: {
        zd *A = q->M, *G = NULL;
        if (op == OP_POTRI) { /* A = U^H U or L L^H from the factor M */
            G = zalloc(nn);
            gram(n, q->M, uplo == BblasLower, G);
            A = G;
        }
        zd *Ai = tri(q->A, p->lda, layout, uplo, n, 0, 1);
        mmz(n, n, A, Ai, Z);
        ratio = tu_ratio(dist_eye(n, Z), normz(A, nn) * normz(Ai, nn), n, TU_PREC_ID);
        ck_assert_msg(tu_accept(ratio), "%s: ||A*inv(A) - I|| ratio %g", where, ratio);
        free(Ai); free(G);
        break;
    }
    }
    free(Z);
}

/* ---- one batch call ---- */

#define FN(name, form) BB_PUB(lapack, name, form)

/* routines taking (uplo, n, A, lda) */
#define CALL_A(name)                                                                             \
    switch (form) {                                                                              \
    case F_GROUP: FN(name, batch)(ng, gs, layout, U, N, Ap, LA, info); break;                    \
    case F_FIXED: FN(name, batchf)(count, layout, g0->uplo, g0->n, Ap, g0->lda, info); break;    \
    case F_VAR: FN(name, batchv)(count, layout, U, N, Ap, LA, info); break;                      \
    case F_STRIDED:                                                                              \
        FN(name, batch_strided)(layout, g0->uplo, g0->n, baseA, g0->lda, sa, count, info);       \
        break;                                                                                   \
    }

static void call(int op, int form, int layout, int ng, const int *gs, const pset *gp, int count,
                 prob *q, T *baseA, int64_t sa, T *baseB, int64_t sb, int *info)
{
    /* parameter arrays: per group (group form) or per problem (variable form) */
    int np = form == F_GROUP ? ng : count;
    int *U = malloc(sizeof(int) * (size_t)(np + 1)), *D = malloc(sizeof(int) * (size_t)(np + 1));
    int *N = malloc(sizeof(int) * (size_t)(np + 1)), *NR = malloc(sizeof(int) * (size_t)(np + 1));
    int *LA = malloc(sizeof(int) * (size_t)(np + 1)), *LB = malloc(sizeof(int) * (size_t)(np + 1));
    T **Ap = malloc(sizeof(T *) * (size_t)(count + 1)), **Bp = malloc(sizeof(T *) * (size_t)(count + 1));
    ck_assert(U && D && N && NR && LA && LB && Ap && Bp);
    for (int i = 0; i < np; i++) {
        const pset *p = form == F_GROUP ? &gp[i] : &q[i].p;
        U[i] = p->uplo; D[i] = p->diag; N[i] = p->n; NR[i] = p->nrhs; LA[i] = p->lda; LB[i] = p->ldb;
    }
    for (int i = 0; i < count; i++) { Ap[i] = q[i].A; Bp[i] = q[i].B; }
    const pset *g0 = &gp[0];

    switch (op) {
    case OP_POTRF: CALL_A(potrf) break;
    case OP_LAUUM: CALL_A(lauum) break;
    case OP_POTRI: CALL_A(potri) break;
    case OP_POTI: CALL_A(poti) break;
    case OP_TRTRI:
        switch (form) {
        case F_GROUP: FN(trtri, batch)(ng, gs, layout, U, D, N, Ap, LA, info); break;
        case F_FIXED: FN(trtri, batchf)(count, layout, g0->uplo, g0->diag, g0->n, Ap, g0->lda, info); break;
        case F_VAR: FN(trtri, batchv)(count, layout, U, D, N, Ap, LA, info); break;
        case F_STRIDED:
            FN(trtri, batch_strided)(layout, g0->uplo, g0->diag, g0->n, baseA, g0->lda, sa, count, info);
            break;
        }
        break;
    case OP_POTRS: {
        T const *const *Ac = (T const *const *)Ap;
        switch (form) {
        case F_GROUP: FN(potrs, batch)(ng, gs, layout, U, N, NR, Ac, LA, Bp, LB, info); break;
        case F_FIXED:
            FN(potrs, batchf)(count, layout, g0->uplo, g0->n, g0->nrhs, Ac, g0->lda, Bp, g0->ldb, info);
            break;
        case F_VAR: FN(potrs, batchv)(count, layout, U, N, NR, Ac, LA, Bp, LB, info); break;
        case F_STRIDED:
            FN(potrs, batch_strided)(layout, g0->uplo, g0->n, g0->nrhs, baseA, g0->lda, sa, baseB, g0->ldb,
                                     sb, count, info);
            break;
        }
        break;
    }
    case OP_POSV:
        switch (form) {
        case F_GROUP: FN(posv, batch)(ng, gs, layout, U, N, NR, Ap, LA, Bp, LB, info); break;
        case F_FIXED:
            FN(posv, batchf)(count, layout, g0->uplo, g0->n, g0->nrhs, Ap, g0->lda, Bp, g0->ldb, info);
            break;
        case F_VAR: FN(posv, batchv)(count, layout, U, N, NR, Ap, LA, Bp, LB, info); break;
        case F_STRIDED:
            FN(posv, batch_strided)(layout, g0->uplo, g0->n, g0->nrhs, baseA, g0->lda, sa, baseB, g0->ldb,
                                    sb, count, info);
            break;
        }
        break;
    }
    free(U); free(D); free(N); free(NR); free(LA); free(LB); free(Ap); free(Bp);
}

/*
 * Runs one batch: ng parameter sets gp[g], group g holding gs[g] problems
 * (fixed and strided forms: one set; variable form: one problem per set),
 * defects d[i] per problem (NULL: none).  Builds, calls, verifies.
 */
static void run(int op, int form, int layout, int ng, const int *gs, const pset *gp, const defect *d)
{
    int count = 0;
    for (int g = 0; g < ng; g++) count += gs[g];
    prob *q = calloc((size_t)count + 1, sizeof(prob));
    ck_assert_ptr_nonnull(q);
    for (int g = 0, i = 0; g < ng; g++)
        for (int s = 0; s < gs[g]; s++, i++) {
            q[i].p = gp[g];
            if (d) q[i].d = d[i];
            q[i].fa = tu_foot(gp[g].lda, layout, gp[g].n, gp[g].n);
            q[i].fb = has_b(op) ? tu_foot(gp[g].ldb, layout, gp[g].n, gp[g].nrhs) : 0;
        }

    T *baseA = NULL, *baseB = NULL;
    int64_t sa = 0, sb = 0;
    if (form == F_STRIDED) {
        sa = q[0].fa + GAP;
        baseA = tu_alloc(count, sa);
        if (has_b(op)) {
            sb = q[0].fb + GAP;
            baseB = tu_alloc(count, sb);
        }
    }
    for (int i = 0; i < count; i++) {
        q[i].A = form == F_STRIDED ? baseA + i * sa : tu_alloc(1, q[i].fa);
        if (has_b(op)) q[i].B = form == F_STRIDED ? baseB + i * sb : tu_alloc(1, q[i].fb);
        make_problem(op, layout, &q[i]);
    }

    int *info = malloc(sizeof(int) * (size_t)(count + 1));
    ck_assert_ptr_nonnull(info);
    info[0] = BblasErrorsReportAll;
    call(op, form, layout, form == F_GROUP ? ng : 1, gs, gp, count, q, baseA, sa, baseB, sb, info);

    int first = 0;
    for (int i = 0; i < count; i++) {
        verify(op, form, layout, &q[i], i, info[1 + i]);
        if (!first) first = info[1 + i];
        /* the space after each matrix: strided gaps, or the allocation's guard */
        int64_t after = form == F_STRIDED ? sa - q[i].fa : 1;
        ck_assert_msg(tu_untouched(q[i].A + q[i].fa, after), "%s%s_%s %s: written past A of problem %d",
                      TU_PNAME, op_name[op], form_name[form], tu_layout_name(layout), i);
        if (has_b(op))
            ck_assert_msg(tu_untouched(q[i].B + q[i].fb, form == F_STRIDED ? sb - q[i].fb : 1),
                          "%s%s_%s %s: written past B of problem %d", TU_PNAME, op_name[op], form_name[form],
                          tu_layout_name(layout), i);
    }
    ck_assert_msg(info[0] == first, "%s%s_%s %s: info[0] = %d, first problem code %d", TU_PNAME, op_name[op],
                  form_name[form], tu_layout_name(layout), info[0], first);

    for (int i = 0; i < count; i++) {
        if (form != F_STRIDED) { free(q[i].A); free(q[i].B); }
        free(q[i].A0); free(q[i].B0); free(q[i].M);
    }
    free(baseA); free(baseB); free(info); free(q);
}

/* ---- sweeps ---- */

/* odd sizes up to 41, a few even ones, 0, and 70 (beyond most own-loop
   crossovers, cpu_policy.h); 1, 2, 4, 5, 8, 9, 16, 17, 31, 32, 33 cross
   the GPU register kernels' size bounds (4, 8, 16, 32), 47, 49, 63, 64, 65
   the on-chip kernels' (mid.cu; the Cholesky on chip's blocks of 16,
   potrf_chip.cu) */
static const int sizes[] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 11, 13, 15, 16, 17, 19, 21, 23,
                            25, 27, 29, 31, 32, 33, 35, 37, 39, 41, 47, 49, 63, 64, 65, 70};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

/* beyond every crossover of the routine (fixed form only, one problem):
   LAPACKE/CBLAS in all four precisions except d trtri, whose own loops stay
   faster up to 256 */
static int big_size(int op) { return op == OP_TRTRI || op == OP_POTRI ? 200 : 130; }

/* parameters for size n, variant v: nrhs cycles through tu_nrhs_cycle; leading dimensions
   alternately tight and padded */
static pset make_pset_n(int op, int layout, int uplo, int diag, int n, int v)
{
    pset p;
    p.uplo = uplo;
    p.diag = diag;
    p.n = n;
    p.nrhs = has_b(op) ? tu_nrhs_cycle(n, v) : 0;
    int pad = (v / 2) % 2 ? 0 : 2;
    p.lda = (n > 0 ? n : 1) + pad;
    int brows = layout == BblasColMajor ? n : p.nrhs; /* ld counts these */
    p.ldb = has_b(op) ? (brows > 0 ? brows : 1) + ((v / 2) % 2 ? 1 : 0) : 0;
    return p;
}

static pset make_pset(int op, int layout, int uplo, int diag, int s)
{
    return make_pset_n(op, layout, uplo, diag, sizes[s], s);
}

static void sweep(int op, int form, int layout)
{
    int ndiag = op == OP_TRTRI ? 2 : 1;
    for (int dg = 0; dg < ndiag; dg++) {
        int diag = dg ? BblasUnit : BblasNonUnit;
        if (form == F_FIXED || form == F_STRIDED) {
            /* fixed form: the even-indexed sizes and the big one; strided:
               the odd-indexed (every size also runs in the other forms) */
            for (int u = 0; u < 2; u++) {
                int uplo = u ? BblasLower : BblasUpper, two = 2, one = 1;
                for (int s = form == F_FIXED ? 0 : 1; s < NSIZES; s += 2) {
                    pset p = make_pset(op, layout, uplo, diag, s);
                    run(op, form, layout, 1, &two, &p, NULL);
                }
                if (form == F_FIXED) {
                    pset p = make_pset_n(op, layout, uplo, diag, big_size(op), 4 + u);
                    run(op, form, layout, 1, &one, &p, NULL);
                }
            }
        } else if (form == F_VAR) { /* all sizes in one batch, uplo alternating */
            pset p[NSIZES];
            int ones[NSIZES];
            for (int s = 0; s < NSIZES; s++) {
                p[s] = make_pset(op, layout, (s + dg) % 2 ? BblasLower : BblasUpper, diag, s);
                ones[s] = 1;
            }
            run(op, form, layout, NSIZES, ones, p, NULL);
        } else { /* groups of different uplo and size, one of them empty */
            for (int s = 0; s < NSIZES; s += 3) {
                pset p[4];
                int gs[4] = {2, 1, 0, 2};
                p[0] = make_pset(op, layout, BblasUpper, diag, s);
                p[1] = make_pset(op, layout, BblasLower, diag, (s + 1) % NSIZES);
                p[2] = make_pset(op, layout, BblasLower, diag, (s + 2) % NSIZES);
                p[3] = make_pset(op, layout, BblasUpper, diag, (s + 2) % NSIZES);
                run(op, form, layout, 4, gs, p, NULL);
            }
        }
    }
}

static void sweep_test(int op, int i)
{
    tu_seed(1000 + 17 * op + i);
    sweep(op, i / 2, i % 2 ? BblasRowMajor : BblasColMajor);
}

/* loop index i: form i / 2, layout i % 2 */
START_TEST(t_potrf) { sweep_test(OP_POTRF, _i); }
END_TEST
START_TEST(t_potrs) { sweep_test(OP_POTRS, _i); }
END_TEST
START_TEST(t_posv) { sweep_test(OP_POSV, _i); }
END_TEST
START_TEST(t_trtri) { sweep_test(OP_TRTRI, _i); }
END_TEST
START_TEST(t_lauum) { sweep_test(OP_LAUUM, _i); }
END_TEST
START_TEST(t_potri) { sweep_test(OP_POTRI, _i); }
END_TEST
START_TEST(t_poti) { sweep_test(OP_POTI, _i); }
END_TEST

/*
 * Mixed batches: some members fail, the others must be exact.  potrf, posv,
 * poti: a negative pivot, a NaN pivot and a NaN off the diagonal;
 * trtri (non-unit), potri: exact zeros on the diagonal.  n = 5 .. 31 run
 * our own loops (and, on a GPU, the register kernels of every size bound:
 * the variable form takes n .. n + 5, the group form n and n + 2; 50 the
 * on-chip kernels, its NaN pivot in the last block of 16), n = 70
 * LAPACKE (on a GPU the blocked driver, the NaN pivot in its second
 * block).
 */
static void fail_case(int op, int form, int layout)
{
    int fact = op == OP_POTRF || op == OP_POSV || op == OP_POTI;
    const int ns[6] = {5, 9, 16, 31, 50, 70};
    for (int t = 0; t < 6; t++)
        for (int u = 0; u < 2; u++) {
            int n = ns[t], uplo = u ? BblasLower : BblasUpper;
            defect d[6];
            memset(d, 0, sizeof d);
            if (fact) {
                d[1] = (defect){BAD_NEGDIAG, 4};
                d[3] = (defect){BAD_NANDIAG, n};
                d[4] = (defect){BAD_NANOFF, n < 6 ? n : 6};
            } else {
                d[1] = (defect){BAD_ZERODIAG, 3};
                d[4] = (defect){BAD_ZERODIAG, n};
            }
            pset p[6];
            int gs[6], ng;
            for (int i = 0; i < 6; i++) {
                p[i].uplo = uplo;
                p[i].diag = BblasNonUnit;
                p[i].n = n;
                p[i].nrhs = has_b(op) ? 2 : 0;
                p[i].lda = n + 1;
                p[i].ldb = has_b(op) ? (layout == BblasColMajor ? n : 2) : 0;
            }
            if (form == F_FIXED || form == F_STRIDED) {
                ng = 1;
                gs[0] = 6;
            } else if (form == F_VAR) { /* each its own size (every defect fits: k <= n) */
                ng = 6;
                for (int i = 0; i < 6; i++) {
                    gs[i] = 1;
                    p[i].n = n + i;
                    p[i].lda = p[i].n + 1;
                    if (has_b(op) && layout == BblasColMajor) p[i].ldb = p[i].n;
                    p[i].uplo = i % 2 ? BblasLower : BblasUpper;
                }
            } else { /* two groups, the second of the other triangle and size */
                ng = 2;
                gs[0] = 3;
                gs[1] = 3;
                p[1] = p[0];
                p[1].uplo = u ? BblasUpper : BblasLower;
                p[1].n = n + 2;
                p[1].lda = n + 2;
                if (has_b(op) && layout == BblasColMajor) p[1].ldb = n + 2;
            }
            run(op, form, layout, ng, gs, p, d);
        }
}

/*
 * The variable form of every routine of the suite at the GPU variable-size
 * driver's block bounds (blocks of 32, complex 16: src/cuda/vardriver.cu):
 * one batch of sizes 1, 2, 31..33, 63..65, 127..129, 255..257 and 512,
 * uplo alternating, nrhs cycling; members that fail in the first, a middle
 * and the last block: for potrf, posv and poti a negative pivot, a NaN
 * pivot and a NaN off the diagonal; for trtri (non-unit) and potri exact
 * zeros on the diagonal.  Loop index: routine (potrf, potrs, posv, trtri
 * non-unit, trtri unit, lauum, potri, poti) x layout.
 */
START_TEST(t_var_big)
{
    static const int ns[] = {33, 1, 64, 129, 2, 257, 31, 65, 128, 512, 32, 255, 63, 127, 256};
    enum { NV = (int)(sizeof ns / sizeof ns[0]) };
    static const int ops[8] = {OP_POTRF, OP_POTRS, OP_POSV, OP_TRTRI, OP_TRTRI, OP_LAUUM, OP_POTRI, OP_POTI};
    const int op = ops[_i / 2], layout = _i % 2 ? BblasRowMajor : BblasColMajor;
    const int diag = _i / 2 == 4 ? BblasUnit : BblasNonUnit;
    tu_seed(7100 + (uint64_t)_i);
    pset p[NV];
    int ones[NV];
    defect d[NV];
    memset(d, 0, sizeof d);
    for (int i = 0; i < NV; i++) {
        p[i] = make_pset_n(op, layout, i % 2 ? BblasLower : BblasUpper, diag, ns[i], i);
        ones[i] = 1;
    }
    if (op == OP_POTRF || op == OP_POSV || op == OP_POTI) {
        d[3] = (defect){BAD_NEGDIAG, 97};  /* n = 129: the fourth block */
        d[5] = (defect){BAD_NANDIAG, 257}; /* the last column */
        d[9] = (defect){BAD_NANOFF, 6};    /* n = 512: the first block */
    } else if ((op == OP_TRTRI && diag == BblasNonUnit) || op == OP_POTRI) {
        d[3] = (defect){BAD_ZERODIAG, 97};
        d[5] = (defect){BAD_ZERODIAG, 257};
        d[9] = (defect){BAD_ZERODIAG, 6};
    }
    run(op, F_VAR, layout, NV, ones, p, d);
}
END_TEST

/*
 * The fixed form above the on-chip orders, where the GPU's blocked potrf
 * takes its blocks of 64 with the columns left of them on chip and potrs
 * solves both triangles on one read of B (trsm_panel.cu, up to 256): n =
 * 96, 127 .. 129, 192, 255, 256, both triangles, lda padded by one, nrhs
 * 1 or 33 (two panels of 32); three problems a batch, potrf and posv with
 * a negative pivot in the second block of 64 (column 97) of the middle
 * one.  Loop index: routine (potrf, potrs, posv) x layout.
 */
START_TEST(t_fixed_big)
{
    static const int ns[] = {96, 127, 128, 129, 192, 255, 256};
    static const int ops[3] = {OP_POTRF, OP_POTRS, OP_POSV};
    const int op = ops[_i / 2], layout = _i % 2 ? BblasRowMajor : BblasColMajor;
    tu_seed(7300 + (uint64_t)_i);
    for (size_t s = 0; s < sizeof ns / sizeof ns[0]; s++)
        for (int u = 0; u < 2; u++) {
            const int n = ns[s], three = 3;
            pset p;
            p.uplo = u ? BblasLower : BblasUpper;
            p.diag = BblasNonUnit;
            p.n = n;
            p.nrhs = has_b(op) ? (s + u) % 2 ? 33 : 1 : 0;
            p.lda = n + 1;
            p.ldb = has_b(op) ? (layout == BblasColMajor ? n : p.nrhs) + 1 : 0;
            defect d[3];
            memset(d, 0, sizeof d);
            if (op != OP_POTRS && n > 97) d[1] = (defect){BAD_NEGDIAG, 97};
            run(op, F_FIXED, layout, 1, &three, &p, d);
        }
}
END_TEST

static const int fail_ops[5] = {OP_POTRF, OP_POSV, OP_POTI, OP_TRTRI, OP_POTRI};

/* loop index i: routine i / 8, form (i / 2) % 4, layout i % 2 */
START_TEST(t_fail)
{
    tu_seed(77 + _i);
    fail_case(fail_ops[_i / 8], (_i / 2) % 4, _i % 2 ? BblasRowMajor : BblasColMajor);
}
END_TEST

/*
 * trtri, lauum, potri and poti at the CPU's across-problems bounds (16,
 * src/cpu/across.c): batches of 35 problems (full blocks of V lanes, V = 2..8 doubles or
 * 4..16 floats, and a partial one), n from 1 to 17, both triangles, trtri
 * both diagonals, padded leading dimensions; trtri (non-unit), potri and
 * poti (whose potrf then fails) with exactly zero diagonal entries in some
 * members, at lanes that move
 * from batch to batch (first, last, in the partial block).  Loop index:
 * routine _i / 4, form (_i / 2) % 2 (fixed, strided), layout _i % 2.
 */
START_TEST(t_across)
{
    static const int ops[4] = {OP_TRTRI, OP_LAUUM, OP_POTRI, OP_POTI};
    const int op = ops[_i / 4], form = (_i / 2) % 2 ? F_STRIDED : F_FIXED;
    const int layout = _i % 2 ? BblasRowMajor : BblasColMajor;
    tu_seed(9000 + _i);
    int z = 0;
    for (int n = 1; n <= 17; n++)
        for (int u = 0; u < 2; u++)
            for (int dg = 0; dg < (op == OP_TRTRI ? 2 : 1); dg++) {
                pset p;
                memset(&p, 0, sizeof p);
                p.uplo = u ? BblasLower : BblasUpper;
                p.diag = dg ? BblasUnit : BblasNonUnit;
                p.n = n;
                p.lda = n + z % 3;
                defect d[35];
                memset(d, 0, sizeof d);
                if (op != OP_LAUUM && !dg) { /* singular members: zeros at k and later */
                    d[z % 35] = (defect){BAD_ZERODIAG, 1 + z % n};
                    d[(7 * z + 8) % 35] = (defect){BAD_ZERODIAG, n};
                    d[32 + z % 3] = (defect){BAD_ZERODIAG, 1 + (z / 3) % n};
                }
                int gs = 35;
                run(op, form, layout, 1, &gs, &p, d);
                z++;
            }
}
END_TEST

/*
 * The same bits in a batch and alone, at the CPU's across-problems bounds:
 * a strided batch of 19 problems (two full blocks of V lanes for V <= 8
 * and a partial one) against the variable form of the same problems, which
 * the CPU runs one problem at a time (the one-problem kernels of chol.c,
 * which call the block on one lane within the bounds, or their own code
 * outside them: complex double potrf, trtri and lauum below their orders
 * of cpu_policy.h, while posv and potri keep the block at every order).
 * A, B and info bitwise equal; n = 1..17, both triangles.  Hermitian
 * positive definite matrices (potrf, posv, poti) and random triangles with
 * a dominant diagonal (trtri, lauum, potri).  Loop index: routine _i / 2,
 * layout _i % 2.
 */
START_TEST(t_across_bits)
{
    static const int ops[6] = {OP_POTRF, OP_POSV, OP_POTRS, OP_TRTRI, OP_LAUUM, OP_POTRI};
    const int op = ops[_i / 2], layout = _i % 2 ? BblasRowMajor : BblasColMajor;
    enum { CNT = 19, NR = 3 };
    tu_seed(9500 + _i);
    for (int n = 1; n <= 17; n++)
        for (int u = 0; u < 2; u++) {
            const int uplo = u ? BblasLower : BblasUpper, lda = n + u, ldb = layout == BblasColMajor ? n + 1 : NR;
            const int64_t sa = tu_foot(lda, layout, n, n) + GAP, sb = tu_foot(ldb, layout, n, NR) + GAP;
            T *A = tu_alloc(CNT, sa), *Av = tu_alloc(CNT, sa), *B = tu_alloc(CNT, sb), *Bv = tu_alloc(CNT, sb);
            for (int i = 0; i < CNT; i++) {
                T *a = A + i * sa;
                if (op == OP_POTRF || op == OP_POSV || op == OP_POTRS) tu_fill_hpd(a, lda, layout, n);
                else {
                    tu_fill(a, lda, layout, n, n);
                    for (int k = 0; k < n; k++) a[tu_idx(lda, layout, k, k)] = tu_T(n + 1.5 + tu_rand());
                }
                tu_fill(B + i * sb, ldb, layout, n, NR);
            }
            if (op == OP_POTRS) { /* factors of the library's potrf */
                int f[CNT + 1];
                f[0] = BblasErrorsReportAll;
                FN(potrf, batch_strided)(layout, uplo, n, A, lda, sa, CNT, f);
            }
            memcpy(Av, A, sizeof(T) * (size_t)(CNT * sa));
            memcpy(Bv, B, sizeof(T) * (size_t)(CNT * sb));
            int info[CNT + 1], infov[CNT + 1], U[CNT], D[CNT], N[CNT], NRv[CNT], LA[CNT], LB[CNT];
            T *pa[CNT], *pb[CNT];
            for (int i = 0; i < CNT; i++) {
                pa[i] = Av + i * sa;
                pb[i] = Bv + i * sb;
                U[i] = uplo;
                D[i] = BblasNonUnit;
                N[i] = n;
                NRv[i] = NR;
                LA[i] = lda;
                LB[i] = ldb;
            }
            info[0] = infov[0] = BblasErrorsReportAll;
            switch (op) {
            case OP_POTRF:
                FN(potrf, batch_strided)(layout, uplo, n, A, lda, sa, CNT, info);
                FN(potrf, batchv)(CNT, layout, U, N, pa, LA, infov);
                break;
            case OP_POSV:
                FN(posv, batch_strided)(layout, uplo, n, NR, A, lda, sa, B, ldb, sb, CNT, info);
                FN(posv, batchv)(CNT, layout, U, N, NRv, pa, LA, pb, LB, infov);
                break;
            case OP_POTRS:
                FN(potrs, batch_strided)(layout, uplo, n, NR, A, lda, sa, B, ldb, sb, CNT, info);
                FN(potrs, batchv)(CNT, layout, U, N, NRv, (const T *const *)pa, LA, pb, LB, infov);
                break;
            case OP_TRTRI:
                FN(trtri, batch_strided)(layout, uplo, BblasNonUnit, n, A, lda, sa, CNT, info);
                FN(trtri, batchv)(CNT, layout, U, D, N, pa, LA, infov);
                break;
            case OP_LAUUM:
                FN(lauum, batch_strided)(layout, uplo, n, A, lda, sa, CNT, info);
                FN(lauum, batchv)(CNT, layout, U, N, pa, LA, infov);
                break;
            default:
                FN(potri, batch_strided)(layout, uplo, n, A, lda, sa, CNT, info);
                FN(potri, batchv)(CNT, layout, U, N, pa, LA, infov);
                break;
            }
            for (int i = 0; i < CNT; i++)
                ck_assert_msg(!memcmp(A + i * sa, Av + i * sa, sizeof(T) * (size_t)sa) &&
                                  !memcmp(B + i * sb, Bv + i * sb, sizeof(T) * (size_t)sb) &&
                                  info[1 + i] == infov[1 + i],
                              "%s%s %s uplo=%s n=%d member %d: the batch and the problem alone differ (info %d, %d)",
                              TU_PNAME, op_name[op], tu_layout_name(layout), uplo_name(uplo), n, i, info[1 + i],
                              infov[1 + i]);
            free(A); free(Av); free(B); free(Bv);
        }
}
END_TEST

/* Empty batches: NULL arrays, a no-op that reports success. */
START_TEST(t_empty)
{
    int layout = _i ? BblasRowMajor : BblasColMajor;
    int gs0[2] = {0, 0};
    int U2[2] = {BblasUpper, BblasLower}, D2[2] = {BblasNonUnit, BblasUnit}, N2[2] = {3, 4};
    int info[3];
#define EXPECT_NOOP(what)                                                                        \
    do {                                                                                         \
        ck_assert_msg(info[0] == 0, "%s %s %s: info[0] = %d on an empty batch", TU_PNAME, what,  \
                      tu_layout_name(layout), info[0]);                                           \
    } while (0)
#define EMPTY_A(name)                                                                            \
    do {                                                                                         \
        info[0] = BblasErrorsReportAny;                                                          \
        FN(name, batch)(0, NULL, layout, NULL, NULL, NULL, NULL, info);                          \
        EXPECT_NOOP(#name "_batch");                                                             \
        info[0] = BblasErrorsReportGroup;                                                        \
        info[1] = info[2] = 99;                                                                  \
        FN(name, batch)(2, gs0, layout, U2, N2, NULL, N2, info);                                 \
        EXPECT_NOOP(#name "_batch (empty groups)");                                              \
        ck_assert_msg(info[1] == 0 && info[2] == 0, "%s %s: group codes %d %d", TU_PNAME,        \
                      #name, info[1], info[2]);                                                  \
        info[0] = BblasErrorsReportAny;                                                          \
        FN(name, batchf)(0, layout, BblasUpper, 3, NULL, 3, info);                               \
        EXPECT_NOOP(#name "_batchf");                                                            \
        info[0] = BblasErrorsReportAny;                                                          \
        FN(name, batchv)(0, layout, NULL, NULL, NULL, NULL, info);                               \
        EXPECT_NOOP(#name "_batchv");                                                            \
        info[0] = BblasErrorsReportAll;                                                          \
        FN(name, batch_strided)(layout, BblasLower, 3, NULL, 3, 9, 0, info);                     \
        EXPECT_NOOP(#name "_batch_strided");                                                     \
    } while (0)
    EMPTY_A(potrf);
    EMPTY_A(lauum);
    EMPTY_A(potri);
    EMPTY_A(poti);

    info[0] = BblasErrorsReportAny;
    FN(trtri, batch)(0, NULL, layout, NULL, NULL, NULL, NULL, NULL, info);
    EXPECT_NOOP("trtri_batch");
    info[0] = BblasErrorsReportAny;
    FN(trtri, batch)(2, gs0, layout, U2, D2, N2, NULL, N2, info);
    EXPECT_NOOP("trtri_batch (empty groups)");
    info[0] = BblasErrorsReportAny;
    FN(trtri, batchf)(0, layout, BblasUpper, BblasUnit, 3, NULL, 3, info);
    EXPECT_NOOP("trtri_batchf");
    info[0] = BblasErrorsReportAny;
    FN(trtri, batchv)(0, layout, NULL, NULL, NULL, NULL, NULL, info);
    EXPECT_NOOP("trtri_batchv");
    info[0] = BblasErrorsReportAny;
    FN(trtri, batch_strided)(layout, BblasUpper, BblasNonUnit, 3, NULL, 3, 9, 0, info);
    EXPECT_NOOP("trtri_batch_strided");

    info[0] = BblasErrorsReportAny;
    FN(potrs, batch)(0, NULL, layout, NULL, NULL, NULL, NULL, NULL, NULL, NULL, info);
    EXPECT_NOOP("potrs_batch");
    info[0] = BblasErrorsReportAny;
    FN(potrs, batchf)(0, layout, BblasUpper, 3, 2, NULL, 3, NULL, 3, info);
    EXPECT_NOOP("potrs_batchf");
    info[0] = BblasErrorsReportAny;
    FN(potrs, batchv)(0, layout, NULL, NULL, NULL, NULL, NULL, NULL, NULL, info);
    EXPECT_NOOP("potrs_batchv");
    info[0] = BblasErrorsReportAny;
    FN(potrs, batch_strided)(layout, BblasUpper, 3, 2, NULL, 3, 9, NULL, 3, 9, 0, info);
    EXPECT_NOOP("potrs_batch_strided");

    info[0] = BblasErrorsReportAny;
    FN(posv, batch)(0, NULL, layout, NULL, NULL, NULL, NULL, NULL, NULL, NULL, info);
    EXPECT_NOOP("posv_batch");
    info[0] = BblasErrorsReportAny;
    FN(posv, batchf)(0, layout, BblasLower, 3, 2, NULL, 3, NULL, 3, info);
    EXPECT_NOOP("posv_batchf");
    info[0] = BblasErrorsReportAny;
    FN(posv, batchv)(0, layout, NULL, NULL, NULL, NULL, NULL, NULL, NULL, info);
    EXPECT_NOOP("posv_batchv");
    info[0] = BblasErrorsReportAny;
    FN(posv, batch_strided)(layout, BblasLower, 3, 2, NULL, 3, 9, NULL, 3, 9, 0, info);
    EXPECT_NOOP("posv_batch_strided");
#undef EMPTY_A
#undef EXPECT_NOOP
}
END_TEST

/* Zero-size members with NULL matrices are legal and untouched. */
START_TEST(t_zero_null)
{
    int layout = _i ? BblasRowMajor : BblasColMajor;
    int info[4] = {BblasErrorsReportAll, 7, 7, 7};
    T *A[3] = {NULL, NULL, NULL};
    FN(potrf, batchf)(3, layout, BblasUpper, 0, A, 1, info);
    ck_assert_msg(info[0] == 0 && info[1] == 0 && info[2] == 0 && info[3] == 0,
                  "%spotrf_batchf %s n=0 NULL: info %d %d %d %d", TU_PNAME, tu_layout_name(layout), info[0],
                  info[1], info[2], info[3]);
    info[0] = BblasErrorsReportAll;
    FN(poti, batchf)(3, layout, BblasLower, 0, A, 1, info);
    ck_assert_msg(info[0] == 0 && info[1] == 0, "%spoti_batchf n=0 NULL: info %d", TU_PNAME, info[0]);
    info[0] = BblasErrorsReportAll;
    FN(trtri, batchf)(3, layout, BblasLower, BblasNonUnit, 0, A, 1, info);
    ck_assert_msg(info[0] == 0 && info[1] == 0, "%strtri_batchf n=0 NULL: info %d", TU_PNAME, info[0]);
    /* potrs with nrhs = 0: B is empty, A still read-only and untouched */
    T *a = tu_alloc(1, 4);
    T *Ac[3] = {a, a, a};
    info[0] = BblasErrorsReportAll;
    FN(potrs, batchf)(3, layout, BblasUpper, 2, 0, (T const *const *)Ac, 2, A, 2, info);
    ck_assert_msg(info[0] == 0 && info[1] == 0, "%spotrs_batchf nrhs=0: info %d", TU_PNAME, info[0]);
    ck_assert_msg(tu_untouched(a, 5), "%spotrs_batchf nrhs=0: A written", TU_PNAME);
    free(a);
}
END_TEST

#define PN(x) TU_PNAME x

void X(add_chol_tests)(Suite *s)
{
    const struct {
        const char *name;
        const TTest *test;
        int loops;
    } cases[] = {
        {PN("potrf"), t_potrf, 8}, {PN("potrs"), t_potrs, 8}, {PN("posv"), t_posv, 8},
        {PN("trtri"), t_trtri, 8}, {PN("lauum"), t_lauum, 8}, {PN("potri"), t_potri, 8},
        {PN("poti"), t_poti, 8},   {PN("chol_fail"), t_fail, 40}, {PN("chol_empty"), t_empty, 2},
        {PN("chol_zero_null"), t_zero_null, 2}, {PN("chol_across"), t_across, 16}, {PN("chol_across_bits"), t_across_bits, 12},
        {PN("chol_var_big"), t_var_big, 16}, {PN("chol_fixed_big"), t_fixed_big, 6},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        TCase *tc = tcase_create(cases[c].name);
        tcase_set_timeout(tc, 60);
        BB_ADD_LOOP(tc, cases[c].test, 0, cases[c].loops);
        suite_add_tcase(s, tc);
    }
}
