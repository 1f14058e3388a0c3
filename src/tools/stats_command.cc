// strata stats [--report NAME[,NAME...]] [--format table|csv] NAME.sqlite: the summary
// reports of `nsys stats` (prof/stats.h) over any database in the schema of
// `nsys export --type sqlite`. Each report is preceded by a " ** Title (name):" line,
// except when --format csv runs a single report (the output is then one CSV document).
// A report whose table the database lacks is skipped with a "SKIPPED:" line on stderr
// naming the report and the table, as nsys skips it; exit status 0. A missing file, a
// file that is not an SQLite database, an unknown report or a failed query: a message on
// stderr, exit status 1.
#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "prof/stats.h"
#include "tools/commands.h"

namespace strata::tools {
namespace {

struct StatsArgs {
  std::vector<std::string> reports;  // each may be a comma-separated list
  std::string format = "table";
  std::string input;
};

int run_stats(const StatsArgs& args) {
  std::vector<std::string> reports;
  for (const std::string& list : args.reports) {
    std::stringstream items(list);
    std::string item;
    while (std::getline(items, item, ',')) {
      if (!item.empty()) reports.push_back(item);
    }
  }
  if (reports.empty()) {
    for (const prof::StatsReportInfo& info : prof::stats_reports()) reports.push_back(info.name);
  }
  for (const std::string& report : reports) {
    bool known = false;
    for (const prof::StatsReportInfo& info : prof::stats_reports())
      known = known || report == info.name;
    if (!known) {
      std::string names;
      for (const prof::StatsReportInfo& info : prof::stats_reports()) {
        names += std::string(names.empty() ? "" : ", ") + info.name;
      }
      fmt::print(stderr, "strata stats: unknown report '{}' (reports: {})\n", report, names);
      return 1;
    }
  }
  const prof::StatsFormat format =
      args.format == "csv" ? prof::StatsFormat::kCsv : prof::StatsFormat::kTable;

  auto db = prof::StatsDatabase::open(args.input);
  if (!db.ok()) {
    fmt::print(stderr, "strata stats: {}\n", db.status().message());
    return 1;
  }
  const bool banners = format == prof::StatsFormat::kTable || reports.size() > 1;
  int status = 0;
  for (const std::string& report : reports) {
    auto table = (*db)->run(report);
    if (!table.ok()) {
      if (table.status().code() == Code::kNotFound) {
        fmt::print(stderr, "SKIPPED: {}\n", table.status().message());
        continue;
      }
      fmt::print(stderr, "strata stats: {}\n", table.status().message());
      status = 1;
      continue;
    }
    if (banners) fmt::print("\n ** {} ({}):\n\n", table->display_name, table->report);
    fmt::print("{}", prof::format_stats(*table, format));
  }
  std::fflush(stdout);
  return status;
}

}  // namespace

void add_stats_command(CLI::App& app, int* exit_code) {
  auto args = std::make_shared<StatsArgs>();
  CLI::App* sub = app.add_subcommand(
      "stats",
      "Summary reports of nsys stats (cuda_api_sum, cuda_gpu_kern_sum, cuda_gpu_mem_time_sum, "
      "cuda_gpu_mem_size_sum, nvtx_sum) over an Nsight Systems SQLite export");
  sub->add_option("--report", args->reports,
                  "reports to run, comma separated (default: all five, in the order above)")
      ->delimiter(',');
  sub->add_option("--format", args->format, "table (default) or csv")
      ->check(CLI::IsMember({"table", "csv"}));
  sub->add_option("input", args->input, "NAME.sqlite")->required();
  sub->callback([args, exit_code] { *exit_code = run_stats(*args); });
}

}  // namespace strata::tools
