/*
 * The internal batch descriptor.  Every public form (group, fixed, variable,
 * strided) of every routine fills one bb_batch (see the generated
 * src/common/api_?.c) and calls bb_execute() (front.c), which checks the
 * arguments (check.c), picks a backend (dispatch.c) and folds the per-problem
 * codes into the caller's info array.  Backends see only bb_batch and the
 * normalised per-problem view bb_problem (problem.c).
 */
#ifndef BB_BATCH_H
#define BB_BATCH_H

#include <stdint.h>
#include <stddef.h>
#include "batchblas_types.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BB_INTERNAL __attribute__((visibility("hidden")))

typedef enum { BB_P_S = 0, BB_P_D = 1, BB_P_C = 2, BB_P_Z = 3 } bb_prec;
typedef enum { BB_FORM_GROUP, BB_FORM_FIXED, BB_FORM_VAR, BB_FORM_STRIDED } bb_form;

typedef enum {
    BB_OP_GEMM, BB_OP_SYMM, BB_OP_HEMM, BB_OP_SYRK, BB_OP_HERK, BB_OP_SYR2K,
    BB_OP_HER2K, BB_OP_TRMM, BB_OP_TRSM,
    BB_OP_POTRF, BB_OP_POTRS, BB_OP_POSV, BB_OP_TRTRI, BB_OP_LAUUM,
    BB_OP_POTRI, BB_OP_POTI,
    BB_OP_GETRF, BB_OP_GETRFNP, BB_OP_GETRS, BB_OP_GESV, BB_OP_GETRI,
    BB_OP_GETRI_OOP,
    BB_OP_LANGE, BB_OP_GECOND, BB_OP_GECON,
    BB_OP_GEINV,
    BB_NOPS
} bb_op;

/*
 * Argument slots.  The first BB_NPAR are the integer parameters (options,
 * sizes, leading dimensions); then the scalars, the operands, the operand
 * strides and the batch-level arguments.  bb_batch.pos[slot] is the 1-based
 * position of that argument in the public function's signature (0: absent),
 * so an argument error is reported as -pos[slot] whatever the form.
 * The options are the slots BB_SIDE .. BB_NORM.
 */
enum {
    BB_SIDE, BB_UPLO, BB_TRANS, BB_TRANSB, BB_DIAG, BB_NORM,
    BB_M, BB_N, BB_K, BB_NRHS, BB_LDA, BB_LDB, BB_LDC,
    BB_NPAR,
    BB_ALPHA = BB_NPAR, BB_BETA,
    BB_OPD0,                       /* operand o is slot BB_OPD0 + o */
    BB_STRIDE0 = BB_OPD0 + 6,      /* stride of operand o is BB_STRIDE0 + o */
    BB_COUNT_ARG = BB_STRIDE0 + 6, /* group_count or batch_size */
    BB_GSIZES_ARG, BB_LAYOUT_ARG, BB_INFO_ARG, BB_QUEUE_ARG,
    BB_NARG
};

/* Operands: matrices A, B, C; pivots; per-problem real vectors X (in), Y (out). */
enum { BB_A, BB_B, BB_C, BB_IPIV, BB_X, BB_Y, BB_NOPD };

typedef struct {
    void *const *arr; /* pointer-array forms: one pointer per problem; else NULL */
    char *base;       /* strided form, and the per-problem vectors X, Y */
    int64_t stride;   /* elements between consecutive problems (base only) */
} bb_operand;

/* Codes beyond argument positions, reported per problem. */
#define BB_INFO_NOMEM  BblasInfoNoMemory /* workspace allocation failed */
#define BB_INFO_DEVICE BblasInfoDevice   /* a device call failed */

