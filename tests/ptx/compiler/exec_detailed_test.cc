// The detailed timing model (hw/perf/detailed/model.h) on compiled code: a trace
// recorded from a kernel the PTX compiler scheduled, so the control bits the model
// honours are the compiler's. Expectations are bounds derived from the ISA's latency
// table (isa/latencies.def) and the kernel's structure, and results against a host
// reference; never numbers captured from the model.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "compiler/compiler.h"
#include "compiler/sxbin/sxbin.h"
#include "hw/perf/detailed/model.h"
#include "hw/sim/sm/test_harness.h"
#include "isa/latency.h"

namespace strata::compiler::testing {
namespace {

using hw::FaultKind;
using hw::sim::testing::Dim;
using hw::sim::testing::Harness;
using hw::sim::testing::LaunchOptions;

// Each thread runs n iterations of 4 dependent FMAs on one accumulator.
constexpr const char* kPtx = R"(
.version 8.0
.target sm_80
.address_size 64

.visible .entry chain(.param .u64 pout, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<4>;

  ld.param.u64 %rd1, [pout];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  cvt.rn.f32.u32 %f1, %r2;
  mul.f32 %f1, %f1, 0f3A800000;
  mov.f32 %f2, 0f3F800000;
  mov.u32 %r3, 0;
LOOP:
  fma.rn.f32 %f2, %f2, %f1, 0f3F000000;
  fma.rn.f32 %f2, %f2, %f1, 0f3F000000;
  fma.rn.f32 %f2, %f2, %f1, 0f3F000000;
  fma.rn.f32 %f2, %f2, %f1, 0f3F000000;
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p1, %r3, %r1;
  @%p1 bra LOOP;
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r2, 4;
  add.u64 %rd3, %rd2, %rd3;
  st.global.f32 [%rd3], %f2;
  ret;
}
)";

TEST(DetailedModelOnCompiledCode, DependentFmaChainHonoursTheCompilersStallCounts) {
  auto image = compile_ptx({{"chain.ptx", kPtx}}, CompileOptions{});
  ASSERT_TRUE(image.ok()) << image.status().message();
  auto bin = sxbin::read_sxbin(*image);
  ASSERT_TRUE(bin.ok()) << bin.status().message();
  const sxbin::KernelDesc* k = bin->find_kernel("chain");
  ASSERT_NE(k, nullptr);
  const std::vector<uint8_t> code(
      bin->code.begin() + static_cast<std::ptrdiff_t>(k->code_offset),
      bin->code.begin() + static_cast<std::ptrdiff_t>(k->code_offset + k->code_size));

  constexpr uint32_t kIterations = 100, kThreads = 32;
  Harness h;
  h.config.warp_schedulers_per_sm = 4;
  const uint64_t out = h.alloc(kThreads * 4);
  std::vector<uint32_t> words(4, 0);
  std::memcpy(&words[0], &out, 8);
  words[2] = kIterations;
  hw::perf::KernelTrace trace;
  LaunchOptions o;
  o.regs = k->regs_per_thread;
  o.local_bytes = k->local_bytes;
  o.check_hazards = true;  // the compiler's control bits cover every dependency
  o.trace = &trace;
  hw::sim::GridStats stats;
  ASSERT_EQ(h.launch_raw(code, Dim{1}, Dim{kThreads}, words, o, &stats).kind, FaultKind::kNone);
  const std::vector<float> result = h.read<float>(out, kThreads);
  for (uint32_t t = 0; t < kThreads; ++t) {
    const float x = static_cast<float>(t) * 0.0009765625f;
    float acc = 1.0f;
    for (uint32_t i = 0; i < 4 * kIterations; ++i) acc = std::fma(acc, x, 0.5f);
    ASSERT_EQ(result[t], acc) << t;
  }

  const hw::perf::DetailedResult r = hw::perf::model_kernel_detailed(h.config, trace, stats.kernel);
  EXPECT_EQ(r.warp_instructions, trace.warp_instructions());
  std::printf(
      "compiled FMA chain: %llu cycles, %llu warp instructions, dependency stalls %llu "
      "warp-cycles\n",
      static_cast<unsigned long long>(r.cycles),
      static_cast<unsigned long long>(r.warp_instructions),
      static_cast<unsigned long long>(r.stall(hw::perf::StallReason::kDependency)));
  // 4 x kIterations dependent FFMAs: each issues at least the FMA latency after the one
  // it depends on, so the chain alone takes that many cycles...
  const uint64_t fma = isa::latency_class_info(isa::LatencyClass::kFma).cycles;
  EXPECT_GE(r.cycles, 4 * kIterations * fma);
  // ...and no instruction waits more than the largest stall count (15) or, for a
  // variable-latency producer, its modeled latency (the loop has none: a bound of 15
  // cycles per instruction issued, plus the memory latency of the final store and the
  // parameter loads).
  EXPECT_LE(r.cycles, r.warp_instructions * 15 + 4 * 2000);
  // One warp: it issued every instruction and waited the rest.
  EXPECT_EQ(r.stall(hw::perf::StallReason::kSelected), r.warp_instructions);
  EXPECT_GT(r.stall(hw::perf::StallReason::kDependency), 4 * kIterations * (fma - 1) / 2);
}

// A pointer chase: each load's address is the previous load's result, so the compiler
// makes each wait on the previous one's dependency barrier.
constexpr const char* kChasePtx = R"(
.version 8.0
.target sm_80
.address_size 64

.visible .entry chase(.param .u64 pnext, .param .u64 pout, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<6>;

  ld.param.u64 %rd1, [pnext];
  ld.param.u64 %rd2, [pout];
  ld.param.u32 %r1, [n];
  cvta.to.global.u64 %rd3, %rd1;
  mov.u32 %r2, 0;
LOOP:
  ld.global.u64 %rd3, [%rd3];
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, %r1;
  @%p1 bra LOOP;
  cvta.to.global.u64 %rd4, %rd2;
  st.global.u64 [%rd4], %rd3;
  ret;
}
)";

