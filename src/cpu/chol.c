/*
 * CPU kernels of the Cholesky family (compiled once per precision):
 * potrf, potrs, posv, trtri, lauum, potri, poti on one normalised
 * column-major problem.
 *
 * Small sizes run our own unblocked loops (LAPACK's unblocked algorithms,
 * written so that every inner loop runs over contiguous memory and the
 * compiler vectorises it); above the crossovers of cpu_policy.h the work goes
 * to LAPACKE_*_work (column-major, no transposition) and CBLAS.  Only the
 * uplo triangle of A is read or written.
 *
 * Complex products are written out on real and imaginary parts (mul, mulc):
 * the C operator would guard every product with a library call for the
 * Inf/NaN special cases of Annex G, which stops vectorisation.
 */
#include <lapacke.h>
#include "small.h"

#ifdef _OPENMP
#  define SIMD _Pragma("omp simd")
#  define SIMD_SUM1 _Pragma("omp simd reduction(+:s)")
#  define SIMD_SUM2 _Pragma("omp simd reduction(+:sr, si)")
#else
#  define SIMD
#  define SIMD_SUM1
#  define SIMD_SUM2
#endif

#if defined(BB_PREC_S) || defined(BB_PREC_C)
#  define RSQRT sqrtf
#else
#  define RSQRT sqrt
#endif

/* real and imaginary parts in the precision of T (0 for the imaginary part of a real) */
#define RE(x) (__real__(x))
#define IM(x) (__imag__(x))

#if BB_COMPLEX
#  if defined(BB_PREC_C)
#    define MK(re, im) CMPLXF((re), (im))
#  else
#    define MK(re, im) CMPLX((re), (im))
#  endif
static inline T mul(T a, T b) { return MK(RE(a) * RE(b) - IM(a) * IM(b), RE(a) * IM(b) + IM(a) * RE(b)); }
/* conj(a) * b */
static inline T mulc(T a, T b) { return MK(RE(a) * RE(b) + IM(a) * IM(b), RE(a) * IM(b) - IM(a) * RE(b)); }
static inline T cnj(T a) { return MK(RE(a), -IM(a)); }
#else
static inline T mul(T a, T b) { return a * b; }
static inline T mulc(T a, T b) { return a * b; }
static inline T cnj(T a) { return a; }
#endif

static inline R abs2(T a) { return RE(a) * RE(a) + IM(a) * IM(a); }

/* sum_i conj(x[i]) * y[i] */
static inline T dotc(int n, const T *x, const T *y)
{
#if BB_COMPLEX
    R sr = 0, si = 0;
    SIMD_SUM2
    for (int i = 0; i < n; i++) {
        sr += RE(x[i]) * RE(y[i]) + IM(x[i]) * IM(y[i]);
        si += RE(x[i]) * IM(y[i]) - IM(x[i]) * RE(y[i]);
    }
    return MK(sr, si);
#else
    T s = 0;
    SIMD_SUM1
    for (int i = 0; i < n; i++) s += x[i] * y[i];
    return s;
#endif
}

/* sum_i |x[i]|^2 */
static inline R sumsq(int n, const T *x)
{
    R s = 0;
    SIMD_SUM1
    for (int i = 0; i < n; i++) s += abs2(x[i]);
    return s;
}

/* y -= a * x */
static inline void axpy_sub(int n, T a, const T *x, T *y)
{
    SIMD
    for (int i = 0; i < n; i++) y[i] -= mul(a, x[i]);
}

/* y += a * x */
static inline void axpy_add(int n, T a, const T *x, T *y)
{
    SIMD
    for (int i = 0; i < n; i++) y[i] += mul(a, x[i]);
}

static inline void scal(int n, T a, T *x)
{
    SIMD
    for (int i = 0; i < n; i++) x[i] = mul(a, x[i]);
}

static inline void rscal(int n, R a, T *x)
{
    SIMD
    for (int i = 0; i < n; i++) x[i] *= a;
}

static inline char lp_uplo(int uplo) { return uplo == BblasUpper ? 'U' : 'L'; }

/* ------------------------------------------------------------------------ */
/* potrf                                                                      */
/* ------------------------------------------------------------------------ */

/* A = U^H U, row by row (LAPACK potf2): U(j,j) from the dot of column j,
   then row j right of it by dots of column j with the columns to the right.
   On failure A(j,j) holds the non-positive (or NaN) pivot, as in LAPACK. */
