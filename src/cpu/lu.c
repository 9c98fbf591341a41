/*
 * CPU kernels of the LU family (compiled once per precision): getrf, getrfnp,
 * getrs, gesv, getri, getri_oop, gecon.  One problem per call.
 *
 *   - Small problems run our own unblocked code with vectorised inner loops
 *     (the per-call overhead of LAPACKE/OpenBLAS dominates there; the hot
 *     loops update four columns per pass).  Above the crossovers of
 *     cpu_policy.h ("LU family", one per precision) getrf, getrs, getri and
 *     gecon call the LAPACKE _work routines (column-major, no NaN checks,
 *     no allocation), and getrfnp, which LAPACK lacks, recurses on column
 *     halves with CBLAS trsm/gemm around the unblocked code.
 *   - Singular pivots (getrf, getrfnp, gesv): a pivot that is exactly zero
 *     or NaN; info is the first such k (1-based) and, as in LAPACK, the
 *     factorisation goes on after it.  The partial-pivoting search takes the
 *     first NaN of the column when there is one (otherwise the first entry of
 *     largest |re| + |im|, as LAPACK's i?amax), so a NaN in the first
 *     min(m, n) columns is always reported, at step c+1 at the latest for
 *     the first column c holding one, whatever the size (see getrf_lapacke).
 *     getri/getri_oop, as LAPACK, only treat an exactly zero U(k,k) as
 *     singular and then write nothing.
 *   - Row-major problems (p->rowmajor) are transposed into scratch, computed
 *     column-major and transposed back: results and pivots are bit for bit
 *     those of the column-major call on the same logical matrices.  Where
 *     LAPACK runs, column-major problems with a loose leading dimension go
 *     through tight scratch as well (to_cm: OpenBLAS's bits depend on it).
 */
#include <string.h>
#include <lapacke.h>
#include "small.h"

/* ---- helpers ---------------------------------------------------------- */



/* Complex products written out: C's operator checks for NaN results and calls
   a library routine, which stops the vectoriser. */
#if BB_COMPLEX
static inline T mk(R re, R im) { return __builtin_complex(re, im); }
static inline T mul(T a, T b)
{
    return mk(RE(a) * RE(b) - IM(a) * IM(b), RE(a) * IM(b) + IM(a) * RE(b));
}
static inline T cnj(T a) { return mk(RE(a), -IM(a)); }
#else
static inline T mul(T a, T b) { return a * b; }
static inline T cnj(T a) { return a; }
#endif

static inline int isnan_T(T x) { return x != x; }
static inline int imin(int a, int b) { return a < b ? a : b; }

static inline void swap_T(T *x, T *y)
{
    T t = *x;
    *x = *y;
    *y = t;
}

/* dst (r x c, column-major, ld ldd) = transpose of src (c x r, column-major,
   ld lds).  A row-major r x c matrix with row stride ld is, as memory, the
   column-major c x r matrix with leading dimension ld. */
static void transpose(int r, int c, const T *src, int64_t lds, T *dst, int64_t ldd)
{
    enum { TB = 32 };
    for (int j0 = 0; j0 < c; j0 += TB)
        for (int i0 = 0; i0 < r; i0 += TB) {
            int j1 = imin(c, j0 + TB), i1 = imin(r, i0 + TB);
            for (int j = j0; j < j1; j++)
                for (int i = i0; i < i1; i++) dst[i + j * ldd] = src[j + i * lds];
        }
}

static void copy_cm(int r, int c, const T *src, int64_t lds, T *dst, int64_t ldd)
{
    for (int j = 0; j < c; j++) memcpy(dst + j * ldd, src + j * lds, (size_t)r * sizeof(T));
}


/* Into and out of column-major scratch of leading dimension ldd: row-major
   data transposed, column-major data copied.  Above our own code's bounds
   the LAPACK/BLAS calls see the same tight leading dimension in both
   layouts: OpenBLAS's AVX-512 kernels give other bits for another leading
   dimension (the columns' alignment), and a row-major call gives the bits
   of the column-major call on the same logical matrices. */
static void to_cm(int rowmajor, int r, int c, const T *src, int64_t lds, T *dst, int64_t ldd)
{
    if (rowmajor) transpose(r, c, src, lds, dst, ldd);
    else copy_cm(r, c, src, lds, dst, ldd);
}

static void from_cm(int rowmajor, int r, int c, const T *src, int64_t lds, T *dst, int64_t ldd)
{
    if (rowmajor) transpose(c, r, src, lds, dst, ldd);
    else copy_cm(r, c, src, lds, dst, ldd);
}

