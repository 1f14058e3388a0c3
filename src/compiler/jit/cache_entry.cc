#include "compiler/jit/cache_entry.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "compiler/jit/sha256.h"

namespace strata::jit {
namespace {

constexpr uint8_t kMagic[8] = {'S', 'T', 'R', 'J', 'I', 'T', 'C', 0};

void put_le(uint8_t* out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out[i] = static_cast<uint8_t>(value >> (8 * i));
}

uint64_t get_le(const uint8_t* in, int bytes) {
  uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) value |= uint64_t{in[i]} << (8 * i);
  return value;
}

}  // namespace

std::vector<uint8_t> encode_entry(std::span<const uint8_t> payload) {
  std::vector<uint8_t> out(kEntryHeaderSize + payload.size());
  std::memcpy(out.data(), kMagic, 8);
  put_le(out.data() + 8, kEntryFormatVersion, 4);
  put_le(out.data() + 12, 0, 4);
  put_le(out.data() + 16, payload.size(), 8);
  Sha256::Digest digest = sha256(payload);
  std::copy(digest.begin(), digest.end(), out.begin() + 24);
  std::copy(payload.begin(), payload.end(), out.begin() + kEntryHeaderSize);
  return out;
}

StatusOr<std::vector<uint8_t>> decode_entry(std::span<const uint8_t> file) {
  if (file.size() < kEntryHeaderSize) {
    return error(Code::kInvalidImage, fmt::format("truncated header ({} bytes)", file.size()));
  }
  if (std::memcmp(file.data(), kMagic, 8) != 0) return error(Code::kInvalidImage, "bad magic");
  uint64_t version = get_le(file.data() + 8, 4);
  if (version != kEntryFormatVersion) {
    return error(Code::kInvalidImage, fmt::format("unsupported format version {}", version));
  }
  uint64_t length = get_le(file.data() + 16, 8);
  if (length != file.size() - kEntryHeaderSize) {
    return error(Code::kInvalidImage, fmt::format("payload length {} but {} bytes present", length,
                                                  file.size() - kEntryHeaderSize));
  }
  std::span<const uint8_t> payload = file.subspan(kEntryHeaderSize);
  Sha256::Digest digest = sha256(payload);
  if (!std::equal(digest.begin(), digest.end(), file.begin() + 24)) {
    return error(Code::kInvalidImage, "payload checksum mismatch");
  }
  return std::vector<uint8_t>(payload.begin(), payload.end());
}

}  // namespace strata::jit
