/*
 * Generic CUDA kernels of the BLAS-3 family.
 *
 * gemm, symm, hemm, syrk, herk, syr2k, her2k and trmm are one tiled product
 * kernel: C(tile) = a0 * X0*Y0 (+ a1 * X1*Y1) + beta*C over 32 x 32 tiles of
 * C, with X and Y read through element fetchers (general view, symmetric,
 * Hermitian or triangular) in chunks of 16 along k staged in shared memory.
 * trmm runs in place: its tiles are visited in the order in which the rows of
 * B they overwrite are no longer needed.  trsm is a substitution kernel on
 * views (A and B in shared memory when they fit).
 */
#define BB_GENERIC_INTERNAL
#include "generic.h"

using namespace bbg;

namespace {

enum { KIND_GE = 0, KIND_SY = 1, KIND_HE = 2, KIND_TR = 3 };

/* A product operand: element (i,l) of the view p[i*rs + l*cs] (conjugated if
   cj), interpreted by kind. */
struct POp {
    int64_t rs, cs;
    int cj, kind, lower, unit, opd;
};

template <typename T> __device__ __forceinline__ T fetch(const T *p, const POp &o, int i, int l)
{
    switch (o.kind) {
    case KIND_SY:
        if (o.lower ? i >= l : i <= l) return p[i * o.rs + l * o.cs];
        return p[l * o.rs + i * o.cs];
    case KIND_HE:
        if (i == l) return realpart(p[i * o.rs + i * o.cs]);
        if (o.lower ? i > l : i < l) return p[i * o.rs + l * o.cs];
        return bb_conj(p[l * o.rs + i * o.cs]);
    case KIND_TR: {
        if (i == l && o.unit) return one<T>();
        if (i == l || (o.lower ? i > l : i < l)) {
            T v = p[i * o.rs + l * o.cs];
            return o.cj ? bb_conj(v) : v;
        }
        return zero<T>();
    }
    default: {
        T v = p[i * o.rs + l * o.cs];
        return o.cj ? bb_conj(v) : v;
    }
    }
}

enum { ORDER_ANY = 0, ORDER_UP = 1, ORDER_DOWN = 2 };

template <typename T> struct ProdArgs {
    bb_dev_batch d;
    int M, N, K, nterms;
    POp X[2], Y[2];
    T a[2], beta;
    int c_opd;
    int64_t c_rs, c_cs;
    int tri;       /* 0 all of C, 1 lower triangle only, 2 upper */
    int herm_diag; /* herk/her2k: C's diagonal real */
    int alpha_zero, beta_zero;
    int order;     /* trmm: ORDER_UP row tiles ascending (X upper), ORDER_DOWN descending */
};

#define PT 32 /* tile of C */
#define PK 16 /* chunk of k */

template <typename T> __global__ void __launch_bounds__(256) k_prod(const ProdArgs<T> a)
{
    __shared__ T Xs[PK][PT + 1];
    __shared__ T Ys[PK][PT + 1];
    const int tid = threadIdx.x, tx = tid & 31, ty = tid >> 5;
    const int ntI = (a.M + PT - 1) / PT, ntJ = (a.N + PT - 1) / PT;
    for (int64_t pi = blockIdx.x; pi < a.d.count; pi += gridDim.x) {
        if (a.d.info && a.d.info[pi] != 0) continue;
        const T *xp0 = bb_dev_ptr<T>(a.d.opd[a.X[0].opd], pi);
        const T *yp0 = bb_dev_ptr<T>(a.d.opd[a.Y[0].opd], pi);
        const T *xp1 = a.nterms > 1 ? bb_dev_ptr<T>(a.d.opd[a.X[1].opd], pi) : xp0;
        const T *yp1 = a.nterms > 1 ? bb_dev_ptr<T>(a.d.opd[a.Y[1].opd], pi) : yp0;
        T *cp = bb_dev_ptr<T>(a.d.opd[a.c_opd], pi);
        for (int t = 0; t < ntI * ntJ; t++) {
            int I = t % ntI;
            const int J = t / ntI;
            if (a.order == ORDER_DOWN) I = ntI - 1 - I;
            if ((a.tri == 1 && I < J) || (a.tri == 2 && I > J)) continue;
            const int i0 = I * PT, j0 = J * PT;
            T acc0[4], acc1[4];
#pragma unroll
            for (int q = 0; q < 4; q++) acc0[q] = acc1[q] = zero<T>();
            if (!a.alpha_zero) {
                int kb = 0, ke = a.K;
                if (a.order == ORDER_UP) kb = i0;
                else if (a.order == ORDER_DOWN) ke = a.K < i0 + PT ? a.K : i0 + PT;
#pragma unroll
                for (int term = 0; term < 2; term++) {
                    if (term >= a.nterms) break;
                    const T *xp = term ? xp1 : xp0, *yp = term ? yp1 : yp0;
                    const POp X = term ? a.X[1] : a.X[0], Y = term ? a.Y[1] : a.Y[0];
                    for (int k0 = kb; k0 < ke; k0 += PK) {
                        for (int e = tid; e < PT * PK; e += 256) {
                            int r = e & (PT - 1), l = e >> 5;
                            int gi = i0 + r, gl = k0 + l;
                            Xs[l][r] = (gi < a.M && gl < ke) ? fetch(xp, X, gi, gl) : zero<T>();
                        }
                        for (int e = tid; e < PT * PK; e += 256) {
                            int l = e & (PK - 1), c = e >> 4;
                            int gl = k0 + l, gj = j0 + c;
                            Ys[l][c] = (gl < ke && gj < a.N) ? fetch(yp, Y, gl, gj) : zero<T>();
                        }
                        __syncthreads();
#pragma unroll 4
                        for (int l = 0; l < PK; l++) {
                            T x = Xs[l][tx];
#pragma unroll
                            for (int q = 0; q < 4; q++) {
                                if (term) acc1[q] = acc1[q] + x * Ys[l][ty + 8 * q];
                                else acc0[q] = acc0[q] + x * Ys[l][ty + 8 * q];
                            }
                        }
                        __syncthreads();
                    }
                }
            }
#pragma unroll
            for (int q = 0; q < 4; q++) {
                const int i = i0 + tx, j = j0 + ty + 8 * q;
                if (i >= a.M || j >= a.N) continue;
                if ((a.tri == 1 && i < j) || (a.tri == 2 && i > j)) continue;
                T *c = cp + i * a.c_rs + j * a.c_cs;
                const bool dg = a.herm_diag && i == j;
                T v = zero<T>();
                if (!a.alpha_zero) {
                    v = a.a[0] * acc0[q];
                    if (a.nterms > 1) v = v + a.a[1] * acc1[q];
                }
                if (!a.beta_zero) v = v + a.beta * (dg ? realpart(*c) : *c);
                if (dg) v = realpart(v);
                *c = v;
            }
        }
    }
}

/* ------------------------------------------------------------------ trsm */
template <typename T> struct TrsmArgs {
    bb_dev_batch d;
    int m, n, na;       /* B is m x n (column-major), A na x na */
    int64_t lda, ldb;
    int amask;          /* stored triangle of A that is read */
    int v_swap, v_cj, v_lower, unit; /* the solved view of A */
    int b_swap;         /* the solved view of B is B^T (side right) */
    int M, N;           /* that view of B: M x N */
    T alpha;
    int alpha_zero, alpha_one;
    BufPlan plan;       /* 0: A, 1: B */
};

template <typename T> __global__ void __launch_bounds__(256) k_trsm(const TrsmArgs<T> a)
{
    for (int64_t pi = blockIdx.x; pi < a.d.count; pi += gridDim.x) {
        if (a.d.info && a.d.info[pi] != 0) continue;
        T *Bg = bb_dev_ptr<T>(a.d.opd[BB_B], pi);
        if (a.alpha_zero) {
            blk_fill(Bg, a.ldb, a.m, a.n, zero<T>());
            continue;
        }
        T *Ag = bb_dev_ptr<T>(a.d.opd[BB_A], pi);
        Stg<T> A = stage_in(a.plan, 0, Ag, a.lda, a.na, a.na, a.amask, 1);
        Stg<T> B = stage_in(a.plan, 1, Bg, a.ldb, a.m, a.n, MASK_ALL, 1);
        if (!a.alpha_one) blk_scale(B.p, B.ld, a.m, a.n, a.alpha);
        View<T> V = a.v_swap ? mkview(A.p, A.ld, (int64_t)1, a.v_cj) : mkview(A.p, (int64_t)1, A.ld, a.v_cj);
        View<T> Bv = a.b_swap ? mkview(B.p, B.ld, (int64_t)1, 0) : mkview(B.p, (int64_t)1, B.ld, 0);
        blk_trsv(V, a.v_lower, a.unit, Bv, a.M, a.N);
        stage_out(B, Bg, a.ldb, a.m, a.n, MASK_ALL);
        __syncthreads();
    }
}

inline POp ge_op(int opd, int64_t ld, int trans)
{
    POp o;
    memset(&o, 0, sizeof o);
    o.opd = opd;
    o.kind = KIND_GE;
    o.rs = trans == BblasNoTrans ? 1 : ld;
    o.cs = trans == BblasNoTrans ? ld : 1;
    o.cj = trans == BblasConjTrans;
    return o;
}

inline bool is0(const double s[2]) { return s[0] == 0.0 && s[1] == 0.0; }

/* The view of op(A) for trmm/trsm and, for side right, of its transpose:
   swap (strides exchanged), cj, lower. */
inline void tri_view(const bb_problem &p, int *swap, int *cj, int *lower)
{
    int lo = p.uplo == BblasLower;
    *swap = p.trans != BblasNoTrans;
    *cj = p.trans == BblasConjTrans;
    *lower = p.trans == BblasNoTrans ? lo : !lo;
    if (p.side == BblasRight) { /* X*op(A) = B  <=>  op(A)^T X^T = B^T */
        *swap = !*swap;
        *lower = !*lower;
    }
}

template <typename T>
cudaError_t launch_trsm(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    if (p.m == 0 || p.n == 0) return cudaSuccess;
    TrsmArgs<T> a;
    memset(&a, 0, sizeof a);
    a.d = d;
    a.m = p.m;
    a.n = p.n;
    a.na = p.side == BblasLeft ? p.m : p.n;
    a.lda = p.lda;
    a.ldb = p.ldb;
    a.unit = p.diag == BblasUnit;
    a.amask = p.uplo == BblasLower ? (a.unit ? MASK_SLOWER : MASK_LOWER) : (a.unit ? MASK_SUPPER : MASK_UPPER);
    tri_view(p, &a.v_swap, &a.v_cj, &a.v_lower);
    a.b_swap = p.side == BblasRight;
    a.M = p.side == BblasLeft ? p.m : p.n;
    a.N = p.side == BblasLeft ? p.n : p.m;
    a.alpha = bb_make<T>(p.alpha[0], p.alpha[1]);
    a.alpha_zero = is0(p.alpha);
    a.alpha_one = p.alpha[0] == 1.0 && p.alpha[1] == 0.0;
    Planner pl(smem_budget(q));
    pl.add(0, (int64_t)a.na * a.na * sizeof(T), 0);
    pl.add(1, (int64_t)a.m * a.n * sizeof(T), 0);
    a.plan = pl.plan;
    unsigned grid;
    cudaError_t e = finish_plan(pl, d.count, q, &grid);
    if (e != cudaSuccess) return e;
    a.plan = pl.plan;
    int threads = (int64_t)a.M * a.N <= 2048 ? 128 : 256;
    if ((e = allow_smem((const void *)k_trsm<T>, pl.smem)) != cudaSuccess) return e;
    k_trsm<T><<<grid, threads, (size_t)pl.smem, stream_of(q)>>>(a);
    return cudaGetLastError();
}

} /* namespace */