/* First k (1-based) with U(k,k) exactly zero or NaN, 0 if none. */
static int first_singular(int mn, const T *a, int64_t lda)
{
    for (int k = 0; k < mn; k++) {
        T d = a[k + k * lda];
        if (d == 0 || isnan_T(d)) return k + 1;
    }
    return 0;
}

/* Row interchanges k1 <= k < k2 of ipiv (1-based) on ncol columns. */
static void laswp(int ncol, T *a, int64_t lda, int k1, int k2, const int *ipiv)
{
    for (int j = 0; j < ncol; j++) {
        T *aj = a + j * lda;
        for (int k = k1; k < k2; k++) {
            int p = ipiv[k] - 1;
            if (p != k) swap_T(aj + k, aj + p);
        }
    }
}

/* Same interchanges applied backwards (k2-1 down to k1). */
static void laswp_back(int ncol, T *a, int64_t lda, int k1, int k2, const int *ipiv)
{
    for (int j = 0; j < ncol; j++) {
        T *aj = a + j * lda;
        for (int k = k2 - 1; k >= k1; k--) {
            int p = ipiv[k] - 1;
            if (p != k) swap_T(aj + k, aj + p);
        }
    }
}

/* y[lo..hi) -= x[lo..hi) * u */
static inline void axpy_sub(int lo, int hi, const T *x, T *y, T u)
{
    SIMD for (int i = lo; i < hi; i++) y[i] -= mul(x[i], u);
}

/* Rank-1 update of columns j0 <= j < j1, rows lo..hi-1:
   a(i,j) -= x[i] * a(urow,j), four columns per pass over x. */
static inline void rank1(int lo, int hi, const T *x, T *a, int64_t lda, int urow, int j0, int j1)
{
    int j = j0;
    for (; j + 4 <= j1; j += 4) {
        T *y0 = a + j * lda, *y1 = y0 + lda, *y2 = y1 + lda, *y3 = y2 + lda;
        T u0 = y0[urow], u1 = y1[urow], u2 = y2[urow], u3 = y3[urow];
        SIMD for (int i = lo; i < hi; i++) {
            T xi = x[i];
            y0[i] -= mul(xi, u0);
            y1[i] -= mul(xi, u1);
            y2[i] -= mul(xi, u2);
            y3[i] -= mul(xi, u3);
        }
    }
    for (; j < j1; j++) axpy_sub(lo, hi, x, a + j * lda, a[urow + j * lda]);
}

/* y[0..n) += (or -= when neg) sum_{i0 <= i < i1} a(0..n, i) * w[i], four
   columns per pass over y. */
static void gemv_acc(int n, T *y, const T *a, int64_t lda, int i0, int i1, const T *w, int neg)
{
    int i = i0;
    for (; i + 4 <= i1; i += 4) {
        const T *c0 = a + i * lda, *c1 = c0 + lda, *c2 = c1 + lda, *c3 = c2 + lda;
        T w0 = w[i], w1 = w[i + 1], w2 = w[i + 2], w3 = w[i + 3];
        if (neg) {
            SIMD for (int r = 0; r < n; r++)
                y[r] -= mul(c0[r], w0) + mul(c1[r], w1) + mul(c2[r], w2) + mul(c3[r], w3);
        } else {
            SIMD for (int r = 0; r < n; r++)
                y[r] += mul(c0[r], w0) + mul(c1[r], w1) + mul(c2[r], w2) + mul(c3[r], w3);
        }
    }
    for (; i < i1; i++) {
        const T *c = a + i * lda;
        T wi = neg ? -w[i] : w[i];
        SIMD for (int r = 0; r < n; r++) y[r] += mul(c[r], wi);
    }
}

/* ---- LU factorisation --------------------------------------------------- */

/* Unblocked right-looking LU of the m x n column-major a; ipiv NULL: no
   pivoting.  Returns the first singular pivot (1-based) or 0. */
static inline __attribute__((always_inline)) int getf2_body(int m, int n, T *a, int64_t lda, int *ipiv)
{
    int info = 0, mn = imin(m, n);
    for (int k = 0; k < mn; k++) {
        T *ak = a + k * lda;
        int p = k;
        if (ipiv) {
            p = k + pivot_index(m - k, ak + k);
            ipiv[k] = p + 1;
        }
        T piv = ak[p];
        if ((piv == 0 || isnan_T(piv)) && info == 0) info = k + 1;
        if (piv != 0) { /* NaN too, as LAPACK: the column becomes NaN */
            if (p != k)
                for (int j = 0; j < n; j++) swap_T(a + k + j * lda, a + p + j * lda);
            if (abs1(piv) >= R_SAFMIN) {
                T r = bb_recip(piv);
                SIMD for (int i = k + 1; i < m; i++) ak[i] = mul(ak[i], r);
            } else {
                for (int i = k + 1; i < m; i++) ak[i] /= piv;
            }
        }
        rank1(k + 1, m, ak, a, lda, k, k + 1, n);
    }
    return info;
}

