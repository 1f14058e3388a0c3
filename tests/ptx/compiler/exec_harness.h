// Compiles PTX with compile_ptx and runs one of its kernels on the SM core (through the
// simulator's test harness: fake VRAM, hand-made page tables, parameters in c[0]).
// Kernels that reference module-scope global variables need the loader's c[1] symbol
// table, which this harness does not provide; use the CUDA tests for those.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "compiler/sxbin/sxbin.h"
#include "hw/sim/sm/test_harness.h"

namespace strata::compiler::testing {

using hw::sim::testing::Dim;

class PtxExec {
 public:
  // Compiles `ptx` (one module) at `opt_level`; the result is kept for run().
  Status compile(const std::string& ptx, int opt_level = 2);

  // Runs kernel `name` over grid x block. `params` holds one value per declared
  // parameter, written little-endian at its offset with its declared size.
  StatusOr<hw::sim::FaultRecord> run(const std::string& name, Dim grid, Dim block,
                                     const std::vector<uint64_t>& params);
  // Runs kernel `name` with the parameter block given byte for byte (for by-value
  // aggregates); it must be exactly the kernel's param_bytes long.
  StatusOr<hw::sim::FaultRecord> run_with_param_block(const std::string& name, Dim grid, Dim block,
                                                      const std::vector<uint8_t>& block_bytes);

  // Dynamic shared memory for the following runs, in bytes (after the static shared).
  void set_dynamic_shared(uint32_t bytes) { dynamic_shared_ = bytes; }
  // The launch environment (%envreg0..31, constant bank 4) of the following runs; all
  // zero unless set, as the driver binds it for an ordinary launch.
  void set_env_regs(const std::vector<uint32_t>& regs) { env_regs_ = regs; }

  const sxbin::Binary& binary() const { return bin_; }
  // The kernel's code as Strata assembly (for failure messages).
  std::string disassembly(const std::string& name, bool with_control = false) const;
  const sxbin::KernelDesc* kernel(const std::string& name) const { return bin_.find_kernel(name); }

  // Device memory for the kernels' pointer arguments.
  uint64_t alloc(uint64_t bytes) { return h_.alloc(bytes); }
  template <typename T>
  void write(uint64_t va, const std::vector<T>& v) {
    h_.write(va, v);
  }
  template <typename T>
  std::vector<T> read(uint64_t va, size_t n) {
    return h_.read<T>(va, n);
  }

 private:
  hw::sim::testing::Harness h_;
  sxbin::Binary bin_;
  uint32_t dynamic_shared_ = 0;
  std::vector<uint32_t> env_regs_ = std::vector<uint32_t>(sxbin::kEnvRegCount, 0);
};

}  // namespace strata::compiler::testing
