#include "cuda/driver/library.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unordered_set>

#include "cuda/driver/api_profiler.h"
#include "cuda/driver/context.h"
#include "cuda/driver/device.h"
#include "cuda/driver/handles.h"
#include "cuda/driver/module.h"
#include "cuda/driver/module_image.h"
#include "cuda/fatbin/wrapper.h"
#include "fmt/format.h"

namespace strata::cuda::driver {
namespace {

// The live libraries and kernels (never destroyed: entry points may run during static
// destruction), and the modules libraries loaded.
struct LibraryTables {
  HandleTable<Library> libraries;
  HandleTable<Kernel> kernels;
  std::mutex mutex;
  std::unordered_set<const Module*> library_modules;
};

LibraryTables& tables() {
  static auto* t = new LibraryTables();
  return *t;
}

// The bytes `code` spans, for the copy the library keeps; empty for a fatbin wrapper
// (kept by pointer).
StatusOr<std::span<const uint8_t>> code_extent(const void* code) {
  switch (fatbin::classify_module_image(code)) {
    case fatbin::ModuleImageKind::kPtx: {
      const char* text = static_cast<const char*>(code);
      return std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text),
                                      std::strlen(text) + 1);
    }
    case fatbin::ModuleImageKind::kFatbin:
      return fatbin::image_at(code);
    case fatbin::ModuleImageKind::kWrapper:
      return std::span<const uint8_t>();
    case fatbin::ModuleImageKind::kElf:
      return sxbin_image_at(code);
  }
  return error(Code::kInvalidImage, "unrecognised library image");
}

}  // namespace

const sxbin::KernelDesc& Kernel::desc() const {
  return library_->binary().kernels[index_];
}

StatusOr<std::shared_ptr<Function>> Kernel::function(Context& context) {
  ASSIGN_OR_RETURN(std::shared_ptr<Module> module, library_->module(context));
  return module->function(name_);
}

Kernel::DeviceSettings Kernel::settings(const Device* device) const {
  std::lock_guard lock(mutex_);
  auto it = settings_.find(device);
  return it == settings_.end() ? DeviceSettings{} : it->second;
}

void Kernel::set_settings(const Device* device, const DeviceSettings& settings) {
  {
    std::lock_guard lock(mutex_);
    settings_[device] = settings;
  }
  // Already-loaded functions of this device's contexts take the new values. The module
  // list is the library's; functions stay owned by their modules.
  for (const auto& f : library_->loaded_functions(name_)) {
    if (&f->module().context().device() == device) apply_settings(*f);
  }
}

void Kernel::apply_settings(Function& function) const {
  DeviceSettings s = settings(&function.module().context().device());
  if (s.max_dynamic_shared >= 0) function.set_max_dynamic_shared(s.max_dynamic_shared);
  if (s.carveout >= 0) function.set_preferred_carveout(s.carveout);
}

StatusOr<std::shared_ptr<Library>> Library::load(const void* code, bool preserve) {
  if (code == nullptr) return error(Code::kInvalidValue, "library code is null");
  ASSIGN_OR_RETURN(std::vector<Device*> all, devices());
  if (all.empty()) return error(Code::kNoDevice, "no Strata device");
  std::shared_ptr<Library> library(new Library());
  library->code_ = code;
  if (!preserve) {
    ASSIGN_OR_RETURN(std::span<const uint8_t> bytes, code_extent(code));
    if (!bytes.empty()) {
      library->owned_code_.assign(bytes.begin(), bytes.end());
      library->code_ = library->owned_code_.data();
    }
  }
  const hw::ArchConfig& arch = all.front()->arch();
  ASSIGN_OR_RETURN(library->binary_, load_module_image(library->code_, arch));
  library->arch_hash_ = arch.content_hash;
  for (size_t i = 0; i < library->binary_.kernels.size(); ++i) {
    library->kernels_.push_back(std::make_unique<Kernel>(
        library.get(), library->binary_.kernels[i].name, static_cast<int>(i)));
  }
  tables().libraries.insert(library);
  for (const auto& k : library->kernels_) {
    tables().kernels.insert(std::shared_ptr<Kernel>(library, k.get()));  // owns the library
  }
  return library;
}

Library::~Library() = default;

StatusOr<std::shared_ptr<Kernel>> Library::kernel(std::string_view name) {
  for (const auto& k : kernels_) {
    if (k->name() == name) return std::shared_ptr<Kernel>(shared_from_this(), k.get());
  }
  return error(Code::kNotFound, fmt::format("library has no kernel named '{}'", name));
}

StatusOr<std::shared_ptr<Module>> Library::module(Context& context) {
  bool loaded = false;
  ASSIGN_OR_RETURN(std::shared_ptr<Module> module, find_or_load_module(context, &loaded));
  // Outside mutex_: the profiler's hook may call the driver.
  if (loaded && resource_hook_set()) {
    if (!owned_code_.empty()) {
      notify_module_loaded(*module, owned_code_.data(), owned_code_.size());
    } else {
      StatusOr<std::span<const uint8_t>> extent = module_image_extent(code_);
      notify_module_loaded(*module, extent.ok() ? extent->data() : nullptr,
                           extent.ok() ? extent->size() : 0);
    }
  }
  return module;
}