static int potrf_upper(int n, T *A, int64_t lda)
{
    for (int j = 0; j < n; j++) {
        T *cj = A + j * lda;
        R d = RE(cj[j]) - sumsq(j, cj);
        if (!(d > 0)) { /* also NaN */
            cj[j] = d;
            return j + 1;
        }
        d = RSQRT(d);
        cj[j] = d;
        R r = 1 / d;
        for (int c = j + 1; c < n; c++) {
            T *cc = A + c * lda;
            cc[j] = (cc[j] - dotc(j, cj, cc)) * r;
        }
    }
    return 0;
}

/* A = L L^H, column by column (left-looking): column j below the diagonal
   minus the earlier columns times conj(row j), then scaled. */
static int potrf_lower(int n, T *A, int64_t lda)
{
    for (int j = 0; j < n; j++) {
        T *cj = A + j * lda;
        R d = RE(cj[j]);
        for (int k = 0; k < j; k++) d -= abs2(A[j + k * lda]);
        if (!(d > 0)) {
            cj[j] = d;
            return j + 1;
        }
        d = RSQRT(d);
        cj[j] = d;
        int m = n - j - 1;
        T *y = cj + j + 1;
        int k = 0;
        for (; k + 1 < j; k += 2) {
            const T *x0 = A + j + 1 + k * lda, *x1 = x0 + lda;
            T c0 = cnj(A[j + k * lda]), c1 = cnj(A[j + (k + 1) * lda]);
            SIMD
            for (int i = 0; i < m; i++) y[i] -= mul(c0, x0[i]) + mul(c1, x1[i]);
        }
        if (k < j) axpy_sub(m, cnj(A[j + k * lda]), A + j + 1 + k * lda, y);
        rscal(m, 1 / d, y);
    }
    return 0;
}

/* OpenBLAS's potrf lets a NaN pivot through (it tests pivot <= 0 only): the
   first NaN on the factor's diagonal, before any failure it reports, is the
   failing minor. */
static int potrf_lapacke(int uplo, int n, T *A, int64_t lda)
{
    int info = (int)LAPACKE(potrf_work)(LAPACK_COL_MAJOR, lp_uplo(uplo), n, A, (lapack_int)lda);
    int lim = info > 0 ? info - 1 : n;
    for (int j = 0; j < lim; j++) {
        T d = A[j + j * lda];
        if (isnan(RE(d)) || isnan(IM(d))) return j + 1;
    }
    return info;
}

static int potrf_any(int uplo, int n, T *A, int64_t lda)
{
    if (n > BB_CPU_POTRF_OWN_MAX_N) return potrf_lapacke(uplo, n, A, lda);
    return uplo == BblasUpper ? potrf_upper(n, A, lda) : potrf_lower(n, A, lda);
}

int X(cpu_potrf)(bb_problem *p, bb_work *w)
{
    (void)w;
    if (p->n == 0) return 0;
    return potrf_any(p->uplo, p->n, p->a, p->lda);
}

/* ------------------------------------------------------------------------ */
/* potrs                                                                      */
/* ------------------------------------------------------------------------ */

/* A*X = B, B n x nrhs.  Upper: U^H Y = B (dots with the columns of U), then
   U X = Y (column-oriented); lower: L Y = B (column-oriented), then
   L^H X = Y (dots with the columns of L).  Divisions as LAPACK's trsm. */
static void potrs_left(int uplo, int n, int nrhs, const T *A, int64_t lda, T *B, int64_t ldb)
{
    for (int c = 0; c < nrhs; c++) {
        T *b = B + c * ldb;
        if (uplo == BblasUpper) {
            for (int i = 0; i < n; i++) {
                const T *ci = A + i * lda;
                b[i] = (b[i] - dotc(i, ci, b)) / cnj(ci[i]);
            }
            for (int k = n - 1; k >= 0; k--) {
                const T *ck = A + k * lda;
                T x = b[k] / ck[k];
                b[k] = x;
                axpy_sub(k, x, ck, b);
            }
        } else {
            for (int k = 0; k < n; k++) {
                const T *ck = A + k * lda;
                T x = b[k] / ck[k];
                b[k] = x;
                axpy_sub(n - k - 1, x, ck + k + 1, b + k + 1);
            }
            for (int i = n - 1; i >= 0; i--) {
                const T *ci = A + i * lda;
                b[i] = (b[i] - dotc(n - i - 1, ci + i + 1, b + i + 1)) / cnj(ci[i]);
            }
        }
    }
}

/* X*A = B, B nrhs x n (row-major input: B holds B^T), columns of B indexed
   by the rows of A.  Upper, A = U^H U: Y U = B, then X U^H = Y.  Lower,
   A = L L^H: Y L^H = B, then X L = Y.  Every inner loop runs down a column
   of B (length nrhs). */
