/* The kernels across problems for x86-64 CPUs with AVX2 and FMA
   (32-byte vectors: 4 doubles, 8 floats; across_kernels.h, the body;
   across.c chooses the variant). */
#include "prec.h"
#include "cpu.h"
#include "across.h"
#if BB_CPU_X86
#  pragma GCC target("avx2,fma")
#  define ACROSS_VB 32
#  define XI(name) X(name##_avx2)
#  include "across_kernels.h"
#else
typedef int bb_across_avx2_none; /* not this target: nothing to compile */
#endif
