// Entry points: contexts and primary contexts.
#include <algorithm>

#include "cuda/driver/api_profiler.h"
#include "cuda/driver/api_util.h"
#include "cuda/driver/array.h"
#include "cuda/driver/capture.h"
#include "cuda/driver/device.h"
#include "cuda/driver/device_attributes.h"
#include "cuda/driver/event.h"
#include "cuda/driver/module.h"
#include "cuda/driver/stream.h"
#include "cuda/driver/texture_object.h"

using namespace strata;
using namespace strata::cuda::driver;

namespace {

StatusOr<std::shared_ptr<Context>> live_context(CUcontext handle) {
  std::shared_ptr<Context> ctx = handles().contexts.find(handle);
  if (!ctx) return error(Code::kInvalidContext, fmt::format("context {} is not live", fmt::ptr(handle)));
  return ctx;
}

// Destroys what a context owns in the handle tables (its streams, events, modules).
void drop_context_objects(Context* ctx) {
  handles().streams.erase_if([ctx](const Stream& s) { return &s.context() == ctx; });
  handles().events.erase_if([ctx](const Event& e) { return &e.context() == ctx; });
  auto modules = handles().modules.erase_if([ctx](const Module& m) { return &m.context() == ctx; });
  for (const auto& m : modules) {
    for (const auto& f : m->functions()) handles().functions.erase(f.get());
  }
  forget_texture_objects(ctx);
  handles().arrays.erase_if([ctx](const Array& a) { return &a.context() == ctx; });
  handles().mipmapped_arrays.erase_if(
      [ctx](const MipmappedArray& m) { return &m.context() == ctx; });
}

}  // namespace

CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext* pctx, CUdevice dev) {
  return api_call("cuDevicePrimaryCtxRetain", [&]() -> Status {
    if (pctx == nullptr) return null_arg("cuDevicePrimaryCtxRetain", "pctx");
    ASSIGN_OR_RETURN(Device * d, device(dev));
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, d->retain_primary());
    *pctx = ctx->handle();
    return ok_status();
  });
}

CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice dev) {
  return api_call("cuDevicePrimaryCtxRelease", [&]() -> Status {
    ASSIGN_OR_RETURN(Device * d, device(dev));
    return d->release_primary();
  });
}

CUresult CUDAAPI cuDevicePrimaryCtxReset(CUdevice dev) {
  return api_call("cuDevicePrimaryCtxReset", [&]() -> Status {
    ASSIGN_OR_RETURN(Device * d, device(dev));
    unsigned int flags;
    int active;
    d->primary_state(&flags, &active);
    if (active) {
      // The primary context is gone for every thread; objects it owned die with it.
      ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, d->retain_primary());
      notify_context_destroy_starting(*ctx);  // before its objects go
      drop_context_objects(ctx.get());
      forget_current_context(ctx.get());
    }
    return d->reset_primary();
  });
}

CUresult CUDAAPI cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags) {
  return api_call("cuDevicePrimaryCtxSetFlags", [&]() -> Status {
    ASSIGN_OR_RETURN(Device * d, device(dev));
    return d->set_primary_flags(flags);
  });
}

CUresult CUDAAPI cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int* flags, int* active) {
  return api_call("cuDevicePrimaryCtxGetState", [&]() -> Status {
    if (flags == nullptr || active == nullptr) {
      return null_arg("cuDevicePrimaryCtxGetState", "flags or active");
    }
    ASSIGN_OR_RETURN(Device * d, device(dev));
    d->primary_state(flags, active);
    return ok_status();
  });
}

