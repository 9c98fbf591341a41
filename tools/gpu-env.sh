# Sourced by the GPU-machine scripts (gpu-check.sh, gpu-profile.sh): the
# programs and libraries of tools/devpack.sh in .devcarry/, the output folder
# $O ($OUT of the device tool, else ./gpu-out), the CUDA tools on PATH.
D=$PWD/.devcarry
O=${OUT:-$PWD/gpu-out}
mkdir -p "$O"
# devpack.sh carries the plugin compressed (the device tool carries 64 MiB)
[ -f "$D/lib/libbatchblas_cuda.so.gz" ] && gunzip -f "$D/lib/libbatchblas_cuda.so.gz"
export LD_LIBRARY_PATH=$D/lib:/usr/local/cuda/lib64:$LD_LIBRARY_PATH
export BATCHBLAS_CUDA_PLUGIN=$D/lib/libbatchblas_cuda.so
export PATH=$PATH:/usr/local/cuda/bin