typedef struct bb_batch {
    bb_op op;
    bb_prec prec;
    bb_form form;
    const char *name;              /* public routine name */
    const unsigned char *pos;      /* [BB_NARG] signature positions */
    int layout;                    /* BblasColMajor or BblasRowMajor */
    int64_t count;                 /* problems in the batch */
    int64_t ngroups;               /* parameter sets */
    const int *group_sizes;        /* group form only */
    int pinc;                      /* parameter index step: 0 one set, 1 per group */
    const int *par[BB_NPAR];       /* NULL where the routine has no such parameter */
    const void *alpha, *beta;      /* T, or R where the routine says so */
    bb_operand opd[BB_NOPD];
    int *info;
    batchblas_queue_t queue;       /* _dev variants: the queue; else NULL */
    int device_data;               /* 1: matrices (and maybe pointer arrays) on the device */

    /* filled by the front end (front.c) */
    int mode;                      /* BblasErrorsReport* */
    int64_t *gstart;               /* group form: first problem of group g, [ngroups+1] */
    int *pinfo;                    /* per problem: nonzero on entry = skip; out = code */
    int64_t nbad;                  /* problems skipped for argument errors */
    int info_on_device;            /* _dev calls: info is in device memory */
    int uniform_options;           /* variable form on device data: every problem has
                                      problem 0's options (side .. norm), as the
                                      checks found; 0: not known.  Then also: */
    int par_max[BB_NPAR];          /* the largest m, n, k, nrhs of the problems that
                                      passed the checks (-1: none, or not known) */
    int uniform_scalars;           /* ... and every alpha and beta is problem 0's (0: not known) */
    int info_folded;               /* set by the backend: codes folded into the device info */
    int share_device;              /* host data, a share of a spread batch (spread.c):
                                      1 + the CUDA device to run it on; 0: the caller's
                                      current device */
    int stage_threads;             /* host data, a share of a spread batch run beside a
                                      CPU share: the host copy threads of its staging
                                      pipeline; 0: the CUDA backend's own choice */
    int par_on_device;             /* variable form on device data: b->par, alpha and
                                      beta are the caller's arrays in device memory,
                                      checked there (bb_backend.var_check): then
                                      uniform_options, uniform_scalars and par_max
                                      are set, b->nbad counts the problems that failed,
                                      and their codes are in dev_codes, not in pinfo
                                      (unless pinfo was filled from them: see front.c) */
    int *dev_codes;                /* ... device memory: every problem's check code */
    int64_t first_good;            /* ... the first problem that passed (count: none) */
    int first_code;                /* ... the code of the first problem that failed */
    int device_fail;               /* set by a device backend: 0, or the code
                                      (BB_INFO_DEVICE, BB_INFO_NOMEM) of a device call or
                                      allocation that failed for this call, as known on
                                      the host when run returns (never by waiting for the
                                      queue); front.c then reports it to the error handler
                                      in every info mode */
} bb_batch;

/*
 * One problem, normalised to column-major: row-major input is turned into the
 * equivalent column-major problem (swapped operands, flipped uplo/side, ...)
 * wherever such an equivalent exists; only the LU family (getrf, getrfnp,
 * getrs, gesv, getri, getri_oop, gecon) keeps rowmajor = 1 and the backend
 * transposes.  Scalars are held as double re/im pairs.
 */
typedef struct bb_problem {
    int side, uplo, trans, transb, diag, norm;
    int m, n, k, nrhs;
    int64_t lda, ldb, ldc;
    double alpha[2], beta[2];
    int rowmajor;   /* LU family only: data is row-major */
    int rhs_right;  /* potrs/posv row-major: B holds B^T (nrhs x n); solve X*A = B */
    int swap_ab;    /* operands A and B exchanged by the normalisation */
    /* this problem's data */
    void *a, *b, *c;
    int *ipiv;
    void *x, *y;
} bb_problem;

/* The user's operand slot behind normalised slot o (row-major gemm
   exchanges A and B: swap_ab). */
static inline int bb_user_slot(const bb_problem *p, int o)
{
    return p->swap_ab && (o == BB_A || o == BB_B) ? BB_A + BB_B - o : o;
}

/* front.c */
BB_INTERNAL void bb_execute(bb_batch *b);

/* fault.c: every internal allocation goes through these (or asks
   bb_fault_hit first), so a test can make the k-th one fail:
   bb_fault_arm(k), then bb_fault_disarm() == 1 if it did (*seen: how many
   allocations were counted meanwhile). */
BB_INTERNAL int bb_fault_hit(void);
BB_INTERNAL void bb_fault_arm(long k);
BB_INTERNAL int bb_fault_disarm(long *seen);
/* ... and a second counter, for the CUDA backend's launches (every entry of
   bb_cuda_launch, src/cuda/launch.cu, asks bb_fault_launch_hit through the
   pointer the loader hands to the plugin): bb_fault_arm_launch(k) makes the
   k-th launch from then on fail once (cudaErrorLaunchOutOfResources, nothing
   launched); bb_fault_disarm_launch() == 1 if it did. */
BB_INTERNAL int bb_fault_launch_hit(void);
BB_INTERNAL void bb_fault_arm_launch(long k);
BB_INTERNAL int bb_fault_disarm_launch(long *seen);
BB_INTERNAL void *bb_malloc(size_t bytes);
BB_INTERNAL void *bb_calloc(size_t n, size_t size);
BB_INTERNAL void *bb_realloc(void *p, size_t bytes);

/* problem.c */
BB_INTERNAL void bb_group_problem(const bb_batch *b, int64_t g, bb_problem *p);
BB_INTERNAL void bb_problem_data(const bb_batch *b, int64_t i, bb_problem *p);
/* The same, split for hot loops over a group: bb_problem_views once per
   group parameters gp (which user operand fills each normalised slot, and
   how it is addressed), then bb_problem_at per problem (pointers only). */
