/*
 * The LU factorisation on chip (double, m, n up to GETRF_CHIP_MAX = 64;
 * issue 12): one thread block of four warps a problem, the matrix read
 * once into shared memory and written once, as the Cholesky on chip
 * (potrf_chip.cu) whose layout it shares.
 *
 * The matrix lies in shared memory column by column (S[j * LD + i], LD =
 * T + 4): T = 64, 34 KiB, six blocks an SM (80 registers); where every
 * problem of the launch has m, n <= 48, T = 48, 20 KiB, eight blocks (64
 * registers), the panel being a chain of latencies that more problems an
 * SM overlap.  Rows never move there (seed 003's lazy swap): s_phys[t] is the
 * stored row at position t, and the rows go to their positions when the
 * matrix is written out.  Block columns of 16, right-looking:
 *   panel    warps 0 and 1 factor the block column, stored row tid a
 *            thread (in registers); at each step each warp finds its
 *            best row not yet pivoted (gc_argmax: the first NaN, else the
 *            first largest |a| by position, as bb_getrf_rows), whose lane
 *            puts the row, its position and 1 / pivot in the warp's
 *            buffer; after one barrier every thread takes the better of
 *            the two and updates its row (warps 2 and 3 only meet the
 *            barriers: a barrier of 64 threads made racecheck report the
 *            solve and the update below as racing, session 41);
 *   solve    U12 = L11^-1 A12 for the columns right of it, a column a
 *            thread (L11 unit lower, read as broadcasts);
 *   update   A22 -= L21 U12 on the FP64 tensor cores (bb_dmma16: 16 x 8
 *            tiles over the warps; rows gathered through s_phys).
 * Three barriers a block column and one a step.  Column-major matrices
 * with 16-byte aligned columns are read and written in 16-byte pieces.
 * Measured on the H200 (session 41, doc/performance.md): the panel's steps
 * are most of the time (0.48 of 0.66 ms at n = 64 with the rest turned
 * off), each a chain of dependent instructions (reductions, the barrier,
 * shared-memory round trips) of about 1000 cycles.  The rows past m and the columns past n
 * up to the next multiple of 16 are read as zeros and never pivot nor are
 * written: what the steps leave in them reaches no other element.
 *
 * Semantics as bb_getrf_rows (mid.cu's k_mid_getrf_rows): info = k + 1 for
 * the first zero or NaN pivot, the factorisation goes on (that column's
 * multipliers unscaled); ipiv 1-based; pivot = 0: getrfnp (the row at
 * position k is the pivot).  p.rowmajor honoured.  Per-problem sizes
 * (d.vdim, VAR): a class launch of a variable batch.
 */
#include "small.h"
#include "dmma.h"
#include <stdint.h>

