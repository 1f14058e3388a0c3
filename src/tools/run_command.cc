// strata run [--report] [--report-file F] <app> [args]: runs an unmodified CUDA program
// on Strata's libraries. Without a report it execs the program; with one it sets
// STRATA_PERF_LOG for the child, waits for it and summarises the log (report.h).
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tools/app_launch.h"
#include "tools/commands.h"
#include "tools/report.h"

namespace strata::tools {
namespace {

struct ReportOptions {
  bool enabled = false;
  std::string file;  // empty: the report goes to stderr
};

// Forks the program with STRATA_PERF_LOG set, waits for it, then writes the report.
// Returns the program's exit status (128 + signal when a signal ended it).
int run_with_report(const std::string& program, const std::vector<std::string>& command,
                    const ReportOptions& report) {
  std::string log_path;
  bool own_log = false;
  std::streamoff start = 0;  // the report covers what this run appends
  if (const char* existing = std::getenv("STRATA_PERF_LOG"); existing && *existing) {
    log_path = existing;  // the user keeps the log, which may hold earlier runs' lines
    std::error_code ec;
    const auto size = std::filesystem::file_size(log_path, ec);
    if (!ec) start = static_cast<std::streamoff>(size);
  } else {
    std::string dir = std::filesystem::temp_directory_path().string();
    std::string templ = dir + "/strata-perf-XXXXXX";
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    int fd = mkstemp(buf.data());
    if (fd < 0) {
      fmt::print(stderr, "strata run: cannot create a performance log in {}: {}\n", dir,
                 std::strerror(errno));
      return 1;
    }
    close(fd);
    log_path = buf.data();
    own_log = true;
    setenv("STRATA_PERF_LOG", log_path.c_str(), /*overwrite=*/1);
  }
  const int exit_code = spawn_and_wait("strata run", program, command);
  std::ifstream in(log_path, std::ios::binary);
  in.seekg(start);
  std::string log((std::istreambuf_iterator<char>(in)), {});
  if (own_log) std::filesystem::remove(log_path);
  std::string text = render_report(log);
  if (report.file.empty()) {
    fmt::print(stderr, "{}", text);
  } else {
    std::ofstream out(report.file, std::ios::binary);
    out << text;
    if (!out) {
      fmt::print(stderr, "strata run: cannot write the report to {}\n", report.file);
      return exit_code != 0 ? exit_code : 1;
    }
  }
  return exit_code;
}

int run(const std::vector<std::string>& command, const ReportOptions& report) {
  if (command.empty()) {
    fmt::print(stderr,
               "strata run: no program given\nusage: strata run [--report] [--report-file F] <app> "
               "[args...]\n");
    return 2;
  }
  int exit_code = 0;
  std::optional<std::string> program = prepare_app("strata run", command, &exit_code);
  if (!program) return exit_code;
  if (report.enabled) return run_with_report(*program, command, report);
  return exec_app("strata run", *program, command);
}

}  // namespace

void add_run_command(CLI::App& app, int* exit_code) {
  CLI::App* sub = app.add_subcommand(
      "run",
      "Run a CUDA program (built with nvcc -cudart shared) on Strata: strata run "
      "[--report] [--report-file F] <app> [args...]");
  auto report = std::make_shared<ReportOptions>();
  sub->add_flag("--report", report->enabled,
                "after the program exits, print each kernel's and copy's modeled time and "
                "statistics (to stderr)");
  sub->add_option("--report-file", report->file,
                  "write the report to this file (implies --report)");
  sub->prefix_command();
  sub->callback([sub, exit_code, report] {
    if (!report->file.empty()) report->enabled = true;
    *exit_code = run(sub->remaining(), *report);
  });
}

}  // namespace strata::tools
