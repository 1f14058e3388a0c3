// Entry points: stream and event lifetime (the stream-ordered operations are in
// api_stream_ops.inc, compiled once per default-stream flavour).
#include "cuda/driver/api_profiler.h"
#include "cuda/driver/api_util.h"
#include "cuda/driver/capture.h"
#include "cuda/driver/event.h"
#include "cuda/driver/stream.h"

using namespace strata;
using namespace strata::cuda::driver;

CUresult CUDAAPI cuStreamCreate(CUstream* phStream, unsigned int Flags) {
  return api_call("cuStreamCreate", [&]() -> Status {
    if (phStream == nullptr) return null_arg("cuStreamCreate", "phStream");
    if ((Flags & ~static_cast<unsigned int>(CU_STREAM_NON_BLOCKING)) != 0) {
      return error(Code::kInvalidValue, fmt::format("cuStreamCreate: unknown flags {:#x}", Flags));
    }
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    ASSIGN_OR_RETURN(std::shared_ptr<Stream> s, Stream::create(ctx.get(), Stream::Kind::kUser, Flags));
    handles().streams.insert(s);
    *phStream = s->handle();
    notify_stream_created(*s);
    return ok_status();
  });
}

CUresult CUDAAPI cuStreamCreateWithPriority(CUstream* phStream, unsigned int flags, int priority) {
  // CUDA clamps out-of-range priorities (Stream::create), so every priority is accepted.
  return api_call("cuStreamCreateWithPriority", [&]() -> Status {
    if (phStream == nullptr) return null_arg("cuStreamCreateWithPriority", "phStream");
    if ((flags & ~static_cast<unsigned int>(CU_STREAM_NON_BLOCKING)) != 0) {
      return error(Code::kInvalidValue,
                   fmt::format("cuStreamCreateWithPriority: unknown flags {:#x}", flags));
    }
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                     Stream::create(ctx.get(), Stream::Kind::kUser, flags, priority));
    handles().streams.insert(s);
    *phStream = s->handle();
    notify_stream_created(*s);
    return ok_status();
  });
}

CUresult CUDAAPI cuCtxGetStreamPriorityRange(int* leastPriority, int* greatestPriority) {
  return api_call("cuCtxGetStreamPriorityRange", [&]() -> Status {
    RETURN_IF_ERROR(checked_current_context().status());
    // Either pointer may be NULL (that value is not returned).
    if (leastPriority != nullptr) *leastPriority = kLeastStreamPriority;
    if (greatestPriority != nullptr) *greatestPriority = kGreatestStreamPriority;
    return ok_status();
  });
}

CUresult CUDAAPI cuStreamDestroy(CUstream hStream) {
  return api_call("cuStreamDestroy", [&]() -> Status {
    // The resource event first, while the handle still resolves.
    if (std::shared_ptr<Stream> live = handles().streams.find(hStream)) {
      notify_stream_destroy_starting(*live);
    }
    std::shared_ptr<Stream> s = handles().streams.erase(hStream);
    if (!s) return error(Code::kInvalidHandle, "cuStreamDestroy: stream is not live");
    // Pending work still completes: the queue keeps what it needs alive; the stream's
    // registration with its context ends when the last reference drops.
    return ok_status();
  });
}

CUresult CUDAAPI cuEventCreate(CUevent* phEvent, unsigned int Flags) {
  return api_call("cuEventCreate", [&]() -> Status {
    if (phEvent == nullptr) return null_arg("cuEventCreate", "phEvent");
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    ASSIGN_OR_RETURN(std::shared_ptr<Event> e, Event::create(*ctx, Flags));
    handles().events.insert(e);
    *phEvent = e->handle();
    return ok_status();
  });
}

CUresult CUDAAPI cuEventDestroy(CUevent hEvent) {
  return api_call("cuEventDestroy", [&]() -> Status {
    if (!handles().events.erase(hEvent)) {
      return error(Code::kInvalidHandle, "cuEventDestroy: event is not live");
    }
    capture_forget_event(static_cast<const Event*>(static_cast<const void*>(hEvent)));
    return ok_status();
  });
}

CUresult CUDAAPI cuEventSynchronize(CUevent hEvent) {
  return api_call("cuEventSynchronize", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<Event> e, live(handles().events, hEvent, "event"));
    if (auto captured = capture_event_sync(*e)) return *captured;
    ScopedSync sync(CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE, e->context(), nullptr,
                    hEvent);
    RETURN_IF_ERROR(e->synchronize());
    return e->context().check();
  });
}

CUresult CUDAAPI cuEventQuery(CUevent hEvent) {
  return api_call("cuEventQuery", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<Event> e, live(handles().events, hEvent, "event"));
    RETURN_IF_ERROR(e->context().check());
    if (auto captured = capture_event_sync(*e)) return *captured;
    return e->query(/*observe=*/true);
  });
}

CUresult CUDAAPI cuEventElapsedTime(float* pMilliseconds, CUevent hStart, CUevent hEnd) {
  return api_call("cuEventElapsedTime", [&]() -> Status {
    if (pMilliseconds == nullptr) return null_arg("cuEventElapsedTime", "pMilliseconds");
    ASSIGN_OR_RETURN(std::shared_ptr<Event> start, live(handles().events, hStart, "event"));
    ASSIGN_OR_RETURN(std::shared_ptr<Event> end, live(handles().events, hEnd, "event"));
    RETURN_IF_ERROR(start->context().check());
    ASSIGN_OR_RETURN(*pMilliseconds, Event::elapsed_ms(*start, *end));
    return ok_status();
  });
}
