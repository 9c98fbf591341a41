#!/bin/sh
# Prepares a GPU run (developers, with the lent device): builds in
# build-dev/ and copies what the device needs into .devcarry/ (ignored by git):
# the libraries, the CUDA plugin, the test and benchmark programs, and the
# non-system shared libraries they load (libsubunit).  Then run, on the
# device, from the repository root: sh tools/gpu-check.sh
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
[ -x configure ] || autoreconf -fi >/dev/null
mkdir -p build-dev
cd build-dev
[ -f Makefile ] || ../configure -q
make -j"$(nproc)" >/dev/null
make -j"$(nproc)" check TESTS= >/dev/null   # build the test programs only
cd "$top"
rm -rf .devcarry
mkdir -p .devcarry/lib .devcarry/bin
cp -a build-dev/.libs/libbatchblas.so* build-dev/.libs/libbatchblas_cuda.so .devcarry/lib/
cp -a build-dev/.libs/libbatchblas_mkl.so* .devcarry/lib/ 2>/dev/null || true
for p in tests/runner tests/test_device tests/test_vardev tests/test_mkl_shim tests/test_isolation tests/thread_stress tests/fuzz_args tests/test_faults batchblas-bench batchblas-bench-gpu; do
    b=build-dev/$(dirname $p)/.libs/$(basename $p)
    [ -f "$b" ] || b=build-dev/$p
    [ -f "$b" ] && cp "$b" .devcarry/bin/
done
cp -a /usr/lib/x86_64-linux-gnu/libsubunit.so* .devcarry/lib/
# symbols out: the device tool carries at most 64 MiB with the tree
strip --strip-unneeded .devcarry/bin/* .devcarry/lib/libbatchblas*.so.*.*.* .devcarry/lib/libbatchblas_cuda.so 2>/dev/null || true
# the plugin compressed (about 57 -> 28 MB; gpu-env.sh unpacks it there)
gzip -1 -f .devcarry/lib/libbatchblas_cuda.so
du -sh .devcarry
