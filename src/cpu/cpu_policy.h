/*
 * CPU kernel policy: the crossover sizes where a kernel switches from our own
 * small-size code to OpenBLAS/LAPACKE.  One named constant per decision,
 * measured with batchblas-bench (doc/performance.md).  Each family edits only
 * its own section.
 */
#ifndef BB_CPU_POLICY_H
#define BB_CPU_POLICY_H

/* ---- BLAS-3 (src/cpu/blas3.c) ---- */
/*
 * Each constant is the largest work product (m*n*k, n*n*k or m*n*ka; ka = m
 * for side Left, n for Right) done by our own code; above it, OpenBLAS.
 * _R: real precisions (s, d); _C: complex (c, z).  TINY: plain loops on the
 * caller's storage, below the packed register-blocked kernel.  Measured
 * one problem after another on one thread against a loop of OpenBLAS 0.3.21
 * calls (AMD EPYC, AVX-512), square sizes 2..64, every side/uplo/trans:
 * OpenBLAS's own small-matrix gemm wins from m=n=k=5, ours wins syrk up to
 * n=k=40 and left trsm at every size tried (to 64; complex: from 12 on).  Each can be overridden
 * with -D at configure time (e.g. huge values to test our paths at every size).
 */
#ifndef BB_CPU_GEMM_OWN_MAX_MNK
#define BB_CPU_GEMM_OWN_MAX_MNK 64
#endif
#ifndef BB_CPU_GEMM_TINY_MNK
#define BB_CPU_GEMM_TINY_MNK 27
#endif
#ifndef BB_CPU_SYMM_OWN_MAX_MNK_R      /* symm */
#define BB_CPU_SYMM_OWN_MAX_MNK_R 512
#endif
#ifndef BB_CPU_SYMM_OWN_MAX_MNK_C      /* symm, hemm */
#define BB_CPU_SYMM_OWN_MAX_MNK_C 64
#endif
/* syrk, real: n*n*k, per precision (session 13, OpenBLAS's Haswell
   kernels, 2 threads, 10^8 bytes a row: ours / the loop, s at n = k = 24,
   28, 32, 36: 1.23-1.33, 0.96-1.10, 0.97-1.00, 0.79-0.83; d at 32, 36, 40:
   1.17, 1.09, 1.06) */
#ifndef BB_CPU_SYRK_OWN_MAX_NNK_S
#define BB_CPU_SYRK_OWN_MAX_NNK_S 16000
#endif
#ifndef BB_CPU_SYRK_OWN_MAX_NNK_D
#define BB_CPU_SYRK_OWN_MAX_NNK_D 64000
#endif
#ifndef BB_CPU_SYRK_OWN_MAX_NNK_C      /* syrk, herk */
#define BB_CPU_SYRK_OWN_MAX_NNK_C 512
#endif
#ifndef BB_CPU_SYR2K_OWN_MAX_NNK_R     /* syr2k */
#define BB_CPU_SYR2K_OWN_MAX_NNK_R 125
#endif
#ifndef BB_CPU_SYR2K_OWN_MAX_NNK_C     /* syr2k, her2k */
#define BB_CPU_SYR2K_OWN_MAX_NNK_C 27
#endif
#ifndef BB_CPU_TRMM_LEFT_OWN_MAX_MNK_R
#define BB_CPU_TRMM_LEFT_OWN_MAX_MNK_R 512
#endif
#ifndef BB_CPU_TRMM_LEFT_OWN_MAX_MNK_C
#define BB_CPU_TRMM_LEFT_OWN_MAX_MNK_C 125
#endif
#ifndef BB_CPU_TRMM_RIGHT_OWN_MAX_MNK_R
#define BB_CPU_TRMM_RIGHT_OWN_MAX_MNK_R 125
#endif
#ifndef BB_CPU_TRMM_RIGHT_OWN_MAX_MNK_C
#define BB_CPU_TRMM_RIGHT_OWN_MAX_MNK_C 64
#endif
/* left, real, one constant per precision (_S, _D).  Session 12 (issue 13),
   against the bench's loop of cblas_?trsm calls in batches on 2 threads
   (Intel Xeon with AVX-512, OpenBLAS 0.3.21 with OPENBLAS_CORETYPE=Haswell:
   its AVX2 kernels; the earlier choice, own code to 256^3, was measured
   against its Prescott fallback): ours/loop for single 0.88x, 0.75x,
   0.82x, 0.66x at n = 20, 24, 28, 32 (and 0.5-0.63x at 32..256), OpenBLAS
   from our call 1.13-1.30x there; double ours 1.54x, 1.38x, 1.17x, 1.06x
   against OpenBLAS from our call 1.48x, 1.28x, 1.24x, 1.16x (and ours
   0.72x at 256).  Single: OpenBLAS above the across bound (16); double:
   ours to n = 28.  Right: ours lost at every size of 32..256 (0.6-0.8x),
   so it stays tiny-only */
