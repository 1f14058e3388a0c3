// strata prof [-o NAME] [--metrics] [--timing MODE] [--force-overwrite] <app> [args]:
// runs an unmodified CUDA program on Strata (as `strata run` does) with activity
// collection on, then writes NAME.sqlite (the Nsight Systems export schema,
// prof/export_sqlite.h) and NAME.json (Chrome trace / Perfetto, prof/export_chrome.h).
//
// Collection: the driver of every process the program starts (child processes too)
// writes a raw trace to STRATA_PROF_OUTPUT, `%p` replaced by its pid (prof/collector.h),
// in a private temporary directory; the traces are merged once the program exits.
// STRATA_PROF_COUNTERS=1 (--metrics) makes kernels carry their raw counters.
// NVTX_INJECTION64_PATH points NVTX3 at Strata's libcupti.so.13 (beside libcuda.so.1)
// unless the user already set it. The exit status is the program's.
#include <fmt/format.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "prof/export_chrome.h"
#include "prof/export_sqlite.h"
#include "prof/trace.h"
#include "tools/app_launch.h"
#include "tools/commands.h"
#include "tools/library_paths.h"

namespace strata::tools {
namespace {

namespace fs = std::filesystem;

constexpr const char* kTool = "strata prof";

struct ProfOptions {
  std::string output;  // NAME; empty: reportN, the first N with no file of that name
  bool metrics = false;
  std::string timing;  // empty: the environment's STRATA_TIMING (default fast)
  bool force_overwrite = false;
  std::string capture_range;  // "", "cudaProfilerApi" or "nvtx"
  std::string nvtx_capture;   // RANGE[@DOMAIN|@*] with capture_range "nvtx"
};

// The directories of STRATA's library path, in order.
std::vector<std::string> library_dirs() {
  std::vector<std::string> dirs;
  std::string path = strata_library_path();
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    if (end > start) dirs.push_back(path.substr(start, end - start));
    start = end + 1;
  }
  return dirs;
}

// Strata's libcupti.so.13: beside the libcuda.so.1 the program will load, else in
// another directory of the library path; empty when there is none.
std::string cupti_library() {
  std::vector<std::string> dirs = library_dirs();
  std::stable_partition(dirs.begin(), dirs.end(), [](const std::string& dir) {
    return fs::exists(fs::path(dir) / "libcuda.so.1");
  });
  for (const std::string& dir : dirs) {
    fs::path cupti = fs::path(dir) / "libcupti.so.13";
    if (fs::exists(cupti)) return fs::absolute(cupti).string();
  }
  return "";
}

bool any_output_exists(const std::string& base) {
  return fs::exists(base + ".sqlite") || fs::exists(base + ".json");
}

// NAME without the extension the user may have typed.
std::string output_base(const std::string& name) {
  for (const char* ext : {".sqlite", ".json", ".nsys-rep"}) {
    std::string_view e(ext);
    if (name.size() > e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0) {
      return name.substr(0, name.size() - e.size());
    }
  }
  return name;
}

// The raw traces the program's processes wrote into `dir`, oldest process first (by
// file name: the collector names them trace-<pid>.jsonl).
std::vector<std::string> trace_files(const fs::path& dir) {
  std::vector<std::pair<uint64_t, std::string>> found;
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (name.rfind("trace-", 0) != 0 || entry.path().extension() != ".jsonl") continue;
    uint64_t pid = std::strtoull(name.c_str() + 6, nullptr, 10);
    found.emplace_back(pid, entry.path().string());
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> paths;
  for (auto& [pid, path] : found) paths.push_back(std::move(path));
  return paths;
}

int prof(const std::vector<std::string>& command, const ProfOptions& options) {
  if (command.empty()) {
    fmt::print(stderr,
               "{}: no program given\nusage: strata prof [-o NAME] [--metrics] [--timing "
               "fast|detailed|sampled] [--force-overwrite] <app> [args...]\n",
               kTool);
    return 2;
  }
  std::string base;
  if (options.output.empty()) {
    for (int n = 1;; ++n) {
      base = fmt::format("report{}", n);
      if (!any_output_exists(base)) break;
    }
  } else {
    base = output_base(options.output);
    if (any_output_exists(base) && !options.force_overwrite) {
      fmt::print(stderr, "{}: {}.sqlite or {}.json exists; use --force-overwrite to replace it\n",
                 kTool, base, base);
      return 1;
    }
  }

  int exit_code = 0;
  std::optional<std::string> program = prepare_app(kTool, command, &exit_code);
  if (!program) return exit_code;

  std::string templ = (fs::temp_directory_path() / "strata-prof-XXXXXX").string();
  if (mkdtemp(templ.data()) == nullptr) {
    fmt::print(stderr, "{}: cannot create a directory for the traces in {}\n", kTool,
               fs::temp_directory_path().string());
    return 1;
  }
  const fs::path trace_dir = templ;
  setenv("STRATA_PROF_OUTPUT", (trace_dir / "trace-%p.jsonl").c_str(), /*overwrite=*/1);
  if (options.metrics) setenv("STRATA_PROF_COUNTERS", "1", /*overwrite=*/1);
  // Capture ranges: the writer keeps what happens between cuProfilerStart and
  // cuProfilerStop; with nvtx, the NVTX injection makes those calls at the named range.
  if (!options.capture_range.empty()) {
    setenv("STRATA_PROF_CAPTURE", "cudaProfilerApi", /*overwrite=*/1);
    if (options.capture_range == "nvtx") {
      setenv("STRATA_PROF_CAPTURE_NVTX", options.nvtx_capture.c_str(), /*overwrite=*/1);
    }
  }
  if (!options.timing.empty()) setenv("STRATA_TIMING", options.timing.c_str(), /*overwrite=*/1);
  if (const char* nvtx = std::getenv("NVTX_INJECTION64_PATH"); nvtx == nullptr || *nvtx == '\0') {
    if (std::string cupti = cupti_library(); !cupti.empty()) {
      setenv("NVTX_INJECTION64_PATH", cupti.c_str(), /*overwrite=*/1);
    }
  }

  const int app_exit = spawn_and_wait(kTool, *program, command);

  std::vector<std::string> traces = trace_files(trace_dir);
  if (traces.empty()) {
    fmt::print(stderr, "{}: no CUDA activity was collected (the program loaded no CUDA driver)\n",
               kTool);
  }
  StatusOr<prof::Trace> trace =
      traces.empty() ? StatusOr<prof::Trace>(prof::Trace{}) : prof::read_trace(traces);
  if (!trace.ok()) {
    fmt::print(stderr, "{}: {} (raw traces kept in {})\n", kTool, trace.status().message(),
               trace_dir.string());
    return app_exit != 0 ? app_exit : 1;
  }
  std::error_code ec;
  fs::remove_all(trace_dir, ec);

  prof::SqliteOptions sqlite_options;
  sqlite_options.metrics = options.metrics;
  const std::string sqlite_path = base + ".sqlite", json_path = base + ".json";
  int status = app_exit;
  if (Status s = prof::export_sqlite(*trace, sqlite_path, sqlite_options); !s.ok()) {
    fmt::print(stderr, "{}: cannot write {}: {}\n", kTool, sqlite_path, s.message());
    status = status != 0 ? status : 1;
  } else {
    fmt::print(stderr, "{}: wrote {}\n", kTool, fs::absolute(sqlite_path).string());
  }
  if (Status s = prof::export_chrome(*trace, json_path); !s.ok()) {
    fmt::print(stderr, "{}: cannot write {}: {}\n", kTool, json_path, s.message());
    status = status != 0 ? status : 1;
  } else {
    fmt::print(stderr, "{}: wrote {}\n", kTool, fs::absolute(json_path).string());
  }
  return status;
}

}  // namespace

