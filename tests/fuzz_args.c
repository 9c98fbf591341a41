/*
 * Argument fuzzer (issue 10, doc/reliability.md).  Random mixes of valid and
 * invalid arguments in the four forms (group _batch, fixed _batchf, variable
 * _batchv, strided _batch_strided) of gemm, trsm, syrk, potrf, posv, getrf,
 * gesv, getri and lange, in s, d, c and z, in every report mode (and with
 * info == NULL).  For every call:
 *   - the expected code of every problem comes from the signature position
 *     table below (written from doc/api.md, not from the library's checker):
 *     minus the 1-based position of the first bad argument; batch-level
 *     errors (count, group sizes, layout) and the report mode (read first,
 *     the documented exception) likewise;
 *   - every valid problem must match the same problem computed alone (a
 *     batch of one in the same form, on copies of its data): its code, and
 *     its outputs bit for bit;
 *   - every operand lives in a buffer with sentinel-filled guard regions
 *     before and after and sentinel padding inside (ld > rows, stride gaps):
 *     after the call the whole buffer, guards included, must equal the
 *     initial contents with only the valid problems' output regions
 *     replaced, so skipped problems, read-only operands and everything
 *     outside an output are untouched (bitwise);
 *   - info: exactly the entries of the mode written, the rest untouched;
 *   - gemm with beta == 0 gets NaN in C: C must not be read.
 * Runs BB_FUZZ_SECONDS seconds (default 20), from BB_FUZZ_SEED (default:
 * from the clock), printed in the one-line summary; BB_FUZZ_SEED=s
 * BB_FUZZ_CASE=n reruns case n of seed s alone.  On a failure it prints the
 * seed, the case and what differs, and exits 1.  Host-data calls run on
 * whatever backend the library picks (BATCHBLAS_BACKEND=cuda on a GPU).
 */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <batchblas.h>

/* ---- argument kinds and the routines' signatures (doc/api.md) ---------- */

enum {
    K_SIDE, K_UPLO, K_TRANS, K_TRANSB, K_DIAG, K_NORM, K_M, K_N, K_K, K_NRHS,
    K_LDA, K_LDB, K_LDC, NK_INT,
    K_ALPHA = NK_INT, K_BETA, K_A, K_B, K_C, K_IPIV, K_VALUE,
    K_SA, K_SB, K_SC, K_SIPIV, NKIND
};
enum { R_GEMM, R_TRSM, R_SYRK, R_POTRF, R_POSV, R_GETRF, R_GESV, R_GETRI, R_LANGE, NR };
enum { F_GROUP, F_FIXED, F_VAR, F_STRIDED, NF };
enum { O_A, O_B, O_C, NMAT }; /* matrix operands */

static const char *rname[NR] = {"gemm", "trsm", "syrk", "potrf", "posv", "getrf", "gesv", "getri", "lange"};
static const char *fname[NF] = {"_batch", "_batchf", "_batchv", "_batch_strided"};
static const char pname[4] = {'s', 'd', 'c', 'z'};

/* The routine-specific arguments in signature order (between layout and
   info; the strided form adds stride_x after ldx and stride_ipiv after
   ipiv, then batch_size). */
static const struct {
    int n;
    int k[14];
} sig[NR] = {
    [R_GEMM] = {13, {K_TRANS, K_TRANSB, K_M, K_N, K_K, K_ALPHA, K_A, K_LDA, K_B, K_LDB, K_BETA, K_C, K_LDC}},
    [R_TRSM] = {11, {K_SIDE, K_UPLO, K_TRANS, K_DIAG, K_M, K_N, K_ALPHA, K_A, K_LDA, K_B, K_LDB}},
    [R_SYRK] = {10, {K_UPLO, K_TRANS, K_N, K_K, K_ALPHA, K_A, K_LDA, K_BETA, K_C, K_LDC}},
    [R_POTRF] = {4, {K_UPLO, K_N, K_A, K_LDA}},
    [R_POSV] = {7, {K_UPLO, K_N, K_NRHS, K_A, K_LDA, K_B, K_LDB}},
    [R_GETRF] = {5, {K_M, K_N, K_A, K_LDA, K_IPIV}},
    [R_GESV] = {7, {K_N, K_NRHS, K_A, K_LDA, K_IPIV, K_B, K_LDB}},
    [R_GETRI] = {4, {K_N, K_A, K_LDA, K_IPIV}},
    [R_LANGE] = {6, {K_NORM, K_M, K_N, K_A, K_LDA, K_VALUE}},
};

/* The full signature of a form: kinds in order, with the batch-level
   arguments as negative markers. */
enum { X_COUNT = -1, X_GSIZES = -2, X_LAYOUT = -3, X_INFO = -4 };
static int full_sig(int r, int f, int *out)
{
    int n = 0;
    if (f == F_GROUP) { out[n++] = X_COUNT; out[n++] = X_GSIZES; out[n++] = X_LAYOUT; }
    else if (f != F_STRIDED) { out[n++] = X_COUNT; out[n++] = X_LAYOUT; }
    else out[n++] = X_LAYOUT;
    for (int j = 0; j < sig[r].n; j++) {
        int k = sig[r].k[j];
        out[n++] = k;
        if (f == F_STRIDED) {
            if (k == K_LDA) out[n++] = K_SA;
            if (k == K_LDB) out[n++] = K_SB;
            if (k == K_LDC) out[n++] = K_SC;
            if (k == K_IPIV) out[n++] = K_SIPIV;
        }
    }
    if (f == F_STRIDED) out[n++] = X_COUNT;
    out[n++] = X_INFO;
    return n;
}

/* 1-based position of kind k (or marker) in the signature of form f. */
static int pos_of(int r, int f, int k)
{
    int s[32], n = full_sig(r, f, s);
    for (int j = 0; j < n; j++)
        if (s[j] == k) return j + 1;
    return 0;
}

static int has_kind(int r, int k)
{
    for (int j = 0; j < sig[r].n; j++)
        if (sig[r].k[j] == k) return 1;
    return 0;
}

/* ---- random numbers: one stream per case ------------------------------- */

