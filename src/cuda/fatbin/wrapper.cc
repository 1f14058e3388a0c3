#include "cuda/fatbin/wrapper.h"

#include <fmt/format.h>

#include <cstring>

#include "cuda/fatbin/fatbin.h"

namespace strata::cuda::fatbin {
namespace {

struct RawWrapper {  // mirrors __fatBinC_Wrapper_t (fatbinary_section.h) on LP64
  int32_t magic;
  int32_t version;
  const void* data;
  const void* filename_or_fatbins;
};

}  // namespace

StatusOr<std::span<const uint8_t>> image_at(const void* image) {
  if (image == nullptr) return error(Code::kInvalidImage, "fatbin image pointer is null");
  const auto* bytes = static_cast<const uint8_t*>(image);
  ASSIGN_OR_RETURN(size_t size, image_size(std::span<const uint8_t>(bytes, kImageHeaderSize)));
  if (size > kMaxImageSize) {
    return error(Code::kInvalidImage, fmt::format("fatbin image of {} bytes is too large", size));
  }
  return std::span<const uint8_t>(bytes, size);
}

StatusOr<Wrapper> read_wrapper(const void* wrapper) {
  if (wrapper == nullptr) return error(Code::kInvalidImage, "fatbin wrapper pointer is null");
  RawWrapper raw;
  std::memcpy(&raw, wrapper, sizeof(raw));
  if (static_cast<uint32_t>(raw.magic) != kWrapperMagic) {
    return error(Code::kInvalidImage,
                 fmt::format("bad fatbin wrapper magic {:#010x} (expected {:#010x})",
                             static_cast<uint32_t>(raw.magic), kWrapperMagic));
  }
  if (raw.version != 1 && raw.version != 2) {
    return error(Code::kInvalidImage,
                 fmt::format("unsupported fatbin wrapper version {}", raw.version));
  }
  Wrapper out;
  out.version = raw.version;
  ASSIGN_OR_RETURN(out.image, image_at(raw.data));
  if (raw.version == 2 && raw.filename_or_fatbins != nullptr) {
    const auto* list = static_cast<const void* const*>(raw.filename_or_fatbins);
    for (size_t i = 0; list[i] != nullptr; ++i) {
      if (i == kMaxRelocatableImages) {
        return error(Code::kInvalidImage, "fatbin wrapper lists too many relocatable images");
      }
      auto image = image_at(list[i]);
      if (!image.ok()) {
        return error(Code::kInvalidImage, fmt::format("relocatable fatbin {}: {}", i,
                                                      image.status().message()));
      }
      out.relocatable.push_back(*image);
    }
  }
  return out;
}

ModuleImageKind classify_module_image(const void* image) {
  // None of the magics contains a zero byte, so comparing byte by byte never reads past
  // the NUL that ends a short PTX string.
  const auto* bytes = static_cast<const uint8_t*>(image);
  auto starts_with = [bytes](uint32_t magic) {
    for (int i = 0; i < 4; ++i) {
      if (bytes[i] != static_cast<uint8_t>(magic >> (8 * i))) return false;
    }
    return true;
  };
  if (starts_with(kFatbinMagic)) return ModuleImageKind::kFatbin;
  if (starts_with(kWrapperMagic)) return ModuleImageKind::kWrapper;
  if (starts_with(0x464c457f)) return ModuleImageKind::kElf;  // "\x7fELF"
  return ModuleImageKind::kPtx;
}

}  // namespace strata::cuda::fatbin
