// Driver API behaviour that needs no kernel execution; runs on the HAL null backend
// (STRATA_BACKEND=null, set by CMake).
#include <cuda.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace {

class DriverApi : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ASSERT_EQ(cuInit(0), CUDA_SUCCESS); }
};

TEST_F(DriverApi, VersionAndErrors) {
  int version = 0;
  EXPECT_EQ(cuDriverGetVersion(&version), CUDA_SUCCESS);
  EXPECT_EQ(version, 13000);
  EXPECT_EQ(cuDriverGetVersion(nullptr), CUDA_ERROR_INVALID_VALUE);
  const char* s = nullptr;
  EXPECT_EQ(cuGetErrorName(CUDA_ERROR_ILLEGAL_ADDRESS, &s), CUDA_SUCCESS);
  EXPECT_STREQ(s, "CUDA_ERROR_ILLEGAL_ADDRESS");
  EXPECT_EQ(cuGetErrorString(CUDA_ERROR_OUT_OF_MEMORY, &s), CUDA_SUCCESS);
  EXPECT_STREQ(s, "out of memory");
  EXPECT_EQ(cuGetErrorString(static_cast<CUresult>(4242), &s), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuInit(1), CUDA_ERROR_INVALID_VALUE);
  const void* table = nullptr;
  CUuuid id{};
  EXPECT_EQ(cuGetExportTable(&table, &id), CUDA_ERROR_NOT_SUPPORTED);
}

TEST_F(DriverApi, Devices) {
  int count = 0;
  ASSERT_EQ(cuDeviceGetCount(&count), CUDA_SUCCESS);
  ASSERT_GE(count, 1);
  CUdevice dev = -1;
  EXPECT_EQ(cuDeviceGet(&dev, 0), CUDA_SUCCESS);
  EXPECT_EQ(dev, 0);
  EXPECT_EQ(cuDeviceGet(&dev, count), CUDA_ERROR_INVALID_DEVICE);
  EXPECT_EQ(cuDeviceGet(&dev, -1), CUDA_ERROR_INVALID_DEVICE);
  char name[256];
  EXPECT_EQ(cuDeviceGetName(name, sizeof(name), 0), CUDA_SUCCESS);
  EXPECT_GT(std::strlen(name), 0u);
  int value = 0;
  EXPECT_EQ(cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 0), CUDA_SUCCESS);
  EXPECT_EQ(value, 32);
  EXPECT_EQ(cuDeviceGetAttribute(&value, static_cast<CUdevice_attribute>(99999), 0),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 77), CUDA_ERROR_INVALID_DEVICE);
  size_t total = 0;
  EXPECT_EQ(cuDeviceTotalMem(&total, 0), CUDA_SUCCESS);
  EXPECT_GT(total, 0u);
  int major = 0, minor = -1;
  EXPECT_EQ(cuDeviceComputeCapability(&major, &minor, 0), CUDA_SUCCESS);
  EXPECT_GE(major, 1);
  CUuuid a{}, b{};
  EXPECT_EQ(cuDeviceGetUuid(&a, 0), CUDA_SUCCESS);
  EXPECT_EQ(cuDeviceGetUuid(&b, 0), CUDA_SUCCESS);
  EXPECT_EQ(std::memcmp(a.bytes, b.bytes, 16), 0);
}

