#!/usr/bin/env bash
# What activity collection costs when nothing collects: bench/api_overhead (host time per
# launch, small copy, event record and graph node) run against the libraries of the build
# (collection compiled in, no profiler attached) and against a second build of libcudart
# and libcuda configured with -DSTRATA_ACTIVITY=OFF (the hooks compiled out), runs
# interleaved; prints per operation the best (minimum) and the median of the runs'
# results for each variant and their ratios (docs/benchmarks.md, "Profiling hooks"). The
# simulator's threads share the machine with the measured thread, so single runs vary by
# tens of percent; STRATA_THREADS=1 (one simulator worker) and the minimum over many runs
# make the comparison steadier. Target: launch
# within 2% (best ratio <= 1.02).
#
# usage: bench/prof/run_overhead.sh [--build DIR] [--off-build DIR] [--rounds N]
#   --build DIR      the normal build tree (default: build; needs `ninja bench_api_overhead`)
#   --off-build DIR  where to configure and build the compiled-out libraries
#                    (default: build-noactivity)
#   --rounds N       interleaved runs of each variant (default: 7)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$root/build
off=$root/build-noactivity
rounds=7
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --off-build) off=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
type=$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$build/CMakeCache.txt")
launcher=()
if command -v ccache > /dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
ninja -C "$build" bench_api_overhead cudart cuda_driver hook_cost > /dev/null
cmake -S "$root" -B "$off" -G Ninja -DCMAKE_BUILD_TYPE="${type:-RelWithDebInfo}" \
  -DSTRATA_ACTIVITY=OFF "${launcher[@]}" > /dev/null
ninja -C "$off" cudart cuda_driver > /dev/null

app=$build/bench/api_overhead
libs() { echo "$1/lib:$1/src/cuda/driver"; }
run() {  # run VARIANT_BUILD -> "op ns" lines
  STRATA_THREADS=1 STRATA_ARCH_DIR=$root/arch STRATA_CACHE_DIR=$build/test-cache/bench_prof_overhead \
    LD_LIBRARY_PATH=$(libs "$1") "$app" | awk '/ns\/op/ {print $1, $2}'
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((i = 0; i < rounds; ++i)); do
  run "$build" >> "$tmp/on"
  run "$off" >> "$tmp/off"
done
"$build/bench/prof/hook_cost" | awk '/^hook_ns/ {print $2}' > "$tmp/hook"
python3 - "$tmp/on" "$tmp/off" "$tmp/hook" <<'PY'
import statistics, sys
def load(path):
    d = {}
    for line in open(path):
        op, ns = line.split()
        d.setdefault(op, []).append(float(ns))
    return d
on, off = load(sys.argv[1]), load(sys.argv[2])
print("activity hooks, nothing collecting, vs compiled out (%d runs each; ns/op)" % len(on["launch"]))
print("%-12s %10s %10s %8s   %10s %10s %8s" % ("operation", "hooks min", "out min", "ratio",
                                               "hooks med", "out med", "ratio"))
for op in on:
    if op == "baseline":
        continue
    a, b = min(on[op]), min(off[op])
    am, bm = statistics.median(on[op]), statistics.median(off[op])
    print("%-12s %10.0f %10.0f %8.3f   %10.0f %10.0f %8.3f" % (op, a, b, a / b, am, bm, am / bm))
# The hooks' own cost, measured in-process (hook_cost), set against a launch: about 8
# hooks per runtime launch (see hook_cost.cc).
hook = float(open(sys.argv[3]).read().split()[0])
launch = min(off["launch"])
print("hook_cost: %.2f ns per hook; 8 hooks per launch = %.1f ns = %.2f%% of a %.0f ns launch"
      % (hook, 8 * hook, 100.0 * 8 * hook / launch, launch))
PY
