/*
 * CPU kernels of the Cholesky family (compiled once per precision):
 * potrf, potrs, posv, trtri, lauum, potri, poti on one normalised
 * column-major problem.  Only the uplo triangle of A is read or written.
 *
 * Small sizes run our own unblocked loops: LAPACK's unblocked algorithms,
 * arranged so that every inner loop runs over contiguous memory and the
 * compiler vectorises it (omp simd), several columns per pass where the
 * algorithm allows (axpy4, dotc4).  Above the crossovers of cpu_policy.h:
 * LAPACKE_*_work (column-major, no transposition of A) for potrf, potrs,
 * trtri; lauum stays ours, blocked around CBLAS level 3.
 *
 * Complex products are written out on real and imaginary parts (mul, mulc):
 * the C operator would guard every product with a library call for the
 * Inf/NaN special cases of Annex G, which stops vectorisation.
 */
#include <lapacke.h>
#include "small.h"

/* the small vector helpers below are always inlined */
#define HOT static inline __attribute__((always_inline))


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
HOT T dotc(int n, const T *x, const T *y)
{
#if BB_COMPLEX
    R sr = 0, si = 0;
    SIMD_SUM(sr, si)
    for (int i = 0; i < n; i++) {
        sr += RE(x[i]) * RE(y[i]) + IM(x[i]) * IM(y[i]);
        si += RE(x[i]) * IM(y[i]) - IM(x[i]) * RE(y[i]);
    }
    return MK(sr, si);
#else
    T s = 0;
    SIMD_SUM(s)
    for (int i = 0; i < n; i++) s += x[i] * y[i];
    return s;
#endif
}

/* sum_i |x[i]|^2 */
HOT R sumsq(int n, const T *x)
{
    R s = 0;
    SIMD_SUM(s)
    for (int i = 0; i < n; i++) s += abs2(x[i]);
    return s;
}

/* y -= a * x */
HOT void axpy_sub(int n, T a, const T *x, T *y)
{
    SIMD
    for (int i = 0; i < n; i++) y[i] -= mul(a, x[i]);
}

/* y += a * x */
HOT void axpy_add(int n, T a, const T *x, T *y)
{
    SIMD
    for (int i = 0; i < n; i++) y[i] += mul(a, x[i]);
}

HOT void scal(int n, T a, T *x)
{
    SIMD
    for (int i = 0; i < n; i++) x[i] = mul(a, x[i]);
}

HOT void rscal(int n, R a, T *x)
{
    SIMD
    for (int i = 0; i < n; i++) x[i] *= a;
}

/* Elements of T in one vector register.  Loops whose start index moves by
   one element from step to step start their vector part at a multiple of
   it, so that a step loads exactly the vectors the previous one stored
   (store-to-load forwarding). */
#define VL ((int)(__BIGGEST_ALIGNMENT__ / sizeof(T)) > 1 ? (int)(__BIGGEST_ALIGNMENT__ / sizeof(T)) : 1)

/* y[lo:hi) -= a * x[lo:hi) */
HOT void axpy_sub_from(int lo, int hi, T a, const T *x, T *y)
{
    int s = (lo + VL - 1) / VL * VL;
    if (s > hi) s = hi;
    for (int i = lo; i < s; i++) y[i] -= mul(a, x[i]);
    SIMD
    for (int i = s; i < hi; i++) y[i] -= mul(a, x[i]);
}

/* y += a0 x0 + a1 x1 + a2 x2 + a3 x3: four updates for one pass over y */
HOT void axpy4(int n, T a0, T a1, T a2, T a3, const T *x0, const T *x1, const T *x2, const T *x3,
                T *y)
{
    SIMD
    for (int i = 0; i < n; i++) y[i] += (mul(a0, x0[i]) + mul(a1, x1[i])) + (mul(a2, x2[i]) + mul(a3, x3[i]));
}

