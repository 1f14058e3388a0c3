// Module and Function: a Strata binary loaded into one context per the constant-bank
// ABI of compiler/sxbin/sxbin.h: code uploaded as a HAL Executable, .global variables
// allocated and initialised (with address relocations), the .const block bound as
// bank 2 and the symbol address table as bank 1.
// Functions are owned by their module and die with it. Thread-safe after load.
#pragma once

#include <cuda.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/status.h"
#include "compiler/sxbin/sxbin.h"
#include "cuda/driver/device_launch.h"
#include "cuda/driver/managed_memory.h"
#include "cuda/driver/source_lines.h"
#include "hal/buffer.h"
#include "hal/command_buffer.h"
#include "hal/executable.h"

namespace strata::cuda::driver {

class Context;
class Module;

class Function {
 public:
  Function(Module* module, int index) : module_(module), index_(index) {}
  CUfunction handle() { return reinterpret_cast<CUfunction>(this); }
  Module& module() const { return *module_; }
  int index() const { return index_; }  // kernel index in the executable
  const sxbin::KernelDesc& desc() const;

  // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES as set (0: never set, or set to 0:
  // the default limit, launch_config.h).
  uint32_t max_dynamic_shared() const { return max_dynamic_shared_.load(); }
  void set_max_dynamic_shared(uint32_t bytes) { max_dynamic_shared_.store(bytes); }
  int preferred_carveout() const { return carveout_.load(); }
  void set_preferred_carveout(int percent) { carveout_.store(percent); }

 private:
  Module* module_;
  int index_;
  std::atomic<uint32_t> max_dynamic_shared_{0};
  std::atomic<int> carveout_{-1};
};

class Module {
 public:
  // Loads `binary` into `context`. Errors: kInvalidImage (relocation to an unknown
  // symbol, executable rejected), kOutOfMemory.
  static StatusOr<std::shared_ptr<Module>> load(Context& context, sxbin::Binary binary,
                                                std::string name);
  ~Module();

  CUmodule handle() { return reinterpret_cast<CUmodule>(this); }
  Context& context() const { return *context_; }
  const sxbin::Binary& binary() const { return binary_; }
  const std::shared_ptr<hal::Executable>& executable() const { return executable_; }
  // True if a kernel that device code can launch (its address is taken) uses the device
  // heap: launches from this module then need the heap ready (dynamic parallelism).
  bool device_launches_need_heap() const { return device_launches_need_heap_; }
  // Constant banks 1 and 2 as bound to every dispatch of this module's kernels.
  const std::vector<hal::ConstBankBinding>& banks() const { return banks_; }

  // kNotFound if the module has no kernel `name`.
  StatusOr<std::shared_ptr<Function>> function(std::string_view name) const;
  const std::vector<std::shared_ptr<Function>>& functions() const { return functions_; }

  struct Global {
    uint64_t va = 0;
    uint64_t size = 0;
  };
  // kNotFound if the module has no global/const variable `name`.
  StatusOr<Global> global(std::string_view name) const;

  // "kernel 'k' PTX line 12 (file.cu:34)" for an instruction index of one of this
  // module's kernels; empty if the kernel is not in this module or has no line table.
  std::string describe_pc(std::string_view kernel, uint32_t pc) const;
  // The module's kernels' source lines (built on first use; outlives the module in the
  // profiler's pending records).
  std::shared_ptr<const SourceLines> source_lines() const;

  // Profiler resource events (api_profiler.h): a process-unique id (from 1), the copy of
  // the image it was loaded from kept while a client watches (for the unload event), and
  // "unload reported" (true the first time only).
  uint32_t resource_id() const { return resource_id_; }
  const std::vector<uint8_t>& resource_image() const { return resource_image_; }
  void set_resource_image(std::vector<uint8_t> image) { resource_image_ = std::move(image); }
  bool claim_unload_report() { return !unload_reported_.exchange(true); }

 private:
  Module(std::shared_ptr<Context> context, sxbin::Binary binary)
      : context_(std::move(context)), binary_(std::move(binary)) {}
  Status place(std::string name);

  std::shared_ptr<Context> context_;
  sxbin::Binary binary_;
  std::shared_ptr<hal::Executable> executable_;
  std::vector<std::shared_ptr<hal::Buffer>> buffers_;
  std::vector<std::shared_ptr<ManagedVariable>> managed_;  // kManaged variables' storage
  std::map<std::string, Global, std::less<>> globals_;
  std::vector<hal::ConstBankBinding> banks_;
  KernelDescriptors descriptors_;  // what device code launches (a kernel's address)
  bool device_launches_need_heap_ = false;
  std::vector<std::shared_ptr<Function>> functions_;
  mutable std::once_flag source_lines_once_;
  mutable std::shared_ptr<const SourceLines> source_lines_;
  const uint32_t resource_id_ = next_module_resource_id();
  std::vector<uint8_t> resource_image_;
  std::atomic<bool> unload_reported_{false};
  static uint32_t next_module_resource_id();
};

}  // namespace strata::cuda::driver
