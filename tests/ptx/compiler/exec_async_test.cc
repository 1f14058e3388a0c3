// cp.async / mbarrier in the compiler (compiler/ir/lower_async.cc): the sm_90 forms that
// need transaction counts or clusters, and malformed forms, are rejected with the instruction and
// its line; addresses given as shared symbols (static and dynamic shared memory) work.
#include <gtest/gtest.h>

#include "exec_harness.h"

namespace strata::compiler::testing {
namespace {

std::string kernel(const std::string& body) {
  return ".version 8.0\n.target sm_80\n.address_size 64\n"
         ".visible .entry k(.param .u64 p)\n{\n"
         "  .reg .pred %p<4>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<16>;\n"
         "  .shared .align 8 .b64 bar;\n  .shared .align 16 .b8 buf[64];\n"
         "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, bar;\n  mov.u32 %r2, buf;\n" +
         body + "  ret;\n}\n";
}

// Line 14 of kernel() is the first line of the body.
constexpr int kBodyLine = 14;

struct Rejected {
  const char* ptx;  // one instruction
  Code code;
  const char* says;  // part of the message
};

TEST(AsyncCompile, RejectsSm90AndMalformedForms) {
  const Rejected cases[] = {
      {"mbarrier.expect_tx.shared.b64 [%r1], 16;", Code::kNotSupported, "requires sm_90"},
      {"mbarrier.complete_tx.shared.b64 [%r1], 16;", Code::kNotSupported, "requires sm_90"},
      {"mbarrier.arrive.expect_tx.shared.b64 %rd2, [%r1], 16;", Code::kNotSupported,
       "requires sm_90"},
      {"mbarrier.arrive.release.cluster.shared.b64 %rd2, [%r1];", Code::kNotSupported,
       "requires sm_90"},
      {"mbarrier.arrive.shared::cluster.b64 _, [%r1];", Code::kNotSupported, "requires sm_90"},
      {"mbarrier.arrive.relaxed.cta.shared.b64 %rd2, [%r1];", Code::kNotSupported,
       "requires sm_90"},
      {"cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd1], 16, "
       "[%r1];",
       Code::kNotSupported, "cp.async.bulk"},
      {"cp.async.cg.shared.global [%r2], [%rd1], 8;", Code::kInvalidPtx, "16 bytes"},
      {"cp.async.ca.shared.global [%r2], [%rd1], 2;", Code::kInvalidPtx, "4, 8 or 16"},
      {"cp.async.ca.shared.global [%r2], [%rd1], %r3;", Code::kInvalidPtx, "constant"},
      {"cp.async.wait_group %r3;", Code::kInvalidPtx, "constant"},
      {"discard.global.L2 [%rd1], 64;", Code::kInvalidPtx, "128-byte"},
      {"createpolicy.fractional.L2::evict_last.b64 %rd2, 0.5, 1;", Code::kInvalidPtx, "fraction"},
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

// Addresses as symbols: the copy's destination and the mbarrier in static shared memory
// ([buf+16], [bar]) and in dynamic shared memory ([dyn+16], [dyn]).
TEST(AsyncCompile, SharedSymbolAddresses) {
  for (bool dynamic : {false, true}) {
    SCOPED_TRACE(dynamic ? "dynamic" : "static");
    const std::string b = dynamic ? "dyn" : "bar", d = dynamic ? "dyn+16" : "buf+16";
    std::string ptx =
        ".version 8.0\n.target sm_80\n.address_size 64\n"
        ".extern .shared .align 16 .b8 dyn[];\n"
        ".visible .entry k(.param .u64 p)\n{\n"
        "  .reg .pred %p<4>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<16>;\n"
        "  .shared .align 8 .b64 bar;\n  .shared .align 16 .b8 buf[64];\n"
        "  ld.param.u64 %rd1, [p];\n"
        "  mbarrier.init.shared.b64 [" +
        b +
        "], 1;\n"
        "  cp.async.ca.shared.global [" +
        d +
        "], [%rd1], 16;\n"
        "  cp.async.mbarrier.arrive.noinc.shared.b64 [" +
        b +
        "];\n"
        "W:\n  mbarrier.test_wait.parity.shared.b64 %p1, [" +
        b +
        "], 0;\n  @!%p1 bra W;\n"
        "  ld.shared.v4.u32 {%r1, %r2, %r3, %r4}, [" +
        d +
        "];\n"
        "  st.global.v4.u32 [%rd1+16], {%r1, %r2, %r3, %r4};\n"
        "  ret;\n}\n";
    PtxExec e;
    ASSERT_TRUE(e.compile(ptx).ok()) << e.compile(ptx).to_string();
    const uint64_t buf = e.alloc(64);
    e.write<uint32_t>(buf, {11, 22, 33, 44});
    e.set_dynamic_shared(dynamic ? 64 : 0);
    auto fault = e.run("k", Dim{1}, Dim{1}, {buf});
    ASSERT_TRUE(fault.ok()) << fault.status().to_string();
    ASSERT_EQ(fault->kind, hw::FaultKind::kNone) << e.disassembly("k");
    EXPECT_EQ(e.read<uint32_t>(buf + 16, 4), (std::vector<uint32_t>{11, 22, 33, 44}))
        << e.disassembly("k");
  }
}

}  // namespace
}  // namespace strata::compiler::testing
