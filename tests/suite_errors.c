/*
 * Tests of the errors family (compiled once per precision): argument checks,
 * info modes, skipped problems, legal no-ops and numerical failure codes of
 * every routine in every form, against the contract:
 *
 *  - info[0] on entry: 0 all (info[1+i] per problem), 1 group (info[1+g]),
 *    2 any, 3 none (nothing written); on exit info[0] = 0 or the code of the
 *    lowest-numbered failing problem;
 *  - an argument error is -(1-based position of the argument in the
 *    signature of the form called), the first bad argument winning;
 *  - a numerical failure is LAPACK's k > 0 (zero or NaN pivot, non-positive
 *    or NaN Cholesky diagonal);
 *  - batch-level errors (counts, group sizes, layout, info mode, missing
 *    arrays) compute nothing; a bad group or problem is skipped and nothing
 *    of it is written, all others are computed;
 *  - zero sizes, empty batches and NULL arrays with a zero count are legal.
 *
 * The expected argument positions come from the signature tables below
 * (written from the documented signatures), never from the library.
 * Buffers are sentinel-filled and compared with snapshots: nothing outside
 * the logical output matrices of good problems may change.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "batch.h" /* BB_P_*: the precision ids of TU_PREC_ID */
#include "prec.h"
#include "tu_prec.h"
#include "tests.h"

/* ========================================================================
 * Routines, forms and signatures
 * ===================================================================== */

enum { F_GROUP, F_FIXED, F_VAR, F_STRIDED, NFORM };
static const char *const form_name[NFORM] = {"batch", "batchf", "batchv", "batch_strided"};

enum {
    R_GEMM, R_SYMM, R_HEMM, R_SYRK, R_HERK, R_SYR2K, R_HER2K, R_TRMM, R_TRSM,
    R_POTRF, R_POTRS, R_POSV, R_TRTRI, R_LAUUM, R_POTRI, R_POTI,
    R_GETRF, R_GETRFNP, R_GETRS, R_GESV, R_GETRI, R_GETRI_OOP,
    R_LANGE, R_GECOND, R_GECON, R_GEINV
};

/* operands: matrices A, B (also Ainv), C, and the pivots */
enum { OA, OB, OC, OP, NOPD };
#define WA (1u << OA)
#define WB (1u << OB)
#define WC (1u << OC)
#define WP (1u << OP)
#define WY (1u << 4) /* the per-problem real output value */

#define NP 5 /* problems in every test batch */
#define NG 3 /* groups in the group form */
static const int GSZ[NG] = {2, 2, 1};
#define GAP 3 /* sentinel elements after every matrix */
#define IPIV_SENT (-7)
#define INFO_SENT 4242

typedef struct call {
    int form, layout, count; /* count: group_count (group form) or batch_size */
    int gs[NP];
    /* one parameter set per group (group form), per problem (variable form),
       or [0] only (fixed and strided forms) */
    int side[NP], uplo[NP], trans[NP], transb[NP], diag[NP], norm[NP];
    int m[NP], n[NP], k[NP], nrhs[NP], lda[NP], ldb[NP], ldc[NP];
    T alpha[NP], beta[NP];
    R ralpha[NP], rbeta[NP];
    T *ptr[3][NP];  /* pointer forms: A, B, C of every problem */
    int *pivp[NP];
    T *base[3];     /* strided form */
    int *pivbase;
    int64_t stride[NOPD];
    R x[NP], y[NP]; /* per-problem real input / output */
    int *info;
    int dev; /* call the _dev variant (with a NULL queue) */
    const char *null_arg[2]; /* pass NULL for these arguments ("*": every pointer,
                                "**": every pointer but group_sizes) */
} call_t;

typedef struct {
    const char *name;
    int id;
    int lapack;        /* lapack_ prefix; may report k > 0 */
    const char *args;  /* pointer forms: the arguments between layout and info */
    const char *sargs; /* strided form: the whole signature */
    unsigned writes;
    void (*call)(call_t *c);
} routine_t;

/* argument passing, NULL where asked */
static int null_match(const call_t *c, const char *nm)
{
    for (int j = 0; j < 2; j++) {
        const char *a = c->null_arg[j];
        if (!a) continue;
        if (!strcmp(a, "*")) return 1;                                   /* every pointer */
        if (!strcmp(a, "**") && strcmp(nm, "group_sizes")) return 1;     /* all but group_sizes */
        if (!strcmp(a, nm)) return 1;
    }
    return 0;
}
#define NUL(nm, e) (null_match(c, nm) ? NULL : (e))
#define PI(f, nm) ((const int *)NUL(nm, c->f))
#define PT(f, nm) ((const T *)NUL(nm, c->f))
#define PR(f, nm) ((const R *)NUL(nm, c->f))
#define MI(o, nm) ((T const *const *)NUL(nm, c->ptr[o]))
#define MO(o, nm) ((T **)NUL(nm, c->ptr[o]))
#define VI ((int const *const *)NUL("ipiv", c->pivp))
#define VO ((int **)NUL("ipiv", c->pivp))
#define BI(o, nm) ((const T *)NUL(nm, c->base[o]))
#define BO(o, nm) ((T *)NUL(nm, c->base[o]))
#define PBI ((const int *)NUL("ipiv", c->pivbase))
#define PBO ((int *)NUL("ipiv", c->pivbase))
#define XV(nm) ((const R *)NUL(nm, c->x))
#define YV(nm) ((R *)NUL(nm, c->y))
#define S(f) (c->f[0])
#define ST(o) (c->stride[o])
#define GS ((const int *)NUL("group_sizes", c->gs))
#define UNPAREN(...) __VA_ARGS__

/* One public function per form; P: per-set arrays, F: fixed, SA: strided.
   c->dev: the _dev variant of the form, with a NULL queue. */
#define DISPATCH(pfx, op, P, F, SA)                                                         \
    if (!c->dev) switch (c->form) {                                                         \
    case F_GROUP: BB_PUB(pfx, op, batch)(c->count, GS, c->layout, UNPAREN P, c->info); break; \
    case F_VAR: BB_PUB(pfx, op, batchv)(c->count, c->layout, UNPAREN P, c->info); break;   \
    case F_FIXED: BB_PUB(pfx, op, batchf)(c->count, c->layout, UNPAREN F, c->info); break;  \
    default: BB_PUB(pfx, op, batch_strided)(c->layout, UNPAREN SA, c->count, c->info); break; \
    }                                                                                       \
    else switch (c->form) {                                                                 \
    case F_GROUP:                                                                           \
        BB_PUB(pfx, op, batch_dev)(c->count, GS, c->layout, UNPAREN P, c->info, NULL);      \
        break;                                                                              \
    case F_VAR: BB_PUB(pfx, op, batchv_dev)(c->count, c->layout, UNPAREN P, c->info, NULL); break; \
    case F_FIXED: BB_PUB(pfx, op, batchf_dev)(c->count, c->layout, UNPAREN F, c->info, NULL); break; \
    default:                                                                                \
        BB_PUB(pfx, op, batch_strided_dev)(c->layout, UNPAREN SA, c->count, c->info, NULL); \
        break;                                                                              \
    }

static void call_gemm(call_t *c)
{
    DISPATCH(blas, gemm,
             (PI(trans, "transa"), PI(transb, "transb"), PI(m, "m"), PI(n, "n"), PI(k, "k"),
              PT(alpha, "alpha"), MI(OA, "A"), PI(lda, "lda"), MI(OB, "B"), PI(ldb, "ldb"),
              PT(beta, "beta"), MO(OC, "C"), PI(ldc, "ldc")),
             (S(trans), S(transb), S(m), S(n), S(k), S(alpha), MI(OA, "A"), S(lda), MI(OB, "B"),
              S(ldb), S(beta), MO(OC, "C"), S(ldc)),
             (S(trans), S(transb), S(m), S(n), S(k), S(alpha), BI(OA, "A"), S(lda), ST(OA),
              BI(OB, "B"), S(ldb), ST(OB), S(beta), BO(OC, "C"), S(ldc), ST(OC)))
}

#define CALL_SYMM_LIKE(op)                                                                     \
    static void call_##op(call_t *c)                                                           \
    {                                                                                          \
        DISPATCH(blas, op,                                                                     \
                 (PI(side, "side"), PI(uplo, "uplo"), PI(m, "m"), PI(n, "n"),                  \
                  PT(alpha, "alpha"), MI(OA, "A"), PI(lda, "lda"), MI(OB, "B"),                \
                  PI(ldb, "ldb"), PT(beta, "beta"), MO(OC, "C"), PI(ldc, "ldc")),              \
                 (S(side), S(uplo), S(m), S(n), S(alpha), MI(OA, "A"), S(lda), MI(OB, "B"),    \
                  S(ldb), S(beta), MO(OC, "C"), S(ldc)),                                       \
                 (S(side), S(uplo), S(m), S(n), S(alpha), BI(OA, "A"), S(lda), ST(OA),         \
                  BI(OB, "B"), S(ldb), ST(OB), S(beta), BO(OC, "C"), S(ldc), ST(OC)))         \
    }
CALL_SYMM_LIKE(symm)

static void call_syrk(call_t *c)
{
    DISPATCH(blas, syrk,
             (PI(uplo, "uplo"), PI(trans, "trans"), PI(n, "n"), PI(k, "k"), PT(alpha, "alpha"),
              MI(OA, "A"), PI(lda, "lda"), PT(beta, "beta"), MO(OC, "C"), PI(ldc, "ldc")),
             (S(uplo), S(trans), S(n), S(k), S(alpha), MI(OA, "A"), S(lda), S(beta), MO(OC, "C"),
              S(ldc)),
             (S(uplo), S(trans), S(n), S(k), S(alpha), BI(OA, "A"), S(lda), ST(OA), S(beta),
              BO(OC, "C"), S(ldc), ST(OC)))
}

static void call_syr2k(call_t *c)
{
    DISPATCH(blas, syr2k,
             (PI(uplo, "uplo"), PI(trans, "trans"), PI(n, "n"), PI(k, "k"), PT(alpha, "alpha"),
              MI(OA, "A"), PI(lda, "lda"), MI(OB, "B"), PI(ldb, "ldb"), PT(beta, "beta"),
              MO(OC, "C"), PI(ldc, "ldc")),
             (S(uplo), S(trans), S(n), S(k), S(alpha), MI(OA, "A"), S(lda), MI(OB, "B"), S(ldb),
              S(beta), MO(OC, "C"), S(ldc)),
             (S(uplo), S(trans), S(n), S(k), S(alpha), BI(OA, "A"), S(lda), ST(OA), BI(OB, "B"),
              S(ldb), ST(OB), S(beta), BO(OC, "C"), S(ldc), ST(OC)))
}

#if BB_COMPLEX
CALL_SYMM_LIKE(hemm)

static void call_herk(call_t *c)
{
    DISPATCH(blas, herk,
             (PI(uplo, "uplo"), PI(trans, "trans"), PI(n, "n"), PI(k, "k"), PR(ralpha, "alpha"),
              MI(OA, "A"), PI(lda, "lda"), PR(rbeta, "beta"), MO(OC, "C"), PI(ldc, "ldc")),
             (S(uplo), S(trans), S(n), S(k), S(ralpha), MI(OA, "A"), S(lda), S(rbeta),
              MO(OC, "C"), S(ldc)),
             (S(uplo), S(trans), S(n), S(k), S(ralpha), BI(OA, "A"), S(lda), ST(OA), S(rbeta),
              BO(OC, "C"), S(ldc), ST(OC)))
}

