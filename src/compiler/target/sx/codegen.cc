#include "compiler/target/sx/codegen.h"

#include <fmt/format.h>

#include <algorithm>

#include "compiler/target/sx/compact_registers.h"
#include "compiler/target/sx/dominators.h"
#include "compiler/target/sx/immediates.h"
#include "compiler/target/sx/layout.h"
#include "compiler/target/sx/out_of_ssa.h"
#include "compiler/target/sx/regalloc.h"
#include "compiler/target/sx/schedule.h"

namespace strata::compiler::sx {
namespace {

using ir::Op;
using isa::Inst;
using isa::Opcode;

constexpr uint8_t kScratchA = 248, kScratchB = 250, kScratchC = 252, kScratchT = 244;

struct Region {
  int place;  // block where BSSY goes (before its terminator)
  int sync;   // block starting with BSYNC
  int barrier = -1;
};

class Emitter {
 public:
  Emitter(const ir::Function& f, const std::vector<int>& reg, const std::vector<std::string>& symbols)
      : f_(f), reg_(reg), symbols_(symbols) {}

  // The calling convention (docs/abi.md). `frame_bytes`: this code's frame size;
  // `is_function`: emit the prologue/epilogue saving `saved_gprs` registers R0.. and the
  // predicates `saved_preds` at frame offset `save_at`.
  void set_frame(bool is_function, uint32_t frame_bytes, uint32_t save_at, uint32_t saved_gprs,
                 std::vector<uint8_t> saved_preds, bool makes_calls) {
    is_function_ = is_function;
    frame_bytes_ = frame_bytes;
    save_at_ = save_at;
    saved_gprs_ = saved_gprs;
    saved_preds_ = std::move(saved_preds);
    makes_calls_ = makes_calls;
  }

  Status run(const std::vector<Region>& regions, CodegenResult* out);

 private:
  void put(Inst i) {
    uint32_t flags = isa::op_info(i.op).flags;
    if (flags & isa::kSync) i.ctrl.yield = true;
    code_.push_back(i);
  }
  uint8_t r(int v) const { return static_cast<uint8_t>(reg_[v]); }
  void mov_imm(uint8_t rd, uint64_t imm, bool wide) {
    Inst m;
    m.op = Opcode::MOV;
    m.type = isa::DataType::U32;
    m.rd = rd;
    m.b_imm = true;
    m.imm = static_cast<uint32_t>(imm);
    put(m);
    if (wide) {
      m.rd = static_cast<uint8_t>(rd + 1);
      m.imm = static_cast<uint32_t>(imm >> 32);
      put(m);
    }
  }
  void mov_reg(uint8_t rd, uint8_t rs, int n) {
    for (int k = 0; k < n; ++k) {
      Inst m;
      m.op = Opcode::MOV;
      m.type = isa::DataType::U32;
      m.rd = static_cast<uint8_t>(rd + k);
      m.rb = rs == isa::kRZ ? isa::kRZ : static_cast<uint8_t>(rs + k);
      if (rs + k != rd + k) put(m);
    }
  }
  Status emit_isa(const ir::Inst& i, Inst* out);
  Status emit_inst(const ir::Inst& i);
  Status emit_call(const ir::Inst& i, CodegenResult* out);
  void frame_access(Opcode op, uint8_t reg, uint32_t offset) {
    Inst m;
    m.op = op;
    m.type = isa::DataType::U32;
    m.space = isa::MemSpace::LOCAL;
    m.ra = kStackPointerReg;
    m.imm = offset;
    if (op == Opcode::LD)
      m.rd = reg;
    else
      m.rb = reg;
    put(m);
  }
  void add_sp(int32_t delta) {
    Inst m;
    m.op = Opcode::IADD;
    m.type = isa::DataType::U32;
    m.rd = kStackPointerReg;
    m.ra = kStackPointerReg;
    m.b_imm = true;
    m.imm = static_cast<uint32_t>(delta);
    put(m);
  }
  void prologue();
  void epilogue();

