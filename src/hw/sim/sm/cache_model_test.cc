// The cache models fed by the SM (mem_model.cc, grid.cc): hit and miss counts of
// kernels whose access streams make them follow from the geometry (hw/perf/cache.h),
// the occupancy fields of KernelStats, and the bit-identity of every statistic across
// 1, 2 and 4 worker threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "hw/perf/cache.h"
#include "hw/sim/sm/test_harness.h"

namespace strata::hw::sim::testing {
namespace {

using isa::MemSpace;
using perf::KernelStats;

constexpr uint8_t kNe = static_cast<uint8_t>(isa::CmpOp::NE);
constexpr uint64_t kSectorsPerLine = 4;

std::vector<uint32_t> ptr(uint64_t va) {
  return {static_cast<uint32_t>(va), static_cast<uint32_t>(va >> 32)};
}

enum class Pass { kLoad, kStore, kAtomic };

// One warp (32 threads) walks `lines` consecutive 128-byte lines of the array at
// c[0][0] once per pass: lane l accesses word l of each line, so each warp instruction
// touches exactly one whole line (four sectors).
std::vector<isa::Inst> line_walk(const std::vector<Pass>& passes, uint32_t lines) {
  std::vector<isa::Inst> c = prologue();
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(12).bi(128));
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(13).bi(0));
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(11).bi(1));
  for (Pass pass : passes) {
    for (const isa::Inst& i : element_address(0, 4)) c.push_back(i);
    c.push_back(B(Opcode::MOV).t(DataType::U32).d(8).bi(0));
    c.push_back(B(Opcode::MOV).t(DataType::U32).d(9).bi(lines));
    const size_t loop = c.size();
    switch (pass) {
      case Pass::kLoad:
        c.push_back(B(Opcode::LD).t(DataType::U32).d(10).a(6).space(MemSpace::GLOBAL));
        break;
      case Pass::kStore:
        c.push_back(B(Opcode::ST).t(DataType::U32).a(6).b(11).space(MemSpace::GLOBAL));
        break;
      case Pass::kAtomic:
        c.push_back(B(Opcode::ATOM)
                        .t(DataType::U32)
                        .d(10)
                        .a(6)
                        .b(11)
                        .mod(static_cast<uint8_t>(isa::AtomOp::ADD))
                        .space(MemSpace::GLOBAL));
        break;
    }
    c.push_back(B(Opcode::IADD).t(DataType::U64).d(6).a(6).b(12));
    c.push_back(B(Opcode::IADD).t(DataType::U32).d(8).a(8).bi(1));
    c.push_back(B(Opcode::ISETP).t(DataType::U32).pd(2).a(8).b(9).mod(kNe));
    c.push_back(B(Opcode::BRA).guard(2).imm(static_cast<uint32_t>(loop)));
  }
  c.push_back(B(Opcode::EXIT));
  return c;
}

struct Caches {
  int64_t l1_bytes = 0;
  int64_t l2_bytes = 0;
  uint32_t shared_bytes = 0;  // per CTA (the L1 carve-out)
};

KernelStats run_walk(const std::vector<Pass>& passes, uint64_t array_bytes, Caches caches) {
  Harness h;
  h.config.l1_bytes = caches.l1_bytes;
  h.config.l2_bytes = caches.l2_bytes;
  const uint64_t a = h.alloc(array_bytes);
  GridStats stats;
  LaunchOptions opts;
  opts.shared_bytes = caches.shared_bytes;
  EXPECT_EQ(h.launch(line_walk(passes, static_cast<uint32_t>(array_bytes / 128)), Dim{1}, Dim{32},
                     ptr(a), opts, &stats)
                .kind,
            FaultKind::kNone);
  return stats.kernel;
}

