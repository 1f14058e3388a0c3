#include "tools/elf_inspect.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <random>

namespace strata::tools {
namespace {

TEST(ElfInspectTest, ReadsThisTestBinary) {
  auto elf = ElfFile::read("/proc/self/exe");
  ASSERT_TRUE(elf.ok()) << elf.status().to_string();
  bool has_libc = false;
  for (const std::string& lib : elf->needed()) has_libc |= lib.starts_with("libc.so");
  EXPECT_TRUE(has_libc);
  EXPECT_TRUE(elf->defines("main"));
  EXPECT_FALSE(elf->defines("__cudaRegisterFatBinary"));
  EXPECT_FALSE(elf->section(".text").empty());
  EXPECT_TRUE(elf->section(".nv_fatbin").empty());
}

TEST(ElfInspectTest, RejectsNonElfAndMissingFiles) {
  EXPECT_EQ(ElfFile::parse({'h', 'e', 'l', 'l', 'o'}, "x").status().code(), Code::kInvalidImage);
  EXPECT_EQ(ElfFile::parse({}, "x").status().code(), Code::kInvalidImage);
  EXPECT_EQ(ElfFile::read("/nonexistent/strata").status().code(), Code::kFileNotFound);
}

TEST(ElfInspectTest, MutatedHeadersNeverCrash) {
  auto original = ElfFile::read("/proc/self/exe");
  ASSERT_TRUE(original.ok());
  std::ifstream in("/proc/self/exe", std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), {});
  std::mt19937_64 rng(42);
  for (int i = 0; i < 300; ++i) {
    std::vector<uint8_t> mutated = bytes;
    for (int m = 0; m < 4; ++m) mutated[rng() % 64] ^= static_cast<uint8_t>(rng());
    if (i % 3 == 0) mutated.resize(rng() % mutated.size());
    auto elf = ElfFile::parse(std::move(mutated), "mutant");
    if (elf.ok()) (void)elf->section(".nv_fatbin");
  }
}

}  // namespace
}  // namespace strata::tools
