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

/* ---- MKL's Fortran names (lower case, trailing underscore, every argument
   by reference; options as characters; column-major).  gfortran and ifx
   append the hidden lengths of character arguments after the last one: the
   adapters read one character each and ignore them. ----------------------- */

BATCHBLAS_API void LP(gemm_batch_)(const char *transa_array, const char *transb_array,
    const MKL_INT *m_array, const MKL_INT *n_array, const MKL_INT *k_array, const LT *alpha_array,
    const LT **a_array, const MKL_INT *lda_array, const LT **b_array, const MKL_INT *ldb_array,
    const LT *beta_array, LT **c_array, const MKL_INT *ldc_array, const MKL_INT *group_count,
    const MKL_INT *group_size)
{
    bblas_enum_t sa[SHIM_STACK] = {0}, sb[SHIM_STACK] = {0};
    bblas_enum_t *ta = shim_opts(transa_array, *group_count, shim_trans, sa);
    bblas_enum_t *tb = shim_opts(transb_array, *group_count, shim_trans, sb);
    NB(gemm_batch)(*group_count, group_size, BblasColMajor, ta, tb, m_array, n_array, k_array,
                   (const NT *)alpha_array, IN_ARR(a_array), lda_array, IN_ARR(b_array),
                   ldb_array, (const NT *)beta_array, OUT_ARR(c_array), ldc_array, NULL);
    shim_opts_free(ta, sa);
    shim_opts_free(tb, sb);
}

BATCHBLAS_API void LP(gemm_batch_strided_)(const char *transa, const char *transb,
    const MKL_INT *m, const MKL_INT *n, const MKL_INT *k, const LT *alpha, const LT *a,
    const MKL_INT *lda, const MKL_INT *stridea, const LT *b, const MKL_INT *ldb,
    const MKL_INT *strideb, const LT *beta, LT *c, const MKL_INT *ldc, const MKL_INT *stridec,
    const MKL_INT *batch_size)
{
    NB(gemm_batch_strided)(BblasColMajor, shim_trans(transa), shim_trans(transb), *m, *n, *k,
                           *(const NT *)alpha, (const NT *)a, *lda, *stridea, (const NT *)b,
                           *ldb, *strideb, *(const NT *)beta, (NT *)c, *ldc, *stridec,
                           *batch_size, NULL);
}

BATCHBLAS_API void LP(trsm_batch_)(const char *side_array, const char *uplo_array,
    const char *transa_array, const char *diag_array, const MKL_INT *m_array,
    const MKL_INT *n_array, const LT *alpha_array, const LT **a_array, const MKL_INT *lda_array,
    LT **b_array, const MKL_INT *ldb_array, const MKL_INT *group_count, const MKL_INT *group_size)
{
    bblas_enum_t ss[SHIM_STACK] = {0}, su[SHIM_STACK] = {0}, st[SHIM_STACK] = {0}, sd[SHIM_STACK] = {0};
    bblas_enum_t *side = shim_opts(side_array, *group_count, shim_side, ss);
    bblas_enum_t *uplo = shim_opts(uplo_array, *group_count, shim_uplo, su);
    bblas_enum_t *ta = shim_opts(transa_array, *group_count, shim_trans, st);
    bblas_enum_t *diag = shim_opts(diag_array, *group_count, shim_diag, sd);
    NB(trsm_batch)(*group_count, group_size, BblasColMajor, side, uplo, ta, diag, m_array,
                   n_array, (const NT *)alpha_array, IN_ARR(a_array), lda_array,
                   OUT_ARR(b_array), ldb_array, NULL);
    shim_opts_free(side, ss);
    shim_opts_free(uplo, su);
    shim_opts_free(ta, st);
    shim_opts_free(diag, sd);
}

BATCHBLAS_API void LP(trsm_batch_strided_)(const char *side, const char *uplo, const char *transa,
    const char *diag, const MKL_INT *m, const MKL_INT *n, const LT *alpha, const LT *a,
    const MKL_INT *lda, const MKL_INT *stridea, LT *b, const MKL_INT *ldb, const MKL_INT *strideb,
    const MKL_INT *batch_size)
{
    NB(trsm_batch_strided)(BblasColMajor, shim_side(side), shim_uplo(uplo), shim_trans(transa),
                           shim_diag(diag), *m, *n, *(const NT *)alpha, (const NT *)a, *lda,
                           *stridea, (NT *)b, *ldb, *strideb, *batch_size, NULL);
}

