/*
 * The cost model (cost.c): how long a host-data batch takes on the CPU
 * cores and on one GPU's staging path, from the batch's bytes, flops and
 * problem count and from constants measured by tools/calibrate.sh
 * (doc/performance.md, "Calibration").  dispatch.c picks the side (or both)
 * with it, spread.c sizes the CPU's share with it.
 */
#ifndef BB_COST_H
#define BB_COST_H

#include <stdint.h>
#include "batch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a batch moves and computes (problems skipped for argument errors
   left out; large variable batches sampled). */
typedef struct {
    double bytes;     /* every operand read once, written operands twice */
    double flops;     /* LAPACK working-note counts (complex: real flops) */
    double problems;  /* problems that run */
    double direct;    /* of bytes, those in page-locked memory (bb_cost_direct; 0 from bb_cost_work) */
} bb_work;

BB_INTERNAL void bb_cost_work(const bb_batch *b, bb_work *w);

/* w->direct after bb_cost_work: the bytes of the fixed-size batch's compact
   strided operands that lie in page-locked memory (pinned(first byte) and
   pinned(last byte)), which the GPU's staging path copies without the host
   copy; pinned NULL, or the variable and group forms: 0. */
BB_INTERNAL void bb_cost_direct(const bb_batch *b, bb_work *w, int (*pinned)(const void *p));

/* Seconds on `cores` CPU cores (the CPU backend, OpenMP over problems). */
BB_INTERNAL double bb_cost_cpu(const bb_batch *b, const bb_work *w, int cores);

/* Seconds of host data through one GPU's staging path with `threads` host
   copy threads (0: the plugin's default): link and host copies, kernels,
   the call's fixed cost. */
BB_INTERNAL double bb_cost_gpu(const bb_batch *b, const bb_work *w, int threads);

/* Seconds of the CPU (cpu_cores) and one GPU (staging with `threads` copy
   threads) together, the CPU's share balancing the two; the host memory
   both draw on bounds it.  *cpu_share (if not NULL): that share. */
BB_INTERNAL double bb_cost_both(const bb_batch *b, const bb_work *w, int cpu_cores, int threads,
                                double *cpu_share);

/* The staging path's default copy threads on this host (the plugin's rule:
   min(16, cores)). */
BB_INTERNAL int bb_cost_stage_threads(int cores);

#ifdef __cplusplus
}
#endif
#endif
