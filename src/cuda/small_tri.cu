/*
 * Register kernels for the triangular-inverse family, n <= 32 (seed 004's
 * KerTRTRI, KerLAUUM, KerPOTRI and KerPOTI, fused, in registers):
 *   trtri  X = inv(T) in place (uplo, unit or non-unit diagonal), or into
 *          B (ldb) when the batch has one (the drivers' trsm leaves),
 *   lauum  L^H L (lower) or U U^H (upper) in place,
 *   potri  inv(A) from its Cholesky factor: trtri + lauum, one load, one store,
 *   poti   inv(A) from A itself: potrf + trtri + lauum, one load, one store.
 *
 * Layout of the work (small.h): a group of N threads per problem, thread i
 * holding row i of the lower view L (uplo = Upper is read as L = U^H: then
 * U U^H = L^H L, inv(U) = inv(L)^H and A = U^H U = L L^H, so one algorithm
 * serves both triangles).  Everything happens in ONE sweep of n steps with
 * one broadcast each: at step k thread k's row is final and goes through
 * the group's row buffer (one shared store by thread k, 16-byte broadcast
 * loads by the others, one __syncwarp), and every other thread applies it
 * with k+1 fused multiply-adds on its own registers:
 *
 *   trtri part, threads i > k (L X = I, forward by rows):
 *     X(i,:) += -(L(i,k) / L(i,i)) X(k,:)      into registers 0..k,
 *     where register k held L(i,k) / L(i,i) (the row is scaled once before
 *     the sweep) and is read as the coefficient first; thread i's row is
 *     X(i,:) when its own step comes (X(i,i) = 1 / L(i,i) set then).
 *   lauum part, threads i <= k (M = X^H X, accumulated transposed):
 *     M(i,j) += conj(X(k,i)) X(k,j)            into registers j = 0..k,
 *     i.e. thread i accumulates ROW i OF M's UPPER TRIANGLE (M(i,j), j >= i)
 *     in the registers j >= i, which are zero until then, and its registers
 *     j < i, whose values X(i,j) were already broadcast, take garbage that
 *     is never stored.  Nothing has to be rescaled: thread k joins the
 *     accumulation of its own row at step k with register k cleared.
 *
 * In potri both parts run in the same instructions: the threads below k do
 * the trtri update, those up to k the lauum accumulation, so the fused
 * kernel costs what one of the two costs alone (n(n+1)/2 multiply-adds a
 * thread).  trtri alone keeps only the first part, lauum alone only the
 * second (on the input X = L).  poti runs bb_potrf_rows first (which leaves
 * values in the registers j > i; register k is cleared at step k before
 * the lauum part first adds to it).  As in LAPACK's lauu2, lauum takes the
 * diagonal of X as real.
 *
 * Memory: lower storage reads rows (L(i,j) = A(i,j): coalesced) and upper
 * storage writes the upper rows of M (M(i,j) = A(i,j), j >= i: coalesced)
 * directly; the other direction of each (upper: row i of L is column i of
 * U; lower: row i of M's upper triangle is column i of the lower one) is
 * staged through a per-group shared matrix (leading dimension N+1) and
 * moved column by column, coalesced.  Only the uplo triangle is read or
 * written; with a unit diagonal, the diagonal is neither.
 *
 * Info and failures (as the CPU backend, src/cpu/chol.c): trtri and potri
 * return the first exactly zero diagonal k and write nothing; poti returns
 * potrf's k and writes what LAPACK's potf2 leaves: the finished columns
 * < k of the factor and the (real) non-positive or NaN pivot at (k,k), the
 * rest of the triangle keeps its input (stored right after the factoring,
 * directly: a rare path).  lauum and unit trtri store 0.
 */
#include "small.h"
#include "views.h"
#include "dmma.h"
#include <type_traits>

