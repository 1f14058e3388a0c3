// Loading the embedded kernels: libcublasLt.so.13 only (kernels.h).
#include "blas/kernels.h"
#include "blas/status.h"

namespace strata::blas {

cublasStatus_t Kernels::load(CUcontext context, std::unique_ptr<Kernels>* out,
                             const char* function) {
  ScopedContext scope(context);
  CUmodule module = nullptr;
  const CUresult r = cuModuleLoadData(&module, kBlasFatbin);
  if (r != CUDA_SUCCESS) {
    return fail(CUBLAS_STATUS_NOT_INITIALIZED, function,
                "cannot load the library's kernels ({} bytes of fatbin): {}", kBlasFatbinSize,
                cu_error_name(r));
  }
  out->reset(new Kernels(context, module));
  return CUBLAS_STATUS_SUCCESS;
}

}  // namespace strata::blas
