#!/bin/sh
# The README's second command: builds if needed and runs the test suite
# (make check: the Check suites, the generated-code check, the shim test,
# the examples; the device-data test skips without a GPU).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
sh "$top/tools/deps.sh"
[ -f "$top/build/Makefile" ] || sh "$top/tools/build.sh"
cd "$top/build"
make -j"$(nproc)"
if ! make -j"$(nproc)" check; then
    cat tests/*.log 2>/dev/null | tail -100
    exit 1
fi