namespace {

/* One row of the panel: its position, and whether it may pivot at step K
   (not yet pivoted, inside the matrix). */
__device__ __forceinline__ void gc_cand(double a, int pos, bool real, int K, double &v, int &key)
{
    v = fabs(a);
    key = pos;
    if (v != v) v = (double)INFINITY, key -= BB_NAN_FIRST;
    if (!(real && pos >= K)) v = -1.0;
}

/* The warp's lane of the first NaN, else of the first largest v by key
   (bb_group_argmax's rule); key: that lane's key in that lane.  First one
   reduction over v rounded down to float: where a single lane holds the
   largest, its v is the strict maximum (rounding down keeps the order);
   only ties of the rounded values (equal entries, NaN and Inf, zeros)
   take the exact search. */
__device__ __forceinline__ int gc_argmax(double v, int &key)
{
    const int f = __float_as_int(__double2float_rd(v)); /* v >= 0 or -1: the int order is the float order */
    const unsigned top = __ballot_sync(0xffffffffu, f == __reduce_max_sync(0xffffffffu, f));
    if (__popc(top) == 1) return __ffs(top) - 1;
    int pl;
    key = bb_group_argmax<32, true>(v, key, pl);
    return pl;
}

/* Row r's columns from the pair holding column k on, to 16-byte aligned
   p, in 16-byte pieces. */
__device__ __forceinline__ void gc_put(double *p, const double (&r)[CHIP_B], int k)
{
#pragma unroll
    for (int c = k & ~1; c < CHIP_B; c += 2) ((double2 *)p)[c / 2] = make_double2(r[c], r[c + 1]);
}

/* Whether a column-major matrix's columns are 16-byte aligned. */
__device__ __forceinline__ bool gc_aligned16(const double *A, int64_t lda)
{
    return (((uintptr_t)A | (uintptr_t)lda * 8u) & 15u) == 0;
}

/* An m x n matrix into S (at shared address Ss, S(i, j) at j LD + i),
   zeros past it up to tm x tn, every copy in flight at once; the lanes
   run along the stored lines (coalesced): column-major (rowmajor = 0) in
   16-byte pieces where v16 (the columns 16-byte aligned: a lane copies
   two rows), row-major (element (i, j) at i lda + j) in 8-byte ones.  The
   caller commits and waits. */
template <int LD>
__device__ __forceinline__ void gc_load(unsigned Ss, const double *A, int64_t lda, int m, int n, int tm, int tn,
                                        int rowmajor, bool v16, int w, int lane)
{
    if (v16) {
        const int i = 2 * lane;
        const double *a = A + w * lda + i;
        unsigned sa = Ss + (unsigned)(w * LD + i) * 8u;
        const int bytes = i + 1 < m ? 16 : i < m ? 8 : 0;
#pragma unroll 4
        for (int c = w; c < tn; c += CHIP_THREADS / 32) {
            const int b = c < n ? bytes : 0;
            if (i < tm) bb_cp16(sa, b ? a : A, b);
            a += 4 * lda;
            sa += 4u * LD * 8u;
        }
    } else { /* a warp a stored line (a column, or a row), a lane two of its elements */
        const int nl = rowmajor ? tm : tn, ne = rowmajor ? tn : tm; /* lines and elements read */
        const int ml = rowmajor ? m : n, me = rowmajor ? n : m;     /* those inside the matrix */
        const unsigned sl = rowmajor ? 1u : (unsigned)LD, se = rowmajor ? (unsigned)LD : 1u;
        const double *a = A + w * lda;
#pragma unroll 4
        for (int l = w; l < nl; l += CHIP_THREADS / 32) {
#pragma unroll
            for (int hh = 0; hh < 2; hh++) {
                const int e = lane + 32 * hh;
                const bool in = l < ml && e < me;
                if (e < ne) bb_cp8(Ss + ((unsigned)l * sl + (unsigned)e * se) * 8u, in ? a + e : A, in);
            }
            a += 4 * lda;
        }
    }
}

/* The m x n result out of S to B: B(t, c') = S(r(t), c) for t < m, c <
   n, with r(t) = phys[t] where PR (rows never moved: the stored row at
   each position), else t, and c' = phys[c] where PC (the inverse of
   Gauss-Jordan: its columns in pivot order), else c; column-major in
   16-byte stores where v16, or row-major (element (t, c') at t ldb + c',
   not with PC).  The addresses are computed here, not kept from the
   loads. */
template <int LD, bool PR, bool PC>
__device__ __forceinline__ void gc_store(double *B, int64_t ldb, const double *S, const int *phys, int m, int n,
                                         int rowmajor, bool v16, int w, int lane)
{
    if (v16) {
        const int i = 2 * lane;
        const int p0 = PR ? phys[i] : i, p1 = PR ? phys[i + 1] : i + 1;
        double *a = B + w * ldb + i;
#pragma unroll 4
        for (int c = w; c < n; c += CHIP_THREADS / 32) {
            double *b = PC ? B + phys[c] * ldb + i : a;
            if (i + 1 < m) *(double2 *)b = make_double2(S[c * LD + p0], S[c * LD + p1]);
            else if (i < m) *b = S[c * LD + p0];
            a += 4 * ldb;
        }
    } else if (!rowmajor) {
        const int p0 = PR ? phys[lane] : lane, p1 = PR ? phys[lane + 32] : lane + 32;
        double *a = B + w * ldb;
#pragma unroll 4
        for (int c = w; c < n; c += CHIP_THREADS / 32) {
            double *b = PC ? B + phys[c] * ldb : a;
            if (lane < m) b[lane] = S[c * LD + p0];
            if (lane + 32 < m) b[lane + 32] = S[c * LD + p1];
            a += 4 * ldb;
        }
    } else {
        double *a = B + w * ldb;
#pragma unroll 4
        for (int t = w; t < m; t += CHIP_THREADS / 32) {
            const int pt = PR ? phys[t] : t;
            if (lane < n) a[lane] = S[lane * LD + pt];
            if (lane + 32 < n) a[lane + 32] = S[(lane + 32) * LD + pt];
            a += 4 * ldb;
        }
    }
}

/* A step's barrier (barrier 1 of the whole block: warps 2 and 3 reach it
   from their own loop, below). */
__device__ __forceinline__ void gc_bar_panel() { asm volatile("bar.sync 1, %0;\n" ::"n"(CHIP_THREADS) : "memory"); }

template <int T, bool VAR>
__global__ void __launch_bounds__(CHIP_THREADS, T <= 48 ? 8 : 6)
    k_getrf_chip(const bb_dev_batch d, int m0, int n0, int64_t lda0, int rowmajor, int pivot)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    constexpr int LD = bb_chip_ld(T);
    extern __shared__ __align__(16) double gc_sm[];
    __shared__ __align__(16) double s_prow[2][2][CHIP_B]; /* [step & 1][warp]: each warp's candidate row */
    __shared__ double2 s_cv[2][2]; /* [step & 1][warp]: |a| (the search's value), 1 / a */
    __shared__ int2 s_ck[2][2];    /* its position (the search's key), a != 0 */
    __shared__ int s_phys[CHIP_T];                     /* the stored row at each position */
    __shared__ int s_ipiv[CHIP_T];
    double *S = gc_sm;
    const int tid = threadIdx.x, w = tid / 32, lane = tid % 32, g = lane / 4, h = lane % 4;
    const unsigned Ss = (unsigned)__cvta_generic_to_shared(S);
    for (int64_t pid = blockIdx.x; pid < d.count; pid += gridDim.x) {
        if (d.info && d.info[pid] != 0) continue; /* the same for the whole block */
        const bb_vdim z = bb_dims<VAR>(d, pid, m0, n0, 0, 0, lda0, 0, 0);
        const int m = z.m, n = z.n, mn = m < n ? m : n;
        if (mn <= 0) {
            if (tid == 0 && d.info) d.info[pid] = 0;
            continue;
        }
        const int tm = (m + CHIP_B - 1) / CHIP_B * CHIP_B, tn = (n + CHIP_B - 1) / CHIP_B * CHIP_B;
        double *A = bb_dev_ptr<double>(d.opd[BB_A], pid);
        const int64_t lda = z.lda;
        /* the matrix in, every copy in flight at once, zeros past it;
           the lanes run along the stored lines (coalesced) */
        const bool v16 = !rowmajor && gc_aligned16(A, lda);
        gc_load<LD>(Ss, A, lda, m, n, tm, tn, rowmajor, v16, w, lane);
        bb_cp_commit();
        if (tid < CHIP_T) s_phys[tid] = tid;
        bb_cp_wait<0>();
        __syncthreads();
        /* the panel threads' state across the panels: the position of
           their stored row, and info */
        int pos = tid, info = 0;
        const int nbj = (mn + CHIP_B - 1) / CHIP_B;
        for (int J = 0; J < nbj; J++) {
            const int R = J * CHIP_B;
            if (w < 2) { /* the panel: warps 0 and 1, stored row tid a thread */
                double r[CHIP_B];
#pragma unroll
                for (int c = 0; c < CHIP_B; c++) r[c] = tid < T ? S[(R + c) * LD + tid] : 0.0;
                const bool real = tid < m;
#pragma unroll
                for (int k = 0; k < CHIP_B; k++) {
                    const int K = R + k;
                    if (K < mn) { /* the same in every thread */
                        /* each warp's candidate row to its buffer with its
                           pivot's reciprocal (taken before the barrier), then
                           the better of the two */
                        int key = pos, pl = K & 31;
                        if (pivot) {
                            double v;
                            gc_cand(r[k], pos, real, K, v, key);
                            pl = gc_argmax(v, key);
                            if (lane == pl) s_cv[k & 1][w].x = v;
                        }
                        if (pivot ? lane == pl : tid == K) {
                            const double a = r[k];
                            const bool nz = fabs(a) > 0.0; /* false for 0 and NaN */
                            gc_put(s_prow[k & 1][w], r, k);
                            s_cv[k & 1][w].y = nz ? 1.0 / a : 1.0;
                            s_ck[k & 1][w] = make_int2(key, nz);
                        }
                        gc_bar_panel();
                        int pw = K >> 5;
                        if (pivot) {
                            const double v0 = s_cv[k & 1][0].x, v1 = s_cv[k & 1][1].x;
                            const int k0 = s_ck[k & 1][0].x, k1 = s_ck[k & 1][1].x;
                            pw = (v1 > v0 || (v1 == v0 && k1 < k0)) ? 1 : 0;
                        }
                        const int2 ck = s_ck[k & 1][pw];
                        const double inv = s_cv[k & 1][pw].y;
                        const int ppos = ck.x < 0 ? ck.x + BB_NAN_FIRST : ck.x;
                        const double2 *b2 = (const double2 *)s_prow[k & 1][pw];
                        if (!ck.y && info == 0) info = K + 1;
                        if (tid == 0) s_ipiv[K] = ppos + 1;
                        /* the row at K goes to ppos, the pivot row to K */
                        pos = pos == ppos ? K : pos == K ? ppos : pos;
                        if (pos > K && real) {
                            const double l = r[k] * inv;
                            r[k] = l;
#pragma unroll
                            for (int c = (k + 1) & ~1; c < CHIP_B; c += 2) {
                                const double2 u = b2[c / 2];
                                if (c > k) r[c] = fma(-l, u.x, r[c]);
                                r[c + 1] = fma(-l, u.y, r[c + 1]);
                            }
                        }
                    }
                }
                /* the rows of this panel and under it back (the rows
                   above it did not change) */
                if (pos >= R && real) {
#pragma unroll
                    for (int c = 0; c < CHIP_B; c++) S[(R + c) * LD + tid] = r[c];
                }
                s_phys[pos] = tid;
            } else { /* warps 2 and 3: the steps' barriers */
                for (int K = R; K < R + CHIP_B && K < mn; K++) gc_bar_panel();
            }
            __syncthreads();
            const int c1 = R + CHIP_B; /* the first column right of the panel */
            if (c1 >= n) break;      /* nothing right of it: done */
            /* U12 = L11^-1 A12, a column a thread (L11 unit lower) */
            {
                const int j = c1 + tid;
                if (j < n) {
                    int ph[CHIP_B];
                    double x[CHIP_B];
#pragma unroll
                    for (int k = 0; k < CHIP_B; k++) {
                        ph[k] = s_phys[R + k];
                        x[k] = S[j * LD + ph[k]];
                    }
#pragma unroll
                    for (int k2 = 0; k2 < CHIP_B; k2++) {
                        const double *l = S + (R + k2) * LD;
#pragma unroll
                        for (int k = k2 + 1; k < CHIP_B; k++) x[k] = fma(-x[k2], l[ph[k]], x[k]);
                    }
#pragma unroll
                    for (int k = 0; k < CHIP_B; k++) S[j * LD + ph[k]] = x[k];
                }
            }
            const int nr = (tm - c1) / CHIP_B, nc = (tn - c1) / 8; /* tiles of the trailing matrix */
            if (nr <= 0) continue; /* no rows under the panel: the solve was the last step */
            __syncthreads();
            /* A22 -= L21 U12: 16 x 8 tiles, A's fragments negated, the
               rows gathered through s_phys */
            {
                int pu[2][2]; /* the stored rows of U12 that this lane's B fragments read */
#pragma unroll
                for (int kb = 0; kb < 2; kb++)
#pragma unroll
                    for (int q = 0; q < 2; q++) pu[kb][q] = s_phys[R + 8 * kb + h + 4 * q];
                for (int t = w; t < nr * nc; t += CHIP_THREADS / 32) {
                    const int r0 = c1 + 16 * (t / nc), c0 = c1 + 8 * (t % nc);
                    const int pa = s_phys[r0 + g], pb = s_phys[r0 + 8 + g];
                    double cu[2], cl[2];
#pragma unroll
                    for (int e = 0; e < 2; e++) {
                        cu[e] = S[(c0 + 2 * h + e) * LD + pa];
                        cl[e] = S[(c0 + 2 * h + e) * LD + pb];
                    }
#pragma unroll
                    for (int kb = 0; kb < 2; kb++) {
                        double a0[2], a1[2], b[2];
#pragma unroll
                        for (int q = 0; q < 2; q++) {
                            const double *col = S + (R + 8 * kb + h + 4 * q) * LD;
                            a0[q] = -col[pa];
                            a1[q] = -col[pb];
                            b[q] = S[(c0 + g) * LD + pu[kb][q]];
                        }
                        bb_dmma16(cu, cl, a0, a1, b);
                    }
#pragma unroll
                    for (int e = 0; e < 2; e++) {
                        S[(c0 + 2 * h + e) * LD + pa] = cu[e];
                        S[(c0 + 2 * h + e) * LD + pb] = cl[e];
                    }
                }
            }
            __syncthreads();
        }
        __syncthreads(); /* the last solve's columns and s_phys */
        /* the matrix out, each row to its position (the store's addresses
           recomputed) */
        gc_store<LD, true, false>(bb_launder(A), lda, S, s_phys, m, n, rowmajor, v16, w, lane);
        if (pivot && tid < mn) bb_dev_ptr<int>(d.opd[BB_IPIV], pid)[tid] = s_ipiv[tid];
        if (tid == 0 && d.info) d.info[pid] = info;
        __syncthreads(); /* S is free for the next problem */
    }
#endif
}

