/*
 * bb_execute: the single path of every call.
 *   1. batch-level checks (counts, group sizes, layout, info mode, arrays)
 *   2. per-group argument checks and per-problem pointer checks (check.c)
 *   3. dispatch to a backend (dispatch.c), which fills the numerical codes
 *   4. fold the per-problem codes into the caller's info array
 *
 * A _dev call may pass info and the parameter arrays in host or device
 * memory; the device backend's fetch hook tells them apart:
 *   - the variable form with every parameter array in device memory is
 *     checked on the device (check_var_on_device): the codes stay there,
 *     and only a summary comes back;
 *   - otherwise a parameter array (options, sizes, leading dimensions,
 *     alpha, beta, group_sizes) in device memory is copied to the host once,
 *     at the call (one synchronous copy on a private stream), and the batch
 *     reads the copy: the checks and the launch planning need the values;
 *   - info in device memory: info[0] (the mode) is read the same way; the
 *     backend folds the codes into info on the queue, so the call never
 *     waits; codes known here instead (batch-level errors, a failed device
 *     path) are written with the store hook, in the order of the queue.
 * The error handler gets the first code known on the host, in every info
 * mode (report-none and info == NULL included): an argument error, or a
 * device call or allocation of the backend that failed when it was made
 * (b->device_fail).  The queue is never synchronised for it: a failure
 * that shows only later, on the device, reaches the device codes alone.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include "backend.h"
#ifdef _OPENMP
#include <omp.h>
#endif

/* microseconds, for the verbose log's host timings */
static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

/* The per-problem codes of a call, all zero.  A device-data call touches
   only the few codes of skipped problems on the host, so a large array is
   mapped instead (zero pages on first touch): calloc would clear it, which
   costs 70-180 us for 10^6 problems, on every call, while the GPU waits. */
typedef struct {
    int *p;
    size_t mapped; /* bytes mapped (0: calloc) */
} codes_buf;

static int codes_alloc(codes_buf *c, int64_t n, int device_data)
{
    const size_t bytes = (size_t)(n > 0 ? n : 1) * sizeof(int);
    c->mapped = 0;
    if (device_data && bytes >= ((size_t)1 << 20) && !bb_fault_hit()) {
        void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m != MAP_FAILED) {
            c->p = (int *)m;
            c->mapped = bytes;
            return 0;
        }
    }
    c->p = (int *)bb_calloc((size_t)(n > 0 ? n : 1), sizeof(int));
    return c->p ? 0 : -1;
}

static void codes_free(codes_buf *c)
{
    if (c->mapped) munmap(c->p, c->mapped);
    else free(c->p);
    c->p = NULL;
}

/* The earlier (lower-position) of two argument codes; 0 means none. */
static int first_bad(int c1, int c2)
{
    if (!c1) return c2;
    if (!c2) return c1;
    return c1 > c2 ? c1 : c2; /* -3 (argument 3) wins over -9 */
}

/* NULL parameter arrays (group and variable forms): nothing can be read,
   so this is a batch-level error.  Device-data pointer arrays are not read
   on the host, so a NULL one is caught here too. */
static int null_array_error(const bb_batch *b)
{
    int code = 0;
    for (int s = 0; s < BB_NPAR; s++)
        if (b->pos[s] && b->par[s] == NULL) code = first_bad(code, -b->pos[s]);
    if (b->pos[BB_ALPHA] && b->alpha == NULL) code = first_bad(code, -b->pos[BB_ALPHA]);
    if (b->pos[BB_BETA] && b->beta == NULL) code = first_bad(code, -b->pos[BB_BETA]);
    if (b->device_data && b->form != BB_FORM_STRIDED)
        for (int o = 0; o < BB_NOPD; o++)
            if (b->pos[BB_OPD0 + o] && b->opd[o].arr == NULL && b->opd[o].base == NULL)
                code = first_bad(code, -b->pos[BB_OPD0 + o]);
    return code;
}

/* Strided form with a negative batch_size: batch_size is the second-last
   argument, so any earlier bad argument is reported instead. */
static int strided_batch_error(const bb_batch *b)
{
    bb_problem gp;
    bb_group_problem(b, 0, &gp);
    int code = first_bad(bb_check_group(b, 0), bb_null_operands(b, bb_needed_operands(b, &gp), 0));
    return first_bad(code, -b->pos[BB_COUNT_ARG]);
}

/* Writes n codes to info[at...]: host info directly, device info through
   the device backend. */
