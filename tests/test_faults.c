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
 * Launch faults (the hook's second counter: the k-th entry of the CUDA
 * launch policy, bb_cuda_launch, returns cudaErrorLaunchOutOfResources
 * without launching), with a GPU only: the nine calls above forced onto
 * the CUDA backend, and calls whose GPU path makes several launches (the
 * blocked dpotrf at n = 40 and 100, the recursive dtrtri n = 70, dgetrs
 * n = 70, dsyrk n = 48 k = 70, a variable-size dpotrf of three launches,
 * the register dgetrf n = 16) as host data, as _dev calls with host info and
 * as _dev calls with device info, every k until a call completes without
 * reaching it.  Host data: BblasInfoDevice exactly for the problems not
 * computed, their data untouched, the others as the reference; _dev: a
 * problem either reports BblasInfoDevice (its device data may have been
 * written by the launches already made: doc/reliability.md) or its
 * reference code and bits; at least one problem reports the failure;
 * info[0] the first code; the queue synchronises, the context is healthy
 * (cudaDeviceSynchronize), the next call gives the reference bits.
 * Without a GPU the host-data calls still run once on the CPU (their codes
 * against LAPACK's), and the launch counter itself is checked.  A call
 * that does not return within BB_FAULTS_ALARM seconds (default 60) fails
 * the test (alarm).
 *
 * Host-data calls run on whatever backend the library picks: the CPU in
 * make check; with BATCHBLAS_BACKEND=cuda on a GPU the same calls go
 * through the CUDA backend's staging (pinned buffers, device scratch and
 * workspaces).  Built with CUDA (BB_TEST_CUDA), it also runs _dev calls on
 * device data and queue creation under faults when a GPU is present, and
 * skips that part otherwise.  Exit 0: passed; 1: failed; 77: nothing ran.
 */
#include <complex.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <batchblas.h>
#ifdef BB_TEST_CUDA
#include <cuda_runtime_api.h>
#endif

/* src/common/fault.c (hidden symbols, reachable through the static link) */
int bb_fault_hit(void);
void bb_fault_arm(long k);
int bb_fault_disarm(long *seen);
int bb_fault_launch_hit(void);
void bb_fault_arm_launch(long k);
int bb_fault_disarm_launch(long *seen);

/* ---- the watchdog: a call that hangs fails the test ----------------------- */

static char wd_msg[256];
static size_t wd_len;
static unsigned wd_secs = 60;

static void wd_fire(int sig)
{
    (void)sig;
    if (write(1, wd_msg, wd_len) < 0) _exit(1);
    _exit(1);
}

/* Arms the alarm for the next call; what/k say where a hang happened. */
static void watch(const char *what, const char *kind, long k)
{
    int n = snprintf(wd_msg, sizeof wd_msg, "test_faults: FAIL %s, fault at %s %ld: no return within %u s (hang)\n",
                     what, kind, k, wd_secs);
    wd_len = n < 0 ? 0 : (size_t)n < sizeof wd_msg ? (size_t)n : sizeof wd_msg - 1;
    alarm(wd_secs);
}

static void watch_init(void)
{
    const char *e = getenv("BB_FAULTS_ALARM");
    if (e && atoi(e) > 0) wd_secs = (unsigned)atoi(e);
    signal(SIGALRM, wd_fire);
}

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

/* Which counter the loop arms: allocations (0) or launches (1). */
static int g_launch;
static const char *kind_name(void) { return g_launch ? "launch" : "allocation"; }

static struct stats {
    long calls, faults, absorbed, nomem, device, batch;
} st[2];
static int failures;

