/*
 * The CPU backend driver: OpenMP over the problems, one kernel call per
 * problem, BLAS single-threaded inside.
 *   - one parameter set (fixed, strided) or few groups: each group's problems
 *     handed out in contiguous chunks (dynamic schedule, chunk_blocks), so
 *     neighbouring tiny matrices share cache lines across cores only at
 *     chunk ends and a thread that loses its core does not hold the rest;
 *   - variable sizes (one parameter set per problem): largest problems first,
 *     dynamic schedule, so all threads finish together.
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "backend.h"
#include "cpu.h"

void *bb_work_get(bb_work *w, size_t bytes)
{
    if (bytes <= w->size) return w->p;
    void *q = bb_realloc(w->p, bytes);
    if (!q) return NULL;
    w->p = q;
    w->size = bytes;
    return q;
}

static bb_cpu_kernel kernel_for(const bb_batch *b)
{
    switch (b->prec) {
    case BB_P_S: return bb_s_cpu_kernels[b->op];
    case BB_P_D: return bb_d_cpu_kernels[b->op];
    case BB_P_C: return bb_c_cpu_kernels[b->op];
    case BB_P_Z: return bb_z_cpu_kernels[b->op];
    }
    return NULL;
}

static int cpu_probe(void) { return 1; }

static int cpu_supports(const bb_batch *b) { return kernel_for(b) != NULL; }

/* Opening a parallel region costs microseconds (more on a busy machine,
   where libgomp's waiting threads spin): small batches run on one thread. */
static const double BB_CPU_PARALLEL_MIN_FLOPS = 2e5;

/* Work of one problem for the scheduling decisions: flops plus a term for
   the data it touches. */
static double problem_cost(const bb_batch *b, const bb_problem *p)
{
    return bb_problem_flops(b, p) + (double)p->m * p->n + (double)p->n * p->k + p->n;
}

static int parallel_pays(const bb_batch *b)
{
    if (b->count < 2) return 0;
    bb_problem p;
    bb_group_problem(b, 0, &p);
    return problem_cost(b, &p) * (double)b->count >= BB_CPU_PARALLEL_MIN_FLOPS;
}

/* Variable sizes: problems are handed out dynamically, largest first, so
   that a big problem does not start last.  "Largest" to within a factor of
   two is enough: a counting sort on floor(log2(cost)) orders 10^6 problems
   in O(n) (qsort took most of a call's overhead), stable within a class.
   A batch too small to share runs on one thread in its own order. */
enum { NCLASS = 64 };

static int cost_class(double c)
{
    int e = 0;
    (void)frexp(c + 1.0, &e); /* c + 1 in [2^(e-1), 2^e) */
    return e < 0 ? 0 : e >= NCLASS ? NCLASS - 1 : e;
}

static void run_variable(bb_batch *b, bb_cpu_kernel k)
{
    unsigned char *cls = bb_malloc((size_t)b->count);
    int64_t *ord = bb_malloc((size_t)b->count * sizeof *ord);
    double total = 0;
    if (cls && ord) {
        for (int64_t i = 0; i < b->count; i++) {
            bb_problem p;
            bb_group_problem(b, i, &p);
            const double c = b->pinfo[i] ? 0.0 : problem_cost(b, &p);
            total += c;
            cls[i] = (unsigned char)cost_class(c);
        }
    }
    const int par = b->count > 1 && total >= BB_CPU_PARALLEL_MIN_FLOPS;
    if (par) { /* counting sort on key = NCLASS - 1 - class: largest first */
        int64_t pos[NCLASS] = {0}, at = 0;
        for (int64_t i = 0; i < b->count; i++) pos[NCLASS - 1 - cls[i]]++;
        for (int c = 0; c < NCLASS; c++) {
            const int64_t n = pos[c];
            pos[c] = at;
            at += n;
        }
        for (int64_t i = 0; i < b->count; i++) ord[pos[NCLASS - 1 - cls[i]]++] = i;
    }
    const int sorted = par && cls && ord;
    free(cls);
#pragma omp parallel if (par)
    {
        bb_work w = {NULL, 0};
#pragma omp for schedule(dynamic, 8)
        for (int64_t j = 0; j < b->count; j++) {
            int64_t i = sorted ? ord[j] : j;
            if (b->pinfo[i]) continue;
            bb_problem p;
            bb_group_problem(b, i, &p);
            bb_problem_data(b, i, &p);
            b->pinfo[i] = k(&p, &w);
        }
        free(w.p);
    }
    free(ord);
}

/* The direct kernel for group parameters gp, or none (cpu.h). */
static bb_cpu_direct direct_for(const bb_batch *b, const bb_problem *gp)
{
    if (b->prec == BB_P_S) return bb_s_cpu_direct(b->op, gp);
    if (b->prec == BB_P_D) return bb_d_cpu_direct(b->op, gp);
    bb_cpu_direct none = {NULL, NULL};
    return none;
}

static pthread_once_t across_once = PTHREAD_ONCE_INIT;
static int across_on = 1;
static void read_across(void)
{
    const char *v = getenv("BATCHBLAS_CPU_ACROSS");
    if (v && !strcmp(v, "0")) across_on = 0;
}

int bb_cpu_across_on(void)
{
    pthread_once(&across_once, read_across);
    return across_on;
}