/* The LAPACK ones already have MKL's Fortran argument lists. */
BATCHBLAS_API void LP(getrf_batch_)(const MKL_INT *m, const MKL_INT *n, LT **a, const MKL_INT *lda,
    MKL_INT **ipiv, const MKL_INT *group_count, const MKL_INT *group_size, MKL_INT *info)
{
    LP(getrf_batch)(m, n, a, lda, ipiv, group_count, group_size, info);
}

BATCHBLAS_API void LP(getrf_batch_strided_)(const MKL_INT *m, const MKL_INT *n, LT *a,
    const MKL_INT *lda, const MKL_INT *stride_a, MKL_INT *ipiv, const MKL_INT *stride_ipiv,
    const MKL_INT *batch_size, MKL_INT *info)
{
    LP(getrf_batch_strided)(m, n, a, lda, stride_a, ipiv, stride_ipiv, batch_size, info);
}

BATCHBLAS_API void LP(getrs_batch_strided_)(const char *trans, const MKL_INT *n, const MKL_INT *nrhs,
    const LT *a, const MKL_INT *lda, const MKL_INT *stride_a, const MKL_INT *ipiv,
    const MKL_INT *stride_ipiv, LT *b, const MKL_INT *ldb, const MKL_INT *stride_b,
    const MKL_INT *batch_size, MKL_INT *info)
{
    LP(getrs_batch_strided)(trans, n, nrhs, a, lda, stride_a, ipiv, stride_ipiv, b, ldb, stride_b,
                            batch_size, info);
}

BATCHBLAS_API void LP(getri_oop_batch_)(const MKL_INT *n, const LT **a, const MKL_INT *lda,
    const MKL_INT **ipiv, LT **ainv, const MKL_INT *ldainv, const MKL_INT *group_count,
    const MKL_INT *group_size, MKL_INT *info)
{
    LP(getri_oop_batch)(n, a, lda, ipiv, ainv, ldainv, group_count, group_size, info);
}

BATCHBLAS_API void LP(getri_oop_batch_strided_)(const MKL_INT *n, const LT *a, const MKL_INT *lda,
    const MKL_INT *stride_a, const MKL_INT *ipiv, const MKL_INT *stride_ipiv, LT *ainv,
    const MKL_INT *ldainv, const MKL_INT *stride_ainv, const MKL_INT *batch_size, MKL_INT *info)
{
    LP(getri_oop_batch_strided)(n, a, lda, stride_a, ipiv, stride_ipiv, ainv, ldainv, stride_ainv,
                                batch_size, info);
}

/* ---- cblas_[cz]gemm3m_batch[_strided]: MKL's 3M complex gemm; the same
   product, computed by the complex gemm path. ------------------------------ */
#if defined(SHIM_C) || defined(SHIM_Z)
BATCHBLAS_API void CB(gemm3m_batch)(const CBLAS_LAYOUT Layout, const CBLAS_TRANSPOSE *transa_array,
    const CBLAS_TRANSPOSE *transb_array, const MKL_INT *m_array, const MKL_INT *n_array,
    const MKL_INT *k_array, const VT *alpha_array, const VT **a_array, const MKL_INT *lda_array,
    const VT **b_array, const MKL_INT *ldb_array, const VT *beta_array, VT **c_array,
    const MKL_INT *ldc_array, const MKL_INT group_count, const MKL_INT *group_size)
{
    CB(gemm_batch)(Layout, transa_array, transb_array, m_array, n_array, k_array, alpha_array,
                   a_array, lda_array, b_array, ldb_array, beta_array, c_array, ldc_array,
                   group_count, group_size);
}

BATCHBLAS_API void CB(gemm3m_batch_strided)(const CBLAS_LAYOUT Layout, const CBLAS_TRANSPOSE TransA,
    const CBLAS_TRANSPOSE TransB, const MKL_INT M, const MKL_INT N, const MKL_INT K,
    SCAL alpha, const VT *A, const MKL_INT lda, const MKL_INT stridea, const VT *B,
    const MKL_INT ldb, const MKL_INT strideb, SCAL beta, VT *C, const MKL_INT ldc,
    const MKL_INT stridec, const MKL_INT batch_size)
{
    CB(gemm_batch_strided)(Layout, TransA, TransB, M, N, K, alpha, A, lda, stridea, B, ldb,
                           strideb, beta, C, ldc, stridec, batch_size);
}
#endif

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
