/*
 * CPU kernels of the BLAS-3 family (compiled once per precision).
 *
 * Small problems (below the crossovers of cpu_policy.h) use our own code.
 * The operands are brought into one canonical form in the per-thread
 * workspace -- column-major, op() and conjugation applied, symmetric,
 * Hermitian and triangular matrices expanded to full storage (explicit
 * zeros, unit diagonal), complex data split into a real and an imaginary
 * plane -- and one register-blocked kernel (ukernel: a block of up to 3
 * vectors of rows by NR columns of the product, accumulated in vector
 * registers) does the arithmetic for every routine: mm_core for gemm, symm,
 * hemm, syrk, herk, syr2k, her2k and trmm; trsm_left (right-side solves run
 * on the transposed problem) for both the off-diagonal updates and the
 * products with its explicitly inverted small diagonal blocks.  Operands
 * that already have the needed form (no transposition; left operands: real
 * only) are read in place.  The very smallest gemm and trsm problems skip
 * all that and run plain loops on the caller's storage.  Larger problems
 * call CBLAS (OpenBLAS, single-threaded).
 *
 * BLAS semantics kept by every path: beta == 0 never reads C, alpha == 0
 * never reads A or B, syrk-type routines touch only the uplo triangle of C,
 * herk/her2k zero the imaginary part of the diagonal of C, hemm ignores the
 * imaginary part of the diagonal of A, trmm/trsm read only the uplo
 * triangle of A and, with diag Unit, not its diagonal.
 */
#include <stdint.h>
#include <string.h>
#ifdef BB_HAVE_LIBXSMM
#include <libxsmm.h>
#endif
#include "small.h"

/* The hot loop nests are compiled for the baseline and for x86-64-v3 (AVX2,
   FMA) and v4 (AVX-512); the loader picks the best the machine supports. */
#if defined(__x86_64__) && defined(__GLIBC__) && defined(__GNUC__) && !defined(__clang__) && \
    defined(__has_attribute) && !defined(BB_NO_CLONES)
#if __has_attribute(target_clones)
#define HOT __attribute__((target_clones("default", "arch=x86-64-v3", "arch=x86-64-v4")))
#endif
#endif
#ifndef HOT
#define HOT
#endif
#define INLINE static inline __attribute__((always_inline))

/* the crossovers of this precision (cpu_policy.h) */
#if BB_COMPLEX
#define SYMM_MAX BB_CPU_SYMM_OWN_MAX_MNK_C
#define SYRK_MAX BB_CPU_SYRK_OWN_MAX_NNK_C
#define SYR2K_MAX BB_CPU_SYR2K_OWN_MAX_NNK_C
#define TRMM_LEFT_MAX BB_CPU_TRMM_LEFT_OWN_MAX_MNK_C
#define TRMM_RIGHT_MAX BB_CPU_TRMM_RIGHT_OWN_MAX_MNK_C
#define TRSM_LEFT_MAX BB_CPU_TRSM_LEFT_OWN_MAX_MNK_C
#define TRSM_LEFT_MIN BB_CPU_TRSM_LEFT_OWN_MIN_MNK_C
#define TRSM_RIGHT_MAX BB_CPU_TRSM_RIGHT_OWN_MAX_MNK_C
#define TRSM_TINY BB_CPU_TRSM_TINY_MNK_C
#else
#define SYMM_MAX BB_CPU_SYMM_OWN_MAX_MNK_R
#if defined(BB_PREC_S)
#define SYRK_MAX BB_CPU_SYRK_OWN_MAX_NNK_S
#else
#define SYRK_MAX BB_CPU_SYRK_OWN_MAX_NNK_D
#endif
#define SYR2K_MAX BB_CPU_SYR2K_OWN_MAX_NNK_R
#define TRMM_LEFT_MAX BB_CPU_TRMM_LEFT_OWN_MAX_MNK_R
#define TRMM_RIGHT_MAX BB_CPU_TRMM_RIGHT_OWN_MAX_MNK_R
#if defined(BB_PREC_S)
#define TRSM_LEFT_MAX BB_CPU_TRSM_LEFT_OWN_MAX_MNK_S
#else
#define TRSM_LEFT_MAX BB_CPU_TRSM_LEFT_OWN_MAX_MNK_D
#endif
#define TRSM_LEFT_MIN BB_CPU_TRSM_LEFT_OWN_MIN_MNK_R
#define TRSM_RIGHT_MAX BB_CPU_TRSM_RIGHT_OWN_MAX_MNK_R
#define TRSM_TINY BB_CPU_TRSM_TINY_MNK_R
#endif

#if BB_COMPLEX
#define NPLANE 2
#if defined(BB_PREC_C)
#define MK(re, im) CMPLXF((re), (im))
#else
#define MK(re, im) CMPLX((re), (im))
#endif
#else
#define NPLANE 1
#define MK(re, im) ((T)(re))
#endif

/* Vectors of 32 bytes (GNU C vector extension): 4 doubles or 8 floats.  The
   micro-kernel computes MR = nv*VL rows (nv = 1, 2 or 3 vectors; complex: 1)
   by NR columns. */
typedef R vR __attribute__((vector_size(32)));
#define VL ((int)(sizeof(vR) / sizeof(R)))
#define NR 4
#define MRMAX (3 * VL)

/* unaligned load and store (macros: no vector crosses a function boundary) */
#define VLD(v, p) memcpy(&(v), (p), sizeof(vR))
#define VST(p, v) memcpy((p), &(v), sizeof(vR))

/*
 * A matrix operand: element (i, l) is re[i*step + l*ld] (+ i*im[...]).
 * Left operands of the product (rows loaded as vectors) have step 1;
 * padded: the rows up to the next multiple of the row block exist and are
 * zero (else the last, partial block is copied into scratch).  Right
 * operands are read one scalar at a time: step 2 reads a complex matrix in
 * the caller's storage (im = re + 1).
 */
typedef struct {
    const R *re, *im;
    int64_t ld;
    int step, padded;
} mat_t;

/* Per-call scratch: zeros (stand-in for the columns beyond n) and room for
   one partial row block of an unpadded left operand. */
typedef struct {
    const R *zero;
    R *edge;
} scr_t;

static inline int imin(int a, int b) { return a < b ? a : b; }
static inline int imax(int a, int b) { return a > b ? a : b; }
static inline int64_t round_up(int64_t x, int64_t q) { return (x + q - 1) / q * q; }
/* rows of the row blocks of an m-row left operand */
static inline int row_block(int m) { return (BB_COMPLEX || m <= VL) ? VL : m <= 2 * VL ? 2 * VL : 3 * VL; }
/* trsm: rows of the diagonal blocks (inverted explicitly, so kept small) */
static inline int trsm_block(int m) { return (BB_COMPLEX || m <= VL) ? VL : 2 * VL; }
/* vectors needed for a block of mb rows */
static inline int vectors(int mb) { return (mb + VL - 1) / VL; }

/* Scratch from the workspace: n elements of R per plane. */
static inline R *take(R **ws, size_t n)
{
    R *p = *ws;
    *ws += n * NPLANE;
    return p;
}

