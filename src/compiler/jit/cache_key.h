// JIT cache keys: what a compiled binary depends on, hashed.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace strata::jit {

// Lowercase hex SHA-256 (64 characters) over an unambiguous encoding of the inputs:
// a domain tag, then every field as <u64 little-endian length><bytes>, with the number
// of PTX texts first. Any change to any input, including moving bytes between inputs,
// changes the key. Pure; thread-safe.
std::string make_cache_key(std::span<const std::string> ptx_texts, std::string_view compiler_build_id,
                           std::string_view arch_config_hash, std::string_view options);

}  // namespace strata::jit
