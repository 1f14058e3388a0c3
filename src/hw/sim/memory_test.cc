#include "hw/sim/memory.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace strata::hw::sim {
namespace {

constexpr uint64_t kVramSize = 8ull << 20;  // 8 MiB: tables in the first MiB, pages after

// Hand-written page tables in a small VRAM buffer (aligned like the real aperture).
class PageWalkTest : public ::testing::Test {
 protected:
  PageWalkTest() : storage_(kVramSize + kHugePageSize) {
    auto base = reinterpret_cast<uintptr_t>(storage_.data());
    vram_ = reinterpret_cast<uint8_t*>((base + kHugePageSize - 1) & ~(kHugePageSize - 1));
  }
  void set(uint64_t table, int index, uint64_t entry) {
    std::memcpy(vram_ + table + index * 8, &entry, 8);
  }
  // Maps `va` through tables at root 0x0, L3 0x1000, L2 0x2000, L1 0x3000.
  void map_4k(uint64_t va, uint64_t entry) {
    set(0x0000, pt_index(va, 4), 0x1000 | kPteValid);
    set(0x1000, pt_index(va, 3), 0x2000 | kPteValid);
    set(0x2000, pt_index(va, 2), 0x3000 | kPteValid);
    set(0x3000, pt_index(va, 1), entry);
  }
  PageWalker walker() const { return PageWalker(vram_, kVramSize, 0); }

