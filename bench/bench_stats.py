"""Helpers the bench renderers share: medians and quartiles that tolerate
short lists, JSON-lines files, and the steal column of `vmstat -n -t 1`."""
import bench_io  # docs/results' raw data, plain or gzip-compressed
from bench_io import open  # noqa: A004 (reads FILE or FILE.gz)
import json
import os
import statistics


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def quartiles(xs):
    if len(xs) < 2:
        return (xs[0], xs[0]) if xs else (float("nan"), float("nan"))
    q = statistics.quantiles(xs, n=4, method="inclusive")
    return q[0], q[2]


def jsonl(path):
    if not bench_io.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def vmstat(d):
    """(timestamp 'YYYY-MM-DD HH:MM:SS', st) per line of DIR/vmstat.txt
    (vmstat -n -t 1)."""
    path = os.path.join(d, "vmstat.txt")
    rows, st_col = [], None
    if not bench_io.exists(path):
        return rows
    for line in open(path):
        f = line.split()
        if not f:
            continue
        if "st" in f and "us" in f:
            st_col = f.index("st")
            continue
        if st_col is None or not f[0].isdigit() or len(f) < st_col + 3:
            continue
        rows.append((f[-2] + " " + f[-1], int(f[st_col])))
    return rows