static void potrs_right(int uplo, int n, int nrhs, const T *A, int64_t lda, T *B, int64_t ldb)
{
#define AE(i, j) A[(i) + (int64_t)(j) * lda]
#define BC(j) (B + (int64_t)(j) * ldb)
    if (uplo == BblasUpper) {
        for (int j = 0; j < n; j++) { /* Y(:,j) = (B(:,j) - sum_{k<j} Y(:,k) U(k,j)) / U(j,j) */
            T *bj = BC(j);
            for (int k = 0; k < j; k++) axpy_sub(nrhs, AE(k, j), BC(k), bj);
            scal(nrhs, 1 / AE(j, j), bj);
        }
        for (int j = n - 1; j >= 0; j--) { /* X(:,j) = (Y(:,j) - sum_{k>j} X(:,k) conj(U(j,k))) / conj(U(j,j)) */
            T *bj = BC(j);
            for (int k = j + 1; k < n; k++) axpy_sub(nrhs, cnj(AE(j, k)), BC(k), bj);
            scal(nrhs, 1 / cnj(AE(j, j)), bj);
        }
    } else {
        for (int j = 0; j < n; j++) { /* Y(:,j) = (B(:,j) - sum_{k<j} Y(:,k) conj(L(j,k))) / conj(L(j,j)) */
            T *bj = BC(j);
            for (int k = 0; k < j; k++) axpy_sub(nrhs, cnj(AE(j, k)), BC(k), bj);
            scal(nrhs, 1 / cnj(AE(j, j)), bj);
        }
        for (int j = n - 1; j >= 0; j--) { /* X(:,j) = (Y(:,j) - sum_{k>j} X(:,k) L(k,j)) / L(j,j) */
            T *bj = BC(j);
            for (int k = j + 1; k < n; k++) axpy_sub(nrhs, AE(k, j), BC(k), bj);
            scal(nrhs, 1 / AE(j, j), bj);
        }
    }
#undef AE
#undef BC
}

static void potrs_blas(const bb_problem *p)
{
    const T *A = p->a;
    T *B = p->b;
    if (!p->rhs_right) {
        LAPACKE(potrs_work)(LAPACK_COL_MAJOR, lp_uplo(p->uplo), p->n, p->nrhs, A, (lapack_int)p->lda,
                            B, (lapack_int)p->ldb);
        return;
    }
    T one = 1;
    CBLAS_UPLO u = bb_cblas_uplo(p->uplo);
    CBLAS_TRANSPOSE first = p->uplo == BblasUpper ? CblasNoTrans : CblasConjTrans;
    CBLAS_TRANSPOSE second = p->uplo == BblasUpper ? CblasConjTrans : CblasNoTrans;
    CBLAS(trsm)(CblasColMajor, CblasRight, u, first, CblasNonUnit, p->nrhs, p->n, CBLAS_SCALAR(one),
                A, (int)p->lda, B, (int)p->ldb);
    CBLAS(trsm)(CblasColMajor, CblasRight, u, second, CblasNonUnit, p->nrhs, p->n, CBLAS_SCALAR(one),
                A, (int)p->lda, B, (int)p->ldb);
}

int X(cpu_potrs)(bb_problem *p, bb_work *w)
{
    (void)w;
    if (p->n == 0 || p->nrhs == 0) return 0;
    if (p->n > BB_CPU_POTRS_OWN_MAX_N)
        potrs_blas(p);
    else if (p->rhs_right)
        potrs_right(p->uplo, p->n, p->nrhs, p->a, p->lda, p->b, p->ldb);
    else
        potrs_left(p->uplo, p->n, p->nrhs, p->a, p->lda, p->b, p->ldb);
    return 0;
}

int X(cpu_posv)(bb_problem *p, bb_work *w)
{
    int info = X(cpu_potrf)(p, w);
    if (info) { ((T*)p->b)[0] = 0; return info; }
    return X(cpu_potrs)(p, w);
}

/* ------------------------------------------------------------------------ */
/* trtri                                                                      */
/* ------------------------------------------------------------------------ */

/* LAPACK trti2: column j of the inverse is -inv(A(j,j)) times the inverse of
   the leading (upper) or trailing (lower) block, already computed in place,
   applied to column j (a column-oriented triangular product). */
static void trtri_upper(int n, int unit, T *A, int64_t lda)
{
    for (int j = 0; j < n; j++) {
        T *cj = A + j * lda;
        T ajj = -1;
        if (!unit) {
            cj[j] = 1 / cj[j];
            ajj = -cj[j];
        }
        for (int k = 0; k < j; k++) {
            const T *ck = A + k * lda;
            T x = cj[k];
            axpy_add(k, x, ck, cj);
            cj[k] = unit ? x : mul(x, ck[k]);
        }
        scal(j, ajj, cj);
    }
}

