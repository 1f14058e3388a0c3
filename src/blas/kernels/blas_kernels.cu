// The one translation unit nvcc compiles into the library's fatbin (src/blas/CMakeLists.txt):
// every kernel family's header.
#include "level1.cuh"
#include "level2.cuh"
#include "gemm.cuh"
#include "extensions.cuh"
#include "trsm.cuh"
#include "gemm_lt.cuh"
