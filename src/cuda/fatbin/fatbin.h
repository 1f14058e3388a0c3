// Fatbin images: the container nvcc embeds in host binaries (section .nv_fatbin) and
// that cuModuleLoadData/cuModuleLoadFatBinary accept.
//
// Layout (little-endian; observed from CUDA 13 nvcc/fatbinary output):
//
//   image header (16 bytes)
//     u32 magic = 0xBA55ED50   u16 version = 1   u16 header_size = 16
//     u64 entries_size          (bytes of all entries that follow the header)
//   entries, back to back, each:
//     +0  u16 kind (1 PTX, 2 ELF/cubin)   +2 u16 entry version (0x0101)
//     +4  u32 entry header size (64, 80 or more)
//     +8  u64 payload size (padded; the payload follows the entry header)
//     +16 u32 compressed size (0 when not compressed)
//     +20 u32 options descriptor offset (relative to the entry start; 0: none): a u32
//         options offset and a u32 options length there (PTX entries: 64 in the plain
//         80-byte header, later when a name precedes it)
//     +24 u16 minor, u16 major (PTX ISA version for PTX entries, e.g. 9.0)
//     +28 u32 arch (e.g. 80 for sm_80 / compute_80)
//     +32 u32 name offset, +36 u32 name length (relative to the entry start; the
//         source file with -lineinfo, else 0 and 0)
//     +40 u64 flags (see kFlag*)
//     +48 u64 reserved
//     +56 u64 uncompressed size (0 when not compressed)
//     then the strings the name and options fields point at (options: e.g.
//     "--compile-only" for relocatable -rdc=true PTX, "--generate-line-info" with
//     -lineinfo; nvcc pads them with spaces)
//
// Several images may follow each other (8-byte aligned) in one .nv_fatbin section.
//
// Everything here is pure computation on caller-supplied bytes: thread-safe, no global
// state. Malformed input gives Code::kInvalidImage, never a crash or an out-of-bounds
// read; all returned views point into the caller's buffer and live as long as it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"

namespace strata::cuda::fatbin {

inline constexpr uint32_t kFatbinMagic = 0xBA55ED50;
inline constexpr size_t kImageHeaderSize = 16;
inline constexpr size_t kMinEntryHeaderSize = 64;

inline constexpr uint64_t kFlag64Bit = 0x1;
inline constexpr uint64_t kFlagLinux = 0x10;
inline constexpr uint64_t kFlagLz4 = 0x2000;    // LZ4 block compression (older toolkits, "speed")
inline constexpr uint64_t kFlagZstd = 0x8000;   // zstd frame (CUDA 13 default)
inline constexpr uint64_t kFlagArchSpecific = 0x100000;    // sm_XXa / compute_XXa
inline constexpr uint64_t kFlagFamilySpecific = 0x200000;  // sm_XXf / compute_XXf

enum class EntryKind : uint16_t { kPtx = 1, kElf = 2 };

enum class Compression { kNone, kZstd, kLz4 };

// Whether code built for this target runs only on the exact architecture ('a') or on
// its family ('f'), or is generic (forward compatible, PTX only).
enum class ArchVariant { kGeneric, kArchSpecific, kFamilySpecific };

struct Entry {
  uint16_t kind = 0;         // EntryKind value; other kinds are kept and ignored
  int arch = 0;              // e.g. 80 for sm_80, 100 for sm_100f
  ArchVariant variant = ArchVariant::kGeneric;
  int version_major = 0;     // PTX ISA version for PTX entries
  int version_minor = 0;
  uint64_t flags = 0;
  std::string name;
  std::string options;       // e.g. "--compile-only" for relocatable PTX
  Compression compression = Compression::kNone;
  uint64_t uncompressed_size = 0;  // 0 when not compressed
  std::span<const uint8_t> payload;  // stored (possibly compressed) bytes

  bool is_ptx() const { return kind == static_cast<uint16_t>(EntryKind::kPtx); }
  bool is_elf() const { return kind == static_cast<uint16_t>(EntryKind::kElf); }
  bool relocatable() const;  // options contain --compile-only
};

struct Image {
  std::vector<Entry> entries;
  size_t size = 0;  // bytes of the image: header plus entries
};

// True if `bytes` starts with the fatbin magic.
bool has_fatbin_magic(std::span<const uint8_t> bytes);

// Size in bytes of the image whose header starts `bytes` (needs only the 16-byte header).
// Lets callers that hold only a pointer (the runtime's registration ABI) bound the image.
StatusOr<size_t> image_size(std::span<const uint8_t> bytes);

// Parses the image at the start of `bytes` (which may extend past it).
StatusOr<Image> parse_image(std::span<const uint8_t> bytes);

// Parses all back-to-back images of a region such as a .nv_fatbin section; zero padding
// between images is skipped.
StatusOr<std::vector<Image>> parse_images(std::span<const uint8_t> bytes);

// The payload, decompressed. ELF payloads are returned whole; PTX payloads likewise
// (use ptx_text for the text).
StatusOr<std::vector<uint8_t>> decompressed_payload(const Entry& entry);

// The PTX text of a PTX entry, up to its first NUL.
StatusOr<std::string> ptx_text(const Entry& entry);

// "sm_80", "compute_90a", "sm_100f", ...
std::string target_name(const Entry& entry);

}  // namespace strata::cuda::fatbin
