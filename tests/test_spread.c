/*
 * The split of one batch into shares (src/common/spread.c), without a GPU:
 * the internal test hook bb_spread_test runs every share on the CPU backend
 * as if 4 devices of unequal rates were visible, so each device list cuts
 * the batch into slices of its own (group, fixed, variable and strided
 * forms; row-major gemm, whose normalisation swaps A and B; pivots and
 * per-problem values; skipped problems and argument errors; report-all and
 * report-group modes), each slice running on a thread of its own; then the
 * same with the CPU taking a share beside the devices (the hybrid split,
 * its share run by the CPU backend on a thread with its own OpenMP setting).  Every
 * result (matrices, pivots, values, info) must be bitwise the result of the
 * unsplit call.  The hook is internal: this program links the static
 * library (tests/tests.mk).  Exit 0: passed; 1: failed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <batchblas.h>
#include "backend.h"

static int fails = 0;

typedef struct {
    unsigned char *p;
    size_t n, cap;
} outbuf;

static void put(outbuf *o, const void *src, size_t bytes)
{
    if (o->n + bytes > o->cap) {
        o->cap = (o->n + bytes) * 2;
        o->p = realloc(o->p, o->cap);
    }
    memcpy(o->p + o->n, src, bytes);
    o->n += bytes;
}

static uint64_t rng;
static double urand(void)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}
static int irand(int lo, int hi) { return lo + (int)(urand() * (hi - lo + 1)); }

/* an SPD matrix of order n in a[lda x n], or (spd == 0) a general one */
static void fill(double *a, int n, int lda, int cols, int spd)
{
    for (int j = 0; j < cols; j++)
        for (int i = 0; i < lda; i++) a[i + (size_t)j * lda] = urand() - 0.5;
    if (spd)
        for (int j = 0; j < n && j < cols; j++) a[j + (size_t)j * lda] += n + 1;
}

enum { MAXP = 64, SLAB = 12 * 12 };

/* ---- the cases: each fills its data from a fixed seed, makes one call,
   and appends every output to o ---- */

static void potrf_strided(outbuf *o)
{
    rng = 11;
    int count = 37, n = 5, lda = 6;
    double *A = calloc(1, sizeof(double) * (size_t)lda * n * count);
    int info[38];
    for (int i = 0; i < count; i++) fill(A + (size_t)i * lda * n, n, lda, n, 1);
    A[(size_t)20 * lda * n + 2 + 2 * lda] = -100; /* not SPD at column 3 */
    info[0] = BblasErrorsReportAll;
    lapack_dpotrf_batch_strided(BblasColMajor, BblasLower, n, A, lda, (int64_t)lda * n, count, info);
    put(o, A, sizeof(double) * (size_t)lda * n * count);
    put(o, info, sizeof info);
    free(A);
}

static void potrf_fixed(outbuf *o)
{
    rng = 12;
    int count = 53, n = 4, lda = 7;
    double *slab = calloc(1, sizeof(double) * SLAB * count), *A[53];
    int info[54];
    for (int i = 0; i < count; i++) {
        A[i] = slab + (size_t)SLAB * (count - 1 - i); /* pointers in reverse order */
        fill(A[i], n, lda, n, i % 9 != 4);
    }
    info[0] = BblasErrorsReportAll;
    lapack_dpotrf_batchf(count, BblasRowMajor, BblasUpper, n, A, lda, info);
    put(o, slab, sizeof(double) * SLAB * count);
    put(o, info, sizeof info);
    free(slab);
}

static void potrf_group(outbuf *o, int mode)
{
    rng = 13;
    int gs[6] = {5, 0, 12, 1, 19, 9}, nn[6] = {3, 4, 5, 2, 6, -1}, up[6], lda[6];
    int count = 0;
    for (int g = 0; g < 6; g++) {
        count += gs[g];
        up[g] = g % 2 ? BblasUpper : BblasLower;
        lda[g] = nn[g] > 0 ? nn[g] + 1 : 1;
    }
    double *slab = calloc(1, sizeof(double) * SLAB * count), *A[64];
    int info[64], at = 0;
    for (int g = 0; g < 6; g++)
        for (int k = 0; k < gs[g]; k++, at++) {
            A[at] = slab + (size_t)SLAB * at;
            fill(A[at], nn[g] > 0 ? nn[g] : 1, lda[g], nn[g] > 0 ? nn[g] : 1, (at % 7) != 3);
        }
    memset(info, 0x5a, sizeof info);
    info[0] = mode;
    lapack_dpotrf_batch(6, gs, BblasColMajor, up, nn, A, lda, info);
    put(o, slab, sizeof(double) * SLAB * count);
    put(o, info, sizeof info);
    free(slab);
}

