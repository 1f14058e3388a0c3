// Entry points: modules, functions and the PTX linker.
#include "cuda/driver/api_profiler.h"
#include "cuda/driver/api_util.h"
#include "cuda/driver/compute_capability.h"
#include "cuda/driver/device.h"
#include "cuda/driver/launch_config.h"
#include "cuda/driver/library.h"
#include "cuda/driver/link.h"
#include "cuda/driver/module.h"
#include "cuda/driver/module_image.h"

using namespace strata;
using namespace strata::cuda::driver;

namespace {

Status load_module(const char* api, CUmodule* out, const void* image, const JitLogOptions& log) {
  if (out == nullptr) return null_arg(api, "module");
  if (image == nullptr) return null_arg(api, "image");
  ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
  auto binary = load_module_image(image, ctx->device().arch());
  if (!binary.ok()) {
    write_log(log.error_log, log.error_log_size, binary.status().message());
    return binary.status();
  }
  std::string name = binary->kernels.empty() ? "module" : binary->kernels.front().ptx_source;
  ASSIGN_OR_RETURN(std::shared_ptr<Module> module,
                   Module::load(*ctx, std::move(binary).value(), std::move(name)));
  handles().modules.insert(module);
  for (const auto& f : module->functions()) handles().functions.insert(f);
  ctx->add_module(module);
  *out = module->handle();
  if (resource_hook_set()) {
    StatusOr<std::span<const uint8_t>> extent = module_image_extent(image);
    notify_module_loaded(*module, extent.ok() ? extent->data() : nullptr,
                         extent.ok() ? extent->size() : 0);
  }
  return ok_status();
}

}  // namespace

CUresult CUDAAPI cuModuleLoadData(CUmodule* module, const void* image) {
  return api_call("cuModuleLoadData", [&] { return load_module("cuModuleLoadData", module, image, {}); });
}

CUresult CUDAAPI cuModuleLoadDataEx(CUmodule* module, const void* image, unsigned int numOptions,
                                    CUjit_option* options, void** optionValues) {
  return api_call("cuModuleLoadDataEx", [&]() -> Status {
    ASSIGN_OR_RETURN(JitLogOptions log, parse_jit_options(numOptions, options, optionValues));
    return load_module("cuModuleLoadDataEx", module, image, log);
  });
}

CUresult CUDAAPI cuModuleLoadFatBinary(CUmodule* module, const void* fatCubin) {
  return api_call("cuModuleLoadFatBinary",
                  [&] { return load_module("cuModuleLoadFatBinary", module, fatCubin, {}); });
}

CUresult CUDAAPI cuModuleLoad(CUmodule* module, const char* fname) {
  return api_call("cuModuleLoad", [&]() -> Status {
    if (fname == nullptr) return null_arg("cuModuleLoad", "fname");
    ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, read_code_file(fname));
    return load_module("cuModuleLoad", module, bytes.data(), {});
  });
}

CUresult CUDAAPI cuModuleGetLoadingMode(CUmoduleLoadingMode* mode) {
  return api_call("cuModuleGetLoadingMode", [&]() -> Status {
    if (mode == nullptr) return null_arg("cuModuleGetLoadingMode", "mode");
    // cuModuleLoad* load every kernel of a module at once (libraries load lazily per
    // context, library.h, but that is not kernel loading).
    *mode = CU_MODULE_EAGER_LOADING;
    return ok_status();
  });
}

CUresult CUDAAPI cuModuleGetFunctionCount(unsigned int* count, CUmodule mod) {
  return api_call("cuModuleGetFunctionCount", [&]() -> Status {
    if (count == nullptr) return null_arg("cuModuleGetFunctionCount", "count");
    ASSIGN_OR_RETURN(std::shared_ptr<Module> module, live(handles().modules, mod, "module"));
    *count = static_cast<unsigned int>(module->functions().size());
    return ok_status();
  });
}

CUresult CUDAAPI cuModuleEnumerateFunctions(CUfunction* functions, unsigned int numFunctions,
                                            CUmodule mod) {
  return api_call("cuModuleEnumerateFunctions", [&]() -> Status {
    if (functions == nullptr) return null_arg("cuModuleEnumerateFunctions", "functions");
    ASSIGN_OR_RETURN(std::shared_ptr<Module> module, live(handles().modules, mod, "module"));
    const auto& all = module->functions();
    for (size_t i = 0; i < all.size() && i < numFunctions; ++i) functions[i] = all[i]->handle();
    return ok_status();
  });
}

