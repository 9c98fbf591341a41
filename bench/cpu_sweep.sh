#!/bin/sh
# The CPU sweep of doc/performance.md: double precision, strided form,
# n = 2..256, against the OpenMP+OpenBLAS loop, then single precision for
# gemm and potrf.  Usage: bench/cpu_sweep.sh [BENCH [CSV]]
#   BENCH  the batchblas-bench binary          [./batchblas-bench]
#   CSV    CSV file the rows are appended to   [cpu_sweep.csv]
# Extra options for every run can be given in BENCH_OPTS (e.g. "--reps 7").
# The machine must be otherwise idle: before each routine the script waits
# (up to IDLE_WAIT seconds, default 300) for the 1-minute load average to fall
# below IDLE_LOAD (default 0.5); the header of each table shows the load.
BENCH=${1:-./batchblas-bench}
CSV=${2:-cpu_sweep.csv}
SIZES=2,4,8,16,32,64,128,256
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}

IDLE_LOAD=${IDLE_LOAD:-0.5}
IDLE_WAIT=${IDLE_WAIT:-300}

wait_idle() {
    i=0
    while [ $i -lt "$IDLE_WAIT" ]; do
        l=$(cut -d' ' -f1 /proc/loadavg)
        if awk -v l="$l" -v t="$IDLE_LOAD" 'BEGIN { exit !(l < t) }'; then return 0; fi
        sleep 5
        i=$((i + 5))
    done
    echo "# warning: load average still $(cut -d' ' -f1 /proc/loadavg) after $IDLE_WAIT s"
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
