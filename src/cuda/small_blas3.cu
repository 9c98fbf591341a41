/*
 * Register kernel for the rest of the BLAS-3 family: symm, hemm, syrk,
 * herk, syr2k, her2k, trmm (every side/uplo/trans/diag), on the normalised
 * column-major problem; the triangle, symmetric matrix or C of order <= 32,
 * the free dimension of any size, in chunks of N inside the one launch
 * (k_blas3).  One kernel shape serves all
 * seven: an output O (m x n, rows i per thread) is
 *
 *     O = sum over terms t of  alpha_t X_t Y_t  (+ beta C),  inner dim k,
 *
 * where the operands are staged in shared memory by loaders that expand
 * them from their stored form (general, op() transposed or conjugated,
 * symmetric/Hermitian from one triangle, triangular with unit diagonal).
 * The op only chooses the loaders (host side, bb_small_blas3); the kernel
 * never branches on the op.
 *
 * Layout of the work (seed 004's thread groups, as in small.h): a group of
 * N threads (N = 4, 8, 16, 32 by size bound) handles one problem, thread i
 * accumulating row i of O in registers (acc[N]); 32/N problems per warp.
 * Per group, two shared buffers of N columns (leading dimension N + E, E
 * the elements of 16 bytes, so that every column starts 16-byte aligned):
 *   U holds X column-major: X(:, l) contiguous;
 *   V holds Y^T column-major: Y(l, :) contiguous.
 * Step l of the product: thread i reads x = alpha X(i, l) (one scalar,
 * consecutive threads on consecutive banks) and row l of Y as 16-byte
 * broadcasts, then N fused multiply-adds.  The loaders read the stored
 * matrix row t by thread t (coalesced, like small_gemm.cu) and write either
 * that row as a column of the buffer (scalar stores, conflict-free) or as
 * a row of it (the transposed placement: 16-byte stores at stride N + E,
 * conflict-free per quarter warp); the symmetric expansion writes both.
 * Group buffers are padded so that the groups of a warp fall on different
 * banks.  The shared memory is dynamic: syrk/herk use one buffer (Y^T = X
 * = op(A)), halving the footprint.
 *
 * Per op (P = op(A), Q = op(B), n x k; A_s the full symmetric/Hermitian
 * matrix; A_t the triangle with its diagonal):
 *   symm/hemm left   U = A_s,      V = B^T,       k = m
 *   symm/hemm right  U = B,        V = A_s^T,     k = n
 *   trmm left        U = op(A_t),  V = B^T,       k = m, O = B (in place)
 *   trmm right       U = B,        V = op(A_t)^T, k = n, O = B (in place)
 *   syrk/herk        U = P (V = U: Y = P^T),      O = uplo triangle of C
 *   syr2k/her2k      U = P, V = Q; terms alpha P Q^T + alpha2 Q P^T
 * Hermitian rank updates need Y = P^H: sum_l x conj(y) = conj(sum_l
 * conj(x) y), so the kernel conjugates the scalar x and the finished sum
 * (cx) instead of every y.  herk/her2k force the diagonal of C real.
 *
 * beta == 0: C is not read; alpha == 0: A and B are not read (trmm: B = 0);
 * k == 0: C = beta C on the triangle.  beta C is folded into acc by loads
 * only, then O is stored: no store between the loads of C (ld is not
 * known to the compiler, so a store would order the next load after it).
 * Every thread of a block runs the same number of grid-stride iterations
 * (small.h); problem indices are 64-bit.  Complex types run to 32 as well
 * (no spills: the register caps of b3_minb).
 */
#include <string.h>
#include "small.h"

/* one dynamic shared-memory array for every instantiation */
extern __shared__ __align__(16) unsigned char bb_blas3_dyn[];

