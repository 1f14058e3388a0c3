// Entry points: pitched device allocations (cuMemAllocPitch). The pitched copies and
// fills are stream operations (api_stream_ops_2d.inc).
#include "cuda/driver/api_util.h"
#include "cuda/driver/transfer_2d.h"

using namespace strata;
using namespace strata::cuda::driver;

CUresult CUDAAPI cuMemAllocPitch(CUdeviceptr* dptr, size_t* pPitch, size_t WidthInBytes,
                                 size_t Height, unsigned int ElementSizeBytes) {
  return api_call("cuMemAllocPitch", [&]() -> Status {
    if (dptr == nullptr || pPitch == nullptr) return null_arg("cuMemAllocPitch", "dptr or pPitch");
    if (Height == 0) return error(Code::kInvalidValue, "cuMemAllocPitch: Height is 0");
    ASSIGN_OR_RETURN(uint64_t pitch, pitch_for(WidthInBytes, ElementSizeBytes));
    if (pitch > INT32_MAX) {  // CU_DEVICE_ATTRIBUTE_MAX_PITCH
      return error(Code::kInvalidValue,
                   fmt::format("cuMemAllocPitch: pitch {} exceeds the maximum pitch", pitch));
    }
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    ASSIGN_OR_RETURN(*dptr, ctx->allocate_device(pitch * Height));
    *pPitch = pitch;
    return ok_status();
  });
}
