// Backend registry. A backend is a name plus two functions; the built-in ones
// ("strata", "null") are registered on first use of the registry, so static linking
// never drops them. To add one, copy backends/null/ and register it here or with
// register_backend() before the first open_device().
// Thread-safe.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"

namespace strata::hal {

class Device;

struct BackendInfo {
  std::string name;
  std::function<StatusOr<int>()> device_count;
  // Opens device `index` (0 <= index < device_count()). Called once per index: the
  // registry caches the result.
  std::function<StatusOr<std::shared_ptr<Device>>(int index)> open_device;
};

// kInvalidValue if the name is empty or already registered.
Status register_backend(BackendInfo backend);
std::vector<std::string> backend_names();

}  // namespace strata::hal