static uint64_t rs;
static uint64_t next64(void)
{
    uint64_t z = (rs += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static double urand(void) { return (double)(next64() >> 11) / 9007199254740992.0 * 2 - 1; }
static int irand(int lo, int hi) { return lo + (int)(next64() % (uint64_t)(hi - lo + 1)); }
static int chance(double p) { return (double)(next64() >> 11) / 9007199254740992.0 < p; }

/* ---- elements ----------------------------------------------------------- */

static const size_t esz[4] = {4, 8, 8, 16};
static const size_t rsz[4] = {4, 8, 4, 8};
#define SENT 0xA5
#define GUARD 64 /* bytes before and after every buffer */

static void put(char *buf, int64_t at, int p, double re, double im)
{
    switch (p) {
    case 0: { float v = (float)re; memcpy(buf + at * 4, &v, 4); break; }
    case 1: memcpy(buf + at * 8, &re, 8); break;
    case 2: { float v[2] = {(float)re, (float)im}; memcpy(buf + at * 8, v, 8); break; }
    default: { double v[2] = {re, im}; memcpy(buf + at * 16, v, 16); break; }
    }
}

static int elem_nan(const char *buf, int64_t at, int p)
{
    if (p == 0 || p == 2) {
        float v[2];
        memcpy(v, buf + at * esz[p], esz[p]);
        return isnan(v[0]) || (p == 2 && isnan(v[1]));
    }
    double v[2];
    memcpy(v, buf + at * esz[p], esz[p]);
    return isnan(v[0]) || (p == 3 && isnan(v[1]));
}

/* A buffer with guard regions: user pointer = mem + GUARD. */
typedef struct {
    char *mem;
    size_t bytes; /* user bytes */
} gbuf;

static void gb_alloc(gbuf *g, size_t bytes)
{
    g->bytes = bytes;
    g->mem = malloc(bytes + 2 * GUARD);
    if (!g->mem) { fprintf(stderr, "fuzz_args: out of memory\n"); exit(99); }
    memset(g->mem, SENT, bytes + 2 * GUARD);
}
static char *gb_ptr(const gbuf *g) { return g->mem + GUARD; }
static void gb_copy(gbuf *dst, const gbuf *src)
{
    gb_alloc(dst, src->bytes);
    memcpy(dst->mem, src->mem, src->bytes + 2 * GUARD);
}
static void gb_free(gbuf *g) { free(g->mem); g->mem = NULL; }

/* ---- one call ----------------------------------------------------------- */

#define MAXP 10  /* problems */
#define MAXG 5   /* groups */

typedef struct {
    int r, p, f, layout, mode; /* mode: info[0] on entry */
    int null_info;             /* info == NULL */
    int count;                 /* batch_size, or group form total */
    int ng;                    /* group_count (group form), 1 (fixed, strided), count (var) */
    int gs[MAXG];
    int iv[NK_INT][MAXP];      /* per parameter set */
    _Alignas(16) unsigned char alpha[MAXP][16];
    _Alignas(16) unsigned char beta[MAXP][16];
    int nullp[MAXP][NMAT + 1]; /* member pointer NULL (pointer forms); [0] in strided: base NULL */
    int64_t st[NMAT + 1];      /* strided: strides of A, B, C, ipiv */
    int gemm_nan_c;            /* beta == 0 somewhere: C filled with NaN */
} spec_t;

/* The arguments as passed. */
typedef struct {
    int layout, count, ng;
    const int *gs;
    const int *iv[NK_INT];
    const void *alpha, *beta;
    void **arr[NMAT];
    int **parr;
    char *base[NMAT];
    int64_t st[NMAT];
    int *pbase;
    int64_t pst;
    void *value;
    int *info;
} args_t;

#define IVP(k) (a->iv[k])
#define IV0(k) (a->iv[k][0])
#define DEF_CALLS(P, T, R)                                                                                  \
    static void call_##P(int r, int f, const args_t *a)                                                      \
    {                                                                                                       \
        T const *const *cA = (T const *const *)a->arr[0], *const *cB = (T const *const *)a->arr[1];         \
        T **mA = (T **)a->arr[0], **mB = (T **)a->arr[1], **mC = (T **)a->arr[2];                         \
        const T *al = (const T *)a->alpha, *be = (const T *)a->beta;                                         \
        T *sA = (T *)a->base[0], *sB = (T *)a->base[1], *sC = (T *)a->base[2];                             \
        switch (r * NF + f) {                                                                               \
        case R_GEMM * NF + F_GROUP:                                                                          \
            blas_##P##gemm_batch(a->ng, a->gs, a->layout, IVP(K_TRANS), IVP(K_TRANSB), IVP(K_M), IVP(K_N),   \
                                 IVP(K_K), al, cA, IVP(K_LDA), cB, IVP(K_LDB), be, mC, IVP(K_LDC), a->info); \
            break;                                                                                          \
        case R_GEMM * NF + F_FIXED:                                                                          \
            blas_##P##gemm_batchf(a->count, a->layout, IV0(K_TRANS), IV0(K_TRANSB), IV0(K_M), IV0(K_N),      \
                                  IV0(K_K), al[0], cA, IV0(K_LDA), cB, IV0(K_LDB), be[0], mC, IV0(K_LDC),    \
                                  a->info);                                                                 \
            break;                                                                                          \
        case R_GEMM * NF + F_VAR:                                                                            \
            blas_##P##gemm_batchv(a->count, a->layout, IVP(K_TRANS), IVP(K_TRANSB), IVP(K_M), IVP(K_N),      \
                                  IVP(K_K), al, cA, IVP(K_LDA), cB, IVP(K_LDB), be, mC, IVP(K_LDC), a->info); \
            break;                                                                                          \
        case R_GEMM * NF + F_STRIDED:                                                                        \
            blas_##P##gemm_batch_strided(a->layout, IV0(K_TRANS), IV0(K_TRANSB), IV0(K_M), IV0(K_N),         \
                                         IV0(K_K), al[0], sA, IV0(K_LDA), a->st[0], sB, IV0(K_LDB),         \
                                         a->st[1], be[0], sC, IV0(K_LDC), a->st[2], a->count, a->info);     \
            break;                                                                                          \
        case R_TRSM * NF + F_GROUP:                                                                          \
            blas_##P##trsm_batch(a->ng, a->gs, a->layout, IVP(K_SIDE), IVP(K_UPLO), IVP(K_TRANS),           \
                                 IVP(K_DIAG), IVP(K_M), IVP(K_N), al, cA, IVP(K_LDA), mB, IVP(K_LDB),       \
                                 a->info);                                                                  \
            break;                                                                                          \
        case R_TRSM * NF + F_FIXED:                                                                          \
            blas_##P##trsm_batchf(a->count, a->layout, IV0(K_SIDE), IV0(K_UPLO), IV0(K_TRANS), IV0(K_DIAG), \
                                  IV0(K_M), IV0(K_N), al[0], cA, IV0(K_LDA), mB, IV0(K_LDB), a->info);      \
            break;                                                                                          \
        case R_TRSM * NF + F_VAR:                                                                            \
            blas_##P##trsm_batchv(a->count, a->layout, IVP(K_SIDE), IVP(K_UPLO), IVP(K_TRANS), IVP(K_DIAG), \
                                  IVP(K_M), IVP(K_N), al, cA, IVP(K_LDA), mB, IVP(K_LDB), a->info);         \
            break;                                                                                          \
        case R_TRSM * NF + F_STRIDED:                                                                        \
            blas_##P##trsm_batch_strided(a->layout, IV0(K_SIDE), IV0(K_UPLO), IV0(K_TRANS), IV0(K_DIAG),    \
                                         IV0(K_M), IV0(K_N), al[0], sA, IV0(K_LDA), a->st[0], sB,           \
                                         IV0(K_LDB), a->st[1], a->count, a->info);                          \
            break;                                                                                          \
        case R_SYRK * NF + F_GROUP:                                                                          \
            blas_##P##syrk_batch(a->ng, a->gs, a->layout, IVP(K_UPLO), IVP(K_TRANS), IVP(K_N), IVP(K_K), al, \
                                 cA, IVP(K_LDA), be, mC, IVP(K_LDC), a->info);                              \
            break;                                                                                          \
        case R_SYRK * NF + F_FIXED:                                                                          \
            blas_##P##syrk_batchf(a->count, a->layout, IV0(K_UPLO), IV0(K_TRANS), IV0(K_N), IV0(K_K), al[0], \
                                  cA, IV0(K_LDA), be[0], mC, IV0(K_LDC), a->info);                          \
            break;                                                                                          \
        case R_SYRK * NF + F_VAR:                                                                            \
            blas_##P##syrk_batchv(a->count, a->layout, IVP(K_UPLO), IVP(K_TRANS), IVP(K_N), IVP(K_K), al,   \
                                  cA, IVP(K_LDA), be, mC, IVP(K_LDC), a->info);                             \
            break;                                                                                          \
        case R_SYRK * NF + F_STRIDED:                                                                        \
            blas_##P##syrk_batch_strided(a->layout, IV0(K_UPLO), IV0(K_TRANS), IV0(K_N), IV0(K_K), al[0],   \
                                         sA, IV0(K_LDA), a->st[0], be[0], sC, IV0(K_LDC), a->st[2],         \
                                         a->count, a->info);                                                \
            break;                                                                                          \
        case R_POTRF * NF + F_GROUP:                                                                         \
            lapack_##P##potrf_batch(a->ng, a->gs, a->layout, IVP(K_UPLO), IVP(K_N), mA, IVP(K_LDA), a->info); \
            break;                                                                                          \
        case R_POTRF * NF + F_FIXED:                                                                         \
            lapack_##P##potrf_batchf(a->count, a->layout, IV0(K_UPLO), IV0(K_N), mA, IV0(K_LDA), a->info);  \
            break;                                                                                          \
        case R_POTRF * NF + F_VAR:                                                                           \
            lapack_##P##potrf_batchv(a->count, a->layout, IVP(K_UPLO), IVP(K_N), mA, IVP(K_LDA), a->info);  \
            break;                                                                                          \
        case R_POTRF * NF + F_STRIDED:                                                                       \
            lapack_##P##potrf_batch_strided(a->layout, IV0(K_UPLO), IV0(K_N), sA, IV0(K_LDA), a->st[0],     \
                                            a->count, a->info);                                             \
            break;                                                                                          \
        case R_POSV * NF + F_GROUP:                                                                          \
            lapack_##P##posv_batch(a->ng, a->gs, a->layout, IVP(K_UPLO), IVP(K_N), IVP(K_NRHS), mA,         \
                                   IVP(K_LDA), mB, IVP(K_LDB), a->info);                                    \
            break;                                                                                          \
        case R_POSV * NF + F_FIXED:                                                                          \
            lapack_##P##posv_batchf(a->count, a->layout, IV0(K_UPLO), IV0(K_N), IV0(K_NRHS), mA, IV0(K_LDA), \
                                    mB, IV0(K_LDB), a->info);                                               \
            break;                                                                                          \
        case R_POSV * NF + F_VAR:                                                                            \
            lapack_##P##posv_batchv(a->count, a->layout, IVP(K_UPLO), IVP(K_N), IVP(K_NRHS), mA, IVP(K_LDA), \
                                    mB, IVP(K_LDB), a->info);                                               \
            break;                                                                                          \
        case R_POSV * NF + F_STRIDED:                                                                        \
            lapack_##P##posv_batch_strided(a->layout, IV0(K_UPLO), IV0(K_N), IV0(K_NRHS), sA, IV0(K_LDA),   \
                                           a->st[0], sB, IV0(K_LDB), a->st[1], a->count, a->info);          \
            break;                                                                                          \
        case R_GETRF * NF + F_GROUP:                                                                         \
            lapack_##P##getrf_batch(a->ng, a->gs, a->layout, IVP(K_M), IVP(K_N), mA, IVP(K_LDA), a->parr,   \
                                    a->info);                                                               \
            break;                                                                                          \
        case R_GETRF * NF + F_FIXED:                                                                         \
            lapack_##P##getrf_batchf(a->count, a->layout, IV0(K_M), IV0(K_N), mA, IV0(K_LDA), a->parr,      \
                                     a->info);                                                              \
            break;                                                                                          \
        case R_GETRF * NF + F_VAR:                                                                           \
            lapack_##P##getrf_batchv(a->count, a->layout, IVP(K_M), IVP(K_N), mA, IVP(K_LDA), a->parr,      \
                                     a->info);                                                              \
            break;                                                                                          \
        case R_GETRF * NF + F_STRIDED:                                                                       \
            lapack_##P##getrf_batch_strided(a->layout, IV0(K_M), IV0(K_N), sA, IV0(K_LDA), a->st[0],        \
                                            a->pbase, a->pst, a->count, a->info);                           \
            break;                                                                                          \
        case R_GESV * NF + F_GROUP:                                                                          \
            lapack_##P##gesv_batch(a->ng, a->gs, a->layout, IVP(K_N), IVP(K_NRHS), mA, IVP(K_LDA), a->parr, \
                                   mB, IVP(K_LDB), a->info);                                                \
            break;                                                                                          \
        case R_GESV * NF + F_FIXED:                                                                          \
            lapack_##P##gesv_batchf(a->count, a->layout, IV0(K_N), IV0(K_NRHS), mA, IV0(K_LDA), a->parr,    \
                                    mB, IV0(K_LDB), a->info);                                               \
            break;                                                                                          \
        case R_GESV * NF + F_VAR:                                                                            \
            lapack_##P##gesv_batchv(a->count, a->layout, IVP(K_N), IVP(K_NRHS), mA, IVP(K_LDA), a->parr,    \
                                    mB, IVP(K_LDB), a->info);                                               \
            break;                                                                                          \
        case R_GESV * NF + F_STRIDED:                                                                        \
            lapack_##P##gesv_batch_strided(a->layout, IV0(K_N), IV0(K_NRHS), sA, IV0(K_LDA), a->st[0],      \
                                           a->pbase, a->pst, sB, IV0(K_LDB), a->st[1], a->count, a->info);  \
            break;                                                                                          \
        case R_GETRI * NF + F_GROUP:                                                                         \
            lapack_##P##getri_batch(a->ng, a->gs, a->layout, IVP(K_N), mA, IVP(K_LDA),                      \
                                    (int const *const *)a->parr, a->info);                                  \
            break;                                                                                          \
        case R_GETRI * NF + F_FIXED:                                                                         \
            lapack_##P##getri_batchf(a->count, a->layout, IV0(K_N), mA, IV0(K_LDA),                         \
                                     (int const *const *)a->parr, a->info);                                 \
            break;                                                                                          \
        case R_GETRI * NF + F_VAR:                                                                           \
            lapack_##P##getri_batchv(a->count, a->layout, IVP(K_N), mA, IVP(K_LDA),                         \
                                     (int const *const *)a->parr, a->info);                                 \
            break;                                                                                          \
        case R_GETRI * NF + F_STRIDED:                                                                       \
            lapack_##P##getri_batch_strided(a->layout, IV0(K_N), sA, IV0(K_LDA), a->st[0], a->pbase,        \
                                            a->pst, a->count, a->info);                                     \
            break;                                                                                          \
        case R_LANGE * NF + F_GROUP:                                                                         \
            lapack_##P##lange_batch(a->ng, a->gs, a->layout, IVP(K_NORM), IVP(K_M), IVP(K_N), cA,           \
                                    IVP(K_LDA), (R *)a->value, a->info);                                    \
            break;                                                                                          \
        case R_LANGE * NF + F_FIXED:                                                                         \
            lapack_##P##lange_batchf(a->count, a->layout, IV0(K_NORM), IV0(K_M), IV0(K_N), cA, IV0(K_LDA),  \
                                     (R *)a->value, a->info);                                               \
            break;                                                                                          \
        case R_LANGE * NF + F_VAR:                                                                           \
            lapack_##P##lange_batchv(a->count, a->layout, IVP(K_NORM), IVP(K_M), IVP(K_N), cA, IVP(K_LDA),  \
                                     (R *)a->value, a->info);                                               \
            break;                                                                                          \
        case R_LANGE * NF + F_STRIDED:                                                                       \
            lapack_##P##lange_batch_strided(a->layout, IV0(K_NORM), IV0(K_M), IV0(K_N), sA, IV0(K_LDA),     \
                                            a->st[0], (R *)a->value, a->count, a->info);                    \
            break;                                                                                          \
        }                                                                                                   \
        (void)cB; (void)mB; (void)sB; (void)sC;                                                             \
    }
