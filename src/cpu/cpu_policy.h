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
/* gemm: plain triple loop (no packing) while m*n*k <= this */
#define BB_CPU_GEMM_TINY_MNK 27
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
/* trsm: plain substitution (no packing) while m*n*ka <= this */
#define BB_CPU_TRSM_TINY_MNK 64

/* ---- Cholesky family (src/cpu/chol.c) ---- */
/* Own loops while n <= the constant, LAPACKE/CBLAS above; one constant per
   precision (_S, _D, _C, _Z) as in the LU family.  posv, potri and poti
   follow the potrf, potrs, trtri and lauum decisions. */
#define BB_CPU_POTRF_OWN_MAX_S 64
#define BB_CPU_POTRF_OWN_MAX_D 56
#define BB_CPU_POTRF_OWN_MAX_C 20
#define BB_CPU_POTRF_OWN_MAX_Z 20
#define BB_CPU_POTRS_OWN_MAX_S 96
#define BB_CPU_POTRS_OWN_MAX_D 96
#define BB_CPU_POTRS_OWN_MAX_C 20
#define BB_CPU_POTRS_OWN_MAX_Z 12
#define BB_CPU_TRTRI_OWN_MAX_S 192
#define BB_CPU_TRTRI_OWN_MAX_D 256
#define BB_CPU_TRTRI_OWN_MAX_C 96
#define BB_CPU_TRTRI_OWN_MAX_Z 24
#define BB_CPU_LAUUM_OWN_MAX_S 48
#define BB_CPU_LAUUM_OWN_MAX_D 48
#define BB_CPU_LAUUM_OWN_MAX_C 20
#define BB_CPU_LAUUM_OWN_MAX_Z 24
/* potrs: from this many right-hand sides on they are solved side by side
   (vectorised across them), below one or two at a time down the columns */
#define BB_CPU_POTRS_ROWS_MIN_NRHS 6

/* ---- LU family (src/cpu/lu.c) ---- */
/* Own code while the size is <= the constant, LAPACKE/CBLAS above; one
   constant per precision (_S, _D, _C, _Z): the own loops are compiled for
   the baseline ISA, where four floats share a vector but a double complex
   fills one alone, while OpenBLAS runs the machine's widest kernels. */
/* getrf (and gesv's factorisation): unblocked LU while min(m,n) <= this,
   LAPACKE getrf above */
#define BB_CPU_GETRF_OWN_MAX_S 64
#define BB_CPU_GETRF_OWN_MAX_D 48
#define BB_CPU_GETRF_OWN_MAX_C 48
#define BB_CPU_GETRF_OWN_MAX_Z 24
/* getrfnp: unblocked LU while min(m,n) <= this; above, recursion on column
   halves with CBLAS trsm/gemm down to min(m,n) <= BB_CPU_LU_REC_BASE */
#define BB_CPU_GETRFNP_OWN_MAX_S 48
#define BB_CPU_GETRFNP_OWN_MAX_D 32
#define BB_CPU_GETRFNP_OWN_MAX_C 24
#define BB_CPU_GETRFNP_OWN_MAX_Z 24
#define BB_CPU_LU_REC_BASE 16
/* getrs (and gesv's solve): own solves while n <= this, LAPACKE above;
   GETRS for one right-hand side, GETRSM for several */
#define BB_CPU_GETRS_OWN_MAX_S 48
#define BB_CPU_GETRS_OWN_MAX_D 24
#define BB_CPU_GETRS_OWN_MAX_C 128
#define BB_CPU_GETRS_OWN_MAX_Z 64
#define BB_CPU_GETRSM_OWN_MAX_S 12
#define BB_CPU_GETRSM_OWN_MAX_D 12
#define BB_CPU_GETRSM_OWN_MAX_C 128
#define BB_CPU_GETRSM_OWN_MAX_Z 24
/* getri, getri_oop: own inversion while n <= this, LAPACKE above with a
   workspace of n * BB_CPU_GETRI_NB elements */
#define BB_CPU_GETRI_OWN_MAX_S 64
#define BB_CPU_GETRI_OWN_MAX_D 32
#define BB_CPU_GETRI_OWN_MAX_C 48
#define BB_CPU_GETRI_OWN_MAX_Z 8
#define BB_CPU_GETRI_NB 64
/* gecon: own estimator while n <= this, LAPACKE above */
#define BB_CPU_GECON_OWN_MAX_S 256
#define BB_CPU_GECON_OWN_MAX_D 128
#define BB_CPU_GECON_OWN_MAX_C 256
#define BB_CPU_GECON_OWN_MAX_Z 32

/* ---- norms and condition numbers (src/cpu/norm.c) ---- */
/* gecond: own Gauss-Jordan inversion while n <= this, LAPACKE getrf+getri
   above (workspace n * BB_CPU_GETRI_NB); per precision as in the LU family */
#define BB_CPU_GECOND_OWN_MAX_S 64
#define BB_CPU_GECOND_OWN_MAX_D 48
#define BB_CPU_GECOND_OWN_MAX_C 48
#define BB_CPU_GECOND_OWN_MAX_Z 8

#endif