static void call_her2k(call_t *c)
{
    DISPATCH(blas, her2k,
             (PI(uplo, "uplo"), PI(trans, "trans"), PI(n, "n"), PI(k, "k"), PT(alpha, "alpha"),
              MI(OA, "A"), PI(lda, "lda"), MI(OB, "B"), PI(ldb, "ldb"), PR(rbeta, "beta"),
              MO(OC, "C"), PI(ldc, "ldc")),
             (S(uplo), S(trans), S(n), S(k), S(alpha), MI(OA, "A"), S(lda), MI(OB, "B"), S(ldb),
              S(rbeta), MO(OC, "C"), S(ldc)),
             (S(uplo), S(trans), S(n), S(k), S(alpha), BI(OA, "A"), S(lda), ST(OA), BI(OB, "B"),
              S(ldb), ST(OB), S(rbeta), BO(OC, "C"), S(ldc), ST(OC)))
}
#endif

#define CALL_TRMM_LIKE(op)                                                                     \
    static void call_##op(call_t *c)                                                           \
    {                                                                                          \
        DISPATCH(blas, op,                                                                     \
                 (PI(side, "side"), PI(uplo, "uplo"), PI(trans, "transa"), PI(diag, "diag"),   \
                  PI(m, "m"), PI(n, "n"), PT(alpha, "alpha"), MI(OA, "A"), PI(lda, "lda"),     \
                  MO(OB, "B"), PI(ldb, "ldb")),                                                \
                 (S(side), S(uplo), S(trans), S(diag), S(m), S(n), S(alpha), MI(OA, "A"),      \
                  S(lda), MO(OB, "B"), S(ldb)),                                                \
                 (S(side), S(uplo), S(trans), S(diag), S(m), S(n), S(alpha), BI(OA, "A"),      \
                  S(lda), ST(OA), BO(OB, "B"), S(ldb), ST(OB)))                                \
    }
CALL_TRMM_LIKE(trmm)
CALL_TRMM_LIKE(trsm)

/* uplo, n, A (written), lda */
#define CALL_POTRF_LIKE(op)                                                                    \
    static void call_##op(call_t *c)                                                           \
    {                                                                                          \
        DISPATCH(lapack, op, (PI(uplo, "uplo"), PI(n, "n"), MO(OA, "A"), PI(lda, "lda")),      \
                 (S(uplo), S(n), MO(OA, "A"), S(lda)),                                         \
                 (S(uplo), S(n), BO(OA, "A"), S(lda), ST(OA)))                                 \
    }
CALL_POTRF_LIKE(potrf)
CALL_POTRF_LIKE(lauum)
CALL_POTRF_LIKE(potri)
CALL_POTRF_LIKE(poti)

static void call_potrs(call_t *c)
{
    DISPATCH(lapack, potrs,
             (PI(uplo, "uplo"), PI(n, "n"), PI(nrhs, "nrhs"), MI(OA, "A"), PI(lda, "lda"),
              MO(OB, "B"), PI(ldb, "ldb")),
             (S(uplo), S(n), S(nrhs), MI(OA, "A"), S(lda), MO(OB, "B"), S(ldb)),
             (S(uplo), S(n), S(nrhs), BI(OA, "A"), S(lda), ST(OA), BO(OB, "B"), S(ldb), ST(OB)))
}

static void call_posv(call_t *c)
{
    DISPATCH(lapack, posv,
             (PI(uplo, "uplo"), PI(n, "n"), PI(nrhs, "nrhs"), MO(OA, "A"), PI(lda, "lda"),
              MO(OB, "B"), PI(ldb, "ldb")),
             (S(uplo), S(n), S(nrhs), MO(OA, "A"), S(lda), MO(OB, "B"), S(ldb)),
             (S(uplo), S(n), S(nrhs), BO(OA, "A"), S(lda), ST(OA), BO(OB, "B"), S(ldb), ST(OB)))
}

static void call_trtri(call_t *c)
{
    DISPATCH(lapack, trtri,
             (PI(uplo, "uplo"), PI(diag, "diag"), PI(n, "n"), MO(OA, "A"), PI(lda, "lda")),
             (S(uplo), S(diag), S(n), MO(OA, "A"), S(lda)),
             (S(uplo), S(diag), S(n), BO(OA, "A"), S(lda), ST(OA)))
}

static void call_getrf(call_t *c)
{
    DISPATCH(lapack, getrf, (PI(m, "m"), PI(n, "n"), MO(OA, "A"), PI(lda, "lda"), VO),
             (S(m), S(n), MO(OA, "A"), S(lda), VO),
             (S(m), S(n), BO(OA, "A"), S(lda), ST(OA), PBO, ST(OP)))
}

static void call_getrfnp(call_t *c)
{
    DISPATCH(lapack, getrfnp, (PI(m, "m"), PI(n, "n"), MO(OA, "A"), PI(lda, "lda")),
             (S(m), S(n), MO(OA, "A"), S(lda)), (S(m), S(n), BO(OA, "A"), S(lda), ST(OA)))
}

static void call_getrs(call_t *c)
{
    DISPATCH(lapack, getrs,
             (PI(trans, "trans"), PI(n, "n"), PI(nrhs, "nrhs"), MI(OA, "A"), PI(lda, "lda"), VI,
              MO(OB, "B"), PI(ldb, "ldb")),
             (S(trans), S(n), S(nrhs), MI(OA, "A"), S(lda), VI, MO(OB, "B"), S(ldb)),
             (S(trans), S(n), S(nrhs), BI(OA, "A"), S(lda), ST(OA), PBI, ST(OP), BO(OB, "B"),
              S(ldb), ST(OB)))
}

static void call_gesv(call_t *c)
{
    DISPATCH(lapack, gesv,
             (PI(n, "n"), PI(nrhs, "nrhs"), MO(OA, "A"), PI(lda, "lda"), VO, MO(OB, "B"),
              PI(ldb, "ldb")),
             (S(n), S(nrhs), MO(OA, "A"), S(lda), VO, MO(OB, "B"), S(ldb)),
             (S(n), S(nrhs), BO(OA, "A"), S(lda), ST(OA), PBO, ST(OP), BO(OB, "B"), S(ldb), ST(OB)))
}

static void call_getri(call_t *c)
{
    DISPATCH(lapack, getri, (PI(n, "n"), MO(OA, "A"), PI(lda, "lda"), VI),
             (S(n), MO(OA, "A"), S(lda), VI), (S(n), BO(OA, "A"), S(lda), ST(OA), PBI, ST(OP)))
}

static void call_getri_oop(call_t *c)
{
    DISPATCH(lapack, getri_oop,
             (PI(n, "n"), MI(OA, "A"), PI(lda, "lda"), VI, MO(OB, "Ainv"), PI(ldb, "ldainv")),
             (S(n), MI(OA, "A"), S(lda), VI, MO(OB, "Ainv"), S(ldb)),
             (S(n), BI(OA, "A"), S(lda), ST(OA), PBI, ST(OP), BO(OB, "Ainv"), S(ldb), ST(OB)))
}

static void call_lange(call_t *c)
{
    DISPATCH(lapack, lange,
             (PI(norm, "norm"), PI(m, "m"), PI(n, "n"), MI(OA, "A"), PI(lda, "lda"), YV("value")),
             (S(norm), S(m), S(n), MI(OA, "A"), S(lda), YV("value")),
             (S(norm), S(m), S(n), BI(OA, "A"), S(lda), ST(OA), YV("value")))
}

static void call_gecond(call_t *c)
{
    DISPATCH(lapack, gecond,
             (PI(norm, "norm"), PI(n, "n"), MI(OA, "A"), PI(lda, "lda"), YV("cond")),
             (S(norm), S(n), MI(OA, "A"), S(lda), YV("cond")),
             (S(norm), S(n), BI(OA, "A"), S(lda), ST(OA), YV("cond")))
}

static void call_geinv(call_t *c)
{
    DISPATCH(lapack, geinv,
             (PI(n, "n"), MI(OA, "A"), PI(lda, "lda"), MO(OB, "Ainv"), PI(ldb, "ldainv")),
             (S(n), MI(OA, "A"), S(lda), MO(OB, "Ainv"), S(ldb)),
             (S(n), BI(OA, "A"), S(lda), ST(OA), BO(OB, "Ainv"), S(ldb), ST(OB)))
}

static void call_gecon(call_t *c)
{
    DISPATCH(lapack, gecon,
             (PI(norm, "norm"), PI(n, "n"), MI(OA, "A"), PI(lda, "lda"), XV("anorm"), YV("rcond")),
             (S(norm), S(n), MI(OA, "A"), S(lda), XV("anorm"), YV("rcond")),
             (S(norm), S(n), BI(OA, "A"), S(lda), ST(OA), XV("anorm"), YV("rcond")))
}

/* The documented signatures.  Pointer forms: group form = "group_count
   group_sizes layout <args> info", fixed and variable forms = "batch_size
   layout <args> info"; the strided form is written out in full. */
static const routine_t routines[] = {
    {"gemm", R_GEMM, 0, "transa transb m n k alpha A lda B ldb beta C ldc",
     "layout transa transb m n k alpha A lda stride_a B ldb stride_b beta C ldc stride_c "
     "batch_size info", WC, call_gemm},
    {"symm", R_SYMM, 0, "side uplo m n alpha A lda B ldb beta C ldc",
     "layout side uplo m n alpha A lda stride_a B ldb stride_b beta C ldc stride_c batch_size "
     "info", WC, call_symm},
#if BB_COMPLEX
    {"hemm", R_HEMM, 0, "side uplo m n alpha A lda B ldb beta C ldc",
     "layout side uplo m n alpha A lda stride_a B ldb stride_b beta C ldc stride_c batch_size "
     "info", WC, call_hemm},
#endif
    {"syrk", R_SYRK, 0, "uplo trans n k alpha A lda beta C ldc",
     "layout uplo trans n k alpha A lda stride_a beta C ldc stride_c batch_size info", WC,
     call_syrk},
#if BB_COMPLEX
    {"herk", R_HERK, 0, "uplo trans n k alpha A lda beta C ldc",
     "layout uplo trans n k alpha A lda stride_a beta C ldc stride_c batch_size info", WC,
     call_herk},
#endif
    {"syr2k", R_SYR2K, 0, "uplo trans n k alpha A lda B ldb beta C ldc",
     "layout uplo trans n k alpha A lda stride_a B ldb stride_b beta C ldc stride_c batch_size "
     "info", WC, call_syr2k},
#if BB_COMPLEX
    {"her2k", R_HER2K, 0, "uplo trans n k alpha A lda B ldb beta C ldc",
     "layout uplo trans n k alpha A lda stride_a B ldb stride_b beta C ldc stride_c batch_size "
     "info", WC, call_her2k},
#endif
    {"trmm", R_TRMM, 0, "side uplo transa diag m n alpha A lda B ldb",
     "layout side uplo transa diag m n alpha A lda stride_a B ldb stride_b batch_size info", WB,
     call_trmm},
    {"trsm", R_TRSM, 0, "side uplo transa diag m n alpha A lda B ldb",
     "layout side uplo transa diag m n alpha A lda stride_a B ldb stride_b batch_size info", WB,
     call_trsm},
    {"potrf", R_POTRF, 1, "uplo n A lda", "layout uplo n A lda stride_a batch_size info", WA,
     call_potrf},
    {"potrs", R_POTRS, 1, "uplo n nrhs A lda B ldb",
     "layout uplo n nrhs A lda stride_a B ldb stride_b batch_size info", WB, call_potrs},
    {"posv", R_POSV, 1, "uplo n nrhs A lda B ldb",
     "layout uplo n nrhs A lda stride_a B ldb stride_b batch_size info", WA | WB, call_posv},
    {"trtri", R_TRTRI, 1, "uplo diag n A lda", "layout uplo diag n A lda stride_a batch_size info",
     WA, call_trtri},
    {"lauum", R_LAUUM, 1, "uplo n A lda", "layout uplo n A lda stride_a batch_size info", WA,
     call_lauum},
    {"potri", R_POTRI, 1, "uplo n A lda", "layout uplo n A lda stride_a batch_size info", WA,
     call_potri},
    {"poti", R_POTI, 1, "uplo n A lda", "layout uplo n A lda stride_a batch_size info", WA,
     call_poti},
    {"getrf", R_GETRF, 1, "m n A lda ipiv",
     "layout m n A lda stride_a ipiv stride_ipiv batch_size info", WA | WP, call_getrf},
    {"getrfnp", R_GETRFNP, 1, "m n A lda", "layout m n A lda stride_a batch_size info", WA,
     call_getrfnp},
    {"getrs", R_GETRS, 1, "trans n nrhs A lda ipiv B ldb",
     "layout trans n nrhs A lda stride_a ipiv stride_ipiv B ldb stride_b batch_size info", WB,
     call_getrs},
    {"gesv", R_GESV, 1, "n nrhs A lda ipiv B ldb",
     "layout n nrhs A lda stride_a ipiv stride_ipiv B ldb stride_b batch_size info",
     WA | WB | WP, call_gesv},
    {"getri", R_GETRI, 1, "n A lda ipiv",
     "layout n A lda stride_a ipiv stride_ipiv batch_size info", WA, call_getri},
    {"getri_oop", R_GETRI_OOP, 1, "n A lda ipiv Ainv ldainv",
     "layout n A lda stride_a ipiv stride_ipiv Ainv ldainv stride_ainv batch_size info", WB,
     call_getri_oop},
    {"lange", R_LANGE, 1, "norm m n A lda value",
     "layout norm m n A lda stride_a value batch_size info", WY, call_lange},
    {"gecond", R_GECOND, 1, "norm n A lda cond", "layout norm n A lda stride_a cond batch_size info",
     WY, call_gecond},
    {"gecon", R_GECON, 1, "norm n A lda anorm rcond",
     "layout norm n A lda stride_a anorm rcond batch_size info", WY, call_gecon},
    {"geinv", R_GEINV, 1, "n A lda Ainv ldainv", "layout n A lda stride_a Ainv ldainv stride_ainv batch_size info",
     WB, call_geinv},
};
#define NROUT ((int)(sizeof routines / sizeof routines[0]))

