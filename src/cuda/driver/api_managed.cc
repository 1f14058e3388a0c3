// Entry points: managed memory. cuMemAllocManaged, cuStreamAttachMemAsync,
// cuMemPrefetchAsync and cuMemAdvise (the CUDA 12.2+ forms with CUmemLocation, which
// cuda.h binds; the older CUdevice forms are not exported), cuMemRangeGetAttribute(s) and
// the CUDA 13 batch calls
// cuMemPrefetchBatchAsync / cuMemDiscardBatchAsync / cuMemDiscardAndPrefetchBatchAsync,
// with their _ptsz variants. The model (one copy, hints recorded, nothing migrates) is
// in managed_memory.h.
#include <cuda.h>

#include <algorithm>
#include <cstring>

#include "base/log.h"
#include "cuda/driver/api_util.h"
#include "cuda/driver/device.h"
#include "cuda/driver/managed_memory.h"
#include "cuda/driver/stream.h"

using namespace strata;
using namespace strata::cuda::driver;

// cuda.h declares the _ptsz variants only under CUDA_API_PER_THREAD_DEFAULT_STREAM; they
// are restated here so that both variants live in one file.
extern "C" {
CUresult CUDAAPI cuMemPrefetchAsync_v2_ptsz(CUdeviceptr devPtr, size_t count,
                                            CUmemLocation location, unsigned int flags,
                                            CUstream hStream);
CUresult CUDAAPI cuStreamAttachMemAsync_ptsz(CUstream hStream, CUdeviceptr dptr, size_t length,
                                             unsigned int flags);
CUresult CUDAAPI cuMemPrefetchBatchAsync_ptsz(CUdeviceptr* dptrs, size_t* sizes, size_t count,
                                              CUmemLocation* prefetchLocs, size_t* prefetchLocIdxs,
                                              size_t numPrefetchLocs, unsigned long long flags,
                                              CUstream hStream);
CUresult CUDAAPI cuMemDiscardBatchAsync_ptsz(CUdeviceptr* dptrs, size_t* sizes, size_t count,
                                             unsigned long long flags, CUstream hStream);
CUresult CUDAAPI cuMemDiscardAndPrefetchBatchAsync_ptsz(CUdeviceptr* dptrs, size_t* sizes,
                                                        size_t count, CUmemLocation* prefetchLocs,
                                                        size_t* prefetchLocIdxs,
                                                        size_t numPrefetchLocs,
                                                        unsigned long long flags, CUstream hStream);
}

namespace {

StatusOr<std::shared_ptr<Stream>> stream_of(CUstream handle, bool per_thread) {
  ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
  return resolve_stream(*ctx, handle, per_thread);
}

// A location naming a device or the host (CUDA's prefetch and advice targets).
Status check_location(const char* api, const CUmemLocation& location) {
  if (location.type == CU_MEM_LOCATION_TYPE_HOST) return ok_status();
  if (location.type != CU_MEM_LOCATION_TYPE_DEVICE) {
    return error(Code::kInvalidValue,
                 fmt::format("{}: location type {} is not a device or the host", api,
                             static_cast<int>(location.type)));
  }
  ASSIGN_OR_RETURN(std::vector<Device*> all, devices());
  if (location.id < 0 || static_cast<size_t>(location.id) >= all.size()) {
    return error(Code::kInvalidDevice, fmt::format("{}: no device {}", api, location.id));
  }
  return ok_status();
}

// As the legacy int attributes report a location: a device ordinal, CU_DEVICE_CPU for the
// host, CU_DEVICE_INVALID for none.
int legacy_id(const CUmemLocation& location) {
  if (location.type == CU_MEM_LOCATION_TYPE_DEVICE) return location.id;
  if (location.type == CU_MEM_LOCATION_TYPE_HOST) return CU_DEVICE_CPU;
  return CU_DEVICE_INVALID;
}

Status attach(CUstream handle, CUdeviceptr dptr, size_t length, unsigned int flags,
              bool per_thread) {
  constexpr const char* api = "cuStreamAttachMemAsync";
  if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST &&
      flags != CU_MEM_ATTACH_SINGLE) {
    return error(Code::kInvalidValue, fmt::format("{}: unknown flags {:#x}", api, flags));
  }
  ASSIGN_OR_RETURN(std::shared_ptr<Stream> stream, stream_of(handle, per_thread));
  std::optional<ManagedRange> range = find_managed(dptr);
  // For managed memory the range is the whole allocation: length 0 or its size.
  if (!range || range->base != dptr || (length != 0 && length != range->size)) {
    return error(Code::kInvalidValue,
                 fmt::format("{}: {:#x} +{} is not a whole managed allocation", api, dptr, length));
  }
  // Memory is coherent, so the attachment only needs recording; it takes effect in
  // stream order, which nothing observes.
  return update_managed_advice(dptr, 0, api, [&](ManagedAdvice& advice) {
    advice.attach = flags;
    return ok_status();
  });
}

