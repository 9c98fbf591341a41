/* Shared helpers of the CPU kernels (precision-generic, include after prec.h). */
#ifndef BB_CPU_SMALL_H
#define BB_CPU_SMALL_H
#include <float.h>
#include <math.h>
#include <cblas.h>
#include "prec.h"
#include "cpu.h"
#include "cpu_policy.h"

/* The crossover of cpu_policy.h for this precision:
   OWN_MAX(GETRF) is BB_CPU_GETRF_OWN_MAX_D when compiled for double. */
#if defined(BB_PREC_S)
#  define OWN_MAX(op) BB_CPU_##op##_OWN_MAX_S
#elif defined(BB_PREC_D)
#  define OWN_MAX(op) BB_CPU_##op##_OWN_MAX_D
#elif defined(BB_PREC_C)
#  define OWN_MAX(op) BB_CPU_##op##_OWN_MAX_C
#else
#  define OWN_MAX(op) BB_CPU_##op##_OWN_MAX_Z
#endif

/* Real functions in the precision of R, and the parts of a T (the imaginary
   part of a real is 0). */
#if defined(BB_PREC_S) || defined(BB_PREC_C)
#  define RFABS fabsf
#  define RSQRT sqrtf
#  define RHYPOT hypotf
#  define R_SAFMIN FLT_MIN
#  define R_HUGE FLT_MAX
#else
#  define RFABS fabs
#  define RSQRT sqrt
#  define RHYPOT hypot
#  define R_SAFMIN DBL_MIN
#  define R_HUGE DBL_MAX
#endif
#define RE(x) (__real__(x))
#define IM(x) (__imag__(x))

/* Vectorised loops (OpenMP SIMD; nothing without OpenMP): SIMD_SUM(s, ...)
   sums into the variables named, SIMD_SUM_MAX(s, m) sums into s and takes
   the largest into m. */
#ifdef _OPENMP
#  define SIMD _Pragma("omp simd")
#  define SIMD_SUM(...) _Pragma(BB_STR(omp simd reduction(+ : __VA_ARGS__)))
#  define SIMD_SUM_MAX(s, m) _Pragma(BB_STR(omp simd reduction(+ : s) reduction(max : m)))
#else
#  define SIMD
#  define SIMD_SUM(...)
#  define SIMD_SUM_MAX(s, m)
#endif

/* swaps x[0..n) and y[0..n) (the interchanges of an LU's columns) */
static inline void swap_vec(T *x, T *y, int n)
{
    SIMD for (int i = 0; i < n; i++) {
        const T t = x[i];
        x[i] = y[i];
        y[i] = t;
    }
}

/* |re| + |im|: LAPACK's cabs1, the pivot measure of the LU kernels */
static inline R abs1(T x) { return RFABS(RE(x)) + RFABS(IM(x)); }

/* 0-based position in x[0..n) of the partial pivot: the first NaN, else the
   first entry of largest |re| + |im| (getrf and gecond). */
static inline int pivot_index(int n, const T *x)
{
    R best = -1;
    int p = 0;
    for (int i = 0; i < n; i++) {
        R v = abs1(x[i]);
        if (v > best) {
            best = v;
            p = i;
        } else if (v != v) {
            return i;
        }
    }
    return p;
}

/* 1 / a; complex: Smith's scaling (the rule of gfortran's complex division,
   so LAPACK's ONE / A(J,J)), inline: C's complex division calls libgcc's
   __divsc3 / __divdc3, which cost as much as the rest of an 8 x 8 getf2
   (session 38).  a is never exactly zero where it is used (a zero pivot
   stops first); a NaN gives NaN. */
static inline T bb_recip(T a)
{
#if BB_COMPLEX
    const R ar = RE(a), ai = IM(a);
    /* by the larger part p and the smaller q, chosen by selects: random
       pivots would mispredict a branch half the time */
    const int big = RFABS(ar) >= RFABS(ai);
    const R p = big ? ar : ai, q = big ? ai : ar;
    const R r = q / p, d = 1 / (p + q * r), rd = r * d;
    T z; /* the parts set one by one (x + y * I would make NaN of an infinite y's 0 * y) */
    __real__ z = big ? d : rd;
    __imag__ z = big ? -rd : -d;
    return z;
#else
    return 1 / a;
#endif
}

static inline T bb_alpha(const bb_problem *p) { return MAKE_T(p->alpha[0], p->alpha[1]); }
static inline T bb_beta(const bb_problem *p) { return MAKE_T(p->beta[0], p->beta[1]); }

static inline CBLAS_TRANSPOSE bb_cblas_trans(int t)
{
    return t == BblasNoTrans ? CblasNoTrans : t == BblasTrans ? CblasTrans : CblasConjTrans;
}
static inline CBLAS_UPLO bb_cblas_uplo(int u) { return u == BblasUpper ? CblasUpper : CblasLower; }
static inline CBLAS_SIDE bb_cblas_side(int s) { return s == BblasLeft ? CblasLeft : CblasRight; }
static inline CBLAS_DIAG bb_cblas_diag(int d) { return d == BblasUnit ? CblasUnit : CblasNonUnit; }
#endif
