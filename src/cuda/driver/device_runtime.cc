#include "cuda/driver/device_runtime.h"

#include <algorithm>
#include <cstdio>
#include <span>
#include <cstring>
#include <map>
#include <vector>

#include "base/log.h"
#include "compiler/devrt/heap_layout.h"
#include "compiler/sxbin/sxbin.h"
#include "cuda/driver/printf_format.h"
#include "fmt/format.h"

namespace strata::cuda::driver {
namespace {

uint32_t u32_at(const std::vector<uint8_t>& b, size_t off) {
  uint32_t v;
  std::memcpy(&v, b.data() + off, sizeof v);
  return v;
}

uint64_t u64_at(const std::vector<uint8_t>& b, size_t off) {
  uint64_t v;
  std::memcpy(&v, b.data() + off, sizeof v);
  return v;
}

constexpr uint64_t kMaxStringBytes = 1 << 16;  // longest %s / format string read back
// A thread's local memory lives in the 16 MiB local window (docs/architecture.md).
constexpr uint64_t kMaxLocalBytesPerThread = 16ull << 20;

}  // namespace

Status DeviceRuntime::allocate_locked() {
  uint64_t total = kFifoOffset + fifo_bytes_;
  ASSIGN_OR_RETURN(std::shared_ptr<hal::Buffer> buffer, allocator_->allocate_device(total));
  std::vector<uint8_t> init(total, 0);
  uint64_t fifo_va = buffer->va() + kFifoOffset;
  uint64_t assert_va = buffer->va() + kAssertOffset;
  std::memcpy(init.data() + sxbin::kDriverBankPrintfFifoVa, &fifo_va, 8);
  std::memcpy(init.data() + sxbin::kDriverBankPrintfFifoSize, &fifo_bytes_, 8);
  std::memcpy(init.data() + sxbin::kDriverBankAssertRecordVa, &assert_va, 8);
  uint64_t heap_va = heap_ ? heap_->va() : 0;  // the heap outlives a FIFO resize
  std::memcpy(init.data() + sxbin::kDriverBankDeviceHeapVa, &heap_va, 8);
  ASSIGN_OR_RETURN(uint64_t launch_queue_va, launch_queue_.va());
  std::memcpy(init.data() + sxbin::kDriverBankLaunchQueueVa, &launch_queue_va, 8);
  RETURN_IF_ERROR(allocator_->write(buffer->va(), init.data(), init.size()));
  buffer_ = std::move(buffer);
  return ok_status();
}

StatusOr<hal::ConstBankBinding> DeviceRuntime::bank() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!buffer_) RETURN_IF_ERROR(allocate_locked());
  return hal::ConstBankBinding{sxbin::kDriverBank, buffer_->va(), sxbin::kDriverBankBytes};
}

StatusOr<hal::ConstBankBinding> DeviceRuntime::null_environment() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!null_environment_) {
    ASSIGN_OR_RETURN(std::shared_ptr<hal::Buffer> buffer,
                     allocator_->allocate_device(sxbin::kEnvBankBytes));
    const std::vector<uint8_t> zeros(sxbin::kEnvBankBytes, 0);
    RETURN_IF_ERROR(allocator_->write(buffer->va(), zeros.data(), zeros.size()));
    null_environment_ = std::move(buffer);
  }
  return hal::ConstBankBinding{sxbin::kEnvBank, null_environment_->va(), sxbin::kEnvBankBytes};
}

uint64_t DeviceRuntime::printf_fifo_size() {
  std::lock_guard<std::mutex> lock(mutex_);
  return fifo_bytes_;
}

Status DeviceRuntime::set_printf_fifo_size(uint64_t bytes) {
  if (bytes < kMinPrintfFifoBytes) {
    return error(Code::kInvalidValue,
                 fmt::format("printf FIFO size {} is below the minimum {}", bytes,
                             kMinPrintfFifoBytes));
  }
  std::lock_guard<std::mutex> lock(mutex_);
  Status flushed = buffer_ ? flush_locked() : ok_status();
  fifo_bytes_ = bytes;
  buffer_.reset();
  return flushed;
}