static const routine_t *find_routine(int id)
{
    for (int i = 0; i < NROUT; i++)
        if (routines[i].id == id) return &routines[i];
    return NULL;
}

/* 1-based position of arg in the signature of a form; 0 if absent */
static int pos_of(const routine_t *r, int form, const char *arg)
{
    char sig[320];
    if (form == F_STRIDED) snprintf(sig, sizeof sig, "%s", r->sargs);
    else
        snprintf(sig, sizeof sig, "%s layout %s info",
                 form == F_GROUP ? "group_count group_sizes" : "batch_size", r->args);
    int pos = 0;
    for (char *save = NULL, *tok = strtok_r(sig, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        pos++;
        if (!strcmp(tok, arg)) return pos;
    }
    return 0;
}

static void copy_name(char dst[16], const char *src)
{
    int i = 0;
    for (; i < 15 && src[i]; i++) dst[i] = src[i];
    dst[i] = '\0';
}

/* the tokens of a form's signature */
static int sig_tokens(const routine_t *r, int form, char tok[][16], int max)
{
    char sig[320];
    if (form == F_STRIDED) snprintf(sig, sizeof sig, "%s", r->sargs);
    else
        snprintf(sig, sizeof sig, "%s layout %s info",
                 form == F_GROUP ? "group_count group_sizes" : "batch_size", r->args);
    int n = 0;
    for (char *save = NULL, *t = strtok_r(sig, " ", &save); t && n < max; t = strtok_r(NULL, " ", &save))
        copy_name(tok[n++], t);
    return n;
}

/* ========================================================================
 * Argument classes
 * ===================================================================== */

static int is_opt(const char *a)
{
    return !strcmp(a, "side") || !strcmp(a, "uplo") || !strcmp(a, "transa") ||
           !strcmp(a, "transb") || !strcmp(a, "trans") || !strcmp(a, "diag") || !strcmp(a, "norm");
}
static int is_size(const char *a)
{
    return !strcmp(a, "m") || !strcmp(a, "n") || !strcmp(a, "k") || !strcmp(a, "nrhs");
}
static int is_ld(const char *a)
{
    return !strcmp(a, "lda") || !strcmp(a, "ldb") || !strcmp(a, "ldc") || !strcmp(a, "ldainv");
}
static int is_mat(const char *a)
{
    return !strcmp(a, "A") || !strcmp(a, "B") || !strcmp(a, "C") || !strcmp(a, "Ainv") ||
           !strcmp(a, "ipiv");
}
static int is_vec(const char *a)
{
    return !strcmp(a, "value") || !strcmp(a, "cond") || !strcmp(a, "rcond") || !strcmp(a, "anorm");
}
static int is_stride(const char *a) { return !strncmp(a, "stride_", 7); }

/* operand of a matrix, ld or stride argument */
static int opd_of(const char *a)
{
    if (!strcmp(a, "A") || !strcmp(a, "lda") || !strcmp(a, "stride_a")) return OA;
    if (!strcmp(a, "B") || !strcmp(a, "ldb") || !strcmp(a, "stride_b") || !strcmp(a, "Ainv") ||
        !strcmp(a, "ldainv") || !strcmp(a, "stride_ainv"))
        return OB;
    if (!strcmp(a, "C") || !strcmp(a, "ldc") || !strcmp(a, "stride_c")) return OC;
    return OP; /* ipiv, stride_ipiv */
}

/* per-set integer field of an option, size or ld argument */
static int *field(call_t *c, const char *a)
{
    if (!strcmp(a, "side")) return c->side;
    if (!strcmp(a, "uplo")) return c->uplo;
    if (!strcmp(a, "transa") || !strcmp(a, "trans")) return c->trans;
    if (!strcmp(a, "transb")) return c->transb;
    if (!strcmp(a, "diag")) return c->diag;
    if (!strcmp(a, "norm")) return c->norm;
    if (!strcmp(a, "m")) return c->m;
    if (!strcmp(a, "n")) return c->n;
    if (!strcmp(a, "k")) return c->k;
    if (!strcmp(a, "nrhs")) return c->nrhs;
    if (!strcmp(a, "lda")) return c->lda;
    if (!strcmp(a, "ldb") || !strcmp(a, "ldainv")) return c->ldb;
    if (!strcmp(a, "ldc")) return c->ldc;
    return NULL;
}

/* Logical rows x cols of operand o of routine id with parameter set s
   (ipiv: rows = its length); 0 if the routine has no such operand. */
static int opdims(int id, const call_t *c, int s, int o, int *r, int *cl)
{
    int m = c->m[s], n = c->n[s], k = c->k[s], nr = c->nrhs[s];
    int nt = c->trans[s] == BblasNoTrans, left = c->side[s] == BblasLeft;
    *r = *cl = -1;
    switch (id) {
    case R_GEMM:
        if (o == OA) { *r = nt ? m : k; *cl = nt ? k : m; }
        if (o == OB) {
            int ntb = c->transb[s] == BblasNoTrans;
            *r = ntb ? k : n; *cl = ntb ? n : k;
        }
        if (o == OC) { *r = m; *cl = n; }
        break;
    case R_SYMM: case R_HEMM:
        if (o == OA) *r = *cl = left ? m : n;
        if (o == OB || o == OC) { *r = m; *cl = n; }
        break;
    case R_SYRK: case R_HERK: case R_SYR2K: case R_HER2K:
        if (o == OA || (o == OB && (id == R_SYR2K || id == R_HER2K))) { *r = nt ? n : k; *cl = nt ? k : n; }
        if (o == OC) *r = *cl = n;
        break;
    case R_TRMM: case R_TRSM:
        if (o == OA) *r = *cl = left ? m : n;
        if (o == OB) { *r = m; *cl = n; }
        break;
    case R_POTRS: case R_POSV: case R_GETRS: case R_GESV:
        if (o == OA) *r = *cl = n;
        if (o == OB) { *r = n; *cl = nr; }
        if (o == OP && (id == R_GETRS || id == R_GESV)) { *r = n; *cl = 1; }
        break;
    case R_GETRF: case R_GETRFNP: case R_LANGE:
        if (o == OA) { *r = m; *cl = n; }
        if (o == OP && id == R_GETRF) { *r = m < n ? m : n; *cl = 1; }
        break;
    case R_GETRI: case R_GETRI_OOP:
        if (o == OA) *r = *cl = n;
        if (o == OB && id == R_GETRI_OOP) *r = *cl = n;
        if (o == OP) { *r = n; *cl = 1; }
        break;
    case R_GEINV:
        if (o == OA || o == OB) *r = *cl = n;
        break;
    default: /* potrf, lauum, potri, poti, trtri, gecond, gecon */
        if (o == OA) *r = *cl = n;
        break;
    }
    return *r >= 0;
}

static int ld_of(const call_t *c, int s, int o)
{
    return o == OA ? c->lda[s] : o == OB ? c->ldb[s] : c->ldc[s];
}

/* the smallest legal leading dimension: layout-aware */
static int ld_req(int layout, int rows, int cols)
{
    int v = layout == BblasColMajor ? rows : cols;
    return v > 1 ? v : 1;
}

/* storage footprint of operand o for set s (0 if empty or absent) */
static int64_t footprint(int id, const call_t *c, int s, int o)
{
    int r, cl;
    if (!opdims(id, c, s, o, &r, &cl) || r <= 0 || cl <= 0) return 0;
    if (o == OP) return r;
    return (int64_t)ld_of(c, s, o) * (c->layout == BblasColMajor ? cl : r);
}

static int set_of(int form, int i)
{
    if (form == F_VAR) return i;
    if (form != F_GROUP) return 0;
    return i < GSZ[0] ? 0 : i < GSZ[0] + GSZ[1] ? 1 : 2;
}

static int ngroups_of(int form) { return form == F_GROUP ? NG : form == F_VAR ? NP : 1; }

/* the parameter set a per-set error goes to: the middle group / problem */
static int bad_set(int form) { return form == F_GROUP ? 1 : form == F_VAR ? 2 : 0; }
#define BAD_PROBLEM 2 /* the problem a per-problem error goes to */

/* ========================================================================
 * Test context: the call, its buffers and their snapshots
 * ===================================================================== */

typedef struct {
    const routine_t *r;
    call_t c;
    T *buf[3], *snap[3];
    int64_t len[3]; /* elements of buf[o] */
    int *piv, *pivsnap;
    int64_t pivlen;
    R ysnap[NP];
    int infobuf[NP + 4];
    /* failure log */
    char where[200];
    int nfail;
    char first[600];
} ctx_t;

static void note(ctx_t *x, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (x->nfail == 0) snprintf(x->first, sizeof x->first, "%.190s: %.380s", x->where, msg);
    /* the first few on stderr; all of them with BB_TEST_ALL_FAILURES=1 */
    if (x->nfail < 8 || getenv("BB_TEST_ALL_FAILURES"))
        fprintf(stderr, "errors suite: %s: %s\n", x->where, msg);
    x->nfail++;
}

static T *opd_ptr(const ctx_t *x, int o, int i)
{
    return x->c.form == F_STRIDED ? (x->c.base[o] ? x->c.base[o] + i * x->c.stride[o] : NULL)
                                  : x->c.ptr[o][i];
}

static int *piv_ptr(const ctx_t *x, int i)
{
    return x->c.form == F_STRIDED ? (x->c.pivbase ? x->c.pivbase + i * x->c.stride[OP] : NULL)
                                  : x->c.pivp[i];
}

/* the snapshot copy of an element address of buf[o] */
static const T *snap_of(const ctx_t *x, int o, const T *p) { return x->snap[o] + (p - x->buf[o]); }

/* which A matrices are filled Hermitian positive definite (square, safe
   for every routine that factors, inverts or solves with A) */
static int a_is_hpd(int id)
{
    return !(id == R_GEMM || id == R_SYRK || id == R_HERK || id == R_SYR2K || id == R_HER2K ||
             id == R_GETRF || id == R_GETRFNP || id == R_LANGE);
}

/*
 * Builds a valid call: m (3 unless asked), n = 4, k = 5, nrhs = 2 for every parameter
 * set; variant 0: NoTrans/Left/Upper/NonUnit/OneNorm and the smallest legal
 * leading dimensions; variant 1: (Conj)Trans/Right/Lower/Unit/InfNorm and
 * leading dimensions 2 larger than needed.
 */
static void setup(ctx_t *x, const routine_t *r, int form, int layout, int variant, int m)
{
    int nfail = x->nfail; /* keep the failure log */
    char first[sizeof x->first];
    memcpy(first, x->first, sizeof first);
    memset(x, 0, sizeof *x);
    x->nfail = nfail;
    memcpy(x->first, first, sizeof first);
    x->r = r;
    call_t *c = &x->c;
    c->form = form;
    c->layout = layout;
    c->count = form == F_GROUP ? NG : NP;
    for (int g = 0; g < NP; g++) c->gs[g] = g < NG ? GSZ[g] : 0;
    int trans1 = (r->id == R_HERK || r->id == R_HER2K) ? BblasConjTrans : BblasTrans;
    for (int s = 0; s < NP; s++) {
        c->side[s] = variant ? BblasRight : BblasLeft;
        c->uplo[s] = variant ? BblasLower : BblasUpper;
        c->trans[s] = variant ? trans1 : BblasNoTrans;
        c->transb[s] = variant ? BblasConjTrans : BblasNoTrans;
        c->diag[s] = variant ? BblasUnit : BblasNonUnit;
        c->norm[s] = variant ? BblasInfNorm : BblasOneNorm;
        c->m[s] = m; c->n[s] = 4; c->k[s] = 5; c->nrhs[s] = 2;
        c->alpha[s] = MAKE_T(1.5, 0.5);
        c->beta[s] = MAKE_T(0.5, -0.25);
        c->ralpha[s] = 1.5;
        c->rbeta[s] = 0.5;
        for (int o = OA; o <= OC; o++) {
            int rr, cc;
            int *ld = o == OA ? c->lda : o == OB ? c->ldb : c->ldc;
            ld[s] = 1;
            if (opdims(r->id, c, s, o, &rr, &cc)) ld[s] = ld_req(layout, rr, cc) + (variant ? 2 : 0);
        }
        c->x[s] = (R)(1.0 + s);
        c->y[s] = (R)TU_SENTINEL;
    }
    /* buffers: NP matrices per operand, GAP sentinels after each */
    for (int o = OA; o <= OC; o++) {
        int64_t sp = footprint(r->id, c, 0, o) + GAP;
        x->len[o] = NP * sp + 1;
        x->buf[o] = tu_alloc(NP, sp);
        c->base[o] = x->buf[o];
        c->stride[o] = sp;
        for (int i = 0; i < NP; i++) c->ptr[o][i] = x->buf[o] + i * sp;
    }
    {
        int64_t sp = footprint(r->id, c, 0, OP) + GAP;
        x->pivlen = NP * sp;
        x->piv = malloc(sizeof(int) * (size_t)x->pivlen);
        for (int64_t e = 0; e < x->pivlen; e++) x->piv[e] = IPIV_SENT;
        c->pivbase = x->piv;
        c->stride[OP] = sp;
        for (int i = 0; i < NP; i++) c->pivp[i] = x->piv + i * sp;
    }
    /* data */
    int in_piv = r->id == R_GETRS || r->id == R_GETRI || r->id == R_GETRI_OOP;
    for (int i = 0; i < NP; i++) {
        for (int o = OA; o <= OC; o++) {
            int rr, cc;
            if (!opdims(r->id, c, 0, o, &rr, &cc)) continue;
            if ((r->id == R_GETRI_OOP || r->id == R_GEINV) && o == OB) continue; /* output only */
            if (o == OA && a_is_hpd(r->id)) tu_fill_hpd(c->ptr[o][i], ld_of(c, 0, o), layout, rr);
            else tu_fill(c->ptr[o][i], ld_of(c, 0, o), layout, rr, cc);
        }
        if (in_piv) /* valid pivots: no interchange */
            for (int p = 0; p < footprint(r->id, c, 0, OP); p++) c->pivp[i][p] = p + 1;
    }
}

static void snapshot(ctx_t *x)
{
    for (int o = OA; o <= OC; o++) {
        x->snap[o] = malloc(sizeof(T) * (size_t)x->len[o]);
        memcpy(x->snap[o], x->buf[o], sizeof(T) * (size_t)x->len[o]);
    }
    x->pivsnap = malloc(sizeof(int) * (size_t)x->pivlen);
    memcpy(x->pivsnap, x->piv, sizeof(int) * (size_t)x->pivlen);
    memcpy(x->ysnap, x->c.y, sizeof x->ysnap);
}

static void teardown(ctx_t *x)
{
    for (int o = OA; o <= OC; o++) {
        free(x->buf[o]);
        free(x->snap[o]);
    }
    free(x->piv);
    free(x->pivsnap);
}

/* ========================================================================
 * Bad-argument cases
 * ===================================================================== */

enum {
    K_NONE, K_OPT, K_SIZE, K_LD, K_NULLARR, K_NULLPTR, K_STRIDE_NEG, K_STRIDE_OVL,
    K_LAYOUT, K_COUNT, K_GSIZE, K_INFO
};
static const char *const kind_name[] = {
    "valid", "bad option", "negative size", "leading dimension too small", "NULL array",
    "NULL matrix pointer in problem 2", "negative stride", "overlapping output stride",
    "bad layout", "negative count", "negative group size", "bad info mode"};
#define LD_REQ_MINUS_1 INT_MIN /* K_LD value: one less than the smallest legal */

typedef struct {
    char arg[16];
    int kind;
    int val;
    int primary; /* the first value of this (argument, kind) */
} bad_t;

static int writes_opd(const routine_t *r, int o) { return (r->writes >> o) & 1u; }


/* Every bad form of every argument of one routine in one form. */
static int make_cases(const routine_t *r, int form, bad_t *out, int max)
{
    char tok[24][16];
    int nt = sig_tokens(r, form, tok, 24), n = 0;
#define ADD(a, k, v)                                                                          \
    do {                                                                                      \
        if (n < max) {                                                                        \
            copy_name(out[n].arg, a);                                                         \
            out[n].kind = (k);                                                                \
            out[n].val = (v);                                                                 \
            n++;                                                                              \
        }                                                                                     \
    } while (0)
    int per = form == F_GROUP || form == F_VAR;
    for (int t = 0; t < nt; t++) {
        const char *a = tok[t];
        if (!strcmp(a, "group_count") || !strcmp(a, "batch_size")) {
            ADD(a, K_COUNT, -1);
            ADD(a, K_COUNT, INT_MIN);
        } else if (!strcmp(a, "group_sizes")) {
            ADD(a, K_GSIZE, -1);
            ADD(a, K_NULLARR, 0);
        } else if (!strcmp(a, "layout")) {
            ADD(a, K_LAYOUT, 0);
            ADD(a, K_LAYOUT, 100);
            ADD(a, K_LAYOUT, 103);
            ADD(a, K_LAYOUT, BblasNoTrans);
        } else if (!strcmp(a, "info")) {
            ADD(a, K_INFO, -1);
            ADD(a, K_INFO, 4);
            ADD(a, K_INFO, 100);
        } else if (is_opt(a)) {
            ADD(a, K_OPT, 0);
            ADD(a, K_OPT, BblasInvalid);
            ADD(a, K_OPT, 1000);
            if (!strcmp(a, "side")) ADD(a, K_OPT, BblasUpper);
            if (!strcmp(a, "uplo")) {
                ADD(a, K_OPT, BblasGeneral);
                ADD(a, K_OPT, BblasNoTrans);
            }
            if (!strcmp(a, "diag")) ADD(a, K_OPT, BblasLeft);
            if (!strcmp(a, "norm")) {
                ADD(a, K_OPT, BblasNoTrans);
                ADD(a, K_OPT, 172);
                if (r->id == R_GECOND || r->id == R_GECON) {
                    ADD(a, K_OPT, BblasMaxNorm);
                    ADD(a, K_OPT, BblasFrobeniusNorm);
                }
            }
            if (!strncmp(a, "trans", 5)) {
                ADD(a, K_OPT, BblasUpper);
                if (r->id == R_HERK || r->id == R_HER2K) ADD(a, K_OPT, BblasTrans);
                if ((r->id == R_SYRK || r->id == R_SYR2K) && BB_COMPLEX) ADD(a, K_OPT, BblasConjTrans);
            }
            if (per) ADD(a, K_NULLARR, 0);
        } else if (is_size(a)) {
            ADD(a, K_SIZE, -1);
            ADD(a, K_SIZE, INT_MIN);
            if (per) ADD(a, K_NULLARR, 0);
        } else if (is_ld(a)) {
            ADD(a, K_LD, LD_REQ_MINUS_1);
            ADD(a, K_LD, 0);
            ADD(a, K_LD, -1);
            if (per) ADD(a, K_NULLARR, 0);
        } else if (!strcmp(a, "alpha") || !strcmp(a, "beta")) {
            if (per) ADD(a, K_NULLARR, 0);
        } else if (is_mat(a)) {
            ADD(a, K_NULLARR, 0);
            if (form != F_STRIDED) ADD(a, K_NULLPTR, 0);
        } else if (is_vec(a)) {
            ADD(a, K_NULLARR, 0);
        } else if (is_stride(a)) {
            ADD(a, K_STRIDE_NEG, -1);
            ADD(a, K_STRIDE_NEG, INT_MIN);
            if (writes_opd(r, opd_of(a))) ADD(a, K_STRIDE_OVL, 0);
        }
    }
#undef ADD
    for (int j = 0; j < n; j++) {
        out[j].primary = 1;
        for (int q = 0; q < j; q++)
            if (!strcmp(out[q].arg, out[j].arg) && out[q].kind == out[j].kind) out[j].primary = 0;
    }
    return n;
}

/* batch-level: nothing is computed and only info[0] is defined */
static int is_batch_level(const bad_t *b, int form)
{
    switch (b->kind) {
    case K_LAYOUT: case K_COUNT: case K_GSIZE: case K_INFO: return 1;
    case K_NULLARR: /* a strided base pointer is per problem (all of them) */
        return !(form == F_STRIDED && is_mat(b->arg));
    default: return 0;
    }
}

/* does a non-batch-level error hit problem i? */
static int hits(const bad_t *b, int form, int i)
{
    switch (b->kind) {
    case K_OPT: case K_SIZE: case K_LD: return set_of(form, i) == bad_set(form); /* fixed, strided: all */
    case K_NULLPTR: return i == BAD_PROBLEM;
    case K_STRIDE_NEG: case K_STRIDE_OVL: case K_NULLARR: return 1; /* strided: all */
    default: return 0;
    }
}

static void describe(const bad_t *b, char *s, size_t n)
{
    if (b->kind == K_NONE) snprintf(s, n, "valid call");
    else if (b->kind == K_LD && b->val == LD_REQ_MINUS_1) snprintf(s, n, "%s: %s (needed - 1)", b->arg, kind_name[b->kind]);
    else snprintf(s, n, "%s: %s (%d)", b->arg, kind_name[b->kind], b->val);
}

/* Applies one bad argument to the call (after setup, before the snapshot). */
static void apply(ctx_t *x, const bad_t *b)
{
    call_t *c = &x->c;
    int bs = bad_set(c->form);
    switch (b->kind) {
    case K_OPT: case K_SIZE:
        field(c, b->arg)[bs] = b->val;
        break;
    case K_LD: {
        int o = opd_of(b->arg), rr, cc;
        opdims(x->r->id, c, bs, o, &rr, &cc);
        field(c, b->arg)[bs] = b->val == LD_REQ_MINUS_1 ? ld_req(c->layout, rr, cc) - 1 : b->val;
        break;
    }
    case K_NULLARR:
        c->null_arg[c->null_arg[0] ? 1 : 0] = b->arg;
        break;
    case K_NULLPTR: {
        int o = opd_of(b->arg);
        if (o == OP) c->pivp[BAD_PROBLEM] = NULL;
        else c->ptr[o][BAD_PROBLEM] = NULL;
        break;
    }
    case K_STRIDE_NEG:
        c->stride[opd_of(b->arg)] = b->val;
        break;
    case K_STRIDE_OVL: {
        int o = opd_of(b->arg);
        c->stride[o] = footprint(x->r->id, c, 0, o) - 1;
        break;
    }
    case K_LAYOUT:
        c->layout = b->val;
        break;
    case K_COUNT:
        c->count = b->val;
        break;
    case K_GSIZE:
        c->gs[1] = b->val;
        break;
    default:
        break;
    }
}

/* ========================================================================
 * Expectations and verification
 * ===================================================================== */

typedef struct {
    int batch;      /* batch-level error: nothing computed */
    int code0;      /* expected info[0] */
    int pcode[NP];  /* per problem */
    int info_mode_bad;
} expect_t;

static void expected(const ctx_t *x, const bad_t *cases, int ncases, expect_t *e)
{
    const routine_t *r = x->r;
    int form = x->c.form, bpos = INT_MAX;
    memset(e, 0, sizeof *e);
    for (int j = 0; j < ncases; j++) {
        if (cases[j].kind == K_NONE || !is_batch_level(&cases[j], form)) continue;
        int p = pos_of(r, form, cases[j].arg);
        if (p < bpos) bpos = p;
        if (cases[j].kind == K_INFO) e->info_mode_bad = 1;
    }
    if (bpos != INT_MAX) {
        e->batch = 1;
        e->code0 = -bpos;
        return;
    }
    for (int i = 0; i < NP; i++) {
        int best = INT_MAX;
        for (int j = 0; j < ncases; j++)
            if (cases[j].kind != K_NONE && hits(&cases[j], form, i)) {
                int p = pos_of(r, form, cases[j].arg);
                if (p < best) best = p;
            }
        e->pcode[i] = best == INT_MAX ? 0 : -best;
        if (e->pcode[i] && !e->code0) e->code0 = e->pcode[i];
    }
}

/* op(A)(i, l) of a logical matrix */
static zd opget(const T *A, int64_t ld, int layout, int trans, int i, int l)
{
    if (trans == BblasNoTrans) return tu_z(A[tu_idx(ld, layout, i, l)]);
    zd v = tu_z(A[tu_idx(ld, layout, l, i)]);
    return trans == BblasConjTrans ? conj(v) : v;
}

/* gemm: C = alpha*op(A)*op(B) + beta*C0 */
static double witness_gemm(const ctx_t *x, int i)
{
    const call_t *c = &x->c;
    int s = set_of(c->form, i), m = c->m[s], n = c->n[s], k = c->k[s], L = c->layout;
    const T *A = opd_ptr(x, OA, i), *B = opd_ptr(x, OB, i), *C = opd_ptr(x, OC, i);
    const T *A0 = A ? snap_of(x, OA, A) : NULL, *B0 = B ? snap_of(x, OB, B) : NULL;
    const T *C0 = C ? snap_of(x, OC, C) : NULL;
    if (!C) return 0; /* empty C: nothing to check */
    zd alpha = tu_z(c->alpha[s]), beta = tu_z(c->beta[s]);
    double err = 0, na = 0, nb = 0;
    for (int a = 0; a < m; a++)
        for (int b = 0; b < n; b++) {
            zd sum = 0;
            for (int l = 0; l < k; l++)
                sum += opget(A0, c->lda[s], L, c->trans[s], a, l) * opget(B0, c->ldb[s], L, c->transb[s], l, b);
            zd want = alpha * sum + beta * tu_z(C0[tu_idx(c->ldc[s], L, a, b)]);
            double d = cabs(tu_z(C[tu_idx(c->ldc[s], L, a, b)]) - want);
            err += d * d;
        }
    int ar, ac, br, bc;
    opdims(R_GEMM, c, s, OA, &ar, &ac);
    opdims(R_GEMM, c, s, OB, &br, &bc);
    na = tu_normf(A0, c->lda[s], L, ar, ac);
    nb = tu_normf(B0, c->ldb[s], L, br, bc);
    double scale = cabs(alpha) * na * nb + cabs(beta) * tu_normf(C0, c->ldc[s], L, m, n);
    return tu_ratio(sqrt(err), scale, k + 1, TU_PREC_ID);
}

/* potrf: A0 = U^H*U (upper) or L*L^H (lower) from the factor in A's triangle */
static double chol_ratio(const T *F, const T *A0, int64_t ld, int layout, int uplo, int n)
{
    double err = 0;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            zd sum = 0;
            for (int l = 0; l <= (a < b ? a : b); l++) {
                if (uplo == BblasUpper)
                    sum += conj(tu_z(F[tu_idx(ld, layout, l, a)])) * tu_z(F[tu_idx(ld, layout, l, b)]);
                else
                    sum += tu_z(F[tu_idx(ld, layout, a, l)]) * conj(tu_z(F[tu_idx(ld, layout, b, l)]));
            }
            double d = cabs(sum - tu_z(A0[tu_idx(ld, layout, a, b)]));
            err += d * d;
        }
    return tu_ratio(sqrt(err), tu_normf(A0, ld, layout, n, n), n, TU_PREC_ID);
}

