/*
 * batchblas-bench-gpu: the GPU table in one run.
 *
 * 1. Measures the two ceilings on the device: device-to-device copy bandwidth
 *    (bytes read + written / time, cudaMemcpy) and the large-GEMM rate of
 *    each precision (cublasDgemm / cublasSgemm, 8192^3).
 * 2. For each routine, precision and size: ours through the public _dev API
 *    on a queue (strided device data, info mode None while timing), then one
 *    checked run in mode All verified against a CPU reference on a sample of
 *    problems (tests/testutil: tu_ratio / tu_accept), and the vendor
 *    baseline (cuBLAS / cuSOLVER) on the same data in the same run.
 *
 * Timing: CUDA events on the queue's stream around one call (host-side
 * cost of the call included, as the user pays it); two warm-ups, then the
 * median of >= 5 reps; before every rep, outside the events, in-place
 * inputs are restored from a pristine copy and L2 is flushed.
 *
 * Units (each matrix counted once; pivots and info left out):
 *   routine  flops            bytes (elements)
 *   getrf    2n^3/3           2n^2   (A read + written)
 *   inverse  2n^3             2n^2   (A read, inverse written; ours = geinv, one call A -> C;
 *                                     vendor = getrfBatched + getriBatched, or matinvBatched)
 *   getri    4n^3/3           2n^2   (printed with inverse: the LU factors read, the inverse
 *                                     written; ours in place, vendor getriBatched out of place)
 *   potrf    n^3/3            2n^2
 *   trsm     n^3 (nrhs = n)   3n^2   (A read, B read + written; left lower notrans non-unit)
 *   potrs    2n^3 (nrhs = n)  3n^2   (vendor: cusolver potrsBatched, nrhs = 1 only: its own floor)
 *   gemm     2n^3             3n^2   (beta = 0: A, B read, C written)
 *   gecond   2n^3             n^2    (+ one real per problem; no vendor)
 * floor = max(bytes / copy bandwidth, flops / GEMM rate of the precision).
 *
 * Options: --routines getrf,inverse,potrf,trsm,potrs,gemm,gecond  --sizes 4,8,...
 *          --precs d,s  --reps N  --csv FILE  --quick (smaller batches, 5 reps)
 *          --no-vendor  --batch N (force the batch of every row)
 *          --extras (also: host data through PCIe, variable sizes; see extras())
 *
 * Built with -DBB_BENCH_DIRECT it calls the launch policy (bb_cuda_launch)
 * directly instead of the public API (kernel time without the driver).
 */
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <cusolverDn.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include "batchblas.h"
extern "C" {
#include "testutil.h"
}
#ifdef BB_BENCH_DIRECT
#include "cuda_internal.h"
#endif

/* ------------------------------------------------------------------------ */
/* errors                                                                    */
/* ------------------------------------------------------------------------ */

static void die(const char *what, const char *msg, int line)
{
    fprintf(stderr, "batchblas-bench-gpu: %s failed (%s) at line %d\n", what, msg, line);
    exit(2);
}
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) die(#x, cudaGetErrorString(e_), __LINE__); } while (0)
#define CB(x) do { cublasStatus_t s_ = (x); if (s_ != CUBLAS_STATUS_SUCCESS) { char b_[32]; snprintf(b_, 32, "cublas status %d", (int)s_); die(#x, b_, __LINE__); } } while (0)
#define CS(x) do { cusolverStatus_t s_ = (x); if (s_ != CUSOLVER_STATUS_SUCCESS) { char b_[32]; snprintf(b_, 32, "cusolver status %d", (int)s_); die(#x, b_, __LINE__); } } while (0)

/* ------------------------------------------------------------------------ */
/* options                                                                   */
/* ------------------------------------------------------------------------ */

enum { R_GETRF, R_INVERSE, R_POTRF, R_TRSM, R_POTRS, R_GEMM, R_GECOND, R_N };
static const char *rname[R_N] = {"getrf", "inverse", "potrf", "trsm", "potrs", "gemm", "gecond"};

struct opts {
    bool routine[R_N];
    std::vector<int> sizes;
    std::vector<char> precs;
    int reps = 7;
    bool quick = false, vendor = true, extras = false;
    long long batch = 0;
    const char *csv = NULL;
};

static std::vector<std::string> split(const char *s)
{
    std::vector<std::string> v;
    std::string cur;
    for (; *s; s++) {
        if (*s == ',') { if (!cur.empty()) v.push_back(cur); cur.clear(); }
        else cur += *s;
    }
    if (!cur.empty()) v.push_back(cur);
    return v;
}

static void usage(void)
{
    printf("usage: batchblas-bench-gpu [--routines getrf,inverse,potrf,trsm,potrs,gemm,gecond]\n"
           "       [--sizes 4,8,16,32,64,128,256] [--precs d,s] [--reps N] [--batch N]\n"
           "       [--csv FILE] [--quick] [--no-vendor] [--extras]\n");
}

static opts parse(int argc, char **argv)
{
    opts o;
    for (int r = 0; r < R_N; r++) o.routine[r] = true;
    o.sizes = {4, 8, 16, 32, 64, 128, 256};
    o.precs = {'d', 's'};
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (a == "--quick") o.quick = true;
        else if (a == "--no-vendor") o.vendor = false;
        else if (a == "--extras") o.extras = true;
        else if (a == "--help" || a == "-h") { usage(); exit(0); }
        else if (!v) { usage(); exit(1); }
        else if (a == "--routines") {
            for (int r = 0; r < R_N; r++) o.routine[r] = false;
            for (auto &s : split(v)) {
                int found = 0;
                for (int r = 0; r < R_N; r++)
                    if (s == rname[r] || (r == R_INVERSE && s == "getri")) { o.routine[r] = true; found = 1; }
                if (!found) { fprintf(stderr, "unknown routine %s\n", s.c_str()); exit(1); }
            }
            i++;
        } else if (a == "--sizes") {
            o.sizes.clear();
            for (auto &s : split(v)) o.sizes.push_back(atoi(s.c_str()));
            i++;
        } else if (a == "--precs") {
            o.precs.clear();
            for (auto &s : split(v)) o.precs.push_back(s[0]);
            i++;
        } else if (a == "--reps") { o.reps = std::max(5, atoi(v)); i++; }
        else if (a == "--batch") { o.batch = atoll(v); i++; }
        else if (a == "--csv") { o.csv = v; i++; }
        else { usage(); exit(1); }
    }
    if (o.quick) o.reps = 5;
    return o;
}

/* ------------------------------------------------------------------------ */
/* device data                                                               */
/* ------------------------------------------------------------------------ */

__device__ __forceinline__ double hash01(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    x ^= x >> 31;
    return (double)(x >> 11) * (2.0 / 9007199254740992.0) - 1.0; /* [-1, 1) */
}

enum { F_UNIFORM, F_SPD, F_TRI };

/* count n x n matrices, lda = n, stride n^2:
   F_UNIFORM  uniform [-1, 1)
   F_SPD      symmetric, uniform off the diagonal, n + |u| on it (diagonally dominant: SPD)
   F_TRI      uniform, n + |u| on the diagonal (a well-conditioned triangle either way) */
