#include "cuda/runtime/device_properties.h"

#include <cstring>

namespace strata::cuda::runtime {
namespace {

struct IntField {
  int cudaDeviceProp::*field;
  CUdevice_attribute attribute;
};

struct ArrayField {
  int (cudaDeviceProp::*field)[3];
  int index;
  CUdevice_attribute attribute;
};
struct Array2Field {
  int (cudaDeviceProp::*field)[2];
  int index;
  CUdevice_attribute attribute;
};

struct SizeField {
  size_t cudaDeviceProp::*field;
  CUdevice_attribute attribute;
};

constexpr IntField kIntFields[] = {
    {&cudaDeviceProp::regsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK},
    {&cudaDeviceProp::warpSize, CU_DEVICE_ATTRIBUTE_WARP_SIZE},
    {&cudaDeviceProp::maxThreadsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK},
    {&cudaDeviceProp::major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR},
    {&cudaDeviceProp::minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR},
    {&cudaDeviceProp::multiProcessorCount, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT},
    {&cudaDeviceProp::integrated, CU_DEVICE_ATTRIBUTE_INTEGRATED},
    {&cudaDeviceProp::canMapHostMemory, CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY},
    {&cudaDeviceProp::maxTexture1D, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH},
    {&cudaDeviceProp::maxTexture1DMipmap, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH},
    {&cudaDeviceProp::maxTextureCubemap, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH},
    {&cudaDeviceProp::maxSurface1D, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH},
    {&cudaDeviceProp::maxSurfaceCubemap, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH},
    {&cudaDeviceProp::concurrentKernels, CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS},
    {&cudaDeviceProp::ECCEnabled, CU_DEVICE_ATTRIBUTE_ECC_ENABLED},
    {&cudaDeviceProp::pciBusID, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID},
    {&cudaDeviceProp::pciDeviceID, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID},
    {&cudaDeviceProp::pciDomainID, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID},
    {&cudaDeviceProp::tccDriver, CU_DEVICE_ATTRIBUTE_TCC_DRIVER},
    {&cudaDeviceProp::asyncEngineCount, CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT},
    {&cudaDeviceProp::unifiedAddressing, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING},
    {&cudaDeviceProp::memoryBusWidth, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH},
    {&cudaDeviceProp::l2CacheSize, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE},
    {&cudaDeviceProp::persistingL2CacheMaxSize, CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE},
    {&cudaDeviceProp::maxThreadsPerMultiProcessor,
     CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR},
    {&cudaDeviceProp::streamPrioritiesSupported, CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED},
    {&cudaDeviceProp::globalL1CacheSupported, CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED},
    {&cudaDeviceProp::localL1CacheSupported, CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED},
    {&cudaDeviceProp::regsPerMultiprocessor, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR},
    {&cudaDeviceProp::managedMemory, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY},
    {&cudaDeviceProp::isMultiGpuBoard, CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD},
    {&cudaDeviceProp::multiGpuBoardGroupID, CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID},
    {&cudaDeviceProp::hostNativeAtomicSupported, CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED},
    {&cudaDeviceProp::pageableMemoryAccess, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS},
    {&cudaDeviceProp::concurrentManagedAccess, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS},
    {&cudaDeviceProp::computePreemptionSupported,
     CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED},
    {&cudaDeviceProp::canUseHostPointerForRegisteredMem,
     CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM},
    {&cudaDeviceProp::cooperativeLaunch, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH},
    {&cudaDeviceProp::pageableMemoryAccessUsesHostPageTables,
     CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES},
    {&cudaDeviceProp::directManagedMemAccessFromHost,
     CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST},
    {&cudaDeviceProp::maxBlocksPerMultiProcessor,
     CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR},
    {&cudaDeviceProp::accessPolicyMaxWindowSize, CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE},
    {&cudaDeviceProp::hostRegisterSupported, CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED},
    {&cudaDeviceProp::memoryPoolsSupported, CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED},
    {&cudaDeviceProp::clusterLaunch, CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH},
};

constexpr ArrayField kArrayFields[] = {
    {&cudaDeviceProp::maxThreadsDim, 0, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X},
    {&cudaDeviceProp::maxThreadsDim, 1, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y},
    {&cudaDeviceProp::maxThreadsDim, 2, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z},
    {&cudaDeviceProp::maxGridSize, 0, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X},
    {&cudaDeviceProp::maxGridSize, 1, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y},
    {&cudaDeviceProp::maxGridSize, 2, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z},
    // Texture and surface limits (cuda/driver/device_attributes.cc).
    {&cudaDeviceProp::maxTexture2DLinear, 0, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH},
    {&cudaDeviceProp::maxTexture2DLinear, 1, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT},
    {&cudaDeviceProp::maxTexture2DLinear, 2, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH},
    {&cudaDeviceProp::maxTexture3D, 0, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH},
    {&cudaDeviceProp::maxTexture3D, 1, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT},
    {&cudaDeviceProp::maxTexture3D, 2, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH},
    {&cudaDeviceProp::maxTexture3DAlt, 0, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE},
    {&cudaDeviceProp::maxTexture3DAlt, 1, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE},
    {&cudaDeviceProp::maxTexture3DAlt, 2, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE},
    {&cudaDeviceProp::maxTexture2DLayered, 0, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH},
    {&cudaDeviceProp::maxTexture2DLayered, 1, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT},
    {&cudaDeviceProp::maxTexture2DLayered, 2, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS},
    {&cudaDeviceProp::maxSurface3D, 0, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH},
    {&cudaDeviceProp::maxSurface3D, 1, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT},
    {&cudaDeviceProp::maxSurface3D, 2, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH},
    {&cudaDeviceProp::maxSurface2DLayered, 0, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH},
    {&cudaDeviceProp::maxSurface2DLayered, 1, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT},
    {&cudaDeviceProp::maxSurface2DLayered, 2, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS},
};

// Texture and surface limits held in two-element arrays.
constexpr Array2Field kArray2Fields[] = {
    {&cudaDeviceProp::maxTexture2D, 0, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH},
    {&cudaDeviceProp::maxTexture2D, 1, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT},
    {&cudaDeviceProp::maxTexture2DMipmap, 0, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH},
    {&cudaDeviceProp::maxTexture2DMipmap, 1,
     CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT},
    {&cudaDeviceProp::maxTexture2DGather, 0, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH},
    {&cudaDeviceProp::maxTexture2DGather, 1, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT},
    {&cudaDeviceProp::maxTexture1DLayered, 0, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH},
    {&cudaDeviceProp::maxTexture1DLayered, 1, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS},
    {&cudaDeviceProp::maxTextureCubemapLayered, 0,
     CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH},
    {&cudaDeviceProp::maxTextureCubemapLayered, 1,
     CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS},
    {&cudaDeviceProp::maxSurface2D, 0, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH},
    {&cudaDeviceProp::maxSurface2D, 1, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT},
    {&cudaDeviceProp::maxSurface1DLayered, 0, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH},
    {&cudaDeviceProp::maxSurface1DLayered, 1, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS},
    {&cudaDeviceProp::maxSurfaceCubemapLayered, 0,
     CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH},
    {&cudaDeviceProp::maxSurfaceCubemapLayered, 1,
     CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS},
};

constexpr SizeField kSizeFields[] = {
    {&cudaDeviceProp::sharedMemPerBlock, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK},
    {&cudaDeviceProp::memPitch, CU_DEVICE_ATTRIBUTE_MAX_PITCH},
    {&cudaDeviceProp::totalConstMem, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY},
    {&cudaDeviceProp::textureAlignment, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT},
    {&cudaDeviceProp::texturePitchAlignment, CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT},
    {&cudaDeviceProp::surfaceAlignment, CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT},
    {&cudaDeviceProp::sharedMemPerMultiprocessor,
     CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR},
    {&cudaDeviceProp::sharedMemPerBlockOptin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN},
    {&cudaDeviceProp::reservedSharedMemPerBlock,
     CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK},
};

// Attributes the driver may not implement yet read as 0; anything else is an error.
CUresult read(int* value, CUdevice_attribute attribute, CUdevice device) {
  CUresult result = cuDeviceGetAttribute(value, attribute, device);
  if (result == CUDA_ERROR_INVALID_VALUE || result == CUDA_ERROR_NOT_SUPPORTED) {
    *value = 0;
    return CUDA_SUCCESS;
  }
  return result;
}

}  // namespace

CUresult fill_device_properties(int device, cudaDeviceProp* prop) {
  CUdevice handle = 0;
  CUresult result = cuDeviceGet(&handle, device);
  if (result != CUDA_SUCCESS) return result;
  std::memset(prop, 0, sizeof(*prop));
  result = cuDeviceGetName(prop->name, sizeof(prop->name), handle);
  if (result != CUDA_SUCCESS) return result;
  size_t total = 0;
  result = cuDeviceTotalMem(&total, handle);
  if (result != CUDA_SUCCESS) return result;
  prop->totalGlobalMem = total;
  CUuuid uuid;
  if (cuDeviceGetUuid(&uuid, handle) == CUDA_SUCCESS) {
    static_assert(sizeof(prop->uuid) == sizeof(uuid));
    std::memcpy(&prop->uuid, &uuid, sizeof(uuid));
  }
  for (const IntField& f : kIntFields) {
    result = read(&(prop->*f.field), f.attribute, handle);
    if (result != CUDA_SUCCESS) return result;
  }
  for (const ArrayField& f : kArrayFields) {
    result = read(&(prop->*f.field)[f.index], f.attribute, handle);
    if (result != CUDA_SUCCESS) return result;
  }
  for (const Array2Field& f : kArray2Fields) {
    result = read(&(prop->*f.field)[f.index], f.attribute, handle);
    if (result != CUDA_SUCCESS) return result;
  }
  for (const SizeField& f : kSizeFields) {
    int value = 0;
    result = read(&value, f.attribute, handle);
    if (result != CUDA_SUCCESS) return result;
    prop->*f.field = static_cast<size_t>(value);
  }
  return CUDA_SUCCESS;
}

}  // namespace strata::cuda::runtime