/* y0[lo:hi) -= a0 * x[lo:hi), y1[lo:hi) -= a1 * x[lo:hi) (aligned start as axpy_sub_from) */
HOT void axpy2_sub_from(int lo, int hi, T a0, T a1, const T *x, T *y0, T *y1)
{
    int s = (lo + VL - 1) / VL * VL;
    if (s > hi) s = hi;
    for (int i = lo; i < s; i++) {
        y0[i] -= mul(a0, x[i]);
        y1[i] -= mul(a1, x[i]);
    }
    SIMD
    for (int i = s; i < hi; i++) {
        y0[i] -= mul(a0, x[i]);
        y1[i] -= mul(a1, x[i]);
    }
}

/* r0 = sum_i conj(x[i]) * y0[i], r1 = sum_i conj(x[i]) * y1[i] */
HOT void dotc2(int n, const T *x, const T *y0, const T *y1, T *r0, T *r1)
{
#if BB_COMPLEX
    R a0 = 0, b0 = 0, a1 = 0, b1 = 0;
    SIMD_SUM(a0, b0, a1, b1)
    for (int i = 0; i < n; i++) {
        R xr = RE(x[i]), xi = IM(x[i]);
        a0 += xr * RE(y0[i]) + xi * IM(y0[i]); b0 += xr * IM(y0[i]) - xi * RE(y0[i]);
        a1 += xr * RE(y1[i]) + xi * IM(y1[i]); b1 += xr * IM(y1[i]) - xi * RE(y1[i]);
    }
    *r0 = MK(a0, b0); *r1 = MK(a1, b1);
#else
    T s0 = 0, s1 = 0;
    SIMD_SUM(s0, s1)
    for (int i = 0; i < n; i++) {
        s0 += x[i] * y0[i]; s1 += x[i] * y1[i];
    }
    *r0 = s0; *r1 = s1;
#endif
}

/* Bounds of the vector part of [lo, hi) for the substitutions: a multiple
   of VL that leaves out both end elements (one of them was just stored). */
static inline void vec_part(int lo, int hi, int *s, int *e)
{
    *s = (lo + VL) / VL * VL;
    *e = (hi - 1) / VL * VL;
    if (*e < *s) *s = *e = hi;
}

/* sum_{lo <= i < hi} conj(x[i]) * y[i] */
HOT T dotc_sub(int lo, int hi, const T *x, const T *y)
{
    int s, e;
    vec_part(lo, hi, &s, &e);
    T r = 0;
    for (int i = lo; i < s; i++) r += mulc(x[i], y[i]);
    for (int i = e; i < hi; i++) r += mulc(x[i], y[i]);
    return r + dotc(e - s, x + s, y + s);
}

/* the same for two vectors y0, y1 */
HOT void dotc2_sub(int lo, int hi, const T *x, const T *y0, const T *y1, T *r0, T *r1)
{
    int s, e;
    vec_part(lo, hi, &s, &e);
    T t0 = 0, t1 = 0;
    for (int i = lo; i < s; i++) {
        t0 += mulc(x[i], y0[i]);
        t1 += mulc(x[i], y1[i]);
    }
    for (int i = e; i < hi; i++) {
        t0 += mulc(x[i], y0[i]);
        t1 += mulc(x[i], y1[i]);
    }
    dotc2(e - s, x + s, y0 + s, y1 + s, r0, r1);
    *r0 += t0;
    *r1 += t1;
}