DEF_CALLS(s, float, float)
DEF_CALLS(d, double, double)
DEF_CALLS(c, bblas_complex32_t, float)
DEF_CALLS(z, bblas_complex64_t, double)

static void call(int p, int r, int f, const args_t *a)
{
    switch (p) {
    case 0: call_s(r, f, a); break;
    case 1: call_d(r, f, a); break;
    case 2: call_c(r, f, a); break;
    default: call_z(r, f, a); break;
    }
}

/* ---- the rules (doc/api.md), independent of the library ----------------- */

static int cplx(int p) { return p >= 2; }

static int opt_ok(const spec_t *s, int k, int v)
{
    switch (k) {
    case K_SIDE: return v == BblasLeft || v == BblasRight;
    case K_UPLO: return v == BblasUpper || v == BblasLower;
    case K_DIAG: return v == BblasNonUnit || v == BblasUnit;
    case K_TRANSB: return v == BblasNoTrans || v == BblasTrans || v == BblasConjTrans;
    case K_TRANS:
        if (s->r == R_SYRK && cplx(s->p)) return v == BblasNoTrans || v == BblasTrans;
        return v == BblasNoTrans || v == BblasTrans || v == BblasConjTrans;
    case K_NORM:
        return v == BblasOneNorm || v == BblasInfNorm || v == BblasMaxNorm || v == BblasFrobeniusNorm;
    }
    return 1;
}

