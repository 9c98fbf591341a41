/*
 * THE GPU kernel policy: which kernel runs a launch (one op, one precision,
 * uniform parameters, d.count problems on device data).
 *
 *   register kernels (small_*.cu)  every dimension in [1, SMALL_MAX] (complex:
 *                                  [1, SMALL_MAX_COMPLEX]):
 *       getrf, getrfnp, getri, getri_oop, gecond, geinv, potrf, potrs, posv,
 *       trsm;
 *       gemm while max(m, n, k) < GEMM_CUBLAS_FROM, or min(m, n) <= GEMM_THIN
 *       (thin products with m, n within the bound and any k, the kernel
 *       taking k in chunks of the bound of m and n: their bits must not
 *       depend on the batch, which cuBLAS does not promise);
 *       every dimension <= SMALL_MAX, in each precision the kernel takes
 *       (small_blas3.cu, small_tri.cu, small_getrs.cu, small_norm.cu):
 *       symm, hemm, syrk, herk, syr2k, her2k, trmm, trtri, lauum, potri,
 *       poti, getrs, gesv, gecon; lange at any size.  A kernel that does not
 *       take the shape or precision answers cudaErrorNotSupported before
 *       launching: the recursion, then the generic kernels take it
 *   on-chip kernels (mid.cu)       potrf, getrf, getrfnp, gecond, geinv
 *                                  (real) above the register bound up to
 *                                  bb_mid_max in every dimension (64: a
 *                                  row a thread, two warps a problem; off
 *                                  with BATCHBLAS_CUDA_MID=0); d potrf: the
 *                                  Cholesky on chip (potrf_chip.cu: four
 *                                  warps a problem, tensor-core updates;
 *                                  without FP64 tensor cores the row
 *                                  kernel up to 48); d getrf, getrfnp:
 *                                  the LU on chip (getrf_chip.cu, the
 *                                  same shape); d gecond, geinv:
 *                                  Gauss-Jordan on chip (getrf_chip.cu);
 *                                  d getri, getri_oop, getrs, potrs up
 *                                  to 64: the solve on chip
 *                                  (getrf_chip.cu); d posv: the Cholesky
 *                                  and the solve on chip; d gesv: the LU
 *                                  and the solve on chip (one kernel up
 *                                  to GESV_FUSED_MAX); the blocked and
 *                                  recursive drivers call them too
 *                                  (diagonal blocks; getrs, potrs with
 *                                  BATCHBLAS_CUDA_MID=0) (the policy:
 *                                  bb_cuda_chip_max below)
 *   recursive driver (recursive.cu) the same routines above the register
 *                                  bound: seed 004's recursion down to the
 *                                  register kernels, GEMM off the diagonal
 *                                  (off with BATCHBLAS_CUDA_RECURSIVE=0)
 *   cuBLAS                         gemm from GEMM_CUBLAS_FROM up (alpha != 0, k > 0)
 *   blocked drivers (blocked.cu)   trsm, potrf, potrs, posv above the register
 *                                  bound: register kernels on diagonal blocks,
 *                                  batched GEMM/SYRK for the rest; getri and
 *                                  getri_oop as two such trsm; gecond and
 *                                  geinv as getrf + getri on a copy (then
 *                                  the norms, or the inverse written out);
 *                                  getrf, getrfnp: right-looking blocked LU
 *                                  (register panel kernel, generic above 512 rows); the LU
 *                                  family off with BATCHBLAS_CUDA_BLOCKED_LU=0
 *   generic kernels (generic.cu)   everything else
 *
 * A launch with per-problem sizes (d.vdim: a class launch of a variable
 * batch, src/cuda/varplan.cu) goes to the register kernel alone;
 * bb_cuda_var_class says which problems may be in one.
 *
 * BATCHBLAS_CUDA_SMALL=0 in the environment sends every launch to the
 * generic kernels (to compare, or to rule the register kernels out);
 * BATCHBLAS_CUDA_BLOCKED=0 keeps the register kernels but sends what the
 * blocked drivers would run to the generic kernels.
 * With the verbose log on (BATCHBLAS_VERBOSE=1), each launch logs its choice.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "generic.h"
#include "small.h"
#include "views.h"

/* Crossovers.  To be tuned by bench_gpu (batchblas-bench-gpu), which
   prints our kernel next to cuBLAS/cuSOLVER for every routine and size. */
static const int SMALL_MAX = BB_SMALL_MAX;   /* register kernels: all sizes <= this (real types) */
static const int SMALL_MAX_COMPLEX = 16;     /* ... complex types (see bb_small_cap) */
static const int GEMM_CUBLAS_FROM = 32;      /* gemm: cuBLAS once max(m, n, k) >= this */
static const int GEMM_THIN = 16;             /* ... unless min(m, n) <= this (and all <= the bound) */

/* The decision log.  libbatchblas's bb_log/bb_verbose are hidden symbols of
   another shared object, out of the plugin's reach: weak references use
   them when this code is linked with them (a static test build), and
   otherwise the same output goes to stderr under BATCHBLAS_VERBOSE. */
#pragma weak bb_verbose
#pragma weak bb_log

