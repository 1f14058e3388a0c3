// Warp collectives without an ISA instruction of their own: redux.sync and
// match.any/all.sync, built from WARPSYNC, SHFL and integer operations.
//
// The PTX ISA defines all three over "the non-exited threads in membermask": the
// members here are `live` = membermask & the active lanes right after the WARPSYNC,
// which converges every non-exited member (threads that exited, or that a partial
// last warp does not have, are not members).
//
// redux.sync op d, a, membermask: every member gets op over the members' a. A member
// combines, at step k, with the highest member of the other half of its 2^(k+1)-lane
// group (SHFL.IDX from that lane), skipping the step when that half has no member; by
// induction every member of a group holds the reduction over the group's members, so
// the result is exact for any mask. (A plain SHFL.BFLY butterfly would read exited
// lanes even under the full mask.)
//
// match.any.sync d, a, membermask: bit L of d is set when lane L is a member and its a
// equals the thread's own a; match.all.sync d|p: p = every member has the same a, d =
// the members if p, else 0. Both compare against each lane's value in turn (32
// SHFL.IDX, unrolled); a lane that is not a member (inactive or exited, so SHFL returns
// a value that means nothing) is cleared by the final AND with the members.
#include <fmt/format.h>

#include "compiler/ir/lowerer.h"

