#include "base/log.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "base/check.h"

namespace strata {
namespace {

LogLevel parse_level() {
  const char* env = std::getenv("STRATA_LOG");
  if (env == nullptr) return LogLevel::kWarn;
  std::string_view v(env);
  if (v == "error") return LogLevel::kError;
  if (v == "info") return LogLevel::kInfo;
  if (v == "debug") return LogLevel::kDebug;
  return LogLevel::kWarn;
}

const char* level_name(LogLevel level) {
  switch (level) {
    case LogLevel::kError: return "error";
    case LogLevel::kWarn: return "warning";
    case LogLevel::kInfo: return "info";
    case LogLevel::kDebug: return "debug";
  }
  return "?";
}

std::mutex& log_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

LogLevel log_level() {
  static const LogLevel level = parse_level();
  return level;
}

bool log_enabled(LogLevel level) { return static_cast<int>(level) <= static_cast<int>(log_level()); }

void log_line(LogLevel level, std::string_view message) {
  std::lock_guard<std::mutex> lock(log_mutex());
  std::fprintf(stderr, "strata: %s: %.*s\n", level_name(level), static_cast<int>(message.size()),
               message.data());
}

namespace detail {
[[noreturn]] void check_failed(const char* file, int line, const char* expr, const char* msg) {
  std::fprintf(stderr, "strata: internal error: %s:%d: CHECK(%s) failed %s\n", file, line, expr, msg);
  std::abort();
}
}  // namespace detail

}  // namespace strata