static int log_on(void)
{
    if (bb_verbose) return bb_verbose();
    static int v = BB_ENV_UNREAD;
    return bb_env_int("BATCHBLAS_VERBOSE", 0, &v) > 0;
}

static void log_line(const char *msg)
{
    if (bb_log) bb_log("%s", msg);
    else fprintf(stderr, "batchblas: %s\n", msg);
}

enum choice { USE_GENERIC, USE_SMALL, USE_MID, USE_CUBLAS, USE_BLOCKED, USE_RECURSIVE };

/* Register-kernel bound for a precision: every dimension up to it. */
static int small_limit(bb_prec prec)
{
    int lim = prec == BB_P_C || prec == BB_P_Z ? SMALL_MAX_COMPLEX : SMALL_MAX;
    return lim < bb_small_max(prec) ? lim : bb_small_max(prec);
}

/* A switch from the environment, read once into *cache (a static of the
   caller, BB_ENV_UNREAD at first; bb_env_int): 0 turns it off, any other
   number on, unset leaves the default. */
static int env_switch(const char *name, int dflt, int *cache) { return bb_env_int(name, dflt, cache) != 0; }

static int small_enabled(void)
{
    static int v = BB_ENV_UNREAD;
    return env_switch("BATCHBLAS_CUDA_SMALL", 1, &v);
}

static int blocked_on(void)
{
    static int v = BB_ENV_UNREAD;
    return env_switch("BATCHBLAS_CUDA_BLOCKED", 1, &v);
}

/* The blocked LU family (getrf, getrfnp, getri, getri_oop above the
   register bound): on by default; BATCHBLAS_CUDA_BLOCKED_LU=0 sends these
   sizes to the generic kernels (to compare). */
static int blocked_lu_on(void)
{
    static int v = BB_ENV_UNREAD;
    return blocked_on() && env_switch("BATCHBLAS_CUDA_BLOCKED_LU", 1, &v);
}

/* The on-chip kernels (mid.cu) above the register bound, up to their
   measured bound for the routine and precision (bb_mid_max; 0: none): on
   by default; BATCHBLAS_CUDA_MID=0 sends those sizes to the blocked
   drivers' register leaves (to compare).  op: potrf or getrf, or a routine
   of the blocked drivers that factors with them. */
static int mid_on(void)
{
    static int v = BB_ENV_UNREAD;
    return blocked_on() && env_switch("BATCHBLAS_CUDA_MID", 1, &v);
}

static int mid_limit(bb_op op, bb_prec prec) { return mid_on() ? bb_mid_max(op, prec) : 0; }

/* The recursive driver (recursive.cu) for the triangular family, the
   symmetric products and the LU solves above the register bound; off with
   BATCHBLAS_CUDA_RECURSIVE=0 (generic kernels there, to compare). */
static int recursive_on(void)
{
    static int v = BB_ENV_UNREAD;
    return blocked_on() && env_switch("BATCHBLAS_CUDA_RECURSIVE", 1, &v);
}

