// The strata backend's CommandBuffer: packets (hw/contract/packets.h) recorded into a
// dword vector, replayed by copying them into a channel ring on each submission.
// Kernel parameters are copied into host-pinned parameter blocks mapped into the
// context (constant bank 0 points at them); blocks are one page (larger only for a
// parameter set that needs it), reused for the buffer's life and then by the context's
// later command buffers (ParamBlockPool), so that a
// launch in the steady state neither allocates nor maps host memory for its parameters.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <mutex>

#include "hal/backends/strata/strata_backend.h"
#include "hw/contract/packets.h"

namespace strata::hal::strata_backend {

class ParamBlockPool {
 public:
  // A free block, or null when there is none.
  std::shared_ptr<Buffer> take() {
    std::lock_guard lock(mutex_);
    if (free_.empty()) return nullptr;
    std::shared_ptr<Buffer> block = std::move(free_.back());
    free_.pop_back();
    return block;
  }
  // Keeps up to kMaxFree blocks of kBlockBytes (4 MiB: enough for the launches a
  // stream typically has in flight); larger blocks and the rest are freed.
  void give_back(std::shared_ptr<Buffer> block) {
    if (block == nullptr || block->size() != kBlockBytes) return;
    std::lock_guard lock(mutex_);
    if (free_.size() < kMaxFree) free_.push_back(std::move(block));
  }

  // One page: a launch's parameters are usually well under 256 bytes.
  static constexpr uint64_t kBlockBytes = 4096;

 private:
  static constexpr size_t kMaxFree = 1024;
  std::mutex mutex_;
  std::vector<std::shared_ptr<Buffer>> free_;
};

std::shared_ptr<ParamBlockPool> create_param_block_pool() {
  return std::make_shared<ParamBlockPool>();
}

namespace {

class StrataCommandBuffer final : public CommandBuffer {
 public:
  StrataCommandBuffer(std::shared_ptr<ContextState> state, std::shared_ptr<Context> context,
                      std::shared_ptr<ParamBlockPool> pool)
      : state_(std::move(state)), context_(std::move(context)), pool_(std::move(pool)),
        limits_(state_->device->launch_limits()) {}
  // The queue drops a submitted buffer only after the GPU has consumed it, so its
  // parameter blocks are free for reuse now.
  ~StrataCommandBuffer() override {
    if (pool_ == nullptr) return;
    pool_->give_back(std::move(param_block_));
    for (auto& block : full_param_blocks_) pool_->give_back(std::move(block));
  }

  std::span<const uint32_t> dwords() const {
    return heap_dwords_.empty() ? std::span<const uint32_t>(inline_dwords_.data(), dword_count_)
                                : std::span<const uint32_t>(heap_dwords_);
  }
  const ContextState* context_state() const { return state_.get(); }

 private:
  // Room for `n` more packet dwords: in the inline buffer while they fit (a command
  // buffer of one launch needs no allocation), then on the heap.
  uint32_t* append_dwords(size_t n) {
    if (heap_dwords_.empty() && dword_count_ + n <= kInlineDwords) {
      uint32_t* out = inline_dwords_.data() + dword_count_;
      dword_count_ += n;
      return out;
    }
    if (heap_dwords_.empty()) {
      heap_dwords_.assign(inline_dwords_.begin(), inline_dwords_.begin() + dword_count_);
    }
    heap_dwords_.resize(dword_count_ + n);
    uint32_t* out = heap_dwords_.data() + dword_count_;
    dword_count_ += n;
    return out;
  }

  template <typename T>
  void emit(hw::PacketOp op, const T& payload, uint8_t flags = 0) {
    uint32_t* out = append_dwords(1 + sizeof(T) / 4);
    out[0] = hw::PacketHeader::make(op, sizeof(T) / 4, flags).raw;
    std::memcpy(out + 1, &payload, sizeof(T));
  }

  // Copies `bytes` into a parameter block; returns its GPU VA.
  StatusOr<uint64_t> stage(std::span<const uint8_t> bytes) {
    const uint64_t size = (bytes.size() + 255) & ~uint64_t{255};
    if (param_block_ == nullptr || param_used_ + size > param_block_->size()) {
      // Pooled pages, or a block of its own for a parameter set larger than a page.
      std::shared_ptr<Buffer> block;
      if (size <= ParamBlockPool::kBlockBytes && pool_ != nullptr) block = pool_->take();
      if (block == nullptr) {
        ASSIGN_OR_RETURN(block, context_->allocator().allocate_host(
                                    std::max<uint64_t>(size, ParamBlockPool::kBlockBytes)));
      }
      if (param_block_ != nullptr) full_param_blocks_.push_back(std::move(param_block_));
      param_block_ = std::move(block);
      param_used_ = 0;
    }
    auto& block = param_block_;
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
    // Keep the executables alive while the buffer is (usually just one).
    if (first_executable_ == nullptr) {
      first_executable_ = exe;
    } else if (exe != first_executable_) {
      executables_.push_back(exe);
    }
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
    // Semaphores carry their signal's modeled time (hw::kPacketSemTime).
    emit(op, hw::SemPacket{va, value}, hw::kPacketSemTime);
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
  // The GPU is done with the buffer (CommandBuffer::reset's contract): its current
  // parameter block is reused from the start, the others go back to the pool.
  void do_reset() override {
    heap_dwords_.clear();
    dword_count_ = 0;
    for (auto& block : full_param_blocks_) {
      if (pool_ != nullptr) pool_->give_back(std::move(block));
    }
    full_param_blocks_.clear();
    param_used_ = 0;
    grid_counter_ = 0;
    first_executable_.reset();
    executables_.clear();
    semaphores_.clear();
  }
  const LaunchLimits& launch_limits() const override { return limits_; }

  std::shared_ptr<ContextState> state_;
  std::shared_ptr<Context> context_;
  std::shared_ptr<ParamBlockPool> pool_;
  LaunchLimits limits_;
  static constexpr size_t kInlineDwords = 64;  // one launch packet (51) plus a little
  std::array<uint32_t, kInlineDwords> inline_dwords_;
  std::vector<uint32_t> heap_dwords_;  // all packets, once they outgrow the inline buffer
  size_t dword_count_ = 0;
  std::shared_ptr<Buffer> param_block_;  // the block being filled
  std::vector<std::shared_ptr<Buffer>> full_param_blocks_;
  uint64_t param_used_ = 0;
  uint64_t grid_counter_ = 0;
  std::shared_ptr<Executable> first_executable_;
  std::vector<std::shared_ptr<Executable>> executables_;  // others
  std::vector<std::shared_ptr<Semaphore>> semaphores_;
};

}  // namespace

std::shared_ptr<CommandBuffer> create_command_buffer(std::shared_ptr<ContextState> state,
                                                     std::shared_ptr<Context> context,
                                                     std::shared_ptr<ParamBlockPool> pool) {
  return std::make_shared<StrataCommandBuffer>(std::move(state), context, std::move(pool));
}

std::span<const uint32_t> command_buffer_dwords(CommandBuffer& cb) {
  return static_cast<StrataCommandBuffer&>(cb).dwords();  // after command_buffer_context()
}

const ContextState* command_buffer_context(CommandBuffer& cb) {
  auto* s = dynamic_cast<StrataCommandBuffer*>(&cb);
  return s == nullptr ? nullptr : s->context_state();
}

}  // namespace strata::hal::strata_backend
