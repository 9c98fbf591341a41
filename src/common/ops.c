/* Static facts about each operation: names, families, written operands, flops. */
#include "batch.h"

#define W(o) (1u << (o))

static const struct {
    bb_opinfo info;
    unsigned writes;
} ops[BB_NOPS] = {
    [BB_OP_GEMM]      = {{"gemm", 0, 0, 0}, W(BB_C)},
    [BB_OP_SYMM]      = {{"symm", 0, 0, 0}, W(BB_C)},
    [BB_OP_HEMM]      = {{"hemm", 0, 1, 0}, W(BB_C)},
    [BB_OP_SYRK]      = {{"syrk", 0, 0, 0}, W(BB_C)},
    [BB_OP_HERK]      = {{"herk", 0, 1, 0}, W(BB_C)},
    [BB_OP_SYR2K]     = {{"syr2k", 0, 0, 0}, W(BB_C)},
    [BB_OP_HER2K]     = {{"her2k", 0, 1, 0}, W(BB_C)},
    [BB_OP_TRMM]      = {{"trmm", 0, 0, 0}, W(BB_B)},
    [BB_OP_TRSM]      = {{"trsm", 0, 0, 0}, W(BB_B)},
    [BB_OP_POTRF]     = {{"potrf", 1, 0, 0}, W(BB_A)},
    [BB_OP_POTRS]     = {{"potrs", 0, 0, 0}, W(BB_B)},
    [BB_OP_POSV]      = {{"posv", 1, 0, 0}, W(BB_A) | W(BB_B)},
    [BB_OP_TRTRI]     = {{"trtri", 1, 0, 0}, W(BB_A)},
    [BB_OP_LAUUM]     = {{"lauum", 0, 0, 0}, W(BB_A)},
    [BB_OP_POTRI]     = {{"potri", 1, 0, 0}, W(BB_A)},
    [BB_OP_POTI]      = {{"poti", 1, 0, 0}, W(BB_A)},
    [BB_OP_GETRF]     = {{"getrf", 1, 0, 1}, W(BB_A) | W(BB_IPIV)},
    [BB_OP_GETRFNP]   = {{"getrfnp", 1, 0, 1}, W(BB_A)},
    [BB_OP_GETRS]     = {{"getrs", 0, 0, 1}, W(BB_B)},
    [BB_OP_GESV]      = {{"gesv", 1, 0, 1}, W(BB_A) | W(BB_B) | W(BB_IPIV)},
    [BB_OP_GETRI]     = {{"getri", 1, 0, 1}, W(BB_A)},
    [BB_OP_GETRI_OOP] = {{"getri_oop", 1, 0, 1}, W(BB_B)},
    [BB_OP_LANGE]     = {{"lange", 0, 0, 0}, W(BB_Y)},
    [BB_OP_GECOND]    = {{"gecond", 1, 0, 0}, W(BB_Y)},
    [BB_OP_GECON]     = {{"gecon", 0, 0, 1}, W(BB_Y)},
    [BB_OP_GEINV]     = {{"geinv", 1, 0, 0}, W(BB_B)},
};

const bb_opinfo *bb_op_info(bb_op op) { return &ops[op].info; }

int bb_op_writes(bb_op op, int operand) { return (ops[op].writes >> operand) & 1u; }

/* Floating-point operations of one problem, counted as real flops (a complex
   multiply-add is 8), with the usual LAPACK working-note formulas. */
double bb_problem_flops(const bb_batch *b, const bb_problem *p)
{
    double m = p->m, n = p->n, k = p->k, r = p->nrhs;
    double f = 0, mul_add = (b->prec == BB_P_C || b->prec == BB_P_Z) ? 4.0 : 1.0;
    switch (b->op) {
    case BB_OP_GEMM: f = 2 * m * n * k; break;
    case BB_OP_SYMM: case BB_OP_HEMM:
        f = 2 * m * n * (p->side == BblasLeft ? m : n); break;
    case BB_OP_SYRK: case BB_OP_HERK: f = k * n * (n + 1); break;
    case BB_OP_SYR2K: case BB_OP_HER2K: f = 2 * k * n * n; break;
    case BB_OP_TRMM: case BB_OP_TRSM: f = m * n * (p->side == BblasLeft ? m : n); break;
    case BB_OP_POTRF: f = n * n * n / 3; break;
    case BB_OP_POTRS: f = 2 * n * n * r; break;
    case BB_OP_POSV: f = n * n * n / 3 + 2 * n * n * r; break;
    case BB_OP_TRTRI: f = n * n * n / 3; break;
    case BB_OP_LAUUM: f = n * n * n / 3; break;
    case BB_OP_POTRI: f = 2 * n * n * n / 3; break;
    case BB_OP_POTI: f = n * n * n; break;
    case BB_OP_GETRF: case BB_OP_GETRFNP: {
        double mn = m < n ? m : n; /* the multiplications, and as many additions */
        f = 2 * (m * n * mn - (m + n) * mn * mn / 2 + mn * mn * mn / 3);
        break;
    }
    case BB_OP_GETRS: f = 2 * n * n * r; break;
    case BB_OP_GESV: f = 2 * n * n * n / 3 + 2 * n * n * r; break;
    case BB_OP_GETRI: case BB_OP_GETRI_OOP: f = 4 * n * n * n / 3; break;
    case BB_OP_LANGE: f = m * n; break;
    case BB_OP_GECOND: case BB_OP_GEINV: f = 2 * n * n * n; break;
    case BB_OP_GECON: f = 4 * n * n; break;
    default: break;
    }
    return f * mul_add;
}
