#!/usr/bin/env python3
"""Generates the public prototypes (include/batchblas_[sdcz].h), the wrappers
that turn every public form into one bb_batch descriptor
(src/common/api_[sdcz].c), the Fortran module (fortran/batchblas.f90) and the
API reference (doc/api.md) from the routine
table below.  `make check` runs `gen_api.py --check` so the committed output
stays current.  Usage: tools/gen_api.py [--check] [top_srcdir]
"""
import os
import sys

# ---------------------------------------------------------------------------
# The routine table.  Arguments in the order of the fixed form after
# (batch_size, layout).  Kinds:
#   opt SLOT name        an option (bblas_enum_t)
#   int SLOT name        a size or leading dimension (int)
#   scal SLOT name TYPE  alpha/beta; TYPE 'T' (element) or 'R' (real)
#   mat OPD name IO      a matrix operand; IO 'in' or 'out' (read and/or written)
#   piv name IO          pivot operand (int), one vector per problem
#   vec OPD name IO      one real value per problem (plain array in every form)
# ---------------------------------------------------------------------------
ROUTINES = [
    # name, prefix, complex_only, op, summary, args
    ("gemm", "blas", False, "GEMM", "C = alpha*op(A)*op(B) + beta*C", [
        ("opt", "BB_TRANS", "transa"), ("opt", "BB_TRANSB", "transb"),
        ("int", "BB_M", "m"), ("int", "BB_N", "n"), ("int", "BB_K", "k"),
        ("scal", "BB_ALPHA", "alpha", "T"),
        ("mat", "BB_A", "A", "in"), ("int", "BB_LDA", "lda"),
        ("mat", "BB_B", "B", "in"), ("int", "BB_LDB", "ldb"),
        ("scal", "BB_BETA", "beta", "T"),
        ("mat", "BB_C", "C", "out"), ("int", "BB_LDC", "ldc")]),
    ("symm", "blas", False, "SYMM", "C = alpha*A*B + beta*C (side left) or alpha*B*A + beta*C (right), A symmetric", [
        ("opt", "BB_SIDE", "side"), ("opt", "BB_UPLO", "uplo"),
        ("int", "BB_M", "m"), ("int", "BB_N", "n"),
        ("scal", "BB_ALPHA", "alpha", "T"),
        ("mat", "BB_A", "A", "in"), ("int", "BB_LDA", "lda"),
        ("mat", "BB_B", "B", "in"), ("int", "BB_LDB", "ldb"),
        ("scal", "BB_BETA", "beta", "T"),
        ("mat", "BB_C", "C", "out"), ("int", "BB_LDC", "ldc")]),
    ("hemm", "blas", True, "HEMM", "C = alpha*A*B + beta*C (side left) or alpha*B*A + beta*C (right), A Hermitian", [
        ("opt", "BB_SIDE", "side"), ("opt", "BB_UPLO", "uplo"),
        ("int", "BB_M", "m"), ("int", "BB_N", "n"),
        ("scal", "BB_ALPHA", "alpha", "T"),
        ("mat", "BB_A", "A", "in"), ("int", "BB_LDA", "lda"),
        ("mat", "BB_B", "B", "in"), ("int", "BB_LDB", "ldb"),
        ("scal", "BB_BETA", "beta", "T"),
        ("mat", "BB_C", "C", "out"), ("int", "BB_LDC", "ldc")]),
    ("syrk", "blas", False, "SYRK", "C = alpha*A*A^T + beta*C (trans N) or alpha*A^T*A + beta*C (T), C symmetric n x n, uplo triangle only", [
        ("opt", "BB_UPLO", "uplo"), ("opt", "BB_TRANS", "trans"),
        ("int", "BB_N", "n"), ("int", "BB_K", "k"),
        ("scal", "BB_ALPHA", "alpha", "T"),
        ("mat", "BB_A", "A", "in"), ("int", "BB_LDA", "lda"),
        ("scal", "BB_BETA", "beta", "T"),
        ("mat", "BB_C", "C", "out"), ("int", "BB_LDC", "ldc")]),
    ("herk", "blas", True, "HERK", "C = alpha*A*A^H + beta*C (trans N) or alpha*A^H*A + beta*C (C), real alpha, beta", [
        ("opt", "BB_UPLO", "uplo"), ("opt", "BB_TRANS", "trans"),
        ("int", "BB_N", "n"), ("int", "BB_K", "k"),
        ("scal", "BB_ALPHA", "alpha", "R"),
        ("mat", "BB_A", "A", "in"), ("int", "BB_LDA", "lda"),
        ("scal", "BB_BETA", "beta", "R"),
        ("mat", "BB_C", "C", "out"), ("int", "BB_LDC", "ldc")]),
    ("syr2k", "blas", False, "SYR2K", "C = alpha*A*B^T + alpha*B*A^T + beta*C (trans N) or the transposed form (T)", [
        ("opt", "BB_UPLO", "uplo"), ("opt", "BB_TRANS", "trans"),
        ("int", "BB_N", "n"), ("int", "BB_K", "k"),
        ("scal", "BB_ALPHA", "alpha", "T"),
        ("mat", "BB_A", "A", "in"), ("int", "BB_LDA", "lda"),
        ("mat", "BB_B", "B", "in"), ("int", "BB_LDB", "ldb"),
        ("scal", "BB_BETA", "beta", "T"),
        ("mat", "BB_C", "C", "out"), ("int", "BB_LDC", "ldc")]),
    ("her2k", "blas", True, "HER2K", "C = alpha*A*B^H + conj(alpha)*B*A^H + beta*C (trans N) or the conjugate-transposed form (C), real beta", [
        ("opt", "BB_UPLO", "uplo"), ("opt", "BB_TRANS", "trans"),
        ("int", "BB_N", "n"), ("int", "BB_K", "k"),
        ("scal", "BB_ALPHA", "alpha", "T"),
        ("mat", "BB_A", "A", "in"), ("int", "BB_LDA", "lda"),
        ("mat", "BB_B", "B", "in"), ("int", "BB_LDB", "ldb"),
        ("scal", "BB_BETA", "beta", "R"),
        ("mat", "BB_C", "C", "out"), ("int", "BB_LDC", "ldc")]),
    ("trmm", "blas", False, "TRMM", "B = alpha*op(A)*B (side left) or alpha*B*op(A) (right), A triangular", [
        ("opt", "BB_SIDE", "side"), ("opt", "BB_UPLO", "uplo"),
        ("opt", "BB_TRANS", "transa"), ("opt", "BB_DIAG", "diag"),
        ("int", "BB_M", "m"), ("int", "BB_N", "n"),
        ("scal", "BB_ALPHA", "alpha", "T"),
        ("mat", "BB_A", "A", "in"), ("int", "BB_LDA", "lda"),
        ("mat", "BB_B", "B", "out"), ("int", "BB_LDB", "ldb")]),
    ("trsm", "blas", False, "TRSM", "solves op(A)*X = alpha*B (side left) or X*op(A) = alpha*B (right); X overwrites B", [
        ("opt", "BB_SIDE", "side"), ("opt", "BB_UPLO", "uplo"),
        ("opt", "BB_TRANS", "transa"), ("opt", "BB_DIAG", "diag"),
        ("int", "BB_M", "m"), ("int", "BB_N", "n"),
        ("scal", "BB_ALPHA", "alpha", "T"),
        ("mat", "BB_A", "A", "in"), ("int", "BB_LDA", "lda"),
        ("mat", "BB_B", "B", "out"), ("int", "BB_LDB", "ldb")]),
    # ---- Cholesky family
    ("potrf", "lapack", False, "POTRF", "Cholesky factorisation A = U^H*U (upper) or L*L^H (lower); info k > 0: leading minor k not positive definite", [
        ("opt", "BB_UPLO", "uplo"), ("int", "BB_N", "n"),
        ("mat", "BB_A", "A", "out"), ("int", "BB_LDA", "lda")]),
    ("potrs", "lapack", False, "POTRS", "solves A*X = B with the Cholesky factor from potrf; any nrhs", [
        ("opt", "BB_UPLO", "uplo"), ("int", "BB_N", "n"), ("int", "BB_NRHS", "nrhs"),
        ("mat", "BB_A", "A", "in"), ("int", "BB_LDA", "lda"),
        ("mat", "BB_B", "B", "out"), ("int", "BB_LDB", "ldb")]),
    ("posv", "lapack", False, "POSV", "factors A (potrf) and solves A*X = B; info as potrf", [
        ("opt", "BB_UPLO", "uplo"), ("int", "BB_N", "n"), ("int", "BB_NRHS", "nrhs"),
        ("mat", "BB_A", "A", "out"), ("int", "BB_LDA", "lda"),
        ("mat", "BB_B", "B", "out"), ("int", "BB_LDB", "ldb")]),
    ("trtri", "lapack", False, "TRTRI", "inverts a triangular matrix in place; info k > 0: A(k,k) is exactly zero", [
        ("opt", "BB_UPLO", "uplo"), ("opt", "BB_DIAG", "diag"), ("int", "BB_N", "n"),
        ("mat", "BB_A", "A", "out"), ("int", "BB_LDA", "lda")]),
    ("lauum", "lapack", False, "LAUUM", "computes U*U^H (upper) or L^H*L (lower) in place", [
        ("opt", "BB_UPLO", "uplo"), ("int", "BB_N", "n"),
        ("mat", "BB_A", "A", "out"), ("int", "BB_LDA", "lda")]),
    ("potri", "lapack", False, "POTRI", "inverse of A from its Cholesky factor (potrf output), in place; info as trtri", [
        ("opt", "BB_UPLO", "uplo"), ("int", "BB_N", "n"),
        ("mat", "BB_A", "A", "out"), ("int", "BB_LDA", "lda")]),
    ("poti", "lapack", False, "POTI", "inverse of an SPD/HPD matrix in place (potrf then potri); info as potrf", [
        ("opt", "BB_UPLO", "uplo"), ("int", "BB_N", "n"),
        ("mat", "BB_A", "A", "out"), ("int", "BB_LDA", "lda")]),
    # ---- LU family
    ("getrf", "lapack", False, "GETRF", "LU factorisation with partial pivoting P*A = L*U, 1-based pivots; info k > 0: U(k,k) is exactly zero", [
        ("int", "BB_M", "m"), ("int", "BB_N", "n"),
        ("mat", "BB_A", "A", "out"), ("int", "BB_LDA", "lda"),
        ("piv", "ipiv", "out")]),
    ("getrfnp", "lapack", False, "GETRFNP", "LU factorisation without pivoting A = L*U; info k > 0: U(k,k) is exactly zero", [
        ("int", "BB_M", "m"), ("int", "BB_N", "n"),
        ("mat", "BB_A", "A", "out"), ("int", "BB_LDA", "lda")]),
    ("getrs", "lapack", False, "GETRS", "solves op(A)*X = B with the LU factors and pivots from getrf", [
        ("opt", "BB_TRANS", "trans"), ("int", "BB_N", "n"), ("int", "BB_NRHS", "nrhs"),
        ("mat", "BB_A", "A", "in"), ("int", "BB_LDA", "lda"),
        ("piv", "ipiv", "in"),
        ("mat", "BB_B", "B", "out"), ("int", "BB_LDB", "ldb")]),
    ("gesv", "lapack", False, "GESV", "factors A (getrf) and solves A*X = B; info as getrf", [
        ("int", "BB_N", "n"), ("int", "BB_NRHS", "nrhs"),
        ("mat", "BB_A", "A", "out"), ("int", "BB_LDA", "lda"),
        ("piv", "ipiv", "out"),
        ("mat", "BB_B", "B", "out"), ("int", "BB_LDB", "ldb")]),
    ("getri", "lapack", False, "GETRI", "inverse from the LU factors and pivots of getrf, in place; info k > 0: U(k,k) is exactly zero", [
        ("int", "BB_N", "n"),
        ("mat", "BB_A", "A", "out"), ("int", "BB_LDA", "lda"),
        ("piv", "ipiv", "in")]),
    ("getri_oop", "lapack", False, "GETRI_OOP", "inverse from the LU factors and pivots of getrf, written to Ainv (A is not changed)", [
        ("int", "BB_N", "n"),
        ("mat", "BB_A", "A", "in"), ("int", "BB_LDA", "lda"),
        ("piv", "ipiv", "in"),
        ("mat", "BB_B", "Ainv", "out"), ("int", "BB_LDB", "ldainv")]),
    ("geinv", "lapack", False, "GEINV", "inverse Ainv = inv(A) of the stored matrix in one call (Gauss-Jordan with partial pivoting; for row-major data the stored matrix is A^T, whose inverse is inv(A)^T: the same call serves both layouts); A is not changed; singular: info k > 0 (the zero or NaN pivot of elimination step k) and Ainv is not written", [
        ("int", "BB_N", "n"),
        ("mat", "BB_A", "A", "in"), ("int", "BB_LDA", "lda"),
        ("mat", "BB_B", "Ainv", "out"), ("int", "BB_LDB", "ldainv")]),
    # ---- norms and conditioning
    ("lange", "lapack", False, "LANGE", "value[i] = norm of A_i: BblasOneNorm, BblasInfNorm, BblasMaxNorm or BblasFrobeniusNorm", [
        ("opt", "BB_NORM", "norm"), ("int", "BB_M", "m"), ("int", "BB_N", "n"),
        ("mat", "BB_A", "A", "in"), ("int", "BB_LDA", "lda"),
        ("vec", "BB_Y", "value", "out")]),
    ("gecond", "lapack", False, "GECOND", "exact condition number cond[i] = ||A_i||*||inv(A_i)|| in the one or infinity norm (A is not changed); singular: info k > 0 (the zero pivot column of the LU of the stored matrix, so of A^T for row-major) and cond = +Inf", [
        ("opt", "BB_NORM", "norm"), ("int", "BB_N", "n"),
        ("mat", "BB_A", "A", "in"), ("int", "BB_LDA", "lda"),
        ("vec", "BB_Y", "cond", "out")]),
    ("gecon", "lapack", False, "GECON", "estimates rcond[i] = 1/(||A_i||*||inv(A_i)||) from the LU factors of getrf and anorm[i] = ||A_i|| (LAPACK gecon)", [
        ("opt", "BB_NORM", "norm"), ("int", "BB_N", "n"),
        ("mat", "BB_A", "A", "in"), ("int", "BB_LDA", "lda"),
        ("vec", "BB_X", "anorm", "in"), ("vec", "BB_Y", "rcond", "out")]),
]