/* Logical rows x cols of a matrix operand (o: O_A, O_B, O_C) for parameter
   set g; 0 x 0 if the routine has no such operand.  ipiv: its length. */
static void dims(const spec_t *s, int g, int o, int *rows, int *cols)
{
    const int *v[NK_INT];
    for (int k = 0; k < NK_INT; k++) v[k] = &s->iv[k][g];
    int m = *v[K_M], n = *v[K_N], k = *v[K_K], nrhs = *v[K_NRHS];
    int nt = *v[K_TRANS] == BblasNoTrans, ntb = *v[K_TRANSB] == BblasNoTrans;
    int left = *v[K_SIDE] == BblasLeft;
    int r = 0, c = 0;
    switch (s->r) {
    case R_GEMM:
        if (o == O_A) { r = nt ? m : k; c = nt ? k : m; }
        if (o == O_B) { r = ntb ? k : n; c = ntb ? n : k; }
        if (o == O_C) { r = m; c = n; }
        break;
    case R_TRSM:
        if (o == O_A) r = c = left ? m : n;
        if (o == O_B) { r = m; c = n; }
        break;
    case R_SYRK:
        if (o == O_A) { r = nt ? n : k; c = nt ? k : n; }
        if (o == O_C) r = c = n;
        break;
    case R_POTRF: case R_GETRI:
        if (o == O_A) r = c = n;
        break;
    case R_POSV: case R_GESV:
        if (o == O_A) r = c = n;
        if (o == O_B) { r = n; c = nrhs; }
        break;
    case R_GETRF: case R_LANGE:
        if (o == O_A) { r = m; c = n; }
        break;
    }
    *rows = r;
    *cols = c;
}

static int piv_len(const spec_t *s, int g)
{
    int m = s->iv[K_M][g], n = s->iv[K_N][g];
    if (s->r == R_GETRF) return m < n ? m : n;
    if (s->r == R_GESV || s->r == R_GETRI) return n;
    return 0;
}

static int writes(int r, int o) /* o: O_A..O_C, or NMAT for ipiv */
{
    switch (r) {
    case R_GEMM: case R_SYRK: return o == O_C;
    case R_TRSM: return o == O_B;
    case R_POTRF: case R_GETRI: return o == O_A;
    case R_POSV: return o == O_A || o == O_B;
    case R_GETRF: return o == O_A || o == NMAT;
    case R_GESV: return o == O_A || o == O_B || o == NMAT;
    }
    return 0;
}

static int kind_mat(int k) { return k == K_A ? O_A : k == K_B ? O_B : O_C; }
static int max1(int v) { return v > 1 ? v : 1; }

/* Storage: "inner" (contiguous) and "outer" extents of an r x c matrix. */
static void storage(int layout, int r, int c, int *inner, int *outer)
{
    *inner = layout == BblasRowMajor ? c : r;
    *outer = layout == BblasRowMajor ? r : c;
}

/* The expected argument code of problem i (parameter set g): minus the
   position of the first bad argument in signature order, 0 if none. */
static int problem_code(const spec_t *s, int g, int i)
{
    int sg[32], n = full_sig(s->r, s->f, sg);
    for (int j = 0; j < n; j++) {
        int k = sg[j], bad = 0;
        if (k < 0) continue;
        if (k <= K_NORM) bad = !opt_ok(s, k, s->iv[k][g]);
        else if (k <= K_NRHS) bad = s->iv[k][g] < 0;
        else if (k <= K_LDC) {
            int r, c, in, out;
            dims(s, g, k - K_LDA, &r, &c);
            storage(s->layout, r, c, &in, &out);
            bad = s->iv[k][g] < max1(in);
        } else if (k == K_A || k == K_B || k == K_C) {
            int r, c;
            dims(s, g, kind_mat(k), &r, &c);
            bad = r > 0 && c > 0 && s->nullp[s->f == F_STRIDED ? 0 : i][kind_mat(k)];
        } else if (k == K_IPIV) {
            bad = piv_len(s, g) > 0 && s->nullp[s->f == F_STRIDED ? 0 : i][NMAT];
        } else if (k >= K_SA && k <= K_SIPIV && s->count > 1) {
            int o = k - K_SA; /* 0..2 matrices, 3 ipiv */
            int64_t st = s->st[o];
            if (o < NMAT) {
                int r, c, in, out;
                dims(s, g, o, &r, &c);
                storage(s->layout, r, c, &in, &out);
                bad = st < 0 || (writes(s->r, o) && r > 0 && c > 0 && st < (int64_t)s->iv[K_LDA + o][g] * out);
            } else {
                bad = st < 0 || (writes(s->r, NMAT) && piv_len(s, g) > 0 && st < piv_len(s, g));
            }
        }
        if (bad) return -(j + 1);
    }
    return 0;
}

/* ---- the case ------------------------------------------------------------ */

/* On the CUDA backend (BATCHBLAS_BACKEND=cuda) a valid problem computed in
   a batch may differ in its last bits from the same problem alone: the
   vendor GEMM picks its kernel by the batch's shape and count.  There the
   user region of a matrix operand is compared element by element, equal
   bits or both finite and close (relative 1e-9 double, 1e-3 single: far
   below what a stray write or a skipped problem would show); the guards,
   the pivots and the codes stay bitwise. */
static int gpu_rounding(void)
{
    static int v = -1;
    if (v < 0) {
        const char *e = getenv("BATCHBLAS_BACKEND");
        v = e && !strcmp(e, "cuda");
    }
    return v;
}

static int near_equal(const void *xv, const void *yv, size_t bytes, int p)
{
    const unsigned char *x = xv, *y = yv;
    if (!gpu_rounding() || memcmp(x, y, GUARD) || memcmp(x + GUARD + bytes, y + GUARD + bytes, GUARD)) return 0;
    const int single = p == 0 || p == 2; /* s, c */
    const size_t es = single ? sizeof(float) : sizeof(double);
    /* the factorisations and inverses amplify a rounding difference by the
       condition number of the member (random members: up to ~10^4) */
    const double tol = single ? 1e-3 : 1e-9;
    for (size_t at = GUARD; at + es <= GUARD + bytes; at += es) {
        if (!memcmp(x + at, y + at, es)) continue;
        double a, b;
        if (single) {
            float fa, fb;
            memcpy(&fa, x + at, es);
            memcpy(&fb, y + at, es);
            a = fa, b = fb;
        } else {
            memcpy(&a, x + at, es);
            memcpy(&b, y + at, es);
        }
        const double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
        if (!isfinite(a) || !isfinite(b) || fabs(a - b) > tol * (m > 1 ? m : 1)) return 0;
    }
    return 1;
}

static long ncases, nprob, nargbad, nbatchbad, nvalid;

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        printf("fuzz_args: FAIL seed %llu case %ld (BB_FUZZ_SEED=%llu BB_FUZZ_CASE=%ld): ",         \
               (unsigned long long)seed, cs, (unsigned long long)seed, cs);                        \
        printf(__VA_ARGS__);                                                                       \
        printf("\n");                                                                              \
        describe(&S);                                                                              \
        return 1;                                                                                  \
    } while (0)

