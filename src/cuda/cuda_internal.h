/*
 * CUDA backend internals: the contract between the backend driver
 * (backend_cuda.cu: the plugin entry, probe, device data, info; queue.cu:
 * queues; segments.cu: grouping; staging.cu: host<->device staging), the
 * launch policy (launch.cu: which kernel runs a launch) and the kernels
 * (generic_*.cu for every routine, small_*.cu register kernels for tiny n).
 * The driver's own shared internals are at the end of this file.
 *
 * A launch is one set of uniform, normalised column-major parameters
 * (bb_problem, pointers unused) applied to `count` problems whose operands
 * are addressed through bb_dev_opd (pointer array or base + stride, always
 * device memory).  Kernels skip problem i when info[i] != 0 on entry and
 * store its numerical code (0, LAPACK k > 0) in info[i] otherwise.
 */
#pragma once

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cuComplex.h>
#include <stdint.h>
#include <vector>
#include "backend.h"

/* Operand addressing on the device (KBLAS-style accessor: one kernel serves
   pointer-array and strided batches). */
struct bb_dev_opd {
    void *const *ptr; /* device array of device pointers, or NULL */
    char *base;       /* else: base + i * stride elements */
    int64_t stride;
    int64_t off;      /* elements added to every ptr[i] (sub-matrix views of
                         pointer-array batches, src/cuda/blocked.cu) */
};

/* The sizes of one problem of a variable batch (slot t of a class launch,
   src/cuda/varplan.cu), normalised like bb_problem. */
struct bb_vdim {
    int m, n, k, nrhs;
    int64_t lda, ldb, ldc;
};

/* A variable-size driver launch's slots by size (var_plan.ext, made by the
   planner): entries by decreasing size, `end` the number of leading slots
   of the launch that hold every problem whose largest size (m, n, k or
   nrhs) is at least `size`.  The slots are laid out largest first, so a
   step of the driver at walk position x (a block that starts at row or
   column x, work only for problems with a size above x) runs over that
   prefix alone (bb_var_head, views.h). */
struct var_ext {
    int32_t size, end;
};

struct bb_dev_batch {
    bb_dev_opd opd[BB_NOPD];
    int64_t count; /* problems in this launch (64-bit: grids loop, no 65535 limit) */
    int *info;     /* device [count] */
    int masked;    /* 1: info may flag skipped problems even in a strided
                      launch (the blocked drivers): vendor calls must not
                      write them */
    const bb_vdim *vdim; /* NULL: every problem has the launch's sizes
                            (bb_problem); else device [count]: problem i's
                            own sizes, a class launch of a variable batch
                            (register kernels only: launch.cu's
                            bb_cuda_var_class says which take it).  The
                            planner makes m, n, k, nrhs the same for every
                            problem of a warp (32 / group size consecutive
                            problems), so the kernels' loops and shuffles stay
                            warp-uniform; the launch's bb_problem holds the
                            largest of each. */
    int vdriver;         /* with vdim: the launch is the variable-size
                            driver's (problems above the register bound,
                            vardriver.cu) */
    double vwork;        /* with vdriver: the launch's work in units of its
                            largest problem's, sum of (s / smax)^3 (s: the
                            largest of a problem's m, n, k); 0: unknown */
    const var_ext *vext; /* with vdriver: host array [nvext] (NULL: none);
                            this batch's slot 0 is the table's slot vext_off */
    int32_t nvext;
    int64_t vext_off;
};

template <typename E>
__device__ __forceinline__ E *bb_dev_ptr(const bb_dev_opd &o, int64_t i)
{
    return o.ptr ? (E *)o.ptr[i] + o.off : (E *)(o.base + (size_t)(i * o.stride) * sizeof(E));
}

/* Element types: T = float, double, cuFloatComplex, cuDoubleComplex; the
   arithmetic helpers below let one template serve all four. */
template <typename T> struct bb_real;
template <> struct bb_real<float> { typedef float type; };
template <> struct bb_real<double> { typedef double type; };
template <> struct bb_real<cuFloatComplex> { typedef float type; };
template <> struct bb_real<cuDoubleComplex> { typedef double type; };

__host__ __device__ __forceinline__ float bb_re(float a) { return a; }
__host__ __device__ __forceinline__ double bb_re(double a) { return a; }
__host__ __device__ __forceinline__ float bb_re(cuFloatComplex a) { return a.x; }
__host__ __device__ __forceinline__ double bb_re(cuDoubleComplex a) { return a.x; }
__host__ __device__ __forceinline__ float bb_im(float) { return 0.f; }
__host__ __device__ __forceinline__ double bb_im(double) { return 0.; }
__host__ __device__ __forceinline__ float bb_im(cuFloatComplex a) { return a.y; }
__host__ __device__ __forceinline__ double bb_im(cuDoubleComplex a) { return a.y; }

