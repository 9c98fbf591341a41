/*
 * Register-resident kernels for tiny matrices (every dimension <= 32):
 * entry points used by the launch policy (launch.cu) and the device helpers
 * shared by the kernel files small_*.cu.
 *
 * Layout of the work (seed 003): a group of N threads (N = 4, 8, 16 or 32,
 * the size bound of the instantiation) works on one problem, thread i
 * holding row i in registers; 32/N problems share a warp and BS/N a block.
 * Every thread of a block runs the same number of grid-stride iterations
 * (problems past the end or skipped by info compute on zeros and write
 * nothing), so full-warp shuffles and __syncwarp() are always legal.  The
 * run-time sizes (n <= N) are handled by padding: rows and columns past n
 * hold zeros and are never written.  Problem indices are 64-bit.
 *
 * Per-group scratch lives in static shared memory: a matrix buffer with
 * leading dimension N+1 (odd: conflict-free per-thread reads in either
 * direction) and a 16-byte aligned row buffer for broadcasts.
 */
#pragma once
#include <type_traits>
#include "cuda_internal.h"

/* ---- entry points (host) ----------------------------------------------
   Each returns cudaSuccess, the launch error, or cudaErrorNotSupported if
   the sizes do not fit (the policy checks bb_small_fits first). */
#define BB_SMALL_MAX 32

/* getrf (pivot = 1) / getrfnp (pivot = 0): m, n <= 32, p.rowmajor honoured */
cudaError_t bb_small_getrf(bb_prec prec, const bb_problem &p, const bb_dev_batch &d,
                           batchblas_queue *q, int pivot);
/* the blocked LU's panel: p.m x p.n column-major (p.n <= 32 real, 16
   complex; p.m <= 512), pivots and code relative to the panel; with pivot,
   the interchanges are applied to the other ncols - p.n columns of the
   matrix too (the panel is columns [c0, c0 + p.n) of them).
   With d.vdim (the variable-size driver's step), each problem's rows,
   panel width, columns of the matrix and lda are its vdim's m, n, k and
   lda (p.m the largest rows), its pivots are written global (+ c0) and
   only the code stays relative to the panel.
   cudaErrorNotSupported if the shape does not fit. */
cudaError_t bb_panel_getrf(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int pivot,
                           int ncols, int c0);
/* The blocked LUs' deferred row interchanges (blocked.cu, and the
   variable-size driver, vardriver.cu): ipiv[j .. j+w) (global, 1-based)
   applied to the columns [c0, c1) of rows j..m of each problem
   (column-major, ld lda), all w at once, each row that moves read and
   written once; problems with skip[i] != 0 are left alone.  With d.vdim,
   each problem's m, n and lda are its vdim's, w is cut to its min(m, n) - j
   and c1 to min(m, n) (m, w: the launch's largest); with tail, each
   problem's columns past min(m, n) take all its interchanges.  Rows m - j
   <= BB_LU_PERM_ROWS, else cudaErrorNotSupported. */
#define BB_LU_PERM_ROWS 1024
cudaError_t bb_lu_perm(bb_prec prec, const bb_dev_batch &d, const int *skip, int m, int j, int w, int c0, int c1,
                       int64_t lda, int tail, batchblas_queue *q);
/* The order of both blocked LUs (BATCHBLAS_CUDA_LU_RECURSIVE): 1 (default)
   recursive above BB_LU_REC_PANELS panels of L columns, the interchanges
   deferred (bb_lu_perm) above BB_LU_PERM_PANELS; 2 recursive, the panels'
   own interchanges; 3 deferred wherever bb_lu_perm takes the rows; 0
   LAPACK's right-looking order (to compare).
   The recursion: 3 panels take one more trsm and GEMM launch than the
   right-looking order (getrf d 96 0.90-1.0x, H200 session 26).  Deferral:
   each level of the recursion then reads and writes the rows that move
   once, where the panels' own interchanges move each row of theirs across
   every column (getrf d 256 1.07x, z 256 1.24x, d 512 1.53x; with 4
   panels or fewer, d 96 / 128, 0.92x / 0.97x). */
#define BB_LU_REC_PANELS 3
#define BB_LU_PERM_PANELS 4
int bb_lu_rec_mode(void);
static inline bool bb_lu_recursive(int mode, int mn, int L) { return mode && mn > BB_LU_REC_PANELS * L; }
static inline bool bb_lu_deferred(int mode, int pivot, int m, int mn, int L)
{
    return pivot && m <= BB_LU_PERM_ROWS && (mode == 3 || (mode == 1 && mn > BB_LU_PERM_PANELS * L));
}
/* The recursive LU's walk over the columns [j, j + w), for both blocked
   LUs (blocked.cu's fixed sizes, vardriver.cu's per-problem sizes): panels
   of at most L columns at the leaves; else w = w1 + w2 (w1 = L times the
   largest power of two below w / L), the left half, its interchanges on
   the right half (S::perm; nothing unless deferred), the update of the
   right half by the left (S::update(j, w1, j + w)), the right half, its
   interchanges on the left half.  S: panel(j, w), perm(j, w, c0, c1),
   update(j, w1, c1), each returning a cudaError_t. */
template <typename S>
cudaError_t bb_lu_walk(const S &s, int L, int j, int w)
{
    if (w <= L) return s.panel(j, w);
    int w1 = L;
    while (2 * w1 < w) w1 *= 2;
    cudaError_t e = bb_lu_walk(s, L, j, w1);
    if (e == cudaSuccess) e = s.perm(j, w1, j + w1, j + w);
    if (e == cudaSuccess) e = s.update(j, w1, j + w);
    if (e == cudaSuccess) e = bb_lu_walk(s, L, j + w1, w - w1);
    if (e == cudaSuccess) e = s.perm(j + w1, w - w1, j, j + w1);
    return e;
}
/* getri (in place, oop = 0) / getri_oop (A -> B, oop = 1): n <= 32 */
cudaError_t bb_small_getri(bb_prec prec, const bb_problem &p, const bb_dev_batch &d,
                           batchblas_queue *q, int oop);
/* gecond: Gauss-Jordan with implicit pivoting, cond in Y; n <= 32 */
cudaError_t bb_small_gecond(bb_prec prec, const bb_problem &p, const bb_dev_batch &d,
                            batchblas_queue *q);
/* geinv: the same Gauss-Jordan elimination, inv(A) written to B; n <= 32 */
cudaError_t bb_small_geinv(bb_prec prec, const bb_problem &p, const bb_dev_batch &d,
                           batchblas_queue *q);
