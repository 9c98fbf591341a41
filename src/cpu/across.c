/*
 * The kernels across problems: which routines and sizes take them (the
 * bounds of cpu_policy.h), and which variant runs them.  The kernels
 * themselves are across_kernels.h (its comment says how they work),
 * compiled once per instruction set: across_avx512.c (64-byte vectors),
 * across_avx2.c (32 bytes, with FMA), across_base.c (16 bytes, every CPU).
 * The widest one the CPU runs is chosen once (bb_cpu_isa,
 * backend_cpu.c; BATCHBLAS_CPU_ISA lowers it), so that every call of the
 * process, batched or one problem, gives the same bits.
 *
 * The path of one call: backend_cpu.c's across_for -> X(cpu_across) here
 * -> the variant's runner (block_run, across_kernels.h) -> block_one: pack,
 * the routine's kernels (potrf_across, ...), unpack.  The one-problem
 * kernels (chol.c, lu.c, blas3.c, norm.c) call the X(..._across1) entries
 * below their bounds.
 */
#include <stdint.h>
#include <string.h>
#include "small.h"
#include "across.h"

typedef struct {
    bb_cpu_across (*kind)(int kind);
    int (*one)(int kind, const bb_problem *p);
} variant_t;

static const variant_t *variant(void)
{
    static const variant_t base = {X(across_kind_base), X(across_one_base)};
#if BB_CPU_X86
    static const variant_t avx2 = {X(across_kind_avx2), X(across_one_avx2)},
                           avx512 = {X(across_kind_avx512), X(across_one_avx512)};
    switch (bb_cpu_isa()) {
    case BB_CPU_ISA_AVX512: return &avx512;
    case BB_CPU_ISA_AVX2: return &avx2;
    default: break;
    }
#endif
    return &base;
}

static int one(int kind, const bb_problem *p) { return variant()->one(kind, p); }

/* The orders that potrf, trtri, lauum, syrk, trmm and lange take across
   problems: FROM(op) .. UPTO(op), in complex double its own range of
   cpu_policy.h (there the one-problem code is faster for small triangles:
   its complex arithmetic fills the vectors already, and the packing of a
   small triangle costs more than the kernel; syrk only up to 2) */
#if defined(BB_PREC_Z)
#  define FROM(op) BB_CPU_##op##_ACROSS_FROM_Z
#  define UPTO(op) BB_CPU_##op##_ACROSS_MAX_Z
#else
#  define FROM(op) 1
#  define UPTO(op) BB_CPU_##op##_ACROSS_MAX
#endif

int X(potrf_across_fits)(int n) { return n >= FROM(POTRF) && n <= UPTO(POTRF); }
int X(trtri_across_fits)(int n) { return n >= FROM(TRTRI) && n <= UPTO(TRTRI); }
int X(lauum_across_fits)(int n) { return n >= FROM(LAUUM) && n <= UPTO(LAUUM); }
int X(potri_across_fits)(int n) { return n >= 1 && n <= BB_CPU_POTRI_ACROSS_MAX; }

/* potrs and posv: every order up to potrf's bound (posv's factor from its
   own block, not from potrf_across_fits's path) */
int X(potrs_across_fits)(int n, int nrhs)
{
    return n >= 1 && n <= BB_CPU_POTRF_ACROSS_MAX && nrhs >= 1 && nrhs <= BB_CPU_POTRS_ACROSS_MAX_NRHS;
}

/* getrf (pivot) and getrfnp: square problems; getrs and gesv: n as getrf */
int X(getrf_across_fits)(int m, int n, int pivot)
{
    return m == n && n >= 1 && n <= (pivot ? BB_CPU_GETRF_ACROSS_MAX : BB_CPU_GETRFNP_ACROSS_MAX);
}

int X(getrs_across_fits)(int n, int nrhs)
{
    return X(getrf_across_fits)(n, n, 1) && nrhs >= 1 && nrhs <= BB_CPU_GETRS_ACROSS_MAX_NRHS;
}

int X(posv_across1)(const bb_problem *p) { return one(K_POSV, p); }

