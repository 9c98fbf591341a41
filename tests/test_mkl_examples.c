/*
 * The call patterns of MKL's own batch examples (examples_core_c:
 * cblas_?gemm_batchx.c, cblas_[cz]gemm3m_batchx.c, cblas_?trsm_batchx.c),
 * written anew and checked against OpenBLAS's cblas_?gemm / cblas_?trsm run
 * per problem:
 *   - the MKL type names those examples' support code uses beside the batch
 *     calls (MKL_INT8..MKL_UINT64, MKL_UINT, MKL_LONG, CBLAS_OFFSET);
 *   - every precision (s, d, c, z) of the group forms, row-major, two groups
 *     of sizes 3 and 2, group 0 (Trans, Trans) and group 1 (Trans, NoTrans),
 *     tight leading dimensions, every problem in its own calloc'd block;
 *   - the 3M names cblas_[cz]gemm3m_batch in the same layout;
 *   - trsm groups Left/Lower/NoTrans/NonUnit and Right/Lower/NoTrans/NonUnit,
 *     A held in (order+1) x order blocks whose unreferenced triangle holds
 *     junk that must not be read.
 * Both layouts are run (the examples' data are row-major).
 */
#include <complex.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cblas.h>
#include "batchblas_mkl.h"

static int npass, nfail;

