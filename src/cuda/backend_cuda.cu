/*
 * The CUDA backend driver: the plugin entry point, the probe, device data,
 * the fetch and store hooks, and the info codes.  Which kernel runs a launch
 * is decided by launch.cu (bb_cuda_launch).  The rest of the driver:
 *   cuda_internal.h  what the driver's files share: configuration and log,
 *                    the allocators (fault hook), bb_cuda_queue,
 *                    device_scope, segment, and the functions below
 *   queue.cu         queues (bb_cuda_queue: stream, cuBLAS handle, driver
 *                    scratch) and the kernels' device workspaces
 *   segments.cu      grouping of a batch into launches of equal parameters
 *                    (bb_cu_build_segments; what a launch is)
 *   staging.cu       host data: the per-device staging contexts and the
 *                    chunked pipeline through pinned buffers (bb_cu_run_host;
 *                    its copies on the threads of stage_copy.cu)
 * This file: configuration and log, the fault hooks, the probe, the fetch
 * and store hooks, device data (run_device), and the backend table (cu_run:
 * host data to bb_cu_run_host, device data to run_device).
 *
 * Device data (the _dev calls, asynchronous on b->queue).  A variable call
 * whose parameter arrays are in device memory (b->par_on_device) was
 * checked there (front.c, bb_cu_var_check): its plan counts and places on
 * the device from the caller's arrays, its codes start from the checks'
 * (b->dev_codes); where the plan needs the parameters on the host, they
 * are copied here first (bb_cu_var_params_to_host).  Pointer arrays in
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
 * (bb_cu_fail_all), so that the front end calls the error handler in every
 * info mode; nothing is synchronised for it.
 *
 * Nothing of the driver runs before the loader's probe (no constructors),
 * nothing prints unless BATCHBLAS_VERBOSE is set.
 */
#include <pthread.h>
#include <time.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <atomic>
#include <algorithm>
#include "cuda_internal.h"
#include "stage_copy.h"

/* ------------------------------------------------------------------------- */
/* Configuration and log                                                      */
/* ------------------------------------------------------------------------- */

/* Staging buffer per slot (host pinned and device): the default bound. */
static const size_t BB_STAGE_BYTES_DEFAULT = (size_t)128 << 20;
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
/* Chunks a pipeline aims at (within the bounds of staging.cu): the host
   copies of a chunk overlap the device's work on the other slot, so what
   is not overlapped is about the first chunk's gather and the last chunk's
   transfers and scatter: 1/chunks of the whole.  More chunks shorten that
   tail and cost a launch and two copies each. */
static const int BB_STAGE_CHUNKS_DEFAULT = 16;

pthread_once_t bb_cu_cfg_once = PTHREAD_ONCE_INIT;
static int cfg_verbose = 0;
size_t bb_cu_cfg_stage_bytes = BB_STAGE_BYTES_DEFAULT;
int bb_cu_cfg_stage_chunks = BB_STAGE_CHUNKS_DEFAULT;
int bb_cu_cfg_stage_threads = 1;  /* per pipeline */
int bb_cu_cfg_stage_budget = 1;   /* over the pipelines running at once */
int bb_cu_cfg_stage_direct = 1;   /* page-locked user operands copied directly */

void bb_cu_read_cfg(void)
{
    const char *v = getenv("BATCHBLAS_VERBOSE");
    if (v) cfg_verbose = atoi(v);
    /* BATCHBLAS_CUDA_STAGE_BYTES: staging bound per slot (testing, tuning) */
    const char *s = getenv("BATCHBLAS_CUDA_STAGE_BYTES");
    if (s && *s) {
        long long x = atoll(s);
        if (x >= 4096) bb_cu_cfg_stage_bytes = (size_t)x;
    }
    /* BATCHBLAS_CUDA_STAGE_CHUNKS: chunks a pipeline aims at (tuning) */
    const char *c = getenv("BATCHBLAS_CUDA_STAGE_CHUNKS");
    if (c && *c) {
        long x = atol(c);
        if (x >= 1 && x <= 4096) bb_cu_cfg_stage_chunks = (int)x;
    }
    /* BATCHBLAS_CUDA_STAGE_THREADS: copy threads per pipeline (tuning) */
    const int cores = bb_stage_host_cores();
    bb_cu_cfg_stage_threads = cores < BB_STAGE_THREADS_DEFAULT ? cores : BB_STAGE_THREADS_DEFAULT;
    const char *t = getenv("BATCHBLAS_CUDA_STAGE_THREADS");
    if (t && *t) {
        long x = atol(t);
        if (x >= 1) bb_cu_cfg_stage_threads = x < BB_STAGE_THREADS_LIMIT ? (int)x : BB_STAGE_THREADS_LIMIT;
    }
    bb_cu_cfg_stage_budget = bb_cu_cfg_stage_threads > cores ? bb_cu_cfg_stage_threads : cores;
    /* BATCHBLAS_CUDA_DIRECT=0: page-locked user memory staged like any
       other (A/B measurements, staging.cu) */
    const char *d = getenv("BATCHBLAS_CUDA_DIRECT");
    if (d && *d) bb_cu_cfg_stage_direct = atoi(d) != 0;
}

