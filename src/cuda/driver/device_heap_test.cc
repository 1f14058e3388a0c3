// The device heap behind malloc/free (compiler/devrt/heap.cu), end to end through
// libcuda.so.1: PTX that calls malloc/free -> JIT (the device runtime library is linked
// in) -> launches on the simulator. The expected counts follow from the heap's design
// (compiler/devrt/heap_layout.h: 16-byte block headers, four size classes per power of
// two, no splitting): a 48-byte request takes a 64-byte block, a 100-byte one a 128-byte
// block, a 64-byte one an 80-byte block.
#include <cuda.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace {

constexpr const char* kHeapPtx = R"(
.version 8.0
.target sm_80
.address_size 64

.extern .func (.param .b64 func_retval0) malloc (.param .b64 malloc_param_0);
.extern .func free (.param .b64 free_param_0);

// out[t] = malloc(size); the first and last words of the block get t.
.visible .entry alloc(.param .u64 out, .param .u64 size)
{
  .reg .pred %p<2>;
  .reg .b32 %r<5>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [size];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.s32 %r4, %r1, %r2, %r3;
  {
  .param .b64 param0;
  st.param.b64 [param0+0], %rd2;
  .param .b64 retval0;
  call.uni (retval0), malloc, (param0);
  ld.param.b64 %rd3, [retval0+0];
  }
  cvta.to.global.u64 %rd4, %rd1;
  mul.wide.u32 %rd5, %r4, 8;
  add.s64 %rd6, %rd4, %rd5;
  st.global.u64 [%rd6], %rd3;
  setp.eq.s64 %p1, %rd3, 0;
  @%p1 bra DONE;
  st.u32 [%rd3], %r4;
  add.s64 %rd7, %rd3, %rd2;
  sub.s64 %rd7, %rd7, 4;
  st.u32 [%rd7], %r4;
DONE:
  ret;
}

// errors[t] = whether out[t]'s first or last word lost its value t; then free(out[t])
// (free(NULL) included).
.visible .entry check_free(.param .u64 out, .param .u64 size, .param .u64 errors)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [size];
  ld.param.u64 %rd8, [errors];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.s32 %r4, %r1, %r2, %r3;
  cvta.to.global.u64 %rd4, %rd1;
  mul.wide.u32 %rd5, %r4, 8;
  add.s64 %rd6, %rd4, %rd5;
  ld.global.u64 %rd3, [%rd6];
  mov.u32 %r7, 0;
  setp.eq.s64 %p1, %rd3, 0;
  @%p1 bra FREE;
  ld.u32 %r5, [%rd3];
  add.s64 %rd7, %rd3, %rd2;
  sub.s64 %rd7, %rd7, 4;
  ld.u32 %r6, [%rd7];
  setp.ne.u32 %p2, %r5, %r4;
  setp.ne.u32 %p3, %r6, %r4;
  or.pred %p2, %p2, %p3;
  selp.u32 %r7, 1, 0, %p2;
FREE:
  cvta.to.global.u64 %rd9, %rd8;
  mul.wide.u32 %rd5, %r4, 4;
  add.s64 %rd9, %rd9, %rd5;
  st.global.u32 [%rd9], %r7;
  {
  .param .b64 param0;
  st.param.b64 [param0+0], %rd3;
  call.uni free, (param0);
  }
  ret;
}

.visible .entry nop()
{
  ret;
}
)";

class DeviceHeap : public ::testing::Test {
 protected:
  void SetUp() override {
    CUresult init = cuInit(0);
    if (init == CUDA_ERROR_NO_DEVICE) GTEST_SKIP() << "no Strata device";
    ASSERT_EQ(init, CUDA_SUCCESS);
    ASSERT_EQ(cuCtxCreate(&ctx_, nullptr, 0, 0), CUDA_SUCCESS);
    ASSERT_EQ(cuModuleLoadData(&module_, kHeapPtx), CUDA_SUCCESS);
    ASSERT_EQ(cuModuleGetFunction(&alloc_, module_, "alloc"), CUDA_SUCCESS);
    ASSERT_EQ(cuModuleGetFunction(&check_free_, module_, "check_free"), CUDA_SUCCESS);
    ASSERT_EQ(cuModuleGetFunction(&nop_, module_, "nop"), CUDA_SUCCESS);
    ASSERT_EQ(cuMemAlloc(&out_, kMaxThreads * 8), CUDA_SUCCESS);
    ASSERT_EQ(cuMemAlloc(&errors_, kMaxThreads * 4), CUDA_SUCCESS);
  }
  void TearDown() override {
    if (ctx_ != nullptr) EXPECT_EQ(cuCtxDestroy(ctx_), CUDA_SUCCESS);
  }

