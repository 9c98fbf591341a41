/*
 * The variable form on device data: the launch plan (seed 000's variable
 * batches, bucketed by size class).
 *
 * bb_cu_build_segments (segments.cu) groups the problems by their exact
 * parameters.  Here the segments that a register kernel takes with
 * per-problem sizes (bb_cuda_var_class, launch.cu) are merged into class
 * launches: one launch per (options, alpha, beta, kernel bound), whatever
 * the sizes inside it, each problem reading its own sizes from a
 * per-slot table on the device (bb_dev_batch.vdim); the same for the
 * on-chip kernels' sizes (BB_VAR_MID: potrf, getrf above the register
 * bound, a block a problem) and the variable-size driver's (BB_VAR_DRIVER).
 * The other segments keep a launch each (routines without a
 * per-problem-size kernel for their sizes).
 *
 * Slots.  Launch order is the slot order: slot t is problem map[t] of the
 * batch, or -1 for padding.  Inside a class launch the problems are laid
 * out by decreasing sizes (the largest start first, seed 000's DSSE), and
 * each run of equal m, n, k, nrhs is padded to whole warps (32 / bound
 * problems), so that every warp's problems have the same sizes and the
 * kernels' loops and shuffles stay warp-uniform; padding slots are
 * skipped (their info is set) and have no operands.  On the device,
 * bb_cu_var_expand writes each slot's sizes and skip flag from the runs
 * table (one entry per run of slots with equal sizes and leading
 * dimensions) and the operand pointers come from map (backend_cuda.cu).
 *
 * Parameter arrays in device memory (b->par_on_device, front.c).  The
 * checks run on the device (bb_cu_var_check: check.c's rules of problem
 * 0's options, one kernel, one read-back of a summary and of 18 problems'
 * parameters), and the fast plan reads nothing else on the host: the
 * normalisation map is taken from that sample, the buckets span [0, the
 * largest size] (DEVPAR_MAX_BUCKETS) and are counted on the device
 * (bb_cu_var_count_devpar, the failed problems skipped), the slots are
 * placed there.  What it cannot bucket (a size no class takes, zero sizes,
 * too many buckets) sends the call back to the host arrays
 * (BB_VAR_NEEDS_HOST).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <algorithm>
#include <vector>
#include <atomic>
#include <functional>
#include <memory>
#include "cuda_internal.h"
#include "stage_copy.h"
#include "rules.h"

namespace {

/* The options, scalars and layout flags of a normalised problem: what a
   class launch has in common (sizes and leading dimensions aside). */
int cmp_options(const bb_problem &x, const bb_problem &y)
{
    const int ax[] = {x.side, x.uplo, x.trans, x.transb, x.diag, x.norm, x.rowmajor, x.rhs_right, x.swap_ab};
    const int ay[] = {y.side, y.uplo, y.trans, y.transb, y.diag, y.norm, y.rowmajor, y.rhs_right, y.swap_ab};
    for (size_t i = 0; i < sizeof ax / sizeof ax[0]; i++)
        if (ax[i] != ay[i]) return ax[i] < ay[i] ? -1 : 1;
    int c = memcmp(x.alpha, y.alpha, sizeof x.alpha);
    if (c) return c;
    return memcmp(x.beta, y.beta, sizeof x.beta);
}

/* the sizes that must be equal across a warp */
bool same_sizes(const bb_problem &x, const bb_problem &y)
{
    return x.m == y.m && x.n == y.n && x.k == y.k && x.nrhs == y.nrhs;
}

bb_vdim dims_of(const bb_problem &p)
{
    bb_vdim v;
    v.m = p.m, v.n = p.n, v.k = p.k, v.nrhs = p.nrhs;
    v.lda = p.lda, v.ldb = p.ldb, v.ldc = p.ldc;
    return v;
}

__global__ void k_var_expand(const var_run *runs, int64_t nrun, const int32_t *map, bb_vdim *vdim, int *info,
                             int64_t n)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < n; t += step) {
        int64_t lo = 0, hi = nrun - 1; /* the last run starting at or before t */
        while (lo < hi) {
            const int64_t mid = (lo + hi + 1) / 2;
            if (runs[mid].start <= t) lo = mid;
            else hi = mid - 1;
        }
        vdim[t] = runs[lo].dim;
        info[t] = map[t] < 0; /* padding: skipped */
    }
}

} // namespace

void bb_cu_var_plan_free(var_plan *pl)
{
    free(pl->bk);
    free(pl->pad);
    free(pl->map);
    free(pl->runs);
    free(pl->launch);
    free(pl->ext);
    memset(pl, 0, sizeof *pl);
}

/* The largest of a problem's sizes (var_ext.size) */
static int32_t size_max(const bb_problem &q)
{
    return std::max(std::max(q.m, q.n), std::max(q.k, q.nrhs));
}

/* Appends driver launch L's slots by size (var_ext, cuda_internal.h) to
   all: e lists, for each bucket or run of its slots, the largest size of
   its problems and the slot after it (from L.first), in any order. */
static void ext_of(var_launch &L, std::vector<var_ext> &e, std::vector<var_ext> &all)
{
    std::sort(e.begin(), e.end(), [](const var_ext &x, const var_ext &y) { return x.size > y.size; });
    L.ext0 = (int64_t)all.size();
    int32_t end = 0;
    for (const var_ext &x : e) {
        end = std::max(end, x.end);
        if ((int64_t)all.size() > L.ext0 && all.back().size == x.size) all.back().end = end;
        else all.push_back(var_ext{x.size, end});
    }
    L.next = (int64_t)all.size() - L.ext0;
}

/* Copies the driver launches' tables into the plan (0, or -1 if out of
   host memory). */
static int ext_keep(var_plan *pl, const std::vector<var_ext> &all)
{
    if (all.empty()) return 0;
    pl->ext = (var_ext *)cu_malloc(all.size() * sizeof(var_ext));
    if (!pl->ext) return -1;
    memcpy(pl->ext, all.data(), all.size() * sizeof(var_ext));
    pl->next = (int64_t)all.size();
    return 0;
}

