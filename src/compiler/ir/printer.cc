#include <fmt/format.h>

#include "compiler/ir/ir.h"

namespace strata::compiler::ir {
namespace {

const char* op_name(Op op) {
  switch (op) {
    case Op::kIsa: return "isa";
    case Op::kPhi: return "phi";
    case Op::kCopy: return "copy";
    case Op::kConst: return "const";
    case Op::kPack: return "pack";
    case Op::kExtract: return "extract";
    case Op::kSymAddr: return "symaddr";
    case Op::kSharedBase: return "sharedbase";
    case Op::kLocalBase: return "localbase";
    case Op::kStackPointer: return "sp";
    case Op::kBranch: return "br";
    case Op::kCondBranch: return "condbr";
    case Op::kExit: return "exit";
  }
  return "?";
}

}  // namespace

std::string print_function(const Function& f) {
  std::string out = fmt::format("func {}\n", f.name);
  for (size_t b = 0; b < f.blocks.size(); ++b) {
    out += fmt::format("bb{}:", b);
    for (int p : f.blocks[b].preds) out += fmt::format(" <-bb{}", p);
    out += "\n";
    for (const Inst& i : f.blocks[b].insts) {
      std::string line = "  ";
      for (size_t d = 0; d < i.defs.size(); ++d)
        line += i.defs[d] == kNoValue ? std::string(d ? ", _" : "_")
                                      : fmt::format("{}%{}:{}", d ? ", " : "", i.defs[d],
                                                    isa::type_name(f.type_of(i.defs[d])));
      if (!i.defs.empty()) line += " = ";
      if (i.op == Op::kIsa) {
        line += std::string(isa::op_info(i.isa_op).name);
        if (i.type != DataType::kNone) line += "." + std::string(isa::type_name(i.type));
        if (i.type2 != DataType::kNone) line += "." + std::string(isa::type_name(i.type2));
        if (i.mod) line += fmt::format(" mod={}", i.mod);
        if (i.imm) line += fmt::format(" imm={:#x}", i.imm);
      } else {
        line += op_name(i.op);
        if (i.op == Op::kSymAddr) line += " " + i.symbol;
        if (i.op == Op::kConst || i.op == Op::kExtract || i.op == Op::kSymAddr)
          line += fmt::format(" {:#x}", i.imm);
        if (i.op == Op::kCondBranch && i.negate) line += " !";
        if (i.uniform) line += ".uni";
      }
      for (size_t s = 0; s < i.srcs.size(); ++s) {
        line += s ? ", " : " ";
        line += i.srcs[s].is_imm() ? fmt::format("{:#x}", i.srcs[s].imm)
                                   : fmt::format("%{}", i.srcs[s].value);
      }
      for (int s : i.succs) line += fmt::format(" bb{}", s);
      out += line + "\n";
    }
  }
  return out;
}

}  // namespace strata::compiler::ir
