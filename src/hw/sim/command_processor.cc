#include "hw/sim/command_processor.h"

#include <algorithm>
#include <atomic>
#include <cstring>

#include "base/check.h"
#include "base/log.h"

namespace strata::hw::sim {
namespace {

constexpr uint32_t kCtrlEnable = 1u << 0;
constexpr uint32_t kCtrlReset = 1u << 1;
constexpr uint32_t kStatusFaulted = 1;
constexpr uint8_t kKnownPacketFlags = kPacketInterrupt | kPacketSemTime;

// The perf log's device number: simulated GPUs in creation order (the KMD creates them
// in device-index order).
std::atomic<uint32_t> next_device_number{0};

uint64_t set_lo(uint64_t v, uint32_t lo) { return (v & ~0xffffffffull) | lo; }
uint64_t set_hi(uint64_t v, uint32_t hi) { return (v & 0xffffffffull) | (uint64_t{hi} << 32); }

}  // namespace

CommandProcessor::CommandProcessor(const ArchConfig& config, uint8_t* vram, uint64_t vram_size,
                                   DeviceClock* clock, FaultFifo* faults, Interrupts* interrupts)
    : config_(config),
      vram_(vram),
      vram_size_(vram_size),
      clock_(clock),
      faults_(faults),
      interrupts_(interrupts),
      timeline_(config, kNumChannels, clock, next_device_number.fetch_add(1)),
      payload_(0x10000),
      thread_([this] { run(); }) {
  register_device_memory(vram_, vram_size_);
}

CommandProcessor::~CommandProcessor() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
  unregister_device_memory(vram_);
}

uint32_t CommandProcessor::read_channel_reg(uint32_t channel, Reg reg) {
  CHECK(channel < kNumChannels);
  std::lock_guard lock(mu_);
  const Channel& c = channels_[channel];
  switch (reg) {
    case REG_CH_RING_BASE_LO: return static_cast<uint32_t>(c.ring_base);
    case REG_CH_RING_BASE_HI: return static_cast<uint32_t>(c.ring_base >> 32);
    case REG_CH_RING_SIZE: return c.ring_size;
    case REG_CH_PUT: return c.put;
    case REG_CH_GET: return c.get;
    case REG_CH_PT_BASE_LO: return static_cast<uint32_t>(c.pt_base);
    case REG_CH_PT_BASE_HI: return static_cast<uint32_t>(c.pt_base >> 32);
    case REG_CH_CTRL: return c.ctrl;
    case REG_CH_STATUS: return c.status;
    case REG_CH_ASID: return c.asid;
    case REG_CH_PRIORITY: return c.priority;
    default: return 0;
  }
}

void CommandProcessor::write_channel_reg(uint32_t channel, Reg reg, uint32_t value) {
  CHECK(channel < kNumChannels);
  {
    std::lock_guard lock(mu_);
    Channel& c = channels_[channel];
    switch (reg) {
      case REG_CH_RING_BASE_LO: c.ring_base = set_lo(c.ring_base, value); break;
      case REG_CH_RING_BASE_HI: c.ring_base = set_hi(c.ring_base, value); break;
      case REG_CH_RING_SIZE: c.ring_size = value; break;
      case REG_CH_PUT: c.put = value; break;
      case REG_CH_PT_BASE_LO: c.pt_base = set_lo(c.pt_base, value); break;
      case REG_CH_PT_BASE_HI: c.pt_base = set_hi(c.pt_base, value); break;
      case REG_CH_ASID: c.asid = value; break;
      case REG_CH_PRIORITY: c.priority = std::min(value, kMaxChannelPriority); break;
      case REG_CH_CTRL:
        if ((value & kCtrlReset) != 0) {
          c.get = 0;
          c.put = 0;
          c.status = 0;
          ++c.generation;
        }
        c.ctrl = value & kCtrlEnable;
        break;
      default: return;  // read-only or unknown: ignored
    }
    ++doorbells_;
  }
  wake_.notify_all();
}

uint32_t CommandProcessor::read_window_reg(Reg reg) {
  std::lock_guard lock(mu_);
  switch (reg) {
    case REG_SHARED_WINDOW_LO: return static_cast<uint32_t>(shared_window_);
    case REG_SHARED_WINDOW_HI: return static_cast<uint32_t>(shared_window_ >> 32);
    case REG_LOCAL_WINDOW_LO: return static_cast<uint32_t>(local_window_);
    case REG_LOCAL_WINDOW_HI: return static_cast<uint32_t>(local_window_ >> 32);
    default: return 0;
  }
}

