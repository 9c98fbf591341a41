/*
 * Library-level calls (precision-independent): version, error strings,
 * backend selection, the error handler, the verbose log, and calls from
 * several threads at once.
 */
#include <check.h>
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "batchblas.h"
#include "batch.h" /* BB_INFO_NOMEM, BB_INFO_DEVICE: the non-argument codes */
#include "testutil.h"
#include "tests.h"

/* ---- version ------------------------------------------------------------- */

START_TEST(test_version)
{
    const char *v = batchblas_version();
    ck_assert_ptr_nonnull(v);
    ck_assert_str_eq(v, PACKAGE_VERSION);
    int a, b, c;
    char extra;
    ck_assert_msg(sscanf(v, "%d.%d.%d%c", &a, &b, &c, &extra) == 3,
                  "version \"%s\" is not MAJOR.MINOR.PATCH", v);
}
END_TEST

/* ---- strerror ------------------------------------------------------------ */

/* batchblas_malloc_host: page-locked memory with a CUDA backend, else
   64-byte aligned heap memory; either way writable and freed by
   batchblas_free_host, and a host-data call on it gives the CPU's bits. */
START_TEST(test_malloc_host)
{
    void *p = (void *)1;
    ck_assert_int_eq(batchblas_malloc_host(&p, 0), BblasSuccess);
    ck_assert_ptr_null(p);
    ck_assert_int_eq(batchblas_malloc_host(NULL, 64), BblasErrInvalid);
    batchblas_free_host(NULL);
    const int n = 5, count = 301;
    double *A = NULL;
    ck_assert_int_eq(batchblas_malloc_host((void **)&A, sizeof(double) * n * n * count), BblasSuccess);
    ck_assert_ptr_nonnull(A);
    ck_assert_int_eq((int)((uintptr_t)A % 64), 0);
    double *R = malloc(sizeof(double) * n * n * count);
    ck_assert_ptr_nonnull(R);
    for (int p0 = 0; p0 < count; p0++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                A[(p0 * n + j) * n + i] = R[(p0 * n + j) * n + i] = (i == j ? n + 1.0 : 0.0) + 0.01 * (i + j) + 0.001 * p0;
    int info = BblasErrorsReportAny;
    lapack_dpotrf_batch_strided(BblasColMajor, BblasLower, n, A, n, (int64_t)n * n, count, &info);
    ck_assert_int_eq(info, 0);
    batchblas_set_backend(BatchblasBackendCPU);
    info = BblasErrorsReportAny;
    lapack_dpotrf_batch_strided(BblasColMajor, BblasLower, n, R, n, (int64_t)n * n, count, &info);
    batchblas_set_backend(BatchblasBackendAuto);
    ck_assert_int_eq(info, 0);
    double worst = 0;
    for (int64_t e = 0; e < (int64_t)n * n * count; e++) {
        double d = fabs(A[e] - R[e]);
        if (d > worst) worst = d;
    }
    ck_assert_msg(worst <= 1e-12, "potrf on batchblas_malloc_host memory differs from the cpu by %g", worst);
    batchblas_free_host(A);
    free(R);
}
END_TEST

START_TEST(test_strerror)
{
    const int codes[] = {0, -1, -2, -3, -9, -17, -24, -25, -99, -999, INT32_MIN,
                         1, 2, 7, 1000, INT32_MAX, BB_INFO_NOMEM, BB_INFO_DEVICE,
                         BblasErrInvalid, BblasErrUnavailable, BblasErrNoMemory, BblasErrDevice};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
        const char *s = batchblas_strerror(codes[i]);
        ck_assert_msg(s != NULL, "batchblas_strerror(%d) is NULL", codes[i]);
        ck_assert_msg(s[0] != '\0', "batchblas_strerror(%d) is empty", codes[i]);
    }
    /* success, an argument error and a numerical failure read differently */
    const char *ok = batchblas_strerror(0), *arg = batchblas_strerror(-4), *num = batchblas_strerror(3);
    ck_assert_str_ne(ok, arg);
    ck_assert_str_ne(ok, num);
    ck_assert_str_ne(arg, num);
    /* the two device/memory codes are not generic argument messages */
    ck_assert_str_ne(batchblas_strerror(BB_INFO_NOMEM), batchblas_strerror(BB_INFO_DEVICE));
}
END_TEST

