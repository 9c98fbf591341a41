/*
 * The variable-size driver on the device (CUDA builds; skips, 77, without a
 * GPU).  The Check suites' variable forms take host data, which the CUDA
 * backend stages and runs as launches of equal sizes; device data in the
 * variable form goes through the class launches and, above the register
 * bound, the variable-size driver (src/cuda/vardriver.cu).  This program
 * runs the driver's routines that tests/test_device does not cover (trtri,
 * lauum, potri, poti, getri, getri_oop, geinv, gecond, trmm, getrs, gesv,
 * potrs, posv, syrk, lange, gecon, and potrf and trsm again) as _dev variable calls and compares every output with the fixed-size _dev call of each
 * problem alone (those paths are checked against independent references by
 * the Check suites on the GPU): all four precisions, both layouts, sizes
 * across the driver's block bounds (1, 2, 17, 31, 33, 40, 63..65, 100, 129,
 * 257), padded leading dimensions, both triangles and diagonals, both
 * norms, every side and trans of trmm, and singular or non-definite members
 * in the first, a middle and the last block.  The codes must be equal, the outputs equal to
 * 64 nmax eps of the largest element (the two paths round differently), and
 * every element outside what a routine writes must stay as it was (both
 * paths leave it untouched, so it compares exactly).
 */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>
#include "batchblas.h"

static int npassed = 0, nfailed = 0;

enum { O_TRTRI, O_LAUUM, O_POTRI, O_POTI, O_GETRI, O_GETRI_OOP, O_GEINV, O_GECOND, O_TRMM, O_GETRS, O_GESV, O_POTRS,
       O_POSV, O_SYRK, O_LANGE, O_GECON, O_POTRF, O_TRSM, NOPS };
static const char *opname[NOPS] = {"trtri", "lauum", "potri", "poti", "getri", "getri_oop", "geinv", "gecond", "trmm",
                                   "getrs", "gesv", "potrs", "posv", "syrk", "lange", "gecon", "potrf", "trsm"};

static const int NS[] = {33, 1, 64, 129, 2, 65, 31, 100, 40, 17, 257, 63};
enum { NP = (int)(sizeof NS / sizeof NS[0]) };

static uint64_t g_rng = 0x9E3779B97F4A7C15ull;
static double rnd(void) /* uniform in [-0.5, 0.5) */
{
    g_rng = g_rng * 6364136223846793005ull + 1442695040888963407ull;
    return (double)(g_rng >> 11) / 9007199254740992.0 - 0.5;
}

static void *dalloc(size_t bytes)
{
    void *p = NULL;
    if (cudaMalloc(&p, bytes ? bytes : 1) != cudaSuccess) {
        printf("FATAL: cudaMalloc(%zu)\n", bytes);
        exit(1);
    }
    return p;
}

static void up(void *d, const void *h, size_t bytes)
{
    if (cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice) != cudaSuccess) { printf("FATAL: upload\n"); exit(1); }
}

static void down(void *h, const void *d, size_t bytes)
{
    if (cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost) != cudaSuccess) { printf("FATAL: download\n"); exit(1); }
}

static void check(int ok, const char *what, int op, char p, int layout, const char *detail)
{
    if (ok) npassed++;
    else {
        nfailed++;
        printf("FAIL: %c%s %s %s: %s\n", p, opname[op], layout == BblasRowMajor ? "row" : "col", what, detail);
    }
}

/* One routine in one precision and layout.  T the element, R its real
   type, L the letter, CPLX 1 for complex. */