template <typename T> __host__ __device__ __forceinline__ T bb_make(double re, double im);
template <> __host__ __device__ __forceinline__ float bb_make<float>(double re, double) { return (float)re; }
template <> __host__ __device__ __forceinline__ double bb_make<double>(double re, double) { return re; }
template <> __host__ __device__ __forceinline__ cuFloatComplex bb_make<cuFloatComplex>(double re, double im) { return make_cuFloatComplex((float)re, (float)im); }
template <> __host__ __device__ __forceinline__ cuDoubleComplex bb_make<cuDoubleComplex>(double re, double im) { return make_cuDoubleComplex(re, im); }

__host__ __device__ __forceinline__ float bb_conj(float a) { return a; }
__host__ __device__ __forceinline__ double bb_conj(double a) { return a; }
__host__ __device__ __forceinline__ cuFloatComplex bb_conj(cuFloatComplex a) { return cuConjf(a); }
__host__ __device__ __forceinline__ cuDoubleComplex bb_conj(cuDoubleComplex a) { return cuConj(a); }

__host__ __device__ __forceinline__ cuFloatComplex operator+(cuFloatComplex a, cuFloatComplex b) { return cuCaddf(a, b); }
__host__ __device__ __forceinline__ cuFloatComplex operator-(cuFloatComplex a, cuFloatComplex b) { return cuCsubf(a, b); }
__host__ __device__ __forceinline__ cuFloatComplex operator*(cuFloatComplex a, cuFloatComplex b) { return cuCmulf(a, b); }
__host__ __device__ __forceinline__ cuFloatComplex operator/(cuFloatComplex a, cuFloatComplex b) { return cuCdivf(a, b); }
__host__ __device__ __forceinline__ cuFloatComplex operator-(cuFloatComplex a) { return make_cuFloatComplex(-a.x, -a.y); }
__host__ __device__ __forceinline__ cuDoubleComplex operator+(cuDoubleComplex a, cuDoubleComplex b) { return cuCadd(a, b); }
__host__ __device__ __forceinline__ cuDoubleComplex operator-(cuDoubleComplex a, cuDoubleComplex b) { return cuCsub(a, b); }
__host__ __device__ __forceinline__ cuDoubleComplex operator*(cuDoubleComplex a, cuDoubleComplex b) { return cuCmul(a, b); }
__host__ __device__ __forceinline__ cuDoubleComplex operator/(cuDoubleComplex a, cuDoubleComplex b) { return cuCdiv(a, b); }
__host__ __device__ __forceinline__ cuDoubleComplex operator-(cuDoubleComplex a) { return make_cuDoubleComplex(-a.x, -a.y); }

/* Per-queue state.  The driver owns it; kernels get it for the stream, the
   cuBLAS handle and the workspace. */
struct batchblas_queue {
    int device;
    cudaStream_t stream;
    int own_stream;
    cublasHandle_t cublas;
    int sm_count;
    void *work;        /* device workspace, grown by bb_cuda_workspace() */
    size_t work_size;
    void *work2;       /* second workspace (bb_cuda_workspace2): data a blocked
                          driver keeps across the launches it makes, which
                          may use the first one */
    size_t work2_size;
    void *work3;       /* third (bb_cuda_workspace3): the blocked trsm's
                          inverted diagonal blocks, under drivers that hold
                          the second */
    size_t work3_size;
};

/* Device workspace of at least `bytes` on the queue (grown only between
   launches; returns NULL on failure). */
void *bb_cuda_workspace(batchblas_queue *q, size_t bytes);
void *bb_cuda_workspace2(batchblas_queue *q, size_t bytes);
void *bb_cuda_workspace3(batchblas_queue *q, size_t bytes);

/* launch.cu: a trsm leaf (a diagonal block of order <= L and the free
   dimension beside it, in chunks of L) inverts the block and multiplies
   every chunk by the inverse from this many chunks a problem on (0: never;
   BATCHBLAS_CUDA_DINV) */
int bb_cuda_dinv_min(void);
/* launch.cu: the largest order of a trsm on chip (trsm_panel.cu,
   bb_trsm_panel) in precision prec on the current device; 0: off
   (BATCHBLAS_CUDA_TRSM_PANEL, or no FP64 tensor cores) */