int X(potrf_across1)(int uplo, int n, T *a, int64_t lda)
{
    bb_problem p;
    memset(&p, 0, sizeof p);
    p.uplo = uplo;
    p.n = n;
    p.a = a;
    p.lda = lda;
    return one(K_POTRF, &p);
}

void X(potrs_across1)(int uplo, int n, int nrhs, const T *a, int64_t lda, T *b, int64_t ldb, int right)
{
    bb_problem p;
    memset(&p, 0, sizeof p);
    p.uplo = uplo;
    p.n = n;
    p.nrhs = nrhs;
    p.a = (T *)a;
    p.lda = lda;
    p.b = b;
    p.ldb = ldb;
    p.rhs_right = right;
    one(K_POTRS, &p);
}

void X(trsm_across1)(const bb_problem *p) { one(K_TRSM, p); }

int X(getrf_across1)(int n, T *a, int64_t lda, int *ipiv)
{
    bb_problem p;
    memset(&p, 0, sizeof p);
    p.m = p.n = n;
    p.a = a;
    p.lda = lda;
    p.ipiv = ipiv;
    return one(K_GETRF, &p);
}

int X(getrfnp_across1)(int n, T *a, int64_t lda)
{
    bb_problem p;
    memset(&p, 0, sizeof p);
    p.m = p.n = n;
    p.a = a;
    p.lda = lda;
    return one(K_GETRFNP, &p);
}

void X(getrs_across1)(int trans, int n, int nrhs, const T *a, int64_t lda, const int *ipiv, T *b, int64_t ldb)
{
    bb_problem p;
    memset(&p, 0, sizeof p);
    p.trans = trans;
    p.n = n;
    p.nrhs = nrhs;
    p.a = (T *)a;
    p.lda = lda;
    p.ipiv = (int *)ipiv;
    p.b = b;
    p.ldb = ldb;
    one(K_GETRS, &p);
}

int X(trsm_across_fits)(const bb_problem *p)
{
    return p->m >= 1 && p->m <= BB_CPU_TRSM_ACROSS_MAX && p->n >= 1 && p->n <= BB_CPU_TRSM_ACROSS_MAX &&
           (p->alpha[0] != 0 || p->alpha[1] != 0);
}

void X(syrk_across1)(const bb_problem *p) { one(K_SYRK, p); }

int X(syrk_across_fits)(const bb_problem *p)
{
    return p->n >= FROM(SYRK) && p->n <= UPTO(SYRK) && p->k >= 1 && p->k <= UPTO(SYRK) &&
           (p->alpha[0] != 0 || p->alpha[1] != 0);
}

void X(trmm_across1)(const bb_problem *p) { one(K_TRMM, p); }

int X(trmm_across_fits)(const bb_problem *p)
{
    return p->m >= 1 && p->m <= UPTO(TRMM) && p->n >= 1 && p->n <= UPTO(TRMM) &&
           (p->m >= FROM(TRMM) || p->n >= FROM(TRMM)) && (p->alpha[0] != 0 || p->alpha[1] != 0);
}

int X(geinv_across1)(int n, const T *a, int64_t lda, T *b, int64_t ldb)
{
    bb_problem p;
    memset(&p, 0, sizeof p);
    p.m = p.n = n;
    p.a = (T *)a;
    p.lda = lda;
    p.b = b;
    p.ldb = ldb;
    return one(K_GEINV, &p);
}

int X(geinv_across_fits)(int n) { return n >= 1 && n <= BB_CPU_GEINV_ACROSS_MAX; }

int X(getri_across_fits)(int n) { return n >= 1 && n <= BB_CPU_GETRI_ACROSS_MAX; }

int X(getri_across1)(const bb_problem *p, int oop) { return one(oop ? K_GETRI_OOP : K_GETRI, p); }

int X(gecond_across_fits)(int n) { return n >= 1 && n <= BB_CPU_GECOND_ACROSS_MAX; }

int X(gecond_across1)(const bb_problem *p) { return one(K_GECOND, p); }

