/*
 * On-chip kernels for the mid sizes, 33..64 (issue 12), real types: one
 * block of 64 threads (two warps) a problem, thread i holding row i of the
 * matrix in registers (M <= 64 columns: the compile-time bound of the
 * unrolled step loop, 48, 56 or 64), one read and one write of the matrix,
 * one barrier a step.  The register kernels' design (small.h: a row a thread,
 * seed 003) across two warps: what a group shuffles there goes through
 * shared memory here.
 *
 *   potrf  right-looking Cholesky in the lower view (upper: L = U^T, rows
 *          read with a stride); info and the state of a failed problem as
 *          bb_potrf_rows (the factorisation stops at the failing column)
 *   getrf  (single precision, and double where the LU on chip,
 *          getrf_chip.cu, does not run)
 *          right-looking LU with partial pivoting (getrfnp: without), the
 *          pivot rule and the lazy swap of bb_getrf_rows; zero pivots do
 *          not stop it; p.rowmajor honoured through the strides
 *   gecond, geinv  small_cond.cu's Gauss-Jordan with implicit pivoting and
 *          its norms, one read of A (and one write of the inverse)
 *
 * Measured against the blocked drivers on the H100 (doc/performance.md,
 * session 11), which chose the bounds (bb_mid_max, below).  Tried and
 * left out: 2-D register tiles (a 16 x 16 grid of threads, 4 x 4 elements
 * each): the bookkeeping of each step (index tests, shuffles, predicates)
 * for every 16 FMAs made getrf 0.6x and trsm 0.7-0.8x the blocked drivers,
 * and the complex types 0.2-0.7x; trsm a row a thread over two warps (the
 * triangle in shared memory, 32 (d) or 64 (s) right-hand sides a pass):
 * 0.75-0.91x the blocked driver (register trsm and GEMM) at 33..64, and
 * potrs, getrs, getri through it 0.76-0.92x: a barrier of the whole block
 * for each row, 32 FMAs a thread between two.
 */
#include "small.h"

