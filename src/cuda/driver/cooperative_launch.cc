#include "cuda/driver/cooperative_launch.h"

#include <cstring>

namespace strata::cuda::driver {

static_assert(kGridWorkspaceEnvRegLo < sxbin::kEnvRegCount &&
              kGridWorkspaceEnvRegHi < sxbin::kEnvRegCount);

StatusOr<CooperativeEnvironment> CooperativeEnvironments::acquire() {
  constexpr uint64_t kWorkspaceOffset = sxbin::kEnvBankBytes;  // after the bank
  std::shared_ptr<hal::Buffer> buffer;
  {
    std::lock_guard<std::mutex> lock(idle_->mutex);
    if (!idle_->buffers.empty()) {
      buffer = std::move(idle_->buffers.back());
      idle_->buffers.pop_back();
    }
  }
  if (!buffer) {
    ASSIGN_OR_RETURN(buffer, allocator_->allocate_device(kWorkspaceOffset + kGridWorkspaceBytes));
  }
  // Rewritten whole on every use: a grid that exited mid-barrier leaves the word behind.
  std::vector<uint8_t> image(kWorkspaceOffset + kGridWorkspaceBytes, 0);
  const uint64_t workspace = buffer->va() + kWorkspaceOffset;
  const uint32_t hi = static_cast<uint32_t>(workspace >> 32);
  const uint32_t lo = static_cast<uint32_t>(workspace);
  std::memcpy(image.data() + 4 * kGridWorkspaceEnvRegHi, &hi, 4);
  std::memcpy(image.data() + 4 * kGridWorkspaceEnvRegLo, &lo, 4);
  const uint32_t size = kGridWorkspaceBytes;
  std::memcpy(image.data() + kWorkspaceOffset + kGridWorkspaceSizeOffset, &size, 4);
  RETURN_IF_ERROR(allocator_->write(buffer->va(), image.data(), image.size()));

  CooperativeEnvironment env;
  env.bank = hal::ConstBankBinding{sxbin::kEnvBank, buffer->va(), sxbin::kEnvBankBytes};
  env.workspace_va = workspace;
  // Releasing the keep-alive (the launch completed) hands the buffer back for reuse.
  std::weak_ptr<Idle> idle = idle_;
  hal::Buffer* raw = buffer.get();
  env.keep_alive = std::shared_ptr<void>(raw, [idle, buffer = std::move(buffer)](void*) mutable {
    if (std::shared_ptr<Idle> pool = idle.lock()) {
      std::lock_guard<std::mutex> lock(pool->mutex);
      if (pool->buffers.size() < kMaxIdle) pool->buffers.push_back(std::move(buffer));
    }
  });
  return env;
}

}  // namespace strata::cuda::driver
