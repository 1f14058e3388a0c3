// Context-independent loading (library.h) through libcuda.so.1 on the default backend:
// a CUkernel in several contexts and after a context is destroyed, the library's own
// copy of its code, per-device attributes set before any context loaded the library,
// unload invalidating kernels and modules, and the error cases the CUDA Driver API
// documents.
#include <cuda.h>
#include <gtest/gtest.h>

#include <string>

namespace {

constexpr const char* kPtx = R"(
.version 8.0
.target sm_80
.address_size 64

.visible .global .align 4 .u32 last_value;

.visible .entry store_value(.param .u64 p, .param .u32 v)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [v];
  cvta.to.global.u64 %rd2, %rd1;
  st.global.u32 [%rd2], %r1;
  st.global.u32 [last_value], %r1;
  ret;
}
)";

class LibraryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
    ASSERT_EQ(cuDeviceGet(&dev_, 0), CUDA_SUCCESS);
    // No context current: libraries do not need one.
    CUcontext none;
    while (cuCtxPopCurrent(&none) == CUDA_SUCCESS) {
    }
  }

  // Launches store_value(dst, value) through `f` in the current context and reads dst.
  unsigned launch_and_read(CUfunction f, unsigned value) {
    CUdeviceptr dst;
    EXPECT_EQ(cuMemAlloc(&dst, 4), CUDA_SUCCESS);
    void* params[] = {&dst, &value};
    EXPECT_EQ(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr), CUDA_SUCCESS);
    unsigned out = 0;
    EXPECT_EQ(cuMemcpyDtoH(&out, dst, 4), CUDA_SUCCESS);
    EXPECT_EQ(cuMemFree(dst), CUDA_SUCCESS);
    return out;
  }

  CUdevice dev_ = 0;
};

TEST_F(LibraryTest, KernelRunsInEveryContextAndAfterItsContextIsDestroyed) {
  std::string code = kPtx;
  CUlibrary library;
  ASSERT_EQ(cuLibraryLoadData(&library, code.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0),
            CUDA_SUCCESS);
  // The library keeps its own copy of the code: the caller's buffer may change.
  code.assign(code.size(), 'x');
  CUkernel kernel;
  ASSERT_EQ(cuLibraryGetKernel(&kernel, library, "store_value"), CUDA_SUCCESS);
  EXPECT_EQ(cuLaunchKernel(reinterpret_cast<CUfunction>(kernel), 1, 1, 1, 1, 1, 1, 0, nullptr,
                           nullptr, nullptr),
            CUDA_ERROR_INVALID_CONTEXT);

  CUcontext a, b;
  ASSERT_EQ(cuCtxCreate(&a, nullptr, 0, dev_), CUDA_SUCCESS);
  EXPECT_EQ(launch_and_read(reinterpret_cast<CUfunction>(kernel), 11), 11u);
  CUfunction in_a;
  ASSERT_EQ(cuKernelGetFunction(&in_a, kernel), CUDA_SUCCESS);
  CUdeviceptr last_a;
  ASSERT_EQ(cuLibraryGetGlobal(&last_a, nullptr, library, "last_value"), CUDA_SUCCESS);

  ASSERT_EQ(cuCtxCreate(&b, nullptr, 0, dev_), CUDA_SUCCESS);
  CUfunction in_b;
  ASSERT_EQ(cuKernelGetFunction(&in_b, kernel), CUDA_SUCCESS);
  EXPECT_NE(in_a, in_b);
  EXPECT_EQ(launch_and_read(in_b, 22), 22u);
  CUdeviceptr last_b;
  ASSERT_EQ(cuLibraryGetGlobal(&last_b, nullptr, library, "last_value"), CUDA_SUCCESS);
  EXPECT_NE(last_a, last_b);  // each context has its own copy of the variable
  unsigned value = 0;
  ASSERT_EQ(cuMemcpyDtoH(&value, last_b, 4), CUDA_SUCCESS);
  EXPECT_EQ(value, 22u);

  // The context's function dies with it; the kernel loads again in a new context.
  ASSERT_EQ(cuCtxDestroy(b), CUDA_SUCCESS);
  CUcontext c;
  ASSERT_EQ(cuCtxCreate(&c, nullptr, 0, dev_), CUDA_SUCCESS);
  EXPECT_EQ(launch_and_read(reinterpret_cast<CUfunction>(kernel), 33), 33u);

  ASSERT_EQ(cuLibraryUnload(library), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxDestroy(c), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxDestroy(a), CUDA_SUCCESS);
}

