// A program that uses only the CUDA driver API and NVRTC (no runtime): kernels compiled
// from CUDA C++ source to PTX at run time, loaded context-independently
// (cuLibraryLoadData, CUDA 12+) and as a module from a .ptx file written at run time
// (cuModuleLoad), and an nvcc fatbin file (DRIVER_NVRTC_FATBIN) through cuModuleLoad and
// cuLibraryLoadFromFile/LoadData. Expected values are computed on the host; error codes
// are the ones the CUDA Driver API documentation gives for each case.
#include <cuda.h>
#include <nvrtc.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK_CU(call)                                                                       \
  do {                                                                                       \
    CUresult check_cu_result_ = (call);                                                      \
    if (check_cu_result_ != CUDA_SUCCESS) {                                                  \
      const char* name_ = nullptr;                                                           \
      cuGetErrorName(check_cu_result_, &name_);                                              \
      std::printf("FAIL %s:%d: %s -> %s\n", __FILE__, __LINE__, #call, name_ ? name_ : "?"); \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

#define EXPECT_RESULT(call, expected)                                                              \
  do {                                                                                             \
    CUresult got_ = (call);                                                                        \
    if (got_ != (expected)) {                                                                      \
      const char* a_ = nullptr;                                                                    \
      const char* b_ = nullptr;                                                                    \
      cuGetErrorName(got_, &a_);                                                                   \
      cuGetErrorName((expected), &b_);                                                             \
      std::printf("FAIL %s:%d: %s -> %s, expected %s\n", __FILE__, __LINE__, #call, a_ ? a_ : "?", \
                  b_ ? b_ : "?");                                                                  \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

#define EXPECT_TRUE(cond, ...)                                    \
  do {                                                            \
    if (!(cond)) {                                                \
      std::printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
      std::printf(__VA_ARGS__);                                   \
      std::printf("\n");                                          \
      std::exit(1);                                               \
    }                                                             \
  } while (0)

namespace {

const char* kSource = R"(
__device__ unsigned int launches;

extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
  if (i == 0) atomicAdd(&launches, 1u);
}

__managed__ int managed_hits;

extern "C" __global__ void count_managed() { atomicAdd(&managed_hits, 1); }

extern "C" __global__ void iota(unsigned long long base, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = static_cast<int>(base) + i;
}
)";

std::string compile_to_ptx() {
  nvrtcProgram program;
  if (nvrtcCreateProgram(&program, kSource, "driver_nvrtc_kernels.cu", 0, nullptr, nullptr) !=
      NVRTC_SUCCESS) {
    std::printf("FAIL nvrtcCreateProgram\n");
    std::exit(1);
  }
  const char* options[] = {"--gpu-architecture=compute_80"};
  nvrtcResult result = nvrtcCompileProgram(program, 1, options);
  size_t log_size = 0;
  nvrtcGetProgramLogSize(program, &log_size);
  if (result != NVRTC_SUCCESS) {
    std::string log(log_size, '\0');
    nvrtcGetProgramLog(program, log.data());
    std::printf("FAIL nvrtcCompileProgram: %s\n%s\n", nvrtcGetErrorString(result), log.c_str());
    std::exit(1);
  }
  size_t ptx_size = 0;
  nvrtcGetPTXSize(program, &ptx_size);
  std::string ptx(ptx_size, '\0');
  nvrtcGetPTX(program, ptx.data());
  nvrtcDestroyProgram(&program);
  return ptx;
}

// Runs saxpy through `f` (a CUfunction, or a CUkernel cast to one) in the current
// context and checks y against the host.
void check_saxpy(CUfunction f, const char* what) {
  const int n = 1000;
  std::vector<float> x(n), y(n), expect(n);
  for (int i = 0; i < n; ++i) {
    x[i] = 0.5f * i;
    y[i] = 3.0f - i;
    expect[i] = 2.0f * x[i] + y[i];
  }
  CUdeviceptr dx, dy;
  CHECK_CU(cuMemAlloc(&dx, n * sizeof(float)));
  CHECK_CU(cuMemAlloc(&dy, n * sizeof(float)));
  CHECK_CU(cuMemcpyHtoD(dx, x.data(), n * sizeof(float)));
  CHECK_CU(cuMemcpyHtoD(dy, y.data(), n * sizeof(float)));
  float a = 2.0f;
  int count = n;
  void* params[] = {&a, &dx, &dy, &count};
  CHECK_CU(cuLaunchKernel(f, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr));
  CHECK_CU(cuCtxSynchronize());
  CHECK_CU(cuMemcpyDtoH(y.data(), dy, n * sizeof(float)));
  for (int i = 0; i < n; ++i) {
    EXPECT_TRUE(y[i] == expect[i], "%s: y[%d] = %f, expected %f", what, i, y[i], expect[i]);
  }
  CHECK_CU(cuMemFree(dx));
  CHECK_CU(cuMemFree(dy));
}

void check_iota(CUfunction f, unsigned long long base, const char* what) {
  const int n = 300;
  CUdeviceptr out;
  CHECK_CU(cuMemAlloc(&out, n * sizeof(int)));
  int count = n;
  void* params[] = {&base, &out, &count};
  CHECK_CU(cuLaunchKernel(f, 3, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr));
  std::vector<int> host(n);
  CHECK_CU(cuMemcpyDtoH(host.data(), out, n * sizeof(int)));
  for (int i = 0; i < n; ++i) {
    EXPECT_TRUE(host[i] == static_cast<int>(base) + i, "%s: out[%d] = %d", what, i, host[i]);
  }
  CHECK_CU(cuMemFree(out));
}

void check_squares(CUfunction f, const char* what) {
  const int n = 200;
  CUdeviceptr out;
  CHECK_CU(cuMemAlloc(&out, n * sizeof(unsigned)));
  int count = n;
  void* params[] = {&out, &count};
  CHECK_CU(cuLaunchKernel(f, 2, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr));
  std::vector<unsigned> host(n);
  CHECK_CU(cuMemcpyDtoH(host.data(), out, n * sizeof(unsigned)));
  for (int i = 0; i < n; ++i) {
    EXPECT_TRUE(host[i] == static_cast<unsigned>(i * i), "%s: out[%d] = %u", what, i, host[i]);
  }
  CHECK_CU(cuMemFree(out));
}

// cuModuleLoad, cuLibraryLoadFromFile and cuLibraryLoadData of an nvcc fatbin.
void check_fatbin_file(const char* path) {
  CUmodule module;
  CHECK_CU(cuModuleLoad(&module, path));
  CUfunction f;
  CHECK_CU(cuModuleGetFunction(&f, module, "fill_squares"));
  check_squares(f, "cuModuleLoad(fatbin)");
  CHECK_CU(cuModuleUnload(module));

  CUlibrary library;
  CHECK_CU(cuLibraryLoadFromFile(&library, path, nullptr, nullptr, 0, nullptr, nullptr, 0));
  CUkernel kernel;
  CHECK_CU(cuLibraryGetKernel(&kernel, library, "fill_squares"));
  check_squares(reinterpret_cast<CUfunction>(kernel), "cuLibraryLoadFromFile(fatbin)");
  CHECK_CU(cuLibraryUnload(library));

  std::vector<char> bytes;
  if (std::FILE* file = std::fopen(path, "rb")) {
    char chunk[4096];
    size_t n;
    while ((n = std::fread(chunk, 1, sizeof(chunk), file)) > 0)
      bytes.insert(bytes.end(), chunk, chunk + n);
    std::fclose(file);
  }
  EXPECT_TRUE(!bytes.empty(), "cannot read %s", path);
  CHECK_CU(cuLibraryLoadData(&library, bytes.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  bytes.assign(bytes.size(), 0);  // the library keeps its own copy
  CHECK_CU(cuLibraryGetKernel(&kernel, library, "fill_squares"));
  check_squares(reinterpret_cast<CUfunction>(kernel), "cuLibraryLoadData(fatbin)");
  CHECK_CU(cuLibraryUnload(library));
}

unsigned int read_launches(CUlibrary library) {
  CUdeviceptr counter = 0;
  size_t bytes = 0;
  CHECK_CU(cuLibraryGetGlobal(&counter, &bytes, library, "launches"));
  EXPECT_TRUE(bytes == sizeof(unsigned int), "size of 'launches' is %zu", bytes);
  unsigned int value = 0;
  CHECK_CU(cuMemcpyDtoH(&value, counter, sizeof(value)));
  return value;
}

}  // namespace

int main() {
  std::string ptx = compile_to_ptx();

  CHECK_CU(cuInit(0));
  CUdevice dev;
  CHECK_CU(cuDeviceGet(&dev, 0));

  // 1. A library is loaded without any context.
  CUcontext none = nullptr;
  CHECK_CU(cuCtxGetCurrent(&none));
  EXPECT_TRUE(none == nullptr, "a context is current before any was made current");
  CUlibrary library;
  CHECK_CU(cuLibraryLoadData(&library, ptx.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0));

  unsigned int count = 0;
  CHECK_CU(cuLibraryGetKernelCount(&count, library));
  EXPECT_TRUE(count == 3, "kernel count %u", count);
  CUkernel listed[3] = {};
  CHECK_CU(cuLibraryEnumerateKernels(listed, 3, library));
  CUkernel saxpy, iota;
  CHECK_CU(cuLibraryGetKernel(&saxpy, library, "saxpy"));
  CHECK_CU(cuLibraryGetKernel(&iota, library, "iota"));
  int matches = 0;
  for (CUkernel k : listed) matches += (k == saxpy) + (k == iota);
  EXPECT_TRUE(matches == 2, "enumerated kernels differ from cuLibraryGetKernel's");
  EXPECT_RESULT(cuLibraryGetKernel(&saxpy, library, "no_such_kernel"), CUDA_ERROR_NOT_FOUND);
  CHECK_CU(cuLibraryGetKernel(&saxpy, library, "saxpy"));
  const char* name = nullptr;
  CHECK_CU(cuKernelGetName(&name, saxpy));
  EXPECT_TRUE(name != nullptr && std::strcmp(name, "saxpy") == 0, "name %s", name ? name : "null");
  EXPECT_RESULT(cuKernelGetName(nullptr, saxpy), CUDA_ERROR_INVALID_VALUE);
  CUlibrary owner = nullptr;
  CHECK_CU(cuKernelGetLibrary(&owner, iota));
  EXPECT_TRUE(owner == library, "cuKernelGetLibrary returned another library");

  // The parameter layout: each parameter at its natural alignment, in order.
  size_t offset = 0, size = 0;
  const size_t expect_offset[] = {0, 8, 16, 24};
  const size_t expect_size[] = {4, 8, 8, 4};
  for (size_t i = 0; i < 4; ++i) {
    CHECK_CU(cuKernelGetParamInfo(saxpy, i, &offset, &size));
    EXPECT_TRUE(offset == expect_offset[i] && size == expect_size[i],
                "saxpy param %zu at %zu size %zu", i, offset, size);
  }
  EXPECT_RESULT(cuKernelGetParamInfo(saxpy, 4, &offset, &size), CUDA_ERROR_INVALID_VALUE);

  // No context current: a CUkernel cannot resolve to a function.
  CUfunction f = nullptr;
  EXPECT_RESULT(cuKernelGetFunction(&f, saxpy), CUDA_ERROR_INVALID_CONTEXT);

  // 2. The primary context: launches through the CUkernel itself and its CUfunction.
  CUcontext primary;
  CHECK_CU(cuDevicePrimaryCtxRetain(&primary, dev));
  CHECK_CU(cuCtxSetCurrent(primary));
  check_saxpy(reinterpret_cast<CUfunction>(saxpy), "CUkernel as CUfunction, primary context");
  CUfunction saxpy_fn;
  CHECK_CU(cuKernelGetFunction(&saxpy_fn, saxpy));
  check_saxpy(saxpy_fn, "cuKernelGetFunction, primary context");
  int regs = 0;
  CHECK_CU(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, saxpy_fn));
  EXPECT_TRUE(regs > 0, "NUM_REGS %d", regs);
  check_iota(reinterpret_cast<CUfunction>(iota), 1000, "iota as CUkernel");
  EXPECT_TRUE(read_launches(library) == 2, "launches = %u after two saxpy launches",
              read_launches(library));

  // The library's module in this context: same functions; it cannot be unloaded alone.
  CUmodule module;
  CHECK_CU(cuLibraryGetModule(&module, library));
  CUfunction from_module;
  CHECK_CU(cuModuleGetFunction(&from_module, module, "saxpy"));
  EXPECT_TRUE(from_module == saxpy_fn, "cuModuleGetFunction differs from cuKernelGetFunction");
  EXPECT_RESULT(cuModuleUnload(module), CUDA_ERROR_NOT_PERMITTED);

  // A managed variable: one pointer the host and the kernels share.
  CUdeviceptr managed;
  size_t managed_size;
  CHECK_CU(cuLibraryGetManaged(&managed, &managed_size, library, "managed_hits"));
  EXPECT_TRUE(managed_size == sizeof(int), "managed_hits size %zu", managed_size);
  int* hits = reinterpret_cast<int*>(managed);
  *hits = 5;
  CUkernel count_managed;
  CHECK_CU(cuLibraryGetKernel(&count_managed, library, "count_managed"));
  CHECK_CU(cuLaunchKernel(reinterpret_cast<CUfunction>(count_managed), 2, 1, 1, 32, 1, 1, 0,
                          nullptr, nullptr, nullptr));
  CHECK_CU(cuCtxSynchronize());
  EXPECT_TRUE(*hits == 5 + 64, "managed_hits = %d, expected %d", *hits, 5 + 64);
  // `launches` is an ordinary __device__ variable; there are no unified functions (no
  // device has unified function pointers).
  EXPECT_RESULT(cuLibraryGetManaged(&managed, &managed_size, library, "launches"),
                CUDA_ERROR_NOT_FOUND);
  void* unified = nullptr;
  EXPECT_RESULT(cuLibraryGetUnifiedFunction(&unified, library, "saxpy"), CUDA_ERROR_NOT_FOUND);
  CUdeviceptr global;
  EXPECT_RESULT(cuLibraryGetGlobal(&global, nullptr, library, "no_such_global"),
                CUDA_ERROR_NOT_FOUND);

  // Per-device attributes: what cuKernelSetAttribute sets, cuKernelGetAttribute returns.
  int max_optin = 0, static_shared = -1;
  CHECK_CU(
      cuDeviceGetAttribute(&max_optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev));
  CHECK_CU(cuKernelGetAttribute(&static_shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, saxpy, dev));
  EXPECT_TRUE(static_shared == 0, "static shared %d", static_shared);
  CHECK_CU(
      cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, max_optin, saxpy, dev));
  int dynamic = 0;
  CHECK_CU(
      cuKernelGetAttribute(&dynamic, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, saxpy, dev));
  EXPECT_TRUE(dynamic == max_optin, "max dynamic shared %d, set %d", dynamic, max_optin);
  CHECK_CU(cuFuncGetAttribute(&dynamic, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, saxpy_fn));
  EXPECT_TRUE(dynamic == max_optin, "the function did not take the kernel's setting: %d", dynamic);
  EXPECT_RESULT(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, max_optin + 1,
                                     saxpy, dev),
                CUDA_ERROR_INVALID_VALUE);
  EXPECT_RESULT(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_NUM_REGS, 8, saxpy, dev),
                CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(
      cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 50, saxpy, dev));
  int carveout = 0;
  CHECK_CU(cuKernelGetAttribute(&carveout, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                                saxpy, dev));
  EXPECT_TRUE(carveout == 50, "carveout %d", carveout);
  CHECK_CU(cuKernelSetCacheConfig(saxpy, CU_FUNC_CACHE_PREFER_SHARED, dev));

  // 3. A second context on the same device: the same CUkernel, a different function.
  CUcontext second;
  CHECK_CU(cuCtxCreate(&second, nullptr, 0, dev));  // becomes current
  CUfunction second_fn;
  CHECK_CU(cuKernelGetFunction(&second_fn, saxpy));
  EXPECT_TRUE(second_fn != saxpy_fn, "two contexts share one CUfunction");
  check_saxpy(reinterpret_cast<CUfunction>(saxpy), "CUkernel as CUfunction, second context");
  EXPECT_TRUE(read_launches(library) == 1, "the second context's 'launches' = %u",
              read_launches(library));
  // cuLaunchKernelEx (CUDA 12+) also takes a CUkernel, when this driver has it.
  void* launch_ex = nullptr;
  CUdriverProcAddressQueryResult found;
  if (cuGetProcAddress("cuLaunchKernelEx", &launch_ex, 12000, CU_GET_PROC_ADDRESS_DEFAULT,
                       &found) == CUDA_SUCCESS &&
      launch_ex != nullptr) {
    using LaunchEx = CUresult (*)(const CUlaunchConfig*, CUfunction, void**, void**);
    const int n = 64;
    CUdeviceptr out;
    CHECK_CU(cuMemAlloc(&out, n * sizeof(int)));
    unsigned long long base = 7;
    int count_n = n;
    void* params[] = {&base, &out, &count_n};
    CUlaunchConfig config = {};
    config.gridDimX = config.gridDimY = config.gridDimZ = 1;
    config.blockDimX = n;
    config.blockDimY = config.blockDimZ = 1;
    CHECK_CU(reinterpret_cast<LaunchEx>(launch_ex)(&config, reinterpret_cast<CUfunction>(iota),
                                                   params, nullptr));
    std::vector<int> host(n);
    CHECK_CU(cuMemcpyDtoH(host.data(), out, n * sizeof(int)));
    for (int i = 0; i < n; ++i)
      EXPECT_TRUE(host[i] == 7 + i, "cuLaunchKernelEx out[%d] = %d", i, host[i]);
    CHECK_CU(cuMemFree(out));
    std::printf("cuLaunchKernelEx with a CUkernel: ok\n");
  } else {
    std::printf("cuLaunchKernelEx: not available, skipped\n");
  }
  CHECK_CU(cuCtxDestroy(second));
  CHECK_CU(cuCtxSetCurrent(primary));

  // 4. Invalid PTX fails at load with CUDA_ERROR_INVALID_PTX.
  CUlibrary broken;
  EXPECT_RESULT(cuLibraryLoadData(&broken,
                                  ".version 8.0\n.target sm_80\n.address_size 64\n"
                                  ".visible .entry k() { bogus.instruction; }\n",
                                  nullptr, nullptr, 0, nullptr, nullptr, 0),
                CUDA_ERROR_INVALID_PTX);
  EXPECT_RESULT(cuLibraryLoadData(nullptr, ptx.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0),
                CUDA_ERROR_INVALID_VALUE);

  CHECK_CU(cuLibraryUnload(library));

  // 5. The PTX as a file: cuModuleLoad and cuLibraryLoadFromFile.
  char path[] = "/tmp/strata_driver_nvrtc_XXXXXX";
  int fd = mkstemp(path);
  EXPECT_TRUE(fd >= 0, "mkstemp failed");
  EXPECT_TRUE(write(fd, ptx.data(), std::strlen(ptx.c_str())) ==
                  static_cast<ssize_t>(std::strlen(ptx.c_str())),
              "short write");
  close(fd);

  CUmodule file_module;
  CHECK_CU(cuModuleLoad(&file_module, path));
  unsigned int functions = 0;
  CHECK_CU(cuModuleGetFunctionCount(&functions, file_module));
  EXPECT_TRUE(functions == 3, "module function count %u", functions);
  CUfunction enumerated[3] = {};
  CHECK_CU(cuModuleEnumerateFunctions(enumerated, 3, file_module));
  CUfunction iota_fn;
  CHECK_CU(cuModuleGetFunction(&iota_fn, file_module, "iota"));
  EXPECT_TRUE(enumerated[0] == iota_fn || enumerated[1] == iota_fn || enumerated[2] == iota_fn,
              "cuModuleEnumerateFunctions misses iota");
  check_iota(iota_fn, 42, "iota from cuModuleLoad");
  CHECK_CU(cuModuleUnload(file_module));
  CUmoduleLoadingMode mode;
  CHECK_CU(cuModuleGetLoadingMode(&mode));
  EXPECT_TRUE(mode == CU_MODULE_EAGER_LOADING || mode == CU_MODULE_LAZY_LOADING, "mode %d", mode);

  CUlibrary file_library;
  CHECK_CU(cuLibraryLoadFromFile(&file_library, path, nullptr, nullptr, 0, nullptr, nullptr, 0));
  CHECK_CU(cuLibraryGetKernelCount(&count, file_library));
  EXPECT_TRUE(count == 3, "file library kernel count %u", count);
  CUkernel file_saxpy;
  CHECK_CU(cuLibraryGetKernel(&file_saxpy, file_library, "saxpy"));
  check_saxpy(reinterpret_cast<CUfunction>(file_saxpy), "cuLibraryLoadFromFile");
  CHECK_CU(cuLibraryUnload(file_library));
  CUlibraryOption preserve = CU_LIBRARY_BINARY_IS_PRESERVED;
  void* preserve_value = nullptr;
  EXPECT_RESULT(cuLibraryLoadFromFile(&file_library, path, nullptr, nullptr, 0, &preserve,
                                      &preserve_value, 1),
                CUDA_ERROR_INVALID_VALUE);
  unlink(path);

  CUmodule missing;
  EXPECT_RESULT(cuModuleLoad(&missing, "/nonexistent/strata/kernels.ptx"),
                CUDA_ERROR_FILE_NOT_FOUND);

  // 6. A fatbin file as nvcc writes it (PTX inside), when the build provides one.
  if (const char* fatbin = std::getenv("DRIVER_NVRTC_FATBIN")) {
    check_fatbin_file(fatbin);
    std::printf("fatbin file: ok\n");
  } else {
    std::printf("fatbin file: DRIVER_NVRTC_FATBIN not set, skipped\n");
  }

  CHECK_CU(cuDevicePrimaryCtxRelease(dev));
  std::printf("PASS driver_nvrtc\n");
  return 0;
}