/* potrf, both uplo: n <= 32.  If d.opd[BB_C] is set (blocked driver), the
   factor is of A - W, W n x n with ld n, of which only the lower view is
   read (W(i,j), j <= i; upper: conj(W(j,i))) */
cudaError_t bb_small_potrf(bb_prec prec, const bb_problem &p, const bb_dev_batch &d,
                           batchblas_queue *q);
/* potrs (factor = 0) / posv (factor = 1): n <= 32, any nrhs, p.rhs_right honoured */
cudaError_t bb_small_potrs(bb_prec prec, const bb_problem &p, const bb_dev_batch &d,
                           batchblas_queue *q, int factor);
/* trsm, every side/uplo/trans/diag: m, n <= 32 */
cudaError_t bb_small_trsm(bb_prec prec, const bb_problem &p, const bb_dev_batch &d,
                          batchblas_queue *q);
/* the same with the free dimension (n left, m right) of any size, solved
   in chunks of cw <= 32 (complex 16) columns (left) or rows (right), all
   in one launch; the triangle's order must fit */
cudaError_t bb_small_trsm_chunked(bb_prec prec, const bb_problem &p, const bb_dev_batch &d,
                                  batchblas_queue *q, int cw);
/* trsm on chip (trsm_panel.cu): double, order 33 .. bb_cuda_trsm_panel_max,
   any free dimension, every side/uplo/trans/diag; a panel of 32
   right-hand sides a thread block, read and written once, its diagonal
   blocks inverted first (register trtri into bb_cuda_workspace3).
   Problems flagged in d.info are skipped.  cudaErrorNotSupported, before
   launching anything, if it does not fit (precision, order, no FP64
   tensor cores, a variable batch). */
cudaError_t bb_trsm_panel(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q);
/* Cholesky on chip (potrf_chip.cu): double, order 1 ..
   bb_cuda_chip_max, both triangles, per-problem sizes (d.vdim)
   taken, with d.opd[BB_C] set of A - W as bb_small_potrf; a block of four
   warps a problem, block columns of 16 on the FP64 tensor cores.  Info
   and skipped problems as bb_mid_potrf, whose double problems it takes.
   cudaErrorNotSupported, before launching, if it does not fit. */
cudaError_t bb_potrf_chip(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q);
/* LU on chip (getrf_chip.cu): double, m and n 1 .. bb_cuda_chip_max,
   pivot = 1 getrf, 0 getrfnp, both layouts, per-problem sizes (d.vdim)
   taken; a block of four warps a problem, block columns of 16, the
   trailing matrix on the FP64 tensor cores.  Info, ipiv and skipped
   problems as bb_mid_getrf, whose double problems it takes.
   cudaErrorNotSupported, before launching, if it does not fit. */
cudaError_t bb_getrf_chip(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int pivot);
/* The blocked LU's panel on chip (getrf_chip.cu, the same kernel as
   bb_getrf_chip's): double, column-major, fixed sizes, m x n with n <= m,
   n <= 64, m <= bb_cuda_lu_panel_chip_rows (128 x 64: 68 KiB, three blocks
   an SM); the panel's interchanges on its own columns only (the caller
   defers them on the others), pivots and info relative to the panel's top
   (as bb_panel_getrf's).  cudaErrorNotSupported, before launching, if it
   does not fit. */
cudaError_t bb_lu_panel_chip(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int pivot);
/* gecond (inv = 0) and geinv (inv = 1) on chip (getrf_chip.cu): double,
   order 1 .. bb_cuda_chip_max, column-major, per-problem sizes (d.vdim)
   taken; a block of four warps a problem, Gauss-Jordan by block columns of
   16, the rest of the matrix updated on the FP64 tensor cores.  Info,
   results and skipped problems as bb_mid_gecond, whose double problems it
   takes.  cudaErrorNotSupported, before launching, if it does not fit. */
cudaError_t bb_gecond_chip(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int inv);
/* getri (oop = 0) and getri_oop (oop = 1) on chip (getrf_chip.cu):
   double, order 1 .. bb_cuda_chip_max, both layouts, per-problem sizes
   (d.vdim) taken; a block of four warps a problem, the factors in shared
   memory, the solution in the warps' registers, L and U solved on the FP64
   tensor cores.
   Info (the first zero U(k, k); then nothing written) and skipped
   problems as bb_small_getri.  cudaErrorNotSupported, before launching, if
   it does not fit. */
cudaError_t bb_getri_chip(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int oop);
/* getrs on chip (getrf_chip.cu): double, order 1 .. bb_cuda_chip_max, any
   nrhs (strips of 8 columns), every trans, both layouts,
   per-problem sizes (d.vdim) taken; as bb_getri_chip with B for the
   permutation.  No info written; problems flagged in d.info skipped (gesv's
   failed factorisations).  cudaErrorNotSupported, before launching, if it
   does not fit. */
cudaError_t bb_getrs_chip(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q);
/* potrs on chip (getrf_chip.cu): double, order 1 .. bb_cuda_chip_max, any
   nrhs (strips of 8 columns), both triangles, rhs_right (the
   row-major form), per-problem sizes (d.vdim) taken; as bb_getrs_chip with
   the Cholesky factor.  No info written; problems flagged in d.info
   skipped (posv's failed factorisations).  cudaErrorNotSupported, before
   launching, if it does not fit. */
cudaError_t bb_potrs_chip(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q);
/* gesv on chip (getrf_chip.cu): double, order 1 .. bb_cuda_chip_max of
   both gesv and getrf, any nrhs, both layouts, per-problem sizes (d.vdim)
   taken; the LU on chip and the solve in one kernel, the factors never
   read back, up to bb_cuda_gesv_fused_max; above, the two kernels as two
   launches.  A, ipiv and info as bb_getrf_chip's; B solved unless info
   (then left as it was); problems flagged in d.info skipped.
   cudaErrorNotSupported, before launching, if it does not fit. */
cudaError_t bb_gesv_chip(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q);
/* The largest order of gesv that takes bb_gesv_chip (launch.cu); 0: none.
   Above it, up to bb_mid_max, getrf and getrs on chip as two launches. */
int bb_cuda_gesv_fused_max(bb_prec prec);
/* its kernel alone (no checks): d holds A, B and in C each problem's
   inverted diagonal blocks of A (32 x 32 apart, as the register trtri
   writes them out of place); order t <= 256 and free dimension f, or with
   d.vdim each problem's own there (left: m the order, n the free
   dimension; right: the other way round; at most t and f), with its own
   lda and ldb.  p gives side, uplo, trans, diag, alpha (and lda, ldb
   without d.vdim). */