/* The maximum over the block of the one (max column sum) or, with inf,
   infinity (max row sum) norm of the n x n matrix in S: the stored rows
   and columns below n as they lie (a permutation of the rows or the
   columns leaves both norms as they are); NaN if any sum is NaN.  In every
   thread; part: CHIP_THREADS doubles, red: two. */
template <int LD>
__device__ double gj_norm(const double *S, int n, int inf, int tid, double *part, double *red)
{
    const int line = tid & 63, e0 = (tid >> 6) * 32;
    double v = 0.0;
    if (line < n)
        for (int e = e0; e < e0 + 32 && e < n; e++) v += fabs(inf ? S[e * LD + line] : S[line * LD + e]);
    part[tid] = v;
    __syncthreads();
    if (tid < 64) {
        v = part[tid] + part[tid + 64];
        const bool nan = __any_sync(0xffffffffu, v != v);
        v = bb_group_max<32>(v);
        if (tid % 32 == 0) red[tid / 32] = nan ? (double)NAN : v;
    }
    __syncthreads();
    const double a = red[0], b = red[1];
    return (a != a || b != b) ? (double)NAN : (a > b ? a : b);
}

/* gecond / geinv (INV) on chip: in-place Gauss-Jordan with partial
   pivoting (seed 003) by block columns of 16, rows never moved (s_phys[t]:
   the stored row pivoted at step t).  For each block column J (columns
   and positions R .. R + 15):
     panel   warps 0 and 1, stored row tid a thread (every row: Gauss-Jordan
             eliminates above the pivot too), 16 steps as the LU's panel
             above: the pivot the first NaN, else the first largest |a| by
             position among the rows not yet pivoted; the pivot row's 16
             entries scaled by 1 / a (1 / a in its place), every other row
             r -= r_k (1 / a) p (-r_k / a in its place);
     rest    every column j outside the panel: the other rows r(j) +=
             P(r, :) B, B = the block rows' old entries of j, and the block
             rows' entries P(blk, :) B (the panel's elementary transforms
             applied at once), on the FP64 tensor cores, 16 x 8 tiles, a
             warp owning whole columns (B in its registers, read before its
             block rows are overwritten).
   At the end the stored row pivoted at step t holds row t of inv(A) with
   its columns in pivot order: inv(A)(t, s_phys[j]) = S(s_phys[t], j).
   gecond: ||A|| ||inv(A)|| (either norm taken on S as it lies, before and
   after), +Inf if singular; geinv: inv(A) to B, nothing written if
   singular.  info = k + 1 for the first zero or NaN pivot; the steps go
   on (1 / a taken as 0).  Column-major (the front end takes row-major
   problems as their transposes).  Where the problem is smaller than the
   padded order, the padded rows are never pivots nor updated and stay
   zero, so the padded columns' products add nothing to the matrix. */
