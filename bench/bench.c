/*
 * batchblas-bench: times any BatchBLAS routine, form and precision against
 * the papers' CPU baseline (an OpenMP loop with one OpenBLAS/LAPACKE call per
 * problem) in the same run, and prints one table row per size.
 *
 * This file is the precision-independent driver: options, the routine table
 * with its flop and byte formulas, the timing loop, the roofline and the
 * table/CSV output.  The problems themselves live in bench_prec.c (compiled
 * once per precision).  See bench.h for how a GPU driver plugs in, and
 * doc/performance.md for the method and the measured tables.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include <cblas.h>
#include "batchblas.h"
#include "testutil.h"
#include "bench.h"

#ifdef HAVE_OPENBLAS_SET_NUM_THREADS
void openblas_set_num_threads(int);
char *openblas_get_config(void);
char *openblas_get_corename(void);
#endif

/* Roofline of this machine (../shared/reference/cpu-baseline.md): 1.5 x the
   STREAM-copy median (the bytes really moved, write-allocate counted) and
   the 2-thread DGEMM/SGEMM peak with OpenBLAS's AVX-512 kernels. */
#define ROOF_BW_GBS 55.5
#define ROOF_PEAK_D 186.0
#define ROOF_PEAK_S 429.0

/* ---- the routine table ---------------------------------------------------- */

typedef struct {
    const char *name;
    int complex_only;
    const char *flops;    /* per problem, real precisions */
    const char *bytes;    /* elements per problem */
    const char *residual; /* the checked quantity */
    const char *baseline; /* one call per problem */
    const char *opts;     /* options that apply: s u t b d n r (side uplo trans transb diag norm nrhs) */
} rinfo;

static const rinfo routines[BR_N] = {
    [BR_GEMM] = {"gemm", 0, "2n^3", "4n^2 (A, B, C read, C written)",
                 "||C - (alpha op(A)op(B) + beta C0)|| / (n eps (|alpha| ||A|| ||B|| + |beta| ||C0||))",
                 "cblas_?gemm", "tb"},
    [BR_SYMM] = {"symm", 0, "2n^3", "4n^2", "||C - (alpha S B + beta C0)|| / (n eps (|alpha| ||S|| ||B|| + |beta| ||C0||))",
                 "cblas_?symm", "su"},
    [BR_HEMM] = {"hemm", 1, "2n^3", "4n^2", "||C - (alpha H B + beta C0)|| / (n eps (...))",
                 "cblas_?hemm", "su"},
    [BR_SYRK] = {"syrk", 0, "n^2(n+1)", "3n^2 (A, C read, C written)",
                 "uplo triangle of ||C - (alpha op(A)op(A)^T + beta C0)|| / (n eps (|alpha| ||A||^2 + |beta| ||C0||))",
                 "cblas_?syrk", "ut"},
    [BR_HERK] = {"herk", 1, "n^2(n+1)", "3n^2", "as syrk with A^H", "cblas_?herk", "ut"},
    [BR_SYR2K] = {"syr2k", 0, "2n^3", "4n^2", "as syrk with alpha A B^T + alpha B A^T",
                  "cblas_?syr2k", "ut"},
    [BR_HER2K] = {"her2k", 1, "2n^3", "4n^2", "as syr2k with ^H", "cblas_?her2k", "ut"},
    [BR_TRMM] = {"trmm", 0, "n^2 nrhs", "n^2 + 2 n nrhs (A, B read, B written)",
                 "||B - alpha op(A) B0|| / (n eps |alpha| ||A|| ||B0||)", "cblas_?trmm", "sutdr"},
    [BR_TRSM] = {"trsm", 0, "n^2 nrhs", "n^2 + 2 n nrhs (A, B read, B written)",
                 "||op(A) X - alpha B0|| / (n eps (||A|| ||X|| + |alpha| ||B0||))", "cblas_?trsm", "sutdr"},
    [BR_POTRF] = {"potrf", 0, "n^3/3", "2n^2 (A read and written)",
                  "||A0 - L L^H|| / (n eps ||A0||)", "LAPACKE_?potrf_work", "u"},
    [BR_POTRS] = {"potrs", 0, "2 n^2 nrhs", "n^2 + 2 n nrhs",
                  "||A0 X - B0|| / (n eps (||A0|| ||X|| + ||B0||)), A0 = L L^H", "LAPACKE_?potrs_work", "ur"},
    [BR_POSV] = {"posv", 0, "n^3/3 + 2 n^2 nrhs", "2n^2 + 2 n nrhs",
                 "||A0 X - B0|| / (n eps (||A0|| ||X|| + ||B0||))", "LAPACKE_?posv_work", "ur"},
    [BR_TRTRI] = {"trtri", 0, "n^3/3", "2n^2", "||X A0 - I|| / (n eps ||A0|| ||X||)",
                  "LAPACKE_?trtri_work", "ud"},
    [BR_LAUUM] = {"lauum", 0, "n^3/3", "2n^2", "uplo triangle of ||A - U U^H|| / (n eps ||U||^2)",
                  "LAPACKE_?lauum_work", "u"},
    [BR_POTRI] = {"potri", 0, "2n^3/3", "2n^2", "||X A0 - I|| / (n eps ||A0|| ||X||), A0 = L L^H",
                  "LAPACKE_?potri_work", "u"},
    [BR_POTI] = {"poti", 0, "n^3", "2n^2", "||X A0 - I|| / (n eps ||A0|| ||X||)",
                 "LAPACKE_?potrf_work + LAPACKE_?potri_work", "u"},
    [BR_GETRF] = {"getrf", 0, "2n^3/3", "2n^2 + n ints (A read and written, ipiv written)",
                  "||P A0 - L U|| / (n eps ||A0||)", "LAPACKE_?getrf_work", ""},
    [BR_GETRFNP] = {"getrfnp", 0, "2n^3/3", "2n^2", "||A0 - L U|| / (n eps ||A0||)",
                    "LAPACKE_?getrf_work (partial pivoting; inputs are diagonally dominant, so no row is swapped)", ""},
    [BR_GETRS] = {"getrs", 0, "2 n^2 nrhs", "n^2 + n ints + 2 n nrhs",
                  "||op(A0) X - B0|| / (n eps (||A0|| ||X|| + ||B0||)), A0 = P^T L U", "LAPACKE_?getrs_work", "tr"},
    [BR_GESV] = {"gesv", 0, "2n^3/3 + 2 n^2 nrhs", "2n^2 + n ints + 2 n nrhs",
                 "||A0 X - B0|| / (n eps (||A0|| ||X|| + ||B0||))", "LAPACKE_?gesv_work", "r"},
    [BR_GETRI] = {"getri", 0, "4n^3/3", "2n^2 + n ints", "||X A0 - I|| / (n eps ||A0|| ||X||), A0 = P^T L U",
                  "LAPACKE_?getri_work", ""},
    [BR_GETRI_OOP] = {"getri_oop", 0, "4n^3/3", "2n^2 + n ints (A read, Ainv written)",
                      "||X A0 - I|| / (n eps ||A0|| ||X||)", "LAPACKE_?lacpy_work + LAPACKE_?getri_work", ""},
    [BR_LANGE] = {"lange", 0, "n^2", "n^2 + 1 real", "|v - v_ref| / (n eps v_ref), v_ref in double",
                  "LAPACKE_?lange_work", "n"},
    [BR_GECOND] = {"gecond", 0, "2n^3", "n^2 + 1 real",
                   "|c - k| / (n eps k^2), k = ||A|| ||inv(A)|| in double (c is accurate to k eps)",
                   "per-thread copy, LAPACKE_?lange/getrf/getri/lange _work", "n"},
    [BR_GECON] = {"gecon", 0, "4n^2", "n^2 + 2 reals (LU, anorm read, rcond written)",
                  "distance of rcond from [r, 10 n r] / (n eps r k), r = exact 1/k in double",
                  "LAPACKE_?gecon_work", "n"},
    [BR_INVERSE] = {"inverse", 0, "2n^3 (getrf 2n^3/3 + getri 4n^3/3)", "2n^2 (A read, inverse written)",
                    "||X A0 - I|| / (n eps ||A0|| ||X||)",
                    "LAPACKE_?getrf_work + LAPACKE_?getri_work", ""},
    [BR_GEINV] = {"geinv", 0, "2n^3", "2n^2 (A read, Ainv written)", "||X A0 - I|| / (n eps ||A0|| ||X||)",
                  "LAPACKE_?lacpy_work + LAPACKE_?getrf_work + LAPACKE_?getri_work", ""},
};

