// The nsys-stats reports (stats.h). Each report is one SQL query over the Nsight Systems
// export schema plus the column layout its result is read with; the semantics follow
// the report descriptions of "Statistical Reports Shipped With Nsight Systems" and are
// documented in docs/profiler.md, "strata stats".
#include "prof/stats.h"

#include <sqlite3.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>

namespace strata::prof {
namespace {

// ---------------------------------------------------------------------------------------
// median() and stdev(): aggregate functions over the numeric values of a group.

std::vector<double>* values_of(sqlite3_context* context, bool create) {
  auto** slot = static_cast<std::vector<double>**>(
      sqlite3_aggregate_context(context, create ? sizeof(std::vector<double>*) : 0));
  if (slot == nullptr) return nullptr;
  if (*slot == nullptr && create) *slot = new std::vector<double>();
  return *slot;
}

void collect_step(sqlite3_context* context, int, sqlite3_value** argv) {
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
  std::vector<double>* values = values_of(context, /*create=*/true);
  if (values == nullptr) {
    sqlite3_result_error_nomem(context);
    return;
  }
  values->push_back(sqlite3_value_double(argv[0]));
}

void finish(sqlite3_context* context, const std::function<double(std::vector<double>&)>& compute) {
  std::vector<double>* values = values_of(context, /*create=*/false);
  if (values == nullptr || values->empty()) {
    sqlite3_result_null(context);
  } else {
    sqlite3_result_double(context, compute(*values));
  }
  delete values;
}

// The middle value; the mean of the two middle values for an even count.
void median_final(sqlite3_context* context) {
  finish(context, [](std::vector<double>& values) {
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
  });
}

// Sample standard deviation (divisor n - 1); 0 for a single value.
void stdev_final(sqlite3_context* context) {
  finish(context, [](std::vector<double>& values) {
    const size_t n = values.size();
    if (n < 2) return 0.0;
    double mean = 0;
    for (double v : values) mean += v;
    mean /= static_cast<double>(n);
    double squares = 0;
    for (double v : values) squares += (v - mean) * (v - mean);
    return std::sqrt(squares / static_cast<double>(n - 1));
  });
}

// ---------------------------------------------------------------------------------------
// The reports.

// decimals < 0: the value is shown as SQLite returns it (integer or text).
struct Column {
  const char* header;
  int decimals;
};

const std::vector<Column> kTimeColumns = {
    {"Time (%)", 1},  {"Total Time (ns)", -1}, {"", -1} /* count: per report */,
    {"Avg (ns)", 1},  {"Med (ns)", 1},         {"Min (ns)", -1},
    {"Max (ns)", -1}, {"StdDev (ns)", 1}};

// The summary statistics of `value` over the rows of `source` grouped by `keys`, as the
// CTE `summary(<keys>, total, num, mean, med, low, high, sd)`.
std::string summary_cte(const std::string& source, const std::string& keys,
                        const std::string& value) {
  return "summary AS (SELECT " + keys + ", sum(" + value + ") AS total, count(*) AS num, avg(" +
         value + ") AS mean, median(" + value + ") AS med, min(" + value + ") AS low, max(" +
         value + ") AS high, stdev(" + value + ") AS sd FROM " + source + " GROUP BY " + keys + ")";
}

// The eight timing columns over `summary`: share of the summed total, then the stats.
const char* kTimeSelect =
    "round(total * 100.0 / (SELECT sum(total) FROM summary), 1), total, num, round(mean, 1), "
    "round(med, 1), low, high, round(sd, 1)";

std::vector<Column> time_columns(const char* count_header, std::vector<Column> trailing) {
  std::vector<Column> columns = kTimeColumns;
  columns[2] = {count_header, -1};
  columns.insert(columns.end(), trailing.begin(), trailing.end());
  return columns;
}

struct Query {
  std::string sql;
  std::vector<Column> columns;
};

// Strips a CUPTI cbid version suffix of the form _vNNNN (the last six characters).
const char* kApiNameExpr =
    "CASE WHEN substr(full_name, -6, 2) = '_v' THEN substr(full_name, 1, length(full_name) - 6) "
    "ELSE full_name END";

Query api_sum_query() {
  return {
      "WITH calls AS (SELECT r.nameId AS name_id, r.end - r.start AS duration "
      "FROM CUPTI_ACTIVITY_KIND_RUNTIME AS r), " +
          summary_cte("calls", "name_id", "duration") +
          ", named AS (SELECT summary.*, coalesce(ids.value, '') AS full_name FROM summary "
          "LEFT JOIN StringIds AS ids ON ids.id = summary.name_id) "
          "SELECT " +
          kTimeSelect + ", " + kApiNameExpr +
          " AS name FROM named "
          "ORDER BY total DESC, name",
      time_columns("Num Calls", {{"Name", -1}})};
}

Query kern_sum_query() {
  return {
      "WITH kernels AS (SELECT coalesce(ids.value, '') AS name, k.end - k.start AS duration "
      "FROM CUPTI_ACTIVITY_KIND_KERNEL AS k LEFT JOIN StringIds AS ids ON ids.id = "
      "k.demangledName), " +
          summary_cte("kernels", "name", "duration") + " SELECT " + kTimeSelect +
          ", name FROM summary ORDER BY total DESC, num, name",
      time_columns("Instances", {{"Name", -1}})};
}

// The memory operations: memcpys named by their copy kind's label, memsets.
std::string memops_cte(bool memcpy, bool memset, const char* value_memcpy,
                       const char* value_memset) {
  std::string parts;
  if (memcpy) {
    parts += std::string("SELECT '[CUDA memcpy ' || kinds.label || ']' AS name, ") + value_memcpy +
             " AS value FROM CUPTI_ACTIVITY_KIND_MEMCPY AS m "
             "JOIN ENUM_CUDA_MEMCPY_OPER AS kinds ON kinds.id = m.copyKind";
  }
  if (memset) {
    if (!parts.empty()) parts += " UNION ALL ";
    parts += std::string("SELECT '[CUDA memset]' AS name, ") + value_memset +
             " AS value FROM CUPTI_ACTIVITY_KIND_MEMSET AS m";
  }
  return "memops AS (" + parts + ")";
}

Query mem_time_query(bool memcpy, bool memset) {
  return {"WITH " + memops_cte(memcpy, memset, "m.end - m.start", "m.end - m.start") + ", " +
              summary_cte("memops", "name", "value") + " SELECT " + kTimeSelect +
              ", name FROM summary ORDER BY total DESC, name",
          time_columns("Count", {{"Operation", -1}})};
}

// Sizes in MB (10^6 bytes), shown with 3 decimals.
Query mem_size_query(bool memcpy, bool memset) {
  return {
      "WITH " + memops_cte(memcpy, memset, "m.bytes", "m.bytes") + ", " +
          summary_cte("memops", "name", "value") +
          " SELECT total / 1e6, num, mean / 1e6, med / 1e6, low / 1e6, high / 1e6, sd / 1e6, name "
          "FROM summary ORDER BY total DESC, name",
      {{"Total (MB)", 3},
       {"Count", -1},
       {"Avg (MB)", 3},
       {"Med (MB)", 3},
       {"Min (MB)", 3},
       {"Max (MB)", 3},
       {"StdDev (MB)", 3},
       {"Operation", -1}}};
}

// NVTX event types (ENUM_NSYS_EVENT_TYPE): 59/60 push-pop/start-end ranges, 70/71 their
// NVTXT forms, 75 domain creation (the domain's name in text or textId). A domain is
// matched within the process (the pid bits 24..47 of globalTid); the range's name is
// "<domain>:<text>", ":<text>" in the default domain. Ranges never closed end at the
// latest timestamp of NVTX_EVENTS.
Query nvtx_sum_query() {
  return {
      "WITH domains AS (SELECT ne.domainId AS id, ne.globalTid & 0x0000FFFFFF000000 AS process, "
      "coalesce(ids.value, ne.text) AS name, min(ne.start) FROM NVTX_EVENTS AS ne "
      "LEFT JOIN StringIds AS ids ON ids.id = ne.textId WHERE ne.eventType = 75 GROUP BY 1, 2), "
      "latest AS (SELECT max(coalesce(max(start), 0), coalesce(max(end), 0)) AS t FROM "
      "NVTX_EVENTS), "
      "ranges AS (SELECT coalesce(ne.end, (SELECT t FROM latest)) - ne.start AS duration, "
      "coalesce(d.name, '') || ':' || coalesce(ids.value, ne.text, '') AS name, "
      "CASE WHEN ne.eventType IN (59, 70) THEN 'PushPop' ELSE 'StartEnd' END AS style "
      "FROM NVTX_EVENTS AS ne LEFT JOIN domains AS d ON d.id = ne.domainId "
      "AND d.process = (ne.globalTid & 0x0000FFFFFF000000) "
      "LEFT JOIN StringIds AS ids ON ids.id = ne.textId WHERE ne.eventType IN (59, 60, 70, 71)), " +
          summary_cte("ranges", "name, style", "duration") + " SELECT " + kTimeSelect +
          ", style, name FROM summary ORDER BY total DESC, name, style",
      time_columns("Instances", {{"Style", -1}, {"Range", -1}})};
}

std::string sqlite_message(sqlite3* db) {
  return db != nullptr ? sqlite3_errmsg(db) : "out of memory";
}

// "1234567" -> "1,234,567" (the digits before any decimal point).
std::string group_thousands(const std::string& number) {
  const size_t sign = number.empty() || number[0] != '-' ? 0 : 1;
  size_t digits_end = number.find('.');
  if (digits_end == std::string::npos) digits_end = number.size();
  std::string out = number.substr(0, sign);
  for (size_t i = sign; i < digits_end; ++i) {
    out += number[i];
    const size_t left = digits_end - i - 1;
    if (left > 0 && left % 3 == 0) out += ',';
  }
  return out + number.substr(digits_end);
}

std::string value_text(const StatsValue& value, bool separators) {
  switch (value.kind) {
    case StatsValue::kNull:
      return "";
    case StatsValue::kText:
      return value.text;
    case StatsValue::kInteger: {
      const std::string digits = std::to_string(value.integer);
      return separators ? group_thousands(digits) : digits;
    }
    case StatsValue::kReal: {
      char text[64];
      std::snprintf(text, sizeof(text), "%.*f", value.decimals, value.real);
      return separators ? group_thousands(text) : text;
    }
  }
  return "";
}

// Every field quoted (as `nsys stats --format csv` writes them), quotes doubled.
std::string csv_field(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace

const std::vector<StatsReportInfo>& stats_reports() {
  static const std::vector<StatsReportInfo> reports = {
      {"cuda_api_sum", "CUDA API Summary"},
      {"cuda_gpu_kern_sum", "CUDA GPU Kernel Summary"},
      {"cuda_gpu_mem_time_sum", "CUDA GPU MemOps Summary (by Time)"},
      {"cuda_gpu_mem_size_sum", "CUDA GPU MemOps Summary (by Size)"},
      {"nvtx_sum", "NVTX Range Summary"},
  };
  return reports;
}

StatusOr<std::unique_ptr<StatsDatabase>> StatsDatabase::open(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    return error(Code::kFileNotFound, "'" + path + "': no such file");
  if (std::filesystem::is_directory(path, ec))
    return error(Code::kInvalidValue, "'" + path + "' is a directory");
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    const std::string message = sqlite_message(db);
    sqlite3_close(db);
    return error(Code::kInvalidValue, "cannot open '" + path + "': " + message);
  }
  // SQLite reads the header lazily: the first query tells whether this is a database.
  if (sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr) !=
      SQLITE_OK) {
    const std::string message = sqlite_message(db);
    sqlite3_close(db);
    return error(Code::kInvalidValue, "'" + path + "' is not an SQLite database (" + message + ")");
  }
  const int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC;
  sqlite3_create_function(db, "median", 1, flags, nullptr, nullptr, collect_step, median_final);
  sqlite3_create_function(db, "stdev", 1, flags, nullptr, nullptr, collect_step, stdev_final);
  return std::unique_ptr<StatsDatabase>(new StatsDatabase(path, db));
}

StatsDatabase::~StatsDatabase() {
  sqlite3_close(db_);
}

bool StatsDatabase::has_table(const std::string& name) {
  sqlite3_stmt* statement = nullptr;
  bool found = false;
  if (sqlite3_prepare_v2(db_,
                         "SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name = ?",
                         -1, &statement, nullptr) == SQLITE_OK) {
    sqlite3_bind_text(statement, 1, name.c_str(), -1, SQLITE_TRANSIENT);
    found = sqlite3_step(statement) == SQLITE_ROW;
  }
  sqlite3_finalize(statement);
  return found;
}

StatusOr<StatsTable> StatsDatabase::run(const std::string& report) {
  const StatsReportInfo* info = nullptr;
  for (const StatsReportInfo& candidate : stats_reports()) {
    if (report == candidate.name) info = &candidate;
  }
  if (info == nullptr) {
    std::string known;
    for (const StatsReportInfo& candidate : stats_reports())
      known += std::string(known.empty() ? "" : ", ") + candidate.name;
    return error(Code::kInvalidValue, "unknown report '" + report + "' (known: " + known + ")");
  }
  auto require = [&](std::initializer_list<const char*> tables) -> Status {
    for (const char* table : tables) {
      if (!has_table(table)) {
        return error(Code::kNotFound, report + ": '" + path_ + "' does not contain table " + table);
      }
    }
    return ok_status();
  };

  Query query;
  if (report == "cuda_api_sum") {
    RETURN_IF_ERROR(require({"StringIds", "CUPTI_ACTIVITY_KIND_RUNTIME"}));
    query = api_sum_query();
  } else if (report == "cuda_gpu_kern_sum") {
    RETURN_IF_ERROR(require({"StringIds", "CUPTI_ACTIVITY_KIND_KERNEL"}));
    query = kern_sum_query();
  } else if (report == "cuda_gpu_mem_time_sum" || report == "cuda_gpu_mem_size_sum") {
    const bool memcpy = has_table("CUPTI_ACTIVITY_KIND_MEMCPY");
    const bool memset = has_table("CUPTI_ACTIVITY_KIND_MEMSET");
    if (!memcpy && !memset) {
      return error(Code::kNotFound, report + ": '" + path_ +
                                        "' does not contain table CUPTI_ACTIVITY_KIND_MEMCPY or "
                                        "CUPTI_ACTIVITY_KIND_MEMSET");
    }
    if (memcpy) RETURN_IF_ERROR(require({"ENUM_CUDA_MEMCPY_OPER"}));
    query = report == "cuda_gpu_mem_time_sum" ? mem_time_query(memcpy, memset)
                                              : mem_size_query(memcpy, memset);
  } else {
    RETURN_IF_ERROR(require({"StringIds", "NVTX_EVENTS"}));
    query = nvtx_sum_query();
  }

  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(db_, query.sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) {
    const std::string message = sqlite_message(db_);
    sqlite3_finalize(statement);
    return error(Code::kUnknown, report + ": query failed on '" + path_ + "': " + message);
  }
  StatsTable table;
  table.report = info->name;
  table.display_name = info->display_name;
  for (const Column& column : query.columns) table.headers.push_back(column.header);
  int step = SQLITE_ROW;
  while ((step = sqlite3_step(statement)) == SQLITE_ROW) {
    std::vector<StatsValue> row;
    for (size_t i = 0; i < query.columns.size(); ++i) {
      const int at = static_cast<int>(i);
      StatsValue value;
      const int type = sqlite3_column_type(statement, at);
      if (type == SQLITE_NULL) {
        value.kind = StatsValue::kNull;
      } else if (query.columns[i].decimals >= 0) {
        value.kind = StatsValue::kReal;
        value.real = sqlite3_column_double(statement, at);
        value.decimals = query.columns[i].decimals;
      } else if (type == SQLITE_INTEGER) {
        value.kind = StatsValue::kInteger;
        value.integer = sqlite3_column_int64(statement, at);
      } else if (type == SQLITE_FLOAT) {
        value.kind = StatsValue::kReal;
        value.real = sqlite3_column_double(statement, at);
        value.decimals = 1;
      } else {
        value.kind = StatsValue::kText;
        const unsigned char* text = sqlite3_column_text(statement, at);
        value.text = text != nullptr ? reinterpret_cast<const char*>(text) : "";
      }
      row.push_back(std::move(value));
    }
    table.rows.push_back(std::move(row));
  }
  const std::string message = step == SQLITE_DONE ? "" : sqlite_message(db_);
  sqlite3_finalize(statement);
  if (step != SQLITE_DONE)
    return error(Code::kUnknown, report + ": query failed on '" + path_ + "': " + message);
  return table;
}

std::string format_stats(const StatsTable& table, StatsFormat format) {
  const size_t columns = table.headers.size();
  std::string out;
  if (format == StatsFormat::kCsv) {
    for (size_t c = 0; c < columns; ++c) out += (c ? "," : "") + csv_field(table.headers[c]);
    out += "\n";
    for (const auto& row : table.rows) {
      for (size_t c = 0; c < columns; ++c)
        out += (c ? "," : "") + csv_field(value_text(row[c], false));
      out += "\n";
    }
    return out;
  }
  // A column is numeric (right aligned) unless one of its cells is text.
  std::vector<size_t> widths(columns);
  std::vector<bool> numeric(columns, true);
  std::vector<std::vector<std::string>> cells;
  for (size_t c = 0; c < columns; ++c) widths[c] = table.headers[c].size();
  for (const auto& row : table.rows) {
    std::vector<std::string> line;
    for (size_t c = 0; c < columns; ++c) {
      line.push_back(value_text(row[c], true));
      widths[c] = std::max(widths[c], line.back().size());
      if (row[c].kind == StatsValue::kText) numeric[c] = false;
    }
    cells.push_back(std::move(line));
  }
  auto emit_line = [&](const std::vector<std::string>& line, bool header) {
    std::string text;
    for (size_t c = 0; c < columns; ++c) {
      const size_t pad = widths[c] - line[c].size();
      size_t left = numeric[c] ? pad : 0;
      if (header) left = pad / 2;
      text += (c ? "  " : " ") + std::string(left, ' ') + line[c] + std::string(pad - left, ' ');
    }
    out += text + "\n";
  };
  emit_line(table.headers, /*header=*/true);
  std::vector<std::string> rule;
  for (size_t c = 0; c < columns; ++c) rule.push_back(std::string(widths[c], '-'));
  emit_line(rule, /*header=*/false);
  for (const auto& line : cells) emit_line(line, /*header=*/false);
  return out;
}

}  // namespace strata::prof
