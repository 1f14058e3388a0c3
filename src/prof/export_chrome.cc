// Chrome trace event format writer (export_chrome.h). Layout:
//  * one process per profiled process (its OS pid), one track per host thread (its OS
//    tid) with the thread's API calls and NVTX push/pop ranges as complete (`X`) events,
//    NVTX marks as thread-scoped instants, NVTX start/end ranges as async `b`/`e` pairs;
//  * one "GPU n (name)" process per (profiled process, device) with one track per
//    stream ("Stream 13") holding its kernels, memcpys and memsets as `X` events;
//  * a flow (`s` on the API call, `f` with "bp":"e" on the device work) per device work
//    item whose correlation id matches an API call of its process.
// Perfetto requires the slices of one track to nest. Each track's slices are laid out
// on lanes: a slice goes to the first lane where it nests, an extra lane (its own track,
// named "... (overlap n)") is opened when none fits, so the output never carries
// invalid nesting even when the data overlaps.
#include "prof/export_chrome.h"

#include <cupti_activity.h>
#include <cxxabi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "prof/nsys_enums.h"

namespace strata::prof {
namespace {

using nlohmann::json;

// GPU processes get pids above any OS pid (Linux pids are < 2^22). Perfetto reads pids
// and tids as 32-bit numbers, so synthetic ones stay below 2^31.
constexpr uint64_t kGpuPidBase = uint64_t{1} << 30;
// Extra lanes of a track get tids above any OS tid (< 2^22) and any stream id in practice.
constexpr uint64_t kLaneTidBase = uint64_t{0x70000000};

// Microseconds with exactly the nanoseconds as decimals: ns / 1000 is printed by
// nlohmann::json with the shortest representation that round-trips, which is the
// 3-decimal form while the value has at most 15 significant digits (< 11.5 days).
double us(uint64_t ns) {
  return static_cast<double>(ns) / 1000.0;
}

std::string demangle(const std::string& name) {
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> out(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), &std::free);
  return status == 0 && out != nullptr ? std::string(out.get()) : name;
}

// "cudaMalloc_v3020" -> "cudaMalloc": the CUPTI cbid version suffix (as nsys shows it).
std::string api_display_name(const std::string& name) {
  const size_t at = name.rfind("_v");
  if (at == std::string::npos || at + 2 == name.size()) return name;
  for (size_t i = at + 2; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return name;
  }
  return name.substr(0, at);
}

// Names as the Nsight Systems export's enum tables label them (nsys_enums.h); copy kinds
// and synchronisation types have CUPTI's values there, memory kinds are translated.
const char* copy_kind_name(uint32_t kind) {
  return enum_label("ENUM_CUDA_MEMCPY_OPER", static_cast<int>(kind));
}

const char* memory_kind_name(uint32_t kind) {
  return enum_label("ENUM_CUDA_MEM_KIND", nsys_mem_kind(kind));
}

const char* sync_type_name(uint32_t type) {
  return enum_label("ENUM_CUPTI_SYNC_TYPE", static_cast<int>(type));
}

std::string color_text(uint32_t argb) {
  char text[8];
  std::snprintf(text, sizeof(text), "#%06X", argb & 0xFFFFFFu);
  return text;
}

// A slice (`X` event) waiting for its lane.
struct Slice {
  uint64_t start = 0, end = 0;
  json event;  // without pid/tid/ts/dur
  // Flow ids leaving this slice (`s`, on API calls) and arriving at it (`f`, on device
  // work), written with the slice once its lane (tid) is known.
  std::vector<uint64_t> flows_out, flows_in;
};

// One logical track: (pid, tid) plus its display name and sort index.
struct Track {
  uint64_t pid = 0, tid = 0;
  std::string name;
  int64_t sort_index = 0;
  std::vector<Slice> slices;
};

class Writer {
 public:
  explicit Writer(const Trace& trace) : trace_(trace) {}

  json build();

