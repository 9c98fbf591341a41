/*
 * libbatchblas_mkl: Intel MKL's batch routine names over BatchBLAS.
 *
 * A program written against MKL's batch API links with -lbatchblas_mkl
 * -lbatchblas instead of MKL and runs unchanged:
 *   cblas_?gemm_batch, cblas_?gemm_batch_strided,
 *   cblas_?trsm_batch, cblas_?trsm_batch_strided,
 *   ?getrf_batch, ?getrf_batch_strided, ?getrs_batch_strided,
 *   ?getri_oop_batch, ?getri_oop_batch_strided        (? = s, d, c, z)
 *   cblas_[cz]gemm3m_batch, cblas_[cz]gemm3m_batch_strided (the complex gemm)
 * and MKL's Fortran names of all of them (?gemm_batch_, ?getrf_batch_strided_,
 * ..., see the end of this file), callable from Fortran as MKL's are.
 * with MKL's argument orders and types (LP64: MKL_INT is int).  The LAPACK
 * ones are Fortran-style (every argument by pointer, column-major) and
 * return one code per problem in info[]: 0, -i if argument i of THAT
 * routine's signature was illegal, or LAPACK's k > 0.  The CBLAS ones have
 * no info argument: argument errors reach the BatchBLAS error handler
 * (batchblas_set_error_handler) with the native routine name and code;
 * nothing is printed.
 *
 * A separate library because OpenBLAS, AOCL-BLIS, libxsmm and MKL itself
 * export some of these names: link only one of them.
 *
 * The CBLAS option types (CBLAS_LAYOUT, CBLAS_TRANSPOSE, ...) are taken
 * from <cblas.h> when it is available, so this header can be used together
 * with OpenBLAS's or the reference cblas.h in one translation unit, in
 * either order.  Define BATCHBLAS_MKL_NO_CBLAS_H to get our own definitions
 * (same names and values) instead.
 */
#ifndef BATCHBLAS_MKL_H
#define BATCHBLAS_MKL_H

#include "batchblas.h"

/* ---- CBLAS option types ---------------------------------------------- */
#if !defined(CBLAS_H) && !defined(_MKL_CBLAS_H_) && !defined(BATCHBLAS_MKL_NO_CBLAS_H)
#  if defined(__has_include)
#    if __has_include(<cblas.h>)
#      include <cblas.h>
#    endif
#  endif
#endif
#if !defined(CBLAS_H) && !defined(_MKL_CBLAS_H_) && !defined(BATCHBLAS_MKL_CBLAS_TYPES)
#define BATCHBLAS_MKL_CBLAS_TYPES
typedef enum CBLAS_LAYOUT {CblasRowMajor = 101, CblasColMajor = 102} CBLAS_LAYOUT;
typedef enum CBLAS_TRANSPOSE {CblasNoTrans = 111, CblasTrans = 112, CblasConjTrans = 113} CBLAS_TRANSPOSE;
typedef enum CBLAS_UPLO {CblasUpper = 121, CblasLower = 122} CBLAS_UPLO;
typedef enum CBLAS_DIAG {CblasNonUnit = 131, CblasUnit = 132} CBLAS_DIAG;
typedef enum CBLAS_SIDE {CblasLeft = 141, CblasRight = 142} CBLAS_SIDE;
#endif
/* MKL's own option type of mkl_cblas.h (no cblas.h has it); no routine here
   takes it, but code written against MKL names it (e.g. the PrintParameters
   helper in common_func.c of MKL's examples). */
#if !defined(_MKL_CBLAS_H_) && !defined(BATCHBLAS_MKL_CBLAS_OFFSET)
#define BATCHBLAS_MKL_CBLAS_OFFSET
typedef enum CBLAS_OFFSET {CblasRowOffset = 171, CblasColOffset = 172, CblasFixOffset = 173} CBLAS_OFFSET;
#endif

/* ---- MKL integer and complex types ------------------------------------- */
/* This build is LP64: MKL_INT must be int. */
#ifndef MKL_INT
#define MKL_INT int
#endif
typedef char batchblas_mkl_lp64_only[sizeof(MKL_INT) == sizeof(int) ? 1 : -1];

/* mkl_types.h's other integer names, as MKL defines them (LP64, not
   Windows), for code written against MKL that uses them beside the batch
   calls, e.g. the mkl_example.h/common_func.c support files of MKL's own
   examples.  Each can be predefined, as in MKL. */
#ifndef MKL_UINT
#define MKL_UINT unsigned int
#endif
#ifndef MKL_LONG
#define MKL_LONG long int
#endif
#ifndef MKL_INT8
#define MKL_INT8 char
#endif
#ifndef MKL_UINT8
#define MKL_UINT8 unsigned char
#endif
#ifndef MKL_INT16
#define MKL_INT16 short
#endif
#ifndef MKL_UINT16
#define MKL_UINT16 unsigned short
#endif
#ifndef MKL_INT32
#define MKL_INT32 int
#endif
#ifndef MKL_UINT32
#define MKL_UINT32 unsigned int
#endif
#ifndef MKL_INT64
#define MKL_INT64 long long int
#endif
#ifndef MKL_UINT64
#define MKL_UINT64 unsigned long long int
#endif

