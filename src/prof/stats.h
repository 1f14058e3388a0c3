// `strata stats`: the summary reports of `nsys stats` (Nsight Systems 2025.3, the release
// that accompanies CUDA 13.0) computed in SQL over a database in the schema of
// `nsys export --type sqlite`, so they work on any such database, Strata's or NVIDIA's.
//
// Reports (kStatsReports, in the default order): cuda_api_sum, cuda_gpu_kern_sum,
// cuda_gpu_mem_time_sum, cuda_gpu_mem_size_sum, nvtx_sum. Columns, units, rounding and
// sort order are documented with their sources in docs/profiler.md, "strata stats".
// median() and stdev() are aggregate functions registered on the connection, as the
// nsys report scripts register them: median is the middle value (the mean of the two
// middle values for an even count), stdev the sample standard deviation (n - 1), 0 for
// a single value.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"

struct sqlite3;

namespace strata::prof {

struct StatsReportInfo {
  const char* name;          // "cuda_api_sum"
  const char* display_name;  // "CUDA API Summary"
};
// All reports, in the order `strata stats` runs them by default.
const std::vector<StatsReportInfo>& stats_reports();

// One cell of a report: text, an integer, or a real shown with `decimals` decimals.
struct StatsValue {
  enum Kind { kNull, kText, kInteger, kReal } kind = kNull;
  std::string text;
  int64_t integer = 0;
  double real = 0;
  int decimals = 0;
};

struct StatsTable {
  std::string report;        // "cuda_api_sum"
  std::string display_name;  // "CUDA API Summary"
  std::vector<std::string> headers;
  std::vector<std::vector<StatsValue>> rows;
};

enum class StatsFormat { kTable, kCsv };

// A read-only connection to one database. Not thread-safe.
class StatsDatabase {
 public:
  // kFileNotFound when `path` does not exist; kInvalidValue naming the file when it is
  // not an SQLite database (or cannot be read).
  static StatusOr<std::unique_ptr<StatsDatabase>> open(const std::string& path);
  ~StatsDatabase();
  StatsDatabase(const StatsDatabase&) = delete;
  StatsDatabase& operator=(const StatsDatabase&) = delete;

  // Runs one report. kInvalidValue for an unknown report name; kNotFound when the
  // database lacks a table the report needs (the message names the report and the
  // table; `nsys stats` skips such a report, and so does `strata stats`); kUnknown with
  // SQLite's message when a query fails (e.g. a table lacking a column).
  StatusOr<StatsTable> run(const std::string& report);

  const std::string& path() const { return path_; }

 private:
  StatsDatabase(std::string path, sqlite3* db) : path_(std::move(path)), db_(db) {}
  bool has_table(const std::string& name);

  std::string path_;
  sqlite3* db_ = nullptr;
};

// Formats a report. kTable: the aligned text table of `nsys stats` (numbers right
// aligned with thousands separators, text left aligned, headers centred, a dashed rule).
// kCsv: RFC 4180 CSV as nsys writes it, a header line then one line per row, every
// field quoted (quotes doubled), numbers without separators.
std::string format_stats(const StatsTable& table, StatsFormat format);

}  // namespace strata::prof
