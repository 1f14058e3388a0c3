// Shared pieces of the Level-1 conformance programs: element traits, strided vectors on
// the host and device, and typed wrappers choosing the LP64 or `_64` entry point.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <vector>

#include "blas_check.h"

namespace level1 {

using cd = std::complex<double>;
using blas_check::Random;

template <typename T>
struct Elem;
template <>
struct Elem<float> {
  using Real = float;
  static constexpr bool kComplex = false;
  static constexpr double kUnit = blas_check::kUnitF32;
  static constexpr cudaDataType kType = CUDA_R_32F;
  static const char* name() { return "S"; }
  static cd value(float v) { return {v, 0.0}; }
  static float make(cd v) { return static_cast<float>(v.real()); }
};
template <>
struct Elem<double> {
  using Real = double;
  static constexpr bool kComplex = false;
  static constexpr double kUnit = blas_check::kUnitF64;
  static constexpr cudaDataType kType = CUDA_R_64F;
  static const char* name() { return "D"; }
  static cd value(double v) { return {v, 0.0}; }
  static double make(cd v) { return v.real(); }
};
template <>
struct Elem<cuComplex> {
  using Real = float;
  static constexpr bool kComplex = true;
  static constexpr double kUnit = blas_check::kUnitF32;
  static constexpr cudaDataType kType = CUDA_C_32F;
  static const char* name() { return "C"; }
  static cd value(cuComplex v) { return {v.x, v.y}; }
  static cuComplex make(cd v) {
    return make_cuComplex(static_cast<float>(v.real()), static_cast<float>(v.imag()));
  }
};
template <>
struct Elem<cuDoubleComplex> {
  using Real = double;
  static constexpr bool kComplex = true;
  static constexpr double kUnit = blas_check::kUnitF64;
  static constexpr cudaDataType kType = CUDA_C_64F;
  static const char* name() { return "Z"; }
  static cd value(cuDoubleComplex v) { return {v.x, v.y}; }
  static cuDoubleComplex make(cd v) { return make_cuDoubleComplex(v.real(), v.imag()); }
};
template <>
struct Elem<__half> {
  using Real = __half;
  static constexpr bool kComplex = false;
  static constexpr double kUnit = blas_check::kUnitF16;
  static constexpr cudaDataType kType = CUDA_R_16F;
  static const char* name() { return "H"; }
  static cd value(__half v) { return {__half2float(v), 0.0}; }
  static __half make(cd v) { return __float2half(static_cast<float>(v.real())); }
};
template <>
struct Elem<__nv_bfloat16> {
  using Real = __nv_bfloat16;
  static constexpr bool kComplex = false;
  static constexpr double kUnit = blas_check::kUnitBF16;
  static constexpr cudaDataType kType = CUDA_R_16BF;
  static const char* name() { return "B"; }
  static cd value(__nv_bfloat16 v) { return {__bfloat162float(v), 0.0}; }
  static __nv_bfloat16 make(cd v) { return __float2bfloat16(static_cast<float>(v.real())); }
};

// Storage index of logical element i of an n-element vector with increment inc (BLAS
// starts a negative-increment vector at its far end).
inline int64_t at(int64_t i, int64_t n, int64_t inc) {
  return inc >= 0 ? i * inc : (n - 1 - i) * -inc;
}
inline size_t storage(int64_t n, int64_t inc) {
  return n <= 0 ? 1 : static_cast<size_t>((n - 1) * std::llabs(inc) + 1);
}

// Random values: uniform in [-1, 1) (both parts when complex), or small integers.
template <typename T>
std::vector<T> random_vector(size_t size, Random& rng, int integer_range = 0) {
  std::vector<T> v(size);
  for (auto& e : v) {
    const double re = integer_range > 0 ? rng.integer(integer_range) : rng.next();
    const double im = integer_range > 0 ? rng.integer(integer_range) : rng.next();
    e = Elem<T>::make(cd(re, Elem<T>::kComplex ? im : 0.0));
  }
  return v;
}

// A device copy of a host vector, freed with the object.
template <typename T>
struct Device {
  T* ptr = nullptr;
  size_t size = 0;
  explicit Device(const std::vector<T>& host) : size(host.size()) {
    CHECK_CUDA(cudaMalloc(&ptr, std::max<size_t>(size, 1) * sizeof(T)));
    if (size > 0)
      CHECK_CUDA(cudaMemcpy(ptr, host.data(), size * sizeof(T), cudaMemcpyHostToDevice));
  }
  explicit Device(size_t n) : size(n) {
    CHECK_CUDA(cudaMalloc(&ptr, std::max<size_t>(n, 1) * sizeof(T)));
  }
  ~Device() { cudaFree(ptr); }
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;
  std::vector<T> get() const {
    std::vector<T> host(size);
    if (size > 0)
      CHECK_CUDA(cudaMemcpy(host.data(), ptr, size * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }
  T one() const {
    T v;
    CHECK_CUDA(cudaMemcpy(&v, ptr, sizeof(T), cudaMemcpyDeviceToHost));
    return v;
  }
  void set_one(T v) { CHECK_CUDA(cudaMemcpy(ptr, &v, sizeof(T), cudaMemcpyHostToDevice)); }
};

// Fills `bytes` of `p` with a NaN pattern (0xff bytes) so that stale values show.
inline void poison(void* p, size_t bytes) {
  std::memset(p, 0xff, bytes);
}

inline bool same_bits(const void* a, const void* b, size_t bytes) {
  return std::memcmp(a, b, bytes) == 0;
}

}  // namespace level1
