/*
 * Generic CUDA kernels for norms and condition estimation: lange (one real
 * per problem in Y) and gecon (LAPACK's estimate: Hager/Higham iteration of
 * lacn2 with triangular solves on the LU factors, without the overflow
 * scaling of latrs: a solve that overflows gives rcond = 0, where LAPACK
 * bails out with rcond = 0 as well).
 */
#define BB_GENERIC_INTERNAL
#include "generic.h"

using namespace bbg;

namespace {

template <typename T> struct NormArgs {
    bb_dev_batch d;
    int m, n, norm;
    int64_t lda;
};

template <typename T> __global__ void __launch_bounds__(256) k_lange(const NormArgs<T> a)
{
    typedef typename bb_real<T>::type R;
    for (int64_t pi = blockIdx.x; pi < a.d.count; pi += gridDim.x) {
        if (a.d.info && a.d.info[pi] != 0) continue;
        T *Ag = bb_dev_ptr<T>(a.d.opd[BB_A], pi);
        /* a class launch of a variable batch: the problem's own sizes */
        const bb_vdim *v = a.d.vdim ? a.d.vdim + pi : NULL;
        double r = blk_norm(mkview(Ag, (int64_t)1, v ? v->lda : a.lda, 0), v ? v->m : a.m, v ? v->n : a.n, a.norm);
        if (threadIdx.x == 0) *bb_dev_ptr<R>(a.d.opd[BB_Y], pi) = (R)r;
        __syncthreads();
    }
}

template <typename T> struct GeconArgs {
    bb_dev_batch d;
    int n, kase1, rowmajor;
    int64_t lda;
    BufPlan plan; /* 0: A, 1: x, 2: signs */
};

/* x := inv(A) x (kase == kase1) or inv(A)^H x, A = L*U (pivots not needed:
   they do not change the norm); returns 0 if x is no longer finite. */
template <typename T> __device__ int apply_inv(View<T> A, int n, T *x, int kase, int kase1)
{
    View<T> xv = mkview(x, (int64_t)1, (int64_t)n, 0);
    if (kase == kase1) {
        blk_trsv(A, 1, 1, xv, n, 1);
        blk_trsv(A, 0, 0, xv, n, 1);
    } else {
        View<T> Ah = A.h();
        blk_trsv(Ah, 1, 0, xv, n, 1);
        blk_trsv(Ah, 0, 1, xv, n, 1);
    }
    double bad = 0.0;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        if (!finite_t(x[i])) bad = 1.0;
    return blk_reduce(bad, RED_MAX) == 0.0;
}

template <typename T> __device__ double asum(const T *x, int n)
{
    double s = 0.0;
    for (int i = threadIdx.x; i < n; i += blockDim.x) s += absv(x[i]);
    return blk_reduce(s, RED_SUM);
}

/* first index of the largest |x(i)| */
template <typename T> __device__ int iamax(const T *x, int n)
{
    Cand<T> c = {0, -2.0, INT_MAX, zero<T>()};
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        double v = absv(x[i]);
        if (v != v) v = -1.0; /* cannot happen: x is checked finite */
        if (v > c.key) { c.key = v; c.idx = i; c.val = x[i]; }
    }
    return blk_argmax(c).idx;
}

/* sign vector: real: +-1 (also stored in s); complex: x/|x| (1 if tiny) */
template <typename T> __device__ void to_sign(T *x, T *s, int n)
{
    typedef typename bb_real<T>::type R;
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        T v = x[i];
        if (is_cplx<T>::value) {
            R a = (R)absv(v);
            const R safmin = sizeof(R) == 4 ? (R)FLT_MIN : (R)DBL_MIN;
            x[i] = a > safmin ? bb_make<T>((double)(bb_re(v) / a), (double)(bb_im(v) / a)) : one<T>();
        } else {
            x[i] = bb_make<T>(bb_re(v) >= 0 ? 1.0 : -1.0, 0.0);
            s[i] = x[i];
        }
    }
    __syncthreads();
}

/* lacn2 estimate of ||inv(A)||_1 (kase1 = 1) or ||inv(A)||_inf (kase1 = 2);
   returns -1 if a solve overflowed. */
template <typename T> __device__ double blk_lacn2(View<T> A, int n, int kase1, T *x, T *s)
{
    const int tid = threadIdx.x, nt = blockDim.x;
    const bool cplx = is_cplx<T>::value;
    double est, estold;
    __syncthreads();
    for (int i = tid; i < n; i += nt) x[i] = bb_make<T>(1.0 / n, 0.0);
    if (!apply_inv(A, n, x, 1, kase1)) return -1.0;
    if (n == 1) return absv(x[0]);
    est = asum(x, n);
    to_sign(x, s, n);
    if (!apply_inv(A, n, x, 2, kase1)) return -1.0;
    int j = iamax(x, n);
    int iter = 2;
    for (;;) {
        __syncthreads();
        for (int i = tid; i < n; i += nt) x[i] = i == j ? one<T>() : zero<T>();
        if (!apply_inv(A, n, x, 1, kase1)) return -1.0;
        estold = est;
        est = asum(x, n);
        if (!cplx) {
            /* repeated sign vector: converged */
            double differs = 0.0;
            for (int i = tid; i < n; i += nt) {
                double xs = bb_re(x[i]) >= 0 ? 1.0 : -1.0;
                if (xs != (double)bb_re(s[i])) differs = 1.0;
            }
            if (blk_reduce(differs, RED_MAX) == 0.0) break;
        }
        if (est <= estold) break;
        to_sign(x, s, n);
        if (!apply_inv(A, n, x, 2, kase1)) return -1.0;
        const int jlast = j;
        j = iamax(x, n);
        const double xl = cplx ? absv(x[jlast]) : (double)bb_re(x[jlast]);
        if (xl != absv(x[j]) && iter < 5) {
            iter++;
            continue;
        }
        break;
    }
    /* final stage: alternating vector */
    __syncthreads();
    for (int i = tid; i < n; i += nt) {
        double v = 1.0 + (double)i / (double)(n - 1);
        x[i] = bb_make<T>(i & 1 ? -v : v, 0.0);
    }
    if (!apply_inv(A, n, x, 1, kase1)) return -1.0;
    double temp = 2.0 * (asum(x, n) / (double)(3 * n));
    if (temp > est) est = temp;
    return est;
}

