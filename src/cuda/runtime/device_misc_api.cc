// Runtime device and context queries on top of their driver equivalents
// (src/cuda/driver/api_misc.cc): device choice, PCI bus ids, linear texture width,
// device initialisation, the valid-device list, occupancy of dynamic shared memory and
// clusters, CUmemLocation-based pool getters, persisting L2, GPUDirect RDMA flushes,
// async notifications, atomic capabilities, the driver error log (cudaLogs*) and export
// tables; and the interop families Strata does not have (external memory and
// semaphores, graphics resources, NvSciSync), which fail as the driver does.
#include <climits>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "cuda/runtime/api_common.h"

namespace rt = strata::cuda::runtime;

namespace {

// Ordinal check without creating a context.
cudaError_t check_device(int device) {
  CUresult result = rt::init_driver();
  if (result != CUDA_SUCCESS) return rt::record(result);
  int count = 0;
  result = cuDeviceGetCount(&count);
  if (result != CUDA_SUCCESS) return rt::record(result);
  if (count == 0) return rt::record(cudaErrorNoDevice);
  if (device < 0 || device >= count) return rt::record(cudaErrorInvalidDevice);
  return cudaSuccess;
}

// The current device's CUfunction for the kernel whose host stub is `func`.
cudaError_t current_function(const void* func, CUfunction* function) {
  rt::KernelRecord* kernel = rt::find_kernel(func);
  if (kernel == nullptr) return rt::record(cudaErrorInvalidDeviceFunction);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(rt::kernel_function(kernel, rt::current_device(), function));
}

// CUarray_format of a channel description with `channels` equal components, or 0.
int array_format(const cudaChannelFormatDesc& d, unsigned* channels) {
  const int sizes[4] = {d.x, d.y, d.z, d.w};
  unsigned n = 0;
  for (int s : sizes) {
    if (s == 0) break;
    if (s != d.x) return 0;
    ++n;
  }
  if (n == 0 || n == 3) return 0;
  for (unsigned i = n; i < 4; ++i) {
    if (sizes[i] != 0) return 0;
  }
  *channels = n;
  switch (d.f) {
    case cudaChannelFormatKindSigned:
      return d.x == 8    ? CU_AD_FORMAT_SIGNED_INT8
             : d.x == 16 ? CU_AD_FORMAT_SIGNED_INT16
             : d.x == 32 ? CU_AD_FORMAT_SIGNED_INT32
                         : 0;
    case cudaChannelFormatKindUnsigned:
      return d.x == 8    ? CU_AD_FORMAT_UNSIGNED_INT8
             : d.x == 16 ? CU_AD_FORMAT_UNSIGNED_INT16
             : d.x == 32 ? CU_AD_FORMAT_UNSIGNED_INT32
                         : 0;
    case cudaChannelFormatKindFloat:
      return d.x == 16 ? CU_AD_FORMAT_HALF : d.x == 32 ? CU_AD_FORMAT_FLOAT : 0;
    default:
      return 0;
  }
}

// cudaSetValidDevices' list (empty: every device, in ordinal order).
struct ValidDevices {
  std::mutex mutex;
  std::vector<int> devices;
};

ValidDevices& valid_devices() {
  static ValidDevices* v = new ValidDevices;
  return *v;
}

}  // namespace

extern "C" {

cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp* prop) {
  if (device == nullptr || prop == nullptr) return rt::record(cudaErrorInvalidValue);
  int count = 0;
  if (cudaError_t error = cudaGetDeviceCount(&count); error != cudaSuccess) return error;
  // The device whose compute capability is closest to the requested one (the only
  // property in which Strata's devices can differ), the lowest ordinal among equals.
  const int wanted = prop->major * 10 + prop->minor;
  int best = 0;
  long best_distance = LONG_MAX;
  for (int d = 0; d < count; ++d) {
    int major = 0, minor = 0;
    if (CUresult r = cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d);
        r != CUDA_SUCCESS) {
      return rt::record(r);
    }
    if (CUresult r = cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d);
        r != CUDA_SUCCESS) {
      return rt::record(r);
    }
    long distance = std::labs(static_cast<long>(major * 10 + minor) - wanted);
    if (distance < best_distance) {
      best_distance = distance;
      best = d;
    }
  }
  *device = best;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetPCIBusId(char* pciBusId, int len, int device) {
  if (pciBusId == nullptr || len <= 0) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = check_device(device); error != cudaSuccess) return error;
  return rt::record(cuDeviceGetPCIBusId(pciBusId, len, device));
}

