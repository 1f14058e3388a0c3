// Host virtual time: the application's side of Strata's one virtual clock
// (docs/hw-contract.md, "Clock model").
//
// Every application thread has a virtual time in nanoseconds. At each outermost entry
// into Strata (the driver's api_call; nested entries count once) it advances by the
// thread's CPU time spent outside Strata since its last exit (CLOCK_THREAD_CPUTIME_ID)
// and then by the modeled cost of the call (the caller adds it: perf::model_api_ns).
// The thread CPU clock is a system call, so intervals shorter than 10 us outside or
// 50 us inside Strata are measured on the (vDSO) monotonic clock instead: a call costs
// two monotonic reads in the steady state of an API-bound loop (virtual_time.cc).
// Blocking waits and completion-reporting queries move it to the modeled completion
// time of what was waited for (advance_to). Submissions carry it to the device
// (kHostTime packets), so the device starts nothing before the host submitted it.
//
// STRATA_HOST_TIME=cpu (default) counts CPU time; STRATA_HOST_TIME=none counts only
// modeled costs and waits, so a program's modeled times are deterministic (tests).
//
// A thread starts at the largest virtual time any thread of the process had reached
// when it first used Strata (finding the creating thread's time is not cheap on Linux;
// the process maximum never puts a thread before work it could have seen complete).
// Thread-safe: each thread touches its own state; the maximum is an atomic.
#pragma once

#include <cstdint>
#include <string_view>

namespace strata::vt {

enum class HostTimeMode : uint8_t { kCpu, kNone };
// From STRATA_HOST_TIME, read once ("cpu", "none"; anything else warns and means cpu).
HostTimeMode host_time_mode();

// The calling thread's virtual time.
uint64_t now_ns();
// Moves the calling thread's virtual time to max(now, ns).
void advance_to(uint64_t ns);
// Adds `ns` to the calling thread's virtual time.
void advance_by(uint64_t ns);
// The largest virtual time any thread has reached.
uint64_t max_ns();
// The calling thread's CPU time with STRATA_HOST_TIME=cpu, 0 with none: for host work
// Strata runs on the application's behalf (host functions on a stream's worker).
uint64_t cpu_ns();

// Outermost-entry bookkeeping. enter() returns true for an outermost entry, after adding
// the CPU time spent outside Strata since the thread's last exit; exit() undoes one
// enter() and, at the outermost level, notes the thread's CPU time.
bool enter();
void exit();

// RAII form of enter/exit.
class ApiScope {
 public:
  ApiScope() : outermost_(enter()) {}
  ~ApiScope() { exit(); }
  ApiScope(const ApiScope&) = delete;
  ApiScope& operator=(const ApiScope&) = delete;
  bool outermost() const { return outermost_; }

 private:
  bool outermost_;
};

// STRATA_PERF_LOG=<path>: the per-command log of modeled times, one JSON object per
// line (schema: docs/hw-contract.md, "Clock model"); the command processor and the
// driver append to it. Appends are serialized within the process and flushed at once.
// perf_log_enabled() reads the environment once.
bool perf_log_enabled();
void perf_log_write(std::string_view json_line);

}  // namespace strata::vt
