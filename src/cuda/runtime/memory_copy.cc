#include "cuda/runtime/memory_copy.h"

#include <cstring>

#include "cuda/runtime/error_map.h"

namespace strata::cuda::runtime {
namespace {

CUdeviceptr dptr(const void* p) { return reinterpret_cast<CUdeviceptr>(p); }

}  // namespace

cudaError_t copy(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                 cudaStream_t stream, bool async) {
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) {
    return cudaErrorInvalidMemcpyDirection;
  }
  if (count == 0) return cudaSuccess;
  if (dst == nullptr || src == nullptr) return cudaErrorInvalidValue;
  CUresult result = CUDA_SUCCESS;
  switch (kind) {
    case cudaMemcpyHostToHost:
      if (async && (result = cuStreamSynchronize(stream)) != CUDA_SUCCESS) break;
      if (!async && (result = cuCtxSynchronize()) != CUDA_SUCCESS) break;
      std::memmove(dst, src, count);
      break;
    case cudaMemcpyHostToDevice:
      result = async ? cuMemcpyHtoDAsync(dptr(dst), src, count, stream)
                     : cuMemcpyHtoD(dptr(dst), src, count);
      break;
    case cudaMemcpyDeviceToHost:
      result = async ? cuMemcpyDtoHAsync(dst, dptr(src), count, stream)
                     : cuMemcpyDtoH(dst, dptr(src), count);
      break;
    case cudaMemcpyDeviceToDevice:
      result = async ? cuMemcpyDtoDAsync(dptr(dst), dptr(src), count, stream)
                     : cuMemcpyDtoD(dptr(dst), dptr(src), count);
      break;
    case cudaMemcpyDefault:
      result = async ? cuMemcpyAsync(dptr(dst), dptr(src), count, stream)
                     : cuMemcpy(dptr(dst), dptr(src), count);
      break;
  }
  return to_cuda_error(result);
}

}  // namespace strata::cuda::runtime
