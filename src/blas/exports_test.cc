// The generated stubs of libcublas.so.13 and libcublasLt.so.13 (gen_exports.py): an entry
// point Strata does not implement returns CUBLAS_STATUS_NOT_SUPPORTED and logs one warning
// naming itself, the first time it is called only. The names are NVIDIA-internal entry
// points that no toolkit header declares (stubbed as `cublasStatus_t name(void)`), which
// Strata will not implement.
#include <cublas_api.h>
#include <gtest/gtest.h>

#include <string>

extern "C" {
cublasStatus_t cublasSbdmm(void);
cublasStatus_t cublasSetBackdoor(void);
cublasStatus_t cublasLtACCMatmul(void);
cublasStatus_t cublasLt_for_cublas_SSS(void);
}

namespace {

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Calls `stub` three times; expects NOT_SUPPORTED each time and one warning naming it.
void expect_stub(cublasStatus_t (*stub)(), const std::string& lib, const std::string& name) {
  testing::internal::CaptureStderr();
  for (int i = 0; i < 3; ++i) EXPECT_EQ(stub(), CUBLAS_STATUS_NOT_SUPPORTED) << name;
  std::string log = testing::internal::GetCapturedStderr();
  EXPECT_EQ(count(log, "strata: warning: " + lib + ": " + name + " is not supported"), 1) << log;
  EXPECT_EQ(count(log, "\n"), 1) << log;
}

TEST(BlasStubs, CublasInternalEntryPointsReturnNotSupportedAndLogOnce) {
  expect_stub(cublasSbdmm, "libcublas.so.13", "cublasSbdmm");
  expect_stub(cublasSetBackdoor, "libcublas.so.13", "cublasSetBackdoor");
}

TEST(BlasStubs, CublasLtInternalEntryPointsReturnNotSupportedAndLogOnce) {
  expect_stub(cublasLtACCMatmul, "libcublasLt.so.13", "cublasLtACCMatmul");
  expect_stub(cublasLt_for_cublas_SSS, "libcublasLt.so.13", "cublasLt_for_cublas_SSS");
}

}  // namespace
