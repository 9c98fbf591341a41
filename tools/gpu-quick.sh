#!/bin/sh
# A quick GPU proof of one change (developers, on the lent device, after
# tools/devpack.sh; carry .devcarry): tests/test_device, tests/test_vardev (also with the
# inverses' workspace at 1 MiB: slices of one or two problems), the suites named in
# QUICK_SUITES (default chol lu) on the CUDA backend, compute-sanitizer
# memcheck on the Check cases of QUICK_MEMCHECK (suite:case ...), all at
# once; then, if QUICK_BENCH is set, batchblas-bench-gpu $QUICK_BENCH alone
# (QUICK_BENCH2: a second bench run after it).  Logs packed in $O/logs.tgz,
# one summary line a run in $O/sum.txt.  The full proof is tools/gpu-check.sh.
. "$(dirname "$0")/gpu-env.sh"
T=${QUICK_TIMEOUT:-400}
r() { n=$1; shift; start=$(date +%s); timeout "$T" "$@" > "$O/$n.log" 2>&1
      echo "$n rc=$? $(( $(date +%s) - start ))s $(grep -E 'Checks|passed, [0-9]+ failed|ERROR SUMMARY' "$O/$n.log" | tail -1)" >> "$O/sum.txt"; }
r device "$D/bin/test_device" &
r vardev "$D/bin/test_vardev" &
r vardev_slices env BATCHBLAS_CUDA_VAR_WORK_MB=1 "$D/bin/test_vardev" &
for s in ${QUICK_SUITES-chol lu}; do
    BATCHBLAS_BACKEND=cuda CK_FORK=no CK_RUN_SUITE=$s OMP_WAIT_POLICY=passive OMP_NUM_THREADS=2 r "suite_$s" "$D/bin/runner" &
done
for c in ${QUICK_MEMCHECK-}; do
    BATCHBLAS_BACKEND=cuda CK_FORK=no CK_RUN_SUITE=${c%%:*} CK_RUN_CASE=${c#*:} OMP_NUM_THREADS=2 \
        r "memcheck_${c#*:}" compute-sanitizer --tool memcheck --error-exitcode 9 "$D/bin/runner" &
done
wait
if [ -n "${QUICK_BENCH:-}" ]; then
    # shellcheck disable=SC2086
    r bench "$D/bin/batchblas-bench-gpu" $QUICK_BENCH
    cp "$O/bench.log" "$O/bench.txt"
fi
if [ -n "${QUICK_BENCH2:-}" ]; then
    # shellcheck disable=SC2086
    r bench2 "$D/bin/batchblas-bench-gpu" $QUICK_BENCH2
    cp "$O/bench2.log" "$O/bench2.txt"
fi
cat "$O/sum.txt"
for f in "$O"/*.log; do grep -E "FAIL|Fail|fail:" "$f" | head -8; done
(cd "$O" && tar czf logs.tgz ./*.log && rm -f ./*.log)
