// Entry points: devices.
#include <cstring>

#include "cuda/driver/api_util.h"
#include "cuda/driver/compute_capability.h"
#include "cuda/driver/device.h"
#include "cuda/driver/device_attributes.h"

using namespace strata;
using namespace strata::cuda::driver;

CUresult CUDAAPI cuDeviceGet(CUdevice* device_out, int ordinal) {
  return api_call("cuDeviceGet", [&]() -> Status {
    if (device_out == nullptr) return null_arg("cuDeviceGet", "device");
    ASSIGN_OR_RETURN(Device * d, device(ordinal));
    *device_out = d->ordinal();
    return ok_status();
  });
}

CUresult CUDAAPI cuDeviceGetCount(int* count) {
  return api_call("cuDeviceGetCount", [&]() -> Status {
    if (count == nullptr) return null_arg("cuDeviceGetCount", "count");
    ASSIGN_OR_RETURN(std::vector<Device*> all, devices());
    *count = static_cast<int>(all.size());
    return ok_status();
  });
}

CUresult CUDAAPI cuDeviceGetName(char* name, int len, CUdevice dev) {
  return api_call("cuDeviceGetName", [&]() -> Status {
    if (name == nullptr) return null_arg("cuDeviceGetName", "name");
    if (len <= 0) return error(Code::kInvalidValue, "cuDeviceGetName: len must be positive");
    ASSIGN_OR_RETURN(Device * d, device(dev));
    const std::string& n = d->arch().name;
    size_t count = std::min<size_t>(n.size(), static_cast<size_t>(len) - 1);
    std::memcpy(name, n.data(), count);
    name[count] = '\0';
    return ok_status();
  });
}

CUresult CUDAAPI cuDeviceGetAttribute(int* pi, CUdevice_attribute attrib, CUdevice dev) {
  return api_call("cuDeviceGetAttribute", [&]() -> Status {
    if (pi == nullptr) return null_arg("cuDeviceGetAttribute", "pi");
    ASSIGN_OR_RETURN(Device * d, device(dev));
    ASSIGN_OR_RETURN(*pi, device_attribute(d->arch(), d->ordinal(), attrib));
    return ok_status();
  });
}

CUresult CUDAAPI cuDeviceTotalMem(size_t* bytes, CUdevice dev) {
  return api_call("cuDeviceTotalMem", [&]() -> Status {
    if (bytes == nullptr) return null_arg("cuDeviceTotalMem", "bytes");
    ASSIGN_OR_RETURN(Device * d, device(dev));
    *bytes = d->total_memory();
    return ok_status();
  });
}

CUresult CUDAAPI cuDeviceGetUuid(CUuuid* uuid, CUdevice dev) {
  return api_call("cuDeviceGetUuid", [&]() -> Status {
    if (uuid == nullptr) return null_arg("cuDeviceGetUuid", "uuid");
    ASSIGN_OR_RETURN(Device * d, device(dev));
    *uuid = d->uuid();
    return ok_status();
  });
}

CUresult CUDAAPI cuDeviceComputeCapability(int* major, int* minor, CUdevice dev) {
  return api_call("cuDeviceComputeCapability", [&]() -> Status {
    if (major == nullptr || minor == nullptr) {
      return null_arg("cuDeviceComputeCapability", "major or minor");
    }
    ASSIGN_OR_RETURN(Device * d, device(dev));
    ComputeCapability cc = reported_compute_capability(d->arch());
    *major = cc.major;
    *minor = cc.minor;
    return ok_status();
  });
}
