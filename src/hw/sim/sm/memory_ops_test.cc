// Loads, stores, atomics and constant banks across the address spaces.
#include <gtest/gtest.h>

#include "hw/sim/sm/test_harness.h"

namespace strata::hw::sim::testing {
namespace {

using isa::MemSpace;

std::vector<uint32_t> ptr(uint64_t va) { return {static_cast<uint32_t>(va), static_cast<uint32_t>(va >> 32)}; }

TEST(Memory, SubWordLoadsExtend) {
  Harness h2;
  const uint64_t buf = h2.alloc(64), out = h2.alloc(64);
  h2.write<uint8_t>(buf, {0x80, 0x7f, 0xff, 0xff});
  std::vector<isa::Inst> code = {
      B(Opcode::LDC).t(DataType::U64).d(14).imm(8),
      B(Opcode::LDC).t(DataType::U64).d(16).imm(0),
      B(Opcode::LD).t(DataType::S8).d(10).a(14).space(MemSpace::GLOBAL),
      B(Opcode::LD).t(DataType::U8).d(11).a(14).space(MemSpace::GLOBAL),
      B(Opcode::LD).t(DataType::S16).d(12).a(14).imm(2).space(MemSpace::GLOBAL),
      B(Opcode::ST).t(DataType::U32).a(16).imm(0).b(10).space(MemSpace::GLOBAL),
      B(Opcode::ST).t(DataType::U32).a(16).imm(4).b(11).space(MemSpace::GLOBAL),
      B(Opcode::ST).t(DataType::U32).a(16).imm(8).b(12).space(MemSpace::GLOBAL),
      B(Opcode::EXIT),
  };
  std::vector<uint32_t> params = ptr(out);
  for (uint32_t w : ptr(buf)) params.push_back(w);
  ASSERT_EQ(h2.launch(code, Dim{1}, Dim{1}, params).kind, FaultKind::kNone);
  EXPECT_EQ(h2.read<uint32_t>(out, 3), (std::vector<uint32_t>{0xffffff80, 0x80, 0xffffffff}));
}

TEST(Memory, SharedThroughSpaceAndGenericWindow) {
  // Each thread stores tid to shared[tid] (SHARED space), then reads shared[31 - tid]
  // through the generic window after a barrier, and writes it to out[tid].
  Harness h;
  const uint64_t out = h.alloc(4096);
  std::vector<isa::Inst> code = prologue();
  code.push_back(B(Opcode::SHL).t(DataType::B32).d(8).a(0).bi(2));
  code.push_back(B(Opcode::ST).t(DataType::U32).a(8).b(0).space(MemSpace::SHARED));
  code.push_back(B(Opcode::BAR).imm(0).mod(static_cast<uint8_t>(isa::BarOp::SYNC)));
  code.push_back(B(Opcode::MOV).t(DataType::U32).d(9).bi(124));
  code.push_back(B(Opcode::ISUB).t(DataType::U32).d(9).a(9).b(8));  // (31 - tid) * 4
  code.push_back(B(Opcode::S2R).d(10).mod(static_cast<uint8_t>(isa::SpecialReg::SHARED_WINDOW_LO)));
  code.push_back(B(Opcode::S2R).d(11).mod(static_cast<uint8_t>(isa::SpecialReg::SHARED_WINDOW_HI)));
  code.push_back(B(Opcode::MOV).t(DataType::U32).d(13).bi(0));
  code.push_back(B(Opcode::MOV).t(DataType::U32).d(12).b(9));
  code.push_back(B(Opcode::IADD).t(DataType::U64).d(10).a(10).b(12));
  code.push_back(B(Opcode::LD).t(DataType::U32).d(14).a(10).space(MemSpace::GENERIC));
  for (const isa::Inst& i : element_address(0, 4)) code.push_back(i);
  code.push_back(B(Opcode::ST).t(DataType::U32).a(6).b(14).space(MemSpace::GENERIC));
  code.push_back(B(Opcode::EXIT));
  ASSERT_EQ(h.launch(code, Dim{2}, Dim{32}, ptr(out), LaunchOptions{.shared_bytes = 128}).kind, FaultKind::kNone);
  auto r = h.read<uint32_t>(out, 64);
  for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(r[i], 31 - (i % 32)) << i;
}

TEST(Memory, LocalIsPerThread) {
  Harness h;
  const uint64_t out = h.alloc(4096);
  std::vector<isa::Inst> code = prologue();
  code.push_back(B(Opcode::ST).t(DataType::U32).a(isa::kRZ).imm(4).b(3).space(MemSpace::LOCAL));
  code.push_back(B(Opcode::BAR).imm(0).mod(static_cast<uint8_t>(isa::BarOp::SYNC)));
  code.push_back(B(Opcode::LD).t(DataType::U32).d(9).a(isa::kRZ).imm(4).space(MemSpace::LOCAL));
  for (const isa::Inst& i : element_address(0, 4)) code.push_back(i);
  code.push_back(B(Opcode::ST).t(DataType::U32).a(6).b(9).space(MemSpace::GLOBAL));
  code.push_back(B(Opcode::EXIT));
  ASSERT_EQ(h.launch(code, Dim{1}, Dim{64}, ptr(out), LaunchOptions{.local_bytes = 8}).kind, FaultKind::kNone);
  auto r = h.read<uint32_t>(out, 64);
  for (uint32_t i = 0; i < 64; ++i) EXPECT_EQ(r[i], i);
}

void atomic_contention(int threads) {
  ScopedThreads st(threads);
  Harness h;
  const uint64_t counter = h.alloc(64);
  // Every thread of 64 CTAs x 128 threads: atom.add 1 (u32), atom.add 1.0 (f32), atom.max tid (s32), 64-bit add.
  std::vector<isa::Inst> code = prologue();
  code.push_back(B(Opcode::LDC).t(DataType::U64).d(4).imm(0));
  code.push_back(B(Opcode::ATOM).t(DataType::U32).d(8).a(4).b(24).mod(static_cast<uint8_t>(isa::AtomOp::ADD)).space(MemSpace::GLOBAL));
  code.push_back(B(Opcode::ATOM).t(DataType::F32).d(8).a(4).imm(4).b(20).mod(static_cast<uint8_t>(isa::AtomOp::ADD)).space(MemSpace::GLOBAL));
  code.push_back(B(Opcode::ATOM).t(DataType::S32).d(8).a(4).imm(8).b(3).mod(static_cast<uint8_t>(isa::AtomOp::MAX)).space(MemSpace::GLOBAL));
  code.push_back(B(Opcode::ATOM).t(DataType::U64).d(8).a(4).imm(16).b(22).mod(static_cast<uint8_t>(isa::AtomOp::ADD)).space(MemSpace::GENERIC));
  code.push_back(B(Opcode::EXIT));
  // R20 = 1.0f, R22:R23 = 2^32 + 1, R24 = 1
  code.insert(code.begin(), B(Opcode::MOV).t(DataType::U32).d(24).bi(1));
  code.insert(code.begin(), B(Opcode::MOV).t(DataType::U32).d(20).bi(0x3f800000));
  code.insert(code.begin(), B(Opcode::MOV).t(DataType::U64).d(22).bi(1));
  code.insert(code.begin() + 2, B(Opcode::MOV).t(DataType::U32).d(23).bi(1));
  ASSERT_EQ(h.launch(code, Dim{64}, Dim{128}, ptr(counter)).kind, FaultKind::kNone);
  EXPECT_EQ(h.read<uint32_t>(counter, 1)[0], 64u * 128);
  EXPECT_EQ(h.read<float>(counter + 4, 1)[0], 8192.0f);
  EXPECT_EQ(h.read<int32_t>(counter + 8, 1)[0], 8191);
  EXPECT_EQ(h.read<uint64_t>(counter + 16, 1)[0], 8192ull * ((1ull << 32) + 1));
}
TEST(Memory, AtomicContentionOneThread) { atomic_contention(1); }
TEST(Memory, AtomicContentionTwoThreads) { atomic_contention(2); }

TEST(Memory, CasAndExchange) {
  Harness h;
  const auto cas = static_cast<uint8_t>(isa::AtomOp::CAS), exch = static_cast<uint8_t>(isa::AtomOp::EXCH);
  // R14 = &a[i]; CAS(a[i], b[i] -> c[i]); then EXCH(a[i], 0) returns what CAS left.
  auto r = run_map(h, {B(Opcode::LDC).t(DataType::U64).d(14).imm(8),
                       B(Opcode::IMADWIDE).t(DataType::U32).d(14).a(3).b(20).c(14),
                       B(Opcode::ATOM).t(DataType::U32).d(13).a(14).b(9).c(12).mod(cas).space(MemSpace::GLOBAL),
                       B(Opcode::ATOM).t(DataType::U32).d(10).a(14).b(isa::kRZ).mod(exch).space(MemSpace::GLOBAL)},
                   {5, 6}, {5, 7}, false, {50, 60});
  EXPECT_EQ(r, (std::vector<uint64_t>{50, 6}));
}

TEST(Memory, ConstantBankReads) {
  Harness h;
  const uint64_t out = h.alloc(4096);
  std::vector<isa::Inst> code = {
      B(Opcode::LDC).t(DataType::U64).d(4).imm(0),
      B(Opcode::LDC).t(DataType::U32).d(8).imm(8),
      B(Opcode::ST).t(DataType::U32).a(4).b(8).space(MemSpace::GLOBAL),
      B(Opcode::EXIT),
  };
  std::vector<uint32_t> params = ptr(out);
  params.push_back(0xabcdef);
  ASSERT_EQ(h.launch(code, Dim{1}, Dim{32}, params).kind, FaultKind::kNone);
  EXPECT_EQ(h.read<uint32_t>(out, 1)[0], 0xabcdefu);
}

}  // namespace
}  // namespace strata::hw::sim::testing
