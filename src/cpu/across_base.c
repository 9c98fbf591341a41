/* The kernels across problems for every CPU (16-byte vectors: 2 doubles, 4
   floats; SSE2 on x86-64; across_kernels.h, the body; across.c chooses the
   variant). */
#include "prec.h"
#include "cpu.h"
#include "across.h"
#define ACROSS_VB 16
#define XI(name) X(name##_base)
#include "across_kernels.h"
