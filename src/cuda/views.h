/*
 * Sub-matrix views, slices of a batch and the GEMM on them: the pieces the
 * drivers above the register bound share (blocked.cu, recursive.cu).  A
 * view of a strided operand is base + offset; of a pointer-array operand,
 * an element offset added to every pointer (bb_dev_opd.off), so no pointer
 * array is ever rebuilt for our own kernels.
 */
#pragma once
#include <string.h>
#include "small.h" /* bb_abs and the element helpers of the kernels below */

/* bytes of one element of the precision */
static inline size_t bb_elem_size(bb_prec p) { return p == BB_P_S ? 4 : p == BB_P_Z ? 16 : 8; }

/* Operand o at element offset off (es: element bytes). */
static inline bb_dev_opd bb_view(const bb_dev_opd &o, int64_t off, size_t es)
{
    bb_dev_opd v = o;
    if (o.ptr) v.off = o.off + off;
    else v.base = o.base + (size_t)off * es;
    return v;
}

/* Matrices packed in workspace, `stride` elements apart. */
static inline bb_dev_opd bb_workspace_opd(void *w, int64_t stride)
{
    bb_dev_opd o;
    memset(&o, 0, sizeof o);
    o.base = (char *)w;
    o.stride = stride;
    return o;
}

static inline bb_problem bb_blank_problem(void)
{
    bb_problem p;
    memset(&p, 0, sizeof p);
    return p;
}

/* A triangle operation's problem (trsm, trmm): side, uplo, trans, diag,
   m x n, the triangle's leading dimension lda and the other operand's ldb,
   alpha real. */
static inline bb_problem bb_tri_problem(int side, int uplo, int trans, int diag, int m, int n, int64_t lda,
                                        int64_t ldb, double alpha)
{
    bb_problem p = bb_blank_problem();
    p.side = side;
    p.uplo = uplo;
    p.trans = trans;
    p.diag = diag;
    p.m = m;
    p.n = n;
    p.lda = lda;
    p.ldb = ldb;
    p.alpha[0] = alpha;
    return p;
}

/* The problems [first, first + cnt) of d: matrices of the precision's
   elements, pivots int, the per-problem vectors X, Y real (half a complex
   element). */
static inline bb_dev_batch bb_slice(const bb_dev_batch &d, int64_t first, int64_t cnt, bb_prec prec)
{
    const size_t es = bb_elem_size(prec);
    const size_t rs = prec == BB_P_C || prec == BB_P_Z ? es / 2 : es;
    bb_dev_batch s = d;
    for (int o = 0; o < BB_NOPD; o++) {
        bb_dev_opd &v = s.opd[o];
        const size_t sz = o == BB_IPIV ? sizeof(int) : o == BB_X || o == BB_Y ? rs : es;
        if (v.ptr) v.ptr += first;
        else if (v.base) v.base += (size_t)(first * v.stride) * sz;
    }
    if (s.info) s.info += first;
    if (s.vdim) s.vdim += first;
    s.vext_off += first;
    s.count = cnt;
    return s;
}

/* The leading problems of d that a step at walk position x needs: those
   that hold every problem with a size above x (cuda_internal.h, var_ext),
   at most d.count; d.count where the launch has no table. */
static inline int64_t bb_var_active(const bb_dev_batch &d, int x)
{
    if (!d.vext || d.nvext <= 0 || x <= 0) return d.count;
    int lo = 0, hi = d.nvext; /* the first entry of size <= x */
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (d.vext[mid].size > x) lo = mid + 1;
        else hi = mid;
    }
    const int64_t a = (lo > 0 ? (int64_t)d.vext[lo - 1].end : 0) - d.vext_off;
    return a < 0 ? 0 : a < d.count ? a : d.count;
}

/* d cut to bb_var_active(d, x) problems (the same first problem) */
static inline bb_dev_batch bb_var_head(const bb_dev_batch &d, int x)
{
    bb_dev_batch s = d;
    s.count = bb_var_active(d, x);
    return s;
}

/* C = alpha op(A) op(B) + beta C on views, through the launch policy (the
   register gemm for small or thin shapes, cuBLAS above); nothing to do
   when m, n or k is 0 or alpha is 0.  d.masked is kept: a driver whose
   problems can fail on the way sets it. */
