// Asynchronous copies and mbarrier objects of sm_80-sm_89 (docs/isa.md "Asynchronous
// copies and mbarrier"):
//
//   cp.async.{ca,cg}.shared{::cta}.global{.L2::cache_hint}{.L2::64B/128B/256B}
//       [dst], [src], cp-size{, src-size | ignore-src}{, cache-policy}
//                                           -> CPASYNC.B32/B64/B128 dst, src, bytes read
//   cp.async.commit_group                   -> CPCOMMIT
//   cp.async.wait_group N                   -> CPWAIT N
//   cp.async.wait_all                       -> CPCOMMIT; CPWAIT 0
//   cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [a]  -> CPARRIVE a, 1 (.noinc: 0)
//   mbarrier.init / inval                   -> MBINIT a, count / MBINVAL a
//   mbarrier.arrive / arrive_drop{.noComplete}{, count}  -> MBARRIVE / MBDROP state, a, count
//   mbarrier.test_wait / try_wait{.parity}  -> MBTEST (a token's parity is its bit 63)
//   mbarrier.pending_count                  -> bits 0-30 of the token's low word
//   createpolicy (the cache-policy operand of .L2::cache_hint), discard.L2,
//   applypriority.L2                        -> no instruction (see lower_cache_policy)
//
// The L2 prefetch sizes and cache hints only steer caches: accepted and dropped, as are
// .ca/.cg. Two sm_90 forms need nothing beyond the sm_80 machinery and are accepted
// (ptxas wants sm_90 for them): try_wait, and a count without .noComplete. The other
// sm_90 forms (expect_tx, complete_tx, cluster scope and space, .relaxed) are
// kNotSupported: Strata models neither transaction counts nor clusters.
#include <fmt/format.h>

#include <set>
#include <string>

#include "compiler/ir/lowerer.h"
#include "isa/mbarrier.h"

