/*
 * test_mkl_shim: calls every MKL name of libbatchblas_mkl in double and
 * double complex (and the single precisions once) and checks the results
 * with scaled residuals, the per-problem info codes of the LAPACK-style
 * routines (positions in MKL's signatures) and that bad problems are left
 * untouched.  Plain C, no Check: prints "N passed, M failed", exit 0/1.
 *
 * It also checks that batchblas_mkl.h and <cblas.h> can be used in one
 * translation unit (batchblas_mkl.h is included first here; the CBLAS enum
 * arrays below are cblas.h's types).
 */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "batchblas_mkl.h"
#include <cblas.h>

typedef double _Complex zd;

static int npass, nfail;

static void check(int ok, const char *fmt, ...)
{
    if (ok) {
        npass++;
        return;
    }
    nfail++;
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL: ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

#define THRESH 30.0
#define SENT (-77.25)
#define PREC_NAME(z) ((z) ? "z" : "d")

/* ---- storage in d (z = 0) or z (z = 1) --------------------------------- */

static zd get(const void *p, int64_t i, int z)
{
    return z ? ((const zd *)p)[i] : ((const double *)p)[i];
}

static void set(void *p, int64_t i, int z, zd v)
{
    if (z) ((zd *)p)[i] = v;
    else ((double *)p)[i] = creal(v);
}

static double rnd(void) { return rand() / (double)RAND_MAX * 2.0 - 1.0; }

static void *alloc(int64_t n, int z)
{
    void *p = malloc((size_t)(n + 1) * (z ? sizeof(zd) : sizeof(double)));
    for (int64_t i = 0; i <= n; i++) set(p, i, z, SENT);
    return p;
}

static void *dup(const void *p, int64_t n, int z)
{
    void *q = alloc(n, z);
    memcpy(q, p, (size_t)n * (z ? sizeof(zd) : sizeof(double)));
    return q;
}

static int same(const void *p, const void *q, int64_t n, int z)
{
    return memcmp(p, q, (size_t)n * (z ? sizeof(zd) : sizeof(double))) == 0;
}

/* random m x n column-major (ld), diagonal boosted by diag */
static void fill(void *p, int ld, int m, int n, int z, double diag)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++)
            set(p, i + (int64_t)j * ld, z, rnd() + (z ? rnd() * I : 0) + (i == j ? diag : 0));
}

static int64_t idx(int ld, int row, int i, int j) { return row ? (int64_t)i * ld + j : i + (int64_t)j * ld; }

/* op(A)(i, l) of a stored matrix */
static zd opget(const void *A, int ld, int row, int trans, int i, int l, int z)
{
    if (trans == CblasNoTrans) return get(A, idx(ld, row, i, l), z);
    zd v = get(A, idx(ld, row, l, i), z);
    return trans == CblasConjTrans ? conj(v) : v;
}

/* ---- gemm ------------------------------------------------------------------ */

/* ratio of one product: C against alpha*op(A)*op(B) + beta*C0 */
static double gemm_ratio(int row, int ta, int tb, int m, int n, int k, zd alpha, const void *A,
                         int lda, const void *B, int ldb, zd beta, const void *C0, const void *C,
                         int ldc, int z)
{
    double err = 0, scale = 0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            zd s = 0;
            double sa = 0;
            for (int l = 0; l < k; l++) {
                zd t = opget(A, lda, row, ta, i, l, z) * opget(B, ldb, row, tb, l, j, z);
                s += t;
                sa += cabs(t);
            }
            zd want = alpha * s + beta * get(C0, idx(ldc, row, i, j), z);
            err = fmax(err, cabs(get(C, idx(ldc, row, i, j), z) - want));
            scale = fmax(scale, cabs(alpha) * sa + cabs(beta * get(C0, idx(ldc, row, i, j), z)));
        }
    if (scale == 0) scale = 1;
    return err / (scale * (k + 1) * DBL_EPSILON);
}