#ifndef BB_CPU_TRSM_LEFT_OWN_MAX_MNK_S
#define BB_CPU_TRSM_LEFT_OWN_MAX_MNK_S 4096
#endif
#ifndef BB_CPU_TRSM_LEFT_OWN_MAX_MNK_D
#define BB_CPU_TRSM_LEFT_OWN_MAX_MNK_D 21952
#endif
#ifndef BB_CPU_TRSM_LEFT_OWN_MAX_MNK_C
#define BB_CPU_TRSM_LEFT_OWN_MAX_MNK_C 262144
#endif
#ifndef BB_CPU_TRSM_LEFT_OWN_MIN_MNK_R /* below this (and above TINY): OpenBLAS too */
#define BB_CPU_TRSM_LEFT_OWN_MIN_MNK_R 0
#endif
#ifndef BB_CPU_TRSM_LEFT_OWN_MIN_MNK_C
#define BB_CPU_TRSM_LEFT_OWN_MIN_MNK_C 1728
#endif
#ifndef BB_CPU_TRSM_RIGHT_OWN_MAX_MNK_R
#define BB_CPU_TRSM_RIGHT_OWN_MAX_MNK_R 216
#endif
#ifndef BB_CPU_TRSM_RIGHT_OWN_MAX_MNK_C
#define BB_CPU_TRSM_RIGHT_OWN_MAX_MNK_C 125
#endif
#ifndef BB_CPU_TRSM_TINY_MNK_R         /* plain substitution (and ka <= 8) */
#define BB_CPU_TRSM_TINY_MNK_R 216
#endif
#ifndef BB_CPU_TRSM_TINY_MNK_C
#define BB_CPU_TRSM_TINY_MNK_C 125
#endif
/* trsm across problems (across.c: V problems at once, a vector lane each),
   every precision, side/uplo/trans/diag, alpha != 0: while m and n are
   both <= this (0: never); above, one problem at a time */
#ifndef BB_CPU_TRSM_ACROSS_MAX
#define BB_CPU_TRSM_ACROSS_MAX 16
#endif
/* syrk across problems: n and k both <= this, both uplo and trans, alpha
   != 0 (0: never).  Measured against BATCHBLAS_CPU_ACROSS=0 (2 threads,
   Intel Xeon with AVX-512, strided, k = n, 64 MB, alternated runs): d
   3.5-4.0x at n = 2, 1.6x at 4, 1.06-1.16x at 8, 0.94-1.06x at 16; s
   3.8-4.2x, 2.4x, 1.04-1.13x, 0.82-0.91x (the packing dominates at 16,
   where the one-problem kernel vectorises well) */
#ifndef BB_CPU_SYRK_ACROSS_MAX
#define BB_CPU_SYRK_ACROSS_MAX 8
#endif
/* complex double syrk: n and k <= this (session 39, alternated A/B against
   the one-problem code, 3 rounds, ms: n = 2 10.7 -> 4.8, 4 3.6 -> 4.8, 8
   2.7 -> 3.7) */
