/*
 * The MKL-name adapters of one precision; included by mkl_shim.c once per
 * precision with SHIM_S, SHIM_D, SHIM_C or SHIM_Z defined.
 *   NT      the native element type
 *   VT      MKL's CBLAS element type (void for complex)
 *   LT      MKL's LAPACK element type (MKL_Complex8/16 for complex)
 *   SCAL    MKL's CBLAS strided scalar parameter (by value, or const void *)
 *   SVAL(x) that scalar as NT
 */
#if defined(SHIM_S)
#  define NT float
#  define VT float
#  define LT float
#  define SCAL const float
#  define SVAL(x) (x)
#  define CB(name) cblas_s##name
#  define LP(name) s##name
#  define NB(name) blas_s##name
#  define NL(name) lapack_s##name
#elif defined(SHIM_D)
#  define NT double
#  define VT double
#  define LT double
#  define SCAL const double
#  define SVAL(x) (x)
#  define CB(name) cblas_d##name
#  define LP(name) d##name
#  define NB(name) blas_d##name
#  define NL(name) lapack_d##name
#elif defined(SHIM_C)
#  define NT bblas_complex32_t
#  define VT void
#  define LT MKL_Complex8
#  define SCAL const void *
#  define SVAL(x) (*(const NT *)(x))
#  define CB(name) cblas_c##name
#  define LP(name) c##name
#  define NB(name) blas_c##name
#  define NL(name) lapack_c##name
#elif defined(SHIM_Z)
#  define NT bblas_complex64_t
#  define VT void
#  define LT MKL_Complex16
#  define SCAL const void *
#  define SVAL(x) (*(const NT *)(x))
#  define CB(name) cblas_z##name
#  define LP(name) z##name
#  define NB(name) blas_z##name
#  define NL(name) lapack_z##name
#endif

#define IN_ARR(p) ((NT const *const *)(p))
#define OUT_ARR(p) ((NT **)(p))
#define OPTS(p) ((const bblas_enum_t *)(p))

/* ---- CBLAS (no info: errors go to the BatchBLAS error handler) ------------ */

BATCHBLAS_API void CB(gemm_batch)(const CBLAS_LAYOUT Layout, const CBLAS_TRANSPOSE *transa_array,
    const CBLAS_TRANSPOSE *transb_array, const MKL_INT *m_array, const MKL_INT *n_array,
    const MKL_INT *k_array, const VT *alpha_array, const VT **a_array, const MKL_INT *lda_array,
    const VT **b_array, const MKL_INT *ldb_array, const VT *beta_array, VT **c_array,
    const MKL_INT *ldc_array, const MKL_INT group_count, const MKL_INT *group_size)
{
    NB(gemm_batch)(group_count, group_size, (bblas_enum_t)Layout, OPTS(transa_array),
                   OPTS(transb_array), m_array, n_array, k_array, (const NT *)alpha_array,
                   IN_ARR(a_array), lda_array, IN_ARR(b_array), ldb_array,
                   (const NT *)beta_array, OUT_ARR(c_array), ldc_array, NULL);
}

BATCHBLAS_API void CB(gemm_batch_strided)(const CBLAS_LAYOUT Layout, const CBLAS_TRANSPOSE TransA,
    const CBLAS_TRANSPOSE TransB, const MKL_INT M, const MKL_INT N, const MKL_INT K,
    SCAL alpha, const VT *A, const MKL_INT lda, const MKL_INT stridea, const VT *B,
    const MKL_INT ldb, const MKL_INT strideb, SCAL beta, VT *C, const MKL_INT ldc,
    const MKL_INT stridec, const MKL_INT batch_size)
{
    NB(gemm_batch_strided)((bblas_enum_t)Layout, (bblas_enum_t)TransA, (bblas_enum_t)TransB, M,
                           N, K, SVAL(alpha), (const NT *)A, lda, stridea, (const NT *)B, ldb,
                           strideb, SVAL(beta), (NT *)C, ldc, stridec, batch_size, NULL);
}

BATCHBLAS_API void CB(trsm_batch)(const CBLAS_LAYOUT Layout, const CBLAS_SIDE *Side_Array,
    const CBLAS_UPLO *Uplo_Array, const CBLAS_TRANSPOSE *Transa_Array, const CBLAS_DIAG *Diag_Array,
    const MKL_INT *M_Array, const MKL_INT *N_Array, const VT *alpha_Array, const VT **A_Array,
    const MKL_INT *lda_Array, VT **B_Array, const MKL_INT *ldb_Array, const MKL_INT group_count,
    const MKL_INT *group_size)
{
    NB(trsm_batch)(group_count, group_size, (bblas_enum_t)Layout, OPTS(Side_Array),
                   OPTS(Uplo_Array), OPTS(Transa_Array), OPTS(Diag_Array), M_Array, N_Array,
                   (const NT *)alpha_Array, IN_ARR(A_Array), lda_Array, OUT_ARR(B_Array),
                   ldb_Array, NULL);
}

