// Control bits (compiler/target/sx/schedule.h) on compiled code, run with the hazard
// checker on (hw/sim/sm/hazard_check.h): the scheduled code must run hazard-free and
// compute what a host reference computes; the same code with its control bits reset
// to the defaults must fault kHazard.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>

#include "compiler/compiler.h"
#include "compiler/sxbin/sxbin.h"
#include "compiler/target/sx/schedule.h"
#include "hw/sim/sm/test_harness.h"
#include "isa/encode.h"

namespace strata::compiler::testing {
namespace {

using hw::FaultKind;
using hw::sim::testing::Dim;
using hw::sim::testing::Harness;
using hw::sim::testing::LaunchOptions;

// Loads, a divergent branch, a loop carrying an F64 sum, a square root (MUFU), an
// integer division and a store: fixed- and variable-latency producers across block
// boundaries, loop back edges and reconvergence.
constexpr const char* kPtx = R"(
.version 8.0
.target sm_80
.address_size 64

.visible .entry sched(.param .u64 pa, .param .u64 pout, .param .u32 n)
{
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .f32 %f<8>;
  .reg .f64 %fd<4>;
  .reg .b64 %rd<8>;

  ld.param.u64 %rd1, [pa];
  ld.param.u64 %rd2, [pout];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mad.lo.u32 %r5, %r3, %r4, %r2;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd3, %rd1;
  mul.wide.u32 %rd4, %r5, 4;
  add.u64 %rd5, %rd3, %rd4;
  ld.global.f32 %f1, [%rd5];
  and.b32 %r6, %r2, 1;
  setp.eq.u32 %p2, %r6, 0;
  @%p2 bra EVEN;
  mul.f32 %f2, %f1, 0f40400000;
  bra.uni JOIN;
EVEN:
  add.f32 %f2, %f1, 0f3F800000;
JOIN:
  cvt.f64.f32 %fd1, %f2;
  mov.f64 %fd2, 0d0000000000000000;
  rem.u32 %r7, %r5, 5;
  mov.u32 %r8, 0;
LOOP:
  setp.ge.u32 %p3, %r8, %r7;
  @%p3 bra LOOPEND;
  add.f64 %fd2, %fd2, %fd1;
  add.u32 %r8, %r8, 1;
  bra LOOP;
LOOPEND:
  cvt.rn.f32.f64 %f3, %fd2;
  abs.f32 %f4, %f1;
  sqrt.rn.f32 %f5, %f4;
  add.f32 %f6, %f3, %f5;
  div.u32 %r9, %r5, 3;
  cvt.rn.f32.u32 %f7, %r9;
  add.f32 %f6, %f6, %f7;
  cvta.to.global.u64 %rd6, %rd2;
  add.u64 %rd7, %rd6, %rd4;
  st.global.f32 [%rd7], %f6;
DONE:
  ret;
}
)";

float reference(float a, uint32_t gid, uint32_t tid) {
  const float f2 = (tid & 1) == 0 ? a + 1.0f : a * 3.0f;
  double acc = 0;
  for (uint32_t i = 0; i < gid % 5; ++i) acc += static_cast<double>(f2);
  float r = static_cast<float>(acc) + std::sqrt(std::fabs(a));
  return r + static_cast<float>(gid / 3);
}

class ScheduleExec : public ::testing::Test {
 protected:
  void SetUp() override {
    CompileOptions opts;
    opts.verify_each_pass = true;
    auto image = compile_ptx({{"sched.ptx", kPtx}}, opts);
    ASSERT_TRUE(image.ok()) << image.status().message();
    auto bin = sxbin::read_sxbin(*image);
    ASSERT_TRUE(bin.ok()) << bin.status().message();
    bin_ = std::move(*bin);
    k_ = bin_.find_kernel("sched");
    ASSERT_NE(k_, nullptr);
    code_.assign(bin_.code.begin() + static_cast<std::ptrdiff_t>(k_->code_offset),
                 bin_.code.begin() + static_cast<std::ptrdiff_t>(k_->code_offset + k_->code_size));
  }

  hw::sim::FaultRecord run(const std::vector<uint8_t>& code, std::vector<float>* out) {
    constexpr uint32_t n = 200;
    a_.resize(n);
    for (uint32_t i = 0; i < n; ++i) a_[i] = static_cast<float>(i) * 0.75f - 40.0f;
    const uint64_t va = h_.alloc(n * 4), vout = h_.alloc(n * 4);
    h_.write(va, a_);
    std::vector<uint32_t> words(6, 0);
    std::memcpy(&words[0], &va, 8);
    std::memcpy(&words[2], &vout, 8);
    words[4] = n;
    LaunchOptions o;
    o.regs = k_->regs_per_thread;
    o.local_bytes = k_->local_bytes;
    o.check_hazards = true;
    hw::sim::FaultRecord f = h_.launch_raw(code, Dim{4}, Dim{64}, words, o);
    *out = h_.read<float>(vout, n);
    return f;
  }

