/*
 * Generic CUDA kernels of the Cholesky family: potrf, potrs, posv, trtri,
 * lauum, potri, poti.  One kernel; every routine works on a lower-triangular
 * view of A: uplo = Lower is A itself, uplo = Upper is read as the conjugate
 * transpose of the stored upper triangle (L = U^H, so A = U^H U = L L^H,
 * U U^H = L^H L, inv(U) = inv(L)^H), and only the uplo triangle is read or
 * written.  A (and B) are staged in shared memory when they fit, else the
 * kernel works in place in global memory.
 */
#define BB_GENERIC_INTERNAL
#include "generic.h"

using namespace bbg;

namespace {

template <typename T> struct CholArgs {
    bb_dev_batch d;
    int op, lower, unit, n, nrhs, rhs_right;
    int64_t lda, ldb;
    BufPlan plan; /* 0: A, 1: B */
};

template <typename T> __global__ void __launch_bounds__(256) k_chol(const CholArgs<T> a)
{
    const int n = a.n;
    const int mask = a.lower ? MASK_LOWER : MASK_UPPER;
    const int op = a.op;
    for (int64_t pi = blockIdx.x; pi < a.d.count; pi += gridDim.x) {
        if (a.d.info && a.d.info[pi] != 0) continue;
        T *Ag = bb_dev_ptr<T>(a.d.opd[BB_A], pi);
        int code = 0;
        /* trtri with a unit diagonal: the diagonal is not read */
        const int amask = (op == BB_OP_TRTRI && a.unit) ? (a.lower ? MASK_SLOWER : MASK_SUPPER) : mask;
        if (op == BB_OP_TRTRI || op == BB_OP_POTRI) {
            View<T> Lg = a.lower ? mkview(Ag, (int64_t)1, a.lda, 0) : mkview(Ag, a.lda, (int64_t)1, 1);
            if (!(op == BB_OP_TRTRI && a.unit)) code = blk_first_zero_diag(Lg, n);
        }
        if (code == 0) {
            Stg<T> A = stage_in(a.plan, 0, Ag, a.lda, n, n, amask, 1);
            View<T> L = a.lower ? mkview(A.p, (int64_t)1, A.ld, 0) : mkview(A.p, A.ld, (int64_t)1, 1);
            if (op == BB_OP_POTRF || op == BB_OP_POSV || op == BB_OP_POTI) {
                /* always on a staged copy (shared memory or workspace): on
                   failure at column k only the finished columns < k and
                   A(k,k) = d (real) are written back, the rest of A keeps its
                   input values, as the CPU backend (LAPACK potf2) leaves it */
                code = blk_potrf_lower(L, n);
                if (code) {
                    const int kf = code - 1;
                    blk_copy(Ag, a.lda, (const T *)A.p, A.ld, n, n, mask, kf);
                    if (threadIdx.x == 0) Ag[kf + kf * a.lda] = realpart(A.p[kf + kf * A.ld]);
                }
            }
            if (code == 0 && (op == BB_OP_TRTRI || op == BB_OP_POTRI || op == BB_OP_POTI))
                blk_trtri_lower(L, n, op == BB_OP_TRTRI && a.unit);
            if (code == 0 && (op == BB_OP_LAUUM || op == BB_OP_POTRI || op == BB_OP_POTI))
                blk_lauum_lower(L, n);
            if (code == 0 && (op == BB_OP_POTRS || op == BB_OP_POSV)) {
                /* B is n x nrhs, or (rhs_right) nrhs x n holding X in X*A = B,
                   solved as A X^H = B^H through a conjugate-transposed view */
                T *Bg = bb_dev_ptr<T>(a.d.opd[BB_B], pi);
                const int br = a.rhs_right ? a.nrhs : n, bc = a.rhs_right ? n : a.nrhs;
                Stg<T> B = stage_in(a.plan, 1, Bg, a.ldb, br, bc, MASK_ALL, 1);
                View<T> Bv = a.rhs_right ? mkview(B.p, B.ld, (int64_t)1, 1) : mkview(B.p, (int64_t)1, B.ld, 0);
                blk_trsv(L, 1, 0, Bv, n, a.nrhs);
                blk_trsv(L.h(), 0, 0, Bv, n, a.nrhs);
                stage_out(B, Bg, a.ldb, br, bc, MASK_ALL);
            }
            if (op != BB_OP_POTRS && code == 0) stage_out(A, Ag, a.lda, n, n, amask);
        }
        __syncthreads();
        if (threadIdx.x == 0 && a.d.info && op != BB_OP_POTRS && op != BB_OP_LAUUM) a.d.info[pi] = code;
    }
}

} /* namespace */

template <typename T>
cudaError_t bbg_launch_chol(bb_op op, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    if (p.n == 0) return cudaSuccess;
    if ((op == BB_OP_POTRS) && p.nrhs == 0) return cudaSuccess;
    CholArgs<T> a;
    memset(&a, 0, sizeof a);
    a.d = d;
    a.op = op;
    a.lower = p.uplo == BblasLower;
    a.unit = p.diag == BblasUnit;
    a.n = p.n;
    a.nrhs = p.nrhs;
    a.rhs_right = p.rhs_right;
    a.lda = p.lda;
    a.ldb = p.ldb;
    Planner pl(smem_budget(q));
    const int must = op == BB_OP_POTRF || op == BB_OP_POSV || op == BB_OP_POTI;
    pl.add(0, (int64_t)p.n * p.n * sizeof(T), must);
    if (op == BB_OP_POTRS || op == BB_OP_POSV) pl.add(1, (int64_t)p.n * p.nrhs * sizeof(T), 0);
    unsigned grid;
    cudaError_t e = finish_plan(pl, d.count, q, &grid);
    if (e != cudaSuccess) return e;
    a.plan = pl.plan;
    if ((e = allow_smem((const void *)k_chol<T>, pl.smem)) != cudaSuccess) return e;
    k_chol<T><<<grid, threads_for(p.n), (size_t)pl.smem, stream_of(q)>>>(a);
    return cudaGetLastError();
}

template cudaError_t bbg_launch_chol<float>(bb_op, const bb_problem &, const bb_dev_batch &, batchblas_queue *);
template cudaError_t bbg_launch_chol<double>(bb_op, const bb_problem &, const bb_dev_batch &, batchblas_queue *);
template cudaError_t bbg_launch_chol<cuFloatComplex>(bb_op, const bb_problem &, const bb_dev_batch &, batchblas_queue *);
template cudaError_t bbg_launch_chol<cuDoubleComplex>(bb_op, const bb_problem &, const bb_dev_batch &, batchblas_queue *);
