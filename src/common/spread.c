/*
 * How one host-data batch is spread over several devices.
 *
 * The device set.  batchblas_set_devices(count, ids) or
 * BATCHBLAS_DEVICES=0,1,... (read at the first use, never in a
 * constructor) names the CUDA devices that host-data calls use; an id may
 * repeat (that device then takes that many shares: on one GPU,
 * BATCHBLAS_DEVICES=0,0 runs the whole multi-device path).  Without a list
 * every visible device is used.  Ids are checked against the visible device
 * count when the CUDA plugin is loaded; a list set before that is accepted,
 * and ids that turn out not to exist are left out at the call (logged).
 *
 * A call.  When the dispatch policy sends a host-data batch to the CUDA
 * backend (dispatch.c) and the backend can run one batch over several
 * devices (run_devices, backend.h), the devices take it together: the
 * backend plans its chunks once and each device's staging pipeline claims
 * the next chunk as it is free (src/cuda/staging.cu), so that the devices
 * finish together whatever rate each gets from the shared link; only the
 * CPU's share (below) is cut off by the planner first.  Otherwise (a
 * backend without run_devices: the tests' stand-in) this file cuts it into
 * shares, one per entry of the
 * device list, with the split planner (plan.h): contiguous ranges of
 * problems whose costs (bytes moved plus weighted flops, balanced per
 * problem for variable batches and per group for group batches) are in
 * proportion to each device's rate (its multiprocessor count, from the
 * plugin).  Each share is a batch of its own (slice(): the same parameters
 * and operands, offset to its first problem; its codes are the batch's
 * pinfo at that offset) with share_device = 1 + its device, run by the CUDA
 * backend's staging pipeline on that device (a staging context per share:
 * pinned buffers, two streams, copies overlapped with compute).  The shares
 * run at once, one host thread each (the first on the calling thread); the
 * codes land in disjoint parts of pinfo, so they come back exactly as from
 * one device.  With one visible device and no list, nothing of this runs:
 * the batch goes to the backend unsplit, on the caller's current device.
 *
 * BATCHBLAS_VERBOSE=1 logs the devices and the split of every call.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "backend.h"
#include "cost.h"
#include "plan.h"
#ifdef _OPENMP
#include <omp.h>
#endif

#define MAXD BB_PLAN_MAX_PARTS

/* ---- the device set --------------------------------------------------- */

static pthread_once_t env_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int list_n = 0;          /* 0: the default, every visible device */
static int list_ids[MAXD];

/* filled by bb_spread_attach (the plugin is usable): visible devices and
   their rates; visible < 0 until then */
static atomic_int visible = -1;
static double dev_rate[MAXD];

static void read_env(void)
{
    const char *s = getenv("BATCHBLAS_DEVICES");
    if (!s || !*s) return;
    int n = 0, ids[MAXD];
    const char *p = s;
    for (;;) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 0 || v > 1000000 || n == MAXD) goto bad;
        ids[n++] = (int)v;
        while (*end == ' ') end++;
        if (*end == '\0') break;
        if (*end != ',') goto bad;
        p = end + 1;
    }
    memcpy(list_ids, ids, (size_t)n * sizeof(int));
    list_n = n;
    return;
bad:
    bb_log("BATCHBLAS_DEVICES=%s: not a list of at most %d device ids: every visible device", s, MAXD);
}

#ifdef BB_HAVE_CUDA
#include <dlfcn.h>
#endif

void bb_spread_attach(void *plugin)
{
    int n = 0;
#ifdef BB_HAVE_CUDA
    int (*get)(double *, int) = (int (*)(double *, int))dlsym(plugin, "bb_cuda_plugin_devices");
    if (get) n = get(dev_rate, MAXD);
#endif
    if (n > MAXD) n = MAXD; /* devices beyond the first MAXD are not named */
    for (int d = 0; d < n; d++)
        if (!(dev_rate[d] > 0)) dev_rate[d] = 1.0;
    atomic_store(&visible, n > 0 ? n : 0);
}

