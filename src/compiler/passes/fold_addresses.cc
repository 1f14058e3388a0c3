// Address offsets folded into memory instructions (passes.h, fold_address_offsets).
//
// nvcc's PTX computes many addresses as `add r, base, const` followed by `ld [r]` (for
// example each ldmatrix fragment of a GEMM tile, each element of an unrolled shared-memory
// loop); ptxas folds the constant into the instruction's offset. So does this pass: a LD,
// ST or LDSM whose address is the single definition `IADD x, c` takes x as its address and
// c added to its offset. A 32-bit address wraps modulo 2^32, as the offset does
// (docs/isa.md "Immediates"); a 64-bit one folds only when the new offset still fits the
// signed 32-bit field. The IADD is left to dead-code elimination.
#include <cstdint>
#include <limits>
#include <vector>

#include "compiler/passes/passes.h"

namespace strata::compiler::passes {
namespace {

using isa::Opcode;

bool takes_address_offset(const ir::Inst& i) {
  return i.op == ir::Op::kIsa && i.symbol.empty() && !i.srcs.empty() && !i.srcs[0].is_imm() &&
         (i.isa_op == Opcode::LD || i.isa_op == Opcode::ST || i.isa_op == Opcode::LDSM);
}

}  // namespace

bool fold_address_offsets(ir::Function& f) {
  const size_t nv = f.values.size();
  std::vector<const ir::Inst*> def(nv, nullptr);
  std::vector<int> defs(nv, 0);
  for (const auto& b : f.blocks)
    for (const ir::Inst& i : b.insts)
      for (int d : i.defs)
        if (d != ir::kNoValue) {
          ++defs[static_cast<size_t>(d)];
          def[static_cast<size_t>(d)] = &i;
        }
  bool changed = false;
  for (auto& b : f.blocks)
    for (ir::Inst& i : b.insts) {
      if (!takes_address_offset(i)) continue;
      for (;;) {
        const int a = i.srcs[0].value;
        if (defs[static_cast<size_t>(a)] != 1) break;
        const ir::Inst& add = *def[static_cast<size_t>(a)];
        if (add.op != ir::Op::kIsa || add.isa_op != Opcode::IADD || add.srcs.size() != 2 ||
            add.defs.size() != 1 || add.srcs[0].is_imm() == add.srcs[1].is_imm())
          break;
        const ir::Operand& x = add.srcs[0].is_imm() ? add.srcs[1] : add.srcs[0];
        const uint64_t c = add.srcs[0].is_imm() ? add.srcs[0].imm : add.srcs[1].imm;
        const ir::RegClass cls = ir::reg_class(f.type_of(a));
        if (ir::reg_class(f.type_of(x.value)) != cls || ir::reg_class(add.type) != cls) break;
        if (cls == ir::RegClass::k32) {
          i.imm = static_cast<uint32_t>(i.imm + c);
        } else if (cls == ir::RegClass::k64) {
          const int64_t sum = static_cast<int64_t>(i.imm) + static_cast<int64_t>(c);
          if (sum < std::numeric_limits<int32_t>::min() ||
              sum > std::numeric_limits<int32_t>::max())
            break;
          i.imm = static_cast<uint64_t>(sum);
        } else {
          break;
        }
        i.srcs[0] = x;
        changed = true;
      }
    }
  return changed;
}

}  // namespace strata::compiler::passes
