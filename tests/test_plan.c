/*
 * The split planner (src/common/plan.h), without hardware: shares in
 * proportion to the rates, cost-balanced variable and group batches, every
 * problem in exactly one share, empty shares, more participants than
 * problems, rates of zero; and the device-set calls' argument checks
 * (batchblas_set_devices / batchblas_get_devices) on whatever backend is
 * present.  The planner is compiled into this program (its functions are
 * internal to the library).  Exit 0: passed; 1: failed.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <batchblas.h>
#include "plan.h"

static int fails = 0;
#define BAD(...) do { fprintf(stderr, "test_plan:%d: ", __LINE__); fprintf(stderr, __VA_ARGS__); \
                      fputc('\n', stderr); fails++; } while (0)

/* bounds are a partition of [0, count) */
static int partition(const int64_t *bd, int n, int64_t count, const char *what)
{
    if (bd[0] != 0 || bd[n] != count) {
        BAD("%s: bounds [%lld .. %lld], count %lld", what, (long long)bd[0], (long long)bd[n], (long long)count);
        return 0;
    }
    for (int p = 0; p < n; p++)
        if (bd[p + 1] < bd[p]) {
            BAD("%s: share %d is [%lld, %lld)", what, p, (long long)bd[p], (long long)bd[p + 1]);
            return 0;
        }
    return 1;
}

static double range_cost(const double *c, int64_t lo, int64_t hi)
{
    double s = 0;
    for (int64_t i = lo; i < hi; i++) s += c[i];
    return s;
}

static void uniform_cases(void)
{
    int64_t bd[BB_PLAN_MAX_PARTS + 1];
    /* equal rates: shares differ by at most one problem */
    const int64_t counts[] = {0, 1, 2, 3, 7, 100, 1001, 1000000, (int64_t)3e9};
    for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++)
        for (int n = 1; n <= 9; n++) {
            double r[9];
            for (int p = 0; p < n; p++) r[p] = 1;
            if (bb_plan_uniform(counts[ci], n, r, bd)) { BAD("uniform %lld/%d refused", (long long)counts[ci], n); continue; }
            if (!partition(bd, n, counts[ci], "uniform")) continue;
            int64_t mn = INT64_MAX, mx = 0;
            for (int p = 0; p < n; p++) {
                int64_t s = bd[p + 1] - bd[p];
                if (s < mn) mn = s;
                if (s > mx) mx = s;
            }
            if (mx - mn > 1) BAD("uniform %lld over %d equal: shares from %lld to %lld", (long long)counts[ci], n,
                                 (long long)mn, (long long)mx);
        }
    /* proportional: rates 1:2:3:4 over 1000 problems -> 100, 200, 300, 400 */
    {
        double r[4] = {1, 2, 3, 4};
        if (bb_plan_uniform(1000, 4, r, bd) || !partition(bd, 4, 1000, "1:2:3:4")) BAD("1:2:3:4");
        else
            for (int p = 0; p < 4; p++)
                if (bd[p + 1] - bd[p] != 100 * (p + 1)) BAD("1:2:3:4: share %d has %lld", p, (long long)(bd[p + 1] - bd[p]));
    }
    /* any rates: each share within one problem of its ideal */
    {
        double r[5] = {132, 114, 0.5, 66, 132}; /* multiprocessor counts, say */
        double rs = 0;
        for (int p = 0; p < 5; p++) rs += r[p];
        int64_t count = 12345;
        if (bb_plan_uniform(count, 5, r, bd) || !partition(bd, 5, count, "sm rates")) BAD("sm rates");
        else {
            double cum = 0;
            for (int p = 0; p < 5; p++) {
                cum += r[p];
                double ideal = count * cum / rs;
                if (fabs((double)bd[p + 1] - ideal) > 0.5 + 1e-9)
                    BAD("sm rates: boundary %d at %lld, ideal %.2f", p + 1, (long long)bd[p + 1], ideal);
            }
        }
    }
    /* rates of zero take nothing; all zero (or negative, NaN): equal shares */
    {
        double r[5] = {0, 1, 0, 1, 0};
        if (bb_plan_uniform(10, 5, r, bd) || !partition(bd, 5, 10, "zero rates")) BAD("zero rates");
        else if (bd[1] != 0 || bd[2] != 5 || bd[3] != 5 || bd[4] != 10 || bd[5] != 10)
            BAD("zero rates: %lld %lld %lld %lld %lld %lld", (long long)bd[0], (long long)bd[1], (long long)bd[2],
                (long long)bd[3], (long long)bd[4], (long long)bd[5]);
        double z[3] = {0, -1, NAN};
        if (bb_plan_uniform(9, 3, z, bd) || !partition(bd, 3, 9, "all zero")) BAD("all zero");
        else if (bd[1] != 3 || bd[2] != 6) BAD("all zero: %lld %lld", (long long)bd[1], (long long)bd[2]);
        double one[1] = {0};
        if (bb_plan_uniform(5, 1, one, bd) || bd[0] != 0 || bd[1] != 5) BAD("one participant of rate 0");
    }
    /* more participants than problems: every problem once, the rest empty */
    {
        double r[BB_PLAN_MAX_PARTS];
        for (int p = 0; p < BB_PLAN_MAX_PARTS; p++) r[p] = 1;
        for (int64_t count = 0; count < 10; count++) {
            if (bb_plan_uniform(count, BB_PLAN_MAX_PARTS, r, bd) || !partition(bd, BB_PLAN_MAX_PARTS, count, "many"))
                BAD("more parts than problems, count %lld", (long long)count);
            for (int p = 0; p < BB_PLAN_MAX_PARTS; p++)
                if (bd[p + 1] - bd[p] > 1) BAD("count %lld: share %d has %lld", (long long)count, p, (long long)(bd[p + 1] - bd[p]));
        }
    }
    /* refused inputs leave bounds alone */
    {
        double r[2] = {1, 1};
        bd[0] = 77;
        if (bb_plan_uniform(-1, 2, r, bd) != -1 || bb_plan_uniform(5, 0, r, bd) != -1 ||
            bb_plan_uniform(5, BB_PLAN_MAX_PARTS + 1, r, bd) != -1 || bb_plan_uniform(5, 2, NULL, bd) != -1 ||
            bb_plan_costs(5, NULL, 2, r, bd) != -1 || bd[0] != 77)
            BAD("bad planner arguments accepted");
    }
}

