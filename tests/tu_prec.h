/*
 * Typed test helpers for the precision being compiled (include after
 * prec.h).  Matrices are addressed logically: elem(A, ld, layout, i, j).
 * References are computed here with plain loops in double (complex) so they
 * never share a code path with the library.
 */
#ifndef BB_TU_PREC_H
#define BB_TU_PREC_H

#include <check.h>
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "batchblas.h"
#include "testutil.h"

#define TU_PREC_ID BB_PREC_NUM /* 0 s, 1 d, 2 c, 3 z: the tu_ratio precision */
#define TU_PNAME BB_STR(BB_L)

typedef double _Complex zd; /* reference arithmetic */

static inline T tu_T(zd v) { return (T)MAKE_T(creal(v), cimag(v)); }
static inline zd tu_z(T v) { return (zd)(REAL(v) + IMAG(v) * I); }
static inline T tu_rand_T(void) { return MAKE_T(tu_rand(), BB_COMPLEX ? tu_rand() : 0.0); }

/* offset of logical (i, j) */
static inline int64_t tu_idx(int64_t ld, int layout, int i, int j)
{
    return layout == BblasColMajor ? i + j * ld : j + i * ld;
}

/* storage footprint of an r x c matrix with leading dimension ld */
static inline int64_t tu_foot(int64_t ld, int layout, int r, int c)
{
    if (r == 0 || c == 0) return 1;
    return layout == BblasColMajor ? ld * c : ld * r;
}

/* Allocates count matrices of footprint elems each, spaced by stride (>= elems),
   all filled with TU_SENTINEL; returns the base. */
static inline T *tu_alloc(int64_t count, int64_t stride)
{
    int64_t n = count * stride + 1;
    T *p = (T *)malloc((size_t)n * sizeof(T));
    ck_assert_ptr_nonnull(p);
    for (int64_t i = 0; i < n; i++) p[i] = MAKE_T(TU_SENTINEL, 0);
    return p;
}

/* random r x c logical matrix */
static inline void tu_fill(T *A, int64_t ld, int layout, int r, int c)
{
    for (int i = 0; i < r; i++)
        for (int j = 0; j < c; j++) A[tu_idx(ld, layout, i, j)] = tu_rand_T();
}

/* Hermitian (symmetric) positive definite: B*B^H + n*I, full storage */
static inline void tu_fill_hpd(T *A, int64_t ld, int layout, int n)
{
    zd *B = (zd *)malloc(sizeof(zd) * (size_t)(n * n + 1));
    for (int i = 0; i < n * n; i++) B[i] = tu_z(tu_rand_T());
    for (int i = 0; i < n; i++)
        for (int j = 0; j <= i; j++) {
            zd s = 0;
            for (int l = 0; l < n; l++) s += B[i + l * n] * conj(B[j + l * n]);
            if (i == j) s = creal(s) + n;
            A[tu_idx(ld, layout, i, j)] = tu_T(s);
            A[tu_idx(ld, layout, j, i)] = tu_T(conj(s));
        }
    free(B);
}

/* 1 if every element of [p, p+n) equals the sentinel */
static inline int tu_untouched(const T *p, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        if (REAL(p[i]) != (R)TU_SENTINEL || IMAG(p[i]) != 0) return 0;
    return 1;
}

/* Frobenius norm of a logical r x c matrix */
static inline double tu_normf(const T *A, int64_t ld, int layout, int r, int c)
{
    double s = 0;
    for (int i = 0; i < r; i++)
        for (int j = 0; j < c; j++) {
            double a = cabs(tu_z(A[tu_idx(ld, layout, i, j)]));
            s += a * a;
        }
    return sqrt(s);
}

/* Checks that everything of a matrix buffer outside the logical r x c block
   still holds the sentinel (padding rows of lda > m). */
static inline int tu_padding_untouched(const T *A, int64_t ld, int layout, int r, int c)
{
    if (r == 0 || c == 0) return 1; /* an empty matrix has no padding to check */
    int inner = layout == BblasColMajor ? r : c, outer = layout == BblasColMajor ? c : r;
    for (int o = 0; o < outer; o++)
        for (int64_t x = inner; x < ld; x++)
            if (REAL(A[x + o * ld]) != (R)TU_SENTINEL || IMAG(A[x + o * ld]) != 0) return 0;
    return 1;
}

/* zeroed reference array of n double-complex elements */
static inline zd *zalloc(int64_t n)
{
    zd *p = (zd *)calloc((size_t)(n > 0 ? n : 1), sizeof(zd));
    ck_assert_ptr_nonnull(p);
    return p;
}

/* inverse of the n x n A by Gauss-Jordan with partial pivoting; 0 if singular */
static inline int ref_inv(int n, const zd *A, zd *Ai)
{
    zd *W = zalloc((int64_t)n * n);
    memcpy(W, A, sizeof(zd) * (size_t)n * n);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) Ai[i + j * n] = i == j;
    int ok = 1;
    for (int k = 0; k < n && ok; k++) {
        int p = k;
        for (int i = k + 1; i < n; i++)
            if (cabs(W[i + k * n]) > cabs(W[p + k * n])) p = i;
        if (W[p + k * n] == 0) {
            ok = 0;
            break;
        }
        for (int j = 0; j < n; j++) {
            zd t = W[k + j * n]; W[k + j * n] = W[p + j * n]; W[p + j * n] = t;
            t = Ai[k + j * n]; Ai[k + j * n] = Ai[p + j * n]; Ai[p + j * n] = t;
        }
        zd d = 1.0 / W[k + k * n];
        for (int j = 0; j < n; j++) { W[k + j * n] *= d; Ai[k + j * n] *= d; }
        for (int i = 0; i < n; i++) {
            if (i == k) continue;
            zd f = W[i + k * n];
            if (f == 0) continue;
            for (int j = 0; j < n; j++) {
                W[i + j * n] -= f * W[k + j * n];
                Ai[i + j * n] -= f * Ai[k + j * n];
            }
        }
    }
    free(W);
    return ok;
}

static inline const char *tu_layout_name(int layout) { return layout == BblasColMajor ? "col" : "row"; }

#endif
