#include "compiler/target/sx/immediates.h"

#include <map>
#include <tuple>
#include <string_view>
#include <utility>
#include <vector>

namespace strata::compiler::sx {

using isa::Opcode;
using ir::Op;

bool is_wide_slot(const ir::Inst& i, char slot) {
  if (isa::op_info(i.isa_op).flags & isa::kMemory) {
    // Addresses: 64-bit for global/generic, 32-bit offsets for shared/local/const.
    if (slot == 'a')
      return i.isa_op != Opcode::LDC && (i.space == isa::MemSpace::GLOBAL || i.space == isa::MemSpace::GENERIC);
    return isa::type_bits(i.type) == 64;
  }
  if (i.isa_op == Opcode::IMADWIDE && slot == 'c') return true;
  if (i.isa_op == Opcode::IMADWIDE || i.isa_op == Opcode::IMULWIDE) return false;
  if ((i.isa_op == Opcode::SHL || i.isa_op == Opcode::SHR) && slot == 'b') return false;
  if (i.isa_op == Opcode::CVT) return isa::type_bits(i.type2) == 64;
  if (i.isa_op == Opcode::BFE && slot != 'a') return false;
  if (i.isa_op == Opcode::BFI && slot == 'b') return false;
  return isa::type_bits(i.type) == 64;
}

namespace {

// The slot ('a', 'b', 'c', 'p' for predicates, 'v' for VOTE's mask) source `index`
// of `i` maps onto, following the emitter's walk of the operand string.
char slot_of(const ir::Inst& i, size_t index) {
  std::string_view ops = isa::op_info(i.isa_op).operands;
  size_t si = 0, p = 0;
  while (p < ops.size()) {
    size_t q = ops.find(',', p);
    std::string_view tok = ops.substr(p, q == std::string_view::npos ? std::string_view::npos : q - p);
    while (!tok.empty() && tok.front() == ' ') tok.remove_prefix(1);
    p = q == std::string_view::npos ? ops.size() : q + 1;
    char slot = 0;
    if (tok == "a" || tok == "m" || tok == "cb") slot = 'a';
    else if (tok == "b") slot = 'b';
    else if (tok == "c") slot = 'c';
    else if (tok == "ps" || tok == "pq") slot = 'p';
    if (!slot || si >= i.srcs.size()) continue;
    if (si++ == index) return slot;
  }
  if (i.isa_op == Opcode::VOTE && si == index) return 'v';
  return 'p';
}

}  // namespace

bool immediate_needs_register(const ir::Inst& i, size_t index) {
  const ir::Operand& o = i.srcs[index];
  if (!o.is_imm()) return false;
  char slot = slot_of(i, index);
  if (slot == 'p') return false;
  if (slot == 'v') return o.imm != 0xffffffffull;
  bool wide = is_wide_slot(i, slot) || o.imm > 0xffffffffull;
  if (o.imm == 0 && !wide) return false;
  if (slot != 'b') return true;
  Opcode op = i.isa_op;
  bool imm_used = i.imm != 0 || op == Opcode::LD || op == Opcode::ST || op == Opcode::LDC || op == Opcode::ATOM ||
                  op == Opcode::BFI || op == Opcode::BAR || op == Opcode::TRAP;
  return imm_used || wide;
}

bool share_immediates(ir::Function& f) {
  if (f.blocks.empty()) return false;
  // (bits, wide) -> uses as (block, instruction, source).
  std::map<std::pair<uint64_t, bool>, std::vector<std::tuple<size_t, size_t, size_t>>> uses;
  for (size_t b = 0; b < f.blocks.size(); ++b)
    for (size_t k = 0; k < f.blocks[b].insts.size(); ++k) {
      const ir::Inst& i = f.blocks[b].insts[k];
      if (i.op != Op::kIsa) continue;
      for (size_t s = 0; s < i.srcs.size(); ++s) {
        if (!immediate_needs_register(i, s)) continue;
        char slot = slot_of(i, s);
        bool wide = (slot != 'v' && is_wide_slot(i, slot)) || i.srcs[s].imm > 0xffffffffull;
        uses[{i.srcs[s].imm, wide}].push_back({b, k, s});
      }
    }
  std::vector<ir::Inst> consts;
  for (auto& [key, list] : uses) {
    if (list.size() < 2) continue;
    ir::Inst c;
    c.op = Op::kConst;
    c.imm = key.first;
    c.defs = {f.new_value(key.second ? isa::DataType::U64 : isa::DataType::U32)};
    for (auto& [b, k, s] : list) f.blocks[b].insts[k].srcs[s] = ir::Operand::val(c.defs[0]);
    consts.push_back(std::move(c));
  }
  if (consts.empty()) return false;
  auto& entry = f.blocks[0].insts;
  size_t at = 0;
  while (at < entry.size() && entry[at].op == Op::kPhi) ++at;
  entry.insert(entry.begin() + static_cast<long>(at), consts.begin(), consts.end());
  return true;
}

}  // namespace strata::compiler::sx
