#include "cuda/runtime/launch_config.h"

#include <vector>

namespace strata::cuda::runtime {
namespace {

std::vector<LaunchConfig>& stack() {
  thread_local std::vector<LaunchConfig> configs;
  return configs;
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