#define BAD(...)                                                        \
    do {                                                                \
        printf("test_faults: FAIL %s, fault at %s %ld: ", t->name, kind_name(), k); \
        printf(__VA_ARGS__);                                            \
        printf("\n");                                                   \
        failures++;                                                     \
        goto done;                                                      \
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

/* The code of a problem not computed because of the injected fault: out of
   memory (or, on the CUDA backend, the device code) for an allocation; the
   device code, exactly, for a launch. */
static int fault_code(int c) { return g_launch ? c == BblasInfoDevice : nomem_code(c); }

static int sent_int(void)
{
    int s;
    memset(&s, SENT, sizeof s);
    return s;
}

static void arm(long k)
{
    if (g_launch) bb_fault_arm_launch(k);
    else bb_fault_arm(k);
}

static int disarm(long *seen) { return g_launch ? bb_fault_disarm_launch(seen) : bb_fault_disarm(seen); }

static void run_case(tcase *t)
{
    struct stats *S = &st[g_launch];
    size_t bytes = (size_t)t->count * SLAB, vbytes = (size_t)(t->count + 1) * sizeof(double);
    char *init = malloc(bytes), *ref = malloc(bytes);
    double *val0 = malloc(vbytes), *vref = malloc(vbytes);
    int *iref = malloc((size_t)(t->count + 2) * sizeof(int));
    memcpy(init, t->data, bytes);
    memcpy(val0, t->val, vbytes);
    long k = 0;
    /* the reference: no fault */
    restore(t, init, val0);
    watch(t->name, kind_name(), 0);
    t->call(t);
    memcpy(ref, t->data, bytes);
    memcpy(vref, t->val, vbytes);
    memcpy(iref, t->info, (size_t)(t->count + 2) * sizeof(int));
    for (int i = 0; i < t->count; i++)
        if (t->mode == BblasErrorsReportAll && iref[1 + i] < 0) BAD("reference call: problem %d code %d", i, iref[1 + i]);

    for (k = 1; k < 100000; k++) {
        restore(t, init, val0);
        watch(t->name, kind_name(), k);
        arm(k);
        t->call(t);
        long seen = 0;
        int fired = disarm(&seen);
        S->calls++;
        if (!fired) { /* past the last allocation (launch) of the call: the reference */
            if (memcmp(t->data, ref, bytes) || memcmp(t->val, vref, vbytes) ||
                memcmp(t->info, iref, (size_t)(t->count + 2) * sizeof(int)))
                BAD("no fault injected (%ld counted), but the result differs from the reference", seen);
            if (g_launch && k == 1) BAD("no launch counted: the call did not run on the GPU, or the hook is not connected");
            break;
        }
        S->faults++;
        /* which problems were computed */
        int untouched = 0, all_ref = 1;
        for (int i = 0; i < t->count; i++) {
            int r = same_problem(t, t->data, t->val, ref, vref, i);
            int u = same_problem(t, t->data, t->val, init, val0, i);
            if (!r && !u) BAD("problem %d neither computed as without the fault nor untouched", i);
            if (!r) { untouched++; all_ref = 0; }
        }
        int ninfo = t->mode == BblasErrorsReportAll ? t->count + 1 : t->mode == BblasErrorsReportGroup ? t->ng + 1 : 1;
        for (int j = ninfo; j < t->count + 2; j++)
            if (t->info[j] != sent_int()) BAD("info[%d] written beyond the entries of the mode", j);
        int c0 = t->info[0];
        if (all_ref && !memcmp(t->info, iref, (size_t)(t->count + 2) * sizeof(int))) {
            /* the allocation had a fallback; a failed launch has none: it
               must be reported */
            if (g_launch) BAD("the failed launch was not reported: every problem as the reference");
            S->absorbed++;
        } else if (fault_code(c0) && untouched == t->count && t->mode == BblasErrorsReportAll &&
                   t->info[1] == sent_int()) {
            S->batch++; /* batch-level: info[0] only */
            for (int i = 1; i <= t->count; i++)
                if (t->info[i] != sent_int()) BAD("batch-level failure, but info[%d] written", i);
        } else if (t->mode == BblasErrorsReportAll) {
            int first = 0, nfault = 0;
            for (int i = 0; i < t->count; i++) {
                int c = t->info[1 + i], r = same_problem(t, t->data, t->val, ref, vref, i);
                if (fault_code(c)) {
                    nfault++;
                    if (c == BblasInfoNoMemory) S->nomem++; else S->device++;
                    if (!same_problem(t, t->data, t->val, init, val0, i))
                        BAD("problem %d reported %d but its data was written", i, c);
                } else if (c != iref[1 + i] || !r) {
                    BAD("problem %d: code %d (reference %d), %s", i, c, iref[1 + i], r ? "data as reference" : "data differs");
                }
                if (!first) first = c;
            }
            if (c0 != first) BAD("info[0] = %d, the first problem's code is %d", c0, first);
            if (!nfault) BAD("a fault was injected, data differs, but no problem reports it");
        } else {
            /* report-any / report-group: per-problem codes are not visible */
            if (!fault_code(c0) && c0 != iref[0]) BAD("info[0] = %d (reference %d)", c0, iref[0]);
            if (untouched && !fault_code(c0) && c0 == 0) BAD("%d problems not computed, info[0] = 0", untouched);
            if (g_launch && !fault_code(c0)) BAD("info[0] = %d: the failed launch is not reported", c0);
            if (fault_code(c0)) {
                if (c0 == BblasInfoNoMemory) S->nomem++; else S->device++;
            }
            if (t->mode == BblasErrorsReportGroup)
                for (int g = 0; g < t->ng; g++)
                    if (t->info[1 + g] != iref[1 + g] && !fault_code(t->info[1 + g]) &&
                        !(fault_code(c0) && t->info[1 + g] == sent_int()))
                        BAD("group %d: code %d (reference %d)", g, t->info[1 + g], iref[1 + g]);
        }
        /* the next call works */
        restore(t, init, val0);
        watch(t->name, "the call after", k);
        t->call(t);
        if (memcmp(t->data, ref, bytes) || memcmp(t->val, vref, vbytes) ||
            memcmp(t->info, iref, (size_t)(t->count + 2) * sizeof(int)))
            BAD("the call after the fault differs from the reference");
    }
    if (k >= 100000) BAD("the call never completed without a fault");
done:
    alarm(0);
    (void)disarm(NULL);
    /* the case's original operands, for a later loop over the other counter */
    memcpy(t->data, init, bytes);
    memcpy(t->val, val0, vbytes);
    free(init); free(ref); free(val0); free(vref); free(iref);
}
#undef BAD

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
            watch(which ? "dgetrf_batch_strided_dev" : "dpotrf_batch_strided_dev", "allocation", k);
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
    alarm(0);
    cudaFree(dA);
    cudaFree(dP);
    free(h0); free(href); free(hout);
    batchblas_queue_destroy(q);
    printf("test_faults: device: %ld calls, %ld injected faults, %ld problems with the out-of-memory/device code\n",
           d_calls, d_faults, d_codes);
    return 1;
}
#endif

