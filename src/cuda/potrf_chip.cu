/*
 * The Cholesky factorisation on chip (double, orders up to POTRF_CHIP_MAX
 * = 64; issue 12): one thread block of four warps a problem, the matrix
 * read once into shared memory and written once.
 *
 * The lower view (L = U^T when upper) lies in shared memory column by
 * column (S[j * LD + i], LD = 68: the tensor-core fragments' loads are
 * conflict-free), padded to a multiple of 16: zeros past the order, 1 on
 * the padded diagonal, so every step runs over whole blocks and the
 * padding factors to the identity.  Block columns of 16, left-looking:
 *   update  S(R:, R:R+16) -= S(R:, :R) S(R:R+16, :R)^T on the FP64 tensor
 *           cores (bb_dmma16, dmma.h; the warps take its 16 x 8 tiles)
 *   factor  the diagonal block, by warp 0: a row a lane, each step's
 *           column broadcast through shared memory (no barrier);
 *   solve   the rows under it, X L_JJ^T = A: a row a thread (up to 48
 *           rows, two warps), forward, L_JJ read as broadcasts.
 * Three barriers a block column (four at n = 64), where the kernel a row a
 * thread (mid.cu) takes one for each of the 64 columns and the blocked
 * driver four launches.  A first version in which every warp factored the
 * diagonal block again beside its own rows (shuffles, no barrier) issued
 * 18.9 k warp instructions a problem at n = 64 (Nsight Compute, session
 * 40): 0.373 ms for 10240 problems, 42% of copy bandwidth.
 *
 * Semantics as bb_potrf_rows: info = k + 1 for the first column whose
 * pivot is not positive (NaN included), the factorisation stops there
 * (the columns to its right keep what the left-looking steps left: LAPACK
 * leaves them unspecified too); a pivot of +Inf gives L(k,k) = Inf and the
 * column below scaled by 0.  With d.opd[BB_C] set, A - P P^T is factored,
 * P the p.k columns at C (leading dimension lda; upper: P^T there, the
 * blocked driver's A_<j,j), summed on chip (pc_panel).  Per-problem sizes
 * (d.vdim, VAR): a class launch of a variable batch.
 */
#include "small.h"
#include "dmma.h"