/* ---- backend selection ----------------------------------------------------- */

START_TEST(test_backend)
{
    batchblas_backend_t before = batchblas_get_backend();

    ck_assert_int_eq(batchblas_backend_available(BatchblasBackendCPU), 1);
    ck_assert_int_eq(batchblas_set_backend(BatchblasBackendCPU), BblasSuccess);
    ck_assert_int_eq(batchblas_get_backend(), BatchblasBackendCPU);

    int rc = batchblas_set_backend(BatchblasBackendCUDA);
    if (batchblas_backend_available(BatchblasBackendCUDA)) {
        ck_assert_msg(rc == BblasSuccess, "cuda available but set_backend(cuda) = %d", rc);
        ck_assert_int_eq(batchblas_get_backend(), BatchblasBackendCUDA);
    } else {
        ck_assert_msg(rc == BblasErrUnavailable, "cuda unavailable: set_backend(cuda) = %d", rc);
        ck_assert_msg(batchblas_get_backend() == BatchblasBackendCPU,
                      "failed set_backend(cuda) changed the backend to %d", batchblas_get_backend());
    }

    /* an invalid value is refused and changes nothing */
    ck_assert_int_eq(batchblas_set_backend(BatchblasBackendCPU), BblasSuccess);
    ck_assert_int_eq(batchblas_set_backend((batchblas_backend_t)7), BblasErrInvalid);
    ck_assert_int_eq(batchblas_get_backend(), BatchblasBackendCPU);

    ck_assert_int_eq(batchblas_set_backend(BatchblasBackendAuto), BblasSuccess);
    ck_assert_int_eq(batchblas_get_backend(), BatchblasBackendAuto);
    ck_assert_int_eq(batchblas_backend_available(BatchblasBackendAuto), 1);

    ck_assert_str_eq(batchblas_backend_name(BatchblasBackendAuto), "auto");
    ck_assert_str_eq(batchblas_backend_name(BatchblasBackendCPU), "cpu");
    ck_assert_str_eq(batchblas_backend_name(BatchblasBackendCUDA), "cuda");
    ck_assert_ptr_nonnull(batchblas_backend_name((batchblas_backend_t)7));

    /* a call on the forced CPU backend computes */
    ck_assert_int_eq(batchblas_set_backend(BatchblasBackendCPU), BblasSuccess);
    double a = 2, b = 3, c = 5;
    const double *pa = &a, *pb = &b;
    double *pc = &c;
    int info[2] = {BblasErrorsReportAll, 99};
    blas_dgemm_batchf(1, BblasColMajor, BblasNoTrans, BblasNoTrans, 1, 1, 1, 1.0, &pa, 1, &pb, 1,
                      1.0, &pc, 1, info);
    ck_assert_int_eq(info[0], 0);
    ck_assert_int_eq(info[1], 0);
    ck_assert(c == 11.0);

    ck_assert_int_eq(batchblas_set_backend(before), BblasSuccess);
}
END_TEST

/* ---- error handler ----------------------------------------------------- */

typedef struct {
    int calls;
    int code;
    char routine[64];
} handler_log;

static void log_handler(const char *routine, int code, void *user)
{
    handler_log *h = user;
    h->calls++;
    h->code = code;
    snprintf(h->routine, sizeof h->routine, "%s", routine ? routine : "(null)");
}