/* getrf: P*A0 = L*U with 1-based pivots */
static double lu_ratio(const T *F, const T *A0, int64_t ld, int layout, const int *ipiv, int m, int n)
{
    int mn = m < n ? m : n;
    zd *PA = malloc(sizeof(zd) * (size_t)(m * n + 1));
    for (int a = 0; a < m; a++)
        for (int b = 0; b < n; b++) PA[a + b * m] = tu_z(A0[tu_idx(ld, layout, a, b)]);
    for (int j = 0; j < mn; j++) {
        int p = ipiv[j] - 1;
        if (p < j || p >= m) {
            free(PA);
            return INFINITY;
        }
        for (int b = 0; b < n; b++) {
            zd t = PA[j + b * m];
            PA[j + b * m] = PA[p + b * m];
            PA[p + b * m] = t;
        }
    }
    double err = 0;
    for (int a = 0; a < m; a++)
        for (int b = 0; b < n; b++) {
            zd sum = 0;
            for (int l = 0; l < mn && l <= a && l <= b; l++) {
                zd lv = l == a ? 1 : tu_z(F[tu_idx(ld, layout, a, l)]);
                sum += lv * tu_z(F[tu_idx(ld, layout, l, b)]);
            }
            double d = cabs(sum - PA[a + b * m]);
            err += d * d;
        }
    free(PA);
    return tu_ratio(sqrt(err), tu_normf(A0, ld, layout, m, n), mn, TU_PREC_ID);
}

