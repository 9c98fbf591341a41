/*
 * The kernels across problems (the body of across_avx512.c, across_avx2.c
 * and across_base.c; across.c chooses one when the library loads): a
 * thread takes V problems of one group at a time (one vector of ACROSS_VB
 * bytes: V = ACROSS_VB / sizeof(R), 8 doubles on AVX-512, 4 on AVX2, 2 on
 * the baseline), packs them interleaved into scratch (element (i, j) of
 * lane l at [(j * rows + i) * V + l]), runs one kernel in which every
 * vector lane is a different problem, and unpacks.  For tiny matrices this
 * replaces scalar code on one matrix (a 4 x 4 potrf is ~100 dependent
 * scalar operations) by the same operations on V matrices at once.
 *
 * Every precision: V is the number of R's (the real type) in a vector, and
 * a complex element takes two vectors, the real parts of the V lanes, then
 * their imaginary parts (W = 2; element (i, j)'s real parts at [((j * rows
 * + i) * 2) * V + l]), so that a complex product is four multiply-adds on
 * full vectors, not shuffles.  The kernels are written once on the element
 * type E ("elements" below); the packing moves W R's an element and, where
 * the routine needs it, conjugates (shape.cj: upper Hermitian triangles
 * and conjugate-transposed operands packed as lower or plain ones).
 * The norms of a complex element take sqrt(re^2 + im^2) (eabs: hypot
 * where the sum of squares over- or underflows, norm.c's rule).
 *
 * The vectors are GCC's generic vectors of the width the wrapper's target
 * has in registers: a wider generic vector than the registers (64 bytes on
 * AVX2) is split by GCC through the stack and scalar moves, several times
 * slower (doc/performance.md, "CPU, session 29").  The wrapper sets the
 * target (#pragma GCC target), ACROSS_VB, and XI(name), the name of an
 * entry of this variant (across.h).
 *
 * One packing (pack/unpack: any rows x columns band of a matrix, read
 * directly or transposed; on AVX-512 V x E tiles loaded from the V
 * matrices and transposed in registers, pack512/unpack512, else element by
 * element), one block runner (block_one: pack, the routine's kernels,
 * unpack, for V problems) for every routine, and one one-problem entry
 * (XI(across_one): the same block with lane 0 only, the others the
 * identity), which the one-problem kernels (chol.c, lu.c, blas3.c) call
 * below the bounds through across.c, so that a problem gives the same bits
 * in any batch, alone or not (tests/test_isolation.c).  The operations of
 * one lane never depend on the other lanes: a test over the lanes (any,
 * all) only chooses between paths that give each lane the same result.
 *
 * Today (bounds in cpu_policy.h):
 *   - potrf, potrs, posv: n <= BB_CPU_POTRF_ACROSS_MAX, nrhs <=
 *     BB_CPU_POTRS_ACROSS_MAX_NRHS, both triangles (upper is packed
 *     transposed: U = L^T, complex U = L^H conjugated as well, so one
 *     lower kernel serves both).  The semantics of chol.c: a failing problem reports LAPACK's k and keeps LAPACK's
 *     partial result (columns before k final, A(k,k) the non-positive or NaN
 *     pivot, the rest untouched); posv leaves its B alone.
 *   - trsm: m, n <= BB_CPU_TRSM_ACROSS_MAX, every side/uplo/trans/diag,
 *     alpha != 0 (alpha == 0 zeroes B without reading A: blas3.c).  op(A)
 *     is packed as the triangle the substitution reads (only the uplo
 *     triangle, not the diagonal when unit; conjugated for ConjTrans); a
 *     right-side solve runs as the left one on the transposed B.
 *   - getrf (square), getrs, gesv: n <= BB_CPU_GETRF_ACROSS_MAX, nrhs <=
 *     BB_CPU_GETRS_ACROSS_MAX_NRHS; row-major problems packed transposed.
 *     getrf is lu.c's getf2 lane by lane (each lane pivots on its own: the
 *     search by compare/select, the row interchanges by select); info is
 *     the first zero or NaN pivot, the factorisation going on after it, as
 *     LAPACK; gesv leaves B alone where the factorisation fails.
 *   - syrk: n, k <= BB_CPU_SYRK_ACROSS_MAX, both uplo and trans, alpha != 0
 *     (alpha == 0 scales C: blas3.c); op(A) packed as an n x k matrix, the
 *     uplo triangle of C as a lower one (upper transposed: C symmetric;
 *     complex: BLAS's csyrk, herk is blas3.c's); beta == 0: C is not
 *     packed (not read), only written.
 *   - trmm: m, n <= BB_CPU_TRMM_ACROSS_MAX, every side/uplo/trans/diag,
 *     alpha != 0 (alpha == 0 zeroes B: blas3.c); packed as trsm.
 *   - trtri, lauum, potri: n <= BB_CPU_TRTRI_ACROSS_MAX,
 *     BB_CPU_LAUUM_ACROSS_MAX, BB_CPU_POTRI_ACROSS_MAX; the triangle packed
 *     as a lower one (upper transposed: inv(U)^T = inv(U^T), and U U^T =
 *     L^T L with L = U^T; complex U^H, conjugated), chol.c's trti2 and
 *     lauu2 lane by lane; info the
 *     first exactly zero diagonal entry (non-unit), the matrix then left
 *     alone (LAPACK); potri is trtri then lauum on the packed block.
 *   - geinv: n <= BB_CPU_GEINV_ACROSS_MAX: norm.c's Gauss-Jordan lane by
 *     lane (the pivots of getrf), A read only, the inverse written to Ainv
 *     unless the lane is singular (the first zero or NaN pivot); its final
 *     column interchanges done in the block, or from n >= V by the
 *     unpacking (unpack512_inverse: each column written where it ends).
 *   - poti: n <= both bounds: potrf, then trtri and lauum on the same
 *     packed block (one pack, one unpack); a lane whose potrf fails gets
 *     potrf's partial result (chol.c's poti = potrf, then potri if it
 *     succeeded).
 *   - getrfnp (square): n <= BB_CPU_GETRFNP_ACROSS_MAX: getrf's kernel with
 *     the diagonal as the pivot (no interchange; info the first zero or
 *     NaN pivot, as lu.c's getf2 without pivots).
 *   - getri, getri_oop: n <= BB_CPU_GETRI_ACROSS_MAX; the factors packed
 *     transposed (row-major as stored: the block holds A^T, U^T in its
 *     lower triangle), trtri's kernel on that triangle (info: the first
 *     exactly zero U(k,k), nothing written then, as LAPACK), then L^T Z =
 *     inv(U)^T and the interchanges (getri_across): the block holds
 *     inv(A)^T, unpacked transposed into A (getri) or B (getri_oop); the
 *     interchanges by the unpacking where geinv's are (column-major, n >=
 *     12).
 *   - gecond: n <= BB_CPU_GECOND_ACROSS_MAX: the norm of the packed A
 *     (norm_across), geinv's Gauss-Jordan on the block without its final
 *     column interchanges (the norms do not depend on them), the norm of
 *     the inverse; cond = +Inf where geinv's info is set.
 *   - lange: m, n <= BB_CPU_LANGE_ACROSS_MAX: norm_across (norm.c's rules:
 *     NaN sticks, the Frobenius norm rescaled only where the sum of
 *     squares over- or underflows).  gecond and lange write one value a
 *     lane (y), A is read only.
 * A problem whose pinfo is nonzero on entry is not read nor written (its
 * lane holds the identity, B zero).
 */
#include <stdint.h>
#include <string.h>
#include "small.h"
#include "across.h"
#if BB_CPU_X86
#  include <immintrin.h>
#endif

/* the real type R is float (s, c) or double (d, z) */
#if defined(BB_PREC_S) || defined(BB_PREC_C)
#  define ACROSS_F32 1
#  define SQRT __builtin_sqrtf
#else
#  define ACROSS_F32 0
#  define SQRT __builtin_sqrt
#endif

/* lanes: one vector of ACROSS_VB bytes (the registers of the target) */
enum { V = ACROSS_VB / sizeof(R) };
typedef R vec __attribute__((vector_size(ACROSS_VB)));
typedef __typeof__((vec){0} < (vec){0}) ivec; /* lane masks: 0 or -1 */

#define MAX2(a, b) ((a) > (b) ? (a) : (b))
/* the largest order and number of right-hand sides of any kernel here */
enum {
    NMAX = MAX2(MAX2(MAX2(BB_CPU_POTRF_ACROSS_MAX, BB_CPU_TRSM_ACROSS_MAX), BB_CPU_GETRF_ACROSS_MAX),
                MAX2(MAX2(BB_CPU_SYRK_ACROSS_MAX, BB_CPU_TRMM_ACROSS_MAX),
                     MAX2(MAX2(MAX2(BB_CPU_TRTRI_ACROSS_MAX, BB_CPU_LAUUM_ACROSS_MAX), BB_CPU_POTRI_ACROSS_MAX),
                     MAX2(MAX2(MAX2(BB_CPU_GEINV_ACROSS_MAX, BB_CPU_GETRI_ACROSS_MAX), BB_CPU_GETRFNP_ACROSS_MAX),
                          MAX2(BB_CPU_GECOND_ACROSS_MAX, BB_CPU_LANGE_ACROSS_MAX))))),
    RMAX = MAX2(MAX2(MAX2(BB_CPU_POTRS_ACROSS_MAX_NRHS, BB_CPU_TRSM_ACROSS_MAX), BB_CPU_GETRS_ACROSS_MAX_NRHS),
                MAX2(MAX2(BB_CPU_SYRK_ACROSS_MAX, BB_CPU_TRMM_ACROSS_MAX), BB_CPU_GETRI_ACROSS_MAX))
};

#define INL static inline __attribute__((always_inline))

/* (macros, not functions: a vector argument or result wider than the
   baseline's registers draws GCC's ABI warning) */
#define splat(x) ((vec){0} + (R)(x))
#define sel(m, a, b) ((vec)(((ivec)(a) & (m)) | ((ivec)(b) & ~(m))))
#define vabs(x) ((vec)((ivec)(x) & ~(ivec)(-(vec){0}))) /* clears the sign bit (-0.0) */
/* whether any lane of m is set, as one vector test (a test lane by lane
   lets GCC turn the comparison that made m into scalar code) */
INL int any(const ivec *m)
{
#if BB_CPU_X86 && ACROSS_VB == 64
    __m512i a;
    memcpy(&a, m, sizeof a);
    return _mm512_test_epi64_mask(a, a) != 0;
#elif BB_CPU_X86 && ACROSS_VB == 32
    __m256i a;
    memcpy(&a, m, sizeof a);
    return !_mm256_testz_si256(a, a);
#elif BB_CPU_X86
    __m128i a;
    memcpy(&a, m, sizeof a);
    return _mm_movemask_epi8(a) != 0;
#else
    long long q[ACROSS_VB / 8];
    memcpy(q, m, sizeof q);
    long long o = 0;
    for (int i = 0; i < ACROSS_VB / 8; i++) o |= q[i];
    return o != 0;
#endif
}

/* sqrt lane by lane, in place: one instruction on the target's register
   type (a copy through an array of R costs a store-forwarding stall) */
#if BB_CPU_X86
#  if ACROSS_VB == 64
#    define VREG(d) __m512##d
#    define VOP(op) _mm512_##op
#  elif ACROSS_VB == 32
#    define VREG(d) __m256##d
#    define VOP(op) _mm256_##op
#  else
#    define VREG(d) __m128##d
#    define VOP(op) _mm_##op
#  endif
#endif
INL void vsqrt(vec *x)
{
#if BB_CPU_X86 && ACROSS_F32
    *x = (vec)VOP(sqrt_ps)((VREG()) * x);
#elif BB_CPU_X86
    *x = (vec)VOP(sqrt_pd)((VREG(d)) * x);
#else
    for (int l = 0; l < V; l++) (*x)[l] = SQRT((*x)[l]);
#endif
}

/* ---- elements ----------------------------------------------------------- */

/* An element of V problems, E: one vector (real), or two, the real parts
   of the V lanes and their imaginary parts (complex: W = 2 R's an element,
   the block holds element e's real parts at [(e * 2) * V + l] and its
   imaginary parts at [(e * 2 + 1) * V + l]).  The kernels are written once
   on E; for a real type each operation below is the vector expression the
   kernels had before (the same instructions, the same bits).  Complex
   products are written out (4 multiply-adds), reciprocals and quotients by
   Smith's scaling, the rule of small.h's bb_recip. */
