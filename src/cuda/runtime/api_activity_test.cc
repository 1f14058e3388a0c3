// Runtime API records (issue 6, item 1) through libcudart.so.13 and libcuda.so.1 as an
// application links them: the sink attaches through the driver's profiler table
// (prof/abi.h), and each runtime call records once, with its CUPTI runtime id
// (cupti_runtime_cbid.h), its *_params struct (generated_cuda_runtime_api_meta.h) and
// the cudaError_t the runtime API documents; the driver calls it makes do not record.
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti_runtime_cbid.h>
#include <generated_cuda_runtime_api_meta.h>
#include <gtest/gtest.h>

#include <mutex>
#include <vector>

#include "prof/abi.h"

namespace strata::prof {
namespace {

class ApiSink : public Sink {
 public:
  void on_api(const ApiCall& call) override {
    std::lock_guard lock(mu_);
    if (!call.exit && call.cbid == CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020 &&
        call.params != nullptr) {
      malloc_size = static_cast<const cudaMalloc_v3020_params*>(call.params)->size;
    }
    calls.push_back(call);
    // return_value is valid only during the exit callback.
    if (call.exit && call.return_value != nullptr) {
      results.push_back(*static_cast<const int32_t*>(call.return_value));
    }
  }
  void on_record(const Record& record) override {
    std::lock_guard lock(mu_);
    if (const Api* api = std::get_if<Api>(&record)) apis.push_back(*api);
  }
  std::vector<ApiCall> calls;
  std::vector<Api> apis;
  std::vector<int32_t> results;  // of the exit callbacks
  size_t malloc_size = 0;

 private:
  std::mutex mu_;
};

const ProfilerTable* runtime_hooks() {
  const void* found = nullptr;
  if (cuGetExportTable(&found, &kProfilerTableId) != CUDA_SUCCESS || found == nullptr) {
    return nullptr;
  }
  const auto* table = static_cast<const ProfilerTable*>(found);
  if (table->size < sizeof(ProfilerTable) || table->attach == nullptr ||
      table->open_api_scope == nullptr) {
    return nullptr;
  }
  return table;
}

TEST(RuntimeApiRecords, EachCallRecordsOnceWithItsId) {
  const ProfilerTable* table = runtime_hooks();
  if (table == nullptr) GTEST_SKIP() << "the driver offers no profiler table with runtime hooks";
  ASSERT_EQ(cudaFree(nullptr), cudaSuccess);  // initialises, not recorded

  ApiSink sink;
  table->attach(&sink, kWantApiCallbacks);
  void* ptr = nullptr;
  EXPECT_EQ(cudaMalloc(&ptr, 4096), cudaSuccess);
  EXPECT_EQ(cudaMemset(ptr, 0, 4096), cudaSuccess);
  EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  EXPECT_EQ(cudaFree(ptr), cudaSuccess);
  // An ordinal beyond the devices: cudaErrorInvalidDevice (cudaSetDevice's documented error).
  int count = 0;
  EXPECT_EQ(cudaGetDeviceCount(&count), cudaSuccess);
  EXPECT_EQ(cudaSetDevice(count + 1000), cudaErrorInvalidDevice);
  table->detach(&sink);

  struct Expected {
    uint32_t cbid;
    const char* name;
    cudaError_t result;
  };
  const Expected expected[] = {
      {CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, "cudaMalloc_v3020", cudaSuccess},
      {CUPTI_RUNTIME_TRACE_CBID_cudaMemset_v3020, "cudaMemset_v3020", cudaSuccess},
      {CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020, "cudaDeviceSynchronize_v3020",
       cudaSuccess},
      {CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020, "cudaFree_v3020", cudaSuccess},
      {CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceCount_v3020, "cudaGetDeviceCount_v3020", cudaSuccess},
      {CUPTI_RUNTIME_TRACE_CBID_cudaSetDevice_v3020, "cudaSetDevice_v3020", cudaErrorInvalidDevice},
  };
  // Only runtime records: the driver calls each runtime call makes are not recorded.
  ASSERT_EQ(sink.apis.size(), std::size(expected));
  uint32_t previous = 0;
  for (size_t i = 0; i < sink.apis.size(); ++i) {
    const Api& api = sink.apis[i];
    SCOPED_TRACE(api.name);
    EXPECT_EQ(api.domain, ApiDomain::kRuntime);
    EXPECT_EQ(api.cbid, expected[i].cbid);
    EXPECT_EQ(api.name, expected[i].name);
    EXPECT_EQ(api.return_value, static_cast<int32_t>(expected[i].result));
    EXPECT_LE(api.start, api.end);
    EXPECT_GT(api.correlation_id, previous);
    previous = api.correlation_id;
  }
  EXPECT_EQ(sink.malloc_size, 4096u);  // functionParams is cudaMalloc_v3020_params
  ASSERT_EQ(sink.calls.size(), 2 * std::size(expected));
  EXPECT_STREQ(sink.calls[0].function, "cudaMalloc");
  ASSERT_EQ(sink.results.size(), std::size(expected));
  for (size_t i = 0; i < std::size(expected); ++i) {
    EXPECT_EQ(sink.results[i], static_cast<int32_t>(expected[i].result)) << expected[i].name;
  }
}

}  // namespace
}  // namespace strata::prof