cudaError_t bb_trsm_panel_run(const bb_problem &p, const bb_dev_batch &d, int t, int f, batchblas_queue *q);
/* getrs on chip (trsm_panel.cu): double, column-major, no transpose,
   fixed sizes, order 33 .. bb_cuda_trsm_panel_max, any nrhs: B = U^-1
   L^-1 P B in one launch a panel of 32 right-hand sides (the permutation
   as the panel is read, both solves on it), after the register trtri of
   both triangles' diagonal blocks.  Problems flagged in d.info skipped.
   BATCHBLAS_CUDA_GETRS_PANEL=0 turns it off.  cudaErrorNotSupported,
   before launching, if it does not fit. */
cudaError_t bb_getrs_panel(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q);
/* potrs above the order on chip, both solves on one read of B
   (trsm_panel.cu): tp[0] then tp[1], the two trsm of one triangle that
   blocked.cu's potrs makes (the factor met first from the side of B, then
   the other; alpha 1, either side); double, fixed sizes, order 33 ..
   bb_cuda_potrs_panel_max, any free dimension; a panel of 32 right-hand
   sides a thread block, on one set of inverted diagonal blocks of the
   factor.  Problems flagged in d.info skipped.  cudaErrorNotSupported,
   before launching, if it does not fit. */
cudaError_t bb_potrs_panel(bb_prec prec, const bb_problem tp[2], const bb_dev_batch &d, batchblas_queue *q);
/* launch.cu: the largest order of bb_potrs_panel in precision prec; 0: off
   (BATCHBLAS_CUDA_POTRS_PANEL) */
int bb_cuda_potrs_panel_max(bb_prec prec);
/* gemm: m, n, k <= 32 */
cudaError_t bb_small_gemm(bb_prec prec, const bb_problem &p, const bb_dev_batch &d,
                          batchblas_queue *q);

/* The rest of the BLAS-3 family in registers (small_blas3.cu): symm, hemm,
   syrk, herk, syr2k, her2k, trmm (every side/uplo/trans/diag), on the
   normalised column-major problem: the triangle or symmetric matrix (and
   C of the rank-k updates) of order <= 32; the free dimension (k of the
   rank-k updates, the other side of B and C for trmm/symm) of any size,
   looped over inside the kernel in chunks of 32.  trmm also takes
   per-problem sizes (d.vdim: the variable-size driver's steps).
   cudaErrorNotSupported if op, precision or sizes do not fit, before
   launching anything (the policy then falls back). */
cudaError_t bb_small_blas3(bb_op op, bb_prec prec, const bb_problem &p, const bb_dev_batch &d,
                           batchblas_queue *q);
/* The triangular-inverse family in registers (small_tri.cu): trtri (both
   uplo and diag), lauum, potri (trtri + lauum fused: one load, one store),
   poti (potrf + trtri + lauum fused); n <= 32; info as LAPACK (trtri: k for
   an exactly zero diagonal at k; poti: potrf's k); a failed problem's A is
   left as the CPU backend leaves it.  cudaErrorNotSupported if it does not fit. */
cudaError_t bb_small_tri(bb_op op, bb_prec prec, const bb_problem &p, const bb_dev_batch &d,
                         batchblas_queue *q);
/* The diagonal blocks of order L (<= 32; the last one t - (nb - 1) L) of
   the triangles of order t at d's A (uplo, diag, lda of p) inverted out of
   place by the register trtri: block b of problem i into W + i stride + b
   L L (ld L, elements of prec), its triangle only; an exactly zero
   diagonal gives Inf and NaN there, as the solve would, and no code (the
   blocked trsm's inverted leaves and the on-chip trsm). */
cudaError_t bb_small_trtri_blocks(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, int t, int L, void *W,
                                  int64_t stride, batchblas_queue *q);
/* getrs (factor = 0: LU factors and pivots given) / gesv (factor = 1: getrf
   fused, pivots applied in registers) in registers (small_getrs.cu):
   n <= 32, any nrhs, trans (getrs), p.rowmajor honoured.
   cudaErrorNotSupported if it does not fit. */
cudaError_t bb_small_getrs(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q,
                           int factor);
/* lange (several matrices per warp, seed 001) and gecon in registers
   (small_norm.cu); cudaErrorNotSupported where they do not fit. */
cudaError_t bb_small_lange(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q);
cudaError_t bb_small_gecon(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q);

/* On-chip kernels for the mid sizes (mid.cu): one block of two warps a
   problem, a row a thread; real types, every dimension <= bb_mid_max(op,
   prec) (0: none; at most BB_MID_MAX), per-problem sizes (d.vdim) taken.
   potrf (both uplo; with d.opd[BB_C] set, of A - W as bb_small_potrf);
   getrf (pivot = 1) / getrfnp (pivot = 0), p.rowmajor honoured; gecond,
   geinv.  cudaErrorNotSupported if the sizes or the precision do not fit. */
#define BB_MID_MAX 64
int bb_mid_max(bb_op op, bb_prec prec);
cudaError_t bb_mid_potrf(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q);
cudaError_t bb_mid_getrf(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int pivot);
/* gecond (inv = 0) / geinv (inv = 1), column-major, as bb_small_gecond /
   bb_small_geinv */
cudaError_t bb_mid_gecond(bb_prec prec, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q, int inv);

/* The recursive driver (recursive.cu, seed 004's two-sided recursion) for
   trmm, syrk/herk/syr2k/her2k, symm/hemm, trtri, lauum, potri, poti, getrs,
   gesv above the register bound: halves down to leaves of order <= L (the
   register kernels), off-diagonal work as batched GEMM on views. */
cudaError_t bb_recursive_launch(bb_op op, bb_prec prec, const bb_problem &p, const bb_dev_batch &d,
                                batchblas_queue *q, int L);
int bb_recursive_supports(bb_op op);

/* gemm through cuBLAS (any size; alpha != 0 expected): gemmStridedBatched
   for strided batches, gemmBatched otherwise (skipped problems redirected
   to a dummy matrix in the queue workspace); calls of <= 65535 problems */
cudaError_t bb_cublas_gemm(bb_prec prec, const bb_problem &p, const bb_dev_batch &d,
                           batchblas_queue *q);

