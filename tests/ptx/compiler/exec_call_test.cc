// Real function calls (docs/abi.md): recursion with per-lane depths, mutual recursion,
// indirect calls through function pointers with per-lane targets, frames with local
// arrays, bar.sync inside a callee, and stack overflow faulting cleanly.
#include <gtest/gtest.h>

#include <string>

#include "exec_harness.h"
#include "isa/encode.h"

namespace strata::compiler::testing {
namespace {

constexpr const char* kHeader = ".version 8.0\n.target sm_80\n.address_size 64\n";

// out[tid] = result of `call`, computed by a kernel that calls `fn(arg)` where arg is
// the PTX expression in %r2 (computed by `setup` from %r1 = tid), then out2[tid] =
// activemask after the call's reconvergence point.
std::string call_kernel(const std::string& setup, const std::string& fn) {
  return std::string(R"(
.visible .entry k(.param .u64 out, .param .u64 out2)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  mov.u32 %r1, %tid.x;
)") + setup + R"(
  {
  .param .b32 a0;
  .param .b32 r0;
  st.param.b32 [a0], %r2;
  call.uni (r0), )" + fn + R"(, (a0);
  ld.param.b32 %r3, [r0];
  }
  activemask.b32 %r4;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd4, [out2];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  add.s64 %rd5, %rd4, %rd2;
  st.global.u32 [%rd5], %r4;
  ret;
}
)";
}

// A one-argument function `name` whose body computes %r3 from %r1 = n; `rec` is the
// argument of a recursive call to `callee`, whose result arrives in %r4.
std::string func(const std::string& name, const std::string& base_case, const std::string& before,
                 const std::string& callee, const std::string& after) {
  return ".func (.param .b32 r) " + name + "(.param .b32 n)\n{\n" +
         "  .reg .b32 %r<12>;\n  .reg .pred %p<3>;\n  ld.param.b32 %r1, [n];\n" + base_case + before +
         "  {\n  .param .b32 a0;\n  .param .b32 r0;\n  st.param.b32 [a0], %r2;\n  call.uni (r0), " + callee +
         ", (a0);\n  ld.param.b32 %r4, [r0];\n  }\n" + after + "  st.param.b32 [r], %r3;\n  ret;\n}\n";
}

struct Result {
  std::vector<uint32_t> value, mask;
};

Result run_kernel(const std::string& ptx, uint32_t threads, hw::FaultKind want = hw::FaultKind::kNone) {
  PtxExec e;
  Status s = e.compile(ptx);
  EXPECT_TRUE(s.ok()) << s.to_string();
  if (!s.ok()) return {};
  uint64_t out = e.alloc(threads * 4), out2 = e.alloc(threads * 4);
  auto f = e.run("k", Dim{1}, Dim{threads}, {out, out2});
  EXPECT_TRUE(f.ok()) << f.status().to_string();
  if (!f.ok()) return {};
  EXPECT_EQ(f->kind, want) << "pc " << f->pc << "\n" << e.disassembly("k");
  return {e.read<uint32_t>(out, threads), e.read<uint32_t>(out2, threads)};
}

uint32_t fact(uint32_t n) { return n <= 1 ? 1 : n * fact(n - 1); }
uint32_t fib(uint32_t n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

TEST(ExecCall, RecursiveFactorialWithPerLaneDepths) {
  std::string ptx = std::string(kHeader) +
                    func("fact", "  setp.le.u32 %p1, %r1, 1;\n  mov.u32 %r3, 1;\n  @%p1 bra DONE;\n",
                         "  sub.u32 %r2, %r1, 1;\n", "fact", "  mul.lo.u32 %r3, %r4, %r1;\nDONE:\n") +
                    call_kernel("  rem.u32 %r2, %r1, 13;\n", "fact");
  Result r = run_kernel(ptx, 64);
  ASSERT_EQ(r.value.size(), 64u);
  for (uint32_t t = 0; t < 64; ++t) {
    EXPECT_EQ(r.value[t], fact(t % 13)) << "thread " << t;
    EXPECT_EQ(r.mask[t], 0xffffffffu) << "threads reconverge after the call, thread " << t;
  }
}

TEST(ExecCall, RecursiveFibonacciKeepsValuesAcrossTwoCalls) {
  // fib(n) = fib(n-1) + fib(n-2): %r4 of the first call must survive the second.
  std::string body = "  setp.lt.u32 %p1, %r1, 2;\n  mov.u32 %r3, %r1;\n  @%p1 bra DONE;\n";
  std::string ptx = std::string(kHeader) + ".func (.param .b32 r) fib(.param .b32 n)\n{\n"
                    "  .reg .b32 %r<12>;\n  .reg .pred %p<3>;\n  ld.param.b32 %r1, [n];\n" + body +
                    "  sub.u32 %r2, %r1, 1;\n"
                    "  {\n  .param .b32 a0;\n  .param .b32 r0;\n  st.param.b32 [a0], %r2;\n"
                    "  call.uni (r0), fib, (a0);\n  ld.param.b32 %r4, [r0];\n  }\n"
                    "  sub.u32 %r5, %r1, 2;\n"
                    "  {\n  .param .b32 a1;\n  .param .b32 r1;\n  st.param.b32 [a1], %r5;\n"
                    "  call.uni (r1), fib, (a1);\n  ld.param.b32 %r6, [r1];\n  }\n"
                    "  add.u32 %r3, %r4, %r6;\nDONE:\n  st.param.b32 [r], %r3;\n  ret;\n}\n" +
                    call_kernel("  rem.u32 %r2, %r1, 12;\n", "fib");
  Result r = run_kernel(ptx, 32);
  ASSERT_EQ(r.value.size(), 32u);
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(r.value[t], fib(t % 12)) << "thread " << t;
}

TEST(ExecCall, MutualRecursion) {
  // even(n) = n == 0 ? 1 : odd(n - 1); odd(n) = n == 0 ? 0 : even(n - 1).
  std::string ptx = std::string(kHeader) + ".func (.param .b32 r) odd(.param .b32 n);\n" +
                    func("even", "  setp.eq.u32 %p1, %r1, 0;\n  mov.u32 %r3, 1;\n  @%p1 bra DONE;\n",
                         "  sub.u32 %r2, %r1, 1;\n", "odd", "  mov.u32 %r3, %r4;\nDONE:\n") +
                    func("odd", "  setp.eq.u32 %p1, %r1, 0;\n  mov.u32 %r3, 0;\n  @%p1 bra DONE;\n",
                         "  sub.u32 %r2, %r1, 1;\n", "even", "  mov.u32 %r3, %r4;\nDONE:\n") +
                    call_kernel("  rem.u32 %r2, %r1, 21;\n", "even");
  Result r = run_kernel(ptx, 64);
  ASSERT_EQ(r.value.size(), 64u);
  for (uint32_t t = 0; t < 64; ++t) EXPECT_EQ(r.value[t], (t % 21) % 2 == 0 ? 1u : 0u) << "thread " << t;
}

TEST(ExecCall, IndirectCallsThroughAFunctionPointerTable) {
  // Lane t calls table[t % 3] (add 100, times 3, negate); the lanes diverge by target
  // and must be converged again after the call.
  std::string leaf = ".func (.param .b32 r) NAME(.param .b32 x)\n{\n  .reg .b32 %r<3>;\n"
                     "  ld.param.b32 %r1, [x];\n  OP;\n  st.param.b32 [r], %r2;\n  ret;\n}\n";
  auto make = [&](const std::string& name, const std::string& op) {
    std::string s = leaf;
    s.replace(s.find("NAME"), 4, name);
    s.replace(s.find("OP"), 2, op);
    return s;
  };
  std::string ptx = std::string(kHeader) + make("f_add", "add.u32 %r2, %r1, 100") +
                    make("f_mul", "mul.lo.u32 %r2, %r1, 3") + make("f_neg", "neg.s32 %r2, %r1") + R"(
.visible .entry k(.param .u64 out, .param .u64 out2)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<10>;
  .reg .pred %p<3>;
  mov.u32 %r1, %tid.x;
  rem.u32 %r2, %r1, 3;
  setp.eq.u32 %p1, %r2, 0;
  setp.eq.u32 %p2, %r2, 1;
  mov.u64 %rd6, f_add;
  mov.u64 %rd7, f_mul;
  mov.u64 %rd8, f_neg;
  selp.b64 %rd9, %rd7, %rd8, %p2;
  selp.b64 %rd9, %rd6, %rd9, %p1;
  {
  .param .b32 a0;
  .param .b32 r0;
  st.param.b32 [a0], %r1;
  proto: .callprototype (.param .b32 _) _ (.param .b32 _);
  call (r0), %rd9, (a0), proto;
  ld.param.b32 %r3, [r0];
  }
  activemask.b32 %r4;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd4, [out2];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  add.s64 %rd5, %rd4, %rd2;
  st.global.u32 [%rd5], %r4;
  ret;
}
)";
  Result r = run_kernel(ptx, 64);
  ASSERT_EQ(r.value.size(), 64u);
  for (uint32_t t = 0; t < 64; ++t) {
    uint32_t want = t % 3 == 0 ? t + 100 : t % 3 == 1 ? t * 3 : 0u - t;
    EXPECT_EQ(r.value[t], want) << "thread " << t;
    EXPECT_EQ(r.mask[t], 0xffffffffu) << "threads reconverge after the indirect call, thread " << t;
  }
}

