#include "compiler/jit/cache_key.h"

#include <cstdint>

#include "compiler/jit/sha256.h"

namespace strata::jit {
namespace {

void put_u64(Sha256* hasher, uint64_t value) {
  uint8_t bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<uint8_t>(value >> (8 * i));
  hasher->update(std::span<const uint8_t>(bytes, 8));
}

void put_field(Sha256* hasher, std::string_view field) {
  put_u64(hasher, field.size());
  hasher->update(field);
}

}  // namespace

std::string make_cache_key(std::span<const std::string> ptx_texts, std::string_view compiler_build_id,
                           std::string_view arch_config_hash, std::string_view options) {
  Sha256 hasher;
  put_field(&hasher, "strata-jit-cache-key-v1");
  put_u64(&hasher, ptx_texts.size());
  for (const std::string& text : ptx_texts) put_field(&hasher, text);
  put_field(&hasher, compiler_build_id);
  put_field(&hasher, arch_config_hash);
  put_field(&hasher, options);
  Sha256::Digest digest = hasher.finish();
  return to_hex(digest);
}

}  // namespace strata::jit
