// The texture unit (TEX, TLD4, TXQ) and the surface instructions (SULD, SUST, SURED);
// encodings in isa/texture.h, sampling in texture_sampler.h.
//
// Each lane's handle (Ra, a 64-bit VA) names a TextureDescriptor read through the warp's
// memory path: a zero or misaligned handle, an unmapped descriptor or a wrong magic
// faults the warp with kUnmapped (cudaErrorIllegalAddress) at the handle. Texel reads
// fault like loads. Surface accesses outside the surface fault at the element's address
// under .trap (kUnmapped), read zeros / drop the store under .zero, and clamp to the
// nearest element under .clamp; an x coordinate (bytes) not aligned to the access size
// faults kMisaligned.
#include <atomic>
#include <cstring>

#include "hw/sim/sm/lanes.h"
#include "hw/sim/sm/ops.h"
#include "hw/sim/sm/stats.h"
#include "hw/sim/sm/texture_sampler.h"

namespace strata::hw::sim {
namespace {

using isa::DataType;
using isa::TexGeom;

// Reads lane l's descriptor; false after raising the fault.
bool load_descriptor(ExecContext& c, uint64_t handle, int lane, TextureDescriptor* d) {
  FaultKind fault = FaultKind::kUnmapped;
  const uint8_t* p = nullptr;
  if (handle != 0 && handle % kDescriptorAlign == 0)
    p = c.worker->tlb.translate(handle, 16, /*write=*/false, &fault);  // 128 bytes, one page
  if (p != nullptr) {
    std::memcpy(d, p, sizeof(TextureDescriptor));
    if (d->magic == kTextureDescriptorMagic) return true;
  }
  raise_fault(c, FaultKind::kUnmapped, handle, lane);
  return false;
}

// Descriptors by handle: lanes almost always share one.
struct DescriptorCache {
  uint64_t handle = 0;
  bool valid = false;
  TextureDescriptor desc{};
  const TextureDescriptor* get(ExecContext& c, uint64_t h, int lane) {
    if (valid && h == handle) return &desc;
    if (!load_descriptor(c, h, lane, &desc)) return nullptr;
    handle = h;
    valid = true;
    return &desc;
  }
};

class LaneMemory final : public TexelMemory {
 public:
  LaneMemory(ExecContext& c, int lane, TexelSectors* sectors)
      : c_(c), lane_(lane), sectors_(sectors) {}
  bool read(uint64_t va, uint32_t bytes, void* out) override {
    sectors_->add(va, bytes);
    FaultKind fault = FaultKind::kNone;
    const uint8_t* p = c_.worker->tlb.translate(va, bytes, /*write=*/false, &fault);
    if (p == nullptr) {
      raise_fault(c_, fault == FaultKind::kNone ? FaultKind::kUnmapped : fault, va, lane_);
      return false;
    }
    std::memcpy(out, p, bytes);
    return true;
  }