/* ---- launch faults: calls whose GPU path makes several launches ------------ */

/* A call on `count` problems, each in its own slab of `slab` doubles (host or
   device memory alike), column-major, report-all. */
typedef struct lcase {
    const char *name;
    int count, n, k, nrhs, uplo;
    size_t slab;                           /* doubles per problem */
    void (*init)(struct lcase *l, double *h);
    void (*call)(struct lcase *l, double *base, int *info, batchblas_queue_t q); /* q: _dev */
    int expect[MAXC];                      /* LAPACK's codes */
} lcase;

static double *slab_of(const lcase *l, double *base, int i) { return base + (size_t)i * l->slab; }

/* symmetric, diagonally dominant (SPD); bad >= 0: A(bad, bad) = -1 */
static void spd(double *a, int n, int lda, int bad)
{
    for (int c = 0; c < n; c++)
        for (int r = c; r < n; r++) a[r + (size_t)c * lda] = a[c + (size_t)r * lda] = r == c ? n + 1.0 : 0.3 * urand();
    if (bad >= 0) a[bad + (size_t)bad * lda] = -1;
}

static void fill_slabs(lcase *l, double *h)
{
    for (size_t e = 0; e < (size_t)l->count * l->slab; e++) h[e] = urand();
}

static void i_potrf(lcase *l, double *h)
{
    fill_slabs(l, h);
    for (int i = 0; i < l->count; i++) {
        int bad = i == 2 ? (l->n == 40 ? 35 : 70) : -1; /* in the second / third block */
        spd(slab_of(l, h, i), l->n, l->n + 1, bad);
        l->expect[i] = bad + 1;
    }
}

static void c_potrf(lcase *l, double *base, int *info, batchblas_queue_t q)
{
    if (q) lapack_dpotrf_batch_strided_dev(BblasColMajor, l->uplo, l->n, base, l->n + 1, (int64_t)l->slab, l->count, info, q);
    else lapack_dpotrf_batch_strided(BblasColMajor, l->uplo, l->n, base, l->n + 1, (int64_t)l->slab, l->count, info);
}

/* variable sizes n = 20, 40, 100 (three launches: register, blocked, blocked) */
static const int var_n[3] = {20, 40, 100};

static void i_potrf_v(lcase *l, double *h)
{
    fill_slabs(l, h);
    for (int i = 0; i < l->count; i++) {
        int n = var_n[i % 3], bad = i == 4 ? 35 : -1;
        spd(slab_of(l, h, i), n, n + 1, bad);
        l->expect[i] = bad + 1;
    }
}

static void c_potrf_v(lcase *l, double *base, int *info, batchblas_queue_t q)
{
    int uplo[MAXC], n[MAXC], lda[MAXC];
    double *A[MAXC];
    for (int i = 0; i < l->count; i++) {
        uplo[i] = l->uplo;
        n[i] = var_n[i % 3];
        lda[i] = n[i] + 1;
        A[i] = slab_of(l, base, i);
    }
    if (q) lapack_dpotrf_batchv_dev(l->count, BblasColMajor, uplo, n, A, lda, info, q);
    else lapack_dpotrf_batchv(l->count, BblasColMajor, uplo, n, A, lda, info);
}

static void i_trtri(lcase *l, double *h)
{
    fill_slabs(l, h);
    const int n = l->n, lda = n + 1;
    for (int i = 0; i < l->count; i++) {
        double *a = slab_of(l, h, i);
        for (int c = 0; c < n; c++) {
            a[c + (size_t)c * lda] = (c % 2 ? -1 : 1) * (n + 4.0 + urand());
            for (int r = c + 1; r < n; r++) a[r + (size_t)c * lda] = 0.5 * urand() / n;
        }
        l->expect[i] = 0;
        if (i == 3) {
            a[50 + (size_t)50 * lda] = 0; /* singular: info 51, nothing computed */
            l->expect[i] = 51;
        }
    }
}

static void c_trtri(lcase *l, double *base, int *info, batchblas_queue_t q)
{
    if (q) lapack_dtrtri_batch_strided_dev(BblasColMajor, l->uplo, BblasNonUnit, l->n, base, l->n + 1, (int64_t)l->slab,
                                           l->count, info, q);
    else lapack_dtrtri_batch_strided(BblasColMajor, l->uplo, BblasNonUnit, l->n, base, l->n + 1, (int64_t)l->slab,
                                     l->count, info);
}

