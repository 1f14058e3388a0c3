// The registers an instruction reads and writes, as the hazard rules see them: which
// GPRs (each operand an aligned run of 1, 2 or 4 registers, by the operand's width) and
// which predicates. The compiler's scheduler and the simulator's hazard checker both
// use this, so a dependency one of them sees the other sees too.
//
// RZ and PT are never listed; an immediate b is not a read. The guard predicate is
// reported apart (it is read for every thread of the running group, the other sources
// only for the threads whose guard holds).
#pragma once

#include <cstdint>

#include "isa/inst.h"

namespace strata::isa {

struct RegRun {
  uint8_t first = 0;
  uint8_t count = 0;  // 0: no register
};

struct RegisterUses {
  RegRun reads[4];          // GPR sources, unused entries have count 0
  RegRun write;             // GPR destination
  uint8_t pred_reads = 0;   // bit p: Pp is a source (guard excluded)
  uint8_t pred_writes = 0;  // bit p: Pp is a destination
  uint8_t guard = kPT;      // the guard predicate, kPT when unconditional
};

RegisterUses register_uses(const Inst& inst);

}  // namespace strata::isa
