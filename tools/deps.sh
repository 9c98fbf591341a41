#!/bin/sh
# Installs the Debian packages BatchBLAS needs to build and test (as root,
# or through sudo).  Nothing else is downloaded.  CUDA is optional: the CUDA
# backend is built when nvcc is found (PATH or /usr/local/cuda/bin).
set -e
PKGS="build-essential autoconf automake libtool pkg-config python3 \
check libsubunit-dev libopenblas-dev liblapacke-dev libxsmm-dev \
openmpi-bin libopenmpi-dev cmake gfortran python3-matplotlib"
missing=""
for p in $PKGS; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
echo "installing:$missing"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