static void describe(const spec_t *s)
{
    printf("  %c%s%s layout %d mode %d count %d groups %d\n", pname[s->p], rname[s->r], fname[s->f], s->layout,
           s->mode, s->count, s->ng);
    int nset = s->f == F_GROUP ? s->ng : s->f == F_VAR ? (s->count > 0 ? s->count : 0) : 1;
    for (int g = 0; g < nset && g < MAXP; g++) {
        printf("  set %d:", g);
        if (s->f == F_GROUP) printf(" size %d", s->gs[g]);
        static const char *kn[NK_INT] = {"side", "uplo", "trans", "transb", "diag", "norm", "m", "n", "k", "nrhs",
                                         "lda", "ldb", "ldc"};
        for (int k = 0; k < NK_INT; k++)
            if (has_kind(s->r, k)) printf(" %s %d", kn[k], s->iv[k][g]);
        printf("\n");
    }
    if (s->f == F_STRIDED)
        printf("  strides %lld %lld %lld ipiv %lld, null base %d %d %d %d\n", (long long)s->st[0],
               (long long)s->st[1], (long long)s->st[2], (long long)s->st[3], s->nullp[0][0], s->nullp[0][1],
               s->nullp[0][2], s->nullp[0][3]);
    else
        for (int i = 0; i < s->count && i < MAXP; i++)
            printf("  problem %d null %d %d %d %d\n", i, s->nullp[i][0], s->nullp[i][1], s->nullp[i][2],
                   s->nullp[i][3]);
}

static const int opt_vals[][4] = {
    [K_SIDE] = {BblasLeft, BblasRight, BblasLeft, BblasRight},
    [K_UPLO] = {BblasUpper, BblasLower, BblasUpper, BblasLower},
    [K_TRANS] = {BblasNoTrans, BblasTrans, BblasConjTrans, BblasNoTrans},
    [K_TRANSB] = {BblasNoTrans, BblasTrans, BblasConjTrans, BblasNoTrans},
    [K_DIAG] = {BblasNonUnit, BblasUnit, BblasNonUnit, BblasUnit},
    [K_NORM] = {BblasOneNorm, BblasInfNorm, BblasMaxNorm, BblasFrobeniusNorm},
};

static int bad_option(void)
{
    static const int v[] = {0, -1, 1, 100, 110, 114, 120, 124, 130, 133, 140, 143, 170, 172, 176, 178, 101, 102};
    return v[irand(0, (int)(sizeof v / sizeof v[0]) - 1)];
}

static int rand_size(void)
{
    int u = irand(0, 99);
    if (u < 10) return 0;
    if (u < 80) return irand(1, 8);
    if (u < 96) return irand(9, 24);
    return irand(25, 40);
}

/* Random parameter set g (valid, then broken with probability pb each). */
static void make_set(spec_t *s, int g, double pb)
{
    for (int k = 0; k < NK_INT; k++) s->iv[k][g] = 0;
    for (int k = K_SIDE; k <= K_NORM; k++) {
        s->iv[k][g] = opt_vals[k][irand(0, 3)];
        if (k == K_TRANS && s->r == R_SYRK && cplx(s->p) && s->iv[k][g] == BblasConjTrans)
            s->iv[k][g] = BblasTrans;
        if (has_kind(s->r, k) && chance(pb)) {
            int v;
            do v = bad_option(); while (opt_ok(s, k, v));
            s->iv[k][g] = v;
        }
    }
    for (int k = K_M; k <= K_NRHS; k++) {
        s->iv[k][g] = rand_size();
        if (has_kind(s->r, k) && chance(pb)) s->iv[k][g] = -irand(1, 3);
    }
    for (int o = 0; o < NMAT; o++) {
        int r, c, in, out;
        dims(s, g, o, &r, &c);
        storage(s->layout, r, c, &in, &out);
        int need = max1(in);
        int ld = need + (chance(0.5) ? 0 : irand(1, 3));
        if (has_kind(s->r, K_LDA + o) && chance(pb)) ld = need > 1 && chance(0.7) ? irand(0, need - 1) : -irand(0, 2);
        s->iv[K_LDA + o][g] = ld;
    }
    /* alpha, beta: T (gemm, trsm, syrk) */
    double ar = urand(), ai = urand(), br = urand(), bi = urand();
    if (chance(0.2)) { ar = 1; ai = 0; }
    if (chance(0.1)) { ar = 0; ai = 0; }
    if (chance(0.3)) { br = 0; bi = 0; }
    else if (chance(0.2)) { br = 1; bi = 0; }
    memset(s->alpha[g], 0, 16);
    memset(s->beta[g], 0, 16);
    put((char *)s->alpha[g], 0, s->p, ar, ai);
    put((char *)s->beta[g], 0, s->p, br, bi);
    if (s->r == R_GEMM && br == 0 && bi == 0) s->gemm_nan_c = 1;
}

static int set_of(const spec_t *s, int i)
{
    if (s->f == F_VAR) return i;
    if (s->f != F_GROUP) return 0;
    int acc = 0;
    for (int g = 0; g < s->ng; g++) {
        acc += s->gs[g] > 0 ? s->gs[g] : 0;
        if (i < acc) return g;
    }
    return 0;
}

/* Fills the logical r x c matrix of operand o of problem-data at buf (ld,
   layout) with data suited to the routine. */
static void fill_matrix(const spec_t *s, int o, char *buf, int r, int c, int ld, int nanc)
{
    int p = s->p;
    int spd = (s->r == R_POTRF || s->r == R_POSV) && o == O_A;
    int diag = ((s->r == R_GETRF || s->r == R_GESV || s->r == R_GETRI || s->r == R_TRSM) && o == O_A);
    int breakc = (spd || diag) && r > 0 && c > 0 && chance(0.1) ? irand(0, (r < c ? r : c) - 1) : -1;
    for (int j = 0; j < c; j++)
        for (int i = 0; i < r; i++) {
            double re = urand(), im = cplx(p) ? urand() : 0;
            if (spd) {
                re *= 0.5; im *= 0.5;
                if (i == j) { re = r + 1; im = 0; }
            } else if (diag && i == j) {
                re = (re < 0 ? -2 : 2) + re;
            }
            if (nanc) re = im = NAN;
            int64_t at = s->layout == BblasRowMajor ? (int64_t)i * ld + j : (int64_t)j * ld + i;
            put(buf, at, p, re, im);
        }
    if (spd) /* Hermitian: mirror the lower triangle */
        for (int j = 0; j < c && j < r; j++)
            for (int i = j + 1; i < r && i < c; i++) {
                int64_t lo = s->layout == BblasRowMajor ? (int64_t)i * ld + j : (int64_t)j * ld + i;
                int64_t up = s->layout == BblasRowMajor ? (int64_t)j * ld + i : (int64_t)i * ld + j;
                memcpy(buf + up * esz[p], buf + lo * esz[p], esz[p]);
                if (cplx(p)) { /* conjugate: negate the imaginary part */
                    if (p == 2) { float v; memcpy(&v, buf + up * 8 + 4, 4); v = -v; memcpy(buf + up * 8 + 4, &v, 4); }
                    else { double v; memcpy(&v, buf + up * 16 + 8, 8); v = -v; memcpy(buf + up * 16 + 8, &v, 8); }
                }
            }
    if (breakc >= 0) {
        if (spd) {
            int64_t at = (int64_t)breakc * ld + breakc;
            put(buf, at, p, -1, 0);
        } else if (s->r != R_TRSM) {
            for (int i = 0; i < r; i++) {
                int64_t at = s->layout == BblasRowMajor ? (int64_t)i * ld + breakc : (int64_t)breakc * ld + i;
                put(buf, at, p, 0, 0);
            }
        }
    }
}

/* Bytes a matrix operand spans: ld * (outer - 1) + inner elements. */
static size_t span(int p, int layout, int r, int c, int ld)
{
    if (r <= 0 || c <= 0) return 0;
    int in, out;
    storage(layout, r, c, &in, &out);
    int64_t l = ld > 0 ? ld : 1;
    return (size_t)(l * (out - 1) + in) * esz[p];
}

/* Copies the logical region of an r x c matrix from src to dst (same
   ld/layout). */
