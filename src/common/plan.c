/*
 * The split planner (plan.h): pure functions, compiled into the library and
 * unit-tested by tests/test_plan.c.  One walk serves the three inputs: the
 * problems are seen as runs of equal cost (one run for a uniform batch, a
 * run per group, a run of one per problem of a variable batch), and each
 * boundary is placed, inside the run that holds its ideal cumulative cost,
 * at the nearer of the two problem boundaries around it.
 */
#include <math.h>
#include "plan.h"

static double clean(double x) { return isfinite(x) && x > 0 ? x : 0.0; }

/* len == NULL: every run is one problem; cost == NULL: every problem costs 1 */
static int plan(int64_t nruns, const int64_t *len, const double *cost, int nparts, const double *rates,
                int64_t *bounds)
{
    if (nparts < 1 || nparts > BB_PLAN_MAX_PARTS || nruns < 0 || !rates || !bounds) return -1;
    int64_t count = 0;
    double total = 0;
    for (int64_t r = 0; r < nruns; r++) {
        int64_t l = len ? len[r] : 1;
        if (l < 0) return -1;
        count += l;
        total += (double)l * (cost ? clean(cost[r]) : 1.0);
    }
    /* every problem free (all skipped): split by count */
    int unit = !cost || total <= 0;
    if (unit) total = (double)count;

    double rsum = 0;
    int nact = 0, last = -1;
    for (int p = 0; p < nparts; p++)
        if (clean(rates[p]) > 0) {
            rsum += clean(rates[p]);
            nact++;
            last = p;
        }
    int equal = nact == 0; /* no positive rate: equal shares */
    if (equal) {
        rsum = nparts;
        last = nparts - 1;
    }

    /* the walk: run r starts at problem pos, after cost prefix */
    int64_t r = 0, pos = 0, prev = 0;
    double prefix = 0, cum = 0;
    bounds[0] = 0;
    for (int p = 0; p < nparts; p++) {
        double rate = equal ? 1.0 : clean(rates[p]);
        int64_t at;
        if (rate <= 0) {
            at = prev; /* takes nothing */
        } else if (p == last) {
            at = count;
        } else {
            cum += rate;
            double t = total * (cum / rsum);
            for (;;) {
                if (r >= nruns) break;
                int64_t l = len ? len[r] : 1;
                double c = unit ? 1.0 : clean(cost[r]);
                if (prefix + (double)l * c < t) { /* the whole run lies before the target */
                    prefix += (double)l * c;
                    pos += l;
                    r++;
                    continue;
                }
                break;
            }
            if (r >= nruns) {
                at = count;
            } else {
                int64_t l = len ? len[r] : 1;
                double c = unit ? 1.0 : clean(cost[r]);
                int64_t j = 0;
                if (c > 0 && t > prefix) {
                    double q = ceil((t - prefix) / c);
                    j = q < 1 ? 1 : q > (double)l ? l : (int64_t)q;
                    /* prefix + j*c >= t > prefix + (j-1)*c: the nearer one */
                    double above = prefix + (double)j * c - t, below = t - (prefix + (double)(j - 1) * c);
                    if (below < above) j--;
                }
                at = pos + j;
            }
        }
        if (at < prev) at = prev;
        if (at > count) at = count;
        bounds[p + 1] = at;
        prev = at;
    }
    bounds[nparts] = count;
    return 0;
}

int bb_plan_uniform(int64_t count, int nparts, const double *rates, int64_t *bounds)
{
    if (count < 0) return -1;
    int64_t len = count;
    double one = 1.0;
    return plan(1, &len, &one, nparts, rates, bounds);
}

int bb_plan_costs(int64_t count, const double *cost, int nparts, const double *rates, int64_t *bounds)
{
    if (count < 0 || (count > 0 && !cost)) return -1;
    return plan(count, NULL, cost, nparts, rates, bounds);
}

int bb_plan_runs(int64_t nruns, const int64_t *len, const double *cost, int nparts, const double *rates,
                 int64_t *bounds)
{
    if (nruns < 0 || (nruns > 0 && (!len || !cost))) return -1;
    return plan(nruns, len, cost, nparts, rates, bounds);
}

double bb_plan_problem_cost(const bb_batch *b, const bb_problem *p, double bytes_per_flop)
{
    size_t es = bb_prec_size(b->prec);
    double bytes = 0;
    for (int o = BB_A; o <= BB_C; o++) {
        int r, c;
        bb_operand_dims(b->op, p, o, &r, &c);
        if (r <= 0 || c <= 0) continue;
        double m = (double)r * c * (double)es;
        bytes += bb_op_writes(b->op, o) ? 2 * m : m;
    }
    return bytes + bb_problem_flops(b, p) * bytes_per_flop;
}
