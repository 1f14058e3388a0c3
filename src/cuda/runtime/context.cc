#include "cuda/runtime/context.h"

#include <atomic>
#include <map>
#include <mutex>

#include "cuda/runtime/thread_state.h"

namespace strata::cuda::runtime {
namespace {

struct DeviceState {
  CUcontext context = nullptr;
  unsigned generation = 0;
  bool have_limits = false;
  DeviceLimits limits;
};

std::mutex g_mutex;
std::map<int, DeviceState>& devices() {
  static auto* states = new std::map<int, DeviceState>();  // outlives atexit handlers
  return *states;
}

CUresult validate_device(int device) {
  CUresult result = init_driver();
  if (result != CUDA_SUCCESS) return result;
  // The device count is fixed once the driver is initialised; asking once keeps the
  // launch path free of the driver call (and its allocation).
  static std::atomic<int> cached_count{-1};
  int count = cached_count.load(std::memory_order_relaxed);
  if (count < 0) {
    result = cuDeviceGetCount(&count);
    if (result != CUDA_SUCCESS) return result;
    cached_count.store(count, std::memory_order_relaxed);
  }
  if (count == 0) return CUDA_ERROR_NO_DEVICE;
  if (device < 0 || device >= count) return CUDA_ERROR_INVALID_DEVICE;
  return CUDA_SUCCESS;
}

}  // namespace

CUresult init_driver() {
  static CUresult result = cuInit(0);
  return result;
}

CUresult activate_device(int device) {
  CUresult result = validate_device(device);
  if (result != CUDA_SUCCESS) return result;
  CUcontext context = nullptr;
  {
    std::lock_guard lock(g_mutex);
    DeviceState& state = devices()[device];
    if (state.context == nullptr) {
      CUdevice handle = 0;
      result = cuDeviceGet(&handle, device);
      if (result != CUDA_SUCCESS) return result;
      result = cuDevicePrimaryCtxRetain(&state.context, handle);
      if (result != CUDA_SUCCESS) {
        state.context = nullptr;
        return result;
      }
    }
    context = state.context;
  }
  CUcontext current = nullptr;
  if (cuCtxGetCurrent(&current) == CUDA_SUCCESS && current == context) return CUDA_SUCCESS;
  return cuCtxSetCurrent(context);
}

CUresult activate_current_device() { return activate_device(current_device()); }

void forget_device_context(int device) {
  std::lock_guard lock(g_mutex);
  DeviceState& state = devices()[device];
  state.context = nullptr;
  ++state.generation;
}

unsigned device_generation(int device) {
  std::lock_guard lock(g_mutex);
  return devices()[device].generation;
}

CUresult device_limits(int device, DeviceLimits* limits) {
  {
    std::lock_guard lock(g_mutex);
    DeviceState& state = devices()[device];
    if (state.have_limits) {
      *limits = state.limits;
      return CUDA_SUCCESS;
    }
  }
  CUresult result = validate_device(device);
  if (result != CUDA_SUCCESS) return result;
  CUdevice handle = 0;
  result = cuDeviceGet(&handle, device);
  if (result != CUDA_SUCCESS) return result;
  DeviceLimits read;
  const struct {
    int* field;
    CUdevice_attribute attribute;
  } fields[] = {
      {&read.max_threads_per_block, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK},
      {&read.max_block[0], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X},
      {&read.max_block[1], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y},
      {&read.max_block[2], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z},
      {&read.max_grid[0], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X},
      {&read.max_grid[1], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y},
      {&read.max_grid[2], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z},
      {&read.max_shared_per_block, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK},
      {&read.max_shared_per_block_optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN},
      {&read.cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR},
      {&read.cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR},
  };
  for (const auto& f : fields) {
    result = cuDeviceGetAttribute(f.field, f.attribute, handle);
    if (result != CUDA_SUCCESS) return result;
  }
  std::lock_guard lock(g_mutex);
  DeviceState& state = devices()[device];
  state.limits = read;
  state.have_limits = true;
  *limits = read;
  return CUDA_SUCCESS;
}

}  // namespace strata::cuda::runtime
