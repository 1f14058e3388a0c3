// Peer access between devices: cudaDeviceCanAccessPeer, cudaDeviceEnablePeerAccess,
// cudaDeviceDisablePeerAccess, cudaDeviceGetP2PAttribute, cudaMemcpyPeer(Async). The
// runtime's devices are their primary contexts; the driver does the work
// (cuda/driver/peer.h).
#include "cuda/runtime/api_common.h"

namespace rt = strata::cuda::runtime;

namespace {

// Ordinal check without creating a context.
cudaError_t check_device(int device) {
  CUresult result = rt::init_driver();
  if (result != CUDA_SUCCESS) return rt::record(result);
  int count = 0;
  result = cuDeviceGetCount(&count);
  if (result != CUDA_SUCCESS) return rt::record(result);
  if (count == 0) return rt::record(cudaErrorNoDevice);
  if (device < 0 || device >= count) return rt::record(cudaErrorInvalidDevice);
  return cudaSuccess;
}

// The primary context of `device` (activated for the runtime as usual); the current
// device's context is current again afterwards.
cudaError_t primary_context(int device, CUcontext* ctx) {
  CUresult result = rt::activate_device(device);
  if (result == CUDA_SUCCESS) result = cuCtxGetCurrent(ctx);
  CUresult back = rt::activate_current_device();
  if (result == CUDA_SUCCESS) result = back;
  return result == CUDA_SUCCESS ? cudaSuccess : rt::record(result);
}

// Shared prologue of cudaDeviceEnable/DisablePeerAccess: the peer's context.
cudaError_t peer_of_current(int peer_device, CUcontext* peer) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  if (cudaError_t error = check_device(peer_device); error != cudaSuccess) return error;
  if (peer_device == rt::current_device()) return rt::record(cudaErrorInvalidDevice);
  return primary_context(peer_device, peer);
}

}  // namespace

extern "C" {

cudaError_t cudaDeviceCanAccessPeer(int* canAccessPeer, int device, int peerDevice) {
  if (canAccessPeer == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = check_device(device); error != cudaSuccess) return error;
  if (cudaError_t error = check_device(peerDevice); error != cudaSuccess) return error;
  return rt::record(cuDeviceCanAccessPeer(canAccessPeer, device, peerDevice));
}

cudaError_t cudaDeviceGetP2PAttribute(int* value, cudaDeviceP2PAttr attr, int srcDevice,
                                      int dstDevice) {
  if (value == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = check_device(srcDevice); error != cudaSuccess) return error;
  if (cudaError_t error = check_device(dstDevice); error != cudaSuccess) return error;
  // cudaDeviceP2PAttr and CUdevice_P2PAttribute share their values.
  return rt::record(cuDeviceGetP2PAttribute(value, static_cast<CUdevice_P2PAttribute>(attr),
                                            srcDevice, dstDevice));
}

cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags) {
  CUcontext peer = nullptr;
  if (cudaError_t error = peer_of_current(peerDevice, &peer); error != cudaSuccess) return error;
  if (flags != 0) return rt::record(cudaErrorInvalidValue);
  return rt::record(cuCtxEnablePeerAccess(peer, 0));
}

cudaError_t cudaDeviceDisablePeerAccess(int peerDevice) {
  CUcontext peer = nullptr;
  if (cudaError_t error = peer_of_current(peerDevice, &peer); error != cudaSuccess) return error;
  return rt::record(cuCtxDisablePeerAccess(peer));
}

cudaError_t cudaMemcpyPeer(void* dst, int dstDevice, const void* src, int srcDevice, size_t count) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  if (cudaError_t error = check_device(dstDevice); error != cudaSuccess) return error;
  if (cudaError_t error = check_device(srcDevice); error != cudaSuccess) return error;
  if (count == 0) return cudaSuccess;
  if (dst == nullptr || src == nullptr) return rt::record(cudaErrorInvalidValue);
  CUcontext dst_ctx = nullptr;
  CUcontext src_ctx = nullptr;
  if (cudaError_t error = primary_context(dstDevice, &dst_ctx); error != cudaSuccess) return error;
  if (cudaError_t error = primary_context(srcDevice, &src_ctx); error != cudaSuccess) return error;
  return rt::record(cuMemcpyPeer(reinterpret_cast<CUdeviceptr>(dst), dst_ctx,
                                 reinterpret_cast<CUdeviceptr>(src), src_ctx, count));
}

cudaError_t cudaMemcpyPeerAsync(void* dst, int dstDevice, const void* src, int srcDevice,
                                size_t count, cudaStream_t stream) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  if (cudaError_t error = check_device(dstDevice); error != cudaSuccess) return error;
  if (cudaError_t error = check_device(srcDevice); error != cudaSuccess) return error;
  if (count == 0) return cudaSuccess;
  if (dst == nullptr || src == nullptr) return rt::record(cudaErrorInvalidValue);
  CUcontext dst_ctx = nullptr;
  CUcontext src_ctx = nullptr;
  if (cudaError_t error = primary_context(dstDevice, &dst_ctx); error != cudaSuccess) return error;
  if (cudaError_t error = primary_context(srcDevice, &src_ctx); error != cudaSuccess) return error;
  return rt::record(cuMemcpyPeerAsync(reinterpret_cast<CUdeviceptr>(dst), dst_ctx,
                                      reinterpret_cast<CUdeviceptr>(src), src_ctx, count, stream));
}

}  // extern "C"