// Streaming through LRU: a set that receives more lines per pass than it has ways keeps
// none of them for the next pass. A contiguous array of at most (ways - 1) x sets lines
// never conflicts (cache.h's hash), so a second pass hits everywhere.
TEST(CacheModel, SecondPassHitsL1WhenTheArrayFits) {
  const uint64_t bytes =
      32 * 1024;  // 256 lines; L1 of 64 KiB, 4 ways: 128 sets, 384 lines conflict-free
  const uint64_t sectors = bytes / 32;
  const KernelStats k =
      run_walk({Pass::kLoad, Pass::kLoad}, bytes, {.l1_bytes = 64 * 1024, .l2_bytes = 1 << 20});
  EXPECT_EQ(k.global_loads.sectors, 2 * sectors);
  EXPECT_EQ(k.l1_misses, sectors);
  EXPECT_EQ(k.l1_hits, sectors);
  EXPECT_EQ(k.l2_misses, sectors);  // only the first pass reaches L2
  EXPECT_EQ(k.l2_hits, 0u);
  EXPECT_EQ(k.dram_read_sectors, sectors);
  EXPECT_EQ(k.dram_write_sectors, 0u);
}

TEST(CacheModel, ArrayBiggerThanL1ButSmallerThanL2HitsL2) {
  const uint64_t bytes = 256 * 1024;  // 2048 lines: 16 per L1 set (4 ways), 4 per L2 set (16 ways)
  const uint64_t sectors = bytes / 32;
  const KernelStats k =
      run_walk({Pass::kLoad, Pass::kLoad}, bytes, {.l1_bytes = 64 * 1024, .l2_bytes = 1 << 20});
  EXPECT_EQ(k.l1_hits, 0u);
  EXPECT_EQ(k.l1_misses, 2 * sectors);
  EXPECT_EQ(k.l2_misses, sectors);
  EXPECT_EQ(k.l2_hits, sectors);
  EXPECT_EQ(k.dram_read_sectors, sectors);
}

TEST(CacheModel, ArrayBiggerThanL2ComesFromDramTwice) {
  const uint64_t bytes = 512 * 1024;  // 4096 lines through an L2 of 1024 lines
  const uint64_t sectors = bytes / 32;
  const KernelStats k =
      run_walk({Pass::kLoad, Pass::kLoad}, bytes, {.l1_bytes = 64 * 1024, .l2_bytes = 128 * 1024});
  EXPECT_EQ(k.l1_hits, 0u);
  EXPECT_EQ(k.l2_hits, 0u);
  EXPECT_EQ(k.l2_misses, 2 * sectors);
  EXPECT_EQ(k.dram_read_sectors, 2 * sectors);
}

// The shared memory of the resident CTA is carved out of the L1: 96 KiB of L1 + shared
// with 64 KiB of shared memory leaves 32 KiB (64 sets of 4 ways).
TEST(CacheModel, SharedMemoryCarveOutShrinksL1) {
  const Caches caches{.l1_bytes = 96 * 1024, .l2_bytes = 1 << 20, .shared_bytes = 64 * 1024};
  const KernelStats fits =
      run_walk({Pass::kLoad, Pass::kLoad}, 16 * 1024, caches);  // 128 lines <= 3 x 64
  EXPECT_EQ(fits.l1_hits, 16 * 1024 / 32u);
  const KernelStats spills =
      run_walk({Pass::kLoad, Pass::kLoad}, 48 * 1024, caches);  // 6 lines per set
  EXPECT_EQ(spills.l1_hits, 0u);
  EXPECT_EQ(spills.l1_misses, 2 * 48 * 1024 / 32u);
  // Without the carve-out the same 48 KiB fit (96 KiB: 192 sets).
  const KernelStats no_shared =
      run_walk({Pass::kLoad, Pass::kLoad}, 48 * 1024, {.l1_bytes = 96 * 1024, .l2_bytes = 1 << 20});
  EXPECT_EQ(no_shared.l1_hits, 48 * 1024 / 32u);
}

// Global stores write through L1 without allocating; L2 allocates them (dirty) without
// reading DRAM, so reading the array back misses L1 and hits L2.
TEST(CacheModel, StoresWriteThroughL1AndAllocateInL2) {
  const uint64_t bytes = 32 * 1024;
  const uint64_t sectors = bytes / 32;
  const KernelStats k =
      run_walk({Pass::kStore, Pass::kLoad}, bytes, {.l1_bytes = 64 * 1024, .l2_bytes = 1 << 20});
  EXPECT_EQ(k.global_stores.sectors, sectors);
  EXPECT_EQ(k.l1_hits, 0u);
  EXPECT_EQ(k.l1_misses, 2 * sectors);
  EXPECT_EQ(k.l2_misses, sectors);
  EXPECT_EQ(k.l2_hits, sectors);
  EXPECT_EQ(k.dram_read_sectors, 0u);
  EXPECT_EQ(k.dram_write_sectors, 0u);  // still dirty in L2 when the grid ends
}

