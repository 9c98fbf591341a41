#!/bin/sh
# Runs on the GPU machine, from the repository root, after tools/devpack.sh
# (carry .devcarry).  Runs the whole GPU proof in one go and writes logs to
# $OUT (or ./gpu-out), then prints a short summary last:
#   tests  the device-data test, every Check suite on the CUDA backend (and
#          the LU suite again with BATCHBLAS_CUDA_BLOCKED_LU=0), and
#          compute-sanitizer memcheck on GPU_SANITIZE (suite/case pairs),
#          all at once (separate processes sharing the GPU)
#   bench  batchblas-bench-gpu (GPU_BENCH_ARGS), alone on the GPU
# GPU_PHASE=tests, bench or all (default: all = tests, then bench).
# The logs end up packed in $O/logs.tgz (the device tool brings back few
# files); the CSV and the summary stay beside it.
. "$(dirname "$0")/gpu-env.sh"
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv > "$O/gpu.txt" 2>&1
cat "$O/gpu.txt"
run() { # name, timeout, command...: log in $O/name.log, one summary line in $O/name.sum
    n=$1; t=$2; shift 2
    start=$(date +%s)
    timeout "$t" "$@" > "$O/$n.log" 2>&1
    rc=$?
    echo "$n: rc=$rc ($(( $(date +%s) - start ))s) $(grep -E '^[0-9]+%: Checks|passed, [0-9]+ failed|GPU bench:|ERROR SUMMARY' "$O/$n.log" | tail -1)" > "$O/$n.sum"
}
phase=${GPU_PHASE:-all}
if [ "$phase" = tests ] || [ "$phase" = all ]; then
    T=${GPU_TEST_TIMEOUT:-240}
    run device "$T" "$D/bin/test_device" &
    for s in blas3 chol lu norm errors library; do
        BATCHBLAS_BACKEND=cuda CK_FORK=no CK_RUN_SUITE=$s OMP_WAIT_POLICY=passive OMP_NUM_THREADS=2 \
            run suite_$s "$T" "$D/bin/runner" &
    done
    # the LU suite with the blocked LU family off (generic kernels above the
    # register bound: src/cuda/launch.cu, BATCHBLAS_CUDA_BLOCKED_LU)
    BATCHBLAS_CUDA_BLOCKED_LU=0 BATCHBLAS_BACKEND=cuda CK_FORK=no CK_RUN_SUITE=lu OMP_WAIT_POLICY=passive \
        OMP_NUM_THREADS=2 run unblocked_lu_only "$T" "$D/bin/runner" &
    # GPU_ALSO_UNBLOCKED=1: the affected suites once more with the blocked
    # drivers off (BATCHBLAS_CUDA_BLOCKED=0: register + generic kernels only)
    if [ "${GPU_ALSO_UNBLOCKED:-0}" = 1 ]; then
        for s in blas3 chol lu; do
            BATCHBLAS_CUDA_BLOCKED=0 BATCHBLAS_BACKEND=cuda CK_FORK=no CK_RUN_SUITE=$s OMP_WAIT_POLICY=passive \
                OMP_NUM_THREADS=2 run unblocked_$s "$T" "$D/bin/runner" &
        done
    fi
    if command -v compute-sanitizer >/dev/null; then
        for sc in ${GPU_SANITIZE:-chol/dposv chol/zpotrs chol/dchol_fail lu/lu_d lu/lu_z norm/norm_z blas3/sblas3}; do
            s=${sc%/*}; c=${sc#*/}
            BATCHBLAS_BACKEND=cuda CK_FORK=no CK_RUN_SUITE=$s CK_RUN_CASE=$c OMP_NUM_THREADS=2 \
                run "memcheck_${s}_$c" "$T" compute-sanitizer --tool memcheck --error-exitcode 9 "$D/bin/runner" &
        done
    fi
    # racecheck (shared-memory hazards) on cases whose kernels use shared memory
    if command -v compute-sanitizer >/dev/null; then
        for sc in ${GPU_RACECHECK:-chol/dposv lu/lu_d norm/norm_d blas3/dblas3}; do
            s=${sc%/*}; c=${sc#*/}
            BATCHBLAS_BACKEND=cuda CK_FORK=no CK_RUN_SUITE=$s CK_RUN_CASE=$c OMP_NUM_THREADS=2 \
                run "racecheck_${s}_$c" "$T" compute-sanitizer --tool racecheck --error-exitcode 9 "$D/bin/runner" &
        done
    fi
    wait
fi
if [ "$phase" = bench ] || [ "$phase" = all ]; then
    run bench_gpu "${GPU_BENCH_TIMEOUT:-420}" "$D/bin/batchblas-bench-gpu" --csv "$O/bench_gpu.csv" ${GPU_BENCH_ARGS:-}
    cp "$O/bench_gpu.log" "$O/bench_gpu.txt" 2>/dev/null
fi
for f in "$O"/*.log; do echo "== $f (failures)"; grep -E "FAIL|Fail|fail:|error|Error" "$f" | grep -v "ERROR SUMMARY: 0" | head -12; done
echo "== summary"
cat "$O"/*.sum
# the device tool brings back few files: one archive of the logs
(cd "$O" && tar czf logs.tgz ./*.log ./*.sum 2>/dev/null && rm -f ./*.log ./*.sum)
