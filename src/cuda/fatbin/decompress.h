// Decompression of fatbin payloads. Both functions require the exact decompressed size
// recorded in the entry header and fail with Code::kInvalidImage when the compressed
// bytes are corrupt or decode to a different size. Thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/status.h"

namespace strata::cuda::fatbin {

// Largest decompressed payload accepted (guards allocations driven by untrusted sizes).
inline constexpr uint64_t kMaxDecompressedSize = uint64_t{1} << 31;

// A zstd frame (CUDA 13's default fatbin compression).
StatusOr<std::vector<uint8_t>> zstd_decompress(std::span<const uint8_t> compressed,
                                               uint64_t decompressed_size);

// A raw LZ4 block without frame header (fatbinary's "speed" mode and older toolkits).
StatusOr<std::vector<uint8_t>> lz4_block_decompress(std::span<const uint8_t> compressed,
                                                    uint64_t decompressed_size);

}  // namespace strata::cuda::fatbin
