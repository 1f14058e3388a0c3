#include "cuda/runtime/launch_config.h"

#include <vector>

#include "base/exit_safe_thread_local.h"

namespace strata::cuda::runtime {
namespace {

// Usable from static destructors at exit (exit_safe_thread_local.h).
struct LaunchConfigTag;
std::vector<LaunchConfig>& stack() {
  return exit_safe_thread_local<std::vector<LaunchConfig>, LaunchConfigTag>();
}

}  // namespace

void push_launch_config(const LaunchConfig& config) { stack().push_back(config); }

bool pop_launch_config(LaunchConfig* config) {
  auto& configs = stack();
  if (configs.empty()) return false;
  *config = configs.back();
  configs.pop_back();
  return true;
}

size_t launch_config_depth() { return stack().size(); }

}  // namespace strata::cuda::runtime
