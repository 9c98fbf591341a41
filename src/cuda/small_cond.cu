/*
 * gecond and geinv for n <= 32 (seed 001): cond = ||A|| * ||inv(A)|| in the one or
 * infinity norm, exactly, in one kernel.  Thread i holds row i of A (gecond
 * at n = 32: rows i and i + 16);
 * ||A|| is taken first, then A is inverted in registers by Gauss-Jordan
 * elimination with implicit partial pivoting (no row ever moves: the
 * pivot row of step k is broadcast through shared memory and stays in its
 * thread).  The result is inv(A) with rows and columns permuted, which
 * leaves both norms unchanged, so no un-permuting is needed.  A is not
 * written.  Singular (a zero or NaN pivot at step k): info = k, cond = +Inf.
 *
 * geinv (INV) is the same elimination with the inverse written instead of
 * the norms: the thread whose row was the pivot of step k holds row k of
 * inv(A) with column j at position p_j (p_j: the pivot row of step j), so
 * it writes Ainv(k, p_j) = r[j].  Singular: Ainv is not written.
 */
#include "small.h"

namespace {

template <typename T, int N, bool INV> struct __align__(16) cond_smem {
    T rb[2 * N];
    typename bb_real<T>::type cs[INV ? 1 : N * (N + 1)]; /* column sums (one norm) */
    int pk[N];                                            /* geinv: the pivot row of each step */
};

/* one norm (max column sum) or infinity norm (max row sum) of the n x n
   matrix whose rows i + q G (q < RPT) thread i of the group of G holds */
template <typename T, int N, int G, int RPT>
__device__ __forceinline__ typename bb_real<T>::type group_norm(const T (&r)[RPT][N], int i, int n, bool inf,
                                                                typename bb_real<T>::type *cs)
{
    typedef typename bb_real<T>::type R;
    R v = 0;
    bool nan = false;
    if (inf) {
#pragma unroll
        for (int q = 0; q < RPT; q++) {
            R sum = 0;
#pragma unroll
            for (int j = 0; j < N; j++)
                if (j < n) sum += bb_abs(r[q][j]);
            if (i + q * G >= n) sum = 0;
            if (sum != sum) nan = true;
            else v = fmax(v, sum);
        }
    } else {
#pragma unroll
        for (int q = 0; q < RPT; q++) {
            const int row = i + q * G;
#pragma unroll
            for (int j = 0; j < N; j++) cs[row * (N + 1) + j] = (row < n && j < n) ? bb_abs(r[q][j]) : R(0);
        }
        __syncwarp();
#pragma unroll
        for (int q = 0; q < RPT; q++) {
            R sum = 0;
            for (int k = 0; k < n; k++) sum += cs[k * (N + 1) + i + q * G];
            if (sum != sum) nan = true;
            else v = fmax(v, sum);
        }
        __syncwarp();
    }
    /* a NaN anywhere in the group makes the norm NaN */
    const unsigned lane0 = (threadIdx.x & 31) & ~(G - 1);
    const unsigned gm = (G == 32 ? 0xffffffffu : ((1u << G) - 1)) << lane0;
    const bool gnan = (__ballot_sync(0xffffffffu, nan) & gm) != 0;
    v = bb_group_max<G>(v);
    if (gnan) v = (R)NAN;
    return v;
}

/*
 * A group of G = N / RPT threads per problem, thread i holding rows i + q G
 * (q < RPT): RPT = 2 at N = 32 halves the shared-memory reads of the pivot
 * rows, which bound the one-row-per-thread form there.
 */
template <typename T, int N, int RPT, int BS, bool INV>
__global__ void __launch_bounds__(BS) k_gecond(const bb_dev_batch d, int n, int64_t lda0, int64_t ldb0, int inf)
{
    typedef typename bb_real<T>::type R;
    constexpr int G = N / RPT, PPB = BS / G;
    __shared__ __align__(16) cond_smem<T, N, INV> sm[PPB];
    const int i = threadIdx.x % G, g = threadIdx.x / G;
    for (int64_t base = (int64_t)blockIdx.x * PPB; base < d.count; base += (int64_t)gridDim.x * PPB) {
        const int64_t lda = bb_opaque(lda0);
        const bb_small_slot s = bb_small_take(d, base, g);
        const T *A = s.active ? bb_dev_ptr<T>(d.opd[BB_A], s.pid) : NULL;
        T r[RPT][N];
#pragma unroll
        for (int q = 0; q < RPT; q++) {
            const bool mine = s.active && i + q * G < n;
#pragma unroll
            for (int j = 0; j < N; j++) r[q][j] = (mine && j < n) ? A[i + q * G + j * lda] : bb_zero<T>();
        }

        R na = 0;
        if (!INV) na = group_norm<T, N, G, RPT>(r, i, n, inf, sm[g].cs);

        bool used[RPT]; /* the row has been a pivot row */
        int mystep[RPT];
#pragma unroll
        for (int q = 0; q < RPT; q++) used[q] = false, mystep[q] = 0;
        int info = 0;
#pragma unroll
        for (int k = 0; k < N; k++) {
            if (k < n) {
                /* the first NaN is taken (as the CPU), ties to the lower row */
                R v = -1;
                int bl = 0x7fffffff;
#pragma unroll
                for (int q = 0; q < RPT; q++) {
                    R x = bb_abs1(r[q][k]);
                    if (x != x) x = (R)INFINITY;
                    if (used[q] || i + q * G >= n) x = -1;
                    if (x > v) { v = x; bl = i + q * G; }
                }
                if (bl == 0x7fffffff) bl = i;
#pragma unroll
                for (int o = 1; o < G; o <<= 1) {
                    const R ov = bb_shfl_xor(v, o, G);
                    const int ol = bb_shfl_xor(bl, o, G);
                    if (ov > v || (ov == v && ol < bl)) { v = ov; bl = ol; }
                }
                T *buf = sm[g].rb + (k & 1) * N;
                bool isp[RPT];
#pragma unroll
                for (int q = 0; q < RPT; q++) {
                    isp[q] = i + q * G == bl;
                    if (isp[q]) {
                        bb_row_put<T, N>(buf, r[q], 0);
                        used[q] = true;
                        mystep[q] = k;
#pragma unroll
                        for (int j = 0; j < N; j++) r[q][j] = bb_zero<T>();
                    }
                }
                if (INV && i == 0) sm[g].pk[k] = bl;
                __syncwarp();
                const T piv = buf[k];
                const bool nz = bb_abs1(piv) > 0;
                if (!nz && info == 0) info = k + 1;
                const T inv = nz ? bb_inv(piv) : bb_zero<T>();
                /* pivot row: r = prow * inv; others: r -= (r[k] * inv) * prow */
                T c[RPT];
#pragma unroll
                for (int q = 0; q < RPT; q++) c[q] = isp[q] ? -inv : r[q][k] * inv;
#pragma unroll
                for (int j0 = 0; j0 < N; j0 += bb_vec<T>::E) {
                    T pv[bb_vec<T>::E];
                    bb_ld16(buf + j0, pv);
#pragma unroll
                    for (int q = 0; q < RPT; q++)
#pragma unroll
                        for (int e = 0; e < bb_vec<T>::E; e++)
                            if (j0 + e != k) r[q][j0 + e] = r[q][j0 + e] - c[q] * pv[e];
                }
#pragma unroll
                for (int q = 0; q < RPT; q++) r[q][k] = isp[q] ? inv : -c[q];
            }
        }
        if (INV) {
            __syncwarp(); /* pk */
            if (s.active && info == 0) {
                T *B = bb_dev_ptr<T>(d.opd[BB_B], s.pid);
                const int64_t ldb = bb_opaque(ldb0);
#pragma unroll
                for (int q = 0; q < RPT; q++)
                    if (i + q * G < n) {
#pragma unroll
                        for (int j = 0; j < N; j++)
                            if (j < n) B[mystep[q] + sm[g].pk[j] * ldb] = r[q][j];
                    }
            }
            if (s.active && i == 0 && d.info) d.info[s.pid] = info;
        } else {
            const R ni = group_norm<T, N, G, RPT>(r, i, n, inf, sm[g].cs);
            R cond = na * ni;
            if (info) cond = (R)INFINITY;
            if (s.active && i == 0) {
                *bb_dev_ptr<R>(d.opd[BB_Y], s.pid) = cond;
                if (d.info) d.info[s.pid] = info;
            }
        }
        __syncwarp();
    }
}

template <typename T, int N>
cudaError_t run_gecond(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int inv)
{
    /* rows per thread, measured on the H100 at N = 32: two for gecond (d 16.2
       -> 13.5 ms, s 9.1 -> 7.7 ms for 10^6), one for geinv (two ran 2.1x
       slower in double, 1.4x in single) */
    constexpr int RPC = N == 32 ? 2 : 1, GC = N / RPC, GI = N;
    constexpr int BSI = bb_small_threads(GI, (int)sizeof(cond_smem<T, N, true>));
    constexpr int BSC = bb_small_threads(GC, (int)sizeof(cond_smem<T, N, false>));
    if (inv) k_gecond<T, N, 1, BSI, true><<<bb_grid(d.count, BSI / GI), BSI, 0, q->stream>>>(d, p.n, p.lda, p.ldb, 0);
    else
        k_gecond<T, N, RPC, BSC, false><<<bb_grid(d.count, BSC / GC), BSC, 0, q->stream>>>(d, p.n, p.lda, p.ldb,
                                                                                        p.norm == BblasInfNorm);
    return cudaGetLastError();
}

template <typename T>
cudaError_t gecond_T(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int inv)
{
    BB_SMALL_BY_BOUND(p.n, (run_gecond<T, N>(p, d, q, inv)));
}

} // namespace

cudaError_t bb_small_gecond(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    if (p.n > bb_small_max(prec)) return cudaErrorNotSupported;
    BB_SMALL_BY_PREC(prec, gecond_T<T>(p, d, q, 0));
}

cudaError_t bb_small_geinv(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    if (p.n > bb_small_max(prec)) return cudaErrorNotSupported;
    BB_SMALL_BY_PREC(prec, gecond_T<T>(p, d, q, 1));
}
