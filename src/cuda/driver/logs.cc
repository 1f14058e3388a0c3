#include "cuda/driver/logs.h"

#include <deque>
#include <map>
#include <mutex>
#include <vector>

namespace strata::cuda::driver {
namespace {

struct LogState {
  std::mutex mutex;
  std::deque<std::string> lines;  // lines [first, first + lines.size())
  CUlogIterator first = 0;
  size_t bytes = 0;
  std::map<uintptr_t, std::pair<CUlogsCallback, void*>> callbacks;
  uintptr_t next_callback = 1;
};

LogState& state() {
  static LogState* s = new LogState;  // leaked: errors are logged during teardown too
  return *s;
}

}  // namespace

void append_error_log(std::string_view line) {
  LogState& s = state();
  std::vector<std::pair<CUlogsCallback, void*>> callbacks;
  std::string text(line);
  {
    std::lock_guard lock(s.mutex);
    s.lines.push_back(text);
    s.bytes += text.size() + 1;
    while (s.bytes > kLogBufferBytes && s.lines.size() > 1) {
      s.bytes -= s.lines.front().size() + 1;
      s.lines.pop_front();
      ++s.first;
    }
    for (const auto& [id, cb] : s.callbacks) callbacks.push_back(cb);
  }
  for (const auto& [fn, data] : callbacks) {
    std::string message = text;  // the callback gets a writable copy
    fn(data, CU_LOG_LEVEL_ERROR, message.data(), message.size());
  }
}

CUlogIterator current_log_iterator() {
  LogState& s = state();
  std::lock_guard lock(s.mutex);
  return s.first + static_cast<CUlogIterator>(s.lines.size());
}

std::string read_logs(CUlogIterator* iterator, size_t max_bytes) {
  LogState& s = state();
  std::lock_guard lock(s.mutex);
  const CUlogIterator end = s.first + static_cast<CUlogIterator>(s.lines.size());
  CUlogIterator from = iterator != nullptr ? *iterator : s.first;
  std::string head;
  if (from < s.first) {
    head = "[strata: older log lines were overwritten]\n";
    from = s.first;
  }
  if (from > end) from = end;
  // The newest lines that fit, with the note when some had to be left out.
  size_t begin = from - s.first, last = s.lines.size();
  size_t total = head.size();
  for (size_t i = begin; i < last; ++i) total += s.lines[i].size() + 1;
  if (max_bytes != 0 && total > max_bytes) {
    head = "[strata: log truncated to fit the buffer]\n";
    total = head.size();
    size_t i = last;
    while (i > begin && total + s.lines[i - 1].size() + 1 <= max_bytes) {
      --i;
      total += s.lines[i].size() + 1;
    }
    begin = i;
    if (begin == last) head.clear();  // nothing fits
  }
  std::string out = head;
  for (size_t i = begin; i < last; ++i) {
    out += s.lines[i];
    out += '\n';
  }
  if (iterator != nullptr) *iterator = end;
  return out;
}

CUlogsCallbackHandle add_log_callback(CUlogsCallback callback, void* user_data) {
  LogState& s = state();
  std::lock_guard lock(s.mutex);
  uintptr_t id = s.next_callback++;
  s.callbacks[id] = {callback, user_data};
  return reinterpret_cast<CUlogsCallbackHandle>(id);
}

bool remove_log_callback(CUlogsCallbackHandle handle) {
  LogState& s = state();
  std::lock_guard lock(s.mutex);
  return s.callbacks.erase(reinterpret_cast<uintptr_t>(handle)) != 0;
}

}  // namespace strata::cuda::driver