namespace {

constexpr int MID_ROWS = 64; /* threads (rows) a problem */

/* Cholesky: at step k the rows >= k put their column-k entry in the
   buffer (row k: the diagonal), and after the barrier every row i > k
   updates r[j] -= (L(i,k) / L(k,k)) A(j,k) for j > k (the column read
   unscaled from the buffer, the row's own factor folded into one
   multiplier).  Info and the state of a failed problem as
   bb_potrf_rows. */
template <typename T, int M, bool VAR>
__global__ void __launch_bounds__(MID_ROWS) k_mid_potrf_rows(const bb_dev_batch d, int n0, int64_t lda0, int upper,
                                                            int sub)
{
    typedef typename bb_real<T>::type R;
    __shared__ __align__(16) T col[2][M];
    const int i = threadIdx.x;
    for (int64_t pid = blockIdx.x; pid < d.count; pid += gridDim.x) {
        if (d.info && d.info[pid] != 0) continue;
        const bb_vdim z = bb_dims<VAR>(d, pid, 0, n0, 0, 0, lda0, 0, 0);
        const int n = z.n;
        const int64_t lda = bb_opaque(z.lda);
        T *A = bb_dev_ptr<T>(d.opd[BB_A], pid);
        /* row i of the lower view: A(i,j) or A(j,i) (real: no conjugate) */
        const int64_t si = bb_opaque(upper ? lda : 1), sj = bb_opaque(upper ? 1 : lda);
        T r[M];
#pragma unroll
        for (int j = 0; j < M; j++) r[j] = (j < n && j <= i && i < n) ? A[i * si + j * sj] : bb_zero<T>();
        if (sub && i < n) { /* A - W, W's lower view (ld n) */
            const T *W = bb_dev_ptr<T>(d.opd[BB_C], pid);
            const int64_t wi = bb_opaque(upper ? n : 1), wj = bb_opaque(upper ? 1 : n);
#pragma unroll
            for (int j = 0; j < M; j++)
                if (j < n && j <= i) r[j] = r[j] - W[i * wi + j * wj];
        }
        int info = 0;
#pragma unroll
        for (int k = 0; k < M; k++) {
            if (k < n && info == 0) {
                T *buf = col[k & 1];
                if (i >= k && i < M) buf[i] = r[k]; /* rows from M on are past n: zeros */
                __syncthreads();
                const R dkk = buf[k];
                if (!(dkk > 0)) {
                    info = k + 1;
                } else {
                    /* dkk = +Inf: as bb_potrf_rows (L(k,k) = Inf, the column below scaled by 0) */
                    const R rs = bb_rsqrt(dkk);
                    if (i == k) r[k] = rs > R(0) ? dkk * rs : dkk;
                    else if (i > k) {
                        r[k] = rs * r[k];
                        bb_row_update<T, M>(r, buf, r[k] * rs, k);
                    }
                }
            }
        }
        /* the store's addresses recomputed, not held from the loads */
        if (i < n) {
            T *dst = bb_launder(A) + i * bb_opaque(si);
            const int64_t sj2 = bb_opaque(sj);
#pragma unroll
            for (int j = 0; j < M; j++)
                if (j < n && j <= i) dst[j * sj2] = r[j];
        }
        if (i == 0 && d.info) d.info[pid] = info;
        __syncthreads(); /* the buffers are reused by the next problem */
    }
}

/* LU: each warp finds its best candidate row by shuffles and puts that
   row in its own buffer; after the barrier every thread takes the better
   of the two (bb_getrf_rows' rule: the first NaN by position, else the
   first largest |a|) and updates its row from that buffer.  Lazy swap as
   bb_getrf_rows: rows never move, each thread tracks its row's position
   and stores it there at the end. */
template <typename T, int M, bool VAR>
__global__ void __launch_bounds__(MID_ROWS) k_mid_getrf_rows(const bb_dev_batch d, int m0, int n0, int64_t lda0,
                                                            int rowmajor, int pivot)
{
    typedef typename bb_real<T>::type R;
    __shared__ __align__(16) T rows[2][2][M]; /* [step & 1][warp] */
    __shared__ R cval[2][2];
    __shared__ int cpos[2][2];
    const int i = threadIdx.x, w = i >> 5, lane = i & 31;
    for (int64_t pid = blockIdx.x; pid < d.count; pid += gridDim.x) {
        if (d.info && d.info[pid] != 0) continue;
        const bb_vdim z = bb_dims<VAR>(d, pid, m0, n0, 0, 0, lda0, 0, 0);
        const int m = z.m, n = z.n, mn = m < n ? m : n;
        const int64_t lda = bb_opaque(z.lda), si = rowmajor ? lda : 1, sj = rowmajor ? 1 : lda;
        T *A = bb_dev_ptr<T>(d.opd[BB_A], pid);
        const bool mine = i < m;
        T r[M];
#pragma unroll
        for (int j = 0; j < M; j++) r[j] = (mine && j < n) ? A[i * si + j * sj] : bb_zero<T>();
        int pos = i, myipiv = 0, info = 0;
#pragma unroll
        for (int k = 0; k < M; k++) {
            if (k < mn) {
                const T *buf;
                int ppos = k;
                bool me = false; /* my row is the pivot row */
                if (pivot) {
                    R v = bb_abs1(r[k]);
                    int bp = pos, bl;
                    if (v != v) v = (R)INFINITY, bp -= BB_NAN_FIRST;
                    if (!(pos >= k && mine)) v = -1;
                    bp = bb_group_argmax<32, true>(v, bp, bl);
                    if (lane == bl) {
                        bb_row_put<T, M>(rows[k & 1][w], r, k);
                        cval[k & 1][w] = v;
                        cpos[k & 1][w] = bp;
                    }
                    __syncthreads();
                    const R v0 = cval[k & 1][0], v1 = cval[k & 1][1];
                    const int p0 = cpos[k & 1][0], p1 = cpos[k & 1][1];
                    const int pw = (v1 > v0 || (v1 == v0 && p1 < p0)) ? 1 : 0;
                    ppos = pw ? p1 : p0;
                    if (ppos < 0) ppos += BB_NAN_FIRST;
                    buf = rows[k & 1][pw];
                    me = pw == w && lane == bl;
                } else { /* the row at position k is row k */
                    if (i == k) bb_row_put<T, M>(rows[k & 1][0], r, k);
                    __syncthreads();
                    buf = rows[k & 1][0];
                }
                const T piv = buf[k];
                const bool nz = bb_abs1(piv) > 0; /* false for 0 and NaN */
                if (!nz && info == 0) info = k + 1;
                const T inv = nz ? bb_inv(piv) : bb_one<T>();
                if (pivot) {
                    if (i == k) myipiv = ppos + 1;
                    int np = pos;
                    if (pos == k) np = ppos;
                    if (me) np = k;
                    pos = np;
                }
                if (pos > k && mine) {
                    const T l = r[k] * inv;
                    r[k] = l;
                    bb_row_update<T, M>(r, buf, l, k);
                }
            }
        }
        if (mine) { /* the store's addresses recomputed, not held from the loads */
            T *dst = bb_launder(A) + pos * bb_opaque(si);
            const int64_t sj2 = bb_opaque(sj);
#pragma unroll
            for (int j = 0; j < M; j++)
                if (j < n) dst[j * sj2] = r[j];
        }
        if (pivot && i < mn) bb_dev_ptr<int>(d.opd[BB_IPIV], pid)[i] = myipiv;
        if (i == 0 && d.info) d.info[pid] = info;
        __syncthreads();
    }
}

/* Maximum of v over the block's 64 threads, in every thread (red: two
   slots a call; NaN if any v is NaN, as group_norm in small_cond.cu). */
template <typename R> __device__ __forceinline__ R mid_block_max(R v, R *red)
{
    const bool nan = __any_sync(0xffffffffu, v != v);
    v = bb_group_max<32>(v);
    if (nan) v = (R)NAN;
    if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = v;
    __syncthreads();
    const R a = red[0], b = red[1];
    __syncthreads();
    return (a != a || b != b) ? (R)NAN : (a > b ? a : b);
}

/* One (max column sum) or infinity (max row sum) norm of the n x n matrix
   whose row i thread i holds; cs: M x (M + 1) reals, red: two. */
template <typename T, int M>
__device__ __forceinline__ typename bb_real<T>::type mid_norm(const T (&r)[M], int n, bool inf,
                                                              typename bb_real<T>::type *cs,
                                                              typename bb_real<T>::type *red)
{
    typedef typename bb_real<T>::type R;
    const int i = threadIdx.x;
    R v = 0;
    if (inf) {
#pragma unroll
        for (int j = 0; j < M; j++)
            if (j < n) v += bb_abs(r[j]);
        if (i >= n) v = 0;
    } else {
        if (i < M) {
#pragma unroll
            for (int j = 0; j < M; j++) cs[i * (M + 1) + j] = (i < n && j < n) ? bb_abs(r[j]) : R(0);
        }
        __syncthreads();
        if (i < n)
            for (int k = 0; k < n; k++) v += cs[k * (M + 1) + i];
        __syncthreads();
    }
    return mid_block_max(v, red);
}

/* Whether k_mid_gecond keeps the pivot search by shuffles: as a warp
   reduction (bb_group_argmax, as the other instantiations), d gecond M = 48
   took 208 registers instead of 168 (4 blocks of 64 threads an SM instead
   of 6) and ran 0.93 -> 1.27 ms at n = 48, 10240 problems (H200, session
   24); held to 6 blocks an SM (__launch_bounds__), ptxas spilled 276 bytes. */
template <typename T, int M, bool INV> struct mid_cond_shfl {
    static constexpr bool value = sizeof(T) == 8 && M == 48 && !INV;
};

/* gecond / geinv (INV): small_cond.cu's Gauss-Jordan with implicit partial
   pivoting (rows never move; the pivot of step k: the first NaN, else the
   first largest |a| by row among the rows not yet pivot rows) across two
   warps: each warp's best candidate puts its row in its own buffer, the
   better of the two is taken after the barrier.  The operations of gj_rows
   in its order.  gecond: ||A|| ||inv(A)||, A not written, +Inf if singular;
   geinv: Ainv(k, p_j) = row k of the result (p_j the pivot row of step j),
   nothing written if singular.  Column-major (the front end transposes
   row-major problems). */
template <typename T, int M, bool INV, bool VAR>
__global__ void __launch_bounds__(MID_ROWS) k_mid_gecond(const bb_dev_batch d, int n0, int64_t lda0, int64_t ldb0,
                                                        int inf)
{
    typedef typename bb_real<T>::type R;
    __shared__ __align__(16) T rows[2][2][M]; /* [step & 1][warp] */
    __shared__ R cval[2][2];
    __shared__ int crow[2][2];
    __shared__ R red[2];
    __shared__ R cs[INV ? 1 : M * (M + 1)];
    __shared__ int pks[M]; /* the pivot row of each step (in registers: M more of them) */
    const int i = threadIdx.x, w = i >> 5;
    for (int64_t pid = blockIdx.x; pid < d.count; pid += gridDim.x) {
        if (d.info && d.info[pid] != 0) continue;
        const bb_vdim z = bb_dims<VAR>(d, pid, 0, n0, 0, 0, lda0, ldb0, 0);
        const int n = z.n;
        const int64_t lda = bb_opaque(z.lda);
        const T *A = bb_dev_ptr<T>(d.opd[BB_A], pid);
        const bool mine = i < n;
        T r[M];
#pragma unroll
        for (int j = 0; j < M; j++) r[j] = (mine && j < n) ? A[i + j * lda] : bb_zero<T>();
        R na = 0;
        if (!INV) na = mid_norm<T, M>(r, n, inf != 0, cs, red);
        bool used = false;
        int info = 0, mystep = 0;
#pragma unroll
        for (int k = 0; k < M; k++) {
            if (k < n) {
                R v = bb_abs1(r[k]);
                if (v != v) v = (R)INFINITY; /* a NaN is taken first */
                if (used || !mine) v = -1;
                int bl = i;
                if (mid_cond_shfl<T, M, INV>::value) {
#pragma unroll
                    for (int o = 1; o < 32; o <<= 1) {
                        const R ov = bb_shfl_xor(v, o, 32);
                        const int ol = bb_shfl_xor(bl, o, 32);
                        if (ov > v || (ov == v && ol < bl)) v = ov, bl = ol;
                    }
                } else { /* the block's row: lanes are in row order within a warp */
                    bb_group_argmax<32, false>(v, 0, bl);
                    bl += 32 * w;
                }
                if (i == bl) {
                    bb_row_put<T, M>(rows[k & 1][w], r, 0);
                    cval[k & 1][w] = v;
                    crow[k & 1][w] = bl;
                }
                __syncthreads();
                const R v0 = cval[k & 1][0], v1 = cval[k & 1][1];
                const int b0 = crow[k & 1][0], b1 = crow[k & 1][1];
                const int pw = (v1 > v0 || (v1 == v0 && b1 < b0)) ? 1 : 0;
                const int prow = pw ? b1 : b0;
                const T *buf = rows[k & 1][pw];
                const bool isp = i == prow;
                if (i == 0) pks[k] = prow;
                if (isp) {
                    used = true;
                    mystep = k;
#pragma unroll
                    for (int j = 0; j < M; j++) r[j] = bb_zero<T>();
                }
                const T piv = buf[k];
                const bool nz = bb_abs1(piv) > 0;
                if (!nz && info == 0) info = k + 1;
                const T inv = nz ? bb_inv(piv) : bb_zero<T>();
                /* pivot row: r = prow * inv; others: r -= (r[k] * inv) * prow */
                const T c = isp ? -inv : r[k] * inv;
                constexpr int E = bb_vec<T>::E;
#pragma unroll
                for (int j0 = 0; j0 < M; j0 += E) {
                    T pv[E];
                    bb_ld16(buf + j0, pv);
#pragma unroll
                    for (int e = 0; e < E; e++)
                        if (j0 + e != k) r[j0 + e] = r[j0 + e] - c * pv[e];
                }
                r[k] = isp ? inv : -c;
            }
        }
        if (INV) {
            __syncthreads(); /* pks complete */
            if (mine && info == 0) {
                T *B = bb_launder(bb_dev_ptr<T>(d.opd[BB_B], pid));
                const int64_t ldb = bb_opaque(z.ldb);
#pragma unroll
                for (int j = 0; j < M; j++)
                    if (j < n) B[mystep + pks[j] * ldb] = r[j];
            }
            if (i == 0 && d.info) d.info[pid] = info;
        } else {
            const R ni = mid_norm<T, M>(r, n, inf != 0, cs, red);
            if (i == 0) {
                *bb_dev_ptr<R>(d.opd[BB_Y], pid) = info ? (R)INFINITY : na * ni;
                if (d.info) d.info[pid] = info;
            }
        }
        __syncthreads();
    }
}

/* Runs CALL with constexpr int M = the columns the kernel covers for size s. */
#define MID_BY_COLS(s, CALL)                                  \
    if ((s) <= 48) { constexpr int M = 48; return CALL; }     \
    if ((s) <= 56) { constexpr int M = 56; return CALL; }     \
    { constexpr int M = BB_MID_MAX; return CALL; }

template <typename T, int M>
cudaError_t mid_potrf_M(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    const unsigned grid = bb_grid(d.count, 1);
    const int up = p.uplo == BblasUpper;
    const int sub = d.opd[BB_C].ptr != NULL || d.opd[BB_C].base != NULL;
    if (d.vdim) k_mid_potrf_rows<T, M, true><<<grid, MID_ROWS, 0, q->stream>>>(d, p.n, p.lda, up, sub);
    else k_mid_potrf_rows<T, M, false><<<grid, MID_ROWS, 0, q->stream>>>(d, p.n, p.lda, up, sub);
    return cudaGetLastError();
}

template <typename T, int M>
cudaError_t mid_getrf_M(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int pivot)
{
    const unsigned grid = bb_grid(d.count, 1);
    if (d.vdim) k_mid_getrf_rows<T, M, true><<<grid, MID_ROWS, 0, q->stream>>>(d, p.m, p.n, p.lda, p.rowmajor, pivot);
    else k_mid_getrf_rows<T, M, false><<<grid, MID_ROWS, 0, q->stream>>>(d, p.m, p.n, p.lda, p.rowmajor, pivot);
    return cudaGetLastError();
}

template <typename T>
cudaError_t mid_potrf_T(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    if constexpr (sizeof(T) == 8) return mid_potrf_M<T, 48>(p, d, q); /* bb_mid_max: d up to 48 */
    else { MID_BY_COLS(p.n, (mid_potrf_M<T, M>(p, d, q))); }
}

template <typename T>
cudaError_t mid_getrf_T(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int pivot)
{
    MID_BY_COLS(p.n, (mid_getrf_M<T, M>(p, d, q, pivot)));
}

template <typename T, int M>
cudaError_t mid_gecond_M(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int inv)
{
    const unsigned g = bb_grid(d.count, 1);
    const int v = d.vdim != NULL, inf = p.norm == BblasInfNorm;
    if (inv && v) k_mid_gecond<T, M, true, true><<<g, MID_ROWS, 0, q->stream>>>(d, p.n, p.lda, p.ldb, 0);
    else if (inv) k_mid_gecond<T, M, true, false><<<g, MID_ROWS, 0, q->stream>>>(d, p.n, p.lda, p.ldb, 0);
    else if (v) k_mid_gecond<T, M, false, true><<<g, MID_ROWS, 0, q->stream>>>(d, p.n, p.lda, p.ldb, inf);
    else k_mid_gecond<T, M, false, false><<<g, MID_ROWS, 0, q->stream>>>(d, p.n, p.lda, p.ldb, inf);
    return cudaGetLastError();
}

template <typename T>
cudaError_t mid_gecond_T(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int inv)
{
    MID_BY_COLS(p.n, (mid_gecond_M<T, M>(p, d, q, inv)));
}

} // namespace