typedef struct {
    void *const *arr; /* pointer array, or NULL */
    char *base;       /* else base + i * step bytes, or NULL: no operand */
    int64_t step;
} bb_opview;
typedef struct {
    bb_opview a, b, c, ipiv, x, y;
} bb_views;
BB_INTERNAL void bb_problem_views(const bb_batch *b, const bb_problem *gp, bb_views *v);
static inline void *bb_view_ptr(const bb_opview *v, int64_t i)
{
    return v->arr ? v->arr[i] : v->base ? v->base + i * v->step : NULL;
}
static inline void bb_problem_at(const bb_views *v, int64_t i, bb_problem *p)
{
    p->a = bb_view_ptr(&v->a, i);
    p->b = bb_view_ptr(&v->b, i);
    p->c = bb_view_ptr(&v->c, i);
    p->ipiv = (int *)bb_view_ptr(&v->ipiv, i);
    p->x = bb_view_ptr(&v->x, i);
    p->y = bb_view_ptr(&v->y, i);
}
BB_INTERNAL int64_t bb_group_first(const bb_batch *b, int64_t g);
BB_INTERNAL void *bb_operand_ptr(const bb_batch *b, int o, int64_t i);
/* bytes of one alpha (which = 0) or beta (1) value: T, or R where real */
BB_INTERNAL size_t bb_scalar_bytes(const bb_batch *b, int which);
/* rows x columns of operand o as stored (column-major view) */
BB_INTERNAL void bb_operand_dims(bb_op op, const bb_problem *p, int o, int *r, int *c);

/* check.c: the argument checks, defined once as rules.  A group's options
   give its rules (bb_check_rules): the options' own failures, then size
   rules that each problem's sizes must pass; bb_check_group evaluates them
   for one group, bb_check_var_sizes over the arrays of a variable batch
   whose options are all the same (bb_uniform_options). */
typedef struct {
    signed char slot; /* the parameter checked */
    signed char dim;  /* -1: par[slot] >= 0; else par[slot] >= max(1, par[dim]) (a leading dimension) */
    int pos;          /* its signature position (the code is -pos) */
} bb_rule;
typedef struct {
    int worst;              /* lowest failing position among the options (0: none) */
    int nrule;
    bb_rule rule[6];
    signed char dims[3][2]; /* rows and columns of A, B, C (user view) as parameter slots; -1: none */
    signed char piv[2];     /* pivots: the smaller of these two slots' values; -1: none */
} bb_rules;
BB_INTERNAL void bb_check_rules(const bb_batch *b, int64_t g, bb_rules *r);
BB_INTERNAL int bb_check_group(const bb_batch *b, int64_t g);
BB_INTERNAL int64_t bb_check_var_sizes(bb_batch *b, const bb_rules *r, int64_t lo, int64_t hi, int vmax[BB_NPAR]);
BB_INTERNAL int bb_uniform_options(const bb_batch *b, int options, int scalars);
BB_INTERNAL int bb_uniform_range(const bb_batch *b, int64_t lo, int64_t hi, int options, int scalars);
BB_INTERNAL unsigned bb_needed_operands(const bb_batch *b, const bb_problem *gp);
BB_INTERNAL int bb_check_problem(const bb_batch *b, unsigned needed, int64_t i);
BB_INTERNAL int bb_null_operands(const bb_batch *b, unsigned needed, int64_t i);

/* The variable form's checks on the device (bb_backend.var_check): the
   rules of problem 0's options evaluated for every problem, in device
   memory, with what the planner needs read back. */
typedef struct {
    int mixed;           /* some problem's options differ from problem 0's: nothing else is set */
    int uniform_scalars; /* every alpha and beta is problem 0's */
    int64_t nbad;        /* problems that failed */
    int64_t first_good;  /* the first problem that passed (count: none) */
    int first_code;      /* the code of the first problem that failed (0: none) */
    int vmax[BB_NPAR];   /* the largest value of each size rule's slot among the problems that passed (-1: none) */
} bb_var_check;

/* ops.c: static facts about each operation */
typedef struct {
    const char *name;      /* "gemm" */
    int lapack;            /* 1: may report a positive numerical info */
    int complex_only;      /* hemm, herk, her2k */
    int lu_family;         /* row-major handled by transposition in the backend */
} bb_opinfo;
BB_INTERNAL const bb_opinfo *bb_op_info(bb_op op);
BB_INTERNAL int bb_op_writes(bb_op op, int operand); /* 1 if the routine writes it */
BB_INTERNAL size_t bb_prec_size(bb_prec p); /* bytes of one element */
BB_INTERNAL double bb_problem_flops(const bb_batch *b, const bb_problem *p);

#ifdef __cplusplus
}
#endif
#endif
