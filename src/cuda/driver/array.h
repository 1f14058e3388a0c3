// Array / MipmappedArray: CUDA arrays (CUarray, CUmipmappedArray) in device memory, laid
// out per hw/contract/texture.h ("Strata linear array layout") so that the texture unit
// reads them directly.
//
// An Array is one mip level of its storage: a plain array owns its allocation (level 0
// of a one-level layout); cuMipmappedArrayGetLevel returns an Array that views level l
// of a MipmappedArray and shares its storage (it stays valid while the mipmapped array
// lives; destroying the level handle is not allowed, as in CUDA).
//
// Descriptor rules (cuArray3DCreate): Width >= 1; Height == 0 means 1D, Depth == 0 means
// no third dimension; CUDA_ARRAY3D_LAYERED makes Depth the layer count (1D layered:
// Height 0); CUDA_ARRAY3D_CUBEMAP needs Width == Height and Depth == 6 (layered: a
// multiple of 6); NumChannels 1, 2 or 4; Format one of the eight plain formats
// (hw::TexelFormat); extents within the device's maximum texture/surface dimensions.
// Anything else is kInvalidValue; packed/compressed formats are kNotSupported.
// Thread-safe (immutable after creation).
#pragma once

#include <cuda.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "base/status.h"
#include "hw/contract/texture.h"

namespace strata::cuda::driver {

class Context;
struct ArrayStorage;  // array.cc: the allocation and geometry shared by all levels

// Geometry shared by every level: what the texture unit needs (hw::TextureDescriptor).
struct ArrayGeometry {
  hw::TextureKind kind = hw::kKind1D;  // kKind1D..kKindCubeLayered (never kKindBuffer)
  hw::TexelFormat format = hw::kFormatU8;
  uint32_t channels = 1;
  uint32_t width = 1, height = 1, depth = 1;  // level 0; 1 where absent
  uint32_t layers = 1;                        // hw layers (cubemaps: 6 per cube)
  uint32_t levels = 1;
  uint32_t texel_bytes() const { return channels * hw::texel_format_bytes(format); }
};

class Array {
 public:
  CUarray handle() { return reinterpret_cast<CUarray>(this); }
  Context& context() const;
  // The user's descriptor (cuArray3DGetDescriptor), for this level.
  const CUDA_ARRAY3D_DESCRIPTOR& descriptor() const;
  const ArrayGeometry& geometry() const;  // of the whole storage (all levels)
  uint32_t level() const;                 // 0 for a plain array
  // Layout of this array's level and the VA of its texel (0,0,0) of layer 0.
  hw::ArrayLevelLayout layout() const;
  uint64_t va() const;
  // VA of the storage's level 0 (the TextureDescriptor base for the whole mip chain).
  uint64_t storage_va() const;

  // Driver-internal (not used by the texture unit). The CUDA_ARRAY3D_* flags of the
  // storage; true for a level of a mipmapped array (not destroyable by cuArrayDestroy).
  unsigned int flags() const;
  bool is_level_view() const { return level_view_; }
  // Extent of this level as a copy sees it: rows per slice and slices (3D depth or
  // layer count, 1 otherwise); the width in bytes is layout().width * texel_bytes().
  uint32_t copy_slices() const;

  Array(std::shared_ptr<ArrayStorage> storage, uint32_t level, bool level_view);

 private:
  std::shared_ptr<ArrayStorage> storage_;
  uint32_t level_;
  bool level_view_;
  CUDA_ARRAY3D_DESCRIPTOR descriptor_;
  hw::ArrayLevelLayout layout_;
};

class MipmappedArray {
 public:
  CUmipmappedArray handle() { return reinterpret_cast<CUmipmappedArray>(this); }
  Context& context() const;
  const ArrayGeometry& geometry() const;
  uint64_t storage_va() const;
  // The Array viewing level `level` (kInvalidValue past the last level).
  StatusOr<std::shared_ptr<Array>> level(uint32_t level);

  // Driver-internal: the level-0 descriptor, and the live level views (unregistered by
  // cuMipmappedArrayDestroy).
  const CUDA_ARRAY3D_DESCRIPTOR& descriptor() const;
  std::vector<std::shared_ptr<Array>> level_views();

  explicit MipmappedArray(std::shared_ptr<ArrayStorage> storage);

 private:
  std::shared_ptr<ArrayStorage> storage_;
  std::mutex mutex_;
  std::vector<std::shared_ptr<Array>> levels_;  // created on demand, one per level
};

// cuArray3DCreate / cuMipmappedArrayCreate: validates `desc` (rules above; for mipmapped
// arrays `levels` is clamped to [1, 1 + floor(log2(largest extent))]), allocates the
// storage in `ctx` (it counts in cuMemGetInfo) and registers the handle. The storage
// is freed when the last reference (handle, level view, texture object) goes away.
StatusOr<std::shared_ptr<Array>> create_array(const std::shared_ptr<Context>& ctx,
                                              const CUDA_ARRAY3D_DESCRIPTOR& desc);
StatusOr<std::shared_ptr<MipmappedArray>> create_mipmapped_array(
    const std::shared_ptr<Context>& ctx, const CUDA_ARRAY3D_DESCRIPTOR& desc, uint32_t levels);
// Unregisters the handle: kInvalidHandle when it is not live or (destroy_array) is a
// level view of a mipmapped array. Destroying a mipmapped array unregisters its level
// views too.
Status destroy_array(CUarray handle);
Status destroy_mipmapped_array(CUmipmappedArray handle);

// The hw::TexelFormat of a CUarray_format: kInvalidValue for values cuda.h does not
// define, kNotSupported for packed, planar and block-compressed formats.
StatusOr<hw::TexelFormat> texel_format(CUarray_format format, const char* api);

// Live handles (kInvalidHandle when not live). The result stays valid while held.
StatusOr<std::shared_ptr<Array>> resolve_array(CUarray handle);
StatusOr<std::shared_ptr<MipmappedArray>> resolve_mipmapped_array(CUmipmappedArray handle);

}  // namespace strata::cuda::driver
