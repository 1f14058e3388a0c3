#!/usr/bin/env python3
"""Compares per-kernel times of the accuracy set measured on a GPU with Strata's modeled
times (two CSVs written by run_accuracy.sh): per kernel and size the median time of
each, the error (strata / gpu - 1), then MAPE and Pearson r over all kernels.

usage: compare.py GPU.csv STRATA.csv
"""
import csv
import math
import statistics
import sys


def medians(path):
    runs = {}
    with open(path) as f:
        rows = csv.DictReader(line for line in f if not line.startswith("#"))
        for row in rows:
            key = (row["program"], row["kernel"], row["size"])
            runs.setdefault(key, []).append(float(row["ms"]))
    return {key: statistics.median(v) for key, v in runs.items()}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    gpu, model = medians(sys.argv[1]), medians(sys.argv[2])
    keys = sorted(set(gpu) & set(model))
    missing = sorted(set(gpu) ^ set(model))
    print("| program | kernel | size | GPU (ms) | Strata (ms) | error |")
    print("|---|---|---|---|---|---|")
    errors = []
    for key in keys:
        g, m = gpu[key], model[key]
        err = m / g - 1 if g > 0 else float("nan")
        errors.append(err)
        print(f"| {key[0]} | {key[1]} | {key[2]} | {g:.4f} | {m:.4f} | {100 * err:+.1f}% |")
    if keys:
        mape = 100 * statistics.mean(abs(e) for e in errors)
        xs, ys = [gpu[k] for k in keys], [model[k] for k in keys]
        r = statistics.correlation(xs, ys) if len(keys) > 1 else float("nan")
        print(f"\nkernels: {len(keys)}, MAPE {mape:.1f}%, Pearson r {r:.3f}")
    for key in missing:
        print(f"only in one file: {key}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
