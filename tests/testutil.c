#include <math.h>
#include <float.h>
#include <time.h>
#include "testutil.h"

static _Thread_local uint64_t state = 0x9E3779B97F4A7C15ull;

void tu_seed(uint64_t seed) { state = seed * 0x9E3779B97F4A7C15ull + 1; }

static uint64_t next(void)
{
    /* splitmix64 */
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double tu_rand(void) { return (double)(next() >> 11) * (2.0 / 9007199254740992.0) - 1.0; }

int tu_rand_int(int lo, int hi) { return lo + (int)(next() % (uint64_t)(hi - lo + 1)); }

double tu_eps(int prec) { return (prec == 0 || prec == 2) ? FLT_EPSILON : DBL_EPSILON; }

int tu_nrhs_cycle(int n, int v)
{
    switch (v % 5) {
    case 0: return 1;
    case 1: return 3;
    case 2: return n;
    case 3: return n / 2 + 5;
    default: return n + 7;
    }
}

double tu_ratio(double err, double scale, double n, int prec)
{
    if (!(scale > 0)) scale = 1.0;
    if (n < 1) n = 1;
    return err / (scale * n * tu_eps(prec));
}

int tu_accept(double ratio) { return isfinite(ratio) && ratio < TU_THRESHOLD; }

double tu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}
