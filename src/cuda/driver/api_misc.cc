// Entry points: device and context queries that need no new driver machinery (PCI bus
// ids, LUID, legacy device properties, atomic capabilities, context ids and the
// context-explicit _v2 forms, function loading state, CUmemLocation-based pool getters,
// occupancy of dynamic shared memory and clusters), settings that are stored but have no
// effect in Strata (core dump attributes, async notifications, persisting L2), and the
// interop families Strata does not have (checkpointing, external memory and semaphores,
// graphics resources), which fail with CUDA's error for an unsupported feature.
#include "cuda/driver/api_misc.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

#include "base/log.h"
#include "cuda/driver/api_util.h"
#include "cuda/driver/device.h"
#include "cuda/driver/device_attributes.h"
#include "cuda/driver/event.h"
#include "cuda/driver/launch_config.h"
#include "cuda/driver/module.h"
#include "cuda/driver/occupancy.h"
#include "cuda/driver/peer.h"
#include "cuda/driver/stream.h"

using namespace strata;
using namespace strata::cuda::driver;

namespace {

StatusOr<int> attribute(CUdevice dev, CUdevice_attribute attr) {
  ASSIGN_OR_RETURN(Device * d, device(dev));
  return device_attribute(d->arch(), d->ordinal(), attr);
}

// The context `ctx` names, or the current one when it is null (the _v2 forms).
StatusOr<std::shared_ptr<Context>> context_or_current(CUcontext ctx) {
  if (ctx == nullptr) return checked_current_context();
  std::shared_ptr<Context> c = handles().contexts.find(ctx);
  if (!c) return error(Code::kInvalidContext, fmt::format("context {} is not live", fmt::ptr(ctx)));
  RETURN_IF_ERROR(c->check());
  return c;
}

Status not_supported(const char* api, const char* what) {
  return error(Code::kNotSupported, fmt::format("{}: {} is not supported by Strata", api, what));
}

// Whether `op` is a valid CUatomicOperation, and the capabilities of a native atomic
// of that kind on sm_80-class hardware (PTX ISA atom/red: .add/.min/.max/.inc/.dec/
// .and/.or/.xor/.exch/.cas on 32- and 64-bit integers, except inc/dec (.u32 only) and
// min/max on .s64/.u64; f32/f64 add; no native float min/max before sm_90).
bool atomic_capabilities(CUatomicOperation op, unsigned int* caps) {
  constexpr unsigned int kInt = CU_ATOMIC_CAPABILITY_SIGNED | CU_ATOMIC_CAPABILITY_UNSIGNED |
                                CU_ATOMIC_CAPABILITY_REDUCTION | CU_ATOMIC_CAPABILITY_SCALAR_32 |
                                CU_ATOMIC_CAPABILITY_SCALAR_64;
  switch (op) {
    case CU_ATOMIC_OPERATION_INTEGER_ADD:
    case CU_ATOMIC_OPERATION_INTEGER_MIN:
    case CU_ATOMIC_OPERATION_INTEGER_MAX:
    case CU_ATOMIC_OPERATION_AND:
    case CU_ATOMIC_OPERATION_OR:
    case CU_ATOMIC_OPERATION_XOR:
      *caps = kInt;
      return true;
    case CU_ATOMIC_OPERATION_INTEGER_INCREMENT:
    case CU_ATOMIC_OPERATION_INTEGER_DECREMENT:
      *caps = CU_ATOMIC_CAPABILITY_UNSIGNED | CU_ATOMIC_CAPABILITY_REDUCTION |
              CU_ATOMIC_CAPABILITY_SCALAR_32;
      return true;
    case CU_ATOMIC_OPERATION_EXCHANGE:
    case CU_ATOMIC_OPERATION_CAS:
      *caps = CU_ATOMIC_CAPABILITY_SCALAR_32 | CU_ATOMIC_CAPABILITY_SCALAR_64;
      return true;
    case CU_ATOMIC_OPERATION_FLOAT_ADD:
      *caps = CU_ATOMIC_CAPABILITY_REDUCTION | CU_ATOMIC_CAPABILITY_SCALAR_32 |
              CU_ATOMIC_CAPABILITY_SCALAR_64;
      return true;
    case CU_ATOMIC_OPERATION_FLOAT_MIN:
    case CU_ATOMIC_OPERATION_FLOAT_MAX:
      *caps = 0;
      return true;
    default:
      return false;
  }
}

Status atomic_capabilities(const char* api, unsigned int* capabilities,
                           const CUatomicOperation* operations, unsigned int count, bool native) {
  if (capabilities == nullptr || operations == nullptr || count == 0) {
    return error(Code::kInvalidValue,
                 fmt::format("{}: capabilities and operations must be non-null, count > 0", api));
  }
  for (unsigned int i = 0; i < count; ++i) {
    unsigned int caps = 0;
    if (!atomic_capabilities(operations[i], &caps)) {
      return error(Code::kInvalidValue, fmt::format("{}: operations[{}] = {} is not a "
                                                    "CUatomicOperation",
                                                    api, i, static_cast<int>(operations[i])));
    }
    capabilities[i] = native ? caps : 0;
  }
  return ok_status();
}

// Ids for contexts (cuCtxGetId): unique over the process, assigned on first query.
struct ContextIds {
  std::mutex mutex;
  std::map<const Context*, std::pair<std::weak_ptr<Context>, unsigned long long>> ids;
  unsigned long long next = 1;
};

ContextIds& context_ids() {
  static ContextIds* ids = new ContextIds;  // leaked: queried during teardown too
  return *ids;
}

unsigned long long context_id(const std::shared_ptr<Context>& ctx) {
  ContextIds& t = context_ids();
  std::lock_guard lock(t.mutex);
  auto it = t.ids.find(ctx.get());
  if (it != t.ids.end() && it->second.first.lock() == ctx) return it->second.second;
  unsigned long long id = t.next++;
  t.ids[ctx.get()] = {ctx, id};
  return id;
}

// Core dump settings (cuCoredump*): stored, process-wide and per context; Strata writes
// no core dumps (a device fault is reported through the API and the log instead).
struct CoredumpSettings {
  bool enable_on_exception = false;
  bool trigger_host = true;
  bool lightweight = false;
  bool enable_user_trigger = false;
  std::string file;
  std::string pipe;
  int generation_flags = 0;
};

struct Coredumps {
  std::mutex mutex;
  CoredumpSettings global;
  std::map<const Context*, std::pair<std::weak_ptr<Context>, CoredumpSettings>> per_context;
};

Coredumps& coredumps() {
  static Coredumps* c = new Coredumps;
  return *c;
}

Status coredump_get(const char* api, const CoredumpSettings& s, CUcoredumpSettings attrib,
                    void* value, size_t* size) {
  if (value == nullptr || size == nullptr) return null_arg(api, "value or size");
  auto put_bool = [&](bool b) -> Status {
    if (*size < sizeof(bool))
      return error(Code::kInvalidValue, fmt::format("{}: size too small", api));
    *static_cast<bool*>(value) = b;
    *size = sizeof(bool);
    return ok_status();
  };
  auto put_string = [&](const std::string& text) -> Status {
    if (*size < text.size() + 1) {
      return error(Code::kInvalidValue, fmt::format("{}: size too small", api));
    }
    std::memcpy(value, text.c_str(), text.size() + 1);
    *size = text.size() + 1;
    return ok_status();
  };
  switch (attrib) {
    case CU_COREDUMP_ENABLE_ON_EXCEPTION:
      return put_bool(s.enable_on_exception);
    case CU_COREDUMP_TRIGGER_HOST:
      return put_bool(s.trigger_host);
    case CU_COREDUMP_LIGHTWEIGHT:
      return put_bool(s.lightweight);
    case CU_COREDUMP_ENABLE_USER_TRIGGER:
      return put_bool(s.enable_user_trigger);
    case CU_COREDUMP_FILE:
      return put_string(s.file);
    case CU_COREDUMP_PIPE:
      return put_string(s.pipe);
    case CU_COREDUMP_GENERATION_FLAGS:
      if (*size < sizeof(int))
        return error(Code::kInvalidValue, fmt::format("{}: size too small", api));
      *static_cast<int*>(value) = s.generation_flags;
      *size = sizeof(int);
      return ok_status();
    default:
      return error(Code::kInvalidValue,
                   fmt::format("{}: unknown attribute {}", api, static_cast<int>(attrib)));
  }
}

Status coredump_set(const char* api, CoredumpSettings& s, CUcoredumpSettings attrib, void* value,
                    size_t* size, bool global) {
  if (value == nullptr || size == nullptr) return null_arg(api, "value or size");
  auto get_bool = [&](bool* b) -> Status {
    if (*size != sizeof(bool))
      return error(Code::kInvalidValue, fmt::format("{}: size must be {}", api, sizeof(bool)));
    *b = *static_cast<const bool*>(value);
    return ok_status();
  };
  switch (attrib) {
    case CU_COREDUMP_ENABLE_ON_EXCEPTION:
      return get_bool(&s.enable_on_exception);
    case CU_COREDUMP_TRIGGER_HOST:
      return get_bool(&s.trigger_host);
    case CU_COREDUMP_LIGHTWEIGHT:
      return get_bool(&s.lightweight);
    case CU_COREDUMP_ENABLE_USER_TRIGGER:
      return get_bool(&s.enable_user_trigger);
    case CU_COREDUMP_FILE:
      s.file.assign(static_cast<const char*>(value),
                    strnlen(static_cast<const char*>(value), *size));
      return ok_status();
    case CU_COREDUMP_PIPE:
      if (!global) {
        return error(Code::kInvalidValue,
                     fmt::format("{}: CU_COREDUMP_PIPE is process-wide only", api));
      }
      s.pipe.assign(static_cast<const char*>(value),
                    strnlen(static_cast<const char*>(value), *size));
      return ok_status();
    case CU_COREDUMP_GENERATION_FLAGS:
      if (*size != sizeof(int))
        return error(Code::kInvalidValue, fmt::format("{}: size must be {}", api, sizeof(int)));
      s.generation_flags = *static_cast<const int*>(value);
      return ok_status();
    default:
      return error(Code::kInvalidValue,
                   fmt::format("{}: unknown attribute {}", api, static_cast<int>(attrib)));
  }
}

// The settings of the current context: the process-wide ones until set per context.
CoredumpSettings& context_coredump(Coredumps& c, const std::shared_ptr<Context>& ctx) {
  auto it = c.per_context.find(ctx.get());
  if (it == c.per_context.end() || it->second.first.lock() != ctx) {
    c.per_context[ctx.get()] = {ctx, c.global};
    it = c.per_context.find(ctx.get());
  }
  return it->second.second;
}

// Async notifications (cuDeviceRegisterAsyncNotification): registered per device, never
// called: Strata raises no async notification (it has no over-budget event).
struct AsyncNotification {
  CUdevice device;
  CUasyncCallback callback;
  void* user_data;
};

struct AsyncNotifications {
  std::mutex mutex;
  std::map<uintptr_t, AsyncNotification> entries;
  uintptr_t next = 1;
};

AsyncNotifications& async_notifications() {
  static AsyncNotifications* n = new AsyncNotifications;
  return *n;
}

// Parses a PCI bus id in one of CUDA's forms: [domain]:[bus]:[device].[function],
// [domain]:[bus]:[device] or [bus]:[device].[function] (hexadecimal).
bool parse_pci_bus_id(const char* text, unsigned* domain, unsigned* bus, unsigned* dev) {
  unsigned a = 0, b = 0, c = 0, f = 0;
  int n = 0;
  if (std::sscanf(text, "%x:%x:%x.%x%n", &a, &b, &c, &f, &n) == 4 && text[n] == '\0') {
    *domain = a, *bus = b, *dev = c;
    return true;
  }
  n = 0;
  if (std::sscanf(text, "%x:%x:%x%n", &a, &b, &c, &n) == 3 && text[n] == '\0') {
    *domain = a, *bus = b, *dev = c;
    return true;
  }
  n = 0;
  if (std::sscanf(text, "%x:%x.%x%n", &b, &c, &f, &n) == 3 && text[n] == '\0') {
    *domain = 0, *bus = b, *dev = c;
    return true;
  }
  return false;
}

}  // namespace

