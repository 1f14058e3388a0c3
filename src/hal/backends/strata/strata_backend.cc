#include "hal/backends/strata/strata_backend.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <cstring>

#include "base/log.h"
#include "base/virtual_time.h"
#include "hal/backends/builtin.h"
#include "nlohmann/json.hpp"

namespace strata::hal::strata_backend {
namespace {

class StrataExecutable final : public Executable {
 public:
  StrataExecutable(std::shared_ptr<StrataDevice> device, std::shared_ptr<Buffer> code,
                   const ExecutableSpec& spec, uint32_t first_id)
      : Executable(spec.name, code->va(), code->size(), spec.kernels, first_id),
        device_(std::move(device)), code_(std::move(code)) {}
  ~StrataExecutable() override { device_->unregister_kernels(kernel_id(0), kernels().size()); }

 private:
  std::shared_ptr<StrataDevice> device_;
  std::shared_ptr<Buffer> code_;
};

class StrataContext final : public Context, public std::enable_shared_from_this<StrataContext> {
 public:
  StrataContext(std::shared_ptr<StrataDevice> device, std::shared_ptr<ContextState> state)
      : Context(device, create_allocator(state)), device_(std::move(device)), state_(std::move(state)) {}

 private:
  StatusOr<std::shared_ptr<Queue>> do_create_queue(uint32_t priority) override {
    return strata_backend::create_queue(state_, std::weak_ptr<Context>(shared_from_this()),
                                        priority);
  }
  StatusOr<std::shared_ptr<CommandBuffer>> do_create_command_buffer() override {
    return strata_backend::create_command_buffer(state_, shared_from_this(), param_blocks_);
  }
  StatusOr<std::shared_ptr<Executable>> do_load_executable(const ExecutableSpec& spec) override {
    ASSIGN_OR_RETURN(std::shared_ptr<Buffer> code, allocator().allocate_device(spec.code.size()));
    RETURN_IF_ERROR(allocator().write(code->va(), spec.code.data(), spec.code.size()));
    const uint32_t first = device_->register_kernels(spec.name, spec.kernels);
    return std::shared_ptr<Executable>(std::make_shared<StrataExecutable>(device_, code, spec, first));
  }
  std::optional<DeviceFault> do_fault() override {
    kmd::KmdContextQueryFault q{};
    q.context = state_->id;
    if (!kmd::kmd_ioctl(device_->kmd(), kmd::kIoctlContextQueryFault, &q).ok() || q.faulted == 0) {
      return std::nullopt;
    }
    DeviceFault f;
    f.kind = q.kind;
    f.address = q.address;
    f.pc = q.pc;
    std::memcpy(f.cta, q.cta, sizeof(f.cta));
    std::memcpy(f.tid, q.tid, sizeof(f.tid));
    f.kernel_id = q.kernel_id;
    f.channel = static_cast<int>(q.channel);
    device_->name_kernel(&f);
    return f;
  }

