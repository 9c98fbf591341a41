#!/usr/bin/env python3
"""Fits the host-data cost model (src/common/cost.c) to the CSV of
tools/calibrate.sh and prints a BATCHBLAS_COST_FILE (the same keys the
library reads):

  python3 tools/calibrate.py calib.csv > cost.txt

cpu_op NAME C0 F: from the n = 16 and n = 256 rows of each routine on
every core: core-seconds per problem = C0 + flops per problem / F (two
points, two unknowns; C0 >= 0).  cpu_bw_core, cpu_bw_max: counted bytes
over the time of dpotrf/dsyrk n = 16 on one core and on every core (the
best of the two routines).  gpu_bw T B: counted bytes over the time of
dpotrf n = 16 through the GPU's staging path with T copy threads."""
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
        pts = []
        for r in rs:
            t = float(r["ms"]) * 1e-3
            batch = float(r["batch"])
            core_s = t * int(r["threads"]) / batch
            pts.append((float(r["flops"]) / batch, core_s))
        pts.sort()
        if len(pts) < 2 or pts[-1][0] <= pts[0][0]:
            continue
        (f0, s0), (f1, s1) = pts[0], pts[-1]
        f = (f1 - f0) / max(s1 - s0, 1e-15)
        c0 = s0 - f0 / f
        if c0 < 0 or f <= 0:  # the small size is cheaper than its flops say: all flops
            c0, f = 0.0, f1 / s1
        name = "inverse" if routine == "inverse" else routine
        out.append("cpu_op %s %.3g %.3g" % (name, c0, f))
    for (tag, routine), rs in sorted(by.items()):
        if tag.startswith("gpu_bw_"):
            for r in rs:
                out.append("gpu_bw %s %.3g" % (tag[7:], float(r["bytes"]) / (float(r["ms"]) * 1e-3)))
    print("\n".join(out))


if __name__ == "__main__":
    main()
