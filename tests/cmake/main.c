/* The CMake client of tests/cmake_check.sh: a batch of SPD systems solved
   by lapack_dposv_batch_strided, checked by residual. */
#include <batchblas.h>
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 5, NRHS = 2, COUNT = 64 };

static double amax(double m, double x) { return x > m ? x : -x > m ? -x : m; }

int main(void)
{
    static double A[COUNT][N * N], A0[COUNT][N * N], B[COUNT][N * NRHS], B0[COUNT][N * NRHS];
    int info[COUNT + 1];
    unsigned s = 12345;
    for (int p = 0; p < COUNT; p++) {
        double M[N * N];
        for (int i = 0; i < N * N; i++) {
            s = s * 1103515245u + 12345u;
            M[i] = (double)(s >> 8) / (double)(1u << 24) - 0.5;
        }
        for (int j = 0; j < N; j++)       /* A = M M^T + N I */
            for (int i = 0; i < N; i++) {
                double t = i == j ? N : 0;
                for (int k = 0; k < N; k++)
                    t += M[i + k * N] * M[j + k * N];
                A0[p][i + j * N] = t;
            }
        for (int i = 0; i < N * NRHS; i++) {
            s = s * 1103515245u + 12345u;
            B0[p][i] = (double)(s >> 8) / (double)(1u << 24) - 0.5;
        }
    }
    memcpy(A, A0, sizeof A);
    memcpy(B, B0, sizeof B);
    info[0] = BblasErrorsReportAll;
    lapack_dposv_batch_strided(BblasColMajor, BblasLower, N, NRHS, &A[0][0], N, N * N,
                               &B[0][0], N, N * NRHS, COUNT, info);
    double worst = 0;
    for (int p = 0; p < COUNT; p++) {
        if (info[1 + p] != 0) {
            printf("problem %d: info %d\n", p, info[1 + p]);
            return 1;
        }
        double anorm = 0, xnorm = 0, rnorm = 0;   /* max norms */
        for (int i = 0; i < N * N; i++)
            anorm = amax(anorm, A0[p][i]);
        for (int c = 0; c < NRHS; c++)
            for (int i = 0; i < N; i++) {
                double r = -B0[p][i + c * N];
                for (int k = 0; k < N; k++)
                    r += A0[p][i + k * N] * B[p][k + c * N];
                rnorm = amax(rnorm, r);
                xnorm = amax(xnorm, B[p][i + c * N]);
            }
        double ratio = rnorm / (anorm * xnorm * N * DBL_EPSILON);
        if (!(ratio < 30)) {
            printf("problem %d: scaled residual %g\n", p, ratio);
            return 1;
        }
        worst = ratio > worst ? ratio : worst;
    }
    printf("cmake client: %d dposv solves, info[0] %d, largest scaled residual %.3g\n",
           COUNT, info[0], worst);
    return info[0] != 0;
}