PRECS = [
    # letter, BB enum, T, R
    ("s", "BB_P_S", "float", "float"),
    ("d", "BB_P_D", "double", "double"),
    ("c", "BB_P_C", "bblas_complex32_t", "float"),
    ("z", "BB_P_Z", "bblas_complex64_t", "double"),
]

FORMS = [("batch", "BB_FORM_GROUP"), ("batchf", "BB_FORM_FIXED"),
         ("batchv", "BB_FORM_VAR"), ("batch_strided", "BB_FORM_STRIDED")]
# Device-data variants: the same four forms with device pointers and a
# trailing queue argument, e.g. blas_dgemm_batch_strided_dev(..., info, queue).
DEV_FORMS = [(f + "_dev", e) for (f, e) in FORMS]
ALL_FORMS = FORMS + DEV_FORMS


def base_form(form):
    return form[:-4] if form.endswith("_dev") else form

OPD_INDEX = {"BB_A": 0, "BB_B": 1, "BB_C": 2, "BB_IPIV": 3, "BB_X": 4, "BB_Y": 5}


def fname(r, p, form):
    return "%s_%s%s_%s" % (r[1], p[0], r[0], form)


def params(r, p, form):
    """List of (ctype, name, slot, what) for one form of a routine."""
    dev = form.endswith("_dev")
    form = base_form(form)
    T, R = p[2], p[3]
    out = []
    if form == "batch":
        out.append(("int", "group_count", "BB_COUNT_ARG", "count"))
        out.append(("const int *", "group_sizes", "BB_GSIZES_ARG", "gsizes"))
    elif form in ("batchf", "batchv"):
        out.append(("int", "batch_size", "BB_COUNT_ARG", "count"))
    out.append(("bblas_enum_t", "layout", "BB_LAYOUT_ARG", "layout"))
    per = form in ("batch", "batchv")
    for a in r[5]:
        kind = a[0]
        if kind == "opt":
            out.append(("const bblas_enum_t *" if per else "bblas_enum_t", a[2], a[1], "par"))
        elif kind == "int":
            out.append(("const int *" if per else "int", a[2], a[1], "par"))
        elif kind == "scal":
            t = T if a[3] == "T" else R
            out.append(("const %s *" % t if per else t, a[2], a[1], "scal"))
        elif kind == "mat":
            o = a[1]
            if form == "batch_strided":
                t = ("const %s *" % T) if a[3] == "in" else ("%s *" % T)
                out.append((t, a[2], "BB_OPD0 + " + o, "base"))
            else:
                t = ("%s const *const *" % T) if a[3] == "in" else ("%s **" % T)
                out.append((t, a[2], "BB_OPD0 + " + o, "arr"))
        elif kind == "piv":
            if form == "batch_strided":
                t = "const int *" if a[2] == "in" else "int *"
                out.append((t, a[1], "BB_OPD0 + BB_IPIV", "base"))
                out.append(("int64_t", "stride_ipiv", "BB_STRIDE0 + BB_IPIV", "stride"))
            else:
                t = "int const *const *" if a[2] == "in" else "int **"
                out.append((t, a[1], "BB_OPD0 + BB_IPIV", "arr"))
        elif kind == "vec":
            t = ("const %s *" % R) if a[3] == "in" else ("%s *" % R)
            out.append((t, a[2], "BB_OPD0 + " + a[1], "vec"))
        # strides go right after the leading dimension of their matrix
        if kind == "int" and form == "batch_strided" and a[1].startswith("BB_LD"):
            o = "BB_" + a[1][5:]
            out.append(("int64_t", "stride_" + a[2][2:].lower() if a[2] != "ldainv" else "stride_ainv",
                        "BB_STRIDE0 + " + o, "stride"))
    if form == "batch_strided":
        out.append(("int", "batch_size", "BB_COUNT_ARG", "count"))
    out.append(("int *", "info", "BB_INFO_ARG", "info"))
    if dev:
        out.append(("batchblas_queue_t", "queue", "BB_QUEUE_ARG", "queue"))
    return out


