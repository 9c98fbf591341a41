/*
 * How a size rule of check.c (bb_rule) is evaluated, and which failing
 * argument wins: one definition, host and device (BB_HD), for the host
 * checks (check.c) and the device checks of the variable form
 * (src/cuda/varplan.cu, k_var_check).
 */
#ifndef BB_RULES_H
#define BB_RULES_H

#ifdef __CUDACC__
#define BB_HD static __host__ __device__ __forceinline__
#else
#define BB_HD static inline
#endif

/* A size (rule dim < 0) is bad when negative. */
BB_HD int bb_size_bad(int v) { return v < 0; }
/* A leading dimension v is bad below max(1, d), d the dimension it holds. */
BB_HD int bb_ld_bad(int v, int d) { return v < d || v < 1; }
/* The code of the failing argument with the lowest position: worst so
   far (0: none), and the position of one more failing argument. */
BB_HD int bb_first_pos(int worst, int pos) { return worst == 0 || pos < worst ? pos : worst; }

#endif
