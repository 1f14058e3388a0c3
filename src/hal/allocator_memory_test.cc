// The allocator's explicit memory API (hal/allocator.h: create_memory, memory_of,
// reserve_va, free_va, map_memory) on the strata backend with two devices
// (STRATA_DEVICES=2, set by CMake): mappings at chosen VAs, back-to-back chunks that the
// copy engine crosses, lifetime of memory behind mappings, and peer mappings (device 1
// reaching device 0's memory over the bus).
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <vector>

#include "hal/device.h"

namespace strata::hal {
namespace {

using namespace std::chrono_literals;

constexpr uint64_t kPage = 4096;
constexpr uint64_t kChunk = 64 * kPage;

class AllocatorMemoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int i = 0; i < 2; ++i) {
      auto device = open_device("strata", i);
      ASSERT_TRUE(device.ok()) << device.status().to_string();
      device_[i] = *device;
      auto context = device_[i]->create_context();
      ASSERT_TRUE(context.ok()) << context.status().to_string();
      context_[i] = *context;
    }
  }
  Allocator& allocator(int i) { return context_[i]->allocator(); }

  // Runs one copy on device `i`'s queue and waits for it.
  Status gpu_copy(int i, uint64_t src, uint64_t dst, uint64_t bytes) {
    ASSIGN_OR_RETURN(auto queue, context_[i]->create_queue());
    ASSIGN_OR_RETURN(auto cb, context_[i]->create_command_buffer());
    RETURN_IF_ERROR(cb->copy(src, dst, bytes));
    RETURN_IF_ERROR(cb->finalize());
    ASSIGN_OR_RETURN(auto done, device_[i]->create_semaphore(0));
    SemaphoreValue signal{done, 1};
    RETURN_IF_ERROR(queue->submit(cb, {}, std::span(&signal, 1)));
    return done->wait(1, 10s);
  }

  std::shared_ptr<Device> device_[2];
  std::shared_ptr<Context> context_[2];
};

std::vector<uint8_t> pattern(uint64_t bytes, uint8_t seed) {
  std::vector<uint8_t> v(bytes);
  for (uint64_t i = 0; i < bytes; ++i) v[i] = static_cast<uint8_t>(i * 13 + seed);
  return v;
}

TEST_F(AllocatorMemoryTest, ValidatesArguments) {
  Allocator& a = allocator(0);
  EXPECT_EQ(a.create_memory(0).status().code(), Code::kInvalidValue);
  EXPECT_EQ(a.create_memory(kPage + 1).status().code(), Code::kInvalidValue);
  EXPECT_EQ(a.reserve_va(0, 0).status().code(), Code::kInvalidValue);
  EXPECT_EQ(a.reserve_va(kPage, 3 * kPage).status().code(), Code::kInvalidValue);
  auto memory = a.create_memory(kChunk);
  ASSERT_TRUE(memory.ok()) << memory.status().to_string();
  EXPECT_EQ((*memory)->size(), kChunk);
  EXPECT_EQ((*memory)->device_index(), 0);
  auto va = a.reserve_va(2 * kChunk, kChunk);
  ASSERT_TRUE(va.ok());
  EXPECT_EQ(*va % kChunk, 0u);
  EXPECT_EQ(a.map_memory(nullptr, 0, *va, kPage, true).status().code(), Code::kInvalidValue);
  EXPECT_EQ(a.map_memory(*memory, 0, *va + 1, kPage, true).status().code(), Code::kInvalidValue);
  EXPECT_EQ(a.map_memory(*memory, kPage, *va, kChunk, true).status().code(), Code::kInvalidValue);
  auto mapped = a.map_memory(*memory, 0, *va, kChunk, true);
  ASSERT_TRUE(mapped.ok()) << mapped.status().to_string();
  // A second mapping over mapped pages is refused.
  EXPECT_EQ(a.map_memory(*memory, 0, *va + kPage, kPage, true).status().code(),
            Code::kInvalidValue);
  mapped->reset();  // unmapped: the pages can be mapped again
  auto again = a.map_memory(*memory, 0, *va + kPage, kPage, true);
  EXPECT_TRUE(again.ok()) << again.status().to_string();
  again->reset();
  EXPECT_TRUE(a.free_va(*va).ok());
}

