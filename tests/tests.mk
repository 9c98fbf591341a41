# make check: the Check runner (one suite per family), the generated-code
# check, and the examples.
TEST_PREC_SOURCES = tests/suite_blas3.c tests/suite_chol.c tests/suite_lu.c \
	tests/suite_norm.c tests/suite_errors.c tests/tu_prec.h
EXTRA_DIST += tests/gen_current.sh doc/reliability.md

if HAVE_CHECK
check_LTLIBRARIES = libbbtest_s.la libbbtest_d.la libbbtest_c.la libbbtest_z.la
TEST_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
TEST_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
libbbtest_s_la_SOURCES = $(TEST_PREC_SOURCES)
libbbtest_s_la_CPPFLAGS = $(TEST_CPPFLAGS) -DBB_PREC_S
libbbtest_s_la_CFLAGS = $(TEST_CFLAGS)
libbbtest_d_la_SOURCES = $(TEST_PREC_SOURCES)
libbbtest_d_la_CPPFLAGS = $(TEST_CPPFLAGS) -DBB_PREC_D
libbbtest_d_la_CFLAGS = $(TEST_CFLAGS)
libbbtest_c_la_SOURCES = $(TEST_PREC_SOURCES)
libbbtest_c_la_CPPFLAGS = $(TEST_CPPFLAGS) -DBB_PREC_C
libbbtest_c_la_CFLAGS = $(TEST_CFLAGS)
libbbtest_z_la_SOURCES = $(TEST_PREC_SOURCES)
libbbtest_z_la_CPPFLAGS = $(TEST_CPPFLAGS) -DBB_PREC_Z
libbbtest_z_la_CFLAGS = $(TEST_CFLAGS)

check_PROGRAMS = tests/runner
tests_runner_SOURCES = tests/runner.c tests/tests.h tests/suite_library.c \
	tests/testutil.c tests/testutil.h
tests_runner_CPPFLAGS = $(TEST_CPPFLAGS)
tests_runner_CFLAGS = $(TEST_CFLAGS)
tests_runner_LDADD = libbbtest_s.la libbbtest_d.la libbbtest_c.la libbbtest_z.la \
	libbatchblas.la $(CHECK_LIBS) $(BLAS_ALL) -lm
# The runner's suites run as parts (tests/suites/*.suite, each read by
# tests/run_suite.sh), so that make -j runs them side by side; the longest
# first.  tests/runner alone runs them all.
SUITE_TESTS = tests/suites/lu-z.suite tests/suites/lu-c.suite \
	tests/suites/lu-d.suite tests/suites/lu-s.suite tests/suites/chol-cz.suite \
	tests/suites/chol-sd.suite tests/suites/blas3.suite tests/suites/norm.suite \
	tests/suites/errors.suite tests/suites/library.suite
TEST_EXTENSIONS = .suite
SUITE_LOG_COMPILER = $(SHELL) $(top_srcdir)/tests/run_suite.sh
EXTRA_DIST += $(SUITE_TESTS) tests/run_suite.sh
TESTS = $(SUITE_TESTS) tests/gen_current.sh
# passive OpenMP waiting: the suites make many tiny calls, and spinning idle
# threads slow them down badly on a loaded machine.
# OpenBLAS 0.3.21 (Debian 12) does not know some recent Xeons (the AMX ones
# of these machines) and falls back to its Prescott kernels, whose results
# depend on the operands' 16-byte alignment: a batch member at an odd
# offset then differs in the last bits from the same problem alone (the
# isolation, layout and fuzz tests compare bitwise, above the across
# bounds where OpenBLAS computes).  Where the CPU has AVX2 and the variable
# is unset, the tests ask for the Haswell kernels (doc/reliability.md).
TESTS_ENVIRONMENT = if test -z "$${OPENBLAS_CORETYPE:-}" && grep -qw avx2 /proc/cpuinfo 2>/dev/null; then \
	OPENBLAS_CORETYPE=Haswell; export OPENBLAS_CORETYPE; fi; \
	top_srcdir=$(top_srcdir) PYTHON3=$(PYTHON3) OMP_WAIT_POLICY=passive

