// Activity collection inside the driver (libcuda.so.1): the one place API calls, device
// work, synchronisations and NVTX events become records (trace.h) and reach the sinks
// that want them: the raw trace writer of `strata prof` (STRATA_PROF_OUTPUT) and
// Strata's libcupti.so.13 (abi.h).
//
// Cost when nothing collects: active() is one relaxed atomic load; ApiScope and the
// device-work hooks return after it. Building with STRATA_ACTIVITY=OFF compiles the
// hooks out entirely (bench/prof measures the difference).
//
// Correlation: an ApiScope that records (the application's outermost CUDA call on this
// thread) takes the next correlation id of the process; device work queued during it
// carries that id (current_correlation_id()).
//
// Thread-safe. Sinks are called on the thread that produced the event (API callbacks,
// NVTX, synchronisations) or on whichever thread harvests completed device work.
#pragma once

#include <atomic>
#include <cstdint>
#include <variant>

#include "prof/trace.h"

namespace strata::prof {

using Record = std::variant<Process, Device, Context, Stream, Thread, Api, Kernel, Memcpy, Memset,
                            Sync, Nvtx, NvtxDomain>;

// What a sink sees at the entry and the exit of an API call (CUPTI's callback data).
struct ApiCall {
  ApiDomain domain = ApiDomain::kRuntime;
  uint32_t cbid = 0;
  const char* name = "";               // "cudaMalloc_v3020"
  const char* function = "";           // "cudaMalloc"
  const void* params = nullptr;        // the cbid's *_params struct (runtime), or null
  const void* return_value = nullptr;  // cudaError_t* / CUresult*, valid at exit only
  bool exit = false;
  uint32_t correlation_id = 0;
  const char* symbol_name = nullptr;     // launches: the kernel's symbol, when known
  uint64_t* correlation_data = nullptr;  // one u64 per sink per call, kept enter -> exit
  uint32_t tid = 0;
  uint64_t time_ns = 0;  // virtual time at entry / exit
};

class Sink {
 public:
  virtual ~Sink() = default;
  // Called at entry and exit of every recorded API call (only when the sink attached
  // with kWantApiCallbacks).
  virtual void on_api(const ApiCall&) {}
  // Every record, once complete (Api records at the call's exit, device work once the
  // device reports it, metadata records when the object appears or is named).
  virtual void on_record(const Record& record) = 0;
};

inline constexpr uint32_t kWantApiCallbacks = 1u << 0;
inline constexpr uint32_t kWantCounters = 1u << 1;  // kernels carry counters (metrics)

namespace detail {
extern std::atomic<uint32_t> g_active;  // attached sinks, or 0
}

// Whether anything collects. Hot paths test this first. Built with STRATA_ACTIVITY=0
// (CMake option STRATA_ACTIVITY=OFF) it is constant false and the hooks compile away.
#if !defined(STRATA_ACTIVITY) || STRATA_ACTIVITY
inline bool active() {
  return detail::g_active.load(std::memory_order_relaxed) != 0;
}
#else
constexpr bool active() {
  return false;
}
#endif
// Whether some sink wants kernel counters (reports armed with kReportCounters).
bool counters_wanted();

// Attaches / detaches a sink; `flags` kWant* bits. Attaching replays the metadata known
// so far (process, devices, contexts, streams, named threads) to the new sink.
void attach(Sink* sink, uint32_t flags);
void detach(Sink* sink);
// Delivers `record` to every sink.
void emit(const Record& record);

// Scope of one API call. Records (and calls on_api) only when active() and no other
// ApiScope is open on this thread, so calls made by Strata itself on the application's
// behalf are not recorded. `cbid` 0 with a null name: the function has no CUPTI id; it
// is not recorded.
class ApiScope {
 public:
  ApiScope(ApiDomain domain, uint32_t cbid, const char* name, const char* function,
           const void* params) {
    if (active()) begin(domain, cbid, name, function, params);
  }
  ~ApiScope() {
    if (recording_) finish();
  }
  ApiScope(const ApiScope&) = delete;
  ApiScope& operator=(const ApiScope&) = delete;
  // The call's result (cudaError_t or CUresult), before the scope ends.
  void set_result(int32_t result) { result_ = result; }
  void set_symbol_name(const char* symbol) { symbol_ = symbol; }
  bool recording() const { return recording_; }

 private:
  void begin(ApiDomain domain, uint32_t cbid, const char* name, const char* function,
             const void* params);
  void finish();
  // Only recording_ is set when nothing collects (the hot path); begin() sets the rest.
  bool recording_ = false;
  ApiDomain domain_;
  uint32_t cbid_;
  const char* name_;
  const char* function_;
  const void* params_;
  const char* symbol_;
  int32_t result_;
  uint32_t correlation_;
  uint64_t start_;
  uint64_t data_[8];  // correlation_data per sink
};

// The correlation id of this thread's recording ApiScope, 0 outside one.
uint32_t current_correlation_id();

// Device work harvesting: the driver registers the function that delivers completed
// device work (ProfilerTable::flush); flush() calls it (a no-op before registration).
void set_flush_hook(void (*hook)(bool wait));
void flush(bool wait);

// STRATA_PROF_OUTPUT=<path> (%p: the pid): attaches the raw trace writer (raw_writer.cc),
// which appends every record to that file as JSON Lines (trace.h) and, at process exit,
// flushes device work and closes it. STRATA_PROF_COUNTERS=1 makes it want counters.
// Called once by the driver when it is loaded; idempotent.
void start_from_environment();
// Process exit: delivers pending device work (waiting for it) and closes the writer.
void shutdown();

// Capture ranges of the raw trace writer (cuProfilerStart / cuProfilerStop). With
// STRATA_PROF_CAPTURE=cudaProfilerApi the writer keeps, besides metadata, only the API
// calls made between a start and the following stop, the device work they queued, and
// the synchronisations and NVTX events inside those intervals; without it, the calls
// change nothing.
void capture_control(bool start);
// The correlation id the next recorded API call gets.
uint32_t next_correlation_id();

// Identity of the calling thread (gettid) and process, as records carry them.
uint32_t this_tid();
uint32_t this_pid();
// The calling thread's virtual time (base/virtual_time.h).
uint64_t now_ns();

}  // namespace strata::prof
