#!/bin/sh
# make check: the CMake package (cmake/BatchBLASConfig.cmake.in).  Installs
# this build into a temporary staging directory under the build tree
# (make install DESTDIR=...: the package must work where it was not
# configured to be), checks the version file's answers, then configures,
# builds and runs the client project tests/cmake with nothing but
# CMAKE_PREFIX_PATH.  Skips (77) without cmake.  Run from the build tree,
# where make check runs it; tests/cmake_check.env (written by make) gives
# make, the prefix, the compiler and its flags.
command -v cmake >/dev/null 2>&1 || { echo "cmake not found: skipped"; exit 77; }
srcdir=${top_srcdir:-.}
[ -f tests/cmake_check.env ] || { echo "tests/cmake_check.env missing (run through make check)"; exit 99; }
. ./tests/cmake_check.env

tmp=$(pwd)/tests/cmake_check.tmp
rm -rf "$tmp"
trap '[ -n "$KEEP" ] || rm -rf "$tmp"' EXIT   # KEEP=1: keep it
mkdir -p "$tmp" || exit 99
stage=$tmp/stage
root=$stage$BB_PREFIX
fail() { echo "FAIL: $*"; exit 1; }

# the staged install (without the make flags of make check: no jobserver)
env -u MAKEFLAGS -u MFLAGS $BB_MAKE install DESTDIR="$stage" >"$tmp/install.log" 2>&1 ||
    { tail -30 "$tmp/install.log"; fail "make install DESTDIR=$stage"; }
config=$(find "$stage" -name BatchBLASConfig.cmake)
[ -n "$config" ] || fail "no BatchBLASConfig.cmake installed"
[ -f "$(dirname "$config")/BatchBLASConfigVersion.cmake" ] || fail "no BatchBLASConfigVersion.cmake"
echo "installed: ${config#$stage}"

# the version file: same major version, requested <= installed
version=$(sed -n 's/^set(PACKAGE_VERSION "\(.*\)")$/\1/p' "$(dirname "$config")/BatchBLASConfigVersion.cmake")
echo "version: $version"
check_version() {  # requested version, expected COMPATIBLE (TRUE/FALSE)
    got=$(cmake -DPACKAGE_FIND_VERSION="$1" -DV="$(dirname "$config")/BatchBLASConfigVersion.cmake" \
                -P "$srcdir/tests/cmake/version.cmake" 2>&1)
    [ "$got" = "$2" ] || fail "find_package(BatchBLAS $1): compatible '$got', expected $2"
}
major=${version%%.*}
check_version "$version" TRUE
check_version "$major" TRUE
check_version "$major.0" TRUE
check_version "$((major + 1))" FALSE
check_version "$major.999" FALSE
[ "$major" -gt 0 ] && check_version "$((major - 1)).9" FALSE

# the client: configure, build, run
mkdir -p "$tmp/client"
cmake -S "$srcdir/tests/cmake" -B "$tmp/client" -DCMAKE_PREFIX_PATH="$root" \
    -DCMAKE_C_COMPILER="${BB_CC%% *}" -DCMAKE_C_FLAGS="${BB_CC#"${BB_CC%% *}"} $BB_CFLAGS" \
    -DCMAKE_EXE_LINKER_FLAGS="$BB_LDFLAGS" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
    >"$tmp/configure.log" 2>&1 || { cat "$tmp/configure.log"; fail "cmake configure"; }
grep "BatchBLAS .* in" "$tmp/configure.log"
dir=$(sed -n 's/^BatchBLAS_DIR:[A-Z]*=//p' "$tmp/client/CMakeCache.txt")
case $dir in "$stage"/*) ;; *) fail "found BatchBLAS in '$dir', not in the staged install";; esac
cmake --build "$tmp/client" >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "cmake --build"; }
"$tmp/client/app" || fail "the client (BatchBLAS::batchblas)"
if [ -n "$(find "$stage" -name 'libbatchblas_mkl.so*')" ]; then
    [ -x "$tmp/client/app_mkl" ] || fail "libbatchblas_mkl installed but no BatchBLAS::batchblas_mkl"
    # libbatchblas_mkl.so finds libbatchblas.so.0 through its own run path
    # or ld.so, both pointing to the real prefix, not to this staged copy
    libdir=$(dirname "$(dirname "$(dirname "$config")")")
    LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$tmp/client/app_mkl" ||
        fail "the client (BatchBLAS::batchblas_mkl)"
fi
echo "PASS: the CMake package"
