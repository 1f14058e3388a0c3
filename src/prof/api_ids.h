// CUPTI's callback ids of the runtime and driver API (CUpti_runtime_api_trace_cbid,
// CUpti_driver_api_trace_cbid) with the names CUPTI and Nsight Systems show, generated
// at build time from the toolkit's cupti_runtime_cbid.h and cupti_driver_cbid.h
// (gen_api_ids.py, which states the lookup rule).
//
// Names: `name` is the enumerator without its prefix ("cudaMalloc_v3020",
// "cuMemAlloc_v2", "cuMemcpyHtoD_v2_ptds"); `function` is the exported function it
// belongs to: the runtime name without the trailing "_v<N>" ("cudaMalloc",
// "cudaMemcpy_ptds"), the driver name itself.
//
// Lookups take a function name as call sites spell it: the exported symbol
// ("cudaMemcpy_ptds", "cuMemAlloc_v2") or the name cuda.h / cuda_runtime_api.h binds to
// it ("cuMemAlloc" -> cuMemAlloc_v2, "cudaMalloc" -> cudaMalloc_v3020). The per_thread
// forms give the per-thread-default-stream variant's id ("cudaMemcpy" ->
// cudaMemcpy_ptds_v7000, "cuLaunchKernel" -> cuLaunchKernel_ptsz), null when the
// function has none. Every result points into static tables; lookups are binary
// searches, thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace strata::prof {

struct ApiId {
  uint32_t cbid;
  const char* name;      // "cudaMalloc_v3020"
  const char* function;  // "cudaMalloc"
};

// Null when the function has no id.
const ApiId* runtime_api_id(std::string_view function);
const ApiId* driver_api_id(std::string_view function);
const ApiId* runtime_api_id_per_thread(std::string_view function);
const ApiId* driver_api_id_per_thread(std::string_view function);

// The id named exactly `name` ("cuMemAlloc" -> the old cuMemAlloc id, not
// cuMemAlloc_v2), null when none.
const ApiId* runtime_api_by_name(std::string_view name);
const ApiId* driver_api_by_name(std::string_view name);

// Null for an unknown cbid (and for CUPTI's INVALID, 0).
const ApiId* runtime_api_by_cbid(uint32_t cbid);
const ApiId* driver_api_by_cbid(uint32_t cbid);

// Every id of the domain in cbid order.
std::span<const ApiId> runtime_api_ids();
std::span<const ApiId> driver_api_ids();

}  // namespace strata::prof
