#include "kmd/kmd_device.h"

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "base/check.h"
#include "base/log.h"
#include "base/virtual_time.h"
#include "hw/contract/packets.h"
#include "hw/contract/page_table.h"
#include "hw/contract/regs.h"
#include "kmd/fault_status.h"
#include "kmd/va_space.h"

namespace strata::kmd {
namespace {

using Clock = std::chrono::steady_clock;

constexpr uint32_t kDefaultRingBytes = 64 * 1024;
constexpr uint32_t kMinRingBytes = 4 * 1024;
constexpr uint32_t kMaxRingBytes = 16 * 1024 * 1024;
constexpr uint64_t kReservedVramBytes = 64 * 1024;  // VRAM [0, 64 KiB) is never handed out
// Waiters re-check memory at least this often, so a lost wake-up costs latency only.
constexpr auto kMaxWaitSlice = std::chrono::milliseconds(20);
constexpr auto kChannelDrainTimeout = std::chrono::seconds(10);
constexpr uint32_t kCtrlEnable = 1u << 0;
constexpr uint32_t kCtrlReset = 1u << 1;

bool is_pow2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

Clock::time_point deadline_after(uint64_t timeout_ns) {
  const auto now = Clock::now();
  const uint64_t max_ns = static_cast<uint64_t>(std::chrono::nanoseconds(std::chrono::hours(24 * 365)).count());
  return now + std::chrono::nanoseconds(timeout_ns > max_ns ? max_ns : timeout_ns);
}

Status timed_out(const std::string& what) {
  return error(Code::kNotReady, "timed out waiting for " + what);
}

}  // namespace

KmdDevice::KmdDevice(int index, const hw::ArchConfig& config, std::unique_ptr<hw::Gpu> gpu,
                     ProcessVaSpace* va_space)
    : index_(index), config_(config), gpu_(std::move(gpu)), va_space_(va_space),
      vram_("VRAM", 0, gpu_->vram_size() & ~(hw::kPageSize - 1), hw::kPageSize) {}

StatusOr<std::shared_ptr<KmdDevice>> KmdDevice::create(int index, const hw::ArchConfig& config,
                                                       std::unique_ptr<hw::Gpu> gpu) {
  if (gpu == nullptr) return error(Code::kInvalidValue, "kmd: null GPU");
  ASSIGN_OR_RETURN(ProcessVaSpace * va_space, ProcessVaSpace::get());
  std::shared_ptr<KmdDevice> device(new KmdDevice(index, config, std::move(gpu), va_space));
  RETURN_IF_ERROR(device->init());
  return device;
}

Status KmdDevice::init() {
  const uint32_t id = gpu_->read_reg(hw::REG_ID);
  if (id != hw::kIdMagic) {
    return error(Code::kNoDevice, fmt::format("device {}: ID register reads 0x{:08x}, expected "
                                              "0x{:08x}", index_, id, hw::kIdMagic));
  }
  sm_count_ = gpu_->read_reg(hw::REG_NUM_SMS);
  num_channels_ = gpu_->read_reg(hw::REG_NUM_CHANNELS);
  if (num_channels_ == 0 || num_channels_ > 4096) {
    return error(Code::kNoDevice, fmt::format("device {}: implausible channel count {}", index_,
                                              num_channels_));
  }
  if (vram_.free_bytes() <= kReservedVramBytes + (1u << 20)) {
    return error(Code::kNoDevice, fmt::format("device {}: VRAM of {} bytes is too small", index_,
                                              gpu_->vram_size()));
  }
  auto reserved = vram_.allocate(kReservedVramBytes, hw::kPageSize);
  CHECK(reserved.ok() && *reserved == 0);
  hw_channels_.assign(num_channels_, 0);

  fence_page_bytes_ = (num_channels_ * 16 + hw::kPageSize - 1) & ~(hw::kPageSize - 1);
  fence_page_ = static_cast<uint64_t*>(std::aligned_alloc(hw::kPageSize, fence_page_bytes_));
  if (fence_page_ == nullptr) return error(Code::kOutOfMemory, "kmd: no memory for fence page");
  std::memset(fence_page_, 0, fence_page_bytes_);

  const uint64_t shared = va_space_->shared_window();
  const uint64_t local = va_space_->local_window();
  gpu_->write_reg(hw::REG_SHARED_WINDOW_LO, static_cast<uint32_t>(shared));
  gpu_->write_reg(hw::REG_SHARED_WINDOW_HI, static_cast<uint32_t>(shared >> 32));
  gpu_->write_reg(hw::REG_LOCAL_WINDOW_LO, static_cast<uint32_t>(local));
  gpu_->write_reg(hw::REG_LOCAL_WINDOW_HI, static_cast<uint32_t>(local >> 32));

  irq_thread_ = std::thread([this] { interrupt_thread_main(); });
  gpu_->set_interrupt_handler([this] {
    std::lock_guard lock(irq_mu_);
    irq_pending_ = true;
    irq_cv_.notify_one();
  });
  gpu_->write_reg(hw::REG_INTR_ENABLE, hw::kIntrCompletion | hw::kIntrFault);
  STRATA_LOG_INFO("kmd: device {}: {} SMs, {} channels, {} MiB VRAM", index_, sm_count_,
                  num_channels_, gpu_->vram_size() >> 20);
  return ok_status();
}

KmdDevice::~KmdDevice() {
  if (gpu_ != nullptr) {
    gpu_->write_reg(hw::REG_INTR_ENABLE, 0);
    for (uint32_t hw = 0; hw < hw_channels_.size(); ++hw) {
      if (hw_channels_[hw] != 0) gpu_->write_reg(hw::channel_reg(hw, hw::REG_CH_CTRL), kCtrlReset);
    }
    gpu_->set_interrupt_handler([] {});
  }
  {
    std::lock_guard lock(irq_mu_);
    stopping_ = true;
    irq_cv_.notify_one();
  }
  if (irq_thread_.joinable()) irq_thread_.join();
  contexts_.clear();  // page tables free their VRAM before vram_ goes
  gpu_.reset();       // no DMA into the fence page after this
  std::free(fence_page_);
}

Status KmdDevice::ioctl(IoctlCode code, void* request) {
  if (request == nullptr) return error(Code::kInvalidValue, "kmd_ioctl: null request");
  switch (code) {
#define STRATA_KMD_CASE(CODE, TYPE, FN) \
  case CODE: return FN(static_cast<TYPE*>(request));
    STRATA_KMD_CASE(kIoctlGetInfo, KmdGetInfo, get_info)
    STRATA_KMD_CASE(kIoctlReadTimer, KmdReadTimer, read_timer)
    STRATA_KMD_CASE(kIoctlContextCreate, KmdContextCreate, context_create)
    STRATA_KMD_CASE(kIoctlContextDestroy, KmdContextDestroy, context_destroy)
    STRATA_KMD_CASE(kIoctlContextQueryFault, KmdContextQueryFault, context_query_fault)
    STRATA_KMD_CASE(kIoctlMemAlloc, KmdMemAlloc, mem_alloc)
    STRATA_KMD_CASE(kIoctlMemFree, KmdMemFree, mem_free)
    STRATA_KMD_CASE(kIoctlVaAlloc, KmdVaAlloc, va_alloc)
    STRATA_KMD_CASE(kIoctlVaFree, KmdVaFree, va_free)
    STRATA_KMD_CASE(kIoctlMap, KmdMap, map)
    STRATA_KMD_CASE(kIoctlHostMap, KmdHostMap, host_map)
    STRATA_KMD_CASE(kIoctlUnmap, KmdUnmap, unmap)
    STRATA_KMD_CASE(kIoctlChannelCreate, KmdChannelCreate, channel_create)
    STRATA_KMD_CASE(kIoctlChannelDestroy, KmdChannelDestroy, channel_destroy)
    STRATA_KMD_CASE(kIoctlSubmit, KmdSubmit, submit)
    STRATA_KMD_CASE(kIoctlFenceWait, KmdFenceWait, fence_wait)
    STRATA_KMD_CASE(kIoctlWaitEvent, KmdWaitEvent, wait_event)
    STRATA_KMD_CASE(kIoctlNotify, KmdNotify, notify)
    STRATA_KMD_CASE(kIoctlPeerMap, KmdPeerMap, peer_map)
#undef STRATA_KMD_CASE
  }
  return error(Code::kInvalidValue,
               fmt::format("kmd_ioctl: unknown ioctl code 0x{:x} (uapi version {})",
                           static_cast<uint32_t>(code), kKmdUapiVersion));
}

// ---- device ----

Status KmdDevice::get_info(KmdGetInfo* r) {
  std::lock_guard lock(mu_);
  r->uapi_version = kKmdUapiVersion;
  r->device_index = static_cast<uint32_t>(index_);
  r->sm_count = sm_count_;
  r->num_channels = num_channels_;
  r->vram_size = gpu_->vram_size();
  r->vram_free = vram_.free_bytes();
  r->va_range_base = va_space_->base();
  r->va_range_size = va_space_->size();
  r->shared_window = va_space_->shared_window();
  r->local_window = va_space_->local_window();
  r->arch = &config_;
  r->vram_aperture = gpu_->vram_base();
  return ok_status();
}

Status KmdDevice::read_timer(KmdReadTimer* r) {
  std::lock_guard lock(mu_);  // LO latches HI: the pair must not interleave
  const uint64_t lo = gpu_->read_reg(hw::REG_TIMER_LO);
  const uint64_t hi = gpu_->read_reg(hw::REG_TIMER_HI);
  r->ns = (hi << 32) | lo;
  return ok_status();
}

// ---- address spaces ----

StatusOr<KmdDevice::Context*> KmdDevice::find_context(ContextId id) {
  auto it = contexts_.find(id);
  if (it == contexts_.end()) {
    return error(Code::kInvalidHandle, fmt::format("kmd: no context {} on device {}", id, index_));
  }
  return it->second.get();
}

Status KmdDevice::context_create(KmdContextCreate* r) {
  std::lock_guard lock(mu_);
  auto context = std::make_unique<Context>();
  context->id = next_id_++;
  context->asid = next_asid_++;
  context->tables = std::make_unique<PageTables>(gpu_->vram_base(), &vram_);
  RETURN_IF_ERROR(context->tables->init());
  // Every address space sees the fence page at its host address (UVA).
  const uint64_t fence = reinterpret_cast<uint64_t>(fence_page_);
  RETURN_IF_ERROR(context->tables->map(fence, fence, fence_page_bytes_,
                                       hw::kPteSysmem | hw::kPteWritable));
  r->context = context->id;
  STRATA_LOG_DEBUG("kmd: device {}: context {} created (asid {}, page table root 0x{:x})",
                   index_, context->id, context->asid, context->tables->root());
  contexts_.emplace(context->id, std::move(context));
  return ok_status();
}

Status KmdDevice::context_destroy(KmdContextDestroy* r) {
  std::unique_lock lock(mu_);
  ASSIGN_OR_RETURN(Context * context, find_context(r->context));
  while (!context->channels.empty()) {
    RETURN_IF_ERROR(destroy_channel_locked(lock, *context->channels.begin()));
    auto again = find_context(r->context);
    if (!again.ok()) return ok_status();  // destroyed concurrently
    context = *again;
  }
  std::vector<Mapping> peers;
  for (const auto& [va, mapping] : context->mappings) {
    if (mapping.peer_device >= 0) {
      peers.push_back(mapping);
    } else if (mapping.memory != 0) {
      memories_[mapping.memory].map_count--;
    }
  }
  contexts_.erase(r->context);  // frees the page tables
  STRATA_LOG_DEBUG("kmd: device {}: context {} destroyed", index_, r->context);
  lock.unlock();
  unpin_peers(peers);
  return ok_status();
}

Status KmdDevice::context_query_fault(KmdContextQueryFault* r) {
  std::lock_guard lock(mu_);
  ASSIGN_OR_RETURN(Context * context, find_context(r->context));
  const ContextId id = r->context;
  *r = context->fault;
  r->context = id;
  return ok_status();
}

// ---- VRAM and VA ----

Status KmdDevice::mem_alloc(KmdMemAlloc* r) {
  std::lock_guard lock(mu_);
  ASSIGN_OR_RETURN(uint64_t phys, vram_.allocate(r->size, r->alignment));
  const MemoryId id = next_id_++;
  memories_.emplace(id, Memory{phys, vram_.allocation_size(phys)});
  r->memory = id;
  r->phys_addr = phys;
  return ok_status();
}

Status KmdDevice::mem_free(KmdMemFree* r) {
  std::lock_guard lock(mu_);
  auto it = memories_.find(r->memory);
  if (it == memories_.end()) {
    return error(Code::kInvalidHandle, fmt::format("kmd: no memory object {}", r->memory));
  }
  if (it->second.map_count != 0) {
    return error(Code::kInvalidValue, fmt::format("kmd: memory object {} is still mapped {} times",
                                                  r->memory, it->second.map_count));
  }
  RETURN_IF_ERROR(vram_.free(it->second.phys));
  memories_.erase(it);
  return ok_status();
}

Status KmdDevice::va_alloc(KmdVaAlloc* r) {
  ASSIGN_OR_RETURN(r->va, va_space_->allocate(r->size, r->alignment, r->hint));
  return ok_status();
}

Status KmdDevice::va_free(KmdVaFree* r) { return va_space_->free(r->va); }

Status KmdDevice::map(KmdMap* r) {
  std::lock_guard lock(mu_);
  ASSIGN_OR_RETURN(Context * context, find_context(r->context));
  auto mem = memories_.find(r->memory);
  if (mem == memories_.end()) {
    return error(Code::kInvalidHandle, fmt::format("kmd: no memory object {}", r->memory));
  }
  if (r->size == 0 || r->offset > mem->second.size || r->size > mem->second.size - r->offset) {
    return error(Code::kInvalidValue,
                 fmt::format("kmd: map of [+0x{:x}, +0x{:x}) exceeds memory object {} of 0x{:x} bytes",
                             r->offset, r->offset + r->size, r->memory, mem->second.size));
  }
  if (!va_space_->contains(r->va) || !va_space_->contains(r->va + r->size - 1)) {
    return error(Code::kInvalidValue,
                 fmt::format("kmd: VA [0x{:x}, +0x{:x}) is outside the reserved GPU VA range",
                             r->va, r->size));
  }
  if ((r->flags & ~(kMapWritable | kMapCopyOnly)) != 0) {
    return error(Code::kInvalidValue, fmt::format("kmd: bad map flags 0x{:x}", r->flags));
  }
  const uint64_t pte = ((r->flags & kMapWritable) ? hw::kPteWritable : 0) |
                       ((r->flags & kMapCopyOnly) ? hw::kPteCopyOnly : 0);
  RETURN_IF_ERROR(context->tables->map(r->va, mem->second.phys + r->offset, r->size, pte));
  context->mappings[r->va] = Mapping{r->size, r->memory};
  mem->second.map_count++;
  return ok_status();
}

Status KmdDevice::host_map(KmdHostMap* r) {
  std::lock_guard lock(mu_);
  ASSIGN_OR_RETURN(Context * context, find_context(r->context));
  if (r->host_addr == 0 || r->size == 0 || r->host_addr % hw::kPageSize != 0 ||
      r->size % hw::kPageSize != 0) {
    return error(Code::kInvalidValue,
                 fmt::format("kmd: host range [0x{:x}, +0x{:x}) is empty or not page aligned",
                             r->host_addr, r->size));
  }
  if (va_space_->contains(r->host_addr) || va_space_->contains(r->host_addr + r->size - 1)) {
    return error(Code::kInvalidValue, "kmd: host range overlaps the reserved GPU VA range");
  }
  if ((r->flags & ~kMapWritable) != 0) {
    return error(Code::kInvalidValue, fmt::format("kmd: bad map flags 0x{:x}", r->flags));
  }
  const uint64_t pte = hw::kPteSysmem | ((r->flags & kMapWritable) ? hw::kPteWritable : 0);
  RETURN_IF_ERROR(context->tables->map(r->host_addr, r->host_addr, r->size, pte));
  context->mappings[r->host_addr] = Mapping{r->size, 0};
  return ok_status();
}

Status KmdDevice::unmap(KmdUnmap* r) {
  std::unique_lock lock(mu_);
  ASSIGN_OR_RETURN(Context * context, find_context(r->context));
  auto it = context->mappings.find(r->va);
  if (it == context->mappings.end() || it->second.size != r->size) {
    return error(Code::kInvalidValue,
                 fmt::format("kmd: [0x{:x}, +0x{:x}) is not a mapping of context {}", r->va,
                             r->size, r->context));
  }
  RETURN_IF_ERROR(context->tables->unmap(r->va, r->size));
  const Mapping removed = it->second;
  context->mappings.erase(it);
  if (removed.peer_device >= 0) {
    lock.unlock();
    unpin_peers({removed});
  } else if (removed.memory != 0) {
    memories_[removed.memory].map_count--;
  }
  return ok_status();
}

// ---- channels ----

StatusOr<std::shared_ptr<KmdDevice::Channel>> KmdDevice::find_channel(ChannelId id) {
  auto it = channels_.find(id);
  if (it == channels_.end()) {
    return error(Code::kInvalidHandle, fmt::format("kmd: no channel {} on device {}", id, index_));
  }
  return it->second;
}

uint64_t KmdDevice::fence_value(uint32_t hw_channel) const {
  return std::atomic_ref<uint64_t>(fence_page_[2 * hw_channel]).load(std::memory_order_acquire);
}

uint64_t KmdDevice::fence_va(uint32_t hw_channel) const {
  return reinterpret_cast<uint64_t>(&fence_page_[2 * hw_channel]);
}

uint64_t KmdDevice::fence_time(uint32_t hw_channel) const {
  return std::atomic_ref<uint64_t>(fence_page_[2 * hw_channel + 1]).load(std::memory_order_acquire);
}

Status KmdDevice::channel_create(KmdChannelCreate* r) {
  std::lock_guard lock(mu_);
  ASSIGN_OR_RETURN(Context * context, find_context(r->context));
  const uint32_t ring_bytes = r->ring_bytes == 0 ? kDefaultRingBytes : r->ring_bytes;
  if (!is_pow2(ring_bytes) || ring_bytes < kMinRingBytes || ring_bytes > kMaxRingBytes) {
    return error(Code::kInvalidValue,
                 fmt::format("kmd: ring size {} is not a power of two in [4 KiB, 16 MiB]", ring_bytes));
  }
  if (r->priority > hw::kMaxChannelPriority) {
    return error(Code::kInvalidValue, fmt::format("kmd: channel priority {} is above {}",
                                                  r->priority, hw::kMaxChannelPriority));
  }
  uint32_t hw = 0;
  while (hw < num_channels_ && hw_channels_[hw] != 0) ++hw;
  if (hw == num_channels_) {
    return error(Code::kOutOfMemory,
                 fmt::format("kmd: device {}: all {} hardware channels are in use", index_, num_channels_));
  }
  ASSIGN_OR_RETURN(uint64_t ring_phys, vram_.allocate(ring_bytes, hw::kPageSize));
  auto channel = std::make_shared<Channel>();
  channel->id = next_id_++;
  channel->hw = hw;
  channel->context = context->id;
  channel->ring_phys = ring_phys;
  channel->ring = std::make_unique<Ring>(
      reinterpret_cast<uint32_t*>(gpu_->vram_base() + ring_phys), ring_bytes);
  std::atomic_ref<uint64_t>(fence_page_[2 * hw + 1]).store(0, std::memory_order_release);
  std::atomic_ref<uint64_t>(fence_page_[2 * hw]).store(0, std::memory_order_release);

  const uint64_t pt = context->tables->root();
  gpu_->write_reg(hw::channel_reg(hw, hw::REG_CH_CTRL), kCtrlReset);
  gpu_->write_reg(hw::channel_reg(hw, hw::REG_CH_RING_BASE_LO), static_cast<uint32_t>(ring_phys));
  gpu_->write_reg(hw::channel_reg(hw, hw::REG_CH_RING_BASE_HI), static_cast<uint32_t>(ring_phys >> 32));
  gpu_->write_reg(hw::channel_reg(hw, hw::REG_CH_RING_SIZE), ring_bytes);
  gpu_->write_reg(hw::channel_reg(hw, hw::REG_CH_PT_BASE_LO), static_cast<uint32_t>(pt));
  gpu_->write_reg(hw::channel_reg(hw, hw::REG_CH_PT_BASE_HI), static_cast<uint32_t>(pt >> 32));
  gpu_->write_reg(hw::channel_reg(hw, hw::REG_CH_ASID), context->asid);
  gpu_->write_reg(hw::channel_reg(hw, hw::REG_CH_PRIORITY), r->priority);
  gpu_->write_reg(hw::channel_reg(hw, hw::REG_CH_PUT), 0);
  gpu_->write_reg(hw::channel_reg(hw, hw::REG_CH_CTRL), kCtrlEnable);

  hw_channels_[hw] = channel->id;
  context->channels.insert(channel->id);
  channels_.emplace(channel->id, channel);
  r->channel = channel->id;
  r->hw_channel = hw;
  STRATA_LOG_DEBUG("kmd: device {}: channel {} (hw {}) for context {}, ring 0x{:x}+{}", index_,
                   channel->id, hw, context->id, ring_phys, ring_bytes);
  return ok_status();
}

Status KmdDevice::channel_destroy(KmdChannelDestroy* r) {
  std::unique_lock lock(mu_);
  return destroy_channel_locked(lock, r->channel);
}

Status KmdDevice::destroy_channel_locked(std::unique_lock<std::mutex>& lock, ChannelId id) {
  ASSIGN_OR_RETURN(std::shared_ptr<Channel> channel, find_channel(id));
  channels_.erase(id);
  if (auto ctx = contexts_.find(channel->context); ctx != contexts_.end()) {
    ctx->second->channels.erase(id);
  }
  lock.unlock();
  // Wait out submitters, then let the queued work drain (bounded).
  std::unique_lock submit(channel->submit_mu);
  const uint64_t last = channel->next_fence.load() - 1;
  lock.lock();
  const auto deadline = Clock::now() + kChannelDrainTimeout;
  while (fence_value(channel->hw) < last && channel->failure.ok() && Clock::now() < deadline) {
    event_cv_.wait_for(lock, kMaxWaitSlice);
  }
  if (fence_value(channel->hw) < last && channel->failure.ok()) {
    STRATA_LOG_WARN("kmd: device {}: channel {} destroyed with work pending", index_, id);
  }
  gpu_->write_reg(hw::channel_reg(channel->hw, hw::REG_CH_CTRL), kCtrlReset);
  hw_channels_[channel->hw] = 0;
  (void)vram_.free(channel->ring_phys);
  return ok_status();
}

Status KmdDevice::submit(KmdSubmit* r) {
  std::shared_ptr<Channel> channel;
  {
    std::lock_guard lock(mu_);
    ASSIGN_OR_RETURN(channel, find_channel(r->channel));
    if (!channel->failure.ok()) return channel->failure;
  }
  if (r->dword_count != 0 && r->dwords == nullptr) {
    return error(Code::kInvalidValue, "kmd: submit of a null packet buffer");
  }
  std::lock_guard submit(channel->submit_mu);
  Ring& ring = *channel->ring;
  // Validate every packet before writing any (nothing is allocated per submission).
  const std::span<const uint32_t> dwords(r->dwords, r->dword_count);
  RETURN_IF_ERROR(
      for_each_packet(dwords, ring.max_packet_dwords(), [](std::span<const uint32_t>) {}));
  const uint64_t fence = channel->next_fence.load();
  uint32_t fence_packet[1 + sizeof(hw::SemPacket) / 4];
  fence_packet[0] = hw::PacketHeader::make(hw::PacketOp::kSemRelease, sizeof(hw::SemPacket) / 4,
                                           hw::kPacketInterrupt | hw::kPacketSemTime).raw;
  const hw::SemPacket sem{fence_va(channel->hw), fence};
  std::memcpy(&fence_packet[1], &sem, sizeof(sem));
  // The submission's host virtual time, ahead of its packets.
  uint32_t time_packet[1 + sizeof(hw::HostTimePacket) / 4];
  time_packet[0] = hw::PacketHeader::make(hw::PacketOp::kHostTime, sizeof(hw::HostTimePacket) / 4).raw;
  const hw::HostTimePacket host_time{vt::now_ns()};
  std::memcpy(&time_packet[1], &host_time, sizeof(host_time));

  const uint32_t put_reg = hw::channel_reg(channel->hw, hw::REG_CH_PUT);
  const uint32_t get_reg = hw::channel_reg(channel->hw, hw::REG_CH_GET);
  // The host time, the validated packets, then the fence.
  bool time_written = false;
  for (size_t i = 0; i <= dwords.size();) {
    const std::span<const uint32_t> packet =
        !time_written          ? std::span<const uint32_t>(time_packet)
        : i == dwords.size()   ? std::span<const uint32_t>(fence_packet)
                               : dwords.subspan(i, 1 + hw::PacketHeader{dwords[i]}.dwords());
    if (!time_written) {
      time_written = true;
    } else {
      i += i == dwords.size() ? 1 : packet.size();
    }
    const uint32_t needed = ring.bytes_needed(static_cast<uint32_t>(packet.size()));
    while (ring.free_bytes(gpu_->read_reg(get_reg) & (ring.size_bytes() - 1)) < needed) {
      // Ring full: let the GPU consume what is queued, and stop if the channel died.
      gpu_->write_reg(put_reg, ring.commit());
      {
        std::lock_guard lock(mu_);
        if (!channel->failure.ok()) return channel->failure;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
    ring.write_packet(packet);
  }
  channel->next_fence.store(fence + 1);
  gpu_->write_reg(put_reg, ring.commit());
  r->fence = fence;
  return ok_status();
}

Status KmdDevice::fence_wait(KmdFenceWait* r) {
  std::unique_lock lock(mu_);
  ASSIGN_OR_RETURN(std::shared_ptr<Channel> channel, find_channel(r->channel));
  r->completed_ns = 0;
  if (r->fence == 0) return ok_status();
  const auto deadline = deadline_after(r->timeout_ns);
  while (true) {
    if (fence_value(channel->hw) >= r->fence) {
      r->completed_ns = fence_time(channel->hw);
      return ok_status();
    }
    if (!channel->failure.ok()) return channel->failure;
    const auto now = Clock::now();
    // A poll (timeout 0, the HAL reclaiming completed work) gets a short message: no
    // allocation.
    if (r->timeout_ns == 0) return error(Code::kNotReady, "fence pending");
    if (now >= deadline) return timed_out(fmt::format("fence {} of channel {}", r->fence, r->channel));
    event_cv_.wait_until(lock, std::min(deadline, now + kMaxWaitSlice));
  }
}

Status KmdDevice::wait_event(KmdWaitEvent* r) {
  std::unique_lock lock(mu_);
  if (event_count_ == r->seen && r->timeout_ns != 0) {
    const auto now = Clock::now();
    event_cv_.wait_until(lock, std::min(deadline_after(r->timeout_ns), now + kMaxWaitSlice),
                         [&] { return event_count_ != r->seen; });
  }
  r->count = event_count_;
  return ok_status();
}

Status KmdDevice::notify(KmdNotify*) {
  std::vector<std::shared_ptr<Channel>> live;
  {
    std::lock_guard lock(mu_);
    ++event_count_;
    event_cv_.notify_all();
    for (auto& [id, channel] : channels_) {
      if (channel->failure.ok()) live.push_back(channel);
    }
  }
  // Re-ring doorbells so semaphore acquires re-check memory. A channel whose submit
  // lock is taken rings its own doorbell when its submitter finishes or waits for space.
  for (auto& channel : live) {
    std::unique_lock submit(channel->submit_mu, std::try_to_lock);
    if (!submit.owns_lock()) continue;
    gpu_->write_reg(hw::channel_reg(channel->hw, hw::REG_CH_PUT), channel->ring->committed_put());
  }
  return ok_status();
}

// ---- interrupts ----

void KmdDevice::interrupt_thread_main() {
  while (true) {
    {
      std::unique_lock lock(irq_mu_);
      irq_cv_.wait(lock, [&] { return irq_pending_ || stopping_; });
      if (stopping_) return;
      irq_pending_ = false;
    }
    const uint32_t status = gpu_->read_reg(hw::REG_INTR_STATUS);
    if (status != 0) gpu_->write_reg(hw::REG_INTR_STATUS, status);  // RW1C
    handle_faults();
    std::lock_guard lock(mu_);
    ++event_count_;
    event_cv_.notify_all();
  }
}

void KmdDevice::handle_faults() {
  for (int n = 0; n < 4096; ++n) {
    const auto kind = static_cast<hw::FaultKind>(gpu_->read_reg(hw::REG_FAULT_KIND));
    if (kind == hw::FaultKind::kNone) return;
    KmdContextQueryFault record{};
    record.faulted = 1;
    record.kind = kind;
    record.channel = gpu_->read_reg(hw::REG_FAULT_CHANNEL);
    record.address = gpu_->read_reg(hw::REG_FAULT_ADDR_LO) |
                     (static_cast<uint64_t>(gpu_->read_reg(hw::REG_FAULT_ADDR_HI)) << 32);
    record.pc = gpu_->read_reg(hw::REG_FAULT_PC);
    record.kernel_id = gpu_->read_reg(hw::REG_FAULT_KERNEL_ID);
    record.cta[0] = gpu_->read_reg(hw::REG_FAULT_CTA_X);
    record.cta[1] = gpu_->read_reg(hw::REG_FAULT_CTA_Y);
    record.cta[2] = gpu_->read_reg(hw::REG_FAULT_CTA_Z);
    record.tid[0] = gpu_->read_reg(hw::REG_FAULT_TID_X);
    record.tid[1] = gpu_->read_reg(hw::REG_FAULT_TID_Y);
    record.tid[2] = gpu_->read_reg(hw::REG_FAULT_TID_Z);
    gpu_->write_reg(hw::REG_FAULT_ACK, 1);

    std::lock_guard lock(mu_);
    const ChannelId channel_id = record.channel < hw_channels_.size() ? hw_channels_[record.channel] : 0;
    auto channel = channels_.find(channel_id);
    if (channel == channels_.end()) {
      STRATA_LOG_WARN("kmd: device {}: fault on unowned channel {}: {}", index_, record.channel,
                      fault_status(record).message());
      continue;
    }
    auto context = contexts_.find(channel->second->context);
    if (context == contexts_.end()) continue;
    Context& ctx = *context->second;
    if (ctx.fault.faulted == 0) {
      record.context = ctx.id;
      ctx.fault = record;
      STRATA_LOG_INFO("kmd: device {}: context {}: {}", index_, ctx.id,
                      fault_status(record).to_string());
    }
    reset_context_channels(ctx);
  }
  STRATA_LOG_ERROR("kmd: device {}: fault records do not drain", index_);
}

void KmdDevice::reset_context_channels(Context& context) {
  const Status status = fault_status(context.fault);
  for (ChannelId id : context.channels) {
    auto it = channels_.find(id);
    if (it == channels_.end() || !it->second->failure.ok()) continue;
    Channel& channel = *it->second;
    channel.failure = status;
    channel.failed_after = fence_value(channel.hw);
    gpu_->write_reg(hw::channel_reg(channel.hw, hw::REG_CH_CTRL), kCtrlReset);
  }
}

}  // namespace strata::kmd
