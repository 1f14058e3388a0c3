// Test/benchmark harness: a small fake VRAM with hand-written page tables, a program
// builder over isa::Inst, and a launcher that runs decode_program + execute_grid.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "hw/config/arch_config.h"
#include "hw/perf/trace.h"
#include "hw/sim/memory.h"
#include "hw/sim/sm/exec.h"
#include "isa/inst.h"

namespace strata::hw::sim::testing {

// Builds one instruction: B(Opcode::IADD).t(U32).d(0).a(1).b(2)
struct B {
  explicit B(isa::Opcode op) { i.op = op; }
  B& t(isa::DataType v) { i.type = v; return *this; }
  B& t2(isa::DataType v) { i.type2 = v; return *this; }
  B& d(uint8_t r) { i.rd = r; return *this; }
  B& a(uint8_t r) { i.ra = r; return *this; }
  B& b(uint8_t r) { i.rb = r; return *this; }
  B& bi(uint32_t v) { i.b_imm = true; i.imm = v; return *this; }
  B& c(uint8_t r) { i.rc = r; return *this; }
  B& imm(uint32_t v) { i.imm = v; return *this; }
  B& mod(uint8_t v) { i.mod = v; return *this; }
  B& pd(uint8_t p) { i.pd = p; return *this; }
  B& ps(uint8_t p, bool neg = false) { i.ps = p; i.ps_neg = neg; return *this; }
  B& guard(uint8_t p, bool neg = false) { i.guard = p; i.guard_neg = neg; return *this; }
  B& space(isa::MemSpace s) { i.space = s; return *this; }
  B& sem(isa::MemSem s) { i.sem = s; return *this; }
  operator isa::Inst() const { return i; }  // NOLINT
  isa::Inst i;
};

struct Dim {
  uint32_t x = 1, y = 1, z = 1;
};

struct LaunchOptions {
  uint32_t shared_bytes = 0;          // static + dynamic
  uint32_t dynamic_shared_bytes = 0;  // of shared_bytes, the dynamic part (%dynamic_smem_size)
  uint32_t local_bytes = 0;
  uint32_t regs = 32;
  // Run the hazard checker (hw/sim/sm/hazard_check.h). Unset: off for launch() (hand-built
  // code keeps the default control bits), STRATA_CHECK_HAZARDS for launch_raw() (compiled
  // code).
  std::optional<bool> check_hazards;
  std::vector<uint8_t> const_bank2;  // the module's .const data, bound as bank 2 when not empty
  std::vector<uint8_t> env_bank;     // the launch environment (%envreg), bank 4 when not empty
  perf::KernelTrace* trace = nullptr;  // when set, receives SM 0's recorded trace (trace_hook.h)
};

class Harness {
 public:
  static constexpr uint64_t kSharedWindow = 0x200000000000ull;
  static constexpr uint64_t kLocalWindow = 0x210000000000ull;

  explicit Harness(uint64_t vram_bytes = 64ull << 20);
  ~Harness();

  // Maps `bytes` (rounded up to pages) of fresh zeroed memory; returns its VA.
  uint64_t alloc(uint64_t bytes, bool writable = true);
  uint8_t* host(uint64_t va);

  template <typename T>
  void write(uint64_t va, const std::vector<T>& v) { std::memcpy(host(va), v.data(), v.size() * sizeof(T)); }
  template <typename T>
  std::vector<T> read(uint64_t va, size_t n) {
    std::vector<T> v(n);
    std::memcpy(v.data(), host(va), n * sizeof(T));
    return v;
  }

  // Runs `code` over grid x block with `params` in constant bank 0.
  FaultRecord launch(const std::vector<isa::Inst>& code, Dim grid, Dim block, const std::vector<uint32_t>& params,
                     const LaunchOptions& opts = {}, GridStats* stats = nullptr);

  // Same, for raw instruction bytes.
  FaultRecord launch_raw(const std::vector<uint8_t>& bytes, Dim grid, Dim block, const std::vector<uint32_t>& params,
                         const LaunchOptions& opts = {}, GridStats* stats = nullptr);

  ArchConfig config;

 private:
  uint64_t new_table();
  void map_page(uint64_t va, uint64_t pa, bool writable);

  uint8_t* vram_ = nullptr;
  uint64_t vram_size_;
  uint64_t pt_root_ = 0;
  uint64_t next_table_ = 0;
  uint64_t next_data_;
  uint64_t next_va_ = 0x10000000000ull;
  std::unique_ptr<PageWalker> walker_;
};

// Sets STRATA_THREADS for the scope.
class ScopedThreads {
 public:
  explicit ScopedThreads(int n);
  ~ScopedThreads();
};

}  // namespace strata::hw::sim::testing

namespace strata::hw::sim::testing {

using isa::DataType;
using isa::Opcode;

// R3 = global thread index (x); R4:R5 = param pointer at c[0][0].
std::vector<isa::Inst> prologue();
// R6:R7 = R4:R5 + R3 * `elem` (address of element gid of the array at c[0][param_off]).
std::vector<isa::Inst> element_address(uint32_t param_off, uint32_t elem, uint8_t dst = 6);

// Runs `body` per thread over n threads (one warp per 32): R8 = a[i], R9 = b[i],
// R12 = c[i] loaded; stores R10 to out[i]. With `wide`, elements are 64-bit: R8:R9 = a,
// R10:R11 = b (no c), result R12:R13.
std::vector<uint64_t> run_map(Harness& h, const std::vector<isa::Inst>& body, const std::vector<uint64_t>& a,
                              const std::vector<uint64_t>& b, bool wide = false,
                              const std::vector<uint64_t>& c = {}, FaultRecord* fault = nullptr);

}  // namespace strata::hw::sim::testing
