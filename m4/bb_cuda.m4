# BB_CHECK_CUDA: the optional CUDA backend (a plugin loaded at run time).
#   --with-cuda[=DIR]     default: use CUDA when nvcc is found (PATH, /usr/local/cuda)
#   --with-cuda-arch=LIST default: sm_90 plus PTX (compute_90)
AC_DEFUN([BB_CHECK_CUDA], [
AC_ARG_WITH([cuda],
  [AS_HELP_STRING([--with-cuda@<:@=DIR@:>@], [build the CUDA backend (default: if nvcc is found)])],
  [], [with_cuda=check])
AC_ARG_WITH([cuda-arch],
  [AS_HELP_STRING([--with-cuda-arch=ARCHS], [comma-separated sm_XX list (default: sm_90, plus PTX of the last)])],
  [cuda_arch="$withval"], [cuda_arch="sm_90"])
NVCC=""
CUDA_HOME=""
AS_CASE(["$with_cuda"],
  [no], [],
  [yes|check], [
    AC_PATH_PROG([NVCC], [nvcc], [], [$PATH:/usr/local/cuda/bin])
    AS_IF([test -n "$NVCC"], [
      dnl nvcc may be a wrapper script or a link outside the toolkit
      dnl (/usr/local/bin/nvcc): take the toolkit that holds cuda_runtime.h.
      nvcc_top=`dirname $NVCC`; nvcc_top=`dirname $nvcc_top`
      nvcc_real=`readlink -f $NVCC 2>/dev/null`
      AS_IF([test -n "$nvcc_real"], [nvcc_rtop=`dirname $nvcc_real`; nvcc_rtop=`dirname $nvcc_rtop`], [nvcc_rtop=""])
      nvcc_dtop=`$NVCC -v --dryrun -x cu /dev/null 2>&1 | sed -n 's/^#\$ TOP=//p' | head -1`
      for d in "$CUDA_PATH" "$nvcc_top" "$nvcc_rtop" "$nvcc_dtop" /usr/local/cuda; do
        AS_IF([test -n "$d" && test -f "$d/include/cuda_runtime.h"], [CUDA_HOME="$d"; break])
      done])],
  [AS_IF([test -x "$with_cuda/bin/nvcc"], [NVCC="$with_cuda/bin/nvcc"; CUDA_HOME="$with_cuda"])])
AS_IF([test "x$with_cuda" != xno && test "x$with_cuda" != xcheck && test -z "$NVCC"],
  [AC_MSG_ERROR([--with-cuda given but nvcc not found])])
bb_cuda_msg="no"
AS_IF([test -n "$NVCC"], [
  NVCC_GENCODE=""
  last=""
  for a in `echo "$cuda_arch" | tr ',' ' '`; do
    num=`echo $a | sed 's/^sm_//'`
    NVCC_GENCODE="$NVCC_GENCODE -gencode=arch=compute_$num,code=sm_$num"
    last=$num
  done
  NVCC_GENCODE="$NVCC_GENCODE -gencode=arch=compute_$last,code=compute_$last"
  CUDA_LIBDIR=""
  for d in "$CUDA_HOME/targets/x86_64-linux/lib" "$CUDA_HOME/lib64" "$CUDA_HOME/lib"; do
    AS_IF([test -f "$d/libcudart_static.a" && ls "$d"/libcublas.so* >/dev/null 2>&1 && ls "$d"/libcusolver.so* >/dev/null 2>&1],
      [CUDA_LIBDIR="$d"; break])
  done
  AC_MSG_CHECKING([for the CUDA toolkit with cuBLAS and cuSOLVER])
  AS_IF([test -n "$CUDA_HOME" && test -n "$CUDA_LIBDIR"], [AC_MSG_RESULT([$CUDA_HOME ($CUDA_LIBDIR)])], [
    AC_MSG_RESULT([no])
    AS_IF([test "x$with_cuda" = xcheck],
      [AC_MSG_WARN([nvcc found ($NVCC) but no toolkit with cuBLAS/cuSOLVER next to it: building without the CUDA backend])
       NVCC=""],
      [AC_MSG_ERROR([nvcc found ($NVCC) but cuda_runtime.h, libcudart_static.a, libcublas or libcusolver is missing; use --with-cuda=DIR])])])
])
AS_IF([test -n "$NVCC"], [
  CUDA_CPPFLAGS="-I$CUDA_HOME/include"
  CUDA_LIBS="-L$CUDA_LIBDIR -lcublas -lcusolver -lcudart_static -lrt -lpthread -ldl"
  AC_DEFINE([BB_HAVE_CUDA], [1], [CUDA backend plugin is built])
  bb_cuda_msg="yes ($NVCC, $cuda_arch)"
])
AC_SUBST([NVCC])
AC_SUBST([NVCC_GENCODE])
AC_SUBST([CUDA_HOME])
AC_SUBST([CUDA_CPPFLAGS])
AC_SUBST([CUDA_LIBS])
AC_SUBST([CUDA_LIBDIR])
AM_CONDITIONAL([HAVE_CUDA], [test -n "$NVCC"])
])
