/*
 * The CUDA backend driver: the plugin entry point, queues, the staging of
 * host data, grouping of problems into launches, and the info codes.
 * Which kernel runs a launch is decided by launch.cu (bb_cuda_launch).
 *
 * Launches.  A launch is one uniform normalised parameter set (bb_problem)
 * applied to a run of problems: the fixed and strided forms are one launch,
 * the group form one per group, the variable form one per distinct
 * parameter set (problems sorted by their parameters).  Launches are issued
 * largest first.  Operand slots in bb_dev_batch are the NORMALISED slots:
 * when the normalisation swapped A and B (row-major gemm) the driver swaps
 * the user's operands accordingly and passes the launch's bb_problem with
 * swap_ab = 0, so a kernel never exchanges them again.
 *
 * Host data (the plain calls, synchronous).  Each call takes a staging
 * context from a per-device pool (created lazily, at most BB_CTX_MAX per
 * device, so concurrent host threads never share one): two slots, each a
 * private queue (stream, cuBLAS handle, workspace) with a pinned host buffer
 * and a device buffer.  The problems are cut into chunks of at most
 * BATCHBLAS_CUDA_STAGE_BYTES (default 128 MB); chunk j uses slot j % 2:
 *   wait for slot (chunk j-2) -> scatter j-2 -> gather j into pinned memory
 *   -> H2D -> one launch per piece -> D2H (all on the slot's stream)
 * so the host gathers/scatters one chunk while the device copies and
 * computes the other.  The gather and the scatter of a chunk are cut into
 * units of whole problems (contiguous byte ranges where the operand is
 * compact and strided) that a team of host threads claims one at a time:
 * the calling thread plus helpers from a process-wide pool (stage_copy.cu),
 * BATCHBLAS_CUDA_STAGE_THREADS in all (default min(16, cores)); pipelines
 * running at once (the shares of a spread batch, concurrent callers) divide
 * max(that, cores) threads between them, at least 1 each.  A thread
 * writes only its units' problems (buffer regions, user operands, pinfo
 * entries), so the result is the same bits as one thread's.  (The user's
 * memory is not registered with cudaHostRegister instead: pinning pages
 * costs about as much per byte as copying them, would be paid on every call
 * unless registrations were cached on memory the library does not own, and
 * only compact strided operands could be copied from it directly.)  In a
 * chunk each operand is compact (ld = rows of the stored view; row-major LU
 * data stays row-major, ld = its columns), laid out
 * [read-only operands][info][read-write operands][write-only operands] so
 * that H2D and D2H are one copy each.  Skipped problems (pinfo != 0) are not
 * gathered, keep their nonzero info on the device (kernels skip them) and are
 * never scattered.  A CUDA failure: every problem not yet scattered gets
 * BB_INFO_DEVICE.
 *
 * Device data (the _dev calls, asynchronous on b->queue).  Pointer arrays in
 * host memory are copied to the queue's driver scratch; the variable form
 * gathers the pointers of each launch into sorted arrays (on the host, or by
 * a small kernel when the array is in device memory).  Info lives in the
 * scratch, initialised from pinfo.  With the caller's info in host memory
 * the codes are read back (and the stream synchronised) only when
 * b->mode != BblasErrorsReportNone; with info in device memory they are
 * folded into it on the queue by two small kernels (bb_fold_codes,
 * bb_fold_first), and nothing is waited for.  The front end's fetch and
 * store hooks (info and parameter arrays in device memory) copy on a
 * private non-blocking stream per device, or on the queue.
 *
 * A failure known on the host (a CUDA call, an allocation or a launch that
 * returns an error) sets b->device_fail besides the problems' codes
 * (fail_all), so that the front end calls the error handler in every info
 * mode; nothing is synchronised for it.
 *
 * Nothing here runs before the loader's probe (no constructors), nothing
 * prints unless BATCHBLAS_VERBOSE is set.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <vector>
#include "cuda_internal.h"
#include "stage_copy.h"

/* ------------------------------------------------------------------------- */
/* Configuration and log                                                      */
/* ------------------------------------------------------------------------- */

/* Staging buffer per slot (host pinned and device): the default bound. */
static const size_t BB_STAGE_BYTES_DEFAULT = (size_t)128 << 20;
/* Smallest chunk worth a pipeline step (a smaller batch is one chunk). */
static const size_t BB_STAGE_MIN_CHUNK = (size_t)4 << 20;
/* Staging contexts per device (host threads beyond this wait). */
static const int BB_CTX_MAX = 4;
/* Alignment of every region in the staging and scratch buffers. */
static const size_t BB_ALIGN = 128;
/* Host threads that copy one pipeline's chunks into and out of the pinned
   buffers, the calling thread included: min(this, cores) by default.  One
   core copies pageable memory at 5-10 GB/s; the link moves 50+ GB/s each
   way and the host must gather and scatter at once.  Measured on the H100
   machine (16 cores, dpotrf/dtrsm/dsyrk/dgesv n = 16..256, ~1 GB of counted
   bytes, doc/performance.md "Host data"): 1 thread 170-200 ms, 2: 95-110,
   4: 58-70, 8: 40-46, 16: 32-41; host memory bandwidth bounds it beyond.
   The calling thread waits for the call anyway, so the cores are the
   caller's to use.  BATCHBLAS_CUDA_STAGE_THREADS overrides it (1: every
   copy on the calling thread, as before the pool). */
static const int BB_STAGE_THREADS_DEFAULT = 16;
static const int BB_STAGE_THREADS_LIMIT = 256;
/* A unit of copy work (claimed by one thread at a time): whole problems of
   at least this many bytes, and about this many units per thread in a
   chunk, so that the threads finish together. */
static const size_t BB_STAGE_UNIT_MIN = (size_t)256 << 10;
static const size_t BB_STAGE_UNITS_PER_THREAD = 8;

static pthread_once_t cfg_once = PTHREAD_ONCE_INIT;
static int cfg_verbose = 0;
static size_t cfg_stage_bytes = BB_STAGE_BYTES_DEFAULT;
static int cfg_stage_threads = 1;  /* per pipeline */
static int cfg_stage_budget = 1;   /* over the pipelines running at once */

static void read_cfg(void)
{
    const char *v = getenv("BATCHBLAS_VERBOSE");
    if (v) cfg_verbose = atoi(v);
    /* BATCHBLAS_CUDA_STAGE_BYTES: staging bound per slot (testing, tuning) */
    const char *s = getenv("BATCHBLAS_CUDA_STAGE_BYTES");
    if (s && *s) {
        long long x = atoll(s);
        if (x >= 4096) cfg_stage_bytes = (size_t)x;
    }
    /* BATCHBLAS_CUDA_STAGE_THREADS: copy threads per pipeline (tuning) */
    const int cores = bb_stage_host_cores();
    cfg_stage_threads = cores < BB_STAGE_THREADS_DEFAULT ? cores : BB_STAGE_THREADS_DEFAULT;
    const char *t = getenv("BATCHBLAS_CUDA_STAGE_THREADS");
    if (t && *t) {
        long x = atol(t);
        if (x >= 1) cfg_stage_threads = x < BB_STAGE_THREADS_LIMIT ? (int)x : BB_STAGE_THREADS_LIMIT;
    }
    cfg_stage_budget = cfg_stage_threads > cores ? cfg_stage_threads : cores;
}

/* The plugin cannot reach libbatchblas's internal bb_log (hidden symbol in
   another shared object): the same output, enabled by BATCHBLAS_VERBOSE. */
