#!/bin/sh
# The calibration of the host-data cost model (src/common/cost.c), on the
# machine it is for, from the repository root, after tools/devpack.sh
# (on a GPU machine: carry .devcarry; CPU-only rows need no GPU):
#   sh tools/calibrate.sh            # writes $OUT/calib.csv (or ./gpu-out)
#   python3 tools/calibrate.py calib.csv > cost.txt
# then either BATCHBLAS_COST_FILE=cost.txt for this machine, or the
# numbers into the table of src/common/cost.c (the built-in model).
# It measures, double, host data:
#   cpu_op  every routine on every core at n = 16, 64 and 256 (256 MB rows;
#           hemm, herk, her2k in double complex):
#           the fixed work per problem and the flop rate per core at 64
#           and 256 (fit)
#   cpu_bw  dpotrf and dsyrk n = 16 on 1 core and on every core
#   gpu_bw  dpotrf n = 16, 0.5 GB, through the GPU's staging path with
#           1, 2, 4, 8, 16 host copy threads (BATCHBLAS_CUDA_STAGE_THREADS)
#   gpu_op  every routine at n = 256, 0.5 GB, through the staging path:
#           the kernels' rate beyond the copies
# Takes about 3 minutes on the H100 machine (16 cores).
. "$(dirname "$0")/gpu-env.sh"
B=$D/bin/batchblas-bench
[ -x "$B" ] || B=./batchblas-bench
csv=$O/calib.csv
rm -f "$csv"
bench() { # tag, then bench arguments
    tag=$1; shift
    "$B" --no-baseline --reps 3 --check 1 --quiet --csv "$O/calib_part.csv" "$@" > /dev/null 2>&1 ||
        echo "calibrate: $tag $* failed" >&2
    [ -f "$O/calib_part.csv" ] || return 0
    tail -n +2 "$O/calib_part.csv" | sed "s/^/$tag,/" >> "$csv"
    rm -f "$O/calib_part.csv"
}
echo "tag,routine,prec,form,dist,n,batch,threads,impl,ms,ms_min,ms_max,gflops,gbs,pct_roof,error,ok,info_bad,flops,bytes,load1" > "$csv"
cores=$(nproc)
for r in gemm symm syrk syr2k trmm trsm potrf potrs posv trtri lauum potri poti \
         getrf getrfnp getrs gesv getri getri_oop lange gecond gecon inverse; do
    bench cpu_op --routine $r --sizes 16,64,256 --mb "${CALIB_MB:-256}" --backend cpu
done
for r in hemm herk her2k; do # complex only (their flops count real operations)
    bench cpu_op --routine $r --prec z --sizes 16,64,256 --mb "${CALIB_MB:-256}" --backend cpu
done
for r in potrf syrk; do
    bench cpu_bw --routine $r --sizes 16 --mb "${CALIB_MB:-256}" --backend cpu --threads 1
    bench cpu_bw --routine $r --sizes 16 --mb 1024 --backend cpu --threads "$cores"
done
if [ -n "${BATCHBLAS_CUDA_PLUGIN:-}" ] && [ -f "$BATCHBLAS_CUDA_PLUGIN" ]; then
    for t in 1 2 4 8 16; do
        BATCHBLAS_CUDA_STAGE_THREADS=$t bench gpu_bw_$t --routine potrf --sizes 16 --mb 512 --backend cuda
    done
    for r in gemm symm syrk syr2k trmm trsm potrf potrs posv trtri lauum potri poti \
             getrf getrfnp getrs gesv getri getri_oop lange gecond gecon inverse; do
        bench gpu_op --routine $r --sizes 256 --mb 512 --backend cuda
    done
    for r in hemm herk her2k; do
        bench gpu_op --routine $r --prec z --sizes 256 --mb 512 --backend cuda
    done
fi
echo "calibrate: $(($(wc -l < "$csv") - 1)) rows in $csv"
