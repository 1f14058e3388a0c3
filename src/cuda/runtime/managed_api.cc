// Managed memory: cudaMallocManaged, cudaStreamAttachMemAsync, cudaMemPrefetchAsync,
// cudaMemAdvise, cudaMemRangeGetAttribute(s). See managed_memory.h for the model.
#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <set>

#include "cuda/runtime/api_common.h"
#include "cuda/runtime/managed_memory.h"

namespace rt = strata::cuda::runtime;

namespace strata::cuda::runtime {
namespace {

// A location as the legacy int attributes report it: a device ordinal, cudaCpuDeviceId
// for the host, cudaInvalidDeviceId for none.
struct Location {
  cudaMemLocationType type = cudaMemLocationTypeInvalid;
  int id = 0;
  int legacy_id() const {
    if (type == cudaMemLocationTypeDevice) return id;
    if (type == cudaMemLocationTypeHost) return cudaCpuDeviceId;
    return cudaInvalidDeviceId;
  }
};

struct ManagedRange {
  size_t size = 0;
  unsigned int attach = cudaMemAttachGlobal;
  bool read_mostly = false;
  Location preferred;
  Location last_prefetch;
  std::set<int> accessed_by;  // legacy ids (devices, cudaCpuDeviceId)
};

struct ManagedTable {
  std::mutex mutex;
  std::map<uintptr_t, ManagedRange> by_base;
};

ManagedTable& table() {
  static auto* instance = new ManagedTable();
  return *instance;
}

// The allocation holding [ptr, ptr + count); nullptr if none (caller holds the lock).
ManagedRange* find_locked(const void* ptr, size_t count) {
  auto& map = table().by_base;
  auto addr = reinterpret_cast<uintptr_t>(ptr);
  auto it = map.upper_bound(addr);
  if (it == map.begin()) return nullptr;
  --it;
  if (addr - it->first >= it->second.size) return nullptr;
  if (count > it->second.size - (addr - it->first)) return nullptr;
  return &it->second;
}

// Validates a location naming a device or the host.
cudaError_t check_location(const cudaMemLocation& location) {
  if (location.type == cudaMemLocationTypeHost) return cudaSuccess;
  if (location.type != cudaMemLocationTypeDevice) return cudaErrorInvalidValue;
  int count = 0;
  if (cuDeviceGetCount(&count) != CUDA_SUCCESS) return cudaErrorInvalidDevice;
  return location.id >= 0 && location.id < count ? cudaSuccess : cudaErrorInvalidDevice;
}

// Validates a stream handle: the driver rejects unknown ones.
cudaError_t check_stream(cudaStream_t stream) {
  CUresult result = cuStreamQuery(stream);
  if (result == CUDA_SUCCESS || result == CUDA_ERROR_NOT_READY) return cudaSuccess;
  return cudaErrorInvalidResourceHandle;
}

cudaError_t write_int(void* data, size_t size, int value) {
  if (size != sizeof(int)) return cudaErrorInvalidValue;
  std::memcpy(data, &value, sizeof(int));
  return cudaSuccess;
}

cudaError_t range_attribute(const ManagedRange& range, void* data, size_t size,
                            cudaMemRangeAttribute attribute) {
  if (data == nullptr) return cudaErrorInvalidValue;
  switch (attribute) {
    case cudaMemRangeAttributeReadMostly:
      return write_int(data, size, range.read_mostly);
    case cudaMemRangeAttributePreferredLocation:
      return write_int(data, size, range.preferred.legacy_id());
    case cudaMemRangeAttributePreferredLocationType:
      return write_int(data, size, range.preferred.type);
    case cudaMemRangeAttributePreferredLocationId:
      return write_int(data, size, range.preferred.id);
    case cudaMemRangeAttributeLastPrefetchLocation:
      return write_int(data, size, range.last_prefetch.legacy_id());
    case cudaMemRangeAttributeLastPrefetchLocationType:
      return write_int(data, size, range.last_prefetch.type);
    case cudaMemRangeAttributeLastPrefetchLocationId:
      return write_int(data, size, range.last_prefetch.id);
    case cudaMemRangeAttributeAccessedBy: {
      if (size == 0 || size % sizeof(int) != 0) return cudaErrorInvalidValue;
      auto* out = static_cast<int*>(data);
      size_t n = size / sizeof(int);
      std::fill(out, out + n, cudaInvalidDeviceId);
      size_t i = 0;
      for (int id : range.accessed_by) {
        if (i == n) break;
        out[i++] = id;
      }
      return cudaSuccess;
    }
  }
  return cudaErrorInvalidValue;
}

}  // namespace

bool free_managed(void* ptr, cudaError_t* error) {
  {
    ManagedTable& t = table();
    std::lock_guard lock(t.mutex);
    if (t.by_base.erase(reinterpret_cast<uintptr_t>(ptr)) == 0) return false;
  }
  *error = record(cuMemFreeHost(ptr));
  return true;
}

bool is_managed(const void* ptr) {
  std::lock_guard lock(table().mutex);
  return find_locked(ptr, 0) != nullptr;
}

}  // namespace strata::cuda::runtime