static void cu_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void cu_log(const char *fmt, ...)
{
    pthread_once(&cfg_once, read_cfg);
    if (!cfg_verbose) return;
    va_list ap;
    va_start(ap, fmt);
    fputs("batchblas: cuda: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* Every failed runtime call also sets the thread's "last error"; clear it so
   that a later cudaGetLastError (kernels check their launches with it) does
   not report a failure that was already handled. */
static cudaError_t chk(cudaError_t e)
{
    if (e != cudaSuccess) (void)cudaGetLastError();
    return e;
}

static size_t align_up(size_t x, size_t a) { return (x + a - 1) / a * a; }

/* ------------------------------------------------------------------------- */
/* Allocation: every allocation of the plugin goes through these four, which  */
/* ask the library's fault hook first (src/common/fault.c: a test makes the   */
/* k-th allocation fail; unarmed it costs one load).  The loader hands the    */
/* hook over through bb_cuda_plugin_set_fault before the probe.               */
/* Launches: the same for the launch policy's entries (bb_cuda_launch asks    */
/* bb_cuda_launch_fault, cuda_internal.h), through                            */
/* bb_cuda_plugin_set_launch_fault: fault.c's second counter.                 */
/* ------------------------------------------------------------------------- */

static int (*g_fault_hit)(void) = NULL;
static int (*g_launch_fault_hit)(void) = NULL;

extern "C" __attribute__((visibility("default"))) void bb_cuda_plugin_set_fault(int (*hit)(void))
{
    g_fault_hit = hit;
}

extern "C" __attribute__((visibility("default"))) void bb_cuda_plugin_set_launch_fault(int (*hit)(void))
{
    g_launch_fault_hit = hit;
}

static bool fault_now(void) { return g_fault_hit && g_fault_hit(); }

bool bb_cuda_launch_fault(void) { return g_launch_fault_hit && g_launch_fault_hit(); }

static void *cu_malloc(size_t bytes) { return fault_now() ? NULL : malloc(bytes); }
static void *cu_calloc(size_t n, size_t size) { return fault_now() ? NULL : calloc(n, size); }

/* Pinned host memory (the staging buffers). */
static cudaError_t cu_pinned_alloc(void **p, size_t bytes)
{
    *p = NULL;
    if (fault_now()) return cudaErrorMemoryAllocation;
    return chk(cudaHostAlloc(p, bytes, cudaHostAllocPortable));
}

/* Device memory: stream-ordered on `stream` when `pools`, else cudaMalloc. */
static cudaError_t cu_dev_alloc(void **p, size_t bytes, int pools, cudaStream_t stream)
{
    *p = NULL;
    if (fault_now()) return cudaErrorMemoryAllocation;
    return pools ? chk(cudaMallocAsync(p, bytes, stream)) : chk(cudaMalloc(p, bytes));
}

/* The info code of a failed CUDA call: out of memory or anything else. */
static int fail_code(cudaError_t e)
{
    return e == cudaErrorMemoryAllocation ? BB_INFO_NOMEM : BB_INFO_DEVICE;
}

/* ------------------------------------------------------------------------- */
/* Queues                                                                     */
/* ------------------------------------------------------------------------- */

#define BB_QUEUE_MAGIC 0x62625175u

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
};

/* cuBLAS workspace per queue: 32 MiB, what cuBLAS documents for Hopper.  Set
   once with the stream: cublasSetStream resets a handle to the default
   workspace pool, so the kernels never call it again (small_gemm.cu). */
static const size_t BB_CUBLAS_WS = (size_t)32 << 20;

static bb_cuda_queue *priv(batchblas_queue *q) { return reinterpret_cast<bb_cuda_queue *>(q); }

static bb_cuda_queue *checked_queue(batchblas_queue_t q)
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

/* Device memory on the queue's stream: stream-ordered (cudaMallocAsync /
   cudaFreeAsync), so memory still read by earlier work on the stream is
   released only after that work; without memory pools the stream is
   synchronised first. */
static cudaError_t dev_free(bb_cuda_queue *q, void *p)
{
    if (!p) return cudaSuccess;
    if (q->pools) return chk(cudaFreeAsync(p, q->pub.stream));
    cudaError_t e = chk(cudaStreamSynchronize(q->pub.stream));
    cudaError_t f = chk(cudaFree(p));
    return e != cudaSuccess ? e : f;
}

/* Grows *p to at least `bytes` (contents are not kept). */
static cudaError_t dev_grow(bb_cuda_queue *q, void **p, size_t *size, size_t bytes, int geometric)
{
    if (bytes == 0) bytes = 1;
    if (*p && *size >= bytes) return cudaSuccess;
    size_t want = bytes;
    if (geometric && want < *size + *size / 2) want = *size + *size / 2;
    want = align_up(want, (size_t)1 << 16);
    cudaError_t e = dev_free(q, *p);
    *p = NULL;
    *size = 0;
    if (e != cudaSuccess) return e;
    void *n = NULL;
    e = cu_dev_alloc(&n, want, q->pools, q->pub.stream);
    if (e != cudaSuccess) return e;
    *p = n;
    *size = want;
    return cudaSuccess;
}

/* Kernels' workspaces (cuda_internal.h): grown on the queue's stream. */
static void *workspace(batchblas_queue *pq, void **buf, size_t *size, size_t bytes)
{
    if (!pq) return NULL;
    if (bytes == 0) bytes = 1;
    if (*buf && *size >= bytes) return *buf;
    if (dev_grow(priv(pq), buf, size, bytes, 1) != cudaSuccess) {
        cu_log("workspace of %zu bytes: allocation failed", bytes);
        return NULL;
    }
    return *buf;
}

void *bb_cuda_workspace(batchblas_queue *pq, size_t bytes)
{
    return pq ? workspace(pq, &pq->work, &pq->work_size, bytes) : NULL;
}

void *bb_cuda_workspace2(batchblas_queue *pq, size_t bytes)
{
    return pq ? workspace(pq, &pq->work2, &pq->work2_size, bytes) : NULL;
}

/* Releases everything of a queue; returns the first error. */
static cudaError_t queue_release(bb_cuda_queue *q)
{
    cudaError_t first = cudaSuccess;
#define KEEP(e) do { cudaError_t e_ = (e); if (first == cudaSuccess) first = e_; } while (0)
    device_scope ds(q->pub.device);
    if (!ds.ok) KEEP(cudaErrorInvalidDevice);
    if (q->pub.stream || !q->pub.own_stream) KEEP(chk(cudaStreamSynchronize(q->pub.stream)));
    KEEP(dev_free(q, q->scratch));
    KEEP(dev_free(q, q->pub.work));
    KEEP(dev_free(q, q->pub.work2));
    q->scratch = q->pub.work = q->pub.work2 = NULL;
    q->scratch_size = q->pub.work_size = q->pub.work2_size = 0;
    if (q->pools) KEEP(chk(cudaStreamSynchronize(q->pub.stream)));
    if (q->pub.cublas) {
        if (cublasDestroy(q->pub.cublas) != CUBLAS_STATUS_SUCCESS) KEEP(cudaErrorUnknown);
        q->pub.cublas = NULL;
    }
    if (q->cublas_ws) KEEP(chk(cudaFree(q->cublas_ws)));
    q->cublas_ws = NULL;
    if (q->pub.own_stream && q->pub.stream) {
        KEEP(chk(cudaStreamDestroy(q->pub.stream)));
        q->pub.stream = NULL;
    }
#undef KEEP
    q->magic = 0;
    free(q);
    return first;
}

/* New queue on `device`: on `user_stream` if given (not owned), else on a
   new stream created with `flags`.  Returns a BblasSuccess / BblasErr* code. */
static int queue_new(int device, cudaStream_t user_stream, int use_user, unsigned flags,
                     bb_cuda_queue **out)
{
    *out = NULL;
    bb_cuda_queue *q = (bb_cuda_queue *)cu_calloc(1, sizeof *q);
    if (!q) return BblasErrNoMemory;
    q->magic = BB_QUEUE_MAGIC;
    q->pub.device = device;
    q->pub.own_stream = 0;
    device_scope ds(device);
    if (!ds.ok) {
        free(q);
        return BblasErrDevice;
    }
    cudaError_t e;
    if (use_user) {
        q->pub.stream = user_stream;
    } else {
        e = chk(cudaStreamCreateWithFlags(&q->pub.stream, flags));
        if (e != cudaSuccess) {
            cu_log("queue on device %d: cudaStreamCreate: %s", device, cudaGetErrorString(e));
            free(q);
            return BblasErrDevice;
        }
        q->pub.own_stream = 1;
    }
    int v = 0;
    if (chk(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, device)) != cudaSuccess) v = 0;
    q->pub.sm_count = v > 0 ? v : 1;
    v = 0;
    if (chk(cudaDeviceGetAttribute(&v, cudaDevAttrMemoryPoolsSupported, device)) != cudaSuccess) v = 0;
    q->pools = v != 0;
    cublasStatus_t s = cublasCreate(&q->pub.cublas);
    if (s == CUBLAS_STATUS_SUCCESS) s = cublasSetStream(q->pub.cublas, q->pub.stream);
    if (s == CUBLAS_STATUS_SUCCESS && cu_dev_alloc(&q->cublas_ws, BB_CUBLAS_WS, 0, NULL) != cudaSuccess) {
        q->cublas_ws = NULL;
        s = CUBLAS_STATUS_ALLOC_FAILED;
    }
    if (s == CUBLAS_STATUS_SUCCESS) s = cublasSetWorkspace(q->pub.cublas, q->cublas_ws, BB_CUBLAS_WS);
    if (s != CUBLAS_STATUS_SUCCESS) {
        cu_log("queue on device %d: cuBLAS handle: status %d", device, (int)s);
        (void)cudaGetLastError();
        (void)queue_release(q);
        return s == CUBLAS_STATUS_ALLOC_FAILED ? BblasErrNoMemory : BblasErrDevice;
    }
    *out = q;
    return BblasSuccess;
}

/* ------------------------------------------------------------------------- */
/* Probe, device count, staging-context pool                                  */
/* ------------------------------------------------------------------------- */

static int g_ndev = 0;
static cudaStream_t *g_side = NULL; /* [g_ndev]: private streams (side_copy) */

/* Gathers pointers: dst[t] = src[idx[t]] (variable form, device arrays). */
__global__ void bb_gather_ptrs(void *const *src, const int64_t *idx, void **dst, int64_t n)
{
    int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < n; t += step)
        dst[t] = src[idx[t]];
}

static int cu_probe(void)
{
    pthread_once(&cfg_once, read_cfg);
    int n = 0;
    cudaError_t e = chk(cudaGetDeviceCount(&n));
    if (e != cudaSuccess || n <= 0) {
        cu_log("no device (%s)", e != cudaSuccess ? cudaGetErrorString(e) : "count 0");
        return 0;
    }
    /* the plugin's kernels must have an image for the current device */
    cudaFuncAttributes fa;
    e = chk(cudaFuncGetAttributes(&fa, (const void *)bb_gather_ptrs));
    if (e != cudaSuccess) {
        cu_log("device not usable by this build: %s", cudaGetErrorString(e));
        return 0;
    }
    g_side = (cudaStream_t *)cu_calloc((size_t)n, sizeof *g_side);
    if (!g_side) return 0;
    g_ndev = n;
    cu_log("%d device(s)", n);
    return 1;
}

static int cu_supports(const bb_batch *b) { return bb_cuda_launch_supports(b->op, b->prec); }

/* One pipeline slot of a staging context. */
struct stage_slot {
    bb_cuda_queue *q;   /* its stream; device buffer = q->scratch */
    char *host;         /* pinned */
    size_t host_size;
};