static int getf2_any(int m, int n, T *a, int64_t lda, int *ipiv) { return getf2_body(m, n, a, lda, ipiv); }

/* Square n <= 8: the same steps on a local copy whose order the compiler
   knows (the loops unroll; the operations and so the results are those of
   the general code), then stored back. */
static inline __attribute__((always_inline)) int getf2_fixed(const int N, T *a, int64_t lda, int *ipiv)
{
    T w[8 * 8];
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) w[i + j * N] = a[i + j * lda];
    int info = getf2_body(N, N, w, N, ipiv);
    for (int j = 0; j < N; j++)
        for (int i = 0; i < N; i++) a[i + j * lda] = w[i + j * N];
    return info;
}

static int getf2(int m, int n, T *a, int64_t lda, int *ipiv)
{
    if (m == n) switch (n) {
        case 1: return getf2_fixed(1, a, lda, ipiv);
        case 2: return getf2_fixed(2, a, lda, ipiv);
        case 3: return getf2_fixed(3, a, lda, ipiv);
        case 4: return getf2_fixed(4, a, lda, ipiv);
        case 5: return getf2_fixed(5, a, lda, ipiv);
        case 6: return getf2_fixed(6, a, lda, ipiv);
        case 7: return getf2_fixed(7, a, lda, ipiv);
        case 8: return getf2_fixed(8, a, lda, ipiv);
        default: break;
        }
    return getf2_any(m, n, a, lda, ipiv);
}

/* LU without pivoting, recursive on column halves (LAPACK has none): the
   left half, a triangular solve and one gemm update, then the trailing
   block.  Same info rule as getf2. */
static int lu_rec_np(int m, int n, T *a, int64_t lda)
{
    int mn = imin(m, n);
    if (mn <= BB_CPU_LU_REC_BASE) return getf2(m, n, a, lda, NULL);
    int n1 = mn / 2, n2 = n - n1;
    T *a12 = a + n1 * lda, *a21 = a + n1, *a22 = a12 + n1;
    T one = 1, mone = -1;
    int info = lu_rec_np(m, n1, a, lda);
    CBLAS(trsm)(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, n1, n2,
                CBLAS_SCALAR(one), a, (int)lda, a12, (int)lda);
    CBLAS(gemm)(CblasColMajor, CblasNoTrans, CblasNoTrans, m - n1, n2, n1, CBLAS_SCALAR(mone),
                a21, (int)lda, a12, (int)lda, CBLAS_SCALAR(one), a22, (int)lda);
    int info2 = lu_rec_np(m - n1, n2, a22, lda);
    if (info == 0 && info2 > 0) info = info2 + n1;
    return info;
}

/*
 * LAPACKE getrf under our singularity rule (the first NaN of a column is
 * its pivot; info = the first zero or NaN pivot).  LAPACK's pivot search
 * passes over a NaN, and an Inf turns into NaN (Inf - Inf) during the
 * factorisation, where LAPACK passes over it again: a matrix with any NaN
 * or Inf therefore takes our own getf2, which follows the rule at every
 * size (found by tests/test_isolation.c: info 0 above the crossover, info
 * k below it, for the same member).  Finite matrices go to LAPACKE.
 */
static int getrf_lapacke(int m, int n, T *a, int64_t lda, int *ipiv)
{
    /* x - x is 0 for a finite x and NaN for Inf and NaN: a column's sum of
       them is NaN exactly when the column holds one.  A vectorised sum over
       the real parts (re and im of a complex column alike) without an exit
       per element: the per-element test cost up to a fifth of LAPACKE's
       time (sgetrf, n = 256) */
    const int mr = BB_COMPLEX ? 2 * m : m;
    for (int j = 0; j < n; j++) {
        const R *aj = (const R *)(a + j * lda);
        R s = 0;
        SIMD_SUM(s)
        for (int i = 0; i < mr; i++) s += aj[i] - aj[i];
        if (s != s) return getf2_any(m, n, a, lda, ipiv);
    }
    LAPACKE(getrf_work)(LAPACK_COL_MAJOR, m, n, a, lda, ipiv);
    return first_singular(imin(m, n), a, lda);
}