const char *bench_routine_name(int r) { return routines[r].name; }
int bench_routine_complex_only(int r) { return routines[r].complex_only; }

size_t bench_elem_size(int prec)
{
    static const size_t sz[4] = {4, 8, 8, 16};
    return sz[prec];
}

/* ---- shapes, flops and bytes ------------------------------------------------ */

void bench_shape_of(const bench_opts *o, int n, int nrhs, bench_shape *sh)
{
    memset(sh, 0, sizeof *sh);
    int left = o->side != BblasRight;
#define MAT(o_, r_, c_, w_) (sh->r[o_] = (r_), sh->c[o_] = (c_), sh->written[o_] = (w_))
    switch (o->routine) {
    case BR_GEMM: case BR_SYMM: case BR_HEMM: case BR_SYR2K: case BR_HER2K:
        MAT(BO_A, n, n, 0); MAT(BO_B, n, n, 0); MAT(BO_C, n, n, 1);
        if (o->routine == BR_SYR2K || o->routine == BR_HER2K) break;
        break;
    case BR_SYRK: case BR_HERK:
        MAT(BO_A, n, n, 0); MAT(BO_C, n, n, 1); break;
    case BR_TRMM: case BR_TRSM:
        MAT(BO_A, n, n, 0);
        if (left) MAT(BO_B, n, nrhs, 1); else MAT(BO_B, nrhs, n, 1);
        break;
    case BR_POTRF: case BR_TRTRI: case BR_LAUUM: case BR_POTRI: case BR_POTI: case BR_GETRFNP:
        MAT(BO_A, n, n, 1); break;
    case BR_POTRS:
        MAT(BO_A, n, n, 0); MAT(BO_B, n, nrhs, 1); break;
    case BR_POSV:
        MAT(BO_A, n, n, 1); MAT(BO_B, n, nrhs, 1); break;
    case BR_GETRF: case BR_INVERSE:
        MAT(BO_A, n, n, 1); sh->ipiv = n; sh->ipiv_written = 1; break;
    case BR_GETRS:
        MAT(BO_A, n, n, 0); MAT(BO_B, n, nrhs, 1); sh->ipiv = n; break;
    case BR_GESV:
        MAT(BO_A, n, n, 1); MAT(BO_B, n, nrhs, 1); sh->ipiv = n; sh->ipiv_written = 1; break;
    case BR_GETRI:
        MAT(BO_A, n, n, 1); sh->ipiv = n; break;
    case BR_GETRI_OOP:
        MAT(BO_A, n, n, 0); MAT(BO_B, n, n, 1); sh->ipiv = n; break;
    case BR_GEINV:
        MAT(BO_A, n, n, 0); MAT(BO_B, n, n, 1); break;
    case BR_LANGE: case BR_GECOND:
        MAT(BO_A, n, n, 0); sh->y_out = 1; break;
    case BR_GECON:
        MAT(BO_A, n, n, 0); sh->x_in = 1; sh->y_out = 1; break;
    }
#undef MAT
}