// ---- Devices ----

CUresult CUDAAPI cuDeviceGetPCIBusId(char* pciBusId, int len, CUdevice dev) {
  return api_call("cuDeviceGetPCIBusId", [&]() -> Status {
    if (pciBusId == nullptr) return null_arg("cuDeviceGetPCIBusId", "pciBusId");
    if (len <= 0) return error(Code::kInvalidValue, "cuDeviceGetPCIBusId: len must be positive");
    ASSIGN_OR_RETURN(int domain, attribute(dev, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID));
    ASSIGN_OR_RETURN(int bus, attribute(dev, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID));
    ASSIGN_OR_RETURN(int device_id, attribute(dev, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID));
    // The form nvidia-smi and CUDA print: domain (8 hex digits), bus, device, function 0.
    std::string id = fmt::format("{:08x}:{:02x}:{:02x}.0", domain, bus, device_id);
    size_t count = std::min<size_t>(id.size(), static_cast<size_t>(len) - 1);
    std::memcpy(pciBusId, id.data(), count);
    pciBusId[count] = '\0';
    return ok_status();
  });
}

CUresult CUDAAPI cuDeviceGetByPCIBusId(CUdevice* dev, const char* pciBusId) {
  return api_call("cuDeviceGetByPCIBusId", [&]() -> Status {
    if (dev == nullptr || pciBusId == nullptr)
      return null_arg("cuDeviceGetByPCIBusId", "dev or pciBusId");
    unsigned domain = 0, bus = 0, device_id = 0;
    if (!parse_pci_bus_id(pciBusId, &domain, &bus, &device_id)) {
      return error(Code::kInvalidValue,
                   fmt::format("cuDeviceGetByPCIBusId: '{}' is not a PCI bus id", pciBusId));
    }
    ASSIGN_OR_RETURN(std::vector<Device*> all, devices());
    for (Device* d : all) {
      ASSIGN_OR_RETURN(int dd, attribute(d->ordinal(), CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID));
      ASSIGN_OR_RETURN(int db, attribute(d->ordinal(), CU_DEVICE_ATTRIBUTE_PCI_BUS_ID));
      ASSIGN_OR_RETURN(int dv, attribute(d->ordinal(), CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID));
      if (unsigned(dd) == domain && unsigned(db) == bus && unsigned(dv) == device_id) {
        *dev = d->ordinal();
        return ok_status();
      }
    }
    return error(Code::kInvalidDevice,
                 fmt::format("cuDeviceGetByPCIBusId: no device at PCI bus id '{}'", pciBusId));
  });
}

