#include "cuda/driver/activity.h"

#include <cupti_activity.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

#include "base/log.h"
#include "cuda/driver/context.h"
#include "cuda/driver/device.h"
#include "cuda/driver/device_attributes.h"
#include "cuda/driver/managed_memory.h"
#include "cuda/driver/peer.h"
#include "cuda/driver/source_lines.h"
#include "cuda/driver/stream.h"
#include "hw/config/arch_fields.h"
#include "hw/perf/fast_model.h"
#include "prof/collector.h"
#include "prof/counters.h"

namespace strata::cuda::driver {
namespace {

thread_local std::optional<std::pair<uint32_t, uint32_t>> t_copy_kinds;
thread_local uint64_t t_graph_id = 0;

std::atomic<uint64_t> g_next_context_id{1};
std::atomic<uint64_t> g_next_grid_id{1};

// Slots per report chunk (one pinned allocation each).
constexpr uint32_t kChunkSlots = 256;
// Per-instruction counter records per chunk (88 bytes each: 1.4 MiB).
constexpr uint32_t kPcChunkSlots = 16384;
// How long harvest(wait) waits for outstanding reports before dropping them.
constexpr auto kHarvestWaitLimit = std::chrono::seconds(60);

bool host_kind(uint32_t kind) {
  return kind == CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE || kind == CUPTI_ACTIVITY_MEMORY_KIND_PINNED;
}

uint32_t copy_kind(uint32_t src, uint32_t dst, int src_device, int dst_device) {
  const bool src_host = host_kind(src), dst_host = host_kind(dst);
  if (src_host && dst_host) return CUPTI_ACTIVITY_MEMCPY_KIND_HTOH;
  if (src_host) return CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
  if (dst_host) return CUPTI_ACTIVITY_MEMCPY_KIND_DTOH;
  return src_device != dst_device ? CUPTI_ACTIVITY_MEMCPY_KIND_PTOP
                                  : CUPTI_ACTIVITY_MEMCPY_KIND_DTOD;
}

struct VaInfo {
  uint32_t kind;
  int device;
};

VaInfo va_info(Context& context, uint64_t va) {
  const int own = context.device().ordinal();
  if (find_managed(va).has_value()) return {CUPTI_ACTIVITY_MEMORY_KIND_MANAGED, own};
  auto buffer = context.hal().allocator().find(va);
  if (buffer.ok()) {
    return {(*buffer)->kind() == hal::MemoryKind::kDevice
                ? uint32_t{CUPTI_ACTIVITY_MEMORY_KIND_DEVICE}
                : uint32_t{CUPTI_ACTIVITY_MEMORY_KIND_PINNED},
            own};
  }
  if (std::optional<OwnedAllocation> other = find_allocation(va)) {
    return {CUPTI_ACTIVITY_MEMORY_KIND_DEVICE, other->owner->device().ordinal()};
  }
  return {CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE, own};
}

int attribute(const Device& device, CUdevice_attribute a) {
  StatusOr<int> v = device_attribute(device.arch(), device.ordinal(), a);
  return v.ok() ? *v : 0;
}

prof::Device device_record(const Device& device) {
  const hw::ArchConfig& arch = device.arch();
  prof::Device d;
  d.pid = prof::this_pid();
  d.id = static_cast<uint32_t>(device.ordinal());
  d.name = arch.name;
  {
    const CUuuid uuid = device.uuid();
    static constexpr char kHex[] = "0123456789abcdef";
    std::string s = "GPU-";
    for (int i = 0; i < 16; ++i) {
      if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
      const auto b = static_cast<uint8_t>(uuid.bytes[i]);
      s += kHex[b >> 4];
      s += kHex[b & 15];
    }
    d.uuid = s;
  }
  const std::string& path = arch.source_path;
  const size_t slash = path.find_last_of('/');
  std::string file = path.substr(slash == std::string::npos ? 0 : slash + 1);
  if (file.size() > 5 && file.ends_with(".toml")) file.resize(file.size() - 5);
  d.arch = file;
  d.compute_major = attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  d.compute_minor = attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  d.total_memory = device.total_memory();
  d.sm_count = static_cast<uint32_t>(attribute(device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT));
  d.clock_rate_khz = static_cast<uint64_t>(attribute(device, CU_DEVICE_ATTRIBUTE_CLOCK_RATE));
  d.l2_cache_size = static_cast<uint64_t>(attribute(device, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE));
  d.max_threads_per_block =
      static_cast<uint32_t>(attribute(device, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK));
  const CUdevice_attribute block[3] = {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X,
                                       CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,
                                       CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z};
  const CUdevice_attribute grid[3] = {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,
                                      CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
                                      CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z};
  for (int i = 0; i < 3; ++i) {
    d.max_block_dim[i] = static_cast<uint32_t>(attribute(device, block[i]));
    d.max_grid_dim[i] = static_cast<uint32_t>(attribute(device, grid[i]));
  }
  d.max_shared_per_block =
      static_cast<uint32_t>(attribute(device, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK));
  d.max_shared_per_block_optin = static_cast<uint32_t>(
      attribute(device, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN));
  d.max_shared_per_sm = static_cast<uint32_t>(
      attribute(device, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR));
  d.max_registers_per_block =
      static_cast<uint32_t>(attribute(device, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK));
  d.max_registers_per_sm = static_cast<uint32_t>(
      attribute(device, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR));
  d.warp_size = static_cast<uint32_t>(attribute(device, CU_DEVICE_ATTRIBUTE_WARP_SIZE));
  d.max_warps_per_sm =
      static_cast<uint32_t>(attribute(device, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR) /
                            std::max(1u, d.warp_size));
  d.max_blocks_per_sm =
      static_cast<uint32_t>(attribute(device, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR));
  d.async_engines =
      static_cast<uint32_t>(attribute(device, CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT));
  d.constant_memory =
      static_cast<uint64_t>(attribute(device, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY));
  hw::ArchConfig copy = arch;
  for (const hw::ArchFieldInfo& f : hw::arch_fields()) {
    const std::string key = std::string(f.section) + "." + std::string(f.name);
    if (f.int64_field != nullptr) d.config[key] = static_cast<double>(*f.int64_field(copy));
    if (f.double_field != nullptr) d.config[key] = *f.double_field(copy);
  }
  // The DRAM peak (TARGET_INFO_GPU.memoryBandwidth), as the timing model derives it.
  d.memory_bandwidth = static_cast<uint64_t>(hw::perf::dram_bytes_per_second(arch));
  d.config["derived.dram_bytes_per_second"] = hw::perf::dram_bytes_per_second(arch);
  return d;
}

void emit_device_once(const Device& device) {
  static std::mutex mu;
  static auto* seen = new std::vector<int>();  // leaked: used at exit
  {
    std::lock_guard lock(mu);
    if (std::find(seen->begin(), seen->end(), device.ordinal()) != seen->end()) return;
    seen->push_back(device.ordinal());
  }
  prof::emit(device_record(device));
}

}  // namespace

ScopedCopyKinds::ScopedCopyKinds(uint32_t src_kind, uint32_t dst_kind) : saved_(t_copy_kinds) {
  t_copy_kinds = std::pair{src_kind, dst_kind};
}
ScopedCopyKinds::~ScopedCopyKinds() {
  t_copy_kinds = saved_;
}

ScopedGraphLaunch::ScopedGraphLaunch(uint64_t graph_id) : saved_(t_graph_id) {
  t_graph_id = graph_id;
}
ScopedGraphLaunch::~ScopedGraphLaunch() {
  t_graph_id = saved_;
}

ScopedSync::ScopedSync(uint32_t type, Context& context, const Stream* stream, const void* event) {
  if (!prof::active() || prof::current_correlation_id() == 0) return;
  recording_ = true;
  type_ = type;
  context_ = &context;
  if (stream != nullptr) stream_id_ = stream->id();
  event_id_ = reinterpret_cast<uintptr_t>(event);
  start_ = prof::now_ns();
}

ScopedSync::~ScopedSync() {
  if (!recording_) return;
  prof::Sync s;
  s.pid = prof::this_pid();
  s.tid = prof::this_tid();
  s.start = start_;
  s.end = std::max(prof::now_ns(), start_);
  s.device_id = static_cast<uint32_t>(context_->device().ordinal());
  s.context_id = context_->activity().id();
  s.stream_id = stream_id_;
  s.correlation_id = prof::current_correlation_id();
  s.type = type_;
  s.event_id = event_id_;
  prof::emit(s);
}

struct ActivityTracker::Chunk {
  std::shared_ptr<hal::Buffer> buffer;
  void* base = nullptr;
  uint32_t capacity = 0;
  uint32_t used = 0;
  std::atomic<uint32_t> live{0};  // entries alive (Entry's destructor decrements)

