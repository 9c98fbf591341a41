#!/bin/sh
# Configures (once) and builds BatchBLAS in ./build.  Extra arguments go to
# configure, e.g. --without-cuda or --prefix=$HOME/.local.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
[ -x configure ] || autoreconf -fi >/dev/null
mkdir -p build
cd build
if [ ! -f Makefile ] || [ $# -gt 0 ]; then
    ../configure -q "$@"
fi
make -j"$(nproc)"
