// GEMMs on the tensor cores through the CUDA wmma API (<mma.h>): half, bf16, tf32, u8/s8
// and double multiplicands, every wmma shape, row- and column-major operands, tiles
// staged through shared memory, and element-wise work on accumulator fragments
// (D = alpha * A * B + beta * C). Inputs are small integers, so every product and sum is
// exact in each accumulator type and the result must equal the host reference exactly.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <cstdint>
#include <vector>

#include "test_check.h"

using namespace nvcuda;

constexpr int kM = 64, kN = 64, kK = 64;

template <typename T>
__device__ T from_int(int v);
template <>
__device__ half from_int<half>(int v) {
  return __int2half_rn(v);
}
template <>
__device__ __nv_bfloat16 from_int<__nv_bfloat16>(int v) {
  return __int2bfloat16_rn(v);
}
template <>
__device__ signed char from_int<signed char>(int v) {
  return static_cast<signed char>(v);
}
template <>
__device__ unsigned char from_int<unsigned char>(int v) {
  return static_cast<unsigned char>(v);
}
template <>
__device__ double from_int<double>(int v) {
  return v;
}

// One warp per M x N tile of D. A is row-major (kM x kK), B column-major (kK x kN), C and
// D row-major (kM x kN). Each k-step stages the A and B tiles in shared memory with a
// padded leading dimension. The inputs are converted on the device from int.
template <typename In, typename Frag, typename Acc, int M, int N, int K>
__global__ void wmma_gemm(const int* a, const int* b, const Acc* c, Acc* d, Acc alpha, Acc beta) {
  constexpr int kLdA = K + 32 / static_cast<int>(sizeof(In)),
                kLdB = kLdA;  // rows stay 16-byte aligned
  __shared__ __align__(32) In as[M * kLdA];
  __shared__ __align__(32) In bs[N * kLdB];
  const int tile_m = blockIdx.y * M, tile_n = blockIdx.x * N, lane = threadIdx.x;
  wmma::fragment<wmma::matrix_a, M, N, K, Frag, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, Frag, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, M, N, K, Acc> acc, fc;
  wmma::fill_fragment(acc, Acc(0));
  for (int k0 = 0; k0 < kK; k0 += K) {
    for (int i = lane; i < M * K; i += 32)
      as[(i / K) * kLdA + i % K] = from_int<In>(a[(tile_m + i / K) * kK + k0 + i % K]);
    for (int i = lane; i < N * K; i += 32)
      bs[(i / K) * kLdB + i % K] = from_int<In>(b[(tile_n + i / K) * kK + k0 + i % K]);
    __syncwarp();
    wmma::load_matrix_sync(fa, as, kLdA);
    wmma::load_matrix_sync(fb, bs, kLdB);
    wmma::mma_sync(acc, fa, fb, acc);
    __syncwarp();
  }
  wmma::load_matrix_sync(fc, c + tile_m * kN + tile_n, kN, wmma::mem_row_major);
  for (int i = 0; i < acc.num_elements; ++i) acc.x[i] = alpha * acc.x[i] + beta * fc.x[i];
  wmma::store_matrix_sync(d + tile_m * kN + tile_n, acc, kN, wmma::mem_row_major);
}

// tf32: A and B are float in global memory, rounded to tf32 in the fragments.
template <int M, int N, int K>
__global__ void wmma_gemm_tf32(const float* a, const float* b, float* d) {
  const int tile_m = blockIdx.y * M, tile_n = blockIdx.x * N;
  wmma::fragment<wmma::matrix_a, M, N, K, wmma::precision::tf32, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, wmma::precision::tf32, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, M, N, K, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k0 = 0; k0 < kK; k0 += K) {
    wmma::load_matrix_sync(fa, a + tile_m * kK + k0, kK);
    wmma::load_matrix_sync(fb, b + tile_n * kK + k0, kK);
    for (int i = 0; i < fa.num_elements; ++i) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
    for (int i = 0; i < fb.num_elements; ++i) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  // Column-major store: D^T in memory.
  wmma::store_matrix_sync(d + tile_n * kM + tile_m, acc, kM, wmma::mem_col_major);
}

struct Inputs {
  std::vector<int> a, b;  // a: kM x kK row-major; b: kN x kK (B column-major)
};

Inputs make_inputs(int lo, int hi, unsigned seed) {
  Inputs in;
  in.a.resize(kM * kK);
  in.b.resize(kN * kK);
  unsigned s = seed;
  auto next = [&]() {
    s = s * 1664525u + 1013904223u;
    return lo + static_cast<int>((s >> 8) % static_cast<unsigned>(hi - lo + 1));
  };
  for (int& v : in.a) v = next();
  for (int& v : in.b) v = next();
  return in;
}

double to_double(half v) {
  return __half2float(v);
}
double to_double(float v) {
  return v;
}
double to_double(double v) {
  return v;
}
double to_double(int v) {
  return v;
}
template <typename T>
T from_double(double v) {
  return static_cast<T>(v);
}
template <>
half from_double<half>(double v) {
  return __float2half(static_cast<float>(v));
}

