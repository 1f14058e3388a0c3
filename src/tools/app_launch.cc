#include "tools/app_launch.h"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

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

std::vector<char*> argv_of(const std::vector<std::string>& command) {
  std::vector<char*> argv;
  for (const std::string& arg : command) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  return argv;
}

}  // namespace

std::optional<std::string> prepare_app(const char* tool, const std::vector<std::string>& command,
                                       int* exit_code) {
  std::string program = resolve_program(command[0]);
  auto elf = ElfFile::read(program);
  if (!elf.ok()) {
    fmt::print(stderr, "{}: {}\n", tool, elf.status().message());
    *exit_code = 127;
    return std::nullopt;
  }
  std::string problem = linkage_problem(classify_cuda_linkage(*elf), command[0]);
  if (!problem.empty()) {
    fmt::print(stderr, "{}\n", problem);
    *exit_code = 1;
    return std::nullopt;
  }
  std::string library_path = strata_library_path();
  if (const char* existing = std::getenv("LD_LIBRARY_PATH"); existing && *existing) {
    library_path += ":" + std::string(existing);
  }
  setenv("LD_LIBRARY_PATH", library_path.c_str(), /*overwrite=*/1);
  return program;
}

int spawn_and_wait(const char* tool, const std::string& program,
                   const std::vector<std::string>& command) {
  std::vector<char*> argv = argv_of(command);
  std::fflush(nullptr);
  pid_t child = fork();
  if (child < 0) {
    fmt::print(stderr, "{}: fork: {}\n", tool, std::strerror(errno));
    return 1;
  }
  if (child == 0) {
    execv(program.c_str(), argv.data());
    fmt::print(stderr, "{}: cannot execute {}: {}\n", tool, program, std::strerror(errno));
    _exit(126);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
}

int exec_app(const char* tool, const std::string& program,
             const std::vector<std::string>& command) {
  std::vector<char*> argv = argv_of(command);
  execv(program.c_str(), argv.data());
  fmt::print(stderr, "{}: cannot execute {}: {}\n", tool, program, std::strerror(errno));
  return 126;
}

}  // namespace strata::tools