/* getrs: A (n x n, lda n) at 0, B (n x nrhs, ldb n + 2) after it, the
   pivots (ints) after B */
static size_t getrs_ob(const lcase *l) { return (size_t)l->n * l->n; }
static size_t getrs_op(const lcase *l) { return getrs_ob(l) + (size_t)(l->n + 2) * l->nrhs + 2; }

static void i_getrs(lcase *l, double *h)
{
    fill_slabs(l, h);
    const int n = l->n;
    for (int i = 0; i < l->count; i++) {
        double *a = slab_of(l, h, i);
        for (int c = 0; c < n; c++)
            for (int r = 0; r < n; r++) a[r + (size_t)c * n] = r == c ? n + urand() : 0.5 * urand() / n;
        int *ip = (int *)(a + getrs_op(l));
        for (int j = 0; j < n; j++) ip[j] = j + 1 + (j * 7 + i) % (n - j);
        l->expect[i] = 0;
    }
}

static void c_getrs(lcase *l, double *base, int *info, batchblas_queue_t q)
{
    const int64_t sa = (int64_t)l->slab, sp = 2 * (int64_t)l->slab;
    double *B = base + getrs_ob(l);
    int *P = (int *)(base + getrs_op(l));
    if (q) lapack_dgetrs_batch_strided_dev(BblasColMajor, BblasNoTrans, l->n, l->nrhs, base, l->n, sa, P, sp, B,
                                           l->n + 2, sa, l->count, info, q);
    else lapack_dgetrs_batch_strided(BblasColMajor, BblasNoTrans, l->n, l->nrhs, base, l->n, sa, P, sp, B, l->n + 2,
                                     sa, l->count, info);
}

/* syrk: A (n x k, lda n) at 0, C (n x n, ldc n + 2) after it */
static void i_syrk(lcase *l, double *h)
{
    fill_slabs(l, h);
    for (int i = 0; i < l->count; i++) l->expect[i] = 0;
}

static void c_syrk(lcase *l, double *base, int *info, batchblas_queue_t q)
{
    const int64_t s = (int64_t)l->slab;
    double *C = base + (size_t)l->n * l->k;
    if (q) blas_dsyrk_batch_strided_dev(BblasColMajor, l->uplo, BblasNoTrans, l->n, l->k, 0.7, base, l->n, s, -0.3, C,
                                        l->n + 2, s, l->count, info, q);
    else blas_dsyrk_batch_strided(BblasColMajor, l->uplo, BblasNoTrans, l->n, l->k, 0.7, base, l->n, s, -0.3, C,
                                  l->n + 2, s, l->count, info);
}

/* getrf n = 16: the register kernel, one launch; A (lda n) at 0, the
   pivots after it; a zero column in one problem */
static void i_getrf(lcase *l, double *h)
{
    fill_slabs(l, h);
    const int n = l->n;
    for (int i = 0; i < l->count; i++) {
        double *a = slab_of(l, h, i);
        for (int c = 0; c < n; c++) a[c + (size_t)c * n] += n + 4;
        l->expect[i] = 0;
        if (i == 4) {
            for (int r = 0; r < n; r++) a[r + 9 * n] = 0;
            l->expect[i] = 10;
        }
    }
}

static void c_getrf(lcase *l, double *base, int *info, batchblas_queue_t q)
{
    const int64_t s = (int64_t)l->slab;
    int *P = (int *)(base + (size_t)l->n * l->n);
    if (q) lapack_dgetrf_batch_strided_dev(BblasColMajor, l->n, l->n, base, l->n, s, P, 2 * s, l->count, info, q);
    else lapack_dgetrf_batch_strided(BblasColMajor, l->n, l->n, base, l->n, s, P, 2 * s, l->count, info);
}

static int make_lcases(lcase *ls)
{
    int n = 0;
    memset(ls, 0, 8 * sizeof *ls);
    ls[n++] = (lcase){"dpotrf n=40 (blocked)", 8, 40, 0, 0, BblasLower, 41 * 40, i_potrf, c_potrf, {0}};
    ls[n++] = (lcase){"dpotrf n=100 (blocked)", 6, 100, 0, 0, BblasUpper, 101 * 100, i_potrf, c_potrf, {0}};
    ls[n++] = (lcase){"dpotrf variable n=20,40,100", 6, 0, 0, 0, BblasLower, 101 * 100, i_potrf_v, c_potrf_v, {0}};
    ls[n++] = (lcase){"dtrtri n=70 (recursive)", 6, 70, 0, 0, BblasLower, 71 * 70, i_trtri, c_trtri, {0}};
    ls[n++] = (lcase){"dgetrs n=70 nrhs=5", 6, 70, 0, 5, 0, 0, i_getrs, c_getrs, {0}};
    ls[n - 1].slab = getrs_op(&ls[n - 1]) + 70 / 2 + 1;
    ls[n++] = (lcase){"dsyrk n=48 k=70", 6, 48, 70, 0, BblasLower, 48 * 70 + 50 * 48, i_syrk, c_syrk, {0}};
    ls[n++] = (lcase){"dgetrf n=16 (register kernel)", 10, 16, 0, 0, 0, 16 * 16 + 8, i_getrf, c_getrf, {0}};
    return n;
}