static void test_gemm_batch(int z, int row)
{
    /* group 0: 2 x NoTrans/NoTrans 3x2x4; group 1: 2 x Trans/ConjTrans 2x3x2; group 2 bad (m < 0) */
    const CBLAS_TRANSPOSE ta[3] = {CblasNoTrans, CblasTrans, CblasNoTrans};
    const CBLAS_TRANSPOSE tb[3] = {CblasNoTrans, CblasConjTrans, CblasNoTrans};
    const int m[3] = {3, 2, -1}, n[3] = {2, 3, 2}, k[3] = {4, 2, 2}, gs[3] = {2, 2, 1};
    int lda[3], ldb[3], ldc[3];
    zd alpha[3] = {1.5, 0.5 - (z ? 0.25 * I : 0), 1}, beta[3] = {0, 2 + (z ? I : 0), 1};
    double ar[6], br[6];
    zd az[3], bz[3];
    void *A[5], *B[5], *C[5], *C0[5];
    int64_t na[5], nc[5];
    for (int g = 0; g < 3; g++) {
        int mg = m[g] < 0 ? 2 : m[g];
        int arows = ta[g] == CblasNoTrans ? mg : k[g], acols = ta[g] == CblasNoTrans ? k[g] : mg;
        int brows = tb[g] == CblasNoTrans ? k[g] : n[g], bcols = tb[g] == CblasNoTrans ? n[g] : k[g];
        lda[g] = (row ? acols : arows) + 1;
        ldb[g] = (row ? bcols : brows) + 1;
        ldc[g] = (row ? n[g] : mg) + 2;
        ar[g] = creal(alpha[g]);
        br[g] = creal(beta[g]);
        az[g] = alpha[g];
        bz[g] = beta[g];
    }
    for (int i = 0, g = 0, left = gs[0]; i < 5; i++, left--) {
        if (left == 0) left = gs[++g];
        int mg = m[g] < 0 ? 2 : m[g];
        na[i] = (int64_t)lda[g] * 8;
        nc[i] = (int64_t)ldc[g] * (row ? mg : n[g]);
        A[i] = alloc(na[i], z);
        B[i] = alloc((int64_t)ldb[g] * 8, z);
        C[i] = alloc(nc[i], z);
        fill(A[i], 1, (int)na[i], 1, z, 0);
        fill(B[i], 1, ldb[g] * 8, 1, z, 0);
        fill(C[i], 1, (int)nc[i], 1, z, 0);
        C0[i] = dup(C[i], nc[i], z);
    }
    CBLAS_LAYOUT layout = row ? CblasRowMajor : CblasColMajor;
    if (z)
        cblas_zgemm_batch(layout, ta, tb, m, n, k, az, (const void **)A, lda, (const void **)B, ldb,
                          bz, C, ldc, 3, gs);
    else
        cblas_dgemm_batch(layout, ta, tb, m, n, k, ar, (const double **)A, lda,
                          (const double **)B, ldb, br, (double **)C, ldc, 3, gs);
    for (int i = 0, g = 0, left = gs[0]; i < 5; i++, left--) {
        if (left == 0) left = gs[++g];
        if (m[g] < 0) {
            check(same(C[i], C0[i], nc[i] + 1, z), "cblas_%sgemm_batch %s: bad group's C written",
                  PREC_NAME(z), row ? "row" : "col");
            continue;
        }
        double r = gemm_ratio(row, ta[g], tb[g], m[g], n[g], k[g], alpha[g], A[i], lda[g], B[i],
                              ldb[g], beta[g], C0[i], C[i], ldc[g], z);
        check(r < THRESH, "cblas_%sgemm_batch %s problem %d: ratio %g", PREC_NAME(z),
              row ? "row" : "col", i, r);
    }
    for (int i = 0; i < 5; i++) {
        free(A[i]); free(B[i]); free(C[i]); free(C0[i]);
    }
}

static void test_gemm_batch_strided(int z, int row)
{
    const int m = 4, n = 3, k = 5, count = 4;
    /* A is m x k, B (transposed) is stored n x k */
    const int lda = row ? k : m, ldb = row ? k + 1 : n, ldc = row ? n : m + 1;
    const int64_t sa = (int64_t)lda * (row ? m : k), sb = (int64_t)ldb * (row ? n : k) + 3;
    const int64_t sc = (int64_t)ldc * (row ? m : n) + 1;
    zd alpha = 0.75 + (z ? 0.5 * I : 0), beta = -1;
    void *A = alloc(sa * count, z), *B = alloc(sb * count, z), *C = alloc(sc * count, z);
    fill(A, 1, (int)(sa * count), 1, z, 0);
    fill(B, 1, (int)(sb * count), 1, z, 0);
    fill(C, 1, (int)(sc * count), 1, z, 0);
    for (int i = 0; i < count; i++) set(C, i * sc + sc - 1, z, SENT); /* gap after each C_i */
    void *C0 = dup(C, sc * count + 1, z);
    CBLAS_LAYOUT layout = row ? CblasRowMajor : CblasColMajor;
    if (z)
        cblas_zgemm_batch_strided(layout, CblasNoTrans, CblasTrans, m, n, k, &alpha, A, lda, sa,
                                  B, ldb, sb, &beta, C, ldc, sc, count);
    else
        cblas_dgemm_batch_strided(layout, CblasNoTrans, CblasTrans, m, n, k, creal(alpha), A, lda,
                                  sa, B, ldb, sb, creal(beta), C, ldc, sc, count);
    if (!z) alpha = creal(alpha);
    for (int i = 0; i < count; i++) {
        double r = gemm_ratio(row, CblasNoTrans, CblasTrans, m, n, k, alpha,
                              (const char *)A + i * sa * (z ? 16 : 8), lda,
                              (const char *)B + i * sb * (z ? 16 : 8), ldb, beta,
                              (const char *)C0 + i * sc * (z ? 16 : 8),
                              (const char *)C + i * sc * (z ? 16 : 8), ldc, z);
        check(r < THRESH, "cblas_%sgemm_batch_strided %s problem %d: ratio %g", PREC_NAME(z),
              row ? "row" : "col", i, r);
    }
    /* gaps between the matrices untouched */
    for (int i = 0; i < count; i++)
        check(get(C, i * sc + sc - 1, z) == SENT, "cblas_%sgemm_batch_strided %s: gap after C_%d written",
              PREC_NAME(z), row ? "row" : "col", i);
    free(A); free(B); free(C); free(C0);
}

/* ---- trsm ------------------------------------------------------------------ */

/* effective element of a triangular matrix (only the uplo triangle, unit diagonal) */
static zd tri(const void *A, int lda, int row, int uplo, int diag, int i, int j, int z)
{
    if (i == j && diag == CblasUnit) return 1;
    if (uplo == CblasUpper ? i > j : i < j) return 0;
    return get(A, idx(lda, row, i, j), z);
}

