/*
 * The cost model of host-data batches (cost.h).
 *
 *   CPU:  t = max(bytes / min(cores * cpu_bw_core, cpu_bw_max),
 *                 (problems * c0[op] + flops / f[op]) / cores)
 *   GPU:  t = gpu_call + (bytes - direct) / gpu_bw(threads) + direct / gpu_bw_direct
 *             + flops / g[op]
 *   both: t = s max(t_cpu t_gpu / (t_cpu + t_gpu),
 *                   (f bytes + (1 - f) (3 (bytes - direct) + direct)) / cpu_bw_max),
 *         f = the CPU's share
 *
 * direct: the bytes of operands in page-locked memory, which the staging
 * path copies between the device and the user's memory without the host
 * copy (bb_cost_direct); they go at the link's rate, gpu_bw_direct.
 *
 * The last term is the host's memory: the CPU moves each counted byte of
 * its share once, the GPU's staging path three times (the gather or the
 * scatter between the user's memory and the pinned buffer, and the DMA),
 * and both draw on the same memory, whose rate the CPU's streaming
 * (cpu_bw_max) measures; s (both_slowdown) is what the two sides lose to
 * each other beyond that (cores, caches), measured.  On the H100 machine
 * (doc/performance.md, "Host data") both together were slower than the
 * faster side alone in every row (s = 1.9), so the model keeps the CPU out
 * of GPU calls there.
 *
 * c0[op] is the fixed work of one problem on one core (call, pivoting and
 * loop overheads: what makes tiny problems slower than their flops say),
 * f[op] the flop rate of one core on that routine.  gpu_bw(threads) is the
 * rate of the staging path (bytes in plus bytes out over the call's time)
 * with that many host copy threads: the host-side copies into and out of
 * the pinned buffers bound it, not the link (doc/performance.md, "Host
 * data"); g[op] is the rate at which the routine's kernels add to that
 * (what the pipeline does not hide: large kernels of a chunk run longer
 * than its copies).
 *
 * The constants below were measured on the H100 machine (16 cores, double;
 * doc/performance.md "Host data: the CPU, the GPU, both"), by
 * tools/calibrate.sh and the host-data rows of tools/gpu-hostdata.sh.  BATCHBLAS_COST_FILE=path replaces any of them
 * at the first use: the file tools/calibrate.sh writes for another machine
 * (lines "cpu_bw_core B", "cpu_bw_max B", "gpu_call S", "gpu_bw_direct B", "both_slowdown S",
 * "gpu_bw THREADS B",
 * "cpu_op NAME C0 F", "cpu_op_mid NAME F FLOPS_PER_PROBLEM", "gpu_op NAME F";
 * '#' starts a comment; a line that
 * does not parse is ignored and logged).
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "backend.h"
#include "cost.h"
#include "plan.h"

static const char *const op_names[BB_NOPS] = {
    "gemm", "symm", "hemm", "syrk", "herk", "syr2k", "her2k", "trmm", "trsm",
    "potrf", "potrs", "posv", "trtri", "lauum", "potri", "poti",
    "getrf", "getrfnp", "getrs", "gesv", "getri", "getri_oop",
    "lange", "gecond", "gecon", "inverse",
};

typedef struct {
    double c0; /* seconds of one problem's fixed work on one core */
    double f;  /* flop/s of one core (n = 256) */
    /* flop/s of one core at a mid size (n = 64), and the flops of one
       problem there; 0: f at every size.  Between fpp_mid and 64 fpp_mid
       (n = 64 .. 256) the rate goes geometrically from f_mid to f: the
       LAPACK-level routines run 2.5-3.5x slower per flop at 64 than at 256
       (host-data rows, session 6), which a single rate missed by up to 3x */
    double f_mid, fpp_mid;
} cpu_op;