CUresult CUDAAPI cuModuleUnload(CUmodule hmod) {
  return api_call("cuModuleUnload", [&]() -> Status {
    if (is_library_module(reinterpret_cast<const Module*>(hmod))) {
      return error(Code::kNotPermitted, "cuModuleUnload: the module belongs to a library "
                                        "(cuLibraryGetModule); unload the library instead");
    }
    // The resource event first, while the handle still resolves.
    if (std::shared_ptr<Module> live = handles().modules.find(hmod)) {
      notify_module_unload_starting(*live);
    }
    std::shared_ptr<Module> module = handles().modules.erase(hmod);
    if (!module) return error(Code::kInvalidHandle, "cuModuleUnload: module is not live");
    Status status = module->context().synchronize();  // no queued launch still uses it
    for (const auto& f : module->functions()) handles().functions.erase(f.get());
    module->context().remove_module(module.get());
    return status;
  });
}

CUresult CUDAAPI cuModuleGetFunction(CUfunction* hfunc, CUmodule hmod, const char* name) {
  return api_call("cuModuleGetFunction", [&]() -> Status {
    if (hfunc == nullptr || name == nullptr) return null_arg("cuModuleGetFunction", "hfunc or name");
    ASSIGN_OR_RETURN(std::shared_ptr<Module> module, live(handles().modules, hmod, "module"));
    RETURN_IF_ERROR(module->context().check());
    ASSIGN_OR_RETURN(std::shared_ptr<Function> f, module->function(name));
    *hfunc = f->handle();
    return ok_status();
  });
}

CUresult CUDAAPI cuModuleGetGlobal(CUdeviceptr* dptr, size_t* bytes, CUmodule hmod,
                                   const char* name) {
  return api_call("cuModuleGetGlobal", [&]() -> Status {
    if (name == nullptr) return null_arg("cuModuleGetGlobal", "name");
    ASSIGN_OR_RETURN(std::shared_ptr<Module> module, live(handles().modules, hmod, "module"));
    RETURN_IF_ERROR(module->context().check());
    ASSIGN_OR_RETURN(Module::Global g, module->global(name));
    if (dptr != nullptr) *dptr = g.va;
    if (bytes != nullptr) *bytes = g.size;
    return ok_status();
  });
}

CUresult CUDAAPI cuFuncGetAttribute(int* pi, CUfunction_attribute attrib, CUfunction hfunc) {
  return api_call("cuFuncGetAttribute", [&]() -> Status {
    if (pi == nullptr) return null_arg("cuFuncGetAttribute", "pi");
    ASSIGN_OR_RETURN(std::shared_ptr<Function> f, live(handles().functions, hfunc, "function"));
    const sxbin::KernelDesc& k = f->desc();
    const hw::ArchConfig& arch = f->module().context().device().arch();
    ComputeCapability reported = reported_compute_capability(arch);
    int cc = reported.major * 10 + reported.minor;
    switch (attrib) {
      case CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: {
        // The device limit, the kernel's .maxntid and what its registers allow.
        int64_t limit = arch.max_threads_per_block;
        if (k.max_threads_per_block != 0) limit = std::min<int64_t>(limit, k.max_threads_per_block);
        if (k.regs_per_thread > 0) {
          int64_t per_warp = (k.regs_per_thread * arch.warp_size + arch.register_alloc_unit - 1) /
                             arch.register_alloc_unit * arch.register_alloc_unit;
          limit = std::min<int64_t>(limit, arch.registers_per_block / per_warp * arch.warp_size);
        }
        *pi = static_cast<int>(limit);
        return ok_status();
      }
      case CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *pi = static_cast<int>(k.shared_bytes); return ok_status();
      case CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES:
        *pi = static_cast<int>(f->module().binary().const_bank_size);
        return ok_status();
      case CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: *pi = static_cast<int>(k.local_bytes); return ok_status();
      case CU_FUNC_ATTRIBUTE_NUM_REGS: *pi = static_cast<int>(k.regs_per_thread); return ok_status();
      case CU_FUNC_ATTRIBUTE_PTX_VERSION:
      case CU_FUNC_ATTRIBUTE_BINARY_VERSION: *pi = cc; return ok_status();
      case CU_FUNC_ATTRIBUTE_CACHE_MODE_CA: *pi = 0; return ok_status();
      case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
        // Exactly what was set; until then CUDA's default (48 KiB less the static part).
        *pi = static_cast<int>(f->max_dynamic_shared() != 0 ? f->max_dynamic_shared()
                                                             : default_max_dynamic_shared(k, arch));
        return ok_status();
      case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *pi = f->preferred_carveout(); return ok_status();
      case CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET:
      case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
      case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
      case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
      case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
      case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
        *pi = 0;
        return ok_status();
      default:
        return error(Code::kInvalidValue, fmt::format("cuFuncGetAttribute: unknown attribute {}",
                                                      static_cast<int>(attrib)));
    }
  });
}

