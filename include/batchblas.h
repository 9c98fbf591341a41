/*
 * BatchBLAS umbrella header: batched BLAS and LAPACK-like routines for many
 * small dense problems, following the 2018 Batched BLAS proposal.
 * See README.md and doc/api.md.
 */
#ifndef BATCHBLAS_H
#define BATCHBLAS_H

#include "batchblas_types.h"
#include "batchblas_s.h"
#include "batchblas_d.h"
#include "batchblas_c.h"
#include "batchblas_z.h"

#endif
