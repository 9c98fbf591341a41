/*
 * Tests of the norm family (compiled once per precision): lange and gecond
 * through the public API: every form, both layouts, every norm, square and
 * non-square (m < n, m > n) matrices, odd sizes up to 41 and 70, padded
 * leading dimensions, zero sizes, empty batches; entries near the over- and
 * underflow thresholds (Frobenius norm); NaN members (lange: NaN) and
 * singular members (gecond: the right k and +Inf).
 *
 * References are plain loops in double complex; gecond's reference inverse
 * is the test's own Gauss-Jordan.  A is read-only: its whole footprint and
 * the gaps between matrices must keep their bits.
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

/* a scale whose square over- (BIG) or underflows (SMALL) in this precision */
#if defined(BB_PREC_S) || defined(BB_PREC_C)
#  define BIG 1e25
#  define SMALL 1e-25
#else
#  define BIG 1e200
#  define SMALL 1e-200
#endif

enum { OP_LANGE, OP_GECOND, NOP };
static const char *const op_name[NOP] = {"lange", "gecond"};
enum { F_GROUP, F_FIXED, F_VAR, F_STRIDED, NFORM };
static const char *const form_name[NFORM] = {"batch", "batchf", "batchv", "batch_strided"};

static const int all_norms[4] = {BblasOneNorm, BblasInfNorm, BblasMaxNorm, BblasFrobeniusNorm};

typedef struct {
    int norm, m, n, lda; /* gecond: m = n */
} pset;

/*
 * gecond's singular members are singular the same way in A and A^T (a
 * row-major A reaches the kernel as the column-major A^T, see problem.c):
 * row and column c zero, or a NaN at (c,c); both give info c+1 with partial
 * pivoting in either layout.
 */
enum {
    D_NONE,
    D_NAN,      /* A(r,c) = NaN: lange gives NaN; gecond (r = c) info c+1 */
    D_ZEROCROSS, /* row and column c zero: gecond info c+1 */
    D_BIG,      /* A scaled by BIG (lange) */
    D_SMALL     /* A scaled by SMALL (lange) */
};
typedef struct {
    int kind, r, c;
} defect;

typedef struct {
    pset p;
    defect d;
    T *A, *A0;   /* the matrix and its footprint before the call */
    int64_t fa;
    zd *M;       /* logical A, m x n column-major */
    R *val;      /* value / cond */
} prob;

#define GAP 3

static int imin(int a, int b) { return a < b ? a : b; }
static int imax(int a, int b) { return a > b ? a : b; }

static const char *norm_name(int norm)
{
    switch (norm) {
    case BblasOneNorm: return "one";
    case BblasInfNorm: return "inf";
    case BblasMaxNorm: return "max";
    default: return "fro";
    }
}


/* ---- reference (double complex) ---- */

/* norm of the r x c X; the Frobenius norm scaled so that it neither over- nor underflows */
static double ref_norm(int norm, const zd *X, int r, int c)
{
    double v = 0;
    switch (norm) {
    case BblasOneNorm:
        for (int j = 0; j < c; j++) {
            double s = 0;
            for (int i = 0; i < r; i++) s += cabs(X[i + (int64_t)j * r]);
            v = s > v ? s : v;
        }
        return v;
    case BblasInfNorm:
        for (int i = 0; i < r; i++) {
            double s = 0;
            for (int j = 0; j < c; j++) s += cabs(X[i + (int64_t)j * r]);
            v = s > v ? s : v;
        }
        return v;
    case BblasMaxNorm:
        for (int64_t x = 0; x < (int64_t)r * c; x++) v = cabs(X[x]) > v ? cabs(X[x]) : v;
        return v;
    default: {
        double mx = 0, s = 0;
        for (int64_t x = 0; x < (int64_t)r * c; x++) {
            double a = fabs(creal(X[x])) > fabs(cimag(X[x])) ? fabs(creal(X[x])) : fabs(cimag(X[x]));
            mx = a > mx ? a : mx;
        }
        if (mx == 0) return 0;
        for (int64_t x = 0; x < (int64_t)r * c; x++) {
            double a = creal(X[x]) / mx, b = cimag(X[x]) / mx;
            s += a * a + b * b;
        }
        return mx * sqrt(s);
    }
    }
}


/* ---- set-up and checks ---- */

