// The advisor's verdicts on synthetic metrics, work lists and databases.
#include "prof/advise.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace strata::prof {
namespace {

DeviceConfig g1_config() {
  return {{"device.memory_clock_mhz", 1750},
          {"device.memory_bus_width_bits", 256},
          {"timing.memory_transfers_per_clock", 8},
          {"timing.launch_overhead_ns", 2000},
          {"link.host_link_bytes_per_second", 31.5e9}};
}

// A long kernel (1 ms per launch) whose units are all lightly used.
KernelGroup quiet_kernel() {
  KernelGroup g;
  g.name = "k";
  g.launches = 2;
  g.total_ns = 2000000;
  g.metrics = {{"sm__throughput.avg.pct_of_peak_sustained_elapsed", 20},
               {"smsp__issue_active.avg.pct_of_peak_sustained_elapsed", 20},
               {"dram__throughput.avg.pct_of_peak_sustained_elapsed", 10},
               {"lts__throughput.avg.pct_of_peak_sustained_elapsed", 5},
               {"launch__waves_per_multiprocessor", 4},
               {"sm__maximum_warps_per_active_cycle_pct", 100},
               {"launch__block_size", 256},
               {"smsp__thread_inst_executed_per_inst_executed.ratio", 32},
               {"l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", 4},
               {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 1000},
               {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 4000},
               {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", 0},
               {"l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", 100}};
  return g;
}

bool has(const std::vector<Verdict>& v, VerdictKind kind) {
  for (const Verdict& x : v)
    if (x.kind == kind) return true;
  return false;
}

TEST(Advise, LatencyBoundWhenNoUnitIsBusy) {
  const auto v = advise_kernel(quiet_kernel(), g1_config());
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].kind, VerdictKind::kLatencyBound);
  EXPECT_NEAR(v[0].severity, 0.8, 1e-12);
  EXPECT_NE(v[0].evidence.find("SM throughput 20.0%"), std::string::npos) << v[0].evidence;
}

TEST(Advise, SmallGridIsCalledOut) {
  KernelGroup g = quiet_kernel();
  g.metrics["launch__waves_per_multiprocessor"] = 0.25;
  const auto v = advise_kernel(g, g1_config());
  ASSERT_FALSE(v.empty());
  EXPECT_EQ(v[0].kind, VerdictKind::kLatencyBound);
  EXPECT_NE(v[0].suggestion.find("more blocks"), std::string::npos);
}

// Under the detailed model the top stall reason picks the suggestion.
TEST(Advise, LatencyBoundNamesTheTopStall) {
  KernelGroup g = quiet_kernel();
  g.metrics["smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct"] = 20;
  g.metrics["smsp__warp_issue_stalled_barrier_per_warp_active.pct"] = 70;
  const auto v = advise_kernel(g, g1_config());
  ASSERT_FALSE(v.empty());
  EXPECT_EQ(v[0].kind, VerdictKind::kLatencyBound);
  EXPECT_NE(v[0].evidence.find("70.0% of their active cycles waiting at a CTA barrier"),
            std::string::npos)
      << v[0].evidence;
  EXPECT_NE(v[0].suggestion.find("__syncthreads()"), std::string::npos) << v[0].suggestion;
}

TEST(Advise, MemoryBoundWithDramEvidence) {
  KernelGroup g = quiet_kernel();
  g.metrics["dram__throughput.avg.pct_of_peak_sustained_elapsed"] = 85;
  g.metrics["dram__bytes.sum.per_second"] = 380.8e9;
  const auto v = advise_kernel(g, g1_config());
  ASSERT_FALSE(v.empty());
  EXPECT_EQ(v[0].kind, VerdictKind::kMemoryBound);
  EXPECT_NEAR(v[0].severity, 0.85, 1e-12);
  // 1750 MHz x 256 bits / 8 x 8 = 448 GB/s.
  EXPECT_NE(v[0].evidence.find("380.8 GB/s of 448.0 GB/s"), std::string::npos) << v[0].evidence;
}

TEST(Advise, ComputeBoundNamesTheBusiestPipe) {
  KernelGroup g = quiet_kernel();
  g.metrics["sm__throughput.avg.pct_of_peak_sustained_elapsed"] = 90;
  g.metrics["sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_elapsed"] = 90;
  g.metrics["sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_elapsed"] = 30;
  g.metrics["dram__throughput.avg.pct_of_peak_sustained_elapsed"] = 70;
  const auto v = advise_kernel(g, g1_config());
  ASSERT_FALSE(v.empty());
  EXPECT_EQ(v[0].kind, VerdictKind::kComputeBound);
  EXPECT_NE(v[0].evidence.find("fma pipe at 90.0%"), std::string::npos) << v[0].evidence;
}

