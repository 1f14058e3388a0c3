#include "cuda/runtime/registry.h"

#include <atomic>
#include <unordered_map>

#include "base/log.h"
#include "cuda/runtime/context.h"
#include "cuda/runtime/module_loader.h"

namespace strata::cuda::runtime {
namespace {

struct Registry {
  std::mutex mutex;
  std::unordered_map<const void*, KernelRecord*> kernels;
  // Every record by its own address (cudaGetKernel handles) and the records made for
  // library CUkernels by the CUkernel.
  std::unordered_map<const void*, KernelRecord*> handles;
  std::unordered_map<const void*, VariableRecord*> variables;
};

Registry& registry() {
  static auto* instance = new Registry();  // never destroyed: handles outlive exit
  return *instance;
}

// Fatbins registered and not yet unregistered, and whether the count went back to 0.
std::atomic<int> g_live_fatbins{0};
std::atomic<bool> g_unloading{false};

// Stores the managed address of each of the fatbin's __managed__ variables where host
// code reads it, and makes that address resolve as the symbol (caller holds
// fatbin.mutex). The driver binds a module's managed variables to one allocation in
// every context, so every device's load publishes the same addresses.
void publish_managed(FatbinRecord& fatbin, CUmodule module) {
  for (VariableRecord* variable : fatbin.managed) {
    CUdeviceptr address = 0;
    size_t size = 0;
    CUresult result = cuModuleGetGlobal(&address, &size, module, variable->device_name.c_str());
    if (result != CUDA_SUCCESS) {
      STRATA_LOG_ERROR("cudart: __managed__ variable '{}' is not in its module: {}",
                       variable->device_name, static_cast<int>(result));
      continue;
    }
    *variable->managed_pointer = reinterpret_cast<void*>(address);
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    r.variables[reinterpret_cast<const void*>(address)] = variable;
  }
}

}  // namespace

bool runtime_unloading() {
  return g_unloading.load(std::memory_order_acquire);
}

FatbinRecord* register_fatbin(const void* wrapper) {
  g_live_fatbins.fetch_add(1);
  auto* record = new FatbinRecord();
  record->wrapper = wrapper;
  auto parsed = fatbin::read_wrapper(wrapper);
  if (parsed.ok()) {
    record->parsed = std::move(parsed).value();
  } else {
    record->parse_status = parsed.status();
    STRATA_LOG_ERROR("cudart: cannot read the fatbin registered by the application: {}",
                     parsed.status().message());
  }
  return record;
}

void register_function(FatbinRecord* fatbin, const void* host_function, const char* name) {
  if (fatbin == nullptr || host_function == nullptr || name == nullptr) return;
  auto* record = new KernelRecord();
  record->fatbin = fatbin;
  record->host_function = host_function;
  record->device_name = name;
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.kernels[host_function] = record;
  r.handles[record] = record;
}

void register_variable(FatbinRecord* fatbin, const void* host_variable, const char* name,
                       size_t size, bool constant) {
  if (fatbin == nullptr || host_variable == nullptr || name == nullptr) return;
  auto* record = new VariableRecord();
  record->fatbin = fatbin;
  record->host_variable = host_variable;
  record->device_name = name;
  record->size = size;
  record->constant = constant;
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.variables[host_variable] = record;
}

void register_managed_variable(FatbinRecord* fatbin, void** host_pointer, const char* name,
                               size_t size) {
  if (fatbin == nullptr || host_pointer == nullptr || name == nullptr) return;
  auto* record = new VariableRecord();
  record->fatbin = fatbin;
  record->host_variable = host_pointer;
  record->device_name = name;
  record->size = size;
  record->managed_pointer = host_pointer;
  {
    std::lock_guard lock(fatbin->mutex);
    fatbin->managed.push_back(record);
  }
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.variables[host_pointer] = record;
}

void unregister_fatbin(FatbinRecord* fatbin) {
  if (g_live_fatbins.fetch_sub(1) == 1) g_unloading.store(true, std::memory_order_release);
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  std::erase_if(r.kernels, [fatbin](const auto& e) { return e.second->fatbin == fatbin; });
  std::erase_if(r.variables, [fatbin](const auto& e) { return e.second->fatbin == fatbin; });
}

KernelRecord* find_kernel(const void* host_function) {
  Registry& r = registry();
  {
    std::lock_guard lock(r.mutex);
    auto it = r.kernels.find(host_function);
    if (it != r.kernels.end()) return it->second;
  }
  // A cudaKernel_t from cudaLibraryGetKernel is a live CUkernel (the driver checks).
  const char* name = nullptr;
  auto* kernel = static_cast<CUkernel>(const_cast<void*>(host_function));
  const bool live_kernel = host_function != nullptr && cuKernelGetName(&name, kernel) == CUDA_SUCCESS;
  std::lock_guard lock(r.mutex);
  auto it = r.handles.find(host_function);
  if (!live_kernel) {
    // A handle of cudaGetKernel (a record's own address); not a library kernel's record
    // once that kernel is gone.
    return it != r.handles.end() && it->second->library_kernel == nullptr ? it->second : nullptr;
  }
  // Records are never freed (handles outlive everything): a new one when the address now
  // names another kernel.
  if (it != r.handles.end() && it->second->library_kernel == kernel &&
      it->second->device_name == name) {
    return it->second;
  }
  auto* record = new KernelRecord();
  record->host_function = host_function;
  record->device_name = name;
  record->library_kernel = kernel;
  r.handles[host_function] = record;
  return record;
}

VariableRecord* find_variable(const void* host_variable) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  auto it = r.variables.find(host_variable);
  return it == r.variables.end() ? nullptr : it->second;
}

