#!/usr/bin/env python3
"""Markdown tables from batchblas-bench-gpu CSV files (doc/performance.md).

usage: tools/gpu-table.py FILE.csv [FILE.csv ...]

Prints, per precision, one row per routine: the share of copy bandwidth at
each size, then the same row as ours / vendor (below 1: we are faster;
'-' where the bench has no vendor or the vendor solves another problem).
Later files override earlier ones for the same (routine, precision, n).
"""
import csv
import sys


def main(paths):
    rows = {}
    order = []
    sizes = set()
    for path in paths:
        with open(path) as f:
            lines = [l for l in f if not l.startswith('#')]
        for r in csv.DictReader(lines):
            key = (r['routine'], r['prec'])
            if key not in order:
                order.append(key)
            n = int(r['n'])
            sizes.add(n)
            rows[key + (n,)] = r
    sizes = sorted(sizes)
    for prec in 'dszc':
        keys = [k for k in order if k[1] == prec]
        if not keys:
            continue
        print(f'\n**{prec}** — % of copy bandwidth (ours/vendor)\n')
        print('| routine | ' + ' | '.join(f'n={n}' for n in sizes) + ' |')
        print('|---|' + '---|' * len(sizes))
        for k in keys:
            cells = []
            for n in sizes:
                r = rows.get(k + (n,))
                if r is None:
                    cells.append('')
                    continue
                v = r['ours_over_vendor']
                v = '-' if v in ('', 'nan', '-') else f'{float(v):.2f}'
                bad = '' if r['ok'] == 'ok' else ' FAIL'
                cells.append(f"{float(r['pct_copy_bw']):.0f}% ({v}){bad}")
            print(f'| {k[0]} | ' + ' | '.join(cells) + ' |')


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
