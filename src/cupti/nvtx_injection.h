// Strata's NVTX injection, part of libcupti.so.13 (as NVIDIA's libcupti exports it): an
// unmodified program using the NVTX3 headers, run with NVTX_INJECTION64_PATH=<path of
// libcupti.so.13>, has its NVTX calls recorded as profiler records (prof/trace.h: Nvtx,
// NvtxDomain, Thread, and stream/device names) delivered through the driver's profiler
// table (prof/abi.h) to whatever collects (the raw trace writer of STRATA_PROF_OUTPUT,
// Strata's CUPTI). Protocol: ../shared/reference/profiler-formats.md section 5.
//
// NVTX calls InitializeInjectionNvtx2 once per module (each executable or library that
// includes the NVTX3 headers has its own function tables). Supported modules:
//  * CORE:   marks, push/pop, start/end (Ex, A and W; W strings are converted to UTF-8),
//            nvtxNameCategory, nvtxNameOsThread;
//  * CORE2:  domains (create/destroy), domain marks and ranges, domain categories,
//            registered strings, nvtxDomainResourceCreate/Destroy (accepted, not
//            recorded), nvtxInitialize;
//  * CUDA:   nvtxNameCuDevice / nvtxNameCuStream (names on the Device / Stream records);
//            nvtxNameCuContext / nvtxNameCuEvent are accepted and not recorded (no record
//            carries those names);
//  * CUDART: nvtxNameCudaDevice / nvtxNameCudaStream as above; nvtxNameCudaEvent accepted;
//  * SYNC and OPENCL: not attached; NVTX makes them no-ops.
// Event attributes: message (ASCII, UNICODE, REGISTERED), ARGB color, category and the
// six payload types; an attribute struct that is null or too small for a field leaves it
// unset. Return values as NVTX documents (push: the new range's zero-based level; pop: the
// ended range's level; -1 for a pop with nothing pushed in that domain on this thread).
// Ranges still open at process exit are delivered without an end (an atexit hook
// registered at the first successful initialisation).
//
// Capture ranges: STRATA_PROF_CAPTURE_NVTX=RANGE[@DOMAIN] (nsys's --nvtx-capture syntax:
// no @ the default domain, @* any domain) makes the injection call cuProfilerStart when a
// push/pop or start/end range with message RANGE begins (the outermost, if they nest or
// overlap) and cuProfilerStop when the last one ends: the collector's cudaProfilerApi
// capture then applies to NVTX ranges too.
#pragma once

#include <nvtx3/nvToolsExt.h>
#include <nvtx3/nvToolsExtPayload.h>  // nvtxExtModuleInfo_t

#include "cupti/nvtx_recorder.h"

namespace strata::cupti {

// Attaches `recorder` to the NVTX module whose export table `get_export_table` returns:
// fills its CORE, CORE2, CUDA and CUDART function tables. Returns 1 on success, 0 when the
// module offers no callback table (NVTX then makes every call a no-op). The recorder
// must outlive every later NVTX call of that module. (InitializeInjectionNvtx2 calls this
// with the process' recorder; tests call it with their own.)
int attach_nvtx_module(NvtxGetExportTableFunc_t get_export_table, NvtxRecorder* recorder);

// UTF-8 of a null-terminated wide string (UTF-32, or UTF-16 where wchar_t has 16 bits);
// invalid code points become U+FFFD. Null gives "".
std::string utf8_from_wide(const wchar_t* text);

}  // namespace strata::cupti

extern "C" {
// NVTX's entry point: gets the driver's profiler table (cuGetExportTable with
// prof::kProfilerTableId), creates the process' recorder on the first call, and attaches
// it to the calling module. If the driver has no profiler table, logs one line and
// returns 0 (NVTX then makes the module's calls no-ops).
__attribute__((visibility("default"))) int InitializeInjectionNvtx2(
    NvtxGetExportTableFunc_t get_export_table);
// The entry point of NVTX's extensions (payload schemas, counters, memory): Strata
// supports none of them and returns 0, which leaves their calls no-ops.
__attribute__((visibility("default"))) int InitializeInjectionNvtxExtension(
    nvtxExtModuleInfo_t* module_info);
}