// Writing more than the L2 holds: once every set has received more lines than it has
// ways, the L2 is full of dirty lines and everything else has been written back.
TEST(CacheModel, WriteBackOfDirtyL2Sectors) {
  const uint64_t bytes = 512 * 1024, l2 = 128 * 1024;
  const KernelStats k = run_walk({Pass::kStore}, bytes,
                                 {.l1_bytes = 64 * 1024, .l2_bytes = static_cast<int64_t>(l2)});
  EXPECT_EQ(k.l2_misses, bytes / 32);
  EXPECT_EQ(k.dram_read_sectors, 0u);
  EXPECT_EQ(k.dram_write_sectors, (bytes - l2) / 32);
}

// Atomics bypass L1 and are performed in L2: the first touch of a sector reads it from
// DRAM, later ones hit.
TEST(CacheModel, AtomicsArePerformedInL2) {
  const uint64_t bytes = 4 * 1024;
  const uint64_t sectors = bytes / 32;
  const KernelStats k =
      run_walk({Pass::kAtomic, Pass::kAtomic}, bytes, {.l1_bytes = 64 * 1024, .l2_bytes = 1 << 20});
  EXPECT_EQ(k.global_atomics.sectors, 2 * sectors);
  EXPECT_EQ(k.l1_hits + k.l1_misses, 0u);
  EXPECT_EQ(k.l2_misses, sectors);
  EXPECT_EQ(k.l2_hits, sectors);
  EXPECT_EQ(k.dram_read_sectors, sectors);
}

// Local memory is write-back in L1. One warp stores `lines` words per thread (the
// interleaved layout puts word k of the 32 lanes in one line) and reads them back; with
// an L1 of 16 sets x 4 ways and at least 2 x 4 + 1 lines per set, streaming evicts
// every line of the store pass before the loads reach it, so every dirty line goes to
// L2 once (a write, missing in the fresh L2) and every load misses L1 and hits L2.
TEST(CacheModel, LocalStoresAreWrittenBackThroughL1) {
  constexpr uint32_t kLines = 256;
  std::vector<isa::Inst> c = {
      B(Opcode::MOV).t(DataType::U32).d(11).bi(1),
  };
  for (bool load : {false, true}) {
    c.push_back(B(Opcode::MOV).t(DataType::U32).d(6).bi(0));
    c.push_back(B(Opcode::MOV).t(DataType::U32).d(9).bi(kLines * 4));
    const size_t loop = c.size();
    if (load) {
      c.push_back(B(Opcode::LD).t(DataType::U32).d(10).a(6).space(MemSpace::LOCAL));
    } else {
      c.push_back(B(Opcode::ST).t(DataType::U32).a(6).b(11).space(MemSpace::LOCAL));
    }
    c.push_back(B(Opcode::IADD).t(DataType::U32).d(6).a(6).bi(4));
    c.push_back(B(Opcode::ISETP).t(DataType::U32).pd(2).a(6).b(9).mod(kNe));
    c.push_back(B(Opcode::BRA).guard(2).imm(static_cast<uint32_t>(loop)));
  }
  c.push_back(B(Opcode::EXIT));
  Harness h;
  h.config.l1_bytes = 8 * 1024;
  h.config.l2_bytes = 1 << 20;
  LaunchOptions opts;
  opts.local_bytes = kLines * 4;
  GridStats stats;
  ASSERT_EQ(h.launch(c, Dim{1}, Dim{32}, {}, opts, &stats).kind, FaultKind::kNone);
  const KernelStats& k = stats.kernel;
  const uint64_t sectors = kLines * kSectorsPerLine;
  EXPECT_EQ(k.local_stores.sectors, sectors);
  EXPECT_EQ(k.local_loads.sectors, sectors);
  EXPECT_EQ(k.l1_hits, 0u);
  EXPECT_EQ(k.l1_misses, 2 * sectors);
  EXPECT_EQ(k.l2_misses, sectors);  // the write-backs
  EXPECT_EQ(k.l2_hits, sectors);    // the loads
  EXPECT_EQ(k.dram_read_sectors, 0u);
  EXPECT_EQ(k.dram_write_sectors, 0u);
}

