/*
 * gemm_group: one call, two groups of matrix products of different shapes.
 *
 * The group form takes one parameter per group (transa[g], m[g], alpha[g],
 * ...) and one matrix pointer per problem, group after group:
 *   group 0: 3 products C = A*B     with A 2x3, B 3x4          (alpha 1, beta 0)
 *   group 1: 2 products C = 2*A^T*B + C with A 5x5, B 5x5       (alpha 2, beta 1)
 * Column-major storage.  Prints the largest difference from a plain loop.
 */
#include <batchblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

enum { NPROB = 5 };

static double rnd(void) { return rand() / (double)RAND_MAX - 0.5; }

int main(void)
{
    /* per group */
    const int group_count = 2;
    const int group_sizes[2] = {3, 2};
    const bblas_enum_t transa[2] = {BblasNoTrans, BblasTrans};
    const bblas_enum_t transb[2] = {BblasNoTrans, BblasNoTrans};
    const int m[2] = {2, 5}, n[2] = {4, 5}, k[2] = {3, 5};
    const int lda[2] = {2, 5}, ldb[2] = {3, 5}, ldc[2] = {2, 5}; /* A is 2x3 resp. 5x5 (stored) */
    const double alpha[2] = {1.0, 2.0}, beta[2] = {0.0, 1.0};

    /* per problem: problems 0-2 belong to group 0, problems 3-4 to group 1 */
    double *A[NPROB], *B[NPROB], *C[NPROB], *C0[NPROB];
    for (int i = 0; i < NPROB; i++) {
        int g = i < group_sizes[0] ? 0 : 1;
        int na = lda[g] * (transa[g] == BblasNoTrans ? k[g] : m[g]);
        int nb = ldb[g] * n[g], nc = ldc[g] * n[g];
        A[i] = malloc(sizeof(double) * na);
        B[i] = malloc(sizeof(double) * nb);
        C[i] = malloc(sizeof(double) * nc);
        C0[i] = malloc(sizeof(double) * nc);
        for (int e = 0; e < na; e++) A[i][e] = rnd();
        for (int e = 0; e < nb; e++) B[i][e] = rnd();
        for (int e = 0; e < nc; e++) C[i][e] = C0[i][e] = rnd();
    }

    int info[1 + 2];
    info[0] = BblasErrorsReportGroup; /* one code per group in info[1 + g] */
    blas_dgemm_batch(group_count, group_sizes, BblasColMajor, transa, transb, m, n, k, alpha,
                     (double const *const *)A, lda, (double const *const *)B, ldb, beta, C, ldc,
                     info);
    printf("info: batch %d, group 0 %d, group 1 %d\n", info[0], info[1], info[2]);

    /* check against a plain triple loop */
    double maxerr = 0;
    for (int i = 0; i < NPROB; i++) {
        int g = i < group_sizes[0] ? 0 : 1;
        for (int r = 0; r < m[g]; r++)
            for (int c = 0; c < n[g]; c++) {
                double s = 0;
                for (int l = 0; l < k[g]; l++) {
                    double a = transa[g] == BblasNoTrans ? A[i][r + l * lda[g]] : A[i][l + r * lda[g]];
                    s += a * B[i][l + c * ldb[g]];
                }
                double want = alpha[g] * s + beta[g] * C0[i][r + c * ldc[g]];
                maxerr = fmax(maxerr, fabs(C[i][r + c * ldc[g]] - want));
            }
    }
    printf("%d products in 2 groups, max difference from the reference: %.2e\n", NPROB, maxerr);

    for (int i = 0; i < NPROB; i++) {
        free(A[i]); free(B[i]); free(C[i]); free(C0[i]);
    }
    return info[0] == 0 && maxerr < 1e-12 ? 0 : 1;
}
