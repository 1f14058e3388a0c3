// strata sweep DIR --arch NAME|PATH [--set section.field=v1,v2,...]... [--timing
// fast|detailed|both] [--perf-log FILE] [--csv]: replays every kernel recorded in DIR
// (STRATA_RECORD_DIR=DIR strata run ...) under each config of the cartesian product of
// the overrides and prints, per timing model, one row per config: the varied fields, each
// kernel's modeled time (its launches summed), the total, the speedup against the first
// config and the replayed DRAM traffic. --csv prints one line per config and recorded
// launch instead. The replay and its approximations: hw/perf/replay.h,
// docs/perf-model.md ("Record and replay").
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "hw/config/arch_config.h"
#include "hw/perf/replay.h"
#include "hw/perf/trace.h"
#include "tools/commands.h"
#include "tools/report.h"

namespace strata::tools {
namespace {

struct SweepOptions {
  std::string dir;
  std::string arch = "strata-g1";
  std::vector<std::string> sets;
  std::string timing = "fast";
  std::string perf_log;
  bool csv = false;
};

struct Recorded {
  std::string file;
  hw::perf::KernelTrace trace;
};

// Kernel names from a perf log: the driver's {"kernel_id", "name"} lines (report.h).
std::map<uint64_t, std::string> kernel_names(const std::string& path) {
  std::map<uint64_t, std::string> names;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object() || j.contains("op") || !j.contains("kernel_id") || !j.contains("name"))
      continue;
    if (j["kernel_id"].is_number_unsigned() && j["name"].is_string())
      names[j["kernel_id"].get<uint64_t>()] = j["name"].get<std::string>();
  }
  return names;
}

std::string short_name(std::string name, size_t width) {
  name = demangle(name);
  if (const size_t paren = name.find('('); paren != std::string::npos) name.resize(paren);
  if (name.starts_with("void ")) name = name.substr(5);  // a template's return type
  if (name.size() > width) name = name.substr(0, width - 1) + "~";
  return name;
}

std::string microseconds(uint64_t ns) {
  return fmt::format("{:.3f}", static_cast<double>(ns) / 1000.0);
}

std::string label_of(const hw::perf::Assignment& a, const std::string& base) {
  if (a.empty()) return base;
  std::string out;
  for (const auto& [key, value] : a) out += (out.empty() ? "" : " ") + key + "=" + value;
  return out;
}