static double witness(const ctx_t *x, int i)
{
    const call_t *c = &x->c;
    int s = set_of(c->form, i);
    const T *A = opd_ptr(x, OA, i);
    switch (x->r->id) {
    case R_GEMM: return witness_gemm(x, i);
    case R_POTRF: return chol_ratio(A, snap_of(x, OA, A), c->lda[s], c->layout, c->uplo[s], c->n[s]);
    case R_GETRF:
        return lu_ratio(A, snap_of(x, OA, A), c->lda[s], c->layout, piv_ptr(x, i), c->m[s], c->n[s]);
    default: return 0;
    }
}

static const char *mode_name(int mode)
{
    static const char *const n[] = {"all", "group", "any", "none"};
    return mode >= 0 && mode <= 3 ? n[mode] : "info=NULL";
}
#define MODE_NULL (-1)

/* Marks the logical elements of operand o of problem i in mask (element
   offsets relative to buf[o]). */
static void mark(const ctx_t *x, int o, int i, char *mask)
{
    const call_t *c = &x->c;
    int s = set_of(c->form, i), rr, cc;
    if (!opdims(x->r->id, c, s, o, &rr, &cc)) return;
    if (o == OP) {
        const int *p = piv_ptr(x, i);
        if (!p) return;
        for (int e = 0; e < rr; e++) {
            int64_t off = p + e - x->piv;
            if (off >= 0 && off < x->pivlen) mask[off] = 1;
        }
        return;
    }
    const T *p = opd_ptr(x, o, i);
    if (!p) return;
    for (int a = 0; a < rr; a++)
        for (int b = 0; b < cc; b++) {
            int64_t off = p - x->buf[o] + tu_idx(ld_of(c, s, o), c->layout, a, b);
            if (off >= 0 && off < x->len[o]) mask[off] = 1;
        }
}

/*
 * Checks info against e in the given mode, that nothing outside the output
 * matrices of good problems changed (bad problems, gaps, padding, inputs),
 * that good problems were computed, and the witnesses' results.
 */