/* The LAPACK-style complex routines take MKL_Complex8/16, as in MKL (the
   CBLAS ones take void *).  As in MKL, define MKL_Complex8/16 before
   including this header to use your own type of the same layout. */
#if !defined(MKL_Complex8) && !defined(_MKL_TYPES_H_)
typedef struct _MKL_Complex8 { float real, imag; } MKL_Complex8;
#endif
#if !defined(MKL_Complex16) && !defined(_MKL_TYPES_H_)
typedef struct _MKL_Complex16 { double real, imag; } MKL_Complex16;
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* float */
BATCHBLAS_API void cblas_sgemm_batch(const CBLAS_LAYOUT Layout, const CBLAS_TRANSPOSE *transa_array,
    const CBLAS_TRANSPOSE *transb_array, const MKL_INT *m_array, const MKL_INT *n_array,
    const MKL_INT *k_array, const float *alpha_array, const float **a_array, const MKL_INT *lda_array,
    const float **b_array, const MKL_INT *ldb_array, const float *beta_array, float **c_array,
    const MKL_INT *ldc_array, const MKL_INT group_count, const MKL_INT *group_size);
BATCHBLAS_API void cblas_sgemm_batch_strided(const CBLAS_LAYOUT Layout, const CBLAS_TRANSPOSE TransA,
    const CBLAS_TRANSPOSE TransB, const MKL_INT M, const MKL_INT N, const MKL_INT K,
    const float alpha, const float *A, const MKL_INT lda, const MKL_INT stridea, const float *B,
    const MKL_INT ldb, const MKL_INT strideb, const float beta, float *C, const MKL_INT ldc,
    const MKL_INT stridec, const MKL_INT batch_size);
BATCHBLAS_API void cblas_strsm_batch(const CBLAS_LAYOUT Layout, const CBLAS_SIDE *Side_Array,
    const CBLAS_UPLO *Uplo_Array, const CBLAS_TRANSPOSE *Transa_Array, const CBLAS_DIAG *Diag_Array,
    const MKL_INT *M_Array, const MKL_INT *N_Array, const float *alpha_Array, const float **A_Array,
    const MKL_INT *lda_Array, float **B_Array, const MKL_INT *ldb_Array, const MKL_INT group_count,
    const MKL_INT *group_size);
BATCHBLAS_API void cblas_strsm_batch_strided(const CBLAS_LAYOUT Layout, const CBLAS_SIDE Side,
    const CBLAS_UPLO Uplo, const CBLAS_TRANSPOSE TransA, const CBLAS_DIAG Diag, const MKL_INT M,
    const MKL_INT N, const float alpha, const float *A, const MKL_INT lda, const MKL_INT stridea, float *B,
    const MKL_INT ldb, const MKL_INT strideb, const MKL_INT batch_size);
BATCHBLAS_API void sgetrf_batch(const MKL_INT *m, const MKL_INT *n, float **a, const MKL_INT *lda,
    MKL_INT **ipiv, const MKL_INT *group_count, const MKL_INT *group_size, MKL_INT *info);
BATCHBLAS_API void sgetrf_batch_strided(const MKL_INT *m, const MKL_INT *n, float *a, const MKL_INT *lda,
    const MKL_INT *stride_a, MKL_INT *ipiv, const MKL_INT *stride_ipiv, const MKL_INT *batch_size,
    MKL_INT *info);
BATCHBLAS_API void sgetrs_batch_strided(const char *trans, const MKL_INT *n, const MKL_INT *nrhs,
    const float *a, const MKL_INT *lda, const MKL_INT *stride_a, const MKL_INT *ipiv,
    const MKL_INT *stride_ipiv, float *b, const MKL_INT *ldb, const MKL_INT *stride_b,
    const MKL_INT *batch_size, MKL_INT *info);
BATCHBLAS_API void sgetri_oop_batch(const MKL_INT *n, const float **a, const MKL_INT *lda,
    const MKL_INT **ipiv, float **ainv, const MKL_INT *ldainv, const MKL_INT *group_count,
    const MKL_INT *group_size, MKL_INT *info);
BATCHBLAS_API void sgetri_oop_batch_strided(const MKL_INT *n, const float *a, const MKL_INT *lda,
    const MKL_INT *stride_a, const MKL_INT *ipiv, const MKL_INT *stride_ipiv, float *ainv,
    const MKL_INT *ldainv, const MKL_INT *stride_ainv, const MKL_INT *batch_size, MKL_INT *info);

