#include "isa/disasm.h"

#include <fmt/format.h>

#include <array>
#include <functional>
#include <set>

#include "isa/encode.h"
#include "isa/fields.h"
#include "isa/modifiers.h"
#include "isa/operands.h"

namespace strata::isa {
namespace {

using TargetNamer = std::function<std::string(uint32_t)>;

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& ch : out) {
    if (ch >= 'a' && ch <= 'z') ch = static_cast<char>(ch - 'a' + 'A');
  }
  return out;
}

std::string reg(uint8_t r) { return r == kRZ ? "RZ" : fmt::format("R{}", r); }
std::string pred(uint8_t p) { return p == kPT ? "PT" : fmt::format("P{}", p); }
std::string hex(uint32_t v) { return fmt::format("0x{:x}", v); }

// "[R4+0x8]": the offset is shown signed.
std::string address(uint8_t base, uint32_t offset) {
  const auto signed_offset = static_cast<int32_t>(offset);
  if (offset == 0) return fmt::format("[{}]", reg(base));
  if (signed_offset < 0) {
    return fmt::format("[{}-0x{:x}]", reg(base), 0u - offset);
  }
  return fmt::format("[{}+0x{:x}]", reg(base), offset);
}

// Tracks which fields the printed syntax has expressed; everything else that differs
// from the default Inst becomes a raw "{field=value}" override.
struct Consumed {
  std::array<bool, kNumFields> field{};
  bool imm_shown = false;
  void mark(Field f) { field[static_cast<int>(f)] = true; }
  bool has(Field f) const { return field[static_cast<int>(f)]; }
};

bool is_memory(const Inst& inst) { return (op_info(inst.op).flags & kMemory) != 0; }

std::string_view sem_name(const Inst& inst) {
  if (inst.sem == MemSem::RELEASE &&
      ((op_info(inst.op).flags & kAtomic) != 0 || inst.op == Opcode::MEMBAR)) {
    return "ACQ_REL";
  }
  return enum_name(inst.sem);
}

void append_modifiers(const Inst& inst, std::string& out) {
  auto add = [&out](std::string_view s) {
    out += '.';
    out += s;
  };
  const uint8_t mod = inst.mod;
  switch (mod_kind(inst.op)) {
    case ModKind::kCompare:
      add(enum_name(static_cast<CmpOp>(mod & 0x0f)));
      add(enum_name(static_cast<BoolOp>((mod >> 4) & 3)));
      break;
    case ModKind::kPredLogic: add(enum_name(static_cast<BoolOp>((mod >> 4) & 3))); break;
    case ModKind::kFloat:
      if ((mod & 3) != 0) add(enum_name(static_cast<Round>(mod & 3)));
      if (mod & kModFtz) add("FTZ");
      if (mod & kModSat) add("SAT");
      if (mod & kModRoundInt) add("INT");
      if (mod & kModApprox) add("APPROX");
      break;
    case ModKind::kMufu: add(enum_name(static_cast<MufuOp>(mod))); break;
    case ModKind::kPrmt: add(enum_name(static_cast<PrmtMode>(mod))); break;
    case ModKind::kAtom: add(enum_name(static_cast<AtomOp>(mod))); break;
    case ModKind::kVote: add(enum_name(static_cast<VoteOp>(mod))); break;
    case ModKind::kShfl: add(enum_name(static_cast<ShflOp>(mod))); break;
    case ModKind::kBar: add(enum_name(static_cast<BarOp>(mod))); break;
    case ModKind::kFence:
      if (mod & kModFenceSc) add("SC");
      break;
    case ModKind::kCache:
      if (mod & kModCacheGlobal) add("CG");
      break;
    case ModKind::kNone:
    case ModKind::kSpecialReg:
    case ModKind::kConstBank:
    case ModKind::kConvBarrier: break;  // shown as operands
  }
  if (is_memory(inst)) {
    if (inst.space != MemSpace::GENERIC) add(enum_name(inst.space));
    if (inst.sem != MemSem::WEAK) add(sem_name(inst));
    if (inst.scope != MemScope::CTA || inst.sem != MemSem::WEAK || inst.op == Opcode::MEMBAR) {
      add(enum_name(inst.scope));
    }
  }
  if (inst.type != DataType::kNone || inst.type2 != DataType::kNone) add(upper(type_name(inst.type)));
  if (inst.type2 != DataType::kNone) add(upper(type_name(inst.type2)));
}