TEST(ExecCall, RecursiveCalleeWithLocalArrayKeepsItsFrame) {
  // lsum(n) fills its local buf = {0, n, 2n, 3n} (through a register address and by
  // name), recurses, then adds buf back: every frame must keep its own array.
  std::string ptx = std::string(kHeader) + R"(
.func (.param .b32 r) lsum(.param .b32 n)
{
  .local .align 4 .b8 buf[16];
  .reg .b32 %r<12>;
  .reg .pred %p<2>;
  ld.param.b32 %r1, [n];
  mov.u32 %r3, 0;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  mov.u32 %r5, buf;
  st.local.u32 [%r5], 0;
  st.local.u32 [%r5+4], %r1;
  shl.b32 %r6, %r1, 1;
  st.local.u32 [buf+8], %r6;
  mul.lo.u32 %r7, %r1, 3;
  st.local.u32 [%r5+12], %r7;
  sub.u32 %r2, %r1, 1;
  {
  .param .b32 a0;
  .param .b32 r0;
  st.param.b32 [a0], %r2;
  call.uni (r0), lsum, (a0);
  ld.param.b32 %r3, [r0];
  }
  ld.local.u32 %r7, [buf];
  ld.local.u32 %r8, [%r5+4];
  ld.local.u32 %r9, [buf+8];
  ld.local.u32 %r10, [%r5+12];
  add.u32 %r3, %r3, %r7;
  add.u32 %r3, %r3, %r8;
  add.u32 %r3, %r3, %r9;
  add.u32 %r3, %r3, %r10;
DONE:
  st.param.b32 [r], %r3;
  ret;
}
)" + call_kernel("  rem.u32 %r2, %r1, 9;\n", "lsum");
  Result r = run_kernel(ptx, 32);
  ASSERT_EQ(r.value.size(), 32u);
  for (uint32_t t = 0; t < 32; ++t) {
    uint32_t n = t % 9;
    EXPECT_EQ(r.value[t], 3 * n * (n + 1)) << "thread " << t;
  }
}

