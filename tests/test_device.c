/*
 * Device-API test (CUDA): the _dev variants on queues, and the plain calls
 * forced onto the CUDA backend (host data staged by the driver).  Every
 * result is compared with the same problems run by the CPU backend on host
 * copies, with the acceptance rule of testutil.h.
 *
 * Covered, in d and z: gemm, potrf, getrf, trsm; strided, fixed (pointer
 * arrays in host and in device memory), group and variable forms; row- and
 * column-major; argument errors and numerical failures inside a batch (the
 * codes must match the CPU's and a skipped problem must be left untouched);
 * ReportNone followed by batchblas_queue_sync; a queue on a user stream;
 * batches of more than 65535 problems.  Info in device (and managed) memory
 * in every report mode and form, with the same codes as with host info and
 * nothing written beyond the mode's entries; parameter arrays and group
 * sizes in device memory; plain calls on operands in page-locked memory
 * (batchblas_malloc_host: the direct copies of staging.cu); one strided
 * sgemm over 2^31 elements (skipped with less than 24 GB of free device
 * memory).
 *
 * Exits 77 (skipped) when no CUDA device is present.  Not a Check suite:
 * CUDA must not be initialised before a fork, and this program never forks.
 * BATCHBLAS_CUDA_PLUGIN defaults to the plugin in the build tree.  The host
 * path stages through small buffers here (BATCHBLAS_CUDA_STAGE_BYTES,
 * unless set) so that its chunked pipeline is exercised.
 */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime_api.h>
#include "batchblas.h"
#include "testutil.h"

#ifndef BB_TEST_PLUGIN
#define BB_TEST_PLUGIN ".libs/libbatchblas_cuda.so"
#endif

static int npassed = 0, nfailed = 0;

static void report(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void report(int ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (ok) {
        npassed++;
    } else {
        nfailed++;
        fputs("FAIL: ", stdout);
        vprintf(fmt, ap);
        fputc('\n', stdout);
        fflush(stdout);
    }
    va_end(ap);
}

/* A CUDA call of the test itself failed: nothing sensible can follow. */
static void cuda_or_die(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        printf("FATAL: %s: %s\n", what, cudaGetErrorString(e));
        printf("%d passed, %d failed\n", npassed, nfailed + 1);
        exit(1);
    }
}

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        printf("FATAL: out of host memory\n");
        exit(1);
    }
    return p;
}

/* The operands' host memory: page-locked (batchblas_malloc_host) while
   g_pinned is set, so that the plain calls copy them directly. */
static int g_pinned = 0;

static void *halloc(size_t bytes)
{
    if (!g_pinned) return xmalloc(bytes);
    void *p = NULL;
    if (batchblas_malloc_host(&p, bytes ? bytes : 1) != BblasSuccess || !p) {
        printf("FATAL: batchblas_malloc_host(%zu) failed\n", bytes);
        exit(1);
    }
    return p;
}

static void hfree(void *p)
{
    batchblas_free_host(p); /* either kind: malloc'd memory is freed with free() */
}

static void *dmalloc(size_t bytes)
{
    void *p = NULL;
    cuda_or_die(cudaMalloc(&p, bytes ? bytes : 1), "cudaMalloc");
    return p;
}

/* ------------------------------------------------------------------------- */
/* Test cases                                                                 */
/* ------------------------------------------------------------------------- */

enum { R_GEMM, R_POTRF, R_GETRF, R_TRSM };
static const char *rname[] = {"gemm", "potrf", "getrf", "trsm"};
enum { F_STRIDED, F_FIXED, F_GROUP, F_VAR };
enum { PA_HOST, PA_DEV };              /* where a _dev call's pointer arrays live */
enum { IN_HOST, IN_DEV, IN_MANAGED };  /* where a _dev call's info lives */
enum { RUN_REF, RUN_DEV, RUN_HOSTCUDA }; /* CPU reference, _dev call, plain call on cuda */
enum { O_A, O_B, O_C, O_P, NO };       /* operands; O_P = ipiv */

#define MAXG 48

typedef struct {
    int side, uplo, ta, tb, diag, m, n, k, lda, ldb, ldc;
    double al[2], be[2];
    int fix;   /* 0, or a fix-up of this problem's data: see fixups() */
} prm;

enum { FIX_NONE, FIX_NOT_SPD, FIX_SINGULAR, FIX_NAN_C };

typedef struct {
    const char *label;
    int r, z, layout, form, parr, mode, path;
    int dinfo; /* _dev calls: IN_*; not IN_HOST: also run with host info, same codes */
    int dpar;  /* _dev calls: parameter arrays and group sizes in device memory */
    int64_t count;
    int ngroups, gsize[MAXG];
    prm *p; /* [count] */
} tcase;

/* Parameters in API shape: one entry per group (group form), per problem
   (variable form) or just the first (fixed, strided). */
typedef struct {
    int64_t np;
    int *side, *uplo, *ta, *tb, *diag, *m, *n, *k, *lda, *ldb, *ldc;
    double *al, *be; /* 1 (d) or 2 (z) doubles each */
    int dev;         /* the arrays are in device memory */
} params;

static void params_build(const tcase *t, params *P)
{
    int64_t np = t->form == F_GROUP ? t->ngroups : t->form == F_VAR ? t->count : 1;
    int de = t->z ? 2 : 1;
    P->np = np;
    int **f[] = {&P->side, &P->uplo, &P->ta, &P->tb, &P->diag, &P->m, &P->n, &P->k,
                 &P->lda, &P->ldb, &P->ldc};
    for (int q = 0; q < 11; q++) *f[q] = (int *)xmalloc((size_t)np * sizeof(int));
    P->al = (double *)xmalloc((size_t)(np * de) * sizeof(double));
    P->be = (double *)xmalloc((size_t)(np * de) * sizeof(double));
    P->dev = 0;
    int64_t first = 0;
    for (int64_t g = 0; g < np; g++) {
        int64_t i = t->form == F_GROUP ? first : g;
        if (t->form == F_GROUP) first += t->gsize[g];
        if (i >= t->count) i = t->count - 1; /* an empty last group: any valid values */
        const prm *s = &t->p[i];
        P->side[g] = s->side; P->uplo[g] = s->uplo; P->ta[g] = s->ta; P->tb[g] = s->tb;
        P->diag[g] = s->diag; P->m[g] = s->m; P->n[g] = s->n; P->k[g] = s->k;
        P->lda[g] = s->lda; P->ldb[g] = s->ldb; P->ldc[g] = s->ldc;
        for (int c = 0; c < de; c++) {
            P->al[g * de + c] = s->al[c];
            P->be[g * de + c] = s->be[c];
        }
    }
}

static void *to_device(const void *h, size_t bytes)
{
    void *d = dmalloc(bytes);
    cuda_or_die(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice), "parameter upload");
    return d;
}

/* Every array of P moved to device memory. */
static void params_to_device(params *P, int z)
{
    int **f[] = {&P->side, &P->uplo, &P->ta, &P->tb, &P->diag, &P->m, &P->n, &P->k,
                 &P->lda, &P->ldb, &P->ldc};
    for (int q = 0; q < 11; q++) {
        int *d = (int *)to_device(*f[q], (size_t)P->np * sizeof(int));
        free(*f[q]);
        *f[q] = d;
    }
    double **g[] = {&P->al, &P->be};
    for (int q = 0; q < 2; q++) {
        double *d = (double *)to_device(*g[q], (size_t)(P->np * (z ? 2 : 1)) * sizeof(double));
        free(*g[q]);
        *g[q] = d;
    }
    P->dev = 1;
}

static void params_free(params *P)
{
    int *f[] = {P->side, P->uplo, P->ta, P->tb, P->diag, P->m, P->n, P->k, P->lda, P->ldb, P->ldc};
    for (int q = 0; q < 11; q++) {
        if (P->dev) cudaFree(f[q]);
        else free(f[q]);
    }
    if (P->dev) {
        cudaFree(P->al);
        cudaFree(P->be);
    } else {
        free(P->al);
        free(P->be);
    }
}

/* rows x cols of operand o of problem s (logical, user view) */
static void dims(int r, const prm *s, int o, int *rows, int *cols)
{
    *rows = *cols = 0;
    switch (r) {
    case R_GEMM:
        if (o == O_A) { *rows = s->ta == BblasNoTrans ? s->m : s->k; *cols = s->ta == BblasNoTrans ? s->k : s->m; }
        if (o == O_B) { *rows = s->tb == BblasNoTrans ? s->k : s->n; *cols = s->tb == BblasNoTrans ? s->n : s->k; }
        if (o == O_C) { *rows = s->m; *cols = s->n; }
        break;
    case R_POTRF:
        if (o == O_A) *rows = *cols = s->n;
        break;
    case R_GETRF:
        if (o == O_A) { *rows = s->m; *cols = s->n; }
        if (o == O_P) { *rows = s->m < s->n ? s->m : s->n; *cols = 1; }
        break;
    case R_TRSM:
        if (o == O_A) *rows = *cols = s->side == BblasLeft ? s->m : s->n;
        if (o == O_B) { *rows = s->m; *cols = s->n; }
        break;
    }
}

