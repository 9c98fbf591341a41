#!/bin/sh
# Developers, on the lent GPU machine after tools/devpack.sh: Nsight Compute
# sections of the register kernels for a few (routine, prec, size) cases,
# one kernel launch each.  Output under $OUT (or ./gpu-out): prof_*.txt.
# GPU_PROFILE="getrf:d:4:k_getrf trsm:s:4:k_trsm ..." (routine:prec:n:kernel)
# GPU_PROFILE_SASS=1: also the full set with the SASS source page of the same
# launch, sass_*.csv, for tools/sass-summary.py (where the instructions go)
. "$(dirname "$0")/gpu-env.sh"
NCU=$(command -v ncu || ls /usr/local/cuda/nsight-compute*/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -n "$NCU" ] || { echo "no ncu"; exit 0; }
for c in ${GPU_PROFILE:-getrf:d:4:k_getrf getrf:d:32:k_getrf trsm:s:4:k_trsm gemm:s:4:k_gemm potrf:s:4:k_potrf getri:d:8:k_getri gecond:d:32:k_gecond}; do
    IFS=: read r p n k <<E2
$c
E2
    [ "$r" = getri ] && r=inverse
    timeout 120 "$NCU" --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats \
        --section LaunchStats --section Occupancy --section ComputeWorkloadAnalysis -k "regex:$k" --launch-count 1 \
        "$D/bin/batchblas-bench-gpu" --routines "$r" --precs "$p" --sizes "$n" --reps 5 --no-vendor \
        > "$O/prof_${r}_$p$n.txt" 2>&1
    if [ "${GPU_PROFILE_SASS:-0}" = 1 ]; then
        timeout 240 "$NCU" --clock-control none --set full --import-source no -k "regex:$k" --launch-count 1 \
            -o "$O/sass_${r}_$p$n" "$D/bin/batchblas-bench-gpu" --routines "$r" --precs "$p" --sizes "$n" --reps 1 \
            --no-vendor > /dev/null 2>&1 &&
            "$NCU" --import "$O/sass_${r}_$p$n.ncu-rep" --page source --csv --print-source sass > "$O/sass_${r}_$p$n.csv" 2>&1
        rm -f "$O/sass_${r}_$p$n.ncu-rep"
    fi
    echo "== $r $p $n: $(grep -E 'Duration|Memory Throughput|DRAM Throughput|Achieved Occupancy|Registers Per' "$O/prof_${r}_$p$n.txt" | tr -s ' ' | tr '\n' ';')"
done