CUresult CUDAAPI cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value) {
  return api_call("cuFuncSetAttribute", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<Function> f, live(handles().functions, hfunc, "function"));
    const hw::ArchConfig& arch = f->module().context().device().arch();
    switch (attrib) {
      case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
        if (value < 0 || int64_t{value} + f->desc().shared_bytes > arch.shared_bytes_per_block_optin) {
          return error(Code::kInvalidValue,
                       fmt::format("cuFuncSetAttribute: {} bytes of dynamic shared memory exceed "
                                   "the opt-in limit of {} (static {})", value,
                                   arch.shared_bytes_per_block_optin, f->desc().shared_bytes));
        }
        f->set_max_dynamic_shared(static_cast<uint32_t>(value));
        return ok_status();
      case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
        if (value < -1 || value > 100) {
          return error(Code::kInvalidValue, "cuFuncSetAttribute: carveout must be -1..100");
        }
        f->set_preferred_carveout(value);
        return ok_status();
      default:
        return error(Code::kInvalidValue, fmt::format("cuFuncSetAttribute: attribute {} cannot "
                                                      "be set", static_cast<int>(attrib)));
    }
  });
}

CUresult CUDAAPI cuLinkCreate(unsigned int numOptions, CUjit_option* options, void** optionValues,
                              CUlinkState* stateOut) {
  return api_call("cuLinkCreate", [&]() -> Status {
    if (stateOut == nullptr) return null_arg("cuLinkCreate", "stateOut");
    ASSIGN_OR_RETURN(JitLogOptions log, parse_jit_options(numOptions, options, optionValues));
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    auto state = std::make_shared<LinkState>(ctx->device().arch());
    state->set_error_log(log.error_log, log.error_log_size);
    handles().links.insert(state);
    *stateOut = state->handle();
    return ok_status();
  });
}

CUresult CUDAAPI cuLinkAddData(CUlinkState state, CUjitInputType type, void* data, size_t size,
                               const char* name, unsigned int numOptions, CUjit_option* options,
                               void** optionValues) {
  return api_call("cuLinkAddData", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<LinkState> link, live(handles().links, state, "link state"));
    RETURN_IF_ERROR(parse_jit_options(numOptions, options, optionValues).status());
    Status status = link->add(type, data, size, name);
    if (!status.ok()) link->write_error_log(status);
    return status;
  });
}

CUresult CUDAAPI cuLinkComplete(CUlinkState state, void** cubinOut, size_t* sizeOut) {
  return api_call("cuLinkComplete", [&]() -> Status {
    if (cubinOut == nullptr || sizeOut == nullptr) return null_arg("cuLinkComplete", "cubinOut or sizeOut");
    ASSIGN_OR_RETURN(std::shared_ptr<LinkState> link, live(handles().links, state, "link state"));
    auto image = link->complete();
    if (!image.ok()) {
      link->write_error_log(image.status());
      return image.status();
    }
    *cubinOut = const_cast<void*>(image->first);
    *sizeOut = image->second;
    return ok_status();
  });
}

CUresult CUDAAPI cuLinkDestroy(CUlinkState state) {
  return api_call("cuLinkDestroy", [&]() -> Status {
    if (!handles().links.erase(state)) {
      return error(Code::kInvalidHandle, "cuLinkDestroy: link state is not live");
    }
    return ok_status();
  });
}
