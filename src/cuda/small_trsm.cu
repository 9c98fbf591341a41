/*
 * Register kernel for trsm, m, n <= 32, every side/uplo/trans/diag:
 *   op(A) X = alpha B (left) or X op(A) = alpha B (right), X overwrites B.
 * A's triangle goes to shared memory (the other triangle, and the diagonal
 * when unit, are never read); the solve is bb_left_solve (a row of the
 * right-hand side a thread), or bb_tile_solve where bb_tile_rows says (R
 * rows x N/R columns a thread: complex types from N = 16).  Left: the rows of the tiles are
 * rows of B (coalesced).  Right: X op(A) = alpha B is solved as
 * op(A)^T X^T = alpha B^T, the rows of the tiles being columns of B
 * (strided loads, served by L1).
 * The free dimension of B (n left, m right) may exceed 32 when cut into
 * chunks of cw <= N (the blocked driver): chunk c of problem p is the
 * launch's item p * nch + c, so one launch solves every chunk.
 */
#include "small.h"

namespace {

template <typename T, int N> struct __align__(16) trsm_smem {
    T rb[2 * N];
    T S[bb_smat<T, N>::SIZE];
};

template <typename T, int N, int M, int BS, bool VAR>
__global__ void __launch_bounds__(BS) k_trsm(const bb_dev_batch d, int left, int upper, int trans, int cj, int unit,
                                             int m0, int n0, int64_t lda0, int64_t ldb0, T alpha, int alpha_zero,
                                             int cw, int64_t nch)
{
    constexpr int PPB = BS / N;
    constexpr int LD = bb_smat<T, N>::LD;
    __shared__ __align__(16) trsm_smem<T, N> sm[PPB];
    const int i = threadIdx.x % N, g = threadIdx.x / N;
    T *S = sm[g].S;
    /* M = op(A) (left) or op(A)^T (right), read from A as M(i,k) = A(k,i)
       when mt, else A(i,k), conjugated for ConjTrans */
    const int nr0 = left ? m0 : n0;
    const bool mt = left ? trans != 0 : trans == 0;
    const bool mlower = left ? (upper == 0) != (trans != 0) : (upper == 0) == (trans != 0);
    const int64_t items = d.count * nch;
    for (int64_t base = (int64_t)blockIdx.x * PPB; base < items; base += (int64_t)gridDim.x * PPB) {
        /* a class launch of a variable batch has nch = 1 (item = problem) */
        const bb_vdim z = bb_dims<VAR>(d, base + g, m0, n0, 0, 0, lda0, ldb0, 0);
        const int64_t lda = bb_opaque(z.lda), ldb = bb_opaque(z.ldb);
        const int64_t bi = left ? 1 : ldb, bj = left ? ldb : 1;
        const int64_t item = base + g, pid = item / nch;
        /* the solved system: nr rows of length len (of this chunk), thread
           i holds row i */
        const int m = z.m, n = z.n, nr = VAR ? (left ? m : n) : nr0;
        const int f0 = (int)(item - pid * nch) * cw;
        bb_small_slot s;
        s.pid = pid;
        s.active = item < items && (d.info == NULL || d.info[pid] == 0);
        /* a warp whose slots are all skipped leaves them at once (N divides
           32: the warp's groups all continue).  The walks of the variable
           driver give each leaf a slot for every problem of the slice and
           chunk, and past the small problems' orders most are skipped: d
           skewed [1, 512], 10240 problems, spent 2.0 of its 3.9 ms in this
           kernel, 125 us a leaf over 63056 slots of which 1600 solve (H200,
           session 32) */
        if (__all_sync(0xffffffffu, !s.active)) continue;
        const int rest = (left ? n : m) - f0, len = rest < cw ? rest : cw;
        T *B = s.active ? bb_dev_ptr<T>(d.opd[BB_B], s.pid) + f0 * bj : NULL;
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
        constexpr int R = bb_tile_rows<T, N, false>::value;
        if constexpr (R == 1) { /* one row a thread */
            /* 1/M(i,i) (own store: no barrier needed) */
            const T di = (!unit && i < nr) ? bb_inv(bb_conj_if(S[i * (LD + 1)], cj != 0)) : bb_one<T>();
            T b[N];
#pragma unroll
            for (int j = 0; j < N; j++) b[j] = (mine && j < len) ? alpha * B[i * bi + j * bj] : bb_zero<T>();
            __syncwarp();
            bb_left_solve<T, N, M>(b, i, nr, S, LD, mlower, mt, cj != 0, di, sm[g].rb);
            if (mine) {
#pragma unroll
                for (int j = 0; j < N; j++)
                    if (j < len) B[i * bi + j * bj] = b[j];
            }
            __syncwarp();
            continue;
        }
        /* the solve in bb_tile_solve's tiles: thread i holds rows i % G +
           G r (r < R) of the system, columns c0 .. c0 + WC - 1 */
        constexpr int WC = N / R, G = N / R;
        const int rg = i % G, c0 = (i / G) * WC;
        __syncwarp();
        T di[R], b[R][WC];
#pragma unroll
        for (int r = 0; r < R; r++) {
            const int row = rg + G * r;
            const bool in = s.active && row < nr;
            di[r] = (!unit && row < nr) ? bb_inv(bb_conj_if(S[row * (LD + 1)], cj != 0)) : bb_one<T>();
#pragma unroll
            for (int j = 0; j < WC; j++)
                b[r][j] = (in && c0 + j < len) ? alpha * B[row * bi + (c0 + j) * bj] : bb_zero<T>();
        }
        bb_tile_solve<T, N, R, WC>(b, i, nr, len, S, mt ? LD : 1, mt ? 1 : LD, mlower, cj != 0, unit != 0, di,
                                   sm[g].rb);
#pragma unroll
        for (int r = 0; r < R; r++)
            if (s.active && rg + G * r < nr) {
#pragma unroll
                for (int j = 0; j < WC; j++)
                    if (c0 + j < len) B[(rg + G * r) * bi + (c0 + j) * bj] = b[r][j];
            }
        __syncwarp();
    }
}

template <typename T, int N, int M>
cudaError_t run_trsm(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int cw)
{
    constexpr int BS = bb_small_threads(N, (int)sizeof(trsm_smem<T, N>));
    const T alpha = bb_make<T>(p.alpha[0], p.alpha[1]);
    const int az = p.alpha[0] == 0 && p.alpha[1] == 0;
    const int f = p.side == BblasLeft ? p.n : p.m;
    const int64_t nch = f > cw ? (f + cw - 1) / cw : 1;
    if (d.vdim && nch != 1) return cudaErrorNotSupported; /* class launches: every size within the bound */
    const unsigned grid = bb_grid(d.count * nch, BS / N);
    const int left = p.side == BblasLeft, up = p.uplo == BblasUpper, tr = p.trans != BblasNoTrans;
    const int cj = p.trans == BblasConjTrans, unit = p.diag == BblasUnit;
    if (d.vdim)
        k_trsm<T, N, M, BS, true><<<grid, BS, 0, q->stream>>>(d, left, up, tr, cj, unit, p.m, p.n, p.lda, p.ldb, alpha,
                                                           az, cw, nch);
    else
        k_trsm<T, N, M, BS, false><<<grid, BS, 0, q->stream>>>(d, left, up, tr, cj, unit, p.m, p.n, p.lda, p.ldb, alpha,
                                                            az, cw, nch);
    return cudaGetLastError();
}

/* cw: chunk width of the free dimension (<= the bound N of the order) */
template <typename T>
cudaError_t trsm_T(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int cw)
{
    const int t = p.side == BblasLeft ? p.m : p.n, f = p.side == BblasLeft ? p.n : p.m;
    const int s = t > (f < cw ? f : cw) ? t : (f < cw ? f : cw);
    BB_SMALL_BY_BOUND(s, (run_trsm<T, N, M>(p, d, q, cw)));
}

} // namespace

cudaError_t bb_small_trsm(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    if (p.m > bb_small_max(prec) || p.n > bb_small_max(prec)) return cudaErrorNotSupported;
    BB_SMALL_BY_PREC(prec, trsm_T<T>(p, d, q, BB_SMALL_MAX));
}

cudaError_t bb_small_trsm_chunked(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q,
                                  int cw)
{
    const int t = p.side == BblasLeft ? p.m : p.n;
    if (t > bb_small_max(prec) || cw < 1 || cw > bb_small_max(prec)) return cudaErrorNotSupported;
    BB_SMALL_BY_PREC(prec, trsm_T<T>(p, d, q, cw));
}
