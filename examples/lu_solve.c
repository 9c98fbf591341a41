/*
 * lu_solve: LU-factor a batch of square matrices (getrf), then solve
 * A_i x_i = b_i with the factors (getrs), reading the per-problem codes.
 *
 * info[0] = BblasErrorsReportAll on entry asks for one code per problem in
 * info[1 + i]: 0 on success, k > 0 when U(k,k) is exactly zero (A_i is
 * singular; its factors are computed but cannot be used to solve).  On
 * exit info[0] is 0 or the code of the first failing problem.
 * One matrix is made singular on purpose: its third column is zero.
 */
#include <batchblas.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { COUNT = 1000, N = 6, SINGULAR = 7 };

static double rnd(void) { return rand() / (double)RAND_MAX - 0.5; }

int main(void)
{
    const int64_t sa = N * N, sb = N, sp = N; /* strides: matrix, right-hand side, pivots */
    double *A = malloc(sizeof(double) * sa * COUNT), *A0 = malloc(sizeof(double) * sa * COUNT);
    double *B = malloc(sizeof(double) * sb * COUNT), *B0 = malloc(sizeof(double) * sb * COUNT);
    int *ipiv = malloc(sizeof(int) * sp * COUNT);
    int *info = malloc(sizeof(int) * (COUNT + 1));
    if (!A || !A0 || !B || !B0 || !ipiv || !info) return 1;

    for (int64_t e = 0; e < sa * COUNT; e++) A[e] = rnd();
    for (int64_t e = 0; e < sb * COUNT; e++) B[e] = rnd();
    for (int r = 0; r < N; r++) A[SINGULAR * sa + r + 2 * N] = 0.0; /* column 3 of A_7 */
    memcpy(A0, A, sizeof(double) * sa * COUNT);
    memcpy(B0, B, sizeof(double) * sb * COUNT);

    /* 1. factor: P_i A_i = L_i U_i, column-major, lda = N */
    info[0] = BblasErrorsReportAll;
    lapack_dgetrf_batch_strided(BblasColMajor, N, N, A, N, sa, ipiv, sp, COUNT, info);
    printf("getrf: info[0] = %d (%s)\n", info[0], batchblas_strerror(info[0]));
    int nsingular = 0, which = -1;
    for (int i = 0; i < COUNT; i++)
        if (info[1 + i] != 0) {
            printf("  matrix %d: info %d, U(%d,%d) is exactly zero: singular\n", i, info[1 + i],
                   info[1 + i], info[1 + i]);
            nsingular++;
            which = i;
        }

    /* 2. solve with the factors (the singular member's x is meaningless) */
    info[0] = BblasErrorsReportAny;
    lapack_dgetrs_batch_strided(BblasColMajor, BblasNoTrans, N, 1, A, N, sa, ipiv, sp, B, N, sb,
                                COUNT, info);
    printf("getrs: info[0] = %d\n", info[0]);

    /* 3. residual of the others: ||A x - b|| / (||A|| ||x|| N eps), infinity norms */
    double worst = 0;
    for (int i = 0; i < COUNT; i++) {
        if (i == which) continue;
        const double *a = A0 + i * sa, *b = B0 + i * sb, *x = B + i * sb;
        double rmax = 0, amax = 0, xmax = 0;
        for (int r = 0; r < N; r++) {
            double s = -b[r], arow = 0;
            for (int c = 0; c < N; c++) {
                s += a[r + c * N] * x[c];
                arow += fabs(a[r + c * N]);
            }
            rmax = fmax(rmax, fabs(s));
            amax = fmax(amax, arow);
            xmax = fmax(xmax, fabs(x[r]));
        }
        double ratio = rmax / (amax * xmax * N * DBL_EPSILON);
        if (!(ratio <= worst)) worst = ratio;
    }
    printf("%d systems: %d singular, max scaled residual of the others %.3g\n", COUNT, nsingular,
           worst);

    int ok = nsingular == 1 && which == SINGULAR && worst < 30.0;
    free(A); free(A0); free(B); free(B0); free(ipiv); free(info);
    return ok ? 0 : 1;
}