cudaError_t cudaDeviceGetByPCIBusId(int* device, const char* pciBusId) {
  if (device == nullptr || pciBusId == nullptr) return rt::record(cudaErrorInvalidValue);
  if (CUresult r = rt::init_driver(); r != CUDA_SUCCESS) return rt::record(r);
  CUdevice dev = 0;
  // An id that names no device is an invalid value for the runtime.
  CUresult r = cuDeviceGetByPCIBusId(&dev, pciBusId);
  if (r == CUDA_ERROR_INVALID_DEVICE) return rt::record(cudaErrorInvalidValue);
  if (r != CUDA_SUCCESS) return rt::record(r);
  *device = dev;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetTexture1DLinearMaxWidth(size_t* maxWidthInElements,
                                                 const cudaChannelFormatDesc* fmtDesc, int device) {
  if (maxWidthInElements == nullptr || fmtDesc == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = check_device(device); error != cudaSuccess) return error;
  unsigned channels = 0;
  int format = array_format(*fmtDesc, &channels);
  if (format == 0) return rt::record(cudaErrorInvalidChannelDescriptor);
  return rt::record(cuDeviceGetTexture1DLinearMaxWidth(
      maxWidthInElements, static_cast<CUarray_format>(format), channels, device));
}

cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags) {
  if (flags != 0 && flags != cudaInitDeviceFlagsAreValid) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = check_device(device); error != cudaSuccess) return error;
  if (cudaError_t sticky = rt::sticky_error(); sticky != cudaSuccess) return rt::record(sticky);
  if (flags == cudaInitDeviceFlagsAreValid) {
    const unsigned int sched = deviceFlags & cudaDeviceScheduleMask;
    if ((deviceFlags & ~static_cast<unsigned int>(cudaDeviceMask)) != 0 ||
        (sched != cudaDeviceScheduleAuto && sched != cudaDeviceScheduleSpin &&
         sched != cudaDeviceScheduleYield && sched != cudaDeviceScheduleBlockingSync)) {
      return rt::record(cudaErrorInvalidValue);
    }
    if (CUresult r = cuDevicePrimaryCtxSetFlags(device, deviceFlags); r != CUDA_SUCCESS) {
      return rt::record(r);
    }
  }
  // Initialises the device's primary context; the current device stays as it was (the
  // next call for it makes its context current again).
  return rt::record(rt::activate_device(device));
}

cudaError_t cudaSetValidDevices(int* device_arr, int len) {
  if (len < 0 || (len > 0 && device_arr == nullptr)) return rt::record(cudaErrorInvalidValue);
  for (int i = 0; i < len; ++i) {
    if (cudaError_t error = check_device(device_arr[i]); error != cudaSuccess) return error;
    for (int j = 0; j < i; ++j) {
      if (device_arr[j] == device_arr[i]) return rt::record(cudaErrorInvalidValue);
    }
  }
  // Stored; the list orders implicit device selection on real CUDA, and Strata's
  // threads start on device 0 as CUDA's do without a list. The first listed device
  // becomes this thread's current device.
  ValidDevices& v = valid_devices();
  std::lock_guard lock(v.mutex);
  v.devices.assign(device_arr, device_arr + len);
  if (len > 0) rt::set_current_device(device_arr[0]);
  return cudaSuccess;
}

cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t* dynamicSmemSize, const void* func,
                                                      int numBlocks, int blockSize) {
  if (dynamicSmemSize == nullptr) return rt::record(cudaErrorInvalidValue);
  CUfunction function = nullptr;
  if (cudaError_t error = current_function(func, &function); error != cudaSuccess) return error;
  return rt::record(
      cuOccupancyAvailableDynamicSMemPerBlock(dynamicSmemSize, function, numBlocks, blockSize));
}

