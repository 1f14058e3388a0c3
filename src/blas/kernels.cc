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

Kernels::~Kernels() {
  ScopedContext scope(context_);
  cuModuleUnload(module_);
}

CUfunction Kernels::function(const char* name) {
  std::lock_guard lock(mu_);
  auto it = functions_.find(name);
  if (it != functions_.end()) return it->second;
  CUfunction f = nullptr;
  if (cuModuleGetFunction(&f, module_, name) != CUDA_SUCCESS) f = nullptr;
  functions_.emplace(name, f);
  return f;
}

cublasStatus_t launch_raw(Handle& handle, const char* function, const char* kernel, dim3 grid,
                          dim3 block, unsigned shared_bytes, void** params) {
  return launch_raw_on(handle, handle.stream, function, kernel, grid, block, shared_bytes, params);
}

cublasStatus_t launch_raw_on(Handle& handle, cudaStream_t stream, const char* function,
                             const char* kernel, dim3 grid, dim3 block, unsigned shared_bytes,
                             void** params) {
  CUfunction f = handle.kernels->function(kernel);
  if (f == nullptr) {
    return fail(CUBLAS_STATUS_INTERNAL_ERROR, function, "the library has no kernel '{}'", kernel);
  }
  ScopedContext scope(handle.context);
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
