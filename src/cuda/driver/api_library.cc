// Entry points: context-independent loading (cuLibrary*, cuKernel*; library.h).
#include "cuda/driver/api_util.h"
#include "cuda/driver/device.h"
#include "cuda/driver/library.h"
#include "cuda/driver/link.h"
#include "cuda/driver/module.h"

using namespace strata;
using namespace strata::cuda::driver;

namespace {

// Library load options: CU_LIBRARY_BINARY_IS_PRESERVED (only with code in memory).
StatusOr<bool> parse_library_options(const char* api, unsigned int count,
                                     const CUlibraryOption* options, void* const* values,
                                     bool from_file) {
  if (count > 0 && options == nullptr) return null_arg(api, "libraryOptions");
  bool preserve = false;
  for (unsigned int i = 0; i < count; ++i) {
    switch (options[i]) {
      case CU_LIBRARY_BINARY_IS_PRESERVED:
        if (from_file) {
          return error(Code::kInvalidValue, fmt::format("{}: CU_LIBRARY_BINARY_IS_PRESERVED "
                                                        "is invalid with a file",
                                                        api));
        }
        // The value is unused by CUDA (the option's presence is the hint).
        preserve = true;
        break;
      case CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE:
        return error(Code::kNotSupported,
                     fmt::format("{}: CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE is not "
                                 "supported by Strata",
                                 api));
      default:
        return error(Code::kInvalidValue, fmt::format("{}: unknown library option {}", api,
                                                      static_cast<int>(options[i])));
    }
  }
  (void)values;
  return preserve;
}

Status load_library(const char* api, CUlibrary* out, const void* code, bool preserve,
                    const JitLogOptions& log) {
  if (out == nullptr) return null_arg(api, "library");
  if (code == nullptr) return null_arg(api, "code");
  auto library = Library::load(code, preserve);
  if (!library.ok()) {
    write_log(log.error_log, log.error_log_size, library.status().message());
    return library.status();
  }
  *out = (*library)->handle();
  return ok_status();
}

// A context on `dev` for per-device queries: the current one when it is on `dev`, else
// the device's primary context (retained for the duration of `body`).
template <typename Body>
Status with_device_context(CUdevice dev, Body&& body) {
  ASSIGN_OR_RETURN(Device * d, device(dev));
  std::shared_ptr<Context> current = current_context();
  if (current && &current->device() == d) {
    RETURN_IF_ERROR(current->check());
    return body(*current);
  }
  ASSIGN_OR_RETURN(std::shared_ptr<Context> primary, d->retain_primary());
  Status status = primary->check();
  if (status.ok()) status = body(*primary);
  Status released = d->release_primary();
  return status.ok() ? released : status;
}

}  // namespace

CUresult CUDAAPI cuLibraryLoadData(CUlibrary* library, const void* code, CUjit_option* jitOptions,
                                   void** jitOptionsValues, unsigned int numJitOptions,
                                   CUlibraryOption* libraryOptions, void** libraryOptionValues,
                                   unsigned int numLibraryOptions) {
  return api_call("cuLibraryLoadData", [&]() -> Status {
    ASSIGN_OR_RETURN(JitLogOptions log,
                     parse_jit_options(numJitOptions, jitOptions, jitOptionsValues));
    ASSIGN_OR_RETURN(bool preserve,
                     parse_library_options("cuLibraryLoadData", numLibraryOptions, libraryOptions,
                                           libraryOptionValues, /*from_file=*/false));
    return load_library("cuLibraryLoadData", library, code, preserve, log);
  });
}