int batchblas_set_devices(int count, const int *ids)
{
    pthread_once(&env_once, read_env);
    if (count < 0 || count > MAXD || (count > 0 && !ids)) return BblasErrInvalid;
    int nv = atomic_load(&visible);
    for (int k = 0; k < count; k++)
        if (ids[k] < 0 || (nv >= 0 && ids[k] >= nv)) return BblasErrInvalid;
    pthread_mutex_lock(&mu);
    if (count) memcpy(list_ids, ids, (size_t)count * sizeof(int));
    list_n = count;
    pthread_mutex_unlock(&mu);
    if (bb_verbose()) {
        char buf[8 * MAXD + 32] = "";
        size_t at = 0;
        for (int k = 0; k < count && at < sizeof buf - 12; k++)
            at += (size_t)snprintf(buf + at, sizeof buf - at, k ? ",%d" : "%d", ids[k]);
        bb_log("devices: %s", count ? buf : "every visible device (default)");
    }
    return BblasSuccess;
}

int batchblas_get_devices(int max, int *ids)
{
    pthread_once(&env_once, read_env);
    if (max < 0 || (max > 0 && !ids)) return BblasErrInvalid;
    int n, tmp[MAXD];
    pthread_mutex_lock(&mu);
    n = list_n;
    memcpy(tmp, list_ids, (size_t)n * sizeof(int));
    pthread_mutex_unlock(&mu);
    if (n == 0) { /* the default: every visible device (probes the plugin) */
        (void)bb_cuda_backend();
        n = atomic_load(&visible);
        if (n < 0) n = 0;
        for (int d = 0; d < n; d++) tmp[d] = d;
    }
    for (int k = 0; k < n && k < max; k++) ids[k] = tmp[k];
    return n;
}

/* The devices of this call: the list (without ids that do not exist), or
   every visible device; *dflt: it is the default. */
static int devices_now(int *ids, int *dflt)
{
    pthread_once(&env_once, read_env);
    int nv = atomic_load(&visible);
    if (nv < 0) nv = 0;
    int n;
    pthread_mutex_lock(&mu);
    n = list_n;
    memcpy(ids, list_ids, (size_t)n * sizeof(int));
    pthread_mutex_unlock(&mu);
    *dflt = n == 0;
    if (n == 0) {
        for (int d = 0; d < nv; d++) ids[d] = d;
        return nv;
    }
    int m = 0;
    for (int k = 0; k < n; k++) {
        if (ids[k] < nv) ids[m++] = ids[k];
        else bb_log("device %d in the device list does not exist (%d visible): left out", ids[k], nv);
    }
    return m;
}

/* ---- a share of a batch as a batch ------------------------------------ */

/* The group holding problem i (gstart ascending, ngroups >= 1). */
static int64_t group_of(const bb_batch *b, int64_t i)
{
    int64_t lo = 0, hi = b->ngroups - 1;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo + 1) / 2;
        if (b->gstart[mid] <= i) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

static const void *offset(const void *p, int64_t n, size_t size)
{
    return p ? (const char *)p + (size_t)n * size : NULL;
}

/* s = problems [lo, hi) of b (lo < hi); the group form needs gsizes and
   gstart of (groups in the range + 1) entries, owned by the caller. */
static void slice(const bb_batch *b, int64_t lo, int64_t hi, int device, bb_batch *s, int *gsizes,
                  int64_t *gstart)
{
    *s = *b;
    s->count = hi - lo;
    s->pinfo = b->pinfo + lo;
    s->info = NULL; /* the codes go to pinfo only; front.c folds them */
    s->share_device = device + 1;
    for (int o = 0; o < BB_NOPD; o++) {
        const bb_operand *d = &b->opd[o];
        if (d->arr) s->opd[o].arr = d->arr + lo;
        else if (d->base) s->opd[o].base = (char *)bb_operand_ptr(b, o, lo);
    }
    int64_t g0 = 0;
    if (b->form == BB_FORM_VAR) {
        g0 = lo;
        s->ngroups = hi - lo;
    } else if (b->form == BB_FORM_GROUP) {
        g0 = group_of(b, lo);
        int64_t g1 = group_of(b, hi - 1), ng = g1 - g0 + 1;
        gstart[0] = 0;
        for (int64_t k = 1; k < ng; k++) gstart[k] = b->gstart[g0 + k] - lo;
        gstart[ng] = hi - lo;
        for (int64_t k = 0; k < ng; k++) gsizes[k] = (int)(gstart[k + 1] - gstart[k]);
        s->ngroups = ng;
        s->gstart = gstart;
        s->group_sizes = gsizes;
    }
    if (s->pinc) { /* parameters per group (per problem in the variable form) */
        for (int k = 0; k < BB_NPAR; k++)
            if (b->par[k]) s->par[k] = b->par[k] + g0;
        s->alpha = offset(b->alpha, g0, bb_scalar_bytes(b, 0));
        s->beta = offset(b->beta, g0, bb_scalar_bytes(b, 1));
    }
    int64_t bad = 0;
    for (int64_t i = 0; i < s->count; i++) bad += s->pinfo[i] != 0;
    s->nbad = bad;
}

