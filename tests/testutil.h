/*
 * Test and benchmark helpers shared by every suite and by batchblas-bench.
 * Precision-independent part; tests/tu_prec.h adds typed helpers inside the
 * per-precision compile units.
 */
#ifndef BB_TESTUTIL_H
#define BB_TESTUTIL_H

#include <stdint.h>
#include <stddef.h>

/* Deterministic random numbers: uniform in [-1, 1). Thread-local state. */
void tu_seed(uint64_t seed);
double tu_rand(void);
int tu_rand_int(int lo, int hi); /* uniform in [lo, hi] */

/* Unit roundoff of a precision: 0 s, 1 d, 2 c, 3 z. */
double tu_eps(int prec);

/*
 * THE acceptance rule, used by every test and by the benchmark:
 * ratio = err / (scale * max(n, 1) * eps); accepted when ratio is finite and
 * below TU_THRESHOLD.  err and scale are norms the caller computed (e.g.
 * ||A - L*L^H||_F and ||A||_F).  NaN or Inf anywhere fails.
 */
#define TU_THRESHOLD 30.0
double tu_ratio(double err, double scale, double n, int prec);
int tu_accept(double ratio);

/* The sentinel written around and between matrices to prove that nothing
   outside an output (and nothing of a skipped problem) was written. */
#define TU_SENTINEL (-77.25)

/* The right-hand-side counts the solve tests cycle through (variant v of
   order n): 1, 3, n, n/2 + 5 and n + 7, so that the register kernels'
   column blocks are met full, partly filled across their per-thread column
   groups, and followed by a second, partial block. */
int tu_nrhs_cycle(int n, int v);

/* Wall clock in seconds. */
double tu_now(void);

#endif
