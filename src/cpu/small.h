/* Shared helpers of the CPU kernels (precision-generic, include after prec.h). */
#ifndef BB_CPU_SMALL_H
#define BB_CPU_SMALL_H
#include <cblas.h>
#include "prec.h"
#include "cpu.h"
#include "cpu_policy.h"

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
