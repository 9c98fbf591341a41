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
# GPU_MULTI=0,0: the tests phase also runs the plain calls over that device
# list (the multi-device path; on one GPU, two pipelines of one batch).
# GPU_SANITIZE_ALL=i/N: instead, part i of the full compute-sanitizer sweep
# (memcheck, racecheck, initcheck, synccheck over every Check case,
# test_device, the isolation and thread tests), see below.
#   sh tools/gpu-check.sh --sweep-units   prints the number of sweep units
#   sh tools/gpu-check.sh --sweep-list    prints them, numbered
# (both anywhere: no GPU, no .devcarry needed).
# The logs end up packed in $O/logs.tgz (the device tool brings back few
# files); the CSV and the summary stay beside it.

# The sanitizer sweep's units, one a line, in order; each runs under each
# tool of SWEEP_TOOLS (the tool is the outer loop, so unit u of tool t is
# number (t - 1) * units + u).  suite:case is one Check case of the runner
# (CK_RUN_SUITE, CK_RUN_CASE; the names are those of tcase_create in
# tests/suite_<suite>.c, per precision), suite:case@k/K its k-th of K parts
# (BB_LOOP_PART: the slow cases under the sanitizers are cut so that each
# part fits one device call); device is tests/test_device; iso:P:OP
# a part of the isolation test (BB_ISO_QUICK=1, BB_ISO_PREC=P, BB_ISO_OP=OP:
# tests/test_isolation.c), iso:P:OP:N its size N alone (BB_ISO_N); threads
# the thread test.
SWEEP_TOOLS="memcheck racecheck initcheck synccheck"
sweep_units() {
    for p in s d c z; do echo "blas3:${p}blas3"; done
    for p in s d c z; do
        for c in potrf potrs posv trtri lauum potri poti chol_empty chol_zero_null; do
            echo "chol:$p$c"
        done
        for k in 1 2 3 4; do echo "chol:${p}chol_fail@$k/4"; done
    done
    for p in s d c z; do for k in 1 2 3 4; do echo "lu:lu_$p@$k/4"; done; done
    for p in s d c z; do echo "norm:norm_$p"; done
    for p in s d c z; do echo "errors:errors_args_$p@1/2"; echo "errors:errors_args_$p@2/2"; echo "errors:errors_$p"; done
    echo library:library
    echo library:threads
    echo device
    for p in s d; do for op in potrf getrf gesv; do for n in 5 33 65; do echo "iso:$p:$op:$n"; done; done; done
    echo threads
}
sweep_list() { # "number tool unit", one a line
    for tool in $SWEEP_TOOLS; do sweep_units | sed "s/^/$tool /"; done | awk '{ print NR, $0 }'
}
case ${1:-} in
--sweep-units) sweep_list | wc -l | tr -d ' '; exit 0 ;;
--sweep-list) sweep_list; exit 0 ;;
esac

