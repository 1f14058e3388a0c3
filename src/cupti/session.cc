#include "cupti/session.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <type_traits>
#include <vector>

#include "base/log.h"
#include "cupti/activity_records.h"
#include "cupti/driver.h"

namespace strata::cupti {
namespace {

using GetExportTable = CUresult (*)(const void**, const CUuuid*);
using CtxGetCurrent = CUresult (*)(CUcontext*);

uint32_t gettid_now() {
  return static_cast<uint32_t>(syscall(SYS_gettid));
}

// External correlation ids pushed on this thread, per CUpti_ExternalCorrelationKind.
thread_local std::array<std::vector<uint64_t>, CUPTI_EXTERNAL_CORRELATION_KIND_SIZE> t_external_ids;
thread_local bool t_thread_noted = false;

}  // namespace

Session& Session::get() {
  static auto* session = new Session();  // leaked: see the header
  return *session;
}

bool supported_kind(CUpti_ActivityKind kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
    case CUPTI_ACTIVITY_KIND_MEMCPY:
    case CUPTI_ACTIVITY_KIND_MEMSET:
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
    case CUPTI_ACTIVITY_KIND_MARKER:
    case CUPTI_ACTIVITY_KIND_MARKER_DATA:
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION:
    case CUPTI_ACTIVITY_KIND_DEVICE:
    case CUPTI_ACTIVITY_KIND_CONTEXT:
      return true;
    default:
      return false;
  }
}

void Session::use_table(const prof::ProfilerTable* table) {
  std::lock_guard lock(init_mu_);
  test_table_ = table;
}

CUptiResult Session::initialize() {
  if (table() != nullptr) return CUPTI_SUCCESS;
  std::lock_guard lock(init_mu_);
  if (attached_) return CUPTI_SUCCESS;
  const prof::ProfilerTable* t = test_table_;
  if (t == nullptr) {
    auto get_export_table = reinterpret_cast<GetExportTable>(driver_symbol("cuGetExportTable"));
    const void* found = nullptr;
    if (get_export_table == nullptr ||
        get_export_table(&found, &prof::kProfilerTableId) != CUDA_SUCCESS || found == nullptr) {
      STRATA_LOG_WARN(
          "libcupti: libcuda.so.1 offers no Strata profiler table; "
          "CUPTI records nothing (is Strata's libcuda.so.1 first on the library path?)");
      return CUPTI_ERROR_NOT_INITIALIZED;
    }
    t = static_cast<const prof::ProfilerTable*>(found);
    if (t->size < sizeof(prof::ProfilerTable)) {
      STRATA_LOG_WARN("libcupti: libcuda.so.1's profiler table is older than libcupti's");
      return CUPTI_ERROR_NOT_INITIALIZED;
    }
  }
  table_.store(t, std::memory_order_release);
  attached_ = true;
  t->attach(this, prof::kWantApiCallbacks);
  STRATA_LOG_INFO("libcupti: Strata's CUPTI attached to the driver's profiler table");
  return CUPTI_SUCCESS;
}

CUptiResult Session::enable(CUpti_ActivityKind kind, bool on) {
  if (kind <= CUPTI_ACTIVITY_KIND_INVALID || kind >= CUPTI_ACTIVITY_KIND_COUNT) {
    return CUPTI_ERROR_INVALID_KIND;
  }
  if (!supported_kind(kind)) {
    if (!on) return CUPTI_SUCCESS;
    STRATA_LOG_INFO("libcupti: activity kind {} is not recorded by Strata", static_cast<int>(kind));
    return CUPTI_ERROR_NOT_COMPATIBLE;
  }
  if (on) {
    if (CUptiResult r = initialize(); r != CUPTI_SUCCESS) return r;
  }
  kinds_[kind].store(on ? 1 : 0, std::memory_order_relaxed);
  if (on && (kind == CUPTI_ACTIVITY_KIND_DEVICE || kind == CUPTI_ACTIVITY_KIND_CONTEXT)) {
    emit_known_objects(kind);
  }
  if (kind == CUPTI_ACTIVITY_KIND_RUNTIME) {
    for (auto& f : runtime_apis_) f.store(on ? 1 : 0, std::memory_order_relaxed);
  }
  if (kind == CUPTI_ACTIVITY_KIND_DRIVER) {
    for (auto& f : driver_apis_) f.store(on ? 1 : 0, std::memory_order_relaxed);
  }
  return CUPTI_SUCCESS;
}