TEST(CacheModel, NoCachesConfiguredSendsEverythingToDram) {
  const uint64_t sectors = 8 * 1024 / 32;
  const KernelStats k = run_walk({Pass::kLoad, Pass::kLoad}, 8 * 1024, {});
  EXPECT_EQ(k.l1_hits, 0u);
  EXPECT_EQ(k.l1_misses, 2 * sectors);
  EXPECT_EQ(k.l2_hits, 0u);
  EXPECT_EQ(k.dram_read_sectors, 2 * sectors);
}

// 16 CTAs x 128 threads on 4 SMs: each thread gathers 8 words of a 64 KiB table that all
// CTAs share (so L1s and the L2 interact), stores one word and adds 1 to one of 64
// histogram bins. L1 and L2 are small enough to evict.
constexpr uint32_t kMixCtas = 16, kMixBlock = 128, kTableWords = 16384, kBins = 64;

std::vector<isa::Inst> mix_kernel() {
  std::vector<isa::Inst> c = prologue();
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(21).bi(37));
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(22).bi(0));
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(8).bi(0));
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(9).bi(8));
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(11).bi(1));
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(20).bi(4));
  const size_t loop = c.size();
  c.push_back(B(Opcode::IMAD).t(DataType::U32).d(23).a(3).b(21).c(22));
  c.push_back(B(Opcode::AND).t(DataType::B32).d(23).a(23).bi(kTableWords - 1));
  c.push_back(B(Opcode::LDC).t(DataType::U64).d(4).imm(0));
  c.push_back(B(Opcode::IMADWIDE).t(DataType::U32).d(6).a(23).b(20).c(4));
  c.push_back(B(Opcode::LD).t(DataType::U32).d(10).a(6).space(MemSpace::GLOBAL));
  c.push_back(B(Opcode::IADD).t(DataType::U32).d(22).a(22).bi(1031));
  c.push_back(B(Opcode::IADD).t(DataType::U32).d(8).a(8).bi(1));
  c.push_back(B(Opcode::ISETP).t(DataType::U32).pd(2).a(8).b(9).mod(kNe));
  c.push_back(B(Opcode::BRA).guard(2).imm(static_cast<uint32_t>(loop)));
  for (const isa::Inst& i : element_address(8, 4)) c.push_back(i);
  c.push_back(B(Opcode::ST).t(DataType::U32).a(6).b(10).space(MemSpace::GLOBAL));
  c.push_back(B(Opcode::AND).t(DataType::B32).d(24).a(3).bi(kBins - 1));
  c.push_back(B(Opcode::LDC).t(DataType::U64).d(4).imm(16));
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(20).bi(4));
  c.push_back(B(Opcode::IMADWIDE).t(DataType::U32).d(6).a(24).b(20).c(4));
  c.push_back(B(Opcode::ATOM)
                  .t(DataType::U32)
                  .d(isa::kRZ)
                  .a(6)
                  .b(11)
                  .mod(static_cast<uint8_t>(isa::AtomOp::ADD))
                  .space(MemSpace::GLOBAL));
  c.push_back(B(Opcode::EXIT));
  return c;
}

GridStats run_mix(int threads) {
  ScopedThreads st(threads);
  Harness h;
  h.config.l1_bytes = 8 * 1024;
  h.config.l2_bytes = 32 * 1024;
  const uint64_t table = h.alloc(kTableWords * 4), out = h.alloc(kMixCtas * kMixBlock * 4),
                 hist = h.alloc(kBins * 4);
  std::vector<uint32_t> params = ptr(table);
  for (uint64_t va : {out, hist}) {
    for (uint32_t w : ptr(va)) params.push_back(w);
  }
  GridStats stats;
  EXPECT_EQ(h.launch(mix_kernel(), Dim{kMixCtas}, Dim{kMixBlock}, params, {}, &stats).kind,
            FaultKind::kNone);
  const std::vector<uint32_t> bins = h.read<uint32_t>(hist, kBins);
  for (uint32_t b = 0; b < kBins; ++b)
    EXPECT_EQ(bins[b], kMixCtas * kMixBlock / kBins) << "bin " << b;
  return stats;
}