int bb_cuda_trsm_panel_max(bb_prec prec);
/* launch.cu: the largest order (m and n) of op's kernel on chip in
   precision prec on the current device: potrf (potrf_chip.cu), getrf and
   getrfnp, gecond and geinv, getri, getri_oop, getrs and potrs (gesv's
   and posv's solves too; getrf_chip.cu); 0: none, or off
   (BATCHBLAS_CUDA_POTRF_CHIP, _GETRF_CHIP, _GECOND_CHIP, _SOLVE_CHIP), or
   no FP64 tensor cores */
int bb_cuda_chip_max(bb_op op, bb_prec prec);
/* The blocked LU's panels on chip (launch.cu): their largest height (0: off). */
int bb_cuda_lu_panel_chip_rows(bb_prec prec);
/* launch.cu: the fixed-size trsm above this order recurses, each range of
   at most this order on chip (<= bb_cuda_trsm_panel_max; 0: none;
   BATCHBLAS_CUDA_TRSM_SPLIT) */
int bb_cuda_trsm_panel_split(bb_prec prec);
/* launch.cu: 1 if the current device has FP64 tensor cores (compute
   capability 8.0 or later; read once, as the backend's devices are one
   kind) */
int bb_cuda_has_dmma(void);
/* the most bytes of a trsm's inverted diagonal blocks at once (both
   drivers; their launches go in slices of it): 256 MiB, 32768 blocks of
   32 x 32 double */
const size_t BB_CUDA_DINV_BYTES = (size_t)256 << 20;

/* launch.cu: THE GPU kernel policy.  Runs one launch of `op` in precision
   `prec` with uniform parameters p on the problems of d, asynchronously on
   q->stream.  Returns cudaSuccess or the launch error. */
cudaError_t bb_cuda_launch(bb_op op, bb_prec prec, const bb_problem &p, const bb_dev_batch &d,
                           batchblas_queue *q);

/* backend_cuda.cu: the launch-fault hook (src/common/fault.c's launch
   counter, handed over by the loader through bb_cuda_plugin_set_launch_fault;
   false when no hook was set).  Asked once by every entry of bb_cuda_launch:
   true means this launch is to fail (a test, doc/reliability.md). */
bool bb_cuda_launch_fault(void);

/* Variable sizes: the register-kernel bound (4, 8, 16, 24, 32) that
   serves problem p in a class launch (per-problem sizes in
   bb_dev_batch.vdim), BB_VAR_MID or BB_VAR_DRIVER (below), or 0 if p takes
   a launch of its own (launch.cu). */
int bb_cuda_var_class(bb_op op, bb_prec prec, const bb_problem &p);
/* bb_cuda_var_class's answer for problems above the register bound that
   the variable-size driver takes (vardriver.cu): one class launch for all
   of them, laid out largest first. */
#define BB_VAR_DRIVER 64
/* The LU family in the variable-size driver: problems of at most this
   many rows (its register panel's bound, bb_panel_getrf). */
#define BB_VAR_LU_ROWS 512
/* ... for problems above the register bound that the on-chip kernels take
   (mid.cu, bb_mid_max): one class launch of them, a block a problem. */
#define BB_VAR_MID 48
/* The group form on device data goes the variable form's way (class
   launches, varplan.cu) from this many groups on: a group per problem is
   the variable form.  Fewer groups keep a launch sequence each. */
#define BB_VAR_GROUPS_MIN 32
/* ... where a group of at least this many problems above the register
   bound still keeps its own launch sequence: the fixed-size drivers
   (blocked.cu, recursive.cu, cuBLAS GEMM) run equal sizes faster than the
   variable-size driver (doc/performance.md, session 16: var/fixed 0.4-0.7). */
#define BB_VAR_GROUP_OWN 128
/* BblasNoTrans / BblasTrans / BblasConjTrans as cuBLAS's operation */
static inline cublasOperation_t bb_cublas_op(int t)
{
    return t == BblasTrans ? CUBLAS_OP_T : t == BblasConjTrans ? CUBLAS_OP_C : CUBLAS_OP_N;
}
/* dst[t] = src[map[t]], NULL where map[t] < 0 (backend_cuda.cu) */
__global__ void bb_gather_ptrs(void *const *src, const int32_t *map, void **dst, int64_t n);
/* gemm in a variable batch (s; d with BATCHBLAS_CUDA_VAR_GROUPED=all):
   the problems that cuBLAS's grouped GEMM takes instead of the
   variable-size driver (launch.cu), at most
   BB_VAR_GROUPED_MAX of them in one call (its host time grows with the
   groups: 10^6 groups took seconds on the H200). */
