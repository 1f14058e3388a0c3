#include "cuda/driver/launch.h"

#include <algorithm>

#include "cuda/driver/context.h"
#include "cuda/driver/device.h"
#include "cuda/driver/module.h"
#include "cuda/driver/stream.h"
#include "fmt/format.h"

namespace strata::cuda::driver {

Status launch_kernel(Function& function, const LaunchShape& shape, Stream& stream,
                     void** kernel_params, void** extra) {
  Module& module = function.module();
  Context& ctx = module.context();
  if (&stream.context() != &ctx) {
    return error(Code::kInvalidHandle, "cuLaunchKernel: the stream belongs to another context "
                                       "than the function");
  }
  const sxbin::KernelDesc& desc = function.desc();
  RETURN_IF_ERROR(validate_launch(desc, ctx.device().arch(), shape, function.max_dynamic_shared()));
  ASSIGN_OR_RETURN(std::vector<uint8_t> params, pack_params(desc, kernel_params, extra));
  if (params.size() > hal::kMaxParamBytes) {
    return error(Code::kInvalidValue, fmt::format("cuLaunchKernel '{}': {} bytes of parameters "
                                                  "exceed {}", desc.name, params.size(),
                                                  hal::kMaxParamBytes));
  }
  ASSIGN_OR_RETURN(std::shared_ptr<hal::CommandBuffer> cb, ctx.hal().create_command_buffer());
  // The module's banks plus the driver bank c[3] (printf FIFO, assert record).
  std::vector<hal::ConstBankBinding> banks = module.banks();
  // A kernel that calls malloc/free needs the device heap (allocated on first use).
  // So does one whose module lets device code launch such a kernel.
  if (desc.uses_device_heap || module.device_launches_need_heap()) {
    RETURN_IF_ERROR(ctx.device_runtime().prepare_heap());
  }
  ASSIGN_OR_RETURN(hal::ConstBankBinding driver_bank, ctx.device_runtime().bank());
  banks.push_back(driver_bank);
  // Local memory: the kernel's frame plus a call stack sized by the stack limit.
  const uint32_t local_bytes = ctx.device_runtime().launch_local_bytes(desc);
  // Kernels it launches from the device inherit the stack limit.
  RETURN_IF_ERROR(ctx.device_runtime().launch_queue().set_stack_bytes(static_cast<uint32_t>(
      std::min<uint64_t>(sxbin::kStackBytesPerLimitByte * ctx.device_runtime().stack_size(),
                         UINT32_MAX))));
  RETURN_IF_ERROR(cb->dispatch(module.executable(), function.index(),
                               {shape.grid.x, shape.grid.y, shape.grid.z},
                               {shape.block.x, shape.block.y, shape.block.z},
                               shape.dynamic_shared_bytes, params, banks, local_bytes));
  RETURN_IF_ERROR(cb->finalize());
  return stream.submit(std::move(cb));
}

}  // namespace strata::cuda::driver
