// strata info [--summary] [--arch NAME|PATH]: the devices Strata presents, as the CUDA
// driver API reports them; --summary prints one line (device 0, the device count, the
// simulator's threads); --arch prints an architecture config field by field with its
// provenance (a cited source or what it was calibrated on), or why it is invalid.
#include <cuda.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>

#include "hw/config/arch_config.h"
#include "hw/config/arch_fields.h"
#include "tools/commands.h"

namespace strata::tools {
namespace {

int attribute(CUdevice device, CUdevice_attribute which) {
  int value = 0;
  if (cuDeviceGetAttribute(&value, which, device) != CUDA_SUCCESS) return -1;
  return value;
}

std::string gib(size_t bytes) {
  const double value = static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0);
  if (value == static_cast<double>(static_cast<uint64_t>(value))) {
    return fmt::format("{} GiB", static_cast<uint64_t>(value));
  }
  return fmt::format("{:.1f} GiB", value);
}

// The simulator's host worker threads, as README's environment table defines them:
// STRATA_THREADS when it is a number 1..1024, else one per host core.
std::string threads_summary() {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const char* env = std::getenv("STRATA_THREADS");
  if (env == nullptr || *env == '\0') return fmt::format("STRATA_THREADS={} (all cores)", cores);
  char* end = nullptr;
  const long n = std::strtol(env, &end, 10);
  if (end != env && *end == '\0' && n > 0 && n <= 1024) return fmt::format("STRATA_THREADS={}", n);
  return fmt::format("STRATA_THREADS='{}' ignored, using {} (all cores)", env, cores);
}

int info(bool summary) {
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
  if (summary) {
    CUdevice device = 0;
    result = count > 0 ? cuDeviceGet(&device, 0) : CUDA_ERROR_NO_DEVICE;
    if (result != CUDA_SUCCESS) {
      fmt::print(stderr, "strata info: no device to summarise\n");
      return 1;
    }
    char name[256] = {};
    cuDeviceGetName(name, sizeof(name), device);
    size_t memory = 0;
    cuDeviceTotalMem(&memory, device);
    fmt::print("{} (simulated): compute {}.{}, {} SMs @ {} MHz, {}{}, {}\n", name,
               attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
               attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR),
               attribute(device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
               attribute(device, CU_DEVICE_ATTRIBUTE_CLOCK_RATE) / 1000, gib(memory),
               count > 1 ? fmt::format(", {} devices", count) : "", threads_summary());
    return 0;
  }
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

std::string field_value(const hw::ArchFieldInfo& field, hw::ArchConfig& config) {
  switch (field.type) {
    case hw::ArchFieldType::kInt64:
      return fmt::format("{}", *field.int64_field(config));
    case hw::ArchFieldType::kDouble:
      return fmt::format("{}", *field.double_field(config));
    case hw::ArchFieldType::kString:
      return fmt::format("\"{}\"", *field.string_field(config));
  }
  return "?";
}

// Prints the config `name_or_path` (load_arch_config's rules) field by field, grouped by
// section in arch_fields.def order. An invalid config prints the loader's message, which
// names the file, line and field, and fails.
int arch_info(const std::string& name_or_path) {
  StatusOr<hw::ArchConfig> loaded = hw::load_arch_config(name_or_path);
  if (!loaded.ok()) {
    fmt::print(stderr, "strata info: {}\n", loaded.status().message());
    return 1;
  }
  hw::ArchConfig& config = *loaded;
  fmt::print("Architecture config {} ({}, content hash {})\n", config.name, config.source_path,
             config.content_hash);
  std::string_view section;
  for (const hw::ArchFieldInfo& field : hw::arch_fields()) {
    if (field.section != section) {
      section = field.section;
      fmt::print("[{}]\n", section);
    }
    const auto it = config.provenance.find(fmt::format("{}.{}", field.section, field.name));
    fmt::print("  {:<30} {:<22} {}\n    {}\n", field.name, field_value(field, config),
               field.description, it != config.provenance.end() ? it->second : "");
  }
  return 0;
}

}  // namespace

void add_info_command(CLI::App& app, int* exit_code) {
  auto summary = std::make_shared<bool>(false);
  auto arch = std::make_shared<std::string>();
  CLI::App* sub = app.add_subcommand("info", "List the devices Strata presents");
  sub->add_flag("--summary", *summary, "one line: device 0, device count, simulator threads");
  sub->add_option("--arch", *arch,
                  "print an architecture config (a name in the arch directory, or a .toml "
                  "path) with each field's source");
  sub->callback([summary, arch, exit_code] {
    *exit_code = arch->empty() ? info(*summary) : arch_info(*arch);
  });
}

}  // namespace strata::tools