# The MKL-name shim: a plain C test program (no Check), linked with the shim.
check_PROGRAMS += tests/test_mkl_shim
TESTS += tests/test_mkl_shim
tests_test_mkl_shim_SOURCES = tests/test_mkl_shim.c
tests_test_mkl_shim_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/shim
tests_test_mkl_shim_LDADD = libbatchblas_mkl.la libbatchblas.la -lm
# The call patterns of MKL's batch examples (all four precisions of the group
# forms, row-major, 3M names), against OpenBLAS per problem (issue 14).
check_PROGRAMS += tests/test_mkl_examples
TESTS += tests/test_mkl_examples
tests_test_mkl_examples_SOURCES = tests/test_mkl_examples.c
tests_test_mkl_examples_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/shim
tests_test_mkl_examples_LDADD = libbatchblas_mkl.la libbatchblas.la $(BLAS_ALL) -lm
# MKL's Fortran names of the shim, called from Fortran (when configure found
# a Fortran compiler).
EXTRA_DIST += tests/test_mkl_fortran.f90 tests/test_mkl_fortran_lu.f90
if HAVE_FC
check_PROGRAMS += tests/test_mkl_fortran
TESTS += tests/test_mkl_fortran
tests_test_mkl_fortran_SOURCES = tests/test_mkl_fortran.f90
tests_test_mkl_fortran_LDADD = libbatchblas_mkl.la libbatchblas.la
# oneAPI-samples' batched LU solver pattern (s and d, tight strides), against
# LAPACK per problem.
check_PROGRAMS += tests/test_mkl_fortran_lu
TESTS += tests/test_mkl_fortran_lu
tests_test_mkl_fortran_lu_SOURCES = tests/test_mkl_fortran_lu.f90
tests_test_mkl_fortran_lu_LDADD = libbatchblas_mkl.la libbatchblas.la $(BLAS_ALL)
endif

# tools/plot_bench.py on a small committed CSV (skips without matplotlib).
EXTRA_DIST += tools/plot_bench.py tests/data/bench_small.csv tests/test_plot.sh
TESTS += tests/test_plot.sh

# Reliability (issue 10; doc/reliability.md): huge leading dimensions and the
# info-mode rule (a Check program of its own), the isolation of broken
# members against LAPACK, and 8 threads against serial results.  Plain
# programs too, so that tools/gpu-check.sh runs them on the CUDA backend.
check_PROGRAMS += tests/test_limits tests/test_isolation tests/thread_stress
TESTS += tests/test_limits tests/test_isolation tests/thread_stress
tests_test_limits_SOURCES = tests/test_limits.c
tests_test_limits_CFLAGS = $(TEST_CFLAGS)
tests_test_limits_LDADD = libbatchblas.la $(CHECK_LIBS) -lm
tests_test_isolation_SOURCES = tests/test_isolation.c
tests_test_isolation_LDADD = libbatchblas.la $(BLAS_ALL) -lm
tests_thread_stress_SOURCES = tests/thread_stress.c
tests_thread_stress_LDADD = libbatchblas.la -lpthread -lm
# the narrower variants of the kernels across problems (tests/isa_narrow.sh)
TESTS += tests/isa_narrow.sh
EXTRA_DIST += tests/isa_narrow.sh

# The argument fuzzer: BB_FUZZ_SECONDS (default 20 s) of random valid and
# invalid argument mixes in every form, expected codes from its own position
# table, valid problems bitwise against the problem alone, guard regions.
check_PROGRAMS += tests/fuzz_args
TESTS += tests/fuzz_args
tests_fuzz_args_SOURCES = tests/fuzz_args.c
tests_fuzz_args_LDADD = libbatchblas.la -lm

