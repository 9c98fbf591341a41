/*
 * batchblas-bench, the per-precision part: compiled once per precision with
 * -DBB_PREC_S/D/C/Z (src/common/prec.h) into libbbbench_[sdcz].la, each
 * exporting X(bench_ops) (bb_d_bench_ops...).
 *
 *   setup     problems on the host, filled per problem from a seeded stream
 *             (so any problem can be re-made and setup runs in parallel):
 *             general random in [-1,1), SPD/HPD and triangular matrices made
 *             well conditioned by a dominant diagonal, factored inputs
 *             (potrs, potri, getrs, getri, gecon) produced by LAPACKE here,
 *             outside any timing
 *   run_ours  one BatchBLAS call in the requested form
 *   run_base  #pragma omp parallel for over the problems, one OpenBLAS or
 *             LAPACKE call each (the papers' CPU baseline)
 *   check     residuals of a sample of problems, recomputed in double
 *             (complex double) with plain loops, scaled by tu_ratio
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include <cblas.h>
#include <lapacke.h>
#include "batchblas.h"
#include "prec.h"
#include "testutil.h"
#include "bench.h"

#define PREC_ID ((BB_COMPLEX ? 2 : 0) + (sizeof(R) == 8 ? 1 : 0)) /* 0 s, 1 d, 2 c, 3 z */

/* ---- reference arithmetic: W is double or double complex ---------------- */
#if BB_COMPLEX
typedef double _Complex W;
static inline W wmul(W a, W b)
{
    double ar = creal(a), ai = cimag(a), br = creal(b), bi = cimag(b);
    return CMPLX(ar * br - ai * bi, ar * bi + ai * br);
}
static inline W wconj(W a) { return conj(a); }
static inline double wabs(W a) { return cabs(a); }
static inline W wrecip(W a)
{
    double d = creal(a) * creal(a) + cimag(a) * cimag(a);
    return CMPLX(creal(a) / d, -cimag(a) / d);
}
static inline W wreal(W a) { return creal(a); }
#else
typedef double W;
static inline W wmul(W a, W b) { return a * b; }
static inline W wconj(W a) { return a; }
static inline double wabs(W a) { return fabs(a); }
static inline W wrecip(W a) { return 1.0 / a; }
static inline W wreal(W a) { return a; }
#endif

static inline W t2w(T v) { return (W)v; }
static inline T rand_T(void) { return MAKE_T(tu_rand(), BB_COMPLEX ? tu_rand() : 0.0); }

static W *wnew(int r, int c)
{
    W *p = calloc((size_t)(r > 0 ? r : 1) * (size_t)(c > 0 ? c : 1), sizeof(W));
    if (!p) {
        fprintf(stderr, "batchblas-bench: out of memory in the check\n");
        exit(1);
    }
    return p;
}

static W *wload(const T *A, int64_t ld, int r, int c)
{
    W *M = wnew(r, c);
    for (int j = 0; j < c; j++)
        for (int i = 0; i < r; i++) M[i + (int64_t)j * r] = t2w(A[i + j * ld]);
    return M;
}

/* keeps the uplo triangle; unit: diagonal 1 */
static void wtri(W *M, int n, int uplo, int unit)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            if (i == j) { if (unit) M[i + j * n] = 1; }
            else if ((uplo == BblasLower) != (i > j)) M[i + j * n] = 0;
        }
}

/* completes the matrix from its uplo triangle; herm: conjugate, real diagonal */
static void wsym(W *M, int n, int uplo, int herm)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            if (i == j) { if (herm) M[i + j * n] = wreal(M[i + j * n]); }
            else if ((uplo == BblasLower) != (i > j)) {
                W v = M[j + i * n];
                M[i + j * n] = herm ? wconj(v) : v;
            }
        }
}

static inline W wop(const W *A, int ld, int t, int i, int l)
{
    if (t == BblasNoTrans) return A[i + (int64_t)l * ld];
    W v = A[l + (int64_t)i * ld];
    return t == BblasConjTrans ? wconj(v) : v;
}

/* C = alpha op(A) op(B) + beta C, all m x n */
static void wgemm(int ta, int tb, int m, int n, int k, W alpha, const W *A, int lda, const W *B, int ldb,
                  W beta, W *C, int ldc)
{
    W *col = wnew(m, 1);
    for (int j = 0; j < n; j++) {
        for (int i = 0; i < m; i++) col[i] = 0;
        for (int l = 0; l < k; l++) {
            W b = wop(B, ldb, tb, l, j);
            if (ta == BblasNoTrans)
                for (int i = 0; i < m; i++) col[i] += wmul(A[i + (int64_t)l * lda], b);
            else
                for (int i = 0; i < m; i++) col[i] += wmul(wop(A, lda, ta, i, l), b);
        }
        for (int i = 0; i < m; i++)
            C[i + (int64_t)j * ldc] = wmul(alpha, col[i]) + wmul(beta, C[i + (int64_t)j * ldc]);
    }
    free(col);
}

static double wnorm(const W *A, int r, int c)
{
    double s = 0;
    for (int64_t x = 0; x < (int64_t)r * c; x++) s += wabs(A[x]) * wabs(A[x]);
    return sqrt(s);
}

/* ||A - B||_F; tri: only the uplo triangle */
static double wdiff(const W *A, const W *B, int r, int c, int tri, int uplo)
{
    double s = 0;
    for (int j = 0; j < c; j++)
        for (int i = 0; i < r; i++) {
            if (tri && i != j && (uplo == BblasLower) != (i > j)) continue;
            double d = wabs(A[i + (int64_t)j * r] - B[i + (int64_t)j * r]);
            s += d * d;
        }
    return sqrt(s);
}

/* ||X A - I||_F */
static double wresid_inv(const W *X, const W *A, int n)
{
    W *P = wnew(n, n);
    wgemm(BblasNoTrans, BblasNoTrans, n, n, n, 1, X, n, A, n, 0, P, n);
    for (int i = 0; i < n; i++) P[i + (int64_t)i * n] -= 1;
    double e = wnorm(P, n, n);
    free(P);
    return e;
}

/* in-place inverse by Gauss-Jordan with partial pivoting; 1: singular */
static int winv(W *A, int n)
{
    int *perm = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
    for (int i = 0; i < n; i++) perm[i] = i;
    int sing = 0;
    for (int k = 0; k < n && !sing; k++) {
        int p = k;
        for (int i = k + 1; i < n; i++)
            if (wabs(A[i + (int64_t)k * n]) > wabs(A[p + (int64_t)k * n])) p = i;
        if (A[p + (int64_t)k * n] == 0) { sing = 1; break; }
        if (p != k) {
            for (int j = 0; j < n; j++) {
                W t = A[k + (int64_t)j * n];
                A[k + (int64_t)j * n] = A[p + (int64_t)j * n];
                A[p + (int64_t)j * n] = t;
            }
            int t = perm[k]; perm[k] = perm[p]; perm[p] = t;
        }
        W piv = wrecip(A[k + (int64_t)k * n]);
        A[k + (int64_t)k * n] = 1;
        for (int j = 0; j < n; j++) A[k + (int64_t)j * n] = wmul(A[k + (int64_t)j * n], piv);
        for (int i = 0; i < n; i++) {
            if (i == k) continue;
            W f = A[i + (int64_t)k * n];
            if (f == 0) continue;
            A[i + (int64_t)k * n] = 0;
            for (int j = 0; j < n; j++) A[i + (int64_t)j * n] -= wmul(f, A[k + (int64_t)j * n]);
        }
    }
    if (!sing) {
        /* undo the row permutation of the input as a column permutation */
        W *tmp = wnew(n, n);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) tmp[i + (int64_t)perm[j] * n] = A[i + (int64_t)j * n];
        memcpy(A, tmp, sizeof(W) * (size_t)n * (size_t)n);
        free(tmp);
    }
    free(perm);
    return sing;
}

/* one, infinity, max or Frobenius norm */
static double wnormk(const W *A, int r, int c, int norm)
{
    double v = 0;
    if (norm == BblasOneNorm) {
        for (int j = 0; j < c; j++) {
            double s = 0;
            for (int i = 0; i < r; i++) s += wabs(A[i + (int64_t)j * r]);
            if (s > v || isnan(s)) v = s;
        }
    } else if (norm == BblasInfNorm) {
        for (int i = 0; i < r; i++) {
            double s = 0;
            for (int j = 0; j < c; j++) s += wabs(A[i + (int64_t)j * r]);
            if (s > v || isnan(s)) v = s;
        }
    } else if (norm == BblasMaxNorm) {
        for (int64_t x = 0; x < (int64_t)r * c; x++)
            if (wabs(A[x]) > v || isnan(wabs(A[x]))) v = wabs(A[x]);
    } else {
        v = wnorm(A, r, c);
    }
    return v;
}

/* L*U from a packed LU factor (L unit lower); pinv: then undo the pivots
   (A0 = P^T L U).  Returns NULL if a pivot is out of range. */
