/* Generic CUDA kernels: every routine, any size, one entry point. */
#pragma once
#include "cuda_internal.h"

/* Runs one launch with the generic kernels (any op the table has), on
   q->stream, asynchronously.  d.opd[] are the normalised slots (the driver
   passes swap_ab = 0 with A and B already exchanged for row-major gemm); if
   p.swap_ab is still set, d.opd[BB_A] and d.opd[BB_B] are exchanged here.
   May call bb_cuda_workspace(q, ...) before launching (gecond always; potrf,
   posv, poti, getri(_oop), gecon, trsm when a matrix or vector does not fit
   in shared memory); returns cudaErrorMemoryAllocation if that fails. */
cudaError_t bb_generic_launch(bb_op op, bb_prec prec, const bb_problem &p, const bb_dev_batch &d,
                              batchblas_queue *q);
int bb_generic_supports(bb_op op, bb_prec prec);

#ifdef BB_GENERIC_INTERNAL
/*
 * Internals of generic*.cu (defined only by those files).
 *
 * Kernels (templates on T, instantiated for float, double, cuFloatComplex,
 * cuDoubleComplex; a grid-stride loop over problems, grid <= BB_CUDA_MAX_GRID):
 *   generic_blas3.cu  k_prod: gemm symm hemm syrk herk syr2k her2k trmm, 256
 *                     threads, 32x32 tiles of C, k in chunks of 16 through
 *                     static shared memory (17 KB for z); any size, operands
 *                     read from global memory.  trmm in place, tiles ordered
 *                     so that rows of B are overwritten only when no longer
 *                     needed.  k_trsm: substitution on views, A and then B
 *                     in dynamic shared memory when they fit, else in place.
 *   generic_chol.cu   k_chol: potrf potrs posv trtri lauum potri poti on a
 *                     lower view (upper = conjugate transpose).  A in shared
 *                     memory when n*n*sizeof(T) fits (n <= 119 z, 168 d/c,
 *                     238 s on an H100), else in place in global memory;
 *                     potrf/posv/poti always on a copy (workspace when not
 *                     in shared memory) so that a failure leaves A as the
 *                     CPU backend does.  B in shared memory when it fits too.
 *   generic_lu.cu     k_lu: getrf getrfnp getrs gesv getri getri_oop gecond;
 *                     same shared-or-in-place rule (gecond: its copy of A in
 *                     shared memory or workspace).  Row-major by strides.
 *   generic_norm.cu   k_lange (no staging), k_gecon (lacn2 + triangular
 *                     solves on the factors, staged when they fit).
 *   Threads: 64 (n <= 32), 128 (n <= 64), 256 otherwise; k_prod 256.
 *
 * One thread block per problem (grid-stride loop over problems).  Every
 * algorithm is written against View<T>: an element accessor with a row
 * stride, a column stride and an optional conjugation, so that one code path
 * serves column-major, row-major, transposed and conjugate-transposed
 * operands, and (for the Cholesky family) the upper triangle as the
 * conjugate transpose of a lower one.  Matrices are copied into dynamic
 * shared memory when they fit; otherwise the same code works in place in
 * global memory (or in a per-block slot of the queue workspace).
 *
 * Synchronisation convention: every blk_* function is called by all threads
 * of the block with uniform arguments, starts with __syncthreads() where it
 * reads data written before it, and ends with __syncthreads().
 */
#include <math.h>
#include <float.h>
#include <limits.h>
#include <string.h>