extern "C" {

cudaError_t cudaMallocManaged(void** devPtr, size_t size, unsigned int flags) {
  if (devPtr == nullptr || size == 0) return rt::record(cudaErrorInvalidValue);
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost) {
    return rt::record(cudaErrorInvalidValue);
  }
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  *devPtr = nullptr;
  void* ptr = nullptr;
  CUresult result = cuMemHostAlloc(&ptr, size, CU_MEMHOSTALLOC_PORTABLE);
  if (result != CUDA_SUCCESS) return rt::record(result);
  {
    std::lock_guard lock(rt::table().mutex);
    rt::ManagedRange& range = rt::table().by_base[reinterpret_cast<uintptr_t>(ptr)];
    range = rt::ManagedRange{};
    range.size = size;
    range.attach = flags;
  }
  *devPtr = ptr;
  return cudaSuccess;
}

}  // extern "C"

cudaError_t rt::attach_managed(cudaStream_t stream, void* devPtr, size_t length,
                               unsigned int flags) {
  if (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost && flags != cudaMemAttachSingle) {
    return rt::record(cudaErrorInvalidValue);
  }
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  if (cudaError_t error = rt::check_stream(stream); error != cudaSuccess) {
    return rt::record(error);
  }
  std::lock_guard lock(rt::table().mutex);
  auto it = rt::table().by_base.find(reinterpret_cast<uintptr_t>(devPtr));
  // For managed allocations length must be 0 or the whole allocation.
  if (it == rt::table().by_base.end() || (length != 0 && length != it->second.size)) {
    return rt::record(cudaErrorInvalidValue);
  }
  // Memory is coherent, so the attachment only needs recording; it takes effect in
  // stream order, which nothing observes.
  it->second.attach = flags;
  return cudaSuccess;
}

cudaError_t rt::prefetch_managed(const void* devPtr, size_t count, cudaMemLocation location,
                                 unsigned int flags, cudaStream_t stream) {
  if (devPtr == nullptr || count == 0 || flags != 0) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  if (cudaError_t error = rt::check_location(location); error != cudaSuccess) {
    return rt::record(error);
  }
  if (cudaError_t error = rt::check_stream(stream); error != cudaSuccess) {
    return rt::record(error);
  }
  std::lock_guard lock(rt::table().mutex);
  rt::ManagedRange* range = rt::find_locked(devPtr, count);
  if (range == nullptr) return rt::record(cudaErrorInvalidValue);
  range->last_prefetch = {location.type, location.id};
  return cudaSuccess;
}

extern "C" {

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
  if (devPtr == nullptr || count == 0) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  bool needs_location = advice == cudaMemAdviseSetPreferredLocation ||
                        advice == cudaMemAdviseSetAccessedBy ||
                        advice == cudaMemAdviseUnsetAccessedBy;
  if (needs_location) {
    if (cudaError_t error = rt::check_location(location); error != cudaSuccess) {
      return rt::record(error);
    }
  }
  std::lock_guard lock(rt::table().mutex);
  rt::ManagedRange* range = rt::find_locked(devPtr, count);
  if (range == nullptr) return rt::record(cudaErrorInvalidValue);
  rt::Location where{location.type, location.id};
  switch (advice) {
    case cudaMemAdviseSetReadMostly:
      range->read_mostly = true;
      break;
    case cudaMemAdviseUnsetReadMostly:
      range->read_mostly = false;
      break;
    case cudaMemAdviseSetPreferredLocation:
      range->preferred = where;
      break;
    case cudaMemAdviseUnsetPreferredLocation:
      range->preferred = {};
      break;
    case cudaMemAdviseSetAccessedBy:
      range->accessed_by.insert(where.legacy_id());
      break;
    case cudaMemAdviseUnsetAccessedBy:
      range->accessed_by.erase(where.legacy_id());
      break;
    default:
      return rt::record(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

cudaError_t cudaMemRangeGetAttribute(void* data, size_t dataSize, cudaMemRangeAttribute attribute,
                                     const void* devPtr, size_t count) {
  if (devPtr == nullptr || count == 0) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  std::lock_guard lock(rt::table().mutex);
  rt::ManagedRange* range = rt::find_locked(devPtr, count);
  if (range == nullptr) return rt::record(cudaErrorInvalidValue);
  return rt::record(rt::range_attribute(*range, data, dataSize, attribute));
}

cudaError_t cudaMemRangeGetAttributes(void** data, size_t* dataSizes,
                                      cudaMemRangeAttribute* attributes, size_t numAttributes,
                                      const void* devPtr, size_t count) {
  if (data == nullptr || dataSizes == nullptr || attributes == nullptr || numAttributes == 0) {
    return rt::record(cudaErrorInvalidValue);
  }
  for (size_t i = 0; i < numAttributes; ++i) {
    cudaError_t error =
        cudaMemRangeGetAttribute(data[i], dataSizes[i], attributes[i], devPtr, count);
    if (error != cudaSuccess) return error;
  }
  return cudaSuccess;
}

}  // extern "C"