struct stage_ctx {
    int device;
    int broken;         /* a failed synchronisation: do not reuse */
    stage_slot slot[2];
    stage_ctx *next;    /* idle list */
};

static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_cv = PTHREAD_COND_INITIALIZER;
static stage_ctx *pool_idle = NULL;
static int pool_live[64];   /* contexts alive per device (devices >= 64 share the last) */

static int *live_count(int dev) { return &pool_live[dev < 63 ? dev : 63]; }

static void ctx_destroy(stage_ctx *c)
{
    device_scope ds(c->device);
    for (int s = 0; s < 2; s++) {
        stage_slot *sl = &c->slot[s];
        if (sl->q) (void)chk(cudaStreamSynchronize(sl->q->pub.stream));
        if (sl->host) (void)chk(cudaFreeHost(sl->host));
        sl->host = NULL;
        sl->host_size = 0;
        if (sl->q) (void)queue_release(sl->q);
        sl->q = NULL;
    }
    free(c);
}

static stage_ctx *ctx_create(int device, int *why)
{
    *why = BB_INFO_NOMEM;
    stage_ctx *c = (stage_ctx *)cu_calloc(1, sizeof *c);
    if (!c) return NULL;
    c->device = device;
    for (int s = 0; s < 2; s++) {
        int rc = queue_new(device, NULL, 0, cudaStreamNonBlocking, &c->slot[s].q);
        if (rc != BblasSuccess) {
            *why = rc == BblasErrNoMemory ? BB_INFO_NOMEM : BB_INFO_DEVICE;
            ctx_destroy(c);
            return NULL;
        }
    }
    cu_log("staging context on device %d", device);
    return c;
}

/* A context for this thread's call on `device`: an idle one, a new one, or
   (BB_CTX_MAX busy) the next one released.  NULL if creation fails, with
   *why the code for the problems (BB_INFO_NOMEM or BB_INFO_DEVICE). */
static stage_ctx *ctx_acquire(int device, int *why)
{
    pthread_mutex_lock(&pool_mu);
    for (;;) {
        stage_ctx **pp = &pool_idle;
        while (*pp && (*pp)->device != device) pp = &(*pp)->next;
        if (*pp) {
            stage_ctx *c = *pp;
            *pp = c->next;
            c->next = NULL;
            pthread_mutex_unlock(&pool_mu);
            return c;
        }
        if (*live_count(device) < BB_CTX_MAX) break;
        pthread_cond_wait(&pool_cv, &pool_mu);
    }
    ++*live_count(device);
    pthread_mutex_unlock(&pool_mu);
    stage_ctx *c = ctx_create(device, why);
    if (!c) {
        pthread_mutex_lock(&pool_mu);
        --*live_count(device);
        pthread_cond_broadcast(&pool_cv);
        pthread_mutex_unlock(&pool_mu);
    }
    return c;
}

static void ctx_release(stage_ctx *c)
{
    if (c->broken) {
        int device = c->device;
        ctx_destroy(c);
        pthread_mutex_lock(&pool_mu);
        --*live_count(device);
    } else {
        pthread_mutex_lock(&pool_mu);
        c->next = pool_idle;
        pool_idle = c;
    }
    pthread_cond_broadcast(&pool_cv);
    pthread_mutex_unlock(&pool_mu);
}

/* ------------------------------------------------------------------------- */
/* Launch grouping (both paths)                                               */
/* ------------------------------------------------------------------------- */

/* A run of problems with one normalised parameter set. */
struct segment {
    bb_problem gp;     /* parameters (user lds), pointers unused */
    int64_t first;     /* idx == NULL: first problem; else offset in idx */
    int64_t n;         /* problems in the run (skipped ones included for
                          the group/fixed/strided forms) */
    double cost;
};

static int64_t seg_problem(const segment &s, const int64_t *idx, int64_t t)
{
    return idx ? idx[s.first + t] : s.first + t;
}

static size_t real_size(bb_prec p) { return (p == BB_P_S || p == BB_P_C) ? sizeof(float) : sizeof(double); }

/* Equality of two problems' raw parameters in a variable batch (layout is
   uniform, so equal raw parameters mean equal normalised problems).
   Leading dimensions count only for device data. */
struct var_key {
    const bb_batch *b;
    size_t asz, bsz;
    const int *act[BB_NPAR]; /* the parameter arrays that count */
    int na;
    var_key(const bb_batch *bt, int with_ld) : b(bt), asz(bb_scalar_bytes(bt, 0)), bsz(bb_scalar_bytes(bt, 1)), na(0)
    {
        for (int s = 0; s < BB_NPAR; s++)
            if (b->par[s] && (with_ld || (s != BB_LDA && s != BB_LDB && s != BB_LDC))) act[na++] = b->par[s];
    }
    bool same(int64_t x, int64_t y) const
    {
        for (int s = 0; s < na; s++)
            if (act[s][x] != act[s][y]) return false;
        if (b->alpha && memcmp((const char *)b->alpha + x * asz, (const char *)b->alpha + y * asz, asz))
            return false;
        if (b->beta && memcmp((const char *)b->beta + x * bsz, (const char *)b->beta + y * bsz, bsz))
            return false;
        return true;
    }
};

/* Groups the not-skipped problems of a variable batch by their raw
   parameters in linear time: a hash table (open addressing, grown at half
   load) maps each parameter set to a segment; the problems are then laid
   out segment by segment, in index order within each (a counting sort).
   (It replaces a comparison sort of the problems.) */
struct var_groups {
    std::vector<int64_t> rep, start, count; /* per segment: first problem, offset, size */
    int64_t nseg = 0;

    static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001b3ull; }
    static uint64_t hash(const var_key &l, int64_t x)
    {
        const bb_batch *b = l.b;
        uint64_t h = 0xcbf29ce484222325ull;
        for (int s = 0; s < l.na; s++) h = mix(h, (uint32_t)l.act[s][x]);
        const unsigned char *ab[2] = {b->alpha ? (const unsigned char *)b->alpha + x * l.asz : NULL,
                                      b->beta ? (const unsigned char *)b->beta + x * l.bsz : NULL};
        const size_t sz[2] = {l.asz, l.bsz};
        for (int k = 0; k < 2; k++)
            if (ab[k])
                for (size_t e = 0; e < sz[k]; e++) h = mix(h, ab[k][e]);
        return h ^ (h >> 29);
    }

    /* Returns the problems in segment order (malloc'ed, ngood entries), or
       NULL if out of memory. */
    int64_t *run(const var_key &l, int64_t ngood)
    {
        const bb_batch *b = l.b;
        std::vector<int32_t> seg_of;
        struct slot { uint64_t h; int64_t seg; };
        std::vector<slot> tab;
        try {
            seg_of.resize((size_t)ngood);
            tab.assign(1024, slot{0, -1});
        } catch (...) {
            return NULL;
        }
        size_t mask = tab.size() - 1;
        int64_t t = 0;
        for (int64_t i = 0; i < b->count; i++) {
            if (b->pinfo[i]) continue;
            const uint64_t h = hash(l, i);
            size_t at = (size_t)h & mask;
            while (tab[at].seg >= 0 && !(tab[at].h == h && l.same(rep[(size_t)tab[at].seg], i))) at = (at + 1) & mask;
            int64_t sg = tab[at].seg;
            if (sg < 0) { /* a new parameter set */
                try {
                    rep.push_back(i);
                    count.push_back(0);
                } catch (...) {
                    return NULL;
                }
                sg = nseg++;
                tab[at] = slot{h, sg};
                if ((size_t)nseg * 2 > tab.size()) { /* grow and re-insert */
                    std::vector<slot> big;
                    try {
                        big.assign(tab.size() * 2, slot{0, -1});
                    } catch (...) {
                        return NULL;
                    }
                    const size_t bm = big.size() - 1;
                    for (const slot &e : tab) {
                        if (e.seg < 0) continue;
                        size_t a = (size_t)e.h & bm;
                        while (big[a].seg >= 0) a = (a + 1) & bm;
                        big[a] = e;
                    }
                    tab.swap(big);
                    mask = bm;
                }
            }
            seg_of[(size_t)t++] = (int32_t)sg;
            count[(size_t)sg]++;
        }
        try {
            start.resize((size_t)nseg);
        } catch (...) {
            return NULL;
        }
        int64_t off = 0;
        for (int64_t k = 0; k < nseg; k++) {
            start[(size_t)k] = off;
            off += count[(size_t)k];
        }
        std::vector<int64_t> pos;
        try {
            pos = start;
        } catch (...) {
            return NULL;
        }
        int64_t *idx = (int64_t *)cu_malloc((size_t)ngood * sizeof *idx);
        if (!idx) return NULL;
        t = 0;
        for (int64_t i = 0; i < b->count; i++)
            if (!b->pinfo[i]) idx[pos[(size_t)seg_of[(size_t)t++]]++] = i;
        return idx;
    }
};

static bool seg_bigger(const segment &x, const segment &y)
{
    if (x.cost != y.cost) return x.cost > y.cost;
    return x.first < y.first;
}

/*
 * Splits the batch into launches.  *idx (variable form only) receives the
 * problems that are not skipped, sorted so that each segment is a run of it;
 * other forms leave *idx NULL and segments are ranges of problems.  Segments
 * whose problems are all skipped are left out.  Returns 0, or -1 if out of
 * host memory.
 */