namespace strata::compiler::ir {
namespace {

constexpr uint64_t kShflFullWarp = 0x1f;  // clamp 31, no segments

}  // namespace

int Lowerer::live_members(const Operand& mask) {
  Inst i;  // activemask: VOTE.BALLOT of PT over the running lanes
  i.op = Op::kIsa;
  i.isa_op = Opcode::VOTE;
  i.type = DataType::U32;
  i.mod = static_cast<uint8_t>(isa::VoteOp::BALLOT);
  i.srcs = {Operand::immediate(1)};
  i.defs = {f_.new_value(DataType::U32), kNoValue};
  int active = emit(std::move(i));
  return isa_op(Opcode::AND, DataType::U32, DataType::U32, {Operand::val(active), mask});
}

Status Lowerer::lower_collective(const ptx::Instruction& in, bool* handled) {
  *handled = true;
  const std::string& op = in.opcode;
  if (op != "redux" && op != "match") {
    *handled = false;
    return ok_status();
  }
  if (!has(in, "sync")) return invalid(in.loc, op + " needs .sync");
  auto shfl = [&](isa::ShflOp sop, int value, Operand lane) {
    Inst i;
    i.op = Op::kIsa;
    i.isa_op = Opcode::SHFL;
    i.type = DataType::U32;
    i.mod = static_cast<uint8_t>(sop);
    i.srcs = {Operand::val(value), lane, Operand::immediate(kShflFullWarp)};
    i.defs = {f_.new_value(DataType::U32), kNoValue};
    return emit(std::move(i));
  };
  ASSIGN_OR_RETURN(DataType t, inst_type(*this, in));

  if (op == "redux") {
    RETURN_IF_ERROR(want_operands(in, 3));
    Opcode combine;
    DataType ct = arith_type(t);
    bool bitwise = has(in, "and") || has(in, "or") || has(in, "xor");
    if (has(in, "add")) combine = Opcode::IADD;
    else if (has(in, "min")) combine = Opcode::IMIN;
    else if (has(in, "max")) combine = Opcode::IMAX;
    else if (has(in, "and")) combine = Opcode::AND;
    else if (has(in, "or")) combine = Opcode::OR;
    else if (has(in, "xor")) combine = Opcode::XOR;
    else return invalid(in.loc, "redux.sync needs .add, .min, .max, .and, .or or .xor");
    if (t == DataType::F32) return unsupported(in.loc, "redux.sync on .f32 is not supported yet");
    if (bitwise ? t != DataType::B32 : (t != DataType::U32 && t != DataType::S32))
      return invalid(in.loc, fmt::format("redux.sync.{} does not take .{}", in.modifiers[1], isa::type_name(t)));
    ASSIGN_OR_RETURN(int acc, read_value(in.operands[1], ct));
    ASSIGN_OR_RETURN(Operand mask, read(in.operands[2], DataType::U32));
    isa_op(Opcode::WARPSYNC, DataType::kNone, DataType::kNone, {mask});
    const Operand live = Operand::val(live_members(mask));
    int lane = special(isa::SpecialReg::LANEID);
    for (int k = 0; k < 5; ++k) {
      uint32_t half = 1u << k;
      // base = first lane of the other half; members = its member lanes (bit 0 = base).
      int flipped = isa_op(Opcode::XOR, DataType::U32, DataType::U32, {Operand::val(lane), Operand::immediate(half)});
      int base = isa_op(Opcode::AND, DataType::U32, DataType::U32, {Operand::val(flipped), Operand::immediate(~(half - 1) & 31u)});
      int shifted = isa_op(Opcode::SHR, DataType::U32, DataType::U32, {live, Operand::val(base)});
      uint64_t half_bits = half == 16 ? 0xffffu : (uint64_t{1} << half) - 1;
      int members = isa_op(Opcode::AND, DataType::U32, DataType::U32, {Operand::val(shifted), Operand::immediate(half_bits)});
      int any = isa_op(Opcode::ISETP, DataType::U32, DataType::Pred,
                       {Operand::val(members), Operand::immediate(0), Operand::immediate(1)},
                       static_cast<uint8_t>(isa::CmpOp::NE));
      int top = isa_op(Opcode::BFIND, DataType::U32, DataType::U32, {Operand::val(members)});
      int src = isa_op(Opcode::IADD, DataType::U32, DataType::U32, {Operand::val(base), Operand::val(top)});
      int other = shfl(isa::ShflOp::IDX, acc, Operand::val(src));
      int both = isa_op(combine, ct, ct, {Operand::val(acc), Operand::val(other)});
      acc = isa_op(Opcode::SEL, ct, ct, {Operand::val(both), Operand::val(acc), Operand::val(any)});
    }
    return write(in.operands[0], acc);
  }

  // match.any / match.all
  bool all = has(in, "all");
  if (!all && !has(in, "any")) return invalid(in.loc, "match.sync needs .any or .all");
  if (t != DataType::B32 && t != DataType::B64) return invalid(in.loc, "match.sync takes .b32 or .b64");
  bool pair = in.has_pred_pair;
  if (pair && !all) return invalid(in.loc, "match.any.sync has no predicate result");
  RETURN_IF_ERROR(want_operands(in, pair ? 4 : 3));
  size_t s = pair ? 2 : 1;
  ASSIGN_OR_RETURN(int a, read_value(in.operands[s], arith_type(t)));
  ASSIGN_OR_RETURN(Operand mask, read(in.operands[s + 1], DataType::U32));
  bool wide = t == DataType::B64;
  int lo = wide ? extract(a, 0) : a, hi = wide ? extract(a, 1) : kNoValue;
  isa_op(Opcode::WARPSYNC, DataType::kNone, DataType::kNone, {mask});
  const Operand live = Operand::val(live_members(mask));
  int equal = constant(DataType::U32, 0);
  for (uint32_t l = 0; l < 32; ++l) {
    uint8_t eq_mod = static_cast<uint8_t>(isa::CmpOp::EQ);
    int vlo = shfl(isa::ShflOp::IDX, lo, Operand::immediate(l));
    int eq = isa_op(Opcode::ISETP, DataType::U32, DataType::Pred,
                    {Operand::val(vlo), Operand::val(lo), Operand::immediate(1)}, eq_mod);
    if (wide) {
      int vhi = shfl(isa::ShflOp::IDX, hi, Operand::immediate(l));
      eq = isa_op(Opcode::ISETP, DataType::U32, DataType::Pred, {Operand::val(vhi), Operand::val(hi), Operand::val(eq)},
                  eq_mod);  // BoolOp AND with the low halves' result
    }
    int with = isa_op(Opcode::OR, DataType::U32, DataType::U32, {Operand::val(equal), Operand::immediate(uint64_t{1} << l)});
    equal = isa_op(Opcode::SEL, DataType::U32, DataType::U32, {Operand::val(with), Operand::val(equal), Operand::val(eq)});
  }
  equal = isa_op(Opcode::AND, DataType::U32, DataType::U32, {Operand::val(equal), live});
  if (!all) return write(in.operands[0], equal);
  int same = isa_op(Opcode::ISETP, DataType::U32, DataType::Pred, {Operand::val(equal), live, Operand::immediate(1)},
                    static_cast<uint8_t>(isa::CmpOp::EQ));
  int d = isa_op(Opcode::SEL, DataType::U32, DataType::U32, {live, Operand::immediate(0), Operand::val(same)});
  RETURN_IF_ERROR(write(in.operands[0], d));
  if (pair) RETURN_IF_ERROR(write(in.operands[1], same));
  return ok_status();
}

}  // namespace strata::compiler::ir
