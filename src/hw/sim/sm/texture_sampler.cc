#include "hw/sim/sm/texture_sampler.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "hw/sim/sm/float_util.h"

namespace strata::hw::sim {
namespace {

using isa::TexGeom;

// One texel after format conversion: four floats, or four 32-bit integers.
struct Texel {
  float f[4] = {0, 0, 0, 0};
  uint32_t i[4] = {0, 0, 0, 0};
};

bool reads_float(const TextureDescriptor& d) {
  switch (d.format) {
    case kFormatF16:
    case kFormatF32:
      return true;
    case kFormatU32:
    case kFormatS32:
      return false;
    default:
      return (d.flags & kFlagReadAsInteger) == 0;
  }
}

float srgb_to_linear(float c) {
  return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
}

// Level geometry: extents and pitches of mip level `level`.
struct Level {
  uint64_t base = 0;
  uint32_t w = 1, h = 1, depth = 1;
  uint64_t row_pitch = 0, slice_pitch = 0, layer_pitch = 0;
};

uint32_t texel_bytes(const TextureDescriptor& d) {
  return static_cast<uint32_t>(d.channels) * texel_format_bytes(d.format);
}

Level level_of(const TextureDescriptor& d, uint32_t level) {
  Level l;
  const uint32_t e = texel_bytes(d);
  if (level == 0) {
    l.base = d.base_va;
    l.w = d.width;
    l.h = d.height;
    l.depth = d.depth;
    l.row_pitch = d.row_pitch ? d.row_pitch : uint64_t{d.width} * e;
    l.slice_pitch = l.row_pitch * l.h;
    l.layer_pitch = l.slice_pitch * l.depth;
    return l;
  }
  const ArrayLevelLayout a =
      array_level_layout(d.width, d.height, d.depth, std::max<uint32_t>(d.layers, 1), e, level);
  l.base = d.base_va + a.offset;
  l.w = a.width;
  l.h = a.height;
  l.depth = a.depth;
  l.row_pitch = a.row_pitch;
  l.slice_pitch = a.slice_pitch;
  l.layer_pitch = a.layer_pitch;
  return l;
}

class Sampler {
 public:
  Sampler(const TextureDescriptor& d, TexelMemory& mem)
      : d_(d), mem_(mem), float_(reads_float(d)) {}

  // The texel at integer indices (already addressed), or the border colour.
  bool fetch(const Level& lv, int64_t x, int64_t y, int64_t z, uint32_t layer, bool border,
             Texel* t) {
    if (border) {
      for (int c = 0; c < 4; ++c) {
        t->i[c] = d_.border_color[c];
        t->f[c] = std::bit_cast<float>(d_.border_color[c]);
      }
      return true;
    }
    const uint32_t cb = texel_format_bytes(d_.format);
    const uint64_t va =
        lv.base + layer * lv.layer_pitch + static_cast<uint64_t>(z) * lv.slice_pitch +
        static_cast<uint64_t>(y) * lv.row_pitch + static_cast<uint64_t>(x) * cb * d_.channels;
    uint8_t raw[16] = {};
    if (!mem_.read(va, cb * d_.channels, raw)) return false;
    for (int c = 0; c < 4; ++c) {
      if (c >= d_.channels) {
        const bool alpha = c == 3;
        t->f[c] = alpha ? 1.0f : 0.0f;
        t->i[c] = alpha ? 1u : 0u;
        continue;
      }
      const uint8_t* p = raw + c * cb;
      uint32_t u = 0;
      std::memcpy(&u, p, cb);
      switch (d_.format) {
        case kFormatU8:
          t->i[c] = u;
          t->f[c] = static_cast<float>(u) / 255.0f;
          break;
        case kFormatU16:
          t->i[c] = u;
          t->f[c] = static_cast<float>(u) / 65535.0f;
          break;
        case kFormatS8: {
          const int32_t s = static_cast<int8_t>(u);
          t->i[c] = static_cast<uint32_t>(s);
          t->f[c] = std::max(static_cast<float>(s) / 127.0f, -1.0f);
          break;
        }
        case kFormatS16: {
          const int32_t s = static_cast<int16_t>(u);
          t->i[c] = static_cast<uint32_t>(s);
          t->f[c] = std::max(static_cast<float>(s) / 32767.0f, -1.0f);
          break;
        }
        case kFormatF16:
          t->f[c] = f16_to_f32(static_cast<uint16_t>(u));
          break;
        case kFormatF32:
          t->f[c] = std::bit_cast<float>(u);
          break;
        default:
          t->i[c] = u;
          break;  // U32, S32
      }
      if ((d_.flags & kFlagSrgb) && d_.format == kFormatU8 && float_ && c < 3)
        t->f[c] = srgb_to_linear(t->f[c]);
    }
    return true;
  }

