// HMMA at the ISA level (docs/isa.md "Tensor core"): a fragment layout checked against
// the PTX ISA's table, and descriptors PTX does not define decoding to an illegal
// instruction. The whole PTX-level coverage is in tests/ptx/conformance/kernel_tensor.cc.
#include <gtest/gtest.h>

#include "hw/sim/sm/test_harness.h"
#include "isa/tensor.h"

namespace strata::hw::sim::testing {
namespace {

using isa::DataType;
using isa::MmaFormat;
using isa::MmaShape;
using isa::Opcode;

uint32_t desc(MmaShape s, MmaFormat a, MmaFormat b) {
  isa::MmaDesc d;
  d.shape = s;
  d.a = a;
  d.b = b;
  return d.encode();
}

// mma.m8n8k16 .s8 x .u8 (PTX ISA "Matrix Fragments for mma.m8n8k16", g = lane / 4,
// t = lane % 4): A element i of lane l is A[g][4t + i], B element i is B[4t + i][g], and
// D register 0 is D[g][2t].
TEST(Hmma, M8N8K16Layout) {
  Harness h;
  std::vector<uint64_t> a(32), b(32), c(32);
  for (uint32_t l = 0; l < 32; ++l) {
    a[l] = 0x9d5b1f03u * (l + 1);
    b[l] = 0x3c6ef372u ^ (l * 0x01010101u);
    c[l] = 1000 * l;
  }
  auto A = [&](int row, int k) { return static_cast<int8_t>(a[4 * row + k / 4] >> (8 * (k % 4))); };
  auto Bm = [&](int k, int col) {
    return static_cast<uint8_t>(b[4 * col + k / 4] >> (8 * (k % 4)));
  };
  std::vector<isa::Inst> body = {B(Opcode::HMMA)
                                     .t(DataType::S32)
                                     .t2(DataType::S32)
                                     .d(10)
                                     .a(8)
                                     .b(9)
                                     .c(12)
                                     .imm(desc(MmaShape::M8N8K16, MmaFormat::S8, MmaFormat::U8))};
  auto d = run_map(h, body, a, b, /*wide=*/false, c);
  for (int l = 0; l < 32; ++l) {
    const int g = l / 4, t = l % 4;
    int32_t want = static_cast<int32_t>(c[l]);
    for (int k = 0; k < 16; ++k) want += A(g, k) * Bm(k, 2 * t);
    EXPECT_EQ(static_cast<int32_t>(d[l]), want) << "lane " << l;
  }
}

TEST(Hmma, UndefinedCombinationsAreIllegal) {
  const uint32_t bad[] = {
      desc(MmaShape::M16N8K16, MmaFormat::F16, MmaFormat::S8),    // float x integer
      desc(MmaShape::M16N8K16, MmaFormat::F16, MmaFormat::BF16),  // f16 x bf16
      desc(MmaShape::M8N8K4, MmaFormat::F16, MmaFormat::F16),     // m8n8k4 is f64 only
      0xf,                                                        // no such shape
  };
  for (uint32_t imm : bad) {
    Harness h;
    FaultRecord fault;
    std::vector<uint64_t> z(32, 0);
    run_map(h, {B(Opcode::HMMA).t(DataType::F32).t2(DataType::F32).d(10).a(8).b(9).c(12).imm(imm)},
            z, z, false, z, &fault);
    EXPECT_EQ(fault.kind, FaultKind::kIllegalInstruction) << std::hex << imm;
  }
}

}  // namespace
}  // namespace strata::hw::sim::testing
