/*
 * Dispatch policy: the one file that decides which backend runs a batch.
 *
 *   BATCHBLAS_BACKEND=cpu   always the CPU backend
 *   BATCHBLAS_BACKEND=cuda  the CUDA backend whenever it is present and
 *                           implements the routine; otherwise the CPU (logged)
 *   BATCHBLAS_BACKEND=auto  (default) the cost model below
 *   BATCHBLAS_VERBOSE=1     prints every decision on stderr
 *
 * Cost model for host data (the plain calls): the GPU pays when moving the
 * operands over PCIe and back plus a fixed start-up cost is cheaper than the
 * CPU doing the work.  The CUDA backend is probed (and CUDA initialised) only
 * when the model says the GPU would win, so a process whose calls all stay on
 * the CPU never initialises CUDA.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "backend.h"

/* Cost-model constants (named, so they can be tuned in one place).  The
   transfer and CPU bandwidth figures are measured (doc/performance.md,
   "Host data and variable sizes": H100 machine, dpotrf n = 16, 10^6
   problems): the staged host path moved 4.1 GB (in + out) in 686 ms, the
   CPU backend streamed the same batch on 16 cores in 55 ms. */
static const double PCIE_BYTES_PER_S  = 6e9;    /* host data through the staged path, in + out */
static const double GPU_CALL_SECONDS  = 50e-6;  /* launch, sync, small copies */
static const double GPU_FLOPS         = 20e12;  /* sustained small-problem rate */
static const double CPU_FLOPS_PER_CORE = 20e9;  /* double, small problems */
static const double CPU_BYTES_PER_S_PER_CORE = 5e9; /* streaming a batch, per core */
/* The split of a host-data batch over several devices (spread.c): a
   problem's cost is its bytes plus its flops weighted by the link's rate
   over the device's (PCIE_BYTES_PER_S / GPU_FLOPS); with the default
   device list (every visible device) a device takes a share only if the
   shares are at least this many bytes (a share costs a host thread and a
   staging context); an explicit list (BATCHBLAS_DEVICES,
   batchblas_set_devices) is always used as given. */
static const double SPLIT_MIN_SHARE_BYTES = 16e6;

void bb_split_policy(double *bytes_per_flop, double *min_share_bytes)
{
    *bytes_per_flop = PCIE_BYTES_PER_S / GPU_FLOPS;
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
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    ncores = n > 0 ? (int)n : 1;
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

/* Bytes and flops of the whole batch, estimated from the first problem of
   each group (exact for the fixed and strided forms). */
static void batch_cost(const bb_batch *b, double *bytes, double *flops)
{
    double by = 0, fl = 0;
    size_t es = bb_prec_size(b->prec);
    int64_t step = b->ngroups > 4096 ? b->ngroups / 4096 : 1; /* sample big variable batches */
    for (int64_t g = 0; g < b->ngroups; g += step) {
        int64_t cnt = bb_group_first(b, g + 1) - bb_group_first(b, g);
        if (cnt == 0) continue;
        bb_problem p;
        bb_group_problem(b, g, &p);
        double pb = 0;
        for (int o = BB_A; o <= BB_C; o++) {
            int r, c;
            bb_operand_dims(b->op, &p, o, &r, &c);
            double mat = (double)r * c * es;
            pb += bb_op_writes(b->op, o) ? 2 * mat : mat;
        }
        by += pb * cnt * step;
        fl += bb_problem_flops(b, &p) * cnt * step;
    }
    *bytes = by;
    *flops = fl;
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
                                               NULL, NULL, NULL, NULL, NULL, NULL};

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
        double bytes, flops;
        batch_cost(b, &bytes, &flops);
        double t_cpu = flops / (CPU_FLOPS_PER_CORE * ncores);
        if (bytes / (CPU_BYTES_PER_S_PER_CORE * ncores) > t_cpu) t_cpu = bytes / (CPU_BYTES_PER_S_PER_CORE * ncores);
        double t_gpu = GPU_CALL_SECONDS + bytes / PCIE_BYTES_PER_S + flops / GPU_FLOPS;
        int want_gpu = forced == BatchblasBackendCUDA || t_gpu < t_cpu;
        if (!want_gpu) {
            why = "cost model: cpu faster";
        } else {
            const bb_backend *cu = bb_cuda_backend();
            if (!cu) why = "cuda backend not available";
            else if (!cu->supports(b)) why = "routine not on cuda backend";
            else {
                be = bb_spread_backend(cu); /* cu, or cu over several devices (spread.c) */
                why = forced == BatchblasBackendCUDA ? "forced cuda" : "cost model: gpu faster";
            }
        }
        if (bb_verbose())
            bb_log("%s: %lld problems, %.3g MB, %.3g MFLOP: %s -> %s", b->name,
                   (long long)b->count, bytes / 1e6, flops / 1e6, why, be->name);
        return be;
    }
    bb_log("%s: %lld problems: %s -> %s", b->name, (long long)b->count, why, be->name);
    return be;
}
