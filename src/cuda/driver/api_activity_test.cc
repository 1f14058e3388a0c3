// Driver API records (issue 6, item 1) from the driver linked in-process: every entry
// point opens a prof::ApiScope with its CUPTI driver id (cuda/driver/api_util.h). The
// expected ids are the toolkit's enumerators (cupti_driver_cbid.h) and the CUresult values
// the driver API documents.
#include <cuda.h>
#include <cupti_driver_cbid.h>
#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <vector>

#include "prof/collector.h"

// Per-thread-default-stream entry points cuda.h declares only under
// CUDA_API_PER_THREAD_DEFAULT_STREAM, with the signatures of their legacy forms.
extern "C" decltype(cuMemcpyHtoD) cuMemcpyHtoD_v2_ptds;  // cuMemcpyHtoD_v2
extern "C" decltype(cuMemsetD8) cuMemsetD8_v2_ptds;      // cuMemsetD8_v2
extern "C" decltype(cuStreamSynchronize) cuStreamSynchronize_ptsz;

namespace strata::prof {
namespace {

class ApiSink : public Sink {
 public:
  void on_api(const ApiCall& call) override {
    std::lock_guard lock(mu_);
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

 private:
  std::mutex mu_;
};

class DriverApiRecords : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
    ASSERT_EQ(cuDeviceGet(&device_, 0), CUDA_SUCCESS);
    ASSERT_EQ(cuDevicePrimaryCtxRetain(&context_, device_), CUDA_SUCCESS);
    ASSERT_EQ(cuCtxSetCurrent(context_), CUDA_SUCCESS);
  }
  void TearDown() override { cuDevicePrimaryCtxRelease(device_); }
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
};

TEST_F(DriverApiRecords, NamesIdsResultsAndCorrelation) {
  ApiSink sink;
  attach(&sink, kWantApiCallbacks);
  CUdeviceptr ptr = 0;
  EXPECT_EQ(cuMemAlloc(&ptr, 4096), CUDA_SUCCESS);  // binds to cuMemAlloc_v2 (cuda.h)
  EXPECT_EQ(cuMemsetD8(ptr, 0, 4096), CUDA_SUCCESS);
  EXPECT_EQ(cuCtxSynchronize(), CUDA_SUCCESS);
  EXPECT_EQ(cuMemFree(ptr), CUDA_SUCCESS);
  // Freeing an address that was never allocated: CUDA_ERROR_INVALID_VALUE.
  EXPECT_EQ(cuMemFree(0x10), CUDA_ERROR_INVALID_VALUE);
  detach(&sink);
  EXPECT_EQ(cuCtxSynchronize(), CUDA_SUCCESS);  // after detaching: not recorded

  struct Expected {
    uint32_t cbid;
    const char* name;
    CUresult result;
  };
  const Expected expected[] = {
      {CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, "cuMemAlloc_v2", CUDA_SUCCESS},
      {CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2, "cuMemsetD8_v2", CUDA_SUCCESS},
      {CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize, "cuCtxSynchronize", CUDA_SUCCESS},
      {CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2, "cuMemFree_v2", CUDA_SUCCESS},
      {CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2, "cuMemFree_v2", CUDA_ERROR_INVALID_VALUE},
  };
  ASSERT_EQ(sink.apis.size(), std::size(expected));
  uint32_t previous = 0;
  for (size_t i = 0; i < sink.apis.size(); ++i) {
    const Api& api = sink.apis[i];
    SCOPED_TRACE(api.name);
    EXPECT_EQ(api.domain, ApiDomain::kDriver);
    EXPECT_EQ(api.cbid, expected[i].cbid);
    EXPECT_EQ(api.name, expected[i].name);
    EXPECT_EQ(api.return_value, static_cast<int32_t>(expected[i].result));
    EXPECT_LE(api.start, api.end);
    EXPECT_GT(api.correlation_id, previous);  // distinct and increasing
    previous = api.correlation_id;
    if (i > 0) {
      EXPECT_GE(api.start, sink.apis[i - 1].end);  // one thread: in order
    }
    EXPECT_EQ(api.tid, this_tid());
    EXPECT_EQ(api.pid, this_pid());
  }

  // Callbacks: an entry and an exit per call, the exit with the result.
  ASSERT_EQ(sink.calls.size(), 2 * std::size(expected));
  for (size_t i = 0; i < sink.calls.size(); i += 2) {
    const ApiCall& enter = sink.calls[i];
    const ApiCall& exit = sink.calls[i + 1];
    EXPECT_FALSE(enter.exit);
    EXPECT_TRUE(exit.exit);
    EXPECT_EQ(enter.cbid, exit.cbid);
    EXPECT_EQ(enter.correlation_id, exit.correlation_id);
    EXPECT_STREQ(enter.function, expected[i / 2].name);  // the exported symbol
    ASSERT_LT(i / 2, sink.results.size());
    EXPECT_EQ(sink.results[i / 2], static_cast<int32_t>(expected[i / 2].result));
  }
}

// The per-thread-default-stream entry points (what cuda.h binds under
// CUDA_API_PER_THREAD_DEFAULT_STREAM) record their own _ptds/_ptsz ids.
TEST_F(DriverApiRecords, PerThreadEntryPointsRecordTheirIds) {
  CUdeviceptr ptr = 0;
  ASSERT_EQ(cuMemAlloc(&ptr, 64), CUDA_SUCCESS);
  ApiSink sink;
  attach(&sink, 0);
  char host[64] = {};
  EXPECT_EQ(cuMemcpyHtoD_v2_ptds(ptr, host, sizeof(host)), CUDA_SUCCESS);
  EXPECT_EQ(cuMemsetD8_v2_ptds(ptr, 0, sizeof(host)), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamSynchronize_ptsz(nullptr), CUDA_SUCCESS);
  detach(&sink);
  EXPECT_EQ(cuMemFree(ptr), CUDA_SUCCESS);
  ASSERT_EQ(sink.apis.size(), 3u);
  EXPECT_EQ(sink.apis[0].cbid, static_cast<uint32_t>(CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2_ptds));
  EXPECT_EQ(sink.apis[0].name, "cuMemcpyHtoD_v2_ptds");
  EXPECT_EQ(sink.apis[1].cbid, static_cast<uint32_t>(CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2_ptds));
  EXPECT_EQ(sink.apis[2].cbid,
            static_cast<uint32_t>(CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize_ptsz));
}

// Inside a recording scope (as when the runtime calls the driver for the application),
// driver calls are not recorded.
TEST_F(DriverApiRecords, NestedCallsRecordOnce) {
  ApiSink sink;
  attach(&sink, 0);
  {
    ApiScope outer(ApiDomain::kRuntime, CUPTI_DRIVER_TRACE_CBID_cuInit, "outer", "outer", nullptr);
    CUdeviceptr ptr = 0;
    EXPECT_EQ(cuMemAlloc(&ptr, 256), CUDA_SUCCESS);
    EXPECT_EQ(cuMemFree(ptr), CUDA_SUCCESS);
  }
  detach(&sink);
  ASSERT_EQ(sink.apis.size(), 1u);
  EXPECT_EQ(sink.apis[0].name, "outer");
}

}  // namespace
}  // namespace strata::prof
