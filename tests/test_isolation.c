/*
 * Isolation test (issue 10): batches of 64 members, every seventh one
 * broken (a zero column, a negative diagonal entry, NaN or +Inf on the
 * diagonal, NaN off it) at columns that cross every block bound; for potrf
 * (lower and upper), getrf and gesv, in s and d, in the strided, fixed and
 * variable forms, at n = 5, 16, 32, 33, 48, 64, 65.  Each member's info is
 * compared with reference LAPACK's (LAPACKE_?potrf / ?getrf / ?gesv called
 * on that member alone; the _work forms: no NaN scan of the input), and every member the reference factors (info 0)
 * must be bitwise equal to the same problem solved alone by the library
 * (a batch of one, same form, same backend).
 *
 * NaN members: the library reports a NaN pivot as a failure (README: "not
 * positive definite at column k; a zero or NaN pivot at column k"), as
 * reference LAPACK's ?potrf2 does for potrf; ?getf2 stops only at an exact
 * zero, and OpenBLAS's own potrf and getrf (what LAPACKE calls on Debian)
 * do not look for NaN at all.  So a NaN member's info must be > 0, and
 * equal to LAPACK's where LAPACK reports one.  An Inf in an LU can turn into
 * NaN (Inf - Inf) that LAPACK passes over; for the Inf and NaN members of
 * getrf and gesv the expected info comes from a plain-loop LU under the
 * library's rule (rule_getrf_*), independent of the library's code.
 *
 * Runs on whatever backend host-data calls take: the CPU in make check,
 * the GPU with BATCHBLAS_BACKEND=cuda.  BB_ISO_QUICK=1: n = 5, 33, 65 only.
 * A part only (the compute-sanitizer sweep of tools/gpu-check.sh runs the
 * test in parts): BB_ISO_PREC=s or d, BB_ISO_OP=a comma-separated list of
 * potrf_l, potrf_u, potrf (both), getrf, gesv.  Each batch's random data
 * comes from its own seed (precision, op, n, form, column set), so a batch
 * of a part is the same batch as in the whole run.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lapacke.h>
#include <batchblas.h>

enum { COUNT = 64, NRHS = 2, OP_POTRF_L, OP_POTRF_U, OP_GETRF, OP_GESV };
enum { F_STRIDED, F_FIXED, F_VAR, NFORMS };
static const char *form_name[] = {"strided", "fixed", "variable"};
static int failures;

static uint64_t rng = 88172645463325252ull;
static double urand(void) /* [-1, 1) */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0 * 2 - 1;
}

/* The generator's state for one batch, from what identifies the batch. */
static void seed_batch(int prec, int op, int n, int form, int rep)
{
    uint64_t z = ((((uint64_t)prec * 8 + (uint64_t)op) * 128 + (uint64_t)n) * 4 + (uint64_t)form) * 64 + (uint64_t)rep;
    z = (z + 1) * 0x9E3779B97F4A7C15ull; /* splitmix64's finaliser */
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    rng = z ? z : 88172645463325252ull;
}

/* The part to run (BB_ISO_PREC, BB_ISO_OP): 1 if precision p ('s' or 'd')
   and op are selected. */
static int selected(char p, int op)
{
    static const char *const name[] = {[OP_POTRF_L] = "potrf_l", [OP_POTRF_U] = "potrf_u", [OP_GETRF] = "getrf",
                                       [OP_GESV] = "gesv"};
    const char *ep = getenv("BB_ISO_PREC"), *eo = getenv("BB_ISO_OP");
    if (ep && *ep && strchr(ep, p) == NULL) return 0;
    if (!eo || !*eo) return 1;
    for (const char *t = eo; *t;) {
        size_t len = strcspn(t, ",");
        if ((len == strlen(name[op]) && !strncmp(t, name[op], len)) ||
            (len == 5 && !strncmp(t, "potrf", 5) && (op == OP_POTRF_L || op == OP_POTRF_U)))
            return 1;
        t += len;
        if (*t == ',') t++;
    }
    return 0;
}

/* Member data in double, column-major n x n, ld = n + 1. */
static void make_member(int op, int n, int ld, double *A, double *B)
{
    if (op == OP_POTRF_L || op == OP_POTRF_U) {
        double *M = malloc((size_t)n * n * sizeof *M);
        for (int i = 0; i < n * n; i++) M[i] = urand();
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                double s = i == j ? n : 0;
                for (int l = 0; l < n; l++) s += M[i + l * n] * M[j + l * n];
                A[i + j * ld] = s / n;
            }
        free(M);
    } else {
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) A[i + j * ld] = urand() + (i == j ? 2.0 : 0.0);
    }
    for (int i = 0; i < ld * NRHS; i++) B[i] = urand();
}

