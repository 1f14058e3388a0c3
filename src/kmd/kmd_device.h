// KmdDevice: one GPU under the emulated kernel-mode driver. Implements every ioctl of
// uapi.h for that device: VRAM and address spaces, channels and submission, fences,
// interrupts and fault recovery.
//
// Interrupts are handled in two halves, as in a kernel driver: the GPU's handler only
// wakes the driver's interrupt thread, which reads and clears INTR_STATUS, pops fault
// records, resets faulted contexts' channels and wakes waiters.
// Locking: mu_ guards the object tables; each channel has a submit lock held while its
// ring is written (lock order: a channel submit lock, then mu_).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "base/status.h"
#include "hw/config/arch_config.h"
#include "hw/contract/gpu.h"
#include "kmd/page_tables.h"
#include "kmd/range_allocator.h"
#include "kmd/ring.h"
#include "kmd/uapi.h"

namespace strata::kmd {

class ProcessVaSpace;

class KmdDevice {
 public:
  // Takes over `gpu`: programs windows and interrupts and starts the interrupt thread.
  static StatusOr<std::shared_ptr<KmdDevice>> create(int index, const hw::ArchConfig& config,
                                                     std::unique_ptr<hw::Gpu> gpu);
  ~KmdDevice();
  KmdDevice(const KmdDevice&) = delete;
  KmdDevice& operator=(const KmdDevice&) = delete;

  Status ioctl(IoctlCode code, void* request);

  // Peer-to-peer (kmd_device_peer.cc): called by another device's KMD while it maps
  // [offset, offset + size) of `memory` into one of its contexts. pin_for_peer returns
  // the bus address of that range in this device's VRAM aperture and keeps the memory
  // allocated until the matching unpin_for_peer. Take no other device's lock.
  StatusOr<uint64_t> pin_for_peer(MemoryId memory, uint64_t offset, uint64_t size);
  void unpin_for_peer(MemoryId memory);

 private:
  struct Mapping {
    uint64_t size;
    MemoryId memory;       // 0 for host memory
    int peer_device = -1;  // KmdPeerMap: `memory` is the peer's (kmd_open index)
  };
  struct Context {
    ContextId id;
    uint32_t asid;
    std::unique_ptr<PageTables> tables;
    std::map<uint64_t, Mapping> mappings;  // va -> mapping
    std::set<ChannelId> channels;
    KmdContextQueryFault fault{};
  };
  struct Memory {
    uint64_t phys;
    uint64_t size;
    int map_count = 0;
  };
  struct Channel {
    ChannelId id;
    uint32_t hw;
    ContextId context;
    uint64_t ring_phys;
    std::unique_ptr<Ring> ring;
    std::mutex submit_mu;       // guards ring writes and next_fence
    std::atomic<uint64_t> next_fence{1};
    uint64_t failed_after = 0;  // fences > this were lost to a reset (0: none lost)
    Status failure;             // the context's fault Status once reset
  };

  KmdDevice(int index, const hw::ArchConfig& config, std::unique_ptr<hw::Gpu> gpu,
            ProcessVaSpace* va_space);
  Status init();

  Status get_info(KmdGetInfo* r);
  Status read_timer(KmdReadTimer* r);
  Status context_create(KmdContextCreate* r);
  Status context_destroy(KmdContextDestroy* r);
  Status context_query_fault(KmdContextQueryFault* r);
  Status mem_alloc(KmdMemAlloc* r);
  Status mem_free(KmdMemFree* r);
  Status va_alloc(KmdVaAlloc* r);
  Status va_free(KmdVaFree* r);
  Status map(KmdMap* r);
  Status host_map(KmdHostMap* r);
  Status unmap(KmdUnmap* r);
  Status channel_create(KmdChannelCreate* r);
  Status channel_destroy(KmdChannelDestroy* r);
  Status submit(KmdSubmit* r);
  Status fence_wait(KmdFenceWait* r);
  Status wait_event(KmdWaitEvent* r);
  Status notify(KmdNotify* r);
  Status peer_map(KmdPeerMap* r);
  // Unpins the peer memory of removed mappings (without mu_ held: lock order).
  static void unpin_peers(const std::vector<Mapping>& removed);

  // Requires mu_.
  StatusOr<Context*> find_context(ContextId id);
  StatusOr<std::shared_ptr<Channel>> find_channel(ChannelId id);
  uint64_t fence_value(uint32_t hw_channel) const;
  uint64_t fence_va(uint32_t hw_channel) const;
  uint64_t fence_time(uint32_t hw_channel) const;
  Status destroy_channel_locked(std::unique_lock<std::mutex>& lock, ChannelId id);
  // Resets every channel of `context` after a fault.
  void reset_context_channels(Context& context);

  void interrupt_thread_main();
  void handle_faults();

  int index_;
  hw::ArchConfig config_;
  std::unique_ptr<hw::Gpu> gpu_;
  ProcessVaSpace* va_space_;
  uint32_t sm_count_ = 0;
  uint32_t num_channels_ = 0;

  std::mutex mu_;
  std::condition_variable event_cv_;   // fences, faults, notify
  uint64_t event_count_ = 0;
  RangeAllocator vram_;
  // Host memory, 16 bytes per hardware channel: {fence value, its modeled time}
  // (kPacketSemTime).
  uint64_t* fence_page_ = nullptr;
  uint64_t fence_page_bytes_ = 0;
  uint32_t next_id_ = 1;
  uint32_t next_asid_ = 1;
  std::map<ContextId, std::unique_ptr<Context>> contexts_;
  std::map<MemoryId, Memory> memories_;
  std::map<ChannelId, std::shared_ptr<Channel>> channels_;
  std::vector<ChannelId> hw_channels_;  // hardware channel -> ChannelId (0: free)

  std::mutex irq_mu_;
  std::condition_variable irq_cv_;
  bool irq_pending_ = false;
  bool stopping_ = false;
  std::thread irq_thread_;
};

}  // namespace strata::kmd
