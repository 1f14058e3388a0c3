// `strata run --report`: summarises the performance log (report.h).
#include "tools/report.h"

#include <cxxabi.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace strata::tools {
namespace {

using nlohmann::json;

// Objects a counter may be nested in (part of the log schema's evolution, not of one
// writer: a name not found at the top level is looked up one level down).
constexpr const char* kNested[] = {"stats", "kernel_stats", "counters", "kernel", "model", "time"};

const json* find_key(const json& line, const char* key) {
  if (!line.is_object()) return nullptr;
  if (auto it = line.find(key); it != line.end()) return &*it;
  for (const char* nested : kNested) {
    auto it = line.find(nested);
    if (it == line.end() || !it->is_object()) continue;
    if (auto inner = it->find(key); inner != it->end()) return &*inner;
  }
  return nullptr;
}

std::optional<double> number(const json& line, const char* key) {
  const json* v = find_key(line, key);
  if (v == nullptr || !v->is_number()) return std::nullopt;
  return v->get<double>();
}

std::optional<std::string> text(const json& line, const char* key) {
  const json* v = find_key(line, key);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return v->get<std::string>();
}

// A MemoryCounts member: {"global_loads": {"requests", "sectors"}} or flat
// "global_loads_requests" / "global_loads_sectors".
std::optional<double> memory_count(const json& line, const std::string& group, const char* field) {
  if (const json* obj = find_key(line, group.c_str()); obj != nullptr && obj->is_object()) {
    if (auto it = obj->find(field); it != obj->end() && it->is_number()) return it->get<double>();
  }
  return number(line, (group + "_" + field).c_str());
}

// A sum that remembers whether any line contributed to it.
struct Sum {
  double value = 0;
  bool seen = false;
  void add(std::optional<double> v) {
    if (v) value += *v, seen = true;
  }
};

struct KernelRow {
  std::string name;
  uint64_t launches = 0;
  Sum time_ns;
  std::map<std::string, double> bound_ns;  // modeled time per bound
  Sum warp_instructions, thread_instructions;
  Sum global_requests, global_sectors;
  Sum bank_conflicts;
  Sum l1_hits, l1_misses, l2_hits, l2_misses;
};

struct CopyRow {
  uint64_t count = 0;
  Sum bytes, time_ns;
};

bool is_kernel(const json& line) {
  if (auto op = text(line, "op")) {
    return *op == "grid" || op->find("launch") != std::string::npos ||
           op->find("kernel") != std::string::npos;  // "launch", "device_launch", ...
  }
  return false;
}

bool is_copy(const std::string& op) {
  return op.find("copy") != std::string::npos || op.find("fill") != std::string::npos ||
         op.find("memset") != std::string::npos;
}

// The copy kind: the writer's "kind"/"direction" if any, else src->dst, else the op.
std::string copy_kind(const json& line, const std::string& op) {
  if (auto kind = text(line, "kind")) return *kind;
  if (auto dir = text(line, "direction")) return *dir;
  auto src = text(line, "src"), dst = text(line, "dst");
  if (src && dst) return fmt::format("{} {}->{}", op, *src, *dst);
  return op;
}

std::optional<double> duration_ns(const json& line) {
  auto start = number(line, "start_ns"), end = number(line, "end_ns");
  if (start && end && *end >= *start) return *end - *start;
  return number(line, "duration_ns");
}

std::string cell(const Sum& s, const char* format = "{:.0f}") {
  return s.seen ? fmt::format(fmt::runtime(format), s.value) : "-";
}

std::string ratio(const Sum& num, const Sum& den, double scale = 1.0,
                  const char* format = "{:.2f}") {
  if (!num.seen || !den.seen || den.value <= 0) return "-";
  return fmt::format(fmt::runtime(format), num.value / den.value * scale);
}

std::string hit_rate(const Sum& hits, const Sum& misses) {
  if (!hits.seen || !misses.seen || hits.value + misses.value <= 0) return "-";
  return fmt::format("{:.1f}%", 100.0 * hits.value / (hits.value + misses.value));
}

std::string time_cell(double ns) {
  if (ns >= 1e9) return fmt::format("{:.3f} s", ns / 1e9);
  if (ns >= 1e6) return fmt::format("{:.3f} ms", ns / 1e6);
  if (ns >= 1e3) return fmt::format("{:.3f} us", ns / 1e3);
  return fmt::format("{:.0f} ns", ns);
}

// Prints rows as aligned columns (the first column left-aligned, the others right).
std::string table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width;
  for (const auto& row : rows) {
    width.resize(std::max(width.size(), row.size()), 0);
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  std::string out;
  for (const auto& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) {
      if (i == 0) {
        out += fmt::format("{:<{}}", row[i], width[i]);
      } else {
        out += fmt::format("  {:>{}}", row[i], width[i]);
      }
    }
    out += '\n';
  }
  return out;
}

}  // namespace

std::string demangle(const std::string& name) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && out ? std::string(out.get()) : name;
}

