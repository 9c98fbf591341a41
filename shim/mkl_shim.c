#include "batchblas_mkl.h"