template <int T, bool INV, bool VAR>
__global__ void __launch_bounds__(CHIP_THREADS, T <= 48 ? 8 : 6)
    k_gecond_chip(const bb_dev_batch d, int n0, int64_t lda0, int64_t ldb0, int inf)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    constexpr int LD = bb_chip_ld(T);
    extern __shared__ __align__(16) double gj_sm[];
    __shared__ __align__(16) double s_prow[2][2][CHIP_B]; /* [step & 1][warp]: each warp's candidate row */
    __shared__ double2 s_cv[2][2]; /* [step & 1][warp]: |a| (the search's value), 1 / a */
    __shared__ int2 s_ck[2][2];    /* its position (the search's key), a != 0 */
    __shared__ int s_phys[CHIP_T]; /* the stored row at each position */
    __shared__ int s_info;
    __shared__ double s_part[INV ? 1 : CHIP_THREADS], s_red[2];
    double *S = gj_sm;
    const int tid = threadIdx.x, w = tid / 32, lane = tid % 32, g = lane / 4, h = lane % 4;
    const unsigned Ss = (unsigned)__cvta_generic_to_shared(S);
    for (int64_t pid = blockIdx.x; pid < d.count; pid += gridDim.x) {
        if (d.info && d.info[pid] != 0) continue; /* the same for the whole block */
        const bb_vdim z = bb_dims<VAR>(d, pid, 0, n0, 0, 0, lda0, ldb0, 0);
        const int n = z.n;
        if (n <= 0) {
            if (tid == 0) {
                if (!INV) *bb_dev_ptr<double>(d.opd[BB_Y], pid) = 0.0;
                if (d.info) d.info[pid] = 0;
            }
            continue;
        }
        const int tn = (n + CHIP_B - 1) / CHIP_B * CHIP_B;
        const double *A = bb_dev_ptr<double>(d.opd[BB_A], pid);
        gc_load<LD>(Ss, A, z.lda, n, n, tn, tn, 0, gc_aligned16(A, z.lda), w, lane);
        bb_cp_commit();
        if (tid < CHIP_T) s_phys[tid] = tid;
        bb_cp_wait<0>();
        __syncthreads();
        double na = 0.0;
        if (!INV) na = gj_norm<LD>(S, n, inf, tid, s_part, s_red);
        int pos = tid, info = 0; /* the panel threads' */
        for (int R = 0; R < tn; R += CHIP_B) {
            if (w < 2) { /* the panel: warps 0 and 1, stored row tid a thread */
                double r[CHIP_B];
#pragma unroll
                for (int c = 0; c < CHIP_B; c++) r[c] = tid < T ? S[(R + c) * LD + tid] : 0.0;
                const bool real = tid < n;
#pragma unroll
                for (int k = 0; k < CHIP_B; k++) {
                    const int K = R + k;
                    if (K < n) { /* the same in every thread */
                        double v;
                        int key;
                        gc_cand(r[k], pos, real, K, v, key);
                        const int pl = gc_argmax(v, key);
                        if (lane == pl) {
                            const double a = r[k];
                            const bool nz = fabs(a) > 0.0; /* false for 0 and NaN */
                            gc_put(s_prow[k & 1][w], r, 0);
                            s_cv[k & 1][w] = make_double2(v, nz ? 1.0 / a : 0.0);
                            s_ck[k & 1][w] = make_int2(key, nz);
                        }
                        gc_bar_panel();
                        const double v0 = s_cv[k & 1][0].x, v1 = s_cv[k & 1][1].x;
                        const int k0 = s_ck[k & 1][0].x, k1 = s_ck[k & 1][1].x;
                        const int pw = (v1 > v0 || (v1 == v0 && k1 < k0)) ? 1 : 0;
                        const int2 ck = s_ck[k & 1][pw];
                        const double inv = s_cv[k & 1][pw].y;
                        const int ppos = ck.x < 0 ? ck.x + BB_NAN_FIRST : ck.x;
                        const double2 *b2 = (const double2 *)s_prow[k & 1][pw];
                        if (!ck.y && info == 0) info = K + 1;
                        const bool isp = pos == ppos;
                        /* the row at K goes to ppos, the pivot row to K */
                        pos = isp ? K : pos == K ? ppos : pos;
                        if (real) {
                            const double f = isp ? -inv : r[k] * inv;
#pragma unroll
                            for (int c = 0; c < CHIP_B; c += 2) {
                                const double2 u = b2[c / 2];
                                if (c != k) r[c] = fma(-f, u.x, isp ? 0.0 : r[c]);
                                if (c + 1 != k) r[c + 1] = fma(-f, u.y, isp ? 0.0 : r[c + 1]);
                            }
                            r[k] = isp ? inv : -f;
                        }
                    }
                }
                if (real) {
#pragma unroll
                    for (int c = 0; c < CHIP_B; c++) S[(R + c) * LD + tid] = r[c];
                }
                s_phys[pos] = tid;
                if (tid == 0) s_info = info;
            } else { /* warps 2 and 3: the steps' barriers */
                for (int K = R; K < R + CHIP_B && K < n; K++) gc_bar_panel();
            }
            __syncthreads();
            if (tn == CHIP_B) break; /* one block column: no other column */
            /* the rest: a warp owns 8 columns at a time (outside the
               panel), the rows outside the block rows first, then the
               block rows */
            {
                int pu[2][2]; /* the stored block rows that this lane's B fragments read */
#pragma unroll
                for (int kb = 0; kb < 2; kb++)
#pragma unroll
                    for (int q = 0; q < 2; q++) pu[kb][q] = s_phys[R + 8 * kb + h + 4 * q];
                const int nct = (tn - CHIP_B) / 8, nrt = tn / CHIP_B; /* column tiles; row tiles, the block's last */
                for (int ct = w; ct < nct; ct += CHIP_THREADS / 32) {
                    const int c0 = 8 * ct < R ? 8 * ct : 8 * ct + CHIP_B;
                    double b[2][2];
#pragma unroll
                    for (int kb = 0; kb < 2; kb++)
#pragma unroll
                        for (int q = 0; q < 2; q++) b[kb][q] = S[(c0 + g) * LD + pu[kb][q]];
                    for (int rt = 0; rt < nrt; rt++) {
                        const bool blk = rt == nrt - 1;
                        const int r0 = blk ? R : 16 * rt < R ? 16 * rt : 16 * rt + CHIP_B;
                        const int pa = s_phys[r0 + g], pb = s_phys[r0 + 8 + g];
                        double cu[2] = {0.0, 0.0}, cl[2] = {0.0, 0.0};
                        if (!blk) {
#pragma unroll
                            for (int e = 0; e < 2; e++) {
                                cu[e] = S[(c0 + 2 * h + e) * LD + pa];
                                cl[e] = S[(c0 + 2 * h + e) * LD + pb];
                            }
                        }
#pragma unroll
                        for (int kb = 0; kb < 2; kb++) {
                            double a0[2], a1[2];
#pragma unroll
                            for (int q = 0; q < 2; q++) {
                                const double *col = S + (R + 8 * kb + h + 4 * q) * LD;
                                a0[q] = col[pa];
                                a1[q] = col[pb];
                            }
                            bb_dmma16(cu, cl, a0, a1, b[kb]);
                        }
                        if (blk) __syncwarp(); /* every lane's B read before the block rows change */
#pragma unroll
                        for (int e = 0; e < 2; e++) {
                            S[(c0 + 2 * h + e) * LD + pa] = cu[e];
                            S[(c0 + 2 * h + e) * LD + pb] = cl[e];
                        }
                    }
                }
            }
            __syncthreads();
        }
        __syncthreads(); /* s_info, s_phys and the matrix complete */
        info = s_info;
        if (INV) {
            if (info == 0) {
                double *B = bb_launder(bb_dev_ptr<double>(d.opd[BB_B], pid));
                gc_store<LD, true, true>(B, z.ldb, S, s_phys, n, n, 0, gc_aligned16(B, z.ldb), w, lane);
            }
            if (tid == 0 && d.info) d.info[pid] = info;
        } else {
            const double ni = gj_norm<LD>(S, n, inf, tid, s_part, s_red);
            if (tid == 0) {
                *bb_dev_ptr<double>(d.opd[BB_Y], pid) = info ? (double)INFINITY : na * ni;
                if (d.info) d.info[pid] = info;
            }
        }
        __syncthreads(); /* S is free for the next problem */
    }
