// Grid-stride loops whose threads run different numbers of inner iterations, a shape
// nvcc unswitches and rotates into branches that share one join: a banded
// matrix-vector product (per-row bounds, loop-invariant storage modes) and a
// (value, index) arg-max whose merge returns early, finished by a __syncthreads tree
// reduction. Checked against host references.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "test_check.h"

// A scalar given by value or through a device pointer (as cuBLAS passes alpha, beta).
struct Scalar {
  float value;
  const float* ptr;
  __device__ float get() const { return ptr != nullptr ? *ptr : value; }
};

// y = alpha * op(A) * x + beta * y for a general or symmetric matrix stored full
// (column-major), packed (a triangle, column by column) or banded; one row per thread.
struct MatvecArgs {
  int symmetric, storage, transposed, upper;  // storage: 0 full, 1 packed, 2 band
  int64_t m, n, kl, ku, lda, batch;
  Scalar alpha, beta;
  const float* a;
  const float* x;
  int64_t incx;
  float* y;
  float* const* y_array;  // per batch entry, or null: y + b * rows
};

struct Layout {
  int64_t column, packed, offset;
};

__host__ __device__ Layout layout_of(const MatvecArgs& p, int64_t band_offset) {
  if (p.storage == 1) return p.upper ? Layout{0, 1, 0} : Layout{p.n, -1, 0};
  if (p.storage == 2) return Layout{p.lda - 1, 0, band_offset};
  return Layout{p.lda, 0, 0};
}

__host__ __device__ int64_t element(const Layout& l, int64_t r, int64_t c) {
  return r + c * l.column + l.packed * (c * (c + 1) / 2) + l.offset;
}

// x[j] of a strided vector of n elements (a negative increment starts at the far end).
__host__ __device__ int64_t vector_offset(int64_t j, int64_t n, int64_t inc) {
  return inc >= 0 ? j * inc : (n - 1 - j) * -inc;
}

__host__ __device__ void bounds(const MatvecArgs& p, int64_t* rows, int64_t* cols, int64_t* below,
                                int64_t* above) {
  const bool general = !p.symmetric;
  *rows = general && !p.transposed ? p.m : p.n;
  *cols = general && !p.transposed ? p.n : p.m;
  *below = *above = *rows + *cols;
  if (p.storage == 2) {
    *below = general && !p.transposed ? p.kl : p.ku;
    *above = general && !p.transposed ? p.ku : p.kl;
  }
}

__host__ __device__ float a_at(const MatvecArgs& p, const Layout& layout, int64_t i, int64_t j) {
  const bool stored = p.upper ? i <= j : i >= j;
  const bool swap = !p.symmetric ? p.transposed != 0 : !stored;
  return p.a[element(layout, swap ? j : i, swap ? i : j)];
}

__global__ void matvec(MatvecArgs p) {
  const float alpha = p.alpha.get();
  const float beta = p.beta.get();
  int64_t rows, cols, below, above;
  bounds(p, &rows, &cols, &below, &above);
  const Layout layout = layout_of(p, !p.symmetric || p.upper ? p.ku : 0);
  for (int64_t b = blockIdx.y; b < p.batch; b += gridDim.y) {
    float* y = p.y_array != nullptr ? p.y_array[b] : p.y + b * rows;
    for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < rows;
         i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
      float acc = 0.0f;
      const int64_t lo = i - below > 0 ? i - below : 0;
      const int64_t hi = alpha == 0.0f ? lo - 1 : (i + above < cols - 1 ? i + above : cols - 1);
#pragma unroll 1
      for (int64_t j = lo; j <= hi; ++j)
        acc = fmaf(a_at(p, layout, i, j), p.x[vector_offset(j, cols, p.incx)], acc);
      y[i] = beta == 0.0f ? alpha * acc : fmaf(alpha, acc, beta * y[i]);
    }
  }
}

struct Best {
  float value;
  int64_t index;
};

// The larger |value|, the smaller index on ties; an index >= n marks "none".
__device__ Best merge(Best a, Best b, int64_t n) {
  if (a.index >= n) return b;
  if (b.index >= n) return a;
  if (b.value > a.value) return b;
  if (b.value == a.value && b.index < a.index) return b;
  return a;
}

