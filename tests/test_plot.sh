#!/bin/sh
# tools/plot_bench.py on the small committed CSV of batchblas-bench-gpu
# (tests/data/bench_small.csv) and on a CPU CSV of batchblas-bench written
# here: a non-empty PNG must come out of each.  Skips (77) without a python3
# that has matplotlib (Debian: python3-matplotlib, tools/deps.sh).
srcdir=${top_srcdir:-.}
py=
for p in "$PYTHON3" python3 /usr/bin/python3; do
    [ -n "$p" ] || continue
    if "$p" -c 'import matplotlib' >/dev/null 2>&1; then py=$p; break; fi
done
if [ -z "$py" ]; then
    echo "SKIP: no python3 with matplotlib"
    exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bb_plot.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/cpu.csv" <<'CSV'
# batchblas-bench (test data)
routine,prec,form,dist,n,batch,threads,impl,ms,ms_min,ms_max,gflops,gbs,pct_roof,error,ok,info_bad,flops,bytes,load1
potrf,d,strided,fixed,4,1000,2,ours,0.1,0.1,0.1,1.0,10,50,0.1,1,0,1,1,0.1
potrf,d,strided,fixed,4,1000,2,baseline,0.2,0.2,0.2,0.5,5,25,0.1,1,0,1,1,0.1
potrf,d,strided,fixed,8,1000,2,ours,0.1,0.1,0.1,2.0,10,60,0.1,1,0,1,1,0.1
potrf,d,strided,fixed,8,1000,2,baseline,0.2,0.2,0.2,1.0,5,30,0.1,1,0,1,1,0.1
CSV
"$py" "$srcdir/tools/plot_bench.py" "$srcdir/tests/data/bench_small.csv" --out "$tmp/gpu" || exit 1
"$py" "$srcdir/tools/plot_bench.py" "$tmp/cpu.csv" --out "$tmp/cpu" --metric gflops || exit 1
for f in "$tmp/gpu/potrf.png" "$tmp/cpu/potrf.png"; do
    if [ ! -s "$f" ]; then echo "FAIL: $f missing or empty"; exit 1; fi
    # PNG signature
    if [ "$(head -c 4 "$f" | tail -c 3)" != PNG ]; then echo "FAIL: $f is not a PNG"; exit 1; fi
done
echo "PASS: plot_bench.py wrote non-empty PNGs"