bool bb_cuda_var_grouped(bb_op op, bb_prec prec, const bb_problem &p);
/* ... only problems with a size above this (-1: none of op, prec) */
int bb_cuda_var_grouped_above(bb_op op, bb_prec prec);
/* ... and only when they have this many flops (BB_VAR_GROUPED_FLOPS, or
   what BATCHBLAS_CUDA_VAR_GROUPED says; -1: never) */
double bb_cuda_var_grouped_flops(void);
#define BB_VAR_GROUPED_MAX 65536
/* ... and only when they have this many flops: a grouped call cost about
   0.5 ms of host time even for 100 groups (H200, session 17: skewed
   [1, 128], 102 problems above the bound, 0.58 -> 1.10 ms) */
#define BB_VAR_GROUPED_FLOPS 4e9
/* Problems in a warp that must share their sizes in a class launch of
   class cls (the register kernels' groups; the driver: its leaves'; the
   on-chip kernels: none, a problem has a block). */
static inline int bb_var_gran(int cls, bb_prec prec)
{
    return cls == BB_VAR_DRIVER ? (prec == BB_P_C || prec == BB_P_Z ? 2 : 1) : cls == BB_VAR_MID ? 1 : 32 / cls;
}
/* The variable-size driver (vardriver.cu): a class launch (d.vdim set) of
   potrf, trsm, gemm, getrf, getrfnp, getrs, gesv, potrs or posv problems
   above the register bound, p the largest sizes. */
int bb_var_driver_supports(bb_op op);
cudaError_t bb_var_driver_launch(bb_op op, bb_prec prec, const bb_problem &p, const bb_dev_batch &d,
                                 batchblas_queue *q);

/* 1 if bb_cuda_launch implements op in prec (every routine, once complete). */
int bb_cuda_launch_supports(bb_op op, bb_prec prec);

/* Grid helper: problems per launch are 64-bit; kernels loop over
   blockIdx.x + k * gridDim.x, so grids never exceed this many blocks. */
#define BB_CUDA_MAX_GRID 65535u

/* Blocks for n items at per_block items a block: at least 1, at most
   BB_CUDA_MAX_GRID (the kernels loop over the rest). */
static inline unsigned bb_grid(int64_t n, int per_block)
{
    int64_t g = (n + per_block - 1) / per_block;
    return g < 1 ? 1u : g > (int64_t)BB_CUDA_MAX_GRID ? BB_CUDA_MAX_GRID : (unsigned)g;
}

/* ========================================================================= */
/* The driver (host code; the kernels use none of it): what backend_cuda.cu, */
/* queue.cu, segments.cu and staging.cu share.                               */
/* ========================================================================= */

/* backend_cuda.cu: configuration, read once from the environment
   (pthread_once(&bb_cu_cfg_once, bb_cu_read_cfg) before use).  The staging
   bound per slot (BATCHBLAS_CUDA_STAGE_BYTES), the copy threads per pipeline
   (BATCHBLAS_CUDA_STAGE_THREADS) and over the pipelines running at once. */
extern pthread_once_t bb_cu_cfg_once;
void bb_cu_read_cfg(void);
extern size_t bb_cu_cfg_stage_bytes;
extern int bb_cu_cfg_stage_chunks; /* BATCHBLAS_CUDA_STAGE_CHUNKS */
extern int bb_cu_cfg_stage_threads;
extern int bb_cu_cfg_stage_budget;
extern int bb_cu_cfg_stage_direct; /* BATCHBLAS_CUDA_DIRECT (default 1) */

/* The plugin cannot reach libbatchblas's internal bb_log (hidden symbol in
   another shared object): the same output, enabled by BATCHBLAS_VERBOSE. */
void bb_cu_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Every failed runtime call also sets the thread's "last error"; clear it so
   that a later cudaGetLastError (kernels check their launches with it) does
   not report a failure that was already handled. */
static inline cudaError_t chk(cudaError_t e)
{
    if (e != cudaSuccess) (void)cudaGetLastError();
    return e;
}

/* What CUDA knows of the memory at p (the one wrapper of
   cudaPointerGetAttributes): plain host memory, or a failed query, gives
   type cudaMemoryTypeUnregistered and device -1. */