/* The plan from exact segments (any options): class launches of runs. */
static int runs_plan(const bb_batch *b, var_plan *pl)
{
    memset(pl, 0, sizeof *pl);
    segment *segs = NULL;
    int64_t nseg = 0, nidx = 0;
    int64_t *idx = NULL;
    if (bb_cu_build_segments(b, 1, &segs, &nseg, &idx, &nidx)) return -1;
    int rc = -1;
    try {
        std::vector<int> cls((size_t)nseg);
        std::vector<int64_t> order; /* class segments, sorted into their launches */
        for (int64_t k = 0; k < nseg; k++) {
            cls[(size_t)k] = b->count <= INT32_MAX ? bb_cuda_var_class(b->op, b->prec, segs[k].gp) : 0;
            /* the group form: a large group above the register bound keeps
               its own launch sequence (the fixed-size drivers) */
            if (b->form == BB_FORM_GROUP && segs[k].n >= BB_VAR_GROUP_OWN &&
                (cls[(size_t)k] == BB_VAR_DRIVER || cls[(size_t)k] == BB_VAR_MID))
                cls[(size_t)k] = 0;
            if (cls[(size_t)k]) order.push_back(k);
        }
        /* by options, then bound, then decreasing sizes (the largest first) */
        std::sort(order.begin(), order.end(), [&](int64_t x, int64_t y) {
            const bb_problem &a = segs[x].gp, &c = segs[y].gp;
            const int o = cmp_options(a, c);
            if (o) return o < 0;
            if (cls[(size_t)x] != cls[(size_t)y]) return cls[(size_t)x] > cls[(size_t)y];
            const int ka[] = {a.n, a.m, a.k, a.nrhs}, kc[] = {c.n, c.m, c.k, c.nrhs};
            for (int i = 0; i < 4; i++)
                if (ka[i] != kc[i]) return ka[i] > kc[i];
            return x < y;
        });
        std::vector<var_launch> launch;
        std::vector<var_run> runs;
        std::vector<var_ext> ext, ext_all;
        std::vector<int64_t> seg_slot((size_t)nseg, -1); /* first slot of each segment */
        int64_t slot = 0;
        for (size_t a = 0; a < order.size();) {
            /* one class launch: order[a .. e) */
            size_t e = a + 1;
            while (e < order.size() && cls[(size_t)order[e]] == cls[(size_t)order[a]] &&
                   cmp_options(segs[order[e]].gp, segs[order[a]].gp) == 0)
                e++;
            const int gran = bb_var_gran(cls[(size_t)order[a]], b->prec);
            var_launch L{};
            L.gp = segs[order[a]].gp;
            L.first = slot;
            L.cls = cls[(size_t)order[a]];
            L.cost = L.work3 = 0;
            for (size_t j = a; j < e; j++) {
                const segment &s = segs[order[j]];
                L.work3 += (double)s.n * bb_var_size3(s.gp);
                L.gp.m = std::max(L.gp.m, s.gp.m);
                L.gp.n = std::max(L.gp.n, s.gp.n);
                L.gp.k = std::max(L.gp.k, s.gp.k);
                L.gp.nrhs = std::max(L.gp.nrhs, s.gp.nrhs);
                L.gp.lda = std::max(L.gp.lda, s.gp.lda);
                L.gp.ldb = std::max(L.gp.ldb, s.gp.ldb);
                L.gp.ldc = std::max(L.gp.ldc, s.gp.ldc);
                L.cost += s.cost;
                var_run r;
                r.start = slot;
                r.dim = dims_of(s.gp);
                runs.push_back(r);
                seg_slot[(size_t)order[j]] = slot;
                slot += s.n;
                /* the last of a run of equal sizes: pad to whole warps
                   (the padding belongs to this segment's run) */
                if (j + 1 == e || !same_sizes(segs[order[j + 1]].gp, s.gp))
                    slot = L.first + (slot - L.first + gran - 1) / gran * gran;
                ext.push_back(var_ext{size_max(s.gp), (int32_t)(slot - L.first)});
            }
            L.n = slot - L.first;
            if (L.cls == BB_VAR_DRIVER) ext_of(L, ext, ext_all);
            ext.clear();
            launch.push_back(L);
            a = e;
        }
        for (int64_t k = 0; k < nseg; k++) {
            if (cls[(size_t)k]) continue;
            const segment &s = segs[k];
            var_launch L{};
            L.gp = s.gp;
            L.first = slot;
            L.n = s.n;
            L.cls = 0;
            L.cost = s.cost;
            L.work3 = (double)s.n * bb_var_size3(s.gp);
            var_run r;
            r.start = slot;
            r.dim = dims_of(s.gp);
            runs.push_back(r);
            seg_slot[(size_t)k] = slot;
            slot += s.n;
            launch.push_back(L);
        }
        std::stable_sort(launch.begin(), launch.end(),
                         [](const var_launch &x, const var_launch &y) { return x.cost > y.cost; });
        pl->nslot = slot;
        pl->map = (int32_t *)cu_malloc((size_t)(slot > 0 ? slot : 1) * sizeof(int32_t));
        pl->runs = (var_run *)cu_malloc((runs.size() + 1) * sizeof(var_run));
        pl->launch = (var_launch *)cu_malloc((launch.size() + 1) * sizeof(var_launch));
        if (pl->map && pl->runs && pl->launch && ext_keep(pl, ext_all) == 0) {
            for (int64_t t = 0; t < slot; t++) pl->map[t] = -1;
            for (int64_t k = 0; k < nseg; k++) {
                const segment &s = segs[k];
                int32_t *m = pl->map + seg_slot[(size_t)k];
                /* the variable form: idx lists each segment's problems;
                   the group form: a segment is a group, problems first .. */
                for (int64_t t = 0; t < s.n; t++) m[t] = (int32_t)(idx ? idx[s.first + t] : s.first + t);
            }
            if (!runs.empty()) memcpy(pl->runs, runs.data(), runs.size() * sizeof(var_run));
            if (!launch.empty()) memcpy(pl->launch, launch.data(), launch.size() * sizeof(var_launch));
            pl->nrun = (int64_t)runs.size();
            pl->nlaunch = (int64_t)launch.size();
            pl->nclass = (int64_t)(launch.size() - (size_t)(nseg - (int64_t)order.size()));
            rc = 0;
        }
    } catch (...) {
        rc = -1;
    }
    free(segs);
    free(idx);
    if (rc) bb_cu_var_plan_free(pl);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* The fast plan: options, alpha and beta the same for every problem (the   */
/* common variable batch: only sizes and leading dimensions vary).  No      */
/* hashing: the host counts the problems into buckets of equal sizes and   */
/* asks the bound of each bucket once; the device places each problem in   */
/* its bucket's slots (bb_cu_var_place, one pass over the uploaded size    */
/* arrays) and reads each slot's sizes from them.  Problems that no        */
/* register kernel takes go through the exact segments (host map).         */
/* ------------------------------------------------------------------------ */

namespace {

const int NF = 7; /* normalised fields m, n, k, nrhs, lda, ldb, ldc */
const int RAW[NF] = {BB_M, BB_N, BB_K, BB_NRHS, BB_LDA, BB_LDB, BB_LDC};
const int FIELD_HI[4] = {32, 32, 32, 64}; /* m, n, k, nrhs: the buckets' range ... */
const int64_t MAX_BUCKETS = 1 << 16;       /* ... unless the largest sizes make at most this many */

void fields_of(const bb_problem &p, int64_t v[NF])
{
    v[0] = p.m, v[1] = p.n, v[2] = p.k, v[3] = p.nrhs, v[4] = p.lda, v[5] = p.ldb, v[6] = p.ldc;
}

bool uniform_options(const bb_batch *b)
{
    /* slots (padding included) fit in int32; the options and scalars were
       compared by the checks (front.c) where b->uniform_options and
       b->uniform_scalars are set */
    if (b->pinc != 1 || b->count > INT32_MAX / 2 || b->ngroups != b->count) return false;
    return bb_uniform_options(b, !b->uniform_options, !b->uniform_scalars) != 0;
}

/* Which raw parameter each normalised size comes from: the problem of
   index g normalised with markers in place of its sizes (the normalisation
   only permutes them); checked on a sample of real problems. */
bool size_map(const bb_batch *b, int64_t g, int src[NF], int cst[NF])
{
    static const int MARK = 1 << 28;
    bb_batch pb = *b;
    int val[BB_NPAR];
    for (int s = 0; s < BB_NPAR; s++) {
        val[s] = b->par[s] ? b->par[s][g] : 0;
        pb.par[s] = b->par[s] ? &val[s] : NULL;
    }
    for (int f = 0; f < NF; f++)
        if (b->par[RAW[f]]) val[RAW[f]] = MARK + RAW[f];
    pb.pinc = 0;
    pb.alpha = b->alpha ? (const char *)b->alpha + g * bb_scalar_bytes(b, 0) : NULL;
    pb.beta = b->beta ? (const char *)b->beta + g * bb_scalar_bytes(b, 1) : NULL;
    bb_problem q;
    bb_group_problem(&pb, 0, &q);
    int64_t v[NF];
    fields_of(q, v);
    for (int f = 0; f < NF; f++) {
        src[f] = -1;
        cst[f] = 0;
        if (v[f] >= MARK && v[f] < MARK + BB_NPAR && b->par[v[f] - MARK]) src[f] = (int)(v[f] - MARK);
        else if (v[f] >= 0 && v[f] < MARK / 2) cst[f] = (int)v[f];
        else return false;
    }
    /* the map against the real normalisation of a few problems */
    for (int t = 0; t < 17; t++) {
        const int64_t i = t == 16 ? b->count - 1 : b->count * t / 16;
        bb_problem r;
        bb_group_problem(b, i, &r);
        int64_t w[NF];
        fields_of(r, w);
        for (int f = 0; f < NF; f++)
            if (w[f] != (src[f] >= 0 ? b->par[src[f]][i] : cst[f])) return false;
    }
    return true;
}

} // namespace

/* Problems a chunk of the fast plan's passes. */
static const int64_t PLAN_CHUNK = 1 << 14;

/* A pass over chunks [0, nch) on the staging threads (stage_copy.cu): each
   runner claims chunks until none is left. */
struct plan_team {
    std::atomic<int64_t> next;
    int64_t nch;
    std::function<void(int64_t)> body;
    std::atomic<int> runs; /* threads that took a chunk */
};

static void plan_runner(void *arg)
{
    plan_team *t = (plan_team *)arg;
    bool took = false;
    for (int64_t c; (c = t->next.fetch_add(1)) < t->nch;) {
        if (!took) t->runs.fetch_add(1), took = true;
        t->body(c);
    }
}

static void plan_run(plan_team &t)
{
    /* a few helpers: the passes are memory-bound, and the pool grows to at
       most this many threads for them (a larger pool wakes every thread for
       each team) */
    const int helpers = (int)std::min<int64_t>(std::min<int64_t>(t.nch - 1, bb_stage_host_cores() - 1), 7);
    bb_stage_team(plan_runner, &t, helpers, helpers);
}

/* 1: planned; 0: not for this batch (runs_plan then); -1: out of memory */
/* Batches from which the device counts the buckets (a round trip to the
   device costs tens of microseconds; the host counts 10^4 problems in
   less). */
static const int64_t DEV_COUNT_MIN = 1 << 16;

/* Buckets of a plan whose parameters are in device memory: its sizes
   must all be in buckets (there is no exact segment without the sizes on
   the host), so the buckets span [0, the largest size] of each size that
   varies, up to this many.  They are counted on the device, and only
   those that hold problems come back (bb_cu_var_count_devpar): the host
   passes over them, not over all the buckets (263169 for two sizes up to
   512: plan 5.5-6.3 ms of the host's time in gesv d uniform [1, 512],
   10240 problems, H200, session 32). */
static const int64_t DEVPAR_MAX_BUCKETS = 1 << 19;

static int fast_plan(const bb_batch *b, var_plan *pl, var_devcount *dc)
{
    memset(pl, 0, sizeof *pl);
    const int devpar = b->par_on_device;
    const int NO = devpar ? BB_VAR_NEEDS_HOST : 0; /* not for this plan */
    if (b->form != BB_FORM_VAR || !uniform_options(b)) return NO;
    const int64_t n = b->count;
    int64_t g0 = 0;
    if (devpar) g0 = b->first_good;
    else
        while (g0 < n && b->pinfo[g0]) g0++;
    if (g0 == n) return NO;
    /* the problems whose parameters the plan reads on the host: with the
       arrays in device memory, the sample the checks read back (its first
       problem is g0; bb_cu_var_check) */
    bb_batch sb;
    int sval[BB_NPAR][BB_VAR_SAMPLE];
    unsigned char ssc[2][BB_VAR_SAMPLE * 16];
    const bb_batch *pb = b;
    int64_t pg0 = g0;
    if (devpar) {
        if (!dc || !dc->q) return NO;
        const bb_cuda_queue *q = dc->q;
        sb = *b;
        sb.par_on_device = 0;
        sb.count = sb.ngroups = BB_VAR_SAMPLE;
        for (int s = 0; s < BB_NPAR; s++) {
            memcpy(sval[s], q->vs_val[s], sizeof sval[s]);
            sb.par[s] = b->par[s] ? sval[s] : NULL;
        }
        for (int w = 0; w < 2; w++) {
            const size_t sz = bb_scalar_bytes(b, w);
            for (int t = 0; t < BB_VAR_SAMPLE; t++) memcpy(ssc[w] + t * sz, q->vs_sc[w][t], sz);
        }
        sb.alpha = b->alpha ? ssc[0] : NULL;
        sb.beta = b->beta ? ssc[1] : NULL;
        pb = &sb;
        pg0 = 0;
    }
    int src[NF], cst[NF];
    if (!size_map(pb, pg0, src, cst)) return NO;
    bb_problem gp0;
    bb_group_problem(pb, pg0, &gp0);
    /* buckets: the sizes m, n, k, nrhs that vary, each in [0, its largest
       value] where the checks found it (front.c) and the buckets stay few,
       else in [0, FIELD_HI] (the register kernels' range; larger sizes go
       through the exact segments) */
    int64_t radix[4], nb = 1, nbmax = 1;
    for (int f = 0; f < 4; f++) {
        radix[f] = src[f] >= 0 ? FIELD_HI[f] + 1 : 1;
        nb *= radix[f];
        if (src[f] >= 0) nbmax *= b->uniform_options && b->par_max[src[f]] >= 0 ? b->par_max[src[f]] + 1 : (int64_t)1 << 30;
    }
    if (nbmax <= (devpar ? DEVPAR_MAX_BUCKETS : MAX_BUCKETS)) {
        nb = 1;
        for (int f = 0; f < 4; f++) {
            if (src[f] >= 0) radix[f] = b->par_max[src[f]] + 1;
            nb *= radix[f];
        }
    } else if (devpar) {
        return NO;
    }
    if (nb > (1 << 21)) return NO;
    int rc = -1;
    try {
        /* the size fields that vary (pointers into the user's arrays; a
           field that does not vary reads element 0 of a zero) */
        static const int zero1[1] = {0};
        const int *fp[4];
        int64_t fmask[4];
        for (int f = 0; f < 4; f++) {
            fp[f] = src[f] >= 0 ? b->par[src[f]] : zero1;
            fmask[f] = src[f] >= 0 ? -1 : 0;
        }
        /* bucket of problem i: ((n * Rm + m) * Rk + k) * Rr + nrhs (n most
           significant: decreasing keys are decreasing n); -1 skipped, -2
           out of the buckets' range */
        const int64_t R0 = radix[0], R2 = radix[2], R3 = radix[3], R1 = radix[1];
        const int *__restrict__ pm = fp[0], *__restrict__ pn = fp[1], *__restrict__ pk = fp[2],
                  *__restrict__ pr = fp[3];
        /* the front end's codes, only where some problem failed its checks
           (a device call's codes are a lazily mapped zero array: reading it
           would fault every page in) */
        const int *__restrict__ pinfo = b->nbad > 0 ? b->pinfo : NULL;
        const int64_t m0 = fmask[0], m1 = fmask[1], m2 = fmask[2], m3 = fmask[3];
        auto key_of = [=](int64_t i) -> int32_t {
            if (pinfo && pinfo[i]) return -1;
            const unsigned vm = (unsigned)pm[i & m0], vn = (unsigned)pn[i & m1], vk = (unsigned)pk[i & m2],
                           vr = (unsigned)pr[i & m3];
            if (vn >= (unsigned)R1 || vm >= (unsigned)R0 || vk >= (unsigned)R2 || vr >= (unsigned)R3) return -2;
            return (int32_t)(((vn * R0 + vm) * R2 + vk) * R3 + vr);
        };
        struct timespec ts0, ts1;
        clock_gettime(CLOCK_MONOTONIC, &ts0);
        /* the buckets that hold problems, largest key first, and their counts */
        std::vector<var_kv> nz;
        int64_t nslow = 0;
        if (devpar) { /* the arrays are on the device: counted there */
            if (bb_cu_var_count_devpar(dc->q, b, src, radix, nb, &nz, &nslow)) return NO;
        } else {
            std::vector<int64_t> cnt((size_t)nb + 1, 0);
            if (dc && b->nbad == 0 && n >= DEV_COUNT_MIN && bb_cu_var_count_dev(dc, b, src, radix, nb, cnt.data()) == 0) {
                nslow = cnt[(size_t)nb]; /* counted on the device (one round trip) */
            } else {
                int64_t nch = (n + PLAN_CHUNK - 1) / PLAN_CHUNK;
                /* each chunk's counters on cache lines of their own (16 int32) */
                const int64_t cst_nb = (nb + 15) / 16 * 16;
                if (nch * cst_nb > ((int64_t)1 << 19)) nch = std::max<int64_t>(1, ((int64_t)1 << 19) / cst_nb); /* 2 MB */
                const int64_t csize = (n + nch - 1) / nch;
                std::vector<int32_t> ccnt((size_t)(nch * cst_nb + 16), 0); /* per chunk and bucket: count */
                std::vector<int64_t> cslow((size_t)nch, 0);
                plan_team T;
                T.next.store(0);
                T.nch = nch;
                T.runs.store(0);
                T.body = [&](int64_t c) {
                    const int64_t lo = c * csize, hi = std::min(n, lo + csize);
                    int32_t *__restrict__ cc = &ccnt[(size_t)(c * cst_nb)];
                    int64_t slow = 0;
                    for (int64_t i = lo; i < hi; i++) {
                        const int32_t k = key_of(i);
                        if (k >= 0) cc[k]++;
                        else slow += k == -2;
                    }
                    cslow[(size_t)c] = slow;
                };
                plan_run(T);
                pl->count_threads = T.runs.load();
                for (int64_t c = 0; c < nch; c++) {
                    nslow += cslow[(size_t)c];
                    const int32_t *cc = &ccnt[(size_t)(c * cst_nb)];
                    for (int64_t x = 0; x < nb; x++) cnt[(size_t)x] += cc[x];
                }
            }
            for (int64_t x = nb - 1; x >= 0; x--)
                if (cnt[(size_t)x]) nz.push_back(var_kv{(int32_t)x, (int32_t)cnt[(size_t)x]});
        }
        clock_gettime(CLOCK_MONOTONIC, &ts1);
        pl->count_us = (ts1.tv_sec - ts0.tv_sec) * 1e6 + (ts1.tv_nsec - ts0.tv_nsec) * 1e-3;
        /* the bound of each bucket; buckets no register kernel takes go slow */
        /* the problem of bucket x: gp0 with the bucket's sizes (into q,
           which keeps gp0's other fields: tens of thousands of buckets) */
        bb_problem bq = gp0;
        auto bucket_problem = [&](int64_t x) -> const bb_problem & {
            const int vr = (int)(x % radix[3]); x /= radix[3];
            const int vk = (int)(x % radix[2]); x /= radix[2];
            const int vm = (int)(x % radix[0]); x /= radix[0];
            bq.m = src[0] >= 0 ? vm : cst[0];
            bq.n = src[1] >= 0 ? (int)x : cst[1];
            bq.k = src[2] >= 0 ? vk : cst[2];
            bq.nrhs = src[3] >= 0 ? vr : cst[3];
            return bq;
        };
        const size_t nnz = nz.size();
        std::vector<int> bcls(nnz, 0);
        int64_t nclassp = 0;
        for (size_t i = 0; i < nnz; i++) {
            bcls[i] = bb_cuda_var_class(b->op, b->prec, bucket_problem(nz[i].key));
            if (bcls[i]) nclassp += nz[i].val;
            else nslow += nz[i].val;
        }
        if (nclassp == 0 || (devpar && nslow > 0)) return NO;
        /* slots: one class launch per class (the variable-size driver,
           then the bounds 32 down), buckets by decreasing sizes, each
           padded to the class's granule (whole warps) */
        std::vector<int64_t> at(nnz, -1);
        std::vector<var_launch> launch;
        std::vector<var_ext> ext, ext_all;
        int64_t slot = 0;
        static const int classes[] = {BB_VAR_DRIVER, BB_VAR_MID, 32, 24, 16, 8, 4};
        for (int bound : classes) {
            const int gran = bb_var_gran(bound, b->prec);
            var_launch L{};
            L.gp = gp0;
            L.gp.m = L.gp.n = L.gp.k = L.gp.nrhs = 0;
            L.first = slot;
            L.cls = bound;
            L.cost = L.work3 = 0;
            for (size_t i = 0; i < nnz; i++) {
                if (bcls[i] != bound) continue;
                const bb_problem &q = bucket_problem(nz[i].key);
                const int64_t cn = nz[i].val;
                L.gp.m = std::max(L.gp.m, q.m);
                L.gp.n = std::max(L.gp.n, q.n);
                L.gp.k = std::max(L.gp.k, q.k);
                L.gp.nrhs = std::max(L.gp.nrhs, q.nrhs);
                at[i] = slot;
                slot += (cn + gran - 1) / gran * gran;
                if (bound == BB_VAR_DRIVER) ext.push_back(var_ext{size_max(q), (int32_t)(slot - L.first)});
                const double w = (double)cn * bb_var_size3(q);
                /* the cost of a register class is its bound's (the
                   kernel's loops run to it) */
                L.cost += bound == BB_VAR_DRIVER || bound == BB_VAR_MID ? w : (double)cn * bound * bound * bound;
                L.work3 += w;
            }
            L.n = slot - L.first;
            if (L.n > 0 && bound == BB_VAR_DRIVER) ext_of(L, ext, ext_all);
            ext.clear();
            if (L.n > 0) launch.push_back(L);
        }
        const int64_t nclass_launch = (int64_t)launch.size(), nclass_slots = slot;
        /* the rest: exact segments */
        segment *segs = NULL;
        int64_t nseg = 0, nidx = 0;
        int64_t *idx = NULL;
        std::vector<unsigned char> only;
        if (nslow > 0) { /* (host arrays: nb is at most MAX_BUCKETS or the register range's) */
            std::vector<char> slowb((size_t)nb, 0);
            for (size_t i = 0; i < nnz; i++) slowb[(size_t)nz[i].key] = !bcls[i];
            only.assign((size_t)n, 0);
            for (int64_t i = 0; i < n; i++) {
                const int32_t k = key_of(i);
                only[(size_t)i] = k == -2 || (k >= 0 && slowb[(size_t)k]);
            }
            if (bb_cu_build_segments(b, 1, &segs, &nseg, &idx, &nidx, only.data())) return -1;
        }
        /* the rest: the segments the variable-size driver takes make one
           class launch, largest first (each padded to whole warps), the
           others a launch each */
        std::vector<int64_t> dseg, seg_at((size_t)nseg, -1);
        std::vector<char> in_driver((size_t)nseg, 0);
        for (int64_t k = 0; k < nseg; k++)
            if (bb_cuda_var_class(b->op, b->prec, segs[k].gp) == BB_VAR_DRIVER) dseg.push_back(k), in_driver[(size_t)k] = 1;
        std::stable_sort(dseg.begin(), dseg.end(), [&](int64_t x, int64_t y) {
            const bb_problem &a = segs[x].gp, &c = segs[y].gp;
            const int ka[] = {a.n, a.m, a.k}, kc[] = {c.n, c.m, c.k};
            for (int i = 0; i < 3; i++)
                if (ka[i] != kc[i]) return ka[i] > kc[i];
            return false;
        });
        const int dgran = bb_var_gran(BB_VAR_DRIVER, b->prec);
        if (!dseg.empty()) {
            var_launch L{};
            L.gp = segs[dseg[0]].gp;
            L.first = slot;
            L.cls = BB_VAR_DRIVER;
            L.cost = L.work3 = 0;
            for (int64_t k : dseg) {
                const bb_problem &q = segs[k].gp;
                L.work3 += (double)segs[k].n * bb_var_size3(q);
                L.gp.m = std::max(L.gp.m, q.m);
                L.gp.n = std::max(L.gp.n, q.n);
                L.gp.k = std::max(L.gp.k, q.k);
                L.gp.nrhs = std::max(L.gp.nrhs, q.nrhs);
                L.cost += segs[k].cost;
                seg_at[(size_t)k] = slot;
                slot += (segs[k].n + dgran - 1) / dgran * dgran;
                ext.push_back(var_ext{size_max(q), (int32_t)(slot - L.first)});
            }
            L.n = slot - L.first;
            ext_of(L, ext, ext_all);
            launch.push_back(L);
        }
        for (int64_t k = 0; k < nseg; k++) {
            if (seg_at[(size_t)k] >= 0) continue;
            var_launch L{};
            L.gp = segs[k].gp;
            L.first = slot;
            L.n = segs[k].n;
            L.cls = 0;
            L.cost = segs[k].cost;
            L.work3 = (double)segs[k].n * bb_var_size3(segs[k].gp);
            seg_at[(size_t)k] = slot;
            slot += segs[k].n;
            launch.push_back(L);
        }
        std::stable_sort(launch.begin(), launch.end(),
                         [](const var_launch &x, const var_launch &y) { return x.cost > y.cost; });
        pl->nslot = slot;
        pl->map = (int32_t *)cu_malloc((size_t)(slot > 0 ? slot : 1) * sizeof(int32_t));
        pl->launch = (var_launch *)cu_malloc((launch.size() + 1) * sizeof(var_launch));
        pl->bk = (var_kv *)cu_malloc((nnz + 1) * sizeof(var_kv));
        pl->pad = (var_pad *)cu_malloc((nnz + 1) * sizeof(var_pad));
        if (pl->map && pl->launch && pl->bk && pl->pad && ext_keep(pl, ext_all) == 0) {
            /* the buckets' slots are placed on the device (bb_cu_var_place):
               each bucket's first slot, and its padding (after its
               problems, with the sizes of the problem in its first slot) */
            pl->placed = nclass_slots;
            pl->nb = nb;
            for (int f = 0; f < 4; f++) pl->radix[f] = (int)radix[f];
            for (size_t i = 0; i < nnz; i++) {
                pl->bk[pl->nbk++] = var_kv{nz[i].key, (int32_t)at[i]};
                if (at[i] < 0) continue;
                const int64_t cn = nz[i].val;
                const int gran = bb_var_gran(bcls[i], b->prec);
                const int64_t pe = (cn + gran - 1) / gran * gran - cn;
                if (!pe) continue;
                var_pad &p = pl->pad[pl->npad++];
                p.end = (int32_t)(at[i] + cn);
                p.len = (int32_t)pe;
                p.first = (int32_t)at[i];
            }
            for (int64_t k = 0; k < nseg; k++) { /* the segments' slots (padding: -1 - its last problem) */
                int32_t *m = pl->map + seg_at[(size_t)k];
                const int64_t sn = segs[k].n;
                for (int64_t t = 0; t < sn; t++) m[t] = (int32_t)idx[segs[k].first + t];
                if (in_driver[(size_t)k])
                    for (int64_t t = sn; t < (sn + dgran - 1) / dgran * dgran; t++) m[t] = -1 - m[sn - 1];
            }
            memcpy(pl->launch, launch.data(), launch.size() * sizeof(var_launch));
            pl->nlaunch = (int64_t)launch.size();
            pl->nclass = nclass_launch + !dseg.empty();
            pl->fast = 1;
            for (int f = 0; f < NF; f++) pl->src[f] = src[f], pl->cst[f] = cst[f];
            rc = 1;
        }
        free(segs);
        free(idx);
    } catch (...) {
        rc = -1;
    }
    if (rc != 1) bb_cu_var_plan_free(pl);
    return rc;
}

int bb_cu_var_plan(const bb_batch *b, var_plan *pl, var_devcount *dc)
{
    if (b->par_on_device && b->first_good >= b->count) { /* every problem failed its checks: nothing to launch */
        memset(pl, 0, sizeof *pl);
        return 0;
    }
    const int f = fast_plan(b, pl, dc);
    if (f < 0) return -1;
    if (f == 1) return 0;
    if (b->par_on_device) return BB_VAR_NEEDS_HOST; /* runs_plan reads the parameters */
    return runs_plan(b, pl);
}

namespace {
/* the sizes of problem p from the raw arrays (or the constants) */
__device__ __forceinline__ bb_vdim raw_dims(const var_raw &r, int64_t p)
{
    int v[7];
#pragma unroll
    for (int f = 0; f < 7; f++) v[f] = r.raw[f] ? r.raw[f][p] : r.cst[f];
    bb_vdim d;
    d.m = v[0], d.n = v[1], d.k = v[2], d.nrhs = v[3], d.lda = v[4], d.ldb = v[5], d.ldc = v[6];
    return d;
}

__global__ void k_var_expand_raw(const var_raw r, const int32_t *map, bb_vdim *vdim, int *info, int64_t n)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < n; t += step) {
        const int32_t m = map[t];
        vdim[t] = raw_dims(r, m >= 0 ? m : -1 - (int64_t)m);
        info[t] = m < 0;
    }
}
} // namespace

