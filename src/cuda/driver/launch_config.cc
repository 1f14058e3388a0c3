#include "cuda/driver/launch_config.h"

#include <cuda.h>

#include <algorithm>
#include <cstring>

#include "base/check.h"
#include "cuda/driver/cu_result.h"
#include "cuda/driver/occupancy.h"
#include "fmt/format.h"

namespace strata::cuda::driver {
namespace {

Status dim_error(const sxbin::KernelDesc& k, const char* what, uint64_t value, int64_t limit) {
  return error(Code::kInvalidValue,
               fmt::format("cuLaunchKernel '{}': {} is {}, must be in [1, {}]", k.name, what,
                           value, limit));
}

uint64_t round_up(uint64_t v, uint64_t unit) { return unit == 0 ? v : (v + unit - 1) / unit * unit; }

}  // namespace

uint32_t default_max_dynamic_shared(const sxbin::KernelDesc& kernel, const hw::ArchConfig& arch) {
  int64_t room = arch.shared_bytes_per_block - int64_t{kernel.shared_bytes};
  return room > 0 ? static_cast<uint32_t>(room) : 0;
}

Status validate_launch(const sxbin::KernelDesc& k, const hw::ArchConfig& arch,
                       const LaunchShape& s, uint32_t max_dynamic_shared_bytes) {
  const struct {
    const char* what;
    uint32_t value;
    int64_t limit;
  } dims[] = {
      {"gridDimX", s.grid.x, arch.max_grid_dim_x},   {"gridDimY", s.grid.y, arch.max_grid_dim_y},
      {"gridDimZ", s.grid.z, arch.max_grid_dim_z},   {"blockDimX", s.block.x, arch.max_block_dim_x},
      {"blockDimY", s.block.y, arch.max_block_dim_y}, {"blockDimZ", s.block.z, arch.max_block_dim_z},
  };
  for (const auto& d : dims) {
    if (d.value == 0 || d.value > d.limit) return dim_error(k, d.what, d.value, d.limit);
  }
  uint64_t threads = s.block.count();
  if (threads > static_cast<uint64_t>(arch.max_threads_per_block)) {
    return error(Code::kInvalidValue,
                 fmt::format("cuLaunchKernel '{}': {} threads per block exceed the device "
                             "limit of {}", k.name, threads, arch.max_threads_per_block));
  }
  if (k.max_threads_per_block != 0 && threads > k.max_threads_per_block) {
    return error(Code::kInvalidValue,
                 fmt::format("cuLaunchKernel '{}': {} threads per block exceed the kernel's "
                             ".maxntid limit of {}", k.name, threads, k.max_threads_per_block));
  }
  if (k.reqntid[0] != 0 &&
      (s.block.x != k.reqntid[0] || s.block.y != std::max(1u, k.reqntid[1]) ||
       s.block.z != std::max(1u, k.reqntid[2]))) {
    return error(Code::kInvalidValue,
                 fmt::format("cuLaunchKernel '{}': block ({}, {}, {}) differs from the kernel's "
                             ".reqntid ({}, {}, {})", k.name, s.block.x, s.block.y, s.block.z,
                             k.reqntid[0], k.reqntid[1], k.reqntid[2]));
  }
  uint32_t max_dynamic = max_dynamic_shared_bytes != 0 ? max_dynamic_shared_bytes
                                                       : default_max_dynamic_shared(k, arch);
  if (s.dynamic_shared_bytes > max_dynamic) {
    return error(Code::kInvalidValue,
                 fmt::format("cuLaunchKernel '{}': {} bytes of dynamic shared memory exceed the "
                             "limit of {} (static {} bytes, device limit {} per block; raise it "
                             "with CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)",
                             k.name, s.dynamic_shared_bytes, max_dynamic, k.shared_bytes,
                             arch.shared_bytes_per_block));
  }
  uint64_t shared_total = uint64_t{k.shared_bytes} + s.dynamic_shared_bytes;
  if (shared_total > static_cast<uint64_t>(arch.shared_bytes_per_block_optin)) {
    return error(Code::kInvalidValue,
                 fmt::format("cuLaunchKernel '{}': {} bytes of shared memory exceed the device "
                             "limit of {} per block", k.name, shared_total,
                             arch.shared_bytes_per_block_optin));
  }
  uint64_t warps = (threads + arch.warp_size - 1) / arch.warp_size;
  uint64_t regs = warps * round_up(uint64_t{k.regs_per_thread} * arch.warp_size,
                                   static_cast<uint64_t>(arch.register_alloc_unit));
  if (regs > static_cast<uint64_t>(arch.registers_per_block)) {
    return error(Code::kLaunchOutOfResources,
                 fmt::format("cuLaunchKernel '{}': {} threads x {} registers need {} registers, "
                             "the device has {} per block", k.name, threads, k.regs_per_thread,
                             regs, arch.registers_per_block));
  }
  return ok_status();
}

Status pack_params_into(const sxbin::KernelDesc& k, void** kernel_params, void** extra,
                        std::span<uint8_t> block) {
  CHECK(block.size() == k.param_bytes);
  std::fill(block.begin(), block.end(), uint8_t{0});
  if (kernel_params != nullptr && extra != nullptr) {
    return error(Code::kInvalidValue, fmt::format("cuLaunchKernel '{}': both kernelParams and "
                                                  "extra are given", k.name));
  }
  if (kernel_params != nullptr) {
    for (size_t i = 0; i < k.params.size(); ++i) {
      const sxbin::ParamDesc& p = k.params[i];
      if (kernel_params[i] == nullptr) {
        return error(Code::kInvalidValue,
                     fmt::format("cuLaunchKernel '{}': kernelParams[{}] is null", k.name, i));
      }
      std::memcpy(block.data() + p.offset, kernel_params[i], p.size);
    }
    return ok_status();
  }
  if (extra != nullptr) {
    const void* buffer = nullptr;
    const size_t* size = nullptr;
    for (size_t i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
      if (i > 64) {
        return error(Code::kInvalidValue, fmt::format("cuLaunchKernel '{}': extra is not "
                                                      "terminated by CU_LAUNCH_PARAM_END", k.name));
      }
      if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) {
        buffer = extra[i + 1];
      } else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE) {
        size = static_cast<const size_t*>(extra[i + 1]);
      } else {
        return error(Code::kInvalidValue,
                     fmt::format("cuLaunchKernel '{}': unknown extra option {}", k.name,
                                 fmt::ptr(extra[i])));
      }
    }
    if (k.param_bytes == 0) return ok_status();
    if (buffer == nullptr || size == nullptr) {
      return error(Code::kInvalidValue,
                   fmt::format("cuLaunchKernel '{}': extra needs both CU_LAUNCH_PARAM_BUFFER_POINTER"
                               " and CU_LAUNCH_PARAM_BUFFER_SIZE", k.name));
    }
    if (*size < k.param_bytes) {
      return error(Code::kInvalidValue,
                   fmt::format("cuLaunchKernel '{}': parameter buffer has {} bytes, the kernel "
                               "takes {}", k.name, *size, k.param_bytes));
    }
    std::memcpy(block.data(), buffer, k.param_bytes);
    return ok_status();
  }
  if (!k.params.empty()) {
    return error(Code::kInvalidValue,
                 fmt::format("cuLaunchKernel '{}': the kernel takes {} parameters but neither "
                             "kernelParams nor extra is given", k.name, k.params.size()));
  }
  return ok_status();
}

