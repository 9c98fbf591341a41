/*
 * Kernels across problems (compiled once per precision; real precisions
 * only for now): a thread takes V problems of one group at a time (one
 * 64-byte vector: 8 doubles, 16 floats), packs them interleaved into scratch (element (i, j) of lane l at
 * [(j * n + i) * V + l]), runs one kernel in which every vector lane is a
 * different problem, and unpacks.  For tiny matrices this replaces scalar
 * code on one matrix (a 4 x 4 potrf is ~100 dependent scalar operations)
 * by the same operations on V matrices at once.
 *
 * The vectors are GCC's generic vectors of V elements; each kernel is
 * compiled for AVX-512, AVX2 and the baseline ISA and chosen when the
 * library loads (target_clones), so one binary runs at the vector width of
 * the CPU it finds.
 *
 * Semantics are those of the one-problem kernels (chol.c): a problem whose
 * pinfo is nonzero on entry is not read nor written (its lane holds the
 * identity); a failing problem reports LAPACK's k and keeps LAPACK's
 * partial result (columns before k final, A(k,k) the non-positive or NaN
 * pivot, the rest untouched).  The operations of one lane do not depend on
 * the other lanes, so a problem gives the same bits in any batch, alone or
 * not (tests/test_isolation.c).
 *
 * Today: potrf, potrs, posv, n <= BB_CPU_POTRF_ACROSS_MAX and nrhs <=
 * BB_CPU_POTRS_ACROSS_MAX_NRHS (cpu_policy.h), both triangles (upper is
 * packed transposed: U = L^T, so one lower kernel serves both).
 */
#include <stdint.h>
#include <string.h>
#include "small.h"

#if !BB_COMPLEX

#if defined(BB_PREC_S)
#  define SQRT __builtin_sqrtf
#else
#  define SQRT __builtin_sqrt
#endif

/* lanes: one 64-byte vector (8 doubles, 16 floats) */
enum { V = 64 / sizeof(R) };
typedef R vec __attribute__((vector_size(64)));

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#  define CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#  define CLONES
#endif

/* Packs V problems (ap[l], or the identity where ap[l] is NULL) of an
   n x n lower triangle, element by element, the lanes of one element
   together: upper = 1 reads the upper triangle transposed. */
CLONES static void pack(R *buf, int n, R *const *ap, int64_t lda, int upper)
{
    int full = 1;
    for (int l = 0; l < V; l++) full &= ap[l] != NULL;
    for (int j = 0; j < n; j++)
        for (int i = j; i < n; i++) {
            const int64_t off = upper ? j + (int64_t)i * lda : i + (int64_t)j * lda;
            R *dst = buf + ((size_t)j * n + i) * V;
            if (full) { /* the usual block: no lane to fill in */
#ifdef _OPENMP
#pragma omp simd
#endif
                for (int l = 0; l < V; l++) dst[l] = ap[l][off];
            } else {
                for (int l = 0; l < V; l++) dst[l] = ap[l] ? ap[l][off] : (R)(i == j);
            }
        }
}

/* Unpacks columns [0, cols) of every lane l whose ap[l] is not NULL (the
   lanes of one element together). */
CLONES static void unpack(const R *buf, int n, int cols, R *const *ap, int64_t lda, int upper)
{
    int full = 1;
    for (int l = 0; l < V; l++) full &= ap[l] != NULL;
    for (int j = 0; j < cols; j++)
        for (int i = j; i < n; i++) {
            const int64_t off = upper ? j + (int64_t)i * lda : i + (int64_t)j * lda;
            const R *src = buf + ((size_t)j * n + i) * V;
            if (full) {
#ifdef _OPENMP
#pragma omp simd
#endif
                for (int l = 0; l < V; l++) ap[l][off] = src[l];
            } else {
                for (int l = 0; l < V; l++)
                    if (ap[l]) ap[l][off] = src[l];
            }
        }
}

/* A lane whose factorisation failed at column k (1-based): LAPACK's partial
   result, the columns before k and the failing pivot at A(k,k). */
static void unpack_failed(const R *buf, int n, int l, R *a, int64_t lda, int upper, int k, R pivot)
{
    R *one[V] = {NULL};
    one[l] = a;
    unpack(buf, n, k - 1, one, lda, upper);
    a[(k - 1) + (size_t)(k - 1) * lda] = pivot;
}

/* L L^T of V interleaved lower triangles in place, left-looking (column j:
   its pivot from the row j of the earlier columns, then the rest of the
   column, scaled by the pivot's reciprocal).  fail[l]: the 1-based failing
   column (0: none); piv[l]: the failing pivot.  A failed lane goes on with
   a pivot of 1 (its later columns are never unpacked). */
