#include "cuda/driver/error_strings.h"

namespace strata::cuda::driver {
namespace {

struct ErrorText {
  CUresult result;
  const char* name;
  const char* description;
};

#define STRATA_CU_ERROR(ID, TEXT) {ID, #ID, TEXT}
constexpr ErrorText kErrors[] = {
    STRATA_CU_ERROR(CUDA_SUCCESS, "no error"),
    STRATA_CU_ERROR(CUDA_ERROR_INVALID_VALUE, "invalid argument"),
    STRATA_CU_ERROR(CUDA_ERROR_OUT_OF_MEMORY, "out of memory"),
    STRATA_CU_ERROR(CUDA_ERROR_NOT_INITIALIZED, "initialization error"),
    STRATA_CU_ERROR(CUDA_ERROR_DEINITIALIZED, "driver shutting down"),
    STRATA_CU_ERROR(CUDA_ERROR_PROFILER_DISABLED,
                    "profiler disabled while using external profiling tool"),
    STRATA_CU_ERROR(CUDA_ERROR_PROFILER_NOT_INITIALIZED,
                    "profiler not initialized: call cudaProfilerInitialize()"),
    STRATA_CU_ERROR(CUDA_ERROR_PROFILER_ALREADY_STARTED, "profiler already started"),
    STRATA_CU_ERROR(CUDA_ERROR_PROFILER_ALREADY_STOPPED, "profiler already stopped"),
    STRATA_CU_ERROR(CUDA_ERROR_STUB_LIBRARY, "CUDA driver is a stub library"),
    STRATA_CU_ERROR(CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER,
                    "the API call requires a newer CUDA driver"),
    STRATA_CU_ERROR(CUDA_ERROR_DEVICE_UNAVAILABLE,
                    "CUDA-capable device(s) is/are busy or unavailable"),
    STRATA_CU_ERROR(CUDA_ERROR_NO_DEVICE, "no CUDA-capable device is detected"),
    STRATA_CU_ERROR(CUDA_ERROR_INVALID_DEVICE, "invalid device ordinal"),
    STRATA_CU_ERROR(CUDA_ERROR_DEVICE_NOT_LICENSED, "device doesn't have valid Grid license"),
    STRATA_CU_ERROR(CUDA_ERROR_INVALID_IMAGE, "device kernel image is invalid"),
    STRATA_CU_ERROR(CUDA_ERROR_INVALID_CONTEXT, "invalid device context"),
    STRATA_CU_ERROR(CUDA_ERROR_CONTEXT_ALREADY_CURRENT, "context already current"),
    STRATA_CU_ERROR(CUDA_ERROR_MAP_FAILED, "mapping of buffer object failed"),
    STRATA_CU_ERROR(CUDA_ERROR_UNMAP_FAILED, "unmapping of buffer object failed"),
    STRATA_CU_ERROR(CUDA_ERROR_ARRAY_IS_MAPPED, "array is mapped"),
    STRATA_CU_ERROR(CUDA_ERROR_ALREADY_MAPPED, "resource already mapped"),
    STRATA_CU_ERROR(CUDA_ERROR_NO_BINARY_FOR_GPU,
                    "no kernel image is available for execution on the device"),
    STRATA_CU_ERROR(CUDA_ERROR_ALREADY_ACQUIRED, "resource already acquired"),
    STRATA_CU_ERROR(CUDA_ERROR_NOT_MAPPED, "resource not mapped"),
    STRATA_CU_ERROR(CUDA_ERROR_NOT_MAPPED_AS_ARRAY, "resource not mapped as array"),
    STRATA_CU_ERROR(CUDA_ERROR_NOT_MAPPED_AS_POINTER, "resource not mapped as pointer"),
    STRATA_CU_ERROR(CUDA_ERROR_ECC_UNCORRECTABLE, "uncorrectable ECC error encountered"),
    STRATA_CU_ERROR(CUDA_ERROR_UNSUPPORTED_LIMIT, "limit is not supported on this architecture"),
    STRATA_CU_ERROR(CUDA_ERROR_CONTEXT_ALREADY_IN_USE,
                    "exclusive-thread device already in use by a different thread"),
    STRATA_CU_ERROR(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED,
                    "peer access is not supported between these two devices"),
    STRATA_CU_ERROR(CUDA_ERROR_INVALID_PTX, "a PTX JIT compilation failed"),
    STRATA_CU_ERROR(CUDA_ERROR_INVALID_GRAPHICS_CONTEXT, "invalid OpenGL or DirectX context"),
    STRATA_CU_ERROR(CUDA_ERROR_NVLINK_UNCORRECTABLE,
                    "uncorrectable NVLink error detected during the execution"),
    STRATA_CU_ERROR(CUDA_ERROR_JIT_COMPILER_NOT_FOUND, "PTX JIT compiler library not found"),
    STRATA_CU_ERROR(CUDA_ERROR_UNSUPPORTED_PTX_VERSION,
                    "the provided PTX was compiled with an unsupported toolchain."),
    STRATA_CU_ERROR(CUDA_ERROR_JIT_COMPILATION_DISABLED, "PTX JIT compilation was disabled"),
    STRATA_CU_ERROR(CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY,
                    "the provided execution affinity is not supported by the device"),
    STRATA_CU_ERROR(CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC,
                    "the provided PTX contains unsupported call to cudaDeviceSynchronize"),
    STRATA_CU_ERROR(CUDA_ERROR_CONTAINED,
                    "an exception occurred on the device that is now contained by the GPU's "
                    "error containment capability"),
    STRATA_CU_ERROR(CUDA_ERROR_INVALID_SOURCE, "device kernel image is invalid"),
    STRATA_CU_ERROR(CUDA_ERROR_FILE_NOT_FOUND, "file not found"),
    STRATA_CU_ERROR(CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND, "shared object symbol not found"),
    STRATA_CU_ERROR(CUDA_ERROR_SHARED_OBJECT_INIT_FAILED, "shared object initialization failed"),
    STRATA_CU_ERROR(CUDA_ERROR_OPERATING_SYSTEM,
                    "OS call failed or operation not supported on this OS"),
    STRATA_CU_ERROR(CUDA_ERROR_INVALID_HANDLE, "invalid resource handle"),
    STRATA_CU_ERROR(CUDA_ERROR_ILLEGAL_STATE,
                    "the operation cannot be performed in the present state"),
    STRATA_CU_ERROR(CUDA_ERROR_LOSSY_QUERY, "attempted introspection would be semantically lossy"),
    STRATA_CU_ERROR(CUDA_ERROR_NOT_FOUND, "named symbol not found"),
    STRATA_CU_ERROR(CUDA_ERROR_NOT_READY, "device not ready"),
    STRATA_CU_ERROR(CUDA_ERROR_ILLEGAL_ADDRESS, "an illegal memory access was encountered"),
    STRATA_CU_ERROR(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "too many resources requested for launch"),
    STRATA_CU_ERROR(CUDA_ERROR_LAUNCH_TIMEOUT, "the launch timed out and was terminated"),
    STRATA_CU_ERROR(CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING,
                    "launch uses incompatible texturing mode"),
    STRATA_CU_ERROR(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, "peer access is already enabled"),
    STRATA_CU_ERROR(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, "peer access has not been enabled"),
    STRATA_CU_ERROR(CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE,
                    "cannot set while device is active in this process"),
    STRATA_CU_ERROR(CUDA_ERROR_CONTEXT_IS_DESTROYED, "context is destroyed"),
    STRATA_CU_ERROR(CUDA_ERROR_ASSERT, "device-side assert triggered"),
    STRATA_CU_ERROR(CUDA_ERROR_TOO_MANY_PEERS, "peer mapping resources exhausted"),
    STRATA_CU_ERROR(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
                    "part or all of the requested memory range is already mapped"),
    STRATA_CU_ERROR(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED,
                    "pointer does not correspond to a registered memory region"),
    STRATA_CU_ERROR(CUDA_ERROR_HARDWARE_STACK_ERROR, "hardware stack error"),
    STRATA_CU_ERROR(CUDA_ERROR_ILLEGAL_INSTRUCTION, "an illegal instruction was encountered"),
    STRATA_CU_ERROR(CUDA_ERROR_MISALIGNED_ADDRESS, "misaligned address"),
    STRATA_CU_ERROR(CUDA_ERROR_INVALID_ADDRESS_SPACE,
                    "operation not supported on global/shared address space"),
    STRATA_CU_ERROR(CUDA_ERROR_INVALID_PC, "invalid program counter"),
    STRATA_CU_ERROR(CUDA_ERROR_LAUNCH_FAILED, "unspecified launch failure"),
    STRATA_CU_ERROR(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
                    "too many blocks in cooperative launch"),
    STRATA_CU_ERROR(CUDA_ERROR_TENSOR_MEMORY_LEAK,
                    "tensor memory was not completely freed before the kernel exited"),
    STRATA_CU_ERROR(CUDA_ERROR_NOT_PERMITTED, "operation not permitted"),
    STRATA_CU_ERROR(CUDA_ERROR_NOT_SUPPORTED, "operation not supported"),
    STRATA_CU_ERROR(CUDA_ERROR_SYSTEM_NOT_READY, "system not yet initialized"),
    STRATA_CU_ERROR(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH,
                    "system has unsupported display driver / cuda driver combination"),
    STRATA_CU_ERROR(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE,
                    "forward compatibility was attempted on non supported HW"),
    STRATA_CU_ERROR(CUDA_ERROR_MPS_CONNECTION_FAILED,
                    "MPS client failed to connect to the MPS control daemon or the MPS server"),
    STRATA_CU_ERROR(CUDA_ERROR_MPS_RPC_FAILURE,
                    "the remote procedural call between the MPS server and the MPS client failed"),
    STRATA_CU_ERROR(CUDA_ERROR_MPS_SERVER_NOT_READY,
                    "MPS server is not ready to accept new MPS client requests"),
    STRATA_CU_ERROR(CUDA_ERROR_MPS_MAX_CLIENTS_REACHED,
                    "the hardware resources required to create MPS client have been exhausted"),
    STRATA_CU_ERROR(CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED,
                    "the hardware resources required to support device connections have been "
                    "exhausted"),
    STRATA_CU_ERROR(CUDA_ERROR_MPS_CLIENT_TERMINATED,
                    "the MPS client has been terminated by the server"),
    STRATA_CU_ERROR(CUDA_ERROR_CDP_NOT_SUPPORTED,
                    "the module is using CUDA Dynamic Parallelism, but the current "
                    "configuration, like MPS, does not support it"),
    STRATA_CU_ERROR(CUDA_ERROR_CDP_VERSION_MISMATCH,
                    "unsupported interaction between different versions of CUDA Dynamic "
                    "Parallelism"),
    STRATA_CU_ERROR(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
                    "operation not permitted when stream is capturing"),
    STRATA_CU_ERROR(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED,
                    "operation failed due to a previous error during capture"),
    STRATA_CU_ERROR(CUDA_ERROR_STREAM_CAPTURE_MERGE,
                    "operation would result in a merge of separate capture sequences"),
    STRATA_CU_ERROR(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED,
                    "capture was not ended in the same stream as it began"),
    STRATA_CU_ERROR(CUDA_ERROR_STREAM_CAPTURE_UNJOINED, "capturing stream has unjoined work"),
    STRATA_CU_ERROR(CUDA_ERROR_STREAM_CAPTURE_ISOLATION,
                    "dependency created on uncaptured work in another stream"),
    STRATA_CU_ERROR(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT,
                    "operation would make the legacy stream depend on a capturing blocking "
                    "stream"),
    STRATA_CU_ERROR(CUDA_ERROR_CAPTURED_EVENT,
                    "operation not permitted on an event last recorded in a capturing stream"),
    STRATA_CU_ERROR(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD,
                    "attempt to terminate a thread-local capture sequence from another thread"),
    STRATA_CU_ERROR(CUDA_ERROR_TIMEOUT, "wait operation timed out"),
    STRATA_CU_ERROR(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE,
                    "the graph update was not performed because it included changes which "
                    "violated constraints specific to instantiated graph update"),
    STRATA_CU_ERROR(CUDA_ERROR_EXTERNAL_DEVICE,
                    "an async error has occurred in external entity outside of CUDA"),
    STRATA_CU_ERROR(CUDA_ERROR_INVALID_CLUSTER_SIZE, "invalid cluster size"),
    STRATA_CU_ERROR(CUDA_ERROR_FUNCTION_NOT_LOADED, "function not loaded"),
    STRATA_CU_ERROR(CUDA_ERROR_INVALID_RESOURCE_TYPE, "invalid resource type"),
    STRATA_CU_ERROR(CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION, "invalid resource configuration"),
    STRATA_CU_ERROR(CUDA_ERROR_KEY_ROTATION, "an error occurred during key rotation"),
    STRATA_CU_ERROR(CUDA_ERROR_UNKNOWN, "unknown error"),
};
#undef STRATA_CU_ERROR

const ErrorText* find(CUresult result) {
  for (const ErrorText& e : kErrors) {
    if (e.result == result) return &e;
  }
  return nullptr;
}

}  // namespace

const char* error_name(CUresult result) {
  const ErrorText* e = find(result);
  return e ? e->name : nullptr;
}

const char* error_description(CUresult result) {
  const ErrorText* e = find(result);
  return e ? e->description : nullptr;
}

}  // namespace strata::cuda::driver