static inline cudaPointerAttributes bb_cu_pointer(const void *p)
{
    cudaPointerAttributes a;
    memset(&a, 0, sizeof a);
    if (chk(cudaPointerGetAttributes(&a, p)) != cudaSuccess) {
        memset(&a, 0, sizeof a);
        a.type = cudaMemoryTypeUnregistered;
        a.device = -1;
    }
    return a;
}

/* 1 if p is page-locked host memory (cudaHostAlloc, cudaMallocHost,
   batchblas_malloc_host, or registered with cudaHostRegister). */
static inline int bb_cu_host_pinned(const void *p) { return bb_cu_pointer(p).type == cudaMemoryTypeHost; }

static inline size_t align_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

/* The CUDA backend's tuning switches from the environment (README's
   table): an integer, read once into *cache (a static of the caller,
   BB_ENV_UNREAD at first); dflt where the variable is unset. */
#define BB_ENV_UNREAD (-2147483647 - 1)
static inline int bb_env_int(const char *name, int dflt, int *cache)
{
    int v = __atomic_load_n(cache, __ATOMIC_RELAXED);
    if (v == BB_ENV_UNREAD) {
        const char *e = getenv(name);
        v = e ? atoi(e) : dflt;
        if (v == BB_ENV_UNREAD) v = dflt;
        __atomic_store_n(cache, v, __ATOMIC_RELAXED);
    }
    return v;
}

/* Alignment of every region in the staging and scratch buffers. */
static const size_t BB_ALIGN = 128;

/* Allocation: every allocation of the plugin goes through these four, which
   ask the library's fault hook first (bb_cu_fault_now, backend_cuda.cu:
   src/common/fault.c makes the k-th allocation fail in a test). */
bool bb_cu_fault_now(void);

static inline void *cu_malloc(size_t bytes) { return bb_cu_fault_now() ? NULL : malloc(bytes); }
static inline void *cu_calloc(size_t n, size_t size) { return bb_cu_fault_now() ? NULL : calloc(n, size); }

/* Pinned host memory (the staging buffers). */
static inline cudaError_t cu_pinned_alloc(void **p, size_t bytes)
{
    *p = NULL;
    if (bb_cu_fault_now()) return cudaErrorMemoryAllocation;
    return chk(cudaHostAlloc(p, bytes, cudaHostAllocPortable));
}

/* Device memory: stream-ordered on `stream` when `pools`, else cudaMalloc. */
static inline cudaError_t cu_dev_alloc(void **p, size_t bytes, int pools, cudaStream_t stream)
{
    *p = NULL;
    if (bb_cu_fault_now()) return cudaErrorMemoryAllocation;
    return pools ? chk(cudaMallocAsync(p, bytes, stream)) : chk(cudaMalloc(p, bytes));
}

/* The info code of a failed CUDA call: out of memory or anything else. */
static inline int fail_code(cudaError_t e)
{
    return e == cudaErrorMemoryAllocation ? BB_INFO_NOMEM : BB_INFO_DEVICE;
}

/* Queues (queue.cu) */

#define BB_QUEUE_MAGIC 0x62625175u
/* problems whose parameters a variable call with its arrays in device
   memory reads back for the planner (bb_cu_var_check) */
#define BB_VAR_SAMPLE 18
/* the sizes the checks count (bb_cu_var_check): 0 .. BB_VAR_HIST - 1 */
#define BB_VAR_HIST 1024

/* The driver's queue: the public part (seen by the kernels) first, so a
   batchblas_queue * created here converts back to bb_cuda_queue *. */