static void verify(ctx_t *x, const expect_t *e, int mode, int check_computed)
{
    const call_t *c = &x->c;
    const int *info = x->infobuf;
    int form = c->form, ng = ngroups_of(form);
    int untouched[NP];
    for (int i = 0; i < NP; i++) untouched[i] = e->batch || e->pcode[i] != 0;

    /* info */
    if (e->info_mode_bad) {
        if (info[0] != e->code0) note(x, "info[0] = %d, expected %d", info[0], e->code0);
        if (info[1] != INFO_SENT) note(x, "info[1] written (%d) with a bad mode", info[1]);
    } else if (mode == BblasErrorsReportAll) {
        if (info[0] != e->code0) note(x, "info[0] = %d, expected %d", info[0], e->code0);
        if (!e->batch)
            for (int i = 0; i < NP; i++)
                if (info[1 + i] != e->pcode[i])
                    note(x, "info[1+%d] = %d, expected %d", i, info[1 + i], e->pcode[i]);
        if (info[NP + 1] != INFO_SENT) note(x, "info[%d] written beyond batch_size+1 entries", NP + 1);
    } else if (mode == BblasErrorsReportGroup) {
        if (info[0] != e->code0) note(x, "info[0] = %d, expected %d", info[0], e->code0);
        if (!e->batch)
            for (int g = 0; g < ng; g++) {
                int want = 0;
                for (int i = 0; i < NP && !want; i++)
                    if ((form == F_FIXED || form == F_STRIDED || set_of(form, i) == g) && e->pcode[i])
                        want = e->pcode[i];
                if (info[1 + g] != want) note(x, "info[1+group %d] = %d, expected %d", g, info[1 + g], want);
            }
        if (info[ng + 1] != INFO_SENT) note(x, "info[%d] written beyond group_count+1 entries", ng + 1);
    } else if (mode == BblasErrorsReportAny) {
        if (info[0] != e->code0) note(x, "info[0] = %d, expected %d", info[0], e->code0);
        if (info[1] != INFO_SENT) note(x, "info[1] written in mode any");
    } else if (mode == BblasErrorsReportNone) {
        if (info[0] != BblasErrorsReportNone) note(x, "info[0] changed to %d in mode none", info[0]);
        if (info[1] != INFO_SENT) note(x, "info[1] written in mode none");
    }

    /* nothing but the outputs of good problems changed */
    for (int o = OA; o <= OP; o++) {
        int64_t len = o == OP ? x->pivlen : x->len[o];
        char *mask = calloc((size_t)len + 1, 1);
        if (writes_opd(x->r, o))
            for (int i = 0; i < NP; i++)
                if (!untouched[i]) mark(x, o, i, mask);
        int64_t bad = -1;
        for (int64_t off = 0; off < len && bad < 0; off++) {
            if (mask[off]) continue;
            if (o == OP ? x->piv[off] != x->pivsnap[off]
                        : memcmp(&x->buf[o][off], &x->snap[o][off], sizeof(T)) != 0)
                bad = off;
        }
        if (bad >= 0) {
            int64_t sp = c->stride[o] > 0 ? c->stride[o] : 1;
            note(x, "operand %s element %lld (problem %lld region) written%s", o == OP ? "ipiv" : o == OA ? "A" : o == OB ? "B" : "C",
                 (long long)bad, (long long)(bad / sp),
                 writes_opd(x->r, o) ? " outside the outputs of good problems" : " (an input operand)");
        }
        free(mask);
    }
    for (int i = 0; i < NP; i++) {
        int ok = memcmp(&c->y[i], &x->ysnap[i], sizeof(R)) == 0;
        if (untouched[i] && !ok) note(x, "output value of skipped problem %d written", i);
        if (!(x->r->writes & WY) && !ok) note(x, "value[%d] written by a routine without one", i);
    }

    /* good problems were computed */
    if (check_computed)
        for (int i = 0; i < NP; i++) {
            if (untouched[i]) continue;
            int changed = 0;
            if (x->r->writes & WY) changed = memcmp(&c->y[i], &x->ysnap[i], sizeof(R)) != 0;
            for (int o = OA; o <= OC && !changed; o++) {
                if (!writes_opd(x->r, o)) continue;
                const T *p = opd_ptr(x, o, i);
                if (p && memcmp(p, snap_of(x, o, p), sizeof(T) * (size_t)footprint(x->r->id, c, set_of(form, i), o)) != 0)
                    changed = 1;
            }
            if (!changed) note(x, "good problem %d was not computed", i);
            if (x->r->id == R_GEMM || x->r->id == R_POTRF || x->r->id == R_GETRF) {
                double ratio = witness(x, i);
                if (!tu_accept(ratio)) note(x, "good problem %d computed wrongly: ratio %g", i, ratio);
            }
        }
}

/* Runs one call with the given bad arguments in one info mode. */
static void run_case(ctx_t *x, const routine_t *r, int form, int layout, int variant,
                     const bad_t *cases, int ncases, int mode)
{
    setup(x, r, form, layout, variant, 3);

    char d0[64] = "", d1[64] = "";
    if (ncases > 0) describe(&cases[0], d0, sizeof d0);
    if (ncases > 1) describe(&cases[1], d1, sizeof d1);
    snprintf(x->where, sizeof x->where, "%s %s_%s%s_%s %s-major v%d, %s%s%s, mode %s", TU_PNAME,
             r->lapack ? "lapack" : "blas", TU_PNAME, r->name, form_name[form],
             tu_layout_name(layout), variant, d0, ncases > 1 ? " + " : "", d1, mode_name(mode));

    for (int j = 0; j < ncases; j++) apply(x, &cases[j]);
    for (int e = 0; e < NP + 4; e++) x->infobuf[e] = INFO_SENT;
    x->c.info = mode == MODE_NULL ? NULL : x->infobuf;
    if (mode != MODE_NULL) x->infobuf[0] = mode;
    for (int j = 0; j < ncases; j++)
        if (cases[j].kind == K_INFO) x->infobuf[0] = cases[j].val;
    snapshot(x);

    r->call(&x->c);

    expect_t e;
    expected(x, cases, ncases, &e);
    verify(x, &e, mode, 1);
    teardown(x);
}

static const int all_modes[] = {BblasErrorsReportAll, BblasErrorsReportGroup,
                                BblasErrorsReportAny, BblasErrorsReportNone, MODE_NULL};

/* ========================================================================
 * Tests
 * ===================================================================== */

#define ROUTINE_FORM(i, r, form)                                                             \
    const routine_t *r = &routines[(i) / NFORM];                                             \
    int form = (i) % NFORM

/* Every bad form of every argument, alone: every value and every info mode
   (and info == NULL) in column-major with the first option variant; the
   first value of each in mode all for row-major and the second variant. */
START_TEST(test_bad_argument)
{
    ROUTINE_FORM(_i, r, form);
    bad_t cases[96];
    int nc = make_cases(r, form, cases, 96);
    ctx_t x;
    memset(&x, 0, sizeof x);
    const int layouts[2] = {BblasColMajor, BblasRowMajor};
    for (int l = 0; l < 2; l++)
        for (int v = 0; v < 2; v++) {
            int full = l == 0 && v == 0, nmodes = full ? 5 : 1;
            for (int mi = 0; mi < nmodes; mi++) run_case(&x, r, form, layouts[l], v, NULL, 0, all_modes[mi]);
            for (int j = 0; j < nc; j++) {
                if (!full && !cases[j].primary) continue;
                for (int mi = 0; mi < (cases[j].kind == K_INFO ? 1 : nmodes); mi++)
                    run_case(&x, r, form, layouts[l], v, &cases[j], 1, all_modes[mi]);
            }
        }
    ck_assert_msg(x.nfail == 0, "%d failures; first: %s", x.nfail, x.first);
}
END_TEST

#if defined(BB_PREC_D) || defined(BB_PREC_Z) /* positions do not depend on the precision */
/* Two bad arguments at once: the one with the lower position wins.  One
   case per argument (NULL parameter arrays: one representative); a
   batch-level error is paired with a per-problem one only if it comes first. */
START_TEST(test_first_bad_wins)
{
    ROUTINE_FORM(_i, r, form);
    bad_t all[96], cases[48];
    int na = make_cases(r, form, all, 96), nc = 0, have_par_null = 0;
    for (int j = 0; j < na; j++) {
        const bad_t *b = &all[j];
        if (!b->primary || b->kind == K_INFO || b->kind == K_STRIDE_OVL) continue;
        if (b->kind == K_NULLARR && !is_mat(b->arg) && !is_vec(b->arg) && strcmp(b->arg, "group_sizes")) {
            if (have_par_null++) continue; /* one NULL parameter array is enough */
        }
        /* matrices in the pointer forms: the NULL pointer in one problem */
        if (b->kind == K_NULLARR && is_mat(b->arg) && form != F_STRIDED) continue;
        int dup = 0;
        for (int q = 0; q < nc; q++)
            if (!strcmp(cases[q].arg, b->arg)) dup = 1;
        if (!dup && nc < 48) cases[nc++] = *b;
    }
    ctx_t x;
    memset(&x, 0, sizeof x);
    int layout = TU_PREC_ID == 1 ? BblasColMajor : BblasRowMajor;
    for (int a = 0; a < nc; a++)
        for (int b = a + 1; b < nc; b++) {
            int ba = is_batch_level(&cases[a], form), bb = is_batch_level(&cases[b], form);
            if (ba != bb) {
                const bad_t *bl = ba ? &cases[a] : &cases[b], *pp = ba ? &cases[b] : &cases[a];
                if (pos_of(r, form, bl->arg) > pos_of(r, form, pp->arg)) continue;
            }
            bad_t two[2] = {cases[a], cases[b]};
            run_case(&x, r, form, layout, 0, two, 2, BblasErrorsReportAll);
        }
    ck_assert_msg(x.nfail == 0, "%d failures; first: %s", x.nfail, x.first);
}
END_TEST
#endif

/* Zero sizes (with NULL pointers for the empty matrices) and empty batches
   (every array NULL) are legal no-ops. */
START_TEST(test_zero_and_empty)
{
    ROUTINE_FORM(_i, r, form);
    ctx_t x;
    memset(&x, 0, sizeof x);
    char tok[24][16];
    int nt = sig_tokens(r, form, tok, 24);
    const int layouts[2] = {BblasColMajor, BblasRowMajor};
    for (int l = 0; l < 2; l++) {
        /* one size zero at a time */
        for (int t = 0; t < nt; t++) {
            if (!is_size(tok[t])) continue;
            for (int mi = 0; mi < 2; mi++) {
                int mode = mi == 0 ? BblasErrorsReportAll : MODE_NULL;
                setup(&x, r, form, layouts[l], 0, 3);
                snprintf(x.where, sizeof x.where, "%s %s%s_%s %s-major, %.15s = 0, mode %s", TU_PNAME,
                         TU_PNAME, r->name, form_name[form], tu_layout_name(layouts[l]), tok[t],
                         mode_name(mode));
                call_t *c = &x.c;
                for (int s = 0; s < NP; s++) field(c, tok[t])[s] = 0;
                for (int o = OA; o <= OP; o++) { /* empty matrices: NULL */
                    int rr, cc;
                    if (!opdims(r->id, c, 0, o, &rr, &cc) || (rr > 0 && cc > 0)) continue;
                    if (o == OP) {
                        c->pivbase = NULL;
                        for (int i = 0; i < NP; i++) c->pivp[i] = NULL;
                    } else {
                        c->base[o] = NULL;
                        for (int i = 0; i < NP; i++) c->ptr[o][i] = NULL;
                    }
                }
                for (int e = 0; e < NP + 4; e++) x.infobuf[e] = INFO_SENT;
                c->info = mode == MODE_NULL ? NULL : x.infobuf;
                x.infobuf[0] = mode;
                snapshot(&x);
                r->call(c);
                expect_t e;
                expected(&x, NULL, 0, &e);
                verify(&x, &e, mode, 0);
                /* gemm with k = 0: C = beta*C */
                if (r->id == R_GEMM && !strcmp(tok[t], "k"))
                    for (int i = 0; i < NP; i++) {
                        double ratio = witness_gemm(&x, i);
                        if (!tu_accept(ratio)) note(&x, "k = 0: C_%d != beta*C (ratio %g)", i, ratio);
                    }
                if (r->id == R_LANGE)
                    for (int i = 0; i < NP; i++)
                        if (c->y[i] != 0) note(&x, "norm of an empty matrix %d is %g", i, (double)c->y[i]);
                teardown(&x);
            }
        }
        /* empty batches, every pointer argument NULL */
        for (int variant = 0; variant < (form == F_GROUP ? 3 : 1); variant++)
            for (int mi = 0; mi < 5; mi++) {
                int mode = all_modes[mi];
                setup(&x, r, form, layouts[l], 0, 3);
                call_t *c = &x.c;
                c->null_arg[0] = "*";
                c->count = 0;
                if (variant > 0) { /* group form: 2 groups of size 0 */
                    c->count = 2;
                    c->gs[0] = c->gs[1] = 0;
                    c->null_arg[0] = variant == 1 ? "**" : "A"; /* all but group_sizes / only A */
                }
                snprintf(x.where, sizeof x.where, "%s %s%s_%s %s-major, empty batch (%s), mode %s",
                         TU_PNAME, TU_PNAME, r->name, form_name[form], tu_layout_name(layouts[l]),
                         variant == 0 ? "count 0, all NULL" : variant == 1 ? "2 empty groups, all NULL but group_sizes" : "2 empty groups, A NULL",
                         mode_name(mode));
                for (int e = 0; e < NP + 4; e++) x.infobuf[e] = INFO_SENT;
                c->info = mode == MODE_NULL ? NULL : x.infobuf;
                x.infobuf[0] = mode;
                snapshot(&x);
                r->call(c);
                if (mode == BblasErrorsReportAll || mode == BblasErrorsReportAny ||
                    mode == BblasErrorsReportGroup)
                    if (x.infobuf[0] != 0) note(&x, "info[0] = %d, expected 0", x.infobuf[0]);
                if (mode == BblasErrorsReportNone && x.infobuf[0] != BblasErrorsReportNone)
                    note(&x, "info[0] changed in mode none");
                if (mode == BblasErrorsReportGroup && variant > 0 &&
                    (x.infobuf[1] != 0 || x.infobuf[2] != 0))
                    note(&x, "empty groups: info[1], info[2] = %d, %d, expected 0", x.infobuf[1], x.infobuf[2]);
                int limit = (mode == BblasErrorsReportGroup && variant > 0) ? 3 : 1;
                /* fixed and strided forms have one group: info[1] = 0 is fine */
                if (mode == BblasErrorsReportGroup && (form == F_FIXED || form == F_STRIDED)) {
                    if (x.infobuf[1] != 0 && x.infobuf[1] != INFO_SENT)
                        note(&x, "info[1] = %d in group mode", x.infobuf[1]);
                    limit = 2;
                }
                for (int e = limit; e < NP + 4; e++)
                    if (x.infobuf[e] != INFO_SENT) note(&x, "info[%d] written by an empty batch", e);
                for (int o = OA; o <= OC; o++)
                    if (memcmp(x.buf[o], x.snap[o], sizeof(T) * (size_t)x.len[o]) != 0)
                        note(&x, "an empty batch wrote a matrix");
                if (memcmp(x.piv, x.pivsnap, sizeof(int) * (size_t)x.pivlen) != 0 ||
                    memcmp(c->y, x.ysnap, sizeof x.ysnap) != 0)
                    note(&x, "an empty batch wrote ipiv or a value");
                teardown(&x);
            }
    }
    ck_assert_msg(x.nfail == 0, "%d failures; first: %s", x.nfail, x.first);
}
END_TEST

