/*
 * batchblas-bench-gpu: the GPU table in one run.
 *
 * 1. Measures the ceilings on the device: device-to-device copy bandwidth
 *    (bytes read + written / time, cudaMemcpy) and the large-GEMM rate of
 *    each precision (cublas<t>gemm, 8192^3; complex counted 8n^3 real flops).
 * 2. For each routine of the library, precision (s, d, c, z) and size: ours
 *    through the public _dev API on a queue (strided device data, info mode
 *    None while timing), then one checked run in mode All verified against a
 *    CPU reference on a sample of problems (tests/testutil: tu_ratio /
 *    tu_accept), and the vendor routine (cuBLAS / cuSOLVER), or what a user
 *    would call instead, on the same data in the same run.
 *
 * Timing: CUDA events on the queue's stream around one call (host-side
 * cost of the call included, as the user pays it); two warm-ups, then the
 * median of >= 5 reps; before every rep, outside the events, in-place
 * inputs are restored from a pristine copy and L2 is flushed.
 *
 * Every problem: n x n, column-major, lda = n, stride n^2, nrhs = n, uplo
 * lower, side left, no transpose, non-unit diagonal, alpha = 1, beta = 0
 * (so C is only written), one-norm unless the row says otherwise.
 *
 * Units.  Flops: the LAPACK working-note counts of src/common/ops.c, in real
 * flops; complex rows count 4x (a complex multiply-add is 8 real flops, a
 * real one 2; applied to every routine, lange and gecon included, as ops.c
 * does).  Bytes: each matrix counted once per direction (read once, written
 * once, full n x n storage even where only a triangle is touched), in
 * elements of the precision (4, 8, 8, 16 bytes for s, d, c, z); reals are
 * 4 (s, c) or 8 (d, z) bytes; pivots and info left out.
 *
 *   routine    flops (real)     bytes (elements)                vendor (what a user calls instead)
 *   gemm       2n^3             3n^2  A, B read, C written       cublas<t>gemmStridedBatched
 *   symm       2n^3             3n^2  A, B read, C written       gemmStridedBatched on the same A (same flops)
 *   hemm (c,z) 2n^3             3n^2                             gemmStridedBatched (same flops)
 *   syrk       n^2(n+1)         2n^2  A read, C written          gemmStridedBatched A*A^T: 2n^3, twice the flops
 *   herk (c,z) n^2(n+1)         2n^2                             gemmStridedBatched A*A^H: 2n^3, twice the flops
 *   syr2k      2n^3             3n^2  A, B read, C written       2 x gemmStridedBatched (A*B^T, + B*A^T): 4n^3, twice
 *   her2k(c,z) 2n^3             3n^2                             2 x gemmStridedBatched (^H): 4n^3, twice
 *   trmm       n^3              3n^2  A read, B read + written   gemmStridedBatched A*B -> C: 2n^3, twice the flops
 *   trsm       n^3              3n^2  A read, B read + written   cublas<t>trsmBatched
 *   potrf      n^3/3            2n^2  A read + written           cusolverDn<t>potrfBatched
 *   potrs      2n^3             3n^2  A read, B read + written   cusolverDn<t>potrsBatched, nrhs = 1 only (its own
 *                                                                flops 2n^2, bytes n^2 + 2n): no ours/vendor ratio
 *   posv       7n^3/3           4n^2  A, B read + written        cusolverDn potrfBatched + potrsBatched nrhs = 1 (its own
 *                                     (n^3/3 + 2n^2 nrhs)        flops n^3/3 + 2n^2, bytes 2n^2 + 2n): no ratio
 *   trtri      n^3/3            2n^2  A read + written           cublas<t>matinvBatched (n <= 32: the general
 *   potri      2n^3/3           2n^2  (input: the factor L)      inverse, 2n^3, out of place; above 32 none)
 *   poti       n^3              2n^2                             (the same)
 *   lauum      n^3/3            2n^2                             gemmStridedBatched L^H*L -> C: 2n^3, six times the flops
 *   getrf      2n^3/3           2n^2  A read + written           cublas<t>getrfBatched
 *   getrfnp    2n^3/3           2n^2  (diagonally dominant A)    cublas<t>getrfBatched with NULL pivots (no pivoting)
 *   getrs      2n^3             3n^2  A read, B read + written   cublas<t>getrsBatched, nrhs = n (factors of our getrf)
 *   gesv       8n^3/3           4n^2  A, B read + written        cublas getrfBatched + getrsBatched (nrhs = n)
 *   getri      4n^3/3           2n^2  factors read, inverse      cublas<t>getriBatched (out of place) on the same
 *                                     written (in place)          factors and pivots
 *   getri_oop  4n^3/3           2n^2  factors read, Ainv written cublas<t>getriBatched
 *   geinv      2n^3             2n^2  A read, inverse written    getrfBatched + getriBatched, or matinvBatched for
 *                                                                n <= 32 when faster (the faster is shown)
 *   lange-one, lange-inf, lange-fro
 *              n^2              n^2 + 1 real                     none (the floor is the reference)
 *   gecond     2n^3             n^2 + 1 real                     none
 *   gecon      4n^2             n^2 + 2 reals (LU, anorm read,   none
 *                                     rcond written)
 * floor = max(bytes / copy bandwidth, flops / GEMM rate of the precision);
 * the vendor's floor uses the vendor's own flops (and bytes where it solves
 * a different problem, potrs/posv).  ours/ven = our time / vendor time.
 *
 * Inputs: uniform [-1, 1) (general), Hermitian with diagonal c n + |u| (potrf,
 * posv, poti: positive definite), uniform with diagonal c n + |u| (triangular
 * inputs, Cholesky factors of potrs/potri, getrfnp: diagonally dominant),
 * c = 1 real, 1.5 complex.  Factored inputs (getrs, getri, getri_oop, gecon)
 * come from our getrf (gecon's anorm from our lange) before timing; the
 * check compares against the original matrix.
 * Checks (per sampled problem, tu_ratio of): C - op(A,B) over the inputs'
 * norms (BLAS 3; the lower triangle for syrk-like), ||op(A) X - B0|| /
 * (||A|| ||X||) (solves), A0 - L L^H, P A0 - L U (factorisations),
 * ||A0 X - I|| / (||A0|| ||X||) (inverses), |v - v_ref| / v_ref (lange),
 * |c - k| / k^2 (gecond), distance of rcond from [r, 10 n r], r = 1/k (gecon).
 *
 * Options: --routines gemm,potrf,lange,...  (all by default; `--list` shows
 *          them; "lange" selects the three norms, "inverse" geinv and getri)
 *          --sizes 4,8,...  --precs d,s,c,z  --reps N  --csv FILE
 *          --quick (smaller batches, 5 reps)  --no-vendor  --batch N (force
 *          the batch of every row)  --extras (also: host data through PCIe,
 *          variable sizes; see extras())
 * Batch: 10^6 problems for n <= 32, 10240 above, fewer where all the
 * row's device arrays (operands, pristine copies, pivots, pointer arrays)
 * would exceed BENCH_BUDGET bytes (40 GB) or 3/4 of the free memory.
 *
 * Built with -DBB_BENCH_DIRECT it calls the launch policy (bb_cuda_launch)
 * directly instead of the public API (kernel time without the driver).
 */
#include <cuda_runtime.h>
#include <cuda_profiler_api.h>
#include <cublas_v2.h>
#include <cusolverDn.h>
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
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
/* precisions                                                                */
/* ------------------------------------------------------------------------ */

typedef std::complex<float> cfloat;
typedef std::complex<double> cdouble;

/* id: 0 s, 1 d, 2 c, 3 z (tu_eps, bb_prec and the GEMM-rate index) */
template <typename T> struct prec;
template <> struct prec<float> { typedef float R; enum { id = 0 }; };
template <> struct prec<double> { typedef double R; enum { id = 1 }; };
template <> struct prec<cfloat> { typedef float R; enum { id = 2 }; };
template <> struct prec<cdouble> { typedef double R; enum { id = 3 }; };
static const char prec_letter[4] = {'s', 'd', 'c', 'z'};

/* ------------------------------------------------------------------------ */
/* options                                                                   */
/* ------------------------------------------------------------------------ */

static const double BENCH_BUDGET = 40e9; /* bytes of device arrays per row (default batches) */

struct opts {
    std::vector<std::string> routines; /* empty: all */
    std::vector<int> sizes;
    std::vector<char> precs;
    int reps = 7;
    bool quick = false, vendor = true, extras = false, list = false, link = false, link_all = false;
    bool var = false; /* --form var: variable sizes (bench_var.cuh) */
    bool fixed_rows = true; /* --no-fixed: without the fixed-size comparison rows */
    int dist = 0;     /* --dist: 0 uniform, 1 skewed */
    bool dev_params = false; /* --dev-params: the variable calls' parameter arrays in device memory */
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
    printf("usage: batchblas-bench-gpu [--routines gemm,trsm,potrf,...] [--list]\n"
           "       [--sizes 4,8,16,32,64,128,256] [--precs d,s,c,z] [--reps N] [--batch N]\n"
           "       [--csv FILE] [--quick] [--no-vendor] [--extras] [--link]\n"
           "       [--form fixed|var] [--dist uniform|skewed] [--dev-params] [--no-fixed]\n"
           "  --form var: variable sizes through the _batchv_dev calls, Nmax = each of --sizes,\n"
           "          n uniform in [1, Nmax] (--dist uniform) or 1%% at Nmax and the rest in\n"
           "          [1, Nmax/10] (--dist skewed); each row beside the fixed-size row at Nmax/2;\n"
           "          every timed call of the run starts on an idle GPU (host work included);\n"
           "          --dev-params: the sizes, options, alpha and beta in device memory\n"
           "  --link: only the host link: pinned copies host to device, device to host\n"
           "          and both at once (the rates the host-data path is measured against),\n"
           "          host memcpy into pinned memory by threads, and registering the\n"
           "          user's memory (cudaHostRegister) instead of copying it\n"
           "  --link-all: pinned copies (both directions) on 1, 2, 4 ... devices at once:\n"
           "          the ceiling of a host-data batch on page-locked memory over k GPUs\n");
}

