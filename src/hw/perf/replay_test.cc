// Record and replay (replay.h): the `--set` parser and config overrides through the
// validator, the trace format's recording block, and replays of synthetic traces whose
// expected counts are worked out by hand from the cache policies of hw/perf/cache.h.
#include "hw/perf/replay.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "hw/config/arch_config.h"

namespace strata::hw::perf {
namespace {

std::string arch_text(std::string* path) {
  const char* dir = std::getenv("STRATA_ARCH_DIR");
  *path = std::string(dir != nullptr ? dir : "arch") + "/strata-g1.toml";
  std::ifstream in(*path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

ArchConfig g1() {
  StatusOr<ArchConfig> c = load_arch_config("strata-g1");
  EXPECT_TRUE(c.ok()) << c.status().message();
  return *c;
}

TEST(Replay, ParseOverride) {
  StatusOr<ConfigOverride> o = parse_override("device.sm_count=24, 48,96");
  ASSERT_TRUE(o.ok()) << o.status().message();
  EXPECT_EQ(o->key, "device.sm_count");
  EXPECT_EQ(o->values, (std::vector<std::string>{"24", "48", "96"}));

  StatusOr<ConfigOverride> bad = parse_override("device.sm_count");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Code::kInvalidValue);
  bad = parse_override("device.no_such_field=1");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("device.no_such_field"), std::string::npos);
  bad = parse_override("device.sm_count=24,,48");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("empty value"), std::string::npos);
  bad = parse_override("sm_count=24");  // no section
  EXPECT_FALSE(bad.ok());
}

TEST(Replay, OverrideProductFirstVariesSlowest) {
  std::vector<ConfigOverride> o = {{"device.sm_count", {"24", "48"}},
                                   {"device.core_clock_mhz", {"1000", "1500", "2000"}}};
  const std::vector<Assignment> p = override_product(o);
  ASSERT_EQ(p.size(), 6u);
  EXPECT_EQ(p[0], (Assignment{{"device.sm_count", "24"}, {"device.core_clock_mhz", "1000"}}));
  EXPECT_EQ(p[2], (Assignment{{"device.sm_count", "24"}, {"device.core_clock_mhz", "2000"}}));
  EXPECT_EQ(p[3], (Assignment{{"device.sm_count", "48"}, {"device.core_clock_mhz", "1000"}}));
  EXPECT_EQ(override_product({}).size(), 1u);
}

TEST(Replay, OverridesGoThroughTheValidator) {
  std::string path;
  const std::string text = arch_text(&path);
  StatusOr<ArchConfig> c =
      apply_overrides(text, path, {{"device.sm_count", "48"}, {"device.l2_bytes", "8388608"}});
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->sm_count, 48);
  EXPECT_EQ(c->l2_bytes, 8388608);
  EXPECT_EQ(c->core_clock_mhz, g1().core_clock_mhz);  // untouched fields keep their values