namespace {

enum tri_kind { K_TRTRI, K_LAUUM, K_POTRI, K_POTI };

template <typename T> struct tri_cplx { static constexpr bool value = false; };
template <> struct tri_cplx<cuFloatComplex> { static constexpr bool value = true; };
template <> struct tri_cplx<cuDoubleComplex> { static constexpr bool value = true; };

/* a + c * x in fused multiply-adds (complex: four, no intermediate rounding
   of the product) */
__device__ __forceinline__ float tri_fma(float c, float x, float a) { return fmaf(c, x, a); }
__device__ __forceinline__ double tri_fma(double c, double x, double a) { return fma(c, x, a); }
__device__ __forceinline__ cuFloatComplex tri_fma(cuFloatComplex c, cuFloatComplex x, cuFloatComplex a)
{
    return make_cuFloatComplex(fmaf(-c.y, x.y, fmaf(c.x, x.x, a.x)), fmaf(c.y, x.x, fmaf(c.x, x.y, a.y)));
}
__device__ __forceinline__ cuDoubleComplex tri_fma(cuDoubleComplex c, cuDoubleComplex x, cuDoubleComplex a)
{
    return make_cuDoubleComplex(fma(-c.y, x.y, fma(c.x, x.x, a.x)), fma(c.y, x.x, fma(c.x, x.y, a.y)));
}

/* the real part as an element */
__device__ __forceinline__ float tri_re(float a) { return a; }
__device__ __forceinline__ double tri_re(double a) { return a; }
__device__ __forceinline__ cuFloatComplex tri_re(cuFloatComplex a) { return make_cuFloatComplex(a.x, 0.f); }
__device__ __forceinline__ cuDoubleComplex tri_re(cuDoubleComplex a) { return make_cuDoubleComplex(a.x, 0.); }

/* 1 / a; complex by Smith's scaling, as the CPU backend's recip() */
__device__ __forceinline__ float tri_inv(float a) { return 1.f / a; }
__device__ __forceinline__ double tri_inv(double a) { return 1. / a; }
template <typename C, typename R> __device__ __forceinline__ C tri_cinv(R ar, R ai)
{
    if (fabs(ar) >= fabs(ai)) {
        const R r = ai / ar, d = R(1) / (ar + ai * r);
        return C{d, -r * d};
    }
    const R r = ar / ai, d = R(1) / (ai + ar * r);
    return C{r * d, -d};
}
__device__ __forceinline__ cuFloatComplex tri_inv(cuFloatComplex a) { return tri_cinv<cuFloatComplex, float>(a.x, a.y); }
__device__ __forceinline__ cuDoubleComplex tri_inv(cuDoubleComplex a) { return tri_cinv<cuDoubleComplex, double>(a.x, a.y); }

/* 16-byte broadcast load from shared memory (p 16-byte aligned), as PTX:
   written in C++, the compiler splits some of these vector loads into a
   vector load whose upper half is dropped plus scalar reloads.  volatile
   and the memory clobber keep it between the __syncwarp() calls that
   publish the row and release the buffer. */
__device__ __forceinline__ unsigned tri_saddr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void tri_lds16(const float *p, float *r)
{
    asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(r[0]), "=f"(r[1]), "=f"(r[2]), "=f"(r[3]) : "r"(tri_saddr(p)) : "memory");
}
__device__ __forceinline__ void tri_lds16(const double *p, double *r)
{
    asm volatile("ld.shared.v2.f64 {%0, %1}, [%2];" : "=d"(r[0]), "=d"(r[1]) : "r"(tri_saddr(p)) : "memory");
}
__device__ __forceinline__ void tri_lds16(const cuFloatComplex *p, cuFloatComplex *r)
{
    asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(r[0].x), "=f"(r[0].y), "=f"(r[1].x), "=f"(r[1].y) : "r"(tri_saddr(p)) : "memory");
}
__device__ __forceinline__ void tri_lds16(const cuDoubleComplex *p, cuDoubleComplex *r)
{
    asm volatile("ld.shared.v2.f64 {%0, %1}, [%2];" : "=d"(r[0].x), "=d"(r[0].y) : "r"(tri_saddr(p)) : "memory");
}

/* Per-group shared memory: the row buffer [2][N] (16-byte aligned) and the
   staging matrix, column-major with leading dimension N+1; the groups'
   matrices are N(N+1) elements apart, which keeps both the column moves
   (fixed column, consecutive rows) and the row reads (fixed column of S,
   one row per thread) free of bank conflicts across the groups of a warp. */
template <typename T, int N> struct tri_geom {
    static constexpr int LD = N + 1;
    static constexpr int SS = N * (N + 1);
    static constexpr int BYTES = (2 * N + SS) * (int)sizeof(T);
};

/*
 * Global accesses always walk the stored row i of A (element (i,j) at
 * A + i + j*lda, one pointer step a column): for a fixed column j the
 * threads of a group touch consecutive elements (coalesced).  Which part
 * of the row is taken depends on the triangle; what goes to or comes from
 * registers is either the element itself (direct) or, through S, the
 * element of the transposed position (staged).
 */

/*
 * Row i of the lower view: A(i,j) (lower) or conj(A(j,i)) (upper) for
 * j <= i < n, zeros elsewhere; nodiag: the diagonal is not read (zero).
 * Upper storage: the walk of row i of U (j >= i) goes to S (zeros outside
 * the triangle, so the whole of S is defined), then thread i takes column
 * i of S.  Every thread of the warp calls it.
 */
template <typename T, int N>
__device__ __forceinline__ void tri_load(T (&r)[N], const T *A, T *S, int i, int n, int64_t lda, bool upper,
                                         bool mine, bool nodiag)
{
    constexpr int LD = tri_geom<T, N>::LD;
    const T *p = A + i;
    if (upper) { /* columns [lo, hi) of row i of U */
        const int lo = nodiag ? i + 1 : i, hi = mine ? n : 0;
#pragma unroll
        for (int j = 0; j < N; j++, p += lda) S[i + j * LD] = j >= lo && j < hi ? *p : bb_zero<T>();
        __syncwarp();
#pragma unroll
        for (int j = 0; j < N; j++) r[j] = bb_conj(S[j + i * LD]);
        __syncwarp();
    } else { /* columns [0, last] of row i of L */
        const int last = !mine ? -1 : nodiag ? i - 1 : i;
#pragma unroll
        for (int j = 0; j < N; j++, p += lda) r[j] = j <= last ? *p : bb_zero<T>();
    }
}