 private:
  ExecContext& c_;
  int lane_;
  TexelSectors* sectors_;
};

uint64_t lane_handle(const ExecContext& c, const DecodedInst& in, int l) {
  return lane_get<uint64_t>(c.row(in.a), l);
}

// TEX and TLD4.
template <bool kGather>
void h_tex(ExecContext& c, const DecodedInst& in, uint32_t m) {
  const uint8_t mod = in.inst.mod;
  const TexGeom g = isa::tex_geom(mod);
  const isa::TexLod lod = kGather ? isa::TexLod::kBase : isa::tex_lod(mod);
  const int ncoord = isa::tex_coord_regs(g);
  const uint32_t* b = c.src_b(in);
  const uint32_t* cr = c.row(in.c);
  DescriptorCache cache;
  TexelSectors sectors;
  uint32_t out[4][32];
  for (uint32_t mm = m; mm != 0; mm &= mm - 1) {
    const int l = std::countr_zero(mm);
    const TextureDescriptor* d = cache.get(c, lane_handle(c, in, l), l);
    if (d == nullptr) return;
    TexRequest r;
    r.geom = g;
    r.int_coords = in.inst.type2 == DataType::S32;
    for (int k = 0; k < ncoord; ++k) r.coords[k] = b[k * 32 + l];
    r.lod = lod;
    if (lod == isa::TexLod::kLevel) r.level = std::bit_cast<float>(cr[l]);
    if (lod == isa::TexLod::kGrad) {
      const int n = isa::tex_dims(g) == 1 ? 1 : 2;
      for (int v = 0; v < 2; ++v)
        for (int k = 0; k < n; ++k) r.grad[v][k] = std::bit_cast<float>(cr[(v * n + k) * 32 + l]);
    }
    r.gather_component = kGather ? isa::tex_component(mod) : -1;
    LaneMemory mem(c, l, &sectors);
    uint32_t v[4];
    if (!sample_texture(*d, r, mem, v)) return;
    for (int k = 0; k < 4; ++k) out[k][l] = v[k];
  }
  sectors.finish(c);
  for (int k = 0; k < 4; ++k) lanes_store<uint32_t>(c.row(in.d + k), out[k], m);
}

void h_txq(ExecContext& c, const DecodedInst& in, uint32_t m) {
  const uint32_t* b = c.src_b(in);
  const auto q = static_cast<isa::TexQuery>(in.imm);
  DescriptorCache cache;
  uint32_t out[32] = {};
  for (uint32_t mm = m; mm != 0; mm &= mm - 1) {
    const int l = std::countr_zero(mm);
    const TextureDescriptor* d = cache.get(c, lane_handle(c, in, l), l);
    if (d == nullptr) return;
    out[l] = query_texture(*d, q, b[l]);
  }
  lanes_store<uint32_t>(c.row(in.d), out, m);
}

enum class SurfOp { kLoad, kStore, kReduce };

template <typename T>
T reduce(isa::SuredOp op, bool is_signed, T old, T v) {
  using S = std::make_signed_t<T>;
  switch (op) {
    case isa::SuredOp::kAdd:
      return static_cast<T>(old + v);
    case isa::SuredOp::kMin:
      return is_signed ? (static_cast<S>(v) < static_cast<S>(old) ? v : old) : (v < old ? v : old);
    case isa::SuredOp::kMax:
      return is_signed ? (static_cast<S>(v) > static_cast<S>(old) ? v : old) : (v > old ? v : old);
    case isa::SuredOp::kAnd:
      return old & v;
    case isa::SuredOp::kOr:
      return old | v;
  }
  return old;
}

template <typename T>
void atomic_reduce(uint8_t* p, isa::SuredOp op, bool is_signed, T v) {
  std::atomic_ref<T> ref(*reinterpret_cast<T*>(p));
  T old = ref.load(std::memory_order_relaxed);
  while (!ref.compare_exchange_weak(old, reduce<T>(op, is_signed, old, v),
                                    std::memory_order_relaxed)) {
  }
}

template <SurfOp kOp>
void h_surface(ExecContext& c, const DecodedInst& in, uint32_t m) {
  const uint8_t mod = in.inst.mod;
  const TexGeom g = isa::tex_geom(mod);
  const isa::SurfClamp mode = isa::surf_clamp(mod);
  const uint32_t elem = static_cast<uint32_t>(isa::type_bits(in.inst.type) / 8);
  const int vec = kOp == SurfOp::kReduce ? 1 : isa::surf_vec(mod);
  const uint32_t bytes = elem * static_cast<uint32_t>(vec);
  const int regs = static_cast<int>(elem == 8 ? 2 * vec : vec);
  const uint32_t* b = c.src_b(in);
  const uint32_t* data = c.row(in.c);
  if (kOp != SurfOp::kLoad) ++c.worker->writes;
  DescriptorCache cache;
  uint32_t out[4][32] = {};
  uint64_t addrs[32];
  uint32_t accessed = 0;
  for (uint32_t mm = m; mm != 0; mm &= mm - 1) {
    const int l = std::countr_zero(mm);
    const TextureDescriptor* d = cache.get(c, lane_handle(c, in, l), l);
    if (d == nullptr) return;
    uint32_t coords[4];
    for (int k = 0; k < isa::surf_coord_regs(g); ++k) coords[k] = b[k * 32 + l];
    uint64_t va = 0;
    const SurfAddress where = surface_address(*d, g, mode, coords, bytes, &va);
    if (where == SurfAddress::kSkip) continue;
    if (where == SurfAddress::kOutOfRange || where == SurfAddress::kMisaligned) {
      raise_fault(c,
                  where == SurfAddress::kMisaligned ? FaultKind::kMisaligned : FaultKind::kUnmapped,
                  va, l);
      return;
    }
    FaultKind fault = FaultKind::kNone;
    uint8_t* p = c.worker->tlb.translate(va, bytes, /*write=*/kOp != SurfOp::kLoad, &fault);
    if (p == nullptr) {
      raise_fault(c, fault, va, l);
      return;
    }
    addrs[l] = va;
    accessed |= 1u << l;
    if constexpr (kOp == SurfOp::kLoad) {
      for (int k = 0; k < vec; ++k) {
        uint64_t v = 0;
        std::memcpy(&v, p + k * elem, elem);
        if (elem == 8) {
          out[2 * k][l] = static_cast<uint32_t>(v);
          out[2 * k + 1][l] = static_cast<uint32_t>(v >> 32);
        } else {
          out[k][l] = static_cast<uint32_t>(v);
        }
      }
    } else if constexpr (kOp == SurfOp::kStore) {
      for (int k = 0; k < vec; ++k) {
        uint64_t v = elem == 8 ? (static_cast<uint64_t>(data[(2 * k + 1) * 32 + l]) << 32) |
                                     data[2 * k * 32 + l]
                               : data[k * 32 + l];
        std::memcpy(p + k * elem, &v, elem);
      }
    } else {
      const auto op = isa::sured_op(mod);
      const bool sgn = isa::type_is_signed(in.inst.type);
      if (elem == 8) {
        atomic_reduce<uint64_t>(p, op, sgn, lane_get<uint64_t>(data, l));
      } else {
        atomic_reduce<uint32_t>(p, op, sgn, data[l]);
      }
    }
  }
  // Statistics: surface loads through the texture path, stores and reductions as global.
  if constexpr (kOp == SurfOp::kLoad) {
    TexelSectors sectors;
    for (uint32_t mm = accessed; mm != 0; mm &= mm - 1)
      sectors.add(addrs[std::countr_zero(mm)], bytes);
    sectors.finish(c);
  } else if (accessed != 0) {
    count_global(c, kOp == SurfOp::kStore ? AccessKind::kStore : AccessKind::kAtomic, accessed,
                 addrs, bytes);
  }
  if constexpr (kOp == SurfOp::kLoad) {
    for (int k = 0; k < regs; ++k) lanes_store<uint32_t>(c.row(in.d + k), out[k], m);
  }
}

bool tex_types_ok(const isa::Inst& i) {
  const bool dt = i.type == DataType::F32 || i.type == DataType::S32 || i.type == DataType::U32;
  const bool ct = i.type2 == DataType::F32 || i.type2 == DataType::S32;
  const uint8_t g = i.mod & 7;
  return dt && ct && g >= 1 && g <= 7;
}

bool surface_ok(const isa::Inst& i, bool reduce) {
  const TexGeom g = isa::tex_geom(i.mod);
  if (g == TexGeom::kCube || g == TexGeom::kACube || static_cast<int>(g) == 0) return false;
  if (isa::surf_clamp(i.mod) > isa::SurfClamp::kZero) return false;
  if (reduce) {
    if (isa::sured_op(i.mod) > isa::SuredOp::kOr) return false;
    const int bits = isa::type_bits(i.type);
    return (bits == 32 || bits == 64) && !isa::type_is_float(i.type);
  }
  const int bits = isa::type_bits(i.type);
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64) return false;
  const int vec = isa::surf_vec(i.mod);
  return vec <= 4 && (bits == 64 ? 2 * vec : vec) <= 4;
}

}  // namespace

