#!/bin/sh
# make check's log compiler for tests/suites/*.suite: the file's name is
# SUITE-PRECISIONS.suite (e.g. lu-d.suite) or SUITE.suite (every
# precision); this runs that part of the Check runner, so that make -j runs
# the parts side by side.  The runner is looked up in the build tree.
set -e
name=$(basename "$1" .suite)
suite=${name%%-*}
precs=sdcz
case $name in *-*) precs=${name#*-} ;; esac
CK_RUN_SUITE=$suite exec tests/runner "$precs"