  // Texel index i of a dimension of size n under address mode `mode`; false: border.
  bool address(int64_t i, uint32_t n, uint8_t mode, int64_t* out) const {
    const int64_t nn = n;
    const bool normalized = (d_.flags & kFlagNormalizedCoords) != 0;
    if (!normalized && (mode == kAddressWrap || mode == kAddressMirror)) mode = kAddressClamp;
    if (cube_) mode = kAddressClamp;  // cubemap faces clamp at their edges (no seamless filtering)
    switch (mode) {
      case kAddressWrap:
        *out = ((i % nn) + nn) % nn;
        return true;
      case kAddressMirror: {
        const int64_t m = ((i % (2 * nn)) + 2 * nn) % (2 * nn);
        *out = m < nn ? m : 2 * nn - 1 - m;
        return true;
      }
      case kAddressBorder:
        *out = i;
        return i >= 0 && i < nn;
      default:
        *out = std::clamp<int64_t>(i, 0, nn - 1);
        return true;
    }
  }

  // Samples level `level` at unnormalized coordinates u[0..dims) (or integer ones).
  bool sample_level(uint32_t level, const double* u, const int64_t* iu, bool int_coords, int dims,
                    uint32_t layer, bool linear, Texel* out) {
    const Level lv = level_of(d_, level);
    const uint32_t size[3] = {lv.w, lv.h, lv.depth};
    int64_t base[3] = {0, 0, 0};
    double w[3] = {0, 0, 0};
    for (int k = 0; k < dims; ++k) {
      if (int_coords) {
        base[k] = iu[k];
      } else if (linear) {
        const double xb = u[k] - 0.5;
        const double fl = std::floor(xb);
        base[k] = static_cast<int64_t>(fl);
        w[k] = std::nearbyint((xb - fl) * 256.0) / 256.0;  // 9-bit fixed point, 8 fraction bits
      } else {
        base[k] = static_cast<int64_t>(std::floor(u[k]));
      }
    }
    const int corners = linear ? 1 << dims : 1;
    double acc[4] = {0, 0, 0, 0};
    for (int corner = 0; corner < corners; ++corner) {
      int64_t idx[3] = {0, 0, 0};
      bool border = false;
      double weight = 1.0;
      for (int k = 0; k < dims; ++k) {
        const int bit = (corner >> k) & 1;
        if (linear) weight *= bit ? w[k] : 1.0 - w[k];
        const int64_t i = base[k] + bit;
        if (d_.kind == kKindBuffer) {
          idx[k] = i;
          border |= i < 0 || i >= size[k];
        } else {
          border |= !address(i, size[k], d_.address_mode[k], &idx[k]);
        }
      }
      Texel t;
      if (d_.kind == kKindBuffer && border) {
        t = Texel{};  // tex1Dfetch outside the buffer reads zeros
      } else if (!fetch(lv, idx[0], idx[1], idx[2], layer, border, &t)) {
        return false;
      }
      if (!linear) {
        *out = t;
        return true;
      }
      for (int c = 0; c < 4; ++c) acc[c] += weight * t.f[c];
    }
    for (int c = 0; c < 4; ++c) out->f[c] = static_cast<float>(acc[c]);
    return true;
  }

