/*
 * CPU backend internals.  A kernel computes one normalised column-major
 * problem (bb_problem, see src/common/batch.h) and returns its numerical
 * code (0, LAPACK's k > 0, or BB_INFO_NOMEM); it reads the problem and
 * never modifies it (the backend reuses one per group, changing only the
 * data pointers).  Kernels are generic sources
 * compiled once per precision (src/common/prec.h); each precision exports a
 * table X(cpu_kernels) indexed by bb_op (kernels.c).
 */
#ifndef BB_CPU_H
#define BB_CPU_H

#include <stddef.h>
#include "batch.h"

/* Per-thread scratch, grown on demand and kept for the whole call. */
typedef struct {
    void *p;
    size_t size;
} bb_work;

BB_INTERNAL void *bb_work_get(bb_work *w, size_t bytes);

typedef int (*bb_cpu_kernel)(bb_problem *p, bb_work *w);

#define BB_DECLARE_KERNELS(pfx)                                                   \
    BB_INTERNAL extern const bb_cpu_kernel bb_##pfx##_cpu_kernels[BB_NOPS];
BB_DECLARE_KERNELS(s)
BB_DECLARE_KERNELS(d)
BB_DECLARE_KERNELS(c)
BB_DECLARE_KERNELS(z)

/* Direct kernels: for a group whose problems all take the same code path,
   run(kernel, a, b, c) needs only the three matrix pointers, so the loop
   over the group skips the per-problem set-up.  X(cpu_direct)(op, gp)
   returns one, or run == NULL (then the per-problem kernel runs).  Today:
   real gemm through LIBXSMM (alpha 1, beta 0 or 1). */
typedef struct {
    void (*run)(const void *kernel, const void *a, const void *b, void *c);
    const void *kernel;
} bb_cpu_direct;
BB_INTERNAL bb_cpu_direct bb_s_cpu_direct(bb_op op, const bb_problem *gp);
BB_INTERNAL bb_cpu_direct bb_d_cpu_direct(bb_op op, const bb_problem *gp);

/* Kernels across problems (across.c): for a group whose problems all take
   that path, run(gp, v, i0, cnt, pinfo, w) computes problems [i0, i0 + cnt)
   of the group's views, several at once (each vector lane a problem),
   skipping those with pinfo != 0 and storing the others' codes; returns 0,
   or -1 when its scratch cannot be had (nothing done: the caller runs the
   one-problem kernel).  X(cpu_across)(op, gp) returns one, or run == NULL. */
typedef struct {
    int64_t (*run)(const bb_problem *gp, const bb_views *v, int64_t i0, int64_t cnt, int *pinfo, bb_work *w);
} bb_cpu_across;
/* 0 when BATCHBLAS_CPU_ACROSS=0 (every problem one at a time, the kernels
   of before: comparisons, debugging), else 1; read once. */
BB_INTERNAL int bb_cpu_across_on(void);
/* The instruction set of the kernels across problems (across.c): the
   widest this CPU runs, or a narrower one named in BATCHBLAS_CPU_ISA
   (avx512, avx2, base); read once. */
enum { BB_CPU_ISA_BASE, BB_CPU_ISA_AVX2, BB_CPU_ISA_AVX512 };
/* x86-64 with GCC: the AVX-512 and AVX2 variants exist (#pragma GCC
   target); elsewhere only the baseline one */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#  define BB_CPU_X86 1
#else
#  define BB_CPU_X86 0
#endif
BB_INTERNAL int bb_cpu_isa(void);
BB_INTERNAL bb_cpu_across bb_s_cpu_across(bb_op op, const bb_problem *gp);
BB_INTERNAL bb_cpu_across bb_d_cpu_across(bb_op op, const bb_problem *gp);
BB_INTERNAL bb_cpu_across bb_c_cpu_across(bb_op op, const bb_problem *gp);
BB_INTERNAL bb_cpu_across bb_z_cpu_across(bb_op op, const bb_problem *gp);

/* Makes OpenBLAS single-threaded (once per process): our threads run over
   the problems, BLAS calls inside stay on one core. */
BB_INTERNAL void bb_cpu_blas_single_thread(void);

#ifdef BB_PREC
/* Kernel prototypes for the precision being compiled. */
#define BB_KERNEL(name) BB_INTERNAL int X(cpu_##name)(bb_problem *p, bb_work *w)
BB_KERNEL(gemm); BB_KERNEL(symm); BB_KERNEL(hemm); BB_KERNEL(syrk); BB_KERNEL(herk);
BB_KERNEL(syr2k); BB_KERNEL(her2k); BB_KERNEL(trmm); BB_KERNEL(trsm);
BB_KERNEL(potrf); BB_KERNEL(potrs); BB_KERNEL(posv); BB_KERNEL(trtri); BB_KERNEL(lauum);
BB_KERNEL(potri); BB_KERNEL(poti);
BB_KERNEL(getrf); BB_KERNEL(getrfnp); BB_KERNEL(getrs); BB_KERNEL(gesv); BB_KERNEL(getri);
BB_KERNEL(getri_oop);
BB_KERNEL(lange); BB_KERNEL(gecond); BB_KERNEL(gecon); BB_KERNEL(geinv);
/* across.c: one problem through the across-problems kernels (within their
   bounds, cpu_policy.h), for the same bits as in a batch */
