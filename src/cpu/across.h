/* The kernels across problems, between across.c (which chooses a variant
   when the library loads) and their body, across_kernels.h, compiled once
   per instruction set (across_avx512.c, across_avx2.c, across_base.c) and
   per precision (complex: the real and imaginary parts of V problems' elements
   in two vectors).  Include after prec.h and cpu.h. */
#ifndef BB_CPU_ACROSS_H
#define BB_CPU_ACROSS_H
#ifndef BB_CPU_X86 /* cpu.h: an undefined one would read as 0 and leave the x86 variants out */
#  error "across.h needs cpu.h first"
#endif

/* what a block runs (across_kernels.h's plan_of) */
enum { K_POTRF, K_POTRS, K_POSV, K_TRSM, K_GETRF, K_GETRS, K_GESV, K_SYRK, K_TRMM, K_TRTRI, K_LAUUM, K_POTRI, K_POTI,
       K_GEINV, K_GETRI, K_GETRI_OOP, K_GECOND, K_LANGE, K_GETRFNP, K_COUNT };

/* A variant's two entries: the runner of a kind (bb_cpu_across.run, cpu.h),
   and one problem through the block (lane 0): its info. */
#define ACROSS_ENTRIES(isa)                                                                                \
    BB_INTERNAL bb_cpu_across X(across_kind_##isa)(int kind);                                              \
    BB_INTERNAL int X(across_one_##isa)(int kind, const bb_problem *p)
ACROSS_ENTRIES(base);
#if BB_CPU_X86
ACROSS_ENTRIES(avx2);
ACROSS_ENTRIES(avx512);
#endif
#endif
