#include "cupti/callbacks.h"

#include <utility>

namespace strata::cupti {
namespace {

// The subscriber handle: an opaque address, only compared.
struct SubscriberToken {
  int unused;
};
SubscriberToken g_token;

CUpti_SubscriberHandle token_handle() {
  return reinterpret_cast<CUpti_SubscriberHandle>(&g_token);
}

bool known_domain(CUpti_CallbackDomain domain) {
  return domain > CUPTI_CB_DOMAIN_INVALID && domain < CUPTI_CB_DOMAIN_SIZE;
}

}  // namespace

CUptiResult Callbacks::subscribe(CUpti_SubscriberHandle* handle, CUpti_CallbackFunc callback,
                                 void* userdata) {
  if (handle == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  std::lock_guard lock(mu_);
  if (handle_.load() != nullptr) return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
  for (auto& f : runtime_) f.store(0);
  for (auto& f : driver_) f.store(0);
  for (auto& f : resource_) f.store(0);
  for (auto& f : synchronize_) f.store(0);
  for (auto& f : other_) f.store(0);
  userdata_.store(userdata);
  callback_.store(callback);
  handle_.store(token_handle());
  *handle = token_handle();
  return CUPTI_SUCCESS;
}

CUptiResult Callbacks::unsubscribe(CUpti_SubscriberHandle handle) {
  std::lock_guard lock(mu_);
  if (handle == nullptr || handle != handle_.load()) return CUPTI_ERROR_INVALID_PARAMETER;
  handle_.store(nullptr);
  callback_.store(nullptr);
  userdata_.store(nullptr);
  for (auto& f : runtime_) f.store(0);
  for (auto& f : driver_) f.store(0);
  for (auto& f : resource_) f.store(0);
  for (auto& f : synchronize_) f.store(0);
  for (auto& f : other_) f.store(0);
  return CUPTI_SUCCESS;
}

bool Callbacks::valid(CUpti_SubscriberHandle handle) const {
  return handle != nullptr && handle == handle_.load();
}

std::atomic<uint8_t>* Callbacks::flag(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  return const_cast<std::atomic<uint8_t>*>(std::as_const(*this).flag(domain, cbid));
}

const std::atomic<uint8_t>* Callbacks::flag(CUpti_CallbackDomain domain,
                                            CUpti_CallbackId cbid) const {
  switch (domain) {
    case CUPTI_CB_DOMAIN_RUNTIME_API:
      return cbid > CUPTI_RUNTIME_TRACE_CBID_INVALID && cbid < kRuntimeSize ? &runtime_[cbid]
                                                                            : nullptr;
    case CUPTI_CB_DOMAIN_DRIVER_API:
      return cbid > CUPTI_DRIVER_TRACE_CBID_INVALID && cbid < kDriverSize ? &driver_[cbid]
                                                                          : nullptr;
    case CUPTI_CB_DOMAIN_RESOURCE:
      return cbid > CUPTI_CBID_RESOURCE_INVALID && cbid < resource_.size() ? &resource_[cbid]
                                                                           : nullptr;
    case CUPTI_CB_DOMAIN_SYNCHRONIZE:
      return cbid > CUPTI_CBID_SYNCHRONIZE_INVALID && cbid < synchronize_.size()
                 ? &synchronize_[cbid]
                 : nullptr;
    default:
      return known_domain(domain) ? &other_[domain] : nullptr;
  }
}

void Callbacks::set_domain(CUpti_CallbackDomain domain, uint8_t value) {
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    for (auto& f : runtime_) f.store(value);
  } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    for (auto& f : driver_) f.store(value);
  } else if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
    for (auto& f : resource_) f.store(value);
  } else if (domain == CUPTI_CB_DOMAIN_SYNCHRONIZE) {
    for (auto& f : synchronize_) f.store(value);
  } else {
    other_[domain].store(value);
  }
}

