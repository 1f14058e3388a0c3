// The strata backend's CommandBuffer: packets (hw/contract/packets.h) recorded into a
// dword vector, replayed by copying them into a channel ring on each submission.
// Kernel parameters are copied into host-pinned parameter blocks mapped into the
// context (constant bank 0 points at them); blocks are 64 KiB, reused for the buffer's
// life.
#include <fmt/format.h>

#include <cstring>

#include "hal/backends/strata/strata_backend.h"
#include "hw/contract/packets.h"

namespace strata::hal::strata_backend {
namespace {

constexpr uint64_t kParamBlockBytes = 64 * 1024;

class StrataCommandBuffer final : public CommandBuffer {
 public:
  StrataCommandBuffer(std::shared_ptr<ContextState> state, std::shared_ptr<Context> context)
      : state_(std::move(state)), context_(std::move(context)), limits_(state_->device->launch_limits()) {}

  const std::vector<uint32_t>& dwords() const { return dwords_; }
  const ContextState* context_state() const { return state_.get(); }

 private:
  template <typename T>
  void emit(hw::PacketOp op, const T& payload) {
    const size_t at = dwords_.size();
    dwords_.resize(at + 1 + sizeof(T) / 4);
    dwords_[at] = hw::PacketHeader::make(op, sizeof(T) / 4).raw;
    std::memcpy(&dwords_[at + 1], &payload, sizeof(T));
  }

  // Copies `bytes` into a parameter block; returns its GPU VA.
  StatusOr<uint64_t> stage(std::span<const uint8_t> bytes) {
    const uint64_t size = (bytes.size() + 255) & ~uint64_t{255};
    if (param_blocks_.empty() || param_used_ + size > kParamBlockBytes) {
      ASSIGN_OR_RETURN(auto block, context_->allocator().allocate_host(kParamBlockBytes));
      param_blocks_.push_back(std::move(block));
      param_used_ = 0;
    }
    auto& block = param_blocks_.back();
    std::memcpy(static_cast<uint8_t*>(block->host_ptr()) + param_used_, bytes.data(), bytes.size());
    const uint64_t va = block->va() + param_used_;
    param_used_ += size;
    return va;
  }

  Status do_dispatch(const std::shared_ptr<Executable>& exe, int kernel, Dim3 grid, Dim3 block,
                     uint32_t dynamic_shared, std::span<const uint8_t> params,
                     std::span<const ConstBankBinding> banks, uint32_t local_bytes_per_thread) override {
    if (!context_->allocator().find(exe->code_va()).ok()) {
      return error(Code::kInvalidValue, fmt::format("dispatch: module '{}' was loaded in another context",
                                                    exe->name()));
    }
    const KernelInfo& k = exe->kernels()[kernel];
    hw::LaunchPacket p{};
    p.code_va = exe->code_va() + k.code_offset;
    p.code_size = static_cast<uint32_t>(k.code_size);
    p.kernel_id = exe->kernel_id(kernel);
    p.grid[0] = grid.x, p.grid[1] = grid.y, p.grid[2] = grid.z;
    p.block[0] = block.x, p.block[1] = block.y, p.block[2] = block.z;
    p.shared_bytes = k.static_shared_bytes + dynamic_shared;
    p.dynamic_shared_bytes = dynamic_shared;
    p.regs_per_thread = k.regs_per_thread;
    p.local_bytes_per_thread = local_bytes_per_thread;
    p.num_barriers = k.num_barriers;
    p.grid_id = ++grid_counter_;
    if (!params.empty()) {
      ASSIGN_OR_RETURN(uint64_t va, stage(params));
      p.cbanks[0] = hw::ConstBankBinding{va, static_cast<uint32_t>(params.size()), 0};
    }
    for (const ConstBankBinding& b : banks) p.cbanks[b.bank] = hw::ConstBankBinding{b.va, b.size, 0};
    emit(hw::PacketOp::kLaunch, p);
    executables_.push_back(exe);
    return ok_status();
  }

  Status do_copy(uint64_t src, uint64_t dst, uint64_t bytes) override {
    emit(hw::PacketOp::kCopy, hw::CopyPacket{src, dst, bytes});
    return ok_status();
  }
  Status do_fill(uint64_t va, uint64_t bytes, uint32_t pattern, uint32_t elem_size) override {
    emit(hw::PacketOp::kFill, hw::FillPacket{va, bytes, pattern, elem_size});
    return ok_status();
  }
  Status semaphore_op(hw::PacketOp op, const std::shared_ptr<Semaphore>& sem, uint64_t value) {
    const uint64_t va = semaphore_va(*sem);
    if (va == 0) return error(Code::kInvalidValue, "semaphore belongs to another backend");
    emit(op, hw::SemPacket{va, value});
    semaphores_.push_back(sem);
    return ok_status();
  }
  Status do_signal(const std::shared_ptr<Semaphore>& sem, uint64_t value) override {
    return semaphore_op(hw::PacketOp::kSemRelease, sem, value);
  }
  Status do_wait(const std::shared_ptr<Semaphore>& sem, uint64_t value) override {
    return semaphore_op(hw::PacketOp::kSemAcquire, sem, value);
  }
  Status do_write_timestamp(uint64_t va) override {
    emit(hw::PacketOp::kTimestamp, hw::TimestampPacket{va});
    return ok_status();
  }
  Status do_invalidate_icache(uint64_t va, uint64_t size) override {
    emit(hw::PacketOp::kIcacheInvalidate, hw::RangePacket{va, size});
    return ok_status();
  }
  Status do_finalize() override { return ok_status(); }
  const LaunchLimits& launch_limits() const override { return limits_; }

  std::shared_ptr<ContextState> state_;
  std::shared_ptr<Context> context_;
  LaunchLimits limits_;
  std::vector<uint32_t> dwords_;
  std::vector<std::shared_ptr<Buffer>> param_blocks_;
  uint64_t param_used_ = 0;
  uint64_t grid_counter_ = 0;
  std::vector<std::shared_ptr<Executable>> executables_;
  std::vector<std::shared_ptr<Semaphore>> semaphores_;
};

}  // namespace

std::shared_ptr<CommandBuffer> create_command_buffer(std::shared_ptr<ContextState> state,
                                                     std::shared_ptr<Context> context) {
  return std::make_shared<StrataCommandBuffer>(std::move(state), context);
}

const std::vector<uint32_t>& command_buffer_dwords(CommandBuffer& cb) {
  return static_cast<StrataCommandBuffer&>(cb).dwords();  // after command_buffer_context()
}

const ContextState* command_buffer_context(CommandBuffer& cb) {
  auto* s = dynamic_cast<StrataCommandBuffer*>(&cb);
  return s == nullptr ? nullptr : s->context_state();
}

}  // namespace strata::hal::strata_backend