static int ld_of(const prm *s, int o) { return o == O_A ? s->lda : o == O_B ? s->ldb : o == O_C ? s->ldc : 1; }

static int writes(int r, int o)
{
    switch (r) {
    case R_GEMM: return o == O_C;
    case R_POTRF: return o == O_A;
    case R_GETRF: return o == O_A || o == O_P;
    case R_TRSM: return o == O_B;
    }
    return 0;
}

static int has(int r, int o)
{
    switch (r) {
    case R_GEMM: return o <= O_C;
    case R_POTRF: return o == O_A;
    case R_GETRF: return o == O_A || o == O_P;
    case R_TRSM: return o <= O_B;
    }
    return 0;
}

/* footprint of operand o of problem s, in elements */
static int64_t foot(const tcase *t, const prm *s, int o)
{
    int rows, cols;
    dims(t->r, s, o, &rows, &cols);
    if (o == O_P) return rows > 0 ? rows : 1;
    int64_t ld = ld_of(s, o);
    int64_t f = t->layout == BblasColMajor ? ld * cols : ld * rows;
    return f > 0 ? f : 1;
}

/* ------------------------------------------------------------------------- */
/* Operand buffers                                                            */
/* ------------------------------------------------------------------------- */

/* count problems spaced by `stride` elements: the initial content, the CPU
   reference, the result under test; device copies and pointer arrays. */
typedef struct {
    int used;
    size_t es;
    int64_t stride, count;
    char *h0, *ref, *got;
    char *dev;
    void **href, **hgot; /* host pointers into ref / got */
    void **hdev;         /* host array of device pointers */
    void **ddev;         /* device array of device pointers */
} buf;

static size_t buf_bytes(const buf *b) { return (size_t)(b->count * b->stride) * b->es; }

static void buf_make(buf *b, const tcase *t, int o)
{
    memset(b, 0, sizeof *b);
    if (!has(t->r, o)) return;
    b->used = 1;
    b->es = o == O_P ? sizeof(int) : t->z ? 2 * sizeof(double) : sizeof(double);
    b->count = t->count;
    b->stride = 1;
    for (int64_t i = 0; i < t->count; i++) {
        int64_t f = foot(t, &t->p[i], o);
        if (f > b->stride) b->stride = f;
    }
    size_t bytes = buf_bytes(b);
    b->h0 = (char *)halloc(bytes);
    b->ref = (char *)halloc(bytes);
    b->got = (char *)halloc(bytes);
    if (o == O_P) {
        int *ip = (int *)b->h0;
        for (int64_t i = 0; i < b->count * b->stride; i++) ip[i] = -7;
    } else {
        double *d = (double *)b->h0;
        for (int64_t i = 0; i < (int64_t)(bytes / sizeof(double)); i++) d[i] = tu_rand();
    }
    b->dev = (char *)dmalloc(bytes);
    b->href = (void **)xmalloc((size_t)b->count * sizeof(void *));
    b->hgot = (void **)xmalloc((size_t)b->count * sizeof(void *));
    b->hdev = (void **)xmalloc((size_t)b->count * sizeof(void *));
    for (int64_t i = 0; i < b->count; i++) {
        size_t off = (size_t)(i * b->stride) * b->es;
        b->href[i] = b->ref + off;
        b->hgot[i] = b->got + off;
        b->hdev[i] = b->dev + off;
    }
    b->ddev = (void **)dmalloc((size_t)b->count * sizeof(void *));
    cuda_or_die(cudaMemcpy(b->ddev, b->hdev, (size_t)b->count * sizeof(void *), cudaMemcpyHostToDevice),
                "pointer array upload");
}

static void buf_free(buf *b)
{
    if (!b->used) return;
    hfree(b->h0); hfree(b->ref); hfree(b->got);
    free(b->href); free(b->hgot); free(b->hdev);
    cudaFree(b->dev);
    cudaFree(b->ddev);
}

/* element (i, j) of the matrix of problem p: pointer to its real part */
static double *el(const tcase *t, buf *b, int64_t p, int ld, int i, int j)
{
    int64_t off = t->layout == BblasColMajor ? (int64_t)i + (int64_t)j * ld : (int64_t)j + (int64_t)i * ld;
    return (double *)(b->h0 + (size_t)(p * b->stride + off) * b->es);
}

/* Problem data the routines need: SPD for potrf, well-conditioned
   triangles for trsm, plus the failures asked for. */
static void fixups(const tcase *t, buf *bufs)
{
    int de = t->z ? 2 : 1;
    for (int64_t p = 0; p < t->count; p++) {
        const prm *s = &t->p[p];
        if (t->r == R_POTRF) {
            int n = s->n;
            for (int i = 0; i < n; i++)
                for (int j = 0; j <= i; j++) {
                    double *x = el(t, &bufs[O_A], p, s->lda, i, j);
                    double *y = el(t, &bufs[O_A], p, s->lda, j, i);
                    if (i == j) {
                        x[0] = n + 1.0 + fabs(x[0]);
                        if (de == 2) x[1] = 0;
                    } else {
                        y[0] = x[0];
                        if (de == 2) y[1] = -x[1];
                    }
                }
            if (s->fix == FIX_NOT_SPD && n > 0) el(t, &bufs[O_A], p, s->lda, n / 2, n / 2)[0] = -1.0;
        }
        if (t->r == R_TRSM) {
            int na = s->side == BblasLeft ? s->m : s->n;
            for (int i = 0; i < na; i++)
                for (int j = 0; j < na; j++) {
                    double *x = el(t, &bufs[O_A], p, s->lda, i, j);
                    if (i == j) x[0] = 2.0 + fabs(x[0]);
                    else {
                        x[0] *= 0.5 / na;
                        if (de == 2) x[1] *= 0.5 / na;
                    }
                }
        }
        if (t->r == R_GETRF && s->fix == FIX_SINGULAR && s->n > 1) {
            for (int i = 0; i < s->m; i++) { /* column 1 (0-based) zero: U(2,2) == 0 */
                double *x = el(t, &bufs[O_A], p, s->lda, i, 1);
                x[0] = 0;
                if (de == 2) x[1] = 0;
            }
            for (int i = 0; i < s->m; i++) { /* and column 0 nonzero: a clean failure at k = 2 */
                double *x = el(t, &bufs[O_A], p, s->lda, i, 0);
                x[0] = 1.0 + i;
            }
        }
        if (t->r == R_GEMM && s->fix == FIX_NAN_C) {
            for (int i = 0; i < s->m; i++)
                for (int j = 0; j < s->n; j++) el(t, &bufs[O_C], p, s->ldc, i, j)[0] = NAN;
        }
    }
}

/* ------------------------------------------------------------------------- */
/* The calls                                                                  */
/* ------------------------------------------------------------------------- */

/* One call site per form and routine: d or z, plain or _dev. */
#define GO(z, dev, dfn, zfn, ...)                                                  \
    do {                                                                           \
        if (dev) {                                                                 \
            if (z) zfn##_dev(__VA_ARGS__, q); else dfn##_dev(__VA_ARGS__, q);      \
        } else {                                                                   \
            if (z) zfn(__VA_ARGS__); else dfn(__VA_ARGS__);                        \
        }                                                                          \
    } while (0)

