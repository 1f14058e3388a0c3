#!/usr/bin/env bash
# What activity collection costs when nothing collects: bench/api_overhead (host time per
# launch, small copy, event record and graph node) run against the libraries of the build
# (collection compiled in, no profiler attached) and against a second build of libcudart
# and libcuda configured with -DSTRATA_ACTIVITY=OFF (the hooks compiled out), runs
# interleaved; prints per operation the medians and their ratio (docs/benchmarks.md,
# "Profiling hooks"). Target: launch within 2% (ratio <= 1.02).
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
ninja -C "$build" bench_api_overhead cudart cuda_driver > /dev/null
cmake -S "$root" -B "$off" -G Ninja -DCMAKE_BUILD_TYPE="${type:-RelWithDebInfo}" \
  -DSTRATA_ACTIVITY=OFF "${launcher[@]}" > /dev/null
ninja -C "$off" cudart cuda_driver > /dev/null

app=$build/bench/api_overhead
libs() { echo "$1/lib:$1/src/cuda/driver"; }
run() {  # run VARIANT_BUILD -> "op ns" lines
  STRATA_ARCH_DIR=$root/arch STRATA_CACHE_DIR=$build/test-cache/bench_prof_overhead \
    LD_LIBRARY_PATH=$(libs "$1") "$app" | awk '/ns\/op/ {print $1, $2}'
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((i = 0; i < rounds; ++i)); do
  run "$build" >> "$tmp/on"
  run "$off" >> "$tmp/off"
done
python3 - "$tmp/on" "$tmp/off" <<'PY'
import statistics, sys
def load(path):
    d = {}
    for line in open(path):
        op, ns = line.split()
        d.setdefault(op, []).append(float(ns))
    return d
on, off = load(sys.argv[1]), load(sys.argv[2])
print("activity hooks, nothing collecting, vs compiled out (median of %d runs each)" % len(on["launch"]))
print("%-12s %14s %14s %8s" % ("operation", "hooks (ns/op)", "out (ns/op)", "ratio"))
for op in on:
    if op == "baseline":
        continue
    a, b = statistics.median(on[op]), statistics.median(off[op])
    print("%-12s %14.0f %14.0f %8.3f" % (op, a, b, a / b))
PY