StatusOr<std::shared_ptr<Module>> Library::find_or_load_module(Context& context, bool* loaded) {
  std::lock_guard lock(mutex_);
  // Forget modules whose context was destroyed or reset (they left the handle tables).
  std::erase_if(modules_, [](const std::shared_ptr<Module>& m) {
    return handles().modules.find(m.get()) == nullptr ||
           handles().contexts.find(&m->context()) == nullptr;
  });
  for (const auto& m : modules_) {
    if (&m->context() == &context) return m;
  }
  const hw::ArchConfig& arch = context.device().arch();
  sxbin::Binary binary;
  if (arch.content_hash == arch_hash_) {
    binary = binary_;
  } else {
    ASSIGN_OR_RETURN(binary, load_module_image(code_, arch));
  }
  std::string name = binary.kernels.empty() ? "library" : binary.kernels.front().ptx_source;
  ASSIGN_OR_RETURN(std::shared_ptr<Module> module,
                   Module::load(context, std::move(binary), std::move(name)));
  {
    std::lock_guard tables_lock(tables().mutex);
    tables().library_modules.insert(module.get());
  }
  for (const auto& f : module->functions()) {
    for (const auto& k : kernels_) {
      if (k->name() == f->desc().name) k->apply_settings(*f);
    }
  }
  handles().modules.insert(module);
  for (const auto& f : module->functions()) handles().functions.insert(f);
  context.add_module(module);
  modules_.push_back(module);
  *loaded = true;
  return module;
}

std::vector<std::shared_ptr<Function>> Library::loaded_functions(std::string_view kernel) {
  std::lock_guard lock(mutex_);
  std::vector<std::shared_ptr<Function>> out;
  for (const auto& m : modules_) {
    auto f = m->function(kernel);
    if (f.ok()) out.push_back(*f);
  }
  return out;
}

Status Library::unload_modules() {
  std::vector<std::shared_ptr<Module>> modules;
  {
    std::lock_guard lock(mutex_);
    modules.swap(modules_);
  }
  Status first = ok_status();
  for (const auto& m : modules) {
    if (handles().modules.find(m.get())) notify_module_unload_starting(*m);
    if (!handles().modules.erase(m.get())) continue;  // its context is gone already
    Status s = m->context().synchronize();            // no queued launch still uses it
    if (first.ok() && !s.ok()) first = s;
    for (const auto& f : m->functions()) handles().functions.erase(f.get());
    m->context().remove_module(m.get());
  }
  std::lock_guard tables_lock(tables().mutex);
  for (const auto& m : modules) tables().library_modules.erase(m.get());
  return first;
}

StatusOr<std::shared_ptr<Library>> live_library(CUlibrary handle) {
  std::shared_ptr<Library> library = tables().libraries.find(handle);
  if (!library) {
    return error(Code::kInvalidHandle, fmt::format("library {} is not live", fmt::ptr(handle)));
  }
  return library;
}

StatusOr<std::shared_ptr<Kernel>> live_kernel(CUkernel handle) {
  std::shared_ptr<Kernel> kernel = tables().kernels.find(handle);
  if (!kernel) {
    return error(Code::kInvalidHandle, fmt::format("kernel {} is not live", fmt::ptr(handle)));
  }
  return kernel;
}

Status unload_library(CUlibrary handle) {
  std::shared_ptr<Library> library = tables().libraries.erase(handle);
  if (!library) {
    return error(Code::kInvalidHandle, fmt::format("library {} is not live", fmt::ptr(handle)));
  }
  for (const auto& k : library->kernels()) tables().kernels.erase(k.get());
  return library->unload_modules();
}

StatusOr<std::vector<uint8_t>> read_code_file(const char* path) {
  if (path == nullptr) return error(Code::kInvalidValue, "file name is null");
  std::FILE* file = std::fopen(path, "rb");
  if (file == nullptr) {
    return error(Code::kFileNotFound,
                 fmt::format("cannot open '{}': {}", path, std::strerror(errno)));
  }
  std::vector<uint8_t> bytes;
  uint8_t chunk[65536];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof(chunk), file)) > 0) {
    bytes.insert(bytes.end(), chunk, chunk + n);
  }
  bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (failed) return error(Code::kFileNotFound, fmt::format("cannot read '{}'", path));
  if (bytes.empty()) return error(Code::kInvalidImage, fmt::format("'{}' is empty", path));
  bytes.push_back(0);  // PTX text is NUL-terminated; binary formats ignore the extra byte
  return bytes;
}

bool is_library_module(const Module* module) {
  std::lock_guard lock(tables().mutex);
  return tables().library_modules.contains(module);
}

StatusOr<std::shared_ptr<Function>> live_function(const void* handle) {
  if (std::shared_ptr<Function> f = handles().functions.find(handle)) return f;
  // CUDA lets a CUkernel stand where a CUfunction is taken (cuLaunchKernel, ...): its
  // function in the current context.
  if (std::shared_ptr<Kernel> kernel = tables().kernels.find(handle)) {
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    return kernel->function(*ctx);
  }
  return error(Code::kInvalidHandle, fmt::format("function {} is not live", fmt::ptr(handle)));
}

}  // namespace strata::cuda::driver