def proto(r, p, form):
    ps = params(r, p, form)
    args = []
    for (t, n, _s, _w) in ps:
        sep = "" if t.endswith("*") else " "
        args.append("%s%s%s" % (t, sep, n))
    return "void %s(%s)" % (fname(r, p, form), ", ".join(args))


def wrap(text, indent, width=88):
    """Breaks a prototype after commas."""
    out, line = [], ""
    for piece in text.split(", "):
        cand = piece if not line else line + ", " + piece
        if len(cand) > width and line:
            out.append(line + ",")
            line = indent + piece
        else:
            line = cand
    out.append(line)
    return "\n".join(out)


def body(r, p, form):
    ps = params(r, p, form)
    lines = []
    pos = ", ".join("[%s] = %d" % (s, i + 1) for i, (_t, _n, s, _w) in enumerate(ps))
    lines.append("    static const unsigned char pos[BB_NARG] = {%s};" % pos)
    lines.append("    bb_batch b = {0};")
    lines.append("    b.op = BB_OP_%s;" % r[3])
    lines.append("    b.prec = %s;" % p[1])
    lines.append("    b.form = %s;" % dict(ALL_FORMS)[form])
    lines.append('    b.name = "%s";' % fname(r, p, form))
    lines.append("    b.pos = pos;")
    lines.append("    b.layout = layout;")
    lines.append("    b.info = info;")
    if form.endswith("_dev"):
        lines.append("    b.queue = queue;")
        lines.append("    b.device_data = 1;")
    form = base_form(form)
    if form == "batch":
        lines.append("    b.ngroups = group_count;")
        lines.append("    b.group_sizes = group_sizes;")
        lines.append("    b.pinc = 1;")
    elif form == "batchv":
        lines.append("    b.count = batch_size;")
        lines.append("    b.ngroups = batch_size;")
        lines.append("    b.pinc = 1;")
    else:
        lines.append("    b.count = batch_size;")
        lines.append("    b.ngroups = 1;")
    per = form in ("batch", "batchv")
    for (t, n, s, w) in ps:
        if w == "par":
            lines.append("    b.par[%s] = %s%s;" % (s, "" if per else "&", n))
        elif w == "scal":
            lines.append("    b.%s = %s%s;" % ("alpha" if s == "BB_ALPHA" else "beta", "" if per else "&", n))
        elif w == "arr":
            o = s.split("+")[1].strip()
            lines.append("    b.opd[%s].arr = (void *const *)%s;" % (o, n))
        elif w in ("base", "vec"):
            o = s.split("+")[1].strip()
            lines.append("    b.opd[%s].base = (char *)%s;" % (o, n))
            if w == "vec":
                lines.append("    b.opd[%s].stride = 1;" % o)
        elif w == "stride":
            o = s.split("+")[1].strip()
            lines.append("    b.opd[%s].stride = %s;" % (o, n))
    lines.append("    bb_execute(&b);")
    return "\n".join(lines)