static void call(const tcase *t, int run, buf *bufs, int *info, batchblas_queue_t q)
{
    int dev = run == RUN_DEV, z = t->z;
    void *base[NO], *arr[NO];
    int64_t st[NO];
    for (int o = 0; o < NO; o++) {
        buf *b = &bufs[o];
        base[o] = arr[o] = NULL;
        st[o] = b->stride;
        if (!b->used) continue;
        base[o] = run == RUN_REF ? b->ref : run == RUN_DEV ? b->dev : b->got;
        arr[o] = run == RUN_REF ? (void *)b->href : run == RUN_HOSTCUDA ? (void *)b->hgot
               : t->parr == PA_HOST ? (void *)b->hdev : (void *)b->ddev;
    }
    params P;
    params_build(t, &P);
    const int *gs = t->gsize;
    if (dev && t->dpar) { /* every parameter array and the group sizes on the device */
        params_to_device(&P, z);
        gs = (const int *)to_device(t->gsize, (size_t)t->ngroups * sizeof(int));
    }
    const prm *s = &t->p[0];
    double _Complex al = s->al[0] + I * s->al[1], be = s->be[0] + I * s->be[1];
    int L = t->layout, cnt = (int)t->count;
    switch (t->r) {
    case R_GEMM:
        switch (t->form) {
        case F_STRIDED:
            GO(z, dev, blas_dgemm_batch_strided, blas_zgemm_batch_strided, L, s->ta, s->tb, s->m, s->n,
               s->k, al, base[O_A], s->lda, st[O_A], base[O_B], s->ldb, st[O_B], be, base[O_C], s->ldc,
               st[O_C], cnt, info);
            break;
        case F_FIXED:
            GO(z, dev, blas_dgemm_batchf, blas_zgemm_batchf, cnt, L, s->ta, s->tb, s->m, s->n, s->k, al,
               arr[O_A], s->lda, arr[O_B], s->ldb, be, arr[O_C], s->ldc, info);
            break;
        case F_GROUP:
            GO(z, dev, blas_dgemm_batch, blas_zgemm_batch, t->ngroups, gs, L, P.ta, P.tb, P.m, P.n,
               P.k, (void *)P.al, arr[O_A], P.lda, arr[O_B], P.ldb, (void *)P.be, arr[O_C], P.ldc, info);
            break;
        case F_VAR:
            GO(z, dev, blas_dgemm_batchv, blas_zgemm_batchv, cnt, L, P.ta, P.tb, P.m, P.n, P.k,
               (void *)P.al, arr[O_A], P.lda, arr[O_B], P.ldb, (void *)P.be, arr[O_C], P.ldc, info);
            break;
        }
        break;
    case R_POTRF:
        switch (t->form) {
        case F_STRIDED:
            GO(z, dev, lapack_dpotrf_batch_strided, lapack_zpotrf_batch_strided, L, s->uplo, s->n,
               base[O_A], s->lda, st[O_A], cnt, info);
            break;
        case F_FIXED:
            GO(z, dev, lapack_dpotrf_batchf, lapack_zpotrf_batchf, cnt, L, s->uplo, s->n, arr[O_A],
               s->lda, info);
            break;
        case F_GROUP:
            GO(z, dev, lapack_dpotrf_batch, lapack_zpotrf_batch, t->ngroups, gs, L, P.uplo, P.n,
               arr[O_A], P.lda, info);
            break;
        case F_VAR:
            GO(z, dev, lapack_dpotrf_batchv, lapack_zpotrf_batchv, cnt, L, P.uplo, P.n, arr[O_A], P.lda,
               info);
            break;
        }
        break;
    case R_GETRF:
        switch (t->form) {
        case F_STRIDED:
            GO(z, dev, lapack_dgetrf_batch_strided, lapack_zgetrf_batch_strided, L, s->m, s->n,
               base[O_A], s->lda, st[O_A], base[O_P], st[O_P], cnt, info);
            break;
        case F_FIXED:
            GO(z, dev, lapack_dgetrf_batchf, lapack_zgetrf_batchf, cnt, L, s->m, s->n, arr[O_A], s->lda,
               arr[O_P], info);
            break;
        case F_GROUP:
            GO(z, dev, lapack_dgetrf_batch, lapack_zgetrf_batch, t->ngroups, gs, L, P.m, P.n,
               arr[O_A], P.lda, arr[O_P], info);
            break;
        case F_VAR:
            GO(z, dev, lapack_dgetrf_batchv, lapack_zgetrf_batchv, cnt, L, P.m, P.n, arr[O_A], P.lda,
               arr[O_P], info);
            break;
        }
        break;
    case R_TRSM:
        switch (t->form) {
        case F_STRIDED:
            GO(z, dev, blas_dtrsm_batch_strided, blas_ztrsm_batch_strided, L, s->side, s->uplo, s->ta,
               s->diag, s->m, s->n, al, base[O_A], s->lda, st[O_A], base[O_B], s->ldb, st[O_B], cnt,
               info);
            break;
        case F_FIXED:
            GO(z, dev, blas_dtrsm_batchf, blas_ztrsm_batchf, cnt, L, s->side, s->uplo, s->ta, s->diag,
               s->m, s->n, al, arr[O_A], s->lda, arr[O_B], s->ldb, info);
            break;
        case F_GROUP:
            GO(z, dev, blas_dtrsm_batch, blas_ztrsm_batch, t->ngroups, gs, L, P.side, P.uplo, P.ta,
               P.diag, P.m, P.n, (void *)P.al, arr[O_A], P.lda, arr[O_B], P.ldb, info);
            break;
        case F_VAR:
            GO(z, dev, blas_dtrsm_batchv, blas_ztrsm_batchv, cnt, L, P.side, P.uplo, P.ta, P.diag, P.m,
               P.n, (void *)P.al, arr[O_A], P.lda, arr[O_B], P.ldb, info);
            break;
        }
        break;
    }
    params_free(&P);
    if (gs != t->gsize) cudaFree((void *)gs);
}

/* ------------------------------------------------------------------------- */
/* Running and checking one case                                              */
/* ------------------------------------------------------------------------- */

static int64_t info_len(const tcase *t)
{
    /* report-group: one code per group, and in the variable form every
       problem is its own group */
    const int64_t groups = t->form == F_VAR ? t->count : t->form == F_GROUP ? t->ngroups : 1;
    return t->mode == BblasErrorsReportAll ? t->count + 1 : t->mode == BblasErrorsReportGroup ? groups + 1 : 1;
}

static double region_ratio(const tcase *t, const buf *b, int64_t p, double dim)
{
    const double *g = (const double *)(b->got + (size_t)(p * b->stride) * b->es);
    const double *r = (const double *)(b->ref + (size_t)(p * b->stride) * b->es);
    int64_t nd = b->stride * (int64_t)(b->es / sizeof(double));
    double err = 0, scale = 0;
    for (int64_t i = 0; i < nd; i++) {
        double d = g[i] - r[i];
        if (isnan(g[i]) && isnan(r[i])) d = 0; /* both untouched NaN */
        err += d * d;
        scale += r[i] * r[i];
    }
    return tu_ratio(sqrt(err), sqrt(scale), dim, t->z ? 3 : 1);
}

static int region_same(const buf *b, int64_t p, const char *x)
{
    size_t off = (size_t)(p * b->stride) * b->es, n = (size_t)b->stride * b->es;
    return memcmp(b->got + off, x + off, n) == 0;
}

static void ref_reset(buf *bufs)
{
    for (int o = 0; o < NO; o++)
        if (bufs[o].used) memcpy(bufs[o].ref, bufs[o].h0, buf_bytes(&bufs[o]));
}

/* The _dev call of t on fresh device copies of the data, info in memory of
   kind `where` (IN_*); waits for the queue and downloads the results.  A
   device info has room to spare: what lies beyond the mode's entries must
   come back untouched. */
static void run_dev(const tcase *t, buf *bufs, int *info, int64_t ni, int where, batchblas_queue_t q)
{
    for (int o = 0; o < NO; o++)
        if (bufs[o].used)
            cuda_or_die(cudaMemcpy(bufs[o].dev, bufs[o].h0, buf_bytes(&bufs[o]), cudaMemcpyHostToDevice),
                        "upload");
    int64_t cap = ni + t->count + t->ngroups + 1;
    int *dinfo = info, *room = NULL;
    if (where != IN_HOST) {
        room = (int *)xmalloc((size_t)cap * sizeof(int));
        for (int64_t i = 0; i < cap; i++) room[i] = -999;
        room[0] = t->mode;
        if (where == IN_MANAGED)
            cuda_or_die(cudaMallocManaged((void **)&dinfo, (size_t)cap * sizeof(int), cudaMemAttachGlobal),
                        "cudaMallocManaged");
        else
            dinfo = (int *)dmalloc((size_t)cap * sizeof(int));
        cuda_or_die(cudaMemcpy(dinfo, room, (size_t)cap * sizeof(int), cudaMemcpyDefault), "info upload");
    }
    call(t, RUN_DEV, bufs, dinfo, q);
    if (t->mode == BblasErrorsReportNone || where != IN_HOST) {
        int rc = batchblas_queue_sync(q);
        report(rc == BblasSuccess, "%s: batchblas_queue_sync returned %d", t->label, rc);
    }
    if (where != IN_HOST) {
        cuda_or_die(cudaMemcpy(room, dinfo, (size_t)cap * sizeof(int), cudaMemcpyDefault), "info download");
        memcpy(info, room, (size_t)ni * sizeof(int));
        int64_t over = -1;
        for (int64_t i = ni; i < cap && over < 0; i++)
            if (room[i] != -999) over = i;
        report(over < 0, "%s: device info[%lld] written (the mode has %lld entries)", t->label,
               (long long)over, (long long)ni);
        cudaFree(dinfo);
        free(room);
    }
    for (int o = 0; o < NO; o++)
        if (bufs[o].used)
            cuda_or_die(cudaMemcpy(bufs[o].got, bufs[o].dev, buf_bytes(&bufs[o]), cudaMemcpyDeviceToHost),
                        "download");
}

