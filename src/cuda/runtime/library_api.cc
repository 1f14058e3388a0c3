// The runtime's library management (cudaLibrary*, cudaKernelSetAttributeForDevice,
// cudaGetKernel): thin wrappers over the driver's context-independent loading
// (cuda/driver/library.h). A cudaLibrary_t is a CUlibrary and a cudaKernel_t from
// cudaLibraryGetKernel a CUkernel; the runtime's entry points that take a kernel as
// `const void*` (cudaLaunchKernel, cudaLaunchKernelExC, cudaFuncGetAttributes, ...)
// accept one through find_kernel (registry.h).
#include "cuda/runtime/api_common.h"
#include "cuda/runtime/registration_abi.h"
#include "cuda/runtime/registry.h"

namespace rt = strata::cuda::runtime;

namespace {

// Library calls need the driver initialised; the ones that use a context take the current
// device's primary context, as the runtime's other calls do.
cudaError_t enter() {
  return rt::enter_device();
}

cudaError_t kernel_result(CUresult result) {
  // A cudaKernel_t that is no live kernel.
  if (result == CUDA_ERROR_INVALID_HANDLE) return rt::record(cudaErrorInvalidDeviceFunction);
  return rt::record(result);
}

}  // namespace

extern "C" {

cudaError_t cudaLibraryLoadData(cudaLibrary_t* library, const void* code,
                                enum cudaJitOption* jitOptions, void** jitOptionsValues,
                                unsigned int numJitOptions, enum cudaLibraryOption* libraryOptions,
                                void** libraryOptionValues, unsigned int numLibraryOptions) {
  if (cudaError_t error = enter(); error != cudaSuccess) return error;
  // cudaJitOption and cudaLibraryOption mirror the driver's enumerators value for value.
  return rt::record(cuLibraryLoadData(
      reinterpret_cast<CUlibrary*>(library), code, reinterpret_cast<CUjit_option*>(jitOptions),
      jitOptionsValues, numJitOptions, reinterpret_cast<CUlibraryOption*>(libraryOptions),
      libraryOptionValues, numLibraryOptions));
}

cudaError_t cudaLibraryLoadFromFile(cudaLibrary_t* library, const char* fileName,
                                    enum cudaJitOption* jitOptions, void** jitOptionsValues,
                                    unsigned int numJitOptions,
                                    enum cudaLibraryOption* libraryOptions,
                                    void** libraryOptionValues, unsigned int numLibraryOptions) {
  if (cudaError_t error = enter(); error != cudaSuccess) return error;
  return rt::record(cuLibraryLoadFromFile(
      reinterpret_cast<CUlibrary*>(library), fileName, reinterpret_cast<CUjit_option*>(jitOptions),
      jitOptionsValues, numJitOptions, reinterpret_cast<CUlibraryOption*>(libraryOptions),
      libraryOptionValues, numLibraryOptions));
}

cudaError_t cudaLibraryUnload(cudaLibrary_t library) {
  if (cudaError_t error = enter(); error != cudaSuccess) return error;
  return rt::record(cuLibraryUnload(reinterpret_cast<CUlibrary>(library)));
}

cudaError_t cudaLibraryGetKernel(cudaKernel_t* pKernel, cudaLibrary_t library, const char* name) {
  if (cudaError_t error = enter(); error != cudaSuccess) return error;
  return rt::record(cuLibraryGetKernel(reinterpret_cast<CUkernel*>(pKernel),
                                       reinterpret_cast<CUlibrary>(library), name));
}

cudaError_t cudaLibraryGetKernelCount(unsigned int* count, cudaLibrary_t lib) {
  if (cudaError_t error = enter(); error != cudaSuccess) return error;
  return rt::record(cuLibraryGetKernelCount(count, reinterpret_cast<CUlibrary>(lib)));
}

cudaError_t cudaLibraryEnumerateKernels(cudaKernel_t* kernels, unsigned int numKernels,
                                        cudaLibrary_t lib) {
  if (cudaError_t error = enter(); error != cudaSuccess) return error;
  return rt::record(cuLibraryEnumerateKernels(reinterpret_cast<CUkernel*>(kernels), numKernels,
                                              reinterpret_cast<CUlibrary>(lib)));
}

cudaError_t cudaLibraryGetGlobal(void** dptr, size_t* bytes, cudaLibrary_t library,
                                 const char* name) {
  if (cudaError_t error = enter(); error != cudaSuccess) return error;
  CUdeviceptr address = 0;
  CUresult result = cuLibraryGetGlobal(dptr != nullptr ? &address : nullptr, bytes,
                                       reinterpret_cast<CUlibrary>(library), name);
  if (result == CUDA_SUCCESS && dptr != nullptr) *dptr = reinterpret_cast<void*>(address);
  return rt::record(result);
}

cudaError_t cudaLibraryGetManaged(void** dptr, size_t* bytes, cudaLibrary_t library,
                                  const char* name) {
  if (cudaError_t error = enter(); error != cudaSuccess) return error;
  CUdeviceptr address = 0;
  CUresult result = cuLibraryGetManaged(dptr != nullptr ? &address : nullptr, bytes,
                                        reinterpret_cast<CUlibrary>(library), name);
  if (result == CUDA_SUCCESS && dptr != nullptr) *dptr = reinterpret_cast<void*>(address);
  return rt::record(result);
}

cudaError_t cudaLibraryGetUnifiedFunction(void** fptr, cudaLibrary_t library, const char* symbol) {
  if (cudaError_t error = enter(); error != cudaSuccess) return error;
  return rt::record(
      cuLibraryGetUnifiedFunction(fptr, reinterpret_cast<CUlibrary>(library), symbol));
}

cudaError_t cudaKernelSetAttributeForDevice(cudaKernel_t kernel, enum cudaFuncAttribute attr,
                                            int value, int device) {
  if (cudaError_t error = enter(); error != cudaSuccess) return error;
  rt::KernelRecord* record = rt::find_kernel(kernel);
  if (record == nullptr) return rt::record(cudaErrorInvalidDeviceFunction);
  // cudaFuncAttribute values are the driver's CUfunction_attribute values.
  const auto attribute = static_cast<CUfunction_attribute>(attr);
  if (record->library_kernel != nullptr) {
    return kernel_result(cuKernelSetAttribute(attribute, value, record->library_kernel, device));
  }
  // A kernel of the program (cudaGetKernel): its function in `device`'s primary context.
  int count = 0;
  CUresult result = cuDeviceGetCount(&count);
  if (result != CUDA_SUCCESS) return rt::record(result);
  if (device < 0 || device >= count) return rt::record(cudaErrorInvalidDevice);
  result = rt::activate_device(device);
  CUfunction function = nullptr;
  if (result == CUDA_SUCCESS) result = rt::kernel_function(record, device, &function);
  if (result == CUDA_SUCCESS) result = cuFuncSetAttribute(function, attribute, value);
  CUresult restored = rt::activate_current_device();
  return rt::record(result != CUDA_SUCCESS ? result : restored);
}

// The kernel handle of a host stub: the runtime's own context-free record, the handle
// __cudaGetKernel gives nvcc's launch stubs (registry.h).
cudaError_t cudaGetKernel(cudaKernel_t* kernelPtr, const void* entryFuncAddr) {
  return __cudaGetKernel(kernelPtr, entryFuncAddr);
}

}  // extern "C"
