#!/usr/bin/env bash
# Regenerates sim_kernels.ptx from sim_kernels.cu with the toolkit's nvcc.
set -euo pipefail
cd "$(dirname "$0")"
/usr/local/cuda/bin/nvcc -ptx -arch=sm_80 -o sim_kernels.ptx sim_kernels.cu