struct bb_cuda_queue {
    batchblas_queue pub;
    unsigned magic;
    int pools;          /* stream-ordered allocator (cudaMallocAsync) usable */
    void *scratch;      /* driver-private device memory (pointer arrays, info,
                           staged operands); never the kernels' pub.work */
    size_t scratch_size;
    void *cublas_ws;    /* the cuBLAS handle's workspace, owned by the queue */
    void *pin;          /* pinned host memory: a variable call's size arrays on
                           their way to the device (backend_cuda.cu) */
    size_t pin_size;
    cudaEvent_t pin_done; /* recorded after the last copy out of pin (NULL: none yet) */
    /* a large variable call's size arrays on the device, counted into the
       plan's buckets on a side stream (bb_cu_var_count_dev) */
    cudaStream_t side;
    void *draw;
    size_t draw_size;
    cudaEvent_t side_done; /* recorded on side after the arrays' copies (the queue's stream waits for it) */
    cudaEvent_t count_done; /* recorded on side after the counts' copy back (the host waits for it) */
    cudaEvent_t draw_free; /* recorded on the queue's stream after the last read of draw */
    /* a variable call's checks on the device (bb_cu_var_check): the
       summary, a sample of problems' parameters (bb_cu_var_sample), then
       every problem's code; read by the call's launches on the stream */
    void *vcheck;
    size_t vcheck_size;
    /* ... and that sample on the host, as the checks read it back:
       problem vs_idx[t]'s parameter s is vs_val[s][t], its alpha and beta
       the first bytes of vs_sc[0][t], vs_sc[1][t] */
    int vs_n;
    int64_t vs_idx[BB_VAR_SAMPLE];
    int vs_val[BB_NPAR][BB_VAR_SAMPLE];
    unsigned char vs_sc[2][BB_VAR_SAMPLE][16];
    /* ... and the checks' count of the passing problems by their one
       size parameter (vs_hslot; -1: none, or a size past the count's
       range): the plan's buckets without a second read-back
       (bb_cu_var_count_devpar) */
    int vs_hslot;
    unsigned vs_hist[BB_VAR_HIST];
};

static inline bb_cuda_queue *priv(batchblas_queue *q) { return reinterpret_cast<bb_cuda_queue *>(q); }

static inline bb_cuda_queue *checked_queue(batchblas_queue_t q)
{
    bb_cuda_queue *cq = priv(q);
    return (cq && cq->magic == BB_QUEUE_MAGIC) ? cq : NULL;
}

/* Makes `dev` current for the scope and restores the caller's device. */
struct device_scope {
    int prev, ok, changed;
    explicit device_scope(int dev) : prev(0), ok(0), changed(0)
    {
        if (chk(cudaGetDevice(&prev)) != cudaSuccess) return;
        if (prev != dev) {
            if (chk(cudaSetDevice(dev)) != cudaSuccess) return;
            changed = 1;
        }
        ok = 1;
    }
    ~device_scope()
    {
        if (changed) (void)chk(cudaSetDevice(prev));
    }
};

/* The devices counted by the probe (backend_cuda.cu). */
extern int bb_cu_ndev;

/* Device memory on the queue's stream (stream-ordered): freed, or grown to at
   least `bytes` (contents are not kept; geometric: by at least half the old
   size). */
cudaError_t bb_cu_dev_free(bb_cuda_queue *q, void *p);
cudaError_t bb_cu_dev_grow(bb_cuda_queue *q, void **p, size_t *size, size_t bytes, int geometric);

/* New queue on `device` (on `user_stream` if use_user, else on a new stream
   created with `flags`), a BblasSuccess / BblasErr* code; the release of
   everything of a queue, the first error. */
int bb_cu_queue_new(int device, cudaStream_t user_stream, int use_user, unsigned flags,
                    bb_cuda_queue **out);
cudaError_t bb_cu_queue_release(bb_cuda_queue *q);

/* The backend table's queue entries (backend.h). */
int bb_cu_queue_create(batchblas_queue_t *out, int device, void *stream);
int bb_cu_queue_sync(batchblas_queue_t pq);
void *bb_cu_queue_stream(batchblas_queue_t pq);
int bb_cu_queue_destroy(batchblas_queue_t pq);

/* Launch grouping (segments.cu) */

/* A run of problems with one normalised parameter set. */
struct segment {
    bb_problem gp;     /* parameters (user lds), pointers unused */
    int64_t first;     /* idx == NULL: first problem; else offset in idx */
    int64_t n;         /* problems in the run (skipped ones included for
                          the group/fixed/strided forms) */
    double cost;
};

static inline int64_t seg_problem(const segment &s, const int64_t *idx, int64_t t)
{
    return idx ? idx[s.first + t] : s.first + t;
}

/* The user's operand slot behind normalised slot o. */
static inline int orig_slot(const bb_problem &gp, int o) { return bb_user_slot(&gp, o); }

/* Splits the batch into launches, largest first (segments.cu: the
   variable form's problems sorted into *idx_out; only != NULL: the
   variable form's problems i with only[i] alone; 0, or -1 if out of host
   memory). */
int bb_cu_build_segments(const bb_batch *b, int with_ld, segment **segs_out, int64_t *nseg_out,
                         int64_t **idx_out, int64_t *nidx_out, const unsigned char *only = NULL);

/* The variable form on device data (varplan.cu): problems bucketed into
   class launches (per-problem sizes, bb_dev_batch.vdim) where a register
   kernel takes them, a launch per parameter set elsewhere. */