CUresult CUDAAPI cuLibraryLoadFromFile(CUlibrary* library, const char* fileName,
                                       CUjit_option* jitOptions, void** jitOptionsValues,
                                       unsigned int numJitOptions, CUlibraryOption* libraryOptions,
                                       void** libraryOptionValues, unsigned int numLibraryOptions) {
  return api_call("cuLibraryLoadFromFile", [&]() -> Status {
    if (fileName == nullptr) return null_arg("cuLibraryLoadFromFile", "fileName");
    ASSIGN_OR_RETURN(JitLogOptions log,
                     parse_jit_options(numJitOptions, jitOptions, jitOptionsValues));
    RETURN_IF_ERROR(parse_library_options("cuLibraryLoadFromFile", numLibraryOptions,
                                          libraryOptions, libraryOptionValues,
                                          /*from_file=*/true)
                        .status());
    ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, read_code_file(fileName));
    // The library copies the code; `bytes` may die after the call.
    return load_library("cuLibraryLoadFromFile", library, bytes.data(), /*preserve=*/false, log);
  });
}

CUresult CUDAAPI cuLibraryUnload(CUlibrary library) {
  return api_call("cuLibraryUnload", [&] { return unload_library(library); });
}

CUresult CUDAAPI cuLibraryGetKernel(CUkernel* pKernel, CUlibrary library, const char* name) {
  return api_call("cuLibraryGetKernel", [&]() -> Status {
    if (pKernel == nullptr || name == nullptr)
      return null_arg("cuLibraryGetKernel", "pKernel or name");
    ASSIGN_OR_RETURN(std::shared_ptr<Library> lib, live_library(library));
    ASSIGN_OR_RETURN(std::shared_ptr<Kernel> kernel, lib->kernel(name));
    *pKernel = kernel->handle();
    return ok_status();
  });
}

CUresult CUDAAPI cuLibraryGetKernelCount(unsigned int* count, CUlibrary lib) {
  return api_call("cuLibraryGetKernelCount", [&]() -> Status {
    if (count == nullptr) return null_arg("cuLibraryGetKernelCount", "count");
    ASSIGN_OR_RETURN(std::shared_ptr<Library> library, live_library(lib));
    *count = static_cast<unsigned int>(library->kernels().size());
    return ok_status();
  });
}

CUresult CUDAAPI cuLibraryEnumerateKernels(CUkernel* kernels, unsigned int numKernels,
                                           CUlibrary lib) {
  return api_call("cuLibraryEnumerateKernels", [&]() -> Status {
    if (kernels == nullptr) return null_arg("cuLibraryEnumerateKernels", "kernels");
    ASSIGN_OR_RETURN(std::shared_ptr<Library> library, live_library(lib));
    const auto& all = library->kernels();
    for (size_t i = 0; i < all.size() && i < numKernels; ++i) kernels[i] = all[i]->handle();
    return ok_status();
  });
}

CUresult CUDAAPI cuLibraryGetModule(CUmodule* pMod, CUlibrary library) {
  return api_call("cuLibraryGetModule", [&]() -> Status {
    if (pMod == nullptr) return null_arg("cuLibraryGetModule", "pMod");
    ASSIGN_OR_RETURN(std::shared_ptr<Library> lib, live_library(library));
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    ASSIGN_OR_RETURN(std::shared_ptr<Module> module, lib->module(*ctx));
    *pMod = module->handle();
    return ok_status();
  });
}

CUresult CUDAAPI cuLibraryGetGlobal(CUdeviceptr* dptr, size_t* bytes, CUlibrary library,
                                    const char* name) {
  return api_call("cuLibraryGetGlobal", [&]() -> Status {
    if (name == nullptr) return null_arg("cuLibraryGetGlobal", "name");
    if (dptr == nullptr && bytes == nullptr)
      return null_arg("cuLibraryGetGlobal", "dptr and bytes");
    ASSIGN_OR_RETURN(std::shared_ptr<Library> lib, live_library(library));
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    ASSIGN_OR_RETURN(std::shared_ptr<Module> module, lib->module(*ctx));
    ASSIGN_OR_RETURN(Module::Global g, module->global(name));
    if (dptr != nullptr) *dptr = g.va;
    if (bytes != nullptr) *bytes = g.size;
    return ok_status();
  });
}