cudaError_t bb_cu_var_expand_raw(const var_raw &r, const int32_t *map, bb_vdim *vdim, int *info, int64_t nslot,
                                 cudaStream_t st)
{
    if (nslot <= 0) return cudaSuccess;
    k_var_expand_raw<<<bb_grid(nslot, 256), 256, 0, st>>>(r, map, vdim, info, nslot);
    return chk(cudaGetLastError());
}

cudaError_t bb_cu_var_expand(const var_run *runs, int64_t nrun, const int32_t *map, bb_vdim *vdim, int *info,
                             int64_t nslot, cudaStream_t st)
{
    if (nslot <= 0) return cudaSuccess;
    k_var_expand<<<bb_grid(nslot, 256), 256, 0, st>>>(runs, nrun, map, vdim, info, nslot);
    return chk(cudaGetLastError());
}

namespace {
/* Placement: the bucket of problem i, or -1 (skipped, or not a class
   bucket's). */
struct place_args {
    var_raw r;
    int R0, R1, R2, R3;
    const int *bad;
    const int32_t *at;
    int32_t *cur, *map;
    bb_vdim *vdim;
    int *info;
    int64_t n;
    int nb;
};

__device__ __forceinline__ int place_key(const place_args &a, int64_t i)
{
    if (i >= a.n || (a.bad && a.bad[i])) return -1;
    const var_raw &r = a.r;
    const unsigned vm = r.raw[0] ? (unsigned)r.raw[0][i] : 0u, vn = r.raw[1] ? (unsigned)r.raw[1][i] : 0u,
                   vk = r.raw[2] ? (unsigned)r.raw[2][i] : 0u, vr = r.raw[3] ? (unsigned)r.raw[3][i] : 0u;
    if (vn >= (unsigned)a.R1 || vm >= (unsigned)a.R0 || vk >= (unsigned)a.R2 || vr >= (unsigned)a.R3) return -1;
    const int key = (int)(((vn * a.R0 + vm) * a.R2 + vk) * a.R3 + vr);
    return a.at[key] < 0 ? -1 : key;
}

/* problem i in slot t: its index, sizes and run flag */
__device__ __forceinline__ void place_put(const place_args &a, int64_t t, int64_t i)
{
    a.map[t] = (int32_t)i;
    a.vdim[t] = raw_dims(a.r, i);
    a.info[t] = 0;
}

/* Few buckets (shared counters): each block ranks its problems per bucket
   in shared memory, takes each bucket's slots with one atomic, orders its
   problems by slot in shared memory and writes the slots in that order
   (consecutive threads, consecutive slots: the writes of a run coalesce;
   written in problem order they were scattered, 130 us for 10^6 problems
   on the H100). */
constexpr int PLACE_PER = 4; /* problems a thread, per round */
constexpr int PLACE_THREADS = 256;

/* Exclusive scan of one value a thread over a block of NT threads (wsum:
   shared, NT / 32 ints): the sum of the lower threads' values; *total,
   the block's.  Every thread calls it (a barrier). */
template <int NT>
__device__ __forceinline__ int block_scan_excl(int mine, int *wsum, int *total)
{
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    int incl = mine;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const int y = __shfl_up_sync(0xffffffffu, incl, o);
        if (lane >= o) incl += y;
    }
    if (lane == 31) wsum[w] = incl;
    __syncthreads();
    int r = incl - mine, t = 0;
    for (int v = 0; v < NT / 32; v++) {
        if (v < w) r += wsum[v];
        t += wsum[v];
    }
    *total = t;
    return r;
}

