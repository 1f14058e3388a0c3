// CUDA dynamic parallelism (CDP2) and the host-side limits, checked against the CUDA
// runtime documentation:
// - cudaLimitDevRuntimePendingLaunchCount bounds the launches that may be pending; one
//   more fails with cudaErrorLaunchPendingCountExceeded (cudaDeviceGetLimit reports the
//   value set);
// - a child grid inherits the stack size (cudaLimitStackSize), so a recursive child
//   kernel runs with the raised limit;
// - a device-side launch with an invalid configuration fails with
//   cudaErrorInvalidConfiguration and does not run.
#include <vector>

#include "test_check.h"

constexpr int kLimit = 100;
constexpr int kLaunches = 130;

__global__ void waiter(volatile int* release, int* ran) {
  while (*release == 0) {
  }
  atomicAdd(ran, 1);
}

// Children cannot finish before `release` is set, so all launches are pending.
__global__ void flood(int* release, int* ran, int* errors) {
  for (int k = 0; k < kLaunches; ++k) {
    waiter<<<1, 1>>>(release, ran);
    errors[k] = cudaGetLastError();
  }
  __threadfence();
  atomicExch(release, 1);
}

// Recursion deep enough to need more than the default stack.
__device__ int deep_sum(volatile int* scratch, int n) {
  int local[16];
  for (int i = 0; i < 16; ++i) local[i] = scratch[i] + n;
  if (n == 0) return local[n % 16];
  return local[n % 16] + deep_sum(scratch, n - 1);
}

__global__ void recursive_child(int* scratch, int n, int* out) { out[threadIdx.x] = deep_sum(scratch, n); }

__global__ void recursive_parent(int* scratch, int n, int* out, int* error) {
  recursive_child<<<1, 32>>>(scratch, n, out);
  *error = cudaGetLastError();
}

// Launch configurations CUDA rejects (cudaErrorInvalidConfiguration, the child does
// not run) next to one it accepts.
__global__ void count_threads(int* ran) { atomicAdd(ran, 1); }

__global__ void bad_configs(int* ran, int* errors) {
  count_threads<<<1, 2048>>>(ran);  // more than 1024 threads per block
  errors[0] = cudaGetLastError();
  count_threads<<<dim3(1, 70000), 1>>>(ran);  // grid y above 65535
  errors[1] = cudaGetLastError();
  count_threads<<<1, dim3(1, 1, 65)>>>(ran);  // block z above 64
  errors[2] = cudaGetLastError();
  count_threads<<<dim3(2, 1, 1), dim3(4, 2, 2)>>>(ran);
  errors[3] = cudaGetLastError();
}

int main() {
  CHECK_CUDA(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, kLimit));
  size_t limit = 0;
  CHECK_CUDA(cudaDeviceGetLimit(&limit, cudaLimitDevRuntimePendingLaunchCount));
  EXPECT_TRUE(limit == kLimit, "pending launch count limit %zu, expected %d", limit, kLimit);

  int *release, *ran, *errors;
  CHECK_CUDA(cudaMalloc(&release, sizeof(int)));
  CHECK_CUDA(cudaMalloc(&ran, sizeof(int)));
  CHECK_CUDA(cudaMalloc(&errors, kLaunches * sizeof(int)));
  CHECK_CUDA(cudaMemset(release, 0, sizeof(int)));
  CHECK_CUDA(cudaMemset(ran, 0, sizeof(int)));
  flood<<<1, 1>>>(release, ran, errors);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<int> h_errors(kLaunches);
  int h_ran = 0;
  CHECK_CUDA(cudaMemcpy(h_errors.data(), errors, kLaunches * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(&h_ran, ran, sizeof(int), cudaMemcpyDeviceToHost));
  for (int k = 0; k < kLaunches; ++k) {
    int expected = k < kLimit ? cudaSuccess : cudaErrorLaunchPendingCountExceeded;
    EXPECT_TRUE(h_errors[k] == expected, "launch %d: %d, expected %d", k, h_errors[k], expected);
  }
  EXPECT_TRUE(h_ran == kLimit, "%d children ran, expected %d", h_ran, kLimit);

  // A recursive child with a raised stack limit.
  const int depth = 300;
  CHECK_CUDA(cudaDeviceSetLimit(cudaLimitStackSize, 64 * 1024));
  int *scratch, *out, *error;
  CHECK_CUDA(cudaMalloc(&scratch, 16 * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&out, 32 * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&error, sizeof(int)));
  std::vector<int> h_scratch(16);
  for (int i = 0; i < 16; ++i) h_scratch[i] = i;
  CHECK_CUDA(cudaMemcpy(scratch, h_scratch.data(), 16 * sizeof(int), cudaMemcpyHostToDevice));
  recursive_parent<<<1, 1>>>(scratch, depth, out, error);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  long long expected = 0;
  for (int n = depth; n >= 0; --n) expected += h_scratch[n % 16] + n;
  std::vector<int> h_out(32);
  int h_error = -1;
  CHECK_CUDA(cudaMemcpy(h_out.data(), out, 32 * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(&h_error, error, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(h_error == cudaSuccess, "recursive child launch: %d", h_error);
  for (int t = 0; t < 32; ++t)
    EXPECT_TRUE(h_out[t] == expected, "recursive child thread %d: %d, expected %lld", t, h_out[t], expected);

  // Invalid configurations.
  int* config_errors;
  CHECK_CUDA(cudaMemset(ran, 0, sizeof(int)));
  CHECK_CUDA(cudaMalloc(&config_errors, 4 * sizeof(int)));
  CHECK_CUDA(cudaMemset(config_errors, 0xff, 4 * sizeof(int)));
  bad_configs<<<1, 1>>>(ran, config_errors);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<int> h_config(4);
  CHECK_CUDA(cudaMemcpy(h_config.data(), config_errors, 4 * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(&h_ran, ran, sizeof(int), cudaMemcpyDeviceToHost));
  for (int k = 0; k < 3; ++k)
    EXPECT_TRUE(h_config[k] == cudaErrorInvalidConfiguration, "bad configuration %d: %d, expected %d",
                k, h_config[k], cudaErrorInvalidConfiguration);
  EXPECT_TRUE(h_config[3] == cudaSuccess, "good configuration: %d", h_config[3]);
  EXPECT_TRUE(h_ran == 32, "%d threads ran, expected 32 (the good launch only)", h_ran);
  CHECK_CUDA(cudaFree(config_errors));

  CHECK_CUDA(cudaFree(release));
  CHECK_CUDA(cudaFree(ran));
  CHECK_CUDA(cudaFree(errors));
  CHECK_CUDA(cudaFree(scratch));
  CHECK_CUDA(cudaFree(out));
  CHECK_CUDA(cudaFree(error));
  std::printf("PASS cdp_limits\n");
  return 0;
}