namespace bbg {

/* ------------------------------------------------------------------ scalars */
template <typename T> __device__ __forceinline__ T zero() { return bb_make<T>(0.0, 0.0); }
template <typename T> __device__ __forceinline__ T one() { return bb_make<T>(1.0, 0.0); }

template <typename T> struct is_cplx { enum { value = 0 }; };
template <> struct is_cplx<cuFloatComplex> { enum { value = 1 }; };
template <> struct is_cplx<cuDoubleComplex> { enum { value = 1 }; };

__device__ __forceinline__ float mulr(float a, float s) { return a * s; }
__device__ __forceinline__ double mulr(double a, double s) { return a * s; }
__device__ __forceinline__ cuFloatComplex mulr(cuFloatComplex a, float s) { return make_cuFloatComplex(a.x * s, a.y * s); }
__device__ __forceinline__ cuDoubleComplex mulr(cuDoubleComplex a, double s) { return make_cuDoubleComplex(a.x * s, a.y * s); }
__device__ __forceinline__ float divr(float a, float s) { return a / s; }
__device__ __forceinline__ double divr(double a, double s) { return a / s; }
__device__ __forceinline__ cuFloatComplex divr(cuFloatComplex a, float s) { return make_cuFloatComplex(a.x / s, a.y / s); }
__device__ __forceinline__ cuDoubleComplex divr(cuDoubleComplex a, double s) { return make_cuDoubleComplex(a.x / s, a.y / s); }

__device__ __forceinline__ float rabs(float a) { return fabsf(a); }
__device__ __forceinline__ double rabs(double a) { return fabs(a); }

/* true modulus, as double */
__device__ __forceinline__ double absv(float a) { return fabsf(a); }
__device__ __forceinline__ double absv(double a) { return fabs(a); }
__device__ __forceinline__ double absv(cuFloatComplex a) { return hypotf(a.x, a.y); }
__device__ __forceinline__ double absv(cuDoubleComplex a) { return hypot(a.x, a.y); }

/* |re| + |im| in the working precision (LAPACK's cabs1 / |x| for reals) */
template <typename T> __device__ __forceinline__ double cabs1(T a) { return (double)(rabs(bb_re(a)) + rabs(bb_im(a))); }

template <typename T> __device__ __forceinline__ bool is_zero(T a) { return bb_re(a) == 0 && bb_im(a) == 0; }
template <typename T> __device__ __forceinline__ bool has_nan(T a) { return bb_re(a) != bb_re(a) || bb_im(a) != bb_im(a); }
template <typename T> __device__ __forceinline__ bool finite_t(T a)
{
    return isfinite((double)bb_re(a)) && isfinite((double)bb_im(a));
}
/* real part only, imaginary part zeroed */
template <typename T> __device__ __forceinline__ T realpart(T a) { return bb_make<T>((double)bb_re(a), 0.0); }

__device__ __forceinline__ float shfl_x(float v, int m) { return __shfl_xor_sync(0xffffffffu, v, m); }
__device__ __forceinline__ double shfl_x(double v, int m) { return __shfl_xor_sync(0xffffffffu, v, m); }
__device__ __forceinline__ int shfl_x(int v, int m) { return __shfl_xor_sync(0xffffffffu, v, m); }
__device__ __forceinline__ cuFloatComplex shfl_x(cuFloatComplex v, int m) { return make_cuFloatComplex(shfl_x(v.x, m), shfl_x(v.y, m)); }
__device__ __forceinline__ cuDoubleComplex shfl_x(cuDoubleComplex v, int m) { return make_cuDoubleComplex(shfl_x(v.x, m), shfl_x(v.y, m)); }

/* ------------------------------------------------------------ reductions */
enum { RED_SUM = 0, RED_MAX = 1, RED_MIN = 2 };

/* max that propagates NaN (LAPACK's lange behaviour) */
__device__ __forceinline__ double nanmax(double a, double b)
{
    if (a != a) return a;
    if (b != b) return b;
    return a > b ? a : b;
}
__device__ __forceinline__ double red_op(double a, double b, int op)
{
    if (op == RED_SUM) return a + b;
    if (op == RED_MAX) return nanmax(a, b);
    return a < b ? a : b;
}
__device__ __forceinline__ double warp_reduce(double v, int op)
{
    for (int o = 16; o > 0; o >>= 1) v = red_op(v, shfl_x(v, o), op);
    return v;
}
/* Block-wide reduction; every thread gets the (identical) result. */
static __device__ __noinline__ double blk_reduce(double v, int op)
{
    __shared__ double sh[32];
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5, nw = blockDim.x >> 5;
    v = warp_reduce(v, op);
    __syncthreads(); /* previous readers of sh are done */
    if (lane == 0) sh[w] = v;
    __syncthreads();
    double r = sh[0];
    for (int i = 1; i < nw; i++) r = red_op(r, sh[i], op);
    return r;
}

/* Block-wide argmax: the largest class wins, then the largest key, ties go
   to the smallest index.  Each thread brings its candidate (cls, key, idx,
   val); all get the winner.  Keys are never NaN. */
template <typename T> struct Cand {
    int cls;
    double key;
    int idx;
    T val;
};
template <typename T> __device__ __forceinline__ void better(Cand<T> &a, const Cand<T> &b)
{
    if (b.cls > a.cls || (b.cls == a.cls && (b.key > a.key || (b.key == a.key && b.idx < a.idx)))) a = b;
}
template <typename T> __device__ __noinline__ Cand<T> blk_argmax(Cand<T> c)
{
    __shared__ double shk[32];
    __shared__ int shi[32], shc[32];
    __shared__ double2 shv[32];
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5, nw = blockDim.x >> 5;
    for (int o = 16; o > 0; o >>= 1) {
        Cand<T> b;
        b.cls = shfl_x(c.cls, o);
        b.key = shfl_x(c.key, o);
        b.idx = shfl_x(c.idx, o);
        b.val = shfl_x(c.val, o);
        better(c, b);
    }
    __syncthreads();
    if (lane == 0) { shc[w] = c.cls; shk[w] = c.key; shi[w] = c.idx; *(T *)&shv[w] = c.val; }
    __syncthreads();
    c.cls = shc[0]; c.key = shk[0]; c.idx = shi[0]; c.val = *(T *)&shv[0];
    for (int i = 1; i < nw; i++) {
        Cand<T> b;
        b.cls = shc[i]; b.key = shk[i]; b.idx = shi[i]; b.val = *(T *)&shv[i];
        better(c, b);
    }
    return c;
}

/* ----------------------------------------------------------------- views */
template <typename T> struct View {
    T *p;
    int64_t rs, cs; /* element (i,j) at p[i*rs + j*cs] */
    int cj;         /* 1: the view is the conjugate of the stored values */
    __device__ __forceinline__ T get(int i, int j) const
    {
        T v = p[i * rs + j * cs];
        return cj ? bb_conj(v) : v;
    }
    __device__ __forceinline__ void set(int i, int j, T v) const { p[i * rs + j * cs] = cj ? bb_conj(v) : v; }
    __device__ __forceinline__ View t() const { View r = {p, cs, rs, cj}; return r; }
    __device__ __forceinline__ View h() const { View r = {p, cs, rs, !cj}; return r; }
};
template <typename T> __device__ __forceinline__ View<T> mkview(T *p, int64_t rs, int64_t cs, int cj)
{
    View<T> v = {p, rs, cs, cj};
    return v;
}
/* the logical matrix of a column-major (rowmajor = 0) or row-major buffer */
template <typename T> __device__ __forceinline__ View<T> mkview_ld(T *p, int64_t ld, int rowmajor)
{
    return rowmajor ? mkview(p, ld, (int64_t)1, 0) : mkview(p, (int64_t)1, ld, 0);
}

/* 2-D split of the block over an r x c range: rows by a power-of-two number
   of lanes (<= 32, coalesced for column-major), columns by the rest. */
struct G2 { int i0, di, j0, dj; };
__device__ __forceinline__ G2 grid2(int rows)
{
    int lg = rows >= 32 ? 5 : (rows <= 1 ? 0 : 32 - __clz(rows - 1));
    G2 g;
    g.di = 1 << lg;
    g.i0 = threadIdx.x & (g.di - 1);
    g.j0 = threadIdx.x >> lg;
    g.dj = blockDim.x >> lg;
    return g;
}

/* masks over raw (storage) coordinates; lim: lower masks only columns
   j < lim, upper masks only rows i < lim */
enum { MASK_ALL = 0, MASK_LOWER = 1, MASK_UPPER = 2, MASK_SLOWER = 3, MASK_SUPPER = 4 };
__device__ __forceinline__ bool in_mask(int i, int j, int mask, int lim)
{
    switch (mask) {
    case MASK_LOWER: return i >= j && j < lim;
    case MASK_UPPER: return i <= j && i < lim;
    case MASK_SLOWER: return i > j && j < lim;
    case MASK_SUPPER: return i < j && i < lim;
    default: return true;
    }
}

/* raw column-major copy of an rr x cc storage block */
template <typename T>
__device__ void blk_copy(T *dst, int64_t ldd, const T *src, int64_t lds, int rr, int cc, int mask,
                         int lim = INT_MAX)
{
    __syncthreads();
    G2 g = grid2(rr);
    for (int j = g.j0; j < cc; j += g.dj)
        for (int i = g.i0; i < rr; i += g.di)
            if (in_mask(i, j, mask, lim)) dst[i + j * ldd] = src[i + j * lds];
    __syncthreads();
}
template <typename T> __device__ void blk_fill(T *dst, int64_t ldd, int rr, int cc, T v)
{
    __syncthreads();
    G2 g = grid2(rr);
    for (int j = g.j0; j < cc; j += g.dj)
        for (int i = g.i0; i < rr; i += g.di) dst[i + j * ldd] = v;
    __syncthreads();
}
template <typename T> __device__ void blk_scale(T *dst, int64_t ldd, int rr, int cc, T a)
{
    __syncthreads();
    G2 g = grid2(rr);
    for (int j = g.j0; j < cc; j += g.dj)
        for (int i = g.i0; i < rr; i += g.di) dst[i + j * ldd] = a * dst[i + j * ldd];
    __syncthreads();
}

/* ------------------------------------------------------ buffer placement */
enum { BUF_NONE = 0, BUF_SHARED = 1, BUF_WORK = 2, BB_NBUF = 4 };
struct BufPlan {
    int64_t off[BB_NBUF]; /* byte offset in shared memory or in the block's workspace slot */
    int where[BB_NBUF];
    char *work;           /* workspace base */
    int64_t per_block;    /* bytes of one block's slot */
};
extern __shared__ __align__(16) char bbg_smem[];
__device__ __forceinline__ char *buf_ptr(const BufPlan &b, int k)
{
    if (b.where[k] == BUF_SHARED) return bbg_smem + b.off[k];
    return b.work + (int64_t)blockIdx.x * b.per_block + b.off[k];
}
/* A matrix operand, possibly staged into its buffer (shared memory). */
template <typename T> struct Stg {
    T *p;
    int64_t ld;
    int staged;
};
template <typename T>
__device__ Stg<T> stage_in(const BufPlan &b, int k, T *g, int64_t ld, int rr, int cc, int mask, int copy)
{
    Stg<T> s;
    if (b.where[k] != BUF_NONE) {
        s.p = (T *)buf_ptr(b, k);
        s.ld = rr > 0 ? rr : 1;
        s.staged = 1;
        if (copy) blk_copy(s.p, s.ld, (const T *)g, ld, rr, cc, mask);
    } else {
        s.p = g;
        s.ld = ld;
        s.staged = 0;
    }
    return s;
}
template <typename T>
__device__ void stage_out(const Stg<T> &s, T *g, int64_t ld, int rr, int cc, int mask)
{
    if (s.staged) blk_copy(g, ld, (const T *)s.p, s.ld, rr, cc, mask);
    else __syncthreads();
}

/* --------------------------------------------------------- block kernels */

/* First k (1-based) with A(k,k) exactly zero, 0 if none. */
template <typename T> __device__ int blk_first_zero_diag(View<T> A, int n)
{
    __syncthreads();
    double f = 1e300;
    for (int k = threadIdx.x; k < n; k += blockDim.x)
        if (is_zero(A.get(k, k))) { f = k + 1; break; }
    f = blk_reduce(f, RED_MIN);
    __syncthreads();
    return f < 1e299 ? (int)f : 0;
}

/* B := inv(A) * B, A an n x n triangular view (lower: forward substitution,
   upper: backward), B an n x nrhs view.  Unit: A's diagonal not read.
   One synchronisation per step: the thread that owns an element of the next
   pivot row applies the update and then the division. */
template <typename T> __device__ void blk_trsv(View<T> A, int lower, int unit, View<T> B, int n, int nrhs)
{
    __syncthreads();
    if (n <= 0 || nrhs <= 0) return;
    const int tid = threadIdx.x, nt = blockDim.x;
    const int k0 = lower ? 0 : n - 1;
    if (!unit) {
        T d = A.get(k0, k0);
        for (int j = tid; j < nrhs; j += nt) B.set(k0, j, B.get(k0, j) / d);
    }
    __syncthreads();
    for (int s = 0; s < n - 1; s++) {
        const int k = lower ? s : n - 1 - s;
        const int kn = lower ? k + 1 : k - 1;
        const int rows = lower ? n - 1 - k : k;
        const int i0 = lower ? k + 1 : 0;
        T dn = unit ? one<T>() : A.get(kn, kn);
        G2 g = grid2(rows);
        for (int j = g.j0; j < nrhs; j += g.dj) {
            T bkj = B.get(k, j);
            for (int r = g.i0; r < rows; r += g.di) {
                int i = i0 + r;
                T v = B.get(i, j) - A.get(i, k) * bkj;
                if (i == kn && !unit) v = v / dn;
                B.set(i, j, v);
            }
        }
        __syncthreads();
    }
}

/* In-place inverse of a lower-triangular view (LAPACK trti2, lower); the
   caller has checked the diagonal. */
template <typename T> __device__ void blk_trtri_lower(View<T> L, int n, int unit)
{
    __syncthreads();
    const int tid = threadIdx.x, nt = blockDim.x;
    for (int j = n - 1; j >= 0; j--) {
        T dinv = unit ? one<T>() : one<T>() / L.get(j, j);
        T ajj = -dinv;
        /* L(j+1:n, j) := ajj * Linv(j+1:n, j+1:n) * L(j+1:n, j), rows in
           descending chunks: a row only needs x(l) for l <= its index. */
        int lo = n;
        do {
            int hi = lo;
            lo = hi - nt > j + 1 ? hi - nt : j + 1;
            int i = lo + tid;
            bool act = i < hi;
            T s = zero<T>();
            if (act) {
                for (int l = j + 1; l < i; l++) s = s + L.get(i, l) * L.get(l, j);
                T dii = unit ? one<T>() : L.get(i, i);
                s = s + dii * L.get(i, j);
            }
            __syncthreads();
            if (act) L.set(i, j, ajj * s);
        } while (lo > j + 1);
        if (tid == 0 && !unit) L.set(j, j, dinv);
        __syncthreads();
    }
}

/* In place A := L^H * L (lower triangle of the result), LAPACK lauu2 order:
   row i of the result needs rows >= i of L only. */
template <typename T> __device__ void blk_lauum_lower(View<T> L, int n)
{
    __syncthreads();
    const int tid = threadIdx.x, nt = blockDim.x;
    for (int i = 0; i < n; i++) {
        double d = 0;
        for (int l = i + tid; l < n; l += nt) {
            double a = absv(L.get(l, i));
            d += a * a;
        }
        d = blk_reduce(d, RED_SUM);
        for (int j = tid; j < i; j += nt) {
            T s = zero<T>();
            for (int l = i; l < n; l++) s = s + bb_conj(L.get(l, i)) * L.get(l, j);
            L.set(i, j, s);
        }
        __syncthreads();
        if (tid == 0) L.set(i, i, bb_make<T>(d, 0.0));
    }
    __syncthreads();
}

/* Cholesky A = L*L^H on a lower view, right-looking; returns LAPACK's info. */
template <typename T> __device__ int blk_potrf_lower(View<T> L, int n)
{
    typedef typename bb_real<T>::type R;
    __syncthreads();
    const int tid = threadIdx.x, nt = blockDim.x;
    for (int k = 0; k < n; k++) {
        R d = bb_re(L.get(k, k));
        if (!(d > 0)) {
            __syncthreads();
            return k + 1;
        }
        R s = sqrt(d);
        for (int i = k + 1 + tid; i < n; i += nt) L.set(i, k, divr(L.get(i, k), s));
        __syncthreads();
        if (tid == 0) L.set(k, k, bb_make<T>((double)s, 0.0));
        G2 g = grid2(n - k - 1);
        for (int j = k + 1 + g.j0; j < n; j += g.dj) {
            T ljk = bb_conj(L.get(j, k));
            for (int i = j + g.i0; i < n; i += g.di) L.set(i, j, L.get(i, j) - L.get(i, k) * ljk);
        }
        __syncthreads();
    }
    return 0;
}

/* LU with partial pivoting (ipiv != NULL, 1-based, written by thread 0) or
   without; m x n view; returns info (first zero or NaN pivot). */
template <typename T> __device__ int blk_getrf(View<T> A, int m, int n, int *ipiv)
{
    __syncthreads();
    const int tid = threadIdx.x, nt = blockDim.x;
    const int mn = m < n ? m : n;
    int code = 0;
    for (int k = 0; k < mn; k++) {
        int piv = k;
        T p;
        if (ipiv) {
            /* the first NaN of rows k..m-1 if any (as the CPU backend),
               else the first max of |re| + |im| (LAPACK's i?amax) */
            Cand<T> c = {-1, -1.0, INT_MAX, zero<T>()};
            for (int r = k + tid; r < m; r += nt) {
                T a = A.get(r, k);
                double v = cabs1(a);
                int cl = v != v;
                if (cl) v = 0.0;
                if (cl > c.cls || (cl == c.cls && v > c.key)) { c.cls = cl; c.key = v; c.idx = r; c.val = a; }
            }
            c = blk_argmax(c);
            piv = c.idx;
            p = c.val;
            if (tid == 0) ipiv[k] = piv + 1;
        } else {
            p = A.get(k, k);
        }
        if ((is_zero(p) || has_nan(p)) && code == 0) code = k + 1;
        const bool scale = !is_zero(p);
        /* swap rows k and piv (columns != k), scale column k below the
           diagonal; thread 0 owns A(k,k) and A(piv,k) */
        if (piv != k) {
            for (int j = tid; j < n; j += nt)
                if (j != k) {
                    T t = A.get(k, j);
                    A.set(k, j, A.get(piv, j));
                    A.set(piv, j, t);
                }
            if (tid == 0) {
                T akk = A.get(k, k);
                A.set(k, k, p);
                A.set(piv, k, scale ? akk / p : akk);
            }
        }
        if (scale)
            for (int i = k + 1 + tid; i < m; i += nt)
                if (i != piv) A.set(i, k, A.get(i, k) / p);
        __syncthreads();
        /* trailing update */
        G2 g = grid2(m - k - 1);
        for (int j = k + 1 + g.j0; j < n; j += g.dj) {
            T akj = A.get(k, j);
            for (int i = k + 1 + g.i0; i < m; i += g.di) A.set(i, j, A.get(i, j) - A.get(i, k) * akj);
        }
        __syncthreads();
    }
    return code;
}

/* op(A) X = B with the LU factors of getrf (n x n view), B an n x nrhs view. */
template <typename T>
__device__ void blk_getrs(View<T> A, int n, const int *ipiv, View<T> B, int nrhs, int trans)
{
    __syncthreads();
    const int tid = threadIdx.x, nt = blockDim.x;
    if (trans == BblasNoTrans) {
        if (ipiv)
            for (int j = tid; j < nrhs; j += nt)
                for (int k = 0; k < n; k++) {
                    int kp = ipiv[k] - 1;
                    if (kp != k && kp >= 0 && kp < n) {
                        T t = B.get(k, j);
                        B.set(k, j, B.get(kp, j));
                        B.set(kp, j, t);
                    }
                }
        blk_trsv(A, 1, 1, B, n, nrhs);
        blk_trsv(A, 0, 0, B, n, nrhs);
    } else {
        View<T> At = trans == BblasConjTrans ? A.h() : A.t();
        blk_trsv(At, 1, 0, B, n, nrhs); /* U^T, lower */
        blk_trsv(At, 0, 1, B, n, nrhs); /* L^T, upper unit */
        if (ipiv)
            for (int j = tid; j < nrhs; j += nt)
                for (int k = n - 1; k >= 0; k--) {
                    int kp = ipiv[k] - 1;
                    if (kp != k && kp >= 0 && kp < n) {
                        T t = B.get(k, j);
                        B.set(k, j, B.get(kp, j));
                        B.set(kp, j, t);
                    }
                }
    }
    __syncthreads();
}

/* In-place inverse from the LU factors (LAPACK getri, unblocked); the caller
   has checked that no U(k,k) is zero.  w: n elements of scratch. */
template <typename T> __device__ void blk_getri(View<T> A, int n, const int *ipiv, T *w)
{
    const int tid = threadIdx.x, nt = blockDim.x;
    blk_trtri_lower(A.t(), n, 0); /* inv(U) */
    for (int j = n - 1; j >= 0; j--) {
        for (int i = j + 1 + tid; i < n; i += nt) {
            w[i] = A.get(i, j);
            A.set(i, j, zero<T>());
        }
        __syncthreads();
        if (j < n - 1)
            for (int i = tid; i < n; i += nt) {
                T s = A.get(i, j);
                for (int l = j + 1; l < n; l++) s = s - A.get(i, l) * w[l];
                A.set(i, j, s);
            }
        __syncthreads();
    }
    for (int i = tid; i < n; i += nt)
        for (int j = n - 2; j >= 0; j--) {
            int jp = ipiv[j] - 1;
            if (jp != j && jp >= 0 && jp < n) {
                T t = A.get(i, j);
                A.set(i, j, A.get(i, jp));
                A.set(i, jp, t);
            }
        }
    __syncthreads();
}

/* Norms of an m x n view (BblasOneNorm, InfNorm, MaxNorm, FrobeniusNorm),
   NaN propagating like LAPACK's lange. */
template <typename T> __device__ double blk_norm(View<T> A, int m, int n, int norm)
{
    __syncthreads();
    if (m <= 0 || n <= 0) return 0.0;
    const int tid = threadIdx.x, nt = blockDim.x;
    double acc = 0.0;
    if (norm == BblasOneNorm) {
        const int lane = tid & 31, w = tid >> 5, nw = nt >> 5;
        for (int j = w; j < n; j += nw) {
            double s = 0.0;
            for (int i = lane; i < m; i += 32) s += absv(A.get(i, j));
            s = warp_reduce(s, RED_SUM);
            acc = nanmax(acc, s);
        }
        return blk_reduce(acc, RED_MAX);
    }
    if (norm == BblasInfNorm) {
        for (int i = tid; i < m; i += nt) {
            double s = 0.0;
            for (int j = 0; j < n; j++) s += absv(A.get(i, j));
            acc = nanmax(acc, s);
        }
        return blk_reduce(acc, RED_MAX);
    }
    G2 g = grid2(m);
    if (norm == BblasMaxNorm) {
        for (int j = g.j0; j < n; j += g.dj)
            for (int i = g.i0; i < m; i += g.di) acc = nanmax(acc, absv(A.get(i, j)));
        return blk_reduce(acc, RED_MAX);
    }
    /* Frobenius: scale by the largest component, then sum of squares */
    for (int j = g.j0; j < n; j += g.dj)
        for (int i = g.i0; i < m; i += g.di) {
            T a = A.get(i, j);
            acc = nanmax(acc, nanmax((double)rabs(bb_re(a)), (double)rabs(bb_im(a))));
        }
    double s = blk_reduce(acc, RED_MAX);
    if (!(s > 0.0) || isinf(s)) return s; /* 0, Inf or NaN */
    acc = 0.0;
    for (int j = g.j0; j < n; j += g.dj)
        for (int i = g.i0; i < m; i += g.di) {
            T a = A.get(i, j);
            double re = (double)bb_re(a) / s, im = (double)bb_im(a) / s;
            acc += re * re + im * im;
        }
    return s * sqrt(blk_reduce(acc, RED_SUM));
}

} /* namespace bbg */

