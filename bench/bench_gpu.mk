# batchblas-bench-gpu (CUDA only): the GPU table in one run -- ceilings
# (copy bandwidth, large GEMM rate), then every routine and size: ours through
# the _dev API vs cuBLAS/cuSOLVER vs the floor, checked against a CPU
# reference (bench/bench_gpu.cu).  Compiled by nvcc like src/cuda/cuda.mk.
EXTRA_DIST += bench/bench_gpu.cu bench/bench_var.cuh bench/bench_gpu.mk

if HAVE_CUDA
bin_PROGRAMS += batchblas-bench-gpu
batchblas_bench_gpu_SOURCES = tests/testutil.c tests/testutil.h
batchblas_bench_gpu_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests
BENCH_GPU_OBJ = bench/bench_gpu.$(OBJEXT)
batchblas_bench_gpu_LDADD = $(BENCH_GPU_OBJ) libbatchblas.la $(CUDA_LIBS) -lstdc++ -lm
batchblas_bench_gpu_DEPENDENCIES = $(BENCH_GPU_OBJ) libbatchblas.la

$(BENCH_GPU_OBJ): $(top_srcdir)/bench/bench_gpu.cu $(top_srcdir)/bench/bench_var.cuh $(top_srcdir)/tests/testutil.h $(include_HEADERS)
	@$(MKDIR_P) bench
	$(AM_V_GEN)$(NVCC) $(NVCCFLAGS) -Xcompiler -fPIC -I$(top_srcdir)/tests -c $(top_srcdir)/bench/bench_gpu.cu -o $@

CLEANFILES += $(BENCH_GPU_OBJ)
endif
