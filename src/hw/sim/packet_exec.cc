#include "hw/sim/packet_exec.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <utility>
#include <vector>

#include "hw/sim/copy_engine.h"

namespace strata::hw::sim {
namespace {

template <typename T>
bool read_payload(const uint32_t* payload, uint32_t dwords, T* out) {
  static_assert(sizeof(T) % 4 == 0);
  if (dwords != sizeof(T) / 4) return false;
  std::memcpy(out, payload, sizeof(T));
  return true;
}

// Host pointer to the aligned u64 at `va`, or a fault.
PacketOutcome map_u64(const PacketContext& ctx, uint64_t va, bool write, uint64_t** out) {
  if (va % 8 != 0) return PacketOutcome::fault_at(ctx.channel, FaultKind::kMisaligned, va);
  Translation t;
  if (!ctx.walker->walk(va, &t)) {
    return PacketOutcome::fault_at(ctx.channel, FaultKind::kUnmapped, va);
  }
  if (write && !t.writable) {
    return PacketOutcome::fault_at(ctx.channel, FaultKind::kWriteProtect, va);
  }
  *out = reinterpret_cast<uint64_t*>(t.host_page + (va - t.page_va));
  return PacketOutcome::done();
}

void fill_report(const PacketContext& ctx, ReportOp op, const Timeline::Interval& iv,
                 uint64_t bytes) {
  if (ctx.report == nullptr) return;
  ctx.report->op = static_cast<uint32_t>(op);
  ctx.report->submit_ns = iv.submit_ns;
  ctx.report->start_ns = iv.start_ns;
  ctx.report->end_ns = iv.end_ns;
  ctx.report->bytes = bytes;
}

PacketOutcome from_dma(const PacketContext& ctx, const DmaResult& r) {
  if (r.ok()) return PacketOutcome::done();
  return PacketOutcome::fault_at(ctx.channel, r.fault, r.address);
}

}  // namespace

std::shared_ptr<const Program> ProgramCache::find(uint32_t asid, uint64_t va, uint64_t size) const {
  auto it = programs_.find({asid, va, size});
  return it == programs_.end() ? nullptr : it->second;
}

void ProgramCache::insert(uint32_t asid, uint64_t va, uint64_t size,
                          std::shared_ptr<const Program> program) {
  programs_[{asid, va, size}] = std::move(program);
}

void ProgramCache::invalidate(uint64_t va, uint64_t size) {
  const uint64_t end = va + size < va ? UINT64_MAX : va + size;
  for (auto it = programs_.begin(); it != programs_.end();) {
    const uint64_t code_va = std::get<1>(it->first);
    const uint64_t code_end = code_va + std::get<2>(it->first);
    if (code_va < end && va < code_end) {
      it = programs_.erase(it);
    } else {
      ++it;
    }
  }
}

namespace {

struct DeviceMemories {
  std::mutex mu;
  std::vector<std::pair<const uint8_t*, uint64_t>> ranges;
};

DeviceMemories& device_memories() {
  static DeviceMemories* m = new DeviceMemories;  // leaked: used until process exit
  return *m;
}

}  // namespace

void register_device_memory(const uint8_t* base, uint64_t size) {
  DeviceMemories& m = device_memories();
  std::lock_guard lock(m.mu);
  m.ranges.emplace_back(base, size);
}

void unregister_device_memory(const uint8_t* base) {
  DeviceMemories& m = device_memories();
  std::lock_guard lock(m.mu);
  std::erase_if(m.ranges, [&](const auto& r) { return r.first == base; });
}

perf::MemoryKind memory_kind(const PacketContext& ctx, uint64_t va) {
  Translation t;
  if (!ctx.walker->walk(va, &t)) return perf::MemoryKind::kDevice;
  if (ctx.vram != nullptr && t.host_page >= ctx.vram && t.host_page < ctx.vram + ctx.vram_size) {
    return perf::MemoryKind::kDevice;
  }
  if (!t.sm_access) return perf::MemoryKind::kPeer;
  DeviceMemories& m = device_memories();
  std::lock_guard lock(m.mu);
  for (const auto& [base, size] : m.ranges) {
    if (t.host_page >= base && t.host_page < base + size) return perf::MemoryKind::kPeer;
  }
  return perf::MemoryKind::kHost;
}

PacketOutcome execute_packet(const PacketContext& ctx, PacketOp op, const uint32_t* payload,
                             uint32_t dwords, uint8_t flags) {
  const bool sem_time = (flags & kPacketSemTime) != 0;
  const auto bad = [&] { return PacketOutcome::fault_at(ctx.channel, FaultKind::kBadPacket, 0); };
  switch (op) {
    case PacketOp::kNop:
      return PacketOutcome::done();  // any payload: padding
    case PacketOp::kLaunch: {
      LaunchPacket p;
      if (!read_payload(payload, dwords, &p)) return bad();
      return execute_launch(ctx, p);
    }
    case PacketOp::kCopy: {
      CopyPacket p;
      if (!read_payload(payload, dwords, &p)) return bad();
      PacketOutcome o = from_dma(ctx, dma_copy(*ctx.walker, p.dst_va, p.src_va, p.bytes));
      if (o.kind == PacketOutcome::kDone) {
        const perf::MemoryKind src = memory_kind(ctx, p.src_va);
        const perf::MemoryKind dst = memory_kind(ctx, p.dst_va);
        const Timeline::Interval iv = ctx.timeline->copy(ctx.channel, src, dst, p.bytes);
        fill_report(ctx, ReportOp::kCopy, iv, p.bytes);
        perf_log_command(*ctx.timeline, ctx.channel, "copy", iv, p.bytes, memory_kind_name(src),
                         memory_kind_name(dst));
      }
      return o;
    }
    case PacketOp::kFill: {
      FillPacket p;
      if (!read_payload(payload, dwords, &p)) return bad();
      if (p.elem_size != 1 && p.elem_size != 2 && p.elem_size != 4) return bad();
      PacketOutcome o =
          from_dma(ctx, dma_fill(*ctx.walker, p.dst_va, p.bytes, p.value, p.elem_size));
      if (o.kind == PacketOutcome::kDone) {
        const perf::MemoryKind dst = memory_kind(ctx, p.dst_va);
        const Timeline::Interval iv = ctx.timeline->fill(ctx.channel, dst, p.bytes);
        fill_report(ctx, ReportOp::kFill, iv, p.bytes);
        perf_log_command(*ctx.timeline, ctx.channel, "fill", iv, p.bytes, nullptr,
                         memory_kind_name(dst));
      }
      return o;
    }
    case PacketOp::kSemRelease: {
      SemPacket p;
      if (!read_payload(payload, dwords, &p)) return bad();
      uint64_t* sem = nullptr;
      PacketOutcome o = map_u64(ctx, p.va, /*write=*/true, &sem);
      if (o.kind != PacketOutcome::kDone) return o;
      const uint64_t now = ctx.timeline->now(ctx.channel);
      if (sem_time) {
        // The time first, so a reader that sees the value sees its time.
        uint64_t* time = nullptr;
        o = map_u64(ctx, p.va + 8, /*write=*/true, &time);
        if (o.kind != PacketOutcome::kDone) return o;
        std::atomic_ref<uint64_t>(*time).store(now, std::memory_order_release);
      }
      std::atomic_ref<uint64_t>(*sem).store(p.value, std::memory_order_release);
      return o;
    }
    case PacketOp::kSemAcquire: {
      SemPacket p;
      if (!read_payload(payload, dwords, &p)) return bad();
      uint64_t* sem = nullptr;
      PacketOutcome o = map_u64(ctx, p.va, /*write=*/false, &sem);
      if (o.kind != PacketOutcome::kDone) return o;
      if (std::atomic_ref<uint64_t>(*sem).load(std::memory_order_acquire) < p.value) {
        return PacketOutcome::blocked();
      }
      if (sem_time) {
        uint64_t* time = nullptr;
        o = map_u64(ctx, p.va + 8, /*write=*/false, &time);
        if (o.kind != PacketOutcome::kDone) return o;
        ctx.timeline->wait_until(ctx.channel,
                                 std::atomic_ref<uint64_t>(*time).load(std::memory_order_acquire));
      }
      return o;
    }
    case PacketOp::kTimestamp: {
      TimestampPacket p;
      if (!read_payload(payload, dwords, &p)) return bad();
      uint64_t* slot = nullptr;
      PacketOutcome o = map_u64(ctx, p.va, /*write=*/true, &slot);
      if (o.kind != PacketOutcome::kDone) return o;
      std::atomic_ref<uint64_t>(*slot).store(ctx.timeline->now(ctx.channel),
                                              std::memory_order_release);
      return o;
    }
    case PacketOp::kReport: {
      ReportPacket p;
      if (!read_payload(payload, dwords, &p)) return bad();
      if ((p.flags & ~kKnownReportFlags) != 0) return bad();
      if (p.va % 8 != 0) return PacketOutcome::fault_at(ctx.channel, FaultKind::kMisaligned, p.va);
      if (p.pc_va % 8 != 0)
        return PacketOutcome::fault_at(ctx.channel, FaultKind::kMisaligned, p.pc_va);
      if (ctx.report_state != nullptr) {
        ReportState& r = *ctx.report_state;
        r = ReportState{};
        r.va = p.va;
        r.flags = p.flags;
        r.pc_va = p.pc_va;
        r.pc_capacity = p.pc_capacity;
      }
      return PacketOutcome::done();
    }
    case PacketOp::kHostTime: {
      HostTimePacket p;
      if (!read_payload(payload, dwords, &p)) return bad();
      ctx.timeline->set_submit(ctx.channel, p.ns);
      return PacketOutcome::done();
    }
    case PacketOp::kIcacheInvalidate: {
      RangePacket p;
      if (!read_payload(payload, dwords, &p)) return bad();
      ctx.programs->invalidate(p.va, p.size);
      return PacketOutcome::done();
    }
  }
  return bad();
}

}  // namespace strata::hw::sim
