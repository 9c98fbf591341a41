/*
 * CPU kernel policy: the crossover sizes where a kernel switches from our own
 * small-size code to OpenBLAS/LAPACKE.  One named constant per decision,
 * measured with batchblas-bench (doc/performance.md).  Each family edits only
 * its own section.
 */
#ifndef BB_CPU_POLICY_H
#define BB_CPU_POLICY_H

/* ---- BLAS-3 (src/cpu/blas3.c) ---- */
/* gemm: own loops while m*n*k <= this, OpenBLAS above */
#define BB_CPU_GEMM_OWN_MAX_MNK 4096
/* symm, hemm: own loops while m*n*ka <= this (ka = m left, n right) */
#define BB_CPU_SYMM_OWN_MAX_MNK 4096
/* syrk, herk: own loops while n*n*k <= this */
#define BB_CPU_SYRK_OWN_MAX_NNK 4096
/* syr2k, her2k: own loops while n*n*k <= this */
#define BB_CPU_SYR2K_OWN_MAX_NNK 4096
/* trmm: own loops while m*n*ka <= this (ka = m left, n right) */
#define BB_CPU_TRMM_OWN_MAX_MNK 4096
/* trsm: own loops while m*n*ka <= this (ka = m left, n right) */
#define BB_CPU_TRSM_OWN_MAX_MNK 4096

/* ---- Cholesky family (src/cpu/chol.c) ---- */
/* own loops while n <= this, LAPACKE/CBLAS above (posv, poti, potri use
   the potrf, potrs, trtri and lauum decisions) */
#define BB_CPU_POTRF_OWN_MAX_N 64
#define BB_CPU_POTRS_OWN_MAX_N 64
#define BB_CPU_TRTRI_OWN_MAX_N 64
#define BB_CPU_LAUUM_OWN_MAX_N 64

/* ---- LU family (src/cpu/lu.c) ---- */
/* getrf, getrfnp (and gesv's factorisation): unblocked own code while
   min(m,n) <= this; above, recursion on column halves with CBLAS trsm/gemm
   down to panels of min(m,n) <= BB_CPU_LU_REC_BASE */
#define BB_CPU_GETRF_OWN_MAX 32
#define BB_CPU_GETRFNP_OWN_MAX 32
#define BB_CPU_LU_REC_BASE 16
/* getrs (and gesv's solve): own solves while n <= this, LAPACKE above */
#define BB_CPU_GETRS_OWN_MAX 64
/* getri, getri_oop: own inversion while n <= this, LAPACKE above with a
   workspace of n * BB_CPU_GETRI_NB elements */
#define BB_CPU_GETRI_OWN_MAX 64
#define BB_CPU_GETRI_NB 64
/* gecon: own estimator while n <= this, LAPACKE above */
#define BB_CPU_GECON_OWN_MAX 256

/* ---- norms and condition numbers (src/cpu/norm.c) ---- */
/* gecond: own Gauss-Jordan inversion while n <= this, LAPACKE getrf+getri above */
#define BB_CPU_GECOND_OWN_MAX 64

#endif
