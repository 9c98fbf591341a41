/*
 * gecond and geinv for n <= 32 (seed 001): cond = ||A|| * ||inv(A)|| in the one or
 * infinity norm, exactly, in one kernel.  Thread i holds row i of A;
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

template <typename T, int N> struct __align__(16) cond_smem {
    T rb[2 * N];
    typename bb_real<T>::type cs[N * (N + 1)];
};

/* one norm (max column sum) or infinity norm (max row sum) of the n x n
   matrix whose row i thread i holds */
template <typename T, int N>
__device__ __forceinline__ typename bb_real<T>::type group_norm(const T (&r)[N], int i, int n, bool inf,
                                                                typename bb_real<T>::type *cs)
{
    typedef typename bb_real<T>::type R;
    R v = 0;
    if (inf) {
#pragma unroll
        for (int j = 0; j < N; j++)
            if (j < n) v += bb_abs(r[j]);
        if (i >= n) v = 0;
    } else {
#pragma unroll
        for (int j = 0; j < N; j++) cs[i * (N + 1) + j] = (i < n && j < n) ? bb_abs(r[j]) : R(0);
        __syncwarp();
        for (int k = 0; k < n; k++) v += cs[k * (N + 1) + i];
        __syncwarp();
    }
    /* fmax drops NaN: a NaN anywhere in the group makes the norm NaN */
    const unsigned lane0 = (threadIdx.x & 31) & ~(N - 1);
    const unsigned gm = (N == 32 ? 0xffffffffu : ((1u << N) - 1)) << lane0;
    const bool gnan = (__ballot_sync(0xffffffffu, v != v) & gm) != 0;
    v = bb_group_max<N>(v);
    if (gnan) v = (R)NAN;
    return v;
}

/* Gauss-Jordan on the group's rows (thread i: row i), columns below M
   (n <= M <= N, see bb_potrf_rows).  pk[k]: the pivot row of step k;
   mystep: the step at which my row was the pivot.  Returns info. */
template <typename T, int N, int M>
__device__ __forceinline__ int gj_rows(T (&r)[N], int i, int n, int &mystep, int (&pk)[N], T *rb)
{
    typedef typename bb_real<T>::type R;
    bool used = false; /* my row has been a pivot row */
    int info = 0;
#pragma unroll
    for (int k = 0; k < M; k++) {
        if (k < n) {
            R v = bb_abs1(r[k]);
            if (v != v) v = (R)INFINITY; /* a NaN is taken first, so it is flagged as the CPU does */
            if (used || i >= n) v = -1;
            int bl;
            bb_group_argmax<N, false>(v, 0, bl);
            T *buf = rb + (k & 1) * N;
            const bool isp = i == bl;
            pk[k] = bl;
            if (isp) {
                bb_row_put<T, N, M>(buf, r, 0);
                used = true;
                mystep = k;
#pragma unroll
                for (int j = 0; j < M; j++) r[j] = bb_zero<T>();
            }
            __syncwarp();
            const T piv = buf[k];
            const bool nz = bb_abs1(piv) > 0;
            if (!nz && info == 0) info = k + 1;
            const T inv = nz ? bb_inv(piv) : bb_zero<T>();
            /* pivot row: r = prow * inv; others: r -= (r[k] * inv) * prow */
            const T c = isp ? -inv : r[k] * inv;
#pragma unroll
            for (int j0 = 0; j0 < M; j0 += bb_vec<T>::E) {
                T pv[bb_vec<T>::E];
                bb_ld16(buf + j0, pv);
#pragma unroll
                for (int e = 0; e < bb_vec<T>::E; e++)
                    if (j0 + e != k) r[j0 + e] = r[j0 + e] - c * pv[e];
            }
            r[k] = isp ? inv : -c;
        }
    }
    return info;
}

template <typename T, int N, int M, int BS, bool INV, bool VAR>
__global__ void __launch_bounds__(BS) k_gecond(const bb_dev_batch d, int n0, int64_t lda0, int64_t ldb0, int inf)
{
    typedef typename bb_real<T>::type R;
    constexpr int PPB = BS / N;
    __shared__ __align__(16) cond_smem<T, N> sm[PPB];
    const int i = threadIdx.x % N, g = threadIdx.x / N;
    for (int64_t base = (int64_t)blockIdx.x * PPB; base < d.count; base += (int64_t)gridDim.x * PPB) {
        const bb_vdim z = bb_dims<VAR>(d, base + g, 0, n0, 0, 0, lda0, ldb0, 0);
        const int n = z.n;
        const int64_t lda = bb_opaque(z.lda);
        const bb_small_slot s = bb_small_take(d, base, g);
        const T *A = s.active ? bb_dev_ptr<T>(d.opd[BB_A], s.pid) : NULL;
        const bool mine = s.active && i < n;
        T r[N];
#pragma unroll
        for (int j = 0; j < N; j++) r[j] = (mine && j < n) ? A[i + j * lda] : bb_zero<T>();

        R na = 0;
        if (!INV) na = group_norm<T, N>(r, i, n, inf, sm[g].cs);

        int info, mystep = 0, pk[N];
        info = gj_rows<T, N, M>(r, i, n, mystep, pk, sm[g].rb);
        if (INV) {
            if (mine && info == 0) {
                T *B = bb_dev_ptr<T>(d.opd[BB_B], s.pid);
                const int64_t ldb = bb_opaque(z.ldb);
#pragma unroll
                for (int j = 0; j < N; j++)
                    if (j < n) B[mystep + pk[j] * ldb] = r[j];
            }
            if (s.active && i == 0 && d.info) d.info[s.pid] = info;
        } else {
            const R ni = group_norm<T, N>(r, i, n, inf, sm[g].cs);
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

template <typename T, int N, int M>
cudaError_t run_gecond(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int inv)
{
    constexpr int BS = bb_small_threads(N, (int)sizeof(cond_smem<T, N>));
    const unsigned g = bb_grid(d.count, BS / N);
    const int v = d.vdim != NULL, inf = p.norm == BblasInfNorm;
    if (inv && v) k_gecond<T, N, M, BS, true, true><<<g, BS, 0, q->stream>>>(d, p.n, p.lda, p.ldb, 0);
    else if (inv) k_gecond<T, N, M, BS, true, false><<<g, BS, 0, q->stream>>>(d, p.n, p.lda, p.ldb, 0);
    else if (v) k_gecond<T, N, M, BS, false, true><<<g, BS, 0, q->stream>>>(d, p.n, p.lda, p.ldb, inf);
    else k_gecond<T, N, M, BS, false, false><<<g, BS, 0, q->stream>>>(d, p.n, p.lda, p.ldb, inf);
    return cudaGetLastError();
}

template <typename T>
cudaError_t gecond_T(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int inv)
{
    BB_SMALL_BY_BOUND(p.n, (run_gecond<T, N, M>(p, d, q, inv)));
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