static choice decide(bb_op op, bb_prec prec, const bb_problem &p, batchblas_queue *q)
{
    if (!small_enabled()) return USE_GENERIC;
    const int lim = small_limit(prec);
    auto in_small = [lim](int s) { return s >= 1 && s <= lim; };
    /* the blocked drivers hand leading dimensions to cuBLAS (int) */
    const bool blocked_ok = p.lda <= INT32_MAX && p.ldb <= INT32_MAX;
    switch (op) {
    case BB_OP_TRSM:
        if (in_small(p.m) && in_small(p.n)) return USE_SMALL;
        return blocked_on() && p.m >= 1 && p.n >= 1 && blocked_ok ? USE_BLOCKED : USE_GENERIC;
    case BB_OP_GETRF: case BB_OP_GETRFNP:
        if (in_small(p.m) && in_small(p.n)) return USE_SMALL;
        if (p.m >= 1 && p.n >= 1 && p.m <= mid_limit(op, prec) && p.n <= mid_limit(op, prec)) return USE_MID;
        return blocked_lu_on() && p.m >= 1 && p.n >= 1 && blocked_ok ? USE_BLOCKED : USE_GENERIC;
    case BB_OP_GETRI: case BB_OP_GETRI_OOP:
        if (in_small(p.n)) return USE_SMALL;
        if (p.n >= 1 && p.n <= mid_limit(op, prec)) return USE_MID;
        return blocked_lu_on() && p.n >= 1 && p.n <= 8192 && blocked_ok ? USE_BLOCKED : USE_GENERIC;
    case BB_OP_GECOND: case BB_OP_GEINV:
        if (in_small(p.n)) return USE_SMALL;
        if (p.n >= 1 && p.n <= mid_limit(op, prec)) return USE_MID;
        return blocked_lu_on() && p.n >= 1 && p.n <= 8192 && blocked_ok ? USE_BLOCKED : USE_GENERIC;
    case BB_OP_POTRF:
        if (in_small(p.n)) return USE_SMALL;
        if (p.n >= 1 && p.n <= mid_limit(op, prec)) return USE_MID;
        return blocked_on() && p.n >= 1 && blocked_ok ? USE_BLOCKED : USE_GENERIC;
    case BB_OP_POTRS: case BB_OP_POSV:
        if (in_small(p.n) && p.nrhs >= 0) return USE_SMALL;
        if (p.n >= 1 && p.nrhs >= 0 && p.n <= mid_limit(op, prec)) return USE_MID; /* the solve on chip */
        return blocked_on() && p.n >= 1 && p.nrhs >= 0 && blocked_ok ? USE_BLOCKED : USE_GENERIC;
    case BB_OP_GEMM: {
        if (p.m < 1 || p.n < 1) return USE_GENERIC;
        int s = p.m > p.n ? p.m : p.n;
        if (p.k > s) s = p.k;
        /* thin products (the updates of the blocked drivers: 1 x 1 x 32 and
           such) stay in registers up to the bound: cuBLAS may split k for
           them depending on the batch, which would make a problem's bits
           depend on its neighbours */
        const int thin = p.m < p.n ? p.m : p.n;
        /* (any k: the register kernel takes it in chunks of its bound) */
        if ((s < GEMM_CUBLAS_FROM || thin <= GEMM_THIN) && p.m <= lim && p.n <= lim) return USE_SMALL;
        const bool alpha_zero = p.alpha[0] == 0 && p.alpha[1] == 0;
        if (q->cublas && !alpha_zero && p.k > 0 && p.lda <= INT32_MAX && p.ldb <= INT32_MAX && p.ldc <= INT32_MAX)
            return USE_CUBLAS;
        return USE_GENERIC;
    }
    case BB_OP_SYMM: case BB_OP_HEMM: case BB_OP_TRMM:
        if (p.m < 1 || p.n < 1) return USE_GENERIC;
        /* the triangle or symmetric matrix in registers: the kernel takes the
           free dimension in chunks if it can, else the recursion does */
        if ((p.side == BblasLeft ? p.m : p.n) <= SMALL_MAX) return USE_SMALL;
        return recursive_on() && blocked_ok && p.ldc <= INT32_MAX ? USE_RECURSIVE : USE_GENERIC;
    case BB_OP_SYRK: case BB_OP_HERK: case BB_OP_SYR2K: case BB_OP_HER2K:
        if (p.n < 1) return USE_GENERIC;
        if (p.n <= SMALL_MAX) return USE_SMALL; /* any k: in the kernel, or chunks of the recursion */
        return recursive_on() && blocked_ok && p.ldc <= INT32_MAX ? USE_RECURSIVE : USE_GENERIC;
    case BB_OP_TRTRI: case BB_OP_LAUUM: case BB_OP_POTRI: case BB_OP_POTI:
        if (p.n < 1) return USE_GENERIC;
        if (p.n <= SMALL_MAX) return USE_SMALL;
        return recursive_on() && blocked_ok ? USE_RECURSIVE : USE_GENERIC;
    case BB_OP_GETRS: case BB_OP_GESV:
        if (p.n < 1 || p.nrhs < 0) return USE_GENERIC;
        if (p.n <= SMALL_MAX) return USE_SMALL;
        if (p.n <= mid_limit(op, prec)) return USE_MID; /* the solve on chip (gesv: after the LU on chip) */
        return recursive_on() && blocked_lu_on() && blocked_ok ? USE_RECURSIVE : USE_GENERIC;
    case BB_OP_LANGE:
        return p.m >= 1 && p.n >= 1 ? USE_SMALL : USE_GENERIC;
    case BB_OP_GECON:
        return p.n >= 1 && p.n <= SMALL_MAX ? USE_SMALL : USE_GENERIC;
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
    case BB_OP_GEINV: return bb_small_geinv(prec, p, d, q);
    case BB_OP_POTRF: return bb_small_potrf(prec, p, d, q);
    case BB_OP_POTRS: return bb_small_potrs(prec, p, d, q, 0);
    case BB_OP_POSV: return bb_small_potrs(prec, p, d, q, 1);
    case BB_OP_TRSM: return bb_small_trsm(prec, p, d, q);
    case BB_OP_GEMM: return bb_small_gemm(prec, p, d, q);
    case BB_OP_SYMM: case BB_OP_HEMM: case BB_OP_SYRK: case BB_OP_HERK: case BB_OP_SYR2K: case BB_OP_HER2K:
    case BB_OP_TRMM:
        return bb_small_blas3(op, prec, p, d, q);
    case BB_OP_TRTRI: case BB_OP_LAUUM: case BB_OP_POTRI: case BB_OP_POTI: return bb_small_tri(op, prec, p, d, q);
    case BB_OP_GETRS: return bb_small_getrs(prec, p, d, q, 0);
    case BB_OP_GESV: return bb_small_getrs(prec, p, d, q, 1);
    case BB_OP_LANGE: return bb_small_lange(prec, p, d, q);
    case BB_OP_GECON: return bb_small_gecon(prec, p, d, q);
    default: return cudaErrorNotSupported;
    }
}

/* The on-chip kernel of op (decide() said USE_MID, or a class launch of
   class BB_VAR_MID). */