/* potrf, trtri, lauum, potri: whether n is within the bounds (complex
   double from an order on); potrs and posv: n and nrhs; getrf (pivot 1)
   and getrfnp (0): m and n; getrs and gesv: n and nrhs.  The batch
   dispatch (cpu_across) and the one-problem code ask the same predicate. */
BB_INTERNAL int X(potrf_across_fits)(int n);
BB_INTERNAL int X(trtri_across_fits)(int n);
BB_INTERNAL int X(lauum_across_fits)(int n);
BB_INTERNAL int X(potri_across_fits)(int n);
BB_INTERNAL int X(potrs_across_fits)(int n, int nrhs);
BB_INTERNAL int X(getrf_across_fits)(int m, int n, int pivot);
BB_INTERNAL int X(getrs_across_fits)(int n, int nrhs);
BB_INTERNAL int X(potrf_across1)(int uplo, int n, T *a, int64_t lda);
/* posv of p (potrf, then potrs where it succeeded, in one block): info */
BB_INTERNAL int X(posv_across1)(const bb_problem *p);
BB_INTERNAL void X(potrs_across1)(int uplo, int n, int nrhs, const T *a, int64_t lda, T *b, int64_t ldb,
                                   int right);
/* trsm: whether p is within the bounds (and alpha != 0); the solve */
BB_INTERNAL int X(trsm_across_fits)(const bb_problem *p);
BB_INTERNAL void X(trsm_across1)(const bb_problem *p);
/* syrk, trmm: the same (alpha != 0; syrk: k >= 1 too) */
BB_INTERNAL int X(syrk_across_fits)(const bb_problem *p);
BB_INTERNAL void X(syrk_across1)(const bb_problem *p);
BB_INTERNAL int X(trmm_across_fits)(const bb_problem *p);
BB_INTERNAL void X(trmm_across1)(const bb_problem *p);
/* trtri (info: the first zero diagonal entry, A then untouched), lauum,
   potri (trtri then lauum) of the column-major uplo triangle */
BB_INTERNAL int X(trtri_across1)(int uplo, int diag, int n, T *a, int64_t lda);
BB_INTERNAL void X(lauum_across1)(int uplo, int n, T *a, int64_t lda);
BB_INTERNAL int X(potri_across1)(int uplo, int n, T *a, int64_t lda);
/* poti (potrf, then potri if it succeeded) of the uplo triangle, n within
   poti_across_fits */
BB_INTERNAL int X(poti_across_fits)(int n);
BB_INTERNAL int X(poti_across1)(int uplo, int n, T *a, int64_t lda);
/* geinv of the column-major n x n a into b (info: the first zero or NaN
   pivot, b then untouched), n within geinv_across_fits */
BB_INTERNAL int X(geinv_across_fits)(int n);
BB_INTERNAL int X(geinv_across1)(int n, const T *a, int64_t lda, T *b, int64_t ldb);
/* getri (oop 0: into A) or getri_oop (oop 1: into B) of p, n within
   getri_across_fits (info: the first exactly zero U(k,k), nothing written
   then); gecond of p (cond in p->y, +Inf and the info where singular);
   lange of p (p->y) */
BB_INTERNAL int X(getri_across_fits)(int n);
BB_INTERNAL int X(getri_across1)(const bb_problem *p, int oop);
BB_INTERNAL int X(gecond_across_fits)(int n);
BB_INTERNAL int X(gecond_across1)(const bb_problem *p);
BB_INTERNAL int X(lange_across_fits)(int m, int n);
BB_INTERNAL void X(lange_across1)(const bb_problem *p);
/* getrf of the column-major n x n a (info), getrs on column-major factors */
BB_INTERNAL int X(getrf_across1)(int n, T *a, int64_t lda, int *ipiv);
/* getrfnp of the column-major n x n a (info), n <= BB_CPU_GETRFNP_ACROSS_MAX */
BB_INTERNAL int X(getrfnp_across1)(int n, T *a, int64_t lda);
BB_INTERNAL void X(getrs_across1)(int trans, int n, int nrhs, const T *a, int64_t lda, const int *ipiv, T *b,
                                   int64_t ldb);
#endif

#endif
