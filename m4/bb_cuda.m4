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
    AS_IF([test -n "$NVCC"], [CUDA_HOME=`dirname $NVCC`; CUDA_HOME=`dirname $CUDA_HOME`])],
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
  CUDA_LIBDIR="$CUDA_HOME/lib64"
  AS_IF([test -d "$CUDA_HOME/targets/x86_64-linux/lib"], [CUDA_LIBDIR="$CUDA_HOME/targets/x86_64-linux/lib"])
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
AM_CONDITIONAL([HAVE_CUDA], [test -n "$NVCC"])
])
