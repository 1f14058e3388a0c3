#include "cuda/driver/transfer.h"

#include <cupti_activity.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <utility>

#include "cuda/driver/context.h"
#include "cuda/driver/peer.h"
#include "cuda/driver/stream.h"
#include "cuda/driver/vmm.h"
#include "fmt/format.h"
#include "prof/collector.h"

namespace strata::cuda::driver {
namespace {

// Waits for everything the stream's next operation would be ordered after.
Status drain(Stream& stream) {
  if (stream.kind() == Stream::Kind::kLegacy) return stream.context().synchronize();
  RETURN_IF_ERROR(stream.synchronize());
  if (stream.blocking()) RETURN_IF_ERROR(stream.context().legacy_stream()->synchronize());
  return ok_status();
}

// `record(hal::CommandBuffer&) -> Status` (a template: no std::function allocation).
template <typename Record>
Status submit_one(Stream& stream, bool async, const Record& record) {
  ASSIGN_OR_RETURN(std::shared_ptr<hal::CommandBuffer> cb, stream.acquire_command_buffer());
  RETURN_IF_ERROR(record(*cb));
  RETURN_IF_ERROR(cb->finalize());
  RETURN_IF_ERROR(stream.submit(cb));
  stream.recycle(std::move(cb));
  return async ? ok_status() : stream.synchronize();
}

// `va` in a device allocation of ANOTHER context (another device: unified addressing
// gives every device allocation a distinct VA): maps it for this stream's copy engine
// and orders the copy after the owning context's prior work: for an async copy on the
// GPU (the stream waits for the tails of the owner's streams, a cross-context, possibly
// cross-device semaphore wait, hal/semaphore.h), so that it does not block the host;
// for a synchronous copy on the host, which reports a fault of the owner as its error
// (a device-side waiter is not released by another device's fault). Returns the
// owner's buffer; kNotFound if `va` is in no device allocation.
StatusOr<std::shared_ptr<hal::Buffer>> resolve_other_context(Stream& stream, uint64_t va,
                                                             bool async) {
  std::optional<OwnedAllocation> found = find_allocation(va);
  if (!found.has_value() || found->owner.get() == &stream.context()) {
    // Every copy asks: the short message (no allocation) is only copy_memory's signal.
    return error(Code::kNotFound, "not foreign");
  }
  RETURN_IF_ERROR(found->owner->check());
  RETURN_IF_ERROR(map_for_copy(stream.context(), va));
  if (!async) {
    RETURN_IF_ERROR(found->owner->synchronize());
    return found->buffer;
  }
  std::vector<hal::SemaphoreValue> waits = found->owner->pending_work();
  if (!waits.empty()) RETURN_IF_ERROR(stream.submit(nullptr, waits));
  return found->buffer;
}

// True if [va, va + bytes) lies inside `buffer` and the buffers that follow it without a
// gap (VMM mappings placed back to back in one reservation are one range for copies).
bool inside_contiguous(hal::Allocator& allocator, const hal::Buffer& buffer, uint64_t va,
                       uint64_t bytes) {
  uint64_t end = buffer.va() + buffer.size();
  while (va + bytes > end) {
    auto next = allocator.find(end);
    if (!next.ok() || (*next)->va() != end) return false;
    end += (*next)->size();
  }
  return true;
}

}  // namespace

Status copy_memory(Stream& stream, uint64_t dst, uint64_t src, uint64_t bytes, bool async) {
  if (bytes == 0) return ok_status();
  if (dst == 0 || src == 0) return error(Code::kInvalidValue, "cuMemcpy: null pointer");
  hal::Allocator& allocator = stream.context().hal().allocator();
  auto dst_buffer = allocator.find(dst);
  auto src_buffer = allocator.find(src);
  for (auto [va, buffer] : {std::pair{dst, &dst_buffer}, std::pair{src, &src_buffer}}) {
    // Another context's allocation, even when peer access already maps it here: the copy
    // must also wait for the owner's work.
    auto other = resolve_other_context(stream, va, async);
    if (other.ok()) {
      *buffer = std::move(other);
    } else if (other.status().code() != Code::kNotFound) {
      return other.status();
    }
  }
  if (dst_buffer.ok() && src_buffer.ok()) {
    if (!inside_contiguous(allocator, **dst_buffer, dst, bytes) ||
        !inside_contiguous(allocator, **src_buffer, src, bytes)) {
      return error(Code::kInvalidValue,
                   fmt::format("cuMemcpy: {} bytes from {:#x} to {:#x} run past the end of the "
                               "allocation", bytes, src, dst));
    }
    return submit_one(stream, async,
                      [&](hal::CommandBuffer& cb) { return cb.copy(src, dst, bytes); });
  }
  for (uint64_t va : {dst, src}) {
    if (allocator.find(va).ok() || !vmm_device_of(va).has_value()) continue;
    // VMM memory this context has no access to: never touch it as host memory.
    return error(Code::kInvalidValue,
                 fmt::format("cuMemcpy: {:#x} is mapped (cuMemMap) but this context's device "
                             "has no access to it (cuMemSetAccess)", va));
  }
  // Pageable host memory on at least one side. As the CUDA driver does, the copy is
  // staged through a pinned buffer and performed by the copy engine, chunk by chunk;
  // it returns when the data has arrived (pageable copies are synchronous for the host).
  RETURN_IF_ERROR(drain(stream));
  auto* dst_ptr = reinterpret_cast<uint8_t*>(dst);
  auto* src_ptr = reinterpret_cast<const uint8_t*>(src);
  if (!dst_buffer.ok() && !src_buffer.ok()) {
    std::memmove(dst_ptr, src_ptr, bytes);
    return ok_status();
  }
  const std::shared_ptr<hal::Buffer>& device_side = dst_buffer.ok() ? *dst_buffer : *src_buffer;
  const uint64_t device_va = dst_buffer.ok() ? dst : src;
  if (!inside_contiguous(allocator, *device_side, device_va, bytes)) {
    return error(Code::kInvalidValue,
                 fmt::format("cuMemcpy: {} bytes at {:#x} run past the end of the allocation",
                             bytes, device_va));
  }
  std::unique_lock<std::mutex> staging_lock;
  ASSIGN_OR_RETURN(std::shared_ptr<hal::Buffer> staging,
                   stream.context().staging_buffer(&staging_lock));
  auto* staging_host = static_cast<uint8_t*>(staging->host_ptr());
  // The profiler records the application's pageable memory, not the staging buffer.
  std::optional<ScopedCopyKinds> kinds;
  if (prof::active()) {
    if (dst_buffer.ok()) {
      kinds.emplace(CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE, memory_kind_of(stream.context(), dst));
    } else {
      kinds.emplace(memory_kind_of(stream.context(), src), CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE);
    }
  }
  for (uint64_t done = 0; done < bytes;) {
    const uint64_t n = std::min<uint64_t>(bytes - done, staging->size());
    if (dst_buffer.ok()) {
      std::memcpy(staging_host, src_ptr + done, n);
      RETURN_IF_ERROR(submit_one(stream, /*async=*/false, [&](hal::CommandBuffer& cb) {
        return cb.copy(staging->va(), dst + done, n);
      }));
    } else {
      RETURN_IF_ERROR(submit_one(stream, /*async=*/false, [&](hal::CommandBuffer& cb) {
        return cb.copy(src + done, staging->va(), n);
      }));
      std::memcpy(dst_ptr + done, staging_host, n);
    }
    done += n;
  }
  return ok_status();
}

Status fill_memory(Stream& stream, uint64_t dst, uint64_t count, uint32_t value,
                   uint32_t elem_size, bool async) {
  if (dst % elem_size != 0) {
    return error(Code::kInvalidValue, fmt::format("cuMemsetD{}: {:#x} is not {}-byte aligned",
                                                  elem_size * 8, dst, elem_size));
  }
  if (count == 0) return ok_status();
  uint64_t bytes = count * elem_size;
  hal::Allocator& allocator = stream.context().hal().allocator();
  auto buffer = allocator.find(dst);
  if (!buffer.ok() || dst - (*buffer)->va() + bytes > (*buffer)->size()) {
    return error(Code::kInvalidValue,
                 fmt::format("cuMemsetD{}: [{:#x}, +{}) is not inside one allocation",
                             elem_size * 8, dst, bytes));
  }
  return submit_one(stream, async, [&](hal::CommandBuffer& cb) {
    return cb.fill(dst, bytes, value, elem_size);
  });
}

}  // namespace strata::cuda::driver
