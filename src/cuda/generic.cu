/*
 * Generic CUDA kernels: the entry point.  Every routine in every precision
 * (hemm/herk/her2k complex only); the kernels are templates on the element
 * type in generic_{blas3,chol,lu,norm}.cu, explicitly instantiated there.
 */
#define BB_GENERIC_INTERNAL
#include "generic.h"

int bb_generic_supports(bb_op op, bb_prec prec)
{
    if ((int)op < 0 || op >= BB_NOPS) return 0;
    if ((int)prec < BB_P_S || (int)prec > BB_P_Z) return 0;
    if ((op == BB_OP_HEMM || op == BB_OP_HERK || op == BB_OP_HER2K) && (prec == BB_P_S || prec == BB_P_D))
        return 0;
    return 1;
}

template <typename T>
static cudaError_t launch_t(bb_op op, const bb_problem &p, const bb_dev_batch &d, batchblas_queue *q)
{
    switch (op) {
    case BB_OP_GEMM: case BB_OP_SYMM: case BB_OP_HEMM: case BB_OP_SYRK: case BB_OP_HERK:
    case BB_OP_SYR2K: case BB_OP_HER2K: case BB_OP_TRMM: case BB_OP_TRSM:
        return bbg_launch_blas3<T>(op, p, d, q);
    case BB_OP_POTRF: case BB_OP_POTRS: case BB_OP_POSV: case BB_OP_TRTRI: case BB_OP_LAUUM:
    case BB_OP_POTRI: case BB_OP_POTI:
        return bbg_launch_chol<T>(op, p, d, q);
    case BB_OP_GETRF: case BB_OP_GETRFNP: case BB_OP_GETRS: case BB_OP_GESV: case BB_OP_GETRI:
    case BB_OP_GETRI_OOP: case BB_OP_GECOND: case BB_OP_GEINV:
        return bbg_launch_lu<T>(op, p, d, q);
    case BB_OP_LANGE: case BB_OP_GECON:
        return bbg_launch_norm<T>(op, p, d, q);
    default:
        return cudaErrorNotSupported;
    }
}

cudaError_t bb_generic_launch(bb_op op, bb_prec prec, const bb_problem &p, const bb_dev_batch &d,
                              batchblas_queue *q)
{
    if (!bb_generic_supports(op, prec)) return cudaErrorNotSupported;
    if (d.count <= 0) return cudaSuccess;
    bb_dev_batch dd = d;
    if (p.swap_ab) { /* normalised A is the caller's B (row-major gemm) */
        bb_dev_opd t = dd.opd[BB_A];
        dd.opd[BB_A] = dd.opd[BB_B];
        dd.opd[BB_B] = t;
    }
    switch (prec) {
    case BB_P_S: return launch_t<float>(op, p, dd, q);
    case BB_P_D: return launch_t<double>(op, p, dd, q);
    case BB_P_C: return launch_t<cuFloatComplex>(op, p, dd, q);
    case BB_P_Z: return launch_t<cuDoubleComplex>(op, p, dd, q);
    default: return cudaErrorNotSupported;
    }
}