  const TextureDescriptor& d_;
  TexelMemory& mem_;
  const bool float_;
  bool cube_ = false;
};

// Cubemap face and face coordinates in [0, 1] (CUDA Programming Guide, "Cubemap
// Textures": face by the major axis, then (s/m + 1)/2, (t/m + 1)/2).
void cube_face(float x, float y, float z, uint32_t* face, double* s_out, double* t_out) {
  const float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  double m, s, t;
  if (ax >= ay && ax >= az) {
    m = ax;
    *face = x >= 0 ? 0 : 1;
    s = x >= 0 ? -z : z;
    t = -y;
  } else if (ay >= az) {
    m = ay;
    *face = y >= 0 ? 2 : 3;
    s = x;
    t = y >= 0 ? z : -z;
  } else {
    m = az;
    *face = z >= 0 ? 4 : 5;
    s = z >= 0 ? x : -x;
    t = -y;
  }
  if (m == 0) m = 1;
  *s_out = (s / m + 1.0) / 2.0;
  *t_out = (t / m + 1.0) / 2.0;
}

}  // namespace

bool geometry_matches(uint8_t kind, TexGeom g) {
  if (g == TexGeom::k1D) return kind == kKind1D || kind == kKindBuffer;
  return kind == static_cast<uint8_t>(g);
}

bool sample_texture(const TextureDescriptor& d, const TexRequest& r, TexelMemory& mem,
                    uint32_t out[4]) {
  for (int c = 0; c < 4; ++c) out[c] = 0;
  if (!geometry_matches(d.kind, r.geom)) return true;
  Sampler smp(d, mem);
  const TexGeom g = r.geom;
  const int dims = isa::tex_dims(g);
  const bool layered = isa::tex_layered(g);
  const bool cube = g == TexGeom::kCube || g == TexGeom::kACube;
  smp.cube_ = cube;
  const bool normalized = cube || (d.flags & kFlagNormalizedCoords) != 0;
  // Coordinates after the layer index (isa/texture.h).
  const int first = layered ? 1 : 0;
  uint32_t layer = 0;
  if (layered) {
    const uint32_t count = g == TexGeom::kACube ? std::max<uint32_t>(d.layers / 6, 1)
                                                : std::max<uint32_t>(d.layers, 1);
    layer = std::min(r.coords[0], count - 1);
  }
  double nc[3] = {0, 0, 0};  // coordinates in the texture's space (normalized or texels)
  int64_t ic[3] = {0, 0, 0};
  int sdims = dims;  // dimensions sampled (cubes: the face's 2)
  if (cube) {
    uint32_t face;
    cube_face(std::bit_cast<float>(r.coords[first]), std::bit_cast<float>(r.coords[first + 1]),
              std::bit_cast<float>(r.coords[first + 2]), &face, &nc[0], &nc[1]);
    layer = layer * 6 + face;
    sdims = 2;
  } else {
    for (int k = 0; k < dims; ++k) {
      nc[k] = std::bit_cast<float>(r.coords[first + k]);
      ic[k] = static_cast<int32_t>(r.coords[first + k]);
    }
  }
  const bool int_coords = r.int_coords && !cube;
  const bool linear =
      d.filter_mode == kFilterLinear && reads_float(d) && !int_coords && d.kind != kKindBuffer;

  // Level of detail.
  const uint32_t levels = std::max<uint32_t>(d.levels, 1);
  double lambda = 0;
  if (r.lod == isa::TexLod::kLevel) lambda = r.level;
  if (r.lod == isa::TexLod::kGrad) {
    const double size[3] = {double(d.width), double(d.height), double(d.depth)};
    double len[2] = {0, 0};
    for (int v = 0; v < 2; ++v) {
      for (int k = 0; k < sdims; ++k) {
        const double s = (normalized ? size[k] : 1.0) * r.grad[v][k];
        len[v] += s * s;
      }
      len[v] = std::sqrt(len[v]);
    }
    const double rho = std::max(len[0], len[1]);
    lambda = rho > 0 ? std::log2(rho) : -1e30;
  }
  uint32_t lvl0 = 0, lvl1 = 0;
  double mip_w = 0;
  if (levels > 1 && r.lod != isa::TexLod::kBase) {
    lambda += d.mip_bias;
    lambda = std::max<double>(lambda, d.min_mip_clamp);
    lambda = std::min<double>(lambda, d.max_mip_clamp);
    lambda = std::clamp<double>(lambda, 0.0, levels - 1.0);
    if (d.mip_filter_mode == kFilterLinear && reads_float(d)) {
      lvl0 = static_cast<uint32_t>(std::floor(lambda));
      mip_w = lambda - lvl0;
      lvl1 = std::min(lvl0 + 1, levels - 1);
    } else {
      lvl0 = lvl1 = static_cast<uint32_t>(std::floor(lambda + 0.5));
    }
  }

  auto at_level = [&](uint32_t level, Texel* t) {
    const Level lv = level_of(d, level);
    const uint32_t size[3] = {lv.w, lv.h, lv.depth};
    double u[3];
    for (int k = 0; k < sdims; ++k) u[k] = normalized ? nc[k] * size[k] : nc[k];
    return smp.sample_level(level, u, ic, int_coords, sdims, layer, linear, t);
  };

  if (r.gather_component >= 0) {
    // tld4: the 2x2 footprint of bilinear filtering at level 0, counter-clockwise from
    // the lower left: (i, j+1), (i+1, j+1), (i+1, j), (i, j).
    const Level lv = level_of(d, 0);
    const uint32_t size[3] = {lv.w, lv.h, 1};
    int64_t base[2];
    for (int k = 0; k < 2; ++k) {
      const double u = normalized ? nc[k] * size[k] : nc[k];
      base[k] = static_cast<int64_t>(std::floor(u - 0.5));
    }
    static constexpr int kOrder[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};
    const bool fl = reads_float(d);
    for (int q = 0; q < 4; ++q) {
      int64_t idx[2];
      bool border = false;
      for (int k = 0; k < 2; ++k)
        border |= !smp.address(base[k] + kOrder[q][k], size[k], d.address_mode[k], &idx[k]);
      Texel t;
      if (!smp.fetch(lv, idx[0], idx[1], 0, layer, border, &t)) return false;
      const int c = r.gather_component;
      out[q] = fl ? std::bit_cast<uint32_t>(t.f[c]) : t.i[c];
    }
    return true;
  }

  Texel t0, t1;
  if (!at_level(lvl0, &t0)) return false;
  if (mip_w > 0 && lvl1 != lvl0) {
    if (!at_level(lvl1, &t1)) return false;
    for (int c = 0; c < 4; ++c)
      t0.f[c] = static_cast<float>((1.0 - mip_w) * t0.f[c] + mip_w * t1.f[c]);
  }
  const bool fl = reads_float(d);
  for (int c = 0; c < 4; ++c) out[c] = fl ? std::bit_cast<uint32_t>(t0.f[c]) : t0.i[c];
  return true;
}

uint32_t query_texture(const TextureDescriptor& d, isa::TexQuery q, uint32_t level) {
  auto shrink = [level](uint32_t v) { return level >= 32 || (v >> level) == 0 ? 1u : v >> level; };
  const bool layered =
      d.kind == kKind1DLayered || d.kind == kKind2DLayered || d.kind == kKindCubeLayered;
  switch (q) {
    case isa::TexQuery::kWidth:
      return shrink(d.width);
    case isa::TexQuery::kHeight:
      return shrink(d.height);
    case isa::TexQuery::kDepth:
      return shrink(d.depth);
    case isa::TexQuery::kChannelDataType: {
      // OpenCL cl_channel_type values.
      const bool normalized = (d.flags & kFlagReadAsInteger) == 0;
      switch (d.format) {
        case kFormatU8:
          return normalized ? 0x10D2 : 0x10DA;  // CL_UNORM_INT8 / CL_UNSIGNED_INT8
        case kFormatU16:
          return normalized ? 0x10D3 : 0x10DB;  // CL_UNORM_INT16 / CL_UNSIGNED_INT16
        case kFormatS8:
          return normalized ? 0x10D0 : 0x10D7;  // CL_SNORM_INT8 / CL_SIGNED_INT8
        case kFormatS16:
          return normalized ? 0x10D1 : 0x10D8;  // CL_SNORM_INT16 / CL_SIGNED_INT16
        case kFormatU32:
          return 0x10DC;  // CL_UNSIGNED_INT32
        case kFormatS32:
          return 0x10D9;  // CL_SIGNED_INT32
        case kFormatF16:
          return 0x10DD;  // CL_HALF_FLOAT
        default:
          return 0x10DE;  // CL_FLOAT
      }
    }
    case isa::TexQuery::kChannelOrder:  // CL_R, CL_RG, CL_RGBA
      return d.channels == 1 ? 0x10B0 : d.channels == 2 ? 0x10B2 : 0x10B5;
    case isa::TexQuery::kNormalizedCoords:
      return (d.flags & kFlagNormalizedCoords) ? 1 : 0;
    case isa::TexQuery::kFilterMode:
      return d.filter_mode;
    case isa::TexQuery::kAddrMode0:
      return d.address_mode[0];
    case isa::TexQuery::kAddrMode1:
      return d.address_mode[1];
    case isa::TexQuery::kAddrMode2:
      return d.address_mode[2];
    case isa::TexQuery::kArraySize:
      if (!layered) return 0;
      return d.kind == kKindCubeLayered ? d.layers / 6 : d.layers;
    case isa::TexQuery::kNumMipmapLevels:
      return d.levels;
    case isa::TexQuery::kNumSamples:
      return 0;
    case isa::TexQuery::kMemoryLayout:
      return 1;
    default:
      return 0;
  }
}

SurfAddress surface_address(const TextureDescriptor& d, TexGeom g, isa::SurfClamp mode,
                            const uint32_t coords[4], uint32_t bytes, uint64_t* va) {
  if (!geometry_matches(d.kind, g) || g == TexGeom::kCube || g == TexGeom::kACube)
    return SurfAddress::kSkip;
  const bool layered = isa::tex_layered(g);
  const int dims = isa::tex_dims(g);
  const int first = layered ? 1 : 0;
  int64_t c[3] = {0, 0, 0};
  for (int k = 0; k < dims; ++k) c[k] = static_cast<int32_t>(coords[first + k]);
  int64_t layer = layered ? static_cast<int64_t>(coords[0]) : 0;
  const uint32_t e = texel_bytes(d);
  const Level lv = level_of(d, 0);
  const int64_t row_bytes = d.kind == kKindBuffer ? int64_t{d.width} * e : int64_t{lv.w} * e;
  const int64_t limit[3] = {row_bytes - bytes, int64_t{lv.h} - 1, int64_t{lv.depth} - 1};
  const int64_t layers = std::max<uint32_t>(d.layers, 1);
  bool out = layer < 0 || layer >= layers;
  for (int k = 0; k < dims; ++k) out |= c[k] < 0 || c[k] > limit[k];
  auto address = [&] {
    return lv.base + static_cast<uint64_t>(layer) * lv.layer_pitch +
           static_cast<uint64_t>(c[2]) * lv.slice_pitch +
           static_cast<uint64_t>(c[1]) * lv.row_pitch + static_cast<uint64_t>(c[0]);
  };
  if (c[0] % bytes != 0) {
    *va = address();
    return SurfAddress::kMisaligned;
  }
  if (!out) {
    *va = address();
    return SurfAddress::kInRange;
  }
  switch (mode) {
    case isa::SurfClamp::kTrap:
      *va = address();
      return SurfAddress::kOutOfRange;
    case isa::SurfClamp::kZero:
      return SurfAddress::kSkip;
    case isa::SurfClamp::kClamp:
      if (limit[0] < 0) return SurfAddress::kSkip;  // the access is wider than a row
      for (int k = 0; k < dims; ++k) c[k] = std::clamp<int64_t>(c[k], 0, limit[k]);
      c[0] -= c[0] % bytes;
      layer = std::clamp<int64_t>(layer, 0, layers - 1);
      *va = address();
      return SurfAddress::kInRange;
  }
  return SurfAddress::kSkip;
}

}  // namespace strata::hw::sim
