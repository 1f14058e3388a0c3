// Branches, returns, barriers, fences, warp-level operations and dispatch.
#include <fmt/format.h>

#include "compiler/ir/lowerer.h"

namespace strata::compiler::ir {

Status Lowerer::lower_control(const ptx::Instruction& in, bool* handled) {
  *handled = true;
  const std::string& op = in.opcode;
  if (op == "bra" || op == "brx") {
    if (op == "brx") return unsupported(in.loc, "brx.idx is not supported yet");
    RETURN_IF_ERROR(want_operands(in, 1));
    auto* s = std::get_if<ptx::SymbolOperand>(&in.operands[0].value);
    if (!s) return invalid(in.loc, "bra needs a label");
    auto it = frame().labels.find(s->name);
    if (it == frame().labels.end()) return invalid(in.loc, "undefined label '" + s->name + "'");
    if (in.guard.empty()) {
      branch(it->second);
    } else {
      ASSIGN_OR_RETURN(DataType gt, reg_type(in.guard, in.loc));
      if (gt != DataType::Pred) return invalid(in.loc, "guard is not a predicate");
      int g = ssa_.read(var_key(in.guard), cur_, DataType::Pred);
      int fall = new_block();
      cond_branch(g, in.guard_negated, it->second, fall, has(in, "uni"));
      ssa_.seal(fall);
      start_block(fall);
      return ok_status();
    }
    start_block(new_block());
    ssa_.seal(cur_);
    return ok_status();
  }
  if (op == "ret" || op == "exit") {
    int cont = -1;
    if (!in.guard.empty()) {
      int g = ssa_.read(var_key(in.guard), cur_, DataType::Pred);
      int then_b = new_block();
      cont = new_block();
      cond_branch(g, in.guard_negated, then_b, cont, false);
      ssa_.seal(then_b);
      ssa_.seal(cont);
      start_block(then_b);
    }
    if (op == "ret" && (frames_.size() > 1 || is_function_)) {
      branch(frame().ret_block);
    } else {
      Inst e;
      e.op = Op::kExit;
      emit(e);
    }
    if (cont >= 0) {
      start_block(cont);
    } else {
      start_block(new_block());
      ssa_.seal(cur_);
    }
    return ok_status();
  }
  // brkpt suspends the thread for a debugger; none is ever attached to Strata, so it
  // aborts the grid like trap (cudaErrorLaunchFailure) instead of hanging it.
  if (op == "trap" || op == "brkpt") {
    isa_op(Opcode::TRAP, DataType::kNone, DataType::kNone, {}, 0, 0);
    return ok_status();
  }
  if (op == "bar" || op == "barrier") {
    if (has(in, "cluster")) return unsupported(in.loc, op + ".cluster is not supported yet");
    bool warp = has(in, "warp");
    if (warp) {
      RETURN_IF_ERROR(want_operands(in, 1));
      ASSIGN_OR_RETURN(Operand m, read(in.operands[0], DataType::U32));
      isa_op(Opcode::WARPSYNC, DataType::kNone, DataType::kNone, {m});
      return ok_status();
    }
    isa::BarOp bop = isa::BarOp::SYNC;
    if (has(in, "arrive")) bop = isa::BarOp::ARRIVE;
    bool is_red = has(in, "red");
    if (is_red) {
      if (has(in, "popc")) bop = isa::BarOp::RED_POPC;
      else if (has(in, "and")) bop = isa::BarOp::RED_AND;
      else if (has(in, "or")) bop = isa::BarOp::RED_OR;
      else return invalid(in.loc, "bar.red needs .popc, .and or .or");
    }
    size_t first = is_red ? 1 : 0;
    size_t nops = in.operands.size();
    size_t expect_min = first + 1 + (is_red ? 1 : 0);
    if (nops < expect_min || nops > expect_min + 1) return invalid(in.loc, "wrong operand count for " + op);
    ASSIGN_OR_RETURN(Operand id, read(in.operands[first], DataType::U32));
    Operand count = Operand::immediate(0);
    bool has_count = nops == expect_min + 1;
    if (has_count) {
      ASSIGN_OR_RETURN(Operand c, read(in.operands[first + 1], DataType::U32));
      count = c;
    }
    if (id.is_imm()) {
      if (id.imm > 15) return invalid(in.loc, "barrier id must be 0..15");
      max_barrier_ = std::max<uint32_t>(max_barrier_, static_cast<uint32_t>(id.imm) + 1);
    } else {
      max_barrier_ = 16;
    }
    std::vector<Operand> srcs = {id, count};
    uint64_t imm = id.is_imm() ? id.imm : 0;
    if (id.is_imm()) srcs[0] = Operand::immediate(0);  // RZ: id in imm
    if (is_red) {
      ASSIGN_OR_RETURN(int p, read_pred(in.operands.back()));
      srcs.push_back(Operand::val(p));
      // BAR's operands are "d, pd, ...": POPC writes d, AND/OR write pd.
      const bool popc = bop == isa::BarOp::RED_POPC;
      Inst i;
      i.op = Op::kIsa;
      i.isa_op = Opcode::BAR;
      i.type = popc ? DataType::U32 : DataType::Pred;
      i.mod = static_cast<uint8_t>(bop);
      i.imm = imm;
      i.srcs = std::move(srcs);
      int v = f_.new_value(popc ? DataType::U32 : DataType::Pred);
      i.defs = popc ? std::vector<int>{v, kNoValue} : std::vector<int>{kNoValue, v};
      emit(std::move(i));
      return write(in.operands[0], v);
    }
    isa_op(Opcode::BAR, DataType::kNone, DataType::kNone, srcs, static_cast<uint8_t>(bop), imm);
    return ok_status();
  }
  if (op == "membar" || op == "fence") {
    Inst i;
    i.op = Op::kIsa;
    i.isa_op = Opcode::MEMBAR;
    i.scope = isa::MemScope::GPU;
    if (has(in, "cta")) i.scope = isa::MemScope::CTA;
    if (has(in, "sys")) i.scope = isa::MemScope::SYS;
    if (has(in, "proxy")) return unsupported(in.loc, "fence.proxy is not supported yet");
    i.mod = (op == "membar" || has(in, "sc")) ? 1 : 0;
    emit(std::move(i));
    return ok_status();
  }
  if (op == "nanosleep") {
    RETURN_IF_ERROR(want_operands(in, 1));
    ASSIGN_OR_RETURN(Operand t, read(in.operands[0], DataType::U32));
    isa_op(Opcode::NANOSLEEP, DataType::kNone, DataType::kNone, {Operand::immediate(0), t});
    return ok_status();
  }
  *handled = false;
  return ok_status();
}

Status Lowerer::lower_warp(const ptx::Instruction& in, bool* handled) {
  *handled = true;
  const std::string& op = in.opcode;
  if (op == "activemask") {
    RETURN_IF_ERROR(want_operands(in, 1));
    Inst i;
    i.op = Op::kIsa;
    i.isa_op = Opcode::VOTE;
    i.type = DataType::U32;
    i.mod = static_cast<uint8_t>(isa::VoteOp::BALLOT);
    i.srcs = {Operand::immediate(1)};
    i.defs = {f_.new_value(DataType::U32), kNoValue};
    return write(in.operands[0], emit(std::move(i)));
  }
  if (op == "vote") {
    if (!has(in, "sync")) return unsupported(in.loc, "vote without .sync is not supported");
    RETURN_IF_ERROR(want_operands(in, 3));
    isa::VoteOp vop;
    if (has(in, "all")) vop = isa::VoteOp::ALL;
    else if (has(in, "any")) vop = isa::VoteOp::ANY;
    else if (has(in, "uni")) vop = isa::VoteOp::UNI;
    else if (has(in, "ballot")) vop = isa::VoteOp::BALLOT;
    else return invalid(in.loc, "vote needs .all, .any, .uni or .ballot");
    ASSIGN_OR_RETURN(int p, read_pred(in.operands[1]));
    ASSIGN_OR_RETURN(Operand mask, read(in.operands[2], DataType::U32));
    // VOTE does not wait for the member threads: converge them first.
    isa_op(Opcode::WARPSYNC, DataType::kNone, DataType::kNone, {mask});
    Inst i;
    i.op = Op::kIsa;
    i.isa_op = Opcode::VOTE;
    i.type = DataType::U32;
    i.mod = static_cast<uint8_t>(vop);
    i.srcs = {Operand::val(p), mask};
    bool ballot = vop == isa::VoteOp::BALLOT;
    int d = ballot ? f_.new_value(DataType::U32) : kNoValue;
    int pd = ballot ? kNoValue : f_.new_value(DataType::Pred);
    i.defs = {d, pd};
    emit(std::move(i));
    return write(in.operands[0], ballot ? d : pd);
  }
  if (op == "shfl") {
    if (!has(in, "sync")) return unsupported(in.loc, "shfl without .sync is not supported");
    isa::ShflOp sop;
    if (has(in, "idx")) sop = isa::ShflOp::IDX;
    else if (has(in, "up")) sop = isa::ShflOp::UP;
    else if (has(in, "down")) sop = isa::ShflOp::DOWN;
    else if (has(in, "bfly")) sop = isa::ShflOp::BFLY;
    else return invalid(in.loc, "shfl needs .idx, .up, .down or .bfly");
    bool pair = in.has_pred_pair;
    RETURN_IF_ERROR(want_operands(in, pair ? 6 : 5));
    size_t s = pair ? 2 : 1;
    ASSIGN_OR_RETURN(Operand a, read(in.operands[s], DataType::U32));
    ASSIGN_OR_RETURN(Operand b, read(in.operands[s + 1], DataType::U32));
    ASSIGN_OR_RETURN(Operand c, read(in.operands[s + 2], DataType::U32));
    ASSIGN_OR_RETURN(Operand mask, read(in.operands[s + 3], DataType::U32));
    // SHFL exchanges among the threads executing it together and does not wait: the
    // WARPSYNC converges the member threads first, as shfl.sync requires.
    isa_op(Opcode::WARPSYNC, DataType::kNone, DataType::kNone, {mask});
    Inst i;
    i.op = Op::kIsa;
    i.isa_op = Opcode::SHFL;
    i.type = DataType::U32;
    i.mod = static_cast<uint8_t>(sop);
    i.srcs = {a, b, c};
    int d = f_.new_value(DataType::U32);
    int pd = pair ? f_.new_value(DataType::Pred) : kNoValue;
    i.defs = {d, pd};
    emit(std::move(i));
    RETURN_IF_ERROR(write(in.operands[0], d));
    if (pair) RETURN_IF_ERROR(write(in.operands[1], pd));
    return ok_status();
  }
  *handled = false;
  return ok_status();
}

Status Lowerer::lower_instruction(const ptx::Instruction& in) {
  if (in.opcode == "call") return lower_call(in);
  using Family = Status (Lowerer::*)(const ptx::Instruction&, bool*);
  static const Family kFamilies[] = {&Lowerer::lower_control, &Lowerer::lower_warp, &Lowerer::lower_collective, &Lowerer::lower_async,
                                     &Lowerer::lower_tensor, &Lowerer::lower_misc, &Lowerer::lower_texture,
                                     &Lowerer::lower_memory,
                                     &Lowerer::lower_atomic,  &Lowerer::lower_cvt,  &Lowerer::lower_arith,
                                     &Lowerer::lower_float};
  for (Family fam : kFamilies) {
    bool handled = false;
    RETURN_IF_ERROR((this->*fam)(in, &handled));
    if (handled) return ok_status();
  }
  std::string form = in.opcode;
  for (const auto& m : in.modifiers) form += "." + m;
  return unsupported(in.loc, "PTX instruction '" + form + "' is not supported yet");
}

}  // namespace strata::compiler::ir
