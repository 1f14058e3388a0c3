// Entry points: cuPointerGetAttribute / cuPointerGetAttributes.
//
// A pointer is classified by the current context's allocator (unified addressing: device,
// pinned and registered memory all live in one address space). Managed memory
// (managed_memory.h: host pages mapped at their host address) is host memory with
// IS_MANAGED true. A device allocation of another context (another device) is reported
// with that context and device (peer.h). Attributes not listed in query() are
// CUDA_ERROR_INVALID_VALUE.
#include <cstring>

#include "cuda/driver/api_misc.h"
#include "cuda/driver/api_util.h"
#include "cuda/driver/device.h"
#include "cuda/driver/managed_memory.h"
#include "cuda/driver/peer.h"

using namespace strata;
using namespace strata::cuda::driver;

namespace {

template <typename T>
void put(void* data, T value) {
  std::memcpy(data, &value, sizeof(T));
}

// The attribute `attribute` of `buffer` (null: ptr is not a CUDA pointer) into *data.
Status query(const char* api, CUpointer_attribute attribute, void* data, Context& ctx,
             const hal::Buffer* buffer, uint64_t ptr) {
  if (data == nullptr) return null_arg(api, "data");
  auto not_cuda = [&] {
    return error(Code::kInvalidValue,
                 fmt::format("{}: {:#x} is not allocated, mapped or registered", api, ptr));
  };
  const bool device = buffer != nullptr && buffer->kind() == hal::MemoryKind::kDevice;
  switch (attribute) {
    case CU_POINTER_ATTRIBUTE_CONTEXT:
      if (buffer == nullptr) return not_cuda();
      put<CUcontext>(data, ctx.handle());
      return ok_status();
    case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
      if (buffer == nullptr) return not_cuda();
      put<unsigned int>(data, device ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST);
      return ok_status();
    case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
      if (buffer == nullptr) return not_cuda();
      put<CUdeviceptr>(data, ptr);  // unified addressing: the same address
      return ok_status();
    case CU_POINTER_ATTRIBUTE_HOST_POINTER:
      if (buffer == nullptr || device) return not_cuda();
      put<void*>(data, reinterpret_cast<void*>(ptr));
      return ok_status();
    case CU_POINTER_ATTRIBUTE_IS_MANAGED:
      if (buffer == nullptr) return not_cuda();
      put<bool>(data, find_managed(ptr).has_value());
      return ok_status();
    case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
      if (buffer == nullptr) return not_cuda();
      put<int>(data, ctx.device().ordinal());
      return ok_status();
    case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
      if (buffer == nullptr) return not_cuda();
      put<CUdeviceptr>(data, buffer->va());
      return ok_status();
    case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
      if (buffer == nullptr) return not_cuda();
      put<size_t>(data, buffer->size());
      return ok_status();
    case CU_POINTER_ATTRIBUTE_MAPPED:
      put<bool>(data, buffer != nullptr);
      return ok_status();
    case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:  // as cuPointerSetAttribute left it
      if (buffer == nullptr) return not_cuda();
      put<bool>(data, buffer_sync_memops(buffer));
      return ok_status();
    default:
      return error(Code::kInvalidValue, fmt::format("{}: pointer attribute {} is not supported",
                                                    api, static_cast<int>(attribute)));
  }
}

// The live buffer holding `ptr` in `ctx`, or null. A device allocation of another
// context (another device: unified addressing) is reported with its owner, which
// replaces `ctx`.
std::shared_ptr<hal::Buffer> find_buffer(std::shared_ptr<Context>& owner, uint64_t ptr) {
  if (ptr == 0) return nullptr;
  if (std::optional<OwnedAllocation> owned = find_allocation(ptr); owned && owned->owner != owner) {
    owner = owned->owner;
    return owned->buffer;
  }
  Context& ctx = *owner;
  auto buffer = ctx.hal().allocator().find(ptr);
  return buffer.ok() ? *buffer : nullptr;
}

}  // namespace

CUresult CUDAAPI cuPointerGetAttribute(void* data, CUpointer_attribute attribute, CUdeviceptr ptr) {
  return api_call("cuPointerGetAttribute", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    std::shared_ptr<hal::Buffer> buffer = find_buffer(ctx, ptr);
    return query("cuPointerGetAttribute", attribute, data, *ctx, buffer.get(), ptr);
  });
}

CUresult CUDAAPI cuPointerGetAttributes(unsigned int numAttributes, CUpointer_attribute* attributes,
                                        void** data, CUdeviceptr ptr) {
  return api_call("cuPointerGetAttributes", [&]() -> Status {
    if (numAttributes == 0 || attributes == nullptr || data == nullptr) {
      return null_arg("cuPointerGetAttributes", "attributes or data");
    }
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    std::shared_ptr<hal::Buffer> buffer = find_buffer(ctx, ptr);
    for (unsigned int i = 0; i < numAttributes; ++i) {
      if (buffer == nullptr && attributes[i] != CU_POINTER_ATTRIBUTE_MAPPED) {
        // Not a CUDA pointer: documented defaults (NULL / 0), no error.
        if (data[i] == nullptr) return null_arg("cuPointerGetAttributes", "data[i]");
        switch (attributes[i]) {
          case CU_POINTER_ATTRIBUTE_CONTEXT:
            put<CUcontext>(data[i], nullptr);
            continue;
          case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
            put<unsigned int>(data[i], 0);
            continue;
          case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
            put<CUdeviceptr>(data[i], 0);
            continue;
          case CU_POINTER_ATTRIBUTE_HOST_POINTER:
            put<void*>(data[i], nullptr);
            continue;
          case CU_POINTER_ATTRIBUTE_IS_MANAGED:
            put<bool>(data[i], false);
            continue;
          case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
            put<int>(data[i], CU_DEVICE_INVALID);
            continue;
          case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
            put<CUdeviceptr>(data[i], 0);
            continue;
          case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
            put<size_t>(data[i], 0);
            continue;
          default:
            break;  // unsupported: the error below
        }
      }
      RETURN_IF_ERROR(
          query("cuPointerGetAttributes", attributes[i], data[i], *ctx, buffer.get(), ptr));
    }
    return ok_status();
  });
}
