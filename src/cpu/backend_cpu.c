/*
 * The CPU backend driver: OpenMP over the problems, one kernel call per
 * problem, BLAS single-threaded inside.
 *   - one parameter set (fixed, strided) or few groups: each group's problems
 *     split into contiguous blocks, one per thread (static schedule), so
 *     neighbouring tiny matrices never share cache lines across cores;
 *   - variable sizes (one parameter set per problem): largest problems first,
 *     dynamic schedule, so all threads finish together.
 */
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
    void *q = realloc(w->p, bytes);
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

typedef struct {
    double cost;
    int64_t i;
} order_t;

static int by_cost_desc(const void *x, const void *y)
{
    const order_t *a = x, *b = y;
    if (a->cost != b->cost) return a->cost < b->cost ? 1 : -1;
    return a->i < b->i ? -1 : a->i > b->i;
}

/* Opening a parallel region costs microseconds (more on a busy machine,
   where libgomp's waiting threads spin): small batches run on one thread. */
static const double BB_CPU_PARALLEL_MIN_FLOPS = 2e5;

static int parallel_pays(const bb_batch *b)
{
    if (b->count < 2) return 0;
    bb_problem p;
    bb_group_problem(b, 0, &p);
    double per = bb_problem_flops(b, &p) + (double)p.m * p.n + (double)p.n * p.k + p.n;
    return per * (double)b->count >= BB_CPU_PARALLEL_MIN_FLOPS;
}

static void run_variable(bb_batch *b, bb_cpu_kernel k)
{
    order_t *ord = malloc((size_t)b->count * sizeof *ord);
    if (ord) {
        for (int64_t i = 0; i < b->count; i++) {
            bb_problem p;
            bb_group_problem(b, i, &p);
            ord[i].cost = bb_problem_flops(b, &p) + (double)p.m + p.n + p.k;
            ord[i].i = i;
        }
        qsort(ord, (size_t)b->count, sizeof *ord, by_cost_desc);
    }
#pragma omp parallel if (parallel_pays(b))
    {
        bb_work w = {NULL, 0};
#pragma omp for schedule(dynamic, 8)
        for (int64_t j = 0; j < b->count; j++) {
            int64_t i = ord ? ord[j].i : j;
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
#pragma omp for schedule(static) nowait
            for (int64_t i = first; i < last; i++) {
                if (b->pinfo[i]) continue;
                bb_problem p = gp;
                bb_problem_data(b, i, &p);
                b->pinfo[i] = k(&p, &w);
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
                                  NULL, NULL};
