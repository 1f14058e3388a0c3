#include "cuda/runtime/registry.h"

#include <unordered_map>

#include "base/log.h"
#include "cuda/runtime/context.h"
#include "cuda/runtime/module_loader.h"

namespace strata::cuda::runtime {
namespace {

struct Registry {
  std::mutex mutex;
  std::unordered_map<const void*, KernelRecord*> kernels;
  std::unordered_map<const void*, VariableRecord*> variables;
};

Registry& registry() {
  static auto* instance = new Registry();  // never destroyed: handles outlive exit
  return *instance;
}

}  // namespace

FatbinRecord* register_fatbin(const void* wrapper) {
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

void unregister_fatbin(FatbinRecord* fatbin) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  std::erase_if(r.kernels, [fatbin](const auto& e) { return e.second->fatbin == fatbin; });
  std::erase_if(r.variables, [fatbin](const auto& e) { return e.second->fatbin == fatbin; });
}

KernelRecord* find_kernel(const void* host_function) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  auto it = r.kernels.find(host_function);
  return it == r.kernels.end() ? nullptr : it->second;
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
  }
  *module = loaded.module;
  return loaded.result;
}

CUresult kernel_function(KernelRecord* kernel, int device, CUfunction* function) {
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
  std::lock_guard lock(kernel->mutex);
  kernel->functions[device] = {generation, loaded};
  *function = loaded;
  return CUDA_SUCCESS;
}

}  // namespace strata::cuda::runtime