static W *wlu(const W *F, const int *ipiv, int n)
{
    W *L = wnew(n, n), *U = wnew(n, n), *P = wnew(n, n);
    memcpy(L, F, sizeof(W) * (size_t)n * n);
    memcpy(U, F, sizeof(W) * (size_t)n * n);
    wtri(L, n, BblasLower, 1);
    wtri(U, n, BblasUpper, 0);
    wgemm(BblasNoTrans, BblasNoTrans, n, n, n, 1, L, n, U, n, 0, P, n);
    free(L);
    free(U);
    if (ipiv) {
        for (int j = n - 1; j >= 0; j--) {
            int p = ipiv[j] - 1;
            if (p < j || p >= n) { free(P); return NULL; }
            if (p != j)
                for (int c = 0; c < n; c++) {
                    W t = P[j + (int64_t)c * n];
                    P[j + (int64_t)c * n] = P[p + (int64_t)c * n];
                    P[p + (int64_t)c * n] = t;
                }
        }
    }
    return P;
}

/* ---- the problems --------------------------------------------------------- */

typedef struct {
    bench_shape sh;          /* of the row's n (flags only for var) */
    int64_t total[BO_NMAT];  /* elements per operand */
    int64_t ptotal;          /* pivots */
    int64_t ld[BO_NMAT];     /* fixed sizes */
    int m, nn, k, nrhs;      /* fixed sizes: parameters of the call */
    int lwork;               /* getri workspace */
} priv_t;

static inline int imax(int a, int b) { return a > b ? a : b; }

/* rows of operand o of a problem (ld = max(1, rows)) */
static inline int rows_of(const bench_opts *o, int opd, int n, int nrhs)
{
    if (opd == BO_B && (o->routine == BR_TRMM || o->routine == BR_TRSM) && o->side == BblasRight)
        return nrhs;
    return n;
}
static inline int ld_of(const bench_opts *o, int opd, int n, int nrhs) { return imax(1, rows_of(o, opd, n, nrhs)); }

/* (m, n, k) of the call for a problem */
static void call_dims(const bench_opts *o, int n, int nrhs, int *m, int *nn, int *k)
{
    *m = *nn = *k = n;
    if (o->routine == BR_TRMM || o->routine == BR_TRSM) {
        if (o->side == BblasRight) *m = nrhs;
        else *nn = nrhs;
    }
}

/* The operands' memory: page-locked with --pinned (batchblas_malloc_host),
   else 64-byte aligned heap memory. */
static void *xalloc(size_t bytes)
{
    void *p = NULL;
    if (bytes == 0) bytes = 64;
    bytes = (bytes + 63) / 64 * 64;
    if (bench_pinned) return batchblas_malloc_host(&p, bytes) == BblasSuccess ? p : NULL;
    if (posix_memalign(&p, 64, bytes)) return NULL;
    return p;
}

static void xfree(void *p)
{
    if (bench_pinned) batchblas_free_host(p);
    else free(p);
}

static void pcopy(void *dst, const void *src, size_t bytes)
{
    const size_t chunk = (size_t)1 << 20;
    int64_t nchunk = (int64_t)((bytes + chunk - 1) / chunk);
#pragma omp parallel for schedule(static)
    for (int64_t c = 0; c < nchunk; c++) {
        size_t a = (size_t)c * chunk, len = bytes - a < chunk ? bytes - a : chunk;
        memcpy((char *)dst + a, (const char *)src + a, len);
    }
}

static uint64_t pseed(const bench_opts *o, int n, int64_t i, int what)
{
    return o->seed * 0x100000001B3ull ^ ((uint64_t)n << 40) ^ ((uint64_t)i << 4) ^ (uint64_t)what;
}

static void fill_gen(T *A, int64_t ld, int r, int c)
{
    for (int j = 0; j < c; j++)
        for (int i = 0; i < r; i++) A[i + j * ld] = rand_T();
}

/* random everywhere; the uplo triangle scaled so the triangular matrix is
   well conditioned with a unit or a non-unit diagonal */
static void fill_tri(T *A, int64_t ld, int n, int uplo)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            T v = rand_T();
            if (i == j) v = (T)(2.0 + fabs(tu_rand()));
            else if ((uplo == BblasLower) == (i > j)) v = v / (R)n;
            A[i + j * ld] = v;
        }
}

/* Hermitian (symmetric), diagonally dominant: positive definite */
static void fill_hpd(T *A, int64_t ld, int n)
{
    for (int j = 0; j < n; j++) {
        A[j + j * ld] = (T)(2.0 * n + fabs(tu_rand()));
        for (int i = j + 1; i < n; i++) {
            T v = rand_T();
            A[i + j * ld] = v;
            A[j + i * ld] = CONJ(v);
        }
    }
}

/* general, diagonally dominant: LU without pivoting is stable */
static void fill_dd(T *A, int64_t ld, int n)
{
    fill_gen(A, ld, n, n);
    for (int j = 0; j < n; j++) A[j + j * ld] = (T)(2.0 * n + fabs(tu_rand()));
}

static char lchar_uplo(int u) { return u == BblasUpper ? 'U' : 'L'; }
static char lchar_trans(int t) { return t == BblasNoTrans ? 'N' : t == BblasTrans ? 'T' : 'C'; }
static char lchar_diag(int d) { return d == BblasUnit ? 'U' : 'N'; }
static char lchar_norm(int n)
{
    return n == BblasOneNorm ? '1' : n == BblasInfNorm ? 'I' : n == BblasMaxNorm ? 'M' : 'F';
}

/* sizes of the var form: expected bytes of one problem, then the count */
static int draw_size(const bench_opts *o, int n, int64_t i, int64_t nbig)
{
    if (o->dist == BD_FIXED) return n;
    if (o->dist == BD_UNIFORM) return tu_rand_int(1, n);
    return i < nbig ? n : tu_rand_int(1, imax(1, n / 10));
}

static double mean_bytes(const bench_opts *o, int n)
{
    if (o->form != BF_VAR || o->dist == BD_FIXED) return bench_bytes(o, n, o->nrhs < 0 ? n : o->nrhs);
    int hi = o->dist == BD_UNIFORM ? n : imax(1, n / 10);
    double s = 0;
    for (int m = 1; m <= hi; m++) s += bench_bytes(o, m, o->nrhs < 0 ? m : o->nrhs);
    s /= hi;
    if (o->dist == BD_SKEWED) s = 0.99 * s + 0.01 * bench_bytes(o, n, o->nrhs < 0 ? n : o->nrhs);
    return s;
}

static void release(bench_set *s)
{
    for (int k = 0; k < BO_NMAT; k++) {
        xfree(s->w[k]); xfree(s->p[k]); free(s->off[k]); free(s->ptr[k]);
    }
    free(s->n); free(s->nrhs); xfree(s->ipiv); free(s->offp); free(s->pptr);
    xfree(s->x); xfree(s->y); free(s->info); free(s->gsizes);
    free(s->pm); free(s->pn); free(s->pk); free(s->pnrhs); free(s->plda); free(s->pldb); free(s->pldc);
    free(s->pside); free(s->puplo); free(s->ptrans); free(s->ptransb); free(s->pdiag); free(s->pnorm);
    free(s->palpha); free(s->pbeta); free(s->palphar); free(s->pbetar);
    free(s->priv);
    memset(s, 0, sizeof *s);
}

#define NOMEM() do { fprintf(stderr, "batchblas-bench: out of memory (n = %d, batch = %lld)\n", \
                             n, (long long)s->count); release(s); return -1; } while (0)