static void run_case(const tcase *t, batchblas_queue_t q)
{
    buf bufs[NO];
    for (int o = 0; o < NO; o++) buf_make(&bufs[o], t, o);
    fixups(t, bufs);
    int64_t ni = info_len(t);
    int *info_ref = (int *)xmalloc((size_t)ni * sizeof(int));
    int *info_got = (int *)xmalloc((size_t)ni * sizeof(int));
    int *info_hst = (int *)xmalloc((size_t)ni * sizeof(int));
    for (int64_t i = 0; i < ni; i++) info_ref[i] = info_got[i] = info_hst[i] = -999;
    info_ref[0] = info_got[0] = info_hst[0] = t->mode;

    /* CPU reference; in the modes other than report-all a report-all run
       first gives the per-problem codes, which decide what to compare */
    batchblas_set_backend(BatchblasBackendCPU);
    int *code = (int *)xmalloc((size_t)t->count * sizeof(int));
    if (t->mode != BblasErrorsReportAll) {
        tcase all = *t;
        all.mode = BblasErrorsReportAll;
        int *ia = (int *)xmalloc((size_t)(t->count + 1) * sizeof(int));
        ia[0] = BblasErrorsReportAll;
        ref_reset(bufs);
        call(&all, RUN_REF, bufs, ia, NULL);
        memcpy(code, ia + 1, (size_t)t->count * sizeof(int));
        free(ia);
    }
    ref_reset(bufs);
    call(t, RUN_REF, bufs, info_ref, NULL);
    if (t->mode == BblasErrorsReportAll) memcpy(code, info_ref + 1, (size_t)t->count * sizeof(int));

    /* under test */
    if (t->path == RUN_DEV) {
        if (t->dinfo != IN_HOST) { /* the same call with host info first: same codes */
            run_dev(t, bufs, info_hst, ni, IN_HOST, q);
            int64_t bad = -1;
            for (int64_t i = 0; i < ni && bad < 0; i++)
                if (info_hst[i] != info_ref[i]) bad = i;
            report(bad < 0, "%s: host info[%lld] = %d, cpu %d", t->label, (long long)bad,
                   bad >= 0 ? info_hst[bad] : 0, bad >= 0 ? info_ref[bad] : 0);
        }
        run_dev(t, bufs, info_got, ni, t->dinfo, q);
        if (t->dinfo != IN_HOST) {
            int64_t bad = -1;
            for (int64_t i = 0; i < ni && bad < 0; i++)
                if (info_hst[i] != info_got[i]) bad = i;
            report(bad < 0, "%s: device info[%lld] = %d, host info %d", t->label, (long long)bad,
                   bad >= 0 ? info_got[bad] : 0, bad >= 0 ? info_hst[bad] : 0);
        }
    } else {
        for (int o = 0; o < NO; o++)
            if (bufs[o].used) memcpy(bufs[o].got, bufs[o].h0, buf_bytes(&bufs[o]));
        batchblas_set_backend(BatchblasBackendCUDA);
        call(t, RUN_HOSTCUDA, bufs, info_got, NULL);
        batchblas_set_backend(BatchblasBackendCPU);
    }

    /* codes (report-none: info must be untouched, as the cpu left it) */
    int64_t bad_info = -1;
    for (int64_t i = 0; i < ni && bad_info < 0; i++)
        if (info_ref[i] != info_got[i]) bad_info = i;
    report(bad_info < 0, "%s: info[%lld] = %d, cpu %d", t->label, (long long)bad_info,
           bad_info >= 0 ? info_got[bad_info] : 0, bad_info >= 0 ? info_ref[bad_info] : 0);

    double worst = 0;
    int64_t worst_p = -1, changed = 0, computable = 0;
    int worst_o = -1, untouched_ok = 1, ro_ok = 1, piv_ok = 1;
    for (int64_t p = 0; p < t->count; p++) {
        const prm *s = &t->p[p];
        int dmax = s->m > s->n ? s->m : s->n;
        if (s->k > dmax) dmax = s->k;
        for (int o = 0; o < NO; o++) {
            buf *b = &bufs[o];
            if (!b->used) continue;
            if (code[p] < 0 || !writes(t->r, o)) { /* skipped problem or input: not written */
                if (!region_same(b, p, b->h0)) {
                    if (code[p] < 0) untouched_ok = 0; else ro_ok = 0;
                    if (worst_p < 0) { worst_p = p; worst_o = o; }
                }
                continue;
            }
            if (code[p] > 0) continue; /* numerical failure: partial results may differ */
            if (o != O_P && s->m + s->n > 0) {
                computable++;
                changed += !region_same(b, p, b->h0);
            }
            if (o == O_P) {
                if (!region_same(b, p, b->ref)) piv_ok = 0;
                continue;
            }
            double r = region_ratio(t, b, p, dmax);
            if (!isnan(worst) && (isnan(r) || r > worst)) { /* a NaN ratio sticks */
                worst = r;
                worst_p = p;
                worst_o = o;
            }
        }
    }
    report(tu_accept(worst), "%s: problem %lld operand %d: ratio %.3g", t->label, (long long)worst_p,
           worst_o, worst);
    /* a comparison of two untouched outputs proves nothing */
    report(computable == 0 || changed > 0, "%s: no output was written at all", t->label);
    report(untouched_ok, "%s: a skipped problem was written (problem %lld)", t->label, (long long)worst_p);
    report(ro_ok, "%s: an input operand was written (problem %lld, operand %d)", t->label,
           (long long)worst_p, worst_o);
    report(piv_ok, "%s: pivots differ from the cpu's", t->label);

    free(code);
    free(info_ref);
    free(info_got);
    free(info_hst);
    for (int o = 0; o < NO; o++) buf_free(&bufs[o]);
}

/* ------------------------------------------------------------------------- */
/* Case builders                                                              */
/* ------------------------------------------------------------------------- */

static tcase base_case(const char *label, int r, int z, int form, int64_t count)
{
    tcase t;
    memset(&t, 0, sizeof t);
    t.label = label;
    t.r = r;
    t.z = z;
    t.layout = BblasColMajor;
    t.form = form;
    t.parr = PA_DEV;
    t.mode = BblasErrorsReportAll;
    t.path = RUN_DEV;
    t.count = count;
    t.ngroups = 1;
    t.gsize[0] = (int)count;
    t.p = (prm *)xmalloc((size_t)count * sizeof(prm));
    return t;
}

/* smallest valid leading dimension plus `pad` */
static void set_lds(const tcase *t, prm *s, int pad)
{
    int rows, cols;
    int *ld[3] = {&s->lda, &s->ldb, &s->ldc};
    for (int o = O_A; o <= O_C; o++) {
        dims(t->r, s, o, &rows, &cols);
        int need = t->layout == BblasColMajor ? rows : cols;
        *ld[o] = (need > 1 ? need : 1) + pad;
    }
}

static prm mk(int z, int side, int uplo, int ta, int tb, int diag, int m, int n, int k)
{
    prm s;
    memset(&s, 0, sizeof s);
    s.side = side; s.uplo = uplo; s.ta = ta; s.tb = tb; s.diag = diag;
    s.m = m; s.n = n; s.k = k;
    s.al[0] = 0.75; s.al[1] = z ? -0.25 : 0.0;
    s.be[0] = -0.5; s.be[1] = z ? 0.125 : 0.0;
    return s;
}

/* all problems alike */
static void uniform(tcase *t, prm s, int pad)
{
    set_lds(t, &s, pad);
    for (int64_t i = 0; i < t->count; i++) t->p[i] = s;
}

static int ctrans(int z) { return z ? BblasConjTrans : BblasTrans; }

static char labels[256][96];
static int nlabels = 0;

static const char *label(int r, int z, const char *what)
{
    char *l = labels[nlabels++ % 256];
    snprintf(l, sizeof labels[0], "%c%s %s", z ? 'z' : 'd', rname[r], what);
    return l;
}

/* A group case: `ng` groups of sizes gs[], parameters from ps[g]. */
static tcase group_case(const char *lbl, int r, int z, int ng, const int *gs, const prm *ps, int pad)
{
    int64_t count = 0;
    for (int g = 0; g < ng; g++) count += gs[g];
    tcase t = base_case(lbl, r, z, F_GROUP, count);
    t.ngroups = ng;
    int64_t i = 0;
    for (int g = 0; g < ng; g++) {
        t.gsize[g] = gs[g];
        prm s = ps[g];
        set_lds(&t, &s, pad);
        for (int j = 0; j < gs[g]; j++) t.p[i++] = s;
    }
    return t;
}

static void run_and_free(tcase *t, batchblas_queue_t q)
{
    run_case(t, q);
    free(t->p);
}

/* The forms of one routine, from its typical problem `s` and a generator of
   variable problems. */
typedef prm (*var_gen)(int z, int64_t i);

/* Sizes cross the register kernels' bounds (4, 8, 16, 32; 16 complex): the
   variable form's class launches put problems of different sizes, options
   and leading dimensions in one launch (src/cuda/varplan.cu). */
static prm gen_gemm(int z, int64_t i)
{
    static const int sz[] = {1, 3, 8, 0, 5, 17, 12};
    int m = sz[i % 7], n = sz[(i / 7) % 7], k = sz[(i / 3) % 7];
    prm s = mk(z, 0, 0, i % 3 == 0 ? BblasNoTrans : ctrans(z), i % 2 ? BblasNoTrans : BblasTrans, 0, m, n, k);
    if (i % 7 == 0) s.al[0] = -1.25;
    return s;
}