CUptiResult Callbacks::enable_callback(uint32_t enable, CUpti_SubscriberHandle handle,
                                       CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  std::lock_guard lock(mu_);
  if (!valid(handle)) return CUPTI_ERROR_INVALID_PARAMETER;
  std::atomic<uint8_t>* f = flag(domain, cbid);
  if (f == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  f->store(enable != 0 ? 1 : 0);
  return CUPTI_SUCCESS;
}

CUptiResult Callbacks::enable_domain(uint32_t enable, CUpti_SubscriberHandle handle,
                                     CUpti_CallbackDomain domain) {
  std::lock_guard lock(mu_);
  if (!valid(handle) || !known_domain(domain)) return CUPTI_ERROR_INVALID_PARAMETER;
  set_domain(domain, enable != 0 ? 1 : 0);
  return CUPTI_SUCCESS;
}

CUptiResult Callbacks::enable_all_domains(uint32_t enable, CUpti_SubscriberHandle handle) {
  std::lock_guard lock(mu_);
  if (!valid(handle)) return CUPTI_ERROR_INVALID_PARAMETER;
  for (int d = CUPTI_CB_DOMAIN_INVALID + 1; d < CUPTI_CB_DOMAIN_SIZE; ++d) {
    set_domain(static_cast<CUpti_CallbackDomain>(d), enable != 0 ? 1 : 0);
  }
  return CUPTI_SUCCESS;
}

CUptiResult Callbacks::state(uint32_t* enable, CUpti_SubscriberHandle handle,
                             CUpti_CallbackDomain domain, CUpti_CallbackId cbid) const {
  if (enable == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  std::lock_guard lock(mu_);
  if (!valid(handle)) return CUPTI_ERROR_INVALID_PARAMETER;
  const std::atomic<uint8_t>* f = flag(domain, cbid);
  if (f == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  *enable = f->load();
  return CUPTI_SUCCESS;
}

bool Callbacks::any_enabled(const prof::ApiCall& call) const {
  if (callback_.load(std::memory_order_acquire) == nullptr) return false;
  CUpti_CallbackDomain domain = call.domain == prof::ApiDomain::kDriver
                                    ? CUPTI_CB_DOMAIN_DRIVER_API
                                    : CUPTI_CB_DOMAIN_RUNTIME_API;
  const std::atomic<uint8_t>* f = flag(domain, call.cbid);
  return f != nullptr && f->load(std::memory_order_relaxed) != 0;
}

void Callbacks::dispatch_other(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                               const void* data) {
  CUpti_CallbackFunc callback = callback_.load(std::memory_order_acquire);
  if (callback == nullptr) return;
  const std::atomic<uint8_t>* f = flag(domain, cbid);
  if (f == nullptr || f->load(std::memory_order_relaxed) == 0) return;
  callback(userdata_.load(std::memory_order_relaxed), domain, cbid, data);
}

void Callbacks::dispatch(const prof::ApiCall& call, CUcontext context, uint32_t context_uid) {
  if (!any_enabled(call)) return;
  CUpti_CallbackFunc callback = callback_.load(std::memory_order_acquire);
  if (callback == nullptr) return;
  CUpti_CallbackDomain domain = call.domain == prof::ApiDomain::kDriver
                                    ? CUPTI_CB_DOMAIN_DRIVER_API
                                    : CUPTI_CB_DOMAIN_RUNTIME_API;
  CUpti_CallbackData data{};
  data.callbackSite = call.exit ? CUPTI_API_EXIT : CUPTI_API_ENTER;
  data.functionName = call.function;
  data.functionParams = call.params;
  data.functionReturnValue = const_cast<void*>(call.return_value);
  data.symbolName = call.symbol_name;
  data.context = context;
  data.contextUid = context_uid;
  data.correlationData = call.correlation_data;
  data.correlationId = call.correlation_id;
  callback(userdata_.load(std::memory_order_relaxed), domain, call.cbid, &data);
}

}  // namespace strata::cupti