  // Out of range, wrong type, contradicting another field: rejected naming the field.
  StatusOr<ArchConfig> bad = apply_overrides(text, path, {{"device.sm_count", "0"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Code::kInvalidValue);
  EXPECT_NE(bad.status().message().find("device.sm_count"), std::string::npos);
  EXPECT_NE(bad.status().message().find("out of range"), std::string::npos);
  bad = apply_overrides(text, path, {{"device.sm_count", "2.5"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("must be an integer"), std::string::npos);
  bad = apply_overrides(text, path, {{"device.core_clock_mhz", "fast"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("device.core_clock_mhz"), std::string::npos);
  bad = apply_overrides(text, path, {{"sm.l1_bytes", "1024"}});  // below shared_bytes_per_sm
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("shared_bytes_per_sm"), std::string::npos);
}

TEST(Replay, ConfigFieldsRoundTrip) {
  ArchConfig c = g1();
  c.core_clock_mhz = 1234;
  c.memory_transfers_per_clock = 7;
  KernelTrace t;
  t.record.present = true;
  t.record.config_fields = config_fields(c);
  StatusOr<ArchConfig> back = recorded_config(t);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->core_clock_mhz, 1234);
  EXPECT_EQ(back->memory_transfers_per_clock, 7);
  EXPECT_EQ(back->name, c.name);
  EXPECT_EQ(back->l2_bytes, c.l2_bytes);
  EXPECT_FALSE(recorded_config(KernelTrace{}).ok());
}

// A kernel of `ctas` CTAs of one warp recorded on SM 0 of `sms` SMs: each warp issues
// `issues` instructions (pc 0, code that decodes to nothing: timed as NOPs) and, when
// `sectors` > 0, two passes of loads over `sectors` distinct sectors of its own (one
// sector per load).
KernelTrace synthetic(const ArchConfig& config, uint32_t sms, uint64_t ctas, uint32_t issues,
                      uint32_t sectors) {
  KernelTrace t;
  t.sm_count = sms;
  t.warps_per_cta = 1;
  t.threads_per_cta = 32;
  t.regs_per_thread = 16;
  t.total_ctas = ctas;
  t.code.assign(16, 0);
  for (uint64_t linear = 0; linear < ctas; linear += sms) {
    CtaTrace c;
    c.linear = linear;
    WarpTrace w;
    for (uint32_t i = 0; i < issues; ++i) w.issues.push_back({0, ~0u, ~0u});
    for (uint32_t pass = 0; pass < 2 && sectors > 0; ++pass) {
      for (uint32_t s = 0; s < sectors; ++s) {
        w.accesses.push_back(
            {std::min<uint32_t>(static_cast<uint32_t>(w.accesses.size()), issues - 1),
             TraceAccessKind::kLoad, static_cast<uint32_t>(w.sectors.size()), 1});
        w.sectors.push_back((linear << 32) + uint64_t{s} * 32);
      }
    }
    c.warps.push_back(std::move(w));
    t.ctas.push_back(std::move(c));
  }
  RecordInfo& r = t.record;
  r.present = true;
  r.kernel_id = 7;
  r.config_fields = config_fields(config);
  KernelStats& k = r.stats;
  k.ctas = ctas;
  k.threads_per_cta = 32;
  k.warps_per_cta = 1;
  k.regs_per_thread = 16;
  k.warp_instructions = ctas * issues;
  k.thread_instructions = k.warp_instructions * 32;
  k.pipe_warp_instructions[static_cast<int>(Pipe::kFp32)] = k.warp_instructions;
  k.pipe_thread_instructions[static_cast<int>(Pipe::kFp32)] = k.thread_instructions;
  k.global_loads = {ctas * 2 * sectors, ctas * 2 * sectors};
  return t;
}

TEST(Replay, TraceFileKeepsTheRecording) {
  ArchConfig c = g1();
  KernelTrace t = synthetic(c, 4, 8, 3, 2);
  t.record.device = 1, t.record.seq = 5, t.record.grid_id = 9;
  t.record.grid[0] = 8, t.record.block[0] = 32;
  t.record.config_name = "Strata G1", t.record.config_hash = "00ff";
  t.record.stats.l2_hits = 11, t.record.stats.dram_write_sectors = 12;
  t.record.stats.occupancy_limiter = KernelStats::Limiter::kShared;
  t.record.stats.sm_warp_instructions = {1, 2, 3, 4};
  t.record.stats.sm_ctas = {2, 2, 2, 2};
  StatusOr<KernelTrace> back = parse_trace(serialize_trace(t));
  ASSERT_TRUE(back.ok()) << back.status().message();
  const RecordInfo& r = back->record;
  ASSERT_TRUE(r.present);
  EXPECT_EQ(r.device, 1u);
  EXPECT_EQ(r.seq, 5u);
  EXPECT_EQ(r.kernel_id, 7u);
  EXPECT_EQ(r.grid_id, 9u);
  EXPECT_EQ(r.grid[0], 8u);
  EXPECT_EQ(r.block[0], 32u);
  EXPECT_EQ(r.config_name, "Strata G1");
  EXPECT_EQ(r.config_hash, "00ff");
  EXPECT_EQ(r.config_fields, t.record.config_fields);
  EXPECT_EQ(r.stats.warp_instructions, 24u);
  EXPECT_EQ(r.stats.global_loads.sectors, 32u);
  EXPECT_EQ(r.stats.l2_hits, 11u);
  EXPECT_EQ(r.stats.dram_write_sectors, 12u);
  EXPECT_EQ(r.stats.occupancy_limiter, KernelStats::Limiter::kShared);
  EXPECT_EQ(r.stats.sm_warp_instructions, (std::vector<uint64_t>{1, 2, 3, 4}));
  EXPECT_EQ(r.stats.sm_ctas, (std::vector<uint32_t>{2, 2, 2, 2}));
  EXPECT_EQ(back->ctas.size(), 2u);

  // A trace without a recording.
  KernelTrace no_record = t;
  no_record.record = RecordInfo{};
  StatusOr<KernelTrace> plain = parse_trace(serialize_trace(no_record));
  ASSERT_TRUE(plain.ok());
  EXPECT_FALSE(plain->record.present);
  EXPECT_FALSE(plain->l2_recorded);

  // The device's L2 stream round-trips; a future version is rejected.
  t.l2_recorded = true;
  t.l2_requests = {{0x1000, 0x3, 0}, {0x2080, 0xf, 2}};
  back = parse_trace(serialize_trace(t));
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_TRUE(back->l2_recorded);
  ASSERT_EQ(back->l2_requests.size(), 2u);
  EXPECT_EQ(back->l2_requests[1].line, 0x2080u);
  EXPECT_EQ(back->l2_requests[1].sectors, 0xf);
  EXPECT_EQ(back->l2_requests[1].op, 2);
  std::vector<uint8_t> bytes = serialize_trace(t);
  bytes[8] = kTraceVersion + 1;  // the header's version (after the 8-byte magic)
  StatusOr<KernelTrace> future = parse_trace(bytes);
  ASSERT_FALSE(future.ok());
  EXPECT_NE(future.status().message().find("version"), std::string::npos);
}

TEST(Replay, UnderTheRecordingConfigReproducesTheRecording) {
  const ArchConfig c = g1();
  KernelTrace t = synthetic(c, static_cast<uint32_t>(c.sm_count), 96, 40, 16);
  t.record.stats.l1_hits = 100, t.record.stats.l1_misses = 50;
  t.record.stats.l2_hits = 30, t.record.stats.l2_misses = 20;
  t.record.stats.dram_read_sectors = 20;
  StatusOr<KernelReplay> r = replay_kernel(t, c, ReplayTiming::kFast);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->stats.l1_hits, 100u);
  EXPECT_EQ(r->stats.l1_misses, 50u);
  EXPECT_EQ(r->stats.l2_hits, 30u);
  EXPECT_EQ(r->stats.l2_misses, 20u);
  EXPECT_EQ(r->stats.dram_read_sectors, 20u);
  EXPECT_EQ(r->sm0_ctas, 4u);  // ceil(96 / 24)
}

// Two passes over S sectors per CTA. With no L1 and an L2 slice that holds them, the
// first pass misses and the second hits: DRAM reads = half the sectors. With no L2,
// every sector is read from DRAM. So replaying a recording made with the L2 (R DRAM
// reads) under no L2 must give 2R; and more L2 never reads more.
TEST(Replay, DramTrafficFollowsTheL2Size) {
  ArchConfig c = g1();
  c.l1_bytes = 0, c.shared_bytes_per_sm = 0;  // no L1 (hand-built, not validated)
  c.reserved_shared_bytes_per_block = 0;
  KernelTrace t = synthetic(c, static_cast<uint32_t>(c.sm_count), 48, 8, 64);
  t.record.stats.dram_read_sectors = 1000;

  const CacheReplay with_l2 = replay_caches(t, c);
  EXPECT_EQ(with_l2.ctas, 2u);
  EXPECT_EQ(with_l2.l1_sectors, 2u * 2 * 64);
  EXPECT_EQ(with_l2.dram_read_sectors, 2u * 64);
  EXPECT_EQ(with_l2.l2_hits, 2u * 64);

  ArchConfig none = c;
  none.l2_bytes = 0;
  const CacheReplay without = replay_caches(t, none);
  EXPECT_EQ(without.dram_read_sectors, 2u * 2 * 64);
  StatusOr<KernelReplay> r = replay_kernel(t, none, ReplayTiming::kFast);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->stats.dram_read_sectors, 2000u);

  uint64_t previous = UINT64_MAX;
  for (int64_t l2 : {0ll, 4096ll, 65536ll, 1ll << 20, 4ll << 20, 64ll << 20}) {
    ArchConfig x = c;
    x.l2_bytes = l2;
    StatusOr<KernelReplay> rx = replay_kernel(t, x, ReplayTiming::kFast);
    ASSERT_TRUE(rx.ok());
    EXPECT_LE(rx->stats.dram_read_sectors, previous) << "l2_bytes " << l2;
    previous = rx->stats.dram_read_sectors;
  }
}

// An FP32-bound grid (no memory, many warps): the fast model's cycles scale with 1 / SMs
// while there are enough CTAs; the time less the launch overhead with 1 / clock.
TEST(Replay, SmCountAndClockScaleAComputeBoundGrid) {
  const ArchConfig c = g1();
  KernelTrace t = synthetic(c, static_cast<uint32_t>(c.sm_count), 96 * 64, 4000, 0);
  t.threads_per_cta = 256, t.warps_per_cta = 8;
  KernelStats& k = t.record.stats;
  k.threads_per_cta = 256, k.warps_per_cta = 8;
  for (CtaTrace& cta : t.ctas) cta.warps.resize(8, cta.warps[0]);
  StatusOr<KernelReplay> base = replay_kernel(t, c, ReplayTiming::kFast);
  ASSERT_TRUE(base.ok());
  ArchConfig twice = c;
  twice.sm_count = 2 * c.sm_count;
  StatusOr<KernelReplay> more = replay_kernel(t, twice, ReplayTiming::kFast);
  ASSERT_TRUE(more.ok());
  EXPECT_EQ(more->sm0_ctas, base->sm0_ctas / 2);
  EXPECT_NEAR(static_cast<double>(more->fast.cycles), base->fast.cycles / 2.0,
              0.05 * base->fast.cycles / 2.0);
  ArchConfig fast = c;
  fast.core_clock_mhz = 2 * c.core_clock_mhz;
  StatusOr<KernelReplay> clocked = replay_kernel(t, fast, ReplayTiming::kFast);
  ASSERT_TRUE(clocked.ok());
  EXPECT_EQ(clocked->fast.cycles, base->fast.cycles);
  EXPECT_NEAR(static_cast<double>(clocked->fast.ns - clocked->fast.launch_ns),
              (base->fast.ns - base->fast.launch_ns) / 2.0, 1.0);
}

// SM 0 runs ceil(C / N') CTAs: the recorded ones cyclically.
TEST(Replay, DetailedReplaysSmZerosShareCyclically) {
  const ArchConfig c = g1();
  KernelTrace t = synthetic(c, 4, 16, 50, 0);  // recorded: CTAs 0, 4, 8, 12 on SM 0
  for (uint32_t n : {1u, 2u, 4u, 8u, 16u, 32u}) {
    ArchConfig x = c;
    x.sm_count = n;
    StatusOr<KernelReplay> r = replay_kernel(t, x, ReplayTiming::kBoth);
    ASSERT_TRUE(r.ok()) << r.status().message();
    const uint64_t want = (16 + n - 1) / n;
    EXPECT_EQ(r->sm0_ctas, want) << n;
    EXPECT_EQ(r->detailed.ctas, want) << n;
    EXPECT_EQ(r->detailed.warp_instructions, want * 50) << n;
    EXPECT_GT(r->detailed_time.ns, 0u);
    EXPECT_GT(r->fast.ns, 0u);
  }
}

// Per-SM counts under another SM count: each CTA costs its recording SM's average, dealt
// as CTA c -> SM c % N'. Recorded: 8 CTAs on 4 SMs, SM s's CTAs cost (s + 1) x 100 each.
// On 2 SMs: SM 0 runs CTAs 0, 2, 4, 6 (from SMs 0, 2, 0, 2: 100 + 300 + 100 + 300) and
// SM 1 runs 1, 3, 5, 7 (200 + 400 + 200 + 400).
TEST(Replay, PerSmCountsFollowTheSmCount) {
  ArchConfig c = g1();
  c.sm_count = 4;
  KernelTrace t = synthetic(c, 4, 8, 3, 0);
  t.record.stats.sm_warp_instructions = {200, 400, 600, 800};
  t.record.stats.sm_ctas = {2, 2, 2, 2};
  ArchConfig two = c;
  two.sm_count = 2;
  StatusOr<KernelReplay> r = replay_kernel(t, two, ReplayTiming::kFast);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->stats.sm_warp_instructions, (std::vector<uint64_t>{800, 1200}));
  EXPECT_EQ(r->stats.sm_ctas, (std::vector<uint32_t>{4, 4}));
  StatusOr<KernelReplay> same = replay_kernel(t, c, ReplayTiming::kFast);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same->stats.sm_warp_instructions, t.record.stats.sm_warp_instructions);
}

TEST(Replay, RejectsWhatCannotBeReplayed) {
  const ArchConfig c = g1();
  KernelTrace t = synthetic(c, 4, 8, 3, 0);
  t.shared_bytes_per_cta = static_cast<uint32_t>(c.shared_bytes_per_sm) + 1;
  StatusOr<KernelReplay> r = replay_kernel(t, c, ReplayTiming::kFast);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("does not fit"), std::string::npos);
  t = synthetic(c, 4, 8, 3, 0);
  t.record = RecordInfo{};
  EXPECT_FALSE(replay_kernel(t, c, ReplayTiming::kFast).ok());
}

}  // namespace
}  // namespace strata::hw::perf
