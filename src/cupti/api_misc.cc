// Timestamps, ids, versions and results (cupti_activity.h, cupti_version.h,
// cupti_result.h).
#define CUPTI_LIB 1
#include <cupti_activity.h>
#include <cupti_result.h>
#include <cupti_version.h>

#include "cupti/driver.h"
#include "cupti/entry.h"
#include "cupti/session.h"

using strata::cupti::finish;
using strata::cupti::Session;

namespace {

struct ResultName {
  CUptiResult result;
  const char* name;
  const char* message;
};

// Every CUptiResult of cupti_result.h with its documentation (gen_exports.py).
constexpr ResultName kResults[] = {
#include "cupti/result_names.inc"
};

const ResultName* find_result(CUptiResult result) {
  for (const ResultName& r : kResults) {
    if (r.result == result) return &r;
  }
  return nullptr;
}

// The driver's profiler table, initializing on first use; null when there is none.
const strata::prof::ProfilerTable* table() {
  Session& s = Session::get();
  if (s.initialize() != CUPTI_SUCCESS) return nullptr;
  return s.table();
}

}  // namespace

extern "C" {

CUptiResult CUPTIAPI cuptiGetTimestamp(uint64_t* timestamp) {
  if (timestamp == nullptr) return finish(CUPTI_ERROR_INVALID_PARAMETER);
  const strata::prof::ProfilerTable* t = table();
  if (t == nullptr) return finish(CUPTI_ERROR_NOT_INITIALIZED);
  // The calling thread's virtual time, the time base of every record (shifted to the
  // client's clock after cuptiActivityRegisterTimestampCallback).
  *timestamp = Session::get().reported_time(t->now_ns());
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetContextId(CUcontext context, uint32_t* contextId) {
  if (contextId == nullptr) return finish(CUPTI_ERROR_INVALID_PARAMETER);
  const strata::prof::ProfilerTable* t = table();
  if (t == nullptr) return finish(CUPTI_ERROR_NOT_INITIALIZED);
  if (context == nullptr) return finish(CUPTI_ERROR_INVALID_CONTEXT);
  uint64_t id = t->context_id(context);
  if (id == 0) return finish(CUPTI_ERROR_INVALID_CONTEXT);
  *contextId = static_cast<uint32_t>(id);
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetStreamIdEx(CUcontext context, CUstream stream, uint8_t perThreadStream,
                                        uint32_t* streamId) {
  if (streamId == nullptr) return finish(CUPTI_ERROR_INVALID_PARAMETER);
  const strata::prof::ProfilerTable* t = table();
  if (t == nullptr) return finish(CUPTI_ERROR_NOT_INITIALIZED);
  // NULL names the legacy default stream, or the per-thread one with perThreadStream.
  CUstream s = stream;
  if (s == nullptr && perThreadStream != 0) s = CU_STREAM_PER_THREAD;
  uint64_t id = t->stream_id(s);
  if (id == 0) return finish(CUPTI_ERROR_INVALID_STREAM);
  *streamId = static_cast<uint32_t>(id);
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetStreamId(CUcontext context, CUstream stream, uint32_t* streamId) {
  return cuptiGetStreamIdEx(context, stream, /*perThreadStream=*/0, streamId);
}

CUptiResult CUPTIAPI cuptiGetDeviceId(CUcontext context, uint32_t* deviceId) {
  if (deviceId == nullptr) return finish(CUPTI_ERROR_INVALID_PARAMETER);
  const strata::prof::ProfilerTable* t = table();
  if (t == nullptr) return finish(CUPTI_ERROR_NOT_INITIALIZED);
  // The driver's answer for the context (NULL: the current context).
  using CtxGetDevice = CUresult (*)(CUdevice*, CUcontext);
  static auto get_device =
      reinterpret_cast<CtxGetDevice>(strata::cupti::driver_symbol("cuCtxGetDevice_v2"));
  CUdevice device = 0;
  if (get_device == nullptr || get_device(&device, context) != CUDA_SUCCESS) {
    return finish(CUPTI_ERROR_INVALID_CONTEXT);
  }
  *deviceId = static_cast<uint32_t>(device);
  return CUPTI_SUCCESS;
}

// Graph ids: the driver's ids of its graph objects, the values Kernel records carry
// (graphId: the executable's id, graphNodeId: its node's). CUPTI_ERROR_INVALID_PARAMETER
// for a NULL or unknown handle and a NULL result pointer.
CUptiResult CUPTIAPI cuptiGetGraphId(CUgraph graph, uint32_t* pId) {
  if (graph == nullptr || pId == nullptr) return finish(CUPTI_ERROR_INVALID_PARAMETER);
  const strata::prof::ProfilerTable* t = table();
  if (t == nullptr) return finish(CUPTI_ERROR_NOT_INITIALIZED);
  uint64_t id = t->graph_id(graph);
  if (id == 0) return finish(CUPTI_ERROR_INVALID_PARAMETER);
  *pId = static_cast<uint32_t>(id);
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetGraphExecId(CUgraphExec graphExec, uint32_t* pId) {
  if (graphExec == nullptr || pId == nullptr) return finish(CUPTI_ERROR_INVALID_PARAMETER);
  const strata::prof::ProfilerTable* t = table();
  if (t == nullptr) return finish(CUPTI_ERROR_NOT_INITIALIZED);
  uint64_t id = t->graph_exec_id(graphExec);
  if (id == 0) return finish(CUPTI_ERROR_INVALID_PARAMETER);
  *pId = static_cast<uint32_t>(id);
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetGraphNodeId(CUgraphNode node, uint64_t* nodeId) {
  if (node == nullptr || nodeId == nullptr) return finish(CUPTI_ERROR_INVALID_PARAMETER);
  const strata::prof::ProfilerTable* t = table();
  if (t == nullptr) return finish(CUPTI_ERROR_NOT_INITIALIZED);
  uint64_t id = t->graph_node_id(node);
  if (id == 0) return finish(CUPTI_ERROR_INVALID_PARAMETER);
  *nodeId = id;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetVersion(uint32_t* version) {
  if (version == nullptr) return finish(CUPTI_ERROR_INVALID_PARAMETER);
  *version = CUPTI_API_VERSION;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetResultString(CUptiResult result, const char** str) {
  const ResultName* r = find_result(result);
  if (str == nullptr || r == nullptr) return finish(CUPTI_ERROR_INVALID_PARAMETER);
  *str = r->name;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetErrorMessage(CUptiResult result, const char** str) {
  const ResultName* r = find_result(result);
  if (str == nullptr || r == nullptr) return finish(CUPTI_ERROR_INVALID_PARAMETER);
  *str = r->message;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetLastError(void) {
  return strata::cupti::take_last_error();
}

}  // extern "C"
