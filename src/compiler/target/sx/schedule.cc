#include "compiler/target/sx/schedule.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>

#include "isa/latency.h"
#include "isa/reg_uses.h"

namespace strata::compiler::sx {
namespace {

using isa::Inst;
using isa::Opcode;

constexpr int kPredSlot = isa::kNumGprs;  // P0 is slot 255, after R0-R254
constexpr int kSlots = isa::kNumGprs + isa::kNumPreds;
constexpr int kBarriers = 6;  // dependency barriers 0-5
constexpr uint8_t kMaxStall = 15;
constexpr int kMaxRounds = 64;

// What the pass needs to know about one instruction.
struct Node {
  std::vector<uint16_t> reads;      // slots read at issue (guard included)
  std::vector<uint16_t> gpr_reads;  // GPR slots (late readers keep them until their barrier)
  std::vector<uint16_t> writes;     // slots written
  isa::LatencyKind kind = isa::LatencyKind::kNone;
  uint8_t latency = 0;
  bool late_reads = false;
  bool drains = false;        // CALL, RET: nothing may be outstanding across them
  bool clears = false;        // CALL: the code after it starts with nothing outstanding
  bool tensor = false;        // HMMA (the tensor pipe)
  bool long_latency = false;  // a memory access beyond shared memory (global, local, texture)
  int wbar = -1;              // the barrier its variable-latency write sets, -1: none
  int rbar = -1;              // the barrier its late reads set, -1: none
};

Node make_node(const Inst& i) {
  Node n;
  const isa::RegisterUses u = isa::register_uses(i);
  if (u.guard < isa::kPT) n.reads.push_back(static_cast<uint16_t>(kPredSlot + u.guard));
  for (const isa::RegRun& r : u.reads)
    for (int k = 0; k < r.count && r.first + k < isa::kNumGprs; ++k) {
      n.reads.push_back(static_cast<uint16_t>(r.first + k));
      n.gpr_reads.push_back(static_cast<uint16_t>(r.first + k));
    }
  for (int p = 0; p < isa::kNumPreds; ++p)
    if (u.pred_reads & (1u << p)) n.reads.push_back(static_cast<uint16_t>(kPredSlot + p));
  for (int k = 0; k < u.write.count && u.write.first + k < isa::kNumGprs; ++k)
    n.writes.push_back(static_cast<uint16_t>(u.write.first + k));
  for (int p = 0; p < isa::kNumPreds; ++p)
    if (u.pred_writes & (1u << p)) n.writes.push_back(static_cast<uint16_t>(kPredSlot + p));
  const isa::LatencyInfo& l = isa::latency(i);
  n.kind = l.kind;
  n.latency = l.cycles;
  n.late_reads = l.reads == isa::SourceReads::kLate && !n.gpr_reads.empty();
  n.drains = i.op == Opcode::CALL || i.op == Opcode::RET;
  n.clears = i.op == Opcode::CALL;
  const isa::LatencyClass c = isa::latency_class(i);
  n.tensor = c == isa::LatencyClass::kTensor;
  n.long_latency = c == isa::LatencyClass::kTexture ||
                   (c == isa::LatencyClass::kMemory && i.space != isa::MemSpace::SHARED);
  return n;
}

bool unconditional(const Inst& i) {
  return i.guard == isa::kPT && !i.guard_neg;
}
bool never_runs(const Inst& i) {
  return i.guard == isa::kPT && i.guard_neg;
}

// Instruction-level successors (a CALL's is the instruction after it: the callee
// returns there; the callee itself is another unit).
std::vector<int> successors(const std::vector<Inst>& code, int i) {
  const int n = static_cast<int>(code.size());
  const Inst& in = code[i];
  std::vector<int> out;
  const bool falls = !(unconditional(in) && (in.op == Opcode::BRA || in.op == Opcode::EXIT ||
                                             in.op == Opcode::TRAP || in.op == Opcode::RET));
  if (in.op == Opcode::BRA && !never_runs(in) && in.imm < static_cast<uint32_t>(n))
    out.push_back(static_cast<int>(in.imm));
  if (falls && i + 1 < n) out.push_back(i + 1);
  return out;
}

struct Cfg {
  std::vector<int> start, end;  // block -> [start, end)
  std::vector<std::vector<int>> succs, preds;
};

Cfg build_cfg(const std::vector<Inst>& code) {
  const int n = static_cast<int>(code.size());
  std::vector<bool> leader(n + 1, false);
  leader[0] = true;
  for (int i = 0; i < n; ++i) {
    const Inst& in = code[i];
    if (in.op == Opcode::BRA && in.imm < static_cast<uint32_t>(n)) leader[in.imm] = true;
    if (in.op == Opcode::BRA || in.op == Opcode::EXIT || in.op == Opcode::TRAP ||
        in.op == Opcode::RET || in.op == Opcode::CALL)
      leader[i + 1] = true;
  }
  Cfg g;
  std::vector<int> block_of(n, 0);
  for (int i = 0; i < n; ++i) {
    if (leader[i]) {
      if (!g.start.empty()) g.end.push_back(i);
      g.start.push_back(i);
    }
    block_of[i] = static_cast<int>(g.start.size()) - 1;
  }
  g.end.push_back(n);
  const int nb = static_cast<int>(g.start.size());
  g.succs.resize(nb);
  g.preds.resize(nb);
  for (int b = 0; b < nb; ++b) {
    for (int s : successors(code, g.end[b] - 1)) {
      const int sb = block_of[s];
      if (std::find(g.succs[b].begin(), g.succs[b].end(), sb) != g.succs[b].end()) continue;
      g.succs[b].push_back(sb);
      g.preds[sb].push_back(b);
    }
  }
  return g;
}

// Runs a forward dataflow to a fixpoint: entry[b] = merge of the out-states of b's
// predecessors, block 0 entered with `initial`. `transfer(b, state)` turns an entry
// state into the block's out-state. Returns whether each block is reachable.
template <typename State, typename Transfer, typename Merge>
std::vector<bool> solve(const Cfg& g, const State& initial, std::vector<State>* entry,
                        std::vector<State>* out, Transfer transfer, Merge merge) {
  const int nb = static_cast<int>(g.start.size());
  std::vector<bool> reached(nb, false), queued(nb, false);
  entry->assign(nb, initial);
  out->assign(nb, initial);
  std::deque<int> work;
  reached[0] = true;
  work.push_back(0);
  queued[0] = true;
  while (!work.empty()) {
    const int b = work.front();
    work.pop_front();
    queued[b] = false;
    State s = (*entry)[b];
    transfer(b, s);
    (*out)[b] = s;
    for (int t : g.succs[b]) {
      bool changed = !reached[t];
      if (!reached[t]) {
        reached[t] = true;
        (*entry)[t] = s;
      } else {
        changed = merge(&(*entry)[t], s);
      }
      if (changed && !queued[t]) {
        queued[t] = true;
        work.push_back(t);
      }
    }
  }
  return reached;
}

// ---- dependency barriers ----

struct BarrierState {
  std::array<uint8_t, kSlots> wpend{};  // barriers a pending variable-latency write may be on
  std::array<uint8_t, kSlots> rpend{};  // barriers a pending late read may be on
};

bool merge_barriers(BarrierState* into, const BarrierState& s) {
  bool changed = false;
  for (int k = 0; k < kSlots; ++k) {
    const uint8_t w = into->wpend[k] | s.wpend[k], r = into->rpend[k] | s.rpend[k];
    changed |= w != into->wpend[k] || r != into->rpend[k];
    into->wpend[k] = w;
    into->rpend[k] = r;
  }
  return changed;
}

// The barriers instruction `n` must wait on in state `s`.
uint8_t barrier_waits(const Node& n, const BarrierState& s) {
  uint8_t wait = 0;
  for (uint16_t r : n.reads) wait |= s.wpend[r];
  for (uint16_t d : n.writes) wait |= s.wpend[d] | s.rpend[d];
  if (n.drains)
    for (int k = 0; k < kSlots; ++k) wait |= s.wpend[k] | s.rpend[k];
  return wait;
}

// Applies instruction `n` to `s`; returns the barriers it must wait on.
uint8_t barrier_step(const Node& n, BarrierState& s) {
  const uint8_t wait = barrier_waits(n, s);
  if (wait != 0) {
    const uint8_t keep = static_cast<uint8_t>(~wait);
    for (int k = 0; k < kSlots; ++k) {
      s.wpend[k] &= keep;
      s.rpend[k] &= keep;
    }
  }
  if (n.wbar >= 0)
    for (uint16_t d : n.writes) s.wpend[d] = static_cast<uint8_t>(1u << n.wbar);
  if (n.rbar >= 0)
    for (uint16_t r : n.gpr_reads) s.rpend[r] |= static_cast<uint8_t>(1u << n.rbar);
  if (n.clears) s = BarrierState{};
  return wait;
}

// Hands out the barriers (see schedule.h). Without tensor instructions: one barrier per
// instruction, round-robin over all six, its write and late reads on the same one. With
// them, four pools: HMMA results on 0, global / local / texture loads on 1-2, other
// variable-latency results (shared memory, ldmatrix, MUFU, S2R, SHFL, ...) on 3-4, late
// reads on 5 (an HMMA sets a write and a read barrier). Within a pool the choice follows
// the code in order (as if it were straight-line): the next barrier, round-robin, that
// no instruction set since the last wait on it, else the one set most recently (a
// result nothing has waited for yet keeps its barrier while others are available; when
// none is, joining the newest producer delays the older results' consumers least).
void assign_barriers(std::vector<Node>* nodes) {
  const bool tensor =
      std::any_of(nodes->begin(), nodes->end(), [](const Node& n) { return n.tensor; });
  std::array<bool, kBarriers> pending{};
  std::array<size_t, kBarriers> set_at{};
  struct Pool {
    int first, count, next = 0;
  };
  const auto take = [&](Pool& p) {
    int best = -1;
    for (int i = 0; i < p.count && best < 0; ++i) {
      const int b = p.first + (p.next + i) % p.count;
      if (!pending[b]) best = b;
    }
    if (best < 0) {
      best = p.first;
      for (int b = p.first; b < p.first + p.count; ++b)
        if (set_at[b] > set_at[best]) best = b;
    }
    p.next = (best - p.first + 1) % p.count;
    return best;
  };
  Pool all{0, kBarriers}, tensor_writes{0, 1}, long_writes{1, 2}, short_writes{3, 2}, reads{5, 1};
  BarrierState state;
  for (size_t i = 0; i < nodes->size(); ++i) {
    Node& n = (*nodes)[i];
    const bool writes = n.kind == isa::LatencyKind::kVariable && !n.writes.empty();
    if (!tensor) {
      if (writes || n.late_reads) {
        const int b = all.first + all.next;
        all.next = (all.next + 1) % all.count;
        if (writes) n.wbar = b;
        if (n.late_reads) n.rbar = b;
      }
      continue;
    }
    const uint8_t wait = barrier_waits(n, state);
    for (int b = 0; b < kBarriers; ++b)
      if (wait & (1u << b)) pending[b] = false;
    if (writes)
      n.wbar = take(n.tensor ? tensor_writes : n.long_latency ? long_writes : short_writes);
    if (n.late_reads) n.rbar = take(reads);
    barrier_step(n, state);
    for (const int b : {n.wbar, n.rbar})
      if (b >= 0) pending[b] = true, set_at[b] = i;
  }
}

// ---- stalls ----

struct StallState {
  std::array<uint8_t, kSlots> rem{};  // cycles until the pending fixed-latency write lands
};

bool merge_stalls(StallState* into, const StallState& s) {
  bool changed = false;
  for (int k = 0; k < kSlots; ++k)
    if (s.rem[k] > into->rem[k]) {
      into->rem[k] = s.rem[k];
      changed = true;
    }
  return changed;
}

// Cycles instruction `n` issues too early in state `s` (0: in time).
uint8_t stall_need(const Node& n, const StallState& s) {
  uint8_t need = 0;
  for (uint16_t r : n.reads) need = std::max(need, s.rem[r]);
  for (uint16_t d : n.writes) {
    if (n.kind == isa::LatencyKind::kFixed) {
      if (s.rem[d] > n.latency)
        need = std::max<uint8_t>(need, static_cast<uint8_t>(s.rem[d] - n.latency));
    } else {
      need = std::max(need, s.rem[d]);
    }
  }
  return need;
}

void advance(StallState& s, uint8_t cycles) {
  for (uint8_t& r : s.rem) r = r > cycles ? static_cast<uint8_t>(r - cycles) : 0;
}

// Applies instruction `n` issued `delay` cycles late (its need) with stall `stall`.
// `*drain` gets the stall that lands every outstanding write before the next issue.
void stall_step(const Node& n, StallState& s, uint8_t delay, uint8_t stall, uint8_t* drain) {
  advance(s, delay);
  for (uint16_t d : n.writes) s.rem[d] = n.kind == isa::LatencyKind::kFixed ? n.latency : 0;
  *drain = 1;
  for (uint8_t r : s.rem) *drain = std::max(*drain, r);
  advance(s, stall);
  if (n.clears) s = StallState{};
}

}  // namespace

void schedule(std::vector<Inst>* code_ptr) {
  std::vector<Inst>& code = *code_ptr;
  if (code.empty()) return;
  const Cfg g = build_cfg(code);
  const int nb = static_cast<int>(g.start.size());
  std::vector<Node> nodes;
  nodes.reserve(code.size());
  for (const Inst& i : code) nodes.push_back(make_node(i));
  assign_barriers(&nodes);

  // Barriers: waits from the dataflow's fixpoint.
  std::vector<BarrierState> bentry, bout;
  const std::vector<bool> reached = solve<BarrierState>(
      g, BarrierState{}, &bentry, &bout,
      [&](int b, BarrierState& s) {
        for (int i = g.start[b]; i < g.end[b]; ++i) barrier_step(nodes[i], s);
      },
      merge_barriers);
  for (Inst& i : code) {
    const bool yield = i.ctrl.yield;  // the emitter's choice
    i.ctrl = isa::Control{};
    i.ctrl.yield = yield;
  }
  for (int b = 0; b < nb; ++b) {
    if (!reached[b]) continue;
    BarrierState s = bentry[b];
    for (int i = g.start[b]; i < g.end[b]; ++i) {
      const Node& n = nodes[i];
      code[i].ctrl.wait = barrier_step(n, s);
      if (n.wbar >= 0) code[i].ctrl.wbar = static_cast<uint8_t>(n.wbar);
      if (n.rbar >= 0) code[i].ctrl.rbar = static_cast<uint8_t>(n.rbar);
    }
  }

  // Stalls: grow the stalls of the predecessors of every instruction that would issue
  // too early, until none does.
  std::vector<StallState> sentry, sout;
  auto bump = [&](int i, uint8_t need) {
    uint8_t& st = code[i].ctrl.stall;
    const uint8_t grown = static_cast<uint8_t>(std::min<int>(kMaxStall, st + need));
    if (grown == st) return false;
    st = grown;
    return true;
  };
  bool converged = false;
  for (int round = 0; round < kMaxRounds && !converged; ++round) {
    solve<StallState>(
        g, StallState{}, &sentry, &sout,
        [&](int b, StallState& s) {
          for (int i = g.start[b]; i < g.end[b]; ++i) {
            uint8_t drain;
            stall_step(nodes[i], s, stall_need(nodes[i], s), code[i].ctrl.stall, &drain);
          }
        },
        merge_stalls);
    bool changed = false, late = false;
    for (int b = 0; b < nb; ++b) {
      if (!reached[b]) continue;
      const int first = g.start[b];
      for (int p : g.preds[b]) {
        const uint8_t need = stall_need(nodes[first], sout[p]);
        if (need > 0) {
          late = true;
          changed |= bump(g.end[p] - 1, need);
        }
      }
      StallState s = sentry[b];
      for (int i = first; i < g.end[b]; ++i) {
        const uint8_t need = stall_need(nodes[i], s);
        if (need > 0 && i > first) {
          late = true;
          changed |= bump(i - 1, need);
        }
        uint8_t drain;
        stall_step(nodes[i], s, need, code[i].ctrl.stall, &drain);
        if (nodes[i].drains && code[i].ctrl.stall < drain) {
          code[i].ctrl.stall = drain;
          changed = true;
        }
      }
    }
    converged = !changed && !late;
    if (!changed) break;
  }
  if (!converged) {
    // Not expected (every stall can reach 15, which covers any fixed latency), but a
    // stall of 15 everywhere is always enough.
    for (Inst& i : code) i.ctrl.stall = kMaxStall;
  }
}

}  // namespace strata::compiler::sx
