/*
 * Limits: gemm with huge leading dimensions (issue 10, defect 1) and the
 * report-mode rule of the info argument (defect 2).  A Check program of its
 * own (not a runner suite): it maps matrices of 2^31+ bytes with
 * MAP_NORESERVE, touching only the few pages that hold entries.
 *
 * LIBXSMM's JIT kernels address an operand as base + 32-bit signed byte
 * displacement, so the CPU backend uses them only when ld * columns *
 * element size < 2^31 for every operand; these cases sit on both sides of
 * that bound (and at the 2^27+3 and 2^30+3), with alpha = 1 (the
 * LIBXSMM path) and alpha = 2 (the other path), in the fixed and strided
 * forms, in double and single precision.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <batchblas.h>

typedef struct {
    void *p;
    size_t bytes;
} map_t;

static int map_get(map_t *m, size_t bytes)
{
    m->bytes = bytes;
    m->p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return m->p != MAP_FAILED;
}

static void map_put(map_t *m)
{
    if (m->p != MAP_FAILED) munmap(m->p, m->bytes);
}

/* One 3x3x3 gemm (alpha, beta = 0 or 1), A, B, C with leading dimension
   ld, in double (dbl) or single precision, fixed or strided form; returns
   the number of wrong entries of C (or -1 if the mapping failed: skipped). */
static int big_ld_gemm(int64_t ld, int dbl, int strided, double alpha, double beta)
{
    const int m = 3, n = 3, k = 3;
    const size_t es = dbl ? 8 : 4;
    const size_t bytes = ((size_t)(k - 1) * (size_t)ld + (size_t)m) * es;
    map_t ma, mb, mc;
    if (!map_get(&ma, bytes)) return -1;
    if (!map_get(&mb, bytes)) { map_put(&ma); return -1; }
    if (!map_get(&mc, bytes)) { map_put(&ma); map_put(&mb); return -1; }
    double a[9], b[9], c0[9], ref[9];
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) {
            a[i + 3 * j] = 1 + i + 4 * j;
            b[i + 3 * j] = 2 - i + 3 * j;
            c0[i + 3 * j] = 0.5 * (i + j);
        }
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) {
            double s = 0;
            for (int l = 0; l < 3; l++) s += a[i + 3 * l] * b[l + 3 * j];
            ref[i + 3 * j] = alpha * s + beta * c0[i + 3 * j];
        }
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) {
            size_t at = (size_t)i + (size_t)j * (size_t)ld;
            if (dbl) {
                ((double *)ma.p)[at] = a[i + 3 * j];
                ((double *)mb.p)[at] = b[i + 3 * j];
                ((double *)mc.p)[at] = c0[i + 3 * j];
            } else {
                ((float *)ma.p)[at] = (float)a[i + 3 * j];
                ((float *)mb.p)[at] = (float)b[i + 3 * j];
                ((float *)mc.p)[at] = (float)c0[i + 3 * j];
            }
        }
    int info[2] = {BblasErrorsReportAll, -99};
    int ldi = (int)ld;
    if (dbl) {
        const double *A = ma.p, *B = mb.p;
        double *C = mc.p;
        if (strided)
            blas_dgemm_batch_strided(BblasColMajor, BblasNoTrans, BblasNoTrans, m, n, k, alpha, A, ldi, 0, B,
                                     ldi, 0, beta, C, ldi, 0, 1, info);
        else
            blas_dgemm_batchf(1, BblasColMajor, BblasNoTrans, BblasNoTrans, m, n, k, alpha, &A, ldi, &B, ldi,
                              beta, &C, ldi, info);
    } else {
        const float *A = ma.p, *B = mb.p;
        float *C = mc.p;
        if (strided)
            blas_sgemm_batch_strided(BblasColMajor, BblasNoTrans, BblasNoTrans, m, n, k, (float)alpha, A, ldi,
                                     0, B, ldi, 0, (float)beta, C, ldi, 0, 1, info);
        else
            blas_sgemm_batchf(1, BblasColMajor, BblasNoTrans, BblasNoTrans, m, n, k, (float)alpha, &A, ldi, &B,
                              ldi, (float)beta, &C, ldi, info);
    }
    int wrong = info[0] != 0 || info[1] != 0;
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) {
            size_t at = (size_t)i + (size_t)j * (size_t)ld;
            double got = dbl ? ((double *)mc.p)[at] : ((float *)mc.p)[at];
            wrong += got != ref[i + 3 * j]; /* small integers and halves: exact */
        }
    map_put(&ma);
    map_put(&mb);
    map_put(&mc);
    return wrong;
}

/* The largest ld with ld * 3 columns * es < 2^31 (the LIBXSMM bound), and
   the values. */
static int64_t ld_case(int i, int dbl)
{
    const int64_t es = dbl ? 8 : 4;
    const int64_t edge = (((int64_t)1 << 31) - 1) / (3 * es);
    const int64_t v[] = {edge - 1, edge, edge + 1, edge + 2, ((int64_t)1 << 26) + 3, ((int64_t)1 << 27) + 3,
                         ((int64_t)1 << 30) + 3, INT32_MAX};
    return v[i];
}
#define N_LD_CASES 8

START_TEST(test_gemm_big_ld)
{
    /* _i: ld case; each with both precisions, both forms, both paths */
    for (int dbl = 0; dbl < 2; dbl++)
        for (int strided = 0; strided < 2; strided++)
            for (int path = 0; path < 3; path++) {
                double alpha = path == 2 ? 2 : 1, beta = path == 1 ? 1 : 0;
                int64_t ld = ld_case(_i, dbl);
                int w = big_ld_gemm(ld, dbl, strided, alpha, beta);
                if (w < 0) continue; /* no address space: skipped */
                ck_assert_msg(w == 0, "gemm %s %s ld=%lld alpha=%g beta=%g: %d wrong", dbl ? "d" : "s",
                              strided ? "strided" : "fixed", (long long)ld, alpha, beta, w);
            }
}
END_TEST

/* Defect 2: the report mode in info[0] is read before anything else (it
   decides where the codes go), so a bad mode is reported as -(position of
   info) even when an earlier argument is bad too: the one exception to
   "first bad one wins" (README, doc/api.md). */
START_TEST(test_bad_mode_first)
{
    double a[4] = {4, 0, 0, 4}, *A[1] = {a};
    int n = 2, lda = 2, uplo = BblasLower;
    int info[2] = {7, 5};
    lapack_dpotrf_batchv(-1, BblasColMajor, (const bblas_enum_t *)&uplo, &n, A, &lda, info);
    ck_assert_int_eq(info[0], -7);
    ck_assert_int_eq(info[1], 5); /* nothing else written */
    ck_assert(a[0] == 4 && a[3] == 4);
    /* bad layout and bad mode: the mode again; strided: info is argument 8 */
    info[0] = -3;
    lapack_dpotrf_batch_strided(0, BblasLower, -1, a, 2, 4, -5, info);
    ck_assert_int_eq(info[0], -8);
    /* a good mode: argument 1 wins as usual */
    info[0] = BblasErrorsReportAny;
    lapack_dpotrf_batchv(-1, BblasColMajor, (const bblas_enum_t *)&uplo, &n, A, &lda, info);
    ck_assert_int_eq(info[0], -1);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("limits");
    TCase *tc = tcase_create("big_ld");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_gemm_big_ld, 0, N_LD_CASES);
    suite_add_tcase(s, tc);
    tc = tcase_create("info_mode");
    tcase_add_test(tc, test_bad_mode_first);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
