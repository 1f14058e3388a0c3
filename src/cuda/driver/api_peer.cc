// Entry points: peer access between devices (cuDeviceCanAccessPeer,
// cuDeviceGetP2PAttribute, cuCtxEnablePeerAccess, cuCtxDisablePeerAccess). The peer
// copies (cuMemcpyPeer*) are stream-ordered: api_peer_ops.inc. Model: peer.h.
#include "cuda/driver/api_util.h"
#include "cuda/driver/device.h"
#include "cuda/driver/peer.h"

using namespace strata;
using namespace strata::cuda::driver;

namespace {

// Both devices valid (kInvalidDevice otherwise).
Status check_devices(CUdevice a, CUdevice b) {
  RETURN_IF_ERROR(device(a).status());
  return device(b).status();
}

StatusOr<std::shared_ptr<Context>> peer_context(CUcontext handle, const char* api) {
  std::shared_ptr<Context> peer = handles().contexts.find(handle);
  if (peer == nullptr) {
    return error(Code::kInvalidContext,
                 fmt::format("{}: {} is not a valid context", api, fmt::ptr(handle)));
  }
  return peer;
}

}  // namespace

CUresult CUDAAPI cuDeviceCanAccessPeer(int* canAccessPeer, CUdevice dev, CUdevice peerDev) {
  return api_call("cuDeviceCanAccessPeer", [&]() -> Status {
    RETURN_IF_ERROR(check_devices(dev, peerDev));
    if (canAccessPeer == nullptr) return null_arg("cuDeviceCanAccessPeer", "canAccessPeer");
    *canAccessPeer = devices_can_access_peer(dev, peerDev) ? 1 : 0;
    return ok_status();
  });
}

CUresult CUDAAPI cuDeviceGetP2PAttribute(int* value, CUdevice_P2PAttribute attrib,
                                         CUdevice srcDevice, CUdevice dstDevice) {
  return api_call("cuDeviceGetP2PAttribute", [&]() -> Status {
    RETURN_IF_ERROR(check_devices(srcDevice, dstDevice));
    if (srcDevice == dstDevice) {
      return error(Code::kInvalidDevice,
                   fmt::format("cuDeviceGetP2PAttribute: source and destination are both "
                               "device {}",
                               srcDevice));
    }
    if (value == nullptr) return null_arg("cuDeviceGetP2PAttribute", "value");
    switch (attrib) {
      case CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK:
        *value = 0;  // one simulated bus: every link is alike
        return ok_status();
      case CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED:
        *value = devices_can_access_peer(srcDevice, dstDevice) ? 1 : 0;
        return ok_status();
      case CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED:
        // Peer memory is mapped like local memory: every atomic works on it.
        *value = 1;
        return ok_status();
      case CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED:
      case CU_DEVICE_P2P_ATTRIBUTE_ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED:
        *value = 0;  // arrays are not mapped for peers
        return ok_status();
    }
    return error(Code::kInvalidValue, fmt::format("cuDeviceGetP2PAttribute: unknown attribute {}",
                                                  static_cast<int>(attrib)));
  });
}

CUresult CUDAAPI cuCtxEnablePeerAccess(CUcontext peerContext, unsigned int Flags) {
  return api_call("cuCtxEnablePeerAccess", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<Context> self, checked_current_context());
    ASSIGN_OR_RETURN(std::shared_ptr<Context> peer,
                     peer_context(peerContext, "cuCtxEnablePeerAccess"));
    if (Flags != 0) {
      return error(Code::kInvalidValue,
                   fmt::format("cuCtxEnablePeerAccess: Flags {:#x} must be 0", Flags));
    }
    return enable_peer_access(*self, *peer);
  });
}

CUresult CUDAAPI cuCtxDisablePeerAccess(CUcontext peerContext) {
  return api_call("cuCtxDisablePeerAccess", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<Context> self, checked_current_context());
    ASSIGN_OR_RETURN(std::shared_ptr<Context> peer,
                     peer_context(peerContext, "cuCtxDisablePeerAccess"));
    return disable_peer_access(*self, *peer);
  });
}