TEST(Advise, LaunchBoundShortKernels) {
  KernelGroup g = quiet_kernel();
  g.launches = 1000;
  g.total_ns = 3000 * 1000;  // 3 us each against a 2 us launch overhead
  const auto v = advise_kernel(g, g1_config());
  ASSERT_FALSE(v.empty());
  EXPECT_EQ(v[0].kind, VerdictKind::kLaunchBound);
  EXPECT_NE(v[0].evidence.find("1000 launches"), std::string::npos);
  // 5 us each is more than twice the overhead.
  g.total_ns = 5000 * 1000;
  EXPECT_EQ(advise_kernel(g, g1_config())[0].kind, VerdictKind::kLatencyBound);
}

TEST(Advise, OccupancyLimitedByRegisters) {
  KernelGroup g = quiet_kernel();
  g.metrics["sm__maximum_warps_per_active_cycle_pct"] = 25;
  g.metrics["launch__occupancy_limit_blocks"] = 32;
  g.metrics["launch__occupancy_limit_warps"] = 8;
  g.metrics["launch__occupancy_limit_registers"] = 2;
  g.metrics["launch__occupancy_limit_shared_mem"] = 18;
  g.metrics["launch__registers_per_thread"] = 128;
  const auto v = advise_kernel(g, g1_config());
  ASSERT_TRUE(has(v, VerdictKind::kOccupancyLimited));
  EXPECT_NE(v[1].evidence.find("limited by registers"), std::string::npos) << v[1].evidence;
  EXPECT_NE(v[1].suggestion.find("__launch_bounds__"), std::string::npos);
  // The counters' limiter wins over the smallest limit.
  g.counters["occupancy_limiter"] = 4;
  EXPECT_NE(advise_kernel(g, g1_config())[1].evidence.find("limited by shared_mem"),
            std::string::npos);
}

TEST(Advise, UncoalescedFlipsAboveTheIdeal) {
  KernelGroup g = quiet_kernel();
  const char* kSpr = "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio";
  for (double spr : {4.0, 5.0}) {
    g.metrics[kSpr] = spr;
    EXPECT_FALSE(has(advise_kernel(g, g1_config()), VerdictKind::kUncoalesced)) << spr;
  }
  for (double spr : {8.0, 16.0, 32.0}) {
    g.metrics[kSpr] = spr;
    const auto v = advise_kernel(g, g1_config());
    ASSERT_TRUE(has(v, VerdictKind::kUncoalesced)) << spr;
    EXPECT_NEAR(v[1].severity, 1.0 - 4.0 / spr, 1e-12);
  }
}

TEST(Advise, BankConflicts) {
  KernelGroup g = quiet_kernel();
  g.metrics["l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"] = 5;  // 5%
  EXPECT_FALSE(has(advise_kernel(g, g1_config()), VerdictKind::kBankConflicts));
  g.metrics["l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"] = 94;
  g.metrics["l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"] = 100;
  const auto v = advise_kernel(g, g1_config());
  ASSERT_TRUE(has(v, VerdictKind::kBankConflicts));
  EXPECT_NE(v[1].evidence.find("94 of 100"), std::string::npos) << v[1].evidence;
}