enum { W_HOST, W_DEV, W_DEVINFO };
static const char *const where_name[3] = {"host data", "_dev, host info", "_dev, device info"};

typedef struct lrun {
    lcase *l;
    int where;
    double *init, *out; /* host: the operands before, and after a call */
    double *dbuf;       /* device operands (_dev) */
    int *dinfo;         /* device info (W_DEVINFO) */
    batchblas_queue_t q;
    int info[MAXC + 2];
} lrun;

static long l_calls, l_faults, l_codes, l_runs;

/* One call from the initial operands: out and info receive the result.
   0, or -1 if the test's own CUDA calls failed, -2 if the queue did not
   synchronise. */
static int lcall(lrun *r)
{
    lcase *l = r->l;
    const size_t bytes = (size_t)l->count * l->slab * sizeof(double), ib = (size_t)(l->count + 2) * sizeof(int);
    memset(r->info, SENT, sizeof r->info);
    r->info[0] = BblasErrorsReportAll;
    if (r->where == W_HOST) {
        memcpy(r->out, r->init, bytes);
        l->call(l, r->out, r->info, NULL);
        return 0;
    }
#ifdef BB_TEST_CUDA
    if (cudaMemcpy(r->dbuf, r->init, bytes, cudaMemcpyHostToDevice) != cudaSuccess) return -1;
    int *info = r->info;
    if (r->where == W_DEVINFO) {
        if (cudaMemcpy(r->dinfo, r->info, ib, cudaMemcpyHostToDevice) != cudaSuccess) return -1;
        info = r->dinfo;
    }
    l->call(l, r->dbuf, info, r->q);
    if (batchblas_queue_sync(r->q) != BblasSuccess) return -2;
    if (cudaMemcpy(r->out, r->dbuf, bytes, cudaMemcpyDeviceToHost) != cudaSuccess) return -1;
    if (r->where == W_DEVINFO && cudaMemcpy(r->info, r->dinfo, ib, cudaMemcpyDeviceToHost) != cudaSuccess) return -1;
    return 0;
#else
    (void)ib;
    return -1;
#endif
}

/* The GPU context still works after a call (a sticky error would show). */
static int ctx_ok(int gpu)
{
#ifdef BB_TEST_CUDA
    if (gpu) return cudaDeviceSynchronize() == cudaSuccess && cudaGetLastError() == cudaSuccess;
#endif
    (void)gpu;
    return 1;
}

#define LBAD(...)                                                                          \
    do {                                                                                   \
        printf("test_faults: FAIL %s (%s), fault at launch %ld: ", l->name, where_name[where], k); \
        printf(__VA_ARGS__);                                                               \
        printf("\n");                                                                      \
        failures++;                                                                        \
        goto done;                                                                         \
    } while (0)

/* Every launch of the call fails once, k = 1, 2, ...  gpu: the call runs on
   the GPU (each call makes at least one launch).  Returns 0 if the GPU
   context was lost (nothing more can run). */