/* Breaks a member: kind 0 zero column, 1 negative diagonal, 2 NaN on the
   diagonal, 3 +Inf on the diagonal, 4 NaN off the diagonal; at column c. */
static void break_member(int op, int n, int ld, double *A, int kind, int c)
{
    const int upper = op == OP_POTRF_U;
    switch (kind) {
    case 0:
        for (int i = 0; i < n; i++) {
            A[i + c * ld] = 0;
            if (op == OP_POTRF_L || op == OP_POTRF_U) A[c + i * ld] = 0;
        }
        break;
    case 1: A[c + c * ld] = -1; break;
    case 2: A[c + c * ld] = NAN; break;
    case 3: A[c + c * ld] = INFINITY; break;
    default: {
        /* in the triangle potrf reads */
        int r = c + 1 < n ? c + 1 : c - 1, cc = c;
        if (r < 0) { A[c + c * ld] = NAN; break; }
        if ((upper && r > cc) || (!upper && r < cc)) { int t = r; r = cc; cc = t; }
        A[r + cc * ld] = NAN;
    }
    }
}

/* One precision: T, prefix p.  rule_getrf_p: plain-loop LU under the
   library's documented rule (the first NaN of the column is the pivot, else
   the first largest |a|; info = first zero or NaN pivot), for the members
   whose factorisation meets Inf or NaN. */