static void trtri_lower(int n, int unit, T *A, int64_t lda)
{
    for (int j = n - 1; j >= 0; j--) {
        T *cj = A + j * lda;
        T ajj = -1;
        if (!unit) {
            cj[j] = 1 / cj[j];
            ajj = -cj[j];
        }
        for (int k = n - 1; k > j; k--) {
            const T *ck = A + k * lda;
            T x = cj[k];
            axpy_add(n - k - 1, x, ck + k + 1, cj + k + 1);
            cj[k] = unit ? x : mul(x, ck[k]);
        }
        scal(n - j - 1, ajj, cj + j + 1);
    }
}

/* info k > 0 if A(k,k) is exactly zero; A is then left unchanged (LAPACK) */
static int trtri_any(int uplo, int unit, int n, T *A, int64_t lda)
{
    if (n == 0) return 0;
    if (n > BB_CPU_TRTRI_OWN_MAX_N)
        return (int)LAPACKE(trtri_work)(LAPACK_COL_MAJOR, lp_uplo(uplo), unit ? 'U' : 'N', n, A,
                                        (lapack_int)lda);
    if (!unit)
        for (int j = 0; j < n; j++)
            if (A[j + j * lda] == (T)0) return j + 1;
    if (uplo == BblasUpper)
        trtri_upper(n, unit, A, lda);
    else
        trtri_lower(n, unit, A, lda);
    return 0;
}

int X(cpu_trtri)(bb_problem *p, bb_work *w)
{
    (void)w;
    return trtri_any(p->uplo, p->diag == BblasUnit, p->n, p->a, p->lda);
}

/* ------------------------------------------------------------------------ */
/* lauum                                                                      */
/* ------------------------------------------------------------------------ */

/* LAPACK lauu2; as there, the diagonal of the factor is taken as real. */

/* U U^H: column i (rows <= i) = U(0:i, i:n) conj(U(i, i:n))^T; it reads
   only columns >= i, which are still the factor. */
static void lauum_upper(int n, T *A, int64_t lda)
{
    for (int i = 0; i < n; i++) {
        T *ci = A + i * lda;
        R aii = RE(ci[i]);
        R d = aii * aii;
        rscal(i, aii, ci);
        for (int k = i + 1; k < n; k++) {
            const T *ck = A + k * lda;
            d += abs2(ck[i]);
            axpy_add(i, cnj(ck[i]), ck, ci);
        }
        ci[i] = d;
    }
}

/* L^H L: row i (columns <= i) = conj(L(i:n, i))^T L(i:n, 0:i), by dots of
   column i with the columns to its left; it reads only rows >= i. */
static void lauum_lower(int n, T *A, int64_t lda)
{
    for (int i = 0; i < n; i++) {
        T *ci = A + i * lda;
        R aii = RE(ci[i]);
        int m = n - i - 1;
        for (int c = 0; c < i; c++) {
            T *cc = A + c * lda;
            cc[i] = aii * cc[i] + dotc(m, ci + i + 1, cc + i + 1);
        }
        ci[i] = aii * aii + sumsq(m, ci + i + 1);
    }
}

static void lauum_any(int uplo, int n, T *A, int64_t lda)
{
    if (n == 0) return;
    if (n > BB_CPU_LAUUM_OWN_MAX_N)
        LAPACKE(lauum_work)(LAPACK_COL_MAJOR, lp_uplo(uplo), n, A, (lapack_int)lda);
    else if (uplo == BblasUpper)
        lauum_upper(n, A, lda);
    else
        lauum_lower(n, A, lda);
}

int X(cpu_lauum)(bb_problem *p, bb_work *w)
{
    (void)w;
    lauum_any(p->uplo, p->n, p->a, p->lda);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* potri, poti                                                                */
/* ------------------------------------------------------------------------ */

/* inv(A) = inv(U) inv(U)^H or inv(L)^H inv(L): trtri then lauum (LAPACK) */
int X(cpu_potri)(bb_problem *p, bb_work *w)
{
    (void)w;
    int info = trtri_any(p->uplo, 0, p->n, p->a, p->lda);
    if (info) return info;
    lauum_any(p->uplo, p->n, p->a, p->lda);
    return 0;
}

int X(cpu_poti)(bb_problem *p, bb_work *w)
{
    int info = X(cpu_potrf)(p, w);
    if (info) return info;
    return X(cpu_potri)(p, w);
}
