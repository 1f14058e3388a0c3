#include "prof/trace.h"

#include <algorithm>
#include <fstream>

#include "base/log.h"
#include "fmt/format.h"
#include "nlohmann/json.hpp"

namespace strata::prof {
namespace {

using Json = nlohmann::ordered_json;

// Field lists: one function per record, applied both ways (to_json and from_json), so the
// reader and the writer cannot disagree.
struct Out {
  Json& j;
  template <typename T>
  void operator()(const char* name, const T& v) {
    j[name] = v;
  }
  template <typename T>
  void operator()(const char* name, const std::optional<T>& v) {
    if (v) j[name] = *v;
  }
  void operator()(const char* name, const uint32_t (&v)[3]) { j[name] = {v[0], v[1], v[2]}; }
  template <typename E>
  requires std::is_enum_v<E>
  void operator()(const char* name, const E& v) { j[name] = static_cast<uint32_t>(v); }
  void operator()(const char* name, const std::map<std::string, double>& v) {
    if (!v.empty()) j[name] = v;
  }
  void operator()(const char* name, const std::vector<SourceLine>& v);
};

struct In {
  const Json& j;
  template <typename T>
  void operator()(const char* name, T& v) {
    auto it = j.find(name);
    if (it != j.end() && !it->is_null()) it->get_to(v);
  }
  template <typename T>
  void operator()(const char* name, std::optional<T>& v) {
    auto it = j.find(name);
    if (it != j.end() && !it->is_null()) v = it->get<T>();
  }
  void operator()(const char* name, uint32_t (&v)[3]) {
    auto it = j.find(name);
    if (it == j.end()) return;
    for (size_t i = 0; i < 3 && i < it->size(); ++i) v[i] = (*it)[i].get<uint32_t>();
  }
  template <typename E>
  requires std::is_enum_v<E>
  void operator()(const char* name, E& v) {
    auto it = j.find(name);
    if (it != j.end()) v = static_cast<E>(it->get<uint32_t>());
  }
  void operator()(const char* name, std::vector<SourceLine>& v);
};

template <typename F>
void fields(Process& r, F&& f) {
  f("pid", r.pid), f("name", r.name), f("command", r.command);
  f("session_start_utc_ns", r.session_start_utc_ns), f("timing_mode", r.timing_mode);
}
template <typename F>
void fields(Device& r, F&& f) {
  f("pid", r.pid), f("id", r.id), f("name", r.name), f("uuid", r.uuid), f("arch", r.arch);
  f("compute_major", r.compute_major), f("compute_minor", r.compute_minor);
  f("total_memory", r.total_memory), f("memory_bandwidth", r.memory_bandwidth);
  f("clock_rate_khz", r.clock_rate_khz), f("sm_count", r.sm_count);
  f("l2_cache_size", r.l2_cache_size), f("max_threads_per_block", r.max_threads_per_block);
  f("max_block_dim", r.max_block_dim), f("max_grid_dim", r.max_grid_dim);
  f("max_shared_per_block", r.max_shared_per_block);
  f("max_shared_per_block_optin", r.max_shared_per_block_optin);
  f("max_shared_per_sm", r.max_shared_per_sm);
  f("max_registers_per_block", r.max_registers_per_block);
  f("max_registers_per_sm", r.max_registers_per_sm), f("warp_size", r.warp_size);
  f("max_warps_per_sm", r.max_warps_per_sm), f("max_blocks_per_sm", r.max_blocks_per_sm);
  f("async_engines", r.async_engines), f("constant_memory", r.constant_memory);
  f("config", r.config);
}
template <typename F>
void fields(Context& r, F&& f) {
  f("pid", r.pid), f("id", r.id), f("device_id", r.device_id),
      f("null_stream_id", r.null_stream_id);
}
template <typename F>
void fields(Stream& r, F&& f) {
  f("pid", r.pid), f("id", r.id), f("context_id", r.context_id), f("device_id", r.device_id);
  f("priority", r.priority), f("kind", r.kind), f("name", r.name);
}
template <typename F>
void fields(Thread& r, F&& f) {
  f("pid", r.pid), f("tid", r.tid), f("name", r.name);
}
template <typename F>
void fields(Api& r, F&& f) {
  f("pid", r.pid), f("tid", r.tid), f("domain", r.domain), f("cbid", r.cbid), f("name", r.name);
  f("start", r.start), f("end", r.end), f("correlation_id", r.correlation_id);
  f("return_value", r.return_value);
}
template <typename F>
void work_fields(DeviceWork& r, F&& f) {
  f("pid", r.pid), f("start", r.start), f("end", r.end), f("device_id", r.device_id);
  f("context_id", r.context_id), f("stream_id", r.stream_id);
  f("correlation_id", r.correlation_id), f("graph_id", r.graph_id);
  f("graph_node_id", r.graph_node_id);
}
template <typename F>
void fields(SourceLine& r, F&& f) {
  f("file", r.file), f("line", r.line), f("ptx", r.ptx);
  f("warp_instructions", r.warp_instructions), f("thread_instructions", r.thread_instructions);
  f("global_requests", r.global_requests), f("global_sectors", r.global_sectors);
  f("global_bytes", r.global_bytes), f("local_requests", r.local_requests);
  f("local_sectors", r.local_sectors), f("shared_requests", r.shared_requests);
  f("shared_wavefronts", r.shared_wavefronts);
  f("shared_bank_conflicts", r.shared_bank_conflicts);
}

}  // namespace

void add_counts(SourceLine& to, const SourceLine& from) {
  to.warp_instructions += from.warp_instructions;
  to.thread_instructions += from.thread_instructions;
  to.global_requests += from.global_requests;
  to.global_sectors += from.global_sectors;
  to.global_bytes += from.global_bytes;
  to.local_requests += from.local_requests;
  to.local_sectors += from.local_sectors;
  to.shared_requests += from.shared_requests;
  to.shared_wavefronts += from.shared_wavefronts;
  to.shared_bank_conflicts += from.shared_bank_conflicts;
}

namespace {

void Out::operator()(const char* name, const std::vector<SourceLine>& v) {
  if (v.empty()) return;
  Json a = Json::array();
  for (const SourceLine& s : v) {
    Json o;
    fields(const_cast<SourceLine&>(s), Out{o});
    a.push_back(std::move(o));
  }
  j[name] = std::move(a);
}

void In::operator()(const char* name, std::vector<SourceLine>& v) {
  auto it = j.find(name);
  if (it == j.end() || !it->is_array()) return;
  for (const Json& o : *it) {
    SourceLine s;
    fields(s, In{o});
    v.push_back(std::move(s));
  }
}

template <typename F>
void fields(Kernel& r, F&& f) {
  work_fields(r, f);
  f("name", r.name), f("grid_id", r.grid_id), f("grid", r.grid), f("block", r.block);
  f("registers_per_thread", r.registers_per_thread), f("static_shared", r.static_shared);
  f("dynamic_shared", r.dynamic_shared), f("local_per_thread", r.local_per_thread);
  f("local_total", r.local_total), f("shared_config", r.shared_config);
  f("cooperative", r.cooperative), f("faulted", r.faulted), f("counters", r.counters);
  f("source", r.source), f("source_partial", r.source_partial);
}
template <typename F>
void fields(Memcpy& r, F&& f) {
  work_fields(r, f);
  f("bytes", r.bytes), f("copy_kind", r.copy_kind), f("src_kind", r.src_kind);
  f("dst_kind", r.dst_kind), f("src_device_id", r.src_device_id);
  f("dst_device_id", r.dst_device_id), f("async", r.async);
}
template <typename F>
void fields(Memset& r, F&& f) {
  work_fields(r, f);
  f("value", r.value), f("bytes", r.bytes), f("mem_kind", r.mem_kind), f("async", r.async);
}
template <typename F>
void fields(Sync& r, F&& f) {
  f("pid", r.pid), f("tid", r.tid), f("start", r.start), f("end", r.end);
  f("device_id", r.device_id), f("context_id", r.context_id), f("stream_id", r.stream_id);
  f("correlation_id", r.correlation_id), f("sync_type", r.type), f("event_id", r.event_id);
}
template <typename F>
void fields(Nvtx& r, F&& f) {
  f("pid", r.pid), f("kind", r.kind), f("start", r.start), f("end", r.end), f("tid", r.tid);
  f("end_tid", r.end_tid), f("range_id", r.range_id), f("domain_id", r.domain_id);
  f("text", r.text), f("category", r.category), f("color", r.color), f("payload", r.payload);
  f("payload_value", r.payload_value), f("payload_bits", r.payload_bits);
}
template <typename F>
void fields(NvtxDomain& r, F&& f) {
  f("pid", r.pid), f("id", r.id), f("name", r.name), f("created", r.created), f("tid", r.tid);
}

template <typename R>
std::string line(const char* type, const R& record) {
  Json j;
  j["type"] = type;
  fields(const_cast<R&>(record), Out{j});
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

template <typename R>
void read_into(const Json& j, std::vector<R>& out) {
  R r;
  fields(r, In{j});
  out.push_back(std::move(r));
}

uint64_t last_time(const Trace& t) {
  uint64_t end = 0;
  auto work = [&](const auto& v) {
    for (const auto& r : v) end = std::max(end, r.end);
  };
  work(t.apis), work(t.kernels), work(t.memcpys), work(t.memsets), work(t.syncs);
  for (const Nvtx& n : t.nvtx) end = std::max(end, n.end.value_or(n.start));
  return end;
}

}  // namespace

std::string to_json_line(const Process& r) {
  return line("process", r);
}
std::string to_json_line(const Device& r) {
  return line("device", r);
}
std::string to_json_line(const Context& r) {
  return line("context", r);
}
std::string to_json_line(const Stream& r) {
  return line("stream", r);
}
std::string to_json_line(const Thread& r) {
  return line("thread", r);
}
std::string to_json_line(const Api& r) {
  return line("api", r);
}
std::string to_json_line(const Kernel& r) {
  return line("kernel", r);
}
std::string to_json_line(const Memcpy& r) {
  return line("memcpy", r);
}
std::string to_json_line(const Memset& r) {
  return line("memset", r);
}
std::string to_json_line(const Sync& r) {
  return line("sync", r);
}
std::string to_json_line(const Nvtx& r) {
  return line("nvtx", r);
}
std::string to_json_line(const NvtxDomain& r) {
  return line("nvtx_domain", r);
}

uint64_t Trace::start_ns() const {
  uint64_t start = UINT64_MAX;
  auto work = [&](const auto& v) {
    for (const auto& r : v) start = std::min<uint64_t>(start, r.start);
  };
  work(apis), work(kernels), work(memcpys), work(memsets), work(syncs), work(nvtx);
  return start == UINT64_MAX ? 0 : start;
}

uint64_t Trace::end_ns() const {
  return last_time(*this);
}

StatusOr<Trace> read_trace(const std::vector<std::string>& paths) {
  Trace trace;
  for (const std::string& path : paths) {
    std::ifstream in(path);
    if (!in) return error(Code::kNotFound, fmt::format("cannot open trace '{}'", path));
    std::string text;
    for (size_t number = 1; std::getline(in, text); ++number) {
      if (text.empty()) continue;
      Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
      if (j.is_discarded() && in.eof()) {
        // A last line without its newline: the process died while writing it (a crash,
        // _exit). The records before it stand.
        STRATA_LOG_WARN("{}:{}: incomplete last record dropped (the process ended while "
                        "writing it)",
                        path, number);
        break;
      }
      if (j.is_discarded() || !j.is_object() || !j.contains("type") || !j["type"].is_string()) {
        return error(
            Code::kInvalidValue,
            fmt::format("{}:{}: not a trace record (a JSON object with a \"type\")", path, number));
      }
      const std::string type = j["type"].get<std::string>();
      try {
        if (type == "process")
          read_into(j, trace.processes);
        else if (type == "device")
          read_into(j, trace.devices);
        else if (type == "context")
          read_into(j, trace.contexts);
        else if (type == "stream")
          read_into(j, trace.streams);
        else if (type == "thread")
          read_into(j, trace.threads);
        else if (type == "api")
          read_into(j, trace.apis);
        else if (type == "kernel")
          read_into(j, trace.kernels);
        else if (type == "memcpy")
          read_into(j, trace.memcpys);
        else if (type == "memset")
          read_into(j, trace.memsets);
        else if (type == "sync")
          read_into(j, trace.syncs);
        else if (type == "nvtx")
          read_into(j, trace.nvtx);
        else if (type == "nvtx_domain")
          read_into(j, trace.nvtx_domains);
        // Other types ("end", newer records) are skipped.
      } catch (const Json::exception& e) {
        return error(Code::kInvalidValue,
                     fmt::format("{}:{}: malformed '{}' record: {}", path, number, type, e.what()));
      }
    }
  }
  return trace;
}

Status write_trace(const Trace& t, const std::string& path) {
  std::ofstream out(path, std::ios::trunc);
  if (!out) return error(Code::kInvalidValue, fmt::format("cannot write trace '{}'", path));
  auto all = [&](const auto& v) {
    for (const auto& r : v) out << to_json_line(r) << '\n';
  };
  all(t.processes), all(t.devices), all(t.contexts), all(t.streams), all(t.threads);
  all(t.nvtx_domains), all(t.apis), all(t.kernels), all(t.memcpys), all(t.memsets);
  all(t.syncs), all(t.nvtx);
  out.flush();
  if (!out) return error(Code::kInvalidValue, fmt::format("writing trace '{}' failed", path));
  return ok_status();
}

}  // namespace strata::prof