/* double */
BATCHBLAS_API void cblas_dgemm_batch(const CBLAS_LAYOUT Layout, const CBLAS_TRANSPOSE *transa_array,
    const CBLAS_TRANSPOSE *transb_array, const MKL_INT *m_array, const MKL_INT *n_array,
    const MKL_INT *k_array, const double *alpha_array, const double **a_array, const MKL_INT *lda_array,
    const double **b_array, const MKL_INT *ldb_array, const double *beta_array, double **c_array,
    const MKL_INT *ldc_array, const MKL_INT group_count, const MKL_INT *group_size);
BATCHBLAS_API void cblas_dgemm_batch_strided(const CBLAS_LAYOUT Layout, const CBLAS_TRANSPOSE TransA,
    const CBLAS_TRANSPOSE TransB, const MKL_INT M, const MKL_INT N, const MKL_INT K,
    const double alpha, const double *A, const MKL_INT lda, const MKL_INT stridea, const double *B,
    const MKL_INT ldb, const MKL_INT strideb, const double beta, double *C, const MKL_INT ldc,
    const MKL_INT stridec, const MKL_INT batch_size);
BATCHBLAS_API void cblas_dtrsm_batch(const CBLAS_LAYOUT Layout, const CBLAS_SIDE *Side_Array,
    const CBLAS_UPLO *Uplo_Array, const CBLAS_TRANSPOSE *Transa_Array, const CBLAS_DIAG *Diag_Array,
    const MKL_INT *M_Array, const MKL_INT *N_Array, const double *alpha_Array, const double **A_Array,
    const MKL_INT *lda_Array, double **B_Array, const MKL_INT *ldb_Array, const MKL_INT group_count,
    const MKL_INT *group_size);
BATCHBLAS_API void cblas_dtrsm_batch_strided(const CBLAS_LAYOUT Layout, const CBLAS_SIDE Side,
    const CBLAS_UPLO Uplo, const CBLAS_TRANSPOSE TransA, const CBLAS_DIAG Diag, const MKL_INT M,
    const MKL_INT N, const double alpha, const double *A, const MKL_INT lda, const MKL_INT stridea, double *B,
    const MKL_INT ldb, const MKL_INT strideb, const MKL_INT batch_size);
BATCHBLAS_API void dgetrf_batch(const MKL_INT *m, const MKL_INT *n, double **a, const MKL_INT *lda,
    MKL_INT **ipiv, const MKL_INT *group_count, const MKL_INT *group_size, MKL_INT *info);
BATCHBLAS_API void dgetrf_batch_strided(const MKL_INT *m, const MKL_INT *n, double *a, const MKL_INT *lda,
    const MKL_INT *stride_a, MKL_INT *ipiv, const MKL_INT *stride_ipiv, const MKL_INT *batch_size,
    MKL_INT *info);
BATCHBLAS_API void dgetrs_batch_strided(const char *trans, const MKL_INT *n, const MKL_INT *nrhs,
    const double *a, const MKL_INT *lda, const MKL_INT *stride_a, const MKL_INT *ipiv,
    const MKL_INT *stride_ipiv, double *b, const MKL_INT *ldb, const MKL_INT *stride_b,
    const MKL_INT *batch_size, MKL_INT *info);
BATCHBLAS_API void dgetri_oop_batch(const MKL_INT *n, const double **a, const MKL_INT *lda,
    const MKL_INT **ipiv, double **ainv, const MKL_INT *ldainv, const MKL_INT *group_count,
    const MKL_INT *group_size, MKL_INT *info);
BATCHBLAS_API void dgetri_oop_batch_strided(const MKL_INT *n, const double *a, const MKL_INT *lda,
    const MKL_INT *stride_a, const MKL_INT *ipiv, const MKL_INT *stride_ipiv, double *ainv,
    const MKL_INT *ldainv, const MKL_INT *stride_ainv, const MKL_INT *batch_size, MKL_INT *info);

/* single complex */
BATCHBLAS_API void cblas_cgemm_batch(const CBLAS_LAYOUT Layout, const CBLAS_TRANSPOSE *transa_array,
    const CBLAS_TRANSPOSE *transb_array, const MKL_INT *m_array, const MKL_INT *n_array,
    const MKL_INT *k_array, const void *alpha_array, const void **a_array, const MKL_INT *lda_array,
    const void **b_array, const MKL_INT *ldb_array, const void *beta_array, void **c_array,
    const MKL_INT *ldc_array, const MKL_INT group_count, const MKL_INT *group_size);
BATCHBLAS_API void cblas_cgemm_batch_strided(const CBLAS_LAYOUT Layout, const CBLAS_TRANSPOSE TransA,
    const CBLAS_TRANSPOSE TransB, const MKL_INT M, const MKL_INT N, const MKL_INT K,
    const void *alpha, const void *A, const MKL_INT lda, const MKL_INT stridea, const void *B,
    const MKL_INT ldb, const MKL_INT strideb, const void *beta, void *C, const MKL_INT ldc,
    const MKL_INT stridec, const MKL_INT batch_size);
