// The driver error log buffer behind cuLogs* (logs.h): iterators, the 25,600-byte
// bound, truncation to a caller's buffer and callbacks.
#include "cuda/driver/logs.h"

#include <gtest/gtest.h>

#include <string>

namespace strata::cuda::driver {
namespace {

TEST(ErrorLog, IteratorReadsWhatFollows) {
  CUlogIterator it = current_log_iterator();
  append_error_log("cuFirst: one (CUDA_ERROR_INVALID_VALUE)");
  append_error_log("cuSecond: two (CUDA_ERROR_INVALID_VALUE)");
  CUlogIterator from = it;
  EXPECT_EQ(read_logs(&from, 0),
            "cuFirst: one (CUDA_ERROR_INVALID_VALUE)\ncuSecond: two (CUDA_ERROR_INVALID_VALUE)\n");
  EXPECT_EQ(from, it + 2);
  EXPECT_EQ(read_logs(&from, 0), "");  // nothing new
}

TEST(ErrorLog, KeepsTheNewestLinesThatFit) {
  CUlogIterator it = current_log_iterator();
  const std::string a(40, 'a'), b(40, 'b'), c(40, 'c');
  append_error_log(a);
  append_error_log(b);
  append_error_log(c);
  CUlogIterator from = it;
  std::string text = read_logs(&from, 85);  // the note (42 bytes) and one line
  EXPECT_NE(text.find("truncated"), std::string::npos);
  EXPECT_NE(text.find(c + "\n"), std::string::npos);
  EXPECT_EQ(text.find(a), std::string::npos);
  EXPECT_EQ(text.find(b), std::string::npos);
  EXPECT_LE(text.size(), 85u);
  from = it;
  EXPECT_EQ(read_logs(&from, 5), "");  // not even the newest line fits
}

TEST(ErrorLog, BoundedAndSaysWhenLinesWereLost) {
  CUlogIterator start = current_log_iterator();
  const std::string line(99, 'x');  // 100 bytes with its newline
  for (int i = 0; i < 300; ++i) append_error_log(line);
  CUlogIterator from = start;
  std::string text = read_logs(&from, 0);
  EXPECT_NE(text.find("overwritten"), std::string::npos);
  EXPECT_LE(text.size(), kLogBufferBytes + 100);
  EXPECT_EQ(from, start + 300);
}

struct Seen {
  int calls = 0;
  std::string last;
};

void CUDA_CB on_log(void* data, CUlogLevel level, char* message, size_t length) {
  auto* seen = static_cast<Seen*>(data);
  ++seen->calls;
  EXPECT_EQ(level, CU_LOG_LEVEL_ERROR);
  seen->last.assign(message, length);
}

TEST(ErrorLog, CallbacksSeeEachLineUntilRemoved) {
  Seen seen;
  CUlogsCallbackHandle handle = add_log_callback(on_log, &seen);
  append_error_log("cuThird: three");
  EXPECT_EQ(seen.calls, 1);
  EXPECT_EQ(seen.last, "cuThird: three");
  EXPECT_TRUE(remove_log_callback(handle));
  EXPECT_FALSE(remove_log_callback(handle));
  append_error_log("cuFourth: four");
  EXPECT_EQ(seen.calls, 1);
}

}  // namespace
}  // namespace strata::cuda::driver