static cudaError_t run_mid(bb_op op, bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    switch (op) {
    case BB_OP_POTRF: return bb_mid_potrf(prec, p, d, q);
    case BB_OP_GETRF: return bb_mid_getrf(prec, p, d, q, 1);
    case BB_OP_GETRFNP: return bb_mid_getrf(prec, p, d, q, 0);
    case BB_OP_GECOND: return bb_mid_gecond(prec, p, d, q, 0);
    case BB_OP_GEINV: return bb_mid_gecond(prec, p, d, q, 1);
    case BB_OP_GETRI: return bb_getri_chip(prec, p, d, q, 0);
    case BB_OP_GETRI_OOP: return bb_getri_chip(prec, p, d, q, 1);
    case BB_OP_GETRS: return bb_getrs_chip(prec, p, d, q);
    case BB_OP_GESV: return bb_gesv_chip(prec, p, d, q);
    case BB_OP_POTRS: return bb_potrs_chip(prec, p, d, q);
    case BB_OP_POSV: { /* the failed factorisations (info) are skipped by the solve */
        cudaError_t e = bb_potrf_chip(prec, p, d, q);
        return e == cudaSuccess ? bb_potrs_chip(prec, p, d, q) : e;
    }
    default: return cudaErrorNotSupported;
    }
}

static void log_choice(bb_op op, bb_prec prec, const bb_problem &p, const bb_dev_batch &d, choice c)
{
    if (!log_on()) return;
    int s = p.m > p.n ? p.m : p.n; /* gemm: its kernel's bound is that of m and n */
    if (op != BB_OP_GEMM && op != BB_OP_GETRF && op != BB_OP_GETRFNP && op != BB_OP_TRSM && op != BB_OP_TRMM &&
        op != BB_OP_SYMM && op != BB_OP_HEMM && op != BB_OP_LANGE)
        s = p.n;
    char what[48], line[200];
    if (c == USE_SMALL) snprintf(what, sizeof what, "register kernel (bound %d)", bb_small_bound(s));
    else if (c == USE_MID) snprintf(what, sizeof what, "on-chip kernel (bound %d)", bb_mid_max(op, prec));
    else if (c == USE_BLOCKED) snprintf(what, sizeof what, "blocked driver (leaves of %d)", small_limit(prec));
    else if (c == USE_RECURSIVE) snprintf(what, sizeof what, "recursive driver (leaves of %d)", SMALL_MAX);
    else snprintf(what, sizeof what, "%s", c == USE_CUBLAS ? "cuBLAS" : "generic kernel");
    snprintf(line, sizeof line, "cuda launch: %c%s m=%d n=%d k=%d nrhs=%d, %lld problems -> %s", "sdcz"[prec],
             bb_op_info(op)->name, p.m, p.n, p.k, p.nrhs, (long long)d.count, what);
    log_line(line);
}

static void log_fallback(bb_op op)
{
    if (!log_on()) return;
    char line[96];
    snprintf(line, sizeof line, "cuda launch: %s does not fit the chosen kernel -> generic kernel", bb_op_info(op)->name);
    log_line(line);
}

cudaError_t bb_cuda_launch(bb_op op, bb_prec prec, const bb_problem &p, const bb_dev_batch &d,
                           batchblas_queue *q)
{
    if (d.count <= 0) return cudaSuccess;
    /* fault injection (src/common/fault.c, tests/test_faults.c): the armed
       launch fails before launching anything, with the error that
       cudaGetLastError gives for a launch the device refused, a non-sticky
       one (a real sticky failure, cudaErrorLaunchFailure, would leave the
       context unusable for the rest of the process); nothing is pending
       to clear.  Every entry counts, the drivers' steps included. */
    if (bb_cuda_launch_fault()) {
        if (log_on()) log_line("cuda launch: injected failure (fault test) -> cudaErrorLaunchOutOfResources");
        return cudaErrorLaunchOutOfResources;
    }
    if (d.vdim) { /* a class launch of a variable batch: the register kernel or the variable-size driver */
        if (d.vdriver) {
            if (log_on()) {
                char line[160];
                snprintf(line, sizeof line, "cuda launch: %c%s, %lld problems of sizes up to m=%d n=%d k=%d -> "
                         "variable-size driver", "sdcz"[prec], bb_op_info(op)->name, (long long)d.count, p.m, p.n, p.k);
                log_line(line);
            }
            return bb_var_driver_launch(op, prec, p, d, q);
        }
        const int cls = bb_cuda_var_class(op, prec, p);
        if (log_on()) {
            char line[160];
            snprintf(line, sizeof line, "cuda launch: %c%s, %lld problems of sizes up to m=%d n=%d k=%d nrhs=%d -> "
                     "%s kernel with per-problem sizes (bound %d)", "sdcz"[prec], bb_op_info(op)->name,
                     (long long)d.count, p.m, p.n, p.k, p.nrhs, cls == BB_VAR_MID ? "on-chip" : "register",
                     cls == BB_VAR_MID ? bb_mid_max(op, prec) : cls);
            log_line(line);
        }
        if (cls == BB_VAR_MID) return run_mid(op, prec, p, d, q);
        return run_small(op, prec, p, d, q);
    }
    const choice c = decide(op, prec, p, q);
    log_choice(op, prec, p, d, c);
    /* a register kernel or the recursion that does not take this shape or
       precision answers cudaErrorNotSupported before launching anything:
       the next choice down takes the launch */
    if (c == USE_SMALL) {
        cudaError_t e = run_small(op, prec, p, d, q);
        if (e != cudaErrorNotSupported) return e;
        if (recursive_on() && bb_recursive_supports(op)) {
            e = bb_recursive_launch(op, prec, p, d, q, SMALL_MAX);
            if (e != cudaErrorNotSupported) return e;
        }
        log_fallback(op);
        return bb_generic_launch(op, prec, p, d, q);
    }
    if (c == USE_CUBLAS) return bb_cublas_gemm(prec, p, d, q);
    if (c == USE_MID) {
        cudaError_t e = run_mid(op, prec, p, d, q);
        if (e != cudaErrorNotSupported) return e;
        log_fallback(op);
        return bb_generic_launch(op, prec, p, d, q);
    }
    if (c == USE_BLOCKED) return bb_blocked_launch(op, prec, p, d, q, small_limit(prec), mid_on());
    if (c == USE_RECURSIVE) {
        cudaError_t e = bb_recursive_launch(op, prec, p, d, q, SMALL_MAX);
        if (e != cudaErrorNotSupported) return e;
        log_fallback(op);
    }
    return bb_generic_launch(op, prec, p, d, q);
}