void add_prof_command(CLI::App& app, int* exit_code) {
  CLI::App* sub = app.add_subcommand(
      "prof",
      "Profile a CUDA program on Strata: NAME.sqlite (Nsight Systems export schema) and "
      "NAME.json (Chrome trace / Perfetto): strata prof [-o NAME] [--metrics] [--timing M] "
      "[--force-overwrite] <app> [args...]");
  auto options = std::make_shared<ProfOptions>();
  sub->add_option("-o,--output", options->output,
                  "output name: writes NAME.sqlite and NAME.json (default report1, report2, "
                  "... the first unused)");
  sub->add_flag("--metrics", options->metrics,
                "collect each kernel's counters and store Nsight Compute metrics in "
                "STRATA_KERNEL_METRICS");
  sub->add_option("--timing", options->timing, "performance model: fast, detailed or sampled")
      ->check(CLI::IsMember({"fast", "detailed", "sampled"}));
  sub->add_flag("--force-overwrite", options->force_overwrite,
                "replace NAME.sqlite / NAME.json if they exist");
  sub->add_option("-c,--capture-range", options->capture_range,
                  "record only inside capture ranges: cudaProfilerApi (between "
                  "cudaProfilerStart and cudaProfilerStop) or nvtx (inside the NVTX range "
                  "--nvtx-capture names)")
      ->check(CLI::IsMember({"cudaProfilerApi", "nvtx"}));
  sub->add_option("-p,--nvtx-capture", options->nvtx_capture,
                  "with --capture-range=nvtx: RANGE[@DOMAIN] (@* for any domain)");
  sub->prefix_command();
  sub->callback([sub, exit_code, options] {
    if (options->capture_range == "nvtx" && options->nvtx_capture.empty()) {
      fmt::print(stderr, "strata prof: --capture-range=nvtx needs --nvtx-capture=RANGE[@DOMAIN]\n");
      *exit_code = 2;
      return;
    }
    *exit_code = prof(sub->remaining(), *options);
  });
}

}  // namespace strata::tools
