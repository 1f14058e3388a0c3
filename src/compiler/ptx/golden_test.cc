// Every checked-in nvcc-generated PTX file (tests/ptx/golden) parses, and specific
// facts about each file's AST hold.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>

#include "compiler/ptx/parser.h"

namespace strata::ptx {
namespace {

std::string read_golden(const std::string& name) {
  std::ifstream in(std::string(STRATA_PTX_GOLDEN_DIR) + "/" + name, std::ios::binary);
  EXPECT_TRUE(in.good()) << name;
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

Module parse_golden(const std::string& name) {
  StatusOr<Module> module = parse_ptx(read_golden(name), name);
  EXPECT_TRUE(module.ok()) << module.status().to_string();
  return module.ok() ? std::move(module).value() : Module{};
}


const Function* find_function(const Module& module, std::string_view name) {
  for (const Function& function : module.functions) {
    if (function.name == name && (function.has_body || function.is_extern)) return &function;
  }
  for (const Function& function : module.functions) {
    if (function.name == name) return &function;
  }
  return nullptr;
}

const VarDecl* find_global(const Module& module, std::string_view name) {
  for (const VarDecl& decl : module.globals) {
    if (decl.name == name) return &decl;
  }
  return nullptr;
}

void collect(const Block& block, std::vector<const Statement*>* out) {
  for (const Statement& statement : block.statements) {
    out->push_back(&statement);
    if (auto* nested = std::get_if<std::shared_ptr<Block>>(&statement)) collect(**nested, out);
  }
}

std::vector<const Instruction*> instructions(const Function& function) {
  std::vector<const Statement*> statements;
  collect(function.body, &statements);
  std::vector<const Instruction*> out;
  for (const Statement* statement : statements) {
    if (auto* inst = std::get_if<Instruction>(statement)) out.push_back(inst);
  }
  return out;
}

std::vector<const Instruction*> with_opcode(const Function& function, std::string_view opcode) {
  std::vector<const Instruction*> out;
  for (const Instruction* inst : instructions(function)) {
    if (inst->opcode == opcode) out.push_back(inst);
  }
  return out;
}

bool has_modifiers(const Instruction& inst, std::vector<std::string> modifiers) {
  return inst.modifiers == modifiers;
}

std::vector<int64_t> init_ints(const VarDecl& decl) {
  std::vector<int64_t> out;
  for (const Operand& value : decl.init) {
    if (auto* imm = std::get_if<ImmInt>(&value)) out.push_back(imm->value);
  }
  return out;
}

TEST(GoldenTest, EveryGoldenFileParses) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(STRATA_PTX_GOLDEN_DIR)) {
    if (entry.path().extension() != ".ptx") continue;
    ++count;
    std::string name = entry.path().filename().string();
    StatusOr<Module> module = parse_ptx(read_golden(name), name);
    EXPECT_TRUE(module.ok()) << module.status().to_string();
  }
  EXPECT_GE(count, 10);
}


TEST(GoldenTest, BasicKernels) {
  Module module = parse_golden("basic.ptx");
  EXPECT_EQ(module.version_major, 9);
  EXPECT_EQ(module.version_minor, 0);
  EXPECT_EQ(module.target, std::vector<std::string>{"sm_80"});
  EXPECT_EQ(module.address_size, 64);
  const Function* saxpy = find_function(module, "saxpy");
  ASSERT_NE(saxpy, nullptr);
  EXPECT_TRUE(saxpy->is_entry);
  EXPECT_TRUE(saxpy->is_visible);
  ASSERT_EQ(saxpy->params.size(), 4u);
  EXPECT_EQ(saxpy->params[0].type, "u32");
  EXPECT_EQ(saxpy->params[1].type, "f32");
  EXPECT_EQ(saxpy->params[3].type, "u64");
  EXPECT_EQ(saxpy->params[3].space, "param");
  EXPECT_EQ(saxpy->params[3].name, "saxpy_param_3");

  // @%p1 bra $L__BB0_2;
  std::vector<const Instruction*> branches = with_opcode(*saxpy, "bra");
  ASSERT_FALSE(branches.empty());
  EXPECT_EQ(branches[0]->guard, "%p1");
  EXPECT_FALSE(branches[0]->guard_negated);
  ASSERT_EQ(branches[0]->operands.size(), 1u);
  EXPECT_EQ(std::get<SymbolOperand>(branches[0]->operands[0].value).name, "$L__BB0_2");

  // mov.u32 %r1, %tid.x; and ld.param.u32 %r2, [saxpy_param_0];
  bool saw_tid = false;
  for (const Instruction* inst : with_opcode(*saxpy, "mov")) {
    auto* reg = std::get_if<RegOperand>(&inst->operands[1].value);
    if (reg && reg->name == "%tid" && reg->component == 'x') saw_tid = true;
  }
  EXPECT_TRUE(saw_tid);
  const Instruction* ld = with_opcode(*saxpy, "ld")[0];
  EXPECT_TRUE(has_modifiers(*ld, {"param", "u32"}));
  auto& address = std::get<AddressOperand>(ld->operands[1].value);
  EXPECT_EQ(address.base, "saxpy_param_0");
  EXPECT_FALSE(address.base_is_reg);

  // Register declarations: .reg .pred %p<N>;
  const auto& first = std::get<VarDecl>(saxpy->body.statements[0]);
  EXPECT_EQ(first.space, "reg");
  EXPECT_EQ(first.type, "pred");
  EXPECT_EQ(first.name, "%p");
  EXPECT_GT(first.reg_range, 0);

  const Function* scale = find_function(module, "_Z10scale_rowsPdiid");
  ASSERT_NE(scale, nullptr);
  ASSERT_EQ(scale->directives.size(), 2u);
  EXPECT_EQ(scale->directives[0].name, "maxntid");
  EXPECT_EQ(scale->directives[0].values, (std::vector<int64_t>{256, 1, 1}));
  EXPECT_EQ(scale->directives[1].name, "minnctapersm");
  EXPECT_EQ(scale->directives[1].values, (std::vector<int64_t>{2}));
  EXPECT_EQ(scale->params[3].type, "f64");

  const Function* clocks = find_function(module, "_Z6clocksPxPj");
  ASSERT_NE(clocks, nullptr);
  bool saw_clock64 = false, saw_laneid = false;
  for (const Instruction* inst : with_opcode(*clocks, "mov")) {
    auto* reg = std::get_if<RegOperand>(&inst->operands[1].value);
    if (reg && reg->name == "%clock64" && reg->component == 0) saw_clock64 = true;
    if (reg && reg->name == "%laneid") saw_laneid = true;
  }
  EXPECT_TRUE(saw_clock64);
  EXPECT_TRUE(saw_laneid);
}

TEST(GoldenTest, Sm90TargetParses) {
  Module module = parse_golden("basic_sm90.ptx");
  EXPECT_EQ(module.target, std::vector<std::string>{"sm_90"});
  EXPECT_EQ(module.functions.size(), 3u);
}

TEST(GoldenTest, MemoryInitializersAndShared) {
  Module module = parse_golden("memory.ptx");
  const VarDecl* coeffs = find_global(module, "coeffs");
  ASSERT_NE(coeffs, nullptr);
  EXPECT_EQ(coeffs->space, "const");
  EXPECT_EQ(coeffs->type, "b8");
  EXPECT_EQ(coeffs->align, 4);
  EXPECT_EQ(coeffs->dims, std::vector<int64_t>{16});
  EXPECT_TRUE(coeffs->has_init);
  // 1.0f = 0x3F800000 little-endian bytes {0,0,128,63}.
  std::vector<int64_t> bytes = init_ints(*coeffs);
  ASSERT_EQ(bytes.size(), 16u);
  EXPECT_EQ(std::vector<int64_t>(bytes.begin(), bytes.begin() + 4), (std::vector<int64_t>{0, 0, 128, 63}));

  const VarDecl* counter = find_global(module, "counter");
  ASSERT_NE(counter, nullptr);
  EXPECT_EQ(counter->type, "u32");
  EXPECT_EQ(init_ints(*counter), std::vector<int64_t>{7});

  const VarDecl* ptr = find_global(module, "ptr_to_buffer");
  ASSERT_NE(ptr, nullptr);
  ASSERT_EQ(ptr->init.size(), 1u);
  auto& target = std::get<SymbolOperand>(ptr->init[0]);
  EXPECT_EQ(target.name, "buffer");
  EXPECT_EQ(target.offset, 8);
  EXPECT_TRUE(target.generic);

  const VarDecl* ptrs = find_global(module, "ptrs");
  ASSERT_NE(ptrs, nullptr);
  ASSERT_EQ(ptrs->init.size(), 2u);
  EXPECT_EQ(std::get<SymbolOperand>(ptrs->init[0]).name, "counter");
  EXPECT_EQ(std::get<SymbolOperand>(ptrs->init[1]).offset, 16);

  const VarDecl* packed = find_global(module, "packed");
  ASSERT_NE(packed, nullptr);
  ASSERT_EQ(packed->init.size(), 19u);
  auto& low = std::get<SymbolOperand>(packed->init[1]);
  EXPECT_EQ(low.name, "packed_target");
  EXPECT_EQ(low.mask, 0xFFu);
  EXPECT_EQ(low.offset, 4);
  EXPECT_EQ(std::get<SymbolOperand>(packed->init[8]).mask, 0xFF00000000000000u);

  const VarDecl* managed = find_global(module, "managed_value");
  ASSERT_NE(managed, nullptr);
  EXPECT_EQ(managed->attributes, std::vector<std::string>{"managed"});

  const VarDecl* fscalar = find_global(module, "fscalar");
  ASSERT_NE(fscalar, nullptr);
  auto& f = std::get<ImmFloat>(fscalar->init[0]);
  EXPECT_TRUE(f.is_f32);
  EXPECT_EQ(f.bits, 0x3FC00000u);
  auto& d = std::get<ImmFloat>(find_global(module, "dscalar")->init[0]);
  EXPECT_FALSE(d.is_f32);
  EXPECT_EQ(d.bits, 0x4000000000000000u);

  const VarDecl* dyn = find_global(module, "dyn");
  ASSERT_NE(dyn, nullptr);
  EXPECT_TRUE(dyn->is_extern);
  EXPECT_EQ(dyn->space, "shared");
  EXPECT_EQ(dyn->dims, std::vector<int64_t>{0});

  const Function* reduce = find_function(module, "_Z6reducePKfPfi");
  ASSERT_NE(reduce, nullptr);
  bool saw_demoted_shared = false;
  for (const Statement& statement : reduce->body.statements) {
    auto* decl = std::get_if<VarDecl>(&statement);
    if (decl && decl->space == "shared" && decl->dims == std::vector<int64_t>{1024}) saw_demoted_shared = true;
  }
  EXPECT_TRUE(saw_demoted_shared);
  bool saw_sym_offset = false;  // ld.shared.f32 %f10, [dyn+4];
  for (const Instruction* inst : with_opcode(*reduce, "ld")) {
    auto* address = std::get_if<AddressOperand>(&inst->operands[1].value);
    if (address && address->base == "dyn" && address->offset == 4) saw_sym_offset = true;
  }
  EXPECT_TRUE(saw_sym_offset);

  // ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd7];
  const Function* vec4 = find_function(module, "_Z4vec4PK6float4PS_PVi");
  ASSERT_NE(vec4, nullptr);
  const Instruction* load = nullptr;
  for (const Instruction* inst : with_opcode(*vec4, "ld")) {
    if (has_modifiers(*inst, {"global", "v4", "f32"})) load = inst;
  }
  ASSERT_NE(load, nullptr);
  auto& vector = std::get<std::shared_ptr<VectorOperand>>(load->operands[0].value);
  ASSERT_EQ(vector->elements.size(), 4u);
  EXPECT_EQ(std::get<RegOperand>(vector->elements[3]).name.substr(0, 2), "%f");
  EXPECT_TRUE(std::get<AddressOperand>(load->operands[1].value).base_is_reg);
  bool saw_volatile = false;
  for (const Instruction* inst : with_opcode(*vec4, "st")) {
    if (!inst->modifiers.empty() && inst->modifiers[0] == "volatile") saw_volatile = true;
  }
  EXPECT_TRUE(saw_volatile);
}

TEST(GoldenTest, CallsPrototypesAndExterns) {
  Module module = parse_golden("calls.ptx");
  const Function* vprintf = find_function(module, "vprintf");
  ASSERT_NE(vprintf, nullptr);
  EXPECT_TRUE(vprintf->is_extern);
  EXPECT_FALSE(vprintf->has_body);
  ASSERT_EQ(vprintf->return_params.size(), 1u);
  EXPECT_EQ(vprintf->return_params[0].name, "func_retval0");
  EXPECT_EQ(vprintf->params.size(), 2u);
  EXPECT_EQ(find_function(module, "__assertfail")->params.size(), 5u);

  const Function* cross = find_function(module, "_Z5cross4Vec3S_");
  ASSERT_NE(cross, nullptr);
  EXPECT_TRUE(cross->has_body);
  ASSERT_EQ(cross->return_params.size(), 1u);
  EXPECT_EQ(cross->return_params[0].align, 4);
  EXPECT_EQ(cross->return_params[0].dims, std::vector<int64_t>{12});
  EXPECT_EQ(cross->params[1].dims, std::vector<int64_t>{12});

  const VarDecl* fns = find_global(module, "fns");
  ASSERT_NE(fns, nullptr);
  ASSERT_EQ(fns->init.size(), 2u);
  EXPECT_EQ(std::get<SymbolOperand>(fns->init[0]).name, "_Z3inci");
  EXPECT_FALSE(std::get<SymbolOperand>(fns->init[0]).generic);

  // call.uni (retval0), _Z5cross4Vec3S_, (param0, param1);
  const Function* use_calls = find_function(module, "_Z9use_callsP4Vec3PdP6__halfPi");
  ASSERT_NE(use_calls, nullptr);
  const Instruction* call = with_opcode(*use_calls, "call")[0];
  EXPECT_EQ(call->modifiers, std::vector<std::string>{"uni"});
  ASSERT_EQ(call->operands.size(), 3u);
  auto& returns = std::get<std::shared_ptr<VectorOperand>>(call->operands[0].value);
  ASSERT_EQ(returns->elements.size(), 1u);
  EXPECT_EQ(std::get<SymbolOperand>(returns->elements[0]).name, "retval0");
  EXPECT_EQ(std::get<SymbolOperand>(call->operands[1].value).name, "_Z5cross4Vec3S_");
  auto& args = std::get<std::shared_ptr<VectorOperand>>(call->operands[2].value);
  ASSERT_EQ(args->elements.size(), 2u);
  EXPECT_EQ(std::get<SymbolOperand>(args->elements[1]).name, "param1");
  // The call sits in a nested `{ // callseq }` block with its .param declarations.
  bool nested_param = false;
  for (const Statement& statement : use_calls->body.statements) {
    auto* block = std::get_if<std::shared_ptr<Block>>(&statement);
    if (!block) continue;
    for (const Statement& inner : (*block)->statements) {
      auto* decl = std::get_if<VarDecl>(&inner);
      if (decl && decl->space == "param" && decl->name == "param0") nested_param = true;
    }
  }
  EXPECT_TRUE(nested_param);

  // A call with no return value: call.uni _Z16nothing_returnedPi, (param0);
  bool saw_void_call = false;
  for (const Instruction* inst : with_opcode(*use_calls, "call")) {
    auto& rets = std::get<std::shared_ptr<VectorOperand>>(inst->operands[0].value);
    auto* callee = std::get_if<SymbolOperand>(&inst->operands[1].value);
    if (rets->elements.empty() && callee && callee->name == "_Z16nothing_returnedPi") saw_void_call = true;
  }
  EXPECT_TRUE(saw_void_call);

  // Indirect: call (retval0), %rd8, (param0), prototype_6;
  const Function* indirect = find_function(module, "_Z8indirectPii");
  ASSERT_NE(indirect, nullptr);
  ASSERT_EQ(indirect->prototypes.size(), 1u);
  EXPECT_EQ(indirect->prototypes[0].name, "prototype_6");
  EXPECT_EQ(indirect->prototypes[0].return_params.size(), 1u);
  ASSERT_EQ(indirect->prototypes[0].params.size(), 1u);
  EXPECT_EQ(indirect->prototypes[0].params[0].name, "_");
  const Instruction* icall = with_opcode(*indirect, "call")[0];
  ASSERT_EQ(icall->operands.size(), 4u);
  EXPECT_EQ(std::get<RegOperand>(icall->operands[1].value).name.substr(0, 3), "%rd");
  EXPECT_EQ(std::get<SymbolOperand>(icall->operands[3].value).name, "prototype_6");
  // Registers declared without '%' inside the callseq block are registers.
  bool temp_reg = false;
  for (const Statement& statement : indirect->body.statements) {
    auto* block = std::get_if<std::shared_ptr<Block>>(&statement);
    if (!block) continue;
    for (const Statement& inner : (*block)->statements) {
      auto* decl = std::get_if<VarDecl>(&inner);
      if (decl && decl->name == "temp_param_reg") temp_reg = decl->space == "reg";
    }
  }
  EXPECT_TRUE(temp_reg);
}

TEST(GoldenTest, WarpAtomicsAndPredicatePairs) {
  Module module = parse_golden("warp.ptx");
  const Function* atomics = find_function(module, "_Z7atomicsPiPyPfPd");
  ASSERT_NE(atomics, nullptr);
  std::vector<const Instruction*> atoms = with_opcode(*atomics, "atom");
  ASSERT_GE(atoms.size(), 6u);
  bool saw_f32_imm = false;
  for (const Instruction* inst : atoms) {
    if (inst->operands.size() == 3) {
      if (auto* f = std::get_if<ImmFloat>(&inst->operands[2].value)) saw_f32_imm |= f->is_f32 && f->bits == 0x3F800000u;
    }
  }
  EXPECT_TRUE(saw_f32_imm);
  EXPECT_FALSE(with_opcode(*atomics, "membar").empty());

  const Function* shuffles = find_function(module, "_Z8shufflesPi");
  ASSERT_NE(shuffles, nullptr);
  const Instruction* shfl = with_opcode(*shuffles, "shfl")[0];
  EXPECT_TRUE(has_modifiers(*shfl, {"sync", "down", "b32"}));
  EXPECT_TRUE(shfl->has_pred_pair);
  ASSERT_EQ(shfl->operands.size(), 6u);
  EXPECT_EQ(std::get<RegOperand>(shfl->operands[1].value).name.substr(0, 2), "%p");
  EXPECT_FALSE(with_opcode(*shuffles, "vote").empty());

  ASSERT_NE(find_function(module, "_Z6groupsPi"), nullptr);
  ASSERT_NE(find_function(module, "_Z9grid_syncPi"), nullptr);
}

TEST(GoldenTest, TexturesAndInlineAssembly) {
  Module module = parse_golden("texture.ptx");
  const Function* sample = find_function(module, "_Z6sampleyyPfi");
  ASSERT_NE(sample, nullptr);
  std::vector<const Instruction*> tex = with_opcode(*sample, "tex");
  ASSERT_FALSE(tex.empty());
  const Instruction* tex2d = nullptr;
  for (const Instruction* inst : tex) {
    if (inst->modifiers[0] == "2d") tex2d = inst;
  }
  ASSERT_NE(tex2d, nullptr);
  auto& address = std::get<AddressOperand>(tex2d->operands[1].value);
  EXPECT_TRUE(address.base_is_reg);
  ASSERT_NE(address.coords, nullptr);
  EXPECT_EQ(address.coords->elements.size(), 2u);
  EXPECT_FALSE(with_opcode(*sample, "suld").empty());
  EXPECT_FALSE(with_opcode(*sample, "sust").empty());

  const Function* inline_asm = find_function(module, "_Z10inline_asmPjjj");
  ASSERT_NE(inline_asm, nullptr);
  // add.u32 t, %r2, %r3; — 't' is a register declared in the inline block.
  bool saw_t = false, saw_envreg = false;
  for (const Instruction* inst : with_opcode(*inline_asm, "add")) {
    auto* reg = std::get_if<RegOperand>(&inst->operands[0].value);
    if (reg && reg->name == "t") saw_t = true;
  }
  for (const Instruction* inst : with_opcode(*inline_asm, "mov")) {
    auto* reg = std::get_if<RegOperand>(&inst->operands[1].value);
    if (reg && reg->name == "%envreg3") saw_envreg = true;
  }
  EXPECT_TRUE(saw_t);
  EXPECT_TRUE(saw_envreg);
}

TEST(GoldenTest, SeparateCompilationLinkage) {
  Module a = parse_golden("rdc_a.ptx");
  const Function* helper = find_function(a, "_Z6helperf");
  ASSERT_NE(helper, nullptr);
  EXPECT_TRUE(helper->is_extern);
  EXPECT_FALSE(helper->has_body);
  const VarDecl* counter = find_global(a, "shared_counter");
  ASSERT_NE(counter, nullptr);
  EXPECT_TRUE(counter->is_extern);
  EXPECT_FALSE(counter->has_init);

  Module b = parse_golden("rdc_b.ptx");
  const Function* definition = find_function(b, "_Z6helperf");
  ASSERT_NE(definition, nullptr);
  EXPECT_TRUE(definition->is_visible);
  EXPECT_TRUE(definition->has_body);
  EXPECT_TRUE(find_global(b, "shared_counter")->is_visible);
}

TEST(GoldenTest, LineInfo) {
  Module module = parse_golden("debug_lineinfo.ptx");
  ASSERT_EQ(module.files.size(), 1u);
  EXPECT_EQ(module.files[0].index, 1);
  EXPECT_TRUE(module.files[0].path.ends_with("debug.cu"));
  const Function* kernel = find_function(module, "_Z12debug_kernelPKfPfi");
  ASSERT_NE(kernel, nullptr);
  std::vector<const Statement*> statements;
  collect(kernel->body, &statements);
  bool saw_loc = false, saw_inlined = false;
  for (const Statement* statement : statements) {
    auto* loc = std::get_if<LocDirective>(statement);
    if (!loc) continue;
    saw_loc |= loc->file == 1 && loc->line == 9 && loc->col == 3;
    if (loc->inlined_line != 0) {
      saw_inlined = loc->function_name.starts_with("$L__info_string") && loc->inlined_file == 1;
    }
  }
  EXPECT_TRUE(saw_loc);
  EXPECT_TRUE(saw_inlined);
}

TEST(GoldenTest, DebugSectionsAreSkipped) {
  Module module = parse_golden("debug_g.ptx");
  EXPECT_EQ(module.target, (std::vector<std::string>{"sm_80", "debug"}));
  ASSERT_NE(find_function(module, "_Z12debug_kernelPKfPfi"), nullptr);
  ASSERT_NE(find_function(module, "_Z5norm2PKfi"), nullptr);
  EXPECT_EQ(module.files.size(), 1u);
}

}  // namespace
}  // namespace strata::ptx