static void check(int ok, const char *fmt, ...)
{
    if (ok) { npass++; return; }
    nfail++;
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL: ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

/* ---- MKL type names ---------------------------------------------------- */
static void test_types(void)
{
    check(sizeof(MKL_INT8) == 1 && sizeof(MKL_UINT8) == 1, "MKL_INT8/MKL_UINT8 size");
    check(sizeof(MKL_INT16) == 2 && sizeof(MKL_UINT16) == 2, "MKL_INT16/MKL_UINT16 size");
    check(sizeof(MKL_INT32) == 4 && sizeof(MKL_UINT32) == 4, "MKL_INT32/MKL_UINT32 size");
    check(sizeof(MKL_INT64) == 8 && sizeof(MKL_UINT64) == 8, "MKL_INT64/MKL_UINT64 size");
    check(sizeof(MKL_UINT) == sizeof(MKL_INT) && (MKL_UINT)-1 > 0, "MKL_UINT");
    check(sizeof(MKL_LONG) == sizeof(long), "MKL_LONG");
    CBLAS_OFFSET o[3] = {CblasRowOffset, CblasColOffset, CblasFixOffset};
    check(o[0] == 171 && o[1] == 172 && o[2] == 173, "CBLAS_OFFSET values");
    check(sizeof(MKL_Complex8) == 2 * sizeof(float) && sizeof(MKL_Complex16) == 2 * sizeof(double),
          "MKL_Complex8/16 layout");
}

/* ---- element access over the four precisions ----------------------------- */
enum { S, D, C, Z };
static const char *pname = "sdcz";
static size_t esize(int p) { return p == S ? 4 : p == D ? 8 : p == C ? 8 : 16; }
static double _Complex get(const void *x, size_t i, int p)
{
    switch (p) {
    case S: return ((const float *)x)[i];
    case D: return ((const double *)x)[i];
    case C: return ((const float _Complex *)x)[i];
    default: return ((const double _Complex *)x)[i];
    }
}
static void put(void *x, size_t i, int p, double _Complex v)
{
    switch (p) {
    case S: ((float *)x)[i] = (float)creal(v); break;
    case D: ((double *)x)[i] = creal(v); break;
    case C: ((float _Complex *)x)[i] = (float _Complex)v; break;
    default: ((double _Complex *)x)[i] = v; break;
    }
}
static double rnd(void) { return (double)rand() / RAND_MAX - 0.5; }
static double _Complex crnd(int p) { return p >= C ? rnd() + rnd() * I : rnd(); }
static double tol(int p) { return p == S || p == C ? 2e-5 : 1e-13; }

static void *block(size_t n, int p) /* calloc'd, as the examples do */
{
    void *x = calloc(n ? n : 1, esize(p));
    if (!x) { printf("out of memory\n"); exit(2); }
    return x;
}

/* A scalar array of ng entries in precision p (alpha or beta per group). */
static void *scalars(const double _Complex *v, int ng, int p)
{
    void *x = block(ng, p);
    for (int g = 0; g < ng; g++) put(x, g, p, v[g]);
    return x;
}
static const void *scalar_at(const void *x, int g, int p) { return (const char *)x + g * esize(p); }

/* OpenBLAS reference, one problem */
static void ref_gemm(int p, CBLAS_LAYOUT L, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n,
                     int k, const void *al, const void *a, int lda, const void *b, int ldb,
                     const void *be, void *c, int ldc)
{
    switch (p) {
    case S: cblas_sgemm(L, ta, tb, m, n, k, *(const float *)al, a, lda, b, ldb, *(const float *)be, c, ldc); break;
    case D: cblas_dgemm(L, ta, tb, m, n, k, *(const double *)al, a, lda, b, ldb, *(const double *)be, c, ldc); break;
    case C: cblas_cgemm(L, ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc); break;
    default: cblas_zgemm(L, ta, tb, m, n, k, al, a, lda, b, ldb, be, c, ldc); break;
    }
}
static void ref_trsm(int p, CBLAS_LAYOUT L, CBLAS_SIDE sd, CBLAS_UPLO ul, CBLAS_TRANSPOSE ta,
                     CBLAS_DIAG dg, int m, int n, const void *al, const void *a, int lda, void *b, int ldb)
{
    switch (p) {
    case S: cblas_strsm(L, sd, ul, ta, dg, m, n, *(const float *)al, a, lda, b, ldb); break;
    case D: cblas_dtrsm(L, sd, ul, ta, dg, m, n, *(const double *)al, a, lda, b, ldb); break;
    case C: cblas_ctrsm(L, sd, ul, ta, dg, m, n, al, a, lda, b, ldb); break;
    default: cblas_ztrsm(L, sd, ul, ta, dg, m, n, al, a, lda, b, ldb); break;
    }
}

/* max |x - y| / max(1, max |y|) over an r x c matrix with leading dimension ld */
static double relerr(const void *x, const void *y, CBLAS_LAYOUT L, int r, int c, int ld, int p)
{
    double e = 0, mx = 1;
    for (int i = 0; i < r; i++)
        for (int j = 0; j < c; j++) {
            size_t o = L == CblasRowMajor ? (size_t)i * ld + j : (size_t)j * ld + i;
            e = fmax(e, cabs(get(x, o, p) - get(y, o, p)));
            mx = fmax(mx, cabs(get(y, o, p)));
        }
    return e / mx;
}
static size_t span(CBLAS_LAYOUT L, int r, int c, int ld)
{
    return L == CblasRowMajor ? (size_t)r * ld : (size_t)c * ld;
}

#define NG 2
#define NP 5 /* 3 + 2 */

/* ---- group gemm (and its 3M name) -------------------------------------- */
static void test_gemm_groups(int p, CBLAS_LAYOUT L, int three_m)
{
    const int gs[NG] = {3, 2}, m[NG] = {2, 3}, n[NG] = {5, 4}, k[NG] = {4, 2};
    const CBLAS_TRANSPOSE ta[NG] = {CblasTrans, CblasTrans}, tb[NG] = {CblasTrans, CblasNoTrans};
    const double _Complex av[NG] = {0.5 + (p >= C ? 0.25 * I : 0), 2.0},
                          bv[NG] = {-1.2 + (p >= C ? 0.5 * I : 0), 1.0};
    int lda[NG], ldb[NG], ldc[NG], ar[NG], ac[NG], br[NG], bc[NG];
    for (int g = 0; g < NG; g++) { /* stored shapes of op^-1: A is k x m when transposed */
        ar[g] = ta[g] == CblasNoTrans ? m[g] : k[g];
        ac[g] = ta[g] == CblasNoTrans ? k[g] : m[g];
        br[g] = tb[g] == CblasNoTrans ? k[g] : n[g];
        bc[g] = tb[g] == CblasNoTrans ? n[g] : k[g];
        lda[g] = L == CblasRowMajor ? ac[g] : ar[g]; /* tight, as in the examples */
        ldb[g] = L == CblasRowMajor ? bc[g] : br[g];
        ldc[g] = L == CblasRowMajor ? n[g] : m[g];
    }
    void *alpha = scalars(av, NG, p), *beta = scalars(bv, NG, p);
    void *A[NP], *B[NP], *Cm[NP], *R[NP];
    for (int i = 0, g = 0, left = gs[0]; i < NP; i++, left--) {
        if (!left) left = gs[++g];
        size_t na = span(L, ar[g], ac[g], lda[g]), nb = span(L, br[g], bc[g], ldb[g]),
               nc = span(L, m[g], n[g], ldc[g]);
        A[i] = block(na, p);
        B[i] = block(nb, p);
        Cm[i] = block(nc, p);
        R[i] = block(nc, p);
        for (size_t x = 0; x < na; x++) put(A[i], x, p, crnd(p));
        for (size_t x = 0; x < nb; x++) put(B[i], x, p, crnd(p));
        for (size_t x = 0; x < nc; x++) put(Cm[i], x, p, crnd(p));
        memcpy(R[i], Cm[i], nc * esize(p));
    }
    switch (p) {
    case S: cblas_sgemm_batch(L, ta, tb, m, n, k, alpha, (const float **)A, lda, (const float **)B,
                              ldb, beta, (float **)Cm, ldc, NG, gs); break;
    case D: cblas_dgemm_batch(L, ta, tb, m, n, k, alpha, (const double **)A, lda,
                              (const double **)B, ldb, beta, (double **)Cm, ldc, NG, gs); break;
    case C:
        if (three_m) cblas_cgemm3m_batch(L, ta, tb, m, n, k, alpha, (const void **)A, lda,
                                         (const void **)B, ldb, beta, Cm, ldc, NG, gs);
        else cblas_cgemm_batch(L, ta, tb, m, n, k, alpha, (const void **)A, lda, (const void **)B,
                               ldb, beta, Cm, ldc, NG, gs);
        break;
    default:
        if (three_m) cblas_zgemm3m_batch(L, ta, tb, m, n, k, alpha, (const void **)A, lda,
                                         (const void **)B, ldb, beta, Cm, ldc, NG, gs);
        else cblas_zgemm_batch(L, ta, tb, m, n, k, alpha, (const void **)A, lda, (const void **)B,
                               ldb, beta, Cm, ldc, NG, gs);
        break;
    }
    const char *lay = L == CblasRowMajor ? "row" : "col";
    for (int i = 0, g = 0, left = gs[0]; i < NP; i++, left--) {
        if (!left) left = gs[++g];
        ref_gemm(p, L, ta[g], tb[g], m[g], n[g], k[g], scalar_at(alpha, g, p), A[i], lda[g], B[i],
                 ldb[g], scalar_at(beta, g, p), R[i], ldc[g]);
        double e = relerr(Cm[i], R[i], L, m[g], n[g], ldc[g], p);
        check(e < tol(p), "cblas_%cgemm%s_batch %s problem %d (group %d): error %g vs OpenBLAS",
              pname[p], three_m ? "3m" : "", lay, i, g, e);
        free(A[i]); free(B[i]); free(Cm[i]); free(R[i]);
    }
    free(alpha);
    free(beta);
}

/* ---- group trsm ---------------------------------------------------------- */
static void test_trsm_groups(int p, CBLAS_LAYOUT L)
{
    const int gs[NG] = {3, 2}, m[NG] = {3, 3}, n[NG] = {2, 4};
    const CBLAS_SIDE sd[NG] = {CblasLeft, CblasRight};
    const CBLAS_UPLO ul[NG] = {CblasLower, CblasLower};
    const CBLAS_TRANSPOSE ta[NG] = {CblasNoTrans, CblasNoTrans};
    const CBLAS_DIAG dg[NG] = {CblasNonUnit, CblasNonUnit};
    const double _Complex av[NG] = {0.5, 2.0 + (p >= C ? 1.0 * I : 0)};
    int lda[NG], ldb[NG], na[NG];
    for (int g = 0; g < NG; g++) {
        na[g] = sd[g] == CblasLeft ? m[g] : n[g];
        lda[g] = na[g];                               /* square, tight */
        ldb[g] = L == CblasRowMajor ? n[g] : m[g];
    }
    void *alpha = scalars(av, NG, p);
    void *A[NP], *B[NP], *R[NP];
    for (int i = 0, g = 0, left = gs[0]; i < NP; i++, left--) {
        if (!left) left = gs[++g];
        size_t sa = (size_t)(na[g] + 1) * na[g], sb = span(L, m[g], n[g], ldb[g]);
        A[i] = block(sa, p); /* one spare row/column, as the examples allocate */
        B[i] = block(sb, p);
        R[i] = block(sb, p);
        for (int r = 0; r < na[g]; r++)
            for (int c = 0; c < na[g]; c++) {
                size_t o = L == CblasRowMajor ? (size_t)r * lda[g] + c : (size_t)c * lda[g] + r;
                double _Complex v = r == c ? 2.0 + fabs(rnd()) + (p >= C ? rnd() * I : 0)
                                  : r > c ? crnd(p) : 777.0; /* junk above: never read */
                put(A[i], o, p, v);
            }
        for (size_t x = 0; x < sb; x++) put(B[i], x, p, crnd(p));
        memcpy(R[i], B[i], sb * esize(p));
    }
    switch (p) {
    case S: cblas_strsm_batch(L, sd, ul, ta, dg, m, n, alpha, (const float **)A, lda, (float **)B,
                              ldb, NG, gs); break;
    case D: cblas_dtrsm_batch(L, sd, ul, ta, dg, m, n, alpha, (const double **)A, lda,
                              (double **)B, ldb, NG, gs); break;
    case C: cblas_ctrsm_batch(L, sd, ul, ta, dg, m, n, alpha, (const void **)A, lda, B, ldb, NG, gs); break;
    default: cblas_ztrsm_batch(L, sd, ul, ta, dg, m, n, alpha, (const void **)A, lda, B, ldb, NG, gs); break;
    }
    const char *lay = L == CblasRowMajor ? "row" : "col";
    for (int i = 0, g = 0, left = gs[0]; i < NP; i++, left--) {
        if (!left) left = gs[++g];
        ref_trsm(p, L, sd[g], ul[g], ta[g], dg[g], m[g], n[g], scalar_at(alpha, g, p), A[i], lda[g],
                 R[i], ldb[g]);
        double e = relerr(B[i], R[i], L, m[g], n[g], ldb[g], p);
        check(e < tol(p) * 10, "cblas_%ctrsm_batch %s problem %d (group %d): error %g vs OpenBLAS",
              pname[p], lay, i, g, e);
        free(A[i]); free(B[i]); free(R[i]);
    }
    free(alpha);
}

int main(void)
{
    srand(2024);
    test_types();
    const CBLAS_LAYOUT lays[2] = {CblasRowMajor, CblasColMajor};
    for (int l = 0; l < 2; l++)
        for (int p = S; p <= Z; p++) {
            test_gemm_groups(p, lays[l], 0);
            if (p >= C) test_gemm_groups(p, lays[l], 1);
            test_trsm_groups(p, lays[l]);
        }
    printf("test_mkl_examples: %d passed, %d failed\n", npass, nfail);
    return nfail == 0 ? 0 : 1;
}
