// JitCache: a persistent, size-bounded cache of compiled binaries on disk, keyed by
// make_cache_key() (cache_key.h).
//
// Contract:
// - Directory: given explicitly, or from_environment(): $STRATA_CACHE_DIR, else
//   $HOME/.cache/strata. Created on first store. Size bound: STRATA_CACHE_MAX_BYTES
//   (decimal bytes, default 1 GiB); after each store the least-recently-used entries
//   (by mtime; a hit touches the entry) are evicted until the total fits.
// - Entry file "<key>.sjc": a 56-byte header (magic "STRJITC\0", u32 format version,
//   u32 reserved, u64 payload length, 32-byte SHA-256 of the payload; little-endian)
//   then the payload. Written to a unique temporary file in the same directory and
//   renamed into place, so readers never see a partial entry. A corrupt, truncated or
//   foreign entry is a miss: it is deleted and a warning logged.
// - Failures of the file system are never errors for the user: an unusable directory
//   disables the cache with one warning, and I/O errors on one entry are misses.
//   The only errors are for bad arguments (a key that is not 1-128 characters of
//   [0-9a-z_-]): kInvalidValue.
// - Thread-safe, and safe with other processes using the same directory (atomic
//   renames; concurrent eviction tolerates entries vanishing).
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"
#include "compiler/jit/cache_key.h"

namespace strata::jit {

class JitCache {
 public:
  static constexpr uint64_t kDefaultMaxBytes = uint64_t{1} << 30;

  // An empty `directory` makes a disabled cache (every lookup misses, stores do nothing).
  explicit JitCache(std::filesystem::path directory, uint64_t max_bytes = kDefaultMaxBytes);

  // Directory and size bound from the environment (see above). If neither
  // STRATA_CACHE_DIR nor HOME is set the cache is disabled. A malformed
  // STRATA_CACHE_MAX_BYTES is warned about and the default used.
  static JitCache from_environment();

  const std::filesystem::path& directory() const { return directory_; }
  uint64_t max_bytes() const { return max_bytes_; }
  bool enabled() const { return !directory_.empty() && !disabled_.load(); }

  // The payload stored under `key`, or nullopt on a miss.
  StatusOr<std::optional<std::vector<uint8_t>>> lookup(const std::string& key);

  // Stores `bytes` under `key`, replacing any previous entry. A payload larger than
  // max_bytes() is not stored.
  Status store(const std::string& key, std::span<const uint8_t> bytes);

 private:
  std::filesystem::path entry_path(const std::string& key) const;
  void disable(const std::string& why);
  void evict();

  std::filesystem::path directory_;
  uint64_t max_bytes_;
  std::atomic<bool> disabled_{false};
};

}  // namespace strata::jit