/* ---- the split and the shares' threads -------------------------------- */

/* The plan: bounds[0..n] over participants of the given rates; returns 0,
   or -1 (out of memory). */
static int split(const bb_batch *b, int n, const double *rates, double bpf, double *total, int64_t *bounds)
{
    bb_problem p;
    *total = 0;
    if (b->form == BB_FORM_VAR) {
        double *cost = bb_malloc((size_t)b->count * sizeof *cost);
        if (!cost) return -1;
        for (int64_t i = 0; i < b->count; i++) {
            if (b->pinfo[i]) {
                cost[i] = 0;
                continue;
            }
            bb_group_problem(b, i, &p);
            cost[i] = bb_plan_problem_cost(b, &p, bpf);
            *total += cost[i];
        }
        int rc = bb_plan_costs(b->count, cost, n, rates, bounds);
        free(cost);
        return rc;
    }
    if (b->form == BB_FORM_GROUP) {
        int64_t *len = bb_malloc((size_t)b->ngroups * sizeof *len);
        double *cost = bb_malloc((size_t)b->ngroups * sizeof *cost);
        if (!len || !cost) {
            free(len);
            free(cost);
            return -1;
        }
        for (int64_t g = 0; g < b->ngroups; g++) {
            len[g] = b->gstart[g + 1] - b->gstart[g];
            cost[g] = 0;
            if (len[g] == 0) continue;
            bb_group_problem(b, g, &p);
            cost[g] = bb_plan_problem_cost(b, &p, bpf);
            *total += cost[g] * (double)len[g];
        }
        int rc = bb_plan_runs(b->ngroups, len, cost, n, rates, bounds);
        free(len);
        free(cost);
        return rc;
    }
    bb_group_problem(b, 0, &p);
    *total = bb_plan_problem_cost(b, &p, bpf) * (double)(b->count - b->nbad);
    return bb_plan_uniform(b->count, n, rates, bounds);
}

typedef struct {
    const bb_backend *be; /* the CUDA backend, or the CPU backend for the CPU's share */
    bb_batch part;
    int *gsizes;
    int64_t *gstart;
    int omp_threads;      /* the CPU's share: its OpenMP threads (0: default) */
    int ndev;             /* > 0: the share of every device at once (be->run_devices) */
    const int *devs;
    double dev_ms[MAXD];  /* ... and each device's time */
    pthread_t th;
    int threaded;
    double t_start;       /* when the shares were started (now_ms) */
    double ms;            /* when its run finished, ms after t_start (the verbose log's balance line) */
} share;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static void share_run(share *sh)
{
    double t0 = now_ms();
    if (sh->ndev > 0) sh->be->run_devices(&sh->part, sh->ndev, sh->devs, sh->dev_ms);
    else sh->be->run(&sh->part);
    sh->ms = now_ms() - sh->t_start;
    for (int d = 0; d < sh->ndev; d++) /* the devices' finish times after t_start */
        if (sh->dev_ms[d] > 0) sh->dev_ms[d] += t0 - sh->t_start;
}

static void *share_main(void *arg)
{
    share *sh = arg;
#ifdef _OPENMP
    if (sh->omp_threads > 0) omp_set_num_threads(sh->omp_threads); /* this thread's own setting */
#endif
    share_run(sh);
    return NULL;
}

/* tests only (bb_spread_test): the backend that runs the shares */
static const bb_backend *_Atomic test_inner = NULL;

/* BATCHBLAS_SPREAD_STATIC=1: the devices take fixed shares from the
   planner, as a backend without run_devices does, instead of claiming
   chunks (A/B measurements; read with BATCHBLAS_CPU_SHARE) */
static int spread_static_env = 0;