/*
 * Stores rows of the lower view (trtri's X): X(i,j), j <= i (not the
 * diagonal when nodiag): lower storage A(i,j) directly; upper storage
 * A(j,i) = conj(X(i,j)) through S.  Every thread of the warp calls it.
 */
template <typename T, int N>
__device__ __forceinline__ void tri_store_lrows(const T (&r)[N], T *A, T *S, int i, int n, int64_t lda, bool upper,
                                                bool wr, bool nodiag)
{
    constexpr int LD = tri_geom<T, N>::LD;
    T *p = A + i;
    if (upper) {
#pragma unroll
        for (int j = 0; j < N; j++) S[j + i * LD] = bb_conj(r[j]);
        __syncwarp();
        const int lo = nodiag ? i + 1 : i, hi = wr ? n : 0;
#pragma unroll
        for (int j = 0; j < N; j++, p += lda)
            if (j >= lo && j < hi) *p = S[i + j * LD];
    } else {
        const int last = !wr ? -1 : nodiag ? i - 1 : i;
#pragma unroll
        for (int j = 0; j < N; j++, p += lda)
            if (j <= last) *p = r[j];
    }
}

/*
 * Stores the upper rows of the Hermitian result M (lauum, potri, poti):
 * thread i holds M(i,j) for j >= i, the diagonal taken real.  Upper
 * storage: A(i,j) = M(i,j) directly; lower: A(j,i) = conj(M(i,j)) through S.
 */
template <typename T, int N>
__device__ __forceinline__ void tri_store_urows(const T (&r)[N], T *A, T *S, int i, int n, int64_t lda, bool upper,
                                                bool wr)
{
    constexpr int LD = tri_geom<T, N>::LD;
    constexpr bool CPX = tri_cplx<T>::value;
    T *p = A + i;
    if (!upper) {
#pragma unroll
        for (int j = 0; j < N; j++) S[j + i * LD] = (CPX && j == i) ? tri_re(r[j]) : bb_conj(r[j]);
        __syncwarp();
        const int last = wr ? i : -1;
#pragma unroll
        for (int j = 0; j < N; j++, p += lda)
            if (j <= last) *p = S[i + j * LD];
    } else {
        const int hi = wr ? n : 0;
#pragma unroll
        for (int j = 0; j < N; j++, p += lda)
            if (j >= i && j < hi) *p = (CPX && j == i) ? tri_re(r[j]) : r[j];
    }
}

/*
 * The sweep (see the head of the file).  TRT: the trtri part (threads
 * i > k), LAU: the lauum part (threads i <= k).  For the trtri part the
 * row arrives scaled, d L(i,0..i-1) with d = 1 / L(i,i) (one when unit),
 * and xii = X(i,i) = d.  rb: the group's [2][N] row buffer.
 */
template <typename T, int N, bool TRT, bool LAU>
__device__ __forceinline__ void tri_sweep(T (&r)[N], int i, int n, T xii, T *rb)
{
    constexpr int E = bb_vec<T>::E;
    constexpr bool CPX = tri_cplx<T>::value;
#pragma unroll
    for (int k = 0; k < N; k++) {
        if (k < n) {
            T *buf = rb + (k & 1) * N;
            if (i == k) { /* row k is final: X(k,0..k) */
                if (TRT) r[k] = xii;
                else if (CPX) r[k] = tri_re(r[k]); /* lauum: the diagonal as real */
#pragma unroll
                for (int j = 0; j <= k; j += E) bb_st16(buf + j, &r[j]);
            }
            __syncwarp();
            const bool act = TRT && LAU ? true : TRT ? i > k : i <= k;
            if (act) {
                T c;
                if (TRT && LAU) {
                    /* trtri below k: -L(i,k)/L(i,i); lauum up to k: conj(X(k,i)),
                       X(k,k) taken real (LAPACK's lauum after trtri) */
                    const T xi = buf[i];
                    c = i > k ? -r[k] : (CPX && i == k) ? tri_re(xi) : bb_conj(xi);
                } else if (TRT) {
                    c = -r[k];
                } else {
                    c = bb_conj(buf[i]);
                }
                /* register k: trtri read its L(i,k) into c; lauum's thread k
                   starts M(k,k); the threads below keep a zero there */
                r[k] = bb_zero<T>();
                /* one 16-byte load, then its multiply-adds */
#pragma unroll
                for (int j0 = 0; j0 <= k; j0 += E) {
                    T x[E];
                    tri_lds16(buf + j0, x);
#pragma unroll
                    for (int e = 0; e < E; e++) {
                        const int j = j0 + e;
                        if (j <= k) {
                            if (CPX && TRT && LAU && j == k && i <= k) x[e] = tri_re(x[e]);
                            r[j] = tri_fma(c, x[e], r[j]);
                        }
                    }
                }
            }
        }
    }
    __syncwarp();
}

