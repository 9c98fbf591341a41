#!/bin/sh
# The README's first command: installs the Debian packages, builds, installs
# (default prefix /usr/local; pass --prefix=DIR to change), then compiles the
# demo against the installed library with pkg-config and runs it: a batched
# Cholesky solve of 100000 random SPD systems, with the time and residual.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
sh "$top/tools/deps.sh"
sh "$top/tools/build.sh" "$@"
cd "$top/build"
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
$SUDO make install >/dev/null
[ "$(id -u)" = 0 ] && ldconfig || true
prefix=$(sed -n 's/^prefix=//p' batchblas.pc)
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig:$PKG_CONFIG_PATH"
export LD_LIBRARY_PATH="$prefix/lib:$LD_LIBRARY_PATH"
cc -O2 -o demo_posv "$top/examples/demo_posv.c" $(pkg-config --cflags --libs batchblas) -lm
echo "== demo: batched Cholesky solve (lapack_dposv_batch_strided), installed library =="
./demo_posv
