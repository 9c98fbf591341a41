/*
 * The trsm on chip (double, orders 33 .. TRSM_PANEL_MAX = 256):
 *   op(A) X = alpha B (left) or X op(A) = alpha B (right), X overwrites B.
 * One thread block solves one panel of 32 right-hand sides (columns of B
 * when left, rows when right) of one problem whole: the panel is read once
 * into shared memory, solved there block row by block row of M = op(A)
 * (or op(A)^T, right), and written once.  The blocked driver's walk
 * (blocked.cu, trsm_steps) passes over B once a block for the leaves and
 * again for each GEMM that updates the blocks still to solve.
 *
 * Before the panels, the register trtri inverts the diagonal blocks of
 * order 32 of A out of place into the queue's third workspace (as the
 * driver's inverted leaves do, trsm_leaf_inv).  Then block s of the panel
 * (rows R_s, in the order of the solve: forward when M is lower) is
 *   Y   = alpha P(R_s) - M(R_s, solved) X(solved)  (the left-looking update)
 *   X_s = inv(M(R_s, R_s)) Y                       (the inverted block)
 * both products on the FP64 tensor cores (bb_dmma16, dmma.h): four warps,
 * each a 16 x 16 tile of the 32 x 32 block (rows 16 (w % 2), columns 16 (w
 * / 2)).  M's fragments come straight from global memory, the next set
 * of k (16 or 32, tp_shape) in flight while this one is multiplied (the
 * panels of one problem run side by side and share them through L1 and
 * L2); X's come from the panel
 * in shared memory, Y is formed in place there, and the block's inverse
 * is copied into shared memory (cp.async) while the update runs.  Three
 * barriers a block row.
 *
 * Both drivers use it: the blocked one (bb_trsm_panel: a fixed order up
 * to 128, bb_cuda_trsm_panel_split, and above that the recursion's ranges
 * of up to 128, blocked.cu trsm_steps::run) and the variable-size one
 * (vardriver.cu, tri_walk::leaf_panel: the recursion's leaves of up to
 * 256, TRSM_PANEL_MAX, each problem's order, free dimension and leading
 * dimensions read from its step slot).
 *
 * The panel lies in shared memory column by column (P[j * LD + r], LD =
 * 32 NB + 4: the fragments' loads are conflict-free), rows past the order
 * zero, so every product runs over whole 8 x 8 steps; it is read with
 * cp.async, every copy in flight at once.
 *
 * getrs (bb_getrs_panel; LU = true): P, L and U on one read of B, the
 * panel's rows gathered through the pivots' permutation as it is read,
 * then the unit lower solve and the upper one over the same panel, the
 * inverted blocks of U after those of L; where three passes over B
 * (swap_rows and two trsm, recursive.cu) took it before.
 *
 * A block row whose Y holds an Inf or NaN is solved by substitution
 * instead (tp_subst, a column a thread), as BLAS solves it: multiplied
 * by the inverse, an Inf at row r would make NaN of rows R..r-1 through
 * the inverse's zeros (0 * Inf), which the LU would take for a NaN pivot.
 */
#include "small.h"
#include "dmma.h"
#include "views.h"