struct var_launch {
    bb_problem gp;  /* parameters (user lds), pointers unused; a class
                       launch: the largest of each size */
    int64_t first;  /* slots [first, first + n) */
    int64_t n;
    int cls;        /* class launch (sizes per slot): its class (a kernel
                       bound, BB_VAR_MID or BB_VAR_DRIVER); 0: a launch of
                       equal sizes */
    double cost;
    double work3;   /* the sum over its problems of s^3, s the largest of
                       a problem's m, n, k: vwork's numerator */
    int64_t ext0, next; /* a driver launch: its slots by size, var_plan.ext[ext0 .. ext0 + next) */
};
/* s^3, s the largest of a problem's m, n, k (var_launch.work3) */
static inline double bb_var_size3(const bb_problem &q)
{
    const double s = q.m > q.n ? (q.m > q.k ? q.m : q.k) : (q.n > q.k ? q.n : q.k);
    return s * s * s;
}
struct var_run {    /* slots from start on (to the next run) have sizes dim */
    int64_t start;
    bb_vdim dim;
};
struct var_pad {    /* padding slots [end, end + len) of a bucket: sizes of slot first's problem */
    int32_t end, len, first;
};
struct var_kv {     /* a bucket (key) and a value: its problems (counts), or its first slot (plans) */
    int32_t key, val;
};
struct var_plan {
    int32_t *map;   /* [nslot]: slot -> problem; padding: -1 (runs), or
                       -1 - the problem whose sizes it takes (fast); a
                       fast plan's [0, placed) are left to the device */
    int64_t nslot;
    /* fast plans: the class buckets' slots [0, placed) are placed on the
       device (bb_cu_var_place): problem i goes to bucket ((n * R0 + m) *
       R2 + k) * R3 + nrhs (radix[]; a size that does not vary counts as
       0), whose slots start at the slot bk[] gives it (the buckets that
       hold problems, and only those: nb may be 2^19, and passes over all
       of them cost the host milliseconds; -1: not a class bucket) */
    int64_t placed;
    int64_t nb;
    int radix[4];
    var_kv *bk;     /* [nbk] */
    int64_t nbk;
    var_pad *pad;   /* [npad] */
    int64_t npad;
    /* fast (options, alpha, beta the same for every problem): each slot's
       sizes are read on the device from the user's raw parameter arrays,
       normalised field f (m, n, k, nrhs, lda, ldb, ldc) taken from raw
       slot src[f] (BB_M..BB_LDC) or the constant cst[f] where src[f] < 0;
       else from the runs */
    int fast;
    int src[7], cst[7];
    var_run *runs;  /* [nrun], by start */
    int64_t nrun;
    var_launch *launch; /* [nlaunch], largest first */
    var_ext *ext;   /* the driver launches' slots by size (var_launch.ext0) */
    int64_t next;
    int64_t nlaunch;
    int64_t nclass; /* of which class launches */
    double count_us; /* host time of the fast plan's counting pass (the verbose log) */
    int count_threads; /* ... and the threads that ran it */
};
/* Counting on the device (backend_cuda.cu, for the fast plan of a large
   batch): the batch's size arrays that the slots read (raw slots in
   increasing order: every slot some src[f] names) go to the queue's draw
   buffer through its pinned buffer on the side stream, where a kernel
   counts the problems into the nb buckets of radix[] (and those out of
   range); the host waits for the counts alone, not for the queue.  0 and
   cnt[nb + 1] filled, dc->done set; -1: the host counts instead. */
struct var_raw;
struct var_devcount {
    bb_cuda_queue *q;
    int done;          /* the arrays are in q->draw: nraw of count ints, in raw_slot order */
    int nraw, raw_slot[7];
    double copy_us, wait_us; /* host time: the key arrays' team copy; the rest's copy and the wait */
};
int bb_cu_var_count_dev(var_devcount *dc, const bb_batch *b, const int src[7], const int64_t radix[4], int64_t nb,
                        int64_t *cnt);
/* The counting kernel: raw[f] (f < 4) the device copies of the m, n, k,
   nrhs arrays (NULL: 0), counts[nb + 1] zeroed before; bad (NULL: none):
   per problem, nonzero where it is not counted. */
cudaError_t bb_cu_var_hist(const var_raw &r, const int64_t radix[4], unsigned *counts, int64_t nb, int64_t count,
                           cudaStream_t st, const int *bad = NULL);