static void info_put(const bb_batch *b, int64_t at, const int *v, int64_t n)
{
    if (b->info_on_device)
        (void)bb_device_backend()->store(b->queue, b->info + at, v, (size_t)n * sizeof(int));
    else
        memcpy(b->info + at, v, (size_t)n * sizeof(int));
}

/* Room for the n codes of info[1...]: the caller's array itself for host
   info, a host buffer for device info (info_tail_done writes it there and
   frees it).  NULL if out of memory. */
static int *info_tail(const bb_batch *b, int64_t n)
{
    return b->info_on_device ? bb_malloc((size_t)(n > 0 ? n : 1) * sizeof(int)) : b->info + 1;
}

static void info_tail_done(const bb_batch *b, int *t, int64_t n)
{
    if (!b->info_on_device) return;
    info_put(b, 1, t, n);
    free(t);
}

static void finish(bb_batch *b, int code0)
{
    if (b->info && b->mode != BblasErrorsReportNone && !b->info_folded) info_put(b, 0, &code0, 1);
    if (code0) bb_report_error(b->name, code0);
}

/* Host copies of a _dev call's parameter arrays found in device memory. */
typedef struct {
    void *p[BB_NPAR + 3];
    int n;
} host_copies;

/* _dev calls: if *a is device memory, copies its first `bytes` to the host
   and points *a at the copy.  Returns 0, BB_INFO_NOMEM or BB_INFO_DEVICE. */
static int host_view(const bb_batch *b, const void **a, size_t bytes, host_copies *hc)
{
    const bb_backend *dev = b->device_data && *a ? bb_device_backend() : NULL;
    if (!dev || dev->fetch(NULL, *a, 0) != 1) return 0;
    void *h = bb_malloc(bytes ? bytes : 1);
    if (!h) return BB_INFO_NOMEM;
    hc->p[hc->n++] = h;
    if (dev->fetch(h, *a, bytes) < 0) return BB_INFO_DEVICE;
    *a = h;
    return 0;
}

/* The per-group (group form) or per-problem (variable form) parameter
   arrays: ngroups entries each. */
static int host_params(bb_batch *b, host_copies *hc)
{
    if (!b->device_data || b->pinc == 0) return 0;
    size_t n = (size_t)b->ngroups;
    int code = 0;
    for (int s = 0; s < BB_NPAR && !code; s++) {
        const void *a = b->par[s];
        code = host_view(b, &a, n * sizeof(int), hc);
        b->par[s] = (const int *)a;
    }
    if (!code) code = host_view(b, &b->alpha, n * bb_scalar_bytes(b, 0), hc);
    if (!code) code = host_view(b, &b->beta, n * bb_scalar_bytes(b, 1), hc);
    return code;
}

/* Groups from which the checks run on several threads (each group costs
   a few hundred instructions), and per thread: a parallel region's start
   costs more than a few thousand checks (measured on the 16-core H100
   host: 2-6 ms for 10240 groups on 16 threads, 0.2 ms on one). */
enum { CHECK_PARALLEL_MIN = 4096, CHECK_PER_THREAD = 1 << 16 };

/* Checks group g and its problems; returns how many problems are bad. */
static int64_t check_group_problems(bb_batch *b, int64_t g, int strided)
{
    int64_t first = bb_group_first(b, g), last = bb_group_first(b, g + 1);
    if (first == last) return 0;
    int gc = bb_check_group(b, g);
    /* gecon's anorm values are read per problem (host data only) */
    int per_problem = b->op == BB_OP_GECON && !b->device_data;
    if (b->device_data && !strided) { /* the pointer arrays may be in device memory: not read here */
        if (!gc) return 0;
        for (int64_t i = first; i < last; i++) b->pinfo[i] = gc;
        return last - first;
    }
    bb_problem gp;
    bb_group_problem(b, g, &gp);
    unsigned needed = bb_needed_operands(b, &gp);
    if (b->device_data || (strided && !per_problem)) {
        /* strided: one base pointer per operand */
        int code = gc;
        if (strided) code = first_bad(code, bb_check_problem(b, needed, 0));
        if (!code) return 0;
        for (int64_t i = first; i < last; i++) b->pinfo[i] = code;
        return last - first;
    }
    int64_t bad = 0;
    for (int64_t i = first; i < last; i++) {
        int code = first_bad(gc, bb_check_problem(b, needed, i));
        if (code) {
            b->pinfo[i] = code;
            bad++;
        }
    }
    return bad;
}

/* The variable form on device data (one problem per group; the pointer
   arrays are not read here): the checks of group 0's options as rules
   (check.c), evaluated over the size arrays a chunk at a time, a few
   nanoseconds a problem instead of a group check each.  A chunk whose
   options differ from problem 0's is checked group by group.  Sets
   b->uniform_options when every chunk had problem 0's options, and
   b->uniform_scalars when every alpha and beta equals problem 0's. */
