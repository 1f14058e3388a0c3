#include "compiler/sxbin/sxbin.h"

#include <gtest/gtest.h>

#include <random>

namespace strata::sxbin {
namespace {

Binary sample() {
  Binary b;
  b.code.assign(64, 0xab);
  KernelDesc k;
  k.name = "vec_add";
  k.code_offset = 16;
  k.code_size = 48;
  k.regs_per_thread = 12;
  k.shared_bytes = 256;
  k.local_bytes = 8;
  k.param_bytes = 28;
  k.params = {{0, 8, 8}, {8, 8, 8}, {16, 8, 8}, {24, 4, 4}};
  k.reqntid[0] = 128;
  k.num_barriers = 1;
  k.stack_bytes = 4;
  k.recursion = true;
  k.uses_device_heap = true;
  k.ptx_source = "a.ptx";
  k.lines = {{0, 10, 1, 5, 3}, {2, 12, 1, 6, 1}};
  b.kernels.push_back(k);
  GlobalVar g;
  g.name = "table";
  g.size = 16;
  g.align = 8;
  g.init = {1, 2, 3};
  g.init_relocs = {{8, "cvar", 4}};
  b.globals.push_back(g);
  GlobalVar c;
  c.name = "cvar";
  c.space = VarSpace::kConst;
  c.size = 4;
  c.align = 4;
  c.const_offset = 4;
  c.init = {9, 9, 9, 9};
  b.globals.push_back(c);
  b.const_bank_size = 8;
  b.const_init = {0, 0, 0, 0, 9, 9, 9, 9};
  b.symbol_table = {"table", "cvar"};
  b.source_files = {{1, "a.cu"}};
  return b;
}

TEST(Sxbin, RoundTrip) {
  Binary b = sample();
  auto image = write_sxbin(b);
  EXPECT_TRUE(is_sxbin(image));
  auto back = read_sxbin(image);
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(*back, b);
  ASSERT_NE(back->find_kernel("vec_add"), nullptr);
  EXPECT_EQ(back->find_kernel("nope"), nullptr);
}

TEST(Sxbin, RejectsOtherElfAndGarbage) {
  std::vector<uint8_t> junk = {1, 2, 3};
  EXPECT_FALSE(is_sxbin(junk));
  EXPECT_EQ(read_sxbin(junk).status().code(), Code::kInvalidImage);
  auto image = write_sxbin(sample());
  image[18] = 0x3e;  // x86-64
  EXPECT_FALSE(is_sxbin(image));
  auto r = read_sxbin(image);
  EXPECT_EQ(r.status().code(), Code::kInvalidImage);
  EXPECT_NE(r.status().message().find("e_machine"), std::string::npos);
}

TEST(Sxbin, ValidateCatchesBadKernelRange) {
  Binary b = sample();
  b.kernels[0].code_size = 64;
  Status s = validate_binary(b);
  EXPECT_EQ(s.code(), Code::kInvalidImage);
  EXPECT_NE(s.message().find("outside .text"), std::string::npos) << s.message();
  b = sample();
  b.globals[0].init_relocs[0].symbol = "missing";
  EXPECT_EQ(validate_binary(b).code(), Code::kInvalidImage);
}

TEST(Sxbin, TruncationsNeverCrash) {
  auto image = write_sxbin(sample());
  for (size_t n = 0; n < image.size(); ++n) {
    auto r = read_sxbin(std::span<const uint8_t>(image.data(), n));
    EXPECT_FALSE(r.ok()) << n;
    EXPECT_EQ(r.status().code(), Code::kInvalidImage);
  }
}

TEST(Sxbin, RandomMutationsNeverCrash) {
  auto image = write_sxbin(sample());
  std::mt19937 rng(1234);
  int accepted = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    auto m = image;
    int flips = 1 + static_cast<int>(rng() % 4);
    for (int f = 0; f < flips; ++f) m[rng() % m.size()] = static_cast<uint8_t>(rng());
    auto r = read_sxbin(m);
    if (r.ok()) {
      ++accepted;
      EXPECT_TRUE(validate_binary(*r).ok());
      // What was accepted re-serializes and reads back identically.
      auto again = read_sxbin(write_sxbin(*r));
      ASSERT_TRUE(again.ok());
      EXPECT_EQ(*again, *r);
    } else {
      EXPECT_EQ(r.status().code(), Code::kInvalidImage);
    }
  }
  EXPECT_LT(accepted, 20000);
}

}  // namespace
}  // namespace strata::sxbin