  const ir::Function& f_;
  const std::vector<int>& reg_;
  const std::vector<std::string>& symbols_;
  std::vector<Inst> code_;
  std::vector<std::pair<size_t, int>> fixups_;  // code index -> block
  bool is_function_ = false, makes_calls_ = false;
  uint32_t frame_bytes_ = 0, save_at_ = 0, saved_gprs_ = 0;
  std::vector<uint8_t> saved_preds_;
  std::vector<std::pair<size_t, std::string>> relocs_;
};

// Callee: the return address at frame offset 0, then every register the function
// allocates and every predicate it uses (all allocatable registers are callee-saved).
void Emitter::prologue() {
  frame_access(Opcode::ST, kReturnAddressReg, 0);
  for (uint32_t r = 0; r < saved_gprs_; ++r) frame_access(Opcode::ST, static_cast<uint8_t>(r), save_at_ + 4 * r);
  if (saved_preds_.empty()) return;
  mov_imm(kScratchT + 1, 1, false);
  for (size_t k = 0; k < saved_preds_.size(); ++k) {
    Inst sel;
    sel.op = Opcode::SEL;
    sel.type = isa::DataType::U32;
    sel.rd = kScratchT;
    sel.ra = kScratchT + 1;
    sel.rb = isa::kRZ;
    sel.ps = saved_preds_[k];
    put(sel);
    frame_access(Opcode::ST, kScratchT, save_at_ + 4 * (saved_gprs_ + static_cast<uint32_t>(k)));
  }
}

void Emitter::epilogue() {
  for (size_t k = 0; k < saved_preds_.size(); ++k) {
    frame_access(Opcode::LD, kScratchT, save_at_ + 4 * (saved_gprs_ + static_cast<uint32_t>(k)));
    Inst set;
    set.op = Opcode::ISETP;
    set.type = isa::DataType::U32;
    set.pd = saved_preds_[k];
    set.ra = kScratchT;
    set.rb = isa::kRZ;
    set.mod = static_cast<uint8_t>(isa::CmpOp::NE);
    put(set);
  }
  for (uint32_t r = 0; r < saved_gprs_; ++r) frame_access(Opcode::LD, static_cast<uint8_t>(r), save_at_ + 4 * r);
  frame_access(Opcode::LD, kReturnAddressReg, 0);
  Inst ret;
  ret.op = Opcode::RET;
  ret.ra = kReturnAddressReg;
  put(ret);
}

Status Emitter::emit_isa(const ir::Inst& i, Inst* out) {
  Inst m;
  m.op = i.isa_op;
  m.type = i.type;
  m.type2 = i.type2;
  m.mod = i.mod;
  m.space = i.space;
  m.sem = i.sem;
  m.scope = i.scope;
  m.imm = static_cast<uint32_t>(i.imm + (i.symbol == "@out" ? frame_bytes_ : 0));
  bool imm_used = i.imm != 0 || m.op == Opcode::LD || m.op == Opcode::ST || m.op == Opcode::LDC ||
                  m.op == Opcode::ATOM || m.op == Opcode::BFI || m.op == Opcode::BAR || m.op == Opcode::TRAP;
  std::string_view ops = isa::op_info(i.isa_op).operands;
  size_t si = 0, di = 0;
  auto gpr = [&](const ir::Operand& o, char slot, uint8_t scratch) -> uint8_t {
    if (!o.is_imm()) return r(o.value);
    bool wide = is_wide_slot(i, slot) || o.imm > 0xffffffffull;
    if (o.imm == 0 && !wide) return isa::kRZ;
    mov_imm(scratch, o.imm, wide);
    return scratch;
  };
  auto pred = [&](const ir::Operand& o, bool* neg) -> uint8_t {
    if (!o.is_imm()) return r(o.value);
    if (o.imm == 0) *neg = !*neg;
    return isa::kPT;
  };
  size_t p = 0;
  while (p < ops.size()) {
    size_t q = ops.find(',', p);
    std::string_view tok = ops.substr(p, q == std::string_view::npos ? std::string_view::npos : q - p);
    while (!tok.empty() && tok.front() == ' ') tok.remove_prefix(1);
    p = q == std::string_view::npos ? ops.size() : q + 1;
    if (tok == "d") {
      int d = di < i.defs.size() ? i.defs[di++] : ir::kNoValue;
      m.rd = d == ir::kNoValue ? isa::kRZ : r(d);
    } else if (tok == "pd") {
      int d = di < i.defs.size() ? i.defs[di++] : ir::kNoValue;
      m.pd = d == ir::kNoValue ? isa::kPT : r(d);
    } else if (tok == "a" || tok == "m" || tok == "cb") {
      if (si < i.srcs.size()) m.ra = gpr(i.srcs[si++], 'a', kScratchA);
    } else if (tok == "b") {
      if (si >= i.srcs.size()) continue;
      const ir::Operand& o = i.srcs[si++];
      bool wide = is_wide_slot(i, 'b');
      if (o.is_imm() && !imm_used && !wide && o.imm <= 0xffffffffull && o.imm != 0) {
        m.b_imm = true;
        m.imm = static_cast<uint32_t>(o.imm);
      } else {
        m.rb = gpr(o, 'b', kScratchB);
      }
    } else if (tok == "c") {
      if (si < i.srcs.size()) m.rc = gpr(i.srcs[si++], 'c', kScratchC);
    } else if (tok == "ps") {
      if (si < i.srcs.size()) {
        bool neg = i.negate;
        m.ps = pred(i.srcs[si++], &neg);
        m.ps_neg = neg;
      }
    } else if (tok == "pq") {
      if (si < i.srcs.size()) {
        bool neg = (i.mod & 0x80) != 0;
        m.rb = pred(i.srcs[si++], &neg);
        m.mod = static_cast<uint8_t>((m.mod & 0x7f) | (neg ? 0x80 : 0));
      }
    }
  }
  // Extra sources beyond the operand string: VOTE's mask (rc), BAR.RED's predicate (ps).
  if (m.op == Opcode::VOTE && si < i.srcs.size()) {
    const ir::Operand& o = i.srcs[si++];
    m.rc = (o.is_imm() && o.imm == 0xffffffffull) ? isa::kRZ : gpr(o, 'c', kScratchC);
  }
  if (m.op == Opcode::BAR && si < i.srcs.size()) {
    bool neg = false;
    m.ps = pred(i.srcs[si++], &neg);
    m.ps_neg = neg;
    if (!i.defs.empty() && i.defs[0] != ir::kNoValue) {
      if (f_.type_of(i.defs[0]) == isa::DataType::Pred)
        m.pd = r(i.defs[0]);
      else
        m.rd = r(i.defs[0]);
    }
  }
  *out = m;
  return ok_status();
}

Status Emitter::emit_inst(const ir::Inst& i) {
  switch (i.op) {
    case Op::kIsa: {
      if (i.isa_op == Opcode::CALL) return emit_call(i, nullptr);
      Inst m;
      RETURN_IF_ERROR(emit_isa(i, &m));
      put(m);
      return ok_status();
    }
    case Op::kPhi:
      return error(Code::kUnknown, "phi reached the emitter");
    case Op::kCopy: {
      int d = i.defs[0];
      ir::RegClass c = ir::reg_class(f_.type_of(d));
      const ir::Operand& s = i.srcs[0];
      if (c == ir::RegClass::kPred) {
        Inst m;
        m.op = Opcode::PLOP;
        m.pd = r(d);
        bool neg = false;
        m.ps = s.is_imm() ? isa::kPT : r(s.value);
        if (s.is_imm() && s.imm == 0) neg = true;
        m.ps_neg = neg;
        m.rb = isa::kPT;
        put(m);
        return ok_status();
      }
      if (s.is_imm()) {
        mov_imm(r(d), s.imm, c != ir::RegClass::k32);
        return ok_status();
      }
      int n = std::min(ir::class_regs(c), ir::class_regs(ir::reg_class(f_.type_of(s.value))));
      mov_reg(r(d), r(s.value), n);
      return ok_status();
    }
    case Op::kConst: {
      int d = i.defs[0];
      ir::RegClass c = ir::reg_class(f_.type_of(d));
      if (c == ir::RegClass::kPred) {
        Inst m;
        m.op = Opcode::PLOP;
        m.pd = r(d);
        m.ps = isa::kPT;
        m.ps_neg = i.imm == 0;
        m.rb = isa::kPT;
        put(m);
        return ok_status();
      }
      if (i.symbol.rfind("@func:", 0) == 0) relocs_.push_back({code_.size(), i.symbol.substr(6)});
      mov_imm(r(d), i.imm, c != ir::RegClass::k32);
      if (c == ir::RegClass::k128) mov_imm(static_cast<uint8_t>(r(d) + 2), 0, true);
      return ok_status();
    }
    case Op::kPack: {
      uint8_t base = r(i.defs[0]);
      for (size_t k = 0; k < i.srcs.size(); ++k) {
        const ir::Operand& s = i.srcs[k];
        uint8_t rd = static_cast<uint8_t>(base + k);
        if (s.is_imm())
          mov_imm(rd, s.imm, false);
        else
          mov_reg(rd, r(s.value), 1);
      }
      return ok_status();
    }
    case Op::kExtract:
      mov_reg(r(i.defs[0]), static_cast<uint8_t>(r(i.srcs[0].value) + i.imm), 1);
      return ok_status();
    case Op::kSymAddr: {
      auto it = std::find(symbols_.begin(), symbols_.end(), i.symbol);
      if (it == symbols_.end()) return error(Code::kUnknown, "symbol missing from the table: " + i.symbol);
      Inst m;
      m.op = Opcode::LDC;
      m.type = isa::DataType::U64;
      m.mod = 1;
      m.rd = r(i.defs[0]);
      m.imm = static_cast<uint32_t>(8 * (it - symbols_.begin()));
      put(m);
      if (i.imm) {
        mov_imm(kScratchT, i.imm, true);
        Inst a;
        a.op = Opcode::IADD;
        a.type = isa::DataType::U64;
        a.rd = m.rd;
        a.ra = m.rd;
        a.rb = kScratchT;
        put(a);
      }
      return ok_status();
    }
    case Op::kStackPointer:
      mov_reg(r(i.defs[0]), kStackPointerReg, 1);
      return ok_status();
    case Op::kSharedBase:
    case Op::kLocalBase: {
      bool sh = i.op == Op::kSharedBase;
      Inst m;
      m.op = Opcode::S2R;
      m.type = isa::DataType::U32;
      m.rd = r(i.defs[0]);
      m.mod = static_cast<uint8_t>(sh ? isa::SpecialReg::SHARED_WINDOW_LO : isa::SpecialReg::LOCAL_WINDOW_LO);
      put(m);
      m.rd = static_cast<uint8_t>(m.rd + 1);
      m.mod = static_cast<uint8_t>(sh ? isa::SpecialReg::SHARED_WINDOW_HI : isa::SpecialReg::LOCAL_WINDOW_HI);
      put(m);
      return ok_status();
    }
    default:
      return ok_status();  // terminators are emitted by run()
  }
}

Status Emitter::run(const std::vector<Region>& regions, CodegenResult* out) {
  int nb = static_cast<int>(f_.blocks.size());
  std::vector<size_t> block_pc(nb);
  if (is_function_) {
    prologue();
  } else if (makes_calls_) {
    mov_reg(kStackPointerReg, isa::kRZ, 1);  // the kernel's frame is at local offset 0
  }
  for (int b = 0; b < nb; ++b) {
    block_pc[b] = code_.size();
    // BSYNCs: innermost (latest-placed) first.
    for (size_t k = regions.size(); k-- > 0;) {
      const Region& rg = regions[k];
      if (rg.sync != b || rg.barrier < 0) continue;
      Inst s;
      s.op = Opcode::BSYNC;
      s.mod = static_cast<uint8_t>(rg.barrier);
      put(s);
    }
    const auto& insts = f_.blocks[b].insts;
    for (size_t k = 0; k + 1 < insts.size(); ++k) {
      size_t before = code_.size();
      RETURN_IF_ERROR(emit_inst(insts[k]));
      for (size_t c = before; c < code_.size(); ++c)
        if (insts[k].ptx_line)
          out->lines.push_back({static_cast<uint32_t>(c), static_cast<uint32_t>(insts[k].ptx_line),
                                static_cast<uint32_t>(insts[k].loc_file), static_cast<uint32_t>(insts[k].loc_line),
                                static_cast<uint32_t>(insts[k].loc_col)});
    }
    for (const Region& rg : regions) {
      if (rg.place != b || rg.barrier < 0) continue;
      Inst s;
      s.op = Opcode::BSSY;
      s.mod = static_cast<uint8_t>(rg.barrier);
      fixups_.push_back({code_.size(), rg.sync});
      put(s);
    }
    const ir::Inst& t = insts.back();
    auto bra = [&](int target, uint8_t guard, bool neg) {
      Inst m;
      m.op = Opcode::BRA;
      m.guard = guard;
      m.guard_neg = neg;
      if (target <= b) m.ctrl.yield = true;
      fixups_.push_back({code_.size(), target});
      put(m);
      if (target <= b) code_.back().ctrl.yield = true;
    };
    if (t.op == Op::kExit && t.imm == 1) {
      epilogue();
    } else if (t.op == Op::kExit) {
      Inst e;
      e.op = Opcode::EXIT;
      put(e);
    } else if (t.op == Op::kBranch) {
      if (t.succs[0] != b + 1) bra(t.succs[0], isa::kPT, false);
    } else if (t.op == Op::kCondBranch) {
      const ir::Operand& c = t.srcs[0];
      if (c.is_imm()) {
        int target = (c.imm != 0) != t.negate ? t.succs[0] : t.succs[1];
        if (target != b + 1) bra(target, isa::kPT, false);
      } else {
        bra(t.succs[0], r(c.value), t.negate);
        if (t.succs[1] != b + 1) bra(t.succs[1], isa::kPT, false);
      }
    }
  }
  for (auto& [pc, block] : fixups_) code_[pc].imm = static_cast<uint32_t>(block_pc[block]);
  if (is_function_) {
    // The frame moves with the stack pointer: absolute local offsets become SP-relative.
    for (Inst& m : code_)
      if ((m.op == Opcode::LD || m.op == Opcode::ST) && m.space == isa::MemSpace::LOCAL && m.ra == isa::kRZ)
        m.ra = kStackPointerReg;
  }
  out->relocs = std::move(relocs_);
  if (!is_function_ && (code_.empty() || code_.back().op != Opcode::EXIT)) {
    Inst e;
    e.op = Opcode::EXIT;
    put(e);
  }
  out->code = std::move(code_);
  return ok_status();
}

// Convergence barriers by owner (docs/abi.md): a kernel's regions use B0-B14 and its call
// sites B15; a called function's regions use B7-B13 and its call sites B14, so a callee
// never disturbs the barriers its kernel is waiting on.
constexpr int kKernelCallBarrier = 15, kFunctionCallBarrier = 14;
constexpr int kFunctionFirstBarrier = 7;

// Caller: the callee's frame starts where this one ends. The calling threads may come
// back at different times (an indirect call's threads go to different functions; a
// recursive callee's threads recurse to different depths): BSSY/BSYNC around the call
// bring them together again, in a kernel always, in a function for indirect calls.
Status Emitter::emit_call(const ir::Inst& i, CodegenResult*) {
  Inst call;
  call.op = Opcode::CALL;
  call.rd = kReturnAddressReg;
  const bool indirect = i.symbol.empty();
  const bool wrap = indirect || !is_function_;
  const uint8_t barrier = is_function_ ? kFunctionCallBarrier : kKernelCallBarrier;
  size_t bssy = 0;
  if (wrap) {
    Inst b;
    b.op = Opcode::BSSY;
    b.mod = barrier;
    bssy = code_.size();
    put(b);
  }
  if (indirect) {
    call.rb = r(i.srcs[0].value);
  } else {
    call.b_imm = true;
    relocs_.push_back({code_.size() + 1, i.symbol.substr(6)});
  }
  add_sp(static_cast<int32_t>(frame_bytes_));
  put(call);
  if (wrap) {
    code_[bssy].imm = static_cast<uint32_t>(code_.size());
    Inst s;
    s.op = Opcode::BSYNC;
    s.mod = barrier;
    put(s);
  }
  add_sp(-static_cast<int32_t>(frame_bytes_));
  return ok_status();
}

// A set of blocks, one bit per block.
class BlockSet {
 public:
  explicit BlockSet(size_t blocks = 0) : words_((blocks + 63) / 64, 0) {}
  bool has(int b) const { return (words_[b / 64] >> (b % 64)) & 1; }
  void add(int b) { words_[b / 64] |= uint64_t{1} << (b % 64); }
  bool meets(const BlockSet& o) const {
    for (size_t k = 0; k < words_.size(); ++k)
      if (words_[k] & o.words_[k]) return true;
    return false;
  }

