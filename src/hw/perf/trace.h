// Kernel traces: a kernel's instruction and address streams, recorded once by
// functional execution and replayed by the detailed timing model
// (hw/perf/detailed/model.h) under any number of architecture configs (issue 5 items 5
// and 7, `strata sweep`).
//
// What is recorded. Only the CTAs that run on SM 0 (CTA linear index % sm_count == 0,
// the simulator's assignment, hw/sim/sm/grid.cc): the detailed model simulates that one
// representative SM. For each of their warps, in the order the warp issued them: every
// warp instruction's pc, the lanes running it and the lanes whose guard held; for the
// memory instructions, what they touched after coalescing: the 32-byte sectors of a
// global/local/texture access (from record_memory_access, hw/sim/sm/mem_model.h) or the
// wavefronts of a shared-memory access. The program's instruction words are kept with
// the trace, so the timing model reads the control bits, pipes and latency classes from
// them (src/isa) without the simulator.
//
// Size: in memory, 12 bytes per warp instruction, 16 per memory instruction and 8 per
// sector, for SM 0's share of the grid (about 1/sm_count of it); files are zstd-compressed.
//
// Recording (hw/sim/sm/trace_hook.h) is off by default; a launch turns it on by
// pointing GridLaunch::trace at a TraceRecorder.
//
// File format (write_trace/read_trace), all integers little-endian:
//   header   8 bytes magic "STRTRACE", u32 version (kTraceVersion), u32 reserved (0),
//            u64 payload bytes before compression
//   payload  one zstd frame holding:
//     u32 sm_count, u32 warps_per_cta, u32 threads_per_cta, u32 regs_per_thread,
//     u32 shared_bytes_per_cta, u64 total_ctas,
//     u64 code bytes, code (16 bytes per instruction, isa/encode.h),
//     u64 ctas, then per CTA: u64 linear, u32 warps, then per warp:
//       u64 issues,   issues x {u32 pc, u32 active, u32 exec}
//       u64 accesses, accesses x {u32 issue, u8 kind, u8 0, u16 0, u32 first, u32 count}
//       u64 sectors,  sectors x u64
// A reader rejects a wrong magic or version, a truncated or corrupt payload and
// out-of-range indices with Code::kInvalidValue naming the problem.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"

namespace strata::hw::perf {

inline constexpr uint32_t kTraceVersion = 1;

// What a memory instruction did. The first six mirror hw::sim::AccessKind.
enum class TraceAccessKind : uint8_t {
  kLoad,
  kStore,
  kAtomic,
  kLocalLoad,
  kLocalStore,
  kTexture,
  kShared
};
inline constexpr int kNumTraceAccessKinds = 7;

// One issued warp instruction.
struct TraceIssue {
  uint32_t pc = 0;      // instruction index
  uint32_t active = 0;  // lanes of the running group (the functional model's active lanes)
  uint32_t exec = 0;    // of those, the lanes whose guard held
};

// The memory side of one issued instruction. For global/local/texture kinds, `count`
// sectors from WarpTrace::sectors[first, first + count) (32-byte aligned, ascending);
// for kShared, `count` is the wavefronts the access needed and `first` is unused.
struct TraceAccess {
  uint32_t issue = 0;  // index into WarpTrace::issues
  TraceAccessKind kind = TraceAccessKind::kLoad;
  uint32_t first = 0;
  uint32_t count = 0;
};

struct WarpTrace {
  std::vector<TraceIssue> issues;
  std::vector<TraceAccess> accesses;  // ascending `issue`
  std::vector<uint64_t> sectors;
};

struct CtaTrace {
  uint64_t linear = 0;
  std::vector<WarpTrace> warps;  // index = warp index in the CTA
};

struct KernelTrace {
  uint32_t sm_count = 1;  // of the config it was recorded under (SM 0's CTAs)
  uint32_t warps_per_cta = 0;
  uint32_t threads_per_cta = 0;
  uint32_t regs_per_thread = 0;
  uint32_t shared_bytes_per_cta = 0;
  uint64_t total_ctas = 0;     // of the whole grid
  std::vector<uint8_t> code;   // the program, 16 bytes per instruction
  std::vector<CtaTrace> ctas;  // SM 0's CTAs, ascending linear index

  uint64_t warp_instructions() const;    // issues over every warp
  uint64_t thread_instructions() const;  // active lanes summed over them
};

// Collects the traces of the CTAs that workers run, from any number of threads.
// warp() is thread-safe; the WarpTrace it returns stays valid (and at the same address)
// until finish(), and is written by one thread at a time (an SM, with its CTAs, is run
// by one worker at a time; grid.cc hands SMs over behind a barrier). finish() must not
// race with warp().
class TraceRecorder {
 public:
  // `header` gives every field of the result except `ctas`.
  explicit TraceRecorder(KernelTrace header);
  TraceRecorder(const TraceRecorder&) = delete;
  TraceRecorder& operator=(const TraceRecorder&) = delete;

  uint32_t sm_count() const { return header_.sm_count; }
  // The trace of warp `warp` (< warps_per_cta) of CTA `linear`, created on first use.
  WarpTrace* warp(uint64_t linear, uint32_t warp);
  // The recorded trace (CTAs ascending); the recorder is empty afterwards.
  KernelTrace finish();

 private:
  KernelTrace header_;
  std::mutex mutex_;
  std::map<uint64_t, std::unique_ptr<CtaTrace>> ctas_;
};

// In-memory forms of the file format above.
std::vector<uint8_t> serialize_trace(const KernelTrace& trace);
StatusOr<KernelTrace> parse_trace(std::span<const uint8_t> bytes);

// Files. Errors: Code::kFileNotFound (unreadable), kInvalidValue (bad content), kUnknown
// (write failure), each naming the path.
Status write_trace(const KernelTrace& trace, const std::string& path);
StatusOr<KernelTrace> read_trace(const std::string& path);

}  // namespace strata::hw::perf