#ifndef BB_CPU_SYRK_ACROSS_MAX_Z
#define BB_CPU_SYRK_ACROSS_MAX_Z 2
#endif
#define BB_CPU_SYRK_ACROSS_FROM_Z 1
/* trmm across problems: m and n both <= this, every side/uplo/trans/diag,
   alpha != 0 (0: never).  Measured as syrk: d 3.3x, 2.4x, 1.2x, 2.1x at n
   = 2, 4, 8, 16 (left, lower, N); s 4.3x, 2.3-2.6x, 0.94-3.5x (left lower N
   the slowest), 1.5-1.7x */
#ifndef BB_CPU_TRMM_ACROSS_MAX
#define BB_CPU_TRMM_ACROSS_MAX 16
#endif
/* complex double trmm: across problems only where m or n >= this (session
   39, as syrk: n = 2 9.9 -> 5.0 ms, 4 3.9 -> 4.4, 8 14.6 -> 4.0; from 5
   the rows measured slower stay on the one-problem code) */
#ifndef BB_CPU_TRMM_ACROSS_FROM_Z
#define BB_CPU_TRMM_ACROSS_FROM_Z 5
#endif
#define BB_CPU_TRMM_ACROSS_MAX_Z BB_CPU_TRMM_ACROSS_MAX

/* ---- Cholesky family (src/cpu/chol.c) ---- */
/* Own loops while n <= the constant, LAPACKE/CBLAS above; one constant per
   precision (_S, _D, _C, _Z) as in the LU family.  posv, potri and poti
   follow the potrf, potrs, trtri and lauum decisions.  Each can be
   overridden with -D.  Real precisions re-measured in batches (the bench's
   loop of one LAPACKE call per problem, 2 threads, Intel Xeon with
   AVX-512, OpenBLAS 0.3.21, n = 32..256, medians of alternated runs):
   potrf ours 1.06x/1.22x (d/s) at 64, 0.94x/1.13x at 80, 0.76x/0.95x at
   96; trtri ours 1.14x/1.46x at 96, 0.98x/1.40x at 112, 0.98x/1.27x at
   128, 1.06x (s) at 224, 0.74x/0.98x at 256 (LAPACKE ~1.00x at every
   size); lauum unblocked 1.18x/1.16x at 64, where the blocked one was
   0.75x/0.82x.  Session 12 (issue 13), the same loop with OpenBLAS's AVX2
   kernels (OPENBLAS_CORETYPE=Haswell; the numbers above ran against its
   Prescott fallback): potrf ours/loop d 1.40x, 1.17x, 1.13x, 0.82x at 40,
   48, 56, 64 (LAPACKE from our call 1.17x, 1.10x, 1.08x, 1.01x), s 1.55x,
   1.17x, 1.18x, 0.93x, 0.63x at 40..80 (LAPACKE 1.03-1.09x): own to 56;
   posv (potrf + potrs, nrhs = n) ours d 2.07x, 1.42x, 1.27x, 1.16x at 20,
   24, 28, 32 (LAPACKE potrs 1.30x, 1.19x, 1.26x, 1.18x), s 2.07x, 1.48x,
   1.14x, 0.89x (1.21x, 1.21x, 1.16x, 1.10x), and 0.62-0.69x at 64: own
   potrs to 28. */
#ifndef BB_CPU_POTRF_OWN_MAX_S
#define BB_CPU_POTRF_OWN_MAX_S 56
#endif
#ifndef BB_CPU_POTRF_OWN_MAX_D
#define BB_CPU_POTRF_OWN_MAX_D 56
#endif
#ifndef BB_CPU_POTRF_OWN_MAX_C
#define BB_CPU_POTRF_OWN_MAX_C 20
#endif
#ifndef BB_CPU_POTRF_OWN_MAX_Z
#define BB_CPU_POTRF_OWN_MAX_Z 20
#endif
/* potrf across problems (across.c: V problems at once, a vector lane
   each) up to this order, every precision; above, one problem at a time */