static int setup(const bench_opts *o, int n, bench_set *s)
{
    memset(s, 0, sizeof *s);
    s->o = o;
    s->nmax = n;
    s->elem = sizeof(T);
    if (n < 1) {
        fprintf(stderr, "batchblas-bench: sizes must be >= 1\n");
        return -1;
    }
#if !BB_COMPLEX
    if (bench_routine_complex_only(o->routine)) {
        fprintf(stderr, "batchblas-bench: %s is complex only\n", bench_routine_name(o->routine));
        return -1;
    }
#endif
    priv_t *pv = calloc(1, sizeof *pv);
    s->priv = pv;
    if (!pv) NOMEM();
    int nrhs0 = o->nrhs < 0 ? n : o->nrhs;
    bench_shape_of(o, n, nrhs0, &pv->sh);
    const bench_shape *sh = &pv->sh;

    /* the batch */
    int64_t count = o->batch;
    if (count <= 0) {
        double per = mean_bytes(o, n);
        count = (int64_t)(o->target_mb * 1e6 / (per > 0 ? per : 1));
        if (count > o->max_batch) count = o->max_batch;
        if (count < 1) count = 1;
    }
    if (count > 0x7fffffff - 1) count = 0x7fffffff - 1;
    s->count = count;

    /* sizes */
    s->n = malloc(sizeof(int) * (size_t)count);
    s->nrhs = malloc(sizeof(int) * (size_t)count);
    if (!s->n || !s->nrhs) NOMEM();
    if (o->form == BF_VAR && o->dist != BD_FIXED) {
        int64_t nbig = o->dist == BD_SKEWED ? (count + 99) / 100 : 0;
        tu_seed(pseed(o, n, -1, 99));
        for (int64_t i = 0; i < count; i++) s->n[i] = draw_size(o, n, i, nbig);
        for (int64_t i = count - 1; i > 0; i--) { /* shuffle the large ones in */
            int64_t j = (int64_t)((tu_rand() + 1) * 0.5 * (double)(i + 1));
            if (j > i) j = i;
            int t = s->n[i]; s->n[i] = s->n[j]; s->n[j] = t;
        }
    } else {
        for (int64_t i = 0; i < count; i++) s->n[i] = n;
    }
    for (int64_t i = 0; i < count; i++) s->nrhs[i] = o->nrhs < 0 ? s->n[i] : o->nrhs;

    /* offsets, totals */
    for (int k = 0; k < BO_NMAT; k++) {
        if (!sh->r[k] && !sh->c[k]) continue;
        s->off[k] = malloc(sizeof(int64_t) * (size_t)(count + 1));
        if (!s->off[k]) NOMEM();
        s->off[k][0] = 0;
        for (int64_t i = 0; i < count; i++) {
            bench_shape q;
            if (o->form == BF_VAR) bench_shape_of(o, s->n[i], s->nrhs[i], &q); else q = *sh;
            s->off[k][i + 1] = s->off[k][i] + (int64_t)q.r[k] * q.c[k];
        }
        pv->total[k] = s->off[k][count];
        pv->ld[k] = ld_of(o, k, n, nrhs0);
        s->stride[k] = (int64_t)sh->r[k] * sh->c[k];
    }
    call_dims(o, n, nrhs0, &pv->m, &pv->nn, &pv->k);
    pv->nrhs = nrhs0;
    if (sh->ipiv) {
        s->offp = malloc(sizeof(int64_t) * (size_t)(count + 1));
        if (!s->offp) NOMEM();
        s->offp[0] = 0;
        for (int64_t i = 0; i < count; i++) s->offp[i + 1] = s->offp[i] + s->n[i];
        pv->ptotal = s->offp[count];
    }

    /* buffers */
    for (int k = 0; k < BO_NMAT; k++) {
        if (!s->off[k]) continue;
        s->w[k] = xalloc(sizeof(T) * (size_t)pv->total[k]);
        if (!s->w[k]) NOMEM();
        if (sh->written[k]) {
            s->p[k] = xalloc(sizeof(T) * (size_t)pv->total[k]);
            if (!s->p[k]) NOMEM();
        }
        s->ptr[k] = malloc(sizeof(void *) * (size_t)count);
        if (!s->ptr[k]) NOMEM();
        for (int64_t i = 0; i < count; i++) s->ptr[k][i] = (T *)s->w[k] + s->off[k][i];
    }
    if (sh->ipiv) {
        s->ipiv = xalloc(sizeof(int) * (size_t)(pv->ptotal + 1));
        s->pptr = malloc(sizeof(int *) * (size_t)count);
        if (!s->ipiv || !s->pptr) NOMEM();
        for (int64_t i = 0; i < count; i++) s->pptr[i] = s->ipiv + s->offp[i];
    }
    if (sh->x_in) { s->x = xalloc(sizeof(R) * (size_t)count); if (!s->x) NOMEM(); }
    if (sh->y_out) { s->y = xalloc(sizeof(R) * (size_t)count); if (!s->y) NOMEM(); }
    s->info = calloc((size_t)count + 1, sizeof(int));
    if (!s->info) NOMEM();

    /* getri workspace of the baseline */
    pv->lwork = imax(1, 64 * n);

    /* fill: written operands into the pristine copy, read-only ones in place */
    int rt = o->routine;
    T *PA = s->p[BO_A] ? s->p[BO_A] : s->w[BO_A];
    T *PB = s->p[BO_B] ? s->p[BO_B] : s->w[BO_B];
    T *PC = s->p[BO_C] ? s->p[BO_C] : s->w[BO_C];
    int bad = 0;
#pragma omp parallel for schedule(static) reduction(+ : bad)
    for (int64_t i = 0; i < count; i++) {
        int ni = s->n[i], ri = s->nrhs[i];
        tu_seed(pseed(o, n, i, 0));
        T *A = PA ? PA + s->off[BO_A][i] : NULL;
        T *B = PB ? PB + s->off[BO_B][i] : NULL;
        T *C = PC ? PC + s->off[BO_C][i] : NULL;
        int lda = ld_of(o, BO_A, ni, ri), ldb = ld_of(o, BO_B, ni, ri), ldc = ni;
        int *piv = s->ipiv ? s->ipiv + s->offp[i] : NULL;
        switch (rt) {
        case BR_GEMM: case BR_SYMM: case BR_HEMM: case BR_SYR2K: case BR_HER2K:
            fill_gen(A, lda, ni, ni); fill_gen(B, ldb, ni, ni); fill_gen(C, ldc, ni, ni);
            break;
        case BR_SYRK: case BR_HERK:
            fill_gen(A, lda, ni, ni); fill_gen(C, ldc, ni, ni);
            break;
        case BR_TRMM: case BR_TRSM:
            fill_tri(A, lda, ni, o->uplo);
            if (o->side == BblasRight) fill_gen(B, ldb, ri, ni); else fill_gen(B, ldb, ni, ri);
            break;
        case BR_POTRF: case BR_POTI:
            fill_hpd(A, lda, ni);
            break;
        case BR_POSV:
            fill_hpd(A, lda, ni); fill_gen(B, ldb, ni, ri);
            break;
        case BR_POTRS: case BR_POTRI:
            fill_hpd(A, lda, ni);
            if (LAPACKE(potrf_work)(LAPACK_COL_MAJOR, lchar_uplo(o->uplo), ni, A, lda)) bad++;
            if (rt == BR_POTRS) fill_gen(B, ldb, ni, ri);
            break;
        case BR_TRTRI: case BR_LAUUM:
            fill_tri(A, lda, ni, o->uplo);
            break;
        case BR_GETRF: case BR_GECOND: case BR_LANGE: case BR_INVERSE:
            fill_gen(A, lda, ni, ni);
            break;
        case BR_GEINV: /* Ainv is only written: NaN, so an unwritten output fails */
            fill_gen(A, lda, ni, ni);
            for (int64_t e = 0; e < (int64_t)ni * ni; e++) B[e] = (T)NAN;
            break;
        case BR_GETRFNP:
            fill_dd(A, lda, ni);
            break;
        case BR_GESV:
            fill_gen(A, lda, ni, ni); fill_gen(B, ldb, ni, ri);
            break;
        case BR_GETRS: case BR_GETRI: case BR_GETRI_OOP: case BR_GECON: {
            fill_gen(A, lda, ni, ni);
            if (rt == BR_GECON) {
                R *wk = malloc(sizeof(R) * (size_t)ni);
                if (!wk) { bad++; break; }
                ((R *)s->x)[i] = LAPACKE(lange_work)(LAPACK_COL_MAJOR, lchar_norm(o->norm), ni, ni, A, lda, wk);
                free(wk);
            }
            int tmp[1];
            int *pp = piv;
            int *own = NULL;
            if (!pp) { own = malloc(sizeof(int) * (size_t)ni); pp = own ? own : tmp; }
            if (LAPACKE(getrf_work)(LAPACK_COL_MAJOR, ni, ni, A, lda, pp)) bad++;
            free(own);
            if (rt == BR_GETRS) fill_gen(B, ldb, ni, ri);
            if (rt == BR_GETRI_OOP) /* Ainv is only written: NaN, so an unwritten output fails */
                for (int64_t e = 0; e < (int64_t)ni * ni; e++) B[e] = (T)NAN;
            break;
        }
        default:
            break;
        }
    }
    if (bad) fprintf(stderr, "batchblas-bench: %d inputs failed to factor in the setup\n", bad);

    /* parameter arrays of the group and var forms */
    if (o->form == BF_GROUP || o->form == BF_VAR) {
        int64_t np = o->form == BF_GROUP ? (o->groups < count ? o->groups : count) : count;
        s->npar = np;
        size_t ni = sizeof(int) * (size_t)np;
        s->pm = malloc(ni); s->pn = malloc(ni); s->pk = malloc(ni); s->pnrhs = malloc(ni);
        s->plda = malloc(ni); s->pldb = malloc(ni); s->pldc = malloc(ni);
        s->pside = malloc(ni); s->puplo = malloc(ni); s->ptrans = malloc(ni); s->ptransb = malloc(ni);
        s->pdiag = malloc(ni); s->pnorm = malloc(ni);
        s->palpha = malloc(sizeof(T) * (size_t)np); s->pbeta = malloc(sizeof(T) * (size_t)np);
        s->palphar = malloc(sizeof(R) * (size_t)np); s->pbetar = malloc(sizeof(R) * (size_t)np);
        if (!s->pm || !s->pn || !s->pk || !s->pnrhs || !s->plda || !s->pldb || !s->pldc || !s->pside ||
            !s->puplo || !s->ptrans || !s->ptransb || !s->pdiag || !s->pnorm || !s->palpha || !s->pbeta ||
            !s->palphar || !s->pbetar)
            NOMEM();
        if (o->form == BF_GROUP) {
            s->gsizes = malloc(ni);
            if (!s->gsizes) NOMEM();
            for (int64_t g = 0; g < np; g++)
                s->gsizes[g] = (int)(count / np + (g < count % np ? 1 : 0));
        }
        for (int64_t j = 0; j < np; j++) {
            int nj = o->form == BF_VAR ? s->n[j] : n, rj = o->form == BF_VAR ? s->nrhs[j] : nrhs0;
            call_dims(o, nj, rj, &s->pm[j], &s->pn[j], &s->pk[j]);
            s->pnrhs[j] = rj;
            s->plda[j] = ld_of(o, BO_A, nj, rj);
            s->pldb[j] = ld_of(o, BO_B, nj, rj);
            s->pldc[j] = ld_of(o, BO_C, nj, rj);
            s->pside[j] = o->side; s->puplo[j] = o->uplo; s->ptrans[j] = o->trans;
            s->ptransb[j] = o->transb; s->pdiag[j] = o->diag; s->pnorm[j] = o->norm;
            ((T *)s->palpha)[j] = (T)1; ((T *)s->pbeta)[j] = (T)1;
            ((R *)s->palphar)[j] = 1; ((R *)s->pbetar)[j] = 1;
        }
    }

    /* totals */
    double fl = 0, by = 0;
    for (int64_t i = 0; i < count; i++) {
        fl += bench_flops(o, s->n[i], s->nrhs[i]);
        by += bench_bytes(o, s->n[i], s->nrhs[i]);
    }
    s->flops = fl;
    s->bytes = by;
    return 0;
}

