/* The per-precision kernel table (compiled once per precision). */
#include "prec.h"
#include "cpu.h"

const bb_cpu_kernel X(cpu_kernels)[BB_NOPS] = {
    [BB_OP_GEMM] = X(cpu_gemm),     [BB_OP_SYMM] = X(cpu_symm),
#if BB_COMPLEX
    [BB_OP_HEMM] = X(cpu_hemm),     [BB_OP_HERK] = X(cpu_herk),
    [BB_OP_HER2K] = X(cpu_her2k),
#endif
    [BB_OP_SYRK] = X(cpu_syrk),     [BB_OP_SYR2K] = X(cpu_syr2k),
    [BB_OP_TRMM] = X(cpu_trmm),     [BB_OP_TRSM] = X(cpu_trsm),
    [BB_OP_POTRF] = X(cpu_potrf),   [BB_OP_POTRS] = X(cpu_potrs),
    [BB_OP_POSV] = X(cpu_posv),     [BB_OP_TRTRI] = X(cpu_trtri),
    [BB_OP_LAUUM] = X(cpu_lauum),   [BB_OP_POTRI] = X(cpu_potri),
    [BB_OP_POTI] = X(cpu_poti),
    [BB_OP_GETRF] = X(cpu_getrf),   [BB_OP_GETRFNP] = X(cpu_getrfnp),
    [BB_OP_GETRS] = X(cpu_getrs),   [BB_OP_GESV] = X(cpu_gesv),
    [BB_OP_GETRI] = X(cpu_getri),   [BB_OP_GETRI_OOP] = X(cpu_getri_oop),
    [BB_OP_LANGE] = X(cpu_lange),   [BB_OP_GECOND] = X(cpu_gecond),
    [BB_OP_GECON] = X(cpu_gecon),   [BB_OP_GEINV] = X(cpu_geinv),
};