CUresult fatbin_module(FatbinRecord* fatbin, int device, CUmodule* module) {
  if (!fatbin->parse_status.ok()) return CUDA_ERROR_INVALID_IMAGE;
  unsigned generation = device_generation(device);
  std::lock_guard lock(fatbin->mutex);
  FatbinRecord::Loaded& loaded = fatbin->modules[device];
  if (loaded.generation != generation || (loaded.module == nullptr &&
                                          loaded.result == CUDA_SUCCESS)) {
    DeviceLimits limits;
    CUresult result = device_limits(device, &limits);
    if (result != CUDA_SUCCESS) return result;
    loaded.generation = generation;
    loaded.module = nullptr;
    loaded.result = load_module(fatbin->parsed, limits.cc_major, limits.cc_minor,
                                &loaded.module);
    if (loaded.result == CUDA_SUCCESS) publish_managed(*fatbin, loaded.module);
  }
  *module = loaded.module;
  return loaded.result;
}

namespace {

// CUfunction -> host stub (or cudaKernel_t) of every function kernel_function handed out.
struct StubIndex {
  std::mutex mutex;
  std::unordered_map<CUfunction, const void*> stubs;
};

StubIndex& stub_index() {
  static StubIndex* index = new StubIndex;  // leaked: looked up during teardown too
  return *index;
}

void remember_stub(CUfunction function, const void* stub) {
  StubIndex& index = stub_index();
  std::lock_guard lock(index.mutex);
  index.stubs[function] = stub;
}

}  // namespace

const void* host_stub(CUfunction function) {
  StubIndex& index = stub_index();
  std::lock_guard lock(index.mutex);
  auto it = index.stubs.find(function);
  return it == index.stubs.end() ? nullptr : it->second;
}

CUresult kernel_function(KernelRecord* kernel, int device, CUfunction* function) {
  // The driver loads a library kernel into the current context on demand.
  if (kernel->library_kernel != nullptr) {
    CUresult result = cuKernelGetFunction(function, kernel->library_kernel);
    if (result == CUDA_SUCCESS) remember_stub(*function, kernel->host_function);
    return result;
  }
  unsigned generation = device_generation(device);
  {
    std::lock_guard lock(kernel->mutex);
    auto it = kernel->functions.find(device);
    if (it != kernel->functions.end() && it->second.first == generation) {
      *function = it->second.second;
      return CUDA_SUCCESS;
    }
  }
  CUmodule module = nullptr;
  CUresult result = fatbin_module(kernel->fatbin, device, &module);
  if (result != CUDA_SUCCESS) return result;
  CUfunction loaded = nullptr;
  result = cuModuleGetFunction(&loaded, module, kernel->device_name.c_str());
  if (result != CUDA_SUCCESS) {
    STRATA_LOG_ERROR("cudart: kernel '{}' is not in its module: {}", kernel->device_name,
                     static_cast<int>(result));
    return result;
  }
  remember_stub(loaded, kernel->host_function);
  std::lock_guard lock(kernel->mutex);
  kernel->functions[device] = {generation, loaded};
  *function = loaded;
  return CUDA_SUCCESS;
}

}  // namespace strata::cuda::runtime
