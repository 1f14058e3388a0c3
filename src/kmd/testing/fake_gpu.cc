#include "kmd/testing/fake_gpu.h"

#include <sys/mman.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "base/check.h"
#include "hw/contract/fault.h"
#include "hw/contract/packets.h"
#include "hw/contract/regs.h"
#include "hw/sim/memory.h"

namespace strata::kmd::testing {
namespace {

using namespace strata::hw;

struct FaultEntry {
  uint32_t channel;
  FaultKind kind;
  uint64_t address;
};

class FakeGpu final : public Gpu {
 public:
  explicit FakeGpu(const FakeGpuOptions& o) : options_(o) {
    void* p = mmap(nullptr, o.vram_bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    CHECK(p != MAP_FAILED);
    vram_ = static_cast<uint8_t*>(p);
    regs_.assign(kChannelBase / 4 + o.num_channels * kChannelStride / 4, 0);
    start_ = std::chrono::steady_clock::now();
    thread_ = std::thread([this] { run(); });
  }
  ~FakeGpu() override {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
      cv_.notify_all();
    }
    thread_.join();
    munmap(vram_, options_.vram_bytes);
  }

  uint32_t read_reg(uint32_t offset) override {
    std::lock_guard lock(mu_);
    switch (offset) {
      case REG_ID: return kIdMagic;
      case REG_REVISION: return 1;
      case REG_VRAM_SIZE_LO: return static_cast<uint32_t>(options_.vram_bytes);
      case REG_VRAM_SIZE_HI: return static_cast<uint32_t>(options_.vram_bytes >> 32);
      case REG_NUM_SMS: return options_.num_sms;
      case REG_NUM_CHANNELS: return options_.num_channels;
      case REG_TIMER_LO: {
        timer_latch_ = now_ns();
        return static_cast<uint32_t>(timer_latch_);
      }
      case REG_TIMER_HI: return static_cast<uint32_t>(timer_latch_ >> 32);
      case REG_FAULT_CHANNEL: return faults_.empty() ? 0 : faults_.front().channel;
      case REG_FAULT_KIND: return faults_.empty() ? 0 : static_cast<uint32_t>(faults_.front().kind);
      case REG_FAULT_ADDR_LO: return faults_.empty() ? 0 : static_cast<uint32_t>(faults_.front().address);
      case REG_FAULT_ADDR_HI: return faults_.empty() ? 0 : static_cast<uint32_t>(faults_.front().address >> 32);
      default: break;
    }
    if (offset / 4 < regs_.size()) return regs_[offset / 4];
    return 0;
  }

  void write_reg(uint32_t offset, uint32_t value) override {
    std::function<void()> handler;
    {
      std::lock_guard lock(mu_);
      if (offset == REG_INTR_STATUS) {
        regs_[offset / 4] &= ~value;
        return;
      }
      if (offset == REG_FAULT_ACK) {
        if (!faults_.empty()) faults_.pop_front();
        if (!faults_.empty()) handler = raise_locked(kIntrFault);
      } else if (offset >= kChannelBase && offset / 4 < regs_.size()) {
        const uint32_t ch = (offset - kChannelBase) / kChannelStride;
        const uint32_t reg = offset - ch * kChannelStride;
        if (reg == REG_CH_CTRL && (value & 2u) != 0) {
          reg_ref(ch, REG_CH_GET) = 0;
          reg_ref(ch, REG_CH_PUT) = 0;
          reg_ref(ch, REG_CH_STATUS) = 0;
          regs_[offset / 4] = value & 1u;
          return;
        }
        if (reg == REG_CH_GET || reg == REG_CH_STATUS) return;  // read-only
        regs_[offset / 4] = value;
        cv_.notify_all();
        return;
      } else if (offset / 4 < regs_.size()) {
        regs_[offset / 4] = value;
      }
    }
    if (handler) handler();
  }

  uint8_t* vram_base() override { return vram_; }
  uint64_t vram_size() const override { return options_.vram_bytes; }
  void set_interrupt_handler(std::function<void()> handler) override {
    std::lock_guard lock(mu_);
    handler_ = std::move(handler);
  }

 private:
  uint32_t& reg_ref(uint32_t ch, Reg reg) { return regs_[channel_reg(ch, reg) / 4]; }
  uint64_t now_ns() const {
    return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                     std::chrono::steady_clock::now() - start_).count());
  }
  // Sets INTR_STATUS bits; returns the handler to call (outside the lock) if enabled.
  std::function<void()> raise_locked(uint32_t bits) {
    regs_[REG_INTR_STATUS / 4] |= bits;
    if ((regs_[REG_INTR_ENABLE / 4] & bits) != 0) return handler_;
    return nullptr;
  }

  // Host pointer for [va, va + size) within one page, or nullptr and *fault.
  uint8_t* translate(const sim::PageWalker& walker, uint64_t va, uint32_t size, bool write,
                     FaultKind* fault) {
    sim::Tlb tlb(&walker);
    return tlb.translate(va, size, write, fault);
  }

