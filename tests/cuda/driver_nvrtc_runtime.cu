// The runtime's library management (CUDA 12+): PTX compiled by NVRTC at run time, loaded
// with cudaLibraryLoadData, its kernel launched through cudaLaunchKernel and
// cudaLaunchKernelEx with the cudaKernel_t, its global read with cudaLibraryGetGlobal;
// cudaGetKernel for an ordinary <<<>>> kernel of this program, launched and configured
// through that handle. Expected values are computed on the host.
#include <nvrtc.h>

#include <cstring>
#include <string>
#include <vector>

#include "test_check.h"

__global__ void scale(float* data, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

namespace {

const char* kSource = R"(
__device__ int total;

extern "C" __global__ void add_all(const int* values, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&total, values[i]);
}
)";

std::string compile_to_ptx() {
  nvrtcProgram program;
  EXPECT_TRUE(nvrtcCreateProgram(&program, kSource, "lib.cu", 0, nullptr, nullptr) == NVRTC_SUCCESS,
              "nvrtcCreateProgram");
  const char* options[] = {"--gpu-architecture=compute_80"};
  EXPECT_TRUE(nvrtcCompileProgram(program, 1, options) == NVRTC_SUCCESS, "nvrtcCompileProgram");
  size_t size = 0;
  nvrtcGetPTXSize(program, &size);
  std::string ptx(size, '\0');
  nvrtcGetPTX(program, ptx.data());
  nvrtcDestroyProgram(&program);
  return ptx;
}

}  // namespace

int main() {
  std::string ptx = compile_to_ptx();
  cudaLibrary_t library;
  CHECK_CUDA(cudaLibraryLoadData(&library, ptx.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  unsigned int count = 0;
  CHECK_CUDA(cudaLibraryGetKernelCount(&count, library));
  EXPECT_TRUE(count == 1, "kernel count %u", count);
  cudaKernel_t add_all;
  CHECK_CUDA(cudaLibraryGetKernel(&add_all, library, "add_all"));
  cudaKernel_t listed = nullptr;
  CHECK_CUDA(cudaLibraryEnumerateKernels(&listed, 1, library));
  EXPECT_TRUE(listed == add_all, "enumerated kernel differs");
  cudaKernel_t missing;
  EXPECT_TRUE(cudaLibraryGetKernel(&missing, library, "nope") != cudaSuccess,
              "a missing kernel was found");
  cudaGetLastError();

  const int n = 1000;
  std::vector<int> values(n);
  long long expect = 0;
  for (int i = 0; i < n; ++i) {
    values[i] = (i * 37) % 101 - 50;
    expect += values[i];
  }
  int* d_values;
  CHECK_CUDA(cudaMalloc(&d_values, n * sizeof(int)));
  CHECK_CUDA(cudaMemcpy(d_values, values.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  int count_n = n;
  void* args[] = {&d_values, &count_n};
  CHECK_CUDA(cudaLaunchKernel(reinterpret_cast<const void*>(add_all), dim3((n + 255) / 256),
                              dim3(256), args, 0, nullptr));
  CHECK_CUDA(cudaDeviceSynchronize());
  void* total_ptr = nullptr;
  size_t total_size = 0;
  CHECK_CUDA(cudaLibraryGetGlobal(&total_ptr, &total_size, library, "total"));
  EXPECT_TRUE(total_size == sizeof(int), "size of 'total' %zu", total_size);
  int total = 0;
  CHECK_CUDA(cudaMemcpy(&total, total_ptr, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(total == expect, "total %d, expected %lld", total, expect);

  // Other entry points that take a kernel as `const void*` accept the cudaKernel_t too.
  cudaFuncAttributes attributes;
  CHECK_CUDA(cudaFuncGetAttributes(&attributes, reinterpret_cast<const void*>(add_all)));
  EXPECT_TRUE(attributes.numRegs > 0 && attributes.maxThreadsPerBlock > 0,
              "attributes of the library kernel: %d registers, %d threads", attributes.numRegs,
              attributes.maxThreadsPerBlock);
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3((n + 127) / 128);
  config.blockDim = dim3(128);
  CHECK_CUDA(cudaLaunchKernelEx(&config, add_all, d_values, count_n));  // cudaKernel_t overload
  CHECK_CUDA(cudaMemcpy(&total, total_ptr, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(total == 2 * expect, "total %d after cudaLaunchKernelEx, expected %lld", total,
              2 * expect);

  void* managed = nullptr;
  size_t managed_size = 0;
  EXPECT_TRUE(cudaLibraryGetManaged(&managed, &managed_size, library, "total") != cudaSuccess,
              "a managed variable was found");
  cudaGetLastError();

  int optin = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  CHECK_CUDA(cudaKernelSetAttributeForDevice(add_all, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             optin, 0));
  EXPECT_TRUE(cudaKernelSetAttributeForDevice(add_all, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                              optin + 1, 0) == cudaErrorInvalidValue,
              "an oversized dynamic shared memory size was accepted");
  cudaGetLastError();
  CHECK_CUDA(cudaLibraryUnload(library));

  // cudaGetKernel: the handle of an ordinary kernel of this program.
  cudaKernel_t scale_kernel = nullptr;
  CHECK_CUDA(cudaGetKernel(&scale_kernel, reinterpret_cast<const void*>(scale)));
  EXPECT_TRUE(scale_kernel != nullptr, "cudaGetKernel returned null");
  float* d_data;
  CHECK_CUDA(cudaMalloc(&d_data, 4 * sizeof(float)));
  float host[4] = {1, 2, 3, 4};
  CHECK_CUDA(cudaMemcpy(d_data, host, sizeof(host), cudaMemcpyHostToDevice));
  scale<<<1, 4>>>(d_data, 2.5f, 4);
  CHECK_CUDA(cudaGetLastError());
  // The same kernel launched through its cudaKernel_t.
  float factor = 2.0f;
  int four = 4;
  void* scale_args[] = {&d_data, &factor, &four};
  CHECK_CUDA(cudaLaunchKernel(reinterpret_cast<const void*>(scale_kernel), dim3(1), dim3(4),
                              scale_args, 0, nullptr));
  CHECK_CUDA(cudaMemcpy(host, d_data, sizeof(host), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(host[i] == 5.0f * (i + 1), "host[%d] = %f", i, host[i]);
  CHECK_CUDA(cudaKernelSetAttributeForDevice(
      scale_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, optin, 0));
  CHECK_CUDA(cudaFuncGetAttributes(&attributes, reinterpret_cast<const void*>(scale)));
  EXPECT_TRUE(attributes.maxDynamicSharedSizeBytes == optin, "max dynamic shared %d, set %d",
              attributes.maxDynamicSharedSizeBytes, optin);
  EXPECT_TRUE(cudaLaunchKernel(reinterpret_cast<const void*>(&four), dim3(1), dim3(1), nullptr, 0,
                               nullptr) == cudaErrorInvalidDeviceFunction,
              "a pointer that is no kernel was launched");
  cudaGetLastError();
  CHECK_CUDA(cudaFree(d_data));
  CHECK_CUDA(cudaFree(d_values));
  std::printf("PASS driver_nvrtc_runtime\n");
  return 0;
}