static void potrf_var(outbuf *o)
{
    rng = 14;
    int count = 41, n[41], up[41], lda[41];
    double *slab = calloc(1, sizeof(double) * SLAB * count), *A[41];
    int info[42];
    for (int i = 0; i < count; i++) {
        n[i] = irand(1, 8);
        up[i] = irand(0, 1) ? BblasUpper : BblasLower;
        lda[i] = n[i] + irand(0, 2);
        A[i] = slab + (size_t)SLAB * i;
        fill(A[i], n[i], lda[i], n[i], i % 6 != 5);
    }
    lda[17] = n[17] > 1 ? n[17] - 1 : 0; /* argument error */
    info[0] = BblasErrorsReportAll;
    lapack_dpotrf_batchv(count, BblasColMajor, up, n, A, lda, info);
    put(o, slab, sizeof(double) * SLAB * count);
    put(o, info, sizeof info);
    free(slab);
}

static void gemm_group_rowmajor(outbuf *o)
{
    rng = 15;
    enum { NG = 4 };
    int gs[NG] = {3, 10, 0, 7}, ta[NG], tb[NG], m[NG], n[NG], k[NG], lda[NG], ldb[NG], ldc[NG];
    double al[NG], be[NG];
    int count = 20;
    for (int g = 0; g < NG; g++) {
        ta[g] = g % 2 ? BblasTrans : BblasNoTrans;
        tb[g] = g % 3 ? BblasNoTrans : BblasTrans;
        m[g] = irand(1, 7); n[g] = irand(1, 7); k[g] = irand(1, 7);
        /* row-major: lda >= columns of the stored A */
        lda[g] = (ta[g] == BblasNoTrans ? k[g] : m[g]) + 1;
        ldb[g] = (tb[g] == BblasNoTrans ? n[g] : k[g]) + 2;
        ldc[g] = n[g];
        al[g] = urand() + 0.5;
        be[g] = g == 1 ? 0.0 : urand();
    }
    double *slab = calloc(1, sizeof(double) * 3 * SLAB * count);
    double *A[20], *B[20], *C[20];
    for (int i = 0; i < count * 3 * SLAB; i++) slab[i] = urand();
    for (int i = 0; i < count; i++) {
        A[i] = slab + (size_t)3 * SLAB * i;
        B[i] = A[i] + SLAB;
        C[i] = B[i] + SLAB;
    }
    int info[21];
    info[0] = BblasErrorsReportAll;
    blas_dgemm_batch(NG, gs, BblasRowMajor, ta, tb, m, n, k, al, (double const *const *)A, lda,
                     (double const *const *)B, ldb, be, C, ldc, info);
    put(o, slab, sizeof(double) * 3 * SLAB * count);
    put(o, info, sizeof info);
    free(slab);
}

static void gemm_var(outbuf *o)
{
    rng = 16;
    enum { N = 45 };
    int ta[N], tb[N], m[N], n[N], k[N], lda[N], ldb[N], ldc[N];
    double al[N], be[N];
    double *slab = calloc(1, sizeof(double) * 3 * SLAB * N);
    double *A[N], *B[N], *C[N];
    for (int i = 0; i < N * 3 * SLAB; i++) slab[i] = urand();
    for (int i = 0; i < N; i++) {
        ta[i] = irand(0, 1) ? BblasTrans : BblasNoTrans;
        tb[i] = irand(0, 1) ? BblasTrans : BblasNoTrans;
        m[i] = irand(1, 9); n[i] = irand(1, 9); k[i] = irand(1, 9);
        lda[i] = (ta[i] == BblasNoTrans ? m[i] : k[i]) + irand(0, 1);
        ldb[i] = (tb[i] == BblasNoTrans ? k[i] : n[i]);
        ldc[i] = m[i] + 1;
        al[i] = urand();
        be[i] = i % 4 ? urand() : 0.0;
        A[i] = slab + (size_t)3 * SLAB * i;
        B[i] = A[i] + SLAB;
        C[i] = B[i] + SLAB;
    }
    int info[N + 1];
    info[0] = BblasErrorsReportAll;
    blas_dgemm_batchv(N, BblasColMajor, ta, tb, m, n, k, al, (double const *const *)A, lda,
                      (double const *const *)B, ldb, be, C, ldc, info);
    put(o, slab, sizeof(double) * 3 * SLAB * N);
    put(o, info, sizeof info);
    free(slab);
}

static void getrf_var(outbuf *o)
{
    rng = 17;
    enum { N = 33 };
    int m[N], n[N], lda[N], piv[N * 12];
    double *slab = calloc(1, sizeof(double) * SLAB * N), *A[N];
    int *P[N];
    for (int i = 0; i < N; i++) {
        m[i] = irand(1, 9);
        n[i] = irand(1, 9);
        lda[i] = (m[i] > n[i] ? m[i] : n[i]) + irand(0, 2); /* row-major: >= n */
        A[i] = slab + (size_t)SLAB * i;
        fill(A[i], 0, lda[i], m[i] > n[i] ? m[i] : n[i], 0);
        if (i == 9) memset(A[i], 0, sizeof(double) * SLAB); /* singular */
        P[i] = piv + 12 * i;
    }
    memset(piv, 0x5a, sizeof piv);
    int info[N + 1];
    info[0] = BblasErrorsReportAll;
    lapack_dgetrf_batchv(N, BblasRowMajor, m, n, A, lda, P, info);
    put(o, slab, sizeof(double) * SLAB * N);
    put(o, piv, sizeof piv);
    put(o, info, sizeof info);
    free(slab);
}

