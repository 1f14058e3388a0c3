// Shared helpers of the extern "C" entry points (api_*.cc): every entry point runs its
// body through api_call, which maps the Status to a CUresult in one place and keeps C++
// exceptions from crossing the C ABI. It is also where the calling thread's host virtual
// time advances (base/virtual_time.h): once per outermost entry (entry points calling
// entry points count once), by the CPU time spent outside Strata since the last exit
// and by the call's modeled cost (charge_api_cost).
#pragma once

#include <cuda.h>

#include <atomic>
#include <cstdint>
#include <new>

#include "base/status.h"
#include "base/virtual_time.h"
#include "cuda/driver/context.h"
#include "cuda/driver/cu_result.h"
#include "cuda/driver/handles.h"
#include "cuda/driver/host_worker.h"
#include "fmt/format.h"
#include "prof/api_ids.h"
#include "prof/collector.h"

namespace strata::cuda::driver {

// Adds the modeled host cost of `api` (perf::model_api_ns with the current context's
// device config; nothing without a current context) to the caller's virtual time.
void charge_api_cost(const char* api);

// The CUPTI driver id (prof/api_ids.h) of the entry point that calls api_call: the id
// named after the calling function when it is the exported entry point itself
// (`caller`, e.g. "cuMemAlloc_v2", "cuMemcpyHtoD_v2_ptds"); otherwise (helpers that
// serve several entry points) the id of `api`: cuda.h's binding of the name
// ("cuMemAlloc" -> cuMemAlloc_v2), or in translation units compiled with
// CUDA_API_PER_THREAD_DEFAULT_STREAM (api_*_per_thread.cc) its per-thread variant when
// it has one ("cuMemcpyHtoD" -> cuMemcpyHtoD_v2_ptds). Null: no id.
//
// One cache per api_call call site, remembering the last `api` seen there (helpers pass
// several names through one site): the name's address and the id's index in one word.
class DriverApiIdCache {
 public:
  const prof::ApiId* get(const char* api, const char* caller, bool per_thread) {
    const uint64_t key = reinterpret_cast<uintptr_t>(api);
    const uint64_t packed = packed_.load(std::memory_order_relaxed);
    if (packed != 0 && (packed >> 16) == key) return at(packed & 0xffff);
    const prof::ApiId* id = prof::driver_api_by_name(caller);
    if (id == nullptr && per_thread) id = prof::driver_api_id_per_thread(api);
    if (id == nullptr) id = prof::driver_api_id(api);
    const uint64_t slot = id != nullptr ? id - prof::driver_api_ids().data() + 1 : 0;
    if (key < (uint64_t{1} << 48)) packed_.store((key << 16) | slot, std::memory_order_relaxed);
    return id;
  }

 private:
  static const prof::ApiId* at(uint64_t slot) {
    return slot != 0 ? &prof::driver_api_ids()[slot - 1] : nullptr;
  }
  std::atomic<uint64_t> packed_{0};
};

#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
inline constexpr bool kApiPerThreadUnit = true;
#else
inline constexpr bool kApiPerThreadUnit = false;
#endif

template <bool kPerThread = kApiPerThreadUnit, typename Body>
CUresult api_call(const char* api, Body&& body, const char* caller = __builtin_FUNCTION()) {
  // CUDA API calls from inside a host function are not permitted (host_worker.h).
  if (on_host_worker_thread()) return CUDA_ERROR_NOT_PERMITTED;
  // Activity collection (prof/collector.h): records only the application's outermost
  // call; opened before the virtual-time scope so that the call's modeled cost falls
  // inside it.
  const prof::ApiId* id = nullptr;
  if (prof::active()) {
    static DriverApiIdCache cache;
    id = cache.get(api, caller, kPerThread);
  }
  prof::ApiScope activity(prof::ApiDomain::kDriver, id != nullptr ? id->cbid : 0,
                          id != nullptr ? id->name : nullptr,
                          id != nullptr ? id->function : nullptr, /*params=*/nullptr);
  vt::ApiScope scope;
  if (scope.outermost()) charge_api_cost(api);
  CUresult result;
  try {
    result = to_cu_result(api, body());
  } catch (const std::bad_alloc&) {
    result = CUDA_ERROR_OUT_OF_MEMORY;
  } catch (...) {
    result = CUDA_ERROR_UNKNOWN;
  }
  activity.set_result(static_cast<int32_t>(result));
  return result;
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
