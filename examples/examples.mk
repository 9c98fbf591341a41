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
