// What nvcc-generated host code registers at start-up: fatbins, kernels (by host stub
// address) and device variables (by host shadow address), and their lazy loading into
// each device's primary context.
//
// Records are created by the registration ABI and never freed: a kernel record doubles
// as the context-free handle __cudaGetKernel returns, valid for the process lifetime and
// on every device. Module loading happens on first use per device and is redone after
// cudaDeviceReset (device generation). Thread-safe.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "base/status.h"
#include "cuda/fatbin/wrapper.h"
#include "cuda/runtime/cuda_api.h"

namespace strata::cuda::runtime {

struct FatbinRecord {
  const void* wrapper = nullptr;
  Status parse_status;          // of the wrapper; reported on first use
  fatbin::Wrapper parsed;       // valid when parse_status is OK
  std::mutex mutex;             // guards modules
  struct Loaded {
    unsigned generation = 0;
    CUmodule module = nullptr;
    CUresult result = CUDA_SUCCESS;
  };
  std::map<int, Loaded> modules;  // by device ordinal
};

struct KernelRecord {
  FatbinRecord* fatbin = nullptr;
  const void* host_function = nullptr;
  std::string device_name;
  std::mutex mutex;  // guards functions
  std::map<int, std::pair<unsigned, CUfunction>> functions;  // device -> (generation, fn)
};

struct VariableRecord {
  FatbinRecord* fatbin = nullptr;
  const void* host_variable = nullptr;
  std::string device_name;
  size_t size = 0;
  bool constant = false;
};

FatbinRecord* register_fatbin(const void* wrapper);
void register_function(FatbinRecord* fatbin, const void* host_function, const char* name);
void register_variable(FatbinRecord* fatbin, const void* host_variable, const char* name,
                       size_t size, bool constant);
// Host addresses of the fatbin's kernels and variables stop resolving (the records, and
// handles already given out, stay valid).
void unregister_fatbin(FatbinRecord* fatbin);

// nullptr when `host_function` / `host_variable` was never registered.
KernelRecord* find_kernel(const void* host_function);
VariableRecord* find_variable(const void* host_variable);

// The kernel's CUfunction in `device`'s context (which must be current), loading the
// fatbin's module on first use.
CUresult kernel_function(KernelRecord* kernel, int device, CUfunction* function);
// The fatbin's module in `device`'s context (which must be current).
CUresult fatbin_module(FatbinRecord* fatbin, int device, CUmodule* module);

}  // namespace strata::cuda::runtime
