#!/usr/bin/env bash
# Builds and runs the accuracy set (bench/accuracy/acc_*.cu) and writes one CSV of
# per-kernel CUDA event times: on an NVIDIA GPU as is, under Strata with --strata.
#
# usage: bench/accuracy/run_accuracy.sh --out FILE.csv [--strata PATH/TO/strata]
#                                       [--runs N] [--quick]
#   --strata  run each program with `strata run` (STRATA_HOST_TIME=none; STRATA_ARCH
#             from the environment, default strata-g1); without it, run natively
#   --runs    timed launches per kernel (default 5; 1 is enough under Strata, whose
#             modeled times are deterministic)
# Compare two such files with bench/accuracy/compare.py (docs/perf-model.md, "Accuracy").
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=
strata=
runs=5
quick=
while [ $# -gt 0 ]; do
  case $1 in
    --out) out=$2; shift 2 ;;
    --strata) strata=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --quick) quick=--quick; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
[ -n "$out" ] || { echo "usage: $0 --out FILE.csv [--strata STRATA] [--runs N] [--quick]" >&2; exit 2; }
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
: >"$out"
for name in copy gemm reduce transpose stencil attention; do
  "$nvcc" -arch=sm_80 -cudart shared -O2 -I"$here" -I"$root/tests/cuda" -o "$bin/acc_$name" "$here/acc_$name.cu"
  if [ -n "$strata" ]; then
    STRATA_HOST_TIME=none "$strata" run "$bin/acc_$name" --runs "$runs" $quick >"$bin/$name.txt"
  else
    "$bin/acc_$name" --runs "$runs" $quick >"$bin/$name.txt"
  fi
  grep -q "^PASS $name" "$bin/$name.txt" || { cat "$bin/$name.txt" >&2; echo "acc_$name failed" >&2; exit 1; }
  # Header lines (# ...) of the first program only, then the CSV rows.
  if [ ! -s "$out" ]; then grep '^#' "$bin/$name.txt" >>"$out"; echo "program,kernel,size,run,ms" >>"$out"; fi
  grep -v '^#\|^PASS\|^program,' "$bin/$name.txt" >>"$out"
done
echo "wrote $out"