#endif
}

/* One 16 x 8 tile of X (rows R .. R + 15, columns c0 .. c0 + 7) through a
   step of a triangular solve with the factor F on the tensor cores, by one
   warp: X_R -= the sum over the blocks K in [k0, k1) of F(R.., K..) X(K..,
   c0..) (F's off-diagonal blocks, whole), then X_R = D X_R, D the inverse
   of F's diagonal block at R.  F is L (UPPER false) or U (UPPER), or with
   TRANS U^T or L^T, as getrf or potrf leave them in S with the diagonal
   blocks replaced by their inverses (L's below the diagonal, and on it
   unless UNIT, U's on and above it).  X_R goes through shared
   memory once between the two (the accumulators' layout is not the B
   fragments'). */
template <int LD, bool UPPER, bool TRANS, bool UNIT>
__device__ __forceinline__ void gri_tile(const double *S, double *X, int R, int c0, int k0, int k1, int g, int h)
{
    /* F(R + r, c) in S */
    auto f = [&](int r, int c) { return TRANS ? S[(R + r) * LD + c] : S[c * LD + R + r]; };
    double cu[2], cl[2];
#pragma unroll
    for (int e = 0; e < 2; e++) {
        cu[e] = X[(c0 + 2 * h + e) * LD + R + g];
        cl[e] = X[(c0 + 2 * h + e) * LD + R + 8 + g];
    }
    bb_dmma_acc(cu, cl, k0, k1, g, h, [&](int r, int k) { return -f(r, k); },
                [&](int k) { return X[(c0 + g) * LD + k]; });
#pragma unroll
    for (int e = 0; e < 2; e++) {
        X[(c0 + 2 * h + e) * LD + R + g] = cu[e];
        X[(c0 + 2 * h + e) * LD + R + 8 + g] = cl[e];
    }
    __syncwarp();
    double b[2][2];
#pragma unroll
    for (int kb = 0; kb < 2; kb++)
#pragma unroll
        for (int q = 0; q < 2; q++) b[kb][q] = X[(c0 + g) * LD + R + 8 * kb + h + 4 * q];
    __syncwarp(); /* every lane's fragments read before X_R changes */
    cu[0] = cu[1] = cl[0] = cl[1] = 0.0;
#pragma unroll
    for (int kb = 0; kb < 2; kb++) {
        double a0[2], a1[2];
#pragma unroll
        for (int q = 0; q < 2; q++) {
            const int cc = 8 * kb + h + 4 * q; /* its column in the block; its rows g and 8 + g */
            const double u = f(g, R + cc), l = f(8 + g, R + cc);
            const bool in0 = UPPER ? g < cc : g > cc, in1 = UPPER ? 8 + g < cc : 8 + g > cc;
            a0[q] = in0 ? u : g == cc ? (UNIT ? 1.0 : u) : 0.0;
            a1[q] = in1 ? l : 8 + g == cc ? (UNIT ? 1.0 : l) : 0.0;
        }
        bb_dmma16(cu, cl, a0, a1, b[kb]);
    }
#pragma unroll
    for (int e = 0; e < 2; e++) {
        X[(c0 + 2 * h + e) * LD + R + g] = cu[e];
        X[(c0 + 2 * h + e) * LD + R + 8 + g] = cl[e];
    }
    __syncwarp(); /* X_R complete for the warp's next tile */
}

