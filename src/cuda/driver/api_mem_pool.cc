// Entry points: the stream-ordered allocator (cuMemAllocAsync, cuMemFreeAsync,
// cuMemAllocFromPoolAsync and their _ptsz variants) and memory pools (cuMemPool*,
// cuDevice{Get,Set,GetDefault}MemPool). The pools are in mem_pool.h.
#include <cuda.h>

#include "cuda/driver/api_util.h"
#include "cuda/driver/capture.h"
#include "cuda/driver/device.h"
#include "cuda/driver/mem_pool.h"
#include "cuda/driver/stream.h"

using namespace strata;
using namespace strata::cuda::driver;

// cuda.h declares these only under CUDA_API_PER_THREAD_DEFAULT_STREAM (as the names
// cuMemAllocAsync etc. expand to); restated here so both variants live in one file.
extern "C" {
CUresult CUDAAPI cuMemAllocAsync_ptsz(CUdeviceptr* dptr, size_t bytesize, CUstream hStream);
CUresult CUDAAPI cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream hStream);
CUresult CUDAAPI cuMemAllocFromPoolAsync_ptsz(CUdeviceptr* dptr, size_t bytesize, CUmemoryPool pool,
                                              CUstream hStream);
}

namespace {

StatusOr<std::shared_ptr<Stream>> stream_of(CUstream handle, bool per_thread) {
  ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
  return resolve_stream(*ctx, handle, per_thread);
}

Status alloc_from(const char* api, CUdeviceptr* dptr, size_t bytesize,
                  std::shared_ptr<MemPool> pool, CUstream handle, bool per_thread) {
  if (dptr == nullptr) return null_arg(api, "dptr");
  *dptr = 0;
  if (bytesize == 0) return error(Code::kInvalidValue, fmt::format("{}: size is 0", api));
  ASSIGN_OR_RETURN(std::shared_ptr<Stream> stream, stream_of(handle, per_thread));
  if (auto captured = capture_mem_alloc(*stream, bytesize, dptr)) return *captured;
  if (!pool) {
    ASSIGN_OR_RETURN(pool, current_mem_pool(stream->context().device().ordinal()));
  }
  // The pool may be of another device than the stream (mem_pool.h).
  ASSIGN_OR_RETURN(uint64_t va, pool->allocate(*stream, bytesize));
  remember_pool_allocation(va, pool);
  *dptr = va;
  return ok_status();
}

CUresult alloc_async(CUdeviceptr* dptr, size_t bytesize, CUstream handle, bool per_thread) {
  return api_call("cuMemAllocAsync", [&] {
    return alloc_from("cuMemAllocAsync", dptr, bytesize, nullptr, handle, per_thread);
  });
}

CUresult alloc_from_pool_async(CUdeviceptr* dptr, size_t bytesize, CUmemoryPool handle,
                               CUstream stream, bool per_thread) {
  return api_call("cuMemAllocFromPoolAsync", [&]() -> Status {
    if (handle == nullptr) return null_arg("cuMemAllocFromPoolAsync", "pool");
    ASSIGN_OR_RETURN(std::shared_ptr<MemPool> pool, find_mem_pool(handle));
    return alloc_from("cuMemAllocFromPoolAsync", dptr, bytesize, std::move(pool), stream,
                      per_thread);
  });
}

CUresult free_async(CUdeviceptr dptr, CUstream handle, bool per_thread) {
  return api_call("cuMemFreeAsync", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<Stream> stream, stream_of(handle, per_thread));
    if (dptr == 0) return error(Code::kInvalidValue, "cuMemFreeAsync: dptr is 0");
    if (auto captured = capture_mem_free(*stream, dptr)) return *captured;
    if (auto graph_memory = free_graph_allocation(dptr)) return *graph_memory;
    std::shared_ptr<MemPool> pool = mem_pool_of(dptr);
    if (!pool || !pool->owns(dptr)) {
      // cuMemAlloc memory: freed synchronously, as cuMemFree does.
      return stream->context().free_device(dptr);
    }
    RETURN_IF_ERROR(pool->free(*stream, dptr));
    remember_pool_allocation(dptr, nullptr);
    return ok_status();
  });
}

StatusOr<int> ordinal(CUdevice dev) {
  ASSIGN_OR_RETURN(Device * device, strata::cuda::driver::device(dev));
  return device->ordinal();
}

}  // namespace

CUresult CUDAAPI cuMemAllocAsync(CUdeviceptr* dptr, size_t bytesize, CUstream hStream) {
  return alloc_async(dptr, bytesize, hStream, false);
}
CUresult CUDAAPI cuMemAllocAsync_ptsz(CUdeviceptr* dptr, size_t bytesize, CUstream hStream) {
  return alloc_async(dptr, bytesize, hStream, true);
}
CUresult CUDAAPI cuMemAllocFromPoolAsync(CUdeviceptr* dptr, size_t bytesize, CUmemoryPool pool,
                                         CUstream hStream) {
  return alloc_from_pool_async(dptr, bytesize, pool, hStream, false);
}
CUresult CUDAAPI cuMemAllocFromPoolAsync_ptsz(CUdeviceptr* dptr, size_t bytesize, CUmemoryPool pool,
                                              CUstream hStream) {
  return alloc_from_pool_async(dptr, bytesize, pool, hStream, true);
}
CUresult CUDAAPI cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream) {
  return free_async(dptr, hStream, false);
}
CUresult CUDAAPI cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream hStream) {
  return free_async(dptr, hStream, true);
}

