#include "kmd/page_tables.h"

#include <gtest/gtest.h>
#include <sys/mman.h>

#include "hw/contract/page_table.h"
#include "hw/sim/memory.h"

namespace strata::kmd {
namespace {

using hw::kHugePageSize;
using hw::kPageSize;

class PageTablesTest : public ::testing::Test {
 protected:
  static constexpr uint64_t kVram = 64ull << 20;
  void SetUp() override {
    void* p = mmap(nullptr, kVram, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(p, MAP_FAILED);
    vram_ = static_cast<uint8_t*>(p);
    tables_ = std::make_unique<PageTables>(vram_, &allocator_);
    ASSERT_TRUE(tables_->init().ok());
  }
  void TearDown() override {
    tables_.reset();
    EXPECT_EQ(allocator_.free_bytes(), kVram);  // every table freed
    munmap(vram_, kVram);
  }
  // Walks with the hardware's walker.
  bool walk(uint64_t va, hw::sim::Translation* t) {
    hw::sim::PageWalker walker(vram_, kVram, tables_->root());
    return walker.walk(va, t);
  }
  uint8_t* vram_ = nullptr;
  RangeAllocator allocator_{"VRAM", 0, kVram, kPageSize};
  std::unique_ptr<PageTables> tables_;
};

TEST_F(PageTablesTest, MapsSmallPagesTheHardwareCanWalk) {
  const uint64_t va = 0x7f0000001000;
  ASSERT_TRUE(tables_->map(va, 0x200000, 3 * kPageSize, hw::kPteWritable).ok());
  for (int i = 0; i < 3; ++i) {
    hw::sim::Translation t;
    ASSERT_TRUE(walk(va + i * kPageSize + 8, &t));
    EXPECT_EQ(t.page_size, kPageSize);
    EXPECT_EQ(t.host_page, vram_ + 0x200000 + i * kPageSize);
    EXPECT_TRUE(t.writable);
  }
  hw::sim::Translation t;
  EXPECT_FALSE(walk(va + 3 * kPageSize, &t));
  EXPECT_FALSE(walk(va - kPageSize, &t));
}

TEST_F(PageTablesTest, UsesHugePagesWhereAligned) {
  const uint64_t va = 0x100000000000 - kPageSize;  // one small page, then huge ones
  const uint64_t phys = 4 * kHugePageSize - kPageSize;
  ASSERT_TRUE(tables_->map(va, phys, kPageSize + 2 * kHugePageSize, 0).ok());
  hw::sim::Translation t;
  ASSERT_TRUE(walk(va, &t));
  EXPECT_EQ(t.page_size, kPageSize);
  ASSERT_TRUE(walk(va + kPageSize + kHugePageSize + 5, &t));
  EXPECT_EQ(t.page_size, kHugePageSize);
  EXPECT_EQ(t.host_page, vram_ + 5 * kHugePageSize);
  EXPECT_FALSE(t.writable);
}

TEST_F(PageTablesTest, UnmapSplitsHugePages) {
  const uint64_t va = 0x200000000000;
  ASSERT_TRUE(tables_->map(va, 2 * kHugePageSize, kHugePageSize, hw::kPteWritable).ok());
  ASSERT_TRUE(tables_->unmap(va + 4 * kPageSize, kPageSize).ok());
  hw::sim::Translation t;
  EXPECT_FALSE(walk(va + 4 * kPageSize, &t));
  ASSERT_TRUE(walk(va + 5 * kPageSize, &t));
  EXPECT_EQ(t.page_size, kPageSize);
  EXPECT_EQ(t.host_page, vram_ + 2 * kHugePageSize + 5 * kPageSize);
  ASSERT_TRUE(tables_->unmap(va, kHugePageSize).ok());
  EXPECT_FALSE(walk(va + 5 * kPageSize, &t));
}

TEST_F(PageTablesTest, SysmemEntriesPointAtHostAddresses) {
  alignas(4096) static uint8_t host[2 * 4096];
  const uint64_t addr = reinterpret_cast<uint64_t>(host);
  ASSERT_TRUE(tables_->map(addr, addr, sizeof(host), hw::kPteSysmem | hw::kPteWritable).ok());
  hw::sim::Translation t;
  ASSERT_TRUE(walk(addr + 4097, &t));
  EXPECT_EQ(t.host_page, host + 4096);
}

TEST_F(PageTablesTest, RejectsBadMappings) {
  EXPECT_EQ(tables_->map(0x1001, 0, kPageSize, 0).code(), Code::kInvalidValue);
  EXPECT_EQ(tables_->map(0x1000, 0, 0, 0).code(), Code::kInvalidValue);
  EXPECT_EQ(tables_->map(1ull << 48, 0, kPageSize, 0).code(), Code::kInvalidValue);
  EXPECT_EQ(tables_->map(0x1000, 0, kPageSize, hw::kPteHuge).code(), Code::kInvalidValue);
  ASSERT_TRUE(tables_->map(0x10000, 0x10000, 4 * kPageSize, 0).ok());
  // Overlap: rejected and nothing changes.
  EXPECT_EQ(tables_->map(0xe000, 0x40000, 4 * kPageSize, 0).code(), Code::kInvalidValue);
  uint64_t target, flags;
  EXPECT_FALSE(tables_->lookup(0xe000, &target, &flags));
}

TEST_F(PageTablesTest, OutOfVramForTables) {
  RangeAllocator tiny("VRAM", 0, 2 * kPageSize, kPageSize);
  PageTables pt(vram_, &tiny);
  ASSERT_TRUE(pt.init().ok());
  EXPECT_EQ(pt.map(0x1000, 0, kPageSize, 0).code(), Code::kOutOfMemory);
}

}  // namespace
}  // namespace strata::kmd
