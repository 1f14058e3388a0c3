// The simulator's model of asynchronous copies and mbarriers (hw/sim/sm/async.h,
// docs/isa.md "Asynchronous copies and mbarrier"): copies land only when a wait, an
// mbarrier test or the thread's exit requires them, and the mbarrier word follows
// isa/mbarrier.h. These check Strata's documented model, which is stricter than what
// PTX promises (PTX allows a copy to land any time before the wait).
#include <gtest/gtest.h>

#include "hw/sim/sm/test_harness.h"
#include "isa/mbarrier.h"

namespace strata::hw::sim::testing {
namespace {

using isa::MemSpace;

constexpr uint32_t kMarker = 0xdeadbeefu;

std::vector<uint32_t> params_of(std::initializer_list<uint64_t> vas) {
  std::vector<uint32_t> p;
  for (uint64_t va : vas) {
    p.push_back(static_cast<uint32_t>(va));
    p.push_back(static_cast<uint32_t>(va >> 32));
  }
  return p;
}

isa::Inst mov(uint8_t d, uint32_t v) {
  return B(Opcode::MOV).t(DataType::U32).d(d).bi(v);
}
isa::Inst ld_shared(uint8_t d, uint8_t a, DataType t = DataType::U32) {
  return B(Opcode::LD).t(t).d(d).a(a).space(MemSpace::SHARED);
}
isa::Inst st_shared(uint8_t a, uint8_t b) {
  return B(Opcode::ST).t(DataType::U32).a(a).b(b).space(MemSpace::SHARED);
}
isa::Inst st_out(uint32_t offset, uint8_t b,
                 DataType t = DataType::U32) {  // out pointer in R14:R15
  return B(Opcode::ST).t(t).a(14).imm(offset).b(b).space(MemSpace::GLOBAL);
}
// R14:R15 = out (c[0][0]), R16:R17 = src (c[0][8]).
std::vector<isa::Inst> pointers() {
  return {B(Opcode::LDC).t(DataType::U64).d(14).imm(0),
          B(Opcode::LDC).t(DataType::U64).d(16).imm(8)};
}
// CPASYNC.B128 of 16 bytes from R16:R17 + src_off to shared offset in R`dst`.
std::vector<isa::Inst> copy16(uint8_t dst, uint32_t src_off) {
  return {B(Opcode::IADD).t(DataType::U64).d(18).a(16).bi(src_off), mov(12, 16),
          B(Opcode::CPASYNC).t(DataType::B128).a(dst).b(18).c(12).space(MemSpace::SHARED)};
}

TEST(Async, CopyLandsOnlyAtTheWait) {
  Harness h;
  const uint64_t src = h.alloc(64), out = h.alloc(64);
  h.write<uint32_t>(src, {1, 2, 3, 4});
  std::vector<isa::Inst> code = pointers();
  for (const isa::Inst& i : {mov(8, kMarker), mov(9, 0), st_shared(9, 8)}) code.push_back(i);
  for (const isa::Inst& i : copy16(9, 0)) code.push_back(i);
  code.push_back(ld_shared(10, 9));
  code.push_back(B(Opcode::CPCOMMIT));
  code.push_back(ld_shared(11, 9));  // committed, not waited for: still the old data
  code.push_back(B(Opcode::CPWAIT).imm(0));
  code.push_back(ld_shared(13, 9));
  for (const isa::Inst& i : {st_out(0, 10), st_out(4, 11), st_out(8, 13)}) code.push_back(i);
  code.push_back(B(Opcode::EXIT));
  ASSERT_EQ(
      h.launch(code, Dim{1}, Dim{1}, params_of({out, src}), LaunchOptions{.shared_bytes = 64}).kind,
      FaultKind::kNone);
  EXPECT_EQ(h.read<uint32_t>(out, 3), (std::vector<uint32_t>{kMarker, kMarker, 1}));
}

TEST(Async, WaitGroupLeavesTheMostRecentGroups) {
  Harness h;
  const uint64_t src = h.alloc(64), out = h.alloc(64);
  h.write<uint32_t>(src, {1, 2, 3, 4, 5, 6, 7, 8});
  std::vector<isa::Inst> code = pointers();
  for (const isa::Inst& i :
       {mov(8, kMarker), mov(9, 0), mov(20, 16), st_shared(9, 8), st_shared(20, 8)})
    code.push_back(i);
  for (const isa::Inst& i : copy16(9, 0)) code.push_back(i);
  code.push_back(B(Opcode::CPCOMMIT));
  for (const isa::Inst& i : copy16(20, 16)) code.push_back(i);
  code.push_back(B(Opcode::CPCOMMIT));
  code.push_back(B(Opcode::CPWAIT).imm(1));
  code.push_back(ld_shared(10, 9));
  code.push_back(ld_shared(11, 20));
  code.push_back(B(Opcode::CPWAIT).imm(0));
  code.push_back(ld_shared(13, 20));
  for (const isa::Inst& i : {st_out(0, 10), st_out(4, 11), st_out(8, 13)}) code.push_back(i);
  code.push_back(B(Opcode::EXIT));
  ASSERT_EQ(
      h.launch(code, Dim{1}, Dim{1}, params_of({out, src}), LaunchOptions{.shared_bytes = 64}).kind,
      FaultKind::kNone);
  EXPECT_EQ(h.read<uint32_t>(out, 3), (std::vector<uint32_t>{1, kMarker, 5}));
}

TEST(Async, ExitPerformsTheThreadsCopies) {
  // Lane 1 copies and exits without waiting; lane 0 then finds the data.
  Harness h;
  const uint64_t src = h.alloc(64), out = h.alloc(64);
  h.write<uint32_t>(src, {7, 8, 9, 10});
  std::vector<isa::Inst> code = pointers();
  code.push_back(B(Opcode::S2R).d(2).mod(static_cast<uint8_t>(isa::SpecialReg::TID_X)));
  code.push_back(B(Opcode::ISETP)
                     .t(DataType::U32)
                     .pd(0)
                     .a(2)
                     .bi(1)
                     .ps(isa::kPT)
                     .mod(static_cast<uint8_t>(isa::CmpOp::EQ)));
  code.push_back(mov(9, 0));
  for (isa::Inst i : copy16(9, 0)) {
    i.guard = 0;
    code.push_back(i);
  }
  code.push_back(B(Opcode::EXIT).guard(0));
  code.push_back(B(Opcode::BAR).imm(0).mod(static_cast<uint8_t>(isa::BarOp::SYNC)));
  code.push_back(ld_shared(10, 9));
  code.push_back(st_out(0, 10));
  code.push_back(B(Opcode::EXIT));
  ASSERT_EQ(
      h.launch(code, Dim{1}, Dim{2}, params_of({out, src}), LaunchOptions{.shared_bytes = 64}).kind,
      FaultKind::kNone);
  EXPECT_EQ(h.read<uint32_t>(out, 1), (std::vector<uint32_t>{7}));
}

TEST(Async, MbarrierWord) {
  Harness h;
  const uint64_t out = h.alloc(4096);
  std::vector<isa::Inst> code = pointers();
  auto mb = [](Opcode op) { return B(op).space(MemSpace::SHARED); };
  code.push_back(mov(9, 8));  // the mbarrier at shared offset 8
  code.push_back(mb(Opcode::MBINIT).a(9).bi(3));
  code.push_back(ld_shared(20, 9, DataType::U64));
  code.push_back(mb(Opcode::MBARRIVE).d(22).a(9).bi(1));
  code.push_back(ld_shared(24, 9, DataType::U64));
  code.push_back(mb(Opcode::MBDROP).d(26).a(9).bi(1));
  code.push_back(ld_shared(28, 9, DataType::U64));
  code.push_back(mb(Opcode::MBARRIVE).d(30).a(9).bi(1));  // completes phase 0
  code.push_back(ld_shared(32, 9, DataType::U64));
  code.push_back(mb(Opcode::MBTEST).pd(0).a(9).b(isa::kRZ));  // parity 0: completed
  code.push_back(mb(Opcode::MBTEST).pd(1).a(9).bi(1));        // parity 1: the current phase
  code.push_back(B(Opcode::SEL).t(DataType::U32).d(10).a(isa::kRZ).bi(1).ps(0, /*neg=*/true));
  code.push_back(B(Opcode::SEL).t(DataType::U32).d(11).a(isa::kRZ).bi(1).ps(1, /*neg=*/true));
  code.push_back(mb(Opcode::MBINVAL).a(9));
  code.push_back(ld_shared(34, 9, DataType::U64));
  uint32_t at = 0;
  for (uint8_t r : {20, 22, 24, 26, 28, 30, 32, 34}) {
    code.push_back(st_out(at, r, DataType::U64));
    at += 8;
  }
  code.push_back(st_out(at, 10));
  code.push_back(st_out(at + 4, 11));
  code.push_back(B(Opcode::EXIT));
  ASSERT_EQ(h.launch(code, Dim{1}, Dim{1}, params_of({out, 0}),
                     LaunchOptions{.shared_bytes = 64, .regs = 64})
                .kind,
            FaultKind::kNone);
  const uint64_t w0 = isa::mbar_word(3, 3, 0), w1 = isa::mbar_word(2, 3, 0),
                 w2 = isa::mbar_word(1, 2, 0), w3 = isa::mbar_word(2, 2, 1);
  EXPECT_EQ(h.read<uint64_t>(out, 8), (std::vector<uint64_t>{w0, w0, w1, w1, w2, w2, w3, 0}));
  EXPECT_EQ(h.read<uint32_t>(out + 64, 2), (std::vector<uint32_t>{1, 0}));
}

TEST(Async, MbtestPerformsQueuedCopiesAndArrivals) {
  // CPARRIVE with increment 1 raises the pending count at once; the thread's own arrival
  // leaves the phase one short until the queued arrival is performed, which MBTEST does.
  Harness h;
  const uint64_t src = h.alloc(64), out = h.alloc(64);
  h.write<uint32_t>(src, {4, 3, 2, 1});
  std::vector<isa::Inst> code = pointers();
  for (const isa::Inst& i : {mov(8, kMarker), mov(9, 16), mov(20, 0), st_shared(9, 8)})
    code.push_back(i);
  code.push_back(B(Opcode::MBINIT).space(MemSpace::SHARED).a(20).bi(1));
  for (const isa::Inst& i : copy16(9, 0)) code.push_back(i);
  code.push_back(B(Opcode::CPARRIVE).space(MemSpace::SHARED).a(20).bi(1));
  code.push_back(ld_shared(22, 20, DataType::U64));
  code.push_back(B(Opcode::MBARRIVE).space(MemSpace::SHARED).d(24).a(20).bi(1));
  code.push_back(ld_shared(10, 9));
  code.push_back(B(Opcode::MBTEST).space(MemSpace::SHARED).pd(0).a(20).b(isa::kRZ));
  code.push_back(B(Opcode::SEL).t(DataType::U32).d(11).a(isa::kRZ).bi(1).ps(0, /*neg=*/true));
  code.push_back(ld_shared(13, 9));
  for (const isa::Inst& i :
       {st_out(0, 10), st_out(4, 11), st_out(8, 13), st_out(16, 22, DataType::U64)})
    code.push_back(i);
  code.push_back(B(Opcode::EXIT));
  ASSERT_EQ(
      h.launch(code, Dim{1}, Dim{1}, params_of({out, src}), LaunchOptions{.shared_bytes = 64}).kind,
      FaultKind::kNone);
  EXPECT_EQ(h.read<uint32_t>(out, 3), (std::vector<uint32_t>{kMarker, 1, 4}));
  EXPECT_EQ(h.read<uint64_t>(out + 16, 1), (std::vector<uint64_t>{isa::mbar_word(2, 1, 0)}));
}

TEST(Async, MisalignedCopyFaultsAtIssue) {
  Harness h;
  const uint64_t src = h.alloc(64), out = h.alloc(64);
  std::vector<isa::Inst> code = pointers();
  code.push_back(mov(9, 8));
  for (const isa::Inst& i : copy16(9, 0)) code.push_back(i);
  code.push_back(B(Opcode::EXIT));
  FaultRecord f =
      h.launch(code, Dim{1}, Dim{1}, params_of({out, src}), LaunchOptions{.shared_bytes = 64});
  EXPECT_EQ(f.kind, FaultKind::kMisaligned);
  EXPECT_EQ(f.pc, code.size() - 2);
}

}  // namespace
}  // namespace strata::hw::sim::testing