/* Copies the written operands back from the pristine copies (outside any
   timing), poisons the outputs that are not read. */
static void restore(bench_set *s)
{
    priv_t *pv = s->priv;
    for (int k = 0; k < BO_NMAT; k++)
        if (s->p[k]) pcopy(s->w[k], s->p[k], sizeof(T) * (size_t)pv->total[k]);
    if (s->y) {
        R *y = s->y;
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < s->count; i++) y[i] = (R)NAN;
    }
    if (s->ipiv && pv->sh.ipiv_written) {
        int *p = s->ipiv;
#pragma omp parallel for schedule(static)
        for (int64_t i = 0; i < pv->ptotal; i++) p[i] = -1;
    }
    memset(s->info, 0, sizeof(int) * (size_t)(s->count + 1));
}

/* ---- ours ------------------------------------------------------------------- */

#define LAYOUT BblasColMajor
#define CP(k) ((T const *const *)s->ptr[k])
#define MP(k) ((T **)s->ptr[k])
#define GV(pfx, op, ...)                                                                    \
    do {                                                                                    \
        if (o->form == BF_GROUP) BB_PUB(pfx, op, batch)((int)s->npar, s->gsizes, __VA_ARGS__); \
        else BB_PUB(pfx, op, batchv)(cnt, __VA_ARGS__);                                     \
    } while (0)