/* shared memory of k_var_place_block: counts, block offsets and first
   slots of nb buckets, then a round's problems in slot order */
size_t place_block_smem(int64_t nb)
{
    return (size_t)(3 * nb + 2 * PLACE_THREADS * PLACE_PER) * sizeof(int32_t);
}

__global__ void __launch_bounds__(PLACE_THREADS) k_var_place_block(const place_args a)
{
    extern __shared__ int32_t sh[];
    const int nb = a.nb;
    int32_t *cnt = sh, *off = sh + nb, *first = sh + 2 * nb;
    int32_t *ord = sh + 3 * nb, *okey = ord + PLACE_THREADS * PLACE_PER;
    __shared__ int wsum[PLACE_THREADS / 32];
    const int64_t round = (int64_t)PLACE_THREADS * PLACE_PER;
    const int per = (nb + PLACE_THREADS - 1) / PLACE_THREADS, lo = threadIdx.x * per,
              hi = lo + per < nb ? lo + per : nb;
    for (int64_t i0 = (int64_t)blockIdx.x * round; i0 < a.n; i0 += (int64_t)gridDim.x * round) {
        for (int t = threadIdx.x; t < nb; t += PLACE_THREADS) cnt[t] = 0;
        __syncthreads();
        int key[PLACE_PER], rank[PLACE_PER];
#pragma unroll
        for (int p = 0; p < PLACE_PER; p++) {
            key[p] = place_key(a, i0 + threadIdx.x + (int64_t)p * PLACE_THREADS);
            rank[p] = key[p] >= 0 ? atomicAdd(&cnt[key[p]], 1) : 0;
        }
        __syncthreads();
        /* exclusive scan of the counts (a thread per `per` buckets), and
           each bucket's first slot */
        int mine = 0, total;
        for (int t = lo; t < hi; t++) mine += cnt[t];
        int base = block_scan_excl<PLACE_THREADS>(mine, wsum, &total);
        for (int t = lo; t < hi; t++) {
            off[t] = base;
            base += cnt[t];
            if (cnt[t]) first[t] = a.at[t] + atomicAdd(&a.cur[t], cnt[t]);
        }
        __syncthreads();
#pragma unroll
        for (int p = 0; p < PLACE_PER; p++)
            if (key[p] >= 0) {
                const int j = off[key[p]] + rank[p];
                ord[j] = threadIdx.x + p * PLACE_THREADS;
                okey[j] = key[p];
            }
        __syncthreads();
        for (int j = threadIdx.x; j < total; j += PLACE_THREADS) {
            const int k = okey[j];
            place_put(a, first[k] + (j - off[k]), i0 + ord[j]);
        }
        __syncthreads(); /* the counters and the order are rewritten in the next round */
    }
}

