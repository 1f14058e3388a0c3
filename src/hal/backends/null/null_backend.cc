// The null backend: accepts everything, executes nothing. Memory is plain host memory
// (a buffer's VA is its host address); submissions complete at once (their signal
// semaphores are set immediately, their commands are dropped). One device. This is
// the skeleton to copy when adding a backend.
#include <fmt/format.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "hal/backends/builtin.h"
#include "hal/device.h"

namespace strata::hal {
namespace {

class NullSemaphore final : public Semaphore {
 public:
  explicit NullSemaphore(uint64_t v) : value_(v) {}
  StatusOr<uint64_t> do_query() override {
    std::lock_guard lock(mu_);
    if (!failure_.ok()) return failure_;
    return value_;
  }
  Status do_signal(uint64_t v) override {
    std::lock_guard lock(mu_);
    if (!failure_.ok()) return failure_;
    if (v <= value_) return error(Code::kInvalidValue, fmt::format("semaphore signal to {}: not above {}", v, value_));
    value_ = v;
    cv_.notify_all();
    return ok_status();
  }
  Status do_wait(uint64_t v, std::chrono::nanoseconds timeout) override {
    std::unique_lock lock(mu_);
    auto ready = [&] { return value_ >= v || !failure_.ok(); };
    if (timeout == kInfiniteTimeout) cv_.wait(lock, ready);
    else cv_.wait_for(lock, timeout, ready);
    if (!failure_.ok()) return failure_;
    if (value_ < v) return error(Code::kNotReady, fmt::format("timed out waiting for semaphore value {}", v));
    return ok_status();
  }
  void do_fail(Status s) override {
    std::lock_guard lock(mu_);
    if (failure_.ok()) failure_ = std::move(s);
    cv_.notify_all();
  }
  Status do_failure_status() override {
    std::lock_guard lock(mu_);
    return failure_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  uint64_t value_;
  Status failure_;
};

class NullAllocator final : public Allocator {
 public:
  NullAllocator() : entries_(std::make_shared<Entries>()) {}

 private:
  struct Entries {
    std::mutex mu;
    std::map<uint64_t, std::weak_ptr<Buffer>> map;
  };
  StatusOr<std::shared_ptr<Buffer>> make(MemoryKind kind, void* ptr, uint64_t size, bool owned) {
    auto entries = entries_;
    const auto va = reinterpret_cast<uint64_t>(ptr);
    auto b = std::make_shared<Buffer>(kind, va, size, kind == MemoryKind::kDevice ? nullptr : ptr, [=] {
      {
        std::lock_guard lock(entries->mu);
        entries->map.erase(va);
      }
      if (owned) std::free(ptr);
    });
    std::lock_guard lock(entries_->mu);
    entries_->map[va] = b;
    if (kind == MemoryKind::kDevice) device_bytes_ += size;
    return b;
  }
  StatusOr<std::shared_ptr<Buffer>> do_allocate_device(uint64_t size, uint64_t alignment) override {
    const uint64_t align = alignment < 256 ? 256 : alignment;
    void* p = std::aligned_alloc(align, (size + align - 1) / align * align);
    if (p == nullptr) return error(Code::kOutOfMemory, fmt::format("null backend: no memory for {} bytes", size));
    return make(MemoryKind::kDevice, p, size, true);
  }
  StatusOr<std::shared_ptr<Buffer>> do_allocate_host(uint64_t size) override {
    void* p = std::aligned_alloc(4096, (size + 4095) / 4096 * 4096);
    if (p == nullptr) return error(Code::kOutOfMemory, "null backend: no host memory");
    std::memset(p, 0, size);
    return make(MemoryKind::kHostPinned, p, size, true);
  }
  StatusOr<std::shared_ptr<Buffer>> do_register_host(void* ptr, uint64_t size) override {
    return make(MemoryKind::kHostRegistered, ptr, size, false);
  }
  StatusOr<std::shared_ptr<Buffer>> do_find(uint64_t va) override {
    std::lock_guard lock(entries_->mu);
    auto it = entries_->map.upper_bound(va);
    if (it != entries_->map.begin()) {
      auto b = std::prev(it)->second.lock();
      if (b && b->contains(va)) return b;
    }
    return error(Code::kNotFound, fmt::format("0x{:x} is not in any allocation", va));
  }
  Status do_write(uint64_t va, const void* src, uint64_t bytes) override {
    ASSIGN_OR_RETURN(auto b, do_find(va));
    if (bytes > b->size() - (va - b->va())) return error(Code::kInvalidValue, "write past the end of the buffer");
    std::memcpy(reinterpret_cast<void*>(va), src, bytes);
    return ok_status();
  }
  Status do_read(uint64_t va, void* dst, uint64_t bytes) override {
    ASSIGN_OR_RETURN(auto b, do_find(va));
    if (bytes > b->size() - (va - b->va())) return error(Code::kInvalidValue, "read past the end of the buffer");
    std::memcpy(dst, reinterpret_cast<void*>(va), bytes);
    return ok_status();
  }
  uint64_t do_device_bytes_in_use() override { return device_bytes_; }