// Per-line counters: each verdict names the line most at fault, with its figures, and
// format_advice prints it under the verdict.
TEST(Advise, VerdictsNameTheSourceLine) {
  KernelGroup g = quiet_kernel();
  g.metrics["l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio"] = 16;
  g.metrics["l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"] = 94;
  SourceLine coalesced, strided, conflicted;
  coalesced.file = strided.file = conflicted.file = "k.cu";
  // 100 requests of 128 bytes in 4 sectors: no excess. Most sectors, most instructions.
  coalesced.line = 10, coalesced.global_requests = 100, coalesced.global_sectors = 4000;
  coalesced.global_bytes = 128000, coalesced.warp_instructions = 900;
  coalesced.thread_instructions = 900 * 32;
  // 10 requests of 128 bytes in 16 sectors: 120 excess sectors.
  strided.line = 20, strided.global_requests = 10, strided.global_sectors = 160;
  strided.global_bytes = 1280, strided.warp_instructions = 10, strided.thread_instructions = 320;
  conflicted.line = 30, conflicted.shared_requests = 4, conflicted.shared_wavefronts = 98;
  conflicted.shared_bank_conflicts = 94, conflicted.warp_instructions = 4;
  conflicted.thread_instructions = 128;
  g.source = {coalesced, strided, conflicted};
  const auto v = advise_kernel(g, g1_config());
  std::map<VerdictKind, std::string> where;
  for (const Verdict& x : v) where[x.kind] = x.where;
  ASSERT_TRUE(where.count(VerdictKind::kUncoalesced));
  EXPECT_EQ(where[VerdictKind::kUncoalesced].rfind("k.cu:20: 160 global sectors in 10 requests "
                                                   "(16.00 per request)", 0), 0u)
      << where[VerdictKind::kUncoalesced];
  EXPECT_NE(where[VerdictKind::kUncoalesced].find("25.0% of the bytes moved used; 100% of the "
                                                  "kernel's excess"), std::string::npos)
      << where[VerdictKind::kUncoalesced];
  ASSERT_TRUE(where.count(VerdictKind::kBankConflicts));
  EXPECT_EQ(where[VerdictKind::kBankConflicts].rfind("k.cu:30: 94 bank conflicts", 0), 0u);
  ASSERT_TRUE(where.count(VerdictKind::kLatencyBound));
  EXPECT_EQ(where[VerdictKind::kLatencyBound].rfind("k.cu:10: 900 warp instructions; 98%", 0), 0u)
      << where[VerdictKind::kLatencyBound];
  Advice advice;
  advice.has_metrics = true;
  advice.kernels.push_back({g, 1.0, v});
  EXPECT_NE(format_advice(advice).find("\n     at: k.cu:20: "), std::string::npos);
  // PTX lines say so; without lines no verdict has a location.
  g.source = {strided};
  g.source[0].file = "mod", g.source[0].ptx = true;
  for (const Verdict& x : advise_kernel(g, g1_config()))
    if (x.kind == VerdictKind::kUncoalesced) EXPECT_EQ(x.where.rfind("mod PTX line 20: ", 0), 0u);
  g.source.clear();
  for (const Verdict& x : advise_kernel(g, g1_config())) EXPECT_EQ(x.where, "");
}

TEST(Advise, DivergenceAndRanking) {
  KernelGroup g = quiet_kernel();
  g.metrics["smsp__thread_inst_executed_per_inst_executed.ratio"] = 28;  // above 27.2
  EXPECT_FALSE(has(advise_kernel(g, g1_config()), VerdictKind::kDivergence));
  g.metrics["smsp__thread_inst_executed_per_inst_executed.ratio"] = 16;  // severity 0.5
  g.metrics["l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio"] = 32;  // 0.875
  g.metrics["sm__maximum_warps_per_active_cycle_pct"] = 40;                                // 0.6
  const auto v = advise_kernel(g, g1_config());
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(v[0].kind, VerdictKind::kLatencyBound);  // the primary verdict comes first
  EXPECT_EQ(v[1].kind, VerdictKind::kUncoalesced);
  EXPECT_EQ(v[2].kind, VerdictKind::kOccupancyLimited);
  EXPECT_EQ(v[3].kind, VerdictKind::kDivergence);
}

TEST(Advise, NoMetricsNoVerdict) {
  KernelGroup g;
  g.launches = 1;
  g.total_ns = 100;
  EXPECT_TRUE(advise_kernel(g, g1_config()).empty());
}

StreamWork work(uint64_t stream, uint64_t start, uint64_t end,
                StreamWork::Kind kind = StreamWork::Kind::kKernel, uint64_t bytes = 0) {
  StreamWork w;
  w.pid = 1;
  w.stream_id = stream;
  w.start = start;
  w.end = end;
  w.kind = kind;
  w.bytes = bytes;
  return w;
}

TEST(Advise, TransferBound) {
  const auto copy = StreamWork::Kind::kMemcpy;
  auto v = advise_program({work(7, 0, 3000, copy, 1 << 20), work(7, 3000, 4000)}, g1_config());
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].kind, VerdictKind::kTransferBound);
  EXPECT_NEAR(v[0].severity, 0.75, 1e-12);
  v = advise_program({work(7, 0, 1000, copy, 1 << 20), work(7, 1000, 4000)}, g1_config());
  EXPECT_TRUE(v.empty());
}