void CommandProcessor::write_window_reg(Reg reg, uint32_t value) {
  std::lock_guard lock(mu_);
  switch (reg) {
    case REG_SHARED_WINDOW_LO: shared_window_ = set_lo(shared_window_, value); break;
    case REG_SHARED_WINDOW_HI: shared_window_ = set_hi(shared_window_, value); break;
    case REG_LOCAL_WINDOW_LO: local_window_ = set_lo(local_window_, value); break;
    case REG_LOCAL_WINDOW_HI: local_window_ = set_hi(local_window_, value); break;
    default: break;
  }
}

void CommandProcessor::run() {
  struct Candidate {
    uint64_t submit_ns;
    uint32_t index;
  };
  Channel snapshot[kNumChannels];
  Candidate order[kNumChannels];
  while (true) {
    uint64_t seen_doorbells;
    {
      std::lock_guard lock(mu_);
      if (stop_) return;
      seen_doorbells = doorbells_;
      std::copy(std::begin(channels_), std::end(channels_), std::begin(snapshot));
    }
    // One packet from the highest CH_PRIORITY level that can make progress, the earliest
    // submitted first within the level; after any progress start again from the top, so
    // a higher-priority channel's next packet always goes before a lower one's (no
    // preemption of a packet in flight). Channels blocked in an acquire let the others
    // run.
    bool progress = false;
    bool blocked = false;
    for (uint32_t level = kMaxChannelPriority + 1; level-- > 0 && !progress;) {
      uint32_t count = 0;
      for (uint32_t i = 0; i < kNumChannels; ++i) {
        const Channel& c = snapshot[i];
        if (c.priority != level || (c.ctrl & kCtrlEnable) == 0 || c.status != 0 ||
            c.get == c.put) {
          continue;
        }
        order[count++] = Candidate{head_submit_ns(i, c), i};
      }
      std::sort(order, order + count, [](const Candidate& a, const Candidate& b) {
        return a.submit_ns != b.submit_ns ? a.submit_ns < b.submit_ns : a.index < b.index;
      });
      for (uint32_t k = 0; k < count && !progress; ++k) {
        const Step s = step(order[k].index);
        progress = s == Step::kProgress;
        blocked |= s == Step::kBlocked;
      }
    }
    if (progress) continue;
    std::unique_lock lock(mu_);
    const auto woken = [&] { return stop_ || doorbells_ != seen_doorbells; };
    if (blocked) {
      wake_.wait_for(lock, kAcquirePollInterval, woken);
    } else {
      wake_.wait(lock, woken);
    }
  }
}

uint64_t CommandProcessor::head_submit_ns(uint32_t index, const Channel& c) const {
  const uint32_t size = c.ring_size;
  const bool ring_ok = size >= kMinRingBytes && (size & (size - 1)) == 0 &&
                       c.ring_base <= vram_size_ && size <= vram_size_ - c.ring_base &&
                       c.get < size && c.put < size;
  if (!ring_ok) return 0;  // step() faults the channel
  const uint8_t* ring = vram_ + c.ring_base;
  const auto dword_at = [&](uint32_t offset) {
    uint32_t v;
    std::memcpy(&v, ring + (offset & (size - 1)), 4);
    return v;
  };
  const PacketHeader header{dword_at(c.get)};
  const uint32_t available = (c.put - c.get) & (size - 1);
  constexpr uint32_t kTimeDwords = sizeof(HostTimePacket) / 4;
  if (header.op() == PacketOp::kHostTime && header.dwords() == kTimeDwords &&
      available >= 4 * (1 + kTimeDwords)) {
    const uint64_t lo = dword_at(c.get + 4);
    const uint64_t hi = dword_at(c.get + 8);
    return lo | hi << 32;
  }
  return timeline_generation_[index] == c.generation ? timeline_.submit_ns(index) : 0;
}

