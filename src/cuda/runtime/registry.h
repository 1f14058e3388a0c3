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
  std::vector<struct VariableRecord*> managed;  // its __managed__ variables (guarded by mutex)
};

struct KernelRecord {
  FatbinRecord* fatbin = nullptr;
  const void* host_function = nullptr;
  std::string device_name;
  // A record standing for a driver CUkernel (a cudaKernel_t from cudaLibraryGetKernel):
  // no fatbin; its function is the driver's for the current context.
  CUkernel library_kernel = nullptr;
  std::mutex mutex;  // guards functions
  std::map<int, std::pair<unsigned, CUfunction>> functions;  // device -> (generation, fn)
};

struct VariableRecord {
  FatbinRecord* fatbin = nullptr;
  const void* host_variable = nullptr;
  std::string device_name;
  size_t size = 0;
  bool constant = false;
  // __managed__ variables: where nvcc's host code reads the variable's address (the
  // runtime stores the managed address there whenever the fatbin's module is loaded).
  void** managed_pointer = nullptr;
};

FatbinRecord* register_fatbin(const void* wrapper);
void register_function(FatbinRecord* fatbin, const void* host_function, const char* name);
void register_variable(FatbinRecord* fatbin, const void* host_variable, const char* name,
                       size_t size, bool constant);
// A __managed__ variable (__cudaRegisterManagedVar). Once its module is loaded,
// *host_pointer holds its managed address, and that address also resolves as the symbol
// (host code passes `x`, that is *host_pointer, to cudaMemcpyToSymbol & co.).
void register_managed_variable(FatbinRecord* fatbin, void** host_pointer, const char* name,
                               size_t size);
// Host addresses of the fatbin's kernels and variables stop resolving (the records, and
// handles already given out, stay valid).
void unregister_fatbin(FatbinRecord* fatbin);
// True once every registered fatbin has been unregistered again: nvcc's atexit handler
// (__cudaUnregisterFatBinary) ran for the last one, so the process is exiting and, as in
// CUDA, the runtime is unloading: API calls made after that (from static destructors)
// return cudaErrorCudartUnloading (enter_device, api_common.h).
bool runtime_unloading();

// The record of a kernel named the ways CUDA's runtime accepts (`const void* func`): a
// registered host stub, a cudaKernel_t from cudaGetKernel/__cudaGetKernel (the record
// itself), or a cudaKernel_t from cudaLibraryGetKernel (a live CUkernel; a record is
// made for it on first use). nullptr for anything else.
KernelRecord* find_kernel(const void* host_function);
VariableRecord* find_variable(const void* host_variable);

// The kernel's CUfunction in `device`'s context (which must be current), loading the
// fatbin's module on first use.
CUresult kernel_function(KernelRecord* kernel, int device, CUfunction* function);
// The reverse: the host stub (or cudaKernel_t) whose function kernel_function returned as
// `function`, null for a function the runtime never handed out (cudaGraphKernelNodeGetParams
// on captured launches).
const void* host_stub(CUfunction function);
// The fatbin's module in `device`'s context (which must be current); a load also
// publishes the addresses of the fatbin's __managed__ variables.
CUresult fatbin_module(FatbinRecord* fatbin, int device, CUmodule* module);

}  // namespace strata::cuda::runtime
