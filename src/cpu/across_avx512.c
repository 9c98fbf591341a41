/* The kernels across problems for x86-64 CPUs with AVX-512
   (64-byte vectors: 8 doubles, 16 floats; across_kernels.h, the body;
   across.c chooses the variant). */
#include "prec.h"
#include "cpu.h"
#include "across.h"
#if BB_CPU_X86
#  pragma GCC target("avx512f,fma")
#  define ACROSS_VB 64
#  define XI(name) X(name##_avx512)
#  include "across_kernels.h"
#else
typedef int bb_across_avx512_none; /* not this target: nothing to compile */
#endif