CommandProcessor::Step CommandProcessor::step(uint32_t index) {
  Channel c;
  PacketContext ctx;
  {
    std::lock_guard lock(mu_);
    c = channels_[index];
    ctx.shared_window = shared_window_;
    ctx.local_window = local_window_;
  }
  if ((c.ctrl & kCtrlEnable) == 0 || c.status != 0 || c.get == c.put) return Step::kIdle;

  FaultEntry bad;
  bad.channel = index;
  bad.kind = FaultKind::kBadPacket;
  bad.address = c.ring_base + c.get;
  const uint32_t size = c.ring_size;
  const bool ring_ok = size >= kMinRingBytes && (size & (size - 1)) == 0 &&
                       c.ring_base % kPageSize == 0 && c.ring_base <= vram_size_ &&
                       size <= vram_size_ - c.ring_base && c.put < size && c.put % 4 == 0 &&
                       c.get < size;
  if (!ring_ok) {
    STRATA_LOG_DEBUG("channel {}: invalid ring (base {:#x}, size {}, put {})", index, c.ring_base,
                     size, c.put);
    fault(index, c.generation, bad);
    return Step::kProgress;
  }
  const uint8_t* ring = vram_ + c.ring_base;
  const auto dword_at = [&](uint32_t offset) {
    uint32_t v;
    std::memcpy(&v, ring + (offset & (size - 1)), 4);
    return v;
  };
  const PacketHeader header{dword_at(c.get)};
  const uint32_t available = (c.put - c.get) & (size - 1);
  const uint64_t packet_bytes = 4ull * (1 + header.dwords());
  if (packet_bytes > available || (header.flags() & ~kKnownPacketFlags) != 0) {
    fault(index, c.generation, bad);
    return Step::kProgress;
  }
  for (uint32_t i = 0; i < header.dwords(); ++i) payload_[i] = dword_at(c.get + 4 * (i + 1));

  const PageWalker walker(vram_, vram_size_, c.pt_base);
  ctx.channel = index;
  ctx.asid = c.asid;
  ctx.walker = &walker;
  ctx.config = &config_;
  if (timeline_generation_[index] != c.generation) {
    // The channel was reset: its modeled submit/ready times start afresh.
    timeline_.reset(index);
    reports_[index] = ReportState{};
    timeline_generation_[index] = c.generation;
  }
  ctx.timeline = &timeline_;
  ctx.priority = c.priority;
  ctx.vram = vram_;
  ctx.vram_size = vram_size_;
  ctx.programs = &programs_;
  ctx.caches = &caches_;
  ctx.detailed_l2 = &detailed_l2_;
  ctx.report_state = &reports_[index];
  const PacketOp op = header.op();
  const bool work = op == PacketOp::kLaunch || op == PacketOp::kCopy || op == PacketOp::kFill;
  WorkReport report{};
  ctx.report = work && reports_[index].va != 0 ? &report : nullptr;
  PacketOutcome outcome = execute_packet(ctx, op, payload_.data(), header.dwords(), header.flags());
  if (ctx.report != nullptr && outcome.kind != PacketOutcome::kBlocked) {
    // The report is stored once the packet completed or faulted (hw/contract/report.h).
    report.faulted = outcome.kind == PacketOutcome::kFault;
    uint64_t fault_va = 0;
    if (!store_report(walker, &reports_[index], report, &fault_va) &&
        outcome.kind == PacketOutcome::kDone) {
      outcome = PacketOutcome::fault_at(index, FaultKind::kUnmapped, fault_va);
    }
  }
  switch (outcome.kind) {
    case PacketOutcome::kBlocked:
      return Step::kBlocked;
    case PacketOutcome::kFault: {
      FaultEntry entry = outcome.fault;
      if (entry.kind == FaultKind::kBadPacket && entry.address == 0) entry.address = bad.address;
      fault(index, c.generation, entry);
      return Step::kProgress;
    }
    case PacketOutcome::kDone:
      break;
  }
  {
    std::lock_guard lock(mu_);
    Channel& live = channels_[index];
    if (live.generation == c.generation) {
      live.get = static_cast<uint32_t>((c.get + packet_bytes) & (size - 1));
    }
  }
  if ((header.flags() & kPacketInterrupt) != 0) interrupts_->raise(kIntrCompletion);
  return Step::kProgress;
}

void CommandProcessor::fault(uint32_t index, uint64_t generation, const FaultEntry& entry) {
  {
    std::lock_guard lock(mu_);
    Channel& live = channels_[index];
    if (live.generation != generation) return;  // reset while the packet ran
    // The record is in the fault FIFO before CH_STATUS says "faulted", so whoever sees
    // the status can read the record.
    faults_->push(entry);
    live.status = kStatusFaulted;
  }
  STRATA_LOG_INFO("channel {}: {} at {:#x} (kernel {}, pc {})", index, fault_kind_name(entry.kind),
                  entry.address, entry.kernel_id, entry.pc);
  interrupts_->raise(kIntrFault);
}

}  // namespace strata::hw::sim