static void run_ours(bench_set *s)
{
    const bench_opts *o = s->o;
    priv_t *pv = s->priv;
    int cnt = (int)s->count, form = o->form;
    int m = pv->m, nn = pv->nn, k = pv->k, n = s->nmax, nrhs = pv->nrhs;
    int lda = (int)pv->ld[BO_A], ldb = (int)pv->ld[BO_B], ldc = (int)pv->ld[BO_C];
    int64_t sa = s->stride[BO_A], sb = s->stride[BO_B], sc = s->stride[BO_C];
    T *A = s->w[BO_A], *B = s->w[BO_B], *C = s->w[BO_C];
    T alpha = (T)1, beta = (T)1;
    T *pal = s->palpha, *pbe = s->pbeta;
    int *ip = s->ipiv, *info = s->info;
    int **pp = s->pptr;
    int const *const *cpp = (int const *const *)s->pptr;
    R *x = s->x, *y = s->y;
    (void)m; (void)nn; (void)k; (void)nrhs; (void)lda; (void)ldb; (void)ldc; (void)sa; (void)sb; (void)sc;
    (void)A; (void)B; (void)C; (void)alpha; (void)beta; (void)pal; (void)pbe; (void)ip; (void)pp; (void)cpp;
    (void)x; (void)y;
    info[0] = BblasErrorsReportAll;

    switch (o->routine) {
    case BR_GEMM:
        if (form == BF_STRIDED)
            BB_PUB(blas, gemm, batch_strided)(LAYOUT, o->trans, o->transb, m, nn, k, alpha, A, lda, sa, B, ldb, sb,
                                              beta, C, ldc, sc, cnt, info);
        else if (form == BF_FIXED)
            BB_PUB(blas, gemm, batchf)(cnt, LAYOUT, o->trans, o->transb, m, nn, k, alpha, CP(BO_A), lda, CP(BO_B),
                                       ldb, beta, MP(BO_C), ldc, info);
        else
            GV(blas, gemm, LAYOUT, s->ptrans, s->ptransb, s->pm, s->pn, s->pk, pal, CP(BO_A), s->plda, CP(BO_B),
               s->pldb, pbe, MP(BO_C), s->pldc, info);
        break;
    case BR_SYMM:
        if (form == BF_STRIDED)
            BB_PUB(blas, symm, batch_strided)(LAYOUT, o->side, o->uplo, m, nn, alpha, A, lda, sa, B, ldb, sb, beta,
                                              C, ldc, sc, cnt, info);
        else if (form == BF_FIXED)
            BB_PUB(blas, symm, batchf)(cnt, LAYOUT, o->side, o->uplo, m, nn, alpha, CP(BO_A), lda, CP(BO_B), ldb,
                                       beta, MP(BO_C), ldc, info);
        else
            GV(blas, symm, LAYOUT, s->pside, s->puplo, s->pm, s->pn, pal, CP(BO_A), s->plda, CP(BO_B), s->pldb,
               pbe, MP(BO_C), s->pldc, info);
        break;
    case BR_SYRK:
        if (form == BF_STRIDED)
            BB_PUB(blas, syrk, batch_strided)(LAYOUT, o->uplo, o->trans, nn, k, alpha, A, lda, sa, beta, C, ldc,
                                              sc, cnt, info);
        else if (form == BF_FIXED)
            BB_PUB(blas, syrk, batchf)(cnt, LAYOUT, o->uplo, o->trans, nn, k, alpha, CP(BO_A), lda, beta,
                                       MP(BO_C), ldc, info);
        else
            GV(blas, syrk, LAYOUT, s->puplo, s->ptrans, s->pn, s->pk, pal, CP(BO_A), s->plda, pbe, MP(BO_C),
               s->pldc, info);
        break;
    case BR_SYR2K:
        if (form == BF_STRIDED)
            BB_PUB(blas, syr2k, batch_strided)(LAYOUT, o->uplo, o->trans, nn, k, alpha, A, lda, sa, B, ldb, sb,
                                               beta, C, ldc, sc, cnt, info);
        else if (form == BF_FIXED)
            BB_PUB(blas, syr2k, batchf)(cnt, LAYOUT, o->uplo, o->trans, nn, k, alpha, CP(BO_A), lda, CP(BO_B),
                                        ldb, beta, MP(BO_C), ldc, info);
        else
            GV(blas, syr2k, LAYOUT, s->puplo, s->ptrans, s->pn, s->pk, pal, CP(BO_A), s->plda, CP(BO_B), s->pldb,
               pbe, MP(BO_C), s->pldc, info);
        break;
#if BB_COMPLEX
    case BR_HEMM:
        if (form == BF_STRIDED)
            BB_PUB(blas, hemm, batch_strided)(LAYOUT, o->side, o->uplo, m, nn, alpha, A, lda, sa, B, ldb, sb, beta,
                                              C, ldc, sc, cnt, info);
        else if (form == BF_FIXED)
            BB_PUB(blas, hemm, batchf)(cnt, LAYOUT, o->side, o->uplo, m, nn, alpha, CP(BO_A), lda, CP(BO_B), ldb,
                                       beta, MP(BO_C), ldc, info);
        else
            GV(blas, hemm, LAYOUT, s->pside, s->puplo, s->pm, s->pn, pal, CP(BO_A), s->plda, CP(BO_B), s->pldb,
               pbe, MP(BO_C), s->pldc, info);
        break;
    case BR_HERK:
        if (form == BF_STRIDED)
            BB_PUB(blas, herk, batch_strided)(LAYOUT, o->uplo, o->trans, nn, k, (R)1, A, lda, sa, (R)1, C, ldc,
                                              sc, cnt, info);
        else if (form == BF_FIXED)
            BB_PUB(blas, herk, batchf)(cnt, LAYOUT, o->uplo, o->trans, nn, k, (R)1, CP(BO_A), lda, (R)1,
                                       MP(BO_C), ldc, info);
        else
            GV(blas, herk, LAYOUT, s->puplo, s->ptrans, s->pn, s->pk, (R *)s->palphar, CP(BO_A), s->plda,
               (R *)s->pbetar, MP(BO_C), s->pldc, info);
        break;
    case BR_HER2K:
        if (form == BF_STRIDED)
            BB_PUB(blas, her2k, batch_strided)(LAYOUT, o->uplo, o->trans, nn, k, alpha, A, lda, sa, B, ldb, sb,
                                               (R)1, C, ldc, sc, cnt, info);
        else if (form == BF_FIXED)
            BB_PUB(blas, her2k, batchf)(cnt, LAYOUT, o->uplo, o->trans, nn, k, alpha, CP(BO_A), lda, CP(BO_B),
                                        ldb, (R)1, MP(BO_C), ldc, info);
        else
            GV(blas, her2k, LAYOUT, s->puplo, s->ptrans, s->pn, s->pk, pal, CP(BO_A), s->plda, CP(BO_B),
               s->pldb, (R *)s->pbetar, MP(BO_C), s->pldc, info);
        break;
#endif
    case BR_TRMM:
        if (form == BF_STRIDED)
            BB_PUB(blas, trmm, batch_strided)(LAYOUT, o->side, o->uplo, o->trans, o->diag, m, nn, alpha, A, lda,
                                              sa, B, ldb, sb, cnt, info);
        else if (form == BF_FIXED)
            BB_PUB(blas, trmm, batchf)(cnt, LAYOUT, o->side, o->uplo, o->trans, o->diag, m, nn, alpha, CP(BO_A),
                                       lda, MP(BO_B), ldb, info);
        else
            GV(blas, trmm, LAYOUT, s->pside, s->puplo, s->ptrans, s->pdiag, s->pm, s->pn, pal, CP(BO_A), s->plda,
               MP(BO_B), s->pldb, info);
        break;
    case BR_TRSM:
        if (form == BF_STRIDED)
            BB_PUB(blas, trsm, batch_strided)(LAYOUT, o->side, o->uplo, o->trans, o->diag, m, nn, alpha, A, lda,
                                              sa, B, ldb, sb, cnt, info);
        else if (form == BF_FIXED)
            BB_PUB(blas, trsm, batchf)(cnt, LAYOUT, o->side, o->uplo, o->trans, o->diag, m, nn, alpha, CP(BO_A),
                                       lda, MP(BO_B), ldb, info);
        else
            GV(blas, trsm, LAYOUT, s->pside, s->puplo, s->ptrans, s->pdiag, s->pm, s->pn, pal, CP(BO_A), s->plda,
               MP(BO_B), s->pldb, info);
        break;
    /* one-operand in-place Cholesky-family routines */
#define CHOL1(op)                                                                                 \
    if (form == BF_STRIDED) BB_PUB(lapack, op, batch_strided)(LAYOUT, o->uplo, n, A, lda, sa, cnt, info); \
    else if (form == BF_FIXED) BB_PUB(lapack, op, batchf)(cnt, LAYOUT, o->uplo, n, MP(BO_A), lda, info);  \
    else GV(lapack, op, LAYOUT, s->puplo, s->pn, MP(BO_A), s->plda, info);                        \
    break;
    case BR_POTRF: CHOL1(potrf)
    case BR_LAUUM: CHOL1(lauum)
    case BR_POTRI: CHOL1(potri)
    case BR_POTI: CHOL1(poti)
#undef CHOL1
    case BR_TRTRI:
        if (form == BF_STRIDED)
            BB_PUB(lapack, trtri, batch_strided)(LAYOUT, o->uplo, o->diag, n, A, lda, sa, cnt, info);
        else if (form == BF_FIXED)
            BB_PUB(lapack, trtri, batchf)(cnt, LAYOUT, o->uplo, o->diag, n, MP(BO_A), lda, info);
        else
            GV(lapack, trtri, LAYOUT, s->puplo, s->pdiag, s->pn, MP(BO_A), s->plda, info);
        break;
    case BR_POTRS:
        if (form == BF_STRIDED)
            BB_PUB(lapack, potrs, batch_strided)(LAYOUT, o->uplo, n, nrhs, A, lda, sa, B, ldb, sb, cnt, info);
        else if (form == BF_FIXED)
            BB_PUB(lapack, potrs, batchf)(cnt, LAYOUT, o->uplo, n, nrhs, CP(BO_A), lda, MP(BO_B), ldb, info);
        else
            GV(lapack, potrs, LAYOUT, s->puplo, s->pn, s->pnrhs, CP(BO_A), s->plda, MP(BO_B), s->pldb, info);
        break;
    case BR_POSV:
        if (form == BF_STRIDED)
            BB_PUB(lapack, posv, batch_strided)(LAYOUT, o->uplo, n, nrhs, A, lda, sa, B, ldb, sb, cnt, info);
        else if (form == BF_FIXED)
            BB_PUB(lapack, posv, batchf)(cnt, LAYOUT, o->uplo, n, nrhs, MP(BO_A), lda, MP(BO_B), ldb, info);
        else
            GV(lapack, posv, LAYOUT, s->puplo, s->pn, s->pnrhs, MP(BO_A), s->plda, MP(BO_B), s->pldb, info);
        break;
    case BR_GETRF:
    case BR_INVERSE:
        if (form == BF_STRIDED)
            BB_PUB(lapack, getrf, batch_strided)(LAYOUT, n, n, A, lda, sa, ip, n, cnt, info);
        else if (form == BF_FIXED)
            BB_PUB(lapack, getrf, batchf)(cnt, LAYOUT, n, n, MP(BO_A), lda, pp, info);
        else
            GV(lapack, getrf, LAYOUT, s->pm, s->pn, MP(BO_A), s->plda, pp, info);
        if (o->routine == BR_GETRF) break;
        /* inverse: getri on the factors; a singular problem keeps its getrf code */
        {
            int *keep = NULL;
            if (info[0]) {
                keep = malloc(sizeof(int) * (size_t)(cnt + 1));
                if (keep) memcpy(keep, info, sizeof(int) * (size_t)(cnt + 1));
            }
            info[0] = BblasErrorsReportAll;
            if (form == BF_STRIDED)
                BB_PUB(lapack, getri, batch_strided)(LAYOUT, n, A, lda, sa, ip, n, cnt, info);
            else if (form == BF_FIXED)
                BB_PUB(lapack, getri, batchf)(cnt, LAYOUT, n, MP(BO_A), lda, cpp, info);
            else
                GV(lapack, getri, LAYOUT, s->pn, MP(BO_A), s->plda, cpp, info);
            if (keep) {
                for (int i = 1; i <= cnt; i++) if (keep[i]) info[i] = keep[i];
                free(keep);
            }
        }
        break;
    case BR_GETRFNP:
        if (form == BF_STRIDED)
            BB_PUB(lapack, getrfnp, batch_strided)(LAYOUT, n, n, A, lda, sa, cnt, info);
        else if (form == BF_FIXED)
            BB_PUB(lapack, getrfnp, batchf)(cnt, LAYOUT, n, n, MP(BO_A), lda, info);
        else
            GV(lapack, getrfnp, LAYOUT, s->pm, s->pn, MP(BO_A), s->plda, info);
        break;
    case BR_GETRS:
        if (form == BF_STRIDED)
            BB_PUB(lapack, getrs, batch_strided)(LAYOUT, o->trans, n, nrhs, A, lda, sa, ip, n, B, ldb, sb, cnt,
                                                 info);
        else if (form == BF_FIXED)
            BB_PUB(lapack, getrs, batchf)(cnt, LAYOUT, o->trans, n, nrhs, CP(BO_A), lda, cpp, MP(BO_B), ldb, info);
        else
            GV(lapack, getrs, LAYOUT, s->ptrans, s->pn, s->pnrhs, CP(BO_A), s->plda, cpp, MP(BO_B), s->pldb,
               info);
        break;
    case BR_GESV:
        if (form == BF_STRIDED)
            BB_PUB(lapack, gesv, batch_strided)(LAYOUT, n, nrhs, A, lda, sa, ip, n, B, ldb, sb, cnt, info);
        else if (form == BF_FIXED)
            BB_PUB(lapack, gesv, batchf)(cnt, LAYOUT, n, nrhs, MP(BO_A), lda, pp, MP(BO_B), ldb, info);
        else
            GV(lapack, gesv, LAYOUT, s->pn, s->pnrhs, MP(BO_A), s->plda, pp, MP(BO_B), s->pldb, info);
        break;
    case BR_GETRI:
        if (form == BF_STRIDED)
            BB_PUB(lapack, getri, batch_strided)(LAYOUT, n, A, lda, sa, ip, n, cnt, info);
        else if (form == BF_FIXED)
            BB_PUB(lapack, getri, batchf)(cnt, LAYOUT, n, MP(BO_A), lda, cpp, info);
        else
            GV(lapack, getri, LAYOUT, s->pn, MP(BO_A), s->plda, cpp, info);
        break;
    case BR_GETRI_OOP:
        if (form == BF_STRIDED)
            BB_PUB(lapack, getri_oop, batch_strided)(LAYOUT, n, A, lda, sa, ip, n, B, ldb, sb, cnt, info);
        else if (form == BF_FIXED)
            BB_PUB(lapack, getri_oop, batchf)(cnt, LAYOUT, n, CP(BO_A), lda, cpp, MP(BO_B), ldb, info);
        else
            GV(lapack, getri_oop, LAYOUT, s->pn, CP(BO_A), s->plda, cpp, MP(BO_B), s->pldb, info);
        break;
    case BR_GEINV:
        if (form == BF_STRIDED)
            BB_PUB(lapack, geinv, batch_strided)(LAYOUT, n, A, lda, sa, B, ldb, sb, cnt, info);
        else if (form == BF_FIXED)
            BB_PUB(lapack, geinv, batchf)(cnt, LAYOUT, n, CP(BO_A), lda, MP(BO_B), ldb, info);
        else
            GV(lapack, geinv, LAYOUT, s->pn, CP(BO_A), s->plda, MP(BO_B), s->pldb, info);
        break;
    case BR_LANGE:
        if (form == BF_STRIDED)
            BB_PUB(lapack, lange, batch_strided)(LAYOUT, o->norm, n, n, A, lda, sa, y, cnt, info);
        else if (form == BF_FIXED)
            BB_PUB(lapack, lange, batchf)(cnt, LAYOUT, o->norm, n, n, CP(BO_A), lda, y, info);
        else
            GV(lapack, lange, LAYOUT, s->pnorm, s->pm, s->pn, CP(BO_A), s->plda, y, info);
        break;
    case BR_GECOND:
        if (form == BF_STRIDED)
            BB_PUB(lapack, gecond, batch_strided)(LAYOUT, o->norm, n, A, lda, sa, y, cnt, info);
        else if (form == BF_FIXED)
            BB_PUB(lapack, gecond, batchf)(cnt, LAYOUT, o->norm, n, CP(BO_A), lda, y, info);
        else
            GV(lapack, gecond, LAYOUT, s->pnorm, s->pn, CP(BO_A), s->plda, y, info);
        break;
    case BR_GECON:
        if (form == BF_STRIDED)
            BB_PUB(lapack, gecon, batch_strided)(LAYOUT, o->norm, n, A, lda, sa, x, y, cnt, info);
        else if (form == BF_FIXED)
            BB_PUB(lapack, gecon, batchf)(cnt, LAYOUT, o->norm, n, CP(BO_A), lda, x, y, info);
        else
            GV(lapack, gecon, LAYOUT, s->pnorm, s->pn, CP(BO_A), s->plda, x, y, info);
        break;
    default:
        break;
    }
}