CUresult CUDAAPI cuLibraryGetManaged(CUdeviceptr* dptr, size_t* bytes, CUlibrary library,
                                     const char* name) {
  return api_call("cuLibraryGetManaged", [&]() -> Status {
    if (name == nullptr) return null_arg("cuLibraryGetManaged", "name");
    if (dptr == nullptr && bytes == nullptr) {
      return null_arg("cuLibraryGetManaged", "dptr and bytes");
    }
    ASSIGN_OR_RETURN(std::shared_ptr<Library> lib, live_library(library));
    const sxbin::GlobalVar* variable = lib->binary().find_global(name);
    if (variable == nullptr || variable->space != sxbin::VarSpace::kManaged) {
      return error(Code::kNotFound, fmt::format("cuLibraryGetManaged: the library has no "
                                                "managed variable '{}'",
                                                name));
    }
    // Managed storage is one allocation for every context the library is loaded in
    // (managed_memory.h); loading it into the current context registers it.
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    ASSIGN_OR_RETURN(std::shared_ptr<Module> module, lib->module(*ctx));
    ASSIGN_OR_RETURN(Module::Global g, module->global(name));
    if (dptr != nullptr) *dptr = g.va;
    if (bytes != nullptr) *bytes = g.size;
    return ok_status();
  });
}

CUresult CUDAAPI cuLibraryGetUnifiedFunction(void** fptr, CUlibrary library, const char* symbol) {
  return api_call("cuLibraryGetUnifiedFunction", [&]() -> Status {
    if (fptr == nullptr || symbol == nullptr) {
      return null_arg("cuLibraryGetUnifiedFunction", "fptr or symbol");
    }
    RETURN_IF_ERROR(live_library(library).status());
    // No Strata device has CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS, for which CUDA
    // documents CUDA_ERROR_NOT_FOUND.
    return error(Code::kNotFound, fmt::format("cuLibraryGetUnifiedFunction: '{}': Strata devices "
                                              "have no unified function pointers",
                                              symbol));
  });
}

CUresult CUDAAPI cuKernelGetFunction(CUfunction* pFunc, CUkernel kernel) {
  return api_call("cuKernelGetFunction", [&]() -> Status {
    if (pFunc == nullptr) return null_arg("cuKernelGetFunction", "pFunc");
    ASSIGN_OR_RETURN(std::shared_ptr<Kernel> k, live_kernel(kernel));
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    ASSIGN_OR_RETURN(std::shared_ptr<Function> f, k->function(*ctx));
    *pFunc = f->handle();
    return ok_status();
  });
}

CUresult CUDAAPI cuKernelGetLibrary(CUlibrary* pLib, CUkernel kernel) {
  return api_call("cuKernelGetLibrary", [&]() -> Status {
    if (pLib == nullptr) return null_arg("cuKernelGetLibrary", "pLib");
    ASSIGN_OR_RETURN(std::shared_ptr<Kernel> k, live_kernel(kernel));
    *pLib = k->library().handle();
    return ok_status();
  });
}

CUresult CUDAAPI cuKernelGetName(const char** name, CUkernel hfunc) {
  return api_call("cuKernelGetName", [&]() -> Status {
    if (name == nullptr) return null_arg("cuKernelGetName", "name");
    if (hfunc == nullptr) return null_arg("cuKernelGetName", "hfunc");
    ASSIGN_OR_RETURN(std::shared_ptr<Kernel> k, live_kernel(hfunc));
    *name = k->name().c_str();
    return ok_status();
  });
}

CUresult CUDAAPI cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex, size_t* paramOffset,
                                      size_t* paramSize) {
  return api_call("cuKernelGetParamInfo", [&]() -> Status {
    if (paramOffset == nullptr) return null_arg("cuKernelGetParamInfo", "paramOffset");
    ASSIGN_OR_RETURN(std::shared_ptr<Kernel> k, live_kernel(kernel));
    const auto& params = k->desc().params;
    if (paramIndex >= params.size()) {
      return error(Code::kInvalidValue,
                   fmt::format("cuKernelGetParamInfo: '{}' has {} parameters, index {} is out "
                               "of range",
                               k->name(), params.size(), paramIndex));
    }
    *paramOffset = params[paramIndex].offset;
    if (paramSize != nullptr) *paramSize = params[paramIndex].size;
    return ok_status();
  });
}

