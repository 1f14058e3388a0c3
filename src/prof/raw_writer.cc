// The raw trace writer of `strata prof` (collector.h: start_from_environment).
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "base/log.h"
#include "base/virtual_time.h"
#include "prof/collector.h"

namespace strata::prof {
namespace {

std::string expand_pid(std::string path) {
  const std::string pid = std::to_string(getpid());
  for (size_t at; (at = path.find("%p")) != std::string::npos;) path.replace(at, 2, pid);
  return path;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string thread_name(uint32_t tid) {
  std::string name = read_file("/proc/self/task/" + std::to_string(tid) + "/comm");
  while (!name.empty() && (name.back() == '\n' || name.back() == '\0')) name.pop_back();
  return name;
}

class RawWriter final : public Sink {
 public:
  RawWriter(FILE* file, bool capture_ranges) : file_(file), capture_ranges_(capture_ranges) {}

  // cuProfilerStart / cuProfilerStop (collector.h: capture_control).
  void capture(bool start) {
    if (!capture_ranges_) return;
    std::lock_guard lock(mu_);
    const uint32_t id = next_correlation_id();
    const uint64_t now = now_ns();
    if (start && !open_) {
      windows_.push_back({id, UINT32_MAX, now, UINT64_MAX});
      open_ = true;
    } else if (!start && open_) {
      windows_.back().last_id = id;
      windows_.back().end = now;
      open_ = false;
    }
  }

  void on_record(const Record& record) override {
    if (capture_ranges_ && !captured(record)) return;
    std::string line = std::visit([](const auto& r) { return to_json_line(r); }, record);
    std::lock_guard lock(mu_);
    if (file_ == nullptr) return;
    // Name each thread the first time it appears (NVTX may rename it later).
    uint32_t tid = 0;
    if (const auto* api = std::get_if<Api>(&record))
      tid = api->tid;
    else if (const auto* nvtx = std::get_if<Nvtx>(&record))
      tid = nvtx->tid;
    else if (const auto* sync = std::get_if<Sync>(&record))
      tid = sync->tid;
    if (const auto* thread = std::get_if<Thread>(&record)) named_.insert(thread->tid);
    if (tid != 0 && named_.insert(tid).second) {
      Thread t;
      t.pid = this_pid();
      t.tid = tid;
      t.name = thread_name(tid);
      write_locked(to_json_line(t));
    }
    write_locked(line);
  }

  void close() {
    std::lock_guard lock(mu_);
    if (file_ == nullptr) return;
    write_locked(R"({"type":"end"})");
    std::fclose(file_);
    file_ = nullptr;
  }

 private:
  // A capture window: correlation ids [first_id, last_id) and virtual times [start, end).
  struct Window {
    uint32_t first_id, last_id;
    uint64_t start, end;
  };

  bool captured(const Record& record) {
    std::lock_guard lock(mu_);
    auto by_id = [&](uint32_t id) {
      for (const Window& w : windows_)
        if (id >= w.first_id && id < w.last_id) return true;
      return false;
    };
    auto by_time = [&](uint64_t start, uint64_t end) {
      for (const Window& w : windows_)
        if (start < w.end && end >= w.start) return true;
      return false;
    };
    return std::visit(
        [&](const auto& r) -> bool {
          using T = std::decay_t<decltype(r)>;
          if constexpr (std::is_same_v<T, Api> || std::is_same_v<T, Kernel> ||
                        std::is_same_v<T, Memcpy> || std::is_same_v<T, Memset> ||
                        std::is_same_v<T, Sync>) {
            return by_id(r.correlation_id);
          } else if constexpr (std::is_same_v<T, Nvtx>) {
            return by_time(r.start, r.end.value_or(r.start));
          } else {
            return true;  // metadata
          }
        },
        record);
  }

  void write_locked(const std::string& line) {
    std::fwrite(line.data(), 1, line.size(), file_);
    std::fputc('\n', file_);
  }

  std::mutex mu_;
  FILE* file_;
  const bool capture_ranges_;
  std::vector<Window> windows_;
  bool open_ = false;
  std::set<uint32_t> named_;
};

RawWriter* g_writer = nullptr;  // leaked: used at exit
std::once_flag g_start_once;

Process this_process() {
  Process p;
  p.pid = this_pid();
  std::string cmdline = read_file("/proc/self/cmdline");
  for (size_t at = 0; at < cmdline.size();) {
    size_t end = cmdline.find('\0', at);
    if (end == std::string::npos) end = cmdline.size();
    p.command.push_back(cmdline.substr(at, end - at));
    at = end + 1;
  }
  std::string exe = p.command.empty() ? std::string() : p.command.front();
  p.name = exe.substr(exe.find_last_of('/') == std::string::npos ? 0 : exe.find_last_of('/') + 1);
  timespec ts{};
  clock_gettime(CLOCK_REALTIME, &ts);
  const uint64_t utc = static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + ts.tv_nsec;
  const uint64_t now = vt::now_ns();
  p.session_start_utc_ns = utc > now ? utc - now : 0;
  const char* timing = std::getenv("STRATA_TIMING");
  p.timing_mode = timing != nullptr && *timing != '\0' ? timing : "fast";
  return p;
}

}  // namespace

void start_from_environment() {
  std::call_once(g_start_once, [] {
    const char* path = std::getenv("STRATA_PROF_OUTPUT");
    if (path == nullptr || *path == '\0') return;
    const std::string file = expand_pid(path);
    FILE* f = std::fopen(file.c_str(), "w");
    if (f == nullptr) {
      STRATA_LOG_ERROR("STRATA_PROF_OUTPUT: cannot open '{}' for writing; not profiling", file);
      return;
    }
    // One write per record: a program that crashes (no atexit) leaves every record
    // completed so far in the file (read_trace drops a half-written last line).
    std::setvbuf(f, nullptr, _IOLBF, 1 << 16);
    const char* counters = std::getenv("STRATA_PROF_COUNTERS");
    const bool want_counters = counters != nullptr && std::string(counters) == "1";
    const char* capture = std::getenv("STRATA_PROF_CAPTURE");
    bool capture_ranges = false;
    if (capture != nullptr && *capture != '\0') {
      if (std::string(capture) == "cudaProfilerApi") {
        capture_ranges = true;
      } else {
        STRATA_LOG_WARN(
            "STRATA_PROF_CAPTURE={}: unknown (cudaProfilerApi is); capturing everything", capture);
      }
    }
    g_writer = new RawWriter(f, capture_ranges);
    emit(this_process());  // stored first, so the writer's replay starts with it
    attach(g_writer, want_counters ? kWantCounters : 0);
    std::atexit(shutdown);
  });
}

void capture_control(bool start) {
  if (g_writer != nullptr) g_writer->capture(start);
}

void shutdown() {
  if (g_writer == nullptr) return;
  flush(/*wait=*/true);
  detach(g_writer);
  g_writer->close();
}

}  // namespace strata::prof
