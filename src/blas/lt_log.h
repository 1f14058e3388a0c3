// The cuBLASLt logger (cublasLt.h: cublasLtLoggerSetCallback, SetFile, OpenFile,
// SetLevel, SetMask, ForceDisable; the environment variables CUBLASLT_LOG_LEVEL,
// CUBLASLT_LOG_MASK and CUBLASLT_LOG_FILE, read once, at the first log call or setter).
//
// Levels (cuBLASLt's documentation): 1 error, 2 trace (calls that launch kernels, with
// their parameters), 3 hints, 4 heuristics trace, 5 API trace. Level L enables the mask
// bits of levels 1..L (mask bit 1 << (level - 1)); a mask selects levels one by one.
// Each message is one line "[date time][cublasLt][pid][Level][function] message" written
// to the log file (CUBLASLT_LOG_FILE, "%i" replaced by the process id; SetFile /
// OpenFile), or to stdout when no file and no callback was given; the callback, when
// set, receives (level, function, message). ForceDisable turns logging off for the rest
// of the process: later setters succeed but change nothing. Thread-safe.
#pragma once

#include <cublasLt.h>
#include <fmt/format.h>

#include <cstdio>
#include <string_view>

namespace strata::blas {

enum LtLogLevel : int {
  kLtLogError = 1,
  kLtLogTrace = 2,
  kLtLogHints = 3,
  kLtLogHeuristics = 4,
  kLtLogApi = 5
};

// Whether messages of `level` are logged now.
bool lt_log_enabled(int level);
void lt_log_line(int level, const char* function, std::string_view message);

template <typename... Args>
void lt_log(int level, const char* function, fmt::format_string<Args...> format, Args&&... args) {
  if (!lt_log_enabled(level)) return;
  lt_log_line(level, function, fmt::format(format, std::forward<Args>(args)...));
}

// The setters behind the entry points (CUBLAS_STATUS_INVALID_VALUE for a level outside
// 0..5 or a file that cannot be opened).
cublasStatus_t lt_log_set_callback(cublasLtLoggerCallback_t callback);
cublasStatus_t lt_log_set_file(FILE* file);
cublasStatus_t lt_log_open_file(const char* path);
cublasStatus_t lt_log_set_level(int level);
cublasStatus_t lt_log_set_mask(int mask);
cublasStatus_t lt_log_force_disable();

}  // namespace strata::blas
