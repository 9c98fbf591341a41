/*
 * Fault injection (issue 10, doc/reliability.md): for a set of calls
 * (several routines, forms, precisions, layouts and report modes; sizes
 * that need scratch), the k-th internal allocation is made to fail, for
 * k = 1, 2, ... until a call completes without reaching it.  Every call
 * with an injected failure must
 *   - report BblasInfoNoMemory for the problems it did not compute (or for
 *     the whole batch in info[0]; on the CUDA backend BblasInfoDevice is
 *     accepted too), every other problem's code unchanged;
 *   - leave the data of those problems untouched and compute every other
 *     problem exactly as without the fault (bitwise);
 *   - leak nothing (the ASan build of .ci/run runs this with leak detection);
 * and the next call, without a fault, must give the reference result.
 * The hook (src/common/fault.c) is internal: this program links the static
 * library (tests/tests.mk).
 *
 * Host-data calls run on whatever backend the library picks: the CPU in
 * make check; with BATCHBLAS_BACKEND=cuda on a GPU the same calls go
 * through the CUDA backend's staging (pinned buffers, device scratch and
 * workspaces).  Built with CUDA (BB_TEST_CUDA), it also runs _dev calls on
 * device data and queue creation under faults when a GPU is present, and
 * skips that part otherwise.  Exit 0: passed; 1: failed; 77: nothing ran.
 */
#include <complex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <batchblas.h>
#ifdef BB_TEST_CUDA
#include <cuda_runtime_api.h>
#endif

/* src/common/fault.c (hidden symbols, reachable through the static link) */
void bb_fault_arm(long k);
int bb_fault_disarm(long *seen);

enum { MAXC = 16, SLAB = 8192 }; /* problems per call; bytes per problem */
#define SENT 0x5a

typedef struct tcase {
    const char *name;
    int count, mode, layout;
    int ng, gs[4];                 /* group form */
    int m[MAXC], n[MAXC], k[MAXC], nrhs[MAXC], lda[MAXC], ldb[MAXC], ldc[MAXC];
    int opt[MAXC];                 /* uplo / trans / norm, as the routine needs */
    size_t vsz;                    /* bytes of one lange value (0: none) */
    void (*call)(struct tcase *t);
    size_t oa, ob, oc, op;         /* offsets of A, B, C, ipiv in a problem's slab */
    char *data;                    /* count slabs */
    double *val;                   /* lange values */
    int *info;
    void *A[MAXC], *B[MAXC], *C[MAXC];
    int *P[MAXC];
} tcase;

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static double urand(void)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0 * 2 - 1;
}

static void fill(void *p, size_t bytes, int prec, int diag_n, int ld)
{
    /* random entries; diag_n > 0: a strong diagonal on the first diag_n
       columns (ld apart, element size by prec) */
    size_t es = prec == 0 ? 4 : prec == 1 || prec == 2 ? 8 : 16;
    size_t ne = bytes / (prec >= 2 ? es / 2 : es);
    for (size_t i = 0; i < ne; i++) {
        if (prec == 0 || prec == 2) ((float *)p)[i] = (float)urand();
        else ((double *)p)[i] = urand();
    }
    for (int j = 0; j < diag_n; j++) {
        size_t at = (size_t)j * ld + j;
        if (prec == 0) ((float *)p)[at] += 4 + diag_n;
        if (prec == 1) ((double *)p)[at] += 4 + diag_n;
        if (prec == 2) ((float *)p)[2 * at] += 4 + diag_n;
        if (prec == 3) ((double *)p)[2 * at] += 4 + diag_n;
    }
}

/* ---- the calls ------------------------------------------------------------ */

static void c_dgemm_v(tcase *t)
{
    static int ta[MAXC], tb[MAXC];
    static double al[MAXC], be[MAXC];
    for (int i = 0; i < t->count; i++) { ta[i] = t->opt[i]; tb[i] = BblasNoTrans; al[i] = 1.5; be[i] = 0.5; }
    blas_dgemm_batchv(t->count, t->layout, ta, tb, t->m, t->n, t->k, al, (double const *const *)t->A, t->lda,
                      (double const *const *)t->B, t->ldb, be, (double **)t->C, t->ldc, t->info);
}