/* The log (cuda_internal.h): a line on stderr when BATCHBLAS_VERBOSE is set. */
void bb_cu_log(const char *fmt, ...)
{
    pthread_once(&bb_cu_cfg_once, bb_cu_read_cfg);
    if (!cfg_verbose) return;
    va_list ap;
    va_start(ap, fmt);
    fputs("batchblas: cuda: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* ------------------------------------------------------------------------- */
/* Fault hooks.  Every allocation of the plugin goes through four             */
/* allocators (cu_malloc, cu_calloc, cu_pinned_alloc, cu_dev_alloc in         */
/* cuda_internal.h), which ask the library's fault hook first                 */
/* (bb_cu_fault_now; src/common/fault.c: a test makes the k-th                */
/* allocation fail; unarmed it costs one load).  The loader hands the         */
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

bool bb_cu_fault_now(void) { return g_fault_hit && g_fault_hit(); }

bool bb_cuda_launch_fault(void) { return g_launch_fault_hit && g_launch_fault_hit(); }

/* ------------------------------------------------------------------------- */
/* Probe, device count                                                        */
/* ------------------------------------------------------------------------- */

int bb_cu_ndev = 0;
static cudaStream_t *g_side = NULL; /* [bb_cu_ndev]: private streams (side_copy) */

/* dst[t] = src[map[t]] (variable form, the slots of varplan.cu; NULL for
   padding; the grouped GEMM's problems) */
__global__ void bb_gather_ptrs(void *const *src, const int32_t *map, void **dst, int64_t n)
{
    int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < n; t += step)
        dst[t] = map[t] >= 0 ? src[map[t]] : NULL;
}

static int cu_probe(void)
{
    pthread_once(&bb_cu_cfg_once, bb_cu_read_cfg);
    int n = 0;
    cudaError_t e = chk(cudaGetDeviceCount(&n));
    if (e != cudaSuccess || n <= 0) {
        bb_cu_log("no device (%s)", e != cudaSuccess ? cudaGetErrorString(e) : "count 0");
        return 0;
    }
    /* the plugin's kernels must have an image for the current device */
    cudaFuncAttributes fa;
    e = chk(cudaFuncGetAttributes(&fa, (const void *)bb_gather_ptrs));
    if (e != cudaSuccess) {
        bb_cu_log("device not usable by this build: %s", cudaGetErrorString(e));
        return 0;
    }
    g_side = (cudaStream_t *)cu_calloc((size_t)n, sizeof *g_side);
    if (!g_side) return 0;
    bb_cu_ndev = n;
    bb_cu_log("%d device(s)", n);
    return 1;
}

static int cu_supports(const bb_batch *b) { return bb_cuda_launch_supports(b->op, b->prec); }

/* ------------------------------------------------------------------------- */
/* Info and parameter arrays in device memory: the fetch and store hooks      */
/* ------------------------------------------------------------------------- */

/* 1 if the kernels can read p directly (device or managed memory); *dev,
   if given, receives the device it belongs to. */
static int device_accessible(const void *p, int *dev = NULL)
{
    cudaPointerAttributes a = bb_cu_pointer(p);
    if (dev && a.type != cudaMemoryTypeUnregistered) *dev = a.device;
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
    if ((dev < 0 || dev >= bb_cu_ndev) && chk(cudaGetDevice(&dev)) != cudaSuccess) return cudaErrorInvalidDevice;
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
        bb_cu_log("reading %zu bytes of device memory: %s", bytes, cudaGetErrorString(e));
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
        bb_cu_log("writing %zu bytes of info: %s", bytes, cudaGetErrorString(e));
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------- */
/* Device data                                                                */
/* ------------------------------------------------------------------------- */


/* Variable form: the launches' codes (sorted order) back to problem order. */
/* dst[t] = base + map[t] * stride bytes (the per-problem vectors x, y of
   the variable form; NULL for padding) */
__global__ void bb_gather_strided(char *base, int64_t stride, const int32_t *map, void **dst, int64_t n)
{
    int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < n; t += step)
        dst[t] = map[t] >= 0 ? base + map[t] * stride : NULL;
}

__global__ void bb_scatter_codes(const int *dinfo, const int32_t *map, int *codes, int64_t n)
{
    int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < n; t += step)
        if (map[t] >= 0) codes[map[t]] = dinfo[t];
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

/* microseconds since an arbitrary start (the verbose log's host timings) */
static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

/* The queue's pinned buffer, at least `bytes`, free to write (its last copy
   out has finished: normally long ago, so this rarely waits).  NULL if it
   cannot be had (the caller copies from pageable memory then). */
static char *pinned_buffer(bb_cuda_queue *q, size_t bytes)
{
    if (q->pin_done && chk(cudaEventSynchronize(q->pin_done)) != cudaSuccess) return NULL;
    if (q->pin_size < bytes) {
        if (q->pin) (void)chk(cudaFreeHost(q->pin));
        q->pin = NULL;
        q->pin_size = 0;
        const size_t want = bytes + bytes / 2;
        void *p = NULL;
        if (cu_pinned_alloc(&p, want) != cudaSuccess) return NULL;
        q->pin = p;
        q->pin_size = want;
    }
    if (!q->pin_done && chk(cudaEventCreateWithFlags(&q->pin_done, cudaEventDisableTiming)) != cudaSuccess) {
        q->pin_done = NULL;
        return NULL;
    }
    return (char *)q->pin;
}

/* Copies n arrays (src[r], bytes each) into dst + r * bytes on a team of
   host threads (stage_copy.cu), in units of 1 MB. */
struct copy_team {
    const void *const *src;
    char *dst;
    size_t bytes, unit;
    int64_t nunit_per, nunit;
    std::atomic<int64_t> next;
};

static void copy_runner(void *arg)
{
    copy_team *t = (copy_team *)arg;
    for (int64_t u; (u = t->next.fetch_add(1)) < t->nunit;) {
        const int64_t r = u / t->nunit_per, k = u % t->nunit_per;
        const size_t off = (size_t)k * t->unit, len = std::min(t->unit, t->bytes - off);
        memcpy(t->dst + (size_t)r * t->bytes + off, (const char *)t->src[r] + off, len);
    }
}

static void team_copy(const void *const *src, int n, size_t bytes, char *dst)
{
    copy_team t;
    t.src = src;
    t.dst = dst;
    t.bytes = bytes;
    t.unit = (size_t)1 << 20;
    t.nunit_per = (int64_t)((bytes + t.unit - 1) / t.unit);
    t.nunit = t.nunit_per * n;
    t.next.store(0);
    const int helpers = (int)std::min<int64_t>(std::min<int64_t>(t.nunit - 1, bb_stage_host_cores() - 1), 7);
    bb_stage_team(copy_runner, &t, helpers > 0 ? helpers : 0, 7);
}

int bb_cu_var_count_dev(var_devcount *dc, const bb_batch *b, const int src[7], const int64_t radix[4], int64_t nb,
                        int64_t *cnt)
{
    bb_cuda_queue *q = dc->q;
    /* the raw arrays: those of the bucket keys (m, n, k, nrhs) first,
       counted as soon as they are on the device; the leading dimensions
       (placement only) are copied while the counting runs */
    int nraw = 0, nkey = 0, slots[7];
    for (int pass = 0; pass < 2; pass++) {
        for (int s = 0; s < BB_NPAR; s++) {
            bool key = false, used = false;
            for (int f = 0; f < 7; f++) {
                key |= f < 4 && src[f] == s;
                used |= src[f] == s;
            }
            if (pass == 0 ? key : used && !key) slots[nraw++] = s;
        }
        if (pass == 0) nkey = nraw;
    }
    if (nkey == 0) return -1;
    const size_t rawb = (size_t)b->count * sizeof(int), arrb = align_up((size_t)nraw * rawb, BB_ALIGN);
    const size_t cntb = (size_t)(nb + 1) * sizeof(unsigned);
    if (!q->side && chk(cudaStreamCreateWithFlags(&q->side, cudaStreamNonBlocking)) != cudaSuccess) {
        q->side = NULL;
        return -1;
    }
    if (!q->side_done && chk(cudaEventCreateWithFlags(&q->side_done, cudaEventDisableTiming)) != cudaSuccess) {
        q->side_done = NULL;
        return -1;
    }
    if (!q->count_done && chk(cudaEventCreateWithFlags(&q->count_done, cudaEventDisableTiming)) != cudaSuccess) {
        q->count_done = NULL;
        return -1;
    }
    if (!q->draw_free && chk(cudaEventCreateWithFlags(&q->draw_free, cudaEventDisableTiming)) != cudaSuccess) {
        q->draw_free = NULL;
        return -1;
    }
    /* the device buffer: the arrays, then the counts; the queue's stream
       may still read the last call's arrays (draw_free) */
    if (q->draw_size < arrb + cntb) {
        if (q->draw) {
            if (chk(cudaEventSynchronize(q->draw_free)) != cudaSuccess) return -1;
            (void)chk(cudaFree(q->draw));
        }
        q->draw = NULL;
        q->draw_size = 0;
        const size_t want = (arrb + cntb) + (arrb + cntb) / 2;
        if (cu_dev_alloc(&q->draw, want, 0, NULL) != cudaSuccess) {
            q->draw = NULL;
            return -1;
        }
        q->draw_size = want;
    } else if (chk(cudaStreamWaitEvent(q->side, q->draw_free, 0)) != cudaSuccess) {
        return -1;
    }
    char *pin = pinned_buffer(q, align_up((size_t)nraw * rawb, BB_ALIGN) + cntb);
    if (!pin) return -1;
    const double t0 = cfg_verbose ? now_us() : 0;
    const void *srcs[7];
    for (int r = 0; r < nraw; r++) srcs[r] = b->par[slots[r]];
    team_copy(srcs, nkey, rawb, pin);
    const double t1 = cfg_verbose ? now_us() : 0;
    char *draw = (char *)q->draw;
    unsigned *dcounts = (unsigned *)(draw + arrb), *hcounts = (unsigned *)(pin + arrb);
    cudaError_t e = chk(cudaMemcpyAsync(draw, pin, (size_t)nkey * rawb, cudaMemcpyHostToDevice, q->side));
    if (e == cudaSuccess) e = chk(cudaMemsetAsync(dcounts, 0, cntb, q->side));
    var_raw vr;
    for (int f = 0; f < 7; f++) {
        vr.raw[f] = NULL;
        vr.cst[f] = 0;
        for (int r = 0; r < nraw; r++)
            if (src[f] == slots[r]) vr.raw[f] = (const int *)(draw + (size_t)r * rawb);
    }
    if (e == cudaSuccess) e = bb_cu_var_hist(vr, radix, dcounts, nb, b->count, q->side);
    if (e == cudaSuccess) e = chk(cudaMemcpyAsync(hcounts, dcounts, cntb, cudaMemcpyDeviceToHost, q->side));
    if (e == cudaSuccess) e = chk(cudaEventRecord(q->count_done, q->side));
    if (e == cudaSuccess && nraw > nkey) { /* the other arrays, while the device counts */
        team_copy(srcs + nkey, nraw - nkey, rawb, pin + (size_t)nkey * rawb);
        e = chk(cudaMemcpyAsync(draw + (size_t)nkey * rawb, pin + (size_t)nkey * rawb, (size_t)(nraw - nkey) * rawb,
                                cudaMemcpyHostToDevice, q->side));
    }
    if (e == cudaSuccess) e = chk(cudaEventRecord(q->pin_done, q->side));
    if (e == cudaSuccess) e = chk(cudaEventRecord(q->side_done, q->side));
    /* the one wait of the call: for the counts, not the queue */
    if (e == cudaSuccess) e = chk(cudaEventSynchronize(q->count_done));
    if (e != cudaSuccess) return -1;
    if (cfg_verbose) {
        dc->copy_us = t1 - t0;
        dc->wait_us = now_us() - t1;
    }
    for (int64_t x = 0; x <= nb; x++) cnt[x] = hcounts[x];
    dc->done = 1;
    dc->nraw = nraw;
    for (int r = 0; r < nraw; r++) dc->raw_slot[r] = slots[r];
    return 0;
}

static void run_device(bb_batch *b)
{
    const double t_start = cfg_verbose ? now_us() : 0;
    double t_plan = 0, t_sent = 0;
    bb_cuda_queue *q = checked_queue(b->queue);
    if (!q) {
        bb_cu_log("%s: not a queue of this backend", b->name);
        bb_cu_fail_all(b, BB_INFO_DEVICE);
        return;
    }
    if (!bb_cuda_launch_supports(b->op, b->prec)) {
        bb_cu_log("%s: not implemented on the cuda backend", b->name);
        bb_cu_fail_all(b, BB_INFO_DEVICE);
        return;
    }
    device_scope ds(q->pub.device);
    if (!ds.ok) {
        bb_cu_fail_all(b, BB_INFO_DEVICE);
        return;
    }
    cudaStream_t st = q->pub.stream;
    /* the variable form's plan, also for the group form with many groups
       (a group per problem is the variable form) */
    const int var = b->form == BB_FORM_VAR || (b->form == BB_FORM_GROUP && b->ngroups >= BB_VAR_GROUPS_MIN);
    const int fold = b->info_on_device && b->mode != BblasErrorsReportNone; /* codes to info on the device */
    const int report = !b->info_on_device && b->mode != BblasErrorsReportNone; /* codes to pinfo */
    /* the launches: the variable form's plan (varplan.cu: class launches
       of per-problem sizes, slots in launch order), else the segments
       (ranges of problems, segments.cu) */
    var_plan vp;
    memset(&vp, 0, sizeof vp);
    segment *segs = NULL;
    int64_t nseg = 0, nidx = 0;
    int64_t *idx = NULL;
    void **tmp = NULL;
    int *hinfo = NULL;
    int fail = 0;
    cudaError_t e = cudaSuccess;

    /* parameter arrays in device memory (checked there, front.c): the
       plan reads them there, unless it needs them on the host (sizes that
       no bucket takes, too many buckets): then they are copied here, with
       the codes of the checks, and the call goes the host arrays' way */
    std::vector<std::vector<char>> host_par;
    var_devcount dc;
    memset(&dc, 0, sizeof dc);
    dc.q = q;
    int planned = 0;
    if (var && b->par_on_device) {
        const int pr = bb_cu_var_plan(b, &vp, &dc);
        if (pr < 0) {
            bb_cu_var_params_to_host(b, &host_par);
            bb_cu_fail_all(b, BB_INFO_NOMEM);
            return;
        }
        planned = pr == 0;
        if (pr == BB_VAR_NEEDS_HOST) {
            bb_cu_log("%s: parameter arrays in device memory: the plan needs them on the host", b->name);
            const int c = bb_cu_var_params_to_host(b, &host_par);
            if (c) {
                bb_cu_fail_all(b, c);
                return;
            }
        }
    }
    const int devpar = b->par_on_device;
    /* gemm: the problems that cuBLAS's grouped GEMM takes go first, and
       the plan leaves them out (marked in pinfo until the launches are
       made: the device placement reads the marks) */
    var_grouped vg = {NULL, 0};
    if (var && !devpar) {
        const int gc = bb_cu_var_grouped(b, q, &vg);
        if (gc) {
            bb_cu_fail_all(b, gc);
            return;
        }
        if (vg.n) bb_cu_log("%s: %lld problems to cuBLAS's grouped GEMM", b->name, (long long)vg.n);
    }
    if (!planned && (var ? bb_cu_var_plan(b, &vp, &dc) : bb_cu_build_segments(b, 1, &segs, &nseg, &idx, &nidx))) {
        bb_cu_var_grouped_unmark(b, &vg);
        bb_cu_fail_all(b, BB_INFO_NOMEM);
        return;
    }
    const int64_t nlaunch = var ? vp.nlaunch : nseg;
    if (cfg_verbose) t_plan = now_us();
    if (nlaunch == 0 && !fold) {
        bb_cu_var_grouped_unmark(b, &vg);
        free(segs);
        free(idx);
        bb_cu_var_plan_free(&vp);
        return;
    }
    bb_problem gp0; /* swap_ab and rowmajor are uniform (layout) */
    memset(&gp0, 0, sizeof gp0);
    if (nlaunch > 0) gp0 = var ? vp.launch[0].gp : segs[0].gp;

    /* scratch layout: info, then one pointer array per operand that needs
       one; the variable form's slot map, runs and per-slot sizes (class
       launches); with device info, the codes in problem order (variable
       form), the group starts (group form, report-group) and the first
       failing problems */
    const int64_t n_arr = var ? vp.nslot : b->count;
    int need_arr[BB_NOPD], dev_arr[BB_NOPD], orig[BB_NOPD];
    size_t off_arr[BB_NOPD];
    size_t pos = align_up((size_t)n_arr * sizeof(int), BB_ALIGN);
    for (int o = 0; o < BB_NOPD; o++) {
        orig[o] = orig_slot(gp0, o);
        const bb_operand &d = b->opd[orig[o]];
        need_arr[o] = dev_arr[o] = 0;
        off_arr[o] = 0;
        if (nlaunch == 0) continue; /* nothing to launch: only the codes */
        if (d.arr) {
            dev_arr[o] = device_accessible((const void *)d.arr);
            need_arr[o] = var || !dev_arr[o];
        } else if (d.base && var) {
            need_arr[o] = 1; /* x, y of the variable form: per-problem pointers */
        }
        if (need_arr[o]) {
            off_arr[o] = pos;
            pos = align_up(pos + (size_t)n_arr * sizeof(void *), BB_ALIGN);
        }
    }
    const int with_map = var && n_arr > 0;
    const int with_vdim = with_map && vp.nclass > 0;
    const int with_gstart = fold && b->form == BB_FORM_GROUP && b->mode == BblasErrorsReportGroup;
    const int64_t nf = b->mode == BblasErrorsReportGroup ? b->ngroups + 1 : 1;
    size_t off_map = pos;
    if (with_map) pos = align_up(pos + (size_t)n_arr * sizeof(int32_t), BB_ALIGN);
    /* the runs (from exact segments), or the user's raw size arrays that
       the fast plan reads per slot */
    int nraw = 0, raw_slot[7];
    size_t off_raw[7];
    size_t off_runs = pos;
    if (with_vdim && vp.fast && !dc.done && !devpar) {
        for (int s = 0; s < BB_NPAR; s++) {
            bool used = false;
            for (int f = 0; f < 7; f++) used |= vp.src[f] == s;
            if (!used) continue;
            raw_slot[nraw] = s;
            off_raw[nraw++] = pos;
            pos = align_up(pos + (size_t)b->count * sizeof(int), BB_ALIGN);
        }
    } else if (with_vdim) {
        pos = align_up(pos + (size_t)vp.nrun * sizeof(var_run), BB_ALIGN);
    }
    size_t off_vdim = pos;
    if (with_vdim) pos = align_up(pos + (size_t)n_arr * sizeof(bb_vdim), BB_ALIGN);
    /* a fast plan's device placement (varplan.cu): each bucket's first slot,
       its counters and padding, the front end's codes where some problem
       failed its checks, and a device copy of each host pointer array */
    const int placed = with_vdim && vp.fast && vp.placed > 0;
    size_t off_at = pos, off_bk = 0, off_cur = 0, off_pad = 0, off_bad = 0, off_harr = 0;
    if (placed) {
        pos = align_up(pos + (size_t)vp.nb * sizeof(int32_t), BB_ALIGN);
        off_bk = pos;
        pos = align_up(pos + (size_t)(vp.nbk + 1) * sizeof(var_kv), BB_ALIGN);
        off_cur = pos;
        pos = align_up(pos + (size_t)vp.nb * sizeof(int32_t), BB_ALIGN);
        off_pad = pos;
        pos = align_up(pos + (size_t)(vp.npad + 1) * sizeof(var_pad), BB_ALIGN);
        off_bad = pos;
        if (b->nbad > 0 && !devpar) pos = align_up(pos + (size_t)b->count * sizeof(int), BB_ALIGN);
        off_harr = pos;
        bool host_arr = false;
        for (int o = 0; o < BB_NOPD; o++) host_arr |= need_arr[o] && b->opd[orig[o]].arr && !dev_arr[o];
        if (host_arr) pos = align_up(pos + (size_t)b->count * sizeof(void *), BB_ALIGN);
    }
    size_t off_codes = pos;
    if ((fold || (report && placed)) && var && !devpar) pos = align_up(pos + (size_t)b->count * sizeof(int), BB_ALIGN);
    size_t off_gstart = pos;
    if (with_gstart) pos = align_up(pos + (size_t)(b->ngroups + 1) * sizeof(int64_t), BB_ALIGN);
    size_t off_first = pos;
    if (fold) pos = align_up(pos + (size_t)nf * sizeof(unsigned long long), BB_ALIGN);

    (void)cudaGetLastError();
    e = bb_cu_dev_grow(q, &q->scratch, &q->scratch_size, pos, 1);
    if (e != cudaSuccess) {
        bb_cu_log("%s: scratch of %zu bytes: %s", b->name, pos, cudaGetErrorString(e));
        fail = fail_code(e);
        goto out;
    }
    {
        char *scr = (char *)q->scratch;
        int *dinfo = (int *)scr;
        const int32_t *dmap = (const int32_t *)(scr + off_map);
        /* Host data is handed over with pageable cudaMemcpyAsync: it returns
           once the source has been staged by the driver, so the temporary
           arrays below and the front end's pinfo may be freed as soon as run
           returns, without waiting for the device. */
        if (with_map) { /* the host's part of the slot map */
            const int64_t h0 = placed ? vp.placed : 0;
            if (n_arr > h0)
                e = chk(cudaMemcpyAsync(scr + off_map + (size_t)h0 * sizeof(int32_t), vp.map + h0,
                                        (size_t)(n_arr - h0) * sizeof(int32_t), cudaMemcpyHostToDevice, st));
            if (e != cudaSuccess) { fail = BB_INFO_DEVICE; goto out; }
        }
        /* the codes: zeros (no problem skipped, or the variable form, whose
           slots hold only problems that run), the padding of class launches
           flagged; else the front end's */
        if (with_vdim && vp.fast) {
            var_raw vr;
            const size_t rawb = (size_t)b->count * sizeof(int);
            for (int f = 0; f < 7; f++) {
                vr.raw[f] = devpar && vp.src[f] >= 0 ? b->par[vp.src[f]] : NULL; /* the caller's, on the device */
                vr.cst[f] = vp.cst[f];
                for (int r = 0; r < nraw; r++)
                    if (raw_slot[r] == vp.src[f]) vr.raw[f] = (const int *)(scr + off_raw[r]);
                for (int r = 0; r < dc.nraw && dc.done; r++) /* already on the device: counted there */
                    if (dc.raw_slot[r] == vp.src[f]) vr.raw[f] = (const int *)((char *)q->draw + (size_t)r * rawb);
            }
            /* the user's size arrays: into the queue's pinned buffer on a
               few host threads, then sent without waiting (a pageable
               copy makes the host wait for the driver's own staging) */
            char *pin = nraw > 0 ? pinned_buffer(q, (size_t)nraw * rawb) : NULL;
            if (pin) {
                const void *srcs[7];
                for (int r = 0; r < nraw; r++) srcs[r] = b->par[raw_slot[r]];
                team_copy(srcs, nraw, rawb, pin);
            }
            for (int r = 0; r < nraw && e == cudaSuccess; r++)
                e = chk(cudaMemcpyAsync(scr + off_raw[r], pin ? (const void *)(pin + (size_t)r * rawb) : b->par[raw_slot[r]],
                                        rawb, cudaMemcpyHostToDevice, st));
            if (pin && e == cudaSuccess) e = chk(cudaEventRecord(q->pin_done, st));
            if (dc.done && e == cudaSuccess) e = chk(cudaStreamWaitEvent(st, q->side_done, 0));
            if (placed) { /* the buckets' slots of the map, placed on the device */
                if (e == cudaSuccess && vp.nbk > 0)
                    e = chk(cudaMemcpyAsync(scr + off_bk, vp.bk, (size_t)vp.nbk * sizeof(var_kv), cudaMemcpyHostToDevice, st));
                if (e == cudaSuccess && vp.npad > 0)
                    e = chk(cudaMemcpyAsync(scr + off_pad, vp.pad, (size_t)vp.npad * sizeof(var_pad), cudaMemcpyHostToDevice, st));
                if (e == cudaSuccess && b->nbad > 0 && !devpar)
                    e = chk(cudaMemcpyAsync(scr + off_bad, b->pinfo, (size_t)b->count * sizeof(int), cudaMemcpyHostToDevice, st));
                const int *bad = b->nbad == 0 ? NULL : devpar ? b->dev_codes : (const int *)(scr + off_bad);
                if (e == cudaSuccess)
                    e = bb_cu_var_place(vr, vp, bad, (const var_kv *)(scr + off_bk),
                                        (int32_t *)(scr + off_at), (int32_t *)(scr + off_cur),
                                        (const var_pad *)(scr + off_pad), (int32_t *)(scr + off_map),
                                        (bb_vdim *)(scr + off_vdim), dinfo, b->count, st);
            }
            /* the other slots' sizes (all of them where nothing was placed) */
            const int64_t x0 = placed ? vp.placed : 0;
            if (e == cudaSuccess)
                e = bb_cu_var_expand_raw(vr, dmap + x0, (bb_vdim *)(scr + off_vdim) + x0, dinfo + x0, n_arr - x0, st);
            if (dc.done && e == cudaSuccess) e = chk(cudaEventRecord(q->draw_free, st)); /* the arrays are read */
            if (e != cudaSuccess) { fail = BB_INFO_DEVICE; goto out; }
        } else if (with_vdim) {
            e = chk(cudaMemcpyAsync(scr + off_runs, vp.runs, (size_t)vp.nrun * sizeof(var_run), cudaMemcpyHostToDevice, st));
            if (e == cudaSuccess)
                e = bb_cu_var_expand((const var_run *)(scr + off_runs), vp.nrun, dmap, (bb_vdim *)(scr + off_vdim), dinfo,
                                     n_arr, st);
            if (e != cudaSuccess) { fail = BB_INFO_DEVICE; goto out; }
        } else if (n_arr > 0) {
            if (var || b->nbad == 0) e = chk(cudaMemsetAsync(dinfo, 0, (size_t)n_arr * sizeof(int), st));
            else e = chk(cudaMemcpyAsync(dinfo, b->pinfo, (size_t)n_arr * sizeof(int), cudaMemcpyHostToDevice, st));
            if (e != cudaSuccess) { fail = BB_INFO_DEVICE; goto out; }
        }
        for (int o = 0; o < BB_NOPD; o++) {
            if (!need_arr[o]) continue;
            const bb_operand &d = b->opd[orig[o]];
            void **dst = (void **)(scr + off_arr[o]);
            if (d.arr && dev_arr[o]) { /* variable form, device array: gather on the device */
                bb_gather_ptrs<<<bb_grid(n_arr, 256), 256, 0, st>>>(d.arr, dmap, dst, n_arr);
                e = chk(cudaGetLastError());
            } else if (var && !d.arr) { /* variable form, strided vector: on the device too */
                const int64_t sb = d.stride * (int64_t)bb_cu_operand_elem(b, o);
                bb_gather_strided<<<bb_grid(n_arr, 256), 256, 0, st>>>(d.base, sb, dmap, dst, n_arr);
                e = chk(cudaGetLastError());
            } else if (d.arr && placed) { /* variable form, host array, slots placed on the device: gather there */
                void **harr = (void **)(scr + off_harr);
                e = chk(cudaMemcpyAsync(harr, d.arr, (size_t)b->count * sizeof(void *), cudaMemcpyHostToDevice, st));
                if (e == cudaSuccess) {
                    bb_gather_ptrs<<<bb_grid(n_arr, 256), 256, 0, st>>>(harr, dmap, dst, n_arr);
                    e = chk(cudaGetLastError());
                }
            } else {
                if (d.arr && !var) { /* host array, used as is */
                    e = chk(cudaMemcpyAsync(dst, d.arr, (size_t)n_arr * sizeof(void *), cudaMemcpyHostToDevice, st));
                } else {
                    /* variable form, host pointer array (strided vectors went to the device above) */
                    if (!tmp) tmp = (void **)cu_malloc((size_t)n_arr * sizeof(void *));
                    if (!tmp) { fail = BB_INFO_NOMEM; goto out; }
                    for (int64_t t = 0; t < n_arr; t++) tmp[t] = vp.map[t] >= 0 ? d.arr[vp.map[t]] : NULL;
                    e = chk(cudaMemcpyAsync(dst, tmp, (size_t)n_arr * sizeof(void *), cudaMemcpyHostToDevice, st));
                }
            }
            if (e != cudaSuccess) { fail = BB_INFO_DEVICE; goto out; }
        }

        if (cfg_verbose) t_sent = now_us();
        /* the launches, largest first */
        for (int64_t k = 0; k < nlaunch; k++) {
            const bb_problem &sgp = var ? vp.launch[k].gp : segs[k].gp;
            const int64_t sfirst = var ? vp.launch[k].first : segs[k].first, sn = var ? vp.launch[k].n : segs[k].n;
            bb_dev_batch db;
            memset(&db, 0, sizeof db);
            for (int o = 0; o < BB_NOPD; o++) {
                const bb_operand &d = b->opd[orig[o]];
                size_t es = bb_cu_operand_elem(b, o);
                if (need_arr[o]) {
                    db.opd[o].ptr = (void *const *)(scr + off_arr[o]) + sfirst;
                } else if (d.arr) {
                    db.opd[o].ptr = d.arr + sfirst;
                } else if (d.base) {
                    db.opd[o].base = d.base + (size_t)(sfirst * d.stride) * es;
                    db.opd[o].stride = d.stride;
                }
            }
            db.count = sn;
            db.info = dinfo + sfirst;
            if (var && vp.launch[k].cls) {
                db.vdim = (const bb_vdim *)(scr + off_vdim) + sfirst;
                db.vdriver = vp.launch[k].cls == BB_VAR_DRIVER;
                const double top = bb_var_size3(vp.launch[k].gp);
                db.vwork = db.vdriver && top > 0 ? vp.launch[k].work3 / top : 0;
                if (db.vdriver && vp.ext && vp.launch[k].next > 0) {
                    db.vext = vp.ext + vp.launch[k].ext0;
                    db.nvext = (int32_t)vp.launch[k].next;
                }
            }
            bb_problem lp = sgp;
            lp.a = lp.b = lp.c = lp.x = lp.y = NULL;
            lp.ipiv = NULL;
            lp.swap_ab = 0; /* the operands are in their normalised slots already */
            (void)cudaGetLastError();
            e = chk(bb_cuda_launch(b->op, b->prec, lp, db, &q->pub));
            if (e != cudaSuccess) {
                bb_cu_log("%s: launch %lld: %s", b->name, (long long)k, cudaGetErrorString(e));
                fail = fail_code(e);
                goto out;
            }
        }
        bb_cu_var_grouped_unmark(b, &vg); /* before the codes are read */
        if (var)
            bb_cu_log("%s: device data, variable sizes: %lld launch(es), %lld of them class launches (%lld slots for "
                      "%lld problems, %s plan)%s; host: plan %.0f us (counting %.0f us, %s %d: key copy %.0f us, "
                      "then wait %.0f us), transfers %.0f us, launches %.0f us",
                      b->name, (long long)nlaunch, (long long)vp.nclass, (long long)vp.nslot, (long long)b->count,
                      vp.fast ? "fast" : "exact-segment",
                      fold ? ", codes folded into the device info" : report ? ", waiting for the codes" : ", not waiting",
                      t_plan - t_start, vp.count_us, dc.done ? "on the device: arrays" : "host threads", dc.done ? dc.nraw : vp.count_threads,
                      dc.done ? dc.copy_us : 0.0, dc.done ? dc.wait_us : 0.0, t_sent - t_plan, now_us() - t_sent);
        else
            bb_cu_log("%s: device data, %lld launch(es)%s", b->name, (long long)nlaunch,
                      fold ? ", codes folded into the device info" : report ? ", waiting for the codes" : ", not waiting");

        if (fold) {
            /* the codes in problem order: dinfo itself, except in the
               variable form (slot order; the skipped problems' codes are
               only in pinfo) */
            int *codes = dinfo;
            if (var && devpar) { /* the checks' codes, on the device already */
                codes = b->dev_codes;
                if (n_arr > 0) {
                    bb_scatter_codes<<<bb_grid(n_arr, 256), 256, 0, st>>>(dinfo, dmap, codes, n_arr);
                    e = chk(cudaGetLastError());
                }
            } else if (var) {
                codes = (int *)(scr + off_codes);
                if (b->nbad == 0) e = chk(cudaMemsetAsync(codes, 0, (size_t)b->count * sizeof(int), st));
                else e = chk(cudaMemcpyAsync(codes, b->pinfo, (size_t)b->count * sizeof(int), cudaMemcpyHostToDevice, st));
                if (e == cudaSuccess && n_arr > 0) {
                    bb_scatter_codes<<<bb_grid(n_arr, 256), 256, 0, st>>>(dinfo, dmap, codes, n_arr);
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
                bb_cu_log("%s: info: %s", b->name, cudaGetErrorString(e));
                fail = BB_INFO_DEVICE;
                goto out;
            }
            b->info_folded = 1;
        } else if (report && placed) {
            /* the slot map is on the device only: the codes in problem
               order there (0 for the problems that did not run), then
               read back */
            int *codes = devpar ? b->dev_codes : (int *)(scr + off_codes);
            hinfo = (int *)cu_malloc((size_t)b->count * sizeof(int));
            if (!hinfo) { fail = BB_INFO_NOMEM; goto out; }
            if (!devpar) e = chk(cudaMemsetAsync(codes, 0, (size_t)b->count * sizeof(int), st));
            if (e == cudaSuccess) {
                bb_scatter_codes<<<bb_grid(n_arr, 256), 256, 0, st>>>(dinfo, dmap, codes, n_arr);
                e = chk(cudaGetLastError());
            }
            if (e == cudaSuccess)
                e = chk(cudaMemcpyAsync(hinfo, codes, (size_t)b->count * sizeof(int), cudaMemcpyDeviceToHost, st));
            if (e == cudaSuccess) e = chk(cudaStreamSynchronize(st));
            if (e != cudaSuccess) {
                bb_cu_log("%s: %s", b->name, cudaGetErrorString(e));
                fail = BB_INFO_DEVICE;
                goto out;
            }
            for (int64_t i = 0; i < b->count; i++)
                if (b->pinfo[i] == 0) b->pinfo[i] = hinfo[i];
        } else if (report) {
            hinfo = (int *)cu_malloc((size_t)(n_arr > 0 ? n_arr : 1) * sizeof(int));
            if (!hinfo) { fail = BB_INFO_NOMEM; goto out; }
            e = chk(cudaMemcpyAsync(hinfo, dinfo, (size_t)n_arr * sizeof(int), cudaMemcpyDeviceToHost, st));
            if (e == cudaSuccess) e = chk(cudaStreamSynchronize(st));
            if (e != cudaSuccess) {
                bb_cu_log("%s: %s", b->name, cudaGetErrorString(e));
                fail = BB_INFO_DEVICE;
                goto out;
            }
            for (int64_t t = 0; t < n_arr; t++) {
                const int64_t i = var ? vp.map[t] : t;
                if (i >= 0 && b->pinfo[i] == 0) b->pinfo[i] = hinfo[t];
            }
        }
    }
out:
    bb_cu_var_grouped_unmark(b, &vg);
    if (fail && devpar && b->nbad > 0) { /* the checks' codes first: they are only on the device */
        std::vector<int> c((size_t)b->count);
        if (chk(cudaMemcpyAsync(c.data(), b->dev_codes, (size_t)b->count * sizeof(int), cudaMemcpyDeviceToHost, st)) ==
                cudaSuccess &&
            chk(cudaStreamSynchronize(st)) == cudaSuccess)
            for (int64_t i = 0; i < b->count; i++)
                if (c[(size_t)i] && b->pinfo[i] == 0) b->pinfo[i] = c[(size_t)i];
    }
    if (fail) bb_cu_fail_all(b, fail);
    free(hinfo);
    free(tmp);
    free(segs);
    free(idx);
    bb_cu_var_plan_free(&vp);
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
        if (ds.ok) bb_cu_run_host(b);
        else bb_cu_fail_all(b, BB_INFO_DEVICE);
    } else {
        bb_cu_run_host(b);
    }
}

/* backend.h: batchblas_malloc_host, page-locked and portable (every device
   copies from it at the link's rate; staging.cu copies such operands
   directly). */
static int cu_host_alloc(void **p, size_t bytes)
{
    return cu_pinned_alloc(p, bytes) == cudaSuccess ? 0 : -1;
}

static int cu_host_free(void *p)
{
    cudaPointerAttributes a = bb_cu_pointer(p);
    if (a.type != cudaMemoryTypeHost || a.hostPointer != p) return 0;
    return chk(cudaFreeHost(p)) == cudaSuccess ? 1 : 0;
}

/* backend.h: a host-data batch over several devices (spread.c), its chunks
   claimed by one staging pipeline per device (staging.cu) */
static void cu_run_devices(bb_batch *b, int n, const int *devices, double *ms)
{
    bb_cu_run_host_on(b, n, devices, ms);
}

/* backend.h: operands the staging path would copy directly (page-locked,
   and BATCHBLAS_CUDA_DIRECT not 0), for the cost model */
static int cu_host_pinned(const void *p)
{
    pthread_once(&bb_cu_cfg_once, bb_cu_read_cfg);
    return bb_cu_cfg_stage_direct && bb_cu_host_pinned(p);
}

/* The queue entries (bb_cu_queue_create, _sync, _stream, _destroy) are in
   queue.cu. */
static const bb_backend cuda_backend = {"cuda", cu_probe, cu_supports, cu_run,
                                        bb_cu_queue_create, bb_cu_queue_sync, bb_cu_queue_stream,
                                        bb_cu_queue_destroy, cu_fetch, cu_store, cu_host_alloc, cu_host_free,
                                        cu_run_devices, cu_host_pinned, bb_cu_var_check};

extern "C" __attribute__((visibility("default"))) const bb_backend *bb_cuda_plugin_backend(void)
{
    return &cuda_backend;
}
