#!/usr/bin/env python3
"""Where a kernel's instructions go, from Nsight Compute's SASS source page.

Developers, after a profile with the source counters (`ncu --set full -o R
...`, then `ncu --import R.ncu-rep --page source --csv --print-source sass >
K.csv`; tools/gpu-profile.sh with GPU_PROFILE_SASS=1 writes such files):

    python3 tools/sass-summary.py K.csv [--groups N] [--show COUNT]

prints the warp instructions executed, their split by opcode (with the
share of the stall samples on each), and the kernel's blocks: the runs of
instructions executed the same number of times (a loop body, or one side
of a branch in it), largest first, with their length.  --show COUNT lists
the SASS of the block executed COUNT times.  Session 34 used it to find
that k_vgemm_tc spent 234 of its 322 instructions a chunk of k on copying
the next chunk (doc/performance.md).
"""
import argparse
import csv
import sys
from collections import Counter, defaultdict


def opcode(src):
    """The opcode of a SASS line, without predicate and modifiers."""
    words = src.split()
    if not words:
        return "?"
    op = words[1] if words[0].startswith("@") and len(words) > 1 else words[0]
    return op.split(".")[0]


def load(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    # the first line names the kernel; the header is the line with "Source"
    head = next(i for i, r in enumerate(rows) if "Source" in r)
    h = rows[head]
    col = {name: h.index(name) for name in ("Source", "Instructions Executed")}
    stall = "Warp Stall Sampling (All Samples)"
    col["stall"] = h.index(stall) if stall in h else None
    out = []
    for r in rows[head + 1:]:
        if len(r) < len(h):
            continue
        n = int(r[col["Instructions Executed"]] or 0)
        s = int(r[col["stall"]] or 0) if col["stall"] is not None else 0
        out.append((r[col["Source"]].strip(), n, s))
    return rows[0][1] if len(rows[0]) > 1 else "", out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("--groups", type=int, default=8, help="blocks to list (default 8)")
    ap.add_argument("--show", type=int, help="list the SASS of the block executed this many times")
    a = ap.parse_args()
    name, ins = load(a.csv)
    total = sum(n for _, n, _ in ins) or 1
    stalls = sum(s for _, _, s in ins) or 1
    print(name[:160])
    print(f"{len(ins)} SASS lines, {total:,} warp instructions executed, {stalls:,} stall samples")
    ex, st = Counter(), Counter()
    for src, n, s in ins:
        ex[opcode(src)] += n
        st[opcode(src)] += s
    print("\nopcode       executed   stalls")
    for op, n in ex.most_common(16):
        print(f"{op:10s} {100 * n / total:8.2f}% {100 * st[op] / stalls:7.2f}%")
    blocks = defaultdict(int)
    for _, n, _ in ins:
        if n:
            blocks[n] += 1
    print("\nblocks (executed x instructions = share of all)")
    for n, k in sorted(blocks.items(), key=lambda b: -b[0] * b[1])[:a.groups]:
        print(f"{n:>14,} x {k:4d} = {100 * n * k / total:6.2f}%")
    if a.show is not None:
        print(f"\nthe block executed {a.show:,} times")
        for i, (src, n, s) in enumerate(ins):
            if n == a.show:
                print(f"{i:6d} {s:8d}  {src}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