static void c_sgetrf_s(tcase *t)
{
    lapack_sgetrf_batch_strided(t->layout, t->m[0], t->n[0], (float *)(t->data + t->oa), t->lda[0],
                                SLAB / sizeof(float), (int *)(t->data + t->op), SLAB / sizeof(int), t->count,
                                t->info);
}

static void c_zgetri_g(tcase *t)
{
    int n[4], lda[4];
    for (int g = 0, i = 0; g < t->ng; i += t->gs[g], g++) { n[g] = t->n[i]; lda[g] = t->lda[i]; }
    lapack_zgetri_batch(t->ng, t->gs, t->layout, n, (bblas_complex64_t **)t->A, lda, (int const *const *)t->P,
                        t->info);
}

static void c_dgesv_f(tcase *t)
{
    lapack_dgesv_batchf(t->count, t->layout, t->n[0], t->nrhs[0], (double **)t->A, t->lda[0], t->P,
                        (double **)t->B, t->ldb[0], t->info);
}

static void c_clange_v(tcase *t)
{
    lapack_clange_batchv(t->count, t->layout, t->opt, t->m, t->n, (bblas_complex32_t const *const *)t->A, t->lda,
                         (float *)t->val, t->info);
}

static void c_dposv_s(tcase *t)
{
    lapack_dposv_batch_strided(t->layout, t->opt[0], t->n[0], t->nrhs[0], (double *)(t->data + t->oa), t->lda[0],
                               SLAB / sizeof(double), (double *)(t->data + t->ob), t->ldb[0], SLAB / sizeof(double),
                               t->count, t->info);
}

static void c_strsm_v(tcase *t)
{
    static int side[MAXC], uplo[MAXC], tr[MAXC], dg[MAXC];
    static float al[MAXC];
    for (int i = 0; i < t->count; i++) {
        side[i] = i % 2 ? BblasRight : BblasLeft;
        uplo[i] = i % 3 ? BblasLower : BblasUpper;
        tr[i] = t->opt[i];
        dg[i] = BblasNonUnit;
        al[i] = 0.75f;
    }
    blas_strsm_batchv(t->count, t->layout, side, uplo, tr, dg, t->m, t->n, al, (float const *const *)t->A, t->lda,
                      (float **)t->B, t->ldb, t->info);
}

static void c_zpotrf_g(tcase *t)
{
    int uplo[4], n[4], lda[4];
    for (int g = 0, i = 0; g < t->ng; i += t->gs[g], g++) { uplo[g] = t->opt[i]; n[g] = t->n[i]; lda[g] = t->lda[i]; }
    lapack_zpotrf_batch(t->ng, t->gs, t->layout, uplo, n, (bblas_complex64_t **)t->A, lda, t->info);
}

static void c_cgemm_s(tcase *t)
{
    bblas_complex32_t al = 0.5f + 0.25f * I, be = -1.0f;
    blas_cgemm_batch_strided(t->layout, BblasNoTrans, BblasConjTrans, t->m[0], t->n[0], t->k[0], al,
                             (bblas_complex32_t *)(t->data + t->oa), t->lda[0], SLAB / 8,
                             (bblas_complex32_t *)(t->data + t->ob), t->ldb[0], SLAB / 8, be,
                             (bblas_complex32_t *)(t->data + t->oc), t->ldc[0], SLAB / 8, t->count, t->info);
}

/* ---- set-up of the cases -------------------------------------------------- */

static void finish_setup(tcase *t)
{
    t->data = malloc((size_t)t->count * SLAB);
    t->val = malloc((size_t)(t->count + 1) * sizeof(double));
    t->info = malloc((size_t)(t->count + 2) * sizeof(int));
    memset(t->val, SENT, (size_t)(t->count + 1) * sizeof(double));
    for (int i = 0; i < t->count; i++) {
        char *s = t->data + (size_t)i * SLAB;
        memset(s, SENT, SLAB);
        t->A[i] = s + t->oa;
        t->B[i] = s + t->ob;
        t->C[i] = s + t->oc;
        t->P[i] = (int *)(s + t->op);
    }
}

