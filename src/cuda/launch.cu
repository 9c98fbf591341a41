/*
 * THE GPU kernel policy: which kernel runs a launch (one op, one precision,
 * uniform parameters, d.count problems on device data).
 *
 *   register kernels (small_*.cu)  every dimension in [1, SMALL_MAX]:
 *       getrf, getrfnp, getri, getri_oop, gecond, potrf, potrs, posv, trsm;
 *       gemm while max(m, n, k) < GEMM_CUBLAS_FROM
 *   cuBLAS                         gemm from GEMM_CUBLAS_FROM up (alpha != 0, k > 0)
 *   generic kernels (generic.cu)   everything else
 *
 * BATCHBLAS_CUDA_SMALL=0 in the environment sends every launch to the
 * generic kernels (to compare, or to rule the register kernels out).
 * With the verbose log on (BATCHBLAS_VERBOSE=1), each launch logs its choice.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "generic.h"
#include "small.h"

/* Crossovers.  To be tuned by bench_gpu (batchblas-bench-gpu), which
   prints our kernel next to cuBLAS/cuSOLVER for every routine and size. */
static const int SMALL_MAX = BB_SMALL_MAX;   /* register kernels: all sizes <= this */
static const int GEMM_CUBLAS_FROM = 32;      /* gemm: cuBLAS once max(m, n, k) >= this */

/* The log lives in libbatchblas (dispatch.c).  Weak references keep the
   plugin loadable if it is linked without them: then nothing is logged. */
#pragma weak bb_verbose
#pragma weak bb_log

enum choice { USE_GENERIC, USE_SMALL, USE_CUBLAS };

static int small_enabled(void)
{
    static int v = -1;
    if (v < 0) {
        const char *e = getenv("BATCHBLAS_CUDA_SMALL");
        v = !(e && !strcmp(e, "0"));
    }
    return v;
}

static bool in_small(int s) { return s >= 1 && s <= SMALL_MAX; }

static choice decide(bb_op op, const bb_problem &p, batchblas_queue *q)
{
    if (!small_enabled()) return USE_GENERIC;
    switch (op) {
    case BB_OP_GETRF: case BB_OP_GETRFNP: case BB_OP_TRSM:
        return in_small(p.m) && in_small(p.n) ? USE_SMALL : USE_GENERIC;
    case BB_OP_GETRI: case BB_OP_GETRI_OOP: case BB_OP_GECOND: case BB_OP_POTRF:
        return in_small(p.n) ? USE_SMALL : USE_GENERIC;
    case BB_OP_POTRS: case BB_OP_POSV:
        return in_small(p.n) && p.nrhs >= 0 ? USE_SMALL : USE_GENERIC;
    case BB_OP_GEMM: {
        if (p.m < 1 || p.n < 1) return USE_GENERIC;
        int s = p.m > p.n ? p.m : p.n;
        if (p.k > s) s = p.k;
        if (s < GEMM_CUBLAS_FROM && s <= SMALL_MAX) return USE_SMALL;
        const bool alpha_zero = p.alpha[0] == 0 && p.alpha[1] == 0;
        if (q->cublas && !alpha_zero && p.k > 0 && p.lda <= INT32_MAX && p.ldb <= INT32_MAX && p.ldc <= INT32_MAX)
            return USE_CUBLAS;
        return USE_GENERIC;
    }
    default:
        return USE_GENERIC;
    }
}

static cudaError_t run_small(bb_op op, bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    switch (op) {
    case BB_OP_GETRF: return bb_small_getrf(prec, p, d, q, 1);
    case BB_OP_GETRFNP: return bb_small_getrf(prec, p, d, q, 0);
    case BB_OP_GETRI: return bb_small_getri(prec, p, d, q, 0);
    case BB_OP_GETRI_OOP: return bb_small_getri(prec, p, d, q, 1);
    case BB_OP_GECOND: return bb_small_gecond(prec, p, d, q);
    case BB_OP_POTRF: return bb_small_potrf(prec, p, d, q);
    case BB_OP_POTRS: return bb_small_potrs(prec, p, d, q, 0);
    case BB_OP_POSV: return bb_small_potrs(prec, p, d, q, 1);
    case BB_OP_TRSM: return bb_small_trsm(prec, p, d, q);
    case BB_OP_GEMM: return bb_small_gemm(prec, p, d, q);
    default: return cudaErrorNotSupported;
    }
}

static void log_choice(bb_op op, bb_prec prec, const bb_problem &p, const bb_dev_batch &d, choice c)
{
    if (!bb_verbose || !bb_log || !bb_verbose()) return;
    int s = p.m > p.n ? p.m : p.n;
    if (p.k > s) s = p.k;
    if (op == BB_OP_GEMM && c == USE_SMALL) s = bb_small_bound(s);
    else if (c == USE_SMALL) s = bb_small_bound(op == BB_OP_GETRF || op == BB_OP_GETRFNP || op == BB_OP_TRSM
                                                ? (p.m > p.n ? p.m : p.n) : p.n);
    char what[48];
    if (c == USE_SMALL) snprintf(what, sizeof what, "register kernel (bound %d)", s);
    else snprintf(what, sizeof what, "%s", c == USE_CUBLAS ? "cuBLAS" : "generic kernel");
    bb_log("cuda launch: %c%s m=%d n=%d k=%d nrhs=%d, %lld problems -> %s", "sdcz"[prec],
           bb_op_info(op)->name, p.m, p.n, p.k, p.nrhs, (long long)d.count, what);
}

cudaError_t bb_cuda_launch(bb_op op, bb_prec prec, const bb_problem &p, const bb_dev_batch &d,
                           batchblas_queue *q)
{
    if (d.count <= 0) return cudaSuccess;
    const choice c = decide(op, p, q);
    log_choice(op, prec, p, d, c);
    if (c == USE_SMALL) return run_small(op, prec, p, d, q);
    if (c == USE_CUBLAS) return bb_cublas_gemm(prec, p, d, q);
    return bb_generic_launch(op, prec, p, d, q);
}

static bool small_supports(bb_op op)
{
    switch (op) {
    case BB_OP_GETRF: case BB_OP_GETRFNP: case BB_OP_GETRI: case BB_OP_GETRI_OOP: case BB_OP_GECOND:
    case BB_OP_POTRF: case BB_OP_POTRS: case BB_OP_POSV: case BB_OP_TRSM: case BB_OP_GEMM:
        return true;
    default:
        return false;
    }
}

int bb_cuda_launch_supports(bb_op op, bb_prec prec)
{
    return small_supports(op) || bb_generic_supports(op, prec);
}