/* gemm: beta == 0 means C is not read (NaN in C does not propagate);
   alpha == 0 means A and B are not read. */
START_TEST(test_gemm_scalars_zero)
{
    const routine_t *r = find_routine(R_GEMM);
    ctx_t x;
    memset(&x, 0, sizeof x);
    const int layouts[2] = {BblasColMajor, BblasRowMajor};
    for (int form = 0; form < NFORM; form++)
        for (int l = 0; l < 2; l++)
            for (int v = 0; v < 2; v++)
                for (int which = 0; which < 2; which++) {
                    setup(&x, r, form, layouts[l], v, 3);
                    snprintf(x.where, sizeof x.where, "%s %sgemm_%s %s-major v%d, %s", TU_PNAME,
                             TU_PNAME, form_name[form], tu_layout_name(layouts[l]), v,
                             which ? "alpha = 0, NaN in A and B" : "beta = 0, NaN in C");
                    call_t *c = &x.c;
                    int o_nan = which ? OA : OC;
                    for (int o = o_nan; o <= (which ? OB : OC); o++)
                        for (int i = 0; i < NP; i++) {
                            int rr, cc;
                            opdims(R_GEMM, c, 0, o, &rr, &cc);
                            for (int a = 0; a < rr; a++)
                                for (int b = 0; b < cc; b++)
                                    c->ptr[o][i][tu_idx(ld_of(c, 0, o), c->layout, a, b)] = MAKE_T(NAN, NAN);
                        }
                    for (int s = 0; s < NP; s++) {
                        if (which) c->alpha[s] = MAKE_T(0, 0);
                        else c->beta[s] = MAKE_T(0, 0);
                    }
                    x.infobuf[0] = BblasErrorsReportAll;
                    c->info = x.infobuf;
                    snapshot(&x);
                    r->call(c);
                    if (x.infobuf[0] != 0) note(&x, "info[0] = %d", x.infobuf[0]);
                    for (int i = 0; i < NP; i++) {
                        const T *C = opd_ptr(&x, OC, i);
                        const T *C0 = snap_of(&x, OC, C);
                        int s = set_of(form, i);
                        double err = 0, scale = 0;
                        for (int a = 0; a < c->m[s]; a++)
                            for (int b = 0; b < c->n[s]; b++) {
                                int64_t e = tu_idx(c->ldc[s], c->layout, a, b);
                                zd want;
                                if (which) want = tu_z(c->beta[s]) * tu_z(C0[e]);
                                else {
                                    zd sum = 0;
                                    const T *A = snap_of(&x, OA, opd_ptr(&x, OA, i));
                                    const T *B = snap_of(&x, OB, opd_ptr(&x, OB, i));
                                    for (int q = 0; q < c->k[s]; q++)
                                        sum += opget(A, c->lda[s], c->layout, c->trans[s], a, q) *
                                               opget(B, c->ldb[s], c->layout, c->transb[s], q, b);
                                    want = tu_z(c->alpha[s]) * sum;
                                }
                                err = fmax(err, cabs(tu_z(C[e]) - want));
                                scale = fmax(scale, cabs(want));
                            }
                        double ratio = tu_ratio(err, scale, c->k[s], TU_PREC_ID);
                        if (!tu_accept(ratio)) note(&x, "C_%d wrong (ratio %g)", i, ratio);
                    }
                    teardown(&x);
                }
    ck_assert_msg(x.nfail == 0, "%d failures; first: %s", x.nfail, x.first);
}
END_TEST

/* ---- numerical failures in mixed batches --------------------------------- */

/* reference inverse (Gauss-Jordan, partial pivoting) of a logical n x n; 0 if singular */
static int ref_inverse(const T *A, int64_t ld, int layout, int n, zd *inv)
{
    zd *w = malloc(sizeof(zd) * (size_t)(2 * n * n + 1));
    for (int a = 0; a < n; a++)
        for (int b = 0; b < n; b++) {
            w[a + b * n] = tu_z(A[tu_idx(ld, layout, a, b)]);
            inv[a + b * n] = a == b;
        }
    int ok = 1;
    for (int j = 0; j < n && ok; j++) {
        int p = j;
        for (int a = j + 1; a < n; a++)
            if (cabs(w[a + j * n]) > cabs(w[p + j * n])) p = a;
        if (w[p + j * n] == 0) { ok = 0; break; }
        for (int b = 0; b < n; b++) {
            zd t = w[j + b * n]; w[j + b * n] = w[p + b * n]; w[p + b * n] = t;
            t = inv[j + b * n]; inv[j + b * n] = inv[p + b * n]; inv[p + b * n] = t;
        }
        zd d = w[j + j * n];
        for (int b = 0; b < n; b++) { w[j + b * n] /= d; inv[j + b * n] /= d; }
        for (int a = 0; a < n; a++) {
            if (a == j) continue;
            zd f = w[a + j * n];
            for (int b = 0; b < n; b++) { w[a + b * n] -= f * w[j + b * n]; inv[a + b * n] -= f * inv[j + b * n]; }
        }
    }
    free(w);
    return ok;
}

static double norm1(const zd *M, int n, int inf) /* one or infinity norm of column-major n x n */
{
    double best = 0;
    for (int a = 0; a < n; a++) {
        double s = 0;
        for (int b = 0; b < n; b++) s += cabs(inf ? M[a + b * n] : M[b + a * n]);
        best = fmax(best, s);
    }
    return best;
}

/* kinds of members of a mixed batch */
enum { M_GOOD, M_NEGDEF, M_ZERODIAG, M_NANDIAG, M_ZEROCOL, M_NANCOL };

/* The member of problem i and its expected k. */
static int member(int chol, int i, int *k)
{
    static const int chol_kind[NP] = {M_GOOD, M_NEGDEF, M_GOOD, M_ZERODIAG, M_NANDIAG};
    static const int chol_k[NP] = {0, 3, 0, 2, 4};
    static const int lu_kind[NP] = {M_GOOD, M_ZEROCOL, M_GOOD, M_NANCOL, M_ZEROCOL};
    static const int lu_k[NP] = {0, 3, 0, 2, 1};
    *k = chol ? chol_k[i] : lu_k[i];
    return chol ? chol_kind[i] : lu_kind[i];
}

/* Writes the member matrix (n = 4) of problem i into A. */
static void make_member(T *A, int64_t ld, int layout, int chol, int i)
{
    const int n = 4;
    int k, kind = member(chol, i, &k);
    if (kind == M_GOOD) {
        tu_fill_hpd(A, ld, layout, n);
        return;
    }
    if (kind == M_NEGDEF) { /* L*D*L^H with D = diag(1, 2, -3, 4): fails at k = 3 */
        const double D[4] = {1, 2, -3, 4};
        zd Lm[16];
        for (int a = 0; a < n; a++)
            for (int b = 0; b < n; b++) Lm[a + b * n] = a == b ? 1 : a > b ? 0.5 * tu_z(tu_rand_T()) : 0;
        for (int a = 0; a < n; a++)
            for (int b = 0; b < n; b++) {
                zd s = 0;
                for (int l = 0; l < n; l++) s += Lm[a + l * n] * D[l] * conj(Lm[b + l * n]);
                if (a == b) s = creal(s);
                A[tu_idx(ld, layout, a, b)] = tu_T(s);
            }
        return;
    }
    if (kind == M_ZERODIAG || kind == M_NANDIAG) { /* diagonal: exact pivots */
        for (int a = 0; a < n; a++)
            for (int b = 0; b < n; b++) A[tu_idx(ld, layout, a, b)] = MAKE_T(a == b ? (a + 1) * (a + 1) : 0, 0);
        if (kind == M_ZERODIAG) A[tu_idx(ld, layout, k - 1, k - 1)] = MAKE_T(0, 0);
        else {
            tu_fill_hpd(A, ld, layout, n); /* NaN on the diagonal of a full HPD matrix */
            A[tu_idx(ld, layout, k - 1, k - 1)] = MAKE_T(NAN, 0);
        }
        return;
    }
    /* M_ZEROCOL / M_NANCOL: a random matrix with column k zero / NaN */
    tu_fill(A, ld, layout, n, n);
    for (int a = 0; a < n; a++) A[tu_idx(ld, layout, a, a)] = tu_T(tu_z(A[tu_idx(ld, layout, a, a)]) + 2.0);
    for (int a = 0; a < n; a++) A[tu_idx(ld, layout, a, k - 1)] = kind == M_ZEROCOL ? MAKE_T(0, 0) : MAKE_T(NAN, 0);
}

/* ratio of A0*X = B0 (n x nrhs) */
static double solve_ratio(const T *A0, int64_t lda, const T *X, const T *B0, int64_t ldb,
                          int layout, int n, int nrhs)
{
    double err = 0, xn = 0;
    for (int a = 0; a < n; a++)
        for (int b = 0; b < nrhs; b++) {
            zd s = 0;
            for (int l = 0; l < n; l++) s += tu_z(A0[tu_idx(lda, layout, a, l)]) * tu_z(X[tu_idx(ldb, layout, l, b)]);
            double d = cabs(s - tu_z(B0[tu_idx(ldb, layout, a, b)]));
            err += d * d;
        }
    xn = tu_normf(X, ldb, layout, n, nrhs);
    return tu_ratio(sqrt(err), tu_normf(A0, lda, layout, n, n) * xn, n, TU_PREC_ID);
}