BATCHBLAS_API void cblas_ctrsm_batch(const CBLAS_LAYOUT Layout, const CBLAS_SIDE *Side_Array,
    const CBLAS_UPLO *Uplo_Array, const CBLAS_TRANSPOSE *Transa_Array, const CBLAS_DIAG *Diag_Array,
    const MKL_INT *M_Array, const MKL_INT *N_Array, const void *alpha_Array, const void **A_Array,
    const MKL_INT *lda_Array, void **B_Array, const MKL_INT *ldb_Array, const MKL_INT group_count,
    const MKL_INT *group_size);
BATCHBLAS_API void cblas_ctrsm_batch_strided(const CBLAS_LAYOUT Layout, const CBLAS_SIDE Side,
    const CBLAS_UPLO Uplo, const CBLAS_TRANSPOSE TransA, const CBLAS_DIAG Diag, const MKL_INT M,
    const MKL_INT N, const void *alpha, const void *A, const MKL_INT lda, const MKL_INT stridea, void *B,
    const MKL_INT ldb, const MKL_INT strideb, const MKL_INT batch_size);
BATCHBLAS_API void cgetrf_batch(const MKL_INT *m, const MKL_INT *n, MKL_Complex8 **a, const MKL_INT *lda,
    MKL_INT **ipiv, const MKL_INT *group_count, const MKL_INT *group_size, MKL_INT *info);
BATCHBLAS_API void cgetrf_batch_strided(const MKL_INT *m, const MKL_INT *n, MKL_Complex8 *a, const MKL_INT *lda,
    const MKL_INT *stride_a, MKL_INT *ipiv, const MKL_INT *stride_ipiv, const MKL_INT *batch_size,
    MKL_INT *info);
BATCHBLAS_API void cgetrs_batch_strided(const char *trans, const MKL_INT *n, const MKL_INT *nrhs,
    const MKL_Complex8 *a, const MKL_INT *lda, const MKL_INT *stride_a, const MKL_INT *ipiv,
    const MKL_INT *stride_ipiv, MKL_Complex8 *b, const MKL_INT *ldb, const MKL_INT *stride_b,
    const MKL_INT *batch_size, MKL_INT *info);
BATCHBLAS_API void cgetri_oop_batch(const MKL_INT *n, const MKL_Complex8 **a, const MKL_INT *lda,
    const MKL_INT **ipiv, MKL_Complex8 **ainv, const MKL_INT *ldainv, const MKL_INT *group_count,
    const MKL_INT *group_size, MKL_INT *info);
BATCHBLAS_API void cgetri_oop_batch_strided(const MKL_INT *n, const MKL_Complex8 *a, const MKL_INT *lda,
    const MKL_INT *stride_a, const MKL_INT *ipiv, const MKL_INT *stride_ipiv, MKL_Complex8 *ainv,
    const MKL_INT *ldainv, const MKL_INT *stride_ainv, const MKL_INT *batch_size, MKL_INT *info);

/* double complex */
BATCHBLAS_API void cblas_zgemm_batch(const CBLAS_LAYOUT Layout, const CBLAS_TRANSPOSE *transa_array,
    const CBLAS_TRANSPOSE *transb_array, const MKL_INT *m_array, const MKL_INT *n_array,
    const MKL_INT *k_array, const void *alpha_array, const void **a_array, const MKL_INT *lda_array,
    const void **b_array, const MKL_INT *ldb_array, const void *beta_array, void **c_array,
    const MKL_INT *ldc_array, const MKL_INT group_count, const MKL_INT *group_size);
BATCHBLAS_API void cblas_zgemm_batch_strided(const CBLAS_LAYOUT Layout, const CBLAS_TRANSPOSE TransA,
    const CBLAS_TRANSPOSE TransB, const MKL_INT M, const MKL_INT N, const MKL_INT K,
    const void *alpha, const void *A, const MKL_INT lda, const MKL_INT stridea, const void *B,
    const MKL_INT ldb, const MKL_INT strideb, const void *beta, void *C, const MKL_INT ldc,
    const MKL_INT stridec, const MKL_INT batch_size);
BATCHBLAS_API void cblas_ztrsm_batch(const CBLAS_LAYOUT Layout, const CBLAS_SIDE *Side_Array,
    const CBLAS_UPLO *Uplo_Array, const CBLAS_TRANSPOSE *Transa_Array, const CBLAS_DIAG *Diag_Array,
    const MKL_INT *M_Array, const MKL_INT *N_Array, const void *alpha_Array, const void **A_Array,
    const MKL_INT *lda_Array, void **B_Array, const MKL_INT *ldb_Array, const MKL_INT group_count,
    const MKL_INT *group_size);
BATCHBLAS_API void cblas_ztrsm_batch_strided(const CBLAS_LAYOUT Layout, const CBLAS_SIDE Side,
    const CBLAS_UPLO Uplo, const CBLAS_TRANSPOSE TransA, const CBLAS_DIAG Diag, const MKL_INT M,
    const MKL_INT N, const void *alpha, const void *A, const MKL_INT lda, const MKL_INT stridea, void *B,
    const MKL_INT ldb, const MKL_INT strideb, const MKL_INT batch_size);
