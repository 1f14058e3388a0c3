// Register spilling: kernels with more values live at once than there are registers
// (or predicates) compile, spill to local memory and compute the right results.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "exec_harness.h"

namespace strata::compiler::testing {
namespace {

constexpr uint32_t kThreads = 64;

// Every thread loads n values v[i] = in[i] + tid (wide: 64-bit loads), keeps them all
// live, then folds them in reverse order: acc = acc * 3 + v[i]; with `preds`, also
// keeps p[j] = v[j] > threshold for j < preds live and adds j + 1 for each true one.
std::string spill_kernel(int n, bool wide, int preds) {
  std::string t = wide ? "u64" : "u32", r = wide ? "%rd" : "%r";
  int sz = wide ? 8 : 4;
  std::string s =
      ".version 8.0\n.target sm_80\n.address_size 64\n"
      ".visible .entry spill(.param .u64 in, .param .u64 out, .param .u32 threshold)\n{\n";
  s += fmt::format(".reg .b32 %r<{}>;\n.reg .b64 %rd<{}>;\n.reg .pred %p<{}>;\n", n + 8, n + 8, preds + 2);
  s += "ld.param.u64 %rd" + std::to_string(n) + ", [in];\n";
  s += "ld.param.u64 %rd" + std::to_string(n + 1) + ", [out];\n";
  s += "ld.param.u32 %r" + std::to_string(n + 4) + ", [threshold];\n";
  s += "mov.u32 %r" + std::to_string(n + 2) + ", %tid.x;\n";
  std::string tid = r + std::to_string(n + 2);
  if (wide) {
    s += fmt::format("cvt.u64.u32 %rd{}, %r{};\n", n + 2, n + 2);
  }
  for (int i = 0; i < n; ++i) {
    s += fmt::format("ld.global.{} {}{}, [%rd{}+{}];\n", t, r, i, n, i * sz);
    s += fmt::format("add.{} {}{}, {}{}, {};\n", t, r, i, r, i, tid);
  }
  std::string thr = wide ? "%rd" + std::to_string(n + 4) : "%r" + std::to_string(n + 4);
  if (wide) s += fmt::format("cvt.u64.u32 %rd{}, %r{};\n", n + 4, n + 4);
  for (int j = 0; j < preds; ++j) s += fmt::format("setp.gt.{} %p{}, {}{}, {};\n", t, j, r, j, thr);
  std::string acc = r + std::to_string(n + 3);
  s += fmt::format("mov.{} {}, 0;\n", t, acc);
  for (int i = n - 1; i >= 0; --i) s += fmt::format("mad.lo.{} {}, {}, 3, {}{};\n", t, acc, acc, r, i);
  std::string one = r + std::to_string(n + 5);
  for (int j = 0; j < preds; ++j) {
    s += fmt::format("selp.{} {}, {}, 0, %p{};\n", t, one, j + 1, j);
    s += fmt::format("add.{} {}, {}, {};\n", t, acc, acc, one);
  }
  std::string off = "%rd" + std::to_string(n + 6), addr = "%rd" + std::to_string(n + 7);
  s += fmt::format("mul.wide.u32 {}, %r{}, 8;\n", off, n + 2);
  s += fmt::format("add.s64 {}, %rd{}, {};\n", addr, n + 1, off);
  if (wide)
    s += fmt::format("st.global.u64 [{}], {};\n", addr, acc);
  else
    s += fmt::format("cvt.u64.u32 %rd{}, {};\nst.global.u64 [{}], %rd{};\n", n + 5, acc, addr, n + 5);
  s += "ret;\n}\n";
  return s;
}

// `to_memory`: whether spill slots in local memory are expected (predicates alone
// spill to GPRs while GPRs are left). `directives`: performance directives placed before
// the kernel's body; `max_regs`: the registers per thread they allow.
void run_spill(int n, bool wide, int preds, bool to_memory = true, const std::string& directives = "",
               uint32_t max_regs = 255) {
  PtxExec e;
  std::string text = spill_kernel(n, wide, preds);
  text.replace(text.find(")\n{\n"), 3, ")\n" + directives + "{\n");
  Status st = e.compile(text);
  ASSERT_TRUE(st.ok()) << st.to_string();
  const sxbin::KernelDesc* k = e.kernel("spill");
  ASSERT_NE(k, nullptr);
  EXPECT_LE(k->regs_per_thread, max_regs);
  if (to_memory)
    EXPECT_GT(k->local_bytes, 0u) << "expected spill slots";
  else
    EXPECT_EQ(k->local_bytes, 0u);
  std::vector<uint64_t> in(n);
  for (int i = 0; i < n; ++i) in[i] = (0x9e3779b97f4a7c15ull * static_cast<uint64_t>(i + 1)) >> (wide ? 0 : 40);
  uint64_t din = e.alloc(static_cast<uint64_t>(n) * 8), dout = e.alloc(kThreads * 8);
  if (wide) {
    e.write(din, in);
  } else {
    std::vector<uint32_t> in32(in.begin(), in.end());
    e.write(din, in32);
  }
  const uint32_t threshold = 1u << 22;
  auto f = e.run("spill", Dim{1}, Dim{kThreads}, {din, dout, threshold});
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  ASSERT_EQ(f->kind, hw::FaultKind::kNone) << "pc " << f->pc;
  auto out = e.read<uint64_t>(dout, kThreads);
  for (uint32_t t = 0; t < kThreads; ++t) {
    uint64_t acc = 0;
    auto v = [&](int i) {
      uint64_t x = in[i] + t;
      return wide ? x : (x & 0xffffffffu);
    };
    for (int i = n - 1; i >= 0; --i) acc = acc * 3 + v(i);
    for (int j = 0; j < preds; ++j) acc += v(j) > threshold ? static_cast<uint64_t>(j + 1) : 0;
    if (!wide) acc &= 0xffffffffu;
    ASSERT_EQ(out[t], acc) << "thread " << t;
  }
}

TEST(ExecSpill, ThreeHundred32BitValuesLive) { run_spill(300, /*wide=*/false, /*preds=*/0); }

TEST(ExecSpill, TwoHundred64BitValuesLive) { run_spill(200, /*wide=*/true, /*preds=*/0); }

TEST(ExecSpill, TwelvePredicatesLive) { run_spill(16, /*wide=*/false, /*preds=*/12, /*to_memory=*/false); }

TEST(ExecSpill, PredicatesAndRegistersTogether) { run_spill(260, /*wide=*/false, /*preds=*/14); }

// __launch_bounds__(256, 2): two CTAs of 256 threads share 64K registers, so at most
// 128 per thread (ptxas's rule); the kernel needs about 155 without the budget.
TEST(ExecSpill, LaunchBoundsRegisterBudget) {
  run_spill(150, /*wide=*/false, /*preds=*/0, /*to_memory=*/true, ".maxntid 256, 1, 1\n.minnctapersm 2\n", 128);
}

TEST(ExecSpill, MaxnregRegisterBudget) {
  run_spill(100, /*wide=*/true, /*preds=*/0, /*to_memory=*/true, ".maxnreg 40\n", 40);
}

// Without a budget the same kernel fits in registers.
TEST(ExecSpill, NoBudgetNoSpill) {
  PtxExec e;
  ASSERT_TRUE(e.compile(spill_kernel(150, false, 0)).ok());
  EXPECT_EQ(e.kernel("spill")->local_bytes, 0u);
  EXPECT_GT(e.kernel("spill")->regs_per_thread, 128u);
}

TEST(ExecSpill, SmallKernelsDoNotSpill) {
  PtxExec e;
  ASSERT_TRUE(e.compile(spill_kernel(40, false, 4)).ok());
  EXPECT_EQ(e.kernel("spill")->local_bytes, 0u);
}

}  // namespace
}  // namespace strata::compiler::testing
