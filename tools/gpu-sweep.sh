#!/bin/sh
# Runs on the GPU machine (after tools/devpack.sh, carry .devcarry): units
# FIRST..LAST of the compute-sanitizer sweep of tools/gpu-check.sh
# (GPU_SANITIZE_ALL, 36 units: memcheck 1-9, racecheck 10-18, initcheck
# 19-27, synccheck 28-36; each unit one tool over one Check suite,
# test_device, the isolation test or the thread test), all at once as
# separate processes sharing the GPU; prints one summary line per unit and
# packs the logs into $OUT/sweep-FIRST-LAST.tgz.
#   sh tools/gpu-sweep.sh 1 18
first=${1:-1}; last=${2:-36}
top=$(cd "$(dirname "$0")/.." && pwd)
out=${OUT:-$top/gpu-out}
tmp=$(mktemp -d)
i=$first
while [ "$i" -le "$last" ]; do
    mkdir -p "$tmp/u$i"
    OUT="$tmp/u$i" GPU_SANITIZE_ALL=$i/36 GPU_TEST_TIMEOUT=${GPU_TEST_TIMEOUT:-540} sh "$top/tools/gpu-check.sh" > "$tmp/u$i/run.txt" 2>&1 &
    i=$((i + 1))
done
wait
mkdir -p "$out"
for d in "$tmp"/u*; do (cd "$d" && tar xzf logs.tgz 2>/dev/null; cat ./*.sum 2>/dev/null); done | sort
(cd "$tmp" && tar czf "$out/sweep-$first-$last.tgz" .)
rm -rf "$tmp"
