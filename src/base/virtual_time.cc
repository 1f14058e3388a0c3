#include "base/virtual_time.h"

#include <time.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "base/log.h"

namespace strata::vt {
namespace {

// Trivially destructible, so it stays usable during process exit (API calls from static
// destructors), like exit_safe_thread_local.
struct ThreadTime {
  uint64_t ns = 0;
  uint64_t exit_cpu_ns = 0;   // thread CPU time at the last outermost exit (estimated)
  uint64_t exit_wall_ns = 0;  // monotonic time then (0: never exited)
  uint64_t entry_cpu_ns = 0;  // thread CPU time at the current outermost entry (estimated)
  uint64_t entry_wall_ns = 0;
  uint32_t depth = 0;
  bool started = false;
};

// Reading the thread's CPU clock is a system call (no vDSO: ~0.2 us on bare metal, ~3 us
// in some VMs), the monotonic clock is not. Intervals shorter than these are measured on
// the monotonic clock (a thread that runs for a few microseconds rarely loses the CPU in
// between); longer ones, which may include blocking or descheduling, on the CPU clock.
constexpr uint64_t kShortOutsideNs = 10000;
constexpr uint64_t kShortInsideNs = 50000;
thread_local ThreadTime t_time;

std::atomic<uint64_t> g_max_ns{0};

void note_max(uint64_t ns) {
  uint64_t seen = g_max_ns.load(std::memory_order_relaxed);
  while (ns > seen && !g_max_ns.compare_exchange_weak(seen, ns, std::memory_order_relaxed)) {
  }
}

uint64_t monotonic_ns() {
  timespec ts;
  if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0;
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

uint64_t thread_cpu_ns() {
  timespec ts;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

ThreadTime& self() {
  ThreadTime& t = t_time;
  if (!t.started) {
    t.started = true;
    t.ns = g_max_ns.load(std::memory_order_relaxed);
    // CPU time the thread spent before it first entered Strata counts as outside time.
    t.exit_cpu_ns = 0;
    t.exit_wall_ns = 0;
  }
  return t;
}

}  // namespace

HostTimeMode host_time_mode() {
  static const HostTimeMode mode = [] {
    const char* v = std::getenv("STRATA_HOST_TIME");
    if (v == nullptr || *v == '\0' || std::strcmp(v, "cpu") == 0) return HostTimeMode::kCpu;
    if (std::strcmp(v, "none") == 0) return HostTimeMode::kNone;
    STRATA_LOG_WARN("STRATA_HOST_TIME={} is not one of cpu, none; using cpu", v);
    return HostTimeMode::kCpu;
  }();
  return mode;
}

uint64_t now_ns() {
  return self().ns;
}

void advance_to(uint64_t ns) {
  ThreadTime& t = self();
  if (ns > t.ns) {
    t.ns = ns;
    note_max(ns);
  }
}

void advance_by(uint64_t ns) {
  if (ns == 0) return;
  ThreadTime& t = self();
  t.ns += ns;
  note_max(t.ns);
}

uint64_t max_ns() {
  return g_max_ns.load(std::memory_order_relaxed);
}

uint64_t cpu_ns() {
  return host_time_mode() == HostTimeMode::kCpu ? thread_cpu_ns() : 0;
}

bool enter() {
  ThreadTime& t = self();
  if (t.depth++ != 0) return false;
  if (host_time_mode() == HostTimeMode::kCpu) {
    const uint64_t wall = monotonic_ns();
    uint64_t outside;
    if (t.exit_wall_ns != 0 && wall - t.exit_wall_ns < kShortOutsideNs) {
      outside = wall - t.exit_wall_ns;
      t.entry_cpu_ns = t.exit_cpu_ns + outside;
    } else {
      const uint64_t cpu = thread_cpu_ns();
      outside = cpu > t.exit_cpu_ns ? cpu - t.exit_cpu_ns : 0;
      t.entry_cpu_ns = std::max(cpu, t.exit_cpu_ns);
    }
    t.entry_wall_ns = wall;
    if (outside != 0) {
      t.ns += outside;
      note_max(t.ns);
    }
  }
  return true;
}

void exit() {
  ThreadTime& t = self();
  if (t.depth == 0) return;  // unbalanced: ignore
  if (--t.depth != 0) return;
  if (host_time_mode() == HostTimeMode::kCpu) {
    const uint64_t wall = monotonic_ns();
    const uint64_t inside = wall - t.entry_wall_ns;
    t.exit_cpu_ns = inside < kShortInsideNs ? t.entry_cpu_ns + inside : thread_cpu_ns();
    t.exit_wall_ns = wall;
  }
}

namespace {

struct PerfLog {
  std::mutex mu;
  FILE* file = nullptr;
};

PerfLog* perf_log() {
  static PerfLog* log = [] {
    const char* path = std::getenv("STRATA_PERF_LOG");
    if (path == nullptr || *path == '\0') return static_cast<PerfLog*>(nullptr);
    FILE* file = std::fopen(path, "a");
    if (file == nullptr) {
      STRATA_LOG_WARN("cannot open STRATA_PERF_LOG={}", path);
      return static_cast<PerfLog*>(nullptr);
    }
    auto* l = new PerfLog;  // leaked: written until the process exits
    l->file = file;
    return l;
  }();
  return log;
}

}  // namespace

bool perf_log_enabled() {
  return perf_log() != nullptr;
}

void perf_log_write(std::string_view json_line) {
  PerfLog* log = perf_log();
  if (log == nullptr) return;
  std::lock_guard lock(log->mu);
  std::fwrite(json_line.data(), 1, json_line.size(), log->file);
  std::fputc('\n', log->file);
  std::fflush(log->file);
}

}  // namespace strata::vt
