#include "hw/sim/sim_gpu.h"

#include "base/log.h"

namespace strata::hw {

std::unique_ptr<Gpu> create_sim_gpu(const ArchConfig& config) {
  auto gpu = sim::SimGpu::create(config);
  if (!gpu.ok()) {
    STRATA_LOG_ERROR("cannot create the simulated GPU: {}", gpu.status().to_string());
    return nullptr;
  }
  return std::move(gpu).value();
}

}  // namespace strata::hw

namespace strata::hw::sim {

StatusOr<std::unique_ptr<SimGpu>> SimGpu::create(const ArchConfig& config) {
  if (config.vram_bytes <= 0) return error(Code::kInvalidValue, "arch config has no VRAM");
  ASSIGN_OR_RETURN(std::unique_ptr<Vram> vram, Vram::create(static_cast<uint64_t>(config.vram_bytes)));
  return std::unique_ptr<SimGpu>(new SimGpu(config, std::move(vram)));
}

SimGpu::SimGpu(const ArchConfig& config, std::unique_ptr<Vram> vram)
    : config_(config), vram_(std::move(vram)) {
  command_processor_ = std::make_unique<CommandProcessor>(config_, vram_->base(), vram_->size(),
                                                          &clock_, &faults_, &interrupts_);
}

SimGpu::~SimGpu() { command_processor_.reset(); }

void SimGpu::set_interrupt_handler(std::function<void()> handler) {
  interrupts_.set_handler(std::move(handler));
}

uint32_t SimGpu::read_reg(uint32_t offset) {
  if (offset >= kChannelBase) {
    const uint32_t channel = (offset - kChannelBase) / kChannelStride;
    const uint32_t reg = kChannelBase + (offset - kChannelBase) % kChannelStride;
    if (channel >= CommandProcessor::kNumChannels) return 0;
    return command_processor_->read_channel_reg(channel, static_cast<Reg>(reg));
  }
  switch (offset) {
    case REG_ID: return kIdMagic;
    case REG_REVISION: return kContractRevision;
    case REG_VRAM_SIZE_LO: return static_cast<uint32_t>(vram_->size());
    case REG_VRAM_SIZE_HI: return static_cast<uint32_t>(vram_->size() >> 32);
    case REG_NUM_SMS: return static_cast<uint32_t>(config_.sm_count);
    case REG_NUM_CHANNELS: return CommandProcessor::kNumChannels;
    case REG_TIMER_LO: {
      const uint64_t now = clock_.now_ns();
      timer_hi_latch_.store(static_cast<uint32_t>(now >> 32), std::memory_order_relaxed);
      return static_cast<uint32_t>(now);
    }
    case REG_TIMER_HI: return timer_hi_latch_.load(std::memory_order_relaxed);
    case REG_INTR_STATUS: return interrupts_.status();
    case REG_INTR_ENABLE: return interrupts_.enable();
    case REG_SHARED_WINDOW_LO:
    case REG_SHARED_WINDOW_HI:
    case REG_LOCAL_WINDOW_LO:
    case REG_LOCAL_WINDOW_HI:
      return command_processor_->read_window_reg(static_cast<Reg>(offset));
    default:
      if (offset >= REG_FAULT_CHANNEL && offset <= REG_FAULT_TID_Z) return read_fault_reg(offset);
      return 0;
  }
}

uint32_t SimGpu::read_fault_reg(uint32_t offset) {
  const std::optional<FaultEntry> f = faults_.front();
  if (!f) return 0;  // empty FIFO: FAULT_KIND reads kNone
  switch (offset) {
    case REG_FAULT_CHANNEL: return f->channel;
    case REG_FAULT_KIND: return static_cast<uint32_t>(f->kind);
    case REG_FAULT_ADDR_LO: return static_cast<uint32_t>(f->address);
    case REG_FAULT_ADDR_HI: return static_cast<uint32_t>(f->address >> 32);
    case REG_FAULT_PC: return f->pc;
    case REG_FAULT_KERNEL_ID: return f->kernel_id;
    case REG_FAULT_CTA_X: return f->cta[0];
    case REG_FAULT_CTA_Y: return f->cta[1];
    case REG_FAULT_CTA_Z: return f->cta[2];
    case REG_FAULT_TID_X: return f->tid[0];
    case REG_FAULT_TID_Y: return f->tid[1];
    case REG_FAULT_TID_Z: return f->tid[2];
    default: return 0;
  }
}

void SimGpu::write_reg(uint32_t offset, uint32_t value) {
  if (offset >= kChannelBase) {
    const uint32_t channel = (offset - kChannelBase) / kChannelStride;
    const uint32_t reg = kChannelBase + (offset - kChannelBase) % kChannelStride;
    if (channel < CommandProcessor::kNumChannels) {
      command_processor_->write_channel_reg(channel, static_cast<Reg>(reg), value);
    }
    return;
  }
  switch (offset) {
    case REG_INTR_STATUS: interrupts_.clear(value); break;
    case REG_INTR_ENABLE: interrupts_.set_enable(value); break;
    case REG_SHARED_WINDOW_LO:
    case REG_SHARED_WINDOW_HI:
    case REG_LOCAL_WINDOW_LO:
    case REG_LOCAL_WINDOW_HI:
      command_processor_->write_window_reg(static_cast<Reg>(offset), value);
      break;
    case REG_FAULT_ACK:
      if ((value & 1) != 0 && faults_.pop()) interrupts_.raise(kIntrFault);
      break;
    default: break;  // read-only or unmapped
  }
}

}  // namespace strata::hw::sim
