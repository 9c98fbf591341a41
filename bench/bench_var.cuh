/*
 * batchblas-bench-gpu --form var: variable sizes (seed 000) through the
 * public _batchv_dev calls.  Included by bench_gpu.cu (its ctx, timer,
 * fills and emit conventions).
 *
 * Sizes: for each Nmax of --sizes, `--dist uniform` draws n uniform in
 * [1, Nmax]; `--dist skewed` puts 1% of the problems at Nmax and the rest
 * uniform in [1, max(1, Nmax/10)] (seed 000's two distributions).  Batch:
 * 10^6 problems for Nmax <= 32, 10240 above (--batch overrides).  Every
 * matrix is packed (lda = n, one after the other); square problems, nrhs
 * = n, the bench's fixed options (lower, left, no transpose, non-unit,
 * alpha 1, beta 0; gecond: infinity norm).  The floor is that of the
 * actual sizes: max(sum of bytes / copy bandwidth, sum of flops / GEMM
 * rate), with the per-problem bytes and flops of the fixed rows (header
 * of bench_gpu.cu).
 *
 * Each row prints our time (CUDA events around the call, which starts on
 * an idle GPU, so that the host work inside it counts: the checks, the
 * plan, the transfers; every row of a --form var run is timed so, the
 * fixed ones too), the host time alone, the share of the floor, and the
 * share that the fixed-size row of the same routine reaches at n = Nmax/2
 * in the same run (bench_row on its usual batch; --no-fixed leaves it out,
 * for the sanitizers): the issue's yardstick.
 * Check: the variable call's outputs and info must be bitwise those of
 * fixed-size calls (_batchf_dev) on the problems of each size, which the
 * fixed rows check against a CPU reference.
 */

enum { VD_UNIFORM, VD_SKEWED };

/* The vendor's variable GEMM: cuBLAS's grouped GEMM (a group per problem,
   the sizes in host arrays, the pointer arrays on the device; s and d
   only), C = A B on the same problems as ours. */
template <typename T> struct vgrouped {
    static bool has() { return false; }
    static cublasStatus_t run(cublasHandle_t, int, const int *, T **, T **, T **) { return CUBLAS_STATUS_NOT_SUPPORTED; }
};
#define VGROUPED_T(T, L)                                                                                         \
    template <> struct vgrouped<T> {                                                                              \
        static bool has() { return true; }                                                                       \
        static cublasStatus_t run(cublasHandle_t h, int cnt, const int *n, T **a, T **b, T **c)                 \
        {                                                                                                         \
            static std::vector<cublasOperation_t> op;                                                             \
            static std::vector<T> one, zero;                                                                      \
            static std::vector<int> gs;                                                                           \
            op.assign(cnt, CUBLAS_OP_N);                                                                          \
            one.assign(cnt, T(1));                                                                                \
            zero.assign(cnt, T(0));                                                                               \
            gs.assign(cnt, 1);                                                                                    \
            return cublas##L##gemmGroupedBatched(h, op.data(), op.data(), n, n, n, one.data(), a, n, b, n,       \
                                                 zero.data(), c, n, cnt, gs.data());                              \
        }                                                                                                         \
    };
VGROUPED_T(float, S)
VGROUPED_T(double, D)

/* problem i's matrix at off[i] (elements), n[i] x n[i] */
template <typename R>
__global__ void k_fill_var(R *A, const long long *off, const int *nv, long long count, int kind, int cplx,
                           uint64_t seed)
{
    for (long long p = blockIdx.x; p < count; p += gridDim.x) {
        const int n = nv[p];
        const long long o = off[p];
        for (int e = threadIdx.x; e < n * n; e += blockDim.x) {
            const int i = e % n, j = e / n;
            uint64_t key = seed * 0x100000001B3ull + (uint64_t)(o + e);
            if (kind == F_SPD) {
                int a = i < j ? i : j, b = i < j ? j : i;
                key = seed * 0x100000001B3ull + (uint64_t)(o + a + (long long)b * n);
            }
            double v = hash01(key), w = cplx ? hash01(key ^ 0x5DEECE66DA5A5A5Aull) : 0.0;
            if (kind == F_SPD && i < j) w = -w;
            if (kind != F_UNIFORM && i == j) { v = (cplx ? 1.5 : 1.0) * n + fabs(v); w = 0; }
            if (cplx) { A[2 * (o + e)] = (R)v; A[2 * (o + e) + 1] = (R)w; }
            else A[o + e] = (R)v;
        }
    }
}

template <typename T>
__global__ void k_ptrs_var(T **P, T *base, const long long *off, long long count)
{
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += (long long)gridDim.x * blockDim.x)
        P[i] = base + off[i];
}