BATCHBLAS_API void zgetrf_batch(const MKL_INT *m, const MKL_INT *n, MKL_Complex16 **a, const MKL_INT *lda,
    MKL_INT **ipiv, const MKL_INT *group_count, const MKL_INT *group_size, MKL_INT *info);
BATCHBLAS_API void zgetrf_batch_strided(const MKL_INT *m, const MKL_INT *n, MKL_Complex16 *a, const MKL_INT *lda,
    const MKL_INT *stride_a, MKL_INT *ipiv, const MKL_INT *stride_ipiv, const MKL_INT *batch_size,
    MKL_INT *info);
BATCHBLAS_API void zgetrs_batch_strided(const char *trans, const MKL_INT *n, const MKL_INT *nrhs,
    const MKL_Complex16 *a, const MKL_INT *lda, const MKL_INT *stride_a, const MKL_INT *ipiv,
    const MKL_INT *stride_ipiv, MKL_Complex16 *b, const MKL_INT *ldb, const MKL_INT *stride_b,
    const MKL_INT *batch_size, MKL_INT *info);
BATCHBLAS_API void zgetri_oop_batch(const MKL_INT *n, const MKL_Complex16 **a, const MKL_INT *lda,
    const MKL_INT **ipiv, MKL_Complex16 **ainv, const MKL_INT *ldainv, const MKL_INT *group_count,
    const MKL_INT *group_size, MKL_INT *info);
BATCHBLAS_API void zgetri_oop_batch_strided(const MKL_INT *n, const MKL_Complex16 *a, const MKL_INT *lda,
    const MKL_INT *stride_a, const MKL_INT *ipiv, const MKL_INT *stride_ipiv, MKL_Complex16 *ainv,
    const MKL_INT *ldainv, const MKL_INT *stride_ainv, const MKL_INT *batch_size, MKL_INT *info);

/* ---- MKL's Fortran names ------------------------------------------------
   Lower case with a trailing underscore, every argument by reference,
   column-major, options as single characters ('N'/'T'/'C', 'L'/'R',
   'U'/'L', 'N'/'U'; the group forms take one character per group), as MKL's
   Fortran interface (LP64: INTEGER is MKL_INT = int, strides included; the
   pointer arrays of the group forms are INTEGER*8 / type(c_ptr) arrays of
   addresses).  Hidden character lengths that Fortran compilers append are
   ignored.  Call them from Fortran as `call dgetrf_batch_strided(...)`. */

BATCHBLAS_API void sgemm_batch_(const char *transa_array, const char *transb_array,
    const MKL_INT *m_array, const MKL_INT *n_array, const MKL_INT *k_array, const float *alpha_array,
    const float **a_array, const MKL_INT *lda_array, const float **b_array, const MKL_INT *ldb_array,
    const float *beta_array, float **c_array, const MKL_INT *ldc_array, const MKL_INT *group_count,
    const MKL_INT *group_size);
BATCHBLAS_API void sgemm_batch_strided_(const char *transa, const char *transb,
    const MKL_INT *m, const MKL_INT *n, const MKL_INT *k, const float *alpha, const float *a,
    const MKL_INT *lda, const MKL_INT *stridea, const float *b, const MKL_INT *ldb,
    const MKL_INT *strideb, const float *beta, float *c, const MKL_INT *ldc, const MKL_INT *stridec,
    const MKL_INT *batch_size);
BATCHBLAS_API void strsm_batch_(const char *side_array, const char *uplo_array,
    const char *transa_array, const char *diag_array, const MKL_INT *m_array,
    const MKL_INT *n_array, const float *alpha_array, const float **a_array, const MKL_INT *lda_array,
    float **b_array, const MKL_INT *ldb_array, const MKL_INT *group_count, const MKL_INT *group_size);
BATCHBLAS_API void strsm_batch_strided_(const char *side, const char *uplo, const char *transa,
    const char *diag, const MKL_INT *m, const MKL_INT *n, const float *alpha, const float *a,
    const MKL_INT *lda, const MKL_INT *stridea, float *b, const MKL_INT *ldb, const MKL_INT *strideb,
    const MKL_INT *batch_size);
BATCHBLAS_API void sgetrf_batch_(const MKL_INT *m, const MKL_INT *n, float **a, const MKL_INT *lda,
    MKL_INT **ipiv, const MKL_INT *group_count, const MKL_INT *group_size, MKL_INT *info);
BATCHBLAS_API void sgetrf_batch_strided_(const MKL_INT *m, const MKL_INT *n, float *a,
    const MKL_INT *lda, const MKL_INT *stride_a, MKL_INT *ipiv, const MKL_INT *stride_ipiv,
    const MKL_INT *batch_size, MKL_INT *info);