/* The problems of a variable batch that go to cuBLAS's grouped GEMM
   (bb_cuda_var_grouped), launched on q before the plan is made: marked
   in b->pinfo (BB_GROUPED_MARK, counted in b->nbad) so that the plan
   leaves them out, until bb_cu_var_grouped_unmark.  Returns 0 (g->idx
   empty: none), or a BB_INFO_* code (nothing marked). */
#define BB_GROUPED_MARK INT32_MIN
struct var_grouped {
    int64_t *idx; /* the problems launched */
    int64_t n;
};
int bb_cu_var_grouped(bb_batch *b, bb_cuda_queue *q, var_grouped *g);
void bb_cu_var_grouped_unmark(bb_batch *b, var_grouped *g);
/* 0, or -1 if out of host memory (nothing to free then), or
   BB_VAR_NEEDS_HOST: b->par_on_device and the plan needs the parameters on
   the host (bb_cu_var_params_to_host, then plan again).  dc: the device
   counting of large fast plans (NULL: the host counts; required with
   b->par_on_device). */
#define BB_VAR_NEEDS_HOST 2
int bb_cu_var_plan(const bb_batch *b, var_plan *pl, var_devcount *dc = NULL);
/* Parameter arrays in device memory (b->par_on_device, front.c): the
   checks (backend.h var_check), which also read back the parameters of a
   sample of problems (the first that passed, then problems spread over
   the batch: bb_cuda_queue.vs_*); the device counting of the fast plan's
   buckets (the problems that failed skipped; 0, or -1); and the way back
   to the host path (the arrays copied to host buffers that *keep owns,
   the device codes into b->pinfo, b->par_on_device cleared; 0 or a
   BB_INFO_* code). */
int bb_cu_var_check(const bb_batch *b, const bb_rules *r, bb_var_check *vc, int **codes);
int bb_cu_var_count_devpar(bb_cuda_queue *q, const bb_batch *b, const int src[7], const int64_t radix[4], int64_t nb,
                           std::vector<var_kv> *nz, int64_t *nslow);
int bb_cu_var_params_to_host(bb_batch *b, std::vector<std::vector<char>> *keep);
void bb_cu_var_plan_free(var_plan *pl);
/* Per slot on the device: sizes (vdim) and the skip flag of padding
   (info: 1 for padding, 0 otherwise), from the runs and map there. */
cudaError_t bb_cu_var_expand(const var_run *runs, int64_t nrun, const int32_t *map, bb_vdim *vdim, int *info,
                             int64_t nslot, cudaStream_t st);
/* The same for a fast plan: raw[f] = the device copy of the raw array
   src[f] (NULL where src[f] < 0). */
struct var_raw {
    const int *raw[7];
    int cst[7];
};
cudaError_t bb_cu_var_expand_raw(const var_raw &r, const int32_t *map, bb_vdim *vdim, int *info, int64_t nslot,
                                 cudaStream_t st);
/* A fast plan's class slots on the device: map, vdim and info of slots
   [0, pl.placed) (as bb_cu_var_expand_raw writes them) from the raw size
   arrays r (device copies), bk (pl.bk on the device), at and cur (pl.nb
   first slots and counters, scratch), pad (pl.pad on the device) and bad
   (the front end's codes on the device, or NULL when no problem failed
   its checks).  The order of a bucket's problems among its slots is not
   fixed (atomics): each problem's results do not depend on it. */
cudaError_t bb_cu_var_place(const var_raw &r, const var_plan &pl, const int *bad, const var_kv *bk, int32_t *at,
                            int32_t *cur, const var_pad *pad, int32_t *map, bb_vdim *vdim, int *info, int64_t count,
                            cudaStream_t st);

/* Bytes of one element of normalised operand slot o. */
size_t bb_cu_operand_elem(const bb_batch *b, int o);

/* Marks every not-skipped problem of the segments as failed with `code`,
   and the batch as failed on the device (b->device_fail, for the front
   end's error handler call). */
void bb_cu_fail_all(bb_batch *b, int code);

/* Host data (staging.cu): the staging pipeline, synchronous, on the
   current device; bb_cu_run_host_on: over ndev pipelines at once, one per
   entry of devices (-1 or devices NULL: the current device; an id may
   repeat), which claim the batch's chunks from one list, so that they
   finish together; ms (NULL or ndev entries): when each pipeline finished,
   in milliseconds after the call's start. */
void bb_cu_run_host(bb_batch *b);
void bb_cu_run_host_on(bb_batch *b, int ndev, const int *devices, double *ms);
