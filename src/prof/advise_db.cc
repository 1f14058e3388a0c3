// advise_database (advise.h): reads an nsys-schema database with Strata's tables and
// runs the advisor over it.
#include <fmt/format.h>
#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <set>
#include <tuple>

#include "prof/advise.h"

namespace strata::prof {
namespace {

// A read-only connection; queries call `row` once per result row.
class Database {
 public:
  ~Database() {
    if (db_ != nullptr) sqlite3_close(db_);
  }
  Status open(const std::string& path) {
    if (!std::filesystem::exists(path))
      return error(Code::kNotFound, fmt::format("{}: no such file", path));
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK)
      return error(Code::kInvalidValue,
                   fmt::format("{}: cannot open as SQLite: {}", path, sqlite3_errmsg(db_)));
    path_ = path;
    // Reading the schema fails on a file that is not a database.
    RETURN_IF_ERROR(query("SELECT name FROM sqlite_master WHERE type = 'table'",
                          [&](sqlite3_stmt* s) { tables_.insert(text(s, 0)); }));
    return Status();
  }
  bool has(const std::string& table) const { return tables_.count(table) > 0; }
  Status query(const std::string& sql, const std::function<void(sqlite3_stmt*)>& row) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
      Status st = error(Code::kInvalidValue, fmt::format("{}: not an nsys-schema database ({}): {}",
                                                         path_, sqlite3_errmsg(db_), sql));
      sqlite3_finalize(stmt);
      return st;
    }
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) row(stmt);
    sqlite3_finalize(stmt);
    if (rc != SQLITE_DONE)
      return error(Code::kInvalidValue, fmt::format("{}: {}", path_, sqlite3_errmsg(db_)));
    return Status();
  }
  static std::string text(sqlite3_stmt* s, int col) {
    const unsigned char* t = sqlite3_column_text(s, col);
    return t != nullptr ? reinterpret_cast<const char*>(t) : "";
  }
  static uint64_t u64(sqlite3_stmt* s, int col) {
    return static_cast<uint64_t>(sqlite3_column_int64(s, col));
  }

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
  std::set<std::string> tables_;
};

using KernelKey = std::tuple<uint64_t, uint32_t, uint64_t>;  // globalPid, deviceId, gridId

struct Launch {
  KernelKey key;
  std::string name;
  uint64_t duration = 0;
};

// Combines the launches' metrics (advise.h): ".sum" summed, others duration-weighted.
void combine(
    KernelGroup& g,
    const std::vector<std::pair<uint64_t, const std::map<std::string, double>*>>& launches) {
  std::map<std::string, double> sums, weights;
  for (const auto& [duration, metrics] : launches) {
    const double w = std::max<double>(static_cast<double>(duration), 1.0);
    for (const auto& [name, value] : *metrics) {
      const bool is_sum = name.size() > 4 && name.compare(name.size() - 4, 4, ".sum") == 0;
      sums[name] += is_sum ? value : value * w;
      if (!is_sum) weights[name] += w;
    }
  }
  for (const auto& [name, value] : sums) {
    auto it = weights.find(name);
    g.metrics[name] = it == weights.end() ? value : value / it->second;
  }
}

}  // namespace