static int build_segments(const bb_batch *b, int with_ld, segment **segs_out, int64_t *nseg_out,
                          int64_t **idx_out, int64_t *nidx_out)
{
    *segs_out = NULL;
    *nseg_out = 0;
    *idx_out = NULL;
    *nidx_out = 0;
    segment *segs = NULL;
    int64_t nseg = 0;

    if (b->form == BB_FORM_VAR) {
        int64_t ngood = 0;
        for (int64_t i = 0; i < b->count; i++) ngood += b->pinfo[i] == 0;
        if (ngood == 0) return 0;
        const var_key key(b, with_ld);
        var_groups vg;
        int64_t *idx = vg.run(key, ngood);
        if (!idx) return -1;
        segs = (segment *)cu_malloc((size_t)vg.nseg * sizeof *segs);
        if (!segs) {
            free(idx);
            return -1;
        }
        for (int64_t k = 0; k < vg.nseg; k++) {
            segment &s = segs[nseg++];
            bb_group_problem(b, vg.rep[k], &s.gp);
            s.first = vg.start[k];
            s.n = vg.count[k];
        }
        *idx_out = idx;
        *nidx_out = ngood;
    } else {
        segs = (segment *)cu_malloc((size_t)(b->ngroups > 0 ? b->ngroups : 1) * sizeof *segs);
        if (!segs) return -1;
        for (int64_t g = 0; g < b->ngroups; g++) {
            int64_t first = bb_group_first(b, g), last = bb_group_first(b, g + 1);
            int any = 0;
            for (int64_t i = first; i < last && !any; i++) any = b->pinfo[i] == 0;
            if (!any) continue;
            segment &s = segs[nseg++];
            bb_group_problem(b, g, &s.gp);
            s.first = first;
            s.n = last - first;
        }
    }
    for (int64_t k = 0; k < nseg; k++) {
        segment &s = segs[k];
        s.cost = bb_problem_flops(b, &s.gp) * (double)s.n + (double)s.n;
    }
    std::sort(segs, segs + nseg, seg_bigger);
    *segs_out = segs;
    *nseg_out = nseg;
    return 0;
}

/* The user's operand slot behind normalised slot o. */
static int orig_slot(const bb_problem &gp, int o)
{
    if (gp.swap_ab && o == BB_A) return BB_B;
    if (gp.swap_ab && o == BB_B) return BB_A;
    return o;
}

static int operand_present(const bb_batch *b, int orig)
{
    return b->opd[orig].arr != NULL || b->opd[orig].base != NULL;
}

static size_t operand_elem(const bb_batch *b, int o)
{
    if (o == BB_IPIV) return sizeof(int);
    if (o == BB_X || o == BB_Y) return real_size(b->prec);
    return bb_prec_size(b->prec);
}

static int64_t problem_ld(const bb_problem &p, int o, int r)
{
    if (o == BB_A) return p.lda;
    if (o == BB_B) return p.ldb;
    if (o == BB_C) return p.ldc;
    return r; /* ipiv, x, y: contiguous */
}

/* Marks every not-skipped problem of the segments as failed with `code`,
   and the batch as failed on the device (b->device_fail, for the front
   end's error handler call). */
static void fail_all(bb_batch *b, int code)
{
    if (!b->device_fail) b->device_fail = code;
    for (int64_t i = 0; i < b->count; i++)
        if (b->pinfo[i] == 0) b->pinfo[i] = code;
}

/* ------------------------------------------------------------------------- */
/* Host data: staging                                                         */
/* ------------------------------------------------------------------------- */

enum { CAT_RO = 0, CAT_RW = 1, CAT_WO = 2 };

/* How a segment's operands are staged (identical for all its problems). */
struct seg_plan {
    int used[BB_NOPD];   /* staged at all */
    int orig[BB_NOPD];   /* the user's slot */
    int r[BB_NOPD], c[BB_NOPD];
    int64_t elems[BB_NOPD];
    size_t es[BB_NOPD];
    int cat[BB_NOPD];
    size_t pb;           /* bytes per problem, info included */
};

static void make_plan(const bb_batch *b, const bb_problem &gp, seg_plan *sp)
{
    int beta0 = gp.beta[0] == 0.0 && gp.beta[1] == 0.0;
    int c_full = b->op == BB_OP_GEMM || b->op == BB_OP_SYMM || b->op == BB_OP_HEMM;
    sp->pb = sizeof(int);
    for (int o = 0; o < BB_NOPD; o++) {
        int r = 0, c = 0;
        sp->orig[o] = orig_slot(gp, o);
        sp->used[o] = operand_present(b, sp->orig[o]);
        if (sp->used[o]) bb_operand_dims(b->op, &gp, o, &r, &c);
        if (r < 0) r = 0;
        if (c < 0) c = 0;
        sp->r[o] = r;
        sp->c[o] = c;
        sp->elems[o] = (int64_t)r * c;
        sp->es[o] = operand_elem(b, o);
        /* C of gemm/symm/hemm with beta == 0 is written in full and not
           read: not copied in.  Every other written operand is copied in,
           so parts a kernel leaves alone (a triangle, a failed problem) go
           back unchanged. */
        if (!bb_op_writes(b->op, o)) sp->cat[o] = CAT_RO;
        else if (o == BB_C && c_full && beta0) sp->cat[o] = CAT_WO;
        else sp->cat[o] = CAT_RW;
        if (sp->used[o]) sp->pb += (size_t)sp->elems[o] * sp->es[o];
    }
}

/* A part of one segment inside a chunk: positions [p0, p1). */
struct piece {
    int64_t seg, p0, p1;
    size_t off[BB_NOPD];
    size_t off_info;
};

/* A chunk: pieces [q0, q1), one H2D of [0, h2d_end), one D2H of
   [d2h_begin, total). */
struct chunk {
    int64_t q0, q1;
    size_t h2d_end, d2h_begin, total;
};

/* Lays the pieces of a chunk out by category. */
static void layout_chunk(chunk *ch, piece *pcs, const seg_plan *plans)
{
    size_t pos = 0;
    for (int pass = 0; pass < 4; pass++) {
        /* pass 0: read-only; 1: info; 2: read-write; 3: write-only */
        if (pass == 1) ch->d2h_begin = pos;
        if (pass == 3) ch->h2d_end = pos;
        for (int64_t k = ch->q0; k < ch->q1; k++) {
            piece &pc = pcs[k];
            const seg_plan &sp = plans[pc.seg];
            size_t n = (size_t)(pc.p1 - pc.p0);
            if (pass == 1) {
                pc.off_info = pos;
                pos = align_up(pos + n * sizeof(int), BB_ALIGN);
                continue;
            }
            int want = pass == 0 ? CAT_RO : pass == 2 ? CAT_RW : CAT_WO;
            for (int o = 0; o < BB_NOPD; o++) {
                if (!sp.used[o] || sp.cat[o] != want) continue;
                pc.off[o] = pos;
                pos = align_up(pos + n * (size_t)sp.elems[o] * sp.es[o], BB_ALIGN);
            }
        }
    }
    ch->total = pos;
}

/*
 * Cuts the segments, in launch order, into chunks of at most `target` bytes
 * (a chunk holds at least one problem, so one problem above the bound is a
 * chunk of its own).  Counts only when pcs/chs are NULL.
 */
static void plan_chunks(const segment *segs, const seg_plan *plans, int64_t nseg, size_t target,
                        piece *pcs, chunk *chs, int64_t *npc_out, int64_t *nch_out)
{
    const size_t slack = 8 * BB_ALIGN; /* alignment of a piece's regions (<= 7 x 127) */
    int64_t npc = 0, nch = 0;
    size_t room = 0;
    for (int64_t k = 0; k < nseg; k++) {
        const size_t pb = plans[k].pb;
        for (int64_t p0 = 0; p0 < segs[k].n;) {
            size_t fit = room > slack ? (room - slack) / pb : 0;
            if (nch == 0 || fit == 0) { /* open the next chunk */
                if (chs) chs[nch].q0 = chs[nch].q1 = npc;
                nch++;
                room = target;
                fit = room > slack ? (room - slack) / pb : 0;
                if (fit == 0) fit = 1;
            }
            int64_t take = segs[k].n - p0;
            if ((uint64_t)take > (uint64_t)fit) take = (int64_t)fit;
            if (pcs) {
                pcs[npc].seg = k;
                pcs[npc].p0 = p0;
                pcs[npc].p1 = p0 + take;
                chs[nch - 1].q1 = npc + 1;
            }
            npc++;
            size_t used = (size_t)take * pb + slack;
            room = room > used ? room - used : 0;
            p0 += take;
        }
    }
    *npc_out = npc;
    *nch_out = nch;
}

static void copy_in(char *dst, const char *src, int r, int c, int64_t ld, size_t es)
{
    if (!src || r <= 0 || c <= 0) return;
    size_t col = (size_t)r * es;
    if (ld == r || c == 1) {
        memcpy(dst, src, col * (size_t)c);
        return;
    }
    for (int j = 0; j < c; j++) memcpy(dst + (size_t)j * col, src + (size_t)j * (size_t)ld * es, col);
}

static void copy_out(char *dst, const char *src, int r, int c, int64_t ld, size_t es)
{
    if (!dst || r <= 0 || c <= 0) return;
    size_t col = (size_t)r * es;
    if (ld == r || c == 1) {
        memcpy(dst, src, col * (size_t)c);
        return;
    }
    for (int j = 0; j < c; j++) memcpy(dst + (size_t)j * (size_t)ld * es, src + (size_t)j * col, col);
}

static void *host_ptr(const bb_problem &p, int o)
{
    switch (o) {
    case BB_A: return p.a;
    case BB_B: return p.b;
    case BB_C: return p.c;
    case BB_IPIV: return p.ipiv;
    case BB_X: return p.x;
    default: return p.y;
    }
}

