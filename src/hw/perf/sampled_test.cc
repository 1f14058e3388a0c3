// Sampled simulation (hw/perf/detailed/sampled.h) on synthetic traces built here: the
// reference is the full detailed replay of the same trace (detailed/model.h), which
// sampling must reproduce exactly when nothing is extrapolated and within the settle
// tolerance when a regular loop is.
#include "hw/perf/detailed/sampled.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "hw/perf/detailed/model.h"
#include "hw/perf/detailed/test_insts.h"
#include "hw/perf/trace.h"
#include "isa/encode.h"

namespace strata::hw::perf {
namespace {

using isa::DataType;
using isa::Opcode;
using testing::bar_sync;
using testing::ffma;
using testing::iadd;
using testing::inst;
using testing::memory;

isa::Inst load(uint8_t wbar) {
  return memory(Opcode::LD, isa::MemSpace::GLOBAL, wbar, 0);
}

// The kernel every test replays:
//   0 IADD            prologue
//   1 LD.GLOBAL  wbar0          <- loop head
//   2 IADD       wait {0}
//   3..6 FFMA x4
//   7 BAR.SYNC
//   8 IADD (stands for the backward branch to 1)
//   9 IADD            epilogue
constexpr uint32_t kHead = 1, kLatch = 8, kEpilogue = 9;

std::vector<isa::Inst> loop_code() {
  return {iadd(),  load(0), iadd(1, 1), ffma(2), ffma(2),
          ffma(2), ffma(2), bar_sync(), iadd(),  iadd()};
}

// A trace of `ctas` CTAs of `warps` warps, each running `iterations(cta, warp)` loop
// iterations; iteration i of a warp loads `sectors(i)` distinct 32-byte sectors that no
// other access touches (streaming from DRAM).
template <typename Iterations, typename Sectors>
KernelTrace loop_trace(uint32_t ctas, uint32_t warps, Iterations iterations, Sectors sectors) {
  KernelTrace t;
  t.code = isa::encode_program(loop_code());
  t.warps_per_cta = warps;
  t.threads_per_cta = 32 * warps;
  t.total_ctas = ctas;
  uint64_t next_sector = 0;
  for (uint32_t c = 0; c < ctas; ++c) {
    CtaTrace& cta = t.ctas.emplace_back();
    cta.linear = c;
    cta.warps.resize(warps);
    for (uint32_t w = 0; w < warps; ++w) {
      WarpTrace& wt = cta.warps[w];
      auto run = [&](uint32_t pc) { wt.issues.push_back({pc, ~0u, ~0u}); };
      run(0);
      const uint32_t n = iterations(c, w);
      for (uint32_t i = 0; i < n; ++i) {
        for (uint32_t pc = kHead; pc <= kLatch; ++pc) {
          run(pc);
          if (pc == kHead) {
            const uint32_t count = sectors(i);
            wt.accesses.push_back({static_cast<uint32_t>(wt.issues.size() - 1),
                                   TraceAccessKind::kLoad, static_cast<uint32_t>(wt.sectors.size()),
                                   count});
            for (uint32_t s = 0; s < count; ++s) wt.sectors.push_back(32 * next_sector++);
          }
        }
      }
      run(kEpilogue);
    }
  }
  return t;
}

DetailedParams params() {
  DetailedParams p;
  p.schedulers = 2;
  p.max_warps_per_sm = 16;
  p.pipe_interval.fill(1.0);
  p.shared_latency = 20;
  p.l1_hit_latency = 30;
  p.l2_hit_latency = 200;
  p.dram_latency = 400;
  p.shared_wavefronts_per_cycle = 1;
  p.l1_sectors_per_cycle = 4;
  p.l2_sectors_per_cycle = 2;
  p.dram_sectors_per_cycle = 1;
  p.l1_bytes = 16384;
  p.l2_bytes = 65536;
  p.barrier_latency = 10;
  p.core_clock_mhz = 1000;
  p.launch_overhead_ns = 0;
  return p;
}

KernelStats resident(uint32_t ctas_per_sm) {
  KernelStats s;
  s.ctas_per_sm = ctas_per_sm;
  return s;
}

double error(const DetailedResult& sampled, const DetailedResult& full) {
  return std::abs(static_cast<double>(sampled.cycles) - static_cast<double>(full.cycles)) /
         static_cast<double>(full.cycles);
}

TEST(Sampled, FindsTheMostTakenBackwardBranchTarget) {
  const KernelTrace t = loop_trace(
      1, 2, [](uint32_t, uint32_t) { return 5u; }, [](uint32_t) { return 1u; });
  EXPECT_EQ(find_main_loop(t, 0, 1), kHead);
  // Straight-line code has no loop.
  const KernelTrace straight = loop_trace(
      1, 1, [](uint32_t, uint32_t) { return 1u; }, [](uint32_t) { return 1u; });
  EXPECT_EQ(find_main_loop(straight, 0, 1), -1);
}

// One wave whose iterations grow ever more expensive: the cycles per iteration never
// settle, so sampling replays the whole wave and must equal the detailed model exactly.
TEST(Sampled, OneWaveThatNeverSettlesIsExact) {
  const KernelTrace t = loop_trace(
      2, 4, [](uint32_t, uint32_t) { return 40u; }, [](uint32_t i) { return 1 + i; });
  const DetailedParams p = params();
  const DetailedResult full = model_kernel_detailed(p, t, resident(2));
  const DetailedResult s = model_kernel_sampled(p, t, resident(2));
  EXPECT_TRUE(s.sampled);
  EXPECT_EQ(s.cycles, full.cycles);
  EXPECT_EQ(s.ns, full.ns);
  EXPECT_EQ(s.warp_instructions, full.warp_instructions);
  EXPECT_EQ(s.stall_cycles, full.stall_cycles);
  EXPECT_EQ(s.l2_misses, full.l2_misses);
  EXPECT_DOUBLE_EQ(s.achieved_occupancy, full.achieved_occupancy);
  EXPECT_EQ(s.waves_total, 1u);
  EXPECT_EQ(s.waves_simulated, 1u);
  EXPECT_EQ(s.iterations_total, 2u * 4 * 40);
  EXPECT_EQ(s.iterations_simulated, s.iterations_total);
  EXPECT_DOUBLE_EQ(s.extrapolation, 1.0);
}

// A grid smaller than one wave, with a loop too short to settle: exact as well.
TEST(Sampled, ShortLoopIsExact) {
  const KernelTrace t = loop_trace(
      1, 3, [](uint32_t, uint32_t w) { return 3 + w; }, [](uint32_t) { return 2u; });
  const DetailedParams p = params();
  const DetailedResult full = model_kernel_detailed(p, t, resident(4));
  const DetailedResult s = model_kernel_sampled(p, t, resident(4));
  EXPECT_EQ(s.cycles, full.cycles);
  EXPECT_EQ(s.stall_cycles, full.stall_cycles);
  EXPECT_EQ(s.iterations_simulated, s.iterations_total);
}

// A regular loop (the same work every iteration): the estimate extends a partial replay
// and lands within the settle tolerance of the full replay.
TEST(Sampled, RegularLoopWithinTolerance) {
  const KernelTrace t = loop_trace(
      2, 4, [](uint32_t, uint32_t) { return 400u; }, [](uint32_t) { return 4u; });
  const DetailedParams p = params();
  const DetailedResult full = model_kernel_detailed(p, t, resident(2));
  const DetailedResult s = model_kernel_sampled(p, t, resident(2));
  EXPECT_EQ(s.main_loop_pc, kHead);
  EXPECT_LT(s.iterations_simulated, s.iterations_total / 4);
  EXPECT_GT(s.extrapolation, 2.0);
  EXPECT_LE(error(s, full), 0.01) << "sampled " << s.cycles << " full " << full.cycles;
}

// Several waves and a partial last one: the first wave is extrapolated over the full
// waves, the partial wave simulated whole.
TEST(Sampled, WavesAndPartialWave) {
  const KernelTrace t = loop_trace(
      7, 2, [](uint32_t, uint32_t) { return 300u; }, [](uint32_t) { return 2u; });
  const DetailedParams p = params();
  const DetailedResult full = model_kernel_detailed(p, t, resident(2));
  const DetailedResult s = model_kernel_sampled(p, t, resident(2));
  EXPECT_EQ(s.waves_total, 4u);
  EXPECT_EQ(s.waves_simulated, 2u);
  EXPECT_EQ(s.iterations_total, 7u * 2 * 300);
  EXPECT_EQ(s.ctas, 3u);  // the first wave's two and the partial wave's one
  // The partial wave's 2 x 300 iterations, and a few of the first wave's.
  EXPECT_GT(s.iterations_simulated, 2u * 300);
  EXPECT_LT(s.iterations_simulated, 2u * 300 + 2 * 2 * 300 / 4);
  EXPECT_LE(error(s, full), 0.01) << "sampled " << s.cycles << " full " << full.cycles;
}

TEST(Sampled, EmptyTraceMatchesDetailed) {
  KernelTrace t;
  t.code = isa::encode_program(loop_code());
  t.warps_per_cta = 1;
  DetailedParams p = params();
  p.launch_overhead_ns = 7;
  const DetailedResult full = model_kernel_detailed(p, t, resident(2));
  const DetailedResult s = model_kernel_sampled(p, t, resident(2));
  EXPECT_EQ(s.cycles, full.cycles);
  EXPECT_EQ(s.ns, full.ns);
  EXPECT_EQ(s.waves_total, 0u);
}

TEST(Sampled, ThresholdPolicy) {
  const KernelTrace t = loop_trace(
      1, 1, [](uint32_t, uint32_t) { return 10u; }, [](uint32_t) { return 1u; });
  const uint64_t n = t.warp_instructions();
  EXPECT_FALSE(should_sample(t, 0));
  EXPECT_FALSE(should_sample(t, n));
  EXPECT_TRUE(should_sample(t, n - 1));
}

}  // namespace
}  // namespace strata::hw::perf