#define GPU_BW_POINTS 5
static struct {
    double cpu_bw_core, cpu_bw_max;
    cpu_op op[BB_NOPS];
    double gpu_call;
    double gpu_bw_direct;
    double both_slowdown;
    double gpu_op[BB_NOPS];
    int gpu_bw_threads[GPU_BW_POINTS];
    double gpu_bw[GPU_BW_POINTS];
} M = {
    /* CPU streaming: one core, and the whole host (the best counted-bytes
       rate of the host-data rows, dpotrf n = 16) */
    .cpu_bw_core = 5.5e9,
    .cpu_bw_max = 100e9,
    /* per routine: potrf, trsm, syrk, potri, getrf, gesv from the host-data
       rows of session 6 (tools/gpu-hostdata.sh, 1 GB, n = 16, 64 and 256,
       after the CPU kernels across problems: C0 from n = 16 at the n = 64
       rate, F at 256, F_mid at 64); the others from tools/calibrate.sh's
       rows (0.25 GB, session 5), whose fixed work per problem came out
       about 2 us higher where both were measured (unexplained; it makes the
       CPU look slower than it is for those routines' tiny sizes) */
    .op = {
        [BB_OP_GEMM] = {6.4e-6, 34e9},   [BB_OP_SYMM] = {20e-6, 28e9},   [BB_OP_HEMM] = {24e-6, 32e9},
        [BB_OP_SYRK] = {0.74e-6, 31.3e9, 9.77e9, 2.66e5}, [BB_OP_HERK] = {21e-6, 35e9}, [BB_OP_SYR2K] = {20e-6, 24e9},
        [BB_OP_HER2K] = {21e-6, 28e9},   [BB_OP_TRMM] = {19e-6, 27e9},
        [BB_OP_TRSM] = {0.72e-6, 17.2e9, 8.33e9, 2.62e5},
        [BB_OP_POTRF] = {0.38e-6, 17.3e9, 4.98e9, 8.74e4}, [BB_OP_POTRS] = {4.6e-6, 7.9e9}, [BB_OP_POSV] = {3.1e-6, 9.7e9},
        [BB_OP_TRTRI] = {2.3e-6, 3.2e9}, [BB_OP_LAUUM] = {1.2e-6, 5.7e9},
        [BB_OP_POTRI] = {0, 8.6e9, 3.33e9, 1.75e5},
        [BB_OP_POTI] = {2.1e-6, 6e9},    [BB_OP_GETRF] = {0.42e-6, 12.4e9, 3.54e9, 1.75e5}, [BB_OP_GETRFNP] = {0.8e-6, 11.5e9},
        [BB_OP_GETRS] = {21e-6, 8.6e9},  [BB_OP_GESV] = {0.02e-6, 10.3e9, 4.22e9, 6.99e5}, [BB_OP_GETRI] = {1.8e-6, 11e9},
        [BB_OP_GETRI_OOP] = {2.2e-6, 10e9}, [BB_OP_LANGE] = {1e-6, 0.65e9}, [BB_OP_GECOND] = {3.3e-6, 9.5e9},
        [BB_OP_GECON] = {1e-6, 0.53e9},  [BB_OP_GEINV] = {3.7e-6, 10e9},
    },
    /* GPU: a call's fixed cost; per routine, the kernels' rate beyond the
       copies (host-data rows at n = 256: potrf, trsm, syrk, potri, getrf,
       gesv; the others take 0.4 TFLOP/s, the slowest measured) */
    .gpu_call = 100e-6,
    /* operands in page-locked memory, copied directly: one H100 moved
       62-85 GB/s of counted bytes so (session 12) and 57-84 GB/s on
       another host (session 13), 1.5-1.9x the staged path */
    .gpu_bw_direct = 70e9,
    /* both at once: measured time over the model's (the two sides share
       cores and caches as well as memory): the median of the twelve
       host-data rows, 1.14-2.18 */
    .both_slowdown = 1.9,
    .gpu_op = {
        [BB_OP_GEMM] = 1.4e12, [BB_OP_SYMM] = 1.4e12, [BB_OP_HEMM] = 1.4e12, [BB_OP_SYRK] = 3.1e12,
        [BB_OP_HERK] = 1.4e12, [BB_OP_SYR2K] = 1.4e12, [BB_OP_HER2K] = 1.4e12, [BB_OP_TRMM] = 1.35e12,
        [BB_OP_TRSM] = 3.9e12, [BB_OP_POTRF] = 1.07e12, [BB_OP_POTRS] = 0.4e12, [BB_OP_POSV] = 0.4e12,
        [BB_OP_TRTRI] = 0.4e12, [BB_OP_LAUUM] = 0.4e12, [BB_OP_POTRI] = 0.71e12, [BB_OP_POTI] = 0.4e12,
        [BB_OP_GETRF] = 1.19e12, [BB_OP_GETRFNP] = 0.64e12, [BB_OP_GETRS] = 0.73e12, [BB_OP_GESV] = 1.26e12,
        [BB_OP_GETRI] = 0.4e12, [BB_OP_GETRI_OOP] = 0.4e12, [BB_OP_LANGE] = 0.4e12, [BB_OP_GECOND] = 0.4e12,
        [BB_OP_GECON] = 0.4e12, [BB_OP_GEINV] = 0.4e12,
    },
    /* the staging path by copy threads (1, 2, 4, 8, 16): 0.5 GB rows of
       dpotrf n = 16 (session 5); at 16 threads between the 0.5 GB rows
       (31 GB/s) and session 6's 1 GB rows at n = 16 (median 42.7 GB/s,
       from which the gpu_op rates of potrf, trsm, syrk, potri, getrf, gesv
       were fitted at n = 256): the pipeline's ends weigh more in smaller
       batches, and fresh machines differ by +-30% */
    .gpu_bw_threads = {1, 2, 4, 8, 16},
    .gpu_bw = {6.2e9, 11.2e9, 18.5e9, 26.4e9, 36e9},
};