/* The operand is base + stride and compact (ld == rows, stride == r*c):
   a contiguous run of problems is one memcpy. */
static int contiguous_operand(const bb_batch *b, const seg_plan &sp, const bb_problem &gp, int o)
{
    const bb_operand &d = b->opd[sp.orig[o]];
    if (d.arr || !d.base) return 0;
    if (o <= BB_C && problem_ld(gp, o, sp.r[o]) != sp.r[o] && sp.c[o] > 1) return 0;
    return d.stride == sp.elems[o];
}

/* Parameters of problem i with its own leading dimensions and pointers. */
static void problem_of(const bb_batch *b, const segment &s, int64_t i, bb_problem *p)
{
    if (b->form == BB_FORM_VAR) bb_group_problem(b, i, p);
    else *p = s.gp;
    bb_problem_data(b, i, p);
}

/* Gathers the problems at positions [t0, t1) of a piece (relative to
   pc.p0) into the pinned buffer: their info entries and every operand read
   by the device. */
static void gather_range(const bb_batch *b, const segment &s, const int64_t *idx, const seg_plan &sp,
                         const piece &pc, int64_t t0, int64_t t1, char *buf)
{
    int *info = (int *)(buf + pc.off_info);
    int fast[BB_NOPD];
    for (int o = 0; o < BB_NOPD; o++) {
        fast[o] = 0;
        if (!sp.used[o] || sp.cat[o] == CAT_WO || sp.elems[o] == 0) continue;
        if (!idx && contiguous_operand(b, sp, s.gp, o)) {
            size_t per = (size_t)sp.elems[o] * sp.es[o];
            int64_t i0 = s.first + pc.p0 + t0;
            const char *src = b->opd[sp.orig[o]].base + (size_t)i0 * per;
            memcpy(buf + pc.off[o] + (size_t)t0 * per, src, (size_t)(t1 - t0) * per);
            fast[o] = 1;
        }
    }
    for (int64_t t = t0; t < t1; t++) {
        int64_t i = seg_problem(s, idx, pc.p0 + t);
        info[t] = b->pinfo[i];
        if (b->pinfo[i]) continue; /* skipped: not read, not written */
        bb_problem p;
        problem_of(b, s, i, &p);
        for (int o = 0; o < BB_NOPD; o++) {
            if (!sp.used[o] || sp.cat[o] == CAT_WO || fast[o] || sp.elems[o] == 0) continue;
            size_t per = (size_t)sp.elems[o] * sp.es[o];
            copy_in(buf + pc.off[o] + (size_t)t * per, (const char *)host_ptr(p, o), sp.r[o], sp.c[o],
                    problem_ld(p, o, sp.r[o]), sp.es[o]);
        }
    }
}

/* Scatters the problems at positions [t0, t1) of a piece back to the
   user's operands and codes; only problems computed are written. */
static void scatter_range(bb_batch *b, const segment &s, const int64_t *idx, const seg_plan &sp,
                          const piece &pc, int64_t t0, int64_t t1, const char *buf)
{
    const int *info = (const int *)(buf + pc.off_info);
    /* all problems of the range computed and none reports a device-side
       failure: the contiguous operands go back in one copy */
    int all = 1;
    for (int64_t t = t0; t < t1 && all; t++)
        all = b->pinfo[seg_problem(s, idx, pc.p0 + t)] == 0 && info[t] >= 0;
    int fast[BB_NOPD];
    for (int o = 0; o < BB_NOPD; o++) {
        fast[o] = 0;
        if (!sp.used[o] || sp.cat[o] == CAT_RO || sp.elems[o] == 0) continue;
        if (all && !idx && contiguous_operand(b, sp, s.gp, o)) {
            size_t per = (size_t)sp.elems[o] * sp.es[o];
            int64_t i0 = s.first + pc.p0 + t0;
            char *dst = b->opd[sp.orig[o]].base + (size_t)i0 * per;
            memcpy(dst, buf + pc.off[o] + (size_t)t0 * per, (size_t)(t1 - t0) * per);
            fast[o] = 1;
        }
    }
    for (int64_t t = t0; t < t1; t++) {
        int64_t i = seg_problem(s, idx, pc.p0 + t);
        if (b->pinfo[i]) continue; /* skipped on entry */
        int code = info[t];
        if (code < 0) { /* not a kernel code: nothing of it is written */
            b->pinfo[i] = code;
            continue;
        }
        bb_problem p;
        problem_of(b, s, i, &p);
        for (int o = 0; o < BB_NOPD; o++) {
            if (!sp.used[o] || sp.cat[o] == CAT_RO || fast[o] || sp.elems[o] == 0) continue;
            size_t per = (size_t)sp.elems[o] * sp.es[o];
            copy_out((char *)host_ptr(p, o), buf + pc.off[o] + (size_t)t * per, sp.r[o], sp.c[o],
                     problem_ld(p, o, sp.r[o]), sp.es[o]);
        }
        b->pinfo[i] = code;
    }
}

/* Pipelines (run_host calls) running now, over every device: they divide
   cfg_stage_budget copy threads between them. */
static int g_stage_active = 0;

/* The copy threads a pipeline step may use now: its share of the budget,
   at most cfg_stage_threads, at least 1. */
static int stage_threads_now(void)
{
    int a = __atomic_load_n(&g_stage_active, __ATOMIC_RELAXED);
    int n = cfg_stage_budget / (a > 1 ? a : 1);
    if (n > cfg_stage_threads) n = cfg_stage_threads;
    return n > 1 ? n : 1;
}

/* The gather (or the scatter) of one chunk, as units claimed by a team. */
struct copy_job {
    bb_batch *b;
    const segment *segs;
    const int64_t *idx;
    const seg_plan *plans;
    const piece *pcs;
    char *buf;
    int scatter;
    size_t unit;       /* bytes a unit aims at */
    int64_t q1;        /* the chunk's last piece + 1 */
    pthread_mutex_t mu;
    int64_t k, t;      /* the next unclaimed problem: piece k, position t */
};

/* Claims the next unit: positions [*t0, *t1) of piece *k; false when the
   chunk is all claimed. */
static bool claim_unit(copy_job *J, int64_t *k, int64_t *t0, int64_t *t1)
{
    bool got = false;
    pthread_mutex_lock(&J->mu);
    while (J->k < J->q1) {
        const piece &pc = J->pcs[J->k];
        int64_t left = pc.p1 - pc.p0 - J->t;
        if (left <= 0) {
            J->k++;
            J->t = 0;
            continue;
        }
        int64_t take = (int64_t)(J->unit / J->plans[pc.seg].pb);
        if (take < 1) take = 1;
        if (take > left) take = left;
        *k = J->k;
        *t0 = J->t;
        *t1 = J->t + take;
        J->t += take;
        got = true;
        break;
    }
    pthread_mutex_unlock(&J->mu);
    return got;
}

static void copy_units(void *arg)
{
    copy_job *J = (copy_job *)arg;
    int64_t k, t0, t1;
    while (claim_unit(J, &k, &t0, &t1)) {
        const piece &pc = J->pcs[k];
        if (J->scatter) scatter_range(J->b, J->segs[pc.seg], J->idx, J->plans[pc.seg], pc, t0, t1, J->buf);
        else gather_range(J->b, J->segs[pc.seg], J->idx, J->plans[pc.seg], pc, t0, t1, J->buf);
    }
}

/* Gathers chunk ch into buf (scatter = 0), or scatters it from buf, on up
   to nthr threads (the caller and pool helpers). */
static void stage_copy(bb_batch *b, const segment *segs, const int64_t *idx, const seg_plan *plans,
                       const piece *pcs, const chunk &ch, char *buf, int scatter, int nthr)
{
    /* a small chunk is not worth waking threads for: at least one unit each */
    int64_t most = (int64_t)(ch.total / BB_STAGE_UNIT_MIN);
    if (nthr > most) nthr = most > 1 ? (int)most : 1;
    copy_job J;
    if (nthr > 1 && pthread_mutex_init(&J.mu, NULL) != 0) nthr = 1;
    if (nthr <= 1) {
        for (int64_t k = ch.q0; k < ch.q1; k++) {
            const piece &pc = pcs[k];
            if (scatter) scatter_range(b, segs[pc.seg], idx, plans[pc.seg], pc, 0, pc.p1 - pc.p0, buf);
            else gather_range(b, segs[pc.seg], idx, plans[pc.seg], pc, 0, pc.p1 - pc.p0, buf);
        }
        return;
    }
    J.b = b;
    J.segs = segs;
    J.idx = idx;
    J.plans = plans;
    J.pcs = pcs;
    J.buf = buf;
    J.scatter = scatter;
    J.unit = ch.total / ((size_t)nthr * BB_STAGE_UNITS_PER_THREAD);
    if (J.unit < BB_STAGE_UNIT_MIN) J.unit = BB_STAGE_UNIT_MIN;
    J.q1 = ch.q1;
    J.k = ch.q0;
    J.t = 0;
    bb_stage_team(copy_units, &J, nthr - 1, cfg_stage_budget - 1);
    pthread_mutex_destroy(&J.mu);
}

static cudaError_t host_grow(stage_slot *sl, size_t bytes)
{
    if (sl->host && sl->host_size >= bytes) return cudaSuccess;
    if (sl->host) (void)chk(cudaFreeHost(sl->host));
    sl->host = NULL;
    sl->host_size = 0;
    size_t want = align_up(bytes ? bytes : 1, (size_t)1 << 20);
    void *p = NULL;
    cudaError_t e = cu_pinned_alloc(&p, want);
    if (e != cudaSuccess) return e;
    sl->host = (char *)p;
    sl->host_size = want;
    return cudaSuccess;
}