/* Many buckets: a warp's problems of one bucket take their slots with one
   atomic. */
__global__ void k_var_place_warp(const place_args a)
{
    const int lane = threadIdx.x & 31;
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i0 = (int64_t)blockIdx.x * blockDim.x; i0 < a.n; i0 += step) { /* whole warps iterate */
        const int64_t i = i0 + threadIdx.x;
        const int key = place_key(a, i);
        const unsigned act = __ballot_sync(0xffffffffu, key >= 0);
        if (key >= 0) {
            const unsigned peers = __match_any_sync(act, key);
            const int leader = __ffs(peers) - 1;
            int base = 0;
            if (lane == leader) base = atomicAdd(&a.cur[key], __popc(peers));
            base = __shfl_sync(peers, base, leader);
            place_put(a, a.at[key] + base + __popc(peers & ((1u << lane) - 1u)), i);
        }
    }
}

/* the buckets' first slots, over the table's -1 (every problem placed is
   in a bucket of the plan's list, so only these entries are read; the -1
   keeps any other read from finding a slot) */
__global__ void k_var_at(const var_kv *bk, int64_t nbk, int32_t *at)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < nbk; t += step) at[bk[t].key] = bk[t].val;
}

/* padding slots: the problem index, sizes of the bucket's first slot, skipped */
__global__ void k_var_pad(const var_pad *pad, int64_t npad, int32_t *map, bb_vdim *vdim, int *info)
{
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < npad * 32; t += step) {
        const var_pad q = pad[t / 32];
        const int j = (int)(t % 32);
        if (j >= q.len) continue;
        map[q.end + j] = -1 - map[q.first];
        vdim[q.end + j] = vdim[q.first];
        info[q.end + j] = 1;
    }
}
} // namespace

cudaError_t bb_cu_var_place(const var_raw &r, const var_plan &pl, const int *bad, const var_kv *bk, int32_t *at,
                            int32_t *cur, const var_pad *pad, int32_t *map, bb_vdim *vdim, int *info, int64_t count,
                            cudaStream_t st)
{
    if (pl.placed <= 0) return cudaSuccess;
    cudaError_t e = chk(cudaMemsetAsync(cur, 0, (size_t)pl.nb * sizeof(int32_t), st));
    if (e == cudaSuccess) e = chk(cudaMemsetAsync(at, 0xff, (size_t)pl.nb * sizeof(int32_t), st)); /* -1 */
    if (e != cudaSuccess) return e;
    if (pl.nbk > 0) {
        k_var_at<<<bb_grid(pl.nbk, 256), 256, 0, st>>>(bk, pl.nbk, at);
        if ((e = chk(cudaGetLastError())) != cudaSuccess) return e;
    }
    place_args a;
    a.r = r;
    a.R0 = pl.radix[0], a.R1 = pl.radix[1], a.R2 = pl.radix[2], a.R3 = pl.radix[3];
    a.bad = bad;
    a.at = at;
    a.cur = cur;
    a.map = map;
    a.vdim = vdim;
    a.info = info;
    a.n = count;
    a.nb = (int)pl.nb;
    if (pl.nb <= 1024)
        k_var_place_block<<<bb_grid(count, PLACE_THREADS * PLACE_PER), PLACE_THREADS, place_block_smem(pl.nb), st>>>(a);
    else
        k_var_place_warp<<<bb_grid(count, 256), 256, 0, st>>>(a);
    e = chk(cudaGetLastError());
    if (e != cudaSuccess || pl.npad == 0) return e;
    k_var_pad<<<bb_grid(pl.npad * 32, 256), 256, 0, st>>>(pad, pl.npad, map, vdim, info);
    return chk(cudaGetLastError());
}

namespace {
/* Bucket counts (counts[nb]: sizes out of the buckets' range); a block's
   counts in shared memory first where the buckets are few. */
__global__ void k_var_hist(const var_raw r, int R0, int R1, int R2, int R3, unsigned *counts, int nb, int64_t n,
                           int shared, const int *bad)
{
    extern __shared__ unsigned hs[];
    if (shared) {
        for (int t = threadIdx.x; t <= nb; t += blockDim.x) hs[t] = 0;
        __syncthreads();
    }
    unsigned *h = shared ? hs : counts;
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
        if (bad && bad[i]) continue;
        const unsigned vm = r.raw[0] ? (unsigned)r.raw[0][i] : 0u, vn = r.raw[1] ? (unsigned)r.raw[1][i] : 0u,
                       vk = r.raw[2] ? (unsigned)r.raw[2][i] : 0u, vr = r.raw[3] ? (unsigned)r.raw[3][i] : 0u;
        const bool in = vn < (unsigned)R1 && vm < (unsigned)R0 && vk < (unsigned)R2 && vr < (unsigned)R3;
        atomicAdd(&h[in ? (int)(((vn * R0 + vm) * R2 + vk) * R3 + vr) : nb], 1u);
    }
    if (shared) {
        __syncthreads();
        for (int t = threadIdx.x; t <= nb; t += blockDim.x)
            if (hs[t]) atomicAdd(&counts[t], hs[t]);
    }
}
} // namespace

cudaError_t bb_cu_var_hist(const var_raw &r, const int64_t radix[4], unsigned *counts, int64_t nb, int64_t count,
                           cudaStream_t st, const int *bad)
{
    const int shared = nb < 4096;
    const unsigned grid = std::min<unsigned>(bb_grid(count, 256), 528); /* a few blocks an SM */
    k_var_hist<<<grid, 256, shared ? (size_t)(nb + 1) * sizeof(unsigned) : 0, st>>>(
        r, (int)radix[0], (int)radix[1], (int)radix[2], (int)radix[3], counts, (int)nb, count, shared, bad);
    return chk(cudaGetLastError());
}

/* ------------------------------------------------------------------------ */
/* gemm above the register bound: cuBLAS's grouped GEMM, a group per        */
/* problem (bb_cuda_var_grouped says which problems; launch.cu)             */
/* ------------------------------------------------------------------------ */

namespace {

cublasStatus_t grouped_call(cublasHandle_t h, bb_prec prec, const cublasOperation_t *ta, const cublasOperation_t *tb,
                            const int *m, const int *n, const int *k, const void *al, void *const *A, const int *lda,
                            void *const *B, const int *ldb, const void *be, void *const *C, const int *ldc, int ng,
                            const int *gs)
{
    if (prec == BB_P_S)
        return cublasSgemmGroupedBatched(h, ta, tb, m, n, k, (const float *)al, (const float *const *)A, lda,
                                         (const float *const *)B, ldb, (const float *)be, (float *const *)C, ldc, ng,
                                         gs);
    return cublasDgemmGroupedBatched(h, ta, tb, m, n, k, (const double *)al, (const double *const *)A, lda,
                                     (const double *const *)B, ldb, (const double *)be, (double *const *)C, ldc, ng, gs);
}

} // namespace

