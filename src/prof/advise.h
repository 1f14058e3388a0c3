// The advisor behind `strata advise NAME.sqlite`: ranks each kernel's bottlenecks and the
// whole program's from a database `strata prof --metrics` wrote (export_sqlite.h), with
// the evidence (metric values against the device's peaks) and a concrete suggestion.
//
// Kernels are grouped by demangled name, heaviest total time first. A group's metrics
// are its launches' STRATA_KERNEL_METRICS rows combined: ".sum" metrics are summed,
// every other metric (percentages, ratios, launch shape) is averaged weighted by each
// launch's duration. Its raw counters (STRATA_KERNEL_COUNTERS) are those of its longest
// launch. A verdict whose inputs the database lacks (a metric the timing mode did not
// produce, a missing STRATA_DEVICE_CONFIG) is not given.
//
// Each kernel gets exactly one primary verdict (what bounds its time: launch-, memory-,
// compute- or latency-bound), listed first, then the secondary ones it shows
// (occupancy-limited, uncoalesced, bank conflicts, divergence), most severe first.
// Program verdicts: transfer-bound, serialised streams. The thresholds below are
// documented in docs/profiler.md, section "Advisor".
//
// Source lines: with per-line counters (STRATA_KERNEL_SOURCE, summed over the group's
// launches), a kernel verdict names the line that contributes most to it (`where`):
// uncoalesced, the most global sectors beyond the bytes requested / 32; bank conflicts,
// the most conflicts; divergence, the most idle lanes (32 x warp instructions - thread
// instructions); memory-bound, the most global and local sectors; compute- and
// latency-bound, the most warp instructions. Lines are the .loc lines of -lineinfo
// builds, else PTX lines.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "prof/trace.h"

namespace strata::prof {

// A unit at or above this percentage of its peak bounds the kernel (memory: the larger
// of DRAM and L2 throughput; compute: sm__throughput, the busiest of issue and pipes).
inline constexpr double kBoundPct = 60.0;
// Launch-bound: the mean launch lasts at most this many times the launch overhead
// (timing.launch_overhead_ns).
inline constexpr double kLaunchBoundFactor = 2.0;
// Occupancy-limited: theoretical occupancy below this percentage.
inline constexpr double kOccupancyLimitedPct = 50.0;
// Uncoalesced: the global sectors moved exceed the ideal (the bytes the threads asked for,
// smsp__sass_average_data_bytes_per_sector_mem_global_op_{ld,st}.pct) by this factor,
// i.e. less than 100 / factor % of the bytes moved were used. Databases without that
// metric: sectors per request above kIdealSectorsPerRequest (4-byte accesses by a full
// warp: 32 x 4 B = four 32-byte sectors) x the factor.
inline constexpr double kIdealSectorsPerRequest = 4.0;
inline constexpr double kUncoalescedFactor = 1.25;
// Bank conflicts: this share of the shared-memory wavefronts or more are conflicts.
inline constexpr double kBankConflictShare = 0.10;
// Divergence: average active threads per warp instruction below 32 x (1 - margin).
inline constexpr double kDivergenceMargin = 0.15;
// Transfer-bound: memcpy time at least this fraction of the kernels' time.
inline constexpr double kTransferBoundRatio = 1.0;

enum class VerdictKind {
  kLaunchBound,
  kMemoryBound,
  kComputeBound,
  kLatencyBound,
  kOccupancyLimited,
  kUncoalesced,
  kBankConflicts,
  kDivergence,
  kTransferBound,
  kSerialisedStreams,
};
// "launch-bound", "memory-bound", "compute-bound", "latency-bound", "occupancy-limited",
// "uncoalesced", "bank-conflicts", "divergence", "transfer-bound", "serialised-streams".
const char* verdict_name(VerdictKind kind);

struct Verdict {
  VerdictKind kind;
  double severity = 0;   // in [0, 1]: the share of the unit's peak, or of the work, at stake
  std::string evidence;  // numbers from the data
  std::string suggestion;
  std::string where;  // kernel verdicts: "file:line: figures" of the line most at fault
};

// One kernel name's launches, combined as described above.
struct KernelGroup {
  std::string name;
  uint32_t device_id = 0;
  uint64_t launches = 0;
  uint64_t total_ns = 0;
  std::map<std::string, double> metrics;
  std::map<std::string, double> counters;
  std::vector<SourceLine> source;  // per line, summed over the launches
};

// The device config ("section.field" -> value) the verdicts compare against.
using DeviceConfig = std::map<std::string, double>;

// The verdicts of one kernel group: the primary one first, then the secondary ones by
// decreasing severity. Empty when the group has no metrics.
std::vector<Verdict> advise_kernel(const KernelGroup& group, const DeviceConfig& config);

// A piece of device work on a stream (kernel, memcpy or memset).
struct StreamWork {
  uint64_t pid = 0;
  uint32_t device_id = 0;
  uint64_t stream_id = 0;
  uint64_t start = 0, end = 0;
  enum class Kind { kKernel, kMemcpy, kMemset } kind = Kind::kKernel;
  uint64_t bytes = 0;  // memcpy, memset
};

// Program verdicts from all device work: transfer-bound (memcpy time against kernel
// time) and serialised streams (two or more streams of one device carried work and no
// two of them ever overlapped).
std::vector<Verdict> advise_program(const std::vector<StreamWork>& work,
                                    const DeviceConfig& config);

struct KernelAdvice {
  KernelGroup group;
  double time_share = 0;  // of all kernels' time
  std::vector<Verdict> verdicts;
};

struct Advice {
  std::map<std::string, std::string> session;  // STRATA_SESSION
  std::vector<KernelAdvice> kernels;           // heaviest total time first
  std::vector<Verdict> program;
  bool has_metrics = false;  // STRATA_KERNEL_METRICS had rows
};

// Reads `path` (an nsys-schema database with Strata's tables). kNotFound when the file
// does not exist, kInvalidValue when it is not such a database.
StatusOr<Advice> advise_database(const std::string& path);

// The report `strata advise` prints. Verdict lines read "  N. [verdict-name] evidence"
// followed by "     suggestion: ...".
std::string format_advice(const Advice& advice);

}  // namespace strata::prof
