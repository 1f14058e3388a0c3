// Metric formulas against values computed by hand from synthetic counters, and absence
// of what a timing mode does not produce.
#include "prof/metrics.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <set>
#include <string>

#include "hw/perf/kernel_stats.h"

namespace strata::prof {
namespace {

Device test_device() {
  Device d;
  d.sm_count = 24;
  d.clock_rate_khz = 1500000;
  d.memory_bandwidth = 448000000000ull;
  d.config = {{"device.sm_count", 24},
              {"device.core_clock_mhz", 1500},
              {"device.l2_bytes_per_clock", 1536},
              {"sm.warp_size", 32},
              {"sm.warp_schedulers_per_sm", 4},
              {"sm.fp32_lanes_per_clock", 128},
              {"sm.ldst_lanes_per_clock", 32},
              {"sm.tensor_fma_per_clock_f16", 1024},
              {"sm.max_blocks_per_sm", 32},
              {"sm.max_threads_per_sm", 2048},
              {"sm.registers_per_sm", 65536},
              {"sm.register_alloc_unit", 256},
              {"sm.shared_bytes_per_sm", 167936},
              {"sm.reserved_shared_bytes_per_block", 1024}};
  return d;
}

// The execution counters of a fast-mode kernel: 10 CTAs of 128 threads, 10 us.
Kernel fast_kernel() {
  Kernel k;
  k.name = "k";
  k.start = 1000;
  k.end = 11000;
  k.grid[0] = 10;
  k.block[0] = 128;
  k.registers_per_thread = 40;
  k.dynamic_shared = 8192;
  k.counters = {{"ctas", 10},
                {"threads_per_cta", 128},
                {"warps_per_cta", 4},
                {"regs_per_thread", 40},
                {"shared_bytes_per_cta", 8192},
                {"ctas_per_sm", 12},
                {"max_warps_per_sm", 64},
                {"occupancy_limiter", 3},
                {"warp_instructions", 1000},
                {"thread_instructions", 24000},
                {"pipe_warp_instructions.fp32", 600},
                {"pipe_warp_instructions.ldst", 300},
                {"tensor_fmas.f16", 0},
                {"global_load_requests", 100},
                {"global_load_sectors", 400},
                {"global_store_requests", 50},
                {"global_store_sectors", 1600},
                {"shared_requests", 20},
                {"shared_wavefronts", 50},
                {"shared_bank_conflicts", 30},
                {"l1_hits", 30},
                {"l1_misses", 70},
                {"l2_hits", 3},
                {"l2_misses", 1},
                {"dram_read_sectors", 1000},
                {"dram_write_sectors", 500},
                {"model_cycles", 14000},
                {"bound", 5}};
  return k;
}

std::map<std::string, double> by_name(const std::vector<MetricValue>& v) {
  std::map<std::string, double> m;
  for (const auto& x : v) m[x.name] = x.value;
  return m;
}

TEST(Metrics, TableIsWellFormed) {
  std::set<std::string> names;
  for (const MetricDef& d : metric_table()) {
    EXPECT_TRUE(names.insert(d.name).second) << "duplicate " << d.name;
    EXPECT_GT(std::strlen(d.definition), 10u) << d.name;
    EXPECT_GT(std::strlen(d.formula), 0u) << d.name;
    EXPECT_NE(std::strstr(d.modes, "detailed"), nullptr) << d.name;
  }
  for (const char* required : {"gpu__time_duration.sum",
                               "smsp__inst_executed.sum",
                               "smsp__thread_inst_executed.sum",
                               "smsp__thread_inst_executed_per_inst_executed.ratio",
                               "sm__warps_active.avg.pct_of_peak_sustained_active",
                               "sm__maximum_warps_per_active_cycle_pct",
                               "launch__occupancy_limit_blocks",
                               "launch__occupancy_limit_registers",
                               "launch__occupancy_limit_shared_mem",
                               "launch__occupancy_limit_warps",
                               "launch__grid_size",
                               "launch__block_size",
                               "launch__registers_per_thread",
                               "launch__waves_per_multiprocessor",
                               "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                               "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                               "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                               "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
                               "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
                               "l1tex__t_sector_hit_rate.pct",
                               "lts__t_sector_hit_rate.pct",
                               "dram__bytes_read.sum",
                               "dram__bytes_write.sum",
                               "dram__throughput.avg.pct_of_peak_sustained_elapsed",
                               "sm__throughput.avg.pct_of_peak_sustained_elapsed",
                               "sm__cycles_elapsed.avg"})
    EXPECT_TRUE(names.count(required)) << required;
}

// The pipe names metrics.def uses are the simulator's (perf::pipe_name).
TEST(Metrics, PipeNamesAreTheSimulators) {
  std::set<std::string> pipes;
  for (int i = 0; i < hw::perf::kNumPipes; ++i)
    pipes.insert(hw::perf::pipe_name(static_cast<hw::perf::Pipe>(i)));
  for (const MetricDef& d : metric_table()) {
    const std::string f = d.formula;
    const auto at = f.find("pipe_warp_instructions.");
    if (at == std::string::npos) continue;
    size_t end = at + std::strlen("pipe_warp_instructions.");
    size_t stop = end;
    while (stop < f.size() && (std::isalnum(static_cast<unsigned char>(f[stop])) || f[stop] == '_'))
      ++stop;
    EXPECT_TRUE(pipes.count(f.substr(end, stop - end))) << d.name << ": " << f;
  }
}

TEST(Metrics, FastModeFormulas) {
  const auto m = by_name(kernel_metrics(fast_kernel(), test_device()));
  EXPECT_DOUBLE_EQ(m.at("gpu__time_duration.sum"), 10000);
  EXPECT_DOUBLE_EQ(m.at("sm__cycles_elapsed.avg"), 15000);  // 10 us x 1.5 GHz
  EXPECT_DOUBLE_EQ(m.at("launch__grid_size"), 10);
  EXPECT_DOUBLE_EQ(m.at("launch__block_size"), 128);
  EXPECT_DOUBLE_EQ(m.at("launch__registers_per_thread"), 40);
  EXPECT_DOUBLE_EQ(m.at("launch__waves_per_multiprocessor"), 10.0 / (12 * 24));
  EXPECT_DOUBLE_EQ(m.at("launch__occupancy_limit_blocks"), 32);
  EXPECT_DOUBLE_EQ(m.at("launch__occupancy_limit_warps"), 16);           // 2048 / 128
  EXPECT_DOUBLE_EQ(m.at("launch__occupancy_limit_registers"), 12);       // 65536 / (1280 x 4)
  EXPECT_DOUBLE_EQ(m.at("launch__occupancy_limit_shared_mem"), 18);      // 167936 / 9216
  EXPECT_DOUBLE_EQ(m.at("sm__maximum_warps_per_active_cycle_pct"), 75);  // 12 x 4 / 64
  EXPECT_DOUBLE_EQ(m.at("smsp__inst_executed.sum"), 1000);
  EXPECT_DOUBLE_EQ(m.at("smsp__thread_inst_executed.sum"), 24000);
  EXPECT_DOUBLE_EQ(m.at("smsp__thread_inst_executed_per_inst_executed.ratio"), 24);
  EXPECT_DOUBLE_EQ(m.at("smsp__thread_inst_executed_per_inst_executed.pct"), 75);
  // 1000 warp instructions over 24 SMs x 4 schedulers x 15000 cycles.
  EXPECT_NEAR(m.at("smsp__issue_active.avg.pct_of_peak_sustained_elapsed"),
              100.0 * 1000 / (24 * 4 * 15000.0), 1e-12);
  // fp32: 128 lanes = 4 warp instructions per clock per SM.
  EXPECT_NEAR(m.at("sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_elapsed"),
              100.0 * 600 / (24 * 15000.0 * 4), 1e-12);
  // ldst: 32 lanes = 1 per clock: the busiest unit.
  EXPECT_NEAR(m.at("sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_elapsed"),
              100.0 * 300 / (24 * 15000.0), 1e-12);
  EXPECT_NEAR(m.at("sm__throughput.avg.pct_of_peak_sustained_elapsed"),
              100.0 * 300 / (24 * 15000.0), 1e-12);
  EXPECT_DOUBLE_EQ(m.at("sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed"), 0);
  EXPECT_DOUBLE_EQ(m.at("sm__inst_executed_pipe_fma.sum"), 600);
  // No counter, no metric: the fp64 pipe's count was not reported.
  EXPECT_FALSE(m.count("sm__inst_executed_pipe_fp64.sum"));
  EXPECT_DOUBLE_EQ(m.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 400);
  EXPECT_DOUBLE_EQ(m.at("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 100);
  EXPECT_DOUBLE_EQ(m.at("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio"), 4);
  EXPECT_DOUBLE_EQ(m.at("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio"),
                   32);
  EXPECT_DOUBLE_EQ(m.at("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"), 50);
  EXPECT_DOUBLE_EQ(m.at("l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"), 30);
  EXPECT_DOUBLE_EQ(m.at("l1tex__t_sector_hit_rate.pct"), 30);
  EXPECT_DOUBLE_EQ(m.at("lts__t_sector_hit_rate.pct"), 75);
  EXPECT_DOUBLE_EQ(m.at("dram__bytes_read.sum"), 32000);
  EXPECT_DOUBLE_EQ(m.at("dram__bytes_write.sum"), 16000);
  // 48000 bytes in 10 us against 448 GB/s.
  EXPECT_NEAR(m.at("dram__throughput.avg.pct_of_peak_sustained_elapsed"),
              100.0 * 48000 / (10e-6 * 448e9), 1e-9);
  // L2: 128 bytes against 1536 B/clk x 15000 cycles.
  EXPECT_NEAR(m.at("lts__throughput.avg.pct_of_peak_sustained_elapsed"),
              100.0 * 128 / (1536 * 15000.0), 1e-12);
  // The detailed model's metrics are absent under the fast model.
  for (const auto& [name, value] : m) {
    EXPECT_EQ(name.find("stalled"), std::string::npos) << name;
    EXPECT_EQ(name.find("sm__warps_active"), std::string::npos) << name;
  }
  EXPECT_FALSE(m.count("sm__cycles_active.avg"));
}

TEST(Metrics, BytesPerSectorAreTheRequestedShare) {
  Kernel k = fast_kernel();
  // 100 warp requests of float4 (16 bytes x 32 lanes): 1600 sectors, all used.
  k.counters["global_load_requests"] = 100;
  k.counters["global_load_sectors"] = 1600;
  k.counters["global_load_bytes"] = 100 * 32 * 16;
  // Stores of floats at a stride of two: 8 sectors per request, half their bytes used.
  k.counters["global_store_requests"] = 10;
  k.counters["global_store_sectors"] = 80;
  k.counters["global_store_bytes"] = 10 * 32 * 4;
  const auto m = by_name(kernel_metrics(k, test_device()));
  EXPECT_DOUBLE_EQ(m.at("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"), 100);
  EXPECT_DOUBLE_EQ(m.at("smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct"), 50);
  EXPECT_DOUBLE_EQ(m.at("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio"), 16);
  // Without the bytes counter (an older database's kernels): no metric.
  k.counters.erase("global_load_bytes");
  EXPECT_FALSE(by_name(kernel_metrics(k, test_device()))
                   .count("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"));
}

TEST(Metrics, DetailedModeAddsOccupancyAndStalls) {
  Kernel k = fast_kernel();
  k.counters["achieved_occupancy"] = 0.5;
  k.counters["detailed_cycles"] = 12000;
  k.counters["stall_cycles.barrier"] = 0;
  k.counters["stall_cycles.dependency"] = 50;
  k.counters["stall_cycles.memory"] = 300;
  k.counters["stall_cycles.pipe_busy"] = 0;
  k.counters["stall_cycles.not_selected"] = 50;
  k.counters["stall_cycles.selected"] = 100;
  const auto m = by_name(kernel_metrics(k, test_device()));
  EXPECT_DOUBLE_EQ(m.at("sm__warps_active.avg.pct_of_peak_sustained_active"), 50);
  EXPECT_DOUBLE_EQ(m.at("sm__warps_active.avg.per_cycle_active"), 32);
  EXPECT_DOUBLE_EQ(m.at("smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio"),
                   3);
  EXPECT_DOUBLE_EQ(m.at("smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct"), 60);
  EXPECT_DOUBLE_EQ(m.at("smsp__warp_issue_stalled_wait_per_warp_active.pct"), 10);
  EXPECT_DOUBLE_EQ(m.at("sm__cycles_active.avg"), 12000);
}

TEST(Metrics, NoCountersNoMetrics) {
  Kernel k = fast_kernel();
  k.counters.clear();
  EXPECT_TRUE(kernel_metrics(k, test_device()).empty());
}

TEST(Metrics, MissingConfigLeavesPeaksOut) {
  Device d;  // no config, no peaks
  const auto m = by_name(kernel_metrics(fast_kernel(), d));
  EXPECT_DOUBLE_EQ(m.at("smsp__inst_executed.sum"), 1000);
  EXPECT_FALSE(m.count("dram__throughput.avg.pct_of_peak_sustained_elapsed"));
  EXPECT_FALSE(m.count("sm__cycles_elapsed.avg"));
  EXPECT_FALSE(m.count("launch__occupancy_limit_registers"));
}

}  // namespace
}  // namespace strata::prof
