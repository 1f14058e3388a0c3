// Instructions for the detailed model's tests on hand-built traces (detailed_test.cc,
// sampled_test.cc): what each test needs is the opcode, its control bits and which
// registers it reads and writes.
#pragma once

#include <cstdint>

#include "isa/encode.h"

namespace strata::hw::perf::testing {

inline isa::Inst inst(isa::Opcode op, uint8_t stall = 1) {
  isa::Inst i;
  i.op = op;
  i.ctrl.stall = stall;
  return i;
}

// R0 = R1 * R2 + R0.
inline isa::Inst ffma(uint8_t stall) {
  isa::Inst i = inst(isa::Opcode::FFMA, stall);
  i.type = isa::DataType::F32;
  i.rd = 0, i.ra = 1, i.rb = 2, i.rc = 0;
  return i;
}

// R3 = R4 + R5, waiting on the dependency barriers in `wait`.
inline isa::Inst iadd(uint8_t stall = 1, uint8_t wait = 0) {
  isa::Inst i = inst(isa::Opcode::IADD, stall);
  i.type = isa::DataType::U32;
  i.rd = 3, i.ra = 4, i.rb = 5;
  i.ctrl.wait = wait;
  return i;
}

// LD R6, [R8] or ST [R8], R9 in `space`, setting write barrier `wbar`.
inline isa::Inst memory(isa::Opcode op, isa::MemSpace space, uint8_t wbar, uint8_t wait) {
  isa::Inst i = inst(op);
  i.type = isa::DataType::U32;
  i.space = space;
  if (op == isa::Opcode::LD) i.rd = 6;
  i.ra = 8;
  if (op == isa::Opcode::ST) i.rb = 9;
  i.ctrl.wbar = wbar;
  i.ctrl.wait = wait;
  return i;
}

inline isa::Inst bar_sync() {
  isa::Inst i = inst(isa::Opcode::BAR);
  i.mod = static_cast<uint8_t>(isa::BarOp::SYNC);
  return i;
}

}  // namespace strata::hw::perf::testing
