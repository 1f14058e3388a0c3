// End-to-end: nvcc-generated PTX (checked in beside this file) -> compile_ptx -> sxbin.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "compiler/compiler.h"
#include "compiler/sxbin/sxbin.h"
#include "isa/encode.h"

namespace strata::compiler {
namespace {

std::string read_file(const std::string& name) {
  std::ifstream in(std::string(STRATA_PTX_TEST_DIR) + "/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

sxbin::Binary compile(std::vector<std::string> files) {
  std::vector<PtxSource> src;
  for (auto& f : files) src.push_back({f, read_file(f)});
  CompileOptions opts;
  opts.verify_each_pass = true;
  auto image = compile_ptx(src, opts);
  EXPECT_TRUE(image.ok()) << image.status().to_string();
  if (!image.ok()) return {};
  auto bin = sxbin::read_sxbin(*image);
  EXPECT_TRUE(bin.ok()) << bin.status().to_string();
  return bin.ok() ? *bin : sxbin::Binary{};
}

std::vector<isa::Inst> code_of(const sxbin::Binary& b, const sxbin::KernelDesc& k) {
  auto insts = isa::decode_program(std::span<const uint8_t>(b.code.data() + k.code_offset, k.code_size));
  EXPECT_TRUE(insts.ok());
  return insts.ok() ? *insts : std::vector<isa::Inst>{};
}

int count(const std::vector<isa::Inst>& code, isa::Opcode op) {
  int n = 0;
  for (auto& i : code) n += i.op == op;
  return n;
}

TEST(CompilerE2E, VecAdd) {
  auto b = compile({"vec_add.ptx"});
  ASSERT_EQ(b.kernels.size(), 1u);
  const auto& k = b.kernels[0];
  EXPECT_EQ(k.name, "_Z7vec_addPKfS0_Pfi");
  EXPECT_EQ(k.param_bytes, 28u);
  ASSERT_EQ(k.params.size(), 4u);
  EXPECT_EQ(k.params[3].offset, 24u);
  EXPECT_EQ(k.params[3].size, 4u);
  auto code = code_of(b, k);
  EXPECT_GE(count(code, isa::Opcode::LD), 2);
  EXPECT_EQ(count(code, isa::Opcode::ST), 1);
  EXPECT_GE(count(code, isa::Opcode::EXIT), 1);
  EXPECT_GT(k.regs_per_thread, 0u);
  EXPECT_FALSE(k.lines.empty());
}

TEST(CompilerE2E, TiledMatmulUsesSharedAndBarriers) {
  auto b = compile({"matmul_tiled.ptx"});
  ASSERT_EQ(b.kernels.size(), 1u);
  EXPECT_EQ(b.kernels[0].shared_bytes, 2048u);
  EXPECT_GE(b.kernels[0].num_barriers, 1u);
  auto code = code_of(b, b.kernels[0]);
  EXPECT_GE(count(code, isa::Opcode::BAR), 2);
}

TEST(CompilerE2E, ReductionEmitsConvergenceBarriers) {
  auto b = compile({"reduce.ptx"});
  ASSERT_EQ(b.kernels.size(), 1u);
  auto code = code_of(b, b.kernels[0]);
  int bssy = count(code, isa::Opcode::BSSY), bsync = count(code, isa::Opcode::BSYNC);
  EXPECT_GT(bssy, 0);
  EXPECT_EQ(bssy, bsync);
  EXPECT_GE(count(code, isa::Opcode::ATOM), 1);
  // Every BSSY targets an instruction that is a BSYNC of the same barrier.
  for (auto& i : code)
    if (i.op == isa::Opcode::BSSY) {
      ASSERT_LT(i.imm, code.size());
      bool found = false;
      for (size_t p = i.imm; p < code.size() && code[p].op == isa::Opcode::BSYNC; ++p) found |= code[p].mod == i.mod;
      EXPECT_TRUE(found);
    }
}

TEST(CompilerE2E, DivergentLoopsAnd3DIndexing) {
  auto b = compile({"divergent.ptx"});
  ASSERT_EQ(b.kernels.size(), 2u);
  auto code = code_of(b, *b.find_kernel("_Z7collatzPKjPji"));
  EXPECT_GT(count(code, isa::Opcode::BSSY), 0);
  EXPECT_EQ(b.find_kernel("_Z7index3dPfd")->param_bytes, 16u);
}

TEST(CompilerE2E, AtomicsAndSpinLock) {
  auto b = compile({"atomics.ptx"});
  ASSERT_EQ(b.kernels.size(), 2u);
  auto code = code_of(b, *b.find_kernel("_Z7atomicsPiPyPfPdS_"));
  EXPECT_GE(count(code, isa::Opcode::ATOM), 12);
  ASSERT_NE(b.find_global("lock_word"), nullptr);
  EXPECT_FALSE(b.symbol_table.empty());
}

TEST(CompilerE2E, ConstantMemory) {
  auto b = compile({"const_mem.ptx"});
  const auto* c = b.find_global("coeffs");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->space, sxbin::VarSpace::kConst);
  ASSERT_GE(b.const_init.size(), c->const_offset + 4);
  EXPECT_EQ(b.const_init[c->const_offset + 3], 0x3f);  // 1.0f
  const auto* g = b.find_global("gtable");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->init[0], 7);
  auto code = code_of(b, b.kernels[0]);
  bool bank2 = false;
  for (auto& i : code) bank2 |= i.op == isa::Opcode::LDC && i.mod == 2;
  EXPECT_TRUE(bank2);
}

TEST(CompilerE2E, RdcPairLinks) {
  auto b = compile({"rdc_a.ptx", "rdc_b.ptx"});
  ASSERT_NE(b.find_kernel("_Z10use_externPi"), nullptr);
  ASSERT_NE(b.find_global("scale_factor"), nullptr);
  std::vector<PtxSource> only_a = {{"rdc_a.ptx", read_file("rdc_a.ptx")}};
  auto r = compile_ptx(only_a, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kInvalidPtx) << r.status().to_string();
}

TEST(CompilerE2E, WarpOpsAndAssert) {
  auto b = compile({"warp.ptx"});
  ASSERT_EQ(b.kernels.size(), 1u);
  auto code = code_of(b, b.kernels[0]);
  EXPECT_GE(count(code, isa::Opcode::SHFL), 4);
  EXPECT_GE(count(code, isa::Opcode::VOTE), 3);
  bool assert_trap = false;
  for (auto& i : code) assert_trap |= i.op == isa::Opcode::TRAP && i.imm == 1;
  EXPECT_TRUE(assert_trap);
}

const char* kHeader = ".version 9.0\n.target sm_80\n.address_size 64\n";

TEST(CompilerE2E, ErrorsCarryLineAndColumn) {
  std::string bad = std::string(kHeader) +
                    ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<3>;\nadd.s32 %r1, %r9, 1;\nret;\n}\n";
  auto r = compile_ptx({{"bad.ptx", bad}}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kInvalidPtx);
  EXPECT_NE(r.status().message().find("bad.ptx:7:"), std::string::npos) << r.status().message();