/* Blocked drivers (blocked.cu) for sizes above the register bound: trsm,
   potrf, potrs, posv on register-kernel leaves of order <= L plus batched
   GEMM/SYRK updates; leading dimensions must fit in int (cuBLAS).  With
   mid_on, potrf (and posv's factorisation) and the LU factorisation
   inside getrf, gecond and geinv hand the problems that bb_mid_max takes
   whole to the on-chip kernels (mid.cu). */
cudaError_t bb_blocked_launch(bb_op op, bb_prec prec, const bb_problem &p, const bb_dev_batch &d,
                              batchblas_queue *q, int L, int mid_on);

/* Pivot search with NaN (the CPU rule: the first NaN of the column is the
   pivot, else the first largest |a|): a NaN candidate counts as Inf and its
   position is lowered by this much, so that it wins over a true Inf and
   over later NaNs; positions are below it. */
#define BB_NAN_FIRST (1 << 20)

/* Size bound of the instantiation serving run-time size s (1..32). */
static inline int bb_small_bound(int s) { return s <= 4 ? 4 : s <= 8 ? 8 : s <= 16 ? 16 : 32; }
/* The columns that a register kernel's loops cover (M <= the bound N, see
   BB_SMALL_BY_BOUND): 24 for sizes 17..24 (in the bound-32 kernels that
   take M), so those sizes do not pay for 32 columns; the bound (the
   threads of a group and the shuffle width, a power of two) stays 32.  A
   variable batch's problems of 17..24 are a class launch of their own:
   M is a compile-time bound, and one launch running both loop lengths
   measured slower (the warps of the two copies compete for the
   instruction cache). */
static inline int bb_small_cols(int s) { return s > 16 && s <= 24 ? 24 : bb_small_bound(s); }

/* ---- host helpers shared by the kernel files ----------------------------- */

/* Threads per block for a group size N and per-group static shared memory:
   128 threads, fewer where 48 KB of static shared memory would not hold them. */
constexpr int bb_small_threads(int N, int smem_per_group)
{
    return (128 / N) * smem_per_group <= 48 * 1024 ? 128
         : (64 / N) * smem_per_group <= 48 * 1024 ? 64 : 32;
}


/* Blocks an SM that the variable-size (VAR) instantiation of a bound-N
   register kernel is held to (__launch_bounds__; 0: the compiler's
   choice): reading its sizes from memory costs registers (d potrf 32: 96
   -> 126, 4 blocks of 128 an SM instead of the fixed-size launch's 5); the
   VAR one is asked for as many as the fixed one gets.  At 6 (80
   registers, 244 bytes of spill stores) d uniform [1, 32] at 10^6 fell
   from 64-66% to 60% of the floor (H100, session 22). */
template <typename T, int N, bool VAR> struct bb_var_minb {
    static constexpr int value = VAR && N == 32 && sizeof(T) == 8 ? 5 : 0;
};

/* Runs f<T>() for the element type of prec. */
#define BB_SMALL_BY_PREC(prec, CALL)                                   \
    switch (prec) {                                                    \
    case BB_P_S: { typedef float T; return CALL; }                     \
    case BB_P_D: { typedef double T; return CALL; }                    \
    case BB_P_C: { typedef cuFloatComplex T; return CALL; }            \
    case BB_P_Z: { typedef cuDoubleComplex T; return CALL; }           \
    }                                                                  \
    return cudaErrorNotSupported

/* Largest size served in registers per element type: 32 for real types;
   16 for complex ones, whose 32-row (64-128 registers a row) kernels spill
   and cost more compile time than they save over the generic kernels. */
template <typename T> struct bb_small_cap { static constexpr int value = 32; };
template <> struct bb_small_cap<cuFloatComplex> { static constexpr int value = 16; };
template <> struct bb_small_cap<cuDoubleComplex> { static constexpr int value = 16; };
static inline int bb_small_max(bb_prec prec) { return prec == BB_P_C || prec == BB_P_Z ? 16 : 32; }

/* Runs CALL with constexpr int N = the bound for size s and M = the
   columns its loops cover (bb_small_cols; kernels that take no M ignore
   it: the same instantiation for 17..24 as for 32); T in scope. */
#define BB_SMALL_BY_BOUND(s, CALL)                                     \
    switch (bb_small_bound(s)) {                                       \
    case 4: { constexpr int N = 4, M = 4; (void)M; return CALL; }      \
    case 8: { constexpr int N = 8, M = 8; (void)M; return CALL; }      \
    case 16: { constexpr int N = 16, M = 16; (void)M; return CALL; }   \
    default:                                                           \
        if constexpr (bb_small_cap<T>::value >= 32) {                  \
            constexpr int N = 32;                                      \
            if (bb_small_cols(s) == 24) {                              \
                constexpr int M = 24;                                  \
                (void)M;                                               \
                return CALL;                                           \
            }                                                          \
            constexpr int M = 32;                                      \
            (void)M;                                                   \
            return CALL;                                               \
        } else {                                                       \
            return cudaErrorNotSupported;                              \
        }                                                              \
    }

#ifdef __CUDACC__
/* ---- device helpers ---------------------------------------------------- */

template <typename T> __device__ __forceinline__ T bb_zero() { return bb_make<T>(0.0, 0.0); }
template <typename T> __device__ __forceinline__ T bb_one() { return bb_make<T>(1.0, 0.0); }

/* |re| + |im| (LAPACK's cabs1: the pivot measure of i?amax) */
__device__ __forceinline__ float bb_abs1(float a) { return fabsf(a); }
__device__ __forceinline__ double bb_abs1(double a) { return fabs(a); }
__device__ __forceinline__ float bb_abs1(cuFloatComplex a) { return fabsf(a.x) + fabsf(a.y); }
__device__ __forceinline__ double bb_abs1(cuDoubleComplex a) { return fabs(a.x) + fabs(a.y); }

/* modulus (norms) */
__device__ __forceinline__ float bb_abs(float a) { return fabsf(a); }
__device__ __forceinline__ double bb_abs(double a) { return fabs(a); }
__device__ __forceinline__ float bb_abs(cuFloatComplex a) { return hypotf(a.x, a.y); }
__device__ __forceinline__ double bb_abs(cuDoubleComplex a) { return hypot(a.x, a.y); }

/* real scalar times element */
__device__ __forceinline__ float bb_rmul(float s, float a) { return s * a; }
__device__ __forceinline__ double bb_rmul(double s, double a) { return s * a; }
__device__ __forceinline__ cuFloatComplex bb_rmul(float s, cuFloatComplex a) { return make_cuFloatComplex(s * a.x, s * a.y); }
__device__ __forceinline__ cuDoubleComplex bb_rmul(double s, cuDoubleComplex a) { return make_cuDoubleComplex(s * a.x, s * a.y); }