 private:
  std::vector<uint64_t> words_;
};

// Blocks reachable from `from`'s successors without passing through `stop` (`stop` itself
// excluded).
BlockSet reach_avoiding(const ir::Function& f, int from, int stop) {
  BlockSet seen(f.blocks.size());
  std::vector<int> stack(f.blocks[from].insts.back().succs);
  while (!stack.empty()) {
    const int x = stack.back();
    stack.pop_back();
    if (x == stop || seen.has(x)) continue;
    seen.add(x);
    for (int s : f.blocks[x].insts.back().succs) stack.push_back(s);
  }
  return seen;
}

// Where the BSSY of a divergent branch in block `b` re-converging at block `p` goes (see
// codegen.h): the nearest dominator d of b (b included) from which every thread reaches p
// or exits before it can run the BSSY again, and after which p cannot run again before d
// does. Returns -1 when there is none (the branch then gets no barrier); otherwise sets
// *inside to the blocks a thread may run between the BSSY and the BSYNC.
int region_place(const ir::Function& f, const std::vector<int>& idom, int b, int p, BlockSet* inside) {
  const int nb = static_cast<int>(f.blocks.size());
  auto dominates = [&](int a, int x) {
    for (int n = 0; n < nb + 1 && x >= 0; ++n) {
      if (a == x) return true;
      if (idom[x] == x) return false;
      x = idom[x];
    }
    return false;
  };
  for (int d = b, hops = 0; d >= 0 && d != p && hops <= nb; d = idom[d] == d ? -1 : idom[d], ++hops) {
    // Every path to the BSYNC must run the BSSY first, or the BSYNC sees a stale mask.
    if (!dominates(d, p)) continue;
    // After the BSYNC, p must not be reached again (around a loop that d is outside of)
    // without running the BSSY again. If it can, no block further up can help.
    if (reach_avoiding(f, p, d).has(p)) return -1;
    BlockSet s = reach_avoiding(f, d, p);
    // The BSSY must not run again before its BSYNC (d in a loop that p is outside of):
    // hoist it out of the loop.
    if (s.has(d)) continue;
    // A thread that returns from a called function never reaches the BSYNC.
    bool returns = false;
    for (int x = 0; x < nb && !returns; ++x) {
      const ir::Inst& t = f.blocks[x].insts.back();
      returns = s.has(x) && t.op == Op::kExit && t.imm == 1;
    }
    if (returns) return -1;
    *inside = std::move(s);
    return d;
  }
  return -1;
}

// Finds convergence regions (see codegen.h) and assigns barrier ids from [first, last].
std::vector<Region> find_regions(const ir::Function& f, int first, int last) {
  int nb = static_cast<int>(f.blocks.size());
  auto idom = dominators(f);
  auto ipdom = post_dominators(f);
  std::vector<Region> regions;
  std::vector<BlockSet> inside;  // per region: blocks between its BSSY and BSYNC
  for (int b = 0; b < nb; ++b) {
    const ir::Inst& t = f.blocks[b].insts.back();
    if (t.op != Op::kCondBranch || t.uniform || t.srcs[0].is_imm() || t.succs[0] == t.succs[1]) continue;
    if (idom[b] < 0) continue;
    int p = ipdom[b];
    if (p < 0 || p >= nb) continue;
    // A post-dominator that only exits (possibly through blocks that only branch on)
    // needs no re-convergence either.
    int q = p;
    for (int hops = 0; hops < nb && f.blocks[q].insts.size() == 1 && f.blocks[q].insts[0].op == Op::kBranch; ++hops)
      q = f.blocks[q].insts[0].succs[0];
    if (f.blocks[q].insts.size() == 1 && f.blocks[q].insts[0].op == Op::kExit && f.blocks[q].insts[0].imm == 0)
      continue;  // (a function's return block re-converges: the threads return together)
    BlockSet in;
    const int place = region_place(f, idom, b, p, &in);
    if (place < 0) continue;
    bool dup = false;
    for (const Region& r : regions) dup |= r.place == place && r.sync == p;
    if (dup) continue;
    regions.push_back({place, p});
    inside.push_back(std::move(in));
  }
  // Colouring: a barrier is live from the end of its place block, through the blocks
  // inside, to the start of its sync block; regions whose live ranges meet (nested ones)
  // get distinct ids. (Not the block layout: a region's blocks need not be contiguous.)
  auto overlap = [&](size_t a, size_t c) {
    const Region& x = regions[a];
    const Region& y = regions[c];
    if (x.place == y.place || x.sync == y.sync) return true;
    const BlockSet &i = inside[a], &j = inside[c];
    return i.has(y.place) || i.has(y.sync) || j.has(x.place) || j.has(x.sync) || i.meets(j);
  };
  for (size_t k = 0; k < regions.size(); ++k) {
    std::vector<bool> busy(isa::kNumConvBarriers, false);
    for (size_t j = 0; j < k; ++j)
      if (regions[j].barrier >= 0 && overlap(j, k)) busy[regions[j].barrier] = true;
    for (int id = first; id <= last; ++id)
      if (!busy[id]) {
        regions[k].barrier = id;
        break;
      }
  }
  return regions;
}

}  // namespace

namespace {

// The smallest register budget generate() tries to meet.
constexpr uint32_t kMinRegisterBudget = 32;

// Register allocation and emission of `f` (out of SSA, laid out) with at most `gprs`
// allocatable registers.
StatusOr<CodegenResult> emit_function(ir::Function f, const std::vector<Region>& regions,
                                      const std::vector<std::string>& symbols, uint32_t local_bytes, bool is_function,
                                      uint32_t gprs) {
  CodegenResult out;
  uint32_t used = 0;
  ASSIGN_OR_RETURN(auto reg, allocate_registers(f, local_bytes, gprs, &used, &out.local_bytes));
  Emitter e(f, reg, symbols);
  bool makes_calls = false;
  std::vector<bool> pred_used(isa::kNumPreds, false);
  for (const auto& b : f.blocks)
    for (const auto& i : b.insts) {
      makes_calls |= i.op == Op::kIsa && i.isa_op == Opcode::CALL;
      for (int d : i.defs)
        if (d != ir::kNoValue && reg[d] >= 0 && f.type_of(d) == isa::DataType::Pred) pred_used[reg[d]] = true;
    }
  std::vector<uint8_t> saved_preds;
  for (int p = 0; p < isa::kNumPreds; ++p)
    if (pred_used[p]) saved_preds.push_back(static_cast<uint8_t>(p));
  uint32_t save_at = (out.local_bytes + 3) / 4 * 4;
  uint32_t frame = is_function ? save_at + 4 * (used + static_cast<uint32_t>(saved_preds.size())) : out.local_bytes;
  frame = (frame + 15) / 16 * 16;
  out.frame_bytes = frame;
  if (is_function) out.local_bytes = frame;
  e.set_frame(is_function, frame, save_at, is_function ? used : 0, is_function ? saved_preds : std::vector<uint8_t>{},
              makes_calls);
  RETURN_IF_ERROR(e.run(regions, &out));
  schedule(&out.code);
  // Registers the code touches (allocation plus any scratch used for legalisation).
  uint32_t top = std::max<uint32_t>(used, 1);
  for (const Inst& i : out.code)
    for (uint8_t x : {i.rd, i.ra, i.rb, i.rc})
      if (x != isa::kRZ && x >= kFirstScratch && !(i.op == Opcode::PLOP && x == i.rb))
        top = std::max<uint32_t>(top, std::min<uint32_t>(x + 2u, 255u));
  out.regs_used = top;
  out.regs_allocated = used;
  for (const Region& r : regions) out.convergence_regions += r.barrier >= 0;
  return out;
}

}  // namespace

StatusOr<CodegenResult> generate(ir::Function f, const std::vector<std::string>& symbols, uint32_t local_bytes,
                                 bool is_function, uint32_t max_registers) {
  out_of_ssa(f);
  share_immediates(f);
  layout_blocks(f);
  const auto regions = is_function ? find_regions(f, kFunctionFirstBarrier, kFunctionCallBarrier - 1)
                                   : find_regions(f, 0, kKernelCallBarrier - 1);
  if (is_function || max_registers == 0 || max_registers >= kFirstScratch)
    return emit_function(std::move(f), regions, symbols, local_bytes, is_function, kFirstScratch);
  // A register budget: allocate within it, then, if legalisation's scratch registers
  // (placed after the allocated ones, compact_registers.h) carry the total past it,
  // allocate again with that many fewer. A budget that cannot be met keeps the smallest
  // result reached.
  uint32_t gprs = max_registers;
  CodegenResult best;
  uint32_t best_top = UINT32_MAX;
  for (int attempt = 0; attempt < 8 && gprs >= kMinRegisterBudget; ++attempt) {
    auto r = emit_function(f, regions, symbols, local_bytes, is_function, gprs);
    if (!r.ok()) break;
    std::vector<Inst> code = r->code;
    const uint32_t top = compact_registers(&code, r->regs_allocated);
    if (top < best_top) {
      best_top = top;
      best = std::move(*r);
    }
    if (top <= max_registers) return best;
    gprs -= std::max<uint32_t>(top - max_registers, 4);
  }
  if (best_top != UINT32_MAX) return best;
  return emit_function(std::move(f), regions, symbols, local_bytes, is_function, kFirstScratch);
}

}  // namespace strata::compiler::sx
