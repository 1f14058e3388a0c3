// Moves the registers outside the allocatable range (the legalisation scratch registers
// R244-R253, which include the stack pointer and return address of docs/abi.md) down
// to just above the allocated registers, so that a kernel reports the registers it
// really needs (occupancy, cudaFuncGetAttributes) rather than ~250.
//
// `code` is a whole kernel: its own code and every function laid out after it, since
// the calling convention's registers must move the same way in all of them.
// `allocated` is the largest register count any of them allocated (R0..allocated-1).
// The move keeps each register's offset from R244, so pairs and quads stay aligned
// (the new base is a multiple of 4). Returns the kernel's new register count.
#pragma once

#include <cstdint>
#include <vector>

#include "isa/inst.h"

namespace strata::compiler::sx {

uint32_t compact_registers(std::vector<isa::Inst>* code, uint32_t allocated);

}  // namespace strata::compiler::sx
