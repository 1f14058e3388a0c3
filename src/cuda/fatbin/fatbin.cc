#include "cuda/fatbin/fatbin.h"

#include <fmt/format.h>

#include <cstring>

#include "cuda/fatbin/decompress.h"

namespace strata::cuda::fatbin {
namespace {

template <typename T>
T load(std::span<const uint8_t> bytes, size_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof(T));
  return value;
}

Status invalid(std::string message) { return error(Code::kInvalidImage, std::move(message)); }

// A string field stored at [offset, offset+length) of the entry; trailing NULs and
// spaces (nvcc pads options to 8 bytes) are dropped.
StatusOr<std::string> entry_string(std::span<const uint8_t> entry_header, uint32_t offset,
                                   uint32_t length, const char* what, size_t entry_offset) {
  if (length == 0) return std::string();
  if (uint64_t{offset} + length > entry_header.size()) {
    return invalid(fmt::format("fatbin entry at offset {}: {} [{}, +{}) lies outside the "
                               "{}-byte entry header", entry_offset, what, offset, length,
                               entry_header.size()));
  }
  std::string text(reinterpret_cast<const char*>(entry_header.data() + offset), length);
  text.resize(strnlen(text.data(), text.size()));
  while (!text.empty() && text.back() == ' ') text.pop_back();
  const size_t first = text.find_first_not_of(' ');
  text.erase(0, first == std::string::npos ? text.size() : first);
  return text;
}

StatusOr<Entry> parse_entry(std::span<const uint8_t> entries, size_t offset, size_t* next,
                            size_t image_offset) {
  size_t abs = image_offset + offset;
  if (entries.size() - offset < kMinEntryHeaderSize) {
    return invalid(fmt::format("fatbin entry at offset {}: truncated header ({} bytes left, "
                               "need {})", abs, entries.size() - offset, kMinEntryHeaderSize));
  }
  std::span<const uint8_t> rest = entries.subspan(offset);
  uint32_t header_size = load<uint32_t>(rest, 4);
  uint64_t payload_size = load<uint64_t>(rest, 8);
  if (header_size < kMinEntryHeaderSize || header_size > rest.size()) {
    return invalid(fmt::format("fatbin entry at offset {}: header size {} is invalid", abs,
                               header_size));
  }
  if (payload_size > rest.size() - header_size) {
    return invalid(fmt::format("fatbin entry at offset {}: payload of {} bytes overruns the "
                               "image ({} bytes left)", abs, payload_size,
                               rest.size() - header_size));
  }
  std::span<const uint8_t> header = rest.first(header_size);
  Entry entry;
  entry.kind = load<uint16_t>(header, 0);
  uint32_t compressed_size = load<uint32_t>(header, 16);
  entry.version_minor = load<uint16_t>(header, 24);
  entry.version_major = load<uint16_t>(header, 26);
  entry.arch = static_cast<int>(load<uint32_t>(header, 28));
  uint32_t name_offset = load<uint32_t>(header, 32);
  uint32_t name_length = load<uint32_t>(header, 36);
  entry.flags = load<uint64_t>(header, 40);
  entry.uncompressed_size = load<uint64_t>(header, 56);
  ASSIGN_OR_RETURN(entry.name, entry_string(header, name_offset, name_length, "name", abs));
  const uint32_t options_at = load<uint32_t>(header, 20);
  if (options_at != 0) {
    if (options_at < kMinEntryHeaderSize || options_at % 4 != 0 ||
        uint64_t{options_at} + 8 > header_size) {
      return invalid(fmt::format("fatbin entry at offset {}: options descriptor at {} lies "
                                 "outside the {}-byte entry header", abs, options_at,
                                 header_size));
    }
    uint32_t options_offset = load<uint32_t>(header, options_at);
    uint32_t options_length = load<uint32_t>(header, options_at + 4);
    ASSIGN_OR_RETURN(entry.options,
                     entry_string(header, options_offset, options_length, "options", abs));
  }
  if ((entry.flags & kFlagZstd) && (entry.flags & kFlagLz4)) {
    return invalid(fmt::format("fatbin entry at offset {}: flags {:#x} name both zstd and LZ4 "
                               "compression", abs, entry.flags));
  }
  if (entry.flags & kFlagArchSpecific) entry.variant = ArchVariant::kArchSpecific;
  if (entry.flags & kFlagFamilySpecific) entry.variant = ArchVariant::kFamilySpecific;
  entry.compression = (entry.flags & kFlagZstd)  ? Compression::kZstd
                      : (entry.flags & kFlagLz4) ? Compression::kLz4
                                                 : Compression::kNone;
  uint64_t stored = payload_size;
  if (entry.compression != Compression::kNone) {
    if (compressed_size == 0 || compressed_size > payload_size) {
      return invalid(fmt::format("fatbin entry at offset {}: compressed size {} does not fit "
                                 "the {}-byte payload", abs, compressed_size, payload_size));
    }
    stored = compressed_size;
  }
  entry.payload = rest.subspan(header_size, stored);
  *next = offset + header_size + payload_size;
  return entry;
}

}  // namespace

