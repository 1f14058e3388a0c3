// cuGetProcAddress's table: every entry point this library exports, by its base name
// ("cuMemAlloc"), with the address of the variant cuda.h binds ("cuMemAlloc_v2") and
// the CUDA version (1000 * major + 10 * minor) that introduced that variant's
// signature. Requests for an older version get VERSION_NOT_SUFFICIENT rather than a
// function with a different signature. Thread-safe (constant tables).
#pragma once

#include <cuda.h>

#include <span>

namespace strata::cuda::driver {

struct ProcEntry {
  const char* name;
  void* address;
  int version;
};

// Entry points under their default-stream binding (proc_table.cc).
std::span<const ProcEntry> default_stream_procs();
// The per-thread-default-stream variants (_ptds/_ptsz) of the stream-ordered entry
// points (proc_table_per_thread.cc).
std::span<const ProcEntry> per_thread_stream_procs();

struct ProcLookup {
  void* address = nullptr;
  CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
};
ProcLookup lookup_proc(const char* name, int cuda_version, bool per_thread);

}  // namespace strata::cuda::driver