static int expected_info(int op, const defect *d)
{
    if (op != OP_GECOND) return 0;
    return d->kind == D_NAN || d->kind == D_ZEROCROSS ? d->c + 1 : 0;
}

static void make_problem(int layout, prob *q)
{
    int m = q->p.m, n = q->p.n;
    double scale = q->d.kind == D_BIG ? BIG : q->d.kind == D_SMALL ? SMALL : 1.0;
    q->M = zalloc((int64_t)m * n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            zd v = scale * tu_z(tu_rand_T());
            if (q->d.kind == D_ZEROCROSS && (i == q->d.c || j == q->d.c)) v = 0;
            if (q->d.kind == D_NAN && i == q->d.r && j == q->d.c) v = NAN;
            q->A[tu_idx(q->p.lda, layout, i, j)] = tu_T(v);
            q->M[i + (int64_t)j * m] = tu_z(q->A[tu_idx(q->p.lda, layout, i, j)]);
        }
    *q->val = (R)TU_SENTINEL;
    q->A0 = (T *)malloc(sizeof(T) * (size_t)q->fa);
    ck_assert_ptr_nonnull(q->A0);
    memcpy(q->A0, q->A, sizeof(T) * (size_t)q->fa);
}

static void verify(int op, int form, int layout, const prob *q, int idx, int info)
{
    const pset *p = &q->p;
    int m = p->m, n = p->n, expect = expected_info(op, &q->d);
    double v = *q->val;
    char where[200];
    snprintf(where, sizeof where, "%s%s_%s %s norm=%s m=%d n=%d lda=%d defect=%d(%d,%d) (problem %d)", TU_PNAME,
             op_name[op], form_name[form], tu_layout_name(layout), norm_name(p->norm), m, n, p->lda, q->d.kind,
             q->d.r, q->d.c, idx);

    ck_assert_msg(info == expect, "%s: info %d, expected %d", where, info, expect);
    ck_assert_msg(memcmp(q->A, q->A0, sizeof(T) * (size_t)q->fa) == 0, "%s: A was written", where);

    if (op == OP_LANGE) {
        if (m == 0 || n == 0) {
            ck_assert_msg(v == 0, "%s: value %g for an empty matrix, expected 0", where, v);
            return;
        }
        if (q->d.kind == D_NAN) {
            ck_assert_msg(isnan(v), "%s: value %g, expected NaN", where, v);
            return;
        }
        double ref = ref_norm(p->norm, q->M, m, n);
        double ratio = tu_ratio(fabs(v - ref), ref, imax(m, n), PREC_ID);
        ck_assert_msg(tu_accept(ratio), "%s: value %.17g, reference %.17g, ratio %g", where, v, ref, ratio);
        return;
    }
    /* gecond */
    if (expect) {
        ck_assert_msg(isinf(v) && v > 0, "%s: cond %g for a singular member, expected +Inf", where, v);
        return;
    }
    if (n == 0) {
        ck_assert_msg(v == 1, "%s: cond %g for n = 0, expected 1", where, v);
        return;
    }
    zd *Ai = zalloc((int64_t)n * n);
    ck_assert_msg(ref_inv(n, q->M, Ai), "%s: test matrix singular", where);
    double ref = ref_norm(p->norm, q->M, n, n) * ref_norm(p->norm, Ai, n, n);
    /* the inverse is computed to about cond * eps relative accuracy */
    double ratio = tu_ratio(fabs(v - ref), ref * ref, n, PREC_ID);
    ck_assert_msg(tu_accept(ratio), "%s: cond %.17g, reference %.17g, ratio %g", where, v, ref, ratio);
    free(Ai);
}

#define FN(name, form) BB_PUB(lapack, name, form)