template <typename T>
cudaError_t bbg_launch_blas3(bb_op op, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    if (op == BB_OP_TRSM) return launch_trsm<T>(p, d, q);
    ProdArgs<T> a;
    memset(&a, 0, sizeof a);
    a.d = d;
    a.nterms = 1;
    a.a[0] = bb_make<T>(p.alpha[0], p.alpha[1]);
    a.a[1] = a.a[0];
    a.beta = bb_make<T>(p.beta[0], p.beta[1]);
    a.alpha_zero = is0(p.alpha);
    a.beta_zero = is0(p.beta);
    a.c_opd = BB_C;
    a.c_rs = 1;
    a.c_cs = p.ldc;
    const int nt = p.trans == BblasNoTrans;
    switch (op) {
    case BB_OP_GEMM:
        a.M = p.m; a.N = p.n; a.K = p.k;
        a.X[0] = ge_op(BB_A, p.lda, p.trans);
        a.Y[0] = ge_op(BB_B, p.ldb, p.transb);
        break;
    case BB_OP_SYMM: case BB_OP_HEMM: {
        POp s = ge_op(BB_A, p.lda, BblasNoTrans);
        s.kind = op == BB_OP_SYMM ? KIND_SY : KIND_HE;
        s.lower = p.uplo == BblasLower;
        POp b = ge_op(BB_B, p.ldb, BblasNoTrans);
        a.M = p.m; a.N = p.n;
        if (p.side == BblasLeft) { a.K = p.m; a.X[0] = s; a.Y[0] = b; }
        else { a.K = p.n; a.X[0] = b; a.Y[0] = s; }
        break;
    }
    case BB_OP_SYRK: case BB_OP_HERK: case BB_OP_SYR2K: case BB_OP_HER2K: {
        const int herm = op == BB_OP_HERK || op == BB_OP_HER2K;
        const int tt = herm ? BblasConjTrans : BblasTrans;
        const int two = op == BB_OP_SYR2K || op == BB_OP_HER2K;
        a.M = a.N = p.n; a.K = p.k;
        a.tri = p.uplo == BblasLower ? 1 : 2;
        a.herm_diag = herm;
        /* N: X = A, Y = A^T (A^H); T/C: X = A^T (A^H), Y = A.  The second
           term of the rank-2k updates exchanges A and B. */
        a.X[0] = ge_op(BB_A, p.lda, nt ? BblasNoTrans : tt);
        a.Y[0] = ge_op(two ? BB_B : BB_A, two ? p.ldb : p.lda, nt ? tt : BblasNoTrans);
        if (two) {
            a.nterms = 2;
            a.X[1] = ge_op(BB_B, p.ldb, nt ? BblasNoTrans : tt);
            a.Y[1] = ge_op(BB_A, p.lda, nt ? tt : BblasNoTrans);
            if (op == BB_OP_HER2K) a.a[1] = bb_make<T>(p.alpha[0], -p.alpha[1]);
        }
        break;
    }
    case BB_OP_TRMM: {
        int swap, cj, lower;
        tri_view(p, &swap, &cj, &lower);
        POp x;
        memset(&x, 0, sizeof x);
        x.opd = BB_A;
        x.kind = KIND_TR;
        x.rs = swap ? p.lda : 1;
        x.cs = swap ? 1 : p.lda;
        x.cj = cj;
        x.lower = lower;
        x.unit = p.diag == BblasUnit;
        const int right = p.side == BblasRight;
        POp b = ge_op(BB_B, p.ldb, right ? BblasTrans : BblasNoTrans);
        a.M = right ? p.n : p.m;
        a.N = right ? p.m : p.n;
        a.K = a.M;
        a.X[0] = x;
        a.Y[0] = b;
        a.c_opd = BB_B;
        a.c_rs = b.rs;
        a.c_cs = b.cs;
        a.beta_zero = 1;
        a.order = lower ? ORDER_DOWN : ORDER_UP;
        break;
    }
    default:
        return cudaErrorNotSupported;
    }
    if (a.M == 0 || a.N == 0) return cudaSuccess;
    int64_t g = d.count < (int64_t)BB_CUDA_MAX_GRID ? d.count : (int64_t)BB_CUDA_MAX_GRID;
    k_prod<T><<<(unsigned)g, 256, 0, stream_of(q)>>>(a);
    return cudaGetLastError();
}

template cudaError_t bbg_launch_blas3<float>(bb_op, const bb_problem &, const bb_dev_batch &, batchblas_queue *);
template cudaError_t bbg_launch_blas3<double>(bb_op, const bb_problem &, const bb_dev_batch &, batchblas_queue *);
template cudaError_t bbg_launch_blas3<cuFloatComplex>(bb_op, const bb_problem &, const bb_dev_batch &, batchblas_queue *);
template cudaError_t bbg_launch_blas3<cuDoubleComplex>(bb_op, const bb_problem &, const bb_dev_batch &, batchblas_queue *);
