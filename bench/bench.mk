# batchblas-bench: any routine, form, precision, sizes, batch, backend,
# against the OpenMP loop over OpenBLAS/LAPACKE (and cuBLAS/cuSOLVER on a GPU).
bin_PROGRAMS = batchblas-bench
batchblas_bench_SOURCES = bench/bench.c tests/testutil.c tests/testutil.h
batchblas_bench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
batchblas_bench_LDADD = libbatchblas.la $(BLAS_ALL) $(OPENMP_CFLAGS) -lm
