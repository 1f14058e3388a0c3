// TextureObject: a texture or surface object (CUtexObject, CUsurfObject). Its handle is
// the device VA of the hw::TextureDescriptor the driver writes for it (one
// kDescriptorAlign-aligned device allocation per object, hw/contract/texture.h); the
// object keeps the user's descriptors for the getters and holds the array it samples
// alive until it is destroyed.
//
// Validation (cuTexObjectCreate, cuSurfObjectCreate), all kInvalidValue unless noted:
//  - resource: flags 0; ARRAY / MIPMAPPED_ARRAY need a live handle of the current
//    context; LINEAR needs devPtr aligned to CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, at most
//    MAXIMUM_TEXTURE1D_LINEAR_WIDTH texels, inside one allocation; PITCH2D needs the same
//    alignment, pitch a multiple of TEXTURE_PITCH_ALIGNMENT, at least width * texel bytes
//    and at most MAXIMUM_TEXTURE2D_LINEAR_PITCH, width/height within the 2D linear
//    limits; formats as for arrays (packed ones kNotSupported), 1, 2 or 4 channels;
//  - texture: address and filter modes in range, known flags, linear filtering only of
//    float formats or 8/16-bit integers read as normalized floats;
//  - a non-null resource view is honoured only when it is the identity view of the
//    resource (same format, extents, all levels and layers); otherwise kNotSupported
//    with a log line;
//  - surfaces: resource type ARRAY with an array created with CUDA_ARRAY3D_SURFACE_LDST.
// Thread-safe.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <memory>

#include "base/status.h"
#include "hw/contract/texture.h"

namespace strata::cuda::driver {

class Array;
class Context;
class MipmappedArray;

struct TextureObject {
  bool surface = false;
  std::shared_ptr<Context> context;
  CUDA_RESOURCE_DESC resource{};
  CUDA_TEXTURE_DESC texture{};  // zero for surfaces
  bool has_view = false;
  CUDA_RESOURCE_VIEW_DESC view{};
  std::shared_ptr<Array> array;               // ARRAY resources
  std::shared_ptr<MipmappedArray> mipmapped;  // MIPMAPPED_ARRAY resources
  hw::TextureDescriptor descriptor{};         // what was written at `va`
  uint64_t va = 0;                            // the handle

  ~TextureObject();  // frees the descriptor memory
};

// Validates, writes the descriptor into `ctx`'s memory and registers the object.
// `texture` is null for surfaces.
StatusOr<std::shared_ptr<TextureObject>> create_texture_object(const std::shared_ptr<Context>& ctx,
                                                               const CUDA_RESOURCE_DESC& resource,
                                                               const CUDA_TEXTURE_DESC* texture,
                                                               const CUDA_RESOURCE_VIEW_DESC* view,
                                                               bool surface);

// The live texture (surface = false) or surface object with this handle, or
// kInvalidValue (CUDA reports unknown texture/surface handles as invalid values).
StatusOr<std::shared_ptr<TextureObject>> resolve_texture_object(uint64_t handle, bool surface);
Status destroy_texture_object(uint64_t handle, bool surface);
// Destroys every texture and surface object of `context` (cuCtxDestroy, primary reset).
void forget_texture_objects(const Context* context);

}  // namespace strata::cuda::driver