TEST(Advise, SerialisedStreams) {
  // Two streams, back to back: serialised.
  auto v = advise_program({work(1, 0, 1000), work(2, 1000, 2000), work(1, 2000, 3000)}, {});
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].kind, VerdictKind::kSerialisedStreams);
  EXPECT_NEAR(v[0].severity, 1000.0 / 3000.0, 1e-12);
  // Any overlap between two streams: concurrent.
  v = advise_program({work(1, 0, 1000), work(2, 999, 2000), work(1, 2000, 3000)}, {});
  EXPECT_TRUE(v.empty());
  // A later interval inside an earlier long one of another stream.
  v = advise_program({work(1, 0, 5000), work(1, 10, 20), work(2, 100, 200)}, {});
  EXPECT_TRUE(v.empty());
  // One stream only: nothing to say.
  EXPECT_TRUE(advise_program({work(1, 0, 1000), work(1, 1000, 2000)}, {}).empty());
}

// A database as `strata prof --metrics` writes it, reduced to the columns the advisor reads.
class AdviseDatabase : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (std::filesystem::temp_directory_path() /
             ("strata_advise_test_" + std::to_string(::getpid()) + ".sqlite"))
                .string();
    std::filesystem::remove(path_);
    ASSERT_EQ(sqlite3_open(path_.c_str(), &db_), SQLITE_OK);
    exec(R"sql(
CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER,
  contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER,
  demangledName INTEGER, shortName INTEGER, mangledName INTEGER, gridId INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER, end INTEGER, deviceId INTEGER,
  contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER,
  bytes INTEGER, copyKind INTEGER);
CREATE TABLE STRATA_SESSION (name TEXT, value TEXT);
CREATE TABLE STRATA_DEVICE_CONFIG (deviceId INTEGER, name TEXT, value REAL);
CREATE TABLE STRATA_KERNEL_COUNTERS (globalPid INTEGER, deviceId INTEGER,
  correlationId INTEGER, gridId INTEGER, name TEXT, value REAL);
CREATE TABLE STRATA_KERNEL_METRICS (globalPid INTEGER, deviceId INTEGER,
  correlationId INTEGER, gridId INTEGER, name TEXT, value REAL, unit TEXT);
INSERT INTO StringIds VALUES (1, 'light(float*)'), (2, 'heavy(float*)');
INSERT INTO STRATA_SESSION VALUES ('timing_mode', 'fast'), ('arch', 'strata-g1');
INSERT INTO STRATA_DEVICE_CONFIG VALUES (0, 'timing.launch_overhead_ns', 2000),
  (0, 'device.memory_clock_mhz', 1750), (0, 'device.memory_bus_width_bits', 256),
  (0, 'timing.memory_transfers_per_clock', 8);
-- light: two launches of 100 us on stream 7; heavy: one of 1 ms on stream 7.
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES
  (10000, 110000, 0, 1, 7, 11, 16777216, 1, 1, 1, 1),
  (200000, 300000, 0, 1, 7, 12, 16777216, 1, 1, 1, 2),
  (400000, 1400000, 0, 1, 7, 13, 16777216, 2, 2, 2, 3);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (0, 5000, 0, 1, 7, 10, 16777216, 4096, 1);
INSERT INTO STRATA_KERNEL_METRICS VALUES
  (16777216, 0, 11, 1, 'smsp__inst_executed.sum', 100, 'inst'),
  (16777216, 0, 11, 1, 'sm__throughput.avg.pct_of_peak_sustained_elapsed', 10, '%'),
  (16777216, 0, 11, 1, 'dram__throughput.avg.pct_of_peak_sustained_elapsed', 20, '%'),
  (16777216, 0, 12, 2, 'smsp__inst_executed.sum', 300, 'inst'),
  (16777216, 0, 12, 2, 'sm__throughput.avg.pct_of_peak_sustained_elapsed', 30, '%'),
  (16777216, 0, 12, 2, 'dram__throughput.avg.pct_of_peak_sustained_elapsed', 40, '%'),
  (16777216, 0, 13, 3, 'sm__throughput.avg.pct_of_peak_sustained_elapsed', 15, '%'),
  (16777216, 0, 13, 3, 'dram__throughput.avg.pct_of_peak_sustained_elapsed', 91, '%');
INSERT INTO STRATA_KERNEL_COUNTERS VALUES (16777216, 0, 13, 3, 'warp_instructions', 5);
)sql");
    sqlite3_close(db_);
    db_ = nullptr;
  }
  void TearDown() override {
    if (db_ != nullptr) sqlite3_close(db_);
    std::filesystem::remove(path_);
  }
  void exec(const char* sql) {
    char* err = nullptr;
    ASSERT_EQ(sqlite3_exec(db_, sql, nullptr, nullptr, &err), SQLITE_OK) << err;
  }
  std::string path_;
  sqlite3* db_ = nullptr;
};

