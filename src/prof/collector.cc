#include "prof/collector.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <mutex>
#include <vector>

#include "base/virtual_time.h"

namespace strata::prof {
namespace detail {
std::atomic<uint32_t> g_active{0};
}  // namespace detail

namespace {

struct SinkEntry {
  Sink* sink;
  uint32_t flags;
};

// Leaked on purpose: sinks emit from atexit handlers and static destructors.
struct Registry {
  std::mutex mu;
  std::vector<SinkEntry> sinks;
  // Metadata replayed to a sink attached later (objects by id; the latest record wins).
  std::vector<Record> metadata;
  std::atomic<uint32_t> wants_counters{0};
  std::atomic<void (*)(bool)> flush_hook{nullptr};
};

Registry& registry() {
  static auto* r = new Registry();
  return *r;
}

std::atomic<uint32_t> g_next_correlation{1};

// The recording ApiScope's correlation id on this thread (0: none open).
thread_local uint32_t t_correlation = 0;

std::vector<SinkEntry> snapshot() {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  return r.sinks;
}

// Same object (for the metadata store): records of one kind with the same identity.
bool same_object(const Record& a, const Record& b) {
  if (a.index() != b.index()) return false;
  return std::visit(
      [&](const auto& x) -> bool {
        using T = std::decay_t<decltype(x)>;
        const T& y = std::get<T>(b);
        if constexpr (std::is_same_v<T, Process>)
          return x.pid == y.pid;
        else if constexpr (std::is_same_v<T, Device>)
          return x.pid == y.pid && x.id == y.id;
        else if constexpr (std::is_same_v<T, Context> || std::is_same_v<T, Stream> ||
                           std::is_same_v<T, NvtxDomain>)
          return x.pid == y.pid && x.id == y.id;
        else if constexpr (std::is_same_v<T, Thread>)
          return x.pid == y.pid && x.tid == y.tid;
        else
          return false;
      },
      a);
}

bool is_metadata(const Record& r) {
  return std::holds_alternative<Process>(r) || std::holds_alternative<Device>(r) ||
         std::holds_alternative<Context>(r) || std::holds_alternative<Stream>(r) ||
         std::holds_alternative<Thread>(r) || std::holds_alternative<NvtxDomain>(r);
}

}  // namespace

bool counters_wanted() {
  return registry().wants_counters.load(std::memory_order_relaxed) != 0;
}

void attach(Sink* sink, uint32_t flags) {
  Registry& r = registry();
  std::vector<Record> replay;
  {
    std::lock_guard lock(r.mu);
    for (const SinkEntry& e : r.sinks)
      if (e.sink == sink) return;
    r.sinks.push_back({sink, flags});
    if (flags & kWantCounters) r.wants_counters.fetch_add(1);
    detail::g_active.fetch_add(1);
    replay = r.metadata;
  }
  for (const Record& m : replay) sink->on_record(m);
}

void detach(Sink* sink) {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  auto it = std::find_if(r.sinks.begin(), r.sinks.end(),
                         [&](const SinkEntry& e) { return e.sink == sink; });
  if (it == r.sinks.end()) return;
  if (it->flags & kWantCounters) r.wants_counters.fetch_sub(1);
  r.sinks.erase(it);
  detail::g_active.fetch_sub(1);
}

void emit(const Record& record) {
  if (is_metadata(record)) {
    Registry& r = registry();
    std::lock_guard lock(r.mu);
    auto it = std::find_if(r.metadata.begin(), r.metadata.end(),
                           [&](const Record& m) { return same_object(m, record); });
    if (it != r.metadata.end())
      *it = record;
    else
      r.metadata.push_back(record);
  }
  for (const SinkEntry& e : snapshot()) e.sink->on_record(record);
}

void ApiScope::begin(ApiDomain domain, uint32_t cbid, const char* name, const char* function,
                     const void* params) {
  if (t_correlation != 0 || name == nullptr || cbid == 0) return;
  recording_ = true;
  symbol_ = nullptr;
  result_ = 0;
  std::fill(std::begin(data_), std::end(data_), 0);
  domain_ = domain;
  cbid_ = cbid;
  name_ = name;
  function_ = function;
  params_ = params;
  // Account the application's time since its last call first, without making this
  // the outermost entry (the driver's api_call charges the call's modeled cost there).
  vt::enter();
  start_ = vt::now_ns();
  vt::exit();
  correlation_ = g_next_correlation.fetch_add(1, std::memory_order_relaxed);
  t_correlation = correlation_;
  std::vector<SinkEntry> sinks = snapshot();
  ApiCall call;
  call.domain = domain;
  call.cbid = cbid;
  call.name = name;
  call.function = function;
  call.params = params;
  call.correlation_id = correlation_;
  call.tid = this_tid();
  call.time_ns = start_;
  for (size_t i = 0; i < sinks.size() && i < std::size(data_); ++i) {
    if (!(sinks[i].flags & kWantApiCallbacks)) continue;
    call.correlation_data = &data_[i];
    sinks[i].sink->on_api(call);
  }
}

void ApiScope::finish() {
  const uint64_t end = std::max(vt::now_ns(), start_);
  t_correlation = 0;
  std::vector<SinkEntry> sinks = snapshot();
  ApiCall call;
  call.domain = domain_;
  call.cbid = cbid_;
  call.name = name_;
  call.function = function_;
  call.params = params_;
  call.return_value = &result_;
  call.exit = true;
  call.correlation_id = correlation_;
  call.symbol_name = symbol_;
  call.tid = this_tid();
  call.time_ns = end;
  for (size_t i = 0; i < sinks.size() && i < std::size(data_); ++i) {
    if (!(sinks[i].flags & kWantApiCallbacks)) continue;
    call.correlation_data = &data_[i];
    sinks[i].sink->on_api(call);
  }
  Api api;
  api.pid = this_pid();
  api.tid = call.tid;
  api.domain = domain_;
  api.cbid = cbid_;
  api.name = name_;
  api.start = start_;
  api.end = end;
  api.correlation_id = correlation_;
  api.return_value = result_;
  Record record = std::move(api);
  for (const SinkEntry& e : sinks) e.sink->on_record(record);
}

uint32_t current_correlation_id() {
  return t_correlation;
}

uint32_t next_correlation_id() {
  return g_next_correlation.load(std::memory_order_relaxed);
}

void set_flush_hook(void (*hook)(bool wait)) {
  registry().flush_hook.store(hook);
}

void flush(bool wait) {
  if (auto* hook = registry().flush_hook.load()) hook(wait);
}

uint32_t this_tid() {
  thread_local const uint32_t tid = static_cast<uint32_t>(syscall(SYS_gettid));
  return tid;
}

uint32_t this_pid() {
  return static_cast<uint32_t>(getpid());
}

uint64_t now_ns() {
  // Account the application's CPU time since its last CUDA call first (as an entry into
  // Strata would, without charging a call), so NVTX events between calls get times.
  vt::enter();
  const uint64_t t = vt::now_ns();
  vt::exit();
  return t;
}

}  // namespace strata::prof
