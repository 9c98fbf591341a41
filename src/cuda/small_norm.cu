/*
 * Register kernels for lange and gecon (seed 001).
 *
 * lange (the normalised column-major m x n; one real per problem in Y):
 *   a group of G = RL * C threads per matrix, several groups per warp when
 *   the matrix is small.  RL (a power of two >= min(m, 32)) row lanes times
 *   C column lanes: thread (i, c) reads rows i (+ RL, + 2 RL, ... for
 *   m > 32: strips of 32 rows, one warp a matrix) of columns c, c + C, ...
 *   The norm is a template parameter (one kernel each: registers for
 *   what that norm needs only), and each group takes P problems per
 *   iteration (P = 4, 2, 1 for RL <= 4, 8, >= 16: about 16 independent
 *   loads a thread in flight even for 4 x 4 matrices).  Per chunk of G
 *   columns and strip of RL rows every thread issues RL loads per problem
 *   (the group reads whole columns: coalesced; offsets recomputed from an
 *   opaque column step, not held in registers), then
 *     max        a running NaN-sticky max, then over the group;
 *     one        the strip's RL column parts per thread, reduced across the
 *                row lanes by a transposing butterfly (RL - 1 shuffles,
 *                indices constant: in registers) that leaves thread (i, c)
 *                with the strip's sum of column c + C i of the chunk, added
 *                up over the strips;
 *     inf        row sums per thread (strip loop outside the columns), then
 *                over the column lanes;
 *     Frobenius  as the CPU backend: the plain sum of squares; only if that
 *                over- or underflows (a rare path, taken by a warp when one
 *                of its active problems needs it, a problem at a time) the
 *                largest component, and the sum rescaled by it.
 *   NaN propagates to the result for every norm (LAPACK's lange).  Up to
 *   m * n = 65536 (a warp a matrix is enough there); larger shapes go to
 *   the generic kernel (a block a matrix).
 *
 * gecon (LU factors of getrf, anorm in X, rcond in Y; n <= 32, every
 *   precision): a group of N threads per problem, the factors staged in
 *   shared memory with coalesced flat loads (row-major: transposed on the
 *   way, as small_getrs.cu), thread p holding x_p.  The estimator is the
 *   CPU backend's (src/cpu/lu.c: LAPACK's lacn2 with at most five
 *   iterations and the final alternating vector) step for step: the
 *   products with inv(A) and inv(A)^H are two triangular solves each
 *   (coefficients read from shared memory, x_k broadcast by shuffle), sums
 *   and the first index of the largest |x_i| by shuffles.  The groups of a
 *   warp iterate together while any of them goes on (the others compute
 *   without effect).  Special values as the CPU: anorm NaN -> NaN; anorm 0
 *   or Inf, an exactly zero or NaN U(k,k), a NaN or zero estimate -> 0.
 */
#include <float.h>
#include "small.h"

