// SHA-256 (FIPS 180-4), used for JIT cache keys and entry checksums.
//
// Incremental: update() any number of times, then finish() once. Not thread-safe per
// object; independent objects may be used concurrently.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace strata::jit {

class Sha256 {
 public:
  using Digest = std::array<uint8_t, 32>;

  Sha256();
  void update(std::span<const uint8_t> bytes);
  void update(std::string_view text);
  // Returns the digest. The object must not be used afterwards (CHECKed).
  Digest finish();

 private:
  void compress(const uint8_t* block);

  std::array<uint32_t, 8> state_;
  std::array<uint8_t, 64> buffer_{};
  size_t buffered_ = 0;
  uint64_t total_bytes_ = 0;
  bool finished_ = false;
};

Sha256::Digest sha256(std::span<const uint8_t> bytes);
std::string to_hex(std::span<const uint8_t> bytes);  // lowercase
std::string sha256_hex(std::string_view text);

}  // namespace strata::jit