static inline mat_t planes(R *d, size_t plane, int64_t ld)
{
    return (mat_t){d, d + (BB_COMPLEX ? plane : 0), ld, 1, 1};
}

/* ------------------------------------------------------------- packing */

/* dst(i, l) = op(S)(i, l) for an r x c result, into planes (d, d + plane)
   with leading dimension ld. */
HOT static void pack(const T *restrict S, int64_t lds, int op, int r, int c, R *restrict d,
                     size_t plane, int64_t ld)
{
#if BB_COMPLEX
    R sg = op == BblasConjTrans ? (R)-1 : (R)1;
#else
    (void)plane;
#endif
    for (int l = 0; l < c; l++) {
        R *restrict pr = d + l * ld;
        if (op == BblasNoTrans) {
            const R *restrict s = (const R *)(S + l * lds);
#if BB_COMPLEX
            R *restrict pi = pr + plane;
            for (int i = 0; i < r; i++) {
                pr[i] = s[2 * i];
                pi[i] = s[2 * i + 1];
            }
#else
            for (int i = 0; i < r; i++) pr[i] = s[i];
#endif
        } else {
            const T *s = S + l; /* row l of S is column l of op(S) */
            for (int i = 0; i < r; i++) {
                pr[i] = REAL(s[i * lds]);
#if BB_COMPLEX
                pr[plane + i] = sg * IMAG(s[i * lds]);
#endif
            }
        }
    }
}

/* zero rows r..ld-1 of the c columns of planes d */
static void pad_rows(R *d, size_t plane, int r, int64_t ld, int c)
{
    if (r >= ld) return;
    for (int l = 0; l < c; l++)
        for (int q = 0; q < NPLANE; q++) memset(d + q * plane + l * ld + r, 0, (size_t)(ld - r) * sizeof(R));
}

/* op(S), r x c, packed with leading dimension ld >= r */
static mat_t pack_op(const T *S, int64_t lds, int op, int r, int c, int64_t ld, R **ws)
{
    size_t plane = (size_t)ld * c;
    R *d = take(ws, plane);
    pack(S, lds, op, r, c, d, plane, ld);
    pad_rows(d, plane, r, ld, c);
    return planes(d, plane, ld);
}

/* op(S) (r x c) as a left operand: the caller's storage where it already
   has that form (real, NoTrans), else packed with leading dimension ld. */
static mat_t left_operand(const T *S, int64_t lds, int op, int r, int c, int64_t ld, R **ws)
{
#if !BB_COMPLEX
    if (op == BblasNoTrans) return (mat_t){(const R *)S, NULL, lds, 1, 0};
#endif
    return pack_op(S, lds, op, r, c, ld, ws);
}

/* op(S) (r x c) as a right operand: the caller's storage when NoTrans. */
static mat_t right_operand(const T *S, int64_t lds, int op, int r, int c, R **ws)
{
    if (op == BblasNoTrans)
        return (mat_t){(const R *)S, BB_COMPLEX ? (const R *)S + 1 : NULL, lds * NPLANE, NPLANE, 0};
    return pack_op(S, lds, op, r, c, r, ws);
}

/* Full n x n symmetric (herm = 0) or Hermitian matrix from the uplo triangle
   of A, leading dimension ld >= n (padding rows zeroed). */
static mat_t pack_sym(const T *A, int64_t lda, int uplo, int n, int herm, int64_t ld, R **ws)
{
    size_t plane = (size_t)ld * n;
    R *d = take(ws, plane);
    memset(d, 0, plane * NPLANE * sizeof(R));
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            int stored = uplo == BblasUpper ? i <= j : i >= j;
            T v = stored ? A[i + j * lda] : A[j + i * lda];
            d[i + j * ld] = REAL(v);
#if BB_COMPLEX
            R im = IMAG(v);
            if (herm) im = i == j ? (R)0 : stored ? im : -im;
            d[plane + i + j * ld] = im;
#else
            (void)herm;
#endif
        }
    return planes(d, plane, ld);
}

/* A triangular n x n matrix, transposed and/or conjugated, in full: zeros
   outside the triangle, ones on the diagonal when diag is Unit (A's
   diagonal is then not read); leading dimension ld >= n.  *eu receives the
   triangle of the result. */
static mat_t pack_tri(const T *A, int64_t lda, int uplo, int transpose, int cj, int diag, int n,
                      int64_t ld, int *eu, R **ws)
{
    size_t plane = (size_t)ld * n;
    R *d = take(ws, plane);
    int up = !transpose == (uplo == BblasUpper);
    int unit = diag == BblasUnit;
#if BB_COMPLEX
    R sg = cj ? (R)-1 : (R)1;
#else
    (void)cj;
#endif
    memset(d, 0, plane * NPLANE * sizeof(R));
    *eu = up ? BblasUpper : BblasLower;
    for (int j = 0; j < n; j++) {
        int i0 = up ? 0 : j, i1 = up ? j + 1 : n;
        for (int i = i0; i < i1; i++) {
            if (i == j && unit) {
                d[i + j * ld] = 1;
                continue;
            }
            T v = transpose ? A[j + i * lda] : A[i + j * lda];
            d[i + j * ld] = REAL(v);
#if BB_COMPLEX
            d[plane + i + j * ld] = sg * IMAG(v);
#endif
        }
    }
    return planes(d, plane, ld);
}

/* --------------------------------------------------------- micro-kernel */

/*
 * acc(r, c) = sum_{l < k} A(r, l) * B_c(l) for the MR = nv*VL rows of A
 * starting at (ar, ai) (leading dimension lda) and the NR columns B_c
 * (element l at br[c][l*bs], bi[c][l*bs]).  acc is column-major with leading
 * dimension MRMAX, the imaginary block NR*MRMAX after the real one.
 * Real only: with cf != NULL the block goes straight to C instead,
 * cf = alpha*acc + beta*cf (cf: MR x NR, leading dimension ldc; not read
 * when beta0).  Inlined into the loop nests so that it is compiled for
 * each clone.
 */