#ifndef BB_CPU_POTRF_ACROSS_MAX
#define BB_CPU_POTRF_ACROSS_MAX 16
#endif
/* complex double potrf, trtri and lauum: across problems only from these
   orders (below, the one-problem code's complex arithmetic fills the
   vectors and the packing of a small triangle costs more than the kernel;
   session 39, alternated A/B, 3 rounds, ms one-problem -> across at n = 2,
   4, 8: potrf 6.0 -> 6.7, 3.4 -> 4.7, 2.9 -> 3.3; trtri 6.3 -> 7.6, 3.3 ->
   5.0, 2.8 -> 3.6; lauum 5.6 -> 6.3, 2.3 -> 4.1, 2.2 -> 2.7; at 16 across
   wins 1.5x, 3.4x, 1.4x).  potrs, posv, potri and poti keep every order:
   there across wins at every n (posv z 1.5-3.5x, potri 1.1-3.5x) */
#ifndef BB_CPU_POTRF_ACROSS_FROM_Z
#define BB_CPU_POTRF_ACROSS_FROM_Z 9
#endif
#ifndef BB_CPU_TRTRI_ACROSS_FROM_Z
#define BB_CPU_TRTRI_ACROSS_FROM_Z 9
#endif
#ifndef BB_CPU_LAUUM_ACROSS_FROM_Z
#define BB_CPU_LAUUM_ACROSS_FROM_Z 9
#endif
/* (each of these kinds has its complex double range, FROM_Z .. MAX_Z:
   src/cpu/across.c takes both ends from one pair of macros) */
#define BB_CPU_POTRF_ACROSS_MAX_Z BB_CPU_POTRF_ACROSS_MAX
#define BB_CPU_TRTRI_ACROSS_MAX_Z BB_CPU_TRTRI_ACROSS_MAX
#define BB_CPU_LAUUM_ACROSS_MAX_Z BB_CPU_LAUUM_ACROSS_MAX
/* trtri, lauum and potri across problems up to these orders (0: never).
   Measured against BATCHBLAS_CPU_ACROSS=0 (2 threads, Intel Xeon with
   AVX-512, strided, lower, 64 MB, alternated runs), n = 2, 4, 8, 16:
   trtri d 1.3x, 1.3x, 1.7x, 2.2x, s 1.3x, 1.6x, 1.5x, 1.7x; lauum d 2.4x,
   2.0x, 1.6x, 1.6x, s 2.1x, 2.7x, 2.2x, 2.1x; potri d 2.3x, 1.8x, 2.3x,
   2.9x, s 2.4x, 2.6x, 2.6x, 3.1x */
#ifndef BB_CPU_TRTRI_ACROSS_MAX
#define BB_CPU_TRTRI_ACROSS_MAX 16
#endif
#ifndef BB_CPU_LAUUM_ACROSS_MAX
#define BB_CPU_LAUUM_ACROSS_MAX 16
#endif
#ifndef BB_CPU_POTRI_ACROSS_MAX
#define BB_CPU_POTRI_ACROSS_MAX 16
#endif
/* geinv across problems (Gauss-Jordan, src/cpu/across.c) up to this */
#ifndef BB_CPU_GEINV_ACROSS_MAX
#define BB_CPU_GEINV_ACROSS_MAX 16
#endif
/* potrs and posv across problems: n as potrf, nrhs up to this */
#ifndef BB_CPU_POTRS_ACROSS_MAX_NRHS
#define BB_CPU_POTRS_ACROSS_MAX_NRHS 16
#endif
#ifndef BB_CPU_POTRS_OWN_MAX_S
#define BB_CPU_POTRS_OWN_MAX_S 28
#endif
#ifndef BB_CPU_POTRS_OWN_MAX_D
#define BB_CPU_POTRS_OWN_MAX_D 28
#endif
#ifndef BB_CPU_POTRS_OWN_MAX_C
#define BB_CPU_POTRS_OWN_MAX_C 20
#endif
#ifndef BB_CPU_POTRS_OWN_MAX_Z
#define BB_CPU_POTRS_OWN_MAX_Z 12
#endif
#ifndef BB_CPU_TRTRI_OWN_MAX_S
#define BB_CPU_TRTRI_OWN_MAX_S 224
#endif
#ifndef BB_CPU_TRTRI_OWN_MAX_D
#define BB_CPU_TRTRI_OWN_MAX_D 96
#endif
#ifndef BB_CPU_TRTRI_OWN_MAX_C
#define BB_CPU_TRTRI_OWN_MAX_C 96
#endif
#ifndef BB_CPU_TRTRI_OWN_MAX_Z
#define BB_CPU_TRTRI_OWN_MAX_Z 24
#endif
/* lauum: unblocked while n <= this; above, real: LAPACKE lauum (OpenBLAS's
   own, session 12: our blocked one with NB = 16, 32 or 64 measured 0.73-0.87x
   of the loop at n = 96, 128 for d); complex: LAPACK's blocked algorithm
   with blocks of BB_CPU_LAUUM_NB (CBLAS trmm, gemm, herk around our
   unblocked diagonal blocks), never OpenBLAS's lauum (chol.c) */