/* ratio of op(A) X = alpha B0 (left) or X op(A) = alpha B0 (right) */
static double trsm_ratio(int row, int side, int uplo, int ta, int diag, int m, int n, zd alpha,
                         const void *A, int lda, const void *X, const void *B0, int ldb, int z)
{
    int na = side == CblasLeft ? m : n;
    double err = 0, an = 0, xn = 0;
    for (int i = 0; i < na; i++)
        for (int j = 0; j < na; j++) an = fmax(an, cabs(tri(A, lda, row, uplo, diag, i, j, z)));
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            zd s = 0;
            for (int l = 0; l < na; l++) {
                int r = side == CblasLeft ? i : l, c = side == CblasLeft ? l : j; /* op(A)(r, c) */
                int ar = ta == CblasNoTrans ? r : c, ac = ta == CblasNoTrans ? c : r;
                zd a = tri(A, lda, row, uplo, diag, ar, ac, z);
                if (ta == CblasConjTrans) a = conj(a);
                s += side == CblasLeft ? a * get(X, idx(ldb, row, l, j), z)
                                       : get(X, idx(ldb, row, i, l), z) * a;
            }
            err = fmax(err, cabs(s - alpha * get(B0, idx(ldb, row, i, j), z)));
            xn = fmax(xn, cabs(get(X, idx(ldb, row, i, j), z)));
        }
    double scale = an * xn * na;
    if (!(scale > 0)) scale = 1;
    return err / (scale * DBL_EPSILON);
}

static void test_trsm_batch(int z, int row)
{
    const CBLAS_SIDE side[2] = {CblasLeft, CblasRight};
    const CBLAS_UPLO uplo[2] = {CblasLower, CblasUpper};
    const CBLAS_TRANSPOSE ta[2] = {CblasNoTrans, CblasConjTrans};
    const CBLAS_DIAG diag[2] = {CblasNonUnit, CblasUnit};
    const int m[2] = {4, 3}, n[2] = {3, 5}, gs[2] = {2, 3};
    int lda[2], ldb[2];
    zd alpha[2] = {2, 1 - (z ? I : 0)};
    double ar[2] = {2, 1};
    void *A[5], *B[5], *B0[5];
    for (int g = 0; g < 2; g++) {
        int na = side[g] == CblasLeft ? m[g] : n[g];
        lda[g] = na + 1;
        ldb[g] = (row ? n[g] : m[g]) + 1;
    }
    for (int i = 0; i < 5; i++) {
        int g = i < gs[0] ? 0 : 1, na = side[g] == CblasLeft ? m[g] : n[g];
        A[i] = alloc((int64_t)lda[g] * na, z);
        fill(A[i], lda[g], lda[g], na, z, 4.0); /* dominant diagonal: well conditioned */
        int64_t nb = (int64_t)ldb[g] * (row ? m[g] : n[g]);
        B[i] = alloc(nb, z);
        fill(B[i], 1, (int)nb, 1, z, 0);
        B0[i] = dup(B[i], nb, z);
    }
    CBLAS_LAYOUT layout = row ? CblasRowMajor : CblasColMajor;
    if (z)
        cblas_ztrsm_batch(layout, side, uplo, ta, diag, m, n, alpha, (const void **)A, lda, B, ldb,
                          2, gs);
    else
        cblas_dtrsm_batch(layout, side, uplo, ta, diag, m, n, ar, (const double **)A, lda,
                          (double **)B, ldb, 2, gs);
    for (int i = 0; i < 5; i++) {
        int g = i < gs[0] ? 0 : 1;
        int t = (!z && ta[g] == CblasConjTrans) ? CblasTrans : ta[g];
        double r = trsm_ratio(row, side[g], uplo[g], t, diag[g], m[g], n[g],
                              z ? alpha[g] : ar[g], A[i], lda[g], B[i], B0[i], ldb[g], z);
        check(r < THRESH, "cblas_%strsm_batch %s problem %d: ratio %g", PREC_NAME(z),
              row ? "row" : "col", i, r);
        free(A[i]); free(B[i]); free(B0[i]);
    }
}

static void test_trsm_batch_strided(int z, int row)
{
    const int m = 5, n = 3, count = 3, lda = m, ldb = row ? n : m;
    const int64_t sa = (int64_t)lda * m, sb = (int64_t)ldb * (row ? m : n) + 2;
    zd alpha = 0.5 + (z ? 2 * I : 0);
    void *A = alloc(sa * count, z), *B = alloc(sb * count, z);
    for (int i = 0; i < count; i++) fill((char *)A + i * sa * (z ? 16 : 8), lda, m, m, z, 4.0);
    fill(B, 1, (int)(sb * count), 1, z, 0);
    void *B0 = dup(B, sb * count, z);
    CBLAS_LAYOUT layout = row ? CblasRowMajor : CblasColMajor;
    if (z)
        cblas_ztrsm_batch_strided(layout, CblasLeft, CblasUpper, CblasTrans, CblasNonUnit, m, n,
                                  &alpha, A, lda, sa, B, ldb, sb, count);
    else
        cblas_dtrsm_batch_strided(layout, CblasLeft, CblasUpper, CblasTrans, CblasNonUnit, m, n,
                                  creal(alpha), A, lda, sa, B, ldb, sb, count);
    if (!z) alpha = creal(alpha);
    for (int i = 0; i < count; i++) {
        size_t es = z ? 16 : 8;
        double r = trsm_ratio(row, CblasLeft, CblasUpper, CblasTrans, CblasNonUnit, m, n, alpha,
                              (char *)A + i * sa * es, lda, (char *)B + i * sb * es,
                              (char *)B0 + i * sb * es, ldb, z);
        check(r < THRESH, "cblas_%strsm_batch_strided %s problem %d: ratio %g", PREC_NAME(z),
              row ? "row" : "col", i, r);
    }
    free(A); free(B); free(B0);
}