TEST_F(AdviseDatabase, GroupsRanksAndCombines) {
  auto advice = advise_database(path_);
  ASSERT_TRUE(advice.ok()) << advice.status().message();
  const Advice& a = advice.value();
  EXPECT_TRUE(a.has_metrics);
  EXPECT_EQ(a.session.at("timing_mode"), "fast");
  ASSERT_EQ(a.kernels.size(), 2u);
  // Heaviest total time first.
  EXPECT_EQ(a.kernels[0].group.name, "heavy(float*)");
  EXPECT_EQ(a.kernels[0].group.total_ns, 1000000u);
  EXPECT_NEAR(a.kernels[0].time_share, 1000000.0 / 1200000.0, 1e-12);
  EXPECT_EQ(a.kernels[0].group.counters.at("warp_instructions"), 5);
  ASSERT_FALSE(a.kernels[0].verdicts.empty());
  EXPECT_EQ(a.kernels[0].verdicts[0].kind, VerdictKind::kMemoryBound);
  // light: ".sum" metrics add up; percentages are duration-weighted (equal durations here).
  const KernelGroup& light = a.kernels[1].group;
  EXPECT_EQ(light.launches, 2u);
  EXPECT_DOUBLE_EQ(light.metrics.at("smsp__inst_executed.sum"), 400);
  EXPECT_DOUBLE_EQ(light.metrics.at("sm__throughput.avg.pct_of_peak_sustained_elapsed"), 20);
  EXPECT_DOUBLE_EQ(light.metrics.at("dram__throughput.avg.pct_of_peak_sustained_elapsed"), 30);
  EXPECT_EQ(a.kernels[1].verdicts[0].kind, VerdictKind::kLatencyBound);
  // One stream, 5 us of copies against 1.2 ms of kernels: no program verdict.
  EXPECT_TRUE(a.program.empty());
  const std::string text = format_advice(a);
  EXPECT_NE(text.find("Kernel 1: heavy(float*)"), std::string::npos) << text;
  EXPECT_NE(text.find("  1. [memory-bound] DRAM throughput 91.0% of peak"), std::string::npos)
      << text;
  EXPECT_NE(text.find("timing mode fast, arch strata-g1"), std::string::npos) << text;
}

// A database without Strata's tables (as `nsys export` writes it): no kernel verdicts,
// a note saying why, and the program's verdicts still.
TEST_F(AdviseDatabase, WithoutMetrics) {
  ASSERT_EQ(sqlite3_open(path_.c_str(), &db_), SQLITE_OK);
  exec(
      "DROP TABLE STRATA_KERNEL_METRICS; DROP TABLE STRATA_KERNEL_COUNTERS;"
      "DROP TABLE STRATA_SESSION; DROP TABLE STRATA_DEVICE_CONFIG;"
      "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES "
      "(1400000, 1500000, 0, 1, 8, 14, 16777216, 1, 1, 1, 4);");
  sqlite3_close(db_);
  db_ = nullptr;
  auto advice = advise_database(path_);
  ASSERT_TRUE(advice.ok()) << advice.status().message();
  EXPECT_FALSE(advice.value().has_metrics);
  ASSERT_EQ(advice.value().kernels.size(), 2u);
  EXPECT_TRUE(advice.value().kernels[0].verdicts.empty());
  ASSERT_EQ(advice.value().program.size(), 1u);
  EXPECT_EQ(advice.value().program[0].kind, VerdictKind::kSerialisedStreams);
  const std::string text = format_advice(advice.value());
  EXPECT_NE(text.find("no STRATA_KERNEL_METRICS rows"), std::string::npos) << text;
  EXPECT_NE(text.find("timing mode unknown"), std::string::npos) << text;
}

TEST(AdviseDatabaseErrors, MissingAndMalformedFiles) {
  EXPECT_EQ(advise_database("/nonexistent/x.sqlite").status().code(), Code::kNotFound);
  const std::string path =
      (std::filesystem::temp_directory_path() / ("strata_advise_bad_" + std::to_string(::getpid())))
          .string();
  {
    std::ofstream out(path);
    out << "this is not a database, only some text that is long enough to be a header\n";
  }
  EXPECT_EQ(advise_database(path).status().code(), Code::kInvalidValue);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace strata::prof
