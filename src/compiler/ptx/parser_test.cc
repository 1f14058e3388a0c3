// Hand-written PTX covering forms the golden files do not, and error reporting.
#include "compiler/ptx/parser.h"

#include <gtest/gtest.h>

#include <string>

namespace strata::ptx {
namespace {

Module parse_ok(const std::string& text) {
  StatusOr<Module> module = parse_ptx(text, "t.ptx");
  EXPECT_TRUE(module.ok()) << module.status().to_string();
  return module.ok() ? std::move(module).value() : Module{};
}

std::string parse_error(const std::string& text) {
  StatusOr<Module> module = parse_ptx(text, "t.ptx");
  EXPECT_FALSE(module.ok()) << text;
  if (module.ok()) return "";
  EXPECT_EQ(module.status().code(), Code::kInvalidPtx);
  return module.status().message();
}

const std::string kHeader = ".version 8.0\n.target sm_80, texmode_independent\n.address_size 64\n";

std::string in_body(const std::string& body) {
  return kHeader + ".entry k()\n{\n.reg .b32 %r<10>;\n.reg .pred %p<4>;\n.reg .b64 %rd<4>;\n.reg .f32 %f<8>;\n" + body + "\n}\n";
}

Instruction only_instruction(const Module& module) {
  const Block& body = module.functions.at(0).body;
  for (const Statement& statement : body.statements) {
    if (auto* inst = std::get_if<Instruction>(&statement)) return *inst;
  }
  ADD_FAILURE() << "no instruction";
  return Instruction{};
}

TEST(ParserTest, ModuleDirectivesAndLinkage) {
  Module module = parse_ok(kHeader +
      ".weak .global .align 8 .u64 w = 1;\n"
      ".common .global .u32 c;\n"
      ".global .v2 .f32 vec = {1.5, -0f3F800000};\n"
      ".global .u32 arr[2][3] = {{1, 2, 3}, {4, 5, 6 + 1}};\n"
      ".const .s32 neg[2] = {-1, 0xFFFFFFFF};\n"
      ".global .texref tex;\n"
      ".weak .func (.reg .u32 r) wf (.reg .u32 a) .noreturn { ret; }\n"
      ".pragma \"nounroll\";\n");
  EXPECT_EQ(module.version_major, 8);
  EXPECT_EQ(module.target, (std::vector<std::string>{"sm_80", "texmode_independent"}));
  ASSERT_EQ(module.globals.size(), 6u);
  EXPECT_TRUE(module.globals[0].is_weak);
  EXPECT_TRUE(module.globals[1].is_common);
  EXPECT_EQ(module.globals[2].vector_width, 2);
  ASSERT_EQ(module.globals[2].init.size(), 2u);
  EXPECT_EQ(std::get<ImmFloat>(module.globals[2].init[1]).bits, 0xBF800000u);
  EXPECT_EQ(module.globals[3].dims, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(module.globals[3].init.size(), 6u);
  EXPECT_EQ(std::get<ImmInt>(module.globals[3].init[5]).value, 7);
  EXPECT_EQ(std::get<ImmInt>(module.globals[4].init[0]).value, -1);
  EXPECT_EQ(module.globals[5].type, "texref");
  const Function& wf = module.functions.at(0);
  EXPECT_TRUE(wf.is_weak);
  EXPECT_TRUE(wf.noreturn);
  EXPECT_EQ(wf.return_params.at(0).space, "reg");
  EXPECT_EQ(module.pragmas.at(0).text, "nounroll");
}

TEST(ParserTest, KernelParamsWithPointerAttributes) {
  Module module = parse_ok(kHeader +
      ".visible .entry k(.param .u64 .ptr.global.align 16 p, .param .u64 .ptr.align 8 q,\n"
      "  .param .align 8 .b8 s[24])\n.reqntid 64, 2\n.maxnreg 32\n.pragma \"x\";\n{ ret; }\n");
  const Function& k = module.functions.at(0);
  ASSERT_EQ(k.params.size(), 3u);
  EXPECT_TRUE(k.params[0].is_ptr);
  EXPECT_EQ(k.params[0].ptr_space, "global");
  EXPECT_EQ(k.params[0].ptr_align, 16);
  EXPECT_EQ(k.params[1].ptr_space, "");
  EXPECT_EQ(k.params[1].ptr_align, 8);
  EXPECT_EQ(k.params[2].align, 8);
  EXPECT_EQ(k.directives.at(0).values, (std::vector<int64_t>{64, 2}));
  EXPECT_EQ(k.directives.at(1).name, "maxnreg");
  EXPECT_EQ(k.pragmas.at(0).text, "x");
}

TEST(ParserTest, OperandShapes) {
  Module module = parse_ok(in_body("@!%p1 st.global.v4.f32 [%rd1+-4], {%f1, _, %f2, %f3};"));
  Instruction st = only_instruction(module);
  EXPECT_EQ(st.guard, "%p1");
  EXPECT_TRUE(st.guard_negated);
  auto& address = std::get<AddressOperand>(st.operands[0].value);
  EXPECT_EQ(address.offset, -4);
  EXPECT_TRUE(address.base_is_reg);
  auto& vector = std::get<std::shared_ptr<VectorOperand>>(st.operands[1].value);
  EXPECT_TRUE(std::holds_alternative<SinkOperand>(vector->elements[1]));

  Instruction selp = only_instruction(parse_ok(in_body("selp.b32 %r1, 0x10, -0b11, !%p2;")));
  EXPECT_EQ(std::get<ImmInt>(selp.operands[1].value).value, 16);
  EXPECT_EQ(std::get<ImmInt>(selp.operands[2].value).value, -3);
  EXPECT_TRUE(selp.operands[3].negated);

  Instruction mov = only_instruction(parse_ok(in_body("mov.u32 %r1, 42U;")));
  EXPECT_TRUE(std::get<ImmInt>(mov.operands[1].value).unsigned_suffix);

  Instruction ld = only_instruction(parse_ok(in_body("ld.global.u32 %r1, [0x1000];")));
  auto& absolute = std::get<AddressOperand>(ld.operands[1].value);
  EXPECT_TRUE(absolute.base.empty());
  EXPECT_EQ(absolute.offset, 0x1000);

  Instruction ctaid = only_instruction(parse_ok(in_body("mov.u32 %r1, %ctaid.y;")));
  EXPECT_EQ(std::get<RegOperand>(ctaid.operands[1].value).component, 'y');

  // Video instructions: sub-word selectors on registers and vmad's negated sources.
  Instruction vadd = only_instruction(parse_ok(in_body("vadd.s32.u32.s32.sat %r1.h1, %r2.b0, %r3.h0, %r4;")));
  EXPECT_EQ(std::get<RegOperand>(vadd.operands[0].value).selector, "h1");
  EXPECT_EQ(std::get<RegOperand>(vadd.operands[1].value).selector, "b0");
  EXPECT_EQ(std::get<RegOperand>(vadd.operands[3].value).selector, "");
  Instruction vmin4 = only_instruction(parse_ok(in_body("vmin4.u32.u32.u32 %r1.b20, %r2.b7531, %r3, %r4;")));
  EXPECT_EQ(std::get<RegOperand>(vmin4.operands[1].value).selector, "b7531");
  Instruction vmad = only_instruction(parse_ok(in_body("vmad.s32.s32.u32.sat %r1, -%r2.h1, %r3, -%r4;")));
  EXPECT_TRUE(vmad.operands[1].minus);
  EXPECT_FALSE(vmad.operands[2].minus);
  EXPECT_TRUE(vmad.operands[3].minus);
  EXPECT_EQ(std::get<RegOperand>(vmad.operands[1].value).selector, "h1");

  Instruction sym = only_instruction(parse_ok(in_body("mov.u64 %rd1, gvar+8;")));
  EXPECT_EQ(std::get<SymbolOperand>(sym.operands[1].value).offset, 8);

  Instruction tex = only_instruction(parse_ok(in_body("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [t, s, {%f5, %f6}];")));
  auto& tex_address = std::get<AddressOperand>(tex.operands[1].value);
  EXPECT_EQ(tex_address.base, "t");
  EXPECT_EQ(tex_address.sampler, "s");
  EXPECT_EQ(tex_address.coords->elements.size(), 2u);

  Instruction setp = only_instruction(parse_ok(in_body("setp.lt.and.s32 %p1|%p2, %r1, %r2, !%p3;")));
  EXPECT_TRUE(setp.has_pred_pair);
  EXPECT_EQ(setp.operands.size(), 5u);
}

TEST(ParserTest, CallForms) {
  Module module = parse_ok(in_body(
      "call f;\n"
      "call.uni (r), g, (a, 1);\n"
      "call %rd1, (a), targets;\n"
      "proto: .callprototype _ (.param .b32 _) .noreturn;\n"
      "jt: .branchtargets L1, L2;\n"
      "L1: L2: ret;"));
  const Function& k = module.functions.at(0);
  std::vector<const Instruction*> calls;
  for (const Statement& statement : k.body.statements) {
    if (auto* inst = std::get_if<Instruction>(&statement); inst && inst->opcode == "call") calls.push_back(inst);
  }
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(calls[0]->operands.size(), 3u);
  EXPECT_TRUE(std::get<std::shared_ptr<VectorOperand>>(calls[0]->operands[0].value)->elements.empty());
  EXPECT_TRUE(std::get<std::shared_ptr<VectorOperand>>(calls[0]->operands[2].value)->elements.empty());
  auto& args = std::get<std::shared_ptr<VectorOperand>>(calls[1]->operands[2].value);
  EXPECT_EQ(std::get<ImmInt>(args->elements[1]).value, 1);
  EXPECT_EQ(calls[2]->operands.size(), 4u);
  EXPECT_TRUE(std::holds_alternative<RegOperand>(calls[2]->operands[1].value));
  EXPECT_TRUE(k.prototypes.at(0).noreturn);
  EXPECT_TRUE(k.prototypes.at(0).return_params.empty());
  EXPECT_EQ(k.target_lists.at(0).targets, (std::vector<std::string>{"L1", "L2"}));
}

TEST(ParserTest, ErrorsCarryLocations) {
  EXPECT_EQ(parse_error(".version 8.0\n.target sm_80\n.entry k() { add.u32 %r1, ; }"),
            "t.ptx:3:27: expected an operand, found ';'");
  EXPECT_EQ(parse_error(".version 8.0\n.bogus 3"),
            "t.ptx:2:1: expected a module-level directive (.version, .target, .entry, .func, .global, ...), found '.bogus'");
  EXPECT_NE(parse_error(".version x").find("t.ptx:1:10:"), std::string::npos);
  EXPECT_NE(parse_error(kHeader + ".entry k() {").find("unterminated block"), std::string::npos);
  EXPECT_NE(parse_error(kHeader + ".global .u32 a[0];").find("array dimension 0"), std::string::npos);
  EXPECT_NE(parse_error(kHeader + ".global .align 3 .u32 a;").find("power of two"), std::string::npos);
  EXPECT_NE(parse_error(kHeader + ".shared .u32 a = 1;").find("cannot have initializers"), std::string::npos);
  EXPECT_NE(parse_error(in_body("div.s32 %r1, %r2, (1/0);")).find("division by zero"), std::string::npos);
  EXPECT_NE(parse_error(kHeader + ".section .debug_info { .b8 1").find("unterminated .section"), std::string::npos);
}

TEST(ParserTest, DeepNestingIsAnErrorNotACrash) {
  std::string blocks = kHeader + ".entry k()\n{\n";
  for (int i = 0; i < 100000; ++i) blocks += "{";
  EXPECT_NE(parse_error(blocks).find("nested too deeply"), std::string::npos);
  std::string braces = kHeader + ".global .u32 a[1] = ";
  for (int i = 0; i < 100000; ++i) braces += "{";
  EXPECT_NE(parse_error(braces).find("nested too deeply"), std::string::npos);
  std::string parens = in_body("mov.u32 %r1, ");
  parens.insert(parens.size() - 3, std::string(100000, '('));
  EXPECT_NE(parse_error(parens).find("nested too deeply"), std::string::npos);
}

}  // namespace
}  // namespace strata::ptx