TEST(DetailedModelOnCompiledCode, PointerChaseWaitsForEachLoad) {
  auto image = compile_ptx({{"chase.ptx", kChasePtx}}, CompileOptions{});
  ASSERT_TRUE(image.ok()) << image.status().message();
  auto bin = sxbin::read_sxbin(*image);
  ASSERT_TRUE(bin.ok()) << bin.status().message();
  const sxbin::KernelDesc* k = bin->find_kernel("chase");
  ASSERT_NE(k, nullptr);
  const std::vector<uint8_t> code(
      bin->code.begin() + static_cast<std::ptrdiff_t>(k->code_offset),
      bin->code.begin() + static_cast<std::ptrdiff_t>(k->code_offset + k->code_size));

  // A ring of kRing elements 256 bytes apart, each holding the next one's address.
  constexpr uint32_t kRing = 64, kLoads = 96;
  Harness h;
  h.config.warp_schedulers_per_sm = 4;
  const uint64_t ring = h.alloc(kRing * 256), out = h.alloc(8);
  for (uint32_t i = 0; i < kRing; ++i)
    h.write<uint64_t>(ring + i * 256, {ring + ((i + 1) % kRing) * 256});
  std::vector<uint32_t> words(6, 0);
  std::memcpy(&words[0], &ring, 8);
  std::memcpy(&words[2], &out, 8);
  words[4] = kLoads;
  hw::perf::KernelTrace trace;
  LaunchOptions o;
  o.regs = k->regs_per_thread;
  o.local_bytes = k->local_bytes;
  o.check_hazards = true;
  o.trace = &trace;
  hw::sim::GridStats stats;
  ASSERT_EQ(h.launch_raw(code, Dim{1}, Dim{1}, words, o, &stats).kind, FaultKind::kNone);
  EXPECT_EQ(h.read<uint64_t>(out, 1)[0], ring + (kLoads % kRing) * 256);

  const hw::perf::DetailedParams p = hw::perf::detailed_params(h.config);
  const hw::perf::DetailedResult r = hw::perf::model_kernel_detailed(p, trace, stats.kernel);
  std::printf(
      "compiled pointer chase: %llu cycles for %u dependent loads, memory stalls %llu "
      "warp-cycles\n",
      static_cast<unsigned long long>(r.cycles), kLoads,
      static_cast<unsigned long long>(r.stall(hw::perf::StallReason::kMemory)));
  // Every load waits for the previous one's result: at least an L1 hit's latency each.
  EXPECT_GE(r.cycles, uint64_t{kLoads} * p.l1_hit_latency);
  // The warp spends the loads' latency waiting on their dependency barrier (the loop's
  // other instructions issue meanwhile).
  EXPECT_GT(r.stall(hw::perf::StallReason::kMemory), 0u);
}

}  // namespace
}  // namespace strata::compiler::testing