template <typename T, int N, int BS, int KIND, bool VAR>
__global__ void __launch_bounds__(BS) k_tri(const bb_dev_batch d, int n0, int64_t lda0, int64_t ldb0, int upper, int unit)
{
    constexpr int PPB = BS / N;
    constexpr bool TRT = KIND != K_LAUUM, LAU = KIND != K_TRTRI;
    __shared__ __align__(16) T rbuf[PPB][2 * N];
    __shared__ T smat[PPB * tri_geom<T, N>::SS];
    const int i = threadIdx.x % N, g = threadIdx.x / N;
    T *S = smat + g * tri_geom<T, N>::SS;
    /* the group's lanes in the warp's ballot */
    const int lane0 = (threadIdx.x % 32) & ~(N - 1);
    const unsigned gmask = N == 32 ? 0xffffffffu : ((1u << N) - 1u);
    for (int64_t base = (int64_t)blockIdx.x * PPB; base < d.count; base += (int64_t)gridDim.x * PPB) {
        const bb_vdim z = bb_dims<VAR>(d, base + g, 0, n0, 0, 0, lda0, ldb0, 0);
        const int n = z.n;
        const int64_t lda = bb_opaque(z.lda);
        const bb_small_slot s = bb_small_take(d, base, g);
        T *A = s.active ? bb_dev_ptr<T>(d.opd[BB_A], s.pid) : NULL;
        const bool mine = s.active && i < n;
        T r[N];
        tri_load<T, N>(r, A, S, i, n, lda, upper, mine, unit != 0);
        int info = 0;
        if (KIND == K_POTI) {
            info = bb_potrf_rows<T, N>(r, i, n, rbuf[g]);
            if (info && mine) { /* potf2's leftovers: columns < kf, the pivot at (kf,kf) */
                const int kf = info - 1;
#pragma unroll
                for (int j = 0; j < N; j++) {
                    if (j <= i && (j < kf || (j == kf && i == kf))) {
                        const T v = j == kf ? tri_re(r[j]) : r[j];
                        if (upper) A[j + i * lda] = bb_conj(v);
                        else A[i + j * lda] = v;
                    }
                }
            }
        }
        T xii = bb_one<T>(); /* X(i,i) */
        if (TRT && !unit) {
            T dg = bb_zero<T>();
#pragma unroll
            for (int j = 0; j < N; j++)
                if (j == i) dg = r[j];
            if (i < n) xii = tri_inv(dg);
            if (KIND != K_POTI) { /* an exactly zero diagonal: info, nothing written */
                const unsigned z = __ballot_sync(0xffffffffu, mine && bb_is_zero(dg));
                const unsigned zg = (z >> lane0) & gmask;
                info = zg ? __ffs(zg) : 0;
            }
#pragma unroll
            for (int j = 0; j < N; j++) r[j] = r[j] * xii; /* the row scaled by 1 / L(i,i) */
        }
        tri_sweep<T, N, TRT, LAU>(r, i, n, xii, rbuf[g]);
        /* trtri out of place (the drivers' inverted diagonal blocks of a
           trsm): B given, the inverse goes there, also where a diagonal is
           zero (Inf and NaN, as a solve would give), and no code */
        const bool oop = KIND == K_TRTRI && (d.opd[BB_B].ptr || d.opd[BB_B].base);
        T *O = oop ? (s.active ? bb_dev_ptr<T>(d.opd[BB_B], s.pid) : NULL) : A;
        const bool wr = mine && (info == 0 || oop);
        if (KIND == K_TRTRI) tri_store_lrows<T, N>(r, O, S, i, n, oop ? bb_opaque(z.ldb) : lda, upper, wr, unit != 0);
        else tri_store_urows<T, N>(r, A, S, i, n, lda, upper, wr);
        if (s.active && i == 0 && d.info && !oop) d.info[s.pid] = info;
        __syncwarp();
    }
}

/*
 * trtri out of place for the drivers' inverted diagonal blocks (real
 * types, orders up to 32): X = inv(T) of the blocks of order L on the
 * diagonal of each problem's A, block b (rows and columns b L ..) into B
 * at column b L (the blocks side by side, ldb apart), every block of every problem in one launch, one warp a
 * block.  k_tri above walks a chain of n dependent steps, each a row
 * broadcast through shared memory and a __syncwarp, with one triangle a
 * warp at 128 registers a thread; the trsm on chip waited on two to eight
 * of those launches, each about 3x its own bytes' time (session 47, Nsight
 * Compute on trsm n = 64).  Here lane j computes column j of X by column
 * substitution on T held in shared memory: the triangle's columns are read
 * at once (coalesced, all loads in flight), then at step k the lanes j <= k
 * finish x_k = x_k / T(k,k) and take T(k+1.., k) x_k off the rows below,
 * those values read as 16-byte broadcasts; the steps' dependent chain is a
 * multiply and a multiply-add, no barrier.  Lanes j > k skip the step (a
 * NaN in T reaches the columns that depend on it only: no 0 * NaN).  An
 * upper triangle is the lower one with its rows and columns reversed (i ->
 * n-1-i): the loads and stores reverse the indices, the sweep is the same.
 * The result leaves through shared memory, so that the stores run along
 * the columns of B (coalesced).  Only the triangle is written (not the
 * diagonal when unit); where T(k,k) = 0 the inverse holds Inf and NaN, as
 * k_tri's, and no code.  With d.vdim each problem is one block, its order
 * and leading dimensions from its slot (the variable driver's steps).
 */
