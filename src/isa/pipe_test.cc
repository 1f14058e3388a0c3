// The pipe table (isa/pipes.def) against the pipes NVIDIA's documentation names: the
// CUDA C++ Programming Guide's arithmetic throughput table and the SASS instruction
// classes (FMA pipe for FP32/FP16, DP unit for FP64, XU for transcendentals and
// conversions, tensor cores, LSU, texture unit, branch unit).
#include "isa/pipe.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace strata::isa {
namespace {

Inst make(Opcode op, DataType t = DataType::U32, DataType t2 = DataType::kNone) {
  Inst i;
  i.op = op;
  i.type = t;
  i.type2 = t2;
  return i;
}

TEST(Pipe, EveryOpcodeHasAValidPipeAndAReason) {
  for (int o = 0; o < kNumOpcodes; ++o) {
    const auto op = static_cast<Opcode>(o);
    for (bool f64 : {false, true}) {
      EXPECT_LT(static_cast<int>(pipe_of(op, f64)), kNumPipeClasses) << op_info(op).name;
    }
    EXPECT_FALSE(pipe_reason(op).empty()) << op_info(op).name;
  }
}

TEST(Pipe, Names) {
  std::set<std::string> names;
  for (int p = 0; p < kNumPipeClasses; ++p)
    names.insert(std::string(pipe_class_name(static_cast<PipeClass>(p))));
  EXPECT_EQ(names.size(), static_cast<size_t>(kNumPipeClasses));
  EXPECT_EQ(pipe_class_name(PipeClass::kFp32), "fp32");
  EXPECT_EQ(pipe_class_name(PipeClass::kControl), "control");
}

TEST(Pipe, ArithmeticFollowsTheUnits) {
  // FP32 and FP16 arithmetic on the FMA pipe, FP64 on the DP unit.
  EXPECT_EQ(pipe_of(make(Opcode::FFMA, DataType::F32)), PipeClass::kFp32);
  EXPECT_EQ(pipe_of(make(Opcode::FADD, DataType::F16)), PipeClass::kFp32);
  EXPECT_EQ(pipe_of(make(Opcode::FMUL, DataType::F64)), PipeClass::kFp64);
  EXPECT_EQ(pipe_of(make(Opcode::FSETP, DataType::F64)), PipeClass::kFp64);
  // Integer arithmetic and logic on the ALU.
  for (Opcode op : {Opcode::IADD, Opcode::IMAD, Opcode::SHL, Opcode::AND, Opcode::ISETP,
                    Opcode::MOV, Opcode::SEL}) {
    EXPECT_EQ(pipe_of(make(op)), PipeClass::kInt) << op_info(op).name;
  }
  // Transcendentals and quarter-rate bit scans on the XU.
  EXPECT_EQ(pipe_of(make(Opcode::MUFU, DataType::F32)), PipeClass::kSfu);
  EXPECT_EQ(pipe_of(make(Opcode::POPC)), PipeClass::kSfu);
  EXPECT_EQ(pipe_of(make(Opcode::FDIV, DataType::F32)), PipeClass::kSfu);
  EXPECT_EQ(pipe_of(make(Opcode::HMMA, DataType::F32, DataType::F32)), PipeClass::kTensor);
  EXPECT_EQ(pipe_of(make(Opcode::HMMA, DataType::F64, DataType::F64)), PipeClass::kTensor);
}

TEST(Pipe, ConversionsOnlyUseTheXuWhenAFloatIsInvolved) {
  EXPECT_EQ(pipe_of(make(Opcode::CVT, DataType::S32, DataType::S8)), PipeClass::kInt);
  EXPECT_EQ(pipe_of(make(Opcode::CVT, DataType::U64, DataType::U32)), PipeClass::kInt);
  EXPECT_EQ(pipe_of(make(Opcode::CVT, DataType::F32, DataType::S32)), PipeClass::kSfu);
  EXPECT_EQ(pipe_of(make(Opcode::CVT, DataType::F16, DataType::F32)), PipeClass::kSfu);
  EXPECT_EQ(pipe_of(make(Opcode::CVT, DataType::F64, DataType::F32)), PipeClass::kFp64);
  EXPECT_EQ(pipe_of(make(Opcode::CVT, DataType::S32, DataType::F64)), PipeClass::kFp64);
}

TEST(Pipe, MemoryTextureAndControlFollowTheFlags) {
  for (int o = 0; o < kNumOpcodes; ++o) {
    const auto op = static_cast<Opcode>(o);
    const OpInfo& info = op_info(op);
    const PipeClass p = pipe_of(op, /*f64=*/false);
    if ((info.flags & kBranch) != 0 || (info.flags & kExit) != 0 || (info.flags & kBarrier) != 0) {
      EXPECT_EQ(p, PipeClass::kControl) << info.name;
    }
    if ((info.flags & kMemory) != 0) {
      EXPECT_TRUE(p == PipeClass::kLdst || p == PipeClass::kTexture) << info.name;
    }
  }
  for (Opcode op :
       {Opcode::TEX, Opcode::TLD4, Opcode::TXQ, Opcode::SULD, Opcode::SUST, Opcode::SURED}) {
    EXPECT_EQ(pipe_of(make(op)), PipeClass::kTexture) << op_info(op).name;
  }
  for (Opcode op :
       {Opcode::LD, Opcode::ST, Opcode::LDC, Opcode::ATOM, Opcode::LDSM, Opcode::CPASYNC}) {
    EXPECT_EQ(pipe_of(make(op)), PipeClass::kLdst) << op_info(op).name;
  }
  // A 64-bit load is still a load.
  EXPECT_EQ(pipe_of(make(Opcode::LD, DataType::F64)), PipeClass::kLdst);
}

}  // namespace
}  // namespace strata::isa