void expect_same(const KernelStats& a, const KernelStats& b, int threads) {
  SCOPED_TRACE(::testing::Message() << threads << " worker threads");
#define SAME(F) EXPECT_EQ(a.F, b.F) << #F
  SAME(ctas);
  SAME(threads_per_cta);
  SAME(warps_per_cta);
  SAME(regs_per_thread);
  SAME(shared_bytes_per_cta);
  SAME(ctas_per_sm);
  SAME(max_warps_per_sm);
  SAME(occupancy_limiter);
  SAME(warp_instructions);
  SAME(thread_instructions);
  SAME(pipe_warp_instructions);
  SAME(pipe_thread_instructions);
  SAME(tensor_fmas);
  SAME(global_loads.requests);
  SAME(global_loads.sectors);
  SAME(global_stores.requests);
  SAME(global_stores.sectors);
  SAME(global_atomics.requests);
  SAME(global_atomics.sectors);
  SAME(local_loads.requests);
  SAME(local_loads.sectors);
  SAME(local_stores.requests);
  SAME(local_stores.sectors);
  SAME(texture_loads.requests);
  SAME(texture_loads.sectors);
  SAME(constant_requests);
  SAME(constant_wavefronts);
  SAME(shared_requests);
  SAME(shared_wavefronts);
  SAME(shared_bank_conflicts);
  SAME(barrier_arrivals);
  SAME(barrier_waits);
  SAME(l1_hits);
  SAME(l1_misses);
  SAME(l2_hits);
  SAME(l2_misses);
  SAME(dram_read_sectors);
  SAME(dram_write_sectors);
  SAME(sm_warp_instructions);
  SAME(sm_ctas);
#undef SAME
}

TEST(CacheModel, EveryStatisticIsTheSameWithAnyNumberOfThreads) {
  const GridStats one = run_mix(1);
  const KernelStats& k = one.kernel;
  // The gathers: 8 loads per thread.
  EXPECT_EQ(k.global_loads.requests, 8ull * kMixCtas * kMixBlock / 32);
  EXPECT_EQ(k.l1_hits + k.l1_misses, k.global_loads.sectors + k.global_stores.sectors);
  EXPECT_GT(k.l1_hits, 0u);
  EXPECT_GT(k.l2_hits, 0u);
  EXPECT_GT(k.l2_misses, 0u);
  EXPECT_GT(k.dram_write_sectors, 0u);  // the stores do not fit the L2 next to the table
  for (int threads : {2, 4}) {
    const GridStats many = run_mix(threads);
    expect_same(many.kernel, k, threads);
    EXPECT_EQ(many.warp_instructions_per_sm, one.warp_instructions_per_sm);
  }
}

