// Dynamic parallelism on a recursive algorithm: quicksort where each grid partitions
// its range and launches one child grid per half, each into its own non-blocking
// stream, down to a depth limit below which a grid sorts its range itself. The host
// checks the result against std::sort.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "test_check.h"

constexpr int kMaxDepth = 12;
constexpr int kSmallRange = 32;

__device__ void selection_sort(unsigned* data, int left, int right) {
  for (int i = left; i <= right; ++i) {
    unsigned min_value = data[i];
    int min_index = i;
    for (int j = i + 1; j <= right; ++j) {
      if (data[j] < min_value) {
        min_value = data[j];
        min_index = j;
      }
    }
    data[min_index] = data[i];
    data[i] = min_value;
  }
}

__global__ void quicksort(unsigned* data, int left, int right, int depth, int* launch_errors) {
  if (depth >= kMaxDepth || right - left <= kSmallRange) {
    selection_sort(data, left, right);
    return;
  }
  unsigned pivot = data[(left + right) / 2];
  int l = left, r = right;
  while (l <= r) {
    while (data[l] < pivot) ++l;
    while (data[r] > pivot) --r;
    if (l <= r) {
      unsigned t = data[l];
      data[l] = data[r];
      data[r] = t;
      ++l;
      --r;
    }
  }
  if (left < r) {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    quicksort<<<1, 1, 0, s>>>(data, left, r, depth + 1, launch_errors);
    if (cudaGetLastError() != cudaSuccess) atomicAdd(launch_errors, 1);
    cudaStreamDestroy(s);
  }
  if (l < right) {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    quicksort<<<1, 1, 0, s>>>(data, l, right, depth + 1, launch_errors);
    if (cudaGetLastError() != cudaSuccess) atomicAdd(launch_errors, 1);
    cudaStreamDestroy(s);
  }
}

int main() {
  const int n = 4096;
  std::vector<unsigned> host(n);
  uint32_t state = 12345;
  for (unsigned& v : host) {
    state = state * 1664525u + 1013904223u;
    v = state >> 8;
  }
  unsigned* data;
  int* launch_errors;
  CHECK_CUDA(cudaMalloc(&data, n * sizeof(unsigned)));
  CHECK_CUDA(cudaMalloc(&launch_errors, sizeof(int)));
  CHECK_CUDA(cudaMemcpy(data, host.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(launch_errors, 0, sizeof(int)));
  quicksort<<<1, 1>>>(data, 0, n - 1, 0, launch_errors);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<unsigned> sorted(n);
  int errors = -1;
  CHECK_CUDA(cudaMemcpy(sorted.data(), data, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(&errors, launch_errors, sizeof(int), cudaMemcpyDeviceToHost));
  std::sort(host.begin(), host.end());
  EXPECT_TRUE(errors == 0, "%d device launches failed", errors);
  for (int i = 0; i < n; ++i)
    EXPECT_TRUE(sorted[i] == host[i], "sorted[%d] = %u, expected %u", i, sorted[i], host[i]);
  CHECK_CUDA(cudaFree(data));
  CHECK_CUDA(cudaFree(launch_errors));
  std::printf("PASS cdp_quicksort\n");
  return 0;
}