StatusOr<Advice> advise_database(const std::string& path) {
  Database db;
  RETURN_IF_ERROR(db.open(path));
  Advice advice;
  if (db.has("STRATA_SESSION")) {
    RETURN_IF_ERROR(db.query("SELECT name, value FROM STRATA_SESSION", [&](sqlite3_stmt* s) {
      advice.session[Database::text(s, 0)] = Database::text(s, 1);
    }));
  }
  std::map<uint32_t, DeviceConfig> configs;
  if (db.has("STRATA_DEVICE_CONFIG")) {
    RETURN_IF_ERROR(
        db.query("SELECT deviceId, name, value FROM STRATA_DEVICE_CONFIG", [&](sqlite3_stmt* s) {
          configs[static_cast<uint32_t>(sqlite3_column_int64(s, 0))][Database::text(s, 1)] =
              sqlite3_column_double(s, 2);
        }));
  }
  auto read_values = [&](const char* table,
                         std::map<KernelKey, std::map<std::string, double>>* out) {
    if (!db.has(table)) return Status();
    return db.query(fmt::format("SELECT globalPid, deviceId, gridId, name, value FROM {}", table),
                    [&](sqlite3_stmt* s) {
                      KernelKey key{Database::u64(s, 0),
                                    static_cast<uint32_t>(sqlite3_column_int64(s, 1)),
                                    Database::u64(s, 2)};
                      (*out)[key][Database::text(s, 3)] = sqlite3_column_double(s, 4);
                    });
  };
  std::map<KernelKey, std::map<std::string, double>> metrics, counters;
  RETURN_IF_ERROR(read_values("STRATA_KERNEL_METRICS", &metrics));
  RETURN_IF_ERROR(read_values("STRATA_KERNEL_COUNTERS", &counters));
  advice.has_metrics = !metrics.empty();
  std::map<KernelKey, std::vector<SourceLine>> sources;
  if (db.has("STRATA_KERNEL_SOURCE")) {
    RETURN_IF_ERROR(db.query(
        "SELECT globalPid, deviceId, gridId, file, line, isPtxLine, warpInstructions, "
        "threadInstructions, globalRequests, globalSectors, globalBytes, localRequests, "
        "localSectors, sharedRequests, sharedWavefronts, sharedBankConflicts "
        "FROM STRATA_KERNEL_SOURCE",
        [&](sqlite3_stmt* s) {
          KernelKey key{Database::u64(s, 0), static_cast<uint32_t>(sqlite3_column_int64(s, 1)),
                        Database::u64(s, 2)};
          SourceLine l;
          l.file = Database::text(s, 3);
          l.line = static_cast<uint32_t>(sqlite3_column_int64(s, 4));
          l.ptx = sqlite3_column_int64(s, 5) != 0;
          uint64_t* fields[] = {&l.warp_instructions, &l.thread_instructions, &l.global_requests,
                                &l.global_sectors,    &l.global_bytes,        &l.local_requests,
                                &l.local_sectors,     &l.shared_requests,     &l.shared_wavefronts,
                                &l.shared_bank_conflicts};
          for (int i = 0; i < 10; ++i) *fields[i] = Database::u64(s, 6 + i);
          sources[key].push_back(std::move(l));
        }));
  }

  std::vector<StreamWork> work;
  std::vector<Launch> launches;
  if (db.has("CUPTI_ACTIVITY_KIND_KERNEL")) {
    const std::string names =
        db.has("StringIds") ? "LEFT JOIN StringIds s ON s.id = k.demangledName" : "";
    RETURN_IF_ERROR(db.query(
        fmt::format("SELECT k.globalPid, k.deviceId, k.gridId, k.start, k.end, k.streamId, {} "
                    "FROM CUPTI_ACTIVITY_KIND_KERNEL k {} ORDER BY k.start",
                    names.empty() ? "CAST(k.demangledName AS TEXT)" : "s.value", names),
        [&](sqlite3_stmt* s) {
          Launch l;
          l.key = {Database::u64(s, 0), static_cast<uint32_t>(sqlite3_column_int64(s, 1)),
                   Database::u64(s, 2)};
          const uint64_t start = Database::u64(s, 3), end = Database::u64(s, 4);
          l.duration = end > start ? end - start : 0;
          l.name = Database::text(s, 6);
          launches.push_back(l);
          work.push_back({Database::u64(s, 0) >> 24, std::get<1>(l.key), Database::u64(s, 5), start,
                          end, StreamWork::Kind::kKernel, 0});
        }));
  }
  for (const auto& [table, kind] :
       {std::pair{"CUPTI_ACTIVITY_KIND_MEMCPY", StreamWork::Kind::kMemcpy},
        std::pair{"CUPTI_ACTIVITY_KIND_MEMSET", StreamWork::Kind::kMemset}}) {
    if (!db.has(table)) continue;
    const StreamWork::Kind k = kind;
    RETURN_IF_ERROR(db.query(
        fmt::format("SELECT globalPid, deviceId, streamId, start, end, bytes FROM {}", table),
        [&](sqlite3_stmt* s) {
          work.push_back({Database::u64(s, 0) >> 24,
                          static_cast<uint32_t>(sqlite3_column_int64(s, 1)), Database::u64(s, 2),
                          Database::u64(s, 3), Database::u64(s, 4), k, Database::u64(s, 5)});
        }));
  }

  // Group by (device, name).
  std::map<std::pair<uint32_t, std::string>, std::vector<const Launch*>> groups;
  for (const Launch& l : launches) groups[{std::get<1>(l.key), l.name}].push_back(&l);
  uint64_t all_ns = 0;
  for (const Launch& l : launches) all_ns += l.duration;
  static const std::map<std::string, double> kNone;
  for (const auto& [key, members] : groups) {
    KernelAdvice k;
    k.group.device_id = key.first;
    k.group.name = key.second;
    k.group.launches = members.size();
    std::vector<std::pair<uint64_t, const std::map<std::string, double>*>> parts;
    const Launch* longest = nullptr;
    for (const Launch* l : members) {
      k.group.total_ns += l->duration;
      auto it = metrics.find(l->key);
      if (it != metrics.end()) parts.push_back({l->duration, &it->second});
      if (longest == nullptr || l->duration > longest->duration) longest = l;
    }
    combine(k.group, parts);
    // Per-line counters add up over the launches (the same code).
    std::map<std::tuple<bool, std::string, uint32_t>, SourceLine> lines;
    for (const Launch* l : members) {
      auto it = sources.find(l->key);
      if (it == sources.end()) continue;
      for (const SourceLine& s : it->second) {
        auto [t, fresh] = lines.try_emplace({s.ptx, s.file, s.line}, s);
        if (!fresh) add_counts(t->second, s);
      }
    }
    for (auto& [line_key, s] : lines) k.group.source.push_back(std::move(s));
    if (auto it = counters.find(longest->key); it != counters.end()) k.group.counters = it->second;
    k.time_share = all_ns > 0 ? static_cast<double>(k.group.total_ns) / all_ns : 0;
    auto cfg = configs.find(key.first);
    k.verdicts = advise_kernel(k.group, cfg != configs.end() ? cfg->second : DeviceConfig{});
    advice.kernels.push_back(std::move(k));
  }
  std::stable_sort(advice.kernels.begin(), advice.kernels.end(),
                   [](const KernelAdvice& a, const KernelAdvice& b) {
                     return a.group.total_ns > b.group.total_ns;
                   });
  advice.program = advise_program(work, configs.empty() ? DeviceConfig{} : configs.begin()->second);
  return advice;
}

}  // namespace strata::prof