static void read_spread_static(void)
{
    const char *s = getenv("BATCHBLAS_SPREAD_STATIC");
    spread_static_env = s && *s && strcmp(s, "0") != 0;
}

/* BATCHBLAS_CPU_SHARE=f (0 < f < 1): the CPU's share of every host-data
   call sent to the GPUs, instead of the cost model's; 0: the CPU never takes
   a share (read with the device list; testing and tuning). */
static double cpu_share_env = -1;

static void read_cpu_share(void)
{
    read_spread_static();
    const char *s = getenv("BATCHBLAS_CPU_SHARE");
    if (!s || !*s) return;
    char *end;
    double f = strtod(s, &end);
    if (end != s && *end == '\0' && f >= 0 && f < 1) cpu_share_env = f;
    else bb_log("BATCHBLAS_CPU_SHARE=%s: not a number in [0, 1): the cost model decides", s);
}

static pthread_once_t share_once = PTHREAD_ONCE_INIT;

void bb_spread_test_cpu_share(double f)
{
    pthread_once(&share_once, read_cpu_share);
    cpu_share_env = f;
}

double bb_spread_cpu_share_forced(void)
{
    pthread_once(&share_once, read_cpu_share);
    return cpu_share_env;
}

static void spread_any(bb_batch *b, int with_cpu)
{
    const bb_backend *cu = atomic_load(&test_inner);
    if (!cu) cu = bb_cuda_backend();
    if (!cu) { /* cannot happen: dispatched here only with the backend */
        for (int64_t i = 0; i < b->count; i++)
            if (!b->pinfo[i]) b->pinfo[i] = BB_INFO_DEVICE;
        return;
    }
    int ids[MAXD], dflt = 0;
    int n = devices_now(ids, &dflt);
    if (n == 0) { /* nothing usable in the list: the current device */
        ids[0] = -1;
        n = 1;
    }
    double bpf, min_share;
    bb_split_policy(&bpf, &min_share);
    bb_work w; /* the batch's bytes and flops, for the two decisions below */
    if ((dflt && n > 1) || with_cpu) {
        bb_cost_work(b, &w);
        if (with_cpu && cu->host_pinned) bb_cost_direct(b, &w, cu->host_pinned);
    }
    if (dflt && n > 1) { /* the default list: only as many devices as shares pay */
        double bytes = w.bytes + w.flops * bpf;
        int want = bytes >= min_share * n ? n : (int)(bytes / min_share);
        if (want < n) n = want < 1 ? 1 : want;
    }

    /* the participants: the CPU first (if it takes a share), then the
       devices; rates: the devices' relative rates scaled to one GPU's
       modelled rate, the CPU's from the same model on its cores */
    int np = 0, cores = bb_host_cores(), cpu_threads = 0, stage_threads = 0;
    double rates[MAXD + 1];
    int dev_of[MAXD + 1];
    if (with_cpu) {
        cpu_threads = cores / 2 > 0 ? cores / 2 : 1;
        stage_threads = (cores - cpu_threads) / n;
        if (stage_threads < 1) stage_threads = 1;
        double mean = 0;
        for (int k = 0; k < n; k++) mean += ids[k] >= 0 ? dev_rate[ids[k]] : 1.0;
        mean /= n;
        double forced = bb_spread_cpu_share_forced();
        double r_cpu, r_gpu;
        if (forced > 0) {
            r_cpu = forced;
            r_gpu = (1 - forced) / n;
        } else {
            double f;
            (void)bb_cost_both(b, &w, cpu_threads, stage_threads, &f);
            r_cpu = f;
            r_gpu = (1 - f) / n;
        }
        dev_of[np] = -2;
        rates[np++] = r_cpu;
        for (int k = 0; k < n; k++) {
            dev_of[np] = ids[k];
            rates[np++] = r_gpu * (ids[k] >= 0 ? dev_rate[ids[k]] : 1.0) / mean;
        }
    } else {
        for (int k = 0; k < n; k++) {
            dev_of[np] = ids[k];
            rates[np++] = ids[k] >= 0 ? dev_rate[ids[k]] : 1.0;
        }
    }
    if (np == 1 && (dflt || ids[0] < 0)) { /* one device, no CPU: unsplit on the current device */
        bb_log("%s: one device (the current one)", b->name);
        cu->run(b);
        return;
    }
    int64_t bounds[MAXD + 2];
    double total = 0;
    if (split(b, np, rates, bpf, &total, bounds)) {
        bb_log("%s: out of memory planning the split: unsplit, on the current device", b->name);
        cu->run(b);
        return;
    }

    /* the devices' shares as one, which they claim chunk by chunk (the
       backend's run_devices): they finish together whatever each device's
       rate turns out to be; the CPU keeps its share */
    pthread_once(&share_once, read_cpu_share);
    int claimed = cu->run_devices != NULL && np - with_cpu > 1 && !spread_static_env;
    int gpu_ids[MAXD];
    if (claimed) {
        for (int k = with_cpu; k < np; k++) gpu_ids[k - with_cpu] = dev_of[k];
        bounds[with_cpu + 1] = b->count;
        dev_of[with_cpu] = -3;
        np = with_cpu + 1;
    }

    share sh[MAXD + 1];
    memset(sh, 0, sizeof sh);
    int oom = 0;
    for (int k = 0; k < np; k++) {
        sh[k].be = dev_of[k] == -2 ? &bb_cpu_backend : cu;
        int64_t lo = bounds[k], hi = bounds[k + 1];
        if (lo >= hi) continue;
        if (b->form == BB_FORM_GROUP) {
            int64_t ng = group_of(b, hi - 1) - group_of(b, lo) + 1;
            sh[k].gsizes = bb_malloc((size_t)ng * sizeof(int));
            sh[k].gstart = bb_malloc((size_t)(ng + 1) * sizeof(int64_t));
            if (!sh[k].gsizes || !sh[k].gstart) {
                oom = 1;
                break;
            }
        }
        slice(b, lo, hi, dev_of[k] >= 0 ? dev_of[k] : -1, &sh[k].part, sh[k].gsizes, sh[k].gstart);
        if (dev_of[k] == -3) {
            sh[k].ndev = n;
            sh[k].devs = gpu_ids;
            sh[k].part.share_device = 0;
            if (with_cpu) sh[k].part.stage_threads = stage_threads;
        } else if (dev_of[k] == -2) {
            sh[k].omp_threads = cpu_threads;
            sh[k].part.share_device = 0;
        } else {
            sh[k].part.stage_threads = stage_threads;
        }
    }
    if (oom) {
        for (int k = 0; k < np; k++) {
            free(sh[k].gsizes);
            free(sh[k].gstart);
        }
        bb_log("%s: out of memory cutting the batch: unsplit, on the current device", b->name);
        cu->run(b);
        return;
    }

    if (bb_verbose()) {
        char buf[64 * (MAXD + 1) + 16];
        size_t at = 0;
        buf[0] = '\0';
        for (int k = 0; k < np && at < sizeof buf - 64; k++) {
            if (dev_of[k] == -2)
                at += (size_t)snprintf(buf + at, sizeof buf - at, " cpu (%d threads) [%lld, %lld)", cpu_threads,
                                       (long long)bounds[k], (long long)bounds[k + 1]);
            else if (dev_of[k] == -3)
                at += (size_t)snprintf(buf + at, sizeof buf - at, "%s %d devices, chunks claimed [%lld, %lld)",
                                       k ? "," : "", n, (long long)bounds[k], (long long)bounds[k + 1]);
            else
                at += (size_t)snprintf(buf + at, sizeof buf - at, "%s device %d [%lld, %lld)", k ? "," : "",
                                       dev_of[k], (long long)bounds[k], (long long)bounds[k + 1]);
        }
        bb_log("%s: %lld problems, cost %.3g MB (bytes + weighted flops) over %d share(s)%s:%s", b->name,
               (long long)b->count, total / 1e6, np, dflt ? " (every visible device)" : "", buf);
    }

    /* the shares at once: the first device share on this thread, the
       others (the CPU's always: its OpenMP setting is its thread's own) on
       threads of their own; a share whose thread cannot start runs here
       after */
    int first = -1;
    const double t_start = now_ms();
    for (int k = 0; k < np; k++) sh[k].t_start = t_start;
    for (int k = 0; k < np; k++) {
        if (bounds[k] >= bounds[k + 1]) continue;
        if (first < 0 && dev_of[k] != -2) {
            first = k;
            continue;
        }
        sh[k].threaded = pthread_create(&sh[k].th, NULL, share_main, &sh[k]) == 0;
    }
    if (first >= 0) share_run(&sh[first]);
    for (int k = 0; k < np; k++) {
        if (k == first || bounds[k] >= bounds[k + 1]) continue;
        if (sh[k].threaded) pthread_join(sh[k].th, NULL);
        else share_run(&sh[k]);
    }
    if (bb_verbose()) { /* the balance: when each share (each device) finished after the
                           start, and the latest over the earliest */
        char buf[48 * (MAXD + 1) + 16];
        size_t at = 0;
        double lo = 0, hi = 0;
        buf[0] = '\0';
        for (int k = 0; k < np && at < sizeof buf - 48; k++) {
            if (bounds[k] >= bounds[k + 1]) continue;
            if (dev_of[k] == -3) { /* each device of the claimed share */
                double dlo = 0, dhi = 0;
                for (int d = 0; d < sh[k].ndev && at < sizeof buf - 48; d++) {
                    double t = sh[k].dev_ms[d];
                    if (t <= 0) continue; /* no pipeline: fewer chunks than devices */
                    if (dlo == 0 || t < dlo) dlo = t;
                    if (t > dhi) dhi = t;
                    at += (size_t)snprintf(buf + at, sizeof buf - at, " device %d %.2f ms", sh[k].devs[d], t);
                }
                if (dlo > 0 && (lo == 0 || dlo < lo)) lo = dlo;
                if (dhi > hi) hi = dhi;
                continue;
            }
            if (lo == 0 || sh[k].ms < lo) lo = sh[k].ms;
            if (sh[k].ms > hi) hi = sh[k].ms;
            if (dev_of[k] == -2) at += (size_t)snprintf(buf + at, sizeof buf - at, " cpu %.2f ms", sh[k].ms);
            else at += (size_t)snprintf(buf + at, sizeof buf - at, " device %d %.2f ms", dev_of[k], sh[k].ms);
        }
        bb_log("%s: shares done at:%s; slowest/fastest %.3f", b->name, buf, lo > 0 ? hi / lo : 1.0);
    }
    /* a failed device call of any share reaches the error handler (front.c) */
    for (int k = 0; k < np && !b->device_fail; k++)
        if (bounds[k] < bounds[k + 1]) b->device_fail = sh[k].part.device_fail;
    for (int k = 0; k < np; k++) {
        free(sh[k].gsizes);
        free(sh[k].gstart);
    }
}

