// The texture and surface instructions in the compiler (compiler/ir/lower_texture.cc):
// the forms Strata does not implement are kNotSupported and malformed ones kInvalidPtx,
// each naming the instruction's line; nvcc's golden texture module compiles. Results are
// checked in tests/ptx/conformance/kernel_texture.cc.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "compiler/compiler.h"
#include "exec_harness.h"

namespace strata::compiler::testing {
namespace {

std::string kernel(const std::string& body) {
  return ".version 8.3\n.target sm_80\n.address_size 64\n"
         ".visible .entry k(.param .u64 p)\n{\n"
         "  .reg .pred %p<4>;\n  .reg .b32 %r<16>;\n  .reg .f32 %f<16>;\n  .reg .b64 %rd<16>;\n"
         "  ld.param.u64 %rd1, [p];\n" +
         body + "  ret;\n}\n";
}

// Line 11 of kernel() is the first line of the body.
constexpr int kBodyLine = 11;

struct Rejected {
  const char* ptx;  // one instruction
  Code code;
  const char* says;  // part of the message
};

TEST(TextureCompile, RejectsUnsupportedAndMalformedForms) {
  const Rejected cases[] = {
      {"tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, %rd2, {%f5, %f6}];", Code::kNotSupported,
       "tex.2d.v4.f32.f32"},
      {"tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}], {%r1, %r2};",
       Code::kNotSupported, "tex.2d.v4.f32.f32"},
      {"tex.grad.cube.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6, %f7, %f7}], {%f1, %f2, "
       "%f3, "
       "%f3}, {%f1, %f2, %f3, %f3};",
       Code::kNotSupported, "tex.grad.cube"},
      {"tex.2dms.v4.s32.s32 {%r1, %r2, %r3, %r4}, [%rd1, {%r5, %r6, %r7, %r8}];",
       Code::kNotSupported, "tex.2dms"},
      {"sust.p.2d.b32.trap [%rd1, {%r1, %r2}], {%r3};", Code::kNotSupported, "sust.p"},
      {"tld4.r.3d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6, %f7, %f7}];",
       Code::kNotSupported, "tld4.r.3d"},
      {"txq.level.array_size.b32 %r1, [%rd1], %r2;", Code::kInvalidPtx, "txq.level"},
      {"tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5}];", Code::kInvalidPtx, "coordinates"},
      {"tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%r1, {%f5, %f6}];", Code::kInvalidPtx, "64-bit"},
      {"suld.b.2d.v4.b64.trap {%rd2, %rd3, %rd4, %rd5}, [%rd1, {%r1, %r2}];", Code::kInvalidPtx,
       ".v4 of .b64"},
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

// nvcc's output for texture objects and surface objects (tests/ptx/golden/texture.ptx).
TEST(TextureCompile, GoldenTextureModuleCompiles) {
  std::ifstream f(std::string(STRATA_SOURCE_DIR) + "/tests/ptx/golden/texture.ptx");
  ASSERT_TRUE(f.good());
  std::stringstream text;
  text << f.rdbuf();
  PtxExec e;
  Status s = e.compile(text.str());
  EXPECT_TRUE(s.ok()) << s.to_string();
  EXPECT_NE(e.disassembly("_Z6sampleyyPfi").find("TEX"), std::string::npos);
}

// Opaque handles as kernel parameters and module-scope variables compile to loads of
// the 64-bit handle.
TEST(TextureCompile, TexrefParametersAndGlobals) {
  const std::string ptx =
      ".version 8.3\n.target sm_80\n.address_size 64\n"
      ".global .texref gt;\n.global .surfref gs;\n"
      ".visible .entry k(.param .texref t, .param .surfref s, .param .u64 out)\n{\n"
      "  .reg .b32 %r<8>;\n  .reg .f32 %f<8>;\n  .reg .b64 %rd<4>;\n"
      "  mov.f32 %f1, 0f3F000000;\n"
      "  tex.2d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [t, {%f1, %f1}];\n"
      "  tex.2d.v4.f32.f32 {%f2, %f3, %f4, %f6}, [gt, {%f1, %f1}];\n"
      "  txq.width.b32 %r1, [t];\n  suq.height.b32 %r2, [s];\n"
      "  mov.u32 %r3, 0;\n  suld.b.2d.b32.clamp {%r4}, [gs, {%r3, %r3}];\n"
      "  ld.param.u64 %rd1, [out];\n  st.global.f32 [%rd1], %f5;\n  st.global.f32 [%rd1+4], %f6;\n"
      "  st.global.u32 [%rd1+8], %r1;\n  st.global.u32 [%rd1+12], %r2;\n"
      "  st.global.u32 [%rd1+16], %r4;\n  ret;\n}\n";
  PtxExec e;
  Status s = e.compile(ptx);
  ASSERT_TRUE(s.ok()) << s.to_string();
  const sxbin::KernelDesc* k = e.kernel("k");
  ASSERT_NE(k, nullptr);
  const std::string code = e.disassembly("k");
  EXPECT_NE(code.find("TXQ"), std::string::npos) << code;
  EXPECT_NE(code.find("SULD"), std::string::npos) << code;
}

}  // namespace
}  // namespace strata::compiler::testing
