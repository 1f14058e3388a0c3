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
//     version 2 appends the recording (RecordInfo, `strata sweep`): u8 present, and when 1:
//       u32 device, u64 seq, u64 kernel_id, u64 grid_id, u32 grid[3], u32 block[3],
//       str config_name, str config_hash, str config_path,
//       u32 fields, fields x {str key ("section.name"), str value (TOML literal)},
//       the KernelStats (serialize order: kernel_stats.h's declaration order; arrays
//       with their fixed lengths, the per-SM vectors as u64 count + items)
//     then u8 l2_recorded, and when 1: u64 requests, requests x {u64 line address,
//       u8 sectors (mask), u8 op (0 read, 1 write, 2 atomic)}
//     where str is u32 length + bytes. Version 1 files (no recording) are still read.
// A reader rejects a wrong magic or version, a truncated or corrupt payload and
// out-of-range indices with Code::kInvalidValue naming the problem.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "hw/perf/kernel_stats.h"

namespace strata::hw::perf {

inline constexpr uint32_t kTraceVersion = 2;

// What a memory instruction did. The first six mirror hw::sim::AccessKind.
enum class TraceAccessKind : uint8_t {
  kLoad,
  kStore,
  kAtomic,
  kLocalLoad,
  kLocalStore,
  kTexture,
  kShared,
  kLoadL2,  // a global load cached in L2 only (cp.async.cg): no L1 lookup or fill
};
inline constexpr int kNumTraceAccessKinds = 8;

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

// What `STRATA_RECORD_DIR` adds to a trace so that `strata sweep` can replay the kernel's
// timing under other configs (hw/perf/replay.h): the launch, the recording config (every
// field, so that the replay can recompute what the recording config gave) and the
// whole grid's statistics.
struct RecordInfo {
  bool present = false;
  uint32_t device = 0;     // the device's index (Timeline::device)
  uint64_t seq = 0;        // launches recorded on that device before this one
  uint64_t kernel_id = 0;  // LaunchPacket::kernel_id (the perf log's kernel_id)
  uint64_t grid_id = 0;
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  std::string config_name;  // [device] name
  std::string config_hash;  // ArchConfig::content_hash
  std::string config_path;  // ArchConfig::source_path
  // Every config field as "section.name" and its value as a TOML literal.
  std::vector<std::pair<std::string, std::string>> config_fields;
  KernelStats stats;  // the whole grid's, as the timing models got them
};

// One request the device's L2 received from any SM (an L1 miss, a store, an atomic or a
// dirty L1 line written back), hw/perf/cache.h's L2Request without the set.
struct TraceL2Request {
  uint64_t line = 0;    // the line's byte address
  uint8_t sectors = 0;  // mask of the line's 32-byte sectors
  uint8_t op = 0;       // 0 read, 1 write, 2 atomic (L2Op)
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
  RecordInfo record;           // present when recorded by STRATA_RECORD_DIR
  // The whole device's L2 request stream, in the order the L2 consumed it (each epoch's
  // per-SM logs in SM order, hw/sim/sm/grid.cc): replaying it through an L2 of another
  // size gives that L2's counts exactly, for the same L1s. Collected only when
  // STRATA_RECORD_DIR is set (16 bytes per request); l2_recorded says it was.
  bool l2_recorded = false;
  std::vector<TraceL2Request> l2_requests;

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
  // Whether the recorder collects the device's L2 request stream (STRATA_RECORD_DIR set).
  bool records_l2() const { return record_l2_; }
  // Appends to the L2 request stream; one thread at a time (grid.cc's end of an epoch).
  void add_l2_request(uint64_t line, uint8_t sectors, uint8_t op) {
    if (record_l2_) l2_.push_back({line, sectors, op});
  }
  // The recorded trace (CTAs ascending); the recorder is empty afterwards.
  KernelTrace finish();

 private:
  KernelTrace header_;
  bool record_l2_ = false;
  std::vector<TraceL2Request> l2_;
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