double bench_flops(const bench_opts *o, int n_, int nrhs_)
{
    double n = n_, r = nrhs_, f = 0;
    switch (o->routine) {
    case BR_GEMM: case BR_SYMM: case BR_HEMM: case BR_SYR2K: case BR_HER2K: f = 2 * n * n * n; break;
    case BR_SYRK: case BR_HERK: f = n * n * (n + 1); break;
    case BR_TRMM: case BR_TRSM: f = n * n * r; break;
    case BR_POTRF: case BR_TRTRI: case BR_LAUUM: f = n * n * n / 3; break;
    case BR_POTRS: case BR_GETRS: f = 2 * n * n * r; break;
    case BR_POSV: f = n * n * n / 3 + 2 * n * n * r; break;
    case BR_POTRI: case BR_GETRF: case BR_GETRFNP: f = 2 * n * n * n / 3; break;
    case BR_POTI: f = n * n * n; break;
    case BR_GESV: f = 2 * n * n * n / 3 + 2 * n * n * r; break;
    case BR_GETRI: case BR_GETRI_OOP: f = 4 * n * n * n / 3; break;
    case BR_LANGE: f = n * n; break;
    case BR_GECOND: case BR_INVERSE: case BR_GEINV: f = 2 * n * n * n; break;
    case BR_GECON: f = 4 * n * n; break;
    }
    return (o->prec >= 2 ? 4.0 : 1.0) * f;
}

double bench_bytes(const bench_opts *o, int n, int nrhs)
{
    bench_shape sh;
    bench_shape_of(o, n, nrhs, &sh);
    double e = (double)bench_elem_size(o->prec), re = (o->prec == 0 || o->prec == 2) ? 4 : 8;
    double b = 0;
    for (int k = 0; k < BO_NMAT; k++) {
        double sz = (double)sh.r[k] * sh.c[k] * e;
        int read = !((o->routine == BR_GETRI_OOP || o->routine == BR_GEINV) && k == BO_B); /* Ainv is only written */
        b += sz * ((read ? 1 : 0) + sh.written[k]);
    }
    /* pivots: read (getrs, getri) or written (getrf, gesv); not for inverse,
       whose pivots need not leave the call */
    if (sh.ipiv && o->routine != BR_INVERSE) b += 4.0 * sh.ipiv;
    b += re * (sh.x_in + sh.y_out);
    return b;
}

/* ---- rates, roofline, output ---------------------------------------------- */

void bench_fill_rates(const bench_opts *o, const bench_set *s, bench_result *r)
{
    double t = r->ms * 1e-3;
    r->gflops = t > 0 ? s->flops / t * 1e-9 : 0;
    r->gbs = t > 0 ? s->bytes / t * 1e-9 : 0;
    double floor_t = fmax(s->bytes / (o->bw_gbs * 1e9), s->flops / (o->peak_gflops * 1e9));
    r->pct_roof = t > 0 ? 100.0 * floor_t / t : 0;
}

static const char *form_name(int f)
{
    static const char *n[] = {"strided", "fixed", "group", "var"};
    return n[f];
}
static const char *dist_name(int d)
{
    static const char *n[] = {"fixed", "uniform", "skewed"};
    return n[d];
}
static const char *enum_name(int v)
{
    switch (v) {
    case BblasNoTrans: return "N";
    case BblasTrans: return "T";
    case BblasConjTrans: return "C";
    case BblasUpper: return "upper";
    case BblasLower: return "lower";
    case BblasNonUnit: return "nonunit";
    case BblasUnit: return "unit";
    case BblasLeft: return "left";
    case BblasRight: return "right";
    case BblasOneNorm: return "one";
    case BblasInfNorm: return "inf";
    case BblasMaxNorm: return "max";
    case BblasFrobeniusNorm: return "fro";
    }
    return "?";
}

static void cpu_model(char *buf, size_t len)
{
    snprintf(buf, len, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "model name", 10)) {
            char *c = strchr(line, ':');
            if (c) {
                c++;
                while (*c == ' ') c++;
                c[strcspn(c, "\n")] = 0;
                snprintf(buf, len, "%s", c);
            }
            break;
        }
    }
    fclose(f);
}

/* 1-minute load average (other processes on the same cores skew every number) */
static double loadavg(void)
{
    double l = -1;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &l) != 1) l = -1;
        fclose(f);
    }
    return l;
}