/* lu_factor's three paths, decided here only: the kernel of the fixed and
   strided forms (across.c, real square problems: the same bits), LAPACK or
   BLAS above our own code's bound, our own code between */
static int lu_across(int m, int n, int pivot)
{
    return X(getrf_across_fits)(m, n, pivot) && bb_cpu_across_on();
}

static int lu_lib(int m, int n, int pivot)
{
    return !lu_across(m, n, pivot) && imin(m, n) > (pivot ? OWN_MAX(GETRF) : OWN_MAX(GETRFNP));
}

/* LU of the column-major a; ipiv NULL: no pivoting (getrfnp) */
static int lu_factor(int m, int n, T *a, int64_t lda, int *ipiv)
{
    if (lu_across(m, n, ipiv != NULL)) return ipiv ? X(getrf_across1)(n, a, lda, ipiv) : X(getrfnp_across1)(n, a, lda);
    if (lu_lib(m, n, ipiv != NULL)) return ipiv ? getrf_lapacke(m, n, a, lda, ipiv) : lu_rec_np(m, n, a, lda);
    return getf2(m, n, a, lda, ipiv);
}

/* getrf / getrfnp on either layout; ipiv NULL: no pivoting.  Row-major
   data, and column-major data with a loose leading dimension that LAPACK
   would see, go through tight scratch (to_cm). */
static int factor_problem(bb_problem *p, bb_work *w, int *ipiv)
{
    int m = p->m, n = p->n;
    if (m == 0 || n == 0) return 0;
    if (!p->rowmajor && (p->lda == m || !lu_lib(m, n, ipiv != NULL))) return lu_factor(m, n, p->a, p->lda, ipiv);
    T *s = bb_work_get(w, (size_t)m * n * sizeof(T));
    if (!s) return BB_INFO_NOMEM;
    to_cm(p->rowmajor, m, n, p->a, p->lda, s, m);
    int info = lu_factor(m, n, s, m, ipiv);
    from_cm(p->rowmajor, m, n, s, m, p->a, p->lda);
    return info;
}

int X(cpu_getrf)(bb_problem *p, bb_work *w) { return factor_problem(p, w, p->ipiv); }

int X(cpu_getrfnp)(bb_problem *p, bb_work *w) { return factor_problem(p, w, NULL); }

/* ---- triangular solves with the LU factors (one vector) ------------------ */

/* x := inv(L) x, L unit lower */
static void solve_l(int n, const T *a, int64_t lda, T *x)
{
    for (int k = 0; k < n; k++) {
        const T *ak = a + k * lda;
        T t = x[k];
        SIMD for (int i = k + 1; i < n; i++) x[i] -= mul(ak[i], t);
    }
}

/* x := inv(U) x; rd[k] = 1 / U(k,k) */
static void solve_u(int n, const T *a, int64_t lda, const T *rd, T *x)
{
    for (int k = n - 1; k >= 0; k--) {
        const T *ak = a + k * lda;
        T t = mul(x[k], rd[k]);
        x[k] = t;
        SIMD for (int i = 0; i < k; i++) x[i] -= mul(ak[i], t);
    }
}

/* sum_{lo <= i < hi} op(a[i]) x[i], op = conj when cj (complex only) */
static inline T dot(int lo, int hi, const T *a, const T *x, int cj)
{
#if BB_COMPLEX
    R sr = 0, si = 0;
    if (cj) {
        SIMD_SUM(sr, si)
        for (int i = lo; i < hi; i++) {
            sr += RE(a[i]) * RE(x[i]) + IM(a[i]) * IM(x[i]);
            si += RE(a[i]) * IM(x[i]) - IM(a[i]) * RE(x[i]);
        }
    } else {
        SIMD_SUM(sr, si)
        for (int i = lo; i < hi; i++) {
            sr += RE(a[i]) * RE(x[i]) - IM(a[i]) * IM(x[i]);
            si += RE(a[i]) * IM(x[i]) + IM(a[i]) * RE(x[i]);
        }
    }
    return mk(sr, si);
#else
    (void)cj;
    R s = 0;
    SIMD_SUM(s)
    for (int i = lo; i < hi; i++) s += a[i] * x[i];
    return s;
#endif
}

/* x := inv(op(U)) x, op = transpose (conjugate when cj); rd[k] = 1 / op(U(k,k)) */
static void solve_ut(int n, const T *a, int64_t lda, const T *rd, T *x, int cj)
{
    for (int k = 0; k < n; k++) x[k] = mul(x[k] - dot(0, k, a + k * lda, x, cj), rd[k]);
}

