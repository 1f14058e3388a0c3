// Per-warp state of the hazard checker (hazard_check.h): plain data kept in the Warp.
#pragma once

#include <cstdint>
#include <vector>

namespace strata::hw::sim {

inline constexpr int kNumDepBarriers = 6;  // dependency barriers 0-5 (wbar/rbar/wait)

// What the checker knows about one register (a GPR, or a predicate) of one warp. Lane
// masks make it exact under divergence: a write by some lanes never hides the others'.
struct HazardReg {
  uint32_t ready = 0;        // cycle from which the last fixed-latency write is readable
  uint32_t fixed_lanes = 0;  // lanes that write covered
  uint32_t var_lanes = 0;    // lanes with a variable-latency write outstanding
  uint32_t read_lanes = 0;   // lanes with a late source read outstanding
  uint32_t var_gen = 0;      // generation of var_bar when the write issued
  uint32_t read_gen = 0;
  uint32_t fixed_pc = 0, var_pc = 0, read_pc = 0;  // producers (diagnostics)
  uint8_t var_bar = 7;  // dependency barrier the write set; 7: none (never done)
  uint8_t read_bar = 7;
};

struct HazardState {
  uint32_t cycle = 0;                  // the warp's virtual issue cycle
  uint32_t gen[kNumDepBarriers] = {};  // bumped when the warp waits on the barrier
  std::vector<HazardReg> regs;         // predicates P0-P6, then R0.. (hazard_check.h)
};

}  // namespace strata::hw::sim