static int run_lcase(lcase *l, int where, int gpu, batchblas_queue_t q, double *dbuf, int *dinfo)
{
    const size_t ne = (size_t)l->count * l->slab, bytes = ne * sizeof(double);
    lrun r;
    memset(&r, 0, sizeof r);
    r.l = l;
    r.where = where;
    r.q = q;
    r.dbuf = dbuf;
    r.dinfo = dinfo;
    r.init = malloc(bytes);
    r.out = malloc(bytes);
    double *ref = malloc(bytes);
    int iref[MAXC + 2], alive = 1, rc;
    long k = 0, launches = 0;
    l->init(l, r.init);

    watch(l->name, "launch", 0);
    rc = lcall(&r);
    if (rc) LBAD("reference call: %s", rc == -2 ? "the queue does not synchronise" : "CUDA copy failed");
    memcpy(ref, r.out, bytes);
    memcpy(iref, r.info, sizeof iref);
    {
        int first = 0;
        for (int i = 0; i < l->count; i++) {
            if (iref[1 + i] != l->expect[i]) LBAD("reference call: problem %d code %d, LAPACK's %d", i, iref[1 + i], l->expect[i]);
            if (!first) first = iref[1 + i];
        }
        if (iref[0] != first) LBAD("reference call: info[0] = %d, the first code is %d", iref[0], first);
        if (iref[l->count + 1] != sent_int()) LBAD("reference call: info written beyond batch_size + 1 entries");
    }

    for (k = 1; k < 10000; k++) {
        watch(l->name, "launch", k);
        bb_fault_arm_launch(k);
        rc = lcall(&r);
        long seen = 0;
        int fired = bb_fault_disarm_launch(&seen);
        l_calls++;
        if (!ctx_ok(gpu)) {
            alive = 0;
            LBAD("the GPU context is broken after the call");
        }
        if (rc) LBAD("%s", rc == -2 ? "the queue does not synchronise after the call" : "CUDA copy failed after the call");
        if (!fired) {
            if (memcmp(r.out, ref, bytes) || memcmp(r.info, iref, sizeof iref))
                LBAD("no fault injected (%ld launches), but the result differs from the reference", seen);
            if (gpu && k == 1) LBAD("no launch counted: the call did not run on the GPU, or the hook is not connected");
            if (!gpu && k > 1) LBAD("launch faults injected without a GPU");
            launches = seen;
            break;
        }
        if (!gpu) LBAD("a launch fault fired without a GPU");
        l_faults++;
        int first = 0, nfail = 0;
        for (int i = 0; i < l->count; i++) {
            const size_t o = (size_t)i * l->slab, pb = l->slab * sizeof(double);
            const int c = r.info[1 + i];
            const int as_ref = !memcmp(r.out + o, ref + o, pb), as_init = !memcmp(r.out + o, r.init + o, pb);
            if (c == BblasInfoDevice) {
                nfail++;
                /* host data: not computed, untouched; device data may have
                   been written by the launches made before the failure */
                if (where == W_HOST && !as_init) LBAD("problem %d reports BblasInfoDevice but its data was written", i);
            } else if (c != iref[1 + i] || !as_ref) {
                LBAD("problem %d: code %d (reference %d), %s", i, c, iref[1 + i],
                     as_ref ? "data as the reference" : as_init ? "data untouched" : "data differs");
            }
            if (!first) first = c;
        }
        l_codes += nfail;
        if (!nfail) LBAD("the failed launch is not reported: every problem has its reference code and bits");
        if (r.info[0] != first) LBAD("info[0] = %d, the first problem's code is %d", r.info[0], first);
        if (r.info[l->count + 1] != sent_int()) LBAD("info written beyond batch_size + 1 entries");
        /* the next call works */
        watch(l->name, "the call after launch", k);
        rc = lcall(&r);
        if (rc || !ctx_ok(gpu)) {
            alive = rc != -1 && ctx_ok(gpu);
            LBAD("the call after the fault failed (%d)", rc);
        }
        if (memcmp(r.out, ref, bytes) || memcmp(r.info, iref, sizeof iref))
            LBAD("the call after the fault differs from the reference");
    }
    if (k >= 10000) LBAD("the call never completed without a fault");
    l_runs++;
    if (gpu) printf("test_faults: launch faults: %s, %s: %ld launches, each failed once: ok\n", l->name,
                    where_name[where], launches);
done:
    alarm(0);
    (void)bb_fault_disarm_launch(NULL);
    free(r.init);
    free(r.out);
    free(ref);
    return alive;
}
#undef LBAD

#ifdef BB_TEST_CUDA
/* The error handler and a failed launch (doc/reliability.md): a call whose
   first launch fails reaches the handler once, with BblasInfoDevice, in
   every info mode: report-none with host info, info == NULL, report-none
   with device info (_dev calls), and report-none host data on the CUDA
   backend (a BLAS routine: no LAPACK code to scan for).  Without the fault
   the handler is not called: the report-none codes computed on the device
   (dpotrf's problem 2 is not positive definite) are never seen on the
   host.  The queue synchronises and the context is healthy afterwards. */
static struct hseen {
    int calls, code;
    char routine[64];
} hseen;

static void count_handler(const char *routine, int code, void *user)
{
    (void)user;
    hseen.calls++;
    hseen.code = code;
    snprintf(hseen.routine, sizeof hseen.routine, "%s", routine ? routine : "(null)");
}

enum { H_HOST, H_DEV_NONE, H_DEV_NULL, H_DEVINFO_NONE, H_NVARIANTS };
static const char *const hvariant_name[H_NVARIANTS] = {
    "host data on the cuda backend, report-none", "_dev, report-none, host info", "_dev, info == NULL",
    "_dev, report-none, device info"};

/* l_dev: a _dev case (strided dpotrf), l_host: a host-data BLAS case;
   host: run the host-data variant (one visible device: no split into
   shares).  Returns 0 if the GPU context was lost. */
