/*
 * The CUDA driver's host-data path (bb_cu_run_host, called by cu_run in
 * backend_cuda.cu): staging contexts, chunks, gather and scatter, the
 * pipeline.
 *
 * Host data (the plain calls, synchronous).  A call runs one pipeline per
 * device (bb_cu_run_host_on: several when the batch is spread over several
 * devices, src/common/spread.c; one otherwise): the chunks are planned once
 * for the whole batch and each pipeline claims the next one whenever it is
 * free, so the devices finish together.  Each pipeline takes a staging
 * context from a per-device pool (created lazily, at most BB_CTX_MAX per
 * device, so concurrent host threads never share one): two slots, each a
 * private queue (stream, cuBLAS handle, workspace) with a pinned host buffer
 * and a device buffer.  The problems are cut into chunks of at most
 * BATCHBLAS_CUDA_STAGE_BYTES (default 128 MB; shorter near the end,
 * chunk_sizer); the k-th chunk a pipeline claims, j, uses slot k % 2:
 *   wait for the slot's previous chunk -> scatter it -> gather j into pinned
 *   memory -> H2D -> one launch per piece -> D2H (all on the slot's stream)
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
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cuda_internal.h"
#include "stage_copy.h"

/* Smallest chunk worth a pipeline step (a smaller batch is one chunk). */
static const size_t BB_STAGE_MIN_CHUNK = (size_t)4 << 20;
/* Staging contexts per device (host threads beyond this wait). */
static const int BB_CTX_MAX = 4;
/* A unit of copy work (claimed by one thread at a time): whole problems of
   at least this many bytes, and about this many units per thread in a
   chunk, so that the threads finish together. */
static const size_t BB_STAGE_UNIT_MIN = (size_t)256 << 10;
static const size_t BB_STAGE_UNITS_PER_THREAD = 8;

/* ------------------------------------------------------------------------- */
/* Staging contexts (a pool per device)                                       */
/* ------------------------------------------------------------------------- */

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
        if (sl->q) (void)bb_cu_queue_release(sl->q);
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
        int rc = bb_cu_queue_new(device, NULL, 0, cudaStreamNonBlocking, &c->slot[s].q);
        if (rc != BblasSuccess) {
            *why = rc == BblasErrNoMemory ? BB_INFO_NOMEM : BB_INFO_DEVICE;
            ctx_destroy(c);
            return NULL;
        }
    }
    bb_cu_log("staging context on device %d", device);
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
/* Host data: staging                                                         */
/* ------------------------------------------------------------------------- */

/* The user's operand slot `orig` is given (array or base). */
static int operand_present(const bb_batch *b, int orig)
{
    return b->opd[orig].arr != NULL || b->opd[orig].base != NULL;
}

