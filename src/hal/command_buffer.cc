#include "hal/command_buffer.h"

#include <fmt/format.h>

#include "base/log.h"

namespace strata::hal {

void CommandBuffer::reset() {
  do_reset();
  finalized_ = false;
  command_count_ = 0;
  work_count_ = 0;
  describe_ = false;
  tag_ = 0;
  descriptions_.clear();
}

Status CommandBuffer::recordable() const {
  if (finalized_) return error(Code::kInvalidValue, "command buffer is finalized; record into a new one");
  return ok_status();
}

Status CommandBuffer::dispatch(const std::shared_ptr<Executable>& executable, int kernel, Dim3 grid,
                               Dim3 block, uint32_t dynamic_shared_bytes,
                               std::span<const uint8_t> params,
                               std::span<const ConstBankBinding> banks,
                               std::optional<uint32_t> local_bytes_per_thread) {
  RETURN_IF_ERROR(recordable());
  if (executable == nullptr) return error(Code::kInvalidValue, "dispatch: null executable");
  if (kernel < 0 || kernel >= executable->kernel_count()) {
    return error(Code::kInvalidValue, fmt::format("dispatch: kernel index {} out of range (module '{}' "
                                                  "has {})", kernel, executable->name(), executable->kernel_count()));
  }
  const KernelInfo& k = executable->kernels()[kernel];
  const LaunchLimits& lim = launch_limits();
  const uint64_t g[3] = {grid.x, grid.y, grid.z};
  const uint64_t b[3] = {block.x, block.y, block.z};
  for (int i = 0; i < 3; ++i) {
    if (g[i] == 0 || g[i] > lim.max_grid[i] || b[i] == 0 || b[i] > lim.max_block[i]) {
      return error(Code::kInvalidConfiguration,
                   fmt::format("dispatch of '{}': grid ({},{},{}) block ({},{},{}) outside the limits "
                               "grid ({},{},{}) block ({},{},{})", k.name, g[0], g[1], g[2], b[0], b[1],
                               b[2], lim.max_grid[0], lim.max_grid[1], lim.max_grid[2], lim.max_block[0],
                               lim.max_block[1], lim.max_block[2]));
    }
  }
  if (b[0] * b[1] * b[2] > lim.max_threads_per_block) {
    return error(Code::kInvalidConfiguration,
                 fmt::format("dispatch of '{}': {} threads per block exceed {}", k.name,
                             b[0] * b[1] * b[2], lim.max_threads_per_block));
  }
  if (static_cast<uint64_t>(k.static_shared_bytes) + dynamic_shared_bytes > lim.max_shared_per_block) {
    return error(Code::kInvalidConfiguration,
                 fmt::format("dispatch of '{}': {} static + {} dynamic shared bytes exceed {}", k.name,
                             k.static_shared_bytes, dynamic_shared_bytes, lim.max_shared_per_block));
  }
  if (params.size() > kMaxParamBytes) {
    return error(Code::kInvalidValue, fmt::format("dispatch of '{}': {} parameter bytes exceed {}",
                                                  k.name, params.size(), kMaxParamBytes));
  }
  for (const ConstBankBinding& bank : banks) {
    if (bank.bank < 1 || bank.bank > 7 || bank.va == 0 || bank.size == 0) {
      return error(Code::kInvalidValue, fmt::format("dispatch of '{}': bad constant bank binding "
                                                    "c[{}] = 0x{:x}+{}", k.name, bank.bank, bank.va, bank.size));
    }
  }
  STRATA_LOG_DEBUG("hal: record dispatch '{}' grid ({},{},{}) block ({},{},{}) dyn shared {}", k.name,
                   g[0], g[1], g[2], b[0], b[1], b[2], dynamic_shared_bytes);
  RETURN_IF_ERROR(do_dispatch(executable, kernel, grid, block, dynamic_shared_bytes, params, banks,
                              local_bytes_per_thread.value_or(k.local_bytes_per_thread)));
  ++command_count_;
  ++work_count_;
  if (describe_) {
    WorkDescription d;
    d.kind = WorkDescription::kDispatch;
    d.tag = tag_;
    d.kernel = k.name;
    d.code_va = executable->code_va() + k.code_offset;
    d.instructions = static_cast<uint32_t>(k.code_size / 16);
    d.grid = grid;
    d.block = block;
    d.regs_per_thread = k.regs_per_thread;
    d.static_shared_bytes = k.static_shared_bytes;
    d.dynamic_shared_bytes = dynamic_shared_bytes;
    d.local_bytes_per_thread = local_bytes_per_thread.value_or(k.local_bytes_per_thread);
    descriptions_.push_back(std::move(d));
  }
  return ok_status();
}

Status CommandBuffer::copy(uint64_t src_va, uint64_t dst_va, uint64_t bytes) {
  RETURN_IF_ERROR(recordable());
  if (bytes == 0) return ok_status();
  if (src_va + bytes < src_va || dst_va + bytes < dst_va) {
    return error(Code::kInvalidValue, "copy: range wraps around the address space");
  }
  if (src_va < dst_va + bytes && dst_va < src_va + bytes) {
    return error(Code::kInvalidValue,
                 fmt::format("copy: ranges 0x{:x} and 0x{:x} of {} bytes overlap", src_va, dst_va, bytes));
  }
  STRATA_LOG_DEBUG("hal: record copy 0x{:x} -> 0x{:x} ({} bytes)", src_va, dst_va, bytes);
  RETURN_IF_ERROR(do_copy(src_va, dst_va, bytes));
  ++command_count_;
  ++work_count_;
  if (describe_) {
    WorkDescription d;
    d.kind = WorkDescription::kCopy;
    d.tag = tag_;
    d.src_va = src_va, d.dst_va = dst_va, d.bytes = bytes;
    descriptions_.push_back(std::move(d));
  }
  return ok_status();
}

Status CommandBuffer::fill(uint64_t va, uint64_t bytes, uint32_t pattern, uint32_t elem_size) {
  RETURN_IF_ERROR(recordable());
  if (elem_size != 1 && elem_size != 2 && elem_size != 4) {
    return error(Code::kInvalidValue, fmt::format("fill: element size {} is not 1, 2 or 4", elem_size));
  }
  if (va % elem_size != 0 || bytes % elem_size != 0) {
    return error(Code::kInvalidValue, fmt::format("fill: address 0x{:x} or size {} not a multiple of {}",
                                                  va, bytes, elem_size));
  }
  if (bytes == 0) return ok_status();
  if (va + bytes < va) return error(Code::kInvalidValue, "fill: range wraps around the address space");
  STRATA_LOG_DEBUG("hal: record fill 0x{:x} ({} bytes, pattern 0x{:x}/{})", va, bytes, pattern, elem_size);
  RETURN_IF_ERROR(do_fill(va, bytes, pattern, elem_size));
  ++command_count_;
  ++work_count_;
  if (describe_) {
    WorkDescription d;
    d.kind = WorkDescription::kFill;
    d.tag = tag_;
    d.dst_va = va, d.bytes = bytes, d.value = pattern, d.elem_size = elem_size;
    descriptions_.push_back(std::move(d));
  }
  return ok_status();
}

Status CommandBuffer::signal(const std::shared_ptr<Semaphore>& semaphore, uint64_t value) {
  RETURN_IF_ERROR(recordable());
  if (semaphore == nullptr || value == 0) {
    return error(Code::kInvalidValue, "signal: null semaphore or value 0");
  }
  RETURN_IF_ERROR(do_signal(semaphore, value));
  ++command_count_;
  return ok_status();
}

Status CommandBuffer::wait(const std::shared_ptr<Semaphore>& semaphore, uint64_t value) {
  RETURN_IF_ERROR(recordable());
  if (semaphore == nullptr || value == 0) {
    return error(Code::kInvalidValue, "wait: null semaphore or value 0");
  }
  RETURN_IF_ERROR(do_wait(semaphore, value));
  ++command_count_;
  return ok_status();
}

Status CommandBuffer::write_timestamp(uint64_t va) {
  RETURN_IF_ERROR(recordable());
  if (va == 0 || va % 8 != 0) {
    return error(Code::kInvalidValue, fmt::format("write_timestamp: address 0x{:x} is not 8-byte aligned", va));
  }
  RETURN_IF_ERROR(do_write_timestamp(va));
  ++command_count_;
  return ok_status();
}

Status CommandBuffer::invalidate_icache(uint64_t va, uint64_t size) {
  RETURN_IF_ERROR(recordable());
  if (size == 0 || va + size < va) return error(Code::kInvalidValue, "invalidate_icache: bad range");
  RETURN_IF_ERROR(do_invalidate_icache(va, size));
  ++command_count_;
  return ok_status();
}

Status CommandBuffer::finalize() {
  RETURN_IF_ERROR(recordable());
  RETURN_IF_ERROR(do_finalize());
  finalized_ = true;
  return ok_status();
}

}  // namespace strata::hal