constexpr int TC_WARPS = 4;

template <typename T> struct tc_geom {
    static constexpr int E = bb_vec<T>::E;
    static constexpr int LD = 32 + E; /* T's columns: 16-byte aligned */
    static constexpr int LO = 33;     /* X's columns on the way out: no bank conflict */
};

template <typename T, bool VAR>
__global__ void __launch_bounds__(TC_WARPS * 32, sizeof(T) == 8 ? 5 : 6) k_trtri_cols(const bb_dev_batch d, int t, int L, int nbk,
                                                               int64_t lda0, int64_t ldb0, int upper, int unit)
{
    bb_pdl_trigger(); /* the on-chip trsm after it may start (trsm_panel.cu) */
    typedef tc_geom<T> G;
    constexpr int E = G::E, LD = G::LD, LO = G::LO;
    __shared__ __align__(16) T sm[TC_WARPS][32 * LD];
    __shared__ T sdi[TC_WARPS][32];
    const int lane = threadIdx.x % 32, w = threadIdx.x / 32;
    T *S = sm[w], *dv = sdi[w];
    const int64_t items = d.count * nbk;
    for (int64_t it = (int64_t)blockIdx.x * TC_WARPS + w; it < items; it += (int64_t)gridDim.x * TC_WARPS) {
        const int64_t pid = it / nbk;
        const int b = (int)(it - pid * nbk);
        if (d.info && d.info[pid]) continue; /* the same for the whole warp */
        int n = min(L, t - b * L);
        int64_t lda = lda0, ldb = ldb0;
        if (VAR) {
            const bb_vdim v = d.vdim[pid];
            n = min(L, v.n), lda = v.lda, ldb = v.ldb;
        }
        if (n <= 0) continue;
        lda = bb_opaque(lda);
        const T *A = bb_dev_ptr<T>(d.opd[BB_A], pid) + (int64_t)b * L * (1 + lda);
        T *O = bb_dev_ptr<T>(d.opd[BB_B], pid) + (int64_t)b * L * ldb; /* blocks side by side */
        /* the sweep's lower triangle: S[k LD + i] = T'(i, k), T' = T (lower)
           or T reversed (upper: T'(i, k) = T(n-1-i, n-1-k)); zeros outside,
           1 / T'(i, i) into dv (one when unit) */
        const int ri = upper ? n - 1 - lane : lane;
        /* every load issued before the first store to S (a generic pointer
           might alias S: stores between the loads would make each load
           wait for the one before) */
        T x[32];
#pragma unroll
        for (int k = 0; k < 32; k++) {
            const int rk = upper ? n - 1 - k : k;
            const bool in = k < n && lane < n && lane >= k && !(unit && lane == k);
            x[k] = in ? __ldg(A + ri + (int64_t)rk * lda) : bb_zero<T>();
        }
        T dg = bb_one<T>();
#pragma unroll
        for (int k = 0; k < 32; k++) {
            S[k * LD + lane] = x[k];
            if (!unit && lane == k) dg = x[k];
        }
        dv[lane] = tri_inv(dg);
        __syncwarp();
        /* column j = lane of X' = inv(T') */
#pragma unroll
        for (int i = 0; i < 32; i++) x[i] = i == lane ? bb_one<T>() : bb_zero<T>();
#pragma unroll
        for (int k = 0; k < 32; k++) {
            if (k < n && lane <= k) {
                const T xk = x[k] * dv[k];
                x[k] = xk;
#pragma unroll
                for (int i0 = (k + 1) / E * E; i0 < 32; i0 += E) {
                    T l[E];
                    tri_lds16(S + k * LD + i0, l);
#pragma unroll
                    for (int e = 0; e < E; e++)
                        if (i0 + e > k) x[i0 + e] = tri_fma(-l[e], xk, x[i0 + e]);
                }
            }
        }
        __syncwarp(); /* every read of T' done */
        /* X' out through S (column j at S[j LO ..]), then X = X' (lower)
           or X' reversed (upper) along B's columns: lane = the row */
#pragma unroll
        for (int i = 0; i < 32; i++) S[lane * LO + i] = x[i];
        __syncwarp();
#pragma unroll
        for (int k = 0; k < 32; k++) x[k] = S[k * LO + lane]; /* all read before the first store */
#pragma unroll
        for (int k = 0; k < 32; k++) {
            const int rk = upper ? n - 1 - k : k;
            if (k < n && lane < n && (unit ? lane > k : lane >= k)) O[ri + (int64_t)rk * ldb] = x[k];
        }
        __syncwarp(); /* S is free for the next block */
    }
}