namespace {

template <typename R> __device__ __forceinline__ R maxnan(R v, R s) { return (v < s || s != s) ? s : v; }

template <typename R> struct lim;
template <> struct lim<float> {
    static __device__ __forceinline__ float safmin() { return FLT_MIN; }
    static __device__ __forceinline__ float huge() { return FLT_MAX; }
    static __device__ __forceinline__ float eps() { return FLT_EPSILON; }
};
template <> struct lim<double> {
    static __device__ __forceinline__ double safmin() { return DBL_MIN; }
    static __device__ __forceinline__ double huge() { return DBL_MAX; }
    static __device__ __forceinline__ double eps() { return DBL_EPSILON; }
};

__device__ __forceinline__ float sq_sum(float a) { return a * a; }
__device__ __forceinline__ double sq_sum(double a) { return a * a; }
__device__ __forceinline__ float sq_sum(cuFloatComplex a) { return a.x * a.x + a.y * a.y; }
__device__ __forceinline__ double sq_sum(cuDoubleComplex a) { return a.x * a.x + a.y * a.y; }
__device__ __forceinline__ float comp_max(float a) { return fabsf(a); }
__device__ __forceinline__ double comp_max(double a) { return fabs(a); }
__device__ __forceinline__ float comp_max(cuFloatComplex a) { return fmaxf(fabsf(a.x), fabsf(a.y)); }
__device__ __forceinline__ double comp_max(cuDoubleComplex a) { return fmax(fabs(a.x), fabs(a.y)); }

/* ------------------------------------------------------------------ lange */

enum { LG_BS = 128 };
enum { LG_MAX, LG_ONE, LG_INF, LG_FRO }; /* the norm, a template parameter */

/* The transposing butterfly over the RL row lanes (H = RL/2, RL/4, ..., 1;
   a template parameter so that every index folds to a constant and cs
   stays in registers): before, thread i holds in cs[k] its part of column
   k of the strip; after, cs[0] of thread i is the whole of column i. */
template <int H, typename R, int RL> __device__ __forceinline__ void lg_bfly(R (&cs)[RL], int i)
{
    if constexpr (H >= 1) {
        const bool up = (i & H) != 0;
#pragma unroll
        for (int q = 0; q < H; q++) {
            const R send = up ? cs[q] : cs[q + H];
            const R keep = up ? cs[q + H] : cs[q];
            cs[q] = keep + bb_shfl_xor(send, H, 32);
        }
        lg_bfly<H / 2, R, RL>(cs, i);
    }
}

/* v[p][k] := element (rs + i, c0 + c + C k) of problem p, zero outside
   the matrix or where the problem is not read (RL independent loads per
   problem, all issued before any is used) */
template <typename T, int RL, int P>
__device__ __forceinline__ void lg_load(T (&v)[P][RL], const T *const (&A)[P], const bool (&rd)[P], int rs, int i,
                                        int c0, int c, int C, int m, int n, int64_t lda)
{
    const bool rok = rs + i < m;
    /* offsets recomputed at each call (an opaque column step), not held
       in registers across the loops */
    const int64_t cst = bb_opaque((int64_t)C * lda), o0 = rs + i + (int64_t)(c0 + c) * lda;
#pragma unroll
    for (int k = 0; k < RL; k++) {
        const bool in = rok && c0 + c + C * k < n;
        const int64_t o = o0 + k * cst;
#pragma unroll
        for (int p = 0; p < P; p++) v[p][k] = (rd[p] && in) ? A[p][o] : bb_zero<T>();
    }
}

/* The Frobenius norm of a problem whose plain sum of squares over- or
   underflowed (rd: this thread's group has one; the whole warp calls it):
   the largest component mx (no NaN in A here: its sum is not NaN), then,
   unless mx is 0 or Inf (the norm), mx times the norm of A / mx (the CPU
   backend's rule) */
template <typename T, int RL>
__device__ __forceinline__ typename bb_real<T>::type lg_rescaled(const T *const (&A)[1], const bool (&rd)[1], int i, int c,
                                                              int C, int G, int m, int n, int64_t lda)
{
    typedef typename bb_real<T>::type R;
    R mx = 0;
    for (int c0 = 0; c0 < n; c0 += G)
        for (int rs = 0; rs < m; rs += RL) {
            T v[1][RL];
            lg_load<T, RL, 1>(v, A, rd, rs, i, c0, c, C, m, n, lda);
#pragma unroll
            for (int k = 0; k < RL; k++) mx = maxnan(mx, comp_max(v[0][k]));
        }
    for (int o = 1; o < G; o <<= 1) mx = maxnan(mx, bb_shfl_xor(mx, o, 32));
    const bool scl[1] = {rd[0] && !(mx == 0 || isinf(mx))};
    if (!__any_sync(0xffffffffu, scl[0])) return mx;
    const R r = scl[0] ? R(1) / mx : R(0);
    R t2 = 0;
    for (int c0 = 0; c0 < n; c0 += G)
        for (int rs = 0; rs < m; rs += RL) {
            T v[1][RL];
            lg_load<T, RL, 1>(v, A, scl, rs, i, c0, c, C, m, n, lda);
#pragma unroll
            for (int k = 0; k < RL; k++) t2 += sq_sum(bb_rmul(r, v[0][k]));
        }
    for (int o = 1; o < G; o <<= 1) t2 += bb_shfl_xor(t2, o, 32);
    return scl[0] ? mx * sqrt(t2) : mx;
}

template <typename T, int RL, int NORM, int P>
__global__ void __launch_bounds__(LG_BS) k_lange(const bb_dev_batch d, int m, int n, int64_t lda0, int C)
{
    typedef typename bb_real<T>::type R;
    const int G = RL * C, PPB = LG_BS / G;
    const int lt = threadIdx.x % G, g = threadIdx.x / G;
    const int i = lt % RL, c = lt / RL;
    for (int64_t base = (int64_t)blockIdx.x * (PPB * P); base < d.count; base += (int64_t)gridDim.x * (PPB * P)) {
        const int64_t lda = bb_opaque(lda0);
        /* problem p of the group: base + p PPB + g (for each p the block's
           groups take consecutive problems) */
        bool act[P];
        const T *A[P];
#pragma unroll
        for (int p = 0; p < P; p++) {
            const bb_small_slot s = bb_small_take(d, base + p * PPB, g);
            act[p] = s.active;
            /* the address does not wait for info (it is only used where active) */
            A[p] = s.pid < d.count ? bb_dev_ptr<T>(d.opd[BB_A], s.pid) : NULL;
        }
        R acc[P]; /* the norm so far (Frobenius: the sum of squares) */
#pragma unroll
        for (int p = 0; p < P; p++) acc[p] = 0;
        if (NORM == LG_INF) {
            for (int rs = 0; rs < m; rs += RL) {
                R rsum[P];
#pragma unroll
                for (int p = 0; p < P; p++) rsum[p] = 0;
                for (int c0 = 0; c0 < n; c0 += G) {
                    T v[P][RL];
                    lg_load<T, RL, P>(v, A, act, rs, i, c0, c, C, m, n, lda);
#pragma unroll
                    for (int p = 0; p < P; p++)
#pragma unroll
                        for (int k = 0; k < RL; k++) rsum[p] += bb_abs(v[p][k]);
                }
#pragma unroll
                for (int p = 0; p < P; p++) {
                    for (int o = RL; o < G; o <<= 1) rsum[p] += bb_shfl_xor(rsum[p], o, 32);
                    if (rs + i < m) acc[p] = maxnan(acc[p], rsum[p]);
                }
            }
        } else {
            for (int c0 = 0; c0 < n; c0 += G) {
                R csum[P]; /* one: the sum so far of column c0 + c + C i */
#pragma unroll
                for (int p = 0; p < P; p++) csum[p] = 0;
                for (int rs = 0; rs < m; rs += RL) {
                    T v[P][RL];
                    lg_load<T, RL, P>(v, A, act, rs, i, c0, c, C, m, n, lda);
#pragma unroll
                    for (int p = 0; p < P; p++) {
                        if (NORM == LG_FRO) {
#pragma unroll
                            for (int k = 0; k < RL; k++) acc[p] += sq_sum(v[p][k]);
                        } else if (NORM == LG_ONE) {
                            R cs[RL];
#pragma unroll
                            for (int k = 0; k < RL; k++) cs[k] = bb_abs(v[p][k]);
                            lg_bfly<RL / 2, R, RL>(cs, i); /* the strip's column c0 + c + C i */
                            csum[p] += cs[0];
                        } else {
#pragma unroll
                            for (int k = 0; k < RL; k++) acc[p] = maxnan(acc[p], bb_abs(v[p][k]));
                        }
                    }
                }
                if (NORM == LG_ONE) {
#pragma unroll
                    for (int p = 0; p < P; p++)
                        if (c0 + c + C * i < n) acc[p] = maxnan(acc[p], csum[p]);
                }
            }
        }
        /* over the group (aligned power-of-two lanes) */
        R val[P];
        if (NORM == LG_FRO) {
            bool again[P], any = false;
#pragma unroll
            for (int p = 0; p < P; p++) {
                for (int o = 1; o < G; o <<= 1) acc[p] += bb_shfl_xor(acc[p], o, 32);
                /* the CPU backend's rule: rescale only when the sum over- or underflows */
                again[p] = false;
                if (acc[p] != acc[p]) val[p] = acc[p];
                else if (acc[p] >= lim<R>::safmin() / lim<R>::eps() && acc[p] <= lim<R>::huge()) val[p] = sqrt(acc[p]);
                else { again[p] = act[p]; val[p] = 0; }
                any = any || again[p];
            }
            if (__any_sync(0xffffffffu, any)) { /* uniform over the warp; rare: one problem at a time */
#pragma unroll 1
                for (int p = 0; p < P; p++) {
                    const T *Ap[1] = {A[0]};
                    bool ag[1] = {again[0]};
#pragma unroll
                    for (int q = 1; q < P; q++)
                        if (q == p) {
                            Ap[0] = A[q];
                            ag[0] = again[q];
                        }
                    if (__any_sync(0xffffffffu, ag[0])) {
                        const R w = lg_rescaled<T, RL>(Ap, ag, i, c, C, G, m, n, lda);
#pragma unroll
                        for (int q = 0; q < P; q++)
                            if (q == p && ag[0]) val[q] = w;
                    }
                }
            }
        } else {
#pragma unroll
            for (int p = 0; p < P; p++) {
                for (int o = 1; o < G; o <<= 1) acc[p] = maxnan(acc[p], bb_shfl_xor(acc[p], o, 32));
                val[p] = acc[p];
            }
        }
#pragma unroll
        for (int p = 0; p < P; p++)
            if (act[p] && lt == 0) *bb_dev_ptr<R>(d.opd[BB_Y], base + p * PPB + g) = val[p];
    }
}

static inline int pow2_ceil(int v)
{
    int p = 1;
    while (p < v) p <<= 1;
    return p;
}
static inline int pow2_floor(int v)
{
    int p = 1;
    while (p * 2 <= v) p <<= 1;
    return p;
}

template <typename T, int RL, int NORM>
cudaError_t run_lange(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    /* problems per group and iteration: about 16 loads in flight a thread
       where a row strip is short */
    constexpr int P = RL >= 16 ? 1 : RL == 8 ? 2 : 4;
    /* column lanes: as many as fill the warp while there are columns to give them */
    int C = 1;
    if (p.n >= 2 * RL) {
        C = pow2_floor(p.n / RL);
        if (C > 32 / RL) C = 32 / RL;
    }
    const int ppb = LG_BS / (RL * C) * P;
    k_lange<T, RL, NORM, P><<<bb_grid(d.count, ppb), LG_BS, 0, q->stream>>>(d, p.m, p.n, p.lda, C);
    return cudaGetLastError();
}

template <typename T, int RL>
cudaError_t lange_norm(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    switch (p.norm) {
    case BblasOneNorm: return run_lange<T, RL, LG_ONE>(p, d, q);
    case BblasInfNorm: return run_lange<T, RL, LG_INF>(p, d, q);
    case BblasFrobeniusNorm: return run_lange<T, RL, LG_FRO>(p, d, q);
    default: return run_lange<T, RL, LG_MAX>(p, d, q);
    }
}

template <typename T>
cudaError_t lange_T(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    switch (pow2_ceil(p.m < 32 ? p.m : 32)) {
    case 1: return lange_norm<T, 1>(p, d, q);
    case 2: return lange_norm<T, 2>(p, d, q);
    case 4: return lange_norm<T, 4>(p, d, q);
    case 8: return lange_norm<T, 8>(p, d, q);
    case 16: return lange_norm<T, 16>(p, d, q);
    default: return lange_norm<T, 32>(p, d, q);
    }
}

/* ------------------------------------------------------------------ gecon */

template <typename T, int N> struct gecon_smem {
    static constexpr int LD = N + 1; /* odd: rows and columns conflict-free */
    T S[N * LD];
};

/* stored n x n matrix P (element (a,b) at P[a + b*ld]) to shared D
   (element (a,b) at D[a*da + b*db]); thread t takes the flat indices
   t, t + N, ... (coalesced) */
template <typename T, int N>
__device__ __forceinline__ void stage_sq(const T *P, int64_t ld, int n, T *D, int da, int db, int t)
{
    const int tot = n * n, q = N / n, rem = N - q * n;
    int a = t % n, b = t / n;
#pragma unroll 4
    for (int e = t; e < tot; e += N) {
        D[a * da + b * db] = P[a + b * ld];
        a += rem;
        b += q;
        if (a >= n) { a -= n; b++; }
    }
}

/* x_p := (inv(M) x)_p for the triangle of M(p,k) = S[p*si + k*sk] (conj if
   cj), lower (forward) or upper; dinv = 1 / M(p,p) unless unit.  x_k is
   broadcast by shuffle (the whole warp takes part). */
template <typename T, int N>
__device__ __forceinline__ T tri1(T x, int p, int n, const T *S, int si, int sk, bool cj, bool lower, bool unit,
                                  T dinv)
{
    for (int s = 0; s < n; s++) {
        const int k = lower ? s : n - 1 - s;
        if (!unit && p == k) x = x * dinv;
        const T xk = bb_shfl(x, k, N);
        if (lower ? p > k : p < k) x = x - bb_conj_if(S[p * si + k * sk], cj) * xk;
    }
    return x;
}

/* x := inv(U) inv(L) x (h = 0) or inv(L)^H inv(U)^H x (h = 1): the CPU's apply_inv */
template <typename T, int N>
__device__ __forceinline__ T apply_inv(T x, int p, int n, const T *S, bool h, T rd, T rdc)
{
    constexpr int LD = gecon_smem<T, N>::LD;
    if (!h) {
        x = tri1<T, N>(x, p, n, S, 1, LD, false, true, true, rd);
        return tri1<T, N>(x, p, n, S, 1, LD, false, false, false, rd);
    }
    x = tri1<T, N>(x, p, n, S, LD, 1, true, true, false, rdc);
    return tri1<T, N>(x, p, n, S, LD, 1, true, false, true, rdc);
}

template <typename T> struct is_cplx { static constexpr bool value = false; };
template <> struct is_cplx<cuFloatComplex> { static constexpr bool value = true; };
template <> struct is_cplx<cuDoubleComplex> { static constexpr bool value = true; };

/* |x| as the CPU estimator measures it: modulus (complex), |re| (real) */
template <typename T> __device__ __forceinline__ typename bb_real<T>::type eabs(T x)
{
    return is_cplx<T>::value ? bb_abs(x) : (typename bb_real<T>::type)fabs((double)bb_re(x));
}

template <int N, typename R> __device__ __forceinline__ R gsum(R v)
{
#pragma unroll
    for (int o = 1; o < N; o <<= 1) v += bb_shfl_xor(v, o, N);
    return v;
}

/* first index of the largest |x_i|, i < n (NaN never wins; all NaN: 0) */
template <typename T, int N> __device__ __forceinline__ int iamax(T x, int p, int n)
{
    typedef typename bb_real<T>::type R;
    R v = p < n ? eabs(x) : R(-2);
    if (v != v) v = -1;
    int j = p;
#pragma unroll
    for (int o = 1; o < N; o <<= 1) {
        const R ov = bb_shfl_xor(v, o, N);
        const int oj = bb_shfl_xor(j, o, N);
        if (ov > v || (ov == v && oj < j)) { v = ov; j = oj; }
    }
    return j;
}

/* x := its sign vector; real: returns whether the sign differs from sgn
   (then updated), complex: true */
template <typename T> __device__ __forceinline__ bool sign_vec(T &x, int &sgn)
{
    typedef typename bb_real<T>::type R;
    if (is_cplx<T>::value) {
        const R ax = bb_abs(x);
        /* x / ax component-wise, as the CPU's complex-over-real division */
        x = ax > lim<R>::safmin() ? bb_make<T>((double)(bb_re(x) / ax), (double)(bb_im(x) / ax)) : bb_one<T>();
        return true;
    }
    const int sg = bb_re(x) >= 0 ? 1 : -1;
    const bool ch = sg != sgn;
    sgn = sg;
    x = bb_make<T>((double)sg, 0.0);
    return ch;
}

template <typename T, int N, int BS, bool VAR>
__global__ void __launch_bounds__(BS) k_gecon(const bb_dev_batch d, int n0, int64_t lda0, int rowmajor, int inf)
{
    typedef typename bb_real<T>::type R;
    typedef gecon_smem<T, N> SM;
    constexpr int PPB = BS / N, LD = SM::LD;
    constexpr bool CPLX = is_cplx<T>::value;
    __shared__ SM sm[PPB];
    const int p = threadIdx.x % N, g = threadIdx.x / N;
    T *S = sm[g].S;
    const bool h0 = inf != 0;
    const int da = rowmajor ? LD : 1, db = rowmajor ? 1 : LD;
    const unsigned lane0 = (threadIdx.x & 31) & ~(N - 1);
    const unsigned gmask = (N == 32 ? 0xffffffffu : ((1u << N) - 1)) << lane0;
    for (int64_t base = (int64_t)blockIdx.x * PPB; base < d.count; base += (int64_t)gridDim.x * PPB) {
        const bb_vdim z = bb_dims<VAR>(d, base + g, 0, n0, 0, 0, lda0, 0, 0);
        const int n = z.n;
        const int64_t lda = bb_opaque(z.lda);
        const bb_small_slot s = bb_small_take(d, base, g);
        const R anorm = s.active ? *bb_dev_ptr<R>(d.opd[BB_X], s.pid) : R(1);
        /* decided without the estimator: NaN in, NaN out; 0 or Inf: 0 */
        bool est_on = s.active && anorm == anorm && anorm != 0 && !isinf(anorm);
        R rc = anorm != anorm ? anorm : R(0);
        if (est_on) stage_sq<T, N>(bb_dev_ptr<T>(d.opd[BB_A], s.pid), lda, n, S, da, db, p);
        __syncwarp();
        const T dg = p < n ? S[p * (LD + 1)] : bb_one<T>();
        const bool sing = p < n && (bb_is_zero(dg) || bb_re(dg) != bb_re(dg) || bb_im(dg) != bb_im(dg));
        if (__ballot_sync(0xffffffffu, sing) & gmask) est_on = false; /* rcond 0 */
        const T rd = bb_inv(dg), rdc = bb_inv(bb_conj(dg));

        T x = p < n ? bb_make<T>((double)(R(1) / R(n)), 0.0) : bb_zero<T>();
        x = apply_inv<T, N>(x, p, n, S, h0, rd, rdc);
        R est;
        if (n == 1) {
            est = eabs(bb_shfl(x, 0, N));
        } else {
            est = gsum<N>(p < n ? eabs(x) : R(0));
            int sgn = 0;
            sign_vec(x, sgn);
            if (p >= n) x = bb_zero<T>();
            x = apply_inv<T, N>(x, p, n, S, !h0, rd, rdc);
            int j = iamax<T, N>(x, p, n);
            bool live = est_on;
            int iter = 2;
            while (__any_sync(0xffffffffu, live)) {
                x = (p == j) ? bb_one<T>() : bb_zero<T>();
                x = apply_inv<T, N>(x, p, n, S, h0, rd, rdc);
                const R estold = est, e = gsum<N>(p < n ? eabs(x) : R(0));
                int sg = sgn;
                bool ch = sign_vec(x, sg) && p < n;
                if (p >= n) x = bb_zero<T>();
                ch = CPLX || (__ballot_sync(0xffffffffu, ch) & gmask) != 0;
                bool cont = live && ch && !(e <= estold);
                if (live) {
                    est = e;
                    sgn = sg;
                }
                x = apply_inv<T, N>(x, p, n, S, !h0, rd, rdc);
                const int jlast = j, jn = iamax<T, N>(x, p, n);
                const T xjl = bb_shfl(x, jlast, N), xjn = bb_shfl(x, jn, N);
                const R xl = CPLX ? bb_abs(xjl) : bb_re(xjl), xj = eabs(xjn);
                if (cont) {
                    j = jn;
                    if (xl == xj || iter >= 5) cont = false;
                }
                live = cont;
                iter++;
            }
            /* the alternating vector */
            x = bb_zero<T>();
            if (p < n) {
                const R v = R(1) + (R)p / (R)(n - 1);
                x = bb_make<T>((double)(p & 1 ? -v : v), 0.0);
            }
            x = apply_inv<T, N>(x, p, n, S, h0, rd, rdc);
            const R temp = 2 * (gsum<N>(p < n ? eabs(x) : R(0)) / (R)(3 * n));
            est = temp > est ? temp : est;
        }
        if (est_on) {
            if (!(est == est) || est == 0) rc = 0;
            else {
                rc = (R(1) / est) / anorm;
                if (rc != rc) rc = 0;
            }
        }
        if (s.active && p == 0) *bb_dev_ptr<R>(d.opd[BB_Y], s.pid) = rc;
        __syncwarp(); /* S is reused by the next problem */
    }
}

template <typename T, int N>
cudaError_t run_gecon(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    constexpr int BS = bb_small_threads(N, (int)sizeof(gecon_smem<T, N>));
    const unsigned grid = bb_grid(d.count, BS / N);
    const int inf = p.norm == BblasInfNorm;
    if (d.vdim) k_gecon<T, N, BS, true><<<grid, BS, 0, q->stream>>>(d, p.n, p.lda, p.rowmajor, inf);
    else k_gecon<T, N, BS, false><<<grid, BS, 0, q->stream>>>(d, p.n, p.lda, p.rowmajor, inf);
    return cudaGetLastError();
}

template <typename T>
cudaError_t gecon_T(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    switch (bb_small_bound(p.n)) {
    case 4: return run_gecon<T, 4>(p, d, q);
    case 8: return run_gecon<T, 8>(p, d, q);
    case 16: return run_gecon<T, 16>(p, d, q);
    default: return run_gecon<T, 32>(p, d, q);
    }
}

} // namespace

cudaError_t bb_small_lange(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    if (p.m < 1 || p.n < 1 || (int64_t)p.m * p.n > 65536) return cudaErrorNotSupported;
    if (d.count <= 0) return cudaSuccess;
    BB_SMALL_BY_PREC(prec, lange_T<T>(p, d, q));
}

cudaError_t bb_small_gecon(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    if (p.n < 1 || p.n > BB_SMALL_MAX) return cudaErrorNotSupported;
    if (d.count <= 0) return cudaSuccess;
    BB_SMALL_BY_PREC(prec, gecon_T<T>(p, d, q));
}