std::string operand(const Inst& inst, OperandKind kind, Consumed& used,
                    const TargetNamer& target_name) {
  switch (kind) {
    case OperandKind::kD: used.mark(Field::rd); return reg(inst.rd);
    case OperandKind::kA:
      used.mark(Field::ra);
      if (inst.op == Opcode::BAR && inst.ra == kRZ) {  // barrier number as an immediate
        used.mark(Field::imm);
        used.imm_shown = true;
        return hex(inst.imm);
      }
      return reg(inst.ra);
    case OperandKind::kB:
      used.mark(Field::b_imm);
      if (inst.b_imm) {
        used.mark(Field::imm);
        used.imm_shown = true;
        return hex(inst.imm);
      }
      used.mark(Field::rb);
      return reg(inst.rb);
    case OperandKind::kC: used.mark(Field::rc); return reg(inst.rc);
    case OperandKind::kPd: used.mark(Field::pd); return pred(inst.pd);
    case OperandKind::kPs:
      used.mark(Field::ps);
      used.mark(Field::ps_neg);
      return (inst.ps_neg ? "!" : "") + pred(inst.ps);
    case OperandKind::kPq:
      // PT is canonically rb = RZ (whose low bits are 7); other rb bits are overrides.
      if (inst.rb == kRZ || inst.rb < kNumPreds) used.mark(Field::rb);
      return ((inst.mod & kModPqNeg) ? "!" : "") + pred(inst.rb & 7);
    case OperandKind::kImm:
      used.mark(Field::imm);
      used.imm_shown = true;
      return hex(inst.imm);
    case OperandKind::kTarget:
      used.mark(Field::imm);
      used.imm_shown = true;
      return target_name(inst.imm);
    case OperandKind::kSpecialReg:
      return std::string(special_reg_name(static_cast<SpecialReg>(inst.mod)));
    case OperandKind::kConvBarrier: return fmt::format("B{}", inst.mod);
    case OperandKind::kMemory:
      used.mark(Field::ra);
      used.mark(Field::imm);
      used.imm_shown = true;
      return address(inst.ra, inst.imm);
    case OperandKind::kConstBank:
      used.mark(Field::ra);
      used.mark(Field::imm);
      used.imm_shown = true;
      return fmt::format("c[{}]{}", inst.mod, address(inst.ra, inst.imm));
  }
  return "?";
}

std::string render(const Inst& inst, bool with_control, const TargetNamer& target_name) {
  if (Status s = validate(inst); !s.ok()) {
    return fmt::format("<illegal instruction: {}>", s.message());
  }
  std::string out;
  if (inst.guard != kPT || inst.guard_neg) {
    out += fmt::format("@{}{} ", inst.guard_neg ? "!" : "", pred(inst.guard));
  }
  out += op_info(inst.op).name;
  append_modifiers(inst, out);

  Consumed used;
  for (Field f : {Field::opcode, Field::guard, Field::guard_neg, Field::type, Field::type2,
                  Field::stall, Field::yield, Field::wbar, Field::rbar, Field::wait}) {
    used.mark(f);
  }
  if (is_memory(inst)) {
    used.mark(Field::space);
    used.mark(Field::sem);
    used.mark(Field::scope);
  }
  const uint8_t mod_mask = mod_syntax_mask(mod_kind(inst.op));
  if ((inst.mod & ~mod_mask) == 0) used.mark(Field::mod);

  const auto kinds = operand_kinds(inst.op);
  for (size_t i = 0; i < kinds.size(); ++i) {
    out += i == 0 ? " " : ", ";
    out += operand(inst, kinds[i], used, target_name);
  }
  // An immediate no operand shows (BFI's length, for one) is a trailing operand.
  if (!used.imm_shown && inst.imm != 0) {
    out += kinds.empty() ? " " : ", ";
    out += hex(inst.imm);
  }
  used.mark(Field::imm);

  const Inst defaults;
  std::vector<std::string> braces;
  for (int i = 0; i < kNumFields; ++i) {
    const auto f = static_cast<Field>(i);
    if (used.has(f) || get_field(inst, f) == get_field(defaults, f)) continue;
    const uint64_t v = get_field(inst, f);
    braces.push_back(f == Field::mod ? fmt::format("mod=0x{:x}", v)
                                     : fmt::format("{}={}", field_info(f).name, v));
  }
  if (with_control) {
    const Control& c = inst.ctrl;
    braces.push_back(fmt::format("stall={}", c.stall));
    if (c.yield) braces.push_back("yield");
    auto bar = [](uint8_t b) { return b == kNoDepBarrier ? std::string("-") : fmt::format("{}", b); };
    braces.push_back("wbar=" + bar(c.wbar));
    braces.push_back("rbar=" + bar(c.rbar));
    braces.push_back(fmt::format("wait=0x{:x}", c.wait));
  }
  if (!braces.empty()) out += fmt::format(" {{{}}}", fmt::join(braces, ", "));
  out += ';';
  return out;
}

}  // namespace

std::string disassemble(const Inst& inst, bool with_control) {
  return render(inst, with_control, [](uint32_t target) { return fmt::format("{}", target); });
}

std::string disassemble_program(std::span<const Inst> program, bool with_control) {
  std::set<uint32_t> labels;
  for (const Inst& inst : program) {
    if (!validate(inst).ok()) continue;
    for (OperandKind k : operand_kinds(inst.op)) {
      if (k == OperandKind::kTarget && inst.imm < program.size()) labels.insert(inst.imm);
    }
  }
  const TargetNamer namer = [&labels](uint32_t target) {
    return labels.count(target) ? fmt::format("L{}", target) : fmt::format("{}", target);
  };
  std::string out;
  const int width = program.size() > 9999 ? 8 : 4;
  for (size_t i = 0; i < program.size(); ++i) {
    if (labels.count(static_cast<uint32_t>(i))) out += fmt::format("L{}:\n", i);
    out += fmt::format("/*{:0{}}*/ {}\n", i, width, render(program[i], with_control, namer));
  }
  return out;
}

}  // namespace strata::isa
