#!/usr/bin/env python3
"""Fits the host-data cost model (src/common/cost.c) to the CSV of
tools/calibrate.sh and prints a BATCHBLAS_COST_FILE (the same keys the
library reads):

  python3 tools/calibrate.py calib.csv > cost.txt

cpu_op NAME C0 F: from the n = 16, 64 and 256 rows of each routine on
every core (cpu_op_mid NAME FM FPP: the n = 64 rate and flops per problem): F = flops over core-seconds at n = 256; C0 = the core-seconds
per problem at n = 16 beyond its flops at F (0 when that row ran at the
host's streaming rate, cpu_bw_max, which then bounds it).  cpu_bw_core, cpu_bw_max: counted bytes
over the time of dpotrf/dsyrk n = 16 on one core and on every core (the
best of the two routines).  gpu_bw T B: counted bytes over the time of
dpotrf n = 16 through the GPU's staging path with T copy threads.  gpu_op
NAME F: the routine's flops at n = 256 over the time its row took beyond
its bytes at the 16-thread staging rate."""
import csv
import sys


def main():
    rows = list(csv.DictReader(open(sys.argv[1])))
    out = ["# written by tools/calibrate.py from %s" % sys.argv[1]]
    by = {}
    for r in rows:
        by.setdefault((r["tag"], r["routine"]), []).append(r)
    bw1 = bwmax = 0.0
    for (tag, routine), rs in sorted(by.items()):
        if tag == "cpu_bw":
            for r in rs:
                rate = float(r["bytes"]) / (float(r["ms"]) * 1e-3)
                if int(r["threads"]) == 1:
                    bw1 = max(bw1, rate)
                else:
                    bwmax = max(bwmax, rate)
    if bw1:
        out.append("cpu_bw_core %.3g" % bw1)
    if bwmax:
        out.append("cpu_bw_max %.3g" % bwmax)
    for (tag, routine), rs in sorted(by.items()):
        if tag != "cpu_op":
            continue
        # F from the large size (its fixed work is small beside its flops),
        # then C0 from the small one, unless that row ran at the host's
        # streaming rate (then its time says nothing of C0: 0)
        by_n = sorted(rs, key=lambda r: int(r["n"]))
        small, large = by_n[0], by_n[-1]
        if small is large:
            continue
        def core_s(r):
            return float(r["ms"]) * 1e-3 * int(r["threads"])
        f = float(large["flops"]) / core_s(large)
        t_small = float(small["ms"]) * 1e-3
        bw_bound = bwmax and t_small < 1.3 * float(small["bytes"]) / bwmax
        c0 = 0.0
        if not bw_bound:
            c0 = max(0.0, (core_s(small) - float(small["flops"]) / f) / float(small["batch"]))
        name = "inverse" if routine == "inverse" else routine
        mids = [r for r in by_n if r is not small and r is not large]
        if mids:
            # the mid size's rate (n = 64), and C0 from the small size at
            # that rate (closer to it than the large one's)
            mid = mids[0]
            fm = float(mid["flops"]) / core_s(mid)
            if not bw_bound:
                c0 = max(0.0, (core_s(small) - float(small["flops"]) / fm) / float(small["batch"]))
            out.append("cpu_op_mid %s %.3g %.3g" % (name, fm, float(mid["flops"]) / float(mid["batch"])))
        out.append("cpu_op %s %.3g %.3g" % (name, c0, f))
    gbw16 = 0.0
    for (tag, routine), rs in sorted(by.items()):
        if tag.startswith("gpu_bw_"):
            for r in rs:
                rate = float(r["bytes"]) / (float(r["ms"]) * 1e-3)
                out.append("gpu_bw %s %.3g" % (tag[7:], rate))
                if tag == "gpu_bw_16":
                    gbw16 = rate
    for (tag, routine), rs in sorted(by.items()):
        if tag != "gpu_op" or not gbw16:
            continue
        for r in rs:
            extra = float(r["ms"]) * 1e-3 - float(r["bytes"]) / gbw16
            # kernels entirely hidden by the copies: a high rate (1 PFLOP/s)
            rate = float(r["flops"]) / extra if extra > 0 else 1e15
            out.append("gpu_op %s %.3g" % (routine, rate))
    print("\n".join(out))


if __name__ == "__main__":
    main()