namespace strata::compiler::ir {
namespace {

using isa::MemSpace;

std::string form_of(const ptx::Instruction& in) {
  std::string form = in.opcode;
  for (const auto& m : in.modifiers) form += "." + m;
  return form;
}

// kNotSupported naming the form when `in` has a modifier outside `allowed`.
Status check_modifiers(const Lowerer& l, const ptx::Instruction& in,
                       const std::set<std::string>& allowed) {
  for (const auto& m : in.modifiers) {
    if (allowed.count(m)) continue;
    static const std::set<std::string> kSm90 = {"expect_tx",       "complete_tx",       "cluster",
                                                "shared::cluster", "relaxed",           "bulk",
                                                "tensor",          "multicast::cluster"};
    if (kSm90.count(m))
      return l.unsupported(
          in.loc,
          fmt::format("'{}': .{} requires sm_90; Strata implements sm_80-sm_89", form_of(in), m));
    return l.unsupported(
        in.loc, fmt::format("PTX instruction '{}' is not supported yet (.{})", form_of(in), m));
  }
  return ok_status();
}

bool is_shared_space(const ptx::Instruction& in) {
  return Lowerer::has(in, "shared") || Lowerer::has(in, "shared::cta");
}

// The address of a [addr] operand as a register value: a 32-bit offset for SHARED, a
// 64-bit address for GLOBAL and GENERIC. The ISA's async instructions take no offset,
// so a constant offset is added here.
StatusOr<int> address_value(Lowerer& l, const ptx::Instruction& in, const ptx::OperandSlot& slot,
                            MemSpace space) {
  auto* a = std::get_if<ptx::AddressOperand>(&slot.value);
  if (!a || a->coords) return l.invalid(in.loc, "expected a memory operand [address]");
  const bool wide = space != MemSpace::SHARED;
  const DataType at = wide ? DataType::U64 : DataType::U32;
  auto as_value = [&](Operand o) {
    return o.is_imm() ? l.constant(at, wide ? o.imm : o.imm & 0xffffffffu) : o.value;
  };
  if (a->base_is_reg) {
    ASSIGN_OR_RETURN(DataType rt, l.reg_type(a->base, in.loc));
    if (rt == DataType::Pred) return l.invalid(in.loc, "a predicate cannot be an address");
    int v = l.ssa_.read(l.var_key(a->base), l.cur_, rt);
    const bool is64 = reg_class(rt) == RegClass::k64;
    if (wide && !is64) v = l.widen(v, false);
    if (!wide && is64) v = l.low32(v);
    if (a->offset == 0) return v;
    const uint64_t off =
        wide ? static_cast<uint64_t>(a->offset) : static_cast<uint64_t>(a->offset) & 0xffffffffu;
    return l.isa_op(Opcode::IADD, at, at, {Operand::val(v), Operand::val(l.constant(at, off))});
  }
  if (a->base.empty())
    return l.constant(at, wide ? static_cast<uint64_t>(a->offset) : a->offset & 0xffffffff);
  const ScopedVar* sv = l.find_scoped(a->base);
  auto gv = l.prog_.vars.find(a->base);
  const std::string vspace = sv ? sv->space : gv != l.prog_.vars.end() ? gv->second.space : "";
  if (vspace.empty()) return l.invalid(in.loc, "unknown symbol '" + a->base + "'");
  const ptx::SymbolOperand sym{a->base, a->offset};
  if (space == MemSpace::SHARED) {
    if (vspace != "shared") return l.invalid(in.loc, "'" + a->base + "' is not in shared memory");
    ASSIGN_OR_RETURN(Operand o, l.symbol_address(sym, at, in.loc));
    return as_value(o);
  }
  if (vspace == "global") {
    ASSIGN_OR_RETURN(Operand o, l.symbol_address(sym, at, in.loc));
    return as_value(o);
  }
  if (space == MemSpace::GENERIC && vspace == "shared") {
    ASSIGN_OR_RETURN(Operand o, l.symbol_address(sym, at, in.loc));
    int off = as_value(o);
    if (reg_class(l.f_.type_of(off)) == RegClass::k32) off = l.widen(off, false);
    Inst b;
    b.op = Op::kSharedBase;
    b.defs = {l.f_.new_value(DataType::U64)};
    const int base = l.emit(std::move(b));
    return l.isa_op(Opcode::IADD, DataType::U64, DataType::U64,
                    {Operand::val(off), Operand::val(base)});
  }
  return l.invalid(in.loc, "'" + a->base + "' is not in the accessed state space");
}

// An ISA instruction of this file: no offset, the address space in `space`.
int emit_async(Lowerer& l, Opcode op, DataType type, MemSpace space, std::vector<int> defs,
               std::vector<Operand> srcs, uint64_t imm = 0) {
  Inst i;
  i.op = Op::kIsa;
  i.isa_op = op;
  i.type = type;
  i.space = space;
  i.imm = imm;
  i.defs = std::move(defs);
  i.srcs = std::move(srcs);
  return l.emit(std::move(i));
}

StatusOr<uint64_t> constant_operand(Lowerer& l, const ptx::Instruction& in,
                                    const ptx::OperandSlot& s, const char* what) {
  ASSIGN_OR_RETURN(Operand o, l.read(s, DataType::U32));
  if (!o.is_imm()) return l.invalid(in.loc, fmt::format("{} must be a constant", what));
  return o.imm;
}

Status lower_cp_async(Lowerer& l, const ptx::Instruction& in) {
  const bool commit = Lowerer::has(in, "commit_group"), wait = Lowerer::has(in, "wait_group");
  const bool wait_all = Lowerer::has(in, "wait_all"), arrive = Lowerer::has(in, "mbarrier");
  if (commit || wait || wait_all) {
    RETURN_IF_ERROR(check_modifiers(l, in, {"async", "commit_group", "wait_group", "wait_all"}));
    if (in.modifiers.size() != 2) return l.invalid(in.loc, "malformed '" + form_of(in) + "'");
    RETURN_IF_ERROR(l.want_operands(in, wait ? 1 : 0));
    if (commit || wait_all)
      emit_async(l, Opcode::CPCOMMIT, DataType::kNone, MemSpace::GENERIC, {}, {});
    uint64_t n = 0;
    if (wait) {
      ASSIGN_OR_RETURN(n, constant_operand(l, in, in.operands[0], "the cp.async.wait_group count"));
    }
    if (wait || wait_all)
      emit_async(l, Opcode::CPWAIT, DataType::kNone, MemSpace::GENERIC, {}, {}, n & 0xffffffffu);
    return ok_status();
  }
  if (arrive) {
    RETURN_IF_ERROR(check_modifiers(
        l, in, {"async", "mbarrier", "arrive", "noinc", "shared", "shared::cta", "b64"}));
    if (!Lowerer::has(in, "arrive") || !Lowerer::has(in, "b64"))
      return l.invalid(in.loc, "cp.async.mbarrier needs .arrive and .b64");
    RETURN_IF_ERROR(l.want_operands(in, 1));
    const MemSpace space = is_shared_space(in) ? MemSpace::SHARED : MemSpace::GENERIC;
    ASSIGN_OR_RETURN(int addr, address_value(l, in, in.operands[0], space));
    const uint64_t increment = Lowerer::has(in, "noinc") ? 0 : 1;
    emit_async(l, Opcode::CPARRIVE, DataType::kNone, space, {},
               {Operand::val(addr), Operand::immediate(increment)});
    return ok_status();
  }
  // The copy itself.
  RETURN_IF_ERROR(check_modifiers(l, in,
                                  {"async", "ca", "cg", "shared", "shared::cta", "global",
                                   "L2::cache_hint", "L2::64B", "L2::128B", "L2::256B"}));
  const bool cg = Lowerer::has(in, "cg");
  if (cg == Lowerer::has(in, "ca"))
    return l.invalid(in.loc, "cp.async needs exactly one of .ca and .cg");
  if (!is_shared_space(in) || !Lowerer::has(in, "global"))
    return l.invalid(in.loc, "cp.async copies .global to .shared");
  const bool hint = Lowerer::has(in, "L2::cache_hint");
  const size_t fixed = 3 + (hint ? 1 : 0);
  if (in.operands.size() < fixed || in.operands.size() > fixed + 1)
    return l.invalid(in.loc, fmt::format("'{}' takes {} or {} operands, {} given", form_of(in),
                                         fixed, fixed + 1, in.operands.size()));
  ASSIGN_OR_RETURN(uint64_t size, constant_operand(l, in, in.operands[2], "cp.async's cp-size"));
  if (size != 4 && size != 8 && size != 16)
    return l.invalid(in.loc, "cp.async's cp-size must be 4, 8 or 16");
  if (cg && size != 16) return l.invalid(in.loc, "cp.async.cg copies 16 bytes");
  ASSIGN_OR_RETURN(int dst, address_value(l, in, in.operands[0], MemSpace::SHARED));
  ASSIGN_OR_RETURN(int src, address_value(l, in, in.operands[1], MemSpace::GLOBAL));
  Operand bytes = Operand::immediate(size);
  if (in.operands.size() == fixed + 1) {
    const ptx::OperandSlot& s = in.operands[3];
    auto* r = std::get_if<ptx::RegOperand>(&s.value);
    bool is_pred = false;
    if (r && !r->component) {
      ASSIGN_OR_RETURN(DataType rt, l.reg_type(r->name, s.loc.line ? s.loc : in.loc));
      is_pred = rt == DataType::Pred;
    }
    if (is_pred) {  // ignore-src: nothing is read when it is true
      ASSIGN_OR_RETURN(int p, l.read_pred(s));
      bytes = Operand::val(
          l.isa_op(Opcode::SEL, DataType::U32, DataType::U32,
                   {Operand::immediate(0), Operand::immediate(size), Operand::val(p)}));
    } else {  // src-size
      ASSIGN_OR_RETURN(bytes, l.read(s, DataType::U32));
      if (bytes.is_imm()) bytes.imm &= 0xffffffffu;
    }
  }
  const DataType type = size == 4 ? DataType::B32 : size == 8 ? DataType::B64 : DataType::B128;
  emit_async(l, Opcode::CPASYNC, type, MemSpace::SHARED, {},
             {Operand::val(dst), Operand::val(src), bytes});
  if (cg) l.f_.blocks[l.cur_].insts.back().mod = isa::kModCacheGlobal;  // L2 only
  return ok_status();
}

Status lower_mbarrier(Lowerer& l, const ptx::Instruction& in) {
  RETURN_IF_ERROR(check_modifiers(
      l, in,
      {"init", "inval", "arrive", "arrive_drop", "test_wait", "try_wait", "parity", "pending_count",
       "noComplete", "release", "acquire", "cta", "shared", "shared::cta", "b64"}));
  if (in.modifiers.empty() || !Lowerer::has(in, "b64"))
    return l.invalid(in.loc, "mbarrier needs an operation and .b64");
  const std::string& what = in.modifiers[0];
  const MemSpace space = is_shared_space(in) ? MemSpace::SHARED : MemSpace::GENERIC;
  if (what == "init" || what == "inval") {
    const bool init = what == "init";
    RETURN_IF_ERROR(l.want_operands(in, init ? 2 : 1));
    ASSIGN_OR_RETURN(int addr, address_value(l, in, in.operands[0], space));
    if (!init) {
      emit_async(l, Opcode::MBINVAL, DataType::kNone, space, {}, {Operand::val(addr)});
      return ok_status();
    }
    ASSIGN_OR_RETURN(Operand count, l.read(in.operands[1], DataType::U32));
    if (count.is_imm()) count.imm &= 0xffffffffu;
    emit_async(l, Opcode::MBINIT, DataType::kNone, space, {}, {Operand::val(addr), count});
    return ok_status();
  }
  if (what == "arrive" || what == "arrive_drop") {
    if (in.operands.size() != 2 && in.operands.size() != 3)
      return l.invalid(in.loc, fmt::format("'{}' takes 2 or 3 operands, {} given", form_of(in),
                                           in.operands.size()));
    Operand count = Operand::immediate(1);
    if (in.operands.size() == 3) {
      ASSIGN_OR_RETURN(count, l.read(in.operands[2], DataType::U32));
      if (count.is_imm()) count.imm &= 0xffffffffu;
    }
    ASSIGN_OR_RETURN(int addr, address_value(l, in, in.operands[1], space));
    const bool sink = std::holds_alternative<ptx::SinkOperand>(in.operands[0].value);
    const int state = sink ? kNoValue : l.f_.new_value(DataType::B64);
    emit_async(l, what == "arrive" ? Opcode::MBARRIVE : Opcode::MBDROP, DataType::kNone, space,
               {state}, {Operand::val(addr), count});
    if (!sink) RETURN_IF_ERROR(l.write(in.operands[0], state));
    return ok_status();
  }
  if (what == "test_wait" || what == "try_wait") {
    const bool parity = Lowerer::has(in, "parity");
    const bool try_wait = what == "try_wait";
    if (in.operands.size() != 3 && !(try_wait && in.operands.size() == 4))
      return l.invalid(in.loc, fmt::format("'{}' takes {} operands, {} given", form_of(in),
                                           try_wait ? "3 or 4" : "3", in.operands.size()));
    ASSIGN_OR_RETURN(int addr, address_value(l, in, in.operands[1], space));
    Operand phase;
    if (parity) {
      ASSIGN_OR_RETURN(phase, l.read(in.operands[2], DataType::U32));
      if (phase.is_imm()) phase.imm &= 1;
    } else {  // the state token's phase parity
      ASSIGN_OR_RETURN(int token, l.read_value(in.operands[2], DataType::B64));
      const int hi = l.extract(token, 1);
      phase =
          Operand::val(l.isa_op(Opcode::SHR, DataType::U32, DataType::U32,
                                {Operand::val(hi), Operand::immediate(isa::kMbarPhaseBit - 32)}));
    }
    if (in.operands.size() == 4) {  // suspendTimeHint: read (so it is checked), not used
      ASSIGN_OR_RETURN(Operand hint, l.read(in.operands[3], DataType::U32));
      (void)hint;
    }
    const int done = l.f_.new_value(DataType::Pred);
    emit_async(l, Opcode::MBTEST, DataType::kNone, space, {done}, {Operand::val(addr), phase});
    return l.write(in.operands[0], done);
  }
  if (what == "pending_count") {
    RETURN_IF_ERROR(l.want_operands(in, 2));
    ASSIGN_OR_RETURN(int token, l.read_value(in.operands[1], DataType::B64));
    const int lo = l.extract(token, 0);
    const int count = l.isa_op(Opcode::AND, DataType::B32, DataType::U32,
                               {Operand::val(lo), Operand::immediate(isa::kMbarPendingMask)});
    return l.write(in.operands[0], count);
  }
  return l.unsupported(in.loc, "PTX instruction '" + form_of(in) + "' is not supported yet");
}

// The L2 cache-policy instructions of sm_80. Strata's memory has no caches to steer, so
// createpolicy's opaque 64-bit policy is 0 (createpolicy.cvt passes the access property
// through) and every consumer ignores it; applypriority changes no data; discard leaves
// the line's data in place, one of the outcomes PTX allows (the data becomes
// indeterminate). The operands are still checked.
Status lower_cache_policy(Lowerer& l, const ptx::Instruction& in) {
  if (in.opcode == "createpolicy") {
    RETURN_IF_ERROR(
        check_modifiers(l, in,
                        {"fractional", "range", "cvt", "global", "L2", "L2::evict_last",
                         "L2::evict_normal", "L2::evict_first", "L2::evict_unchanged", "b64"}));
    if (in.modifiers.empty() || !Lowerer::has(in, "b64"))
      return l.invalid(in.loc, "createpolicy needs .fractional, .range or .cvt and .b64");
    const std::string& kind = in.modifiers[0];
    int policy;
    if (kind == "cvt") {
      RETURN_IF_ERROR(l.want_operands(in, 2));
      ASSIGN_OR_RETURN(policy, l.read_value(in.operands[1], DataType::B64));
    } else if (kind == "range") {
      RETURN_IF_ERROR(l.want_operands(in, 4));
      if (!std::get_if<ptx::AddressOperand>(&in.operands[1].value))
        return l.invalid(in.loc, "createpolicy.range needs a memory operand [address]");
      for (int k : {2, 3}) {
        ASSIGN_OR_RETURN(Operand size, l.read(in.operands[k], DataType::U32));
        (void)size;
      }
      policy = l.constant(DataType::B64, 0);
    } else if (kind == "fractional") {
      if (in.operands.size() != 1 && in.operands.size() != 2)
        return l.invalid(in.loc,
                         "createpolicy.fractional takes a destination and an optional fraction");
      if (in.operands.size() == 2) {
        ASSIGN_OR_RETURN(Operand fraction, l.read(in.operands[1], DataType::F32));
        (void)fraction;
      }
      policy = l.constant(DataType::B64, 0);
    } else {
      return l.invalid(in.loc, "createpolicy needs .fractional, .range or .cvt");
    }
    return l.write(in.operands[0], policy);
  }
  // discard / applypriority [a], 128
  RETURN_IF_ERROR(check_modifiers(l, in, {"global", "L2", "L2::evict_normal"}));
  if (in.opcode == "discard" ? !Lowerer::has(in, "L2") : !Lowerer::has(in, "L2::evict_normal"))
    return l.invalid(in.loc, "malformed '" + form_of(in) + "'");
  RETURN_IF_ERROR(l.want_operands(in, 2));
  if (!std::get_if<ptx::AddressOperand>(&in.operands[0].value))
    return l.invalid(in.loc, "expected a memory operand [address]");
  ASSIGN_OR_RETURN(uint64_t size, constant_operand(l, in, in.operands[1], "the size"));
  if (size != 128) return l.invalid(in.loc, "'" + form_of(in) + "' works on 128-byte lines");
  return ok_status();
}

}  // namespace

Status Lowerer::lower_async(const ptx::Instruction& in, bool* handled) {
  *handled = true;
  if (in.opcode == "cp" && has(in, "async")) return lower_cp_async(*this, in);
  if (in.opcode == "mbarrier") return lower_mbarrier(*this, in);
  if (in.opcode == "createpolicy" || in.opcode == "discard" || in.opcode == "applypriority")
    return lower_cache_policy(*this, in);
  *handled = false;
  return ok_status();
}

}  // namespace strata::compiler::ir