static void copy_region(int p, int layout, char *dst, const char *src, int r, int c, int ld)
{
    if (r <= 0 || c <= 0) return;
    int in, out;
    storage(layout, r, c, &in, &out);
    for (int j = 0; j < out; j++)
        memcpy(dst + (size_t)j * ld * esz[p], src + (size_t)j * ld * esz[p], (size_t)in * esz[p]);
}

static uint64_t seed;

/* Buffers of a call: per problem (pointer forms) or one per operand
   (strided); index [o][i], o = O_A..O_C, NMAT = ipiv. */
typedef struct {
    gbuf m[NMAT + 1][MAXP]; /* pointer forms */
    gbuf sb[NMAT + 1];      /* strided */
    gbuf value, info;
    void *arr[NMAT][MAXP];
    int *parr[MAXP];
} bufs_t;

static void bufs_free(bufs_t *b)
{
    for (int o = 0; o <= NMAT; o++) {
        for (int i = 0; i < MAXP; i++) gb_free(&b->m[o][i]);
        gb_free(&b->sb[o]);
    }
    gb_free(&b->value);
    gb_free(&b->info);
}

static int has_mat(int r, int o) { return has_kind(r, K_A + o); }

static void random_pivots(int *ip, int n)
{
    for (int j = 0; j < n; j++) ip[j] = irand(j + 1, n);
}

/* Allocates and fills the buffers of problems [0, cnt) for spec s. */
static void make_bufs(const spec_t *s, bufs_t *b)
{
    memset(b, 0, sizeof *b);
    int p = s->p, cnt = s->count > 0 ? s->count : 0;
    if (s->f != F_STRIDED) {
        for (int i = 0; i < cnt; i++) {
            int g = set_of(s, i);
            for (int o = 0; o < NMAT; o++) {
                if (!has_mat(s->r, o)) continue;
                int r, c, ld = s->iv[K_LDA + o][g];
                dims(s, g, o, &r, &c);
                if (r < 0) r = 0;
                if (c < 0) c = 0;
                gb_alloc(&b->m[o][i], span(p, s->layout, r, c, ld) + esz[p]);
                if (ld > 0) fill_matrix(s, o, gb_ptr(&b->m[o][i]), r, c, ld, 0);
                b->arr[o][i] = s->nullp[i][o] ? NULL : gb_ptr(&b->m[o][i]);
            }
            if (s->r == R_GETRF || s->r == R_GESV || s->r == R_GETRI) {
                int len = piv_len(s, g);
                if (len < 0) len = 0;
                gb_alloc(&b->m[NMAT][i], (size_t)len * sizeof(int) + sizeof(int));
                if (s->r == R_GETRI) random_pivots((int *)gb_ptr(&b->m[NMAT][i]), len);
                b->parr[i] = s->nullp[i][NMAT] ? NULL : (int *)gb_ptr(&b->m[NMAT][i]);
            }
        }
    } else {
        for (int o = 0; o < NMAT; o++) {
            if (!has_mat(s->r, o)) continue;
            int r, c, ld = s->iv[K_LDA + o][0];
            dims(s, 0, o, &r, &c);
            if (r < 0) r = 0;
            if (c < 0) c = 0;
            int64_t st = s->st[o] > 0 ? s->st[o] : 0;
            size_t bytes = span(p, s->layout, r, c, ld) + (size_t)(cnt > 1 ? cnt - 1 : 0) * st * esz[p] + esz[p];
            gb_alloc(&b->sb[o], bytes);
            if (ld > 0)
                for (int i = 0; i < cnt; i++)
                    fill_matrix(s, o, gb_ptr(&b->sb[o]) + (size_t)i * st * esz[p], r, c, ld, 0);
        }
        if (s->r == R_GETRF || s->r == R_GESV || s->r == R_GETRI) {
            int len = piv_len(s, 0);
            if (len < 0) len = 0;
            int64_t st = s->st[NMAT] > 0 ? s->st[NMAT] : 0;
            gb_alloc(&b->sb[NMAT], ((size_t)len + (size_t)(cnt > 1 ? cnt - 1 : 0) * st + 1) * sizeof(int));
            if (s->r == R_GETRI)
                for (int i = 0; i < cnt; i++) random_pivots((int *)gb_ptr(&b->sb[NMAT]) + (size_t)i * st, len);
        }
    }
    if (s->r == R_GEMM && s->gemm_nan_c) { /* C must not be read where beta == 0 */
        for (int i = 0; i < cnt; i++) {
            int g = set_of(s, i);
            if (memcmp(s->beta[g], (unsigned char[16]){0}, esz[p])) continue;
            int r, c, ld = s->iv[K_LDC][g];
            dims(s, g, O_C, &r, &c);
            if (ld <= 0 || r < 0 || c < 0) continue;
            char *cb = s->f == F_STRIDED ? (s->st[O_C] >= 0 ? gb_ptr(&b->sb[O_C]) + (size_t)i * s->st[O_C] * esz[p] : NULL)
                                         : gb_ptr(&b->m[O_C][i]);
            if (cb) fill_matrix(s, O_C, cb, r, c, ld, 1);
        }
    }
    gb_alloc(&b->value, (size_t)(cnt + 1) * rsz[p]);
    int ninfo = 1 + (cnt > s->ng ? cnt : s->ng);
    gb_alloc(&b->info, (size_t)(ninfo > 0 ? ninfo : 1) * sizeof(int) + sizeof(int));
    if (!s->null_info) memcpy(gb_ptr(&b->info), &s->mode, sizeof(int));
}

static void make_args(const spec_t *s, bufs_t *b, args_t *a)
{
    memset(a, 0, sizeof *a);
    a->layout = s->layout;
    a->count = s->count;
    a->ng = s->ng;
    a->gs = s->gs;
    for (int k = 0; k < NK_INT; k++) a->iv[k] = s->iv[k];
    a->alpha = s->alpha;
    a->beta = s->beta;
    /* the parameter arrays hold T values one per set, 16 bytes apart:
       repack contiguously */
    static _Alignas(16) unsigned char al[MAXP * 16], be[MAXP * 16];
    for (int g = 0; g < MAXP; g++) {
        memcpy(al + g * esz[s->p], s->alpha[g], esz[s->p]);
        memcpy(be + g * esz[s->p], s->beta[g], esz[s->p]);
    }
    a->alpha = al;
    a->beta = be;
    for (int o = 0; o < NMAT; o++) {
        a->arr[o] = b->arr[o];
        a->base[o] = b->sb[o].mem && !s->nullp[0][o] ? gb_ptr(&b->sb[o]) : NULL;
        a->st[o] = s->st[o];
    }
    a->parr = b->parr;
    a->pbase = b->sb[NMAT].mem && !s->nullp[0][NMAT] ? (int *)gb_ptr(&b->sb[NMAT]) : NULL;
    a->pst = s->st[NMAT];
    a->value = gb_ptr(&b->value);
    a->info = s->null_info ? NULL : (int *)gb_ptr(&b->info);
}

/* Computes problem i alone (a batch of one, same form, copies of its data);
   writes its outputs into the expected buffers ex (logical regions only)
   and returns its code; -9999 if the alone call wrote outside its outputs. */
