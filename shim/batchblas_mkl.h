/* MKL batch names over BatchBLAS (libbatchblas_mkl). */
#ifndef BATCHBLAS_MKL_H
#define BATCHBLAS_MKL_H
#include "batchblas.h"
#endif