CUresult CUDAAPI cuDeviceGetDefaultMemPool(CUmemoryPool* pool_out, CUdevice dev) {
  return api_call("cuDeviceGetDefaultMemPool", [&]() -> Status {
    if (pool_out == nullptr) return null_arg("cuDeviceGetDefaultMemPool", "pool_out");
    ASSIGN_OR_RETURN(int device, ordinal(dev));
    ASSIGN_OR_RETURN(std::shared_ptr<MemPool> pool, default_mem_pool(device));
    *pool_out = pool->handle();
    return ok_status();
  });
}

CUresult CUDAAPI cuDeviceGetMemPool(CUmemoryPool* pool, CUdevice dev) {
  return api_call("cuDeviceGetMemPool", [&]() -> Status {
    if (pool == nullptr) return null_arg("cuDeviceGetMemPool", "pool");
    ASSIGN_OR_RETURN(int device, ordinal(dev));
    ASSIGN_OR_RETURN(std::shared_ptr<MemPool> current, current_mem_pool(device));
    *pool = current->handle();
    return ok_status();
  });
}

CUresult CUDAAPI cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool) {
  return api_call("cuDeviceSetMemPool", [&]() -> Status {
    if (pool == nullptr) return null_arg("cuDeviceSetMemPool", "pool");
    ASSIGN_OR_RETURN(int device, ordinal(dev));
    ASSIGN_OR_RETURN(std::shared_ptr<MemPool> p, find_mem_pool(pool));
    return set_current_mem_pool(device, std::move(p));
  });
}

CUresult CUDAAPI cuMemPoolCreate(CUmemoryPool* pool, const CUmemPoolProps* poolProps) {
  return api_call("cuMemPoolCreate", [&]() -> Status {
    if (pool == nullptr || poolProps == nullptr)
      return null_arg("cuMemPoolCreate", "pool or props");
    if (poolProps->allocType != CU_MEM_ALLOCATION_TYPE_PINNED) {
      return error(Code::kInvalidValue,
                   "cuMemPoolCreate: allocType must be "
                   "CU_MEM_ALLOCATION_TYPE_PINNED");
    }
    if (poolProps->location.type != CU_MEM_LOCATION_TYPE_DEVICE) {
      return error(Code::kNotSupported, fmt::format("cuMemPoolCreate: location type {} is not "
                                                    "supported (device memory only)",
                                                    static_cast<int>(poolProps->location.type)));
    }
    if (poolProps->handleTypes != CU_MEM_HANDLE_TYPE_NONE) {
      return error(Code::kNotSupported,
                   "cuMemPoolCreate: exportable (IPC) pools are not supported");
    }
    auto device = strata::cuda::driver::device(poolProps->location.id);
    if (!device.ok()) {
      return error(Code::kInvalidValue,
                   fmt::format("cuMemPoolCreate: {} is not a device", poolProps->location.id));
    }
    *pool = create_mem_pool((*device)->ordinal())->handle();
    return ok_status();
  });
}

CUresult CUDAAPI cuMemPoolDestroy(CUmemoryPool pool) {
  return api_call("cuMemPoolDestroy", [&] { return destroy_mem_pool(pool); });
}

CUresult CUDAAPI cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void* value) {
  return api_call("cuMemPoolSetAttribute", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<MemPool> p, find_mem_pool(pool));
    return p->set_attribute(attr, value);
  });
}

CUresult CUDAAPI cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void* value) {
  return api_call("cuMemPoolGetAttribute", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<MemPool> p, find_mem_pool(pool));
    return p->get_attribute(attr, value);
  });
}

CUresult CUDAAPI cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep) {
  return api_call("cuMemPoolTrimTo", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<MemPool> p, find_mem_pool(pool));
    p->trim_to(minBytesToKeep);
    return ok_status();
  });
}

CUresult CUDAAPI cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc* map, size_t count) {
  return api_call("cuMemPoolSetAccess", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<MemPool> p, find_mem_pool(pool));
    return p->set_access(map, count);
  });
}

CUresult CUDAAPI cuMemPoolGetAccess(CUmemAccess_flags* flags, CUmemoryPool memPool,
                                    CUmemLocation* location) {
  return api_call("cuMemPoolGetAccess", [&]() -> Status {
    if (flags == nullptr) return null_arg("cuMemPoolGetAccess", "flags");
    if (location == nullptr) return null_arg("cuMemPoolGetAccess", "location");
    ASSIGN_OR_RETURN(std::shared_ptr<MemPool> p, find_mem_pool(memPool));
    ASSIGN_OR_RETURN(*flags, p->get_access(*location));
    return ok_status();
  });
}
