// SourceLines: instruction index -> .loc line or PTX line, and per-line sums of
// per-instruction counters, on a hand-built binary.
#include "cuda/driver/source_lines.h"

#include <gtest/gtest.h>

namespace strata::cuda::driver {
namespace {

constexpr uint64_t kCodeVa = 0x100000;

// Kernel "a" at offset 0: instructions 0-1 at PTX line 20 without .loc, 2-4 at k.cu:7,
// 5- at k.cu:9 (rows in the table out of order). Kernel "b" at offset 256: no line table.
sxbin::Binary binary() {
  sxbin::Binary b;
  b.source_files = {{1, "k.cu"}, {2, "other.h"}};
  sxbin::KernelDesc a;
  a.name = "a";
  a.code_offset = 0;
  a.code_size = 16 * 8;
  a.ptx_source = "mod.ptx";
  a.lines = {{5, 24, 1, 9, 0}, {0, 20, 0, 0, 0}, {2, 22, 1, 7, 3}};
  sxbin::KernelDesc k2;
  k2.name = "b";
  k2.code_offset = 256;
  k2.code_size = 16;
  b.kernels = {a, k2};
  return b;
}

hw::PcCounters pc(uint32_t index, uint64_t warps, uint64_t sectors, uint64_t conflicts) {
  hw::PcCounters c{};
  c.pc = index;
  c.warp_instructions = warps;
  c.thread_instructions = 32 * warps;
  c.global_requests = warps;
  c.global_sectors = sectors;
  c.shared_bank_conflicts = conflicts;
  return c;
}

TEST(SourceLines, LocatesLocAndPtxLines) {
  const SourceLines lines(binary(), kCodeVa);
  auto at = [&](uint32_t index) { return lines.locate(kCodeVa, index); };
  ASSERT_TRUE(at(1).has_value());
  EXPECT_EQ(at(1)->file, "mod.ptx");
  EXPECT_EQ(at(1)->line, 20u);
  EXPECT_TRUE(at(1)->ptx);
  EXPECT_EQ(at(2)->file, "k.cu");
  EXPECT_EQ(at(4)->line, 7u);
  EXPECT_FALSE(at(4)->ptx);
  EXPECT_EQ(at(7)->line, 9u);
  EXPECT_TRUE(lines.has_kernel(kCodeVa + 256));
  EXPECT_FALSE(lines.locate(kCodeVa + 256, 0).has_value());  // no table
  EXPECT_FALSE(lines.has_kernel(kCodeVa + 16));              // not a kernel's start
  EXPECT_FALSE(lines.locate(kCodeVa + 16, 0).has_value());
}

TEST(SourceLines, AggregatesPerLine) {
  const SourceLines lines(binary(), kCodeVa);
  const hw::PcCounters pcs[] = {pc(0, 4, 0, 0), pc(1, 4, 16, 0), pc(2, 2, 8, 1), pc(4, 2, 64, 0),
                                pc(6, 1, 0, 5)};
  const std::vector<prof::SourceLine> out = lines.aggregate(kCodeVa, pcs);
  ASSERT_EQ(out.size(), 3u);
  // .loc lines first, by (file, line), then PTX lines.
  EXPECT_EQ(out[0].file, "k.cu");
  EXPECT_EQ(out[0].line, 7u);
  EXPECT_EQ(out[0].warp_instructions, 4u);
  EXPECT_EQ(out[0].thread_instructions, 128u);
  EXPECT_EQ(out[0].global_sectors, 72u);
  EXPECT_EQ(out[0].shared_bank_conflicts, 1u);
  EXPECT_EQ(out[1].line, 9u);
  EXPECT_EQ(out[1].shared_bank_conflicts, 5u);
  EXPECT_EQ(out[2].file, "mod.ptx");
  EXPECT_TRUE(out[2].ptx);
  EXPECT_EQ(out[2].line, 20u);
  EXPECT_EQ(out[2].warp_instructions, 8u);
  EXPECT_EQ(out[2].global_sectors, 16u);
  EXPECT_TRUE(lines.aggregate(kCodeVa + 256, pcs).empty());
}

}  // namespace
}  // namespace strata::cuda::driver
