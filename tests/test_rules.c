/*
 * The argument checks as rules (src/common/check.c): a variable batch whose
 * options are all the same is checked by evaluating the size rules over the
 * parameter arrays (bb_check_var_sizes, the device-data path of front.c);
 * this must give every problem the code that the group check
 * (bb_check_group) gives it, for every operation, layout and option set
 * (invalid ones included), on random sizes and leading dimensions around
 * their limits; and the largest sizes it reports must be those of the
 * problems that pass.  bb_uniform_options is checked on equal and unequal
 * arrays, whole and in ranges (bb_uniform_range).  The check sources
 * are compiled into this program (their functions are internal to the
 * library).  Exit 0: passed; 1: failed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "batch.h"

static int fails = 0;
#define BAD(...) do { fprintf(stderr, "test_rules:%d: ", __LINE__); fprintf(stderr, __VA_ARGS__); \
                      fputc('\n', stderr); fails++; } while (0)

static uint64_t rng = 88172645463325252ull;
static int rnd(int lo, int hi) /* uniform in [lo, hi] */
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return lo + (int)(rng % (uint64_t)(hi - lo + 1));
}

/* a valid value of option slot s, or now and then an invalid one */
static int option(int s)
{
    if (rnd(0, 7) == 0) return 77;
    switch (s) {
    case BB_SIDE: return rnd(0, 1) ? BblasLeft : BblasRight;
    case BB_UPLO: return rnd(0, 1) ? BblasUpper : BblasLower;
    case BB_TRANS: case BB_TRANSB: {
        const int t[] = {BblasNoTrans, BblasTrans, BblasConjTrans};
        return t[rnd(0, 2)];
    }
    case BB_DIAG: return rnd(0, 1) ? BblasNonUnit : BblasUnit;
    default: {
        const int t[] = {BblasOneNorm, BblasInfNorm, BblasMaxNorm, BblasFrobeniusNorm};
        return t[rnd(0, 3)];
    }
    }
}

int main(void)
{
    enum { N = 3000 };
    static int par[BB_NPAR][N], pinfo[N];
    unsigned char pos[BB_NARG];
    /* every argument present, at made-up positions (the order of the
       positions decides which failure is reported) */
    for (int s = 0; s < BB_NARG; s++) pos[s] = (unsigned char)(1 + (s * 7) % BB_NARG);
    const bb_prec precs[] = {BB_P_S, BB_P_D, BB_P_C, BB_P_Z};
    int64_t checked = 0;
    for (int op = 0; op < BB_NOPS; op++)
        for (int lay = 0; lay < 2; lay++)
            for (int rep = 0; rep < 12; rep++) {
                bb_batch b;
                memset(&b, 0, sizeof b);
                b.op = (bb_op)op;
                b.prec = precs[rep % 4];
                b.form = BB_FORM_VAR;
                b.name = "test_rules";
                b.pos = pos;
                b.layout = lay ? BblasRowMajor : BblasColMajor;
                b.count = b.ngroups = N;
                b.pinc = 1;
                b.pinfo = pinfo;
                for (int s = 0; s < BB_NPAR; s++) b.par[s] = par[s];
                for (int s = BB_SIDE; s <= BB_NORM; s++) {
                    const int v = option(s);
                    for (int i = 0; i < N; i++) par[s][i] = v;
                }
                /* sizes in [-2, 40] (mostly valid), lds around them */
                for (int i = 0; i < N; i++) {
                    for (int s = BB_M; s <= BB_NRHS; s++) par[s][i] = rnd(0, 30) ? rnd(0, 40) : rnd(-2, -1);
                    for (int s = BB_LDA; s <= BB_LDC; s++) par[s][i] = rnd(0, 6) ? rnd(1, 42) : rnd(-1, 1);
                }
                if (!bb_uniform_options(&b, 1, 0)) BAD("op %d: equal options seen as different", op);
                bb_rules r;
                bb_check_rules(&b, 0, &r);
                memset(pinfo, 0, sizeof pinfo);
                int vmax[BB_NPAR];
                for (int s = 0; s < BB_NPAR; s++) vmax[s] = -1;
                /* in two uneven halves, as the threads of front.c take chunks */
                int64_t bad = bb_check_var_sizes(&b, &r, 0, 1234, vmax);
                bad += bb_check_var_sizes(&b, &r, 1234, N, vmax);
                int64_t want_bad = 0;
                int want_max[BB_NPAR];
                for (int s = 0; s < BB_NPAR; s++) want_max[s] = -1;
                for (int i = 0; i < N; i++) {
                    const int c = bb_check_group(&b, i);
                    want_bad += c != 0;
                    if (c != pinfo[i]) {
                        BAD("op %d layout %d rep %d problem %d: rules %d, group check %d", op, lay, rep, i, pinfo[i], c);
                        break;
                    }
                    if (c) continue;
                    for (int q = 0; q < r.nrule; q++)
                        if (r.rule[q].dim < 0 && par[r.rule[q].slot][i] > want_max[r.rule[q].slot])
                            want_max[r.rule[q].slot] = par[r.rule[q].slot][i];
                }
                if (bad != want_bad) BAD("op %d: %lld bad problems, want %lld", op, (long long)bad, (long long)want_bad);
                for (int s = 0; s < BB_NPAR; s++)
                    if (vmax[s] != want_max[s]) BAD("op %d slot %d: largest %d, want %d", op, s, vmax[s], want_max[s]);
                checked += N;
            }
    /* bb_uniform_options: one differing option or scalar anywhere */
    {
        bb_batch b;
        memset(&b, 0, sizeof b);
        b.op = BB_OP_TRSM;
        b.prec = BB_P_Z;
        b.count = b.ngroups = N;
        b.pinc = 1;
        for (int s = 0; s < BB_NPAR; s++) b.par[s] = par[s];
        static double alpha[2 * N];
        for (int i = 0; i < 2 * N; i++) alpha[i] = i % 2 ? -1.5 : 0.25;
        b.alpha = alpha;
        for (int s = BB_SIDE; s <= BB_NORM; s++)
            for (int i = 0; i < N; i++) par[s][i] = 3;
        if (!bb_uniform_options(&b, 1, 1)) BAD("equal options and scalars seen as different");
        for (int at = 0; at < N; at += 997) {
            par[BB_DIAG][at] = 4;
            if (bb_uniform_options(&b, 1, 1)) BAD("diag differs at %d, not seen", at);
            if (!bb_uniform_options(&b, 0, 1)) BAD("options not asked for, yet compared");
            if (at > 0 && bb_uniform_range(&b, at, N, 1, 0)) BAD("range from %d: differing diag not seen", at);
            if (at > 1 && !bb_uniform_range(&b, 1, at, 1, 1)) BAD("range [1, %d) has no difference, yet seen", at);
            par[BB_DIAG][at] = 3;
            alpha[2 * at + 1] = 2;
            if (bb_uniform_options(&b, 1, 1)) BAD("alpha differs at %d, not seen", at);
            if (!bb_uniform_options(&b, 1, 0)) BAD("scalars not asked for, yet compared");
            alpha[2 * at + 1] = -1.5;
        }
    }
    if (fails) {
        fprintf(stderr, "test_rules: %d failure(s)\n", fails);
        return 1;
    }
    printf("test_rules: %lld problems, rules and group checks agree\n", (long long)checked);
    return 0;
}