bool Entry::relocatable() const { return options.find("--compile-only") != std::string::npos; }

bool has_fatbin_magic(std::span<const uint8_t> bytes) {
  return bytes.size() >= 4 && load<uint32_t>(bytes, 0) == kFatbinMagic;
}

StatusOr<size_t> image_size(std::span<const uint8_t> bytes) {
  if (bytes.size() < kImageHeaderSize) {
    return invalid(fmt::format("fatbin image of {} bytes is shorter than its {}-byte header",
                               bytes.size(), kImageHeaderSize));
  }
  uint32_t magic = load<uint32_t>(bytes, 0);
  if (magic != kFatbinMagic) {
    return invalid(fmt::format("bad fatbin magic {:#010x} (expected {:#010x})", magic,
                               kFatbinMagic));
  }
  uint16_t version = load<uint16_t>(bytes, 4);
  uint16_t header_size = load<uint16_t>(bytes, 6);
  uint64_t entries_size = load<uint64_t>(bytes, 8);
  if (version != 1) return invalid(fmt::format("unsupported fatbin version {}", version));
  if (header_size < kImageHeaderSize) {
    return invalid(fmt::format("fatbin header size {} is smaller than {}", header_size,
                               kImageHeaderSize));
  }
  if (entries_size > (uint64_t{1} << 40)) {
    return invalid(fmt::format("fatbin entries size {} is implausible", entries_size));
  }
  return static_cast<size_t>(header_size + entries_size);
}

StatusOr<Image> parse_image(std::span<const uint8_t> bytes) {
  ASSIGN_OR_RETURN(size_t size, image_size(bytes));
  if (size > bytes.size()) {
    return invalid(fmt::format("fatbin image claims {} bytes but only {} are available", size,
                               bytes.size()));
  }
  uint16_t header_size = load<uint16_t>(bytes, 6);
  std::span<const uint8_t> entries = bytes.subspan(header_size, size - header_size);
  Image image;
  image.size = size;
  size_t offset = 0;
  while (offset < entries.size()) {
    size_t next = 0;
    ASSIGN_OR_RETURN(Entry entry, parse_entry(entries, offset, &next, header_size));
    image.entries.push_back(std::move(entry));
    offset = next;
  }
  return image;
}

StatusOr<std::vector<Image>> parse_images(std::span<const uint8_t> bytes) {
  std::vector<Image> images;
  size_t offset = 0;
  while (offset < bytes.size()) {
    if (bytes[offset] == 0) {  // alignment padding between images
      ++offset;
      continue;
    }
    auto image = parse_image(bytes.subspan(offset));
    if (!image.ok()) {
      return invalid(fmt::format("image at offset {}: {}", offset, image.status().message()));
    }
    offset += image->size;
    images.push_back(std::move(image).value());
  }
  if (images.empty()) return invalid("no fatbin image found");
  return images;
}

StatusOr<std::vector<uint8_t>> decompressed_payload(const Entry& entry) {
  switch (entry.compression) {
    case Compression::kNone:
      return std::vector<uint8_t>(entry.payload.begin(), entry.payload.end());
    case Compression::kZstd:
      return zstd_decompress(entry.payload, entry.uncompressed_size);
    case Compression::kLz4:
      return lz4_block_decompress(entry.payload, entry.uncompressed_size);
  }
  return invalid("unknown compression");
}

StatusOr<std::string> ptx_text(const Entry& entry) {
  if (!entry.is_ptx()) {
    return invalid(fmt::format("fatbin entry {} is not PTX (kind {})", target_name(entry),
                               entry.kind));
  }
  ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, decompressed_payload(entry));
  std::string text(bytes.begin(), bytes.end());
  text.resize(strnlen(text.data(), text.size()));
  return text;
}

std::string target_name(const Entry& entry) {
  const char* prefix = entry.is_ptx() ? "compute_" : "sm_";
  const char* suffix = entry.variant == ArchVariant::kArchSpecific     ? "a"
                       : entry.variant == ArchVariant::kFamilySpecific ? "f"
                                                                       : "";
  return fmt::format("{}{}{}", prefix, entry.arch, suffix);
}

}  // namespace strata::cuda::fatbin
