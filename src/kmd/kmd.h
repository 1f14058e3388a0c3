// Entry points of the emulated kernel-mode driver.
//
// kmd_device_count() reads STRATA_DEVICES (default 1, 1..16). kmd_open(i) returns a
// handle to device i; the first open creates the device (its hw::Gpu from
// hw::create_sim_gpu with the config of hw::load_arch_config_from_env, or the Gpu
// factory set with kmd_set_gpu_factory) and programs it. Devices live until process
// exit; handles are cheap and may be shared by threads. kmd_ioctl is thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "base/status.h"
#include "kmd/uapi.h"

namespace strata::hw {
class Gpu;
struct ArchConfig;
}  // namespace strata::hw

namespace strata::kmd {

class KmdDevice;

struct KmdHandle {
  KmdDevice* device = nullptr;
  explicit operator bool() const { return device != nullptr; }
};

StatusOr<int> kmd_device_count();
StatusOr<KmdHandle> kmd_open(int device_index);
// `request` points at the struct `code` names. kInvalidValue for an unknown code or a
// null request; otherwise the operation's Status.
Status kmd_ioctl(KmdHandle handle, IoctlCode code, void* request);

// Replaces how devices get their GPU and config (tests inject a fake GPU; a future
// FPGA backend a PCIe device). Must be called before the first kmd_open; kNotPermitted
// afterwards.
using GpuFactory = std::function<StatusOr<std::unique_ptr<hw::Gpu>>(const hw::ArchConfig&)>;
Status kmd_set_gpu_factory(GpuFactory factory);

// A standalone device, not in the process-wide table (tests: several independent
// instances with their own GPU). Lives as long as the returned owner. `config` must
// outlive `gpu` when the Gpu keeps a reference to it (the simulator does).
StatusOr<std::shared_ptr<KmdDevice>> kmd_create_device(int index, const hw::ArchConfig& config,
                                                       std::unique_ptr<hw::Gpu> gpu);
inline KmdHandle kmd_handle(const std::shared_ptr<KmdDevice>& device) {
  return KmdHandle{device.get()};
}

}  // namespace strata::kmd