  // Launches alloc on `threads` threads; returns the pointers (0 for NULL).
  std::vector<uint64_t> allocate(uint32_t threads, uint64_t size) {
    CUdeviceptr out = out_;
    void* args[] = {&out, &size};
    EXPECT_EQ(cuLaunchKernel(alloc_, threads / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr),
              CUDA_SUCCESS);
    EXPECT_EQ(cuCtxSynchronize(), CUDA_SUCCESS);
    std::vector<uint64_t> pointers(threads);
    EXPECT_EQ(cuMemcpyDtoH(pointers.data(), out_, threads * 8), CUDA_SUCCESS);
    return pointers;
  }
  // Launches check_free; returns how many threads found their block changed.
  int check_and_free(uint32_t threads, uint64_t size) {
    CUdeviceptr out = out_, errors = errors_;
    void* args[] = {&out, &size, &errors};
    EXPECT_EQ(
        cuLaunchKernel(check_free_, threads / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr),
        CUDA_SUCCESS);
    EXPECT_EQ(cuCtxSynchronize(), CUDA_SUCCESS);
    std::vector<uint32_t> flags(threads);
    EXPECT_EQ(cuMemcpyDtoH(flags.data(), errors_, threads * 4), CUDA_SUCCESS);
    return static_cast<int>(std::count(flags.begin(), flags.end(), 1u));
  }

  static constexpr uint32_t kMaxThreads = 8192;
  CUcontext ctx_ = nullptr;
  CUmodule module_ = nullptr;
  CUfunction alloc_ = nullptr, check_free_ = nullptr, nop_ = nullptr;
  CUdeviceptr out_ = 0, errors_ = 0;
};

// Non-null pointers: 16-byte aligned and `stride` bytes apart at least (no overlap).
void expect_disjoint(std::vector<uint64_t> pointers, uint64_t stride) {
  pointers.erase(std::remove(pointers.begin(), pointers.end(), 0u), pointers.end());
  std::sort(pointers.begin(), pointers.end());
  for (size_t i = 0; i < pointers.size(); ++i) {
    EXPECT_EQ(pointers[i] % 16, 0u) << std::hex << pointers[i];
    if (i > 0) EXPECT_GE(pointers[i] - pointers[i - 1], stride) << std::hex << pointers[i];
  }
}

size_t successes(const std::vector<uint64_t>& pointers) {
  return pointers.size() - static_cast<size_t>(std::count(pointers.begin(), pointers.end(), 0u));
}

TEST_F(DeviceHeap, ExhaustsExactlyAndReusesFreedBlocks) {
  size_t value = 0;
  ASSERT_EQ(cuCtxGetLimit(&value, CU_LIMIT_MALLOC_HEAP_SIZE), CUDA_SUCCESS);
  EXPECT_EQ(value, 8u << 20);  // CUDA's default
  ASSERT_EQ(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 64 << 10), CUDA_SUCCESS);
  // 2048 requests of 48 bytes: 64-byte blocks, so exactly 1024 fit in 64 KiB.
  std::vector<uint64_t> first = allocate(2048, 48);
  EXPECT_EQ(successes(first), 1024u);
  expect_disjoint(first, 64);
  EXPECT_EQ(check_and_free(2048, 48), 0);
  // Freed blocks come back.
  std::vector<uint64_t> second = allocate(2048, 48);
  EXPECT_EQ(successes(second), 1024u);
  expect_disjoint(second, 64);
  EXPECT_EQ(check_and_free(2048, 48), 0);
  // The heap is in use: its size is fixed now (CUDA_ERROR_INVALID_VALUE), and stays.
  EXPECT_EQ(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 1 << 20), CUDA_ERROR_INVALID_VALUE);
  ASSERT_EQ(cuCtxGetLimit(&value, CU_LIMIT_MALLOC_HEAP_SIZE), CUDA_SUCCESS);
  EXPECT_EQ(value, 64u << 10);
}

TEST_F(DeviceHeap, LargerFreedBlocksServeSmallerRequests) {
  ASSERT_EQ(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 64 << 10), CUDA_SUCCESS);
  EXPECT_EQ(successes(allocate(1024, 100)), 512u);  // 128-byte blocks fill the arena
  EXPECT_EQ(check_and_free(1024, 100), 0);
  std::vector<uint64_t> small = allocate(1024, 48);  // no room for new 64-byte blocks
  EXPECT_EQ(successes(small), 512u);
  expect_disjoint(small, 128);
  EXPECT_EQ(check_and_free(1024, 48), 0);
}

TEST_F(DeviceHeap, ConcurrentRounds) {
  ASSERT_EQ(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 1 << 20), CUDA_SUCCESS);
  // 8192 threads x 80-byte blocks = 640 KiB live per round; 8 rounds through 1 MiB.
  for (int round = 0; round < 8; ++round) {
    std::vector<uint64_t> pointers = allocate(kMaxThreads, 64);
    ASSERT_EQ(successes(pointers), kMaxThreads) << "round " << round;
    expect_disjoint(pointers, 80);
    ASSERT_EQ(check_and_free(kMaxThreads, 64), 0) << "round " << round;
  }
}

TEST_F(DeviceHeap, KernelsWithoutMallocLeaveTheHeapSizeOpen) {
  ASSERT_EQ(cuLaunchKernel(nop_, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, nullptr), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxSynchronize(), CUDA_SUCCESS);
  EXPECT_EQ(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 1 << 20), CUDA_SUCCESS);
  EXPECT_EQ(successes(allocate(256, 1000)), 256u);
  EXPECT_EQ(check_and_free(256, 1000), 0);
}

}  // namespace
