/*
 * Dispatch policy: the one file that decides which backend runs a batch.
 *
 *   BATCHBLAS_BACKEND=cpu   always the CPU backend
 *   BATCHBLAS_BACKEND=cuda  the CUDA backend whenever it is present and
 *                           implements the routine; otherwise the CPU (logged)
 *   BATCHBLAS_BACKEND=auto  (default) the cost model below
 *   BATCHBLAS_VERBOSE=1     prints every decision on stderr
 *
 * Cost model for host data (the plain calls, cost.c): the GPU pays when its
 * staging path (operands over PCIe and back, host copies, a fixed start-up
 * cost) is cheaper than the CPU doing the work; the CPU and the GPUs take a
 * share each when the model says together they finish clearly sooner than
 * the faster side alone (spread.c cuts the batch).  The CUDA backend is probed (and CUDA initialised) only
 * when the model says the GPU would win, so a process whose calls all stay on
 * the CPU never initialises CUDA.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "backend.h"
#include "cost.h"

/* The split of a host-data batch over several devices (spread.c): a
   problem's cost is its bytes plus its flops weighted by the staging rate
   over the device's kernel rate (SPLIT_BYTES_PER_FLOP: 28 GB/s over
   20 TFLOP/s, cost.c); with the default device list (every visible
   device) a device takes a share only if the shares are at least
   SPLIT_MIN_SHARE_BYTES (a share costs a host thread and a staging
   context); an explicit list (BATCHBLAS_DEVICES, batchblas_set_devices) is
   always used as given.  The CPU takes a share beside the GPUs only if the
   model says both together finish in at most HYBRID_GAIN of the faster
   side's time alone (the model counts the host memory both draw on, not
   the cores they share). */
static const double SPLIT_BYTES_PER_FLOP = 28e9 / 20e12;
static const double SPLIT_MIN_SHARE_BYTES = 16e6;
static const double HYBRID_GAIN = 0.85;

void bb_split_policy(double *bytes_per_flop, double *min_share_bytes)
{
    *bytes_per_flop = SPLIT_BYTES_PER_FLOP;
    *min_share_bytes = SPLIT_MIN_SHARE_BYTES;
}

static pthread_once_t env_once = PTHREAD_ONCE_INIT;
static batchblas_backend_t forced = BatchblasBackendAuto;
static int verbose = 0;
static int ncores = 1;

static void read_env(void)
{
    const char *s = getenv("BATCHBLAS_BACKEND");
    if (s) {
        if (!strcmp(s, "cpu")) forced = BatchblasBackendCPU;
        else if (!strcmp(s, "cuda")) forced = BatchblasBackendCUDA;
        else forced = BatchblasBackendAuto;
    }
    const char *v = getenv("BATCHBLAS_VERBOSE");
    if (v) verbose = atoi(v);
    ncores = bb_host_cores();
}

int bb_host_cores(void)
{
#ifdef __linux__
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int n = CPU_COUNT(&set);
        if (n > 0) return n;
    }
#endif
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int bb_verbose(void)
{
    pthread_once(&env_once, read_env);
    return verbose;
}

