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
# GPU_SANITIZE_ALL=i/N: instead, part i of the full compute-sanitizer sweep
# (memcheck, racecheck, initcheck, synccheck over every suite, test_device,
# the isolation and thread tests), see below.
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
    echo "$n: rc=$rc ($(( $(date +%s) - start ))s) $(grep -E '^[0-9]+%: Checks|passed, [0-9]+ failed|GPU bench:|ERROR SUMMARY|^isolation:|^thread stress:|^fuzz_args:|^test_faults:' "$O/$n.log" | tail -1)" > "$O/$n.sum"
}
phase=${GPU_PHASE:-all}
# GPU_SANITIZE_ALL=i/N: only the compute-sanitizer sweep, part i of N: the
# units (tool x program) are memcheck, racecheck, initcheck and synccheck
# over every Check suite on the CUDA backend, test_device, the isolation
# test and the thread test; part i runs units i, i+N, i+2N, ... one after
# another (the sanitizers slow the suites 5-50x; pick N so that a part fits
# one 10-minute run: GPU_SANITIZE_ALL=1/12 ... 12/12, 40 units in all).
if [ -n "${GPU_SANITIZE_ALL:-}" ]; then
    part=${GPU_SANITIZE_ALL%/*}; parts=${GPU_SANITIZE_ALL#*/}
    T=${GPU_TEST_TIMEOUT:-580}
    u=0
    for tool in memcheck racecheck initcheck synccheck; do
        for prog in suite:blas3 suite:chol suite:lu suite:norm suite:errors suite:library device isolation threads; do
            u=$((u + 1))
            [ $(( (u - 1) % parts + 1 )) = "$part" ] || continue
            extra=""
            [ $tool = initcheck ] && extra=""
            case $prog in
            suite:*) s=${prog#suite:}
                BATCHBLAS_BACKEND=cuda CK_FORK=no CK_RUN_SUITE=$s OMP_NUM_THREADS=2 \
                    run "${tool}_$s" "$T" compute-sanitizer --tool $tool $extra --error-exitcode 9 "$D/bin/runner" ;;
            device) run "${tool}_device" "$T" compute-sanitizer --tool $tool $extra --error-exitcode 9 "$D/bin/test_device" ;;
            isolation) BB_ISO_QUICK=1 BATCHBLAS_BACKEND=cuda OMP_NUM_THREADS=2 \
                run "${tool}_isolation" "$T" compute-sanitizer --tool $tool $extra --error-exitcode 9 "$D/bin/test_isolation" ;;
            threads) BB_STRESS_ROUNDS=2 BATCHBLAS_BACKEND=cuda OMP_NUM_THREADS=2 \
                run "${tool}_threads" "$T" compute-sanitizer --tool $tool $extra --error-exitcode 9 "$D/bin/thread_stress" ;;
            esac
        done
    done
    phase=none
fi
if [ "$phase" = tests ] || [ "$phase" = all ]; then
    T=${GPU_TEST_TIMEOUT:-240}
    run device "$T" "$D/bin/test_device" &
    for s in blas3 chol lu norm errors library; do
        BATCHBLAS_BACKEND=cuda CK_FORK=no CK_RUN_SUITE=$s OMP_WAIT_POLICY=passive OMP_NUM_THREADS=2 \
            run suite_$s "$T" "$D/bin/runner" &
    done
    # reliability (doc/reliability.md): broken members against LAPACK,
    # threads against serial results, the argument fuzzer (GPU_FUZZ_SECONDS,
    # default 120) and fault injection (pinned staging, device scratch and
    # workspace, _dev calls), on the CUDA backend
    for p in test_isolation thread_stress fuzz_args test_faults; do
        if [ -x "$D/bin/$p" ]; then
            BB_FUZZ_SECONDS=${GPU_FUZZ_SECONDS:-120} BATCHBLAS_BACKEND=cuda CK_FORK=no OMP_NUM_THREADS=2 \
                run "cuda_$p" "$T" "$D/bin/$p" &
        else
            echo "cuda_$p: not carried (tools/devpack.sh must copy tests/$p)" > "$O/cuda_$p.sum"
        fi
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