 private:
  Track& host_track(uint32_t pid, uint32_t tid);
  Track& stream_track(uint32_t pid, uint32_t device_id, uint64_t stream_id);
  uint64_t gpu_pid(uint32_t pid, uint32_t device_id);
  std::string nvtx_domain_name(uint32_t pid, uint64_t domain_id) const;
  void add_device_work(const DeviceWork& work, json event);
  void add_flow(const DeviceWork& work, Slice& slice);
  void emit_tracks();
  void emit_metadata(uint64_t pid, const char* what, json args, std::optional<uint64_t> tid = {});

  const Trace& trace_;
  json events_ = json::array();
  std::map<std::pair<uint64_t, uint64_t>, Track> tracks_;       // (pid, tid)
  std::map<std::pair<uint32_t, uint32_t>, uint64_t> gpu_pids_;  // (pid, device) -> pid
  // (pid, correlation id) -> the API call's slice: (its track's key, its index there).
  std::map<std::pair<uint32_t, uint32_t>, std::pair<std::pair<uint64_t, uint64_t>, size_t>>
      api_by_corr_;
  uint64_t next_flow_id_ = 1;
  // Async ids of NVTX start/end ranges: numeric (Perfetto's JSON reader wants numbers or
  // hex strings), unique across processes.
  std::map<std::pair<uint32_t, uint64_t>, uint64_t> range_ids_;
  uint64_t next_lane_tid_ = kLaneTidBase;
};

void Writer::emit_metadata(uint64_t pid, const char* what, json args, std::optional<uint64_t> tid) {
  json event = {{"ph", "M"}, {"name", what}, {"pid", pid}, {"args", std::move(args)}};
  if (tid) event["tid"] = *tid;
  events_.push_back(std::move(event));
}

Track& Writer::host_track(uint32_t pid, uint32_t tid) {
  auto [it, inserted] = tracks_.try_emplace({pid, tid});
  Track& track = it->second;
  if (inserted) {
    track.pid = pid;
    track.tid = tid;
    track.name = tid == pid ? "Main thread" : "Thread " + std::to_string(tid);
    for (const Thread& thread : trace_.threads) {
      if (thread.pid == pid && thread.tid == tid && !thread.name.empty()) track.name = thread.name;
    }
    track.sort_index = tid == pid ? 0 : static_cast<int64_t>(tid);
  }
  return track;
}

uint64_t Writer::gpu_pid(uint32_t pid, uint32_t device_id) {
  auto [it, inserted] = gpu_pids_.try_emplace({pid, device_id}, 0);
  if (!inserted) return it->second;
  it->second = kGpuPidBase + gpu_pids_.size() - 1;
  std::string name = "GPU " + std::to_string(device_id);
  for (const Device& device : trace_.devices) {
    if (device.pid == pid && device.id == device_id && !device.name.empty()) {
      name += " (" + device.name + ")";
    }
  }
  std::set<uint32_t> pids;
  for (const Process& process : trace_.processes) pids.insert(process.pid);
  if (pids.size() > 1) name += " [pid " + std::to_string(pid) + "]";
  emit_metadata(it->second, "process_name", {{"name", name}});
  emit_metadata(it->second, "process_sort_index",
                {{"sort_index", 1000 + static_cast<int64_t>(gpu_pids_.size())}});
  emit_metadata(it->second, "process_labels", {{"labels", "pid " + std::to_string(pid)}});
  return it->second;
}

Track& Writer::stream_track(uint32_t pid, uint32_t device_id, uint64_t stream_id) {
  const uint64_t gpid = gpu_pid(pid, device_id);
  auto [it, inserted] = tracks_.try_emplace({gpid, stream_id});
  Track& track = it->second;
  if (inserted) {
    track.pid = gpid;
    track.tid = stream_id;
    track.name = "Stream " + std::to_string(stream_id);
    for (const Stream& stream : trace_.streams) {
      if (stream.pid != pid || stream.id != stream_id) continue;
      if (stream.kind == Stream::kLegacyNull) track.name += " (default)";
      if (!stream.name.empty()) track.name += " (" + stream.name + ")";
    }
    track.sort_index = static_cast<int64_t>(stream_id);
  }
  return track;
}

std::string Writer::nvtx_domain_name(uint32_t pid, uint64_t domain_id) const {
  if (domain_id == 0) return "";
  for (const NvtxDomain& domain : trace_.nvtx_domains) {
    if (domain.pid == pid && domain.id == domain_id) return domain.name;
  }
  return "domain " + std::to_string(domain_id);
}

void Writer::add_device_work(const DeviceWork& work, json event) {
  json& args = event["args"];
  args["device"] = work.device_id;
  args["context"] = work.context_id;
  args["stream"] = work.stream_id;
  args["correlation_id"] = work.correlation_id;
  if (work.graph_id != 0) args["graph_id"] = work.graph_id;
  if (work.graph_node_id != 0) args["graph_node_id"] = work.graph_node_id;
  Track& track = stream_track(work.pid, work.device_id, work.stream_id);
  track.slices.push_back({work.start, std::max(work.start, work.end), std::move(event), {}, {}});
  add_flow(work, track.slices.back());
}

void Writer::add_flow(const DeviceWork& work, Slice& slice) {
  if (work.correlation_id == 0) return;
  auto api = api_by_corr_.find({work.pid, work.correlation_id});
  if (api == api_by_corr_.end()) return;
  // One flow per (API call, device work) pair: a graph launch fans out to many.
  const uint64_t id = next_flow_id_++;
  const auto& [track_key, slice_index] = api->second;
  tracks_.at(track_key).slices.at(slice_index).flows_out.push_back(id);
  slice.flows_in.push_back(id);
}

// Lays each track's slices out on lanes where they nest, then writes them.
void Writer::emit_tracks() {
  for (auto& [key, track] : tracks_) {
    std::stable_sort(track.slices.begin(), track.slices.end(), [](const Slice& a, const Slice& b) {
      return a.start != b.start ? a.start < b.start : a.end > b.end;
    });
    struct Lane {
      uint64_t tid;
      std::vector<uint64_t> open_ends;  // ends of the enclosing slices, innermost last
    };
    std::vector<Lane> lanes = {{track.tid, {}}};
    for (Slice& slice : track.slices) {
      Lane* chosen = nullptr;
      for (Lane& lane : lanes) {
        while (!lane.open_ends.empty() && lane.open_ends.back() <= slice.start)
          lane.open_ends.pop_back();
        if (lane.open_ends.empty() || lane.open_ends.back() >= slice.end) {
          chosen = &lane;
          break;
        }
      }
      if (chosen == nullptr) {
        lanes.push_back({next_lane_tid_++, {}});
        chosen = &lanes.back();
        emit_metadata(
            track.pid, "thread_name",
            {{"name", track.name + " (overlap " + std::to_string(lanes.size() - 1) + ")"}},
            chosen->tid);
        emit_metadata(track.pid, "thread_sort_index", {{"sort_index", track.sort_index}},
                      chosen->tid);
      }
      chosen->open_ends.push_back(slice.end);
      json event = std::move(slice.event);
      event["ph"] = "X";
      event["pid"] = track.pid;
      event["tid"] = chosen->tid;
      event["ts"] = us(slice.start);
      event["dur"] = us(slice.end - slice.start);
      events_.push_back(std::move(event));
      // Flow ends bind to the slice enclosing their timestamp on the same track ("bp":"e"
      // for the arrow's end): the slice's midpoint, so that a zero-length neighbour at
      // its start (a call configuration pushed just before a launch) is not chosen.
      const uint64_t mid = slice.start + (slice.end - slice.start) / 2;
      for (uint64_t id : slice.flows_out) {
        events_.push_back({{"ph", "s"},
                           {"name", "launch"},
                           {"cat", "cuda_flow"},
                           {"id", id},
                           {"pid", track.pid},
                           {"tid", chosen->tid},
                           {"ts", us(mid)}});
      }
      for (uint64_t id : slice.flows_in) {
        events_.push_back({{"ph", "f"},
                           {"bp", "e"},
                           {"name", "launch"},
                           {"cat", "cuda_flow"},
                           {"id", id},
                           {"pid", track.pid},
                           {"tid", chosen->tid},
                           {"ts", us(mid)}});
      }
    }
    emit_metadata(track.pid, "thread_name", {{"name", track.name}}, track.tid);
    emit_metadata(track.pid, "thread_sort_index", {{"sort_index", track.sort_index}}, track.tid);
  }
}

json Writer::build() {
  const uint64_t session_end = trace_.end_ns();
  int64_t sort_index = 0;
  for (const Process& process : trace_.processes) {
    emit_metadata(process.pid, "process_name", {{"name", process.name}});
    emit_metadata(process.pid, "process_sort_index", {{"sort_index", sort_index++}});
  }
  for (const Api& call : trace_.apis) {
    json args = {{"correlation_id", call.correlation_id},
                 {"cbid", call.cbid},
                 {"api", call.name},
                 {"domain", call.domain == ApiDomain::kDriver ? "driver" : "runtime"},
                 {"return_value", call.return_value}};
    Track& track = host_track(call.pid, call.tid);
    track.slices.push_back(
        {call.start,
         std::max(call.start, call.end),
         {{"name", api_display_name(call.name)},
          {"cat", call.domain == ApiDomain::kDriver ? "cuda_driver" : "cuda_runtime"},
          {"args", std::move(args)}},
         {},
         {}});
    if (call.correlation_id != 0) {
      api_by_corr_.try_emplace(
          {call.pid, call.correlation_id},
          std::make_pair(std::make_pair(track.pid, track.tid), track.slices.size() - 1));
    }
  }
  for (const Sync& sync : trace_.syncs) {
    json args = {{"correlation_id", sync.correlation_id}, {"context", sync.context_id}};
    if (sync.stream_id) args["stream"] = *sync.stream_id;
    if (sync.event_id != 0) args["event"] = sync.event_id;
    host_track(sync.pid, sync.tid)
        .slices.push_back({sync.start,
                           std::max(sync.start, sync.end),
                           {{"name", sync_type_name(sync.type)},
                            {"cat", "cuda_sync"},
                            {"args", std::move(args)}}});
  }
  for (const Kernel& kernel : trace_.kernels) {
    json args = {
        {"mangled_name", kernel.name},
        {"grid", {kernel.grid[0], kernel.grid[1], kernel.grid[2]}},
        {"block", {kernel.block[0], kernel.block[1], kernel.block[2]}},
        {"registers_per_thread", kernel.registers_per_thread},
        {"static_shared_bytes", kernel.static_shared},
        {"dynamic_shared_bytes", kernel.dynamic_shared},
        {"local_bytes_per_thread", kernel.local_per_thread},
        {"grid_id", kernel.grid_id},
    };
    if (kernel.shared_config != 0) args["shared_config_bytes"] = kernel.shared_config;
    if (kernel.cooperative) args["cooperative"] = true;
    if (kernel.faulted) args["faulted"] = true;
    add_device_work(
        kernel,
        {{"name", demangle(kernel.name)}, {"cat", "cuda_kernel"}, {"args", std::move(args)}});
  }
  for (const Memcpy& copy : trace_.memcpys) {
    const std::string kind = copy_kind_name(copy.copy_kind);
    json args = {{"bytes", copy.bytes},
                 {"copy_kind", kind},
                 {"src_kind", memory_kind_name(copy.src_kind)},
                 {"dst_kind", memory_kind_name(copy.dst_kind)},
                 {"async", copy.async}};
    if (copy.copy_kind == CUPTI_ACTIVITY_MEMCPY_KIND_PTOP) {
      args["src_device"] = copy.src_device_id;
      args["dst_device"] = copy.dst_device_id;
    }
    add_device_work(copy, {{"name", "[CUDA memcpy " + kind + "]"},
                           {"cat", "cuda_memcpy"},
                           {"args", std::move(args)}});
  }
  for (const Memset& set : trace_.memsets) {
    json args = {{"bytes", set.bytes},
                 {"value", set.value},
                 {"memory_kind", memory_kind_name(set.mem_kind)},
                 {"async", set.async}};
    add_device_work(set,
                    {{"name", "[CUDA memset]"}, {"cat", "cuda_memset"}, {"args", std::move(args)}});
  }
  // Category names (nvtxNameCategory): records of their own, not events.
  std::map<std::tuple<uint32_t, uint64_t, uint32_t>, std::string> category_names;
  for (const Nvtx& mark : trace_.nvtx) {
    if (mark.kind == Nvtx::kCategory)
      category_names[{mark.pid, mark.domain_id, mark.category}] = mark.text;
  }
  for (const Nvtx& mark : trace_.nvtx) {
    if (mark.kind == Nvtx::kCategory) continue;
    json args = json::object();
    const std::string domain = nvtx_domain_name(mark.pid, mark.domain_id);
    if (!domain.empty()) args["domain"] = domain;
    if (mark.category != 0) {
      auto name = category_names.find({mark.pid, mark.domain_id, mark.category});
      if (name != category_names.end()) {
        args["category"] = name->second;
      } else {
        args["category"] = mark.category;
      }
    }
    if (mark.color) args["color"] = color_text(*mark.color);
    if (mark.payload != Nvtx::kNone) args["payload"] = mark.payload_value;
    const std::string cat = domain.empty() ? "nvtx" : "nvtx," + domain;
    switch (mark.kind) {
      case Nvtx::kMark:
        events_.push_back({{"ph", "i"},
                           {"s", "t"},
                           {"name", mark.text},
                           {"cat", cat},
                           {"pid", mark.pid},
                           {"tid", mark.tid},
                           {"ts", us(mark.start)},
                           {"args", std::move(args)}});
        break;
      case Nvtx::kPushPop: {
        if (!mark.end) args["open"] = true;
        const uint64_t end = std::max(mark.start, mark.end.value_or(session_end));
        host_track(mark.pid, mark.tid)
            .slices.push_back(
                {mark.start, end, {{"name", mark.text}, {"cat", cat}, {"args", std::move(args)}}});
        break;
      }
      case Nvtx::kStartEnd: {
        if (!mark.end) args["open"] = true;
        const uint64_t end = std::max(mark.start, mark.end.value_or(session_end));
        const uint64_t id =
            range_ids_.try_emplace({mark.pid, mark.range_id}, range_ids_.size() + 1).first->second;
        host_track(mark.pid, mark.tid);  // the range's thread gets its name even if idle
        events_.push_back({{"ph", "b"},
                           {"name", mark.text},
                           {"cat", cat},
                           {"id", id},
                           {"pid", mark.pid},
                           {"tid", mark.tid},
                           {"ts", us(mark.start)},
                           {"args", std::move(args)}});
        events_.push_back({{"ph", "e"},
                           {"name", mark.text},
                           {"cat", cat},
                           {"id", id},
                           {"pid", mark.pid},
                           {"tid", mark.end ? mark.end_tid : mark.tid},
                           {"ts", us(end)}});
        break;
      }
      case Nvtx::kCategory:
        break;
    }
  }
  emit_tracks();

  json processes = json::array();
  for (const Process& process : trace_.processes) {
    processes.push_back({{"pid", process.pid},
                         {"name", process.name},
                         {"command", process.command},
                         {"timing_mode", process.timing_mode},
                         {"session_start_utc_ns", process.session_start_utc_ns}});
  }
  return {
      {"traceEvents", std::move(events_)},
      {"displayTimeUnit", "ns"},
      {"otherData",
       {{"producer", "strata prof"}, {"clock", "virtual"}, {"processes", std::move(processes)}}}};
}

}  // namespace

Status export_chrome(const Trace& trace, const std::string& path) {
  const json document = Writer(trace).build();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return error(Code::kInvalidValue, "cannot write Chrome trace '" + path + "'");
  // Invalid UTF-8 in names (kernel symbols, NVTX text) is replaced, not thrown on.
  out << document.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  out.close();
  if (!out) return error(Code::kInvalidValue, "error writing Chrome trace '" + path + "'");
  return ok_status();
}

}  // namespace strata::prof
