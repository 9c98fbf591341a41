#!/bin/sh
# The multi-GPU scaling run (issue "Multi-GPU scaling run on 2 and 4 H200s"),
# on a machine with several GPUs, after tools/devpack.sh here (carry
# .devcarry), from the repository root, in one call:
#   sh tools/gpu-scaling.sh            # every visible GPU
#   GPUS=2 sh tools/gpu-scaling.sh     # the first 2
# 1. the Check suites on the CUDA backend with BATCHBLAS_DEVICES naming
#    every GPU (all must pass);
# 2. batchblas-bench (host data) on one GPU, then on 2 and 4 (as many as
#    there are), same run, same data: trsm, syrk, potri, potrf, getrf, gesv
#    at n = 16, 32, 64, 128, 256, double and single, fixed sizes and the
#    variable form (uniform sizes in [1, n]); batches of ~4 GB of counted
#    bytes, so that every GPU gets a share that fills it;
# 3. a summary: speedup of k GPUs over 1 per row (targets: 2 >= 1.9x,
#    4 >= 3.7x where one GPU takes over 50 ms), and the verbose log of one
#    split call (which devices, how the batch was split).
# Output in $OUT (or ./gpu-out): scaling.csv, scaling.txt, suites.txt,
# split.log.
. "$(dirname "$0")/gpu-env.sh"
ngpu=$(nvidia-smi -L 2>/dev/null | wc -l)
[ -n "${GPUS:-}" ] && ngpu=$GPUS
[ "$ngpu" -ge 1 ] || { echo "no GPU"; exit 1; }
all=$(seq -s, 0 $((ngpu - 1)))
echo "GPUs: $ngpu ($all)" | tee "$O/scaling.txt"
nvidia-smi --query-gpu=index,name,pci.bus_id --format=csv >> "$O/scaling.txt" 2>&1

# 1. suites on every GPU
: > "$O/suites.txt"
for s in blas3 chol lu norm errors library; do
    BATCHBLAS_DEVICES=$all BATCHBLAS_BACKEND=cuda CK_FORK=no CK_RUN_SUITE=$s OMP_NUM_THREADS=4 \
        timeout 500 "$D/bin/runner" > "$O/suite_$s.log" 2>&1
    echo "suite $s (devices $all): rc=$? $(grep -E '^[0-9]+%: Checks' "$O/suite_$s.log" | tail -1)" >> "$O/suites.txt"
done
cat "$O/suites.txt"

# 2. the bench, 1 / 2 / 4 GPUs
counts=1
[ "$ngpu" -ge 2 ] && counts="$counts 2"
[ "$ngpu" -ge 4 ] && counts="$counts 4"
rm -f "$O/scaling.csv"
for k in $counts; do
    devs=$(seq -s, 0 $((k - 1)))
    for p in d s; do
        for form in strided var; do
            for r in trsm syrk potri potrf getrf gesv; do
                # (--dist selects the variable form: only with it)
                dist=; [ $form = var ] && dist="--dist uniform"
                BATCHBLAS_DEVICES=$devs timeout 300 "$D/bin/batchblas-bench" --routine $r --prec $p --form $form \
                    $dist --sizes 16,32,64,128,256 --mb 4096 --backend cuda --no-baseline --reps 3 \
                    --check 2 --quiet --csv "$O/scaling_$k.csv" > /dev/null 2>&1 ||
                    echo "bench $r $p $form on $k GPU(s) failed" >> "$O/scaling.txt"
            done
        done
    done
done

# 3. one call with the split logged
BATCHBLAS_VERBOSE=1 BATCHBLAS_DEVICES=$all BATCHBLAS_BACKEND=cuda "$D/bin/batchblas-bench" --routine potrf \
    --sizes 64 --mb 2048 --backend cuda --no-baseline --reps 1 --check 1 --quiet > "$O/split.log" 2>&1

# summary: speedup of k GPUs over 1 (the bench CSV: routine, prec, form, n, ..., ms)
python3 - "$O" $counts <<'EOF' | tee -a "$O/scaling.txt"
import csv, sys, os
out, counts = sys.argv[1], sys.argv[2:]
def load(k):
    p = os.path.join(out, f'scaling_{k}.csv')
    if not os.path.exists(p): return {}
    rows = {}
    for r in csv.DictReader(l for l in open(p) if not l.startswith('#')):
        key = tuple(r.get(c, '') for c in ('routine', 'prec', 'form', 'dist', 'n'))
        ms = next((r[c] for c in ('ms', 'ours_ms', 'time_ms') if c in r and r[c]), None)
        if ms: rows[key] = float(ms)
    return rows
base = load('1')
print('routine prec form dist n | ms on 1 GPU | ' + ' | '.join(f'{k} GPUs: ms, speedup' for k in counts[1:]))
for key, t1 in sorted(base.items()):
    cells = []
    for k in counts[1:]:
        tk = load(k).get(key)
        cells.append(f'{tk:.2f}, {t1 / tk:.2f}x' if tk else '-')
    print(' '.join(key) + f' | {t1:.2f} | ' + ' | '.join(cells))
EOF
echo "logs and CSV in $O"
