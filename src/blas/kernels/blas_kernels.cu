// The library's kernel families, one `#include "<family>.cuh"` line each. The build
// (src/blas/CMakeLists.txt) compiles every family alone into its own fatbin, embedded in
// libcublasLt and JIT-compiled the first time one of its kernels is launched (kernels.h).
// This file is the list, not a translation unit.
#include "level1.cuh"
#include "level2.cuh"
#include "gemm.cuh"
#include "gemm_tc.cuh"
#include "extensions.cuh"
#include "trsm.cuh"
#include "gemm_lt.cuh"
#include "lt_reduce.cuh"
#include "lt_fp8.cuh"
#include "lt_fp8_tc.cuh"  // compute_89
#include "level3.cuh"
#include "lapack.cuh"
#include "lt_transform.cuh"
#include "packed.cuh"