static inline cudaError_t bb_gemm_views(bb_prec prec, batchblas_queue *q, const bb_dev_batch &d,
                                        const bb_dev_opd &A, int ta, int64_t lda, const bb_dev_opd &B, int tb,
                                        int64_t ldb, const bb_dev_opd &C, int64_t ldc, int m, int n, int k,
                                        const double alpha[2], const double beta[2])
{
    if (m <= 0 || n <= 0 || k <= 0 || (alpha[0] == 0 && alpha[1] == 0)) return cudaSuccess;
    bb_problem p = bb_blank_problem();
    p.trans = ta;
    p.transb = tb;
    p.m = m;
    p.n = n;
    p.k = k;
    p.lda = lda;
    p.ldb = ldb;
    p.ldc = ldc;
    p.alpha[0] = alpha[0];
    p.alpha[1] = alpha[1];
    p.beta[0] = beta[0];
    p.beta[1] = beta[1];
    bb_dev_batch g = d;
    g.opd[BB_A] = A;
    g.opd[BB_B] = B;
    g.opd[BB_C] = C;
    return bb_cuda_launch(BB_OP_GEMM, prec, p, g, q);
}

/* trtri's check (non-unit): info = the 1-based index of the first exactly
   zero diagonal element, for the problems whose info is 0 (LAPACK: the
   problem is then left untouched).  Sizes n, lda, or each problem's own
   (d.vdim).  A warp per problem. */
template <typename T>
__global__ void bb_k_zero_diag(const bb_dev_batch d, int n0, int64_t lda0)
{
    const int lane = threadIdx.x % 32;
    const int64_t w0 = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) / 32;
    const int64_t nw = (int64_t)gridDim.x * blockDim.x / 32;
    for (int64_t i = w0; i < d.count; i += nw) {
        if (d.info[i] != 0) continue; /* warp-uniform */
        const int n = d.vdim ? d.vdim[i].n : n0;
        const int64_t lda = d.vdim ? d.vdim[i].lda : lda0;
        const T *A = bb_dev_ptr<T>(d.opd[BB_A], i);
        int first = 0;
        for (int j0 = 0; j0 < n && !first; j0 += 32) {
            const int j = j0 + lane;
            const bool z = j < n && bb_re(A[j + j * lda]) == 0 && bb_im(A[j + j * lda]) == 0;
            const unsigned m = __ballot_sync(0xffffffffu, z);
            if (m) first = j0 + __ffs(m);
        }
        if (lane == 0 && first) d.info[i] = first;
    }
}

/* The one or infinity norm (modulus, as LAPACK's lange) of an n x n
   matrix, by a block; NaN if any sum is NaN. */
template <typename T>
__device__ double bb_cond_norm(const T *M, int64_t ld, int n, int inf, double *red)
{
    double best = 0;
    bool nan = false;
    for (int v = threadIdx.x; v < n; v += blockDim.x) {
        double sum = 0;
        for (int u = 0; u < n; u++) sum += bb_abs(inf ? M[v + u * ld] : M[u + v * ld]);
        if (sum != sum) nan = true;
        else if (sum > best) best = sum;
    }
    if (nan) best = NAN;
    red[threadIdx.x] = best;
    __syncthreads();
    for (int h = blockDim.x / 2; h > 0; h >>= 1) {
        if (threadIdx.x < h) {
            const double a = red[threadIdx.x], b = red[threadIdx.x + h];
            red[threadIdx.x] = (a != a || b != b) ? NAN : (a > b ? a : b);
        }
        __syncthreads();
    }
    const double r = red[0];
    __syncthreads();
    return r;
}

/* gecond above the register bound (blocked.cu, vardriver.cu): Y = ||A||
   ||inv(A)||, inv(A) in X (problem i at X + i xs, ld n), +Inf where info
   is set (singular), nothing where entry is (skipped on entry).  Sizes n,
   lda, or each problem's own (d.vdim).  A block per problem (256 threads). */