def routines_for(p):
    return [r for r in ROUTINES if not (r[2] and p[0] in "sd")]


HDR_TOP = """/*
 * BatchBLAS public prototypes, precision %(L)s (%(T)s).
 * GENERATED by tools/gen_api.py from its routine table: do not edit.
 *
 * Every routine comes in four forms (see README.md, "Forms and naming"):
 *   _batch          group form: group_count, group_sizes[], one parameter per group
 *   _batchf         fixed form: one parameter set for all batch_size problems
 *   _batchv         variable form: one parameter per problem
 *   _batch_strided  strided form: one base pointer and an element stride per operand
 *   ..._dev         the same four forms on device data, asynchronous on a queue
 *                   (see batchblas_types.h, "Device data and queues")
 * info: info[0] on entry selects the report mode (BblasErrorsReport*); on exit
 * it is 0 or the code of the lowest-numbered failing problem.  Argument errors
 * are minus the 1-based position of the argument; numerical failures are
 * LAPACK's positive k.  The first bad argument wins, except that a bad report
 * mode is read (and reported, as -(position of info)) before all others.
 */
#ifndef BATCHBLAS_%(U)s_H
#define BATCHBLAS_%(U)s_H

#include "batchblas_types.h"

#ifdef __cplusplus
extern "C" {
#endif
"""