  Harness h_;
  sxbin::Binary bin_;
  const sxbin::KernelDesc* k_ = nullptr;
  std::vector<uint8_t> code_;
  std::vector<float> a_;
};

TEST_F(ScheduleExec, ScheduledCodeIsHazardFree) {
  std::vector<float> out;
  const hw::sim::FaultRecord f = run(code_, &out);
  ASSERT_EQ(f.kind, FaultKind::kNone) << "pc " << f.pc << " register " << f.address;
  for (uint32_t i = 0; i < out.size(); ++i) {
    const float want = reference(a_[i], i, i % 64);
    EXPECT_NEAR(out[i], want, 1e-5f * std::max(1.0f, std::fabs(want))) << "element " << i;
  }
}

TEST_F(ScheduleExec, UsesStallsAndBarriers) {
  auto insts = isa::decode_program(code_);
  ASSERT_TRUE(insts.ok());
  int long_stalls = 0, barriers = 0, waits = 0;
  for (const isa::Inst& i : *insts) {
    EXPECT_GE(i.ctrl.stall, 1);
    long_stalls += i.ctrl.stall > 1;
    if (i.ctrl.wbar != isa::kNoDepBarrier) {
      EXPECT_LT(i.ctrl.wbar, 6);
    }
    if (i.ctrl.rbar != isa::kNoDepBarrier) {
      EXPECT_LT(i.ctrl.rbar, 6);
    }
    EXPECT_EQ(i.ctrl.wait & ~0x3f, 0);
    barriers += i.ctrl.wbar != isa::kNoDepBarrier;
    waits += i.ctrl.wait != 0;
  }
  EXPECT_GT(long_stalls, 0);
  EXPECT_GT(barriers, 0);
  EXPECT_GT(waits, 0);
}

TEST_F(ScheduleExec, DefaultControlBitsFault) {
  auto insts = isa::decode_program(code_);
  ASSERT_TRUE(insts.ok());
  for (isa::Inst& i : *insts) i.ctrl = isa::Control{};
  std::vector<float> out;
  EXPECT_EQ(run(isa::encode_program(*insts), &out).kind, FaultKind::kHazard);
}

// ---- the pass on hand-built code ----

using hw::sim::testing::B;
using isa::DataType;
using isa::Opcode;

hw::sim::FaultRecord run_checked(Harness& h, const std::vector<isa::Inst>& code, uint64_t buf) {
  LaunchOptions o;
  o.check_hazards = true;
  return h.launch(code, Dim{2}, Dim{64},
                  {static_cast<uint32_t>(buf), static_cast<uint32_t>(buf >> 32)}, o);
}

// Eight loads in flight, consumed in reverse order: more variable-latency results than
// dependency barriers, so barriers are shared, and the waits must still cover each.
TEST(Schedule, MoreLoadsInFlightThanBarriers) {
  Harness h;
  const uint64_t buf = h.alloc(4096);
  std::vector<uint32_t> in(8);
  uint32_t sum = 0;
  for (uint32_t k = 0; k < 8; ++k) sum += (in[k] = 3 * k + 1);
  h.write(buf, in);
  std::vector<isa::Inst> code = {
      B(Opcode::LDC).t(DataType::U64).d(2).imm(0),
      B(Opcode::S2R).d(0).mod(static_cast<uint8_t>(isa::SpecialReg::TID_X)),
  };
  for (uint8_t k = 0; k < 8; ++k)
    code.push_back(B(Opcode::LD)
                       .t(DataType::U32)
                       .d(static_cast<uint8_t>(10 + k))
                       .a(2)
                       .imm(4u * k)
                       .space(isa::MemSpace::GLOBAL));
  code.push_back(B(Opcode::MOV).t(DataType::U32).d(20).bi(0));
  for (int k = 7; k >= 0; --k)
    code.push_back(B(Opcode::IADD).t(DataType::U32).d(20).a(20).b(static_cast<uint8_t>(10 + k)));
  code.push_back(B(Opcode::MOV).t(DataType::U32).d(21).bi(4));
  code.push_back(B(Opcode::IADD).t(DataType::U32).d(0).a(0).bi(64));  // past the inputs
  code.push_back(B(Opcode::IMADWIDE).t(DataType::U32).d(4).a(0).b(21).c(2));
  code.push_back(B(Opcode::ST).t(DataType::U32).a(4).b(20).space(isa::MemSpace::GLOBAL));
  code.push_back(B(Opcode::EXIT));
  sx::schedule(&code);
  for (const isa::Inst& i : code) {
    if (i.ctrl.wbar != isa::kNoDepBarrier) EXPECT_LT(i.ctrl.wbar, 6);
  }
  ASSERT_EQ(run_checked(h, code, buf).kind, FaultKind::kNone);
  const std::vector<uint32_t> out = h.read<uint32_t>(buf + 4 * 64, 64);
  for (uint32_t t = 0; t < 64; ++t) EXPECT_EQ(out[t], sum) << "thread " << t;
}

// A call between separately scheduled units (as compile_kernel lays them out): the
// callee reads a register the caller wrote just before the CALL, the caller reads the
// callee's result right after it returns.
TEST(Schedule, CallsAndReturnsDrain) {
  Harness h;
  const uint64_t buf = h.alloc(4096);
  std::vector<isa::Inst> kernel = {
      B(Opcode::LDC).t(DataType::U64).d(2).imm(0),
      B(Opcode::S2R).d(0).mod(static_cast<uint8_t>(isa::SpecialReg::TID_X)),
      B(Opcode::IMUL).t(DataType::U32).d(1).a(0).bi(3),
      B(Opcode::CALL).d(10).bi(0),  // target patched below
      B(Opcode::MOV).t(DataType::U32).d(21).bi(4),
      B(Opcode::IMADWIDE).t(DataType::U32).d(4).a(0).b(21).c(2),
      B(Opcode::ST).t(DataType::U32).a(4).b(11).space(isa::MemSpace::GLOBAL),
      B(Opcode::EXIT),
  };
  std::vector<isa::Inst> callee = {
      B(Opcode::FADD).t(DataType::F64).d(12).a(14).b(14),  // pending at the RET
      B(Opcode::IADD).t(DataType::U32).d(11).a(1).bi(7),
      B(Opcode::RET).a(10),
  };
  sx::schedule(&kernel);
  sx::schedule(&callee);
  kernel[3].imm = static_cast<uint32_t>(kernel.size());
  std::vector<isa::Inst> code = kernel;
  code.insert(code.end(), callee.begin(), callee.end());
  ASSERT_EQ(run_checked(h, code, buf).kind, FaultKind::kNone);
  const std::vector<uint32_t> out = h.read<uint32_t>(buf, 64);
  for (uint32_t t = 0; t < 64; ++t) EXPECT_EQ(out[t], 3 * t + 7) << "thread " << t;
}

// A loop whose body consumes, at its top, an FP64 result produced at its bottom: the
// back edge needs the stall, and so does the exit path.
TEST(Schedule, LoopCarriedLatency) {
  Harness h;
  const uint64_t buf = h.alloc(4096);
  // R8:R9 = 0.0; R6 = 5; loop: R8:R9 = R8:R9 + 1.5 (F64); R6 -= 1; if R6 != 0 loop.
  const uint32_t one_and_half = 0x3fc00000u;  // 1.5f, widened to F64 by the immediate rule
  std::vector<isa::Inst> code = {
      B(Opcode::LDC).t(DataType::U64).d(2).imm(0),
      B(Opcode::MOV).t(DataType::U64).d(8).bi(0),
      B(Opcode::MOV).t(DataType::U32).d(6).bi(5),
      B(Opcode::FADD).t(DataType::F64).d(8).a(8).bi(one_and_half),  // 3: loop top
      B(Opcode::IADD).t(DataType::U32).d(6).a(6).bi(0xffffffffu),
      B(Opcode::ISETP)
          .t(DataType::U32)
          .pd(0)
          .a(6)
          .b(isa::kRZ)
          .mod(static_cast<uint8_t>(isa::CmpOp::NE)),
      B(Opcode::BRA).imm(3).guard(0),
      B(Opcode::S2R).d(0).mod(static_cast<uint8_t>(isa::SpecialReg::TID_X)),
      B(Opcode::MOV).t(DataType::U32).d(21).bi(8),
      B(Opcode::IMADWIDE).t(DataType::U32).d(4).a(0).b(21).c(2),
      B(Opcode::ST).t(DataType::U64).a(4).b(8).space(isa::MemSpace::GLOBAL),
      B(Opcode::EXIT),
  };
  sx::schedule(&code);
  ASSERT_EQ(run_checked(h, code, buf).kind, FaultKind::kNone);
  const std::vector<double> out = h.read<double>(buf, 64);
  for (uint32_t t = 0; t < 64; ++t) EXPECT_EQ(out[t], 7.5) << "thread " << t;
}

}  // namespace
}  // namespace strata::compiler::testing
