# The CUDA backend: a libtool module (libbatchblas_cuda.so in $(pkglibdir))
# that libbatchblas opens at run time (src/common/cuda_loader.c).
# .cu files are compiled by nvcc through build-aux/nvcc-lt.sh into libtool
# objects; add new kernels to CUDA_CU_SOURCES.
# driver: plugin entry, probe, device data, fetch/store, info (backend_cuda.cu)
CUDA_CU_SOURCES = src/cuda/backend_cuda.cu
# queues and the kernels' device workspaces (queue.cu)
CUDA_CU_SOURCES += src/cuda/queue.cu
# grouping of a batch into launches of equal parameters (segments.cu)
CUDA_CU_SOURCES += src/cuda/segments.cu
# the variable form on device data: class launches of per-problem sizes (varplan.cu)
CUDA_CU_SOURCES += src/cuda/varplan.cu
# ... and the variable-size driver above the register bound (vardriver.cu)
CUDA_CU_SOURCES += src/cuda/vardriver.cu
# host data: staging contexts, chunks, gather/scatter, the pipeline (staging.cu)
CUDA_CU_SOURCES += src/cuda/staging.cu
# host threads for the staging copies (a small persistent pool, stage_copy.cu)
CUDA_CU_SOURCES += src/cuda/stage_copy.cu
# the visible devices and their rates, for the device set (mgpu.cu;
# the split itself is src/common/spread.c)
CUDA_CU_SOURCES += src/cuda/mgpu.cu
# generic kernels: every routine, any size (generic_*.cu)
CUDA_CU_SOURCES += src/cuda/generic.cu src/cuda/generic_blas3.cu src/cuda/generic_chol.cu src/cuda/generic_lu.cu src/cuda/generic_norm.cu
# launch policy, register-resident kernels for tiny matrices (small_*.cu)
# and the blocked drivers built on them (blocked.cu)
CUDA_CU_SOURCES += src/cuda/launch.cu src/cuda/small_lu.cu src/cuda/small_chol.cu src/cuda/small_trsm.cu src/cuda/small_cond.cu src/cuda/small_gemm.cu \
	src/cuda/small_blas3.cu src/cuda/small_tri.cu src/cuda/small_getrs.cu src/cuda/small_norm.cu src/cuda/recursive.cu \
	src/cuda/blocked.cu
# on-chip kernels for the mid sizes (33..64: a thread block a problem, mid.cu)
# and the trsm on chip (33..256: a thread block a panel of 32 right-hand sides)
# and the Cholesky and the LU on chip (double up to 64: a thread block a problem)
CUDA_CU_SOURCES += src/cuda/mid.cu src/cuda/trsm_panel.cu src/cuda/potrf_chip.cu src/cuda/getrf_chip.cu
CUDA_HDRS = src/cuda/cuda_internal.h src/cuda/generic.h src/cuda/small.h src/cuda/views.h src/cuda/stage_copy.h src/cuda/dmma.h
EXTRA_DIST += $(CUDA_CU_SOURCES) $(CUDA_HDRS) src/cuda/cuda.mk

if HAVE_CUDA
CUDA_LOBJS = $(CUDA_CU_SOURCES:.cu=.lo)
NVCCFLAGS = -O3 -std=c++17 $(NVCC_GENCODE) -Xcompiler -fvisibility=hidden \
	-I$(top_srcdir)/include -I$(top_srcdir)/src/common -I$(top_srcdir)/src/cuda -I$(top_builddir)

pkglib_LTLIBRARIES = libbatchblas_cuda.la
libbatchblas_cuda_la_SOURCES = src/common/problem.c src/common/ops.c src/common/check.c
libbatchblas_cuda_la_CPPFLAGS = $(AM_CPPFLAGS) $(CUDA_CPPFLAGS)
libbatchblas_cuda_la_LIBADD = $(CUDA_LOBJS) $(CUDA_LIBS) -lstdc++ -lm
libbatchblas_cuda_la_DEPENDENCIES = $(CUDA_LOBJS)
libbatchblas_cuda_la_LDFLAGS = -module -avoid-version -shared -no-undefined

SUFFIXES += .cu .lo
.cu.lo:
	$(AM_V_GEN)$(SHELL) $(top_srcdir)/build-aux/nvcc-lt.sh $@ $(NVCC) $(NVCCFLAGS) -c $<

$(CUDA_LOBJS): $(CUDA_HDRS) src/common/batch.h src/common/backend.h src/common/rules.h

CLEANFILES += $(CUDA_LOBJS) $(CUDA_CU_SOURCES:.cu=.o)
endif
