/* CPU kernels of the BLAS-3 family (compiled once per precision). */
#include "small.h"

/* op(A)(i,l) */
static inline T opget(const T *A, int64_t ld, int trans, int i, int l)
{
    if (trans == BblasNoTrans) return A[i + l * ld];
    T v = A[l + i * ld];
    return trans == BblasConjTrans ? CONJ(v) : v;
}

int X(cpu_gemm)(bb_problem *p, bb_work *w)
{
    const T *A = p->a, *B = p->b;
    T *C = p->c;
    T alpha = bb_alpha(p), beta = bb_beta(p);
    int m = p->m, n = p->n, k = p->k;
    if (m == 0 || n == 0) return 0;
    if ((int64_t)m * n * k > BB_CPU_GEMM_OWN_MAX_MNK && k > 0 && alpha != (T)0) {
        CBLAS(gemm)(CblasColMajor, bb_cblas_trans(p->trans), bb_cblas_trans(p->transb), m, n, k,
                    CBLAS_SCALAR(alpha), A, p->lda, B, p->ldb, CBLAS_SCALAR(beta), C, p->ldc);
        return 0;
    }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            T s = 0;
            if (alpha != (T)0)
                for (int l = 0; l < k; l++)
                    s += opget(A, p->lda, p->trans, i, l) * opget(B, p->ldb, p->transb, l, j);
            T c = beta == (T)0 ? (T)0 : beta * C[i + j * p->ldc];
            C[i + j * p->ldc] = alpha * s + c;
        }
    return 0;
}

#define TODO_KERNEL(name) int X(cpu_##name)(bb_problem *p, bb_work *w) { return 0; }
TODO_KERNEL(symm) TODO_KERNEL(hemm) TODO_KERNEL(syrk) TODO_KERNEL(herk)
TODO_KERNEL(syr2k) TODO_KERNEL(her2k) TODO_KERNEL(trmm) TODO_KERNEL(trsm)
