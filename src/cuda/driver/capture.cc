#include "cuda/driver/capture.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "cuda/driver/api_profiler.h"
#include "cuda/driver/context.h"
#include "cuda/driver/cu_result.h"
#include "cuda/driver/event.h"
#include "cuda/driver/handles.h"
#include "cuda/driver/module.h"
#include "cuda/driver/stream.h"
#include "fmt/format.h"

namespace strata::cuda::driver {
namespace {

Status cu_error(CUresult result, std::string message) {
  return error(to_code(result), std::move(message));
}

struct Session {
  uint64_t id = 0;
  std::shared_ptr<Graph> graph;
  bool new_graph = true;
  CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_GLOBAL;
  std::thread::id thread;
  Stream* origin = nullptr;
  Context* context = nullptr;
  bool invalidated = false;
  bool ended = false;
  std::set<Stream*> streams;  // every stream taking part (origin included)
};

struct StreamState {
  std::shared_ptr<Session> session;
  unsigned long long stream_id = 0;  // guards against a reused Stream address
  std::vector<GraphNode*> dependencies;
  std::vector<GraphNode*> query_storage;  // cuStreamGetCaptureInfo's array
};

struct EventState {
  std::weak_ptr<Session> session;
  std::vector<GraphNode*> dependencies;
};

struct State {
  std::mutex mutex;
  std::map<const Stream*, StreamState> streams;
  std::map<const Event*, EventState> events;
  std::vector<std::weak_ptr<Session>> sessions;  // active ones
  uint64_t next_id = 1;
};

State& state() {
  static auto* s = new State();
  return *s;
}

thread_local CUstreamCaptureMode t_mode = CU_STREAM_CAPTURE_MODE_GLOBAL;

// The capture state of `stream`, or null (mutex held).
StreamState* find_locked(const Stream& stream) {
  auto& streams = state().streams;
  auto it = streams.find(&stream);
  if (it == streams.end()) return nullptr;
  if (it->second.stream_id != stream.id() || it->second.session->ended) {
    streams.erase(it);
    return nullptr;
  }
  return &it->second;
}

void invalidate_locked(Session& session) {
  session.invalidated = true;
}

std::vector<std::shared_ptr<Session>> active_sessions_locked() {
  std::vector<std::shared_ptr<Session>> out;
  auto& sessions = state().sessions;
  for (auto it = sessions.begin(); it != sessions.end();) {
    std::shared_ptr<Session> s = it->lock();
    if (!s || s->ended) {
      it = sessions.erase(it);
    } else {
      out.push_back(std::move(s));
      ++it;
    }
  }
  return out;
}

// Captures the legacy stream would implicitly depend on: sessions of its context with
// a blocking stream.
std::vector<std::shared_ptr<Session>> implicit_sessions_locked(const Stream& legacy) {
  std::vector<std::shared_ptr<Session>> out;
  if (legacy.kind() != Stream::Kind::kLegacy) return out;
  for (auto& s : active_sessions_locked()) {
    if (s->context != &legacy.context()) continue;
    for (Stream* st : s->streams) {
      if (st->blocking()) {
        out.push_back(s);
        break;
      }
    }
  }
  return out;
}

// For an operation on a non-capturing stream: the implicit-dependency error, if any.
std::optional<Status> check_implicit_locked(const Stream& stream) {
  auto sessions = implicit_sessions_locked(stream);
  if (sessions.empty()) return std::nullopt;
  for (auto& s : sessions) invalidate_locked(*s);
  return cu_error(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT,
                  "the legacy stream was used while a blocking stream captures");
}

Status invalidated_error() {
  return cu_error(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
                  "the capture sequence was invalidated by an earlier illegal operation");
}

Status unsupported_locked(StreamState& st, std::string what) {
  invalidate_locked(*st.session);
  return cu_error(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
                  fmt::format("{} is not permitted while the stream is capturing", what));
}

// Adds a node after the stream's dependencies and makes it the new dependency.
Status add_locked(StreamState& st, NodeParams params) {
  ASSIGN_OR_RETURN(GraphNode * node,
                   st.session->graph->add_node(std::move(params), st.dependencies));
  st.dependencies.assign(1, node);
  // Inside the captured call, under the capture lock (the hook must not capture).
  notify_graph_node_created(*node);
  return ok_status();
}

// Every node `roots` depend on, directly or not, plus the roots.
std::set<const GraphNode*> ancestors(const std::vector<GraphNode*>& roots) {
  std::set<const GraphNode*> seen;
  std::vector<const GraphNode*> work(roots.begin(), roots.end());
  while (!work.empty()) {
    const GraphNode* n = work.back();
    work.pop_back();
    if (!seen.insert(n).second) continue;
    for (const GraphNode* d : n->dependencies()) work.push_back(d);
  }
  return seen;
}

}  // namespace

Status begin_capture(Stream& stream, CUstreamCaptureMode mode, std::shared_ptr<Graph> graph,
                     std::span<GraphNode* const> dependencies) {
  if (mode != CU_STREAM_CAPTURE_MODE_GLOBAL && mode != CU_STREAM_CAPTURE_MODE_THREAD_LOCAL &&
      mode != CU_STREAM_CAPTURE_MODE_RELAXED) {
    return error(Code::kInvalidValue,
                 fmt::format("unknown capture mode {}", static_cast<int>(mode)));
  }
  if (stream.kind() == Stream::Kind::kLegacy) {
    return cu_error(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, "the legacy stream cannot capture");
  }
  std::lock_guard<std::mutex> lock(state().mutex);
  if (find_locked(stream) != nullptr) {
    return cu_error(CUDA_ERROR_ILLEGAL_STATE, "the stream is already capturing");
  }
  auto session = std::make_shared<Session>();
  session->id = state().next_id++;
  session->new_graph = graph == nullptr;
  session->graph = graph ? std::move(graph) : Graph::create();
  for (GraphNode* d : dependencies) {
    if (!session->graph->contains(d)) {
      return error(Code::kInvalidValue, "a dependency is not a node of the graph");
    }
  }
  session->mode = mode;
  session->thread = std::this_thread::get_id();
  session->origin = &stream;
  session->context = &stream.context();
  session->streams.insert(&stream);
  StreamState st;
  st.session = session;
  st.stream_id = stream.id();
  st.dependencies.assign(dependencies.begin(), dependencies.end());
  state().streams[&stream] = std::move(st);
  state().sessions.push_back(session);
  return ok_status();
}

StatusOr<std::shared_ptr<Graph>> end_capture(Stream& stream) {
  std::lock_guard<std::mutex> lock(state().mutex);
  StreamState* st = find_locked(stream);
  if (st == nullptr) return cu_error(CUDA_ERROR_ILLEGAL_STATE, "the stream is not capturing");
  std::shared_ptr<Session> session = st->session;
  if (session->origin != &stream) {
    return cu_error(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED,
                    "capture must be ended on the stream where it began");
  }
  if (session->mode != CU_STREAM_CAPTURE_MODE_RELAXED &&
      session->thread != std::this_thread::get_id()) {
    return cu_error(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD,
                    "capture must be ended by the thread that began it");
  }
  // Every joined stream's work must be reachable from the origin's last nodes.
  Status result = ok_status();
  if (session->invalidated) {
    result = invalidated_error();
  } else {
    std::set<const GraphNode*> reachable = ancestors(st->dependencies);
    for (Stream* other : session->streams) {
      if (other == &stream) continue;
      StreamState* os = find_locked(*other);
      if (os == nullptr) continue;
      for (GraphNode* n : os->dependencies) {
        if (reachable.count(n) == 0) {
          result = cu_error(CUDA_ERROR_STREAM_CAPTURE_UNJOINED,
                            "a stream forked into the capture was not joined back into the "
                            "origin stream");
        }
      }
    }
  }
  session->ended = true;
  for (Stream* s : session->streams) state().streams.erase(s);
  RETURN_IF_ERROR(result);
  if (session->new_graph) {
    handles().graphs.insert(session->graph);
    notify_graph_created(*session->graph);
  }
  return session->graph;
}

StatusOr<CaptureInfo> capture_info(Stream& stream) {
  std::lock_guard<std::mutex> lock(state().mutex);
  CaptureInfo info;
  StreamState* st = find_locked(stream);
  if (st == nullptr) {
    if (!implicit_sessions_locked(stream).empty()) {
      return cu_error(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT,
                      "the legacy stream is unusable while a blocking stream captures");
    }
    return info;
  }
  info.status = st->session->invalidated ? CU_STREAM_CAPTURE_STATUS_INVALIDATED
                                         : CU_STREAM_CAPTURE_STATUS_ACTIVE;
  info.id = st->session->id;
  info.graph = st->session->graph.get();
  info.dependencies = st->dependencies;
  st->query_storage = st->dependencies;
  return info;
}

const std::vector<GraphNode*>& capture_dependencies_storage(Stream& stream) {
  static const std::vector<GraphNode*> kEmpty;
  std::lock_guard<std::mutex> lock(state().mutex);
  StreamState* st = find_locked(stream);
  return st == nullptr ? kEmpty : st->query_storage;
}

Status update_capture_dependencies(Stream& stream, std::span<GraphNode* const> dependencies,
                                   unsigned int flags) {
  if (flags != CU_STREAM_ADD_CAPTURE_DEPENDENCIES && flags != CU_STREAM_SET_CAPTURE_DEPENDENCIES &&
      flags != 0) {
    return error(Code::kInvalidValue, fmt::format("unknown flags {:#x}", flags));
  }
  std::lock_guard<std::mutex> lock(state().mutex);
  StreamState* st = find_locked(stream);
  if (st == nullptr) return cu_error(CUDA_ERROR_ILLEGAL_STATE, "the stream is not capturing");
  if (st->session->invalidated) return invalidated_error();
  for (GraphNode* d : dependencies) {
    if (!st->session->graph->contains(d)) {
      return error(Code::kInvalidValue, "a dependency is not a node of the captured graph");
    }
  }
  if (flags == CU_STREAM_SET_CAPTURE_DEPENDENCIES) st->dependencies.clear();
  for (GraphNode* d : dependencies) {
    if (std::find(st->dependencies.begin(), st->dependencies.end(), d) == st->dependencies.end()) {
      st->dependencies.push_back(d);
    }
  }
  return ok_status();
}

StatusOr<CUstreamCaptureMode> exchange_capture_mode(CUstreamCaptureMode mode) {
  if (mode != CU_STREAM_CAPTURE_MODE_GLOBAL && mode != CU_STREAM_CAPTURE_MODE_THREAD_LOCAL &&
      mode != CU_STREAM_CAPTURE_MODE_RELAXED) {
    return error(Code::kInvalidValue,
                 fmt::format("unknown capture mode {}", static_cast<int>(mode)));
  }
  CUstreamCaptureMode old = t_mode;
  t_mode = mode;
  return old;
}

// --- hooks ----------------------------------------------------------------------------

std::optional<Status> capture_node(Stream& stream, bool async,
                                   const std::function<StatusOr<NodeParams>()>& make) {
  // Synchronous copies and fills are "potentially unsafe" calls (capture modes).
  if (!async) {
    if (Status unsafe = capture_check_unsafe("a synchronous copy or memset"); !unsafe.ok()) {
      return unsafe;
    }
  }
  std::lock_guard<std::mutex> lock(state().mutex);
  StreamState* st = find_locked(stream);
  if (st == nullptr) return check_implicit_locked(stream);
  if (st->session->invalidated) return invalidated_error();
  if (!async) return unsupported_locked(*st, "a synchronous operation");
  StatusOr<NodeParams> params = make();
  if (!params.ok()) return params.status();
  return add_locked(*st, std::move(params).value());
}

std::optional<Status> capture_copy(Stream& stream, uint64_t dst, uint64_t src, uint64_t bytes,
                                   bool async) {
  Context* ctx = &stream.context();
  return capture_node(stream, async, [&]() -> StatusOr<NodeParams> {
    if (bytes == 0) return NodeParams{};  // an empty node keeps the order
    CUDA_MEMCPY3D p{};
    p.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
    p.srcDevice = src;
    p.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
    p.dstDevice = dst;
    p.WidthInBytes = bytes;
    p.Height = 1;
    p.Depth = 1;
    return memcpy_node_params(p, ctx->handle());
  });
}

std::optional<Status> capture_fill(Stream& stream, uint64_t dst, uint64_t pitch, uint32_t value,
                                   uint64_t width, uint64_t height, uint32_t elem_size,
                                   bool async) {
  Context* ctx = &stream.context();
  return capture_node(stream, async, [&]() -> StatusOr<NodeParams> {
    if (width == 0 || height == 0) return NodeParams{};
    CUDA_MEMSET_NODE_PARAMS p{};
    p.dst = dst;
    p.pitch = pitch;
    p.value = value;
    p.elementSize = elem_size;
    p.width = width;
    p.height = height;
    return memset_node_params(p, ctx->handle());
  });
}

std::optional<Status> capture_copy_2d(Stream& stream, const CUDA_MEMCPY2D& c, bool async) {
  Context* ctx = &stream.context();
  return capture_node(stream, async, [&]() -> StatusOr<NodeParams> {
    if (c.WidthInBytes == 0 || c.Height == 0) return NodeParams{};
    CUDA_MEMCPY3D p{};
    p.srcXInBytes = c.srcXInBytes;
    p.srcY = c.srcY;
    p.srcMemoryType = c.srcMemoryType;
    p.srcHost = c.srcHost;
    p.srcDevice = c.srcDevice;
    p.srcArray = c.srcArray;
    p.srcPitch = c.srcPitch;
    p.srcHeight = c.Height;
    p.dstXInBytes = c.dstXInBytes;
    p.dstY = c.dstY;
    p.dstMemoryType = c.dstMemoryType;
    p.dstHost = c.dstHost;
    p.dstDevice = c.dstDevice;
    p.dstArray = c.dstArray;
    p.dstPitch = c.dstPitch;
    p.dstHeight = c.Height;
    p.WidthInBytes = c.WidthInBytes;
    p.Height = c.Height;
    p.Depth = 1;
    return memcpy_node_params(p, ctx->handle());
  });
}

std::optional<Status> capture_kernel(Stream& stream, Function& function, const LaunchShape& shape,
                                     void** kernel_params, void** extra) {
  return capture_node(stream, /*async=*/true, [&]() -> StatusOr<NodeParams> {
    if (&function.module().context() != &stream.context()) {
      return error(Code::kInvalidHandle, "the stream belongs to another context than the function");
    }
    CUDA_KERNEL_NODE_PARAMS p{};
    p.func = function.handle();
    p.gridDimX = shape.grid.x;
    p.gridDimY = shape.grid.y;
    p.gridDimZ = shape.grid.z;
    p.blockDimX = shape.block.x;
    p.blockDimY = shape.block.y;
    p.blockDimZ = shape.block.z;
    p.sharedMemBytes = shape.dynamic_shared_bytes;
    p.kernelParams = kernel_params;
    p.extra = extra;
    return kernel_node_params(p);
  });
}

std::optional<Status> capture_host_fn(Stream& stream, CUhostFn fn, void* user_data) {
  return capture_node(stream, /*async=*/true, [&]() -> StatusOr<NodeParams> {
    CUDA_HOST_NODE_PARAMS p{fn, user_data};
    return host_node_params(p);
  });
}

std::optional<Status> capture_callback(Stream& stream) {
  std::lock_guard<std::mutex> lock(state().mutex);
  StreamState* st = find_locked(stream);
  if (st == nullptr) return check_implicit_locked(stream);
  if (st->session->invalidated) return invalidated_error();
  return unsupported_locked(*st, "cuStreamAddCallback (use cuLaunchHostFunc)");
}

std::optional<Status> capture_mem_alloc(Stream& stream, uint64_t bytes, CUdeviceptr* dptr) {
  return capture_node(stream, /*async=*/true, [&]() -> StatusOr<NodeParams> {
    CUDA_MEM_ALLOC_NODE_PARAMS p{};
    p.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
    p.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    p.poolProps.location.id = 0;
    p.bytesize = bytes;
    ASSIGN_OR_RETURN(NodeParams params, mem_alloc_node_params(&p));
    *dptr = p.dptr;
    return params;
  });
}

std::optional<Status> capture_mem_free(Stream& stream, CUdeviceptr dptr) {
  return capture_node(stream, /*async=*/true, [&]() -> StatusOr<NodeParams> {
    if (!find_graph_allocation(dptr)) {
      return cu_error(
          CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
          fmt::format("cuMemFreeAsync of {:#x} (not graph memory) while capturing", dptr));
    }
    return mem_free_node_params(dptr);
  });
}

std::optional<Status> capture_event_record(Stream& stream, Event& event) {
  std::lock_guard<std::mutex> lock(state().mutex);
  StreamState* st = find_locked(stream);
  if (st == nullptr) {
    state().events.erase(&event);  // an ordinary record replaces a captured one
    return check_implicit_locked(stream);
  }
  if (st->session->invalidated) return invalidated_error();
  state().events[&event] = EventState{st->session, st->dependencies};
  return ok_status();
}

std::optional<Status> capture_event_record_node(Stream& stream, Event& event) {
  return capture_node(stream, /*async=*/true, [&]() -> StatusOr<NodeParams> {
    return event_node_params(CU_GRAPH_NODE_TYPE_EVENT_RECORD, event.handle());
  });
}

std::optional<Status> capture_event_wait(Stream& stream, Event& event, unsigned int flags) {
  std::lock_guard<std::mutex> lock(state().mutex);
  StreamState* st = find_locked(stream);
  auto ev = state().events.find(&event);
  std::shared_ptr<Session> event_session;
  if (ev != state().events.end()) {
    event_session = ev->second.session.lock();
    if (event_session && event_session->ended) event_session = nullptr;
  }
  if (st == nullptr) {
    if (!event_session) return check_implicit_locked(stream);
    // Fork: the stream joins the event's capture sequence.
    if (stream.kind() == Stream::Kind::kLegacy) {
      invalidate_locked(*event_session);
      return cu_error(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT,
                      "the legacy stream cannot join a capture sequence");
    }
    if (event_session->invalidated) return invalidated_error();
    StreamState joined;
    joined.session = event_session;
    joined.stream_id = stream.id();
    joined.dependencies = ev->second.dependencies;
    state().streams[&stream] = std::move(joined);
    event_session->streams.insert(&stream);
    return ok_status();
  }
  if (st->session->invalidated) return invalidated_error();
  if (!event_session) {
    if ((flags & CU_EVENT_WAIT_EXTERNAL) != 0) {
      ASSIGN_OR_RETURN(NodeParams p,
                       event_node_params(CU_GRAPH_NODE_TYPE_WAIT_EVENT, event.handle()));
      return add_locked(*st, std::move(p));
    }
    invalidate_locked(*st->session);
    return cu_error(CUDA_ERROR_STREAM_CAPTURE_ISOLATION,
                    "a capturing stream waited on an event recorded outside the capture "
                    "(use CU_EVENT_WAIT_EXTERNAL)");
  }
  if (event_session != st->session) {
    invalidate_locked(*st->session);
    invalidate_locked(*event_session);
    return cu_error(CUDA_ERROR_STREAM_CAPTURE_MERGE,
                    "waiting on an event of another capture sequence would merge them");
  }
  for (GraphNode* d : ev->second.dependencies) {
    if (std::find(st->dependencies.begin(), st->dependencies.end(), d) == st->dependencies.end()) {
      st->dependencies.push_back(d);
    }
  }
  return ok_status();
}

std::optional<Status> capture_stream_sync(Stream& stream) {
  std::lock_guard<std::mutex> lock(state().mutex);
  StreamState* st = find_locked(stream);
  if (st == nullptr) return check_implicit_locked(stream);
  if (st->session->invalidated) return invalidated_error();
  return unsupported_locked(*st, "synchronizing or querying a capturing stream");
}

std::optional<Status> capture_event_sync(Event& event) {
  std::lock_guard<std::mutex> lock(state().mutex);
  auto ev = state().events.find(&event);
  if (ev == state().events.end()) return std::nullopt;
  std::shared_ptr<Session> s = ev->second.session.lock();
  if (!s || s->ended) return std::nullopt;
  return cu_error(CUDA_ERROR_CAPTURED_EVENT, "the event was last recorded in a capturing stream");
}

Status capture_check_unsafe(const char* api) {
  if (t_mode == CU_STREAM_CAPTURE_MODE_RELAXED) return ok_status();
  std::lock_guard<std::mutex> lock(state().mutex);
  const std::thread::id me = std::this_thread::get_id();
  std::vector<std::shared_ptr<Session>> broken;
  for (auto& s : active_sessions_locked()) {
    const bool own = s->thread == me && s->mode != CU_STREAM_CAPTURE_MODE_RELAXED;
    const bool global =
        t_mode == CU_STREAM_CAPTURE_MODE_GLOBAL && s->mode == CU_STREAM_CAPTURE_MODE_GLOBAL;
    if (own || global) broken.push_back(s);
  }
  if (broken.empty()) return ok_status();
  for (auto& s : broken) invalidate_locked(*s);
  return cu_error(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
                  fmt::format("{} is not permitted while a stream capture is in progress "
                              "(CUstreamCaptureMode)",
                              api));
}

void capture_forget_event(const Event* event) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().events.erase(event);
}

}  // namespace strata::cuda::driver