#define VARDEV_T(T, R, L, CPLX, EPS)                                                                              \
    static void run_##L(int op, int layout, int devpar, batchblas_queue_t q)                                      \
    {                                                                                                             \
        const char pl = #L[0];                                                                                    \
        int n[NP], lda[NP], ldb[NP], nmax = 0;                                                                    \
        bblas_enum_t uplo[NP], diag[NP], norm[NP], side[NP], trans[NP];                                            \
        T alpha[NP], beta[NP];                                                                                     \
        T *hA[NP], *hB[NP], *vA[NP], *vB[NP];                                                                     \
        T *dA[NP], *dB[NP];                                                                                       \
        int *dP[NP];                                                                                              \
        const int hasb = op == O_GETRI_OOP || op == O_GEINV || (op >= O_TRMM && op <= O_SYRK) || op == O_TRSM;                                                      \
        for (int i = 0; i < NP; i++) {                                                                            \
            n[i] = NS[i];                                                                                         \
            if (n[i] > nmax) nmax = n[i];                                                                         \
            lda[i] = n[i] + (i % 3 == 1 ? 3 : 0);                                                                 \
            ldb[i] = n[i] + (i % 4 == 2 ? 2 : 0);                                                                 \
            uplo[i] = i % 2 ? BblasLower : BblasUpper;                                                            \
            diag[i] = op == O_TRTRI && (i / 2) % 2 ? BblasUnit : BblasNonUnit;                                    \
            norm[i] = i % 2 ? BblasInfNorm : BblasOneNorm;                                                         \
            if (op == O_LANGE)                                                                                     \
                norm[i] = i % 4 == 0 ? BblasOneNorm : i % 4 == 1 ? BblasInfNorm : i % 4 == 2 ? BblasFrobeniusNorm : BblasMaxNorm; \
            side[i] = (i / 4) % 2 ? BblasRight : BblasLeft;                                                        \
            trans[i] = i % 3 == 0 ? BblasNoTrans : i % 3 == 1 ? BblasTrans : BblasConjTrans;                       \
            if (op == O_TRMM || op == O_TRSM) diag[i] = (i / 2) % 2 ? BblasUnit : BblasNonUnit;                                    \
            alpha[i] = (T)(i % 5 == 4 ? 0.0 : 1.0 - 0.25 * (i % 3) + (CPLX ? 0.5 * I : 0));                        \
            beta[i] = (T)(i % 4 == 3 ? 0.0 : 0.5);                                                                 \
            if (op == O_SYRK) trans[i] = i % 2 ? BblasTrans : BblasNoTrans; /* syrk: no ConjTrans */                                                        \
            const size_t sa = (size_t)lda[i] * n[i], sb = (size_t)ldb[i] * n[i];                                  \
            hA[i] = malloc((sa ? sa : 1) * sizeof(T));                                                            \
            vA[i] = malloc((sa ? sa : 1) * sizeof(T));                                                            \
            hB[i] = malloc((sb ? sb : 1) * sizeof(T));                                                            \
            vB[i] = malloc((sb ? sb : 1) * sizeof(T));                                                            \
            for (size_t e = 0; e < sa; e++) hA[i][e] = (T)(rnd() + (CPLX ? rnd() * I : 0));                      \
            for (size_t e = 0; e < sb; e++) hB[i][e] = op >= O_TRMM ? (T)(rnd() + (CPLX ? rnd() * I : 0)) : (T)7.25;                                                   \
            const int spd = op == O_POTI || op == O_POSV || op == O_POTRF;                                                                         \
            for (int j = 0; j < n[i]; j++) {                                                                      \
                T *dj = &hA[i][j + (size_t)j * lda[i]];                                                           \
                /* lauum and potri take a Cholesky factor: a real diagonal (LAPACK's   \
                   lauu2 reads only its real part, trmm all of it, so a complex one    \
                   gives results that depend on the blocking) */                       \
                const int realdiag = op == O_LAUUM || op == O_POTRI;                                              \
                *dj = spd ? (T)(n[i] + 1.0 + rnd()) : realdiag ? (T)(creal(*dj) + 3) : *dj + (T)3;                                                 \
                if (spd) /* Hermitian: the other triangle mirrors the stored one */                               \
                    for (int r = j + 1; r < n[i]; r++)                                                            \
                        hA[i][j + (size_t)r * lda[i]] = (T)conj(hA[i][r + (size_t)j * lda[i]]);                   \
            }                                                                                                     \
            /* failing members: first, middle and last block */                                                   \
            const int bad = i == 3 ? 5 : i == 7 ? 70 : i == 10 ? 256 : -1;                                        \
            if (bad >= 0 && !(op == O_TRTRI && diag[i] == BblasUnit) && op != O_LAUUM && op != O_TRMM && op != O_TRSM) {                          \
                if (op == O_POTI) hA[i][bad + (size_t)bad * lda[i]] = (T)-1;                                      \
                else if (op == O_GEINV || op == O_GECOND)                                                         \
                    for (int r = 0; r < n[i]; r++) /* a zero row and column */                                    \
                        hA[i][bad + (size_t)r * lda[i]] = hA[i][r + (size_t)bad * lda[i]] = (T)0;                 \
                else hA[i][bad + (size_t)bad * lda[i]] = (T)0;                                                    \
            }                                                                                                     \
            dA[i] = dalloc((sa ? sa : 1) * sizeof(T));                                                            \
            dB[i] = dalloc((sb ? sb : 1) * sizeof(T));                                                            \
            int *hp = malloc((size_t)(n[i] ? n[i] : 1) * sizeof(int));                                           \
            for (int j = 0; j < n[i]; j++) { /* getrf-like pivots: j or below */                                  \
                const int t = j + (int)((rnd() + 0.5) * 4);                                                       \
                hp[j] = (t < n[i] ? t : j) + 1;                                                                   \
            }                                                                                                     \
            dP[i] = dalloc((size_t)(n[i] ? n[i] : 1) * sizeof(int));                                              \
            up(dP[i], hp, (size_t)n[i] * sizeof(int));                                                            \
            free(hp);                                                                                             \
        }                                                                                                         \
        if (devpar == 1) { /* every problem with the options, alpha and beta of one problem */                   \
            const int u = layout == BblasRowMajor ? 1 : 0;                                                       \
            for (int i = 0; i < NP; i++) {                                                                        \
                uplo[i] = uplo[u], diag[i] = diag[u], norm[i] = norm[u], side[i] = side[u], trans[i] = trans[u];  \
                alpha[i] = alpha[u], beta[i] = beta[u];                                                           \
            }                                                                                                     \
        }                                                                                                         \
        /* the variable call's parameter arrays: the host's, or device copies */                                 \
        int *vn = n, *vlda = lda, *vldb = ldb;                                                                    \
        bblas_enum_t *vuplo = uplo, *vdiag = diag, *vnorm = norm, *vside = side, *vtrans = trans;                 \
        T *valpha = alpha, *vbeta = beta;                                                                         \
        if (devpar) {                                                                                             \
            int **ip[] = {&vn, &vlda, &vldb};                                                                     \
            for (int k = 0; k < 3; k++) {                                                                         \
                int *d = dalloc(NP * sizeof(int));                                                                \
                up(d, *ip[k], NP * sizeof(int));                                                                  \
                *ip[k] = d;                                                                                       \
            }                                                                                                     \
            bblas_enum_t **ep[] = {&vuplo, &vdiag, &vnorm, &vside, &vtrans};                                      \
            for (int k = 0; k < 5; k++) {                                                                         \
                bblas_enum_t *d = dalloc(NP * sizeof(bblas_enum_t));                                              \
                up(d, *ep[k], NP * sizeof(bblas_enum_t));                                                         \
                *ep[k] = d;                                                                                       \
            }                                                                                                     \
            T **tp[] = {&valpha, &vbeta};                                                                         \
            for (int k = 0; k < 2; k++) {                                                                         \
                T *d = dalloc(NP * sizeof(T));                                                                    \
                up(d, *tp[k], NP * sizeof(T));                                                                    \
                *tp[k] = d;                                                                                       \
            }                                                                                                     \
        }                                                                                                         \
        T **pA = dalloc(NP * sizeof(T *)), **pB = dalloc(NP * sizeof(T *));                                       \
        int **pP = dalloc(NP * sizeof(int *));                                                                    \
        R *dC = dalloc(NP * sizeof(R));                                                                           \
        up(pA, dA, NP * sizeof(T *));                                                                             \
        up(pB, dB, NP * sizeof(T *));                                                                             \
        up(pP, dP, NP * sizeof(int *));                                                                           \
        R hAn[NP]; /* gecon's norms of A */                                                                        \
        for (int i = 0; i < NP; i++) hAn[i] = (R)(2.0 + i);                                                        \
        R *dAn = dalloc(NP * sizeof(R));                                                                           \
        up(dAn, hAn, NP * sizeof(R));                                                                              \
        R vC[NP], fC[NP];                                                                                         \
        int vinfo[NP + 1], finfo[NP];                                                                             \
        for (int pass = 0; pass < 2; pass++) { /* 0: the variable call, 1: each problem alone */                  \
            for (int i = 0; i < NP; i++) {                                                                        \
                up(dA[i], hA[i], (size_t)lda[i] * n[i] * sizeof(T));                                              \
                up(dB[i], hB[i], (size_t)ldb[i] * n[i] * sizeof(T));                                              \
            }                                                                                                     \
            const int cnt = pass ? 1 : NP;                                                                        \
            for (int i = 0; i < (pass ? NP : 1); i++) {                                                           \
                int info[NP + 1];                                                                                 \
                info[0] = BblasErrorsReportAll;                                                                   \
                T **a = pA + (pass ? i : 0), **b = pB + (pass ? i : 0);                                           \
                T const *const *ca = (T const *const *)a;                                                         \
                int const *const *pp = (int const *const *)(pP + (pass ? i : 0));                                 \
                R *c = dC + (pass ? i : 0);                                                                       \
                const R *an = dAn + (pass ? i : 0);                                                                \
                if (!pass) {                                                                                      \
                    switch (op) {                                                                                 \
                    case O_TRTRI: lapack_##L##trtri_batchv_dev(cnt, layout, vuplo, vdiag, vn, a, vlda, info, q); break; \
                    case O_LAUUM: lapack_##L##lauum_batchv_dev(cnt, layout, vuplo, vn, a, vlda, info, q); break;     \
                    case O_POTRI: lapack_##L##potri_batchv_dev(cnt, layout, vuplo, vn, a, vlda, info, q); break;     \
                    case O_POTI: lapack_##L##poti_batchv_dev(cnt, layout, vuplo, vn, a, vlda, info, q); break;       \
                    case O_GETRI: lapack_##L##getri_batchv_dev(cnt, layout, vn, a, vlda, pp, info, q); break;       \
                    case O_GETRI_OOP:                                                                             \
                        lapack_##L##getri_oop_batchv_dev(cnt, layout, vn, ca, vlda, pp, b, vldb, info, q);           \
                        break;                                                                                    \
                    case O_GEINV: lapack_##L##geinv_batchv_dev(cnt, layout, vn, ca, vlda, b, vldb, info, q); break;  \
                    case O_TRMM:                                                                                  \
                        blas_##L##trmm_batchv_dev(cnt, layout, vside, vuplo, vtrans, vdiag, vn, vn, valpha, ca, vlda, b, vldb, \
                                                  info, q);                                                       \
                        break;                                                                                    \
                    case O_GETRS: lapack_##L##getrs_batchv_dev(cnt, layout, vtrans, vn, vn, ca, vlda, pp, b, vldb, info, q); break; \
                    case O_GESV: lapack_##L##gesv_batchv_dev(cnt, layout, vn, vn, a, vlda, pP, b, vldb, info, q); break; \
                    case O_POTRS: lapack_##L##potrs_batchv_dev(cnt, layout, vuplo, vn, vn, ca, vlda, b, vldb, info, q); break; \
                    case O_POSV: lapack_##L##posv_batchv_dev(cnt, layout, vuplo, vn, vn, a, vlda, b, vldb, info, q); break; \
                    case O_SYRK:                                                                                   \
                        blas_##L##syrk_batchv_dev(cnt, layout, vuplo, vtrans, vn, vn, valpha, ca, vlda, vbeta, b, vldb, info, q); \
                        break;                                                                                     \
                    case O_LANGE: lapack_##L##lange_batchv_dev(cnt, layout, vnorm, vn, vn, ca, vlda, c, info, q); break; \
                    case O_POTRF: lapack_##L##potrf_batchv_dev(cnt, layout, vuplo, vn, a, vlda, info, q); break; \
                    case O_TRSM:                                                                                   \
                        blas_##L##trsm_batchv_dev(cnt, layout, vside, vuplo, vtrans, vdiag, vn, vn, valpha, ca, vlda, b, vldb, \
                                                  info, q);                                                        \
                        break;                                                                                     \
                    case O_GECON: lapack_##L##gecon_batchv_dev(cnt, layout, vnorm, vn, ca, vlda, an, c, info, q); break; \
                    default: lapack_##L##gecond_batchv_dev(cnt, layout, vnorm, vn, ca, vlda, c, info, q); break;     \
                    }                                                                                             \
                    memcpy(vinfo, info, sizeof vinfo);                                                            \
                } else {                                                                                          \
                    switch (op) {                                                                                 \
                    case O_TRTRI:                                                                                 \
                        lapack_##L##trtri_batchf_dev(1, layout, uplo[i], diag[i], n[i], a, lda[i], info, q);      \
                        break;                                                                                    \
                    case O_LAUUM: lapack_##L##lauum_batchf_dev(1, layout, uplo[i], n[i], a, lda[i], info, q); break; \
                    case O_POTRI: lapack_##L##potri_batchf_dev(1, layout, uplo[i], n[i], a, lda[i], info, q); break; \
                    case O_POTI: lapack_##L##poti_batchf_dev(1, layout, uplo[i], n[i], a, lda[i], info, q); break; \
                    case O_GETRI: lapack_##L##getri_batchf_dev(1, layout, n[i], a, lda[i], pp, info, q); break;   \
                    case O_GETRI_OOP:                                                                             \
                        lapack_##L##getri_oop_batchf_dev(1, layout, n[i], ca, lda[i], pp, b, ldb[i], info, q);    \
                        break;                                                                                    \
                    case O_GEINV: lapack_##L##geinv_batchf_dev(1, layout, n[i], ca, lda[i], b, ldb[i], info, q); break; \
                    case O_TRMM:                                                                                  \
                        blas_##L##trmm_batchf_dev(1, layout, side[i], uplo[i], trans[i], diag[i], n[i], n[i], alpha[i], \
                                                  ca, lda[i], b, ldb[i], info, q);                                \
                        break;                                                                                    \
                    case O_GETRS:                                                                                  \
                        lapack_##L##getrs_batchf_dev(1, layout, trans[i], n[i], n[i], ca, lda[i], pp, b, ldb[i], info, q); \
                        break;                                                                                     \
                    case O_GESV:                                                                                   \
                        lapack_##L##gesv_batchf_dev(1, layout, n[i], n[i], a, lda[i], pP + i, b, ldb[i], info, q); \
                        break;                                                                                     \
                    case O_POTRS:                                                                                  \
                        lapack_##L##potrs_batchf_dev(1, layout, uplo[i], n[i], n[i], ca, lda[i], b, ldb[i], info, q); \
                        break;                                                                                     \
                    case O_POSV: lapack_##L##posv_batchf_dev(1, layout, uplo[i], n[i], n[i], a, lda[i], b, ldb[i], info, q); break; \
                    case O_SYRK:                                                                                   \
                        blas_##L##syrk_batchf_dev(1, layout, uplo[i], trans[i], n[i], n[i], alpha[i], ca, lda[i], beta[i], b, \
                                                  ldb[i], info, q);                                                \
                        break;                                                                                     \
                    case O_LANGE:                                                                                  \
                        lapack_##L##lange_batchf_dev(1, layout, norm[i], n[i], n[i], ca, lda[i], c, info, q);      \
                        break;                                                                                     \
                    case O_POTRF: lapack_##L##potrf_batchf_dev(1, layout, uplo[i], n[i], a, lda[i], info, q); break; \
                    case O_TRSM:                                                                                   \
                        blas_##L##trsm_batchf_dev(1, layout, side[i], uplo[i], trans[i], diag[i], n[i], n[i], alpha[i], \
                                                  ca, lda[i], b, ldb[i], info, q);                                \
                        break;                                                                                     \
                    case O_GECON:                                                                                  \
                        lapack_##L##gecon_batchf_dev(1, layout, norm[i], n[i], ca, lda[i], an, c, info, q);        \
                        break;                                                                                     \
                    default: lapack_##L##gecond_batchf_dev(1, layout, norm[i], n[i], ca, lda[i], c, info, q); break; \
                    }                                                                                             \
                    finfo[i] = info[1];                                                                           \
                }                                                                                                 \
            }                                                                                                     \
            if (cudaDeviceSynchronize() != cudaSuccess) {                                                         \
                check(0, "device error", op, pl, layout, cudaGetErrorString(cudaGetLastError()));                 \
                return;                                                                                           \
            }                                                                                                     \
            R *cc = pass ? fC : vC;                                                                               \
            down(cc, dC, NP * sizeof(R));                                                                         \
            for (int i = 0; i < NP; i++) {                                                                        \
                const size_t sa = (size_t)lda[i] * n[i], sb = (size_t)ldb[i] * n[i];                              \
                if (!pass) {                                                                                      \
                    down(vA[i], dA[i], sa * sizeof(T));                                                           \
                    down(vB[i], dB[i], sb * sizeof(T));                                                           \
                    continue;                                                                                     \
                }                                                                                                 \
                T *fA = malloc((sa ? sa : 1) * sizeof(T)), *fB = malloc((sb ? sb : 1) * sizeof(T));               \
                down(fA, dA[i], sa * sizeof(T));                                                                  \
                down(fB, dB[i], sb * sizeof(T));                                                                  \
                char msg[200];                                                                                    \
                snprintf(msg, sizeof msg, "problem %d (n=%d): code %d, fixed call %d", i, n[i], vinfo[i + 1],    \
                         finfo[i]);                                                                               \
                check(vinfo[i + 1] == finfo[i], "codes", op, pl, layout, msg);                                    \
                const double tol = 64.0 * nmax * EPS;                                                             \
                /* poti's failed member: potrf's partial result depends on the                                     \
                   algorithm (blocks of the driver against the recursion), as in                                   \
                   LAPACK, where it is not specified: the codes only */                                            \
                const int nw = (op == O_POTI || op == O_POSV || op == O_POTRF) && finfo[i] != 0 ? 0 : 1 + hasb;                                       \
                for (int w = 0; w < nw; w++) {                                                              \
                    const T *x = w ? vB[i] : vA[i], *y = w ? fB : fA;                                             \
                    const size_t s = w ? sb : sa;                                                                 \
                    double dmax = 0, ymax = 0;                                                                    \
                    for (size_t e = 0; e < s; e++) {                                                              \
                        const double d = cabs((double complex)x[e] - (double complex)y[e]);                       \
                        dmax = isnan(d) ? (memcmp(&x[e], &y[e], sizeof(T)) ? INFINITY : dmax) : fmax(dmax, d);    \
                        ymax = fmax(ymax, cabs((double complex)y[e]));                                            \
                    }                                                                                             \
                    snprintf(msg, sizeof msg, "problem %d (n=%d, lda %d): %s differs by %.3g of %.3g", i, n[i],   \
                             lda[i], w ? "the inverse" : "A", dmax, ymax);                                        \
                    check(dmax <= tol * (ymax > 1 ? ymax : 1), "outputs", op, pl, layout, msg);                   \
                }                                                                                                 \
                if (op == O_GECOND || op == O_LANGE || op == O_GECON) {                                                        \
                    const double a = vC[i], b = fC[i];                                                            \
                    const int same = (isinf(a) && isinf(b)) || (isnan(a) && isnan(b)) ||                         \
                                     fabs(a - b) <= tol * fabs(b);                                                \
                    snprintf(msg, sizeof msg, "problem %d (n=%d): cond %.6g, fixed call %.6g", i, n[i], a, b);    \
                    check(same, "cond", op, pl, layout, msg);                                                     \
                }                                                                                                 \
                free(fA);                                                                                         \
                free(fB);                                                                                         \
            }                                                                                                     \
        }                                                                                                         \
        for (int i = 0; i < NP; i++) {                                                                            \
            free(hA[i]), free(hB[i]), free(vA[i]), free(vB[i]);                                                   \
            cudaFree(dA[i]), cudaFree(dB[i]), cudaFree(dP[i]);                                                    \
        }                                                                                                         \
        cudaFree(pA), cudaFree(pB), cudaFree(pP), cudaFree(dC), cudaFree(dAn);                                                   \
        if (devpar) {                                                                                             \
            cudaFree(vn), cudaFree(vlda), cudaFree(vldb), cudaFree(vuplo), cudaFree(vdiag), cudaFree(vnorm);      \
            cudaFree(vside), cudaFree(vtrans), cudaFree(valpha), cudaFree(vbeta);                                 \
        }                                                                                                         \
    }

