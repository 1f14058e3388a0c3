// End to end through libcuda.so.1 on the default (strata) backend: PTX text ->
// cuModuleLoadData (JIT) -> cuLaunchKernel -> results; a kernel that stores to an
// unmapped address -> sticky CUDA_ERROR_ILLEGAL_ADDRESS; malformed PTX and fatbins ->
// the matching CUresult and a log line saying why.
#include <cuda.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr const char* kVectorAddPtx = R"(
.version 8.0
.target sm_80
.address_size 64

.visible .entry vadd(.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<11>;
  ld.param.u64 %rd1, [a];
  ld.param.u64 %rd2, [b];
  ld.param.u64 %rd3, [c];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mad.lo.s32 %r5, %r2, %r3, %r4;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd4, %rd1;
  cvta.to.global.u64 %rd5, %rd2;
  cvta.to.global.u64 %rd6, %rd3;
  mul.wide.u32 %rd7, %r5, 4;
  add.s64 %rd8, %rd4, %rd7;
  add.s64 %rd9, %rd5, %rd7;
  add.s64 %rd10, %rd6, %rd7;
  ld.global.f32 %f1, [%rd8];
  ld.global.f32 %f2, [%rd9];
  add.f32 %f3, %f1, %f2;
  st.global.f32 [%rd10], %f3;
DONE:
  ret;
}

.visible .entry store_to(.param .u64 p)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, 7;
  st.global.u32 [%rd1], %r1;
  ret;
}
)";

class DriverE2e : public ::testing::Test {
 protected:
  void SetUp() override {
    CUresult init = cuInit(0);
    if (init == CUDA_ERROR_NO_DEVICE) GTEST_SKIP() << "no Strata device";
    ASSERT_EQ(init, CUDA_SUCCESS);
    ASSERT_EQ(cuCtxCreate(&ctx_, nullptr, 0, 0), CUDA_SUCCESS);
  }
  void TearDown() override {
    if (ctx_ != nullptr) {
      EXPECT_EQ(cuCtxDestroy(ctx_), CUDA_SUCCESS);
    }
  }
  CUcontext ctx_ = nullptr;
};

