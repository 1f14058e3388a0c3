#include "cuda/fatbin/ptx_select.h"

#include <gtest/gtest.h>

#include "cuda/fatbin/test_util.h"

namespace strata::cuda::fatbin {
namespace {

Entry ptx(int arch, ArchVariant variant = ArchVariant::kGeneric) {
  Entry e;
  e.kind = static_cast<uint16_t>(EntryKind::kPtx);
  e.arch = arch;
  e.variant = variant;
  return e;
}

Entry elf(int arch) {
  Entry e;
  e.kind = static_cast<uint16_t>(EntryKind::kElf);
  e.arch = arch;
  return e;
}

TEST(PtxSelectTest, PicksHighestPtxAtOrBelowDevice) {
  Image image;
  image.entries = {ptx(52), ptx(80), ptx(75), ptx(90), elf(86)};
  auto best = select_ptx(image, 8, 6);
  ASSERT_TRUE(best.ok());
  EXPECT_EQ((*best)->arch, 80);
  best = select_ptx(image, 9, 0);
  ASSERT_TRUE(best.ok());
  EXPECT_EQ((*best)->arch, 90);
  best = select_ptx(image, 12, 0);
  ASSERT_TRUE(best.ok());
  EXPECT_EQ((*best)->arch, 90);
}

TEST(PtxSelectTest, SuffixedPtxOnlyOnExactMatch) {
  Image image;
  image.entries = {ptx(80), ptx(90, ArchVariant::kArchSpecific),
                   ptx(100, ArchVariant::kFamilySpecific)};
  EXPECT_EQ((*select_ptx(image, 9, 0))->variant, ArchVariant::kArchSpecific);
  EXPECT_EQ((*select_ptx(image, 10, 0))->variant, ArchVariant::kFamilySpecific);
  EXPECT_EQ((*select_ptx(image, 12, 0))->arch, 80);
  EXPECT_EQ((*select_ptx(image, 8, 9))->arch, 80);
}

TEST(PtxSelectTest, NoUsablePtxExplainsHowToRebuild) {
  Image image;
  image.entries = {elf(80), ptx(90)};
  auto best = select_ptx(image, 8, 0);
  ASSERT_FALSE(best.ok());
  EXPECT_EQ(best.status().code(), Code::kNoBinaryForGpu);
  EXPECT_NE(best.status().message().find("sm_80, compute_90"), std::string::npos);
  EXPECT_NE(best.status().message().find("-arch=compute_80"), std::string::npos);
  EXPECT_EQ(select_ptx(Image{}, 8, 0).status().code(), Code::kNoBinaryForGpu);
}

TEST(PtxSelectTest, RealMultiGencodeImage) {
  auto bytes = testing::read_testdata("multi_gencode.fatbin");
  auto image = parse_image(bytes);
  ASSERT_TRUE(image.ok());
  EXPECT_EQ(target_name(**select_ptx(*image, 9, 0)), "compute_80");
  EXPECT_EQ(select_ptx(*image, 7, 5).status().code(), Code::kNoBinaryForGpu);
}

}  // namespace
}  // namespace strata::cuda::fatbin