/* ---- LU family (column-major, LAPACK style) ------------------------------- */

/* ratio of P*A0 = L*U for an m x n factorisation */
static double getrf_ratio(int m, int n, const void *A0, const void *F, int lda, const int *ipiv, int z)
{
    int mn = m < n ? m : n;
    zd *PA = malloc(sizeof(zd) * (size_t)m * n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) PA[i + j * m] = get(A0, i + (int64_t)j * lda, z);
    for (int j = 0; j < mn; j++) {
        int p = ipiv[j] - 1;
        if (p < j || p >= m) { /* pivots must be 1-based, >= j */
            free(PA);
            return INFINITY;
        }
        for (int c = 0; c < n; c++) {
            zd t = PA[j + c * m];
            PA[j + c * m] = PA[p + c * m];
            PA[p + c * m] = t;
        }
    }
    double err = 0, an = 0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            zd s = 0;
            for (int l = 0; l < mn && l <= i && l <= j; l++) {
                zd lv = l == i ? 1 : get(F, i + (int64_t)l * lda, z);
                s += lv * get(F, l + (int64_t)j * lda, z);
            }
            err = fmax(err, cabs(s - PA[i + j * m]));
            an = fmax(an, cabs(PA[i + j * m]));
        }
    free(PA);
    if (!(an > 0)) an = 1;
    return err / (an * (mn + 1) * DBL_EPSILON);
}

/* ratio of op(A0) X = B0 */
static double solve_ratio(int trans, int n, int nrhs, const void *A0, int lda, const void *X,
                          const void *B0, int ldb, int z)
{
    double err = 0, an = 0, xn = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < nrhs; j++) {
            zd s = 0;
            for (int l = 0; l < n; l++) {
                zd a = trans == 'N' ? get(A0, i + (int64_t)l * lda, z) : get(A0, l + (int64_t)i * lda, z);
                if (trans == 'C') a = conj(a);
                s += a * get(X, l + (int64_t)j * ldb, z);
                an = fmax(an, cabs(a));
            }
            err = fmax(err, cabs(s - get(B0, i + (int64_t)j * ldb, z)));
            xn = fmax(xn, cabs(get(X, i + (int64_t)j * ldb, z)));
        }
    double scale = an * xn * n;
    if (!(scale > 0)) scale = 1;
    return err / (scale * DBL_EPSILON);
}

/* ratio of A0 * Ainv = I */
static double inv_ratio(int n, const void *A0, int lda, const void *Ainv, int ldi, int z)
{
    double err = 0, an = 0, in = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            zd s = 0;
            for (int l = 0; l < n; l++) s += get(A0, i + (int64_t)l * lda, z) * get(Ainv, l + (int64_t)j * ldi, z);
            err = fmax(err, cabs(s - (i == j ? 1 : 0)));
            an = fmax(an, cabs(get(A0, i + (int64_t)j * lda, z)));
            in = fmax(in, cabs(get(Ainv, i + (int64_t)j * ldi, z)));
        }
    double scale = an * in * n;
    if (!(scale > 0)) scale = 1;
    return err / (scale * DBL_EPSILON);
}

static void call_getrf_batch(int z, const int *m, const int *n, void **a, const int *lda,
                             int **ipiv, int gc, const int *gs, int *info)
{
    if (z) zgetrf_batch(m, n, (MKL_Complex16 **)a, lda, ipiv, &gc, gs, info);
    else dgetrf_batch(m, n, (double **)a, lda, ipiv, &gc, gs, info);
}

static void call_getrf_strided(int z, int m, int n, void *a, int lda, int sa, int *ipiv, int sp,
                               int count, int *info)
{
    if (z) zgetrf_batch_strided(&m, &n, a, &lda, &sa, ipiv, &sp, &count, info);
    else dgetrf_batch_strided(&m, &n, a, &lda, &sa, ipiv, &sp, &count, info);
}

