#!/usr/bin/env bash
# Configures and builds Strata into build/ (or $STRATA_BUILD_DIR).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${STRATA_BUILD_DIR:-$top/build}
"$top/scripts/install_deps.sh"
if [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "strata: the CUDA 13 toolkit (nvcc) is required at /usr/local/cuda" >&2
  exit 1
fi
jobs=${STRATA_JOBS:-$(nproc)}
cmake -S "$top" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build "$build" -j "$jobs"
