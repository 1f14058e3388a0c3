#include "cuda/fatbin/fatbin.h"

#include <gtest/gtest.h>

#include <cstring>

#include "cuda/fatbin/test_util.h"

namespace strata::cuda::fatbin {
namespace {

using testing::read_testdata;

const Entry* find_ptx(const Image& image) {
  for (const Entry& e : image.entries) {
    if (e.is_ptx()) return &e;
  }
  return nullptr;
}

void expect_kernel_ptx(const Entry& entry) {
  auto text = ptx_text(entry);
  ASSERT_TRUE(text.ok()) << text.status().to_string();
  EXPECT_NE(text->find(".version 9.0"), std::string::npos);
  EXPECT_NE(text->find(".target sm_80"), std::string::npos);
  EXPECT_NE(text->find(".visible .entry _Z3addPii("), std::string::npos);
  EXPECT_EQ(text->find('\0'), std::string::npos);
}

TEST(FatbinTest, ParsesZstdImageFromNvcc) {
  auto bytes = read_testdata("sm80_zstd.fatbin");
  ASSERT_FALSE(bytes.empty());
  auto image = parse_image(bytes);
  ASSERT_TRUE(image.ok()) << image.status().to_string();
  EXPECT_EQ(image->size, bytes.size());
  ASSERT_EQ(image->entries.size(), 2u);
  const Entry& elf = image->entries[0];
  EXPECT_TRUE(elf.is_elf());
  EXPECT_EQ(elf.arch, 80);
  EXPECT_EQ(elf.compression, Compression::kNone);
  EXPECT_EQ(target_name(elf), "sm_80");
  auto elf_bytes = decompressed_payload(elf);
  ASSERT_TRUE(elf_bytes.ok());
  EXPECT_EQ(std::memcmp(elf_bytes->data(), "\x7f" "ELF", 4), 0);
  const Entry& ptx = image->entries[1];
  EXPECT_TRUE(ptx.is_ptx());
  EXPECT_EQ(ptx.compression, Compression::kZstd);
  EXPECT_EQ(ptx.version_major, 9);
  EXPECT_EQ(ptx.version_minor, 0);
  EXPECT_TRUE(ptx.flags & kFlag64Bit);
  EXPECT_EQ(target_name(ptx), "compute_80");
  EXPECT_FALSE(ptx.relocatable());
  expect_kernel_ptx(ptx);
}

TEST(FatbinTest, Lz4UncompressedAndCompressAllGiveTheSamePtx) {
  auto reference_bytes = read_testdata("sm80_zstd.fatbin");
  auto reference = parse_image(reference_bytes);
  ASSERT_TRUE(reference.ok());
  auto expected = ptx_text(*find_ptx(*reference));
  ASSERT_TRUE(expected.ok());
  for (const char* name : {"lz4.fatbin", "uncompressed.fatbin", "compress_all.fatbin"}) {
    SCOPED_TRACE(name);
    auto bytes = read_testdata(name);
    auto image = parse_image(bytes);
    ASSERT_TRUE(image.ok()) << image.status().to_string();
    const Entry* ptx = find_ptx(*image);
    ASSERT_NE(ptx, nullptr);
    auto text = ptx_text(*ptx);
    ASSERT_TRUE(text.ok()) << text.status().to_string();
    EXPECT_EQ(*text, *expected);
  }
  auto lz4_bytes = read_testdata("lz4.fatbin");
  auto lz4 = parse_image(lz4_bytes);
  EXPECT_EQ(find_ptx(*lz4)->compression, Compression::kLz4);
  auto all_bytes = read_testdata("compress_all.fatbin");
  auto all = parse_image(all_bytes);
  for (const Entry& e : all->entries) {
    EXPECT_EQ(e.compression, Compression::kZstd);
    EXPECT_TRUE(decompressed_payload(e).ok());
  }
}

TEST(FatbinTest, RelocatableEntryCarriesCompileOnlyOption) {
  auto bytes = read_testdata("rdc.fatbin");
  auto image = parse_image(bytes);
  ASSERT_TRUE(image.ok()) << image.status().to_string();
  const Entry* ptx = find_ptx(*image);
  ASSERT_NE(ptx, nullptr);
  EXPECT_EQ(ptx->options, "--compile-only");
  EXPECT_TRUE(ptx->relocatable());
  expect_kernel_ptx(*ptx);
}

// nvcc -arch=sm_80 -lineinfo -fatbin k.cu (add(int*, int)): both entries name the
// source file, which moves the PTX entry's options descriptor (+20) past the name.
TEST(FatbinTest, LineinfoEntriesCarryTheSourceNameAndOptions) {
  auto bytes = read_testdata("lineinfo.fatbin");
  auto image = parse_image(bytes);
  ASSERT_TRUE(image.ok()) << image.status().to_string();
  ASSERT_EQ(image->entries.size(), 2u);
  const Entry& elf = image->entries[0];
  EXPECT_TRUE(elf.is_elf());
  EXPECT_EQ(elf.name, "k.cu");
  EXPECT_EQ(elf.options, "");
  const Entry* ptx = find_ptx(*image);
  ASSERT_NE(ptx, nullptr);
  EXPECT_EQ(ptx->name, "k.cu");
  EXPECT_EQ(ptx->options, "--generate-line-info");
  EXPECT_FALSE(ptx->relocatable());
  auto text = ptx_text(*ptx);
  ASSERT_TRUE(text.ok()) << text.status().to_string();
  EXPECT_NE(text->find(".visible .entry _Z3addPii("), std::string::npos);
  EXPECT_NE(text->find(".loc"), std::string::npos);
  EXPECT_NE(text->find(".file"), std::string::npos);
}

TEST(FatbinTest, ArchAndFamilySpecificTargets) {
  auto bytes = read_testdata("arch_specific.fatbin");
  auto image = parse_image(bytes);
  ASSERT_TRUE(image.ok()) << image.status().to_string();
  ASSERT_EQ(image->entries.size(), 3u);
  EXPECT_EQ(target_name(image->entries[0]), "compute_90a");
  EXPECT_EQ(target_name(image->entries[1]), "compute_100f");
  EXPECT_EQ(target_name(image->entries[2]), "compute_120");
  auto multi_bytes = read_testdata("multi_gencode.fatbin");
  auto multi = parse_image(multi_bytes);
  ASSERT_TRUE(multi.ok());
  ASSERT_EQ(multi->entries.size(), 3u);
  EXPECT_EQ(target_name(multi->entries[1]), "sm_90a");
  EXPECT_EQ(target_name(multi->entries[2]), "sm_75");
}

TEST(FatbinTest, ParsesBackToBackImagesWithPadding) {
  auto a = read_testdata("sm80_zstd.fatbin");
  auto b = read_testdata("rdc.fatbin");
  std::vector<uint8_t> region = a;
  region.resize(region.size() + 8, 0);
  region.insert(region.end(), b.begin(), b.end());
  auto images = parse_images(region);
  ASSERT_TRUE(images.ok()) << images.status().to_string();
  ASSERT_EQ(images->size(), 2u);
  EXPECT_EQ((*images)[1].size, b.size());
}

TEST(FatbinTest, RejectsBadHeaders) {
  auto bytes = read_testdata("sm80_zstd.fatbin");
  std::vector<uint8_t> bad = bytes;
  bad[0] ^= 1;
  EXPECT_EQ(parse_image(bad).status().code(), Code::kInvalidImage);
  EXPECT_EQ(parse_image(std::span<const uint8_t>(bytes.data(), 10)).status().code(),
            Code::kInvalidImage);
  // Truncated: the header claims more bytes than there are.
  EXPECT_EQ(parse_image(std::span<const uint8_t>(bytes.data(), bytes.size() - 1))
                .status().code(), Code::kInvalidImage);
  EXPECT_EQ(parse_images({}).status().code(), Code::kInvalidImage);
}

TEST(FatbinTest, RejectsPayloadOverrunAndCorruptCompression) {
  auto bytes = read_testdata("sm80_zstd.fatbin");
  std::vector<uint8_t> overrun = bytes;
  uint64_t huge = 1u << 30;
  std::memcpy(overrun.data() + 16 + 8, &huge, sizeof(huge));  // first entry payload size
  auto image = parse_image(overrun);
  ASSERT_FALSE(image.ok());
  EXPECT_NE(image.status().message().find("overruns"), std::string::npos);

  std::vector<uint8_t> corrupt = bytes;
  auto good = parse_image(bytes);
  const Entry* ptx = find_ptx(*good);
  size_t payload_offset = ptx->payload.data() - bytes.data();
  corrupt[payload_offset + 20] ^= 0xff;
  corrupt[payload_offset + 21] ^= 0xff;
  auto parsed = parse_image(corrupt);
  ASSERT_TRUE(parsed.ok());
  auto text = ptx_text(*find_ptx(*parsed));
  EXPECT_FALSE(text.ok() && *text == *ptx_text(*ptx));
}

TEST(FatbinTest, PtxTextOfElfIsAnError) {
  auto bytes = read_testdata("sm80_zstd.fatbin");
  auto image = parse_image(bytes);
  EXPECT_EQ(ptx_text(image->entries[0]).status().code(), Code::kInvalidImage);
}

}  // namespace
}  // namespace strata::cuda::fatbin