  std::shared_ptr<StrataDevice> device_;
  std::shared_ptr<ContextState> state_;
  std::shared_ptr<ParamBlockPool> param_blocks_ = create_param_block_pool();
};

}  // namespace

ContextState::~ContextState() {
  kmd::KmdContextDestroy d{id};
  Status s = kmd::kmd_ioctl(device->kmd(), kmd::kIoctlContextDestroy, &d);
  if (!s.ok()) STRATA_LOG_WARN("hal: destroying context {}: {}", id, s.to_string());
}

StrataDevice::StrataDevice(DeviceProperties props, kmd::KmdHandle kmd, kmd::KmdGetInfo info)
    : Device(std::move(props)), kmd_(kmd), info_(info) {}

StrataDevice::~StrataDevice() { std::free(arena_); }

StatusOr<std::shared_ptr<Device>> StrataDevice::open(int index) {
  ASSIGN_OR_RETURN(kmd::KmdHandle kmd, kmd::kmd_open(index));
  kmd::KmdGetInfo info{};
  RETURN_IF_ERROR(kmd::kmd_ioctl(kmd, kmd::kIoctlGetInfo, &info));
  DeviceProperties props;
  props.backend = "strata";
  props.index = index;
  props.arch = *info.arch;
  props.total_memory = info.vram_size;
  props.num_channels = static_cast<int>(info.num_channels);
  std::shared_ptr<StrataDevice> device(new StrataDevice(std::move(props), kmd, info));
  device->arena_ = static_cast<uint64_t*>(std::aligned_alloc(4096, device->arena_bytes()));
  if (device->arena_ == nullptr) return error(Code::kOutOfMemory, "hal: no host memory for semaphores");
  std::memset(device->arena_, 0, device->arena_bytes());
  for (uint32_t i = kSemaphoreSlots; i > 0; --i) device->free_slots_.push_back(i - 1);
  return std::shared_ptr<Device>(device);
}

LaunchLimits StrataDevice::launch_limits() const {
  const hw::ArchConfig& a = properties().arch;
  LaunchLimits l;
  if (a.max_threads_per_block > 0) {
    l.max_threads_per_block = a.max_threads_per_block;
    l.max_block[0] = a.max_block_dim_x;
    l.max_block[1] = a.max_block_dim_y;
    l.max_block[2] = a.max_block_dim_z;
    l.max_grid[0] = a.max_grid_dim_x;
    l.max_grid[1] = a.max_grid_dim_y;
    l.max_grid[2] = a.max_grid_dim_z;
    l.max_shared_per_block = a.shared_bytes_per_block_optin;
  }
  return l;
}

StatusOr<uint64_t*> StrataDevice::allocate_slot() {
  std::lock_guard lock(mu_);
  if (free_slots_.empty()) {
    return error(Code::kOutOfMemory, fmt::format("hal: all {} semaphores are in use", kSemaphoreSlots));
  }
  uint64_t* slot = &arena_[2 * free_slots_.back()];
  free_slots_.pop_back();
  return slot;
}

void StrataDevice::free_slot(uint64_t* slot) {
  std::lock_guard lock(mu_);
  free_slots_.push_back(static_cast<uint32_t>((slot - arena_) / 2));
}

uint32_t StrataDevice::register_kernels(const std::string& executable,
                                        const std::vector<KernelInfo>& kernels) {
  const uint32_t first = next_kernel_id_.fetch_add(static_cast<uint32_t>(kernels.size()) + 1);
  std::lock_guard lock(mu_);
  for (size_t i = 0; i < kernels.size(); ++i) {
    kernels_[first + static_cast<uint32_t>(i)] = {executable, kernels[i].name};
    if (vt::perf_log_enabled()) {
      // STRATA_PERF_LOG: name the kernel ids of the command processor's lines.
      nlohmann::ordered_json j;
      j["device"] = properties().index;
      j["kernel_id"] = first + static_cast<uint32_t>(i);
      j["name"] = kernels[i].name;
      vt::perf_log_write(j.dump());
    }
  }
  return first;
}

void StrataDevice::unregister_kernels(uint32_t first, size_t count) {
  std::lock_guard lock(mu_);
  for (size_t i = 0; i < count; ++i) kernels_.erase(first + static_cast<uint32_t>(i));
}

void StrataDevice::name_kernel(DeviceFault* fault) {
  std::lock_guard lock(mu_);
  auto it = kernels_.find(fault->kernel_id);
  if (it == kernels_.end()) return;
  fault->executable_name = it->second.first;
  fault->kernel_name = it->second.second;
}

void StrataDevice::notify() {
  kmd::KmdNotify n{};
  (void)kmd::kmd_ioctl(kmd_, kmd::kIoctlNotify, &n);
}

uint64_t StrataDevice::event_count() {
  kmd::KmdWaitEvent ev{0, 0, 0};
  (void)kmd::kmd_ioctl(kmd_, kmd::kIoctlWaitEvent, &ev);
  return ev.count;
}

void StrataDevice::wait_event(uint64_t seen, std::chrono::nanoseconds timeout) {
  kmd::KmdWaitEvent ev{seen, static_cast<uint64_t>(timeout.count()), 0};
  (void)kmd::kmd_ioctl(kmd_, kmd::kIoctlWaitEvent, &ev);
}

StatusOr<std::shared_ptr<Context>> StrataDevice::do_create_context() {
  kmd::KmdContextCreate c{};
  RETURN_IF_ERROR(kmd::kmd_ioctl(kmd_, kmd::kIoctlContextCreate, &c));
  auto self = std::static_pointer_cast<StrataDevice>(shared_from_this());
  auto state = std::make_shared<ContextState>(self, c.context);
  kmd::KmdHostMap map{c.context, kmd::kMapWritable, arena_va(), arena_bytes()};
  RETURN_IF_ERROR(kmd::kmd_ioctl(kmd_, kmd::kIoctlHostMap, &map));
  return std::shared_ptr<Context>(std::make_shared<StrataContext>(self, state));
}

StatusOr<std::shared_ptr<Semaphore>> StrataDevice::do_create_semaphore(uint64_t initial_value) {
  return strata_backend::create_semaphore(std::static_pointer_cast<StrataDevice>(shared_from_this()), initial_value);
}

StatusOr<uint64_t> StrataDevice::do_timestamp_ns() {
  kmd::KmdReadTimer t{};
  RETURN_IF_ERROR(kmd::kmd_ioctl(kmd_, kmd::kIoctlReadTimer, &t));
  return t.ns;
}

StatusOr<uint64_t> StrataDevice::do_free_memory() {
  kmd::KmdGetInfo info{};
  RETURN_IF_ERROR(kmd::kmd_ioctl(kmd_, kmd::kIoctlGetInfo, &info));
  return info.vram_free;
}

}  // namespace strata::hal::strata_backend

namespace strata::hal {

BackendInfo strata_backend_info() {
  return BackendInfo{"strata", [] { return kmd::kmd_device_count(); },
                     [](int index) { return strata_backend::StrataDevice::open(index); }};
}

}  // namespace strata::hal