// Host reference: D[i][j] = alpha * sum_k A[i][k] * B[k][j] + beta * C[i][j] (exact).
std::vector<double> reference(const Inputs& in, const std::vector<double>& c, double alpha,
                              double beta) {
  std::vector<double> d(kM * kN);
  for (int i = 0; i < kM; ++i)
    for (int j = 0; j < kN; ++j) {
      long long s = 0;
      for (int k = 0; k < kK; ++k) s += static_cast<long long>(in.a[i * kK + k]) * in.b[j * kK + k];
      d[i * kN + j] = alpha * static_cast<double>(s) + beta * c[i * kN + j];
    }
  return d;
}

template <typename In, typename Frag, typename Acc, int M, int N, int K>
void run(const char* what, int lo, int hi, unsigned seed) {
  Inputs in = make_inputs(lo, hi, seed);
  std::vector<double> c_host(kM * kN);
  std::vector<Acc> c(kM * kN);
  for (int i = 0; i < kM * kN; ++i) c[i] = from_double<Acc>(c_host[i] = (i * 7) % 13 - 6);
  const Acc alpha = from_double<Acc>(2), beta = from_double<Acc>(-1);
  int *da, *db;
  Acc *dc, *dd;
  CHECK_CUDA(cudaMalloc(&da, in.a.size() * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&db, in.b.size() * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&dc, c.size() * sizeof(Acc)));
  CHECK_CUDA(cudaMalloc(&dd, c.size() * sizeof(Acc)));
  CHECK_CUDA(cudaMemcpy(da, in.a.data(), in.a.size() * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, in.b.data(), in.b.size() * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dc, c.data(), c.size() * sizeof(Acc), cudaMemcpyHostToDevice));
  wmma_gemm<In, Frag, Acc, M, N, K><<<dim3(kN / N, kM / M), 32>>>(da, db, dc, dd, alpha, beta);
  CHECK_CUDA(cudaGetLastError());
  std::vector<Acc> got(c.size());
  CHECK_CUDA(cudaMemcpy(got.data(), dd, got.size() * sizeof(Acc), cudaMemcpyDeviceToHost));
  std::vector<double> want = reference(in, c_host, 2, -1);
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_TRUE(to_double(got[i]) == want[i], "%s m%dn%dk%d: D[%zu] = %g, expected %g", what, M, N,
                K, i, to_double(got[i]), want[i]);
  CHECK_CUDA(cudaFree(da));
  CHECK_CUDA(cudaFree(db));
  CHECK_CUDA(cudaFree(dc));
  CHECK_CUDA(cudaFree(dd));
  std::printf("ok %s m%dn%dk%d\n", what, M, N, K);
}

void run_tf32() {
  Inputs in = make_inputs(-8, 8, 99);
  std::vector<float> a(in.a.begin(), in.a.end()), b(in.b.begin(), in.b.end());
  float *da, *db, *dd;
  CHECK_CUDA(cudaMalloc(&da, a.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&db, b.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dd, kM * kN * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(da, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice));
  wmma_gemm_tf32<16, 16, 8><<<dim3(kN / 16, kM / 16), 32>>>(da, db, dd);
  CHECK_CUDA(cudaGetLastError());
  std::vector<float> got(kM * kN);
  CHECK_CUDA(cudaMemcpy(got.data(), dd, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
  std::vector<double> zero(kM * kN, 0.0);
  std::vector<double> want = reference(in, zero, 1, 0);
  for (int i = 0; i < kM; ++i)
    for (int j = 0; j < kN; ++j)
      EXPECT_TRUE(got[j * kM + i] == want[i * kN + j], "tf32: D[%d][%d] = %g, expected %g", i, j,
                  got[j * kM + i], want[i * kN + j]);
  CHECK_CUDA(cudaFree(da));
  CHECK_CUDA(cudaFree(db));
  CHECK_CUDA(cudaFree(dd));
  std::printf("ok tf32 m16n16k8\n");
}

int main() {
  run<half, half, float, 16, 16, 16>("half->float", -4, 4, 1);
  run<half, half, float, 32, 8, 16>("half->float", -4, 4, 2);
  run<half, half, float, 8, 32, 16>("half->float", -4, 4, 3);
  run<half, half, half, 16, 16, 16>("half->half", -2, 2, 4);
  run<__nv_bfloat16, __nv_bfloat16, float, 16, 16, 16>("bf16->float", -4, 4, 5);
  run<__nv_bfloat16, __nv_bfloat16, float, 8, 32, 16>("bf16->float", -4, 4, 6);
  run<signed char, signed char, int, 16, 16, 16>("s8->s32", -128, 127, 7);
  run<unsigned char, unsigned char, int, 32, 8, 16>("u8->s32", 0, 255, 8);
  run<signed char, signed char, int, 8, 32, 16>("s8->s32", -128, 127, 9);
  run<double, double, double, 8, 8, 4>("double", -100, 100, 10);
  run_tf32();
  std::printf("PASS\n");
  return 0;
}
