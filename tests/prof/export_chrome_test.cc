// prof/export_chrome.h: a Trace built by hand is written, parsed back and checked for the
// structure Perfetto and chrome://tracing need: metadata naming processes and tracks, one
// track per stream under a GPU process, flows pairing each API call with its device work,
// slices that nest on every track (overlapping data moved to an extra track), µs times
// that carry the nanoseconds exactly.
#include "prof/export_chrome.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace strata::prof {
namespace {

using nlohmann::json;

int64_t ns(const json& micros) {
  return std::llround(micros.get<double>() * 1000.0);
}

Trace sample_trace() {
  Trace trace;
  trace.processes.push_back(
      {100, "app", {"./app", "--n", "4"}, 1'700'000'000'000'000'000ull, "fast"});
  trace.threads.push_back({100, 100, "main"});
  trace.threads.push_back({100, 101, "worker"});
  Device device;
  device.pid = 100;
  device.id = 0;
  device.name = "Strata G1";
  trace.devices.push_back(device);
  Stream null_stream;
  null_stream.pid = 100;
  null_stream.id = 7;
  null_stream.kind = Stream::kLegacyNull;
  trace.streams.push_back(null_stream);
  Stream copy_stream;
  copy_stream.pid = 100;
  copy_stream.id = 13;
  copy_stream.name = "copy";
  trace.streams.push_back(copy_stream);

  auto api = [&](uint32_t tid, const char* name, uint64_t start, uint64_t end, uint32_t corr) {
    Api call;
    call.pid = 100;
    call.tid = tid;
    call.name = name;
    call.start = start;
    call.end = end;
    call.correlation_id = corr;
    trace.apis.push_back(call);
  };
  api(100, "cudaMalloc_v3020", 1000, 2000, 1);
  api(100, "cudaLaunchKernel_v7000", 3000, 4000, 2);
  api(101, "cudaLaunchKernel_v7000", 3500, 4500, 3);
  api(100, "cudaMemcpyAsync_v3020", 5000, 5500, 4);
  api(100, "cudaMemsetAsync_v3020", 6000, 6200, 5);

  auto kernel = [&](uint64_t start, uint64_t end, uint32_t corr) {
    Kernel k;
    k.pid = 100;
    k.start = start;
    k.end = end;
    k.stream_id = 7;
    k.correlation_id = corr;
    k.name = "_Z6vecAddPfS_i";
    k.grid[0] = 64;
    k.block[0] = 256;
    k.registers_per_thread = 24;
    k.static_shared = 1024;
    trace.kernels.push_back(k);
  };
  kernel(4100, 9000, 2);
  kernel(8000, 12000, 3);  // overlaps the first on stream 7: must go to an extra track

  Memcpy copy;
  copy.pid = 100;
  copy.start = 5600;
  copy.end = 7000;
  copy.stream_id = 13;
  copy.correlation_id = 4;
  copy.bytes = 4096;
  copy.copy_kind = 1;  // CUPTI_ACTIVITY_MEMCPY_KIND_HTOD
  copy.src_kind = 1;   // CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE
  copy.dst_kind = 3;   // CUPTI_ACTIVITY_MEMORY_KIND_DEVICE
  trace.memcpys.push_back(copy);
  Memset set;
  set.pid = 100;
  set.start = 7100;
  set.end = 7200;
  set.stream_id = 13;
  set.correlation_id = 5;
  set.bytes = 512;
  trace.memsets.push_back(set);

  auto nvtx = [&](Nvtx::Kind kind, uint32_t tid, const char* text, uint64_t start,
                  std::optional<uint64_t> end) {
    Nvtx n;
    n.pid = 100;
    n.kind = kind;
    n.tid = tid;
    n.end_tid = tid;
    n.text = text;
    n.start = start;
    n.end = end;
    trace.nvtx.push_back(n);
    return &trace.nvtx.back();
  };
  nvtx(Nvtx::kPushPop, 100, "outer", 500, 5800);
  nvtx(Nvtx::kPushPop, 100, "inner", 2500, 4800);
  Nvtx* range = nvtx(Nvtx::kStartEnd, 100, "async", 1500, 9500);
  range->range_id = 1;
  range->end_tid = 101;
  range->domain_id = 1;
  nvtx(Nvtx::kMark, 100, "here", 2200, std::nullopt);
  nvtx(Nvtx::kPushPop, 101, "open", 3000, std::nullopt);
  trace.nvtx_domains.push_back({100, 1, "MyLib", 100, 100});

  Sync sync;
  sync.pid = 100;
  sync.tid = 100;
  sync.start = 6300;
  sync.end = 12500;
  sync.stream_id = 7;
  sync.type = 3;
  trace.syncs.push_back(sync);
  return trace;
}

json export_and_parse(const Trace& trace) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("strata_chrome_test_" + std::to_string(::getpid()) + ".json");
  Status status = export_chrome(trace, path.string());
  EXPECT_TRUE(status.ok()) << status.to_string();
  std::ifstream in(path);
  json document = json::parse(in);
  std::filesystem::remove(path);
  return document;
}

class ChromeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    document_ = export_and_parse(sample_trace());
    ASSERT_TRUE(document_.is_object());
    ASSERT_TRUE(document_["traceEvents"].is_array());
    for (const json& event : document_["traceEvents"]) {
      if (event["ph"] == "M" && event["name"] == "process_name") {
        process_names_[event["pid"].get<uint64_t>()] = event["args"]["name"];
      }
      if (event["ph"] == "M" && event["name"] == "thread_name") {
        thread_names_[{event["pid"].get<uint64_t>(), event["tid"].get<uint64_t>()}] =
            event["args"]["name"];
      }
    }
    for (const auto& [pid, name] : process_names_) {
      if (name == "GPU 0 (Strata G1)") gpu_pid_ = pid;
    }
  }
  std::vector<json> events(const std::string& phase, const std::string& cat = "") const {
    std::vector<json> out;
    for (const json& event : document_["traceEvents"]) {
      if (event["ph"] == phase && (cat.empty() || event.value("cat", "") == cat))
        out.push_back(event);
    }
    return out;
  }

  json document_;
  std::map<uint64_t, std::string> process_names_;
  std::map<std::pair<uint64_t, uint64_t>, std::string> thread_names_;
  uint64_t gpu_pid_ = 0;
};

TEST_F(ChromeTest, MetadataNamesProcessesAndTracks) {
  EXPECT_EQ(document_["displayTimeUnit"], "ns");
  EXPECT_EQ(process_names_[100], "app");
  ASSERT_NE(gpu_pid_, 0u) << "no 'GPU 0 (Strata G1)' process";
  EXPECT_NE(gpu_pid_, 100u);
  EXPECT_EQ((thread_names_[{100, 100}]), "main");
  EXPECT_EQ((thread_names_[{100, 101}]), "worker");
  EXPECT_EQ((thread_names_[{gpu_pid_, 7}]), "Stream 7 (default)");
  EXPECT_EQ((thread_names_[{gpu_pid_, 13}]), "Stream 13 (copy)");
  std::set<std::pair<uint64_t, uint64_t>> sorted_threads;
  for (const json& e : events("M")) {
    if (e["name"] == "thread_sort_index")
      sorted_threads.insert({e["pid"].get<uint64_t>(), e["tid"].get<uint64_t>()});
  }
  for (const auto& [key, name] : thread_names_) EXPECT_TRUE(sorted_threads.count(key)) << name;
  size_t process_sort = 0;
  for (const json& e : events("M")) process_sort += e["name"] == "process_sort_index";
  EXPECT_EQ(process_sort, 2u);
}