INLINE void ukernel(int nv, int k, const R *ar, const R *ai, int64_t lda, const R *const *br,
                    const R *const *bi, int bs, R *acc, T *cf, int64_t ldc, R alpha, R beta,
                    int beta0)
{
    const R *b0 = br[0], *b1 = br[1], *b2 = br[2], *b3 = br[3];
    vR r0 = {0}, r1 = {0}, r2 = {0}, r3 = {0};
#if BB_COMPLEX
    /* complex: one vector of rows, real and imaginary accumulators */
    const R *e0 = bi[0], *e1 = bi[1], *e2 = bi[2], *e3 = bi[3];
    vR i0 = {0}, i1 = {0}, i2 = {0}, i3 = {0};
    (void)nv;
    for (int l = 0; l < k; l++) {
        vR x, y;
        VLD(x, ar + l * lda);
        VLD(y, ai + l * lda);
        R s, t;
        const int64_t o = (int64_t)l * bs;
        s = b0[o]; t = e0[o]; r0 += x * s; r0 -= y * t; i0 += x * t; i0 += y * s;
        s = b1[o]; t = e1[o]; r1 += x * s; r1 -= y * t; i1 += x * t; i1 += y * s;
        s = b2[o]; t = e2[o]; r2 += x * s; r2 -= y * t; i2 += x * t; i2 += y * s;
        s = b3[o]; t = e3[o]; r3 += x * s; r3 -= y * t; i3 += x * t; i3 += y * s;
    }
    R *ac = acc + NR * MRMAX;
    (void)cf;
    (void)ldc;
    (void)alpha;
    (void)beta;
    (void)beta0;
    VST(ac, i0);
    VST(ac + MRMAX, i1);
    VST(ac + 2 * MRMAX, i2);
    VST(ac + 3 * MRMAX, i3);
#else
    (void)ai;
    (void)bi;
    (void)bs; /* real operands always have unit step */
/* cp = alpha*v + beta*cp */
#define UPD(cp, v)                                                                              \
    do {                                                                                        \
        vR t_;                                                                                  \
        v *= alpha;                                                                             \
        if (!beta0) {                                                                           \
            VLD(t_, cp);                                                                        \
            v += beta * t_;                                                                     \
        }                                                                                       \
        VST(cp, v);                                                                             \
    } while (0)
    if (nv == 1) {
        for (int l = 0; l < k; l++) {
            vR x;
            VLD(x, ar + l * lda);
            r0 += x * b0[l]; r1 += x * b1[l]; r2 += x * b2[l]; r3 += x * b3[l];
        }
    } else {
        /* nv = 2 or 3 (a constant after inlining): 8 or 12 accumulators */
        vR q0 = {0}, q1 = {0}, q2 = {0}, q3 = {0}, p0 = {0}, p1 = {0}, p2 = {0}, p3 = {0};
        for (int l = 0; l < k; l++) {
            vR x, y, z;
            VLD(x, ar + l * lda);
            VLD(y, ar + l * lda + VL);
            R s;
            if (nv == 3) {
                VLD(z, ar + l * lda + 2 * VL);
                s = b0[l]; r0 += x * s; q0 += y * s; p0 += z * s;
                s = b1[l]; r1 += x * s; q1 += y * s; p1 += z * s;
                s = b2[l]; r2 += x * s; q2 += y * s; p2 += z * s;
                s = b3[l]; r3 += x * s; q3 += y * s; p3 += z * s;
            } else {
                s = b0[l]; r0 += x * s; q0 += y * s;
                s = b1[l]; r1 += x * s; q1 += y * s;
                s = b2[l]; r2 += x * s; q2 += y * s;
                s = b3[l]; r3 += x * s; q3 += y * s;
            }
        }
        if (cf) {
            UPD(cf + VL, q0);
            UPD(cf + ldc + VL, q1);
            UPD(cf + 2 * ldc + VL, q2);
            UPD(cf + 3 * ldc + VL, q3);
            if (nv == 3) {
                UPD(cf + 2 * VL, p0);
                UPD(cf + ldc + 2 * VL, p1);
                UPD(cf + 2 * ldc + 2 * VL, p2);
                UPD(cf + 3 * ldc + 2 * VL, p3);
            }
        } else {
            VST(acc + VL, q0);
            VST(acc + MRMAX + VL, q1);
            VST(acc + 2 * MRMAX + VL, q2);
            VST(acc + 3 * MRMAX + VL, q3);
            if (nv == 3) {
                VST(acc + 2 * VL, p0);
                VST(acc + MRMAX + 2 * VL, p1);
                VST(acc + 2 * MRMAX + 2 * VL, p2);
                VST(acc + 3 * MRMAX + 2 * VL, p3);
            }
        }
    }
    if (cf) {
        UPD(cf, r0);
        UPD(cf + ldc, r1);
        UPD(cf + 2 * ldc, r2);
        UPD(cf + 3 * ldc, r3);
        return;
    }
#undef UPD
#endif
    VST(acc, r0);
    VST(acc + MRMAX, r1);
    VST(acc + 2 * MRMAX, r2);
    VST(acc + 3 * MRMAX, r3);
}

/* ukernel with the block height chosen at run time, each variant inlined */
INLINE void ukernel_any(int nv, int k, const R *ar, const R *ai, int64_t lda, const R *const *br,
                        const R *const *bi, int bs, R *acc)
{
    if (nv == 1)
        ukernel(1, k, ar, ai, lda, br, bi, bs, acc, NULL, 0, 0, 0, 1);
    else if (nv == 2)
        ukernel(2, k, ar, ai, lda, br, bi, bs, acc, NULL, 0, 0, 0, 1);
    else
        ukernel(3, k, ar, ai, lda, br, bi, bs, acc, NULL, 0, 0, 0, 1);
}

/* ------------------------------------------------------------ product */

/*
 * For every column j of C and the rows i selected by ctri (0: all m rows;
 * BblasUpper: i <= j; BblasLower: i >= j):
 *     C(i,j) = alpha * sum_l A(i,l) * B(l,j) + beta * C(i,j)
 * A: m x k left operand, B: k x n right operand (see mat_t).  atri: A is
 * triangular (zeros stored): column l is nonzero only in rows [0, l]
 * (Upper) or [l, m) (Lower); btri likewise for B (column j nonzero in rows
 * [0, j] or [j, k)); both only shorten the sums.  hdiag: zero the imaginary
 * part of C(j,j).  beta == 0: C is not read.  Row blocks outer, column
 * blocks inner, so a copied partial row block is copied once.
 */
