// Instruction latencies from isa/latencies.def: how long an instruction's result takes
// and whether its sources are read at issue. The compiler's scheduler and the
// simulator's hazard checker both decide with these functions, so they agree.
#pragma once

#include <cstdint>
#include <string_view>

#include "isa/inst.h"

namespace strata::isa {

enum class LatencyKind : uint8_t { kNone, kFixed, kVariable };
enum class SourceReads : uint8_t { kAtIssue, kLate };

enum class LatencyClass : uint8_t {
#define STRATA_LATENCY_CLASS(NAME, KIND, CYCLES, READS, DESCRIPTION) NAME,
#include "isa/latencies.def"
  kCount
};

struct LatencyInfo {
  std::string_view name;  // "kAlu"
  LatencyKind kind;
  uint8_t cycles;  // kFixed: 1-15; otherwise 0
  SourceReads reads;
  std::string_view description;
};

// The largest fixed latency of the table (at most 15, the stall field's maximum).
inline constexpr int kMaxFixedLatency = 15;

const LatencyInfo& latency_class_info(LatencyClass c);
// The class of `op` for a non-F64 instruction and for an F64 one (type or type2 F64).
LatencyClass latency_class(Opcode op, bool f64);
// The class that applies to `inst`.
LatencyClass latency_class(const Inst& inst);
inline const LatencyInfo& latency(const Inst& inst) {
  return latency_class_info(latency_class(inst));
}

}  // namespace strata::isa