HDR_END = """
#ifdef __cplusplus
}
#endif
#endif
"""

SRC_TOP = """/*
 * Public entry points, precision %(L)s: each form fills one bb_batch.
 * GENERATED by tools/gen_api.py from its routine table: do not edit.
 */
#include "batchblas.h"
#include "batch.h"
"""


def gen_header(p):
    out = [HDR_TOP % {"L": p[0], "T": p[2], "U": p[0].upper()}]
    for r in routines_for(p):
        out.append("\n/* %s%s: %s */" % (p[0], r[0], r[4]))
        for form, _ in ALL_FORMS:
            out.append("BATCHBLAS_API " + wrap(proto(r, p, form), "    ") + ";")
    out.append(HDR_END)
    return "\n".join(out)


def gen_source(p):
    out = [SRC_TOP % {"L": p[0]}]
    for r in routines_for(p):
        for form, _ in ALL_FORMS:
            out.append("")
            out.append(wrap(proto(r, p, form), "    "))
            out.append("{")
            out.append(body(r, p, form))
            out.append("}")
    out.append("")
    return "\n".join(out)


def gen_doc():
    out = ["# API reference",
           "",
           "GENERATED by `tools/gen_api.py` from its routine table: do not edit.",
           "",
           "Every routine exists in precisions s, d, c, z (the Hermitian ones in c, z",
           "only) and in four forms.  `T` is the element type (`float`, `double`,",
           "`bblas_complex32_t`, `bblas_complex64_t`) and `R` the matching real type.",
           "Shown here in double precision (`d`), or `z` for the complex-only routines;",
           "the other precisions change the letter and the types.",
           "",
           "Library-level calls (version, backend selection, error strings, error",
           "handler, verbose log, queues, the device set) are documented in",
           "`include/batchblas_types.h`.",
           "",
           "**Fortran.** `fortran/batchblas.f90` (generated with this page) is",
           "`module batchblas`: `bind(C)` interfaces for every routine, precision",
           "and form below (the `_dev` forms included), the values of",
           "`batchblas_types.h` (`BblasColMajor`, `BblasErrorsReportAll`, ...) as",
           "`integer(c_int)` parameters, and the library-level calls.  When",
           "configure finds a Fortran compiler (`--without-fortran` skips it) it is",
           "compiled to `batchblas.mod` and installed into `$(includedir)`, which",
           "`pkg-config --variable=fmoddir batchblas` prints:",
           "`gfortran prog.f90 -I$(pkg-config --variable=fmoddir batchblas) $(pkg-config --libs batchblas)`",
           "(`examples/posv_fortran.f90`).  The arguments map one to one:",
           "",
           "* `int` and the options: `integer(c_int), value`; 64-bit strides:",
           "  `integer(c_int64_t), value`;",
           "* `alpha`, `beta` of the fixed and strided forms: by value, of their type",
           "  (`real(c_double)`, `complex(c_double_complex)`, ...; real for herk and",
           "  the real beta of her2k); in the group and variable forms an array of",
           "  that type, one per group or problem;",
           "* matrices of the strided form, `ipiv`, the per-problem real vectors",
           "  (`value`, `cond`, `anorm`, `rcond`) and `info`: assumed-size arrays of",
           "  their type (`real(c_double) :: A(*)`, `integer(c_int) :: info(*)`), so",
           "  a Fortran array passes directly (`info(1)` is C's `info[0]`);",
           "* pointer arrays of the group, fixed and variable forms:",
           "  `type(c_ptr) :: A(*)`, filled with `c_loc` of each matrix (which needs",
           "  the `target` attribute);",
           "* per-group or per-problem parameter arrays and `group_sizes`:",
           "  `integer(c_int) :: x(*)`;",
           "* `_dev` forms: every data operand (strided base pointers, pointer",
           "  arrays, the real vectors) is `type(c_ptr), value` (device memory, e.g.",
           "  from `cudaMalloc` through its own `bind(C)` interface), the queue too",
           "  (`batchblas_queue_create(queue, device)` gives it); parameter arrays and",
           "  `info` are host arrays as in the plain forms.",
           "",
           "Fortran arrays are column-major: pass `BblasColMajor`.",
           "",
           "**Devices of the host-data calls.**",
           "`int batchblas_set_devices(int count, const int *ids)` names the CUDA",
           "devices over which a plain (host-data) call that goes to the GPU is split:",
           "one share per entry, in proportion to each device's rate (variable and",
           "group batches balance bytes and flops, not the count), each share through",
           "its device's own staging pipeline, all at once; the codes come back as from",
           "one device.  An id may repeat (that device takes that many shares);",
           "`count == 0` restores the default, every visible device;",
           "`BATCHBLAS_DEVICES=0,1,...` sets the list at the first call.  A negative",
           "count, more than 64 ids, a negative id or (once the CUDA backend is loaded)",
           "an id that is not a visible device returns `BblasErrInvalid` and changes",
           "nothing.  `int batchblas_get_devices(int max, int *ids)` returns the length",
           "of the list and fills up to `max` ids.  The `_dev` calls are not affected.",
           "",
           "**Page-locked host memory.** `int batchblas_malloc_host(void **ptr, size_t",
           "bytes)` allocates host memory that is page-locked and usable by every",
           "device when the CUDA backend is available (else ordinary memory aligned",
           "to 64 bytes); `void batchblas_free_host(void *ptr)` frees it.  A host-data",
           "call on the GPU copies a strided operand that lies in page-locked memory",
           "(from this allocator, `cudaHostAlloc`/`cudaMallocHost`, or registered with",
           "`cudaHostRegister`) straight between the device and that memory, without",
           "the host-side copy into staging buffers: the link's rate on every device",
           "at once (pageable memory is limited by the host's memory copy rate when",
           "a batch is split over several GPUs).  Results are the same bits either",
           "way; `BATCHBLAS_CUDA_DIRECT=0` turns the direct copies off.",
           "",
           "The `_dev` variants take device pointers to the matrices and run",
           "asynchronously on `queue`.  The pointer arrays, the parameter arrays of",
           "the group and variable forms (options, sizes, leading dimensions, `alpha`,",
           "`beta`, `group_sizes`) and `info` may each be in host or device memory",
           "(managed memory counts as device memory).  The entries of the pointer",
           "arrays are not checked (a NULL array is an argument error, a NULL matrix",
           "pointer inside one is not detected).  What waits:",
           "",
           "* the variable form (`_batchv_dev`) with every parameter array in device",
           "  memory: nothing of the arrays is copied to the host.  The checks run on",
           "  the device, on the queue, after its earlier work and after the legacy",
           "  default stream's, and write the codes there; the call waits for them",
           "  once, reading back a summary (how many problems failed, the largest",
           "  sizes, the parameters of 18 problems), and once more for the plan's",
           "  counts of problems per size (a few KB).  Where the options, `alpha` or",
           "  `beta` differ between problems, or the sizes cannot be bucketed (a zero",
           "  size, more than 2^19 combinations of sizes: gemm with its three sizes",
           "  varying beyond 80, trsm beyond 724), the arrays are copied to the host",
           "  after those checks, as in the next case;",
           "* otherwise a parameter array in device memory is copied to the host when the call",
           "  is made: one synchronous copy each, on a private stream, which does not",
           "  wait for the queue; it is ordered after work on the legacy default",
           "  stream (a plain `cudaMemcpy` of the values before the call is enough),",
           "  but values written by work still pending on the queue or on another",
           "  non-blocking stream must be complete before the call;",
           "* `info` in device memory: `info[0]` (the report mode) is read the same",
           "  way (4 bytes); the codes are written on the queue and the call never",
           "  waits: read them after `batchblas_queue_sync` (or after later work on",
           "  the queue).  The error handler sees only the codes known on the host",
           "  (argument errors, a device call or allocation that fails when the",
           "  call is made), not the numerical ones; this holds in every mode,",
           "  `BblasErrorsReportNone` and `info == NULL` included, and the queue is",
           "  never synchronised for it: a failure that shows only later, on the",
           "  device, is in the device codes alone;",
           "* `info` in host memory: with `info[0] == BblasErrorsReportNone` (or",
           "  `info == NULL`) the call never waits; in the other modes it waits for",
           "  this batch's codes before returning;",
           "* a `_batchv_dev` call of 65536 problems or more whose options, `alpha`",
           "  and `beta` are the same for every problem (only sizes and leading",
           "  dimensions vary) waits once, for its own size arrays to reach the",
           "  device and be counted there (a side stream of the queue; not for work",
           "  already on the queue).",
           "",
           "**Variable batches on the GPU.**  A `_batchv_dev` call runs every problem",
           "that a register kernel takes (sizes up to 32, 16 for some complex",
           "routines; see `src/cuda/launch.cu`) in a few launches whatever the sizes,",
           "the largest problems first.  Larger potrf, trsm, gemm, getrf, getrfnp,",
           "getrs, gesv, potrs, posv, gecon, trtri, lauum, potri, poti, getri,",
           "getri_oop, geinv and gecond problems, all sizes mixed, and trmm, symm,",
           "hemm, syrk, herk, syr2k, her2k and lange problems of every size take one",
           "more launch sequence (the variable-size driver, `src/cuda/vardriver.cu`:",
           "a few launches per block of 32 of the largest size; the LU family and",
           "the inverses up to 512 rows, row-major getrf square problems only);",
           "larger problems take one launch sequence per distinct parameter set.",
           "Single gemm problems above the register bound go to cuBLAS's grouped",
           "GEMM instead, a group per problem (at most 65536 of them in a call;",
           "`BATCHBLAS_CUDA_VAR_GROUPED=0` keeps them in the driver); double ones",
           "stay in the driver, whose GEMM runs on the tensor cores and measured",
           "faster (`BATCHBLAS_CUDA_VAR_GROUPED=all` sends them to cuBLAS too).  A",
           "`_batch_dev` call of 32 groups or more takes the same way (a group per",
           "problem is the variable form); a group of 128 problems or more above the",
           "register bound keeps a launch sequence of its own.  The call's",
           "host work (argument checks, planning,",
           "copying the size arrays to the device) grows with the number of problems.",
           "It is least when only sizes and leading dimensions vary from problem to",
           "problem (options, `alpha` and `beta` the same for all): the checks are",
           "then a few rules over the size arrays, and the problems are counted into",
           "size buckets and placed on the device, about 1.1 ms for 10^6 potrf",
           "problems on a 16-core host (doc/performance.md, session 9); otherwise",
           "each distinct parameter set is checked and grouped on the host.  The",
           "queue keeps a pinned host buffer and a device buffer for the size arrays",
           "of the largest such call, freed with the queue.",
           "",
           "## Argument-error codes",
           "",
           "An argument error is `-(position)`, the 1-based position of the argument",
           "in the signature of the form that was called (first bad argument wins).",
           "The checks: option values valid for the routine; sizes >= 0; leading",
           "dimensions >= max(1, rows) where rows counts in the layout given",
           "(row-major: the number of columns); in the strided form, the stride of",
           "every written operand at least its footprint (ld * columns) and the",
           "stride of ipiv at least min(m, n); pointer arrays non-NULL when the",
           "batch is not empty, and each matrix pointer non-NULL when that matrix",
           "is not empty.",
           "",
           "The one exception to \"first bad argument wins\": the report mode in",
           "`info[0]` is read before every other argument, because it decides where",
           "the codes go.  A bad mode (not one of `BblasErrorsReport*`) computes",
           "nothing and sets `info[0]` to `-(position of info)`, whatever else is",
           "wrong with the call (`lapack_dpotrf_batchv(-1, ...)` with `info[0] == 7`",
           "returns -7, not -1).",
           ""]
    for r in ROUTINES:
        p = PRECS[3] if r[2] else PRECS[1]
        out.append("## %s%s" % (r[1] + "_" + p[0], r[0]))
        out.append("")
        out.append(r[4] + ".")
        out.append("")
        out.append("```c")
        for form, _ in ALL_FORMS:
            out.append(wrap(proto(r, p, form), "    ", 80) + ";")
        out.append("```")
        out.append("")
    return "\n".join(out)


