// The raw trace (trace.h) round trip, its errors, and the collector's sinks, metadata
// replay and API scopes (collector.h).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "prof/collector.h"
#include "prof/counters.h"
#include "prof/trace.h"

namespace strata::prof {
namespace {

std::string temp_path(const char* name) {
  return (std::string(::testing::TempDir()) + "/") + name;
}

Trace sample() {
  Trace t;
  t.processes.push_back({7, "app", {"app", "-x"}, 1'700'000'000'000'000'000ull, "detailed"});
  Device d;
  d.pid = 7, d.id = 0, d.name = "Strata G1", d.sm_count = 24, d.max_block_dim[2] = 64;
  d.config["device.sm_count"] = 24;
  t.devices.push_back(d);
  t.contexts.push_back({7, 1, 0, 11});
  t.streams.push_back({7, 12, 1, 0, -1, Stream::kNonBlocking, "copies"});
  t.threads.push_back({7, 70, "main"});
  t.apis.push_back({7, 70, ApiDomain::kDriver, 17, "cuMemAlloc_v2", 100, 200, 3, 2});
  Kernel k;
  k.pid = 7, k.start = 300, k.end = 900, k.stream_id = 12, k.correlation_id = 4;
  k.graph_id = 5, k.graph_node_id = 6, k.name = "_Z1kv", k.grid[0] = 40, k.block[0] = 256;
  k.counters["warp_instructions"] = 1234;
  k.counters["stall_cycles.memory"] = 0.5;
  SourceLine line;
  line.file = "k.cu", line.line = 12, line.warp_instructions = 7, line.global_sectors = 99;
  line.shared_bank_conflicts = 3;
  k.source.push_back(line);
  line.file = "k.ptx", line.line = 40, line.ptx = true;
  k.source.push_back(line);
  k.source_partial = true;
  t.kernels.push_back(k);
  Memcpy m;
  m.pid = 7, m.start = 1000, m.end = 1100, m.bytes = 4096, m.copy_kind = 1, m.src_kind = 1;
  m.dst_kind = 3;
  t.memcpys.push_back(m);
  Memset s;
  s.pid = 7, s.start = 1200, s.end = 1210, s.value = 0xab, s.bytes = 64, s.mem_kind = 3;
  t.memsets.push_back(s);
  Sync y;
  y.pid = 7, y.tid = 70, y.start = 1300, y.end = 1400, y.type = 3, y.stream_id = 12;
  t.syncs.push_back(y);
  Sync c = y;
  c.type = 4, c.stream_id.reset();
  t.syncs.push_back(c);
  Nvtx n;
  n.pid = 7, n.kind = Nvtx::kPushPop, n.start = 50, n.end = 1500, n.tid = 70, n.text = "step é";
  n.color = 0xFF00FF00, n.payload = Nvtx::kDouble, n.payload_value = 2.5;
  t.nvtx.push_back(n);
  Nvtx mark;
  mark.pid = 7, mark.start = 60, mark.text = "mark";
  t.nvtx.push_back(mark);
  t.nvtx_domains.push_back({7, 1, "lib", 10, 70});
  return t;
}

TEST(Trace, RoundTripKeepsEveryField) {
  const std::string path = temp_path("roundtrip.jsonl");
  const Trace t = sample();
  ASSERT_TRUE(write_trace(t, path).ok());
  StatusOr<Trace> r = read_trace({path});
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->processes.size(), 1u);
  EXPECT_EQ(r->processes[0].command, (std::vector<std::string>{"app", "-x"}));
  EXPECT_EQ(r->processes[0].session_start_utc_ns, 1'700'000'000'000'000'000ull);
  EXPECT_EQ(r->devices[0].max_block_dim[2], 64u);
  EXPECT_EQ(r->devices[0].config.at("device.sm_count"), 24);
  EXPECT_EQ(r->streams[0].kind, Stream::kNonBlocking);
  EXPECT_EQ(r->streams[0].priority, -1);
  EXPECT_EQ(r->apis[0].return_value, 2);
  EXPECT_EQ(r->apis[0].domain, ApiDomain::kDriver);
  EXPECT_EQ(r->kernels[0].grid[0], 40u);
  EXPECT_EQ(r->kernels[0].graph_node_id, 6u);
  EXPECT_EQ(r->kernels[0].counters.at("stall_cycles.memory"), 0.5);
  ASSERT_EQ(r->kernels[0].source.size(), 2u);
  EXPECT_EQ(r->kernels[0].source[0].file, "k.cu");
  EXPECT_EQ(r->kernels[0].source[0].line, 12u);
  EXPECT_FALSE(r->kernels[0].source[0].ptx);
  EXPECT_EQ(r->kernels[0].source[0].global_sectors, 99u);
  EXPECT_EQ(r->kernels[0].source[0].shared_bank_conflicts, 3u);
  EXPECT_TRUE(r->kernels[0].source[1].ptx);
  EXPECT_TRUE(r->kernels[0].source_partial);
  EXPECT_EQ(r->memcpys[0].dst_kind, 3u);
  EXPECT_EQ(r->memsets[0].value, 0xabu);
  ASSERT_EQ(r->syncs.size(), 2u);
  EXPECT_EQ(r->syncs[0].type, 3u);  // not confused with the record's "type"
  EXPECT_EQ(r->syncs[0].stream_id, std::optional<uint64_t>(12));
  EXPECT_FALSE(r->syncs[1].stream_id.has_value());
  EXPECT_EQ(r->nvtx[0].text, "step é");
  EXPECT_EQ(r->nvtx[0].color, std::optional<uint32_t>(0xFF00FF00));
  EXPECT_FALSE(r->nvtx[1].end.has_value());
  EXPECT_EQ(r->nvtx_domains[0].name, "lib");
  EXPECT_EQ(r->start_ns(), 50u);
  EXPECT_EQ(r->end_ns(), 1500u);
}

TEST(Trace, SeveralFilesMergeAndUnknownRecordsAreSkipped) {
  const std::string a = temp_path("a.jsonl"), b = temp_path("b.jsonl");
  ASSERT_TRUE(write_trace(sample(), a).ok());
  {
    std::ofstream out(b);
    out << R"({"type":"future_record","x":1})" << "\n\n" << R"({"type":"end"})" << "\n";
  }
  StatusOr<Trace> r = read_trace({a, b, a});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->kernels.size(), 2u);
}