/* 1 / a */
__device__ __forceinline__ float bb_inv(float a) { return 1.0f / a; }
__device__ __forceinline__ double bb_inv(double a) { return 1.0 / a; }
__device__ __forceinline__ cuFloatComplex bb_inv(cuFloatComplex a) { return cuCdivf(make_cuFloatComplex(1.f, 0.f), a); }
__device__ __forceinline__ cuDoubleComplex bb_inv(cuDoubleComplex a) { return cuCdiv(make_cuDoubleComplex(1., 0.), a); }

/* conj(a) if c, else a */
template <typename T> __device__ __forceinline__ T bb_conj_if(T a, bool c) { return c ? bb_conj(a) : a; }

__device__ __forceinline__ bool bb_is_zero(float a) { return a == 0.f; }
__device__ __forceinline__ bool bb_is_zero(double a) { return a == 0.; }
__device__ __forceinline__ bool bb_is_zero(cuFloatComplex a) { return a.x == 0.f && a.y == 0.f; }
__device__ __forceinline__ bool bb_is_zero(cuDoubleComplex a) { return a.x == 0. && a.y == 0.; }

/* A list of row interchanges as one permutation (one thread; perm holds
   the identity on entry): swap k exchanges rows k and ip[k] - base, taken
   in order (backward: last first, the inverse); a pivot outside [0, R) is
   no interchange, as the drivers' swaps.  On return perm[r] is the row
   whose content ends in row r.  ip may be global or shared memory.  The
   LU's gathers (k_lu_perm, k_permute_rows, getrs on chip) build it so. */
__device__ __forceinline__ void bb_swaps_to_perm(int *perm, const int *ip, int w, int R, int base, bool backward)
{
    for (int s = 0; s < w; s++) {
        const int k = backward ? w - 1 - s : s;
        int r = ip[k] - base;
        if (r < 0 || r >= R) r = k;
        const int x = perm[k];
        perm[k] = perm[r];
        perm[r] = x;
    }
}

/* warp shuffles (full warp; width = group size) */
__device__ __forceinline__ float bb_shfl(float v, int src, int w) { return __shfl_sync(0xffffffffu, v, src, w); }
__device__ __forceinline__ double bb_shfl(double v, int src, int w) { return __shfl_sync(0xffffffffu, v, src, w); }
__device__ __forceinline__ int bb_shfl(int v, int src, int w) { return __shfl_sync(0xffffffffu, v, src, w); }
__device__ __forceinline__ cuFloatComplex bb_shfl(cuFloatComplex v, int src, int w)
{
    return make_cuFloatComplex(__shfl_sync(0xffffffffu, v.x, src, w), __shfl_sync(0xffffffffu, v.y, src, w));
}
__device__ __forceinline__ cuDoubleComplex bb_shfl(cuDoubleComplex v, int src, int w)
{
    return make_cuDoubleComplex(__shfl_sync(0xffffffffu, v.x, src, w), __shfl_sync(0xffffffffu, v.y, src, w));
}
__device__ __forceinline__ float bb_shfl_xor(float v, int m, int w) { return __shfl_xor_sync(0xffffffffu, v, m, w); }
__device__ __forceinline__ double bb_shfl_xor(double v, int m, int w) { return __shfl_xor_sync(0xffffffffu, v, m, w); }
__device__ __forceinline__ int bb_shfl_xor(int v, int m, int w) { return __shfl_xor_sync(0xffffffffu, v, m, w); }

/* max / sum over the N threads of a group (result in every thread) */
template <int N, typename R> __device__ __forceinline__ R bb_group_max(R v)
{
#pragma unroll
    for (int o = 1; o < N; o <<= 1) v = fmax(v, bb_shfl_xor(v, o, N));
    return v;
}

/* The pivot searches' argmax over the N lanes of my group: the largest v,
   ties to the smallest key.  v >= 0 (a candidate's magnitude, NaN already
   mapped to Inf) or v = -1 (no candidate); the keys of lanes that tie
   with v >= 0 must differ.  Returns the winning key in every lane of the group and its
   lane (0..N-1) in lane.  keyed = false: the key is the lane itself (no
   key reduction).  A non-negative double (float) orders as its bits do, so
   the search is a warp reduction (redux.sync) of the high word, of the low
   word among the lanes that tie there (double), of the key among the lanes
   that tie on v, and a ballot: at most four instructions on the critical
   path, where log2(N) rounds of shuffles cost three shuffles (four in
   double), two compares and three selects each (getrf d 32 at 10^6
   problems: 10.56 -> 7.96 ms, H200).  That is for a whole warp (N = 32);
   smaller groups keep the shuffles (below).  Every lane of the warp must
   call it. */
__device__ __forceinline__ bool bb_argmax_top(float v)
{
    const int b = __float_as_int(v);
    return b == __reduce_max_sync(0xffffffffu, b);
}
__device__ __forceinline__ bool bb_argmax_top(double v)
{
    const long long b = __double_as_longlong(v);
    const int hi = (int)(b >> 32);
    const unsigned lo = (unsigned)b;
    const bool th = hi == __reduce_max_sync(0xffffffffu, hi);
    const unsigned ml = __reduce_max_sync(0xffffffffu, th ? lo : 0u); /* every lane: no short circuit */
    return th && lo == ml;
}
template <int N, bool KEYED, typename R> __device__ __forceinline__ int bb_group_argmax(R v, int key, int &lane)
{
    if (N < 32) {
        /* groups inside a warp: redux.sync with a group's mask measured
           slower than these shuffles (getrf d 16: 1.73 -> 2.39 ms, z 16
           3.42 -> 5.58 ms at 10^6 problems, H200) */
        int l = threadIdx.x & (N - 1), kk = KEYED ? key : l;
#pragma unroll
        for (int o = 1; o < N; o <<= 1) {
            const R ov = bb_shfl_xor(v, o, N);
            const int ok = bb_shfl_xor(kk, o, N), ol = KEYED ? bb_shfl_xor(l, o, N) : ok;
            if (ov > v || (ov == v && ok < kk)) { v = ov; kk = ok; l = ol; }
        }
        lane = l;
        return kk;
    }
    bool top = bb_argmax_top(v);
    if (KEYED) {
        const int mk = __reduce_min_sync(0xffffffffu, top ? key : 0x7fffffff);
        top = top && key == mk;
        key = mk;
    }
    const int l = __ffs(__ballot_sync(0xffffffffu, top)) - 1;
    lane = l & (N - 1);
    return KEYED ? key : lane;
}

