/*
 * Register kernel for trsm, m, n <= 32, every side/uplo/trans/diag:
 *   op(A) X = alpha B (left) or X op(A) = alpha B (right), X overwrites B.
 * A's triangle goes to shared memory (the other triangle, and the diagonal
 * when unit, are never read); the solve is bb_left_solve with a row of the
 * right-hand side per thread.  Left: thread i holds row i of B (coalesced).
 * Right: X op(A) = alpha B is solved as op(A)^T X^T = alpha B^T, thread i
 * holding column i of B (strided loads, served by L1).
 */
#include "small.h"

namespace {

template <typename T, int N> struct __align__(16) trsm_smem {
    T rb[2 * N];
    T S[bb_smat<T, N>::SIZE];
};

template <typename T, int N, int BS>
__global__ void __launch_bounds__(BS) k_trsm(const bb_dev_batch d, int left, int upper, int trans, int cj, int unit,
                                             int m, int n, int64_t lda0, int64_t ldb0, T alpha, int alpha_zero)
{
    constexpr int PPB = BS / N;
    constexpr int LD = bb_smat<T, N>::LD;
    __shared__ __align__(16) trsm_smem<T, N> sm[PPB];
    const int i = threadIdx.x % N, g = threadIdx.x / N;
    T *S = sm[g].S;
    /* the solved system: nr rows of length len, thread i holds row i */
    const int nr = left ? m : n, len = left ? n : m;
    /* M = op(A) (left) or op(A)^T (right), read from A as M(i,k) = A(k,i)
       when mt, else A(i,k), conjugated for ConjTrans */
    const bool mt = left ? trans != 0 : trans == 0;
    const bool mlower = left ? (upper == 0) != (trans != 0) : (upper == 0) == (trans != 0);
    for (int64_t base = (int64_t)blockIdx.x * PPB; base < d.count; base += (int64_t)gridDim.x * PPB) {
        const int64_t lda = bb_opaque(lda0), ldb = bb_opaque(ldb0);
        const int64_t bi = left ? 1 : ldb, bj = left ? ldb : 1;
        const bb_small_slot s = bb_small_take(d, base, g);
        T *B = s.active ? bb_dev_ptr<T>(d.opd[BB_B], s.pid) : NULL;
        const bool mine = s.active && i < nr;
        if (alpha_zero) { /* B = 0, A not referenced */
            if (mine) {
#pragma unroll
                for (int j = 0; j < N; j++)
                    if (j < len) B[i * bi + j * bj] = bb_zero<T>();
            }
            continue;
        }
        const T *A = s.active ? bb_dev_ptr<T>(d.opd[BB_A], s.pid) : NULL;
#pragma unroll
        for (int j = 0; j < N; j++) {
            const bool in = mine && j < nr && (upper ? j >= i : j <= i) && !(unit && j == i);
            S[i + j * LD] = in ? A[i + j * lda] : bb_zero<T>();
        }
        /* 1/M(i,i) (own store: no barrier needed) */
        const T di = (!unit && i < nr) ? bb_inv(bb_conj_if(S[i * (LD + 1)], cj != 0)) : bb_one<T>();
        T b[N];
#pragma unroll
        for (int j = 0; j < N; j++) b[j] = (mine && j < len) ? alpha * B[i * bi + j * bj] : bb_zero<T>();
        __syncwarp();
        bb_left_solve<T, N>(b, i, nr, S, LD, mlower, mt, cj != 0, di, sm[g].rb);
        if (mine) {
#pragma unroll
            for (int j = 0; j < N; j++)
                if (j < len) B[i * bi + j * bj] = b[j];
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
    k_trsm<T, N, BS><<<bb_grid(d.count, BS / N), BS, 0, q->stream>>>(
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
    if (p.m > bb_small_max(prec) || p.n > bb_small_max(prec)) return cudaErrorNotSupported;
    BB_SMALL_BY_PREC(prec, trsm_T<T>(p, d, q));
}