CUresult CUDAAPI cuCtxCreate(CUcontext* pctx, CUctxCreateParams* params, unsigned int flags,
                             CUdevice dev) {
  return api_call("cuCtxCreate", [&]() -> Status {
    if (pctx == nullptr) return null_arg("cuCtxCreate", "pctx");
    if (params != nullptr && (params->numExecAffinityParams != 0 || params->cigParams != nullptr)) {
      return error(Code::kNotSupported, "cuCtxCreate: execution affinity and CIG parameters are "
                                        "not supported");
    }
    ASSIGN_OR_RETURN(Device * d, device(dev));
    unsigned int sched = flags & CU_CTX_SCHED_MASK;
    if ((flags & ~static_cast<unsigned int>(CU_CTX_FLAGS_MASK)) != 0 ||
        (sched != 0 && sched != CU_CTX_SCHED_SPIN && sched != CU_CTX_SCHED_YIELD &&
         sched != CU_CTX_SCHED_BLOCKING_SYNC)) {
      return error(Code::kInvalidValue, fmt::format("cuCtxCreate: invalid flags {:#x}", flags));
    }
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, Context::create(d, flags, /*primary=*/false));
    handles().contexts.insert(ctx);
    push_current_context(ctx);
    *pctx = ctx->handle();
    notify_context_created(*ctx);
    return ok_status();
  });
}

CUresult CUDAAPI cuCtxDestroy(CUcontext handle) {
  return api_call("cuCtxDestroy", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, live_context(handle));
    if (ctx->primary()) {
      return error(Code::kInvalidContext, "cuCtxDestroy: cannot destroy a primary context "
                                          "(use cuDevicePrimaryCtxRelease)");
    }
    notify_context_destroy_starting(*ctx);
    (void)ctx->synchronize();
    drop_context_objects(ctx.get());
    ctx->mark_destroyed();
    handles().contexts.erase(handle);
    forget_current_context(ctx.get());
    return ok_status();
  });
}

CUresult CUDAAPI cuCtxSetCurrent(CUcontext handle) {
  return api_call("cuCtxSetCurrent", [&]() -> Status {
    if (handle == nullptr) {
      set_current_context(nullptr);
      return ok_status();
    }
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, live_context(handle));
    set_current_context(std::move(ctx));
    return ok_status();
  });
}

CUresult CUDAAPI cuCtxGetCurrent(CUcontext* pctx) {
  return api_call("cuCtxGetCurrent", [&]() -> Status {
    if (pctx == nullptr) return null_arg("cuCtxGetCurrent", "pctx");
    RETURN_IF_ERROR(initialized());
    std::shared_ptr<Context> ctx = current_context();
    *pctx = ctx ? ctx->handle() : nullptr;
    return ok_status();
  });
}

CUresult CUDAAPI cuCtxPushCurrent(CUcontext handle) {
  return api_call("cuCtxPushCurrent", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, live_context(handle));
    push_current_context(std::move(ctx));
    return ok_status();
  });
}

CUresult CUDAAPI cuCtxPopCurrent(CUcontext* pctx) {
  return api_call("cuCtxPopCurrent", [&]() -> Status {
    std::shared_ptr<Context> ctx = pop_current_context();
    if (!ctx) return error(Code::kInvalidContext, "cuCtxPopCurrent: no context is current");
    if (pctx != nullptr) *pctx = ctx->handle();
    return ok_status();
  });
}

CUresult CUDAAPI cuCtxSynchronize() {
  return api_call("cuCtxSynchronize", [&]() -> Status {
    RETURN_IF_ERROR(capture_check_unsafe("cuCtxSynchronize"));
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    {
      ScopedSync sync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE, *ctx, nullptr,
                      nullptr);
      RETURN_IF_ERROR(ctx->synchronize());
    }
    notify_context_synchronized(*ctx);
    return ok_status();
  });
}

CUresult CUDAAPI cuCtxGetDevice(CUdevice* dev) {
  return api_call("cuCtxGetDevice", [&]() -> Status {
    if (dev == nullptr) return null_arg("cuCtxGetDevice", "device");
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    *dev = ctx->device().ordinal();
    return ok_status();
  });
}

CUresult CUDAAPI cuCtxGetFlags(unsigned int* flags) {
  return api_call("cuCtxGetFlags", [&]() -> Status {
    if (flags == nullptr) return null_arg("cuCtxGetFlags", "flags");
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    *flags = ctx->flags();
    return ok_status();
  });
}