/* r[q] = sum_i conj(x[i]) * yq[i], q < 4: four dots for one pass over x */
HOT void dotc4(int n, const T *x, const T *y0, const T *y1, const T *y2, const T *y3, T r[4])
{
#if BB_COMPLEX
    R a0 = 0, b0 = 0, a1 = 0, b1 = 0, a2 = 0, b2 = 0, a3 = 0, b3 = 0;
    SIMD_SUM(a0, b0, a1, b1, a2, b2, a3, b3)
    for (int i = 0; i < n; i++) {
        R xr = RE(x[i]), xi = IM(x[i]);
        a0 += xr * RE(y0[i]) + xi * IM(y0[i]); b0 += xr * IM(y0[i]) - xi * RE(y0[i]);
        a1 += xr * RE(y1[i]) + xi * IM(y1[i]); b1 += xr * IM(y1[i]) - xi * RE(y1[i]);
        a2 += xr * RE(y2[i]) + xi * IM(y2[i]); b2 += xr * IM(y2[i]) - xi * RE(y2[i]);
        a3 += xr * RE(y3[i]) + xi * IM(y3[i]); b3 += xr * IM(y3[i]) - xi * RE(y3[i]);
    }
    r[0] = MK(a0, b0); r[1] = MK(a1, b1); r[2] = MK(a2, b2); r[3] = MK(a3, b3);
#else
    T s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    SIMD_SUM(s0, s1, s2, s3)
    for (int i = 0; i < n; i++) {
        s0 += x[i] * y0[i]; s1 += x[i] * y1[i]; s2 += x[i] * y2[i]; s3 += x[i] * y3[i];
    }
    r[0] = s0; r[1] = s1; r[2] = s2; r[3] = s3;
#endif
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
        int c = j + 1;
        for (; c + 3 < n; c += 4) {
            T *c0 = A + c * lda, *c1 = c0 + lda, *c2 = c1 + lda, *c3 = c2 + lda, s[4];
            dotc4(j, cj, c0, c1, c2, c3, s);
            c0[j] = (c0[j] - s[0]) * r;
            c1[j] = (c1[j] - s[1]) * r;
            c2[j] = (c2[j] - s[2]) * r;
            c3[j] = (c3[j] - s[3]) * r;
        }
        for (; c < n; c++) {
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
        for (; k + 3 < j; k += 4) {
            const T *x0 = A + j + 1 + k * lda, *x1 = x0 + lda, *x2 = x1 + lda, *x3 = x2 + lda;
            const T *r = A + j + k * lda; /* row j */
            axpy4(m, -cnj(r[0]), -cnj(r[lda]), -cnj(r[2 * lda]), -cnj(r[3 * lda]), x0, x1, x2, x3, y);
        }
        for (; k < j; k++) axpy_sub(m, cnj(A[j + k * lda]), A + j + 1 + k * lda, y);
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
    if (n > OWN_MAX(POTRF)) return potrf_lapacke(uplo, n, A, lda);
    /* the kernel of the fixed and strided forms (across.c), for the same bits */
    if (X(potrf_across_fits)(n) && bb_cpu_across_on()) return X(potrf_across1)(uplo, n, A, lda);
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

/* Solves with the factor for RHS stored as columns: A*X = B, B n x m (ld
   ldb); inv[k] = 1 / A(k,k).  Upper: U^H Y = B by dots with the columns of
   U, then U X = Y column-oriented; lower: L Y = B column-oriented, then
   L^H X = Y by dots with the columns of L. */
static void potrs_cols(int uplo, int n, int m, const T *A, int64_t lda, const T *inv, T *B, int64_t ldb)
{
    int c = 0;
    for (; c + 1 < m; c += 2) { /* two at a time: shared loads of A, two chains */
        T *b = B + c * ldb, *e = b + ldb;
        if (uplo == BblasUpper) {
            for (int i = 0; i < n; i++) {
                T s0, s1, d = cnj(inv[i]);
                dotc2_sub(0, i, A + i * lda, b, e, &s0, &s1);
                b[i] = mul(b[i] - s0, d);
                e[i] = mul(e[i] - s1, d);
            }
            for (int k = n - 1; k >= 0; k--) {
                T x0 = mul(b[k], inv[k]), x1 = mul(e[k], inv[k]);
                b[k] = x0;
                e[k] = x1;
                axpy2_sub_from(0, k, x0, x1, A + k * lda, b, e);
            }
        } else {
            for (int k = 0; k < n; k++) {
                T x0 = mul(b[k], inv[k]), x1 = mul(e[k], inv[k]);
                b[k] = x0;
                e[k] = x1;
                axpy2_sub_from(k + 1, n, x0, x1, A + k * lda, b, e);
            }
            for (int i = n - 1; i >= 0; i--) {
                const T *ci = A + i * lda;
                T s0, s1, d = cnj(inv[i]);
                dotc2_sub(i + 1, n, ci, b, e, &s0, &s1);
                b[i] = mul(b[i] - s0, d);
                e[i] = mul(e[i] - s1, d);
            }
        }
    }
    for (; c < m; c++) {
        T *b = B + c * ldb;
        if (uplo == BblasUpper) {
            for (int i = 0; i < n; i++) b[i] = mul(b[i] - dotc_sub(0, i, A + i * lda, b), cnj(inv[i]));
            for (int k = n - 1; k >= 0; k--) {
                T x = mul(b[k], inv[k]);
                b[k] = x;
                axpy_sub(k, x, A + k * lda, b);
            }
        } else {
            for (int k = 0; k < n; k++) {
                T x = mul(b[k], inv[k]);
                b[k] = x;
                axpy_sub_from(k + 1, n, x, A + k * lda, b);
            }
            for (int i = n - 1; i >= 0; i--) {
                const T *ci = A + i * lda;
                b[i] = mul(b[i] - dotc_sub(i + 1, n, ci, b), cnj(inv[i]));
            }
        }
    }
}

/* y -= sum_{k0 <= k < k1} coef(k) * B(:,k), B m x *, coef(k) = a[k * as] or
   its conjugate */
HOT void gemv_cols(int m, int k0, int k1, const T *a, int64_t as, int cj, const T *B, int64_t ldb, T *y)
{
#define COEF(k) (cj ? -cnj(a[(k) * as]) : -a[(k) * as])
    int k = k0;
    for (; k + 3 < k1; k += 4)
        axpy4(m, COEF(k), COEF(k + 1), COEF(k + 2), COEF(k + 3), B + k * ldb, B + (k + 1) * ldb,
              B + (k + 2) * ldb, B + (k + 3) * ldb, y);
    for (; k < k1; k++) axpy_add(m, COEF(k), B + k * ldb, y);
#undef COEF
}

/* Solves for RHS stored as rows: X*A = B, B m x n (ld ldb), every inner loop
   down a column of B (length m).  Upper, A = U^H U: Y U = B, then
   X U^H = Y.  Lower, A = L L^H: Y L^H = B, then X L = Y. */
static void potrs_rows(int uplo, int n, int m, const T *A, int64_t lda, const T *inv, T *B, int64_t ldb)
{
    if (uplo == BblasUpper) {
        for (int j = 0; j < n; j++) { /* Y(:,j) = (B(:,j) - sum_{k<j} Y(:,k) U(k,j)) / U(j,j) */
            T *bj = B + j * ldb;
            gemv_cols(m, 0, j, A + j * lda, 1, 0, B, ldb, bj);
            scal(m, inv[j], bj);
        }
        for (int j = n - 1; j >= 0; j--) { /* X(:,j) = (Y(:,j) - sum_{k>j} X(:,k) conj(U(j,k))) / conj(U(j,j)) */
            T *bj = B + j * ldb;
            gemv_cols(m, j + 1, n, A + j, lda, 1, B, ldb, bj);
            scal(m, cnj(inv[j]), bj);
        }
    } else {
        for (int j = 0; j < n; j++) { /* Y(:,j) = (B(:,j) - sum_{k<j} Y(:,k) conj(L(j,k))) / conj(L(j,j)) */
            T *bj = B + j * ldb;
            gemv_cols(m, 0, j, A + j, lda, 1, B, ldb, bj);
            scal(m, cnj(inv[j]), bj);
        }
        for (int j = n - 1; j >= 0; j--) { /* X(:,j) = (Y(:,j) - sum_{k>j} X(:,k) L(k,j)) / L(j,j) */
            T *bj = B + j * ldb;
            gemv_cols(m, j + 1, n, A + j * lda, 1, 0, B, ldb, bj);
            scal(m, inv[j], bj);
        }
    }
}

/* D (c x r, ld ldd) = S^H, S r x c (ld lds) */
static void conj_transpose(int r, int c, const T *S, int64_t lds, T *D, int64_t ldd)
{
    for (int j = 0; j < c; j++)
        for (int i = 0; i < r; i++) D[j + i * ldd] = cnj(S[i + j * lds]);
}

/* Own loops: few right-hand sides are solved one vector at a time
   (potrs_cols), many with the vectors side by side (potrs_rows); the other
   storage goes through a conjugate-transposed copy (A X = B  <=>
   X^H A = B^H, A Hermitian). */
static int potrs_own(const bb_problem *p, bb_work *w)
{
    int n = p->n, m = p->nrhs, rows = m >= BB_CPU_POTRS_ROWS_MIN_NRHS;
    const T *A = p->a;
    T *B = p->b;
    int copy = rows != p->rhs_right;
    T *inv = bb_work_get(w, sizeof(T) * ((size_t)n + (copy ? (size_t)n * m : 0)));
    if (!inv) return BB_INFO_NOMEM;
    for (int k = 0; k < n; k++) inv[k] = bb_recip(A[k + k * p->lda]);
    if (!copy) {
        if (rows) potrs_rows(p->uplo, n, m, A, p->lda, inv, B, p->ldb);
        else potrs_cols(p->uplo, n, m, A, p->lda, inv, B, p->ldb);
        return 0;
    }
    T *W = inv + n;
    if (rows) { /* B n x m -> W m x n */
        conj_transpose(n, m, B, p->ldb, W, m);
        potrs_rows(p->uplo, n, m, A, p->lda, inv, W, m);
        conj_transpose(m, n, W, m, B, p->ldb);
    } else { /* B m x n -> W n x m */
        conj_transpose(m, n, B, p->ldb, W, n);
        potrs_cols(p->uplo, n, m, A, p->lda, inv, W, n);
        conj_transpose(n, m, W, n, B, p->ldb);
    }
    return 0;
}

/* LAPACKE potrs; right-hand sides stored as rows go through a conjugate-
   transposed copy (faster than two right-side trsm, and than LAPACKE's
   row-major potrs, which transposes A as well) */
static int potrs_blas(const bb_problem *p, bb_work *w)
{
    int n = p->n, m = p->nrhs;
    char u = lp_uplo(p->uplo);
    if (!p->rhs_right) {
        LAPACKE(potrs_work)(LAPACK_COL_MAJOR, u, n, m, p->a, (lapack_int)p->lda, p->b, (lapack_int)p->ldb);
        return 0;
    }
    T *W = bb_work_get(w, sizeof(T) * (size_t)n * m);
    if (!W) return BB_INFO_NOMEM;
    conj_transpose(m, n, p->b, p->ldb, W, n);
    LAPACKE(potrs_work)(LAPACK_COL_MAJOR, u, n, m, p->a, (lapack_int)p->lda, W, n);
    conj_transpose(n, m, W, n, p->b, p->ldb);
    return 0;
}

int X(cpu_potrs)(bb_problem *p, bb_work *w)
{
    if (p->n == 0 || p->nrhs == 0) return 0;
    /* the kernel of the fixed and strided forms (across.c), for the same bits */
    if (X(potrs_across_fits)(p->n, p->nrhs) && bb_cpu_across_on()) {
        X(potrs_across1)(p->uplo, p->n, p->nrhs, p->a, p->lda, p->b, p->ldb, p->rhs_right);
        return 0;
    }
    return p->n > OWN_MAX(POTRS) ? potrs_blas(p, w) : potrs_own(p, w);
}

int X(cpu_posv)(bb_problem *p, bb_work *w)
{
    /* the kernel of the fixed and strided forms (across.c), for the same bits */
    if (X(potrs_across_fits)(p->n, p->nrhs) && bb_cpu_across_on()) return X(posv_across1)(p);
    /* the solve's scratch (potrs_own: n + n*nrhs elements at most,
       potrs_blas: n*nrhs) before the factorisation writes A: out of memory
       must leave the problem untouched */
    if (p->n > 0 && p->nrhs > 0 && !bb_work_get(w, sizeof(T) * ((size_t)p->n + (size_t)p->n * p->nrhs)))
        return BB_INFO_NOMEM;
    int info = X(cpu_potrf)(p, w);
    if (info) return info; /* B untouched */
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
            cj[j] = bb_recip(cj[j]);
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
            cj[j] = bb_recip(cj[j]);
            ajj = -cj[j];
        }
        for (int k = n - 1; k > j; k--) {
            const T *ck = A + k * lda;
            T x = cj[k];
            axpy_sub_from(k + 1, n, -x, ck, cj);
            cj[k] = unit ? x : mul(x, ck[k]);
        }
        scal(n - j - 1, ajj, cj + j + 1);
    }
}

