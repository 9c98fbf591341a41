# make check: the Check runner (one suite per family), the generated-code
# check, and the examples.
TEST_PREC_SOURCES = tests/suite_blas3.c tests/suite_chol.c tests/suite_lu.c \
	tests/suite_norm.c tests/suite_errors.c tests/tu_prec.h
EXTRA_DIST += tests/gen_current.sh

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
TESTS = tests/runner tests/gen_current.sh
TESTS_ENVIRONMENT = top_srcdir=$(top_srcdir) PYTHON3=$(PYTHON3)
else
check-local:
	@echo "Check (libcheck) was not found by configure: install the 'check' package"; exit 1
endif

include examples/examples.mk
