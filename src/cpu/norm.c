/*
 * CPU kernels: norms and exact condition numbers (compiled once per
 * precision): lange, gecond and geinv.  The problems arrive column-major (problem.c
 * turns a row-major matrix into its transpose and swaps the one and
 * infinity norms).
 *
 *   - lange: one pass over the matrix, NaN propagates (as LAPACK's lange);
 *     the Frobenius norm sums squares directly and rescales only when that
 *     sum over- or underflows.
 *   - gecond: ||A|| * ||inv(A)|| from an inverse of a copy of A (geinv
 *     writes that inverse instead: the stored matrix is inverted as it is,
 *     inv(A^T) = inv(A)^T serving row-major data): our own
 *     in-place Gauss-Jordan with partial pivoting for small n, LAPACKE
 *     getrf + getri above the crossover (cpu_policy.h).  A pivot that is exactly
 *     zero or NaN is singular: info = its (1-based) step and cond = +Inf.
 */
#include <string.h>
#include <lapacke.h>
#include "small.h"

#if BB_COMPLEX
static inline T mk(R re, R im) { return __builtin_complex(re, im); }
static inline T mul(T a, T b)
{
    return mk(RE(a) * RE(b) - IM(a) * IM(b), RE(a) * IM(b) + IM(a) * RE(b));
}
/* |x| without the cost of hypot unless the squares over- or underflow */
static inline R absT(T x)
{
    R re = RFABS(RE(x)), im = RFABS(IM(x));
    R s = re * re + im * im;
    if (s >= R_SAFMIN && s <= R_HUGE) return RSQRT(s);
    return RHYPOT(re, im);
}
#else
static inline T mul(T a, T b) { return a * b; }
static inline R absT(T x) { return RFABS(x); }
#endif


/* v = max(v, s), NaN sticks (as LAPACK's lange) */
static inline R max_nan(R v, R s) { return (v < s || s != s) ? s : v; }

/* sum of |a[i]|, i < m */
static inline R col_sum(int m, const T *a)
{
    R s = 0;
#if BB_COMPLEX
    for (int i = 0; i < m; i++) s += absT(a[i]);
#else
    SIMD_SUM(s)
    for (int i = 0; i < m; i++) s += RFABS(a[i]);
#endif
    return s;
}

static R frobenius(int m, int n, const T *a, int64_t lda)
{
    R s = 0, mx = 0;
    for (int j = 0; j < n; j++) {
        const T *aj = a + j * lda;
        SIMD_SUM_MAX(s, mx)
        for (int i = 0; i < m; i++) {
            R re = RE(aj[i]), im = IM(aj[i]);
            s += re * re + im * im;
            R t = RFABS(re) > RFABS(im) ? RFABS(re) : RFABS(im);
            mx = t > mx ? t : mx;
        }
    }
    if (s != s) return s;                            /* NaN in A */
    if (s >= R_SAFMIN / R_EPS && s <= R_HUGE) return RSQRT(s); /* no over/underflow */
    if (mx == 0 || isinf(mx)) return mx;
    R r = 1 / mx, t = 0; /* rescaled: every term <= 1 */
    for (int j = 0; j < n; j++) {
        const T *aj = a + j * lda;
        SIMD_SUM(t)
        for (int i = 0; i < m; i++) {
            R re = RE(aj[i]) * r, im = IM(aj[i]) * r;
            t += re * re + im * im;
        }
    }
    return mx * RSQRT(t);
}

/* norm of the m x n column-major a (m, n > 0); work: m reals (infinity norm) */
static R norm_cm(int norm, int m, int n, const T *a, int64_t lda, R *work)
{
    R v = 0;
    switch (norm) {
    case BblasOneNorm:
        for (int j = 0; j < n; j++) v = max_nan(v, col_sum(m, a + j * lda));
        return v;
    case BblasInfNorm:
        for (int i = 0; i < m; i++) work[i] = 0;
        for (int j = 0; j < n; j++) {
            const T *aj = a + j * lda;
#if BB_COMPLEX
            for (int i = 0; i < m; i++) work[i] += absT(aj[i]);
#else
            SIMD for (int i = 0; i < m; i++) work[i] += RFABS(aj[i]);
#endif
        }
        for (int i = 0; i < m; i++) v = max_nan(v, work[i]);
        return v;
    case BblasMaxNorm:
        for (int j = 0; j < n; j++) {
            const T *aj = a + j * lda;
#if BB_COMPLEX
            for (int i = 0; i < m; i++) v = max_nan(v, absT(aj[i]));
#else
            R mx = 0, s = 0;
            SIMD_SUM_MAX(s, mx)
            for (int i = 0; i < m; i++) {
                R t = RFABS(aj[i]);
                s += t; /* NaN iff a NaN is there: every term is >= 0 */
                mx = t > mx ? t : mx;
            }
            if (s != s) return s;
            v = mx > v ? mx : v;
#endif
        }
        return v;
    default: /* BblasFrobeniusNorm */
        return frobenius(m, n, a, lda);
    }
}