// ---- Limits (cuCtxSetLimit / cuCtxGetLimit; the values live in DeviceRuntime) ----

namespace {

Status unsupported_limit(const char* api, CUlimit limit) {
  return error(to_code(CUDA_ERROR_UNSUPPORTED_LIMIT),
               fmt::format("{}: limit {} is not supported", api, static_cast<int>(limit)));
}

// CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH exists only below compute capability 9.0 (cuda.h).
bool has_sync_depth(Context& ctx) { return ctx.device().arch().compute_major < 9; }

}  // namespace

CUresult CUDAAPI cuCtxSetLimit(CUlimit limit, size_t value) {
  return api_call("cuCtxSetLimit", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    DeviceRuntime& rt = ctx->device_runtime();
    switch (limit) {
      case CU_LIMIT_PRINTF_FIFO_SIZE:
        RETURN_IF_ERROR(ctx->synchronize());  // no running kernel still writes the old FIFO
        return rt.set_printf_fifo_size(value);
      case CU_LIMIT_STACK_SIZE:
        // Takes effect immediately: CUDA blocks until the preceding work is done.
        RETURN_IF_ERROR(ctx->synchronize());
        return rt.set_stack_size(value);
      case CU_LIMIT_MALLOC_HEAP_SIZE:
        return rt.set_heap_size(value);
      case CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH:
        if (!has_sync_depth(*ctx)) return unsupported_limit("cuCtxSetLimit", limit);
        return rt.set_sync_depth(value);
      case CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT:
        return rt.set_pending_launch_count(value);
      case CU_LIMIT_MAX_L2_FETCH_GRANULARITY:
        rt.set_l2_fetch_granularity(value);
        return ok_status();
      case CU_LIMIT_PERSISTING_L2_CACHE_SIZE: {
        ASSIGN_OR_RETURN(int max, device_attribute(ctx->device().arch(), ctx->device().ordinal(),
                                                   CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE));
        rt.set_persisting_l2_size(value, static_cast<uint64_t>(std::max(max, 0)));
        return ok_status();
      }
      default:
        return unsupported_limit("cuCtxSetLimit", limit);
    }
  });
}

CUresult CUDAAPI cuCtxGetLimit(size_t* value, CUlimit limit) {
  return api_call("cuCtxGetLimit", [&]() -> Status {
    if (value == nullptr) return null_arg("cuCtxGetLimit", "value");
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    DeviceRuntime& rt = ctx->device_runtime();
    switch (limit) {
      case CU_LIMIT_PRINTF_FIFO_SIZE: *value = rt.printf_fifo_size(); break;
      case CU_LIMIT_STACK_SIZE: *value = rt.stack_size(); break;
      case CU_LIMIT_MALLOC_HEAP_SIZE: *value = rt.heap_size(); break;
      case CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH:
        if (!has_sync_depth(*ctx)) return unsupported_limit("cuCtxGetLimit", limit);
        *value = rt.sync_depth();
        break;
      case CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT: *value = rt.pending_launch_count(); break;
      case CU_LIMIT_MAX_L2_FETCH_GRANULARITY: *value = rt.l2_fetch_granularity(); break;
      case CU_LIMIT_PERSISTING_L2_CACHE_SIZE: *value = rt.persisting_l2_size(); break;
      default: return unsupported_limit("cuCtxGetLimit", limit);
    }
    return ok_status();
  });
}

CUresult CUDAAPI cuCtxGetApiVersion(CUcontext handle, unsigned int* version) {
  return api_call("cuCtxGetApiVersion", [&]() -> Status {
    if (version == nullptr) return null_arg("cuCtxGetApiVersion", "version");
    std::shared_ptr<Context> ctx;
    if (handle == nullptr) {
      ASSIGN_OR_RETURN(ctx, checked_current_context());
    } else {
      ASSIGN_OR_RETURN(ctx, live_context(handle));
    }
    *version = 3020;  // the context API version of every context since CUDA 3.2
    return ok_status();
  });
}
