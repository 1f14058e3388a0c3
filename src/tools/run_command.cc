// strata run <app> [args]: runs an unmodified CUDA program on Strata's libraries.
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "tools/commands.h"
#include "tools/cuda_binary.h"
#include "tools/library_paths.h"

namespace strata::tools {
namespace {

// The program as exec would find it: a path, or a name searched in PATH.
std::string resolve_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string dir = dirs.substr(start, end - start);
    std::filesystem::path candidate = std::filesystem::path(dir.empty() ? "." : dir) / name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate.string();
    start = end + 1;
  }
  return name;
}

int run(const std::vector<std::string>& command) {
  if (command.empty()) {
    fmt::print(stderr, "strata run: no program given\nusage: strata run <app> [args...]\n");
    return 2;
  }
  std::string program = resolve_program(command[0]);
  auto elf = ElfFile::read(program);
  if (!elf.ok()) {
    fmt::print(stderr, "strata run: {}\n", elf.status().message());
    return 127;
  }
  std::string problem = linkage_problem(classify_cuda_linkage(*elf), command[0]);
  if (!problem.empty()) {
    fmt::print(stderr, "{}\n", problem);
    return 1;
  }
  std::string library_path = strata_library_path();
  if (const char* existing = std::getenv("LD_LIBRARY_PATH"); existing && *existing) {
    library_path += ":" + std::string(existing);
  }
  setenv("LD_LIBRARY_PATH", library_path.c_str(), /*overwrite=*/1);
  std::vector<char*> argv;
  for (const std::string& arg : command) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  execv(program.c_str(), argv.data());
  fmt::print(stderr, "strata run: cannot execute {}: {}\n", program, std::strerror(errno));
  return 126;
}

}  // namespace

void add_run_command(CLI::App& app, int* exit_code) {
  CLI::App* sub = app.add_subcommand(
      "run", "Run a CUDA program (built with nvcc -cudart shared) on Strata: strata run <app> "
             "[args...]");
  sub->prefix_command();
  sub->callback([sub, exit_code] { *exit_code = run(sub->remaining()); });
}

}  // namespace strata::tools