int X(lange_across_fits)(int m, int n)
{
    return m >= 1 && m <= UPTO(LANGE) && n >= 1 && n <= UPTO(LANGE) && (m >= FROM(LANGE) || n >= FROM(LANGE));
}

void X(lange_across1)(const bb_problem *p) { one(K_LANGE, p); }

int X(poti_across_fits)(int n) { return n >= 1 && n <= BB_CPU_POTRF_ACROSS_MAX && n <= BB_CPU_POTRI_ACROSS_MAX; }

/* trtri (kind K_TRTRI, diag), lauum, potri, poti of the column-major uplo
   triangle: the info */
static int tri_one(int kind, int uplo, int diag, int n, T *a, int64_t lda)
{
    bb_problem p;
    memset(&p, 0, sizeof p);
    p.uplo = uplo;
    p.diag = diag;
    p.n = n;
    p.a = a;
    p.lda = lda;
    return one(kind, &p);
}

int X(trtri_across1)(int uplo, int diag, int n, T *a, int64_t lda) { return tri_one(K_TRTRI, uplo, diag, n, a, lda); }
void X(lauum_across1)(int uplo, int n, T *a, int64_t lda) { tri_one(K_LAUUM, uplo, BblasNonUnit, n, a, lda); }
int X(potri_across1)(int uplo, int n, T *a, int64_t lda) { return tri_one(K_POTRI, uplo, BblasNonUnit, n, a, lda); }
int X(poti_across1)(int uplo, int n, T *a, int64_t lda) { return tri_one(K_POTI, uplo, BblasNonUnit, n, a, lda); }

bb_cpu_across X(cpu_across)(bb_op op, const bb_problem *gp)
{
    bb_cpu_across a = {NULL};
    int k = -1;
    const int n = gp->n, nrhs = gp->nrhs;
    const int chol_rhs = X(potrs_across_fits)(n, nrhs);
    const int lu_rhs = X(getrs_across_fits)(n, nrhs);
    switch (op) {
    case BB_OP_POTRF: if (X(potrf_across_fits)(n)) k = K_POTRF; break;
    case BB_OP_POTRS: if (chol_rhs) k = K_POTRS; break;
    case BB_OP_POSV: if (chol_rhs) k = K_POSV; break;
    case BB_OP_TRSM:
        if (X(trsm_across_fits)(gp)) k = K_TRSM;
        break;
    case BB_OP_SYRK: if (X(syrk_across_fits)(gp)) k = K_SYRK; break;
    case BB_OP_TRMM: if (X(trmm_across_fits)(gp)) k = K_TRMM; break;
    case BB_OP_TRTRI: if (X(trtri_across_fits)(n)) k = K_TRTRI; break;
    case BB_OP_LAUUM: if (X(lauum_across_fits)(n)) k = K_LAUUM; break;
    case BB_OP_POTRI: if (X(potri_across_fits)(n)) k = K_POTRI; break;
    case BB_OP_POTI: if (X(poti_across_fits)(n)) k = K_POTI; break;
    case BB_OP_GEINV: if (X(geinv_across_fits)(n)) k = K_GEINV; break;
    case BB_OP_GETRI: if (X(getri_across_fits)(n)) k = K_GETRI; break;
    case BB_OP_GETRI_OOP: if (X(getri_across_fits)(n)) k = K_GETRI_OOP; break;
    case BB_OP_GECOND: if (X(gecond_across_fits)(n)) k = K_GECOND; break;
    case BB_OP_LANGE: if (X(lange_across_fits)(gp->m, n)) k = K_LANGE; break;
    case BB_OP_GETRF: if (X(getrf_across_fits)(gp->m, n, 1)) k = K_GETRF; break;
    case BB_OP_GETRFNP: if (X(getrf_across_fits)(gp->m, n, 0)) k = K_GETRFNP; break;
    case BB_OP_GETRS: if (lu_rhs) k = K_GETRS; break;
    case BB_OP_GESV: if (lu_rhs) k = K_GESV; break;
    default: break;
    }
    if (k >= 0) a = variant()->kind(k);
    return a;
}