TEST_F(ChromeTest, DeviceWorkOnOneTrackPerStream) {
  for (const char* cat : {"cuda_kernel", "cuda_memcpy", "cuda_memset"}) {
    for (const json& e : events("X", cat)) {
      EXPECT_EQ(e["pid"], gpu_pid_) << e.dump();
      const uint64_t stream = e["args"]["stream"];
      const std::string track = thread_names_[{gpu_pid_, e["tid"].get<uint64_t>()}];
      EXPECT_EQ(track.rfind("Stream " + std::to_string(stream), 0), 0u) << track;
    }
  }
  const auto kernels = events("X", "cuda_kernel");
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0]["name"], "vecAdd(float*, float*, int)");
  EXPECT_EQ(kernels[0]["args"]["grid"], json::array({64, 1, 1}));
  EXPECT_EQ(kernels[0]["args"]["block"], json::array({256, 1, 1}));
  EXPECT_EQ(kernels[0]["args"]["registers_per_thread"], 24);
  EXPECT_EQ(kernels[0]["args"]["static_shared_bytes"], 1024);
  // The overlapping second kernel sits on an extra track of stream 7.
  EXPECT_EQ(kernels[0]["tid"], 7);
  EXPECT_NE(kernels[1]["tid"], 7);
  EXPECT_EQ((thread_names_[{gpu_pid_, kernels[1]["tid"].get<uint64_t>()}]),
            "Stream 7 (default) (overlap 1)");
  const auto copies = events("X", "cuda_memcpy");
  ASSERT_EQ(copies.size(), 1u);
  EXPECT_EQ(copies[0]["name"], "[CUDA memcpy Host-to-Device]");
  EXPECT_EQ(copies[0]["args"]["bytes"], 4096);
  EXPECT_EQ(copies[0]["args"]["copy_kind"], "Host-to-Device");
  EXPECT_EQ(copies[0]["args"]["src_kind"], "Pageable");
  EXPECT_EQ(copies[0]["args"]["dst_kind"], "Device");
  EXPECT_EQ(copies[0]["args"]["correlation_id"], 4);
  EXPECT_EQ(events("X", "cuda_memset").at(0)["name"], "[CUDA memset]");
}

TEST_F(ChromeTest, TimesAreMicrosecondsWithExactNanoseconds) {
  const auto kernels = events("X", "cuda_kernel");
  EXPECT_EQ(ns(kernels[0]["ts"]), 4100);
  EXPECT_EQ(ns(kernels[0]["dur"]), 4900);
  EXPECT_DOUBLE_EQ(kernels[0]["ts"].get<double>(), 4.1);
  for (const json& e : document_["traceEvents"]) {
    if (!e.contains("ts")) continue;
    const double micros = e["ts"].get<double>();
    EXPECT_NEAR(micros * 1000.0, std::round(micros * 1000.0), 1e-6) << e.dump();
  }
}

TEST_F(ChromeTest, ApiCallsAndNvtxOnTheirThreads) {
  const auto runtime = events("X", "cuda_runtime");
  ASSERT_EQ(runtime.size(), 5u);
  EXPECT_EQ(runtime[0]["name"], "cudaMalloc");
  EXPECT_EQ(runtime[0]["args"]["api"], "cudaMalloc_v3020");
  std::map<std::string, json> nvtx;
  for (const json& e : document_["traceEvents"]) {
    if (e.value("cat", "").rfind("nvtx", 0) == 0)
      nvtx[e["name"].get<std::string>() + e["ph"].get<std::string>()] = e;
  }
  ASSERT_TRUE(nvtx.count("outerX") && nvtx.count("innerX") && nvtx.count("openX"));
  EXPECT_EQ(nvtx["outerX"]["tid"], 100);
  EXPECT_EQ(ns(nvtx["outerX"]["dur"]), 5300);
  EXPECT_EQ(nvtx["openX"]["args"]["open"], true);
  EXPECT_EQ(ns(nvtx["openX"]["ts"]) + ns(nvtx["openX"]["dur"]), 12500);  // the session's end
  ASSERT_TRUE(nvtx.count("asyncb") && nvtx.count("asynce"));
  EXPECT_EQ(nvtx["asyncb"]["id"], nvtx["asynce"]["id"]);
  EXPECT_EQ(nvtx["asyncb"]["cat"], nvtx["asynce"]["cat"]);
  EXPECT_EQ(nvtx["asyncb"]["args"]["domain"], "MyLib");
  EXPECT_EQ(ns(nvtx["asynce"]["ts"]), 9500);
  ASSERT_TRUE(nvtx.count("herei"));
  EXPECT_EQ(nvtx["herei"]["s"], "t");
  EXPECT_EQ(events("X", "cuda_sync").size(), 1u);
}

