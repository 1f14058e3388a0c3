#include "cuda/driver/proc_table.h"

#include <cudaProfiler.h>

#include <cstring>

namespace strata::cuda::driver {
namespace {

// `&name` expands through cuda.h's binding macros to the exported variant.
#define STRATA_PROC(name, version) {#name, reinterpret_cast<void*>(&name), version}
#define STRATA_STREAM_OP(name, version) {#name, reinterpret_cast<void*>(&name), version},
const ProcEntry kProcs[] = {
#include "cuda/driver/stream_ops.def"
    STRATA_PROC(cuInit, 2000),
    STRATA_PROC(cuDriverGetVersion, 2020),
    STRATA_PROC(cuGetErrorName, 6000),
    STRATA_PROC(cuGetErrorString, 6000),
    STRATA_PROC(cuGetExportTable, 3000),
    STRATA_PROC(cuGetProcAddress, 12000),
    STRATA_PROC(cuDeviceGet, 2000),
    STRATA_PROC(cuDeviceGetCount, 2000),
    STRATA_PROC(cuDeviceGetName, 2000),
    STRATA_PROC(cuDeviceGetAttribute, 2000),
    STRATA_PROC(cuDeviceTotalMem, 3020),
    STRATA_PROC(cuDeviceGetUuid, 11040),
    STRATA_PROC(cuDeviceComputeCapability, 2000),
    STRATA_PROC(cuDevicePrimaryCtxRetain, 7000),
    STRATA_PROC(cuDevicePrimaryCtxRelease, 11000),
    STRATA_PROC(cuDevicePrimaryCtxReset, 11000),
    STRATA_PROC(cuDevicePrimaryCtxSetFlags, 11000),
    STRATA_PROC(cuDevicePrimaryCtxGetState, 7000),
    STRATA_PROC(cuCtxCreate, 12050),
    STRATA_PROC(cuCtxDestroy, 4000),
    STRATA_PROC(cuCtxSetCurrent, 4000),
    STRATA_PROC(cuCtxGetCurrent, 4000),
    STRATA_PROC(cuCtxPushCurrent, 4000),
    STRATA_PROC(cuCtxPopCurrent, 4000),
    STRATA_PROC(cuCtxSynchronize, 2000),
    STRATA_PROC(cuCtxGetDevice, 2000),
    STRATA_PROC(cuCtxGetFlags, 7000),
    STRATA_PROC(cuCtxSetLimit, 3010),
    STRATA_PROC(cuCtxGetLimit, 3010),
    STRATA_PROC(cuCtxGetApiVersion, 3020),
    STRATA_PROC(cuModuleLoadData, 2000),
    STRATA_PROC(cuModuleLoadDataEx, 2010),
    STRATA_PROC(cuModuleLoadFatBinary, 2000),
    STRATA_PROC(cuModuleUnload, 2000),
    STRATA_PROC(cuModuleGetFunction, 2000),
    STRATA_PROC(cuModuleGetGlobal, 3020),
    STRATA_PROC(cuFuncGetAttribute, 2020),
    STRATA_PROC(cuFuncSetAttribute, 9000),
    STRATA_PROC(cuOccupancyMaxActiveBlocksPerMultiprocessor, 6050),
    STRATA_PROC(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags, 7000),
    STRATA_PROC(cuOccupancyMaxPotentialBlockSize, 6050),
    STRATA_PROC(cuOccupancyMaxPotentialBlockSizeWithFlags, 7000),
    STRATA_PROC(cuProfilerStart, 4000),
    STRATA_PROC(cuProfilerStop, 4000),
    STRATA_PROC(cuMemAllocPitch, 3020),
    STRATA_PROC(cuLinkCreate, 6050),
    STRATA_PROC(cuLinkAddData, 6050),
    STRATA_PROC(cuLinkComplete, 5050),
    STRATA_PROC(cuLinkDestroy, 5050),
    STRATA_PROC(cuMemAlloc, 3020),
    STRATA_PROC(cuMemFree, 3020),
    STRATA_PROC(cuMemGetInfo, 3020),
    STRATA_PROC(cuMemGetAddressRange, 3020),
    STRATA_PROC(cuPointerGetAttribute, 4000),
    STRATA_PROC(cuPointerGetAttributes, 7000),
    STRATA_PROC(cuDeviceGetDefaultMemPool, 11020),
    STRATA_PROC(cuDeviceGetMemPool, 11020),
    STRATA_PROC(cuDeviceSetMemPool, 11020),
    STRATA_PROC(cuMemPoolCreate, 11020),
    STRATA_PROC(cuMemPoolDestroy, 11020),
    STRATA_PROC(cuMemPoolSetAttribute, 11020),
    STRATA_PROC(cuMemPoolGetAttribute, 11020),
    STRATA_PROC(cuMemPoolTrimTo, 11020),
    STRATA_PROC(cuMemAllocHost, 3020),
    STRATA_PROC(cuMemHostAlloc, 2020),
    STRATA_PROC(cuMemFreeHost, 2000),
    STRATA_PROC(cuMemHostGetDevicePointer, 3020),
    STRATA_PROC(cuMemHostGetFlags, 2030),
    STRATA_PROC(cuMemHostRegister, 6050),
    STRATA_PROC(cuMemHostUnregister, 4000),
    STRATA_PROC(cuStreamCreate, 2000),
    STRATA_PROC(cuStreamCreateWithPriority, 5050),
    STRATA_PROC(cuCtxGetStreamPriorityRange, 5050),
    STRATA_PROC(cuStreamDestroy, 4000),
    STRATA_PROC(cuEventCreate, 2000),
    STRATA_PROC(cuEventDestroy, 4000),
    STRATA_PROC(cuEventSynchronize, 2000),
    STRATA_PROC(cuEventQuery, 2000),
    STRATA_PROC(cuEventElapsedTime, 12080),
};
#undef STRATA_STREAM_OP
#undef STRATA_PROC

const ProcEntry* find(std::span<const ProcEntry> table, const char* name) {
  for (const ProcEntry& e : table) {
    if (std::strcmp(e.name, name) == 0) return &e;
  }
  return nullptr;
}

}  // namespace

std::span<const ProcEntry> default_stream_procs() { return kProcs; }

ProcLookup lookup_proc(const char* name, int cuda_version, bool per_thread) {
  const ProcEntry* e = per_thread ? find(per_thread_stream_procs(), name) : nullptr;
  if (e == nullptr) e = find(default_stream_procs(), name);
  ProcLookup out;
  if (e == nullptr) return out;
  if (cuda_version < e->version) {
    out.status = CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
    return out;
  }
  out.address = e->address;
  out.status = CU_GET_PROC_ADDRESS_SUCCESS;
  return out;
}

}  // namespace strata::cuda::driver
