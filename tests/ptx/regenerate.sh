#!/bin/sh
# Regenerates tests/ptx/golden/*.ptx from tests/ptx/src/*.cu with the CUDA toolkit.
# The golden files are checked in so the tests run without a toolkit; rerun this script
# (and review the diff) after changing a source or upgrading nvcc.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
src=$here/src
out=$here/golden
mkdir -p "$out"
gen() {  # gen <output name> <source> <arch> [nvcc options...]
  name=$1; file=$2; arch=$3; shift 3
  # Relative source names keep machine paths out of .file directives.
  (cd "$src" && "$nvcc" -ptx -arch="$arch" "$@" -o "$out/$name.ptx" "$file")
}
gen basic basic.cu sm_80
gen memory memory.cu sm_80
gen calls calls.cu sm_80
gen warp warp.cu sm_80
gen texture texture.cu sm_80
gen rdc_a rdc_a.cu sm_80 -rdc=true
gen rdc_b rdc_b.cu sm_80 -rdc=true
gen debug_lineinfo debug.cu sm_80 -lineinfo
gen debug_g debug.cu sm_80 -G
gen basic_sm90 basic.cu sm_90