TEST_F(ChromeTest, FlowsPairEachApiCallWithItsDeviceWork) {
  const auto starts = events("s");
  const auto finishes = events("f");
  ASSERT_EQ(starts.size(), 4u);  // two kernels, one memcpy, one memset; cudaMalloc has none
  ASSERT_EQ(finishes.size(), 4u);
  std::vector<json> slices = events("X");
  auto enclosing = [&](const json& point) -> const json* {
    for (const json& s : slices) {
      if (s["pid"] == point["pid"] && s["tid"] == point["tid"] && ns(s["ts"]) <= ns(point["ts"]) &&
          ns(point["ts"]) <= ns(s["ts"]) + ns(s["dur"]) && s["args"].contains("correlation_id") &&
          (s.value("cat", "") != "cuda_sync")) {
        return &s;
      }
    }
    return nullptr;
  };
  for (const json& start : starts) {
    const auto finish = std::find_if(finishes.begin(), finishes.end(), [&](const json& f) {
      return f["id"] == start["id"] && f["cat"] == start["cat"];
    });
    ASSERT_NE(finish, finishes.end()) << start.dump();
    EXPECT_EQ((*finish)["bp"], "e");
    const json* call = enclosing(start);
    const json* work = enclosing(*finish);
    ASSERT_NE(call, nullptr) << start.dump();
    ASSERT_NE(work, nullptr) << finish->dump();
    EXPECT_EQ((*call)["pid"], 100);
    EXPECT_EQ((*work)["pid"], gpu_pid_);
    EXPECT_EQ((*call)["args"]["correlation_id"], (*work)["args"]["correlation_id"]);
    // Both ends sit inside their slices (at the midpoint), never on a boundary another
    // slice could share.
    EXPECT_GT(ns((*finish)["ts"]), ns((*work)["ts"]));
    EXPECT_LT(ns((*finish)["ts"]), ns((*work)["ts"]) + ns((*work)["dur"]));
  }
}

// Complete events on one (pid, tid) must nest: sorted by start (longer first on ties),
// each slice lies inside the innermost still-open slice or starts after it ends.
void expect_nested(const json& document) {
  std::map<std::pair<uint64_t, uint64_t>, std::vector<std::pair<int64_t, int64_t>>> tracks;
  for (const json& e : document["traceEvents"]) {
    if (e["ph"] != "X") continue;
    tracks[{e["pid"].get<uint64_t>(), e["tid"].get<uint64_t>()}].push_back(
        {ns(e["ts"]), ns(e["ts"]) + ns(e["dur"])});
  }
  for (auto& [track, slices] : tracks) {
    std::sort(slices.begin(), slices.end(), [](auto a, auto b) {
      return a.first != b.first ? a.first < b.first : a.second > b.second;
    });
    std::vector<int64_t> open;
    for (const auto& [begin, end] : slices) {
      while (!open.empty() && open.back() <= begin) open.pop_back();
      EXPECT_TRUE(open.empty() || end <= open.back())
          << "track " << track.first << "/" << track.second << ": [" << begin << ", " << end
          << ") crosses " << open.back();
      open.push_back(end);
    }
  }
}

TEST_F(ChromeTest, SlicesNestOnEveryTrack) {
  expect_nested(document_);
}

TEST(ChromeExportTest, ManyOverlapsStillNest) {
  Trace trace = sample_trace();
  for (int i = 0; i < 20; ++i) {
    Kernel k = trace.kernels[0];
    k.start = 100 + 37 * i;
    k.end = k.start + 500 + 13 * i;
    k.correlation_id = 1000 + i;
    trace.kernels.push_back(k);
  }
  expect_nested(export_and_parse(trace));
}

TEST(ChromeExportTest, EmptyTraceIsValidJson) {
  const json document = export_and_parse(Trace{});
  EXPECT_TRUE(document["traceEvents"].is_array());
}

TEST(ChromeExportTest, UnwritablePathIsAnError) {
  Status status = export_chrome(Trace{}, "/nonexistent-dir/x/trace.json");
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.message().find("/nonexistent-dir/x/trace.json"), std::string::npos);
}

}  // namespace
}  // namespace strata::prof
