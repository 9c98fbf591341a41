#!/bin/sh
# Runs on the GPU machine, from the repository root, after tools/devpack.sh
# (carry .devcarry).  Runs the whole GPU proof in one go and writes logs to
# $OUT (or ./gpu-out): the device-data test, the Check suites on the CUDA
# backend, compute-sanitizer memcheck on two suites, and the GPU benchmark.
# Prints a short summary last.
D=$PWD/.devcarry
O=${OUT:-$PWD/gpu-out}
mkdir -p "$O"
export LD_LIBRARY_PATH=$D/lib:/usr/local/cuda/lib64:$LD_LIBRARY_PATH
export BATCHBLAS_CUDA_PLUGIN=$D/lib/libbatchblas_cuda.so
export PATH=$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv > "$O/gpu.txt" 2>&1
cat "$O/gpu.txt"
S=""
run() { # name, timeout, command...
    n=$1; t=$2; shift 2
    start=$(date +%s)
    timeout "$t" "$@" > "$O/$n.log" 2>&1
    rc=$?
    S="$S
$n: rc=$rc ($(( $(date +%s) - start ))s) $(grep -E '^[0-9]+%: Checks|passed, [0-9]+ failed|GPU bench:' "$O/$n.log" | tail -1)"
}
# GPU_PHASE=tests (default: device test, suites on CUDA, memcheck) or bench
if [ "${GPU_PHASE:-tests}" = tests ]; then
    run device 120 "$D/bin/test_device"
    BATCHBLAS_BACKEND=cuda CK_FORK=no OMP_WAIT_POLICY=passive run suites_cuda 260 "$D/bin/runner"
    if command -v compute-sanitizer >/dev/null; then
        for s in ${GPU_SANITIZE_SUITES:-lu chol}; do
            BATCHBLAS_BACKEND=cuda CK_FORK=no CK_RUN_SUITE=$s run memcheck_$s 90 \
                compute-sanitizer --tool memcheck --error-exitcode 9 "$D/bin/runner"
        done
    fi
else
    run bench_gpu 420 "$D/bin/batchblas-bench-gpu" --csv "$O/bench_gpu.csv" ${GPU_BENCH_ARGS:-}
    cp "$O/bench_gpu.log" "$O/bench_gpu.txt" 2>/dev/null
fi
for f in "$O"/*.log; do echo "== $f (tail)"; grep -E "FAIL|Fail|fail|error|Error" "$f" | head -15; done
echo "== summary$S"