# ---------------------------------------------------------------------------
# The Fortran module (fortran/batchblas.f90): bind(C) interfaces for every
# routine and form, and the enum values of batchblas_types.h as named
# integer(c_int) parameters.
# ---------------------------------------------------------------------------
F_TYPES = {"float": "real(c_float)", "double": "real(c_double)",
           "bblas_complex32_t": "complex(c_float_complex)",
           "bblas_complex64_t": "complex(c_double_complex)"}


def enum_values(top):
    """(name, value) of every enumerator in include/batchblas_types.h."""
    import re
    text = open(os.path.join(top, "include", "batchblas_types.h")).read()
    out = []
    for body_ in re.findall(r"enum\s*\{(.*?)\}", text, re.S):
        body_ = re.sub(r"/\*.*?\*/", "", body_, flags=re.S)
        for name, val in re.findall(r"\b([A-Za-z]\w*)\s*=\s*(-?\d+)", body_):
            out.append((name, int(val)))
    return out


def f_decls(r, p, form):
    """(dummy name, declaration) of every argument of one form, in order.
    Host forms: matrices of the strided form, pivots, the per-problem real
    vectors and info as assumed-size arrays of their type; pointer arrays as
    type(c_ptr) arrays.  _dev forms: every data operand (base pointers and
    pointer arrays, which may be in device memory) as type(c_ptr), value;
    parameter arrays and info as host arrays, as in the host forms."""
    dev = form.endswith("_dev")
    T, R = F_TYPES[p[2]], F_TYPES[p[3]]
    out = []
    for (ct, n, slot, what) in params(r, p, form):
        const = ct.startswith("const") or "const *const" in ct
        intent = "intent(in)" if const else "intent(inout)"
        if what in ("count", "layout"):
            d = "integer(c_int), value"
        elif what == "gsizes":
            d, n = "integer(c_int), intent(in)", n + "(*)"
        elif what == "par":
            if ct.endswith("*"):
                d, n = "integer(c_int), intent(in)", n + "(*)"
            else:
                d = "integer(c_int), value"
        elif what == "scal":
            ft = T if ct.replace("const ", "").rstrip(" *") == p[2] else R
            if ct.endswith("*"):
                d, n = ft + ", intent(in)", n + "(*)"
            else:
                d = ft + ", value"
        elif what == "stride":
            d = "integer(c_int64_t), value"
        elif what in ("base", "vec", "arr") and dev:
            d = "type(c_ptr), value"
        elif what == "arr":
            d, n = "type(c_ptr), intent(in)", n + "(*)"
        elif what in ("base", "vec"):
            if slot.endswith("BB_IPIV"):
                ft = "integer(c_int)"
            elif what == "vec":
                ft = R
            else:
                ft = T
            d, n = ft + ", " + intent, n + "(*)"
        elif what == "info":
            d, n = "integer(c_int), intent(inout)", n + "(*)"
        elif what == "queue":
            d = "type(c_ptr), value"
        else:
            raise ValueError(what)
        out.append((n.split("(")[0], "%s :: %s" % (d, n)))
    return out


