// Stream capture (cuStreamBeginCapture .. cuStreamEndCapture): while a stream captures,
// its stream-ordered operations add graph nodes instead of executing.
//
// A capture sequence starts on its origin stream. Recording an event on a capturing
// stream remembers the stream's current dependencies in the event; a stream that waits
// on such an event joins the sequence (fork) or merges those dependencies (join).
// End capture returns the graph, or fails with CUDA_ERROR_STREAM_CAPTURE_UNJOINED when
// a joined stream's work is not reachable from the origin stream's last nodes, with
// CUDA_ERROR_STREAM_CAPTURE_INVALIDATED after an illegal operation, or with
// CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD (non-relaxed modes, another thread). Every
// stream of the sequence leaves it at end capture.
//
// Illegal operations return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED and invalidate the
// sequence (later captured operations return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED):
// synchronising or querying a capturing stream, synchronous copies on it, waiting on an
// event recorded outside the sequence (CUDA_ERROR_STREAM_CAPTURE_ISOLATION), and the
// "potentially unsafe" calls (cuMemAlloc, cuCtxSynchronize, synchronous copies, ...)
// that CUstreamCaptureMode prohibits: in GLOBAL mode while this thread or any thread
// captures in GLOBAL mode, in THREAD_LOCAL mode while this thread captures (not
// relaxed), never in RELAXED mode. The legacy stream used while a blocking stream of
// its context captures is CUDA_ERROR_STREAM_CAPTURE_IMPLICIT (and invalidates that
// capture). Querying or synchronising an event last recorded in a capture is
// CUDA_ERROR_CAPTURED_EVENT.
//
// The hooks (capture_*) are called first by each stream operation; nullopt means the
// stream is not capturing and the operation runs as usual. Thread-safe.
#pragma once

#include <cuda.h>

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "base/status.h"
#include "cuda/driver/graph.h"
#include "cuda/driver/launch_config.h"

namespace strata::cuda::driver {

class Event;
class Function;
class Stream;

// cuStreamBeginCapture(ToGraph): `graph` null captures into a new graph; `dependencies`
// (nodes of `graph`) start the origin stream's dependency set. kInvalidValue for the
// legacy stream, a stream already capturing or an unknown mode.
Status begin_capture(Stream& stream, CUstreamCaptureMode mode, std::shared_ptr<Graph> graph,
                     std::span<GraphNode* const> dependencies);
// cuStreamEndCapture: the captured graph (registered as a handle when it was new).
// kIllegalState if the stream is not capturing; for the origin stream only.
StatusOr<std::shared_ptr<Graph>> end_capture(Stream& stream);

struct CaptureInfo {
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  uint64_t id = 0;
  Graph* graph = nullptr;
  std::vector<GraphNode*> dependencies;
};
// cuStreamIsCapturing / cuStreamGetCaptureInfo; the legacy stream while a blocking
// stream captures is CUDA_ERROR_STREAM_CAPTURE_IMPLICIT (nothing invalidated).
StatusOr<CaptureInfo> capture_info(Stream& stream);
// The stream's dependency array, valid until the next capture call on the stream.
const std::vector<GraphNode*>& capture_dependencies_storage(Stream& stream);
// cuStreamUpdateCaptureDependencies (flags CU_STREAM_ADD/SET_CAPTURE_DEPENDENCIES).
// kIllegalState when the stream is not capturing.
Status update_capture_dependencies(Stream& stream, std::span<GraphNode* const> dependencies,
                                   unsigned int flags);
// cuThreadExchangeStreamCaptureMode: sets the thread's mode, returns the old one.
StatusOr<CUstreamCaptureMode> exchange_capture_mode(CUstreamCaptureMode mode);

// --- hooks ----------------------------------------------------------------------------

// Adds a node made by `make` to the stream's capture. `async` false (a synchronous
// call) is illegal on a capturing stream.
std::optional<Status> capture_node(Stream& stream, bool async,
                                   const std::function<StatusOr<NodeParams>()>& make);
// The same for any callable, passed by reference: no std::function allocation on the
// hot path (every launch and copy asks whether its stream is capturing).
// (A std::function argument still picks the overload above: non-templates win ties.)
template <typename Make>
std::optional<Status> capture_node(Stream& stream, bool async, const Make& make) {
  return capture_node(stream, async, std::function<StatusOr<NodeParams>()>(std::cref(make)));
}
// 1D copy and fill nodes (addresses are unified).
std::optional<Status> capture_copy(Stream& stream, uint64_t dst, uint64_t src, uint64_t bytes,
                                   bool async);
std::optional<Status> capture_fill(Stream& stream, uint64_t dst, uint64_t pitch, uint32_t value,
                                   uint64_t width, uint64_t height, uint32_t elem_size, bool async);
std::optional<Status> capture_copy_2d(Stream& stream, const CUDA_MEMCPY2D& p, bool async);
// A kernel launch (launch.cc refuses cooperative launches into a capture before this).
std::optional<Status> capture_kernel(Stream& stream, Function& function, const LaunchShape& shape,
                                     void** kernel_params, void** extra);
std::optional<Status> capture_host_fn(Stream& stream, CUhostFn fn, void* user_data);
// cuStreamAddCallback is not allowed in a capture.
std::optional<Status> capture_callback(Stream& stream);
std::optional<Status> capture_mem_alloc(Stream& stream, uint64_t bytes, CUdeviceptr* dptr);
std::optional<Status> capture_mem_free(Stream& stream, CUdeviceptr dptr);
std::optional<Status> capture_event_record(Stream& stream, Event& event);
// cuEventRecordWithFlags(CU_EVENT_RECORD_EXTERNAL): an event record node.
std::optional<Status> capture_event_record_node(Stream& stream, Event& event);
std::optional<Status> capture_event_wait(Stream& stream, Event& event, unsigned int flags);
// cuStreamSynchronize / cuStreamQuery of a capturing stream (or of the legacy stream
// while a blocking stream captures).
std::optional<Status> capture_stream_sync(Stream& stream);
// cuEventQuery / cuEventSynchronize / cuEventElapsedTime of an event last recorded in a
// capture.
std::optional<Status> capture_event_sync(Event& event);
// A potentially unsafe call (see above) from this thread: the error if the capture
// modes prohibit it now (and the captures it would break are invalidated).
Status capture_check_unsafe(const char* api);
// Forgets an event or stream that is being destroyed.
void capture_forget_event(const Event* event);

}  // namespace strata::cuda::driver
