#include "blas/lt_log.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <ctime>
#include <mutex>
#include <string>

namespace strata::blas {
namespace {

constexpr int kMaxLevel = 5;

int mask_of_level(int level) {
  return (1 << level) - 1;
}

struct Logger {
  std::mutex mu;
  std::atomic<int> mask{0};
  bool disabled = false;
  cublasLtLoggerCallback_t callback = nullptr;
  FILE* file = nullptr;
  bool owns_file = false;
};

void replace_file(Logger& l, FILE* file, bool owns) {
  if (l.owns_file && l.file != nullptr) std::fclose(l.file);
  l.file = file;
  l.owns_file = owns;
}

// "%i" in a log file name is the process id.
std::string expand_path(const char* path) {
  std::string out(path);
  for (size_t at = out.find("%i"); at != std::string::npos; at = out.find("%i", at)) {
    const std::string pid = std::to_string(::getpid());
    out.replace(at, 2, pid);
    at += pid.size();
  }
  return out;
}

// The logger, configured from the environment on first use.
Logger& logger() {
  static Logger* l = [] {
    auto* l = new Logger;  // never destroyed: logging may run in static destructors
    int mask = 0;
    if (const char* level = std::getenv("CUBLASLT_LOG_LEVEL")) {
      const int v = std::atoi(level);
      if (v > 0 && v <= kMaxLevel) mask = mask_of_level(v);
    }
    if (const char* m = std::getenv("CUBLASLT_LOG_MASK")) mask = std::atoi(m);
    l->mask = mask;
    if (const char* path = std::getenv("CUBLASLT_LOG_FILE")) {
      if (FILE* f = std::fopen(expand_path(path).c_str(), "w")) replace_file(*l, f, true);
    }
    return l;
  }();
  return *l;
}

const char* level_name(int level) {
  switch (level) {
    case kLtLogError:
      return "Error";
    case kLtLogTrace:
      return "Trace";
    case kLtLogHints:
      return "Hints";
    case kLtLogHeuristics:
      return "Heuristics";
    case kLtLogApi:
      return "Api";
  }
  return "?";
}

}  // namespace

bool lt_log_enabled(int level) {
  if (level < 1 || level > kMaxLevel) return false;
  return (logger().mask.load(std::memory_order_relaxed) & (1 << (level - 1))) != 0;
}

void lt_log_line(int level, const char* function, std::string_view message) {
  Logger& l = logger();
  const std::string text(message);
  cublasLtLoggerCallback_t callback = nullptr;
  {
    std::lock_guard<std::mutex> lock(l.mu);
    if (l.disabled) return;
    callback = l.callback;
    FILE* out = l.file != nullptr ? l.file : (callback == nullptr ? stdout : nullptr);
    if (out != nullptr) {
      char when[32];
      const std::time_t now = std::time(nullptr);
      std::tm tm{};
      localtime_r(&now, &tm);
      std::strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
      std::fprintf(out, "[%s][cublasLt][%d][%s][%s] %s\n", when, static_cast<int>(::getpid()),
                   level_name(level), function, text.c_str());
      std::fflush(out);
    }
  }
  // Outside the lock: the callback may call cuBLASLt.
  if (callback != nullptr) callback(level, function, text.c_str());
}

cublasStatus_t lt_log_set_callback(cublasLtLoggerCallback_t callback) {
  Logger& l = logger();
  std::lock_guard<std::mutex> lock(l.mu);
  if (!l.disabled) l.callback = callback;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t lt_log_set_file(FILE* file) {
  Logger& l = logger();
  std::lock_guard<std::mutex> lock(l.mu);
  if (!l.disabled) replace_file(l, file, false);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t lt_log_open_file(const char* path) {
  if (path == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  Logger& l = logger();
  std::lock_guard<std::mutex> lock(l.mu);
  if (l.disabled) return CUBLAS_STATUS_SUCCESS;
  FILE* f = std::fopen(expand_path(path).c_str(), "w");
  if (f == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  replace_file(l, f, true);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t lt_log_set_level(int level) {
  if (level < 0 || level > kMaxLevel) return CUBLAS_STATUS_INVALID_VALUE;
  Logger& l = logger();
  std::lock_guard<std::mutex> lock(l.mu);
  if (!l.disabled) l.mask = mask_of_level(level);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t lt_log_set_mask(int mask) {
  Logger& l = logger();
  std::lock_guard<std::mutex> lock(l.mu);
  if (!l.disabled) l.mask = mask;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t lt_log_force_disable() {
  Logger& l = logger();
  std::lock_guard<std::mutex> lock(l.mu);
  l.disabled = true;
  l.mask = 0;
  return CUBLAS_STATUS_SUCCESS;
}

}  // namespace strata::blas