#if BB_COMPLEX
enum { W = 2 };
typedef struct {
    vec r, i;
} E;
INL E emk(vec r, vec i)
{
    E z = {r, i};
    return z;
}
INL E ereal(vec r) { return emk(r, splat(0)); }
INL vec ere(E a) { return a.r; }
INL E econj(E a) { return emk(a.r, -a.i); }
INL E emul(E a, E b) { return emk(a.r * b.r - a.i * b.i, a.r * b.i + a.i * b.r); }
INL E escale(E a, vec s) { return emk(a.r * s, a.i * s); }
/* y - a b, y - conj(a) b */
INL E emsub(E y, E a, E b) { return emk(y.r - a.r * b.r + a.i * b.i, y.i - a.r * b.i - a.i * b.r); }
INL E emsubc(E y, E a, E b) { return emk(y.r - a.r * b.r - a.i * b.i, y.i - a.r * b.i + a.i * b.r); }
/* y + a b, y + conj(a) b, a + b */
INL E emadd(E y, E a, E b) { return emk(y.r + a.r * b.r - a.i * b.i, y.i + a.r * b.i + a.i * b.r); }
INL E emaddc(E y, E a, E b) { return emk(y.r + a.r * b.r + a.i * b.i, y.i + a.r * b.i - a.i * b.r); }
INL E eadd(E a, E b) { return emk(a.r + b.r, a.i + b.i); }
INL E eneg(E a) { return emk(-a.r, -a.i); }
/* the scalars of a routine (alpha, beta) */
INL E esplat(R re, R im) { return emk(splat(re), splat(im)); }
INL E esel(ivec m, E a, E b) { return emk(sel(m, a.r, b.r), sel(m, a.i, b.i)); }
/* |re| + |im| (LAPACK's cabs1: the pivot measure), |a|^2 */
INL vec eabs1(E a) { return vabs(a.r) + vabs(a.i); }
INL vec eabs2(E a) { return a.r * a.r + a.i * a.i; }
/* x / a: by the larger part p of a and the smaller q, r = q / p */
INL E ediv(E x, E a)
{
    const ivec big = vabs(a.r) >= vabs(a.i);
    const vec p = sel(big, a.r, a.i), q = sel(big, a.i, a.r), r = q / p, d = 1 / (p + q * r);
    /* big: (x.r + x.i r, x.i - x.r r) d; else (x.r r + x.i, x.i r - x.r) d */
    const vec u = sel(big, x.r, x.i), v = sel(big, x.i, x.r);
    const vec re = (u + v * r) * d, im = (v - u * r) * d;
    return emk(re, sel(big, im, -im));
}
/* |a| = sqrt(re^2 + im^2) (norm.c's absT lane by lane: where the sum of
   squares over- or underflows, hypot of the lane; exact zeros are 0) */
INL vec eabs(E a)
{
    const vec s = a.r * a.r + a.i * a.i;
    const ivec zero = eabs1(a) == splat(0), ok = ((s >= splat(R_SAFMIN)) & (s <= splat(R_HUGE))) ^ zero;
    const ivec bad = ~ok;
    vec r = s;
    vsqrt(&r);
    if (any(&bad))
        for (int l = 0; l < V; l++)
            if (!ok[l]) r[l] = RHYPOT(a.r[l], a.i[l]);
    return r;
}
/* 1 / a (ediv with x = 1, written out: small.h's bb_recip lane by lane) */
INL E erecip(E a)
{
    const ivec big = vabs(a.r) >= vabs(a.i);
    const vec p = sel(big, a.r, a.i), q = sel(big, a.i, a.r), r = q / p, d = 1 / (p + q * r), rd = r * d;
    return emk(sel(big, d, rd), sel(big, -rd, -d));
}
#else
enum { W = 1 };
typedef vec E;
#  define ereal(r) (r)
#  define ere(a) (a)
#  define econj(a) (a)
#  define emul(a, b) ((a) * (b))
#  define escale(a, s) ((a) * (s))
#  define emsub(y, a, b) ((y) - (a) * (b))
#  define emsubc(y, a, b) ((y) - (a) * (b))
#  define emadd(y, a, b) ((y) + (a) * (b))
#  define emaddc(y, a, b) ((y) + (a) * (b))
#  define eadd(a, b) ((a) + (b))
#  define eneg(a) (-(a))
#  define esplat(re, im) splat(re)
#  define esel(m, a, b) sel(m, a, b)
#  define eabs1(a) vabs(a)
#  define eabs(a) vabs(a)
#  define eabs2(a) ((a) * (a))
#  define ediv(x, a) ((x) / (a))
#  define erecip(a) (1 / (a))
#endif

/* ---- packing ------------------------------------------------------------ */

/* One packed operand: an r x c matrix whose element (i, j) is src[i + j *
   ld] (trans: src[j + i * ld]), only the band lo <= i - j <= hi (a
   triangle, with or without its diagonal, or everything) read and written;
   a lane without a problem holds the identity (ident) or zero there.
   Complex: cj, the conjugate (packed and unpacked); ld and the offsets
   count elements, W R's each. */
typedef struct {
    int r, c, trans, lo, hi, ident, cj;
} shape;

static shape full_shape(int r, int c, int trans, int ident)
{
    shape s = {r, c, trans, -c, r, ident, 0};
    return s;
}

/* band limits of column j: rows [i0, i1] */
#define BAND(s, j, i0, i1)                                                                                 \
    const int i0 = (j) + (s).lo > 0 ? (j) + (s).lo : 0, i1 = (j) + (s).hi < (s).r - 1 ? (j) + (s).hi : (s).r - 1

/* Packs V problems (ap[l], or the empty lane where ap[l] is NULL), element
   by element, the lanes of one element together (the packing of the
   variants without AVX-512, and of sanitizer builds).  The usual block
   (every lane a problem) walks each column's band with the lanes' pointers
   in registers. */
static void pack_scalar(R *buf, shape s, R *const *ap, int64_t ld)
{
    int full = 1;
    for (int l = 0; l < V; l++) full &= ap[l] != NULL;
    const int64_t is = W * (s.trans ? ld : 1), js = W * (s.trans ? 1 : ld); /* steps of i and j, in R's */
    const R sg = s.cj ? -1 : 1; /* the imaginary parts' sign */
    if (full) {
        const R *p[V];
        for (int l = 0; l < V; l++) p[l] = ap[l];
        for (int j = 0; j < s.c; j++) {
            BAND(s, j, i0, i1);
            R *dst = buf + ((size_t)j * s.r + i0) * W * V;
            int64_t off = j * js + i0 * is;
            for (int i = i0; i <= i1; i++, off += is, dst += W * V) {
                _Pragma("GCC unroll 16") for (int l = 0; l < V; l++) dst[l] = p[l][off];
                if (W == 2) _Pragma("GCC unroll 16") for (int l = 0; l < V; l++) dst[V + l] = sg * p[l][off + 1];
            }
        }
        return;
    }
    for (int j = 0; j < s.c; j++) {
        BAND(s, j, i0, i1);
        for (int i = i0; i <= i1; i++) {
            const int64_t off = j * js + i * is;
            R *dst = buf + ((size_t)j * s.r + i) * W * V;
            const R e = s.ident && i == j;
            for (int l = 0; l < V; l++) dst[l] = ap[l] ? ap[l][off] : e;
            if (W == 2)
                for (int l = 0; l < V; l++) dst[V + l] = ap[l] ? sg * ap[l][off + 1] : 0;
        }
    }
}

/* Unpacks columns [0, cols) of every lane l whose ap[l] is not NULL (the
   lanes of one element together). */
__attribute__((unused)) static void unpack_scalar(const R *buf, shape s, int cols, R *const *ap, int64_t ld)
{
    int full = 1;
    for (int l = 0; l < V; l++) full &= ap[l] != NULL;
    const int64_t is = W * (s.trans ? ld : 1), js = W * (s.trans ? 1 : ld);
    const R sg = s.cj ? -1 : 1;
    if (full) {
        R *p[V];
        for (int l = 0; l < V; l++) p[l] = ap[l];
        for (int j = 0; j < cols; j++) {
            BAND(s, j, i0, i1);
            const R *src = buf + ((size_t)j * s.r + i0) * W * V;
            int64_t off = j * js + i0 * is;
            for (int i = i0; i <= i1; i++, off += is, src += W * V) {
                _Pragma("GCC unroll 16") for (int l = 0; l < V; l++) p[l][off] = src[l];
                if (W == 2) _Pragma("GCC unroll 16") for (int l = 0; l < V; l++) p[l][off + 1] = sg * src[V + l];
            }
        }
        return;
    }
    for (int j = 0; j < cols; j++) {
        BAND(s, j, i0, i1);
        for (int i = i0; i <= i1; i++) {
            const int64_t off = j * js + i * is;
            const R *src = buf + ((size_t)j * s.r + i) * W * V;
            for (int l = 0; l < V; l++)
                if (ap[l]) {
                    ap[l][off] = src[l];
                    if (W == 2) ap[l][off + 1] = sg * src[V + l];
                }
        }
    }
}

/* Where the AVX-512 packing finds a band (pack512/unpack512): by lines (a
   column, or a row of a transposed operand: the band's elements contiguous
   in a matrix), or, for a contiguous matrix (ld the length of a line) whose
   band spans few elements, by the span from the band's first element to its
   last, in chunks of V with the band's elements of each chunk as a mask
   (nothing else is read or written) and each element's place in the block
   (complex: each R's, the two parts of an element apart).  span == 0: by
   lines.  Made once per run of blocks (block_run). */
enum { SPANMAX = 4 }; /* chunks */
typedef struct {
    int span, f, len; /* the span: offsets [f, f + len), in R's */
    uint32_t msk[SPANMAX];
    uint16_t slot[SPANMAX * V];
} pmap;

/* band limits of line a (column, or row when trans) within columns [0, cols) */
INL int line_of(shape s, int cols, int a, int *b0, int *b1)
{
    if (!s.trans) {
        *b0 = a + s.lo > 0 ? a + s.lo : 0;
        *b1 = a + s.hi < s.r - 1 ? a + s.hi : s.r - 1;
    } else {
        *b0 = a - s.hi > 0 ? a - s.hi : 0;
        *b1 = a - s.lo < cols - 1 ? a - s.lo : cols - 1;
    }
    return *b0 <= *b1;
}

/* a rough count of the instructions of a chunk of e elements (loads, the
   transpose, stores) */
static int chunk_cost(int e)
{
    const int b = e <= 2 ? 2 : e <= 4 ? 4 : e <= 8 ? 8 : 16;
    return V + (b == 2 ? 2 : b == 4 ? 8 : b == 8 ? 24 : 64) + e + 4;
}

static int line_cost(int len)
{
    return (len / V) * chunk_cost(V) + (len % V ? chunk_cost(len % V) : 0) + 10;
}

static void map_of(shape s, int64_t ld, pmap *mp)
{
    mp->span = 0;
    const int nl = s.trans ? s.r : s.c, w = s.trans ? s.c : s.r;
    if (ld != w) return;
    int f = -1, t = -1, cl = 0; /* (f, t: elements; the costs and the map: R's) */
    for (int a = 0; a < nl; a++) {
        int b0, b1;
        if (!line_of(s, s.c, a, &b0, &b1)) continue;
        if (f < 0) f = a * w + b0;
        t = a * w + b1;
        cl += line_cost((b1 - b0 + 1) * W);
    }
    if (f < 0 || (t - f + 1) * W > SPANMAX * V) return;
    const int len = (t - f + 1) * W;
    if (line_cost(len) - 10 + len / 2 >= cl) return; /* len / 2: finding the places */
    memset(mp->msk, 0, sizeof mp->msk);
    for (int e = 0; e < len; e++) { /* R e: part e % W of element f + e / W */
        const int k = f + e / W, a = k / w, b = k % w, i = s.trans ? a : b, j = s.trans ? b : a;
        if (i - j >= s.lo && i - j <= s.hi) mp->msk[e / V] |= 1u << (e % V);
        mp->slot[e] = (uint16_t)((j * s.r + i) * W + e % W);
    }
    mp->f = f * W;
    mp->len = len;
    mp->span = 1;
}

#if BB_CPU_X86 && ACROSS_VB == 64 && !defined(__SANITIZE_ADDRESS__)
#  define PACK512 1
/* AVX-512 packing: a chunk of up to V elements of a line or span is loaded
   from each of the V matrices (masked: nothing outside the band is read,
   nor written when unpacking), the V x E tile transposed in registers, and
   each element's V lanes stored as one vector; unpacking is the same
   transpose (an involution) backwards and a masked store per lane (none for
   an absent lane).  A tile of E <= B elements (B = 2, 4, 8, 16) is held in
   B registers, row l (lane l's elements) in register l % B at element
   (l / B) * B (a load at that many elements before the row, the elements
   before masked off), so that its transpose is B x B blocks in the
   register's 128-, 256- or 512-bit parts.  The transposes only move data:
   the bits are those of the scalar packing. */
