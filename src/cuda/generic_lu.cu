/*
 * Generic CUDA kernels of the LU family: getrf, getrfnp, getrs, gesv, getri,
 * getri_oop, gecond (exact condition number through getrf + getri on a
 * copy) and geinv (the same inverse, written out).  One kernel.  Row-major data (p.rowmajor) is read through a view
 * with the strides exchanged, so the same code factors the logical matrix.
 * Matrices are staged in shared memory when they fit, else the kernel works
 * in place in global memory; gecond's copy lives in shared memory or in a
 * per-block workspace slot.
 */
#define BB_GENERIC_INTERNAL
#include "generic.h"

using namespace bbg;

namespace {

template <typename T> struct LuArgs {
    bb_dev_batch d;
    int op, m, n, nrhs, trans, rowmajor, norm;
    int64_t lda, ldb;
    BufPlan plan; /* 0: A (gecond: the copy), 1: B / Ainv, 2: ipiv scratch (gecond), 3: w */
};

template <typename T> __global__ void __launch_bounds__(256) k_lu(const LuArgs<T> a)
{
    typedef typename bb_real<T>::type R;
    const int op = a.op, n = a.n, rm = a.rowmajor;
    for (int64_t pi = blockIdx.x; pi < a.d.count; pi += gridDim.x) {
        if (a.d.info && a.d.info[pi] != 0) continue;
        T *Ag = bb_dev_ptr<T>(a.d.opd[BB_A], pi);
        int code = 0;
        switch (op) {
        case BB_OP_GETRF: case BB_OP_GETRFNP: case BB_OP_GESV: {
            const int m = op == BB_OP_GESV ? n : a.m;
            const int rr = rm ? n : m, cc = rm ? m : n;
            int *ipiv = op == BB_OP_GETRFNP ? (int *)0 : bb_dev_ptr<int>(a.d.opd[BB_IPIV], pi);
            Stg<T> A = stage_in(a.plan, 0, Ag, a.lda, rr, cc, MASK_ALL, 1);
            View<T> Av = mkview_ld(A.p, A.ld, rm);
            code = blk_getrf(Av, m, n, ipiv);
            if (op == BB_OP_GESV && code == 0) {
                T *Bg = bb_dev_ptr<T>(a.d.opd[BB_B], pi);
                const int br = rm ? a.nrhs : n, bc = rm ? n : a.nrhs;
                Stg<T> B = stage_in(a.plan, 1, Bg, a.ldb, br, bc, MASK_ALL, 1);
                blk_getrs(Av, n, ipiv, mkview_ld(B.p, B.ld, rm), a.nrhs, BblasNoTrans);
                stage_out(B, Bg, a.ldb, br, bc, MASK_ALL);
            }
            stage_out(A, Ag, a.lda, rr, cc, MASK_ALL);
            break;
        }
        case BB_OP_GETRS: {
            const int *ipiv = bb_dev_ptr<int>(a.d.opd[BB_IPIV], pi);
            T *Bg = bb_dev_ptr<T>(a.d.opd[BB_B], pi);
            const int br = rm ? a.nrhs : n, bc = rm ? n : a.nrhs;
            Stg<T> A = stage_in(a.plan, 0, Ag, a.lda, n, n, MASK_ALL, 1);
            Stg<T> B = stage_in(a.plan, 1, Bg, a.ldb, br, bc, MASK_ALL, 1);
            blk_getrs(mkview_ld(A.p, A.ld, rm), n, ipiv, mkview_ld(B.p, B.ld, rm), a.nrhs, a.trans);
            stage_out(B, Bg, a.ldb, br, bc, MASK_ALL);
            break;
        }
        case BB_OP_GETRI: case BB_OP_GETRI_OOP: {
            /* info first: A (and Ainv) untouched when U is singular */
            const int *ipiv = bb_dev_ptr<int>(a.d.opd[BB_IPIV], pi);
            code = blk_first_zero_diag(mkview_ld(Ag, a.lda, rm), n);
            if (code) break;
            T *w = (T *)buf_ptr(a.plan, 3);
            if (op == BB_OP_GETRI) {
                Stg<T> A = stage_in(a.plan, 0, Ag, a.lda, n, n, MASK_ALL, 1);
                blk_getri(mkview_ld(A.p, A.ld, rm), n, ipiv, w);
                stage_out(A, Ag, a.lda, n, n, MASK_ALL);
            } else {
                T *Bg = bb_dev_ptr<T>(a.d.opd[BB_B], pi);
                Stg<T> B = stage_in(a.plan, 1, Bg, a.ldb, n, n, MASK_ALL, 0);
                blk_copy(B.p, B.ld, (const T *)Ag, a.lda, n, n, MASK_ALL);
                blk_getri(mkview_ld(B.p, B.ld, rm), n, ipiv, w);
                stage_out(B, Bg, a.ldb, n, n, MASK_ALL);
            }
            break;
        }
        case BB_OP_GECOND: case BB_OP_GEINV: {
            /* column-major (normalised); the inverse of a copy (getrf + getri):
               gecond takes ||A|| * ||inv(A)||, geinv writes it to Ainv if A is
               not singular */
            const bool inv = op == BB_OP_GEINV;
            T *W = (T *)buf_ptr(a.plan, 0);
            int *ip = (int *)buf_ptr(a.plan, 2);
            T *w = (T *)buf_ptr(a.plan, 3);
            const int64_t ldw = n > 0 ? n : 1;
            blk_copy(W, ldw, (const T *)Ag, a.lda, n, n, MASK_ALL);
            View<T> Wv = mkview(W, (int64_t)1, ldw, 0);
            const double anorm = inv ? 0.0 : blk_norm(Wv, n, n, a.norm);
            code = blk_getrf(Wv, n, n, ip);
            if (code == 0 && n > 0) blk_getri(Wv, n, ip, w);
            if (inv) {
                if (code == 0 && n > 0) {
                    __syncthreads();
                    blk_copy(bb_dev_ptr<T>(a.d.opd[BB_B], pi), a.ldb, (const T *)W, ldw, n, n, MASK_ALL);
                }
                break;
            }
            /* n = 0: cond 1, as the CPU backend (LAPACK's gecon: rcond = 1) */
            const double y = n == 0 ? 1.0 : code ? HUGE_VAL : anorm * blk_norm(Wv, n, n, a.norm);
            if (threadIdx.x == 0) *bb_dev_ptr<R>(a.d.opd[BB_Y], pi) = (R)y;
            break;
        }
        default:
            break;
        }
        __syncthreads();
        if (threadIdx.x == 0 && a.d.info && op != BB_OP_GETRS) a.d.info[pi] = code;
    }
}

} /* namespace */

