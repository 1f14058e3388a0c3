// The problem a Level-3 kernel (kernels/level3.cuh) computes, shared by the host code that
// launches it (api_level3.cc) and the kernels so both agree on its layout:
//   C = alpha * opA(m x k) * opB(k x n) + beta * C, only the `fill` triangle of C written,
// where each operand is read from a stored matrix as a general op(X), the full symmetric
// or Hermitian matrix of one stored triangle, or a triangular op(X) (L3Kind). syrk /
// herk / syrkx / herkx are one launch, syr2k / her2k two (the second with conj_alpha
// and beta_one), symm / hemm / trmm one.
#pragma once

#include <cstdint>

namespace strata_blas {

enum L3Kind : int32_t {
  kL3General = 0,     // op(X): X column-major, op N / T / C
  kL3Symmetric = 1,   // X(i, j) = X(j, i), only the `lower` triangle stored
  kL3Hermitian = 2,   // X(i, j) = conj(X(j, i)), diagonal real (imaginary parts not read)
  kL3Triangular = 3,  // op(X), X triangular in `lower`, diagonal 1 when `unit` (not read)
};

// Fill of C: which elements are written.
enum L3Fill : int32_t { kL3FillFull = 0, kL3FillLower = 1, kL3FillUpper = 2 };

struct L3Operand {
  const void* p;
  int64_t ld;
  int32_t op;    // cublasOperation_t: 0 N, 1 T, 2 C (general and triangular kinds)
  int32_t kind;  // L3Kind
  int32_t lower;
  int32_t unit;
};

struct L3Params {
  int64_t m, n, k;
  L3Operand a, b;
  void* c;
  int64_t ldc;
  int32_t fill;        // L3Fill
  int32_t herm_diag;   // 1: the imaginary parts of C's diagonal are set to zero (herk...)
  int32_t alpha_real;  // 1: a device alpha points at the real type (herk)
  int32_t beta_real;   // 1: a device beta points at the real type (herk, herkx, her2k)
  int32_t conj_alpha;  // 1: use conj(alpha) (her2k's second product)
  int32_t beta_one;    // 1: beta is 1 whatever was passed (syr2k / her2k's second product)
};

// alpha or beta: with a null ptr, `value` (read on the host); else the kernel reads *ptr,
// of the real type when the params say so.
template <typename T>
struct L3Scalar {
  T value;
  const void* ptr;
};

}  // namespace strata_blas
