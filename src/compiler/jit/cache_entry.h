// The on-disk format of one JIT cache entry (see cache.h for the layout).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"

namespace strata::jit {

inline constexpr size_t kEntryHeaderSize = 56;
inline constexpr uint32_t kEntryFormatVersion = 1;

// Header + payload, ready to be written.
std::vector<uint8_t> encode_entry(std::span<const uint8_t> payload);

// The payload of a complete, intact entry; kInvalidImage naming the defect (bad magic,
// version, length or checksum) otherwise.
StatusOr<std::vector<uint8_t>> decode_entry(std::span<const uint8_t> file);

}  // namespace strata::jit