HOT static void mm_core(int m, int n, int k, mat_t A, mat_t B, T alpha, T beta, T *C,
                        int64_t ldc, int ctri, int atri, int btri, int hdiag, scr_t sc)
{
    const int mr = row_block(m);
    const R ar = REAL(alpha), br = REAL(beta);
    const int beta0 = beta == (T)0;
    R acc[NPLANE * NR * MRMAX];
#if BB_COMPLEX
    const R ai = IMAG(alpha), bi = IMAG(beta);
#else
    (void)hdiag;
#endif
    for (int ib = 0; ib < m; ib += mr) {
        /* block of mb rows, computed as hb = nv*VL >= mb rows */
        const int mb = imin(mr, m - ib), nv = vectors(mb), hb = nv * VL;
        const R *are = A.re + ib, *aim = BB_COMPLEX ? A.im + ib : NULL;
        int64_t lda = A.ld;
        if (mb < hb && !A.padded) { /* copy the partial block, zero-padded */
            R *e = sc.edge;
            for (int l = 0; l < k; l++) {
                for (int r = 0; r < mb; r++) e[r + l * hb] = are[r + l * lda];
                for (int r = mb; r < hb; r++) e[r + l * hb] = 0;
#if BB_COMPLEX
                R *f = e + (size_t)hb * k;
                for (int r = 0; r < mb; r++) f[r + l * hb] = aim[r + l * lda];
                for (int r = mb; r < hb; r++) f[r + l * hb] = 0;
#endif
            }
            are = e;
            aim = BB_COMPLEX ? e + (size_t)hb * k : NULL;
            lda = hb;
        }
        for (int jb = 0; jb < n; jb += NR) {
            const int nr = imin(NR, n - jb);
            if (ctri == BblasUpper && jb + nr - 1 < ib) continue;
            if (ctri == BblasLower && jb > ib + mb - 1) break;
            int l0 = 0, l1 = k;
            if (atri == BblasUpper) l0 = ib;
            else if (atri == BblasLower) l1 = imin(k, ib + mb);
            if (btri == BblasUpper) l1 = imin(l1, jb + nr);
            else if (btri == BblasLower) l0 = imax(l0, jb);
            const R *pr[NR], *pi[NR];
            for (int c = 0; c < NR; c++) {
                pr[c] = c < nr ? B.re + (jb + c) * B.ld + l0 * B.step : sc.zero;
                pi[c] = BB_COMPLEX && c < nr ? B.im + (jb + c) * B.ld + l0 * B.step : sc.zero;
            }
            const int kk = imax(0, l1 - l0);
            const R *a0 = are + l0 * lda, *a1 = BB_COMPLEX ? aim + l0 * lda : NULL;
#if !BB_COMPLEX
            /* a whole block inside the written part: straight to C */
            if (mb == hb && nr == NR &&
                (ctri == 0 || (ctri == BblasUpper ? ib + mb - 1 <= jb : ib >= jb + NR - 1))) {
                T *cf = C + ib + jb * ldc;
                if (nv == 1)
                    ukernel(1, kk, a0, a1, lda, pr, pi, 1, acc, cf, ldc, ar, br, beta0);
                else if (nv == 2)
                    ukernel(2, kk, a0, a1, lda, pr, pi, 1, acc, cf, ldc, ar, br, beta0);
                else
                    ukernel(3, kk, a0, a1, lda, pr, pi, 1, acc, cf, ldc, ar, br, beta0);
                continue;
            }
#endif
            ukernel_any(nv, kk, a0, a1, lda, pr, pi, B.step, acc);
            for (int c = 0; c < nr; c++) {
                const int j = jb + c;
                int r0 = 0, r1 = mb;
                if (ctri == BblasUpper) r1 = imin(mb, j - ib + 1);
                else if (ctri == BblasLower) r0 = imax(0, j - ib);
                T *cc = C + ib + j * ldc;
                const R *x = acc + c * MRMAX;
#if BB_COMPLEX
                const R *y = x + NR * MRMAX;
                R *cv = (R *)cc; /* interleaved real, imaginary */
                if (beta0) {
                    for (int r = r0; r < r1; r++) {
                        R u = ar * x[r] - ai * y[r], v = ar * y[r] + ai * x[r];
                        cv[2 * r] = u;
                        cv[2 * r + 1] = v;
                    }
                } else {
                    for (int r = r0; r < r1; r++) {
                        R cr = cv[2 * r], ci = cv[2 * r + 1];
                        R u = ar * x[r] - ai * y[r] + br * cr - bi * ci;
                        R v = ar * y[r] + ai * x[r] + br * ci + bi * cr;
                        cv[2 * r] = u;
                        cv[2 * r + 1] = v;
                    }
                }
                if (hdiag && j >= ib + r0 && j < ib + r1) C[j + j * ldc] = MK(REAL(C[j + j * ldc]), 0);
#else
                if (r0 == 0 && r1 == hb) { /* whole block: vector update */
                    for (int v = 0; v < nv; v++) {
                        vR s, t;
                        VLD(s, x + v * VL);
                        s *= ar;
                        if (!beta0) {
                            VLD(t, cc + v * VL);
                            s += br * t;
                        }
                        VST(cc + v * VL, s);
                    }
                } else if (beta0) {
                    for (int r = r0; r < r1; r++) cc[r] = ar * x[r];
                } else {
                    for (int r = r0; r < r1; r++) cc[r] = ar * x[r] + br * cc[r];
                }
#endif
            }
        }
    }
}

/* Workspace for n elements of R per plane, after the scratch for inner
   dimensions up to k; NULL if out of memory. */
static R *ws_get(bb_work *w, size_t n, int k, scr_t *sc)
{
    size_t nz = 2 * ((size_t)k + 1), ne = (size_t)MRMAX * k * NPLANE;
    R *p = (R *)bb_work_get(w, (nz + ne + n * NPLANE) * sizeof(R));
    if (!p) return NULL;
    memset(p, 0, nz * sizeof(R));
    sc->zero = p;
    sc->edge = p + nz;
    return p + nz + ne;
}

/* C = beta*C on the rows of ctri; A and B are not read (alpha == 0, k == 0) */
static int scale_c(bb_work *w, int m, int n, T beta, T *C, int64_t ldc, int ctri, int hdiag)
{
    scr_t sc;
    if (!ws_get(w, 0, 0, &sc)) return BB_INFO_NOMEM;
    mat_t none = {sc.zero, sc.zero, 0, 1, 1};
    mm_core(m, n, 0, none, none, (T)0, beta, C, ldc, ctri, 0, 0, hdiag, sc);
    return 0;
}

static inline int is_zero(const double s[2]) { return s[0] == 0 && s[1] == 0; }
/* alpha or beta as T (MK, not MAKE_T: an infinite imaginary part must not
   turn the real part into NaN) */
static inline T scalar(const double s[2]) { return MK(s[0], s[1]); }

/* ---------------------------------------------------------------- gemm */

/* Tiny gemm: straight loops on the caller's storage, no workspace. */
static void gemm_tiny(const bb_problem *p, T alpha, T beta)
{
    const T *A = p->a, *B = p->b;
    T *C = p->c;
    const int na = p->trans == BblasNoTrans, nb = p->transb == BblasNoTrans;
    const int ca = p->trans == BblasConjTrans, cb = p->transb == BblasConjTrans;
    /* op(A)(i,l) = A[i*ai + l*al], op(B)(l,j) = B[l*bl + j*bj] (conjugated if ca, cb) */
    const int64_t ai = na ? 1 : p->lda, al = na ? p->lda : 1;
    const int64_t bl = nb ? 1 : p->ldb, bj = nb ? p->ldb : 1;
    const int beta0 = beta == (T)0;
    for (int j = 0; j < p->n; j++)
        for (int i = 0; i < p->m; i++) {
            T s = 0;
            for (int l = 0; l < p->k; l++) {
                T a = A[i * ai + l * al], b = B[l * bl + j * bj];
                if (ca) a = CONJ(a);
                if (cb) b = CONJ(b);
                s += a * b;
            }
            T *c = C + i + j * p->ldc;
            *c = beta0 ? alpha * s : alpha * s + beta * *c;
        }
}

#if defined(BB_HAVE_LIBXSMM) && !BB_COMPLEX
/* LIBXSMM's JIT kernels (real precisions, alpha = 1, beta = 0 or 1, the
   case of most batched uses): a kernel per shape, generated once and kept
   by LIBXSMM; each thread remembers the last shape it asked for, so a
   uniform batch dispatches once per thread. */
typedef struct {
    int m, n, k, flags;
    int64_t lda, ldb, ldc;
    int valid;
    const void *fn;
} xsmm_last;
static __thread xsmm_last X(xsmm_cache);

