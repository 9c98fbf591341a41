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
        /* column-major, 16-byte aligned columns: a lane copies two rows */
        const bool v16 = !rowmajor && (((uintptr_t)A | (uintptr_t)lda * 8u) & 15u) == 0;
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
        } else if (!rowmajor) {
            const double *a = A + w * lda;
#pragma unroll 4
            for (int c = w; c < tn; c += CHIP_THREADS / 32) {
#pragma unroll
                for (int hh = 0; hh < 2; hh++) {
                    const int i = lane + 32 * hh;
                    const bool in = c < n && i < m;
                    if (i < tm) bb_cp8(Ss + (unsigned)(c * LD + i) * 8u, in ? a + i : A, in);
                }
                a += 4 * lda;
            }
        } else {
            const double *a = A + w * lda;
#pragma unroll 4
            for (int i = w; i < tm; i += CHIP_THREADS / 32) {
#pragma unroll
                for (int hh = 0; hh < 2; hh++) {
                    const int c = lane + 32 * hh;
                    const bool in = c < n && i < m;
                    if (c < tn) bb_cp8(Ss + (unsigned)(c * LD + i) * 8u, in ? a + c : A, in);
                }
                a += 4 * lda;
            }
        }
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
        double *Ao = bb_launder(A);
        if (v16) {
            const int i = 2 * lane;
            const int p0 = s_phys[i], p1 = s_phys[i + 1];
            double *a = Ao + w * lda + i;
#pragma unroll 4
            for (int c = w; c < n; c += CHIP_THREADS / 32) {
                if (i + 1 < m) *(double2 *)a = make_double2(S[c * LD + p0], S[c * LD + p1]);
                else if (i < m) *a = S[c * LD + p0];
                a += 4 * lda;
            }
        } else if (!rowmajor) {
            const int p0 = s_phys[lane], p1 = s_phys[lane + 32];
            double *a = Ao + w * lda;
#pragma unroll 4
            for (int c = w; c < n; c += CHIP_THREADS / 32) {
                if (lane < m) a[lane] = S[c * LD + p0];
                if (lane + 32 < m) a[lane + 32] = S[c * LD + p1];
                a += 4 * lda;
            }
        } else {
            double *a = Ao + w * lda;
#pragma unroll 4
            for (int t = w; t < m; t += CHIP_THREADS / 32) {
                const int pt = s_phys[t];
                if (lane < n) a[lane] = S[lane * LD + pt];
                if (lane + 32 < n) a[lane + 32] = S[(lane + 32) * LD + pt];
                a += 4 * lda;
            }
        }
        if (pivot && tid < mn) bb_dev_ptr<int>(d.opd[BB_IPIV], pid)[tid] = s_ipiv[tid];
        if (tid == 0 && d.info) d.info[pid] = info;
        __syncthreads(); /* S is free for the next problem */
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
    const int x = bb_cuda_getrf_chip_max(prec);
    if (!x || p.m < 1 || p.n < 1 || p.m > x || p.n > x) return cudaErrorNotSupported;
    if (d.count <= 0) return cudaSuccess;
    /* the smaller matrix on chip where every problem fits in it (p: the
       sizes, or for a class launch of a variable batch the class's bound) */
    if (p.m <= 48 && p.n <= 48) return d.vdim ? launch<48, true>(p, d, q, pivot) : launch<48, false>(p, d, q, pivot);
    return d.vdim ? launch<CHIP_T, true>(p, d, q, pivot) : launch<CHIP_T, false>(p, d, q, pivot);
}
