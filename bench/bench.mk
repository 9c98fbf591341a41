# batchblas-bench: any routine, form, precision, sizes, batch, backend,
# against the OpenMP loop over OpenBLAS/LAPACKE in the same run
# (doc/performance.md).  The per-precision part (bench/bench_prec.c) is one
# generic source compiled once per precision, as the tests do; bench.c is the
# precision-independent driver.  A GPU driver (bench/bench_cuda.cu, vendor
# baseline on device data) plugs in through the hooks described in bench.h.
BENCH_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests -I$(top_srcdir)/bench
BENCH_PREC_SOURCES = bench/bench_prec.c bench/bench.h

noinst_LTLIBRARIES += libbbbench_s.la libbbbench_d.la libbbbench_c.la libbbbench_z.la
libbbbench_s_la_SOURCES = $(BENCH_PREC_SOURCES)
libbbbench_s_la_CPPFLAGS = $(BENCH_CPPFLAGS) -DBB_PREC_S
libbbbench_d_la_SOURCES = $(BENCH_PREC_SOURCES)
libbbbench_d_la_CPPFLAGS = $(BENCH_CPPFLAGS) -DBB_PREC_D
libbbbench_c_la_SOURCES = $(BENCH_PREC_SOURCES)
libbbbench_c_la_CPPFLAGS = $(BENCH_CPPFLAGS) -DBB_PREC_C
libbbbench_z_la_SOURCES = $(BENCH_PREC_SOURCES)
libbbbench_z_la_CPPFLAGS = $(BENCH_CPPFLAGS) -DBB_PREC_Z

bin_PROGRAMS = batchblas-bench
batchblas_bench_SOURCES = bench/bench.c bench/bench.h tests/testutil.c tests/testutil.h
batchblas_bench_CPPFLAGS = $(BENCH_CPPFLAGS)
batchblas_bench_LDADD = libbbbench_s.la libbbbench_d.la libbbbench_c.la libbbbench_z.la \
	libbatchblas.la $(BLAS_ALL) $(OPENMP_CFLAGS) -lm
EXTRA_DIST += bench/cpu_sweep.sh
