#include "kmd/kmd.h"

#include <fmt/format.h>

#include <cstdlib>
#include <mutex>
#include <vector>

#include "base/log.h"
#include "hw/config/arch_config.h"
#include "hw/contract/gpu.h"
#include "kmd/kmd_device.h"

namespace strata::kmd {
namespace {

constexpr int kMaxDevices = 16;

struct DeviceTable {
  std::mutex mu;
  bool opened_any = false;
  GpuFactory factory;
  std::vector<std::shared_ptr<KmdDevice>> devices;  // index -> device (null: not opened)
  // A Gpu keeps a reference to its config (hw/contract/gpu.h): configs live forever.
  std::vector<std::unique_ptr<hw::ArchConfig>> configs;
};

DeviceTable& table() {
  static DeviceTable* t = new DeviceTable();  // lives until exit; devices are never closed
  return *t;
}

StatusOr<std::unique_ptr<hw::Gpu>> default_gpu(const hw::ArchConfig& config) {
#if STRATA_KMD_HAVE_SIM
  return hw::create_sim_gpu(config);
#else
  return error(Code::kNoDevice, "kmd: this build has no GPU simulator (strata_hw_sim not linked)");
#endif
}

}  // namespace

StatusOr<int> kmd_device_count() {
  const char* env = std::getenv("STRATA_DEVICES");
  if (env == nullptr || *env == '\0') return 1;
  char* end = nullptr;
  const long n = std::strtol(env, &end, 10);
  if (*end != '\0' || n < 1 || n > kMaxDevices) {
    return error(Code::kInvalidValue,
                 fmt::format("STRATA_DEVICES='{}': expected a number from 1 to {}", env, kMaxDevices));
  }
  return static_cast<int>(n);
}

Status kmd_set_gpu_factory(GpuFactory factory) {
  DeviceTable& t = table();
  std::lock_guard lock(t.mu);
  if (t.opened_any) return error(Code::kNotPermitted, "kmd: GPU factory set after a device was opened");
  t.factory = std::move(factory);
  return ok_status();
}

StatusOr<KmdHandle> kmd_open(int device_index) {
  ASSIGN_OR_RETURN(int count, kmd_device_count());
  if (device_index < 0 || device_index >= count) {
    return error(Code::kInvalidDevice,
                 fmt::format("kmd: device {} does not exist ({} devices)", device_index, count));
  }
  DeviceTable& t = table();
  std::lock_guard lock(t.mu);
  t.opened_any = true;
  if (t.devices.size() < static_cast<size_t>(count)) t.devices.resize(count);
  if (t.devices[device_index] == nullptr) {
    ASSIGN_OR_RETURN(hw::ArchConfig loaded, hw::load_arch_config_from_env());
    t.configs.push_back(std::make_unique<hw::ArchConfig>(std::move(loaded)));
    const hw::ArchConfig& config = *t.configs.back();
    auto gpu = t.factory ? t.factory(config) : default_gpu(config);
    if (!gpu.ok()) return gpu.status();
    ASSIGN_OR_RETURN(t.devices[device_index],
                     KmdDevice::create(device_index, config, std::move(gpu).value()));
  }
  return KmdHandle{t.devices[device_index].get()};
}

Status kmd_ioctl(KmdHandle handle, IoctlCode code, void* request) {
  if (!handle) return error(Code::kInvalidHandle, "kmd_ioctl: invalid handle");
  return handle.device->ioctl(code, request);
}

StatusOr<std::shared_ptr<KmdDevice>> kmd_create_device(int index, const hw::ArchConfig& config,
                                                       std::unique_ptr<hw::Gpu> gpu) {
  return KmdDevice::create(index, config, std::move(gpu));
}

}  // namespace strata::kmd