static int op_of(const char *name)
{
    for (int k = 0; k < BB_NOPS; k++)
        if (!strcmp(name, op_names[k])) return k;
    return -1;
}

static int positive(double x) { return isfinite(x) && x > 0; }

static void read_file(void)
{
    const char *path = getenv("BATCHBLAS_COST_FILE");
    if (!path || !*path) return;
    FILE *f = fopen(path, "r");
    if (!f) {
        bb_log("BATCHBLAS_COST_FILE=%s: cannot open it: the built-in cost model", path);
        return;
    }
    char line[256], key[32], name[32];
    int lineno = 0, used = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *h = strchr(line, '#');
        if (h) *h = '\0';
        double x, y;
        int t;
        if (sscanf(line, " %31s", key) != 1) continue; /* blank or comment */
        int ok = 0;
        if (!strcmp(key, "cpu_bw_core") && sscanf(line, " %*s %lf", &x) == 1 && positive(x)) {
            M.cpu_bw_core = x;
            ok = 1;
        } else if (!strcmp(key, "cpu_bw_max") && sscanf(line, " %*s %lf", &x) == 1 && positive(x)) {
            M.cpu_bw_max = x;
            ok = 1;
        } else if (!strcmp(key, "gpu_bw_direct") && sscanf(line, " %*s %lf", &x) == 1 && positive(x)) {
            M.gpu_bw_direct = x;
            ok = 1;
        } else if (!strcmp(key, "both_slowdown") && sscanf(line, " %*s %lf", &x) == 1 && positive(x)) {
            M.both_slowdown = x;
            ok = 1;
        } else if (!strcmp(key, "gpu_call") && sscanf(line, " %*s %lf", &x) == 1 && x >= 0 && isfinite(x)) {
            M.gpu_call = x;
            ok = 1;
        } else if (!strcmp(key, "gpu_op") && sscanf(line, " %*s %31s %lf", name, &x) == 2 && op_of(name) >= 0 &&
                   positive(x)) {
            M.gpu_op[op_of(name)] = x;
            ok = 1;
        } else if (!strcmp(key, "gpu_bw") && sscanf(line, " %*s %d %lf", &t, &x) == 2 && positive(x)) {
            for (int k = 0; k < GPU_BW_POINTS; k++)
                if (M.gpu_bw_threads[k] == t) {
                    M.gpu_bw[k] = x;
                    ok = 1;
                }
        } else if (!strcmp(key, "cpu_op") && sscanf(line, " %*s %31s %lf %lf", name, &x, &y) == 3 &&
                   op_of(name) >= 0 && x >= 0 && isfinite(x) && positive(y)) {
            M.op[op_of(name)].c0 = x;
            M.op[op_of(name)].f = y;
            ok = 1;
        } else if (!strcmp(key, "cpu_op_mid") && sscanf(line, " %*s %31s %lf %lf", name, &x, &y) == 3 &&
                   op_of(name) >= 0 && positive(x) && positive(y)) {
            M.op[op_of(name)].f_mid = x;
            M.op[op_of(name)].fpp_mid = y;
            ok = 1;
        }
        if (ok) used++;
        else bb_log("BATCHBLAS_COST_FILE=%s: line %d not understood: ignored", path, lineno);
    }
    fclose(f);
    bb_log("BATCHBLAS_COST_FILE=%s: %d constants of the cost model replaced", path, used);
}

static pthread_once_t once = PTHREAD_ONCE_INIT;

void bb_cost_work(const bb_batch *b, bb_work *w)
{
    double by = 0, fl = 0, np = 0;
    int64_t step = b->ngroups > 4096 ? b->ngroups / 4096 : 1; /* sample big variable batches */
    for (int64_t g = 0; g < b->ngroups; g += step) {
        int64_t cnt = bb_group_first(b, g + 1) - bb_group_first(b, g);
        if (cnt == 0) continue;
        bb_problem p;
        bb_group_problem(b, g, &p);
        /* bytes: the split planner's count (plan.c), without flops */
        by += bb_plan_problem_cost(b, &p, 0) * (double)cnt * (double)step;
        fl += bb_problem_flops(b, &p) * (double)cnt * (double)step;
        np += (double)cnt * (double)step;
    }
    /* problems skipped for argument errors cost nothing */
    double run = (double)(b->count - b->nbad);
    if (np > 0 && run < np) {
        by *= run / np;
        fl *= run / np;
        np = run;
    }
    w->bytes = by;
    w->flops = fl;
    w->problems = np;
    w->direct = 0;
}