  std::vector<uint8_t> storage_;
  uint8_t* vram_;
};

TEST_F(PageWalkTest, Maps4KiBVramPage) {
  const uint64_t va = 0x7f1234567000ull;
  map_4k(va, 0x200000 | kPteValid | kPteWritable);
  Translation t;
  ASSERT_TRUE(walker().walk(va + 0x123, &t));
  EXPECT_EQ(t.host_page, vram_ + 0x200000);
  EXPECT_EQ(t.page_va, va);
  EXPECT_EQ(t.page_size, kPageSize);
  EXPECT_TRUE(t.writable);
}

TEST_F(PageWalkTest, ReadOnlyPageIsNotWritable) {
  const uint64_t va = 0x10000000ull;
  map_4k(va, 0x201000 | kPteValid);
  Translation t;
  ASSERT_TRUE(walker().walk(va, &t));
  EXPECT_FALSE(t.writable);
}

TEST_F(PageWalkTest, Maps2MiBHugePage) {
  const uint64_t va = 0x40000000ull + 3 * kHugePageSize;
  set(0x0000, pt_index(va, 4), 0x1000 | kPteValid);
  set(0x1000, pt_index(va, 3), 0x2000 | kPteValid);
  set(0x2000, pt_index(va, 2), 0x400000 | kPteValid | kPteHuge | kPteWritable);
  Translation t;
  ASSERT_TRUE(walker().walk(va + 0x12345, &t));
  EXPECT_EQ(t.host_page, vram_ + 0x400000);
  EXPECT_EQ(t.page_va, va);
  EXPECT_EQ(t.page_size, kHugePageSize);
}

TEST_F(PageWalkTest, SysmemPageIsTheHostAddress) {
  alignas(4096) static uint8_t host_page[4096];
  const uint64_t va = reinterpret_cast<uintptr_t>(host_page);
  map_4k(va, va | kPteValid | kPteWritable | kPteSysmem);
  Translation t;
  ASSERT_TRUE(walker().walk(va + 5, &t));
  EXPECT_EQ(t.host_page, host_page);
}

TEST_F(PageWalkTest, UnmappedAndNonCanonicalAddressesFault) {
  map_4k(0x5000, 0x200000 | kPteValid);
  Translation t;
  EXPECT_FALSE(walker().walk(0x6000, &t));                  // L1 entry invalid
  EXPECT_FALSE(walker().walk(0x5000 + (1ull << 30), &t));   // L2 entry invalid
  EXPECT_FALSE(walker().walk(0x5000 | (1ull << 48), &t));   // beyond 48 bits
  EXPECT_FALSE(walker().walk(~0ull, &t));
  EXPECT_TRUE(walker().walk(0x5000, &t));
}

TEST_F(PageWalkTest, CorruptTablesFaultInsteadOfReadingOutsideVram) {
  const uint64_t va = 0x5000;
  Translation t;
  // Directory entry pointing past VRAM.
  map_4k(va, 0x200000 | kPteValid);
  set(0x2000, pt_index(va, 2), (kVramSize + 0x1000) | kPteValid);
  EXPECT_FALSE(walker().walk(va, &t));
  // Directory entry claiming a sysmem table.
  set(0x2000, pt_index(va, 2), 0x3000 | kPteValid | kPteSysmem);
  EXPECT_FALSE(walker().walk(va, &t));
  // Leaf page partly outside VRAM, and a huge page straddling the end.
  map_4k(va, kVramSize | kPteValid);
  EXPECT_FALSE(walker().walk(va, &t));
  set(0x2000, pt_index(va, 2), (kVramSize - kHugePageSize / 2) | kPteValid | kPteHuge);
  EXPECT_FALSE(walker().walk(va, &t));
  // Misaligned huge page.
  set(0x2000, pt_index(va, 2), 0x201000 | kPteValid | kPteHuge);
  EXPECT_FALSE(walker().walk(va, &t));
  // Root outside VRAM or unaligned.
  EXPECT_FALSE(PageWalker(vram_, kVramSize, kVramSize).walk(va, &t));
  EXPECT_FALSE(PageWalker(vram_, kVramSize, 0x10).walk(va, &t));
  EXPECT_FALSE(PageWalker(vram_, kVramSize, ~0ull & ~0xfffull).walk(va, &t));
}

TEST_F(PageWalkTest, TlbFaultsByKind) {
  const uint64_t va = 0x9000;
  map_4k(va, 0x202000 | kPteValid);
  PageWalker w = walker();
  Tlb tlb(&w);
  FaultKind fault = FaultKind::kNone;
  EXPECT_EQ(tlb.translate(va + 8, 8, /*write=*/false, &fault), vram_ + 0x202008);
  EXPECT_EQ(tlb.translate(va + 8, 8, /*write=*/true, &fault), nullptr);
  EXPECT_EQ(fault, FaultKind::kWriteProtect);
  EXPECT_EQ(tlb.translate(va + 4, 8, /*write=*/false, &fault), nullptr);
  EXPECT_EQ(fault, FaultKind::kMisaligned);
  EXPECT_EQ(tlb.translate(va + kPageSize, 4, /*write=*/false, &fault), nullptr);
  EXPECT_EQ(fault, FaultKind::kUnmapped);
}

// A copy-only page (the KMD's mapping of peer memory for copies): the walk (copy engine)
// translates it, the SMs' Tlb faults on it as on an unmapped page.
TEST_F(PageWalkTest, CopyOnlyPageIsNotReachableBySms) {
  const uint64_t va = 0x7000;
  map_4k(va, 0x203000 | kPteValid | kPteWritable | kPteCopyOnly);
  PageWalker w = walker();
  Translation t;
  ASSERT_TRUE(w.walk(va, &t));
  EXPECT_EQ(t.host_page, vram_ + 0x203000);
  EXPECT_FALSE(t.sm_access);
  Tlb tlb(&w);
  FaultKind fault = FaultKind::kNone;
  EXPECT_EQ(tlb.translate(va, 4, /*write=*/false, &fault), nullptr);
  EXPECT_EQ(fault, FaultKind::kUnmapped);
  map_4k(va, 0x203000 | kPteValid | kPteWritable);  // upgraded to a normal page
  ASSERT_TRUE(w.walk(va, &t));
  EXPECT_TRUE(t.sm_access);
  EXPECT_EQ(tlb.translate(va, 4, /*write=*/true, &fault), vram_ + 0x203000);
}

}  // namespace
}  // namespace strata::hw::sim
