# BB_CHECK_LIBXSMM: optional LIBXSMM (Debian libxsmm-dev: a static library)
# for the CPU backend's real gemm.  --with-libxsmm (default: use it when
# found).  It is linked into libbatchblas with its symbols kept local
# (--exclude-libs), so a program using its own LIBXSMM sees no clash.
AC_DEFUN([BB_CHECK_LIBXSMM], [
AC_ARG_WITH([libxsmm],
  [AS_HELP_STRING([--with-libxsmm], [JIT gemm kernels for the CPU backend (default: if found)])],
  [], [with_libxsmm=check])
XSMM_LIBS=""
bb_xsmm_msg="no"
AS_IF([test "x$with_libxsmm" != xno], [
  AC_CHECK_HEADER([libxsmm.h], [
    bb_save_LIBS="$LIBS"
    LIBS="-lxsmm $BLAS_LIBS -lpthread -lm -ldl $LIBS"
    AC_MSG_CHECKING([for libxsmm_dmmdispatch in -lxsmm])
    AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <libxsmm.h>]],
                                    [[libxsmm_dmmfunction f = libxsmm_dmmdispatch(2, 2, 2, 0, 0, 0, 0, 0, 0, 0); (void)f;]])],
      [AC_MSG_RESULT([yes]); XSMM_LIBS="-Wl,--exclude-libs,libxsmm.a -lxsmm"], [AC_MSG_RESULT([no])])
    LIBS="$bb_save_LIBS"])
  AS_IF([test -n "$XSMM_LIBS"], [
    AC_DEFINE([BB_HAVE_LIBXSMM], [1], [LIBXSMM JIT kernels for the CPU gemm])
    bb_xsmm_msg="yes"],
    [AS_IF([test "x$with_libxsmm" = xyes], [AC_MSG_ERROR([--with-libxsmm given but LIBXSMM not found (Debian: libxsmm-dev)])])])
])
AC_SUBST([XSMM_LIBS])
dnl for batchblas.pc (static linking): the library alone
XSMM_PC_LIBS=""
AS_IF([test -n "$XSMM_LIBS"], [XSMM_PC_LIBS="-lxsmm"])
AC_SUBST([XSMM_PC_LIBS])
])
