// Shared checks of the cuBLAS conformance programs: status checks, deterministic random
// data, and comparison against a host FP64 reference with the bound of issue 7:
// |err| <= 2 (k u_compute + u_out) (|alpha| |A| |B| + |beta| |C|), elementwise.
#pragma once

#include <cuComplex.h>
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CHECK_CUDA(call)                                                              \
  do {                                                                                \
    cudaError_t e_ = (call);                                                          \
    if (e_ != cudaSuccess) {                                                          \
      std::printf("FAIL %s:%d: %s -> %s\n", __FILE__, __LINE__, #call,                \
                  cudaGetErrorString(e_));                                            \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

#define CHECK_CUBLAS(call)                                                            \
  do {                                                                                \
    cublasStatus_t s_ = (call);                                                       \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                                \
      std::printf("FAIL %s:%d: %s -> %s\n", __FILE__, __LINE__, #call,                \
                  cublasGetStatusName(s_));                                           \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

// Expects `call` to return `status` exactly.
#define EXPECT_STATUS(call, status)                                                   \
  do {                                                                                \
    cublasStatus_t s_ = (call);                                                       \
    if (s_ != (status)) {                                                             \
      std::printf("FAIL %s:%d: %s -> %s, expected %s\n", __FILE__, __LINE__, #call,   \
                  cublasGetStatusName(s_), cublasGetStatusName(status));              \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

#define EXPECT_TRUE(cond, ...)                                                        \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      std::printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                     \
      std::printf(__VA_ARGS__);                                                       \
      std::printf("\n");                                                              \
      std::exit(1);                                                                   \
    }                                                                                 \
  } while (0)

namespace blas_check {

// Unit roundoff of a format (2^-p for p significand bits).
constexpr double kUnitF64 = 1.1102230246251565e-16;  // 2^-53
constexpr double kUnitF32 = 5.9604644775390625e-08;  // 2^-24
constexpr double kUnitTF32 = 4.8828125e-04;          // 2^-11
constexpr double kUnitF16 = 4.8828125e-04;           // 2^-11
constexpr double kUnitBF16 = 3.90625e-03;            // 2^-8

// Deterministic pseudo-random numbers (xorshift64*), uniform in [-1, 1).
struct Random {
  uint64_t state;
  explicit Random(uint64_t seed) : state(seed * 0x9E3779B97F4A7C15ull + 1) {}
  double next() {
    state ^= state >> 12, state ^= state << 25, state ^= state >> 27;
    const uint64_t r = state * 0x2545F4914F6CDD1Dull;
    return static_cast<double>(r >> 11) * (1.0 / 9007199254740992.0) * 2.0 - 1.0;
  }
  // Small integers in [-range, range]: exact in every format the tests use.
  double integer(int range) { return std::floor((next() + 1.0) * 0.5 * (2 * range + 1)) - range; }
};

// Element conversions between the test's FP64 values and the device types.
inline double real_of(float v) { return v; }
inline double real_of(double v) { return v; }
inline std::complex<double> complex_of(cuComplex v) { return {v.x, v.y}; }
inline std::complex<double> complex_of(cuDoubleComplex v) { return {v.x, v.y}; }

// The bound of issue 7 for one element: 2 (k u_compute + u_out) * magnitude, where
// magnitude = |alpha| sum |a||b| + |beta| |c| (computed by the caller).
inline double gemm_bound(int64_t k, double u_compute, double u_out, double magnitude) {
  return 2.0 * (static_cast<double>(k) * u_compute + u_out) * magnitude;
}

}  // namespace blas_check