/* Variable sizes (varplan.cu): the register kernels that read each
   problem's sizes from bb_dev_batch.vdim, and the bound of the
   instantiation that serves p among them (the same as a fixed launch of
   p would take: decide() says USE_SMALL); BB_VAR_MID for the on-chip
   kernels' sizes (decide() says USE_MID), BB_VAR_DRIVER for the
   variable-size driver's.  BATCHBLAS_CUDA_VAR_CLASSES=0
   turns class launches off (one launch per distinct parameter set, to
   compare). */
static int var_classes_on(void)
{
    static int v = BB_ENV_UNREAD;
    return env_switch("BATCHBLAS_CUDA_VAR_CLASSES", 1, &v);
}

int bb_cuda_var_class(bb_op op, bb_prec prec, const bb_problem &p)
{
    if (!small_enabled() || !var_classes_on()) return 0;
    const int lim = small_limit(prec);
    auto in = [](int s, int hi) { return s >= 1 && s <= hi; };
    switch (op) {
    /* the routines whose bound-32 kernels take fewer columns for 17..24
       (bb_small_cols) have a class for them */
    case BB_OP_POTRF:
        if (in(p.n, lim)) return bb_small_cols(p.n);
        if (in(p.n, mid_limit(op, prec))) return BB_VAR_MID;
        return p.n > lim ? BB_VAR_DRIVER : 0;
    case BB_OP_GECOND: case BB_OP_GEINV:
        if (in(p.n, lim)) return bb_small_cols(p.n);
        if (in(p.n, mid_limit(op, prec))) return BB_VAR_MID;
        return in(p.n, BB_VAR_LU_ROWS) ? BB_VAR_DRIVER : 0; /* getrf's panels */
    case BB_OP_GETRI: case BB_OP_GETRI_OOP: /* the driver's getri: n + 1 ints of shared memory, as the LU family */
        if (in(p.n, lim)) return bb_small_bound(p.n);
        if (in(p.n, mid_limit(op, prec))) return BB_VAR_MID;
        return in(p.n, BB_VAR_LU_ROWS) ? BB_VAR_DRIVER : 0;
    case BB_OP_POTRS: case BB_OP_POSV:
        if (p.nrhs < 0) return 0;
        if (in(p.n, lim)) return bb_small_bound(p.n);
        if (in(p.n, mid_limit(op, prec))) return BB_VAR_MID;
        return p.n > lim ? BB_VAR_DRIVER : 0;
    case BB_OP_GETRF: case BB_OP_GETRFNP:
        if (in(p.m, lim) && in(p.n, lim)) return bb_small_cols(p.m > p.n ? p.m : p.n);
        if (in(p.m, mid_limit(op, prec)) && in(p.n, mid_limit(op, prec))) return BB_VAR_MID;
        /* the driver's panels hold at most BB_VAR_LU_ROWS rows; row-major
           data is transposed in place, so square problems only */
        return in(p.m, BB_VAR_LU_ROWS) && p.n >= 1 && (!p.rowmajor || p.m == p.n) ? BB_VAR_DRIVER : 0;
    case BB_OP_TRSM:
        if (in(p.m, lim) && in(p.n, lim)) return bb_small_cols(p.m > p.n ? p.m : p.n);
        return p.m >= 1 && p.n >= 1 ? BB_VAR_DRIVER : 0;
    case BB_OP_TRTRI: case BB_OP_LAUUM: case BB_OP_POTRI: case BB_OP_POTI:
        return in(p.n, SMALL_MAX) ? bb_small_bound(p.n) : p.n > SMALL_MAX ? BB_VAR_DRIVER : 0;
    case BB_OP_GECON:
        return in(p.n, SMALL_MAX) ? bb_small_bound(p.n) : p.n > SMALL_MAX ? BB_VAR_DRIVER : 0;
    /* the rest of the BLAS-3 family and lange: the driver at every size
       (its GEMM takes any size; trmm's register leaf takes per-problem
       sizes) */
    case BB_OP_TRMM: case BB_OP_SYMM: case BB_OP_HEMM:
        return p.m >= 1 && p.n >= 1 ? BB_VAR_DRIVER : 0;
    case BB_OP_SYRK: case BB_OP_HERK: case BB_OP_SYR2K: case BB_OP_HER2K:
        return p.n >= 1 && p.k >= 0 ? BB_VAR_DRIVER : 0;
    case BB_OP_LANGE:
        return p.m >= 1 && p.n >= 1 ? BB_VAR_DRIVER : 0;
    case BB_OP_GETRS: case BB_OP_GESV:
        if (p.nrhs < 0) return 0;
        if (in(p.n, SMALL_MAX)) return op == BB_OP_GETRS ? bb_small_bound(p.n) : bb_small_cols(p.n);
        if (in(p.n, mid_limit(op, prec))) return BB_VAR_MID;
        return in(p.n, BB_VAR_LU_ROWS) ? BB_VAR_DRIVER : 0;
    case BB_OP_GEMM: {
        if (p.m < 1 || p.n < 1 || p.k < 0) return 0;
        if (p.m > lim || p.n > lim || p.k > lim) return BB_VAR_DRIVER;
        int s = p.m > p.n ? p.m : p.n;
        if (p.k > s) s = p.k;
        const int thin = p.m < p.n ? p.m : p.n;
        return s < GEMM_CUBLAS_FROM || thin <= GEMM_THIN ? bb_small_bound(s) : BB_VAR_DRIVER;
    }
    default:
        return 0; /* launches of equal sizes */
    }
}

