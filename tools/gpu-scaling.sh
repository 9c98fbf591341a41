#!/bin/sh
# The multi-GPU scaling run (issue "Multi-GPU scaling run on 2 and 4 H200s"),
# on a machine with several GPUs, after tools/devpack.sh here (carry
# .devcarry), from the repository root, in one call or a few:
#   sh tools/gpu-scaling.sh                   # every phase, every visible GPU
#   GPUS=2 sh tools/gpu-scaling.sh            # the first 2 GPUs only
#   SCALE_PHASES="tests link" sh tools/gpu-scaling.sh
#   SCALE_SETS="pinned_d pageable_d" SCALE_PHASES=bench sh tools/gpu-scaling.sh
# Phases (SCALE_PHASES, default "tests link bench balance"):
#   tests  tests/test_device and the Check suites on the CUDA backend with
#          BATCHBLAS_DEVICES naming every GPU, all at once (separate
#          processes); all must pass;
#   link   batchblas-bench-gpu --link-all: pinned copies, both directions,
#          on 1, 2, 4 ... GPUs at once (the hardware ceiling of the split);
#   bench  batchblas-bench --devices-scan "0;0,1;0,1,2,3" (host data, one
#          process, the same data; 1 GPU, then 2, then 4, reps interleaved)
#          for trsm, syrk, potri, potrf, getrf, gesv, sets (SCALE_SETS):
#            pinned_d  double, operands in page-locked memory (--pinned: the
#                      direct copies), n = 16, 32, 64, 128, 256
#            pinned_s  single, the same, n = 32, 128, 256
#            pageable_d double, ordinary memory (staged through the host
#                      copy), n = 64, 256
#            var_d     double, variable sizes uniform in [1, n] (pointer
#                      arrays: staged), n = 64, 256
#          (default: all four; SCALE_SIZES overrides the sizes), SCALE_MB MB of counted bytes a row (default
#          6144: over 50 ms on one GPU even with the direct copies);
#   balance one verbose call per routine on every GPU (d, n = 128, pinned):
#          how the batch was split and each share's time (the balance
#          target: the slowest device within 5% of the fastest).
# Output in $OUT (or ./gpu-out): scaling.txt (summary), scaling.csv,
# suites.txt, balance.txt, link.txt.
. "$(dirname "$0")/gpu-env.sh"
export NCCL_NVLS_ENABLE=0
ngpu=$(nvidia-smi -L 2>/dev/null | wc -l)
[ -n "${GPUS:-}" ] && ngpu=$GPUS
[ "$ngpu" -ge 1 ] || { echo "no GPU"; exit 1; }
all=$(seq -s, 0 $((ngpu - 1)))
scan="0"
[ "$ngpu" -ge 2 ] && scan="$scan;0,1"
[ "$ngpu" -ge 4 ] && scan="$scan;0,1,2,3"
[ "$ngpu" -ge 3 ] && [ "$ngpu" -ne 4 ] && scan="$scan;$all"
phases=${SCALE_PHASES:-tests link bench balance}
sets=${SCALE_SETS:-pinned_d pinned_s pageable_d var_d}
mb=${SCALE_MB:-6144}
B=$D/bin/batchblas-bench
{
    echo "GPUs: $ngpu ($all); device lists timed: $scan"
    nvidia-smi --query-gpu=index,name,pci.bus_id,memory.total --format=csv
    nvidia-smi topo -m 2>&1 | head -12
    echo "host: $(nproc) cores, $(grep MemTotal /proc/meminfo)"
} > "$O/scaling.txt" 2>&1
cat "$O/scaling.txt"

case " $phases " in *" tests "*)
    t0=$(date +%s)
    : > "$O/suites.txt"
    for s in blas3 chol lu norm errors library; do
        ( BATCHBLAS_DEVICES=$all BATCHBLAS_BACKEND=cuda CK_FORK=no CK_RUN_SUITE=$s OMP_NUM_THREADS=4 \
            timeout 400 "$D/bin/runner" > "$O/suite_$s.log" 2>&1
          echo "suite $s (devices $all): rc=$? $(grep -E '^[0-9]+%: Checks' "$O/suite_$s.log" | tail -1)" \
            >> "$O/suites.txt" ) &
    done
    ( BATCHBLAS_DEVICES=$all timeout 400 "$D/bin/test_device" > "$O/test_device.log" 2>&1
      echo "test_device (devices $all for the plain calls): rc=$? $(tail -1 "$O/test_device.log")" \
        >> "$O/suites.txt" ) &
    wait
    echo "tests took $(( $(date +%s) - t0 )) s" >> "$O/suites.txt"
    cat "$O/suites.txt"
    grep -h -E "FAIL|Failure|Error" "$O"/suite_*.log "$O/test_device.log" 2>/dev/null | head -20
    ;;
esac

case " $phases " in *" link "*)
    "$D/bin/batchblas-bench-gpu" --link-all > "$O/link.txt" 2>&1
    cat "$O/link.txt"
    ;;
esac

case " $phases " in *" bench "*)
    rm -f "$O/scaling.csv"
    for set in $sets; do
        case $set in
            pinned_d) p=d; extra="--pinned"; sizes=16,32,64,128,256 ;;
            pinned_s) p=s; extra="--pinned"; sizes=32,128,256 ;;
            pageable_d) p=d; extra=""; sizes=64,256 ;;
            var_d) p=d; extra="--form var --dist uniform"; sizes=64,256 ;;
            *) echo "unknown set $set"; continue ;;
        esac
        [ -n "${SCALE_SIZES:-}" ] && sizes=$SCALE_SIZES
        for r in trsm syrk potri potrf getrf gesv; do
            echo "== $set $r"
            timeout 300 "$B" --routine $r --prec $p $extra --sizes $sizes --mb "$mb" --backend cuda \
                --devices-scan "$scan" --reps 3 --check 2 --quiet --csv "$O/scaling.csv" 2>&1 ||
                echo "bench $set $r failed (rc=$?)"
        done
    done
    ;;
esac

case " $phases " in *" balance "*)
    # the balance: one verbose call per routine on every GPU (spread.c logs
    # the split and each share's time)
    # (BATCHBLAS_SPREAD_STATIC=1: the planner's fixed shares, 0: the
    # devices claim chunks from one list; alternated, BALANCE_ROUNDS rounds
    # (default 2), BALANCE_DATA (default "pinned pageable"), n =
    # BALANCE_SIZES (default 128))
    : > "$O/balance.txt"
    for round in $(seq 1 "${BALANCE_ROUNDS:-2}"); do
      for kind in ${BALANCE_DATA:-pinned pageable}; do
        data=; [ "$kind" = pinned ] && data=--pinned
        for st in 1 0; do
          for r in trsm syrk potri potrf getrf gesv; do
            echo "== round $round static=$st $kind $r" >> "$O/balance.txt"
            BATCHBLAS_SPREAD_STATIC=$st BATCHBLAS_VERBOSE=1 BATCHBLAS_DEVICES=$all "$B" --routine $r --prec d $data \
                --sizes "${BALANCE_SIZES:-128}" --mb "$mb" --backend cuda --no-baseline --reps 1 --check 1 --quiet \
                > "$O/balance_one.txt" 2>&1
            grep -E "shares done|share\(s\)|pipeline [0-9]" "$O/balance_one.txt" | tail -"$((2 + ngpu))" >> "$O/balance.txt"
            grep -vE "^\[batchblas|^#" "$O/balance_one.txt" | tail -2 >> "$O/balance.txt"
          done
        done
      done
    done
    grep -E "^==|slowest" "$O/balance.txt"
    ;;
esac
echo "logs and CSV in $O"
