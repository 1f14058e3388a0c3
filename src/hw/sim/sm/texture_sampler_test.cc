// The texture unit's pure functions (texture_sampler.h) on descriptors and texels held in
// host memory. Whole-instruction behaviour is checked by the PTX conformance cases
// (tests/ptx/conformance/kernel_texture.cc) and the CUDA texture tests.
#include "hw/sim/sm/texture_sampler.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <map>
#include <vector>

namespace strata::hw::sim {
namespace {

using isa::SurfClamp;
using isa::TexGeom;

// Device memory as a map from VA to bytes; reads outside it fail.
class FakeMemory final : public TexelMemory {
 public:
  uint64_t place(const std::vector<uint8_t>& bytes) {
    const uint64_t va = next_;
    for (size_t i = 0; i < bytes.size(); ++i) bytes_[va + i] = bytes[i];
    next_ += (bytes.size() + 4095) / 4096 * 4096;
    return va;
  }
  bool read(uint64_t va, uint32_t n, void* out) override {
    auto* p = static_cast<uint8_t*>(out);
    for (uint32_t i = 0; i < n; ++i) {
      auto it = bytes_.find(va + i);
      if (it == bytes_.end()) {
        faulted_at = va;
        return false;
      }
      p[i] = it->second;
    }
    return true;
  }
  uint64_t faulted_at = 0;

 private:
  std::map<uint64_t, uint8_t> bytes_;
  uint64_t next_ = 0x10000;
};

TextureDescriptor desc(uint8_t kind, uint8_t format, uint8_t channels, uint32_t w, uint32_t h,
                       uint32_t layers = 1) {
  TextureDescriptor d{};
  d.magic = kTextureDescriptorMagic;
  d.kind = kind;
  d.format = format;
  d.channels = channels;
  d.levels = 1;
  d.width = w;
  d.height = h;
  d.depth = 1;
  d.layers = layers;
  d.row_pitch =
      array_level_layout(w, h, 1, layers, channels * texel_format_bytes(format), 0).row_pitch;
  for (auto& m : d.address_mode) m = kAddressClamp;
  return d;
}

uint32_t f(float v) {
  return std::bit_cast<uint32_t>(v);
}

TEST(TextureSampler, GeometryMustMatchTheDescriptor) {
  EXPECT_TRUE(geometry_matches(kKind1D, TexGeom::k1D));
  EXPECT_TRUE(geometry_matches(kKindBuffer, TexGeom::k1D));
  EXPECT_FALSE(geometry_matches(kKindBuffer, TexGeom::k2D));
  EXPECT_FALSE(geometry_matches(kKind2D, TexGeom::kA2D));
  EXPECT_TRUE(geometry_matches(kKindCubeLayered, TexGeom::kACube));
}

TEST(TextureSampler, UnmappedTexelsFail) {
  FakeMemory mem;
  TextureDescriptor d = desc(kKind2D, kFormatF32, 1, 4, 4);
  d.base_va = 0x900000;  // nothing there
  TexRequest r;
  r.coords[0] = f(1.5f);
  r.coords[1] = f(1.5f);
  uint32_t out[4];
  EXPECT_FALSE(sample_texture(d, r, mem, out));
  EXPECT_EQ(mem.faulted_at, 0x900000u + 1 * d.row_pitch + 4);
}

TEST(TextureSampler, LinearFilteringUsesEightBitWeights) {
  // 1D texture {0, 256}: at x = 1 + 1/3, x_B = 0.8333..., whose weight 0.8333 * 256 =
  // 213.33 rounds to 213/256: the result is 213, not 213.33.
  FakeMemory mem;
  TextureDescriptor d = desc(kKind1D, kFormatF32, 1, 2, 1);
  std::vector<float> texels = {0.0f, 256.0f};
  std::vector<uint8_t> bytes(texels.size() * 4);
  std::memcpy(bytes.data(), texels.data(), bytes.size());
  d.base_va = mem.place(bytes);
  d.filter_mode = kFilterLinear;
  TexRequest r;
  r.geom = TexGeom::k1D;
  r.coords[0] = f(1.0f + 1.0f / 3.0f);
  uint32_t out[4];
  ASSERT_TRUE(sample_texture(d, r, mem, out));
  EXPECT_EQ(std::bit_cast<float>(out[0]), 213.0f);
  EXPECT_EQ(std::bit_cast<float>(out[3]), 1.0f);  // a missing alpha reads 1
}

TEST(TextureSampler, QueriesFollowTheLevel) {
  TextureDescriptor d = desc(kKindCubeLayered, kFormatU8, 4, 64, 64, 18);
  d.levels = 7;
  EXPECT_EQ(query_texture(d, isa::TexQuery::kWidth, 0), 64u);
  EXPECT_EQ(query_texture(d, isa::TexQuery::kWidth, 3), 8u);
  EXPECT_EQ(query_texture(d, isa::TexQuery::kHeight, 40), 1u);
  EXPECT_EQ(query_texture(d, isa::TexQuery::kArraySize, 0), 3u);  // cubes
  EXPECT_EQ(query_texture(d, isa::TexQuery::kNumMipmapLevels, 0), 7u);
  EXPECT_EQ(query_texture(d, isa::TexQuery::kChannelOrder, 0), 0x10B5u);  // CL_RGBA
}

TEST(TextureSampler, SurfaceAddressing) {
  TextureDescriptor d = desc(kKind2D, kFormatU32, 1, 4, 3);  // rows of 16 bytes, pitch 128
  d.base_va = 0x20000;
  uint64_t va = 0;
  const uint32_t in[4] = {8, 2, 0, 0};
  ASSERT_EQ(surface_address(d, TexGeom::k2D, SurfClamp::kTrap, in, 4, &va), SurfAddress::kInRange);
  EXPECT_EQ(va, 0x20000u + 2 * 128 + 8);
  const uint32_t out_x[4] = {16, 1, 0, 0};
  EXPECT_EQ(surface_address(d, TexGeom::k2D, SurfClamp::kTrap, out_x, 4, &va),
            SurfAddress::kOutOfRange);
  EXPECT_EQ(va, 0x20000u + 128 + 16);  // the unclamped element
  EXPECT_EQ(surface_address(d, TexGeom::k2D, SurfClamp::kZero, out_x, 4, &va), SurfAddress::kSkip);
  ASSERT_EQ(surface_address(d, TexGeom::k2D, SurfClamp::kClamp, out_x, 4, &va),
            SurfAddress::kInRange);
  EXPECT_EQ(va, 0x20000u + 128 + 12);
  // An 8-byte access clamps to the last whole 8 bytes of the row.
  ASSERT_EQ(surface_address(d, TexGeom::k2D, SurfClamp::kClamp, out_x, 8, &va),
            SurfAddress::kInRange);
  EXPECT_EQ(va, 0x20000u + 128 + 8);
  const uint32_t odd[4] = {6, 0, 0, 0};
  EXPECT_EQ(surface_address(d, TexGeom::k2D, SurfClamp::kClamp, odd, 4, &va),
            SurfAddress::kMisaligned);
  EXPECT_EQ(surface_address(d, TexGeom::kA2D, SurfClamp::kTrap, in, 4, &va), SurfAddress::kSkip);
}

}  // namespace
}  // namespace strata::hw::sim