#  define TI static inline __attribute__((always_inline, target("avx512f")))
#  define UNROLL _Pragma("GCC unroll 16")
#  if ACROSS_F32
typedef __m512 zr;
typedef __mmask16 zmask;
#    define ZLOADU_M _mm512_mask_loadu_ps
#    define ZSTOREU_M _mm512_mask_storeu_ps
#    define ZLOAD _mm512_load_ps
#    define ZSTORE _mm512_store_ps
#    define ZZERO _mm512_setzero_ps
#    define ZNEG0() _mm512_set1_ps(-0.0f)
#    define ZXOR(x, y) _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(x), _mm512_castps_si512(y)))
#    define PS(x) _mm512_castpd_ps(x)
#    define PD(x) _mm512_castps_pd(x)
TI void tr2(zr *z) /* 64-bit parts: rows 2s, 2s + 1 of 2 elements */
{
    const __m512i ie = _mm512_set_epi32(30, 14, 28, 12, 26, 10, 24, 8, 22, 6, 20, 4, 18, 2, 16, 0);
    const __m512i io = _mm512_set_epi32(31, 15, 29, 13, 27, 11, 25, 9, 23, 7, 21, 5, 19, 3, 17, 1);
    const zr a = _mm512_permutex2var_ps(z[0], ie, z[1]), b = _mm512_permutex2var_ps(z[0], io, z[1]);
    z[0] = a;
    z[1] = b;
}
TI void tr4(zr *z) /* 4 x 4 in each 128-bit part */
{
    const zr t0 = _mm512_unpacklo_ps(z[0], z[1]), t1 = _mm512_unpackhi_ps(z[0], z[1]);
    const zr t2 = _mm512_unpacklo_ps(z[2], z[3]), t3 = _mm512_unpackhi_ps(z[2], z[3]);
    z[0] = PS(_mm512_unpacklo_pd(PD(t0), PD(t2)));
    z[1] = PS(_mm512_unpackhi_pd(PD(t0), PD(t2)));
    z[2] = PS(_mm512_unpacklo_pd(PD(t1), PD(t3)));
    z[3] = PS(_mm512_unpackhi_pd(PD(t1), PD(t3)));
}
TI void tr8(zr *z) /* 8 x 8 in each 256-bit half */
{
    const __m512i i0 = _mm512_set_epi32(27, 26, 25, 24, 11, 10, 9, 8, 19, 18, 17, 16, 3, 2, 1, 0);
    const __m512i i1 = _mm512_set_epi32(31, 30, 29, 28, 15, 14, 13, 12, 23, 22, 21, 20, 7, 6, 5, 4);
    zr a[8], b[8];
    UNROLL for (int k = 0; k < 4; k++) {
        a[2 * k] = _mm512_unpacklo_ps(z[2 * k], z[2 * k + 1]);
        a[2 * k + 1] = _mm512_unpackhi_ps(z[2 * k], z[2 * k + 1]);
    }
    UNROLL for (int g = 0; g < 2; g++) { /* b[4g + m], 128-bit part q: element 4q + m of rows 4g..4g+3 */
        b[4 * g] = PS(_mm512_unpacklo_pd(PD(a[4 * g]), PD(a[4 * g + 2])));
        b[4 * g + 1] = PS(_mm512_unpackhi_pd(PD(a[4 * g]), PD(a[4 * g + 2])));
        b[4 * g + 2] = PS(_mm512_unpacklo_pd(PD(a[4 * g + 1]), PD(a[4 * g + 3])));
        b[4 * g + 3] = PS(_mm512_unpackhi_pd(PD(a[4 * g + 1]), PD(a[4 * g + 3])));
    }
    UNROLL for (int m = 0; m < 4; m++) {
        z[m] = _mm512_permutex2var_ps(b[m], i0, b[4 + m]);
        z[4 + m] = _mm512_permutex2var_ps(b[m], i1, b[4 + m]);
    }
}
TI void tr16(zr *z)
{
    zr a[16], b[16];
    UNROLL for (int k = 0; k < 8; k++) {
        a[2 * k] = _mm512_unpacklo_ps(z[2 * k], z[2 * k + 1]);
        a[2 * k + 1] = _mm512_unpackhi_ps(z[2 * k], z[2 * k + 1]);
    }
    UNROLL for (int g = 0; g < 4; g++) { /* b[4g + m], 128-bit part q: element 4q + m of rows 4g..4g+3 */
        b[4 * g] = PS(_mm512_unpacklo_pd(PD(a[4 * g]), PD(a[4 * g + 2])));
        b[4 * g + 1] = PS(_mm512_unpackhi_pd(PD(a[4 * g]), PD(a[4 * g + 2])));
        b[4 * g + 2] = PS(_mm512_unpacklo_pd(PD(a[4 * g + 1]), PD(a[4 * g + 3])));
        b[4 * g + 3] = PS(_mm512_unpackhi_pd(PD(a[4 * g + 1]), PD(a[4 * g + 3])));
    }
    UNROLL for (int m = 0; m < 4; m++) {
        const zr c0 = _mm512_shuffle_f32x4(b[m], b[4 + m], 0x88), c1 = _mm512_shuffle_f32x4(b[m], b[4 + m], 0xDD);
        const zr d0 = _mm512_shuffle_f32x4(b[8 + m], b[12 + m], 0x88),
                 d1 = _mm512_shuffle_f32x4(b[8 + m], b[12 + m], 0xDD);
        z[m] = _mm512_shuffle_f32x4(c0, d0, 0x88);
        z[8 + m] = _mm512_shuffle_f32x4(c0, d0, 0xDD);
        z[4 + m] = _mm512_shuffle_f32x4(c1, d1, 0x88);
        z[12 + m] = _mm512_shuffle_f32x4(c1, d1, 0xDD);
    }
}
#    define BUCKETS(TILE, D)                                                                                \
        do {                                                                                                \
            if (E <= 2) TILE(2, tr2, D);                                                                    \
            else if (E <= 4) TILE(4, tr4, D);                                                               \
            else if (E <= 8) TILE(8, tr8, D);                                                               \
            else TILE(16, tr16, D);                                                                         \
        } while (0)
#  else
typedef __m512d zr;
typedef __mmask8 zmask;
#    define ZLOADU_M _mm512_mask_loadu_pd
#    define ZSTOREU_M _mm512_mask_storeu_pd
#    define ZLOAD _mm512_load_pd
#    define ZSTORE _mm512_store_pd
#    define ZZERO _mm512_setzero_pd
#    define ZNEG0() _mm512_set1_pd(-0.0)
#    define ZXOR(x, y) _mm512_castsi512_pd(_mm512_xor_si512(_mm512_castpd_si512(x), _mm512_castpd_si512(y)))
TI void tr2(zr *z) /* 2 x 2 in each 128-bit part */
{
    const zr a = _mm512_unpacklo_pd(z[0], z[1]), b = _mm512_unpackhi_pd(z[0], z[1]);
    z[0] = a;
    z[1] = b;
}
TI void tr4(zr *z) /* 4 x 4 in each 256-bit half */
{
    const __m512i i0 = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0), i1 = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
    const zr t0 = _mm512_unpacklo_pd(z[0], z[1]), t1 = _mm512_unpackhi_pd(z[0], z[1]);
    const zr t2 = _mm512_unpacklo_pd(z[2], z[3]), t3 = _mm512_unpackhi_pd(z[2], z[3]);
    z[0] = _mm512_permutex2var_pd(t0, i0, t2);
    z[1] = _mm512_permutex2var_pd(t1, i0, t3);
    z[2] = _mm512_permutex2var_pd(t0, i1, t2);
    z[3] = _mm512_permutex2var_pd(t1, i1, t3);
}
TI void tr8(zr *z)
{
    const __m512i i0 = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0), i1 = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
    zr t[8], u[8];
    UNROLL for (int k = 0; k < 4; k++) {
        t[2 * k] = _mm512_unpacklo_pd(z[2 * k], z[2 * k + 1]);
        t[2 * k + 1] = _mm512_unpackhi_pd(z[2 * k], z[2 * k + 1]);
    }
    UNROLL for (int g = 0; g < 2; g++) { /* u[4g + m]: elements m | m + 4 of rows 4g..4g+3 */
        u[4 * g] = _mm512_permutex2var_pd(t[4 * g], i0, t[4 * g + 2]);
        u[4 * g + 1] = _mm512_permutex2var_pd(t[4 * g + 1], i0, t[4 * g + 3]);
        u[4 * g + 2] = _mm512_permutex2var_pd(t[4 * g], i1, t[4 * g + 2]);
        u[4 * g + 3] = _mm512_permutex2var_pd(t[4 * g + 1], i1, t[4 * g + 3]);
    }
    UNROLL for (int m = 0; m < 4; m++) {
        z[m] = _mm512_shuffle_f64x2(u[m], u[4 + m], 0x44);
        z[m + 4] = _mm512_shuffle_f64x2(u[m], u[4 + m], 0xEE);
    }
}
#    define BUCKETS(TILE, D)                                                                                \
        do {                                                                                                \
            if (E <= 2) TILE(2, tr2, D);                                                                    \
            else if (E <= 4) TILE(4, tr4, D);                                                               \
            else TILE(8, tr8, D);                                                                           \
        } while (0)
#  endif

/* lane l's address and mask for row l of a B-tile of the chunk at offset
   o (absent lanes: mask 0, the address of a present one) */
#  define LADDR(l, B) ((uintptr_t)p[l] + (uintptr_t)(o - (l) / (B) * (B)) * sizeof(R))
#  define LMASK(l, B) ((zmask)(((pm >> (l) & 1) ? m : 0u) << ((l) / (B) * (B))))

#  define PACK_TILE(B, TR, DST)                                                                             \
    do {                                                                                                    \
        zr z[B];                                                                                            \
        UNROLL for (int a = 0; a < (B); a++) z[a] = ZZERO();                                                \
        UNROLL for (int l = 0; l < V; l++)                                                                  \
            z[l % (B)] = ZLOADU_M(z[l % (B)], LMASK(l, B), (const void *)LADDR(l, B));                      \
        TR(z);                                                                                              \
        UNROLL for (int e = 0; e < (B); e++)                                                                \
            if (e < E) ZSTORE(DST(e), CONJ_PART(e, z[e]));                                                  \
    } while (0)

#  define UNPACK_TILE(B, TR, SRC)                                                                           \
    do {                                                                                                    \
        zr z[B];                                                                                            \
        UNROLL for (int e = 0; e < (B); e++) z[e] = e < E ? CONJ_PART(e, ZLOAD(SRC(e))) : ZZERO();          \
        TR(z);                                                                                              \
        UNROLL for (int l = 0; l < V; l++)                                                                  \
            ZSTOREU_M((void *)LADDR(l, B), LMASK(l, B), z[l % (B)]);                                         \
    } while (0)

/* one line: len R's at p[l] + off, R e at dst + e * dsv (complex: R e, a
   part of element e / 2, at dst + (e / 2) * dsv + (e % 2) * V); cj: the
   imaginary parts negated (ng, the sign bits; a line and its chunks start
   at a real part) */
#  define DLINE(e) (dst + (size_t)((e0 + (e)) / W) * dsv + (size_t)((e0 + (e)) % W) * V)
#  if BB_COMPLEX
#    define CONJ_PART(e, x) ((e) % 2 ? ZXOR((x), ng) : (x))
#  else
#    define CONJ_PART(e, x) (x)
#  endif
TI void pack_line(R *dst, size_t dsv, R *const *p, uint32_t pm, int64_t off, int len, int cj)
{
    const zr ng = cj ? ZNEG0() : ZZERO();
    (void)ng;
    for (int e0 = 0; e0 < len; e0 += V) {
        const int E = len - e0 < V ? len - e0 : V;
        const uint32_t m = (1u << E) - 1;
        const int64_t o = off + e0;
        BUCKETS(PACK_TILE, DLINE);
    }
}

TI void unpack_line(const R *dst, size_t dsv, R *const *p, uint32_t pm, int64_t off, int len, int cj)
{
    const zr ng = cj ? ZNEG0() : ZZERO();
    (void)ng;
    for (int e0 = 0; e0 < len; e0 += V) {
        const int E = len - e0 < V ? len - e0 : V;
        const uint32_t m = (1u << E) - 1;
        const int64_t o = off + e0;
        BUCKETS(UNPACK_TILE, DLINE);
    }
}

