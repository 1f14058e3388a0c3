// Execution pipes from isa/pipes.def: which pipe of the SM executes an instruction.
// The simulator's statistics count instructions per pipe with pipe_of, and the timing
// models divide each pipe's count by its throughput, so both agree on one table.
//
// PipeClass has exactly the order of hw::perf::Pipe (hw/perf/kernel_stats.h); isa does
// not depend on hw/, so the match is a static_assert where both are visible
// (hw/sim/sm/stats.cc).
#pragma once

#include <cstdint>
#include <string_view>

#include "isa/inst.h"

namespace strata::isa {

enum class PipeClass : uint8_t {
  kFp32,
  kFp64,
  kInt,
  kSfu,
  kTensor,
  kLdst,
  kTexture,
  kControl,
  kCount
};
inline constexpr int kNumPipeClasses = static_cast<int>(PipeClass::kCount);

// "fp32", "fp64", "int", "sfu", "tensor", "ldst", "texture", "control".
std::string_view pipe_class_name(PipeClass p);

// The pipe of `op` for a non-F64 instruction and for an F64 one (type or type2 F64),
// as the table says (no refinement).
PipeClass pipe_of(Opcode op, bool f64);
// The pipe that executes `inst`: the table's entry for its opcode and F64-ness, with
// integer-to-integer CVT on kInt (pipes.def).
PipeClass pipe_of(const Inst& inst);
// The table's justification of `op`'s entry (for docs and reports).
std::string_view pipe_reason(Opcode op);

}  // namespace strata::isa