/* operands of a variable row */
enum { V_B = 1, V_C = 2, V_PIV = 4, V_Y = 8, V_WA = 16, V_WB = 32, V_IDPIV = 64 };

template <typename T> struct vrow {
    typedef typename prec<T>::R R;
    int count;
    std::vector<int> n, ld;                      /* sizes, lda = n */
    std::vector<long long> off;                  /* element offsets */
    long long total = 0;                         /* elements of all matrices */
    T *A = NULL, *A0 = NULL, *B = NULL, *B0 = NULL, *C = NULL;
    T **pa = NULL, **pb = NULL, **pc = NULL;
    int *piv = NULL, **pp = NULL;                /* pivots: n[i] ints at offp[i] */
    std::vector<long long> offp;
    R *Y = NULL;
    std::vector<bblas_enum_t> lo, left, nt, nu, inf, fro;
    std::vector<T> one, zero;
    /* what the variable call passes: the vectors above and n, or their
       device copies (--dev-params) */
    const int *pn = NULL;
    const bblas_enum_t *plo = NULL, *pleft = NULL, *pnt = NULL, *pnu = NULL, *pinf = NULL, *pfro = NULL;
    const T *pone = NULL, *pzero = NULL;
    std::vector<void *> dev; /* the device copies, freed with the row */
};

