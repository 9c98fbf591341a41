# libbatchblas_mkl: optional adapters exporting MKL's batch names
# (cblas_?gemm_batch, ?getrf_batch_strided, ...) over the BatchBLAS API.
# Separate because OpenBLAS and others export some of the same names.
lib_LTLIBRARIES += libbatchblas_mkl.la
include_HEADERS += shim/batchblas_mkl.h
libbatchblas_mkl_la_SOURCES = shim/mkl_shim.c shim/mkl_shim_body.h
libbatchblas_mkl_la_LIBADD = libbatchblas.la
libbatchblas_mkl_la_LDFLAGS = -version-info $(BB_LT_VERSION) -no-undefined
