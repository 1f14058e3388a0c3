// Work reports: how the command processor tells software when each work packet ran and,
// on request, what the kernel did (the counter block). A profiler (CUPTI, `strata prof`)
// reads them; the hardware does not need them to execute.
//
// A kReport packet {va, flags} arms reporting on its channel: the k-th work packet after
// it (kLaunch, kCopy, kFill; counting from 0) writes one WorkReport at
// va + k * sizeof(WorkReport) when it completes, or fails. A kReport packet with va = 0
// disarms it. Reports are written through the channel's page table like any store; an
// unmapped or read-only report address faults the channel (kind kUnmapped).
// `written` is stored last, with release semantics, so software that observes
// written == 1 sees the whole report. Device-side launches (kernels launched by
// kernels) are not work packets of the channel and write no report.
//
// With kReportCounters in `flags`, a launch's report also carries the counter block;
// otherwise `counters.valid` is 0 and the block is unspecified.
//
// With kReportPcCounters as well, a launch also stores one PcCounters record per
// instruction its grid executed (by instruction index, ascending) in the channel's pc
// area: pc_capacity records at pc_va, filled from record 0 after the kReport packet
// and on across the following launches. The report says where the launch's records
// are (pc_first, pc_count) and how many instructions executed (pc_executed); records
// that do not fit are dropped (pc_count < pc_executed). The records are stored before
// `written`. docs/hw-contract.md, "Work reports", documents every field.
#pragma once

#include <cstddef>
#include <cstdint>

namespace strata::hw {

struct ReportPacket {
  uint64_t va;           // 0: stop reporting
  uint32_t flags;        // kReport* bits
  uint32_t pc_capacity;  // kReportPcCounters: PcCounters records at pc_va
  uint64_t pc_va;        // 8-byte aligned
};

inline constexpr uint32_t kReportCounters = 1u << 0;
inline constexpr uint32_t kReportPcCounters = 1u << 1;  // with kReportCounters
inline constexpr uint32_t kKnownReportFlags = kReportCounters | kReportPcCounters;

// What one instruction of a reported launch did, summed over the grid's warps.
struct PcCounters {
  uint32_t pc;  // instruction index from the kernel's code_va (code_va + 16 * pc)
  uint32_t reserved;
  uint64_t warp_instructions;    // warp executions
  uint64_t thread_instructions;  // active lanes summed over them
  // Global loads, stores and atomics (generic accesses that hit global memory included):
  // requests, 32-byte sectors moved, and bytes the active lanes asked for.
  uint64_t global_requests, global_sectors, global_bytes;
  uint64_t local_requests, local_sectors;  // local memory (spills, stack arrays)
  uint64_t shared_requests, shared_wavefronts, shared_bank_conflicts;
};
static_assert(sizeof(PcCounters) == 88);

// Capacities of the counter block's arrays; the simulator's pipes, tensor types and
// stall reasons fit in them (static_asserts in the simulator).
inline constexpr int kCounterPipes = 16;
inline constexpr int kCounterTensorTypes = 8;
inline constexpr int kCounterStallReasons = 16;

// Bits of KernelCounters::valid: which groups the timing mode produced.
inline constexpr uint32_t kCountersExecution = 1u << 0;  // functional counts (all modes)
inline constexpr uint32_t kCountersModel = 1u << 1;      // the fast model's components
inline constexpr uint32_t kCountersDetailed = 1u << 2;   // the detailed model (stalls, ...)

// Timing mode that produced the kernel's duration (KernelCounters::timing_mode).
enum class ReportTiming : uint32_t { kFast = 0, kDetailed = 1, kSampled = 2 };

struct KernelCounters {
  uint32_t valid;        // kCounters* bits
  uint32_t timing_mode;  // ReportTiming
  // Execution (kCountersExecution).
  uint64_t ctas;
  uint32_t threads_per_cta;
  uint32_t warps_per_cta;
  uint32_t regs_per_thread;
  uint32_t shared_bytes_per_cta;
  uint32_t ctas_per_sm;  // resident CTAs per SM the limits allow
  uint32_t max_warps_per_sm;
  uint32_t occupancy_limiter;  // 0 none, 1 blocks, 2 warps, 3 registers, 4 shared memory
  uint32_t sms_used;           // SMs that ran at least one CTA
  uint64_t warp_instructions;
  uint64_t thread_instructions;                    // active lanes summed over warp instructions
  uint64_t pipe_warp_instructions[kCounterPipes];  // by perf::Pipe
  uint64_t pipe_thread_instructions[kCounterPipes];
  uint64_t tensor_fmas[kCounterTensorTypes];  // by perf::TensorType
  uint64_t global_load_requests, global_load_sectors;
  uint64_t global_store_requests, global_store_sectors;
  uint64_t global_atomic_requests, global_atomic_sectors;
  uint64_t local_load_requests, local_load_sectors;
  uint64_t local_store_requests, local_store_sectors;
  uint64_t texture_requests, texture_sectors;
  uint64_t constant_requests, constant_wavefronts;
  uint64_t shared_requests, shared_wavefronts, shared_bank_conflicts;
  uint64_t barrier_arrivals, barrier_waits;
  uint64_t l1_hits, l1_misses, l2_hits, l2_misses;
  uint64_t dram_read_sectors, dram_write_sectors;
  // The fast model's decomposition (kCountersModel), in core cycles of the busiest SM.
  uint64_t model_cycles;
  uint64_t launch_ns;
  uint32_t bound;         // perf::Bound
  uint32_t busiest_pipe;  // perf::Pipe
  double issue_cycles;
  double pipe_cycles[kCounterPipes];
  double shared_cycles, l1_cycles, l2_cycles, dram_cycles, latency_cycles, tail_cycles;
  double waves;
  // The detailed model (kCountersDetailed): SM 0's cycle-level replay.
  uint64_t detailed_cycles;
  uint64_t detailed_ctas;
  double achieved_occupancy;                    // active warps per cycle / max warps per SM
  uint64_t stall_cycles[kCounterStallReasons];  // warp-cycles by perf::StallReason
  // Execution (kCountersExecution), continued: bytes the active lanes of global
  // accesses asked for (active lanes x access size), to set against the sectors moved.
  uint64_t global_load_bytes, global_store_bytes, global_atomic_bytes;
  // kReportPcCounters: the launch's records are pc area records [pc_first, pc_first +
  // pc_count); pc_executed distinct instructions ran.
  uint32_t pc_first, pc_count, pc_executed, pc_reserved;
};

enum class ReportOp : uint32_t { kLaunch = 1, kCopy = 2, kFill = 3 };

struct WorkReport {
  uint64_t submit_ns;  // modeled times on the device clock ("Clock model")
  uint64_t start_ns;
  uint64_t end_ns;
  uint32_t op;       // ReportOp
  uint32_t faulted;  // 1: the packet faulted (times cover what ran)
  uint64_t grid_id;  // kLaunch: the packet's grid_id
  uint64_t bytes;    // kCopy / kFill
  uint32_t written;  // 1 once the report is complete (stored last, release)
  uint32_t reserved;
  KernelCounters counters;
};
static_assert(offsetof(WorkReport, written) == 48 && offsetof(WorkReport, counters) == 56);

}  // namespace strata::hw