BATCHBLAS_API void CB(trsm_batch_strided)(const CBLAS_LAYOUT Layout, const CBLAS_SIDE Side,
    const CBLAS_UPLO Uplo, const CBLAS_TRANSPOSE TransA, const CBLAS_DIAG Diag, const MKL_INT M,
    const MKL_INT N, SCAL alpha, const VT *A, const MKL_INT lda, const MKL_INT stridea, VT *B,
    const MKL_INT ldb, const MKL_INT strideb, const MKL_INT batch_size)
{
    NB(trsm_batch_strided)((bblas_enum_t)Layout, (bblas_enum_t)Side, (bblas_enum_t)Uplo,
                           (bblas_enum_t)TransA, (bblas_enum_t)Diag, M, N, SVAL(alpha),
                           (const NT *)A, lda, stridea, (NT *)B, ldb, strideb, batch_size, NULL);
}

/* ---- LAPACK style (Fortran: everything by pointer, column-major) --------- */

BATCHBLAS_API void LP(getrf_batch)(const MKL_INT *m, const MKL_INT *n, LT **a, const MKL_INT *lda,
    MKL_INT **ipiv, const MKL_INT *group_count, const MKL_INT *group_size, MKL_INT *info)
{
    SHIM_CALL_LAPACK(shim_group_total(*group_count, group_size), map_getrf_batch,
                     NL(getrf_batch)(*group_count, group_size, BblasColMajor, m, n, OUT_ARR(a),
                                     lda, ipiv, ni_));
}

BATCHBLAS_API void LP(getrf_batch_strided)(const MKL_INT *m, const MKL_INT *n, LT *a, const MKL_INT *lda,
    const MKL_INT *stride_a, MKL_INT *ipiv, const MKL_INT *stride_ipiv, const MKL_INT *batch_size,
    MKL_INT *info)
{
    SHIM_CALL_LAPACK(*batch_size, map_strided,
                     NL(getrf_batch_strided)(BblasColMajor, *m, *n, (NT *)a, *lda, *stride_a, ipiv,
                                             *stride_ipiv, *batch_size, ni_));
}

BATCHBLAS_API void LP(getrs_batch_strided)(const char *trans, const MKL_INT *n, const MKL_INT *nrhs,
    const LT *a, const MKL_INT *lda, const MKL_INT *stride_a, const MKL_INT *ipiv,
    const MKL_INT *stride_ipiv, LT *b, const MKL_INT *ldb, const MKL_INT *stride_b,
    const MKL_INT *batch_size, MKL_INT *info)
{
    SHIM_CALL_LAPACK(*batch_size, map_strided,
                     NL(getrs_batch_strided)(BblasColMajor, shim_trans(trans), *n, *nrhs,
                                             (const NT *)a, *lda, *stride_a, ipiv, *stride_ipiv,
                                             (NT *)b, *ldb, *stride_b, *batch_size, ni_));
}

BATCHBLAS_API void LP(getri_oop_batch)(const MKL_INT *n, const LT **a, const MKL_INT *lda,
    const MKL_INT **ipiv, LT **ainv, const MKL_INT *ldainv, const MKL_INT *group_count,
    const MKL_INT *group_size, MKL_INT *info)
{
    SHIM_CALL_LAPACK(shim_group_total(*group_count, group_size), map_getri_oop_batch,
                     NL(getri_oop_batch)(*group_count, group_size, BblasColMajor, n, IN_ARR(a),
                                         lda, (int const *const *)ipiv, OUT_ARR(ainv), ldainv,
                                         ni_));
}

BATCHBLAS_API void LP(getri_oop_batch_strided)(const MKL_INT *n, const LT *a, const MKL_INT *lda,
    const MKL_INT *stride_a, const MKL_INT *ipiv, const MKL_INT *stride_ipiv, LT *ainv,
    const MKL_INT *ldainv, const MKL_INT *stride_ainv, const MKL_INT *batch_size, MKL_INT *info)
{
    SHIM_CALL_LAPACK(*batch_size, map_strided,
                     NL(getri_oop_batch_strided)(BblasColMajor, *n, (const NT *)a, *lda,
                                                 *stride_a, ipiv, *stride_ipiv, (NT *)ainv,
                                                 *ldainv, *stride_ainv, *batch_size, ni_));
}

#undef NT
#undef VT
#undef LT
#undef SCAL
#undef SVAL
#undef CB
#undef LP
#undef NB
#undef NL
#undef IN_ARR
#undef OUT_ARR
#undef OPTS
