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
 *
 * The file's kernels, all on the same matrix in shared memory:
 *   k_getrf_chip   getrf, getrfnp (gc_lu: the steps above);
 *   k_gecond_chip  gecond, geinv: Gauss-Jordan with the same panel;
 *   k_solve_chip   getri, getrs, potrs: the factors loaded, the solution
 *                  in the warps' registers (gc_solve_rhs);
 *   k_gesv_chip    gesv: gc_lu, then gc_solve_rhs on the factors in place.
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
    constexpr int TM = LD - 4; /* the rows S holds (bb_chip_ld) */
    if (v16) { /* a lane two rows of each 64 */
#pragma unroll
        for (int i0 = 0; i0 < TM; i0 += 64) {
            const int i = i0 + 2 * lane;
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
        }
    } else { /* a warp a stored line (a column, or a row), a lane every 32nd of its elements */
        constexpr int EH = ((TM > CHIP_T ? TM : CHIP_T) + 31) / 32; /* elements of a line / 32, at most */
        const int nl = rowmajor ? tm : tn, ne = rowmajor ? tn : tm; /* lines and elements read */
        const int ml = rowmajor ? m : n, me = rowmajor ? n : m;     /* those inside the matrix */
        const unsigned sl = rowmajor ? 1u : (unsigned)LD, se = rowmajor ? (unsigned)LD : 1u;
        const double *a = A + w * lda;
#pragma unroll 4
        for (int l = w; l < nl; l += CHIP_THREADS / 32) {
#pragma unroll
            for (int hh = 0; hh < EH; hh++) {
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
    constexpr int TM = LD - 4; /* the rows S holds (bb_chip_ld) */
    if (v16) {
#pragma unroll
        for (int i0 = 0; i0 < TM; i0 += 64) {
            const int i = i0 + 2 * lane;
            const int p0 = PR && i < TM ? phys[i] : i, p1 = PR && i + 1 < TM ? phys[i + 1] : i + 1;
            double *a = B + w * ldb + i;
#pragma unroll 4
            for (int c = w; c < n; c += CHIP_THREADS / 32) {
                double *b = PC ? B + phys[c] * ldb + i : a;
                if (i + 1 < m) *(double2 *)b = make_double2(S[c * LD + p0], S[c * LD + p1]);
                else if (i < m) *b = S[c * LD + p0];
                a += 4 * ldb;
            }
        }
    } else if (!rowmajor) {
#pragma unroll
        for (int i = lane; i < TM; i += 32) {
            const int p0 = PR ? phys[i] : i;
            double *a = B + w * ldb;
#pragma unroll 4
            for (int c = w; c < n; c += CHIP_THREADS / 32) {
                double *b = PC ? B + phys[c] * ldb : a;
                if (i < m) b[i] = S[c * LD + p0];
                a += 4 * ldb;
            }
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

/* A step's barrier (barrier 1 of the whole block: the warps outside the
   panel reach it from their own loop, below). */
__device__ __forceinline__ void gc_bar_panel() { asm volatile("bar.sync 1, %0;\n" ::"n"(CHIP_THREADS) : "memory"); }

/* The panel warps' exchange at each step, in shared memory after the
   matrix (the kernels' dynamic shared memory, bb_chip_lu_smem): for each
   step parity and each panel warp, a slot of GC_X doubles, its candidate
   row (CHIP_B doubles), then {|a|, key and a != 0} (16 bytes, the record
   every thread reads first) and 1 / a. */
constexpr int GC_X = CHIP_B + 4;
__host__ __device__ constexpr int gc_panel_warps(int tm) { return (tm + 31) / 32; }
__host__ __device__ constexpr size_t bb_chip_lu_smem(int tm, int tn)
{
    return (size_t)tn * bb_chip_ld(tm) * sizeof(double) + (size_t)2 * gc_panel_warps(tm) * GC_X * sizeof(double);
}

/* 1 / a by the reciprocal's approximation and two Newton steps on the
   FMAs, without a branch: the sequence of the compiler's 1.0 / a, the
   same bits, where 2^-1000 < |a| < 2^1000 (gc_recip_in); outside it the
   caller takes 1.0 / a.  Branch-free, so that the scheduler can overlap
   it with the pivot search. */
__device__ __forceinline__ double gc_recip_fast(double a)
{
    double y;
    asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(a));
    double e = fma(-a, y, 1.0);
    e = fma(e, e, e);
    y = fma(y, e, y);
    e = fma(-a, y, 1.0);
    return fma(y, e, y);
}
__device__ __forceinline__ bool gc_recip_in(double a)
{
    const unsigned ex = ((unsigned)__double2hiint(a) >> 20) & 0x7ffu; /* biased exponent */
    return ex > 1023u - 1000u && ex < 1023u + 1000u;
}

/* A step's pivot, as the panel's steps (the LU's, Gauss-Jordan's) take it */
struct gc_piv {
    const double2 *row; /* the pivot row's CHIP_B entries (from column k on, or all with GJ) */
    double inv;         /* 1 / a (a = 0 or NaN: 1, or 0 with GJ) */
    int ppos;           /* the pivot row's position */
    bool nz;            /* a != 0 and not NaN */
};

/* Step k (column K = R + k) of a panel: the NW panel warps, stored row tid
   a thread (r its panel columns, pos its position, real: inside the
   matrix), find the pivot (pivot: the first NaN, else the first largest
   |a| by position among the rows not yet pivoted, as bb_getrf_rows;
   pivot = 0: the row at position K), whose lane puts its row and record
   in its warp's slot; after one barrier every thread reads all the warps'
   records at once, takes the better, then reads its row and 1 / a.  The
   pivot lane's 1 / a is computed before the search, branch-free. */
template <int NW, bool GJ>
__device__ __forceinline__ gc_piv gc_pivot(double *P, const double (&r)[CHIP_B], int k, int K, int pos, bool real,
                                           int pivot, int tid)
{
    const int w = tid / 32, lane = tid % 32;
    const double a = r[k];
    const double fast = gc_recip_fast(a);
    double v = 0.0;
    int key = pos, pl = K & 31;
    if (pivot) {
        gc_cand(a, pos, real, K, v, key);
        pl = gc_argmax(v, key);
    }
    double *x = P + (k & 1) * NW * GC_X;
    if (pivot ? lane == pl : tid == K) {
        double *mine = x + w * GC_X;
        const bool nz = fabs(a) > 0.0; /* false for 0 and NaN */
        gc_put(mine, r, GJ ? 0 : k);
        mine[CHIP_B] = v;
        *(int2 *)(mine + CHIP_B + 1) = make_int2(key, nz);
        mine[CHIP_B + 2] = !nz ? (GJ ? 0.0 : 1.0) : gc_recip_in(a) ? fast : 1.0 / a;
    }
    gc_bar_panel();
    int pw = 0;
    double bv = x[CHIP_B];
    int2 bk = *(const int2 *)(x + CHIP_B + 1);
#pragma unroll
    for (int u = 1; u < NW; u++) {
        const double cv = x[u * GC_X + CHIP_B];
        const int2 ck = *(const int2 *)(x + u * GC_X + CHIP_B + 1);
        const bool better = pivot ? cv > bv || (cv == bv && ck.x < bk.x) : u == (K >> 5);
        if (better) pw = u, bv = cv, bk = ck;
    }
    gc_piv p;
    p.row = (const double2 *)(x + pw * GC_X);
    p.inv = x[pw * GC_X + CHIP_B + 2];
    p.ppos = bk.x < 0 ? bk.x + BB_NAN_FIRST : bk.x;
    p.nz = bk.y != 0;
    return p;
}

/* The LU of the m x n matrix in S (TN columns of bb_chip_ld(TM) doubles;
   zeros past it up to the next multiples of 16), by the whole block (the
   steps above): rows never moved, s_phys[t] the stored row at position t
   (the identity on entry), s_ipiv[k] the 1-based pivot (with pivot = 0,
   getrfnp: untouched).  The panel is the first TM / 32 warps' (two for
   the square forms, all four for the tall panels of 128 rows); the panel
   exchange slots follow S (bb_chip_lu_smem).  Returns info (k + 1 for the
   first zero or NaN pivot) in the panel warps; S and s_phys are complete
   in every thread on return. */
template <int TM, int TN>
__device__ __forceinline__ int gc_lu(double *S, int m, int n, int pivot, int *s_phys, int *s_ipiv)
{
    constexpr int LD = bb_chip_ld(TM), NW = gc_panel_warps(TM);
    double *P = S + TN * LD;
    const int tid = threadIdx.x, w = tid / 32, lane = tid % 32, g = lane / 4, h = lane % 4;
    const int mn = m < n ? m : n;
    const int tm = (m + CHIP_B - 1) / CHIP_B * CHIP_B, tn = (n + CHIP_B - 1) / CHIP_B * CHIP_B;
    /* the panel threads' state across the panels: the position of
       their stored row, and info */
    int pos = tid, info = 0;
    const int nbj = (mn + CHIP_B - 1) / CHIP_B;
    for (int J = 0; J < nbj; J++) {
        const int R = J * CHIP_B;
        if (w < NW) { /* the panel: stored row tid a thread */
            double r[CHIP_B];
#pragma unroll
            for (int c = 0; c < CHIP_B; c++) r[c] = tid < TM ? S[(R + c) * LD + tid] : 0.0;
            const bool real = tid < m;
#pragma unroll
            for (int k = 0; k < CHIP_B; k++) {
                const int K = R + k;
                if (K < mn) { /* the same in every thread */
                    const gc_piv pv = gc_pivot<NW, false>(P, r, k, K, pos, real, pivot, tid);
                    if (!pv.nz && info == 0) info = K + 1;
                    if (tid == 0) s_ipiv[K] = pv.ppos + 1;
                    /* the row at K goes to ppos, the pivot row to K */
                    pos = pos == pv.ppos ? K : pos == K ? pv.ppos : pos;
                    if (pos > K && real) {
                        const double l = r[k] * pv.inv;
                        r[k] = l;
#pragma unroll
                        for (int c = (k + 1) & ~1; c < CHIP_B; c += 2) {
                            const double2 u = pv.row[c / 2];
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
            if (tid < TM) s_phys[pos] = tid;
        } else { /* the other warps: the steps' barriers */
            for (int K = R; K < R + CHIP_B && K < mn; K++) gc_bar_panel();
        }
        __syncthreads();
        const int c1 = R + CHIP_B; /* the first column right of the panel */
        if (c1 >= n) break;      /* nothing right of it: done */
        /* U12 = L11^-1 A12, a column a thread (L11 unit lower) */
        const int j = c1 + tid; /* n - c1 < CHIP_THREADS */
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
    return info;
}

/* The LU on chip of each problem: TM x TN at most (48 x 48, 64 x 64, or
   the blocked LU's tall panels, 96 x 64: 51 KiB, four blocks an SM, and
   128 x 64: 68 KiB, three). */
template <int TM, int TN, bool VAR>
__global__ void __launch_bounds__(CHIP_THREADS, TM <= 48 ? 8 : TM <= 64 ? 6 : TM <= 96 ? 4 : 3)
    k_getrf_chip(const bb_dev_batch d, int m0, int n0, int64_t lda0, int rowmajor, int pivot)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    constexpr int LD = bb_chip_ld(TM);
    extern __shared__ __align__(16) double gc_sm[];
    __shared__ int s_phys[TM]; /* the stored row at each position */
    __shared__ int s_ipiv[TN];
    double *S = gc_sm;
    const int tid = threadIdx.x, w = tid / 32, lane = tid % 32;
    const unsigned Ss = (unsigned)__cvta_generic_to_shared(S);
    for (int64_t pid = blockIdx.x; pid < d.count; pid += gridDim.x) {
        if (d.info && d.info[pid] != 0) continue; /* the same for the whole block */
        const bb_vdim z = bb_dims<VAR>(d, pid, m0, n0, 0, 0, lda0, 0, 0);
        const int m = m0 < 0 ? z.n : z.m, n = z.n, mn = m < n ? m : n; /* m0 < 0: square (gesv's) */
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
        if (tid < TM) s_phys[tid] = tid;
        bb_cp_wait<0>();
        __syncthreads();
        const int info = gc_lu<TM, TN>(S, m, n, pivot, s_phys, s_ipiv);
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
    __shared__ int s_phys[CHIP_T]; /* the stored row at each position */
    __shared__ int s_info;
    __shared__ double s_part[INV ? 1 : CHIP_THREADS], s_red[2];
    double *S = gj_sm, *P = S + T * LD; /* the panel's exchange slots after the matrix */
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
                        const gc_piv pv = gc_pivot<2, true>(P, r, k, K, pos, real, 1, tid);
                        const int ppos = pv.ppos;
                        const double inv = pv.inv;
                        const double2 *b2 = pv.row;
                        if (!pv.nz && info == 0) info = K + 1;
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

/* The solves keep X in registers: each warp owns 8-column strips of it,
   x[i][kb][q] = X(16 i + 8 kb + h + 4 q, c0 + g) for the block rows i,
   the B fragments of the tensor-core step (bb_dmma16), so that a block
   row once solved is an operand of the next ones as it lies.  Only the
   factors take shared memory (one matrix, 34 KiB at T = 64; the strip's
   128 registers a thread leave four blocks an SM, where factors and X in
   shared memory left three; session 43). */

/* The C fragments of a 16 x 8 tile (bb_dmma16's cu, cl) as B fragments:
   b[kb][q] = the tile's (8 kb + h + 4 q, g), which lane 4 (h + 4 q) + g / 2
   holds in element g % 2 (eight shuffles). */
__device__ __forceinline__ void gc_c2b(const double (&cu)[2], const double (&cl)[2], double (&b)[2][2], int g, int h)
{
#pragma unroll
    for (int q = 0; q < 2; q++) {
        const int src = 4 * (h + 4 * q) + (g >> 1);
        const double u0 = __shfl_sync(0xffffffffu, cu[0], src), u1 = __shfl_sync(0xffffffffu, cu[1], src);
        const double l0 = __shfl_sync(0xffffffffu, cl[0], src), l1 = __shfl_sync(0xffffffffu, cl[1], src);
        b[0][q] = g & 1 ? u1 : u0;
        b[1][q] = g & 1 ? l1 : l0;
    }
}

/* Block row i of a warp's strip x through a step of a triangular solve
   with the factor F, by one warp on the tensor cores, no barrier: X_i -=
   the sum over the blocks j of F(i, j) X_j (F's off-diagonal blocks,
   whole: j < i, or with UPPER i < j < nb), then X_i = D_i X_i, D_i the
   inverse of F's diagonal block i.  F is L (UPPER false) or U (UPPER), or
   with TRANS U^T or L^T, as getrf or potrf leave them in S with the
   diagonal blocks replaced by their inverses (L's below the diagonal, and
   on it unless UNIT, U's on and above it).  i is a constant where the
   callers' loops are unrolled, so x stays in registers. */
template <int LD, int NB, bool UPPER, bool TRANS, bool UNIT>
__device__ __forceinline__ void gc_strip_row(const double *S, double (&x)[NB][2][2], int i, int nb, int g, int h)
{
    const int R = CHIP_B * i;
    /* F(R + r, c) in S */
    auto f = [&](int r, int c) { return TRANS ? S[(R + r) * LD + c] : S[c * LD + R + r]; };
    double cu[2] = {0.0, 0.0}, cl[2] = {0.0, 0.0};
#pragma unroll
    for (int j = 0; j < NB; j++) {
        if (UPPER ? j > i && j < nb : j < i) {
#pragma unroll
            for (int kb = 0; kb < 2; kb++) {
                double a0[2], a1[2];
#pragma unroll
                for (int q = 0; q < 2; q++) {
                    const int k = CHIP_B * j + 8 * kb + h + 4 * q;
                    a0[q] = -f(g, k);
                    a1[q] = -f(8 + g, k);
                }
                bb_dmma16(cu, cl, a0, a1, x[j][kb]);
            }
        }
    }
    double y[2][2];
    gc_c2b(cu, cl, y, g, h);
#pragma unroll
    for (int kb = 0; kb < 2; kb++)
#pragma unroll
        for (int q = 0; q < 2; q++) y[kb][q] += x[i][kb][q];
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
        bb_dmma16(cu, cl, a0, a1, y[kb]);
    }
    gc_c2b(cu, cl, x[i], g, h);
}

/* A strip through both factors: forward with the lower one (F1), then
   backward with the upper one (F2), nb block rows. */
template <int LD, int NB, bool TRANS1, bool UNIT1, bool TRANS2, bool UNIT2>
__device__ __forceinline__ void gc_strip_solve(const double *S, double (&x)[NB][2][2], int nb, int g, int h)
{
#pragma unroll
    for (int i = 0; i < NB; i++)
        if (i < nb) gc_strip_row<LD, NB, false, TRANS1, UNIT1>(S, x, i, nb, g, h);
#pragma unroll
    for (int i = NB - 1; i >= 0; i--)
        if (i < nb) gc_strip_row<LD, NB, true, TRANS2, UNIT2>(S, x, i, nb, g, h);
}

/* The factors' diagonal blocks replaced by their inverses, a column a
   thread, all at once (the whole block; S's diagonal blocks complete on
   return): the LU's U (warps 0 and 1, on and above the diagonal) and unit
   lower L (warps 2 and 3, below it), or the Cholesky factor (warps 0 and
   1; upper where up, else lower) on and below.  dinv: 1 / the diagonal (1
   in the padding up to tn). */
template <int LD, bool LU>
__device__ __forceinline__ void gc_diag_inv(double *S, const double *dinv, int tn, bool upper)
{
    const int tid = threadIdx.x;
    const int R = (tid & 63) & ~(CHIP_B - 1), c = tid & (CHIP_B - 1);
    const bool up = LU ? tid < 64 : upper, act = R < tn && (LU || tid < 64);
    double x[CHIP_B];
    if (act) {
#pragma unroll
        for (int r = 0; r < CHIP_B; r++) x[r] = r == c ? (up || !LU ? dinv[R + c] : 1.0) : 0.0;
        if (up) {
#pragma unroll
            for (int r = CHIP_B - 2; r >= 0; r--)
                if (r < c) {
                    double t = 0.0;
#pragma unroll
                    for (int k = r + 1; k < CHIP_B; k++)
                        if (k <= c) t = fma(S[(R + k) * LD + R + r], x[k], t);
                    x[r] = -t * dinv[R + r];
                }
        } else {
#pragma unroll
            for (int r = 1; r < CHIP_B; r++)
                if (r > c) {
                    double t = 0.0;
#pragma unroll
                    for (int k = 0; k < r; k++)
                        if (k >= c) t = fma(S[(R + k) * LD + R + r], x[k], t);
                    x[r] = LU ? -t : -t * dinv[R + r];
                }
        }
    }
    __syncthreads(); /* every block read before any changes */
    if (act) {
#pragma unroll
        for (int r = 0; r < CHIP_B; r++)
            if (up ? r <= c : LU ? r > c : r >= c) S[(R + c) * LD + R + r] = x[r];
    }
    __syncthreads();
}

/* Element (r, c)'s offset in a column-major (rowmajor: row-major) matrix. */
__device__ __forceinline__ int64_t gc_at(int r, int c, int64_t ld, int rowmajor)
{
    return rowmajor ? (int64_t)r * ld + c : (int64_t)c * ld + r;
}

enum { SOLVE_GETRI, SOLVE_GETRS, SOLVE_POTRS };

/* The solve's right-hand sides, strip by strip (warp w's columns c0 = 8 w,
   8 w + 32, ...), each read into registers, solved and written: X(p, c) =
   B(sel[p], c) (sel NULL: p) in, X(p, c) to B(scat[p], c) (scat NULL: p)
   out, B column-major or with rmb row-major; for SOLVE_GETRI X(p, c) = 1
   where p = sig[c], else 0 (nothing read).  OP picks the factors:
   SOLVE_GETRI and SOLVE_GETRS L U (tr: U^T L^T), SOLVE_POTRS L L^T (tr:
   the upper factor, U^T U).  The reads are unconditional (an element
   outside the matrix reads B(0, 0) and takes 0) and the writes' addresses
   are computed anew (laundered strides), so that no address is held in
   registers across the solve.  stage (8 x LD doubles of shared memory,
   the warp's own; NULL: none) takes getrs's gathered rows in and its
   scattered rows out: read straight into the fragments, a gathered row
   costs a 32-byte sector for each 8-byte element (the H200's L1 was 77%
   busy with them, session 43); through the stage the lanes run along B's
   stored lines. */
template <int T, int OP>
__device__ __forceinline__ void gc_solve_rhs(const double *S, double *B, int64_t ldb, int rmb, int n, int nrhs,
                                             const int *sel, const int *scat, const int *sig, bool tr,
                                             double *stage)
{
    constexpr int LD = bb_chip_ld(T), NB = T / CHIP_B;
    const int tid = threadIdx.x, w = tid / 32, lane = tid % 32, g = lane / 4, h = lane % 4;
    const int nb = (n + CHIP_B - 1) / CHIP_B;
    /* the stage's elements a lane moves: the lanes along B's stored lines
       (a column's rows, or a row's 8 columns) */
    auto st_at = [&](int e, int &p, int &cc) {
        if (rmb) p = e / 8, cc = e % 8;
        else p = e % T, cc = e / T;
    };
#pragma unroll 1
    for (int c0 = 8 * w; c0 < nrhs; c0 += 8 * (CHIP_THREADS / 32)) {
        const int c = c0 + g;
        const bool cin = c < nrhs;
        double x[NB][2][2];
        if (stage && sel) { /* gathered through the stage: every copy in flight at once */
            const unsigned sa = (unsigned)__cvta_generic_to_shared(stage);
#pragma unroll 4
            for (int e = lane; e < 8 * T; e += 32) {
                int p, cc;
                st_at(e, p, cc);
                const bool in = p < n && c0 + cc < nrhs;
                bb_cp8(sa + (unsigned)(cc * LD + p) * 8u, in ? B + gc_at(sel[p], c0 + cc, ldb, rmb) : B, in);
            }
            bb_cp_commit();
            bb_cp_wait<0>();
            __syncwarp();
#pragma unroll
            for (int i = 0; i < NB; i++)
#pragma unroll
                for (int kb = 0; kb < 2; kb++)
#pragma unroll
                    for (int q = 0; q < 2; q++) x[i][kb][q] = stage[g * LD + CHIP_B * i + 8 * kb + h + 4 * q];
            __syncwarp(); /* every lane's fragments read before the stage is written again */
        } else {
            const int64_t rs = rmb ? ldb : 1, cs = rmb ? 1 : ldb;
            const double *Bc = B + (cin ? c : 0) * cs;
#pragma unroll
            for (int i = 0; i < NB; i++)
#pragma unroll
                for (int kb = 0; kb < 2; kb++)
#pragma unroll
                    for (int q = 0; q < 2; q++) {
                        const int p = CHIP_B * i + 8 * kb + h + 4 * q;
                        const bool in = cin && p < n;
                        if (OP == SOLVE_GETRI) {
                            x[i][kb][q] = in && p == sig[c] ? 1.0 : 0.0;
                        } else {
                            const double v = Bc[(in ? (sel ? sel[p] : p) : 0) * rs];
                            x[i][kb][q] = in ? v : 0.0;
                        }
                    }
        }
        if (OP != SOLVE_POTRS && !tr) gc_strip_solve<LD, NB, false, true, false, false>(S, x, nb, g, h);
        else if (OP != SOLVE_POTRS) gc_strip_solve<LD, NB, true, false, true, true>(S, x, nb, g, h);
        else if (!tr) gc_strip_solve<LD, NB, false, false, true, false>(S, x, nb, g, h);
        else gc_strip_solve<LD, NB, true, false, false, false>(S, x, nb, g, h);
        if (stage && scat) { /* scattered through the stage */
#pragma unroll
            for (int i = 0; i < NB; i++)
#pragma unroll
                for (int kb = 0; kb < 2; kb++)
#pragma unroll
                    for (int q = 0; q < 2; q++) stage[g * LD + CHIP_B * i + 8 * kb + h + 4 * q] = x[i][kb][q];
            __syncwarp();
            double *Bo = bb_launder(B);
#pragma unroll 4
            for (int e = lane; e < 8 * T; e += 32) {
                int p, cc;
                st_at(e, p, cc);
                if (p < n && c0 + cc < nrhs) Bo[gc_at(scat[p], c0 + cc, ldb, rmb)] = stage[cc * LD + p];
            }
            __syncwarp(); /* the stage read before the next strip's copies */
        } else {
            const int64_t ld = bb_opaque(ldb), rs = rmb ? ld : 1, cs = rmb ? 1 : ld;
            double *Bc = bb_launder(B) + (cin ? c : 0) * cs;
#pragma unroll
            for (int i = 0; i < NB; i++)
#pragma unroll
                for (int kb = 0; kb < 2; kb++)
#pragma unroll
                    for (int q = 0; q < 2; q++) {
                        const int p = CHIP_B * i + 8 * kb + h + 4 * q;
                        if (cin && p < n) Bc[(scat ? scat[p] : p) * rs] = x[i][kb][q];
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
   leave them, the padded diagonal 1), the right-hand sides in the warps'
   registers (gc_solve_rhs): for getri the permutation, X(sigma(j), j) = 1
   with sigma(j) the position to which the interchanges take row j; for
   getrs and potrs B, getrs's rows in the solve's order (NoTrans: row p of
   X is row perm[p] of B, perm = sigma^-1; transposed: row p of X goes to
   row perm[p] of B at the end).  The diagonal blocks of the factors are
   inverted in place first (gc_diag_inv); then each warp solves its own
   8-column strips through every block row, forward and backward, with no
   barrier.  getri: info = k + 1 for the first exactly zero U(k, k), as
   LAPACK's getri and the register kernel (small_lu.cu), and then nothing
   is written (a NaN there is computed through); out of place (mode 1) to
   B.  getrs: mode 1 for the transposed system (real: ConjTrans the same).
   potrs: mode 1 for the upper factor; rhs_right (B stored nrhs x n, X A
   = B: the front end's row-major form) read as a row-major n x nrhs B.
   getrs and potrs write no info, and a zero on the diagonal is computed
   through, as LAPACK's.  p.rowmajor honoured (the logical matrices loaded
   alike: both layouts give the same bits). */
template <int T, int OP, bool VAR>
__global__ void __launch_bounds__(CHIP_THREADS, 4)
    k_solve_chip(const bb_dev_batch d, int n0, int nrhs0, int64_t lda0, int64_t ldb0, int rowmajor, int rowmajor_b,
                 int mode)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    constexpr bool RHS = OP != SOLVE_GETRI, LU = OP != SOLVE_POTRS;
    constexpr int LD = bb_chip_ld(T);
    extern __shared__ __align__(16) double gri_sm[];
    double *S = gri_sm;
    __shared__ double s_dinv[CHIP_T]; /* 1 / the factor's diagonal (1 in the padding) */
    __shared__ int s_ip[CHIP_T];      /* ipiv, 0-based */
    __shared__ int s_sig[CHIP_T];     /* sigma */
    __shared__ int s_perm[CHIP_T];    /* perm = sigma^-1 */
    __shared__ int s_bad[2];          /* each of warps 0 and 1's first zero U(k, k), 1-based; 0: none */
    const int tid = threadIdx.x, w = tid / 32, lane = tid % 32;
    const unsigned Ss = (unsigned)__cvta_generic_to_shared(S);
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
        bb_cp_wait<0>();
        __syncthreads();
        /* the diagonal (the padding's set to 1), info; sigma and perm */
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
        }
        __syncthreads();
        const int info = s_bad[0] ? s_bad[0] : s_bad[1];
        if (info == 0) {
            gc_diag_inv<LD, LU>(S, s_dinv, tn, mode != 0);
            /* the sizes and B read again (held across the inversion,
               they took registers that it needs) */
            const int64_t qid = bb_opaque(pid);
            const bb_vdim y = bb_dims<VAR>(d, qid, 0, n0, 0, nrhs0, lda0, ldb0, 0);
            const bool tr = RHS && mode;
            double *B = bb_dev_ptr<double>(d.opd[RHS || mode ? BB_B : BB_A], qid);
            const int rmb = LU ? rowmajor : rowmajor_b;
            gc_solve_rhs<T, OP>(S, B, RHS || mode ? y.ldb : y.lda, rmb, y.n, RHS ? y.nrhs : y.n,
                                LU && !tr ? s_perm : NULL, LU && tr ? s_perm : NULL, s_sig, tr,
                                OP == SOLVE_GETRS ? S + T * LD + w * 8 * LD : NULL);
        }
        if (!RHS && tid == 0 && d.info) d.info[pid] = info;
        __syncthreads(); /* S is free for the next problem */
    }
#endif
}

/* S's rows in position order, S(p, c) = S(phys[p], c) for p, c < n, and
   the identity in the padding up to tn (where the LU's steps leave what
   they leave): the LU on chip's factors as getrf writes them, for the
   solve.  The whole block; complete on return. */
template <int LD>
__device__ __forceinline__ void gc_rows_in_order(double *S, const int *phys, int n, int tn)
{
    const int tid = threadIdx.x, p = tid & 63, half = tid >> 6;
    const int src = p < n ? phys[p] : p;
    for (int c0 = 0; c0 < tn; c0 += 2 * CHIP_B) {
        const int cb = c0 + CHIP_B * half;
        double v[CHIP_B];
#pragma unroll
        for (int c = 0; c < CHIP_B; c++) v[c] = p < n && cb + c < n ? S[(cb + c) * LD + src] : 0.0;
        __syncthreads();
        if (p < tn) {
#pragma unroll
            for (int c = 0; c < CHIP_B; c++)
                if (cb + c < tn) S[(cb + c) * LD + p] = p < n && cb + c < n ? v[c] : p == cb + c ? 1.0 : 0.0;
        }
        __syncthreads();
    }
}

/* gesv on chip (issue 12's fused steps): the LU on chip (gc_lu), A and
   ipiv written as getrf writes them, then, unless info, the factors put
   in position order and B solved as getrs's (gc_solve_rhs: its rows
   gathered through s_phys, which is perm), all in one pass: the factors
   are never read back.  A failed factorisation (info) leaves B as it
   was, as LAPACK's gesv. */
template <int T, bool VAR>
__global__ void __launch_bounds__(CHIP_THREADS, VAR ? 4 : 6)
    k_gesv_chip(const bb_dev_batch d, int n0, int nrhs0, int64_t lda0, int64_t ldb0, int rowmajor)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    constexpr int LD = bb_chip_ld(T);
    extern __shared__ __align__(16) double gs_sm[];
    __shared__ int s_phys[CHIP_T]; /* the stored row at each position */
    __shared__ int s_ipiv[CHIP_T];
    __shared__ double s_dinv[CHIP_T];
    __shared__ int s_info;
    double *S = gs_sm;
    const int tid = threadIdx.x, w = tid / 32, lane = tid % 32;
    const unsigned Ss = (unsigned)__cvta_generic_to_shared(S);
    for (int64_t pid = blockIdx.x; pid < d.count; pid += gridDim.x) {
        if (d.info && d.info[pid] != 0) continue; /* the same for the whole block */
        const bb_vdim z = bb_dims<VAR>(d, pid, 0, n0, 0, 0, lda0, 0, 0);
        const int n = z.n;
        if (n <= 0) {
            if (tid == 0 && d.info) d.info[pid] = 0;
            continue;
        }
        const int tn = (n + CHIP_B - 1) / CHIP_B * CHIP_B;
        double *A = bb_dev_ptr<double>(d.opd[BB_A], pid);
        const bool v16 = !rowmajor && gc_aligned16(A, z.lda);
        gc_load<LD>(Ss, A, z.lda, n, n, tn, tn, rowmajor, v16, w, lane);
        bb_cp_commit();
        if (tid < CHIP_T) s_phys[tid] = tid;
        bb_cp_wait<0>();
        __syncthreads();
        const int info0 = gc_lu<T, T>(S, n, n, 1, s_phys, s_ipiv);
        if (tid == 0) s_info = info0;
        gc_store<LD, true, false>(bb_launder(A), z.lda, S, s_phys, n, n, rowmajor, v16, w, lane);
        if (tid < n) bb_dev_ptr<int>(d.opd[BB_IPIV], pid)[tid] = s_ipiv[tid];
        __syncthreads(); /* s_info; S read out before it moves */
        const int info = s_info;
        if (info == 0) {
            /* the sizes read again (held across the LU, they took registers
               that it needs) */
            const int64_t qid = bb_opaque(pid);
            const bb_vdim y = bb_dims<VAR>(d, qid, 0, n0, 0, nrhs0, lda0, ldb0, 0);
            if (y.nrhs > 0) {
                gc_rows_in_order<LD>(S, s_phys, y.n, tn);
                if (tid < CHIP_T) s_dinv[tid] = tid < y.n ? 1.0 / S[tid * (LD + 1)] : 1.0;
                __syncthreads();
                gc_diag_inv<LD, true>(S, s_dinv, tn, false);
                const bb_vdim x = bb_dims<VAR>(d, bb_opaque(qid), 0, n0, 0, nrhs0, lda0, ldb0, 0);
                gc_solve_rhs<T, SOLVE_GETRS>(S, bb_dev_ptr<double>(d.opd[BB_B], qid), x.ldb, rowmajor, x.n, x.nrhs,
                                             s_phys, NULL, NULL, false, NULL);
            }
        }
        if (tid == 0 && d.info) d.info[pid] = info;
        __syncthreads(); /* S is free for the next problem */
    }
#endif
}

/* A kernel on chip's dynamic shared memory (up to smem) and the largest
   carveout. */
template <typename K> cudaError_t chip_attrs(K k, size_t smem)
{
    cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (e == cudaSuccess)
        e = cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, (int)cudaSharedmemCarveoutMaxShared);
    return e;
}

template <int TM, int TN, bool VAR>
cudaError_t launch(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int pivot, int m0)
{
    /* the largest shared-memory carveout: blocks of 21 KiB (48 x 48:
       eight an SM, as the 64 registers allow), 35 KiB (64 x 64: six),
       51 KiB (96 x 64: four) or 68 KiB (128 x 64: three) */
    const size_t smem = bb_chip_lu_smem(TM, TN);
    cudaError_t e = chip_attrs(k_getrf_chip<TM, TN, VAR>, smem);
    if (e != cudaSuccess) return e;
    k_getrf_chip<TM, TN, VAR><<<bb_grid(d.count, 1), CHIP_THREADS, smem, q->stream>>>(d, m0, p.n, p.lda, p.rowmajor,
                                                                                    pivot);
    return cudaGetLastError();
}

/* The LU on chip of every problem of the launch (m0 < 0: m = n), the
   smaller matrix on chip where every problem fits in it (p: the sizes,
   or for a class launch of a variable batch the class's bound). */
cudaError_t launch_lu(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int pivot, int m0)
{
    if ((m0 < 0 ? p.n : m0) <= 48 && p.n <= 48)
        return d.vdim ? launch<48, 48, true>(p, d, q, pivot, m0) : launch<48, 48, false>(p, d, q, pivot, m0);
    return d.vdim ? launch<CHIP_T, CHIP_T, true>(p, d, q, pivot, m0) : launch<CHIP_T, CHIP_T, false>(p, d, q, pivot, m0);
}

} // namespace

cudaError_t bb_lu_panel_chip(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int pivot)
{
    const int rows = bb_cuda_lu_panel_chip_rows(prec);
    if (!rows || p.rowmajor || d.vdim || p.m < 1 || p.n < 1 || p.m > rows || p.n > CHIP_T || p.m < p.n)
        return cudaErrorNotSupported;
    if (d.count <= 0) return cudaSuccess;
    if (p.m <= CHIP_T) return launch_lu(p, d, q, pivot, p.m);
    /* 65 .. 96 rows: three panel warps, 51 KiB, four blocks an SM, where
       the panel of 128 rows ran half empty at three */
    if (p.m <= 3 * CHIP_T / 2) return launch<3 * CHIP_T / 2, CHIP_T, false>(p, d, q, pivot, p.m);
    return launch<2 * CHIP_T, CHIP_T, false>(p, d, q, pivot, p.m);
}

cudaError_t bb_getrf_chip(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int pivot)
{
    const int x = bb_cuda_chip_max(pivot ? BB_OP_GETRF : BB_OP_GETRFNP, prec);
    if (!x || p.m < 1 || p.n < 1 || p.m > x || p.n > x) return cudaErrorNotSupported;
    if (d.count <= 0) return cudaSuccess;
    /* the smaller matrix on chip where every problem fits in it (p: the
       sizes, or for a class launch of a variable batch the class's bound) */
    return launch_lu(p, d, q, pivot, p.m);
}

namespace {

template <int T, bool INV, bool VAR>
cudaError_t launch_gecond(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    const size_t smem = bb_chip_lu_smem(T, T); /* the matrix and the panel's exchange slots */
    cudaError_t e = chip_attrs(k_gecond_chip<T, INV, VAR>, smem);
    if (e != cudaSuccess) return e;
    k_gecond_chip<T, INV, VAR><<<bb_grid(d.count, 1), CHIP_THREADS, smem, q->stream>>>(
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
    /* getrs: the warps' stages beside the factors (four blocks an SM, as
       the registers allow anyway) */
    const size_t smem = bb_chip_smem(T) + (OP == SOLVE_GETRS ? (CHIP_THREADS / 32) * 8 * bb_chip_ld(T) * sizeof(double) : 0);
    auto k = k_solve_chip<T, OP, VAR>;
    cudaError_t e = chip_attrs(k, smem);
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

template <int T, bool VAR>
cudaError_t launch_gesv(const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    auto k = k_gesv_chip<T, VAR>;
    const size_t smem = bb_chip_lu_smem(T, T); /* the matrix and gc_lu's exchange slots */
    cudaError_t e = chip_attrs(k, smem);
    if (e != cudaSuccess) return e;
    k<<<bb_grid(d.count, 1), CHIP_THREADS, smem, q->stream>>>(d, p.n, p.nrhs, p.lda, p.ldb, p.rowmajor);
    return cudaGetLastError();
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

cudaError_t bb_gesv_chip(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    const int x = bb_mid_max(BB_OP_GESV, prec); /* the LU and the solve on chip on */
    if (!x || p.n < 1 || p.n > x || p.nrhs < 0) return cudaErrorNotSupported;
    if (!d.opd[BB_IPIV].ptr && !d.opd[BB_IPIV].base) return cudaErrorNotSupported;
    if (d.count <= 0) return cudaSuccess;
    if (p.n > bb_cuda_gesv_fused_max(prec)) { /* two launches; the solve skips the failed factorisations */
        cudaError_t e = launch_lu(p, d, q, 1, -1);
        return e == cudaSuccess ? launch_solve_T<SOLVE_GETRS>(p, d, q, 0) : e;
    }
    if (p.n <= 48) return d.vdim ? launch_gesv<48, true>(p, d, q) : launch_gesv<48, false>(p, d, q);
    return d.vdim ? launch_gesv<CHIP_T, true>(p, d, q) : launch_gesv<CHIP_T, false>(p, d, q);
}