/*
 * The same inverted blocks in double on the FP64 tensor cores (sm_80 and
 * later): k_trtri_cols's column sweep takes one value broadcast from
 * shared memory per multiply-add, and a warp's 16-byte load costs four
 * passes of the shared memory pipe even when every lane reads one address
 * (session 48, Nsight Compute: 125 us for trsm 64's 20480 blocks, about
 * 83 of them that pipe).  Here the block is inverted by its halves,
 *   inv([T11 0; T21 T22]) = [X11 0; -X22 T21 X11  X22],  X = inv(T),
 * twice: the four diagonal blocks of order 8 by column substitution (a
 * group of eight lanes a block, a column a lane, the values broadcast in
 * the group), then the two blocks of order 16 from their 8 x 8 halves
 * (mma m8n8k4, two products of 8 x 8 x 8 each), then the whole from its
 * 16 x 16 halves (mma m16n8k8, two products of 16 x 16 x 16), each
 * product in place over T21 in shared memory: about 70 fragment loads
 * a block instead of 264 broadcasts.  The triangle T' (lower, or the upper
 * one reversed, as in k_trtri_cols) lies in shared memory column by column
 * (LD = 36: the fragments' loads are conflict-free), padded past the
 * order n with the identity so that every step runs on whole blocks and
 * the padding stays out of the products; the inverse leaves from there
 * along B's columns.  A zero on the diagonal gives Inf and NaN in the
 * inverse and no code, as k_trtri_cols; a NaN of T21 reaches the whole
 * off-diagonal block that the product forms (where the sweep kept it to
 * the columns that depend on it): the solves that use the inverse make
 * those rows NaN either way.
 */
constexpr int TT_LD = 36;