std::optional<std::string> DeviceRuntime::read_string(uint64_t va) {
  std::string out;
  while (out.size() < kMaxStringBytes) {
    StatusOr<std::shared_ptr<hal::Buffer>> buffer = allocator_->find(va);
    if (!buffer.ok() || !*buffer) return std::nullopt;
    uint64_t left = (*buffer)->va() + (*buffer)->size() - va;
    uint64_t chunk = std::min<uint64_t>({left, 256, kMaxStringBytes - out.size()});
    char bytes[256];
    if (!allocator_->read(va, bytes, chunk).ok()) return std::nullopt;
    for (uint64_t k = 0; k < chunk; ++k) {
      if (bytes[k] == '\0') return out;
      out.push_back(bytes[k]);
    }
    va += chunk;
  }
  return out;
}

Status DeviceRuntime::flush_printf() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!buffer_) return ok_status();
  return flush_locked();
}

Status DeviceRuntime::flush_locked() {
  uint64_t fifo_va = buffer_->va() + kFifoOffset;
  uint64_t reserved = 0;
  RETURN_IF_ERROR(allocator_->read(fifo_va, &reserved, sizeof reserved));
  if (reserved == 0) return ok_status();
  uint64_t used = std::min(reserved, fifo_bytes_ - sxbin::kPrintfFifoHeaderBytes);
  std::vector<uint8_t> records(used);
  RETURN_IF_ERROR(allocator_->read(fifo_va + sxbin::kPrintfFifoHeaderBytes, records.data(), used));
  std::map<uint64_t, std::optional<std::string>> formats;
  auto reader = [this](uint64_t va) { return read_string(va); };
  std::string text;
  for (uint64_t at = 0; at + sxbin::kPrintfRecordHeaderBytes <= used;) {
    uint32_t length = u32_at(records, at);
    uint32_t arg_bytes = u32_at(records, at + 4);
    uint64_t format_va = u64_at(records, at + 8);
    // Zero length: reserved but never written (a faulted kernel); stop there.
    if (length < sxbin::kPrintfRecordHeaderBytes || length % 8 != 0 || at + length > used ||
        arg_bytes > length - sxbin::kPrintfRecordHeaderBytes) {
      break;
    }
    auto [it, fresh] = formats.try_emplace(format_va);
    if (fresh) it->second = read_string(format_va);
    if (it->second) {
      std::span<const uint8_t> args(records.data() + at + sxbin::kPrintfRecordHeaderBytes,
                                    arg_bytes);
      text += format_device_printf(*it->second, args, reader);
    }
    at += length;
  }
  if (!text.empty()) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  }
  std::vector<uint8_t> zeros(sxbin::kPrintfFifoHeaderBytes + used, 0);
  return allocator_->write(fifo_va, zeros.data(), zeros.size());
}

std::optional<std::string> DeviceRuntime::assert_line(const hal::DeviceFault& fault) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!buffer_) return std::nullopt;
  std::vector<uint8_t> record(sxbin::kAssertRecordBytes);
  if (!allocator_->read(buffer_->va() + kAssertOffset, record.data(), record.size()).ok())
    return std::nullopt;
  if (u32_at(record, sxbin::kAssertRecordState) != 2) return std::nullopt;
  auto text = [&](uint32_t offset) {
    std::optional<std::string> s = read_string(u64_at(record, offset));
    return s ? *s : std::string("<unknown>");
  };
  return fmt::format("{}:{}: {}: block: [{},{},{}], thread: [{},{},{}] Assertion `{}` failed.",
                     text(sxbin::kAssertRecordFile), u32_at(record, sxbin::kAssertRecordLine),
                     text(sxbin::kAssertRecordFunction), fault.cta[0], fault.cta[1],
                     fault.cta[2], fault.tid[0], fault.tid[1], fault.tid[2],
                     text(sxbin::kAssertRecordMessage));
}

// ---- Device heap and limits ----

uint64_t DeviceRuntime::heap_size() {
  std::lock_guard<std::mutex> lock(mutex_);
  return heap_bytes_;
}

Status DeviceRuntime::set_heap_size(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (heap_) {
    return error(Code::kInvalidValue, "the malloc heap size cannot change after a kernel that "
                                      "uses malloc/free has been launched in this context");
  }
  if (bytes > compiler::devrt::kHeapMaxArenaBytes) {
    return error(Code::kInvalidValue, fmt::format("malloc heap size {} exceeds Strata's maximum {}",
                                                  bytes, compiler::devrt::kHeapMaxArenaBytes));
  }
  heap_bytes_ = bytes;
  return ok_status();
}