TEST_F(DriverE2e, VectorAdd) {
  CUmodule module = nullptr;
  ASSERT_EQ(cuModuleLoadData(&module, kVectorAddPtx), CUDA_SUCCESS);
  CUfunction vadd = nullptr;
  ASSERT_EQ(cuModuleGetFunction(&vadd, module, "vadd"), CUDA_SUCCESS);
  EXPECT_EQ(cuModuleGetFunction(&vadd, module, "nope"), CUDA_ERROR_NOT_FOUND);
  ASSERT_EQ(cuModuleGetFunction(&vadd, module, "vadd"), CUDA_SUCCESS);

  constexpr unsigned n = 1000;
  std::vector<float> a(n), b(n), c(n, -1.0f);
  for (unsigned i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 0.5f * static_cast<float>(i);
  }
  CUdeviceptr da, db, dc;
  ASSERT_EQ(cuMemAlloc(&da, n * 4), CUDA_SUCCESS);
  ASSERT_EQ(cuMemAlloc(&db, n * 4), CUDA_SUCCESS);
  ASSERT_EQ(cuMemAlloc(&dc, n * 4), CUDA_SUCCESS);
  ASSERT_EQ(cuMemcpyHtoD(da, a.data(), n * 4), CUDA_SUCCESS);
  ASSERT_EQ(cuMemcpyHtoD(db, b.data(), n * 4), CUDA_SUCCESS);
  ASSERT_EQ(cuMemsetD32(dc, 0, n), CUDA_SUCCESS);

  CUevent start, stop;
  ASSERT_EQ(cuEventCreate(&start, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuEventCreate(&stop, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuEventRecord(start, nullptr), CUDA_SUCCESS);
  unsigned count = n;
  void* params[] = {&da, &db, &dc, &count};
  ASSERT_EQ(cuLaunchKernel(vadd, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, params, nullptr),
            CUDA_SUCCESS);
  ASSERT_EQ(cuEventRecord(stop, nullptr), CUDA_SUCCESS);
  EXPECT_EQ(cuLaunchKernel(vadd, 1, 1, 1, 2048, 1, 1, 0, nullptr, params, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  ASSERT_EQ(cuEventSynchronize(stop), CUDA_SUCCESS);
  float ms = -1;
  EXPECT_EQ(cuEventElapsedTime(&ms, start, stop), CUDA_SUCCESS);
  EXPECT_GE(ms, 0.0f);
  ASSERT_EQ(cuMemcpyDtoH(c.data(), dc, n * 4), CUDA_SUCCESS);
  for (unsigned i = 0; i < n; ++i) ASSERT_EQ(c[i], 1.5f * static_cast<float>(i)) << i;

  int regs = -1;
  EXPECT_EQ(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, vadd), CUDA_SUCCESS);
  EXPECT_GT(regs, 0);
  EXPECT_EQ(cuEventDestroy(start), CUDA_SUCCESS);
  EXPECT_EQ(cuEventDestroy(stop), CUDA_SUCCESS);
  EXPECT_EQ(cuMemFree(da), CUDA_SUCCESS);
  EXPECT_EQ(cuMemFree(db), CUDA_SUCCESS);
  EXPECT_EQ(cuMemFree(dc), CUDA_SUCCESS);
  EXPECT_EQ(cuModuleUnload(module), CUDA_SUCCESS);
}

// Loads `image` with stderr captured; returns the result and stores the log in *log.
CUresult load_capturing_log(const void* image, std::string* log) {
  CUmodule module = nullptr;
  ::testing::internal::CaptureStderr();
  CUresult result = cuModuleLoadData(&module, image);
  *log = ::testing::internal::GetCapturedStderr();
  if (result == CUDA_SUCCESS) cuModuleUnload(module);
  return result;
}

template <typename T>
void put(std::vector<uint8_t>* bytes, size_t offset, T value) {
  std::memcpy(bytes->data() + offset, &value, sizeof(T));
}

// A fatbin image (fatbin.h layout) with one entry of `kind` for sm_80 whose payload is
// `payload_size` bytes; `declared_payload` is what the entry header claims.
std::vector<uint8_t> fatbin_with_entry(uint16_t kind, size_t payload_size,
                                       uint64_t declared_payload) {
  constexpr size_t kHeader = 16, kEntryHeader = 64;
  std::vector<uint8_t> bytes(kHeader + kEntryHeader + payload_size, 0);
  put<uint32_t>(&bytes, 0, 0xBA55ED50);
  put<uint16_t>(&bytes, 4, 1);
  put<uint16_t>(&bytes, 6, kHeader);
  put<uint64_t>(&bytes, 8, kEntryHeader + payload_size);
  put<uint16_t>(&bytes, kHeader + 0, kind);
  put<uint16_t>(&bytes, kHeader + 2, 0x0101);
  put<uint32_t>(&bytes, kHeader + 4, kEntryHeader);
  put<uint64_t>(&bytes, kHeader + 8, declared_payload);
  put<uint32_t>(&bytes, kHeader + 28, 80);
  return bytes;
}

TEST_F(DriverE2e, MalformedPtxIsInvalidPtxAndLogged) {
  std::string log;
  EXPECT_EQ(load_capturing_log(".version 8.0\n.target sm_80\n.address_size 64\n"
                               ".visible .entry k() { bogus.op %r1; }\n",
                               &log),
            CUDA_ERROR_INVALID_PTX);
  EXPECT_NE(log.find("PTX JIT compilation failed"), std::string::npos) << log;
  // The message locates the error: line 4 of the module.
  EXPECT_NE(log.find(":4:"), std::string::npos) << log;
  // The context is still usable.
  CUmodule module = nullptr;
  ASSERT_EQ(cuModuleLoadData(&module, kVectorAddPtx), CUDA_SUCCESS);
  EXPECT_EQ(cuModuleUnload(module), CUDA_SUCCESS);
}

// Valid PTX with an instruction Strata does not implement (an sm_90 form) is
// CUDA_ERROR_INVALID_PTX too, and the log names the instruction and its line.
TEST_F(DriverE2e, UnsupportedPtxIsInvalidPtxNamingTheInstruction) {
  std::string log;
  EXPECT_EQ(load_capturing_log(".version 8.0\n.target sm_80\n.address_size 64\n"
                               ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n"
                               "ld.param.u64 %rd1, [p];\n"
                               "stmatrix.sync.aligned.m8n8.x1.shared.b16 [%rd1], {%r1};\nret;\n}\n",
                               &log),
            CUDA_ERROR_INVALID_PTX);
  EXPECT_NE(log.find("stmatrix"), std::string::npos) << log;
  EXPECT_NE(log.find(":9:"), std::string::npos) << log;
}

TEST_F(DriverE2e, MalformedFatbinIsInvalidImageAndLogged) {
  // The entry claims a payload far beyond the image.
  std::vector<uint8_t> image = fatbin_with_entry(/*PTX*/ 1, 16, uint64_t{1} << 40);
  std::string log;
  EXPECT_EQ(load_capturing_log(image.data(), &log), CUDA_ERROR_INVALID_IMAGE);
  EXPECT_NE(log.find("cannot load module"), std::string::npos) << log;
}

TEST_F(DriverE2e, TruncatedFatbinHeaderIsInvalidImage) {
  // Magic, but a header size smaller than the header itself.
  std::vector<uint8_t> image = fatbin_with_entry(1, 16, 16);
  put<uint16_t>(&image, 6, 4);
  std::string log;
  EXPECT_EQ(load_capturing_log(image.data(), &log), CUDA_ERROR_INVALID_IMAGE);
  EXPECT_NE(log.find("cannot load module"), std::string::npos) << log;
}

TEST_F(DriverE2e, SassOnlyFatbinIsNoBinaryForGpuAndLogged) {
  // One cubin entry (an EM_CUDA ELF header), no PTX: nothing Strata can compile.
  constexpr size_t kPayload = 64;
  std::vector<uint8_t> image = fatbin_with_entry(/*ELF*/ 2, kPayload, kPayload);
  const size_t elf = 16 + 64;
  std::memcpy(image.data() + elf, "\x7f" "ELF", 4);
  image[elf + 4] = 2;  // ELFCLASS64
  image[elf + 5] = 1;  // little-endian
  put<uint16_t>(&image, elf + 18, 190);  // EM_CUDA
  std::string log;
  EXPECT_EQ(load_capturing_log(image.data(), &log), CUDA_ERROR_NO_BINARY_FOR_GPU);
  EXPECT_NE(log.find("rebuild with PTX"), std::string::npos) << log;
}

TEST_F(DriverE2e, NvidiaCubinIsNoBinaryForGpu) {
  std::vector<uint8_t> cubin(64, 0);
  std::memcpy(cubin.data(), "\x7f" "ELF", 4);
  cubin[4] = 2;
  cubin[5] = 1;
  put<uint16_t>(&cubin, 18, 190);
  std::string log;
  EXPECT_EQ(load_capturing_log(cubin.data(), &log), CUDA_ERROR_NO_BINARY_FOR_GPU);
  EXPECT_NE(log.find("rebuild with PTX"), std::string::npos) << log;
}

TEST_F(DriverE2e, FaultIsSticky) {
  CUmodule module = nullptr;
  ASSERT_EQ(cuModuleLoadData(&module, kVectorAddPtx), CUDA_SUCCESS);
  CUfunction store = nullptr;
  ASSERT_EQ(cuModuleGetFunction(&store, module, "store_to"), CUDA_SUCCESS);
  CUdeviceptr bad = 0x10;  // never mapped
  void* params[] = {&bad};
  ASSERT_EQ(cuLaunchKernel(store, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr), CUDA_SUCCESS);
  EXPECT_EQ(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
  CUdeviceptr p = 0;
  EXPECT_EQ(cuMemAlloc(&p, 16), CUDA_ERROR_ILLEGAL_ADDRESS);
  EXPECT_EQ(cuLaunchKernel(store, 1, 1, 1, 1, 1, 1, 0, nullptr, params, nullptr),
            CUDA_ERROR_ILLEGAL_ADDRESS);
  EXPECT_EQ(cuCtxSynchronize(), CUDA_ERROR_ILLEGAL_ADDRESS);
}

}  // namespace