/* ---- the baseline: OpenMP loop, one OpenBLAS / LAPACKE call per problem ---- */

static void run_base(bench_set *s)
{
    const bench_opts *o = s->o;
    priv_t *pv = s->priv;
    const int rt = o->routine, nmax = s->nmax;
    const int64_t count = s->count;
    const CBLAS_SIDE cside = (CBLAS_SIDE)o->side;
    const CBLAS_UPLO cuplo = (CBLAS_UPLO)o->uplo;
    const CBLAS_TRANSPOSE ctr = (CBLAS_TRANSPOSE)o->trans, ctrb = (CBLAS_TRANSPOSE)o->transb;
    const CBLAS_DIAG cdiag = (CBLAS_DIAG)o->diag;
    const char lu = lchar_uplo(o->uplo), lt = lchar_trans(o->trans), ld_ = lchar_diag(o->diag);
    const char ln = lchar_norm(o->norm);
    T *const A0 = s->w[BO_A], *const B0 = s->w[BO_B], *const C0 = s->w[BO_C];
    int64_t *const oa = s->off[BO_A], *const ob = s->off[BO_B], *const oc = s->off[BO_C];
    int *const info = s->info;
    R *const x = s->x, *const y = s->y;
    const int lwork = pv->lwork;
#ifdef _OPENMP
    omp_set_schedule(o->base_static ? omp_sched_static : omp_sched_dynamic, o->base_static ? 0 : 1);
#endif
#pragma omp parallel
    {
        /* per-thread workspace */
        T *work = NULL, *buf = NULL;
        R *rwork = NULL;
        int *iwork = NULL;
        if (rt == BR_GETRI || rt == BR_GETRI_OOP || rt == BR_GECOND || rt == BR_INVERSE || rt == BR_GECON ||
            rt == BR_GEINV)
            work = malloc(sizeof(T) * (size_t)imax(lwork, 4 * nmax));
        if (rt == BR_LANGE || rt == BR_GECOND || rt == BR_GECON) rwork = malloc(sizeof(R) * (size_t)(2 * nmax));
        if (rt == BR_GETRFNP || rt == BR_GECOND || rt == BR_INVERSE || rt == BR_GECON || rt == BR_GEINV)
            iwork = malloc(sizeof(int) * (size_t)nmax);
        if (rt == BR_GECOND) buf = malloc(sizeof(T) * (size_t)nmax * nmax);
        T alpha = (T)1, beta = (T)1;
        (void)alpha; (void)beta; (void)cside; (void)cuplo; (void)ctr; (void)ctrb; (void)cdiag;
        (void)lu; (void)lt; (void)ld_; (void)ln; (void)x; (void)y; (void)B0; (void)C0; (void)ob; (void)oc;

#pragma omp for schedule(runtime)
        for (int64_t i = 0; i < count; i++) {
            const int n = s->n[i], nr = s->nrhs[i];
            T *A = A0 + oa[i];
            T *B = B0 ? B0 + ob[i] : NULL;
            T *C = C0 ? C0 + oc[i] : NULL;
            int *piv = s->ipiv ? s->ipiv + s->offp[i] : iwork;
            const int lda = n, ldb = ld_of(o, BO_B, n, nr), ldc = n;
            int r = 0;
            (void)B; (void)C; (void)ldb; (void)ldc; (void)piv;
            switch (rt) {
            case BR_GEMM:
                CBLAS(gemm)(CblasColMajor, ctr, ctrb, n, n, n, CBLAS_SCALAR(alpha), A, lda, B, ldb,
                            CBLAS_SCALAR(beta), C, ldc);
                break;
            case BR_SYMM:
                CBLAS(symm)(CblasColMajor, cside, cuplo, n, n, CBLAS_SCALAR(alpha), A, lda, B, ldb,
                            CBLAS_SCALAR(beta), C, ldc);
                break;
            case BR_SYRK:
                CBLAS(syrk)(CblasColMajor, cuplo, ctr, n, n, CBLAS_SCALAR(alpha), A, lda, CBLAS_SCALAR(beta), C,
                            ldc);
                break;
            case BR_SYR2K:
                CBLAS(syr2k)(CblasColMajor, cuplo, ctr, n, n, CBLAS_SCALAR(alpha), A, lda, B, ldb,
                             CBLAS_SCALAR(beta), C, ldc);
                break;
#if BB_COMPLEX
            case BR_HEMM:
                CBLAS(hemm)(CblasColMajor, cside, cuplo, n, n, &alpha, A, lda, B, ldb, &beta, C, ldc);
                break;
            case BR_HERK:
                CBLAS(herk)(CblasColMajor, cuplo, ctr, n, n, (R)1, A, lda, (R)1, C, ldc);
                break;
            case BR_HER2K:
                CBLAS(her2k)(CblasColMajor, cuplo, ctr, n, n, &alpha, A, lda, B, ldb, (R)1, C, ldc);
                break;
#endif
            case BR_TRMM: {
                int m = o->side == BblasRight ? nr : n, nn = o->side == BblasRight ? n : nr;
                CBLAS(trmm)(CblasColMajor, cside, cuplo, ctr, cdiag, m, nn, CBLAS_SCALAR(alpha), A, lda, B, ldb);
                break;
            }
            case BR_TRSM: {
                int m = o->side == BblasRight ? nr : n, nn = o->side == BblasRight ? n : nr;
                CBLAS(trsm)(CblasColMajor, cside, cuplo, ctr, cdiag, m, nn, CBLAS_SCALAR(alpha), A, lda, B, ldb);
                break;
            }
            case BR_POTRF: r = LAPACKE(potrf_work)(LAPACK_COL_MAJOR, lu, n, A, lda); break;
            case BR_POTRS: r = LAPACKE(potrs_work)(LAPACK_COL_MAJOR, lu, n, nr, A, lda, B, ldb); break;
            case BR_POSV: r = LAPACKE(posv_work)(LAPACK_COL_MAJOR, lu, n, nr, A, lda, B, ldb); break;
            case BR_TRTRI: r = LAPACKE(trtri_work)(LAPACK_COL_MAJOR, lu, ld_, n, A, lda); break;
            case BR_LAUUM: r = LAPACKE(lauum_work)(LAPACK_COL_MAJOR, lu, n, A, lda); break;
            case BR_POTRI: r = LAPACKE(potri_work)(LAPACK_COL_MAJOR, lu, n, A, lda); break;
            case BR_POTI:
                r = LAPACKE(potrf_work)(LAPACK_COL_MAJOR, lu, n, A, lda);
                if (!r) r = LAPACKE(potri_work)(LAPACK_COL_MAJOR, lu, n, A, lda);
                break;
            case BR_GETRF: case BR_GETRFNP:
                r = LAPACKE(getrf_work)(LAPACK_COL_MAJOR, n, n, A, lda, piv);
                break;
            case BR_GETRS:
                r = LAPACKE(getrs_work)(LAPACK_COL_MAJOR, lt, n, nr, A, lda, piv, B, ldb);
                break;
            case BR_GESV: r = LAPACKE(gesv_work)(LAPACK_COL_MAJOR, n, nr, A, lda, piv, B, ldb); break;
            case BR_GETRI: r = LAPACKE(getri_work)(LAPACK_COL_MAJOR, n, A, lda, piv, work, lwork); break;
            case BR_GETRI_OOP:
                LAPACKE(lacpy_work)(LAPACK_COL_MAJOR, 'A', n, n, A, lda, B, ldb);
                r = LAPACKE(getri_work)(LAPACK_COL_MAJOR, n, B, ldb, piv, work, lwork);
                break;
            case BR_INVERSE:
                r = LAPACKE(getrf_work)(LAPACK_COL_MAJOR, n, n, A, lda, piv);
                if (!r) r = LAPACKE(getri_work)(LAPACK_COL_MAJOR, n, A, lda, piv, work, lwork);
                break;
            case BR_GEINV:
                LAPACKE(lacpy_work)(LAPACK_COL_MAJOR, 'A', n, n, A, lda, B, ldb);
                r = LAPACKE(getrf_work)(LAPACK_COL_MAJOR, n, n, B, ldb, iwork);
                if (!r) r = LAPACKE(getri_work)(LAPACK_COL_MAJOR, n, B, ldb, iwork, work, lwork);
                break;
            case BR_LANGE:
                y[i] = LAPACKE(lange_work)(LAPACK_COL_MAJOR, ln, n, n, A, lda, rwork);
                break;
            case BR_GECOND: {
                LAPACKE(lacpy_work)(LAPACK_COL_MAJOR, 'A', n, n, A, lda, buf, n);
                R an = LAPACKE(lange_work)(LAPACK_COL_MAJOR, ln, n, n, buf, n, rwork);
                r = LAPACKE(getrf_work)(LAPACK_COL_MAJOR, n, n, buf, n, iwork);
                if (!r) r = LAPACKE(getri_work)(LAPACK_COL_MAJOR, n, buf, n, iwork, work, lwork);
                y[i] = r ? (R)INFINITY : an * LAPACKE(lange_work)(LAPACK_COL_MAJOR, ln, n, n, buf, n, rwork);
                break;
            }
            case BR_GECON: {
                R rc = 0;
#if BB_COMPLEX
                r = LAPACKE(gecon_work)(LAPACK_COL_MAJOR, ln, n, A, lda, x[i], &rc, work, rwork);
#else
                r = LAPACKE(gecon_work)(LAPACK_COL_MAJOR, ln, n, A, lda, x[i], &rc, work, iwork);
#endif
                y[i] = rc;
                break;
            }
            default:
                break;
            }
            info[1 + i] = r;
        }
        free(work); free(buf); free(rwork); free(iwork);
    }
}