StatusOr<std::vector<uint8_t>> pack_params(const sxbin::KernelDesc& k, void** kernel_params,
                                           void** extra) {
  std::vector<uint8_t> block(k.param_bytes, 0);
  RETURN_IF_ERROR(pack_params_into(k, kernel_params, extra, block));
  return block;
}

int64_t max_co_resident_blocks(const sxbin::KernelDesc& kernel, const hw::ArchConfig& arch,
                               const LaunchShape& shape) {
  const int64_t per_sm = max_active_blocks_per_sm(
      arch, {static_cast<int64_t>(shape.block.count()), kernel.regs_per_thread, kernel.shared_bytes,
             shape.dynamic_shared_bytes, kernel.max_threads_per_block});
  return per_sm * arch.sm_count;
}

Status check_co_resident(const sxbin::KernelDesc& kernel, const hw::ArchConfig& arch,
                         const LaunchShape& shape) {
  const int64_t most = max_co_resident_blocks(kernel, arch, shape);
  const uint64_t blocks = shape.grid.count();
  if (blocks > static_cast<uint64_t>(most)) {
    return error(to_code(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE),
                 fmt::format("cooperative launch of '{}': {} blocks of {} threads ({} bytes of "
                             "dynamic shared memory) exceed the {} that can be resident at once "
                             "on {} SMs",
                             kernel.name, blocks, shape.block.count(), shape.dynamic_shared_bytes,
                             most, arch.sm_count));
  }
  return ok_status();
}

}  // namespace strata::cuda::driver
