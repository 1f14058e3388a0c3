// A small CUPTI client used the way the PyTorch profiler's Kineto uses CUPTI: activity
// buffers for runtime calls, kernels, copies, memsets and synchronisations, external
// correlation ids around each operation, and runtime callbacks for the kernel launches.
// Launches: cudaLaunchKernel called directly, and <<<>>>, which nvcc 13 compiles to the
// runtime's __cudaLaunchKernel (its own CUPTI id, __cudaLaunchKernel_v13000).
// Checks what any CUPTI implementation must deliver, then prints PASS cupti_client.
// NVTX ranges and marks become MARKER records when NVTX_INJECTION64_PATH names libcupti
// (as with NVIDIA's CUPTI). Built with -lcupti; under `strata run` it loads Strata's
// libcupti.so.13.
#include <cupti.h>
#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "test_check.h"

#define CHECK_CUPTI(call)                                                                  \
  do {                                                                                     \
    CUptiResult check_cupti_result_ = (call);                                              \
    if (check_cupti_result_ != CUPTI_SUCCESS) {                                            \
      const char* check_cupti_text_ = "?";                                                 \
      cuptiGetResultString(check_cupti_result_, &check_cupti_text_);                       \
      std::printf("FAIL %s:%d: %s -> %s\n", __FILE__, __LINE__, #call, check_cupti_text_); \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

__global__ void scale(float* p, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= factor;
}

namespace {

struct ApiRecord {
  uint32_t cbid;
  uint64_t start, end;
  uint32_t correlation;
};
struct KernelRecord {
  uint64_t start, end;
  uint32_t correlation, stream, context, device;
  int grid, block;
  std::string name;
};
struct CopyRecord {
  uint64_t start, end, bytes;
  uint32_t correlation;
  uint8_t kind;
};
struct SetRecord {
  uint64_t start, end, bytes;
  uint32_t correlation, value;
};
struct SyncRecord {
  uint64_t start, end;
  uint32_t correlation, type;
};

std::vector<ApiRecord> g_api;
std::vector<ApiRecord> g_driver_api;
std::vector<KernelRecord> g_kernels;
std::vector<CopyRecord> g_copies;
std::vector<SetRecord> g_sets;
std::vector<SyncRecord> g_syncs;
std::vector<CUpti_ActivityMarker2> g_markers;
std::vector<CUpti_ActivityDevice5> g_devices;
std::vector<CUpti_ActivityContext3> g_contexts;  // names point into CUPTI's storage
std::map<uint32_t, uint64_t> g_external;         // correlation id -> external id
int g_buffers_completed = 0;

struct CallbackEvent {
  CUpti_ApiCallbackSite site;
  uint32_t correlation;
  uint64_t data_at_exit;
  std::string function, symbol;
  uint32_t cbid;
};
std::vector<CallbackEvent> g_callbacks;

bool is_launch(uint32_t cbid) {
  return cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000 ||
         cbid == CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000;
}

constexpr size_t kBufferSize = 1024;  // small: several buffers fill during the run

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(ACTIVITY_RECORD_ALIGNMENT, kBufferSize));
  *size = kBufferSize;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  ++g_buffers_completed;
  CUpti_Activity* record = nullptr;
  for (;;) {
    CUptiResult status = cuptiActivityGetNextRecord(buffer, valid, &record);
    if (status == CUPTI_ERROR_MAX_LIMIT_REACHED) break;
    CHECK_CUPTI(status);
    switch (record->kind) {
      case CUPTI_ACTIVITY_KIND_RUNTIME: {
        auto* r = reinterpret_cast<CUpti_ActivityAPI*>(record);
        g_api.push_back({r->cbid, r->start, r->end, r->correlationId});
        break;
      }
      case CUPTI_ACTIVITY_KIND_DRIVER: {
        auto* r = reinterpret_cast<CUpti_ActivityAPI*>(record);
        g_driver_api.push_back({r->cbid, r->start, r->end, r->correlationId});
        break;
      }
      case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        auto* r = reinterpret_cast<CUpti_ActivityKernel10*>(record);
        g_kernels.push_back({r->start, r->end, r->correlationId, r->streamId, r->contextId,
                             r->deviceId, r->gridX, r->blockX, r->name ? r->name : ""});
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMCPY: {
        auto* r = reinterpret_cast<CUpti_ActivityMemcpy6*>(record);
        g_copies.push_back({r->start, r->end, r->bytes, r->correlationId, r->copyKind});
        break;
      }
      case CUPTI_ACTIVITY_KIND_MEMSET: {
        auto* r = reinterpret_cast<CUpti_ActivityMemset4*>(record);
        g_sets.push_back({r->start, r->end, r->bytes, r->correlationId, r->value});
        break;
      }
      case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: {
        auto* r = reinterpret_cast<CUpti_ActivitySynchronization2*>(record);
        g_syncs.push_back({r->start, r->end, r->correlationId, static_cast<uint32_t>(r->type)});
        break;
      }
      case CUPTI_ACTIVITY_KIND_DEVICE:
        g_devices.push_back(*reinterpret_cast<CUpti_ActivityDevice5*>(record));
        break;
      case CUPTI_ACTIVITY_KIND_CONTEXT:
        g_contexts.push_back(*reinterpret_cast<CUpti_ActivityContext3*>(record));
        break;
      case CUPTI_ACTIVITY_KIND_MARKER:
        g_markers.push_back(*reinterpret_cast<CUpti_ActivityMarker2*>(record));
        break;
      case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION: {
        auto* r = reinterpret_cast<CUpti_ActivityExternalCorrelation*>(record);
        EXPECT_TRUE(r->externalKind == CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, "external kind %d",
                    static_cast<int>(r->externalKind));
        g_external[r->correlationId] = r->externalId;
        break;
      }
      default:
        EXPECT_TRUE(false, "unexpected record kind %d", static_cast<int>(record->kind));
    }
  }
  size_t dropped = 0;
  CHECK_CUPTI(cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped));
  EXPECT_TRUE(dropped == 0, "%zu records dropped", dropped);
  std::free(buffer);
}

void CUPTIAPI on_callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                          const void* data) {
  EXPECT_TRUE(domain == CUPTI_CB_DOMAIN_RUNTIME_API, "domain %d", static_cast<int>(domain));
  EXPECT_TRUE(is_launch(cbid), "cbid %u", cbid);
  const auto* d = static_cast<const CUpti_CallbackData*>(data);
  CallbackEvent e{d->callbackSite,
                  d->correlationId,
                  0,
                  d->functionName ? d->functionName : "",
                  d->symbolName ? d->symbolName : "",
                  cbid};
  if (d->callbackSite == CUPTI_API_ENTER) {
    *d->correlationData = 0x5eed0000u + d->correlationId;
    if (cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000) {
      const auto* params = static_cast<const cudaLaunchKernel_v7000_params*>(d->functionParams);
      EXPECT_TRUE(params != nullptr && params->func == reinterpret_cast<const void*>(scale),
                  "cudaLaunchKernel params do not name the kernel");
    }
  } else {
    e.data_at_exit = *d->correlationData;
    EXPECT_TRUE(*static_cast<const cudaError_t*>(d->functionReturnValue) == cudaSuccess,
                "launch returned an error");
  }
  g_callbacks.push_back(e);
}