void bench_print_header(FILE *f, const bench_opts *o, const char *const *labels, int nres)
{
    const rinfo *ri = &routines[o->routine];
    static const char pl[] = "sdcz";
    char cpu[256];
    cpu_model(cpu, sizeof cpu);
    fprintf(f, "# batchblas-bench (BatchBLAS %s): %c%s, %s form", batchblas_version(),
            pl[o->prec], ri->name, form_name(o->form));
    if (o->form == BF_VAR) fprintf(f, ", sizes %s", o->dist == BD_SKEWED ? "skewed (1%% at n, 99%% in [1, n/10])"
                                              : o->dist == BD_UNIFORM ? "uniform in [1, n]" : "all n");
    if (o->form == BF_GROUP) fprintf(f, ", %d groups", o->groups);
    fprintf(f, ", column-major");
    for (const char *c = ri->opts; *c; c++) {
        switch (*c) {
        case 's': fprintf(f, ", side=%s", enum_name(o->side)); break;
        case 'u': fprintf(f, ", uplo=%s", enum_name(o->uplo)); break;
        case 't': fprintf(f, ", trans=%s", enum_name(o->trans)); break;
        case 'b': fprintf(f, ", transb=%s", enum_name(o->transb)); break;
        case 'd': fprintf(f, ", diag=%s", enum_name(o->diag)); break;
        case 'n': fprintf(f, ", norm=%s", enum_name(o->norm)); break;
        case 'r':
            if (o->nrhs < 0) fprintf(f, ", nrhs=n"); else fprintf(f, ", nrhs=%d", o->nrhs);
            break;
        }
    }
    fputc('\n', f);
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    fprintf(f, "# machine: %s, %ld cores online, OpenMP threads %d", cpu, ncpu, o->threads);
#ifdef HAVE_OPENBLAS_SET_NUM_THREADS
    fprintf(f, ", OpenBLAS core %s", openblas_get_corename());
#endif
    double la = loadavg();
    if (la >= 0) fprintf(f, ", load average %.2f%s", la, la > 0.5 ? " (BUSY: numbers not reliable)" : "");
    fputc('\n', f);
    fprintf(f, "# backend: %s (requested); data per row ~%.0f MB of counted bytes unless --batch\n",
            batchblas_backend_name((batchblas_backend_t)o->backend), o->target_mb);
    fprintf(f, "# flops/problem: %s%s; bytes/problem: %s x %zu B (each input read once, each output written once)\n",
            ri->flops, o->prec >= 2 ? " x 4 (complex)" : "", ri->bytes, bench_elem_size(o->prec));
    fprintf(f, "# roofline: floor = max(bytes / %.1f GB/s, flops / %.0f GFLOP/s); %%roof = floor / time\n",
            o->bw_gbs, o->peak_gflops);
    fprintf(f, "# timing: median of %d reps after 1 warm-up (ours and baseline reps interleaved, %s first); written "
               "operands restored from a pristine copy before every run, outside the timed region\n", o->reps,
            o->base_first ? "baseline" : "ours");
    if (o->baseline)
        fprintf(f, "# baseline: #pragma omp parallel for schedule(%s) over the problems, one %s per problem, "
                   "OpenBLAS 1 thread\n", o->base_static ? "static" : "dynamic", ri->baseline);
    fprintf(f, "# error: largest over %d sampled problems of %s; ok when < %.0f (tests/testutil.h) and every info == 0\n",
            o->nsample, ri->residual, TU_THRESHOLD);
    /* group titles over the columns of each implementation */
    fprintf(f, "#\n# %15s", "");
    for (int k = 0; k < nres; k++) {
        char t[64];
        int w = 48, len = snprintf(t, sizeof t, " %s ", labels[k]);
        int left = (w - len) / 2;
        fprintf(f, " |");
        for (int c = 0; c < left; c++) fputc('-', f);
        fputs(t, f);
        for (int c = left + len; c < w; c++) fputc('-', f);
    }
    fprintf(f, "\n# %5s %9s", "n", "batch");
    for (int k = 0; k < nres; k++)
        fprintf(f, " | %9s %8s %7s %6s %8s %-6s", "ms", "GFLOP/s", "GB/s", "%roof", "error", "");
    if (o->scan)
        for (int k = 1; k < nres; k++) fprintf(f, " | %7s", "speedup");
    else if (nres > 1)
        fprintf(f, " | %7s", "speedup");
    fputc('\n', f);
}

void bench_print_row(FILE *f, const bench_opts *o, const bench_set *s, const bench_result *r, int nres)
{
    fprintf(f, "  %5d %9lld", s->nmax, (long long)s->count);
    for (int k = 0; k < nres; k++) {
        if (!r[k].measured) {
            fprintf(f, " | %9s %8s %7s %6s %8s %-6s", "-", "-", "-", "-", "-", "");
            continue;
        }
        fprintf(f, " | %9.3f %8.3g %7.3g %6.1f %8.2g %-6s", r[k].ms, r[k].gflops, r[k].gbs,
                r[k].pct_roof, r[k].err, r[k].ok ? "ok" : "FAILED");
    }
    if (o->scan) { /* each device list over the first */
        for (int k = 1; k < nres; k++) {
            if (r[0].measured && r[k].measured && r[k].ms > 0) fprintf(f, " | %6.2fx", r[0].ms / r[k].ms);
            else fprintf(f, " | %7s", "-");
        }
    } else if (nres > 1) {
        if (r[0].measured && r[1].measured && r[0].ms > 0)
            fprintf(f, " | %6.2fx", r[1].ms / r[0].ms);
        else
            fprintf(f, " | %7s", "-");
    }
    fputc('\n', f);
    fflush(f);
}

void bench_csv_header(FILE *f)
{
    fprintf(f, "routine,prec,form,dist,n,batch,threads,impl,ms,ms_min,ms_max,gflops,gbs,pct_roof,"
               "error,ok,info_bad,flops,bytes,load1\n");
}

void bench_csv_row(FILE *f, const bench_opts *o, const bench_set *s, const char *impl,
                   const bench_result *r)
{
    static const char pl[] = "sdcz";
    if (!r->measured) return;
    fprintf(f, "%s,%c,%s,%s,%d,%lld,%d,%s,%.6g,%.6g,%.6g,%.6g,%.6g,%.4g,%.4g,%d,%lld,%.6g,%.6g,%.2f\n",
            routines[o->routine].name, pl[o->prec], form_name(o->form), dist_name(o->dist), s->nmax,
            (long long)s->count, o->threads, impl, r->ms, r->ms_min, r->ms_max, r->gflops, r->gbs,
            r->pct_roof, r->err, r->ok, (long long)r->info_bad, s->flops, s->bytes, loadavg());
    fflush(f);
}

