#!/bin/sh
# Runs on the GPU machine (after tools/devpack.sh, carry .devcarry): units
# FIRST..LAST of the compute-sanitizer sweep of tools/gpu-check.sh
# (GPU_SANITIZE_ALL), each unit one tool over one Check case (suite:case),
# test_device, one part of the isolation test (precision x op) or the thread
# test.  The unit table is sweep_units in tools/gpu-check.sh; the count and
# the numbered list (tool outer: memcheck 1..U, racecheck U+1..2U,
# initcheck, synccheck; U units per tool, 98 when this was written, 392 in
# all) come from
#   sh tools/gpu-check.sh --sweep-units
#   sh tools/gpu-check.sh --sweep-list
# The units run as separate processes sharing the GPU: all at once, or at
# most GPU_SWEEP_JOBS at a time (a pool: the next unit starts as soon as one
# ends); prints one summary line per unit and packs
# the logs into $OUT/sweep-FIRST-LAST.tgz.
#   sh tools/gpu-sweep.sh 1 20
#   GPU_SWEEP_JOBS=8 sh tools/gpu-sweep.sh 71 140    (racecheck)
top=$(cd "$(dirname "$0")/.." && pwd)
total=$(sh "$top/tools/gpu-check.sh" --sweep-units)
first=${1:-1}; last=${2:-$total}
[ "$last" -le "$total" ] || last=$total
jobs=${GPU_SWEEP_JOBS:-0}
[ "$jobs" -gt 0 ] || jobs=$((last - first + 1))
# GPU_SWEEP_UNITS="u1 u2 ...": these units instead of FIRST..LAST.
# GPU_SWEEP_DEADLINE=s: start no unit after s seconds (those are listed as
# "not started"), so that one call of the device tool ends in its limit;
# each unit is killed after GPU_TEST_TIMEOUT (default 540) seconds.
deadline=$(( $(date +%s) + ${GPU_SWEEP_DEADLINE:-100000} ))
out=${OUT:-$top/gpu-out}
tmp=$(mktemp -d)
units=${GPU_SWEEP_UNITS:-$(seq "$first" "$last")}
export top tmp total deadline
# a pool of $jobs workers: each unit starts as soon as a worker is free
for u in $units; do echo "$u"; done | xargs -P "$jobs" -I{} sh -c '
    i={}
    mkdir -p "$tmp/u$i"
    if [ "$(date +%s)" -ge "$deadline" ]; then echo "unit $i: not started (deadline)" > "$tmp/u$i/skip.sum"; exit 0; fi
    OUT="$tmp/u$i" GPU_SANITIZE_ALL=$i/$total GPU_TEST_TIMEOUT=${GPU_TEST_TIMEOUT:-540} sh "$top/tools/gpu-check.sh" > "$tmp/u$i/run.txt" 2>&1'
mkdir -p "$out"
for d in "$tmp"/u*; do (cd "$d" && tar xzf logs.tgz 2>/dev/null; cat ./*.sum 2>/dev/null); done | sort
(cd "$tmp" && tar czf "$out/sweep-$first-$last.tgz" .)
rm -rf "$tmp"