# Fault injection: the k-th internal allocation fails (src/common/fault.c,
# an internal hook reached through the static library: -static links the
# uninstalled libbatchblas.a).  Built with CUDA it also runs _dev calls.
check_PROGRAMS += tests/test_faults
TESTS += tests/test_faults
tests_test_faults_SOURCES = tests/test_faults.c
tests_test_faults_LDFLAGS = -static
tests_test_faults_LDADD = libbatchblas.la -lm
tests_test_faults_CPPFLAGS = $(AM_CPPFLAGS)
if HAVE_CUDA
tests_test_faults_CPPFLAGS += $(CUDA_CPPFLAGS) -DBB_TEST_CUDA \
	-DBB_TEST_PLUGIN='"$(abs_top_builddir)/.libs/libbatchblas_cuda.so"'
tests_test_faults_LDFLAGS += -L$(CUDA_LIBDIR)
tests_test_faults_LDADD += -lcudart_static -lrt -lpthread -ldl
EXTRA_tests_test_faults_DEPENDENCIES = libbatchblas_cuda.la
endif

# One batch over several devices (issue 9): the split planner (its sources
# compiled in: the functions are internal) and the device-set calls; the
# slicing of every form into shares, run on the CPU backend through an
# internal hook (static link, as above).
check_PROGRAMS += tests/test_plan tests/test_spread
TESTS += tests/test_plan tests/test_spread

# The argument checks as rules (check.c): evaluated over a variable
# batch's arrays, the same codes as the group check (the sources compiled
# in: the functions are internal).
check_PROGRAMS += tests/test_rules
TESTS += tests/test_rules
tests_test_rules_SOURCES = tests/test_rules.c src/common/check.c src/common/problem.c src/common/ops.c
tests_test_rules_LDADD = libbatchblas.la -lm
tests_test_plan_SOURCES = tests/test_plan.c src/common/plan.c src/common/problem.c src/common/ops.c
tests_test_plan_LDADD = libbatchblas.la -lm
tests_test_spread_SOURCES = tests/test_spread.c
tests_test_spread_LDFLAGS = -static
tests_test_spread_LDADD = libbatchblas.la -lpthread -lm

# The CMake package: a client project built against a staged install
# (skips without cmake; cmake/cmake.mk writes the rest).
TESTS += tests/cmake_check.sh

# The examples (examples/examples.mk names them).
check_PROGRAMS += $(EXAMPLE_PROGS)
TESTS += $(EXAMPLE_PROGS)
else
check-local:
	@echo "Check (libcheck) was not found by configure: install the 'check' package"; exit 1
endif

include examples/examples.mk

# The device-API test (CUDA builds): needs no libcheck, skips (77) without a
# GPU.  Linked with the static CUDA runtime for cudaMalloc; the plugin is
# taken from the build tree.
if HAVE_CUDA
if HAVE_CHECK
check_PROGRAMS += tests/test_device
TESTS += tests/test_device
else
check_PROGRAMS = tests/test_device
TESTS = tests/test_device
endif
tests_test_device_SOURCES = tests/test_device.c tests/testutil.c tests/testutil.h
tests_test_device_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests $(CUDA_CPPFLAGS) \
	-DBB_TEST_PLUGIN='"$(abs_top_builddir)/.libs/libbatchblas_cuda.so"'
tests_test_device_LDFLAGS = -L$(CUDA_LIBDIR)
tests_test_device_LDADD = libbatchblas.la -lcudart_static -lrt -lpthread -ldl -lm
EXTRA_tests_test_device_DEPENDENCIES = libbatchblas_cuda.la
# The variable-size driver's routines as _dev variable calls against the
# fixed-size calls (tests/test_vardev.c; skips without a GPU).
check_PROGRAMS += tests/test_vardev
TESTS += tests/test_vardev
tests_test_vardev_SOURCES = tests/test_vardev.c
tests_test_vardev_CPPFLAGS = $(AM_CPPFLAGS) $(CUDA_CPPFLAGS) \
	-DBB_TEST_PLUGIN='"$(abs_top_builddir)/.libs/libbatchblas_cuda.so"'
tests_test_vardev_LDFLAGS = -L$(CUDA_LIBDIR)
tests_test_vardev_LDADD = libbatchblas.la -lcudart_static -lrt -lpthread -ldl -lm
EXTRA_tests_test_vardev_DEPENDENCIES = libbatchblas_cuda.la
endif
