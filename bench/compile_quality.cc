// compile_quality: Strata's PTX compiler against NVIDIA's ptxas on every PTX module of
// the repository (tests/ recursively and bench/kernels).
//
// For each module: Strata compiles it in-process (compile_ptx, default options, the same
// the driver's JIT uses) and `ptxas -arch=sm_XX -v` compiles it as a subprocess (sm_80,
// or the module's .target when that is higher, since ptxas refuses PTX for a newer SM).
// Per kernel it prints registers per thread (both are 32-bit GPRs), Strata's local
// memory per thread against ptxas's stack frame and spill bytes, and per module the
// compile times: Strata in-process, ptxas's own "Compile time" lines summed, and the
// ptxas process wall time. Then geometric means of Strata/ptxas over the kernels
// (registers) and the modules (times) that both compile. PTX that either compiler
// rejects is listed with its error, never dropped.
//
// Modules: one per .ptx file, except that the files of one directory named rdc_*.ptx are
// one -rdc program (they call each other's functions): Strata compiles them together
// (as the driver does for a -rdc link), ptxas compiles each with -c.
//
// Usage: compile_quality [--quick] [--repeat N] [--ptxas PATH]
//   --quick: one repetition; checks that every module ran and every ptxas kernel parsed
//   (what ctest runs; no timing claims). Default: median of 5 repetitions.
// Exit status 1 if ptxas output cannot be parsed or no kernel compiled with both.
#include <fmt/format.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "compiler/sxbin/sxbin.h"

namespace fs = std::filesystem;
using strata::compiler::PtxSource;

namespace {

struct Module {
  std::string name;              // path relative to the source root
  std::vector<fs::path> files;   // more than one for an -rdc program
};

struct PtxasKernel {
  int registers = -1;
  int stack_frame = 0;
  int spill_stores = 0;
  int spill_loads = 0;
};

struct PtxasResult {
  bool ok = false;
  std::string error;  // first lines of ptxas's output when it failed
  std::string arch;
  std::map<std::string, PtxasKernel> kernels;  // entry functions only
  double reported_ms = 0;                      // sum of "Compile time = X ms"
  double wall_ms = 0;
  std::vector<std::string> parse_problems;
};

struct StrataResult {
  bool ok = false;
  std::string error;
  std::vector<strata::sxbin::KernelDesc> kernels;
  double ms = 0;
};

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

std::string first_line(const std::string& text) {
  size_t end = text.find('\n');
  return end == std::string::npos ? text : text.substr(0, end);
}

// Every module under `root`/tests and `root`/bench/kernels, in path order.
std::vector<Module> find_modules(const fs::path& root) {
  std::vector<fs::path> files;
  for (const char* dir : {"tests", "bench/kernels"}) {
    if (!fs::exists(root / dir)) continue;
    for (const auto& e : fs::recursive_directory_iterator(root / dir)) {
      if (e.is_regular_file() && e.path().extension() == ".ptx") files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<Module> modules;
  std::map<fs::path, size_t> rdc_group;  // directory -> index in modules
  for (const fs::path& f : files) {
    std::string rel = fs::relative(f, root).string();
    if (f.stem().string().starts_with("rdc_")) {
      auto [it, inserted] = rdc_group.try_emplace(f.parent_path(), modules.size());
      if (inserted) {
        modules.push_back({fs::relative(f.parent_path(), root).string() + "/rdc_*.ptx", {}});
      }
      modules[it->second].files.push_back(f);
      continue;
    }
    modules.push_back({rel, {f}});
  }
  return modules;
}

// "sm_80", or the module's .target if it names a higher SM.
std::string ptxas_arch(const std::string& text) {
  static const std::regex target(R"(\.target\s+sm_(\d+)([af]?))");
  std::smatch m;
  if (std::regex_search(text, m, target) && std::stoi(m[1]) > 80) {
    return "sm_" + m[1].str() + m[2].str();
  }
  return "sm_80";
}

StrataResult run_strata(const std::vector<PtxSource>& sources, int repeat) {
  StrataResult result;
  std::vector<double> times;
  for (int i = 0; i < repeat; ++i) {
    auto start = std::chrono::steady_clock::now();
    auto bytes = strata::compiler::compile_ptx(sources, strata::compiler::CompileOptions{});
    times.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count());
    if (!bytes.ok()) {
      result.error = std::string(bytes.status().message());
      return result;
    }
    if (i == 0) {
      auto binary = strata::sxbin::read_sxbin(*bytes);
      if (!binary.ok()) {
        result.error = "output does not read back: " + std::string(binary.status().message());
        return result;
      }
      result.kernels = binary->kernels;
    }
  }
  result.ok = true;
  result.ms = median(times);
  return result;
}

// Parses `ptxas -v` output into `out` (kernels, reported compile time).
void parse_ptxas(const std::string& output, PtxasResult* out) {
  static const std::regex entry(R"(Compiling entry function '([^']+)')");
  static const std::regex props(R"(Function properties for (\S+))");
  static const std::regex frame(
      R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
  static const std::regex used(R"(Used (\d+) registers)");
  static const std::regex time(R"(Compile time = ([0-9.]+) ms)");
  std::string current_entry, current_props;
  std::map<std::string, PtxasKernel> frames;  // any function, by name
  std::vector<std::string> entries;           // the entries of this output
  std::istringstream lines(output);
  std::string line;
  std::smatch m;
  while (std::getline(lines, line)) {
    if (std::regex_search(line, m, entry)) {
      current_entry = m[1];
      out->kernels[current_entry];
      entries.push_back(current_entry);
    } else if (std::regex_search(line, m, props)) {
      current_props = m[1];
    } else if (std::regex_search(line, m, frame)) {
      PtxasKernel& k = frames[current_props];
      k.stack_frame = std::stoi(m[1]);
      k.spill_stores = std::stoi(m[2]);
      k.spill_loads = std::stoi(m[3]);
    } else if (std::regex_search(line, m, used)) {
      if (current_entry.empty()) {
        out->parse_problems.push_back("'Used N registers' outside an entry: " + line);
      } else {
        out->kernels[current_entry].registers = std::stoi(m[1]);
      }
    } else if (std::regex_search(line, m, time)) {
      out->reported_ms += std::stod(m[1]);
    }
  }
  for (const std::string& name : entries) {
    PtxasKernel& k = out->kernels[name];
    if (k.registers < 0) out->parse_problems.push_back("no register count for " + name);
    if (auto f = frames.find(name); f != frames.end()) {
      k.stack_frame = f->second.stack_frame;
      k.spill_stores = f->second.spill_stores;
      k.spill_loads = f->second.spill_loads;
    } else {
      out->parse_problems.push_back("no stack frame line for " + name);
    }
  }
}

// Runs `command` (stdout and stderr together); returns its exit status.
int run_command(const std::string& command, std::string* output) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return -1;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), pipe)) > 0) output->append(buffer, n);
  int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

