// The Callback API entry points (cupti_callbacks.h).
#define CUPTI_LIB 1
#include <cupti_callbacks.h>

#include <cstring>

#include "cupti/entry.h"
#include "cupti/session.h"
#include "prof/api_ids.h"

using strata::cupti::finish;
using strata::cupti::Session;

namespace {

// The domains cuptiSupportedDomains lists (NVTX and STATE can be enabled but never call
// back on Strata; see callbacks.h).
CUpti_CallbackDomain g_domains[] = {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_CB_DOMAIN_RUNTIME_API,
                                    CUPTI_CB_DOMAIN_RESOURCE,   CUPTI_CB_DOMAIN_SYNCHRONIZE,
                                    CUPTI_CB_DOMAIN_NVTX,       CUPTI_CB_DOMAIN_STATE};

// RESOURCE and SYNCHRONIZE callbacks need the driver's resource events.
void watch_resources_for(CUpti_CallbackDomain domain) {
  if (domain == CUPTI_CB_DOMAIN_RESOURCE || domain == CUPTI_CB_DOMAIN_SYNCHRONIZE) {
    Session::get().watch_resources();
  }
}

}  // namespace

extern "C" {

CUptiResult CUPTIAPI cuptiSupportedDomains(size_t* domainCount, CUpti_DomainTable* domainTable) {
  if (domainCount == nullptr || domainTable == nullptr) {
    return finish(CUPTI_ERROR_INVALID_PARAMETER);
  }
  *domainCount = sizeof g_domains / sizeof g_domains[0];
  *domainTable = g_domains;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiSubscribe(CUpti_SubscriberHandle* subscriber, CUpti_CallbackFunc callback,
                                    void* userdata) {
  if (subscriber == nullptr) return finish(CUPTI_ERROR_INVALID_PARAMETER);
  if (CUptiResult r = Session::get().initialize(); r != CUPTI_SUCCESS) return finish(r);
  return finish(Session::get().callbacks().subscribe(subscriber, callback, userdata));
}

CUptiResult CUPTIAPI cuptiSubscribe_v2(CUpti_SubscriberHandle* subscriber,
                                       CUpti_CallbackFunc callback, void* userdata,
                                       CUpti_SubscriberParams* pParams) {
  CUptiResult r = cuptiSubscribe(subscriber, callback, userdata);
  if (r == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED && pParams != nullptr &&
      pParams->oldSubscriberName != nullptr && pParams->oldSubscriberSize > 0) {
    // The existing subscriber is this process's other CUPTI client; CUPTI names it
    // "CUPTI for <name>" and Strata keeps no names.
    std::strncpy(pParams->oldSubscriberName, "CUPTI", pParams->oldSubscriberSize - 1);
    pParams->oldSubscriberName[pParams->oldSubscriberSize - 1] = '\0';
  }
  return r;
}

CUptiResult CUPTIAPI cuptiUnsubscribe(CUpti_SubscriberHandle subscriber) {
  return finish(Session::get().callbacks().unsubscribe(subscriber));
}

CUptiResult CUPTIAPI cuptiGetCallbackState(uint32_t* enable, CUpti_SubscriberHandle subscriber,
                                           CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  return finish(Session::get().callbacks().state(enable, subscriber, domain, cbid));
}

CUptiResult CUPTIAPI cuptiEnableCallback(uint32_t enable, CUpti_SubscriberHandle subscriber,
                                         CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  CUptiResult r = Session::get().callbacks().enable_callback(enable, subscriber, domain, cbid);
  if (r == CUPTI_SUCCESS && enable != 0) watch_resources_for(domain);
  return finish(r);
}

CUptiResult CUPTIAPI cuptiEnableDomain(uint32_t enable, CUpti_SubscriberHandle subscriber,
                                       CUpti_CallbackDomain domain) {
  CUptiResult r = Session::get().callbacks().enable_domain(enable, subscriber, domain);
  if (r == CUPTI_SUCCESS && enable != 0) watch_resources_for(domain);
  return finish(r);
}

CUptiResult CUPTIAPI cuptiEnableAllDomains(uint32_t enable, CUpti_SubscriberHandle subscriber) {
  CUptiResult r = Session::get().callbacks().enable_all_domains(enable, subscriber);
  if (r == CUPTI_SUCCESS && enable != 0) watch_resources_for(CUPTI_CB_DOMAIN_RESOURCE);
  return finish(r);
}

CUptiResult CUPTIAPI cuptiGetCallbackName(CUpti_CallbackDomain domain, uint32_t cbid,
                                          const char** name) {
  if (name == nullptr) return finish(CUPTI_ERROR_INVALID_PARAMETER);
  *name = nullptr;
  const strata::prof::ApiId* id = nullptr;
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) id = strata::prof::runtime_api_by_cbid(cbid);
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API) id = strata::prof::driver_api_by_cbid(cbid);
  if (id == nullptr) return finish(CUPTI_ERROR_INVALID_PARAMETER);
  *name = id->name;
  return CUPTI_SUCCESS;
}

}  // extern "C"
