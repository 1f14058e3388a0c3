#include "cupti/activity_buffer.h"

#include <gtest/gtest.h>

#include <cstring>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace strata::cupti {
namespace {

struct Client {
  size_t buffer_size = 64;
  size_t max_records = 0;
  bool decline = false;
  std::vector<std::vector<uint8_t>*> handed_out;
  struct Completed {
    uint8_t* data;
    size_t size, valid;
  };
  std::vector<Completed> completed;
} g_client;

std::mutex g_client_mu;  // the client's own lock: callbacks may run on several threads

void requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  std::lock_guard lock(g_client_mu);
  if (g_client.decline) {
    *buffer = nullptr;
    *size = 0;
    *max_records = 0;
    return;
  }
  auto* storage = new std::vector<uint8_t>(g_client.buffer_size, 0xAB);
  g_client.handed_out.push_back(storage);
  *buffer = storage->data();
  *size = storage->size();
  *max_records = g_client.max_records;
}

void completed(CUcontext, uint32_t, uint8_t* buffer, size_t size, size_t valid) {
  std::lock_guard lock(g_client_mu);
  g_client.completed.push_back({buffer, size, valid});
}

// A 12-byte record (kind + 8 bytes), padded to 16 in the buffer.
struct SmallRecord {
  uint32_t kind;
  uint32_t a;
  uint32_t b;
};

class ActivityBufferTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (auto* v : g_client.handed_out) delete v;
    g_client = Client{};
    buffers_.register_callbacks(requested, completed);
  }
  void TearDown() override {
    for (auto* v : g_client.handed_out) delete v;
    g_client.handed_out.clear();
  }
  ActivityBuffers buffers_;
};

TEST_F(ActivityBufferTest, PacksRecordsAtAlignedOffsetsAndCompletesFullBuffers) {
  g_client.buffer_size = 40;  // two 16-byte slots, and 8 bytes too few for a third
  for (uint32_t i = 0; i < 3; ++i) {
    SmallRecord r{7, i, 100 + i};
    buffers_.append(&r, sizeof r);
  }
  // The third record did not fit: the first buffer came back with two records.
  ASSERT_EQ(g_client.completed.size(), 1u);
  EXPECT_EQ(g_client.completed[0].size, 40u);
  EXPECT_EQ(g_client.completed[0].valid, 32u);
  SmallRecord second;
  std::memcpy(&second, g_client.completed[0].data + 16, sizeof second);
  EXPECT_EQ(second.a, 1u);
  EXPECT_EQ(second.b, 101u);
  // Padding bytes are zeroed, not the client's fill.
  EXPECT_EQ(g_client.completed[0].data[12], 0);
  buffers_.flush();
  ASSERT_EQ(g_client.completed.size(), 2u);
  EXPECT_EQ(g_client.completed[1].valid, 16u);
  buffers_.flush();  // nothing left: no empty buffer is handed back
  EXPECT_EQ(g_client.completed.size(), 2u);
  EXPECT_EQ(buffers_.take_dropped(), 0u);
}

TEST_F(ActivityBufferTest, HonoursMaxNumRecords) {
  g_client.buffer_size = 1024;
  g_client.max_records = 2;
  for (uint32_t i = 0; i < 5; ++i) {
    SmallRecord r{7, i, 0};
    buffers_.append(&r, sizeof r);
  }
  buffers_.flush();
  ASSERT_EQ(g_client.completed.size(), 3u);
  EXPECT_EQ(g_client.completed[0].valid, 32u);
  EXPECT_EQ(g_client.completed[1].valid, 32u);
  EXPECT_EQ(g_client.completed[2].valid, 16u);
}

TEST_F(ActivityBufferTest, CountsDroppedRecords) {
  g_client.decline = true;
  SmallRecord r{7, 0, 0};
  buffers_.append(&r, sizeof r);
  buffers_.append(&r, sizeof r);
  EXPECT_EQ(buffers_.take_dropped(), 2u);
  EXPECT_EQ(buffers_.take_dropped(), 0u);  // reset by reading
  // A buffer too small for one record comes straight back, empty.
  g_client.decline = false;
  g_client.buffer_size = 8;
  buffers_.append(&r, sizeof r);
  EXPECT_EQ(buffers_.take_dropped(), 1u);
  ASSERT_EQ(g_client.completed.size(), 1u);
  EXPECT_EQ(g_client.completed[0].valid, 0u);
}

TEST_F(ActivityBufferTest, ThreadsAppendingConcurrentlyLoseNothing) {
  g_client.buffer_size = 256;
  constexpr uint32_t kThreads = 4, kRecords = 2000;
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < kThreads; ++t) {
    threads.emplace_back([this, t] {
      for (uint32_t i = 0; i < kRecords; ++i) {
        SmallRecord r{7, t, i};
        buffers_.append(&r, sizeof r);
      }
    });
  }
  for (auto& th : threads) th.join();
  buffers_.flush();
  EXPECT_EQ(buffers_.take_dropped(), 0u);
  std::set<std::pair<uint32_t, uint32_t>> seen;
  for (const auto& c : g_client.completed) {
    for (size_t offset = 0; offset < c.valid; offset += 16) {
      SmallRecord r;
      std::memcpy(&r, c.data + offset, sizeof r);
      EXPECT_EQ(r.kind, 7u);
      EXPECT_TRUE(seen.insert({r.a, r.b}).second);
    }
  }
  EXPECT_EQ(seen.size(), size_t{kThreads} * kRecords);
}

TEST_F(ActivityBufferTest, DropsWithoutCallbacks) {
  ActivityBuffers unregistered;
  SmallRecord r{7, 0, 0};
  unregistered.append(&r, sizeof r);
  EXPECT_FALSE(unregistered.registered());
  EXPECT_EQ(unregistered.take_dropped(), 1u);
}

}  // namespace
}  // namespace strata::cupti
