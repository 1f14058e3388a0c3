#include "blas/kernels.h"

#include "blas/status.h"

namespace strata::blas {
const char* cu_error_name(CUresult r) {
  const char* name = nullptr;
  return cuGetErrorName(r, &name) == CUDA_SUCCESS && name != nullptr ? name : "CUDA error";
}

ScopedContext::ScopedContext(CUcontext context) {
  CUcontext current = nullptr;
  if (cuCtxGetCurrent(&current) == CUDA_SUCCESS && current != context) {
    pushed_ = cuCtxPushCurrent(context) == CUDA_SUCCESS;
  }
}

ScopedContext::~ScopedContext() {
  CUcontext popped;
  if (pushed_) cuCtxPopCurrent(&popped);
}

Kernels::Kernels(CUcontext context, const BlasModule* const* modules, size_t count)
    : context_(context), modules_(modules), loaded_(count, nullptr) {
  for (size_t i = 0; i < count; ++i) {
    for (size_t j = 0; j < modules[i]->count; ++j) family_of_.emplace(modules[i]->names[j], i);
  }
}

Kernels::~Kernels() {
  ScopedContext scope(context_);
  for (CUmodule m : loaded_) {
    if (m != nullptr) cuModuleUnload(m);
  }
}

CUfunction Kernels::function(const char* name, const char* function) {
  std::lock_guard lock(mu_);
  auto it = functions_.find(name);
  if (it != functions_.end()) return it->second;
  auto family = family_of_.find(name);
  if (family == family_of_.end()) {
    fail(CUBLAS_STATUS_INTERNAL_ERROR, function, "the library has no kernel '{}'", name);
    return nullptr;
  }
  const size_t i = family->second;
  if (loaded_[i] == nullptr) {
    ScopedContext scope(context_);
    const CUresult r = cuModuleLoadData(&loaded_[i], modules_[i]->image);
    if (r != CUDA_SUCCESS) {
      loaded_[i] = nullptr;
      fail(CUBLAS_STATUS_INTERNAL_ERROR, function,
           "cannot load the library's '{}' kernels ({} bytes of fatbin): {}", modules_[i]->family,
           modules_[i]->size, cu_error_name(r));
      return nullptr;
    }
  }
  CUfunction f = nullptr;
  if (cuModuleGetFunction(&f, loaded_[i], name) != CUDA_SUCCESS) f = nullptr;
  functions_.emplace(name, f);
  return f;
}

cublasStatus_t launch_raw(Handle& handle, const char* function, const char* kernel, dim3 grid,
                          dim3 block, unsigned shared_bytes, void** params) {
  return launch_raw_on(handle, handle.stream, function, kernel, grid, block, shared_bytes, params);
}

// Dynamic shared memory a kernel may use without opting in.
constexpr unsigned kDefaultSharedBytes = 48 * 1024;

cublasStatus_t launch_raw_on(Handle& handle, cudaStream_t stream, const char* function,
                             const char* kernel, dim3 grid, dim3 block, unsigned shared_bytes,
                             void** params) {
  CUfunction f = handle.kernels->function(kernel, function);
  if (f == nullptr) return CUBLAS_STATUS_INTERNAL_ERROR;  // logged
  ScopedContext scope(handle.context);
  // Beyond 48 KiB of dynamic shared memory a kernel must opt in, as on CUDA.
  if (shared_bytes > kDefaultSharedBytes) {
    const CUresult a = cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                          static_cast<int>(shared_bytes));
    if (a != CUDA_SUCCESS) {
      return fail(CUBLAS_STATUS_EXECUTION_FAILED, function, "{}: {} bytes of shared memory: {}",
                  kernel, shared_bytes, cu_error_name(a));
    }
  }
  const CUresult r =
      cuLaunchKernel(f, grid.x, grid.y, grid.z, block.x, block.y, block.z, shared_bytes,
                     reinterpret_cast<CUstream>(stream), params, nullptr);
  if (r != CUDA_SUCCESS) {
    return fail(CUBLAS_STATUS_EXECUTION_FAILED, function,
                "launching {} (grid {}x{}x{}, block {}x{}x{}): {}", kernel, grid.x, grid.y, grid.z,
                block.x, block.y, block.z, cu_error_name(r));
  }
  return CUBLAS_STATUS_SUCCESS;
}

}  // namespace strata::blas