/* The n x nc block of B from column j0 into X (X(p, c) at c LD + p), row
   p read from B's row sel[p] (sel NULL: p), zeros past it up to tn x tc;
   column-major or row-major (element (i, j) at i ldb + j), 8-byte copies
   along the stored lines.  The caller commits and waits. */
template <int LD>
__device__ __forceinline__ void gc_load_rhs(unsigned Xs, const double *B, int64_t ldb, const int *sel, int n, int nc,
                                            int tn, int tc, int rowmajor, int w, int lane)
{
    if (!rowmajor) {
#pragma unroll 2
        for (int c = w; c < tc; c += CHIP_THREADS / 32) {
#pragma unroll
            for (int hh = 0; hh < 2; hh++) {
                const int p = lane + 32 * hh;
                const bool in = c < nc && p < n;
                if (p < tn) bb_cp8(Xs + (unsigned)(c * LD + p) * 8u, in ? B + c * ldb + (sel ? sel[p] : p) : B, in);
            }
        }
    } else {
#pragma unroll 2
        for (int p = w; p < tn; p += CHIP_THREADS / 32) {
            const double *b = B + (p < n ? (sel ? sel[p] : p) : 0) * ldb;
#pragma unroll
            for (int hh = 0; hh < 2; hh++) {
                const int c = lane + 32 * hh;
                const bool in = c < nc && p < n;
                if (c < tc) bb_cp8(Xs + (unsigned)(c * LD + p) * 8u, in ? b + c : B, in);
            }
        }
    }
}

/* The solves on chip, one kernel for three routines (OP):
     SOLVE_GETRI  getri / getri_oop: inv(A) from getrf's factors and ipiv
                  as the solution X of L U X = P;
     SOLVE_GETRS  getrs: L U X = P B, or its transpose;
     SOLVE_POTRS  potrs (posv's solve): L L^T X = B, or U^T U X = B.
   The factors lie in shared memory (S, as the LU or the Cholesky on chip
   leave them, the padded diagonal 1) and the right-hand sides beside them
   (X): for getri the permutation, X(sigma(j), j) = 1 with sigma(j) the
   position to which the interchanges take row j; for getrs and potrs B,
   up to T columns at a time, getrs's rows in the solve's order (NoTrans:
   row p of X is row perm[p] of B, perm = sigma^-1; transposed: row p of
   X goes to row perm[p] of B at the end).  The diagonal blocks of the
   factors are inverted in place, a column a thread, all of them at once
   (L's below the diagonal, and on it for potrs; U's on and above it);
   then each warp solves its own 8-column tiles of X through every block
   row, forward and backward (gri_tile: the tensor cores, no barrier), and
   X goes out.  getri: info = k + 1 for the first exactly zero U(k, k), as
   LAPACK's getri and the register kernel (small_lu.cu), and then nothing
   is written (a NaN there is computed through); out of place (mode 1) to
   B.  getrs: mode 1 for the transposed system (real: ConjTrans the same).
   potrs: mode 1 for the upper factor; rhs_right (B stored nrhs x n, X A
   = B: the front end's row-major form) read as a row-major n x nrhs B.
   getrs and potrs write no info, and a zero on the diagonal is computed
   through, as LAPACK's.  p.rowmajor honoured (the logical matrices loaded
   alike: both layouts give the same bits). */
enum { SOLVE_GETRI, SOLVE_GETRS, SOLVE_POTRS };

