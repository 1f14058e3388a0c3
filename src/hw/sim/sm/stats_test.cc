// Statistics from functional execution (hw/sim/sm/stats.h): exact counts worked out by
// hand from the models stats.h documents (32-byte sectors after coalescing; 32 banks of
// 4 bytes with broadcast and half/quarter-warp phases for 8/16-byte accesses; pipes from
// isa/pipes.def), never captured from the simulator's own output.
#include <gtest/gtest.h>

#include "hw/contract/texture.h"
#include "hw/sim/sm/test_harness.h"
#include "isa/tensor.h"
#include "isa/texture.h"

namespace strata::hw::sim::testing {
namespace {

using isa::MemSpace;
using perf::KernelStats;
using perf::Pipe;

constexpr uint8_t kLt = static_cast<uint8_t>(isa::CmpOp::LT);

uint64_t pipe_warps(const KernelStats& k, Pipe p) {
  return k.pipe_warp_instructions[static_cast<int>(p)];
}
uint64_t pipe_lanes(const KernelStats& k, Pipe p) {
  return k.pipe_thread_instructions[static_cast<int>(p)];
}

std::vector<uint32_t> pointer_params(uint64_t va) {
  return {static_cast<uint32_t>(va), static_cast<uint32_t>(va >> 32)};
}

// Each thread accesses `bytes` bytes (type t) at base + offset + gid * stride in `space`
// (global: base = c[0][0]; shared/local: base 0); a load unless `store`.
std::vector<isa::Inst> strided_access(MemSpace space, DataType t, uint32_t stride, uint32_t offset,
                                      bool store) {
  std::vector<isa::Inst> c = prologue();  // R3 = gid
  if (space == MemSpace::GLOBAL || space == MemSpace::GENERIC) {
    c.push_back(B(Opcode::LDC).t(DataType::U64).d(4).imm(0).mod(0));
    c.push_back(B(Opcode::MOV).t(DataType::U32).d(20).bi(stride));
    c.push_back(B(Opcode::IMADWIDE).t(DataType::U32).d(6).a(3).b(20).c(4));
  } else {
    c.push_back(B(Opcode::IMUL).t(DataType::U32).d(6).a(3).bi(stride));
  }
  if (store) {
    c.push_back(B(Opcode::ST).t(t).a(6).b(8).imm(offset).space(space));
  } else {
    c.push_back(B(Opcode::LD).t(t).d(8).a(6).imm(offset).space(space));
  }
  c.push_back(B(Opcode::EXIT));
  return c;
}

KernelStats run(Harness& h, const std::vector<isa::Inst>& code, Dim grid, Dim block,
                const std::vector<uint32_t>& params, const LaunchOptions& opts = {}) {
  GridStats stats;
  const FaultRecord f = h.launch(code, grid, block, params, opts, &stats);
  EXPECT_EQ(f.kind, FaultKind::kNone) << "pc " << f.pc;
  EXPECT_EQ(stats.kernel.warp_instructions, stats.warp_instructions);
  EXPECT_EQ(stats.kernel.thread_instructions, stats.thread_instructions);
  return stats.kernel;
}

struct GlobalCase {
  DataType type;
  uint32_t stride, offset;
  uint64_t sectors;  // per warp
};

TEST(Stats, GlobalSectorsAfterCoalescing) {
  const GlobalCase cases[] = {
      {DataType::U32, 4, 0, 4},     // 128 contiguous bytes: 4 sectors
      {DataType::U32, 4, 16, 5},    // the same, 16 bytes off: straddles 5 sectors
      {DataType::U32, 0, 0, 1},     // every lane the same word: 1 sector
      {DataType::U32, 32, 0, 32},   // one sector per lane
      {DataType::U32, 128, 0, 32},  // one sector per lane, within one page
      {DataType::U32, 256, 0, 32},  // one sector per lane, across pages
      {DataType::U8, 1, 0, 1},      // 32 bytes: 1 sector
      {DataType::U16, 2, 8, 3},     // 64 bytes from offset 8: bytes 8..71, 3 sectors
      {DataType::U64, 8, 0, 8},     // 256 bytes: 8 sectors
      {DataType::B128, 16, 0, 16},  // 512 bytes: 16 sectors
      {DataType::B128, 64, 0, 32},  // 16 of every 64 bytes: one sector per lane
      // Within a page, across its middle (sector 63 | 64 of the page's 128):
      {DataType::U32, 4, 2032, 5},     // bytes 2032..2159: sectors 63..67
      {DataType::B128, 16, 1984, 16},  // bytes 1984..2495: sectors 62..77
      {DataType::U32, 8, 2040, 9},     // every other word: bytes 2040..2291, sectors 63..71
  };
  for (const GlobalCase& gc : cases) {
    for (bool store : {false, true}) {
      for (MemSpace space : {MemSpace::GLOBAL, MemSpace::GENERIC}) {
        Harness h;
        const uint64_t buf = h.alloc(64 * 256 + 64);
        // One CTA of two warps: with stride 0 every thread stores the same word, which
        // two CTAs on two worker threads would do as a (TSan-reported) host data race.
        const KernelStats k = run(h, strided_access(space, gc.type, gc.stride, gc.offset, store),
                                  Dim{1}, Dim{64}, pointer_params(buf));
        const perf::MemoryCounts& used = store ? k.global_stores : k.global_loads;
        const perf::MemoryCounts& other = store ? k.global_loads : k.global_stores;
        SCOPED_TRACE(::testing::Message()
                     << "type " << isa::type_name(gc.type) << " stride " << gc.stride << " offset "
                     << gc.offset << (store ? " store" : " load") << " space "
                     << static_cast<int>(space));
        EXPECT_EQ(used.requests, 2u);
        // Two warps of 32 threads (warp 1 starts 32 * stride bytes later): sectors are
        // counted per request.
        EXPECT_EQ(used.sectors, 2 * gc.sectors);
        EXPECT_EQ(other.requests, 0u);
        EXPECT_EQ(k.shared_requests, 0u);
        EXPECT_EQ(k.local_loads.requests + k.local_stores.requests, 0u);
        // The LDC of the pointer: one uniform constant read per warp.
        EXPECT_EQ(k.constant_requests, 2u);
        EXPECT_EQ(k.constant_wavefronts, 2u);
      }
    }
  }
}

TEST(Stats, PartialWarpsAndDivergentConstantReads) {
  Harness h;
  const uint64_t buf = h.alloc(4096);
  // 20 threads: one warp with 20 active lanes loading 80 contiguous bytes (3 sectors).
  KernelStats k = run(h, strided_access(MemSpace::GLOBAL, DataType::U32, 4, 0, false), Dim{1},
                      Dim{20}, pointer_params(buf));
  EXPECT_EQ(k.global_loads.requests, 1u);
  EXPECT_EQ(k.global_loads.sectors, 3u);
  // LDC at per-lane offsets tid % 4 * 4 (4 distinct addresses): 4 wavefronts.
  std::vector<isa::Inst> c = prologue();
  c.push_back(B(Opcode::AND).t(DataType::U32).d(5).a(0).bi(3));
  c.push_back(B(Opcode::SHL).t(DataType::U32).d(5).a(5).bi(2));
  c.push_back(B(Opcode::LDC).t(DataType::U32).d(6).a(5).imm(0).mod(0));
  c.push_back(B(Opcode::EXIT));
  k = run(h, c, Dim{1}, Dim{32}, {1, 2, 3, 4});
  EXPECT_EQ(k.constant_requests, 1u);
  EXPECT_EQ(k.constant_wavefronts, 4u);
}

struct SharedCase {
  DataType type;
  uint32_t stride;
  uint64_t wavefronts, conflicts;  // per warp
};

TEST(Stats, SharedBankConflicts) {
  const SharedCase cases[] = {
      {DataType::U32, 4, 1, 0},      // stride 1 word: 32 banks
      {DataType::U32, 8, 2, 1},      // stride 2 words: 16 banks, 2 words each
      {DataType::U32, 12, 1, 0},     // stride 3 words (odd): every bank once
      {DataType::U32, 128, 32, 31},  // stride 32 words: all in bank 0
      {DataType::U32, 0, 1, 0},      // broadcast
      {DataType::U8, 1, 1, 0},       // 4 lanes per word: broadcast within words
      {DataType::U64, 8, 2, 0},      // two half-warp phases of 32 consecutive words
      {DataType::U64, 16, 4, 2},     // each phase: banks 4i, 4i+1 taken twice
      {DataType::B128, 16, 4, 0},    // four quarter-warp phases of 32 consecutive words
      {DataType::B128, 32, 8, 4},    // each phase: lanes i and i+4 share banks
      {DataType::B128, 0, 4, 0},     // broadcast in every phase
  };
  for (const SharedCase& sc : cases) {
    for (bool store : {false, true}) {
      Harness h;
      LaunchOptions opts;
      opts.shared_bytes = 8192;
      const KernelStats k = run(h, strided_access(MemSpace::SHARED, sc.type, sc.stride, 0, store),
                                Dim{1}, Dim{32}, {}, opts);
      SCOPED_TRACE(::testing::Message() << "type " << isa::type_name(sc.type) << " stride "
                                        << sc.stride << (store ? " store" : " load"));
      EXPECT_EQ(k.shared_requests, 1u);
      EXPECT_EQ(k.shared_wavefronts, sc.wavefronts);
      EXPECT_EQ(k.shared_bank_conflicts, sc.conflicts);
      EXPECT_EQ(k.global_loads.requests + k.global_stores.requests, 0u);
    }
  }
}

TEST(Stats, SharedPartialWarpAndAtomics) {
  Harness h;
  LaunchOptions opts;
  opts.shared_bytes = 8192;
  // 8 lanes of 16-byte accesses: only the first quarter-warp phase has lanes.
  KernelStats k = run(h, strided_access(MemSpace::SHARED, DataType::B128, 16, 0, false), Dim{1},
                      Dim{8}, {}, opts);
  EXPECT_EQ(k.shared_wavefronts, 1u);
  EXPECT_EQ(k.shared_bank_conflicts, 0u);
  // Atomics to one shared word do not broadcast: 32 wavefronts.
  std::vector<isa::Inst> c = {
      B(Opcode::MOV).t(DataType::U32).d(6).bi(0),
      B(Opcode::MOV).t(DataType::U32).d(7).bi(1),
      B(Opcode::ATOM)
          .t(DataType::U32)
          .d(8)
          .a(6)
          .b(7)
          .space(MemSpace::SHARED)
          .mod(static_cast<uint8_t>(isa::AtomOp::ADD)),
      B(Opcode::EXIT),
  };
  k = run(h, c, Dim{1}, Dim{32}, {}, opts);
  EXPECT_EQ(k.shared_requests, 1u);
  EXPECT_EQ(k.shared_wavefronts, 32u);
  EXPECT_EQ(k.shared_bank_conflicts, 31u);
  EXPECT_EQ(k.global_atomics.requests, 0u);
}

TEST(Stats, GenericAddressesCountEachSpace) {
  Harness h;
  LaunchOptions opts;
  opts.shared_bytes = 4096;
  // Lanes 0-15 read shared word tid (generic, in the shared window); lanes 16-31 read
  // global word tid of c[0][0].
  const uint64_t buf = h.alloc(4096);
  std::vector<isa::Inst> c = {
      B(Opcode::S2R).d(0).mod(static_cast<uint8_t>(isa::SpecialReg::TID_X)),
      B(Opcode::LDC).t(DataType::U64).d(4).imm(0).mod(0),
      B(Opcode::MOV).t(DataType::U32).d(20).bi(4),
      B(Opcode::IMADWIDE).t(DataType::U32).d(6).a(0).b(20).c(4),  // global address
      B(Opcode::ISETP).t(DataType::U32).pd(0).a(0).bi(16).mod(kLt),
      B(Opcode::IMUL).t(DataType::U32).d(6).a(0).bi(4).guard(0),  // shared offset
      B(Opcode::MOV)
          .t(DataType::U32)
          .d(7)
          .bi(static_cast<uint32_t>(Harness::kSharedWindow >> 32))
          .guard(0),
      B(Opcode::LD).t(DataType::U32).d(8).a(6).space(MemSpace::GENERIC),
      B(Opcode::EXIT),
  };
  static_assert((Harness::kSharedWindow & 0xffffffffu) == 0);
  const KernelStats k = run(h, c, Dim{1}, Dim{32}, pointer_params(buf), opts);
  EXPECT_EQ(k.shared_requests, 1u);
  EXPECT_EQ(k.shared_wavefronts, 1u);
  EXPECT_EQ(k.global_loads.requests, 1u);
  EXPECT_EQ(k.global_loads.sectors, 2u);  // words 16-31: bytes 64..127
}

TEST(Stats, LocalMemoryIsInterleavedByLane) {
  Harness h;
  LaunchOptions opts;
  opts.local_bytes = 64;
  // Every thread stores a word and loads 8 bytes at the same local offsets: lanes'
  // words interleave, so 4-byte accesses touch 128 bytes (4 sectors), 8-byte ones 8.
  std::vector<isa::Inst> c = {
      B(Opcode::ST).t(DataType::U32).b(8).imm(4).space(MemSpace::LOCAL),
      B(Opcode::LD).t(DataType::U64).d(8).imm(8).space(MemSpace::LOCAL),
      B(Opcode::EXIT),
  };
  const KernelStats k = run(h, c, Dim{3}, Dim{64}, {}, opts);
  EXPECT_EQ(k.local_stores.requests, 6u);
  EXPECT_EQ(k.local_stores.sectors, 6u * 4);
  EXPECT_EQ(k.local_loads.requests, 6u);
  EXPECT_EQ(k.local_loads.sectors, 6u * 8);
  EXPECT_EQ(k.global_loads.requests + k.global_stores.requests, 0u);
}

TEST(Stats, InstructionsByPipe) {
  Harness h;
  std::vector<isa::Inst> c = {
      B(Opcode::FFMA).t(DataType::F32).d(1).a(2).b(3).c(4),
      B(Opcode::FADD).t(DataType::F16).d(1).a(2).b(3),
      B(Opcode::FADD).t(DataType::F64).d(10).a(12).b(14),
      B(Opcode::CVT).t(DataType::F64).t2(DataType::F32).d(10).a(2),
      B(Opcode::IADD).t(DataType::U32).d(5).a(5).bi(1),
      B(Opcode::IMAD).t(DataType::U32).d(5).a(5).b(5).c(5),
      B(Opcode::CVT).t(DataType::S32).t2(DataType::S16).d(5).a(6),
      B(Opcode::MUFU).t(DataType::F32).d(1).a(2).mod(static_cast<uint8_t>(isa::MufuOp::EX2)),
      B(Opcode::POPC).t(DataType::U32).d(5).a(6),
      B(Opcode::MOV).t(DataType::U32).d(6).bi(0),
      B(Opcode::ST).t(DataType::U32).a(6).b(5).space(MemSpace::SHARED),
      B(Opcode::NOP),
      B(Opcode::EXIT),
  };
  LaunchOptions opts;
  opts.shared_bytes = 256;
  const KernelStats k = run(h, c, Dim{2}, Dim{64}, {}, opts);  // 4 warps
  EXPECT_EQ(k.warp_instructions, 4u * 13);
  EXPECT_EQ(k.thread_instructions, 4u * 13 * 32);
  EXPECT_EQ(pipe_warps(k, Pipe::kFp32), 4u * 2);
  EXPECT_EQ(pipe_warps(k, Pipe::kFp64), 4u * 2);
  EXPECT_EQ(pipe_warps(k, Pipe::kInt), 4u * 4);
  EXPECT_EQ(pipe_warps(k, Pipe::kSfu), 4u * 2);
  EXPECT_EQ(pipe_warps(k, Pipe::kLdst), 4u * 1);
  EXPECT_EQ(pipe_warps(k, Pipe::kControl), 4u * 2);
  EXPECT_EQ(pipe_warps(k, Pipe::kTensor), 0u);
  EXPECT_EQ(pipe_warps(k, Pipe::kTexture), 0u);
  uint64_t sum = 0;
  for (int p = 0; p < perf::kNumPipes; ++p) {
    sum += k.pipe_warp_instructions[p];
    EXPECT_EQ(k.pipe_thread_instructions[p], k.pipe_warp_instructions[p] * 32) << p;
  }
  EXPECT_EQ(sum, k.warp_instructions);
  EXPECT_EQ(k.ctas, 2u);
  EXPECT_EQ(k.threads_per_cta, 64u);
  EXPECT_EQ(k.warps_per_cta, 2u);
}

TEST(Stats, TensorMultiplyAdds) {
  Harness h;
  isa::MmaDesc f16;
  f16.shape = isa::MmaShape::M16N8K16;
  isa::MmaDesc tf32;
  tf32.shape = isa::MmaShape::M16N8K8;
  tf32.a = tf32.b = isa::MmaFormat::TF32;
  std::vector<isa::Inst> c = {
      B(Opcode::HMMA).t(DataType::F32).t2(DataType::F32).d(0).a(4).b(8).c(12).imm(f16.encode()),
      B(Opcode::HMMA).t(DataType::F32).t2(DataType::F32).d(0).a(4).b(8).c(12).imm(f16.encode()),
      B(Opcode::HMMA).t(DataType::F32).t2(DataType::F32).d(0).a(4).b(8).c(12).imm(tf32.encode()),
      B(Opcode::EXIT),
  };
  const KernelStats k = run(h, c, Dim{1}, Dim{96}, {});  // 3 warps
  EXPECT_EQ(pipe_warps(k, Pipe::kTensor), 3u * 3);
  EXPECT_EQ(k.tensor_fmas[static_cast<int>(perf::TensorType::kF16)], 3u * 2 * 16 * 8 * 16);
  EXPECT_EQ(k.tensor_fmas[static_cast<int>(perf::TensorType::kTf32)], 3u * 16 * 8 * 8);
  EXPECT_EQ(k.tensor_fmas[static_cast<int>(perf::TensorType::kI8)], 0u);
}

TEST(Stats, DivergenceCountsActiveLanes) {
  Harness h;
  // Lanes 0-7 branch to 5; lanes 8-31 run 3-4; neither reconverges before EXIT.
  std::vector<isa::Inst> c = {
      B(Opcode::S2R).d(0).mod(static_cast<uint8_t>(isa::SpecialReg::TID_X)),  // 0
      B(Opcode::ISETP).t(DataType::U32).pd(0).a(0).bi(8).mod(kLt),            // 1
      B(Opcode::BRA).imm(5).guard(0),                                         // 2
      B(Opcode::IADD).t(DataType::U32).d(1).a(1).bi(1),                       // 3: 24 lanes
      B(Opcode::EXIT),                                                        // 4: 24 lanes
      B(Opcode::IADD).t(DataType::U32).d(1).a(1).bi(2),                       // 5: 8 lanes
      B(Opcode::EXIT),                                                        // 6: 8 lanes
  };
  const KernelStats k = run(h, c, Dim{1}, Dim{32}, {});
  EXPECT_EQ(k.warp_instructions, 7u);
  EXPECT_EQ(k.thread_instructions, 3u * 32 + 2 * 24 + 2 * 8);
  EXPECT_EQ(pipe_warps(k, Pipe::kInt), 3u);
  EXPECT_EQ(pipe_lanes(k, Pipe::kInt), 32u + 24 + 8);
  EXPECT_EQ(pipe_warps(k, Pipe::kControl), 4u);
  EXPECT_EQ(pipe_lanes(k, Pipe::kControl), 32u + 32 + 24 + 8);
}

TEST(Stats, TextureSectors) {
  // tex1Dfetch of an f32 buffer: lane l reads texel l * stride (4 bytes each).
  struct Case {
    uint32_t stride;
    uint64_t sectors;  // per warp
  };
  for (const Case& tc : {Case{1, 4}, Case{8, 32}, Case{0, 1}, Case{2, 8}}) {
    Harness h;
    const uint64_t texels = h.alloc(4096 * 4);
    const uint64_t desc_va = h.alloc(256);
    TextureDescriptor d{};
    d.magic = kTextureDescriptorMagic;
    d.kind = kKindBuffer;
    d.format = kFormatF32;
    d.channels = 1;
    d.levels = 1;
    d.base_va = texels;
    d.width = 4096;
    d.height = d.depth = d.layers = 1;
    d.row_pitch = 4096 * 4;
    std::memcpy(h.host(desc_va), &d, sizeof(d));
    std::vector<isa::Inst> c = {
        B(Opcode::S2R).d(0).mod(static_cast<uint8_t>(isa::SpecialReg::TID_X)),
        B(Opcode::IMUL).t(DataType::U32).d(2).a(0).bi(tc.stride),
        B(Opcode::LDC).t(DataType::U64).d(4).imm(0).mod(0),
        B(Opcode::TEX)
            .t(DataType::F32)
            .t2(DataType::S32)
            .d(8)
            .a(4)
            .b(2)
            .mod(isa::tex_mod(isa::TexGeom::k1D, isa::TexLod::kBase)),
        B(Opcode::EXIT),
    };
    const KernelStats k = run(h, c, Dim{1}, Dim{64}, pointer_params(desc_va));
    SCOPED_TRACE(::testing::Message() << "stride " << tc.stride);
    EXPECT_EQ(k.texture_loads.requests, 2u);
    EXPECT_EQ(k.texture_loads.sectors, 2 * tc.sectors);
    EXPECT_EQ(pipe_warps(k, Pipe::kTexture), 2u);
    EXPECT_EQ(k.global_loads.requests, 0u);
  }
}

std::vector<isa::Inst> barrier_kernel() {
  return {
      B(Opcode::BAR).mod(static_cast<uint8_t>(isa::BarOp::SYNC)).imm(0),
      B(Opcode::BAR).mod(static_cast<uint8_t>(isa::BarOp::SYNC)).imm(1),
      B(Opcode::BAR).mod(static_cast<uint8_t>(isa::BarOp::ARRIVE)).imm(2),
      B(Opcode::EXIT),
  };
}

TEST(Stats, BarrierArrivalsAndWaits) {
  Harness h;
  // 3 CTAs of 4 warps; two BAR.SYNCs (each: 4 arrivals, the last completes it, 3
  // wait) and a BAR.ARRIVE (arrivals that never wait).
  const KernelStats k = run(h, barrier_kernel(), Dim{3}, Dim{128}, {});
  EXPECT_EQ(k.barrier_arrivals, 3u * 3 * 4);
  EXPECT_EQ(k.barrier_waits, 3u * 2 * 3);
}

// Everything functional execution counts, from a kernel mixing the above.
KernelStats mixed_run(int threads) {
  ScopedThreads st(threads);
  Harness h;
  const uint64_t buf = h.alloc(64 * 1024);
  std::vector<isa::Inst> c = prologue();
  c.push_back(B(Opcode::LDC).t(DataType::U64).d(4).imm(0).mod(0));
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(20).bi(12));
  c.push_back(B(Opcode::IMADWIDE).t(DataType::U32).d(6).a(3).b(20).c(4));
  c.push_back(B(Opcode::LD).t(DataType::U32).d(8).a(6).space(MemSpace::GLOBAL));
  c.push_back(B(Opcode::ST).t(DataType::U32).a(6).b(8).space(MemSpace::GLOBAL));
  c.push_back(B(Opcode::IMUL).t(DataType::U32).d(9).a(0).bi(8));
  c.push_back(B(Opcode::ST).t(DataType::U32).a(9).b(8).space(MemSpace::SHARED));
  c.push_back(B(Opcode::BAR).mod(static_cast<uint8_t>(isa::BarOp::SYNC)).imm(0));
  c.push_back(B(Opcode::LD).t(DataType::U64).d(10).a(9).space(MemSpace::SHARED));
  c.push_back(B(Opcode::ISETP).t(DataType::U32).pd(0).a(0).bi(40).mod(kLt));
  c.push_back(B(Opcode::FFMA).t(DataType::F32).d(1).a(2).b(3).c(4).guard(0));
  c.push_back(B(Opcode::EXIT));
  LaunchOptions opts;
  opts.shared_bytes = 1024;
  GridStats stats;
  EXPECT_EQ(h.launch(c, Dim{24}, Dim{96}, pointer_params(buf), opts, &stats).kind,
            FaultKind::kNone);
  return stats.kernel;
}

TEST(Stats, IndependentOfWorkerThreads) {
  const KernelStats one = mixed_run(1);
  const KernelStats two = mixed_run(2);
  EXPECT_EQ(one.warp_instructions, 24u * 3 * 16);
  EXPECT_EQ(two.warp_instructions, one.warp_instructions);
  EXPECT_EQ(two.thread_instructions, one.thread_instructions);
  EXPECT_EQ(two.pipe_warp_instructions, one.pipe_warp_instructions);
  EXPECT_EQ(two.pipe_thread_instructions, one.pipe_thread_instructions);
  EXPECT_EQ(two.global_loads.sectors, one.global_loads.sectors);
  EXPECT_EQ(two.global_stores.sectors, one.global_stores.sectors);
  EXPECT_EQ(two.shared_wavefronts, one.shared_wavefronts);
  EXPECT_EQ(two.shared_bank_conflicts, one.shared_bank_conflicts);
  EXPECT_EQ(two.barrier_arrivals, one.barrier_arrivals);
  EXPECT_EQ(two.barrier_waits, one.barrier_waits);
  EXPECT_EQ(two.constant_wavefronts, one.constant_wavefronts);
  // The hand count: per warp, a 12-byte stride touches 12 sectors (384 bytes, 32-aligned
  // per warp); the 4-byte shared store at an 8-byte stride needs 2 wavefronts (1
  // conflict), the 8-byte load at the same stride 2 (one per half-warp, no conflict).
  const uint64_t warps = 24 * 3;
  EXPECT_EQ(one.global_loads.requests, warps);
  EXPECT_EQ(one.global_loads.sectors, warps * 12);
  EXPECT_EQ(one.global_stores.sectors, warps * 12);
  EXPECT_EQ(one.shared_requests, warps * 2);
  EXPECT_EQ(one.shared_wavefronts, warps * (2 + 2));
  EXPECT_EQ(one.shared_bank_conflicts, warps * 1);
  EXPECT_EQ(one.barrier_arrivals, warps);
  EXPECT_EQ(one.barrier_waits, 24u * 2);
  // The guarded FFMA counts for every warp with the running group's 32 lanes, whether
  // or not the guard holds for them.
  EXPECT_EQ(one.pipe_warp_instructions[static_cast<int>(Pipe::kFp32)], warps);
  EXPECT_EQ(one.pipe_thread_instructions[static_cast<int>(Pipe::kFp32)], warps * 32);
}

}  // namespace
}  // namespace strata::hw::sim::testing