enum { VAR_CHECK_CHUNK = 1 << 14, VAR_CHECK_PER_THREAD = 1 << 17 };

static int64_t check_var_device(bb_batch *b)
{
    bb_rules r;
    bb_check_rules(b, 0, &r);
    const int64_t n = b->count, nch = (n + VAR_CHECK_CHUNK - 1) / VAR_CHECK_CHUNK;
    int64_t nbad = 0, mixed = 0, sdiff = 0;
    int vmax[BB_NPAR];
    for (int s = 0; s < BB_NPAR; s++) vmax[s] = -1;
    int nth = 1;
#ifdef _OPENMP
    {
        const int64_t want = n / VAR_CHECK_PER_THREAD + 1, have = omp_get_max_threads();
        nth = (int)(want < have ? want : have);
    }
#endif
#pragma omp parallel for schedule(static) reduction(+ : nbad, mixed, sdiff) num_threads(nth) if (nth > 1)
    for (int64_t c = 0; c < nch; c++) {
        const int64_t lo = c * VAR_CHECK_CHUNK, hi = lo + VAR_CHECK_CHUNK < n ? lo + VAR_CHECK_CHUNK : n;
        /* alpha and beta the same as problem 0's: not a check, a fact for
           the device planner (its fast plan), found here in parallel */
        sdiff += !bb_uniform_range(b, lo, hi, 0, 1);
        const int diff = !bb_uniform_range(b, lo, hi, 1, 0);
        int cmax[BB_NPAR];
        for (int s = 0; s < BB_NPAR; s++) cmax[s] = -1;
        int64_t bad = diff ? -1 : bb_check_var_sizes(b, &r, lo, hi, cmax);
        if (bad < 0) {
            mixed++;
            bad = 0;
            for (int64_t g = lo; g < hi; g++) bad += check_group_problems(b, g, 0);
        } else {
#pragma omp critical(bb_var_max)
            for (int s = 0; s < BB_NPAR; s++)
                if (cmax[s] > vmax[s]) vmax[s] = cmax[s];
        }
        nbad += bad;
    }
    b->uniform_options = mixed == 0;
    b->uniform_scalars = sdiff == 0;
    for (int s = 0; s < BB_NPAR; s++) b->par_max[s] = mixed ? -1 : vmax[s];
    return nbad;
}

/* The variable form on device data with every parameter array (sizes,
   leading dimensions, options, alpha, beta) in device memory: the checks
   run on the device (bb_backend.var_check), from the rules of problem 0's
   options, read here one value per option array; nothing else of the
   arrays comes to the host, and the planner reads what it needs on the
   device.  Returns 1 if checked there (b->par_on_device set, *nbad),
   else 0: the host checks instead (an array in host memory, options or
   alpha and beta that differ between problems: the arrays are copied to
   the host, host_params), or, with *fail set (a BB_INFO_* code), nothing
   can be. */
static int check_var_on_device(bb_batch *b, int64_t *nbad, int *fail)
{
    const bb_backend *dev = bb_device_backend();
    if (b->form != BB_FORM_VAR || !b->device_data || b->pinc != 1 || b->ngroups != b->count || !dev ||
        !dev->var_check || b->count > INT32_MAX / 2)
        return 0;
    int any = 0;
    for (int s = 0; s < BB_NPAR; s++) {
        if (!b->par[s]) continue;
        if (dev->fetch(NULL, b->par[s], 0) != 1) return 0;
        any = 1;
    }
    const void *sc[2] = {b->alpha, b->beta};
    for (int w = 0; w < 2; w++)
        if (sc[w] && dev->fetch(NULL, sc[w], 0) != 1) return 0;
    if (!any) return 0;
    /* problem 0's options: the rules */
    bb_batch p0 = *b;
    int val[BB_NPAR];
    for (int s = BB_SIDE; s <= BB_NORM; s++) { /* the options */
        if (!b->par[s]) continue;
        if (dev->fetch(&val[s], b->par[s], sizeof(int)) < 0) {
            *fail = BB_INFO_DEVICE;
            return 0;
        }
        p0.par[s] = &val[s];
    }
    p0.pinc = 0;
    bb_rules r;
    bb_check_rules(&p0, 0, &r);
    for (int j = 0; j < r.nrule; j++) /* a rule on a parameter the batch lacks: the host's per-problem checks */
        if (!b->par[r.rule[j].slot] || (r.rule[j].dim >= 0 && !b->par[r.rule[j].dim])) return 0;
    bb_var_check vc;
    int *codes = NULL;
    const int rc = dev->var_check(b, &r, &vc, &codes);
    if (rc) {
        *fail = rc;
        return 0;
    }
    if (vc.mixed || !vc.uniform_scalars) return 0;
    b->par_on_device = 1;
    b->dev_codes = codes;
    b->first_good = vc.first_good;
    b->first_code = vc.first_code;
    b->uniform_options = 1;
    b->uniform_scalars = 1;
    for (int s = 0; s < BB_NPAR; s++) b->par_max[s] = vc.vmax[s];
    *nbad = vc.nbad;
    /* codes the caller reads on the host: the check codes there as well
       (the backend merges its own into them) */
    if (vc.nbad > 0 && !b->info_on_device && b->mode != BblasErrorsReportNone &&
        dev->fetch(b->pinfo, codes, (size_t)b->count * sizeof(int)) < 0) {
        *fail = BB_INFO_DEVICE;
        return 0;
    }
    return 1;
}

