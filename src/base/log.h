// Logging. Level from STRATA_LOG (error|warn|info|debug; default warn). Lines go to
// stderr as "strata: <level>: <message>". Thread-safe.
#pragma once

#include <fmt/format.h>

#include <string_view>

namespace strata {

enum class LogLevel : int { kError = 0, kWarn = 1, kInfo = 2, kDebug = 3 };

LogLevel log_level();
bool log_enabled(LogLevel level);
void log_line(LogLevel level, std::string_view message);

template <typename... Args>
void log(LogLevel level, fmt::format_string<Args...> format, Args&&... args) {
  if (!log_enabled(level)) return;
  log_line(level, fmt::format(format, std::forward<Args>(args)...));
}

}  // namespace strata

#define STRATA_LOG_ERROR(...) ::strata::log(::strata::LogLevel::kError, __VA_ARGS__)
#define STRATA_LOG_WARN(...) ::strata::log(::strata::LogLevel::kWarn, __VA_ARGS__)
#define STRATA_LOG_INFO(...) ::strata::log(::strata::LogLevel::kInfo, __VA_ARGS__)
#define STRATA_LOG_DEBUG(...) ::strata::log(::strata::LogLevel::kDebug, __VA_ARGS__)
