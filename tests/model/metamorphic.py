#!/usr/bin/env python3
"""Metamorphic tests of the timing model: run one CUDA program under an architecture
config and under a derived config with one field changed, and check how the modeled
kernel times (the program's `KERNEL_MS <kernel> <ms>` lines, CUDA event elapsed time on
the modeled clock) must relate. These are properties of any sane model, not values
taken from Strata; they fail when the model violates them.

usage: metamorphic.py --strata STRATA --program PROG --arch BASE.toml --workdir DIR
                      (--relation NAME ... | --all) [--table]

Relations (issue 5, item 8):
  dram_fma     doubling DRAM bandwidth changes an FMA-bound kernel by < 1%
  sm_compute   doubling the SMs halves a large compute-bound grid, within 5%
  clock_compute doubling the core clock halves a compute-bound kernel, within 5%
  dram_stream  doubling DRAM bandwidth speeds a streaming kernel by > 1.5x
  sm_small     doubling the SMs leaves a grid of fewer CTAs than SMs unchanged (< 1%)
The derived configs are written into --workdir from --arch with one field doubled. Runs
use STRATA_HOST_TIME=none so that the times are reproducible.
"""
import argparse
import os
import re
import subprocess
import sys

# name: (field to double, kernel, check(base_ms, derived_ms) -> (ok, what it says))
RELATIONS = {
    "dram_fma": ("memory_clock_mhz", "fma_bound",
                 lambda t1, t2: (abs(t2 / t1 - 1) < 0.01,
                                 f"2x DRAM bandwidth: fma_bound {t1:.6g} -> {t2:.6g} ms "
                                 f"({100 * (t2 / t1 - 1):+.3f}%, must stay within 1%)")),
    "sm_compute": ("sm_count", "fma_bound",
                   lambda t1, t2: (abs(t2 / (t1 / 2) - 1) < 0.05,
                                   f"2x SMs: fma_bound {t1:.6g} -> {t2:.6g} ms "
                                   f"(speed-up {t1 / t2:.4f}x, must be 2x within 5%)")),
    "clock_compute": ("core_clock_mhz", "fma_bound",
                      lambda t1, t2: (abs(t2 / (t1 / 2) - 1) < 0.05,
                                      f"2x core clock: fma_bound {t1:.6g} -> {t2:.6g} ms "
                                      f"(speed-up {t1 / t2:.4f}x, must be 2x within 5%)")),
    "sm_small": ("sm_count", "fma_small",
                 lambda t1, t2: (abs(t2 / t1 - 1) < 0.01,
                                 f"2x SMs: fma_small (16 CTAs) {t1:.6g} -> {t2:.6g} ms "
                                 f"({100 * (t2 / t1 - 1):+.3f}%, must stay within 1%)")),
    "dram_stream": ("memory_clock_mhz", "stream",
                    lambda t1, t2: (t1 / t2 > 1.5,
                                    f"2x DRAM bandwidth: stream {t1:.6g} -> {t2:.6g} ms "
                                    f"(speed-up {t1 / t2:.4f}x, must exceed 1.5x)")),
}


def derive(base_path, field, workdir):
    """Writes BASE with `field` doubled into workdir; returns the new path."""
    with open(base_path) as f:
        text = f.read()
    pattern = re.compile(r"^(\s*" + re.escape(field) + r"\s*=\s*)(\d+)(.*)$", re.M)
    match = pattern.search(text)
    if not match:
        raise SystemExit(f"{base_path}: no integer field '{field}'")
    doubled = int(match.group(2)) * 2
    text = pattern.sub(lambda m: f"{m.group(1)}{doubled}{m.group(3)} (doubled by metamorphic.py)",
                       text, count=1)
    name = os.path.splitext(os.path.basename(base_path))[0]
    path = os.path.join(workdir, f"{name}-{field}-x2.toml")
    with open(path, "w") as f:
        f.write(text)
    return path


def run(strata, program, arch, cache):
    env = dict(os.environ, STRATA_ARCH=arch, STRATA_HOST_TIME="none", STRATA_CACHE_DIR=cache)
    proc = subprocess.run([strata, "run", program], env=env, capture_output=True, text=True,
                          timeout=600)
    if proc.returncode != 0 or "PASS metamorphic" not in proc.stdout:
        sys.stdout.write(proc.stdout + proc.stderr)
        raise SystemExit(f"FAIL: {program} under {arch} exited {proc.returncode}")
    times = {}
    for line in proc.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "KERNEL_MS":
            times[parts[1]] = float(parts[2])
    return times


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--strata", required=True)
    parser.add_argument("--program", required=True)
    parser.add_argument("--arch", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--relation", action="append", default=[])
    parser.add_argument("--all", action="store_true")
    parser.add_argument("--table", action="store_true", help="print a markdown table row each")
    args = parser.parse_args()
    names = list(RELATIONS) if args.all else args.relation
    if not names:
        parser.error("name a --relation or --all")
    os.makedirs(args.workdir, exist_ok=True)
    cache = os.path.join(args.workdir, "cache")
    base = run(args.strata, args.program, args.arch, cache)
    derived_runs = {}
    failures = 0
    if args.table:
        print("| relation | base (ms) | derived (ms) | ratio base/derived | required | result |")
        print("|---|---|---|---|---|---|")
    for name in names:
        field, kernel, check = RELATIONS[name]
        if field not in derived_runs:
            derived_runs[field] = run(args.strata, args.program,
                                      derive(args.arch, field, args.workdir), cache)
        t1, t2 = base.get(kernel), derived_runs[field].get(kernel)
        if t1 is None or t2 is None or t1 <= 0 or t2 <= 0:
            print(f"FAIL {name}: no positive time for {kernel} ({t1}, {t2})")
            failures += 1
            continue
        ok, text = check(t1, t2)
        if args.table:
            required = {"dram_fma": "1 within 1%", "sm_compute": "2 within 5%",
                        "clock_compute": "2 within 5%", "dram_stream": "> 1.5",
                        "sm_small": "1 within 1%"}[name]
            print(f"| {name}: 2x {field}, {kernel} | {t1:.6g} | {t2:.6g} | {t1 / t2:.4f} | "
                  f"{required} | {'pass' if ok else 'FAIL'} |")
        else:
            print(("PASS " if ok else "FAIL ") + f"{name}: {text}")
        failures += 0 if ok else 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
