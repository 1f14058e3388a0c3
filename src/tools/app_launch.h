// Running an unmodified CUDA program on Strata's libraries, shared by `strata run` and
// `strata prof`.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace strata::tools {

// Resolves command[0] as exec would (a path, or a name searched in PATH), checks that it
// is a CUDA program Strata can run (cuda_binary.h: the runtime linked dynamically) and
// puts Strata's libraries first in this process's LD_LIBRARY_PATH, which the program
// inherits. On failure prints why (prefixed with `tool`, e.g. "strata run") to stderr,
// sets *exit_code (127: unreadable, 1: not runnable on Strata) and returns nullopt.
// `command` must not be empty.
std::optional<std::string> prepare_app(const char* tool, const std::vector<std::string>& command,
                                       int* exit_code);

// Forks, execs `program` with argv `command`, waits for it and returns its exit status
// (128 + the signal when a signal ended it; 126 when it could not be executed).
int spawn_and_wait(const char* tool, const std::string& program,
                   const std::vector<std::string>& command);

// Replaces this process with `program` (argv `command`); returns 126 after printing
// why when exec fails.
int exec_app(const char* tool, const std::string& program, const std::vector<std::string>& command);

}  // namespace strata::tools