#ifndef BB_CPU_LAUUM_OWN_MAX_S
#define BB_CPU_LAUUM_OWN_MAX_S 64
#endif
#ifndef BB_CPU_LAUUM_OWN_MAX_D
#define BB_CPU_LAUUM_OWN_MAX_D 64
#endif
#ifndef BB_CPU_LAUUM_OWN_MAX_C
#define BB_CPU_LAUUM_OWN_MAX_C 16
#endif
#ifndef BB_CPU_LAUUM_OWN_MAX_Z
#define BB_CPU_LAUUM_OWN_MAX_Z 16
#endif
#ifndef BB_CPU_LAUUM_NB
#define BB_CPU_LAUUM_NB 16
#endif
/* potrs: from this many right-hand sides on they are solved side by side
   (vectorised across them), below one or two at a time down the columns */
#ifndef BB_CPU_POTRS_ROWS_MIN_NRHS
#define BB_CPU_POTRS_ROWS_MIN_NRHS 6
#endif

/* ---- LU family (src/cpu/lu.c) ---- */
/* Own code while the size is <= the constant, LAPACKE/CBLAS above; one
   constant per precision (_S, _D, _C, _Z): the own loops are compiled for
   the baseline ISA, where four floats share a vector but a double complex
   fills one alone, while OpenBLAS runs the machine's widest kernels.
   Measured own code against LAPACKE _work/CBLAS, one thread, one problem
   after another, sizes 2..256 (Intel Xeon VM with AVX-512, OpenBLAS of
   Ubuntu 24.04, gcc 13 -O2).  Each can be overridden with -D (e.g. huge
   values to run the own code at every size).  Real precisions re-measured
   in batches against the bench's loop of one LAPACKE call per problem (2
   threads, Intel Xeon with AVX-512, OpenBLAS 0.3.21, medians of alternated
   runs; the LAPACKE path ~1.00x everywhere): getrf ours 1.10x/1.38x (d/s)
   at 64, 0.93x/1.18x at 80, 0.73x/1.05x at 96, 0.96x (s) at 112; getri
   ours 1.12x (d) at 48, 0.95x at 64, 1.07x (s) at 112, 0.94x at 128;
   getrs with nrhs = n, no transpose, ours 1.20x/1.37x at 64, 0.80x/0.89x
   at 96 (transposed: ours 0.66x/0.53x already at 32).  Session 12 (issue
   13), the same loop with OpenBLAS's AVX2 kernels
   (OPENBLAS_CORETYPE=Haswell; the numbers above ran against its Prescott
   fallback): getrf s ours 1.46x, 1.19x, 1.06x, 1.00x, 0.83x, 0.71x at 40,
   48, 56, 64, 80, 96 (LAPACKE from our call 0.97-1.10x): own to 64; d
   ours 1.12x at 64, 1.00x at 80 (LAPACKE 1.01x, 1.04x): unchanged.  getrs
   with nrhs = n, no transpose: s ours 1.17x, 0.91x, 0.67x, 0.62x at 20,
   24, 28, 32 (LAPACKE 1.35x, 1.44x, 1.40x, 1.27x): own only to the across
   bound, 16; d ours 1.64x, 1.33x, 1.23x, 1.03x (LAPACKE 1.14x, 1.22x,
   1.20x, 1.17x): own to 24. */
/* getrf (and gesv's factorisation): unblocked LU while min(m,n) <= this,
   LAPACKE getrf above */
