#include "cuda/driver/device.h"

#include <cstring>
#include <string>

#include "base/log.h"
#include "cuda/driver/api_profiler.h"
#include "cuda/driver/context.h"
#include "cuda/driver/handles.h"
#include "fmt/format.h"

namespace strata::cuda::driver {

CUuuid Device::uuid() const {
  const std::string key = hal_->properties().backend + "/" + arch().name + "/" +
                          arch().content_hash + "/" + std::to_string(ordinal_);
  uint64_t h1 = 1469598103934665603ull, h2 = 1099511628211ull * 31;
  for (unsigned char c : key) {
    h1 = (h1 ^ c) * 1099511628211ull;
    h2 = (h2 ^ c) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull;
  }
  CUuuid uuid;
  std::memcpy(uuid.bytes, &h1, 8);
  std::memcpy(uuid.bytes + 8, &h2, 8);
  uuid.bytes[6] = static_cast<char>((uuid.bytes[6] & 0x0f) | 0x40);
  uuid.bytes[8] = static_cast<char>((uuid.bytes[8] & 0x3f) | 0x80);
  return uuid;
}

namespace {

struct DriverState {
  std::once_flag once;
  Status status;
  std::vector<std::unique_ptr<Device>> devices;
};

DriverState& state() {
  static auto* s = new DriverState();
  return *s;
}

}  // namespace

Handles& handles() {
  static auto* h = new Handles();
  return *h;
}

Status initialize(unsigned int flags) {
  if (flags != 0) return error(Code::kInvalidValue, fmt::format("cuInit: flags must be 0, got {}", flags));
  DriverState& s = state();
  std::call_once(s.once, [&s] {
    auto count = hal::device_count();
    if (!count.ok()) {
      s.status = count.status();
      STRATA_LOG_ERROR("cuInit: {}", count.status().message());
      return;
    }
    if (*count == 0) {
      s.status = error(Code::kNoDevice, "cuInit: the HAL backend '" + hal::selected_backend() +
                                            "' has no devices");
      return;
    }
    for (int i = 0; i < *count; ++i) {
      auto dev = hal::open_device(i);
      if (!dev.ok()) {
        s.status = dev.status();
        s.devices.clear();
        STRATA_LOG_ERROR("cuInit: cannot open device {}: {}", i, dev.status().message());
        return;
      }
      s.devices.push_back(std::make_unique<Device>(i, std::move(dev).value()));
    }
  });
  return s.status;
}

StatusOr<std::vector<Device*>> devices() {
  DriverState& s = state();
  if (s.devices.empty()) {
    return s.status.ok() ? error(Code::kNotInitialized, "cuInit has not been called") : s.status;
  }
  std::vector<Device*> out;
  for (auto& d : s.devices) out.push_back(d.get());
  return out;
}

Status initialized() {
  DriverState& s = state();
  if (s.devices.empty()) {
    return s.status.ok() ? error(Code::kNotInitialized, "cuInit has not been called") : s.status;
  }
  return ok_status();
}

StatusOr<Device*> device(CUdevice ordinal) {
  ASSIGN_OR_RETURN(std::vector<Device*> all, devices());
  if (ordinal < 0 || ordinal >= static_cast<int>(all.size())) {
    return error(Code::kInvalidDevice, fmt::format("device ordinal {} is out of range (0..{})",
                                                   ordinal, all.size() - 1));
  }
  return all[ordinal];
}

StatusOr<std::shared_ptr<Context>> Device::retain_primary() {
  std::shared_ptr<Context> context;
  bool created = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!primary_) {
      ASSIGN_OR_RETURN(primary_, Context::create(this, primary_flags_, /*primary=*/true));
      handles().contexts.insert(primary_);
      created = true;
    }
    ++primary_refs_;
    context = primary_;
  }
  // Outside the lock: the profiler's hook may call the driver.
  if (created) notify_context_created(*context);
  return context;
}

Status Device::release_primary() {
  std::shared_ptr<Context> dead;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (primary_refs_ == 0) {
      return error(Code::kInvalidContext, fmt::format("device {}: the primary context is not "
                                                      "retained", ordinal_));
    }
    if (--primary_refs_ == 0) dead = std::move(primary_);
  }
  if (dead) {
    notify_context_destroy_starting(*dead);
    (void)dead->synchronize();
    dead->mark_destroyed();
    handles().contexts.erase(dead.get());
  }
  return ok_status();
}

Status Device::reset_primary() {
  std::shared_ptr<Context> dead;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    dead = std::move(primary_);
    primary_refs_ = 0;
  }
  if (dead) {
    notify_context_destroy_starting(*dead);
    (void)dead->synchronize();
    dead->mark_destroyed();
    handles().contexts.erase(dead.get());
  }
  return ok_status();
}

Status Device::set_primary_flags(unsigned int flags) {
  unsigned int sched = flags & CU_CTX_SCHED_MASK;
  if ((flags & ~static_cast<unsigned int>(CU_CTX_FLAGS_MASK)) != 0 ||
      (sched != 0 && sched != CU_CTX_SCHED_SPIN && sched != CU_CTX_SCHED_YIELD &&
       sched != CU_CTX_SCHED_BLOCKING_SYNC)) {
    return error(Code::kInvalidValue, fmt::format("invalid context flags {:#x}", flags));
  }
  std::lock_guard<std::mutex> lock(mutex_);
  primary_flags_ = flags;
  return ok_status();
}

void Device::primary_state(unsigned int* flags, int* active) {
  std::lock_guard<std::mutex> lock(mutex_);
  *flags = primary_flags_;
  *active = primary_ != nullptr ? 1 : 0;
}

}  // namespace strata::cuda::driver