static opts parse(int argc, char **argv)
{
    opts o;
    o.sizes = {4, 8, 16, 32, 64, 128, 256};
    o.precs = {'d', 's', 'c', 'z'};
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (a == "--quick") o.quick = true;
        else if (a == "--no-vendor") o.vendor = false;
        else if (a == "--extras") o.extras = true;
        else if (a == "--link") o.link = true;
        else if (a == "--link-all") o.link_all = true;
        else if (a == "--list") o.list = true;
        else if (a == "--no-fixed") o.fixed_rows = false;
        else if (a == "--dev-params") o.dev_params = true;
        else if (a == "--help" || a == "-h") { usage(); exit(0); }
        else if (!v) { usage(); exit(1); }
        else if (a == "--routines") { o.routines = split(v); i++; } /* names checked against the table in main */
        else if (a == "--sizes") {
            o.sizes.clear();
            for (auto &s : split(v)) o.sizes.push_back(atoi(s.c_str()));
            i++;
        } else if (a == "--precs") {
            o.precs.clear();
            for (auto &s : split(v)) {
                if (s.size() != 1 || !strchr("sdcz", s[0])) { fprintf(stderr, "unknown precision %s\n", s.c_str()); exit(1); }
                o.precs.push_back(s[0]);
            }
            i++;
        } else if (a == "--reps") { o.reps = std::max(5, atoi(v)); i++; }
        else if (a == "--batch") { o.batch = atoll(v); i++; }
        else if (a == "--csv") { o.csv = v; i++; }
        else if (a == "--form") {
            if (strcmp(v, "var") && strcmp(v, "fixed")) { usage(); exit(1); }
            o.var = !strcmp(v, "var");
            i++;
        } else if (a == "--dist") {
            if (strcmp(v, "uniform") && strcmp(v, "skewed")) { usage(); exit(1); }
            o.dist = !strcmp(v, "skewed");
            i++;
        }
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

enum { F_NONE, F_UNIFORM, F_SPD, F_TRI };

/* count n x n matrices, lda = n, stride n^2, of real (cplx = 0) or complex
   (cplx = 1: re, im pairs of R) elements:
   F_UNIFORM  uniform [-1, 1) (real and imaginary parts)
   F_SPD      Hermitian (symmetric when real), uniform off the diagonal, c n + |u| on it
              (diagonally dominant: positive definite)
   F_TRI      uniform, c n + |u| on the diagonal (a well-conditioned triangle either way,
              and a diagonally dominant general matrix)
   c = 1 real, 1.5 complex (the off-diagonal moduli reach sqrt 2). */
template <typename R>
__global__ void k_fill(R *A, int n, long long count, int kind, int cplx, uint64_t seed)
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
        double v = hash01(key), w = cplx ? hash01(key ^ 0x5DEECE66DA5A5A5Aull) : 0.0;
        if (kind == F_SPD && i < j) w = -w; /* A(i,j) = conj(A(j,i)) */
        if (kind != F_UNIFORM && i == j) { v = (cplx ? 1.5 : 1.0) * n + fabs(v); w = 0; }
        if (cplx) { A[2 * e] = (R)v; A[2 * e + 1] = (R)w; }
        else A[e] = (R)v;
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
    typedef typename prec<T>::R R;
    const int cplx = sizeof(T) != sizeof(R);
    k_fill<R><<<grid_for((long long)n * n * count, 256), 256, 0, s>>>((R *)A, n, count, kind, cplx, seed);
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
    bool idle = false;  /* each timed call starts on an idle GPU: its host work is in the time */
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
            /* otherwise the call's host work overlaps the restore and the flush */
            if (idle) CK(cudaStreamSynchronize(s));
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
/* run context, one row's data                                               */
/* ------------------------------------------------------------------------ */

struct row {
    const char *routine;
    char prec;
    int n;
    long long batch;
    double ours_ms, gflops, gbs, pct_bw, floor_ms, ours_floor;
    double call_us; /* host time inside our call (median) */
    double vendor_ms, vendor_floor, ours_vendor, err;
    const char *vendor;
    bool ok;
};

struct vrow_out { /* a variable-size row (bench_var.cuh) */
    const char *routine, *dist;
    char prec;
    int nmax, fixed_n;
    long long batch;
    double ms, host_us, floor_ms, share, fixed_share;
    double vendor_ms; /* gemm: cuBLAS's grouped GEMM on the same problems (NAN: none) */
    bool ok;
};

struct ctx {
    opts o;
    double copy_bw;           /* bytes/s, read + write */
    double gemm_rate[4];      /* flop/s of a large GEMM: s, d, c, z */
    timer tm;
    cudaStream_t s;
    batchblas_queue_t q;
    cublasHandle_t cub;
    cusolverDnHandle_t cus;
    std::vector<row> rows;
    std::vector<vrow_out> vrows;
    int failed = 0;
};

/* host references: every precision in complex double */
typedef std::complex<double> cd;
typedef std::vector<cd> mat;

template <typename T> struct rdef;

/* Operand bits of a row (rdef::opd): what is allocated, how it is filled,
   what ours and the vendor overwrite (restored from a pristine copy before
   every rep), and the untimed preparation of the input. */
enum {
    A_U = 1 << 0, A_SPD = 1 << 1, A_TRI = 1 << 2,   /* A's fill (always present) */
    B_U = 1 << 3, B_OUT = 1 << 4,                   /* B: uniform input, or an output only */
    C_OUT = 1 << 5, C_OUT32 = 1 << 6,               /* C: output (of ours or the vendor); C_OUT32: n <= 32 only */
    IPIV = 1 << 7, X_IN = 1 << 8, Y_OUT = 1 << 9,   /* pivots; one real per problem in / out */
    W_A = 1 << 10, W_B = 1 << 11,                   /* ours overwrites A / B */
    VW_A = 1 << 12, VW_B = 1 << 13,                 /* the vendor overwrites A / B */
    PREP_LU = 1 << 14,                              /* A := our getrf of A (ipiv) before timing */
    PREP_ANORM = 1 << 15,                           /* X := our one-norm lange of A, before PREP_LU */
    CPLX_ONLY = 1 << 16
};

template <typename T> struct rowctx {
    typedef typename prec<T>::R R;
    ctx &c;
    const rdef<T> &d;
    int n, ic, norm;
    long long count, nn;
    T *A = NULL, *B = NULL, *C = NULL, *A0 = NULL, *B0 = NULL;
    int *ipiv = NULL, *vinfo = NULL;
    R *X = NULL, *Y = NULL;
    T **pA = NULL, **pB = NULL, **pC = NULL; /* pointer arrays of the vendor calls */
    std::vector<long long> smp;              /* sampled problems */
    std::vector<mat> a0, b0;                 /* their inputs, before any preparation */
    /* vendor: name, flops and bytes per problem (ours unless it solves another problem) */
    const char *vname = "-";
    double vflops = 0, vbytes = 0;
    bool comparable = true, vfail = false;

    rowctx(ctx &c_, const rdef<T> &d_) : c(c_), d(d_) {}
    double cx() const { return sizeof(T) == sizeof(R) ? 1.0 : 4.0; } /* complex flops factor */
    void restore(unsigned m)
    {
        const size_t mb = (size_t)count * nn * sizeof(T);
        if ((m & (W_A | VW_A)) && A0) CK(cudaMemcpyAsync(A, A0, mb, cudaMemcpyDeviceToDevice, c.s));
        if ((m & (W_B | VW_B)) && B0) CK(cudaMemcpyAsync(B, B0, mb, cudaMemcpyDeviceToDevice, c.s));
    }
    /* a vendor call, timed like ours; restores what the vendor overwrites */
    template <typename F> double time(F call) { return c.tm.run(c.o.reps, call, [&] { restore(d.opd & (VW_A | VW_B)); }); }
    void VB(cublasStatus_t st) { if (st != CUBLAS_STATUS_SUCCESS) vfail = true; }
    void VS(cusolverStatus_t st) { if (st != CUSOLVER_STATUS_SUCCESS) vfail = true; }
    /* sampled problem k: a device matrix, a real output, the pivots */
    mat out(const T *dev, size_t k) const
    {
        std::vector<T> h((size_t)nn);
        CK(cudaMemcpy(h.data(), dev + smp[k] * nn, h.size() * sizeof(T), cudaMemcpyDeviceToHost));
        mat m(h.size());
        for (size_t i = 0; i < h.size(); i++) m[i] = cd(std::real(h[i]), std::imag(h[i]));
        return m;
    }
    double yout(size_t k) const
    {
        R y;
        CK(cudaMemcpy(&y, Y + smp[k], sizeof(R), cudaMemcpyDeviceToHost));
        return y;
    }
    std::vector<int> piv(size_t k) const
    {
        std::vector<int> ip(n);
        CK(cudaMemcpy(ip.data(), ipiv + smp[k] * n, n * sizeof(int), cudaMemcpyDeviceToHost));
        return ip;
    }
    double ratio(double err, double scale) const { return tu_ratio(err, scale, n, prec<T>::id); }
};

/* ------------------------------------------------------------------------ */
/* ours: the public _dev API (or the launch policy directly)                 */
/* ------------------------------------------------------------------------ */

template <typename T> struct api;

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

/* One launch of op on the row's strided device data with the bench's fixed
   options (see the header); codes into info[1..count] (mode All). */
template <typename T>
static void direct(bb_op op, rowctx<T> &r, int *info)
{
    const long long count = r.count, nn = r.nn;
    if (g_dinfo_n < count) {
        if (g_dinfo) CK(cudaFree(g_dinfo));
        CK(cudaMalloc(&g_dinfo, count * sizeof(int)));
        g_dinfo_n = count;
    }
    batchblas_queue *q = &g_direct_q;
    CK(cudaMemsetAsync(g_dinfo, 0, count * sizeof(int), q->stream));
    bb_problem p;
    memset(&p, 0, sizeof p);
    p.side = BblasLeft;
    p.uplo = BblasLower;
    p.trans = p.transb = BblasNoTrans;
    p.diag = BblasNonUnit;
    p.norm = r.norm;
    p.m = p.n = p.k = p.nrhs = r.n;
    p.lda = p.ldb = p.ldc = r.n;
    p.alpha[0] = 1;
    bb_dev_batch d;
    memset(&d, 0, sizeof d);
    d.count = count;
    d.info = g_dinfo;
    d.opd[BB_A].base = (char *)r.A; d.opd[BB_A].stride = nn;
    d.opd[BB_B].base = (char *)r.B; d.opd[BB_B].stride = nn;
    d.opd[BB_C].base = (char *)r.C; d.opd[BB_C].stride = nn;
    d.opd[BB_IPIV].base = (char *)r.ipiv; d.opd[BB_IPIV].stride = r.n;
    d.opd[BB_X].base = (char *)r.X; d.opd[BB_X].stride = 1;
    d.opd[BB_Y].base = (char *)r.Y; d.opd[BB_Y].stride = 1;
    cudaError_t e = bb_cuda_launch(op, (bb_prec)prec<T>::id, p, d, q);
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
#define OURS(name, OP) static void name(rowctx<T> &r, int *i) { direct(BB_OP_##OP, r, i); }
template <typename T> struct api {
    OURS(gemm, GEMM) OURS(symm, SYMM) OURS(hemm, HEMM) OURS(syrk, SYRK) OURS(herk, HERK) OURS(syr2k, SYR2K)
    OURS(her2k, HER2K) OURS(trmm, TRMM) OURS(trsm, TRSM) OURS(potrf, POTRF) OURS(potrs, POTRS) OURS(posv, POSV)
    OURS(trtri, TRTRI) OURS(lauum, LAUUM) OURS(potri, POTRI) OURS(poti, POTI) OURS(getrf, GETRF)
    OURS(getrfnp, GETRFNP) OURS(getrs, GETRS) OURS(gesv, GESV) OURS(getri, GETRI) OURS(getri_oop, GETRI_OOP)
    OURS(geinv, GEINV) OURS(lange, LANGE) OURS(gecond, GECOND) OURS(gecon, GECON)
};
#undef OURS
#else
/* One wrapper per routine and precision; the routine's fixed options are
   the bench's (see the header).  Outputs of geinv and getri_oop go to B, as
   in the library's descriptor. */
#define CM BblasColMajor
#define LO BblasLower
#define NT BblasNoTrans
#define API_T(T, L, HERM)                                                                                        \
    template <> struct api<T> {                                                                                  \
        typedef rowctx<T> X;                                                                                     \
        static void gemm(X &r, int *i)                                                                           \
        { blas_##L##gemm_batch_strided_dev(CM, NT, NT, r.n, r.n, r.n, T(1), r.A, r.n, r.nn, r.B, r.n, r.nn, T(0), \
                                           r.C, r.n, r.nn, r.ic, i, r.c.q); }                                    \
        static void symm(X &r, int *i)                                                                           \
        { blas_##L##symm_batch_strided_dev(CM, BblasLeft, LO, r.n, r.n, T(1), r.A, r.n, r.nn, r.B, r.n, r.nn, T(0), \
                                           r.C, r.n, r.nn, r.ic, i, r.c.q); }                                    \
        static void syrk(X &r, int *i)                                                                           \
        { blas_##L##syrk_batch_strided_dev(CM, LO, NT, r.n, r.n, T(1), r.A, r.n, r.nn, T(0), r.C, r.n, r.nn, r.ic, i, \
                                           r.c.q); }                                                             \
        static void syr2k(X &r, int *i)                                                                          \
        { blas_##L##syr2k_batch_strided_dev(CM, LO, NT, r.n, r.n, T(1), r.A, r.n, r.nn, r.B, r.n, r.nn, T(0), r.C, \
                                            r.n, r.nn, r.ic, i, r.c.q); }                                        \
        static void trmm(X &r, int *i)                                                                           \
        { blas_##L##trmm_batch_strided_dev(CM, BblasLeft, LO, NT, BblasNonUnit, r.n, r.n, T(1), r.A, r.n, r.nn, r.B, \
                                           r.n, r.nn, r.ic, i, r.c.q); }                                         \
        static void trsm(X &r, int *i)                                                                           \
        { blas_##L##trsm_batch_strided_dev(CM, BblasLeft, LO, NT, BblasNonUnit, r.n, r.n, T(1), r.A, r.n, r.nn, r.B, \
                                           r.n, r.nn, r.ic, i, r.c.q); }                                         \
        static void potrf(X &r, int *i) { lapack_##L##potrf_batch_strided_dev(CM, LO, r.n, r.A, r.n, r.nn, r.ic, i, r.c.q); } \
        static void potrs(X &r, int *i)                                                                          \
        { lapack_##L##potrs_batch_strided_dev(CM, LO, r.n, r.n, r.A, r.n, r.nn, r.B, r.n, r.nn, r.ic, i, r.c.q); } \
        static void posv(X &r, int *i)                                                                           \
        { lapack_##L##posv_batch_strided_dev(CM, LO, r.n, r.n, r.A, r.n, r.nn, r.B, r.n, r.nn, r.ic, i, r.c.q); } \
        static void trtri(X &r, int *i)                                                                          \
        { lapack_##L##trtri_batch_strided_dev(CM, LO, BblasNonUnit, r.n, r.A, r.n, r.nn, r.ic, i, r.c.q); }      \
        static void lauum(X &r, int *i) { lapack_##L##lauum_batch_strided_dev(CM, LO, r.n, r.A, r.n, r.nn, r.ic, i, r.c.q); } \
        static void potri(X &r, int *i) { lapack_##L##potri_batch_strided_dev(CM, LO, r.n, r.A, r.n, r.nn, r.ic, i, r.c.q); } \
        static void poti(X &r, int *i) { lapack_##L##poti_batch_strided_dev(CM, LO, r.n, r.A, r.n, r.nn, r.ic, i, r.c.q); } \
        static void getrf(X &r, int *i)                                                                          \
        { lapack_##L##getrf_batch_strided_dev(CM, r.n, r.n, r.A, r.n, r.nn, r.ipiv, r.n, r.ic, i, r.c.q); }      \
        static void getrfnp(X &r, int *i)                                                                        \
        { lapack_##L##getrfnp_batch_strided_dev(CM, r.n, r.n, r.A, r.n, r.nn, r.ic, i, r.c.q); }                 \
        static void getrs(X &r, int *i)                                                                          \
        { lapack_##L##getrs_batch_strided_dev(CM, NT, r.n, r.n, r.A, r.n, r.nn, r.ipiv, r.n, r.B, r.n, r.nn, r.ic, i, \
                                              r.c.q); }                                                          \
        static void gesv(X &r, int *i)                                                                           \
        { lapack_##L##gesv_batch_strided_dev(CM, r.n, r.n, r.A, r.n, r.nn, r.ipiv, r.n, r.B, r.n, r.nn, r.ic, i, r.c.q); } \
        static void getri(X &r, int *i)                                                                          \
        { lapack_##L##getri_batch_strided_dev(CM, r.n, r.A, r.n, r.nn, r.ipiv, r.n, r.ic, i, r.c.q); }           \
        static void getri_oop(X &r, int *i)                                                                      \
        { lapack_##L##getri_oop_batch_strided_dev(CM, r.n, r.A, r.n, r.nn, r.ipiv, r.n, r.B, r.n, r.nn, r.ic, i, r.c.q); } \
        static void geinv(X &r, int *i)                                                                          \
        { lapack_##L##geinv_batch_strided_dev(CM, r.n, r.A, r.n, r.nn, r.B, r.n, r.nn, r.ic, i, r.c.q); }        \
        static void lange(X &r, int *i)                                                                          \
        { lapack_##L##lange_batch_strided_dev(CM, r.norm, r.n, r.n, r.A, r.n, r.nn, r.Y, r.ic, i, r.c.q); }      \
        static void gecond(X &r, int *i)                                                                         \
        { lapack_##L##gecond_batch_strided_dev(CM, r.norm, r.n, r.A, r.n, r.nn, r.Y, r.ic, i, r.c.q); }          \
        static void gecon(X &r, int *i)                                                                          \
        { lapack_##L##gecon_batch_strided_dev(CM, r.norm, r.n, r.A, r.n, r.nn, r.X, r.Y, r.ic, i, r.c.q); }      \
        HERM                                                                                                     \
    };
/* hemm, herk, her2k: complex only (the rows are skipped in s and d) */
#define API_HERM(T, R, L)                                                                                        \
    static void hemm(X &r, int *i)                                                                               \
    { blas_##L##hemm_batch_strided_dev(CM, BblasLeft, LO, r.n, r.n, T(1), r.A, r.n, r.nn, r.B, r.n, r.nn, T(0), r.C, \
                                       r.n, r.nn, r.ic, i, r.c.q); }                                             \
    static void herk(X &r, int *i)                                                                               \
    { blas_##L##herk_batch_strided_dev(CM, LO, NT, r.n, r.n, R(1), r.A, r.n, r.nn, R(0), r.C, r.n, r.nn, r.ic, i, r.c.q); } \
    static void her2k(X &r, int *i)                                                                              \
    { blas_##L##her2k_batch_strided_dev(CM, LO, NT, r.n, r.n, T(1), r.A, r.n, r.nn, r.B, r.n, r.nn, R(0), r.C, r.n, \
                                        r.nn, r.ic, i, r.c.q); }
#define API_REAL                                                                                                 \
    static void hemm(X &, int *) { die("hemm", "complex only", __LINE__); }                                      \
    static void herk(X &, int *) { die("herk", "complex only", __LINE__); }                                      \
    static void her2k(X &, int *) { die("her2k", "complex only", __LINE__); }
API_T(float, s, API_REAL)
API_T(double, d, API_REAL)
API_T(cfloat, c, API_HERM(cfloat, float, c))
API_T(cdouble, z, API_HERM(cdouble, double, z))
#undef API_T
#undef API_HERM
#undef API_REAL
#undef CM
#undef LO
#undef NT
#endif

/* ------------------------------------------------------------------------ */
/* vendor wrappers (cuBLAS / cuSOLVER), lower, left, no transpose            */
/* ------------------------------------------------------------------------ */

template <typename T> struct vend;
#define VEND_T(T, V, L)                                                                                          \
    template <> struct vend<T> {                                                                                 \
        static cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int n, const T *A, \
                                   const T *B, T *C, long long s, T beta, int c)                                 \
        {                                                                                                        \
            const T one = T(1);                                                                                  \
            return cublas##L##gemmStridedBatched(h, ta, tb, n, n, n, (const V *)&one, (const V *)A, n, s, (const V *)B, \
                                                 n, s, (const V *)&beta, (V *)C, n, s, c);                      \
        }                                                                                                        \
        static cublasStatus_t trsm(cublasHandle_t h, int n, T **A, T **B, int c)                                 \
        {                                                                                                        \
            const T one = T(1);                                                                                  \
            return cublas##L##trsmBatched(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,              \
                                          CUBLAS_DIAG_NON_UNIT, n, n, (const V *)&one, (const V *const *)A, n,   \
                                          (V *const *)B, n, c);                                                  \
        }                                                                                                        \
        static cublasStatus_t getrf(cublasHandle_t h, int n, T **A, int *P, int *I, int c)                       \
        { return cublas##L##getrfBatched(h, n, (V *const *)A, n, P, I, c); }                                    \
        static cublasStatus_t getrs(cublasHandle_t h, int n, T **A, const int *P, T **B, int c)                  \
        {                                                                                                        \
            int hinfo = 0;                                                                                       \
            return cublas##L##getrsBatched(h, CUBLAS_OP_N, n, n, (const V *const *)A, n, P, (V *const *)B, n,    \
                                           &hinfo, c);                                                           \
        }                                                                                                        \
        static cublasStatus_t getri(cublasHandle_t h, int n, T **A, const int *P, T **C, int *I, int c)          \
        { return cublas##L##getriBatched(h, n, (const V *const *)A, n, P, (V *const *)C, n, I, c); }            \
        static cublasStatus_t matinv(cublasHandle_t h, int n, T **A, T **C, int *I, int c)                       \
        { return cublas##L##matinvBatched(h, n, (const V *const *)A, n, (V *const *)C, n, I, c); }              \
        static cusolverStatus_t potrf(cusolverDnHandle_t h, int n, T **A, int *I, int c)                         \
        { return cusolverDn##L##potrfBatched(h, CUBLAS_FILL_MODE_LOWER, n, (V **)A, n, I, c); }                  \
        static cusolverStatus_t potrs1(cusolverDnHandle_t h, int n, T **A, T **B, int *I, int c) /* nrhs = 1 */  \
        { return cusolverDn##L##potrsBatched(h, CUBLAS_FILL_MODE_LOWER, n, 1, (V **)A, n, (V **)B, n, I, c); }   \
    };
VEND_T(float, float, S)
VEND_T(double, double, D)
VEND_T(cfloat, cuComplex, C)
VEND_T(cdouble, cuDoubleComplex, Z)
#undef VEND_T

/* ------------------------------------------------------------------------ */
/* CPU references on sampled problems (complex double, column-major n x n)   */
/* ------------------------------------------------------------------------ */

static double fro(const mat &a) { double s = 0; for (const cd &x : a) s += std::norm(x); return sqrt(s); }
static double diff(const mat &a, const mat &b) { double s = 0; for (size_t i = 0; i < a.size(); i++) s += std::norm(a[i] - b[i]); return sqrt(s); }
static mat mul(const mat &a, const mat &b, int n)
{
    mat c((size_t)n * n, 0.0);
    for (int j = 0; j < n; j++)
        for (int l = 0; l < n; l++) {
            const cd t = b[l + (size_t)j * n];
            if (t == 0.0) continue;
            for (int i = 0; i < n; i++) c[i + (size_t)j * n] += a[i + (size_t)l * n] * t;
        }
    return c;
}
/* ||A X - I|| / (||A|| ||X||), judged with tu_ratio */
static double inverse_ratio(const mat &a, const mat &x, int n, int tuprec)
{
    mat ax = mul(a, x, n);
    for (int i = 0; i < n; i++) ax[i + (size_t)i * n] -= 1.0;
    return tu_ratio(fro(ax), fro(a) * fro(x), n, tuprec);
}
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
/* transpose, conjugated (A^H) or not (A^T) */
static mat transpose(const mat &a, int n, bool conj)
{
    mat t((size_t)n * n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) t[j + (size_t)i * n] = conj ? std::conj(a[i + (size_t)j * n]) : a[i + (size_t)j * n];
    return t;
}
/* the full matrix whose lower triangle is stored: Hermitian (real diagonal) or symmetric */
static mat from_lower(const mat &a, int n, bool herm)
{
    mat f = lower(a, n, false);
    for (int j = 0; j < n; j++) {
        if (herm) f[j + (size_t)j * n] = std::real(f[j + (size_t)j * n]);
        for (int i = 0; i < j; i++) f[i + (size_t)j * n] = herm ? std::conj(a[j + (size_t)i * n]) : a[j + (size_t)i * n];
    }
    return f;
}
static mat add(const mat &a, const mat &b) { mat c = a; for (size_t i = 0; i < c.size(); i++) c[i] += b[i]; return c; }
/* lange: one (max column sum), inf (max row sum) or Frobenius norm */
static double norm_of(const mat &a, int n, int norm)
{
    if (norm == BblasFrobeniusNorm) return fro(a);
    double best = 0;
    for (int j = 0; j < n; j++) {
        double s = 0;
        for (int i = 0; i < n; i++) s += norm == BblasInfNorm ? std::abs(a[j + (size_t)i * n]) : std::abs(a[i + (size_t)j * n]);
        best = std::max(best, s);
    }
    return best;
}
/* exact condition number (one norm) by Gauss-Jordan with partial pivoting */
static double cond1(const mat &a0, int n)
{
    mat a = a0, x((size_t)n * n, 0.0);
    for (int i = 0; i < n; i++) x[i + (size_t)i * n] = 1.0;
    for (int k = 0; k < n; k++) {
        int p = k;
        for (int i = k + 1; i < n; i++) if (std::abs(a[i + (size_t)k * n]) > std::abs(a[p + (size_t)k * n])) p = i;
        if (a[p + (size_t)k * n] == 0.0) return INFINITY;
        for (int j = 0; j < n; j++) { std::swap(a[k + (size_t)j * n], a[p + (size_t)j * n]); std::swap(x[k + (size_t)j * n], x[p + (size_t)j * n]); }
        const cd inv = 1.0 / a[k + (size_t)k * n];
        for (int j = 0; j < n; j++) { a[k + (size_t)j * n] *= inv; x[k + (size_t)j * n] *= inv; }
        for (int i = 0; i < n; i++) {
            if (i == k) continue;
            const cd f = a[i + (size_t)k * n];
            if (f == 0.0) continue;
            for (int j = 0; j < n; j++) { a[i + (size_t)j * n] -= f * a[k + (size_t)j * n]; x[i + (size_t)j * n] -= f * x[k + (size_t)j * n]; }
        }
    }
    return norm_of(a0, n, BblasOneNorm) * norm_of(x, n, BblasOneNorm);
}

/* first, middle, last, and a few more at random (fewer for the large sizes,
   whose references cost n^3 on the host) */
static std::vector<long long> sample_of(long long count, int n)
{
    std::vector<long long> s = {0, count / 2, count - 1};
    uint64_t x = 12345;
    const int extra = n <= 64 ? 5 : n <= 128 ? 1 : 0;
    for (int k = 0; k < extra; k++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        s.push_back((long long)((x >> 33) % (uint64_t)count));
    }
    std::sort(s.begin(), s.end());
    s.erase(std::unique(s.begin(), s.end()), s.end());
    return s;
}

/* ------------------------------------------------------------------------ */
/* THE routine table                                                         */
/* ------------------------------------------------------------------------ */

/* One routine: its counts, its operands, how ours and the vendor are
   called, how a sampled problem is checked. */
template <typename T> struct rdef {
    const char *name;
    double f3, f2;          /* real flops per problem: f3 n^3 + f2 n^2 (x4 complex) */
    double mats, reals;     /* bytes per problem: mats n^2 elements + reals real values */
    unsigned opd;           /* operand bits (above) */
    int norm;               /* lange, gecond, gecon */
    void (*ours)(rowctx<T> &, int *info);
    const char *vname;      /* the vendor, as printed (may be changed by vendor()) */
    double (*vendor)(rowctx<T> &); /* ms of the vendor, NAN: none; NULL: no vendor */
    double (*check)(rowctx<T> &, size_t k); /* tu_ratio of sampled problem k */
};

template <typename T> static const std::vector<rdef<T>> &table()
{
    typedef rowctx<T> X;
    typedef vend<T> V;
    static const std::vector<rdef<T>> t = {
    /* BLAS 3.  Vendor: one full strided-batched GEMM of the same shape (two for syr2k/her2k) */
    {"gemm", 2, 0, 3, 0, A_U | B_U | C_OUT, 0, &api<T>::gemm,
     "cublasGemmStridedBatched",
     [](X &r) { return r.time([&] { r.VB(V::gemm(r.c.cub, CUBLAS_OP_N, CUBLAS_OP_N, r.n, r.A, r.B, r.C, r.nn, T(0), r.ic)); }); },
     [](X &r, size_t k) { const mat &a = r.a0[k], &b = r.b0[k];
                          return r.ratio(diff(r.out(r.C, k), mul(a, b, r.n)), fro(a) * fro(b)); }},
    {"symm", 2, 0, 3, 0, A_U | B_U | C_OUT, 0, &api<T>::symm,
     "cublasGemmStridedBatched",
     [](X &r) { return r.time([&] { r.VB(V::gemm(r.c.cub, CUBLAS_OP_N, CUBLAS_OP_N, r.n, r.A, r.B, r.C, r.nn, T(0), r.ic)); }); },
     [](X &r, size_t k) { const mat s = from_lower(r.a0[k], r.n, false), &b = r.b0[k];
                          return r.ratio(diff(r.out(r.C, k), mul(s, b, r.n)), fro(s) * fro(b)); }},
    {"hemm", 2, 0, 3, 0, A_U | B_U | C_OUT | CPLX_ONLY, 0, &api<T>::hemm,
     "cublasGemmStridedBatched",
     [](X &r) { return r.time([&] { r.VB(V::gemm(r.c.cub, CUBLAS_OP_N, CUBLAS_OP_N, r.n, r.A, r.B, r.C, r.nn, T(0), r.ic)); }); },
     [](X &r, size_t k) { const mat h = from_lower(r.a0[k], r.n, true), &b = r.b0[k];
                          return r.ratio(diff(r.out(r.C, k), mul(h, b, r.n)), fro(h) * fro(b)); }},
    {"syrk", 1, 1, 2, 0, A_U | C_OUT, 0, &api<T>::syrk,
     "cublasGemmStridedBatched(A*A^T)",
     [](X &r) { r.vflops = r.cx() * 2.0 * r.n * r.n * r.n;
                return r.time([&] { r.VB(V::gemm(r.c.cub, CUBLAS_OP_N, CUBLAS_OP_T, r.n, r.A, r.A, r.C, r.nn, T(0), r.ic)); }); },
     [](X &r, size_t k) { const mat &a = r.a0[k];
                          return r.ratio(diff(lower(r.out(r.C, k), r.n, false), lower(mul(a, transpose(a, r.n, false), r.n), r.n, false)),
                                         fro(a) * fro(a)); }},
    {"herk", 1, 1, 2, 0, A_U | C_OUT | CPLX_ONLY, 0, &api<T>::herk,
     "cublasGemmStridedBatched(A*A^H)",
     [](X &r) { r.vflops = r.cx() * 2.0 * r.n * r.n * r.n;
                return r.time([&] { r.VB(V::gemm(r.c.cub, CUBLAS_OP_N, CUBLAS_OP_C, r.n, r.A, r.A, r.C, r.nn, T(0), r.ic)); }); },
     [](X &r, size_t k) { const mat &a = r.a0[k];
                          return r.ratio(diff(lower(r.out(r.C, k), r.n, false), lower(mul(a, transpose(a, r.n, true), r.n), r.n, false)),
                                         fro(a) * fro(a)); }},
    {"syr2k", 2, 0, 3, 0, A_U | B_U | C_OUT, 0, &api<T>::syr2k,
     "2 x cublasGemmStridedBatched",
     [](X &r) { r.vflops = r.cx() * 4.0 * r.n * r.n * r.n;
                return r.time([&] { r.VB(V::gemm(r.c.cub, CUBLAS_OP_N, CUBLAS_OP_T, r.n, r.A, r.B, r.C, r.nn, T(0), r.ic));
                                    r.VB(V::gemm(r.c.cub, CUBLAS_OP_N, CUBLAS_OP_T, r.n, r.B, r.A, r.C, r.nn, T(1), r.ic)); }); },
     [](X &r, size_t k) { const mat &a = r.a0[k], &b = r.b0[k]; const int n = r.n;
                          const mat ref = add(mul(a, transpose(b, n, false), n), mul(b, transpose(a, n, false), n));
                          return r.ratio(diff(lower(r.out(r.C, k), n, false), lower(ref, n, false)), 2 * fro(a) * fro(b)); }},
    {"her2k", 2, 0, 3, 0, A_U | B_U | C_OUT | CPLX_ONLY, 0, &api<T>::her2k,
     "2 x cublasGemmStridedBatched",
     [](X &r) { r.vflops = r.cx() * 4.0 * r.n * r.n * r.n;
                return r.time([&] { r.VB(V::gemm(r.c.cub, CUBLAS_OP_N, CUBLAS_OP_C, r.n, r.A, r.B, r.C, r.nn, T(0), r.ic));
                                    r.VB(V::gemm(r.c.cub, CUBLAS_OP_N, CUBLAS_OP_C, r.n, r.B, r.A, r.C, r.nn, T(1), r.ic)); }); },
     [](X &r, size_t k) { const mat &a = r.a0[k], &b = r.b0[k]; const int n = r.n;
                          const mat ref = add(mul(a, transpose(b, n, true), n), mul(b, transpose(a, n, true), n));
                          return r.ratio(diff(lower(r.out(r.C, k), n, false), lower(ref, n, false)), 2 * fro(a) * fro(b)); }},
    {"trmm", 1, 0, 3, 0, A_TRI | B_U | W_B | C_OUT, 0, &api<T>::trmm,
     "cublasGemmStridedBatched(A*B)",
     [](X &r) { r.vflops = r.cx() * 2.0 * r.n * r.n * r.n;
                return r.time([&] { r.VB(V::gemm(r.c.cub, CUBLAS_OP_N, CUBLAS_OP_N, r.n, r.A, r.B, r.C, r.nn, T(0), r.ic)); }); },
     [](X &r, size_t k) { const mat l = lower(r.a0[k], r.n, false), &b = r.b0[k];
                          return r.ratio(diff(r.out(r.B, k), mul(l, b, r.n)), fro(l) * fro(b)); }},
    {"trsm", 1, 0, 3, 0, A_TRI | B_U | W_B | VW_B, 0, &api<T>::trsm,
     "cublasTrsmBatched",
     [](X &r) { return r.time([&] { r.VB(V::trsm(r.c.cub, r.n, r.pA, r.pB, r.ic)); }); },
     [](X &r, size_t k) { const mat l = lower(r.a0[k], r.n, false), x = r.out(r.B, k);
                          return r.ratio(diff(mul(l, x, r.n), r.b0[k]), fro(l) * fro(x)); }},

    /* Cholesky family */
    {"potrf", 1. / 3, 0, 2, 0, A_SPD | W_A | VW_A, 0, &api<T>::potrf,
     "cusolverDnPotrfBatched",
     [](X &r) { return r.time([&] { r.VS(V::potrf(r.c.cus, r.n, r.pA, r.vinfo, r.ic)); }); },
     [](X &r, size_t k) { const mat l = lower(r.out(r.A, k), r.n, false), &a = r.a0[k]; /* only the lower triangle counts */
                          return r.ratio(diff(lower(a, r.n, false), lower(mul(l, transpose(l, r.n, true), r.n), r.n, false)), fro(a)); }},
    {"potrs", 2, 0, 3, 0, A_TRI | B_U | W_B | VW_B, 0, &api<T>::potrs,
     "cusolverDnPotrsBatched(nrhs=1)",
     [](X &r) { /* nrhs = 1 only: its own flops and bytes (A read, one column read + written); no ratio */
                r.vflops = r.cx() * 2.0 * r.n * r.n;
                r.vbytes = ((double)r.nn + 2.0 * r.n) * sizeof(T);
                r.comparable = false;
                return r.time([&] { r.VS(V::potrs1(r.c.cus, r.n, r.pA, r.pB, r.vinfo, r.ic)); }); },
     [](X &r, size_t k) { const mat l = lower(r.a0[k], r.n, false), m = mul(l, transpose(l, r.n, true), r.n), x = r.out(r.B, k);
                          return r.ratio(diff(mul(m, x, r.n), r.b0[k]), fro(m) * fro(x)); }},
    {"posv", 7. / 3, 0, 4, 0, A_SPD | B_U | W_A | W_B | VW_A | VW_B, 0, &api<T>::posv,
     "cusolverDnPotrfB+PotrsB(nrhs=1)",
     [](X &r) { /* the factorisation and one column: its own flops and bytes; no ratio */
                const double n = r.n;
                r.vflops = r.cx() * (n * n * n / 3 + 2 * n * n);
                r.vbytes = (2 * n * n + 2 * n) * sizeof(T);
                r.comparable = false;
                return r.time([&] { r.VS(V::potrf(r.c.cus, r.n, r.pA, r.vinfo, r.ic));
                                    r.VS(V::potrs1(r.c.cus, r.n, r.pA, r.pB, r.vinfo, r.ic)); }); },
     [](X &r, size_t k) { const mat m = from_lower(r.a0[k], r.n, true), x = r.out(r.B, k);
                          return r.ratio(diff(mul(m, x, r.n), r.b0[k]), fro(m) * fro(x)); }},
    /* trtri, potri, poti: matinvBatched inverts the general matrix (n <= 32 only), out of place into C */
    {"trtri", 1. / 3, 0, 2, 0, A_TRI | W_A | C_OUT32, 0, &api<T>::trtri,
     "cublasMatinvBatched",
     [](X &r) { return r.n > 32 ? (r.vname = "-", (double)NAN) : (r.vflops = r.cx() * 2.0 * r.n * r.n * r.n,
                r.time([&] { r.VB(V::matinv(r.c.cub, r.n, r.pA, r.pC, r.vinfo, r.ic)); })); },
     [](X &r, size_t k) { return inverse_ratio(lower(r.a0[k], r.n, false), lower(r.out(r.A, k), r.n, false), r.n, prec<T>::id); }},
    {"lauum", 1. / 3, 0, 2, 0, A_TRI | W_A | C_OUT, 0, &api<T>::lauum,
     "cublasGemmStridedBatched(L^H*L)",
     [](X &r) { r.vflops = r.cx() * 2.0 * r.n * r.n * r.n;
                return r.time([&] { r.VB(V::gemm(r.c.cub, CUBLAS_OP_C, CUBLAS_OP_N, r.n, r.A, r.A, r.C, r.nn, T(0), r.ic)); }); },
     [](X &r, size_t k) { const int n = r.n; const mat l = lower(r.a0[k], n, false);
                          return r.ratio(diff(lower(r.out(r.A, k), n, false), lower(mul(transpose(l, n, true), l, n), n, false)),
                                         fro(l) * fro(l)); }},
    {"potri", 2. / 3, 0, 2, 0, A_TRI | W_A | C_OUT32, 0, &api<T>::potri,
     "cublasMatinvBatched",
     [](X &r) { return r.n > 32 ? (r.vname = "-", (double)NAN) : (r.vflops = r.cx() * 2.0 * r.n * r.n * r.n,
                r.time([&] { r.VB(V::matinv(r.c.cub, r.n, r.pA, r.pC, r.vinfo, r.ic)); })); },
     [](X &r, size_t k) { const int n = r.n; const mat l = lower(r.a0[k], n, false);
                          return inverse_ratio(mul(l, transpose(l, n, true), n), from_lower(r.out(r.A, k), n, true), n, prec<T>::id); }},
    {"poti", 1, 0, 2, 0, A_SPD | W_A | C_OUT32, 0, &api<T>::poti,
     "cublasMatinvBatched",
     [](X &r) { return r.n > 32 ? (r.vname = "-", (double)NAN) : (r.vflops = r.cx() * 2.0 * r.n * r.n * r.n,
                r.time([&] { r.VB(V::matinv(r.c.cub, r.n, r.pA, r.pC, r.vinfo, r.ic)); })); },
     [](X &r, size_t k) { return inverse_ratio(r.a0[k], from_lower(r.out(r.A, k), r.n, true), r.n, prec<T>::id); }},

    /* LU family */
    {"getrf", 2. / 3, 0, 2, 0, A_U | IPIV | W_A | VW_A, 0, &api<T>::getrf,
     "cublasGetrfBatched",
     [](X &r) { return r.time([&] { r.VB(V::getrf(r.c.cub, r.n, r.pA, r.ipiv, r.vinfo, r.ic)); }); },
     [](X &r, size_t k) {
         const int n = r.n;
         const mat f = r.out(r.A, k);
         const std::vector<int> ip = r.piv(k);
         mat pa = r.a0[k];
         for (int j = 0; j < n; j++) {
             const int q = ip[j] - 1;
             if (q < j || q >= n) return (double)INFINITY;
             for (int c = 0; c < n; c++) std::swap(pa[j + (size_t)c * n], pa[q + (size_t)c * n]);
         }
         return r.ratio(diff(pa, mul(lower(f, n, true), upper(f, n), n)), fro(r.a0[k])); }},
    {"getrfnp", 2. / 3, 0, 2, 0, A_TRI | W_A | VW_A, 0, &api<T>::getrfnp,
     "cublasGetrfBatched(no pivots)",
     [](X &r) { return r.time([&] { r.VB(V::getrf(r.c.cub, r.n, r.pA, NULL, r.vinfo, r.ic)); }); },
     [](X &r, size_t k) { const mat f = r.out(r.A, k);
                          return r.ratio(diff(r.a0[k], mul(lower(f, r.n, true), upper(f, r.n), r.n)), fro(r.a0[k])); }},
    {"getrs", 2, 0, 3, 0, A_U | PREP_LU | IPIV | B_U | W_B | VW_B, 0, &api<T>::getrs,
     "cublasGetrsBatched",
     [](X &r) { return r.time([&] { r.VB(V::getrs(r.c.cub, r.n, r.pA, r.ipiv, r.pB, r.ic)); }); },
     [](X &r, size_t k) { const mat &a = r.a0[k], x = r.out(r.B, k);
                          return r.ratio(diff(mul(a, x, r.n), r.b0[k]), fro(a) * fro(x)); }},
    {"gesv", 8. / 3, 0, 4, 0, A_U | IPIV | B_U | W_A | W_B | VW_A | VW_B, 0, &api<T>::gesv,
     "cublasGetrfB+GetrsB",
     [](X &r) { return r.time([&] { r.VB(V::getrf(r.c.cub, r.n, r.pA, r.ipiv, r.vinfo, r.ic));
                                    r.VB(V::getrs(r.c.cub, r.n, r.pA, r.ipiv, r.pB, r.ic)); }); },
     [](X &r, size_t k) { const mat &a = r.a0[k], x = r.out(r.B, k);
                          return r.ratio(diff(mul(a, x, r.n), r.b0[k]), fro(a) * fro(x)); }},
    {"getri", 4. / 3, 0, 2, 0, A_U | PREP_LU | IPIV | W_A | C_OUT, 0, &api<T>::getri,
     "cublasGetriBatched",
     [](X &r) { return r.time([&] { r.VB(V::getri(r.c.cub, r.n, r.pA, r.ipiv, r.pC, r.vinfo, r.ic)); }); },
     [](X &r, size_t k) { return inverse_ratio(r.a0[k], r.out(r.A, k), r.n, prec<T>::id); }},
    {"getri_oop", 4. / 3, 0, 2, 0, A_U | PREP_LU | IPIV | B_OUT, 0, &api<T>::getri_oop,
     "cublasGetriBatched",
     [](X &r) { return r.time([&] { r.VB(V::getri(r.c.cub, r.n, r.pA, r.ipiv, r.pB, r.vinfo, r.ic)); }); },
     [](X &r, size_t k) { return inverse_ratio(r.a0[k], r.out(r.B, k), r.n, prec<T>::id); }},
    {"geinv", 2, 0, 2, 0, A_U | B_OUT | IPIV | VW_A, 0, &api<T>::geinv,
     "cublasGetrfB+GetriB",
     [](X &r) {
         double t = r.time([&] { r.VB(V::getrf(r.c.cub, r.n, r.pA, r.ipiv, r.vinfo, r.ic));
                                 r.VB(V::getri(r.c.cub, r.n, r.pA, r.ipiv, r.pB, r.vinfo, r.ic)); });
         if (r.n <= 32 && !r.vfail) {
             const double mi = r.time([&] { r.VB(V::matinv(r.c.cub, r.n, r.pA, r.pB, r.vinfo, r.ic)); });
             if (r.vfail) r.vfail = false; /* matinv refused: keep getrf + getri */
             else if (mi < t) { t = mi; r.vname = "cublasMatinvBatched"; }
         }
         return t; },
     [](X &r, size_t k) { return inverse_ratio(r.a0[k], r.out(r.B, k), r.n, prec<T>::id); }},

    /* norms and condition numbers: no vendor routine */
    {"lange-one", 0, 1, 1, 1, A_U | Y_OUT, BblasOneNorm, &api<T>::lange, "-", NULL,
     [](X &r, size_t k) { const double v = norm_of(r.a0[k], r.n, r.norm); return r.ratio(fabs(r.yout(k) - v), v); }},
    {"lange-inf", 0, 1, 1, 1, A_U | Y_OUT, BblasInfNorm, &api<T>::lange, "-", NULL,
     [](X &r, size_t k) { const double v = norm_of(r.a0[k], r.n, r.norm); return r.ratio(fabs(r.yout(k) - v), v); }},
    {"lange-fro", 0, 1, 1, 1, A_U | Y_OUT, BblasFrobeniusNorm, &api<T>::lange, "-", NULL,
     [](X &r, size_t k) { const double v = norm_of(r.a0[k], r.n, r.norm); return r.ratio(fabs(r.yout(k) - v), v); }},
    {"gecond", 2, 0, 1, 1, A_U | Y_OUT, BblasOneNorm, &api<T>::gecond, "-", NULL,
     [](X &r, size_t k) { const double kappa = cond1(r.a0[k], r.n); /* c is accurate to kappa eps */
                          return r.ratio(fabs(r.yout(k) - kappa), kappa * kappa); }},
    {"gecon", 0, 4, 1, 2, A_U | PREP_ANORM | PREP_LU | IPIV | X_IN | Y_OUT, BblasOneNorm, &api<T>::gecon, "-", NULL,
     [](X &r, size_t k) { /* an estimate of ||inv(A)|| is a lower bound: rcond in [r, 10 n r] */
                          const double rc = 1.0 / cond1(r.a0[k], r.n), v = r.yout(k);
                          return r.ratio(std::max(0.0, rc - v) + std::max(0.0, v - 10.0 * r.n * rc), 1.0 /* r kappa */); }},
    };
    return t;
}

/* ------------------------------------------------------------------------ */
/* one row                                                                   */
/* ------------------------------------------------------------------------ */

/* One table row: ours and the vendor against the floor of the same run. */
static void emit_row(ctx &c, const char *rn, int pid, int n, long long count, double ours, double call_us,
                     double flops1, double bytes1, double vend, const char *vname, double vflops, double vbytes,
                     bool comparable, bool ok, double worst, long long bad_info)
{
    const double rate = c.gemm_rate[pid];
    const double fl = flops1 * count, by = bytes1 * count;
    row w;
    w.routine = rn;
    w.prec = prec_letter[pid];
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
    w.ours_vendor = comparable ? ours / vend : NAN; /* potrs, posv: the vendor solves one column only */
    w.err = worst;
    w.vendor = vname;
    w.ok = ok;
    if (!ok) {
        c.failed++;
        fprintf(stderr, "CHECK FAILED: %s %c n=%d: %lld nonzero info codes, worst ratio %.3g\n", rn, w.prec, n,
                bad_info, worst);
    }
    c.rows.push_back(w);
    char vm[16] = "-", vf[16] = "-", sp[16] = "-";
    if (!std::isnan(w.vendor_ms)) {
        snprintf(vm, sizeof vm, "%.4f", w.vendor_ms);
        snprintf(vf, sizeof vf, "%.2fx", w.vendor_floor);
    }
    if (!std::isnan(w.ours_vendor)) snprintf(sp, sizeof sp, "%.2f", w.ours_vendor);
    printf("%-9s %c %4d %8lld %9.4f %7.1f %9.1f %7.1f %5.1f%% %9.4f %6.2fx %9s %7s %8s %8.2g %-4s %s\n", w.routine,
           w.prec, w.n, w.batch, w.ours_ms, w.call_us, w.gflops, w.gbs, w.pct_bw, w.floor_ms, w.ours_floor, vm, vf, sp,
           w.err, w.ok ? "ok" : "FAIL", w.vendor);
    fflush(stdout);
}

template <typename T>
static void bench_row(ctx &c, const rdef<T> &d, int ridx, int n)
{
    typedef typename prec<T>::R R;
    const size_t es = sizeof(T);
    const unsigned f = d.opd;
    cudaStream_t s = c.s;
    rowctx<T> r(c, d);
    r.n = n;
    r.nn = (long long)n * n;
    r.norm = d.norm;

    /* batch: 10^6 for n <= 32, 10240 above (less in quick mode), bounded by
       BENCH_BUDGET (default batches) and by the free memory */
    const bool hasB = f & (B_U | B_OUT), hasC = (f & C_OUT) || ((f & C_OUT32) && n <= 32);
    const bool vend = c.o.vendor && d.vendor;
    const bool copyA = f & (W_A | (vend ? VW_A : 0)), copyB = f & (W_B | (vend ? VW_B : 0));
    const int nmat = 1 + hasB + hasC + copyA + copyB;
    const double per = (double)nmat * r.nn * es + ((f & IPIV) ? n * sizeof(int) : 0) + 2 * sizeof(R) +
                       (vend ? 3 * sizeof(void *) + sizeof(int) : 0);
    long long count = c.o.batch ? c.o.batch : (n <= 32 ? (c.o.quick ? 100000 : 1000000) : (c.o.quick ? 2048 : 10240));
    if (!c.o.batch) count = std::min(count, (long long)(BENCH_BUDGET / per));
    size_t freeb, totalb;
    CK(cudaMemGetInfo(&freeb, &totalb));
    count = std::min(count, (long long)((double)freeb * 0.75 / per));
    if (count < 1) { fprintf(stderr, "no memory for %s n=%d\n", d.name, n); return; }
    r.count = count;
    r.ic = (int)count;
    const size_t mb = (size_t)count * r.nn * es;

    /* ---- inputs */
    const uint64_t seed = (uint64_t)(ridx * 1000 + n) * 7 + prec<T>::id;
    CK(cudaMalloc(&r.A, mb));
    fill(r.A, n, count, (f & A_SPD) ? F_SPD : (f & A_TRI) ? F_TRI : F_UNIFORM, seed, s);
    if (hasB) {
        CK(cudaMalloc(&r.B, mb));
        if (f & B_U) fill(r.B, n, count, F_UNIFORM, seed + 1, s);
        else CK(cudaMemsetAsync(r.B, 0, mb, s));
    }
    if (hasC) { CK(cudaMalloc(&r.C, mb)); CK(cudaMemsetAsync(r.C, 0, mb, s)); }
    if (f & IPIV) CK(cudaMalloc(&r.ipiv, (size_t)count * n * sizeof(int)));
    CK(cudaMalloc(&r.X, (size_t)count * sizeof(R)));
    CK(cudaMalloc(&r.Y, (size_t)count * sizeof(R)));
    CK(cudaStreamSynchronize(s));
    r.smp = sample_of(count, n);
    for (size_t k = 0; k < r.smp.size(); k++) {
        r.a0.push_back(r.out(r.A, k));
        if (f & B_U) r.b0.push_back(r.out(r.B, k));
    }
    /* ---- untimed preparation: anorm (gecon), LU factors (getrs, getri, getri_oop, gecon) */
    bool ok = true;
    std::vector<int> info(count + 1);
    auto all_zero = [&] {
        long long bad = info[0] != 0;
        for (long long i = 1; i <= count; i++) bad += info[i] != 0;
        return bad;
    };
    if (f & PREP_ANORM) {
        R *y = r.Y;
        r.Y = r.X;
        r.norm = BblasOneNorm;
        info[0] = BblasErrorsReportAll;
        api<T>::lange(r, info.data());
        r.Y = y;
        r.norm = d.norm;
        if (all_zero()) { fprintf(stderr, "%s: preparation (lange) failed\n", d.name); ok = false; }
    }
    if (f & PREP_LU) {
        info[0] = BblasErrorsReportAll;
        api<T>::getrf(r, info.data());
        if (all_zero()) { fprintf(stderr, "%s: preparation (getrf) failed\n", d.name); ok = false; }
    }
    CK(cudaStreamSynchronize(s));
    if (copyA) { CK(cudaMalloc(&r.A0, mb)); CK(cudaMemcpyAsync(r.A0, r.A, mb, cudaMemcpyDeviceToDevice, s)); }
    if (copyB) { CK(cudaMalloc(&r.B0, mb)); CK(cudaMemcpyAsync(r.B0, r.B, mb, cudaMemcpyDeviceToDevice, s)); }
    CK(cudaStreamSynchronize(s));

    /* ---- ours: timed in mode None */
    int info_none[1];
    const double ours = c.tm.run(c.o.reps, [&] { info_none[0] = BblasErrorsReportNone; d.ours(r, info_none); },
                                 [&] { r.restore(f & (W_A | W_B)); });
    const double call_us = c.tm.host_us;
    CK(cudaStreamSynchronize(s));
    CK(cudaGetLastError());

    /* ---- ours: one checked run in mode All */
    r.restore(W_A | W_B);
    CK(cudaStreamSynchronize(s));
    info[0] = BblasErrorsReportAll;
    d.ours(r, info.data());
    CK(cudaStreamSynchronize(s));
    const long long bad_info = all_zero();
    double worst = 0;
    if (bad_info) ok = false;
    for (size_t k = 0; k < r.smp.size(); k++) {
        const double rt = d.check(r, k);
        if (!tu_accept(rt)) ok = false;
        worst = std::max(worst, std::isnan(rt) ? INFINITY : rt);
    }

    /* ---- vendor, on the same (restored) data */
    const double flops1 = r.cx() * (d.f3 * n * n * n + d.f2 * n * n);
    const double bytes1 = d.mats * r.nn * es + d.reals * sizeof(R);
    double vt = NAN;
    r.vflops = flops1;
    r.vbytes = bytes1;
    if (vend) {
        CB(cublasSetStream(c.cub, s));
        CS(cusolverDnSetStream(c.cus, s));
        r.vname = d.vname;
        r.pA = ptrs(r.A, r.nn, count, s);
        if (r.B) r.pB = ptrs(r.B, r.nn, count, s);
        if (r.C) r.pC = ptrs(r.C, r.nn, count, s);
        CK(cudaMalloc(&r.vinfo, (size_t)count * sizeof(int)));
        r.restore(W_A | W_B);
        vt = d.vendor(r);
        CK(cudaStreamSynchronize(s));
        CK(cudaGetLastError());
        if (r.vfail) { vt = NAN; r.vname = "vendor call failed"; } /* reported in the row, never fatal */
    }

    /* ---- the row */
    emit_row(c, d.name, prec<T>::id, n, count, ours, call_us, flops1, bytes1, vt, r.vname, r.vflops, r.vbytes,
             r.comparable, ok, worst, bad_info);
    T *m[] = {r.A, r.A0, r.B, r.B0, r.C};
    for (T *x : m) if (x) CK(cudaFree(x));
    T **pp[] = {r.pA, r.pB, r.pC};
    for (T **x : pp) if (x) CK(cudaFree(x));
    if (r.ipiv) CK(cudaFree(r.ipiv));
    if (r.vinfo) CK(cudaFree(r.vinfo));
    CK(cudaFree(r.X));
    CK(cudaFree(r.Y));
}

/* --routines: a table name, "lange" (its three norms), "inverse" (geinv and
   getri, the two rows the former "inverse" printed) */
static bool selected(const opts &o, const char *name)
{
    if (o.routines.empty()) return true;
    for (const std::string &s : o.routines) {
        if (s == name || (s == "inverse" && (!strcmp(name, "geinv") || !strcmp(name, "getri")))) return true;
        if (s == "lange" && !strncmp(name, "lange-", 6)) return true;
    }
    return false;
}

static void list_routines(void)
{
    printf("%-10s %-22s %-16s %s\n", "routine", "flops (real; x4 cplx)", "bytes", "vendor");
    for (const rdef<double> &d : table<double>()) {
        char fl[64], by[64];
        if (d.f3 && d.f2) snprintf(fl, sizeof fl, "%.3g n^3 + %.3g n^2", d.f3, d.f2);
        else if (d.f3) snprintf(fl, sizeof fl, "%.3g n^3", d.f3);
        else snprintf(fl, sizeof fl, "%.3g n^2", d.f2);
        if (d.reals) snprintf(by, sizeof by, "%g n^2 + %g real", d.mats, d.reals);
        else snprintf(by, sizeof by, "%g n^2", d.mats);
        printf("%-10s %-22s %-16s %s%s\n", d.name, fl, by, d.vendor ? d.vname : "none",
               (d.opd & CPLX_ONLY) ? "  (c, z only)" : "");
    }
}

template <typename T> static void bench_prec(ctx &c, size_t ridx, int n)
{
    const rdef<T> &d = table<T>()[ridx];
    if ((d.opd & CPLX_ONLY) && sizeof(T) == sizeof(typename prec<T>::R)) return;
    bench_row<T>(c, d, (int)ridx, n);
}


#ifndef BB_BENCH_DIRECT
#include "bench_var.cuh"
#endif

/* ------------------------------------------------------------------------ */
/* --link: the pinned copy rates of the host link                           */
/* ------------------------------------------------------------------------ */

/* 1 GiB each way from and to pinned host memory, the median of 5: H2D
   alone, D2H alone, and both at once on two streams (bytes of both
   directions over the time).  The host-data path of batchblas-bench is
   measured against the last figure (doc/performance.md, host data). */
static int link_probe(void)
{
    const size_t bytes = (size_t)1 << 30;
    void *h1, *h2, *d1, *d2;
    cudaStream_t s1, s2;
    CK(cudaMallocHost(&h1, bytes));
    CK(cudaMallocHost(&h2, bytes));
    CK(cudaMalloc(&d1, bytes));
    CK(cudaMalloc(&d2, bytes));
    CK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    memset(h1, 1, bytes);
    memset(h2, 2, bytes);
    double rate[3];
    for (int mode = 0; mode < 3; mode++) {
        std::vector<double> ts;
        for (int r = 0; r < 5; r++) {
            CK(cudaDeviceSynchronize());
            const double t = tu_now();
            if (mode != 1) CK(cudaMemcpyAsync(d1, h1, bytes, cudaMemcpyHostToDevice, s1));
            if (mode != 0) CK(cudaMemcpyAsync(h2, d2, bytes, cudaMemcpyDeviceToHost, s2));
            CK(cudaStreamSynchronize(s1));
            CK(cudaStreamSynchronize(s2));
            ts.push_back(tu_now() - t);
        }
        std::sort(ts.begin(), ts.end());
        rate[mode] = (mode == 2 ? 2.0 : 1.0) * bytes / ts[ts.size() / 2] / 1e9;
    }
    printf("link: pinned copies of 1 GiB: host to device %.1f GB/s, device to host %.1f GB/s, both at once %.1f GB/s\n",
           rate[0], rate[1], rate[2]);
    /* the host side of the staging path: memcpy of 1 GiB from pageable
       memory into the pinned buffer with T threads (the gather; the
       scatter is the same copy the other way), alone and while both DMA
       directions run (the staging path does all of it at once) */
    std::vector<char> pg(bytes);
    memset(pg.data(), 3, bytes);
    const int tmax = (int)std::thread::hardware_concurrency();
    for (int dma = 0; dma < 2; dma++)
        for (int T : {1, 4, 8, 16}) {
            if (T > tmax && T > 1) continue;
            std::vector<double> ts;
            for (int r = 0; r < 3; r++) {
                CK(cudaDeviceSynchronize());
                if (dma) {
                    CK(cudaMemcpyAsync(d1, h2, bytes, cudaMemcpyHostToDevice, s1));
                    CK(cudaMemcpyAsync(h2, d2, bytes, cudaMemcpyDeviceToHost, s2));
                }
                const double t = tu_now();
                std::vector<std::thread> th;
                for (int k = 0; k < T; k++)
                    th.emplace_back([&, k] {
                        size_t lo = bytes / T * k, hi = k == T - 1 ? bytes : bytes / T * (k + 1);
                        memcpy((char *)h1 + lo, pg.data() + lo, hi - lo);
                    });
                for (auto &x : th) x.join();
                ts.push_back(tu_now() - t);
                CK(cudaStreamSynchronize(s1));
                CK(cudaStreamSynchronize(s2));
            }
            std::sort(ts.begin(), ts.end());
            printf("link: host memcpy pageable -> pinned, 1 GiB, %2d threads%s: %.1f GB/s\n", T,
                   dma ? " (while both DMA directions run)" : "", bytes / ts[1] / 1e9);
        }
    /* the alternative to the copies: pinning the user's (pageable, touched)
       memory for the call, copying from and to it directly, unpinning */
    {
        std::vector<double> reg, h2d, d2h, unreg;
        for (int r = 0; r < 3; r++) {
            double t = tu_now();
            if (cudaHostRegister(pg.data(), bytes, cudaHostRegisterDefault) != cudaSuccess) {
                printf("link: cudaHostRegister of 1 GiB failed\n");
                (void)cudaGetLastError();
                break;
            }
            reg.push_back(tu_now() - t);
            t = tu_now();
            CK(cudaMemcpyAsync(d1, pg.data(), bytes, cudaMemcpyHostToDevice, s1));
            CK(cudaStreamSynchronize(s1));
            h2d.push_back(tu_now() - t);
            t = tu_now();
            CK(cudaMemcpyAsync(pg.data(), d1, bytes, cudaMemcpyDeviceToHost, s1));
            CK(cudaStreamSynchronize(s1));
            d2h.push_back(tu_now() - t);
            t = tu_now();
            CK(cudaHostUnregister(pg.data()));
            unreg.push_back(tu_now() - t);
        }
        if (reg.size() == 3) {
            for (auto *v : {&reg, &h2d, &d2h, &unreg}) std::sort(v->begin(), v->end());
            printf("link: registering the user's 1 GiB instead: cudaHostRegister %.1f ms (%.1f GB/s), copies from it "
                   "%.1f GB/s to the device, %.1f GB/s back, cudaHostUnregister %.1f ms\n",
                   reg[1] * 1e3, bytes / reg[1] / 1e9, bytes / h2d[1] / 1e9, bytes / d2h[1] / 1e9, unreg[1] * 1e3);
        }
    }
    cudaStreamDestroy(s1);
    cudaStreamDestroy(s2);
    cudaFree(d1);
    cudaFree(d2);
    cudaFreeHost(h1);
    cudaFreeHost(h2);
    return 0;
}

/* --link-all: the same pinned copies on the first k devices at once (k = 1,
   2, 4, ... up to every visible device), 1 GiB each way per device from its
   own portable pinned buffers, both directions at once: the ceiling of a
   host-data batch split over k GPUs when its operands are page-locked
   (batchblas_malloc_host), as bytes of every device and direction over the
   time, and the speedup over one device. */
static int link_all_probe(void)
{
    int ndev = 0;
    CK(cudaGetDeviceCount(&ndev));
    const size_t bytes = (size_t)1 << 30;
    std::vector<void *> hin(ndev), hout(ndev), din(ndev), dout(ndev);
    std::vector<cudaStream_t> s1(ndev), s2(ndev);
    for (int d = 0; d < ndev; d++) {
        CK(cudaSetDevice(d));
        CK(cudaHostAlloc(&hin[d], bytes, cudaHostAllocPortable));
        CK(cudaHostAlloc(&hout[d], bytes, cudaHostAllocPortable));
        memset(hin[d], 1, bytes);
        memset(hout[d], 2, bytes);
        CK(cudaMalloc(&din[d], bytes));
        CK(cudaMalloc(&dout[d], bytes));
        CK(cudaStreamCreateWithFlags(&s1[d], cudaStreamNonBlocking));
        CK(cudaStreamCreateWithFlags(&s2[d], cudaStreamNonBlocking));
    }
    double one = 0;
    std::vector<int> ks;
    for (int k = 1; k <= ndev; k *= 2) ks.push_back(k);
    if (ks.back() != ndev) ks.push_back(ndev);
    for (int k : ks) {
        for (int dir = 0; dir < 3; dir++) { /* 0 H2D, 1 D2H, 2 both */
            std::vector<double> ts;
            for (int r = 0; r < 5; r++) {
                for (int d = 0; d < k; d++) {
                    CK(cudaSetDevice(d));
                    CK(cudaDeviceSynchronize());
                }
                const double t = tu_now();
                for (int d = 0; d < k; d++) {
                    CK(cudaSetDevice(d));
                    if (dir != 1) CK(cudaMemcpyAsync(din[d], hin[d], bytes, cudaMemcpyHostToDevice, s1[d]));
                    if (dir != 0) CK(cudaMemcpyAsync(hout[d], dout[d], bytes, cudaMemcpyDeviceToHost, s2[d]));
                }
                for (int d = 0; d < k; d++) {
                    CK(cudaStreamSynchronize(s1[d]));
                    CK(cudaStreamSynchronize(s2[d]));
                }
                ts.push_back(tu_now() - t);
            }
            std::sort(ts.begin(), ts.end());
            const double gbs = (dir == 2 ? 2.0 : 1.0) * k * bytes / ts[2] / 1e9;
            if (k == 1 && dir == 2) one = gbs;
            printf("link-all: %d device(s) at once, %s: %.1f GB/s in all%s", k,
                   dir == 0 ? "host to device" : dir == 1 ? "device to host" : "both directions", gbs,
                   dir == 2 && one > 0 ? "" : "\n");
            if (dir == 2 && one > 0) printf(" (%.2fx one device)\n", gbs / one);
        }
    }
    for (int d = 0; d < ndev; d++) {
        CK(cudaSetDevice(d));
        cudaStreamDestroy(s1[d]);
        cudaStreamDestroy(s2[d]);
        cudaFree(din[d]);
        cudaFree(dout[d]);
        cudaFreeHost(hin[d]);
        cudaFreeHost(hout[d]);
    }
    CK(cudaSetDevice(0));
    return 0;
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

/* C = A B of one large n x n GEMM in precision T: flop/s (complex: 8n^3) */
template <typename T> static double gemm_rate(ctx &c, int n)
{
    T *A, *B, *C;
    const size_t e = (size_t)n * n;
    CK(cudaMalloc(&A, e * sizeof(T)));
    CK(cudaMalloc(&B, e * sizeof(T)));
    CK(cudaMalloc(&C, e * sizeof(T)));
    fill(A, n, 1, F_UNIFORM, 1, c.s);
    fill(B, n, 1, F_UNIFORM, 2, c.s);
    const double tg = c.tm.run(5, [&] { CB(vend<T>::gemm(c.cub, CUBLAS_OP_N, CUBLAS_OP_N, n, A, B, C, 0, T(0), 1)); }, [] {});
    CK(cudaFree(A));
    CK(cudaFree(B));
    CK(cudaFree(C));
    return (sizeof(T) == sizeof(typename prec<T>::R) ? 2.0 : 8.0) * n * n * (double)n / (tg * 1e-3);
}

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
    c.gemm_rate[0] = gemm_rate<float>(c, n);
    c.gemm_rate[1] = gemm_rate<double>(c, n);
    c.gemm_rate[2] = gemm_rate<cfloat>(c, n / 2); /* 4x the flops of a real one of the same n */
    c.gemm_rate[3] = gemm_rate<cdouble>(c, n / 2);
}

int main(int argc, char **argv)
{
    ctx c;
    c.o = parse(argc, argv);
    const std::vector<rdef<double>> &tab = table<double>(); /* names (the same in every precision) */
    for (const std::string &s : c.o.routines) {
        bool found = s == "inverse" || s == "lange";
        for (const rdef<double> &d : tab) found = found || s == d.name;
        if (!found) { fprintf(stderr, "unknown routine %s (--list shows them)\n", s.c_str()); return 1; }
    }
    if (c.o.list) { list_routines(); return 0; }
    const double t0 = tu_now();
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
        fprintf(stderr, "batchblas-bench-gpu: no CUDA device\n");
        return 77;
    }
    CK(cudaSetDevice(0));
    if (c.o.link) return link_probe();
    if (c.o.link_all) return link_all_probe();
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
    c.tm.idle = c.o.var; /* variable sizes: host work (checks, planning) is part of the call's time */
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
    printf("ceilings: copy %.0f GB/s (read + write), GEMM TFLOP/s: S %.1f  D %.1f  C %.1f  Z %.1f\n", c.copy_bw / 1e9,
           c.gemm_rate[0] / 1e12, c.gemm_rate[1] / 1e12, c.gemm_rate[2] / 1e12, c.gemm_rate[3] / 1e12);
    printf("units: flops as LAPACK working notes (complex 4x), bytes each matrix once per direction (see the header of "
           "bench/bench_gpu.cu); floor = max(bytes/copy BW, flops/GEMM rate); ours/ven = our time / vendor time\n");
    printf("%-9s %c %4s %8s %9s %7s %9s %7s %6s %9s %7s %9s %7s %8s %8s %-4s %s\n", "routine", 'p', "n", "batch",
           "ours_ms", "call_us", "GFLOP/s", "GB/s", "%bw", "floor_ms", "ours/fl", "vend_ms", "ven/fl", "ours/ven", "err",
           "ok", "vendor");
#ifndef BB_BENCH_DIRECT
    if (c.o.var) var_rows(c);
#endif
    for (size_t ri = 0; ri < tab.size() && !c.o.var; ri++) {
        if (!selected(c.o, tab[ri].name)) continue;
        for (char p : c.o.precs)
            for (int n : c.o.sizes) {
                if (n < 1) continue;
                switch (p) {
                case 's': bench_prec<float>(c, ri, n); break;
                case 'd': bench_prec<double>(c, ri, n); break;
                case 'c': bench_prec<cfloat>(c, ri, n); break;
                case 'z': bench_prec<cdouble>(c, ri, n); break;
                }
            }
    }
#ifndef BB_BENCH_DIRECT
    if (c.o.extras) extras(c);
#endif
    if (c.o.csv && c.o.var) {
        FILE *f = fopen(c.o.csv, "w");
        if (!f) {
            fprintf(stderr, "cannot write %s\n", c.o.csv);
        } else {
            fprintf(f, "# copy_GBps=%.1f dgemm_TFLOPs=%.2f device=%s\n", c.copy_bw / 1e9, c.gemm_rate[1] / 1e12,
                    prop.name);
            fprintf(f, "routine,prec,dist,nmax,batch,ours_ms,host_us,floor_ms,share_of_floor,fixed_n,fixed_share,"
                       "var_over_fixed,ok,vendor_ms\n");
            for (const vrow_out &w : c.vrows)
                fprintf(f, "%s,%c,%s,%d,%lld,%.6f,%.1f,%.6f,%.4f,%d,%.4f,%.3f,%s,%.6f\n", w.routine, w.prec, w.dist,
                        w.nmax, w.batch, w.ms, w.host_us, w.floor_ms, w.share, w.fixed_n, w.fixed_share,
                        w.share / w.fixed_share, w.ok ? "ok" : "FAIL", w.vendor_ms);
            fclose(f);
        }
    } else if (c.o.csv) {
        FILE *f = fopen(c.o.csv, "w");
        if (!f) {
            fprintf(stderr, "cannot write %s\n", c.o.csv);
        } else {
            fprintf(f, "# copy_GBps=%.1f sgemm_TFLOPs=%.2f dgemm_TFLOPs=%.2f cgemm_TFLOPs=%.2f zgemm_TFLOPs=%.2f "
                       "device=%s\n", c.copy_bw / 1e9, c.gemm_rate[0] / 1e12, c.gemm_rate[1] / 1e12,
                    c.gemm_rate[2] / 1e12, c.gemm_rate[3] / 1e12, prop.name);
            fprintf(f, "routine,prec,n,batch,ours_ms,gflops,gbs,pct_copy_bw,floor_ms,ours_over_floor,vendor_ms,"
                       "vendor_over_floor,ours_over_vendor,err_ratio,ok,vendor,call_us\n");
            for (const row &w : c.rows)
                fprintf(f, "%s,%c,%d,%lld,%.6f,%.3f,%.3f,%.2f,%.6f,%.4f,%.6f,%.4f,%.4f,%.4g,%s,%s,%.1f\n", w.routine,
                        w.prec, w.n, w.batch, w.ours_ms, w.gflops, w.gbs, w.pct_bw, w.floor_ms, w.ours_floor,
                        w.vendor_ms, w.vendor_floor, w.ours_vendor, w.err, w.ok ? "ok" : "FAIL", w.vendor, w.call_us);
            fclose(f);
        }
    }
    cusolverDnDestroy(c.cus);
    cublasDestroy(c.cub);
#ifndef BB_BENCH_DIRECT
    batchblas_queue_destroy(c.q);
#endif
    printf("GPU bench: %zu rows, %zu variable rows, %d failed checks (%.0f s)\n", c.rows.size(), c.vrows.size(), c.failed,
           tu_now() - t0);
    return c.failed ? 1 : 0;
}