enum { FULL = (int)((1ull << V) - 1) };

/* the lanes present: bit l where ap[l] is not NULL */
TI uint32_t lanes_of(R *const *ap)
{
    uint32_t pm = 0;
    UNROLL for (int h = 0; h < V / 8; h++) {
        const __m512i v = _mm512_loadu_si512((const void *)(ap + 8 * h));
        pm |= (uint32_t)_mm512_test_epi64_mask(v, v) << (8 * h);
    }
    return pm;
}

/* the pointers of the lanes, absent ones given a present one's (only ever
   used with mask 0) */
TI void fill_lanes(R *const *ap, uint32_t pm, R **p)
{
    R *any = ap[__builtin_ctz(pm)];
    for (int l = 0; l < V; l++) p[l] = ap[l] ? ap[l] : any;
}

/* pm: the lanes (a constant FULL in the usual block: no mask per lane) */
TI void pack_body(R *buf, shape s, R *const *p, uint32_t pm, int64_t ld, const pmap *mp)
{
    if (mp && mp->span) {
        const zr ng = s.cj ? ZNEG0() : ZZERO(); /* (a span starts at a real part) */
        (void)ng;
#  define DSPAN(e) (buf + (size_t)sl[e] * V)
        for (int k0 = 0; k0 < mp->len; k0 += V) {
            const int E = mp->len - k0 < V ? mp->len - k0 : V;
            const uint32_t m = mp->msk[k0 / V];
            const int64_t o = mp->f + k0;
            const uint16_t *sl = mp->slot + k0;
            BUCKETS(PACK_TILE, DSPAN);
        }
    } else {
        const int nl = s.trans ? s.r : s.c;
        for (int a = 0; a < nl; a++) {
            int b0, b1;
            if (!line_of(s, s.c, a, &b0, &b1)) continue;
            const size_t d = s.trans ? (size_t)b0 * s.r + a : (size_t)a * s.r + b0;
            pack_line(buf + d * W * V, (s.trans ? (size_t)s.r : 1) * W * V, p, pm, (b0 + (int64_t)a * ld) * W,
                      (b1 - b0 + 1) * W, s.cj);
        }
    }
}

TI void unpack_body(const R *buf, shape s, int cols, R *const *p, uint32_t pm, int64_t ld, const pmap *mp)
{
    if (mp && mp->span && cols == s.c) {
        const zr ng = s.cj ? ZNEG0() : ZZERO(); /* (a span starts at a real part) */
        (void)ng;
        for (int k0 = 0; k0 < mp->len; k0 += V) {
            const int E = mp->len - k0 < V ? mp->len - k0 : V;
            const uint32_t m = mp->msk[k0 / V];
            const int64_t o = mp->f + k0;
            const uint16_t *sl = mp->slot + k0;
            BUCKETS(UNPACK_TILE, DSPAN);
        }
    } else {
        const int nl = s.trans ? s.r : cols;
        for (int a = 0; a < nl; a++) {
            int b0, b1;
            if (!line_of(s, cols, a, &b0, &b1)) continue;
            const size_t d = s.trans ? (size_t)b0 * s.r + a : (size_t)a * s.r + b0;
            unpack_line(buf + d * W * V, (s.trans ? (size_t)s.r : 1) * W * V, p, pm, (b0 + (int64_t)a * ld) * W,
                        (b1 - b0 + 1) * W, s.cj);
        }
    }
}

/* returns 0 (nothing done) where no lane has a problem */
__attribute__((target("avx512f"))) static int pack512(R *buf, shape s, R *const *ap, int64_t ld, const pmap *mp)
{
    const uint32_t pm = lanes_of(ap);
    if (pm == FULL) {
        pack_body(buf, s, ap, FULL, ld, mp);
        return 1;
    }
    if (!pm) return 0;
    R *p[V];
    fill_lanes(ap, pm, p);
    pack_body(buf, s, p, pm, ld, mp);
    if (s.ident && s.lo <= 0 && s.hi >= 0) /* the empty lanes' identity */
        for (int i = 0; i < s.r && i < s.c; i++)
            for (int l = 0; l < V; l++)
                if (!(pm >> l & 1)) buf[((size_t)i * s.r + i) * W * V + l] = 1;
    return 1;
}

__attribute__((target("avx512f"))) static void unpack512(const R *buf, shape s, int cols, R *const *ap, int64_t ld,
                                                       const pmap *mp)
{
    const uint32_t pm = lanes_of(ap);
    if (pm == FULL) {
        unpack_body(buf, s, cols, ap, FULL, ld, mp);
        return;
    }
    if (!pm) return;
    R *p[V];
    fill_lanes(ap, pm, p);
    unpack_body(buf, s, cols, p, pm, ld, mp);
}

/* whether an inverse's column interchanges are done by unpack512_inverse
   (geinv; getri and getri_oop column-major, where the block is A^T): from
   a vector's length of elements a line on, and getri from 12 (2 cores with
   AVX-512, session 38, ms before -> after, alternated: geinv d 8 / 16
   7.5-8.3 -> 6.2-7.6 / 8.5-9.4 -> 6.6-7.8, s 16 8.2-9.5 -> 7.6-8.3; getri
   d 14 / 16 4.3-4.4 -> 3.5-3.7 / 4.6-4.7 -> 3.1-3.4, s 16 4.7-4.9 ->
   4.2-4.3; below, line by line loses to the packing by spans and the
   interchanges in the block: geinv d 2 7.1 -> 9.8, s 2 9.4 -> 15.5, s 8
   6.7-7.5 -> 8.3-8.5; getri d 8 3.4-3.5 -> 3.9-4.0) */
#  define inverse_cols(n, from) (W == 1 && (n) >= V && (n) >= (from)) /* (real only) */

/* An inverse out with its column interchanges (the last step of geinv's
   Gauss-Jordan and of getri, pv as they leave it: for k = n - 1 down to 0,
   column k <-> column pv[k] where k < pv[k] < n) done here: line a of the
   block (a column, or a row when s.trans; s a full square) goes to column
   to[a][l] of lane l's matrix, so the block's lines are never swapped in
   place. */
__attribute__((target("avx512f"), noinline)) static void unpack512_inverse(const R *buf, shape s, R *const *ap, int64_t ld,
                                                               const vec *pv)
{
    const uint32_t pm = lanes_of(ap);
    if (!pm) return;
    const int n = s.c;
    R *p[V];
    fill_lanes(ap, pm, p);
    int to[NMAX][V];
    for (int l = 0; l < V; l++) {
        int at[NMAX]; /* at[j]: the block's line that ends in column j */
        for (int j = 0; j < n; j++) at[j] = j;
        for (int k = n - 1; k >= 0; k--) {
            const int q = (int)pv[k][l];
            if (q <= k || q >= n) continue;
            const int t = at[k];
            at[k] = at[q];
            at[q] = t;
        }
        for (int j = 0; j < n; j++) to[at[j]][l] = j;
    }
    for (int a = 0; a < n; a++) {
        R *q[V];
        for (int l = 0; l < V; l++) q[l] = p[l] + (int64_t)to[a][l] * ld;
        unpack_line(buf + (s.trans ? (size_t)a : (size_t)a * s.r) * V, s.trans ? (size_t)s.r * V : V, q, pm, 0, n, 0);
    }
}
#endif

#ifndef PACK512
#  define inverse_cols(n, from) 0 /* the inverses interchange their columns in the block */
#endif

/* mp: the operand's map (block_run), or NULL: by lines */
static void pack(R *buf, shape s, R *const *ap, int64_t ld, const pmap *mp)
{
#ifdef PACK512
    if (pack512(buf, s, ap, ld, mp)) return;
#endif
    (void)mp;
    pack_scalar(buf, s, ap, ld);
}

static void unpack(const R *buf, shape s, int cols, R *const *ap, int64_t ld, const pmap *mp)
{
#ifdef PACK512
    unpack512(buf, s, cols, ap, ld, mp);
    return;
#endif
    (void)mp;
    unpack_scalar(buf, s, cols, ap, ld);
}

/* ---- register columns --------------------------------------------------- */

/* The solves with one right-hand side held in registers through the whole
   substitution (x[] below: n elements, no store until the end), where n is
   a compile-time constant: each solve has one instance per n = 1 .. RN
   (REG_N_CASES), reached through a table by n.  The instance unrolls every
   loop, so x[] lives in vector registers and each step of a substitution
   is one load of the factor and one multiply-add.  One column body per
   solve (rcol_tri, rcol_trmm, potrs_col, getrs_col, getrs_t) serves the
   instances, on the column in registers, and the orders above RN, on the
   column in place in the block: the same operations in the same order
   either way, so the same bits.  RN: as many
   elements as leave registers for the factor's operands (AVX-512: 32
   vector registers, 16 real elements; AVX2: 16 registers, 8; complex
   elements take two). */
#if ACROSS_VB == 64 && !BB_COMPLEX
#  define RN 16
#  define REG_N_CASES_OF(F, f)                                                                               \
      F(f, 1) F(f, 2) F(f, 3) F(f, 4) F(f, 5) F(f, 6) F(f, 7) F(f, 8) F(f, 9) F(f, 10) F(f, 11) F(f, 12)    \
      F(f, 13) F(f, 14) F(f, 15) F(f, 16)
#elif ACROSS_VB == 64 || (ACROSS_VB == 32 && !BB_COMPLEX)
#  define RN 8
#  define REG_N_CASES_OF(F, f) F(f, 1) F(f, 2) F(f, 3) F(f, 4) F(f, 5) F(f, 6) F(f, 7) F(f, 8)
#elif ACROSS_VB == 32
#  define RN 4
#  define REG_N_CASES_OF(F, f) F(f, 1) F(f, 2) F(f, 3) F(f, 4)
#else
#  define RN 0
#  define REG_N_CASES_OF(F, f)
#endif
#define REG_N_ONE(F, N) F(N)
#define REG_N_CASES(F) REG_N_CASES_OF(REG_N_ONE, F)
/* a triangle's column kernel f (trsm_reg, trmm_reg): its lower and upper
   instances for each order, and their table [lower][n] */
typedef void (*tri_reg_fn)(int, const E *, const E *, E *, E);
#define TRI_REG_FNS(f, N)                                                                                    \
    static void f##_l##N(int nb, const E *M, const E *d, E *X, E al) { f(N, nb, M, d, X, 1, al); }           \
    static void f##_u##N(int nb, const E *M, const E *d, E *X, E al) { f(N, nb, M, d, X, 0, al); }
#define TRI_REG_L(f, N) f##_l##N,
#define TRI_REG_U(f, N) f##_u##N,
#define TRI_REG_TABLE(f)                                                                                     \
    REG_N_CASES_OF(TRI_REG_FNS, f)                                                                           \
    static const tri_reg_fn f##_tab[2][RN + 1] = {{NULL, REG_N_CASES_OF(TRI_REG_U, f)},                      \
                                                  {NULL, REG_N_CASES_OF(TRI_REG_L, f)}};
#define RUNROLL _Pragma("GCC unroll 16")

INL void rcol_load(int n, E *x, const E *src)
{
    RUNROLL for (int i = 0; i < n; i++) x[i] = src[i];
}
INL void rcol_store(int n, const E *x, E *dst)
{
    RUNROLL for (int i = 0; i < n; i++) dst[i] = x[i];
}
/* x = M^-1 x by columns of M (trsm_across's order: x_k = x_k d_k final,
   then subtracted from the rows still to come) */
INL void rcol_tri(int n, E *x, const E *M, const E *d, const int lower)
{
    RUNROLL for (int q = 0; q < n; q++) {
        const int k = lower ? q : n - 1 - q;
        const E *m = M + (size_t)k * n;
        const E xk = emul(x[k], d[k]);
        x[k] = xk;
        if (lower) {
            RUNROLL for (int i = k + 1; i < n; i++) x[i] = emsub(x[i], m[i], xk);
        } else {
            RUNROLL for (int i = 0; i < k; i++) x[i] = emsub(x[i], m[i], xk);
        }
    }
}

/* ---- Cholesky ----------------------------------------------------------- */

/* L L^H of V interleaved lower triangles in place, left-looking (column j:
   its pivot from the row j of the earlier columns, then the rest of the
   column, scaled by the pivot's reciprocal).  fail[l]: the 1-based failing
   column (0: none); piv[l]: the failing pivot (real: the diagonal of a
   Hermitian matrix is).  A failed lane goes on with a pivot of 1 (its later
   columns are never unpacked). */