Status prefetch(const char* api, CUdeviceptr ptr, size_t count, const CUmemLocation& location,
                unsigned long long flags, const std::shared_ptr<Stream>& stream) {
  if (ptr == 0 || count == 0 || flags != 0) {
    return error(Code::kInvalidValue,
                 fmt::format("{}: null range, zero count or nonzero flags", api));
  }
  RETURN_IF_ERROR(check_location(api, location));
  (void)stream;  // a hint: nothing to enqueue
  return update_managed_advice(ptr, count, api, [&](ManagedAdvice& advice) {
    advice.last_prefetch = location;
    return ok_status();
  });
}

Status prefetch_one(const char* api, CUdeviceptr ptr, size_t count, CUmemLocation location,
                    unsigned int flags, CUstream handle, bool per_thread) {
  ASSIGN_OR_RETURN(std::shared_ptr<Stream> stream, stream_of(handle, per_thread));
  return prefetch(api, ptr, count, location, flags, stream);
}

Status advise(CUdeviceptr ptr, size_t count, CUmem_advise advice, CUmemLocation location) {
  constexpr const char* api = "cuMemAdvise";
  if (ptr == 0 || count == 0) {
    return error(Code::kInvalidValue, fmt::format("{}: null range or zero count", api));
  }
  ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
  const bool needs_location = advice == CU_MEM_ADVISE_SET_PREFERRED_LOCATION ||
                              advice == CU_MEM_ADVISE_SET_ACCESSED_BY ||
                              advice == CU_MEM_ADVISE_UNSET_ACCESSED_BY;
  if (needs_location) RETURN_IF_ERROR(check_location(api, location));
  return update_managed_advice(ptr, count, api, [&](ManagedAdvice& recorded) -> Status {
    switch (advice) {
      case CU_MEM_ADVISE_SET_READ_MOSTLY:
        recorded.read_mostly = true;
        return ok_status();
      case CU_MEM_ADVISE_UNSET_READ_MOSTLY:
        recorded.read_mostly = false;
        return ok_status();
      case CU_MEM_ADVISE_SET_PREFERRED_LOCATION:
        recorded.preferred = location;
        return ok_status();
      case CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION:
        recorded.preferred = {CU_MEM_LOCATION_TYPE_INVALID, 0};
        return ok_status();
      case CU_MEM_ADVISE_SET_ACCESSED_BY:
        recorded.accessed_by.insert({location.type, location.id});
        return ok_status();
      case CU_MEM_ADVISE_UNSET_ACCESSED_BY:
        recorded.accessed_by.erase({location.type, location.id});
        return ok_status();
      default:
        return error(Code::kInvalidValue,
                     fmt::format("{}: unknown advice {}", api, static_cast<int>(advice)));
    }
  });
}

Status write_int(void* data, size_t size, int value) {
  if (size != sizeof(int)) {
    return error(Code::kInvalidValue,
                 fmt::format("cuMemRangeGetAttribute: dataSize {} is not 4", size));
  }
  std::memcpy(data, &value, sizeof(int));
  return ok_status();
}

Status range_attribute(void* data, size_t size, CUmem_range_attribute attribute, CUdeviceptr ptr,
                       size_t count) {
  constexpr const char* api = "cuMemRangeGetAttribute";
  if (data == nullptr) return null_arg(api, "data");
  if (ptr == 0 || count == 0) {
    return error(Code::kInvalidValue, fmt::format("{}: null range or zero count", api));
  }
  ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
  std::optional<ManagedRange> range = find_managed(ptr, count);
  if (!range) {
    return error(
        Code::kInvalidValue,
        fmt::format("{}: [{:#x}, +{}) is not inside one managed allocation", api, ptr, count));
  }
  const ManagedAdvice& a = range->advice;
  switch (attribute) {
    case CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY:
      return write_int(data, size, a.read_mostly);
    case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION:
      return write_int(data, size, legacy_id(a.preferred));
    case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE:
      return write_int(data, size, a.preferred.type);
    case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID:
      return write_int(data, size, a.preferred.id);
    case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION:
      return write_int(data, size, legacy_id(a.last_prefetch));
    case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE:
      return write_int(data, size, a.last_prefetch.type);
    case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID:
      return write_int(data, size, a.last_prefetch.id);
    case CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY: {
      if (size == 0 || size % sizeof(int) != 0) {
        return error(Code::kInvalidValue,
                     fmt::format("{}: dataSize {} is not a multiple of 4", api, size));
      }
      auto* out = static_cast<int*>(data);
      const size_t n = size / sizeof(int);
      std::fill(out, out + n, CU_DEVICE_INVALID);
      size_t i = 0;
      for (const auto& [type, id] : a.accessed_by) {
        if (i == n) break;
        out[i++] = legacy_id({static_cast<CUmemLocationType>(type), id});
      }
      return ok_status();
    }
    default:
      return error(Code::kInvalidValue,
                   fmt::format("{}: unknown attribute {}", api, static_cast<int>(attribute)));
  }
}