TEST_F(AllocatorMemoryTest, ChunksBackToBackAreOneRangeForTheGpu) {
  Allocator& a = allocator(0);
  auto m1 = a.create_memory(kChunk), m2 = a.create_memory(kChunk);
  ASSERT_TRUE(m1.ok() && m2.ok());
  auto va = a.reserve_va(2 * kChunk, 0);
  ASSERT_TRUE(va.ok());
  auto b1 = a.map_memory(*m1, 0, *va, kChunk, true);
  auto b2 = a.map_memory(*m2, 0, *va + kChunk, kChunk, true);
  ASSERT_TRUE(b1.ok() && b2.ok());
  EXPECT_EQ((*b1)->kind(), MemoryKind::kDevice);
  auto found = a.find(*va + kChunk + 5);
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found->get(), b2->get());

  const auto data = pattern(kChunk, 1);
  ASSERT_TRUE(a.write(*va, data.data(), kChunk).ok());
  // The copy engine reads across the chunk boundary: the second half of chunk 1 and
  // the first half of chunk 2 are one contiguous source.
  auto dst = a.allocate_device(kChunk);
  ASSERT_TRUE(dst.ok());
  ASSERT_TRUE(a.write(*va + kChunk, data.data(), kChunk).ok());
  ASSERT_TRUE(gpu_copy(0, *va + kChunk / 2, (*dst)->va(), kChunk).ok());
  std::vector<uint8_t> back(kChunk);
  ASSERT_TRUE(a.read((*dst)->va(), back.data(), kChunk).ok());
  for (uint64_t i = 0; i < kChunk; ++i) {
    ASSERT_EQ(back[i], data[(i + kChunk / 2) % kChunk]) << "byte " << i;
  }

  // The memory outlives its handle while mapped, and keeps its bytes across remaps.
  std::shared_ptr<Memory> keep = *m1;
  m1->reset();
  keep.reset();
  std::vector<uint8_t> first(kPage);
  ASSERT_TRUE(a.read(*va, first.data(), kPage).ok());
  EXPECT_EQ(std::memcmp(first.data(), data.data(), kPage), 0);
  found->reset();  // drop every reference to chunk 2's mapping: it is unmapped
  b2->reset();
  auto remapped = a.map_memory(*m2, 0, *va + kChunk, kChunk, /*writable=*/false);
  ASSERT_TRUE(remapped.ok());
  ASSERT_TRUE(a.read(*va + kChunk, first.data(), kPage).ok());
  EXPECT_EQ(std::memcmp(first.data(), data.data(), kPage), 0);
}

TEST_F(AllocatorMemoryTest, MemoryOfADeviceBuffer) {
  Allocator& a = allocator(0);
  auto buffer = a.allocate_device(3 * kPage);
  ASSERT_TRUE(buffer.ok());
  auto memory = a.memory_of((*buffer)->va());
  ASSERT_TRUE(memory.ok()) << memory.status().to_string();
  EXPECT_GE((*memory)->size(), 3 * kPage);
  EXPECT_EQ((*memory)->device_index(), 0);
  EXPECT_EQ(a.memory_of((*buffer)->va() + kPage).status().code(), Code::kNotFound);
  auto host = a.allocate_host(kPage);
  ASSERT_TRUE(host.ok());
  EXPECT_EQ(a.memory_of((*host)->va()).status().code(), Code::kNotFound);
}

TEST_F(AllocatorMemoryTest, PeerMappingReachesTheOtherDevicesMemory) {
  auto owned = allocator(0).allocate_device(kChunk);
  ASSERT_TRUE(owned.ok());
  const uint64_t va = (*owned)->va();
  auto memory = allocator(0).memory_of(va);
  ASSERT_TRUE(memory.ok());
  // Device 1 maps device 0's memory at the same VA (unified addressing).
  auto peer = allocator(1).map_memory(*memory, 0, va, kChunk, true);
  ASSERT_TRUE(peer.ok()) << peer.status().to_string();
  const auto data = pattern(kChunk, 7);
  ASSERT_TRUE(allocator(0).write(va, data.data(), kChunk).ok());
  std::vector<uint8_t> back(kChunk);
  ASSERT_TRUE(allocator(1).read(va, back.data(), kChunk).ok());
  EXPECT_EQ(back, data);

  // Device 1's copy engine reads device 0's memory and writes device 1's, and back.
  auto local = allocator(1).allocate_device(kChunk);
  ASSERT_TRUE(local.ok());
  ASSERT_TRUE(gpu_copy(1, va, (*local)->va(), kChunk).ok());
  ASSERT_TRUE(allocator(1).read((*local)->va(), back.data(), kChunk).ok());
  EXPECT_EQ(back, data);
  const auto other = pattern(kChunk, 99);
  ASSERT_TRUE(allocator(1).write((*local)->va(), other.data(), kChunk).ok());
  ASSERT_TRUE(gpu_copy(1, (*local)->va(), va, kChunk).ok());
  ASSERT_TRUE(allocator(0).read(va, back.data(), kChunk).ok());
  EXPECT_EQ(back, other);

  // The owner frees its buffer; the peer mapping keeps the memory until it goes.
  owned->reset();
  memory->reset();
  ASSERT_TRUE(allocator(1).read(va, back.data(), kChunk).ok());
  EXPECT_EQ(back, other);
  peer->reset();
  EXPECT_EQ(allocator(1).find(va).status().code(), Code::kNotFound);
}

}  // namespace
}  // namespace strata::hal
