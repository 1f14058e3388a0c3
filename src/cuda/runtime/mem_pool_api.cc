// The stream-ordered allocator: cudaMallocAsync, cudaFreeAsync, cudaMallocFromPoolAsync
// (and their _ptsz per-thread-default-stream variants), cudaDevice{Get,Set,GetDefault}
// MemPool and cudaMemPool{Create,Destroy,SetAttribute,GetAttribute,TrimTo,SetAccess,
// GetAccess}, on the driver's cuMemAllocAsync/cuMemPool* (src/cuda/driver/api_mem_pool.cc).
// cudaMemPool_t is CUmemoryPool, and cudaMemPoolProps / cudaMemPoolAttr have the driver's
// layout and values.
#include "cuda/runtime/api_common.h"

namespace rt = strata::cuda::runtime;

// Declared by cuda_runtime_api.h only under CUDA_API_PER_THREAD_DEFAULT_STREAM; exported
// like the declarations of cuda_api.h.
#pragma GCC visibility push(default)
extern "C" {
cudaError_t CUDARTAPI cudaMallocAsync_ptsz(void** devPtr, size_t size, cudaStream_t hStream);
cudaError_t CUDARTAPI cudaFreeAsync_ptsz(void* devPtr, cudaStream_t hStream);
cudaError_t CUDARTAPI cudaMallocFromPoolAsync_ptsz(void** ptr, size_t size, cudaMemPool_t memPool,
                                                   cudaStream_t stream);
}
#pragma GCC visibility pop

static_assert(sizeof(cudaMemPoolProps) == sizeof(CUmemPoolProps));
static_assert(static_cast<int>(cudaMemPoolAttrUsedMemHigh) ==
              static_cast<int>(CU_MEMPOOL_ATTR_USED_MEM_HIGH));
static_assert(static_cast<int>(cudaMemPoolReuseFollowEventDependencies) ==
              static_cast<int>(CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES));

namespace {

CUstream driver_stream(cudaStream_t stream, bool per_thread) {
  if (stream == nullptr && per_thread) return CU_STREAM_PER_THREAD;
  return reinterpret_cast<CUstream>(stream);
}

cudaError_t malloc_async(void** devPtr, size_t size, cudaMemPool_t pool, cudaStream_t stream,
                         bool per_thread) {
  if (devPtr == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  *devPtr = nullptr;
  CUdeviceptr ptr = 0;
  CUresult result = pool == nullptr ? cuMemAllocAsync(&ptr, size, driver_stream(stream, per_thread))
                                    : cuMemAllocFromPoolAsync(&ptr, size, pool,
                                                              driver_stream(stream, per_thread));
  if (result != CUDA_SUCCESS) return rt::record(result);
  *devPtr = reinterpret_cast<void*>(ptr);
  return cudaSuccess;
}

cudaError_t free_async(void* devPtr, cudaStream_t stream, bool per_thread) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(
      cuMemFreeAsync(reinterpret_cast<CUdeviceptr>(devPtr), driver_stream(stream, per_thread)));
}

// The driver device for a runtime ordinal (cudaErrorInvalidDevice when out of range).
cudaError_t device_of(int device, CUdevice* dev) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuDeviceGet(dev, device));
}

}  // namespace

extern "C" {

cudaError_t cudaMallocAsync(void** devPtr, size_t size, cudaStream_t hStream) {
  return malloc_async(devPtr, size, nullptr, hStream, false);
}
cudaError_t cudaMallocAsync_ptsz(void** devPtr, size_t size, cudaStream_t hStream) {
  return malloc_async(devPtr, size, nullptr, hStream, true);
}
cudaError_t cudaMallocFromPoolAsync(void** ptr, size_t size, cudaMemPool_t memPool,
                                    cudaStream_t stream) {
  if (memPool == nullptr) return rt::record(cudaErrorInvalidValue);
  return malloc_async(ptr, size, memPool, stream, false);
}
cudaError_t cudaMallocFromPoolAsync_ptsz(void** ptr, size_t size, cudaMemPool_t memPool,
                                         cudaStream_t stream) {
  if (memPool == nullptr) return rt::record(cudaErrorInvalidValue);
  return malloc_async(ptr, size, memPool, stream, true);
}
cudaError_t cudaFreeAsync(void* devPtr, cudaStream_t hStream) {
  return free_async(devPtr, hStream, false);
}
cudaError_t cudaFreeAsync_ptsz(void* devPtr, cudaStream_t hStream) {
  return free_async(devPtr, hStream, true);
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* memPool, int device) {
  CUdevice dev = 0;
  if (cudaError_t error = device_of(device, &dev); error != cudaSuccess) return error;
  return rt::record(cuDeviceGetDefaultMemPool(memPool, dev));
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* memPool, int device) {
  CUdevice dev = 0;
  if (cudaError_t error = device_of(device, &dev); error != cudaSuccess) return error;
  return rt::record(cuDeviceGetMemPool(memPool, dev));
}

cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool) {
  CUdevice dev = 0;
  if (cudaError_t error = device_of(device, &dev); error != cudaSuccess) return error;
  return rt::record(cuDeviceSetMemPool(dev, memPool));
}

cudaError_t cudaMemPoolCreate(cudaMemPool_t* memPool, const cudaMemPoolProps* poolProps) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuMemPoolCreate(memPool, reinterpret_cast<const CUmemPoolProps*>(poolProps)));
}

cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuMemPoolDestroy(memPool));
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, cudaMemPoolAttr attr, void* value) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuMemPoolSetAttribute(memPool, static_cast<CUmemPool_attribute>(attr), value));
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, cudaMemPoolAttr attr, void* value) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuMemPoolGetAttribute(memPool, static_cast<CUmemPool_attribute>(attr), value));
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuMemPoolTrimTo(memPool, minBytesToKeep));
}

// cudaMemAccessDesc, cudaMemLocation and the access flags have the driver's layout and
// values.
static_assert(sizeof(cudaMemAccessDesc) == sizeof(CUmemAccessDesc));
static_assert(sizeof(cudaMemLocation) == sizeof(CUmemLocation));
static_assert(static_cast<int>(cudaMemAccessFlagsProtReadWrite) ==
              static_cast<int>(CU_MEM_ACCESS_FLAGS_PROT_READWRITE));
static_assert(static_cast<int>(cudaMemLocationTypeDevice) ==
              static_cast<int>(CU_MEM_LOCATION_TYPE_DEVICE));

cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const cudaMemAccessDesc* descList,
                                 size_t count) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(
      cuMemPoolSetAccess(memPool, reinterpret_cast<const CUmemAccessDesc*>(descList), count));
}

cudaError_t cudaMemPoolGetAccess(cudaMemAccessFlags* flags, cudaMemPool_t memPool,
                                 cudaMemLocation* location) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuMemPoolGetAccess(reinterpret_cast<CUmemAccess_flags*>(flags), memPool,
                                       reinterpret_cast<CUmemLocation*>(location)));
}

}  // extern "C"
