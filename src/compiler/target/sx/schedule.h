// Control bits: the scheduling pass of the Strata back end (docs/isa.md "Control bits").
//
// Runs on one unit of emitted code (a kernel's or a called function's instructions, with
// branch and reconvergence targets as indices into `code`), after register allocation
// and layout, without reordering anything. It sets every instruction's stall, wbar,
// rbar and wait (yield is left as the emitter set it) so that the code is free of
// hazards under the rules of hw/sim/sm/hazard_check.h, with the latencies of
// isa/latencies.def and the register uses of isa/reg_uses.h:
//
// - Fixed-latency results: a dataflow over the unit's control-flow graph tracks, per
//   register (GPRs and predicates), the cycles its pending write still needs, taking
//   the maximum where paths join (branches, reconvergence points). Where an instruction
//   would read (or, for the write-after-write order, write) too early, the stall of
//   each predecessor on the offending paths grows; this repeats until no path is short.
//   Stalls are at least 1 and at most 15 (no fixed latency exceeds 15).
// - Variable-latency results (memory, MUFU, S2R, SHFL, ...): the producer sets a write
//   barrier; late-reading instructions (the memory pipe, HMMA) set a read barrier.
//   Barriers 0-5 are handed out round-robin in code order and may be shared: waiting on
//   one completes everything that set it. In a unit without HMMA an instruction's write
//   and read barrier are the same, taken from all six. With HMMA, whose results are
//   consumed long after and whose sources are overwritten soon after (fragment
//   registers), pools keep the waits from completing unrelated work: HMMA results on
//   0, global / local / texture loads on 1-2, other variable-latency results (shared
//   memory, ldmatrix, MUFU, ...) on 3-4, late reads on 5; within a pool a barrier no
//   one has waited on since it was set is reused last. A dataflow tracks, per register,
//   the barriers its pending write or pending late read may be on (union at joins);
//   an instruction waits on those of its sources (RAW), of its destinations (WAW, WAR).
// - Calls and returns: CALL and RET wait on every barrier that may be pending and stall
//   until every fixed-latency write (CALL's own return address included) has landed, so
//   each unit starts and resumes after a call with no hazard outstanding.
#pragma once

#include <vector>

#include "isa/inst.h"

namespace strata::compiler::sx {

void schedule(std::vector<isa::Inst>* code);

}  // namespace strata::compiler::sx