uint64_t timestamp() {
  uint64_t t = 0;
  CHECK_CUPTI(cuptiGetTimestamp(&t));
  return t;
}

}  // namespace

int main() {
  CHECK_CUPTI(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed));
  for (CUpti_ActivityKind kind :
       {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
        CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_SYNCHRONIZATION,
        CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION, CUPTI_ACTIVITY_KIND_MARKER,
        CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_ACTIVITY_KIND_DEVICE, CUPTI_ACTIVITY_KIND_CONTEXT}) {
    CHECK_CUPTI(cuptiActivityEnable(kind));
  }
  CUpti_SubscriberHandle subscriber;
  CHECK_CUPTI(cuptiSubscribe(&subscriber, on_callback, nullptr));
  for (CUpti_CallbackId cbid : {CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
                                CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000}) {
    CHECK_CUPTI(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, cbid));
  }
  uint64_t t_begin = timestamp();
  nvtxRangePushA("cupti_client");

  const int n = 1 << 12;
  std::vector<float> host(n, 2.0f);
  float* device = nullptr;
  cudaStream_t streams[2];
  uint64_t op = 100;  // the "framework operator" ids pushed around each operation
  CHECK_CUPTI(
      cuptiActivityPushExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, ++op));
  CHECK_CUDA(cudaMalloc(&device, n * sizeof(float)));
  CHECK_CUPTI(
      cuptiActivityPopExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, nullptr));
  for (cudaStream_t& s : streams) CHECK_CUDA(cudaStreamCreate(&s));
  CHECK_CUDA(cudaMemcpy(device, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemsetAsync(device, 0, 256, streams[0]));
  nvtxMarkA("launches");
  const int launches = 4;
  std::vector<uint64_t> launch_ops;
  for (int i = 0; i < launches; ++i) {
    launch_ops.push_back(++op);
    CHECK_CUPTI(
        cuptiActivityPushExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, op));
    cudaStream_t stream = streams[(i / 2) % 2];
    if (i % 2 == 0) {
      scale<<<n / 256, 256, 0, stream>>>(device, 1.5f, n);
    } else {
      float factor = 1.5f;
      int count = n;
      void* args[] = {&device, &factor, &count};
      CHECK_CUDA(cudaLaunchKernel(reinterpret_cast<const void*>(scale), dim3(n / 256), dim3(256),
                                  args, 0, stream));
    }
    uint64_t popped = 0;
    CHECK_CUPTI(
        cuptiActivityPopExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &popped));
    EXPECT_TRUE(popped == op, "popped %llu", static_cast<unsigned long long>(popped));
  }
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaStreamSynchronize(streams[1]));
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(host.data(), device, n * sizeof(float), cudaMemcpyDeviceToHost));
  // A driver API call made by the application itself.
  EXPECT_TRUE(cuCtxSynchronize() == CUDA_SUCCESS, "cuCtxSynchronize failed");
  nvtxRangePop();
  uint64_t t_end = timestamp();
  EXPECT_TRUE(t_end > t_begin, "cuptiGetTimestamp not monotonic: %llu then %llu",
              static_cast<unsigned long long>(t_begin), static_cast<unsigned long long>(t_end));
  // The kernels ran: the first 256 bytes (64 floats) were zeroed, the rest scaled 1.5^4.
  EXPECT_TRUE(host[0] == 0.0f && host[n - 1] == 2.0f * 1.5f * 1.5f * 1.5f * 1.5f,
              "wrong results %f %f", host[0], host[n - 1]);

  CHECK_CUPTI(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
  CHECK_CUPTI(cuptiUnsubscribe(subscriber));
  uint64_t t_after = timestamp();
  EXPECT_TRUE(t_after >= t_end, "cuptiGetTimestamp went back");
  std::printf(
      "buffers %d, api %zu, kernels %zu, memcpy %zu, memset %zu, sync %zu, "
      "external %zu, callbacks %zu\n",
      g_buffers_completed, g_api.size(), g_kernels.size(), g_copies.size(), g_sets.size(),
      g_syncs.size(), g_external.size(), g_callbacks.size());

  // Runtime records: ordered, inside the session; the launches among them.
  std::set<uint32_t> launch_correlations, api_correlations;
  std::map<uint32_t, int> launches_by_cbid;
  for (const ApiRecord& a : g_api) {
    EXPECT_TRUE(a.start <= a.end, "api %u: start after end", a.cbid);
    EXPECT_TRUE(a.start >= t_begin && a.end <= t_end, "api %u outside the session", a.cbid);
    EXPECT_TRUE(api_correlations.insert(a.correlation).second, "correlation %u twice",
                a.correlation);
    if (is_launch(a.cbid)) {
      launch_correlations.insert(a.correlation);
      ++launches_by_cbid[a.cbid];
    }
  }
  EXPECT_TRUE(launch_correlations.size() == launches, "%zu launch records",
              launch_correlations.size());
  EXPECT_TRUE(launches_by_cbid[CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000] == launches / 2,
              "%d cudaLaunchKernel records",
              launches_by_cbid[CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000]);

  // Kernels: each belongs to a cudaLaunchKernel record, with the external id pushed
  // around that launch, and runs after its launch started.
  EXPECT_TRUE(g_kernels.size() == launches, "%zu kernel records", g_kernels.size());
  std::map<uint32_t, std::vector<const KernelRecord*>> per_stream;
  for (const KernelRecord& k : g_kernels) {
    EXPECT_TRUE(launch_correlations.count(k.correlation) == 1,
                "kernel correlation %u has no launch record", k.correlation);
    EXPECT_TRUE(k.start <= k.end && k.end <= t_end, "kernel times %llu..%llu",
                static_cast<unsigned long long>(k.start), static_cast<unsigned long long>(k.end));
    EXPECT_TRUE(k.grid == n / 256 && k.block == 256, "grid %d block %d", k.grid, k.block);
    EXPECT_TRUE(k.name.find("scale") != std::string::npos, "kernel name %s", k.name.c_str());
    for (const ApiRecord& a : g_api) {
      if (a.correlation == k.correlation) {
        EXPECT_TRUE(k.start >= a.start, "kernel starts before its launch");
      }
    }
    auto ext = g_external.find(k.correlation);
    EXPECT_TRUE(ext != g_external.end(), "no external id for kernel %u", k.correlation);
    EXPECT_TRUE(std::find(launch_ops.begin(), launch_ops.end(), ext->second) != launch_ops.end(),
                "kernel %u has external id %llu", k.correlation,
                static_cast<unsigned long long>(ext->second));
    per_stream[k.stream].push_back(&k);
  }
  EXPECT_TRUE(per_stream.size() == 2, "kernels on %zu streams", per_stream.size());
  for (auto& [stream, kernels] : per_stream) {
    std::sort(kernels.begin(), kernels.end(),
              [](const KernelRecord* a, const KernelRecord* b) { return a->start < b->start; });
    for (size_t i = 1; i < kernels.size(); ++i) {
      EXPECT_TRUE(kernels[i]->start >= kernels[i - 1]->end, "kernels overlap on stream %u", stream);
    }
  }
  // Launch external ids: exactly the ones pushed, one per launch.
  std::set<uint64_t> launch_externals;
  for (uint32_t c : launch_correlations) {
    auto ext = g_external.find(c);
    EXPECT_TRUE(ext != g_external.end(), "no external record for launch %u", c);
    launch_externals.insert(ext->second);
  }
  EXPECT_TRUE(launch_externals == std::set<uint64_t>(launch_ops.begin(), launch_ops.end()),
              "external ids of the launches differ from the pushed ones");

  // Callbacks: enter/exit pairs with the records' correlation ids; correlationData kept.
  EXPECT_TRUE(g_callbacks.size() == 2 * launches, "%zu callbacks", g_callbacks.size());
  std::set<uint32_t> callback_correlations;
  for (size_t i = 0; i + 1 < g_callbacks.size(); i += 2) {
    const CallbackEvent& enter = g_callbacks[i];
    const CallbackEvent& exit = g_callbacks[i + 1];
    EXPECT_TRUE(enter.site == CUPTI_API_ENTER && exit.site == CUPTI_API_EXIT,
                "callback %zu not an enter/exit pair", i);
    EXPECT_TRUE(enter.correlation == exit.correlation, "pair with correlation %u and %u",
                enter.correlation, exit.correlation);
    EXPECT_TRUE(exit.data_at_exit == 0x5eed0000u + enter.correlation,
                "correlationData not kept from enter to exit");
    EXPECT_TRUE(enter.cbid == exit.cbid, "pair of cbids %u and %u", enter.cbid, exit.cbid);
    const char* expected = enter.cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000
                               ? "cudaLaunchKernel"
                               : "__cudaLaunchKernel";
    EXPECT_TRUE(enter.function == expected, "function name %s", enter.function.c_str());
    callback_correlations.insert(enter.correlation);
  }
  EXPECT_TRUE(callback_correlations == launch_correlations,
              "callback correlation ids differ from the launch records'");

  // Copies, the memset and the synchronisations.
  EXPECT_TRUE(g_copies.size() == 2, "%zu memcpy records", g_copies.size());
  bool htod = false, dtoh = false;
  for (const CopyRecord& c : g_copies) {
    EXPECT_TRUE(c.bytes == n * sizeof(float), "memcpy of %llu bytes",
                static_cast<unsigned long long>(c.bytes));
    EXPECT_TRUE(c.start <= c.end && api_correlations.count(c.correlation) == 1,
                "memcpy times or correlation");
    htod |= c.kind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
    dtoh |= c.kind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH;
  }
  EXPECT_TRUE(htod && dtoh, "memcpy kinds");
  EXPECT_TRUE(g_sets.size() == 1 && g_sets[0].bytes == 256 && g_sets[0].value == 0,
              "memset records");
  EXPECT_TRUE(api_correlations.count(g_sets[0].correlation) == 1, "memset correlation");
  bool stream_sync = false, context_sync = false;
  for (const SyncRecord& s : g_syncs) {
    EXPECT_TRUE(s.start <= s.end, "sync times");
    bool driver_call =
        std::any_of(g_driver_api.begin(), g_driver_api.end(),
                    [&](const ApiRecord& d) { return d.correlation == s.correlation; });
    EXPECT_TRUE(api_correlations.count(s.correlation) == 1 || driver_call, "sync correlation %u",
                s.correlation);
    stream_sync |= s.type == CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE;
    context_sync |= s.type == CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE;
  }
  EXPECT_TRUE(stream_sync && context_sync, "synchronization records (%zu)", g_syncs.size());

  // Ids: the records' context, stream and device ids are the ones CUPTI reports for the
  // objects.
  CUcontext context = nullptr;
  EXPECT_TRUE(cuCtxGetCurrent(&context) == CUDA_SUCCESS && context != nullptr, "no context");
  uint32_t context_id = 0, device_id = 99, stream_ids[2] = {0, 0};
  CHECK_CUPTI(cuptiGetContextId(context, &context_id));
  CHECK_CUPTI(cuptiGetDeviceId(context, &device_id));
  for (int i = 0; i < 2; ++i) CHECK_CUPTI(cuptiGetStreamId(context, streams[i], &stream_ids[i]));
  EXPECT_TRUE(stream_ids[0] != stream_ids[1], "two streams with one id");
  for (const KernelRecord& k : g_kernels) {
    EXPECT_TRUE(k.context == context_id && k.device == device_id, "kernel context %u device %u",
                k.context, k.device);
    EXPECT_TRUE(k.stream == stream_ids[0] || k.stream == stream_ids[1], "kernel stream %u",
                k.stream);
  }

  // One DEVICE record as the runtime describes the device, one CONTEXT record.
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  EXPECT_TRUE(g_devices.size() == 1, "%zu device records", g_devices.size());
  EXPECT_TRUE(
      g_devices[0].id == device_id && std::strcmp(g_devices[0].name, prop.name) == 0 &&
          g_devices[0].numMultiprocessors == static_cast<uint32_t>(prop.multiProcessorCount) &&
          g_devices[0].computeCapabilityMajor == static_cast<uint32_t>(prop.major) &&
          g_devices[0].globalMemorySize == prop.totalGlobalMem &&
          std::memcmp(&g_devices[0].uuid, &prop.uuid, sizeof prop.uuid) == 0,
      "device record differs from cudaGetDeviceProperties");
  EXPECT_TRUE(g_contexts.size() == 1 && g_contexts[0].contextId == context_id &&
                  g_contexts[0].deviceId == device_id,
              "%zu context records", g_contexts.size());

  // The driver call: a DRIVER record inside the session, with a correlation id of its own.
  bool ctx_sync = false;
  for (const ApiRecord& d : g_driver_api) {
    EXPECT_TRUE(d.start <= d.end && d.start >= t_begin && d.end <= t_end, "driver record times");
    if (d.cbid == CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize) {
      ctx_sync = true;
      EXPECT_TRUE(api_correlations.count(d.correlation) == 0, "driver correlation reused");
    }
  }
  EXPECT_TRUE(ctx_sync, "no cuCtxSynchronize record among %zu driver records", g_driver_api.size());

  // NVTX: the range's START and END records share an id and enclose the mark.
  EXPECT_TRUE(g_markers.size() == 3, "%zu marker records", g_markers.size());
  const CUpti_ActivityMarker2* start = nullptr;
  const CUpti_ActivityMarker2* end = nullptr;
  const CUpti_ActivityMarker2* mark = nullptr;
  for (const CUpti_ActivityMarker2& m : g_markers) {
    if (m.flags == CUPTI_ACTIVITY_FLAG_MARKER_START) start = &m;
    if (m.flags == CUPTI_ACTIVITY_FLAG_MARKER_END) end = &m;
    if (m.flags == CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS) mark = &m;
  }
  EXPECT_TRUE(start && end && mark, "marker flags");
  EXPECT_TRUE(start->id == end->id && start->id != mark->id, "marker ids");
  EXPECT_TRUE(start->name && std::strcmp(start->name, "cupti_client") == 0, "range name");
  EXPECT_TRUE(mark->name && std::strcmp(mark->name, "launches") == 0, "mark name");
  EXPECT_TRUE(start->domain == nullptr, "default domain");
  EXPECT_TRUE(t_begin <= start->timestamp && start->timestamp <= mark->timestamp &&
                  mark->timestamp <= end->timestamp && end->timestamp <= t_end,
              "marker times");
  EXPECT_TRUE(g_buffers_completed >= 2, "%d buffers completed", g_buffers_completed);

  for (cudaStream_t s : streams) CHECK_CUDA(cudaStreamDestroy(s));
  CHECK_CUDA(cudaFree(device));
  std::printf("PASS cupti_client\n");
  return 0;
}