CUresult CUDAAPI cuDeviceGetTexture1DLinearMaxWidth(size_t* maxWidthInElements,
                                                    CUarray_format format, unsigned numChannels,
                                                    CUdevice dev) {
  return api_call("cuDeviceGetTexture1DLinearMaxWidth", [&]() -> Status {
    if (maxWidthInElements == nullptr) {
      return null_arg("cuDeviceGetTexture1DLinearMaxWidth", "maxWidthInElements");
    }
    if (numChannels != 1 && numChannels != 2 && numChannels != 4) {
      return error(
          Code::kInvalidValue,
          fmt::format("cuDeviceGetTexture1DLinearMaxWidth: {} channels (1, 2 or 4)", numChannels));
    }
    switch (format) {
      case CU_AD_FORMAT_UNSIGNED_INT8:
      case CU_AD_FORMAT_UNSIGNED_INT16:
      case CU_AD_FORMAT_UNSIGNED_INT32:
      case CU_AD_FORMAT_SIGNED_INT8:
      case CU_AD_FORMAT_SIGNED_INT16:
      case CU_AD_FORMAT_SIGNED_INT32:
      case CU_AD_FORMAT_HALF:
      case CU_AD_FORMAT_FLOAT:
        break;
      default:
        return error(Code::kInvalidValue,
                     fmt::format("cuDeviceGetTexture1DLinearMaxWidth: unknown format {:#x}",
                                 static_cast<int>(format)));
    }
    // Strata's texture unit limits linear textures in texels, whatever the element size
    // (texture_object.h), to the device attribute.
    ASSIGN_OR_RETURN(int width, attribute(dev, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH));
    *maxWidthInElements = static_cast<size_t>(width);
    return ok_status();
  });
}

CUresult CUDAAPI cuDeviceGetLuid(char* luid, unsigned int* deviceNodeMask, CUdevice dev) {
  return api_call("cuDeviceGetLuid", [&]() -> Status {
    if (luid == nullptr || deviceNodeMask == nullptr)
      return null_arg("cuDeviceGetLuid", "luid or mask");
    ASSIGN_OR_RETURN(Device * d, device(dev));
    (void)d;
    // A LUID is a Windows (WDDM) notion; CUDA on Linux does not support the query.
    return not_supported("cuDeviceGetLuid", "a device LUID (Windows only)");
  });
}