CUptiResult Session::enable_api(prof::ApiDomain domain, uint32_t cbid, bool on) {
  bool runtime = domain == prof::ApiDomain::kRuntime;
  if (cbid == 0 || cbid >= (runtime ? runtime_apis_.size() : driver_apis_.size())) {
    return CUPTI_ERROR_INVALID_PARAMETER;
  }
  if (on) {
    if (CUptiResult r = initialize(); r != CUPTI_SUCCESS) return r;
  }
  (runtime ? runtime_apis_[cbid] : driver_apis_[cbid]).store(on ? 1 : 0, std::memory_order_relaxed);
  return CUPTI_SUCCESS;
}

bool Session::api_enabled(prof::ApiDomain domain, uint32_t cbid) const {
  if (domain == prof::ApiDomain::kRuntime) {
    return cbid < runtime_apis_.size() && runtime_apis_[cbid].load(std::memory_order_relaxed) != 0;
  }
  return cbid < driver_apis_.size() && driver_apis_[cbid].load(std::memory_order_relaxed) != 0;
}

CUptiResult Session::flush_all(uint32_t flags) {
  if (!buffers_.registered()) return CUPTI_ERROR_INVALID_OPERATION;
  if (const prof::ProfilerTable* t = table()) {
    t->flush(/*wait=*/(flags & CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) != 0);
  }
  buffers_.flush();
  return CUPTI_SUCCESS;
}

CUptiResult Session::set_timestamp_callback(CUpti_TimestampCallbackFunc client) {
  if (client == nullptr) return CUPTI_ERROR_INVALID_PARAMETER;
  if (CUptiResult r = initialize(); r != CUPTI_SUCCESS) return r;
  uint64_t now = table()->now_ns();
  clock_offset_.store(static_cast<int64_t>(client() - now), std::memory_order_relaxed);
  return CUPTI_SUCCESS;
}

CUptiResult Session::push_external_correlation(CUpti_ExternalCorrelationKind kind, uint64_t id) {
  if (kind <= CUPTI_EXTERNAL_CORRELATION_KIND_INVALID ||
      kind >= CUPTI_EXTERNAL_CORRELATION_KIND_SIZE) {
    return CUPTI_ERROR_INVALID_PARAMETER;
  }
  t_external_ids[kind].push_back(id);
  return CUPTI_SUCCESS;
}

CUptiResult Session::pop_external_correlation(CUpti_ExternalCorrelationKind kind, uint64_t* last) {
  if (kind <= CUPTI_EXTERNAL_CORRELATION_KIND_INVALID ||
      kind >= CUPTI_EXTERNAL_CORRELATION_KIND_SIZE) {
    return CUPTI_ERROR_INVALID_PARAMETER;
  }
  std::vector<uint64_t>& stack = t_external_ids[kind];
  if (stack.empty()) return CUPTI_ERROR_QUEUE_EMPTY;
  if (last != nullptr) *last = stack.back();
  stack.pop_back();
  return CUPTI_SUCCESS;
}

void Session::watch_resources() {
  if (initialize() != CUPTI_SUCCESS) return;
  std::lock_guard lock(init_mu_);
  const prof::ProfilerTable* t = table();
  if (resource_hook_registered_ || t == nullptr || t->set_resource_hook == nullptr) return;
  t->set_resource_hook(&Session::on_resource_event);
  resource_hook_registered_ = true;
}

