// Library and Kernel: context-independent code (cuLibraryLoadData, CUDA 12+).
//
// A Library owns a copy of the code it was loaded from (PTX text, a fatbin image or a
// Strata binary) and is valid in every context: its module is loaded into a context on
// first use there (Library::module: cuKernelGetFunction, a launch of a CUkernel,
// cuLibraryGetGlobal, cuLibraryGetModule), as CUDA's lazy loading does. At load time the
// code is compiled once for the first device (the JIT cache makes later loads on devices
// of the same configuration cheap), so compile errors are reported by cuLibraryLoadData
// and the kernel list is known without a context.
//
// A Kernel (CUkernel) names one kernel of a library in every context; the per-device
// attributes cuKernelSetAttribute sets apply to the kernel's functions in every context
// of that device, present and future.
//
// Lifetime: cuLibraryUnload unloads the library's modules from every context and
// invalidates its kernels (their handles stop resolving). A module loaded for a library
// cannot be unloaded with cuModuleUnload (CUDA_ERROR_NOT_PERMITTED). A context destroyed
// or reset drops its module; the next use in a new context loads it again.
// Thread-safe.
#pragma once

#include <cuda.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "compiler/sxbin/sxbin.h"

namespace strata::cuda::driver {

class Context;
class Device;
class Function;
class Library;
class Module;

class Kernel {
 public:
  Kernel(Library* library, std::string name, int index)
      : library_(library), name_(std::move(name)), index_(index) {}
  CUkernel handle() { return reinterpret_cast<CUkernel>(this); }
  Library& library() const { return *library_; }
  const std::string& name() const { return name_; }
  // The kernel's description in the binary compiled at load time (its parameter layout
  // is the same on every device).
  const sxbin::KernelDesc& desc() const;

  // The kernel's function in `context`, loading the library there on first use.
  StatusOr<std::shared_ptr<Function>> function(Context& context);

  // Attributes set per device (cuKernelSetAttribute); -1 when not set.
  struct DeviceSettings {
    int max_dynamic_shared = -1;
    int carveout = -1;
    int cache_config = -1;
  };
  DeviceSettings settings(const Device* device) const;
  // Records the settings for `device` and applies them to the kernel's loaded functions
  // in that device's contexts (and to those loaded later).
  void set_settings(const Device* device, const DeviceSettings& settings);
  void apply_settings(Function& function) const;

 private:
  Library* library_;
  std::string name_;
  int index_;
  mutable std::mutex mutex_;
  std::map<const Device*, DeviceSettings> settings_;
};

class Library : public std::enable_shared_from_this<Library> {
 public:
  // Loads `code` (PTX text, a fatbin image or wrapper, a Strata binary). `preserve`:
  // CU_LIBRARY_BINARY_IS_PRESERVED, the caller keeps `code` alive until unload, else the
  // library copies it (a fatbin wrapper is never copied: like the registered fatbins it
  // points into, it must live as long as the library). Compiles for the first device
  // (kInvalidPtx, kNoBinaryForGpu, kInvalidImage as cuModuleLoadData reports them).
  static StatusOr<std::shared_ptr<Library>> load(const void* code, bool preserve);
  ~Library();

  CUlibrary handle() { return reinterpret_cast<CUlibrary>(this); }
  const sxbin::Binary& binary() const { return binary_; }
  const std::vector<std::unique_ptr<Kernel>>& kernels() const { return kernels_; }
  // kNotFound if the library has no kernel `name`. The pointer keeps the library alive.
  StatusOr<std::shared_ptr<Kernel>> kernel(std::string_view name);

  // The library's module in `context`, loaded (and registered in the handle tables,
  // marked as library-owned) on first use.
  StatusOr<std::shared_ptr<Module>> module(Context& context);
  // Unloads the library's modules from every context (after each context's queued work
  // has finished). The first error of those synchronisations is returned.
  Status unload_modules();
  // The kernel's functions in the contexts the library is loaded in.
  std::vector<std::shared_ptr<Function>> loaded_functions(std::string_view kernel);

 private:
  Library() = default;
  // module()'s work under mutex_; `loaded` says whether it loaded the module now.
  StatusOr<std::shared_ptr<Module>> find_or_load_module(Context& context, bool* loaded);

  std::vector<uint8_t> owned_code_;  // the copy `code_` points into, unless preserved
  const void* code_ = nullptr;
  std::string arch_hash_;  // configuration binary_ was compiled for
  sxbin::Binary binary_;
  std::vector<std::unique_ptr<Kernel>> kernels_;

  std::mutex mutex_;                              // guards modules_
  std::vector<std::shared_ptr<Module>> modules_;  // at most one per live context
};

// The live library or kernel behind a handle (kInvalidHandle otherwise). A kernel's
// pointer shares ownership of its library, so both stay valid for the caller even if
// another thread unloads the library meanwhile.
StatusOr<std::shared_ptr<Library>> live_library(CUlibrary handle);
StatusOr<std::shared_ptr<Kernel>> live_kernel(CUkernel handle);

// cuLibraryUnload: the library and its kernels stop resolving, its modules are unloaded.
Status unload_library(CUlibrary handle);

// A live CUfunction, or, for a live CUkernel, its function in the current context
// (loaded on demand): CUDA accepts a CUkernel wherever a CUfunction is taken.
// kInvalidHandle for anything else; kInvalidContext for a CUkernel without a context.
StatusOr<std::shared_ptr<Function>> live_function(const void* handle);

// The contents of a cubin/fatbin/PTX file, NUL-terminated (cuModuleLoad,
// cuLibraryLoadFromFile). kFileNotFound if it cannot be read, kInvalidImage if empty.
StatusOr<std::vector<uint8_t>> read_code_file(const char* path);

// True if `module` was loaded for a library.
bool is_library_module(const Module* module);

}  // namespace strata::cuda::driver