/* x := inv(op(L)) x, L unit lower */
static void solve_lt(int n, const T *a, int64_t lda, T *x, int cj)
{
    for (int k = n - 1; k >= 0; k--) x[k] -= dot(k + 1, n, a + k * lda, x, cj);
}

static void recip_diag(int n, const T *a, int64_t lda, int cj, T *rd)
{
    for (int k = 0; k < n; k++) {
        T d = a[k + k * lda];
        rd[k] = bb_recip(cj ? cnj(d) : d);
    }
}

/* getrs_cm's paths, decided here only: the kernel of the fixed and strided
   forms (across.c, real: the same bits), LAPACK above our own code's
   bound, our own code between */
static int getrs_across(int n, int nrhs)
{
    return X(getrs_across_fits)(n, nrhs) && bb_cpu_across_on();
}

static int getrs_lib(int trans, int n, int nrhs)
{
    return !getrs_across(n, nrhs) &&
           n > (nrhs == 1 ? OWN_MAX(GETRS) : trans == BblasNoTrans ? OWN_MAX(GETRSM_N) : OWN_MAX(GETRSM));
}

/* op(A) X = B, column-major LU in a, n x nrhs B; work: n elements */
static void getrs_cm(int trans, int n, int nrhs, const T *a, int64_t lda, const int *ipiv,
                     T *b, int64_t ldb, T *work)
{
    if (getrs_across(n, nrhs)) {
        X(getrs_across1)(trans, n, nrhs, a, lda, ipiv, b, ldb);
        return;
    }
    if (getrs_lib(trans, n, nrhs)) {
        char t = trans == BblasNoTrans ? 'N' : trans == BblasTrans ? 'T' : 'C';
        LAPACKE(getrs_work)(LAPACK_COL_MAJOR, t, n, nrhs, a, lda, ipiv, b, ldb);
        return;
    }
    int cj = BB_COMPLEX && trans == BblasConjTrans;
    recip_diag(n, a, lda, cj, work);
    if (trans == BblasNoTrans) {
        laswp(nrhs, b, ldb, 0, n, ipiv);
        if (nrhs == 1) {
            solve_l(n, a, lda, b);
            solve_u(n, a, lda, work, b);
            return;
        }
        /* all right-hand sides at once: rank-1 updates of B */
        for (int k = 0; k < n; k++) rank1(k + 1, n, a + k * lda, b, ldb, k, 0, nrhs);
        for (int k = n - 1; k >= 0; k--) {
            T r = work[k];
            for (int j = 0; j < nrhs; j++) b[k + j * ldb] = mul(b[k + j * ldb], r);
            rank1(0, k, a + k * lda, b, ldb, k, 0, nrhs);
        }
    } else {
        for (int j = 0; j < nrhs; j++) {
            solve_ut(n, a, lda, work, b + j * ldb, cj);
            solve_lt(n, a, lda, b + j * ldb, cj);
        }
        laswp_back(nrhs, b, ldb, 0, n, ipiv);
    }
}

/* getrs on either layout; the factors are only read (tight scratch as
   factor_problem) */
static int getrs_problem(bb_problem *p, bb_work *w)
{
    int n = p->n, nrhs = p->nrhs;
    if (n == 0 || nrhs == 0) return 0;
    const int direct = !p->rowmajor && ((p->lda == n && p->ldb == n) || !getrs_lib(p->trans, n, nrhs));
    size_t na = direct ? 0 : (size_t)n * n + (size_t)n * nrhs;
    T *s = bb_work_get(w, (na + n) * sizeof(T));
    if (!s) return BB_INFO_NOMEM;
    if (direct) {
        getrs_cm(p->trans, n, nrhs, p->a, p->lda, p->ipiv, p->b, p->ldb, s);
        return 0;
    }
    T *sa = s, *sb = s + (size_t)n * n, *wk = sb + (size_t)n * nrhs;
    to_cm(p->rowmajor, n, n, p->a, p->lda, sa, n);
    to_cm(p->rowmajor, n, nrhs, p->b, p->ldb, sb, n);
    getrs_cm(p->trans, n, nrhs, sa, n, p->ipiv, sb, n, wk);
    from_cm(p->rowmajor, n, nrhs, sb, n, p->b, p->ldb);
    return 0;
}

int X(cpu_getrs)(bb_problem *p, bb_work *w) { return getrs_problem(p, w); }