static void spread_run(bb_batch *b) { spread_any(b, 0); }
static void hybrid_run(bb_batch *b) { spread_any(b, 1); }

static int spread_probe(void) { return bb_cuda_backend() != NULL; }
static int spread_supports(const bb_batch *b)
{
    const bb_backend *cu = bb_cuda_backend();
    return cu && cu->supports(b);
}

/* Named "cuda": it is the CUDA backend, over several devices. */
static const bb_backend spread_backend = {"cuda", spread_probe, spread_supports, spread_run,
                                          NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
/* The CPU and the CUDA backend (over every device of the list) at once. */
static const bb_backend hybrid_backend = {"cpu+cuda", spread_probe, spread_supports, hybrid_run,
                                          NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};

void bb_spread_test(const bb_backend *inner, int nvisible)
{
    pthread_once(&env_once, read_env);
    if (inner) {
        if (nvisible > MAXD) nvisible = MAXD;
        for (int d = 0; d < nvisible; d++) dev_rate[d] = 1.0 + (d % 3); /* unequal rates */
        atomic_store(&visible, nvisible);
    } else {
        atomic_store(&visible, -1);
    }
    atomic_store(&test_inner, inner);
}

const bb_backend *bb_spread_test_backend(void)
{
    if (!atomic_load_explicit(&test_inner, memory_order_relaxed)) return NULL;
    return bb_spread_cpu_share_forced() > 0 ? &hybrid_backend : &spread_backend;
}

const bb_backend *bb_spread_backend(const bb_backend *cu, int with_cpu)
{
    pthread_once(&env_once, read_env);
    if (with_cpu) return &hybrid_backend;
    int n;
    pthread_mutex_lock(&mu);
    n = list_n;
    pthread_mutex_unlock(&mu);
    if (n == 0 && atomic_load(&visible) <= 1) return cu; /* one device, no list: unsplit */
    return &spread_backend;
}