static int alone(const spec_t *s, const bufs_t *init, bufs_t *ex, int i)
{
    int p = s->p, g = set_of(s, i);
    spec_t one = *s;
    one.count = 1;
    one.ng = 1;
    one.gs[0] = 1;
    for (int k = 0; k < NK_INT; k++) one.iv[k][0] = s->iv[k][g];
    memcpy(one.alpha[0], s->alpha[g], 16);
    memcpy(one.beta[0], s->beta[g], 16);
    one.mode = BblasErrorsReportAll;
    gbuf m[NMAT + 1];
    memset(m, 0, sizeof m);
    void *arr[NMAT][1] = {{NULL}, {NULL}, {NULL}};
    int *parr[1] = {NULL};
    const char *src[NMAT + 1] = {NULL};
    for (int o = 0; o <= NMAT; o++) {
        if (o < NMAT && !has_mat(s->r, o)) continue;
        if (o == NMAT && !(s->r == R_GETRF || s->r == R_GESV || s->r == R_GETRI)) continue;
        size_t bytes;
        if (s->f != F_STRIDED) {
            src[o] = gb_ptr(&init->m[o][i]);
            bytes = init->m[o][i].bytes;
        } else if (o < NMAT) {
            int r, c;
            dims(s, g, o, &r, &c);
            src[o] = gb_ptr(&init->sb[o]) + (size_t)i * s->st[o] * esz[p];
            bytes = span(p, s->layout, r, c, s->iv[K_LDA + o][g]) + esz[p];
        } else {
            src[o] = (const char *)((const int *)gb_ptr(&init->sb[NMAT]) + (size_t)i * s->st[NMAT]);
            bytes = ((size_t)piv_len(s, g) + 1) * sizeof(int);
        }
        gb_alloc(&m[o], bytes);
        memcpy(gb_ptr(&m[o]), src[o], bytes);
        if (o < NMAT) arr[o][0] = gb_ptr(&m[o]);
        else parr[0] = (int *)gb_ptr(&m[o]);
    }
    args_t a;
    memset(&a, 0, sizeof a);
    a.layout = s->layout;
    a.count = 1;
    a.ng = 1;
    a.gs = one.gs;
    for (int k = 0; k < NK_INT; k++) a.iv[k] = one.iv[k];
    a.alpha = one.alpha[0];
    a.beta = one.beta[0];
    for (int o = 0; o < NMAT; o++) {
        a.arr[o] = arr[o];
        a.base[o] = m[o].mem ? gb_ptr(&m[o]) : NULL;
        a.st[o] = 0;
    }
    a.parr = parr;
    a.pbase = parr[0];
    a.pst = 0;
    gbuf val, inf;
    gb_alloc(&val, rsz[p]);
    gb_alloc(&inf, 2 * sizeof(int));
    int mode = BblasErrorsReportAll;
    memcpy(gb_ptr(&inf), &mode, sizeof mode);
    a.value = gb_ptr(&val);
    a.info = (int *)gb_ptr(&inf);
    call(p, s->r, s->f, &a);
    int code = a.info[1];
    int bad = a.info[0] != code;

    /* the outputs into the expected buffers; the alone buffers outside the
       logical regions must be as they were */
    for (int o = 0; o <= NMAT; o++) {
        if (!m[o].mem) continue;
        char *dst = s->f != F_STRIDED ? gb_ptr(&ex->m[o][i])
                    : o < NMAT        ? gb_ptr(&ex->sb[o]) + (size_t)i * s->st[o] * esz[p]
                                      : (char *)((int *)gb_ptr(&ex->sb[NMAT]) + (size_t)i * s->st[NMAT]);
        if (o < NMAT) {
            int r, c;
            dims(s, g, o, &r, &c);
            int ld = s->iv[K_LDA + o][g];
            /* check the alone call against its input outside the region */
            gbuf chk;
            gb_alloc(&chk, m[o].bytes);
            memcpy(gb_ptr(&chk), src[o], m[o].bytes);
            copy_region(p, s->layout, gb_ptr(&chk), gb_ptr(&m[o]), r, c, ld);
            if (memcmp(chk.mem, m[o].mem, m[o].bytes + 2 * GUARD)) bad = 1;
            gb_free(&chk);
            if (writes(s->r, o)) copy_region(p, s->layout, dst, gb_ptr(&m[o]), r, c, ld);
        } else {
            int len = piv_len(s, g);
            gbuf chk;
            gb_alloc(&chk, m[o].bytes);
            memcpy(gb_ptr(&chk), src[o], m[o].bytes);
            memcpy(gb_ptr(&chk), gb_ptr(&m[o]), (size_t)len * sizeof(int));
            if (memcmp(chk.mem, m[o].mem, m[o].bytes + 2 * GUARD)) bad = 1;
            gb_free(&chk);
            if (writes(s->r, NMAT)) memcpy(dst, gb_ptr(&m[o]), (size_t)len * sizeof(int));
        }
        gb_free(&m[o]);
    }
    if (s->r == R_LANGE) {
        memcpy(gb_ptr(&ex->value) + (size_t)i * rsz[p], gb_ptr(&val), rsz[p]);
        if (memcmp(val.mem, ex->value.mem, GUARD) ||
            memcmp(gb_ptr(&val) + rsz[p], gb_ptr(&ex->value) + ex->value.bytes, GUARD))
            bad = 1; /* guards of the one-value buffer (all sentinel) */
    }
    gb_free(&val);
    gb_free(&inf);
    return bad ? -9999 : code;
}