namespace {

/* For the elements (i, j), j <= i < t, of the lower view of A (upper:
   A(j, i)): f(c, p, o, e), c the stored column that holds them (A's
   column j, or i when upper), p = c lda, o the element's offset in the
   column (i, or j when upper), e its offset in S (S(i, j) = S[j * LD +
   i]).  The warps take the stored columns, the lanes run along them
   (coalesced). */
template <typename F> __device__ __forceinline__ void pc_lower(int t, int upper, int64_t lda, int w, int lane, F f)
{
    for (int c = w; c < t; c += CHIP_THREADS / 32) {
        const int64_t p = c * lda;
        if (!upper)
            for (int i = c + lane; i < t; i += 32) f(c, p, i, c * CHIP_LD + i);
        else
            for (int j = lane; j <= c; j += 32) f(c, p, j, j * CHIP_LD + c);
    }
}

/* The update by the panel left of the block (the blocked driver's block
   j, potrf_core): A_jj - P P^T with P = A_j,<j (lower) or A_<j,j^T
   (upper), kw columns, read from the operand C (leading dimension lda) in
   chunks of CHIP_T columns through S before A's block comes in, the
   products in registers (the tiles of pc_tile).  Before, the driver formed
   W = P P^T by cuBLAS (all of bt x bt written, then read back here:
   252 us and about 80 us of the second block's 331 at n = 128, 10240
   problems, session 47). */
constexpr int PC_TILES = 5; /* 20 lower tiles of 16 x 8 at order 64, 4 warps */

/* tile t of the lower part of the padded order tp, row-major: its first
   row and column; false past the last */
__device__ __forceinline__ bool pc_tile(int t, int tp, int &r0, int &c0)
{
    int rb = 0;
    while ((rb + 1) * (rb + 2) <= t) rb++;
    r0 = 16 * rb, c0 = 8 * (t - rb * (rb + 1));
    return r0 < tp;
}

__device__ __forceinline__ void pc_panel(double (&acc)[PC_TILES][2][2], const bb_dev_batch &d, int64_t pid, int n,
                                         int tp, int upper, int64_t lda, int kw, double *S, unsigned Ss, int w,
                                         int lane)
{
    const int g = lane / 4, h = lane % 4;
#pragma unroll
    for (int sl = 0; sl < PC_TILES; sl++) acc[sl][0][0] = acc[sl][0][1] = acc[sl][1][0] = acc[sl][1][1] = 0.0;
    const double *P = bb_dev_ptr<double>(d.opd[BB_C], pid);
    for (int k0 = 0; k0 < kw; k0 += CHIP_T) {
        const int kc = min(CHIP_T, kw - k0), kp = (kc + 7) / 8 * 8;
        /* S[k LD + i] = P(i, k0 + k), i < tp, k < kp; zeros past n and kc.
           The warps take P's stored columns (lower: its columns k; upper:
           A's columns, P's rows i), the lanes run along them */
        if (!upper) {
            for (int k = w; k < kp; k += CHIP_THREADS / 32)
                for (int i = lane; i < tp; i += 32) {
                    const bool in = i < n && k < kc;
                    bb_cp8(Ss + (unsigned)(k * CHIP_LD + i) * 8u, in ? P + i + (int64_t)(k0 + k) * lda : P, in);
                }
        } else {
            for (int i = w; i < tp; i += CHIP_THREADS / 32)
                for (int k = lane; k < kp; k += 32) {
                    const bool in = i < n && k < kc;
                    bb_cp8(Ss + (unsigned)(k * CHIP_LD + i) * 8u, in ? P + k0 + k + (int64_t)i * lda : P, in);
                }
        }
        bb_cp_commit();
        bb_cp_wait<0>();
        __syncthreads();
#pragma unroll
        for (int sl = 0; sl < PC_TILES; sl++) {
            int r0, c0;
            if (!pc_tile(w + 4 * sl, tp, r0, c0)) continue;
            for (int kb = 0; kb < kp; kb += 8) {
                double a0[2], a1[2], b[2];
#pragma unroll
                for (int q = 0; q < 2; q++) {
                    const double *col = S + (kb + h + 4 * q) * CHIP_LD;
                    a0[q] = col[r0 + g];
                    a1[q] = col[r0 + 8 + g];
                    b[q] = col[c0 + g];
                }
                bb_dmma16(acc[sl][0], acc[sl][1], a0, a1, b);
            }
        }
        __syncthreads(); /* S is free for the next chunk, or A */
    }
}

/* PANEL: with the panel's product (kw > 0): five blocks an SM, 96
   registers (acc; ptxas: 56 bytes spilled; at six, 80 registers, 52 bytes
   stored and 268 loaded: potrf d 128 1.46 ms against 1.33, H200, session
   48) */
template <bool VAR, bool PANEL>
__global__ void __launch_bounds__(CHIP_THREADS, PANEL ? 5 : 6)
    k_potrf_chip(const bb_dev_batch d, int n0, int64_t lda0, int upper, int kw)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    extern __shared__ __align__(16) double pc_sm[];
    __shared__ __align__(16) double s_col[2][CHIP_B]; /* a step's column of L_JJ (two: no barrier between steps) */
    __shared__ double s_dinv[CHIP_B];                  /* 1 / L(k,k) of the diagonal block */
    __shared__ int s_info;
    double *S = pc_sm;
    const int tid = threadIdx.x, w = tid / 32, lane = tid % 32, g = lane / 4, h = lane % 4;
    const unsigned Ss = (unsigned)__cvta_generic_to_shared(S);
    for (int64_t pid = blockIdx.x; pid < d.count; pid += gridDim.x) {
        if (d.info && d.info[pid] != 0) continue; /* the same for the whole block */
        const bb_vdim z = bb_dims<VAR>(d, pid, 0, n0, 0, 0, lda0, 0, 0);
        const int n = z.n;
        if (n <= 0) continue;
        const int nbj = (n + CHIP_B - 1) / CHIP_B, tp = nbj * CHIP_B;
        double *A = bb_dev_ptr<double>(d.opd[BB_A], pid);
        const int64_t lda = z.lda;
        /* PANEL: acc = P P^T first, P = the kw columns left of the block
           (PC_TILES tiles of 16 x 8 a warp, pc_tile: t = w + 4 s) */
        double acc[PC_TILES][2][2];
        if (PANEL) pc_panel(acc, d, pid, n, tp, upper, lda, kw, S, Ss, w, lane);
        /* the lower view in, every copy in flight at once; the padding
           zero, with 1 on its diagonal (stored directly: no copy is in
           flight to those places) */
        pc_lower(tp, upper, lda, w, lane, [&](int c, int64_t p, int o, int e) {
            const bool in = c < n && o < n;
            if (!in && o == c) S[e] = 1.0;
            else bb_cp8(Ss + (unsigned)e * 8u, in ? A + p + o : A, in);
        });
        bb_cp_commit();
        bb_cp_wait<0>();
        __syncthreads();
        if (PANEL) { /* A - acc, the lower view's entries of the order */
#pragma unroll
            for (int sl = 0; sl < PC_TILES; sl++) {
                int r0, c0;
                if (!pc_tile(w + 4 * sl, tp, r0, c0)) continue;
#pragma unroll
                for (int u = 0; u < 2; u++)
#pragma unroll
                    for (int e = 0; e < 2; e++) {
                        const int r = r0 + 8 * u + g, c = c0 + 2 * h + e;
                        if (r < n && c <= r) S[c * CHIP_LD + r] -= acc[sl][u][e];
                    }
            }
            __syncthreads();
        }
        int info = 0;
        for (int J = 0; J < nbj; J++) {
            const int R = J * CHIP_B, below = nbj - J - 1; /* blocks of 16 rows under the diagonal block */
            if (J > 0) {
                /* the block column minus the finished columns times its
                   rows of them: 16 x 8 tiles, A's fragments negated */
                const int ntile = 2 * (below + 1);
                for (int t = w; t < ntile; t += CHIP_THREADS / 32) {
                    const int r0 = R + 16 * (t >> 1), c0 = R + 8 * (t & 1);
                    double cu[2], cl[2];
#pragma unroll
                    for (int e = 0; e < 2; e++) {
                        cu[e] = S[(c0 + 2 * h + e) * CHIP_LD + r0 + g];
                        cl[e] = S[(c0 + 2 * h + e) * CHIP_LD + r0 + 8 + g];
                    }
                    for (int kb = 0; kb < R; kb += 8) {
                        double a0[2], a1[2], b[2];
#pragma unroll
                        for (int q = 0; q < 2; q++) {
                            const double *col = S + (kb + h + 4 * q) * CHIP_LD;
                            a0[q] = -col[r0 + g];
                            a1[q] = -col[r0 + 8 + g];
                            b[q] = col[c0 + g];
                        }
                        bb_dmma16(cu, cl, a0, a1, b);
                    }
#pragma unroll
                    for (int e = 0; e < 2; e++) {
                        S[(c0 + 2 * h + e) * CHIP_LD + r0 + g] = cu[e];
                        S[(c0 + 2 * h + e) * CHIP_LD + r0 + 8 + g] = cl[e];
                    }
                }
                __syncthreads();
            }
            /* the diagonal block factored by warp 0, a row a lane (lanes
               0..15), each step's column broadcast through s_col */
            if (w == 0) {
                double r[CHIP_B]; /* lanes 16..31 hold copies of rows 0..15, never stored */
#pragma unroll
                for (int c = 0; c < CHIP_B; c++) r[c] = S[(R + c) * CHIP_LD + R + (lane & 15)];
                __syncwarp(); /* lanes 16..31 have read before lanes 0..15 store */
                int inf = 0;
#pragma unroll
                for (int k = 0; k < CHIP_B; k++) {
                    const double dkk = __shfl_sync(0xffffffffu, r[k], k);
                    if (R + k < n && !(dkk > 0)) { /* the same in every lane */
                        inf = R + k + 1;
                        break;
                    }
                    /* L(i,k) = A(i,k) rsqrt(dkk), row k's A(k,k) being dkk
                       (lanes above k: their upper triangle, never read);
                       dkk = +Inf: rsqrt gives 0, L(k,k) takes dkk and the
                       column below is scaled by 0 (bb_potrf_rows) */
                    const double rs = bb_rsqrt(dkk);
                    double lk = r[k] * rs;
                    if (lane == k && !(rs > 0.0)) lk = dkk;
                    r[k] = lk;
                    double *col = s_col[k & 1];
                    if (lane < 16) col[lane] = lk;
                    if (lane == 0) s_dinv[k] = rs;
                    __syncwarp();
#pragma unroll
                    for (int j = k + 1; j < CHIP_B; j++) r[j] = fma(-lk, col[j], r[j]);
                }
                if (lane < 16) {
#pragma unroll
                    for (int c = 0; c < CHIP_B; c++)
                        if (c <= lane) S[(R + c) * CHIP_LD + R + lane] = r[c];
                }
                if (lane == 0) s_info = inf;
            }
            __syncthreads();
            info = s_info; /* warp 0's, written before the barrier */
            if (info) break;
            /* the rows under it: X L_JJ^T = A, a row a thread, forward
               (L_JJ's entries broadcast from shared memory) */
            const int row = R + CHIP_B + tid;
            if (row < tp) {
                double x[CHIP_B];
#pragma unroll
                for (int c = 0; c < CHIP_B; c++) x[c] = S[(R + c) * CHIP_LD + row];
#pragma unroll
                for (int m = 0; m < CHIP_B; m++) {
                    x[m] *= s_dinv[m];
                    const double *l = S + (R + m) * CHIP_LD + R;
#pragma unroll
                    for (int j = m + 1; j < CHIP_B; j++) x[j] = fma(-x[m], l[j], x[j]);
                }
#pragma unroll
                for (int c = 0; c < CHIP_B; c++) S[(R + c) * CHIP_LD + row] = x[c];
            }
            __syncthreads();
        }
        /* the lower view out (the store's addresses recomputed) */
        double *Ao = bb_launder(A);
        pc_lower(n, upper, lda, w, lane, [&](int, int64_t p, int o, int e) { Ao[p + o] = S[e]; });
        if (tid == 0 && d.info) d.info[pid] = info;
        __syncthreads(); /* S is free for the next problem */
    }
#endif
}

template <bool VAR, bool PANEL> cudaError_t launch(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    /* the largest shared-memory carveout: six blocks of 34 KiB an SM */
    cudaError_t e = cudaFuncSetAttribute(k_potrf_chip<VAR, PANEL>, cudaFuncAttributePreferredSharedMemoryCarveout,
                                         (int)cudaSharedmemCarveoutMaxShared);
    if (e != cudaSuccess) return e;
    k_potrf_chip<VAR, PANEL><<<bb_grid(d.count, 1), CHIP_THREADS, CHIP_SMEM, q->stream>>>(
        d, p.n, p.lda, p.uplo == BblasUpper, PANEL ? p.k : 0);
    return cudaGetLastError();
}

} // namespace

cudaError_t bb_potrf_chip(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    if (prec != BB_P_D || p.n < 1 || p.n > bb_cuda_chip_max(BB_OP_POTRF, prec)) return cudaErrorNotSupported;
    if (d.count <= 0) return cudaSuccess;
    if (d.vdim) return launch<true, false>(p, d, q);
    if ((d.opd[BB_C].ptr || d.opd[BB_C].base) && p.k > 0) return launch<false, true>(p, d, q);
    return launch<false, false>(p, d, q);
}
