// The library's device code. The kernels are CUDA C++ (src/blas/kernels/), compiled by
// nvcc at build time into one fatbin (PTX for compute_80) that is embedded in the library
// (kBlasFatbin) and loaded with cuModuleLoadData into each handle's context, so that
// Strata's JIT compiles and caches it as it does any application's module. Kernel names
// are extern "C".
#pragma once

#include <cublas_api.h>
#include <cuda.h>
#include <vector_types.h>

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "blas/handle.h"

namespace strata::blas {

extern const unsigned char kBlasFatbin[];
extern const size_t kBlasFatbinSize;

// cuGetErrorName's name, or "CUDA error".
const char* cu_error_name(CUresult r);

// Makes `context` current for the scope when it is not (a handle used while another
// device's context is current).
class ScopedContext {
 public:
  explicit ScopedContext(CUcontext context);
  ~ScopedContext();
  ScopedContext(const ScopedContext&) = delete;
  ScopedContext& operator=(const ScopedContext&) = delete;

 private:
  bool pushed_ = false;
};

class Kernels {
 public:
  // Loads the fatbin into `context`. CUBLAS_STATUS_NOT_INITIALIZED (logged) on failure.
  static cublasStatus_t load(CUcontext context, std::unique_ptr<Kernels>* out,
                             const char* function);
  ~Kernels();
  Kernels(const Kernels&) = delete;
  Kernels& operator=(const Kernels&) = delete;

  // The kernel `name`, or null when the module has none.
  CUfunction function(const char* name);

 private:
  Kernels(CUcontext context, CUmodule module) : context_(context), module_(module) {}
  CUcontext context_;
  CUmodule module_;
  std::mutex mu_;
  std::unordered_map<std::string, CUfunction> functions_;
};

// Launches `kernel` on the handle's stream, in the handle's context. `params` is
// cuLaunchKernel's array of argument addresses. A kernel the library lacks is
// CUBLAS_STATUS_INTERNAL_ERROR, a failed launch CUBLAS_STATUS_EXECUTION_FAILED (logged,
// naming `function`).
cublasStatus_t launch_raw(Handle& handle, const char* function, const char* kernel, dim3 grid,
                          dim3 block, unsigned shared_bytes, void** params);
// The same on `stream` (cuBLASLt passes the stream with each call).
cublasStatus_t launch_raw_on(Handle& handle, cudaStream_t stream, const char* function,
                             const char* kernel, dim3 grid, dim3 block, unsigned shared_bytes,
                             void** params);

template <typename... Args>
cublasStatus_t launch(Handle& handle, const char* function, const char* kernel, dim3 grid,
                      dim3 block, unsigned shared_bytes, Args... args) {
  void* params[] = {static_cast<void*>(&args)..., nullptr};
  return launch_raw(handle, function, kernel, grid, block, shared_bytes, params);
}
template <typename... Args>
cublasStatus_t launch_on(Handle& handle, cudaStream_t stream, const char* function,
                         const char* kernel, dim3 grid, dim3 block, unsigned shared_bytes,
                         Args... args) {
  void* params[] = {static_cast<void*>(&args)..., nullptr};
  return launch_raw_on(handle, stream, function, kernel, grid, block, shared_bytes, params);
}

}  // namespace strata::blas