def f_wrap(head, names, tail, indent="    ", width=96):
    """head(name, name, ...)tail, continued with & after commas."""
    lines, line = [], head + "("
    for i, n in enumerate(names):
        piece = n + (", " if i < len(names) - 1 else ")" + tail)
        if len(line) + len(piece) > width and line.strip():
            lines.append(line.rstrip() + " &")
            line = indent + "    " + piece
        else:
            line += piece
    lines.append(line.rstrip())
    return "\n".join(lines)


F_TOP = """! BatchBLAS Fortran interface: module batchblas.
! GENERATED by tools/gen_api.py from its routine table: do not edit.
!
! bind(C) interfaces for every routine in precisions s, d, c, z and every
! form (_batch, _batchf, _batchv, _batch_strided and their _dev variants), the
! option values and codes of include/batchblas_types.h as integer(c_int)
! parameters, and the library-level calls.  Arguments as in C: int as
! integer(c_int) and 64-bit strides as integer(c_int64_t), by value; alpha and
! beta by value of their type in the fixed and strided forms, as arrays in the
! group and variable forms; matrices of the strided form, pivots, per-problem
! real vectors and info as assumed-size arrays (a Fortran array passes
! directly); pointer arrays as type(c_ptr) arrays (c_loc of each matrix).
! In the _dev forms every data operand (base pointers, pointer arrays) is a
! type(c_ptr) passed by value (device memory); parameter arrays and info are
! host arrays.  Fortran arrays are column-major: pass BblasColMajor.
!
! Build: gfortran prog.f90 -I$(pkg-config --variable=fmoddir batchblas) \\
!            $(pkg-config --libs batchblas)
module batchblas
  use iso_c_binding
  implicit none
"""