static void call(int op, int form, int layout, int ng, const int *gs, const pset *gp, int count, prob *q,
                 const T *baseA, int64_t sa, R *val, int *info)
{
    int np = form == F_GROUP ? ng : count;
    int *ibuf = malloc(sizeof(int) * 4 * (size_t)(np + 1));
    T **Ap = malloc(sizeof(T *) * (size_t)(count + 1));
    ck_assert(ibuf && Ap);
    int *NO = ibuf, *Mm = NO + np + 1, *N = Mm + np + 1, *LA = N + np + 1;
    for (int i = 0; i < np; i++) {
        const pset *p = form == F_GROUP ? &gp[i] : &q[i].p;
        NO[i] = p->norm; Mm[i] = p->m; N[i] = p->n; LA[i] = p->lda;
    }
    for (int i = 0; i < count; i++) Ap[i] = q[i].A;
    T const *const *Ac = (T const *const *)Ap;
    if (count == 0) { /* empty batch: every array NULL */
        NO = Mm = N = LA = NULL;
        Ac = NULL;
    }
    const pset *g = &gp[0];
    if (op == OP_LANGE) {
        switch (form) {
        case F_GROUP: FN(lange, batch)(ng, gs, layout, NO, Mm, N, Ac, LA, val, info); break;
        case F_FIXED: FN(lange, batchf)(count, layout, g->norm, g->m, g->n, Ac, g->lda, val, info); break;
        case F_VAR: FN(lange, batchv)(count, layout, NO, Mm, N, Ac, LA, val, info); break;
        case F_STRIDED:
            FN(lange, batch_strided)(layout, g->norm, g->m, g->n, baseA, g->lda, sa, val, count, info);
            break;
        }
    } else {
        switch (form) {
        case F_GROUP: FN(gecond, batch)(ng, gs, layout, NO, N, Ac, LA, val, info); break;
        case F_FIXED: FN(gecond, batchf)(count, layout, g->norm, g->n, Ac, g->lda, val, info); break;
        case F_VAR: FN(gecond, batchv)(count, layout, NO, N, Ac, LA, val, info); break;
        case F_STRIDED: FN(gecond, batch_strided)(layout, g->norm, g->n, baseA, g->lda, sa, val, count, info); break;
        }
    }
    free(ibuf);
    free(Ap);
}

/* One batch: ng parameter sets, gs[g] problems each, defects d[i] (NULL: none). */
static void run(int op, int form, int layout, int ng, const int *gs, const pset *gp, const defect *d)
{
    int count = 0;
    for (int g = 0; g < ng; g++) count += gs[g];
    prob *q = calloc((size_t)count + 1, sizeof(prob));
    ck_assert_ptr_nonnull(q);
    int64_t sa = 1;
    for (int g = 0, i = 0; g < ng; g++)
        for (int s = 0; s < gs[g]; s++, i++) {
            q[i].p = gp[g];
            if (d) q[i].d = d[i];
            q[i].fa = tu_foot(gp[g].lda, layout, gp[g].m, gp[g].n);
            if (q[i].fa + GAP > sa) sa = q[i].fa + GAP;
        }
    T *baseA = tu_alloc(count, sa);
    R *val = malloc(sizeof(R) * (size_t)(count + 1));
    ck_assert_ptr_nonnull(val);
    val[count] = (R)TU_SENTINEL;
    for (int i = 0; i < count; i++) {
        q[i].A = baseA + i * sa;
        q[i].val = val + i;
        make_problem(layout, &q[i]);
    }
    int *info = malloc(sizeof(int) * (size_t)(count + 1));
    ck_assert_ptr_nonnull(info);
    info[0] = BblasErrorsReportAll;
    call(op, form, layout, form == F_GROUP ? ng : 1, gs, gp, count, q, baseA, sa, val, info);

    int first = 0;
    for (int i = 0; i < count; i++) {
        verify(op, form, layout, &q[i], i, info[1 + i]);
        if (!first) first = info[1 + i];
        ck_assert_msg(tu_untouched(q[i].A + q[i].fa, sa - q[i].fa), "%s%s_%s %s: written past A of problem %d",
                      TU_PNAME, op_name[op], form_name[form], tu_layout_name(layout), i);
    }
    ck_assert_msg(val[count] == (R)TU_SENTINEL, "%s%s_%s %s: written past the last value", TU_PNAME, op_name[op],
                  form_name[form], tu_layout_name(layout));
    ck_assert_msg(info[0] == first, "%s%s_%s %s: info[0] = %d, first problem code %d", TU_PNAME, op_name[op],
                  form_name[form], tu_layout_name(layout), info[0], first);
    for (int i = 0; i < count; i++) {
        free(q[i].A0);
        free(q[i].M);
    }
    free(baseA); free(val); free(info); free(q);
}

/* ---- sweeps ---- */