/* ---- timing ------------------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

void bench_measure(const bench_prec_ops *ops, bench_set *s, void (*const *run)(bench_set *), int nimpl,
                   bench_result *r)
{
    const bench_opts *o = s->o;
    /* warm-up of each implementation on pristine inputs, then the check of
       its outputs */
    for (int k = 0; k < nimpl; k++) {
        memset(&r[k], 0, sizeof r[k]);
        ops->restore(s);
        run[k](s);
        r[k].err = ops->check(s, &r[k].ok, &r[k].info_bad);
    }
    /* timed runs, the implementations interleaved so that both see the same
       machine (other load, memory, frequency); --base-first reverses the
       order within each rep, to see what the order itself is worth (a run
       after another may find warmer caches, TLBs or clocks) */
    double *t = malloc(sizeof(double) * (size_t)o->reps * (size_t)nimpl);
    for (int rep = 0; rep < o->reps; rep++)
        for (int j = 0; j < nimpl; j++) {
            const int k = o->base_first ? nimpl - 1 - j : j;
            ops->restore(s);
            double t0 = tu_now();
            run[k](s);
            t[k * o->reps + rep] = tu_now() - t0;
        }
    for (int k = 0; k < nimpl; k++) {
        double *tk = t + k * o->reps;
        qsort(tk, (size_t)o->reps, sizeof *tk, cmp_double);
        int h = o->reps / 2;
        r[k].ms = 1e3 * (o->reps % 2 ? tk[h] : 0.5 * (tk[h - 1] + tk[h]));
        r[k].ms_min = 1e3 * tk[0];
        r[k].ms_max = 1e3 * tk[o->reps - 1];
        r[k].measured = 1;
        bench_fill_rates(o, s, &r[k]);
    }
    free(t);
}

/* ---- --probe: the two ceilings of this machine ------------------------------ */

/* STREAM-style copy over two 256 MiB arrays on all threads (reported by the
   STREAM convention, 16 B per element, and x1.5 for the write-allocate
   traffic), and the GEMM peak: one n = 2048 product per thread with OpenBLAS
   single-threaded, so the rate is what the per-problem calls can reach. */
static void probe(int threads, double *bw_stream, double *peak_d, double *peak_s)
{
    const size_t n = (size_t)32 << 20; /* doubles: 256 MiB */
    double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
    double best = 1e30;
    if (a && b) {
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++) { a[i] = 1.0; b[i] = (double)i; }
        for (int rep = 0; rep < 5; rep++) {
            double t0 = tu_now();
#pragma omp parallel for schedule(static)
            for (size_t i = 0; i < n; i++) a[i] = b[i];
            double t = tu_now() - t0;
            if (t < best) best = t;
        }
    }
    *bw_stream = a && b ? 16.0 * (double)n / best * 1e-9 : 0;
    free(a);
    free(b);
    for (int sp = 0; sp < 2; sp++) {
        const int m = 2048;
        double tbest = 1e30;
        for (int rep = 0; rep < 3; rep++) {
            double t0 = 0, t1 = 0;
#pragma omp parallel num_threads(threads)
            {
                void *x = malloc((size_t)m * m * 8), *y = malloc((size_t)m * m * 8), *z = malloc((size_t)m * m * 8);
                if (x && y && z) {
                    memset(x, 0, (size_t)m * m * 8);
                    memset(y, 0, (size_t)m * m * 8);
                    memset(z, 0, (size_t)m * m * 8);
                    for (size_t i = 0; i < (size_t)m * m; i++) {
                        if (sp) { ((float *)x)[i] = 1e-3f * (float)(i % 7); ((float *)y)[i] = 1e-3f * (float)(i % 5); }
                        else { ((double *)x)[i] = 1e-3 * (double)(i % 7); ((double *)y)[i] = 1e-3 * (double)(i % 5); }
                    }
                }
#pragma omp barrier
#pragma omp master
                t0 = tu_now();
#pragma omp barrier
                if (x && y && z) {
                    if (sp) cblas_sgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, m, m, 1.0f, x, m, y, m, 0.0f, z, m);
                    else cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m, m, m, 1.0, x, m, y, m, 0.0, z, m);
                }
#pragma omp barrier
#pragma omp master
                t1 = tu_now();
                free(x); free(y); free(z);
            }
            if (t1 - t0 < tbest) tbest = t1 - t0;
        }
        double rate = 2.0 * m * (double)m * m * threads / tbest * 1e-9;
        if (sp) *peak_s = rate; else *peak_d = rate;
    }
}

int bench_pinned = 0;

/* --devices-scan: the device lists (batchblas_set_devices) timed side by
   side, each as an implementation of its own: the same data, the reps
   interleaved */
#define SCAN_MAX 4
static int scan_n = 0, scan_len[SCAN_MAX], scan_ids[SCAN_MAX][64];
static char scan_label[SCAN_MAX][48];
static const bench_prec_ops *scan_ops;

static void scan_run(int k, bench_set *s)
{
    (void)batchblas_set_devices(scan_len[k], scan_ids[k]);
    scan_ops->run_ours(s);
}
static void scan_run0(bench_set *s) { scan_run(0, s); }
static void scan_run1(bench_set *s) { scan_run(1, s); }
static void scan_run2(bench_set *s) { scan_run(2, s); }
static void scan_run3(bench_set *s) { scan_run(3, s); }

/* "0;0,1;0,1,2,3": up to SCAN_MAX lists of device ids; 0 or -1 */
static int parse_scan(const char *v)
{
    scan_n = 0;
    const char *p = v;
    while (*p) {
        if (scan_n == SCAN_MAX) return -1;
        int len = 0;
        for (;;) {
            char *end;
            long id = strtol(p, &end, 10);
            if (end == p || id < 0 || len == 64) return -1;
            scan_ids[scan_n][len++] = (int)id;
            p = end;
            if (*p == ',') { p++; continue; }
            break;
        }
        scan_len[scan_n] = len;
        int at = snprintf(scan_label[scan_n], sizeof scan_label[scan_n], "devices %d", scan_ids[scan_n][0]);
        for (int k = 1; k < len && at < (int)sizeof scan_label[scan_n] - 8; k++)
            at += snprintf(scan_label[scan_n] + at, sizeof scan_label[scan_n] - (size_t)at, ",%d", scan_ids[scan_n][k]);
        scan_n++;
        if (*p == ';') p++;
        else if (*p) return -1;
    }
    return scan_n > 0 ? 0 : -1;
}

