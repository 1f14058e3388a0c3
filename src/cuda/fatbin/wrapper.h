// The fatbin wrapper (__fatBinC_Wrapper_t, fatbinary_section.h) that nvcc-generated host
// code passes to __cudaRegisterFatBinary, and recognising in-memory module images.
//
//   version 1: data = the fatbin image of one translation unit.
//   version 2: (-rdc=true, emitted by crt/link.stub) data = the device-linked image
//              (nvlink output; may hold no PTX), filename_or_fatbins = NULL-terminated
//              array of pointers to each object's relocatable fatbin (section
//              __nv_relfatbin), whose PTX must be compiled together and linked.
//
// The caller vouches that the pointers given here point at readable memory (they come
// from the application's own data); contents are validated and bounded by the image
// headers, never trusted beyond that.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/status.h"

namespace strata::cuda::fatbin {

inline constexpr uint32_t kWrapperMagic = 0x466243B1;
inline constexpr size_t kMaxImageSize = size_t{1} << 32;  // sanity bound: 4 GiB
inline constexpr size_t kMaxRelocatableImages = 1 << 16;

struct Wrapper {
  int version = 0;
  std::span<const uint8_t> image;                     // bounded by its own header
  std::vector<std::span<const uint8_t>> relocatable;  // version 2 only
};

// Reads a __fatBinC_Wrapper_t. Errors: kInvalidImage (bad magic, unknown version, null
// or malformed image header).
StatusOr<Wrapper> read_wrapper(const void* wrapper);

enum class ModuleImageKind { kFatbin, kWrapper, kElf, kPtx };

// Classifies a cuModuleLoadData-style pointer by its first bytes: a fatbin image, a
// fatbin wrapper, an ELF, otherwise NUL-terminated PTX text.
ModuleImageKind classify_module_image(const void* image);

// The bytes of a fatbin image given only its address, bounded by its header.
StatusOr<std::span<const uint8_t>> image_at(const void* image);

}  // namespace strata::cuda::fatbin