CUresult CUDAAPI cuKernelGetAttribute(int* pi, CUfunction_attribute attrib, CUkernel kernel,
                                      CUdevice dev) {
  return api_call("cuKernelGetAttribute", [&]() -> Status {
    if (pi == nullptr) return null_arg("cuKernelGetAttribute", "pi");
    ASSIGN_OR_RETURN(std::shared_ptr<Kernel> k, live_kernel(kernel));
    ASSIGN_OR_RETURN(Device * d, device(dev));
    // What cuKernelSetAttribute set for the device is what this returns.
    Kernel::DeviceSettings s = k->settings(d);
    if (attrib == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES && s.max_dynamic_shared >= 0) {
      *pi = s.max_dynamic_shared;
      return ok_status();
    }
    if (attrib == CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT && s.carveout >= 0) {
      *pi = s.carveout;
      return ok_status();
    }
    return with_device_context(dev, [&](Context& ctx) -> Status {
      ASSIGN_OR_RETURN(std::shared_ptr<Function> f, k->function(ctx));
      CUresult result = cuFuncGetAttribute(pi, attrib, f->handle());
      if (result != CUDA_SUCCESS) {
        return error(to_code(result), fmt::format("cuKernelGetAttribute: attribute {} of '{}'",
                                                  static_cast<int>(attrib), k->name()));
      }
      return ok_status();
    });
  });
}

CUresult CUDAAPI cuKernelSetAttribute(CUfunction_attribute attrib, int val, CUkernel kernel,
                                      CUdevice dev) {
  return api_call("cuKernelSetAttribute", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<Kernel> k, live_kernel(kernel));
    ASSIGN_OR_RETURN(Device * d, device(dev));
    Kernel::DeviceSettings s = k->settings(d);
    switch (attrib) {
      case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: {
        const hw::ArchConfig& arch = d->arch();
        if (val < 0 || int64_t{val} + k->desc().shared_bytes > arch.shared_bytes_per_block_optin) {
          return error(Code::kInvalidValue,
                       fmt::format("cuKernelSetAttribute: {} bytes of dynamic shared memory "
                                   "exceed the opt-in limit of {} (static {})",
                                   val, arch.shared_bytes_per_block_optin, k->desc().shared_bytes));
        }
        s.max_dynamic_shared = val;
        break;
      }
      case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
        if (val < -1 || val > 100) {
          return error(Code::kInvalidValue, "cuKernelSetAttribute: carveout must be -1..100");
        }
        s.carveout = val;
        break;
      default:
        return error(Code::kInvalidValue, fmt::format("cuKernelSetAttribute: attribute {} cannot "
                                                      "be set",
                                                      static_cast<int>(attrib)));
    }
    k->set_settings(d, s);
    return ok_status();
  });
}

CUresult CUDAAPI cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice dev) {
  return api_call("cuKernelSetCacheConfig", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<Kernel> k, live_kernel(kernel));
    ASSIGN_OR_RETURN(Device * d, device(dev));
    if (config < CU_FUNC_CACHE_PREFER_NONE || config > CU_FUNC_CACHE_PREFER_EQUAL) {
      return error(Code::kInvalidValue, fmt::format("cuKernelSetCacheConfig: unknown cache "
                                                    "configuration {}",
                                                    static_cast<int>(config)));
    }
    // A preference only: Strata's shared memory and L1 sizes are fixed.
    Kernel::DeviceSettings s = k->settings(d);
    s.cache_config = static_cast<int>(config);
    k->set_settings(d, s);
    return ok_status();
  });
}
