#include "cuda/runtime/api_activity.h"

#include "cuda/runtime/registry.h"

namespace strata::cuda::runtime {
namespace {

const std::atomic<uint32_t> kNeverActive{0};
const prof::ProfilerTable* g_table = nullptr;

// Runs when libcudart loads, after libcuda.so.1 (a dependency) has initialised and before
// the application's constructors. Without the driver's runtime hooks nothing records.
__attribute__((constructor)) void find_profiler_table() {
  const void* found = nullptr;
  if (cuGetExportTable(&found, &prof::kProfilerTableId) != CUDA_SUCCESS || found == nullptr) {
    return;
  }
  const auto* table = static_cast<const prof::ProfilerTable*>(found);
  if (table->size < sizeof(prof::ProfilerTable) || table->active == nullptr ||
      table->open_api_scope == nullptr || table->close_api_scope == nullptr) {
    return;
  }
  g_table = table;
  detail::g_activity_flag = table->active;
}

}  // namespace

namespace detail {
const std::atomic<uint32_t>* g_activity_flag = &kNeverActive;
}  // namespace detail

RuntimeApiScope::RuntimeApiScope(uint32_t cbid, const char* name, const char* function,
                                 const void* params) {
  if (g_table == nullptr) return;
  g_table->open_api_scope(scope(), prof::ApiDomain::kRuntime, cbid, name, function, params);
  open_ = true;
}

RuntimeApiScope::~RuntimeApiScope() {
  if (open_) g_table->close_api_scope(scope());
}

const char* launch_symbol_by_host_function(const void* host_function) {
  KernelRecord* record = host_function != nullptr ? find_kernel(host_function) : nullptr;
  return record != nullptr && !record->device_name.empty() ? record->device_name.c_str() : nullptr;
}

const char* launch_symbol_by_kernel(const void* kernel) {
  const auto* record = static_cast<const KernelRecord*>(kernel);
  return record != nullptr && !record->device_name.empty() ? record->device_name.c_str() : nullptr;
}

}  // namespace strata::cuda::runtime