  hw::WorkReport* reports() const { return static_cast<hw::WorkReport*>(base); }
  const hw::PcCounters* pcs() const { return static_cast<const hw::PcCounters*>(base); }
};

struct ActivityTracker::Entry {
  std::shared_ptr<Chunk> chunk;
  uint32_t first = 0;
  // Per-instruction counters: pc_capacity records from pc_first of pc_chunk.
  std::shared_ptr<Chunk> pc_chunk;
  uint32_t pc_first = 0, pc_capacity = 0;
  std::vector<std::shared_ptr<const SourceLines>> sources;  // per work item (dispatches)
  std::vector<hal::WorkDescription> work;
  struct CopyInfo {
    uint32_t src_kind = 0, dst_kind = 0;
    int src_device = 0, dst_device = 0;
  };
  std::vector<CopyInfo> copies;  // per work item (copies and fills)
  uint64_t stream_id = 0;
  uint32_t correlation_id = 0;
  uint64_t graph_id = 0;
  bool counters = false;

  ~Entry() {
    if (chunk) chunk->live.fetch_sub(1);
    if (pc_chunk) pc_chunk->live.fetch_sub(1);
  }
};

void ActivityTracker::EntryDeleter::operator()(Entry* entry) const {
  delete entry;
}

ActivityTracker::ActivityTracker(Context& context)
    : context_(context), id_(g_next_context_id.fetch_add(1)) {
  reports_.slot_bytes = sizeof(hw::WorkReport);
  reports_.chunk_slots = kChunkSlots;
  reports_.zero = true;  // `written` must read 0 until the device stores the report
  pcs_.slot_bytes = sizeof(hw::PcCounters);
  pcs_.chunk_slots = kPcChunkSlots;
}

ActivityTracker::~ActivityTracker() = default;

StatusOr<std::pair<std::shared_ptr<ActivityTracker::Chunk>, uint32_t>> ActivityTracker::reserve(
    Pool& pool, uint32_t slots) {
  if (pool.current == nullptr || pool.current->capacity - pool.current->used < slots) {
    std::shared_ptr<Chunk> chunk;
    for (const std::shared_ptr<Chunk>& c : pool.chunks) {
      if (c->live == 0 && c->capacity >= slots) {
        chunk = c;
        break;
      }
    }
    if (chunk == nullptr) {
      chunk = std::make_shared<Chunk>();
      chunk->capacity = std::max(pool.chunk_slots, slots);
      ASSIGN_OR_RETURN(chunk->buffer, context_.hal().allocator().allocate_host(
                                          uint64_t{chunk->capacity} * pool.slot_bytes));
      chunk->base = chunk->buffer->host_ptr();
      pool.chunks.push_back(chunk);
    }
    if (pool.zero) std::memset(chunk->base, 0, uint64_t{chunk->capacity} * pool.slot_bytes);
    chunk->used = 0;
    pool.current = chunk;
  }
  const uint32_t first = pool.current->used;
  pool.current->used += slots;
  pool.current->live.fetch_add(1);
  return std::pair{pool.current, first};
}

ActivityTracker::EntryPtr ActivityTracker::prepare(const Stream& stream,
                                                   const hal::CommandBuffer& cb) {
  const std::vector<hal::WorkDescription>& work = cb.work_descriptions();
  if (work.empty() || work.size() != cb.work_count()) return nullptr;
  EntryPtr entry(new Entry());
  entry->work = work;
  entry->copies.resize(work.size());
  for (size_t i = 0; i < work.size(); ++i) {
    const hal::WorkDescription& w = work[i];
    Entry::CopyInfo& c = entry->copies[i];
    if (w.kind == hal::WorkDescription::kCopy) {
      const VaInfo src = va_info(context_, w.src_va), dst = va_info(context_, w.dst_va);
      c = {src.kind, dst.kind, src.device, dst.device};
      if (t_copy_kinds) c.src_kind = t_copy_kinds->first, c.dst_kind = t_copy_kinds->second;
    } else if (w.kind == hal::WorkDescription::kFill) {
      const VaInfo dst = va_info(context_, w.dst_va);
      c.dst_kind = dst.kind;
      c.dst_device = dst.device;
    }
  }
  entry->stream_id = stream.id();
  entry->correlation_id = prof::current_correlation_id();
  entry->graph_id = t_graph_id;
  entry->counters = prof::counters_wanted();
  // Per-instruction counters for the dispatches whose module has source lines: at most
  // one record per instruction of each.
  uint64_t pc_slots = 0;
  if (entry->counters) {
    entry->sources.resize(work.size());
    for (size_t i = 0; i < work.size(); ++i) {
      if (work[i].kind != hal::WorkDescription::kDispatch) continue;
      entry->sources[i] = context_.source_lines_at(work[i].code_va);
      if (entry->sources[i] != nullptr) pc_slots += work[i].instructions;
    }
  }
  std::lock_guard lock(mu_);
  auto reserved = reserve(reports_, static_cast<uint32_t>(work.size()));
  if (!reserved.ok()) {
    STRATA_LOG_WARN("profiler: no memory for work reports ({}); this work is not recorded",
                    reserved.status().message());
    return nullptr;
  }
  entry->chunk = std::move(reserved->first);
  entry->first = reserved->second;
  if (pc_slots != 0 && pc_slots <= UINT32_MAX) {
    auto pcs = reserve(pcs_, static_cast<uint32_t>(pc_slots));
    if (pcs.ok()) {
      entry->pc_chunk = std::move(pcs->first);
      entry->pc_first = pcs->second;
      entry->pc_capacity = static_cast<uint32_t>(pc_slots);
    } else {
      STRATA_LOG_WARN("profiler: no memory for per-instruction counters ({}); no source lines",
                      pcs.status().message());
    }
  }
  return entry;
}

hal::WorkReports ActivityTracker::reports(const Entry& entry) const {
  hal::WorkReports r;
  r.va = entry.chunk->buffer->va() + uint64_t{entry.first} * sizeof(hw::WorkReport);
  r.counters = entry.counters;
  if (entry.pc_chunk != nullptr) {
    r.pc_va = entry.pc_chunk->buffer->va() + uint64_t{entry.pc_first} * sizeof(hw::PcCounters);
    r.pc_capacity = entry.pc_capacity;
  }
  return r;
}

void ActivityTracker::commit(EntryPtr entry) {
  if (entry == nullptr) return;
  std::lock_guard lock(mu_);
  pending_.push_back(std::move(entry));
}

void ActivityTracker::harvest(bool wait) {
  std::vector<prof::Record> records;
  {
    std::unique_lock lock(mu_);
    if (pending_.empty()) return;
    const auto written = [](const Entry& e) {
      for (size_t i = 0; i < e.work.size(); ++i) {
        if (std::atomic_ref<uint32_t>(e.chunk->reports()[e.first + i].written)
                .load(std::memory_order_acquire) == 0) {
          return false;
        }
      }
      return true;
    };
    if (wait) {
      const auto deadline = std::chrono::steady_clock::now() + kHarvestWaitLimit;
      while (!std::all_of(pending_.begin(), pending_.end(),
                          [&](const auto& e) { return written(*e); })) {
        if (!context_.check().ok() || std::chrono::steady_clock::now() > deadline) break;
        lock.unlock();
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        lock.lock();
      }
    }
    const bool failed = !context_.check().ok();
    const uint32_t pid = prof::this_pid();
    const uint32_t device_id = static_cast<uint32_t>(context_.device().ordinal());
    for (auto it = pending_.begin(); it != pending_.end();) {
      Entry& e = **it;
      if (!written(e)) {
        // A faulted context never completes the rest; waiting gave up: drop them.
        if (failed || wait) {
          it = pending_.erase(it);
        } else {
          ++it;
        }
        continue;
      }
      for (size_t i = 0; i < e.work.size(); ++i) {
        const hal::WorkDescription& w = e.work[i];
        const hw::WorkReport& r = e.chunk->reports()[e.first + i];
        auto fill_work = [&](prof::DeviceWork& d) {
          d.pid = pid;
          d.start = r.start_ns;
          d.end = std::max(r.end_ns, r.start_ns);
          d.device_id = device_id;
          d.context_id = id_;
          d.stream_id = e.stream_id;
          d.correlation_id = e.correlation_id;
          d.graph_id = e.graph_id;
          d.graph_node_id = w.tag;
        };
        if (w.kind == hal::WorkDescription::kDispatch) {
          prof::Kernel k;
          fill_work(k);
          k.name = w.kernel;
          k.grid_id = g_next_grid_id.fetch_add(1);
          k.grid[0] = w.grid.x, k.grid[1] = w.grid.y, k.grid[2] = w.grid.z;
          k.block[0] = w.block.x, k.block[1] = w.block.y, k.block[2] = w.block.z;
          k.registers_per_thread = w.regs_per_thread;
          k.static_shared = w.static_shared_bytes;
          k.dynamic_shared = w.dynamic_shared_bytes;
          k.local_per_thread = w.local_bytes_per_thread;
          const hw::ArchConfig& arch = context_.device().arch();
          k.local_total = uint64_t{w.local_bytes_per_thread} *
                          static_cast<uint64_t>(std::max<int64_t>(arch.sm_count, 0)) *
                          static_cast<uint64_t>(std::max<int64_t>(arch.max_threads_per_sm, 0));
          k.shared_config = static_cast<uint32_t>(std::max<int64_t>(arch.shared_bytes_per_sm, 0));
          k.faulted = r.faulted != 0;
          if (r.counters.valid != 0) k.counters = prof::counter_map(r.counters);
          const hw::KernelCounters& c = r.counters;
          if (c.valid != 0 && e.pc_chunk != nullptr && i < e.sources.size() &&
              e.sources[i] != nullptr && uint64_t{c.pc_first} + c.pc_count <= e.pc_capacity) {
            const hw::PcCounters* pcs = e.pc_chunk->pcs() + e.pc_first + c.pc_first;
            k.source = e.sources[i]->aggregate(w.code_va, {pcs, c.pc_count});
            k.source_partial = c.pc_count < c.pc_executed;
          }
          records.emplace_back(std::move(k));
        } else if (w.kind == hal::WorkDescription::kCopy) {
          prof::Memcpy m;
          fill_work(m);
          const Entry::CopyInfo& c = e.copies[i];
          m.bytes = w.bytes;
          m.src_kind = c.src_kind;
          m.dst_kind = c.dst_kind;
          m.src_device_id = static_cast<uint32_t>(c.src_device);
          m.dst_device_id = static_cast<uint32_t>(c.dst_device);
          m.copy_kind = copy_kind(c.src_kind, c.dst_kind, c.src_device, c.dst_device);
          records.emplace_back(std::move(m));
        } else {
          prof::Memset m;
          fill_work(m);
          m.value = w.value;
          m.bytes = w.bytes;
          m.mem_kind = e.copies[i].dst_kind;
          records.emplace_back(std::move(m));
        }
      }
      it = pending_.erase(it);
    }
  }
  for (const prof::Record& r : records) prof::emit(r);
}

void ActivityTracker::emit_context_record() {
  emit_device_once(context_.device());
  prof::Context c;
  c.pid = prof::this_pid();
  c.id = id_;
  c.device_id = static_cast<uint32_t>(context_.device().ordinal());
  if (context_.legacy_stream()) c.null_stream_id = context_.legacy_stream()->id();
  prof::emit(c);
}

void ActivityTracker::emit_stream_record(const Stream& stream, const char* name) {
  prof::Stream s;
  if (name != nullptr) s.name = name;
  s.pid = prof::this_pid();
  s.id = stream.id();
  s.context_id = id_;
  s.device_id = static_cast<uint32_t>(context_.device().ordinal());
  s.priority = stream.priority();
  switch (stream.kind()) {
    case Stream::Kind::kLegacy:
      s.kind = prof::Stream::kLegacyNull;
      break;
    case Stream::Kind::kPerThread:
      s.kind = prof::Stream::kPerThread;
      break;
    case Stream::Kind::kUser:
      s.kind = (stream.flags() & CU_STREAM_NON_BLOCKING) != 0 ? prof::Stream::kNonBlocking
                                                              : prof::Stream::kDefault;
      break;
  }
  prof::emit(s);
}

uint32_t memory_kind_of(Context& context, uint64_t va) {
  return va_info(context, va).kind;
}

void harvest_all_contexts(bool wait) {
  for (const std::shared_ptr<Context>& c : live_context_list()) c->activity().harvest(wait);
}

}  // namespace strata::cuda::driver
