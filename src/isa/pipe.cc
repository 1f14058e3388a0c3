#include "isa/pipe.h"

#include <array>

#include "base/check.h"

namespace strata::isa {
namespace {

struct Entry {
  PipeClass normal, f64;
  std::string_view why;
};

// One constant per pipes.def line, named after its opcode; the table below takes them
// in opcodes.def order. An opcode without a line in pipes.def is a compile error here
// ("'NAME' is not a member of 'strata::isa::pipe_entry'"), and so are a line for an
// opcode that does not exist and a duplicate line.
namespace pipe_entry {
#define STRATA_PIPE(OPCODE, PIPE, F64_PIPE, WHY)                                   \
  static_assert(static_cast<int>(Opcode::OPCODE) < kNumOpcodes, "unknown opcode"); \
  inline constexpr Entry OPCODE{PipeClass::PIPE, PipeClass::F64_PIPE, WHY};
#include "isa/pipes.def"
}  // namespace pipe_entry

constexpr std::array<Entry, kNumOpcodes> kEntries = {{
#define STRATA_OP(NAME, PIPE, OPERANDS, FLAGS, SUMMARY) pipe_entry::NAME,
#include "isa/opcodes.def"
#undef STRATA_OP
}};

bool is_integer(DataType t) {
  switch (t) {
    case DataType::U8:
    case DataType::S8:
    case DataType::U16:
    case DataType::S16:
    case DataType::U32:
    case DataType::S32:
    case DataType::U64:
    case DataType::S64:
    case DataType::B8:
    case DataType::B16:
    case DataType::B32:
    case DataType::B64:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::string_view pipe_class_name(PipeClass p) {
  static constexpr std::array<std::string_view, kNumPipeClasses> kNames = {
      "fp32", "fp64", "int", "sfu", "tensor", "ldst", "texture", "control"};
  CHECK_MSG(static_cast<int>(p) < kNumPipeClasses, "invalid PipeClass");
  return kNames[static_cast<int>(p)];
}

PipeClass pipe_of(Opcode op, bool f64) {
  CHECK_MSG(static_cast<int>(op) < kNumOpcodes, "invalid Opcode");
  const Entry& e = kEntries[static_cast<int>(op)];
  return f64 ? e.f64 : e.normal;
}

PipeClass pipe_of(const Inst& inst) {
  if (inst.op == Opcode::CVT && is_integer(inst.type) && is_integer(inst.type2))
    return PipeClass::kInt;
  return pipe_of(inst.op, inst.type == DataType::F64 || inst.type2 == DataType::F64);
}

std::string_view pipe_reason(Opcode op) {
  CHECK_MSG(static_cast<int>(op) < kNumOpcodes, "invalid Opcode");
  return kEntries[static_cast<int>(op)].why;
}

}  // namespace strata::isa