/* ---- the check -------------------------------------------------------------- */

/* original (pristine) and current data of operand k of problem i */
static const T *orig(const bench_set *s, int k, int64_t i)
{
    const T *base = s->p[k] ? s->p[k] : s->w[k];
    return base + s->off[k][i];
}
static const T *cur(const bench_set *s, int k, int64_t i) { return (const T *)s->w[k] + s->off[k][i]; }

static double check_one(const bench_set *s, int64_t i)
{
    const bench_opts *o = s->o;
    const int n = s->n[i], nr = s->nrhs[i], rt = o->routine;
    const int lda = n, ldb = ld_of(o, BO_B, n, nr);
    const double nd = n;
    double e = 0, sc = 1, nn = nd;
    switch (rt) {
    case BR_GEMM: case BR_SYMM: case BR_HEMM: {
        W *A = wload(orig(s, BO_A, i), lda, n, n), *B = wload(orig(s, BO_B, i), n, n, n);
        W *C0 = wload(orig(s, BO_C, i), n, n, n), *C = wload(cur(s, BO_C, i), n, n, n);
        double na, nb = wnorm(B, n, n), nc = wnorm(C0, n, n);
        if (rt == BR_GEMM) {
            na = wnorm(A, n, n);
            wgemm(o->trans, o->transb, n, n, n, 1, A, n, B, n, 1, C0, n);
        } else {
            wsym(A, n, o->uplo, rt == BR_HEMM);
            na = wnorm(A, n, n);
            if (o->side == BblasLeft) wgemm(BblasNoTrans, BblasNoTrans, n, n, n, 1, A, n, B, n, 1, C0, n);
            else wgemm(BblasNoTrans, BblasNoTrans, n, n, n, 1, B, n, A, n, 1, C0, n);
        }
        e = wdiff(C, C0, n, n, 0, 0);
        sc = na * nb + nc;
        free(A); free(B); free(C0); free(C);
        break;
    }
    case BR_SYRK: case BR_HERK: case BR_SYR2K: case BR_HER2K: {
        int herm = rt == BR_HERK || rt == BR_HER2K, two = rt == BR_SYR2K || rt == BR_HER2K;
        W *A = wload(orig(s, BO_A, i), lda, n, n), *B = two ? wload(orig(s, BO_B, i), n, n, n) : A;
        W *C0 = wload(orig(s, BO_C, i), n, n, n), *C = wload(cur(s, BO_C, i), n, n, n);
        double nc = wnorm(C0, n, n), na = wnorm(A, n, n), nb = wnorm(B, n, n);
        if (herm) for (int j = 0; j < n; j++) C0[j + (int64_t)j * n] = wreal(C0[j + (int64_t)j * n]);
        int t1 = o->trans == BblasNoTrans ? BblasNoTrans : BblasTrans;
        int t2 = herm ? BblasConjTrans : BblasTrans;
        /* op = N: A B^T (+ B A^T); op = T/C: A^T B (+ B^T A) */
        if (t1 == BblasNoTrans) {
            wgemm(BblasNoTrans, t2, n, n, n, 1, A, n, B, n, 1, C0, n);
            if (two) wgemm(BblasNoTrans, t2, n, n, n, 1, B, n, A, n, 1, C0, n);
        } else {
            wgemm(t2, BblasNoTrans, n, n, n, 1, A, n, B, n, 1, C0, n);
            if (two) wgemm(t2, BblasNoTrans, n, n, n, 1, B, n, A, n, 1, C0, n);
        }
        e = wdiff(C, C0, n, n, 1, o->uplo);
        sc = (two ? 2 : 1) * na * nb + nc;
        if (two) free(B);
        free(A); free(C0); free(C);
        break;
    }
    case BR_TRMM: case BR_TRSM: {
        int left = o->side == BblasLeft, br = left ? n : nr, bc = left ? nr : n;
        W *A = wload(orig(s, BO_A, i), lda, n, n);
        wtri(A, n, o->uplo, o->diag == BblasUnit);
        W *B0 = wload(orig(s, BO_B, i), ldb, br, bc), *X = wload(cur(s, BO_B, i), ldb, br, bc);
        W *P = wnew(br, bc);
        double na = wnorm(A, n, n);
        if (rt == BR_TRMM) {
            /* P = op(A) B0 (left) or B0 op(A) */
            if (left) wgemm(o->trans, BblasNoTrans, br, bc, n, 1, A, n, B0, br, 0, P, br);
            else wgemm(BblasNoTrans, o->trans, br, bc, n, 1, B0, br, A, n, 0, P, br);
            e = wdiff(X, P, br, bc, 0, 0);
            sc = na * wnorm(B0, br, bc);
        } else {
            if (left) wgemm(o->trans, BblasNoTrans, br, bc, n, 1, A, n, X, br, 0, P, br);
            else wgemm(BblasNoTrans, o->trans, br, bc, n, 1, X, br, A, n, 0, P, br);
            e = wdiff(P, B0, br, bc, 0, 0);
            sc = na * wnorm(X, br, bc) + wnorm(B0, br, bc);
        }
        free(A); free(B0); free(X); free(P);
        break;
    }
    case BR_POTRF: {
        W *A0 = wload(orig(s, BO_A, i), lda, n, n), *F = wload(cur(s, BO_A, i), lda, n, n);
        wsym(A0, n, o->uplo, 1);
        wtri(F, n, o->uplo, 0);
        W *P = wnew(n, n);
        if (o->uplo == BblasLower) wgemm(BblasNoTrans, BblasConjTrans, n, n, n, 1, F, n, F, n, 0, P, n);
        else wgemm(BblasConjTrans, BblasNoTrans, n, n, n, 1, F, n, F, n, 0, P, n);
        e = wdiff(A0, P, n, n, 0, 0);
        sc = wnorm(A0, n, n);
        free(A0); free(F); free(P);
        break;
    }
    case BR_POTRS: case BR_POSV: case BR_GETRS: case BR_GESV: {
        W *A0;
        int ta = BblasNoTrans;
        if (rt == BR_POSV || rt == BR_GESV) {
            A0 = wload(orig(s, BO_A, i), lda, n, n);
            if (rt == BR_POSV) wsym(A0, n, o->uplo, 1);
        } else if (rt == BR_POTRS) {
            W *F = wload(orig(s, BO_A, i), lda, n, n);
            wtri(F, n, o->uplo, 0);
            A0 = wnew(n, n);
            if (o->uplo == BblasLower) wgemm(BblasNoTrans, BblasConjTrans, n, n, n, 1, F, n, F, n, 0, A0, n);
            else wgemm(BblasConjTrans, BblasNoTrans, n, n, n, 1, F, n, F, n, 0, A0, n);
            free(F);
        } else {
            W *F = wload(orig(s, BO_A, i), lda, n, n);
            A0 = wlu(F, s->ipiv + s->offp[i], n);
            free(F);
            ta = o->trans;
            if (!A0) return INFINITY;
        }
        W *B0 = wload(orig(s, BO_B, i), ldb, n, nr), *X = wload(cur(s, BO_B, i), ldb, n, nr);
        W *P = wnew(n, nr);
        wgemm(ta, BblasNoTrans, n, nr, n, 1, A0, n, X, n, 0, P, n);
        e = wdiff(P, B0, n, nr, 0, 0);
        sc = wnorm(A0, n, n) * wnorm(X, n, nr) + wnorm(B0, n, nr);
        free(A0); free(B0); free(X); free(P);
        break;
    }
    case BR_TRTRI: {
        W *A0 = wload(orig(s, BO_A, i), lda, n, n), *X = wload(cur(s, BO_A, i), lda, n, n);
        wtri(A0, n, o->uplo, o->diag == BblasUnit);
        wtri(X, n, o->uplo, o->diag == BblasUnit);
        e = wresid_inv(X, A0, n);
        sc = wnorm(A0, n, n) * wnorm(X, n, n);
        free(A0); free(X);
        break;
    }
    case BR_LAUUM: {
        W *F = wload(orig(s, BO_A, i), lda, n, n), *X = wload(cur(s, BO_A, i), lda, n, n);
        wtri(F, n, o->uplo, 0);
        W *P = wnew(n, n);
        if (o->uplo == BblasUpper) wgemm(BblasNoTrans, BblasConjTrans, n, n, n, 1, F, n, F, n, 0, P, n);
        else wgemm(BblasConjTrans, BblasNoTrans, n, n, n, 1, F, n, F, n, 0, P, n);
        e = wdiff(X, P, n, n, 1, o->uplo);
        double nf = wnorm(F, n, n);
        sc = nf * nf;
        free(F); free(X); free(P);
        break;
    }
    case BR_POTRI: case BR_POTI: {
        W *A0;
        if (rt == BR_POTI) {
            A0 = wload(orig(s, BO_A, i), lda, n, n);
            wsym(A0, n, o->uplo, 1);
        } else {
            W *F = wload(orig(s, BO_A, i), lda, n, n);
            wtri(F, n, o->uplo, 0);
            A0 = wnew(n, n);
            if (o->uplo == BblasLower) wgemm(BblasNoTrans, BblasConjTrans, n, n, n, 1, F, n, F, n, 0, A0, n);
            else wgemm(BblasConjTrans, BblasNoTrans, n, n, n, 1, F, n, F, n, 0, A0, n);
            free(F);
        }
        W *X = wload(cur(s, BO_A, i), lda, n, n);
        wsym(X, n, o->uplo, 1);
        e = wresid_inv(X, A0, n);
        sc = wnorm(A0, n, n) * wnorm(X, n, n);
        free(A0); free(X);
        break;
    }
    case BR_GETRF: case BR_GETRFNP: {
        W *A0 = wload(orig(s, BO_A, i), lda, n, n), *F = wload(cur(s, BO_A, i), lda, n, n);
        /* P A0 = L U  <=>  A0 = P^T L U */
        W *P = wlu(F, rt == BR_GETRF ? s->ipiv + s->offp[i] : NULL, n);
        if (!P) { free(A0); free(F); return INFINITY; }
        e = wdiff(A0, P, n, n, 0, 0);
        sc = wnorm(A0, n, n);
        free(A0); free(F); free(P);
        break;
    }
    case BR_GETRI: case BR_GETRI_OOP: case BR_INVERSE: case BR_GEINV: {
        W *A0;
        if (rt == BR_INVERSE || rt == BR_GEINV) {
            A0 = wload(orig(s, BO_A, i), lda, n, n);
        } else {
            W *F = wload(orig(s, BO_A, i), lda, n, n);
            A0 = wlu(F, s->ipiv + s->offp[i], n);
            free(F);
            if (!A0) return INFINITY;
        }
        W *X = rt == BR_GETRI_OOP || rt == BR_GEINV ? wload(cur(s, BO_B, i), ldb, n, n)
                                                    : wload(cur(s, BO_A, i), lda, n, n);
        e = wresid_inv(X, A0, n);
        sc = wnorm(A0, n, n) * wnorm(X, n, n);
        free(A0); free(X);
        break;
    }
    case BR_LANGE: {
        W *A = wload(orig(s, BO_A, i), lda, n, n);
        double ref = wnormk(A, n, n, o->norm), v = ((R *)s->y)[i];
        e = fabs(v - ref);
        sc = ref;
        free(A);
        if (isnan(v)) return NAN;
        break;
    }
    case BR_GECOND: case BR_GECON: {
        W *A;
        if (rt == BR_GECOND) {
            A = wload(orig(s, BO_A, i), lda, n, n);
        } else {
            W *F = wload(orig(s, BO_A, i), lda, n, n);
            A = wlu(F, NULL, n); /* gecon's input: the factors of getrf (pivots not needed) */
            free(F);
        }
        double an = wnormk(A, n, n, o->norm);
        if (winv(A, n)) { free(A); return INFINITY; }
        double kappa = an * wnormk(A, n, n, o->norm), v = ((R *)s->y)[i];
        free(A);
        if (isnan(v)) return NAN;
        if (rt == BR_GECOND) {
            e = fabs(v - kappa);
            sc = kappa * kappa;
        } else {
            /* rcond estimate: at least the exact value (the estimate of
               ||inv(A)|| is a lower bound), at most 10 n times it */
            double r = 1.0 / kappa;
            e = fmax(0.0, r - v) + fmax(0.0, v - 10.0 * nd * r);
            sc = 1.0; /* r * kappa */
        }
        break;
    }
    default:
        return 0;
    }
    return tu_ratio(e, sc, nn, PREC_ID);
}