// The batch calls require CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS on every device
// (cuda.h); Strata reports 0, so they fail as CUDA does on such systems, after the
// argument checks.
Status batch(const char* api, CUdeviceptr* dptrs, size_t* sizes, size_t count,
             unsigned long long flags, CUstream handle, bool per_thread) {
  if (dptrs == nullptr || sizes == nullptr || count == 0 || flags != 0) {
    return error(Code::kInvalidValue,
                 fmt::format("{}: null arrays, zero count or nonzero flags", api));
  }
  if (handle == nullptr && !per_thread) {
    return error(Code::kInvalidValue,
                 fmt::format("{}: the legacy NULL stream is not allowed", api));
  }
  ASSIGN_OR_RETURN(std::shared_ptr<Stream> stream, stream_of(handle, per_thread));
  for (size_t i = 0; i < count; ++i) {
    if (!find_managed(dptrs[i], sizes[i])) {
      return error(Code::kInvalidValue,
                   fmt::format("{}: range {} [{:#x}, +{}) is not managed memory", api, i, dptrs[i],
                               sizes[i]));
    }
  }
  STRATA_LOG_INFO(
      "driver: {} needs concurrent managed access, which Strata does not "
      "provide (CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS is 0)",
      api);
  return error(Code::kNotSupported,
               fmt::format("{}: devices without concurrent managed access", api));
}

Status prefetch_locations(const char* api, size_t count, CUmemLocation* locations, size_t* indices,
                          size_t num_locations) {
  if (locations == nullptr || indices == nullptr || num_locations == 0 || num_locations > count ||
      indices[0] != 0) {
    return error(Code::kInvalidValue, fmt::format("{}: invalid prefetch locations", api));
  }
  for (size_t i = 0; i < num_locations; ++i) {
    if (i > 0 && indices[i] <= indices[i - 1]) {
      return error(Code::kInvalidValue, fmt::format("{}: prefetchLocIdxs not increasing", api));
    }
    if (indices[i] >= count) {
      return error(Code::kInvalidValue, fmt::format("{}: prefetchLocIdxs beyond count", api));
    }
    RETURN_IF_ERROR(check_location(api, locations[i]));
  }
  return ok_status();
}

CUresult prefetch_batch(const char* api, CUdeviceptr* dptrs, size_t* sizes, size_t count,
                        CUmemLocation* locations, size_t* indices, size_t num_locations,
                        unsigned long long flags, CUstream handle, bool per_thread) {
  return api_call(api, [&]() -> Status {
    RETURN_IF_ERROR(prefetch_locations(api, count, locations, indices, num_locations));
    return batch(api, dptrs, sizes, count, flags, handle, per_thread);
  });
}

}  // namespace

extern "C" {

CUresult CUDAAPI cuMemAllocManaged(CUdeviceptr* dptr, size_t bytesize, unsigned int flags) {
  return api_call("cuMemAllocManaged", [&]() -> Status {
    if (dptr == nullptr) return null_arg("cuMemAllocManaged", "dptr");
    *dptr = 0;
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    ASSIGN_OR_RETURN(*dptr, allocate_managed(bytesize, flags));
    return ok_status();
  });
}

CUresult CUDAAPI cuStreamAttachMemAsync(CUstream hStream, CUdeviceptr dptr, size_t length,
                                        unsigned int flags) {
  return api_call("cuStreamAttachMemAsync",
                  [&] { return attach(hStream, dptr, length, flags, /*per_thread=*/false); });
}

CUresult CUDAAPI cuStreamAttachMemAsync_ptsz(CUstream hStream, CUdeviceptr dptr, size_t length,
                                             unsigned int flags) {
  return api_call("cuStreamAttachMemAsync",
                  [&] { return attach(hStream, dptr, length, flags, /*per_thread=*/true); });
}

CUresult CUDAAPI cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count, CUmemLocation location,
                                       unsigned int flags, CUstream hStream) {
  return api_call("cuMemPrefetchAsync", [&] {
    return prefetch_one("cuMemPrefetchAsync", devPtr, count, location, flags, hStream, false);
  });
}