int X(cpu_lange)(bb_problem *p, bb_work *w)
{
    R *value = p->y;
    int m = p->m, n = p->n;
    if (m == 0 || n == 0) {
        *value = 0;
        return 0;
    }
    /* the kernel of the fixed and strided forms (across.c), for the same bits */
    if (X(lange_across_fits)(m, n) && bb_cpu_across_on()) {
        X(lange_across1)(p);
        return 0;
    }
    R *work = NULL;
    if (p->norm == BblasInfNorm) {
        work = bb_work_get(w, (size_t)m * sizeof(R));
        if (!work) return BB_INFO_NOMEM;
    }
    *value = norm_cm(p->norm, m, n, p->a, p->lda, work);
    return 0;
}

/* ---- gecond ---------------------------------------------------------------- */


static inline void swap_T(T *x, T *y)
{
    T t = *x;
    *x = *y;
    *y = t;
}

/*
 * In-place inverse of the n x n column-major a by Gauss-Jordan elimination
 * with partial pivoting (row interchanges, undone on the columns at the end).
 * Returns the first step k (1-based) whose pivot is zero or NaN, 0 if none.
 * perm: n ints, c: n elements.
 */
static int gauss_jordan(int n, T *a, int64_t lda, int *perm, T *c)
{
    for (int k = 0; k < n; k++) {
        T *ak = a + k * lda;
        int p = k + pivot_index(n - k, ak + k);
        T piv = ak[p];
        if (piv == 0 || piv != piv) return k + 1;
        perm[k] = p;
        if (p != k)
            for (int j = 0; j < n; j++) swap_T(a + k + j * lda, a + p + j * lda);
        T d = bb_recip(piv);
        /* column k becomes e_k, its old entries the multipliers c */
        for (int i = 0; i < n; i++) {
            c[i] = ak[i];
            ak[i] = 0;
        }
        c[k] = 0;
        ak[k] = 1;
        int j = 0;
        for (; j + 4 <= n; j += 4) { /* four columns per pass over c */
            T *y0 = a + j * lda, *y1 = y0 + lda, *y2 = y1 + lda, *y3 = y2 + lda;
            T u0 = mul(y0[k], d), u1 = mul(y1[k], d), u2 = mul(y2[k], d), u3 = mul(y3[k], d);
            y0[k] = u0;
            y1[k] = u1;
            y2[k] = u2;
            y3[k] = u3;
            SIMD for (int i = 0; i < n; i++) {
                T ci = c[i];
                y0[i] -= mul(ci, u0);
                y1[i] -= mul(ci, u1);
                y2[i] -= mul(ci, u2);
                y3[i] -= mul(ci, u3);
            }
        }
        for (; j < n; j++) {
            T *aj = a + j * lda;
            T u = mul(aj[k], d);
            aj[k] = u;
            SIMD for (int i = 0; i < n; i++) aj[i] -= mul(c[i], u);
        }
    }
    for (int k = n - 1; k >= 0; k--) {
        int q = perm[k];
        if (q != k) {
            swap_vec(a + k * lda, a + q * lda, n);
        }
    }
    return 0;
}

/*
 * Inverse in place with LAPACKE (large n), same singularity rule as
 * gauss_jordan.  LAPACK's pivot search passes over a NaN that is not first
 * in its column, so the NaN columns are found beforehand (cnan, by
 * invert_copy as it copies): with our rule the first column c holding a
 * NaN gives the NaN pivot at step c+1 at the latest (the columns before it
 * are NaN-free and pivot the same way).
 */