#define VCM BblasColMajor
/* the variable and fixed-size calls of each routine, in precision L */
#define VAPI_T(T, L)                                                                                              \
    template <> struct vapi<T> {                                                                                  \
        typedef vrow<T> V;                                                                                        \
        static void call(const char *r, V &v, int cnt, const int *n, T **a, T **b, T **c, int **p,                \
                         typename prec<T>::R *y, int *info, batchblas_queue_t q)                                 \
        {                                                                                                         \
            const int *ld = n;                                                                                    \
            std::string s(r);                                                                                     \
            if (s == "potrf") lapack_##L##potrf_batchv_dev(cnt, VCM, v.plo, n, a, ld, info, q);            \
            else if (s == "potrs") lapack_##L##potrs_batchv_dev(cnt, VCM, v.plo, n, n, a, ld, b, ld, info, q); \
            else if (s == "posv") lapack_##L##posv_batchv_dev(cnt, VCM, v.plo, n, n, a, ld, b, ld, info, q); \
            else if (s == "trtri") lapack_##L##trtri_batchv_dev(cnt, VCM, v.plo, v.pnu, n, a, ld, info, q); \
            else if (s == "lauum") lapack_##L##lauum_batchv_dev(cnt, VCM, v.plo, n, a, ld, info, q);       \
            else if (s == "potri") lapack_##L##potri_batchv_dev(cnt, VCM, v.plo, n, a, ld, info, q);       \
            else if (s == "poti") lapack_##L##poti_batchv_dev(cnt, VCM, v.plo, n, a, ld, info, q);         \
            else if (s == "getrf") lapack_##L##getrf_batchv_dev(cnt, VCM, n, n, a, ld, p, info, q);              \
            else if (s == "getrs")                                                                                \
                lapack_##L##getrs_batchv_dev(cnt, VCM, v.pnt, n, n, a, ld, p, b, ld, info, q);              \
            else if (s == "gesv") lapack_##L##gesv_batchv_dev(cnt, VCM, n, n, a, ld, p, b, ld, info, q);         \
            else if (s == "getri") lapack_##L##getri_batchv_dev(cnt, VCM, n, a, ld, p, info, q);                 \
            else if (s == "geinv") lapack_##L##geinv_batchv_dev(cnt, VCM, n, a, ld, b, ld, info, q);             \
            else if (s == "gecond") lapack_##L##gecond_batchv_dev(cnt, VCM, v.pinf, n, a, ld, y, info, q); \
            else if (s == "trsm")                                                                                 \
                blas_##L##trsm_batchv_dev(cnt, VCM, v.pleft, v.plo, v.pnt, v.pnu, n, n,   \
                                          v.pone, a, ld, b, ld, info, q);                                   \
            else if (s == "gemm")                                                                                 \
                blas_##L##gemm_batchv_dev(cnt, VCM, v.pnt, v.pnt, n, n, n, v.pone, a, ld, b,    \
                                          ld, v.pzero, c, ld, info, q);                                     \
            else if (s == "trmm")                                                                                 \
                blas_##L##trmm_batchv_dev(cnt, VCM, v.pleft, v.plo, v.pnt, v.pnu, n, n,   \
                                          v.pone, a, ld, b, ld, info, q);                                   \
            else if (s == "syrk")                                                                                 \
                blas_##L##syrk_batchv_dev(cnt, VCM, v.plo, v.pnt, n, n, v.pone, a, ld,          \
                                          v.pzero, c, ld, info, q);                                         \
            else if (s == "symm")                                                                                 \
                blas_##L##symm_batchv_dev(cnt, VCM, v.pleft, v.plo, n, n, v.pone, a, ld, b, ld, \
                                          v.pzero, c, ld, info, q);                                         \
            else if (s == "lange-inf") lapack_##L##lange_batchv_dev(cnt, VCM, v.pinf, n, n, a, ld, y, info, q); \
            else if (s == "lange-fro") lapack_##L##lange_batchv_dev(cnt, VCM, v.pfro, n, n, a, ld, y, info, q); \
            else die(r, "no variable call", __LINE__);                                                            \
        }                                                                                                         \
        static void fixed(const char *r, int cnt, int n, T **a, T **b, T **c, int **p,                           \
                          typename prec<T>::R *y, int *info, batchblas_queue_t q)                                \
        {                                                                                                         \
            std::string s(r);                                                                                     \
            const bblas_enum_t LOW = BblasLower;                                                                  \
            if (s == "potrf") lapack_##L##potrf_batchf_dev(cnt, VCM, LOW, n, a, n, info, q);                     \
            else if (s == "potrs") lapack_##L##potrs_batchf_dev(cnt, VCM, LOW, n, n, a, n, b, n, info, q);       \
            else if (s == "posv") lapack_##L##posv_batchf_dev(cnt, VCM, LOW, n, n, a, n, b, n, info, q);         \
            else if (s == "trtri") lapack_##L##trtri_batchf_dev(cnt, VCM, LOW, BblasNonUnit, n, a, n, info, q);  \
            else if (s == "lauum") lapack_##L##lauum_batchf_dev(cnt, VCM, LOW, n, a, n, info, q);                \
            else if (s == "potri") lapack_##L##potri_batchf_dev(cnt, VCM, LOW, n, a, n, info, q);                \
            else if (s == "poti") lapack_##L##poti_batchf_dev(cnt, VCM, LOW, n, a, n, info, q);                  \
            else if (s == "getrf") lapack_##L##getrf_batchf_dev(cnt, VCM, n, n, a, n, p, info, q);               \
            else if (s == "getrs") lapack_##L##getrs_batchf_dev(cnt, VCM, BblasNoTrans, n, n, a, n, p, b, n, info, q); \
            else if (s == "gesv") lapack_##L##gesv_batchf_dev(cnt, VCM, n, n, a, n, p, b, n, info, q);           \
            else if (s == "getri") lapack_##L##getri_batchf_dev(cnt, VCM, n, a, n, p, info, q);                  \
            else if (s == "geinv") lapack_##L##geinv_batchf_dev(cnt, VCM, n, a, n, b, n, info, q);               \
            else if (s == "gecond") lapack_##L##gecond_batchf_dev(cnt, VCM, BblasInfNorm, n, a, n, y, info, q);  \
            else if (s == "trsm")                                                                                 \
                blas_##L##trsm_batchf_dev(cnt, VCM, BblasLeft, LOW, BblasNoTrans, BblasNonUnit, n, n, T(1), a, n, \
                                          b, n, info, q);                                                         \
            else if (s == "gemm")                                                                                 \
                blas_##L##gemm_batchf_dev(cnt, VCM, BblasNoTrans, BblasNoTrans, n, n, n, T(1), a, n, b, n, T(0), \
                                          c, n, info, q);                                                         \
            else if (s == "trmm")                                                                                 \
                blas_##L##trmm_batchf_dev(cnt, VCM, BblasLeft, LOW, BblasNoTrans, BblasNonUnit, n, n, T(1), a, n, \
                                          b, n, info, q);                                                         \
            else if (s == "syrk") blas_##L##syrk_batchf_dev(cnt, VCM, LOW, BblasNoTrans, n, n, T(1), a, n, T(0), c, n, info, q); \
            else if (s == "symm")                                                                                 \
                blas_##L##symm_batchf_dev(cnt, VCM, BblasLeft, LOW, n, n, T(1), a, n, b, n, T(0), c, n, info, q); \
            else if (s == "lange-inf") lapack_##L##lange_batchf_dev(cnt, VCM, BblasInfNorm, n, n, a, n, y, info, q); \
            else if (s == "lange-fro") lapack_##L##lange_batchf_dev(cnt, VCM, BblasFrobeniusNorm, n, n, a, n, y, info, q); \
            else die(r, "no fixed call", __LINE__);                                                               \
        }                                                                                                         \
    };
template <typename T> struct vapi;
VAPI_T(float, s)
VAPI_T(double, d)
VAPI_T(cfloat, c)
VAPI_T(cdouble, z)
#undef VAPI_T
#undef VCM