/* ---- options ----------------------------------------------------------------- */

static void usage(FILE *f)
{
    fprintf(f,
        "usage: batchblas-bench [options]\n"
        "  --routine R    gemm symm hemm syrk herk syr2k her2k trmm trsm potrf potrs posv\n"
        "                 trtri lauum potri poti getrf getrfnp getrs gesv getri getri_oop\n"
        "                 lange gecond gecon geinv, or inverse (getrf then getri)   [gemm]\n"
        "  --prec P       s d c z                                           [d]\n"
        "  --form F       strided fixed group var                           [strided]\n"
        "  --dist D       sizes of the var form: fixed (all n), uniform (in [1,n]),\n"
        "                 skewed (1%% at n, 99%% in [1,n/10])                  [uniform]\n"
        "  --groups G     number of groups of the group form                [4]\n"
        "  --sizes LIST   comma-separated n                     [2,4,8,16,32,64,128,256]\n"
        "  --batch N      problems per row (default: ~--mb of data, capped at --max-batch)\n"
        "  --mb M         data per row in MB of counted bytes               [256]\n"
        "  --max-batch N  cap of the automatic batch                        [4194304]\n"
        "  --side left|right  --uplo lower|upper  --trans n|t|c  --transb n|t|c\n"
        "  --diag nonunit|unit  --norm one|inf|max|fro  --nrhs K (default n)\n"
        "  --backend auto|cpu|cuda                                          [auto]\n"
        "  --threads T    OpenMP threads (default: OMP_NUM_THREADS or all cores)\n"
        "  --reps R       timed repetitions, the median is reported        [5]\n"
        "  --check K      problems checked per row                          [8]\n"
        "  --seed S       random seed                                       [1]\n"
        "  --no-baseline  time only BatchBLAS\n"
        "  --devices-scan \"0;0,1;0,1,2,3\"  host data on the GPUs: each list of device\n"
        "                 ids (batchblas_set_devices) timed on the same data, reps\n"
        "                 interleaved; speedups over the first list (no baseline)\n"
        "  --pinned       operands in page-locked memory (batchblas_malloc_host): the\n"
        "                 GPU copies them directly, without the host staging copy\n"
        "  --base-static  baseline loop with schedule(static) instead of dynamic\n"
        "  --base-first   each timed rep runs the baseline before ours (default: ours first)\n"
        "  --bw GBS       roofline bandwidth in GB/s                        [%.1f]\n"
        "  --peak GFLOPS  roofline arithmetic peak [%.0f s/c, %.0f d/z]\n"
        "  --probe        measure copy bandwidth and GEMM peak here first and use them\n"
        "                 for the roofline (default: the constants of cpu-baseline.md)\n"
        "  --csv FILE     also write the rows as CSV (appends; header if new)\n"
        "  --quiet        no header\n",
        ROOF_BW_GBS, ROOF_PEAK_S, ROOF_PEAK_D);
}

static int parse_enum(const char *opt, const char *v, int *out)
{
    static const struct { const char *s; int v; } tab[] = {
        {"left", BblasLeft}, {"right", BblasRight}, {"l", BblasLeft}, {"r", BblasRight},
        {"lower", BblasLower}, {"upper", BblasUpper},
        {"n", BblasNoTrans}, {"t", BblasTrans}, {"c", BblasConjTrans},
        {"N", BblasNoTrans}, {"T", BblasTrans}, {"C", BblasConjTrans},
        {"nonunit", BblasNonUnit}, {"unit", BblasUnit},
        {"one", BblasOneNorm}, {"inf", BblasInfNorm}, {"max", BblasMaxNorm}, {"fro", BblasFrobeniusNorm},
    };
    for (size_t k = 0; k < sizeof tab / sizeof tab[0]; k++)
        if (!strcmp(v, tab[k].s)) {
            /* keep the option families apart */
            int ok = 0;
            if (!strcmp(opt, "--side")) ok = tab[k].v == BblasLeft || tab[k].v == BblasRight;
            else if (!strcmp(opt, "--uplo")) ok = tab[k].v == BblasLower || tab[k].v == BblasUpper;
            else if (!strcmp(opt, "--trans") || !strcmp(opt, "--transb"))
                ok = tab[k].v >= BblasNoTrans && tab[k].v <= BblasConjTrans;
            else if (!strcmp(opt, "--diag")) ok = tab[k].v == BblasNonUnit || tab[k].v == BblasUnit;
            else if (!strcmp(opt, "--norm")) ok = tab[k].v >= BblasOneNorm;
            if (ok) {
                *out = tab[k].v;
                return 0;
            }
        }
    fprintf(stderr, "batchblas-bench: bad value '%s' for %s\n", v, opt);
    return -1;
}

static int parse_list(const char *s, int *out, int max)
{
    int k = 0;
    char *end;
    while (*s && k < max) {
        errno = 0;
        long v = strtol(s, &end, 10);
        if (end == s || errno || v < 0 || v > 100000) return -1;
        out[k++] = (int)v;
        s = end;
        if (*s == ',') s++;
        else if (*s) return -1;
    }
    return k;
}