/* Elements per 16-byte vector and 16-byte copies between registers and
   16-byte aligned shared memory.  p must be 16-byte aligned. */
template <typename T> struct bb_vec { static constexpr int E = 16 / (int)sizeof(T); };

__device__ __forceinline__ void bb_st16(float *p, const float *r) { *(float4 *)p = make_float4(r[0], r[1], r[2], r[3]); }
__device__ __forceinline__ void bb_st16(double *p, const double *r) { *(double2 *)p = make_double2(r[0], r[1]); }
__device__ __forceinline__ void bb_st16(cuFloatComplex *p, const cuFloatComplex *r) { *(float4 *)p = make_float4(r[0].x, r[0].y, r[1].x, r[1].y); }
__device__ __forceinline__ void bb_st16(cuDoubleComplex *p, const cuDoubleComplex *r) { *(double2 *)p = make_double2(r[0].x, r[0].y); }
__device__ __forceinline__ void bb_ld16(const float *p, float *r) { float4 v = *(const float4 *)p; r[0] = v.x; r[1] = v.y; r[2] = v.z; r[3] = v.w; }
__device__ __forceinline__ void bb_ld16(const double *p, double *r) { double2 v = *(const double2 *)p; r[0] = v.x; r[1] = v.y; }
__device__ __forceinline__ void bb_ld16(const cuFloatComplex *p, cuFloatComplex *r) { float4 v = *(const float4 *)p; r[0] = make_cuFloatComplex(v.x, v.y); r[1] = make_cuFloatComplex(v.z, v.w); }
__device__ __forceinline__ void bb_ld16(const cuDoubleComplex *p, cuDoubleComplex *r) { double2 v = *(const double2 *)p; r[0] = make_cuDoubleComplex(v.x, v.y); }

/* Row buffer copies: elements [from, N) of r, widened down to a 16-byte
   boundary (the extra leading elements are copied too and ignored).  from
   must fold to a constant after unrolling. */
template <typename T, int N, int M = N> __device__ __forceinline__ void bb_row_put(T *buf, const T (&r)[N], int from)
{
    constexpr int E = bb_vec<T>::E;
#pragma unroll
    for (int j = 0; j < M; j += E)
        if (j + E > from) bb_st16(buf + j, &r[j]);
}
template <typename T, int N, int M = N> __device__ __forceinline__ void bb_row_get(const T *buf, T (&r)[N], int from)
{
    constexpr int E = bb_vec<T>::E;
#pragma unroll
    for (int j = 0; j < M; j += E)
        if (j + E > from) bb_ld16(buf + j, &r[j]);
}

/* An opaque copy of a pointer: addresses derived from it are recomputed
   instead of being kept live (in registers) from the loads to the stores. */
template <typename P> __device__ __forceinline__ P *bb_launder(P *p)
{
    asm volatile("" : "+l"(p));
    return p;
}

/* A copy of v the compiler cannot see through.  Strides laundered at the
   top of each grid-stride iteration keep the per-element offsets (j * ld)
   from being hoisted out of the loop and held in two registers each for
   the whole kernel (which otherwise costs ~2N registers per operand). */
__device__ __forceinline__ int64_t bb_opaque(int64_t v)
{
    asm volatile("" : "+l"(v));
    return v;
}

/* Per-thread problem bookkeeping: which problem the group handles in this
   grid-stride iteration and whether it computes it. */
struct bb_small_slot {
    int64_t pid;
    bool active;
};
__device__ __forceinline__ bb_small_slot bb_small_take(const bb_dev_batch &d, int64_t base, int g)
{
    bb_small_slot s;
    s.pid = base + g;
    s.active = s.pid < d.count && (d.info == NULL || d.info[s.pid] == 0);
    return s;
}

/* The sizes of the group's problem pid (base + g): its own in a class
   launch of a variable batch (d.vdim), else the launch's (the kernel's
   arguments, given here).  Past the end of a class launch: the launch's
   (the largest), the same for the whole warp (the planner pads every run
   of equal sizes to whole warps).  The kernels are instantiated twice,
   VAR = (d.vdim != NULL): read from memory, the sizes take registers that
   the fixed-size launches do not give up (d potrs 32: 94 -> 127). */
template <bool VAR>
__device__ __forceinline__ bb_vdim bb_dims(const bb_dev_batch &d, int64_t pid, int m, int n, int k, int nrhs,
                                           int64_t lda, int64_t ldb, int64_t ldc)
{
    if (VAR && pid < d.count) return d.vdim[pid];
    bb_vdim u;
    u.m = m, u.n = n, u.k = k, u.nrhs = nrhs, u.lda = lda, u.ldb = ldb, u.ldc = ldc;
    return u;
}
__device__ __forceinline__ float bb_rsqrt(float a) { return rsqrtf(a); }
__device__ __forceinline__ double bb_rsqrt(double a) { return rsqrt(a); }

/* Shared-memory matrix of one group: column-major, leading dimension N+1;
   one extra element keeps neighbouring groups on different banks. */
template <typename T, int N> struct bb_smat {
    static constexpr int LD = N + 1;
    static constexpr int SIZE = N * LD + 1;
};

/*
 * Left triangular solve M X = B on a block of rows held by the group:
 * thread i holds row i of B in b[] (rows i < nr take part).  M (nr x nr)
 * is read from A, column-major in shared memory S (leading dimension LD):
 * M(i,k) = A(k,i) when trans, else A(i,k); conjugated when cj.  lower: M is
 * lower triangular (forward substitution), else upper.  dinv_i is thread
 * i's 1/M(i,i) (one for a unit diagonal).  rb: the group's 16-byte aligned
 * [2][N] row buffer.  Row k of X is broadcast through rb at step k (k is
 * never a register index); the step loop is unrolled only for N <= 8, which
 * keeps the code small where it does not pay.  Right-side and transposed
 * solves use it on B^T.  Columns from M (<= N) on are not touched (zero
 * right-hand sides: see bb_small_cols).
 */