BATCHBLAS_API void sgetrs_batch_strided_(const char *trans, const MKL_INT *n, const MKL_INT *nrhs,
    const float *a, const MKL_INT *lda, const MKL_INT *stride_a, const MKL_INT *ipiv,
    const MKL_INT *stride_ipiv, float *b, const MKL_INT *ldb, const MKL_INT *stride_b,
    const MKL_INT *batch_size, MKL_INT *info);
BATCHBLAS_API void sgetri_oop_batch_(const MKL_INT *n, const float **a, const MKL_INT *lda,
    const MKL_INT **ipiv, float **ainv, const MKL_INT *ldainv, const MKL_INT *group_count,
    const MKL_INT *group_size, MKL_INT *info);
BATCHBLAS_API void sgetri_oop_batch_strided_(const MKL_INT *n, const float *a, const MKL_INT *lda,
    const MKL_INT *stride_a, const MKL_INT *ipiv, const MKL_INT *stride_ipiv, float *ainv,
    const MKL_INT *ldainv, const MKL_INT *stride_ainv, const MKL_INT *batch_size, MKL_INT *info);

BATCHBLAS_API void dgemm_batch_(const char *transa_array, const char *transb_array,
    const MKL_INT *m_array, const MKL_INT *n_array, const MKL_INT *k_array, const double *alpha_array,
    const double **a_array, const MKL_INT *lda_array, const double **b_array, const MKL_INT *ldb_array,
    const double *beta_array, double **c_array, const MKL_INT *ldc_array, const MKL_INT *group_count,
    const MKL_INT *group_size);
BATCHBLAS_API void dgemm_batch_strided_(const char *transa, const char *transb,
    const MKL_INT *m, const MKL_INT *n, const MKL_INT *k, const double *alpha, const double *a,
    const MKL_INT *lda, const MKL_INT *stridea, const double *b, const MKL_INT *ldb,
    const MKL_INT *strideb, const double *beta, double *c, const MKL_INT *ldc, const MKL_INT *stridec,
    const MKL_INT *batch_size);
BATCHBLAS_API void dtrsm_batch_(const char *side_array, const char *uplo_array,
    const char *transa_array, const char *diag_array, const MKL_INT *m_array,
    const MKL_INT *n_array, const double *alpha_array, const double **a_array, const MKL_INT *lda_array,
    double **b_array, const MKL_INT *ldb_array, const MKL_INT *group_count, const MKL_INT *group_size);
BATCHBLAS_API void dtrsm_batch_strided_(const char *side, const char *uplo, const char *transa,
    const char *diag, const MKL_INT *m, const MKL_INT *n, const double *alpha, const double *a,
    const MKL_INT *lda, const MKL_INT *stridea, double *b, const MKL_INT *ldb, const MKL_INT *strideb,
    const MKL_INT *batch_size);
BATCHBLAS_API void dgetrf_batch_(const MKL_INT *m, const MKL_INT *n, double **a, const MKL_INT *lda,
    MKL_INT **ipiv, const MKL_INT *group_count, const MKL_INT *group_size, MKL_INT *info);
BATCHBLAS_API void dgetrf_batch_strided_(const MKL_INT *m, const MKL_INT *n, double *a,
    const MKL_INT *lda, const MKL_INT *stride_a, MKL_INT *ipiv, const MKL_INT *stride_ipiv,
    const MKL_INT *batch_size, MKL_INT *info);
BATCHBLAS_API void dgetrs_batch_strided_(const char *trans, const MKL_INT *n, const MKL_INT *nrhs,
    const double *a, const MKL_INT *lda, const MKL_INT *stride_a, const MKL_INT *ipiv,
    const MKL_INT *stride_ipiv, double *b, const MKL_INT *ldb, const MKL_INT *stride_b,
    const MKL_INT *batch_size, MKL_INT *info);
BATCHBLAS_API void dgetri_oop_batch_(const MKL_INT *n, const double **a, const MKL_INT *lda,
    const MKL_INT **ipiv, double **ainv, const MKL_INT *ldainv, const MKL_INT *group_count,
    const MKL_INT *group_size, MKL_INT *info);
BATCHBLAS_API void dgetri_oop_batch_strided_(const MKL_INT *n, const double *a, const MKL_INT *lda,
    const MKL_INT *stride_a, const MKL_INT *ipiv, const MKL_INT *stride_ipiv, double *ainv,
    const MKL_INT *ldainv, const MKL_INT *stride_ainv, const MKL_INT *batch_size, MKL_INT *info);

BATCHBLAS_API void cgemm_batch_(const char *transa_array, const char *transb_array,
    const MKL_INT *m_array, const MKL_INT *n_array, const MKL_INT *k_array, const MKL_Complex8 *alpha_array,
    const MKL_Complex8 **a_array, const MKL_INT *lda_array, const MKL_Complex8 **b_array, const MKL_INT *ldb_array,
    const MKL_Complex8 *beta_array, MKL_Complex8 **c_array, const MKL_INT *ldc_array, const MKL_INT *group_count,
    const MKL_INT *group_size);
