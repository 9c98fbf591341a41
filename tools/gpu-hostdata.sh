#!/bin/sh
# The host-data table of doc/performance.md ("Host data: CPU, GPU, both"),
# on the GPU machine after tools/devpack.sh (carry .devcarry), from the
# repository root:
#   sh tools/gpu-hostdata.sh [COST_FILE]
# For dpotrf, dtrsm, dsyrk, dpotri, dgetrf, dgesv at n = 16, 64, 256, host
# data, ~1 GB of counted bytes a row (batchblas-bench --mb 1024), ms:
#   cpu    --backend cpu (every core)
#   cuda   --backend cuda (one GPU; BATCHBLAS_CPU_SHARE=0)
#   both   --backend cuda with BATCHBLAS_CPU_SHARE = t_cuda / (t_cpu +
#          t_cuda) from the two rows above (the share that would balance
#          them): the hybrid split, against the sum of the two rates
#   auto   --backend auto: what the policy picks (with BATCHBLAS_COST_FILE
#          = COST_FILE when given: the calibration of this run)
# HD_MB (default 1024) and HD_SIZES (default "16 64 256") change the rows;
# HD_BOTH=0 leaves out the "both" column.
# Writes $OUT/hostdata.csv (the bench's CSV, one impl tag per mode) and
# prints the table with sum-of-rates shares.
. "$(dirname "$0")/gpu-env.sh"
B=$D/bin/batchblas-bench
cost=${1:-}
csv=$O/hostdata.csv
rm -f "$csv"
one() { # mode, routine, n, env...
    mode=$1 r=$2 n=$3; shift 3
    rm -f "$O/hd_part.csv"
    if env "$@" "$B" --routine "$r" --sizes "$n" --mb "${HD_MB:-1024}" --no-baseline --reps 3 --check 2 --quiet \
        --csv "$O/hd_part.csv" $BARGS > /dev/null 2>&1 && [ -f "$O/hd_part.csv" ]; then
        tail -n +2 "$O/hd_part.csv" | sed "s/^/$mode,/" >> "$csv"
        tail -n 1 "$csv" | cut -d, -f10
    else
        echo "hostdata: $mode $r $n failed" >&2
        echo nan
    fi
    rm -f "$O/hd_part.csv"
}
echo "mode,routine,prec,form,dist,n,batch,threads,impl,ms,ms_min,ms_max,gflops,gbs,pct_roof,error,ok,info_bad,flops,bytes,load1" > "$csv"
printf "%-6s %4s %9s %9s %9s %6s %9s %s\n" routine n cpu_ms cuda_ms both_ms share auto_ms "both/(sum of rates)"
for r in potrf trsm syrk potri getrf gesv; do
    for n in ${HD_SIZES:-16 64 256}; do
        BARGS="--backend cpu"; tc=$(one cpu $r $n BATCHBLAS_CPU_SHARE=0)
        BARGS="--backend cuda"; tg=$(one cuda $r $n BATCHBLAS_CPU_SHARE=0)
        f=$(awk -v c="$tc" -v g="$tg" 'BEGIN { f = g / (c + g); if (f < 0.01) f = 0.01; if (f > 0.99) f = 0.99; printf "%.3f", f }')
        tb=nan
        [ "${HD_BOTH:-1}" = 1 ] && { BARGS="--backend cuda"; tb=$(one both $r $n BATCHBLAS_CPU_SHARE="$f"); }
        if [ -n "$cost" ]; then BARGS="--backend auto"; ta=$(one auto $r $n BATCHBLAS_COST_FILE="$cost")
        else BARGS="--backend auto"; ta=$(one auto $r $n); fi
        awk -v r=$r -v n=$n -v c="$tc" -v g="$tg" -v b="$tb" -v f="$f" -v a="$ta" 'BEGIN {
            ideal = 1 / (1 / c + 1 / g); printf "%-6s %4d %9.1f %9.1f %9.1f %6.3f %9.1f %5.0f%%\n", r, n, c, g, b, f, a, 100 * ideal / b }'
    done
done