static void potrf_across(int n, R *buf, int *fail, R *piv)
{
    E *A = (E *)buf;
    const vec one = splat(1);
    for (int l = 0; l < V; l++) fail[l] = 0;
    for (int j = 0; j < n; j++) {
        vec d = ere(A[(size_t)j * n + j]);
        for (int k = 0; k < j; k++) d -= eabs2(A[(size_t)k * n + j]);
        /* every lane positive (the rule; NaN is not): one vector test */
        const ivec ok = d > 0, notok = ~ok;
        if (any(&notok)) {
            for (int l = 0; l < V; l++)
                if (!ok[l] && !fail[l]) {
                    fail[l] = j + 1;
                    piv[l] = d[l];
                }
            d = sel(ok, d, one); /* failed lanes: 1 */
        }
        vec s = d;
        vsqrt(&s);
        A[(size_t)j * n + j] = ereal(s);
        vec r = 1 / s;
        for (int i = j + 1; i < n; i++) {
            E y = A[(size_t)j * n + i];
            for (int k = 0; k < j; k++) y = emsubc(y, A[(size_t)k * n + j], A[(size_t)k * n + i]);
            A[(size_t)j * n + i] = escale(y, r);
        }
    }
}

/* L L^H x = b on one column x: forward, then backward substitution */
INL void potrs_col(int n, const E *L, const vec *inv, E *x)
{
    RUNROLL for (int i = 0; i < n; i++) { /* L y = b */
        E y = x[i];
        RUNROLL for (int k = 0; k < i; k++) y = emsub(y, L[(size_t)k * n + i], x[k]);
        x[i] = escale(y, inv[i]);
    }
    RUNROLL for (int i = n - 1; i >= 0; i--) { /* L^H x = y */
        E y = x[i];
        RUNROLL for (int k = i + 1; k < n; k++) y = emsubc(y, L[(size_t)i * n + k], x[k]);
        x[i] = escale(y, inv[i]);
    }
}
INL void potrs_reg(int n, int nrhs, const E *L, const vec *inv, E *B)
{
    for (int c = 0; c < nrhs; c++) {
        E x[RN + 1];
        rcol_load(n, x, B + (size_t)c * n);
        potrs_col(n, L, inv, x);
        rcol_store(n, x, B + (size_t)c * n);
    }
}
typedef void (*potrs_reg_fn)(int, const E *, const vec *, E *);
#define POTRS_REG(N)                                                                                          \
    static void potrs_reg_##N(int nrhs, const E *L, const vec *inv, E *B) { potrs_reg(N, nrhs, L, inv, B); }
REG_N_CASES(POTRS_REG)
#define POTRS_REG_T(N) potrs_reg_##N,
static const potrs_reg_fn potrs_reg_tab[RN + 1] = {NULL, REG_N_CASES(POTRS_REG_T)};

/* L L^H X = B for V interleaved factors (lower, as potrf_across leaves
   them) and right-hand sides, one column of B at a time (up to RN in
   registers). */
static void potrs_across(int n, int nrhs, const R *lbuf, R *bbuf)
{
    const E *L = (const E *)lbuf;
    E *B = (E *)bbuf;
    vec inv[NMAX]; /* the (real) diagonal's reciprocals, once */
    for (int i = 0; i < n; i++) inv[i] = 1 / ere(L[(size_t)i * n + i]);
    if (n <= RN) { /* a column in registers */
        potrs_reg_tab[n](nrhs, L, inv, B);
        return;
    }
    for (int c = 0; c < nrhs; c++) potrs_col(n, L, inv, B + (size_t)c * n);
}

/* ---- triangular solve --------------------------------------------------- */

/* trsm_across's solve of one order n (a constant in each instance): a
   column of X in registers */
INL void trsm_reg(int n, int nb, const E *M, const E *d, E *X, const int lower, E al)
{
    for (int c = 0; c < nb; c++) {
        E x[RN + 1];
        rcol_load(n, x, X + (size_t)c * n);
        RUNROLL for (int i = 0; i < n; i++) x[i] = emul(x[i], al);
        rcol_tri(n, x, M, d, lower);
        rcol_store(n, x, X + (size_t)c * n);
    }
}
TRI_REG_TABLE(trsm_reg)

/* M X = alpha X for V interleaved ka x ka triangles M (lower or upper; unit:
   the diagonal is 1 and not read) and ka x nb right-hand sides X, in place:
   substitution by columns of M (x_k final, then subtracted from the rows
   still to come), two columns of X at a time (one in registers up to RN). */
static void trsm_across(int ka, int nb, const R *mbuf, R *xbuf, int lower, int unit, E al)
{
    const E *M = (const E *)mbuf;
    E *X = (E *)xbuf;
    E d[NMAX];
    for (int i = 0; i < ka; i++) d[i] = unit ? ereal(splat(1)) : erecip(M[(size_t)i * ka + i]);
    if (ka <= RN) {
        trsm_reg_tab[lower != 0][ka](nb, M, d, X, al);
        return;
    }
    int c = 0;
    for (; c + 2 <= nb; c += 2) {
        E *x = X + (size_t)c * ka, *y = x + ka;
        for (int i = 0; i < ka; i++) {
            x[i] = emul(x[i], al);
            y[i] = emul(y[i], al);
        }
        for (int q = 0; q < ka; q++) {
            const int k = lower ? q : ka - 1 - q, i0 = lower ? k + 1 : 0, i1 = lower ? ka : k;
            const E *m = M + (size_t)k * ka;
            const E xk = emul(x[k], d[k]), yk = emul(y[k], d[k]);
            x[k] = xk;
            y[k] = yk;
            for (int i = i0; i < i1; i++) {
                x[i] = emsub(x[i], m[i], xk);
                y[i] = emsub(y[i], m[i], yk);
            }
        }
    }
    for (; c < nb; c++) {
        E *x = X + (size_t)c * ka;
        for (int i = 0; i < ka; i++) x[i] = emul(x[i], al);
        rcol_tri(ka, x, M, d, lower);
    }
}

/* ---- LU ----------------------------------------------------------------- */

/* Interchanges row k with row p[l] (> k, or k: none) of lane l in columns
   [0, ncol) of the ld-row interleaved X, by selects on rows k+1..ld-1
   (at[i]: the lanes whose p is i). */
INL void swap_rows(E *X, int ld, int ncol, int k, const ivec *at)
{
    for (int j = 0; j < ncol; j++) {
        E *x = X + (size_t)j * ld;
        const E t = x[k];
        E nk = t;
        for (int i = k + 1; i < ld; i++) {
            const E xi = x[i];
            nk = esel(at[i], xi, nk);
            x[i] = esel(at[i], t, xi);
        }
        x[k] = nk;
    }
}

/* at[i] = the lanes of p that are i (k < i < n); returns whether any lane
   of p is not k (a row to interchange). */
INL int pivot_masks(int n, int k, const vec *pk, ivec *at)
{
    const vec p = *pk;
    const ivec moved = p != splat(k);
    for (int i = k + 1; i < n; i++) at[i] = p == splat(i);
    return any(&moved);
}

/* *bad (the first singular step, 1-based, 0 if none) takes k + 1 in the
   lanes whose pivot *piv is zero or NaN. */
INL void singular_step(int k, const E *piv, vec *bad)
{
    const vec zero = splat(0), pv = eabs1(*piv); /* zero or NaN as the pivot is */
    *bad = sel((*bad == zero) & ((pv == zero) ^ (pv != pv)), splat(k + 1), *bad);
}

/* Step k's partial pivot of each lane in column ak, rows k..n-1 (small.h's
   pivot_index): the first NaN, else the first entry of largest magnitude
   (|re| + |im|); *p its row (as R), *piv its value; *bad (the first
   singular step, 1-based, 0 if none) takes k + 1 where the pivot is zero or
   NaN. */
INL void pivot_step(int n, int k, const E *ak, vec *p, E *piv, vec *bad)
{
    const vec zero = splat(0);
    vec best = splat(-1), pp = splat(k);
    E pv = ak[k];
    ivec done = zero < zero; /* a NaN found */
    for (int i = k; i < n; i++) {
        const E x = ak[i];
        const vec v = eabs1(x);
        /* (gt ^ nan: the two never meet; GCC 12 turns an | of two
           comparisons into scalar code in the cloned functions of session 5) */
        const ivec gt = v > best, nan = v != v, take = (gt ^ nan) & ~done;
        pp = sel(take, splat(i), pp);
        pv = esel(take, x, pv);
        best = sel(gt & ~done, v, best);
        done |= nan;
    }
    *p = pp;
    *piv = pv;
    singular_step(k, piv, bad);
}

/* LU with partial pivoting of V interleaved n x n matrices in place: lu.c's
   getf2 lane by lane.  Step k: the pivot is the first NaN of column k from
   row k on, else its first entry of largest magnitude; the rows are
   interchanged across all n columns (a zero pivot is at row k: none); the
   column below the pivot is scaled by the pivot's reciprocal (divided by
   it where |pivot| < safmin; left alone where it is zero); the trailing
   rank-1 update (the interchange of the trailing columns done in the same
   pass).  pv[k]: each lane's pivot row at step k (0-based, as R); info[l]:
   the first zero or NaN pivot (1-based), 0 if none.  nopiv (getrfnp): the
   pivot is the diagonal entry, no row is interchanged. */
INL void lu_across(int n, R *buf, vec *pv, int *info, const int nopiv)
{
    E *A = (E *)buf;
    const vec zero = splat(0);
    const E one = ereal(splat(1));
    vec bad = zero; /* the first singular step, 1-based */
    ivec at[NMAX];
    for (int k = 0; k < n; k++) {
        E *ak = A + (size_t)k * n;
        E piv;
        if (nopiv) { /* getrfnp: the pivot A(k,k), no interchange */
            pv[k] = splat(k);
            piv = ak[k];
            singular_step(k, &piv, &bad);
        } else
            pivot_step(n, k, ak, &pv[k], &piv, &bad);
        const int moved = pivot_masks(n, k, &pv[k], at); /* nopiv: none, at[] all clear */
        if (moved) swap_rows(A, n, k, k, at); /* the columns of L */
        /* the pivot column: interchanged, then scaled */
        const E akk = ak[k];
        ak[k] = piv;
        const vec mag = eabs1(piv);
        const ivec big = mag >= splat(R_SAFMIN), small = ~big;
        const E r = erecip(esel(big, piv, one));
        if (!any(&small)) {
            for (int i = k + 1; i < n; i++) ak[i] = emul(esel(at[i], akk, ak[i]), r);
        } else { /* a tiny, zero or NaN pivot in some lane */
            const ivec nz = mag != zero;
            for (int i = k + 1; i < n; i++) {
                const E x = esel(at[i], akk, ak[i]);
                ak[i] = esel(nz, esel(big, emul(x, r), ediv(x, esel(nz, piv, one))), x);
            }
        }
        /* the trailing columns: interchange and update */
        for (int j = k + 1; j < n; j++) {
            E *aj = A + (size_t)j * n;
            const E t = aj[k];
            if (moved) {
                E u = t;
                for (int i = k + 1; i < n; i++) {
                    const E x = aj[i];
                    u = esel(at[i], x, u);
                }
                aj[k] = u;
                for (int i = k + 1; i < n; i++) aj[i] = emsub(esel(at[i], t, aj[i]), ak[i], u);
            } else {
                for (int i = k + 1; i < n; i++) aj[i] = emsub(aj[i], ak[i], t);
            }
        }
    }
    for (int l = 0; l < V; l++) info[l] = (int)bad[l];
}

/* (two functions of one body, nopiv a constant in each: getrf's code as it
   was without it) */
static void getrf_across(int n, R *buf, vec *pv, int *info) { lu_across(n, buf, pv, info, 0); }
static void getrfnp_across(int n, R *buf, vec *pv, int *info) { lu_across(n, buf, pv, info, 1); }

/* U^T y = b, then L^T z = y (cj: U^H, L^H; a constant at each call) on one
   column x of getrs_across's right-hand sides; rd: 1 / op(U(k,k)) */
INL void getrs_t(int n, const E *A, const E *rd, E *x, const int cj)
{
    RUNROLL for (int k = 0; k < n; k++) {
        const E xk = emul(x[k], rd[k]);
        x[k] = xk;
        RUNROLL for (int j = k + 1; j < n; j++)
            x[j] = cj ? emsubc(x[j], A[(size_t)j * n + k], xk) : emsub(x[j], A[(size_t)j * n + k], xk);
    }
    RUNROLL for (int k = n - 1; k >= 0; k--) {
        const E xk = x[k];
        RUNROLL for (int j = 0; j < k; j++)
            x[j] = cj ? emsubc(x[j], A[(size_t)j * n + k], xk) : emsub(x[j], A[(size_t)j * n + k], xk);
    }
}