/* BATCHBLAS_CUDA_VAR_GROUPED (read at each call): 0 keeps gemm's
   variable sizes above the register bound in the variable-size driver,
   to compare; "all" sends them to the grouped GEMM whatever their flops
   (the tests) */
double bb_cuda_var_grouped_flops(void)
{
    const char *e = getenv("BATCHBLAS_CUDA_VAR_GROUPED");
    if (e && !strcmp(e, "0")) return -1;
    if (e && !strcmp(e, "all")) return 0;
    return BB_VAR_GROUPED_FLOPS;
}

/* cuBLAS's grouped GEMM, a group per problem, ran the problems above
   the register bound 1.7-3.2x faster than the driver's k_vgemm /
   k_vgemm_tc (uniform [1, 128] and [1, 512], s and d, H200,
   doc/performance.md session 17); it has no complex types.  Since the
   pipelined k_vgemm_tc (session 30) the driver runs double faster than
   it (uniform [1, 128] / [1, 256] / [1, 512]: 2.29-2.36 / 5.93-6.27 /
   32.6 ms against 2.65-3.94 / 6.39-8.62 / 34.8, skewed within the runs'
   spread), so only single takes it, and double with
   BATCHBLAS_CUDA_VAR_GROUPED=all (tests).  The driver's problems inside
   the register bound (gemm's cuBLAS sizes, GEMM_CUBLAS_FROM) stay in the
   driver: there are up to 10^6 of them, where the grouped GEMM's host
   time is seconds. */
int bb_cuda_var_grouped_above(bb_op op, bb_prec prec)
{
    const double f = bb_cuda_var_grouped_flops();
    return op == BB_OP_GEMM && (prec == BB_P_S || (prec == BB_P_D && f == 0)) && f >= 0 ? small_limit(prec) : -1;
}

bool bb_cuda_var_grouped(bb_op op, bb_prec prec, const bb_problem &p)
{
    const int lim = bb_cuda_var_grouped_above(op, prec);
    return lim >= 0 && (p.m > lim || p.n > lim || p.k > lim) && bb_cuda_var_class(op, prec, p) == BB_VAR_DRIVER;
}

static bool small_supports(bb_op op)
{
    switch (op) {
    case BB_OP_GETRF: case BB_OP_GETRFNP: case BB_OP_GETRI: case BB_OP_GETRI_OOP: case BB_OP_GECOND:
    case BB_OP_GEINV: case BB_OP_POTRF: case BB_OP_POTRS: case BB_OP_POSV: case BB_OP_TRSM: case BB_OP_GEMM:
        return true;
    default:
        return false;
    }
}

/* A trsm leaf's two ways (the blocked driver's trsm, the variable-size
   driver's trsm walks): the register trsm on every chunk of L of the free
   dimension, a chain of L dependent steps in each; or the diagonal block
   inverted once (register trtri, out of place) and every chunk multiplied
   by the inverse (register trmm, no chain).  The inversion costs about
   one chunk's solve, so it pays from DINV_MIN chunks a problem (on
   average over a variable leaf's problems).  Measured on the H200,
   session 35 (doc/performance.md), against the solve on every leaf:
   fixed d, 10240 problems, n = 64 (2 chunks) / 128 / 256: trsm 1.30 /
   1.41 / 1.36x, potrf 1.00 / 1.40 / 1.51x, potrs 1.30 / 1.39 / 1.34x,
   getri 1.13 / 1.23 / 1.20x; variable d uniform [1, 512] trsm 1.14x,
   potrs 1.15x; skewed [1, 512] within the runs' spread.
   BATCHBLAS_CUDA_DINV=N sets the bound (0: never; 1: every leaf). */