static void execute(bb_batch *b, host_copies *hc)
{
    /* report mode; a NULL info means report nothing */
    b->mode = BblasErrorsReportNone;
    if (b->info) {
        const bb_backend *dev = b->device_data ? bb_device_backend() : NULL;
        int where = dev ? dev->fetch(&b->mode, b->info, sizeof b->mode) : 0;
        b->info_on_device = where != 0;
        if (where < 0) {
            b->mode = BblasErrorsReportAny;
            finish(b, BB_INFO_DEVICE);
            return;
        }
        if (!where) b->mode = b->info[0];
    }
    if (b->mode < BblasErrorsReportAll || b->mode > BblasErrorsReportNone) {
        b->mode = BblasErrorsReportAny;
        finish(b, -b->pos[BB_INFO_ARG]);
        return;
    }

    /* batch-level errors: nothing is computed */
    int strided = b->form == BB_FORM_STRIDED;
    if (b->ngroups < 0 || (b->form != BB_FORM_GROUP && !strided && b->count < 0)) {
        finish(b, -b->pos[BB_COUNT_ARG]);
        return;
    }
    if (b->form == BB_FORM_GROUP) {
        if (b->ngroups > 0 && b->group_sizes == NULL) {
            finish(b, -b->pos[BB_GSIZES_ARG]);
            return;
        }
        const void *gs = b->group_sizes;
        int code = host_view(b, &gs, (size_t)b->ngroups * sizeof(int), hc);
        if (code) {
            finish(b, code);
            return;
        }
        b->group_sizes = (const int *)gs;
        int64_t total = 0;
        for (int64_t g = 0; g < b->ngroups; g++) {
            if (b->group_sizes[g] < 0) {
                finish(b, -b->pos[BB_GSIZES_ARG]);
                return;
            }
            total += b->group_sizes[g];
        }
        b->count = total;
    }
    if (b->layout != BblasColMajor && b->layout != BblasRowMajor) {
        finish(b, -b->pos[BB_LAYOUT_ARG]);
        return;
    }
    if (strided && b->count < 0) {
        finish(b, strided_batch_error(b));
        return;
    }
    if (b->count == 0) { /* empty batch: legal no-op */
        if (b->mode == BblasErrorsReportGroup) {
            int *gc = info_tail(b, b->ngroups);
            if (!gc) {
                finish(b, BB_INFO_NOMEM);
                return;
            }
            memset(gc, 0, (size_t)b->ngroups * sizeof(int));
            info_tail_done(b, gc, b->ngroups);
        }
        finish(b, 0);
        return;
    }
    if (b->device_data && b->queue == NULL) {
        finish(b, -b->pos[BB_QUEUE_ARG]);
        return;
    }
    int code = null_array_error(b);
    if (code) {
        finish(b, code);
        return;
    }

    /* group starts, then the per-problem codes (in report-all mode straight
       into the caller's host info); out of memory here is a batch-level
       failure: info[0] only, nothing else written */
    if (b->form == BB_FORM_GROUP) {
        b->gstart = bb_malloc((size_t)(b->ngroups + 1) * sizeof(int64_t));
        if (!b->gstart) {
            finish(b, BB_INFO_NOMEM);
            return;
        }
        b->gstart[0] = 0;
        for (int64_t g = 0; g < b->ngroups; g++) b->gstart[g + 1] = b->gstart[g] + b->group_sizes[g];
    }
    codes_buf own = {NULL, 0};
    if (b->mode == BblasErrorsReportAll && !b->info_on_device) {
        b->pinfo = b->info + 1;
        memset(b->pinfo, 0, (size_t)b->count * sizeof(int));
    } else {
        if (codes_alloc(&own, b->count, b->device_data)) {
            free(b->gstart);
            b->gstart = NULL;
            finish(b, BB_INFO_NOMEM);
            return;
        }
        b->pinfo = own.p;
    }

    /* per-group and per-problem checks; a problem's code is its first bad
       argument, whether found by the group check or the pointer check.
       Many groups (the variable form: one per problem) are checked in
       parallel: the checks only read the arguments and write pinfo[i]. */
    const int timed = bb_verbose();
    const double t0 = timed ? now_us() : 0;
    int64_t nbad = 0;
    int fail = 0;
    const int ondev = check_var_on_device(b, &nbad, &fail);
    if (!ondev && !fail) fail = host_params(b, hc); /* the arrays to the host: checked there */
    if (fail) { /* a batch-level failure: info[0] only */
        free(b->gstart);
        b->gstart = NULL;
        codes_free(&own);
        b->pinfo = NULL;
        finish(b, fail);
        return;
    }
    if (ondev) {
        /* checked on the device */
    } else if (b->form == BB_FORM_VAR && b->device_data && b->pinc == 1 && b->ngroups == b->count) {
        nbad = check_var_device(b);
    } else {
        int nth = 1;
#ifdef _OPENMP
        if (b->ngroups >= CHECK_PARALLEL_MIN) {
            const int64_t want = b->ngroups / CHECK_PER_THREAD + 1, have = omp_get_max_threads();
            nth = (int)(want < have ? want : have);
        }
#endif
#pragma omp parallel for schedule(static) reduction(+ : nbad) num_threads(nth) if (nth > 1)
        for (int64_t g = 0; g < b->ngroups; g++) nbad += check_group_problems(b, g, strided);
    }
    b->nbad = nbad;

    /* with device info the backend runs even if every problem failed here:
       it writes the codes to info on the queue */
    const double t1 = timed ? now_us() : 0;
    if (b->nbad < b->count || (b->info_on_device && b->mode != BblasErrorsReportNone)) {
        const bb_backend *be = bb_dispatch(b);
        be->run(b);
    }
    if (timed)
        bb_log("%s: host: checks %.0f us (%lld groups, %lld problems), dispatch and backend %.0f us", b->name,
               t1 - t0, (long long)b->ngroups, (long long)b->count, now_us() - t1);

    /* fold; in report-none mode, or when the backend folded the codes into
       a device info, only for the error handler, and only where a code can
       be nonzero (a device-data call's own codes stay on the device): an
       argument error, a LAPACK code of host data, or a device call or
       allocation that failed on the host side (b->device_fail, set by the
       device backend without waiting for the queue; a failure found later,
       on the device, is only in the device's codes) */
    int first_code = 0;
    if (b->mode == BblasErrorsReportNone || b->info_folded) {
        if (b->par_on_device) first_code = b->first_code; /* checked on the device: the first argument error */
        if (!first_code && (b->nbad > 0 || b->device_fail || (!b->device_data && bb_op_info(b->op)->lapack)))
            for (int64_t i = 0; i < b->count; i++)
                if (b->pinfo[i]) { first_code = b->pinfo[i]; break; }
        if (!first_code) first_code = b->device_fail;
    } else if (b->mode == BblasErrorsReportGroup) {
        int *gc = info_tail(b, b->ngroups);
        for (int64_t g = 0; g < b->ngroups && gc; g++) {
            int gcode = 0;
            for (int64_t i = bb_group_first(b, g), e = bb_group_first(b, g + 1); i < e; i++)
                if (b->pinfo[i]) { gcode = b->pinfo[i]; break; }
            gc[g] = gcode;
            if (gcode && !first_code) first_code = gcode;
        }
        if (gc) info_tail_done(b, gc, b->ngroups);
        else first_code = BB_INFO_NOMEM;
    } else {
        for (int64_t i = 0; i < b->count; i++)
            if (b->pinfo[i]) { first_code = b->pinfo[i]; break; }
        if (b->mode == BblasErrorsReportAll && b->info_on_device) info_put(b, 1, b->pinfo, b->count);
    }
    free(b->gstart);
    b->gstart = NULL;
    codes_free(&own);
    b->pinfo = NULL;
    finish(b, first_code);
}

void bb_execute(bb_batch *b)
{
    host_copies hc = {{NULL}, 0};
    execute(b, &hc);
    for (int k = 0; k < hc.n; k++) free(hc.p[k]);
}