/* 47..65 cross the GPU on-chip kernels' column bounds (48, 56, 64: mid.cu) */
static const int sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 21, 25, 31, 32, 33, 37, 41, 47, 55, 57, 64, 65, 70};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))
static const int shapes[][2] = {{1, 5}, {5, 1}, {2, 3}, {3, 2}, {7, 12}, {12, 7}, {20, 33}, {33, 20}, {41, 70}, {70, 41}};
#define NSHAPES ((int)(sizeof shapes / sizeof shapes[0]))

static int nnorms(int op) { return op == OP_LANGE ? 4 : 2; }

/* m x n problem (gecond: n x n) with norm index o; v: padding variant */
static pset make_pset(int op, int layout, int m, int n, int o, int v)
{
    pset p;
    p.norm = all_norms[o % nnorms(op)];
    p.m = op == OP_GECOND ? n : m;
    p.n = n;
    int ca = layout == BblasColMajor ? p.m : n;
    p.lda = (ca > 0 ? ca : 1) + (v % 2 ? 0 : 2);
    return p;
}

/* the defect a member of variant v gets */
static defect make_defect(int op, int m, int n, int v)
{
    defect d = {D_NONE, 0, 0};
    int mn = imin(m, n);
    if (mn < 1) return d;
    if (op == OP_LANGE) {
        const int kinds[3] = {D_NAN, D_BIG, D_SMALL};
        d.kind = kinds[v % 3];
        d.r = (m - 1) * (v % 4) / 3;
        d.c = (n - 1) / 2;
    } else {
        d.kind = v % 3 == 1 ? D_NAN : D_ZEROCROSS;
        d.c = v % 2 ? n - 1 : n / 3;
        d.r = d.c;
    }
    return d;
}

static void sweep(int op, int form, int layout)
{
    int nshape = op == OP_LANGE ? NSHAPES : 0;
    int no = nnorms(op);
    if (form == F_FIXED) {
        for (int s = 0; s < NSIZES + nshape; s++)
            for (int o = 0; o < no; o++) {
                int m = s < NSIZES ? sizes[s] : shapes[s - NSIZES][0];
                int n = s < NSIZES ? sizes[s] : shapes[s - NSIZES][1];
                pset p = make_pset(op, layout, m, n, o, s + o);
                int cnt = 3;
                defect d[3] = {{D_NONE, 0, 0}, make_defect(op, p.m, n, s + o), {D_NONE, 0, 0}};
                run(op, form, layout, 1, &cnt, &p, d);
            }
        for (int z = 0; z < 3; z++) /* zero sizes */
            for (int o = 0; o < no; o++) {
                pset p = make_pset(op, layout, z == 1 ? 4 : 0, z == 2 ? 4 : 0, o, z);
                if (op == OP_GECOND && z) continue;
                int cnt = 2;
                run(op, form, layout, 1, &cnt, &p, NULL);
            }
    } else if (form == F_STRIDED) {
        const int ss[3][2] = {{6, 6}, {7, 10}, {33, 25}};
        for (int s = 0; s < 3; s++)
            for (int o = 0; o < no; o++) {
                pset p = make_pset(op, layout, ss[s][0], ss[s][1], o, s + o);
                int cnt = 4;
                defect d[4] = {{D_NONE, 0, 0}, {D_NONE, 0, 0}, make_defect(op, p.m, p.n, s + o), {D_NONE, 0, 0}};
                run(op, form, layout, 1, &cnt, &p, d);
            }
    } else if (form == F_VAR) {
        int nv = NSIZES + nshape + 2;
        pset *p = malloc(sizeof(pset) * (size_t)nv);
        defect *d = malloc(sizeof(defect) * (size_t)nv);
        int *ones = malloc(sizeof(int) * (size_t)nv);
        ck_assert(p && d && ones);
        for (int s = 0; s < nv; s++) {
            int m, n;
            if (s < NSIZES) m = n = sizes[s];
            else if (s < NSIZES + nshape) { m = shapes[s - NSIZES][0]; n = shapes[s - NSIZES][1]; }
            else { m = s % 2 ? 0 : 6; n = s % 2 ? 6 : 0; }
            p[s] = make_pset(op, layout, m, n, s, s);
            d[s] = s % 3 == 1 ? make_defect(op, p[s].m, p[s].n, s / 3) : (defect){D_NONE, 0, 0};
            ones[s] = 1;
        }
        run(op, form, layout, nv, ones, p, d);
        free(p); free(d); free(ones);
    } else { /* groups of different shapes and norms, one empty */
        for (int s = 0; s + 2 < NSIZES; s += 4) {
            pset p[4];
            int gs[4] = {2, 3, 0, 2};
            int a = sizes[s], b = sizes[s + 1], c = sizes[s + 2];
            p[0] = make_pset(op, layout, a, b, s, s);
            p[1] = make_pset(op, layout, b, c, s + 1, s + 1);
            p[2] = make_pset(op, layout, c, c, s + 2, s + 2);
            p[3] = make_pset(op, layout, c, a, s + 3, s + 3);
            defect d[7];
            for (int i = 0; i < 7; i++) d[i] = (defect){D_NONE, 0, 0};
            d[3] = make_defect(op, p[1].m, p[1].n, s);
            d[5] = make_defect(op, p[3].m, p[3].n, s + 1);
            run(op, form, layout, 4, gs, p, d);
        }
    }
}