static const int DINV_MIN = 2;

int bb_cuda_dinv_min(void)
{
    static int v = BB_ENV_UNREAD;
    const int x = bb_env_int("BATCHBLAS_CUDA_DINV", DINV_MIN, &v);
    return x < 0 ? DINV_MIN : x;
}

/* The blocked trsm on chip (trsm_panel.cu): a thread block solves a panel
   of 32 right-hand sides whole in shared memory, one read and one write
   of B, where the blocked walk passes over B once a block and once a GEMM.
   Double only, on devices with FP64 tensor cores (0 elsewhere); up to TRSM_PANEL_MAX, where the
   panel (32 x 256 doubles, 74 KiB with the diagonal block's inverse beside it) still leaves three
   blocks an SM.  The variable-size driver's recursive walk takes it for
   its leaves of up to that order.  BATCHBLAS_CUDA_TRSM_PANEL=0: the
   blocked walk (the variable driver: leaves of 32); =N (33 .. 256): N the
   bound, to compare. */
static const int TRSM_PANEL_MAX = 256;

int bb_cuda_trsm_panel_max(bb_prec prec)
{
    static int v = BB_ENV_UNREAD;
    const int x = bb_env_int("BATCHBLAS_CUDA_TRSM_PANEL", 1, &v);
    if (prec != BB_P_D || x <= 0 || (x > 1 && x <= 32) || !bb_cuda_has_dmma()) return 0;
    return x > 1 && x < TRSM_PANEL_MAX ? x : TRSM_PANEL_MAX;
}

/* The kernels that hold a whole double problem on chip (the matrix in
   shared memory, block columns of 16, the updates on the FP64 tensor
   cores, four warps a problem), each up to CHIP_MAX = 64 and each with its
   switch (0 turns it off, to compare):
     potrf_chip.cu   potrf (and posv) of order 33 .. 64, fixed and
                     variable, and the blocked driver's diagonal blocks
                     above, where the kernel a row a thread (mid.cu) takes
                     a barrier a column and its 64 registers of a row
                     limited it to order 48 (BATCHBLAS_CUDA_POTRF_CHIP=0:
                     that kernel up to 48, the blocked driver above);
     getrf_chip.cu   getrf and getrfnp (and gesv's factorisation) with m
                     and n up to 64, both layouts, fixed and variable
                     (bb_mid_getrf): two warps factor each block column, a
                     barrier a step, where the kernel a row a thread
                     updates its 64-wide rows at each step
                     (BATCHBLAS_CUDA_GETRF_CHIP=0: that kernel);
     getrf_chip.cu   gecond and geinv of order 33 .. 64 (bb_mid_gecond):
                     Gauss-Jordan by block columns of 16, the same panel
                     over all rows, one tensor-core product for the rest
                     of the matrix, where the kernel a row a thread runs
                     64 steps of 64-wide rows (BATCHBLAS_CUDA_GECOND_CHIP=0:
                     that kernel);
     getrf_chip.cu   the solves of order 33 .. 64: getri and getri_oop,
                     getrs and potrs (and posv's) with any number of
                     right-hand sides, fixed and variable (posv's class
                     after the Cholesky on chip): the factors in shared
                     memory, the solution in the warps' registers (8
                     columns a warp at a time), the diagonal blocks
                     inverted, each warp solving its own columns through
                     both factors on the tensor cores, where the blocked
                     and recursive drivers run a permutation and two trsm
                     launches (BATCHBLAS_CUDA_SOLVE_CHIP=0: those drivers);
     getrf_chip.cu   gesv of order 33 .. 64, fixed and variable, where the
                     LU and the solve on chip are both on: one kernel up to
                     GESV_FUSED_MAX (below), the two as two launches above
                     (BATCHBLAS_CUDA_GESV_CHIP=0: two launches at every
                     order). */
static const int CHIP_MAX = 64;

int bb_cuda_chip_max(bb_op op, bb_prec prec)
{
    static int v_potrf = BB_ENV_UNREAD, v_getrf = BB_ENV_UNREAD, v_gecond = BB_ENV_UNREAD, v_solve = BB_ENV_UNREAD,
               v_gesv = BB_ENV_UNREAD;
    const char *name;
    int *cache;
    switch (op) {
    case BB_OP_POTRF: name = "BATCHBLAS_CUDA_POTRF_CHIP", cache = &v_potrf; break;
    case BB_OP_GETRF: case BB_OP_GETRFNP: name = "BATCHBLAS_CUDA_GETRF_CHIP", cache = &v_getrf; break;
    case BB_OP_GECOND: case BB_OP_GEINV: name = "BATCHBLAS_CUDA_GECOND_CHIP", cache = &v_gecond; break;
    case BB_OP_GETRI: case BB_OP_GETRI_OOP: case BB_OP_GETRS: case BB_OP_POTRS: case BB_OP_POSV:
        name = "BATCHBLAS_CUDA_SOLVE_CHIP", cache = &v_solve;
        break;
    case BB_OP_GESV: name = "BATCHBLAS_CUDA_GESV_CHIP", cache = &v_gesv; break;
    default: return 0;
    }
    if (prec != BB_P_D || bb_env_int(name, 1, cache) == 0 || !bb_cuda_has_dmma()) return 0;
    return CHIP_MAX;
}