static int nt_(int layout, int r, int c) { return layout == BblasRowMajor ? c : r; }

static int make_cases(tcase *cs)
{
    int nc = 0;
    tcase *t;

    /* 1: dgemm variable sizes (scratch grows with the size; the variable
       driver's sort arrays) */
    t = &cs[nc++];
    memset(t, 0, sizeof *t);
    t->name = "dgemm_batchv";
    t->count = 12; t->mode = BblasErrorsReportAll; t->layout = BblasColMajor; t->call = c_dgemm_v;
    t->oa = 0; t->ob = 2400; t->oc = 4800;
    finish_setup(t);
    for (int i = 0; i < t->count; i++) {
        int m = 2 + (i * 5) % 17, n = 3 + (i * 7) % 13, k = 1 + (i * 3) % 19;
        t->m[i] = m; t->n[i] = n; t->k[i] = k;
        t->opt[i] = i % 2 ? BblasTrans : BblasNoTrans;
        t->lda[i] = (i % 2 ? k : m) + 1; t->ldb[i] = k; t->ldc[i] = m + 2;
        fill(t->A[i], (size_t)t->lda[i] * (i % 2 ? m : k) * 8, 1, 0, 0);
        fill(t->B[i], (size_t)t->ldb[i] * n * 8, 1, 0, 0);
        fill(t->C[i], (size_t)t->ldc[i] * n * 8, 1, 0, 0);
    }

    /* 2: sgetrf strided, row-major (transposed scratch), report-any */
    t = &cs[nc++];
    memset(t, 0, sizeof *t);
    t->name = "sgetrf_batch_strided";
    t->count = 16; t->mode = BblasErrorsReportAny; t->layout = BblasRowMajor; t->call = c_sgetrf_s;
    t->oa = 0; t->op = 4096;
    finish_setup(t);
    for (int i = 0; i < t->count; i++) {
        t->m[i] = 12; t->n[i] = 12; t->lda[i] = 13;
        fill(t->A[i], 12 * 13 * 4, 0, 12, 13);
        if (i == 5) for (int r = 0; r < 12; r++) ((float *)t->A[i])[r * 13 + 4] = 0; /* singular */
    }

    /* 3: zgetri, group form (group starts), report-group */
    t = &cs[nc++];
    memset(t, 0, sizeof *t);
    t->name = "zgetri_batch";
    t->count = 7; t->mode = BblasErrorsReportGroup; t->layout = BblasColMajor; t->call = c_zgetri_g;
    t->ng = 2; t->gs[0] = 3; t->gs[1] = 4;
    t->oa = 0; t->op = 4096;
    finish_setup(t);
    for (int i = 0; i < t->count; i++) {
        int n = i < 3 ? 5 : 9;
        t->n[i] = n; t->lda[i] = n + 1;
        fill(t->A[i], (size_t)(n + 1) * n * 16, 3, n, n + 1);
        for (int j = 0; j < n; j++) t->P[i][j] = j + 1 + (j + i) % (n - j);
        if (i == 4) ((double *)t->A[i])[2 * (3 * (n + 1) + 3)] = 0, ((double *)t->A[i])[2 * (3 * (n + 1) + 3) + 1] = 0;
    }

    /* 4: dgesv fixed, row-major, one singular member */
    t = &cs[nc++];
    memset(t, 0, sizeof *t);
    t->name = "dgesv_batchf";
    t->count = 8; t->mode = BblasErrorsReportAll; t->layout = BblasRowMajor; t->call = c_dgesv_f;
    t->oa = 0; t->ob = 2048; t->op = 4096;
    finish_setup(t);
    for (int i = 0; i < t->count; i++) {
        t->n[i] = 10; t->nrhs[i] = 3; t->lda[i] = 11; t->ldb[i] = 4;
        fill(t->A[i], 10 * 11 * 8, 1, 10, 11);
        fill(t->B[i], 10 * 4 * 8, 1, 0, 0);
        if (i == 2) for (int c = 0; c < 10; c++) ((double *)t->A[i])[6 * 11 + c] = 0; /* zero row */
    }

    /* 5: clange variable sizes, infinity norm (row sums scratch) and others */
    t = &cs[nc++];
    memset(t, 0, sizeof *t);
    t->name = "clange_batchv";
    t->count = 9; t->mode = BblasErrorsReportAll; t->layout = BblasColMajor; t->call = c_clange_v;
    t->vsz = sizeof(float);
    finish_setup(t);
    for (int i = 0; i < t->count; i++) {
        t->m[i] = 1 + (i * 7) % 23; t->n[i] = 1 + (i * 5) % 11; t->lda[i] = t->m[i] + i % 3;
        t->opt[i] = i % 3 ? BblasInfNorm : BblasOneNorm;
        fill(t->A[i], (size_t)t->lda[i] * t->n[i] * 8, 2, 0, 0);
    }

    /* 6: dposv strided, row-major (right-hand sides as rows), one non-SPD */
    t = &cs[nc++];
    memset(t, 0, sizeof *t);
    t->name = "dposv_batch_strided";
    t->count = 6; t->mode = BblasErrorsReportAll; t->layout = BblasRowMajor; t->call = c_dposv_s;
    t->oa = 0; t->ob = 4096;
    finish_setup(t);
    for (int i = 0; i < t->count; i++) {
        int n = 20;
        t->n[i] = n; t->nrhs[i] = 2; t->lda[i] = n; t->ldb[i] = 2; t->opt[i] = BblasLower;
        double *a = t->A[i];
        for (int r = 0; r < n; r++)
            for (int c = 0; c <= r; c++) a[r * n + c] = a[c * n + r] = r == c ? n + 1.0 : 0.3 * urand();
        if (i == 3) a[7 * n + 7] = -1;
        fill(t->B[i], (size_t)n * 2 * 8, 1, 0, 0);
    }

    /* 7: strsm variable sizes (own kernels' scratch), report-any */
    t = &cs[nc++];
    memset(t, 0, sizeof *t);
    t->name = "strsm_batchv";
    t->count = 10; t->mode = BblasErrorsReportAny; t->layout = BblasColMajor; t->call = c_strsm_v;
    t->oa = 0; t->ob = 4096;
    finish_setup(t);
    for (int i = 0; i < t->count; i++) {
        int m = 2 + (i * 3) % 15, n = 1 + (i * 7) % 12, ka = i % 2 ? n : m;
        t->m[i] = m; t->n[i] = n; t->lda[i] = ka; t->ldb[i] = m + 1;
        t->opt[i] = i % 3 ? BblasNoTrans : BblasTrans;
        fill(t->A[i], (size_t)ka * ka * 4, 0, ka, ka);
        fill(t->B[i], (size_t)(m + 1) * n * 4, 0, 0, 0);
    }

    /* 8: zpotrf group form, upper and lower, report-all */
    t = &cs[nc++];
    memset(t, 0, sizeof *t);
    t->name = "zpotrf_batch";
    t->count = 6; t->mode = BblasErrorsReportAll; t->layout = BblasRowMajor; t->call = c_zpotrf_g;
    t->ng = 2; t->gs[0] = 2; t->gs[1] = 4;
    finish_setup(t);
    for (int i = 0; i < t->count; i++) {
        int n = i < 2 ? 7 : 21;
        t->n[i] = n; t->lda[i] = n; t->opt[i] = i < 2 ? BblasUpper : BblasLower;
        double *a = t->A[i];
        for (int r = 0; r < n; r++)
            for (int c = 0; c <= r; c++) {
                double re = r == c ? n + 1.0 : 0.3 * urand(), im = r == c ? 0 : 0.3 * urand();
                a[2 * (r * n + c)] = re; a[2 * (r * n + c) + 1] = im;
                a[2 * (c * n + r)] = re; a[2 * (c * n + r) + 1] = -im;
            }
    }

    /* 9: cgemm strided, complex alpha (own kernels' scratch) */
    t = &cs[nc++];
    memset(t, 0, sizeof *t);
    t->name = "cgemm_batch_strided";
    t->count = 10; t->mode = BblasErrorsReportAll; t->layout = BblasColMajor; t->call = c_cgemm_s;
    t->oa = 0; t->ob = 2048; t->oc = 4096;
    finish_setup(t);
    for (int i = 0; i < t->count; i++) {
        t->m[i] = 9; t->n[i] = 7; t->k[i] = 11; t->lda[i] = 9; t->ldb[i] = 8; t->ldc[i] = 10;
        fill(t->A[i], 9 * 11 * 8, 2, 0, 0);
        fill(t->B[i], 8 * 11 * 8, 2, 0, 0);
        fill(t->C[i], 10 * 7 * 8, 2, 0, 0);
    }
    (void)nt_;
    return nc;
}

