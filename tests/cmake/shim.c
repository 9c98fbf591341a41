/* The CMake client of tests/cmake_check.sh, MKL-name shim part: links
   BatchBLAS::batchblas_mkl and factors a batch of diagonal matrices. */
#include <batchblas_mkl.h>
#include <stdio.h>

int main(void)
{
    double a[3][4] = {{2, 0, 0, 3}, {4, 0, 0, 5}, {1, 0, 0, 1}};
    MKL_INT ipiv[3][2], info[3];
    MKL_INT m = 2, n = 2, lda = 2, sa = 4, sp = 2, count = 3;
    dgetrf_batch_strided(&m, &n, &a[0][0], &lda, &sa, &ipiv[0][0], &sp, &count, info);
    for (int p = 0; p < 3; p++)
        if (info[p] != 0 || ipiv[p][0] != 1 || ipiv[p][1] != 2) {
            printf("shim: problem %d info %d\n", p, (int)info[p]);
            return 1;
        }
    printf("cmake client: shim dgetrf_batch_strided ok\n");
    return 0;
}