CUresult CUDAAPI cuDeviceGetProperties(CUdevprop* prop, CUdevice dev) {
  return api_call("cuDeviceGetProperties", [&]() -> Status {
    if (prop == nullptr) return null_arg("cuDeviceGetProperties", "prop");
    const struct {
      int* field;
      CUdevice_attribute attr;
    } fields[] = {
        {&prop->maxThreadsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK},
        {&prop->maxThreadsDim[0], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X},
        {&prop->maxThreadsDim[1], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y},
        {&prop->maxThreadsDim[2], CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z},
        {&prop->maxGridSize[0], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X},
        {&prop->maxGridSize[1], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y},
        {&prop->maxGridSize[2], CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z},
        {&prop->sharedMemPerBlock, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK},
        {&prop->totalConstantMemory, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY},
        {&prop->SIMDWidth, CU_DEVICE_ATTRIBUTE_WARP_SIZE},
        {&prop->memPitch, CU_DEVICE_ATTRIBUTE_MAX_PITCH},
        {&prop->regsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK},
        {&prop->clockRate, CU_DEVICE_ATTRIBUTE_CLOCK_RATE},
        {&prop->textureAlign, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT},
    };
    for (const auto& f : fields) {
      ASSIGN_OR_RETURN(*f.field, attribute(dev, f.attr));
    }
    return ok_status();
  });
}

CUresult CUDAAPI cuDeviceGetHostAtomicCapabilities(unsigned int* capabilities,
                                                   const CUatomicOperation* operations,
                                                   unsigned int count, CUdevice dev) {
  return api_call("cuDeviceGetHostAtomicCapabilities", [&]() -> Status {
    // CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED: device atomics on host memory are
    // not native over Strata's simulated link.
    ASSIGN_OR_RETURN(int native, attribute(dev, CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED));
    return atomic_capabilities("cuDeviceGetHostAtomicCapabilities", capabilities, operations, count,
                               native != 0);
  });
}

CUresult CUDAAPI cuDeviceGetP2PAtomicCapabilities(unsigned int* capabilities,
                                                  const CUatomicOperation* operations,
                                                  unsigned int count, CUdevice srcDevice,
                                                  CUdevice dstDevice) {
  return api_call("cuDeviceGetP2PAtomicCapabilities", [&]() -> Status {
    ASSIGN_OR_RETURN(Device * src, device(srcDevice));
    ASSIGN_OR_RETURN(Device * dst, device(dstDevice));
    if (src == dst) {
      return error(Code::kInvalidDevice,
                   "cuDeviceGetP2PAtomicCapabilities: source and destination are the same device");
    }
    // CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED is 1: peer memory is mapped like
    // local memory and every atomic the device has works on it.
    int native = 0;
    if (CUresult r = cuDeviceGetP2PAttribute(
            &native, CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED, srcDevice, dstDevice);
        r != CUDA_SUCCESS) {
      return error(to_code(r), "cuDeviceGetP2PAtomicCapabilities: P2P attribute query failed");
    }
    return atomic_capabilities("cuDeviceGetP2PAtomicCapabilities", capabilities, operations, count,
                               native != 0);
  });
}

CUresult CUDAAPI cuDeviceRegisterAsyncNotification(CUdevice dev, CUasyncCallback callbackFunc,
                                                   void* userData,
                                                   CUasyncCallbackHandle* callback) {
  return api_call("cuDeviceRegisterAsyncNotification", [&]() -> Status {
    if (callbackFunc == nullptr || callback == nullptr) {
      return null_arg("cuDeviceRegisterAsyncNotification", "callbackFunc or callback");
    }
    ASSIGN_OR_RETURN(Device * d, device(dev));
    AsyncNotifications& n = async_notifications();
    std::lock_guard lock(n.mutex);
    uintptr_t id = n.next++;
    n.entries[id] = {d->ordinal(), callbackFunc, userData};
    *callback = reinterpret_cast<CUasyncCallbackHandle>(id);
    return ok_status();
  });
}

CUresult CUDAAPI cuDeviceUnregisterAsyncNotification(CUdevice dev, CUasyncCallbackHandle callback) {
  return api_call("cuDeviceUnregisterAsyncNotification", [&]() -> Status {
    ASSIGN_OR_RETURN(Device * d, device(dev));
    AsyncNotifications& n = async_notifications();
    std::lock_guard lock(n.mutex);
    auto it = n.entries.find(reinterpret_cast<uintptr_t>(callback));
    if (it == n.entries.end() || it->second.device != d->ordinal()) {
      return error(Code::kInvalidValue,
                   fmt::format("cuDeviceUnregisterAsyncNotification: {} is not registered on "
                               "device {}",
                               fmt::ptr(callback), dev));
    }
    n.entries.erase(it);
    return ok_status();
  });
}

CUresult CUDAAPI cuDeviceGetNvSciSyncAttributes(void* nvSciSyncAttrList, CUdevice dev, int flags) {
  return api_call("cuDeviceGetNvSciSyncAttributes", [&]() -> Status {
    if (nvSciSyncAttrList == nullptr) return null_arg("cuDeviceGetNvSciSyncAttributes", "list");
    ASSIGN_OR_RETURN(Device * d, device(dev));
    (void)d;
    (void)flags;
    return not_supported("cuDeviceGetNvSciSyncAttributes", "NvSciSync interop");
  });
}

// ---- Contexts ----

CUresult CUDAAPI cuCtxGetId(CUcontext ctx, unsigned long long* ctxId) {
  return api_call("cuCtxGetId", [&]() -> Status {
    if (ctxId == nullptr) return null_arg("cuCtxGetId", "ctxId");
    ASSIGN_OR_RETURN(std::shared_ptr<Context> c, context_or_current(ctx));
    *ctxId = context_id(c);
    return ok_status();
  });
}