template <typename T>
__global__ void k_fill(T *A, int n, long long count, int kind, uint64_t seed)
{
    const long long total = (long long)n * n * count;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += (long long)gridDim.x * blockDim.x) {
        const long long p = e / ((long long)n * n);
        const int r = (int)(e % ((long long)n * n));
        const int i = r % n, j = r / n;
        uint64_t key = seed * 0x100000001B3ull + (uint64_t)e;
        if (kind == F_SPD) {
            int a = i < j ? i : j, b = i < j ? j : i;
            key = seed * 0x100000001B3ull + (uint64_t)(p * n * n + a + (long long)b * n);
        }
        double v = hash01(key);
        if (kind != F_UNIFORM && i == j) v = n + fabs(v);
        A[e] = (T)v;
    }
}

template <typename T>
__global__ void k_ptrs(T **P, T *base, long long stride, long long count)
{
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (long long)gridDim.x * blockDim.x)
        P[i] = base + i * stride;
}

static unsigned grid_for(long long n, int bs) { return (unsigned)std::min<long long>((n + bs - 1) / bs, 65535); }

template <typename T>
static void fill(T *A, int n, long long count, int kind, uint64_t seed, cudaStream_t s)
{
    k_fill<T><<<grid_for((long long)n * n * count, 256), 256, 0, s>>>(A, n, count, kind, seed);
    CK(cudaGetLastError());
}

template <typename T>
static T **ptrs(T *base, long long stride, long long count, cudaStream_t s)
{
    T **p;
    CK(cudaMalloc(&p, count * sizeof(T *)));
    k_ptrs<T><<<grid_for(count, 256), 256, 0, s>>>(p, base, stride, count);
    CK(cudaGetLastError());
    return p;
}

/* ------------------------------------------------------------------------ */
/* timing                                                                    */
/* ------------------------------------------------------------------------ */

struct timer {
    cudaStream_t s;
    cudaEvent_t a, b;
    void *flush = NULL;
    size_t flush_bytes = 0;
    double host_us = 0; /* median host time inside call() of the last run() */
    void init(cudaStream_t st)
    {
        s = st;
        CK(cudaEventCreate(&a));
        CK(cudaEventCreate(&b));
        int l2 = 0;
        CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
        flush_bytes = std::max<size_t>((size_t)l2 * 4, (size_t)256 << 20);
        CK(cudaMalloc(&flush, flush_bytes));
    }
    /* median of reps timed calls; restore() runs before each, outside the events */
    template <typename C, typename Rs>
    double run(int reps, C call, Rs restore)
    {
        std::vector<float> t;
        std::vector<double> h;
        for (int r = 0; r < 2; r++) { restore(); call(); }
        CK(cudaStreamSynchronize(s));
        for (int r = 0; r < reps; r++) {
            restore();
            CK(cudaMemsetAsync(flush, r & 0xff, flush_bytes, s));
            CK(cudaEventRecord(a, s));
            const double h0 = tu_now();
            call();
            h.push_back(1e6 * (tu_now() - h0));
            CK(cudaEventRecord(b, s));
            CK(cudaEventSynchronize(b));
            float ms;
            CK(cudaEventElapsedTime(&ms, a, b));
            t.push_back(ms);
        }
        std::sort(t.begin(), t.end());
        std::sort(h.begin(), h.end());
        host_us = h[h.size() / 2];
        return t[t.size() / 2];
    }
};

/* ------------------------------------------------------------------------ */
/* ours: the public _dev API (or the launch policy directly)                 */
/* ------------------------------------------------------------------------ */

#ifdef BB_BENCH_DIRECT
/* the plugin's internals, linked in statically: its two workspaces */
static void *grow(batchblas_queue *q, void **buf, size_t *size, size_t bytes)
{
    if (*size >= bytes) return *buf;
    CK(cudaStreamSynchronize(q->stream));
    if (*buf) CK(cudaFree(*buf));
    *buf = NULL;
    *size = 0;
    if (cudaMalloc(buf, bytes) != cudaSuccess) return NULL;
    *size = bytes;
    return *buf;
}
void *bb_cuda_workspace(batchblas_queue *q, size_t bytes) { return grow(q, &q->work, &q->work_size, bytes); }
void *bb_cuda_workspace2(batchblas_queue *q, size_t bytes) { return grow(q, &q->work2, &q->work2_size, bytes); }
static batchblas_queue g_direct_q;
static int *g_dinfo = NULL;
static long long g_dinfo_n = 0;

template <typename T> static bb_prec precof();
template <> bb_prec precof<float>() { return BB_P_S; }
template <> bb_prec precof<double>() { return BB_P_D; }

static bb_problem blank_problem(void)
{
    bb_problem p;
    memset(&p, 0, sizeof p);
    p.trans = p.transb = BblasNoTrans;
    return p;
}
/* one launch on strided device data; codes into info[1..count] (mode All) */
static void direct(bb_op op, bb_prec prec, const bb_problem &p, long long count, void *A, long long sa, void *B,
                   long long sb, void *C, long long sc, int *ipiv, long long sp, void *Y, int *info)
{
    if (g_dinfo_n < count) {
        if (g_dinfo) CK(cudaFree(g_dinfo));
        CK(cudaMalloc(&g_dinfo, count * sizeof(int)));
        g_dinfo_n = count;
    }
    batchblas_queue *q = &g_direct_q;
    CK(cudaMemsetAsync(g_dinfo, 0, count * sizeof(int), q->stream));
    bb_dev_batch d;
    memset(&d, 0, sizeof d);
    d.count = count;
    d.info = g_dinfo;
    d.opd[BB_A].base = (char *)A; d.opd[BB_A].stride = sa;
    d.opd[BB_B].base = (char *)B; d.opd[BB_B].stride = sb;
    d.opd[BB_C].base = (char *)C; d.opd[BB_C].stride = sc;
    d.opd[BB_IPIV].base = (char *)ipiv; d.opd[BB_IPIV].stride = sp;
    d.opd[BB_Y].base = (char *)Y; d.opd[BB_Y].stride = 1;
    cudaError_t e = bb_cuda_launch(op, prec, p, d, q);
    if (e != cudaSuccess) {
        fprintf(stderr, "bb_cuda_launch: %s\n", cudaGetErrorString(e));
        (void)cudaGetLastError();
        std::vector<int> bad(count, -1001);
        CK(cudaMemcpy(g_dinfo, bad.data(), count * sizeof(int), cudaMemcpyHostToDevice));
    }
    if (info && info[0] == BblasErrorsReportAll) {
        CK(cudaMemcpyAsync(info + 1, g_dinfo, count * sizeof(int), cudaMemcpyDeviceToHost, q->stream));
        CK(cudaStreamSynchronize(q->stream));
        info[0] = 0;
    }
}
#endif

template <typename T> struct api;