static void test_getrf_batch(int z)
{
    /* group 0: 2 x (4x3), lda 5; group 1: 3 x (5x5), problem 3 singular (column 2 zero);
       group 2: 1 problem with m < 0 */
    const int m[3] = {4, 5, -1}, n[3] = {3, 5, 2}, lda[3] = {5, 5, 3}, gs[3] = {2, 3, 1};
    void *A[6], *A0[6];
    int *ipiv[6], info[6];
    for (int i = 0; i < 6; i++) {
        int g = i < 2 ? 0 : i < 5 ? 1 : 2;
        A[i] = alloc((int64_t)lda[g] * n[g], z);
        fill(A[i], lda[g], m[g] < 0 ? 2 : m[g], n[g], z, 0);
        if (i == 3)
            for (int r = 0; r < m[g]; r++) set(A[i], r + 1 * lda[g], z, 0);
        A0[i] = dup(A[i], (int64_t)lda[g] * n[g] + 1, z);
        ipiv[i] = malloc(sizeof(int) * 6);
        for (int p = 0; p < 6; p++) ipiv[i][p] = -5;
        info[i] = 99;
    }
    call_getrf_batch(z, m, n, A, lda, ipiv, 3, gs, info);
    for (int i = 0; i < 6; i++) {
        int g = i < 2 ? 0 : i < 5 ? 1 : 2;
        int want = i == 3 ? 2 : i == 5 ? -1 : 0; /* -1: m is argument 1 of ?getrf_batch */
        check(info[i] == want, "%sgetrf_batch problem %d: info %d, expected %d", PREC_NAME(z), i,
              info[i], want);
        if (g == 2) {
            check(same(A[i], A0[i], (int64_t)lda[g] * n[g] + 1, z) && ipiv[i][0] == -5,
                  "%sgetrf_batch: the bad problem was written", PREC_NAME(z));
            continue;
        }
        double r = getrf_ratio(m[g], n[g], A0[i], A[i], lda[g], ipiv[i], z);
        check(r < THRESH, "%sgetrf_batch problem %d: ratio %g", PREC_NAME(z), i, r);
    }
    for (int i = 0; i < 6; i++) {
        free(A[i]); free(A0[i]); free(ipiv[i]);
    }
}

/* getrf_batch_strided, then getrs_batch_strided (N and T/C), getri_oop in both forms */
static void test_lu_chain(int z)
{
    const int n = 5, count = 4, lda = 6, sa = lda * n + 1, sp = n + 2, ldb = 7, nrhs = 2;
    const int sb = ldb * nrhs, ldi = 5, si = ldi * n;
    void *A = alloc((int64_t)sa * count, z);
    for (int i = 0; i < count; i++) fill((char *)A + (int64_t)i * sa * (z ? 16 : 8), lda, n, n, z, 2.0);
    void *A0 = dup(A, (int64_t)sa * count + 1, z);
    int *ipiv = malloc(sizeof(int) * sp * count), info[4];
    call_getrf_strided(z, n, n, A, lda, sa, ipiv, sp, count, info);
    size_t es = z ? 16 : 8;
    for (int i = 0; i < count; i++) {
        check(info[i] == 0, "%sgetrf_batch_strided problem %d: info %d", PREC_NAME(z), i, info[i]);
        double r = getrf_ratio(n, n, (char *)A0 + i * sa * es, (char *)A + i * sa * es, lda,
                               ipiv + i * sp, z);
        check(r < THRESH, "%sgetrf_batch_strided problem %d: ratio %g", PREC_NAME(z), i, r);
    }

    /* solves */
    const char *trans[2] = {"N", z ? "C" : "t"};
    for (int t = 0; t < 2; t++) {
        void *B = alloc((int64_t)sb * count, z);
        fill(B, 1, sb * count, 1, z, 0);
        void *B0 = dup(B, (int64_t)sb * count, z);
        int ncount = count;
        for (int i = 0; i < count; i++) info[i] = 99;
        if (z)
            zgetrs_batch_strided(trans[t], &n, &nrhs, A, &lda, &sa, ipiv, &sp, B, &ldb, &sb, &ncount,
                                 info);
        else
            dgetrs_batch_strided(trans[t], &n, &nrhs, A, &lda, &sa, ipiv, &sp, B, &ldb, &sb, &ncount,
                                 info);
        for (int i = 0; i < count; i++) {
            check(info[i] == 0, "%sgetrs_batch_strided %s problem %d: info %d", PREC_NAME(z),
                  trans[t], i, info[i]);
            int tc = trans[t][0] == 'N' ? 'N' : trans[t][0] == 'C' ? 'C' : 'T';
            double r = solve_ratio(tc, n, nrhs, (char *)A0 + i * sa * es, lda,
                                   (char *)B + i * sb * es, (char *)B0 + i * sb * es, ldb, z);
            check(r < THRESH, "%sgetrs_batch_strided %s problem %d: ratio %g", PREC_NAME(z),
                  trans[t], i, r);
        }
        free(B); free(B0);
    }

    /* out-of-place inverse, strided */
    void *Ai = alloc((int64_t)si * count, z);
    int ncount = count;
    if (z)
        zgetri_oop_batch_strided(&n, A, &lda, &sa, ipiv, &sp, Ai, &ldi, &si, &ncount, info);
    else
        dgetri_oop_batch_strided(&n, A, &lda, &sa, ipiv, &sp, Ai, &ldi, &si, &ncount, info);
    for (int i = 0; i < count; i++) {
        check(info[i] == 0, "%sgetri_oop_batch_strided problem %d: info %d", PREC_NAME(z), i, info[i]);
        double r = inv_ratio(n, (char *)A0 + i * sa * es, lda, (char *)Ai + i * si * es, ldi, z);
        check(r < THRESH, "%sgetri_oop_batch_strided problem %d: ratio %g", PREC_NAME(z), i, r);
    }

    /* out-of-place inverse, group form: group 0 = problems 0, 1; group 1 = problems 2, 3
       with a too small ldainv (argument 6) */
    void *Aptr[4], *Iptr[4];
    const int *pptr[4];
    const int gn[2] = {n, n}, glda[2] = {lda, lda}, gldi[2] = {ldi, ldi - 1}, gs[2] = {2, 2};
    for (int i = 0; i < count; i++) {
        Aptr[i] = (char *)A + i * sa * es;
        pptr[i] = ipiv + i * sp;
        Iptr[i] = alloc(si, z);
        info[i] = 99;
    }
    int gc = 2;
    if (z)
        zgetri_oop_batch(gn, (const MKL_Complex16 **)Aptr, glda, pptr, (MKL_Complex16 **)Iptr,
                         gldi, &gc, gs, info);
    else
        dgetri_oop_batch(gn, (const double **)Aptr, glda, pptr, (double **)Iptr, gldi, &gc, gs,
                         info);
    for (int i = 0; i < count; i++) {
        int want = i < 2 ? 0 : -6;
        check(info[i] == want, "%sgetri_oop_batch problem %d: info %d, expected %d", PREC_NAME(z),
              i, info[i], want);
        if (i < 2) {
            double r = inv_ratio(n, (char *)A0 + i * sa * es, lda, Iptr[i], ldi, z);
            check(r < THRESH, "%sgetri_oop_batch problem %d: ratio %g", PREC_NAME(z), i, r);
        } else {
            void *s = alloc(si, z);
            check(same(Iptr[i], s, si + 1, z), "%sgetri_oop_batch: bad group's Ainv written",
                  PREC_NAME(z));
            free(s);
        }
        free(Iptr[i]);
    }
    free(A); free(A0); free(ipiv); free(Ai);
}