static uint64_t rng = 88172645463325252ull;
static double urand(void)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

static void cost_cases(void)
{
    int64_t bd[BB_PLAN_MAX_PARTS + 1];
    enum { N = 20000 };
    static double c[N];
    /* a variable batch: costs n^3 for n in 1..64, plus skipped problems (0) */
    double maxc = 0, total = 0;
    for (int i = 0; i < N; i++) {
        int n = 1 + (int)(urand() * 64);
        c[i] = urand() < 0.05 ? 0 : (double)n * n * n;
        if (c[i] > maxc) maxc = c[i];
        total += c[i];
    }
    /* sorted the worst way: all big problems last (a count split would give
       the last share most of the cost) */
    for (int i = 0; i < N / 2; i++) c[N - 1 - i] = c[i] > c[N - 1 - i] ? c[i] : c[N - 1 - i], c[i] = c[i] / 8;
    total = 0;
    for (int i = 0; i < N; i++) total += c[i];
    for (int n = 1; n <= 8; n++) {
        double r[8];
        double rs = 0;
        for (int p = 0; p < n; p++) rs += (r[p] = 1 + p % 3);
        if (bb_plan_costs(N, c, n, r, bd) || !partition(bd, n, N, "costs")) { BAD("costs over %d", n); continue; }
        for (int p = 0; p < n; p++) {
            double share = range_cost(c, bd[p], bd[p + 1]);
            double ideal = total * r[p] / rs;
            /* each boundary is within half a problem of its ideal point */
            if (fabs(share - ideal) > maxc + 1e-6 * total)
                BAD("costs over %d: share %d costs %.6g, ideal %.6g (max problem %.3g)", n, p, share, ideal, maxc);
        }
        if (n == 2) { /* and not a count split */
            int64_t half = N / 2;
            if (bd[1] - half < N / 10 && half - bd[1] < N / 10)
                BAD("costs over 2: split at %lld, close to the count split", (long long)bd[1]);
        }
    }
    /* every cost zero: split by count */
    {
        static double z[100];
        double r[4] = {1, 1, 1, 1};
        if (bb_plan_costs(100, z, 4, r, bd) || !partition(bd, 4, 100, "zero costs") || bd[1] != 25 || bd[2] != 50)
            BAD("zero costs");
    }
    /* one expensive problem among cheap ones: it goes to one share, whole */
    {
        static double e[101];
        for (int i = 0; i < 101; i++) e[i] = 1;
        e[50] = 1e6;
        double r[2] = {1, 1};
        if (bb_plan_costs(101, e, 2, r, bd) || !partition(bd, 2, 101, "one big")) BAD("one big");
        else if (bd[1] != 50 && bd[1] != 51) BAD("one big: split at %lld", (long long)bd[1]);
    }
}

