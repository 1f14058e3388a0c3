// cuBLAS handles. A cublasHandle_t (struct cublasContext*) and a cublasLtHandle_t (struct
// cublasLtContext*) are the same object, strata::blas::Handle: programs pass one as the
// other (PyTorch reinterpret_casts its cuBLAS handle to a cuBLASLt handle), so both
// opaque structs derive from Handle alone and every entry point validates the pointer by
// its magic word.
//
// A handle belongs to the CUDA context current when it was created (the primary context
// of the runtime's current device, created then if need be) and holds the settings of
// cublasSet*: stream, workspace, pointer / atomics / math mode, SM count target, the
// emulation controls. The library's kernels are loaded into that context once per
// handle (kernels.h). A handle is used by one host thread at a time (cuBLAS's contract);
// creating and destroying handles is thread-safe.
#pragma once

#include <cublasLt.h>
#include <cublas_api.h>
#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <memory>

namespace strata::blas {

class Kernels;

inline constexpr uint64_t kHandleMagic = 0x53545241'54414842ull;  // "STRATAHB"

struct Handle {
  Handle();
  ~Handle();
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;

  uint64_t magic = kHandleMagic;
  int device = 0;
  int sm_count = 1;  // the device's multiprocessors (GEMM tile selection, gemm.h)
  CUcontext context = nullptr;
  cudaStream_t stream = nullptr;  // 0: the legacy default stream
  // cublasSetWorkspace: the user's workspace (null and 0 when none was set).
  void* workspace = nullptr;
  size_t workspace_bytes = 0;
  cublasPointerMode_t pointer_mode = CUBLAS_POINTER_MODE_HOST;
  cublasAtomicsMode_t atomics_mode = CUBLAS_ATOMICS_NOT_ALLOWED;
  cublasMath_t math_mode = CUBLAS_DEFAULT_MATH;
  int sm_count_target = 0;
  cublasEmulationStrategy_t emulation_strategy = CUBLAS_EMULATION_STRATEGY_DEFAULT;
  cudaEmulationSpecialValuesSupport emulation_special_values =
      CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT;
  cudaEmulationMantissaControl mantissa_control = CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC;
  int max_mantissa_bits = 0;
  int mantissa_bit_offset = 0;
  int* mantissa_bit_count_pointer = nullptr;
  std::unique_ptr<Kernels> kernels;

  // The math mode without flags (its low four bits: CUBLAS_DEFAULT_MATH,
  // CUBLAS_TF32_TENSOR_OP_MATH, ...).
  cublasMath_t math() const { return static_cast<cublasMath_t>(math_mode & 0xf); }
  bool reduced_precision_reduction_allowed() const {
    return (math_mode & CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION) == 0;
  }
  bool device_pointers() const { return pointer_mode == CUBLAS_POINTER_MODE_DEVICE; }
};

// The handle behind a public handle, or null when it is not a live handle of this
// library. Each library (libcublas.so.13, libcublasLt.so.13) keeps its own set: handles
// are made by libcublasLt's cublasLtCreate (cublasCreate calls it, as NVIDIA's libcublas
// depends on libcublasLt), and libcublas registers the ones cublasCreate returns.
Handle* handle_of(const void* handle);
void register_handle(Handle* handle);
void unregister_handle(Handle* handle);

// libcublasLt only: creates a handle bound to the current context (see above) and
// registers it. CUBLAS_STATUS_NOT_INITIALIZED (logged) when there is no usable device or
// the kernels cannot be loaded.
cublasStatus_t create_handle(Handle** out, const char* function);
// libcublasLt only: unregisters and frees it.
void destroy_handle(Handle* handle);

}  // namespace strata::blas

struct cublasContext : strata::blas::Handle {};
struct cublasLtContext : strata::blas::Handle {};
