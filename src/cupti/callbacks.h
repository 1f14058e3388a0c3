// CUPTI's Callback API: the one subscriber, the callbacks it enabled, and the dispatch of
// an API call's entry and exit (prof::ApiCall) as CUpti_CallbackData and of the driver's
// resource events (prof::ResourceEvent, through Session) as CUpti_ResourceData /
// CUpti_SynchronizeData.
//
// Domains: RUNTIME_API and DRIVER_API call back for the calls Strata records (the
// application's outermost CUDA call on a thread; the driver calls the runtime makes on
// its behalf are not reported). RESOURCE calls back for contexts, streams and modules
// (the cbids the driver reports: see Session::on_resource_event), SYNCHRONIZE for stream
// and context synchronisations. NVTX and STATE can be enabled but never call back.
//
// Thread-safe; enable state is read without locking on every API call.
#pragma once

#include <cupti_callbacks.h>
#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>

#include "prof/collector.h"

namespace strata::cupti {

class Callbacks {
 public:
  // One subscriber at a time: CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED for a second.
  CUptiResult subscribe(CUpti_SubscriberHandle* handle, CUpti_CallbackFunc callback,
                        void* userdata);
  CUptiResult unsubscribe(CUpti_SubscriberHandle handle);
  CUptiResult enable_callback(uint32_t enable, CUpti_SubscriberHandle handle,
                              CUpti_CallbackDomain domain, CUpti_CallbackId cbid);
  CUptiResult enable_domain(uint32_t enable, CUpti_SubscriberHandle handle,
                            CUpti_CallbackDomain domain);
  CUptiResult enable_all_domains(uint32_t enable, CUpti_SubscriberHandle handle);
  CUptiResult state(uint32_t* enable, CUpti_SubscriberHandle handle, CUpti_CallbackDomain domain,
                    CUpti_CallbackId cbid) const;
  // Calls the subscriber for `call` when its callback is enabled; `context` and
  // `context_uid` describe the calling thread's current context.
  void dispatch(const prof::ApiCall& call, CUcontext context, uint32_t context_uid);
  // Whether any API callback is enabled (dispatch needs the context only then).
  bool any_enabled(const prof::ApiCall& call) const;
  // Calls the subscriber with `data` (CUpti_ResourceData / CUpti_SynchronizeData) when
  // (`domain`, `cbid`) is enabled.
  void dispatch_other(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data);

 private:
  static constexpr size_t kRuntimeSize = CUPTI_RUNTIME_TRACE_CBID_SIZE;
  static constexpr size_t kDriverSize = CUPTI_DRIVER_TRACE_CBID_SIZE;
  // Enable flags of the cbids of one domain (index: cbid).
  template <size_t N>
  using Flags = std::array<std::atomic<uint8_t>, N>;

  bool valid(CUpti_SubscriberHandle handle) const;
  std::atomic<uint8_t>* flag(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);
  const std::atomic<uint8_t>* flag(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) const;
  void set_domain(CUpti_CallbackDomain domain, uint8_t value);

  mutable std::mutex mu_;
  std::atomic<CUpti_SubscriberHandle> handle_{nullptr};
  std::atomic<CUpti_CallbackFunc> callback_{nullptr};
  std::atomic<void*> userdata_{nullptr};
  Flags<kRuntimeSize> runtime_{};
  Flags<kDriverSize> driver_{};
  Flags<CUPTI_CBID_RESOURCE_SIZE> resource_{};
  Flags<CUPTI_CBID_SYNCHRONIZE_SIZE> synchronize_{};
  // Domains without callbacks in Strata: one flag each, for cuptiGetCallbackState.
  std::array<std::atomic<uint8_t>, CUPTI_CB_DOMAIN_SIZE> other_{};
};

}  // namespace strata::cupti