cudaError_t cudaOccupancyMaxActiveClusters(int* numClusters, const void* func,
                                           const cudaLaunchConfig_t* launchConfig) {
  if (numClusters == nullptr || launchConfig == nullptr) return rt::record(cudaErrorInvalidValue);
  CUfunction function = nullptr;
  if (cudaError_t error = current_function(func, &function); error != cudaSuccess) return error;
  CUlaunchConfig config{};  // the driver only checks it is there: no clusters on Strata
  return rt::record(cuOccupancyMaxActiveClusters(numClusters, function, &config));
}

cudaError_t cudaOccupancyMaxPotentialClusterSize(int* clusterSize, const void* func,
                                                 const cudaLaunchConfig_t* launchConfig) {
  if (clusterSize == nullptr || launchConfig == nullptr) return rt::record(cudaErrorInvalidValue);
  CUfunction function = nullptr;
  if (cudaError_t error = current_function(func, &function); error != cudaSuccess) return error;
  CUlaunchConfig config{};
  return rt::record(cuOccupancyMaxPotentialClusterSize(clusterSize, function, &config));
}

cudaError_t cudaMemGetDefaultMemPool(cudaMemPool_t* memPool, cudaMemLocation* location,
                                     cudaMemAllocationType type) {
  if (memPool == nullptr || location == nullptr) return rt::record(cudaErrorInvalidValue);
  if (CUresult r = rt::init_driver(); r != CUDA_SUCCESS) return rt::record(r);
  return rt::record(cuMemGetDefaultMemPool(reinterpret_cast<CUmemoryPool*>(memPool),
                                           reinterpret_cast<CUmemLocation*>(location),
                                           static_cast<CUmemAllocationType>(type)));
}

cudaError_t cudaMemGetMemPool(cudaMemPool_t* memPool, cudaMemLocation* location,
                              cudaMemAllocationType type) {
  if (memPool == nullptr || location == nullptr) return rt::record(cudaErrorInvalidValue);
  if (CUresult r = rt::init_driver(); r != CUDA_SUCCESS) return rt::record(r);
  return rt::record(cuMemGetMemPool(reinterpret_cast<CUmemoryPool*>(memPool),
                                    reinterpret_cast<CUmemLocation*>(location),
                                    static_cast<CUmemAllocationType>(type)));
}

cudaError_t cudaMemSetMemPool(cudaMemLocation* location, cudaMemAllocationType type,
                              cudaMemPool_t memPool) {
  if (location == nullptr || memPool == nullptr) return rt::record(cudaErrorInvalidValue);
  if (CUresult r = rt::init_driver(); r != CUDA_SUCCESS) return rt::record(r);
  return rt::record(cuMemSetMemPool(reinterpret_cast<CUmemLocation*>(location),
                                    static_cast<CUmemAllocationType>(type),
                                    reinterpret_cast<CUmemoryPool>(memPool)));
}

cudaError_t cudaCtxResetPersistingL2Cache(void) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuCtxResetPersistingL2Cache());
}

cudaError_t cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTarget target,
                                               cudaFlushGPUDirectRDMAWritesScope scope) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(
      cuFlushGPUDirectRDMAWrites(static_cast<CUflushGPUDirectRDMAWritesTarget>(target),
                                 static_cast<CUflushGPUDirectRDMAWritesScope>(scope)));
}

cudaError_t cudaDeviceRegisterAsyncNotification(int device, cudaAsyncCallback callbackFunc,
                                                void* userData,
                                                cudaAsyncCallbackHandle_t* callback) {
  if (callbackFunc == nullptr || callback == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = check_device(device); error != cudaSuccess) return error;
  // The runtime's callback and notification types are the driver's.
  return rt::record(cuDeviceRegisterAsyncNotification(
      device, reinterpret_cast<CUasyncCallback>(callbackFunc), userData,
      reinterpret_cast<CUasyncCallbackHandle*>(callback)));
}

cudaError_t cudaDeviceUnregisterAsyncNotification(int device, cudaAsyncCallbackHandle_t callback) {
  if (cudaError_t error = check_device(device); error != cudaSuccess) return error;
  return rt::record(cuDeviceUnregisterAsyncNotification(
      device, reinterpret_cast<CUasyncCallbackHandle>(callback)));
}

