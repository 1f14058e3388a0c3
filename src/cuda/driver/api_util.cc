#include "cuda/driver/api_util.h"

#include <cstring>

#include "cuda/driver/device.h"
#include "hw/perf/fast_model.h"

namespace strata::cuda::driver {
namespace {

// What the [host] section of the config prices the call as, from its name.
hw::perf::ApiCost api_cost_kind(const char* api) {
  if (std::strstr(api, "Launch") != nullptr) return hw::perf::ApiCost::kLaunch;
  if (std::strstr(api, "Memcpy") != nullptr || std::strstr(api, "Memset") != nullptr ||
      std::strstr(api, "Prefetch") != nullptr) {
    return hw::perf::ApiCost::kCopySubmit;
  }
  if (std::strstr(api, "Synchronize") != nullptr) return hw::perf::ApiCost::kSync;
  return hw::perf::ApiCost::kCall;
}

}  // namespace

void charge_api_cost(const char* api) {
  std::shared_ptr<Context> context = current_context();
  if (!context) return;
  vt::advance_by(hw::perf::model_api_ns(context->device().arch(), api_cost_kind(api)));
}

}  // namespace strata::cuda::driver
