#include "cuda/fatbin/decompress.h"

#include <fmt/format.h>
#include <lz4.h>
#include <zstd.h>

#include <limits>

namespace strata::cuda::fatbin {
namespace {

Status check_size(uint64_t decompressed_size, const char* codec) {
  if (decompressed_size == 0 || decompressed_size > kMaxDecompressedSize) {
    return error(Code::kInvalidImage,
                 fmt::format("{} payload: decompressed size {} is out of range (1..{})", codec,
                             decompressed_size, kMaxDecompressedSize));
  }
  return ok_status();
}

}  // namespace

StatusOr<std::vector<uint8_t>> zstd_decompress(std::span<const uint8_t> compressed,
                                               uint64_t decompressed_size) {
  RETURN_IF_ERROR(check_size(decompressed_size, "zstd"));
  // Check the size the frame records before allocating what the entry header claims.
  unsigned long long frame_size = ZSTD_getFrameContentSize(compressed.data(), compressed.size());
  if (frame_size == ZSTD_CONTENTSIZE_ERROR) {
    return error(Code::kInvalidImage, "zstd payload does not start with a valid frame");
  }
  if (frame_size != ZSTD_CONTENTSIZE_UNKNOWN && frame_size != decompressed_size) {
    return error(Code::kInvalidImage,
                 fmt::format("zstd frame holds {} bytes, entry header says {}", frame_size,
                             decompressed_size));
  }
  std::vector<uint8_t> out(decompressed_size);
  size_t result = ZSTD_decompress(out.data(), out.size(), compressed.data(), compressed.size());
  if (ZSTD_isError(result)) {
    return error(Code::kInvalidImage,
                 fmt::format("zstd payload is corrupt: {}", ZSTD_getErrorName(result)));
  }
  if (result != decompressed_size) {
    return error(Code::kInvalidImage,
                 fmt::format("zstd payload decompressed to {} bytes, header says {}", result,
                             decompressed_size));
  }
  return out;
}

StatusOr<std::vector<uint8_t>> lz4_block_decompress(std::span<const uint8_t> compressed,
                                                    uint64_t decompressed_size) {
  RETURN_IF_ERROR(check_size(decompressed_size, "LZ4"));
  if (compressed.size() > static_cast<size_t>(std::numeric_limits<int>::max())) {
    return error(Code::kInvalidImage, "LZ4 payload is too large");
  }
  // An LZ4 block expands at most ~255:1; larger claims are corrupt headers.
  if (decompressed_size > compressed.size() * uint64_t{255} + 16) {
    return error(Code::kInvalidImage,
                 fmt::format("LZ4 payload of {} bytes cannot decompress to {} bytes",
                             compressed.size(), decompressed_size));
  }
  std::vector<uint8_t> out(decompressed_size);
  int result = LZ4_decompress_safe(reinterpret_cast<const char*>(compressed.data()),
                                   reinterpret_cast<char*>(out.data()),
                                   static_cast<int>(compressed.size()),
                                   static_cast<int>(out.size()));
  if (result < 0) {
    return error(Code::kInvalidImage,
                 fmt::format("LZ4 payload is corrupt (decoder error {})", result));
  }
  if (static_cast<uint64_t>(result) != decompressed_size) {
    return error(Code::kInvalidImage,
                 fmt::format("LZ4 payload decompressed to {} bytes, header says {}", result,
                             decompressed_size));
  }
  return out;
}

}  // namespace strata::cuda::fatbin