int bb_cu_var_grouped(bb_batch *b, bb_cuda_queue *q, var_grouped *g)
{
    g->idx = NULL;
    g->n = 0;
    const int lim = bb_cuda_var_grouped_above(b->op, b->prec);
    if (lim < 0 || !q->pub.cublas || !b->par[BB_M] || !b->par[BB_N] || !b->par[BB_K] || b->count > INT32_MAX)
        return 0;
    /* none above the bound (the checks' largest sizes of a variable batch
       whose options are all the same): no pass over the problems */
    if (b->form == BB_FORM_VAR && b->uniform_options && b->par_max[BB_M] <= lim && b->par_max[BB_N] <= lim &&
        b->par_max[BB_K] <= lim && b->par_max[BB_M] >= 0 && b->par_max[BB_N] >= 0 && b->par_max[BB_K] >= 0)
        return 0;
    try {
        /* the problems, and their parameters normalised (row-major: the
           column-major product of the transposes, operands exchanged) */
        std::vector<int32_t> sel; /* the problems, as the plan's slot map */
        std::vector<cublasOperation_t> ta, tb;
        std::vector<int> m, n, k, lda, ldb, ldc;
        const bool dbl = b->prec == BB_P_D;
        std::vector<double> ald, bed;
        std::vector<float> als, bes;
        bb_problem gp0;
        memset(&gp0, 0, sizeof gp0);
        double flops = 0;
        for (int64_t grp = 0; grp < b->ngroups; grp++) {
            const int64_t first = bb_group_first(b, grp), last = bb_group_first(b, grp + 1);
            if (first == last) continue;
            /* the raw sizes first (a few ns a group; the normalised
               problem costs about 50: 50 ms for 10^6 problems) */
            const int64_t r = grp * b->pinc;
            if (b->par[BB_M][r] <= lim && b->par[BB_N][r] <= lim && b->par[BB_K][r] <= lim) continue;
            bb_problem gp;
            bb_group_problem(b, grp, &gp);
            if (!bb_cuda_var_grouped(b->op, b->prec, gp)) continue;
            for (int64_t i = first; i < last; i++) {
                if (b->pinfo[i]) continue;
                if (sel.size() >= BB_VAR_GROUPED_MAX) return 0; /* too many groups: the driver takes them */
                sel.push_back((int32_t)i);
                ta.push_back(bb_cublas_op(gp.trans));
                tb.push_back(bb_cublas_op(gp.transb));
                flops += 2.0 * gp.m * gp.n * gp.k;
                m.push_back(gp.m), n.push_back(gp.n), k.push_back(gp.k);
                lda.push_back((int)gp.lda), ldb.push_back((int)gp.ldb), ldc.push_back((int)gp.ldc);
                if (dbl) ald.push_back(gp.alpha[0]), bed.push_back(gp.beta[0]);
                else als.push_back((float)gp.alpha[0]), bes.push_back((float)gp.beta[0]);
                gp0 = gp;
            }
        }
        const int64_t ns = (int64_t)sel.size();
        if (ns == 0 || flops < bb_cuda_var_grouped_flops()) return 0;
        cublasHandle_t h = q->pub.cublas;
        cudaStream_t hs = NULL;
        if (cublasGetStream(h, &hs) != CUBLAS_STATUS_SUCCESS || hs != q->pub.stream ||
            cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST) != CUBLAS_STATUS_SUCCESS)
            return BB_INFO_DEVICE;
        /* the operands' pointers in selection order, on the device: the
           selection, then A, B, C (normalised slots) */
        const size_t bsel = ((size_t)ns * sizeof(int32_t) + 255) / 256 * 256, bptr = ((size_t)ns * sizeof(void *) + 255) / 256 * 256;
        char *w = (char *)bb_cuda_workspace(&q->pub, bsel + 3 * bptr);
        if (!w) return BB_INFO_NOMEM;
        cudaStream_t st = q->pub.stream;
        cudaError_t e = chk(cudaMemcpyAsync(w, sel.data(), (size_t)ns * sizeof(int32_t), cudaMemcpyHostToDevice, st));
        void **dp[3];
        std::vector<void *> tmp;
        for (int o = 0; o < 3 && e == cudaSuccess; o++) {
            dp[o] = (void **)(w + bsel + o * bptr);
            const bb_operand &d = b->opd[bb_user_slot(&gp0, o)];
            if (!d.arr) return BB_INFO_DEVICE; /* the variable and group forms take pointer arrays */
            const cudaPointerAttributes a = bb_cu_pointer((const void *)d.arr);
            if (a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged) {
                bb_gather_ptrs<<<bb_grid(ns, 256), 256, 0, st>>>(d.arr, (const int32_t *)w, dp[o], ns);
                e = chk(cudaGetLastError());
            } else {
                tmp.resize((size_t)ns);
                for (int64_t t = 0; t < ns; t++) tmp[(size_t)t] = d.arr[sel[(size_t)t]];
                e = chk(cudaMemcpyAsync(dp[o], tmp.data(), (size_t)ns * sizeof(void *), cudaMemcpyHostToDevice, st));
            }
        }
        if (e != cudaSuccess) return BB_INFO_DEVICE;
        const std::vector<int> gs((size_t)ns, 1);
        const void *al = dbl ? (const void *)ald.data() : (const void *)als.data();
        const void *be = dbl ? (const void *)bed.data() : (const void *)bes.data();
        const cublasStatus_t cs = grouped_call(h, b->prec, ta.data(), tb.data(), m.data(), n.data(), k.data(), al,
                                               dp[BB_A], lda.data(), dp[BB_B], ldb.data(), be, dp[BB_C], ldc.data(),
                                               (int)ns, gs.data());
        if (cs != CUBLAS_STATUS_SUCCESS) return cs == CUBLAS_STATUS_ALLOC_FAILED ? BB_INFO_NOMEM : BB_INFO_DEVICE;
        g->idx = (int64_t *)cu_malloc((size_t)ns * sizeof(int64_t));
        if (!g->idx) return BB_INFO_NOMEM;
        for (int64_t t = 0; t < ns; t++) g->idx[t] = sel[(size_t)t];
        g->n = ns;
        for (int64_t t = 0; t < ns; t++) b->pinfo[sel[(size_t)t]] = BB_GROUPED_MARK;
        b->nbad += ns;
        return 0;
    } catch (...) {
        return BB_INFO_NOMEM;
    }
}

void bb_cu_var_grouped_unmark(bb_batch *b, var_grouped *g)
{
    for (int64_t t = 0; t < g->n; t++)
        if (b->pinfo[g->idx[t]] == BB_GROUPED_MARK) b->pinfo[g->idx[t]] = 0;
    b->nbad -= g->n;
    free(g->idx);
    g->idx = NULL;
    g->n = 0;
}

/* ------------------------------------------------------------------------ */
/* Parameter arrays in device memory (b->par_on_device, front.c): the       */
/* checks, the planner's sample and counts, read on the device             */
/* ------------------------------------------------------------------------ */

namespace {

/* the rules of problem 0's options (check.c's bb_rules) and the arrays */
struct vc_args {
    const int *par[BB_NPAR];
    const unsigned *sc[2]; /* alpha, beta as 32-bit words (NULL: none) */
    int scw[2];            /* words a value */
    int scb[2];            /* bytes a value */
    int nopt, oslot[6];
    int nrule, rslot[6], rdim[6], rpos[6];
    int worst;
    int hslot; /* the one size parameter counted (-1: none) */
};

/* the summary, reduced on the device */
struct vc_out {
    unsigned long long first_bad;  /* min over failing problems of (i << 32) | position */
    unsigned long long first_good; /* min over passing problems of i */
    unsigned long long nbad;
    int mixed, sdiff;
    int vmax[BB_NPAR];
};

/* the device buffer (bb_cuda_queue.vcheck): the summary, the sample, the codes */
const size_t VC_SAMPLE_AT = 256;
const size_t VC_SAMPLE_BYTES = (size_t)BB_NPAR * BB_VAR_SAMPLE * sizeof(int) + 2 * BB_VAR_SAMPLE * 16;
const size_t VC_HIST_AT = (VC_SAMPLE_AT + VC_SAMPLE_BYTES + 255) / 256 * 256;
const size_t VC_CODES_AT = (VC_HIST_AT + BB_VAR_HIST * sizeof(unsigned) + 255) / 256 * 256;

__device__ __forceinline__ unsigned long long warp_min64(unsigned long long v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const unsigned long long w = __shfl_xor_sync(0xffffffffu, v, o);
        v = w < v ? w : v;
    }
    return v;
}

/* every problem: its options against problem 0's, alpha and beta against
   problem 0's (bitwise, as bb_uniform_range), the size rules (check.c's
   rule_broken, through rules.h), its code; the summary reduced by warps,
   then by blocks; where the rules have one size parameter (a.hslot), the
   passing problems counted by it (sizes below BB_VAR_HIST; a block's
   count in shared memory, then added to hist) */
constexpr int VC_THREADS = 256, VC_WARPS = VC_THREADS / 32;