static prm gen_potrf(int z, int64_t i)
{
    static const int sz[] = {1, 3, 4, 5, 8, 9, 13, 16, 17, 24, 31, 32, 33, 7, 2};
    return mk(z, 0, i % 2 ? BblasUpper : BblasLower, 0, 0, 0, 0, sz[(i / 2) % 15], 0);
}

static prm gen_getrf(int z, int64_t i)
{
    static const int sz[] = {4, 7, 1, 10, 17, 32, 33, 5, 3, 64, 48, 65};
    return mk(z, 0, 0, 0, 0, 0, sz[i % 12], sz[(i / 3) % 12], 0);
}

static prm gen_trsm(int z, int64_t i)
{
    static const int sz[] = {2, 5, 9, 16, 31, 3};
    return mk(z, i % 2 ? BblasLeft : BblasRight, (i / 2) % 2 ? BblasUpper : BblasLower,
              (i / 4) % 2 ? BblasNoTrans : ctrans(z), 0, (i / 8) % 2 ? BblasUnit : BblasNonUnit,
              sz[i % 6], sz[(i / 4) % 6], 0);
}

/* Sizes across the variable-size driver's block bounds (vardriver.cu:
   blocks of 32, 16 complex; 1, 2, 31..33, 63..65, ..., 512) mixed with
   register-kernel sizes and zeros. */
static prm gen_potrf_big(int z, int64_t i)
{
    static const int sz[] = {33, 64, 65, 1, 127, 128, 129, 31, 255, 256, 257, 512, 0, 2, 32, 17, 63, 40};
    return mk(z, 0, i % 2 ? BblasUpper : BblasLower, 0, 0, 0, 0, sz[(i / 2) % 18], 0);
}

static prm gen_gemm_big(int z, int64_t i)
{
    static const int sz[] = {33, 1, 64, 65, 128, 0, 129, 257, 31, 7};
    int m = sz[i % 10], n = sz[(i / 3) % 10], k = sz[(i / 7) % 10];
    prm s = mk(z, 0, 0, i % 3 == 0 ? BblasNoTrans : ctrans(z), (i / 2) % 2 ? BblasNoTrans : BblasTrans, 0, m, n, k);
    if (i % 5 == 0) s.al[0] = -1.25;
    if (i % 4 == 1) s.be[0] = 0;
    return s;
}

static prm gen_trsm_big(int z, int64_t i)
{
    static const int sz[] = {33, 2, 64, 65, 129, 31, 257, 1, 40};
    return mk(z, i % 2 ? BblasLeft : BblasRight, (i / 2) % 2 ? BblasUpper : BblasLower,
              (i / 4) % 2 ? BblasNoTrans : ctrans(z), 0, (i / 8) % 2 ? BblasUnit : BblasNonUnit,
              sz[i % 9], sz[(i / 5) % 9], 0);
}

static prm gen_getrf_big(int z, int64_t i)
{
    static const int sz[] = {33, 64, 65, 1, 127, 129, 31, 255, 257, 512, 0, 2, 300, 40};
    return mk(z, 0, 0, 0, 0, 0, sz[i % 14], sz[(i / 3) % 14], 0);
}

/* gemm's sizes without zeros, across the register bound */
static prm gen_gemm_nz(int z, int64_t i)
{
    static const int sz[] = {1, 3, 8, 33, 5, 17, 12, 40};
    int m = sz[i % 8], n = sz[(i / 7) % 8], k = sz[(i / 3) % 8];
    return mk(z, 0, 0, i % 3 == 0 ? BblasNoTrans : ctrans(z), i % 2 ? BblasNoTrans : BblasTrans, 0, m, n, k);
}

/* uni: the options, alpha and beta of problem 0 for every problem (only
   sizes and leading dimensions vary: the variable planner's fast path) */
static tcase var_case_u(const char *lbl, int r, int z, int64_t count, var_gen gen, int layout, int pad, int uni)
{
    tcase t = base_case(lbl, r, z, F_VAR, count);
    t.layout = layout;
    const prm s0 = gen(z, 0);
    for (int64_t i = 0; i < count; i++) {
        prm s = gen(z, i);
        if (uni) {
            s.side = s0.side; s.uplo = s0.uplo; s.ta = s0.ta; s.tb = s0.tb; s.diag = s0.diag;
            memcpy(s.al, s0.al, sizeof s.al);
            memcpy(s.be, s0.be, sizeof s.be);
        }
        set_lds(&t, &s, pad + (int)(i % 3));
        t.p[i] = s;
    }
    return t;
}

static tcase var_case(const char *lbl, int r, int z, int64_t count, var_gen gen, int layout, int pad)
{
    return var_case_u(lbl, r, z, count, gen, layout, pad, 0);
}

