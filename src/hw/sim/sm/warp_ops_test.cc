// Shuffles, votes and CTA barriers.
#include <gtest/gtest.h>

#include "hw/sim/sm/test_harness.h"

namespace strata::hw::sim::testing {
namespace {

std::vector<uint64_t> iota32(uint64_t base) {
  std::vector<uint64_t> v(32);
  for (int i = 0; i < 32; ++i) v[i] = base + i;
  return v;
}

std::vector<uint64_t> shfl(isa::ShflOp op, uint32_t b, uint32_t c, bool pred = false) {
  Harness h;
  std::vector<isa::Inst> body = {B(Opcode::SHFL).d(10).pd(0).a(8).b(9).c(12).mod(static_cast<uint8_t>(op))};
  if (pred) {
    body.push_back(B(Opcode::MOV).t(DataType::U32).d(10).bi(0));
    body.push_back(B(Opcode::MOV).t(DataType::U32).d(10).bi(1).guard(0));
  }
  return run_map(h, body, iota32(100), std::vector<uint64_t>(32, b), false, std::vector<uint64_t>(32, c));
}

TEST(Shuffle, Modes) {
  auto down = shfl(isa::ShflOp::DOWN, 1, 0x1f);
  auto up = shfl(isa::ShflOp::UP, 2, 0);
  auto bfly = shfl(isa::ShflOp::BFLY, 1, 0x1f);
  auto idx = shfl(isa::ShflOp::IDX, 5, 0x1f);
  for (int l = 0; l < 32; ++l) {
    EXPECT_EQ(down[l], 100u + (l == 31 ? 31 : l + 1));
    EXPECT_EQ(up[l], 100u + (l < 2 ? l : l - 2));
    EXPECT_EQ(bfly[l], 100u + (l ^ 1));
    EXPECT_EQ(idx[l], 105u);
  }
  auto in_range = shfl(isa::ShflOp::DOWN, 4, 0x1f, /*pred=*/true);
  for (int l = 0; l < 32; ++l) EXPECT_EQ(in_range[l], l < 28 ? 1u : 0u) << l;
  // Segments of 8 lanes (c = 0x7 | 0x18 << 8): idx 2 reads lane 2 of each segment.
  auto seg = shfl(isa::ShflOp::IDX, 2, 0x7 | (0x18 << 8));
  for (int l = 0; l < 32; ++l) EXPECT_EQ(seg[l], 100u + (l & ~7) + 2) << l;
}

TEST(Vote, BallotAllAny) {
  Harness h;
  std::vector<uint64_t> a(32);
  for (int i = 0; i < 32; ++i) a[i] = i % 3 == 0;
  std::vector<isa::Inst> body = {
      B(Opcode::ISETP).t(DataType::U32).pd(0).a(8).bi(0).mod(static_cast<uint8_t>(isa::CmpOp::NE)),
      B(Opcode::VOTE).d(10).ps(0).mod(static_cast<uint8_t>(isa::VoteOp::BALLOT)),
      B(Opcode::VOTE).pd(1).ps(0).mod(static_cast<uint8_t>(isa::VoteOp::ALL)),
      B(Opcode::VOTE).pd(2).ps(0).mod(static_cast<uint8_t>(isa::VoteOp::ANY)),
      B(Opcode::IADD).t(DataType::U32).d(11).a(isa::kRZ).bi(0),
      B(Opcode::IADD).t(DataType::U32).d(11).a(11).bi(1).guard(1),
      B(Opcode::IADD).t(DataType::U32).d(11).a(11).bi(2).guard(2),
      B(Opcode::IADD).t(DataType::U32).d(10).a(10).b(11),
  };
  auto r = run_map(h, body, a, std::vector<uint64_t>(32, 0));
  uint32_t expect = 0;
  for (int i = 0; i < 32; i += 3) expect |= 1u << i;
  for (int l = 0; l < 32; ++l) EXPECT_EQ(r[l], static_cast<uint64_t>(expect) + 2);
}

TEST(Barrier, ReductionPopcAcrossWarps) {
  Harness h;
  const uint64_t out = h.alloc(4096);
  std::vector<isa::Inst> code = prologue();
  code.push_back(B(Opcode::AND).t(DataType::B32).d(8).a(0).bi(1));
  code.push_back(B(Opcode::ISETP).t(DataType::U32).pd(0).a(8).bi(0).mod(static_cast<uint8_t>(isa::CmpOp::NE)));
  code.push_back(B(Opcode::BAR).d(9).imm(0).ps(0).mod(static_cast<uint8_t>(isa::BarOp::RED_POPC)));
  code.push_back(B(Opcode::BAR).pd(1).imm(0).ps(0).mod(static_cast<uint8_t>(isa::BarOp::RED_OR)));
  code.push_back(B(Opcode::IADD).t(DataType::U32).d(9).a(9).bi(1000).guard(1));
  for (const isa::Inst& i : element_address(0, 4)) code.push_back(i);
  code.push_back(B(Opcode::ST).t(DataType::U32).a(6).b(9).space(isa::MemSpace::GLOBAL));
  code.push_back(B(Opcode::EXIT));
  ASSERT_EQ(h.launch(code, Dim{1}, Dim{96}, {static_cast<uint32_t>(out), static_cast<uint32_t>(out >> 32)}).kind,
            FaultKind::kNone);
  for (uint32_t v : h.read<uint32_t>(out, 96)) EXPECT_EQ(v, 1048u);
}

TEST(Barrier, SyncOrdersSharedMemoryAcrossWarps) {
  // Warp 1 writes shared[0] only after the barrier; warp 0 reads it after a second one.
  Harness h;
  const uint64_t out = h.alloc(4096);
  std::vector<isa::Inst> code = prologue();
  code.push_back(B(Opcode::ISETP).t(DataType::U32).pd(0).a(0).bi(32).mod(static_cast<uint8_t>(isa::CmpOp::EQ)));
  code.push_back(B(Opcode::BAR).imm(0).mod(static_cast<uint8_t>(isa::BarOp::SYNC)));
  code.push_back(B(Opcode::MOV).t(DataType::U32).d(21).bi(77));
  code.push_back(B(Opcode::ST).t(DataType::U32).a(isa::kRZ).b(21).space(isa::MemSpace::SHARED).guard(0));
  code.push_back(B(Opcode::BAR).imm(0).mod(static_cast<uint8_t>(isa::BarOp::SYNC)));
  code.push_back(B(Opcode::LD).t(DataType::U32).d(9).a(isa::kRZ).space(isa::MemSpace::SHARED));
  for (const isa::Inst& i : element_address(0, 4)) code.push_back(i);
  code.push_back(B(Opcode::ST).t(DataType::U32).a(6).b(9).space(isa::MemSpace::GLOBAL));
  code.push_back(B(Opcode::EXIT));
  ASSERT_EQ(h.launch(code, Dim{3}, Dim{64}, {static_cast<uint32_t>(out), static_cast<uint32_t>(out >> 32)},
                     LaunchOptions{.shared_bytes = 16}).kind,
            FaultKind::kNone);
  for (uint32_t v : h.read<uint32_t>(out, 192)) EXPECT_EQ(v, 77u);
}

}  // namespace
}  // namespace strata::hw::sim::testing