F_LIB = """
    ! ---- library-level calls (include/batchblas_types.h)
    function batchblas_version() bind(C, name="batchblas_version")
      import
      type(c_ptr) :: batchblas_version
    end function batchblas_version

    function batchblas_strerror(code) bind(C, name="batchblas_strerror")
      import
      integer(c_int), value :: code
      type(c_ptr) :: batchblas_strerror
    end function batchblas_strerror

    function batchblas_set_backend(backend) bind(C, name="batchblas_set_backend")
      import
      integer(c_int), value :: backend
      integer(c_int) :: batchblas_set_backend
    end function batchblas_set_backend

    function batchblas_get_backend() bind(C, name="batchblas_get_backend")
      import
      integer(c_int) :: batchblas_get_backend
    end function batchblas_get_backend

    function batchblas_backend_available(backend) bind(C, name="batchblas_backend_available")
      import
      integer(c_int), value :: backend
      integer(c_int) :: batchblas_backend_available
    end function batchblas_backend_available

    function batchblas_set_devices(count, ids) bind(C, name="batchblas_set_devices")
      import
      integer(c_int), value :: count
      integer(c_int), intent(in) :: ids(*)
      integer(c_int) :: batchblas_set_devices
    end function batchblas_set_devices

    function batchblas_get_devices(max, ids) bind(C, name="batchblas_get_devices")
      import
      integer(c_int), value :: max
      integer(c_int), intent(inout) :: ids(*)
      integer(c_int) :: batchblas_get_devices
    end function batchblas_get_devices

    subroutine batchblas_set_verbose(level) bind(C, name="batchblas_set_verbose")
      import
      integer(c_int), value :: level
    end subroutine batchblas_set_verbose

    function batchblas_queue_create(queue, device) bind(C, name="batchblas_queue_create")
      import
      type(c_ptr), intent(out) :: queue
      integer(c_int), value :: device
      integer(c_int) :: batchblas_queue_create
    end function batchblas_queue_create

    function batchblas_queue_sync(queue) bind(C, name="batchblas_queue_sync")
      import
      type(c_ptr), value :: queue
      integer(c_int) :: batchblas_queue_sync
    end function batchblas_queue_sync

    function batchblas_queue_destroy(queue) bind(C, name="batchblas_queue_destroy")
      import
      type(c_ptr), value :: queue
      integer(c_int) :: batchblas_queue_destroy
    end function batchblas_queue_destroy

    function batchblas_malloc_host(ptr, bytes) bind(C, name="batchblas_malloc_host")
      import
      type(c_ptr), intent(out) :: ptr
      integer(c_size_t), value :: bytes
      integer(c_int) :: batchblas_malloc_host
    end function batchblas_malloc_host

    subroutine batchblas_free_host(ptr) bind(C, name="batchblas_free_host")
      import
      type(c_ptr), value :: ptr
    end subroutine batchblas_free_host
"""


def gen_fortran(top):
    out = [F_TOP]
    out.append("  ! ---- values of include/batchblas_types.h")
    for name, val in enum_values(top):
        out.append("  integer(c_int), parameter :: %s = %d" % (name, val))
    out.append("")
    out.append("  interface")
    out.append(F_LIB.rstrip("\n"))
    for p in PRECS:
        for r in routines_for(p):
            out.append("")
            out.append("    ! ---- %s%s: %s" % (p[0], r[0], r[4][:80]))
            for form, _ in ALL_FORMS:
                fn = fname(r, p, form)
                decls = f_decls(r, p, form)
                out.append(f_wrap("    subroutine " + fn, [n for n, _ in decls],
                                  ' bind(C, name="%s")' % fn))
                out.append("      import")
                for _n, d in decls:
                    out.append("      " + d)
                out.append("    end subroutine " + fn)
    out.append("  end interface")
    out.append("end module batchblas")
    out.append("")
    return "\n".join(out)


def outputs(top):
    files = {}
    files[os.path.join(top, "fortran", "batchblas.f90")] = gen_fortran(top)
    for p in PRECS:
        files[os.path.join(top, "include", "batchblas_%s.h" % p[0])] = gen_header(p)
        files[os.path.join(top, "src", "common", "api_%s.c" % p[0])] = gen_source(p)
    files[os.path.join(top, "doc", "api.md")] = gen_doc()
    return files


def main():
    check = "--check" in sys.argv
    rest = [a for a in sys.argv[1:] if a != "--check"]
    top = rest[0] if rest else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    stale = []
    for path, text in outputs(top).items():
        old = open(path).read() if os.path.exists(path) else None
        if old != text:
            if check:
                stale.append(path)
            else:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as f:
                    f.write(text)
    if stale:
        print("gen_api.py: out of date (run tools/gen_api.py): " + " ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
