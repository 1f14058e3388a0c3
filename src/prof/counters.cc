#include "prof/counters.h"

#include <utility>

#include "hw/perf/detailed/model.h"
#include "hw/perf/kernel_stats.h"

namespace strata::prof {

std::map<std::string, double> counter_map(const hw::KernelCounters& c) {
  std::map<std::string, double> m;
  auto put = [&](const char* name, double v) { m[name] = v; };
  if (c.valid & hw::kCountersExecution) {
    // The scalar execution counters, by field name.
    const std::pair<const char*, double> scalars[] = {
        {"ctas", static_cast<double>(c.ctas)},
        {"threads_per_cta", static_cast<double>(c.threads_per_cta)},
        {"warps_per_cta", static_cast<double>(c.warps_per_cta)},
        {"regs_per_thread", static_cast<double>(c.regs_per_thread)},
        {"shared_bytes_per_cta", static_cast<double>(c.shared_bytes_per_cta)},
        {"ctas_per_sm", static_cast<double>(c.ctas_per_sm)},
        {"max_warps_per_sm", static_cast<double>(c.max_warps_per_sm)},
        {"occupancy_limiter", static_cast<double>(c.occupancy_limiter)},
        {"sms_used", static_cast<double>(c.sms_used)},
        {"warp_instructions", static_cast<double>(c.warp_instructions)},
        {"thread_instructions", static_cast<double>(c.thread_instructions)},
        {"global_load_requests", static_cast<double>(c.global_load_requests)},
        {"global_load_sectors", static_cast<double>(c.global_load_sectors)},
        {"global_store_requests", static_cast<double>(c.global_store_requests)},
        {"global_store_sectors", static_cast<double>(c.global_store_sectors)},
        {"global_atomic_requests", static_cast<double>(c.global_atomic_requests)},
        {"global_atomic_sectors", static_cast<double>(c.global_atomic_sectors)},
        {"global_load_bytes", static_cast<double>(c.global_load_bytes)},
        {"global_store_bytes", static_cast<double>(c.global_store_bytes)},
        {"global_atomic_bytes", static_cast<double>(c.global_atomic_bytes)},
        {"local_load_requests", static_cast<double>(c.local_load_requests)},
        {"local_load_sectors", static_cast<double>(c.local_load_sectors)},
        {"local_store_requests", static_cast<double>(c.local_store_requests)},
        {"local_store_sectors", static_cast<double>(c.local_store_sectors)},
        {"texture_requests", static_cast<double>(c.texture_requests)},
        {"texture_sectors", static_cast<double>(c.texture_sectors)},
        {"constant_requests", static_cast<double>(c.constant_requests)},
        {"constant_wavefronts", static_cast<double>(c.constant_wavefronts)},
        {"shared_requests", static_cast<double>(c.shared_requests)},
        {"shared_wavefronts", static_cast<double>(c.shared_wavefronts)},
        {"shared_bank_conflicts", static_cast<double>(c.shared_bank_conflicts)},
        {"barrier_arrivals", static_cast<double>(c.barrier_arrivals)},
        {"barrier_waits", static_cast<double>(c.barrier_waits)},
        {"l1_hits", static_cast<double>(c.l1_hits)},
        {"l1_misses", static_cast<double>(c.l1_misses)},
        {"l2_hits", static_cast<double>(c.l2_hits)},
        {"l2_misses", static_cast<double>(c.l2_misses)},
        {"dram_read_sectors", static_cast<double>(c.dram_read_sectors)},
        {"dram_write_sectors", static_cast<double>(c.dram_write_sectors)},
    };
    for (const auto& [name, value] : scalars) put(name, value);
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
    case hw::ReportTiming::kFast:
      return "fast";
    case hw::ReportTiming::kDetailed:
      return "detailed";
    case hw::ReportTiming::kSampled:
      return "sampled";
  }
  return "unknown";
}

}  // namespace strata::prof