template <typename T, int N, int M = N>
__device__ __forceinline__ void bb_left_solve(T (&b)[N], int i, int nr, const T *S, int LD, bool lower,
                                              bool trans, bool cj, T dinv_i, T *rb)
{
    const int si = trans ? LD : 1, sk = trans ? 1 : LD;
#pragma unroll (N <= 8 ? N : 1)
    for (int s = 0; s < nr; s++) {
        const int k = lower ? s : nr - 1 - s;
        T *buf = rb + (s & 1) * N;
        if (i == k) {
#pragma unroll
            for (int j = 0; j < M; j++) b[j] = b[j] * dinv_i;
            bb_row_put<T, N, M>(buf, b, 0);
        }
        __syncwarp();
        if (lower ? (i > k && i < nr) : (i < k)) {
            const T c = bb_conj_if(S[i * si + k * sk], cj);
            T x[N];
            bb_row_get<T, N, M>(buf, x, 0);
#pragma unroll
            for (int j = 0; j < M; j++) b[j] = b[j] - c * x[j];
        }
    }
    __syncwarp();
}

/*
 * bb_left_solve on a 2-D tile, for blocks of right-hand sides: the group's N
 * threads hold the nr x W block of B (W = R * WC <= N) as R rows x WC
 * columns each: thread t holds rows t % G + G * r (G = N / R, r < R) and
 * columns (t / G) * WC + j (j < WC).  Row k of X goes through rb in pieces of
 * WC columns, and each broadcast element feeds R FMAs (bb_left_solve, one
 * row a thread, spends a 16-byte shared load per E FMAs: at n = 32 the
 * shared-memory feed, not the bytes, set its time).  M(i,k) = S[i*si +
 * k*sk], conjugated if cj; lower: forward substitution, else backward;
 * dinv[r] = 1 / M(i,i) of row r (unit: rows are not scaled).  Column pieces
 * from nb on are skipped.  Every element sees the same operations in the
 * same order as in bb_left_solve, so the bits do not depend on R.
 */
template <typename T, int N, int R, int WC>
__device__ __forceinline__ void bb_tile_solve(T (&b)[R][WC], int t, int nr, int nb, const T *S, int si, int sk,
                                              bool lower, bool cj, bool unit, const T (&dinv)[R], T *rb)
{
    constexpr int G = N / R, E = bb_vec<T>::E;
    static_assert(G * R == N && R * WC <= N && WC % E == 0, "bb_tile_solve: tile shape");
    const int rg = t % G, c0 = (t / G) * WC;
    const bool live = c0 < nb;
#pragma unroll (N <= 8 ? N : 1)
    for (int s = 0; s < nr; s++) {
        const int k = lower ? s : nr - 1 - s;
        T *buf = rb + (s & 1) * N + c0;
        if (rg == k % G) {
            const int kr = k / G;
#pragma unroll
            for (int r = 0; r < R; r++)
                if (r == kr) {
                    if (!unit) {
#pragma unroll
                        for (int j = 0; j < WC; j++) b[r][j] = b[r][j] * dinv[r];
                    }
#pragma unroll
                    for (int j = 0; j < WC; j += E) bb_st16(buf + j, &b[r][j]);
                }
        }
        __syncwarp();
        if (live) {
            T x[WC];
#pragma unroll
            for (int j = 0; j < WC; j += E) bb_ld16(buf + j, &x[j]);
#pragma unroll
            for (int r = 0; r < R; r++) {
                const int i = rg + G * r;
                if (lower ? (i > k && i < nr) : i < k) {
                    const T c = bb_conj_if(S[i * si + k * sk], cj);
#pragma unroll
                    for (int j = 0; j < WC; j++) b[r][j] = b[r][j] - c * x[j];
                }
            }
        }
    }
    __syncwarp();
}

/* Rows a thread in bb_tile_solve's tiles, for a group of N (LU: the solves
   of getrs/gesv, else those of potrs/posv/trsm).  The tiles cut the shared
   loads but hold more registers (d potrs N = 32: 128 -> 182, half the warps
   an SM); measured on the H100 (doc/performance.md, session 6) they pay for
   complex types from N = 16 (1.03-1.67x) and for the real LU solves at
   N = 32 (1.04-1.27x), and cost 0.73-0.93x elsewhere: one row a thread
   there. */
template <typename T, int N, bool LU> struct bb_tile_rows {
    static constexpr bool CPLX = sizeof(T) > sizeof(typename bb_real<T>::type);
    static constexpr int value = N < 16 ? 1 : CPLX ? (N >= 32 ? 4 : 2) : (LU && N >= 32 ? 4 : 1);
};

/*
 * Cholesky A = L L^H of the rows held by a group (right-looking, step k
 * unrolled): thread i holds row i of A's lower triangle and ends with row i
 * of L.  (The upper case is the same on A^H: the kernels load conj(A(j,i)).)
 * Returns LAPACK's info (first column whose pivot is not positive, or NaN;
 * a +Inf pivot is not a failure: L(k,k) = Inf and the column below is
 * scaled by 0, as LAPACK); the factorisation stops there, leaving the
 * columns before it factored and the columns after it updated by them.
 * rb: [2][N] row buffer.  M <= N: the columns the loops cover (n <= M;
 * bb_small_cols picks it), so a problem smaller than the kernel's bound
 * skips the FMAs and shared-memory reads of columns it does not have.
 * The entries above the diagonal (j > i) end with values of no meaning:
 * the callers read and store only j <= i.
 *
 * A step costs a warp about 50 instructions besides its multiply-adds (the
 * pivot's shuffle, rsqrt, the scaling, the tests, the barrier), paid n
 * times a problem.  From bb_potrf_free<T>::value columns on, every lane
 * runs the step without tests on its row index (about 35 instructions:
 * the rows above k scale and update entries above their diagonal); below
 * it, where the kernels are at the copy roof, the rows above k sit the
 * step out.  Measured on the H100 (doc/performance.md, session 23).
 */
template <typename T> struct bb_potrf_free {
    static constexpr int value = std::is_same<T, double>::value ? 24 : 16;
};