static double check(bench_set *s, int *ok, int64_t *info_bad)
{
    const bench_opts *o = s->o;
    int64_t bad = 0;
    for (int64_t i = 0; i < s->count; i++)
        if (s->info[1 + i]) bad++;
    *info_bad = bad;
    /* sample: first, last, middle, a largest one, then random */
    int ns = o->nsample;
    double worst = 0;
    int any_nan = 0;
    if (ns > 0) {
        int64_t *idx = malloc(sizeof(int64_t) * (size_t)(ns + 4));
        int k = 0;
        idx[k++] = 0;
        if (ns > 1) idx[k++] = s->count - 1;
        if (ns > 2) idx[k++] = s->count / 2;
        if (ns > 3) {
            int64_t big = 0;
            for (int64_t i = 0; i < s->count; i++) if (s->n[i] > s->n[big]) big = i;
            idx[k++] = big;
        }
        tu_seed(o->seed + 12345);
        while (k < ns) idx[k++] = (int64_t)((tu_rand() + 1) * 0.5 * (double)s->count) % s->count;
        double *res = malloc(sizeof(double) * (size_t)k);
#pragma omp parallel for schedule(dynamic, 1)
        for (int j = 0; j < k; j++) res[j] = check_one(s, idx[j]);
        for (int j = 0; j < k; j++) {
            if (isnan(res[j])) any_nan = 1;
            else if (res[j] > worst) worst = res[j];
        }
        free(res);
        free(idx);
    }
    if (any_nan) worst = NAN;
    *ok = tu_accept(ns > 0 ? worst : 0) && bad == 0;
    return worst;
}

const bench_prec_ops X(bench_ops) = {setup, restore, run_ours, run_base, check, release};
