/*
 * The split planner: how one batch is cut into shares, one per participant
 * (a GPU, a repeated GPU, or the CPU).  Pure functions: inputs in, a plan
 * out, no allocation, no global state, no device calls; unit-tested without
 * hardware (tests/test_plan.c).  The executor is spread.c.
 *
 * A plan is bounds[0..nparts]: participant p takes the contiguous problems
 * [bounds[p], bounds[p+1]).  bounds[0] == 0, bounds[nparts] == count and the
 * bounds never decrease, so every problem is in exactly one share; a share
 * may be empty.  Each participant's total cost is as close to
 * total * rate[p] / sum(rates) as whole problems allow (every boundary is the
 * problem boundary nearest to its ideal cumulative cost).  A rate that is
 * zero, negative or not finite takes nothing; if no rate is positive the
 * rates are taken as equal.  A cost that is negative or not finite counts as
 * zero; problems of zero cost (skipped ones) go to the later share at a
 * boundary.
 */
#ifndef BB_PLAN_H
#define BB_PLAN_H

#include <stdint.h>
#include "batch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* More participants than this are refused (-1). */
#define BB_PLAN_MAX_PARTS 64

/* count problems of equal cost (a fixed or strided batch). */
BB_INTERNAL int bb_plan_uniform(int64_t count, int nparts, const double *rates, int64_t *bounds);

/* count problems, problem i costing cost[i] (a variable batch). */
BB_INTERNAL int bb_plan_costs(int64_t count, const double *cost, int nparts, const double *rates,
                              int64_t *bounds);

/* nruns runs of problems, run r being len[r] problems of cost cost[r] each
   (a group batch: a run per group); count = the sum of len. */
BB_INTERNAL int bb_plan_runs(int64_t nruns, const int64_t *len, const double *cost, int nparts,
                             const double *rates, int64_t *bounds);

/* All three return 0, or -1 (bounds untouched) for nparts outside
   [1, BB_PLAN_MAX_PARTS], a negative count or length, or a NULL array. */

/* The cost of one problem of parameters p (normalised, bb_group_problem) for
   the split of a host-data batch: the bytes it moves (operands read, and
   written back) plus its flops times bytes_per_flop (the ratio of the
   link's rate to the device's arithmetic rate, dispatch.c). */
BB_INTERNAL double bb_plan_problem_cost(const bb_batch *b, const bb_problem *p, double bytes_per_flop);

#ifdef __cplusplus
}
#endif
#endif
