#include "hw/sim/device_launch.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <vector>

#include "base/log.h"
#include "hw/contract/device_launch.h"
#include "hw/sim/copy_engine.h"

namespace strata::hw::sim {
namespace {

// Grid ids of device-launched grids: the top bit set, so they never equal a driver's.
std::atomic<uint64_t> next_device_grid_id{uint64_t{1} << 63};

template <typename T>
bool read(const PacketContext& ctx, uint64_t va, T* out) {
  return dma_read(*ctx.walker, va, sizeof(T), reinterpret_cast<uint8_t*>(out)).ok();
}

// Writes `bytes` at `va`, page by page.
DmaResult write(const PacketContext& ctx, uint64_t va, const void* data, uint64_t bytes) {
  const auto* src = static_cast<const uint8_t*>(data);
  while (bytes > 0) {
    Translation t;
    if (!ctx.walker->walk(va, &t)) return {FaultKind::kUnmapped, va};
    if (!t.writable) return {FaultKind::kWriteProtect, va};
    const uint64_t in_page = std::min(bytes, t.page_va + t.page_size - va);
    std::memcpy(t.host_page + (va - t.page_va), src, in_page);
    va += in_page;
    src += in_page;
    bytes -= in_page;
  }
  return {};
}

PacketOutcome from_dma(const PacketContext& ctx, const DmaResult& r) {
  if (r.ok()) return PacketOutcome::done();
  return PacketOutcome::fault_at(ctx.channel, r.fault, r.address);
}

struct Launch {
  uint64_t va = 0;  // of the record
  DeviceLaunchRecord record{};
};

// The child's launch packet from its record and kernel descriptor; false if either is
// malformed.
bool child_packet(const PacketContext& ctx, const LaunchPacket& parent, const Launch& launch,
                  uint32_t stack_bytes, LaunchPacket* out) {
  KernelDescriptor d;
  if (launch.record.kind != kRecordKernel) return false;
  if (!read(ctx, launch.record.descriptor_va, &d) || d.magic != kKernelDescriptorMagic)
    return false;
  if (uint64_t{kRecordAlign} + d.param_bytes > launch.record.record_bytes) return false;
  LaunchPacket p{};
  p.code_va = d.code_va;
  p.code_size = d.code_size;
  p.kernel_id = d.kernel_id;
  std::memcpy(p.grid, launch.record.grid, sizeof(p.grid));
  std::memcpy(p.block, launch.record.block, sizeof(p.block));
  p.dynamic_shared_bytes = launch.record.dynamic_shared_bytes;
  p.shared_bytes = d.static_shared_bytes + launch.record.dynamic_shared_bytes;
  if (p.shared_bytes < d.static_shared_bytes) return false;  // overflow
  p.regs_per_thread = d.regs_per_thread;
  p.local_bytes_per_thread = d.local_bytes_per_thread;
  if (d.flags & kDescriptorStackFollowsLimit) p.local_bytes_per_thread += stack_bytes;
  p.num_barriers = d.num_barriers;
  p.grid_id = next_device_grid_id.fetch_add(1);
  std::memcpy(p.cbanks, d.cbanks, sizeof(p.cbanks));
  p.cbanks[0] = d.param_bytes == 0
                    ? ConstBankBinding{0, 0, 0}
                    : ConstBankBinding{launch.va + sizeof(DeviceLaunchRecord), d.param_bytes, 0};
  p.cbanks[kLaunchQueueBank] = parent.cbanks[kLaunchQueueBank];
  *out = p;
  return true;
}

// A copy or fill record: DMA through the channel's page tables, as kCopy / kFill.
PacketOutcome run_copy(const PacketContext& ctx, const Launch& launch) {
  DeviceCopyArgs args;
  const uint64_t args_va = launch.va + sizeof(DeviceLaunchRecord);
  if (launch.record.record_bytes < sizeof(DeviceLaunchRecord) + sizeof(args) ||
      !read(ctx, args_va, &args)) {
    return PacketOutcome::fault_at(ctx.channel, FaultKind::kBadPacket, launch.va);
  }
  if (launch.record.kind == kRecordCopy) {
    PacketOutcome o = from_dma(ctx, dma_copy(*ctx.walker, args.dst, args.src, args.bytes));
    if (o.kind == PacketOutcome::kDone) {
      // After its parent in model time: the channel's ready time is the parent's end.
      const Timeline::Interval iv = ctx.timeline->copy(ctx.channel, memory_kind(ctx, args.src),
                                                       memory_kind(ctx, args.dst), args.bytes);
      perf_log_command(*ctx.timeline, ctx.channel, "device_copy", iv, args.bytes);
    }
    return o;
  }
  PacketOutcome o = from_dma(
      ctx, dma_fill(*ctx.walker, args.dst, args.bytes, static_cast<uint32_t>(args.src & 0xff), 1));
  if (o.kind == PacketOutcome::kDone) {
    const Timeline::Interval iv =
        ctx.timeline->fill(ctx.channel, memory_kind(ctx, args.dst), args.bytes);
    perf_log_command(*ctx.timeline, ctx.channel, "device_fill", iv, args.bytes);
  }
  return o;
}

}  // namespace

uint64_t launch_queue_of(const PacketContext& ctx, const LaunchPacket& packet) {
  const ConstBankBinding& bank = packet.cbanks[kLaunchQueueBank];
  if (bank.va == 0 || bank.size < kLaunchQueueBankOffset + 8) return 0;
  uint64_t va = 0;
  if (!read(ctx, bank.va + kLaunchQueueBankOffset, &va)) return 0;
  return va;
}

PacketOutcome reset_launch_queue(const PacketContext& ctx, uint64_t queue_va) {
  DeviceLaunchQueueHeader h;
  if (!read(ctx, queue_va, &h))
    return PacketOutcome::fault_at(ctx.channel, FaultKind::kUnmapped, queue_va);
  h.top = 0;
  h.sequence = 0;
  h.pending_base = 0;
  h.depth = 0;
  return from_dma(ctx, write(ctx, queue_va, &h, sizeof(h)));
}

PacketOutcome run_device_launches(const PacketContext& ctx, const LaunchPacket& parent,
                                  uint64_t queue_va, uint32_t depth, uint64_t start,
                                  uint32_t pending_outside) {
  DeviceLaunchQueueHeader h;
  if (!read(ctx, queue_va, &h))
    return PacketOutcome::fault_at(ctx.channel, FaultKind::kUnmapped, queue_va);
  const uint64_t records = queue_va + sizeof(DeviceLaunchQueueHeader);
  const uint64_t end = std::min(h.top, h.capacity);

  // The records `parent` published (reserved-only ones are dropped).
  std::vector<Launch> launches;
  for (uint64_t at = start; at + sizeof(DeviceLaunchRecord) <= end;) {
    Launch l;
    l.va = records + at;
    if (!read(ctx, l.va, &l.record))
      return PacketOutcome::fault_at(ctx.channel, FaultKind::kUnmapped, l.va);
    const uint32_t size = l.record.record_bytes;
    if (size < sizeof(DeviceLaunchRecord) || size % kRecordAlign != 0 || at + size > end) {
      return PacketOutcome::fault_at(ctx.channel, FaultKind::kBadPacket, l.va);
    }
    if (l.record.state == kRecordLaunched) launches.push_back(l);
    at += size;
  }
  // One legal schedule: the ordinary streams in publication order, then the tail launches.
  std::stable_sort(launches.begin(), launches.end(), [](const Launch& a, const Launch& b) {
    const bool a_tail = a.record.stream == kStreamTailLaunch;
    const bool b_tail = b.record.stream == kStreamTailLaunch;
    if (a_tail != b_tail) return b_tail;
    return a.record.sequence < b.record.sequence;
  });

  for (size_t i = 0; i < launches.size(); ++i) {
    const Launch& l = launches[i];
    if (l.record.kind == kRecordCopy || l.record.kind == kRecordFill) {
      PacketOutcome o = run_copy(ctx, l);
      if (o.kind != PacketOutcome::kDone) return o;
      continue;
    }
    LaunchPacket child;
    if (!child_packet(ctx, parent, l, h.stack_bytes_per_thread, &child)) {
      STRATA_LOG_DEBUG("channel {}: malformed device launch record at {:#x}", ctx.channel, l.va);
      PacketOutcome o = PacketOutcome::fault_at(ctx.channel, FaultKind::kBadPacket, l.va);
      o.fault.kernel_id = parent.kernel_id;
      return o;
    }
    const uint32_t pending = pending_outside + static_cast<uint32_t>(launches.size() - i - 1);
    DeviceLaunchQueueHeader state = h;
    state.top = end;  // the child's records go after its parent's
    state.sequence = 0;
    state.pending_base = pending;
    state.depth = depth + 1;
    PacketOutcome o = from_dma(
        ctx, write(ctx, queue_va, &state, offsetof(DeviceLaunchQueueHeader, pending_limit)));
    if (o.kind != PacketOutcome::kDone) return o;
    o = from_dma(ctx, write(ctx, queue_va + offsetof(DeviceLaunchQueueHeader, depth), &state.depth,
                            sizeof(state.depth)));
    if (o.kind != PacketOutcome::kDone) return o;
    o = run_grid(ctx, child);
    if (o.kind != PacketOutcome::kDone) return o;
    o = run_device_launches(ctx, child, queue_va, depth + 1, end, pending);
    if (o.kind != PacketOutcome::kDone) return o;
  }
  return PacketOutcome::done();
}

}  // namespace strata::hw::sim