TEST(Trace, AnIncompleteLastRecordIsDropped) {
  const std::string path = temp_path("truncated.jsonl");
  ASSERT_TRUE(write_trace(sample(), path).ok());
  {
    std::ofstream out(path, std::ios::app);
    out << R"({"type":"kernel","pid":7,"start":5)";  // no newline: cut off mid-record
  }
  StatusOr<Trace> r = read_trace({path});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->kernels.size(), 1u);
}

TEST(Trace, MalformedAndMissingFilesAreErrors) {
  const std::string bad = temp_path("bad.jsonl");
  {
    std::ofstream out(bad);
    out << R"({"type":"api","pid":1})" << "\n" << "not json\n";
  }
  StatusOr<Trace> r = read_trace({bad});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("bad.jsonl:2"), std::string::npos) << r.status().message();
  {
    std::ofstream out(bad);
    out << R"({"type":"kernel","grid":"wide"})" << "\n";
  }
  r = read_trace({bad});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("malformed 'kernel'"), std::string::npos);
  EXPECT_EQ(read_trace({temp_path("missing.jsonl")}).status().code(), Code::kNotFound);
}

class Recorder : public Sink {
 public:
  void on_api(const ApiCall& call) override { calls.push_back(call); }
  void on_record(const Record& r) override { records.push_back(r); }
  std::vector<ApiCall> calls;
  std::vector<Record> records;
};

TEST(Collector, MetadataIsReplayedAndApiScopesNest) {
  Context ctx;
  ctx.pid = this_pid(), ctx.id = 99;
  emit(ctx);  // nothing attached: stored for later sinks
  Recorder sink;
  attach(&sink, kWantApiCallbacks);
  ASSERT_TRUE(active());
  ASSERT_FALSE(sink.records.empty());
  EXPECT_TRUE(std::any_of(sink.records.begin(), sink.records.end(), [](const Record& r) {
    return std::holds_alternative<Context>(r) && std::get<Context>(r).id == 99;
  }));
  sink.records.clear();
  uint32_t outer_id = 0;
  {
    ApiScope outer(ApiDomain::kRuntime, 42, "cudaThing_v1", "cudaThing", nullptr);
    outer_id = current_correlation_id();
    EXPECT_NE(outer_id, 0u);
    {
      ApiScope inner(ApiDomain::kDriver, 43, "cuThing", "cuThing", nullptr);
      EXPECT_FALSE(inner.recording());  // the application's call records once
      EXPECT_EQ(current_correlation_id(), outer_id);
    }
    outer.set_result(3);
  }
  EXPECT_EQ(current_correlation_id(), 0u);
  ApiScope unnamed(ApiDomain::kRuntime, 0, nullptr, nullptr, nullptr);
  EXPECT_FALSE(unnamed.recording());
  ASSERT_EQ(sink.calls.size(), 2u);  // enter and exit of the outer call
  EXPECT_FALSE(sink.calls[0].exit);
  EXPECT_TRUE(sink.calls[1].exit);
  EXPECT_EQ(*static_cast<const int32_t*>(sink.calls[1].return_value), 3);
  ASSERT_EQ(sink.records.size(), 1u);
  const Api& api = std::get<Api>(sink.records[0]);
  EXPECT_EQ(api.name, "cudaThing_v1");
  EXPECT_EQ(api.cbid, 42u);
  EXPECT_EQ(api.return_value, 3);
  EXPECT_EQ(api.correlation_id, outer_id);
  EXPECT_EQ(api.tid, this_tid());
  EXPECT_LE(api.start, api.end);
  detach(&sink);
  EXPECT_FALSE(active());
}

TEST(Counters, OnlyTheValidGroupsAreNamed) {
  hw::KernelCounters c{};
  c.valid = hw::kCountersExecution;
  c.warp_instructions = 10;
  c.pipe_warp_instructions[0] = 4;
  c.global_load_bytes = 128;
  auto m = counter_map(c);
  EXPECT_EQ(m.at("warp_instructions"), 10);
  EXPECT_EQ(m.at("pipe_warp_instructions.fp32"), 4);
  EXPECT_EQ(m.at("global_load_bytes"), 128);
  EXPECT_FALSE(m.count("model_cycles"));
  EXPECT_FALSE(m.count("achieved_occupancy"));
  c.valid |= hw::kCountersDetailed;
  c.achieved_occupancy = 0.25;
  c.stall_cycles[2] = 7;
  m = counter_map(c);
  EXPECT_EQ(m.at("achieved_occupancy"), 0.25);
  EXPECT_EQ(m.at("stall_cycles.memory"), 7);
}

}  // namespace
}  // namespace strata::prof