Status DeviceRuntime::prepare_heap() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (heap_) return ok_status();
  namespace devrt = compiler::devrt;
  // The arena is a whole number of 16-byte units (the heap's block granularity).
  const uint64_t arena = heap_bytes_ / devrt::kHeapAlignment * devrt::kHeapAlignment;
  ASSIGN_OR_RETURN(std::shared_ptr<hal::Buffer> heap,
                   allocator_->allocate_device(devrt::kHeapHeaderBytes + arena));
  std::vector<uint8_t> header(devrt::kHeapHeaderBytes, 0);
  std::memcpy(header.data() + devrt::kHeapArenaBytes, &arena, 8);
  RETURN_IF_ERROR(allocator_->write(heap->va(), header.data(), header.size()));
  if (buffer_) {
    uint64_t va = heap->va();
    RETURN_IF_ERROR(allocator_->write(buffer_->va() + sxbin::kDriverBankDeviceHeapVa, &va, 8));
  }
  heap_ = std::move(heap);
  return ok_status();
}

uint64_t DeviceRuntime::stack_size() {
  std::lock_guard<std::mutex> lock(mutex_);
  return stack_bytes_;
}

Status DeviceRuntime::set_stack_size(uint64_t bytes) {
  if (bytes > kMaxStackSize) {
    return error(Code::kInvalidValue, fmt::format("stack size {} exceeds Strata's maximum {} bytes "
                                                  "per thread", bytes, kMaxStackSize));
  }
  std::lock_guard<std::mutex> lock(mutex_);
  stack_bytes_ = bytes;
  return ok_status();
}

uint32_t DeviceRuntime::launch_local_bytes(const sxbin::KernelDesc& kernel) {
  std::lock_guard<std::mutex> lock(mutex_);
  const uint64_t frame = kernel.local_bytes - kernel.stack_bytes;
  if (kernel.recursion) {
    stack_bytes_ = std::max(stack_bytes_, frame);
    return static_cast<uint32_t>(std::min(frame + sxbin::kStackBytesPerLimitByte * stack_bytes_,
                                          kMaxLocalBytesPerThread));
  }
  // A known need (the kernel's local memory is its stack frame, as on NVIDIA GPUs):
  // CUDA raises the limit to it and keeps the raised value. Strata's frames are larger
  // than NVIDIA's, so this overstates the need in CUDA's terms.
  stack_bytes_ = std::max<uint64_t>(stack_bytes_, kernel.local_bytes);
  return kernel.local_bytes;
}

uint64_t DeviceRuntime::pending_launch_count() {
  std::lock_guard<std::mutex> lock(mutex_);
  return pending_launch_count_;
}

Status DeviceRuntime::set_pending_launch_count(uint64_t count) {
  if (count == 0) return error(Code::kInvalidValue, "the pending launch count must be positive");
  std::lock_guard<std::mutex> lock(mutex_);
  pending_launch_count_ = count;
  // Device launches check it against the launch queue's copy (DEVICE LAUNCH).
  return launch_queue_.set_pending_limit(
      static_cast<uint32_t>(std::min<uint64_t>(count, UINT32_MAX)));
}

uint64_t DeviceRuntime::sync_depth() {
  std::lock_guard<std::mutex> lock(mutex_);
  return sync_depth_;
}

Status DeviceRuntime::set_sync_depth(uint64_t depth) {
  if (depth > kMaxSyncDepth) {
    return error(Code::kInvalidValue, fmt::format("sync depth {} exceeds the maximum launch depth {}",
                                                  depth, kMaxSyncDepth));
  }
  std::lock_guard<std::mutex> lock(mutex_);
  sync_depth_ = depth;
  return ok_status();
}

uint64_t DeviceRuntime::l2_fetch_granularity() {
  std::lock_guard<std::mutex> lock(mutex_);
  return l2_fetch_granularity_;
}

void DeviceRuntime::set_l2_fetch_granularity(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  l2_fetch_granularity_ = std::min(bytes, kMaxL2FetchGranularity);
}

uint64_t DeviceRuntime::persisting_l2_size() {
  std::lock_guard<std::mutex> lock(mutex_);
  return persisting_l2_bytes_;
}

void DeviceRuntime::set_persisting_l2_size(uint64_t bytes, uint64_t max_bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  persisting_l2_bytes_ = std::min(bytes, max_bytes);
}

}  // namespace strata::cuda::driver