static void sweep_test(int op, int i)
{
    tu_seed(3000 + 31 * op + i);
    sweep(op, i / 2, i % 2 ? BblasRowMajor : BblasColMajor);
}

/* loop index i: form i / 2, layout i % 2 */
START_TEST(t_lange) { sweep_test(OP_LANGE, _i); }
END_TEST
START_TEST(t_gecond) { sweep_test(OP_GECOND, _i); }
END_TEST

/*
 * gecond's variable form at the GPU variable-size driver's bounds (LU
 * panels of 32 columns, complex 16, beyond the on-chip kernels' 64:
 * src/cuda/vardriver.cu): one batch of orders 1, 2, 31..33, 63..65,
 * 127..129, 255..257, both norms, every third member singular in another
 * block position.  Loop index: layout.
 */
START_TEST(t_gecond_var_big)
{
    static const int ns[] = {33, 1, 64, 129, 2, 257, 31, 65, 128, 200, 32, 255, 63, 127, 256};
    enum { NV = (int)(sizeof ns / sizeof ns[0]) };
    const int layout = _i ? BblasRowMajor : BblasColMajor;
    tu_seed(3900 + (uint64_t)_i);
    pset p[NV];
    defect d[NV];
    int ones[NV];
    for (int s = 0; s < NV; s++) {
        p[s] = make_pset(OP_GECOND, layout, ns[s], ns[s], s, s);
        d[s] = s % 3 == 1 ? make_defect(OP_GECOND, ns[s], ns[s], s) : (defect){D_NONE, 0, 0};
        ones[s] = 1;
    }
    run(OP_GECOND, F_VAR, layout, NV, ones, p, d);
}
END_TEST

/*
 * lange and gecond at the CPU's across-problems bounds (16,
 * src/cpu/across.c): batches of 35 problems (full blocks of V lanes, V = 2..8 doubles or
 * 4..16 floats, and a partial one), n = 1..17 and 31..33 (lange also m != n),
 * every norm, defects (NaN, singular, over- and underflowing scales) at
 * lanes 1, 9, 17 and 34, leading dimensions tight and padded.  Loop index:
 * op x form (fixed, strided) x layout.
 */
static const int across_sizes[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 31, 32, 33};
#define NACROSS ((int)(sizeof across_sizes / sizeof across_sizes[0]))

START_TEST(t_across)
{
    const int op = _i / 4, form = (_i / 2) % 2 ? F_STRIDED : F_FIXED;
    const int layout = _i % 2 ? BblasRowMajor : BblasColMajor;
    tu_seed(7000 + 13 * (uint64_t)_i);
    for (int s = 0; s < NACROSS; s++)
        for (int o = 0; o < nnorms(op); o++)
            for (int sh = 0; sh < (op == OP_LANGE ? 2 : 1); sh++) {
                const int n = across_sizes[s], m = sh ? across_sizes[(s + 5) % NACROSS] : n;
                pset p = make_pset(op, layout, m, n, o, s + o + sh);
                int cnt = 35;
                defect d[35];
                for (int i = 0; i < cnt; i++) d[i] = (defect){D_NONE, 0, 0};
                d[1] = make_defect(op, p.m, n, o);
                d[9] = make_defect(op, p.m, n, o + 1);
                d[17] = make_defect(op, p.m, n, o + 2);
                d[34] = make_defect(op, p.m, n, n + o);
                run(op, form, layout, 1, &cnt, &p, d);
            }
}
END_TEST