namespace {

/* loader flags */
enum {
    F_TW = 1,     /* stored M(t, j) goes to buffer position (j, t) */
    F_CJ = 2,     /* conjugate */
    F_LOWER = 4,  /* only the lower triangle of M is read */
    F_UPPER = 8,  /* only the upper triangle of M is read */
    F_UNIT = 16,  /* unit diagonal (not read) */
    F_SYM = 32,   /* symmetric expansion of the stored triangle */
    F_HERM = 64   /* Hermitian: real diagonal, mirrored elements conjugated */
};

struct b3_load {
    bb_dev_opd o;  /* operand addressing */
    int64_t ld;
    int r, c;      /* stored rows and columns (whole matrix) */
    int flags;
    int ch;        /* CH_NONE, or the stored axis cut into chunks of N */
};

/* the chunked axis of a stored operand, and the free dimension of O */
enum { CH_NONE, CH_ROWS, CH_COLS };
enum { FREE_K, FREE_N, FREE_M }; /* rank-k: k; left trmm/symm: columns; right: rows */

template <typename T> struct b3_args {
    b3_load u, v;     /* U: X; V: Y^T (unused when nbuf == 1) */
    bb_dev_opd out;   /* O: C, or B for trmm */
    int64_t ldo;
    int m, n, k;      /* O is m x n, inner dimension k (FREE_K: its total) */
    int fm;           /* the free dimension, cut into chunks of N: FREE_* */
    int terms;        /* 1, or 2: the second term is alpha2 V U^T */
    int nbuf;         /* 2, or 1: Y^T = U */
    int tri;          /* 0: all of O, 1: lower triangle, 2: upper */
    int herm;         /* diagonal of O real */
    int cx;           /* conjugate x and the sum */
    int alpha_zero, beta_zero;
    int vshape;       /* a class launch of trmm (d.vdim): VS_LEFT or VS_RIGHT */
    T a1, a2, beta;
};

/* Per-problem sizes (trmm in the variable-size driver): the triangle of
   order m (left) or n (right), B m x n; loaders and output from vdim. */
enum { VS_NONE, VS_LEFT, VS_RIGHT };

template <typename T>
__device__ __forceinline__ void b3_resize(b3_args<T> &g, const bb_vdim &v)
{
    const bool left = g.vshape == VS_LEFT;
    g.m = v.m;
    g.n = v.n;
    g.k = left ? v.m : v.n;
    b3_load &t = left ? g.u : g.v, &b = left ? g.v : g.u;
    t.r = t.c = g.k;
    t.ld = v.lda;
    b.r = v.m;
    b.c = v.n;
    b.ld = v.ldb;
    g.ldo = v.ldb;
}

/* Buffer geometry of a group (elements): leading dimension LD, buffer
   BUF; the group stride is padded to N elements modulo 128 bytes, so the
   groups of a warp cover the banks side by side. */
template <typename T, int N> struct b3_geo {
    static constexpr int E = bb_vec<T>::E;
    static constexpr int LD = N + E;
    static constexpr int BUF = N * LD;
    static constexpr int SZ = (int)sizeof(T);
    __host__ __device__ static constexpr int stride(int nbuf)
    {
        return nbuf * BUF + ((((N * SZ) % 128 - (nbuf * BUF * SZ) % 128) % 128 + 128) % 128) / SZ;
    }
};

__device__ __forceinline__ float b3_real(float a) { return a; }
__device__ __forceinline__ double b3_real(double a) { return a; }
__device__ __forceinline__ cuFloatComplex b3_real(cuFloatComplex a) { return make_cuFloatComplex(a.x, 0.f); }
__device__ __forceinline__ cuDoubleComplex b3_real(cuDoubleComplex a) { return make_cuDoubleComplex(a.x, 0.); }

/* acc + x * y as fused multiply-adds (4 for complex) */
__device__ __forceinline__ float b3_fma(float acc, float x, float y) { return fmaf(x, y, acc); }
__device__ __forceinline__ double b3_fma(double acc, double x, double y) { return fma(x, y, acc); }
__device__ __forceinline__ cuFloatComplex b3_fma(cuFloatComplex acc, cuFloatComplex x, cuFloatComplex y)
{
    return make_cuFloatComplex(fmaf(-x.y, y.y, fmaf(x.x, y.x, acc.x)), fmaf(x.y, y.x, fmaf(x.x, y.y, acc.y)));
}
__device__ __forceinline__ cuDoubleComplex b3_fma(cuDoubleComplex acc, cuDoubleComplex x, cuDoubleComplex y)
{
    return make_cuDoubleComplex(fma(-x.y, y.y, fma(x.x, y.x, acc.x)), fma(x.y, y.x, fma(x.x, y.y, acc.y)));
}

/*
 * Loader: the stored r x c matrix M (row t read by thread t, coalesced)
 * into the group's buffer S as described by o.flags.  Outside the stored
 * matrix, and outside the read triangle, the buffer gets zeros (a unit
 * diagonal: ones); every position of the N x N buffer is written.
 */
template <typename T, int N>
__device__ __forceinline__ void b3_stage(T *S, const T *M, int t, const b3_load &o, int64_t ld, bool ok)
{
    constexpr int LD = b3_geo<T, N>::LD;
    const int f = o.flags;
    const int orr = o.r, oc = o.c;
    const bool lo = f & F_LOWER, up = f & F_UPPER, unit = f & F_UNIT, cj = f & F_CJ, herm = f & F_HERM;
    const bool tw = f & F_TW;
    const bool rowok = ok && t < orr;
    T v[N];
#pragma unroll
    for (int j = 0; j < N; j++) {
        const bool inm = !(lo && j > t) && !(up && j < t);
        T e = (rowok && j < oc && inm && !(unit && j == t)) ? M[t + j * ld] : bb_zero<T>();
        if (unit && j == t && t < orr) e = bb_one<T>();
        if (cj) e = bb_conj(e);
        if (herm && j == t) e = b3_real(e);
        v[j] = e;
    }
    if (f & F_SYM) {
        /* Thread t holds full(t, j) = v[j] for j in its stored set
           St(t) = {j <= t} (lower) or {j >= t} (upper); full(j, t) is its
           mirror.  Pass 1: row t of the buffer gets St(t).  Pass 2: thread
           t reads its own row back and writes the mirrors into column t
           (16-byte stores of whole chunks, single stores in the chunk of
           the diagonal).  Every position is written once; pass 2 reads
           and writes disjoint positions; v is dead after pass 1.  F_TW:
           the buffer is full^T, the two placements exchange their values. */
        constexpr int E = b3_geo<T, N>::E;
#pragma unroll
        for (int j = 0; j < N; j++)
            if (lo ? j <= t : j >= t) S[t + j * LD] = (tw && herm) ? bb_conj(v[j]) : v[j];
        __syncwarp(); /* also keeps the compiler from forwarding v into pass 2 */
#pragma unroll
        for (int j0 = 0; j0 < N; j0 += E) {
            const bool whole = lo ? j0 + E <= t : j0 > t, part = j0 <= t && t < j0 + E;
            if (whole || part) {
                T w[E];
#pragma unroll
                for (int e = 0; e < E; e++) {
                    const T r = (lo ? j0 + e < t : j0 + e > t) ? S[t + (j0 + e) * LD] : bb_zero<T>();
                    w[e] = herm ? bb_conj(r) : r;
                }
                if (whole) {
                    bb_st16(S + t * LD + j0, w);
                } else {
#pragma unroll
                    for (int e = 0; e < E; e++)
                        if (lo ? j0 + e < t : j0 + e > t) S[j0 + e + t * LD] = w[e];
                }
            }
        }
    } else if (tw) {
        bb_row_put<T, N>(S + t * LD, v, 0);
    } else {
#pragma unroll
        for (int j = 0; j < N; j++) S[t + j * LD] = v[j];
    }
}

/*
 * Loader of a chunked general operand (flags F_TW, F_CJ only): chunk c0 of
 * its chunked axis (at most N rows or columns from c0) into S, placed as
 * b3_stage places it, zeros outside.  PC elements of the row are loaded
 * at a time (PC = N: all loads in flight at once; less where acc is live
 * beside them), PC a multiple of E.
 */
template <typename T, int N, int PC>
__device__ __forceinline__ void b3_stage_chunk(T *S, const T *M, int t, const b3_load &o, int64_t ld, bool ok,
                                               int c0)
{
    constexpr int LD = b3_geo<T, N>::LD, E = b3_geo<T, N>::E;
    static_assert(PC % E == 0 && N % PC == 0, "piece of whole 16-byte vectors");
    const bool cj = o.flags & F_CJ, tw = o.flags & F_TW;
    int orr = o.r, oc = o.c;
    if (o.ch == CH_ROWS) {
        orr = min(N, orr - c0);
        if (ok) M += c0;
    } else {
        oc = min(N, oc - c0);
        if (ok) M += c0 * ld;
    }
    const bool rowok = ok && t < orr;
#pragma unroll (PC == N ? 1 : 2)
    for (int p0 = 0; p0 < N; p0 += PC) {
        T v[PC];
#pragma unroll
        for (int e = 0; e < PC; e++) {
            const int j = p0 + e;
            const T x = (rowok && j < oc) ? M[t + j * ld] : bb_zero<T>();
            v[e] = cj ? bb_conj(x) : x;
        }
        if (tw) {
#pragma unroll
            for (int e = 0; e < PC; e += E) bb_st16(S + t * LD + p0 + e, &v[e]);
        } else {
#pragma unroll
            for (int e = 0; e < PC; e++) S[t + (p0 + e) * LD] = v[e];
        }
    }
}

/* beta * C(i, j) as it enters the sum (Hermitian diagonal: real part of C) */
template <typename T>
__device__ __forceinline__ T b3_cterm(const T *C, int64_t off, T beta, bool dg)
{
    T c = C[off];
    if (dg) c = b3_real(c);
    return beta * c;
}

/* Blocks of 128 threads per SM that the register allocation must allow
   (registers capped at 512 / value): about the occupancy that the shared
   memory of two buffers permits, without spills (checked with -Xptxas -v;
   acc alone takes N * sizeof(T) / 4 registers). */
template <typename T, int N> struct b3_minb {
    static constexpr int A = N * (int)sizeof(T) / 4;
    static constexpr bool CPLX = sizeof(T) > sizeof(typename bb_real<T>::type);
    static constexpr int value = A <= 4 ? 16 : A <= 8 ? 12 : A <= 16 ? (CPLX && N > 4 ? 8 : 10)
                               : A <= 32 ? (CPLX && N > 8 ? 5 : 6) : A <= 64 ? (N > 16 ? 2 : 3) : 1;
};

/* O(i, j) for j < n, jlo <= j <= jhi of row i (thread i, mine):
   acc + beta C, every load before the first store (a store would order
   the next load after it: ld is not known to the compiler). */
template <typename T, int N>
__device__ __forceinline__ void b3_finish(T (&acc)[N], T *O, int64_t ldo, int i, bool mine, int n, int jlo,
                                          int jhi, const b3_args<T> &a)
{
    const bool cx = a.cx != 0;
    /* + beta C (conjugated for cx) */
    if (mine && !a.beta_zero) {
#pragma unroll
        for (int j = 0; j < N; j++)
            if (j < n && j >= jlo && j <= jhi) {
                const T c = b3_cterm(O, i + j * ldo, a.beta, a.herm && j == i);
                acc[j] = acc[j] + (cx ? bb_conj(c) : c);
            }
    }
    if (mine) {
        O = bb_launder(O); /* addresses recomputed, not kept from the loads */
#pragma unroll
        for (int j = 0; j < N; j++)
            if (j < n && j >= jlo && j <= jhi) {
                T v = cx ? bb_conj(acc[j]) : acc[j];
                if (a.herm && j == i) v = b3_real(v);
                O[i + j * ldo] = v;
            }
    }
}

/* operand o of the group's problem, NULL if it does not compute one; the
   address is recomputed at each use (not kept live across the chunks) */
template <typename E>
__device__ __forceinline__ E *b3_ptr(const bb_dev_opd &o, const bb_small_slot &s)
{
    return s.active ? bb_dev_ptr<E>(o, bb_opaque(s.pid)) : NULL;
}

/* acc += sum over the terms of alpha_t X_t Y_t over inner steps l < kin
   (the buffers as staged; cx: x conjugated) */
template <typename T, int N>
__device__ __forceinline__ void b3_product(T (&acc)[N], const T *U, const T *V, int i, int kin,
                                           const b3_args<T> &a)
{
    constexpr int LD = b3_geo<T, N>::LD, E = b3_geo<T, N>::E;
    const bool cx = a.cx != 0;
#pragma unroll 1
    for (int t = 0; t < a.terms; t++) {
        const T *xb = t ? V : U, *yb = t ? U : V;
        const T al = t ? a.a2 : a.a1;
#pragma unroll 1
        for (int l = 0; l < kin; l++) {
            T x = al * xb[i + l * LD];
            if (cx) x = bb_conj(x);
            const T *yr = yb + l * LD;
#pragma unroll
            for (int j0 = 0; j0 < N; j0 += E) {
                T y[E];
                bb_ld16(yr + j0, y);
#pragma unroll
                for (int e = 0; e < E; e++) acc[j0 + e] = b3_fma(acc[j0 + e], x, y[e]);
            }
        }
    }
}

/*
 * The free dimension (a.fm) in chunks of N, all in this launch:
 *   FREE_K (rank-k updates): U and V take columns [c0, c0 + N) of P and Q
 *     each chunk, acc sums over the chunks, O is finished once at the end;
 *     chunks after the first are loaded half a row at a time (acc is live
 *     beside them);
 *   FREE_N (left trmm/symm): U (the triangle or symmetric matrix) is
 *     staged once per problem; V takes columns [c0, c0 + N) of B; O's
 *     columns [c0, c0 + N) are finished per chunk;
 *   FREE_M (right trmm/symm): V is staged once; U takes rows [c0, c0 + N)
 *     of B; O's rows [c0, c0 + N) are finished per chunk.
 * Each chunk's loads of B come before its stores, and a chunk never reads
 * what an earlier one wrote (trmm in place: disjoint columns or rows).
 * With the free dimension <= N (one chunk) the work is the same as with
 * no chunking at all.
 */
template <typename T, int N, bool VAR>
__global__ void __launch_bounds__(128, (b3_minb<T, N>::value))
k_blas3(const bb_dev_batch d, const b3_args<T> a0, int ppb)
{
    typedef b3_geo<T, N> G;
    constexpr int E = G::E;
    constexpr int PH = N / 4 >= E ? N / 4 : E; /* a quarter row, in whole vectors */
    const int i = threadIdx.x % N, g = threadIdx.x / N;
    T *U = (T *)bb_blas3_dyn + g * (a0.nbuf == 2 ? G::stride(2) : G::stride(1));
    T *V = a0.nbuf == 2 ? U + G::BUF : U;
    for (int64_t base = (int64_t)blockIdx.x * ppb; base < d.count; base += (int64_t)gridDim.x * ppb) {
        const bb_small_slot s = bb_small_take(d, base, g);
        /* a warp whose slots are all skipped leaves them at once (the walks
           of the variable driver: k_trsm's comment, small_trsm.cu) */
        if (__all_sync(0xffffffffu, !s.active)) continue;
        /* the group's problem: its own sizes in a class launch (the loop
           counts stay the launch's, a0: the same for the whole warp) */
        b3_args<T> a = a0;
        if (VAR && s.pid < d.count) b3_resize(a, d.vdim[s.pid]);
        if (a.fm == FREE_K) {
            T acc[N];
#pragma unroll
            for (int j = 0; j < N; j++) acc[j] = bb_zero<T>();
            if (!a.alpha_zero) { /* k >= 1 */
                b3_stage_chunk<T, N, N>(U, b3_ptr<const T>(a.u.o, s), i, a.u, bb_opaque(a.u.ld), s.active, 0);
                if (a.nbuf == 2) b3_stage_chunk<T, N, N>(V, b3_ptr<const T>(a.v.o, s), i, a.v, bb_opaque(a.v.ld), s.active, 0);
                __syncwarp();
                b3_product<T, N>(acc, U, V, i, min(N, a.k), a);
#pragma unroll 1
                for (int c0 = N; c0 < a0.k; c0 += N) {
                    __syncwarp(); /* the previous chunk's reads of the buffers are done */
                    b3_stage_chunk<T, N, PH>(U, b3_ptr<const T>(a.u.o, s), i, a.u, bb_opaque(a.u.ld), s.active, c0);
                    if (a.nbuf == 2) b3_stage_chunk<T, N, PH>(V, b3_ptr<const T>(a.v.o, s), i, a.v, bb_opaque(a.v.ld), s.active, c0);
                    __syncwarp();
                    b3_product<T, N>(acc, U, V, i, min(N, a.k - c0), a);
                }
            }
            /* the columns of row i that are written */
            const int jlo = a.tri == 2 ? i : 0, jhi = a.tri == 1 ? i : a.n - 1;
            b3_finish<T, N>(acc, b3_ptr<T>(a.out, s), bb_opaque(a.ldo), i, s.active && i < a.m, a.n, jlo, jhi, a);
        } else {
            const bool left = a.fm == FREE_N;
            const int nfree = left ? a0.n : a0.m;
            /* the operand that stays (triangle or symmetric matrix): once */
            if (!a.alpha_zero) {
                if (left) b3_stage<T, N>(U, b3_ptr<const T>(a.u.o, s), i, a.u, bb_opaque(a.u.ld), s.active);
                else b3_stage<T, N>(V, b3_ptr<const T>(a.v.o, s), i, a.v, bb_opaque(a.v.ld), s.active);
            }
#pragma unroll 1
            for (int c0 = 0; c0 < nfree; c0 += N) {
                const int w = min(N, (left ? a.n : a.m) - c0);
                T acc[N];
#pragma unroll
                for (int j = 0; j < N; j++) acc[j] = bb_zero<T>();
                if (!a.alpha_zero) {
                    __syncwarp(); /* the previous chunk's reads of the buffer are done */
                    if (left) b3_stage_chunk<T, N, N>(V, b3_ptr<const T>(a.v.o, s), i, a.v, bb_opaque(a.v.ld), s.active, c0);
                    else b3_stage_chunk<T, N, N>(U, b3_ptr<const T>(a.u.o, s), i, a.u, bb_opaque(a.u.ld), s.active, c0);
                    __syncwarp();
                    b3_product<T, N>(acc, U, V, i, a.k, a);
                }
                /* this chunk of O (all of it, no triangle) */
                const int mc = left ? a.m : w, nc = left ? w : a.n;
                const int64_t ldo = bb_opaque(a.ldo);
                T *Oc = s.active ? b3_ptr<T>(a.out, s) + (left ? c0 * ldo : (int64_t)c0) : NULL;
                b3_finish<T, N>(acc, Oc, ldo, i, s.active && i < mc, nc, 0, nc - 1, a);
            }
        }
        __syncwarp();
    }
}

template <typename T, int N>
cudaError_t run_blas3(const bb_dev_batch &d, const b3_args<T> &a, batchblas_queue *q)
{
    typedef b3_geo<T, N> G;
    const int gbytes = G::stride(a.nbuf) * (int)sizeof(T);
    const int bs = bb_small_threads(N, gbytes), ppb = bs / N;
    if (d.vdim) k_blas3<T, N, true><<<bb_grid(d.count, ppb), bs, (size_t)ppb * gbytes, q->stream>>>(d, a, ppb);
    else k_blas3<T, N, false><<<bb_grid(d.count, ppb), bs, (size_t)ppb * gbytes, q->stream>>>(d, a, ppb);
    return cudaGetLastError();
}

inline b3_load mk_load(const bb_dev_opd &o, int64_t ld, int r, int c, int flags, int ch)
{
    b3_load l;
    l.o = o;
    l.ld = ld;
    l.r = r;
    l.c = c;
    l.flags = flags;
    l.ch = ch;
    return l;
}

template <typename T>
cudaError_t blas3_T(bb_op op, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    b3_args<T> a;
    memset(&a, 0, sizeof a);
    const T alpha = bb_make<T>(p.alpha[0], p.alpha[1]);
    a.a1 = a.a2 = alpha;
    a.beta = bb_make<T>(p.beta[0], p.beta[1]);
    a.alpha_zero = p.alpha[0] == 0 && p.alpha[1] == 0;
    a.beta_zero = p.beta[0] == 0 && p.beta[1] == 0;
    a.terms = 1;
    a.nbuf = 2;
    a.out = d.opd[BB_C];
    a.ldo = p.ldc;
    const bool left = p.side == BblasLeft;
    const int tmask = p.uplo == BblasLower ? F_LOWER : F_UPPER;
    switch (op) {
    case BB_OP_SYMM: case BB_OP_HEMM: {
        a.m = p.m;
        a.n = p.n;
        a.k = left ? p.m : p.n;
        a.fm = left ? FREE_N : FREE_M;
        const int sf = F_SYM | tmask | (op == BB_OP_HEMM ? F_HERM : 0);
        const b3_load b = mk_load(d.opd[BB_B], p.ldb, p.m, p.n, left ? F_TW : 0, left ? CH_COLS : CH_ROWS);
        const b3_load s = mk_load(d.opd[BB_A], p.lda, a.k, a.k, left ? sf : sf | F_TW, CH_NONE);
        a.u = left ? s : b;
        a.v = left ? b : s;
        break;
    }
    case BB_OP_TRMM: {
        a.m = p.m;
        a.n = p.n;
        a.k = left ? p.m : p.n;
        a.fm = left ? FREE_N : FREE_M;
        a.out = d.opd[BB_B];
        a.ldo = p.ldb;
        a.beta_zero = 1;
        const bool nt = p.trans == BblasNoTrans;
        const int tf = tmask | (p.diag == BblasUnit ? F_UNIT : 0) | (p.trans == BblasConjTrans ? F_CJ : 0);
        /* left: U = op(A), V = B^T; right: U = B, V = op(A)^T */
        const b3_load b = mk_load(d.opd[BB_B], p.ldb, p.m, p.n, left ? F_TW : 0, left ? CH_COLS : CH_ROWS);
        const b3_load t = mk_load(d.opd[BB_A], p.lda, a.k, a.k, (left ? !nt : nt) ? tf | F_TW : tf, CH_NONE);
        a.u = left ? t : b;
        a.v = left ? b : t;
        a.vshape = left ? VS_LEFT : VS_RIGHT;
        break;
    }
    case BB_OP_SYRK: case BB_OP_HERK: case BB_OP_SYR2K: case BB_OP_HER2K: {
        const bool herm = op == BB_OP_HERK || op == BB_OP_HER2K, two = op == BB_OP_SYR2K || op == BB_OP_HER2K;
        const bool nt = p.trans == BblasNoTrans;
        a.m = a.n = p.n;
        a.k = p.k;
        a.fm = FREE_K;
        a.tri = p.uplo == BblasLower ? 1 : 2;
        a.herm = herm;
        a.cx = herm;
        /* P = op(A) (n x k): A as stored is n x k (N) or k x n (T, C) */
        const int pf = (nt ? 0 : F_TW) | (p.trans == BblasConjTrans ? F_CJ : 0);
        const int r = nt ? p.n : p.k, c = nt ? p.k : p.n;
        /* chunks of k: columns of A (N) or rows (T, C) */
        const int ch = nt ? CH_COLS : CH_ROWS;
        a.u = mk_load(d.opd[BB_A], p.lda, r, c, pf, ch);
        if (two) {
            a.v = mk_load(d.opd[BB_B], p.ldb, r, c, pf, ch);
            a.terms = 2;
            if (herm) a.a2 = bb_make<T>(p.alpha[0], -p.alpha[1]);
        } else {
            a.nbuf = 1;
        }
        break;
    }
    default:
        return cudaErrorNotSupported;
    }
    if (d.vdim && a.vshape == VS_NONE) return cudaErrorNotSupported; /* per-problem sizes: trmm only */
    /* the order held whole (triangle, symmetric matrix, C of the rank-k
       updates); the free dimension may have any size */
    const int s = a.fm == FREE_K ? a.n : a.k;
    if (s > BB_SMALL_MAX || a.m < 0 || a.n < 0 || a.k < 0) return cudaErrorNotSupported;
    if (a.m == 0 || a.n == 0) return cudaSuccess;
    if (a.k == 0) a.alpha_zero = 1; /* syrk family: C = beta C, A and B not read */
    switch (bb_small_bound(s)) {
    case 4: return run_blas3<T, 4>(d, a, q);
    case 8: return run_blas3<T, 8>(d, a, q);
    case 16: return run_blas3<T, 16>(d, a, q);
    default: return run_blas3<T, 32>(d, a, q);
    }
}

} // namespace

cudaError_t bb_small_blas3(bb_op op, bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    BB_SMALL_BY_PREC(prec, blas3_T<T>(op, p, d, q));
}
