#!/usr/bin/env python3
"""Plot the CSV of batchblas-bench (CPU) and batchblas-bench-gpu (GPU).

    python3 tools/plot_bench.py CSV... --out DIR [--routines potrf,trsm,...]
                                [--metric pct|gflops] [--prefix h100_]

One PNG per routine (DIR/<prefix><routine>.png): against n, ours (solid)
and the vendor/baseline (dashed), one colour per precision, and the floor
as the 100% line.

  * GPU CSV (batchblas-bench-gpu --csv; columns routine, prec, n, ours_ms,
    floor_ms, vendor_ms, vendor, gflops, ...): % of the floor = floor_ms /
    time x 100 for ours and for the vendor.
  * CPU CSV (batchblas-bench --csv; columns routine, prec, n, impl, ms,
    pct_roof, gflops, ...): % of the floor is pct_roof of the rows of impl
    "ours" and "baseline" (the OpenMP loop over OpenBLAS/LAPACKE).

--metric gflops plots GFLOP/s instead (no floor line then; the GPU CSV
gives the vendor's as ours' GFLOP/s x ours_ms / vendor_ms).  Lines starting
with '#' (the machine notes) are skipped; the device/machine named in the
first such line is put in the title.  Needs matplotlib (Debian:
python3-matplotlib).
"""
import argparse
import csv
import os
import re
import sys

PREC_COLOUR = {"s": "tab:blue", "d": "tab:red", "c": "tab:green", "z": "tab:purple"}
PREC_ORDER = "sdcz"


def read_rows(path):
    """(rows as dicts, note) of one CSV; note: the device/machine if named."""
    note = ""
    lines = []
    with open(path, newline="") as f:
        for line in f:
            if line.startswith("#"):
                m = re.search(r"device=(.*)$", line) or re.search(r"# machine: ([^,]*)", line)
                if m and not note:
                    note = m.group(1).strip()
                continue
            if line.strip():
                lines.append(line)
    header = None
    rows = []
    for rec in csv.reader(lines):
        if rec and rec[0] == "routine":  # header (appended files may repeat it)
            header = rec
            continue
        if header is None or len(rec) != len(header):
            continue
        rows.append(dict(zip(header, rec)))
    return rows, note


def num(x):
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return v if v == v else None  # NaN -> None


def series(rows, metric):
    """{routine: {(prec, who): {n: value}}, ...}, {routine: vendor name}"""
    out, vendor_name = {}, {}
    for r in rows:
        routine, prec, n = r.get("routine"), r.get("prec"), num(r.get("n"))
        if not routine or not prec or n is None:
            continue
        pts = out.setdefault(routine, {})
        if "ours_ms" in r:  # GPU CSV
            ours_ms, vendor_ms = num(r.get("ours_ms")), num(r.get("vendor_ms"))
            floor_ms, gf = num(r.get("floor_ms")), num(r.get("gflops"))
            if metric == "pct":
                ours = 100.0 * floor_ms / ours_ms if floor_ms and ours_ms else None
                vend = 100.0 * floor_ms / vendor_ms if floor_ms and vendor_ms else None
            else:
                ours = gf
                vend = gf * ours_ms / vendor_ms if gf and ours_ms and vendor_ms else None
            if ours is not None:
                pts.setdefault((prec, "ours"), {})[n] = ours
            if vend is not None:
                pts.setdefault((prec, "vendor"), {})[n] = vend
                v = r.get("vendor", "")
                if v and v != "-":
                    vendor_name.setdefault(routine, v)
        else:  # CPU CSV
            impl = r.get("impl", "ours")
            who = "ours" if impl == "ours" else "vendor"
            v = num(r.get("pct_roof" if metric == "pct" else "gflops"))
            if v is not None:
                pts.setdefault((prec, who), {})[n] = v
                if who == "vendor":
                    vendor_name.setdefault(routine, "OpenMP + OpenBLAS loop")
    return out, vendor_name


def plot_routine(plt, routine, pts, vendor, note, metric, path):
    fig, ax = plt.subplots(figsize=(6.0, 3.2), dpi=80)
    xs, precs, whos = set(), [], set()
    for prec in PREC_ORDER:
        for who, style in (("ours", "-"), ("vendor", "--")):
            d = pts.get((prec, who))
            if not d:
                continue
            n = sorted(d)
            xs.update(n)
            if prec not in precs:
                precs.append(prec)
            whos.add(who)
            ax.plot(n, [d[k] for k in n], style, marker="o" if who == "ours" else "x",
                    markersize=3, linewidth=1.2, color=PREC_COLOUR.get(prec, "black"))
    # legend: colour = precision, line style = ours / vendor, dotted = floor
    from matplotlib.lines import Line2D
    handles = [Line2D([], [], color=PREC_COLOUR.get(p, "black"), linewidth=2, label=p + routine)
               for p in precs]
    handles.append(Line2D([], [], color="gray", marker="o", markersize=3, label="BatchBLAS"))
    if "vendor" in whos:
        handles.append(Line2D([], [], color="gray", linestyle="--", marker="x", markersize=3,
                              label=vendor or "baseline"))
    if metric == "pct":
        ax.axhline(100.0, color="black", linewidth=0.8, linestyle=":")
        handles.append(Line2D([], [], color="black", linewidth=0.8, linestyle=":",
                              label="floor (100%)"))
        ax.set_ylabel("% of the floor (higher is better)")
    else:
        ax.set_ylabel("GFLOP/s")
    ax.set_xscale("log", base=2)
    if xs:
        ticks = sorted(xs)
        ax.set_xticks(ticks)
        ax.set_xticklabels([str(int(t)) for t in ticks])
        ax.minorticks_off()
    ax.set_ylim(bottom=0)
    ax.set_xlabel("n")
    ax.set_title("%s%s" % (routine, " on " + note if note else ""), fontsize=9)
    ax.grid(True, linewidth=0.3)
    ax.legend(handles=handles, fontsize=6, loc="upper left", bbox_to_anchor=(1.01, 1.0),
              frameon=False)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", nargs="+", help="CSV files of batchblas-bench / batchblas-bench-gpu")
    ap.add_argument("--out", required=True, help="directory for the PNGs (created)")
    ap.add_argument("--routines", default="", help="comma-separated routines (default: all)")
    ap.add_argument("--metric", choices=("pct", "gflops"), default="pct")
    ap.add_argument("--prefix", default="", help="prefix of the PNG names")
    a = ap.parse_args(argv)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.stderr.write("plot_bench.py: matplotlib is missing (Debian: python3-matplotlib)\n")
        return 2
    rows, note = [], ""
    for path in a.csv:
        r, nt = read_rows(path)
        rows += r
        note = note or nt
    data, vendor = series(rows, a.metric)
    want = [x for x in a.routines.split(",") if x]
    os.makedirs(a.out, exist_ok=True)
    made = 0
    for routine in sorted(data):
        if want and routine not in want:
            continue
        if not data[routine]:
            continue
        path = os.path.join(a.out, "%s%s.png" % (a.prefix, routine))
        plot_routine(plt, routine, data[routine], vendor.get(routine), note, a.metric, path)
        print(path)
        made += 1
    if not made:
        sys.stderr.write("plot_bench.py: no rows to plot\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
