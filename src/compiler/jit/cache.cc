#include "compiler/jit/cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <thread>

#include "base/log.h"
#include "compiler/jit/cache_entry.h"

namespace strata::jit {
namespace fs = std::filesystem;
namespace {

constexpr std::string_view kEntrySuffix = ".sjc";
constexpr std::string_view kTempPrefix = ".tmp-";
// Temporary files older than this are leftovers of a crashed writer.
constexpr auto kStaleTempAge = std::chrono::hours(1);

bool valid_key(const std::string& key) {
  if (key.empty() || key.size() > 128) return false;
  return std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '_' || c == '-';
  });
}

// Reads a whole file; nullopt if it does not exist or cannot be read.
std::optional<std::vector<uint8_t>> read_file(const fs::path& path, int* error_number) {
  *error_number = 0;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error_number = errno;
    return std::nullopt;
  }
  std::vector<uint8_t> data;
  uint8_t chunk[65536];
  while (true) {
    ssize_t n = ::read(fd, chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      *error_number = errno;
      ::close(fd);
      return std::nullopt;
    }
    if (n == 0) break;
    data.insert(data.end(), chunk, chunk + n);
  }
  ::close(fd);
  return data;
}

bool write_all(int fd, const uint8_t* data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

std::string unique_temp_name(const std::string& key) {
  static std::atomic<uint64_t> counter{0};
  size_t thread_hash = std::hash<std::thread::id>()(std::this_thread::get_id());
  return fmt::format("{}{}-{}-{:x}-{}", kTempPrefix, key, ::getpid(), thread_hash, counter.fetch_add(1));
}

}  // namespace

JitCache::JitCache(fs::path directory, uint64_t max_bytes)
    : directory_(std::move(directory)), max_bytes_(max_bytes) {}

JitCache JitCache::from_environment() {
  fs::path directory;
  const char* dir = std::getenv("STRATA_CACHE_DIR");
  const char* home = std::getenv("HOME");
  if (dir && *dir) directory = dir;
  else if (home && *home) directory = fs::path(home) / ".cache" / "strata";
  uint64_t max_bytes = kDefaultMaxBytes;
  if (const char* limit = std::getenv("STRATA_CACHE_MAX_BYTES"); limit && *limit) {
    std::string_view text(limit);
    uint64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec == std::errc() && end == text.data() + text.size()) {
      max_bytes = value;
    } else {
      STRATA_LOG_WARN("STRATA_CACHE_MAX_BYTES='{}' is not a byte count; using {}", text, max_bytes);
    }
  }
  return JitCache(std::move(directory), max_bytes);
}

fs::path JitCache::entry_path(const std::string& key) const {
  return directory_ / (key + std::string(kEntrySuffix));
}

void JitCache::disable(const std::string& why) {
  if (!disabled_.exchange(true)) {
    STRATA_LOG_WARN("JIT cache disabled: {} (directory '{}'); kernels will be recompiled", why,
                    directory_.string());
  }
}

StatusOr<std::optional<std::vector<uint8_t>>> JitCache::lookup(const std::string& key) {
  if (!valid_key(key)) return error(Code::kInvalidValue, fmt::format("invalid JIT cache key '{}'", key));
  if (!enabled()) return std::optional<std::vector<uint8_t>>();
  fs::path path = entry_path(key);
  int error_number = 0;
  std::optional<std::vector<uint8_t>> file = read_file(path, &error_number);
  if (!file) {
    if (error_number != ENOENT && error_number != ENOTDIR) {
      STRATA_LOG_WARN("JIT cache: cannot read '{}': {}", path.string(), std::strerror(error_number));
    }
    return std::optional<std::vector<uint8_t>>();
  }
  StatusOr<std::vector<uint8_t>> payload = decode_entry(*file);
  if (!payload.ok()) {
    STRATA_LOG_WARN("JIT cache: dropping corrupt entry '{}': {}", path.string(), payload.status().message());
    std::error_code ignored;
    fs::remove(path, ignored);
    return std::optional<std::vector<uint8_t>>();
  }
  // Touch: the entry becomes the most recently used for eviction.
  ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
  return std::optional<std::vector<uint8_t>>(std::move(payload).value());
}

Status JitCache::store(const std::string& key, std::span<const uint8_t> bytes) {
  if (!valid_key(key)) return error(Code::kInvalidValue, fmt::format("invalid JIT cache key '{}'", key));
  if (!enabled()) return ok_status();
  if (bytes.size() + kEntryHeaderSize > max_bytes_) {
    STRATA_LOG_DEBUG("JIT cache: {}-byte entry exceeds the {}-byte bound; not stored", bytes.size(), max_bytes_);
    return ok_status();
  }
  std::error_code ec;
  fs::create_directories(directory_, ec);
  if (ec) {
    disable(fmt::format("cannot create the directory: {}", ec.message()));
    return ok_status();
  }
  std::vector<uint8_t> entry = encode_entry(bytes);
  fs::path temp = directory_ / unique_temp_name(key);
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    disable(fmt::format("cannot create a file: {}", std::strerror(errno)));
    return ok_status();
  }
  bool written = write_all(fd, entry.data(), entry.size());
  int saved_errno = errno;
  bool closed = ::close(fd) == 0;
  if (!written || !closed) {
    ::unlink(temp.c_str());
    // A full disk is transient and affects one entry; do not disable the cache for it.
    STRATA_LOG_WARN("JIT cache: cannot write '{}': {}", temp.string(), std::strerror(saved_errno));
    return ok_status();
  }
  if (::rename(temp.c_str(), entry_path(key).c_str()) != 0) {
    saved_errno = errno;
    ::unlink(temp.c_str());
    disable(fmt::format("cannot rename an entry into place: {}", std::strerror(saved_errno)));
    return ok_status();
  }
  evict();
  return ok_status();
}

// Deletes least-recently-used entries until the total size fits max_bytes_, and stale
// temporary files. Other processes may be evicting too: vanished files are skipped.
void JitCache::evict() {
  struct Entry {
    fs::path path;
    uint64_t size;
    fs::file_time_type mtime;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::error_code ec;
  auto now = fs::file_time_type::clock::now();
  for (fs::directory_iterator it(directory_, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code entry_ec;
    std::string name = it->path().filename().string();
    fs::file_time_type mtime = it->last_write_time(entry_ec);
    if (entry_ec) continue;
    if (name.starts_with(kTempPrefix)) {
      if (now - mtime > kStaleTempAge) fs::remove(it->path(), entry_ec);
      continue;
    }
    if (!name.ends_with(kEntrySuffix)) continue;
    uint64_t size = it->file_size(entry_ec);
    if (entry_ec) continue;
    entries.push_back({it->path(), size, mtime});
    total += size;
  }
  if (total <= max_bytes_) return;
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.mtime < b.mtime; });
  for (const Entry& entry : entries) {
    if (total <= max_bytes_) break;
    std::error_code remove_ec;
    fs::remove(entry.path, remove_ec);
    total -= entry.size;
    STRATA_LOG_DEBUG("JIT cache: evicted '{}' ({} bytes)", entry.path.string(), entry.size);
  }
}

}  // namespace strata::jit
