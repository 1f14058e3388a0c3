// Activity collection for the runtime's entry points (issue 6: every runtime API call).
//
// libcudart.so.13 records through the driver's collector (prof/collector.h lives in
// libcuda.so.1): when the runtime loads it fetches the driver's profiler table
// (prof/abi.h, cuGetExportTable) and from then on tests the driver's active() flag and
// opens ApiScopes in the driver. The exported entry points that have a CUPTI runtime id
// are generated wrappers (gen_api_wrappers.py) around the implementations, which
// api_rename.h (force-included into every runtime source) gives other symbol names, so
// calls between runtime functions are never recorded twice and the exported symbol set
// is unchanged.
//
// Cost when nothing collects: activity_active() is two loads. Thread-safe.
#pragma once

#include <cstdint>

#include "prof/abi.h"

namespace strata::cuda::runtime {

namespace detail {
// The driver's active() flag once the table is known, else a flag that stays 0.
extern const std::atomic<uint32_t>* g_activity_flag;
}  // namespace detail

inline bool activity_active() {
#if !defined(STRATA_ACTIVITY) || STRATA_ACTIVITY
  return detail::g_activity_flag->load(std::memory_order_relaxed) != 0;
#else
  return false;  // compiled out (prof/collector.h)
#endif
}

// One recorded runtime API call; construct only when activity_active(). `cbid`, `name`
// and `function` are the call's prof::ApiId; `params` the cbid's *_params struct, or
// null.
class RuntimeApiScope {
 public:
  RuntimeApiScope(uint32_t cbid, const char* name, const char* function, const void* params);
  ~RuntimeApiScope();
  RuntimeApiScope(const RuntimeApiScope&) = delete;
  RuntimeApiScope& operator=(const RuntimeApiScope&) = delete;

  void set_result(int32_t result) {
    if (open_) scope()->set_result(result);
  }
  void set_symbol_name(const char* symbol) {
    if (open_) scope()->set_symbol_name(symbol);
  }

 private:
  prof::ApiScope* scope() { return reinterpret_cast<prof::ApiScope*>(storage_); }
  alignas(prof::ApiScope) unsigned char storage_[sizeof(prof::ApiScope)];
  bool open_ = false;
};

// The device symbol of a kernel the runtime knows by its host function (cudaLaunchKernel)
// or handle (__cudaLaunchKernel's cudaKernel_t), null when unknown. Cheap: no locks
// beyond the registry's lookup.
const char* launch_symbol_by_host_function(const void* host_function);
const char* launch_symbol_by_kernel(const void* kernel);

}  // namespace strata::cuda::runtime
