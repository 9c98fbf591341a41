/*
 * Register kernel for trsm, m, n <= 32, every side/uplo/trans/diag:
 *   op(A) X = alpha B (left) or X op(A) = alpha B (right), X overwrites B.
 * Thread i holds row i of B.  A's triangle goes to shared memory (the other
 * triangle, and the diagonal when unit, are never read).  Left: row k of X
 * is broadcast at step k (bb_left_solve); right: every row is an
 * independent system solved in registers (bb_right_solve).
 */
#include "small.h"

namespace {

template <typename T, int N> struct __align__(16) trsm_smem {
    T rb[2 * N];
    T dv[N];
    T S[bb_smat<T, N>::SIZE];
};

template <typename T, int N, int BS>
__global__ void __launch_bounds__(BS) k_trsm(const bb_dev_batch d, int left, int upper, int trans, int cj, int unit,
                                             int m, int n, int64_t lda, int64_t ldb, T alpha, int alpha_zero)
{
    constexpr int PPB = BS / N;
    constexpr int LD = bb_smat<T, N>::LD;
    __shared__ __align__(16) trsm_smem<T, N> sm[PPB];
    const int i = threadIdx.x % N, g = threadIdx.x / N;
    T *S = sm[g].S;
    const int na = left ? m : n;
    /* M = op(A): lower triangular iff (lower, no trans) or (upper, trans) */
    const bool mlower = (upper != 0) == (trans != 0);
    for (int64_t base = (int64_t)blockIdx.x * PPB; base < d.count; base += (int64_t)gridDim.x * PPB) {
        const bb_small_slot s = bb_small_take(d, base, g);
        T *B = s.active ? bb_dev_ptr<T>(d.opd[BB_B], s.pid) : NULL;
        const bool mine = s.active && i < m;
        if (alpha_zero) { /* B = 0, A not referenced */
            if (mine) {
#pragma unroll
                for (int j = 0; j < N; j++)
                    if (j < n) B[i + j * ldb] = bb_zero<T>();
            }
            continue;
        }
        const T *A = s.active ? bb_dev_ptr<T>(d.opd[BB_A], s.pid) : NULL;
        const bool arow = s.active && i < na;
        T dii = bb_one<T>();
#pragma unroll
        for (int j = 0; j < N; j++) {
            const bool in = arow && j < na && (upper ? j > i : j < i);
            T v = in ? A[i + j * lda] : bb_zero<T>();
            if (j == i && arow && !unit) v = A[i + i * lda];
            if (j == i) dii = v;
            S[i + j * LD] = v;
        }
        /* 1/M(i,i) */
        T di = bb_one<T>();
        if (!unit && i < na) di = bb_inv(bb_conj_if(dii, trans && cj));
        sm[g].dv[i] = di;
        T b[N];
#pragma unroll
        for (int j = 0; j < N; j++) b[j] = (mine && j < n) ? alpha * B[i + j * ldb] : bb_zero<T>();
        __syncwarp();
        if (left) {
            bb_left_solve<T, N>(b, i, m, S, LD, mlower, trans, cj, di, sm[g].rb);
        } else if (!mlower) {
            if (trans) bb_right_solve<T, N, true, true>(b, n, S, LD, cj, sm[g].dv);
            else bb_right_solve<T, N, true, false>(b, n, S, LD, cj, sm[g].dv);
        } else {
            if (trans) bb_right_solve<T, N, false, true>(b, n, S, LD, cj, sm[g].dv);
            else bb_right_solve<T, N, false, false>(b, n, S, LD, cj, sm[g].dv);
        }
        if (mine) {
#pragma unroll
            for (int j = 0; j < N; j++)
                if (j < n) B[i + j * ldb] = b[j];
        }
        __syncwarp();
    }
}

template <typename T, int N>
cudaError_t run_trsm(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    constexpr int BS = bb_small_threads(N, (int)sizeof(trsm_smem<T, N>));
    const T alpha = bb_make<T>(p.alpha[0], p.alpha[1]);
    const int az = p.alpha[0] == 0 && p.alpha[1] == 0;
    k_trsm<T, N, BS><<<bb_small_grid(d.count, BS / N), BS, 0, q->stream>>>(
        d, p.side == BblasLeft, p.uplo == BblasUpper, p.trans != BblasNoTrans, p.trans == BblasConjTrans,
        p.diag == BblasUnit, p.m, p.n, p.lda, p.ldb, alpha, az);
    return cudaGetLastError();
}

template <typename T>
cudaError_t trsm_T(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    const int s = p.m > p.n ? p.m : p.n;
    BB_SMALL_BY_BOUND(s, (run_trsm<T, N>(p, d, q)));
}

} // namespace

cudaError_t bb_small_trsm(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    if (p.m > BB_SMALL_MAX || p.n > BB_SMALL_MAX) return cudaErrorNotSupported;
    BB_SMALL_BY_PREC(prec, trsm_T<T>(p, d, q));
}