/* A variable row: name, operands, A's fill, bytes (elements of n^2; +1 real
   for gecond's output) and flops per problem as functions of n. */
struct vdef {
    const char *name;
    unsigned opd;
    int fill;
    double bytes_n2;
    double flops_n3;
};
static const vdef VDEFS[] = {
    {"potrf", V_WA, F_SPD, 2, 1.0 / 3},
    {"potrs", V_B | V_WB, F_TRI, 3, 2},
    {"posv", V_B | V_WA | V_WB, F_SPD, 4, 7.0 / 3},
    {"trtri", V_WA, F_TRI, 2, 1.0 / 3},
    {"lauum", V_WA, F_TRI, 2, 1.0 / 3},
    {"potri", V_WA, F_TRI, 2, 2.0 / 3},
    {"poti", V_WA, F_SPD, 2, 1},
    {"getrf", V_PIV | V_WA, F_UNIFORM, 2, 2.0 / 3},
    {"getrs", V_B | V_PIV | V_IDPIV | V_WB, F_TRI, 3, 2},
    {"gesv", V_B | V_PIV | V_WA | V_WB, F_TRI, 4, 8.0 / 3},
    {"getri", V_PIV | V_IDPIV | V_WA, F_TRI, 2, 4.0 / 3},
    {"geinv", V_B | V_WB, F_TRI, 2, 2},
    {"gecond", V_Y, F_TRI, 1, 2},
    {"trsm", V_B | V_WB, F_TRI, 3, 1},
    {"gemm", V_B | V_C, F_UNIFORM, 3, 2},
    {"trmm", V_B | V_WB, F_TRI, 3, 1},
    {"syrk", V_C, F_UNIFORM, 2, 1},
    {"symm", V_B | V_C, F_UNIFORM, 3, 2},
    {"lange-inf", V_Y, F_UNIFORM, 1, 0},
    {"lange-fro", V_Y, F_UNIFORM, 1, 0},
};

__global__ void k_idpiv(int *piv, const long long *offp, const int *nv, long long count)
{
    for (long long p = blockIdx.x; p < count; p += gridDim.x)
        for (int i = threadIdx.x; i < nv[p]; i += blockDim.x) piv[offp[p] + i] = i + 1;
}

