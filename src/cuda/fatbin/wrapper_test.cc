#include "cuda/fatbin/wrapper.h"

#include <fatbinary_section.h>
#include <gtest/gtest.h>

#include <cstring>

#include "cuda/fatbin/fatbin.h"
#include "cuda/fatbin/test_util.h"

namespace strata::cuda::fatbin {
namespace {

// Copies a test fatbin into 8-byte aligned storage, as nvcc places it.
std::vector<unsigned long long> aligned(const std::vector<uint8_t>& bytes) {
  std::vector<unsigned long long> out((bytes.size() + 7) / 8);
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

TEST(WrapperTest, Version1) {
  auto bytes = testing::read_testdata("sm80_zstd.fatbin");
  auto data = aligned(bytes);
  __fatBinC_Wrapper_t w{FATBINC_MAGIC, FATBINC_VERSION, data.data(), nullptr};
  auto parsed = read_wrapper(&w);
  ASSERT_TRUE(parsed.ok()) << parsed.status().to_string();
  EXPECT_EQ(parsed->version, 1);
  EXPECT_EQ(parsed->image.size(), bytes.size());
  EXPECT_TRUE(parsed->relocatable.empty());
}

TEST(WrapperTest, Version2ListsRelocatableImages) {
  auto linked = aligned(testing::read_testdata("sm80_zstd.fatbin"));
  auto rel_bytes = testing::read_testdata("rdc.fatbin");
  auto rel = aligned(rel_bytes);
  void* list[] = {rel.data(), rel.data(), nullptr};
  __fatBinC_Wrapper_t w{FATBINC_MAGIC, FATBINC_LINK_VERSION, linked.data(), list};
  auto parsed = read_wrapper(&w);
  ASSERT_TRUE(parsed.ok()) << parsed.status().to_string();
  ASSERT_EQ(parsed->relocatable.size(), 2u);
  EXPECT_EQ(parsed->relocatable[1].size(), rel_bytes.size());
}

TEST(WrapperTest, RejectsBadWrappers) {
  auto data = aligned(testing::read_testdata("sm80_zstd.fatbin"));
  __fatBinC_Wrapper_t bad_magic{0x1234, 1, data.data(), nullptr};
  EXPECT_EQ(read_wrapper(&bad_magic).status().code(), Code::kInvalidImage);
  __fatBinC_Wrapper_t bad_version{FATBINC_MAGIC, 3, data.data(), nullptr};
  EXPECT_EQ(read_wrapper(&bad_version).status().code(), Code::kInvalidImage);
  __fatBinC_Wrapper_t null_data{FATBINC_MAGIC, 1, nullptr, nullptr};
  EXPECT_EQ(read_wrapper(&null_data).status().code(), Code::kInvalidImage);
  unsigned long long garbage[2] = {0x1111, 0x2222};
  void* list[] = {garbage, nullptr};
  __fatBinC_Wrapper_t bad_rel{FATBINC_MAGIC, 2, data.data(), list};
  EXPECT_EQ(read_wrapper(&bad_rel).status().code(), Code::kInvalidImage);
  EXPECT_EQ(read_wrapper(nullptr).status().code(), Code::kInvalidImage);
}

TEST(WrapperTest, ClassifiesModuleImages) {
  auto data = aligned(testing::read_testdata("sm80_zstd.fatbin"));
  __fatBinC_Wrapper_t w{FATBINC_MAGIC, 1, data.data(), nullptr};
  EXPECT_EQ(classify_module_image(data.data()), ModuleImageKind::kFatbin);
  EXPECT_EQ(classify_module_image(&w), ModuleImageKind::kWrapper);
  EXPECT_EQ(classify_module_image("\x7f" "ELF\x02"), ModuleImageKind::kElf);
  EXPECT_EQ(classify_module_image(".version 9.0"), ModuleImageKind::kPtx);
  EXPECT_EQ(classify_module_image(""), ModuleImageKind::kPtx);
}

}  // namespace
}  // namespace strata::cuda::fatbin
