#include "isa/latency.h"

#include <array>

#include "base/check.h"

namespace strata::isa {
namespace {

constexpr std::array<LatencyInfo, static_cast<int>(LatencyClass::kCount)> kClasses = {{
#define STRATA_LATENCY_CLASS(NAME, KIND, CYCLES, READS, DESCRIPTION) \
  {#NAME, LatencyKind::KIND, CYCLES, SourceReads::READS, DESCRIPTION},
#include "isa/latencies.def"
}};

constexpr bool classes_valid() {
  for (const LatencyInfo& c : kClasses) {
    if (c.kind == LatencyKind::kFixed && (c.cycles < 1 || c.cycles > kMaxFixedLatency))
      return false;
    if (c.kind != LatencyKind::kFixed && c.cycles != 0) return false;
  }
  return true;
}
static_assert(classes_valid(), "latencies.def: a fixed latency must be 1-15 cycles, others 0");

struct Entry {
  LatencyClass normal, f64;
};

// One constant per latencies.def line, named after its opcode. The table below takes
// them in opcodes.def order: an opcode without a line in latencies.def is a compile
// error here ("'NAME' is not a member of 'strata::isa::latency_entry'"), a line for an
// opcode that does not exist is one too, and so is a duplicate line.
namespace latency_entry {
#define STRATA_LATENCY(OPCODE, CLASS, F64_CLASS)                                   \
  static_assert(static_cast<int>(Opcode::OPCODE) < kNumOpcodes, "unknown opcode"); \
  inline constexpr Entry OPCODE{LatencyClass::CLASS, LatencyClass::F64_CLASS};
#include "isa/latencies.def"
}  // namespace latency_entry

constexpr std::array<Entry, kNumOpcodes> kEntries = {{
#define STRATA_OP(NAME, PIPE, OPERANDS, FLAGS, SUMMARY) latency_entry::NAME,
#include "isa/opcodes.def"
#undef STRATA_OP
}};

}  // namespace

const LatencyInfo& latency_class_info(LatencyClass c) {
  CHECK_MSG(static_cast<int>(c) < static_cast<int>(LatencyClass::kCount), "invalid LatencyClass");
  return kClasses[static_cast<int>(c)];
}

LatencyClass latency_class(Opcode op, bool f64) {
  CHECK_MSG(static_cast<int>(op) < kNumOpcodes, "invalid Opcode");
  const Entry& e = kEntries[static_cast<int>(op)];
  return f64 ? e.f64 : e.normal;
}

LatencyClass latency_class(const Inst& inst) {
  return latency_class(inst.op, inst.type == DataType::F64 || inst.type2 == DataType::F64);
}

}  // namespace strata::isa