TEST_F(LibraryTest, UnloadInvalidatesKernelsAndModules) {
  CUlibrary library;
  ASSERT_EQ(cuLibraryLoadData(&library, kPtx, nullptr, nullptr, 0, nullptr, nullptr, 0),
            CUDA_SUCCESS);
  CUkernel kernel;
  ASSERT_EQ(cuLibraryGetKernel(&kernel, library, "store_value"), CUDA_SUCCESS);
  CUcontext ctx;
  ASSERT_EQ(cuCtxCreate(&ctx, nullptr, 0, dev_), CUDA_SUCCESS);
  CUmodule module;
  ASSERT_EQ(cuLibraryGetModule(&module, library), CUDA_SUCCESS);
  EXPECT_EQ(cuModuleUnload(module), CUDA_ERROR_NOT_PERMITTED);
  ASSERT_EQ(cuLibraryUnload(library), CUDA_SUCCESS);

  CUfunction f;
  EXPECT_EQ(cuKernelGetFunction(&f, kernel), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(cuModuleGetFunction(&f, module, "store_value"), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_EQ(cuLibraryUnload(library), CUDA_ERROR_INVALID_HANDLE);
  unsigned count;
  EXPECT_EQ(cuLibraryGetKernelCount(&count, library), CUDA_ERROR_INVALID_HANDLE);
  ASSERT_EQ(cuCtxDestroy(ctx), CUDA_SUCCESS);
}

TEST_F(LibraryTest, DeviceAttributesSetBeforeLoadingApplyToLaterFunctions) {
  CUlibrary library;
  ASSERT_EQ(cuLibraryLoadData(&library, kPtx, nullptr, nullptr, 0, nullptr, nullptr, 0),
            CUDA_SUCCESS);
  CUkernel kernel;
  ASSERT_EQ(cuLibraryGetKernel(&kernel, library, "store_value"), CUDA_SUCCESS);
  // Above the default (48 KiB), up to the opt-in limit.
  int optin = 0;
  ASSERT_EQ(
      cuDeviceGetAttribute(&optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev_),
      CUDA_SUCCESS);
  const int requested = optin - 1024;
  ASSERT_GT(requested, 48 * 1024);
  ASSERT_EQ(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, requested, kernel,
                                 dev_),
            CUDA_SUCCESS);
  EXPECT_EQ(
      cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 101, kernel, dev_),
      CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuKernelSetCacheConfig(kernel, static_cast<CUfunc_cache>(7), dev_),
            CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1, kernel, 99),
            CUDA_ERROR_INVALID_DEVICE);

  CUcontext ctx;
  ASSERT_EQ(cuCtxCreate(&ctx, nullptr, 0, dev_), CUDA_SUCCESS);
  CUfunction f;
  ASSERT_EQ(cuKernelGetFunction(&f, kernel), CUDA_SUCCESS);
  int value = 0;
  ASSERT_EQ(cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f),
            CUDA_SUCCESS);
  EXPECT_EQ(value, requested);
  // A CUkernel stands for its function wherever a CUfunction is taken.
  ASSERT_EQ(cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                               reinterpret_cast<CUfunction>(kernel)),
            CUDA_SUCCESS);
  EXPECT_EQ(value, requested);
  ASSERT_EQ(cuKernelGetAttribute(&value, CU_FUNC_ATTRIBUTE_NUM_REGS, kernel, dev_), CUDA_SUCCESS);
  EXPECT_GT(value, 0);
  ASSERT_EQ(cuLibraryUnload(library), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxDestroy(ctx), CUDA_SUCCESS);
}

TEST_F(LibraryTest, LoadErrors) {
  CUlibrary library;
  EXPECT_EQ(cuLibraryLoadData(&library, nullptr, nullptr, nullptr, 0, nullptr, nullptr, 0),
            CUDA_ERROR_INVALID_VALUE);
  CUlibraryOption option = CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE;
  void* value = nullptr;
  EXPECT_EQ(cuLibraryLoadData(&library, kPtx, nullptr, nullptr, 0, &option, &value, 1),
            CUDA_ERROR_NOT_SUPPORTED);
  option = CU_LIBRARY_BINARY_IS_PRESERVED;
  ASSERT_EQ(cuLibraryLoadData(&library, kPtx, nullptr, nullptr, 0, &option, &value, 1),
            CUDA_SUCCESS);
  ASSERT_EQ(cuLibraryUnload(library), CUDA_SUCCESS);
  EXPECT_EQ(cuLibraryLoadFromFile(&library, "/nonexistent/library.ptx", nullptr, nullptr, 0,
                                  nullptr, nullptr, 0),
            CUDA_ERROR_FILE_NOT_FOUND);
  char log[256] = {};
  CUjit_option jit[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* jit_values[] = {log, reinterpret_cast<void*>(sizeof(log))};
  EXPECT_EQ(cuLibraryLoadData(&library, ".version 8.0\n.target sm_80\n.address_size 64\nnonsense",
                              jit, jit_values, 2, nullptr, nullptr, 0),
            CUDA_ERROR_INVALID_PTX);
  EXPECT_NE(std::string(log), "");  // says why
}

}  // namespace