VARDEV_T(float, float, s, 0, FLT_EPSILON)
VARDEV_T(double, double, d, 0, DBL_EPSILON)
VARDEV_T(float complex, float, c, 1, FLT_EPSILON)
VARDEV_T(double complex, double, z, 1, DBL_EPSILON)

/* Arguments (optional, for the sanitizers): the parameter arrays' pass
   (0, 1, 2: see main; -1 all), the precisions (e.g. "d") and the
   routine (e.g. "posv") to run alone. */
int main(int argc, char **argv)
{
    const int only = argc > 1 ? atoi(argv[1]) : -1;
    const char *precs = argc > 2 ? argv[2] : "sdcz";
    const char *routine = argc > 3 ? argv[3] : NULL;
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev <= 0) {
        printf("no CUDA device: skipped\n");
        return 77;
    }
#ifdef BB_TEST_PLUGIN
    setenv("BATCHBLAS_CUDA_PLUGIN", BB_TEST_PLUGIN, 0);
#endif
    if (!batchblas_backend_available(BatchblasBackendCUDA)) {
        printf("FAIL: a CUDA device is present but the cuda backend is not available\n0 passed, 1 failed\n");
        return 1;
    }
    batchblas_queue_t q = NULL;
    if (batchblas_queue_create(&q, 0) != BblasSuccess) {
        printf("FAIL: queue_create\n0 passed, 1 failed\n");
        return 1;
    }
    /* the variable call's parameter arrays: 0 in host memory; 1 in device
       memory, every problem with the same options, alpha and beta (checked
       and planned on the device); 2 in device memory, options that differ
       (copied to the host by the library) */
    for (int devpar = 0; devpar < 3; devpar++) {
        if (only >= 0 && devpar != only) continue;
        for (int op = 0; op < NOPS; op++)
            for (int layout = 0; layout < 2; layout++) {
                if (routine && strcmp(routine, opname[op])) continue;
                const int lay = layout ? BblasRowMajor : BblasColMajor;
                if (strchr(precs, 's')) run_s(op, lay, devpar, q);
                if (strchr(precs, 'd')) run_d(op, lay, devpar, q);
                if (strchr(precs, 'c')) run_c(op, lay, devpar, q);
                if (strchr(precs, 'z')) run_z(op, lay, devpar, q);
            }
    }
    batchblas_queue_destroy(q);
    printf("%d passed, %d failed\n", npassed, nfailed);
    return nfailed ? 1 : 0;
}