template <bool VAR>
__global__ void __launch_bounds__(TC_WARPS * 32, 5) k_trtri_tc(const bb_dev_batch d, int t, int L, int nbk, int64_t lda0,
                                                            int64_t ldb0, int upper, int unit)
{
    bb_pdl_trigger(); /* the on-chip trsm after it may start (trsm_panel.cu) */
    constexpr int LD = TT_LD;
    __shared__ __align__(16) double sm[TC_WARPS][32 * LD];
    __shared__ double sdi[TC_WARPS][32];
    const int lane = threadIdx.x % 32, w = threadIdx.x / 32;
    const int g = lane / 4, h = lane % 4; /* the fragments' row and column */
    double *S = sm[w], *dv = sdi[w];
    const int64_t items = d.count * nbk;
    for (int64_t it = (int64_t)blockIdx.x * TC_WARPS + w; it < items; it += (int64_t)gridDim.x * TC_WARPS) {
        const int64_t pid = it / nbk;
        const int b = (int)(it - pid * nbk);
        if (d.info && d.info[pid]) continue; /* the same for the whole warp */
        int n = min(L, t - b * L);
        int64_t lda = lda0, ldb = ldb0;
        if (VAR) {
            const bb_vdim v = d.vdim[pid];
            n = min(L, v.n), lda = v.lda, ldb = v.ldb;
        }
        if (n <= 0) continue;
        lda = bb_opaque(lda);
        const double *A = bb_dev_ptr<double>(d.opd[BB_A], pid) + (int64_t)b * L * (1 + lda);
        double *O = bb_dev_ptr<double>(d.opd[BB_B], pid) + (int64_t)b * L * ldb;
        const int ri = upper ? n - 1 - lane : lane;
        /* the triangle straight into S (cp.async, zeros outside it), then
           the diagonal's ones and reciprocals */
#pragma unroll
        for (int k = 0; k < 32; k++) {
            const int rk = upper ? n - 1 - k : k;
            const bool in = k < n && lane < n && lane >= k && !(unit && lane == k);
            bb_cp8((unsigned)__cvta_generic_to_shared(S + k * LD + lane), in ? A + ri + (int64_t)rk * lda : A, in);
        }
        bb_cp_commit();
        bb_cp_wait<0>();
        if (unit || lane >= n) S[lane * LD + lane] = 1.0; /* unit, or the padding */
        dv[lane] = 1.0 / S[lane * LD + lane];
        __syncwarp();
        {   /* the diagonal blocks of order 8: block o / 8, column j a lane */
            const int o = lane / 8 * 8, j = lane % 8;
            double y[8];
#pragma unroll
            for (int i = 0; i < 8; i++) y[i] = i == j ? 1.0 : 0.0;
#pragma unroll
            for (int k = 0; k < 8; k++)
                if (j <= k) {
                    const double yk = y[k] * dv[o + k];
                    y[k] = yk;
#pragma unroll
                    for (int i = k + 1; i < 8; i++) y[i] = fma(-S[(o + k) * LD + o + i], yk, y[i]);
                }
            __syncwarp();
#pragma unroll
            for (int i = 0; i < 8; i++) S[(o + j) * LD + o + i] = y[i];
            __syncwarp();
        }
        {   /* order 16 from the halves of 8, both at once: block o = 0, 16 */
            double c[2][2] = {};
#pragma unroll
            for (int p = 0; p < 2; p++)
#pragma unroll
                for (int kk = 0; kk < 2; kk++) { /* W = T21 X11 */
                    const int o = 16 * p, k = 4 * kk + h;
                    bb_dmma8(c[p], S[(o + k) * LD + o + 8 + g], S[(o + g) * LD + o + k]);
                }
            __syncwarp();
#pragma unroll
            for (int p = 0; p < 2; p++)
#pragma unroll
                for (int e = 0; e < 2; e++) S[(16 * p + 2 * h + e) * LD + 16 * p + 8 + g] = c[p][e];
            __syncwarp();
            double z[2][2] = {};
#pragma unroll
            for (int p = 0; p < 2; p++)
#pragma unroll
                for (int kk = 0; kk < 2; kk++) { /* X21 = -X22 W */
                    const int o = 16 * p, k = 4 * kk + h;
                    bb_dmma8(z[p], S[(o + 8 + k) * LD + o + 8 + g], S[(o + g) * LD + o + 8 + k]);
                }
            __syncwarp();
#pragma unroll
            for (int p = 0; p < 2; p++)
#pragma unroll
                for (int e = 0; e < 2; e++) S[(16 * p + 2 * h + e) * LD + 16 * p + 8 + g] = -z[p][e];
            __syncwarp();
        }
        /* order 32 from the halves of 16: W = T21 X11, then X21 = -X22 W,
           16 x 16 each, two column halves of 8 (c[m][0]: rows 0..7, [1]:
           8..15); X11's zeros above the diagonal skip the first k8 step of
           the right half */
#pragma unroll
        for (int s = 0; s < 2; s++) {
            const int ao = s ? 16 : 0; /* the left factor's columns: T21 or X22 */
            const int bo = s ? 16 : 0; /* the right factor's rows: X11 or W */
            double c[2][2][2] = {};
#pragma unroll
            for (int m = 0; m < 2; m++)
#pragma unroll
                for (int ks = 0; ks < 2; ks++) {
                    if (!s && m == 1 && ks == 0) continue;
                    double a0[2], a1[2], bq[2];
#pragma unroll
                    for (int q = 0; q < 2; q++) {
                        const int k = 8 * ks + h + 4 * q;
                        a0[q] = S[(ao + k) * LD + 16 + g];
                        a1[q] = S[(ao + k) * LD + 24 + g];
                        bq[q] = S[(8 * m + g) * LD + bo + k];
                    }
                    bb_dmma16(c[m][0], c[m][1], a0, a1, bq);
                }
            __syncwarp();
#pragma unroll
            for (int m = 0; m < 2; m++)
#pragma unroll
                for (int e = 0; e < 2; e++) {
                    S[(8 * m + 2 * h + e) * LD + 16 + g] = s ? -c[m][0][e] : c[m][0][e];
                    S[(8 * m + 2 * h + e) * LD + 24 + g] = s ? -c[m][1][e] : c[m][1][e];
                }
            __syncwarp();
        }
        /* X' = inv(T') in S; X along B's columns, lane = the row */
#pragma unroll
        for (int k0 = 0; k0 < 32; k0 += 8) { /* eight columns read, then stored */
            double x[8];
#pragma unroll
            for (int k = 0; k < 8; k++) x[k] = S[(k0 + k) * LD + lane];
#pragma unroll
            for (int k = k0; k < k0 + 8; k++) {
                const int rk = upper ? n - 1 - k : k;
                if (k < n && lane < n && (unit ? lane > k : lane >= k)) O[ri + (int64_t)rk * ldb] = x[k - k0];
            }
        }
        __syncwarp(); /* S is free for the next block */
    }
}

/* The drivers' inverted blocks: BATCHBLAS_CUDA_TRTRI_COLS=2 (default)
   k_trtri_tc in double where the device has FP64 tensor cores, else
   k_trtri_cols; =1 k_trtri_cols; =0 k_tri (for A/B runs) */
static int tc_mode(void)
{
    static int v = BB_ENV_UNREAD;
    return bb_env_int("BATCHBLAS_CUDA_TRTRI_COLS", 2, &v);
}
static bool tc_on(void) { return tc_mode() != 0; }

