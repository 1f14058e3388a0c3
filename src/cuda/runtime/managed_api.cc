// Managed memory: cudaMallocManaged, cudaStreamAttachMemAsync, cudaMemPrefetchAsync,
// cudaMemAdvise, cudaMemRangeGetAttribute(s), each on its driver counterpart
// (cuMemAllocManaged, cuStreamAttachMemAsync, cuMemPrefetchAsync_v2, cuMemAdvise_v2,
// cuMemRangeGetAttribute). The runtime's enumerations and location structs have the
// driver's values and layouts (checked below). cudaFree frees managed memory through
// cuMemFree.
#include <type_traits>

#include "cuda/runtime/api_common.h"
#include "cuda/runtime/managed_memory.h"

namespace rt = strata::cuda::runtime;

static_assert(sizeof(cudaMemLocation) == sizeof(CUmemLocation));
static_assert(static_cast<int>(cudaMemLocationTypeDevice) == CU_MEM_LOCATION_TYPE_DEVICE);
static_assert(static_cast<int>(cudaMemLocationTypeHost) == CU_MEM_LOCATION_TYPE_HOST);
static_assert(static_cast<int>(cudaMemAttachGlobal) == CU_MEM_ATTACH_GLOBAL);
static_assert(static_cast<int>(cudaMemAttachHost) == CU_MEM_ATTACH_HOST);
static_assert(static_cast<int>(cudaMemAttachSingle) == CU_MEM_ATTACH_SINGLE);
static_assert(static_cast<int>(cudaMemAdviseUnsetAccessedBy) == CU_MEM_ADVISE_UNSET_ACCESSED_BY);
static_assert(static_cast<int>(cudaMemRangeAttributeLastPrefetchLocationId) ==
              CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID);
static_assert(cudaCpuDeviceId == CU_DEVICE_CPU && cudaInvalidDeviceId == CU_DEVICE_INVALID);

namespace {

CUmemLocation driver_location(const cudaMemLocation& location) {
  return {static_cast<CUmemLocationType>(location.type), location.id};
}

CUdeviceptr address(const void* ptr) {
  return reinterpret_cast<CUdeviceptr>(ptr);
}

}  // namespace

bool rt::is_managed(const void* ptr) {
  bool managed = false;  // CU_POINTER_ATTRIBUTE_IS_MANAGED is a bool
  CUpointer_attribute key = CU_POINTER_ATTRIBUTE_IS_MANAGED;
  void* value = &managed;
  return cuPointerGetAttributes(1, &key, &value, address(ptr)) == CUDA_SUCCESS && managed;
}

cudaError_t rt::attach_managed(cudaStream_t stream, void* devPtr, size_t length,
                               unsigned int flags) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuStreamAttachMemAsync(stream, address(devPtr), length, flags));
}

cudaError_t rt::prefetch_managed(const void* devPtr, size_t count, cudaMemLocation location,
                                 unsigned int flags, cudaStream_t stream) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(
      cuMemPrefetchAsync_v2(address(devPtr), count, driver_location(location), flags, stream));
}

extern "C" {

cudaError_t cudaMallocManaged(void** devPtr, size_t size, unsigned int flags) {
  if (devPtr == nullptr || size == 0) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  *devPtr = nullptr;
  CUdeviceptr ptr = 0;
  CUresult result = cuMemAllocManaged(&ptr, size, flags);
  if (result != CUDA_SUCCESS) return rt::record(result);
  *devPtr = reinterpret_cast<void*>(ptr);
  return cudaSuccess;
}

cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void* devPtr, size_t length,
                                     unsigned int flags) {
  return rt::attach_managed(stream, devPtr, length, flags);
}

cudaError_t cudaMemPrefetchAsync(const void* devPtr, size_t count, cudaMemLocation location,
                                 unsigned int flags, cudaStream_t stream) {
  return rt::prefetch_managed(devPtr, count, location, flags, stream);
}

cudaError_t cudaMemAdvise(const void* devPtr, size_t count, cudaMemoryAdvise advice,
                          cudaMemLocation location) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuMemAdvise_v2(address(devPtr), count, static_cast<CUmem_advise>(advice),
                                   driver_location(location)));
}

cudaError_t cudaMemRangeGetAttribute(void* data, size_t dataSize, cudaMemRangeAttribute attribute,
                                     const void* devPtr, size_t count) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuMemRangeGetAttribute(
      data, dataSize, static_cast<CUmem_range_attribute>(attribute), address(devPtr), count));
}

cudaError_t cudaMemRangeGetAttributes(void** data, size_t* dataSizes,
                                      cudaMemRangeAttribute* attributes, size_t numAttributes,
                                      const void* devPtr, size_t count) {
  static_assert(sizeof(cudaMemRangeAttribute) == sizeof(CUmem_range_attribute));
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuMemRangeGetAttributes(data, dataSizes,
                                            reinterpret_cast<CUmem_range_attribute*>(attributes),
                                            numAttributes, address(devPtr), count));
}

}  // extern "C"