CLONES static void potrf_across(int n, R *buf, int *fail, R *piv)
{
    vec *A = (vec *)buf;
    const vec one = (vec){0} + 1;
    for (int l = 0; l < V; l++) fail[l] = 0;
    for (int j = 0; j < n; j++) {
        vec d = A[(size_t)j * n + j];
        for (int k = 0; k < j; k++) {
            vec x = A[(size_t)k * n + j];
            d -= x * x;
        }
        /* every lane positive (the rule; NaN is not): one vector test */
        __typeof__(d > 0) ok = d > 0;
        int all = 1;
        for (int l = 0; l < V; l++) all &= ok[l] != 0;
        if (!all) {
            for (int l = 0; l < V; l++)
                if (!ok[l] && !fail[l]) {
                    fail[l] = j + 1;
                    piv[l] = d[l];
                }
            typedef __typeof__(ok) ivec;
            d = (vec)(((ivec)d & ok) | ((ivec)one & ~ok)); /* failed lanes: 1 */
        }
        R dv[V], sv[V];
        memcpy(dv, &d, sizeof d);
#ifdef _OPENMP
#pragma omp simd
#endif
        for (int l = 0; l < V; l++) sv[l] = SQRT(dv[l]);
        vec s;
        memcpy(&s, sv, sizeof s);
        A[(size_t)j * n + j] = s;
        vec r = 1 / s;
        for (int i = j + 1; i < n; i++) {
            vec y = A[(size_t)j * n + i];
            for (int k = 0; k < j; k++) y -= A[(size_t)k * n + i] * A[(size_t)k * n + j];
            A[(size_t)j * n + i] = y * r;
        }
    }
}

/* Packs V right-hand sides (bp[l], n x nrhs, ldb; zero where bp[l] is
   NULL), element (i, c) of lane l at [(c * n + i) * V + l]; right = 1:
   stored transposed (nrhs x n: row-major input, bb_problem.rhs_right). */
static void pack_b(R *buf, int n, int nrhs, R *const *bp, int64_t ldb, int right)
{
    for (int c = 0; c < nrhs; c++)
        for (int i = 0; i < n; i++) {
            const int64_t off = right ? c + (int64_t)i * ldb : i + (int64_t)c * ldb;
            R *dst = buf + ((size_t)c * n + i) * V;
            for (int l = 0; l < V; l++) dst[l] = bp[l] ? bp[l][off] : (R)0;
        }
}

static void unpack_b(const R *buf, int n, int nrhs, R *const *bp, int64_t ldb, int right)
{
    for (int c = 0; c < nrhs; c++)
        for (int i = 0; i < n; i++) {
            const int64_t off = right ? c + (int64_t)i * ldb : i + (int64_t)c * ldb;
            const R *src = buf + ((size_t)c * n + i) * V;
            for (int l = 0; l < V; l++)
                if (bp[l]) bp[l][off] = src[l];
        }
}

/* L L^T X = B for V interleaved factors (lower, as potrf_across leaves
   them) and right-hand sides: forward, then backward substitution, one
   column of B at a time. */
CLONES static void potrs_across(int n, int nrhs, const R *lbuf, R *bbuf)
{
    const vec *L = (const vec *)lbuf;
    vec *B = (vec *)bbuf;
    vec inv[BB_CPU_POTRF_ACROSS_MAX]; /* the diagonal's reciprocals, once */
    for (int i = 0; i < n; i++) inv[i] = 1 / L[(size_t)i * n + i];
    for (int c = 0; c < nrhs; c++) {
        vec *x = B + (size_t)c * n;
        for (int i = 0; i < n; i++) { /* L y = b */
            vec y = x[i];
            for (int k = 0; k < i; k++) y -= L[(size_t)k * n + i] * x[k];
            x[i] = y * inv[i];
        }
        for (int i = n - 1; i >= 0; i--) { /* L^T x = y */
            vec y = x[i];
            for (int k = i + 1; k < n; k++) y -= L[(size_t)i * n + k] * x[k];
            x[i] = y * inv[i];
        }
    }
}

/* The block runner: V problems at a time, factor (potrf), solve (potrs)
   or both (posv); the scratch holds the triangles and the right-hand
   sides, 64-byte aligned. */
