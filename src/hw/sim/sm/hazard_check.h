// The hazard checker (STRATA_CHECK_HAZARDS=1): a functional-model mode that faults
// kHazard when an instruction's control bits (docs/isa.md "Control bits") do not make it
// safe, i.e. when real hardware honouring only those bits could read a stale register.
//
// Model, per warp (so the verdict does not depend on STRATA_THREADS or on the other
// warps): a virtual issue cycle that starts at 0 and advances by each instruction's
// stall count (0 counts as 1) whether or not its guard holds; waiting on dependency
// barrier b (the wait mask, applied at issue) completes every variable-latency write
// and late source read that set b. Latencies and the registers read and written come
// from isa/latency.h and isa/reg_uses.h, the tables the compiler schedules with.
// Faults, for the lanes involved (a register's state is kept per lane set, so diverged
// paths do not see each other's writes):
//   - reading a register whose fixed-latency producer issued fewer than its latency
//     cycles ago, or whose variable-latency producer's barrier the warp has not waited
//     on since (a producer that set no barrier is never done);
//   - writing a register while a variable-latency write to it is outstanding, or a
//     fixed-latency write to it would land after this one (WAW);
//   - writing a register that a late-reading instruction (memory pipe) may not have
//     read yet: its rbar (else its wbar) not waited on (WAR).
// The fault record's address is the register: 0-254 for R0-R254, 256 + p for Pp; the
// log line names the producer.
#pragma once

#include <cstdint>

#include "hw/sim/sm/hazard_state.h"
#include "isa/inst.h"

namespace strata::hw::sim {

// HazardState::regs index of a predicate and of a GPR.
inline constexpr uint16_t kHazardPredSlot = 0;
inline constexpr uint16_t kHazardGprSlot = isa::kNumPreds;
inline constexpr uint8_t kHazardNoSlot = 0xff;

// An instruction as the checker sees it, pre-computed by decode_program.
struct HazardOps {
  static constexpr int kMaxSlots = 28;
  uint16_t slots[kMaxSlots] = {};  // sources [0, nreads), then destinations
  uint8_t nreads = 0, nwrites = 0;
  uint8_t ngpr_reads = 0;         // the first ngpr_reads sources are GPRs
  uint8_t guard = kHazardNoSlot;  // slot of the guard predicate
  uint8_t kind = 0;               // isa::LatencyKind
  uint8_t latency = 0;
  bool late_reads = false;
  uint8_t stall = 1;  // >= 1
  uint8_t wait = 0;   // barriers 0-5
  uint8_t wbar = isa::kNoDepBarrier, rbar = isa::kNoDepBarrier;
};

HazardOps hazard_ops(const isa::Inst& inst);

// STRATA_CHECK_HAZARDS is set to a value other than "" and "0".
bool hazard_check_from_environment();

// Sizes a warp's checker state for registers R0..gpr_rows-1 and resets it.
void hazard_reset(HazardState* state, uint32_t gpr_rows);

}  // namespace strata::hw::sim
