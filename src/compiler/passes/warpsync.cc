// Redundant whole-warp WARPSYNCs (passes.h, remove_redundant_warpsyncs).
//
// The lowering puts `WARPSYNC 0xffffffff` before every warp-wide instruction (mma.sync,
// ldmatrix, the *.sync warp operations: lower_tensor.cc, docs/isa.md "Tensor core"), so a
// GEMM's run of HMMAs is a WARPSYNC per HMMA. Once the whole warp has passed a WARPSYNC
// of the full mask it stays converged until control flow can split it: a branch, call,
// return or exit, a convergence barrier (BSSY/BSYNC) or any instruction that may suspend
// or reschedule threads (the kSync and kBarrier opcodes). Within one basic block, a
// second full-mask WARPSYNC with none of those since the first is a no-op and is removed;
// a store, atomic or fence in between keeps it too (bar.warp.sync also orders memory
// among the lanes).
#include <vector>

#include "compiler/passes/passes.h"

namespace strata::compiler::passes {
namespace {

using isa::Opcode;

constexpr uint64_t kFullMask = 0xffffffffull;

bool is_full_warpsync(const ir::Inst& i) {
  return i.op == ir::Op::kIsa && i.isa_op == Opcode::WARPSYNC && i.srcs.size() == 1 &&
         i.srcs[0].is_imm() && (i.srcs[0].imm & kFullMask) == kFullMask && i.defs.empty();
}

// Whether the warp stays as converged as it was across `i`.
bool keeps_convergence(const ir::Inst& i) {
  if (i.is_terminator()) return false;
  if (i.op != ir::Op::kIsa) return true;  // copies, packs, constants...
  const uint32_t flags = isa::op_info(i.isa_op).flags;
  if (flags & (isa::kBranch | isa::kExit | isa::kBarrier | isa::kSync)) return false;
  // A WARPSYNC after a store or fence also orders memory among the lanes (bar.warp.sync).
  if (flags & (isa::kStore | isa::kAtomic)) return false;
  return i.isa_op != Opcode::BSSY && i.isa_op != Opcode::BSYNC && i.isa_op != Opcode::MEMBAR;
}

}  // namespace

bool remove_redundant_warpsyncs(ir::Function& f) {
  bool changed = false;
  for (auto& b : f.blocks) {
    std::vector<ir::Inst> out;
    out.reserve(b.insts.size());
    bool converged =
        false;  // a full-mask WARPSYNC earlier in the block, nothing since splits the warp
    for (ir::Inst& i : b.insts) {
      if (is_full_warpsync(i)) {
        if (converged) {
          changed = true;
          continue;
        }
        converged = true;
      } else if (!keeps_convergence(i)) {
        converged = false;
      }
      out.push_back(std::move(i));
    }
    b.insts = std::move(out);
  }
  return changed;
}

}  // namespace strata::compiler::passes