/* The blocked LU's panels on chip (blocked.cu, getrf_core): above the
   LU on chip's order the recursive LU walks panels of 64 columns, and
   each panel of at most LU_PANEL_CHIP_ROWS rows is factored on chip
   (bb_lu_panel_chip: one read, one write, 128 x 64 doubles in shared
   memory), its interchanges deferred to the other columns (bb_lu_perm);
   taller panels split into register panels of 32 columns as before.
   BATCHBLAS_CUDA_LU_PANEL_CHIP=0: the register panels everywhere. */
static const int LU_PANEL_CHIP_ROWS = 128;

int bb_cuda_lu_panel_chip_rows(bb_prec prec)
{
    static int v = BB_ENV_UNREAD;
    if (!bb_cuda_chip_max(BB_OP_GETRF, prec) || bb_env_int("BATCHBLAS_CUDA_LU_PANEL_CHIP", 1, &v) == 0) return 0;
    return LU_PANEL_CHIP_ROWS;
}

/* gesv of order 33 .. GESV_FUSED_MAX in one kernel (bb_gesv_chip: the LU
   on chip, then the solve on the factors as they lie), above it the LU and
   the solve on chip as two launches.  Measured on the H200 (session 43, d,
   10240 problems, nrhs = n, ms fused / two): n = 33 0.577 / 0.613, 40
   0.617 / 0.652, 48 0.738 / 0.730, 56 1.031 / 0.982, 64 1.180 / 1.080.
   The fused kernel saves the factors' second read and a launch, but its
   solve gathers B's rows straight into registers (no shared memory left
   for getrs's stage at six blocks an SM), which costs more than that
   from 48 up.  BATCHBLAS_CUDA_GESV_CHIP=0: two launches at every order. */
static const int GESV_FUSED_MAX = 40;

int bb_cuda_gesv_fused_max(bb_prec prec)
{
    return bb_cuda_chip_max(BB_OP_GESV, prec) ? GESV_FUSED_MAX : 0;
}

/* The fixed-size trsm's ranges on chip: above this order the blocked trsm
   recurses (seed 004's TRSM row: the first half solved, the second
   updated with it by one GEMM, then solved) and solves every range of at
   most this order on chip.  Measured on the H200 (session 37, d, 10240
   problems): trsm n = 256 in two ranges of 128 10.41 ms against 11.79
   whole (at 256 the panel's 74 KiB of shared memory leave three blocks an
   SM, at 128 four, and the GEMM between runs near its roof).  The
   variable-size driver keeps leaves of up to bb_cuda_trsm_panel_max:
   there a skewed batch's few large problems wait on the launches (trsm
   skewed [1, 512] 1.50 ms with leaves of 256 against 1.60 with 128).
   BATCHBLAS_CUDA_TRSM_SPLIT=N (33 .. 256) sets it, to compare. */
static const int TRSM_PANEL_SPLIT = 128;

int bb_cuda_trsm_panel_split(bb_prec prec)
{
    static int v = BB_ENV_UNREAD;
    const int x = bb_env_int("BATCHBLAS_CUDA_TRSM_SPLIT", TRSM_PANEL_SPLIT, &v);
    const int mx = bb_cuda_trsm_panel_max(prec);
    return x > 32 && x < mx ? x : mx;
}

/* potrs with both solves on one read of B (bb_potrs_panel, trsm_panel.cu)
   up to this order; above it, two trsm (each in ranges of
   bb_cuda_trsm_panel_split).  Measured on the H200 (session 48, d, 10240
   problems, nrhs = n, potrs ms on chip / two trsm): n = 65 1.62 / 1.81,
   128 3.58 / 4.09, 160 6.80 / 7.29, 192 10.39 / 10.77, 224 15.17 / 15.30
   (posv 19.85 / 21.37), 256 21.93 / 20.17 (all 256 rows of a panel on
   chip: three blocks an SM).  BATCHBLAS_CUDA_POTRS_PANEL=0 turns it off,
   =N (33 .. 256) sets the order. */
static const int POTRS_PANEL_MAX = 224;

int bb_cuda_potrs_panel_max(bb_prec prec)
{
    static int v = BB_ENV_UNREAD;
    const int x = bb_env_int("BATCHBLAS_CUDA_POTRS_PANEL", POTRS_PANEL_MAX, &v);
    const int mx = bb_cuda_trsm_panel_max(prec);
    return x <= 0 ? 0 : x > 32 && x < mx ? x : mx;
}

int bb_cuda_has_dmma(void)
{
    static int cache = -1;
    int v = __atomic_load_n(&cache, __ATOMIC_RELAXED);
    if (v < 0) {
        int dev = 0, major = 0;
        v = cudaGetDevice(&dev) == cudaSuccess &&
            cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) == cudaSuccess && major >= 8;
        __atomic_store_n(&cache, v, __ATOMIC_RELAXED);
    }
    return v;
}

int bb_cuda_launch_supports(bb_op op, bb_prec prec)
{
    return small_supports(op) || bb_generic_supports(op, prec);
}