/* ---- the loop ------------------------------------------------------------- */

static long n_calls, n_faults, n_absorbed, n_nomem, n_device, n_batch;
static int failures;

#define BAD(...)                                                        \
    do {                                                                \
        printf("test_faults: FAIL %s, fault at allocation %ld: ", t->name, k); \
        printf(__VA_ARGS__);                                            \
        printf("\n");                                                   \
        failures++;                                                     \
        return;                                                         \
    } while (0)

static void restore(tcase *t, const char *init, const double *val0)
{
    memcpy(t->data, init, (size_t)t->count * SLAB);
    memcpy(t->val, val0, (size_t)(t->count + 1) * sizeof(double));
    memset(t->info, SENT, (size_t)(t->count + 2) * sizeof(int));
    t->info[0] = t->mode;
}

static int same_problem(const tcase *t, const char *a, const double *va, const char *b, const double *vb, int i)
{
    return !memcmp(a + (size_t)i * SLAB, b + (size_t)i * SLAB, SLAB) &&
           !memcmp((const char *)va + i * t->vsz, (const char *)vb + i * t->vsz, t->vsz);
}

static int nomem_code(int c) { return c == BblasInfoNoMemory || c == BblasInfoDevice; }

static void run_case(tcase *t)
{
    size_t bytes = (size_t)t->count * SLAB, vbytes = (size_t)(t->count + 1) * sizeof(double);
    char *init = malloc(bytes), *ref = malloc(bytes);
    double *val0 = malloc(vbytes), *vref = malloc(vbytes);
    int *iref = malloc((size_t)(t->count + 2) * sizeof(int));
    memcpy(init, t->data, bytes);
    memcpy(val0, t->val, vbytes);
    long k = 0;
    /* the reference: no fault */
    restore(t, init, val0);
    t->call(t);
    memcpy(ref, t->data, bytes);
    memcpy(vref, t->val, vbytes);
    memcpy(iref, t->info, (size_t)(t->count + 2) * sizeof(int));
    for (int i = 0; i < t->count; i++)
        if (t->mode == BblasErrorsReportAll && iref[1 + i] < 0) BAD("reference call: problem %d code %d", i, iref[1 + i]);

    for (k = 1; k < 100000; k++) {
        restore(t, init, val0);
        bb_fault_arm(k);
        t->call(t);
        long seen = 0;
        int fired = bb_fault_disarm(&seen);
        n_calls++;
        if (!fired) { /* past the last allocation of the call: the reference */
            if (memcmp(t->data, ref, bytes) || memcmp(t->val, vref, vbytes) ||
                memcmp(t->info, iref, (size_t)(t->count + 2) * sizeof(int)))
                BAD("no fault injected (%ld allocations), but the result differs from the reference", seen);
            break;
        }
        n_faults++;
        /* which problems were computed */
        int untouched = 0, all_ref = 1;
        for (int i = 0; i < t->count; i++) {
            int r = same_problem(t, t->data, t->val, ref, vref, i);
            int u = same_problem(t, t->data, t->val, init, val0, i);
            if (!r && !u) BAD("problem %d neither computed as without the fault nor untouched", i);
            if (!r) { untouched++; all_ref = 0; }
        }
        int ninfo = t->mode == BblasErrorsReportAll ? t->count + 1 : t->mode == BblasErrorsReportGroup ? t->ng + 1 : 1;
        for (int j = ninfo; j < t->count + 2; j++) {
            int s;
            memset(&s, SENT, sizeof s);
            if (t->info[j] != s) BAD("info[%d] written beyond the entries of the mode", j);
        }
        int c0 = t->info[0];
        if (all_ref && !memcmp(t->info, iref, (size_t)(t->count + 2) * sizeof(int))) {
            n_absorbed++; /* the allocation had a fallback */
        } else if (nomem_code(c0) && untouched == t->count && t->mode == BblasErrorsReportAll &&
                   t->info[1] == ({ int s; memset(&s, SENT, sizeof s); s; })) {
            n_batch++; /* batch-level: info[0] only */
            for (int i = 1; i <= t->count; i++) {
                int s;
                memset(&s, SENT, sizeof s);
                if (t->info[i] != s) BAD("batch-level failure, but info[%d] written", i);
            }
        } else if (t->mode == BblasErrorsReportAll) {
            int first = 0;
            for (int i = 0; i < t->count; i++) {
                int c = t->info[1 + i], r = same_problem(t, t->data, t->val, ref, vref, i);
                if (nomem_code(c)) {
                    if (c == BblasInfoNoMemory) n_nomem++; else n_device++;
                    if (!same_problem(t, t->data, t->val, init, val0, i))
                        BAD("problem %d reported %d but its data was written", i, c);
                } else if (c != iref[1 + i] || !r) {
                    BAD("problem %d: code %d (reference %d), %s", i, c, iref[1 + i], r ? "data as reference" : "data differs");
                }
                if (!first) first = c;
            }
            if (c0 != first) BAD("info[0] = %d, the first problem's code is %d", c0, first);
        } else {
            /* report-any / report-group: per-problem codes are not visible */
            if (!nomem_code(c0) && c0 != iref[0]) BAD("info[0] = %d (reference %d)", c0, iref[0]);
            if (untouched && !nomem_code(c0) && c0 == 0) BAD("%d problems not computed, info[0] = 0", untouched);
            if (nomem_code(c0)) n_nomem++;
            if (t->mode == BblasErrorsReportGroup)
                for (int g = 0; g < t->ng; g++)
                    if (t->info[1 + g] != iref[1 + g] && !nomem_code(t->info[1 + g]) &&
                        !(nomem_code(c0) && t->info[1 + g] == ({ int s; memset(&s, SENT, sizeof s); s; })))
                        BAD("group %d: code %d (reference %d)", g, t->info[1 + g], iref[1 + g]);
        }
        /* the next call works */
        restore(t, init, val0);
        t->call(t);
        if (memcmp(t->data, ref, bytes) || memcmp(t->val, vref, vbytes) ||
            memcmp(t->info, iref, (size_t)(t->count + 2) * sizeof(int)))
            BAD("the call after the fault differs from the reference");
    }
    free(init); free(ref); free(val0); free(vref); free(iref);
}