void bb_cost_direct(const bb_batch *b, bb_work *w, int (*pinned)(const void *p))
{
    w->direct = 0;
    if (!pinned || b->form == BB_FORM_VAR || b->form == BB_FORM_GROUP || b->count <= 0 || w->bytes <= 0) return;
    bb_problem p;
    bb_group_problem(b, 0, &p);
    const size_t es = bb_prec_size(b->prec);
    double all = 0, dir = 0;
    for (int o = BB_A; o <= BB_C; o++) { /* o: the normalised slot */
        int r, c;
        bb_operand_dims(b->op, &p, o, &r, &c);
        if (r <= 0 || c <= 0) continue;
        const double m = (double)r * c * (double)es * (bb_op_writes(b->op, o) ? 2 : 1);
        all += m;
        const bb_operand *d = &b->opd[bb_user_slot(&p, o)];
        /* compact strided operands only, as the staging path copies them */
        if (d->arr || !d->base || d->stride != (int64_t)r * c) continue;
        const int64_t ld = o == BB_A ? p.lda : o == BB_B ? p.ldb : p.ldc;
        if (ld != r && c > 1) continue;
        const size_t span = (size_t)b->count * (size_t)d->stride * es;
        if (pinned(d->base) && pinned(d->base + span - 1)) dir += m;
    }
    if (all > 0) w->direct = w->bytes * dir / all;
}

double bb_cost_cpu(const bb_batch *b, const bb_work *w, int cores)
{
    pthread_once(&once, read_file);
    if (cores < 1) cores = 1;
    double bw = cores * M.cpu_bw_core;
    if (bw > M.cpu_bw_max) bw = M.cpu_bw_max;
    const cpu_op *o = &M.op[b->op < BB_NOPS ? b->op : 0];
    double t_mem = w->bytes / bw;
    /* the rate at the batch's mean flops per problem (see cpu_op) */
    double f = o->f;
    if (o->f_mid > 0 && o->fpp_mid > 0 && w->problems > 0) {
        const double fpp = w->flops / w->problems;
        if (fpp <= o->fpp_mid) {
            f = o->f_mid;
        } else if (fpp < 64 * o->fpp_mid) {
            const double x = log(fpp / o->fpp_mid) / log(64.0);
            f = exp((1 - x) * log(o->f_mid) + x * log(o->f));
        }
    }
    double t_work = (w->problems * o->c0 + w->flops / f) / cores;
    return t_mem > t_work ? t_mem : t_work;
}

double bb_cost_both(const bb_batch *b, const bb_work *w, int cpu_cores, int threads, double *cpu_share)
{
    double tc = bb_cost_cpu(b, w, cpu_cores), tg = bb_cost_gpu(b, w, threads);
    double f = tc + tg > 0 ? tg / (tc + tg) : 0.5;
    if (cpu_share) *cpu_share = f;
    double t = tc * tg / (tc + tg > 0 ? tc + tg : 1);
    double host = (f * w->bytes + (1 - f) * (3 * (w->bytes - w->direct) + w->direct)) / M.cpu_bw_max;
    return M.both_slowdown * (t > host ? t : host);
}

int bb_cost_stage_threads(int cores) { return cores < 16 ? (cores > 0 ? cores : 1) : 16; }

double bb_cost_gpu(const bb_batch *b, const bb_work *w, int threads)
{
    pthread_once(&once, read_file);
    if (threads <= 0) threads = 16;
    /* the staging rate at `threads`, linear between the measured points */
    double bw = M.gpu_bw[GPU_BW_POINTS - 1];
    if (threads <= M.gpu_bw_threads[0]) {
        bw = M.gpu_bw[0];
    } else {
        for (int k = 1; k < GPU_BW_POINTS; k++)
            if (threads <= M.gpu_bw_threads[k]) {
                double a = (double)(threads - M.gpu_bw_threads[k - 1]) /
                           (double)(M.gpu_bw_threads[k] - M.gpu_bw_threads[k - 1]);
                bw = M.gpu_bw[k - 1] + a * (M.gpu_bw[k] - M.gpu_bw[k - 1]);
                break;
            }
    }
    return M.gpu_call + (w->bytes - w->direct) / bw + w->direct / M.gpu_bw_direct +
           w->flops / M.gpu_op[b->op < BB_NOPS ? b->op : 0];
}
