#!/usr/bin/env bash
# README command 1: builds Strata, then runs an unmodified CUDA program (built by
# `nvcc -cudart shared`) on the simulated Strata GPU and prints a device summary.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${STRATA_BUILD_DIR:-$top/build}
"$top/scripts/build.sh"
strata="$build/src/tools/strata"
"$strata" info --summary
"$strata" run "$build/tests/cuda/vector_add"