cudaError_t cudaDeviceGetHostAtomicCapabilities(unsigned int* capabilities,
                                                const cudaAtomicOperation* operations,
                                                unsigned int count, int device) {
  if (capabilities == nullptr || operations == nullptr || count == 0) {
    return rt::record(cudaErrorInvalidValue);
  }
  if (cudaError_t error = check_device(device); error != cudaSuccess) return error;
  return rt::record(cuDeviceGetHostAtomicCapabilities(
      capabilities, reinterpret_cast<const CUatomicOperation*>(operations), count, device));
}

cudaError_t cudaDeviceGetP2PAtomicCapabilities(unsigned int* capabilities,
                                               const cudaAtomicOperation* operations,
                                               unsigned int count, int srcDevice, int dstDevice) {
  if (capabilities == nullptr || operations == nullptr || count == 0) {
    return rt::record(cudaErrorInvalidValue);
  }
  if (cudaError_t error = check_device(srcDevice); error != cudaSuccess) return error;
  if (cudaError_t error = check_device(dstDevice); error != cudaSuccess) return error;
  return rt::record(cuDeviceGetP2PAtomicCapabilities(
      capabilities, reinterpret_cast<const CUatomicOperation*>(operations), count, srcDevice,
      dstDevice));
}

cudaError_t cudaGetExportTable(const void** ppExportTable, const cudaUUID_t* pExportTableId) {
  if (ppExportTable == nullptr || pExportTableId == nullptr)
    return rt::record(cudaErrorInvalidValue);
  if (CUresult r = rt::init_driver(); r != CUDA_SUCCESS) return rt::record(r);
  // Export tables are private interfaces between NVIDIA's own libraries; Strata's driver
  // has none (cuGetExportTable), so the runtime has none to hand out either.
  return rt::record(cuGetExportTable(ppExportTable, pExportTableId));
}

// ---- The driver error log ----

cudaError_t cudaLogsRegisterCallback(cudaLogsCallback_t callbackFunc, void* userData,
                                     cudaLogsCallbackHandle* callback_out) {
  if (callbackFunc == nullptr || callback_out == nullptr) return rt::record(cudaErrorInvalidValue);
  // cudaLogLevel and CUlogLevel have the same values; the handle types are the same.
  return rt::record(cuLogsRegisterCallback(reinterpret_cast<CUlogsCallback>(callbackFunc), userData,
                                           callback_out));
}

cudaError_t cudaLogsUnregisterCallback(cudaLogsCallbackHandle callback) {
  return rt::record(cuLogsUnregisterCallback(callback));
}

cudaError_t cudaLogsCurrent(cudaLogIterator* iterator_out, unsigned int flags) {
  return rt::record(cuLogsCurrent(iterator_out, flags));
}

cudaError_t cudaLogsDumpToFile(cudaLogIterator* iterator, const char* pathToFile,
                               unsigned int flags) {
  return rt::record(cuLogsDumpToFile(iterator, pathToFile, flags));
}

cudaError_t cudaLogsDumpToMemory(cudaLogIterator* iterator, char* buffer, size_t* size,
                                 unsigned int flags) {
  return rt::record(cuLogsDumpToMemory(iterator, buffer, size, flags));
}

// ---- Interop Strata does not have ----