static void routine_tests(int r, int z, batchblas_queue_t q)
{
    prm s, s2, s3;
    switch (r) {
    case R_GEMM:
        s = mk(z, 0, 0, BblasNoTrans, BblasNoTrans, 0, 5, 4, 3);
        s2 = mk(z, 0, 0, ctrans(z), BblasNoTrans, 0, 4, 6, 5);
        s3 = mk(z, 0, 0, BblasNoTrans, BblasTrans, 0, 7, 2, 9);
        break;
    case R_POTRF:
        s = mk(z, 0, BblasLower, 0, 0, 0, 0, 6, 0);
        s2 = mk(z, 0, BblasUpper, 0, 0, 0, 0, 9, 0);
        s3 = mk(z, 0, BblasLower, 0, 0, 0, 0, 1, 0);
        break;
    case R_GETRF:
        s = mk(z, 0, 0, 0, 0, 0, 7, 5, 0);
        s2 = mk(z, 0, 0, 0, 0, 0, 6, 6, 0);
        s3 = mk(z, 0, 0, 0, 0, 0, 3, 8, 0);
        break;
    default:
        s = mk(z, BblasLeft, BblasLower, BblasNoTrans, 0, BblasNonUnit, 6, 3, 0);
        s2 = mk(z, BblasRight, BblasUpper, ctrans(z), 0, BblasUnit, 4, 7, 0);
        s3 = mk(z, BblasLeft, BblasUpper, BblasTrans, 0, BblasNonUnit, 5, 5, 0);
        break;
    }
    tcase t;

    /* strided, column-major, padded lds; with a numerical failure for the LAPACK ones */
    t = base_case(label(r, z, "strided col"), r, z, F_STRIDED, 37);
    uniform(&t, s, 2);
    if (r == R_POTRF) t.p[5].fix = FIX_NOT_SPD;
    if (r == R_GETRF) t.p[3].fix = FIX_SINGULAR;
    run_and_free(&t, q);

    /* strided, row-major */
    t = base_case(label(r, z, "strided row"), r, z, F_STRIDED, 20);
    t.layout = BblasRowMajor;
    uniform(&t, s2, 1);
    if (r == R_GETRF) t.p[7].fix = FIX_SINGULAR;
    run_and_free(&t, q);

    /* fixed, pointer arrays in host memory */
    t = base_case(label(r, z, "fixed host-ptrs"), r, z, F_FIXED, 33);
    t.parr = PA_HOST;
    uniform(&t, s3, 0);
    run_and_free(&t, q);

    /* fixed, pointer arrays in device memory, row-major */
    t = base_case(label(r, z, "fixed dev-ptrs row"), r, z, F_FIXED, 29);
    t.layout = BblasRowMajor;
    uniform(&t, s, 3);
    run_and_free(&t, q);

    /* group form: three groups (one empty), device then host pointer arrays */
    {
        int gs[3] = {5, 0, 7};
        prm ps[3] = {s, s2, s3};
        t = group_case(label(r, z, "group dev-ptrs"), r, z, 3, gs, ps, 1);
        run_and_free(&t, q);
        t = group_case(label(r, z, "group host-ptrs report-group"), r, z, 3, gs, ps, 0);
        t.parr = PA_HOST;
        t.mode = BblasErrorsReportGroup;
        run_and_free(&t, q);
    }

    /* variable form: repeated parameter sets (grouped into launches) */
    var_gen gen = r == R_GEMM ? gen_gemm : r == R_POTRF ? gen_potrf : r == R_GETRF ? gen_getrf : gen_trsm;
    t = var_case(label(r, z, "variable dev-ptrs"), r, z, 61, gen, BblasColMajor, 0);
    if (r == R_POTRF) { t.p[4].lda = t.p[4].n > 1 ? t.p[4].n - 1 : 0; } /* argument error: skipped */
    if (r == R_POTRF) t.p[9].fix = FIX_NOT_SPD;
    run_and_free(&t, q);
    t = var_case(label(r, z, "variable host-ptrs row"), r, z, 47, gen, BblasRowMajor, 1);
    t.parr = PA_HOST;
    if (r == R_TRSM) t.p[6].ldb = 0; /* argument error */
    run_and_free(&t, q);
    /* only sizes and leading dimensions vary (the planner's fast path):
       column- and row-major, an argument error and a numerical failure */
    t = var_case_u(label(r, z, "variable same-options dev-ptrs"), r, z, 67, gen, BblasColMajor, 0, 1);
    t.p[7].lda = 0;
    if (r == R_POTRF) t.p[11].fix = FIX_NOT_SPD;
    if (r == R_GETRF) t.p[12].fix = FIX_SINGULAR;
    run_and_free(&t, q);
    t = var_case_u(label(r, z, "variable same-options host-ptrs row"), r, z, 59, gen, BblasRowMajor, 2, 1);
    t.parr = PA_HOST;
    if (r == R_POTRF) t.p[3].fix = FIX_NOT_SPD;
    if (r == R_GETRF) t.p[2].fix = FIX_SINGULAR;
    run_and_free(&t, q);

    /* parameter arrays in device memory, every problem with the same
       options: checked and planned on the device (front.c,
       bb_cu_var_check).  Each report mode, device info (and host info:
       run_and_free runs both), argument errors scattered and numerical
       failures; then every problem bad; then sizes with zeros (the plan
       needs the host: the arrays are copied there) */
    {
        static const int dmodes[4] = {BblasErrorsReportAll, BblasErrorsReportGroup, BblasErrorsReportAny,
                                      BblasErrorsReportNone};
        static const char *dmname[4] = {"all", "group", "any", "none"};
        var_gen dgen = r == R_GEMM ? gen_gemm_nz : gen;
        for (int mi = 0; mi < 4; mi++) {
            char what[80];
            snprintf(what, sizeof what, "variable same-options dev-params report-%s", dmname[mi]);
            t = var_case_u(label(r, z, what), r, z, 45 + mi, dgen, mi % 2 ? BblasRowMajor : BblasColMajor, mi % 3, 1);
            t.dpar = 1;
            t.mode = dmodes[mi];
            t.dinfo = mi == 2 ? IN_MANAGED : IN_DEV;
            t.p[3].lda = 0, t.p[17].lda = 0, t.p[44].lda = 0;
            if (mi == 1) { /* a negative size: its own code, and not among the largest sizes */
                if (r == R_GEMM) t.p[20].k = -1;
                else t.p[20].n = -1;
            }
            if (r == R_POTRF) t.p[5].fix = t.p[30].fix = FIX_NOT_SPD;
            if (r == R_GETRF) t.p[6].fix = t.p[31].fix = FIX_SINGULAR;
            run_and_free(&t, q);
        }
        t = var_case_u(label(r, z, "variable same-options dev-params all-bad"), r, z, 13, dgen, BblasColMajor, 0, 1);
        t.dpar = 1;
        t.mode = BblasErrorsReportAll;
        t.dinfo = IN_DEV;
        for (int i = 0; i < 13; i++) { /* a bad option, the same for all (a bad lda would shrink the buffers) */
            if (r == R_GEMM) t.p[i].ta = 0;
            if (r == R_POTRF) t.p[i].uplo = 0;
            if (r == R_TRSM) t.p[i].side = 0;
            if (r == R_GETRF) t.p[i].m = -1;
        }
        run_and_free(&t, q);
        t = var_case_u(label(r, z, "variable same-options dev-params zeros"), r, z, 29, gen, BblasColMajor, 1, 1);
        t.dpar = 1;
        t.mode = BblasErrorsReportGroup;
        t.dinfo = IN_DEV;
        t.p[9].lda = 0;
        run_and_free(&t, q);
    }

    /* variable form above the register bound (the variable-size driver;
       row-major getrf of non-square shapes through launches of equal
       sizes) */
    /* gemm, second pass: the problems above the register bound through
       cuBLAS's grouped GEMM (BATCHBLAS_CUDA_VAR_GROUPED=all: whatever
       their flops; double only, complex stays in the driver) */
    for (int gpass = 0; gpass < (r == R_GEMM ? 2 : 1); gpass++) {
        if (gpass) setenv("BATCHBLAS_CUDA_VAR_GROUPED", "all", 1);
        var_gen big = r == R_POTRF ? gen_potrf_big : r == R_GEMM ? gen_gemm_big : r == R_GETRF ? gen_getrf_big
                                                                                             : gen_trsm_big;
        t = var_case(label(r, z, gpass ? "variable big dev-ptrs grouped" : "variable big dev-ptrs"), r, z, 41, big,
                     BblasColMajor, 1);
        t.p[5].lda = 0; /* argument error */
        if (r == R_POTRF) t.p[17].fix = FIX_NOT_SPD, t.p[21].fix = FIX_NOT_SPD, t.p[22].fix = FIX_NOT_SPD;
        if (r == R_GETRF) t.p[16].fix = FIX_SINGULAR, t.p[23].fix = FIX_SINGULAR, t.p[37].fix = FIX_SINGULAR;
        run_and_free(&t, q);
        t = var_case_u(label(r, z, gpass ? "variable big same-options host-ptrs row grouped"
                                         : "variable big same-options host-ptrs row"),
                       r, z, 37, big, BblasRowMajor, 2, 1);
        t.parr = PA_HOST;
        if (r == R_POTRF) t.p[20].fix = FIX_NOT_SPD;
        if (r == R_GETRF) t.p[9].fix = FIX_SINGULAR;
        run_and_free(&t, q);
        t = var_case(label(r, z, gpass ? "variable big dev-params report-all grouped"
                                       : "variable big dev-params report-all"),
                     r, z, 36, big, BblasColMajor, 0);
        t.dpar = 1;
        t.mode = BblasErrorsReportAll;
        t.p[8].lda = 0;
        run_and_free(&t, q);
        if (gpass) unsetenv("BATCHBLAS_CUDA_VAR_GROUPED");
    }

    /* every parameter array and the group sizes in device memory */
    {
        int gs[4] = {4, 0, 6, 3};
        prm ps[4] = {s2, s, s3, s};
        t = group_case(label(r, z, "group dev-params report-group"), r, z, 4, gs, ps, 1);
        t.dpar = 1;
        t.mode = BblasErrorsReportGroup;
        for (int i = 10; i < 13; i++) t.p[i].lda = 0; /* the last group: an argument error */
        run_and_free(&t, q);
    }
    /* many groups: the group form goes the variable form's way
       (BB_VAR_GROUPS_MIN, src/cuda/varplan.cu): sizes across the register
       and driver bounds, groups of 0..3 problems and one of 130 above the
       register bound (BB_VAR_GROUP_OWN: its own launch sequence), an
       argument error in one group and numerical failures in others;
       report-group with host parameters and host pointer arrays, then
       report-all with every array in device memory, row-major */
    {
        var_gen big = r == R_POTRF ? gen_potrf_big : r == R_GEMM ? gen_gemm_big : r == R_GETRF ? gen_getrf_big
                                                                                             : gen_trsm_big;
        enum { NG = 40 };
        int gs[NG];
        prm ps[NG];
        for (int pass = 0; pass < 2; pass++) {
            int64_t first[NG + 1];
            first[0] = 0;
            for (int g = 0; g < NG; g++) {
                gs[g] = g == 7 ? 130 : (g * 5) % 4;
                ps[g] = big(z, g == 7 ? 2 : g + 3 * pass);
                first[g + 1] = first[g] + gs[g];
            }
            t = group_case(label(r, z, pass ? "many groups dev-params row grouped" : "many groups host-ptrs report-group"),
                           r, z, NG, gs, ps, 1 + pass);
            if (pass) setenv("BATCHBLAS_CUDA_VAR_GROUPED", "all", 1); /* gemm: cuBLAS's grouped GEMM */
            if (pass) {
                t.dpar = 1;
                t.layout = BblasRowMajor;
                for (int64_t i = 0; i < t.count; i++) set_lds(&t, &t.p[i], 1);
            } else {
                t.parr = PA_HOST;
                t.mode = BblasErrorsReportGroup;
            }
            for (int64_t i = first[5]; i < first[6]; i++) t.p[i].lda = 0; /* an argument error */
            if (r == R_POTRF) t.p[first[7] + 100].fix = FIX_NOT_SPD, t.p[first[21]].fix = FIX_NOT_SPD;
            if (r == R_GETRF) t.p[first[7] + 3].fix = FIX_SINGULAR, t.p[first[30]].fix = FIX_SINGULAR;
            run_and_free(&t, q);
            unsetenv("BATCHBLAS_CUDA_VAR_GROUPED");
        }
    }
    t = var_case(label(r, z, "variable dev-params"), r, z, 53, gen, BblasColMajor, 1);
    t.dpar = 1;
    t.p[4].lda = 0; /* argument error, read from a device array */
    if (r == R_POTRF) t.p[9].fix = FIX_NOT_SPD;
    if (r == R_GETRF) t.p[5].fix = FIX_SINGULAR;
    run_and_free(&t, q);
    t = var_case(label(r, z, "variable dev-params dev-info host-ptrs row"), r, z, 45, gen, BblasRowMajor, 0);
    t.dpar = 1;
    t.dinfo = IN_DEV;
    t.parr = PA_HOST;
    run_and_free(&t, q);

    /* ReportNone: returns without waiting; then queue_sync */
    t = base_case(label(r, z, "strided report-none"), r, z, F_STRIDED, 40);
    t.mode = BblasErrorsReportNone;
    uniform(&t, s2, 0);
    run_and_free(&t, q);

    /* host data on the cuda backend (the plain calls) */
    t = base_case(label(r, z, "host strided"), r, z, F_STRIDED, 300);
    t.path = RUN_HOSTCUDA;
    uniform(&t, s, 1);
    if (r == R_GEMM) { t.p[0].be[0] = t.p[0].be[1] = 0; uniform(&t, t.p[0], 1); t.p[11].fix = FIX_NAN_C; }
    if (r == R_POTRF) t.p[17].fix = FIX_NOT_SPD;
    run_and_free(&t, q);
    t = base_case(label(r, z, "host strided row"), r, z, F_STRIDED, 50);
    t.path = RUN_HOSTCUDA;
    t.layout = BblasRowMajor;
    uniform(&t, s2, 2);
    if (r == R_GETRF) t.p[1].fix = FIX_SINGULAR;
    run_and_free(&t, q);
    {
        int gs[3] = {9, 4, 0};
        prm ps[3] = {s3, s, s2};
        t = group_case(label(r, z, "host group"), r, z, 3, gs, ps, 2);
        t.path = RUN_HOSTCUDA;
        run_and_free(&t, q);
    }
    t = var_case(label(r, z, "host variable"), r, z, 77, gen, BblasColMajor, 0);
    t.path = RUN_HOSTCUDA;
    if (r == R_POTRF) t.p[10].lda = t.p[10].n > 1 ? t.p[10].n - 1 : 0;
    run_and_free(&t, q);
    t = var_case(label(r, z, "host variable row"), r, z, 40, gen, BblasRowMajor, 1);
    t.path = RUN_HOSTCUDA;
    t.form = F_FIXED; /* fixed form on host pointer arrays: all like problem 0 */
    uniform(&t, t.p[0], 1);
    run_and_free(&t, q);
}