/* --------------------------------------------------------------- host side */
namespace bbg {

/* Dynamic shared memory a launch may use on the queue's device. */
static inline int64_t smem_budget(batchblas_queue *q)
{
    int dev = 0, v = 0;
    if (q) dev = q->device;
    else if (cudaGetDevice(&dev) != cudaSuccess) dev = 0;
    if (cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess || v <= 0)
        if (cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlock, dev) != cudaSuccess) v = 48 * 1024;
    int64_t b = (int64_t)v - 4096; /* static shared memory of the kernels */
    return b > 0 ? b : 0;
}

/* Places buffers: shared memory while the budget lasts; otherwise in a
   per-block slot of the workspace (must) or nowhere (work in place). */
struct Planner {
    BufPlan plan;
    int64_t smem, work, budget;
    explicit Planner(int64_t b) : smem(0), work(0), budget(b)
    {
        memset(&plan, 0, sizeof plan);
    }
    void add(int k, int64_t bytes, int must)
    {
        bytes = (bytes + 15) & ~(int64_t)15;
        if (bytes <= 0) bytes = 16;
        if (smem + bytes <= budget) {
            plan.where[k] = BUF_SHARED;
            plan.off[k] = smem;
            smem += bytes;
        } else if (must) {
            plan.where[k] = BUF_WORK;
            plan.off[k] = work;
            work += bytes;
        } else {
            plan.where[k] = BUF_NONE;
        }
    }
};