/* Leading dimension of operand o of problem p (r: the contiguous ones). */
static int64_t problem_ld(const bb_problem &p, int o, int r)
{
    if (o == BB_A) return p.lda;
    if (o == BB_B) return p.ldb;
    if (o == BB_C) return p.ldc;
    return r; /* ipiv, x, y: contiguous */
}

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
        sp->es[o] = bb_cu_operand_elem(b, o);
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
    unsigned direct;     /* bit o: operand o is copied between the device and
                            the user's page-locked memory directly (set per
                            chunk by mark_direct; never gathered, never
                            scattered by the host) */
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
 * The chunk bounds: the chunks aim at total / (chunks x pipelines) bytes
 * (within [BB_STAGE_MIN_CHUNK, the staging bound]), and near the end of the
 * batch at a quarter of what is left per pipeline, so that the last chunks
 * are short: the pipelines finish together, and the tail of the pipeline
 * (the last chunk's transfers and scatter, not overlapped) is short.
 */
struct chunk_sizer {
    size_t big, lo;
    double total, consumed;
    int npipes;
    size_t next() const
    {
        double left = total - consumed;
        double t = left / (4.0 * npipes);
        if (t > (double)big) return big;
        return t < (double)lo ? lo : (size_t)t;
    }
};

/*
 * Cuts the segments, in launch order, into chunks of at most z.next() bytes
 * each (a chunk holds at least one problem, so one problem above the bound
 * is a chunk of its own).  Counts only when pcs/chs are NULL.
 */
static void plan_chunks(const segment *segs, const seg_plan *plans, int64_t nseg, chunk_sizer z,
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
                room = z.next();
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
            z.consumed += (double)take * (double)pb;
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
        fast[o] = (pc.direct >> o) & 1; /* the device reads it from the user's memory */
        if (fast[o] || !sp.used[o] || sp.cat[o] == CAT_WO || sp.elems[o] == 0) continue;
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
        fast[o] = (pc.direct >> o) & 1; /* the device wrote it to the user's memory */
        if (fast[o] || !sp.used[o] || sp.cat[o] == CAT_RO || sp.elems[o] == 0) continue;
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

/* Pipelines (bb_cu_run_host calls) running now, over every device: they divide
   bb_cu_cfg_stage_budget copy threads between them. */
static int g_stage_active = 0;

/* The copy threads a pipeline step of b may use now: its share of the
   budget, at most bb_cu_cfg_stage_threads, at least 1; a share of a batch
   split with the CPU (src/common/spread.c) takes what the split gave it
   (b->stage_threads: the CPU computes on the other cores). */
static int stage_threads_now(const bb_batch *b)
{
    if (b->stage_threads > 0) return b->stage_threads;
    int a = __atomic_load_n(&g_stage_active, __ATOMIC_RELAXED);
    int n = bb_cu_cfg_stage_budget / (a > 1 ? a : 1);
    if (n > bb_cu_cfg_stage_threads) n = bb_cu_cfg_stage_threads;
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
    bb_stage_team(copy_units, &J, nthr - 1, bb_cu_cfg_stage_budget - 1);
    pthread_mutex_destroy(&J.mu);
}

/* ---- page-locked user memory: copied directly ------------------------- */

/* Bit o (a user slot): the strided operand o lies in page-locked memory
   (its first and last byte over the batch). */
static unsigned pinned_operands(const bb_batch *b)
{
    unsigned m = 0;
    if (!bb_cu_cfg_stage_direct || b->count <= 0) return 0;
    for (int o = 0; o < BB_NOPD; o++) {
        const bb_operand &d = b->opd[o];
        if (d.arr || !d.base || d.stride <= 0) continue;
        size_t bytes = (size_t)b->count * (size_t)d.stride * bb_cu_operand_elem(b, o);
        if (bb_cu_host_pinned(d.base) && bb_cu_host_pinned(d.base + bytes - 1)) m |= 1u << o;
    }
    return m;
}

/* Before chunk ch is gathered: which operands of its pieces the device
   copies to and from the user's memory itself.  A compact strided operand
   in page-locked memory, in a piece none of whose problems is skipped on
   entry (their data would go back unchanged, but a write-only C would not:
   such pieces are staged as before).  The kernels write no negative code,
   so every problem of such a piece is written back, as the host scatter
   would. */
static void mark_direct(const bb_batch *b, const segment *segs, const int64_t *idx, const seg_plan *plans,
                        piece *pcs, const chunk &ch, unsigned pinned)
{
    for (int64_t k = ch.q0; k < ch.q1; k++) {
        piece &pc = pcs[k];
        pc.direct = 0;
        if (!pinned || idx) continue;
        const seg_plan &sp = plans[pc.seg];
        const segment &s = segs[pc.seg];
        unsigned m = 0;
        for (int o = 0; o < BB_NOPD; o++)
            if (sp.used[o] && sp.elems[o] > 0 && ((pinned >> sp.orig[o]) & 1) && contiguous_operand(b, sp, s.gp, o))
                m |= 1u << o;
        for (int64_t t = pc.p0; t < pc.p1 && m; t++)
            if (b->pinfo[s.first + t]) m = 0;
        pc.direct = m;
    }
}

/* The user's memory of direct operand o of piece pc. */
static char *direct_ptr(const bb_batch *b, const segment &s, const seg_plan &sp, const piece &pc, int o)
{
    size_t per = (size_t)sp.elems[o] * sp.es[o];
    return b->opd[sp.orig[o]].base + (size_t)(s.first + pc.p0) * per;
}

/* The copies of one direction of a chunk with direct operands: runs of the
   pinned buffer merged (regions are met in offset order, alignment gaps
   go along), each direct region a copy of its own. */
struct chunk_copier {
    cudaStream_t st;
    char *dev, *host;
    int d2h;
    bool run;
    size_t lo, hi;
    cudaError_t e;
    void copy(size_t off, char *h, size_t len)
    {
        if (e != cudaSuccess || len == 0) return;
        e = d2h ? chk(cudaMemcpyAsync(h, dev + off, len, cudaMemcpyDeviceToHost, st))
                : chk(cudaMemcpyAsync(dev + off, h, len, cudaMemcpyHostToDevice, st));
    }
    void flush()
    {
        if (run) copy(lo, host + lo, hi - lo);
        run = false;
    }
    void buffer(size_t off, size_t len)
    {
        if (!run) lo = off;
        run = true;
        hi = off + len;
    }
    void user(size_t off, char *u, size_t len)
    {
        flush();
        copy(off, u, len);
    }
};

static cudaError_t direct_copies(const bb_batch *b, const segment *segs, const seg_plan *plans,
                                 const piece *pcs, const chunk &ch, stage_slot *sl, int d2h)
{
    chunk_copier C = {sl->q->pub.stream, (char *)sl->q->scratch, sl->host, d2h, false, 0, 0, cudaSuccess};
    /* the layout's passes (layout_chunk): read-only, info, read-write,
       write-only; H2D takes the first three, D2H the last three */
    for (int pass = d2h ? 1 : 0; pass < (d2h ? 4 : 3); pass++) {
        for (int64_t k = ch.q0; k < ch.q1; k++) {
            const piece &pc = pcs[k];
            const seg_plan &sp = plans[pc.seg];
            size_t n = (size_t)(pc.p1 - pc.p0);
            if (pass == 1) {
                C.buffer(pc.off_info, n * sizeof(int));
                continue;
            }
            int want = pass == 0 ? CAT_RO : pass == 2 ? CAT_RW : CAT_WO;
            for (int o = 0; o < BB_NOPD; o++) {
                if (!sp.used[o] || sp.cat[o] != want) continue;
                size_t len = n * (size_t)sp.elems[o] * sp.es[o];
                if ((pc.direct >> o) & 1) C.user(pc.off[o], direct_ptr(b, segs[pc.seg], sp, pc, o), len);
                else C.buffer(pc.off[o], len);
            }
        }
    }
    C.flush();
    return C.e;
}

static bool chunk_direct(const piece *pcs, const chunk &ch)
{
    for (int64_t k = ch.q0; k < ch.q1; k++)
        if (pcs[k].direct) return true;
    return false;
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
    const bool direct = chunk_direct(pcs, ch);
    cudaError_t e = direct ? direct_copies(b, segs, plans, pcs, ch, sl, 0)
                           : chk(cudaMemcpyAsync(dev, sl->host, ch.h2d_end, cudaMemcpyHostToDevice, q->pub.stream));
    if (e != cudaSuccess) return e;
    /* the write-only region comes back whole, alignment gaps included: zero
       it first, so that no byte the kernels leave alone goes back
       uninitialised (compute-sanitizer initcheck; a device memset of the
       region costs ~1/50 of its copy over the link) */
    if (ch.total > ch.h2d_end) {
        e = chk(cudaMemsetAsync(dev + ch.h2d_end, 0, ch.total - ch.h2d_end, q->pub.stream));
        if (e != cudaSuccess) return e;
    }
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
    if (direct) return direct_copies(b, segs, plans, pcs, ch, sl, 1);
    return chk(cudaMemcpyAsync(sl->host + ch.d2h_begin, dev + ch.d2h_begin, ch.total - ch.d2h_begin,
                               cudaMemcpyDeviceToHost, q->pub.stream));
}

/* One batch over one or several pipelines (one per entry of the device
   list): planned once, its chunks claimed in order by whichever pipeline is
   free next, so that every device works until the list is empty. */
struct shared_run {
    bb_batch *b;
    const segment *segs;
    const int64_t *idx;
    const seg_plan *plans;
    piece *pcs;           /* a chunk's pieces: written (mark_direct) by its claimer only */
    const chunk *chs;
    int64_t nch;
    size_t need;          /* the largest chunk */
    unsigned pinned;      /* user slots in page-locked memory (pinned_operands) */
    char *done;           /* per chunk: scattered (written by its claimer only) */
    int64_t next;         /* the next unclaimed chunk (atomic) */
    double t0;            /* when the call started (wall_ms) */
};

struct pipe_run {
    shared_run *R;
    int device;           /* -1: the caller's current device */
    int fail;             /* 0, or the code for this pipeline's unfinished chunks */
    int64_t chunks;       /* chunks it finished */
    double start, end;    /* its start and its end (the last scatter done), ms after the call's start */
};

static double wall_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* The pipeline of one device: claims chunks until none is left (or one of
   its device calls fails: the other pipelines take the rest). */
/* Chunk j, issued on slot sl: waits for its stream, scatters it, marks it
   done; false (and P->fail set) if the stream reports a failure. */
static bool finish_chunk(pipe_run *P, stage_slot *sl, int64_t j)
{
    shared_run *R = P->R;
    if (chk(cudaStreamSynchronize(sl->q->pub.stream)) != cudaSuccess) {
        P->fail = BB_INFO_DEVICE;
        return false;
    }
    stage_copy(R->b, R->segs, R->idx, R->plans, R->pcs, R->chs[j], sl->host, 1, stage_threads_now(R->b));
    R->done[j] = 1;
    P->chunks++;
    return true;
}

static void pipeline_on(pipe_run *P, int dev)
{
    shared_run *R = P->R;
    bb_batch *b = R->b;
    stage_ctx *ctx = NULL;
    int counted = 0;
    {
        int why = BB_INFO_DEVICE;
        ctx = ctx_acquire(dev, &why);
        if (!ctx) {
            P->fail = why;
            goto out;
        }
        int nslots = R->nch > 1 ? 2 : 1;
        for (int s = 0; s < nslots; s++) {
            stage_slot *sl = &ctx->slot[s];
            cudaError_t ge = host_grow(sl, R->need);
            if (ge == cudaSuccess) ge = bb_cu_dev_grow(sl->q, &sl->q->scratch, &sl->q->scratch_size, R->need, 0);
            if (ge != cudaSuccess) {
                bb_cu_log("%s: staging buffers of %zu bytes on device %d: allocation failed", b->name, R->need, dev);
                P->fail = fail_code(ge);
                goto out;
            }
        }
        __atomic_add_fetch(&g_stage_active, 1, __ATOMIC_RELAXED);
        counted = 1;

        /* the pipeline: the k-th chunk it claims on slot k % 2 */
        int64_t inflight[2] = {-1, -1};
        for (int64_t k = 0; !P->fail; k++) {
            int64_t j = __atomic_fetch_add(&R->next, 1, __ATOMIC_RELAXED);
            if (j >= R->nch) break;
            stage_slot *sl = &ctx->slot[k & 1];
            int64_t prev = inflight[k & 1];
            if (prev >= 0) {
                if (!finish_chunk(P, sl, prev)) break;
                inflight[k & 1] = -1;
            }
            mark_direct(b, R->segs, R->idx, R->plans, R->pcs, R->chs[j], R->pinned);
            stage_copy(b, R->segs, R->idx, R->plans, R->pcs, R->chs[j], sl->host, 0, stage_threads_now(b));
            cudaError_t e = issue_chunk(b, R->segs, R->plans, R->pcs, R->chs[j], sl);
            inflight[k & 1] = j;
            if (e != cudaSuccess) {
                bb_cu_log("%s: chunk %lld on device %d: %s", b->name, (long long)j, dev, cudaGetErrorString(e));
                P->fail = fail_code(e);
                inflight[k & 1] = -1; /* not finished: its problems get the code */
            }
        }
        /* drain, oldest first (after a failed chunk too: a chunk issued
           before it, whose direct copies may have written the user's memory
           already, is finished and reported as computed if its stream is
           sound) */
        const int failed = P->fail;
        int first = (inflight[0] >= 0 && inflight[1] >= 0) ? (inflight[0] < inflight[1] ? 0 : 1)
                                                           : (inflight[0] >= 0 ? 0 : 1);
        for (int r = 0; r < 2 && P->fail == failed; r++) {
            int s = r == 0 ? first : 1 - first;
            int64_t j = inflight[s];
            if (j < 0) continue;
            if (!finish_chunk(P, &ctx->slot[s], j)) break;
            inflight[s] = -1;
        }
        if (failed) P->fail = failed;
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
        size_t keep = align_up(bb_cu_cfg_stage_bytes, (size_t)1 << 20);
        for (int s = 0; s < 2 && !ctx->broken; s++) {
            stage_slot *sl = &ctx->slot[s];
            if (sl->host_size > keep) {
                (void)chk(cudaFreeHost(sl->host));
                sl->host = NULL;
                sl->host_size = 0;
            }
            if (sl->q->scratch_size > keep) {
                (void)bb_cu_dev_free(sl->q, sl->q->scratch);
                sl->q->scratch = NULL;
                sl->q->scratch_size = 0;
            }
        }
        ctx_release(ctx);
    }
}

static void pipeline(pipe_run *P)
{
    P->start = wall_ms() - P->R->t0;
    int dev = P->device;
    if (dev < 0 && chk(cudaGetDevice(&dev)) != cudaSuccess) {
        P->fail = BB_INFO_DEVICE;
    } else {
        device_scope ds(dev); /* this thread's current device for the call */
        if (ds.ok) pipeline_on(P, dev);
        else P->fail = BB_INFO_DEVICE;
    }
    P->end = wall_ms() - P->R->t0;
}

/* The pipelines of a call, claimed one at a time by the caller and the
   pipeline pool's threads (bb_stage_pipelines). */
struct pipe_job {
    pipe_run *P;
    int np;
    int next;
};

static void run_pipelines(void *arg)
{
    pipe_job *J = (pipe_job *)arg;
    for (;;) {
        int k = __atomic_fetch_add(&J->next, 1, __ATOMIC_RELAXED);
        if (k >= J->np) return;
        pipeline(&J->P[k]);
    }
}


void bb_cu_run_host_on(bb_batch *b, int ndev, const int *devices, double *ms)
{
    const double t_call = wall_ms();
    pthread_once(&bb_cu_cfg_once, bb_cu_read_cfg);
    segment *segs = NULL;
    int64_t nseg = 0, nidx = 0;
    int64_t *idx = NULL;
    seg_plan *plans = NULL;
    piece *pcs = NULL;
    chunk *chs = NULL;
    char *done = NULL;
    pipe_run *P = NULL;
    int fail = 0; /* 0, or the code for the problems not finished */
    int64_t npc = 0, nch = 0;
    size_t need = 0;
    if (ndev < 1) ndev = 1;

    if (bb_cu_build_segments(b, 0, &segs, &nseg, &idx, &nidx)) {
        bb_cu_fail_all(b, BB_INFO_NOMEM);
        return;
    }
    if (nseg == 0) goto out;

    /* chunks: filled with whole segments or parts of them, in launch order */
    {
        plans = (seg_plan *)cu_malloc((size_t)nseg * sizeof *plans);
        if (!plans) { fail = BB_INFO_NOMEM; goto out; }
        chunk_sizer z;
        z.total = 0;
        for (int64_t k = 0; k < nseg; k++) {
            make_plan(b, segs[k].gp, &plans[k]);
            z.total += (double)plans[k].pb * (double)segs[k].n;
        }
        size_t cap = bb_cu_cfg_stage_bytes;
        z.lo = BB_STAGE_MIN_CHUNK < cap ? BB_STAGE_MIN_CHUNK : cap;
        z.big = (size_t)(z.total / ((double)bb_cu_cfg_stage_chunks * ndev));
        if (z.big < z.lo) z.big = z.lo;
        if (z.big > cap) z.big = cap;
        z.npipes = ndev;
        z.consumed = 0;
        plan_chunks(segs, plans, nseg, z, NULL, NULL, &npc, &nch);
        pcs = (piece *)cu_malloc((size_t)npc * sizeof *pcs);
        chs = (chunk *)cu_malloc((size_t)nch * sizeof *chs);
        if (!pcs || !chs) { fail = BB_INFO_NOMEM; goto out; }
        plan_chunks(segs, plans, nseg, z, pcs, chs, &npc, &nch);
        for (int64_t j = 0; j < nch; j++) {
            layout_chunk(&chs[j], pcs, plans);
            if (chs[j].total > need) need = chs[j].total;
        }
        done = (char *)cu_calloc((size_t)nch, 1);
        P = (pipe_run *)cu_calloc((size_t)ndev, sizeof *P);
        if (!done || !P) { fail = BB_INFO_NOMEM; goto out; }
    }

    {
        shared_run R = {b, segs, idx, plans, pcs, chs, nch, need, pinned_operands(b), done, 0, t_call};
        /* no more pipelines than chunks */
        int np = (int64_t)ndev < nch ? ndev : (int)nch;
        bb_cu_log("%s: host data, %lld problem(s), %lld launch(es) in %lld chunk(s) of <= %zu bytes over %d "
                  "pipeline(s), copies on <= %d thread(s) each%s",
                  b->name, (long long)b->count, (long long)nseg, (long long)nch, need, np, stage_threads_now(b),
                  R.pinned ? ", page-locked operands copied directly" : "");
        for (int k = 0; k < np; k++) {
            P[k].R = &R;
            P[k].device = devices ? devices[k] : -1;
        }
        /* the pipelines at once: on this thread and on threads of the
           pipeline pool (a pipeline that finds no thread runs here after
           the others: it finds what is left, if anything) */
        pipe_job J = {P, np, 0};
        bb_stage_pipelines(run_pipelines, &J, np - 1);
        for (int k = 0; k < np; k++) {
            if (ms) ms[k] = P[k].end;
            if (P[k].fail && !fail) fail = P[k].fail;
            if (np > 1)
                bb_cu_log("%s: pipeline %d (device %d): %lld chunk(s), from %.2f to %.2f ms%s", b->name, k,
                          P[k].device, (long long)P[k].chunks, P[k].start, P[k].end, P[k].fail ? ", failed" : "");
        }
        /* a pipeline that failed left its chunks to the others: the batch
           failed only where a chunk was not finished */
        if (fail) {
            int any = 0;
            for (int64_t j = 0; j < nch && !any; j++) any = !done[j];
            if (!any) fail = 0;
        }
    }

out:
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
            bb_cu_fail_all(b, fail);
        }
    }
    free(P);
    free(done);
    free(chs);
    free(pcs);
    free(plans);
    free(segs);
    free(idx);
}

void bb_cu_run_host(bb_batch *b) { bb_cu_run_host_on(b, 1, NULL, NULL); }