static void getrf_strided(outbuf *o)
{
    rng = 18;
    int count = 29, n = 6, lda = 6;
    double *A = calloc(1, sizeof(double) * 36 * count);
    int piv[29 * 7], info[30];
    for (int i = 0; i < count; i++) fill(A + 36 * i, 0, lda, n, 0);
    memset(piv, 0x5a, sizeof piv);
    info[0] = BblasErrorsReportAll;
    lapack_dgetrf_batch_strided(BblasColMajor, n, n, A, lda, 36, piv, 7, count, info);
    put(o, A, sizeof(double) * 36 * count);
    put(o, piv, sizeof piv);
    put(o, info, sizeof info);
    free(A);
}

static void lange_strided_and_group(outbuf *o)
{
    rng = 19;
    int count = 31, m = 5, n = 3, lda = 6;
    double *A = calloc(1, sizeof(double) * 18 * count), val[31];
    int info[32];
    for (int i = 0; i < 18 * count; i++) A[i] = urand() - 0.5;
    memset(val, 0, sizeof val);
    info[0] = BblasErrorsReportAll;
    lapack_dlange_batch_strided(BblasColMajor, BblasOneNorm, m, n, A, lda, 18, val, count, info);
    put(o, val, sizeof val);
    put(o, info, sizeof info);
    int gs[3] = {10, 11, 10}, nm[3] = {BblasInfNorm, BblasFrobeniusNorm, BblasMaxNorm}, mm[3] = {3, 2, 1},
        nn[3] = {3, 1, 2}, ll[3] = {6, 6, 6};
    const double *P[31];
    for (int i = 0; i < count; i++) P[i] = A + 18 * i;
    memset(val, 0, sizeof val);
    info[0] = BblasErrorsReportGroup;
    lapack_dlange_batch(3, gs, BblasRowMajor, nm, mm, nn, P, ll, val, info);
    put(o, val, sizeof val);
    put(o, info, sizeof(int) * 4);
    free(A);
}

static void all_cases(outbuf *o)
{
    potrf_strided(o);
    potrf_fixed(o);
    potrf_group(o, BblasErrorsReportAll);
    potrf_group(o, BblasErrorsReportGroup);
    potrf_var(o);
    gemm_group_rowmajor(o);
    gemm_var(o);
    getrf_var(o);
    getrf_strided(o);
    lange_strided_and_group(o);
}

int main(void)
{
    batchblas_set_backend(BatchblasBackendCPU);
    outbuf ref = {0}, got = {0};
    all_cases(&ref);

    bb_spread_test(&bb_cpu_backend, 4);
    static const int l1[] = {0, 0}, l2[] = {1, 0, 3}, l3[] = {2}, l4[] = {3, 3, 3, 3, 3, 3, 3};
    int l5[MAXP];
    for (int k = 0; k < MAXP; k++) l5[k] = k % 4; /* more shares than problems */
    const struct { int n; const int *ids; } lists[] = {{2, l1}, {3, l2}, {1, l3}, {7, l4}, {MAXP, l5}, {0, NULL}};
    /* the devices alone, then the CPU taking a share beside them (a small,
       a middle and a large one) */
    static const double cpu_shares[] = {-1, 0.3, 0.02, 0.97};
    for (size_t t = 0; t < sizeof lists / sizeof lists[0] * 4; t++) {
        double share = cpu_shares[t / (sizeof lists / sizeof lists[0])];
        bb_spread_test_cpu_share(share);
        if (batchblas_set_devices(lists[t % (sizeof lists / sizeof lists[0])].n,
                                  lists[t % (sizeof lists / sizeof lists[0])].ids) != BblasSuccess) {
            fprintf(stderr, "test_spread: set_devices(%d) refused\n", lists[t % (sizeof lists / sizeof lists[0])].n);
            fails++;
            continue;
        }
        got.n = 0;
        all_cases(&got);
        if (got.n != ref.n || memcmp(got.p, ref.p, ref.n)) {
            size_t at = 0;
            while (at < ref.n && at < got.n && got.p[at] == ref.p[at]) at++;
            fprintf(stderr, "test_spread: %d device(s), cpu share %g: results differ from the unsplit call (first at byte "
                    "%zu of %zu)\n", lists[t % (sizeof lists / sizeof lists[0])].n, share, at, ref.n);
            fails++;
        }
    }
    /* an id that is not visible is refused once the devices are known */
    int five = 5;
    if (batchblas_set_devices(1, &five) != BblasErrInvalid) {
        fprintf(stderr, "test_spread: id 5 of 4 visible accepted\n");
        fails++;
    }
    bb_spread_test(NULL, 0);
    bb_spread_test_cpu_share(-1);
    batchblas_set_devices(0, NULL);
    free(ref.p);
    free(got.p);
    if (fails) return 1;
    printf("test_spread: passed\n");
    return 0;
}
