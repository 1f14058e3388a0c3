// Entry points: function queries and cache preferences that are not launches —
// cuFuncGetName, cuFuncGetParamInfo, cuFuncGetModule, cuFuncSetCacheConfig and the
// context-wide cuCtxSetCacheConfig / cuCtxGetCacheConfig.
//
// Cache preferences are hints: Strata's SMs have no L1/shared split to configure, so a
// valid CUfunc_cache is accepted (cuCtxGetCacheConfig reports the context's last
// setting, CU_FUNC_CACHE_PREFER_NONE by default) and changes nothing.
#include <cuda.h>

#include <map>
#include <memory>
#include <mutex>

#include "cuda/driver/api_util.h"
#include "cuda/driver/module.h"

using namespace strata;
using namespace strata::cuda::driver;

namespace {

Status check_cache_config(const char* api, CUfunc_cache config) {
  if (config < CU_FUNC_CACHE_PREFER_NONE || config > CU_FUNC_CACHE_PREFER_EQUAL) {
    return error(Code::kInvalidValue,
                 fmt::format("{}: unknown cache configuration {}", api, static_cast<int>(config)));
  }
  return ok_status();
}

// Each context's cuCtxSetCacheConfig value (a weak reference tells a live context from
// a destroyed one at the same address).
struct CacheConfigs {
  std::mutex mutex;
  std::map<const Context*, std::pair<std::weak_ptr<Context>, CUfunc_cache>> by_context;
};

CacheConfigs& cache_configs() {
  static CacheConfigs* configs = new CacheConfigs;  // never destroyed (teardown calls)
  return *configs;
}

}  // namespace

CUresult CUDAAPI cuFuncGetName(const char** name, CUfunction hfunc) {
  return api_call("cuFuncGetName", [&]() -> Status {
    if (name == nullptr || hfunc == nullptr) return null_arg("cuFuncGetName", "name or hfunc");
    ASSIGN_OR_RETURN(std::shared_ptr<Function> f, live(handles().functions, hfunc, "function"));
    *name = f->desc().name.c_str();  // lives as long as the module
    return ok_status();
  });
}

CUresult CUDAAPI cuFuncGetParamInfo(CUfunction func, size_t paramIndex, size_t* paramOffset,
                                    size_t* paramSize) {
  return api_call("cuFuncGetParamInfo", [&]() -> Status {
    if (paramOffset == nullptr) return null_arg("cuFuncGetParamInfo", "paramOffset");
    ASSIGN_OR_RETURN(std::shared_ptr<Function> f, live(handles().functions, func, "function"));
    const auto& params = f->desc().params;
    if (paramIndex >= params.size()) {
      return error(Code::kInvalidValue,
                   fmt::format("cuFuncGetParamInfo: '{}' takes {} parameters, index {} asked",
                               f->desc().name, params.size(), paramIndex));
    }
    *paramOffset = params[paramIndex].offset;
    if (paramSize != nullptr) *paramSize = params[paramIndex].size;
    return ok_status();
  });
}

CUresult CUDAAPI cuFuncGetModule(CUmodule* hmod, CUfunction hfunc) {
  return api_call("cuFuncGetModule", [&]() -> Status {
    if (hmod == nullptr) return null_arg("cuFuncGetModule", "hmod");
    ASSIGN_OR_RETURN(std::shared_ptr<Function> f, live(handles().functions, hfunc, "function"));
    *hmod = f->module().handle();
    return ok_status();
  });
}

CUresult CUDAAPI cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config) {
  return api_call("cuFuncSetCacheConfig", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<Function> f, live(handles().functions, hfunc, "function"));
    return check_cache_config("cuFuncSetCacheConfig", config);
  });
}

CUresult CUDAAPI cuCtxSetCacheConfig(CUfunc_cache config) {
  return api_call("cuCtxSetCacheConfig", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    RETURN_IF_ERROR(check_cache_config("cuCtxSetCacheConfig", config));
    CacheConfigs& configs = cache_configs();
    std::lock_guard<std::mutex> lock(configs.mutex);
    configs.by_context[ctx.get()] = {ctx, config};
    return ok_status();
  });
}

CUresult CUDAAPI cuCtxGetCacheConfig(CUfunc_cache* pconfig) {
  return api_call("cuCtxGetCacheConfig", [&]() -> Status {
    if (pconfig == nullptr) return null_arg("cuCtxGetCacheConfig", "pconfig");
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    CacheConfigs& configs = cache_configs();
    std::lock_guard<std::mutex> lock(configs.mutex);
    auto it = configs.by_context.find(ctx.get());
    *pconfig = it != configs.by_context.end() && it->second.first.lock() == ctx
                   ? it->second.second
                   : CU_FUNC_CACHE_PREFER_NONE;
    return ok_status();
  });
}