/* argument errors of the LAPACK-style routines: codes are MKL positions */
static void test_lapack_errors(int z)
{
    const int n = 3, count = 3;
    int lda = n, sa = n * n, sp = n, info[3];
    void *A = alloc((int64_t)sa * count, z);
    fill(A, 1, sa * count, 1, z, 3.0);
    void *A0 = dup(A, (int64_t)sa * count + 1, z);
    int ipiv[9];

    /* lda < m: argument 4 */
    for (int i = 0; i < count; i++) info[i] = 99;
    call_getrf_strided(z, n, n, A, n - 1, sa, ipiv, sp, count, info);
    for (int i = 0; i < count; i++)
        check(info[i] == -4, "%sgetrf_batch_strided lda: info[%d] = %d, expected -4",
              PREC_NAME(z), i, info[i]);
    check(same(A, A0, (int64_t)sa * count + 1, z), "%sgetrf_batch_strided lda: A written",
          PREC_NAME(z));

    /* overlapping stride_a: argument 5; negative stride_ipiv: argument 7 */
    call_getrf_strided(z, n, n, A, lda, sa - 1, ipiv, sp, count, info);
    check(info[0] == -5 && info[2] == -5, "%sgetrf_batch_strided stride_a: info %d",
          PREC_NAME(z), info[0]);
    call_getrf_strided(z, n, n, A, lda, sa, ipiv, -1, count, info);
    check(info[0] == -7 && info[2] == -7, "%sgetrf_batch_strided stride_ipiv: info %d",
          PREC_NAME(z), info[0]);
    /* NULL a with problems: argument 3, every problem */
    call_getrf_strided(z, n, n, NULL, lda, sa, ipiv, sp, count, info);
    check(info[0] == -3 && info[1] == -3 && info[2] == -3,
          "%sgetrf_batch_strided a NULL: info %d %d %d", PREC_NAME(z), info[0], info[1], info[2]);
    /* empty batch: nothing written, info not touched */
    info[0] = 99;
    call_getrf_strided(z, n, n, A, lda, sa, ipiv, sp, 0, info);
    check(info[0] == 99, "%sgetrf_batch_strided empty batch wrote info", PREC_NAME(z));
    check(same(A, A0, (int64_t)sa * count + 1, z), "%sgetrf_batch_strided: A written by a failed call",
          PREC_NAME(z));

    /* getrs: bad trans (argument 1), bad nrhs (argument 3), small ldb (argument 10) */
    void *B = alloc(3 * 2 * count, z);
    int nrhs = 2, ldb = 3, sb = 6, cnt = count;
    const char *bad = "X";
    struct { const char *tr; int nrhs, ldb, want; } cases[] = {
        {bad, 2, 3, -1}, {"N", -1, 3, -3}, {"n", 2, 2, -10}};
    for (int c = 0; c < 3; c++) {
        nrhs = cases[c].nrhs;
        ldb = cases[c].ldb;
        for (int i = 0; i < count; i++) ipiv[i * sp] = ipiv[i * sp + 1] = ipiv[i * sp + 2] = 1;
        if (z)
            zgetrs_batch_strided(cases[c].tr, &n, &nrhs, A, &lda, &sa, ipiv, &sp, B, &ldb, &sb, &cnt,
                                 info);
        else
            dgetrs_batch_strided(cases[c].tr, &n, &nrhs, A, &lda, &sa, ipiv, &sp, B, &ldb, &sb, &cnt,
                                 info);
        check(info[0] == cases[c].want && info[1] == cases[c].want && info[2] == cases[c].want,
              "%sgetrs_batch_strided case %d: info %d, expected %d", PREC_NAME(z), c, info[0],
              cases[c].want);
    }
    void *Bs = alloc(3 * 2 * count, z);
    check(same(B, Bs, 3 * 2 * count + 1, z), "%sgetrs_batch_strided: B written by a failed call",
          PREC_NAME(z));

    /* getri_oop strided: overlapping stride_ainv (argument 9) */
    void *Ai = alloc((int64_t)sa * count, z);
    int ldi = n, si = n * n - 1;
    if (z) zgetri_oop_batch_strided(&n, A, &lda, &sa, ipiv, &sp, Ai, &ldi, &si, &cnt, info);
    else dgetri_oop_batch_strided(&n, A, &lda, &sa, ipiv, &sp, Ai, &ldi, &si, &cnt, info);
    check(info[0] == -9 && info[2] == -9, "%sgetri_oop_batch_strided stride_ainv: info %d",
          PREC_NAME(z), info[0]);

    /* group getrf: negative group_count (argument 6) writes nothing */
    int gm = n, gs = 1, gc = -1;
    void *ap[1] = {A};
    int *pp[1] = {ipiv};
    info[0] = 99;
    if (z) zgetrf_batch(&gm, &gm, (MKL_Complex16 **)ap, &lda, pp, &gc, &gs, info);
    else dgetrf_batch(&gm, &gm, (double **)ap, &lda, pp, &gc, &gs, info);
    check(info[0] == 99, "%sgetrf_batch group_count < 0 wrote info", PREC_NAME(z));
    free(A); free(A0); free(B); free(Bs); free(Ai);
}

