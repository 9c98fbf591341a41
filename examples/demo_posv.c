/*
 * demo_posv: solve many small symmetric positive definite systems A x = b
 * at once with one call.
 *
 *   ./demo_posv [count [n]]      (default: 100000 systems of size 8)
 *
 * The strided form keeps all matrices in one array: matrix i starts at
 * A + i*stride_a.  lapack_dposv_batch_strided factors every A_i (Cholesky)
 * and overwrites b_i with the solution x_i.  info[0] on entry selects how
 * errors are reported; here: one code per system in info[1 + i].
 *
 * Build: cc demo_posv.c $(pkg-config --cflags --libs batchblas) -lm
 */
#include <batchblas.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* A small random generator with a state per system, so that system i can
   be built again later for the residual check without storing a copy. */
static double rnd(unsigned long long *s)
{
    *s ^= *s << 13; *s ^= *s >> 7; *s ^= *s << 17;
    return (double)(*s >> 11) / 9007199254740992.0 * 2.0 - 1.0; /* in [-1, 1) */
}

/* System i: symmetric, diagonally dominant with a positive diagonal (so
   positive definite), column-major with leading dimension n; and b_i. */
static void make_system(long i, int n, double *A, double *b)
{
    unsigned long long s = 0x9E3779B97F4A7C15ull * (unsigned long long)(i + 1);
    for (int j = 0; j < n; j++) {
        for (int r = 0; r < j; r++) A[r + j * n] = A[j + r * n] = rnd(&s);
        A[j + j * n] = n + rnd(&s);
    }
    for (int r = 0; r < n; r++) b[r] = rnd(&s);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv)
{
    long count = argc > 1 ? atol(argv[1]) : 100000;
    int n = argc > 2 ? atoi(argv[2]) : 8;
    if (count < 1 || count > 100000000 || n < 1 || n > 1000) {
        fprintf(stderr, "usage: %s [count [n]]\n", argv[0]);
        return 2;
    }
    const int nrhs = 1, lda = n, ldb = n;
    const int64_t stride_a = (int64_t)lda * n, stride_b = (int64_t)ldb * nrhs;

    double *A = malloc(sizeof(double) * stride_a * count);
    double *B = malloc(sizeof(double) * stride_b * count);
    int *info = malloc(sizeof(int) * (count + 1));
    double *A0 = malloc(sizeof(double) * stride_a), *b0 = malloc(sizeof(double) * n);
    if (!A || !B || !info || !A0 || !b0) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    for (long i = 0; i < count; i++) make_system(i, n, A + i * stride_a, B + i * stride_b);

    /* The call: count systems, lower triangle used. */
    info[0] = BblasErrorsReportAll;
    double t0 = now();
    lapack_dposv_batch_strided(BblasColMajor, BblasLower, n, nrhs, A, lda, stride_a, B, ldb,
                               stride_b, (int)count, info);
    double t = now() - t0;

    /* Check every system: residual ||A x - b|| / (||A|| ||x|| n eps), infinity norms. */
    double worst = 0;
    long failed = 0;
    for (long i = 0; i < count; i++) {
        if (info[1 + i] != 0) { /* k > 0: A_i not positive definite */
            failed++;
            continue;
        }
        make_system(i, n, A0, b0);
        const double *x = B + i * stride_b;
        double rmax = 0, amax = 0, xmax = 0;
        for (int r = 0; r < n; r++) {
            double s = -b0[r], arow = 0;
            for (int c = 0; c < n; c++) {
                s += A0[r + c * n] * x[c];
                arow += fabs(A0[r + c * n]);
            }
            rmax = fmax(rmax, fabs(s));
            amax = fmax(amax, arow);
            xmax = fmax(xmax, fabs(x[r]));
        }
        double ratio = rmax / (amax * xmax * n * DBL_EPSILON);
        if (!(ratio <= worst)) worst = ratio; /* also catches NaN */
    }

    printf("solved %ld SPD systems of size %d (nrhs %d) in %.3f ms\n", count, n, nrhs, t * 1e3);
    printf("%.3g systems per second\n", count / t);
    printf("max scaled residual %.3g (acceptable below 30), info[0] = %d, %ld failed\n", worst,
           info[0], failed);
    int ok = failed == 0 && worst < 30.0;
    free(A); free(B); free(info); free(A0); free(b0);
    return ok ? 0 : 1;
}
