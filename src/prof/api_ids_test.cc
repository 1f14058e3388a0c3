// The generated id tables against the toolkit's own enumerators (cupti_*_cbid.h), and
// the lookup rule of gen_api_ids.py on the cases it exists for.
#include "prof/api_ids.h"

#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>
#include <gtest/gtest.h>

#include <string>

namespace strata::prof {
namespace {

void expect_runtime(std::string_view function, uint32_t cbid, const char* name,
                    const char* exported) {
  const ApiId* id = runtime_api_id(function);
  ASSERT_NE(id, nullptr) << function;
  EXPECT_EQ(id->cbid, cbid) << function;
  EXPECT_STREQ(id->name, name);
  EXPECT_STREQ(id->function, exported);
  EXPECT_EQ(runtime_api_by_cbid(cbid), id);
}

void expect_driver(std::string_view function, bool per_thread, uint32_t cbid, const char* name) {
  const ApiId* id = per_thread ? driver_api_id_per_thread(function) : driver_api_id(function);
  ASSERT_NE(id, nullptr) << function;
  EXPECT_EQ(id->cbid, cbid) << function;
  EXPECT_STREQ(id->name, name);
  EXPECT_STREQ(id->function, name);  // driver ids are named after the exported symbol
  EXPECT_EQ(driver_api_by_cbid(cbid), id);
}

TEST(ApiIds, RuntimeIdsAreTheToolkitEnumerators) {
  expect_runtime("cudaMalloc", CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, "cudaMalloc_v3020",
                 "cudaMalloc");
  expect_runtime("cudaFree", CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020, "cudaFree_v3020", "cudaFree");
  expect_runtime("cudaMemcpy", CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020, "cudaMemcpy_v3020",
                 "cudaMemcpy");
  expect_runtime("cudaDeviceSynchronize", CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020,
                 "cudaDeviceSynchronize_v3020", "cudaDeviceSynchronize");
  expect_runtime("cudaGetLastError", CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020,
                 "cudaGetLastError_v3020", "cudaGetLastError");
  // Per-thread-default-stream entry points are functions of their own.
  expect_runtime("cudaLaunchKernel", CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
                 "cudaLaunchKernel_v7000", "cudaLaunchKernel");
  expect_runtime("cudaLaunchKernel_ptsz", CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
                 "cudaLaunchKernel_ptsz_v7000", "cudaLaunchKernel_ptsz");
  expect_runtime("cudaMemcpy_ptds", CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000,
                 "cudaMemcpy_ptds_v7000", "cudaMemcpy_ptds");
  expect_runtime("cudaMemcpyAsync_ptsz", CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_ptsz_v7000,
                 "cudaMemcpyAsync_ptsz_v7000", "cudaMemcpyAsync_ptsz");
  // The registration ABI nvcc's host stubs call has ids since CUDA 13.
  expect_runtime("__cudaLaunchKernel", CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,
                 "__cudaLaunchKernel_v13000", "__cudaLaunchKernel");
  expect_runtime("__cudaRegisterFunction", CUPTI_RUNTIME_TRACE_CBID___cudaRegisterFunction_v13000,
                 "__cudaRegisterFunction_v13000", "__cudaRegisterFunction");
}

TEST(ApiIds, RuntimePerThreadLookup) {
  const ApiId* id = runtime_api_id_per_thread("cudaMemcpy");
  ASSERT_NE(id, nullptr);
  EXPECT_EQ(id->cbid, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000);
  id = runtime_api_id_per_thread("cudaLaunchKernel");
  ASSERT_NE(id, nullptr);
  EXPECT_EQ(id->cbid, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000);
  EXPECT_EQ(runtime_api_id_per_thread("cudaMalloc"), nullptr);
}

TEST(ApiIds, DriverIdsAreTheExportedEntryPoints) {
  // cuda.h binds cuMemAlloc to cuMemAlloc_v2; the old cuMemAlloc id is its own.
  expect_driver("cuMemAlloc", false, CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, "cuMemAlloc_v2");
  expect_driver("cuMemAlloc_v2", false, CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, "cuMemAlloc_v2");
  EXPECT_EQ(driver_api_by_cbid(CUPTI_DRIVER_TRACE_CBID_cuMemAlloc)->cbid,
            static_cast<uint32_t>(CUPTI_DRIVER_TRACE_CBID_cuMemAlloc));
  expect_driver("cuCtxCreate", false, CUPTI_DRIVER_TRACE_CBID_cuCtxCreate_v4, "cuCtxCreate_v4");
  expect_driver("cuInit", false, CUPTI_DRIVER_TRACE_CBID_cuInit, "cuInit");
  expect_driver("cuLaunchKernel", false, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, "cuLaunchKernel");
  // cuMemcpy is exported as cuMemcpy (cuda.h does not rename it), not cuMemcpy_v2.
  expect_driver("cuMemcpy", false, CUPTI_DRIVER_TRACE_CBID_cuMemcpy, "cuMemcpy");
  expect_driver("cuMemcpyHtoD", false, CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2, "cuMemcpyHtoD_v2");
  expect_driver("cuMemsetD8", false, CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2, "cuMemsetD8_v2");
}

TEST(ApiIds, DriverPerThreadLookup) {
  expect_driver("cuMemcpyHtoD", true, CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2_ptds,
                "cuMemcpyHtoD_v2_ptds");
  expect_driver("cuMemcpy", true, CUPTI_DRIVER_TRACE_CBID_cuMemcpy_ptds, "cuMemcpy_ptds");
  expect_driver("cuMemcpyAsync", true, CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync_ptsz,
                "cuMemcpyAsync_ptsz");
  expect_driver("cuLaunchKernel", true, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
                "cuLaunchKernel_ptsz");
  expect_driver("cuStreamSynchronize", true, CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize_ptsz,
                "cuStreamSynchronize_ptsz");
  expect_driver("cuMemcpyHtoD_v2_ptds", false, CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2_ptds,
                "cuMemcpyHtoD_v2_ptds");
  EXPECT_EQ(driver_api_id_per_thread("cuMemAlloc"), nullptr);
}

TEST(ApiIds, ExactNames) {
  ASSERT_NE(driver_api_by_name("cuMemAlloc"), nullptr);
  EXPECT_EQ(driver_api_by_name("cuMemAlloc")->cbid,
            static_cast<uint32_t>(CUPTI_DRIVER_TRACE_CBID_cuMemAlloc));
  ASSERT_NE(driver_api_by_name("cuMemcpyHtoD_v2_ptds"), nullptr);
  EXPECT_EQ(driver_api_by_name("cuMemcpyHtoD_v2_ptds")->cbid,
            static_cast<uint32_t>(CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2_ptds));
  ASSERT_NE(runtime_api_by_name("cudaMalloc_v3020"), nullptr);
  EXPECT_EQ(runtime_api_by_name("cudaMalloc_v3020")->cbid,
            static_cast<uint32_t>(CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020));
  EXPECT_EQ(runtime_api_by_name("cudaMalloc"), nullptr);  // ids are named with their version
  EXPECT_EQ(driver_api_by_name("copy"), nullptr);
}

TEST(ApiIds, UnknownNamesAndIds) {
  EXPECT_EQ(runtime_api_id("cudaNoSuchFunction"), nullptr);
  EXPECT_EQ(driver_api_id("cuNoSuchFunction"), nullptr);
  EXPECT_EQ(runtime_api_id(""), nullptr);
  EXPECT_EQ(runtime_api_by_cbid(CUPTI_RUNTIME_TRACE_CBID_INVALID), nullptr);
  EXPECT_EQ(driver_api_by_cbid(CUPTI_DRIVER_TRACE_CBID_INVALID), nullptr);
  EXPECT_EQ(runtime_api_by_cbid(CUPTI_RUNTIME_TRACE_CBID_SIZE), nullptr);
  EXPECT_EQ(driver_api_by_cbid(CUPTI_DRIVER_TRACE_CBID_SIZE), nullptr);
}

// Every id below SIZE that the toolkit defines is in the table, in cbid order, each with
// a non-empty name its function is a prefix of.
TEST(ApiIds, TablesAreCompleteAndOrdered) {
  for (auto [ids, size] : {std::pair{runtime_api_ids(), uint32_t{CUPTI_RUNTIME_TRACE_CBID_SIZE}},
                           std::pair{driver_api_ids(), uint32_t{CUPTI_DRIVER_TRACE_CBID_SIZE}}}) {
    ASSERT_FALSE(ids.empty());
    uint32_t previous = 0;
    for (const ApiId& id : ids) {
      EXPECT_GT(id.cbid, previous);
      EXPECT_LT(id.cbid, size);
      previous = id.cbid;
      EXPECT_EQ(std::string(id.name).rfind(id.function, 0), 0u) << id.name;
    }
    // The enumerators are dense from 1 to SIZE-1 in both headers.
    EXPECT_EQ(ids.size(), size - 1);
  }
}

}  // namespace
}  // namespace strata::prof
