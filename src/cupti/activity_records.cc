#include "cupti/activity_records.h"

#include <cstring>
#include <mutex>
#include <string>
#include <unordered_set>

namespace strata::cupti {
namespace {

template <typename T>
T zeroed() {
  T record;
  std::memset(&record, 0, sizeof record);
  return record;
}

uint32_t low32(uint64_t id) {
  return static_cast<uint32_t>(id);
}

// The opt-in limit: a kernel using more shared memory per block than 48 KB must have
// opted in (cudaFuncAttributeMaxDynamicSharedMemorySize).
constexpr uint64_t kDefaultSharedLimit = 48 * 1024;

}  // namespace

const char* intern(std::string_view text) {
  // Leaked on purpose: records handed to the client point into it until exit.
  static auto* mu = new std::mutex();
  static auto* strings = new std::unordered_set<std::string>();
  std::lock_guard lock(*mu);
  return strings->emplace(text).first->c_str();
}

CUpti_ActivityAPI api_record(const prof::Api& api, uint32_t thread_id) {
  auto r = zeroed<CUpti_ActivityAPI>();
  r.kind = api.domain == prof::ApiDomain::kDriver ? CUPTI_ACTIVITY_KIND_DRIVER
                                                  : CUPTI_ACTIVITY_KIND_RUNTIME;
  r.cbid = api.cbid;
  r.start = api.start;
  r.end = api.end;
  r.processId = api.pid;
  r.threadId = thread_id;
  r.correlationId = api.correlation_id;
  r.returnValue = static_cast<uint32_t>(api.return_value);
  return r;
}

CUpti_ActivityKernel10 kernel_record(const prof::Kernel& k, CUpti_ActivityKind kind) {
  auto r = zeroed<CUpti_ActivityKernel10>();
  r.kind = kind;
  r.registersPerThread = static_cast<uint16_t>(k.registers_per_thread);
  r.partitionedGlobalCacheRequested = CUPTI_ACTIVITY_PARTITIONED_GLOBAL_CACHE_CONFIG_UNKNOWN;
  r.partitionedGlobalCacheExecuted = CUPTI_ACTIVITY_PARTITIONED_GLOBAL_CACHE_CONFIG_UNKNOWN;
  r.start = k.start;
  r.end = k.end;
  r.completed = k.end;
  r.deviceId = k.device_id;
  r.contextId = low32(k.context_id);
  r.streamId = low32(k.stream_id);
  r.gridX = static_cast<int32_t>(k.grid[0]);
  r.gridY = static_cast<int32_t>(k.grid[1]);
  r.gridZ = static_cast<int32_t>(k.grid[2]);
  r.blockX = static_cast<int32_t>(k.block[0]);
  r.blockY = static_cast<int32_t>(k.block[1]);
  r.blockZ = static_cast<int32_t>(k.block[2]);
  r.staticSharedMemory = static_cast<int32_t>(k.static_shared);
  r.dynamicSharedMemory = static_cast<int32_t>(k.dynamic_shared);
  r.localMemoryPerThread = k.local_per_thread;
  r.localMemoryTotal = static_cast<uint32_t>(k.local_total);
  r.localMemoryTotal_v2 = k.local_total;
  r.correlationId = k.correlation_id;
  r.gridId = static_cast<int64_t>(k.grid_id);
  r.name = intern(k.name);
  // Strata's records carry no queued / submitted times.
  r.queued = CUPTI_TIMESTAMP_UNKNOWN;
  r.submitted = CUPTI_TIMESTAMP_UNKNOWN;
  r.launchType = k.cooperative ? CUPTI_ACTIVITY_LAUNCH_TYPE_COOPERATIVE_SINGLE_DEVICE
                               : CUPTI_ACTIVITY_LAUNCH_TYPE_REGULAR;
  r.sharedMemoryExecuted = k.shared_config;
  r.graphNodeId = k.graph_node_id;
  r.graphId = low32(k.graph_id);
  r.shmemLimitConfig = uint64_t{k.static_shared} + k.dynamic_shared > kDefaultSharedLimit
                           ? CUPTI_FUNC_SHMEM_LIMIT_OPTIN
                           : CUPTI_FUNC_SHMEM_LIMIT_DEFAULT;
  r.channelType = CUPTI_CHANNEL_TYPE_INVALID;
  return r;
}

CUpti_ActivityMemcpy6 memcpy_record(const prof::Memcpy& c) {
  auto r = zeroed<CUpti_ActivityMemcpy6>();
  r.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
  r.copyKind = static_cast<uint8_t>(c.copy_kind);
  r.srcKind = static_cast<uint8_t>(c.src_kind);
  r.dstKind = static_cast<uint8_t>(c.dst_kind);
  r.flags = c.async ? CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC : 0;
  r.bytes = c.bytes;
  r.start = c.start;
  r.end = c.end;
  r.deviceId = c.device_id;
  r.contextId = low32(c.context_id);
  r.streamId = low32(c.stream_id);
  // Strata correlates device work with the application's outermost call: the runtime
  // call when there is one, so both ids are that call's.
  r.correlationId = c.correlation_id;
  r.runtimeCorrelationId = c.correlation_id;
  r.graphNodeId = c.graph_node_id;
  r.graphId = low32(c.graph_id);
  r.channelType = CUPTI_CHANNEL_TYPE_INVALID;
  r.copyCount = 1;
  return r;
}

CUpti_ActivityMemset4 memset_record(const prof::Memset& s) {
  auto r = zeroed<CUpti_ActivityMemset4>();
  r.kind = CUPTI_ACTIVITY_KIND_MEMSET;
  r.value = s.value;
  r.bytes = s.bytes;
  r.start = s.start;
  r.end = s.end;
  r.deviceId = s.device_id;
  r.contextId = low32(s.context_id);
  r.streamId = low32(s.stream_id);
  r.correlationId = s.correlation_id;
  r.flags = s.async ? CUPTI_ACTIVITY_FLAG_MEMSET_ASYNC : 0;
  r.memoryKind = static_cast<uint16_t>(s.mem_kind);
  r.graphNodeId = s.graph_node_id;
  r.graphId = low32(s.graph_id);
  r.channelType = CUPTI_CHANNEL_TYPE_INVALID;
  return r;
}

CUpti_ActivitySynchronization2 sync_record(const prof::Sync& s) {
  auto r = zeroed<CUpti_ActivitySynchronization2>();
  r.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
  r.type = static_cast<CUpti_ActivitySynchronizationType>(s.type);
  r.start = s.start;
  r.end = s.end;
  r.correlationId = s.correlation_id;
  r.contextId = low32(s.context_id);
  r.streamId = s.stream_id ? low32(*s.stream_id) : CUPTI_SYNCHRONIZATION_INVALID_VALUE;
  bool event = s.type == CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE ||
               s.type == CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT;
  r.cudaEventId = event ? low32(s.event_id) : CUPTI_SYNCHRONIZATION_INVALID_VALUE;
  r.cudaEventSyncId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
  r.returnValue = 0;  // CUDA_SUCCESS: Strata records the waits that completed
  return r;
}

CUpti_ActivityExternalCorrelation external_correlation_record(CUpti_ExternalCorrelationKind kind,
                                                              uint64_t external_id,
                                                              uint32_t correlation_id) {
  auto r = zeroed<CUpti_ActivityExternalCorrelation>();
  r.kind = CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION;
  r.externalKind = kind;
  r.externalId = external_id;
  r.correlationId = correlation_id;
  return r;
}

namespace {

// "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" as its 16 bytes (zeros if malformed).
CUuuid parse_uuid(const std::string& text) {
  CUuuid uuid;
  std::memset(&uuid, 0, sizeof uuid);
  std::string hex;
  std::string_view digits = text;
  if (digits.starts_with("GPU-")) digits.remove_prefix(4);
  for (char c : digits) {
    if (c != '-') hex += c;
  }
  if (hex.size() != 32) return uuid;
  for (size_t i = 0; i < 16; ++i) {
    uuid.bytes[i] = static_cast<char>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
  }
  return uuid;
}

}  // namespace

CUpti_ActivityDevice5 device_record(const prof::Device& d) {
  auto r = zeroed<CUpti_ActivityDevice5>();
  r.kind = CUPTI_ACTIVITY_KIND_DEVICE;
  r.globalMemoryBandwidth = d.memory_bandwidth / 1000;
  r.globalMemorySize = d.total_memory;
  r.constantMemorySize = static_cast<uint32_t>(d.constant_memory);
  r.l2CacheSize = static_cast<uint32_t>(d.l2_cache_size);
  r.numThreadsPerWarp = d.warp_size;
  r.coreClockRate = static_cast<uint32_t>(d.clock_rate_khz);
  r.numMemcpyEngines = d.async_engines;
  r.numMultiprocessors = d.sm_count;
  r.maxWarpsPerMultiprocessor = d.max_warps_per_sm;
  r.maxBlocksPerMultiprocessor = d.max_blocks_per_sm;
  r.maxSharedMemoryPerMultiprocessor = d.max_shared_per_sm;
  r.maxRegistersPerMultiprocessor = d.max_registers_per_sm;
  r.maxRegistersPerBlock = d.max_registers_per_block;
  r.maxSharedMemoryPerBlock = d.max_shared_per_block;
  r.maxThreadsPerBlock = d.max_threads_per_block;
  r.maxBlockDimX = d.max_block_dim[0];
  r.maxBlockDimY = d.max_block_dim[1];
  r.maxBlockDimZ = d.max_block_dim[2];
  r.maxGridDimX = d.max_grid_dim[0];
  r.maxGridDimY = d.max_grid_dim[1];
  r.maxGridDimZ = d.max_grid_dim[2];
  r.computeCapabilityMajor = static_cast<uint32_t>(d.compute_major);
  r.computeCapabilityMinor = static_cast<uint32_t>(d.compute_minor);
  r.id = d.id;
  r.uuid = parse_uuid(d.uuid);
  r.name = intern(d.name);
  r.isCudaVisible = 1;
  return r;
}

CUpti_ActivityContext3 context_record(const prof::Context& c, uint32_t sm_count) {
  auto r = zeroed<CUpti_ActivityContext3>();
  r.kind = CUPTI_ACTIVITY_KIND_CONTEXT;
  r.contextId = low32(c.id);
  r.deviceId = c.device_id;
  r.computeApiKind = CUPTI_ACTIVITY_COMPUTE_API_CUDA;
  r.nullStreamId = static_cast<uint16_t>(c.null_stream_id);
  r.numMultiprocessors = static_cast<uint16_t>(sm_count);
  return r;
}

std::vector<CUpti_ActivityMarker2> marker_records(const prof::Nvtx& e, uint32_t id,
                                                  const char* domain, uint32_t start_thread,
                                                  uint32_t end_thread) {
  std::vector<CUpti_ActivityMarker2> out;
  if (e.kind == prof::Nvtx::kCategory) return out;
  auto r = zeroed<CUpti_ActivityMarker2>();
  r.kind = CUPTI_ACTIVITY_KIND_MARKER;
  r.id = id;
  r.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
  r.objectId.pt.processId = e.pid;
  r.objectId.pt.threadId = start_thread;
  r.domain = domain;
  r.timestamp = e.start;
  r.name = intern(e.text);
  r.flags = e.kind == prof::Nvtx::kMark ? CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS
                                        : CUPTI_ACTIVITY_FLAG_MARKER_START;
  out.push_back(r);
  if (e.kind != prof::Nvtx::kMark && e.end) {
    r.flags = CUPTI_ACTIVITY_FLAG_MARKER_END;
    r.timestamp = *e.end;
    r.name = nullptr;
    r.objectId.pt.threadId = end_thread;
    out.push_back(r);
  }
  return out;
}

CUpti_ActivityMarkerData2 marker_data_record(const prof::Nvtx& e, uint32_t id) {
  auto r = zeroed<CUpti_ActivityMarkerData2>();
  r.kind = CUPTI_ACTIVITY_KIND_MARKER_DATA;
  r.id = id;
  r.flags = e.color ? CUPTI_ACTIVITY_FLAG_MARKER_COLOR_ARGB : CUPTI_ACTIVITY_FLAG_MARKER_COLOR_NONE;
  r.color = e.color.value_or(0);
  r.category = e.category;
  r.cuptiDomainId = low32(e.domain_id);
  switch (e.payload) {
    case prof::Nvtx::kU64:
    case prof::Nvtx::kU32:
      r.payloadKind = CUPTI_METRIC_VALUE_KIND_UINT64;
      r.payload.metricValueUint64 = e.payload_bits;
      break;
    case prof::Nvtx::kI64:
    case prof::Nvtx::kI32:
      r.payloadKind = CUPTI_METRIC_VALUE_KIND_INT64;
      r.payload.metricValueInt64 = static_cast<int64_t>(e.payload_bits);
      break;
    case prof::Nvtx::kDouble:
    case prof::Nvtx::kFloat:
    case prof::Nvtx::kNone:
      r.payloadKind = CUPTI_METRIC_VALUE_KIND_DOUBLE;
      r.payload.metricValueDouble = e.payload == prof::Nvtx::kNone ? 0.0 : e.payload_value;
      break;
  }
  return r;
}

size_t record_size(CUpti_ActivityKind kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
      return sizeof(CUpti_ActivityAPI);
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      return sizeof(CUpti_ActivityKernel10);
    case CUPTI_ACTIVITY_KIND_MEMCPY:
      return sizeof(CUpti_ActivityMemcpy6);
    case CUPTI_ACTIVITY_KIND_MEMSET:
      return sizeof(CUpti_ActivityMemset4);
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
      return sizeof(CUpti_ActivitySynchronization2);
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION:
      return sizeof(CUpti_ActivityExternalCorrelation);
    case CUPTI_ACTIVITY_KIND_MARKER:
      return sizeof(CUpti_ActivityMarker2);
    case CUPTI_ACTIVITY_KIND_MARKER_DATA:
      return sizeof(CUpti_ActivityMarkerData2);
    case CUPTI_ACTIVITY_KIND_DEVICE:
      return sizeof(CUpti_ActivityDevice5);
    case CUPTI_ACTIVITY_KIND_CONTEXT:
      return sizeof(CUpti_ActivityContext3);
    default:
      return 0;
  }
}

}  // namespace strata::cupti
