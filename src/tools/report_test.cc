// The `strata run --report` summary on hand-written performance logs: names from the
// driver's lines, sums and ratios computed here by hand, missing fields and bad lines.
#include "tools/report.h"

#include <gtest/gtest.h>

#include <string>

namespace strata::tools {
namespace {

bool contains(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

TEST(Report, DemanglesItaniumNames) {
  EXPECT_EQ(demangle("_Z5saxpyifPKfPf"), "saxpy(int, float, float const*, float*)");
  EXPECT_EQ(demangle("plain_c_name"), "plain_c_name");
}

TEST(Report, SummarisesKernelsByName) {
  // Two launches of one kernel (1000 ns + 3000 ns), named by the driver's line.
  const std::string log =
      R"({"kernel_id": 7, "name": "_Z5scalePfi"})"
      "\n"
      R"({"device":0,"channel":1,"op":"kernel","kernel_id":7,"submit_ns":0,"start_ns":100,"end_ns":1100,)"
      R"("bound":"dram","cycles":1500,"warp_instructions":100,"thread_instructions":1600,)"
      R"("global_loads":{"requests":10,"sectors":40},"global_stores":{"requests":10,"sectors":40},)"
      R"("shared_bank_conflicts":3,"l1_hits":30,"l1_misses":10,"l2_hits":5,"l2_misses":5})"
      "\n"
      R"({"device":0,"channel":1,"op":"kernel","kernel_id":7,"start_ns":2000,"end_ns":5000,)"
      R"("bound":"dram","stats":{"warp_instructions":100,"thread_instructions":1600,)"
      R"("global_loads":{"requests":10,"sectors":40},"global_stores":{"requests":10,"sectors":40},)"
      R"("shared_bank_conflicts":1,"l1_hits":30,"l1_misses":10,"l2_hits":15,"l2_misses":5}})"
      "\n";
  const std::string report = render_report(log);
  EXPECT_TRUE(contains(report, "scale(float*, int)")) << report;
  EXPECT_TRUE(contains(report, "4.000 us")) << report;  // total
  EXPECT_TRUE(contains(report, "2.000 us")) << report;  // average
  EXPECT_TRUE(contains(report, "dram")) << report;
  EXPECT_TRUE(contains(report, "200")) << report;    // warp instructions
  EXPECT_TRUE(contains(report, "0.50")) << report;   // 3200 / (200 x 32) lanes
  EXPECT_TRUE(contains(report, "4.00")) << report;   // 160 sectors / 40 requests
  EXPECT_TRUE(contains(report, "75.0%")) << report;  // L1: 60 / 80
  EXPECT_TRUE(contains(report, "66.7%")) << report;  // L2: 20 / 30
}

TEST(Report, ToleratesMissingFieldsAndBadLines) {
  const std::string log =
      "not json\n"
      R"({"op":"kernel","kernel_id":3,"start_ns":0,"end_ns":10})"
      "\n"
      R"({"op":"copy","kind":"HtoD","bytes":4096,"start_ns":0,"end_ns":1024})"
      "\n"
      R"({"op":"copy","kind":"HtoD","bytes":4096,"start_ns":2000,"end_ns":3024})"
      "\n"
      R"({"op":"semaphore_release"})"
      "\n";
  const std::string report = render_report(log);
  EXPECT_TRUE(contains(report, "kernel#3")) << report;
  EXPECT_TRUE(contains(report, "HtoD")) << report;
  EXPECT_TRUE(contains(report, "8192")) << report;
  EXPECT_TRUE(contains(report, "4.00")) << report;  // 8192 bytes / 2048 ns = 4 GB/s
  EXPECT_TRUE(contains(report, "semaphore_release x1")) << report;
  EXPECT_TRUE(contains(report, "1 unreadable log lines")) << report;
}

TEST(Report, EmptyLogSaysSo) {
  EXPECT_TRUE(contains(render_report(""), "no kernels"));
}

}  // namespace
}  // namespace strata::tools