static int one_case(long cs)
{
    rs = seed ^ ((uint64_t)cs * 0xd1342543de82ef95ull);
    (void)next64();
    spec_t S;
    memset(&S, 0, sizeof S);
    S.r = irand(0, NR - 1);
    S.p = irand(0, 3);
    S.f = irand(0, NF - 1);
    static const double pbs[] = {0, 0, 0.03, 0.1, 0.3};
    double pb = pbs[irand(0, 4)];
    S.layout = chance(0.5) ? BblasColMajor : BblasRowMajor;
    S.mode = irand(0, 3);
    int bad_mode = chance(pb * 0.3);
    if (bad_mode) S.mode = chance(0.5) ? 4 + irand(0, 5) : -irand(1, 5);
    else if (chance(0.05)) S.null_info = 1;
    int bad_layout = chance(pb * 0.2);
    if (S.f == F_GROUP) {
        S.ng = irand(0, MAXG - 1);
        if (chance(0.1)) S.ng = 0;
        int left = MAXP;
        for (int g = 0; g < S.ng; g++) {
            S.gs[g] = irand(0, left < 4 ? left : 4);
            left -= S.gs[g];
            S.count += S.gs[g];
        }
        if (S.ng > 0 && chance(pb * 0.15)) S.gs[irand(0, S.ng - 1)] = -irand(1, 2);
        if (chance(pb * 0.1)) S.ng = -irand(1, 2);
    } else {
        S.count = irand(0, 6);
        if (chance(0.05)) S.count = 0;
        if (chance(pb * 0.1)) S.count = -irand(1, 2);
        S.ng = S.f == F_VAR ? S.count : 1;
    }
    if (bad_layout) S.layout = chance(0.5) ? 0 : 103;
    int nsets = S.f == F_GROUP ? (S.ng > 0 ? S.ng : 0) : S.f == F_VAR ? (S.count > 0 ? S.count : 0) : 1;
    int layout_for_sets = S.layout;
    if (bad_layout) S.layout = BblasColMajor; /* sizes chosen as if column-major */
    for (int g = 0; g < nsets; g++) make_set(&S, g, pb);
    S.layout = layout_for_sets;
    int cnt = S.count > 0 ? S.count : 0;
    for (int i = 0; i < MAXP; i++)
        for (int o = 0; o <= NMAT; o++) S.nullp[i][o] = chance(pb * 0.3);
    if (S.f == F_STRIDED) {
        for (int o = 0; o <= NMAT; o++) {
            int64_t foot;
            if (o < NMAT) {
                int r, c, in, out;
                dims(&S, 0, o, &r, &c);
                storage(S.layout == BblasRowMajor ? BblasRowMajor : BblasColMajor, r, c, &in, &out);
                foot = (int64_t)(S.iv[K_LDA + o][0] > 0 ? S.iv[K_LDA + o][0] : 1) * (out > 0 ? out : 0);
            } else {
                foot = piv_len(&S, 0) > 0 ? piv_len(&S, 0) : 0;
            }
            int64_t st = foot + (chance(0.5) ? 0 : irand(1, 5));
            if (!writes(S.r, o) && chance(0.2)) st = chance(0.5) ? 0 : irand(0, (int)(foot > 0 ? foot : 0));
            if (chance(pb * 0.5)) st = foot > 0 && chance(0.6) ? irand(0, (int)foot - 1) : -irand(1, 4);
            S.st[o] = st;
        }
    }
    bufs_t B, Ini, Ex; /* the call's buffers, the initial copy, the expected result */
    make_bufs(&S, &B);
    memset(&Ini, 0, sizeof Ini);
    for (int o = 0; o <= NMAT; o++) {
        for (int i = 0; i < MAXP; i++)
            if (B.m[o][i].mem) gb_copy(&Ini.m[o][i], &B.m[o][i]);
        if (B.sb[o].mem) gb_copy(&Ini.sb[o], &B.sb[o]);
    }
    gb_copy(&Ini.value, &B.value);
    gb_copy(&Ini.info, &B.info);
    Ex = Ini; /* shares nothing yet: deep copies below */
    for (int o = 0; o <= NMAT; o++) {
        for (int i = 0; i < MAXP; i++)
            if (Ini.m[o][i].mem) gb_copy(&Ex.m[o][i], &Ini.m[o][i]);
        if (Ini.sb[o].mem) gb_copy(&Ex.sb[o], &Ini.sb[o]);
    }
    gb_copy(&Ex.value, &Ini.value);
    gb_copy(&Ex.info, &Ini.info);

    /* expected codes */
    int mode = S.null_info ? BblasErrorsReportNone : S.mode;
    int batch = 0; /* batch-level code */
    int code[MAXP] = {0};
    int valid_mode = S.null_info || (S.mode >= BblasErrorsReportAll && S.mode <= BblasErrorsReportNone);
    if (!valid_mode) {
        batch = -pos_of(S.r, S.f, X_INFO);
        mode = BblasErrorsReportAny;
    } else if (S.ng < 0 || (S.f != F_GROUP && S.f != F_STRIDED && S.count < 0)) {
        batch = -pos_of(S.r, S.f, X_COUNT);
    }
    if (!batch && S.f == F_GROUP)
        for (int g = 0; g < S.ng; g++)
            if (S.gs[g] < 0) batch = -pos_of(S.r, S.f, X_GSIZES);
    if (!batch && S.layout != BblasColMajor && S.layout != BblasRowMajor) batch = -pos_of(S.r, S.f, X_LAYOUT);
    if (!batch && S.f == F_STRIDED && S.count < 0) {
        int c0 = problem_code(&S, 0, 0); /* no stride checks: count < 2 */
        int cp = -pos_of(S.r, S.f, X_COUNT);
        batch = c0 && c0 > cp ? c0 : cp;
    }
    int total = 0;
    for (int i = 0; i < cnt; i++) {
        if (batch) break;
        int g = set_of(&S, i);
        code[i] = problem_code(&S, g, i);
        if (code[i]) nargbad++;
        else {
            int c = alone(&S, &Ini, &Ex, i);
            if (c == -9999) FAIL("problem %d computed alone wrote outside its outputs (or info[0] != info[1])", i);
            code[i] = c;
            nvalid++;
        }
        total++;
    }
    nprob += total;
    if (batch) nbatchbad++;

    /* the call */
    args_t a;
    make_args(&S, &B, &a);
    call(S.p, S.r, S.f, &a);

    /* info */
    int *inf = (int *)gb_ptr(&Ex.info);
    if (!S.null_info) {
        if (batch) {
            if (mode != BblasErrorsReportNone) inf[0] = batch;
        } else if (mode != BblasErrorsReportNone) {
            int first = 0;
            for (int i = 0; i < cnt && !first; i++) first = code[i];
            inf[0] = first;
            if (mode == BblasErrorsReportAll)
                for (int i = 0; i < cnt; i++) inf[1 + i] = code[i];
            if (mode == BblasErrorsReportGroup) {
                int ng = S.ng;
                for (int g = 0; g < ng; g++) {
                    int gc = 0;
                    for (int i = 0; i < cnt && !gc; i++)
                        if (set_of(&S, i) == g) gc = code[i];
                    inf[1 + g] = gc;
                }
            }
        }
    }
    if (!S.null_info && memcmp(B.info.mem, Ex.info.mem, B.info.bytes + 2 * GUARD)) {
        int *got = (int *)gb_ptr(&B.info);
        int n = (int)(B.info.bytes / sizeof(int));
        char msg[1024];
        int l = snprintf(msg, sizeof msg, "info differs (entry: got / expected):");
        for (int j = 0; j < n && l < 900; j++) l += snprintf(msg + l, sizeof msg - l, " [%d] %d/%d", j, got[j], inf[j]);
        FAIL("%s%s", msg, memcmp(B.info.mem, Ex.info.mem, GUARD) ? " (guard before written)" : "");
    }

    /* outputs, guards, skipped problems, read-only operands */
    for (int o = 0; o <= NMAT; o++) {
        for (int i = 0; i < MAXP; i++)
            if (B.m[o][i].mem && memcmp(B.m[o][i].mem, Ex.m[o][i].mem, B.m[o][i].bytes + 2 * GUARD) &&
                (o == NMAT || !near_equal(B.m[o][i].mem, Ex.m[o][i].mem, B.m[o][i].bytes, S.p)))
                FAIL("operand %d of problem %d (code %d) differs from the expected contents", o, i, code[i]);
        if (B.sb[o].mem && memcmp(B.sb[o].mem, Ex.sb[o].mem, B.sb[o].bytes + 2 * GUARD) &&
            (o == NMAT || !near_equal(B.sb[o].mem, Ex.sb[o].mem, B.sb[o].bytes, S.p))) {
            size_t at = 0;
            while (at < B.sb[o].bytes + 2 * GUARD && B.sb[o].mem[at] == Ex.sb[o].mem[at]) at++;
            FAIL("strided operand %d differs from the expected contents at byte %zd of the user region", o,
                 (ssize_t)at - GUARD);
        }
    }
    if (memcmp(B.value.mem, Ex.value.mem, B.value.bytes + 2 * GUARD)) FAIL("lange values differ");
    if (S.r == R_GEMM && S.gemm_nan_c && !batch)
        for (int i = 0; i < cnt; i++) {
            int g = set_of(&S, i);
            if (code[i] || memcmp(S.beta[g], (unsigned char[16]){0}, esz[S.p])) continue;
            int r, c, ld = S.iv[K_LDC][g], in, out;
            dims(&S, g, O_C, &r, &c);
            storage(S.layout, r, c, &in, &out);
            const char *cb = S.f == F_STRIDED ? gb_ptr(&B.sb[O_C]) + (size_t)i * S.st[O_C] * esz[S.p] : gb_ptr(&B.m[O_C][i]);
            for (int j = 0; j < out; j++)
                for (int e = 0; e < in; e++)
                    if (elem_nan(cb, (int64_t)j * ld + e, S.p))
                        FAIL("gemm problem %d, beta = 0: NaN of C was read", i);
        }
    bufs_free(&B);
    bufs_free(&Ini);
    bufs_free(&Ex);
    ncases++;
    return 0;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(void)
{
    const char *e = getenv("BB_FUZZ_SEED");
    seed = e && *e ? strtoull(e, NULL, 0) : (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32);
    e = getenv("BB_FUZZ_SECONDS");
    double secs = e && *e ? atof(e) : 20;
    e = getenv("BB_FUZZ_CASE");
    if (e && *e) {
        long cs = atol(e);
        int rc = one_case(cs);
        printf("fuzz_args: seed %llu case %ld: %s\n", (unsigned long long)seed, cs, rc ? "FAILED" : "ok");
        return rc;
    }
    double t0 = now(), t;
    long cs = 0;
    do {
        for (int j = 0; j < 64; j++, cs++)
            if (one_case(cs)) return 1;
        t = now() - t0;
    } while (t < secs);
    printf("fuzz_args: seed %llu, %ld cases in %.1f s (%.0f/s), %ld problems: %ld valid (each vs alone, bitwise), "
           "%ld with argument errors, %ld batch-level errors; 0 failures\n",
           (unsigned long long)seed, ncases, t, ncases / t, nprob, nvalid, nargbad, nbatchbad);
    return 0;
}
