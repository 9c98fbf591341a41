#!/bin/sh
# Configures (once) and builds BatchBLAS in ./build.  Extra arguments go to
# configure, e.g. --without-cuda or --prefix=$HOME/.local.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
[ -x configure ] || autoreconf -fi >/dev/null
mkdir -p build
cd build
if [ ! -f Makefile ]; then
    ../configure -q "$@"
elif [ $# -gt 0 ]; then
    # a new configuration of an existing build: the libtool libraries carry
    # the old libdir (make install would refuse them), so build afresh
    ../configure -q "$@"
    make clean >/dev/null
fi
make -j"$(nproc)"
