// Per-kernel metrics (metrics.h): metrics.def evaluated over a kernel's raw counters.
#include "prof/metrics.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace strata::prof {
namespace {

// A metric input or result: absent when the counters or the config lack an input.
struct Val {
  std::optional<double> v;
  Val() = default;
  Val(double x) : v(x) {}  // NOLINT(google-explicit-constructor): literals in metrics.def
  Val(std::optional<double> x) : v(x) {}  // NOLINT(google-explicit-constructor)
};
Val operator+(Val a, Val b) {
  return a.v && b.v ? Val(*a.v + *b.v) : Val();
}
Val operator*(Val a, Val b) {
  return a.v && b.v ? Val(*a.v * *b.v) : Val();
}
// x / 0 is 0: a ratio over nothing (no requests) reads as none, as Nsight Compute shows.
Val operator/(Val a, Val b) {
  if (!a.v || !b.v) return {};
  return *b.v == 0 ? Val(0.0) : Val(*a.v / *b.v);
}
Val vmax(Val a, Val b) {
  if (!a.v) return b;
  if (!b.v) return a;
  return std::max(*a.v, *b.v);
}

// Tensor input types, as the counters name them ("tensor_fmas.<t>") and the config
// names their rates ("sm.tensor_fma_per_clock_<t>").
constexpr const char* kTensorTypes[] = {"f16", "tf32", "i8", "i4", "f64", "f8"};
// Strata's pipes (perf::pipe_name) with their config rates.
constexpr const char* kPipes[] = {"fp32", "fp64", "int", "sfu", "ldst", "texture", "control"};

// What metrics.def's expressions read.
class Inputs {
 public:
  Inputs(const Kernel& k, const Device& d) : k_(k), d_(d) {}

  Val c(const std::string& name) const {
    auto it = k_.counters.find(name);
    return it == k_.counters.end() ? Val() : Val(it->second);
  }
  Val cfg(const std::string& key) const {
    auto it = d_.config.find(key);
    return it == d_.config.end() ? Val() : Val(it->second);
  }

  Val duration_ns() const {
    return k_.end >= k_.start ? Val(static_cast<double>(k_.end - k_.start)) : Val();
  }
  Val clock_mhz() const {
    Val v = cfg("device.core_clock_mhz");
    if (!v.v && d_.clock_rate_khz > 0) v = d_.clock_rate_khz / 1000.0;
    return v;
  }
  Val elapsed_cycles() const { return duration_ns() * clock_mhz() * 1e-3; }
  Val sm_count() const {
    Val v = cfg("device.sm_count");
    if (!v.v && d_.sm_count > 0) v = static_cast<double>(d_.sm_count);
    return v;
  }
  // Bytes per second.
  Val dram_peak() const {
    if (d_.memory_bandwidth > 0) return static_cast<double>(d_.memory_bandwidth);
    return cfg("device.memory_clock_mhz") * 1e6 * cfg("device.memory_bus_width_bits") / 8.0 *
           cfg("timing.memory_transfers_per_clock");
  }
  Val warp_size() const {
    Val v = cfg("sm.warp_size");
    return v.v && *v.v > 0 ? v : Val(32.0);
  }

  Val grid_size() const { return static_cast<double>(k_.grid[0]) * k_.grid[1] * k_.grid[2]; }
  Val block_size() const { return static_cast<double>(k_.block[0]) * k_.block[1] * k_.block[2]; }
  Val registers_per_thread() const { return static_cast<double>(k_.registers_per_thread); }
  Val static_shared() const { return static_cast<double>(k_.static_shared); }
  Val dynamic_shared() const { return static_cast<double>(k_.dynamic_shared); }

