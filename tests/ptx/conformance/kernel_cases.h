// Conformance cases that need a whole kernel: memory, warp, barrier, control, special
// register, tensor-core and asynchronous-copy forms, whose meaning involves addresses,
// other threads or the launch rather than a function of register operands.
//
// Each case is a complete PTX module with one kernel `conf`, launched once over
// `grid` x `block` with the listed buffers; `check` compares the buffers after the run
// with values computed on the host by code written independently of the simulator.
// Expected values are never taken from Strata's output.
//
// Every form a case lists must occur in its PTX as an instruction (the runner checks the
// text), so a case cannot claim a form it does not execute. A form checked by several
// cases passes only when all of them pass.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "hw/contract/fault.h"

namespace strata::ptx_conformance {

struct Launch {
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {32, 1, 1};
  uint32_t dynamic_shared = 0;  // bytes of dynamic shared memory
};

using Buffers = std::vector<std::vector<uint8_t>>;

struct KernelCase {
  std::string name;                // unique, e.g. "ld.global.vector-widths"
  std::string family;              // report grouping ("ld", "atom", "shfl", ...)
  std::vector<std::string> forms;  // PTX forms checked, spelled as ptx-opcode-forms.tsv does
  std::string ptx;                 // the module; kernel `conf`
  Launch launch;
  // Initial contents. Kernel parameter i (a .u64) is the device address of buffer i;
  // then come `scalars`, one per remaining parameter, written with its declared size.
  Buffers buffers;
  std::vector<uint64_t> scalars;
  // "" when the buffers after the run are right, else a description of the first
  // discrepancy (index, expected, got).
  std::function<std::string(const Buffers& after)> check;
  // The fault the run must end with (kNone: it must complete without one).
  hw::FaultKind expect_fault = hw::FaultKind::kNone;
};

// The cases of each area, one file each, concatenated by all_kernel_cases().
std::vector<KernelCase> alu_cases();      // kernel_alu.cc: multi-instruction ALU forms (carry chains, ...)
std::vector<KernelCase> memory_cases();   // kernel_memory.cc: ld/st/atom/red/cvta/fence/membar
std::vector<KernelCase> warp_cases();     // kernel_warp.cc: shfl/vote/match/redux/activemask/bar/barrier
std::vector<KernelCase> control_cases();  // kernel_control.cc: bra/call/ret/exit/trap/nanosleep/special registers
std::vector<KernelCase> tensor_cases();   // kernel_tensor.cc: wmma/mma/ldmatrix/stmatrix
std::vector<KernelCase> async_cases();    // kernel_async.cc: cp.async/mbarrier
std::vector<KernelCase> misc_cases();     // kernel_misc.cc: movmatrix, cache policies, prefetch, isspacep, video, cvt.pack
std::vector<KernelCase> texture_cases();  // kernel_texture.cc: tex/tld4/txq and surface instructions

const std::vector<KernelCase>& all_kernel_cases();

// Helpers for building buffers and checks.
template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  if (!b.empty()) __builtin_memcpy(b.data(), v.data(), b.size());
  return b;
}
template <typename T>
std::vector<T> values_of(const std::vector<uint8_t>& b) {
  std::vector<T> v(b.size() / sizeof(T));
  if (!v.empty()) __builtin_memcpy(v.data(), b.data(), v.size() * sizeof(T));
  return v;
}
// Compares element by element; "" or "what[i]: expected X got Y" for the first mismatch.
std::string compare_u32(const std::string& what, const std::vector<uint32_t>& expected, const std::vector<uint32_t>& got);
std::string compare_u64(const std::string& what, const std::vector<uint64_t>& expected, const std::vector<uint64_t>& got);

// True when `form` occurs in `ptx` as an instruction mnemonic (preceded by whitespace
// or a guard, followed by whitespace or ';').
bool ptx_uses_form(const std::string& ptx, const std::string& form);

}  // namespace strata::ptx_conformance
