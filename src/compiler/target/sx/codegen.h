// Strata back end: SSA IR -> Strata ISA instructions for one kernel.
//
// Steps: out-of-SSA translation with phi coalescing (out_of_ssa.h), sharing of
// immediates the ISA cannot encode in place (immediates.h), block layout for
// fall-through (layout.h), liveness and linear-scan register allocation (GPRs
// R0-R243, 64-bit values in even-aligned pairs, 128-bit in 4-aligned quads; predicates
// P0-P6; R244-R253 are scratch registers for legalising immediates), convergence
// barriers, emission. Calls follow docs/abi.md.
//
// CONVERGENCE: for every conditional branch that is not warp-uniform (bra.uni), with
// immediate post-dominator P (a virtual exit post-dominates exiting blocks): if P is the
// virtual exit, or a block that only exits (directly or through blocks that only
// branch), no barrier is needed (threads leave through EXIT). Otherwise `BSSY Bn, P`
// goes at the end of block D and `BSYNC Bn` starts P, where D is the nearest dominator
// of the branch's block (itself included) such that
//   - D dominates P: every thread reaching the BSYNC ran this BSSY (a BSYNC reached
//     around it would wait on the mask an earlier BSSY left, for threads that may be
//     waiting elsewhere: deadlock), so branches whose join is also reached from
//     outside them share the region of the block that dominates the join;
//   - D cannot be reached again from D without passing P (a branch in loops that P is
//     outside of re-converges once, at P: D is above the outermost such loop);
//   - P cannot be reached again from P without passing D (P is not the header of a
//     loop D is outside of), and no thread can return from a function between D and P.
// A branch with no such D gets no barrier (its threads stay diverged until an
// enclosing BSYNC). Regions get barrier ids by colouring: regions whose live blocks
// (from D's end through P's start) meet, such as nested ones, use distinct ids (more
// than 16 at once: the extra regions get none).
//
// CONTROL BITS: after emission, schedule.h sets every instruction's stall count and
// dependency barriers (wbar, rbar, wait) from the latency table isa/latencies.def, so
// that the code is hazard-free (the simulator checks this with STRATA_CHECK_HAZARDS=1);
// yield is set here, on backward branches and on warp-synchronising instructions, so a
// spinning warp lets others run.
#pragma once

#include <vector>

#include "base/status.h"
#include "compiler/ir/ir.h"
#include "compiler/sxbin/sxbin.h"
#include "isa/inst.h"

namespace strata::compiler::sx {

struct CodegenResult {
  std::vector<isa::Inst> code;
  uint32_t regs_used = 0;               // highest GPR index + 1
  uint32_t regs_allocated = 0;          // R0..R(n-1) hold allocated values
  std::vector<sxbin::LineEntry> lines;  // instruction index -> PTX line / .loc
  int convergence_regions = 0;          // BSSY/BSYNC pairs emitted
  uint32_t local_bytes = 0;             // local memory per thread, spill slots included
  // Real calls (docs/abi.md). frame_bytes: this code's frame (a kernel: its local memory,
  // 16-aligned; a function: parameters, locals, spills and saved registers). relocs:
  // code index -> function whose first instruction's index the instruction's imm takes
  // (CALL targets and function-pointer constants), to be patched at layout.
  uint32_t frame_bytes = 0;
  std::vector<std::pair<size_t, std::string>> relocs;
};

// Registers of the calling convention (docs/abi.md), outside the allocatable R0-R243 and
// the legalisation scratch registers.
inline constexpr uint8_t kStackPointerReg = 246;
inline constexpr uint8_t kReturnAddressReg = 247;

// `symbols` maps kSymAddr symbols to c[1] entries (index in the vector). `local_bytes`:
// the kernel's own local memory per thread; register spill slots are placed after it.
// `is_function`: `f` is a called function (ir::lower_function): it gets the prologue and
// epilogue of docs/abi.md and addresses its frame through the stack pointer.
// `max_registers` (kernels; 0: none): the registers per thread the kernel should fit in
// (from .maxnreg, or .maxntid with .minnctapersm: ir::KernelInfo::max_registers),
// counted after compact_registers; the allocator spills the cheapest values to meet it.
StatusOr<CodegenResult> generate(ir::Function f, const std::vector<std::string>& symbols, uint32_t local_bytes,
                                 bool is_function = false, uint32_t max_registers = 0);

}  // namespace strata::compiler::sx