/* ---- CBLAS argument errors: reported to the error handler ---------------- */

static int handler_calls, handler_code;
static char handler_name[64];

static void handler(const char *routine, int code, void *user)
{
    (void)user;
    handler_calls++;
    handler_code = code;
    snprintf(handler_name, sizeof handler_name, "%s", routine);
}

static void test_cblas_errors(void)
{
    double A[16], B[16], C[16], C0[16];
    for (int i = 0; i < 16; i++) A[i] = B[i] = C[i] = C0[i] = i;
    batchblas_set_error_handler(handler, NULL);
    handler_calls = 0;
    /* lda < m: the native strided gemm reports its lda (argument 9) */
    cblas_dgemm_batch_strided(CblasColMajor, CblasNoTrans, CblasNoTrans, 4, 4, 4, 1.0, A, 3, 0, B,
                              4, 0, 0.0, C, 4, 16, 1);
    check(handler_calls == 1 && handler_code == -9 && !strcmp(handler_name, "blas_dgemm_batch_strided"),
          "cblas_dgemm_batch_strided lda: handler calls %d code %d name %s", handler_calls,
          handler_code, handler_name);
    check(!memcmp(C, C0, sizeof C), "cblas_dgemm_batch_strided: C written by a failed call");
    handler_calls = 0;
    cblas_dtrsm_batch_strided(CblasRowMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit, 4,
                              4, 1.0, A, 4, 16, B, 4, 16, -1);
    check(handler_calls == 1 && handler_code < 0, "cblas_dtrsm_batch_strided batch_size < 0: %d calls",
          handler_calls);
    batchblas_set_error_handler(NULL, NULL);
}

/* single precisions: one call each, to see that they are wired */
static void test_single(void)
{
    float a[4] = {1, 2, 3, 4}, b[4] = {1, 0, 0, 1}, c[4] = {0, 0, 0, 0};
    cblas_sgemm_batch_strided(CblasColMajor, CblasNoTrans, CblasNoTrans, 2, 2, 2, 1.0f, a, 2, 4, b, 2,
                              4, 0.0f, c, 2, 4, 1);
    check(c[0] == 1 && c[1] == 2 && c[2] == 3 && c[3] == 4, "cblas_sgemm_batch_strided: wrong C");
    float _Complex ca[1] = {2}, cb[1] = {3 * I}, cc[1] = {0}, one = 1, zero = 0;
    cblas_cgemm_batch_strided(CblasColMajor, CblasNoTrans, CblasNoTrans, 1, 1, 1, &one, ca, 1, 1, cb,
                              1, 1, &zero, cc, 1, 1, 1);
    check(cc[0] == 6 * I, "cblas_cgemm_batch_strided: wrong C");
    int m = 2, info[1] = {99}, piv[2], lda = 2, s = 4, sp = 2, cnt = 1;
    float f[4] = {0, 1, 1, 0}; /* needs the row swap */
    sgetrf_batch_strided(&m, &m, f, &lda, &s, piv, &sp, &cnt, info);
    check(info[0] == 0 && piv[0] == 2 && f[0] == 1, "sgetrf_batch_strided: info %d piv %d", info[0],
          piv[0]);
    MKL_Complex8 g[4] = {{0, 0}, {1, 0}, {1, 0}, {0, 0}};
    info[0] = 99;
    cgetrf_batch_strided(&m, &m, g, &lda, &s, piv, &sp, &cnt, info);
    check(info[0] == 0 && piv[0] == 2 && g[0].real == 1, "cgetrf_batch_strided: info %d piv %d",
          info[0], piv[0]);
}

/* cblas_[cz]gemm3m_batch[_strided]: the same results as the complex gemm
   names (an alias of the complex gemm path), bit for bit */
