# BB_CHECK_BLAS: CBLAS and LAPACKE.  --with-openblas (default) prefers
# OpenBLAS; --without-openblas uses the reference -lcblas -lblas.
AC_DEFUN([BB_CHECK_BLAS], [
AC_ARG_WITH([openblas],
  [AS_HELP_STRING([--with-openblas], [use OpenBLAS for BLAS (default: yes if found)])],
  [], [with_openblas=check])
BLAS_LIBS=""
AS_IF([test "x$with_openblas" != xno], [
  AC_CHECK_LIB([openblas], [cblas_dgemm], [BLAS_LIBS="-lopenblas"
    AC_DEFINE([HAVE_OPENBLAS_SET_NUM_THREADS], [1], [OpenBLAS threading control])],
    [AS_IF([test "x$with_openblas" = xyes], [AC_MSG_ERROR([OpenBLAS not found])])])
])
AS_IF([test -z "$BLAS_LIBS"], [
  AC_CHECK_LIB([cblas], [cblas_dgemm], [BLAS_LIBS="-lcblas -lblas"],
    [AC_CHECK_LIB([blas], [cblas_dgemm], [BLAS_LIBS="-lblas"],
      [AC_MSG_ERROR([no CBLAS found: install libopenblas-dev])])], [-lblas])
])
AC_ARG_WITH([lapacke],
  [AS_HELP_STRING([--with-lapacke=LIBS], [LAPACKE link flags (default: -llapacke)])],
  [LAPACKE_LIBS="$withval"], [LAPACKE_LIBS="-llapacke"])
bb_save_LIBS="$LIBS"
LIBS="$LAPACKE_LIBS $BLAS_LIBS $LIBS"
AC_MSG_CHECKING([for LAPACKE_dpotrf_work with $LAPACKE_LIBS])
AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <lapacke.h>]],
  [[double a = 4; return (int)LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', 1, &a, 1);]])],
  [AC_MSG_RESULT([yes])],
  [AC_MSG_RESULT([no]); AC_MSG_ERROR([LAPACKE not found: install liblapacke-dev])])
LIBS="$bb_save_LIBS"
AC_CHECK_HEADERS([cblas.h lapacke.h], [], [AC_MSG_ERROR([missing $ac_header])])
AC_SUBST([BLAS_LIBS])
AC_SUBST([LAPACKE_LIBS])
])