/* one 3x3 gemm, fixed form; m may be bad */
static void gemm_call(int m, int *info)
{
    double A[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, B[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, C[9] = {0};
    const double *pa = A, *pb = B;
    double *pc = C;
    blas_dgemm_batchf(1, BblasColMajor, BblasNoTrans, BblasNoTrans, m, 3, 3, 1.0, &pa, 3, &pb, 3,
                      0.0, &pc, 3, info);
}

START_TEST(test_error_handler)
{
    handler_log h = {0, 0, ""};
    int info[2];
    batchblas_set_error_handler(log_handler, &h);

    /* argument error: m (argument 5 of blas_dgemm_batchf) */
    info[0] = BblasErrorsReportAny;
    gemm_call(-1, info);
    ck_assert_int_eq(info[0], -5);
    ck_assert_msg(h.calls == 1, "handler called %d times for one failing call", h.calls);
    ck_assert_int_eq(h.code, -5);
    ck_assert_str_eq(h.routine, "blas_dgemm_batchf");

    /* success: not called */
    info[0] = BblasErrorsReportAny;
    gemm_call(3, info);
    ck_assert_int_eq(info[0], 0);
    ck_assert_msg(h.calls == 1, "handler called on success");

    /* a batch-level error in another routine, report-all mode */
    int isz[3] = {BblasErrorsReportAll, 0, 0};
    double Adummy[4] = {4, 0, 0, 4};
    lapack_dpotrf_batch_strided(BblasColMajor, BblasLower, 2, Adummy, 2, 4, -3, isz);
    ck_assert_int_eq(h.calls, 2);
    ck_assert_str_eq(h.routine, "lapack_dpotrf_batch_strided");
    ck_assert_int_eq(h.code, -7); /* batch_size */
    ck_assert_int_eq(isz[0], -7);

    /* a numerical failure: 2x2 not positive definite at column 2 */
    double A[4] = {1, 2, 2, 1};
    double *pa = A;
    info[0] = BblasErrorsReportAny;
    lapack_dpotrf_batchf(1, BblasColMajor, BblasLower, 2, &pa, 2, info);
    ck_assert_int_eq(info[0], 2);
    ck_assert_int_eq(h.calls, 3);
    ck_assert_int_eq(h.code, 2);
    ck_assert_str_eq(h.routine, "lapack_dpotrf_batchf");

    /* several failing problems in one call: still one handler call */
    double M[3][4] = {{1, 0, 0, 1}, {1, 2, 2, 1}, {0, 0, 0, 0}};
    double *pm[3] = {M[0], M[1], M[2]};
    int iall[4] = {BblasErrorsReportAll, 9, 9, 9};
    lapack_dpotrf_batchf(3, BblasColMajor, BblasUpper, 2, pm, 2, iall);
    ck_assert_int_eq(iall[0], 2);
    ck_assert_int_eq(iall[3], 1);
    ck_assert_int_eq(h.calls, 4);

    /* restored by NULL: not called any more */
    batchblas_set_error_handler(NULL, NULL);
    info[0] = BblasErrorsReportAny;
    gemm_call(-1, info);
    ck_assert_int_eq(info[0], -5);
    ck_assert_int_eq(h.calls, 4);
}
END_TEST

/* ---- verbose log: off by default, on when asked; nothing printed unasked -- */

/* Runs fn with stdout and stderr redirected to a temporary file; returns
   the bytes written (the first bufsize - 1 of them in buf). */
static long output_bytes(void (*fn)(void), char *buf, size_t bufsize)
{
    fflush(stdout);
    fflush(stderr);
    FILE *tmp = tmpfile();
    ck_assert_ptr_nonnull(tmp);
    int saved_out = dup(STDOUT_FILENO), saved_err = dup(STDERR_FILENO);
    ck_assert_int_ge(saved_out, 0);
    ck_assert_int_ge(saved_err, 0);
    ck_assert_int_ge(dup2(fileno(tmp), STDOUT_FILENO), 0);
    ck_assert_int_ge(dup2(fileno(tmp), STDERR_FILENO), 0);
    fn();
    fflush(stdout);
    fflush(stderr);
    dup2(saved_out, STDOUT_FILENO);
    dup2(saved_err, STDERR_FILENO);
    close(saved_out);
    close(saved_err);
    long n = (long)lseek(fileno(tmp), 0, SEEK_END);
    if (buf && bufsize) {
        lseek(fileno(tmp), 0, SEEK_SET);
        ssize_t r = read(fileno(tmp), buf, bufsize - 1);
        buf[r > 0 ? r : 0] = '\0';
    }
    fclose(tmp);
    return n;
}

static void good_and_bad_calls(void)
{
    int info[2] = {BblasErrorsReportAny, 0};
    gemm_call(3, info);
    info[0] = BblasErrorsReportAll;
    gemm_call(-2, info); /* a failing call prints nothing unasked either */
    lapack_dgetrf_batch_strided(BblasColMajor, 2, 2, NULL, 2, 4, NULL, 2, 0, NULL);
}

static void one_good_call(void)
{
    int info[1] = {BblasErrorsReportAny};
    gemm_call(3, info);
}

START_TEST(test_verbose)
{
    char buf[512];
    if (!getenv("BATCHBLAS_VERBOSE")) {
        long n = output_bytes(good_and_bad_calls, buf, sizeof buf);
        ck_assert_msg(n == 0, "printed %ld bytes with verbose off: \"%s\"", n, buf);
    }
    batchblas_set_verbose(1);
    long n1 = output_bytes(one_good_call, buf, sizeof buf);
    batchblas_set_verbose(0);
    ck_assert_msg(n1 > 0, "verbose 1 printed nothing");
    ck_assert_msg(strstr(buf, "batchblas") != NULL, "verbose log \"%s\" does not say batchblas", buf);
    long n0 = output_bytes(good_and_bad_calls, buf, sizeof buf);
    ck_assert_msg(n0 == 0, "printed %ld bytes after set_verbose(0): \"%s\"", n0, buf);
}
END_TEST

/* ---- several threads at once --------------------------------------------- */

enum { TH_COUNT = 64, TH_N = 12, TH_REPEAT = 25, TH_NJOBS = 4 };

typedef struct {
    int kind;        /* 0 gemm, 1 potrf, 2 getrf, 3 trsm */
    double *in;      /* inputs (never written) */
    double *out;     /* this run's output */
    int *ipiv;
    double *want;    /* serial result */
    int *want_ipiv;
    int mismatches;
    int bad_info;
} th_job;

static const int64_t TH_S = TH_N * TH_N; /* matrix stride */

static void th_run(th_job *j)
{
    const int n = TH_N;
    int info[1] = {BblasErrorsReportAny};
    switch (j->kind) {
    case 0: /* C = A*B^T + C, strided; A, B, C0 stored one after the other in `in` */
        memcpy(j->out, j->in + 2 * TH_S * TH_COUNT, sizeof(double) * TH_S * TH_COUNT);
        blas_dgemm_batch_strided(BblasColMajor, BblasNoTrans, BblasTrans, n, n, n, 0.5, j->in, n,
                                 TH_S, j->in + TH_S * TH_COUNT, n, TH_S, 1.0, j->out, n, TH_S,
                                 TH_COUNT, info);
        break;
    case 1: /* Cholesky, fixed form over pointers */
    {
        memcpy(j->out, j->in, sizeof(double) * TH_S * TH_COUNT);
        double *p[TH_COUNT];
        for (int i = 0; i < TH_COUNT; i++) p[i] = j->out + i * TH_S;
        lapack_dpotrf_batchf(TH_COUNT, BblasColMajor, BblasUpper, n, p, n, info);
        break;
    }
    case 2: /* LU, strided */
        memcpy(j->out, j->in, sizeof(double) * TH_S * TH_COUNT);
        lapack_dgetrf_batch_strided(BblasRowMajor, n, n, j->out, n, TH_S, j->ipiv, n, TH_COUNT,
                                    info);
        break;
    case 3: /* triangular solve, variable form (all the same size) */
    {
        memcpy(j->out, j->in + TH_S * TH_COUNT, sizeof(double) * TH_S * TH_COUNT);
        const double *a[TH_COUNT];
        double *b[TH_COUNT];
        int side[TH_COUNT], uplo[TH_COUNT], tr[TH_COUNT], dg[TH_COUNT], m[TH_COUNT], ld[TH_COUNT];
        double alpha[TH_COUNT];
        for (int i = 0; i < TH_COUNT; i++) {
            a[i] = j->in + i * TH_S;
            b[i] = j->out + i * TH_S;
            side[i] = i % 2 ? BblasLeft : BblasRight;
            uplo[i] = i % 3 ? BblasLower : BblasUpper;
            tr[i] = BblasNoTrans;
            dg[i] = BblasNonUnit;
            m[i] = ld[i] = n;
            alpha[i] = 1.0 + i;
        }
        blas_dtrsm_batchv(TH_COUNT, BblasColMajor, side, uplo, tr, dg, m, m, alpha, a, ld, b, ld,
                          info);
        break;
    }
    }
    if (info[0] != 0) j->bad_info++;
}

static void *th_main(void *arg)
{
    th_job *j = arg;
    for (int r = 0; r < TH_REPEAT; r++) {
        th_run(j);
        if (memcmp(j->out, j->want, sizeof(double) * TH_S * TH_COUNT) != 0 ||
            (j->kind == 2 && memcmp(j->ipiv, j->want_ipiv, sizeof(int) * TH_N * TH_COUNT) != 0))
            j->mismatches++;
    }
    return NULL;
}

START_TEST(test_threads)
{
    static const char *names[TH_NJOBS] = {"gemm", "potrf", "getrf", "trsm"};
    th_job jobs[TH_NJOBS];
    tu_seed(4242);
    for (int k = 0; k < TH_NJOBS; k++) {
        th_job *j = &jobs[k];
        memset(j, 0, sizeof *j);
        j->kind = k;
        size_t mats = (size_t)TH_S * TH_COUNT;
        j->in = malloc(sizeof(double) * mats * 3);
        j->out = malloc(sizeof(double) * mats);
        j->want = malloc(sizeof(double) * mats);
        j->ipiv = malloc(sizeof(int) * TH_N * TH_COUNT);
        j->want_ipiv = malloc(sizeof(int) * TH_N * TH_COUNT);
        for (size_t e = 0; e < mats * 3; e++) j->in[e] = tu_rand();
        /* well-conditioned diagonals; symmetric positive definite for potrf */
        for (int i = 0; i < TH_COUNT; i++) {
            double *a = j->in + i * TH_S;
            for (int r = 0; r < TH_N; r++) {
                for (int c = 0; c < r && k == 1; c++) a[r + c * TH_N] = a[c + r * TH_N];
                a[r + r * TH_N] += TH_N;
            }
        }
        /* the serial result */
        th_run(j);
        ck_assert_msg(j->bad_info == 0, "serial %s failed", names[k]);
        memcpy(j->want, j->out, sizeof(double) * mats);
        memcpy(j->want_ipiv, j->ipiv, sizeof(int) * TH_N * TH_COUNT);
    }
    pthread_t t[TH_NJOBS];
    for (int k = 0; k < TH_NJOBS; k++) ck_assert_int_eq(pthread_create(&t[k], NULL, th_main, &jobs[k]), 0);
    for (int k = 0; k < TH_NJOBS; k++) ck_assert_int_eq(pthread_join(t[k], NULL), 0);
    for (int k = 0; k < TH_NJOBS; k++) {
        ck_assert_msg(jobs[k].bad_info == 0, "%s in a thread: %d calls returned nonzero info",
                      names[k], jobs[k].bad_info);
        ck_assert_msg(jobs[k].mismatches == 0,
                      "%s in a thread: %d of %d runs differ from the serial result", names[k],
                      jobs[k].mismatches, TH_REPEAT);
    }
    for (int k = 0; k < TH_NJOBS; k++) {
        free(jobs[k].in); free(jobs[k].out); free(jobs[k].want);
        free(jobs[k].ipiv); free(jobs[k].want_ipiv);
    }
}
END_TEST

/* the error handler seen from several threads: each failing call counted once */
static int mt_calls;
static pthread_mutex_t mt_lock = PTHREAD_MUTEX_INITIALIZER;

static void mt_handler(const char *routine, int code, void *user)
{
    (void)routine; (void)code; (void)user;
    pthread_mutex_lock(&mt_lock);
    mt_calls++;
    pthread_mutex_unlock(&mt_lock);
}

static void *mt_fail(void *arg)
{
    (void)arg;
    for (int r = 0; r < 50; r++) {
        int info[1] = {BblasErrorsReportAny};
        gemm_call(-1, info);
    }
    return NULL;
}

START_TEST(test_threads_handler)
{
    mt_calls = 0;
    batchblas_set_error_handler(mt_handler, NULL);
    pthread_t t[TH_NJOBS];
    for (int k = 0; k < TH_NJOBS; k++) ck_assert_int_eq(pthread_create(&t[k], NULL, mt_fail, NULL), 0);
    for (int k = 0; k < TH_NJOBS; k++) pthread_join(t[k], NULL);
    batchblas_set_error_handler(NULL, NULL);
    ck_assert_int_eq(mt_calls, TH_NJOBS * 50);
}
END_TEST

/* A variable batch large enough for the front end to check its problems in
   parallel (src/common/front.c, CHECK_PARALLEL_MIN): bad leading dimensions
   and NULL matrices scattered through it get their own codes (the first bad
   argument where both), everything else is computed, in every report mode. */
START_TEST(test_many_checks)
{
    enum { NP = 20011, N = 3 };
    double *buf = malloc(sizeof(double) * NP * N * N);
    double **A = malloc(sizeof(double *) * NP);
    int *n = malloc(sizeof(int) * NP), *lda = malloc(sizeof(int) * NP), *info = malloc(sizeof(int) * (NP + 1));
    bblas_enum_t *uplo = malloc(sizeof(bblas_enum_t) * NP);
    ck_assert(buf && A && n && lda && info && uplo);
    const int modes[4] = {BblasErrorsReportAll, BblasErrorsReportGroup, BblasErrorsReportAny, BblasErrorsReportNone};
    for (int md = 0; md < 4; md++) {
        int first_bad = -1;
        for (int i = 0; i < NP; i++) {
            double *a = buf + (size_t)i * N * N;
            for (int x = 0; x < N * N; x++) a[x] = x % (N + 1) == 0 ? 4.0 + i % 5 : 1.0; /* SPD */
            A[i] = i % 11 == 5 ? NULL : a;
            n[i] = N;
            lda[i] = i % 7 == 3 ? N - 1 : N;
            uplo[i] = i % 2 ? BblasUpper : BblasLower;
            if (first_bad < 0 && (i % 11 == 5 || i % 7 == 3)) first_bad = i;
        }
        info[0] = modes[md];
        lapack_dpotrf_batchv(NP, BblasColMajor, uplo, n, A, lda, info);
        /* arguments: batch_size 1, layout 2, uplo 3, n 4, A 5, lda 6, info 7 */
        for (int i = 0; i < NP; i++) {
            int expect = i % 11 == 5 ? -5 : i % 7 == 3 ? -6 : 0;
            if (modes[md] == BblasErrorsReportAll)
                ck_assert_msg(info[1 + i] == expect, "problem %d: code %d, expected %d", i, info[1 + i], expect);
            if (modes[md] == BblasErrorsReportGroup) /* a group per problem */
                ck_assert_msg(info[1 + i] == expect, "group %d: code %d, expected %d", i, info[1 + i], expect);
            const double *a = buf + (size_t)i * N * N;
            double a00 = 4.0 + i % 5;
            if (expect == 0)
                ck_assert_msg(fabs(a[0] - sqrt(a00)) < 1e-14 * a00, "problem %d not factored", i);
            else if (i % 11 != 5)
                ck_assert_msg(a[0] == a00, "problem %d (bad lda) written", i);
        }
        if (modes[md] != BblasErrorsReportNone)
            ck_assert_int_eq(info[0], first_bad % 11 == 5 ? -5 : -6);
    }
    free(buf); free(A); free(n); free(lda); free(info); free(uplo);
}
END_TEST

void add_library_tests(Suite *s)
{
    TCase *tc = tcase_create("library");
    tcase_add_test(tc, test_version);
    tcase_add_test(tc, test_strerror);
    tcase_add_test(tc, test_malloc_host);
    tcase_add_test(tc, test_backend);
    tcase_add_test(tc, test_error_handler);
    tcase_add_test(tc, test_verbose);
    tcase_add_test(tc, test_many_checks);
    suite_add_tcase(s, tc);

    TCase *tt = tcase_create("threads");
    tcase_set_timeout(tt, 60);
    tcase_add_test(tt, test_threads);
    tcase_add_test(tt, test_threads_handler);
    suite_add_tcase(s, tt);
}
