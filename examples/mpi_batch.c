/*
 * mpi_batch: one global batch of Cholesky solves spread over MPI ranks.
 *
 *   mpirun -n 4 ./mpi_batch [count [n]]   (default: 100000 systems of order 8)
 *
 * Every rank takes a contiguous share of the global batch (the same split
 * rule on every rank, so nobody needs to be told), builds its systems
 * locally (system i is a function of i alone, as a scatter from rank 0
 * would give it), binds to one GPU of its node by its node-local rank
 * (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED, then
 * batchblas_set_devices), and calls lapack_dposv_batch_strided on its
 * share.  Rank 0 gathers the info codes of every system and the largest
 * scaled residual, and prints them.  Exit 0 when every system was solved
 * and every residual passes.
 *
 * The host-data call runs wherever the library's dispatch policy sends it
 * (BATCHBLAS_BACKEND=cpu|cuda to force).  On a node with several GPUs and
 * several ranks, each rank uses the device of its local rank (modulo the
 * node's device count); with one rank per node, leave the device list alone
 * and the library spreads the rank's batch over every GPU of the node.
 *
 * Build: mpicc mpi_batch.c $(pkg-config --cflags --libs batchblas) -lm
 */
#include <batchblas.h>
#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static double rnd(unsigned long long *s)
{
    *s ^= *s << 13; *s ^= *s >> 7; *s ^= *s << 17;
    return (double)(*s >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}

/* Global system i: symmetric, diagonally dominant (SPD), and its b. */
static void make_system(long i, int n, double *A, double *b)
{
    unsigned long long s = 0x9E3779B97F4A7C15ull * (unsigned long long)(i + 1);
    for (int j = 0; j < n; j++) {
        for (int r = 0; r < j; r++) A[r + j * n] = A[j + r * n] = rnd(&s);
        A[j + j * n] = n + rnd(&s);
    }
    for (int r = 0; r < n; r++) b[r] = rnd(&s);
}

/* First global system of rank r's share: count split as evenly as possible. */
static long share_start(long count, int size, int r)
{
    return count / size * r + (r < count % size ? r : count % size);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long count = argc > 1 ? atol(argv[1]) : 100000;
    int n = argc > 2 ? atoi(argv[2]) : 8;
    if (count < 1 || count > 100000000 || n < 1 || n > 1000) {
        if (rank == 0) fprintf(stderr, "usage: %s [count [n]]\n", argv[0]);
        MPI_Finalize();
        return 2;
    }

    /* the node-local rank picks this rank's GPU (when there are GPUs) */
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    int local, nlocal;
    MPI_Comm_rank(node, &local);
    MPI_Comm_size(node, &nlocal);
    int ndev = batchblas_get_devices(0, NULL); /* visible GPUs (0: none, or no CUDA backend) */
    if (ndev > 0 && nlocal > 1) {
        int dev = local % ndev;
        batchblas_set_devices(1, &dev);
    }

    /* this rank's share */
    long first = share_start(count, size, rank), mine = share_start(count, size, rank + 1) - first;
    const int lda = n, ldb = n, nrhs = 1;
    double *A = malloc(sizeof(double) * (size_t)n * n * (mine ? mine : 1));
    double *B = malloc(sizeof(double) * (size_t)n * (mine ? mine : 1));
    int *info = malloc(sizeof(int) * (size_t)(mine + 1));
    double *A0 = malloc(sizeof(double) * (size_t)n * n), *b0 = malloc(sizeof(double) * (size_t)n);
    if (!A || !B || !info || !A0 || !b0) {
        fprintf(stderr, "rank %d: out of memory\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (long i = 0; i < mine; i++) make_system(first + i, n, A + (size_t)i * n * n, B + (size_t)i * n);

    double t0 = MPI_Wtime();
    info[0] = BblasErrorsReportAll;
    lapack_dposv_batch_strided(BblasColMajor, BblasLower, n, nrhs, A, lda, (int64_t)n * n, B, ldb, n,
                               (int)mine, info);
    double t = MPI_Wtime() - t0;

    /* residual of every local system: ||A x - b||_inf / (||A||_inf ||x||_inf n eps) */
    double worst = 0;
    for (long i = 0; i < mine; i++) {
        if (info[1 + i]) continue;
        make_system(first + i, n, A0, b0);
        const double *x = B + (size_t)i * n;
        double rmax = 0, anorm = 0, xnorm = 0;
        for (int r = 0; r < n; r++) {
            double s = -b0[r], rs = 0;
            for (int c = 0; c < n; c++) {
                s += A0[r + c * n] * x[c];
                rs += fabs(A0[r + c * n]);
            }
            if (fabs(s) > rmax) rmax = fabs(s);
            if (rs > anorm) anorm = rs;
            if (fabs(x[r]) > xnorm) xnorm = fabs(x[r]);
        }
        double ratio = rmax / (anorm * xnorm * n * DBL_EPSILON);
        if (!(ratio <= worst)) worst = ratio; /* NaN sticks */
    }

    /* rank 0 gathers the codes (in global order) and the largest residual */
    int *counts = NULL, *displs = NULL, *all = NULL;
    if (rank == 0) {
        counts = malloc(sizeof(int) * (size_t)size);
        displs = malloc(sizeof(int) * (size_t)size);
        all = malloc(sizeof(int) * (size_t)count);
        for (int r = 0; r < size; r++) {
            displs[r] = (int)share_start(count, size, r);
            counts[r] = (int)(share_start(count, size, r + 1) - displs[r]);
        }
    }
    MPI_Gatherv(info + 1, (int)mine, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
    double gworst = 0, tmax = 0;
    MPI_Reduce(&worst, &gworst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

    int ok = 1;
    if (rank == 0) {
        long failed = 0, firstbad = -1;
        for (long i = 0; i < count; i++)
            if (all[i]) {
                if (firstbad < 0) firstbad = i;
                failed++;
            }
        ok = failed == 0 && gworst < 30; /* the library's acceptance bound */
        printf("mpi_batch: %ld systems of order %d over %d rank(s): %.3f s, %ld failed%s, "
               "max scaled residual %.3g: %s\n",
               count, n, size, tmax, failed, failed ? " (see the codes)" : "", gworst, ok ? "ok" : "FAILED");
        if (firstbad >= 0) printf("mpi_batch: first failing system %ld, info %d\n", firstbad, all[firstbad]);
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    free(counts);
    free(displs);
    free(all);
    free(A);
    free(B);
    free(info);
    free(A0);
    free(b0);
    MPI_Comm_free(&node);
    MPI_Finalize();
    return ok ? 0 : 1;
}