/* LIBXSMM's x86 JIT code addresses an operand as base register + a 32-bit
   signed byte displacement (and moves its pointers by 32-bit immediates),
   and its descriptor keeps the leading dimensions as 32-bit integers: an
   operand whose extent ld * columns * element size reaches 2^31 bytes gets
   truncated offsets (wrong entries, or a fault: issue 10).  Such operands
   take the usual path; tests/test_limits.c checks both sides of the bound. */
static int xsmm_fits(int64_t ld, int64_t cols)
{
    return ld >= 1 && ld * cols * (int64_t)sizeof(R) <= (int64_t)INT32_MAX;
}

/* The kernel for p, or NULL (other scalars or sizes, or LIBXSMM has none:
   the problem then goes the usual way). */
static const void *xsmm_kernel(const bb_problem *p)
{
    const int beta0 = p->beta[0] == 0;
    if (p->m < 1 || p->n < 1 || p->k < 1 || p->alpha[0] != 1 || (!beta0 && p->beta[0] != 1)) return NULL;
    if (!xsmm_fits(p->lda, p->trans != BblasNoTrans ? p->m : p->k) ||
        !xsmm_fits(p->ldb, p->transb != BblasNoTrans ? p->k : p->n) || !xsmm_fits(p->ldc, p->n))
        return NULL;
    const int flags = (p->trans != BblasNoTrans ? LIBXSMM_GEMM_FLAG_TRANS_A : 0) |
                      (p->transb != BblasNoTrans ? LIBXSMM_GEMM_FLAG_TRANS_B : 0) |
                      (beta0 ? LIBXSMM_GEMM_FLAG_BETA_0 : 0);
    xsmm_last *c = &X(xsmm_cache);
    if (!c->valid || c->m != p->m || c->n != p->n || c->k != p->k || c->flags != flags || c->lda != p->lda ||
        c->ldb != p->ldb || c->ldc != p->ldc) {
        const libxsmm_blasint lda = (libxsmm_blasint)p->lda, ldb = (libxsmm_blasint)p->ldb,
                              ldc = (libxsmm_blasint)p->ldc;
        const R one = 1, beta = beta0 ? 0 : 1;
#if BB_PREC_NUM == 0
        c->fn = (const void *)libxsmm_smmdispatch(p->m, p->n, p->k, &lda, &ldb, &ldc, &one, &beta, &flags, NULL);
#else
        c->fn = (const void *)libxsmm_dmmdispatch(p->m, p->n, p->k, &lda, &ldb, &ldc, &one, &beta, &flags, NULL);
#endif
        c->m = p->m; c->n = p->n; c->k = p->k; c->flags = flags;
        c->lda = p->lda; c->ldb = p->ldb; c->ldc = p->ldc;
        c->valid = 1;
    }
    return c->fn;
}

/* Calls a kernel of xsmm_kernel (through its own, variadic, type). */
static void xsmm_run(const void *kernel, const void *a, const void *b, void *c)
{
#if BB_PREC_NUM == 0
    ((libxsmm_smmfunction)kernel)((const float *)a, (const float *)b, (float *)c);
#else
    ((libxsmm_dmmfunction)kernel)((const double *)a, (const double *)b, (double *)c);
#endif
}
#endif

#if !BB_COMPLEX
bb_cpu_direct X(cpu_direct)(bb_op op, const bb_problem *gp)
{
    bb_cpu_direct d = {NULL, NULL};
#ifdef BB_HAVE_LIBXSMM
    if (op == BB_OP_GEMM && (d.kernel = xsmm_kernel(gp)) != NULL) d.run = xsmm_run;
#else
    (void)op;
    (void)gp;
#endif
    return d;
}
#endif

int X(cpu_gemm)(bb_problem *p, bb_work *w)
{
    const T *A = p->a, *B = p->b;
    T *C = p->c;
    T alpha = scalar(p->alpha), beta = scalar(p->beta);
    int m = p->m, n = p->n, k = p->k;
    if (m == 0 || n == 0) return 0;
    if (k == 0 || is_zero(p->alpha)) return scale_c(w, m, n, beta, C, p->ldc, 0, 0);
#if defined(BB_HAVE_LIBXSMM) && !BB_COMPLEX
    const void *xk = xsmm_kernel(p);
    if (xk) {
        xsmm_run(xk, A, B, C);
        return 0;
    }
#endif
    if ((int64_t)m * n * k > BB_CPU_GEMM_OWN_MAX_MNK) {
        CBLAS(gemm)(CblasColMajor, bb_cblas_trans(p->trans), bb_cblas_trans(p->transb), m, n, k,
                    CBLAS_SCALAR(alpha), A, p->lda, B, p->ldb, CBLAS_SCALAR(beta), C, p->ldc);
        return 0;
    }
    if ((int64_t)m * n * k <= BB_CPU_GEMM_TINY_MNK) {
        gemm_tiny(p, alpha, beta);
        return 0;
    }
    int64_t mp = round_up(m, row_block(m));
    scr_t sc;
    R *ws = ws_get(w, (size_t)mp * k + (size_t)k * n, k, &sc);
    if (!ws) return BB_INFO_NOMEM;
    mat_t a = left_operand(A, p->lda, p->trans, m, k, mp, &ws);
    mat_t b = right_operand(B, p->ldb, p->transb, k, n, &ws);
    mm_core(m, n, k, a, b, alpha, beta, C, p->ldc, 0, 0, 0, 0, sc);
    return 0;
}

/* ---------------------------------------------------------- symm, hemm */

static int symm_like(bb_problem *p, bb_work *w, int herm)
{
    const T *A = p->a, *B = p->b;
    T *C = p->c;
    T alpha = scalar(p->alpha), beta = scalar(p->beta);
    int m = p->m, n = p->n, left = p->side == BblasLeft;
    int ka = left ? m : n;
    if (m == 0 || n == 0) return 0;
    if (is_zero(p->alpha)) return scale_c(w, m, n, beta, C, p->ldc, 0, 0);
    if ((int64_t)m * n * ka > SYMM_MAX) {
#if BB_COMPLEX
        if (herm) {
            CBLAS(hemm)(CblasColMajor, bb_cblas_side(p->side), bb_cblas_uplo(p->uplo), m, n,
                        CBLAS_SCALAR(alpha), A, p->lda, B, p->ldb, CBLAS_SCALAR(beta), C, p->ldc);
            return 0;
        }
#endif
        CBLAS(symm)(CblasColMajor, bb_cblas_side(p->side), bb_cblas_uplo(p->uplo), m, n,
                    CBLAS_SCALAR(alpha), A, p->lda, B, p->ldb, CBLAS_SCALAR(beta), C, p->ldc);
        return 0;
    }
    int64_t mp = round_up(m, row_block(m));
    scr_t sc;
    R *ws = ws_get(w, (size_t)mp * ka + (size_t)ka * ka, ka, &sc);
    if (!ws) return BB_INFO_NOMEM;
    if (left) { /* C = alpha * S * B */
        mat_t s = pack_sym(A, p->lda, p->uplo, m, herm, mp, &ws);
        mat_t b = right_operand(B, p->ldb, BblasNoTrans, m, n, &ws);
        mm_core(m, n, m, s, b, alpha, beta, C, p->ldc, 0, 0, 0, 0, sc);
    } else { /* C = alpha * B * S */
        mat_t b = left_operand(B, p->ldb, BblasNoTrans, m, n, mp, &ws);
        mat_t s = pack_sym(A, p->lda, p->uplo, n, herm, n, &ws);
        mm_core(m, n, n, b, s, alpha, beta, C, p->ldc, 0, 0, 0, 0, sc);
    }
    return 0;
}

