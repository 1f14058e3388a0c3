// Context: a CUDA context (CUcontext) on one device: a HAL context (one GPU address
// space), its streams, modules and allocations, and its sticky error.
//
// Sticky errors: once the GPU faults in this context (hal::Context::status()), every
// later check() returns that error, and a log line names the kernel, fault, address,
// block, thread and (with a line table) the PTX line. cuCtxDestroy / primary context
// reset are the only ways out, as in CUDA.
// The per-thread current-context stack lives here too (thread_local).
// Thread-safe.
#pragma once

#include <cuda.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "base/status.h"
#include "cuda/driver/activity.h"
#include "cuda/driver/device_runtime.h"
#include "hal/context.h"

namespace strata::cuda::driver {

class Device;
class Module;
class Stream;
class SourceLines;

class Context : public std::enable_shared_from_this<Context> {
 public:
  static StatusOr<std::shared_ptr<Context>> create(Device* device, unsigned int flags,
                                                   bool primary);
  ~Context();

  CUcontext handle() { return reinterpret_cast<CUcontext>(this); }
  Device& device() const { return *device_; }
  hal::Context& hal() const { return *hal_; }
  unsigned int flags() const { return flags_.load(); }
  void set_flags(unsigned int flags) { flags_.store(flags); }  // cuCtxSetFlags
  bool primary() const { return primary_; }

  // OK; the sticky fault error; or CUDA_ERROR_CONTEXT_IS_DESTROYED.
  Status check();
  // Marks the context destroyed (handles still current elsewhere then fail).
  void mark_destroyed();

  // The legacy NULL stream, created with the context.
  const std::shared_ptr<Stream>& legacy_stream() const { return legacy_stream_; }
  // The calling thread's per-thread default stream in this context (created on demand).
  StatusOr<std::shared_ptr<Stream>> per_thread_stream();

  // Stream registry for the legacy stream's implicit synchronisation.
  void add_stream(Stream* stream);
  void remove_stream(Stream* stream);
  // Blocking (synchronising-with-legacy) streams other than `except`.
  std::vector<Stream*> blocking_streams(const Stream* except);

  // Waits for every stream of the context (cuCtxSynchronize), then prints the device
  // printf output (flush_printf_if_idle).
  Status synchronize();
  // The points the context's streams have reached (their tails, those with work queued):
  // a queue of another context, of any device, waits on them to order work after
  // everything queued here so far (hal/semaphore.h).
  std::vector<hal::SemaphoreValue> pending_work();

  // Device printf / assert services (the driver bank c[3]).
  DeviceRuntime& device_runtime() { return *device_runtime_; }
  // Prints and empties the printf FIFO when no stream of the context has work pending
  // (else leaves it for a later synchronisation point), then reports a device fault
  // (with CUDA's line for a failed assert) once. Called by every synchronising
  // call (context, stream and event synchronize, blocking copies), at context destroy
  // and at process exit.
  void flush_printf_if_idle();

  // Device allocations (cuMemAlloc). free_device syncs the context first (as CUDA does)
  // so no queued work still uses the memory. kInvalidValue for an unknown pointer.
  StatusOr<uint64_t> allocate_device(uint64_t size);
  Status free_device(uint64_t va);

  // The context's pinned staging buffer for copies that involve pageable host memory
  // (created on first use, kStagingBytes long). Callers hold the returned lock for as
  // long as they use the buffer: one staged copy at a time per context, as the copy
  // engine would serialise them anyway.
  static constexpr uint64_t kStagingBytes = 4ull << 20;
  StatusOr<std::shared_ptr<hal::Buffer>> staging_buffer(std::unique_lock<std::mutex>* lock);

  // Device-work records for the profiler (activity.h).
  ActivityTracker& activity() { return *activity_; }

  // Modules register so that faults can be mapped to PTX lines.
  void add_module(const std::shared_ptr<Module>& module);
  void remove_module(const Module* module);
  // The source lines of the module whose kernel's code starts at `kernel_code_va`
  // (hal::WorkDescription::code_va); null when no loaded module has it.
  std::shared_ptr<const SourceLines> source_lines_at(uint64_t kernel_code_va);

  // Profiler resource events (api_profiler.h): the context's streams (legacy last) and
  // live modules, and "destroy reported" (true the first time only).
  std::vector<Stream*> streams();
  std::vector<std::shared_ptr<Module>> modules();
  bool claim_destroy_report() { return !destroy_reported_.exchange(true); }

 private:
  Context(Device* device, std::shared_ptr<hal::Context> hal, unsigned int flags, bool primary)
      : device_(device), hal_(std::move(hal)), flags_(flags), primary_(primary),
        device_runtime_(std::make_unique<DeviceRuntime>(&hal_->allocator())),
        activity_(std::make_unique<ActivityTracker>(*this)) {}
  void log_fault_once(const Status& status);

  Device* device_;
  std::shared_ptr<hal::Context> hal_;
  std::atomic<unsigned int> flags_;
  bool primary_;
  std::atomic<bool> destroyed_{false};
  std::atomic<bool> fault_logged_{false};
  std::atomic<bool> destroy_reported_{false};
  std::shared_ptr<Stream> legacy_stream_;
  std::unique_ptr<DeviceRuntime> device_runtime_;
  std::unique_ptr<ActivityTracker> activity_;

  std::mutex mutex_;
  std::vector<Stream*> streams_;
  std::vector<std::weak_ptr<Module>> modules_;
  std::map<uint64_t, std::shared_ptr<hal::Buffer>> allocations_;
  std::mutex staging_mutex_;
  std::shared_ptr<hal::Buffer> staging_;
};

// The calling thread's context stack (cuCtxPush/Pop/Set/GetCurrent).
std::shared_ptr<Context> current_context();
void set_current_context(std::shared_ptr<Context> context);  // replaces the top
void push_current_context(std::shared_ptr<Context> context);
std::shared_ptr<Context> pop_current_context();
// Removes `context` from the calling thread's stack (cuCtxDestroy).
void forget_current_context(const Context* context);

// Every live context of the process (the profiler harvests them all).
std::vector<std::shared_ptr<Context>> live_context_list();

// The current context, checked: kInvalidContext when none, its sticky error otherwise.
StatusOr<std::shared_ptr<Context>> checked_current_context();

}  // namespace strata::cuda::driver