template <typename T> __global__ void __launch_bounds__(256) k_gecon(const GeconArgs<T> a)
{
    typedef typename bb_real<T>::type R;
    for (int64_t pi = blockIdx.x; pi < a.d.count; pi += gridDim.x) {
        if (a.d.info && a.d.info[pi] != 0) continue;
        /* a class launch of a variable batch: the problem's own order (the
           buffers are planned for the largest, a.n) */
        const int n = a.d.vdim ? a.d.vdim[pi].n : a.n;
        const int64_t lda = a.d.vdim ? a.d.vdim[pi].lda : a.lda;
        const double anorm = (double)*bb_dev_ptr<R>(a.d.opd[BB_X], pi);
        double rc;
        if (n == 0) rc = 1.0;
        else if (anorm == 0.0) rc = 0.0;
        else if (anorm != anorm) rc = anorm;
        else if (isinf(anorm)) rc = 0.0;
        else {
            T *Ag = bb_dev_ptr<T>(a.d.opd[BB_A], pi);
            Stg<T> A = stage_in(a.plan, 0, Ag, lda, n, n, MASK_ALL, 1);
            View<T> Av = mkview_ld(A.p, A.ld, a.rowmajor);
            if (blk_first_zero_diag(Av, n)) {
                rc = 0.0;
            } else {
                double est = blk_lacn2(Av, n, a.kase1, (T *)buf_ptr(a.plan, 1), (T *)buf_ptr(a.plan, 2));
                rc = est > 0.0 ? (1.0 / est) / anorm : 0.0;
            }
        }
        if (threadIdx.x == 0) *bb_dev_ptr<R>(a.d.opd[BB_Y], pi) = (R)rc;
        __syncthreads();
    }
}

} /* namespace */

template <typename T>
cudaError_t bbg_launch_norm(bb_op op, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    if (op == BB_OP_LANGE) {
        NormArgs<T> a;
        memset(&a, 0, sizeof a);
        a.d = d;
        a.m = p.m;
        a.n = p.n;
        a.norm = p.norm;
        a.lda = p.lda;
        int64_t g = d.count < (int64_t)BB_CUDA_MAX_GRID ? d.count : (int64_t)BB_CUDA_MAX_GRID;
        /* a class launch of a variable batch (d.vdim) holds matrices of
           any size up to p.m x p.n: a warp a matrix up to 32 x 32 */
        int threads = (int64_t)p.m * p.n <= 4096 ? (d.vdim && (int64_t)p.m * p.n <= 1024 ? 32 : 128) : 256;
        k_lange<T><<<(unsigned)g, threads, 0, stream_of(q)>>>(a);
        return cudaGetLastError();
    }
    if (op != BB_OP_GECON) return cudaErrorNotSupported;
    GeconArgs<T> a;
    memset(&a, 0, sizeof a);
    a.d = d;
    a.n = p.n;
    a.kase1 = p.norm == BblasInfNorm ? 2 : 1;
    a.rowmajor = p.rowmajor;
    a.lda = p.lda;
    Planner pl(smem_budget(q));
    pl.add(1, (int64_t)p.n * sizeof(T), 1);
    pl.add(2, (int64_t)p.n * sizeof(T), 1);
    pl.add(0, (int64_t)p.n * p.n * sizeof(T), 0);
    unsigned grid;
    cudaError_t e = finish_plan(pl, d.count, q, &grid);
    if (e != cudaSuccess) return e;
    a.plan = pl.plan;
    if ((e = allow_smem((const void *)k_gecon<T>, pl.smem)) != cudaSuccess) return e;
    k_gecon<T><<<grid, threads_for(p.n), (size_t)pl.smem, stream_of(q)>>>(a);
    return cudaGetLastError();
}

template cudaError_t bbg_launch_norm<float>(bb_op, const bb_problem &, const bb_dev_batch &, batchblas_queue *);
template cudaError_t bbg_launch_norm<double>(bb_op, const bb_problem &, const bb_dev_batch &, batchblas_queue *);
template cudaError_t bbg_launch_norm<cuFloatComplex>(bb_op, const bb_problem &, const bb_dev_batch &, batchblas_queue *);
template cudaError_t bbg_launch_norm<cuDoubleComplex>(bb_op, const bb_problem &, const bb_dev_batch &, batchblas_queue *);