int X(cpu_gesv)(bb_problem *p, bb_work *w)
{
    int n = p->n, nrhs = p->nrhs;
    if (n == 0) return 0;
    if (!p->rowmajor && ((p->lda == n && p->ldb == n) || (!lu_lib(n, n, 1) && !getrs_lib(BblasNoTrans, n, nrhs)))) {
        T *wk = bb_work_get(w, (size_t)n * sizeof(T));
        if (!wk) return BB_INFO_NOMEM;
        int info = lu_factor(n, n, p->a, p->lda, p->ipiv);
        if (info != 0 || nrhs == 0) return info;
        getrs_cm(BblasNoTrans, n, nrhs, p->a, p->lda, p->ipiv, p->b, p->ldb, wk);
        return 0;
    }
    T *s = bb_work_get(w, ((size_t)n * n + (size_t)n * nrhs + n) * sizeof(T));
    if (!s) return BB_INFO_NOMEM;
    T *sa = s, *sb = s + (size_t)n * n, *wk = sb + (size_t)n * nrhs;
    to_cm(p->rowmajor, n, n, p->a, p->lda, sa, n);
    int info = lu_factor(n, n, sa, n, p->ipiv);
    from_cm(p->rowmajor, n, n, sa, n, p->a, p->lda);
    if (info != 0 || nrhs == 0) return info;
    to_cm(p->rowmajor, n, nrhs, p->b, p->ldb, sb, n);
    getrs_cm(BblasNoTrans, n, nrhs, sa, n, p->ipiv, sb, n, wk);
    from_cm(p->rowmajor, n, nrhs, sb, n, p->b, p->ldb);
    return 0;
}

/* ---- inverse from the factors -------------------------------------------- */

/* getri_cm calls LAPACK (above our own code's bound) */
static int getri_lib(int n) { return n > OWN_MAX(GETRI); }

/* Scratch elements getri_cm needs for order n. */
static size_t getri_work_size(int n)
{
    return getri_lib(n) ? (size_t)n * BB_CPU_GETRI_NB : (size_t)n;
}

/* In-place inverse of the column-major LU in a (diagonal checked nonzero by
   the caller): inv(U), then X * L = inv(U), then the column interchanges. */
static void getri_cm(int n, T *a, int64_t lda, const int *ipiv, T *work)
{
    if (getri_lib(n)) {
        LAPACKE(getri_work)(LAPACK_COL_MAJOR, n, a, lda, ipiv, work,
                            (lapack_int)getri_work_size(n));
        return;
    }
    for (int j = 0; j < n; j++) { /* inv(U), column j from the columns before it */
        T *aj = a + j * lda;
        aj[j] = bb_recip(aj[j]);
        T ajj = -aj[j];
        /* aj[0..j) := inv(U)(0:j,0:j) * aj[0..j), out of place through work */
        for (int k = 0; k < j; k++) {
            work[k] = aj[k];
            aj[k] = 0;
        }
        int k = 0;
        for (; k + 4 <= j; k += 4) {
            const T *c0 = a + k * lda, *c1 = c0 + lda, *c2 = c1 + lda, *c3 = c2 + lda;
            T w0 = work[k], w1 = work[k + 1], w2 = work[k + 2], w3 = work[k + 3];
            gemv_acc(k, aj, a, lda, k, k + 4, work, 0); /* rows above the 4 x 4 triangle */
            aj[k] += mul(c0[k], w0) + mul(c1[k], w1) + mul(c2[k], w2) + mul(c3[k], w3);
            aj[k + 1] += mul(c1[k + 1], w1) + mul(c2[k + 1], w2) + mul(c3[k + 1], w3);
            aj[k + 2] += mul(c2[k + 2], w2) + mul(c3[k + 2], w3);
            aj[k + 3] += mul(c3[k + 3], w3);
        }
        for (; k < j; k++) {
            const T *ck = a + k * lda;
            T wk = work[k];
            SIMD for (int i = 0; i <= k; i++) aj[i] += mul(ck[i], wk);
        }
        SIMD for (int i = 0; i < j; i++) aj[i] = mul(aj[i], ajj);
    }
    for (int j = n - 2; j >= 0; j--) { /* X * L = inv(U), right to left */
        T *aj = a + j * lda;
        for (int i = j + 1; i < n; i++) {
            work[i] = aj[i];
            aj[i] = 0;
        }
        gemv_acc(n, aj, a, lda, j + 1, n, work, 1);
    }
    for (int j = n - 2; j >= 0; j--) {
        int jp = ipiv[j] - 1;
        if (jp != j) {
            swap_vec(a + j * lda, a + jp * lda, n);
        }
    }
}