int main(int argc, char **argv)
{
    bench_opts o;
    memset(&o, 0, sizeof o);
    o.routine = BR_GEMM;
    o.prec = 1;
    o.form = BF_STRIDED;
    o.dist = BD_UNIFORM;
    o.side = BblasLeft;
    o.uplo = BblasLower;
    o.trans = BblasNoTrans;
    o.transb = BblasNoTrans;
    o.diag = BblasNonUnit;
    o.norm = BblasOneNorm;
    o.nrhs = -1;
    o.groups = 4;
    o.target_mb = 256;
    o.max_batch = 4194304;
    o.reps = 5;
    o.nsample = 8;
    o.seed = 1;
    o.backend = BatchblasBackendAuto;
    o.baseline = 1;
    o.bw_gbs = ROOF_BW_GBS;
    int sizes[64] = {2, 4, 8, 16, 32, 64, 128, 256}, nsizes = 8;
    int dist_set = 0, do_probe = 0, bw_set = 0;
    double peak = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEEDV() do { if (!v) { fprintf(stderr, "batchblas-bench: %s needs a value\n", a); return 2; } i++; } while (0)
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); return 0; }
        else if (!strcmp(a, "--routine")) {
            NEEDV();
            int r;
            for (r = 0; r < BR_N; r++) if (!strcmp(v, routines[r].name)) break;
            if (r == BR_N) { fprintf(stderr, "batchblas-bench: unknown routine '%s'\n", v); return 2; }
            o.routine = r;
        } else if (!strcmp(a, "--prec")) {
            NEEDV();
            const char *p = strchr("sdcz", v[0]);
            if (!p || !v[0] || v[1]) { fprintf(stderr, "batchblas-bench: --prec s|d|c|z\n"); return 2; }
            o.prec = (int)(p - "sdcz");
        } else if (!strcmp(a, "--form")) {
            NEEDV();
            int f;
            for (f = 0; f < 4; f++) if (!strcmp(v, form_name(f))) break;
            if (f == 4) { fprintf(stderr, "batchblas-bench: --form strided|fixed|group|var\n"); return 2; }
            o.form = f;
        } else if (!strcmp(a, "--dist")) {
            NEEDV();
            int d;
            for (d = 0; d < 3; d++) if (!strcmp(v, dist_name(d))) break;
            if (d == 3) { fprintf(stderr, "batchblas-bench: --dist fixed|uniform|skewed\n"); return 2; }
            o.dist = d;
            dist_set = 1;
        } else if (!strcmp(a, "--sizes")) {
            NEEDV();
            nsizes = parse_list(v, sizes, 64);
            if (nsizes <= 0) { fprintf(stderr, "batchblas-bench: bad --sizes\n"); return 2; }
        } else if (!strcmp(a, "--batch")) { NEEDV(); o.batch = atoll(v); }
        else if (!strcmp(a, "--mb")) { NEEDV(); o.target_mb = atof(v); }
        else if (!strcmp(a, "--max-batch")) { NEEDV(); o.max_batch = atoll(v); }
        else if (!strcmp(a, "--groups")) { NEEDV(); o.groups = atoi(v); }
        else if (!strcmp(a, "--side") || !strcmp(a, "--uplo") || !strcmp(a, "--trans") ||
                 !strcmp(a, "--transb") || !strcmp(a, "--diag") || !strcmp(a, "--norm")) {
            NEEDV();
            int *dst = !strcmp(a, "--side") ? &o.side : !strcmp(a, "--uplo") ? &o.uplo
                     : !strcmp(a, "--trans") ? &o.trans : !strcmp(a, "--transb") ? &o.transb
                     : !strcmp(a, "--diag") ? &o.diag : &o.norm;
            if (parse_enum(a, v, dst)) return 2;
        } else if (!strcmp(a, "--nrhs")) { NEEDV(); o.nrhs = atoi(v); }
        else if (!strcmp(a, "--backend")) {
            NEEDV();
            if (!strcmp(v, "auto")) o.backend = BatchblasBackendAuto;
            else if (!strcmp(v, "cpu")) o.backend = BatchblasBackendCPU;
            else if (!strcmp(v, "cuda")) o.backend = BatchblasBackendCUDA;
            else { fprintf(stderr, "batchblas-bench: --backend auto|cpu|cuda\n"); return 2; }
        } else if (!strcmp(a, "--threads")) { NEEDV(); o.threads = atoi(v); }
        else if (!strcmp(a, "--reps")) { NEEDV(); o.reps = atoi(v); }
        else if (!strcmp(a, "--check")) { NEEDV(); o.nsample = atoi(v); }
        else if (!strcmp(a, "--seed")) { NEEDV(); o.seed = strtoull(v, NULL, 10); }
        else if (!strcmp(a, "--no-baseline")) o.baseline = 0;
        else if (!strcmp(a, "--pinned")) bench_pinned = 1;
        else if (!strcmp(a, "--devices-scan")) {
            NEEDV();
            if (parse_scan(v)) { fprintf(stderr, "batchblas-bench: --devices-scan %s: lists of ids, ';' between lists\n", v); return 1; }
            o.scan = 1;
            o.baseline = 0;
        }
        else if (!strcmp(a, "--base-static")) o.base_static = 1;
        else if (!strcmp(a, "--base-first")) o.base_first = 1;
        else if (!strcmp(a, "--bw")) { NEEDV(); o.bw_gbs = atof(v); bw_set = 1; }
        else if (!strcmp(a, "--peak")) { NEEDV(); peak = atof(v); }
        else if (!strcmp(a, "--csv")) { NEEDV(); o.csv = v; }
        else if (!strcmp(a, "--quiet")) o.quiet = 1;
        else if (!strcmp(a, "--probe")) do_probe = 1;
        else { fprintf(stderr, "batchblas-bench: unknown option '%s' (--help)\n", a); usage(stderr); return 2; }