__global__ void __launch_bounds__(VC_THREADS) k_var_check(const vc_args a, int *codes, vc_out *out, unsigned *hist,
                                                          int64_t n)
{
    __shared__ unsigned sh[BB_VAR_HIST];
    const bool counting = a.hslot >= 0;
    if (counting) {
        for (int x = threadIdx.x; x < BB_VAR_HIST; x += VC_THREADS) sh[x] = 0;
        __syncthreads();
    }
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    unsigned long long fb = ~0ull, fg = ~0ull, nb = 0;
    int mixed = 0, sdiff = 0;
    int mx[6] = {-1, -1, -1, -1, -1, -1};
    for (int64_t i0 = (int64_t)blockIdx.x * blockDim.x; i0 < n; i0 += step) { /* warp-uniform trip count */
        const int64_t i = i0 + threadIdx.x;
        if (i >= n) continue;
        for (int o = 0; o < a.nopt; o++) mixed |= a.par[a.oslot[o]][i] != a.par[a.oslot[o]][0];
        for (int w = 0; w < 2; w++)
            if (a.sc[w])
                for (int j = 0; j < a.scw[w]; j++) sdiff |= a.sc[w][i * a.scw[w] + j] != a.sc[w][j];
        int worst = a.worst;
        int v[6];
#pragma unroll
        for (int q = 0; q < 6; q++) {
            if (q >= a.nrule) break;
            v[q] = a.par[a.rslot[q]][i];
            const int d = a.rdim[q] >= 0 ? a.par[a.rdim[q]][i] : 0;
            const int broken = a.rdim[q] < 0 ? bb_size_bad(v[q]) : bb_ld_bad(v[q], d);
            if (broken) worst = bb_first_pos(worst, a.rpos[q]);
        }
        codes[i] = worst ? -worst : 0;
        if (worst) {
            nb++;
            const unsigned long long k = ((unsigned long long)i << 32) | (unsigned)worst;
            fb = k < fb ? k : fb;
        } else {
            if (counting) {
                const unsigned hv = (unsigned)a.par[a.hslot][i];
                if (hv < BB_VAR_HIST) atomicAdd(&sh[hv], 1u);
            }
            fg = (unsigned long long)i < fg ? (unsigned long long)i : fg;
#pragma unroll
            for (int q = 0; q < 6; q++)
                if (q < a.nrule && a.rdim[q] < 0) mx[q] = v[q] > mx[q] ? v[q] : mx[q];
        }
    }
    fb = warp_min64(fb);
    fg = warp_min64(fg);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        nb += __shfl_xor_sync(0xffffffffu, nb, o);
        mixed |= __shfl_xor_sync(0xffffffffu, mixed, o);
        sdiff |= __shfl_xor_sync(0xffffffffu, sdiff, o);
#pragma unroll
        for (int q = 0; q < 6; q++) mx[q] = max(mx[q], __shfl_xor_sync(0xffffffffu, mx[q], o));
    }
    /* the warps' summaries through shared memory, then one set of atomics
       a block (every warp's own on the same few words serialised the
       kernel: 35 us for 10^6 problems on the H100) */
    __shared__ unsigned long long s_fb[VC_WARPS], s_fg[VC_WARPS], s_nb[VC_WARPS];
    __shared__ int s_flags[VC_WARPS], s_mx[VC_WARPS][6];
    const int w = threadIdx.x >> 5;
    if ((threadIdx.x & 31) == 0) {
        s_fb[w] = fb;
        s_fg[w] = fg;
        s_nb[w] = nb;
        s_flags[w] = mixed | sdiff << 1;
#pragma unroll
        for (int q = 0; q < 6; q++) s_mx[w][q] = mx[q];
    }
    __syncthreads();
    if (counting)
        for (int x = threadIdx.x; x < BB_VAR_HIST; x += VC_THREADS)
            if (sh[x]) atomicAdd(&hist[x], sh[x]);
    if (threadIdx.x != 0) return;
    int flags = 0;
    for (int v = 0; v < VC_WARPS; v++) {
        fb = s_fb[v] < fb ? s_fb[v] : fb;
        fg = s_fg[v] < fg ? s_fg[v] : fg;
        flags |= s_flags[v];
        if (v) nb += s_nb[v];
#pragma unroll
        for (int q = 0; q < 6; q++) mx[q] = max(mx[q], s_mx[v][q]);
    }
    if (fb != ~0ull) atomicMin(&out->first_bad, fb);
    if (fg != ~0ull) atomicMin(&out->first_good, fg);
    if (nb) atomicAdd(&out->nbad, nb);
    if (flags & 1) atomicOr(&out->mixed, 1);
    if (flags & 2) atomicOr(&out->sdiff, 1);
#pragma unroll
    for (int q = 0; q < 6; q++)
        if (q < a.nrule && a.rdim[q] < 0 && mx[q] >= 0) atomicMax(&out->vmax[a.rslot[q]], mx[q]);
}

/* the summary's start: nothing found yet, nothing counted */
__global__ void k_vc_init(vc_out *o, unsigned *hist)
{
    if (threadIdx.x == 0) { o->first_bad = o->first_good = ~0ull; o->nbad = 0; o->mixed = o->sdiff = 0; }
    if (threadIdx.x < BB_NPAR) o->vmax[threadIdx.x] = -1;
    if (hist)
        for (int x = threadIdx.x; x < BB_VAR_HIST; x += blockDim.x) hist[x] = 0;
}

/* the sample: the first problem that passed (out->first_good; problem 0
   if none did), then problems spread over the batch */
__global__ void k_var_sample(const vc_args a, const vc_out *out, int64_t n, int *vals, unsigned char *sc)
{
    const int64_t g0 = out->first_good < (unsigned long long)n ? (int64_t)out->first_good : 0;
    for (int j = threadIdx.x; j < BB_NPAR * BB_VAR_SAMPLE; j += blockDim.x) {
        const int s = j / BB_VAR_SAMPLE, t = j % BB_VAR_SAMPLE;
        const int64_t i = t == 0 ? g0 : t == BB_VAR_SAMPLE - 1 ? n - 1 : n * (t - 1) / (BB_VAR_SAMPLE - 2);
        vals[j] = a.par[s] ? a.par[s][i] : 0;
    }
    for (int j = threadIdx.x; j < 2 * BB_VAR_SAMPLE * 16; j += blockDim.x) {
        const int w = j / (BB_VAR_SAMPLE * 16), t = j / 16 % BB_VAR_SAMPLE, c = j % 16;
        const int64_t i = t == 0 ? g0 : t == BB_VAR_SAMPLE - 1 ? n - 1 : n * (t - 1) / (BB_VAR_SAMPLE - 2);
        sc[j] = a.sc[w] && c < a.scb[w] ? ((const unsigned char *)a.sc[w])[i * a.scb[w] + c] : 0;
    }
}

} // namespace

int bb_cu_var_check(const bb_batch *b, const bb_rules *r, bb_var_check *vc, int **codes)
{
    bb_cuda_queue *q = checked_queue(b->queue);
    if (!q) return BB_INFO_DEVICE;
    device_scope ds(q->pub.device);
    if (!ds.ok) return BB_INFO_DEVICE;
    const int64_t n = b->count;
    cudaError_t e = bb_cu_dev_grow(q, &q->vcheck, &q->vcheck_size, VC_CODES_AT + (size_t)n * sizeof(int), 1);
    if (e != cudaSuccess) return fail_code(e);
    vc_args a;
    memset(&a, 0, sizeof a);
    for (int s = 0; s < BB_NPAR; s++) a.par[s] = b->par[s];
    const void *sc[2] = {b->alpha, b->beta};
    for (int w = 0; w < 2; w++) {
        a.sc[w] = (const unsigned *)sc[w];
        a.scb[w] = sc[w] ? (int)bb_scalar_bytes(b, w) : 0;
        a.scw[w] = a.scb[w] / 4;
    }
    const int opts[] = {BB_SIDE, BB_UPLO, BB_TRANS, BB_TRANSB, BB_DIAG, BB_NORM};
    for (int s : opts)
        if (b->par[s]) a.oslot[a.nopt++] = s;
    a.nrule = r->nrule;
    for (int k = 0; k < r->nrule; k++) {
        a.rslot[k] = r->rule[k].slot;
        a.rdim[k] = r->rule[k].dim;
        a.rpos[k] = r->rule[k].pos;
    }
    a.worst = r->worst;
    a.hslot = -1;
    for (int k = 0, nsize = 0; k < r->nrule; k++)
        if (r->rule[k].dim < 0) a.hslot = ++nsize == 1 ? r->rule[k].slot : -1;
    char *base = (char *)q->vcheck;
    vc_out *dout = (vc_out *)base;
    int *dcodes = (int *)(base + VC_CODES_AT);
    int *dvals = (int *)(base + VC_SAMPLE_AT);
    unsigned char *dsc = (unsigned char *)(dvals + BB_NPAR * BB_VAR_SAMPLE);
    cudaStream_t st = q->pub.stream;
    unsigned *dhist = (unsigned *)(base + VC_HIST_AT);
    /* the summary, the sample and the count come back in one copy, the
       one wait */
    struct {
        vc_out out;
        char pad[VC_SAMPLE_AT - sizeof(vc_out)];
        int vals[BB_NPAR * BB_VAR_SAMPLE];
        unsigned char sc[2 * BB_VAR_SAMPLE * 16];
        char pad2[VC_HIST_AT - VC_SAMPLE_AT - VC_SAMPLE_BYTES];
        unsigned hist[BB_VAR_HIST];
    } h;
    static_assert(sizeof(vc_out) <= VC_SAMPLE_AT, "the summary fits before the sample");
    static_assert(offsetof(decltype(h), hist) == VC_HIST_AT, "the count where the device writes it");
    const size_t hbytes = a.hslot >= 0 ? sizeof h : VC_HIST_AT;
    /* after the queue's earlier work, and after the legacy default
       stream's (a caller's pageable cudaMemcpy of the arrays may return
       before the values have landed) */
    cudaEvent_t legacy = NULL;
    e = chk(cudaEventCreateWithFlags(&legacy, cudaEventDisableTiming));
    if (e == cudaSuccess) e = chk(cudaEventRecord(legacy, cudaStreamLegacy));
    if (e == cudaSuccess) e = chk(cudaStreamWaitEvent(st, legacy, 0));
    if (legacy) (void)cudaEventDestroy(legacy);
    if (e == cudaSuccess) {
        k_vc_init<<<1, 256, 0, st>>>(dout, a.hslot >= 0 ? dhist : NULL);
        e = chk(cudaGetLastError());
    }
    if (e == cudaSuccess) {
        k_var_check<<<std::min<unsigned>(bb_grid(n, VC_THREADS), 2048), VC_THREADS, 0, st>>>(a, dcodes, dout, dhist, n);
        e = chk(cudaGetLastError());
    }
    if (e == cudaSuccess) {
        k_var_sample<<<1, 256, 0, st>>>(a, dout, n, dvals, dsc);
        e = chk(cudaGetLastError());
    }
    if (e == cudaSuccess) e = chk(cudaMemcpyAsync(&h, base, hbytes, cudaMemcpyDeviceToHost, st));
    if (e == cudaSuccess) e = chk(cudaStreamSynchronize(st));
    if (e != cudaSuccess) {
        bb_cu_log("%s: the checks on the device: %s", b->name, cudaGetErrorString(e));
        return BB_INFO_DEVICE;
    }
    vc->mixed = h.out.mixed != 0;
    vc->uniform_scalars = h.out.sdiff == 0;
    vc->nbad = (int64_t)h.out.nbad;
    vc->first_good = h.out.first_good < (unsigned long long)n ? (int64_t)h.out.first_good : n;
    vc->first_code = h.out.first_bad == ~0ull ? 0 : -(int)(h.out.first_bad & 0xffffffffu);
    for (int s = 0; s < BB_NPAR; s++) vc->vmax[s] = h.out.vmax[s];
    /* the count is whole where every passing size was below its range */
    q->vs_hslot = a.hslot >= 0 && h.out.vmax[a.hslot] < BB_VAR_HIST ? a.hslot : -1;
    if (q->vs_hslot >= 0) memcpy(q->vs_hist, h.hist, sizeof q->vs_hist);
    bb_cu_log("%s: checks on the device: %lld problems, %lld failed (first code %d), options %s, alpha and beta %s",
              b->name, (long long)n, (long long)vc->nbad, vc->first_code, vc->mixed ? "differ" : "the same",
              vc->uniform_scalars ? "the same" : "differ");
    const int64_t g0 = vc->first_good < n ? vc->first_good : 0;
    q->vs_n = BB_VAR_SAMPLE;
    for (int t = 0; t < BB_VAR_SAMPLE; t++) {
        q->vs_idx[t] = t == 0 ? g0 : t == BB_VAR_SAMPLE - 1 ? n - 1 : n * (t - 1) / (BB_VAR_SAMPLE - 2);
        for (int s = 0; s < BB_NPAR; s++) q->vs_val[s][t] = h.vals[s * BB_VAR_SAMPLE + t];
        for (int w = 0; w < 2; w++) memcpy(q->vs_sc[w][t], h.sc + ((size_t)w * BB_VAR_SAMPLE + t) * 16, 16);
    }
    *codes = dcodes;
    return 0;
}

