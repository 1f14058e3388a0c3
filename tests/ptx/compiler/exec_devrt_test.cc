// The compiler's side of CUDA's device runtime services added with the device heap:
// calls to malloc/free/__cuda_syscall_aligned_malloc link the device runtime library
// (src/compiler/devrt) and mark the kernel as a heap user; the call-stack fields of the
// kernel descriptor (sxbin.h, CALL STACK); trap and brkpt abort the grid (kTrap).
#include <gtest/gtest.h>

#include <string>

#include "compiler/compiler.h"
#include "compiler/devrt/devrt.h"
#include "compiler/devrt/heap_layout.h"
#include "exec_harness.h"

namespace strata::compiler::testing {
namespace {

constexpr const char* kHeader = ".version 8.0\n.target sm_80\n.address_size 64\n";

constexpr const char* kMallocKernels = R"(
.extern .func (.param .b64 func_retval0) malloc (.param .b64 malloc_param_0);
.extern .func free (.param .b64 free_param_0);
.extern .func (.param .b64 func_retval0) __cuda_syscall_aligned_malloc
  (.param .b64 p0, .param .b64 p1);

.visible .entry uses_heap(.param .u64 out)
{
  .reg .b64 %rd<4>;
  {
  .param .b64 param0;
  st.param.b64 [param0+0], 64;
  .param .b64 retval0;
  call.uni (retval0), malloc, (param0);
  ld.param.b64 %rd1, [retval0+0];
  }
  {
  .param .b64 param0;
  st.param.b64 [param0+0], %rd1;
  call.uni free, (param0);
  }
  {
  .param .b64 param0;
  st.param.b64 [param0+0], 64;
  .param .b64 param1;
  st.param.b64 [param1+0], 256;
  .param .b64 retval0;
  call.uni (retval0), __cuda_syscall_aligned_malloc, (param0, param1);
  ld.param.b64 %rd2, [retval0+0];
  }
  ld.param.u64 %rd3, [out];
  st.global.u64 [%rd3], %rd2;
  ret;
}

.visible .entry no_heap(.param .u64 out)
{
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  st.global.u64 [%rd1], 0;
  ret;
}
)";

TEST(DeviceRuntime, MallocLinksTheLibraryAndMarksTheKernel) {
  if (devrt::library_ptx().empty()) GTEST_SKIP() << "Strata was built without nvcc";
  PtxExec e;
  ASSERT_TRUE(e.compile(std::string(kHeader) + kMallocKernels).ok());
  ASSERT_NE(e.kernel("uses_heap"), nullptr);
  EXPECT_TRUE(e.kernel("uses_heap")->uses_device_heap);
  EXPECT_FALSE(e.kernel("no_heap")->uses_device_heap);
}

TEST(DeviceRuntime, LibraryMapsCudaNames) {
  EXPECT_EQ(devrt::library_function("malloc"), "__strata_malloc");
  EXPECT_EQ(devrt::library_function("free"), "__strata_free");
  EXPECT_EQ(devrt::library_function("__cuda_syscall_aligned_malloc"), "__strata_aligned_malloc");
  EXPECT_TRUE(devrt::library_function("vprintf").empty());
}

TEST(DeviceRuntime, HeapSizeClasses) {
  // Four classes per power of two from 64 bytes, every block a multiple of 16.
  EXPECT_EQ(devrt::heap_block_bytes(0), 64u);
  EXPECT_EQ(devrt::heap_block_bytes(1), 80u);
  EXPECT_EQ(devrt::heap_block_bytes(3), 112u);
  EXPECT_EQ(devrt::heap_block_bytes(4), 128u);
  for (uint32_t c = 1; c < devrt::kHeapClasses; ++c) {
    EXPECT_GT(devrt::heap_block_bytes(c), devrt::heap_block_bytes(c - 1));
    EXPECT_EQ(devrt::heap_block_bytes(c) % devrt::kHeapAlignment, 0u);
  }
  EXPECT_GE(devrt::heap_block_bytes(devrt::kHeapClasses - 1), devrt::kHeapMaxArenaBytes);
  EXPECT_LE(devrt::kHeapFreeLists + 8 * devrt::kHeapClasses, devrt::kHeapHeaderBytes);
}

TEST(DeviceRuntime, CallStackFields) {
  PtxExec e;
  std::string ptx = std::string(kHeader) + R"(
.func (.param .b32 r) f(.param .b32 n)
{
  .reg .b32 %r<4>;
  .reg .pred %p<2>;
  ld.param.b32 %r1, [n];
  mov.u32 %r3, 0;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  sub.u32 %r2, %r1, 1;
  {
  .param .b32 a0;
  .param .b32 r0;
  st.param.b32 [a0], %r2;
  call.uni (r0), f, (a0);
  ld.param.b32 %r3, [r0];
  }
  add.u32 %r3, %r3, 1;
DONE:
  st.param.b32 [r], %r3;
  ret;
}
.visible .entry recursive(.param .u32 n)
{
  .reg .b32 %r<3>;
  ld.param.u32 %r1, [n];
  {
  .param .b32 a0;
  .param .b32 r0;
  st.param.b32 [a0], %r1;
  call.uni (r0), f, (a0);
  ld.param.b32 %r2, [r0];
  }
  ret;
}
.visible .entry flat()
{
  ret;
}
)";
  ASSERT_TRUE(e.compile(ptx).ok());
  const sxbin::KernelDesc* rec = e.kernel("recursive");
  ASSERT_NE(rec, nullptr);
  EXPECT_TRUE(rec->recursion);
  EXPECT_EQ(rec->stack_bytes, sxbin::kStackBytesPerLimitByte * sxbin::kDefaultStackLimit);
  EXPECT_GE(rec->local_bytes, rec->stack_bytes);
  const sxbin::KernelDesc* flat = e.kernel("flat");
  EXPECT_FALSE(flat->recursion);
  EXPECT_EQ(flat->stack_bytes, 0u);
}

TEST(DeviceRuntime, TrapAndBrkptAbortTheGrid) {
  for (const char* op : {"trap", "brkpt"}) {
    PtxExec e;
    std::string ptx = std::string(kHeader) +
                      ".visible .entry k(.param .u64 out)\n{\n  .reg .b32 %r<2>;\n"
                      "  .reg .b64 %rd<2>;\n  .reg .pred %p<2>;\n  mov.u32 %r1, %tid.x;\n"
                      "  setp.eq.u32 %p1, %r1, 3;\n  @%p1 " +
                      op +
                      ";\n  ld.param.u64 %rd1, [out];\n"
                      "  st.global.u32 [%rd1], %r1;\n  ret;\n}\n";
    ASSERT_TRUE(e.compile(ptx).ok()) << op;
    uint64_t out = e.alloc(4);
    auto fault = e.run("k", Dim{1}, Dim{32}, {out});
    ASSERT_TRUE(fault.ok()) << op;
    EXPECT_EQ(fault->kind, hw::FaultKind::kTrap) << op;
  }
}

}  // namespace
}  // namespace strata::compiler::testing
