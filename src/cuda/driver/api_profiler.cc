// The profiler table (prof/abi.h) that cuGetExportTable hands Strata's libcupti.so.13,
// and the collector's start-up: STRATA_PROF_OUTPUT's raw trace writer and the hook that
// harvests device work.
#include "cuda/driver/api_profiler.h"

#include "cuda/driver/activity.h"
#include "cuda/driver/context.h"
#include "cuda/driver/device.h"
#include "cuda/driver/handles.h"
#include "cuda/driver/stream.h"
#include "prof/abi.h"

namespace strata::cuda::driver {
namespace {

std::shared_ptr<Context> context_of(CUcontext handle) {
  if (handle == nullptr) return current_context();
  for (const std::shared_ptr<Context>& c : live_context_list()) {
    if (c->handle() == handle) return c;
  }
  return nullptr;
}

std::shared_ptr<Stream> stream_of(CUstream handle) {
  std::shared_ptr<Context> ctx = current_context();
  if (handle != nullptr && handle != CU_STREAM_LEGACY && handle != CU_STREAM_PER_THREAD) {
    std::shared_ptr<Stream> s = handles().streams.find(handle);
    return s;
  }
  if (ctx == nullptr) return nullptr;
  StatusOr<std::shared_ptr<Stream>> s = resolve_stream(*ctx, handle, /*per_thread_default=*/false);
  return s.ok() ? *s : nullptr;
}

uint64_t table_context_id(CUcontext handle) {
  std::shared_ptr<Context> c = context_of(handle);
  return c ? c->activity().id() : 0;
}

uint64_t table_stream_id(CUstream handle) {
  std::shared_ptr<Stream> s = stream_of(handle);
  return s ? s->id() : 0;
}

uint32_t table_stream_device(CUstream handle) {
  std::shared_ptr<Stream> s = stream_of(handle);
  return s ? static_cast<uint32_t>(s->context().device().ordinal()) : 0;
}

uint64_t table_stream_context_id(CUstream handle) {
  std::shared_ptr<Stream> s = stream_of(handle);
  return s ? s->context().activity().id() : 0;
}

void table_name_stream(CUstream handle, const char* name) {
  std::shared_ptr<Stream> s = stream_of(handle);
  if (s && name != nullptr) s->context().activity().emit_stream_record(*s, name);
}

void table_name_device(int, const char*) {
  // Devices keep their configured names in the records (trace.h has no display name).
}

void table_flush(bool wait) {
  prof::flush(wait);
}

const prof::ProfilerTable kTable = {
    sizeof(prof::ProfilerTable),
    prof::attach,
    prof::detach,
    prof::emit,
    prof::now_ns,
    prof::this_tid,
    prof::this_pid,
    table_flush,
    table_context_id,
    table_stream_id,
    table_stream_device,
    table_stream_context_id,
    table_name_stream,
    table_name_device,
    // Runtime API calls (libcudart, prof/abi.h).
    &prof::detail::g_active,
    prof::open_api_scope_in_place,
    prof::close_api_scope_in_place,
};

// At load: the flush hook, then (with STRATA_PROF_OUTPUT) the raw trace writer.
const bool kStarted = [] {
  prof::set_flush_hook(harvest_all_contexts);
  prof::start_from_environment();
  return true;
}();

}  // namespace

const void* profiler_export_table(const CUuuid& id) {
  (void)kStarted;
  for (int i = 0; i < 16; ++i) {
    if (id.bytes[i] != prof::kProfilerTableId.bytes[i]) return nullptr;
  }
  return &kTable;
}

}  // namespace strata::cuda::driver