__global__ void arg_max(int64_t n, const float* x, int64_t inc, Best* out) {
  __shared__ Best shared[256];
  Best best{0.0f, n};
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x)
    best = merge(best, Best{fabsf(x[i * inc]), i}, n);
  shared[threadIdx.x] = best;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s)
      shared[threadIdx.x] = merge(shared[threadIdx.x], shared[threadIdx.x + s], n);
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = shared[0];
}

void check_matvec(float* a, float* x, float* y) {
  for (int symmetric = 0; symmetric < 2; ++symmetric)
    for (int storage = 0; storage < 3; ++storage)
      for (int transposed = 0; transposed < 2; ++transposed)
        for (int upper = 0; upper < 2; ++upper) {
          if (!symmetric && storage == 1) continue;  // packed storage is for symmetric matrices
          MatvecArgs p{};
          p.symmetric = symmetric;
          p.storage = storage;
          p.transposed = symmetric ? 0 : transposed;
          p.upper = upper;
          p.m = symmetric ? 41 : 37;
          p.n = symmetric ? 41 : 29;
          p.kl = storage == 2 ? (symmetric ? 4 : 3) : 0;
          p.ku = storage == 2 ? (symmetric ? 4 : 6) : 0;
          p.lda = storage == 2 ? 12 : 41;
          p.batch = 1;
          p.alpha = {1.0f, nullptr};
          p.beta = {0.5f, nullptr};
          p.a = a;
          p.x = x;
          p.incx = transposed ? -2 : 1;
          p.y = y;
          int64_t rows, cols, below, above;
          bounds(p, &rows, &cols, &below, &above);
          std::vector<float> want(rows);
          const Layout layout = layout_of(p, !p.symmetric || p.upper ? p.ku : 0);
          for (int64_t i = 0; i < rows; ++i) {
            y[i] = static_cast<float>(i % 3);
            float acc = 0.0f;
            for (int64_t j = std::max<int64_t>(i - below, 0); j <= std::min(i + above, cols - 1);
                 ++j)
              acc = fmaf(a_at(p, layout, i, j), x[vector_offset(j, cols, p.incx)], acc);
            want[i] = fmaf(1.0f, acc, 0.5f * y[i]);
          }
          matvec<<<1, 128>>>(p);
          CHECK_CUDA(cudaGetLastError());
          CHECK_CUDA(cudaDeviceSynchronize());
          for (int64_t i = 0; i < rows; ++i)
            EXPECT_TRUE(y[i] == want[i],
                        "symmetric %d storage %d transposed %d upper %d: y[%lld] = %g, expected %g",
                        symmetric, storage, transposed, upper, static_cast<long long>(i), y[i],
                        want[i]);
        }
}

void check_arg_max(float* x, Best* out) {
  for (int seed = 1; seed <= 8; ++seed)
    for (int64_t n : {1, 37, 300, 1000}) {
      const int64_t inc = 2;
      for (int64_t k = 0; k < 2048; ++k)
        x[k] = static_cast<float>(((k * 7919 + seed) * 2654435761LL >> 7) % 41 - 20);
      arg_max<<<1, 256>>>(n, x, inc, out);
      CHECK_CUDA(cudaGetLastError());
      CHECK_CUDA(cudaDeviceSynchronize());
      int64_t want = 0;
      for (int64_t i = 1; i < n; ++i)
        if (std::abs(x[i * inc]) > std::abs(x[want * inc])) want = i;
      EXPECT_TRUE(out->index == want && out->value == std::abs(x[want * inc]),
                  "seed %d n %lld: got (%g, %lld), expected (%g, %lld)", seed,
                  static_cast<long long>(n), out->value, static_cast<long long>(out->index),
                  std::abs(x[want * inc]), static_cast<long long>(want));
    }
}

int main() {
  float *a, *x, *y;
  Best* best;
  CHECK_CUDA(cudaMallocManaged(&a, 64 * 64 * sizeof(float)));
  CHECK_CUDA(cudaMallocManaged(&x, 2048 * sizeof(float)));
  CHECK_CUDA(cudaMallocManaged(&y, 64 * sizeof(float)));
  CHECK_CUDA(cudaMallocManaged(&best, sizeof(Best)));
  for (int k = 0; k < 64 * 64; ++k) a[k] = static_cast<float>(k % 7 - 3);
  for (int k = 0; k < 2048; ++k) x[k] = static_cast<float>(k % 5 + 1);
  check_matvec(a, x, y);
  check_arg_max(x, best);
  std::printf("PASS divergent_grid_stride\n");
  return 0;
}