Handler select_TEX(const isa::Inst& i) {
  if (!tex_types_ok(i) || isa::tex_lod(i.mod) > isa::TexLod::kGrad || (i.mod >> 5) != 0)
    return nullptr;
  if (isa::tex_lod(i.mod) == isa::TexLod::kGrad && isa::tex_dims(isa::tex_geom(i.mod)) == 3)
    return nullptr;
  return &h_tex<false>;
}
Handler select_TLD4(const isa::Inst& i) {
  const TexGeom g = isa::tex_geom(i.mod);
  if (!tex_types_ok(i) ||
      (g != TexGeom::k2D && g != TexGeom::kA2D && g != TexGeom::kCube && g != TexGeom::kACube))
    return nullptr;
  if (isa::tex_lod(i.mod) != isa::TexLod::kBase) return nullptr;
  return &h_tex<true>;
}
Handler select_TXQ(const isa::Inst& i) {
  if (i.imm >= static_cast<uint32_t>(isa::TexQuery::kCount)) return nullptr;
  return &h_txq;
}
Handler select_SULD(const isa::Inst& i) {
  return surface_ok(i, false) ? &h_surface<SurfOp::kLoad> : nullptr;
}
Handler select_SUST(const isa::Inst& i) {
  return surface_ok(i, false) ? &h_surface<SurfOp::kStore> : nullptr;
}
Handler select_SURED(const isa::Inst& i) {
  return surface_ok(i, true) ? &h_surface<SurfOp::kReduce> : nullptr;
}

}  // namespace strata::hw::sim