  // Occupancy limits, as the simulator applies them (hw/sim/sm/grid.cc): blocks per SM.
  // A config limit of 0 means "no limit" (hw/config): no metric.
  Val limit(const char* key) const {
    const Val v = cfg(key);
    return v.v && *v.v > 0 ? v : Val();
  }
  Val limit_blocks() const { return limit("sm.max_blocks_per_sm"); }
  Val limit_warps() const {
    return floor(limit("sm.max_threads_per_sm") / (c("warps_per_cta") * warp_size()));
  }
  Val limit_registers() const {
    Val regs = c("regs_per_thread");
    if (!regs.v || *regs.v == 0) return {};
    Val unit = cfg("sm.register_alloc_unit");
    if (!unit.v || *unit.v <= 0) unit = 1.0;
    const Val per_warp = ceil(regs * warp_size() / unit) * unit;
    return floor(limit("sm.registers_per_sm") / (per_warp * c("warps_per_cta")));
  }
  Val limit_shared() const {
    Val reserved = cfg("sm.reserved_shared_bytes_per_block");
    if (!reserved.v) reserved = 0.0;
    const Val per_cta = c("shared_bytes_per_cta") + reserved;
    if (!per_cta.v || *per_cta.v == 0) return {};
    return floor(limit("sm.shared_bytes_per_sm") / per_cta);
  }

  // A pipe's warp instructions over its peak: lanes / warp size per clock per SM
  // (control: one per scheduler), as the fast model bounds it (hw/perf/fast_model.h).
  Val pipe_pct(const std::string& pipe) const {
    const Val rate = pipe == "control" ? cfg("sm.warp_schedulers_per_sm")
                                       : cfg("sm." + pipe + "_lanes_per_clock") / warp_size();
    if (!rate.v || *rate.v <= 0) return {};
    return 100.0 * c("pipe_warp_instructions." + pipe) / (sm_count() * elapsed_cycles() * rate);
  }
  Val tensor_pct() const {
    Val busy_cycles;  // per SM, summed over the types the counters carry
    for (const char* t : kTensorTypes) {
      const Val fmas = c(std::string("tensor_fmas.") + t);
      if (!fmas.v) continue;
      if (*fmas.v == 0) {
        busy_cycles = busy_cycles.v ? busy_cycles : Val(0.0);
        continue;
      }
      const Val rate = cfg(std::string("sm.tensor_fma_per_clock_") + t);
      if (!rate.v || *rate.v <= 0) return {};
      busy_cycles = (busy_cycles.v ? busy_cycles : Val(0.0)) + fmas / rate;
    }
    return 100.0 * busy_cycles / (sm_count() * elapsed_cycles());
  }
  Val sm_throughput() const {
    Val best = 100.0 * c("warp_instructions") /
               (sm_count() * cfg("sm.warp_schedulers_per_sm") * elapsed_cycles());
    for (const char* p : kPipes) best = vmax(best, pipe_pct(p));
    return vmax(best, tensor_pct());
  }
  Val stall_total() const {
    Val sum;
    for (const auto& [name, value] : k_.counters)
      if (name.rfind("stall_cycles.", 0) == 0) sum = (sum.v ? sum : Val(0.0)) + value;
    return sum;
  }

 private:
  static Val floor(Val a) { return a.v ? Val(std::floor(*a.v)) : Val(); }
  static Val ceil(Val a) { return a.v ? Val(std::ceil(*a.v)) : Val(); }

  const Kernel& k_;
  const Device& d_;
};

using Eval = Val (*)(const Inputs&);

struct Row {
  MetricDef def;
  Eval eval;
};

const std::vector<Row>& rows() {
  static const std::vector<Row> table = {
#define METRIC(NAME, UNIT, MODES, DEFINITION, FORMULA, EXPR) \
  {{NAME, UNIT, DEFINITION, FORMULA, MODES}, [](const Inputs& in) -> Val { return EXPR; }},
#include "prof/metrics.def"
#undef METRIC
  };
  return table;
}

}  // namespace

const std::vector<MetricDef>& metric_table() {
  static const std::vector<MetricDef> defs = [] {
    std::vector<MetricDef> out;
    for (const Row& r : rows()) out.push_back(r.def);
    return out;
  }();
  return defs;
}

std::vector<MetricValue> kernel_metrics(const Kernel& kernel, const Device& device) {
  std::vector<MetricValue> out;
  if (kernel.counters.empty()) return out;  // metrics were not collected
  const Inputs in(kernel, device);
  for (const Row& r : rows()) {
    const Val v = r.eval(in);
    if (v.v && std::isfinite(*v.v)) out.push_back({r.def.name, *v.v, r.def.unit});
  }
  return out;
}

}  // namespace strata::prof
