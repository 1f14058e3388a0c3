#include "cuda/driver/launch.h"

#include <algorithm>
#include <array>
#include <optional>

#include "cuda/driver/capture.h"
#include "cuda/driver/context.h"
#include "cuda/driver/cooperative_launch.h"
#include "cuda/driver/device.h"
#include "cuda/driver/module.h"
#include "cuda/driver/stream.h"
#include "fmt/format.h"
#include "hw/contract/packets.h"

namespace strata::cuda::driver {

Status record_kernel(Function& function, const LaunchShape& shape,
                     std::span<const uint8_t> params, hal::CommandBuffer& cb,
                     const hal::ConstBankBinding* environment) {
  Module& module = function.module();
  Context& ctx = module.context();
  const sxbin::KernelDesc& desc = function.desc();
  // The module's banks plus the driver bank c[3] (printf FIFO, assert record), and a
  // cooperative launch's environment: at most one per hardware bank, kept on the stack
  // (no allocation per launch).
  const std::vector<hal::ConstBankBinding>& module_banks = module.banks();
  if (module_banks.size() + 2 > hw::kMaxConstBanks) {
    return error(Code::kInvalidImage, fmt::format("module binds {} constant banks",
                                                  module_banks.size()));
  }
  std::array<hal::ConstBankBinding, hw::kMaxConstBanks> bank_storage;
  size_t bank_count = 0;
  for (const hal::ConstBankBinding& b : module_banks) bank_storage[bank_count++] = b;
  // A kernel that calls malloc/free needs the device heap (allocated on first use).
  // So does one whose module lets device code launch such a kernel.
  if (desc.uses_device_heap || module.device_launches_need_heap()) {
    RETURN_IF_ERROR(ctx.device_runtime().prepare_heap());
  }
  ASSIGN_OR_RETURN(hal::ConstBankBinding driver_bank, ctx.device_runtime().bank());
  bank_storage[bank_count++] = driver_bank;
  // Local memory: the kernel's frame plus a call stack sized by the stack limit.
  const uint32_t local_bytes = ctx.device_runtime().launch_local_bytes(desc);
  // Kernels it launches from the device inherit the stack limit.
  RETURN_IF_ERROR(ctx.device_runtime().launch_queue().set_stack_bytes(static_cast<uint32_t>(
      std::min<uint64_t>(sxbin::kStackBytesPerLimitByte * ctx.device_runtime().stack_size(),
                         UINT32_MAX))));
  // A cooperative launch's own launch environment (c[4]) overrides the module's.
  if (environment != nullptr) bank_storage[bank_count++] = *environment;
  return cb.dispatch(module.executable(), function.index(),
                     {shape.grid.x, shape.grid.y, shape.grid.z},
                     {shape.block.x, shape.block.y, shape.block.z}, shape.dynamic_shared_bytes,
                     params, std::span<const hal::ConstBankBinding>(bank_storage.data(), bank_count),
                     local_bytes);
}

Status launch_kernel(Function& function, const LaunchShape& shape, Stream& stream,
                     void** kernel_params, void** extra, const LaunchOptions& options) {
  Module& module = function.module();
  Context& ctx = module.context();
  if (&stream.context() != &ctx) {
    return error(Code::kInvalidHandle, "cuLaunchKernel: the stream belongs to another context "
                                       "than the function");
  }
  // Graph kernel nodes have no cooperative form yet: refuse rather than capture a node
  // whose grid.sync() would trap.
  if (options.cooperative) {
    StatusOr<CaptureInfo> info = capture_info(stream);
    if (info.ok() && info->status != CU_STREAM_CAPTURE_STATUS_NONE) {
      return error(Code::kNotSupported,
                   fmt::format("cooperative launch of '{}' into a capturing stream: cooperative "
                               "graph kernel nodes are not supported yet",
                               function.desc().name));
    }
  }
  // On a capturing stream the launch becomes a kernel node (capture.h).
  if (auto captured = capture_kernel(stream, function, shape, kernel_params, extra)) {
    return *captured;
  }
  const sxbin::KernelDesc& desc = function.desc();
  RETURN_IF_ERROR(validate_launch(desc, ctx.device().arch(), shape, function.max_dynamic_shared()));
  // Most kernels' parameters fit on the stack: no allocation.
  std::array<uint8_t, 4096> small_params;
  std::vector<uint8_t> large_params;
  std::span<uint8_t> params(small_params.data(), desc.param_bytes);
  if (desc.param_bytes > small_params.size()) {
    large_params.resize(desc.param_bytes);
    params = large_params;
  }
  RETURN_IF_ERROR(pack_params_into(desc, kernel_params, extra, params));
  if (params.size() > hal::kMaxParamBytes) {
    return error(Code::kInvalidValue, fmt::format("cuLaunchKernel '{}': {} bytes of parameters "
                                                  "exceed {}", desc.name, params.size(),
                                                  hal::kMaxParamBytes));
  }
  std::optional<CooperativeEnvironment> cooperative;
  if (options.cooperative) {
    RETURN_IF_ERROR(check_co_resident(desc, ctx.device().arch(), shape));
    ASSIGN_OR_RETURN(cooperative, ctx.device_runtime().cooperative_environments().acquire());
  }
  ASSIGN_OR_RETURN(std::shared_ptr<hal::CommandBuffer> cb, stream.acquire_command_buffer());
  RETURN_IF_ERROR(record_kernel(function, shape, params, *cb,
                                cooperative ? &cooperative->bank : nullptr));
  RETURN_IF_ERROR(cb->finalize());
  // A cooperative grid's workspace lives until the grid is done.
  std::shared_ptr<void> keep_alive = cooperative ? std::move(cooperative->keep_alive) : nullptr;
  RETURN_IF_ERROR(options.priority
                      ? stream.submit_with_priority(*options.priority, cb, std::move(keep_alive))
                      : stream.submit(cb, {}, {}, std::move(keep_alive)));
  stream.recycle(std::move(cb));
  return ok_status();
}

}  // namespace strata::cuda::driver