#ifndef BB_BENCH_DIRECT
#define API_T(T, P, L)                                                                                          \
    template <> struct api<T> {                                                                                 \
        static void getrf(int n, T *A, long long sa, int *ip, int c, int *info, batchblas_queue_t q)            \
        { lapack_##L##getrf_batch_strided_dev(BblasColMajor, n, n, A, n, sa, ip, n, c, info, q); }              \
        static void getri(int n, T *A, long long sa, int *ip, int c, int *info, batchblas_queue_t q)            \
        { lapack_##L##getri_batch_strided_dev(BblasColMajor, n, A, n, sa, ip, n, c, info, q); }                 \
        static void potrf(int n, T *A, long long sa, int c, int *info, batchblas_queue_t q)                     \
        { lapack_##L##potrf_batch_strided_dev(BblasColMajor, BblasLower, n, A, n, sa, c, info, q); }            \
        static void trsm(int n, const T *A, long long sa, T *B, long long sb, int c, int *info, batchblas_queue_t q) \
        { blas_##L##trsm_batch_strided_dev(BblasColMajor, BblasLeft, BblasLower, BblasNoTrans, BblasNonUnit, n, n, \
                                           (T)1, A, n, sa, B, n, sb, c, info, q); }                               \
        static void potrs(int n, const T *A, long long sa, T *B, long long sb, int c, int *info, batchblas_queue_t q) \
        { lapack_##L##potrs_batch_strided_dev(BblasColMajor, BblasLower, n, n, A, n, sa, B, n, sb, c, info, q); } \
        static void gemm(int n, const T *A, const T *B, T *C, long long s, int c, int *info, batchblas_queue_t q) \
        { blas_##L##gemm_batch_strided_dev(BblasColMajor, BblasNoTrans, BblasNoTrans, n, n, n, (T)1, A, n, s, B, n, s, \
                                           (T)0, C, n, s, c, info, q); }                                         \
        static void gecond(int n, const T *A, long long sa, T *y, int c, int *info, batchblas_queue_t q)         \
        { lapack_##L##gecond_batch_strided_dev(BblasColMajor, BblasOneNorm, n, A, n, sa, y, c, info, q); }       \
        static void geinv(int n, const T *A, long long sa, T *C, int c, int *info, batchblas_queue_t q)          \
        { lapack_##L##geinv_batch_strided_dev(BblasColMajor, n, A, n, sa, C, n, sa, c, info, q); }               \
    };
API_T(double, BB_P_D, d)
API_T(float, BB_P_S, s)
#else
template <typename T> struct api {
    static bb_problem sq(int n) { bb_problem p = blank_problem(); p.m = p.n = n; p.lda = p.ldb = p.ldc = n; return p; }
    static void getrf(int n, T *A, long long sa, int *ip, int c, int *info, batchblas_queue_t)
    { direct(BB_OP_GETRF, precof<T>(), sq(n), c, A, sa, 0, 0, 0, 0, ip, n, 0, info); }
    static void getri(int n, T *A, long long sa, int *ip, int c, int *info, batchblas_queue_t)
    { direct(BB_OP_GETRI, precof<T>(), sq(n), c, A, sa, 0, 0, 0, 0, ip, n, 0, info); }
    static void potrf(int n, T *A, long long sa, int c, int *info, batchblas_queue_t)
    { bb_problem p = sq(n); p.uplo = BblasLower; direct(BB_OP_POTRF, precof<T>(), p, c, A, sa, 0, 0, 0, 0, 0, 0, 0, info); }
    static void trsm(int n, const T *A, long long sa, T *B, long long sb, int c, int *info, batchblas_queue_t)
    {
        bb_problem p = sq(n); p.side = BblasLeft; p.uplo = BblasLower; p.trans = BblasNoTrans; p.diag = BblasNonUnit;
        p.alpha[0] = 1;
        direct(BB_OP_TRSM, precof<T>(), p, c, (void *)A, sa, B, sb, 0, 0, 0, 0, 0, info);
    }
    static void potrs(int n, const T *A, long long sa, T *B, long long sb, int c, int *info, batchblas_queue_t)
    { bb_problem p = sq(n); p.uplo = BblasLower; p.nrhs = n; direct(BB_OP_POTRS, precof<T>(), p, c, (void *)A, sa, B, sb, 0, 0, 0, 0, 0, info); }
    static void gemm(int n, const T *A, const T *B, T *C, long long s, int c, int *info, batchblas_queue_t)
    { bb_problem p = sq(n); p.k = n; p.alpha[0] = 1; direct(BB_OP_GEMM, precof<T>(), p, c, (void *)A, s, (void *)B, s, C, s, 0, 0, 0, info); }
    static void gecond(int n, const T *A, long long sa, T *y, int c, int *info, batchblas_queue_t)
    { bb_problem p = sq(n); p.norm = BblasOneNorm; direct(BB_OP_GECOND, precof<T>(), p, c, (void *)A, sa, 0, 0, 0, 0, 0, 0, y, info); }
    static void geinv(int n, const T *A, long long sa, T *C, int c, int *info, batchblas_queue_t)
    { direct(BB_OP_GEINV, precof<T>(), sq(n), c, (void *)A, sa, C, sa, 0, 0, 0, 0, 0, info); }
};
#endif

/* ------------------------------------------------------------------------ */
/* vendor wrappers                                                           */
/* ------------------------------------------------------------------------ */

static cublasStatus_t v_getrf(cublasHandle_t h, int n, double **A, int *P, int *I, int c) { return cublasDgetrfBatched(h, n, A, n, P, I, c); }
static cublasStatus_t v_getrf(cublasHandle_t h, int n, float **A, int *P, int *I, int c) { return cublasSgetrfBatched(h, n, A, n, P, I, c); }
static cublasStatus_t v_getri(cublasHandle_t h, int n, double **A, int *P, double **C, int *I, int c) { return cublasDgetriBatched(h, n, A, n, P, C, n, I, c); }
static cublasStatus_t v_getri(cublasHandle_t h, int n, float **A, int *P, float **C, int *I, int c) { return cublasSgetriBatched(h, n, A, n, P, C, n, I, c); }
static cublasStatus_t v_matinv(cublasHandle_t h, int n, double **A, double **C, int *I, int c) { return cublasDmatinvBatched(h, n, A, n, C, n, I, c); }
static cublasStatus_t v_matinv(cublasHandle_t h, int n, float **A, float **C, int *I, int c) { return cublasSmatinvBatched(h, n, A, n, C, n, I, c); }
static cublasStatus_t v_trsm(cublasHandle_t h, int n, double **A, double **B, int c)
{ const double one = 1; return cublasDtrsmBatched(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, n, &one, A, n, B, n, c); }
static cublasStatus_t v_trsm(cublasHandle_t h, int n, float **A, float **B, int c)
{ const float one = 1; return cublasStrsmBatched(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, n, &one, A, n, B, n, c); }
static cublasStatus_t v_gemm(cublasHandle_t h, int n, const double *A, const double *B, double *C, long long s, int c)
{ const double one = 1, zero = 0; return cublasDgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, s, B, n, s, &zero, C, n, s, c); }
static cublasStatus_t v_gemm(cublasHandle_t h, int n, const float *A, const float *B, float *C, long long s, int c)
{ const float one = 1, zero = 0; return cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, s, B, n, s, &zero, C, n, s, c); }
static cusolverStatus_t v_potrf(cusolverDnHandle_t h, int n, double **A, int *I, int c) { return cusolverDnDpotrfBatched(h, CUBLAS_FILL_MODE_LOWER, n, A, n, I, c); }
static cusolverStatus_t v_potrf(cusolverDnHandle_t h, int n, float **A, int *I, int c) { return cusolverDnSpotrfBatched(h, CUBLAS_FILL_MODE_LOWER, n, A, n, I, c); }
static cusolverStatus_t v_potrs(cusolverDnHandle_t h, int n, double **A, double **B, int *I, int c) { return cusolverDnDpotrsBatched(h, CUBLAS_FILL_MODE_LOWER, n, 1, A, n, B, n, I, c); }
static cusolverStatus_t v_potrs(cusolverDnHandle_t h, int n, float **A, float **B, int *I, int c) { return cusolverDnSpotrsBatched(h, CUBLAS_FILL_MODE_LOWER, n, 1, A, n, B, n, I, c); }

/* ------------------------------------------------------------------------ */
/* CPU references on sampled problems (double, column-major n x n)           */
/* ------------------------------------------------------------------------ */

typedef std::vector<double> mat;

static double fro(const mat &a) { double s = 0; for (double x : a) s += x * x; return sqrt(s); }
static mat mul(const mat &a, const mat &b, int n)
{
    mat c((size_t)n * n, 0.0);
    for (int j = 0; j < n; j++)
        for (int l = 0; l < n; l++) {
            const double t = b[l + (size_t)j * n];
            for (int i = 0; i < n; i++) c[i + (size_t)j * n] += a[i + (size_t)l * n] * t;
        }
    return c;
}
/* ||A X - I|| / (||A|| ||X||), judged with tu_ratio */
static double inverse_ratio(const mat &a, const mat &x, int n, int tuprec)
{
    mat ax = mul(a, x, n);
    for (int i = 0; i < n; i++) ax[i + (size_t)i * n] -= 1;
    return tu_ratio(fro(ax), fro(a) * fro(x), n, tuprec);
}
static double diff(const mat &a, const mat &b) { double s = 0; for (size_t i = 0; i < a.size(); i++) s += (a[i] - b[i]) * (a[i] - b[i]); return sqrt(s); }
static mat lower(const mat &a, int n, bool unit)
{
    mat l((size_t)n * n, 0.0);
    for (int j = 0; j < n; j++)
        for (int i = j; i < n; i++) l[i + (size_t)j * n] = (i == j && unit) ? 1.0 : a[i + (size_t)j * n];
    return l;
}
static mat upper(const mat &a, int n)
{
    mat u((size_t)n * n, 0.0);
    for (int j = 0; j < n; j++)
        for (int i = 0; i <= j; i++) u[i + (size_t)j * n] = a[i + (size_t)j * n];
    return u;
}
static mat transpose(const mat &a, int n)
{
    mat t((size_t)n * n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) t[j + (size_t)i * n] = a[i + (size_t)j * n];
    return t;
}
/* exact condition number (one norm) by Gauss-Jordan with partial pivoting */
static double cond1(const mat &a0, int n)
{
    mat a = a0, x((size_t)n * n, 0.0);
    for (int i = 0; i < n; i++) x[i + (size_t)i * n] = 1;
    for (int k = 0; k < n; k++) {
        int p = k;
        for (int i = k + 1; i < n; i++) if (fabs(a[i + (size_t)k * n]) > fabs(a[p + (size_t)k * n])) p = i;
        if (a[p + (size_t)k * n] == 0) return INFINITY;
        for (int j = 0; j < n; j++) { std::swap(a[k + (size_t)j * n], a[p + (size_t)j * n]); std::swap(x[k + (size_t)j * n], x[p + (size_t)j * n]); }
        const double inv = 1 / a[k + (size_t)k * n];
        for (int j = 0; j < n; j++) { a[k + (size_t)j * n] *= inv; x[k + (size_t)j * n] *= inv; }
        for (int i = 0; i < n; i++) {
            if (i == k) continue;
            const double f = a[i + (size_t)k * n];
            if (f == 0) continue;
            for (int j = 0; j < n; j++) { a[i + (size_t)j * n] -= f * a[k + (size_t)j * n]; x[i + (size_t)j * n] -= f * x[k + (size_t)j * n]; }
        }
    }
    auto n1 = [n](const mat &m) { double b = 0; for (int j = 0; j < n; j++) { double s = 0; for (int i = 0; i < n; i++) s += fabs(m[i + (size_t)j * n]); b = std::max(b, s); } return b; };
    return n1(a0) * n1(x);
}

template <typename T>
static mat fetch(const T *dev, long long p, int n)
{
    std::vector<T> h((size_t)n * n);
    CK(cudaMemcpy(h.data(), dev + p * (long long)n * n, h.size() * sizeof(T), cudaMemcpyDeviceToHost));
    return mat(h.begin(), h.end());
}

static std::vector<long long> sample_of(long long count)
{
    std::vector<long long> s = {0, count / 2, count - 1};
    uint64_t x = 12345;
    for (int k = 0; k < 5; k++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        s.push_back((long long)((x >> 33) % (uint64_t)count));
    }
    std::sort(s.begin(), s.end());
    s.erase(std::unique(s.begin(), s.end()), s.end());
    return s;
}

/* ------------------------------------------------------------------------ */
/* one row                                                                   */
/* ------------------------------------------------------------------------ */

struct row {
    const char *routine;
    char prec;
    int n;
    long long batch;
    double ours_ms, gflops, gbs, pct_bw, floor_ms, ours_floor;
    double call_us; /* host time inside our call(s) (median) */
    double vendor_ms, vendor_floor, speedup, err;
    const char *vendor;
    bool ok;
};

struct ctx {
    opts o;
    double copy_bw;           /* bytes/s, read + write */
    double gemm_rate[2];      /* flop/s: [0] single, [1] double */
    timer tm;
    cudaStream_t s;
    batchblas_queue_t q;
    cublasHandle_t cub;
    cusolverDnHandle_t cus;
    std::vector<row> rows;
    int failed = 0;
};

static double flops_of(int r, double n)
{
    switch (r) {
    case R_GETRF: return 2 * n * n * n / 3;
    case R_INVERSE: return 2 * n * n * n;
    case R_POTRF: return n * n * n / 3;
    case R_TRSM: return n * n * n;
    case R_POTRS: return 2 * n * n * n;
    case R_GEMM: return 2 * n * n * n;
    default: return 2 * n * n * n; /* gecond */
    }
}
static double bytes_of(int r, double n, size_t es)
{
    switch (r) {
    case R_TRSM: case R_POTRS: case R_GEMM: return 3 * n * n * es;
    case R_GECOND: return n * n * es + es;
    default: return 2 * n * n * es;
    }
}

/* arrays of one row */
template <typename T> struct bufs {
    T *A = NULL, *A0 = NULL, *B = NULL, *B0 = NULL, *C = NULL;
    int *ipiv = NULL, *vinfo = NULL;
    T **pA = NULL, **pB = NULL, **pC = NULL;
    void release()
    {
        T *m[] = {A, A0, B, B0, C};
        for (T *x : m) if (x) cudaFree(x);
        T **pp[] = {pA, pB, pC};
        for (T **x : pp) if (x) cudaFree(x);
        if (ipiv) cudaFree(ipiv);
        if (vinfo) cudaFree(vinfo);
    }
};

/* One table row: ours and the vendor against the floor of the same run. */
static void emit_row(ctx &c, const char *rn, char pc, int n, long long count, double ours, double call_us,
                     double flops1, double bytes1, double vend, const char *vname, double vflops, double vbytes,
                     bool no_speedup, bool ok, double worst, long long bad_info)
{
    const double rate = c.gemm_rate[pc == 'd'];
    const double fl = flops1 * count, by = bytes1 * count;
    row w;
    w.routine = rn;
    w.prec = pc;
    w.n = n;
    w.batch = count;
    w.ours_ms = ours;
    w.call_us = call_us;
    w.gflops = fl / (ours * 1e-3) / 1e9;
    w.gbs = by / (ours * 1e-3) / 1e9;
    w.pct_bw = 100.0 * by / (ours * 1e-3) / c.copy_bw;
    w.floor_ms = 1e3 * std::max(by / c.copy_bw, fl / rate);
    w.ours_floor = ours / w.floor_ms;
    w.vendor_ms = vend;
    const double vfloor = 1e3 * std::max(vbytes * count / c.copy_bw, vflops * count / rate);
    w.vendor_floor = vend / vfloor;
    w.speedup = no_speedup ? NAN : vend / ours; /* potrs: the vendor solves one column only */
    w.err = worst;
    w.vendor = vname;
    w.ok = ok;
    if (!ok) {
        c.failed++;
        fprintf(stderr, "CHECK FAILED: %s %c n=%d: %lld nonzero info codes, worst ratio %.3g\n", rn, pc, n, bad_info,
                worst);
    }
    c.rows.push_back(w);
    char vm[16] = "-", vf[16] = "-", sp[16] = "-";
    if (!std::isnan(w.vendor_ms)) {
        snprintf(vm, sizeof vm, "%.4f", w.vendor_ms);
        snprintf(vf, sizeof vf, "%.2fx", w.vendor_floor);
    }
    if (!std::isnan(w.speedup)) snprintf(sp, sizeof sp, "%.2fx", w.speedup);
    printf("%-7s %c %4d %8lld %9.4f %7.1f %9.1f %7.1f %5.1f%% %9.4f %6.2fx %9s %7s %7s %8.2g %-4s %s\n", w.routine,
           w.prec, w.n, w.batch, w.ours_ms, w.call_us, w.gflops, w.gbs, w.pct_bw, w.floor_ms, w.ours_floor, vm, vf, sp,
           w.err, w.ok ? "ok" : "FAIL", w.vendor);
    fflush(stdout);
}

template <typename T>
static void bench_row(ctx &c, int r, int n)
{
    const char pc = sizeof(T) == 8 ? 'd' : 's';
    const int tuprec = sizeof(T) == 8 ? 1 : 0;
    const size_t es = sizeof(T);
    const long long nn = (long long)n * n;
    cudaStream_t s = c.s;

    /* batch: 10^6 for n <= 32, ~10240 above (less in quick mode), bounded by memory */
    long long count = c.o.batch ? c.o.batch : (n <= 32 ? (c.o.quick ? 100000 : 1000000) : (c.o.quick ? 2048 : 10240));
    int nmat = (r == R_GETRF || r == R_POTRF) ? 2 : (r == R_INVERSE) ? 3 : (r == R_GECOND) ? 1 : 3;
    if (r == R_TRSM || r == R_POTRS) nmat = 3;
    size_t per = (size_t)nmat * nn * es + (size_t)n * sizeof(int) + 4 * sizeof(void *) + 2 * sizeof(int) + es;
    size_t freeb, totalb;
    CK(cudaMemGetInfo(&freeb, &totalb));
    long long fit = (long long)((double)freeb * 0.75 / per);
    if (count > fit) count = fit;
    if (count < 1) { fprintf(stderr, "no memory for %s n=%d\n", rname[r], n); return; }

    bufs<T> b;
    const size_t mb = (size_t)count * nn * es;
    CK(cudaMalloc(&b.A, mb));
    const uint64_t seed = (uint64_t)(r * 1000 + n) * 7 + (sizeof(T) == 8);
    switch (r) {
    case R_GETRF: case R_INVERSE: case R_GECOND: fill(b.A, n, count, F_UNIFORM, seed, s); break;
    case R_POTRF: fill(b.A, n, count, F_SPD, seed, s); break;
    case R_TRSM: case R_POTRS: fill(b.A, n, count, F_TRI, seed, s); break;
    case R_GEMM: fill(b.A, n, count, F_UNIFORM, seed, s); break;
    }
    if (r == R_GETRF || r == R_INVERSE || r == R_POTRF) { CK(cudaMalloc(&b.A0, mb)); CK(cudaMemcpyAsync(b.A0, b.A, mb, cudaMemcpyDeviceToDevice, s)); }
    if (r == R_TRSM || r == R_POTRS || r == R_GEMM) {
        CK(cudaMalloc(&b.B, mb));
        fill(b.B, n, count, F_UNIFORM, seed + 1, s);
        if (r != R_GEMM) { CK(cudaMalloc(&b.B0, mb)); CK(cudaMemcpyAsync(b.B0, b.B, mb, cudaMemcpyDeviceToDevice, s)); }
    }
    if (r == R_GEMM || r == R_INVERSE) CK(cudaMalloc(&b.C, mb));
    if (r == R_GECOND) CK(cudaMalloc(&b.C, (size_t)count * es)); /* the condition numbers */
    if (r == R_GETRF || r == R_INVERSE) CK(cudaMalloc(&b.ipiv, (size_t)count * n * sizeof(int)));
    CK(cudaMalloc(&b.vinfo, (size_t)count * sizeof(int)));
    CK(cudaStreamSynchronize(s));

    auto restoreA = [&] { if (b.A0) CK(cudaMemcpyAsync(b.A, b.A0, mb, cudaMemcpyDeviceToDevice, s)); };
    auto restoreB = [&] { if (b.B0) CK(cudaMemcpyAsync(b.B, b.B0, mb, cudaMemcpyDeviceToDevice, s)); };
    auto nothing = [] {};

    /* ---- ours: timed in mode None */
    int info_none[1];
    const int ic = (int)count;
    auto call_ours = [&](int *info) {
        switch (r) {
        case R_GETRF: api<T>::getrf(n, b.A, nn, b.ipiv, ic, info, c.q); break;
        case R_INVERSE: api<T>::geinv(n, b.A, nn, b.C, ic, info, c.q); break; /* one call, A -> C */
        case R_POTRF: api<T>::potrf(n, b.A, nn, ic, info, c.q); break;
        case R_TRSM: api<T>::trsm(n, b.A, nn, b.B, nn, ic, info, c.q); break;
        case R_POTRS: api<T>::potrs(n, b.A, nn, b.B, nn, ic, info, c.q); break;
        case R_GEMM: api<T>::gemm(n, b.A, b.B, b.C, nn, ic, info, c.q); break;
        case R_GECOND: api<T>::gecond(n, b.A, nn, b.C, ic, info, c.q); break;
        }
    };
    double ours = c.tm.run(c.o.reps, [&] { info_none[0] = BblasErrorsReportNone; call_ours(info_none); },
                           [&] { if (r == R_TRSM || r == R_POTRS) restoreB(); else restoreA(); });
    const double call_us = c.tm.host_us;
    CK(cudaStreamSynchronize(s));
    CK(cudaGetLastError());

    /* ---- ours: one checked run in mode All */
    restoreA();
    restoreB();
    CK(cudaStreamSynchronize(s));
    std::vector<int> info(count + 1);
    info[0] = BblasErrorsReportAll;
    call_ours(info.data());
    CK(cudaStreamSynchronize(s));
    long long bad_info = 0;
    for (long long i = 1; i <= count; i++) bad_info += info[i] != 0;
    if (info[0] != 0) bad_info++;
    double worst = 0;
    bool ok = bad_info == 0;
    for (long long p : sample_of(count)) {
        double rt = 0;
        if (r == R_GECOND) {
            mat a = fetch(b.A, p, n);
            T y;
            CK(cudaMemcpy(&y, b.C + p, sizeof(T), cudaMemcpyDeviceToHost));
            const double cr = cond1(a, n);
            rt = tu_ratio(fabs((double)y - cr), cr * cr, n, tuprec);
        } else if (r == R_GEMM) {
            mat a = fetch(b.A, p, n), bb = fetch(b.B, p, n), cc = fetch(b.C, p, n);
            rt = tu_ratio(diff(cc, mul(a, bb, n)), fro(a) * fro(bb), n, tuprec);
        } else {
            mat a0 = fetch(b.A0 ? b.A0 : b.A, p, n), f = fetch(r == R_INVERSE ? b.C : b.A, p, n);
            switch (r) {
            case R_GETRF: {
                std::vector<int> ip(n);
                CK(cudaMemcpy(ip.data(), b.ipiv + p * n, n * sizeof(int), cudaMemcpyDeviceToHost));
                mat pa = a0;
                for (int k = 0; k < n; k++) {
                    const int q = ip[k] - 1;
                    if (q < k || q >= n) { ok = false; continue; }
                    for (int j = 0; j < n; j++) std::swap(pa[k + (size_t)j * n], pa[q + (size_t)j * n]);
                }
                rt = tu_ratio(diff(pa, mul(lower(f, n, true), upper(f, n), n)), fro(a0), n, tuprec);
                break;
            }
            case R_INVERSE: rt = inverse_ratio(a0, f, n, tuprec); break;
            case R_POTRF: {
                mat l = lower(f, n, false);
                /* only the lower triangle of A counts */
                rt = tu_ratio(diff(lower(a0, n, false), lower(mul(l, transpose(l, n), n), n, false)), fro(a0), n, tuprec);
                break;
            }
            case R_TRSM: case R_POTRS: {
                mat l = lower(a0, n, false), x = fetch(b.B, p, n), bb = fetch(b.B0, p, n);
                mat m = r == R_TRSM ? l : mul(l, transpose(l, n), n);
                rt = tu_ratio(diff(mul(m, x, n), bb), fro(m) * fro(x), n, tuprec);
                break;
            }
            }
        }
        if (!tu_accept(rt)) ok = false;
        worst = std::max(worst, rt);
    }

    /* ---- ours, getri alone (inverse rows): on the LU factors of getrf */
    double g_ours = NAN, g_call = 0, g_vend = NAN, g_worst = 0;
    bool g_ok = true;
    if (r == R_INVERSE) {
        restoreA();
        int i0[1] = {BblasErrorsReportNone};
        api<T>::getrf(n, b.A, nn, b.ipiv, ic, i0, c.q);
        CK(cudaMemcpyAsync(b.C, b.A, mb, cudaMemcpyDeviceToDevice, s)); /* the factors, kept */
        g_ours = c.tm.run(c.o.reps, [&] { i0[0] = BblasErrorsReportNone; api<T>::getri(n, b.A, nn, b.ipiv, ic, i0, c.q); },
                          [&] { CK(cudaMemcpyAsync(b.A, b.C, mb, cudaMemcpyDeviceToDevice, s)); });
        g_call = c.tm.host_us;
        CK(cudaStreamSynchronize(s));
        for (long long p : sample_of(count)) {
            const double rt = inverse_ratio(fetch(b.A0, p, n), fetch(b.A, p, n), n, tuprec);
            if (!tu_accept(rt)) g_ok = false;
            g_worst = std::max(g_worst, rt);
        }
    }

    /* ---- vendor */
    double vend = NAN, vflops = flops_of(r, n), vbytes = bytes_of(r, n, es);
    const char *vname = "-";
    bool vfail = false; /* a vendor error is reported in the row, never fatal */
    auto VB = [&](cublasStatus_t st) { if (st != CUBLAS_STATUS_SUCCESS) vfail = true; };
    auto VS = [&](cusolverStatus_t st) { if (st != CUSOLVER_STATUS_SUCCESS) vfail = true; };
    if (c.o.vendor && r != R_GECOND) {
        CB(cublasSetStream(c.cub, s));
        CS(cusolverDnSetStream(c.cus, s));
        if (r != R_GEMM) b.pA = ptrs(b.A, nn, count, s);
        if (r == R_TRSM || r == R_POTRS) b.pB = ptrs(b.B, nn, count, s);
        if (r == R_INVERSE) b.pC = ptrs(b.C, nn, count, s);
        switch (r) {
        case R_GETRF:
            vname = "cublasGetrfBatched";
            vend = c.tm.run(c.o.reps, [&] { VB(v_getrf(c.cub, n, b.pA, b.ipiv, b.vinfo, ic)); }, restoreA);
            break;
        case R_INVERSE: {
            vname = "getrfB+getriB";
            vend = c.tm.run(c.o.reps, [&] {
                VB(v_getrf(c.cub, n, b.pA, b.ipiv, b.vinfo, ic));
                VB(v_getri(c.cub, n, b.pA, b.ipiv, b.pC, b.vinfo, ic));
            }, restoreA);
            /* getri alone, on cuBLAS's own factors (out of place, into C) */
            restoreA();
            VB(v_getrf(c.cub, n, b.pA, b.ipiv, b.vinfo, ic));
            g_vend = c.tm.run(c.o.reps, [&] { VB(v_getri(c.cub, n, b.pA, b.ipiv, b.pC, b.vinfo, ic)); }, nothing);
            if (n <= 32) {
                const bool before = vfail;
                double mi = c.tm.run(c.o.reps, [&] { VB(v_matinv(c.cub, n, b.pA, b.pC, b.vinfo, ic)); }, restoreA);
                if (!before && vfail) vfail = false; /* matinv refused: keep getrf + getri */
                else if (mi < vend) { vend = mi; vname = "cublasMatinvBatched"; }
            }
            break;
        }
        case R_POTRF:
            vname = "cusolverPotrfBatched";
            vend = c.tm.run(c.o.reps, [&] { VS(v_potrf(c.cus, n, b.pA, b.vinfo, ic)); }, restoreA);
            break;
        case R_TRSM:
            vname = "cublasTrsmBatched";
            vend = c.tm.run(c.o.reps, [&] { VB(v_trsm(c.cub, n, b.pA, b.pB, ic)); }, restoreB);
            break;
        case R_POTRS:
            /* nrhs = 1 only: its own flops and bytes (A read, one column read + written) */
            vname = "cusolverPotrsB(nrhs=1)";
            vflops = 2.0 * n * n;
            vbytes = ((double)nn + 2.0 * n) * es;
            vend = c.tm.run(c.o.reps, [&] { VS(v_potrs(c.cus, n, b.pA, b.pB, b.vinfo, ic)); }, restoreB);
            break;
        case R_GEMM:
            vname = "cublasGemmStridedBatched";
            vend = c.tm.run(c.o.reps, [&] { VB(v_gemm(c.cub, n, b.A, b.B, b.C, nn, ic)); }, nothing);
            break;
        }
        CK(cudaStreamSynchronize(s));
        CK(cudaGetLastError());
        if (vfail) { vend = g_vend = NAN; vname = "vendor call failed"; }
    }

    /* ---- the row */
    emit_row(c, rname[r], pc, n, count, ours, call_us, flops_of(r, n), bytes_of(r, n, es), vend, vname, vflops, vbytes,
             r == R_POTRS, ok, worst, bad_info);
    if (r == R_INVERSE && !std::isnan(g_ours)) {
        /* getri alone: LU read, inverse written (2n^2), 4n^3/3 flops; vendor getriBatched out of place */
        emit_row(c, "getri", pc, n, count, g_ours, g_call, 4.0 * n * n * n / 3, 2.0 * nn * es, g_vend,
                 std::isnan(g_vend) ? "-" : "cublasGetriBatched", 4.0 * n * n * n / 3, 2.0 * nn * es, false, g_ok,
                 g_worst, 0);
    }
    b.release();
}

/* ------------------------------------------------------------------------ */
/* extras: host data over PCIe, variable sizes (public API only)            */
/* ------------------------------------------------------------------------ */

#ifndef BB_BENCH_DIRECT
/* Host data: lapack_dpotrf_batch_strided on host memory, forced to the GPU
   (the driver stages chunks over two streams) and to the CPU; the floor is
   the PCIe traffic alone (matrices in and out) at the measured pageable
   copy rates.  Variable sizes: lapack_dpotrf_batchv_dev with n uniform in
   [1, 32] against the fixed n = 32 call over the same matrices and against
   the bytes of the actual sizes at copy bandwidth. */
static void extras(ctx &c)
{
    const int n = 16;
    const long long count = c.o.quick ? 100000 : 1000000;
    const size_t nn = (size_t)n * n, bytes = nn * count * sizeof(double);
    std::vector<double> h(nn * count), h0(nn * count);
    double *d;
    CK(cudaMalloc(&d, bytes));
    fill(d, n, count, F_SPD, 7, c.s);
    CK(cudaMemcpyAsync(h0.data(), d, bytes, cudaMemcpyDeviceToHost, c.s));
    CK(cudaStreamSynchronize(c.s));
    double t = tu_now();
    CK(cudaMemcpy(d, h0.data(), bytes, cudaMemcpyHostToDevice));
    const double h2d = tu_now() - t;
    t = tu_now();
    CK(cudaMemcpy(h.data(), d, bytes, cudaMemcpyDeviceToHost));
    const double d2h = tu_now() - t;
    printf("extras: host data, dpotrf n=%d, %lld problems (%.2f GB each way); pageable copies: H2D %.1f GB/s, "
           "D2H %.1f GB/s\n", n, count, bytes / 1e9, bytes / h2d / 1e9, bytes / d2h / 1e9);
    for (int be = 0; be < 2; be++) {
        const batchblas_backend_t want = be ? BatchblasBackendCPU : BatchblasBackendCUDA;
        if (batchblas_set_backend(want) != BblasSuccess) continue;
        std::vector<double> ts;
        int bad = 0;
        for (int r = 0; r < 4; r++) {
            memcpy(h.data(), h0.data(), bytes);
            int info = BblasErrorsReportAny;
            t = tu_now();
            lapack_dpotrf_batch_strided(BblasColMajor, BblasLower, n, h.data(), n, (int64_t)nn, (int)count, &info);
            ts.push_back(tu_now() - t);
            bad += info != 0;
        }
        std::sort(ts.begin(), ts.end());
        const double m = ts[ts.size() / 2];
        printf("extras: host data on %-4s %9.2f ms  (PCIe floor %.2f ms: %.0f%%)%s\n", be ? "cpu" : "cuda", m * 1e3,
               (h2d + d2h) * 1e3, 100.0 * (h2d + d2h) / m, bad ? "  FAIL (info)" : "");
        if (bad) c.failed++;
    }
    batchblas_set_backend(BatchblasBackendAuto);
    CK(cudaFree(d));

    /* variable sizes: every problem in an n = 32 slot, actual size in [1, 32] */
    const int nmax = 32;
    const size_t slot = (size_t)nmax * nmax;
    double *A, *A0, **pa;
    CK(cudaMalloc(&A, slot * count * sizeof(double)));
    CK(cudaMalloc(&A0, slot * count * sizeof(double)));
    fill(A0, nmax, count, F_SPD, 9, c.s);
    pa = ptrs(A, (long long)slot, count, c.s);
    std::vector<int> vn(count), vlda(count, nmax);
    std::vector<bblas_enum_t> vup(count, BblasLower);
    double vbytes = 0;
    uint64_t x = 12345;
    for (long long i = 0; i < count; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        vn[i] = 1 + (int)((x >> 33) % nmax);
        vbytes += 2.0 * vn[i] * vn[i] * sizeof(double);
    }
    auto restore = [&] { CK(cudaMemcpyAsync(A, A0, slot * count * sizeof(double), cudaMemcpyDeviceToDevice, c.s)); };
    int info = BblasErrorsReportNone;
    const double tv = c.tm.run(c.o.reps, [&] {
        lapack_dpotrf_batchv_dev((int)count, BblasColMajor, vup.data(), vn.data(), pa, vlda.data(), &info, c.q);
    }, restore);
    const double hv = c.tm.host_us;
    const double tf = c.tm.run(c.o.reps, [&] {
        lapack_dpotrf_batchf_dev((int)count, BblasColMajor, BblasLower, nmax, pa, nmax, &info, c.q);
    }, restore);
    restore();
    info = BblasErrorsReportAny;
    lapack_dpotrf_batchv_dev((int)count, BblasColMajor, vup.data(), vn.data(), pa, vlda.data(), &info, c.q);
    CK(cudaStreamSynchronize(c.s));
    printf("extras: variable sizes, dpotrf n in [1,%d], %lld problems: %.3f ms (%.0f%% of copy BW on the actual "
           "sizes; host time in the call %.0f us); fixed n=%d over the same slots: %.3f ms (host %.0f us)%s\n", nmax,
           count, tv, 100.0 * vbytes / (tv * 1e-3) / c.copy_bw, hv, nmax, tf, c.tm.host_us, info ? "  FAIL (info)" : "");
    if (info) c.failed++;
    CK(cudaFree(pa));
    CK(cudaFree(A));
    CK(cudaFree(A0));
}
#endif

/* ------------------------------------------------------------------------ */
/* ceilings                                                                  */
/* ------------------------------------------------------------------------ */

static void ceilings(ctx &c)
{
    size_t freeb, totalb;
    CK(cudaMemGetInfo(&freeb, &totalb));
    size_t bytes = std::min<size_t>((size_t)2 << 30, freeb / 5);
    void *x, *y;
    CK(cudaMalloc(&x, bytes));
    CK(cudaMalloc(&y, bytes));
    CK(cudaMemset(x, 1, bytes));
    CK(cudaMemset(y, 2, bytes));
    double t = c.tm.run(10, [&] { CK(cudaMemcpyAsync(y, x, bytes, cudaMemcpyDeviceToDevice, c.s)); }, [] {});
    c.copy_bw = 2.0 * bytes / (t * 1e-3);
    CK(cudaFree(x));
    CK(cudaFree(y));

    const int n = c.o.quick ? 4096 : 8192;
    CB(cublasSetStream(c.cub, c.s));
    for (int pr = 0; pr < 2; pr++) {
        const size_t es = pr ? 8 : 4;
        void *A, *B, *C;
        CK(cudaMalloc(&A, (size_t)n * n * es));
        CK(cudaMalloc(&B, (size_t)n * n * es));
        CK(cudaMalloc(&C, (size_t)n * n * es));
        if (pr) { fill((double *)A, n, 1, F_UNIFORM, 1, c.s); fill((double *)B, n, 1, F_UNIFORM, 2, c.s); }
        else { fill((float *)A, n, 1, F_UNIFORM, 1, c.s); fill((float *)B, n, 1, F_UNIFORM, 2, c.s); }
        double tg = c.tm.run(5, [&] {
            if (pr) { const double one = 1, zero = 0; CB(cublasDgemm(c.cub, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, (double *)A, n, (double *)B, n, &zero, (double *)C, n)); }
            else { const float one = 1, zero = 0; CB(cublasSgemm(c.cub, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, (float *)A, n, (float *)B, n, &zero, (float *)C, n)); }
        }, [] {});
        c.gemm_rate[pr] = 2.0 * n * n * (double)n / (tg * 1e-3);
        CK(cudaFree(A));
        CK(cudaFree(B));
        CK(cudaFree(C));
    }
}

int main(int argc, char **argv)
{
    ctx c;
    c.o = parse(argc, argv);
    const double t0 = tu_now();
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
        fprintf(stderr, "batchblas-bench-gpu: no CUDA device\n");
        return 77;
    }
    CK(cudaSetDevice(0));
#ifdef BB_BENCH_DIRECT
    memset(&g_direct_q, 0, sizeof g_direct_q);
    CK(cudaStreamCreate(&g_direct_q.stream));
    CB(cublasCreate(&g_direct_q.cublas));
    g_direct_q.sm_count = prop.multiProcessorCount;
    c.q = NULL;
    c.s = g_direct_q.stream;
    printf("(direct mode: bb_cuda_launch without the driver)\n");
#else
    if (batchblas_queue_create(&c.q, 0) != BblasSuccess) {
        fprintf(stderr, "batchblas-bench-gpu: batchblas_queue_create failed (CUDA backend not available?)\n");
        return 1;
    }
    c.s = (cudaStream_t)batchblas_queue_stream(c.q);
#endif
    CB(cublasCreate(&c.cub));
    CS(cusolverDnCreate(&c.cus));
    c.tm.init(c.s);
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
#ifdef BB_BENCH_DIRECT
    const char *version = "(direct)";
#else
    const char *version = batchblas_version();
#endif
    printf("GPU %s, %d SMs, %.1f GiB, CUDA driver %d runtime %d, batchblas %s\n", prop.name, prop.multiProcessorCount,
           prop.totalGlobalMem / 1073741824.0, drv, rt, version);
    ceilings(c);
    printf("ceilings: copy %.0f GB/s (read + write), DGEMM %.1f TFLOP/s, SGEMM %.1f TFLOP/s\n", c.copy_bw / 1e9,
           c.gemm_rate[1] / 1e12, c.gemm_rate[0] / 1e12);
    printf("%-7s %c %4s %8s %9s %7s %9s %7s %6s %9s %7s %9s %7s %7s %8s %-4s %s\n", "routine", 'p', "n", "batch", "ours_ms",
           "call_us", "GFLOP/s", "GB/s", "%bw", "floor_ms", "ours/fl", "vend_ms", "ven/fl", "speedup", "err", "ok", "vendor");
    for (int r = 0; r < R_N; r++) {
        if (!c.o.routine[r]) continue;
        for (char p : c.o.precs)
            for (int n : c.o.sizes) {
                if (n < 1) continue;
                if (p == 'd') bench_row<double>(c, r, n);
                else if (p == 's') bench_row<float>(c, r, n);
            }
    }
#ifndef BB_BENCH_DIRECT
    if (c.o.extras) extras(c);
#endif
    if (c.o.csv) {
        FILE *f = fopen(c.o.csv, "w");
        if (!f) {
            fprintf(stderr, "cannot write %s\n", c.o.csv);
        } else {
            fprintf(f, "# copy_GBps=%.1f dgemm_TFLOPs=%.2f sgemm_TFLOPs=%.2f device=%s\n", c.copy_bw / 1e9,
                    c.gemm_rate[1] / 1e12, c.gemm_rate[0] / 1e12, prop.name);
            fprintf(f, "routine,prec,n,batch,ours_ms,gflops,gbs,pct_copy_bw,floor_ms,ours_over_floor,vendor_ms,"
                       "vendor_over_floor,speedup,err_ratio,ok,vendor,call_us\n");
            for (const row &w : c.rows)
                fprintf(f, "%s,%c,%d,%lld,%.6f,%.3f,%.3f,%.2f,%.6f,%.4f,%.6f,%.4f,%.4f,%.4g,%s,%s,%.1f\n", w.routine,
                        w.prec, w.n, w.batch, w.ours_ms, w.gflops, w.gbs, w.pct_bw, w.floor_ms, w.ours_floor,
                        w.vendor_ms, w.vendor_floor, w.speedup, w.err, w.ok ? "ok" : "FAIL", w.vendor, w.call_us);
            fclose(f);
        }
    }
    cusolverDnDestroy(c.cus);
    cublasDestroy(c.cub);
#ifndef BB_BENCH_DIRECT
    batchblas_queue_destroy(c.q);
#endif
    printf("GPU bench: %zu rows, %d failed checks (%.0f s)\n", c.rows.size(), c.failed, tu_now() - t0);
    return c.failed ? 1 : 0;
}