  std::string unsup = std::string(kHeader) +
                      ".visible .entry k()\n{\n.reg .b32 %r<3>;\nfma.rn.oob.f16x2 %r1, %r2, %r2, %r2;\nret;\n}\n";
  r = compile_ptx({{"u.ptx", unsup}}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kNotSupported);
  EXPECT_NE(r.status().message().find("u.ptx:7:"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("fma.rn.oob.f16x2"), std::string::npos) << r.status().message();

  // Recursion compiles to real calls (docs/abi.md), with module-scope .shared variables
  // and .shared variables declared in the called function (as nvcc demotes them).
  std::string rec = std::string(kHeader) +
                    ".func f()\n{\ncall.uni f, ();\nret;\n}\n.visible .entry k()\n{\ncall.uni f, ();\nret;\n}\n";
  r = compile_ptx({{"rec.ptx", rec}}, {});
  EXPECT_TRUE(r.ok()) << r.status().to_string();
  std::string rec_shared = std::string(kHeader) +
                           ".shared .b32 s;\n.func f()\n{\n.reg .b32 %r<2>;\nld.shared.u32 %r1, [s];\n"
                           "call.uni f, ();\nret;\n}\n.visible .entry k()\n{\ncall.uni f, ();\nret;\n}\n";
  r = compile_ptx({{"rec.ptx", rec_shared}}, {});
  EXPECT_TRUE(r.ok()) << r.status().to_string();
  std::string inner_shared = std::string(kHeader) +
                             ".func f()\n{\n.reg .b32 %r<2>;\n.shared .b32 s;\nld.shared.u32 %r1, [s];\n"
                             "call.uni f, ();\nret;\n}\n.visible .entry k()\n{\ncall.uni f, ();\nret;\n}\n";
  r = compile_ptx({{"rec.ptx", inner_shared}}, {});
  EXPECT_TRUE(r.ok()) << r.status().to_string();
}

// printf is lowered by nvcc to a call of the external vprintf: not supported, and the
// message says so in the user's terms.
TEST(CompilerE2E, PrintfIsNamedWhenUnsupported) {
  std::string src = std::string(kHeader) +
                    ".extern .func (.param .b32 r) vprintf(.param .b64 fmt, .param .b64 args);\n"
                    ".visible .entry k()\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<2>;\n"
                    "mov.u64 %rd1, 0;\n{\n.param .b64 p0;\nst.param.b64 [p0], %rd1;\n.param .b64 p1;\n"
                    "st.param.b64 [p1], %rd1;\n.param .b32 rv;\n"
                    "call.uni (rv), vprintf, (p0, p1);\nld.param.b32 %r1, [rv];\n}\nret;\n}\n";
  auto r = compile_ptx({{"p.ptx", src}}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kNotSupported) << r.status().to_string();
  EXPECT_NE(r.status().message().find("printf"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("p.ptx:"), std::string::npos) << r.status().message();
}

TEST(CompilerE2E, BuildIdIsAHash) {
  std::string id = compiler_build_id();
  EXPECT_EQ(id.size(), 64u);
}

}  // namespace
}  // namespace strata::compiler

namespace strata::compiler {
namespace {

StatusOr<sxbin::Binary> compile_text(const std::string& ptx) {
  CompileOptions opts;
  opts.verify_each_pass = true;
  ASSIGN_OR_RETURN(auto image, compile_ptx({{"init.ptx", ptx}}, opts));
  return sxbin::read_sxbin(image);
}

constexpr const char* kInitHeader = ".version 8.0\n.target sm_80\n.address_size 64\n";

TEST(CompilerE2E, AddressInitializersBecomeRelocations) {
  auto b = compile_text(std::string(kInitHeader) + R"(
.global .align 4 .u32 gvar[4] = {1, 2, 3, 4};
.const .align 8 .u32 cvar[2] = {5, 6};
.global .align 8 .u64 p = gvar;
.global .align 8 .u64 pair[3] = {gvar, gvar+8, 7};
.global .align 8 .u64 gen = generic(gvar)+4;
.global .align 8 .b8 bytes[16] = {0xFF(generic(cvar)+4), 0xFF00(generic(cvar)+4), 0xFF0000(generic(cvar)+4),
  0xFF000000(generic(cvar)+4), 0xFF00000000(generic(cvar)+4), 0xFF0000000000(generic(cvar)+4),
  0xFF000000000000(generic(cvar)+4), 0xFF00000000000000(generic(cvar)+4), 9};
.const .align 8 .u64 cptr = gvar+12;
.visible .entry k() { ret; }
)");
  ASSERT_TRUE(b.ok()) << b.status().to_string();
  auto relocs = [&](const char* name) {
    const sxbin::GlobalVar* g = b->find_global(name);
    EXPECT_NE(g, nullptr) << name;
    return g ? g->init_relocs : std::vector<sxbin::Reloc>{};
  };
  EXPECT_EQ(relocs("p"), (std::vector<sxbin::Reloc>{{0, "gvar", 0}}));
  EXPECT_EQ(relocs("pair"), (std::vector<sxbin::Reloc>{{0, "gvar", 0}, {8, "gvar", 8}}));
  const sxbin::GlobalVar* pair = b->find_global("pair");
  ASSERT_GE(pair->init.size(), 17u);
  EXPECT_EQ(pair->init[16], 7);  // the plain element after the addresses
  EXPECT_EQ(pair->init[0], 0);   // address bytes are left to the loader
  EXPECT_EQ(relocs("gen"), (std::vector<sxbin::Reloc>{{0, "gvar", 4}}));
  EXPECT_EQ(relocs("bytes"), (std::vector<sxbin::Reloc>{{0, "cvar", 4}}));
  EXPECT_EQ(b->find_global("bytes")->init.size(), 9u);
  EXPECT_EQ(b->find_global("bytes")->init[8], 9);
  EXPECT_EQ(relocs("cptr"), (std::vector<sxbin::Reloc>{{0, "gvar", 12}}));
  EXPECT_TRUE(relocs("gvar").empty());
}

TEST(CompilerE2E, UnsupportedAddressInitializersAreErrors) {
  // A 32-bit element cannot hold an address; a partial byte-mask sequence neither.
  auto narrow = compile_text(std::string(kInitHeader) +
                             ".global .u32 g[2];\n.global .u32 q = g;\n.visible .entry k() { ret; }\n");
  ASSERT_FALSE(narrow.ok());
  EXPECT_EQ(narrow.status().code(), Code::kNotSupported);
  auto partial = compile_text(std::string(kInitHeader) +
                              ".global .u32 g[2];\n.global .b8 q[2] = {0xFF(g), 0xFF00(g)};\n"
                              ".visible .entry k() { ret; }\n");
  ASSERT_FALSE(partial.ok());
  EXPECT_EQ(partial.status().code(), Code::kNotSupported);
}

}  // namespace
}  // namespace strata::compiler

// Dynamic parallelism (nvcc -rdc=true PTX): the __cudaCDP2* device runtime calls are
// lowered inline; a kernel's address goes through the symbol table (its descriptor).
namespace strata::compiler {
namespace {

TEST(CompilerE2E, DeviceLaunchesCompile) {
  sxbin::Binary b = compile({"cdp.ptx"});
  const sxbin::KernelDesc* parent = b.find_kernel("_Z6parentPiS_");
  ASSERT_NE(parent, nullptr);
  EXPECT_NE(std::find(b.symbol_table.begin(), b.symbol_table.end(), "_Z5childPii"),
            b.symbol_table.end());
  std::vector<isa::Inst> code = code_of(b, *parent);
  EXPECT_GE(count(code, isa::Opcode::ATOM), 9);  // 4 reservations, 4 publications, 1 stream
  EXPECT_EQ(count(code, isa::Opcode::CALL), 0);
}

TEST(CompilerE2E, UnsupportedDeviceRuntimeCallsAreNamed) {
  std::string src = std::string(kHeader) +
                    ".extern .func (.param .b32 r) __cudaCDP2GetDevice(.param .b64 p);\n"
                    ".visible .entry k()\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<2>;\n"
                    "mov.u64 %rd1, 0;\n{\n.param .b64 p0;\nst.param.b64 [p0], %rd1;\n"
                    ".param .b32 rv;\n"
                    "call.uni (rv), __cudaCDP2GetDevice, (p0);\nld.param.b32 %r1, [rv];\n}\nret;\n}\n";
  auto r = compile_ptx({{"m.ptx", src}}, {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kNotSupported) << r.status().to_string();
  EXPECT_NE(r.status().message().find("__cudaCDP2GetDevice"), std::string::npos) << r.status().message();
  EXPECT_NE(r.status().message().find("m.ptx:14:"), std::string::npos) << r.status().message();
}

}  // namespace
}  // namespace strata::compiler