TEST(ExecCall, BarSyncInsideARecursiveCallee) {
  // Threads recurse to different depths, then meet at a CTA barrier inside the callee
  // and read what a neighbour (in the other warp too) wrote before it.
  std::string ptx = std::string(kHeader) + R"(
.func (.param .b32 r) meet(.param .b32 n, .param .b64 buf)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  .reg .pred %p<2>;
  ld.param.b32 %r1, [n];
  ld.param.b64 %rd1, [buf];
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra DEEPER;
  bar.sync 0;
  mov.u32 %r5, %tid.x;
  add.u32 %r5, %r5, 1;
  rem.u32 %r5, %r5, 64;
  mul.wide.u32 %rd2, %r5, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.u32 %r3, [%rd3];
  bra.uni DONE;
DEEPER:
  sub.u32 %r2, %r1, 1;
  {
  .param .b32 a0;
  .param .b64 a1;
  .param .b32 r0;
  st.param.b32 [a0], %r2;
  st.param.b64 [a1], %rd1;
  call.uni (r0), meet, (a0, a1);
  ld.param.b32 %r3, [r0];
  }
DONE:
  st.param.b32 [r], %r3;
  ret;
}
.visible .entry k(.param .u64 out, .param .u64 out2)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  mov.u32 %r1, %tid.x;
  ld.param.u64 %rd4, [out2];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd5, %rd4, %rd2;
  mul.lo.u32 %r5, %r1, 7;
  st.global.u32 [%rd5], %r5;
  rem.u32 %r2, %r1, 5;
  {
  .param .b32 a0;
  .param .b64 a1;
  .param .b32 r0;
  st.param.b32 [a0], %r2;
  st.param.b64 [a1], %rd4;
  call.uni (r0), meet, (a0, a1);
  ld.param.b32 %r3, [r0];
  }
  ld.param.u64 %rd1, [out];
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
  ret;
}
)";
  Result r = run_kernel(ptx, 64);
  ASSERT_EQ(r.value.size(), 64u);
  for (uint32_t t = 0; t < 64; ++t) EXPECT_EQ(r.value[t], (t + 1) % 64 * 7) << "thread " << t;
}

