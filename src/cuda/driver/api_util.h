// Shared helpers of the extern "C" entry points (api_*.cc): every entry point runs its
// body through api_call, which maps the Status to a CUresult in one place and keeps C++
// exceptions from crossing the C ABI. It is also where the calling thread's host virtual
// time advances (base/virtual_time.h): once per outermost entry (entry points calling
// entry points count once), by the CPU time spent outside Strata since the last exit
// and by the call's modeled cost (charge_api_cost).
#pragma once

#include <cuda.h>

#include <new>

#include "base/status.h"
#include "base/virtual_time.h"
#include "cuda/driver/context.h"
#include "cuda/driver/cu_result.h"
#include "cuda/driver/handles.h"
#include "cuda/driver/host_worker.h"
#include "fmt/format.h"

namespace strata::cuda::driver {

// Adds the modeled host cost of `api` (perf::model_api_ns with the current context's
// device config; nothing without a current context) to the caller's virtual time.
void charge_api_cost(const char* api);

template <typename Body>
CUresult api_call(const char* api, Body&& body) {
  // CUDA API calls from inside a host function are not permitted (host_worker.h).
  if (on_host_worker_thread()) return CUDA_ERROR_NOT_PERMITTED;
  vt::ApiScope scope;
  if (scope.outermost()) charge_api_cost(api);
  try {
    return to_cu_result(api, body());
  } catch (const std::bad_alloc&) {
    return CUDA_ERROR_OUT_OF_MEMORY;
  } catch (...) {
    return CUDA_ERROR_UNKNOWN;
  }
}

inline Status null_arg(const char* api, const char* what) {
  return error(Code::kInvalidValue, fmt::format("{}: {} is null", api, what));
}

// A live object of `table` whose context is usable (sticky errors reported).
template <typename T>
StatusOr<std::shared_ptr<T>> live(HandleTable<T>& table, const void* handle, const char* what) {
  std::shared_ptr<T> object = table.find(handle);
  if (!object) {
    return error(Code::kInvalidHandle, fmt::format("{} {} is not live", what, fmt::ptr(handle)));
  }
  return object;
}

// Functions resolve CUkernel handles too (library.h: live_function): CUDA accepts a
// CUkernel wherever a CUfunction is taken, meaning its function in the current context.
StatusOr<std::shared_ptr<Function>> live_function(const void* handle);
inline StatusOr<std::shared_ptr<Function>> live(HandleTable<Function>&, const void* handle,
                                                const char*) {
  return live_function(handle);
}

}  // namespace strata::cuda::driver
