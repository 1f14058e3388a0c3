// Device variables by host shadow address: cudaMemcpy{To,From}Symbol(+Async),
// cudaGetSymbolAddress, cudaGetSymbolSize.
#include "base/log.h"
#include "cuda/runtime/api_common.h"
#include "cuda/runtime/memory_copy.h"
#include "cuda/runtime/registry.h"

namespace rt = strata::cuda::runtime;

namespace {

// The device address and size of a registered variable on the current device.
cudaError_t resolve(const void* symbol, CUdeviceptr* address, size_t* size) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  rt::VariableRecord* variable = rt::find_variable(symbol);
  if (variable == nullptr) return rt::record(cudaErrorInvalidSymbol);
  CUmodule module = nullptr;
  CUresult result = rt::fatbin_module(variable->fatbin, rt::current_device(), &module);
  if (result != CUDA_SUCCESS) return rt::record(result);
  result = cuModuleGetGlobal(address, size, module, variable->device_name.c_str());
  if (result == CUDA_ERROR_NOT_FOUND) return rt::record(cudaErrorInvalidSymbol);
  return rt::record(result);
}

}  // namespace

cudaError_t rt::symbol_copy(const void* symbol, void* host_side, size_t count, size_t offset,
                            cudaMemcpyKind kind, bool to_symbol, cudaStream_t stream,
                            bool async) {
  CUdeviceptr base = 0;
  size_t size = 0;
  if (cudaError_t error = resolve(symbol, &base, &size); error != cudaSuccess) return error;
  if (offset > size || count > size - offset) {
    STRATA_LOG_INFO("cudart: symbol copy of {} bytes at offset {} exceeds the {}-byte symbol",
                    count, offset, size);
    return rt::record(cudaErrorInvalidValue);
  }
  const cudaMemcpyKind allowed_device_side = to_symbol ? cudaMemcpyHostToDevice
                                                       : cudaMemcpyDeviceToHost;
  if (kind != allowed_device_side && kind != cudaMemcpyDeviceToDevice &&
      kind != cudaMemcpyDefault) {
    return rt::record(cudaErrorInvalidMemcpyDirection);
  }
  void* device = reinterpret_cast<void*>(base + offset);
  return rt::record(to_symbol ? rt::copy(device, host_side, count, kind, stream, async)
                              : rt::copy(host_side, device, count, kind, stream, async));
}

extern "C" {

cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset,
                               cudaMemcpyKind kind) {
  return rt::symbol_copy(symbol, const_cast<void*>(src), count, offset, kind, /*to_symbol=*/true,
                     nullptr, /*async=*/false);
}

cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset,
                                 cudaMemcpyKind kind) {
  return rt::symbol_copy(symbol, dst, count, offset, kind, /*to_symbol=*/false, nullptr,
                     /*async=*/false);
}

cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count,
                                    size_t offset, cudaMemcpyKind kind, cudaStream_t stream) {
  return rt::symbol_copy(symbol, const_cast<void*>(src), count, offset, kind, /*to_symbol=*/true,
                     stream, /*async=*/true);
}

cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count,
                                      size_t offset, cudaMemcpyKind kind, cudaStream_t stream) {
  return rt::symbol_copy(symbol, dst, count, offset, kind, /*to_symbol=*/false, stream,
                     /*async=*/true);
}

cudaError_t cudaGetSymbolAddress(void** devPtr, const void* symbol) {
  if (devPtr == nullptr) return rt::record(cudaErrorInvalidValue);
  CUdeviceptr address = 0;
  size_t size = 0;
  if (cudaError_t error = resolve(symbol, &address, &size); error != cudaSuccess) return error;
  *devPtr = reinterpret_cast<void*>(address);
  return cudaSuccess;
}

cudaError_t cudaGetSymbolSize(size_t* size, const void* symbol) {
  if (size == nullptr) return rt::record(cudaErrorInvalidValue);
  CUdeviceptr address = 0;
  return resolve(symbol, &address, size);
}

}  // extern "C"