/* info k > 0 if A(k,k) is exactly zero; A is then left unchanged (LAPACK) */
static int trtri_any(int uplo, int unit, int n, T *A, int64_t lda)
{
    if (n == 0) return 0;
    if (n > OWN_MAX(TRTRI))
        return (int)LAPACKE(trtri_work)(LAPACK_COL_MAJOR, lp_uplo(uplo), unit ? 'U' : 'N', n, A,
                                        (lapack_int)lda);
    /* the kernel of the fixed and strided forms (across.c), for the same bits */
    if (X(trtri_across_fits)(n) && bb_cpu_across_on())
        return X(trtri_across1)(uplo, unit ? BblasUnit : BblasNonUnit, n, A, lda);
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
        int k = i + 1;
        for (; k + 3 < n; k += 4) {
            const T *c0 = A + k * lda, *c1 = c0 + lda, *c2 = c1 + lda, *c3 = c2 + lda;
            d += (abs2(c0[i]) + abs2(c1[i])) + (abs2(c2[i]) + abs2(c3[i]));
            axpy4(i, cnj(c0[i]), cnj(c1[i]), cnj(c2[i]), cnj(c3[i]), c0, c1, c2, c3, ci);
        }
        for (; k < n; k++) {
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
        int c = 0;
        for (; c + 3 < i; c += 4) {
            T *c0 = A + c * lda, *c1 = c0 + lda, *c2 = c1 + lda, *c3 = c2 + lda, t[4];
            dotc4(m, ci + i + 1, c0 + i + 1, c1 + i + 1, c2 + i + 1, c3 + i + 1, t);
            c0[i] = aii * c0[i] + t[0];
            c1[i] = aii * c1[i] + t[1];
            c2[i] = aii * c2[i] + t[2];
            c3[i] = aii * c3[i] + t[3];
        }
        for (; c < i; c++) {
            T *cc = A + c * lda;
            cc[i] = aii * cc[i] + dotc(m, ci + i + 1, cc + i + 1);
        }
        ci[i] = aii * aii + sumsq(m, ci + i + 1);
    }
}