#ifdef BB_TEST_CUDA
#ifndef BB_TEST_PLUGIN
#define BB_TEST_PLUGIN ".libs/libbatchblas_cuda.so"
#endif
/* _dev calls on device data, and queue creation, under faults. */
static long d_calls, d_faults, d_codes;
static int dev_part(void)
{
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0 || !batchblas_backend_available(BatchblasBackendCUDA)) {
        printf("test_faults: no GPU, device part skipped\n");
        return 0;
    }
    /* queue creation */
    for (long k = 1; k < 10000; k++) {
        batchblas_queue_t q = NULL;
        bb_fault_arm(k);
        int rc = batchblas_queue_create(&q, 0);
        int fired = bb_fault_disarm(NULL);
        d_calls++;
        if (rc != BblasSuccess && rc != BblasErrNoMemory && rc != BblasErrDevice) {
            printf("test_faults: FAIL queue_create under fault %ld: %d\n", k, rc);
            failures++;
        }
        if (rc == BblasSuccess) batchblas_queue_destroy(q);
        if (!fired) break;
        d_faults++;
    }
    batchblas_queue_t q;
    if (batchblas_queue_create(&q, 0) != BblasSuccess) {
        printf("test_faults: FAIL queue_create without fault\n");
        return 1;
    }
    /* dpotrf (n = 40: the blocked driver's workspace) and dgetrf, strided,
       and dgemm variable, on device data, host info in report-all */
    enum { CNT = 24, N = 40 };
    const size_t per = (size_t)N * N;
    double *h0 = malloc(CNT * per * sizeof(double)), *href = malloc(CNT * per * sizeof(double)),
           *hout = malloc(CNT * per * sizeof(double));
    double *dA = NULL;
    int *dP = NULL;
    cudaMalloc((void **)&dA, CNT * per * sizeof(double));
    cudaMalloc((void **)&dP, CNT * N * sizeof(int));
    for (int which = 0; which < 2; which++) {
        for (int i = 0; i < CNT; i++)
            for (int c = 0; c < N; c++)
                for (int r = 0; r < N; r++) {
                    double v = r == c ? N + 1.0 : 0.2 * urand();
                    h0[i * per + (size_t)c * N + r] = v;
                }
        for (int i = 0; i < CNT; i++) /* symmetric */
            for (int c = 0; c < N; c++)
                for (int r = c + 1; r < N; r++) h0[i * per + (size_t)c * N + r] = h0[i * per + (size_t)r * N + c];
        int info[CNT + 1], iref[CNT + 1];
#define DEV_CALL()                                                                                        \
    do {                                                                                                  \
        cudaMemcpy(dA, h0, CNT * per * sizeof(double), cudaMemcpyHostToDevice);                           \
        info[0] = BblasErrorsReportAll;                                                                   \
        if (which == 0) lapack_dpotrf_batch_strided_dev(BblasColMajor, BblasLower, N, dA, N, per, CNT, info, q); \
        else lapack_dgetrf_batch_strided_dev(BblasColMajor, N, N, dA, N, per, dP, N, CNT, info, q);       \
        batchblas_queue_sync(q);                                                                          \
        cudaMemcpy(hout, dA, CNT * per * sizeof(double), cudaMemcpyDeviceToHost);                         \
    } while (0)
        DEV_CALL();
        memcpy(href, hout, CNT * per * sizeof(double));
        memcpy(iref, info, sizeof info);
        for (long k = 1; k < 10000; k++) {
            bb_fault_arm(k);
            DEV_CALL();
            int fired = bb_fault_disarm(NULL);
            d_calls++;
            for (int i = 0; i < CNT; i++) {
                int c = info[1 + i];
                if (nomem_code(c)) { d_codes++; continue; }
                if (c != iref[1 + i] || memcmp(hout + i * per, href + i * per, per * sizeof(double))) {
                    printf("test_faults: FAIL %s_dev, fault %ld: problem %d code %d (reference %d)%s\n",
                           which ? "dgetrf" : "dpotrf", k, i, c, iref[1 + i],
                           c == iref[1 + i] ? ", data differs" : "");
                    failures++;
                    break;
                }
            }
            DEV_CALL(); /* the next call works */
            if (memcmp(info, iref, sizeof info) || memcmp(hout, href, CNT * per * sizeof(double))) {
                printf("test_faults: FAIL %s_dev: the call after fault %ld differs\n", which ? "dgetrf" : "dpotrf", k);
                failures++;
            }
            if (!fired) break;
            d_faults++;
        }
    }
    cudaFree(dA);
    cudaFree(dP);
    free(h0); free(href); free(hout);
    batchblas_queue_destroy(q);
    printf("test_faults: device: %ld calls, %ld injected faults, %ld problems with the out-of-memory/device code\n",
           d_calls, d_faults, d_codes);
    return 1;
}
#endif

int main(void)
{
#ifdef BB_TEST_CUDA
    setenv("BATCHBLAS_CUDA_PLUGIN", BB_TEST_PLUGIN, 0);
#endif
    static tcase cs[16];
    int nc = make_cases(cs);
    for (int c = 0; c < nc; c++) run_case(&cs[c]);
    int ran = nc > 0;
#ifdef BB_TEST_CUDA
    dev_part();
#endif
    printf("test_faults: %d calls x every allocation: %ld calls, %ld injected faults (%ld problems out of memory, "
           "%ld device code, %ld batch-level, %ld absorbed by a fallback), %d failures\n",
           nc, n_calls, n_faults, n_nomem, n_device, n_batch, n_absorbed, failures);
    for (int c = 0; c < nc; c++) {
        free(cs[c].data); free(cs[c].val); free(cs[c].info);
    }
    return failures ? 1 : ran ? 0 : 77;
}
