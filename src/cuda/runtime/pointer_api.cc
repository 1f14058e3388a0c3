// cudaPointerGetAttributes: classifies a pointer through the driver's
// cuPointerGetAttributes (current device's context), CU_POINTER_ATTRIBUTE_IS_MANAGED
// included.
// Since CUDA 11 a pointer CUDA does not know (ordinary host memory, NULL) is not an
// error: type cudaMemoryTypeUnregistered, device cudaInvalidDeviceId, no device alias
// and the pointer itself as the host alias (cudaPointerAttributes::hostPointer's note).
// Managed memory (host memory mapped in every context, managed_memory.h) is reported as
// cudaMemoryTypeManaged, accessible at the same address from host and device.
#include "cuda/runtime/api_common.h"
#include "cuda/runtime/managed_memory.h"

namespace rt = strata::cuda::runtime;

extern "C" {

cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr) {
  if (attributes == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  unsigned int memory_type = 0;
  int ordinal = cudaInvalidDeviceId;
  bool mapped = false;
  CUpointer_attribute keys[] = {CU_POINTER_ATTRIBUTE_MAPPED, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL};
  void* values[] = {&mapped, &memory_type, &ordinal};
  CUresult result = cuPointerGetAttributes(3, keys, values, reinterpret_cast<CUdeviceptr>(ptr));
  if (result != CUDA_SUCCESS) return rt::record(result);
  void* address = const_cast<void*>(ptr);
  if (!mapped) {
    // The host may dereference its own memory (CUDA does not check that it is allocated).
    *attributes = {cudaMemoryTypeUnregistered, cudaInvalidDeviceId, nullptr, address};
  } else if (memory_type == CU_MEMORYTYPE_DEVICE) {
    *attributes = {cudaMemoryTypeDevice, ordinal, address, nullptr};
  } else if (rt::is_managed(ptr)) {
    *attributes = {cudaMemoryTypeManaged, ordinal, address, address};
  } else {
    *attributes = {cudaMemoryTypeHost, ordinal, address, address};
  }
  return cudaSuccess;
}

}  // extern "C"