CUresult CUDAAPI cuCtxGetDevice_v2(CUdevice* dev, CUcontext ctx) {
  return api_call("cuCtxGetDevice_v2", [&]() -> Status {
    if (dev == nullptr) return null_arg("cuCtxGetDevice_v2", "device");
    ASSIGN_OR_RETURN(std::shared_ptr<Context> c, context_or_current(ctx));
    *dev = c->device().ordinal();
    return ok_status();
  });
}

CUresult CUDAAPI cuCtxSynchronize_v2(CUcontext ctx) {
  if (ctx == nullptr) return cuCtxSynchronize();
  return api_call("cuCtxSynchronize_v2", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<Context> c, context_or_current(ctx));
    return c->synchronize();
  });
}

CUresult CUDAAPI cuCtxResetPersistingL2Cache() {
  return api_call("cuCtxResetPersistingL2Cache", [&]() -> Status {
    // Strata's caches keep no persisting lines (access policy windows are stored, not
    // modeled), so there is nothing to reset.
    return checked_current_context().status();
  });
}

CUresult CUDAAPI cuFlushGPUDirectRDMAWrites(CUflushGPUDirectRDMAWritesTarget target,
                                            CUflushGPUDirectRDMAWritesScope scope) {
  return api_call("cuFlushGPUDirectRDMAWrites", [&]() -> Status {
    if (target != CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TARGET_CURRENT_CTX ||
        (scope != CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_OWNER &&
         scope != CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_ALL_DEVICES)) {
      return error(Code::kInvalidValue,
                   fmt::format("cuFlushGPUDirectRDMAWrites: target {} / scope {} invalid",
                               static_cast<int>(target), static_cast<int>(scope)));
    }
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    // CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS is 0: no GPUDirect RDMA.
    return not_supported("cuFlushGPUDirectRDMAWrites", "GPUDirect RDMA");
  });
}

// ---- Functions ----

CUresult CUDAAPI cuFuncIsLoaded(CUfunctionLoadingState* state, CUfunction function) {
  return api_call("cuFuncIsLoaded", [&]() -> Status {
    if (state == nullptr) return null_arg("cuFuncIsLoaded", "state");
    ASSIGN_OR_RETURN(std::shared_ptr<Function> f, live(handles().functions, function, "function"));
    // A module is loaded whole (eager loading): its functions are always loaded.
    *state = CU_FUNCTION_LOADING_STATE_LOADED;
    return ok_status();
  });
}

CUresult CUDAAPI cuFuncLoad(CUfunction function) {
  return api_call("cuFuncLoad", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<Function> f, live(handles().functions, function, "function"));
    return ok_status();
  });
}

// ---- Occupancy ----

CUresult CUDAAPI cuOccupancyAvailableDynamicSMemPerBlock(size_t* dynamicSmemSize, CUfunction func,
                                                         int numBlocks, int blockSize) {
  return api_call("cuOccupancyAvailableDynamicSMemPerBlock", [&]() -> Status {
    if (dynamicSmemSize == nullptr) {
      return null_arg("cuOccupancyAvailableDynamicSMemPerBlock", "dynamicSmemSize");
    }
    ASSIGN_OR_RETURN(std::shared_ptr<Function> f, live(handles().functions, func, "function"));
    if (numBlocks <= 0 || blockSize <= 0) {
      return error(Code::kInvalidValue,
                   fmt::format("cuOccupancyAvailableDynamicSMemPerBlock: numBlocks {} and "
                               "blockSize {} must be positive",
                               numBlocks, blockSize));
    }
    const hw::ArchConfig& arch = f->module().context().device().arch();
    const sxbin::KernelDesc& k = f->desc();
    auto blocks = [&](int64_t dynamic) {
      return max_active_blocks_per_sm(
          arch, {blockSize, k.regs_per_thread, k.shared_bytes, dynamic, k.max_threads_per_block});
    };
    // The most dynamic shared memory with which numBlocks blocks stay resident per SM,
    // capped by what one block may use (the opt-in limit less the static part).
    int64_t hi = std::max<int64_t>(0, arch.shared_bytes_per_block_optin - int64_t{k.shared_bytes});
    if (blocks(0) < numBlocks) {
      *dynamicSmemSize = 0;
      return ok_status();
    }
    int64_t lo = 0;  // blocks(lo) >= numBlocks
    while (lo < hi) {
      int64_t mid = lo + (hi - lo + 1) / 2;
      if (blocks(mid) >= numBlocks)
        lo = mid;
      else
        hi = mid - 1;
    }
    *dynamicSmemSize = static_cast<size_t>(lo);
    return ok_status();
  });
}

CUresult CUDAAPI cuOccupancyMaxActiveClusters(int* numClusters, CUfunction func,
                                              const CUlaunchConfig* config) {
  return api_call("cuOccupancyMaxActiveClusters", [&]() -> Status {
    if (numClusters == nullptr || config == nullptr) {
      return null_arg("cuOccupancyMaxActiveClusters", "numClusters or config");
    }
    ASSIGN_OR_RETURN(std::shared_ptr<Function> f, live(handles().functions, func, "function"));
    // CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH is 0: thread block clusters need sm_90.
    return not_supported("cuOccupancyMaxActiveClusters", "thread block clusters (sm_90)");
  });
}

CUresult CUDAAPI cuOccupancyMaxPotentialClusterSize(int* clusterSize, CUfunction func,
                                                    const CUlaunchConfig* config) {
  return api_call("cuOccupancyMaxPotentialClusterSize", [&]() -> Status {
    if (clusterSize == nullptr || config == nullptr) {
      return null_arg("cuOccupancyMaxPotentialClusterSize", "clusterSize or config");
    }
    ASSIGN_OR_RETURN(std::shared_ptr<Function> f, live(handles().functions, func, "function"));
    return not_supported("cuOccupancyMaxPotentialClusterSize", "thread block clusters (sm_90)");
  });
}