/* Only an exactly zero U(k,k) is singular here (as LAPACK getri); nothing is
   written then. */
static int first_zero_diag(int n, const T *a, int64_t lda)
{
    for (int k = 0; k < n; k++)
        if (a[k + k * lda] == 0) return k + 1;
    return 0;
}

/* The inverse of the factored A into out (ld ldo): A itself (getri) or B
   (getri_oop).  Row-major data goes through a column-major copy. */
static int getri_into(bb_problem *p, bb_work *w, T *out, int64_t ldo)
{
    int n = p->n;
    if (n == 0) return 0;
    /* the kernel of the fixed and strided forms (across.c), for the same bits */
    if (X(getri_across_fits)(n) && bb_cpu_across_on()) return X(getri_across1)(p, out != p->a);
    int info = first_zero_diag(n, p->a, p->lda); /* the diagonal reads the same in both layouts */
    if (info) return info;
    /* LAPACK's getri (above our own code's bound) on tight scratch (to_cm)
       unless the output is tight */
    const int direct = !p->rowmajor && (!getri_lib(n) || ldo == n);
    size_t nt = direct ? 0 : (size_t)n * n;
    T *s = bb_work_get(w, (nt + getri_work_size(n)) * sizeof(T));
    if (!s) return BB_INFO_NOMEM;
    if (direct) {
        if (out != p->a) copy_cm(n, n, p->a, p->lda, out, ldo);
        getri_cm(n, out, ldo, p->ipiv, s);
        return 0;
    }
    to_cm(p->rowmajor, n, n, p->a, p->lda, s, n);
    getri_cm(n, s, n, p->ipiv, s + nt);
    from_cm(p->rowmajor, n, n, s, n, out, ldo);
    return 0;
}

int X(cpu_getri)(bb_problem *p, bb_work *w) { return getri_into(p, w, p->a, p->lda); }

int X(cpu_getri_oop)(bb_problem *p, bb_work *w) { return getri_into(p, w, p->b, p->ldb); }

/* ---- condition estimate --------------------------------------------------- */

/* x := M x (h = 0) or M^H x (h = 1) for M = inv(U) inv(L), the inverse of A
   without its row permutation (which changes neither the one- nor the
   infinity-norm); rd = 1/U(k,k), rdc = 1/conj(U(k,k)). */
static void apply_inv(int n, const T *a, int64_t lda, const T *rd, const T *rdc, int h, T *x)
{
    if (!h) {
        solve_l(n, a, lda, x);
        solve_u(n, a, lda, rd, x);
    } else {
        solve_ut(n, a, lda, rdc, x, 1);
        solve_lt(n, a, lda, x, 1);
    }
}

static R sum_abs(int n, const T *x)
{
    R s = 0;
    for (int i = 0; i < n; i++) s += BB_COMPLEX ? ABS(x[i]) : RFABS(RE(x[i]));
    return s;
}

/* first i of largest |x[i]| */
static int max_abs_index(int n, const T *x)
{
    int j = 0;
    R best = -1;
    for (int i = 0; i < n; i++) {
        R v = BB_COMPLEX ? ABS(x[i]) : RFABS(RE(x[i]));
        if (v > best) {
            best = v;
            j = i;
        }
    }
    return j;
}

/* x := the sign vector of x (x/|x| for complex, 1 where |x| is tiny); real:
   sgn holds the previous signs, and the result says whether they changed
   (complex: always 1, as LAPACK's zlacn2 has no such test) */
static int sign_vector(int n, T *x, int *sgn)
{
#if BB_COMPLEX
    (void)sgn;
    for (int i = 0; i < n; i++) {
        R ax = ABS(x[i]);
        x[i] = ax > R_SAFMIN ? x[i] / ax : (T)1;
    }
    return 1;
#else
    int changed = 0;
    for (int i = 0; i < n; i++) {
        int s = x[i] >= 0 ? 1 : -1;
        changed |= s != sgn[i];
        sgn[i] = s;
        x[i] = (T)s;
    }
    return changed;
#endif
}

/*
 * Hager's estimate of ||M||_1 with Higham's refinements (the method of
 * LAPACK's lacn2): a few products with M and M^H on sign vectors, at most
 * five iterations, then the alternating test vector.  h0 = 1 estimates
 * ||M^H||_1 = ||M||_inf instead.  x: n elements, sgn: n ints.
 */