TEST(ExecCall, StackOverflowFaultsWithAddressSpace) {
  // depth(n) = n == 0 ? 0 : depth(n - 1) + 1 with n = 100000 needs far more than the
  // 4 KiB recursion stack: the first frame past it faults instead of corrupting memory.
  std::string ptx = std::string(kHeader) +
                    func("depth", "  setp.eq.u32 %p1, %r1, 0;\n  mov.u32 %r3, 0;\n  @%p1 bra DONE;\n",
                         "  sub.u32 %r2, %r1, 1;\n", "depth", "  add.u32 %r3, %r4, 1;\nDONE:\n") +
                    call_kernel("  rem.u32 %r2, %r1, 2;\n  mul.lo.u32 %r2, %r2, 100000;\n", "depth");
  run_kernel(ptx, 32, hw::FaultKind::kAddressSpace);
  // Shallow recursion in the same program fits.
  std::string shallow = ptx;
  shallow.replace(shallow.find("100000"), 6, "20");
  Result r = run_kernel(shallow, 32);
  ASSERT_EQ(r.value.size(), 32u);
  for (uint32_t t = 0; t < 32; ++t) EXPECT_EQ(r.value[t], t % 2 * 20) << "thread " << t;
}

TEST(ExecCall, CodeHoldsCallAndRet) {
  PtxExec e;
  std::string ptx = std::string(kHeader) +
                    func("fact", "  setp.le.u32 %p1, %r1, 1;\n  mov.u32 %r3, 1;\n  @%p1 bra DONE;\n",
                         "  sub.u32 %r2, %r1, 1;\n", "fact", "  mul.lo.u32 %r3, %r4, %r1;\nDONE:\n") +
                    call_kernel("  rem.u32 %r2, %r1, 13;\n", "fact");
  ASSERT_TRUE(e.compile(ptx).ok());
  const sxbin::KernelDesc* k = e.kernel("k");
  ASSERT_NE(k, nullptr);
  std::string dis = e.disassembly("k");
  EXPECT_NE(dis.find("CALL"), std::string::npos) << dis;
  EXPECT_NE(dis.find("RET"), std::string::npos) << dis;
  EXPECT_GE(k->local_bytes, 4096u) << "recursion reserves the default stack";
}