int bb_mid_max(bb_op op, bb_prec prec)
{
    if (prec != BB_P_S && prec != BB_P_D) return 0;
    switch (op) {
    /* d potrf: the Cholesky on chip (potrf_chip.cu) where the device has
       FP64 tensor cores.  Without it, up to 48: at 49..64 the M = 64
       kernel (194-206 registers, 4 blocks of 64 an SM) measured 0.78-0.87x
       the blocked driver, the M = 56 one 0.99-1.08x, and a variable batch's
       class of 33..56 (all in the M = 56 kernel) 0.87-0.95x the class of
       33..48 (M = 48); s 1.3-1.6x */
    case BB_OP_POTRF:
        if (prec == BB_P_S) return 64;
        return bb_cuda_chip_max(BB_OP_POTRF, prec) ? bb_cuda_chip_max(BB_OP_POTRF, prec) : 48;
    case BB_OP_GETRF: case BB_OP_GETRFNP: return 64;
    case BB_OP_GECOND: case BB_OP_GEINV: return 64;
    /* getri, getrs, potrs and posv, fixed and the class of 33..64 of a
       variable batch: the solve on chip (getrf_chip.cu) only; posv with
       the Cholesky on chip before it */
    case BB_OP_GETRI: case BB_OP_GETRI_OOP: case BB_OP_GETRS: case BB_OP_POTRS: return bb_cuda_chip_max(op, prec);
    case BB_OP_POSV: return bb_cuda_chip_max(BB_OP_POTRF, prec) ? bb_cuda_chip_max(op, prec) : 0;
    /* gesv: the LU and the solve on chip (getrf_chip.cu), in one kernel
       up to bb_cuda_gesv_fused_max, where both are on */
    case BB_OP_GESV:
        return bb_cuda_chip_max(BB_OP_GETRF, prec) ? bb_cuda_chip_max(BB_OP_GETRS, prec) : 0;
    default: return 0;
    }
}