/* L y = P b (P applied before), then U x = y, on one column x of
   getrs_across's right-hand sides; rd: 1 / U(k,k) */
INL void getrs_col(int n, const E *A, const E *rd, E *x)
{
    RUNROLL for (int k = 0; k < n; k++) { /* L y = P b */
        const E *a = A + (size_t)k * n, xk = x[k];
        RUNROLL for (int i = k + 1; i < n; i++) x[i] = emsub(x[i], a[i], xk);
    }
    RUNROLL for (int k = n - 1; k >= 0; k--) { /* U x = y */
        const E *a = A + (size_t)k * n, xk = emul(x[k], rd[k]);
        x[k] = xk;
        RUNROLL for (int i = 0; i < k; i++) x[i] = emsub(x[i], a[i], xk);
    }
}

/* The interchange of row k with each lane's pivot row (at[i]: the lanes
   whose pivot is i > k) on a column in registers (swap_rows' selects) */
INL void rcol_swap(int n, E *x, int k, const ivec *at)
{
    const E t = x[k];
    E nk = t;
    RUNROLL for (int i = k + 1; i < n; i++) {
        const E xi = x[i];
        nk = esel(at[i], xi, nk);
        x[i] = esel(at[i], t, xi);
    }
    x[k] = nk;
}

/* getrs_across's solve of one order n (a constant in each instance), a
   column of X in registers: at[k * n + i], mv[k] the interchanges of step
   k (pivot_masks) */
INL void getrs_reg(int n, int nrhs, const E *A, const E *rd, const ivec *at, const int *mv, E *X, const int trans,
                   const int cj)
{
    for (int c = 0; c < nrhs; c++) {
        E x[RN + 1];
        rcol_load(n, x, X + (size_t)c * n);
        if (!trans) {
            RUNROLL for (int k = 0; k < n; k++) if (mv[k]) rcol_swap(n, x, k, at + (size_t)k * n);
            getrs_col(n, A, rd, x);
        } else { /* getrs_t, then P^T */
            getrs_t(n, A, rd, x, cj);
            RUNROLL for (int k = n - 1; k >= 0; k--) if (mv[k]) rcol_swap(n, x, k, at + (size_t)k * n);
        }
        rcol_store(n, x, X + (size_t)c * n);
    }
}
typedef void (*getrs_reg_fn)(int, const E *, const E *, const ivec *, const int *, E *);
#define GETRS_REG(N)                                                                                          \
    static void getrs_reg_n##N(int nrhs, const E *A, const E *rd, const ivec *at, const int *mv, E *X)       \
    {                                                                                                        \
        getrs_reg(N, nrhs, A, rd, at, mv, X, 0, 0);                                                          \
    }                                                                                                        \
    static void getrs_reg_t##N(int nrhs, const E *A, const E *rd, const ivec *at, const int *mv, E *X)       \
    {                                                                                                        \
        getrs_reg(N, nrhs, A, rd, at, mv, X, 1, 0);                                                          \
    }                                                                                                        \
    GETRS_REG_C(N)
#if BB_COMPLEX
#  define GETRS_REG_C(N)                                                                                      \
    static void getrs_reg_c##N(int nrhs, const E *A, const E *rd, const ivec *at, const int *mv, E *X)       \
    {                                                                                                        \
        getrs_reg(N, nrhs, A, rd, at, mv, X, 1, 1);                                                          \
    }
#  define GETRS_REG_CT(N) getrs_reg_c##N,
#else
#  define GETRS_REG_C(N)
#  define GETRS_REG_CT(N) getrs_reg_t##N,
#endif
REG_N_CASES(GETRS_REG)
#define GETRS_REG_NT(N) getrs_reg_n##N,
#define GETRS_REG_TT(N) getrs_reg_t##N,
static const getrs_reg_fn getrs_reg_tab[3][RN + 1] = {
    {NULL, REG_N_CASES(GETRS_REG_NT)}, {NULL, REG_N_CASES(GETRS_REG_TT)}, {NULL, REG_N_CASES(GETRS_REG_CT)}};

/* op(A) X = B for V interleaved LU factors (as getrf_across leaves them),
   pivots pv and n x nrhs right-hand sides X, in place: NoTrans P, L, U;
   Trans U^T, L^T, then P^T (ConjTrans, cj: U^H, L^H); substitution by
   columns (rows) of the factor. */
static void getrs_across(int n, int nrhs, const R *abuf, const vec *pv, R *xbuf, int trans, int cj)
{
    const E *A = (const E *)abuf;
    E *X = (E *)xbuf;
    E rd[NMAX];
    for (int k = 0; k < n; k++) rd[k] = erecip(cj ? econj(A[(size_t)k * n + k]) : A[(size_t)k * n + k]);
    if (n <= RN) { /* a column in registers */
        ivec atr[RN * RN + 1];
        int mv[RN + 1];
        for (int k = 0; k < n; k++) mv[k] = pivot_masks(n, k, &pv[k], atr + (size_t)k * n);
        getrs_reg_tab[trans ? 1 + (BB_COMPLEX && cj) : 0][n](nrhs, A, rd, atr, mv, X);
        return;
    }
    ivec at[NMAX];
    if (!trans)
        for (int k = 0; k < n; k++)
            if (pivot_masks(n, k, &pv[k], at)) swap_rows(X, n, nrhs, k, at);
    for (int c = 0; c < nrhs; c++) {
        E *x = X + (size_t)c * n;
        if (!trans) {
            getrs_col(n, A, rd, x);
        } else if (!BB_COMPLEX || !cj) { /* (real: one copy) */
            getrs_t(n, A, rd, x, 0);
        } else {
            getrs_t(n, A, rd, x, 1);
        }
    }
    if (trans)
        for (int k = n - 1; k >= 0; k--)
            if (pivot_masks(n, k, &pv[k], at)) swap_rows(X, n, nrhs, k, at);
}

/* ---- Gauss-Jordan inverse ---------------------------------------------- */

/* inv(A) of V interleaved n x n matrices in place: norm.c's gauss_jordan
   lane by lane.  Step k: the pivot of column k from row k on (the rule of
   getrf), rows k and p interchanged in every column, column k replaced by
   e_k (its old entries the multipliers c, c[k] = 0), then every column j:
   u = A(k,j) / pivot, A(k,j) = u, A(i,j) -= c[i] u; at the end the column
   interchanges in reverse.  The interchange of rows k and p is done in the
   update's pass over each column (the pivot column first), not in a pass
   of its own: the same operations in the same order, so the same bits, with
   one store an element a step instead of two.  info[l]: the first zero or
   NaN pivot (1-based; 0: none); such a lane computes on (its result is
   never unpacked).  cols 0: the column interchanges at the end left out
   (gecond: the inverse's one and infinity norms do not depend on the order
   of its columns, only the row sums' rounding does; geinv with AVX-512
   packing: unpack512_inverse places the columns). */
static void geinv_across(int n, R *buf, vec *pv, int *info, int cols)
{
    E *A = (E *)buf;
    const vec zero = splat(0);
    const E ezero = ereal(zero), one = ereal(splat(1));
    vec bad = zero;
    ivec at[NMAX];
    E c[NMAX];
    for (int k = 0; k < n; k++) {
        E *ak = A + (size_t)k * n;
        E piv;
        pivot_step(n, k, ak, &pv[k], &piv, &bad);
        const int moved = pivot_masks(n, k, &pv[k], at);
        if (moved) swap_rows(ak, n, 1, k, at); /* the pivot column */
        const E d = erecip(piv);
        for (int i = 0; i < n; i++) {
            c[i] = ak[i];
            ak[i] = ezero;
        }
        c[k] = ezero;
        ak[k] = one;
        for (int j = 0; j < n; j++) {
            E *aj = A + (size_t)j * n;
            if (!moved || j == k) {
                const E u = emul(aj[k], d);
                aj[k] = u;
                for (int i = 0; i < n; i++) aj[i] = emsub(aj[i], c[i], u);
                continue;
            }
            /* rows k and p interchanged as the column is updated */
            const E t = aj[k];
            E w = t;
            for (int i = k + 1; i < n; i++) w = esel(at[i], aj[i], w);
            const E u = emul(w, d);
            for (int i = 0; i < k; i++) aj[i] = emsub(aj[i], c[i], u);
            aj[k] = emsub(u, c[k], u);
            for (int i = k + 1; i < n; i++) aj[i] = emsub(esel(at[i], t, aj[i]), c[i], u);
        }
    }
    for (int k = n - 1; cols && k >= 0; k--) { /* column k <-> column pv[k] */
        const vec p = pv[k];
        for (int q = k + 1; q < n; q++) {
            const ivec m = p == splat(q);
            if (!any(&m)) continue;
            E *x = A + (size_t)k * n, *y = A + (size_t)q * n;
            for (int i = 0; i < n; i++) {
                const E t = x[i];
                x[i] = esel(m, y[i], t);
                y[i] = esel(m, t, y[i]);
            }
        }
    }
    for (int l = 0; l < V; l++) info[l] = (int)bad[l];
}

/* ---- triangular product, symmetric rank-k update ----------------------- */

/* x = alpha M x on one column x (trmm_across's order) */
INL void rcol_trmm(int n, E *x, const E *M, const int lower, const int unit, E al)
{
    RUNROLL for (int q = 0; q < n; q++) {
        const int k = lower ? n - 1 - q : q;
        const E *m = M + (size_t)k * n;
        const E xk = emul(x[k], al);
        if (lower) {
            RUNROLL for (int i = k + 1; i < n; i++) x[i] = emadd(x[i], m[i], xk);
        } else {
            RUNROLL for (int i = 0; i < k; i++) x[i] = emadd(x[i], m[i], xk);
        }
        x[k] = unit ? xk : emul(m[k], xk);
    }
}
/* trmm_across's product of one order n (a constant in each instance), a
   column of X in registers; unit: d == NULL (the table's signature) */
INL void trmm_reg(int n, int nb, const E *M, const E *d, E *X, const int lower, E al)
{
    for (int c = 0; c < nb; c++) {
        E x[RN + 1];
        rcol_load(n, x, X + (size_t)c * n);
        rcol_trmm(n, x, M, lower, d == NULL, al);
        rcol_store(n, x, X + (size_t)c * n);
    }
}
TRI_REG_TABLE(trmm_reg)

/* X = alpha M X for V interleaved ka x ka triangles M (lower or upper; unit:
   the diagonal is 1 and not read) and ka x nb X, in place (BLAS's trmm):
   by columns of M, each x_k (still the input) added to the rows it reaches
   that are not final yet (lower: from the last column back), then scaled;
   two columns of X at a time (one in registers up to RN). */
static void trmm_across(int ka, int nb, const R *mbuf, R *xbuf, int lower, int unit, E al)
{
    const E *M = (const E *)mbuf;
    E *X = (E *)xbuf;
    if (ka <= RN) {
        trmm_reg_tab[lower != 0][ka](nb, M, unit ? NULL : M, X, al);
        return;
    }
    int c = 0;
    for (; c + 2 <= nb; c += 2) {
        E *x = X + (size_t)c * ka, *y = x + ka;
        for (int q = 0; q < ka; q++) {
            const int k = lower ? ka - 1 - q : q, i0 = lower ? k + 1 : 0, i1 = lower ? ka : k;
            const E *m = M + (size_t)k * ka;
            const E xk = emul(x[k], al), yk = emul(y[k], al);
            for (int i = i0; i < i1; i++) {
                x[i] = emadd(x[i], m[i], xk);
                y[i] = emadd(y[i], m[i], yk);
            }
            x[k] = unit ? xk : emul(m[k], xk);
            y[k] = unit ? yk : emul(m[k], yk);
        }
    }
    for (; c < nb; c++) rcol_trmm(ka, X + (size_t)c * ka, M, lower, unit, al);
}

/* The lower triangle of C = alpha P P^T + beta C for V interleaved n x k P
   and n x n C (beta0: C = alpha P P^T, C not read): column j of C, four rows
   at a time (the row j of P loaded once for four dots).  (Complex: the
   symmetric update, as BLAS's csyrk, not the Hermitian one.) */