CUresult CUDAAPI cuMemPrefetchAsync_v2_ptsz(CUdeviceptr devPtr, size_t count,
                                            CUmemLocation location, unsigned int flags,
                                            CUstream hStream) {
  return api_call("cuMemPrefetchAsync", [&] {
    return prefetch_one("cuMemPrefetchAsync", devPtr, count, location, flags, hStream, true);
  });
}

CUresult CUDAAPI cuMemAdvise_v2(CUdeviceptr devPtr, size_t count, CUmem_advise advice,
                                CUmemLocation location) {
  return api_call("cuMemAdvise", [&] { return advise(devPtr, count, advice, location); });
}

CUresult CUDAAPI cuMemRangeGetAttribute(void* data, size_t dataSize,
                                        CUmem_range_attribute attribute, CUdeviceptr devPtr,
                                        size_t count) {
  return api_call("cuMemRangeGetAttribute",
                  [&] { return range_attribute(data, dataSize, attribute, devPtr, count); });
}

CUresult CUDAAPI cuMemRangeGetAttributes(void** data, size_t* dataSizes,
                                         CUmem_range_attribute* attributes, size_t numAttributes,
                                         CUdeviceptr devPtr, size_t count) {
  return api_call("cuMemRangeGetAttributes", [&]() -> Status {
    if (data == nullptr || dataSizes == nullptr || attributes == nullptr || numAttributes == 0) {
      return null_arg("cuMemRangeGetAttributes", "data, dataSizes or attributes");
    }
    for (size_t i = 0; i < numAttributes; ++i) {
      RETURN_IF_ERROR(range_attribute(data[i], dataSizes[i], attributes[i], devPtr, count));
    }
    return ok_status();
  });
}

CUresult CUDAAPI cuMemPrefetchBatchAsync(CUdeviceptr* dptrs, size_t* sizes, size_t count,
                                         CUmemLocation* prefetchLocs, size_t* prefetchLocIdxs,
                                         size_t numPrefetchLocs, unsigned long long flags,
                                         CUstream hStream) {
  return prefetch_batch("cuMemPrefetchBatchAsync", dptrs, sizes, count, prefetchLocs,
                        prefetchLocIdxs, numPrefetchLocs, flags, hStream, false);
}

CUresult CUDAAPI cuMemPrefetchBatchAsync_ptsz(CUdeviceptr* dptrs, size_t* sizes, size_t count,
                                              CUmemLocation* prefetchLocs, size_t* prefetchLocIdxs,
                                              size_t numPrefetchLocs, unsigned long long flags,
                                              CUstream hStream) {
  return prefetch_batch("cuMemPrefetchBatchAsync", dptrs, sizes, count, prefetchLocs,
                        prefetchLocIdxs, numPrefetchLocs, flags, hStream, true);
}

CUresult CUDAAPI cuMemDiscardBatchAsync(CUdeviceptr* dptrs, size_t* sizes, size_t count,
                                        unsigned long long flags, CUstream hStream) {
  return api_call("cuMemDiscardBatchAsync", [&] {
    return batch("cuMemDiscardBatchAsync", dptrs, sizes, count, flags, hStream, false);
  });
}

CUresult CUDAAPI cuMemDiscardBatchAsync_ptsz(CUdeviceptr* dptrs, size_t* sizes, size_t count,
                                             unsigned long long flags, CUstream hStream) {
  return api_call("cuMemDiscardBatchAsync", [&] {
    return batch("cuMemDiscardBatchAsync", dptrs, sizes, count, flags, hStream, true);
  });
}

CUresult CUDAAPI cuMemDiscardAndPrefetchBatchAsync(CUdeviceptr* dptrs, size_t* sizes, size_t count,
                                                   CUmemLocation* prefetchLocs,
                                                   size_t* prefetchLocIdxs, size_t numPrefetchLocs,
                                                   unsigned long long flags, CUstream hStream) {
  return prefetch_batch("cuMemDiscardAndPrefetchBatchAsync", dptrs, sizes, count, prefetchLocs,
                        prefetchLocIdxs, numPrefetchLocs, flags, hStream, false);
}

CUresult CUDAAPI cuMemDiscardAndPrefetchBatchAsync_ptsz(
    CUdeviceptr* dptrs, size_t* sizes, size_t count, CUmemLocation* prefetchLocs,
    size_t* prefetchLocIdxs, size_t numPrefetchLocs, unsigned long long flags, CUstream hStream) {
  return prefetch_batch("cuMemDiscardAndPrefetchBatchAsync", dptrs, sizes, count, prefetchLocs,
                        prefetchLocIdxs, numPrefetchLocs, flags, hStream, true);
}

}  // extern "C"