cudaError_t bb_mid_potrf(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    if (p.n < 1 || p.n > bb_mid_max(BB_OP_POTRF, prec)) return cudaErrorNotSupported;
    if (prec == BB_P_S) return mid_potrf_T<float>(p, d, q);
    if (bb_cuda_chip_max(BB_OP_POTRF, prec)) return bb_potrf_chip(prec, p, d, q); /* potrf_chip.cu */
    return mid_potrf_T<double>(p, d, q);
}

cudaError_t bb_mid_getrf(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int pivot)
{
    const int lim = bb_mid_max(BB_OP_GETRF, prec);
    if (p.m < 1 || p.n < 1 || p.m > lim || p.n > lim) return cudaErrorNotSupported;
    if (prec == BB_P_S) return mid_getrf_T<float>(p, d, q, pivot);
    if (bb_cuda_chip_max(BB_OP_GETRF, prec) >= lim) return bb_getrf_chip(prec, p, d, q, pivot); /* getrf_chip.cu */
    return mid_getrf_T<double>(p, d, q, pivot);
}

cudaError_t bb_mid_gecond(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int inv)
{
    if (p.n < 1 || p.n > bb_mid_max(inv ? BB_OP_GEINV : BB_OP_GECOND, prec)) return cudaErrorNotSupported;
    if (prec == BB_P_S) return mid_gecond_T<float>(p, d, q, inv);
    if (bb_cuda_chip_max(inv ? BB_OP_GEINV : BB_OP_GECOND, prec) >= p.n)
        return bb_gecond_chip(prec, p, d, q, inv); /* getrf_chip.cu */
    return mid_gecond_T<double>(p, d, q, inv);
}