#ifndef BB_CPU_GETRF_OWN_MAX_S
#define BB_CPU_GETRF_OWN_MAX_S 64
#endif
#ifndef BB_CPU_GETRF_OWN_MAX_D
#define BB_CPU_GETRF_OWN_MAX_D 64
#endif
#ifndef BB_CPU_GETRF_OWN_MAX_C
#define BB_CPU_GETRF_OWN_MAX_C 48
#endif
#ifndef BB_CPU_GETRF_OWN_MAX_Z
#define BB_CPU_GETRF_OWN_MAX_Z 24
#endif
/* getrfnp: unblocked LU while min(m,n) <= this; above, recursion on column
   halves with CBLAS trsm/gemm down to min(m,n) <= BB_CPU_LU_REC_BASE */
#ifndef BB_CPU_GETRFNP_OWN_MAX_S
#define BB_CPU_GETRFNP_OWN_MAX_S 48
#endif
#ifndef BB_CPU_GETRFNP_OWN_MAX_D
#define BB_CPU_GETRFNP_OWN_MAX_D 32
#endif
#ifndef BB_CPU_GETRFNP_OWN_MAX_C
#define BB_CPU_GETRFNP_OWN_MAX_C 24
#endif
#ifndef BB_CPU_GETRFNP_OWN_MAX_Z
#define BB_CPU_GETRFNP_OWN_MAX_Z 24
#endif
/* getrf across problems (across.c: V problems at once, each lane pivoting
   on its own), every precision, square n <= this (0: never); getrs and gesv
   across problems: n as getrf, nrhs <= BB_CPU_GETRS_ACROSS_MAX_NRHS */
#ifndef BB_CPU_GETRF_ACROSS_MAX
#define BB_CPU_GETRF_ACROSS_MAX 16
#endif
/* getrfnp across problems (getrf's kernel, the diagonal as the pivot),
   square n <= this (0: never) */
#ifndef BB_CPU_GETRFNP_ACROSS_MAX
#define BB_CPU_GETRFNP_ACROSS_MAX 16
#endif
#ifndef BB_CPU_GETRS_ACROSS_MAX_NRHS
#define BB_CPU_GETRS_ACROSS_MAX_NRHS 16
#endif
#ifndef BB_CPU_LU_REC_BASE
#define BB_CPU_LU_REC_BASE 16
#endif
/* getrs (and gesv's solve): own solves while n <= this, LAPACKE above;
   GETRS for one right-hand side, GETRSM_N for several without transpose,
   GETRSM for several with (op(A) = A^T or A^H) */
#ifndef BB_CPU_GETRS_OWN_MAX_S
#define BB_CPU_GETRS_OWN_MAX_S 48
#endif
#ifndef BB_CPU_GETRS_OWN_MAX_D
#define BB_CPU_GETRS_OWN_MAX_D 24
#endif
#ifndef BB_CPU_GETRS_OWN_MAX_C
#define BB_CPU_GETRS_OWN_MAX_C 128
#endif
#ifndef BB_CPU_GETRS_OWN_MAX_Z
#define BB_CPU_GETRS_OWN_MAX_Z 64
#endif
#ifndef BB_CPU_GETRSM_N_OWN_MAX_S
#define BB_CPU_GETRSM_N_OWN_MAX_S 16
#endif
#ifndef BB_CPU_GETRSM_N_OWN_MAX_D
#define BB_CPU_GETRSM_N_OWN_MAX_D 24
#endif
#ifndef BB_CPU_GETRSM_N_OWN_MAX_C
#define BB_CPU_GETRSM_N_OWN_MAX_C 128
#endif
#ifndef BB_CPU_GETRSM_N_OWN_MAX_Z
#define BB_CPU_GETRSM_N_OWN_MAX_Z 24
#endif
#ifndef BB_CPU_GETRSM_OWN_MAX_S
#define BB_CPU_GETRSM_OWN_MAX_S 12
#endif
#ifndef BB_CPU_GETRSM_OWN_MAX_D
#define BB_CPU_GETRSM_OWN_MAX_D 12
#endif
#ifndef BB_CPU_GETRSM_OWN_MAX_C
#define BB_CPU_GETRSM_OWN_MAX_C 128
#endif
#ifndef BB_CPU_GETRSM_OWN_MAX_Z
#define BB_CPU_GETRSM_OWN_MAX_Z 24
#endif
/* getri, getri_oop: own inversion while n <= this, LAPACKE above with a
   workspace of n * BB_CPU_GETRI_NB elements */