static void syrk_across(int n, int k, const R *pbuf, R *cbuf, E al, E be, int beta0)
{
    const E *P = (const E *)pbuf;
    E *C = (E *)cbuf;
    const E zero = ereal(splat(0));
    for (int j = 0; j < n; j++) {
        E *c = C + (size_t)j * n;
        int i = j;
        for (; i + 4 <= n; i += 4) {
            E s0 = zero, s1 = s0, s2 = s0, s3 = s0;
            for (int l = 0; l < k; l++) {
                const E *p = P + (size_t)l * n, pj = p[j];
                s0 = emadd(s0, p[i], pj);
                s1 = emadd(s1, p[i + 1], pj);
                s2 = emadd(s2, p[i + 2], pj);
                s3 = emadd(s3, p[i + 3], pj);
            }
            if (beta0) {
                c[i] = emul(al, s0);
                c[i + 1] = emul(al, s1);
                c[i + 2] = emul(al, s2);
                c[i + 3] = emul(al, s3);
            } else {
                c[i] = eadd(emul(al, s0), emul(be, c[i]));
                c[i + 1] = eadd(emul(al, s1), emul(be, c[i + 1]));
                c[i + 2] = eadd(emul(al, s2), emul(be, c[i + 2]));
                c[i + 3] = eadd(emul(al, s3), emul(be, c[i + 3]));
            }
        }
        for (; i < n; i++) {
            E s = zero;
            for (int l = 0; l < k; l++) s = emadd(s, P[(size_t)l * n + i], P[(size_t)l * n + j]);
            c[i] = beta0 ? emul(al, s) : eadd(emul(al, s), emul(be, c[i]));
        }
    }
}

/* ---- triangular inverse, L^H L ------------------------------------------ */

/* inv(L) of V interleaved lower triangles in place (unit: the diagonal is 1
   and not read), chol.c's trtri_lower lane by lane: column j from the last
   back, the inverse of the trailing block (already in place) applied to
   it, then scaled by -1/L(j,j).  info[l]: the first exactly zero diagonal
   entry (1-based; 0: none); such a lane computes on (its result is never
   unpacked). */
static void trtri_across(int n, R *buf, int unit, int *info)
{
    E *A = (E *)buf;
    const vec zero = splat(0);
    vec bad = zero;
    if (!unit)
        for (int j = 0; j < n; j++)
            bad = sel((bad == zero) & (eabs1(A[(size_t)j * n + j]) == zero), splat(j + 1), bad);
    for (int j = n - 1; j >= 0; j--) {
        E *cj = A + (size_t)j * n;
        E ajj = ereal(splat(-1));
        if (!unit) {
            const E r = erecip(cj[j]);
            cj[j] = r;
            ajj = eneg(r);
        }
        for (int k = n - 1; k > j; k--) {
            const E *ck = A + (size_t)k * n, x = cj[k];
            for (int i = k + 1; i < n; i++) cj[i] = emadd(cj[i], x, ck[i]);
            cj[k] = unit ? x : emul(x, ck[k]);
        }
        for (int i = j + 1; i < n; i++) cj[i] = emul(cj[i], ajj);
    }
    for (int l = 0; l < V; l++) info[l] = (int)bad[l];
}

/* L^H L of V interleaved lower triangles in place (its lower triangle),
   chol.c's lauum_lower lane by lane: row i from the rows >= i, which are
   still the factor (complex: the real part of L(i,i), as LAPACK's lauu2). */
static void lauum_across(int n, R *buf)
{
    E *A = (E *)buf;
    for (int i = 0; i < n; i++) {
        E *ci = A + (size_t)i * n;
        const vec aii = ere(ci[i]);
        for (int c = 0; c < i; c++) {
            E *cc = A + (size_t)c * n, s = escale(cc[i], aii);
            for (int r = i + 1; r < n; r++) s = emaddc(s, ci[r], cc[r]);
            cc[i] = s;
        }
        vec d = aii * aii;
        for (int r = i + 1; r < n; r++) d += eabs2(ci[r]);
        ci[i] = ereal(d);
    }
}

/* ---- inverse from the LU factors ----------------------------------------- */

/* inv(A) of V interleaved LU factors (getrf's, packed transposed: the block
   holds A^T, U^T in its lower triangle, L^T strictly above it) in place,
   after trtri_across has made the lower triangle inv(U)^T: LAPACK's getri
   transposed.  X L = inv(U) from the last column back is L^T Z = inv(U)^T
   from the last row back (row j of Z: row j of inv(U)^T minus the rows
   below it, final already, weighted by L(i,j), which are saved and
   cleared first); then rows j and pv[j] (getrf's interchanges) swapped
   from the last step back.  The block then holds inv(A)^T.  (The solve
   alone, getri_solve_across, where unpack512_inverse does the interchanges.) */
INL void getri_solve_across(int n, R *buf)
{
    E *A = (E *)buf;
    E w[NMAX];
    for (int j = n - 2; j >= 0; j--) {
        for (int i = j + 1; i < n; i++) {
            w[i] = A[(size_t)i * n + j];
            A[(size_t)i * n + j] = ereal(splat(0));
        }
        for (int c = 0; c < n; c++) {
            E *ac = A + (size_t)c * n, s = ac[j];
            for (int i = j + 1; i < n; i++) s = emsub(s, w[i], ac[i]);
            ac[j] = s;
        }
    }
}

static void getri_across(int n, R *buf, const vec *pv)
{
    E *A = (E *)buf;
    ivec at[NMAX];
    getri_solve_across(n, buf);
    for (int j = n - 2; j >= 0; j--)
        if (pivot_masks(n, j, &pv[j], at)) swap_rows(A, n, n, j, at);
}

/* ---- norms -------------------------------------------------------------- */

/* v = max(v, s) lane by lane, a NaN s sticking (norm.c's max_nan; the two
   comparisons never both hold) */
#define MAX_NAN(v, s) ((v) = sel(((v) < (s)) ^ ((s) != (s)), (s), (v)))

/* The norm (one, infinity, max, Frobenius) of V interleaved m x n matrices
   into out[l], norm.c's norm_cm lane by lane: sums and maxima in column
   order, a NaN sticks; the Frobenius norm is the square root of the sum of
   squares unless that sum is NaN, over- or underflows (then the largest
   magnitude itself where it is 0 or Inf, else rescaled by it). */
static void norm_across(int norm, int m, int n, const R *buf, R *out)
{
    const E *A = (const E *)buf;
    const vec zero = splat(0);
    vec v = zero;
    switch (norm) {
    case BblasOneNorm:
        for (int j = 0; j < n; j++) {
            const E *a = A + (size_t)j * m;
            vec s = zero;
            for (int i = 0; i < m; i++) s += eabs(a[i]);
            MAX_NAN(v, s);
        }
        break;
    case BblasInfNorm: {
        vec w[NMAX];
        for (int i = 0; i < m; i++) w[i] = eabs(A[i]);
        for (int j = 1; j < n; j++) {
            const E *a = A + (size_t)j * m;
            for (int i = 0; i < m; i++) w[i] += eabs(a[i]);
        }
        for (int i = 0; i < m; i++) MAX_NAN(v, w[i]);
        break;
    }
    case BblasMaxNorm:
        for (int e = 0; e < m * n; e++) {
            const vec t = eabs(A[e]);
            MAX_NAN(v, t);
        }
        break;
    default: { /* Frobenius: over the R's (complex: both parts of every element) */
        const vec *X = (const vec *)buf;
        const int len = m * n * W;
        vec s = zero, mx = zero;
        for (int e = 0; e < len; e++) {
            const vec x = X[e], t = vabs(x);
            s += x * x;
            mx = sel(t > mx, t, mx); /* NaN left out: s is NaN then */
        }
        const ivec nan = s != s, ok = (s >= splat(R_SAFMIN / R_EPS)) & (s <= splat(R_HUGE));
        const ivec edge = (mx == zero) ^ (mx == splat(INFINITY)), need = ~nan & ~ok & ~edge;
        vec r = s;
        vsqrt(&r);
        if (any(&need)) { /* rescaled by the largest magnitude: every term <= 1 */
            const vec q = 1 / sel(need, mx, splat(1));
            vec t = zero;
            for (int e = 0; e < len; e++) {
                const vec x = X[e] * q;
                t += x * x;
            }
            vsqrt(&t);
            r = sel(need, mx * t, r);
        }
        v = sel(nan, s, sel(edge & ~ok, mx, r));
        break;
    }
    }
    memcpy(out, &v, sizeof v);
}

/* ---- the block runner --------------------------------------------------- */

/* What a routine packs and runs, from its group parameters. */
typedef struct {
    int kind, n; /* the order of the packed A (trsm, trmm: of op(A); syrk: of C) */
    shape sa, sb; /* A (read, and written by the factorisations), B (sb.r == 0: none; syrk: C) */
    int64_t lda, ldb;
    int lower, unit, trans; /* trsm, trmm: op(A) lower, unit diagonal; getrs: transposed; trtri: unit */
    int cj; /* getrs: conjugate-transposed */
    int bout; /* B only written, never read (syrk with beta == 0): not packed */
    int norm; /* gecond, lange */
    R alpha, alphai, beta, betai; /* (the imaginary parts: complex) */
    pmap ma, mb; /* where pack512 finds A, B (block_run; span 0: by lines) */
    int icols; /* geinv, getri, getri_oop: the inverse's column interchanges done by the unpacking
                  (unpack512_inverse), not in the block */
} plan;

static plan plan_of(int kind, const bb_problem *gp)
{
    plan P;
    memset(&P, 0, sizeof P);
    P.kind = kind;
    P.n = gp->n;
    P.lda = gp->lda;
    P.ldb = gp->ldb;
    switch (kind) {
    case K_POTRF: case K_POTRS: case K_POSV: case K_POTI: {
        /* upper: L = U^H, packed conjugate-transposed; B^T (rhs_right): B^H, A Hermitian */
        const shape lower = {P.n, P.n, gp->uplo == BblasUpper, 0, P.n, 1, BB_COMPLEX && gp->uplo == BblasUpper};
        P.sa = lower;
        if (kind == K_POTRS || kind == K_POSV) {
            P.sb = full_shape(P.n, gp->nrhs, gp->rhs_right, 0);
            P.sb.cj = BB_COMPLEX && gp->rhs_right;
        }
        break;
    }
    case K_TRSM: case K_TRMM: { /* the left solve (product) op'(A) X = alpha B; right: X^T, op'(A) = op(A)^T */
        const int left = gp->side == BblasLeft, ka = left ? gp->m : gp->n, nb = left ? gp->n : gp->m;
        const int tr = (gp->trans != BblasNoTrans) == left;
        P.n = ka;
        P.lower = (gp->uplo == BblasLower) != tr;
        P.unit = gp->diag == BblasUnit;
        /* (ConjTrans: conj(A)^T on the left, conj(A) on the right) */
        const shape t = {ka, ka, tr, P.lower ? P.unit : -ka, P.lower ? ka : -P.unit, 1,
                         BB_COMPLEX && gp->trans == BblasConjTrans};
        P.sa = t;
        P.sb = full_shape(ka, nb, !left, 0);
        P.alpha = (R)gp->alpha[0];
        P.alphai = (R)gp->alpha[1];
        break;
    }
    case K_SYRK: { /* P = op(A), n x k; the uplo triangle of C as a lower one */
        const shape c = {P.n, P.n, gp->uplo == BblasUpper, 0, P.n, 0, 0};
        P.sa = full_shape(P.n, gp->k, gp->trans != BblasNoTrans, 0);
        P.sb = c;
        P.ldb = gp->ldc;
        P.alpha = (R)gp->alpha[0];
        P.alphai = (R)gp->alpha[1];
        P.beta = (R)gp->beta[0];
        P.betai = (R)gp->beta[1];
        P.bout = gp->beta[0] == 0 && (!BB_COMPLEX || gp->beta[1] == 0);
        break;
    }
    case K_TRTRI: case K_LAUUM: case K_POTRI: { /* the uplo triangle as a lower one */
        P.unit = kind == K_TRTRI && gp->diag == BblasUnit;
        const shape t = {P.n, P.n, gp->uplo == BblasUpper, P.unit, P.n, 1, BB_COMPLEX && gp->uplo == BblasUpper};
        P.sa = t; /* upper: U^H (inv(U)^H = inv(U^H), U U^H = L^H L with L = U^H) */
        break;
    }
    case K_GEINV: /* the stored matrix inverted as it is (inv(A^T) = inv(A)^T):
                     Ainv only written */
        P.sa = full_shape(P.n, P.n, 0, 1);
        P.sb = full_shape(P.n, P.n, 0, 0);
        P.bout = 1;
        break;
    case K_GETRI: case K_GETRI_OOP: /* A^T packed (column-major transposed, row-major as stored) */
        P.sa = full_shape(P.n, P.n, !gp->rowmajor, 1);
        if (kind == K_GETRI_OOP) P.sb = full_shape(P.n, P.n, !gp->rowmajor, 0);
        P.bout = 1;
        break;
    case K_GECOND: case K_LANGE: /* A read only; one value a lane written (y) */
        P.sa = full_shape(kind == K_LANGE ? gp->m : P.n, P.n, 0, 1);
        P.norm = gp->norm;
        break;
    default: /* getrf, getrfnp, getrs, gesv: row-major packed transposed */
        P.sa = full_shape(P.n, P.n, gp->rowmajor, 1);
        if (kind != K_GETRF && kind != K_GETRFNP) P.sb = full_shape(P.n, gp->nrhs, gp->rowmajor, 0);
        P.trans = kind == K_GETRS && gp->trans != BblasNoTrans;
        P.cj = BB_COMPLEX && kind == K_GETRS && gp->trans == BblasConjTrans;
        break;
    }
    P.icols = kind == K_GEINV ? inverse_cols(P.n, 0)
              : kind == K_GETRI ? inverse_cols(P.n, 12) && P.sa.trans
              : kind == K_GETRI_OOP ? inverse_cols(P.n, 12) && P.sb.trans : 0;
    return P;
}

