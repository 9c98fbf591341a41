/*
 * Thread stress (issue 10): 8 threads call several routines, forms and
 * precisions concurrently (dgemm strided, sgemm fixed, dpotrf fixed, sgetrf
 * strided, dgesv variable, zgemm strided, dtrsm fixed), each call on its own
 * data; every result must be bitwise equal to the same call made serially
 * beforehand.  BB_STRESS_ROUNDS sets the rounds per thread (default 40).
 * Runs on whatever backend host-data calls take (BATCHBLAS_BACKEND=cuda on
 * a GPU machine).
 */
#include <complex.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <batchblas.h>

enum { NTHREADS = 8, NJOBS = 7, CNT = 48 };

typedef struct {
    int kind, n;
    size_t bytes;      /* of the output data */
    void *in, *out;    /* input copy, output (in place: starts as in) */
    void *ref;         /* the serial result */
    int *ipiv, info[CNT + 1], ref_info[CNT + 1];
} job_t;

static double urand(uint64_t *s)
{
    *s ^= *s << 13; *s ^= *s >> 7; *s ^= *s << 17;
    return (double)(*s >> 11) / 9007199254740992.0 * 2 - 1;
}

/* inputs: A, B, C one after another, each n x n, CNT problems */
static void job_init(job_t *j, int kind, int n, uint64_t seed)
{
    j->kind = kind;
    j->n = n;
    size_t es = kind == 1 || kind == 3 ? 4 : kind == 5 ? 16 : 8;
    size_t per = (size_t)n * n * es;
    j->bytes = 3 * per * CNT;
    j->in = malloc(j->bytes);
    j->out = malloc(j->bytes);
    j->ref = malloc(j->bytes);
    j->ipiv = malloc((size_t)n * CNT * sizeof(int));
    for (size_t e = 0; e < j->bytes / es; e++) {
        double v = urand(&seed);
        size_t mat = e / ((size_t)n * n), at = e % ((size_t)n * n);
        if (at % (n + 1) == 0) v += n; /* dominant diagonal: SPD-ish, nonsingular */
        if (kind == 2 || kind == 4) { /* symmetric for potrf; A part of each problem */
            size_t i = at % n, jj = at / n;
            if (i < jj) v = 0.25;
        }
        (void)mat;
        if (es == 4) ((float *)j->in)[e] = (float)v;
        else if (es == 8) ((double *)j->in)[e] = v;
        else ((double complex *)j->in)[e] = v + 0.5 * I * urand(&seed);
    }
}

static void job_run(job_t *j, int *info)
{
    const int n = j->n;
    memcpy(j->out, j->in, j->bytes);
    const size_t nn = (size_t)n * n;
    info[0] = BblasErrorsReportAll;
    switch (j->kind) {
    case 0: { double *b = j->out;
        blas_dgemm_batch_strided(BblasColMajor, BblasNoTrans, BblasTrans, n, n, n, 1.5, b, n, 3 * nn, b + nn, n,
                                 3 * nn, 0.5, b + 2 * nn, n, 3 * nn, CNT, info);
        break; }
    case 1: { float *b = j->out; const float *A[CNT], *B[CNT]; float *C[CNT];
        for (int i = 0; i < CNT; i++) { A[i] = b + 3 * nn * i; B[i] = A[i] + nn; C[i] = b + 3 * nn * i + 2 * nn; }
        blas_sgemm_batchf(CNT, BblasRowMajor, BblasNoTrans, BblasNoTrans, n, n, n, 1.0f, A, n, B, n, 1.0f, C, n, info);
        break; }
    case 2: { double *b = j->out, *A[CNT];
        for (int i = 0; i < CNT; i++) A[i] = b + 3 * nn * i;
        lapack_dpotrf_batchf(CNT, BblasColMajor, BblasLower, n, A, n, info);
        break; }
    case 3: { float *b = j->out;
        lapack_sgetrf_batch_strided(BblasColMajor, n, n, b, n, 3 * nn, j->ipiv, n, CNT, info);
        break; }
    case 4: { double *b = j->out, *A[CNT], *B[CNT]; int *P[CNT], vn[CNT], vr[CNT];
        for (int i = 0; i < CNT; i++) {
            A[i] = b + 3 * nn * i; B[i] = A[i] + nn; P[i] = j->ipiv + (size_t)n * i;
            vn[i] = n - i % 3; vr[i] = 1 + i % 4;
        }
        lapack_dgesv_batchv(CNT, BblasColMajor, vn, vr, A, vn, P, B, vn, info);
        break; }
    case 5: { double complex *b = j->out; double complex al = 1 - 0.5 * I, be = 0.25;
        blas_zgemm_batch_strided(BblasColMajor, BblasConjTrans, BblasNoTrans, n, n, n, al, b, n, 3 * nn, b + nn, n,
                                 3 * nn, be, b + 2 * nn, n, 3 * nn, CNT, info);
        break; }
    default: { double *b = j->out; const double *A[CNT]; double *B[CNT];
        for (int i = 0; i < CNT; i++) { A[i] = b + 3 * nn * i; B[i] = b + 3 * nn * i + nn; }
        blas_dtrsm_batchf(CNT, BblasColMajor, BblasLeft, BblasUpper, BblasTrans, BblasNonUnit, n, n, 2.0, A, n, B, n,
                          info);
        break; }
    }
}

static job_t jobs[NTHREADS][NJOBS];
static int rounds = 40;
static long mismatches, calls;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
    const int t = (int)(intptr_t)arg;
    long bad = 0, done = 0;
    for (int r = 0; r < rounds; r++)
        for (int q = 0; q < NJOBS; q++) {
            job_t *j = &jobs[t][(q + t + r) % NJOBS];
            job_run(j, j->info);
            done++;
            if (memcmp(j->out, j->ref, j->bytes) || memcmp(j->info, j->ref_info, sizeof j->info)) bad++;
        }
    pthread_mutex_lock(&mu);
    mismatches += bad;
    calls += done;
    pthread_mutex_unlock(&mu);
    return NULL;
}

int main(void)
{
    if (getenv("BB_STRESS_ROUNDS")) rounds = atoi(getenv("BB_STRESS_ROUNDS"));
    static const int sizes[] = {4, 9, 17, 33};
    for (int t = 0; t < NTHREADS; t++)
        for (int q = 0; q < NJOBS; q++) {
            job_t *j = &jobs[t][q];
            job_init(j, q, sizes[(t + q) % 4], 1234567u + 1000u * t + q);
            job_run(j, j->ref_info); /* serial reference */
            memcpy(j->ref, j->out, j->bytes);
            memset(j->info, 0, sizeof j->info);
            memcpy(j->info, j->ref_info, sizeof j->info);
        }
    pthread_t th[NTHREADS];
    for (int t = 0; t < NTHREADS; t++) pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t);
    for (int t = 0; t < NTHREADS; t++) pthread_join(th[t], NULL);
    printf("thread stress: %d threads, %ld concurrent calls (%d problems each), %ld differ from the serial "
           "results\n", NTHREADS, calls, CNT, mismatches);
    for (int t = 0; t < NTHREADS; t++)
        for (int q = 0; q < NJOBS; q++) {
            free(jobs[t][q].in); free(jobs[t][q].out); free(jobs[t][q].ref); free(jobs[t][q].ipiv);
        }
    return mismatches ? 1 : 0;
}