/* More than 65535 problems: the grid limit, 64-bit counts, the chunked
   host pipeline. */
static void big_tests(int z, batchblas_queue_t q)
{
    const int64_t N = 70001;
    prm s = mk(z, 0, 0, BblasNoTrans, BblasTrans, 0, 3, 2, 4);
    tcase t;
    t = base_case(label(R_GEMM, z, "big strided"), R_GEMM, z, F_STRIDED, N);
    uniform(&t, s, 0);
    run_and_free(&t, q);
    t = base_case(label(R_GEMM, z, "big fixed dev-ptrs"), R_GEMM, z, F_FIXED, N);
    uniform(&t, s, 1);
    run_and_free(&t, q);
    t = var_case(label(R_GEMM, z, "big variable dev-ptrs"), R_GEMM, z, N, gen_gemm, BblasColMajor, 0);
    run_and_free(&t, q);
    t = var_case(label(R_POTRF, z, "big variable host-ptrs"), R_POTRF, z, N, gen_potrf, BblasColMajor, 0);
    t.parr = PA_HOST;
    run_and_free(&t, q);
    t = var_case_u(label(R_POTRF, z, "big variable same-options"), R_POTRF, z, N, gen_potrf, BblasRowMajor, 1, 1);
    run_and_free(&t, q);
    /* the fast plan counted on the device (more than 65536 problems, no
       argument errors): few buckets (trsm: shared-memory counts and
       placement) and many (gemm, m, n, k varying: global ones) */
    t = var_case_u(label(R_TRSM, z, "big variable same-options"), R_TRSM, z, N, gen_trsm, BblasColMajor, 0, 1);
    run_and_free(&t, q);
    t = var_case_u(label(R_GEMM, z, "big variable same-options host-ptrs"), R_GEMM, z, N, gen_gemm, BblasColMajor, 1, 1);
    t.parr = PA_HOST;
    run_and_free(&t, q);
    t = base_case(label(R_GEMM, z, "big host strided"), R_GEMM, z, F_STRIDED, N);
    t.path = RUN_HOSTCUDA;
    uniform(&t, s, 0);
    run_and_free(&t, q);
    t = var_case(label(R_GETRF, z, "big host variable"), R_GETRF, z, N, gen_getrf, BblasColMajor, 1);
    t.path = RUN_HOSTCUDA;
    run_and_free(&t, q);
}

/* Host data in page-locked memory (batchblas_malloc_host): compact strided
   operands go between the device and the user's memory directly (staging.cu),
   the rest through the staging buffers as before; the same results and
   codes as the CPU's, numerical failures included, and a write-only C
   (gemm, beta = 0) with NaN on entry; many chunks (the small staging
   bound of main) and one problem per chunk; padded operands (not
   compact) in the same batch path stay staged. */
static void pinned_tests(int z, batchblas_queue_t q)
{
    g_pinned = 1;
    void *p = (void *)1;
    report(batchblas_malloc_host(&p, 0) == BblasSuccess && p == NULL, "malloc_host(0): NULL, success");
    report(batchblas_malloc_host(NULL, 8) == BblasErrInvalid, "malloc_host(NULL ptr): BblasErrInvalid");
    batchblas_free_host(NULL);
    for (int r = R_GEMM; r <= R_TRSM; r++) {
        prm s;
        switch (r) {
        case R_GEMM: s = mk(z, 0, 0, BblasNoTrans, ctrans(z), 0, 5, 4, 3); break;
        case R_POTRF: s = mk(z, 0, BblasUpper, 0, 0, 0, 0, 7, 0); break;
        case R_GETRF: s = mk(z, 0, 0, 0, 0, 0, 6, 6, 0); break;
        default: s = mk(z, BblasRight, BblasLower, BblasNoTrans, 0, BblasNonUnit, 5, 6, 0); break;
        }
        tcase t = base_case(label(r, z, "pinned host strided"), r, z, F_STRIDED, 20000);
        t.path = RUN_HOSTCUDA;
        uniform(&t, s, 0);
        if (r == R_GEMM) { t.p[0].be[0] = t.p[0].be[1] = 0; uniform(&t, t.p[0], 0); t.p[11].fix = FIX_NAN_C; }
        if (r == R_POTRF) { t.p[17].fix = FIX_NOT_SPD; t.p[19999].fix = FIX_NOT_SPD; }
        if (r == R_GETRF) { t.p[3].fix = FIX_SINGULAR; t.p[12345].fix = FIX_SINGULAR; }
        run_and_free(&t, q);
        t = base_case(label(r, z, "pinned host strided row"), r, z, F_STRIDED, 333);
        t.path = RUN_HOSTCUDA;
        t.layout = BblasRowMajor;
        uniform(&t, s, 0);
        run_and_free(&t, q);
        t = base_case(label(r, z, "pinned host strided padded"), r, z, F_STRIDED, 101);
        t.path = RUN_HOSTCUDA;
        uniform(&t, s, 2);
        run_and_free(&t, q);
    }
    /* one problem larger than the staging bound: a chunk of its own */
    tcase t = base_case(label(R_POTRF, z, "pinned host strided n = 300"), R_POTRF, z, F_STRIDED, 7);
    t.path = RUN_HOSTCUDA;
    uniform(&t, mk(z, 0, BblasLower, 0, 0, 0, 0, 300, 0), 0);
    t.p[4].fix = FIX_NOT_SPD;
    run_and_free(&t, q);
    g_pinned = 0;
}

/* Info in device memory, in every report mode and form, with argument
   errors and numerical failures (gemm: argument errors only); each case
   also runs with host info (run_case: the codes must be identical, and
   equal to the cpu's). */