static inline cudaStream_t stream_of(batchblas_queue *q) { return q ? q->stream : (cudaStream_t)0; }

/* Threads per block for an order-n factorisation. */
static inline int threads_for(int n) { return n <= 32 ? 64 : (n <= 64 ? 128 : 256); }

/* Grid size and workspace for a launch; returns cudaErrorMemoryAllocation if
   the workspace cannot be had.  Grid capped at BB_CUDA_MAX_GRID and so that
   the workspace stays below 1 GiB (at least one block). */
static inline cudaError_t finish_plan(Planner &pl, int64_t count, batchblas_queue *q, unsigned *grid)
{
    int64_t g = count < (int64_t)BB_CUDA_MAX_GRID ? count : (int64_t)BB_CUDA_MAX_GRID;
    if (g < 1) g = 1;
    pl.plan.work = NULL;
    pl.plan.per_block = 0;
    if (pl.work > 0) {
        int64_t per = (pl.work + 255) & ~(int64_t)255;
        int64_t cap = ((int64_t)1 << 30) / per;
        if (cap < 1) cap = 1;
        if (g > cap) g = cap;
        void *w = bb_cuda_workspace(q, (size_t)(per * g));
        if (!w) return cudaErrorMemoryAllocation;
        pl.plan.work = (char *)w;
        pl.plan.per_block = per;
    }
    *grid = (unsigned)g;
    return cudaSuccess;
}

/* Raises the kernel's dynamic shared memory limit where needed. */
static inline cudaError_t allow_smem(const void *kernel, int64_t bytes)
{
    if (bytes <= 48 * 1024) return cudaSuccess;
    return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
}

} /* namespace bbg */

/* per-family launchers (generic_blas3.cu, generic_chol.cu, generic_lu.cu, generic_norm.cu) */
template <typename T>
cudaError_t bbg_launch_blas3(bb_op op, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q);
template <typename T>
cudaError_t bbg_launch_chol(bb_op op, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q);
template <typename T>
cudaError_t bbg_launch_lu(bb_op op, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q);
template <typename T>
cudaError_t bbg_launch_norm(bb_op op, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q);

#endif /* BB_GENERIC_INTERNAL */
