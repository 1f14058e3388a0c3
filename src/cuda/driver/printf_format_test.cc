#include "cuda/driver/printf_format.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <vector>

#include "compiler/sxbin/printf_layout.h"

namespace strata::cuda::driver {
namespace {

// Packs arguments the way nvcc does: each at the next offset aligned to its size.
class Args {
 public:
  Args& i32(int32_t v) { return put(&v, 4); }
  Args& i64(int64_t v) { return put(&v, 8); }
  Args& f64(double v) { return put(&v, 8); }
  std::span<const uint8_t> bytes() const { return bytes_; }

 private:
  Args& put(const void* p, size_t n) {
    bytes_.resize((bytes_.size() + n - 1) / n * n);
    const auto* b = static_cast<const uint8_t*>(p);
    bytes_.insert(bytes_.end(), b, b + n);
    return *this;
  }
  std::vector<uint8_t> bytes_;
};

std::map<uint64_t, std::string> g_device_strings = {{0x1000, "hello"}, {0x2000, "gpu"}};

std::optional<std::string> read(uint64_t va) {
  auto it = g_device_strings.find(va);
  if (it == g_device_strings.end()) return std::nullopt;
  return it->second;
}

std::string fmt(const char* format, const Args& args) {
  return format_device_printf(format, args.bytes(), read);
}

TEST(PrintfLayout, MatchesNvccPacking) {
  // The packing of nvcc's PTX for this call: int@0, int@4, double@8, ptr@16, i64@24,
  // int@32 -> 36 bytes (its local buffer is 40 bytes, rounded to its 8-byte alignment).
  EXPECT_EQ(sxbin::printf_argument_bytes("t%d a=%5d d=%.3f s=%s l=%lld c=%c\n"), 36u);
  EXPECT_EQ(sxbin::printf_argument_bytes("%d %f %s %lld %c"), 36u);
  EXPECT_EQ(sxbin::printf_argument_bytes("no args %% at all"), 0u);
  EXPECT_EQ(sxbin::printf_argument_bytes("%*.*f"), 16u);  // int, int, double@8
  EXPECT_EQ(sxbin::printf_argument_bytes("%hhd %hd %ld %zu %p"), 32u);
  EXPECT_EQ(sxbin::printf_argument_count("%*.*f %d %% %s"), 5u);
  EXPECT_EQ(sxbin::printf_argument_count("none"), 0u);
}

TEST(PrintfFormat, Integers) {
  EXPECT_EQ(fmt("%d|%i|%u|%x|%X|%o", Args().i32(-5).i32(7).i32(-1).i32(255).i32(255).i32(8)),
            "-5|7|4294967295|ff|FF|10");
  EXPECT_EQ(fmt("[%5d][%-5d][%05d][%+d][% d]", Args().i32(42).i32(42).i32(42).i32(42).i32(42)),
            "[   42][42   ][00042][+42][ 42]");
  EXPECT_EQ(fmt("%ld %lld %lu %llu", Args().i64(-1).i64(1LL << 40).i64(-1).i64(7)),
            "-1 1099511627776 18446744073709551615 7");
  EXPECT_EQ(fmt("%#x %#o %hhd %hd", Args().i32(255).i32(8).i32(300).i32(70000)),
            "0xff 010 44 4464");
  EXPECT_EQ(fmt("%c%c", Args().i32('o').i32('k')), "ok");
}

TEST(PrintfFormat, Floats) {
  EXPECT_EQ(fmt("%f %.2f %8.3f %-8.1f|", Args().f64(1.5).f64(3.14159).f64(2.5).f64(-0.25)),
            "1.500000 3.14    2.500 -0.2    |");
  EXPECT_EQ(fmt("%e %E %g %G", Args().f64(12345.678).f64(0.001).f64(0.0001).f64(1e20)),
            "1.234568e+04 1.000000E-03 0.0001 1E+20");
  EXPECT_EQ(fmt("%a", Args().f64(1.0)), "0x1p+0");
  EXPECT_EQ(fmt("%*.*f|%-*d|", Args().i32(7).i32(2).f64(2.5).i32(4).i32(1)), "   2.50|1   |");
}

TEST(PrintfFormat, StringsPointersAndPercent) {
  EXPECT_EQ(fmt("%s, %s!", Args().i64(0x1000).i64(0x2000)), "hello, gpu!");
  EXPECT_EQ(fmt("[%8s][%-6s][%.2s]", Args().i64(0x2000).i64(0x2000).i64(0x1000)),
            "[     gpu][gpu   ][he]");
  EXPECT_EQ(fmt("%s %s", Args().i64(0).i64(0x3000)), "(null) <bad string>");
  EXPECT_EQ(fmt("%p", Args().i64(0x1234)), "0x1234");
  EXPECT_EQ(fmt("100%% done %d%%", Args().i32(5)), "100% done 5%");
}

TEST(PrintfFormat, ShortRecordsAndMalformedSpecs) {
  EXPECT_EQ(fmt("%d %d", Args().i32(1)), "1 <missing>");
  EXPECT_EQ(fmt("%y and %", Args()), "%y and %");
  EXPECT_EQ(fmt("%d%n!", Args().i32(3).i64(0)), "3!");
}

}  // namespace
}  // namespace strata::cuda::driver