int sweep(const SweepOptions& o) {
  using namespace hw::perf;
  ReplayTiming timing = ReplayTiming::kFast;
  if (o.timing == "detailed")
    timing = ReplayTiming::kDetailed;
  else if (o.timing == "both")
    timing = ReplayTiming::kBoth;
  else if (o.timing != "fast") {
    fmt::print(stderr, "strata sweep: --timing {}: expected fast, detailed or both\n", o.timing);
    return 2;
  }

  // The base config (name or path, as strata info --arch) and its text for the overrides.
  StatusOr<hw::ArchConfig> base = hw::load_arch_config(o.arch);
  if (!base.ok()) {
    fmt::print(stderr, "strata sweep: {}\n", base.status().message());
    return 1;
  }
  std::ifstream in(base->source_path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  std::vector<ConfigOverride> overrides;
  for (const std::string& s : o.sets) {
    StatusOr<ConfigOverride> parsed = parse_override(s);
    if (!parsed.ok()) {
      fmt::print(stderr, "strata sweep: {}\n", parsed.status().message());
      return 2;
    }
    overrides.push_back(std::move(*parsed));
  }
  const std::vector<Assignment> product = override_product(overrides);
  std::vector<hw::ArchConfig> configs;
  for (const Assignment& a : product) {
    StatusOr<hw::ArchConfig> c = apply_overrides(text.str(), base->source_path, a);
    if (!c.ok()) {
      fmt::print(stderr, "strata sweep: invalid config: {}\n", c.status().message());
      return 1;
    }
    configs.push_back(std::move(*c));
  }

  // The recordings, in (device, seq) order.
  std::vector<Recorded> kernels;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(o.dir, ec)) {
    if (entry.path().extension() != ".strace") continue;
    StatusOr<KernelTrace> t = read_trace(entry.path().string());
    if (!t.ok()) {
      fmt::print(stderr, "strata sweep: {}\n", t.status().message());
      return 1;
    }
    if (!t->record.present) {
      fmt::print(stderr,
                 "strata sweep: {}: a trace without a recording (record with "
                 "STRATA_RECORD_DIR)\n",
                 entry.path().string());
      return 1;
    }
    kernels.push_back({entry.path().filename().string(), std::move(*t)});
  }
  if (ec) {
    fmt::print(stderr, "strata sweep: cannot read {}: {}\n", o.dir, ec.message());
    return 1;
  }
  if (kernels.empty()) {
    fmt::print(stderr, "strata sweep: no recorded kernels (*.strace) in {}\n", o.dir);
    return 1;
  }
  std::sort(kernels.begin(), kernels.end(), [](const Recorded& a, const Recorded& b) {
    return std::pair(a.trace.record.device, a.trace.record.seq) <
           std::pair(b.trace.record.device, b.trace.record.seq);
  });
  const std::map<uint64_t, std::string> names =
      o.perf_log.empty() ? std::map<uint64_t, std::string>{} : kernel_names(o.perf_log);

  // Replays: [config][kernel].
  std::vector<std::vector<KernelReplay>> results(configs.size());
  for (size_t c = 0; c < configs.size(); ++c) {
    // Each device's L2 persists from kernel to kernel, as in the simulator.
    std::map<uint32_t, std::unique_ptr<CacheState>> l2;
    for (const Recorded& k : kernels) {
      std::unique_ptr<CacheState>& device_l2 = l2[k.trace.record.device];
      if (device_l2 == nullptr) device_l2 = std::make_unique<CacheState>(configs[c]);
      StatusOr<KernelReplay> r = replay_kernel(k.trace, configs[c], timing, device_l2.get());
      if (!r.ok()) {
        fmt::print(stderr, "strata sweep: {} under {}: {}\n", k.file,
                   label_of(product[c], configs[c].name), r.status().message());
        return 1;
      }
      results[c].push_back(std::move(*r));
    }
  }

  std::vector<std::pair<std::string, bool>> models;  // {name, detailed}
  if (timing != ReplayTiming::kDetailed) models.emplace_back("fast", false);
  if (timing != ReplayTiming::kFast) models.emplace_back("detailed", true);
  const auto time_of = [](const KernelReplay& r, bool detailed) {
    return detailed ? r.detailed_time : r.fast;
  };
  const auto name_of = [&](const Recorded& k) {
    const auto it = names.find(k.trace.record.kernel_id);
    return it != names.end() ? it->second : fmt::format("k{}", k.trace.record.kernel_id);
  };

  if (o.csv) {
    fmt::print(
        "config,timing,device,seq,kernel_id,kernel,ns,cycles,launch_ns,bound,sm0_ctas,"
        "l1_hits,l1_misses,l2_hits,l2_misses,dram_read_sectors,dram_write_sectors\n");
    for (const auto& [model, detailed] : models) {
      for (size_t c = 0; c < configs.size(); ++c) {
        for (size_t k = 0; k < kernels.size(); ++k) {
          const KernelReplay& r = results[c][k];
          const KernelTime t = time_of(r, detailed);
          const RecordInfo& rec = kernels[k].trace.record;
          fmt::print("\"{}\",{},{},{},{},\"{}\",{},{},{},{},{},{},{},{},{},{},{}\n",
                     label_of(product[c], configs[c].name), model, rec.device, rec.seq,
                     rec.kernel_id, demangle(name_of(kernels[k])), t.ns, t.cycles, t.launch_ns,
                     bound_name(t.bound), r.sm0_ctas, r.stats.l1_hits, r.stats.l1_misses,
                     r.stats.l2_hits, r.stats.l2_misses, r.stats.dram_read_sectors,
                     r.stats.dram_write_sectors);
        }
      }
    }
    return 0;
  }

  // Columns: one per kernel (device, kernel id), its launches summed, in first-launch order.
  std::vector<std::pair<uint32_t, uint64_t>> columns;
  std::map<std::pair<uint32_t, uint64_t>, std::pair<size_t, int>> column_of;  // -> index, launches
  std::vector<std::string> headers;
  for (const Recorded& k : kernels) {
    const auto key = std::pair(k.trace.record.device, k.trace.record.kernel_id);
    auto [it, inserted] = column_of.try_emplace(key, columns.size(), 0);
    if (inserted) columns.push_back(key), headers.push_back(short_name(name_of(k), 22));
    ++it->second.second;
  }
  for (size_t i = 0; i < columns.size(); ++i) {
    const int launches = column_of[columns[i]].second;
    if (launches > 1) headers[i] += fmt::format(" x{}", launches);
  }
  std::vector<std::string> labels;
  size_t label_width = 6;
  for (size_t c = 0; c < configs.size(); ++c) {
    labels.push_back(label_of(product[c], configs[c].name));
    label_width = std::max(label_width, labels.back().size());
  }
  std::vector<std::string> recorded_under;  // the recording configs, "name (hash)"
  for (const Recorded& k : kernels) {
    const std::string r =
        fmt::format("{} ({})", k.trace.record.config_name, k.trace.record.config_hash);
    if (std::find(recorded_under.begin(), recorded_under.end(), r) == recorded_under.end())
      recorded_under.push_back(r);
  }
  std::string under;
  for (const std::string& r : recorded_under) under += (under.empty() ? "" : ", ") + r;
  fmt::print(
      "strata sweep: {} launch(es) of {} kernel(s) recorded in {} under {}; base config "
      "{} ({}, content hash {}), {} config(s); times in microseconds, launch overhead "
      "included\n",
      kernels.size(), columns.size(), o.dir, under, base->name, base->source_path,
      base->content_hash, configs.size());
  const auto width_of = [](const std::string& h) { return std::max<size_t>(h.size(), 10); };
  for (const auto& [model, detailed] : models) {
    fmt::print("\n{} model\n", model);
    std::string header = fmt::format("{:<{}}", "config", label_width);
    for (const std::string& h : headers) header += fmt::format("  {:>{}}", h, width_of(h));
    header += fmt::format("  {:>14}  {:>8}  {:>14}", "total", "speedup", "DRAM sectors");
    fmt::print("{}\n", header);
    uint64_t first_total = 0;
    for (size_t c = 0; c < configs.size(); ++c) {
      std::vector<uint64_t> per_column(columns.size(), 0);
      uint64_t total = 0, dram = 0;
      for (size_t k = 0; k < kernels.size(); ++k) {
        const KernelReplay& r = results[c][k];
        const uint64_t ns = time_of(r, detailed).ns;
        const RecordInfo& rec = kernels[k].trace.record;
        per_column[column_of[{rec.device, rec.kernel_id}].first] += ns;
        total += ns;
        dram += r.stats.dram_read_sectors + r.stats.dram_write_sectors;
      }
      if (c == 0) first_total = total;
      std::string row = fmt::format("{:<{}}", labels[c], label_width);
      for (size_t i = 0; i < columns.size(); ++i)
        row += fmt::format("  {:>{}}", microseconds(per_column[i]), width_of(headers[i]));
      const double speedup =
          total > 0 ? static_cast<double>(first_total) / static_cast<double>(total) : 0.0;
      row += fmt::format("  {:>14}  {:>8}  {:>14}", microseconds(total),
                         fmt::format("{:.3f}x", speedup), dram);
      fmt::print("{}\n", row);
    }
  }
  return 0;
}

}  // namespace

void add_sweep_command(CLI::App& app, int* exit_code) {
  auto o = std::make_shared<SweepOptions>();
  CLI::App* sub = app.add_subcommand(
      "sweep", "Replay kernels recorded with STRATA_RECORD_DIR under many architecture configs");
  sub->add_option("dir", o->dir, "directory of recorded kernels (*.strace)")->required();
  sub->add_option("--arch", o->arch,
                  "base architecture config: a name in the arch directory or a .toml path "
                  "(default strata-g1)");
  sub->add_option("--set", o->sets,
                  "section.field=v1,v2,...: sweep a config field over these values (repeatable; "
                  "the cartesian product is replayed)")
      ->allow_extra_args(false);
  sub->add_option("--timing", o->timing, "fast (default), detailed or both");
  sub->add_option("--perf-log", o->perf_log,
                  "a STRATA_PERF_LOG of the recorded run, to name kernels");
  sub->add_flag("--csv", o->csv, "one CSV line per config and recorded launch");
  sub->callback([o, exit_code] { *exit_code = sweep(*o); });
}

}  // namespace strata::tools
