/*
 * batchblas-bench: shared declarations.
 *
 * The program is split so that a second driver (a GPU section in
 * bench/bench_cuda.cu, timed against cuBLAS/cuSOLVER on device data) can be
 * added without touching the CPU code:
 *
 *   bench.c       options, routine table, flop and byte counting, roofline,
 *                 timing loop, table and CSV printing (precision-independent)
 *   bench_prec.c  one generic source compiled once per precision
 *                 (-DBB_PREC_S/D/C/Z, see src/common/prec.h): problem setup on
 *                 the host, our call in each of the four forms, the
 *                 OpenMP+OpenBLAS baseline, restore and the residual check.
 *                 Each precision exports one bench_prec_ops table
 *                 (bb_s_bench_ops ... bb_z_bench_ops).
 *
 * GPU HOOK.  A device driver needs no change here.  Per row it does:
 *     bench_set s;
 *     ops->setup(&opts, n, &s);          host problems, pristine inputs
 *     ... copy s.w[] (and s.ipiv, s.x) to the device, keep s.p[] as the
 *         pristine copy, time its own runs of the _dev calls and of
 *         cuBLAS/cuSOLVER (restore on the device between reps), copy the
 *         outputs back into s.w[] / s.y / s.info (info[1 + i], 0 = ok) ...
 *     r[k].err = ops->check(&s, &r[k].ok, &r[k].info_bad);
 *     r[k].ms = ...; r[k].measured = 1;
 *     bench_fill_rates(&opts, &s, &r[k]);   GFLOP/s, GB/s, % of roofline
 *     bench_print_row(stdout, &opts, &s, r, nres);  bench_csv_row(...)
 *     ops->release(&s);
 * after bench_print_header(stdout, &opts, labels, nres) once, with
 * opts.bw_gbs / opts.peak_gflops set to the device ceilings so that the
 * "% of roofline" column uses the device floor.  s.flops and s.bytes are
 * the totals of the batch (bench_flops / bench_bytes per problem).  The CPU
 * rows go through bench_measure(), which a driver may also use for any
 * blocking implementation.
 */
#ifndef BB_BENCH_H
#define BB_BENCH_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>

/* Routines: the 25 of the library, plus "inverse" (getrf then getri). */
typedef enum {
    BR_GEMM, BR_SYMM, BR_HEMM, BR_SYRK, BR_HERK, BR_SYR2K, BR_HER2K, BR_TRMM, BR_TRSM,
    BR_POTRF, BR_POTRS, BR_POSV, BR_TRTRI, BR_LAUUM, BR_POTRI, BR_POTI,
    BR_GETRF, BR_GETRFNP, BR_GETRS, BR_GESV, BR_GETRI, BR_GETRI_OOP,
    BR_LANGE, BR_GECOND, BR_GECON,
    BR_INVERSE, BR_GEINV,
    BR_N
} bench_routine;

typedef enum { BF_STRIDED, BF_FIXED, BF_GROUP, BF_VAR } bench_form;
typedef enum { BD_FIXED, BD_UNIFORM, BD_SKEWED } bench_dist;

/* Operands, as in the library's descriptor: matrices A, B, C. */
enum { BO_A, BO_B, BO_C, BO_NMAT };

typedef struct bench_opts {
    int routine;            /* bench_routine */
    int prec;               /* 0 s, 1 d, 2 c, 3 z */
    int form;               /* bench_form */
    int dist;               /* bench_dist: sizes of the var form */
    int side, uplo, trans, transb, diag, norm; /* Bblas* values */
    int nrhs;               /* -1: equal to n */
    int groups;             /* group form: number of groups */
    int64_t batch;          /* 0: chosen per size (target_mb) */
    double target_mb;       /* data per row, MB of counted bytes */
    int64_t max_batch;      /* cap of the automatic batch */
    int reps;
    int nsample;            /* problems checked per row */
    uint64_t seed;
    int backend;            /* batchblas_backend_t */
    int threads;            /* OpenMP threads of ours and the baseline */
    int baseline;           /* 1: run the OpenMP+OpenBLAS baseline */
    int base_static;        /* baseline loop schedule: 0 dynamic, 1 static */
    int base_first;         /* each rep runs the implementations last to first (the baseline before ours) */
    double bw_gbs;          /* roofline: memory bandwidth (GB/s of counted bytes) */
    double peak_gflops;     /* roofline: arithmetic peak of this precision */
    const char *csv;
    int quiet;              /* no header */
    int scan;               /* --devices-scan: the columns are device lists, the
                               speedups each list's over the first */
} bench_opts;

/* --pinned: the operands in page-locked memory (batchblas_malloc_host) */
extern int bench_pinned;

/* Rows x columns of one operand of one problem (0 x 0: absent). */
typedef struct {
    int r[BO_NMAT], c[BO_NMAT];
    int written[BO_NMAT];   /* 1: the routine writes it (restored before each run) */
    int ipiv;               /* pivots per problem (0: none) */
    int ipiv_written;
    int x_in, y_out;        /* one real value per problem in / out */
} bench_shape;

