// Prints the generated sections of docs/isa.md (the instruction word, the field table,
// the modifier enums and the instruction list) from the ISA tables, so the document
// never drifts from them. The test isa_doc_up_to_date compares the output with the text
// between "<!-- BEGIN GENERATED -->" and "<!-- END GENERATED -->" in docs/isa.md.
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "isa/fields.h"
#include "isa/inst.h"
#include "isa/latency.h"
#include "isa/pipe.h"
#include "isa/modifiers.h"

namespace strata::isa {
namespace {

std::string pipe_name(Pipe p) {
  switch (p) {
    case Pipe::ALU: return "ALU";
    case Pipe::FMA: return "FMA";
    case Pipe::FP64: return "FP64";
    case Pipe::MUFU: return "MUFU";
    case Pipe::LSU: return "LSU";
    case Pipe::CBU: return "CBU";
  }
  return "?";
}

std::string flag_names(uint32_t flags) {
  static constexpr std::pair<uint32_t, const char*> kFlags[] = {
      {kBranch, "branch"}, {kMemory, "memory"}, {kLoad, "load"},   {kStore, "store"},
      {kAtomic, "atomic"}, {kBarrier, "barrier"}, {kExit, "exit"}, {kSync, "sync"}};
  std::vector<std::string> names;
  for (auto [bit, name] : kFlags) {
    if (flags & bit) names.emplace_back(name);
  }
  return names.empty() ? "" : fmt::format("{}", fmt::join(names, ", "));
}

std::string escape_cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

// One 64-bit half of the word as an ASCII box diagram, most significant field first:
//   127    122 121 119
//  +--------+-------+
//  |  wait  | rbar  |
//  +--------+-------+
void print_word_half(int half) {
  std::string bits, border = "+", names = "|";
  for (int i = kNumFields - 1; i >= 0; --i) {
    const FieldInfo& f = field_info(static_cast<Field>(i));
    if (f.lsb / 64 != half) continue;
    const std::string hi = fmt::format("{}", f.lsb + f.width - 1);
    const std::string lo = fmt::format("{}", f.lsb);
    size_t width = std::max(f.name.size() + 2, f.width == 1 ? hi.size() + 1 : hi.size() + lo.size() + 2);
    std::string label = f.width == 1 ? hi : hi + std::string(width - hi.size() - lo.size(), ' ') + lo;
    bits += " " + label + std::string(width - label.size(), ' ');
    border += std::string(width, '-') + "+";
    const size_t pad = width - f.name.size();
    names += std::string(pad / 2, ' ') + std::string(f.name) + std::string(pad - pad / 2, ' ') + "|";
  }
  while (!bits.empty() && bits.back() == ' ') bits.pop_back();
  fmt::print("```\n{}\n{}\n{}\n{}\n```\n", bits, border, names, border);
}

template <typename E>
void print_enum(std::string_view title, std::string_view where) {
  std::vector<std::string> items;
  int i = 0;
  for (std::string_view n : enum_names<E>()) items.push_back(fmt::format("{}={}", n, i++));
  fmt::print("- **{}** ({}): {}\n", title, where, fmt::join(items, ", "));
}

// The latency classes of isa/latencies.def and the opcodes in each ("(F64)": when the
// instruction's type or type2 is F64).
void print_latencies() {
  fmt::print("\n### Latencies\n\n");
  fmt::print("From `src/isa/latencies.def`. Fixed: a consumer may issue that many cycles (summed\n"
             "stall counts) after the producer. Variable: the producer sets `wbar` and consumers\n"
             "wait on it. Late source reads: an instruction overwriting a source waits on the\n"
             "reader's `rbar`.\n\n");
  fmt::print("| class | latency | sources read | opcodes | meaning |\n|---|---|---|---|---|\n");
  for (int c = 0; c < static_cast<int>(LatencyClass::kCount); ++c) {
    const auto cls = static_cast<LatencyClass>(c);
    const LatencyInfo& l = latency_class_info(cls);
    std::vector<std::string> ops;
    for (int i = 0; i < kNumOpcodes; ++i) {
      const auto op = static_cast<Opcode>(i);
      const bool normal = latency_class(op, false) == cls, f64 = latency_class(op, true) == cls;
      if (normal) ops.push_back(fmt::format("`{}`", op_info(op).name));
      else if (f64) ops.push_back(fmt::format("`{}` (F64)", op_info(op).name));
    }
    const std::string latency = l.kind == LatencyKind::kFixed      ? fmt::format("{} cycles", l.cycles)
                                : l.kind == LatencyKind::kVariable ? std::string("variable")
                                                                   : std::string("no result");
    fmt::print("| {} | {} | {} | {} | {} |\n", l.name, latency,
               l.reads == SourceReads::kLate ? "late" : "at issue", fmt::join(ops, " "), escape_cell(l.description));
  }
}

// The execution pipes of isa/pipes.def and the opcodes on each.
void print_pipes() {
  fmt::print("\n### Execution pipes\n\n");
  fmt::print(
      "From `src/isa/pipes.def` (`isa::pipe_of`; each line there cites its reason): the pipe\n"
      "the simulator's statistics and the timing models count an instruction on. \"(F64)\":\n"
      "when the instruction's type or type2 is F64. A `CVT` between two integer types is on\n"
      "`int`.\n\n");
  fmt::print("| pipe | opcodes |\n|---|---|\n");
  for (int p = 0; p < kNumPipeClasses; ++p) {
    const auto pipe = static_cast<PipeClass>(p);
    std::vector<std::string> ops;
    for (int i = 0; i < kNumOpcodes; ++i) {
      const auto op = static_cast<Opcode>(i);
      if (pipe_of(op, false) == pipe)
        ops.push_back(fmt::format("`{}`", op_info(op).name));
      else if (pipe_of(op, true) == pipe)
        ops.push_back(fmt::format("`{}` (F64)", op_info(op).name));
    }
    if (pipe == PipeClass::kInt) ops.push_back("`CVT` (integer to integer)");
    fmt::print("| {} | {} |\n", pipe_class_name(pipe), fmt::join(ops, " "));
  }
}

void print_doc() {
  fmt::print("### Instruction word\n\n");
  fmt::print(
      "128 bits stored as two little-endian 64-bit halves, low half first; bit 0 is the\n"
      "least significant bit of the low half. No bit is reserved.\n\n");
  fmt::print("High half (bits 127-64):\n\n");
  print_word_half(1);
  fmt::print("\nLow half (bits 63-0):\n\n");
  print_word_half(0);

  fmt::print("\n### Fields\n\n| field | bits | meaning |\n|---|---|---|\n");
  for (int i = 0; i < kNumFields; ++i) {
    const FieldInfo& f = field_info(static_cast<Field>(i));
    fmt::print("| `{}` | {}-{} | {} |\n", f.name, f.lsb, f.lsb + f.width - 1, f.description);
  }

  fmt::print("\n### Modifier values\n\n");
  std::vector<std::string> types;
  for (int t = 0; t < static_cast<int>(DataType::kCount); ++t) {
    const auto dt = static_cast<DataType>(t);
    types.push_back(fmt::format("{}={} ({} bits)", type_name(dt), t, type_bits(dt)));
  }
  fmt::print("- **DataType** (`type`, `type2`; assembly in upper case): {}\n", fmt::join(types, ", "));
  print_enum<CmpOp>("CmpOp", "mod bits 0-3 of ISETP/FSETP");
  print_enum<BoolOp>("BoolOp", "mod bits 4-5 of ISETP/FSETP/PLOP");
  print_enum<Round>("Round", "mod bits 0-1 of the float kind");
  print_enum<MufuOp>("MufuOp", "mod of MUFU");
  print_enum<AtomOp>("AtomOp", "mod of ATOM");
  print_enum<VoteOp>("VoteOp", "mod of VOTE");
  print_enum<ShflOp>("ShflOp", "mod of SHFL");
  print_enum<BarOp>("BarOp", "mod of BAR");
  print_enum<PrmtMode>("PrmtMode", "mod of PRMT");
  print_enum<MemSpace>("MemSpace", "`space`");
  print_enum<MemSem>("MemSem", "`sem`; 3 is printed ACQ_REL on ATOM and MEMBAR");
  print_enum<MemScope>("MemScope", "`scope`");
  std::vector<std::string> srs;
  for (int r = 0; r < static_cast<int>(SpecialReg::kCount); ++r) {
    srs.push_back(fmt::format("{}={}", special_reg_name(static_cast<SpecialReg>(r)), r));
  }
  fmt::print("- **SpecialReg** (mod of S2R): {}\n", fmt::join(srs, ", "));

  fmt::print("\n### Instructions\n\n");
  fmt::print("| opcode | mnemonic | pipe | operands | flags | mod kind | summary |\n");
  fmt::print("|---|---|---|---|---|---|---|\n");
  for (int i = 0; i < kNumOpcodes; ++i) {
    const auto op = static_cast<Opcode>(i);
    const OpInfo& info = op_info(op);
    const ModKind kind = mod_kind(op);
    const std::string operands =
        info.operands.empty() ? std::string() : fmt::format("`{}`", info.operands);
    fmt::print("| {} | `{}` | {} | {} | {} | {} | {} |\n", i, info.name, pipe_name(info.pipe),
               operands, flag_names(info.flags),
               kind == ModKind::kNone ? "" : mod_kind_name(kind), escape_cell(info.summary));
  }
  print_latencies();
  print_pipes();
}

}  // namespace
}  // namespace strata::isa

int main() {
  strata::isa::print_doc();
  return 0;
}