static int invert_lapacke(int n, T *a, int64_t lda, lapack_int *ipiv, T *work, int lwork, int cnan)
{
    LAPACKE(getrf_work)(LAPACK_COL_MAJOR, n, n, a, lda, ipiv);
    for (int k = 0; k < cnan; k++) {
        T d = a[k + k * lda];
        if (d == 0 || d != d) return k + 1;
    }
    if (cnan < n) return cnan + 1;
    LAPACKE(getri_work)(LAPACK_COL_MAJOR, n, a, lda, ipiv, work, lwork);
    return 0;
}

/* The inverse of the n x n A (ld lda) in a workspace copy (*sp, ld n), by
   our Gauss-Jordan (n <= the crossover) or LAPACKE; *rwp: n reals of
   scratch for the caller.  Returns the singular step, BB_INFO_NOMEM, or 0.
   For LAPACKE the copy also finds the first column with a NaN, in the
   same pass: a separate scan with an early exit cost 3% of geinv s 128
   (2 cores, session 36).  anorm (gecond): A's norm (norm) is taken from
   the copy before it is inverted, while it is in cache. */
static int invert_copy(int n, const T *a, int64_t lda, bb_work *w, T **sp, R **rwp, int norm, R *anorm)
{
    int own = n <= OWN_MAX(GECOND);
    size_t nw = own ? (size_t)n : (size_t)n * BB_CPU_GETRI_NB;
    /* scratch: the copy of A, the workspace, n reals, n pivots */
    size_t bytes = ((size_t)n * n + nw + n) * sizeof(T) + (size_t)n * sizeof(lapack_int);
    T *s = bb_work_get(w, bytes);
    if (!s) return BB_INFO_NOMEM;
    T *wk = s + (size_t)n * n;
    *rwp = (R *)(wk + nw);
    int *perm = (int *)(wk + nw + n);
    *sp = s;
    int cnan = n; /* the first column holding a NaN (invert_lapacke) */
    if (own) /* gauss_jordan meets the NaNs itself: a scan here cost 3-5% at d 32 */
        for (int j = 0; j < n; j++) memcpy(s + (size_t)j * n, a + j * lda, (size_t)n * sizeof(T));
    else
        for (int j = 0; j < n; j++) {
            const T *aj = a + j * lda;
            T *sj = s + (size_t)j * n;
            int bad = 0;
            SIMD_SUM(bad) for (int i = 0; i < n; i++) {
                const T v = aj[i];
                sj[i] = v;
                bad += v != v;
            }
            if (bad && cnan == n) cnan = j;
        }
    if (anorm) *anorm = norm_cm(norm, n, n, s, n, *rwp);
    return own ? gauss_jordan(n, s, n, perm, wk) : invert_lapacke(n, s, n, (lapack_int *)perm, wk, (int)nw, cnan);
}

int X(cpu_gecond)(bb_problem *p, bb_work *w)
{
    R *cond = p->y;
    int n = p->n;
    if (n == 0) { /* as LAPACK's gecon (rcond = 1 for n = 0) */
        *cond = 1;
        return 0;
    }
    /* the kernel of the fixed and strided forms (across.c), for the same bits */
    if (X(gecond_across_fits)(n) && bb_cpu_across_on()) return X(gecond_across1)(p);
    R *rw = NULL;
    T *s = NULL;
    R anorm = 0;
    int info = invert_copy(n, p->a, p->lda, w, &s, &rw, p->norm, &anorm);
    if (info == BB_INFO_NOMEM) return info;
    if (info) {
        *cond = INFINITY;
        return info;
    }
    *cond = anorm * norm_cm(p->norm, n, n, s, n, rw);
    return 0;
}

/* geinv: the inverse of a copy, written to Ainv when A is not singular */
int X(cpu_geinv)(bb_problem *p, bb_work *w)
{
    int n = p->n;
    if (n == 0) return 0;
    /* the kernel of the fixed and strided forms (across.c), for the same bits */
    if (X(geinv_across_fits)(n) && bb_cpu_across_on()) return X(geinv_across1)(n, p->a, p->lda, p->b, p->ldb);
    R *rw = NULL;
    T *s = NULL;
    int info = invert_copy(n, p->a, p->lda, w, &s, &rw, 0, NULL);
    if (info) return info;
    T *b = p->b;
    for (int j = 0; j < n; j++) memcpy(b + j * p->ldb, s + (size_t)j * n, (size_t)n * sizeof(T));
    return 0;
}
