// The detailed timing model on synthetic traces built here (independent of the
// simulator): each expectation is worked out by hand from the parameters the test
// chooses and the ISA's latency table, following the rules of detailed/model.h.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <vector>

#include "hw/perf/detailed/model.h"
#include "hw/perf/detailed/test_insts.h"
#include "hw/perf/trace.h"
#include "isa/encode.h"
#include "isa/latency.h"
#include "isa/tensor.h"

namespace strata::hw::perf {
namespace {

using isa::DataType;
using isa::Opcode;
using testing::bar_sync;
using testing::ffma;
using testing::iadd;
using testing::inst;
using testing::memory;

uint32_t fixed_latency(isa::LatencyClass c) {
  return isa::latency_class_info(c).cycles;
}

// A trace whose warps run the given pcs of `code` in order, full warps.
struct TraceBuilder {
  explicit TraceBuilder(const std::vector<isa::Inst>& code, uint32_t warps_per_cta = 1) {
    t.code = isa::encode_program(code);
    t.warps_per_cta = warps_per_cta;
    t.threads_per_cta = 32 * warps_per_cta;
    t.total_ctas = 0;
  }
  WarpTrace& warp(uint64_t cta, uint32_t w) {
    while (t.ctas.size() <= cta) {
      t.ctas.emplace_back();
      t.ctas.back().linear = t.ctas.size() - 1;
      t.ctas.back().warps.resize(t.warps_per_cta);
      ++t.total_ctas;
    }
    return t.ctas[cta].warps[w];
  }
  // Appends instruction `pc` to the warp; with `sectors`, a global/local access of them.
  void run(WarpTrace& w, uint32_t pc) { w.issues.push_back({pc, ~0u, ~0u}); }
  void access(WarpTrace& w, TraceAccessKind kind, std::vector<uint64_t> sectors) {
    w.accesses.push_back({static_cast<uint32_t>(w.issues.size() - 1), kind,
                          static_cast<uint32_t>(w.sectors.size()),
                          static_cast<uint32_t>(sectors.size())});
    w.sectors.insert(w.sectors.end(), sectors.begin(), sectors.end());
  }
  void shared(WarpTrace& w, uint32_t wavefronts) {
    w.accesses.push_back(
        {static_cast<uint32_t>(w.issues.size() - 1), TraceAccessKind::kShared, 0, wavefronts});
  }
  KernelTrace t;
};

DetailedParams simple_params() {
  DetailedParams p;
  p.schedulers = 1;
  p.max_warps_per_sm = 8;
  p.pipe_interval.fill(1.0);
  p.shared_latency = 20;
  p.l1_hit_latency = 30;
  p.l2_hit_latency = 200;
  p.dram_latency = 500;
  p.shared_wavefronts_per_cycle = 1;
  p.l1_sectors_per_cycle = 1;
  p.l2_sectors_per_cycle = 1;
  p.dram_sectors_per_cycle = 1;
  p.l1_bytes = 4096;
  p.l2_bytes = 65536;
  p.barrier_latency = 10;
  p.core_clock_mhz = 1000;
  return p;
}

KernelStats one_cta_per_sm() {
  KernelStats s;
  s.ctas_per_sm = 1;
  return s;
}

TEST(DetailedModel, DependentFfmaChainTakesLatencyTimesN) {
  const uint32_t lat = fixed_latency(isa::LatencyClass::kFma);
  TraceBuilder b({ffma(static_cast<uint8_t>(lat))});
  constexpr int kN = 50;
  WarpTrace& w = b.warp(0, 0);
  for (int i = 0; i < kN; ++i) b.run(w, 0);
  const DetailedResult r = model_kernel_detailed(simple_params(), b.t, one_cta_per_sm());
  EXPECT_EQ(r.cycles, uint64_t{lat} * kN);
  EXPECT_EQ(r.warp_instructions, uint64_t{kN});
  EXPECT_EQ(r.thread_instructions, uint64_t{kN} * 32);
  EXPECT_EQ(r.ns, r.cycles);  // 1000 MHz, no launch overhead
  // One warp: issued N cycles, waited on its stall counts the rest.
  EXPECT_EQ(r.stall(StallReason::kSelected), uint64_t{kN});
  EXPECT_EQ(r.stall(StallReason::kDependency), uint64_t{kN - 1} * (lat - 1));
}

TEST(DetailedModel, IndependentFfmasFromManyWarpsIssueAtThePipeRate) {
  const uint32_t lat = fixed_latency(isa::LatencyClass::kFma);
  constexpr uint32_t kWarps = 8, kM = 40;
  TraceBuilder b({ffma(1)}, kWarps);
  for (uint32_t w = 0; w < kWarps; ++w)
    for (uint32_t i = 0; i < kM; ++i) b.run(b.warp(0, w), 0);
  DetailedParams p = simple_params();
  p.schedulers = 2;
  p.pipe_interval[static_cast<int>(Pipe::kFp32)] = 2;
  // Each scheduler owns 4 warps = 4 x kM instructions, one every 2 cycles; the last
  // result lands `lat` after the last issue.
  DetailedResult r = model_kernel_detailed(p, b.t, one_cta_per_sm());
  EXPECT_EQ(r.cycles, 2 * (kWarps / 2 * kM - 1) + lat);
  EXPECT_GT(r.stall(StallReason::kPipeBusy), 0u);
  EXPECT_GT(r.achieved_occupancy, 0.0);
  EXPECT_LE(r.achieved_occupancy, 1.0);
  // Full rate: one per cycle per scheduler.
  p.pipe_interval[static_cast<int>(Pipe::kFp32)] = 1;
  r = model_kernel_detailed(p, b.t, one_cta_per_sm());
  EXPECT_EQ(r.cycles, (kWarps / 2 * kM - 1) + lat);
  EXPECT_EQ(r.stall(StallReason::kPipeBusy), 0u);
  EXPECT_GT(r.stall(StallReason::kNotSelected), 0u);
}

TEST(DetailedModel, TensorPipeTakesTheShapesMultiplyAddsAtTheTypesRate) {
  auto hmma = [](isa::MmaShape shape, isa::MmaFormat format) {
    isa::Inst i = inst(Opcode::HMMA);
    i.type = DataType::F32, i.type2 = DataType::F32;
    i.rd = 0, i.ra = 4, i.rb = 8, i.rc = 12;
    isa::MmaDesc d;
    d.shape = shape, d.a = d.b = format;
    i.imm = d.encode();
    return i;
  };
  // 4 warps, 2 on each of 2 schedulers, kM independent HMMAs each; the SM does 1024 f16
  // and 512 tf32 multiply-adds a cycle.
  constexpr uint32_t kM = 10;
  TraceBuilder b({hmma(isa::MmaShape::M16N8K16, isa::MmaFormat::F16),
                  hmma(isa::MmaShape::M16N8K8, isa::MmaFormat::TF32)},
                 4);
  DetailedParams p = simple_params();
  p.schedulers = 2;
  p.tensor_fmas_per_cycle[static_cast<int>(TensorType::kF16)] = 1024;
  p.tensor_fmas_per_cycle[static_cast<int>(TensorType::kTf32)] = 512;
  for (uint32_t pc : {0u, 1u}) {
    TraceBuilder t = b;
    for (uint32_t w = 0; w < 4; ++w)
      for (uint32_t i = 0; i < kM; ++i) t.run(t.warp(0, w), pc);
    // m16n8k16: 2048 multiply-adds x 2 schedulers / 1024 = 4 cycles per HMMA per scheduler;
    // m16n8k8 tf32: 1024 x 2 / 512 = 4 as well. Each scheduler issues 2 x kM of them.
    const DetailedResult r = model_kernel_detailed(p, t.t, one_cta_per_sm());
    EXPECT_EQ(r.cycles, 4 * (2 * kM - 1) + p.tensor_latency) << pc;
  }
  // Twice the f16 rate: twice as fast.
  p.tensor_fmas_per_cycle[static_cast<int>(TensorType::kF16)] = 2048;
  TraceBuilder t = b;
  for (uint32_t w = 0; w < 4; ++w)
    for (uint32_t i = 0; i < kM; ++i) t.run(t.warp(0, w), 0);
  EXPECT_EQ(model_kernel_detailed(p, t.t, one_cta_per_sm()).cycles,
            2 * (2 * kM - 1) + p.tensor_latency);
}

TEST(DetailedModel, DependentLoadsTakeTheLatencyOfTheLevelTheyHit) {
  // ST x; LD x (L1 miss: stores do not allocate in L1, but L2 hit); LD x (L1 hit);
  // LD y (misses both: DRAM); IADD waiting for it.
  const uint64_t x = 0x1000, y = 0x8000;
  TraceBuilder b({memory(Opcode::ST, isa::MemSpace::GLOBAL, 7, 0),
                  memory(Opcode::LD, isa::MemSpace::GLOBAL, 0, 0),
                  memory(Opcode::LD, isa::MemSpace::GLOBAL, 0, 1), iadd(1, 1)});
  WarpTrace& w = b.warp(0, 0);
  b.run(w, 0), b.access(w, TraceAccessKind::kStore, {x});
  b.run(w, 1), b.access(w, TraceAccessKind::kLoad, {x});
  b.run(w, 2), b.access(w, TraceAccessKind::kLoad, {x});
  b.run(w, 2), b.access(w, TraceAccessKind::kLoad, {y});
  b.run(w, 3);
  const DetailedParams p = simple_params();
  const DetailedResult r = model_kernel_detailed(p, b.t, one_cta_per_sm());
  const uint64_t ld1 = 1, ld2 = ld1 + p.l2_hit_latency, ld3 = ld2 + p.l1_hit_latency,
                 add = ld3 + p.dram_latency;
  EXPECT_EQ(r.cycles, add + fixed_latency(isa::LatencyClass::kAlu));
  EXPECT_EQ(r.l1_hits, 1u);
  EXPECT_EQ(r.l1_misses, 2u);
  EXPECT_EQ(r.l2_hits, 1u);
  EXPECT_EQ(r.l2_misses, 1u);
  EXPECT_EQ(r.stall(StallReason::kMemory),
            p.l2_hit_latency - 1 + p.l1_hit_latency - 1 + p.dram_latency - 1);
}

TEST(DetailedModel, L2OnlyLoadsNeitherLookUpNorFillTheL1) {
  // cp.async.cg of x (DRAM, not cached in L1); LD x (L1 miss, L2 hit); LD x (L1 hit);
  // cp.async.cg of x again (an L2 hit although the L1 holds x); IADD.
  const uint64_t x = 0x1000;
  TraceBuilder b({memory(Opcode::LD, isa::MemSpace::GLOBAL, 0, 0),
                  memory(Opcode::LD, isa::MemSpace::GLOBAL, 0, 1), iadd(1, 1)});
  WarpTrace& w = b.warp(0, 0);
  b.run(w, 0), b.access(w, TraceAccessKind::kLoadL2, {x});
  b.run(w, 1), b.access(w, TraceAccessKind::kLoad, {x});
  b.run(w, 1), b.access(w, TraceAccessKind::kLoad, {x});
  b.run(w, 0), b.access(w, TraceAccessKind::kLoadL2, {x});
  b.run(w, 2);
  const DetailedParams p = simple_params();
  const DetailedResult r = model_kernel_detailed(p, b.t, one_cta_per_sm());
  // Issue cycles: the first load at 0; each LD waits for the one before; the second
  // cp.async (no wait) one cycle after the second LD; the IADD waits for all.
  const uint64_t ld1 = p.dram_latency, ld2 = ld1 + p.l2_hit_latency, cg2 = ld2 + 1,
                 add = cg2 + p.l2_hit_latency;
  EXPECT_EQ(r.cycles, add + fixed_latency(isa::LatencyClass::kAlu));
  EXPECT_EQ(r.l1_hits, 1u);  // the L2-only loads count no L1 access
  EXPECT_EQ(r.l1_misses, 1u);
  EXPECT_EQ(r.l2_hits, 2u);
  EXPECT_EQ(r.l2_misses, 1u);
}

// kM independent loads of one fresh 128-byte line each (4 sectors), then an IADD.
TraceBuilder streaming_loads(uint32_t kM) {
  TraceBuilder b({memory(Opcode::LD, isa::MemSpace::GLOBAL, 0, 0), iadd(1, 1)});
  WarpTrace& w = b.warp(0, 0);
  for (uint64_t i = 0; i < kM; ++i) {
    b.run(w, 0);
    b.access(w, TraceAccessKind::kLoad, {i * 128, i * 128 + 32, i * 128 + 64, i * 128 + 96});
  }
  b.run(w, 1);
  return b;
}

TEST(DetailedModel, StreamingLoadsAreBoundByThisSmsDramShare) {
  // kM independent loads of one fresh 128-byte line each (4 sectors), one per cycle,
  // then an IADD waiting for all of them. DRAM serves 0.5 sectors a cycle: load i leaves
  // the DRAM queue at 8i + 6 (its 4 sectors take 8 cycles, the last leaves 6 after the
  // first starts); L1 and L2 (4 sectors a cycle) keep up.
  constexpr uint32_t kM = 100;
  const TraceBuilder b = streaming_loads(kM);
  DetailedParams p = simple_params();
  p.l1_sectors_per_cycle = 4;
  p.l2_sectors_per_cycle = 4;
  p.dram_sectors_per_cycle = 0.5;
  const DetailedResult r = model_kernel_detailed(p, b.t, one_cta_per_sm());
  EXPECT_EQ(r.cycles, 8 * (kM - 1) + 6 + p.dram_latency + fixed_latency(isa::LatencyClass::kAlu));
  EXPECT_EQ(r.l2_misses, 4u * kM);
  // Twice the bandwidth: half the streaming time.
  p.dram_sectors_per_cycle = 1;
  EXPECT_EQ(model_kernel_detailed(p, b.t, one_cta_per_sm()).cycles,
            4 * (kM - 1) + 3 + p.dram_latency + fixed_latency(isa::LatencyClass::kAlu));
}

TEST(DetailedModel, OtherSmsLinesInTheDeviceL2AreHits) {
  // The streaming trace above, but the functional model's L2 (shared by every SM) missed
  // only 1 in 4 read sectors: other SMs had brought the rest in. Each load's 4 sectors
  // miss in SM 0's share; only enough of them go to DRAM to keep SM 0 at the device's
  // rate, 1 per load, which leaves the DRAM queue at 2i; the L2 (4 sectors a cycle)
  // keeps up.
  constexpr uint32_t kM = 100;
  const TraceBuilder b = streaming_loads(kM);
  DetailedParams p = simple_params();
  p.l1_sectors_per_cycle = 4;
  p.l2_sectors_per_cycle = 4;
  p.dram_sectors_per_cycle = 0.5;
  KernelStats s = one_cta_per_sm();
  s.l2_hits = 3000, s.l2_misses = 1000, s.dram_read_sectors = 1000;
  DetailedResult r = model_kernel_detailed(p, b.t, s);
  EXPECT_EQ(r.cycles, 2 * (kM - 1) + p.dram_latency + fixed_latency(isa::LatencyClass::kAlu));
  EXPECT_EQ(r.l2_misses, uint64_t{kM});
  EXPECT_EQ(r.l2_hits, 3u * kM);
  // Store sectors are not reads: 1000 of 5000 lookups were stores, so the read miss
  // rate is still 1 in 4.
  s.l2_hits = 4000, s.global_stores.sectors = 1000;
  r = model_kernel_detailed(p, b.t, s);
  EXPECT_EQ(r.l2_misses, uint64_t{kM});
  // A device that missed every read: the share's misses all go to DRAM, as without
  // the counters.
  s = one_cta_per_sm();
  s.l2_misses = 4000, s.dram_read_sectors = 4000;
  r = model_kernel_detailed(p, b.t, s);
  EXPECT_EQ(r.cycles, 8 * (kM - 1) + 6 + p.dram_latency + fixed_latency(isa::LatencyClass::kAlu));
  EXPECT_EQ(r.l2_misses, 4u * kM);
}

TEST(DetailedModel, AHitInTheL2ShareStaysAHitWhateverTheDeviceRate) {
  // ST x; LD x hits in SM 0's share (the store put it there); the device missed every
  // read, but a sector the share holds is an L2 hit.
  const uint64_t x = 0x1000;
  TraceBuilder b({memory(Opcode::ST, isa::MemSpace::GLOBAL, 7, 0),
                  memory(Opcode::LD, isa::MemSpace::GLOBAL, 0, 0), iadd(1, 1)});
  WarpTrace& w = b.warp(0, 0);
  b.run(w, 0), b.access(w, TraceAccessKind::kStore, {x});
  b.run(w, 1), b.access(w, TraceAccessKind::kLoad, {x});
  b.run(w, 2);
  KernelStats s = one_cta_per_sm();
  s.l2_misses = 10, s.dram_read_sectors = 10;
  const DetailedResult r = model_kernel_detailed(simple_params(), b.t, s);
  EXPECT_EQ(r.l2_hits, 1u);
  EXPECT_EQ(r.l2_misses, 0u);
}

TEST(DetailedModel, StallCountDelaysTheNextIssue) {
  constexpr uint8_t kK = 7;
  TraceBuilder b({iadd(kK), iadd(1)});
  WarpTrace& w = b.warp(0, 0);
  b.run(w, 0), b.run(w, 1);
  const DetailedResult r = model_kernel_detailed(simple_params(), b.t, one_cta_per_sm());
  EXPECT_EQ(r.cycles, kK + fixed_latency(isa::LatencyClass::kAlu));
  EXPECT_EQ(r.stall(StallReason::kDependency), kK - 1u);
}

TEST(DetailedModel, CtaBarrierHoldsWarpsUntilAllArrive) {
  const uint32_t lat = fixed_latency(isa::LatencyClass::kFma);
  constexpr uint32_t kN = 20;
  TraceBuilder b({ffma(static_cast<uint8_t>(lat)), bar_sync(), ffma(1)}, 2);
  WarpTrace& w0 = b.warp(0, 0);
  for (uint32_t i = 0; i < kN; ++i) b.run(w0, 0);
  b.run(w0, 1), b.run(w0, 2);
  WarpTrace& w1 = b.warp(0, 1);
  b.run(w1, 1), b.run(w1, 2);
  DetailedParams p = simple_params();
  p.schedulers = 2;
  const DetailedResult r = model_kernel_detailed(p, b.t, one_cta_per_sm());
  // Warp 0 arrives at lat x kN (after its chain); both leave barrier_latency later.
  const uint64_t release = uint64_t{lat} * kN + p.barrier_latency;
  EXPECT_EQ(r.cycles, release + lat);
  // Warp 1 waited at the barrier from cycle 1 until warp 0 arrived.
  EXPECT_EQ(r.stall(StallReason::kBarrier), uint64_t{lat} * kN - 1);
}

TEST(DetailedModel, BankConflictedSharedLoadTakesOneCyclePerWavefront) {
  auto cycles = [](uint32_t wavefronts) {
    TraceBuilder b({memory(Opcode::LD, isa::MemSpace::SHARED, 0, 0), iadd(1, 1)});
    WarpTrace& w = b.warp(0, 0);
    b.run(w, 0), b.shared(w, wavefronts);
    b.run(w, 1);
    const DetailedResult r = model_kernel_detailed(simple_params(), b.t, one_cta_per_sm());
    EXPECT_EQ(r.shared_wavefronts, wavefronts);
    return r.cycles;
  };
  const DetailedParams p = simple_params();
  const uint64_t alu = fixed_latency(isa::LatencyClass::kAlu);
  EXPECT_EQ(cycles(1), p.shared_latency + alu);
  EXPECT_EQ(cycles(8), p.shared_latency + 7 + alu);
  EXPECT_EQ(cycles(32), p.shared_latency + 31 + alu);
}

TEST(DetailedModel, ResidentCtasFollowTheOccupancy) {
  const uint32_t lat = fixed_latency(isa::LatencyClass::kFma);
  constexpr uint32_t kN = 10;
  TraceBuilder b({ffma(static_cast<uint8_t>(lat))});
  for (uint64_t c = 0; c < 4; ++c)
    for (uint32_t i = 0; i < kN; ++i) b.run(b.warp(c, 0), 0);
  KernelStats s;
  s.ctas_per_sm = 4;  // all four at once: latency-bound chains overlap
  EXPECT_EQ(model_kernel_detailed(simple_params(), b.t, s).cycles, uint64_t{lat} * kN + 3);
  s.ctas_per_sm = 1;  // one after the other: the next starts the cycle after the last issue
  const DetailedResult r = model_kernel_detailed(simple_params(), b.t, s);
  EXPECT_EQ(r.ctas, 4u);
  EXPECT_EQ(r.cycles, 4 * (uint64_t{lat} * (kN - 1) + 1) - 1 + lat);
}

TEST(DetailedModel, ParamsComeFromTheConfig) {
  ArchConfig c;
  c.warp_schedulers_per_sm = 4;
  c.max_threads_per_sm = 2048;
  c.fp32_lanes_per_clock = 64;  // 16 per scheduler: a warp instruction every 2 cycles
  c.sfu_lanes_per_clock = 16;
  c.core_clock_mhz = 1500;
  c.dram_latency_ns = 400;
  c.sm_count = 100;
  c.l2_bytes = 100 << 20;
  c.l2_bytes_per_clock = 6400;
  c.launch_overhead_ns = 3000;
  const DetailedParams p = detailed_params(c);
  EXPECT_EQ(p.schedulers, 4u);
  EXPECT_EQ(p.max_warps_per_sm, 64u);
  EXPECT_DOUBLE_EQ(p.pipe_interval[static_cast<int>(Pipe::kFp32)], 2.0);
  EXPECT_DOUBLE_EQ(p.pipe_interval[static_cast<int>(Pipe::kSfu)], 8.0);
  EXPECT_EQ(p.dram_latency, 600u);
  EXPECT_EQ(p.l2_bytes, (100u << 20) / 100);
  EXPECT_DOUBLE_EQ(p.l2_sectors_per_cycle, 6400.0 / 100 / 32);
  EXPECT_EQ(p.launch_overhead_ns, 3000u);
  // The kernel time converts SM cycles at the core clock and adds the launch overhead.
  TraceBuilder b({iadd(15)});
  for (int i = 0; i < 100; ++i) b.run(b.warp(0, 0), 0);
  const DetailedResult r = model_kernel_detailed(c, b.t, one_cta_per_sm());
  EXPECT_EQ(r.cycles, 99u * 15 + fixed_latency(isa::LatencyClass::kAlu));
  EXPECT_EQ(r.ns, (r.cycles * 1000 + 750) / 1500 + 3000);
  // As a KernelTime: the same; on half the SMs, SM 0's work takes twice as long.
  KernelTime kt = detailed_kernel_time(r, p);
  EXPECT_EQ(kt.ns, r.ns);
  EXPECT_EQ(kt.cycles, r.cycles);
  EXPECT_EQ(kt.launch_ns, 3000u);
  kt = detailed_kernel_time(r, p, /*sm_share=*/0.5);
  EXPECT_EQ(kt.cycles, 2 * r.cycles);
  EXPECT_EQ(kt.ns, (2 * r.cycles * 1000 + 750) / 1500 + 3000);
}

// Metamorphic checks through the config (issue 5 item 8), on an FP32-bound trace: 16
// warps of independent FFMAs with a few loads.
TEST(DetailedModel, ConfigChangesMoveTheTimeAsTheyShould) {
  TraceBuilder b({ffma(1), memory(Opcode::LD, isa::MemSpace::GLOBAL, 7, 0)}, 16);
  for (uint32_t w = 0; w < 16; ++w) {
    WarpTrace& wt = b.warp(0, w);
    for (uint32_t i = 0; i < 2000; ++i) {
      b.run(wt, 0);
      if (i % 500 == 0)
        b.run(wt, 1), b.access(wt, TraceAccessKind::kLoad, {(w * 4000 + i) * 32ull});
    }
  }
  ArchConfig c;
  c.sm_count = 10;
  c.warp_schedulers_per_sm = 4;
  c.max_threads_per_sm = 2048;
  c.fp32_lanes_per_clock = 64;
  c.core_clock_mhz = 1000;
  c.memory_clock_mhz = 1000;
  c.memory_bus_width_bits = 256;
  c.memory_transfers_per_clock = 2;
  const KernelStats s = one_cta_per_sm();
  const DetailedResult base = model_kernel_detailed(c, b.t, s);
  ASSERT_GT(base.cycles, 16u * 2000 / 2);  // bound by 64 FP32 lanes: 2 cycles per warp FFMA per SM
  // Twice the DRAM bandwidth: an FP32-bound kernel moves by less than 1%.
  ArchConfig more_dram = c;
  more_dram.memory_transfers_per_clock = 4;
  const double dram_ratio = static_cast<double>(model_kernel_detailed(more_dram, b.t, s).cycles) /
                            static_cast<double>(base.cycles);
  EXPECT_NEAR(dram_ratio, 1.0, 0.01);
  // Twice the FP32 lanes: about half the cycles.
  ArchConfig more_fp32 = c;
  more_fp32.fp32_lanes_per_clock = 128;
  const double fp32_ratio = static_cast<double>(model_kernel_detailed(more_fp32, b.t, s).cycles) /
                            static_cast<double>(base.cycles);
  EXPECT_NEAR(fp32_ratio, 0.5, 0.05);
  // Twice the clock: the same cycles (the DRAM latency is in ns, so a few more), half the
  // time.
  ArchConfig faster = c;
  faster.core_clock_mhz = 2000;
  const DetailedResult f = model_kernel_detailed(faster, b.t, s);
  EXPECT_NEAR(static_cast<double>(f.ns) / static_cast<double>(base.ns), 0.5, 0.05);
}

TEST(Trace, SerialisesAndParsesBack) {
  TraceBuilder b({memory(Opcode::LD, isa::MemSpace::GLOBAL, 0, 0), iadd(1, 1)}, 2);
  WarpTrace& w = b.warp(3, 1);
  b.run(w, 0), b.access(w, TraceAccessKind::kLoad, {0x100, 0x120, 0x4000});
  b.run(w, 1);
  b.run(b.warp(3, 0), 1), b.shared(b.warp(3, 0), 4);
  b.t.sm_count = 7;
  b.t.regs_per_thread = 40;
  const std::vector<uint8_t> bytes = serialize_trace(b.t);
  StatusOr<KernelTrace> back = parse_trace(bytes);
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(back->sm_count, 7u);
  EXPECT_EQ(back->regs_per_thread, 40u);
  EXPECT_EQ(back->code, b.t.code);
  ASSERT_EQ(back->ctas.size(), b.t.ctas.size());
  const WarpTrace& bw = back->ctas[3].warps[1];
  ASSERT_EQ(bw.issues.size(), 2u);
  EXPECT_EQ(bw.issues[1].pc, 1u);
  EXPECT_EQ(bw.sectors, w.sectors);
  ASSERT_EQ(bw.accesses.size(), 1u);
  EXPECT_EQ(bw.accesses[0].count, 3u);
  EXPECT_EQ(back->ctas[3].warps[0].accesses[0].kind, TraceAccessKind::kShared);
  EXPECT_EQ(back->warp_instructions(), b.t.warp_instructions());

  std::vector<uint8_t> bad = bytes;
  bad[0] = 'X';
  EXPECT_EQ(parse_trace(bad).status().code(), Code::kInvalidValue);
  bad = bytes;
  bad.resize(bytes.size() - 3);
  EXPECT_EQ(parse_trace(bad).status().code(), Code::kInvalidValue);

  const std::string path = ::testing::TempDir() + "/detailed_test.trace";
  ASSERT_TRUE(write_trace(b.t, path).ok());
  StatusOr<KernelTrace> file = read_trace(path);
  ASSERT_TRUE(file.ok()) << file.status().to_string();
  EXPECT_EQ(file->warp_instructions(), b.t.warp_instructions());
  EXPECT_EQ(read_trace(path + ".missing").status().code(), Code::kFileNotFound);
}

// Simulator speed (issue 5 item 9): thread-instructions per second of the detailed
// model on a mixed trace. Printed, not asserted (no timing assertions in tests).
TEST(DetailedModel, SpeedReport) {
  const uint32_t lat = fixed_latency(isa::LatencyClass::kFma);
  TraceBuilder b({ffma(1), ffma(static_cast<uint8_t>(lat)),
                  memory(Opcode::LD, isa::MemSpace::GLOBAL, 0, 0), iadd(1, 1)},
                 8);
  for (uint64_t c = 0; c < 8; ++c)
    for (uint32_t w = 0; w < 8; ++w) {
      WarpTrace& wt = b.warp(c, w);
      for (uint32_t i = 0; i < 2000; ++i) {
        b.run(wt, i % 2);
        if (i % 16 == 15) {
          b.run(wt, 2), b.access(wt, TraceAccessKind::kLoad, {(c * 8 + w) * 4096 + i * 32ull});
          b.run(wt, 3);
        }
      }
    }
  KernelStats s;
  s.ctas_per_sm = 4;
  DetailedParams p = simple_params();
  p.schedulers = 4;
  const auto t0 = std::chrono::steady_clock::now();
  const DetailedResult r = model_kernel_detailed(p, b.t, s);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf(
      "detailed model: %llu thread-instructions, %llu cycles, %.3f s: %.3g thread-instructions/s\n",
      static_cast<unsigned long long>(r.thread_instructions),
      static_cast<unsigned long long>(r.cycles), seconds,
      static_cast<double>(r.thread_instructions) / seconds);
  EXPECT_EQ(r.warp_instructions, b.t.warp_instructions());
}

}  // namespace
}  // namespace strata::hw::perf
