// Helpers shared by the accuracy programs (bench/accuracy/*.cu): plain, self-checking
// CUDA programs meant to run unchanged on an NVIDIA GPU and under Strata, printing one
// CSV line per timed kernel so that the two can be compared (docs/perf-model.md,
// "Accuracy"). Output:
//   # gpu=<name> cc=<major.minor> sms=<n> clock_khz=<k> mem_clock_khz=<k> bus_bits=<b>
//   #   driver=<cudaDriverGetVersion> runtime=<cudaRuntimeGetVersion> strata_arch=<STRATA_ARCH or
//   -> program,kernel,size,run,ms gemm,sgemm_tiled,1024,0,1.234
//   ...
//   PASS <program>
// Each kernel is launched once untimed (warm-up: module load, caches) and then timed
// `runs` times with CUDA events, one launch per event pair.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "test_check.h"

namespace accuracy {

struct Options {
  bool quick = false;  // small sizes, one timed run: checks results, not for figures
  int runs = 5;
};

inline Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) o.quick = true, o.runs = 1;
    if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) o.runs = std::atoi(argv[++i]);
  }
  return o;
}

inline void print_header() {
  cudaDeviceProp p{};
  CHECK_CUDA(cudaGetDeviceProperties(&p, 0));
  int clock = 0, mem_clock = 0, driver = 0, runtime = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, 0));
  CHECK_CUDA(cudaDeviceGetAttribute(&mem_clock, cudaDevAttrMemoryClockRate, 0));
  CHECK_CUDA(cudaDriverGetVersion(&driver));
  CHECK_CUDA(cudaRuntimeGetVersion(&runtime));
  const char* arch = std::getenv("STRATA_ARCH");
  std::printf("# gpu=%s cc=%d.%d sms=%d clock_khz=%d mem_clock_khz=%d bus_bits=%d\n", p.name,
              p.major, p.minor, p.multiProcessorCount, clock, mem_clock, p.memoryBusWidth);
  std::printf("#   driver=%d runtime=%d strata_arch=%s\n", driver, runtime,
              arch && *arch ? arch : "-");
  std::printf("program,kernel,size,run,ms\n");
}

// Warm-up launch, then `runs` timed launches; prints one CSV line each.
template <typename Launch>
void time_kernel(const Options& o, const char* program, const char* kernel, const std::string& size,
                 Launch launch) {
  launch();
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  for (int r = 0; r < o.runs; ++r) {
    CHECK_CUDA(cudaEventRecord(start, 0));
    launch();
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaEventRecord(stop, 0));
    CHECK_CUDA(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
    std::printf("%s,%s,%s,%d,%.6f\n", program, kernel, size.c_str(), r, ms);
  }
  CHECK_CUDA(cudaEventDestroy(start));
  CHECK_CUDA(cudaEventDestroy(stop));
}

// A deterministic small-integer pattern (exact in FP16, FP32 and their products/sums at
// the sizes used, so results can be checked bit for bit).
inline int pattern(size_t i, int salt) {
  return static_cast<int>((i * 2654435761u + salt * 97u) >> 7 & 7) - 3;
}

}  // namespace accuracy
