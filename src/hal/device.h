// Device: one GPU as the HAL presents it, and the entry point of the HAL.
//
// open_device(i) returns the same Device for the same index for the life of the
// process (devices are never closed). The backend is chosen by STRATA_BACKEND
// ("strata", the default: the Strata GPU through the KMD; "null": executes nothing),
// or named explicitly. Backends register in hal/backend.h.
// Thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "base/status.h"
#include "hal/context.h"
#include "hal/semaphore.h"
#include "hw/config/arch_config.h"

namespace strata::hal {

struct DeviceProperties {
  std::string backend;         // "strata", "null", ...
  int index = 0;               // device ordinal within the backend
  hw::ArchConfig arch;         // what cudaGetDeviceProperties reports
  uint64_t total_memory = 0;   // device memory in bytes
  int num_channels = 0;        // hardware queues available to all contexts together
};

class Device : public std::enable_shared_from_this<Device> {
 public:
  virtual ~Device() = default;
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const DeviceProperties& properties() const { return properties_; }

  // A new GPU address space. Contexts are independent: a fault in one leaves the others
  // (and new ones) working.
  StatusOr<std::shared_ptr<Context>> create_context();

  // A timeline semaphore starting at `initial_value`, usable by every context's queues.
  // kOutOfMemory when the device's semaphore storage is exhausted.
  StatusOr<std::shared_ptr<Semaphore>> create_semaphore(uint64_t initial_value = 0);

  // The device clock in ns (the clock timestamps are written in).
  StatusOr<uint64_t> timestamp_ns();

  // Device memory not allocated by anyone, in bytes.
  StatusOr<uint64_t> free_memory();

 protected:
  explicit Device(DeviceProperties properties) : properties_(std::move(properties)) {}
  virtual StatusOr<std::shared_ptr<Context>> do_create_context() = 0;
  virtual StatusOr<std::shared_ptr<Semaphore>> do_create_semaphore(uint64_t initial_value) = 0;
  virtual StatusOr<uint64_t> do_timestamp_ns() = 0;
  virtual StatusOr<uint64_t> do_free_memory() = 0;

 private:
  DeviceProperties properties_;
};

// Name of the backend STRATA_BACKEND selects ("strata" when unset).
std::string selected_backend();

// Devices of the selected backend (STRATA_DEVICES for "strata"). kNotFound for an
// unknown backend name, which the message lists.
StatusOr<int> device_count();
StatusOr<int> device_count(std::string_view backend);

// Device `index` of the selected / named backend; kInvalidDevice for a bad index.
StatusOr<std::shared_ptr<Device>> open_device(int index);
StatusOr<std::shared_ptr<Device>> open_device(std::string_view backend, int index);

}  // namespace strata::hal