/* Scratch of one block, in R (64-byte aligned). */
static size_t block_elems(const plan *P)
{
    return (((size_t)P->sa.r * P->sa.c + (size_t)P->sb.r * P->sb.c) * W + (size_t)P->n) * V;
}

/* A failed Cholesky lane (column k, 1-based): LAPACK's partial result, the
   columns before k and the failing pivot at A(k,k). */
static void unpack_failed(const R *buf, const plan *P, int l, R *a, int k, R pivot)
{
    R *one[V] = {NULL};
    one[l] = a;
    unpack(buf, P->sa, k - 1, one, P->lda, NULL);
    R *d = a + ((k - 1) + (size_t)(k - 1) * P->lda) * W;
    d[0] = pivot;
    if (W == 2) d[1] = 0;
}

/* V problems (lane l: ap[l], bp[l], ip[l]; ap[l] NULL: none) through the
   routine's kernels; code[l]: the lane's info.  buf: block_elems(P). */
static void block_one(const plan *P, R *buf, R *const *ap, R *const *bp, int *const *ip, int *code)
{
    const int n = P->n, factor = P->kind == K_POTRF || P->kind == K_POSV || P->kind == K_GETRF ||
                                 P->kind == K_GESV || P->kind == K_GETRFNP;
    R *bbuf = buf + (size_t)P->sa.r * P->sa.c * W * V;
    vec *pv = (vec *)(bbuf + (size_t)P->sb.r * P->sb.c * W * V);
    R piv[V], val[V], val2[V];
    for (int l = 0; l < V; l++) code[l] = 0;
    pack(buf, P->sa, ap, P->lda, &P->ma);
    if (P->sb.r && !P->bout) pack(bbuf, P->sb, bp, P->ldb, &P->mb);
    switch (P->kind) {
    case K_POTRF: case K_POSV: potrf_across(n, buf, code, piv); break;
    case K_POTI: { /* potrf, the failed lanes' partial results out, then potri */
        potrf_across(n, buf, code, piv);
        for (int l = 0; l < V; l++)
            if (ap[l] && code[l]) unpack_failed(buf, P, l, ap[l], code[l], piv[l]);
        /* a factor has a positive (or +Inf) diagonal: trtri finds no zero
           in a lane whose potrf succeeded, so it reports nothing new */
        int tcode[V];
        trtri_across(n, buf, 0, tcode);
        break;
    }
    case K_GETRF: case K_GESV: getrf_across(n, buf, pv, code); break;
    case K_GETRFNP: getrfnp_across(n, buf, pv, code); break;
    case K_GEINV: geinv_across(n, buf, pv, code, !P->icols); break;
    case K_TRTRI: case K_POTRI: trtri_across(n, buf, P->unit, code); break;
    case K_GECOND: /* ||A||, the inverse, ||inv(A)|| */
        norm_across(P->norm, n, n, buf, val);
        geinv_across(n, buf, pv, code, 0);
        norm_across(P->norm, n, n, buf, val2);
        for (int l = 0; l < V; l++) val[l] = code[l] ? (R)INFINITY : val[l] * val2[l];
        break;
    case K_LANGE: norm_across(P->norm, P->sa.r, n, buf, val); break;
    case K_GETRS: case K_GETRI: case K_GETRI_OOP: /* the caller's pivots, lane by lane */
        for (int k = 0; k < n; k++)
            for (int l = 0; l < V; l++) pv[k][l] = ip[l] ? (R)(ip[l][k] - 1) : (R)k;
        if (P->kind != K_GETRS) trtri_across(n, buf, 0, code); /* inv(U)^T: info, an exactly zero U(k,k) */
        break;
    default: break;
    }
    switch (P->kind) {
    case K_GETRI: case K_GETRI_OOP: /* column-major: the block is A^T, its rows the columns */
        if (P->icols) getri_solve_across(n, buf);
        else getri_across(n, buf, pv);
        break;
    case K_POTRS: case K_POSV: potrs_across(n, P->sb.c, buf, bbuf); break;
    case K_GETRS: case K_GESV: getrs_across(n, P->sb.c, buf, pv, bbuf, P->trans, P->cj); break;
    case K_TRSM: trsm_across(n, P->sb.c, buf, bbuf, P->lower, P->unit, esplat(P->alpha, P->alphai)); break;
    case K_TRMM: trmm_across(n, P->sb.c, buf, bbuf, P->lower, P->unit, esplat(P->alpha, P->alphai)); break;
    case K_SYRK:
        syrk_across(n, P->sa.c, buf, bbuf, esplat(P->alpha, P->alphai), esplat(P->beta, P->betai), P->bout);
        break;
    case K_LAUUM: case K_POTRI: case K_POTI: lauum_across(n, buf); break;
    default: break;
    }
    R *oka[V], *okb[V]; /* a failed factorisation leaves B alone */
    for (int l = 0; l < V; l++) {
        oka[l] = code[l] ? NULL : ap[l];
        okb[l] = code[l] ? NULL : bp[l];
    }
    if (P->kind == K_POTRF || P->kind == K_POSV) {
        unpack(buf, P->sa, n, oka, P->lda, &P->ma);
        for (int l = 0; l < V; l++)
            if (ap[l] && code[l]) unpack_failed(buf, P, l, ap[l], code[l], piv[l]);
    } else if (P->kind == K_TRTRI || P->kind == K_LAUUM || P->kind == K_POTRI || P->kind == K_POTI ||
               (P->kind == K_GETRI && !P->icols)) {
        unpack(buf, P->sa, n, oka, P->lda, &P->ma); /* a singular lane: left alone (poti: unpacked above) */
    } else if (factor) { /* LU: every lane's factors and pivots (getrfnp: none) */
        unpack(buf, P->sa, n, ap, P->lda, &P->ma);
        if (P->kind != K_GETRFNP)
            for (int l = 0; l < V; l++)
                if (ap[l])
                    for (int k = 0; k < n; k++) ip[l][k] = (int)pv[k][l] + 1;
    }
    /* geinv, getri_oop: the inverse is the block of A */
    if (P->icols) { /* into A (getri) or B; a singular lane: left alone */
#ifdef PACK512
        const int in_a = P->kind == K_GETRI;
        unpack512_inverse(buf, in_a ? P->sa : P->sb, in_a ? oka : okb, in_a ? P->lda : P->ldb, pv);
#endif
    } else if (P->sb.r)
        unpack(P->kind == K_GEINV || P->kind == K_GETRI_OOP ? buf : bbuf, P->sb, P->sb.c, okb, P->ldb, &P->mb);
    if (P->kind == K_GECOND || P->kind == K_LANGE) /* bp: the values */
        for (int l = 0; l < V; l++)
            if (ap[l]) bp[l][0] = val[l];
}

/* Problems [i0, i0 + cnt) of a group, V at a time (bb_cpu_across.run). */
static int64_t block_run(const bb_problem *gp, const bb_views *v, int64_t i0, int64_t cnt, int *pinfo,
                         bb_work *w, int kind)
{
    plan P = plan_of(kind, gp);
    map_of(P.sa, P.lda, &P.ma);
    if (P.sb.r) map_of(P.sb, P.ldb, &P.mb);
    R *buf = bb_work_get(w, block_elems(&P) * sizeof(R) + 64);
    if (!buf) return -1;
    buf = (R *)(((uintptr_t)buf + 63) & ~(uintptr_t)63);
    const int sb = P.sb.r != 0, sp = kind == K_GETRF || kind == K_GETRS || kind == K_GESV || kind == K_GETRI ||
                                    kind == K_GETRI_OOP;
    const int sy = kind == K_GECOND || kind == K_LANGE; /* bp: the value y */
    const bb_opview *vb = kind == K_SYRK ? &v->c : sy ? &v->y : &v->b;
    for (int64_t b0 = 0; b0 < cnt; b0 += V) {
        const int m = cnt - b0 < V ? (int)(cnt - b0) : V;
        R *ap[V], *bp[V];
        int *ip[V], code[V];
        for (int l = 0; l < V; l++) {
            int64_t i = i0 + b0 + l;
            int on = l < m && !pinfo[i];
            ap[l] = on ? (R *)bb_view_ptr(&v->a, i) : NULL;
            bp[l] = on && (sb || sy) ? (R *)bb_view_ptr(vb, i) : NULL;
            ip[l] = on && sp ? (int *)bb_view_ptr(&v->ipiv, i) : NULL;
        }
        block_one(&P, buf, ap, bp, ip, code);
        for (int l = 0; l < m; l++)
            if (ap[l] && code[l]) pinfo[i0 + b0 + l] = code[l];
    }
    return 0;
}

#define RUNNER(name, kind)                                                                                  \
    static int64_t name(const bb_problem *gp, const bb_views *v, int64_t i0, int64_t cnt, int *pinfo,      \
                        bb_work *w)                                                                         \
    {                                                                                                       \
        return block_run(gp, v, i0, cnt, pinfo, w, kind);                                                   \
    }
RUNNER(potrf_run, K_POTRF)
RUNNER(potrs_run, K_POTRS)
RUNNER(posv_run, K_POSV)
RUNNER(trsm_run, K_TRSM)
RUNNER(getrf_run, K_GETRF)
RUNNER(getrs_run, K_GETRS)
RUNNER(gesv_run, K_GESV)
RUNNER(syrk_run, K_SYRK)
RUNNER(trmm_run, K_TRMM)
RUNNER(trtri_run, K_TRTRI)
RUNNER(lauum_run, K_LAUUM)
RUNNER(potri_run, K_POTRI)
RUNNER(poti_run, K_POTI)
RUNNER(geinv_run, K_GEINV)
RUNNER(getri_run, K_GETRI)
RUNNER(getri_oop_run, K_GETRI_OOP)
RUNNER(gecond_run, K_GECOND)
RUNNER(lange_run, K_LANGE)
RUNNER(getrfnp_run, K_GETRFNP)

/* the runner of a kind (across.h) */
bb_cpu_across XI(across_kind)(int kind)
{
    static const bb_cpu_across runners[K_COUNT] = {
        [K_POTRF] = {potrf_run},   [K_POTRS] = {potrs_run},     [K_POSV] = {posv_run},
        [K_TRSM] = {trsm_run},     [K_GETRF] = {getrf_run},     [K_GETRS] = {getrs_run},
        [K_GESV] = {gesv_run},     [K_SYRK] = {syrk_run},       [K_TRMM] = {trmm_run},
        [K_TRTRI] = {trtri_run},   [K_LAUUM] = {lauum_run},     [K_POTRI] = {potri_run},
        [K_POTI] = {poti_run},     [K_GEINV] = {geinv_run},     [K_GETRI] = {getri_run},
        [K_GETRI_OOP] = {getri_oop_run}, [K_GECOND] = {gecond_run}, [K_LANGE] = {lange_run},
        [K_GETRFNP] = {getrfnp_run},
    };
    return runners[kind];
}

/* One problem through the block (its lane 0, the others empty), so that a
   problem gives the same bits on every path: the one-problem kernels call
   this below the bounds (across.c).  Returns the problem's info. */
int XI(across_one)(int kind, const bb_problem *p)
{
    _Alignas(64) R buf[((NMAX * NMAX + NMAX * RMAX) * W + NMAX) * V];
    const plan P = plan_of(kind, p);
    R *ap[V] = {(R *)p->a},
      *bp[V] = {(R *)(kind == K_SYRK ? p->c : kind == K_GECOND || kind == K_LANGE ? p->y : p->b)};
    int *ip[V] = {p->ipiv}, code[V];
    block_one(&P, buf, ap, bp, ip, code);
    return code[0];
}

