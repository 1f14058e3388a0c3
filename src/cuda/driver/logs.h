// The driver's error log (CUDA 12.9+ cuLogs*): every failing driver call's log line
// (cu_result.cc: "api: message (CUDA_ERROR_...)") is kept in a bounded buffer that
// cuLogsDumpToMemory/File read from an iterator, and handed to the registered
// callbacks. Thread-safe; callbacks run on the failing call's thread, outside any lock.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace strata::cuda::driver {

// CUDA keeps at most this many bytes of log text (cuLogsDumpToMemory's documentation).
inline constexpr size_t kLogBufferBytes = 25600;

void append_error_log(std::string_view line);

// The iterator of the next line to be logged.
CUlogIterator current_log_iterator();
// The lines from `*iterator` on (all kept lines when null), oldest first, each ending in
// '\n'; a note heads the text when lines from there were dropped. Advances `*iterator`
// past the returned lines. `max_bytes` (0: unlimited) keeps the newest lines that fit.
std::string read_logs(CUlogIterator* iterator, size_t max_bytes);

CUlogsCallbackHandle add_log_callback(CUlogsCallback callback, void* user_data);
bool remove_log_callback(CUlogsCallbackHandle handle);

}  // namespace strata::cuda::driver