static int handler_check(lcase *l_dev, lcase *l_host, int host, batchblas_queue_t q, double *dbuf, int *dinfo)
{
    int alive = 1;
    batchblas_set_error_handler(count_handler, NULL);
    for (int v = 0; v < H_NVARIANTS && alive; v++) {
        if (v == H_HOST && !host) continue;
        lcase *l = v == H_HOST ? l_host : l_dev;
        const char *routine = v == H_HOST ? "blas_dsyrk_batch_strided" : "lapack_dpotrf_batch_strided_dev";
        const size_t bytes = (size_t)l->count * l->slab * sizeof(double);
        double *h = malloc(bytes);
        int hinfo[MAXC + 2];
        if (!h) {
            printf("test_faults: FAIL handler check: out of memory\n");
            failures++;
            break;
        }
        l->init(l, h);
        batchblas_backend_t prev = batchblas_get_backend();
        if (v == H_HOST && batchblas_set_backend(BatchblasBackendCUDA) != BblasSuccess) {
            printf("test_faults: FAIL handler check: batchblas_set_backend(cuda)\n");
            failures++;
            free(h);
            continue;
        }
        for (int fault = 0; fault < 2 && alive; fault++) {
            memset(hinfo, SENT, sizeof hinfo);
            hinfo[0] = BblasErrorsReportNone;
            int *info = v == H_DEV_NULL ? NULL : v == H_DEVINFO_NONE ? dinfo : hinfo;
            if (v != H_HOST && (cudaMemcpy(dbuf, h, bytes, cudaMemcpyHostToDevice) != cudaSuccess ||
                                (v == H_DEVINFO_NONE &&
                                 cudaMemcpy(dinfo, hinfo, sizeof hinfo, cudaMemcpyHostToDevice) != cudaSuccess))) {
                printf("test_faults: FAIL handler check (%s): CUDA copy failed\n", hvariant_name[v]);
                failures++;
                alive = 0;
                break;
            }
            memset(&hseen, 0, sizeof hseen);
            watch(hvariant_name[v], "launch (handler check)", fault);
            if (fault) bb_fault_arm_launch(1);
            l->call(l, v == H_HOST ? h : dbuf, info, v == H_HOST ? NULL : q);
            const int fired = bb_fault_disarm_launch(NULL);
            const struct hseen got = hseen; /* before anything else can call the handler */
            const int synced = v == H_HOST || batchblas_queue_sync(q) == BblasSuccess;
            alarm(0);
            int back[MAXC + 2];
            memcpy(back, hinfo, sizeof back);
            if (v == H_DEVINFO_NONE && cudaMemcpy(back, dinfo, sizeof back, cudaMemcpyDeviceToHost) != cudaSuccess)
                back[0] = ~BblasErrorsReportNone;
            alive = ctx_ok(1);
            const char *bad = NULL;
            if (!alive) bad = "the GPU context is broken after the call";
            else if (!synced) bad = "the queue does not synchronise after the call";
            else if (fault && !fired) bad = "no launch was made (the call did not run on the GPU)";
            else if (got.calls != fault) bad = fault ? "the handler was not called exactly once" : "the handler was called";
            else if (fault && got.code != BblasInfoDevice) bad = "the handler's code is not BblasInfoDevice";
            else if (fault && strcmp(got.routine, routine)) bad = "the handler's routine name is wrong";
            else if (info && (back[0] != BblasErrorsReportNone || back[1] != sent_int()))
                bad = "info was written in report-none mode (or could not be read back)";
            if (bad) {
                printf("test_faults: FAIL handler check (%s), %s: %s (%d call(s), code %d, routine %s)\n",
                       hvariant_name[v], fault ? "first launch failing" : "no fault", bad, got.calls, got.code,
                       got.calls ? got.routine : "-");
                failures++;
            } else if (fault) {
                printf("test_faults: handler check: %s: the failed launch reaches the handler: ok\n", hvariant_name[v]);
            }
        }
        if (v == H_HOST) (void)batchblas_set_backend(prev);
        free(h);
    }
    batchblas_set_error_handler(NULL, NULL);
    return alive;
}
#endif

/* The launch counter alone (no GPU needed): the k-th hit fires once, the
   allocation counter is independent. */
static void counter_check(void)
{
    long seen = -1;
    int ok = 1;
    bb_fault_arm_launch(3);
    ok &= bb_fault_launch_hit() == 0 && bb_fault_hit() == 0 && bb_fault_launch_hit() == 0;
    ok &= bb_fault_launch_hit() == 1 && bb_fault_launch_hit() == 0;
    ok &= bb_fault_disarm_launch(&seen) == 1 && seen == 3 && bb_fault_disarm(NULL) == 0;
    bb_fault_arm_launch(100);
    bb_fault_arm(1);
    ok &= bb_fault_launch_hit() == 0 && bb_fault_hit() == 1 && bb_fault_hit() == 0;
    ok &= bb_fault_disarm(NULL) == 1 && bb_fault_disarm_launch(&seen) == 0 && seen == 1;
    bb_fault_arm_launch(0); /* k <= 0: unarmed */
    ok &= bb_fault_launch_hit() == 0 && bb_fault_disarm_launch(NULL) == 0;
    if (!ok) {
        printf("test_faults: FAIL the launch counter (src/common/fault.c)\n");
        failures++;
    }
}

/* Launch faults.  With a GPU: the nine calls forced onto the CUDA backend,
   then the launch cases as host data and as _dev calls.  Without one: the
   host-data launch cases once on the CPU (codes against LAPACK's).
   Returns 1 if the GPU part ran. */
