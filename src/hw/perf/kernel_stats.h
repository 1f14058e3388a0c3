// Statistics of one kernel (grid), collected by functional execution and consumed by
// the timing models (fast_model.h), the profiler and `strata run --report`.
//
// Collection is always on, so every counter is cheap: per-instruction counts are kept
// per program counter by each simulator worker and folded into pipes when the grid
// ends; memory counters are added by the memory handlers per warp instruction.
// Everything here is a sum over the grid, so it does not depend on how many host
// threads ran it or in which order (the cache counters come from the cache models,
// which consume accesses in a deterministic modeled interleaving: hw/perf/cache.h).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace strata::hw::perf {

// The execution pipe of an instruction (isa/pipes.def maps every opcode to one).
enum class Pipe : uint8_t {
  kFp32,     // FP32/FP16 arithmetic (FADD, FFMA, HFMA2, ...)
  kFp64,     // FP64 arithmetic
  kInt,      // integer, logic, moves, predicates, conversions between integers
  kSfu,      // MUFU, conversions through the XU, iterative divide
  kTensor,   // HMMA and the other matrix instructions
  kLdst,     // loads, stores, atomics, shared memory, constants, fences, async copies
  kTexture,  // TEX, TLD4, TXQ, surface accesses
  kControl,  // branches, convergence, barriers, EXIT, NOP, S2R, votes and shuffles
};
inline constexpr int kNumPipes = 8;
const char* pipe_name(Pipe pipe);  // "fp32", "fp64", "int", "sfu", "tensor", "ldst", "texture", "control"

// Tensor-core work by input type, in multiply-adds (an m16n8k16 HMMA is 2048 per warp).
enum class TensorType : uint8_t { kF16, kTf32, kI8, kI4, kF64, kF8 };
inline constexpr int kNumTensorTypes = 6;

// Global/local accesses after coalescing: `requests` counts warp instructions (with at
// least one active lane), `sectors` the distinct 32-byte sectors they touch, `bytes` the
// bytes the active lanes asked for (global accesses only: active lanes x access size),
// so sectors x 32 / bytes says how much of what moved was used.
struct MemoryCounts {
  uint64_t requests = 0;
  uint64_t sectors = 0;
  uint64_t bytes = 0;
  void add(const MemoryCounts& o) {
    requests += o.requests, sectors += o.sectors, bytes += o.bytes;
  }
};

struct KernelStats {
  // Launch shape and theoretical occupancy (filled by execute_grid).
  uint64_t ctas = 0;
  uint32_t threads_per_cta = 0;
  uint32_t warps_per_cta = 0;
  uint32_t regs_per_thread = 0;
  uint32_t shared_bytes_per_cta = 0;
  uint32_t ctas_per_sm = 0;          // resident CTAs per SM allowed by the limits
  uint32_t max_warps_per_sm = 0;     // the config's limit
  enum class Limiter : uint8_t { kNone, kBlocks, kWarps, kRegisters, kShared } occupancy_limiter = Limiter::kNone;
  double theoretical_occupancy() const {
    return max_warps_per_sm == 0 ? 0.0
                                 : static_cast<double>(ctas_per_sm) * warps_per_cta / max_warps_per_sm;
  }

  // Instructions: warp instructions issued and active lanes summed over them, per pipe.
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  std::array<uint64_t, kNumPipes> pipe_warp_instructions{};
  std::array<uint64_t, kNumPipes> pipe_thread_instructions{};
  std::array<uint64_t, kNumTensorTypes> tensor_fmas{};  // multiply-adds, all lanes of the warp

  // Memory after coalescing.
  MemoryCounts global_loads, global_stores, global_atomics;  // atomics and reductions
  MemoryCounts local_loads, local_stores;
  MemoryCounts texture_loads;                                 // texels fetched, in sectors
  uint64_t constant_requests = 0;     // LDC/constant-bank operand reads, per warp instruction
  uint64_t constant_wavefronts = 0;   // one per distinct address in the warp
  // Shared memory: 32 banks x 4 bytes. A request needs one wavefront per distinct
  // 4-byte word within a bank (broadcasts are free), per 128-byte phase for wide
  // accesses; bank_conflicts = wavefronts - the conflict-free minimum.
  uint64_t shared_requests = 0;
  uint64_t shared_wavefronts = 0;
  uint64_t shared_bank_conflicts = 0;

  // CTA barriers: warp arrivals, and arrivals that had to wait for other warps.
  uint64_t barrier_arrivals = 0;
  uint64_t barrier_waits = 0;

  // Caches, in 32-byte sectors (from the cache models; L1 sees global loads/stores,
  // local and texture; L2 sees L1 misses, stores and atomics).
  uint64_t l1_hits = 0, l1_misses = 0;
  uint64_t l2_hits = 0, l2_misses = 0;
  uint64_t dram_read_sectors = 0, dram_write_sectors = 0;

  // Warp instructions issued on each SM (index = SM), for the load balance and the
  // tail of the last wave; and the CTAs each SM ran.
  std::vector<uint64_t> sm_warp_instructions;
  std::vector<uint32_t> sm_ctas;

  // Adds every counter of `o` (launch-shape fields are taken from `o` when unset here).
  void merge(const KernelStats& o);
};

}  // namespace strata::hw::perf
