// Statistics from functional execution (perf::KernelStats, hw/perf/kernel_stats.h),
// collected while the grid runs and cheap enough to stay on.
//
// - Instructions: the interpreter (warp_run.cc) adds, per executed instruction, one warp
//   instruction and the running group's lane count to Worker::pc_counts[pc];
//   fold_pc_counts turns those into counts per pipe (isa/pipes.def) and tensor-core
//   multiply-adds when the grid ends. The per-pc counts stay available as a
//   per-instruction profile.
// - Memory: the memory handlers call the count_* functions below once per warp
//   instruction with at least one active lane; they add to Worker::stats, add the same
//   global, local and shared counts to Worker::pc_counts of the executing instruction
//   (so the per-pc counts sum to the kernel's), and pass the coalesced sectors to the
//   cache models (record_memory_access, mem_model.h).
// - Barriers: h_bar counts arrivals and waits.
//
// Models (what is counted):
// - Global: one request per warp instruction (per space, when a generic instruction's
//   lanes resolve to several); an access of W bytes at a touches the 32-byte sectors
//   floor(a/32)..floor((a+W-1)/32); `sectors` are the distinct sectors of the request.
// - Local: as global, over the hardware's interleaved local-memory layout: 4-byte word
//   k of a thread's local memory lies at word k * 32 + lane of its warp's region, so
//   lanes reading the same local offset coalesce. The sector addresses passed to the
//   cache models are kLocalSectorBase + (CTA, warp) region + that offset: virtual,
//   unique per warp, and never a real global address.
// - Shared (32 banks x 4 bytes): accesses of W <= 4 bytes form one phase of 32 lanes,
//   8-byte accesses two half-warp phases, 16-byte four quarter-warp phases. A phase
//   with active lanes needs max over banks of the distinct 4-byte words it touches in
//   that bank (at least 1) wavefronts: lanes reading the same word share it
//   (broadcast). bank_conflicts = wavefronts - phases with active lanes. Atomics on
//   shared memory do not broadcast: every lane's word counts, also when lanes hit the
//   same word (they serialize). LDSM counts as a 16-byte-per-row access by the lanes
//   that supply row addresses (8 per matrix), CPASYNC as a shared store of its width
//   (and a global load of its source); mbarrier instructions are not counted.
// - Constant: LDC is one request and one wavefront per distinct address among its
//   active lanes. Constant-bank operands of other instructions are not counted (they
//   are uniform: one wavefront each, with no address to model).
// - Texture: TEX/TLD4 are one texture_loads request each with the distinct sectors of
//   the texels the sampler read (kTexture); SULD too (surfaces are read through the
//   texture path). SUST counts as a global store and SURED as a global atomic. TXQ
//   reads only the descriptor and is not counted.
//
// All counts are sums over warp instructions and do not depend on how many worker
// threads ran the grid or in which order.
#pragma once

#include <cstdint>
#include <vector>

#include "hw/contract/report.h"
#include "hw/perf/kernel_stats.h"
#include "hw/sim/sm/mem_model.h"
#include "hw/sim/sm/state.h"

namespace strata::hw::sim {

// Local-memory sector addresses (see above) start here: above any device VA.
inline constexpr uint64_t kLocalSectorBase = uint64_t{1} << 62;

// The per-pc counters of `w` for `program`, sized to it (size() + 1 entries: the end
// sentinel executes too) the first time. Never reallocated while the grid runs.
inline PcCount* pc_counts(Worker& w, const Program& program) {
  if (w.pc_counts.size() < program.size() + 1u) [[unlikely]]
    w.pc_counts.resize(program.size() + 1u);
  return w.pc_counts.data();
}

// Global accesses of the lanes in `m` (non-zero): lane l accesses `bytes` bytes at the
// global VA addrs[l]. `kind` is kLoad, kStore or kAtomic.
void count_global(ExecContext& c, AccessKind kind, uint32_t m, const uint64_t* addrs,
                  uint32_t bytes);
// The same, when every lane's access lies in the 4 KiB-aligned block at `block` (the
// interpreter's one-page fast path): a bitmap of the block's 128 sectors, no sorting.
void count_global_in_block(ExecContext& c, AccessKind kind, uint32_t m, const uint64_t* addrs,
                           uint32_t bytes, uint64_t block);
// Local accesses: offsets[l] is lane l's offset in its thread's local memory.
void count_local(ExecContext& c, bool store, uint32_t m, const uint64_t* offsets, uint32_t bytes);
// Shared accesses: offsets[l] is lane l's offset in the CTA's shared memory.
void count_shared(ExecContext& c, uint32_t m, const uint32_t* offsets, uint32_t bytes, bool atomic);
// An LD/ST/ATOM-style instruction: lane l accesses `bytes` at [Ra + imm] in
// in.inst.space; GENERIC lanes are split by the shared and local windows and each space
// with active lanes is counted as one request of its own. CONST space counts as global.
void count_memory(ExecContext& c, const DecodedInst& in, uint32_t m, uint32_t bytes,
                  AccessKind kind);
// LDC: offsets[l] is lane l's offset in the constant bank.
void count_constant(ExecContext& c, uint32_t m, const uint64_t* offsets);

// Collects the sectors of one warp texture instruction's texel reads (the sampler
// calls add() per read); finish() counts the request and hands the sectors to the
// cache models. Overflowing reads beyond its capacity are compacted first, and only
// counted approximately (dropped) past that.
class TexelSectors {
 public:
  void add(uint64_t va, uint32_t bytes) {
    const uint64_t first = va >> 5, last = (va + (bytes == 0 ? 1 : bytes) - 1) >> 5;
    for (uint64_t s = first; s <= last; ++s) {
      if (n_ == kCapacity) [[unlikely]]
        compact();
      if (n_ == kCapacity) return;
      if (n_ == 0 || s_[n_ - 1] != s) s_[n_++] = s;
    }
  }
  // Counts one texture_loads request (when anything was read) with its distinct sectors.
  void finish(ExecContext& c);

 private:
  void compact();
  static constexpr uint32_t kCapacity = 512;
  uint32_t n_ = 0;
  uint64_t s_[kCapacity];
};

// Adds `w`'s per-pc counts to `out`: warp_instructions, thread_instructions, the
// instructions per pipe (isa::pipe_of) and the tensor-core multiply-adds of its HMMAs
// (m * n * k per warp instruction, by the A operand's format; b1 has no TensorType and
// is not counted). Called once per worker when the grid has finished (execute_grid,
// which merges Worker::stats itself).
void fold_pc_counts(const Program& program, const Worker& w, perf::KernelStats* out);

// Adds `w`'s per-pc counts of the program's instructions (the end sentinel excluded) to
// `sum` (program.size() entries). Sums do not depend on which worker ran what.
void add_pc_counts(const Program& program, const Worker& w, std::vector<PcCount>* sum);
// The records of `sum`'s executed instructions (warps != 0), by ascending pc.
std::vector<PcCounters> pc_counters_of(const std::vector<PcCount>& sum);

}  // namespace strata::hw::sim