static void info_tests(int z, batchblas_queue_t q)
{
    static const int modes[4] = {BblasErrorsReportAll, BblasErrorsReportGroup, BblasErrorsReportAny,
                                 BblasErrorsReportNone};
    static const char *mname[4] = {"all", "group", "any", "none"};
    static const char *fname[4] = {"strided", "fixed", "group", "variable"};
    const int rs[3] = {R_GEMM, R_POTRF, R_GETRF};
    for (int ri = 0; ri < 3; ri++) {
        int r = rs[ri];
        prm s = r == R_GEMM ? mk(z, 0, 0, BblasNoTrans, ctrans(z), 0, 5, 4, 3)
              : r == R_POTRF ? mk(z, 0, BblasUpper, 0, 0, 0, 0, 6, 0)
              : mk(z, 0, 0, 0, 0, 0, 7, 5, 0);
        int fix = r == R_POTRF ? FIX_NOT_SPD : r == R_GETRF ? FIX_SINGULAR : FIX_NONE;
        var_gen gen = r == R_GEMM ? gen_gemm : r == R_POTRF ? gen_potrf : gen_getrf;
        for (int mi = 0; mi < 4; mi++) {
            for (int f = F_STRIDED; f <= F_VAR; f++) {
                char what[64];
                snprintf(what, sizeof what, "%s dev-info report-%s", fname[f], mname[mi]);
                tcase t;
                if (f == F_GROUP) {
                    /* ok, an argument error, empty, numerical failures */
                    int gs[4] = {5, 6, 0, 7};
                    prm ps[4] = {s, s, s, s};
                    t = group_case(label(r, z, what), r, z, 4, gs, ps, 1);
                    for (int i = 5; i < 11; i++) t.p[i].lda = 0;
                    t.p[16].fix = t.p[13].fix = fix;
                } else if (f == F_VAR) {
                    t = var_case(label(r, z, what), r, z, 31, gen, BblasColMajor, 0);
                    t.p[4].lda = 0;
                    t.p[5].fix = t.p[21].fix = fix;
                } else {
                    t = base_case(label(r, z, what), r, z, f, f == F_STRIDED ? 23 : 19);
                    uniform(&t, s, 1);
                    t.p[11].fix = t.p[4].fix = fix;
                }
                t.mode = modes[mi];
                t.dinfo = mi == 2 && f == F_VAR ? IN_MANAGED : IN_DEV;
                t.dpar = mi == 1; /* report-group: parameter arrays on the device too */
                run_and_free(&t, q);
            }
            /* every problem fails its checks: the codes still go through the queue */
            char what[64];
            snprintf(what, sizeof what, "strided all-bad dev-info report-%s", mname[mi]);
            tcase t = base_case(label(r, z, what), r, z, F_STRIDED, 9);
            uniform(&t, s, 0);
            for (int i = 0; i < 9; i++) { /* a bad option or size (a bad lda would shrink the buffers) */
                if (r == R_GEMM) t.p[i].ta = 0;
                if (r == R_POTRF) t.p[i].uplo = 0;
                if (r == R_GETRF) t.p[i].m = -1;
            }
            t.mode = modes[mi];
            t.dinfo = IN_DEV;
            run_and_free(&t, q);
        }
    }
}

/* More than 2^31 elements in one operand: strided sgemm, 4 x 4 x 4,
   2^27 + 1 problems; A = B is one buffer whose floats all equal c, so
   every entry of C is 4 c^2.  Info in device memory, report-all. */
static void huge_test(batchblas_queue_t q)
{
    const int64_t nb = ((int64_t)1 << 27) + 1; /* 2^31 + 16 elements per operand */
    const size_t bytes = (size_t)nb * 16 * sizeof(float);
    size_t freeb = 0, total = 0;
    if (cudaMemGetInfo(&freeb, &total) != cudaSuccess || freeb < ((size_t)24 << 30)) {
        printf("sgemm over 2^31 elements: skipped (%zu MB free, 24 GB needed)\n", freeb >> 20);
        return;
    }
    float *A = (float *)dmalloc(bytes), *C = (float *)dmalloc(bytes);
    int *dinfo = (int *)dmalloc((size_t)(nb + 1) * sizeof(int));
    cuda_or_die(cudaMemset(A, 0x3F, bytes), "cudaMemset A");
    cuda_or_die(cudaMemset(C, 0xFF, bytes), "cudaMemset C"); /* NaN: must be overwritten */
    cuda_or_die(cudaMemset(dinfo, 0x7F, (size_t)(nb + 1) * sizeof(int)), "cudaMemset info");
    int mode = BblasErrorsReportAll;
    cuda_or_die(cudaMemcpy(dinfo, &mode, sizeof mode, cudaMemcpyHostToDevice), "info[0]");
    blas_sgemm_batch_strided_dev(BblasColMajor, BblasNoTrans, BblasNoTrans, 4, 4, 4, 1.0f, A, 4, 16, A, 4,
                                 16, 0.0f, C, 4, 16, (int)nb, dinfo, q);
    int rc = batchblas_queue_sync(q);
    report(rc == BblasSuccess, "huge sgemm: batchblas_queue_sync returned %d", rc);

    float c;
    memset(&c, 0x3F, sizeof c);
    const float want = 4 * c * c;
    const int64_t probe[3] = {0, nb / 2, nb - 1};
    for (int k = 0; k < 3; k++) {
        float got[16];
        cuda_or_die(cudaMemcpy(got, C + probe[k] * 16, sizeof got, cudaMemcpyDeviceToHost), "C download");
        int ok = 1;
        for (int e = 0; e < 16; e++) ok &= fabsf(got[e] - want) <= 8 * FLT_EPSILON * want;
        report(ok, "huge sgemm: problem %lld: C = %g, expected %g", (long long)probe[k], got[0], want);
    }
    int head[4], tail[16];
    cuda_or_die(cudaMemcpy(head, dinfo, sizeof head, cudaMemcpyDeviceToHost), "info download");
    cuda_or_die(cudaMemcpy(tail, dinfo + 1 + nb - 16, sizeof tail, cudaMemcpyDeviceToHost), "info download");
    int ok = 1;
    for (int e = 0; e < 4; e++) ok &= head[e] == 0;
    for (int e = 0; e < 16; e++) ok &= tail[e] == 0;
    report(ok, "huge sgemm: info[0..3] = %d %d %d %d, info[nb] = %d: expected zeros", head[0], head[1],
           head[2], head[3], tail[15]);
    cudaFree(A);
    cudaFree(C);
    cudaFree(dinfo);
}

/* ------------------------------------------------------------------------- */
/* Queues                                                                     */
/* ------------------------------------------------------------------------- */

static void queue_tests(int ndev)
{
    batchblas_queue_t q = NULL;
    int rc = batchblas_queue_create(&q, 0);
    report(rc == BblasSuccess && q != NULL, "queue_create(0) = %d", rc);
    if (q) {
        report(batchblas_queue_stream(q) != NULL, "queue_stream of a new queue is NULL");
        report(batchblas_queue_sync(q) == BblasSuccess, "queue_sync of an idle queue");
        report(batchblas_queue_destroy(q) == BblasSuccess, "queue_destroy");
    }
    report(batchblas_queue_destroy(NULL) == BblasSuccess, "queue_destroy(NULL)");
    batchblas_queue_t bad = (batchblas_queue_t)1;
    rc = batchblas_queue_create(&bad, ndev);
    report(rc == BblasErrInvalid && bad == NULL, "queue_create(device count) = %d", rc);
    rc = batchblas_queue_create(&bad, -1);
    report(rc == BblasErrInvalid, "queue_create(-1) = %d", rc);

    /* a queue on the caller's stream: used, then left alive */
    cudaStream_t user;
    cuda_or_die(cudaStreamCreate(&user), "cudaStreamCreate");
    rc = batchblas_queue_create_with_stream(&q, 0, (void *)user);
    report(rc == BblasSuccess, "queue_create_with_stream = %d", rc);
    if (rc == BblasSuccess) {
        report(batchblas_queue_stream(q) == (void *)user, "queue_stream is not the caller's stream");
        tcase t = base_case("dgemm on a user stream", R_GEMM, 0, F_STRIDED, 64);
        uniform(&t, mk(0, 0, 0, BblasNoTrans, BblasNoTrans, 0, 4, 4, 4), 0);
        run_and_free(&t, q);
        t = base_case("dgemm on a user stream, report-none", R_GEMM, 0, F_STRIDED, 64);
        t.mode = BblasErrorsReportNone;
        uniform(&t, mk(0, 0, 0, BblasNoTrans, ctrans(0), 0, 4, 5, 6), 1);
        run_and_free(&t, q);
        report(batchblas_queue_destroy(q) == BblasSuccess, "queue_destroy (user stream)");
        report(cudaStreamSynchronize(user) == cudaSuccess, "user stream destroyed with its queue");
    }
    cudaStreamDestroy(user);
}

int main(void)
{
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev <= 0) {
        printf("no CUDA device: skipped\n");
        return 77;
    }
    setenv("BATCHBLAS_CUDA_PLUGIN", BB_TEST_PLUGIN, 0);
    setenv("BATCHBLAS_CUDA_STAGE_BYTES", "1048576", 0); /* several chunks for the big host batches */
    if (!batchblas_backend_available(BatchblasBackendCUDA)) {
        printf("FAIL: a CUDA device is present but the cuda backend is not available "
               "(BATCHBLAS_CUDA_PLUGIN=%s; BATCHBLAS_VERBOSE=1 says why)\n", getenv("BATCHBLAS_CUDA_PLUGIN"));
        printf("0 passed, 1 failed\n");
        return 1;
    }
    tu_seed(2024);
    queue_tests(ndev);

    batchblas_queue_t q = NULL;
    int rc = batchblas_queue_create(&q, 0);
    if (rc != BblasSuccess) {
        printf("FAIL: queue_create: %d\n", rc);
        printf("%d passed, %d failed\n", npassed, nfailed + 1);
        return 1;
    }
    for (int z = 0; z <= 1; z++) {
        for (int r = R_GEMM; r <= R_TRSM; r++) routine_tests(r, z, q);
        big_tests(z, q);
        info_tests(z, q);
    }
    pinned_tests(0, q);
    pinned_tests(1, q);
    huge_test(q);
    report(batchblas_queue_destroy(q) == BblasSuccess, "queue_destroy at the end");
    batchblas_set_backend(BatchblasBackendAuto);

    printf("%d passed, %d failed\n", npassed, nfailed);
    return nfailed ? 1 : 0;
}