cudaError_t cudaImportExternalMemory(cudaExternalMemory_t* extMem_out,
                                     const cudaExternalMemoryHandleDesc* memHandleDesc) {
  if (extMem_out == nullptr || memHandleDesc == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  CUDA_EXTERNAL_MEMORY_HANDLE_DESC desc{};
  desc.type = static_cast<CUexternalMemoryHandleType>(memHandleDesc->type);
  desc.size = memHandleDesc->size;
  desc.flags = memHandleDesc->flags;
  return rt::record(cuImportExternalMemory(reinterpret_cast<CUexternalMemory*>(extMem_out), &desc));
}

cudaError_t cudaExternalMemoryGetMappedBuffer(void** devPtr, cudaExternalMemory_t extMem,
                                              const cudaExternalMemoryBufferDesc* bufferDesc) {
  if (devPtr == nullptr || bufferDesc == nullptr) return rt::record(cudaErrorInvalidValue);
  return rt::record(cuExternalMemoryGetMappedBuffer(
      reinterpret_cast<CUdeviceptr*>(devPtr), reinterpret_cast<CUexternalMemory>(extMem), nullptr));
}

cudaError_t cudaExternalMemoryGetMappedMipmappedArray(
    cudaMipmappedArray_t* mipmap, cudaExternalMemory_t extMem,
    const cudaExternalMemoryMipmappedArrayDesc* mipmapDesc) {
  if (mipmap == nullptr || mipmapDesc == nullptr) return rt::record(cudaErrorInvalidValue);
  return rt::record(
      cuExternalMemoryGetMappedMipmappedArray(reinterpret_cast<CUmipmappedArray*>(mipmap),
                                              reinterpret_cast<CUexternalMemory>(extMem), nullptr));
}

cudaError_t cudaDestroyExternalMemory(cudaExternalMemory_t extMem) {
  return rt::record(cuDestroyExternalMemory(reinterpret_cast<CUexternalMemory>(extMem)));
}

cudaError_t cudaImportExternalSemaphore(cudaExternalSemaphore_t* extSem_out,
                                        const cudaExternalSemaphoreHandleDesc* semHandleDesc) {
  if (extSem_out == nullptr || semHandleDesc == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC desc{};
  desc.type = static_cast<CUexternalSemaphoreHandleType>(semHandleDesc->type);
  desc.flags = semHandleDesc->flags;
  return rt::record(
      cuImportExternalSemaphore(reinterpret_cast<CUexternalSemaphore*>(extSem_out), &desc));
}

cudaError_t cudaDestroyExternalSemaphore(cudaExternalSemaphore_t extSem) {
  return rt::record(cuDestroyExternalSemaphore(reinterpret_cast<CUexternalSemaphore>(extSem)));
}

cudaError_t cudaGraphicsUnregisterResource(cudaGraphicsResource_t resource) {
  return rt::record(cuGraphicsUnregisterResource(reinterpret_cast<CUgraphicsResource>(resource)));
}

cudaError_t cudaGraphicsResourceSetMapFlags(cudaGraphicsResource_t resource, unsigned int flags) {
  return rt::record(
      cuGraphicsResourceSetMapFlags(reinterpret_cast<CUgraphicsResource>(resource), flags));
}

cudaError_t cudaGraphicsResourceGetMappedPointer(void** devPtr, size_t* size,
                                                 cudaGraphicsResource_t resource) {
  return rt::record(
      cuGraphicsResourceGetMappedPointer(reinterpret_cast<CUdeviceptr*>(devPtr), size,
                                         reinterpret_cast<CUgraphicsResource>(resource)));
}

cudaError_t cudaGraphicsSubResourceGetMappedArray(cudaArray_t* array,
                                                  cudaGraphicsResource_t resource,
                                                  unsigned int arrayIndex, unsigned int mipLevel) {
  return rt::record(cuGraphicsSubResourceGetMappedArray(
      reinterpret_cast<CUarray*>(array), reinterpret_cast<CUgraphicsResource>(resource), arrayIndex,
      mipLevel));
}

cudaError_t cudaGraphicsResourceGetMappedMipmappedArray(cudaMipmappedArray_t* mipmappedArray,
                                                        cudaGraphicsResource_t resource) {
  return rt::record(
      cuGraphicsResourceGetMappedMipmappedArray(reinterpret_cast<CUmipmappedArray*>(mipmappedArray),
                                                reinterpret_cast<CUgraphicsResource>(resource)));
}

cudaError_t cudaGraphicsMapResources(int count, cudaGraphicsResource_t* resources,
                                     cudaStream_t stream) {
  if (count <= 0) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuGraphicsMapResources(
      static_cast<unsigned>(count), reinterpret_cast<CUgraphicsResource*>(resources), stream));
}

cudaError_t cudaGraphicsUnmapResources(int count, cudaGraphicsResource_t* resources,
                                       cudaStream_t stream) {
  if (count <= 0) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuGraphicsUnmapResources(
      static_cast<unsigned>(count), reinterpret_cast<CUgraphicsResource*>(resources), stream));
}

cudaError_t cudaDeviceGetNvSciSyncAttributes(void* nvSciSyncAttrList, int device, int flags) {
  if (nvSciSyncAttrList == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = check_device(device); error != cudaSuccess) return error;
  return rt::record(cuDeviceGetNvSciSyncAttributes(nvSciSyncAttrList, device, flags));
}

}  // extern "C"