/* Enqueues one chunk on a slot: H2D, the launches of its pieces, D2H. */
static cudaError_t issue_chunk(const bb_batch *b, const segment *segs, const seg_plan *plans,
                               const piece *pcs, const chunk &ch, stage_slot *sl)
{
    bb_cuda_queue *q = sl->q;
    char *dev = (char *)q->scratch;
    cudaError_t e = chk(cudaMemcpyAsync(dev, sl->host, ch.h2d_end, cudaMemcpyHostToDevice, q->pub.stream));
    if (e != cudaSuccess) return e;
    for (int64_t k = ch.q0; k < ch.q1; k++) {
        const piece &pc = pcs[k];
        const seg_plan &sp = plans[pc.seg];
        bb_problem lp = segs[pc.seg].gp;
        lp.a = lp.b = lp.c = lp.x = lp.y = NULL;
        lp.ipiv = NULL;
        lp.swap_ab = 0; /* the operands are in their normalised slots already */
        lp.lda = sp.r[BB_A] > 1 ? sp.r[BB_A] : 1;
        lp.ldb = sp.r[BB_B] > 1 ? sp.r[BB_B] : 1;
        lp.ldc = sp.r[BB_C] > 1 ? sp.r[BB_C] : 1;
        bb_dev_batch db;
        memset(&db, 0, sizeof db);
        for (int o = 0; o < BB_NOPD; o++) {
            db.opd[o].ptr = NULL;
            db.opd[o].base = sp.used[o] ? dev + pc.off[o] : NULL;
            db.opd[o].stride = sp.used[o] ? sp.elems[o] : 0;
        }
        db.count = pc.p1 - pc.p0;
        db.info = (int *)(dev + pc.off_info);
        (void)cudaGetLastError();
        e = chk(bb_cuda_launch(b->op, b->prec, lp, db, &q->pub));
        if (e != cudaSuccess) return e;
    }
    return chk(cudaMemcpyAsync(sl->host + ch.d2h_begin, dev + ch.d2h_begin, ch.total - ch.d2h_begin,
                               cudaMemcpyDeviceToHost, q->pub.stream));
}

static void run_host(bb_batch *b)
{
    pthread_once(&cfg_once, read_cfg);
    segment *segs = NULL;
    int64_t nseg = 0, nidx = 0;
    int64_t *idx = NULL;
    seg_plan *plans = NULL;
    piece *pcs = NULL;
    chunk *chs = NULL;
    char *done = NULL;
    stage_ctx *ctx = NULL;
    int fail = 0; /* 0, or the code for the problems not finished */
    int64_t npc = 0, nch = 0;
    size_t need = 0;
    int counted = 0; /* in g_stage_active */

    if (build_segments(b, 0, &segs, &nseg, &idx, &nidx)) {
        fail_all(b, BB_INFO_NOMEM);
        return;
    }
    if (nseg == 0) goto out;

    /* chunks: filled with whole segments or parts of them, in launch order */
    {
        plans = (seg_plan *)cu_malloc((size_t)nseg * sizeof *plans);
        if (!plans) { fail = BB_INFO_NOMEM; goto out; }
        double total = 0;
        for (int64_t k = 0; k < nseg; k++) {
            make_plan(b, segs[k].gp, &plans[k]);
            total += (double)plans[k].pb * (double)segs[k].n;
        }
        size_t cap = cfg_stage_bytes;
        size_t target = (size_t)(total / 4);
        size_t lo = BB_STAGE_MIN_CHUNK < cap ? BB_STAGE_MIN_CHUNK : cap;
        if (target < lo) target = lo;
        if (target > cap) target = cap;
        plan_chunks(segs, plans, nseg, target, NULL, NULL, &npc, &nch);
        pcs = (piece *)cu_malloc((size_t)npc * sizeof *pcs);
        chs = (chunk *)cu_malloc((size_t)nch * sizeof *chs);
        if (!pcs || !chs) { fail = BB_INFO_NOMEM; goto out; }
        plan_chunks(segs, plans, nseg, target, pcs, chs, &npc, &nch);
        for (int64_t j = 0; j < nch; j++) {
            layout_chunk(&chs[j], pcs, plans);
            if (chs[j].total > need) need = chs[j].total;
        }
        done = (char *)cu_calloc((size_t)nch, 1);
        if (!done) { fail = BB_INFO_NOMEM; goto out; }
    }

    {
        int dev = 0;
        if (chk(cudaGetDevice(&dev)) != cudaSuccess) { fail = BB_INFO_DEVICE; goto out; }
        int why = BB_INFO_DEVICE;
        ctx = ctx_acquire(dev, &why);
        if (!ctx) { fail = why; goto out; }
        int nslots = nch > 1 ? 2 : 1;
        for (int s = 0; s < nslots; s++) {
            stage_slot *sl = &ctx->slot[s];
            cudaError_t ge = host_grow(sl, need);
            if (ge == cudaSuccess) ge = dev_grow(sl->q, &sl->q->scratch, &sl->q->scratch_size, need, 0);
            if (ge != cudaSuccess) {
                cu_log("%s: staging buffers of %zu bytes: allocation failed", b->name, need);
                fail = fail_code(ge);
                goto out;
            }
        }
        __atomic_add_fetch(&g_stage_active, 1, __ATOMIC_RELAXED);
        counted = 1;
        cu_log("%s: host data on device %d, %lld problem(s), %lld launch(es) in %lld chunk(s) of <= %zu bytes, "
               "copies on <= %d thread(s)",
               b->name, dev, (long long)b->count, (long long)nseg, (long long)nch, need, stage_threads_now());

        /* the pipeline: chunk j on slot j % 2 */
        int64_t inflight[2] = {-1, -1};
        for (int64_t j = 0; j < nch && !fail; j++) {
            stage_slot *sl = &ctx->slot[j & 1];
            int64_t prev = inflight[j & 1];
            if (prev >= 0) {
                if (chk(cudaStreamSynchronize(sl->q->pub.stream)) != cudaSuccess) {
                    fail = BB_INFO_DEVICE;
                    break;
                }
                stage_copy(b, segs, idx, plans, pcs, chs[prev], sl->host, 1, stage_threads_now());
                done[prev] = 1;
                inflight[j & 1] = -1;
            }
            stage_copy(b, segs, idx, plans, pcs, chs[j], sl->host, 0, stage_threads_now());
            cudaError_t e = issue_chunk(b, segs, plans, pcs, chs[j], sl);
            inflight[j & 1] = j;
            if (e != cudaSuccess) {
                cu_log("%s: chunk %lld: %s", b->name, (long long)j, cudaGetErrorString(e));
                fail = fail_code(e);
            }
        }
        /* drain, oldest first */
        if (!fail) {
            int first = (inflight[0] >= 0 && inflight[1] >= 0) ? (inflight[0] < inflight[1] ? 0 : 1)
                                                               : (inflight[0] >= 0 ? 0 : 1);
            for (int r = 0; r < 2 && !fail; r++) {
                int s = r == 0 ? first : 1 - first;
                int64_t j = inflight[s];
                if (j < 0) continue;
                stage_slot *sl = &ctx->slot[s];
                if (chk(cudaStreamSynchronize(sl->q->pub.stream)) != cudaSuccess) {
                    fail = BB_INFO_DEVICE;
                    break;
                }
                stage_copy(b, segs, idx, plans, pcs, chs[j], sl->host, 1, stage_threads_now());
                done[j] = 1;
                inflight[s] = -1;
            }
        }
    }

out:
    if (counted) __atomic_sub_fetch(&g_stage_active, 1, __ATOMIC_RELAXED);
    if (ctx) {
        /* nothing may still be copying into the pinned buffers */
        for (int s = 0; s < 2; s++) {
            stage_slot *sl = &ctx->slot[s];
            if (sl->q && chk(cudaStreamSynchronize(sl->q->pub.stream)) != cudaSuccess) ctx->broken = 1;
        }
        /* a staging buffer grown past the bound for one huge problem is
           given back */
        size_t keep = align_up(cfg_stage_bytes, (size_t)1 << 20);
        for (int s = 0; s < 2 && !ctx->broken; s++) {
            stage_slot *sl = &ctx->slot[s];
            if (sl->host_size > keep) {
                (void)chk(cudaFreeHost(sl->host));
                sl->host = NULL;
                sl->host_size = 0;
            }
            if (sl->q->scratch_size > keep) {
                (void)dev_free(sl->q, sl->q->scratch);
                sl->q->scratch = NULL;
                sl->q->scratch_size = 0;
            }
        }
        ctx_release(ctx);
    }
    if (fail) {
        if (!b->device_fail) b->device_fail = fail;
        /* every problem not yet scattered */
        if (done && chs && pcs) {
            for (int64_t j = 0; j < nch; j++) {
                if (done[j]) continue;
                for (int64_t k = chs[j].q0; k < chs[j].q1; k++) {
                    const segment &s = segs[pcs[k].seg];
                    for (int64_t t = pcs[k].p0; t < pcs[k].p1; t++) {
                        int64_t i = seg_problem(s, idx, t);
                        if (b->pinfo[i] == 0) b->pinfo[i] = fail;
                    }
                }
            }
        } else {
            fail_all(b, fail);
        }
    }
    free(done);
    free(chs);
    free(pcs);
    free(plans);
    free(segs);
    free(idx);
}

/* ------------------------------------------------------------------------- */
/* Info and parameter arrays in device memory: the fetch and store hooks      */
/* ------------------------------------------------------------------------- */