int X(cpu_symm)(bb_problem *p, bb_work *w) { return symm_like(p, w, 0); }

#if BB_COMPLEX
int X(cpu_hemm)(bb_problem *p, bb_work *w) { return symm_like(p, w, 1); }
#endif

/* ---------------------------------------------------------- syrk, herk */

/* The transposition that undoes op() in syrk-type routines: T (symmetric;
   a real ConjTrans means Trans) or C (Hermitian). */
static inline int rk_adj(int herm) { return herm ? BblasConjTrans : BblasTrans; }

static int syrk_like(bb_problem *p, bb_work *w, int herm)
{
    const T *A = p->a;
    T *C = p->c;
    T alpha = scalar(p->alpha), beta = scalar(p->beta); /* herk: real (imaginary parts 0) */
    int n = p->n, k = p->k, nt = p->trans == BblasNoTrans;
    if (n == 0) return 0;
    if (k == 0 || is_zero(p->alpha)) return scale_c(w, n, n, beta, C, p->ldc, p->uplo, herm);
    /* the kernel of the fixed and strided forms (across.c), for the same bits
       (symmetric only: herk takes our own code) */
    if (!herm && X(syrk_across_fits)(p) && bb_cpu_across_on()) {
        X(syrk_across1)(p);
        return 0;
    }
    if ((int64_t)n * n * k > SYRK_MAX) {
#if BB_COMPLEX
        if (herm) {
            CBLAS(herk)(CblasColMajor, bb_cblas_uplo(p->uplo), nt ? CblasNoTrans : CblasConjTrans,
                        n, k, (R)p->alpha[0], A, p->lda, (R)p->beta[0], C, p->ldc);
            return 0;
        }
#endif
        CBLAS(syrk)(CblasColMajor, bb_cblas_uplo(p->uplo), nt ? CblasNoTrans : CblasTrans, n, k,
                    CBLAS_SCALAR(alpha), A, p->lda, CBLAS_SCALAR(beta), C, p->ldc);
        return 0;
    }
    int64_t np = round_up(n, row_block(n));
    scr_t sc;
    R *ws = ws_get(w, (size_t)np * k + (size_t)k * n, k, &sc);
    if (!ws) return BB_INFO_NOMEM;
    /* C = alpha * P * P^T (P^H) + beta*C with P = op(A), n x k */
    int adj = rk_adj(herm);
    mat_t a = left_operand(A, p->lda, nt ? BblasNoTrans : adj, n, k, np, &ws);
    mat_t b = right_operand(A, p->lda, nt ? adj : BblasNoTrans, k, n, &ws);
    mm_core(n, n, k, a, b, alpha, beta, C, p->ldc, p->uplo, 0, 0, herm, sc);
    return 0;
}

int X(cpu_syrk)(bb_problem *p, bb_work *w) { return syrk_like(p, w, 0); }

#if BB_COMPLEX
int X(cpu_herk)(bb_problem *p, bb_work *w) { return syrk_like(p, w, 1); }
#endif

/* -------------------------------------------------------- syr2k, her2k */

#if BB_COMPLEX
/* planes *= s (r x c) */
static void scale_planes(mat_t d, int r, int c, T s)
{
    R sr = REAL(s), si = IMAG(s);
    R *pr = (R *)d.re, *pi = (R *)d.im;
    for (int l = 0; l < c; l++)
        for (int i = 0; i < r; i++) {
            int64_t o = i + l * d.ld;
            R x = pr[o], y = pi[o];
            pr[o] = sr * x - si * y;
            pi[o] = sr * y + si * x;
        }
}
#endif

static int syr2k_like(bb_problem *p, bb_work *w, int herm)
{
    const T *A = p->a, *B = p->b;
    T *C = p->c;
    T alpha = scalar(p->alpha), beta = scalar(p->beta); /* her2k: beta real */
    int n = p->n, k = p->k, nt = p->trans == BblasNoTrans;
    if (n == 0) return 0;
    if (k == 0 || is_zero(p->alpha)) return scale_c(w, n, n, beta, C, p->ldc, p->uplo, herm);
    if ((int64_t)n * n * k > SYR2K_MAX) {
#if BB_COMPLEX
        if (herm) {
            CBLAS(her2k)(CblasColMajor, bb_cblas_uplo(p->uplo), nt ? CblasNoTrans : CblasConjTrans,
                         n, k, CBLAS_SCALAR(alpha), A, p->lda, B, p->ldb, (R)p->beta[0], C,
                         p->ldc);
            return 0;
        }
#endif
        CBLAS(syr2k)(CblasColMajor, bb_cblas_uplo(p->uplo), nt ? CblasNoTrans : CblasTrans, n, k,
                     CBLAS_SCALAR(alpha), A, p->lda, B, p->ldb, CBLAS_SCALAR(beta), C, p->ldc);
        return 0;
    }
    /* With P = op(A), Q = op(B) (n x k), one product of inner dimension 2k:
       syr2k: C = alpha * [P Q] * [Q^T; P^T] + beta*C
       her2k: C = [P Q] * [alpha Q^H; conj(alpha) P^H] + beta*C */
    int64_t np = round_up(n, row_block(n)), k2 = 2 * (int64_t)k;
    size_t pa = (size_t)np * k2, pb = (size_t)k2 * n;
    scr_t sc;
    R *ws = ws_get(w, pa + pb, 2 * k, &sc);
    if (!ws) return BB_INFO_NOMEM;
    int adj = rk_adj(herm), opl = nt ? BblasNoTrans : adj, opr = nt ? adj : BblasNoTrans;
    R *da = take(&ws, pa), *db = take(&ws, pb);
    pack(A, p->lda, opl, n, k, da, pa, np);
    pack(B, p->ldb, opl, n, k, da + np * k, pa, np);
    pack(B, p->ldb, opr, k, n, db, pb, k2);
    pack(A, p->lda, opr, k, n, db + k, pb, k2);
    pad_rows(da, pa, n, np, 2 * k);
    mat_t a = planes(da, pa, np), b = planes(db, pb, k2);
#if BB_COMPLEX
    if (herm) {
        scale_planes(b, k, n, alpha);
        scale_planes(planes(db + k, pb, k2), k, n, conj(alpha));
        alpha = 1;
    }
#endif
    mm_core(n, n, 2 * k, a, b, alpha, beta, C, p->ldc, p->uplo, 0, 0, herm, sc);
    return 0;
}

int X(cpu_syr2k)(bb_problem *p, bb_work *w) { return syr2k_like(p, w, 0); }

#if BB_COMPLEX
int X(cpu_her2k)(bb_problem *p, bb_work *w) { return syr2k_like(p, w, 1); }
#endif

/* ---------------------------------------------------------------- trmm */

/* B = 0 (m x n): trmm/trsm with alpha == 0 */
static void zero_b(int m, int n, T *B, int64_t ldb)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) B[i + j * ldb] = 0;
}