void Session::on_resource_event(const prof::ResourceEvent& event) {
  using K = prof::ResourceEventKind;
  Callbacks& callbacks = get().callbacks();
  if (event.kind == K::kStreamSynchronized || event.kind == K::kContextSynchronized) {
    CUpti_SynchronizeData data{};
    data.context = event.context;
    data.stream = event.kind == K::kStreamSynchronized ? event.stream : nullptr;
    callbacks.dispatch_other(CUPTI_CB_DOMAIN_SYNCHRONIZE,
                             event.kind == K::kStreamSynchronized
                                 ? CUPTI_CBID_SYNCHRONIZE_STREAM_SYNCHRONIZED
                                 : CUPTI_CBID_SYNCHRONIZE_CONTEXT_SYNCHRONIZED,
                             &data);
    return;
  }
  CUpti_CallbackIdResource cbid = CUPTI_CBID_RESOURCE_INVALID;
  switch (event.kind) {
    case K::kContextCreated:
      cbid = CUPTI_CBID_RESOURCE_CONTEXT_CREATED;
      break;
    case K::kContextDestroyStarting:
      cbid = CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING;
      break;
    case K::kStreamCreated:
      cbid = CUPTI_CBID_RESOURCE_STREAM_CREATED;
      break;
    case K::kStreamDestroyStarting:
      cbid = CUPTI_CBID_RESOURCE_STREAM_DESTROY_STARTING;
      break;
    case K::kModuleLoaded:
      cbid = CUPTI_CBID_RESOURCE_MODULE_LOADED;
      break;
    case K::kModuleUnloadStarting:
      cbid = CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING;
      break;
    case K::kGraphCreated:
      cbid = CUPTI_CBID_RESOURCE_GRAPH_CREATED;
      break;
    case K::kGraphCloned:
      cbid = CUPTI_CBID_RESOURCE_GRAPH_CLONED;
      break;
    case K::kGraphDestroyStarting:
      cbid = CUPTI_CBID_RESOURCE_GRAPH_DESTROY_STARTING;
      break;
    case K::kGraphNodeCreated:
      cbid = CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED;
      break;
    case K::kGraphNodeCloned:
      cbid = CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED;
      break;
    case K::kGraphNodeDestroyStarting:
      cbid = CUPTI_CBID_RESOURCE_GRAPHNODE_DESTROY_STARTING;
      break;
    case K::kGraphExecCreated:
      cbid = CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED;
      break;
    case K::kGraphExecDestroyStarting:
      cbid = CUPTI_CBID_RESOURCE_GRAPHEXEC_DESTROY_STARTING;
      break;
    default:
      return;
  }
  CUpti_ResourceData data{};
  data.context = event.context;
  CUpti_ModuleResourceData module{};
  CUpti_GraphData graph{};
  if (event.kind >= K::kGraphCreated) {
    graph.graph = event.graph;
    graph.originalGraph = event.original_graph;
    graph.node = event.node;
    graph.originalNode = event.original_node;
    graph.nodeType = event.node_type;
    graph.graphExec = event.graph_exec;
    data.resourceDescriptor = &graph;
  } else if (cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED ||
      cbid == CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING) {
    module.moduleId = event.module_id;
    module.cubinSize = event.image_size;
    module.pCubin = static_cast<const char*>(event.image);
    data.resourceDescriptor = &module;
  } else if (cbid == CUPTI_CBID_RESOURCE_STREAM_CREATED ||
             cbid == CUPTI_CBID_RESOURCE_STREAM_DESTROY_STARTING) {
    data.resourceHandle.stream = event.stream;
  }
  callbacks.dispatch_other(CUPTI_CB_DOMAIN_RESOURCE, cbid, &data);
}

void Session::finalize() {
  const prof::ProfilerTable* t = table();
  if (t != nullptr) t->flush(/*wait=*/false);
  buffers_.reset();
  for (auto& k : kinds_) k.store(0);
  clock_offset_.store(0);
  {
    std::lock_guard names(names_mu_);
    // The driver replays its device and context records when the next call attaches.
    devices_.clear();
    contexts_.clear();
    devices_reported_.clear();
    contexts_reported_.clear();
  }
  for (auto& f : runtime_apis_) f.store(0);
  for (auto& f : driver_apis_) f.store(0);
  std::lock_guard lock(init_mu_);
  if (resource_hook_registered_ && t != nullptr) t->set_resource_hook(nullptr);
  resource_hook_registered_ = false;
  if (attached_ && t != nullptr) t->detach(this);
  attached_ = false;
  table_.store(nullptr, std::memory_order_release);
}

void Session::note_thread() {
  if (t_thread_noted) return;
  t_thread_noted = true;
  std::lock_guard lock(names_mu_);
  pthread_ids_[gettid_now()] = static_cast<uint32_t>(pthread_self());
}

uint32_t Session::thread_id(uint32_t tid) {
  if (thread_id_type() == CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM) return tid;
  // CUPTI_ACTIVITY_THREAD_ID_TYPE_DEFAULT: pthread_self() of that thread.
  if (tid == gettid_now()) return static_cast<uint32_t>(pthread_self());
  std::lock_guard lock(names_mu_);
  auto it = pthread_ids_.find(tid);
  return it != pthread_ids_.end() ? it->second : tid;
}

void Session::on_api(const prof::ApiCall& call) {
  note_thread();
  if (!call.exit && enabled(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION)) {
    // Precedes the call's API record, one per kind with an id pushed on this thread.
    for (size_t kind = 0; kind < t_external_ids.size(); ++kind) {
      if (t_external_ids[kind].empty()) continue;
      append(external_correlation_record(static_cast<CUpti_ExternalCorrelationKind>(kind),
                                         t_external_ids[kind].back(), call.correlation_id));
    }
  }
  if (!callbacks_.any_enabled(call)) return;
  CUcontext context = nullptr;
  static auto ctx_get_current = reinterpret_cast<CtxGetCurrent>(driver_symbol("cuCtxGetCurrent"));
  if (ctx_get_current != nullptr && ctx_get_current(&context) != CUDA_SUCCESS) context = nullptr;
  uint32_t context_uid = 0;
  if (context != nullptr) {
    if (const prof::ProfilerTable* t = table()) {
      context_uid = static_cast<uint32_t>(t->context_id(context));
    }
  }
  callbacks_.dispatch(call, context, context_uid);
}