static R norm1_estimate(int n, const T *a, int64_t lda, const T *rd, const T *rdc, int h0,
                        T *x, int *sgn)
{
    enum { ITMAX = 5 };
    for (int i = 0; i < n; i++) x[i] = (T)((R)1 / (R)n);
    apply_inv(n, a, lda, rd, rdc, h0, x);
    if (n == 1) return BB_COMPLEX ? ABS(x[0]) : RFABS(RE(x[0]));
    R est = sum_abs(n, x);
    for (int i = 0; i < n; i++) sgn[i] = 0;
    sign_vector(n, x, sgn);
    apply_inv(n, a, lda, rd, rdc, !h0, x);
    int j = max_abs_index(n, x);
    for (int iter = 2;; iter++) {
        for (int i = 0; i < n; i++) x[i] = 0;
        x[j] = 1;
        apply_inv(n, a, lda, rd, rdc, h0, x);
        R estold = est;
        est = sum_abs(n, x);
        int changed = sign_vector(n, x, sgn);
        if (!changed || est <= estold) break; /* repeated sign vector, or no progress */
        apply_inv(n, a, lda, rd, rdc, !h0, x);
        int jlast = j;
        j = max_abs_index(n, x);
        R xl = BB_COMPLEX ? ABS(x[jlast]) : RE(x[jlast]);
        R xj = BB_COMPLEX ? ABS(x[j]) : RFABS(RE(x[j]));
        if (xl == xj || iter >= ITMAX) break;
    }
    R alt = 1;
    for (int i = 0; i < n; i++) {
        x[i] = (T)(alt * (1 + (R)i / (R)(n - 1)));
        alt = -alt;
    }
    apply_inv(n, a, lda, rd, rdc, h0, x);
    R temp = 2 * (sum_abs(n, x) / (R)(3 * n));
    return temp > est ? temp : est;
}

/* gecon_cm calls LAPACK (above our own code's bound) */
static int gecon_lib(int n) { return n > OWN_MAX(GECON); }

/* rcond of the column-major LU in a */
static R gecon_cm(int norm, int n, const T *a, int64_t lda, R anorm, void *scratch)
{
    if (gecon_lib(n)) {
        R rc = 0;
        char nc = norm == BblasInfNorm ? 'I' : 'O';
#if BB_COMPLEX
        T *wk = scratch;
        R *rw = (R *)(wk + 2 * (size_t)n);
        LAPACKE(gecon_work)(LAPACK_COL_MAJOR, nc, n, a, lda, anorm, &rc, wk, rw);
#else
        T *wk = scratch;
        lapack_int *iw = (lapack_int *)(wk + 4 * (size_t)n);
        LAPACKE(gecon_work)(LAPACK_COL_MAJOR, nc, n, a, lda, anorm, &rc, wk, iw);
#endif
        return rc == rc ? rc : 0;
    }
    if (first_singular(n, a, lda)) return 0;
    T *rd = scratch, *rdc = rd + n, *x = rdc + n;
    int *sgn = (int *)(x + n);
    recip_diag(n, a, lda, 0, rd);
    recip_diag(n, a, lda, 1, rdc);
    R est = norm1_estimate(n, a, lda, rd, rdc, norm == BblasInfNorm, x, sgn);
    if (!(est == est) || est == 0) return 0; /* NaN; or all of inv(A) zero: cannot be */
    R rc = ((R)1 / est) / anorm;
    return rc == rc ? rc : 0;
}

int X(cpu_gecon)(bb_problem *p, bb_work *w)
{
    int n = p->n;
    R anorm = *(const R *)p->x;
    R *rcond = p->y;
    if (n == 0) {
        *rcond = 1;
        return 0;
    }
    if (anorm != anorm) { /* NaN in: NaN out */
        *rcond = anorm;
        return 0;
    }
    if (anorm == 0 || isinf(anorm)) {
        *rcond = 0;
        return 0;
    }
    /* scratch: the transposed factors (row-major), then the estimator's
       vectors (own code: 3n elements + n ints; LAPACKE: 4n elements + n ints) */
    const int direct = !p->rowmajor && (p->lda == n || !gecon_lib(n));
    size_t nt = direct ? 0 : (size_t)n * n;
    size_t bytes = (nt + 4 * (size_t)n) * sizeof(T) + (size_t)n * sizeof(lapack_int) + sizeof(int);
    T *s = bb_work_get(w, bytes);
    if (!s) return BB_INFO_NOMEM;
    if (direct) {
        *rcond = gecon_cm(p->norm, n, p->a, p->lda, anorm, s);
        return 0;
    }
    to_cm(p->rowmajor, n, n, p->a, p->lda, s, n);
    *rcond = gecon_cm(p->norm, n, s, n, anorm, s + nt);
    return 0;
}
