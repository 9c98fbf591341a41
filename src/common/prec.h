/*
 * The one precision mechanism.  A generic source is compiled once per
 * precision with -DBB_PREC_S, _D, _C or _Z; inside it T is the element type,
 * R the real type, and X(name) names a per-precision symbol (bb_d_name...).
 * CBLAS(name) and LAPACKE(name) name the matching BLAS/LAPACKE routine.
 */
#ifndef BB_PREC_H
#define BB_PREC_H

#include <complex.h>
#include <math.h>
#include <float.h>

#if defined(BB_PREC_S)
typedef float T;
typedef float R;
#  define BB_PREC BB_P_S
#  define BB_COMPLEX 0
#  define X(name) bb_s_##name
#  define BB_L s
#  define BB_PREC_NUM 0
#  define CBLAS(name) cblas_s##name
#  define LAPACKE(name) LAPACKE_s##name
#  define R_EPS FLT_EPSILON
#elif defined(BB_PREC_D)
typedef double T;
typedef double R;
#  define BB_PREC BB_P_D
#  define BB_COMPLEX 0
#  define X(name) bb_d_##name
#  define BB_L d
#  define BB_PREC_NUM 1
#  define CBLAS(name) cblas_d##name
#  define LAPACKE(name) LAPACKE_d##name
#  define R_EPS DBL_EPSILON
#elif defined(BB_PREC_C)
typedef float _Complex T;
typedef float R;
#  define BB_PREC BB_P_C
#  define BB_COMPLEX 1
#  define X(name) bb_c_##name
#  define BB_L c
#  define BB_PREC_NUM 2
#  define CBLAS(name) cblas_c##name
#  define LAPACKE(name) LAPACKE_c##name
#  define R_EPS FLT_EPSILON
#elif defined(BB_PREC_Z)
typedef double _Complex T;
typedef double R;
#  define BB_PREC BB_P_Z
#  define BB_COMPLEX 1
#  define X(name) bb_z_##name
#  define BB_L z
#  define BB_PREC_NUM 3
#  define CBLAS(name) cblas_z##name
#  define LAPACKE(name) LAPACKE_z##name
#  define R_EPS DBL_EPSILON
#else
#  error "compile with one of -DBB_PREC_S, -DBB_PREC_D, -DBB_PREC_C, -DBB_PREC_Z"
#endif

/* Public names of this precision: BB_PUB(blas, gemm, batchf) is
   blas_dgemm_batchf when compiled with -DBB_PREC_D (used by tests, bench). */
#define BB_PUB__(p, l, o, f) p##_##l##o##_##f
#define BB_PUB_(p, l, o, f) BB_PUB__(p, l, o, f)
#define BB_PUB(p, o, f) BB_PUB_(p, BB_L, o, f)
#define BB_STR__(x) #x
#define BB_STR(x) BB_STR__(x)

#if BB_COMPLEX
#  define CONJ(x) conj(x)
#  define REAL(x) creal(x)
#  define IMAG(x) cimag(x)
#  define ABS1(x) (fabs(creal(x)) + fabs(cimag(x)))  /* LAPACK's cabs1 */
#  define ABS(x) ((R)cabs(x))
#  define MAKE_T(re, im) ((T)((R)(re) + (R)(im) * I))
/* CBLAS takes complex scalars by address */
#  define CBLAS_SCALAR(x) (&(x))
#else
#  define CONJ(x) (x)
#  define REAL(x) (x)
#  define IMAG(x) ((R)0)
#  define ABS1(x) ((R)fabs(x))
#  define ABS(x) ((R)fabs(x))
#  define MAKE_T(re, im) ((T)(re))
#  define CBLAS_SCALAR(x) (x)
#endif

#endif