// ---- Memory pools by location (CUDA 13) ----

namespace {

Status pool_location(const char* api, const CUmemLocation* location, CUmemAllocationType type) {
  if (location == nullptr) return null_arg(api, "location");
  if (type != CU_MEM_ALLOCATION_TYPE_PINNED) {
    return error(Code::kInvalidValue,
                 fmt::format("{}: allocation type {} (pinned only)", api, static_cast<int>(type)));
  }
  if (location->type != CU_MEM_LOCATION_TYPE_DEVICE) {
    return error(Code::kNotSupported,
                 fmt::format("{}: location type {}: Strata has device memory pools only", api,
                             static_cast<int>(location->type)));
  }
  return ok_status();
}

}  // namespace

CUresult CUDAAPI cuMemGetDefaultMemPool(CUmemoryPool* pool_out, CUmemLocation* location,
                                        CUmemAllocationType type) {
  CUresult r = api_call("cuMemGetDefaultMemPool", [&]() -> Status {
    if (pool_out == nullptr) return null_arg("cuMemGetDefaultMemPool", "pool_out");
    return pool_location("cuMemGetDefaultMemPool", location, type);
  });
  return r != CUDA_SUCCESS ? r : cuDeviceGetDefaultMemPool(pool_out, location->id);
}

CUresult CUDAAPI cuMemGetMemPool(CUmemoryPool* pool, CUmemLocation* location,
                                 CUmemAllocationType type) {
  CUresult r = api_call("cuMemGetMemPool", [&]() -> Status {
    if (pool == nullptr) return null_arg("cuMemGetMemPool", "pool");
    return pool_location("cuMemGetMemPool", location, type);
  });
  return r != CUDA_SUCCESS ? r : cuDeviceGetMemPool(pool, location->id);
}

CUresult CUDAAPI cuMemSetMemPool(CUmemLocation* location, CUmemAllocationType type,
                                 CUmemoryPool pool) {
  CUresult r = api_call("cuMemSetMemPool", [&]() -> Status {
    return pool_location("cuMemSetMemPool", location, type);
  });
  return r != CUDA_SUCCESS ? r : cuDeviceSetMemPool(location->id, pool);
}

// ---- Core dumps: settings stored, no dumps written ----

CUresult CUDAAPI cuCoredumpGetAttribute(CUcoredumpSettings attrib, void* value, size_t* size) {
  return api_call("cuCoredumpGetAttribute", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    Coredumps& c = coredumps();
    std::lock_guard lock(c.mutex);
    return coredump_get("cuCoredumpGetAttribute", context_coredump(c, ctx), attrib, value, size);
  });
}

CUresult CUDAAPI cuCoredumpSetAttribute(CUcoredumpSettings attrib, void* value, size_t* size) {
  return api_call("cuCoredumpSetAttribute", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    Coredumps& c = coredumps();
    std::lock_guard lock(c.mutex);
    return coredump_set("cuCoredumpSetAttribute", context_coredump(c, ctx), attrib, value, size,
                        false);
  });
}

CUresult CUDAAPI cuCoredumpGetAttributeGlobal(CUcoredumpSettings attrib, void* value,
                                              size_t* size) {
  return api_call("cuCoredumpGetAttributeGlobal", [&]() -> Status {
    Coredumps& c = coredumps();
    std::lock_guard lock(c.mutex);
    return coredump_get("cuCoredumpGetAttributeGlobal", c.global, attrib, value, size);
  });
}

CUresult CUDAAPI cuCoredumpSetAttributeGlobal(CUcoredumpSettings attrib, void* value,
                                              size_t* size) {
  return api_call("cuCoredumpSetAttributeGlobal", [&]() -> Status {
    Coredumps& c = coredumps();
    std::lock_guard lock(c.mutex);
    return coredump_set("cuCoredumpSetAttributeGlobal", c.global, attrib, value, size, true);
  });
}

// ---- Checkpointing: not supported ----