int X(cpu_trmm)(bb_problem *p, bb_work *w)
{
    const T *A = p->a;
    T *B = p->b;
    T alpha = scalar(p->alpha);
    int m = p->m, n = p->n, left = p->side == BblasLeft;
    int ka = left ? m : n;
    if (m == 0 || n == 0) return 0;
    if (is_zero(p->alpha)) {
        zero_b(m, n, B, p->ldb);
        return 0;
    }
    /* the kernel of the fixed and strided forms (across.c), for the same bits */
    if (X(trmm_across_fits)(p) && bb_cpu_across_on()) {
        X(trmm_across1)(p);
        return 0;
    }
    if ((int64_t)m * n * ka > (left ? TRMM_LEFT_MAX : TRMM_RIGHT_MAX)) {
        CBLAS(trmm)(CblasColMajor, bb_cblas_side(p->side), bb_cblas_uplo(p->uplo),
                    bb_cblas_trans(p->trans), bb_cblas_diag(p->diag), m, n, CBLAS_SCALAR(alpha),
                    A, p->lda, B, p->ldb);
        return 0;
    }
    int64_t mp = round_up(m, row_block(m));
    scr_t sc;
    R *ws = ws_get(w, (size_t)mp * ka + (size_t)ka * (left ? n : ka), ka, &sc);
    if (!ws) return BB_INFO_NOMEM;
    int eu, tr = p->trans != BblasNoTrans, cj = p->trans == BblasConjTrans;
    /* B is the output: the product reads a copy of it */
    if (left) { /* B = alpha * op(A) * B */
        mat_t t = pack_tri(A, p->lda, p->uplo, tr, cj, p->diag, m, mp, &eu, &ws);
        mat_t b = pack_op(B, p->ldb, BblasNoTrans, m, n, m, &ws);
        mm_core(m, n, m, t, b, alpha, (T)0, B, p->ldb, 0, eu, 0, 0, sc);
    } else { /* B = alpha * B * op(A) */
        mat_t b = pack_op(B, p->ldb, BblasNoTrans, m, n, mp, &ws);
        mat_t t = pack_tri(A, p->lda, p->uplo, tr, cj, p->diag, n, n, &eu, &ws);
        mm_core(m, n, n, b, t, alpha, (T)0, B, p->ldb, 0, 0, eu, 0, sc);
    }
    return 0;
}

/* ---------------------------------------------------------------- trsm */

/* 1/(a + ib) without needless overflow (real: 1/a) */
static inline void recip(R a, R b, R *re, R *im)
{
#if BB_COMPLEX
    if (fabs(a) >= fabs(b)) {
        R r = b / a, d = a + b * r;
        *re = 1 / d;
        *im = -r / d;
    } else {
        R r = a / b, d = b + a * r;
        *re = r / d;
        *im = -1 / d;
    }
#else
    (void)b;
    *re = 1 / a;
    *im = 0;
#endif
}

/* x[i] = -(T(i, l0..l1) x[l0..l1]) d, d = dr + i di: a row of
   invert_block's column step (re, im: the planes of T, ld apart) */
static inline void invert_row(const R *re, const R *im, R *xr, R *xi, int64_t ld, int i, int l0, int l1, R dr, R di)
{
    R sr = 0, si = 0;
    for (int l = l0; l <= l1; l++) {
        const R ar = re[i + l * ld], xl = xr[l];
#if BB_COMPLEX
        const R ai = im[i + l * ld], yl = xi[l];
        sr += ar * xl - ai * yl;
        si += ar * yl + ai * xl;
#else
        sr += ar * xl;
#endif
    }
    xr[i] = -(sr * dr - si * di);
#if BB_COMPLEX
    xi[i] = -(sr * di + si * dr);
#else
    (void)im, (void)xi;
#endif
}

/*
 * In-place inverse of the triangular nb x nb block of the planes t at
 * (b, b): column by column, x = inv(leading part) * x, then
 * x *= -inv(diagonal).  Upper: left to right; Lower: right to left.
 */
static void invert_block(mat_t t, int b, int nb, int eu)
{
    const int64_t ld = t.ld;
    R *re = (R *)t.re + b * (ld + 1);
#if BB_COMPLEX
    R *im = (R *)t.im + b * (ld + 1);
#else
    R *im = re; /* not used */
#endif
    for (int q = 0; q < nb; q++) {
        const int j = eu == BblasUpper ? q : nb - 1 - q;
        R dr, di;
        recip(re[j * (ld + 1)], BB_COMPLEX ? im[j * (ld + 1)] : 0, &dr, &di);
        re[j * (ld + 1)] = dr;
#if BB_COMPLEX
        im[j * (ld + 1)] = di;
#endif
        R *xr = re + j * ld, *xi = im + j * ld;
        /* x = inv(T) * x over the already inverted rows, in place: upper,
           rows 0 .. j-1 (row i reads x[i .. j-1]); lower, rows nb-1 down to
           j+1 (row i reads x[j+1 .. i]) */
        if (eu == BblasUpper)
            for (int i = 0; i < j; i++) invert_row(re, im, xr, xi, ld, i, i, j - 1, dr, di);
        else
            for (int i = nb - 1; i > j; i--) invert_row(re, im, xr, xi, ld, i, j + 1, i, dr, di);
    }
}

/*
 * Left: op(A) * X = B in place on the planes X (m x n, leading dimension
 * ldx), t = op(A) packed (leading dimension a multiple of trsm_block(m)),
 * its diagonal blocks of trsm_block(m) rows inverted.  Row blocks in the order of the
 * substitution: Y = X_blk - T(blk, solved) * X(solved) (ukernel), then
 * X_blk = inv(T(blk, blk)) * Y (ukernel again).
 */
HOT static void trsm_left(int m, int n, mat_t t, int eu, R *xr, R *xi, int64_t ldx, const R *zero)
{
    const int mr = trsm_block(m), nv = mr / VL, nblk = (m + mr - 1) / mr;
    R acc[NPLANE * NR * MRMAX], y[NPLANE * NR * MRMAX];
#if !BB_COMPLEX
    (void)xi;
#endif
    for (int s = 0; s < nblk; s++) {
        const int ib = (eu == BblasLower ? s : nblk - 1 - s) * mr, mb = imin(mr, m - ib);
        const int l0 = eu == BblasLower ? 0 : ib + mb, l1 = eu == BblasLower ? ib : m;
        for (int jb = 0; jb < n; jb += NR) {
            const int nr = imin(NR, n - jb);
            const R *pr[NR], *pi[NR];
            for (int c = 0; c < NR; c++) {
                pr[c] = c < nr ? xr + (jb + c) * ldx + l0 : zero;
                pi[c] = BB_COMPLEX && c < nr ? xi + (jb + c) * ldx + l0 : zero;
            }
            ukernel_any(nv, l1 - l0, t.re + ib + l0 * t.ld, BB_COMPLEX ? t.im + ib + l0 * t.ld : NULL,
                        t.ld, pr, pi, 1, acc);
            for (int c = 0; c < nr; c++) {
                const R *u = xr + ib + (jb + c) * ldx;
                for (int r = 0; r < mb; r++) y[c * MRMAX + r] = u[r] - acc[c * MRMAX + r];
#if BB_COMPLEX
                const R *v = xi + ib + (jb + c) * ldx;
                for (int r = 0; r < mb; r++)
                    y[(NR + c) * MRMAX + r] = v[r] - acc[(NR + c) * MRMAX + r];
#endif
                pr[c] = y + c * MRMAX;
                pi[c] = BB_COMPLEX ? y + (NR + c) * MRMAX : zero;
            }
            ukernel_any(nv, mb, t.re + ib * (t.ld + 1), BB_COMPLEX ? t.im + ib * (t.ld + 1) : NULL, t.ld,
                        pr, pi, 1, acc);
            for (int c = 0; c < nr; c++) {
                R *u = xr + ib + (jb + c) * ldx;
                for (int r = 0; r < mb; r++) u[r] = acc[c * MRMAX + r];
#if BB_COMPLEX
                R *v = xi + ib + (jb + c) * ldx;
                for (int r = 0; r < mb; r++) v[r] = acc[(NR + c) * MRMAX + r];
#endif
            }
        }
    }
}