#undef NEEDV
    }
    if (o.reps < 1 || o.nsample < 0 || o.groups < 1 || o.target_mb <= 0 || o.max_batch < 1 ||
        o.bw_gbs <= 0 || peak < 0 || o.batch < 0 || o.nrhs < -1) {
        fprintf(stderr, "batchblas-bench: bad numeric option\n");
        return 2;
    }
    if (routines[o.routine].complex_only && o.prec < 2) {
        fprintf(stderr, "batchblas-bench: %s needs --prec c or z\n", routines[o.routine].name);
        return 2;
    }
    /* option combinations BLAS itself rejects: refuse them here rather than
       let every baseline call print an error */
    if ((o.routine == BR_HERK || o.routine == BR_HER2K) && o.trans == BblasTrans) {
        fprintf(stderr, "batchblas-bench: %s takes --trans n or c\n", routines[o.routine].name);
        return 2;
    }
    if ((o.routine == BR_SYRK || o.routine == BR_SYR2K) && o.prec >= 2 && o.trans == BblasConjTrans) {
        fprintf(stderr, "batchblas-bench: complex %s takes --trans n or t\n", routines[o.routine].name);
        return 2;
    }
    if ((o.routine == BR_LANGE) ? 0 : (o.routine == BR_GECOND || o.routine == BR_GECON) &&
        o.norm != BblasOneNorm && o.norm != BblasInfNorm) {
        fprintf(stderr, "batchblas-bench: %s takes --norm one or inf\n", routines[o.routine].name);
        return 2;
    }
    if (dist_set && o.dist != BD_FIXED && o.form != BF_VAR) o.form = BF_VAR;
    if (o.form != BF_VAR) o.dist = BD_FIXED;
    o.peak_gflops = peak > 0 ? peak : (o.prec == 0 || o.prec == 2) ? ROOF_PEAK_S : ROOF_PEAK_D;

    /* Threads: ours and the baseline run on the same OpenMP thread count.
       OpenBLAS runs single-threaded inside both; its OpenMP build also resets
       the OpenMP thread count in openblas_set_num_threads, so restore it. */
#ifdef _OPENMP
    if (o.threads > 0) omp_set_num_threads(o.threads);
    o.threads = omp_get_max_threads();
#else
    o.threads = 1;
#endif
#ifdef HAVE_OPENBLAS_SET_NUM_THREADS
    openblas_set_num_threads(1);
#endif
#ifdef _OPENMP
    omp_set_num_threads(o.threads);
#endif

    if (do_probe) {
        double bws = 0, pd = 0, ps = 0;
        probe(o.threads, &bws, &pd, &ps);
        printf("# probe: STREAM copy %.1f GB/s (x1.5 with write-allocate: %.1f GB/s); GEMM n=2048, one per "
               "thread, OpenBLAS 1 thread: %.0f GFLOP/s double, %.0f single\n", bws, 1.5 * bws, pd, ps);
        if (!bw_set) o.bw_gbs = 1.5 * bws;
        if (peak <= 0) o.peak_gflops = (o.prec == 0 || o.prec == 2) ? ps : pd;
    }

    int rc = batchblas_set_backend((batchblas_backend_t)o.backend);
    if (rc != BblasSuccess) {
        fprintf(stderr, "batchblas-bench: backend %s: %s\n",
                batchblas_backend_name((batchblas_backend_t)o.backend), batchblas_strerror(rc));
        return 1;
    }

    static const bench_prec_ops *const all[4] = {&bb_s_bench_ops, &bb_d_bench_ops, &bb_c_bench_ops,
                                                 &bb_z_bench_ops};
    const bench_prec_ops *ops = all[o.prec];
    const char *labels[SCAN_MAX] = {"ours", "baseline"};
    int nres = o.baseline ? 2 : 1;
    void (*runs[SCAN_MAX])(bench_set *) = {ops->run_ours, ops->run_base};
    if (o.scan) {
        static void (*const thunks[SCAN_MAX])(bench_set *) = {scan_run0, scan_run1, scan_run2, scan_run3};
        scan_ops = ops;
        nres = scan_n;
        for (int k = 0; k < scan_n; k++) {
            labels[k] = scan_label[k];
            runs[k] = thunks[k];
        }
    }

    FILE *csv = NULL;
    if (o.csv) {
        int fresh = access(o.csv, F_OK) != 0;
        csv = fopen(o.csv, "a");
        if (!csv) { fprintf(stderr, "batchblas-bench: %s: %s\n", o.csv, strerror(errno)); return 1; }
        if (fresh) bench_csv_header(csv);
    }
    if (!o.quiet) bench_print_header(stdout, &o, labels, nres);

    int failed = 0;
    for (int k = 0; k < nsizes; k++) {
        bench_set s;
        if (ops->setup(&o, sizes[k], &s)) { failed = 1; continue; }
        bench_result r[SCAN_MAX];
        memset(r, 0, sizeof r);
        bench_measure(ops, &s, runs, nres, r);
        bench_print_row(stdout, &o, &s, r, nres);
        if (csv) {
            if (o.scan) {
                for (int j = 0; j < nres; j++) {
                    char impl[64];
                    snprintf(impl, sizeof impl, "ours@%s%s", scan_label[j] + 8, bench_pinned ? "+pinned" : "");
                    for (char *c = impl; *c; c++) if (*c == ',') *c = ' ';
                    bench_csv_row(csv, &o, &s, impl, &r[j]);
                }
            } else {
                bench_csv_row(csv, &o, &s, "ours", &r[0]);
                if (o.baseline) bench_csv_row(csv, &o, &s, "baseline", &r[1]);
            }
        }
        for (int j = 0; j < nres; j++)
            if (!r[j].ok) failed = 1;
        ops->release(&s);
    }
    if (csv) fclose(csv);
    return failed ? 1 : 0;
}
