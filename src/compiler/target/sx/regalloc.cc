#include "compiler/target/sx/regalloc.h"

#include <fmt/format.h>

#include <algorithm>

#include "compiler/target/sx/liveness.h"
#include "compiler/target/sx/spill.h"

namespace strata::compiler::sx {

using ir::Op;

namespace {

// The spill cost of a rematerialised constant relative to a value kept in memory.
constexpr double kRematerialisedCost = 0.25;

// Live intervals [start, end] over linear positions (two per instruction: uses at 2i,
// definitions at 2i+1); end = -1 for values never touched. `cost_out`: per value, what
// spilling it would cost: its definitions and uses, each weighted 8^loop depth (depth:
// the number of back edges of the layout, branches to a block at or before the branch,
// whose span holds the instruction; at most 4).
void live_intervals(const ir::Function& f, std::vector<int>* start_out, std::vector<int>* end_out,
                    std::vector<double>* cost_out) {
  size_t nv = f.values.size(), nb = f.blocks.size();
  // Linear positions: two per instruction (use at 2i, def at 2i+1).
  std::vector<int> block_start(nb), block_end(nb);
  int pos = 0;
  for (size_t b = 0; b < nb; ++b) {
    block_start[b] = pos;
    pos += 2 * static_cast<int>(f.blocks[b].insts.size());
    block_end[b] = pos - 1;
  }
  const BlockLiveness live = compute_liveness(f);
  std::vector<int> depth_delta(nb + 1, 0);  // per block: back-edge spans opening minus closing
  for (size_t b = 0; b < nb; ++b) {
    if (f.blocks[b].insts.empty()) continue;
    for (int h : f.blocks[b].insts.back().succs)
      if (static_cast<size_t>(h) <= b) {
        ++depth_delta[static_cast<size_t>(h)];
        --depth_delta[b + 1];
      }
  }
  std::vector<int> start(nv, INT32_MAX), end(nv, -1);
  std::vector<double> cost(nv, 0.0);
  auto touch = [&](int v, int p) {
    start[v] = std::min(start[v], p);
    end[v] = std::max(end[v], p);
  };
  int depth = 0;
  for (size_t b = 0; b < nb; ++b) {
    depth += depth_delta[b];
    const double weight = static_cast<double>(1 << (3 * std::min(depth, 4)));
    for (int v : live.live_in[b]) touch(v, block_start[b]);
    for (int v : live.live_out[b]) touch(v, block_end[b]);
    int p = block_start[b];
    for (const auto& i : f.blocks[b].insts) {
      for (const auto& s : i.srcs)
        if (!s.is_imm()) {
          touch(s.value, p);
          cost[s.value] += weight;
        }
      // A pack writes its parts one by one: its result must not share registers with
      // its sources (early clobber).
      for (int d : i.defs)
        if (d != ir::kNoValue) {
          touch(d, i.op == Op::kPack ? p : p + 1);
          cost[d] += weight;
        }
      p += 2;
    }
  }
  // A constant (one kConst definition without a symbol) is rematerialised rather than
  // spilled (spill.h): a move before each use instead of a local store and loads, so it
  // costs a quarter of a value spilled to memory.
  std::vector<int> defs(nv, 0);
  std::vector<bool> constant(nv, false);
  for (const auto& b : f.blocks)
    for (const auto& i : b.insts)
      for (int d : i.defs)
        if (d != ir::kNoValue) {
          ++defs[d];
          constant[d] = i.op == Op::kConst && i.symbol.empty();
        }
  for (size_t v = 0; v < nv; ++v)
    if (defs[v] == 1 && constant[v]) cost[v] *= kRematerialisedCost;
  *start_out = std::move(start);
  *end_out = std::move(end);
  *cost_out = std::move(cost);
}

// One linear-scan pass. On success `spill` is empty; otherwise it lists values to spill
// (the assignment is then incomplete and must be recomputed after spilling).
Status linear_scan(const ir::Function& f, const std::vector<bool>& unspillable, uint32_t gprs,
                   std::vector<int>* reg_out, std::vector<int>* spill, uint32_t* regs_used) {
  std::vector<int> start, end;
  std::vector<double> cost;
  live_intervals(f, &start, &end, &cost);
  size_t nv = f.values.size();
  std::vector<int> order;
  for (size_t v = 0; v < nv; ++v)
    if (end[v] >= 0) order.push_back(static_cast<int>(v));
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return start[a] < start[b]; });
  std::vector<int> reg(nv, -1);
  // Per register file: when each register becomes free, and which value holds it.
  std::vector<int> gpr_free_at(gprs, -1), gpr_owner(gprs, -1);
  std::vector<int> pred_free_at(isa::kNumPreds, -1), pred_owner(isa::kNumPreds, -1);
  auto spillable = [&](int v) { return static_cast<size_t>(v) >= unspillable.size() || !unspillable[v]; };
  // Hints: a value defined by a copy prefers its source's register (the copy then
  // disappears at emission), any other single definition the register of its last source
  // of the same class (an accumulator: an HMMA's or IMAD's C), when that register is free
  // by then (the source dies there). Accumulators updated in place keep a loop's
  // loop-carried values in one set of registers instead of alternating between two.
  std::vector<int> hint(nv, -1);
  for (const auto& b : f.blocks)
    for (const auto& i : b.insts) {
      if (i.defs.size() != 1 || i.defs[0] == ir::kNoValue || hint[i.defs[0]] >= 0) continue;
      const int d = i.defs[0];
      if (i.op == Op::kCopy) {
        if (!i.srcs[0].is_imm()) hint[d] = i.srcs[0].value;
        continue;
      }
      if (i.op == Op::kPhi) continue;
      for (auto s = i.srcs.rbegin(); s != i.srcs.rend(); ++s)
        if (!s->is_imm() && ir::reg_class(f.type_of(s->value)) == ir::reg_class(f.type_of(d))) {
          hint[d] = s->value;
          break;
        }
    }
  uint32_t used = 0;
  for (int v : order) {
    ir::RegClass c = ir::reg_class(f.type_of(v));
    bool is_pred = c == ir::RegClass::kPred;
    std::vector<int>& free_at = is_pred ? pred_free_at : gpr_free_at;
    std::vector<int>& owner = is_pred ? pred_owner : gpr_owner;
    int n = ir::class_regs(c), limit = static_cast<int>(free_at.size());
    int chosen = -1;
    if (int h = hint[v]; h >= 0 && reg[h] >= 0 && ir::reg_class(f.type_of(h)) == c) {
      bool ok = true;
      for (int k = 0; k < n; ++k) ok &= free_at[reg[h] + k] < start[v];
      if (ok) chosen = reg[h];
    }
    for (int r = 0; r + n <= limit && chosen < 0; r += n) {
      bool ok = true;
      for (int k = 0; k < n; ++k) ok &= free_at[r + k] < start[v];
      if (ok) chosen = r;
    }
    if (chosen < 0) {
      // Spill what costs least: a value's priority is its spill cost (live_intervals),
      // ties going to the value that stays live longest from here. Values used only
      // outside loops (an epilogue's loads) go first, values used in loops (loop-carried
      // accumulators, fragments) last: the furthest end alone would pick the
      // accumulators, live from before the main loop to the epilogue. Evict the aligned
      // block whose holders' priorities sum lowest, unless `v`'s own priority is no
      // higher: then `v` is the one spilled.
      auto priority = [&](int o) { return cost[o] - 1e-9 * static_cast<double>(end[o] - start[v] + 1); };
      int best = -1;
      double best_score = 0.0;
      for (int r = 0; r + n <= limit; r += n) {
        double score = 0.0;
        bool ok = true;
        for (int k = 0; k < n && ok; ++k) {
          if (free_at[r + k] < start[v]) continue;
          int o = owner[r + k];
          ok = spillable(o);
          if (k == 0 || owner[r + k] != owner[r + k - 1]) score += priority(o);
        }
        if (ok && (best < 0 || score < best_score)) {
          best = r;
          best_score = score;
        }
      }
      if (spillable(v) && (best < 0 || priority(v) <= best_score)) {
        spill->push_back(v);
        continue;
      }
      if (best < 0)
        return error(Code::kNotSupported, fmt::format("kernel '{}': one instruction needs more than {} {} at once",
                                                      f.name, limit, is_pred ? "predicates" : "registers"));
      for (int k = 0; k < n; ++k) {
        if (free_at[best + k] < start[v]) continue;
        int o = owner[best + k];
        spill->push_back(o);
        for (int j = 0; j < ir::class_regs(ir::reg_class(f.type_of(o))); ++j) {
          free_at[reg[o] + j] = -1;
          owner[reg[o] + j] = -1;
        }
        reg[o] = -1;
      }
      chosen = best;
    }
    for (int k = 0; k < n; ++k) {
      free_at[chosen + k] = end[v];
      owner[chosen + k] = v;
    }
    reg[v] = chosen;
    if (!is_pred) used = std::max<uint32_t>(used, static_cast<uint32_t>(chosen + n));
  }
  *regs_used = used;
  *reg_out = std::move(reg);
  return ok_status();
}

}  // namespace

StatusOr<std::vector<int>> allocate_registers(ir::Function& f, uint32_t local_bytes, uint32_t gprs, uint32_t* regs_used,
                                              uint32_t* local_bytes_out) {
  gprs = std::clamp<uint32_t>(gprs, 1, kFirstScratch);
  SpillState state;
  state.local_top = local_bytes;
  // Each round spills at least one value that is not a spill temporary, and temporaries
  // live for one instruction, so the rounds end; the bound guards against a bug.
  for (int round = 0; round < 1000; ++round) {
    std::vector<int> reg, spill;
    RETURN_IF_ERROR(linear_scan(f, state.unspillable, gprs, &reg, &spill, regs_used));
    if (spill.empty()) {
      *local_bytes_out = state.local_top;
      return reg;
    }
    std::sort(spill.begin(), spill.end());
    spill.erase(std::unique(spill.begin(), spill.end()), spill.end());
    spill_values(f, spill, &state);
  }
  return error(Code::kUnknown,
               fmt::format("internal compiler error: kernel '{}': register allocation does not converge", f.name));
}

}  // namespace strata::compiler::sx