/* 1 if the kernels can read p directly (device or managed memory); *dev,
   if given, receives the device it belongs to. */
static int device_accessible(const void *p, int *dev = NULL)
{
    cudaPointerAttributes a;
    memset(&a, 0, sizeof a);
    if (chk(cudaPointerGetAttributes(&a, p)) != cudaSuccess) return 0; /* plain host memory */
    if (dev) *dev = a.device;
    return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged;
}

/* g_side: one private stream per device for the synchronous copies of the
   hooks; non-blocking, so a copy never waits for a queue (nor for the
   legacy default stream).  Created on first use, kept for the process. */
static pthread_mutex_t side_mu = PTHREAD_MUTEX_INITIALIZER;

/* Copies `bytes` from src to dst on the private stream of `dev` (of the
   current device if dev is not a device) and waits for that copy. */
static cudaError_t side_copy(int dev, void *dst, const void *src, size_t bytes)
{
    if ((dev < 0 || dev >= g_ndev) && chk(cudaGetDevice(&dev)) != cudaSuccess) return cudaErrorInvalidDevice;
    device_scope ds(dev);
    if (!ds.ok) return cudaErrorInvalidDevice;
    cudaError_t e = cudaSuccess;
    pthread_mutex_lock(&side_mu);
    if (!g_side[dev]) {
        /* a blocking stream: ordered after work on the legacy default
           stream (a cudaMemcpy of the caller's may return before its data
           has landed), never after a queue's (non-blocking) stream */
        e = chk(cudaStreamCreateWithFlags(&g_side[dev], cudaStreamDefault));
        if (e != cudaSuccess) g_side[dev] = NULL;
    }
    cudaStream_t st = g_side[dev];
    pthread_mutex_unlock(&side_mu);
    if (e != cudaSuccess) return e;
    e = chk(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, st));
    if (e == cudaSuccess) e = chk(cudaStreamSynchronize(st));
    return e;
}

/* backend.h: 0 host memory; 1 device memory (copied to dst unless NULL). */
static int cu_fetch(void *dst, const void *src, size_t bytes)
{
    int dev = -1;
    if (!device_accessible(src, &dev)) return 0;
    if (!dst || bytes == 0) return 1;
    cudaError_t e = side_copy(dev, dst, src, bytes);
    if (e != cudaSuccess) {
        cu_log("reading %zu bytes of device memory: %s", bytes, cudaGetErrorString(e));
        return -1;
    }
    return 1;
}

/* backend.h: host -> device, on the queue (pageable cudaMemcpyAsync returns
   once src is staged), or synchronously without a valid queue. */
static int cu_store(batchblas_queue_t pq, void *dst, const void *src, size_t bytes)
{
    bb_cuda_queue *q = pq ? checked_queue(pq) : NULL;
    cudaError_t e;
    if (q) {
        device_scope ds(q->pub.device);
        e = ds.ok ? chk(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, q->pub.stream))
                  : cudaErrorInvalidDevice;
    } else {
        int dev = -1;
        (void)device_accessible(dst, &dev);
        e = side_copy(dev, dst, src, bytes);
    }
    if (e != cudaSuccess) {
        cu_log("writing %zu bytes of info: %s", bytes, cudaGetErrorString(e));
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------- */
/* Device data                                                                */
/* ------------------------------------------------------------------------- */


/* Variable form: the launches' codes (sorted order) back to problem order. */
__global__ void bb_scatter_codes(const int *dinfo, const int64_t *idx, int *codes, int64_t n)
{
    int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < n; t += step)
        codes[idx[t]] = dinfo[t];
}

/* The group of problem i: from the group starts (group form), else a
   problem per group (variable form) or one group (fixed, strided). */
__device__ int64_t bb_group_of(const int64_t *gstart, int64_t ngroups, int64_t i)
{
    if (!gstart) return ngroups == 1 ? 0 : i;
    int64_t lo = 0, hi = ngroups - 1; /* the last group starting at or before i */
    while (lo < hi) {
        int64_t mid = lo + (hi - lo + 1) / 2;
        if (gstart[mid] <= i) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/* Device info, step 1: report-all codes, and the lowest failing problem of
   the batch (first[nf - 1]) and, in report-group mode, of each group
   (first[g]); first[] is ~0 (none) on entry. */
__global__ void bb_fold_codes(const int *codes, int64_t count, int mode, const int64_t *gstart,
                              int64_t ngroups, unsigned long long *first, int64_t nf, int *info)
{
    int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += step) {
        int c = codes[i];
        if (mode == BblasErrorsReportAll) info[1 + i] = c;
        if (!c) continue;
        atomicMin(&first[nf - 1], (unsigned long long)i);
        if (mode == BblasErrorsReportGroup)
            atomicMin(&first[bb_group_of(gstart, ngroups, i)], (unsigned long long)i);
    }
}

/* Step 2: info[0] (the batch) and info[1 + g] (report-group) from first[]. */
__global__ void bb_fold_first(const int *codes, const unsigned long long *first, int64_t nf, int *info)
{
    int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; j < nf; j += step) {
        unsigned long long f = first[j];
        info[j == nf - 1 ? 0 : 1 + j] = f == ~0ull ? 0 : codes[f];
    }
}

/* Enqueues the fold of codes[count] (problem order) into the caller's
   device info, in b->mode; first: scratch of nf entries. */
static cudaError_t fold_info(const bb_batch *b, cudaStream_t st, const int *codes,
                             const int64_t *gstart, unsigned long long *first, int64_t nf)
{
    cudaError_t e = chk(cudaMemsetAsync(first, 0xff, (size_t)nf * sizeof *first, st));
    if (e != cudaSuccess) return e;
    bb_fold_codes<<<bb_grid(b->count, 256), 256, 0, st>>>(codes, b->count, b->mode, gstart, b->ngroups,
                                                           first, nf, b->info);
    e = chk(cudaGetLastError());
    if (e != cudaSuccess) return e;
    bb_fold_first<<<bb_grid(nf, 256), 256, 0, st>>>(codes, first, nf, b->info);
    return chk(cudaGetLastError());
}

