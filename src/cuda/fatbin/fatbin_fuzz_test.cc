// Mutation fuzzing of the parser over real nvcc fatbins: every mutant must either parse
// or fail with kInvalidImage, and every parsed entry must decompress or fail cleanly.
// Run under ASan for out-of-bounds checking; the seed is fixed so failures reproduce.
#include <gtest/gtest.h>

#include <cstring>

#include <random>

#include "cuda/fatbin/fatbin.h"
#include "cuda/fatbin/ptx_select.h"
#include "cuda/fatbin/test_util.h"

namespace strata::cuda::fatbin {
namespace {

void exercise(const std::vector<uint8_t>& bytes) {
  auto images = parse_images(bytes);
  if (!images.ok()) {
    EXPECT_EQ(images.status().code(), Code::kInvalidImage);
    return;
  }
  for (const Image& image : *images) {
    for (const Entry& entry : image.entries) {
      auto payload = decompressed_payload(entry);
      if (!payload.ok()) {
        EXPECT_EQ(payload.status().code(), Code::kInvalidImage);
      }
      if (entry.is_ptx()) (void)ptx_text(entry);
      (void)target_name(entry);
    }
  }
  auto selected = select_ptx(*images, 8, 0);
  if (!selected.ok()) {
    EXPECT_EQ(selected.status().code(), Code::kNoBinaryForGpu);
  }
}

TEST(FatbinFuzzTest, MutationsNeverCrash) {
  std::mt19937_64 rng(0x5742A7A);
  for (const char* name : {"sm80_zstd.fatbin", "lz4.fatbin", "rdc.fatbin",
                           "multi_gencode.fatbin", "arch_specific.fatbin",
                           "compress_all.fatbin", "uncompressed.fatbin"}) {
    const std::vector<uint8_t> original = testing::read_testdata(name);
    ASSERT_FALSE(original.empty()) << name;
    for (int iteration = 0; iteration < 1000; ++iteration) {
      std::vector<uint8_t> bytes = original;
      int mutations = 1 + static_cast<int>(rng() % 4);
      for (int m = 0; m < mutations; ++m) {
        switch (rng() % 4) {
          case 0:  // flip a byte in the headers, where it matters most
            bytes[rng() % std::min<size_t>(bytes.size(), 200)] ^= static_cast<uint8_t>(rng());
            break;
          case 1:  // flip any byte
            bytes[rng() % bytes.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
            break;
          case 2:  // truncate
            bytes.resize(rng() % bytes.size());
            break;
          case 3: {  // write a random 32-bit value at a random 4-byte aligned offset
            if (bytes.size() < 4) break;
            size_t at = (rng() % (bytes.size() / 4)) * 4;
            uint32_t v = static_cast<uint32_t>(rng());
            std::memcpy(bytes.data() + at, &v, 4);
            break;
          }
        }
        if (bytes.empty()) break;
      }
      exercise(bytes);
    }
  }
}

}  // namespace
}  // namespace strata::cuda::fatbin