std::string render_report(std::string_view jsonl) {
  std::map<int64_t, std::string> names;       // kernel_id -> mangled name
  std::vector<json> kernels;                  // kernel command lines, in log order
  std::map<std::string, CopyRow> copies;      // by kind
  std::map<std::string, uint64_t> other_ops;  // everything else, counted
  uint64_t bad_lines = 0;

  size_t pos = 0;
  while (pos < jsonl.size()) {
    size_t end = jsonl.find('\n', pos);
    if (end == std::string_view::npos) end = jsonl.size();
    std::string_view text_line = jsonl.substr(pos, end - pos);
    pos = end + 1;
    if (text_line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    json line = json::parse(text_line, nullptr, /*allow_exceptions=*/false);
    if (line.is_discarded() || !line.is_object()) {
      ++bad_lines;
      continue;
    }
    auto op = text(line, "op");
    auto id = number(line, "kernel_id");
    auto name = text(line, "name");
    if (!op && id && name) {
      names[static_cast<int64_t>(*id)] = *name;
    } else if (is_kernel(line)) {
      kernels.push_back(std::move(line));
    } else if (op && is_copy(*op)) {
      CopyRow& row = copies[copy_kind(line, *op)];
      ++row.count;
      row.bytes.add(number(line, "bytes"));
      if (!row.bytes.seen) row.bytes.add(number(line, "size"));
      row.time_ns.add(duration_ns(line));
    } else {
      ++other_ops[op ? *op : "(no op)"];
    }
  }

  // Kernels by name (or by id when the driver named none), in order of first launch.
  std::vector<std::string> order;
  std::map<std::string, KernelRow> rows;
  for (const json& line : kernels) {
    std::string name = text(line, "name").value_or("");
    if (auto id = number(line, "kernel_id"); name.empty() && id) {
      auto it = names.find(static_cast<int64_t>(*id));
      name = it != names.end() ? it->second : fmt::format("kernel#{}", static_cast<int64_t>(*id));
    }
    if (name.empty()) name = "(unnamed kernel)";
    auto [it, inserted] = rows.try_emplace(name);
    if (inserted) order.push_back(name), it->second.name = demangle(name);
    KernelRow& row = it->second;
    ++row.launches;
    auto ns = duration_ns(line);
    row.time_ns.add(ns);
    if (auto bound = text(line, "bound")) row.bound_ns[*bound] += ns.value_or(0);
    row.warp_instructions.add(number(line, "warp_instructions"));
    row.thread_instructions.add(number(line, "thread_instructions"));
    for (const char* group : {"global_loads", "global_stores", "global_atomics"}) {
      row.global_requests.add(memory_count(line, group, "requests"));
      row.global_sectors.add(memory_count(line, group, "sectors"));
    }
    row.bank_conflicts.add(number(line, "shared_bank_conflicts"));
    row.l1_hits.add(number(line, "l1_hits"));
    row.l1_misses.add(number(line, "l1_misses"));
    row.l2_hits.add(number(line, "l2_hits"));
    row.l2_misses.add(number(line, "l2_misses"));
  }

  std::string out = "== strata run --report: modeled times (virtual clock) ==\n";
  if (order.empty()) {
    out += "no kernels\n";
  } else {
    std::vector<std::vector<std::string>> t = {{"kernel", "launches", "total", "average", "bound",
                                                "warp insts", "insts/lane", "sectors/req",
                                                "bank confl", "L1 hit", "L2 hit"}};
    for (const std::string& key : order) {
      const KernelRow& r = rows[key];
      std::string bound = "-";
      double best = -1;
      for (const auto& [b, ns] : r.bound_ns) {
        if (ns > best) best = ns, bound = b;
      }
      t.push_back(
          {r.name, std::to_string(r.launches), r.time_ns.seen ? time_cell(r.time_ns.value) : "-",
           r.time_ns.seen ? time_cell(r.time_ns.value / static_cast<double>(r.launches)) : "-",
           bound, cell(r.warp_instructions),
           ratio(r.thread_instructions, r.warp_instructions, 1.0 / 32.0),
           ratio(r.global_sectors, r.global_requests), cell(r.bank_conflicts),
           hit_rate(r.l1_hits, r.l1_misses), hit_rate(r.l2_hits, r.l2_misses)});
    }
    out += table(t);
    out +=
        "insts/lane: thread-instructions / (warp instructions x 32), the average fraction of "
        "active lanes\n";
  }
  if (!copies.empty()) {
    out += "\n";
    std::vector<std::vector<std::string>> t = {{"copy kind", "count", "bytes", "total", "GB/s"}};
    for (const auto& [kind, r] : copies) {
      std::string bandwidth = "-";
      if (r.bytes.seen && r.time_ns.seen && r.time_ns.value > 0) {
        bandwidth = fmt::format("{:.2f}", r.bytes.value / r.time_ns.value);  // bytes/ns = GB/s
      }
      t.push_back({kind, std::to_string(r.count), cell(r.bytes),
                   r.time_ns.seen ? time_cell(r.time_ns.value) : "-", bandwidth});
    }
    out += table(t);
  }
  if (!other_ops.empty()) {
    out += "\nother commands:";
    for (const auto& [op, n] : other_ops) out += fmt::format(" {} x{}", op, n);
    out += "\n";
  }
  if (bad_lines > 0) out += fmt::format("({} unreadable log lines skipped)\n", bad_lines);
  return out;
}

}  // namespace strata::tools
