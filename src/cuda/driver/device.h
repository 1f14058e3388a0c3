// Driver-level devices (CUdevice ordinals) and their primary contexts, plus cuInit's
// process state. Thread-safe.
#pragma once

#include <cuda.h>

#include <memory>
#include <mutex>
#include <vector>

#include "base/status.h"
#include "hal/device.h"
#include "hw/config/arch_config.h"

namespace strata::cuda::driver {

class Context;

class Device {
 public:
  Device(int ordinal, std::shared_ptr<hal::Device> hal) : ordinal_(ordinal), hal_(std::move(hal)) {}

  int ordinal() const { return ordinal_; }
  hal::Device& hal() const { return *hal_; }
  const hw::ArchConfig& arch() const { return hal_->properties().arch; }
  uint64_t total_memory() const { return hal_->properties().total_memory; }
  // cuDeviceGetUuid's UUID: stable, version-4 shaped, derived from the backend, the
  // config and the ordinal.
  CUuuid uuid() const;

  // Primary context (cuDevicePrimaryCtx*): created on the first retain, destroyed when
  // the count drops to zero or on reset. `flags` apply to the next creation.
  StatusOr<std::shared_ptr<Context>> retain_primary();
  Status release_primary();
  Status reset_primary();
  Status set_primary_flags(unsigned int flags);
  void primary_state(unsigned int* flags, int* active);

 private:
  int ordinal_;
  std::shared_ptr<hal::Device> hal_;
  std::mutex mutex_;
  std::shared_ptr<Context> primary_;
  int primary_refs_ = 0;
  unsigned int primary_flags_ = 0;
};

// cuInit: opens the HAL devices once. Later calls return the first call's result.
Status initialize(unsigned int flags);

// kNotInitialized before a successful cuInit.
StatusOr<std::vector<Device*>> devices();
// devices().status() without building the list (no allocation: hot paths).
Status initialized();
// kInvalidDevice for an ordinal out of range; kNotInitialized before cuInit.
StatusOr<Device*> device(CUdevice ordinal);

}  // namespace strata::cuda::driver