#define STRATA_NOT_SUPPORTED(api, what) \
  return api_call(#api, [&]() -> Status { return not_supported(#api, what); })

CUresult CUDAAPI cuCheckpointProcessGetState(int, CUprocessState*) {
  STRATA_NOT_SUPPORTED(cuCheckpointProcessGetState, "CUDA checkpointing");
}
CUresult CUDAAPI cuCheckpointProcessLock(int, CUcheckpointLockArgs*) {
  STRATA_NOT_SUPPORTED(cuCheckpointProcessLock, "CUDA checkpointing");
}
CUresult CUDAAPI cuCheckpointProcessCheckpoint(int, CUcheckpointCheckpointArgs*) {
  STRATA_NOT_SUPPORTED(cuCheckpointProcessCheckpoint, "CUDA checkpointing");
}
CUresult CUDAAPI cuCheckpointProcessRestore(int, CUcheckpointRestoreArgs*) {
  STRATA_NOT_SUPPORTED(cuCheckpointProcessRestore, "CUDA checkpointing");
}
CUresult CUDAAPI cuCheckpointProcessUnlock(int, CUcheckpointUnlockArgs*) {
  STRATA_NOT_SUPPORTED(cuCheckpointProcessUnlock, "CUDA checkpointing");
}
CUresult CUDAAPI cuCheckpointProcessGetRestoreThreadId(int, int*) {
  STRATA_NOT_SUPPORTED(cuCheckpointProcessGetRestoreThreadId, "CUDA checkpointing");
}

// ---- Multicast objects: the device reports CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED 0 ----

CUresult CUDAAPI cuMulticastCreate(CUmemGenericAllocationHandle*, const CUmulticastObjectProp*) {
  STRATA_NOT_SUPPORTED(cuMulticastCreate, "multicast (MULTICAST_SUPPORTED is 0)");
}
CUresult CUDAAPI cuMulticastAddDevice(CUmemGenericAllocationHandle, CUdevice) {
  STRATA_NOT_SUPPORTED(cuMulticastAddDevice, "multicast (MULTICAST_SUPPORTED is 0)");
}
CUresult CUDAAPI cuMulticastBindMem(CUmemGenericAllocationHandle, size_t,
                                    CUmemGenericAllocationHandle, size_t, size_t,
                                    unsigned long long) {
  STRATA_NOT_SUPPORTED(cuMulticastBindMem, "multicast (MULTICAST_SUPPORTED is 0)");
}
CUresult CUDAAPI cuMulticastBindAddr(CUmemGenericAllocationHandle, size_t, CUdeviceptr, size_t,
                                     unsigned long long) {
  STRATA_NOT_SUPPORTED(cuMulticastBindAddr, "multicast (MULTICAST_SUPPORTED is 0)");
}
CUresult CUDAAPI cuMulticastUnbind(CUmemGenericAllocationHandle, CUdevice, size_t, size_t) {
  STRATA_NOT_SUPPORTED(cuMulticastUnbind, "multicast (MULTICAST_SUPPORTED is 0)");
}
CUresult CUDAAPI cuMulticastGetGranularity(size_t*, const CUmulticastObjectProp*,
                                           CUmulticastGranularity_flags) {
  STRATA_NOT_SUPPORTED(cuMulticastGetGranularity, "multicast (MULTICAST_SUPPORTED is 0)");
}

// ---- im2col tensor maps (sm_90 TMA; Strata's devices have no TMA) ----

CUresult CUDAAPI cuTensorMapEncodeIm2col(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*,
                                         const cuuint64_t*, const cuuint64_t*, const int*,
                                         const int*, cuuint32_t, cuuint32_t, const cuuint32_t*,
                                         CUtensorMapInterleave, CUtensorMapSwizzle,
                                         CUtensorMapL2promotion, CUtensorMapFloatOOBfill) {
  STRATA_NOT_SUPPORTED(cuTensorMapEncodeIm2col, "im2col tensor maps");
}
CUresult CUDAAPI cuTensorMapEncodeIm2colWide(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*,
                                             const cuuint64_t*, const cuuint64_t*, int, int,
                                             cuuint32_t, cuuint32_t, const cuuint32_t*,
                                             CUtensorMapInterleave, CUtensorMapIm2ColWideMode,
                                             CUtensorMapSwizzle, CUtensorMapL2promotion,
                                             CUtensorMapFloatOOBfill) {
  STRATA_NOT_SUPPORTED(cuTensorMapEncodeIm2colWide, "im2col tensor maps");
}

// ---- Context-wide event waits ----

CUresult CUDAAPI cuCtxWaitEvent(CUcontext, CUevent) {
  STRATA_NOT_SUPPORTED(cuCtxWaitEvent, "a context-wide event wait (cuStreamWaitEvent works)");
}

// ---- External memory and semaphores: no handle type can be imported ----

CUresult CUDAAPI cuImportExternalMemory(CUexternalMemory* extMem_out,
                                        const CUDA_EXTERNAL_MEMORY_HANDLE_DESC* memHandleDesc) {
  return api_call("cuImportExternalMemory", [&]() -> Status {
    if (extMem_out == nullptr || memHandleDesc == nullptr) {
      return null_arg("cuImportExternalMemory", "extMem_out or memHandleDesc");
    }
    return not_supported(
        "cuImportExternalMemory",
        fmt::format("external memory (handle type {})", static_cast<int>(memHandleDesc->type))
            .c_str());
  });
}

CUresult CUDAAPI cuImportExternalSemaphore(
    CUexternalSemaphore* extSem_out, const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC* semHandleDesc) {
  return api_call("cuImportExternalSemaphore", [&]() -> Status {
    if (extSem_out == nullptr || semHandleDesc == nullptr) {
      return null_arg("cuImportExternalSemaphore", "extSem_out or semHandleDesc");
    }
    return not_supported(
        "cuImportExternalSemaphore",
        fmt::format("external semaphores (handle type {})", static_cast<int>(semHandleDesc->type))
            .c_str());
  });
}

// No external memory or semaphore is ever imported: every handle is invalid.
#define STRATA_NO_SUCH_HANDLE(api, what, handle)                                               \
  return api_call(#api, [&]() -> Status {                                                      \
    return error(Code::kInvalidHandle,                                                         \
                 fmt::format("{}: {} {} was never imported (Strata imports none)", #api, what, \
                             fmt::ptr(static_cast<const void*>(handle))));                     \
  })

CUresult CUDAAPI cuDestroyExternalMemory(CUexternalMemory extMem) {
  STRATA_NO_SUCH_HANDLE(cuDestroyExternalMemory, "external memory", extMem);
}
CUresult CUDAAPI cuExternalMemoryGetMappedBuffer(CUdeviceptr*, CUexternalMemory extMem,
                                                 const CUDA_EXTERNAL_MEMORY_BUFFER_DESC*) {
  STRATA_NO_SUCH_HANDLE(cuExternalMemoryGetMappedBuffer, "external memory", extMem);
}
CUresult CUDAAPI cuExternalMemoryGetMappedMipmappedArray(
    CUmipmappedArray*, CUexternalMemory extMem, const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC*) {
  STRATA_NO_SUCH_HANDLE(cuExternalMemoryGetMappedMipmappedArray, "external memory", extMem);
}
CUresult CUDAAPI cuDestroyExternalSemaphore(CUexternalSemaphore extSem) {
  STRATA_NO_SUCH_HANDLE(cuDestroyExternalSemaphore, "external semaphore", extSem);
}

