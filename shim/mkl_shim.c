/*
 * libbatchblas_mkl: MKL's batch names as thin adapters over the BatchBLAS
 * native API.  The adapters themselves are in mkl_shim_body.h, compiled
 * once per precision; this file holds the precision-independent helpers.
 *
 * The LAPACK-style routines run the native call in report-all mode and copy
 * the per-problem codes into MKL's info[] (one entry per problem), with
 * argument positions translated from the native signature to MKL's.
 */
#include <stdint.h>
#include <stdlib.h>
#include "batchblas_mkl.h"

/* The CBLAS option arrays are passed through as bblas_enum_t arrays. */
typedef char shim_enum_is_int[(sizeof(CBLAS_TRANSPOSE) == sizeof(bblas_enum_t) &&
                               sizeof(CBLAS_SIDE) == sizeof(bblas_enum_t) &&
                               sizeof(CBLAS_UPLO) == sizeof(bblas_enum_t) &&
                               sizeof(CBLAS_DIAG) == sizeof(bblas_enum_t)) ? 1 : -1];

#define SHIM_STACK 64
#define SHIM_NOMEM (-1000) /* as BatchBLAS reports a failed allocation */

/* Native info array for a batch of count problems (count < 0: unknown). */
typedef struct {
    int *nat;             /* what the native call gets */
    int64_t count;        /* problems, -1 if the batch size is invalid */
    int stack[SHIM_STACK];
} shim_info;

static int *shim_info_begin(shim_info *s, int64_t count, MKL_INT *info)
{
    s->count = count;
    if (!info) return s->nat = NULL; /* the caller wants no codes */
    if (count < 0) { /* invalid batch: the native call reports it in info[0] */
        s->nat = s->stack;
        s->nat[0] = BblasErrorsReportAny;
        return s->nat;
    }
    s->nat = count + 1 <= SHIM_STACK ? s->stack : malloc((size_t)(count + 1) * sizeof(int));
    if (!s->nat) return NULL;
    s->nat[0] = BblasErrorsReportAll;
    for (int64_t i = 1; i <= count; i++) s->nat[i] = 0;
    return s->nat;
}

/* native code -> MKL code: map[p] is the MKL position of native argument p */
static MKL_INT shim_code(int code, const signed char *map, int nmap)
{
    if (code < 0 && -code < nmap && map[-code] > 0) return -map[-code];
    return code;
}

static void shim_info_end(shim_info *s, MKL_INT *info, const signed char *map, int nmap)
{
    if (!info || s->count < 0) return; /* no codes wanted, or info[] has no known length */
    if (!s->nat) { /* could not allocate the native info array */
        for (int64_t i = 0; i < s->count; i++) info[i] = SHIM_NOMEM;
        return;
    }
    int batch_level = s->nat[0] != 0; /* info[0] set but no problem's entry */
    for (int64_t i = 1; i <= s->count && batch_level; i++)
        if (s->nat[i] != 0) batch_level = 0;
    for (int64_t i = 0; i < s->count; i++) /* a batch-level error fails every problem */
        info[i] = shim_code(batch_level ? s->nat[0] : s->nat[1 + i], map, nmap);
    if (s->nat != s->stack) free(s->nat);
}

/* Problems of a group batch; -1 if group_count or a group size is invalid. */
static int64_t shim_group_total(MKL_INT group_count, const MKL_INT *group_size)
{
    if (group_count < 0 || (group_count > 0 && !group_size)) return -1;
    int64_t total = 0;
    for (MKL_INT g = 0; g < group_count; g++) {
        if (group_size[g] < 0) return -1;
        total += group_size[g];
    }
    return total;
}

static bblas_enum_t shim_trans(const char *t)
{
    if (!t) return 0;
    switch (*t) {
    case 'N': case 'n': return BblasNoTrans;
    case 'T': case 't': return BblasTrans;
    case 'C': case 'c': return BblasConjTrans;
    default: return 0; /* invalid: reported as argument 1 */
    }
}

/* MKL's Fortran BLAS names take options as single characters. */
static bblas_enum_t shim_side(const char *c)
{
    if (!c) return 0;
    switch (*c) {
    case 'L': case 'l': return BblasLeft;
    case 'R': case 'r': return BblasRight;
    default: return 0;
    }
}

static bblas_enum_t shim_uplo(const char *c)
{
    if (!c) return 0;
    switch (*c) {
    case 'U': case 'u': return BblasUpper;
    case 'L': case 'l': return BblasLower;
    default: return 0;
    }
}

static bblas_enum_t shim_diag(const char *c)
{
    if (!c) return 0;
    switch (*c) {
    case 'N': case 'n': return BblasNonUnit;
    case 'U': case 'u': return BblasUnit;
    default: return 0;
    }
}

/* A Fortran character array (one character per group) as a native option
   array.  Returns stack or a malloc'ed array (NULL if out of memory); a
   negative or absent count gives an empty array that the native call
   never reads past its own group_count check. */
static bblas_enum_t *shim_opts(const char *c, MKL_INT count, bblas_enum_t (*conv)(const char *),
                               bblas_enum_t *stack)
{
    if (count <= 0 || !c) return stack;
    bblas_enum_t *o = count <= SHIM_STACK ? stack : malloc((size_t)count * sizeof(bblas_enum_t));
    if (!o) return NULL;
    for (MKL_INT i = 0; i < count; i++) o[i] = conv(c + i);
    return o;
}

static void shim_opts_free(bblas_enum_t *o, const bblas_enum_t *stack)
{
    if (o != stack) free(o);
}

/* Native-position -> MKL-position maps of the LAPACK-style routines. */
/* ?getrf_batch: native (group_count, group_sizes, layout, m, n, A, lda, ipiv, info) */
static const signed char map_getrf_batch[] = {0, 6, 7, 0, 1, 2, 3, 4, 5, 8};
/* ?getri_oop_batch: native (group_count, group_sizes, layout, n, A, lda, ipiv, Ainv, ldainv, info) */
static const signed char map_getri_oop_batch[] = {0, 7, 8, 0, 1, 2, 3, 4, 5, 6, 9};
/* strided forms: the native signature is MKL's with layout in front */
static const signed char map_strided[] = {0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13};
#define NMAP(m) ((int)(sizeof(m) / sizeof((m)[0])))

#define SHIM_CALL_LAPACK(count, map, call)                                        \
    do {                                                                          \
        shim_info si_;                                                            \
        int *ni_ = shim_info_begin(&si_, (count), info);                          \
        if (ni_ || !info) call;                                                   \
        shim_info_end(&si_, info, (map), NMAP(map));                              \
    } while (0)

#define SHIM_S
#include "mkl_shim_body.h"
#undef SHIM_S
#define SHIM_D
#include "mkl_shim_body.h"
#undef SHIM_D
#define SHIM_C
#include "mkl_shim_body.h"
#undef SHIM_C
#define SHIM_Z
#include "mkl_shim_body.h"
#undef SHIM_Z
