// The strata backend's objects: the HAL over the KMD (kmd/uapi.h). Internal to the
// backend; users see only the hal/*.h interfaces.
//
// - StrataDevice: a KMD device handle; a host-memory semaphore arena (16-byte slots
//   {value, modeled time of the signal} (hw::kPacketSemTime), mapped into every context
//   at its host address) and the kernel-id registry that
//   turns fault records into kernel names.
// - ContextState: one KMD context (address space), shared by the Context and every
//   Buffer/Queue made in it, destroyed with the last of them.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "hal/device.h"
#include "kmd/kmd.h"

namespace strata::hal::strata_backend {

inline constexpr uint32_t kSemaphoreSlots = 8192;

class StrataDevice;

struct ContextState {
  ContextState(std::shared_ptr<StrataDevice> device, kmd::ContextId id) : device(std::move(device)), id(id) {}
  ~ContextState();
  std::shared_ptr<StrataDevice> device;
  kmd::ContextId id;
  // Other devices whose semaphore arenas are mapped (read-only, at their host address)
  // into this context, so that its queues can wait on their semaphores.
  std::mutex foreign_arenas_mu;
  std::map<const StrataDevice*, std::shared_ptr<StrataDevice>> foreign_arenas;
};

class StrataDevice final : public Device {
 public:
  static StatusOr<std::shared_ptr<Device>> open(int index);
  ~StrataDevice() override;

  kmd::KmdHandle kmd() const { return kmd_; }
  const kmd::KmdGetInfo& info() const { return info_; }
  uint8_t* aperture() const { return info_.vram_aperture; }
  LaunchLimits launch_limits() const;

  // Semaphore slots (host memory inside the arena).
  StatusOr<uint64_t*> allocate_slot();
  void free_slot(uint64_t* slot);
  uint64_t arena_va() const { return reinterpret_cast<uint64_t>(arena_); }
  uint64_t arena_bytes() const { return kSemaphoreSlots * 16; }

  // Kernel ids: reserve `count` consecutive ids naming `executable`'s kernels.
  uint32_t register_kernels(const std::string& executable, const std::vector<KernelInfo>& kernels);
  void unregister_kernels(uint32_t first, size_t count);
  void name_kernel(DeviceFault* fault);

  // Wakes host waiters and re-rings doorbells (after a host-side semaphore change).
  void notify();
  // Waits for the KMD's interrupt event counter to move past `seen` (bounded slice).
  uint64_t event_count();
  void wait_event(uint64_t seen, std::chrono::nanoseconds timeout);

 private:
  StrataDevice(DeviceProperties props, kmd::KmdHandle kmd, kmd::KmdGetInfo info);
  StatusOr<std::shared_ptr<Context>> do_create_context() override;
  StatusOr<std::shared_ptr<Semaphore>> do_create_semaphore(uint64_t initial_value) override;
  StatusOr<uint64_t> do_timestamp_ns() override;
  StatusOr<uint64_t> do_free_memory() override;

  kmd::KmdHandle kmd_;
  kmd::KmdGetInfo info_;
  uint64_t* arena_ = nullptr;
  std::mutex mu_;
  std::vector<uint32_t> free_slots_;
  std::atomic<uint32_t> next_kernel_id_{1};
  std::map<uint32_t, std::pair<std::string, std::string>> kernels_;  // id -> (module, kernel)
};

// Factories of the other backend objects (their files).
std::unique_ptr<Allocator> create_allocator(std::shared_ptr<ContextState> state);
// `priority`: hal::Queue's (0..kMaxQueuePriority), the channel's CH_PRIORITY.
StatusOr<std::shared_ptr<Queue>> create_queue(std::shared_ptr<ContextState> state,
                                              std::weak_ptr<Context> context, uint32_t priority);
// Parameter blocks (host-pinned, mapped) that a context's command buffers reuse: a
// command buffer returns its blocks when it is destroyed, which the queue does only once
// the GPU has consumed it. Owned by the context. Thread-safe.
class ParamBlockPool;
std::shared_ptr<ParamBlockPool> create_param_block_pool();
std::shared_ptr<CommandBuffer> create_command_buffer(std::shared_ptr<ContextState> state,
                                                     std::shared_ptr<Context> context,
                                                     std::shared_ptr<ParamBlockPool> pool);
StatusOr<std::shared_ptr<Semaphore>> create_semaphore(std::shared_ptr<StrataDevice> device,
                                                      uint64_t initial_value);

// Semaphore internals the queue needs. semaphore_va is 0 for a semaphore of another backend.
uint64_t semaphore_va(Semaphore& semaphore);
// The device whose arena holds the semaphore (null for another backend's semaphore).
const std::shared_ptr<StrataDevice>* semaphore_device(Semaphore& semaphore);
// Records that a submission on (channel, fence) of `context` will signal the semaphore.
void semaphore_add_pending(Semaphore& semaphore, std::weak_ptr<Context> context,
                           kmd::ChannelId channel, uint64_t fence);
// The command buffer's context (null for another backend's buffer) and packets.
std::span<const uint32_t> command_buffer_dwords(CommandBuffer& cb);
const ContextState* command_buffer_context(CommandBuffer& cb);

}  // namespace strata::hal::strata_backend
