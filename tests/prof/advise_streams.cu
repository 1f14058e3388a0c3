// Program verdicts of `strata advise`: two non-blocking streams each run a kernel (small
// grids, so both fit on the device at once). With MODE 0 the host waits for the first
// stream before launching on the second, so their work never overlaps ("serialised
// streams"); with MODE 1 both are launched before any wait, so they may run together.
// Usage: advise_streams MODE (0 or 1). Self-checking on the host.
#include <cstdlib>
#include <vector>

#include "../cuda/test_check.h"

__global__ void busy(float* data, int n, int rounds) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = data[i];
  for (int r = 0; r < rounds; ++r) v = v * 0.5f + 1.0f;
  data[i] = v;
}

int main(int argc, char** argv) {
  const int mode = argc > 1 ? std::atoi(argv[1]) : 0;
  EXPECT_TRUE(mode == 0 || mode == 1, "mode %d is not 0 or 1", mode);
  const int n = 4 * 256, rounds = 40000;
  float *a, *b;
  CHECK_CUDA(cudaMalloc(&a, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&b, n * sizeof(float)));
  CHECK_CUDA(cudaMemset(a, 0, n * sizeof(float)));
  CHECK_CUDA(cudaMemset(b, 0, n * sizeof(float)));
  CHECK_CUDA(cudaDeviceSynchronize());
  cudaStream_t s1, s2;
  CHECK_CUDA(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK_CUDA(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  busy<<<n / 256, 256, 0, s1>>>(a, n, rounds);
  CHECK_CUDA(cudaGetLastError());
  if (mode == 0) CHECK_CUDA(cudaStreamSynchronize(s1));
  busy<<<n / 256, 256, 0, s2>>>(b, n, rounds);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> ha(n), hb(n);
  CHECK_CUDA(cudaMemcpy(ha.data(), a, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(hb.data(), b, n * sizeof(float), cudaMemcpyDeviceToHost));
  float want = 0;
  for (int r = 0; r < rounds; ++r) want = want * 0.5f + 1.0f;
  for (int i = 0; i < n; ++i) {
    EXPECT_TRUE(ha[i] == want && hb[i] == want, "a[%d] = %f, b[%d] = %f, expected %f", i, ha[i], i,
                hb[i], want);
  }
  CHECK_CUDA(cudaStreamDestroy(s1));
  CHECK_CUDA(cudaStreamDestroy(s2));
  CHECK_CUDA(cudaFree(a));
  CHECK_CUDA(cudaFree(b));
  std::printf("PASS advise_streams (mode %d)\n", mode);
  return 0;
}