TEST_F(DriverApi, ContextStack) {
  CUcontext ctx = nullptr, cur = nullptr;
  ASSERT_EQ(cuCtxCreate(&ctx, nullptr, 0, 0), CUDA_SUCCESS);
  EXPECT_EQ(cuCtxGetCurrent(&cur), CUDA_SUCCESS);
  EXPECT_EQ(cur, ctx);
  CUdevice dev = -1;
  EXPECT_EQ(cuCtxGetDevice(&dev), CUDA_SUCCESS);
  EXPECT_EQ(dev, 0);
  unsigned int api = 0;
  EXPECT_EQ(cuCtxGetApiVersion(ctx, &api), CUDA_SUCCESS);
  EXPECT_EQ(cuCtxSynchronize(), CUDA_SUCCESS);
  CUcontext popped = nullptr;
  EXPECT_EQ(cuCtxPopCurrent(&popped), CUDA_SUCCESS);
  EXPECT_EQ(popped, ctx);
  EXPECT_EQ(cuCtxGetCurrent(&cur), CUDA_SUCCESS);
  EXPECT_EQ(cur, nullptr);
  EXPECT_EQ(cuCtxSynchronize(), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(cuCtxPushCurrent(ctx), CUDA_SUCCESS);
  EXPECT_EQ(cuCtxDestroy(ctx), CUDA_SUCCESS);
  EXPECT_EQ(cuCtxDestroy(ctx), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(cuCtxPushCurrent(ctx), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(cuCtxCreate(&ctx, nullptr, 0x7, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuCtxCreate(nullptr, nullptr, 0, 0), CUDA_ERROR_INVALID_VALUE);
}

TEST_F(DriverApi, PrimaryContext) {
  unsigned int flags = 99;
  int active = 1;
  ASSERT_EQ(cuDevicePrimaryCtxGetState(0, &flags, &active), CUDA_SUCCESS);
  EXPECT_EQ(active, 0);
  EXPECT_EQ(cuDevicePrimaryCtxSetFlags(0, CU_CTX_SCHED_BLOCKING_SYNC), CUDA_SUCCESS);
  EXPECT_EQ(cuDevicePrimaryCtxSetFlags(0, 0x3), CUDA_ERROR_INVALID_VALUE);
  CUcontext p1 = nullptr, p2 = nullptr;
  ASSERT_EQ(cuDevicePrimaryCtxRetain(&p1, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuDevicePrimaryCtxRetain(&p2, 0), CUDA_SUCCESS);
  EXPECT_EQ(p1, p2);
  EXPECT_EQ(cuDevicePrimaryCtxGetState(0, &flags, &active), CUDA_SUCCESS);
  EXPECT_EQ(active, 1);
  EXPECT_EQ(flags, static_cast<unsigned>(CU_CTX_SCHED_BLOCKING_SYNC));
  EXPECT_EQ(cuCtxDestroy(p1), CUDA_ERROR_INVALID_CONTEXT);
  EXPECT_EQ(cuDevicePrimaryCtxRelease(0), CUDA_SUCCESS);
  EXPECT_EQ(cuDevicePrimaryCtxRelease(0), CUDA_SUCCESS);
  EXPECT_EQ(cuDevicePrimaryCtxGetState(0, &flags, &active), CUDA_SUCCESS);
  EXPECT_EQ(active, 0);
  EXPECT_EQ(cuDevicePrimaryCtxRelease(0), CUDA_ERROR_INVALID_CONTEXT);
}

TEST_F(DriverApi, MemoryBookkeeping) {
  CUcontext ctx = nullptr;
  ASSERT_EQ(cuCtxCreate(&ctx, nullptr, 0, 0), CUDA_SUCCESS);
  CUdeviceptr p = 0;
  EXPECT_EQ(cuMemAlloc(&p, 0), CUDA_ERROR_INVALID_VALUE);
  ASSERT_EQ(cuMemAlloc(&p, 1000), CUDA_SUCCESS);
  EXPECT_NE(p, 0u);
  CUdeviceptr base = 0;
  size_t size = 0;
  EXPECT_EQ(cuMemGetAddressRange(&base, &size, p + 10), CUDA_SUCCESS);
  EXPECT_EQ(base, p);
  EXPECT_GE(size, 1000u);
  size_t free_bytes = 0, total = 0;
  EXPECT_EQ(cuMemGetInfo(&free_bytes, &total), CUDA_SUCCESS);
  EXPECT_LE(free_bytes, total);
  EXPECT_EQ(cuMemFree(p + 1), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuMemFree(p), CUDA_SUCCESS);
  EXPECT_EQ(cuMemFree(p), CUDA_ERROR_INVALID_VALUE);
  void* host = nullptr;
  ASSERT_EQ(cuMemHostAlloc(&host, 4096, CU_MEMHOSTALLOC_DEVICEMAP), CUDA_SUCCESS);
  CUdeviceptr mapped = 0;
  EXPECT_EQ(cuMemHostGetDevicePointer(&mapped, host, 0), CUDA_SUCCESS);
  EXPECT_EQ(mapped, reinterpret_cast<CUdeviceptr>(host));
  EXPECT_EQ(cuMemFreeHost(host), CUDA_SUCCESS);
  EXPECT_EQ(cuMemFreeHost(host), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuCtxDestroy(ctx), CUDA_SUCCESS);
}

TEST_F(DriverApi, InvalidHandles) {
  CUcontext ctx = nullptr;
  ASSERT_EQ(cuCtxCreate(&ctx, nullptr, 0, 0), CUDA_SUCCESS);
  int bogus = 0;
  auto* stream = reinterpret_cast<CUstream>(&bogus);
  EXPECT_EQ(cuStreamSynchronize(stream), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(cuStreamDestroy(stream), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(cuEventDestroy(reinterpret_cast<CUevent>(&bogus)), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(cuModuleUnload(reinterpret_cast<CUmodule>(&bogus)), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(cuLaunchKernel(reinterpret_cast<CUfunction>(&bogus), 1, 1, 1, 1, 1, 1, 0, nullptr,
                           nullptr, nullptr),
            CUDA_ERROR_INVALID_HANDLE);
  CUstream s = nullptr;
  ASSERT_EQ(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamQuery(s), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamDestroy(s), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamQuery(s), CUDA_ERROR_INVALID_HANDLE);
  CUevent e = nullptr;
  ASSERT_EQ(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING), CUDA_SUCCESS);
  EXPECT_EQ(cuEventQuery(e), CUDA_SUCCESS);  // never recorded: complete
  float ms = 0;
  EXPECT_EQ(cuEventElapsedTime(&ms, e, e), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(cuEventDestroy(e), CUDA_SUCCESS);
  EXPECT_EQ(cuModuleLoadData(nullptr, "x"), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuCtxDestroy(ctx), CUDA_SUCCESS);
}

TEST_F(DriverApi, ProcAddress) {
  void* fn = nullptr;
  CUdriverProcAddressQueryResult status;
  ASSERT_EQ(cuGetProcAddress("cuMemAlloc", &fn, 13000, 0, &status), CUDA_SUCCESS);
  EXPECT_EQ(status, CU_GET_PROC_ADDRESS_SUCCESS);
  EXPECT_EQ(fn, reinterpret_cast<void*>(&cuMemAlloc_v2));
  ASSERT_EQ(cuGetProcAddress("cuMemcpyHtoD", &fn, 13000,
                             CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &status),
            CUDA_SUCCESS);
  EXPECT_NE(fn, reinterpret_cast<void*>(&cuMemcpyHtoD_v2));
  EXPECT_EQ(cuGetProcAddress("cuNoSuchThing", &fn, 13000, 0, &status), CUDA_ERROR_NOT_FOUND);
  EXPECT_EQ(status, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);
  EXPECT_EQ(cuGetProcAddress("cuCtxCreate", &fn, 11000, 0, &status), CUDA_ERROR_NOT_FOUND);
  EXPECT_EQ(status, CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT);
}

}  // namespace