template <typename T>
__global__ void __launch_bounds__(256) bb_k_cond_norms(const bb_dev_batch d, const int *entry, int n0, int64_t lda0,
                                                       const T *X, int64_t xs, int inf)
{
    typedef typename bb_real<T>::type R;
    __shared__ double red[256];
    for (int64_t i = blockIdx.x; i < d.count; i += gridDim.x) {
        if (entry[i] != 0) continue;
        R *y = bb_dev_ptr<R>(d.opd[BB_Y], i);
        if (d.info[i] != 0) {
            if (threadIdx.x == 0) *y = (R)INFINITY;
            continue;
        }
        const int n = d.vdim ? d.vdim[i].n : n0;
        const int64_t lda = d.vdim ? d.vdim[i].lda : lda0;
        const double na = bb_cond_norm(bb_dev_ptr<T>(d.opd[BB_A], i), lda, n, inf, red);
        const double ni = bb_cond_norm(X + i * xs, (int64_t)(n > 0 ? n : 1), n, inf, red);
        if (threadIdx.x == 0) *y = (R)(na * ni);
    }
}

/* getri's start (blocked.cu; vardriver.cu with per-problem sizes, d.vdim):
   a block per problem.  U(k,k) == 0 gives info = k (the first such k) and
   leaves the problem untouched, as LAPACK; otherwise, in place (W != NULL)
   the factors are copied to W + t ws (ld n), and X = P^T I is written into
   A (in place) or B (ld ldx0, or each problem's ldb).  sv (the variable
   form): the sizes of the solves that follow, for every problem (zero for
   the ones skipped): m = n = its order, in place lda = n (W) and ldb = its
   lda.  n0: the order, or the largest one (the shared memory holds n0 + 1
   ints). */
template <typename T>
__global__ void bb_k_getri_prep(const bb_dev_batch d, int n0, int64_t lda0, int64_t ldx0, T *W, int64_t ws,
                                bb_vdim *sv)
{
    extern __shared__ int perm[]; /* n0 entries, then the first zero */
    int *zero = perm + n0;
    const bool inplace = W != NULL;
    for (int64_t t = blockIdx.x; t < d.count; t += gridDim.x) {
        bb_vdim v;
        if (d.vdim) v = d.vdim[t];
        else {
            memset(&v, 0, sizeof v);
            v.m = v.n = n0;
            v.lda = lda0;
            v.ldb = ldx0;
        }
        const int n = v.n;
        __syncthreads(); /* d.vdim may be sv (vardriver's geinv, gecond): read before it is written */
        if (sv && threadIdx.x == 0) {
            bb_vdim o = v; /* trsm from the left: m the order, n the columns */
            o.m = o.n = d.info && d.info[t] != 0 ? 0 : n;
            o.k = o.nrhs = 0;
            o.lda = inplace ? (n > 0 ? n : 1) : v.lda;
            o.ldb = inplace ? v.lda : v.ldb;
            sv[t] = o;
        }
        if ((d.info && d.info[t] != 0) || n <= 0) continue; /* uniform over the block */
        T *A = bb_dev_ptr<T>(d.opd[BB_A], t);
        T *X = inplace ? A : bb_dev_ptr<T>(d.opd[BB_B], t);
        const int64_t lda = v.lda, ldx = inplace ? v.lda : v.ldb;
        if (threadIdx.x == 0) *zero = n + 1;
        __syncthreads();
        for (int j = threadIdx.x; j < n; j += blockDim.x) {
            const T a = A[j + j * lda];
            if (bb_re(a) == 0 && bb_im(a) == 0) atomicMin(zero, j + 1);
        }
        __syncthreads();
        const int z = *zero;
        if (z <= n) {
            if (threadIdx.x == 0 && d.info) d.info[t] = z;
            __syncthreads(); /* zero is reset by the next problem */
            continue;
        }
        if (threadIdx.x == 0) {
            const int *ip = bb_dev_ptr<int>(d.opd[BB_IPIV], t);
            for (int r = 0; r < n; r++) perm[r] = r;
            for (int r = 0; r < n; r++) {
                const int q = ip[r] - 1, y = perm[r];
                if (q < 0 || q >= n) continue; /* not a pivot of getrf: ignored */
                perm[r] = perm[q];
                perm[q] = y;
            }
        }
        if (inplace) {
            T *Wt = W + t * ws;
            for (int64_t e = threadIdx.x; e < (int64_t)n * n; e += blockDim.x) Wt[e] = A[(e % n) + (e / n) * lda];
        }
        __syncthreads();
        for (int64_t e = threadIdx.x; e < (int64_t)n * n; e += blockDim.x) {
            const int r = (int)(e % n), col = (int)(e / n);
            X[r + col * ldx] = perm[r] == col ? bb_make<T>(1.0, 0.0) : bb_make<T>(0.0, 0.0);
        }
        __syncthreads();
    }
}
