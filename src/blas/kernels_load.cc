// Loading the embedded kernels: libcublasLt.so.13 only (kernels.h).
#include "blas/kernels.h"
#include "blas/status.h"

namespace strata::blas {

cublasStatus_t Kernels::load(CUcontext context, std::unique_ptr<Kernels>* out,
                             const char* function) {
  (void)function;  // nothing can fail before a family is loaded
  out->reset(new Kernels(context, kBlasModules, kBlasModuleCount));
  return CUBLAS_STATUS_SUCCESS;
}

}  // namespace strata::blas