void Session::on_nvtx(const prof::Nvtx& event) {
  bool markers = enabled(CUPTI_ACTIVITY_KIND_MARKER);
  bool data = enabled(CUPTI_ACTIVITY_KIND_MARKER_DATA);
  if ((!markers && !data) || event.kind == prof::Nvtx::kCategory) return;
  uint32_t id = next_marker_id_.fetch_add(1, std::memory_order_relaxed);
  const char* domain = nullptr;
  if (event.domain_id != 0) {
    std::lock_guard lock(names_mu_);
    auto it = domain_names_.find(event.domain_id);
    if (it != domain_names_.end()) domain = it->second;
  }
  if (markers) {
    for (const CUpti_ActivityMarker2& r :
         marker_records(event, id, domain, thread_id(event.tid), thread_id(event.end_tid))) {
      append(r);
    }
  }
  if (data) append(marker_data_record(event, id));
}

void Session::emit_known_objects(CUpti_ActivityKind kind) {
  std::vector<CUpti_ActivityDevice5> devices;
  std::vector<CUpti_ActivityContext3> contexts;
  {
    std::lock_guard lock(names_mu_);
    if (kind == CUPTI_ACTIVITY_KIND_DEVICE) {
      for (const auto& [id, d] : devices_) {
        if (devices_reported_.insert(id).second) devices.push_back(device_record(d));
      }
    } else {
      for (const auto& [id, c] : contexts_) {
        if (!contexts_reported_.insert(id).second) continue;
        auto device = devices_.find(c.device_id);
        contexts.push_back(
            context_record(c, device != devices_.end() ? device->second.sm_count : 0));
      }
    }
  }
  for (const auto& r : devices) append(r);
  for (const auto& r : contexts) append(r);
}

const char* Session::chip_name(uint32_t ordinal) {
  std::lock_guard lock(names_mu_);
  auto it = devices_.find(ordinal);
  if (it == devices_.end() || it->second.arch.empty()) return nullptr;
  return intern(it->second.arch);
}

void Session::on_device(const prof::Device& device) {
  {
    std::lock_guard lock(names_mu_);
    devices_[device.id] = device;
  }
  if (enabled(CUPTI_ACTIVITY_KIND_DEVICE)) emit_known_objects(CUPTI_ACTIVITY_KIND_DEVICE);
}

void Session::on_context(const prof::Context& context) {
  {
    std::lock_guard lock(names_mu_);
    contexts_[context.id] = context;
  }
  if (enabled(CUPTI_ACTIVITY_KIND_CONTEXT)) emit_known_objects(CUPTI_ACTIVITY_KIND_CONTEXT);
}

void Session::on_record(const prof::Record& record) {
  std::visit(
      [&](const auto& r) {
        using T = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<T, prof::Api>) {
          if (api_enabled(r.domain, r.cbid)) append(api_record(r, thread_id(r.tid)));
        } else if constexpr (std::is_same_v<T, prof::Kernel>) {
          if (enabled(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)) {
            append(kernel_record(r, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
          } else if (enabled(CUPTI_ACTIVITY_KIND_KERNEL)) {
            append(kernel_record(r, CUPTI_ACTIVITY_KIND_KERNEL));
          }
        } else if constexpr (std::is_same_v<T, prof::Memcpy>) {
          if (enabled(CUPTI_ACTIVITY_KIND_MEMCPY)) append(memcpy_record(r));
        } else if constexpr (std::is_same_v<T, prof::Memset>) {
          if (enabled(CUPTI_ACTIVITY_KIND_MEMSET)) append(memset_record(r));
        } else if constexpr (std::is_same_v<T, prof::Sync>) {
          if (enabled(CUPTI_ACTIVITY_KIND_SYNCHRONIZATION)) append(sync_record(r));
        } else if constexpr (std::is_same_v<T, prof::Nvtx>) {
          on_nvtx(r);
        } else if constexpr (std::is_same_v<T, prof::Device>) {
          on_device(r);
        } else if constexpr (std::is_same_v<T, prof::Context>) {
          on_context(r);
        } else if constexpr (std::is_same_v<T, prof::NvtxDomain>) {
          std::lock_guard lock(names_mu_);
          domain_names_[r.id] = intern(r.name);
        }
      },
      record);
}

}  // namespace strata::cupti