BATCHBLAS_API void cgemm_batch_strided_(const char *transa, const char *transb,
    const MKL_INT *m, const MKL_INT *n, const MKL_INT *k, const MKL_Complex8 *alpha, const MKL_Complex8 *a,
    const MKL_INT *lda, const MKL_INT *stridea, const MKL_Complex8 *b, const MKL_INT *ldb,
    const MKL_INT *strideb, const MKL_Complex8 *beta, MKL_Complex8 *c, const MKL_INT *ldc, const MKL_INT *stridec,
    const MKL_INT *batch_size);
BATCHBLAS_API void ctrsm_batch_(const char *side_array, const char *uplo_array,
    const char *transa_array, const char *diag_array, const MKL_INT *m_array,
    const MKL_INT *n_array, const MKL_Complex8 *alpha_array, const MKL_Complex8 **a_array, const MKL_INT *lda_array,
    MKL_Complex8 **b_array, const MKL_INT *ldb_array, const MKL_INT *group_count, const MKL_INT *group_size);
BATCHBLAS_API void ctrsm_batch_strided_(const char *side, const char *uplo, const char *transa,
    const char *diag, const MKL_INT *m, const MKL_INT *n, const MKL_Complex8 *alpha, const MKL_Complex8 *a,
    const MKL_INT *lda, const MKL_INT *stridea, MKL_Complex8 *b, const MKL_INT *ldb, const MKL_INT *strideb,
    const MKL_INT *batch_size);
BATCHBLAS_API void cgetrf_batch_(const MKL_INT *m, const MKL_INT *n, MKL_Complex8 **a, const MKL_INT *lda,
    MKL_INT **ipiv, const MKL_INT *group_count, const MKL_INT *group_size, MKL_INT *info);
BATCHBLAS_API void cgetrf_batch_strided_(const MKL_INT *m, const MKL_INT *n, MKL_Complex8 *a,
    const MKL_INT *lda, const MKL_INT *stride_a, MKL_INT *ipiv, const MKL_INT *stride_ipiv,
    const MKL_INT *batch_size, MKL_INT *info);
BATCHBLAS_API void cgetrs_batch_strided_(const char *trans, const MKL_INT *n, const MKL_INT *nrhs,
    const MKL_Complex8 *a, const MKL_INT *lda, const MKL_INT *stride_a, const MKL_INT *ipiv,
    const MKL_INT *stride_ipiv, MKL_Complex8 *b, const MKL_INT *ldb, const MKL_INT *stride_b,
    const MKL_INT *batch_size, MKL_INT *info);
BATCHBLAS_API void cgetri_oop_batch_(const MKL_INT *n, const MKL_Complex8 **a, const MKL_INT *lda,
    const MKL_INT **ipiv, MKL_Complex8 **ainv, const MKL_INT *ldainv, const MKL_INT *group_count,
    const MKL_INT *group_size, MKL_INT *info);
BATCHBLAS_API void cgetri_oop_batch_strided_(const MKL_INT *n, const MKL_Complex8 *a, const MKL_INT *lda,
    const MKL_INT *stride_a, const MKL_INT *ipiv, const MKL_INT *stride_ipiv, MKL_Complex8 *ainv,
    const MKL_INT *ldainv, const MKL_INT *stride_ainv, const MKL_INT *batch_size, MKL_INT *info);

BATCHBLAS_API void zgemm_batch_(const char *transa_array, const char *transb_array,
    const MKL_INT *m_array, const MKL_INT *n_array, const MKL_INT *k_array, const MKL_Complex16 *alpha_array,
    const MKL_Complex16 **a_array, const MKL_INT *lda_array, const MKL_Complex16 **b_array, const MKL_INT *ldb_array,
    const MKL_Complex16 *beta_array, MKL_Complex16 **c_array, const MKL_INT *ldc_array, const MKL_INT *group_count,
    const MKL_INT *group_size);
BATCHBLAS_API void zgemm_batch_strided_(const char *transa, const char *transb,
    const MKL_INT *m, const MKL_INT *n, const MKL_INT *k, const MKL_Complex16 *alpha, const MKL_Complex16 *a,
    const MKL_INT *lda, const MKL_INT *stridea, const MKL_Complex16 *b, const MKL_INT *ldb,
    const MKL_INT *strideb, const MKL_Complex16 *beta, MKL_Complex16 *c, const MKL_INT *ldc, const MKL_INT *stridec,
    const MKL_INT *batch_size);
BATCHBLAS_API void ztrsm_batch_(const char *side_array, const char *uplo_array,
    const char *transa_array, const char *diag_array, const MKL_INT *m_array,
    const MKL_INT *n_array, const MKL_Complex16 *alpha_array, const MKL_Complex16 **a_array, const MKL_INT *lda_array,
    MKL_Complex16 **b_array, const MKL_INT *ldb_array, const MKL_INT *group_count, const MKL_INT *group_size);