namespace {

constexpr int TP_L = 32;  /* the diagonal blocks' order */
constexpr int TP_CW = 32; /* right-hand sides a thread block */
constexpr int TP_THREADS = 128;

template <int NB> struct tp_shape {
    static constexpr int T = NB * TP_L;  /* the padded order */
    /* k of one set of M's fragments (two sets: one loading, one
       multiplied), and blocks an SM.  Up to 4 blocks of 32: sets of 16,
       4 blocks an SM or more; 8 blocks (shared memory leaves three
       blocks an SM): sets of 32, 168 registers, 3.  Measured on the
       H200 (session 36, d, 10240 problems): sets of 16 at 4 blocks
       against sets of 32 at 3, trsm n = 64 / 128 1.08 / 1.06x, potrs
       1.12 / 1.10x; n = 256 0.96x.  Session 37: the fixed form at 6
       blocks up to 2 blocks of 32 (80 registers; 60 bytes spilled) and
       5 up to 4 (96 registers; shared memory stops a sixth) against 4
       (126): trsm n = 64 1.02-1.07x, 128 (at 5) 1.06x, potrs 1.08 /
       1.03x, getri 1.06 / 1.02x (two rounds each).  The variable form
       (its sizes in registers) spills 2-3 times as much there, unmeasured:
       it stays at 4. */
    static constexpr int KF = NB >= 8 ? 32 : 16;
    static constexpr int minb(bool var) { return NB >= 8 ? 3 : var ? 4 : NB >= 4 ? 5 : 6; }
    static constexpr int LD = T + 4;     /* a panel column in shared memory */
    static constexpr int LY = TP_L + 4;  /* a column of the inverse D */
    static constexpr size_t smem = (size_t)TP_CW * (LD + LY) * sizeof(double);
};

/* M(r, k) of the unified left solve, zero outside the order t */
__device__ __forceinline__ double tp_m(const double *A, int64_t lda, int tr, int t, int r, int k)
{
    if (r >= t || k >= t) return 0.0;
    return tr ? A[k + (int64_t)r * lda] : A[r + (int64_t)k * lda];
}

/* The A fragments of M(rw .. rw + 15, kb .. kb + KF - 1) for bb_dmma16:
   KF / 8 steps of 8 of k */
template <int KF> struct tp_frag {
    double a0[KF / 8][2], a1[KF / 8][2];
    __device__ __forceinline__ void load(const double *A, int64_t lda, int tr, int t, int rw, int kb, int g, int h)
    {
#pragma unroll
        for (int kk = 0; kk < KF / 8; kk++)
#pragma unroll
            for (int q = 0; q < 2; q++) {
                const int k = kb + 8 * kk + h + 4 * q;
                a0[kk][q] = tp_m(A, lda, tr, t, rw + g, k);
                a1[kk][q] = tp_m(A, lda, tr, t, rw + 8 + g, k);
            }
    }
};

/* Block row R of the solve by substitution, as reference BLAS does it
   (a row's value, divided by M's diagonal entry unless unit, taken off
   the rows after it where it is not zero), on one column y of the panel
   (Y = alpha B - the solved rows' products; X on return): where Y holds
   an Inf, the inverted block's structural zeros would make NaN of the
   rows solved before it, where BLAS keeps them finite.  The rows in the
   solve's order (forward when lower), those of the order t only. */
__device__ __noinline__ void tp_subst(double *y, const double *A, int64_t lda, int tr, int t, int R, int lower, int unit)
{
    const int n = min(TP_L, t - R);
    for (int s = 0; s < n; s++) {
        const int i = lower ? s : n - 1 - s;
        double x = y[i];
        if (!unit) x /= tp_m(A, lda, tr, t, R + i, R + i);
        y[i] = x;
        if (x == 0.0) continue;
        for (int s2 = s + 1; s2 < n; s2++) {
            const int k = lower ? s2 : n - 1 - s2;
            y[k] -= x * tp_m(A, lda, tr, t, R + k, R + i);
        }
    }
}

/* One solve of the panel in the unified left form: tr, M(r, k) = A(k, r);
   lower, M is lower (the solve runs forward); wlower, A's blocks (so the
   inverses) are lower; unit diagonal. */
struct tp_pass {
    int tr, lower, wlower, unit;
};

/* a flag known at compile time, where a kernel's code takes an int */
template <int V> struct tp_const {
    __device__ constexpr operator int() const { return V; }
};

/* the kernel's forms: one solve; getrs (the rows of B permuted as read,
   then L unit lower and U); two solves of p0, p1 (potrs) */
enum { TP_TRSM, TP_GETRS, TP_POTRS };

/* the solve of trsm problem p (side, uplo, trans, diag) as tp_pass */
static tp_pass tp_pass_of(const bb_problem &p)
{
    const int left = p.side == BblasLeft, tr = p.trans != BblasNoTrans;
    tp_pass q;
    q.tr = left ? tr : !tr; /* the unified left solve: M(r, k) = A(k, r) when tr */
    q.lower = (p.uplo == BblasLower) != (q.tr != 0);
    q.wlower = p.uplo == BblasLower;
    q.unit = p.diag == BblasUnit;
    return q;
}

/* d: A (order t) and B, and in C the inverted diagonal blocks of A,
   32 x 32 apart (column-major, the inverse of A's block as the register
   trtri wrote it: its triangle only).  With d.vdim each problem has its
   own order, free dimension and leading dimensions there (left: m = t, n
   = f; right: n = t, m = f; at most T and 32 nch; VAR): the variable-size
   driver's leaves, where a problem is a step slot.  p0 (and p1 in
   the potrs form): the solves (tp_pass).  nch panels a problem, of 32 of the f
   right-hand sides.  Shared memory: the panel P, then the block's inverse
   D (32 x LY). */
template <int NB, bool VAR, int MODE>
__global__ void __launch_bounds__(TP_THREADS, tp_shape<NB>::minb(VAR))
    k_trsm_panel(const bb_dev_batch d, int t0, int f0_, int64_t lda0, int64_t ldb0, int left, tp_pass p0, tp_pass p1,
                 double alpha, int64_t nch)
{
    constexpr bool LU = MODE == TP_GETRS;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    typedef tp_shape<NB> S;
    constexpr int T = S::T, LD = S::LD, LY = S::LY;
    extern __shared__ __align__(16) double tp_sm[];
    double *P = tp_sm, *D = tp_sm + TP_CW * LD;
    __shared__ int s_perm[LU ? T : 1]; /* LU: the row of B at each position (P B) */
    const int tid = threadIdx.x, w = tid / 32, lane = tid % 32, g = lane / 4, h = lane % 4;
    const int mt = w & 1, nt = w >> 1; /* the warp's 16 x 16 tile of a 32 x 32 block */
    const int cw0 = 16 * nt;
    const int64_t items = d.count * nch;
    const unsigned Ps = (unsigned)__cvta_generic_to_shared(P), Ds = (unsigned)__cvta_generic_to_shared(D);
    for (int64_t item = blockIdx.x; item < items; item += gridDim.x) {
        const int64_t pid = item / nch;
        if (d.info && d.info[pid]) continue; /* the same for the whole block */
        int t = t0, f = f0_;
        int64_t lda = lda0, ldb = ldb0;
        if (VAR) {
            const bb_vdim v = d.vdim[pid];
            t = left ? v.m : v.n, f = left ? v.n : v.m;
            lda = v.lda, ldb = v.ldb;
        }
        const int f0 = (int)(item - pid * nch) * TP_CW, len = min(TP_CW, f - f0);
        if (t <= 0 || len <= 0) continue;
        const int nb = (t + TP_L - 1) / TP_L;
        const double *A = bb_dev_ptr<double>(d.opd[BB_A], pid);
        double *B = bb_dev_ptr<double>(d.opd[BB_B], pid);
        const int64_t bi = left ? 1 : ldb, bj = left ? ldb : 1; /* B(r, j): r along the solve */
        B += f0 * bj;
        /* the inverted blocks: a step slot's pointer (VAR), or packed */
        const double *Wp = VAR ? (const double *)d.opd[BB_C].ptr[pid]
                               : (const double *)d.opd[BB_C].base + pid * d.opd[BB_C].stride;
        if (LU) { /* P from the pivots, as swap_rows (recursive.cu): out of range, no interchange */
            int *s_ip = (int *)D; /* the pivots, 0-based: D is free until the first block's inverse */
            const int *ip = bb_dev_ptr<int>(d.opd[BB_IPIV], pid);
            for (int i = tid; i < T; i += TP_THREADS) {
                s_perm[i] = i;
                if (i < t) s_ip[i] = ip[i] - 1;
            }
            __syncthreads();
            if (tid == 0) bb_swaps_to_perm(s_perm, s_ip, t, t, 0, false);
            __syncthreads();
        }
        /* the panel in (as stored: alpha is applied as each block row is
           solved; LU: row r of P B at r), every copy in flight at once;
           zeros past the order and the chunk up to the problem's last
           block (no step reads below it); coalesced along B's stored
           columns */
#pragma unroll 8
        for (int e = tid; e < TP_CW * T; e += TP_THREADS) {
            const int r = left ? e % T : e / TP_CW, j = left ? e / T : e % TP_CW;
            if (r >= nb * TP_L) continue;
            const bool in = r < t && j < len;
            const int rs = LU && in ? s_perm[r] : r;
            bb_cp8(Ps + (unsigned)(j * LD + r) * 8u, in ? B + rs * bi + j * bj : B, in);
        }
        bb_cp_commit();
        /* launched during the trtri (tp_solve): its inverted blocks are
           read from here on; the panel's read above overlaps its end */
        bb_pdl_wait();
        /* the solves on the panel: one (trsm, p0), or two (getrs: L, unit
           lower, forward, then U, the inverted blocks of U after those of
           L; potrs: p0 then p1, the factor then its transpose, on the same
           inverted blocks); alpha applies in the first */
        for (int pass = 0; pass < (MODE == TP_TRSM ? 1 : 2); pass++) {
        const int lower = LU ? pass == 0 : pass ? p1.lower : p0.lower;
        const int wlower = LU ? pass == 0 : pass ? p1.wlower : p0.wlower;
        const int unit = LU ? pass == 0 : pass ? p1.unit : p0.unit, tr_ = LU ? 0 : pass ? p1.tr : p0.tr;
        const double *Wq = Wp + (LU && pass ? (int64_t)nb * TP_L * TP_L : 0);
        const double al = pass ? 1.0 : alpha;
        /* the pass, with tr (TRc) a run-time value or, in the potrs
           form, a constant: there M's fragment addresses and D's reads
           fold (H200, session 49, d, 10240 problems: potrs 128 3.32 ms
           against 3.49, 192 10.13 against 10.28); in the trsm form the
           constant's two copies of the pass were slower (trsm 128 2.16
           against 1.99, 256 10.57 against 9.98) */
        auto solve = [&](auto TRc) {
        const int tr = TRc;
        for (int s = 0; s < nb; s++) {
            const int b = lower ? s : nb - 1 - s; /* the block row solved now */
            const int R = b * TP_L;
            /* its inverse into D, in flight during the update: the
               triangle, 1 on a unit diagonal, zeros elsewhere */
            const double *Wb = Wq + (int64_t)b * TP_L * TP_L;
#pragma unroll
            for (int e = tid; e < TP_L * TP_L; e += TP_THREADS) {
                const int i = e % TP_L, k = e / TP_L;
                const bool in = R + i < t && R + k < t && (wlower ? i >= k : i <= k);
                if (unit && i == k) D[k * LY + i] = in ? 1.0 : 0.0;
                else bb_cp8(Ds + (unsigned)(k * LY + i) * 8u, in ? Wb + e : Wb, in);
            }
            bb_cp_commit();
            bb_cp_wait<1>(); /* the panel (first step) */
            __syncthreads();
            const int k0 = lower ? 0 : R + TP_L, k1 = lower ? R : nb * TP_L; /* the solved rows */
            const int rw = R + 16 * mt;
            double acc[2][2][2]; /* [n-tile][rows g, g + 8][columns 2h, 2h + 1] */
#pragma unroll
            for (int c = 0; c < 2; c++) acc[c][0][0] = acc[c][0][1] = acc[c][1][0] = acc[c][1][1] = 0.0;
            /* acc = M(R_s, solved) X(solved): the next 32 of k's fragments
               in flight while this 32 is multiplied */
            constexpr int KF = S::KF;
            auto mul = [&](const tp_frag<KF> &fr, int kb) {
#pragma unroll
                for (int kk = 0; kk < KF / 8; kk++) {
                    double bf[2][2];
#pragma unroll
                    for (int c = 0; c < 2; c++)
#pragma unroll
                        for (int q = 0; q < 2; q++) bf[c][q] = P[(cw0 + 8 * c + g) * LD + kb + 8 * kk + h + 4 * q];
#pragma unroll
                    for (int c = 0; c < 2; c++) bb_dmma16(acc[c][0], acc[c][1], fr.a0[kk], fr.a1[kk], bf[c]);
                }
            };
            if (k0 < k1) { /* two fragment sets, one loading while the other is multiplied */
                tp_frag<KF> f0, f1;
                f0.load(A, lda, tr, t, rw, k0, g, h);
                for (int kb = k0; kb < k1; kb += 2 * KF) {
                    const bool two = kb + KF < k1;
                    if (two) f1.load(A, lda, tr, t, rw, kb + KF, g, h);
                    mul(f0, kb);
                    if (kb + 2 * KF < k1) f0.load(A, lda, tr, t, rw, kb + 2 * KF, g, h);
                    if (two) mul(f1, kb + KF);
                }
            }
            /* Y = alpha P(R_s) - acc, in place (no other warp reads these
               rows in this phase) */
            double z = 0.0; /* NaN if this thread's part of Y holds an Inf or NaN */
#pragma unroll
            for (int c = 0; c < 2; c++)
#pragma unroll
                for (int u = 0; u < 2; u++)
#pragma unroll
                    for (int e = 0; e < 2; e++) {
                        double *y = P + (cw0 + 8 * c + 2 * h + e) * LD + rw + 8 * u + g;
                        *y = al * *y - acc[c][u][e];
                        z = fma(*y, 0.0, z);
                        acc[c][u][e] = 0.0;
                    }
            bb_cp_wait<0>(); /* D */
            if (__syncthreads_or(z != z)) {
                /* Y not finite: the block by substitution, a column a
                   thread (tp_subst: the inverse's zeros would turn an Inf
                   into NaN in the rows solved before it) */
                if (tid < TP_CW) tp_subst(P + tid * LD + R, A, lda, tr, t, R, lower, unit);
                __syncthreads();
                continue;
            }
            /* X_s = inv(M(R_s, R_s)) Y; inv(M) = D, or D^T when tr */
#pragma unroll
            for (int kk = 0; kk < 4; kk++) {
                double a0[2], a1[2], bf[2][2];
#pragma unroll
                for (int q = 0; q < 2; q++) {
                    const int k = 8 * kk + h + 4 * q, i = 16 * mt + g;
                    a0[q] = tr ? D[i * LY + k] : D[k * LY + i];
                    a1[q] = tr ? D[(i + 8) * LY + k] : D[k * LY + i + 8];
#pragma unroll
                    for (int c = 0; c < 2; c++) bf[c][q] = P[(cw0 + 8 * c + g) * LD + R + k];
                }
#pragma unroll
                for (int c = 0; c < 2; c++) bb_dmma16(acc[c][0], acc[c][1], a0, a1, bf[c]);
            }
            __syncthreads(); /* every read of Y and D done */
#pragma unroll
            for (int c = 0; c < 2; c++)
#pragma unroll
                for (int u = 0; u < 2; u++)
#pragma unroll
                    for (int e = 0; e < 2; e++) P[(cw0 + 8 * c + 2 * h + e) * LD + rw + 8 * u + g] = acc[c][u][e];
            __syncthreads(); /* X_s is read by the next steps */
        }
        };
        if (MODE != TP_POTRS) solve(tr_);
        else if (tr_) solve(tp_const<1>());
        else solve(tp_const<0>());
        }
        /* the panel out */
#pragma unroll 8
        for (int e = tid; e < TP_CW * T; e += TP_THREADS) {
            const int r = left ? e % T : e / TP_CW, j = left ? e / T : e % TP_CW;
            if (r < t && j < len) B[r * bi + j * bj] = P[j * LD + r];
        }
        __syncthreads(); /* the panel is free for the next item */
    }
#endif
}

template <int NB, bool VAR, int MODE>
cudaError_t launch_panel(const bb_dev_batch &d, int t, int f, const bb_problem &p, const tp_pass *ps, bool pdl,
                         batchblas_queue *q)
{
    const size_t smem = tp_shape<NB>::smem;
    /* the opt-in above 48 KiB, on every call: it holds for the current
       device only, and the batch may be spread over several */
    const cudaError_t e = cudaFuncSetAttribute(k_trsm_panel<NB, VAR, MODE>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (e != cudaSuccess) return e;
    const int64_t nch = (f + TP_CW - 1) / TP_CW;
    /* pdl: right after the trtri of its inverted blocks, which triggers
       at once (bb_pdl_trigger): the panels' reads of B start while its
       last blocks run (bb_pdl_wait before the first inverse is read) */
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at[0].val.programmaticStreamSerializationAllowed = 1;
    cfg.gridDim = dim3(bb_grid(d.count * nch, 1));
    cfg.blockDim = dim3(TP_THREADS);
    cfg.dynamicSmemBytes = smem;
    cfg.stream = q->stream;
    cfg.attrs = at;
    cfg.numAttrs = pdl ? 1 : 0;
    return cudaLaunchKernelEx(&cfg, k_trsm_panel<NB, VAR, MODE>, d, t, f, (int64_t)p.lda, (int64_t)p.ldb,
                              (int)(p.side == BblasLeft), ps[0], ps[MODE == TP_TRSM ? 0 : 1], (double)p.alpha[0], nch);
}

/* the kernel of the order's number of blocks of 32 (LU: getrs's, fixed
   sizes only): 2, 3, 4 or 8.  Three has its own instance: in the one of
   four an order of 65 .. 96 ran at five blocks an SM with a quarter of
   its panel's shared memory empty (34 KiB against 43: six an SM) */
template <bool VAR, int MODE>
cudaError_t launch_order(const bb_dev_batch &d, int t, int f, const bb_problem &p, const tp_pass *ps, bool pdl,
                         batchblas_queue *q)
{
    const int nb = (t + TP_L - 1) / TP_L;
    if (nb <= 2) return launch_panel<2, VAR, MODE>(d, t, f, p, ps, pdl, q);
    if (nb == 3) return launch_panel<3, VAR, MODE>(d, t, f, p, ps, pdl, q);
    if (nb <= 4) return launch_panel<4, VAR, MODE>(d, t, f, p, ps, pdl, q);
    return launch_panel<8, VAR, MODE>(d, t, f, p, ps, pdl, q);
}

} // namespace

cudaError_t bb_trsm_panel_run(const bb_problem &p, const bb_dev_batch &d, int t, int f, batchblas_queue *q)
{
    if (d.count <= 0 || t <= 0 || f <= 0) return cudaSuccess;
    if (t > 8 * TP_L) return cudaErrorNotSupported;
    const tp_pass ps = tp_pass_of(p);
    return d.vdim ? launch_order<true, TP_TRSM>(d, t, f, p, &ps, false, q)
                  : launch_order<false, TP_TRSM>(d, t, f, p, &ps, false, q);
}

namespace {

/* the panels launched during the trtri before them (default on;
   BATCHBLAS_CUDA_PDL=0: after it, for A/B runs) */
static bool tp_pdl(void)
{
    static int v = BB_ENV_UNREAD;
    return bb_env_int("BATCHBLAS_CUDA_PDL", 1, &v) != 0;
}

/* The solves ps of d (order t, free dimension f, p as
   bb_trsm_panel_run takes it: side, alpha, lda, ldb) over slices whose
   inverted diagonal blocks fit in BB_CUDA_DINV_BYTES of the queue's third
   workspace: for each slice the trtri of the blocks of each triangle
   tri[0 .. ntri) (uplo, diag, lda), one set after another for each
   problem, then the kernel of the form mode (TP_*). */
cudaError_t tp_solve(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int t, int f,
                     const bb_problem *tri, int ntri, const tp_pass *ps, int mode)
{
    if (d.count <= 0) return cudaSuccess;
    const int64_t blk = (int64_t)((t + TP_L - 1) / TP_L) * TP_L * TP_L; /* one triangle's blocks, elements */
    const size_t per = (size_t)ntri * blk * sizeof(double);
    int64_t chunk = (int64_t)(BB_CUDA_DINV_BYTES / per);
    if (chunk > d.count) chunk = d.count;
    if (chunk < 1) chunk = 1;
    double *W = (double *)bb_cuda_workspace3(q, (size_t)chunk * per);
    if (!W) return cudaErrorMemoryAllocation;
    for (int64_t first = 0; first < d.count; first += chunk) {
        const int64_t cnt = d.count - first < chunk ? d.count - first : chunk;
        bb_dev_batch s = bb_slice(d, first, cnt, prec);
        cudaError_t e = cudaSuccess;
        for (int k = 0; k < ntri && e == cudaSuccess; k++)
            e = bb_small_trtri_blocks(prec, tri[k], s, t, TP_L, W + k * blk, ntri * blk, q);
        if (e != cudaSuccess) return e;
        s.opd[BB_C] = bb_workspace_opd(W, ntri * blk);
        const bool pdl = tp_pdl();
        e = mode == TP_GETRS   ? launch_order<false, TP_GETRS>(s, t, f, p, ps, pdl, q)
            : mode == TP_POTRS ? launch_order<false, TP_POTRS>(s, t, f, p, ps, pdl, q)
                               : launch_order<false, TP_TRSM>(s, t, f, p, ps, pdl, q);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

} // namespace

cudaError_t bb_trsm_panel(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    const bool left = p.side == BblasLeft;
    const int t = left ? p.m : p.n, f = left ? p.n : p.m;
    if (d.vdim || t <= TP_L || t > bb_cuda_trsm_panel_max(prec)) return cudaErrorNotSupported;
    if (f <= 0) return cudaSuccess;
    const tp_pass ps = tp_pass_of(p);
    return tp_solve(prec, p, d, q, t, f, &p, 1, &ps, TP_TRSM);
}

cudaError_t bb_getrs_panel(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    static int on = BB_ENV_UNREAD;
    const int t = p.n, f = p.nrhs;
    if (!bb_env_int("BATCHBLAS_CUDA_GETRS_PANEL", 1, &on) || d.vdim || p.rowmajor || p.trans != BblasNoTrans ||
        t <= TP_L || t > bb_cuda_trsm_panel_max(prec) || (!d.opd[BB_IPIV].ptr && !d.opd[BB_IPIV].base))
        return cudaErrorNotSupported;
    if (f <= 0) return cudaSuccess;
    /* the solves as the kernel sees them: L (unit lower) first, then U */
    const bb_problem tri[2] = {
        bb_tri_problem(BblasLeft, BblasLower, BblasNoTrans, BblasUnit, t, f, p.lda, p.ldb, 1.0),
        bb_tri_problem(BblasLeft, BblasUpper, BblasNoTrans, BblasNonUnit, t, f, p.lda, p.ldb, 1.0)};
    const tp_pass ps[2] = {tp_pass_of(tri[0]), tp_pass_of(tri[1])};
    return tp_solve(prec, tri[0], d, q, t, f, tri, 2, ps, TP_GETRS);
}

cudaError_t bb_potrs_panel(bb_prec prec, const bb_problem tp[2], const bb_dev_batch &d, batchblas_queue *q)
{
    const bool left = tp[0].side == BblasLeft;
    const int t = left ? tp[0].m : tp[0].n, f = left ? tp[0].n : tp[0].m;
    if (d.vdim || t <= TP_L || t > bb_cuda_potrs_panel_max(prec)) return cudaErrorNotSupported;
    if (f <= 0) return cudaSuccess;
    /* both solves on the blocks of the one stored triangle (tp[0]'s) */
    const tp_pass ps[2] = {tp_pass_of(tp[0]), tp_pass_of(tp[1])};
    return tp_solve(prec, tp[0], d, q, t, f, tp, 1, ps, TP_POTRS);
}
