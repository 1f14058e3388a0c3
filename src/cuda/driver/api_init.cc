// Entry points: initialisation, versions, error strings, export tables, proc addresses.
#include <cstring>

#include "cuda/driver/api_profiler.h"
#include "cuda/driver/api_util.h"
#include "cuda/driver/device.h"
#include "cuda/driver/error_strings.h"
#include "cuda/driver/proc_table.h"

using namespace strata;
using namespace strata::cuda::driver;

CUresult CUDAAPI cuInit(unsigned int Flags) {
  return api_call("cuInit", [&] { return initialize(Flags); });
}

CUresult CUDAAPI cuDriverGetVersion(int* driverVersion) {
  if (driverVersion == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *driverVersion = CUDA_VERSION;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGetErrorName(CUresult error, const char** pStr) {
  if (pStr == nullptr) return CUDA_ERROR_INVALID_VALUE;
  const char* name = error_name(error);
  *pStr = name;
  return name != nullptr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult CUDAAPI cuGetErrorString(CUresult error, const char** pStr) {
  if (pStr == nullptr) return CUDA_ERROR_INVALID_VALUE;
  const char* text = error_description(error);
  *pStr = text;
  return text != nullptr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult CUDAAPI cuGetExportTable(const void** ppExportTable, const CUuuid* pExportTableId) {
  if (ppExportTable == nullptr || pExportTableId == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *ppExportTable = profiler_export_table(*pExportTableId);
  return *ppExportTable != nullptr ? CUDA_SUCCESS : CUDA_ERROR_NOT_SUPPORTED;
}

CUresult CUDAAPI cuGetProcAddress(const char* symbol, void** pfn, int cudaVersion,
                                  cuuint64_t flags, CUdriverProcAddressQueryResult* symbolStatus) {
  return api_call("cuGetProcAddress", [&]() -> Status {
    if (symbol == nullptr || pfn == nullptr) return null_arg("cuGetProcAddress", "symbol or pfn");
    *pfn = nullptr;
    constexpr cuuint64_t kKnown = CU_GET_PROC_ADDRESS_LEGACY_STREAM |
                                  CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM;
    if ((flags & ~kKnown) != 0) {
      return error(Code::kInvalidValue, fmt::format("cuGetProcAddress: unknown flags {:#x}", flags));
    }
    bool per_thread = (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0;
    ProcLookup found = lookup_proc(symbol, cudaVersion, per_thread);
    if (symbolStatus != nullptr) *symbolStatus = found.status;
    if (found.status != CU_GET_PROC_ADDRESS_SUCCESS) {
      return error(Code::kNotFound, fmt::format("cuGetProcAddress: '{}' (version {}) is not "
                                                "available", symbol, cudaVersion));
    }
    *pfn = found.address;
    return ok_status();
  });
}
