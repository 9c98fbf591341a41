# Examples: small programs a user copies from; built and run by make check
# (tests/tests.mk adds EXAMPLE_PROGS to check_PROGRAMS and TESTS).
EXAMPLE_PROGS = examples/demo_posv examples/gemm_group examples/lu_solve
EXAMPLE_LDADD = libbatchblas.la -lm
examples_demo_posv_SOURCES = examples/demo_posv.c
examples_demo_posv_LDADD = $(EXAMPLE_LDADD)
examples_gemm_group_SOURCES = examples/gemm_group.c
examples_gemm_group_LDADD = $(EXAMPLE_LDADD)
examples_lu_solve_SOURCES = examples/lu_solve.c
examples_lu_solve_LDADD = $(EXAMPLE_LDADD)

# examples/mpi_batch: one global batch over MPI ranks, built with the MPI
# compiler wrapper when configure found mpicc and mpirun; make check runs it
# on 2 ranks on the CPU backend (tests/mpi_check.sh).
EXTRA_DIST += examples/mpi_batch.c tests/mpi_check.sh
if HAVE_CHECK
if HAVE_MPI
check_PROGRAMS += examples/mpi_batch
TESTS += tests/mpi_check.sh
examples_mpi_batch_SOURCES = examples/mpi_batch.c
examples_mpi_batch_LDADD = $(EXAMPLE_LDADD)
examples_mpi_batch_LINK = $(LIBTOOL) $(AM_V_lt) --tag=CC $(AM_LIBTOOLFLAGS) $(LIBTOOLFLAGS) \
	--mode=link $(MPICC) $(AM_CFLAGS) $(CFLAGS) $(AM_LDFLAGS) $(LDFLAGS) -o $@
examples/mpi_batch.$(OBJEXT): examples/mpi_batch.c
	@$(MKDIR_P) examples
	$(AM_V_CC)$(MPICC) $(DEFS) $(AM_CPPFLAGS) $(CPPFLAGS) $(AM_CFLAGS) $(CFLAGS) -c -o $@ \
	`test -f 'examples/mpi_batch.c' || echo '$(srcdir)/'`examples/mpi_batch.c
endif
endif