BATCHBLAS_API void ztrsm_batch_strided_(const char *side, const char *uplo, const char *transa,
    const char *diag, const MKL_INT *m, const MKL_INT *n, const MKL_Complex16 *alpha, const MKL_Complex16 *a,
    const MKL_INT *lda, const MKL_INT *stridea, MKL_Complex16 *b, const MKL_INT *ldb, const MKL_INT *strideb,
    const MKL_INT *batch_size);
BATCHBLAS_API void zgetrf_batch_(const MKL_INT *m, const MKL_INT *n, MKL_Complex16 **a, const MKL_INT *lda,
    MKL_INT **ipiv, const MKL_INT *group_count, const MKL_INT *group_size, MKL_INT *info);
BATCHBLAS_API void zgetrf_batch_strided_(const MKL_INT *m, const MKL_INT *n, MKL_Complex16 *a,
    const MKL_INT *lda, const MKL_INT *stride_a, MKL_INT *ipiv, const MKL_INT *stride_ipiv,
    const MKL_INT *batch_size, MKL_INT *info);
BATCHBLAS_API void zgetrs_batch_strided_(const char *trans, const MKL_INT *n, const MKL_INT *nrhs,
    const MKL_Complex16 *a, const MKL_INT *lda, const MKL_INT *stride_a, const MKL_INT *ipiv,
    const MKL_INT *stride_ipiv, MKL_Complex16 *b, const MKL_INT *ldb, const MKL_INT *stride_b,
    const MKL_INT *batch_size, MKL_INT *info);
BATCHBLAS_API void zgetri_oop_batch_(const MKL_INT *n, const MKL_Complex16 **a, const MKL_INT *lda,
    const MKL_INT **ipiv, MKL_Complex16 **ainv, const MKL_INT *ldainv, const MKL_INT *group_count,
    const MKL_INT *group_size, MKL_INT *info);
BATCHBLAS_API void zgetri_oop_batch_strided_(const MKL_INT *n, const MKL_Complex16 *a, const MKL_INT *lda,
    const MKL_INT *stride_a, const MKL_INT *ipiv, const MKL_INT *stride_ipiv, MKL_Complex16 *ainv,
    const MKL_INT *ldainv, const MKL_INT *stride_ainv, const MKL_INT *batch_size, MKL_INT *info);

/* ---- cblas_[cz]gemm3m_batch[_strided]: MKL's 3M complex gemm names, the
   same product through the complex gemm path ------------------------------ */

BATCHBLAS_API void cblas_cgemm3m_batch(const CBLAS_LAYOUT Layout, const CBLAS_TRANSPOSE *transa_array,
    const CBLAS_TRANSPOSE *transb_array, const MKL_INT *m_array, const MKL_INT *n_array,
    const MKL_INT *k_array, const void *alpha_array, const void **a_array, const MKL_INT *lda_array,
    const void **b_array, const MKL_INT *ldb_array, const void *beta_array, void **c_array,
    const MKL_INT *ldc_array, const MKL_INT group_count, const MKL_INT *group_size);
BATCHBLAS_API void cblas_cgemm3m_batch_strided(const CBLAS_LAYOUT Layout, const CBLAS_TRANSPOSE TransA,
    const CBLAS_TRANSPOSE TransB, const MKL_INT M, const MKL_INT N, const MKL_INT K,
    const void *alpha, const void *A, const MKL_INT lda, const MKL_INT stridea, const void *B,
    const MKL_INT ldb, const MKL_INT strideb, const void *beta, void *C, const MKL_INT ldc,
    const MKL_INT stridec, const MKL_INT batch_size);

BATCHBLAS_API void cblas_zgemm3m_batch(const CBLAS_LAYOUT Layout, const CBLAS_TRANSPOSE *transa_array,
    const CBLAS_TRANSPOSE *transb_array, const MKL_INT *m_array, const MKL_INT *n_array,
    const MKL_INT *k_array, const void *alpha_array, const void **a_array, const MKL_INT *lda_array,
    const void **b_array, const MKL_INT *ldb_array, const void *beta_array, void **c_array,
    const MKL_INT *ldc_array, const MKL_INT group_count, const MKL_INT *group_size);
BATCHBLAS_API void cblas_zgemm3m_batch_strided(const CBLAS_LAYOUT Layout, const CBLAS_TRANSPOSE TransA,
    const CBLAS_TRANSPOSE TransB, const MKL_INT M, const MKL_INT N, const MKL_INT K,
    const void *alpha, const void *A, const MKL_INT lda, const MKL_INT stridea, const void *B,
    const MKL_INT ldb, const MKL_INT strideb, const void *beta, void *C, const MKL_INT ldc,
    const MKL_INT stridec, const MKL_INT batch_size);

#ifdef __cplusplus
}
#endif
#endif /* BATCHBLAS_MKL_H */