template <typename T>
cudaError_t bbg_launch_lu(bb_op op, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    const int n = p.n, m = op == BB_OP_GETRF || op == BB_OP_GETRFNP ? p.m : p.n;
    if ((m == 0 || n == 0) && op != BB_OP_GECOND) return cudaSuccess;
    if (op == BB_OP_GETRS && p.nrhs == 0) return cudaSuccess;
    LuArgs<T> a;
    memset(&a, 0, sizeof a);
    a.d = d;
    a.op = op;
    a.m = m;
    a.n = n;
    a.nrhs = p.nrhs;
    a.trans = p.trans;
    a.rowmajor = p.rowmajor;
    a.norm = p.norm;
    a.lda = p.lda;
    a.ldb = p.ldb;
    const int64_t mat = (int64_t)m * n * sizeof(T), vec = (int64_t)n * sizeof(T);
    Planner pl(smem_budget(q));
    switch (op) {
    case BB_OP_GETRF: case BB_OP_GETRFNP:
        pl.add(0, mat, 0);
        break;
    case BB_OP_GESV: case BB_OP_GETRS:
        pl.add(0, mat, 0);
        pl.add(1, (int64_t)n * p.nrhs * sizeof(T), 0);
        break;
    case BB_OP_GETRI:
        pl.add(3, vec, 1);
        pl.add(0, mat, 0);
        break;
    case BB_OP_GETRI_OOP:
        pl.add(3, vec, 1);
        pl.add(1, mat, 0);
        break;
    case BB_OP_GECOND: case BB_OP_GEINV:
        pl.add(2, (int64_t)n * sizeof(int), 1);
        pl.add(3, vec, 1);
        pl.add(0, mat, 1);
        break;
    default:
        return cudaErrorNotSupported;
    }
    unsigned grid;
    cudaError_t e = finish_plan(pl, d.count, q, &grid);
    if (e != cudaSuccess) return e;
    a.plan = pl.plan;
    if ((e = allow_smem((const void *)k_lu<T>, pl.smem)) != cudaSuccess) return e;
    k_lu<T><<<grid, threads_for(m > n ? m : n), (size_t)pl.smem, stream_of(q)>>>(a);
    return cudaGetLastError();
}

template cudaError_t bbg_launch_lu<float>(bb_op, const bb_problem &, const bb_dev_batch &, batchblas_queue *);
template cudaError_t bbg_launch_lu<double>(bb_op, const bb_problem &, const bb_dev_batch &, batchblas_queue *);
template cudaError_t bbg_launch_lu<cuFloatComplex>(bb_op, const bb_problem &, const bb_dev_batch &, batchblas_queue *);
template cudaError_t bbg_launch_lu<cuDoubleComplex>(bb_op, const bb_problem &, const bb_dev_batch &, batchblas_queue *);