/* LAPACK's blocked lauum: the products around each diagonal block by CBLAS
   trmm, gemm and herk (syrk), the diagonal blocks by our unblocked loops.
   Complex only: OpenBLAS's own lauum is not called for complex data: in
   0.3.21 its unblocked zlauu2_U reads past the end of the matrix (strided
   zdotc/zgemv kernels), which faults when the matrix ends a page. */
#if BB_COMPLEX
static void lauum_blocked(int uplo, int n, T *A, int64_t lda)
{
    const int nb = BB_CPU_LAUUM_NB, ld = (int)lda;
    T one = 1;
#if BB_COMPLEX
#  define HERK CBLAS(herk)
    const CBLAS_TRANSPOSE ct = CblasConjTrans;
#else
#  define HERK CBLAS(syrk)
    const CBLAS_TRANSPOSE ct = CblasTrans;
#endif
    for (int i = 0; i < n; i += nb) {
        int ib = n - i < nb ? n - i : nb, rest = n - i - ib;
        T *d = A + i + i * lda;
        if (uplo == BblasUpper) {
            T *top = A + i * lda, *right = A + i + (i + ib) * lda;
            if (i > 0) /* A(0:i, i:i+ib) *= U(i:i+ib, i:i+ib)^H */
                CBLAS(trmm)(CblasColMajor, CblasRight, CblasUpper, ct, CblasNonUnit, i, ib, CBLAS_SCALAR(one), d,
                            ld, top, ld);
            lauum_upper(ib, d, lda);
            if (rest > 0) {
                if (i > 0) /* A(0:i, i:i+ib) += A(0:i, i+ib:n) A(i:i+ib, i+ib:n)^H */
                    CBLAS(gemm)(CblasColMajor, CblasNoTrans, ct, i, ib, rest, CBLAS_SCALAR(one),
                                A + (i + ib) * lda, ld, right, ld, CBLAS_SCALAR(one), top, ld);
                HERK(CblasColMajor, CblasUpper, CblasNoTrans, ib, rest, 1, right, ld, 1, d, ld);
            }
        } else {
            T *left = A + i, *below = A + i + ib + i * lda;
            if (i > 0) /* A(i:i+ib, 0:i) = L(i:i+ib, i:i+ib)^H A(i:i+ib, 0:i) */
                CBLAS(trmm)(CblasColMajor, CblasLeft, CblasLower, ct, CblasNonUnit, ib, i, CBLAS_SCALAR(one), d,
                            ld, left, ld);
            lauum_lower(ib, d, lda);
            if (rest > 0) {
                if (i > 0) /* A(i:i+ib, 0:i) += A(i+ib:n, i:i+ib)^H A(i+ib:n, 0:i) */
                    CBLAS(gemm)(CblasColMajor, ct, CblasNoTrans, ib, i, rest, CBLAS_SCALAR(one), below, ld,
                                A + i + ib, ld, CBLAS_SCALAR(one), left, ld);
                HERK(CblasColMajor, CblasLower, ct, ib, rest, 1, below, ld, 1, d, ld);
            }
        }
    }
#undef HERK
}
#endif