namespace {
/* The buckets that hold problems, largest key first: out[0] = (their
   number, the problems whose sizes are out of the buckets' range),
   out[1 + r] = (key, count) of the r-th from the top, r < cap.  Blocks
   of NZ_THREADS, each over a chunk of consecutive buckets: k_var_nz_count
   counts each chunk's non-empty buckets into bsum, then k_var_nz_list
   places them, each thread taking a run of its chunk.  One block over all
   263169 buckets of two sizes up to 512 took 86 us (H200, session 32). */
constexpr int NZ_THREADS = 256;
constexpr int NZ_CHUNK = 2048; /* buckets a block, about */
constexpr int NZ_MAX_BLOCKS = 1024;

__global__ void __launch_bounds__(NZ_THREADS) k_var_nz_count(const unsigned *counts, int nb, int chunk, int *bsum)
{
    __shared__ int wsum[NZ_THREADS / 32];
    const int b0 = (int)min((int64_t)blockIdx.x * chunk, (int64_t)nb), b1 = min(b0 + chunk, nb);
    int mine = 0, total;
    for (int x = b0 + threadIdx.x; x < b1; x += NZ_THREADS) mine += counts[x] != 0;
    block_scan_excl<NZ_THREADS>(mine, wsum, &total);
    if (threadIdx.x == 0) bsum[blockIdx.x] = total;
}

__global__ void __launch_bounds__(NZ_THREADS) k_var_nz_list(const unsigned *counts, int nb, int chunk, const int *bsum,
                                                             var_kv *out, int64_t cap)
{
    __shared__ int wsum[NZ_THREADS / 32];
    /* the non-empty buckets of the chunks before this one, and of all */
    int before = 0, all = 0, nbefore, total;
    for (int v = threadIdx.x; v < (int)gridDim.x; v += NZ_THREADS) {
        const int c = bsum[v];
        all += c;
        if (v < (int)blockIdx.x) before += c;
    }
    block_scan_excl<NZ_THREADS>(before, wsum, &nbefore);
    __syncthreads(); /* wsum is read above and written below */
    block_scan_excl<NZ_THREADS>(all, wsum, &total);
    __syncthreads();
    const int b0 = (int)min((int64_t)blockIdx.x * chunk, (int64_t)nb), b1 = min(b0 + chunk, nb);
    const int per = (b1 - b0 + NZ_THREADS - 1) / NZ_THREADS;
    const int lo = min(b0 + (int)threadIdx.x * per, b1), hi = min(lo + per, b1);
    int mine = 0, own;
    for (int x = lo; x < hi; x++) mine += counts[x] != 0;
    int r = nbefore + block_scan_excl<NZ_THREADS>(mine, wsum, &own);
    for (int x = lo; x < hi; x++) {
        const unsigned c = counts[x];
        if (!c) continue;
        const int64_t at = (int64_t)total - 1 - r++;
        if (at < cap) out[1 + at] = var_kv{x, (int32_t)c};
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) out[0] = var_kv{total, (int32_t)counts[nb]};
}
} // namespace

/* The fast plan's buckets counted on the device (the arrays there): the
   buckets that hold problems come back, not all nb of them (2^19 at most:
   two sizes up to 512 make 263169, and a host pass over them, with their
   1 MB copy, cost milliseconds a call). */
int bb_cu_var_count_devpar(bb_cuda_queue *q, const bb_batch *b, const int src[7], const int64_t radix[4], int64_t nb,
                           std::vector<var_kv> *nz, int64_t *nslow)
{
    nz->clear();
    *nslow = 0;
    /* one size that varies, counted by the checks already (bb_cu_var_check) */
    int fv = -1, nvary = 0;
    for (int f = 0; f < 4; f++)
        if (src[f] >= 0) fv = f, nvary++;
    if (nvary == 1 && q->vs_hslot >= 0 && src[fv] == q->vs_hslot && nb == radix[fv] && nb <= BB_VAR_HIST) {
        for (int64_t x = nb - 1; x >= 0; x--)
            if (q->vs_hist[x]) nz->push_back(var_kv{(int32_t)x, (int32_t)q->vs_hist[x]});
        return 0;
    }
    if (nb > INT32_MAX / 2) return -1;
    /* the list has room for every bucket that can hold a problem */
    const int64_t cap = std::min<int64_t>(nb, b->count);
    const int nblk = (int)std::min<int64_t>(NZ_MAX_BLOCKS, (nb + NZ_CHUNK - 1) / NZ_CHUNK);
    const int chunk = (int)((nb + nblk - 1) / nblk);
    const size_t cntb = ((size_t)(nb + 1) * sizeof(unsigned) + 15) / 16 * 16, listb = (size_t)(cap + 1) * sizeof(var_kv);
    const size_t listb16 = (listb + 15) / 16 * 16;
    cudaStream_t st = q->pub.stream;
    if (bb_cu_dev_grow(q, &q->scratch, &q->scratch_size, cntb + listb16 + nblk * sizeof(int), 1) != cudaSuccess)
        return -1;
    unsigned *dcounts = (unsigned *)q->scratch;
    var_kv *dlist = (var_kv *)((char *)q->scratch + cntb);
    int *dbsum = (int *)((char *)q->scratch + cntb + listb16);
    var_raw vr;
    for (int f = 0; f < 7; f++) {
        vr.raw[f] = f < 4 && src[f] >= 0 ? b->par[src[f]] : NULL;
        vr.cst[f] = 0;
    }
    std::vector<var_kv> h((size_t)cap + 1);
    cudaError_t e = chk(cudaMemsetAsync(dcounts, 0, (size_t)(nb + 1) * sizeof(unsigned), st));
    if (e == cudaSuccess) e = bb_cu_var_hist(vr, radix, dcounts, nb, b->count, st, b->nbad > 0 ? b->dev_codes : NULL);
    if (e == cudaSuccess) {
        k_var_nz_count<<<nblk, NZ_THREADS, 0, st>>>(dcounts, (int)nb, chunk, dbsum);
        k_var_nz_list<<<nblk, NZ_THREADS, 0, st>>>(dcounts, (int)nb, chunk, dbsum, dlist, cap);
        e = chk(cudaGetLastError());
    }
    if (e == cudaSuccess) e = chk(cudaMemcpyAsync(h.data(), dlist, listb, cudaMemcpyDeviceToHost, st));
    if (e == cudaSuccess) e = chk(cudaStreamSynchronize(st));
    if (e != cudaSuccess || h[0].key < 0 || h[0].key > cap) return -1;
    nz->assign(h.begin() + 1, h.begin() + 1 + h[0].key);
    *nslow = h[0].val;
    return 0;
}

int bb_cu_var_params_to_host(bb_batch *b, std::vector<std::vector<char>> *keep)
{
    bb_cuda_queue *q = checked_queue(b->queue);
    if (!q) return BB_INFO_DEVICE;
    cudaStream_t st = q->pub.stream;
    const int64_t n = b->count;
    cudaError_t e = cudaSuccess;
    try {
        const void *dst[BB_NPAR + 2];
        for (int s = 0; s < BB_NPAR + 2 && e == cudaSuccess; s++) {
            const void *src = s < BB_NPAR ? (const void *)b->par[s] : s == BB_NPAR ? b->alpha : b->beta;
            dst[s] = NULL;
            if (!src) continue;
            const size_t bytes = (size_t)n * (s < BB_NPAR ? sizeof(int) : bb_scalar_bytes(b, s - BB_NPAR));
            keep->emplace_back(bytes);
            dst[s] = keep->back().data();
            e = chk(cudaMemcpyAsync((void *)dst[s], src, bytes, cudaMemcpyDeviceToHost, st));
        }
        std::vector<int> codes;
        if (e == cudaSuccess && b->nbad > 0) {
            codes.resize((size_t)n);
            e = chk(cudaMemcpyAsync(codes.data(), b->dev_codes, (size_t)n * sizeof(int), cudaMemcpyDeviceToHost, st));
        }
        if (e == cudaSuccess) e = chk(cudaStreamSynchronize(st));
        if (e != cudaSuccess) return BB_INFO_DEVICE;
        for (int64_t i = 0; i < (int64_t)codes.size(); i++)
            if (codes[(size_t)i] && b->pinfo[i] == 0) b->pinfo[i] = codes[(size_t)i];
        for (int s = 0; s < BB_NPAR; s++)
            if (dst[s]) b->par[s] = (const int *)dst[s];
        if (dst[BB_NPAR]) b->alpha = dst[BB_NPAR];
        if (dst[BB_NPAR + 1]) b->beta = dst[BB_NPAR + 1];
    } catch (...) {
        return BB_INFO_NOMEM;
    }
    b->par_on_device = 0;
    b->dev_codes = NULL;
    return 0;
}