#define DEFINE_PREC(T, p)                                                                                     \
    static int rule_getrf_##p(int n, int ld, T *A)                                                             \
    {                                                                                                          \
        int info = 0;                                                                                          \
        for (int k = 0; k < n; k++) {                                                                          \
            int pv = -1;                                                                                       \
            for (int i = k; i < n && pv < 0; i++)                                                              \
                if (A[i + k * ld] != A[i + k * ld]) pv = i;                                                    \
            if (pv < 0) {                                                                                      \
                pv = k;                                                                                        \
                for (int i = k + 1; i < n; i++)                                                                \
                    if (fabs((double)A[i + k * ld]) > fabs((double)A[pv + k * ld])) pv = i;                    \
            }                                                                                                  \
            const T piv = A[pv + k * ld];                                                                      \
            if ((piv == 0 || piv != piv) && !info) info = k + 1;                                               \
            if (piv == 0) continue;                                                                            \
            for (int j = 0; j < n; j++) {                                                                      \
                T t = A[k + j * ld]; A[k + j * ld] = A[pv + j * ld]; A[pv + j * ld] = t;                       \
            }                                                                                                  \
            for (int i = k + 1; i < n; i++) A[i + k * ld] /= piv;                                              \
            for (int j = k + 1; j < n; j++)                                                                    \
                for (int i = k + 1; i < n; i++) A[i + j * ld] -= A[i + k * ld] * A[k + j * ld];                \
        }                                                                                                      \
        return info;                                                                                           \
    }                                                                                                          \
    /* bitwise equal, any NaN equal to any NaN (its sign and payload depend on                                 \
       the order of operations, which the batch may change) */                                                 \
    static int same_##p(const T *x, const T *y, int64_t n)                                                     \
    {                                                                                                          \
        for (int64_t i = 0; i < n; i++)                                                                        \
            if (memcmp(x + i, y + i, sizeof(T)) && !(x[i] != x[i] && y[i] != y[i])) return 0;                  \
        return 1;                                                                                              \
    }                                                                                                          \
    static int ref_##p(int op, int n, int ld, T *A, int *ipiv, T *B)                                         \
    {                                                                                                          \
        if (op == OP_POTRF_L || op == OP_POTRF_U)                                                              \
            return LAPACKE_##p##potrf_work(LAPACK_COL_MAJOR, op == OP_POTRF_L ? 'L' : 'U', n, A, ld);             \
        if (op == OP_GETRF) return LAPACKE_##p##getrf_work(LAPACK_COL_MAJOR, n, n, A, ld, ipiv);                  \
        return LAPACKE_##p##gesv_work(LAPACK_COL_MAJOR, n, NRHS, A, ld, ipiv, B, ld);                              \
    }                                                                                                          \
    /* The library on members [0, cnt) of A/B/ipiv (stride sa, sb, n). */                                     \
    static void lib_##p(int op, int form, int n, int ld, int cnt, T *A, int64_t sa, int *ipiv, T *B,           \
                        int64_t sb, int *info)                                                                 \
    {                                                                                                          \
        T **pa = malloc(cnt * sizeof *pa), **pb = malloc(cnt * sizeof *pb);                                    \
        int **pp = malloc(cnt * sizeof *pp), *vn = malloc(cnt * sizeof(int)), *vld = malloc(cnt * sizeof(int)); \
        int *vr = malloc(cnt * sizeof(int));                                                                   \
        bblas_enum_t *vu = malloc(cnt * sizeof *vu);                                                           \
        for (int i = 0; i < cnt; i++) {                                                                        \
            pa[i] = A + i * sa; pb[i] = B + i * sb; pp[i] = ipiv + (int64_t)i * n;                            \
            vn[i] = n; vld[i] = ld; vr[i] = NRHS;                                                              \
            vu[i] = op == OP_POTRF_U ? BblasUpper : BblasLower;                                                \
        }                                                                                                      \
        const bblas_enum_t up = op == OP_POTRF_U ? BblasUpper : BblasLower;                                    \
        info[0] = BblasErrorsReportAll;                                                                        \
        if (op == OP_POTRF_L || op == OP_POTRF_U) {                                                            \
            if (form == F_STRIDED) lapack_##p##potrf_batch_strided(BblasColMajor, up, n, A, ld, sa, cnt, info); \
            else if (form == F_FIXED) lapack_##p##potrf_batchf(cnt, BblasColMajor, up, n, pa, ld, info);      \
            else lapack_##p##potrf_batchv(cnt, BblasColMajor, vu, vn, pa, vld, info);                          \
        } else if (op == OP_GETRF) {                                                                           \
            if (form == F_STRIDED) lapack_##p##getrf_batch_strided(BblasColMajor, n, n, A, ld, sa, ipiv, n, cnt, info); \
            else if (form == F_FIXED) lapack_##p##getrf_batchf(cnt, BblasColMajor, n, n, pa, ld, pp, info);   \
            else lapack_##p##getrf_batchv(cnt, BblasColMajor, vn, vn, pa, vld, pp, info);                      \
        } else {                                                                                               \
            if (form == F_STRIDED)                                                                             \
                lapack_##p##gesv_batch_strided(BblasColMajor, n, NRHS, A, ld, sa, ipiv, n, B, ld, sb, cnt, info); \
            else if (form == F_FIXED) lapack_##p##gesv_batchf(cnt, BblasColMajor, n, NRHS, pa, ld, pp, pb, ld, info); \
            else lapack_##p##gesv_batchv(cnt, BblasColMajor, vn, vr, pa, vld, pp, pb, vld, info);              \
        }                                                                                                      \
        free(pa); free(pb); free(pp); free(vn); free(vld); free(vr); free(vu);                                 \
    }                                                                                                          \
    static void run_##p(int op, int n, int form, int rep, const int *cols, int ncols)                          \
    {                                                                                                          \
        const int ld = n + 1;                                                                                  \
        const int64_t sa = (int64_t)ld * n + 3, sb = (int64_t)ld * NRHS;                                       \
        double *Ad = malloc(sa * sizeof(double)), *Bd = malloc(sb * sizeof(double));                          \
        T *A = malloc(sa * COUNT * sizeof(T)), *B = malloc(sb * COUNT * sizeof(T));                            \
        T *A0 = malloc(sa * COUNT * sizeof(T)), *B0 = malloc(sb * COUNT * sizeof(T));                          \
        int *ipiv = malloc((size_t)n * COUNT * sizeof(int)), info[COUNT + 1], kinds[COUNT];                    \
        for (int i = 0; i < COUNT; i++) {                                                                      \
            for (int64_t e = 0; e < sa; e++) Ad[e] = -77.25;                                                   \
            make_member(op, n, ld, Ad, Bd);                                                                    \
            kinds[i] = -1;                                                                                     \
            if (i % 7 == 3) {                                                                                  \
                const int b = i / 7;                                                                           \
                kinds[i] = b % 5;                                                                              \
                break_member(op, n, ld, Ad, kinds[i], cols[(rep + b) % ncols]);                                \
            }                                                                                                  \
            for (int64_t e = 0; e < sa; e++) A[i * sa + e] = (T)Ad[e];                                         \
            for (int64_t e = 0; e < sb; e++) B[i * sb + e] = (T)Bd[e];                                         \
        }                                                                                                      \
        memcpy(A0, A, sa * COUNT * sizeof(T));                                                                 \
        memcpy(B0, B, sb * COUNT * sizeof(T));                                                                 \
        lib_##p(op, form, n, ld, COUNT, A, sa, ipiv, B, sb, info);                                             \
        T *a1 = malloc(sa * sizeof(T)), *b1 = malloc(sb * sizeof(T));                                          \
        int *ip1 = malloc((size_t)n * sizeof(int)), inf1[2];                                                   \
        for (int i = 0; i < COUNT; i++) {                                                                      \
            memcpy(a1, A0 + i * sa, sa * sizeof(T));                                                           \
            memcpy(b1, B0 + i * sb, sb * sizeof(T));                                                           \
            int want = ref_##p(op, n, ld, a1, ip1, b1);                                                        \
            const int nan_m = kinds[i] == 2 || kinds[i] == 4;                            \
            if (op >= OP_GETRF && kinds[i] >= 2) { /* Inf or NaN in an LU: the documented rule */              \
                memcpy(a1, A0 + i * sa, sa * sizeof(T));                                                       \
                want = rule_getrf_##p(n, ld, a1);                                                              \
            }                                                                                                  \
            const int got = info[1 + i];                                                                       \
            if (nan_m && op < OP_GETRF ? !(got > 0 && (want == 0 || got == want)) : got != want) {                                \
                if (failures++ < 40)                                                                           \
                    printf("FAIL %s op %d n %d %s rep %d member %d (kind %d): info %d, LAPACK %d\n", #p, op, n, \
                           form_name[form], rep, i, kinds[i], got, want);                                      \
            }                                                                                                  \
            if (got != 0) continue;                                                                            \
            /* solved alone: bitwise equal */                                                                  \
            memcpy(a1, A0 + i * sa, sa * sizeof(T));                                                           \
            memcpy(b1, B0 + i * sb, sb * sizeof(T));                                                           \
            lib_##p(op, form, n, ld, 1, a1, sa, ip1, b1, sb, inf1);                                            \
            int same = inf1[1] == 0 && same_##p(a1, A + i * sa, sa);                                           \
            if (op == OP_GESV) same = same && same_##p(b1, B + i * sb, sb);                                    \
            if (op >= OP_GETRF) same = same && !memcmp(ip1, ipiv + (int64_t)i * n, n * sizeof(int));           \
            if (!same && failures++ < 40)                                                                      \
                printf("FAIL %s op %d n %d %s rep %d member %d (kind %d): differs from the member solved "    \
                       "alone\n", #p, op, n, form_name[form], rep, i, kinds[i]);                               \
        }                                                                                                      \
        free(a1); free(b1); free(ip1);                                                                         \
        free(Ad); free(Bd); free(A); free(B); free(A0); free(B0); free(ipiv);                                  \
    }

DEFINE_PREC(float, s)
DEFINE_PREC(double, d)

int main(void)
{
    static const int sizes[] = {5, 16, 32, 33, 48, 64, 65};
    static const int quick[] = {5, 33, 65};
    const int q = getenv("BB_ISO_QUICK") && atoi(getenv("BB_ISO_QUICK"));
    const int *sz = q ? quick : sizes;
    int nsz = q ? 3 : 7;
    /* BB_ISO_N=n: only that size of the list (a part of a part) */
    static int one[1];
    if (getenv("BB_ISO_N")) {
        one[0] = atoi(getenv("BB_ISO_N"));
        int found = 0;
        for (int i = 0; i < nsz; i++) found |= sz[i] == one[0];
        sz = one;
        nsz = found;
    }
    long batches = 0;
    for (int si = 0; si < nsz; si++) {
        const int n = sz[si];
        /* the columns: both sides of every block bound below n */
        int cols[8], ncols = 0;
        const int cand[] = {0, 8, 19, 31, 32, 47, 63, 64};
        for (int c = 0; c < 8; c++)
            if (cand[c] < n) cols[ncols++] = cand[c];
        if (cols[ncols - 1] != n - 1) cols[ncols++] = n - 1;
        for (int op = OP_POTRF_L; op <= OP_GESV; op++)
            for (int form = 0; form < NFORMS; form++)
                for (int rep = 0; rep < ncols; rep++) {
                    if (selected('s', op)) {
                        seed_batch(0, op, n, form, rep);
                        run_s(op, n, form, rep, cols, ncols);
                        batches++;
                    }
                    if (selected('d', op)) {
                        seed_batch(1, op, n, form, rep);
                        run_d(op, n, form, rep, cols, ncols);
                        batches++;
                    }
                }
    }
    printf("isolation: %ld batches of %d (%ld broken members), %d failures\n", batches, COUNT,
           batches * ((COUNT + 3) / 7), failures);
    if (batches == 0) {
        printf("isolation: FAIL no batch selected (BB_ISO_PREC, BB_ISO_OP)\n");
        return 1;
    }
    return failures ? 1 : 0;
}
