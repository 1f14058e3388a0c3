// Context: one GPU address space on a Device (a CUDA context maps onto one). It owns
// the allocator, queues, command buffers and executables that use that address space.
//
// Faults: a device fault in any of the context's queues makes status() return the
// fault's Status forever (sticky) and fault() describe it; the context's channels are
// reset, pending signals fail (fault.h). The Device stays usable: create a new Context
// to continue (what cudaDeviceReset does for the primary context).
// Objects created by a context keep it alive. Thread-safe.
#pragma once

#include <memory>
#include <optional>

#include "base/status.h"
#include "hal/allocator.h"
#include "hal/command_buffer.h"
#include "hal/executable.h"
#include "hal/fault.h"
#include "hal/queue.h"

namespace strata::hal {

class Device;

class Context {
 public:
  virtual ~Context() = default;
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  Device& device() const { return *device_; }
  Allocator& allocator() { return *allocator_; }

  // A new hardware channel scheduled at `priority` (queue.h: 0, the default, is the
  // lowest; kMaxQueuePriority the highest). kOutOfMemory when the device has no free
  // channel; kInvalidValue for a priority above kMaxQueuePriority.
  StatusOr<std::shared_ptr<Queue>> create_queue(uint32_t priority = 0);
  StatusOr<std::shared_ptr<CommandBuffer>> create_command_buffer();
  // Validates `spec` (Executable::validate), uploads the code, assigns kernel ids.
  StatusOr<std::shared_ptr<Executable>> load_executable(const ExecutableSpec& spec);

  // OK, or the sticky Status of the first device fault in this context.
  Status status();
  std::optional<DeviceFault> fault();

 protected:
  Context(std::shared_ptr<Device> device, std::unique_ptr<Allocator> allocator)
      : device_(std::move(device)), allocator_(std::move(allocator)) {}
  virtual StatusOr<std::shared_ptr<Queue>> do_create_queue(uint32_t priority) = 0;
  virtual StatusOr<std::shared_ptr<CommandBuffer>> do_create_command_buffer() = 0;
  virtual StatusOr<std::shared_ptr<Executable>> do_load_executable(const ExecutableSpec& spec) = 0;
  virtual std::optional<DeviceFault> do_fault() = 0;

 private:
  std::shared_ptr<Device> device_;
  std::unique_ptr<Allocator> allocator_;
};

}  // namespace strata::hal