static void run_device(bb_batch *b)
{
    bb_cuda_queue *q = checked_queue(b->queue);
    if (!q) {
        cu_log("%s: not a queue of this backend", b->name);
        fail_all(b, BB_INFO_DEVICE);
        return;
    }
    if (!bb_cuda_launch_supports(b->op, b->prec)) {
        cu_log("%s: not implemented on the cuda backend", b->name);
        fail_all(b, BB_INFO_DEVICE);
        return;
    }
    device_scope ds(q->pub.device);
    if (!ds.ok) {
        fail_all(b, BB_INFO_DEVICE);
        return;
    }
    cudaStream_t st = q->pub.stream;
    const int var = b->form == BB_FORM_VAR;
    const int fold = b->info_on_device && b->mode != BblasErrorsReportNone; /* codes to info on the device */
    const int report = !b->info_on_device && b->mode != BblasErrorsReportNone; /* codes to pinfo */
    segment *segs = NULL;
    int64_t nseg = 0, nidx = 0;
    int64_t *idx = NULL;
    void **tmp = NULL;
    int *hinfo = NULL;
    int fail = 0;
    cudaError_t e = cudaSuccess;

    if (build_segments(b, 1, &segs, &nseg, &idx, &nidx)) {
        fail_all(b, BB_INFO_NOMEM);
        return;
    }
    if (nseg == 0 && !fold) {
        free(segs);
        free(idx);
        return;
    }
    bb_problem gp0; /* swap_ab and rowmajor are uniform (layout) */
    memset(&gp0, 0, sizeof gp0);
    if (nseg > 0) gp0 = segs[0].gp;

    /* scratch layout: info, then one pointer array per operand that needs
       one, then the sorted problem indices for the gather kernel; with
       device info, the codes in problem order (variable form), the group
       starts (group form, report-group) and the first failing problems */
    const int64_t n_arr = var ? nidx : b->count;
    int need_arr[BB_NOPD], dev_arr[BB_NOPD], orig[BB_NOPD];
    size_t off_arr[BB_NOPD];
    size_t pos = align_up((size_t)n_arr * sizeof(int), BB_ALIGN);
    int any_dev = 0;
    for (int o = 0; o < BB_NOPD; o++) {
        orig[o] = orig_slot(gp0, o);
        const bb_operand &d = b->opd[orig[o]];
        need_arr[o] = dev_arr[o] = 0;
        off_arr[o] = 0;
        if (nseg == 0) continue; /* nothing to launch: only the codes */
        if (d.arr) {
            dev_arr[o] = device_accessible((const void *)d.arr);
            need_arr[o] = var || !dev_arr[o];
            any_dev |= var && dev_arr[o];
        } else if (d.base && var) {
            need_arr[o] = 1; /* x, y of the variable form: per-problem pointers */
        }
        if (need_arr[o]) {
            off_arr[o] = pos;
            pos = align_up(pos + (size_t)n_arr * sizeof(void *), BB_ALIGN);
        }
    }
    const int with_idx = n_arr > 0 && (any_dev || (fold && var));
    const int with_gstart = fold && b->form == BB_FORM_GROUP && b->mode == BblasErrorsReportGroup;
    const int64_t nf = b->mode == BblasErrorsReportGroup ? b->ngroups + 1 : 1;
    size_t off_idx = pos;
    if (with_idx) pos = align_up(pos + (size_t)n_arr * sizeof(int64_t), BB_ALIGN);
    size_t off_codes = pos;
    if (fold && var) pos = align_up(pos + (size_t)b->count * sizeof(int), BB_ALIGN);
    size_t off_gstart = pos;
    if (with_gstart) pos = align_up(pos + (size_t)(b->ngroups + 1) * sizeof(int64_t), BB_ALIGN);
    size_t off_first = pos;
    if (fold) pos = align_up(pos + (size_t)nf * sizeof(unsigned long long), BB_ALIGN);

    (void)cudaGetLastError();
    e = dev_grow(q, &q->scratch, &q->scratch_size, pos, 1);
    if (e != cudaSuccess) {
        cu_log("%s: scratch of %zu bytes: %s", b->name, pos, cudaGetErrorString(e));
        fail = fail_code(e);
        goto out;
    }
    {
        char *scr = (char *)q->scratch;
        int *dinfo = (int *)scr;
        /* Host data is handed over with pageable cudaMemcpyAsync: it returns
           once the source has been staged by the driver, so the temporary
           arrays below and the front end's pinfo may be freed as soon as run
           returns, without waiting for the device. */
        /* no problem skipped (the common case): zero the codes on the device
           instead of copying the host array */
        if (n_arr > 0) {
            if (var || b->nbad == 0) e = chk(cudaMemsetAsync(dinfo, 0, (size_t)n_arr * sizeof(int), st));
            else e = chk(cudaMemcpyAsync(dinfo, b->pinfo, (size_t)n_arr * sizeof(int), cudaMemcpyHostToDevice, st));
            if (e != cudaSuccess) { fail = BB_INFO_DEVICE; goto out; }
        }
        if (with_idx) {
            e = chk(cudaMemcpyAsync(scr + off_idx, idx, (size_t)n_arr * sizeof(int64_t), cudaMemcpyHostToDevice, st));
            if (e != cudaSuccess) { fail = BB_INFO_DEVICE; goto out; }
        }
        for (int o = 0; o < BB_NOPD; o++) {
            if (!need_arr[o]) continue;
            const bb_operand &d = b->opd[orig[o]];
            void **dst = (void **)(scr + off_arr[o]);
            if (d.arr && dev_arr[o]) { /* variable form, device array: gather on the device */
                bb_gather_ptrs<<<bb_grid(n_arr, 256), 256, 0, st>>>(d.arr, (const int64_t *)(scr + off_idx), dst, n_arr);
                e = chk(cudaGetLastError());
            } else {
                if (d.arr && !var) { /* host array, used as is */
                    e = chk(cudaMemcpyAsync(dst, d.arr, (size_t)n_arr * sizeof(void *), cudaMemcpyHostToDevice, st));
                } else {
                    if (!tmp) tmp = (void **)cu_malloc((size_t)n_arr * sizeof(void *));
                    if (!tmp) { fail = BB_INFO_NOMEM; goto out; }
                    if (d.arr) {
                        for (int64_t t = 0; t < n_arr; t++) tmp[t] = d.arr[idx[t]];
                    } else {
                        size_t es = operand_elem(b, o);
                        for (int64_t t = 0; t < n_arr; t++)
                            tmp[t] = d.base + (size_t)(idx[t] * d.stride) * es;
                    }
                    e = chk(cudaMemcpyAsync(dst, tmp, (size_t)n_arr * sizeof(void *), cudaMemcpyHostToDevice, st));
                }
            }
            if (e != cudaSuccess) { fail = BB_INFO_DEVICE; goto out; }
        }

        /* the launches, largest first */
        for (int64_t k = 0; k < nseg; k++) {
            const segment &s = segs[k];
            bb_dev_batch db;
            memset(&db, 0, sizeof db);
            for (int o = 0; o < BB_NOPD; o++) {
                const bb_operand &d = b->opd[orig[o]];
                size_t es = operand_elem(b, o);
                if (need_arr[o]) {
                    db.opd[o].ptr = (void *const *)(scr + off_arr[o]) + s.first;
                } else if (d.arr) {
                    db.opd[o].ptr = d.arr + s.first;
                } else if (d.base) {
                    db.opd[o].base = d.base + (size_t)(s.first * d.stride) * es;
                    db.opd[o].stride = d.stride;
                }
            }
            db.count = s.n;
            db.info = dinfo + s.first;
            bb_problem lp = s.gp;
            lp.a = lp.b = lp.c = lp.x = lp.y = NULL;
            lp.ipiv = NULL;
            lp.swap_ab = 0; /* the operands are in their normalised slots already */
            (void)cudaGetLastError();
            e = chk(bb_cuda_launch(b->op, b->prec, lp, db, &q->pub));
            if (e != cudaSuccess) {
                cu_log("%s: launch %lld: %s", b->name, (long long)k, cudaGetErrorString(e));
                fail = fail_code(e);
                goto out;
            }
        }
        cu_log("%s: device data, %lld launch(es)%s", b->name, (long long)nseg,
               fold ? ", codes folded into the device info" : report ? ", waiting for the codes" : ", not waiting");

        if (fold) {
            /* the codes in problem order: dinfo itself, except in the
               variable form (launch order; the skipped problems' codes are
               only in pinfo) */
            int *codes = dinfo;
            if (var) {
                codes = (int *)(scr + off_codes);
                if (b->nbad == 0) e = chk(cudaMemsetAsync(codes, 0, (size_t)b->count * sizeof(int), st));
                else e = chk(cudaMemcpyAsync(codes, b->pinfo, (size_t)b->count * sizeof(int), cudaMemcpyHostToDevice, st));
                if (e == cudaSuccess && nidx > 0) {
                    bb_scatter_codes<<<bb_grid(nidx, 256), 256, 0, st>>>(dinfo, (const int64_t *)(scr + off_idx),
                                                                          codes, nidx);
                    e = chk(cudaGetLastError());
                }
            }
            if (e == cudaSuccess && with_gstart)
                e = chk(cudaMemcpyAsync(scr + off_gstart, b->gstart, (size_t)(b->ngroups + 1) * sizeof(int64_t),
                                        cudaMemcpyHostToDevice, st));
            if (e == cudaSuccess)
                e = fold_info(b, st, codes, with_gstart ? (const int64_t *)(scr + off_gstart) : NULL,
                              (unsigned long long *)(scr + off_first), nf);
            if (e != cudaSuccess) {
                cu_log("%s: info: %s", b->name, cudaGetErrorString(e));
                fail = BB_INFO_DEVICE;
                goto out;
            }
            b->info_folded = 1;
        } else if (report) {
            hinfo = (int *)cu_malloc((size_t)n_arr * sizeof(int));
            if (!hinfo) { fail = BB_INFO_NOMEM; goto out; }
            e = chk(cudaMemcpyAsync(hinfo, dinfo, (size_t)n_arr * sizeof(int), cudaMemcpyDeviceToHost, st));
            if (e == cudaSuccess) e = chk(cudaStreamSynchronize(st));
            if (e != cudaSuccess) {
                cu_log("%s: %s", b->name, cudaGetErrorString(e));
                fail = BB_INFO_DEVICE;
                goto out;
            }
            for (int64_t t = 0; t < n_arr; t++) {
                int64_t i = var ? idx[t] : t;
                if (b->pinfo[i] == 0) b->pinfo[i] = hinfo[t];
            }
        }
    }
out:
    if (fail) fail_all(b, fail);
    free(hinfo);
    free(tmp);
    free(segs);
    free(idx);
}

/* ------------------------------------------------------------------------- */
/* The backend table                                                          */
/* ------------------------------------------------------------------------- */

static void cu_run(bb_batch *b)
{
    if (b->device_data) {
        run_device(b);
    } else if (b->share_device > 0) {
        /* a share of a batch spread over several devices (src/common/spread.c):
           the same pipeline, on its device (made current for the call) */
        device_scope ds(b->share_device - 1);
        if (ds.ok) run_host(b);
        else fail_all(b, BB_INFO_DEVICE);
    } else {
        run_host(b);
    }
}

static int cu_queue_create(batchblas_queue_t *out, int device, void *stream)
{
    if (!out) return BblasErrInvalid;
    *out = NULL;
    if (device < 0 || device >= g_ndev) return BblasErrInvalid;
    bb_cuda_queue *q = NULL;
    int rc = queue_new(device, (cudaStream_t)stream, stream != NULL, cudaStreamDefault, &q);
    if (rc == BblasSuccess) *out = &q->pub;
    return rc;
}

static int cu_queue_sync(batchblas_queue_t pq)
{
    bb_cuda_queue *q = checked_queue(pq);
    if (!q) return BblasErrInvalid;
    device_scope ds(q->pub.device);
    if (!ds.ok) return BblasErrDevice;
    return chk(cudaStreamSynchronize(q->pub.stream)) == cudaSuccess ? BblasSuccess : BblasErrDevice;
}

static void *cu_queue_stream(batchblas_queue_t pq)
{
    bb_cuda_queue *q = checked_queue(pq);
    return q ? (void *)q->pub.stream : NULL;
}

static int cu_queue_destroy(batchblas_queue_t pq)
{
    if (!pq) return BblasSuccess;
    bb_cuda_queue *q = checked_queue(pq);
    if (!q) return BblasErrInvalid;
    return queue_release(q) == cudaSuccess ? BblasSuccess : BblasErrDevice;
}

static const bb_backend cuda_backend = {"cuda", cu_probe, cu_supports, cu_run,
                                        cu_queue_create, cu_queue_sync, cu_queue_stream,
                                        cu_queue_destroy, cu_fetch, cu_store};

extern "C" __attribute__((visibility("default"))) const bb_backend *bb_cuda_plugin_backend(void)
{
    return &cuda_backend;
}