. "$(dirname "$0")/gpu-env.sh"
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv > "$O/gpu.txt" 2>&1
cat "$O/gpu.txt"
run() { # name, timeout, command...: log in $O/name.log, one summary line in $O/name.sum
    n=$1; t=$2; shift 2
    start=$(date +%s)
    timeout "$t" "$@" < /dev/null > "$O/$n.log" 2>&1
    rc=$?
    echo "$n: rc=$rc ($(( $(date +%s) - start ))s) $(grep -E '^[0-9]+%: Checks|passed, [0-9]+ failed|GPU bench:|ERROR SUMMARY|^isolation:|^thread stress:|^fuzz_args:|^test_faults:' "$O/$n.log" | tail -1)" > "$O/$n.sum"
}
phase=${GPU_PHASE:-all}
# GPU_SANITIZE_ALL=i/N: only the compute-sanitizer sweep, part i of N: the
# units of sweep_list (above: each tool x each unit of sweep_units; count
# them with --sweep-units); part i runs units i, i+N, i+2N, ... one after
# another (the sanitizers slow the suites 5-50x; a single unit is one Check
# case, or one part of the isolation test, so GPU_SANITIZE_ALL=i/COUNT with
# COUNT = --sweep-units runs exactly unit i, as tools/gpu-sweep.sh does).
if [ -n "${GPU_SANITIZE_ALL:-}" ]; then
    part=${GPU_SANITIZE_ALL%/*}; parts=${GPU_SANITIZE_ALL#*/}
    T=${GPU_TEST_TIMEOUT:-580}
    sweep_list > "$O/sweep-units.txt"
    while read -r u tool unit; do
        [ $(( (u - 1) % parts + 1 )) = "$part" ] || continue
        san="compute-sanitizer --tool $tool --error-exitcode 9"
        case $unit in
        device) run "${tool}_device" "$T" $san "$D/bin/test_device" ;;
        threads) BB_STRESS_ROUNDS=2 BATCHBLAS_BACKEND=cuda OMP_NUM_THREADS=2 \
            run "${tool}_threads" "$T" $san "$D/bin/thread_stress" ;;
        iso:*) ip=${unit#iso:}; iop=${ip#*:}; ip=${ip%%:*}; isz=${iop#*:}; iop=${iop%%:*}
            BB_ISO_QUICK=1 BB_ISO_PREC=$ip BB_ISO_OP=$iop BB_ISO_N=$isz BATCHBLAS_BACKEND=cuda OMP_NUM_THREADS=2 \
                run "${tool}_isolation_${ip}_${iop}_$isz" "$T" $san "$D/bin/test_isolation" ;;
        *:*) s=${unit%%:*}; c=${unit#*:}; part=
            case $c in *@*) part=${c#*@}; c=${c%@*} ;; esac
            n="${tool}_${s}_$c${part:+_part$(echo "$part" | tr / o)}"
            BB_LOOP_PART=$part BATCHBLAS_BACKEND=cuda CK_FORK=no CK_RUN_SUITE=$s CK_RUN_CASE=$c OMP_NUM_THREADS=2 \
                run "$n" "$T" $san "$D/bin/runner"
            # a case name that is not in the runner runs nothing, and passes
            grep -q 'Checks: 0,' "$O/$n.log" &&
                echo "$n: FAIL no test ran (is $c a case of tests/suite_$s.c?)" > "$O/$n.sum" ;;
        esac
    done < "$O/sweep-units.txt"
    rm -f "$O/sweep-units.txt"
    phase=none
fi
if [ "$phase" = tests ] || [ "$phase" = all ]; then
    T=${GPU_TEST_TIMEOUT:-420}
    run device "$T" "$D/bin/test_device" &
    run vardev "$T" "$D/bin/test_vardev" &
    # the same with the inverses' workspace at 1 MiB: slices of one or two
    # problems (the slicing of the variable-size driver, vardriver.cu)
    run vardev_slices "$T" env BATCHBLAS_CUDA_VAR_WORK_MB=1 "$D/bin/test_vardev" &
    # the trsm leaves both ways (launch.cu, bb_cuda_dinv_min): every leaf by
    # its inverted diagonal block (1), every leaf by the register solve (0)
    run vardev_dinv1 "$T" env BATCHBLAS_CUDA_DINV=1 "$D/bin/test_vardev" &
    # the variable walk's on-chip leaves at 64 (the recursion above them)
    # and off (leaves of 32; BATCHBLAS_CUDA_TRSM_PANEL, launch.cu)
    run vardev_panel64 "$T" env BATCHBLAS_CUDA_TRSM_PANEL=64 "$D/bin/test_vardev" -1 d &
    run vardev_panel0 "$T" env BATCHBLAS_CUDA_TRSM_PANEL=0 "$D/bin/test_vardev" -1 d &
    for s in blas3 chol; do
        for m in 0 1; do
            BATCHBLAS_CUDA_DINV=$m BATCHBLAS_BACKEND=cuda CK_FORK=no CK_RUN_SUITE=$s OMP_WAIT_POLICY=passive \
                OMP_NUM_THREADS=2 run suite_${s}_dinv$m "$T" "$D/bin/runner" &
        done
    done
    # the double trsm by the blocked walk (BATCHBLAS_CUDA_TRSM_PANEL=0:
    # the on-chip trsm of trsm_panel.cu off), and the walk recursive in
    # every precision (BATCHBLAS_CUDA_TRSM_REC=1)
    for s in blas3 chol lu; do
        BATCHBLAS_CUDA_TRSM_PANEL=0 BATCHBLAS_BACKEND=cuda CK_FORK=no CK_RUN_SUITE=$s OMP_WAIT_POLICY=passive \
            OMP_NUM_THREADS=2 run suite_${s}_panel0 "$T" "$D/bin/runner" &
        BATCHBLAS_CUDA_TRSM_REC=1 BATCHBLAS_BACKEND=cuda CK_FORK=no CK_RUN_SUITE=$s OMP_WAIT_POLICY=passive \
            OMP_NUM_THREADS=2 run suite_${s}_rec1 "$T" "$D/bin/runner" &
        # the fixed trsm's recursion over on-chip ranges of 64 (BATCHBLAS_CUDA_TRSM_SPLIT)
        BATCHBLAS_CUDA_TRSM_SPLIT=64 BATCHBLAS_BACKEND=cuda CK_FORK=no CK_RUN_SUITE=$s OMP_WAIT_POLICY=passive \
            OMP_NUM_THREADS=2 run suite_${s}_split64 "$T" "$D/bin/runner" &
    done
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
    # GPU_MULTI=0,0 (a device list): the plain calls once more over that
    # list (BATCHBLAS_DEVICES; on one GPU, two pipelines claiming chunks of
    # one batch, src/cuda/staging.cu): test_device, the suites, the fault
    # injection and the thread stress
    if [ -n "${GPU_MULTI:-}" ]; then
        BATCHBLAS_DEVICES=$GPU_MULTI run multi_device "$T" "$D/bin/test_device" &
        for s in blas3 chol lu norm library; do
            BATCHBLAS_DEVICES=$GPU_MULTI BATCHBLAS_BACKEND=cuda CK_FORK=no CK_RUN_SUITE=$s OMP_WAIT_POLICY=passive \
                OMP_NUM_THREADS=2 run multi_suite_$s "$T" "$D/bin/runner" &
        done
        for p in thread_stress test_faults; do
            BATCHBLAS_DEVICES=$GPU_MULTI BATCHBLAS_BACKEND=cuda CK_FORK=no OMP_NUM_THREADS=2 \
                run "multi_$p" "$T" "$D/bin/$p" &
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
