// The "misc" instructions in the compiler (compiler/ir/lower_misc.cc): forms Strata does
// not implement are kNotSupported and malformed ones kInvalidPtx, each naming the
// instruction's line. Their results are checked in tests/ptx/conformance/kernel_misc.cc.
#include <gtest/gtest.h>

#include "exec_harness.h"

namespace strata::compiler::testing {
namespace {

std::string kernel(const std::string& body) {
  return ".version 8.3\n.target sm_80\n.address_size 64\n"
         ".visible .entry k(.param .u64 p)\n{\n"
         "  .reg .pred %p<4>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<16>;\n"
         "  ld.param.u64 %rd1, [p];\n" +
         body + "  ret;\n}\n";
}

// Line 10 of kernel() is the first line of the body.
constexpr int kBodyLine = 10;

struct Rejected {
  const char* ptx;  // one instruction
  Code code;
  const char* says;  // part of the message
};

TEST(MiscCompile, RejectsUnsupportedAndMalformedForms) {
  const Rejected cases[] = {
      {"isspacep.shared::cluster %p1, %rd1;", Code::kNotSupported, "isspacep.shared::cluster"},
      {"prefetch.tensormap [%rd1];", Code::kNotSupported, "prefetch.tensormap"},
      {"cvt.pack.sat.u8.s32 %r1, %r2, %r3;", Code::kNotSupported, "cvt.pack.sat.u8.s32"},
      {"prefetch.global [%rd1];", Code::kInvalidPtx, "needs one of"},
      {"prefetch.local.L2::evict_last [%rd1];", Code::kInvalidPtx, "need .global"},
      {"vadd.u32.u32.u32.add %r1.b0, %r2, %r3, %r4;", Code::kInvalidPtx, "not both"},
      {"vadd.u32.u32 %r1, %r2, %r3;", Code::kInvalidPtx, "3 .u32/.s32 types"},
      {"vadd.u32.u32.u32 %r1, %r2.b5, %r3;", Code::kInvalidPtx, "selector"},
      {"vshl.u32.u32.u32 %r1, %r2, %r3;", Code::kInvalidPtx, ".clamp or .wrap"},
      {"vset.u32.u32 %r1, %r2, %r3;", Code::kInvalidPtx, "comparison"},
      {"vmad.s32.s32.s32.po %r1, -%r2, %r3, %r4;", Code::kInvalidPtx, "no negated"},
      {"vmad.s32.s32.s32 %r1, -%r2, %r3, -%r4;", Code::kInvalidPtx, "not both"},
      {"vmad.u32.u32.u32 %r1, -%r2, %r3, %r4;", Code::kInvalidPtx, ".s32"},
      {"vadd4.u32.u32.u32.sat.add %r1, %r2, %r3, %r4;", Code::kInvalidPtx, ".sat cannot"},
      {"vmin2.u32.u32.u32 %r1.b10, %r2, %r3, %r4;", Code::kInvalidPtx, "mask"},
      {"vmax4.u32.u32.u32 %r1, %r2.h10, %r3, %r4;", Code::kInvalidPtx, "selector"},
      {"vadd.u32.u32.u32.rnd %r1, %r2, %r3;", Code::kNotSupported, "vadd.u32.u32.u32.rnd"},
      {"fns.u32 %r1, %r2, %r3, %r4;", Code::kInvalidPtx, ".b32"},
      {"pmevent %r1;", Code::kInvalidPtx, "immediate"},
  };
  for (const Rejected& c : cases) {
    SCOPED_TRACE(c.ptx);
    PtxExec e;
    Status s = e.compile(kernel(std::string("  ") + c.ptx + "\n"));
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.code(), c.code) << s.to_string();
    EXPECT_NE(s.message().find(c.says), std::string::npos) << s.message();
    EXPECT_NE(s.message().find(":" + std::to_string(kBodyLine) + ":"), std::string::npos)
        << s.message();
  }
}

}  // namespace
}  // namespace strata::compiler::testing