template <typename T> static std::vector<T> dl(const T *d, size_t n)
{
    std::vector<T> h(n);
    if (n) CK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

template <typename T>
static void var_row(ctx &c, const vdef &vd, int nmax, int dist)
{
    typedef typename prec<T>::R R;
    const int pid = prec<T>::id;
    const bool cplx = sizeof(T) != sizeof(R);
    vrow<T> v;
    v.count = (int)(c.o.batch > 0 ? c.o.batch : nmax <= 32 ? (c.o.quick ? 100000 : 1000000) : 10240);
    const int cnt = v.count;
    v.n.resize(cnt);
    v.off.resize(cnt);
    v.offp.resize(cnt);
    uint64_t x = 0x2545F4914F6CDD1Dull + (uint64_t)nmax * 7 + dist;
    double bytes = 0, flops = 0;
    long long tp = 0;
    for (int i = 0; i < cnt; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        const uint64_t h = x >> 24;
        int n;
        if (dist == VD_UNIFORM) n = 1 + (int)(h % (uint64_t)nmax);
        else if (h % 100 == 0) n = nmax;
        else n = 1 + (int)((h / 100) % (uint64_t)std::max(1, nmax / 10));
        v.n[i] = n;
        v.off[i] = v.total;
        v.total += (long long)n * n;
        v.offp[i] = tp;
        tp += n;
        bytes += vd.bytes_n2 * n * n * sizeof(T) + (vd.opd & V_Y ? sizeof(R) : 0);
        flops += vd.flops_n3 * n * (double)n * n * (cplx ? 4 : 1);
    }
    const size_t mb = (size_t)v.total * sizeof(T);
    long long *doff, *doffp;
    int *dn;
    CK(cudaMalloc(&doff, cnt * sizeof(long long)));
    CK(cudaMalloc(&doffp, cnt * sizeof(long long)));
    CK(cudaMalloc(&dn, cnt * sizeof(int)));
    CK(cudaMemcpy(doff, v.off.data(), cnt * sizeof(long long), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(doffp, v.offp.data(), cnt * sizeof(long long), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dn, v.n.data(), cnt * sizeof(int), cudaMemcpyHostToDevice));
    auto mat = [&](T **m, T ***pm, int kind, uint64_t seed) {
        CK(cudaMalloc(m, mb ? mb : 1));
        if (kind != F_NONE)
            k_fill_var<R><<<grid_for(cnt, 1), 256, 0, c.s>>>((R *)*m, doff, dn, cnt, kind, cplx, seed);
        else CK(cudaMemsetAsync(*m, 0, mb, c.s));
        CK(cudaMalloc(pm, cnt * sizeof(T *)));
        k_ptrs_var<T><<<grid_for(cnt, 256), 256, 0, c.s>>>(*pm, *m, doff, cnt);
        CK(cudaGetLastError());
    };
    mat(&v.A, &v.pa, vd.fill, 11);
    CK(cudaMalloc(&v.A0, mb ? mb : 1));
    CK(cudaMemcpyAsync(v.A0, v.A, mb, cudaMemcpyDeviceToDevice, c.s));
    if (vd.opd & V_B) {
        mat(&v.B, &v.pb, vd.name == std::string("geinv") ? F_NONE : F_UNIFORM, 12);
        CK(cudaMalloc(&v.B0, mb ? mb : 1));
        CK(cudaMemcpyAsync(v.B0, v.B, mb, cudaMemcpyDeviceToDevice, c.s));
    }
    if (vd.opd & V_C) mat(&v.C, &v.pc, F_NONE, 0);
    if (vd.opd & V_PIV) {
        CK(cudaMalloc(&v.piv, (tp ? tp : 1) * sizeof(int)));
        CK(cudaMemsetAsync(v.piv, 0, tp * sizeof(int), c.s));
        if (vd.opd & V_IDPIV) k_idpiv<<<grid_for(cnt, 1), 64, 0, c.s>>>(v.piv, doffp, dn, cnt);
        CK(cudaMalloc(&v.pp, cnt * sizeof(int *)));
        k_ptrs_var<int><<<grid_for(cnt, 256), 256, 0, c.s>>>(v.pp, v.piv, doffp, cnt);
    }
    if (vd.opd & V_Y) CK(cudaMalloc(&v.Y, cnt * sizeof(R)));
    v.lo.assign(cnt, BblasLower);
    v.left.assign(cnt, BblasLeft);
    v.nt.assign(cnt, BblasNoTrans);
    v.nu.assign(cnt, BblasNonUnit);
    v.inf.assign(cnt, BblasInfNorm);
    v.fro.assign(cnt, BblasFrobeniusNorm);
    v.one.assign(cnt, T(1));
    v.zero.assign(cnt, T(0));
    v.pn = v.n.data();
    v.plo = v.lo.data(), v.pleft = v.left.data(), v.pnt = v.nt.data(), v.pnu = v.nu.data();
    v.pinf = v.inf.data(), v.pfro = v.fro.data(), v.pone = v.one.data(), v.pzero = v.zero.data();
    if (c.o.dev_params) {
        auto up = [&](const void *h, size_t bytes) -> void * {
            void *d = NULL;
            CK(cudaMalloc(&d, bytes ? bytes : 1));
            CK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice));
            v.dev.push_back(d);
            return d;
        };
        const size_t eb = (size_t)cnt * sizeof(bblas_enum_t), tb = (size_t)cnt * sizeof(T);
        v.pn = (const int *)up(v.n.data(), (size_t)cnt * sizeof(int));
        v.plo = (const bblas_enum_t *)up(v.lo.data(), eb);
        v.pleft = (const bblas_enum_t *)up(v.left.data(), eb);
        v.pnt = (const bblas_enum_t *)up(v.nt.data(), eb);
        v.pnu = (const bblas_enum_t *)up(v.nu.data(), eb);
        v.pinf = (const bblas_enum_t *)up(v.inf.data(), eb);
        v.pfro = (const bblas_enum_t *)up(v.fro.data(), eb);
        v.pone = (const T *)up(v.one.data(), tb);
        v.pzero = (const T *)up(v.zero.data(), tb);
    }
    CK(cudaStreamSynchronize(c.s));
    auto restore = [&] {
        if (vd.opd & V_WA) CK(cudaMemcpyAsync(v.A, v.A0, mb, cudaMemcpyDeviceToDevice, c.s));
        if (vd.opd & V_WB) CK(cudaMemcpyAsync(v.B, v.B0, mb, cudaMemcpyDeviceToDevice, c.s));
    };
    int info = BblasErrorsReportNone;
    /* the timed calls alone between the profiler's start and stop (no-ops
       without one): `ncu --profile-from-start off` sees them, not the check's
       fixed-size calls below */
    CK(cudaProfilerStart());
    const double t = c.tm.run(c.o.reps, [&] {
        vapi<T>::call(vd.name, v, cnt, v.pn, v.pa, v.pb, v.pc, v.pp, v.Y, &info, c.q);
    }, restore);
    CK(cudaProfilerStop());
    const double host_us = c.tm.host_us;
    double vendor_ms = NAN;
    /* (not above 65536 problems: 10^6 groups took 8-12 s a call on the H200) */
    if (c.o.vendor && vd.name == std::string("gemm") && vgrouped<T>::has() && cnt <= 65536) {
        cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
        CK(cudaMemsetAsync(v.C, 0, mb, c.s));
        vendor_ms = c.tm.run(c.o.reps, [&] {
            const cublasStatus_t r = vgrouped<T>::run(c.cub, cnt, v.n.data(), v.pa, v.pb, v.pc);
            if (r != CUBLAS_STATUS_SUCCESS) st = r;
        }, restore);
        CK(cudaStreamSynchronize(c.s));
        /* its product must be ours (another summation order: 64 Nmax eps) */
        const std::vector<T> vc = dl(v.C, v.total);
        CK(cudaMemsetAsync(v.C, 0, mb, c.s));
        int i0 = BblasErrorsReportNone;
        vapi<T>::call(vd.name, v, cnt, v.pn, v.pa, v.pb, v.pc, v.pp, v.Y, &i0, c.q);
        CK(cudaStreamSynchronize(c.s));
        const std::vector<T> oc = dl(v.C, v.total);
        double dmax = 0, bmax = 0;
        for (size_t i = 0; i < vc.size(); i++) {
            dmax = std::max(dmax, (double)std::abs(vc[i] - oc[i]));
            bmax = std::max(bmax, (double)std::abs(oc[i]));
        }
        if (st != CUBLAS_STATUS_SUCCESS || dmax > 64.0 * nmax * std::numeric_limits<R>::epsilon() * bmax) {
            fprintf(stderr, "vendor: cublas grouped GEMM status %d, relative difference %.3g\n", (int)st,
                    bmax > 0 ? dmax / bmax : dmax);
            vendor_ms = NAN;
        }
    }

    /* the check: outputs and codes bitwise those of fixed-size calls */
    restore();
    std::vector<int> iv(cnt + 1);
    iv[0] = BblasErrorsReportAll;
    vapi<T>::call(vd.name, v, cnt, v.pn, v.pa, v.pb, v.pc, v.pp, v.Y, iv.data(), c.q);
    CK(cudaStreamSynchronize(c.s));
    const std::vector<T> oa = dl(v.A, v.total), ob = dl(v.B, v.B ? v.total : 0), oc = dl(v.C, v.C ? v.total : 0);
    const std::vector<int> op = dl(v.piv, v.piv ? tp : 0);
    const std::vector<R> oy = dl(v.Y, v.Y ? cnt : 0);
    restore();
    if (vd.opd & V_C) CK(cudaMemsetAsync(v.C, 0, mb, c.s));
    std::vector<std::vector<int>> by_n(nmax + 1);
    for (int i = 0; i < cnt; i++) by_n[v.n[i]].push_back(i);
    std::vector<int> finfo(cnt, 0);
    long long nbad_info = 0;
    for (int n = 1; n <= nmax; n++) {
        const std::vector<int> &ids = by_n[n];
        if (ids.empty()) continue;
        const int k = (int)ids.size();
        std::vector<T *> ha(k), hb(k), hc(k);
        std::vector<int *> hp(k);
        for (int j = 0; j < k; j++) {
            ha[j] = v.A + v.off[ids[j]];
            if (v.B) hb[j] = v.B + v.off[ids[j]];
            if (v.C) hc[j] = v.C + v.off[ids[j]];
            if (v.piv) hp[j] = v.piv + v.offp[ids[j]];
        }
        T **da, **db = NULL, **dc = NULL;
        int **dp = NULL;
        R *dy = NULL;
        CK(cudaMalloc(&da, k * sizeof(T *)));
        CK(cudaMemcpy(da, ha.data(), k * sizeof(T *), cudaMemcpyHostToDevice));
        if (v.B) { CK(cudaMalloc(&db, k * sizeof(T *))); CK(cudaMemcpy(db, hb.data(), k * sizeof(T *), cudaMemcpyHostToDevice)); }
        if (v.C) { CK(cudaMalloc(&dc, k * sizeof(T *))); CK(cudaMemcpy(dc, hc.data(), k * sizeof(T *), cudaMemcpyHostToDevice)); }
        if (v.piv) { CK(cudaMalloc(&dp, k * sizeof(int *))); CK(cudaMemcpy(dp, hp.data(), k * sizeof(int *), cudaMemcpyHostToDevice)); }
        if (v.Y) CK(cudaMalloc(&dy, k * sizeof(R)));
        std::vector<int> fi(k + 1);
        fi[0] = BblasErrorsReportAll;
        vapi<T>::fixed(vd.name, k, n, da, db, dc, dp, dy, fi.data(), c.q);
        CK(cudaStreamSynchronize(c.s));
        if (v.Y) { /* the norms: the variable-size kernels sum in another order (64 Nmax eps) */
            std::vector<R> hy = dl(dy, k);
            const double tol = 64.0 * nmax * std::numeric_limits<R>::epsilon();
            for (int j = 0; j < k; j++) {
                const double a = hy[j], b = oy[ids[j]];
                if (memcmp(&hy[j], &oy[ids[j]], sizeof(R)) && !(std::fabs(a - b) <= tol * std::fabs(a))) nbad_info++;
            }
        }
        for (int j = 0; j < k; j++) finfo[ids[j]] = fi[j + 1];
        CK(cudaFree(da));
        if (db) CK(cudaFree(db));
        if (dc) CK(cudaFree(dc));
        if (dp) CK(cudaFree(dp));
        if (dy) CK(cudaFree(dy));
    }
    const std::vector<T> fa = dl(v.A, v.total), fb = dl(v.B, v.B ? v.total : 0), fc = dl(v.C, v.C ? v.total : 0);
    const std::vector<int> fp = dl(v.piv, v.piv ? tp : 0);
    long long nbad = nbad_info, nfail = 0;
    for (int i = 0; i < cnt; i++) {
        if (finfo[i] != iv[i + 1]) nbad++;
        if (iv[i + 1] != 0) nfail++;
    }
    auto same = [&](const std::vector<T> &a, const std::vector<T> &b) {
        return a.size() == b.size() && (a.empty() || !memcmp(a.data(), b.data(), a.size() * sizeof(T)));
    };
    /* above the register bound the variable-size driver and the fixed-size
       drivers round differently: the outputs then agree to a few ulps of
       the largest element (64 Nmax eps) */
    double rel = 0;
    auto close = [&](const std::vector<T> &a, const std::vector<T> &b) {
        if (a.size() != b.size()) return false;
        double dmax = 0, bmax = 0;
        for (size_t i = 0; i < a.size(); i++) {
            const T d = a[i] - b[i];
            dmax = std::max(dmax, (double)std::abs(d));
            bmax = std::max(bmax, (double)std::abs(b[i]));
        }
        const double r = bmax > 0 ? dmax / bmax : dmax;
        rel = std::max(rel, r);
        return r <= 64.0 * nmax * std::numeric_limits<R>::epsilon();
    };
    const bool piv_same = op.empty() || !memcmp(op.data(), fp.data(), op.size() * sizeof(int));
    const bool bits = same(oa, fa) && same(ob, fb) && same(oc, fc) && piv_same;
    bool near = bits || (close(oa, fa) && close(ob, fb) && close(oc, fc) && piv_same);
    /* getrf: where the two paths pick another pivot (a near tie: in single
       precision the variable driver and the fixed-size one round
       differently), each factorisation that differs is checked by its own
       backward error instead, max |P A - L U| <= 64 n eps max(|A|, |U|) */
    long long nrepiv = 0;
    if (!near && vd.name == std::string("getrf") && ob.empty() && oc.empty()) {
        const std::vector<T> a0 = dl(v.A0, v.total);
        near = true;
        rel = 0;
        for (int i = 0; i < cnt && near; i++) {
            const int n = v.n[i];
            const T *L = oa.data() + v.off[i], *F = fa.data() + v.off[i], *A = a0.data() + v.off[i];
            const int *pv = op.data() + v.offp[i], *fv = fp.data() + v.offp[i];
            const std::vector<T> mine(L, L + (size_t)n * n), theirs(F, F + (size_t)n * n);
            if (!memcmp(pv, fv, n * sizeof(int)) && close(mine, theirs)) continue;
            nrepiv++;
            std::vector<T> pa(A, A + (size_t)n * n); /* P A: the interchanges in order */
            for (int r = 0; r < n; r++)
                if (pv[r] - 1 != r)
                    for (int j = 0; j < n; j++) std::swap(pa[r + (size_t)j * n], pa[pv[r] - 1 + (size_t)j * n]);
            double dmax = 0, amax = 0;
            for (int j = 0; j < n; j++)
                for (int r = 0; r < n; r++) {
                    T lu = 0; /* (L U)(r, j), L unit lower, U upper */
                    for (int q = 0; q <= std::min(r, j); q++) lu += (q == r ? T(1) : L[r + (size_t)q * n]) * L[q + (size_t)j * n];
                    dmax = std::max(dmax, (double)std::abs(pa[r + (size_t)j * n] - lu));
                    amax = std::max(amax, std::max((double)std::abs(A[r + (size_t)j * n]), (double)std::abs(L[r + (size_t)j * n])));
                }
            const double r = amax > 0 ? dmax / amax : dmax;
            rel = std::max(rel, r);
            near = r <= 64.0 * n * std::numeric_limits<R>::epsilon();
        }
        if (near) fprintf(stderr, "note: %s %c var Nmax=%d: %lld factorisations differ from the fixed-size ones (other "
                          "pivots); their backward error is within 64 n eps (largest %.3g)\n", vd.name, prec_letter[pid],
                          nmax, nrepiv, rel);
    }
    const bool ok = near && nbad == 0 && nfail == 0;
    if (!ok) {
        c.failed++;
        fprintf(stderr, "CHECK FAILED: %s %c var Nmax=%d: outputs %s (relative difference %.3g), %lld codes differ, "
                "%lld nonzero\n", vd.name, prec_letter[pid], nmax, near ? "equal" : "DIFFER", rel, nbad, nfail);
    }

    /* the fixed-size row at Nmax / 2 (its usual batch), same run */
    double fixed_share = NAN;
    const int nh = std::max(1, nmax / 2);
    const std::vector<rdef<T>> &tab = table<T>();
    for (size_t ri = 0; ri < tab.size() && c.o.fixed_rows; ri++)
        if (vd.name == std::string(tab[ri].name)) {
            const size_t before = c.rows.size();
            const long long keep = c.o.batch;
            c.o.batch = 0;
            bench_prec<T>(c, ri, nh);
            c.o.batch = keep;
            if (c.rows.size() > before) fixed_share = 1.0 / c.rows.back().ours_floor;
        }
    const double floor_ms = 1e3 * std::max(bytes / c.copy_bw, flops / c.gemm_rate[pid]);
    const double share = floor_ms / t;
    vrow_out w;
    w.routine = vd.name;
    w.prec = prec_letter[pid];
    w.dist = dist == VD_UNIFORM ? "uniform" : "skewed";
    w.nmax = nmax;
    w.batch = cnt;
    w.ms = t;
    w.host_us = host_us;
    w.floor_ms = floor_ms;
    w.share = share;
    w.fixed_n = nh;
    w.fixed_share = fixed_share;
    w.vendor_ms = vendor_ms;
    w.ok = ok;
    c.vrows.push_back(w);
    printf("VAR %-7s %c %-7s Nmax %4d %8d  %9.4f ms  host %7.0f us  floor %8.4f ms  %5.1f%% of floor  | fixed n=%d "
           "%5.1f%%  var/fixed %.2f  %s\n", vd.name, w.prec, w.dist, nmax, cnt, t, host_us, floor_ms, 100 * share, nh,
           100 * fixed_share, share / fixed_share, !ok ? "FAIL" : bits ? "ok" : "ok~");
    if (!std::isnan(vendor_ms))
        printf("VAR %-7s %c %-7s Nmax %4d %8d  %9.4f ms  cublas grouped GEMM (a group per problem): %5.1f%% of floor, "
               "ours/vendor %.2f\n", vd.name, w.prec, w.dist, nmax, cnt, vendor_ms, 100 * floor_ms / vendor_ms,
               t / vendor_ms);
    fflush(stdout);
    CK(cudaFree(v.A));
    CK(cudaFree(v.A0));
    CK(cudaFree(v.pa));
    if (v.B) { CK(cudaFree(v.B)); CK(cudaFree(v.B0)); CK(cudaFree(v.pb)); }
    if (v.C) { CK(cudaFree(v.C)); CK(cudaFree(v.pc)); }
    if (v.piv) { CK(cudaFree(v.piv)); CK(cudaFree(v.pp)); }
    if (v.Y) CK(cudaFree(v.Y));
    CK(cudaFree(doff));
    CK(cudaFree(doffp));
    CK(cudaFree(dn));
    for (void *d : v.dev) CK(cudaFree(d));
}

static void var_rows(ctx &c)
{
    printf("variable sizes (--form var, --dist %s): share = floor of the actual sizes / our time; fixed = the fixed-"
           "size row of the routine at n = Nmax/2 in this run\n", c.o.dist == VD_UNIFORM ? "uniform" : "skewed");
    for (const vdef &vd : VDEFS) {
        if (!selected(c.o, vd.name)) continue;
        for (char p : c.o.precs)
            for (int nmax : c.o.sizes) {
                if (nmax < 1) continue;
                switch (p) {
                case 's': var_row<float>(c, vd, nmax, c.o.dist); break;
                case 'd': var_row<double>(c, vd, nmax, c.o.dist); break;
                case 'c': var_row<cfloat>(c, vd, nmax, c.o.dist); break;
                case 'z': var_row<cdouble>(c, vd, nmax, c.o.dist); break;
                }
            }
    }
}