static const int mixed_ids[] = {R_POTRF, R_POSV, R_GETRF, R_GESV, R_GECOND};
#define NMIXED ((int)(sizeof mixed_ids / sizeof mixed_ids[0]))

/* Batches of n = 4 problems: good, not positive definite, singular and NaN
   members; each failure has its k, the others are computed. */
START_TEST(test_mixed_numerical)
{
    const routine_t *r = find_routine(mixed_ids[_i / NFORM]);
    int form = _i % NFORM;
    int chol = r->id == R_POTRF || r->id == R_POSV;
    ctx_t x;
    memset(&x, 0, sizeof x);
    const int layouts[2] = {BblasColMajor, BblasRowMajor};
    for (int l = 0; l < 2; l++)
        for (int v = 0; v < 2; v++)
            for (int mi = 0; mi < 5; mi++) {
                int mode = all_modes[mi];
                setup(&x, r, form, layouts[l], v, 4); /* getrf: square */
                snprintf(x.where, sizeof x.where, "%s %s%s_%s %s-major v%d, mixed batch, mode %s",
                         TU_PNAME, TU_PNAME, r->name, form_name[form], tu_layout_name(layouts[l]), v,
                         mode_name(mode));
                call_t *c = &x.c;
                for (int i = 0; i < NP; i++) make_member(c->ptr[OA][i], c->lda[0], c->layout, chol, i);
                for (int e = 0; e < NP + 4; e++) x.infobuf[e] = INFO_SENT;
                c->info = mode == MODE_NULL ? NULL : x.infobuf;
                x.infobuf[0] = mode;
                snapshot(&x);
                r->call(c);

                int k[NP], code0 = 0;
                for (int i = 0; i < NP; i++) {
                    member(chol, i, &k[i]);
                    if (!code0) code0 = k[i];
                }
                const int *info = x.infobuf;
                /* gecond on row-major data factors the stored matrix (A^T):
                   a singular member is flagged, its k may differ (doc/api.md) */
                int any_k = r->id == R_GECOND && layouts[l] == BblasRowMajor;
#define CODE_OK(got, want) ((got) == (want) || (any_k && (got) > 0 && (want) > 0))
                if (mode != MODE_NULL && mode != BblasErrorsReportNone && !CODE_OK(info[0], code0))
                    note(&x, "info[0] = %d, expected %d", info[0], code0);
                if (mode == BblasErrorsReportNone && info[0] != BblasErrorsReportNone)
                    note(&x, "info[0] changed in mode none");
                if (mode == BblasErrorsReportAll)
                    for (int i = 0; i < NP; i++)
                        if (!CODE_OK(info[1 + i], k[i])) note(&x, "info[1+%d] = %d, expected %d", i, info[1 + i], k[i]);
                if (mode == BblasErrorsReportGroup)
                    for (int g = 0; g < ngroups_of(form); g++) {
                        int want = 0;
                        for (int i = 0; i < NP && !want; i++)
                            if (form == F_FIXED || form == F_STRIDED || set_of(form, i) == g) want = k[i];
                        if (!CODE_OK(info[1 + g], want)) note(&x, "info[1+group %d] = %d, expected %d", g, info[1 + g], want);
                    }
                /* the good members are right; singular ones have cond = +Inf */
                for (int i = 0; i < NP; i++) {
                    int s = set_of(form, i), n = 4;
                    const T *A = opd_ptr(&x, OA, i), *A0 = snap_of(&x, OA, A);
                    double ratio = 0;
                    if (k[i] != 0) {
                        int kk, kind = member(chol, i, &kk);
                        if (r->id == R_GECOND && kind == M_ZEROCOL && !(isinf(c->y[i]) && c->y[i] > 0))
                            note(&x, "singular member %d: cond = %g, expected +Inf", i, (double)c->y[i]);
                        continue;
                    }
                    switch (r->id) {
                    case R_POTRF: case R_POSV:
                        ratio = chol_ratio(A, A0, c->lda[s], c->layout, c->uplo[s], n);
                        if (r->id == R_POSV && tu_accept(ratio)) {
                            const T *B = opd_ptr(&x, OB, i);
                            ratio = solve_ratio(A0, c->lda[s], B, snap_of(&x, OB, B), c->ldb[s], c->layout, n, c->nrhs[s]);
                        }
                        break;
                    case R_GETRF:
                        ratio = lu_ratio(A, A0, c->lda[s], c->layout, piv_ptr(&x, i), n, n);
                        break;
                    case R_GESV: {
                        const T *B = opd_ptr(&x, OB, i);
                        ratio = lu_ratio(A, A0, c->lda[s], c->layout, piv_ptr(&x, i), n, n);
                        if (tu_accept(ratio))
                            ratio = solve_ratio(A0, c->lda[s], B, snap_of(&x, OB, B), c->ldb[s], c->layout, n, c->nrhs[s]);
                        break;
                    }
                    case R_GECOND: {
                        zd inv[16], a0[16];
                        ref_inverse(A0, c->lda[s], c->layout, n, inv);
                        for (int a = 0; a < n; a++)
                            for (int b = 0; b < n; b++) a0[a + b * n] = tu_z(A0[tu_idx(c->lda[s], c->layout, a, b)]);
                        int inf = c->norm[s] == BblasInfNorm;
                        double want = norm1(a0, n, inf) * norm1(inv, n, inf);
                        /* the inverse is accurate to about cond*eps: scale by cond^2 */
                        ratio = tu_ratio(fabs(c->y[i] - want), want * want, n, TU_PREC_ID);
                        break;
                    }
                    }
                    if (!tu_accept(ratio)) note(&x, "good member %d wrong: ratio %g", i, ratio);
                }
                teardown(&x);
#undef CODE_OK
            }
    ck_assert_msg(x.nfail == 0, "%d failures; first: %s", x.nfail, x.first);
}
END_TEST

/* An argument error and a numerical failure in one batch: info[0] is the
   code of the lower-numbered failing problem, whichever kind it is. */
START_TEST(test_mixed_argument_and_numerical)
{
    const int ids[2] = {R_POTRF, R_GETRF};
    ctx_t x;
    memset(&x, 0, sizeof x);
    for (int q = 0; q < 2; q++) {
        const routine_t *r = find_routine(ids[q]);
        int chol = q == 0;
        for (int order = 0; order < 2; order++) {
            setup(&x, r, F_VAR, BblasColMajor, 0, 4);
            call_t *c = &x.c;
            for (int i = 0; i < NP; i++) make_member(c->ptr[OA][i], c->lda[0], c->layout, chol, i == 1 ? 1 : 0);
            int badp = order == 0 ? 3 : 0; /* argument error after / before the failure */
            c->lda[badp] = 3;
            int ldpos = pos_of(r, F_VAR, "lda");
            snprintf(x.where, sizeof x.where, "%s %s%s_batchv: failure in problem 1, lda bad in problem %d",
                     TU_PNAME, TU_PNAME, r->name, badp);
            x.infobuf[0] = BblasErrorsReportAll;
            c->info = x.infobuf;
            snapshot(&x);
            r->call(c);
            const int k1 = 3; /* member 1 fails at column 3 (potrf and getrf) */
            int want0 = order == 0 ? k1 : -ldpos;
            if (x.infobuf[0] != want0) note(&x, "info[0] = %d, expected %d", x.infobuf[0], want0);
            if (x.infobuf[2] != k1) note(&x, "info[2] = %d, expected %d", x.infobuf[2], k1);
            if (x.infobuf[1 + badp] != -ldpos) note(&x, "info[%d] = %d, expected %d", 1 + badp, x.infobuf[1 + badp], -ldpos);
            const T *A = c->ptr[OA][badp];
            if (memcmp(A, snap_of(&x, OA, A), sizeof(T) * 16) != 0) /* 4 x 4, lda 4 */
                note(&x, "the problem with the bad lda was written");
            teardown(&x);
        }
    }
    ck_assert_msg(x.nfail == 0, "%d failures; first: %s", x.nfail, x.first);
}
END_TEST

/* The _dev variants take the same arguments plus a queue after info; a
   NULL queue is a batch-level error at that position (nothing computed),
   checked after the counts and the layout; an empty batch is still a no-op. */
START_TEST(test_dev_forms)
{
    ROUTINE_FORM(_i, r, form);
    ctx_t x;
    memset(&x, 0, sizeof x);
    int qpos = pos_of(r, form, "info") + 1;
    for (int what = 0; what < 4; what++) {
        int mode = what == 3 ? BblasErrorsReportNone : BblasErrorsReportAll;
        setup(&x, r, form, BblasColMajor, 0, 3);
        static const char *const what_name[4] = {"valid arguments", "empty batch", "bad layout",
                                                  "valid arguments, mode none"};
        snprintf(x.where, sizeof x.where, "%s %s_%s%s_%s_dev, NULL queue, %s", TU_PNAME,
                 r->lapack ? "lapack" : "blas", TU_PNAME, r->name, form_name[form], what_name[what]);
        x.c.dev = 1;
        expect_t e;
        memset(&e, 0, sizeof e);
        e.batch = 1;
        e.code0 = -qpos;
        if (what == 1) {
            x.c.count = 0;
            e.code0 = 0;
        }
        if (what == 2) {
            x.c.layout = 0;
            e.code0 = -pos_of(r, form, "layout");
        }
        for (int j = 0; j < NP + 4; j++) x.infobuf[j] = INFO_SENT;
        x.infobuf[0] = mode;
        x.c.info = x.infobuf;
        snapshot(&x);
        r->call(&x.c);
        verify(&x, &e, mode, 0);
        teardown(&x);
    }
    ck_assert_msg(x.nfail == 0, "%d failures; first: %s", x.nfail, x.first);
}
END_TEST

/*
 * The argument-check cases make tens of thousands of calls on a few tiny
 * matrices each; they run with one OpenMP thread, which keeps them fast on
 * a loaded machine (the checks happen before any thread starts).  The
 * numerical and witness cases run with the default number of threads.
 */
static int saved_threads = 0;

static void one_thread(void)
{
#ifdef _OPENMP
    saved_threads = omp_get_max_threads();
    omp_set_num_threads(1);
#endif
}

static void restore_threads(void)
{
#ifdef _OPENMP
    if (saved_threads > 0) omp_set_num_threads(saved_threads);
#endif
}

void X(add_errors_tests)(Suite *s)
{
    TCase *ta = tcase_create("errors_args_" TU_PNAME);
    tcase_set_timeout(ta, 300);
    tcase_add_checked_fixture(ta, one_thread, restore_threads);
    BB_ADD_LOOP(ta, test_bad_argument, 0, NROUT * NFORM);
#if defined(BB_PREC_D) || defined(BB_PREC_Z) /* positions do not depend on the precision */
    BB_ADD_LOOP(ta, test_first_bad_wins, 0, NROUT * NFORM);
#endif
    BB_ADD_LOOP(ta, test_zero_and_empty, 0, NROUT * NFORM);
    BB_ADD_LOOP(ta, test_dev_forms, 0, NROUT * NFORM);
    suite_add_tcase(s, ta);

    TCase *tc = tcase_create("errors_" TU_PNAME);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_gemm_scalars_zero);
    BB_ADD_LOOP(tc, test_mixed_numerical, 0, NMIXED * NFORM);
    tcase_add_test(tc, test_mixed_argument_and_numerical);
    suite_add_tcase(s, tc);
}
