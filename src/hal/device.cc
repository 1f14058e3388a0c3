#include "hal/device.h"

#include <fmt/format.h>

#include <cstdlib>
#include <map>
#include <mutex>

#include "base/log.h"
#include "hal/backend.h"
#include "hal/backends/builtin.h"

namespace strata::hal {
namespace {

struct Registry {
  std::mutex mu;
  bool builtins_registered = false;
  std::map<std::string, BackendInfo> backends;
  std::map<std::pair<std::string, int>, std::shared_ptr<Device>> open;
};

Registry& registry() {
  static Registry* r = new Registry();  // devices live until process exit
  return *r;
}

// Requires r.mu.
void ensure_builtins(Registry& r) {
  if (r.builtins_registered) return;
  r.builtins_registered = true;
  for (BackendInfo& b : builtin_backends()) r.backends.emplace(b.name, std::move(b));
}

StatusOr<BackendInfo> find_backend(std::string_view name) {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  ensure_builtins(r);
  auto it = r.backends.find(std::string(name));
  if (it == r.backends.end()) {
    std::string known;
    for (const auto& [n, b] : r.backends) known += (known.empty() ? "" : ", ") + n;
    return error(Code::kNotFound, fmt::format("unknown HAL backend '{}' (STRATA_BACKEND); known: {}",
                                              name, known));
  }
  return it->second;
}

}  // namespace

Status register_backend(BackendInfo backend) {
  if (backend.name.empty() || !backend.device_count || !backend.open_device) {
    return error(Code::kInvalidValue, "register_backend: name and both functions are required");
  }
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  ensure_builtins(r);
  if (r.backends.count(backend.name) != 0) {
    return error(Code::kInvalidValue, fmt::format("register_backend: '{}' is already registered", backend.name));
  }
  r.backends.emplace(backend.name, std::move(backend));
  return ok_status();
}

std::vector<std::string> backend_names() {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  ensure_builtins(r);
  std::vector<std::string> names;
  for (const auto& [n, b] : r.backends) names.push_back(n);
  return names;
}

std::string selected_backend() {
  const char* env = std::getenv("STRATA_BACKEND");
  return env == nullptr || *env == '\0' ? "strata" : env;
}

StatusOr<int> device_count() { return device_count(selected_backend()); }

StatusOr<int> device_count(std::string_view backend) {
  ASSIGN_OR_RETURN(BackendInfo b, find_backend(backend));
  return b.device_count();
}

StatusOr<std::shared_ptr<Device>> open_device(int index) {
  return open_device(selected_backend(), index);
}

StatusOr<std::shared_ptr<Device>> open_device(std::string_view backend, int index) {
  ASSIGN_OR_RETURN(BackendInfo b, find_backend(backend));
  ASSIGN_OR_RETURN(int count, b.device_count());
  if (index < 0 || index >= count) {
    return error(Code::kInvalidDevice,
                 fmt::format("device {} does not exist (backend '{}' has {})", index, backend, count));
  }
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  auto key = std::make_pair(std::string(backend), index);
  if (auto it = r.open.find(key); it != r.open.end()) return it->second;
  STRATA_LOG_DEBUG("hal: opening device {} of backend '{}'", index, backend);
  ASSIGN_OR_RETURN(std::shared_ptr<Device> device, b.open_device(index));
  r.open.emplace(key, device);
  return device;
}

StatusOr<std::shared_ptr<Context>> Device::create_context() {
  STRATA_LOG_DEBUG("hal: device {} create_context", properties_.index);
  return do_create_context();
}

StatusOr<std::shared_ptr<Semaphore>> Device::create_semaphore(uint64_t initial_value) {
  return do_create_semaphore(initial_value);
}

StatusOr<uint64_t> Device::timestamp_ns() { return do_timestamp_ns(); }

StatusOr<uint64_t> Device::free_memory() { return do_free_memory(); }

}  // namespace strata::hal