static int launch_part(tcase *cs, int nc)
{
    static lcase ls[8];
    int nl = make_lcases(ls);
    int gpu = 0;
#ifdef BB_TEST_CUDA
    int ndev = 0;
    gpu = cudaGetDeviceCount(&ndev) == cudaSuccess && ndev > 0 && batchblas_backend_available(BatchblasBackendCUDA);
#endif
    if (!gpu) {
        for (int j = 0; j < nl; j++) (void)run_lcase(&ls[j], W_HOST, 0, NULL, NULL, NULL);
        printf("test_faults: no GPU, launch faults skipped (%d host-data launch cases run once on the CPU)\n", nl);
        return 0;
    }
#ifdef BB_TEST_CUDA
    int alive = 1;
    batchblas_backend_t prev = batchblas_get_backend();
    if (batchblas_set_backend(BatchblasBackendCUDA) != BblasSuccess) {
        printf("test_faults: FAIL batchblas_set_backend(cuda) with a GPU\n");
        failures++;
        return 1;
    }
    g_launch = 1;
    for (int c = 0; c < nc && alive; c++) {
        run_case(&cs[c]);
        alive = ctx_ok(1);
    }
    g_launch = 0;
    for (int j = 0; j < nl && alive; j++) alive = run_lcase(&ls[j], W_HOST, 1, NULL, NULL, NULL);
    (void)batchblas_set_backend(prev);

    size_t most = 0;
    for (int j = 0; j < nl; j++)
        if ((size_t)ls[j].count * ls[j].slab > most) most = (size_t)ls[j].count * ls[j].slab;
    batchblas_queue_t q = NULL;
    double *dbuf = NULL;
    int *dinfo = NULL;
    if (alive && (batchblas_queue_create(&q, 0) != BblasSuccess ||
                  cudaMalloc((void **)&dbuf, most * sizeof(double)) != cudaSuccess ||
                  cudaMalloc((void **)&dinfo, (MAXC + 2) * sizeof(int)) != cudaSuccess)) {
        printf("test_faults: FAIL queue or device memory for the _dev launch cases\n");
        failures++;
        alive = 0;
    }
    for (int w = W_DEV; w <= W_DEVINFO && alive; w++)
        for (int j = 0; j < nl && alive; j++) alive = run_lcase(&ls[j], w, 1, q, dbuf, dinfo);
    if (alive) {
        int nvis = 0;
        (void)cudaGetDeviceCount(&nvis);
        if (nvis != 1) printf("test_faults: handler check: %d visible devices, host-data variant skipped\n", nvis);
        alive = handler_check(&ls[0], &ls[5], nvis == 1, q, dbuf, dinfo);
    }
    if (!alive) printf("test_faults: FAIL the GPU context was lost: launch part stopped\n");
    /* the context still works: a copy through the device */
    if (alive) {
        int h[4] = {1, 2, 3, 4}, back[4] = {0, 0, 0, 0};
        if (cudaMemcpy(dinfo, h, sizeof h, cudaMemcpyHostToDevice) != cudaSuccess ||
            cudaMemcpy(back, dinfo, sizeof back, cudaMemcpyDeviceToHost) != cudaSuccess || memcmp(h, back, sizeof h)) {
            printf("test_faults: FAIL the GPU context after the launch faults\n");
            failures++;
        }
    }
    if (dbuf) cudaFree(dbuf);
    if (dinfo) cudaFree(dinfo);
    if (q) batchblas_queue_destroy(q);
    printf("test_faults: launch faults: %d calls forced onto the GPU (%ld calls, %ld injected, %ld problems with "
           "BblasInfoDevice), %d launch cases x 3 (host data, _dev host info, _dev device info): %ld runs, %ld calls, "
           "%ld injected, %ld problems with BblasInfoDevice\n",
           nc, st[1].calls, st[1].faults, st[1].device, nl, l_runs, l_calls, l_faults, l_codes);
#else
    (void)cs;
    (void)nc;
#endif
    return 1;
}

int main(void)
{
#ifdef BB_TEST_CUDA
    setenv("BATCHBLAS_CUDA_PLUGIN", BB_TEST_PLUGIN, 0);
#endif
    watch_init();
    counter_check();
    static tcase cs[16];
    int nc = make_cases(cs);
    for (int c = 0; c < nc; c++) run_case(&cs[c]);
    int ran = nc > 0;
#ifdef BB_TEST_CUDA
    dev_part();
#endif
    launch_part(cs, nc);
    printf("test_faults: %d calls x every allocation: %ld calls, %ld injected faults (%ld problems out of memory, "
           "%ld device code, %ld batch-level, %ld absorbed by a fallback), %d failures\n",
           nc, st[0].calls, st[0].faults, st[0].nomem, st[0].device, st[0].batch, st[0].absorbed, failures);
    for (int c = 0; c < nc; c++) {
        free(cs[c].data); free(cs[c].val); free(cs[c].info);
    }
    return failures ? 1 : ran ? 0 : 77;
}
