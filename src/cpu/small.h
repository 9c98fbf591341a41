/* Shared helpers of the CPU kernels (precision-generic, include after prec.h). */
#ifndef BB_CPU_SMALL_H
#define BB_CPU_SMALL_H
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