// A recursive function using module-scope .shared variables (static and dynamic) sees
// them at the kernel's offsets, next to a kernel-only .shared variable it must not touch.
TEST(ExecCall, CalledFunctionUsesTheKernelsSharedMemory) {
  std::string ptx = std::string(kHeader) + R"(
.shared .align 4 .b32 acc[64];
.extern .shared .align 16 .b8 dyn[];
.func (.param .b32 r) walk(.param .b32 n)
{
  .reg .b32 %r<12>;
  .reg .pred %p<3>;
  .reg .b64 %rd<8>;
  ld.param.b32 %r1, [n];
  mov.u32 %r5, %tid.x;
  mul.wide.u32 %rd1, %r5, 4;
  mov.u64 %rd2, acc;
  add.s64 %rd3, %rd2, %rd1;
  ld.shared.u32 %r6, [%rd3];
  add.u32 %r6, %r6, %r1;
  st.shared.u32 [%rd3], %r6;
  mov.u64 %rd4, dyn;
  add.s64 %rd5, %rd4, %rd1;
  ld.shared.u32 %r7, [%rd5];
  add.u32 %r7, %r7, 1;
  st.shared.u32 [%rd5], %r7;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  sub.u32 %r2, %r1, 1;
  {
  .param .b32 a0;
  .param .b32 r0;
  st.param.b32 [a0], %r2;
  call.uni (r0), walk, (a0);
  ld.param.b32 %r4, [r0];
  }
DONE:
  st.param.b32 [r], %r1;
  ret;
}
.visible .entry k(.param .u64 out, .param .u64 out2)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<12>;
  .shared .align 4 .b32 mine[64];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd1, %r1, 4;
  mov.u64 %rd2, mine;
  add.s64 %rd3, %rd2, %rd1;
  st.shared.u32 [%rd3], 43690;
  mov.u64 %rd4, acc;
  add.s64 %rd5, %rd4, %rd1;
  st.shared.u32 [%rd5], 0;
  mov.u64 %rd6, dyn;
  add.s64 %rd7, %rd6, %rd1;
  st.shared.u32 [%rd7], 0;
  rem.u32 %r2, %r1, 7;
  {
  .param .b32 a0;
  .param .b32 r0;
  st.param.b32 [a0], %r2;
  call.uni (r0), walk, (a0);
  ld.param.b32 %r3, [r0];
  }
  ld.shared.u32 %r4, [%rd5];
  ld.shared.u32 %r5, [%rd7];
  ld.shared.u32 %r6, [%rd3];
  mad.lo.u32 %r7, %r6, 65536, %r5;
  ld.param.u64 %rd8, [out];
  ld.param.u64 %rd9, [out2];
  add.s64 %rd10, %rd8, %rd1;
  st.global.u32 [%rd10], %r4;
  add.s64 %rd11, %rd9, %rd1;
  st.global.u32 [%rd11], %r7;
  ret;
}
)";
  PtxExec e;
  Status s = e.compile(ptx);
  ASSERT_TRUE(s.ok()) << s.to_string();
  e.set_dynamic_shared(256);
  uint64_t out = e.alloc(64 * 4), out2 = e.alloc(64 * 4);
  auto f = e.run("k", Dim{1}, Dim{64}, {out, out2});
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  ASSERT_EQ(f->kind, hw::FaultKind::kNone) << "pc " << f->pc << "\n" << e.disassembly("k");
  std::vector<uint32_t> sum = e.read<uint32_t>(out, 64), other = e.read<uint32_t>(out2, 64);
  for (uint32_t t = 0; t < 64; ++t) {
    uint32_t n = t % 7;
    EXPECT_EQ(sum[t], n * (n + 1) / 2) << "acc[] summed by the recursion, thread " << t;
    EXPECT_EQ(other[t], (43690u << 16) + n + 1) << "mine[] untouched, dyn[] counts the calls, thread " << t;
  }
}

}  // namespace
}  // namespace strata::compiler::testing
