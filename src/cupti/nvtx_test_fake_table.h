// For cupti_nvtx_test: a fake profiler table (prof/abi.h) that collects what the NVTX
// injection delivers, and the recorder NVTX's static injection hook attaches
// (nvtx_test_fake_table.cc; that file is the NVTX tool side, built with NVTX_NO_IMPL).
#pragma once

#include <cuda.h>

#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "cupti/nvtx_recorder.h"
#include "prof/collector.h"

namespace strata::cupti::nvtx_test {

// Everything the fake table received; guarded by g_mutex.
extern std::mutex g_mutex;
extern std::vector<prof::Record> g_records;
extern std::vector<std::pair<CUstream, std::string>> g_stream_names;
extern std::vector<std::pair<int, std::string>> g_device_names;
// Created by the first NVTX call (NVTX's initialisation), then fixed.
extern NvtxRecorder* g_recorder;

// The recorder's capture range (NvtxCapture): "capture me" in the default domain; the
// hooks count their calls.
inline constexpr const char* kCaptureRange = "capture me";
extern int g_capture_begins;
extern int g_capture_ends;

uint32_t fake_tid();  // gettid
uint32_t fake_pid();  // getpid

}  // namespace strata::cupti::nvtx_test