  // Executes one packet of channel `ch`. Returns false if it must be retried later
  // (semaphore acquire not satisfied); sets *fault on a fault.
  bool execute(uint32_t ch, const sim::PageWalker& walker, PacketOp op, const uint32_t* payload,
               FaultEntry* fault) {
    FaultKind kind = FaultKind::kNone;
    auto fail = [&](uint64_t addr) {
      *fault = FaultEntry{ch, kind, addr};
      return true;
    };
    switch (op) {
      case PacketOp::kNop:
      case PacketOp::kHostTime:
      case PacketOp::kReport:  // the fake GPU writes no work reports
      case PacketOp::kIcacheInvalidate: return true;
      case PacketOp::kLaunch: kind = FaultKind::kBadPacket; return fail(0);
      case PacketOp::kSemRelease:
      case PacketOp::kSemAcquire: {
        SemPacket p;
        std::memcpy(&p, payload, sizeof(p));
        uint8_t* host = translate(walker, p.va, 8, op == PacketOp::kSemRelease, &kind);
        if (host == nullptr) return fail(p.va);
        auto value = std::atomic_ref<uint64_t>(*reinterpret_cast<uint64_t*>(host));
        if (op == PacketOp::kSemRelease) {
          value.store(p.value, std::memory_order_release);
          return true;
        }
        return value.load(std::memory_order_acquire) >= p.value;
      }
      case PacketOp::kTimestamp: {
        TimestampPacket p;
        std::memcpy(&p, payload, sizeof(p));
        uint8_t* host = translate(walker, p.va, 8, true, &kind);
        if (host == nullptr) return fail(p.va);
        const uint64_t t = now_ns();
        std::memcpy(host, &t, 8);
        return true;
      }
      case PacketOp::kCopy: {
        CopyPacket p;
        std::memcpy(&p, payload, sizeof(p));
        for (uint64_t i = 0; i < p.bytes; ++i) {
          uint8_t* s = translate(walker, p.src_va + i, 1, false, &kind);
          if (s == nullptr) return fail(p.src_va + i);
          uint8_t* d = translate(walker, p.dst_va + i, 1, true, &kind);
          if (d == nullptr) return fail(p.dst_va + i);
          *d = *s;
        }
        return true;
      }
      case PacketOp::kFill: {
        FillPacket p;
        std::memcpy(&p, payload, sizeof(p));
        for (uint64_t i = 0; i < p.bytes; ++i) {
          uint8_t* d = translate(walker, p.dst_va + i, 1, true, &kind);
          if (d == nullptr) return fail(p.dst_va + i);
          *d = static_cast<uint8_t>(p.value >> (8 * (i % p.elem_size)));
        }
        return true;
      }
    }
    kind = FaultKind::kBadPacket;
    return fail(0);
  }

  // Runs channel `ch` until its ring is empty or blocked. Requires mu_ (released while
  // executing). Returns true if it is blocked on a semaphore.
  bool service(uint32_t ch, std::unique_lock<std::mutex>& lock,
               std::vector<std::function<void()>>* handlers) {
    while ((reg_ref(ch, REG_CH_CTRL) & 1u) != 0 && reg_ref(ch, REG_CH_STATUS) == 0) {
      const uint32_t size = reg_ref(ch, REG_CH_RING_SIZE);
      const uint32_t get = reg_ref(ch, REG_CH_GET);
      const uint32_t put = reg_ref(ch, REG_CH_PUT);
      if (get == put || size == 0) return false;
      const uint64_t ring = reg_ref(ch, REG_CH_RING_BASE_LO) |
                            (static_cast<uint64_t>(reg_ref(ch, REG_CH_RING_BASE_HI)) << 32);
      const uint64_t pt = reg_ref(ch, REG_CH_PT_BASE_LO) |
                          (static_cast<uint64_t>(reg_ref(ch, REG_CH_PT_BASE_HI)) << 32);
      PacketHeader header;
      std::memcpy(&header.raw, vram_ + ring + get, 4);
      std::vector<uint32_t> payload(header.dwords());
      for (uint32_t i = 0; i < header.dwords(); ++i) {
        std::memcpy(&payload[i], vram_ + ring + ((get + 4 + 4 * i) & (size - 1)), 4);
      }
      lock.unlock();
      sim::PageWalker walker(vram_, options_.vram_bytes, pt);
      FaultEntry fault{ch, FaultKind::kNone, 0};
      const bool done = execute(ch, walker, header.op(), payload.data(), &fault);
      lock.lock();
      if (reg_ref(ch, REG_CH_GET) != get) continue;  // reset meanwhile
      if (fault.kind != FaultKind::kNone) {
        reg_ref(ch, REG_CH_STATUS) = 1;
        faults_.push_back(fault);
        if (auto h = raise_locked(kIntrFault)) handlers->push_back(h);
        return false;
      }
      if (!done) return true;
      reg_ref(ch, REG_CH_GET) = (get + 4 + 4 * header.dwords()) & (size - 1);
      if ((header.flags() & kPacketInterrupt) != 0) {
        if (auto h = raise_locked(kIntrCompletion)) handlers->push_back(h);
      }
    }
    return false;
  }

  void run() {
    std::unique_lock lock(mu_);
    while (!stop_) {
      bool blocked = false;
      std::vector<std::function<void()>> handlers;
      for (uint32_t ch = 0; ch < options_.num_channels; ++ch) blocked |= service(ch, lock, &handlers);
      if (!handlers.empty()) {
        lock.unlock();
        for (auto& h : handlers) h();
        lock.lock();
        continue;
      }
      cv_.wait_for(lock, std::chrono::microseconds(blocked ? 100 : 2000));
    }
  }

  FakeGpuOptions options_;
  uint8_t* vram_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<uint32_t> regs_;
  std::deque<FaultEntry> faults_;
  std::function<void()> handler_;
  uint64_t timer_latch_ = 0;
  std::chrono::steady_clock::time_point start_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace

std::unique_ptr<hw::Gpu> create_fake_gpu(const FakeGpuOptions& options) {
  return std::make_unique<FakeGpu>(options);
}

}  // namespace strata::kmd::testing