PtxasResult run_ptxas(const std::string& ptxas, const Module& module,
                      const std::vector<PtxSource>& sources, int repeat) {
  PtxasResult result;
  result.arch = ptxas_arch(sources.front().text);
  std::vector<double> walls, reported;
  for (int i = 0; i < repeat; ++i) {
    PtxasResult pass;
    double wall = 0;
    for (const fs::path& file : module.files) {
      std::string command = fmt::format("'{}' -arch={} -v {}-o /dev/null '{}'", ptxas,
                                        result.arch, module.files.size() > 1 ? "-c " : "",
                                        file.string());
      std::string output;
      auto start = std::chrono::steady_clock::now();
      int rc = run_command(command, &output);
      wall += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                  .count();
      if (rc != 0) {
        result.error = first_line(output);
        return result;
      }
      parse_ptxas(output, &pass);
    }
    walls.push_back(wall);
    reported.push_back(pass.reported_ms);
    if (i == 0) {
      result.kernels = pass.kernels;
      result.parse_problems = pass.parse_problems;
    }
  }
  result.ok = true;
  result.wall_ms = median(walls);
  result.reported_ms = median(reported);
  return result;
}

double geomean(const std::vector<double>& ratios) {
  if (ratios.empty()) return 0;
  double log_sum = 0;
  for (double r : ratios) log_sum += std::log(r);
  return std::exp(log_sum / static_cast<double>(ratios.size()));
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  int repeat = 5;
  std::string ptxas = STRATA_PTXAS;
  fs::path root = STRATA_SOURCE_DIR;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--quick") {
      quick = true;
    } else if (arg == "--repeat" && i + 1 < argc) {
      repeat = std::max(1, std::atoi(argv[++i]));
    } else if (arg == "--ptxas" && i + 1 < argc) {
      ptxas = argv[++i];
    } else {
      fmt::print(stderr, "usage: compile_quality [--quick] [--repeat N] [--ptxas PATH]\n");
      return 2;
    }
  }
  if (quick) repeat = 1;

  std::vector<Module> modules = find_modules(root);
  fmt::print("compile_quality: {} PTX modules under {}/tests and bench/kernels; ptxas: {}; "
             "times are medians of {}\n\n",
             modules.size(), root.string(), ptxas, repeat);
  fmt::print("{:<44} {:>6} {:>6} {:>7} {:>15} {:>9}\n", "kernel", "regs", "ptxas", "ratio",
             "local/frame+spl", "");
  std::vector<double> reg_ratios, time_ratios_reported, time_ratios_wall;
  std::vector<std::string> rejected, problems;
  int both = 0;
  for (const Module& module : modules) {
    std::vector<PtxSource> sources;
    for (const fs::path& f : module.files) {
      sources.push_back({fs::relative(f, root).string(), read_text(f)});
    }
    StrataResult strata = run_strata(sources, repeat);
    PtxasResult nv = run_ptxas(ptxas, module, sources, repeat);
    fmt::print("{} [ptxas {}]\n", module.name, nv.arch);
    if (!strata.ok) {
      fmt::print("  Strata REJECTS: {}\n", first_line(strata.error));
      rejected.push_back(fmt::format("{}: Strata: {}", module.name, first_line(strata.error)));
    }
    if (!nv.ok) {
      fmt::print("  ptxas REJECTS: {}\n", nv.error);
      rejected.push_back(fmt::format("{}: ptxas: {}", module.name, nv.error));
    }
    for (const std::string& p : nv.parse_problems) problems.push_back(module.name + ": " + p);
    if (strata.ok) {
      for (const auto& k : strata.kernels) {
        auto it = nv.kernels.find(k.name);
        if (!nv.ok || it == nv.kernels.end()) {
          fmt::print("  {:<42} {:>6} {:>6}\n", k.name, k.regs_per_thread, "-");
          continue;
        }
        const PtxasKernel& p = it->second;
        double ratio = p.registers > 0
                           ? static_cast<double>(k.regs_per_thread) / p.registers
                           : 0;
        if (ratio > 0) reg_ratios.push_back(ratio);
        ++both;
        fmt::print("  {:<42} {:>6} {:>6} {:>7.2f} {:>6} / {:>3}+{:<3}\n", k.name,
                   k.regs_per_thread, p.registers, ratio, k.local_bytes, p.stack_frame,
                   p.spill_stores);
      }
    }
    if (strata.ok && nv.ok) {
      fmt::print("  compile ms: Strata {:.3f}, ptxas reported {:.3f}, ptxas process {:.3f}\n",
                 strata.ms, nv.reported_ms, nv.wall_ms);
      if (strata.ms > 0 && nv.reported_ms > 0) {
        time_ratios_reported.push_back(strata.ms / nv.reported_ms);
      }
      if (strata.ms > 0 && nv.wall_ms > 0) time_ratios_wall.push_back(strata.ms / nv.wall_ms);
    }
  }

  fmt::print("\nkernels compiled by both: {}\n", both);
  fmt::print("geomean registers Strata/ptxas: {:.3f} over {} kernels (target <= 1.25)\n",
             geomean(reg_ratios), reg_ratios.size());
  fmt::print("geomean compile time Strata/ptxas-reported: {:.3f} over {} modules\n",
             geomean(time_ratios_reported), time_ratios_reported.size());
  fmt::print("geomean compile time Strata/ptxas-process:  {:.3f} over {} modules "
             "(target < 1)\n",
             geomean(time_ratios_wall), time_ratios_wall.size());
  fmt::print("rejected: {}\n", rejected.size());
  for (const std::string& r : rejected) fmt::print("  {}\n", r);

  int status = 0;
  for (const std::string& p : problems) {
    fmt::print(stderr, "compile_quality: cannot parse ptxas output: {}\n", p);
    status = 1;
  }
  if (both == 0) {
    fmt::print(stderr, "compile_quality: no kernel compiled by both compilers\n");
    status = 1;
  }
  if (modules.empty()) {
    fmt::print(stderr, "compile_quality: no PTX found under {}\n", root.string());
    status = 1;
  }
  return status;
}
