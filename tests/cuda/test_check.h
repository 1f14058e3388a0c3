// Helpers shared by the CUDA test programs: check a CUDA call, report the result.
#pragma once

#include <cstdio>
#include <cstdlib>

#define CHECK_CUDA(call)                                                           \
  do {                                                                             \
    cudaError_t check_cuda_error_ = (call);                                        \
    if (check_cuda_error_ != cudaSuccess) {                                        \
      std::printf("FAIL %s:%d: %s -> %s (%s)\n", __FILE__, __LINE__, #call,        \
                  cudaGetErrorName(check_cuda_error_),                             \
                  cudaGetErrorString(check_cuda_error_));                          \
      std::exit(1);                                                                \
    }                                                                              \
  } while (0)

#define EXPECT_TRUE(cond, ...)                                                     \
  do {                                                                             \
    if (!(cond)) {                                                                 \
      std::printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                  \
      std::printf(__VA_ARGS__);                                                    \
      std::printf("\n");                                                           \
      std::exit(1);                                                                \
    }                                                                              \
  } while (0)