template <typename T, int N, int M = N>
__device__ __forceinline__ int bb_potrf_rows(T (&r)[N], int i, int n, T *rb)
{
    typedef typename bb_real<T>::type R;
    constexpr bool CPLX = sizeof(T) > sizeof(R), FREE = M >= bb_potrf_free<T>::value;
    int info = 0;
    bool ok = true;
#pragma unroll
    for (int k = 0; k < M; k++) {
        if (k < n) {
            T *buf = rb + (k & 1) * N;
            const R dkk = bb_re(bb_shfl(r[k], k, N));
            if (ok && !(dkk > 0)) { ok = false; info = k + 1; }
            /* dkk = +Inf (LAPACK: L(k,k) = sqrt(Inf) = Inf, the column
               below scaled by 1/Inf = 0): rsqrt gives 0, and Inf * 0 would
               be NaN, so L(k,k) takes dkk itself.  Complex: L(k,k) is real
               (the imaginary part of A(k,k) is not read). */
            const R rs = ok ? bb_rsqrt(dkk) : R(0);
            if (ok) {
                if (FREE && !CPLX) /* r[k] of row k is dkk, so r[k] * rs is L(k,k) there */
                    r[k] = i == k && !(rs > R(0)) ? bb_make<T>(dkk, 0.0) : bb_rmul(rs, r[k]);
                else if (i == k) r[k] = bb_make<T>(rs > R(0) ? dkk * rs : dkk, 0.0);
                else if (i > k) r[k] = bb_rmul(rs, r[k]);
            }
            if (FREE ? ok : i > k) buf[i] = r[k];
            __syncwarp();
            if (ok && (FREE || i > k)) {
                T col[N];
                bb_row_get<T, N, M>(buf, col, k + 1);
                const T l = r[k];
#pragma unroll
                for (int j = k + 1; j < M; j++) r[j] = r[j] - l * bb_conj(col[j]);
            }
        }
    }
    __syncwarp();
    return info;
}

/* r[j] -= c * x[j] for the columns k < j < M, x read from 16-byte
   aligned shared memory in 16-byte pieces (pieces holding no such column
   are skipped; k must fold to a constant after unrolling): the update of
   a row by a broadcast row in the LU and Cholesky steps. */
template <typename T, int N, int M = N>
__device__ __forceinline__ void bb_row_update(T (&r)[N], const T *x, T c, int k)
{
    constexpr int E = bb_vec<T>::E;
#pragma unroll
    for (int j0 = 0; j0 < M; j0 += E)
        if (j0 + E > k + 1) {
            T pv[E];
            bb_ld16(x + j0, pv);
#pragma unroll
            for (int e = 0; e < E; e++)
                if (j0 + e > k) r[j0 + e] = r[j0 + e] - c * pv[e];
        }
}

/* The same update on a row held rotated by the rolled LU panel
   (k_getrf_panel: r[j] is column k + j at step k): r[j - 1] = r[j] - c x[j]
   for 0 < j < W, the row shifted by one column as it is updated, then
   r[W - 1] = 0 (past the columns left). */
template <typename T, int N, int W = N>
__device__ __forceinline__ void bb_row_update_shift(T (&r)[N], const T *x, T c)
{
    constexpr int E = bb_vec<T>::E;
#pragma unroll
    for (int j0 = 0; j0 < W; j0 += E) {
        T pv[E];
        bb_ld16(x + j0, pv);
#pragma unroll
        for (int e = 0; e < E; e++)
            if (j0 + e > 0) r[j0 + e - 1] = r[j0 + e] - c * pv[e];
    }
    r[W - 1] = bb_zero<T>();
}

/* LU with partial pivoting of the rows held by a group (thread i: row r of
   an m x n matrix, mn = min(m, n)), columns below M (n <= M <= N, see
   bb_potrf_rows), lazy swap: rows never move; pos is my row's position,
   myipiv (lane k) ipiv[k] (1-based).  The pivot: the first NaN of the
   column, else its first entry of largest magnitude among the rows not yet
   pivoted (ties: the lower position); the pivot row goes through
   sbuf[k & 1] and is read back in 16-byte pieces.  pivot = 0: no pivoting
   (getrfnp).  Returns LAPACK's info (first zero or NaN pivot).  getrf and
   gesv's fused LU (small_getrs.cu) both run it. */
template <typename T, int N, int M>
__device__ __forceinline__ int bb_getrf_rows(T (&r)[N], int i, int m, int mn, int &pos, int &myipiv, T (*sbuf)[N],
                                             int pivot)
{
    typedef typename bb_real<T>::type R;
    int info = 0;
#pragma unroll
    for (int k = 0; k < M; k++) {
        if (k < mn) {
            int plane = k, ppos = k;
            if (pivot) {
                /* candidate: rows not yet pivoted; the first NaN wins (CPU rule) */
                /* a NaN is taken first, so it is flagged as the CPU does:
                   it counts as Inf and its position as below every
                   other (BB_NAN_FIRST), so it also beats a true Inf */
                R v = bb_abs1(r[k]);
                int bp = pos;
                if (v != v) v = (R)INFINITY, bp -= BB_NAN_FIRST;
                if (!(pos >= k && i < m)) v = -1;
                bp = bb_group_argmax<N, true>(v, bp, plane);
                if (bp < 0) bp += BB_NAN_FIRST;
                ppos = bp;
            }
            T *buf = sbuf[k & 1];
            if (i == plane) bb_row_put<T, N, M>(buf, r, k);
            __syncwarp();
            const T piv = buf[k];
            const bool nz = bb_abs1(piv) > 0; /* false for 0 and NaN */
            if (!nz && info == 0) info = k + 1;
            const T inv = nz ? bb_inv(piv) : bb_one<T>();
            if (pivot) {
                if (i == k) myipiv = ppos + 1;
                int np = pos;
                if (pos == k) np = ppos;
                if (i == plane) np = k;
                pos = np;
            }
            if (pos > k && i < m) {
                const T l = r[k] * inv;
                r[k] = l;
                /* the pivot row in 16-byte pieces: held whole, it took 64
                   more registers (d, N = 32: 164, 3 blocks an SM) */
                bb_row_update<T, N, M>(r, buf, l, k);
            }
        }
    }
    return info;
}

/* Row i of the lower-triangular view of a Hermitian matrix stored in its
   uplo triangle: A(i,j) (lower) or conj(A(j,i)) (upper), j <= i < n; zeros
   elsewhere.  The other triangle is never read. */
template <typename T, int N>
__device__ __forceinline__ void bb_load_lower_row(T (&r)[N], const T *A, int i, int n, int64_t lda, bool upper,
                                                  bool ok)
{
#pragma unroll
    for (int j = 0; j < N; j++) {
        const bool in = ok && j < n && j <= i;
        T v = in ? A[upper ? j + i * lda : i + j * lda] : bb_zero<T>();
        r[j] = upper ? bb_conj(v) : v;
    }
}
template <typename T, int N>
__device__ __forceinline__ void bb_store_lower_row(const T (&r)[N], T *A, int i, int n, int64_t lda, bool upper)
{
#pragma unroll
    for (int j = 0; j < N; j++)
        if (j < n && j <= i) {
            if (upper) A[j + i * lda] = bb_conj(r[j]);
            else A[i + j * lda] = r[j];
        }
}
#endif /* __CUDACC__ */