template <int T, int OP, bool VAR>
__global__ void __launch_bounds__(CHIP_THREADS, T <= 48 ? 4 : 3)
    k_solve_chip(const bb_dev_batch d, int n0, int nrhs0, int64_t lda0, int64_t ldb0, int rowmajor, int rowmajor_b,
                 int mode)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    constexpr bool RHS = OP != SOLVE_GETRI, LU = OP != SOLVE_POTRS;
    constexpr int LD = bb_chip_ld(T);
    extern __shared__ __align__(16) double gri_sm[];
    double *S = gri_sm, *X = gri_sm + T * LD;
    __shared__ double s_dinv[CHIP_T]; /* 1 / the factor's diagonal (1 in the padding) */
    __shared__ int s_ip[CHIP_T];      /* ipiv, 0-based */
    __shared__ int s_sig[CHIP_T];     /* sigma */
    __shared__ int s_perm[CHIP_T];    /* perm = sigma^-1 */
    __shared__ int s_bad[2];          /* each of warps 0 and 1's first zero U(k, k), 1-based; 0: none */
    const int tid = threadIdx.x, w = tid / 32, lane = tid % 32, g = lane / 4, h = lane % 4;
    const unsigned Ss = (unsigned)__cvta_generic_to_shared(S), Xs = (unsigned)__cvta_generic_to_shared(X);
    for (int64_t pid = blockIdx.x; pid < d.count; pid += gridDim.x) {
        if (d.info && d.info[pid] != 0) continue; /* the same for the whole block */
        const bb_vdim z = bb_dims<VAR>(d, pid, 0, n0, 0, nrhs0, lda0, ldb0, 0);
        const int n = z.n, nrhs = RHS ? z.nrhs : n;
        if (n <= 0 || nrhs <= 0) {
            if (!RHS && tid == 0 && d.info) d.info[pid] = 0;
            continue;
        }
        const int tn = (n + CHIP_B - 1) / CHIP_B * CHIP_B;
        double *A = bb_dev_ptr<double>(d.opd[BB_A], pid);
        gc_load<LD>(Ss, A, z.lda, n, n, tn, tn, rowmajor, !rowmajor && gc_aligned16(A, z.lda), w, lane);
        bb_cp_commit();
        if (LU && tid < n) s_ip[tid] = bb_dev_ptr<int>(d.opd[BB_IPIV], pid)[tid] - 1;
        if (!RHS)
            for (int c = w; c < tn; c += CHIP_THREADS / 32)
                for (int i = lane; i < tn; i += 32) X[c * LD + i] = 0.0;
        bb_cp_wait<0>();
        __syncthreads();
        /* the diagonal (the padding's set to 1), info; sigma, perm, and
           getri's ones */
        if (w < 2) {
            const double a = tid < tn ? S[tid * (LD + 1)] : 1.0;
            if (tid < tn && tid >= n) S[tid * (LD + 1)] = 1.0;
            const bool bad = !RHS && tid < n && a == 0.0;
            s_dinv[tid] = tid >= n ? 1.0 : bad ? 0.0 : 1.0 / a;
            const unsigned b = __ballot_sync(0xffffffffu, bad);
            if (lane == 0) s_bad[w] = b ? __ffs(b) + 32 * w : 0;
        } else if (LU && tid - 64 < n) {
            const int j = tid - 64;
            int sg = j;
#pragma unroll 8
            for (int k = 0; k < n; k++) {
                int pk = s_ip[k];
                if (pk < 0 || pk >= n) pk = k; /* out of range: no interchange, as the drivers */
                sg = sg == k ? pk : sg == pk ? k : sg;
            }
            s_sig[j] = sg;
            s_perm[sg] = j;
            if (!RHS) X[j * LD + sg] = 1.0;
        }
        __syncthreads();
        const int info = s_bad[0] ? s_bad[0] : s_bad[1];
        if (info == 0) {
            /* the diagonal blocks' inverses, a column a thread: the LU's
               U (warps 0 and 1) and unit lower L (warps 2 and 3); the
               Cholesky factor by warps 0 and 1 */
            const int R = (tid & 63) & ~(CHIP_B - 1), c = tid & (CHIP_B - 1);
            const bool up = LU ? tid < 64 : mode != 0, act = R < tn && (LU || tid < 64);
            double x[CHIP_B];
            if (act) {
#pragma unroll
                for (int r = 0; r < CHIP_B; r++) x[r] = r == c ? (up || !LU ? s_dinv[R + c] : 1.0) : 0.0;
                if (up) {
#pragma unroll
                    for (int r = CHIP_B - 2; r >= 0; r--)
                        if (r < c) {
                            double t = 0.0;
#pragma unroll
                            for (int k = r + 1; k < CHIP_B; k++)
                                if (k <= c) t = fma(S[(R + k) * LD + R + r], x[k], t);
                            x[r] = -t * s_dinv[R + r];
                        }
                } else {
#pragma unroll
                    for (int r = 1; r < CHIP_B; r++)
                        if (r > c) {
                            double t = 0.0;
#pragma unroll
                            for (int k = 0; k < r; k++)
                                if (k >= c) t = fma(S[(R + k) * LD + R + r], x[k], t);
                            x[r] = LU ? -t : -t * s_dinv[R + r];
                        }
                }
            }
            __syncthreads(); /* every block read before any changes */
            if (act) {
#pragma unroll
                for (int r = 0; r < CHIP_B; r++)
                    if (up ? r <= c : LU ? r > c : r >= c) S[(R + c) * LD + R + r] = x[r];
            }
            const bool tr = RHS && mode;
            double *B = RHS || mode ? bb_dev_ptr<double>(d.opd[BB_B], pid) : A;
            const int64_t ldb = RHS || mode ? z.ldb : z.lda;
            const int rmb = LU ? rowmajor : rowmajor_b;
            for (int j0 = 0; j0 < nrhs; j0 += T) {
                const int nc = nrhs - j0 < T ? nrhs - j0 : T, tc = (nc + 7) & ~7;
                double *Bj = B + (rmb ? j0 : j0 * ldb);
                if (RHS) {
                    if (j0) __syncthreads(); /* the last block of B out */
                    gc_load_rhs<LD>(Xs, Bj, ldb, LU && !tr ? s_perm : NULL, n, nc, tn, tc, rmb, w, lane);
                    bb_cp_commit();
                    bb_cp_wait<0>();
                }
                __syncthreads();
                /* forward, then backward, a warp's 8-column tiles at a
                   time: getri and getrs L then U (transposed: U^T then
                   L^T), potrs L then L^T (upper: U^T then U) */
                for (int c0 = 8 * w; c0 < tc; c0 += 8 * (CHIP_THREADS / 32)) {
                    if (LU && !tr) {
                        for (int R2 = 0; R2 < tn; R2 += CHIP_B) gri_tile<LD, false, false, true>(S, X, R2, c0, 0, R2, g, h);
                        for (int R2 = tn - CHIP_B; R2 >= 0; R2 -= CHIP_B)
                            gri_tile<LD, true, false, false>(S, X, R2, c0, R2 + CHIP_B, tn, g, h);
                    } else if (LU) {
                        for (int R2 = 0; R2 < tn; R2 += CHIP_B) gri_tile<LD, false, true, false>(S, X, R2, c0, 0, R2, g, h);
                        for (int R2 = tn - CHIP_B; R2 >= 0; R2 -= CHIP_B)
                            gri_tile<LD, true, true, true>(S, X, R2, c0, R2 + CHIP_B, tn, g, h);
                    } else if (!mode) {
                        for (int R2 = 0; R2 < tn; R2 += CHIP_B) gri_tile<LD, false, false, false>(S, X, R2, c0, 0, R2, g, h);
                        for (int R2 = tn - CHIP_B; R2 >= 0; R2 -= CHIP_B)
                            gri_tile<LD, true, true, false>(S, X, R2, c0, R2 + CHIP_B, tn, g, h);
                    } else {
                        for (int R2 = 0; R2 < tn; R2 += CHIP_B) gri_tile<LD, false, true, false>(S, X, R2, c0, 0, R2, g, h);
                        for (int R2 = tn - CHIP_B; R2 >= 0; R2 -= CHIP_B)
                            gri_tile<LD, true, false, false>(S, X, R2, c0, R2 + CHIP_B, tn, g, h);
                    }
                }
                __syncthreads();
                double *Bo = bb_launder(Bj);
                const bool v16 = !rmb && gc_aligned16(Bo, ldb);
                if (LU && tr) gc_store<LD, true, false>(Bo, ldb, X, s_sig, n, nc, rmb, v16, w, lane);
                else gc_store<LD, false, false>(Bo, ldb, X, NULL, n, nc, rmb, v16, w, lane);
            }
        }
        if (!RHS && tid == 0 && d.info) d.info[pid] = info;
        __syncthreads(); /* S and X are free for the next problem */
    }