/* Tiny trsm: substitution on the caller's storage, no workspace.  The
   diagonal is inverted once (dinv, at most TRSM_TINY_KA entries). */
#define TRSM_TINY_KA 8
static void trsm_tiny(const bb_problem *p, T alpha)
{
    const T *A = p->a;
    T *B = p->b;
    const int m = p->m, n = p->n, left = p->side == BblasLeft, ka = left ? m : n;
    const int nt = p->trans == BblasNoTrans, cj = p->trans == BblasConjTrans;
    /* op(A)(i,l) = A[i*ai + l*al] (conjugated if cj); its triangle */
    const int64_t ai = nt ? 1 : p->lda, al = nt ? p->lda : 1, ldb = p->ldb;
    const int up = nt == (p->uplo == BblasUpper);
    T dinv[TRSM_TINY_KA];
    for (int i = 0; i < ka; i++) {
        dinv[i] = 1;
        if (p->diag != BblasUnit) {
            T d = A[i * (ai + al)];
            R re, im;
            recip(REAL(d), IMAG(d), &re, &im);
            dinv[i] = MK(re, cj ? -im : im);
        }
    }
#define OPA(i, l) (cj ? CONJ(A[(i) * ai + (l) * al]) : A[(i) * ai + (l) * al])
    if (left) { /* column by column: op(A) * x = alpha * b */
        for (int j = 0; j < n; j++) {
            T *x = B + j * ldb;
            for (int q = 0; q < m; q++) {
                const int i = up ? m - 1 - q : q;
                T s = alpha * x[i];
                if (up)
                    for (int l = i + 1; l < m; l++) s -= OPA(i, l) * x[l];
                else
                    for (int l = 0; l < i; l++) s -= OPA(i, l) * x[l];
                x[i] = s * dinv[i];
            }
        }
    } else { /* column by column of X: X * op(A) = alpha * B */
        for (int q = 0; q < n; q++) {
            const int j = up ? q : n - 1 - q;
            T *x = B + j * ldb;
            for (int i = 0; i < m; i++) x[i] *= alpha;
            const int l0 = up ? 0 : j + 1, l1 = up ? j : n;
            for (int l = l0; l < l1; l++) {
                const T a = OPA(l, j), *y = B + l * ldb;
                for (int i = 0; i < m; i++) x[i] -= y[i] * a;
            }
            for (int i = 0; i < m; i++) x[i] *= dinv[j];
        }
    }
#undef OPA
}

int X(cpu_trsm)(bb_problem *p, bb_work *w)
{
    const T *A = p->a;
    T *B = p->b;
    T alpha = scalar(p->alpha);
    int m = p->m, n = p->n, left = p->side == BblasLeft;
    int ka = left ? m : n;
    int64_t ldb = p->ldb;
    if (m == 0 || n == 0) return 0;
    if (is_zero(p->alpha)) {
        zero_b(m, n, B, ldb);
        return 0;
    }
    /* the kernel of the fixed and strided forms (across.c), for the same bits */
    if (X(trsm_across_fits)(p) && bb_cpu_across_on()) {
        X(trsm_across1)(p);
        return 0;
    }
    const int64_t work = (int64_t)m * n * ka;
    const int tiny = work <= TRSM_TINY && ka <= TRSM_TINY_KA;
    if (!tiny && (work > (left ? TRSM_LEFT_MAX : TRSM_RIGHT_MAX) || (left && work < TRSM_LEFT_MIN))) {
        CBLAS(trsm)(CblasColMajor, bb_cblas_side(p->side), bb_cblas_uplo(p->uplo),
                    bb_cblas_trans(p->trans), bb_cblas_diag(p->diag), m, n, CBLAS_SCALAR(alpha),
                    A, p->lda, B, ldb);
        return 0;
    }
    if (tiny) {
        trsm_tiny(p, alpha);
        return 0;
    }
    /* Left: op(A) * X = alpha*B, in place on B (real) or on split planes.
       Right: X * op(A) = alpha*B is solved as op(A)^T * X^T = alpha*B^T on
       the transposed planes, op(A)^T packed as the left factor. */
    const int mt = left ? m : n, nt = left ? n : m; /* the left solve: mt x nt */
    const int64_t mp = round_up(mt, trsm_block(mt));
    const int own_x = BB_COMPLEX || !left;
    const int64_t ldx = own_x ? mt : ldb;
    scr_t sc;
    R *ws = ws_get(w, (size_t)mp * mt + (own_x ? (size_t)mt * nt : 0), mt, &sc);
    if (!ws) return BB_INFO_NOMEM;
    int eu;
    const int tr = (p->trans != BblasNoTrans) == left, cj = p->trans == BblasConjTrans;
    mat_t t = pack_tri(A, p->lda, p->uplo, tr, cj, p->diag, mt, mp, &eu, &ws);
    const int blk = trsm_block(mt);
    for (int b = 0; b < mt; b += blk) invert_block(t, b, imin(blk, mt - b), eu);
    const R ar = REAL(alpha);
    R *xr = (R *)B, *xi = NULL;
    if (own_x) {
        size_t plane = (size_t)mt * nt;
        xr = take(&ws, plane);
        pack(B, ldb, left ? BblasNoTrans : BblasTrans, mt, nt, xr, plane, mt);
        mat_t x = planes(xr, plane, mt);
        xi = (R *)x.im;
#if BB_COMPLEX
        scale_planes(x, mt, nt, alpha);
#else
        if (ar != 1)
            for (int64_t i = 0; i < (int64_t)mt * nt; i++) xr[i] *= ar;
#endif
    } else if (ar != 1) {
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++) xr[i + j * ldx] *= ar;
    }
    trsm_left(mt, nt, t, eu, xr, xi, ldx, sc.zero);
    if (own_x)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++) {
                int64_t o = left ? i + (int64_t)j * mt : j + (int64_t)i * mt;
                B[i + j * ldb] = MK(xr[o], BB_COMPLEX ? xi[o] : 0);
            }
    return 0;
}