static int64_t block_run(const bb_problem *gp, const bb_views *v, int64_t i0, int64_t cnt, int *pinfo,
                         bb_work *w, int factor, int solve)
{
    const int n = gp->n, nrhs = solve ? gp->nrhs : 0, upper = gp->uplo == BblasUpper;
    R *buf = bb_work_get(w, ((size_t)n * n + (size_t)n * nrhs) * V * sizeof(R) + 64);
    if (!buf) return -1;
    buf = (R *)(((uintptr_t)buf + 63) & ~(uintptr_t)63);
    R *bbuf = buf + (size_t)n * n * V;
    int fail[V] = {0};
    R piv[V];
    for (int64_t b0 = 0; b0 < cnt; b0 += V) {
        const int m = cnt - b0 < V ? (int)(cnt - b0) : V;
        R *ap[V], *bp[V], *oka[V], *okb[V];
        for (int l = 0; l < V; l++) {
            int64_t i = i0 + b0 + l;
            int on = l < m && !pinfo[i];
            ap[l] = on ? (R *)bb_view_ptr(&v->a, i) : NULL;
            bp[l] = on && solve ? (R *)bb_view_ptr(&v->b, i) : NULL;
        }
        pack(buf, n, ap, gp->lda, upper);
        if (factor) potrf_across(n, buf, fail, piv);
        if (solve) {
            pack_b(bbuf, n, nrhs, bp, gp->ldb, gp->rhs_right);
            potrs_across(n, nrhs, buf, bbuf);
        }
        for (int l = 0; l < V; l++) { /* a failed factorisation leaves B alone */
            oka[l] = fail[l] ? NULL : ap[l];
            okb[l] = fail[l] ? NULL : bp[l];
        }
        if (factor) unpack(buf, n, n, oka, gp->lda, upper);
        if (solve) unpack_b(bbuf, n, nrhs, okb, gp->ldb, gp->rhs_right);
        for (int l = 0; l < m; l++) {
            if (!ap[l] || !fail[l]) continue;
            unpack_failed(buf, n, l, ap[l], gp->lda, upper, fail[l], piv[l]);
            pinfo[i0 + b0 + l] = fail[l];
        }
    }
    return 0;
}

static int64_t potrf_run(const bb_problem *gp, const bb_views *v, int64_t i0, int64_t cnt, int *pinfo, bb_work *w)
{
    return block_run(gp, v, i0, cnt, pinfo, w, 1, 0);
}

static int64_t potrs_run(const bb_problem *gp, const bb_views *v, int64_t i0, int64_t cnt, int *pinfo, bb_work *w)
{
    return block_run(gp, v, i0, cnt, pinfo, w, 0, 1);
}

static int64_t posv_run(const bb_problem *gp, const bb_views *v, int64_t i0, int64_t cnt, int *pinfo, bb_work *w)
{
    return block_run(gp, v, i0, cnt, pinfo, w, 1, 1);
}

/* One potrs through the same kernel (lane 0), for the same bits on every
   path (n, nrhs within the bounds). */
void X(potrs_across1)(int uplo, int n, int nrhs, const R *a, int64_t lda, R *b, int64_t ldb, int right)
{
    _Alignas(64) R buf[BB_CPU_POTRF_ACROSS_MAX * BB_CPU_POTRF_ACROSS_MAX * V];
    _Alignas(64) R bbuf[BB_CPU_POTRF_ACROSS_MAX * BB_CPU_POTRS_ACROSS_MAX_NRHS * V];
    R *ap[V] = {(R *)a}, *bp[V] = {b};
    pack(buf, n, ap, lda, uplo == BblasUpper);
    pack_b(bbuf, n, nrhs, bp, ldb, right);
    potrs_across(n, nrhs, buf, bbuf);
    unpack_b(bbuf, n, nrhs, bp, ldb, right);
}

/* One problem through the same kernel (its lane 0, the others the
   identity), so that a problem gives the same bits on every path: the
   one-problem kernel (variable batches, chol.c) calls this below the
   bound. */
int X(potrf_across1)(int uplo, int n, R *a, int64_t lda)
{
    _Alignas(64) R buf[BB_CPU_POTRF_ACROSS_MAX * BB_CPU_POTRF_ACROSS_MAX * V];
    int fail[V];
    R piv[V];
    const int upper = uplo == BblasUpper;
    R *ap[V] = {a};
    pack(buf, n, ap, lda, upper);
    potrf_across(n, buf, fail, piv);
    if (fail[0]) unpack_failed(buf, n, 0, a, lda, upper, fail[0], piv[0]);
    else unpack(buf, n, n, ap, lda, upper);
    return fail[0];
}

bb_cpu_across X(cpu_across)(bb_op op, const bb_problem *gp)
{
    bb_cpu_across a = {NULL};
    if (op == BB_OP_POTRF && gp->n >= 1 && gp->n <= BB_CPU_POTRF_ACROSS_MAX) a.run = potrf_run;
    const int solve_ok = gp->n >= 1 && gp->n <= BB_CPU_POTRF_ACROSS_MAX && gp->nrhs >= 1 &&
                         gp->nrhs <= BB_CPU_POTRS_ACROSS_MAX_NRHS;
    if (op == BB_OP_POTRS && solve_ok) a.run = potrs_run;
    if (op == BB_OP_POSV && solve_ok) a.run = posv_run;
    return a;
}

#else

bb_cpu_across X(cpu_across)(bb_op op, const bb_problem *gp)
{
    (void)op;
    (void)gp;
    bb_cpu_across a = {NULL};
    return a;
}

#endif