  std::shared_ptr<Entries> entries_;
  uint64_t device_bytes_ = 0;
};

class NullCommandBuffer final : public CommandBuffer {
 public:
  Status do_dispatch(const std::shared_ptr<Executable>&, int, Dim3, Dim3, uint32_t,
                     std::span<const uint8_t>, std::span<const ConstBankBinding>, uint32_t) override {
    return ok_status();
  }
  Status do_copy(uint64_t, uint64_t, uint64_t) override { return ok_status(); }
  Status do_fill(uint64_t, uint64_t, uint32_t, uint32_t) override { return ok_status(); }
  Status do_signal(const std::shared_ptr<Semaphore>&, uint64_t) override { return ok_status(); }
  Status do_wait(const std::shared_ptr<Semaphore>&, uint64_t) override { return ok_status(); }
  Status do_write_timestamp(uint64_t) override { return ok_status(); }
  Status do_invalidate_icache(uint64_t, uint64_t) override { return ok_status(); }
  Status do_finalize() override { return ok_status(); }
  void do_reset() override {}
  const LaunchLimits& launch_limits() const override { return limits_; }

 private:
  LaunchLimits limits_;
};

class NullQueue final : public Queue {
 public:
  int channel() const override { return -1; }
  Status do_submit(const std::shared_ptr<CommandBuffer>&, std::span<const SemaphoreValue>,
                   std::span<const SemaphoreValue> signal, const WorkReports&) override {
    for (const SemaphoreValue& v : signal) {
      auto current = v.semaphore->query();
      if (current.ok() && *current < v.value) (void)v.semaphore->signal(v.value);
    }
    return ok_status();
  }
  Status do_wait_idle(std::chrono::nanoseconds) override { return ok_status(); }
};

class NullExecutable final : public Executable {
 public:
  NullExecutable(const ExecutableSpec& spec, std::shared_ptr<Buffer> code, uint32_t first)
      : Executable(spec.name, code->va(), code->size(), spec.kernels, first), code_(std::move(code)) {}

 private:
  std::shared_ptr<Buffer> code_;
};

class NullContext final : public Context {
 public:
  explicit NullContext(std::shared_ptr<Device> device)
      : Context(std::move(device), std::make_unique<NullAllocator>()) {}
  StatusOr<std::shared_ptr<Queue>> do_create_queue(uint32_t /*priority*/) override { return std::shared_ptr<Queue>(std::make_shared<NullQueue>()); }
  StatusOr<std::shared_ptr<CommandBuffer>> do_create_command_buffer() override {
    return std::shared_ptr<CommandBuffer>(std::make_shared<NullCommandBuffer>());
  }
  StatusOr<std::shared_ptr<Executable>> do_load_executable(const ExecutableSpec& spec) override {
    ASSIGN_OR_RETURN(auto code, allocator().allocate_device(spec.code.size()));
    RETURN_IF_ERROR(allocator().write(code->va(), spec.code.data(), spec.code.size()));
    static std::atomic<uint32_t> next_id{1};
    const uint32_t first = next_id.fetch_add(static_cast<uint32_t>(spec.kernels.size()) + 1);
    return std::shared_ptr<Executable>(std::make_shared<NullExecutable>(spec, code, first));
  }
  std::optional<DeviceFault> do_fault() override { return std::nullopt; }
};

class NullDevice final : public Device {
 public:
  explicit NullDevice(DeviceProperties p) : Device(std::move(p)) {}
  StatusOr<std::shared_ptr<Context>> do_create_context() override {
    return std::shared_ptr<Context>(std::make_shared<NullContext>(shared_from_this()));
  }
  StatusOr<std::shared_ptr<Semaphore>> do_create_semaphore(uint64_t v) override {
    return std::shared_ptr<Semaphore>(std::make_shared<NullSemaphore>(v));
  }
  StatusOr<uint64_t> do_timestamp_ns() override {
    return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
        std::chrono::steady_clock::now().time_since_epoch()).count());
  }
  StatusOr<uint64_t> do_free_memory() override { return properties().total_memory; }
};

StatusOr<std::shared_ptr<Device>> open_null_device(int index) {
  DeviceProperties p;
  p.backend = "null";
  p.index = index;
  auto arch = hw::load_arch_config_from_env();
  if (arch.ok()) p.arch = *arch;
  else p.arch.name = "Strata null device";
  p.total_memory = p.arch.vram_bytes > 0 ? static_cast<uint64_t>(p.arch.vram_bytes) : (1ull << 30);
  p.num_channels = 1 << 16;
  return std::shared_ptr<Device>(std::make_shared<NullDevice>(std::move(p)));
}

}  // namespace

BackendInfo null_backend_info() {
  return BackendInfo{"null", [] { return StatusOr<int>(1); }, open_null_device};
}

}  // namespace strata::hal