static pthread_once_t isa_once = PTHREAD_ONCE_INIT;
static int isa = BB_CPU_ISA_BASE;
static void read_isa(void)
{
#if BB_CPU_X86
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) isa = BB_CPU_ISA_AVX2;
    if (__builtin_cpu_supports("avx512f") && isa == BB_CPU_ISA_AVX2) isa = BB_CPU_ISA_AVX512;
#endif
    const char *v = getenv("BATCHBLAS_CPU_ISA"); /* only lowers it */
    const int want = !v ? isa : !strcmp(v, "base") ? BB_CPU_ISA_BASE : !strcmp(v, "avx2") ? BB_CPU_ISA_AVX2 : isa;
    if (want < isa) isa = want;
}

int bb_cpu_isa(void)
{
    pthread_once(&isa_once, read_isa);
    return isa;
}

/* The across-problems kernel for group parameters gp, or none (cpu.h). */
static bb_cpu_across across_for(const bb_batch *b, const bb_problem *gp)
{
    if (!bb_cpu_across_on()) {
        bb_cpu_across none = {NULL};
        return none;
    }
    switch (b->prec) {
    case BB_P_S: return bb_s_cpu_across(b->op, gp);
    case BB_P_D: return bb_d_cpu_across(b->op, gp);
    case BB_P_C: return bb_c_cpu_across(b->op, gp);
    case BB_P_Z: return bb_z_cpu_across(b->op, gp);
    }
    bb_cpu_across none = {NULL};
    return none;
}

/* Problems a thread hands to an across-problems kernel at a time (several
   vectors' worth: the kernel's scratch is reused within the block). */
enum { ACROSS_BLOCK = 64 };

/* Blocks are handed out dynamically in contiguous chunks of about
   BB_CPU_CHUNK_COST of work (problem_cost; a long run of neighbouring
   problems, which the hardware prefetcher follows), at most an eighth of a
   thread's even share: a thread that loses its core for a while (a shared
   machine, another process's threads) does not hold the whole call up.
   The loop of one OpenBLAS call per problem ran up to 7% faster with
   schedule(dynamic) than with schedule(static) at n = 64..256 on a loaded
   2-core machine; chunks of one problem cost up to 8% at n = 64 (own
   getrf, single), chunks of an eighth of the share up to 5% at n = 256.
   Tiny problems share cache lines across threads only at chunk ends. */
static const double BB_CPU_CHUNK_COST = 2e6;
enum { BB_CPU_CHUNKS = 8 };

static int64_t chunk_blocks(double block_cost, int64_t nblk)
{
    int nt = 1;
#ifdef _OPENMP
    nt = omp_get_num_threads();
#endif
    const int64_t share = (nblk + nt - 1) / nt, most = (share + BB_CPU_CHUNKS - 1) / BB_CPU_CHUNKS;
    const double want = block_cost > 0 ? BB_CPU_CHUNK_COST / block_cost : (double)most;
    const int64_t c = want >= (double)most ? most : (int64_t)want;
    return c < 1 ? 1 : c;
}

static void run_groups(bb_batch *b, bb_cpu_kernel k)
{
#pragma omp parallel if (parallel_pays(b))
    {
        bb_work w = {NULL, 0};
        for (int64_t g = 0; g < b->ngroups; g++) {
            int64_t first = bb_group_first(b, g), last = bb_group_first(b, g + 1);
            if (first == last) continue;
            bb_problem gp;
            bb_group_problem(b, g, &gp);
            /* per problem only the pointers change (kernels do not modify
               the problem); a direct kernel takes just those (one
               worksharing loop either way: every thread meets it) */
            bb_cpu_direct dk = direct_for(b, &gp);
            bb_views v;
            bb_problem_views(b, &gp, &v);
            bb_problem p = gp;
            /* an across-problems kernel takes blocks of ACROSS_BLOCK (several
               problems at once inside); else blocks of one */
            bb_cpu_across ak = across_for(b, &gp);
            const int64_t bs = ak.run ? ACROSS_BLOCK : 1;
            const int64_t nblk = (last - first + bs - 1) / bs;
            const int64_t chunk = chunk_blocks(problem_cost(b, &gp) * (double)bs, nblk);
#pragma omp for schedule(dynamic, chunk) nowait
            for (int64_t blk = 0; blk < nblk; blk++) {
                const int64_t i0 = first + blk * bs, i1 = last - i0 < bs ? last : i0 + bs;
                if (ak.run && ak.run(&gp, &v, i0, i1 - i0, b->pinfo, &w) == 0) continue;
                for (int64_t i = i0; i < i1; i++) { /* one at a time (also when the block's scratch failed) */
                    if (b->pinfo[i]) continue;
                    if (dk.run) {
                        dk.run(dk.kernel, bb_view_ptr(&v.a, i), bb_view_ptr(&v.b, i), bb_view_ptr(&v.c, i));
                        continue;
                    }
                    bb_problem_at(&v, i, &p);
                    b->pinfo[i] = k(&p, &w);
                }
            }
        }
        free(w.p);
    }
}

static void cpu_run(bb_batch *b)
{
    bb_cpu_kernel k = kernel_for(b);
    if (!k) return; /* cannot happen: the generated API has no such routine */
    bb_cpu_blas_single_thread();
    if (b->form == BB_FORM_VAR && b->count > 1)
        run_variable(b, k);
    else
        run_groups(b, k);
}

const bb_backend bb_cpu_backend = {"cpu", cpu_probe, cpu_supports, cpu_run, NULL, NULL, NULL, NULL,
                                  NULL, NULL, NULL, NULL, NULL, NULL, NULL};