/*
 * Across problems, every member of a strided batch gives bitwise the value
 * and info of the same member in the variable form (one problem at a time)
 * and alone, while other members hold NaN (every fifth), a zero row and
 * column (gecond: singular, every seventh) or a huge entry (every eleventh:
 * the Frobenius norm's rescaling in that lane only).  n = 1..17 and 31..33
 * (lange m = n and m = n + 3), every norm, both layouts, lda > rows.
 * Loop index: op x layout.
 */
START_TEST(t_across_alone)
{
    const int op = _i / 2, layout = _i % 2 ? BblasRowMajor : BblasColMajor;
    tu_seed(7500 + (uint64_t)_i);
    enum { CNT = 35 };
    for (int s = 0; s < NACROSS; s++)
        for (int o = 0; o < nnorms(op); o++)
            for (int sh = 0; sh < (op == OP_LANGE ? 2 : 1); sh++) {
                const int n = across_sizes[s], m = op == OP_LANGE && sh ? n + 3 : n, norm = all_norms[o];
                const int rows = layout == BblasColMajor ? m : n, cols = layout == BblasColMajor ? n : m;
                const int lda = rows + 1 + o % 2, sa = lda * cols + GAP;
                T *A = tu_alloc(CNT, sa);
                R val[CNT + 1], valv[CNT + 1], val1[2];
                int info[CNT + 1], infov[CNT + 1], info1[2];
                for (int i = 0; i < CNT; i++) {
                    T *a = A + (int64_t)i * sa;
                    tu_fill(a, lda, layout, m, n);
                    if (i % 11 == 6) a[tu_idx(lda, layout, (i / 11) % m, 0)] = (R)BIG;
                    if (i % 7 == 3) {
                        const int c = (i / 7) % n;
                        for (int r = 0; r < m; r++) a[tu_idx(lda, layout, r, c)] = 0;
                        if (c < m)
                            for (int j = 0; j < n; j++) a[tu_idx(lda, layout, c, j)] = 0;
                    }
                    if (i % 5 == 2) a[tu_idx(lda, layout, (i / 5) % m, (i / 3) % n)] = NAN;
                }
                T *A0 = tu_alloc(CNT, sa);
                memcpy(A0, A, sizeof(T) * (size_t)(CNT * sa));
                const T *pa[CNT];
                int vno[CNT], vm[CNT], vn[CNT], vla[CNT];
                for (int i = 0; i < CNT; i++) {
                    pa[i] = A + (int64_t)i * sa;
                    vno[i] = norm;
                    vm[i] = m;
                    vn[i] = n;
                    vla[i] = lda;
                }
                for (int i = 0; i <= CNT; i++) val[i] = valv[i] = (R)TU_SENTINEL;
                info[0] = infov[0] = BblasErrorsReportAll;
                if (op == OP_LANGE) {
                    FN(lange, batch_strided)(layout, norm, m, n, A, lda, sa, val, CNT, info);
                    FN(lange, batchv)(CNT, layout, vno, vm, vn, pa, vla, valv, infov);
                } else {
                    FN(gecond, batch_strided)(layout, norm, n, A, lda, sa, val, CNT, info);
                    FN(gecond, batchv)(CNT, layout, vno, vn, pa, vla, valv, infov);
                }
                ck_assert_msg(!memcmp(A, A0, sizeof(T) * (size_t)(CNT * sa)), "%s%s: A written", TU_PNAME,
                              op_name[op]);
                ck_assert_msg(val[CNT] == (R)TU_SENTINEL && valv[CNT] == (R)TU_SENTINEL,
                              "%s%s: written past the last value", TU_PNAME, op_name[op]);
                for (int i = 0; i < CNT; i++) {
                    char where[120];
                    snprintf(where, sizeof where, "%s%s %s norm=%s m=%d n=%d member %d", TU_PNAME, op_name[op],
                             tu_layout_name(layout), norm_name(norm), m, n, i);
                    ck_assert_msg(!memcmp(&val[i], &valv[i], sizeof(R)) && info[1 + i] == infov[1 + i],
                                  "%s: strided (%g, %d) and variable (%g, %d) forms differ", where, (double)val[i],
                                  info[1 + i], (double)valv[i], infov[1 + i]);
                    const int nan = i % 5 == 2, zero = i % 7 == 3;
                    if (op == OP_LANGE && nan)
                        ck_assert_msg(isnan(val[i]), "%s: value %g, expected NaN", where, (double)val[i]);
                    if (op == OP_LANGE && !nan)
                        ck_assert_msg(!isnan(val[i]) && val[i] >= 0, "%s: value %g", where, (double)val[i]);
                    if (op == OP_GECOND && (nan || zero))
                        ck_assert_msg(info[1 + i] > 0 && info[1 + i] <= n && isinf(val[i]), "%s: info %d, cond %g",
                                      where, info[1 + i], (double)val[i]);
                    if (op == OP_GECOND && !nan && !zero)
                        ck_assert_msg(info[1 + i] == 0 && !isnan(val[i]) && val[i] >= 0.5, "%s: info %d, cond %g",
                                      where, info[1 + i], (double)val[i]);
                }
                for (int i = 0; i < CNT; i += 3) { /* members alone: a batch of one */
                    const T *p1[1] = {A + (int64_t)i * sa};
                    val1[0] = val1[1] = (R)TU_SENTINEL;
                    info1[0] = BblasErrorsReportAll;
                    if (op == OP_LANGE)
                        FN(lange, batchf)(1, layout, norm, m, n, p1, lda, val1, info1);
                    else
                        FN(gecond, batchf)(1, layout, norm, n, p1, lda, val1, info1);
                    /* bitwise up to the across bound (a problem's bits never depend
                       on its batch there); above it a GPU's blocked path may pick
                       other kernels for a batch of one: equal to rounding */
                    const int same_bits = !memcmp(&val1[0], &val[i], sizeof(R));
                    const int close = same_bits || (isfinite(val[i]) && isfinite(val1[0]) &&
                                                    fabs((double)(val1[0] - val[i])) <=
                                                        1e3 * tu_eps(TU_PREC_ID) * fabs((double)val[i]));
                    ck_assert_msg((m <= 16 && n <= 16 ? same_bits : close) && info1[1] == info[1 + i] &&
                                      val1[1] == (R)TU_SENTINEL,
                                  "%s%s %s norm=%s m=%d n=%d member %d: alone differs from the batch (%g, %g)",
                                  TU_PNAME, op_name[op], tu_layout_name(layout), norm_name(norm), m, n, i,
                                  (double)val1[0], (double)val[i]);
                }
                free(A);
                free(A0);
            }
}
END_TEST

