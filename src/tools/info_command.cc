// strata info: the devices Strata presents, as the CUDA driver API reports them.
#include <cuda.h>
#include <fmt/format.h>

#include "tools/commands.h"

namespace strata::tools {
namespace {

int attribute(CUdevice device, CUdevice_attribute which) {
  int value = 0;
  if (cuDeviceGetAttribute(&value, which, device) != CUDA_SUCCESS) return -1;
  return value;
}

int info() {
  CUresult result = cuInit(0);
  int count = 0;
  if (result == CUDA_SUCCESS) result = cuDeviceGetCount(&count);
  if (result != CUDA_SUCCESS) {
    const char* text = nullptr;
    cuGetErrorString(result, &text);
    fmt::print(stderr, "strata info: cannot initialise the driver: {}\n",
               text != nullptr ? text : "unknown error");
    return 1;
  }
  int version = 0;
  cuDriverGetVersion(&version);
  fmt::print("Strata driver (CUDA {}.{}), {} device(s)\n", version / 1000, version % 1000 / 10,
             count);
  for (int i = 0; i < count; ++i) {
    CUdevice device = 0;
    if (cuDeviceGet(&device, i) != CUDA_SUCCESS) continue;
    char name[256] = {};
    cuDeviceGetName(name, sizeof(name), device);
    size_t memory = 0;
    cuDeviceTotalMem(&memory, device);
    fmt::print("Device {}: {}\n", i, name);
    fmt::print("  compute capability  {}.{}\n",
               attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
               attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
    fmt::print("  multiprocessors     {}\n",
               attribute(device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT));
    fmt::print("  global memory       {:.1f} GiB\n",
               static_cast<double>(memory) / (1024.0 * 1024.0 * 1024.0));
    fmt::print("  shared memory/block {} KiB\n",
               attribute(device, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK) / 1024);
    fmt::print("  core clock          {} MHz\n",
               attribute(device, CU_DEVICE_ATTRIBUTE_CLOCK_RATE) / 1000);
    fmt::print("  memory clock        {} MHz\n",
               attribute(device, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE) / 1000);
    fmt::print("  L2 cache            {} KiB\n",
               attribute(device, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE) / 1024);
  }
  return 0;
}

}  // namespace

void add_info_command(CLI::App& app, int* exit_code) {
  CLI::App* sub = app.add_subcommand("info", "List the devices Strata presents");
  sub->callback([exit_code] { *exit_code = info(); });
}

}  // namespace strata::tools