static void lauum_any(int uplo, int n, T *A, int64_t lda)
{
    if (n == 0) return;
#if BB_COMPLEX
    if (n > OWN_MAX(LAUUM))
        lauum_blocked(uplo, n, A, lda);
#else
    /* real: OpenBLAS's own lauum (its blocks call its kernels directly;
       ours above paid a CBLAS call per block: 0.72-0.95x of the loop at
       n = 96..256).  Its real lauu2 reads nothing outside the matrix: every
       n of 1..300, both uplo, lda = n and n + 3, the matrix against a
       PROT_NONE page at either end, s and d, Haswell and Prescott kernels
       (session 12).  LAPACKE's _work form does no NaN check or copy. */
    if (n > OWN_MAX(LAUUM))
        LAPACKE(lauum_work)(LAPACK_COL_MAJOR, lp_uplo(uplo), n, A, (lapack_int)lda);
#endif
    /* the kernel of the fixed and strided forms (across.c), for the same bits */
    else if (X(lauum_across_fits)(n) && bb_cpu_across_on())
        X(lauum_across1)(uplo, n, A, lda);
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
    /* the kernel of the fixed and strided forms (across.c), for the same bits */
    if (X(potri_across_fits)(p->n) && bb_cpu_across_on())
        return X(potri_across1)(p->uplo, p->n, p->a, p->lda);
    int info = trtri_any(p->uplo, 0, p->n, p->a, p->lda);
    if (info) return info;
    lauum_any(p->uplo, p->n, p->a, p->lda);
    return 0;
}

int X(cpu_poti)(bb_problem *p, bb_work *w)
{
    /* the kernel of the fixed and strided forms (across.c), for the same bits */
    if (X(poti_across_fits)(p->n) && bb_cpu_across_on()) return X(poti_across1)(p->uplo, p->n, p->a, p->lda);
    int info = X(cpu_potrf)(p, w);
    if (info) return info;
    return X(cpu_potri)(p, w);
}