static void run_cases(void)
{
    int64_t bd[BB_PLAN_MAX_PARTS + 1];
    /* groups: runs of equal cost; the same plan as the per-problem costs */
    enum { G = 50 };
    int64_t len[G];
    double cost[G];
    int64_t count = 0;
    for (int g = 0; g < G; g++) {
        len[g] = (g % 7 == 3) ? 0 : 1 + (int64_t)(urand() * 500);
        cost[g] = (g % 11 == 5) ? 0 : 1 + (double)(g % 9) * 37.5;
        count += len[g];
    }
    double *flat = malloc((size_t)count * sizeof *flat);
    int64_t at = 0;
    for (int g = 0; g < G; g++)
        for (int64_t k = 0; k < len[g]; k++) flat[at++] = cost[g];
    for (int n = 1; n <= 12; n++) {
        double r[12];
        for (int p = 0; p < n; p++) r[p] = (p % 4 == 2) ? 0 : 1 + p;
        int64_t bf[13];
        if (bb_plan_runs(G, len, cost, n, r, bd) || !partition(bd, n, count, "runs")) { BAD("runs over %d", n); continue; }
        if (bb_plan_costs(count, flat, n, r, bf)) { BAD("flat over %d", n); continue; }
        for (int p = 0; p <= n; p++)
            if (bd[p] != bf[p]) BAD("runs over %d: boundary %d at %lld, per problem at %lld", n, p, (long long)bd[p], (long long)bf[p]);
        for (int p = 0; p < n; p++)
            if (r[p] == 0 && bd[p + 1] != bd[p]) BAD("runs over %d: share %d of rate 0 not empty", n, p);
    }
    free(flat);
    double r1[3] = {1, 1, 1};
    if (bb_plan_runs(0, NULL, NULL, 3, r1, bd) || bd[0] || bd[1] || bd[2] || bd[3]) BAD("no runs");
    int64_t neg[2] = {3, -1};
    double cc[2] = {1, 1};
    if (bb_plan_runs(2, neg, cc, 3, r1, bd) != -1) BAD("negative run length accepted");
}

static void device_api(void)
{
    int ids[8];
    int before = batchblas_get_devices(8, ids);
    if (before < 0) BAD("get_devices: %d", before);
    if (batchblas_set_devices(-1, ids) != BblasErrInvalid) BAD("negative count accepted");
    if (batchblas_set_devices(65, ids) != BblasErrInvalid) BAD("65 devices accepted");
    if (batchblas_set_devices(2, NULL) != BblasErrInvalid) BAD("NULL ids accepted");
    int bad[2] = {0, -3};
    if (batchblas_set_devices(2, bad) != BblasErrInvalid) BAD("negative id accepted");
    if (batchblas_get_devices(-1, ids) != BblasErrInvalid) BAD("get_devices(-1) accepted");
    if (batchblas_get_devices(1, NULL) != BblasErrInvalid) BAD("get_devices(1, NULL) accepted");
    if (batchblas_get_devices(8, ids) != before) BAD("a refused call changed the list");
    int two[2] = {0, 0};
    int rc = batchblas_set_devices(2, two);
    if (rc != BblasSuccess) BAD("set_devices(2, {0, 0}): %d", rc);
    int got[4] = {-1, -1, -1, -1};
    if (batchblas_get_devices(4, got) != 2 || got[0] != 0 || got[1] != 0 || got[2] != -1)
        BAD("get_devices after {0, 0}: %d %d %d", got[0], got[1], got[2]);
    if (batchblas_get_devices(1, got) != 2) BAD("get_devices(1): not the full length");
    if (batchblas_get_devices(0, NULL) != 2) BAD("get_devices(0, NULL)");
    if (batchblas_set_devices(0, NULL) != BblasSuccess) BAD("set_devices(0) refused");
    /* the default (a list from BATCHBLAS_DEVICES is not it) */
    int dflt = batchblas_get_devices(8, ids);
    if (!getenv("BATCHBLAS_DEVICES") && dflt != before) BAD("count 0 did not restore the default");
    for (int k = 0; k < dflt && k < 8; k++)
        if (ids[k] != k) BAD("default list: entry %d is %d", k, ids[k]);
}

int main(void)
{
    uniform_cases();
    cost_cases();
    run_cases();
    device_api();
    if (fails) {
        fprintf(stderr, "test_plan: %d failure(s)\n", fails);
        return 1;
    }
    printf("test_plan: passed\n");
    return 0;
}