/*
 * The problems of one row, on the host.  Every form uses the same buffers:
 * problems packed back to back (ld = rows), pointer arrays into them for
 * the fixed, group and variable forms, the strides for the strided form.
 */
typedef struct bench_set {
    const bench_opts *o;
    int nmax;               /* the row's n (largest size in the var form) */
    int64_t count;          /* problems */
    size_t elem;            /* bytes of one element */
    int *n, *nrhs;          /* per problem */
    void *w[BO_NMAT];       /* working operands (NULL: absent) */
    void *p[BO_NMAT];       /* pristine copies of the written operands */
    int64_t *off[BO_NMAT];  /* element offset of problem i, [count + 1] */
    int64_t stride[BO_NMAT];/* fixed sizes: elements between problems */
    void **ptr[BO_NMAT];    /* pointer arrays */
    int *ipiv;              /* pivots, problem i at ipiv + offp[i] */
    int64_t *offp;
    int **pptr;
    void *x, *y;            /* real vectors (R), count entries */
    int *info;              /* count + 1 */
    /* per-parameter-set arrays of the group and var forms (npar entries) */
    int64_t npar;
    int *gsizes;
    int *pm, *pn, *pk, *pnrhs, *plda, *pldb, *pldc;
    int *pside, *puplo, *ptrans, *ptransb, *pdiag, *pnorm;
    void *palpha, *pbeta;   /* T */
    void *palphar, *pbetar; /* R: herk's alpha and beta, her2k's beta */
    double flops, bytes;    /* totals of the batch */
    void *priv;             /* precision part */
} bench_set;

/* One timed implementation in one row. */
typedef struct bench_result {
    int measured;
    double ms;              /* median of reps */
    double ms_min, ms_max;
    double gflops, gbs, pct_roof;
    double err;             /* largest tu_ratio over the sampled problems */
    int ok;                 /* tu_accept and info == 0 everywhere */
    int64_t info_bad;       /* problems that returned a nonzero info */
} bench_result;

/* What one precision provides (bench_prec.c). */
typedef struct bench_prec_ops {
    /* Allocates and fills the problems of a row (n = the row's size). Returns
       0, or -1 with a message on stderr (no memory, routine not available). */
    int (*setup)(const bench_opts *o, int n, bench_set *s);
    /* Copies the pristine written operands back, poisons outputs (NaN). */
    void (*restore)(bench_set *s);
    /* One batch by BatchBLAS in the form of o->form. */
    void (*run_ours)(bench_set *s);
    /* One batch by the baseline: OpenMP loop, one OpenBLAS/LAPACKE call each. */
    void (*run_base)(bench_set *s);
    /* Residual of the current outputs on a sample of problems: the largest
       tu_ratio; *ok from tu_accept and the info codes. */
    double (*check)(bench_set *s, int *ok, int64_t *info_bad);
    void (*release)(bench_set *s);
} bench_prec_ops;

extern const bench_prec_ops bb_s_bench_ops, bb_d_bench_ops, bb_c_bench_ops, bb_z_bench_ops;

/* ---- bench.c: shared by every driver ---------------------------------- */
const char *bench_routine_name(int r);
int bench_routine_complex_only(int r);
/* Operand shapes of one problem of size n with nrhs right-hand sides. */
void bench_shape_of(const bench_opts *o, int n, int nrhs, bench_shape *sh);
/* Real flops of one problem, the LAPACK working-note formulas that the
   library's own count uses (src/common/ops.c); complex counts 4x (a complex
   multiply-add is 8 real flops, a real one 2). */
double bench_flops(const bench_opts *o, int n, int nrhs);
/* Fewest bytes of one problem: each input read once, each output written once. */
double bench_bytes(const bench_opts *o, int n, int nrhs);
size_t bench_elem_size(int prec);
/* ms, GFLOP/s, GB/s and % of the roofline floor max(bytes/bw, flops/peak). */
void bench_fill_rates(const bench_opts *o, const bench_set *s, bench_result *r);
void bench_print_header(FILE *f, const bench_opts *o, const char *const *labels, int nres);
void bench_print_row(FILE *f, const bench_opts *o, const bench_set *s,
                     const bench_result *r, int nres);
void bench_csv_header(FILE *f);
void bench_csv_row(FILE *f, const bench_opts *o, const bench_set *s, const char *impl,
                   const bench_result *r);
/* For each of nimpl implementations: a warm-up and the check, then o->reps
   timed runs (the implementations interleaved, restore untimed); fills r[k]
   with the median, min, max and the rates. */
void bench_measure(const bench_prec_ops *ops, bench_set *s, void (*const *run)(bench_set *), int nimpl,
                   bench_result *r);

#endif
