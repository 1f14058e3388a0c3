#include "prof/counters.h"

#include "hw/perf/detailed/model.h"
#include "hw/perf/kernel_stats.h"

namespace strata::prof {

std::map<std::string, double> counter_map(const hw::KernelCounters& c) {
  std::map<std::string, double> m;
  auto put = [&](const char* name, double v) { m[name] = v; };
  if (c.valid & hw::kCountersExecution) {
#define STRATA_EXEC_COUNTER(F) put(#F, static_cast<double>(c.F));
    STRATA_EXEC_COUNTER(ctas) STRATA_EXEC_COUNTER(threads_per_cta)
    STRATA_EXEC_COUNTER(warps_per_cta) STRATA_EXEC_COUNTER(regs_per_thread)
    STRATA_EXEC_COUNTER(shared_bytes_per_cta) STRATA_EXEC_COUNTER(ctas_per_sm)
    STRATA_EXEC_COUNTER(max_warps_per_sm) STRATA_EXEC_COUNTER(occupancy_limiter)
    STRATA_EXEC_COUNTER(sms_used) STRATA_EXEC_COUNTER(warp_instructions)
    STRATA_EXEC_COUNTER(thread_instructions)
    STRATA_EXEC_COUNTER(global_load_requests) STRATA_EXEC_COUNTER(global_load_sectors)
    STRATA_EXEC_COUNTER(global_store_requests) STRATA_EXEC_COUNTER(global_store_sectors)
    STRATA_EXEC_COUNTER(global_atomic_requests) STRATA_EXEC_COUNTER(global_atomic_sectors)
    STRATA_EXEC_COUNTER(global_load_bytes) STRATA_EXEC_COUNTER(global_store_bytes)
    STRATA_EXEC_COUNTER(global_atomic_bytes)
    STRATA_EXEC_COUNTER(local_load_requests) STRATA_EXEC_COUNTER(local_load_sectors)
    STRATA_EXEC_COUNTER(local_store_requests) STRATA_EXEC_COUNTER(local_store_sectors)
    STRATA_EXEC_COUNTER(texture_requests) STRATA_EXEC_COUNTER(texture_sectors)
    STRATA_EXEC_COUNTER(constant_requests) STRATA_EXEC_COUNTER(constant_wavefronts)
    STRATA_EXEC_COUNTER(shared_requests) STRATA_EXEC_COUNTER(shared_wavefronts)
    STRATA_EXEC_COUNTER(shared_bank_conflicts) STRATA_EXEC_COUNTER(barrier_arrivals)
    STRATA_EXEC_COUNTER(barrier_waits) STRATA_EXEC_COUNTER(l1_hits)
    STRATA_EXEC_COUNTER(l1_misses) STRATA_EXEC_COUNTER(l2_hits) STRATA_EXEC_COUNTER(l2_misses)
    STRATA_EXEC_COUNTER(dram_read_sectors) STRATA_EXEC_COUNTER(dram_write_sectors)
#undef STRATA_EXEC_COUNTER
    for (int p = 0; p < hw::perf::kNumPipes; ++p) {
      const std::string pipe = hw::perf::pipe_name(static_cast<hw::perf::Pipe>(p));
      m["pipe_warp_instructions." + pipe] = static_cast<double>(c.pipe_warp_instructions[p]);
      m["pipe_thread_instructions." + pipe] = static_cast<double>(c.pipe_thread_instructions[p]);
    }
    static constexpr const char* kTensorTypes[] = {"f16", "tf32", "i8", "i4", "f64", "f8"};
    static_assert(std::size(kTensorTypes) == hw::perf::kNumTensorTypes);
    for (int t = 0; t < hw::perf::kNumTensorTypes; ++t) {
      m[std::string("tensor_fmas.") + kTensorTypes[t]] = static_cast<double>(c.tensor_fmas[t]);
    }
  }
  if (c.valid & hw::kCountersModel) {
    put("model_cycles", static_cast<double>(c.model_cycles));
    put("launch_ns", static_cast<double>(c.launch_ns));
    put("bound", c.bound);
    put("busiest_pipe", c.busiest_pipe);
    put("issue_cycles", c.issue_cycles);
    put("shared_cycles", c.shared_cycles);
    put("l1_cycles", c.l1_cycles);
    put("l2_cycles", c.l2_cycles);
    put("dram_cycles", c.dram_cycles);
    put("latency_cycles", c.latency_cycles);
    put("tail_cycles", c.tail_cycles);
    put("waves", c.waves);
    for (int p = 0; p < hw::perf::kNumPipes; ++p) {
      m[std::string("pipe_cycles.") + hw::perf::pipe_name(static_cast<hw::perf::Pipe>(p))] =
          c.pipe_cycles[p];
    }
  }
  if (c.valid & hw::kCountersDetailed) {
    put("detailed_cycles", static_cast<double>(c.detailed_cycles));
    put("detailed_ctas", static_cast<double>(c.detailed_ctas));
    put("achieved_occupancy", c.achieved_occupancy);
    for (int r = 0; r < hw::perf::kNumStallReasons; ++r) {
      m[std::string("stall_cycles.") +
        hw::perf::stall_reason_name(static_cast<hw::perf::StallReason>(r))] =
          static_cast<double>(c.stall_cycles[r]);
    }
  }
  return m;
}

const char* timing_name(uint32_t timing_mode) {
  switch (static_cast<hw::ReportTiming>(timing_mode)) {
    case hw::ReportTiming::kFast: return "fast";
    case hw::ReportTiming::kDetailed: return "detailed";
    case hw::ReportTiming::kSampled: return "sampled";
  }
  return "unknown";
}

}  // namespace strata::prof