/* Empty batches: NULL arrays everywhere, a no-op with info[0] = 0. */
START_TEST(t_empty)
{
    for (int f = 0; f < NFORM; f++)
        for (int op = 0; op < NOP; op++) {
            int info[2] = {BblasErrorsReportAll, 12345};
            pset g = {BblasOneNorm, 1, 1, 1};
            prob q0;
            memset(&q0, 0, sizeof q0);
            q0.p = g;
            call(op, f, BblasRowMajor, f == F_GROUP ? 0 : 1, NULL, &g, 0, &q0, NULL, 1, NULL, info);
            ck_assert_msg(info[0] == 0, "%s%s_%s: empty batch gave info[0] = %d", TU_PNAME, op_name[op],
                          form_name[f], info[0]);
            ck_assert_msg(info[1] == 12345, "%s%s_%s: empty batch wrote info[1]", TU_PNAME, op_name[op],
                          form_name[f]);
        }
}
END_TEST

void X(add_norm_tests)(Suite *s)
{
    TCase *tc = tcase_create("norm_" TU_PNAME);
    tcase_set_timeout(tc, 60);
    BB_ADD_LOOP(tc, t_lange, 0, 2 * NFORM);
    BB_ADD_LOOP(tc, t_gecond, 0, 2 * NFORM);
    BB_ADD_LOOP(tc, t_across, 0, 2 * 2 * NOP);
    BB_ADD_LOOP(tc, t_across_alone, 0, 2 * NOP);
    tcase_add_test(tc, t_empty);
    suite_add_tcase(s, tc);
    TCase *vb = tcase_create("norm_var_big_" TU_PNAME); /* its own case: a sanitizer run can take it alone */
    tcase_set_timeout(vb, 120);
    BB_ADD_LOOP(vb, t_gecond_var_big, 0, 2);
    suite_add_tcase(s, vb);
}
