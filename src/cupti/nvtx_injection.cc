// NVTX's entry points into libcupti.so.13 (nvtx_injection.h).
#include "cupti/nvtx_injection.h"

#include <cudaProfiler.h>

#include <cstdlib>
#include <mutex>
#include <utility>

#include "base/log.h"
#include "prof/abi.h"

namespace {

// The process' recorder, created by the first successful initialisation and never
// destroyed (NVTX calls may come from static destructors).
strata::cupti::NvtxRecorder* g_process_recorder = nullptr;

// STRATA_PROF_CAPTURE_NVTX's calls; a failure (e.g. no current context yet) is logged.
void capture_call(const char* function, CUresult result) {
  if (result != CUDA_SUCCESS) {
    STRATA_LOG_WARN("STRATA_PROF_CAPTURE_NVTX: {} failed ({}); the capture range is not applied",
                    function, static_cast<int>(result));
  }
}

void finish_at_exit() {
  if (g_process_recorder != nullptr) g_process_recorder->finish();
}

strata::cupti::NvtxRecorder* process_recorder() {
  static std::once_flag once;
  std::call_once(once, [] {
    const void* exported = nullptr;
    CUresult result = cuGetExportTable(&exported, &strata::prof::kProfilerTableId);
    auto* table = static_cast<const strata::prof::ProfilerTable*>(exported);
    if (result != CUDA_SUCCESS || table == nullptr) {
      STRATA_LOG_WARN(
          "NVTX: the driver has no profiler table (cuGetExportTable: {}); NVTX calls "
          "are not recorded",
          static_cast<int>(result));
      return;
    }
    if (table->size < sizeof(strata::prof::ProfilerTable)) {
      STRATA_LOG_WARN(
          "NVTX: the driver's profiler table is older than libcupti's ({} < {} "
          "bytes); NVTX calls are not recorded",
          table->size, sizeof(strata::prof::ProfilerTable));
      return;
    }
    g_process_recorder = new strata::cupti::NvtxRecorder(*table);
    if (const char* spec = std::getenv("STRATA_PROF_CAPTURE_NVTX"); spec && *spec) {
      strata::cupti::NvtxCapture capture = strata::cupti::NvtxCapture::parse(spec);
      capture.begin = [] { capture_call("cuProfilerStart", cuProfilerStart()); };
      capture.end = [] { capture_call("cuProfilerStop", cuProfilerStop()); };
      g_process_recorder->set_capture(std::move(capture));
    }
    std::atexit(finish_at_exit);
  });
  return g_process_recorder;
}

}  // namespace

extern "C" int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table) {
  strata::cupti::NvtxRecorder* recorder = process_recorder();
  if (recorder == nullptr) return 0;
  return strata::cupti::attach_nvtx_module(get_export_table, recorder);
}

extern "C" int InitializeInjectionNvtxExtension(nvtxExtModuleInfo_t*) {
  return 0;
}
