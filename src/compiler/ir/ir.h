// The compiler's SSA IR: functions of basic blocks of instructions over typed values.
//
// An instruction is either a Strata ISA operation (Op::kIsa: `isa_op` plus the ISA's
// modifier fields, so instruction selection is one-to-one) or a pseudo operation the
// back end expands (phi, copy, constants, pack/extract of register tuples, symbol
// addresses, branches). Values are defined exactly once (SSA); a value's type decides
// its register class: Pred -> predicate register, <=32 bits -> one GPR, 64 bits -> an
// aligned pair, 128 bits -> an aligned quad. Operands are values or immediates (raw
// bits, zero-extended to 64). Blocks end with exactly one terminator (kBranch,
// kCondBranch, kExit). Block 0 is the entry. Not thread-safe; a Function is a value.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "isa/inst.h"

namespace strata::compiler::ir {

using isa::DataType;

inline constexpr int kNoValue = -1;

enum class Op : uint8_t {
  kIsa,         // isa_op with defs[0] (and defs[1] = predicate result where the ISA has pd)
  kPhi,         // defs[0] = phi(srcs[i] from block preds[i])
  kCopy,        // defs[0] = srcs[0]
  kConst,       // defs[0] = imm (any width)
  kPack,        // defs[0] (64/128-bit) = {srcs[0], srcs[1], ...} (32-bit parts, low first)
  kExtract,     // defs[0] (32-bit) = part `imm` of srcs[0]
  kSymAddr,     // defs[0] (64-bit) = GPU VA of symbol `symbol` (via c[1]) + imm
  kSharedBase,  // defs[0] (64-bit) = generic address of shared offset 0
  kLocalBase,   // defs[0] (64-bit) = generic address of local offset 0
  kStackPointer,  // defs[0] (32-bit) = local offset of the current frame (docs/abi.md)
  kBranch,      // goto succs[0]
  kCondBranch,  // if (srcs[0] xor negate) goto succs[0] else succs[1]; `uniform` if warp-uniform
  kExit,        // the thread exits; imm 1: returns from a called function instead
};

// An operand: a value, or raw immediate bits. For predicate operands an immediate
// means a constant (non-zero: true). Sources of kIsa instructions map, in order, onto
// the ISA operand slots a, b, c, ps, pq of the opcode's OPERANDS string (isa/opcodes.def;
// the memory operand m and bank operand cb take the slot a); defs map onto d and pd,
// and a def may be kNoValue (result discarded: RZ / PT).
struct Operand {
  int value = kNoValue;  // kNoValue: immediate
  uint64_t imm = 0;
  static Operand val(int v) { return {v, 0}; }
  static Operand immediate(uint64_t bits) { return {kNoValue, bits}; }
  bool is_imm() const { return value == kNoValue; }
};

struct Inst {
  Op op = Op::kIsa;
  isa::Opcode isa_op = isa::Opcode::NOP;
  std::vector<int> defs;
  std::vector<Operand> srcs;
  // ISA fields (kIsa); imm doubles as the memory offset, barrier id, trap code...
  DataType type = DataType::kNone;
  DataType type2 = DataType::kNone;
  uint8_t mod = 0;
  isa::MemSpace space = isa::MemSpace::GENERIC;
  isa::MemSem sem = isa::MemSem::WEAK;
  isa::MemScope scope = isa::MemScope::CTA;
  uint64_t imm = 0;
  bool negate = false;       // kCondBranch: branch when the predicate is false; ISA: ps negated
  bool uniform = false;      // kCondBranch: bra.uni
  // kSymAddr: the symbol. kConst "@func:NAME": the code address of function NAME.
  // kIsa CALL "@func:NAME": a direct call. LD/ST LOCAL "@out": imm is relative to the
  // end of the current frame (a callee's frame: arguments and results, docs/abi.md).
  std::string symbol;
  std::vector<int> succs;    // terminators
  int ptx_line = 0;          // source line of the PTX instruction it came from
  int loc_file = 0, loc_line = 0, loc_col = 0;  // .loc in effect

  bool is_terminator() const {
    return op == Op::kBranch || op == Op::kCondBranch || op == Op::kExit;
  }
  // True if removing the instruction (when its defs are unused) changes behaviour.
  bool has_side_effects() const;
};

struct Block {
  std::vector<Inst> insts;
  std::vector<int> preds;  // kept by Function::recompute_preds(); phi srcs follow this order
};

struct ValueInfo {
  DataType type = DataType::kNone;
};

struct Function {
  std::string name;
  std::vector<Block> blocks;
  std::vector<ValueInfo> values;

  int new_value(DataType t) {
    values.push_back({t});
    return static_cast<int>(values.size()) - 1;
  }
  int new_block() {
    blocks.emplace_back();
    return static_cast<int>(blocks.size()) - 1;
  }
  DataType type_of(int v) const { return values[v].type; }
  // Recomputes every block's preds from the terminators (sorted by block index,
  // duplicates kept) and re-orders each phi's sources to match (a phi's sources for
  // the same predecessor are the same value by construction).
  void recompute_preds();
};

// Register class of a value type.
enum class RegClass : uint8_t { kPred, k32, k64, k128 };
RegClass reg_class(DataType t);
int class_regs(RegClass c);  // GPRs: 1, 2, 4; predicates: 1

// A printable listing ("%5:u32 = IADD.u32 %3, 0x1"), for tests and debugging.
std::string print_function(const Function& f);

// Structural checks: each block ends in exactly one terminator and has no other;
// successors exist; phis come first, have one source per predecessor; every value is
// defined once and every used value is defined; operand counts fit the op. Returns an
// empty string when valid, else the first problem found.
std::string verify_function(const Function& f);

}  // namespace strata::compiler::ir