template <typename T>
cudaError_t run_trtri_cols(const bb_problem &p, const bb_dev_batch &d, int t, int L, int nbk, batchblas_queue *q)
{
    const int up = p.uplo == BblasUpper, unit = p.diag == BblasUnit;
    const unsigned grid = bb_grid(d.count * nbk, TC_WARPS);
    if (std::is_same<T, double>::value && tc_mode() >= 2 && bb_cuda_has_dmma()) {
        if (d.vdim) k_trtri_tc<true><<<grid, TC_WARPS * 32, 0, q->stream>>>(d, t, L, nbk, p.lda, p.ldb, up, unit);
        else k_trtri_tc<false><<<grid, TC_WARPS * 32, 0, q->stream>>>(d, t, L, nbk, p.lda, p.ldb, up, unit);
    } else if (d.vdim)
        k_trtri_cols<T, true><<<grid, TC_WARPS * 32, 0, q->stream>>>(d, t, L, nbk, p.lda, p.ldb, up, unit);
    else
        k_trtri_cols<T, false><<<grid, TC_WARPS * 32, 0, q->stream>>>(d, t, L, nbk, p.lda, p.ldb, up, unit);
    return cudaGetLastError();
}

template <typename T, int N, int KIND>
cudaError_t run_tri(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    constexpr int BS = bb_small_threads(N, tri_geom<T, N>::BYTES);
    const int unit = KIND == K_TRTRI && p.diag == BblasUnit;
    const unsigned grid = bb_grid(d.count, BS / N);
    const int up = p.uplo == BblasUpper;
    if (d.vdim) k_tri<T, N, BS, KIND, true><<<grid, BS, 0, q->stream>>>(d, p.n, p.lda, p.ldb, up, unit);
    else k_tri<T, N, BS, KIND, false><<<grid, BS, 0, q->stream>>>(d, p.n, p.lda, p.ldb, up, unit);
    return cudaGetLastError();
}

/* Largest order served per element type: 32 for all four (sm_90, -Xptxas
   -v: complex double at 32 takes 210-245 registers without spilling; the
   only spill is ptxas's own trade of about 8-12 bytes in double trtri at 32,
   which it caps at 128 registers). */
template <typename T> struct tri_cap { static constexpr int value = 32; };

template <typename T, int KIND>
cudaError_t tri_T(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    switch (bb_small_bound(p.n)) {
    case 4: return run_tri<T, 4, KIND>(p, d, q);
    case 8: return run_tri<T, 8, KIND>(p, d, q);
    case 16: return run_tri<T, 16, KIND>(p, d, q);
    default:
        if constexpr (KIND == K_TRTRI && !tri_cplx<T>::value)
            if ((d.opd[BB_B].ptr || d.opd[BB_B].base) && tc_on()) return run_trtri_cols<T>(p, d, p.n, 32, 1, q);
        if constexpr (tri_cap<T>::value >= 32) return run_tri<T, 32, KIND>(p, d, q);
        else return cudaErrorNotSupported;
    }
}

template <typename T>
cudaError_t tri_op(bb_op op, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    if (p.n > tri_cap<T>::value) return cudaErrorNotSupported;
    switch (op) {
    case BB_OP_TRTRI: return tri_T<T, K_TRTRI>(p, d, q);
    case BB_OP_LAUUM: return tri_T<T, K_LAUUM>(p, d, q);
    case BB_OP_POTRI: return tri_T<T, K_POTRI>(p, d, q);
    case BB_OP_POTI: return tri_T<T, K_POTI>(p, d, q);
    default: return cudaErrorNotSupported;
    }
}

} // namespace

cudaError_t bb_small_tri(bb_op op, bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    if (p.n < 1 || p.n > BB_SMALL_MAX) return cudaErrorNotSupported;
    BB_SMALL_BY_PREC(prec, tri_op<T>(op, p, d, q));
}

cudaError_t bb_small_trtri_blocks(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, int t, int L, void *W,
                                  int64_t stride, batchblas_queue *q)
{
    const size_t es = bb_elem_size(prec);
    if ((prec == BB_P_S || prec == BB_P_D) && L > 16 && L <= 32 && !d.vdim && tc_on()) {
        /* every block in one launch: W as a matrix of L rows, block b at
           column b L, one problem's blocks `stride` after the last's */
        bb_problem tp = bb_blank_problem();
        tp.uplo = p.uplo;
        tp.diag = p.diag;
        tp.lda = p.lda;
        tp.ldb = L;
        bb_dev_batch tb = d;
        tb.opd[BB_B] = bb_workspace_opd(W, stride);
        const int nbk = (t + L - 1) / L;
        return prec == BB_P_S ? run_trtri_cols<float>(tp, tb, t, L, nbk, q) : run_trtri_cols<double>(tp, tb, t, L, nbk, q);
    }
    for (int b = 0; b * L < t; b++) {
        bb_problem tp = bb_blank_problem();
        tp.uplo = p.uplo;
        tp.diag = p.diag;
        tp.n = t - b * L < L ? t - b * L : L;
        tp.lda = p.lda;
        tp.ldb = L;
        bb_dev_batch tb = d;
        tb.opd[BB_A] = bb_view(d.opd[BB_A], (int64_t)b * L * (1 + p.lda), es);
        tb.opd[BB_B] = bb_workspace_opd((char *)W + (size_t)b * L * L * es, stride);
        const cudaError_t e = bb_small_tri(BB_OP_TRTRI, prec, tp, tb, q);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}