void bb_log(const char *fmt, ...)
{
    if (!bb_verbose()) return;
    va_list ap;
    va_start(ap, fmt);
    fputs("batchblas: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void batchblas_set_verbose(int level)
{
    pthread_once(&env_once, read_env);
    verbose = level;
}

int batchblas_set_backend(batchblas_backend_t backend)
{
    pthread_once(&env_once, read_env);
    if (backend != BatchblasBackendAuto && backend != BatchblasBackendCPU &&
        backend != BatchblasBackendCUDA)
        return BblasErrInvalid;
    if (backend == BatchblasBackendCUDA && !bb_cuda_backend()) return BblasErrUnavailable;
    forced = backend;
    return BblasSuccess;
}

batchblas_backend_t batchblas_get_backend(void)
{
    pthread_once(&env_once, read_env);
    return forced;
}

int batchblas_backend_available(batchblas_backend_t backend)
{
    if (backend == BatchblasBackendCPU || backend == BatchblasBackendAuto) return 1;
    if (backend == BatchblasBackendCUDA) return bb_cuda_backend() != NULL;
    return 0;
}

const char *batchblas_backend_name(batchblas_backend_t backend)
{
    switch (backend) {
    case BatchblasBackendAuto: return "auto";
    case BatchblasBackendCPU: return "cpu";
    case BatchblasBackendCUDA: return "cuda";
    }
    return "unknown";
}

/* Device data without a CUDA backend: every problem reports BB_INFO_DEVICE. */
static int nodev_probe(void) { return 1; }
static int nodev_supports(const bb_batch *b) { return 1; }
static void nodev_run(bb_batch *b)
{
    for (int64_t i = 0; i < b->count; i++)
        if (!b->pinfo[i]) b->pinfo[i] = BB_INFO_DEVICE;
}
static const bb_backend bb_nodevice_backend = {"none", nodev_probe, nodev_supports, nodev_run,
                                               NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};

const bb_backend *bb_device_backend(void)
{
    const bb_backend *cu = bb_cuda_backend();
    return cu && cu->fetch && cu->store ? cu : NULL;
}

/* ---- queues: forwarded to the CUDA backend ---- */
int batchblas_queue_create(batchblas_queue_t *queue, int device)
{
    return batchblas_queue_create_with_stream(queue, device, NULL);
}

int batchblas_queue_create_with_stream(batchblas_queue_t *queue, int device, void *stream)
{
    if (!queue || device < 0) return BblasErrInvalid;
    *queue = NULL;
    const bb_backend *cu = bb_cuda_backend();
    if (!cu || !cu->queue_create) return BblasErrUnavailable;
    return cu->queue_create(queue, device, stream);
}

int batchblas_queue_sync(batchblas_queue_t queue)
{
    const bb_backend *cu = queue ? bb_cuda_backend() : NULL;
    return cu ? cu->queue_sync(queue) : BblasErrInvalid;
}

void *batchblas_queue_stream(batchblas_queue_t queue)
{
    const bb_backend *cu = queue ? bb_cuda_backend() : NULL;
    return cu ? cu->queue_stream(queue) : NULL;
}

int batchblas_queue_destroy(batchblas_queue_t queue)
{
    if (!queue) return BblasSuccess;
    const bb_backend *cu = bb_cuda_backend();
    return cu ? cu->queue_destroy(queue) : BblasErrInvalid;
}

/* ---- page-locked host memory: from the CUDA backend, else the heap ---- */

/* set once a page-locked block was handed out: only then does
   batchblas_free_host ask the backend (a CPU-only process never loads it) */
static atomic_int host_pinned_given = 0;

int batchblas_malloc_host(void **ptr, size_t bytes)
{
    if (!ptr) return BblasErrInvalid;
    *ptr = NULL;
    if (bytes == 0) return BblasSuccess;
    const bb_backend *cu = bb_cuda_backend();
    if (cu && cu->host_alloc && cu->host_alloc(ptr, bytes) == 0 && *ptr) {
        atomic_store(&host_pinned_given, 1);
        return BblasSuccess;
    }
    *ptr = NULL;
    void *p = NULL;
    if (bytes > SIZE_MAX - 63 || bb_fault_hit() || posix_memalign(&p, 64, bytes) != 0) return BblasErrNoMemory;
    *ptr = p;
    return BblasSuccess;
}

void batchblas_free_host(void *ptr)
{
    if (!ptr) return;
    if (atomic_load(&host_pinned_given)) {
        const bb_backend *cu = bb_cuda_backend();
        if (cu && cu->host_free && cu->host_free(ptr) == 1) return;
    }
    free(ptr);
}

const bb_backend *bb_dispatch(const bb_batch *b)
{
    pthread_once(&env_once, read_env);
    const char *why;
    const bb_backend *be = &bb_cpu_backend;

    if (b->device_data) {
        const bb_backend *cu = bb_cuda_backend();
        if (cu) {
            bb_log("%s: %lld problems on device data -> cuda", b->name, (long long)b->count);
            return cu;
        }
        bb_log("%s: device data but no cuda backend -> every problem fails", b->name);
        return &bb_nodevice_backend;
    }
    const bb_backend *spread_test = bb_spread_test_backend(); /* tests/test_spread.c only */
    if (spread_test) return spread_test;
    if (forced == BatchblasBackendCPU) {
        why = "forced cpu";
    } else {
        bb_work w;
        bb_cost_work(b, &w);
        /* operands in page-locked memory go at the link's rate (the plugin
           is asked only once it is loaded: memory it could have pinned,
           batchblas_malloc_host, loads it) */
        const bb_backend *loaded = bb_cuda_backend_loaded();
        if (loaded && loaded->host_pinned) bb_cost_direct(b, &w, loaded->host_pinned);
        /* the model (cost.c): the CPU on every core, one GPU with its
           staging threads on every core, or both at once on half each */
        double t_cpu = bb_cost_cpu(b, &w, ncores);
        double t_gpu = bb_cost_gpu(b, &w, bb_cost_stage_threads(ncores));
        int half = ncores / 2 > 0 ? ncores / 2 : 1;
        double t_both = bb_cost_both(b, &w, half, ncores - half > 0 ? ncores - half : 1, NULL);
        double forced_share = bb_spread_cpu_share_forced();
        double best = t_cpu < t_gpu ? t_cpu : t_gpu;
        int both = forced_share > 0 ||
                   (forced == BatchblasBackendAuto && forced_share != 0 && t_both < HYBRID_GAIN * best);
        int want_gpu = forced == BatchblasBackendCUDA || both || t_gpu < t_cpu;
        if (!want_gpu) {
            why = "cost model: cpu faster";
        } else {
            const bb_backend *cu = bb_cuda_backend();
            if (!cu) why = "cuda backend not available";
            else if (!cu->supports(b)) why = "routine not on cuda backend";
            else {
                be = bb_spread_backend(cu, both); /* cu, or cu over several devices, or cpu and cu (spread.c) */
                why = both ? (forced_share > 0 ? "BATCHBLAS_CPU_SHARE: cpu and gpu" : "cost model: cpu and gpu together")
                      : forced == BatchblasBackendCUDA ? "forced cuda" : "cost model: gpu faster";
            }
        }
        if (bb_verbose())
            bb_log("%s: %lld problems, %.3g MB (%.3g MB page-locked), %.3g MFLOP; model ms: cpu %.3g, gpu %.3g, "
                   "both %.3g: %s -> %s",
                   b->name, (long long)b->count, w.bytes / 1e6, w.direct / 1e6, w.flops / 1e6, t_cpu * 1e3,
                   t_gpu * 1e3, t_both * 1e3, why, be->name);
        return be;
    }
    bb_log("%s: %lld problems: %s -> %s", b->name, (long long)b->count, why, be->name);
    return be;
}
