// Handle creation and destruction: libcublasLt.so.13 only (handle.h).
#include <cuda_runtime_api.h>

#include "blas/handle.h"
#include "blas/kernels.h"
#include "blas/status.h"

namespace strata::blas {

cublasStatus_t create_handle(Handle** out, const char* function) {
  int device = 0;
  cudaError_t e = cudaGetDevice(&device);
  // cudaFree(0) makes the runtime create the device's primary context and make it current
  // (or keeps the context the program made current).
  if (e == cudaSuccess) e = cudaFree(nullptr);
  if (e != cudaSuccess) {
    return fail(CUBLAS_STATUS_NOT_INITIALIZED, function, "no usable CUDA device: {}",
                cudaGetErrorString(e));
  }
  CUcontext context = nullptr;
  if (cuCtxGetCurrent(&context) != CUDA_SUCCESS || context == nullptr) {
    return fail(CUBLAS_STATUS_NOT_INITIALIZED, function, "no current CUDA context");
  }
  auto handle = std::make_unique<cublasContext>();
  handle->device = device;
  handle->context = context;
  cudaDeviceGetAttribute(&handle->sm_count, cudaDevAttrMultiProcessorCount, device);
  const cublasStatus_t s = Kernels::load(context, &handle->kernels, function);
  if (s != CUBLAS_STATUS_SUCCESS) return s;
  register_handle(handle.get());
  *out = handle.release();
  return CUBLAS_STATUS_SUCCESS;
}

void destroy_handle(Handle* handle) {
  unregister_handle(handle);
  delete static_cast<cublasContext*>(handle);
}

}  // namespace strata::blas