#ifndef BB_CPU_GETRI_OWN_MAX_S
#define BB_CPU_GETRI_OWN_MAX_S 112
#endif
#ifndef BB_CPU_GETRI_OWN_MAX_D
#define BB_CPU_GETRI_OWN_MAX_D 48
#endif
#ifndef BB_CPU_GETRI_OWN_MAX_C
#define BB_CPU_GETRI_OWN_MAX_C 16
#endif
#ifndef BB_CPU_GETRI_OWN_MAX_Z
#define BB_CPU_GETRI_OWN_MAX_Z 8
#endif
/* getri and getri_oop across problems (across.c), every precision: n <=
   this (0: never) */
#ifndef BB_CPU_GETRI_ACROSS_MAX
#define BB_CPU_GETRI_ACROSS_MAX 16
#endif
#ifndef BB_CPU_GETRI_NB
#define BB_CPU_GETRI_NB 64
#endif
/* gecon: own estimator while n <= this, LAPACKE above */
#ifndef BB_CPU_GECON_OWN_MAX_S
#define BB_CPU_GECON_OWN_MAX_S 256
#endif
#ifndef BB_CPU_GECON_OWN_MAX_D
#define BB_CPU_GECON_OWN_MAX_D 128
#endif
#ifndef BB_CPU_GECON_OWN_MAX_C
#define BB_CPU_GECON_OWN_MAX_C 256
#endif
#ifndef BB_CPU_GECON_OWN_MAX_Z
#define BB_CPU_GECON_OWN_MAX_Z 32
#endif

/* ---- norms and condition numbers (src/cpu/norm.c) ---- */
/* gecond and lange across problems (across.c: V problems at once, a
   vector lane each), every precision: gecond n <= BB_CPU_GECOND_ACROSS_MAX,
   lange m and n <= BB_CPU_LANGE_ACROSS_MAX (0: never) */
#ifndef BB_CPU_GECOND_ACROSS_MAX
#define BB_CPU_GECOND_ACROSS_MAX 16
#endif
#ifndef BB_CPU_LANGE_ACROSS_MAX
#define BB_CPU_LANGE_ACROSS_MAX 16
#endif
/* complex double lange: across problems only where m or n >= this
   (session 39, one-norm, alternated A/B, 2 rounds, ms one-problem ->
   across at n = 2, 4, 8, 12, 16: 11.5 -> 11.8, 7.8 -> 6.4, 5.7 -> 6.8,
   5.5 -> 5.2, 5.5 -> 3.2; gecond z takes its own bound and wins 3-6x at
   every n) */
#ifndef BB_CPU_LANGE_ACROSS_FROM_Z
#define BB_CPU_LANGE_ACROSS_FROM_Z 9
#endif
#define BB_CPU_LANGE_ACROSS_MAX_Z BB_CPU_LANGE_ACROSS_MAX
/* gecond: own Gauss-Jordan inversion while n <= this, LAPACKE getrf+getri
   above (workspace n * BB_CPU_GETRI_NB); per precision as in the LU family */
#ifndef BB_CPU_GECOND_OWN_MAX_S
#define BB_CPU_GECOND_OWN_MAX_S 64
#endif
#ifndef BB_CPU_GECOND_OWN_MAX_D
#define BB_CPU_GECOND_OWN_MAX_D 48
#endif
#ifndef BB_CPU_GECOND_OWN_MAX_C
#define BB_CPU_GECOND_OWN_MAX_C 48
#endif
#ifndef BB_CPU_GECOND_OWN_MAX_Z
#define BB_CPU_GECOND_OWN_MAX_Z 8
#endif

#endif