TEST(CacheModel, OccupancyAndPerSmFields) {
  const GridStats s = run_mix(2);
  const KernelStats& k = s.kernel;
  EXPECT_EQ(k.ctas, kMixCtas);
  EXPECT_EQ(k.threads_per_cta, kMixBlock);
  EXPECT_EQ(k.warps_per_cta, kMixBlock / 32);
  EXPECT_EQ(k.regs_per_thread, 32u);
  // Harness config: 16 blocks, 2048 threads (16 CTAs of 128), 65536 registers (16 CTAs
  // of 4 warps x 1024): every limit allows 16; the first listed (blocks) is reported.
  EXPECT_EQ(k.ctas_per_sm, 16u);
  EXPECT_EQ(k.max_warps_per_sm, 64u);
  EXPECT_EQ(k.occupancy_limiter, KernelStats::Limiter::kBlocks);
  EXPECT_EQ(k.sm_ctas, (std::vector<uint32_t>{4, 4, 4, 4}));  // CTA c on SM c % 4
  ASSERT_EQ(k.sm_warp_instructions.size(), 4u);
  EXPECT_EQ(
      std::accumulate(k.sm_warp_instructions.begin(), k.sm_warp_instructions.end(), uint64_t{0}),
      s.warp_instructions);
  EXPECT_EQ(k.sm_warp_instructions, s.warp_instructions_per_sm);

  // 100 KiB of shared memory per CTA: two fit in 228 KiB.
  Harness h;
  const uint64_t a = h.alloc(4096);
  GridStats shared;
  LaunchOptions opts;
  opts.shared_bytes = 100 * 1024;
  ASSERT_EQ(h.launch(line_walk({Pass::kLoad}, 1), Dim{8}, Dim{32}, ptr(a), opts, &shared).kind,
            FaultKind::kNone);
  EXPECT_EQ(shared.kernel.ctas_per_sm, 2u);
  EXPECT_EQ(shared.kernel.occupancy_limiter, KernelStats::Limiter::kShared);
  EXPECT_DOUBLE_EQ(shared.kernel.theoretical_occupancy(), 2.0 / 64);
}

// Decoupled look-back's pattern: CTA i spins (ld.acquire) until CTA i - 1 has published
// its flag (st.release), with 8 times more CTAs than can be resident (two per SM, by
// shared memory). Completes because every SM starts its CTAs in order, so the lowest
// unfinished CTA is resident.
TEST(CacheModel, ChainedLookBackCompletesWithAnyNumberOfThreads) {
  constexpr uint32_t kCtas = 64;
  const auto eq = static_cast<uint8_t>(isa::CmpOp::EQ);
  const std::vector<isa::Inst> c = {
      B(Opcode::S2R).d(1).mod(static_cast<uint8_t>(isa::SpecialReg::CTAID_X)),  // 0
      B(Opcode::LDC).t(DataType::U64).d(4).imm(0),                              // 1: flags
      B(Opcode::MOV).t(DataType::U32).d(20).bi(4),                              // 2
      B(Opcode::MOV).t(DataType::U32).d(11).bi(1),                              // 3
      B(Opcode::ISETP).t(DataType::U32).pd(0).a(1).b(isa::kRZ).mod(eq),         // 4
      B(Opcode::BRA).guard(0).imm(11),                                          // 5: CTA 0
      B(Opcode::IADD).t(DataType::U32).d(2).a(1).bi(0xffffffffu),               // 6: i - 1
      B(Opcode::IMADWIDE).t(DataType::U32).d(6).a(2).b(20).c(4),                // 7
      B(Opcode::LD)
          .t(DataType::U32)
          .d(10)
          .a(6)
          .sem(isa::MemSem::ACQUIRE)
          .space(MemSpace::GLOBAL),                                       // 8: spin
      B(Opcode::ISETP).t(DataType::U32).pd(1).a(10).b(isa::kRZ).mod(eq),  // 9
      B(Opcode::BRA).guard(1).imm(8),                                     // 10
      B(Opcode::IMADWIDE).t(DataType::U32).d(6).a(1).b(20).c(4),          // 11
      B(Opcode::ST)
          .t(DataType::U32)
          .a(6)
          .b(11)
          .sem(isa::MemSem::RELEASE)
          .space(MemSpace::GLOBAL),  // 12
      B(Opcode::EXIT),               // 13
  };
  for (int threads : {1, 2, 4}) {
    ScopedThreads st(threads);
    Harness h;
    const uint64_t flags = h.alloc(kCtas * 4);
    LaunchOptions opts;
    opts.shared_bytes = 100 * 1024;
    GridStats stats;
    ASSERT_EQ(h.launch(c, Dim{kCtas}, Dim{32}, ptr(flags), opts, &stats).kind, FaultKind::kNone);
    EXPECT_EQ(stats.kernel.ctas_per_sm, 2u);
    const std::vector<uint32_t> f = h.read<uint32_t>(flags, kCtas);
    for (uint32_t i = 0; i < kCtas; ++i)
      EXPECT_EQ(f[i], 1u) << "CTA " << i << ", " << threads << " threads";
  }
}

}  // namespace
}  // namespace strata::hw::sim::testing