#endif
}

template <int T, bool VAR>
cudaError_t launch(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int pivot)
{
    /* the largest shared-memory carveout: blocks of 20 KiB (T = 48: eight
       an SM, as the 64 registers allow) or 34 KiB (six) */
    cudaError_t e = cudaFuncSetAttribute(k_getrf_chip<T, VAR>, cudaFuncAttributePreferredSharedMemoryCarveout,
                                         (int)cudaSharedmemCarveoutMaxShared);
    if (e != cudaSuccess) return e;
    k_getrf_chip<T, VAR><<<bb_grid(d.count, 1), CHIP_THREADS, bb_chip_smem(T), q->stream>>>(d, p.m, p.n, p.lda, p.rowmajor,
                                                                               pivot);
    return cudaGetLastError();
}

} // namespace

cudaError_t bb_getrf_chip(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int pivot)
{
    const int x = bb_cuda_chip_max(pivot ? BB_OP_GETRF : BB_OP_GETRFNP, prec);
    if (!x || p.m < 1 || p.n < 1 || p.m > x || p.n > x) return cudaErrorNotSupported;
    if (d.count <= 0) return cudaSuccess;
    /* the smaller matrix on chip where every problem fits in it (p: the
       sizes, or for a class launch of a variable batch the class's bound) */
    if (p.m <= 48 && p.n <= 48) return d.vdim ? launch<48, true>(p, d, q, pivot) : launch<48, false>(p, d, q, pivot);
    return d.vdim ? launch<CHIP_T, true>(p, d, q, pivot) : launch<CHIP_T, false>(p, d, q, pivot);
}

namespace {

template <int T, bool INV, bool VAR>
cudaError_t launch_gecond(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    cudaError_t e = cudaFuncSetAttribute(k_gecond_chip<T, INV, VAR>, cudaFuncAttributePreferredSharedMemoryCarveout,
                                         (int)cudaSharedmemCarveoutMaxShared);
    if (e != cudaSuccess) return e;
    k_gecond_chip<T, INV, VAR><<<bb_grid(d.count, 1), CHIP_THREADS, bb_chip_smem(T), q->stream>>>(
        d, p.n, p.lda, p.ldb, p.norm == BblasInfNorm);
    return cudaGetLastError();
}

template <int T>
cudaError_t launch_gecond_T(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int inv)
{
    if (inv) return d.vdim ? launch_gecond<T, true, true>(p, d, q) : launch_gecond<T, true, false>(p, d, q);
    return d.vdim ? launch_gecond<T, false, true>(p, d, q) : launch_gecond<T, false, false>(p, d, q);
}

} // namespace

cudaError_t bb_gecond_chip(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int inv)
{
    const int x = bb_cuda_chip_max(inv ? BB_OP_GEINV : BB_OP_GECOND, prec);
    if (!x || p.n < 1 || p.n > x) return cudaErrorNotSupported;
    if (d.count <= 0) return cudaSuccess;
    /* as the LU: the 48 x 52 matrix where every problem fits in it */
    return p.n <= 48 ? launch_gecond_T<48>(p, d, q, inv) : launch_gecond_T<CHIP_T>(p, d, q, inv);
}

namespace {

template <int T, int OP, bool VAR>
cudaError_t launch_solve(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int mode)
{
    /* the factors and X: 2 x 34 KiB (three blocks an SM) or 2 x 20 KiB
       (four: the registers) */
    const size_t smem = 2 * bb_chip_smem(T);
    auto k = k_solve_chip<T, OP, VAR>;
    cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (e == cudaSuccess)
        e = cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, (int)cudaSharedmemCarveoutMaxShared);
    if (e != cudaSuccess) return e;
    k<<<bb_grid(d.count, 1), CHIP_THREADS, smem, q->stream>>>(d, p.n, p.nrhs, p.lda, p.ldb, p.rowmajor, p.rhs_right,
                                                              mode);
    return cudaGetLastError();
}

template <int OP>
cudaError_t launch_solve_T(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int mode)
{
    if (p.n <= 48) return d.vdim ? launch_solve<48, OP, true>(p, d, q, mode) : launch_solve<48, OP, false>(p, d, q, mode);
    return d.vdim ? launch_solve<CHIP_T, OP, true>(p, d, q, mode) : launch_solve<CHIP_T, OP, false>(p, d, q, mode);
}

} // namespace

cudaError_t bb_getri_chip(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int oop)
{
    const int x = bb_cuda_chip_max(oop ? BB_OP_GETRI_OOP : BB_OP_GETRI, prec);
    if (!x || p.n < 1 || p.n > x) return cudaErrorNotSupported;
    if (d.count <= 0) return cudaSuccess;
    return launch_solve_T<SOLVE_GETRI>(p, d, q, oop);
}

cudaError_t bb_getrs_chip(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    const int x = bb_cuda_chip_max(BB_OP_GETRS, prec);
    if (!x || p.n < 1 || p.n > x || p.nrhs < 0) return cudaErrorNotSupported;
    if (d.count <= 0) return cudaSuccess;
    return launch_solve_T<SOLVE_GETRS>(p, d, q, p.trans != BblasNoTrans);
}

cudaError_t bb_potrs_chip(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    const int x = bb_cuda_chip_max(BB_OP_POTRS, prec);
    if (!x || p.n < 1 || p.n > x || p.nrhs < 0) return cudaErrorNotSupported;
    if (d.count <= 0) return cudaSuccess;
    return launch_solve_T<SOLVE_POTRS>(p, d, q, p.uplo == BblasUpper);
}