// ---- Graphics interop: no resource can be registered (no OpenGL/Vulkan/EGL) ----

CUresult CUDAAPI cuGraphicsUnregisterResource(CUgraphicsResource resource) {
  STRATA_NO_SUCH_HANDLE(cuGraphicsUnregisterResource, "graphics resource", resource);
}
CUresult CUDAAPI cuGraphicsSubResourceGetMappedArray(CUarray*, CUgraphicsResource resource,
                                                     unsigned int, unsigned int) {
  STRATA_NO_SUCH_HANDLE(cuGraphicsSubResourceGetMappedArray, "graphics resource", resource);
}
CUresult CUDAAPI cuGraphicsResourceGetMappedMipmappedArray(CUmipmappedArray*,
                                                           CUgraphicsResource resource) {
  STRATA_NO_SUCH_HANDLE(cuGraphicsResourceGetMappedMipmappedArray, "graphics resource", resource);
}
CUresult CUDAAPI cuGraphicsResourceGetMappedPointer(CUdeviceptr*, size_t*,
                                                    CUgraphicsResource resource) {
  STRATA_NO_SUCH_HANDLE(cuGraphicsResourceGetMappedPointer, "graphics resource", resource);
}
CUresult CUDAAPI cuGraphicsResourceSetMapFlags(CUgraphicsResource resource, unsigned int) {
  STRATA_NO_SUCH_HANDLE(cuGraphicsResourceSetMapFlags, "graphics resource", resource);
}

// ---- Context flags and context-wide events ----

CUresult CUDAAPI cuCtxSetFlags(unsigned int flags) {
  return api_call("cuCtxSetFlags", [&]() -> Status {
    const unsigned int sched = flags & CU_CTX_SCHED_MASK;
    if ((flags & ~static_cast<unsigned int>(CU_CTX_FLAGS_MASK)) != 0 ||
        (sched != CU_CTX_SCHED_AUTO && sched != CU_CTX_SCHED_SPIN && sched != CU_CTX_SCHED_YIELD &&
         sched != CU_CTX_SCHED_BLOCKING_SYNC)) {
      return error(Code::kInvalidValue, fmt::format("cuCtxSetFlags: invalid flags {:#x}", flags));
    }
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    ctx->set_flags(flags);
    return ok_status();
  });
}

// Everything the context's streams have queued so far, captured in the event: a
// private stream waits for all their tails and records the event.
CUresult CUDAAPI cuCtxRecordEvent(CUcontext hCtx, CUevent hEvent) {
  return api_call("cuCtxRecordEvent", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, context_or_current(hCtx));
    ASSIGN_OR_RETURN(std::shared_ptr<Event> e, live(handles().events, hEvent, "event"));
    if (&e->context() != ctx.get()) {
      return error(Code::kInvalidHandle, "cuCtxRecordEvent: the event belongs to another context");
    }
    ASSIGN_OR_RETURN(std::shared_ptr<Stream> s,
                     Stream::create(ctx.get(), Stream::Kind::kUser, CU_STREAM_NON_BLOCKING));
    std::vector<hal::SemaphoreValue> waits = ctx->pending_work();
    if (!waits.empty()) RETURN_IF_ERROR(s->submit(nullptr, waits));
    return e->record(*s);
  });
}

// ---- Pointer attributes that can be set ----

namespace {

// CU_POINTER_ATTRIBUTE_SYNC_MEMOPS per allocation (keyed by the live buffer).
struct SyncMemops {
  std::mutex mutex;
  std::map<const hal::Buffer*, std::weak_ptr<hal::Buffer>> buffers;
};

SyncMemops& sync_memops() {
  static SyncMemops* s = new SyncMemops;
  return *s;
}

}  // namespace

namespace strata::cuda::driver {

bool buffer_sync_memops(const hal::Buffer* buffer) {
  SyncMemops& s = sync_memops();
  std::lock_guard lock(s.mutex);
  auto it = s.buffers.find(buffer);
  return it != s.buffers.end() && !it->second.expired();
}

}  // namespace strata::cuda::driver

CUresult CUDAAPI cuPointerSetAttribute(const void* value, CUpointer_attribute attribute,
                                       CUdeviceptr ptr) {
  return api_call("cuPointerSetAttribute", [&]() -> Status {
    if (value == nullptr) return null_arg("cuPointerSetAttribute", "value");
    if (attribute != CU_POINTER_ATTRIBUTE_SYNC_MEMOPS) {
      return error(Code::kInvalidValue,
                   fmt::format("cuPointerSetAttribute: attribute {} cannot be set (only "
                               "CU_POINTER_ATTRIBUTE_SYNC_MEMOPS)",
                               static_cast<int>(attribute)));
    }
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    std::shared_ptr<hal::Buffer> buffer;
    if (std::optional<OwnedAllocation> owned = find_allocation(ptr)) buffer = owned->buffer;
    if (buffer == nullptr) {
      auto found = ctx->hal().allocator().find(ptr);
      if (found.ok()) buffer = *found;
    }
    if (buffer == nullptr || buffer->kind() != hal::MemoryKind::kDevice) {
      return error(Code::kInvalidValue,
                   fmt::format("cuPointerSetAttribute: {:#x} is not device memory", ptr));
    }
    // Strata's synchronous copies and sets on device memory already complete before they
    // return; the setting is kept so that cuPointerGetAttribute reports it.
    bool on = *static_cast<const bool*>(value);
    SyncMemops& s = sync_memops();
    std::lock_guard lock(s.mutex);
    std::erase_if(s.buffers, [](const auto& e) { return e.second.expired(); });
    if (on) {
      s.buffers[buffer.get()] = buffer;
    } else {
      s.buffers.erase(buffer.get());
    }
    return ok_status();
  });
}