static void test_gemm3m(void)
{
    enum { M = 3, N = 2, K = 4, B = 2 };
    double _Complex a[K * M * B], b[K * N * B], c1[M * N * B], c2[M * N * B];
    float _Complex fa[K * M * B], fb[K * N * B], f1[M * N * B], f2[M * N * B];
    for (int i = 0; i < K * M * B; i++) fa[i] = a[i] = rnd() + rnd() * I;
    for (int i = 0; i < K * N * B; i++) fb[i] = b[i] = rnd() + rnd() * I;
    for (int i = 0; i < M * N * B; i++) f1[i] = f2[i] = c1[i] = c2[i] = rnd() - rnd() * I;
    double _Complex alpha = 0.5 - 1.5 * I, beta = 2.0 + 0.25 * I;
    float _Complex falpha = alpha, fbeta = beta;
    /* strided, A conjugate-transposed (K x M stored) */
    cblas_zgemm3m_batch_strided(CblasColMajor, CblasConjTrans, CblasNoTrans, M, N, K, &alpha, a, K,
                                K * M, b, K, K * N, &beta, c1, M, M * N, B);
    cblas_zgemm_batch_strided(CblasColMajor, CblasConjTrans, CblasNoTrans, M, N, K, &alpha, a, K,
                              K * M, b, K, K * N, &beta, c2, M, M * N, B);
    check(!memcmp(c1, c2, sizeof c1), "cblas_zgemm3m_batch_strided differs from cblas_zgemm_batch_strided");
    cblas_cgemm3m_batch_strided(CblasRowMajor, CblasNoTrans, CblasTrans, M, N, K, &falpha, fa, K,
                                K * M, fb, K, K * N, &fbeta, f1, N, M * N, B);
    cblas_cgemm_batch_strided(CblasRowMajor, CblasNoTrans, CblasTrans, M, N, K, &falpha, fa, K,
                              K * M, fb, K, K * N, &fbeta, f2, N, M * N, B);
    check(!memcmp(f1, f2, sizeof f1), "cblas_cgemm3m_batch_strided differs from cblas_cgemm_batch_strided");
    /* group form: one group of B problems */
    CBLAS_TRANSPOSE ta[1] = {CblasTrans}, tb[1] = {CblasNoTrans};
    int m[1] = {M}, n[1] = {N}, k[1] = {K}, lda[1] = {K}, ldb[1] = {K}, ldc[1] = {M}, gs[1] = {B};
    const void *ap[B], *bp[B];
    void *cp1[B], *cp2[B], *fcp1[B], *fcp2[B];
    const void *fap[B], *fbp[B];
    for (int p = 0; p < B; p++) {
        ap[p] = a + p * K * M;
        bp[p] = b + p * K * N;
        cp1[p] = c1 + p * M * N;
        cp2[p] = c2 + p * M * N;
        fap[p] = fa + p * K * M;
        fbp[p] = fb + p * K * N;
        fcp1[p] = f1 + p * M * N;
        fcp2[p] = f2 + p * M * N;
    }
    cblas_zgemm3m_batch(CblasColMajor, ta, tb, m, n, k, &alpha, ap, lda, bp, ldb, &beta, cp1, ldc, 1, gs);
    cblas_zgemm_batch(CblasColMajor, ta, tb, m, n, k, &alpha, ap, lda, bp, ldb, &beta, cp2, ldc, 1, gs);
    check(!memcmp(c1, c2, sizeof c1), "cblas_zgemm3m_batch differs from cblas_zgemm_batch");
    cblas_cgemm3m_batch(CblasColMajor, ta, tb, m, n, k, &falpha, fap, lda, fbp, ldb, &fbeta, fcp1, ldc,
                        1, gs);
    cblas_cgemm_batch(CblasColMajor, ta, tb, m, n, k, &falpha, fap, lda, fbp, ldb, &fbeta, fcp2, ldc,
                      1, gs);
    check(!memcmp(f1, f2, sizeof f1), "cblas_cgemm3m_batch differs from cblas_cgemm_batch");
    /* and the product itself: C = alpha A^T B + beta C0 for problem 0 (z) */
    double _Complex c0[M * N], ref;
    for (int i = 0; i < M * N; i++) c0[i] = c1[i] = rnd() + rnd() * I;
    cblas_zgemm3m_batch(CblasColMajor, ta, tb, m, n, k, &alpha, ap, lda, bp, ldb, &beta, cp1, ldc, 1, gs);
    double err = 0;
    for (int j = 0; j < N; j++)
        for (int i = 0; i < M; i++) {
            ref = beta * c0[i + j * M];
            for (int l = 0; l < K; l++) ref += alpha * a[l + i * K] * b[l + j * K];
            err = fmax(err, cabs(ref - c1[i + j * M]));
        }
    check(err < 1e-13, "cblas_zgemm3m_batch: wrong C (error %g)", err);
}

int main(void)
{
    srand(12345);
    for (int z = 0; z < 2; z++) {
        for (int row = 0; row < 2; row++) {
            test_gemm_batch(z, row);
            test_gemm_batch_strided(z, row);
            test_trsm_batch(z, row);
            test_trsm_batch_strided(z, row);
        }
        test_getrf_batch(z);
        test_lu_chain(z);
        test_lapack_errors(z);
    }
    test_cblas_errors();
    test_single();
    test_gemm3m();
    printf("test_mkl_shim: %d passed, %d failed\n", npass, nfail);
    return nfail == 0 ? 0 : 1;
}
