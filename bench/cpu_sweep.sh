#!/bin/sh
# The CPU sweep of doc/performance.md: double precision, strided form,
# n = 2..256, against the OpenMP+OpenBLAS loop, then single precision for
# gemm and potrf.  Usage: bench/cpu_sweep.sh [BENCH [CSV]]
#   BENCH  the batchblas-bench binary          [./batchblas-bench]
#   CSV    CSV file the rows are appended to   [cpu_sweep.csv]
# Extra options for every run can be given in BENCH_OPTS (e.g. "--reps 7").
# The machine must be otherwise idle: before each routine the script waits
# (up to IDLE_WAIT seconds, default 300) until no other process has been
# runnable for 10 s (the running count of /proc/loadavg, sampled every 0.5 s);
# the header of each table shows the 1-minute load average.
BENCH=${1:-./batchblas-bench}
CSV=${2:-cpu_sweep.csv}
SIZES=2,4,8,16,32,64,128,256
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}

IDLE_WAIT=${IDLE_WAIT:-300}

# 0 when, over 20 samples 0.5 s apart, at most two tasks (the sampler) ran
quiet_10s() {
    n=0
    while [ $n -lt 20 ]; do
        r=$(cut -d' ' -f4 /proc/loadavg | cut -d/ -f1)
        [ "$r" -gt 2 ] && return 1
        sleep 0.5
        n=$((n + 1))
    done
    return 0
}

wait_idle() {
    t0=$(date +%s)
    while ! quiet_10s; do
        if [ $(($(date +%s) - t0)) -ge "$IDLE_WAIT" ]; then
            echo "# warning: the machine was not idle within $IDLE_WAIT s (load $(cut -d' ' -f1-3 /proc/loadavg))"
            return 0
        fi
        sleep 1
    done
}

run() {
    wait_idle
    echo
    "$BENCH" --sizes $SIZES --csv "$CSV" $BENCH_OPTS "$@"
}

run --prec d --routine gemm
run --prec d --routine trsm
run --prec d --routine potrf
run --prec d --routine potrs
run --prec d --routine getrf
run --prec d --routine getri
run --prec d --routine inverse
run --prec d --routine gecond
run --prec s --routine gemm
run --prec s --routine potrf
