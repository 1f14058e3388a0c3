// Helpers shared by the model sanity microbenchmarks (bench/model/*.cu): what the
// selected architecture config implies, timing with CUDA events, and the result rows.
//
// The programs are ordinary CUDA programs: on Strata, CUDA events read the modeled
// virtual clock, so what they measure is the model; on an NVIDIA GPU they measure the
// GPU. "Implied" figures come from the config the run selected (STRATA_ARCH, a name
// looked up in STRATA_ARCH_DIR or a path to a .toml file) and from
// cudaGetDeviceProperties; a field the config lacks is printed as "-", never guessed.
// Every row is printed as
//   | benchmark | metric | measured | implied by the config | measured / implied |
// and bench/model/run_sanity.sh collects the rows of all programs into one table.
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "test_check.h"

namespace model {

// The `key = value` lines of the selected arch config (sections ignored: every field
// name is unique across sections). Empty when no config can be found (e.g. on a GPU).
class ArchFile {
 public:
  ArchFile() {
    std::string path = locate();
    std::ifstream in(path);
    if (!in) return;
    path_ = path;
    std::string line;
    while (std::getline(in, line)) {
      line = line.substr(0, line.find('#'));
      const size_t eq = line.find('=');
      if (eq == std::string::npos) continue;
      std::string key = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
      if (!key.empty() && !value.empty()) values_[key] = value;
    }
  }
  const std::string& path() const { return path_; }
  // The numeric value of the first of `keys` the config has; NAN when none.
  double number(std::initializer_list<const char*> keys) const {
    for (const char* key : keys) {
      auto it = values_.find(key);
      if (it != values_.end()) return std::strtod(it->second.c_str(), nullptr);
    }
    return NAN;
  }

 private:
  static std::string trim(const std::string& s) {
    const size_t b = s.find_first_not_of(" \t\r\""), e = s.find_last_not_of(" \t\r\"");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
  }
  static std::string locate() {
    const char* arch = std::getenv("STRATA_ARCH");
    std::string name = (arch != nullptr && *arch) ? arch : "strata-g1";
    if (name.find('/') != std::string::npos ||
        (name.size() > 5 && name.compare(name.size() - 5, 5, ".toml") == 0)) {
      return name;
    }
    const char* dir = std::getenv("STRATA_ARCH_DIR");
#ifdef STRATA_MODEL_ARCH_DIR
    std::string base = (dir != nullptr && *dir) ? dir : STRATA_MODEL_ARCH_DIR;
#else
    std::string base = (dir != nullptr && *dir) ? dir : "arch";
#endif
    return base + "/" + name + ".toml";
  }
  std::string path_;
  std::map<std::string, std::string> values_;
};

// The device and its config, with the figures every program needs.
struct Device {
  cudaDeviceProp prop{};
  ArchFile arch;
  double sm_count = 0;
  double core_hz = 0;  // SM clock
  double dram_bytes_per_s = 0;

  Device() {
    CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
    sm_count = prop.multiProcessorCount;
    int clock_khz = 0, mem_khz = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
    CHECK_CUDA(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0));
    core_hz = clock_khz * 1e3;
    // DRAM bandwidth: clock x bus bytes x transfers per clock. The config says how
    // many transfers; CUDA's convention for memoryClockRate is double data rate.
    double transfers = arch.number({"memory_transfers_per_clock"});
    double mem_mhz = arch.number({"memory_clock_mhz"});
    double bus_bits = arch.number({"memory_bus_width_bits"});
    if (std::isnan(transfers) || std::isnan(mem_mhz) || std::isnan(bus_bits)) {
      transfers = 2, mem_mhz = mem_khz / 1e3, bus_bits = prop.memoryBusWidth;
    }
    dram_bytes_per_s = mem_mhz * 1e6 * bus_bits / 8 * transfers;
    std::printf("# device: %s, %d SMs, %.0f MHz, DRAM %.1f GB/s, L2 %d KiB; config: %s\n",
                prop.name, prop.multiProcessorCount, core_hz / 1e6, dram_bytes_per_s / 1e9,
                prop.l2CacheSize / 1024,
                arch.path().empty() ? "(none found)" : arch.path().c_str());
  }
  // A per-SM per-clock rate from the config, times SMs and clock (per second).
  double device_rate(std::initializer_list<const char*> keys) const {
    return arch.number(keys) * sm_count * core_hz;
  }
};

// Elapsed time of `body` between two events on the default stream, in seconds. With
// `steady`, `body` runs once before the first event and is timed the second time,
// queued behind the first: the time is the device's alone, without the host-side cost
// of submitting work to an idle device (which a single timed launch includes).
template <typename Body>
double time_seconds(Body body, bool steady = true) {
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  if (steady) body();
  CHECK_CUDA(cudaEventRecord(start, 0));
  body();
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaEventRecord(stop, 0));
  CHECK_CUDA(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
  CHECK_CUDA(cudaEventDestroy(start));
  CHECK_CUDA(cudaEventDestroy(stop));
  return ms * 1e-3;
}

inline std::string figure(double v, const char* unit) {
  if (std::isnan(v) || std::isinf(v)) return "-";
  char buf[64];
  const double a = std::fabs(v);
  if (a != 0 && (a >= 1e5 || a < 1e-2)) {
    std::snprintf(buf, sizeof buf, "%.3e %s", v, unit);
  } else {
    std::snprintf(buf, sizeof buf, "%.3f %s", v, unit);
  }
  return buf;
}

// One result row; `implied` NAN when the config says nothing about it.
inline void row(const char* bench, const std::string& metric, double measured, double implied,
                const char* unit) {
  const double r = measured / implied;
  char ratio[32] = "-";
  if (!std::isnan(r) && !std::isinf(r)) std::snprintf(ratio, sizeof ratio, "%.3f", r);
  std::printf("| %s | %s | %s | %s | %s |\n", bench, metric.c_str(), figure(measured, unit).c_str(),
              figure(implied, unit).c_str(), ratio);
}

inline bool quick_mode(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) return true;
  }
  return false;
}

}  // namespace model
