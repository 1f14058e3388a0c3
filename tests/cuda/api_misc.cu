// Device, context and stream queries outside the main families, against the CUDA
// Runtime/Driver API documentation: cudaChooseDevice, PCI bus ids (consistent with
// cudaDeviceProp and cuDeviceGetAttribute), 1D linear texture width, driver entry points
// (by version), export tables, cudaInitDevice, cudaSetValidDevices, stream attributes
// (stored per stream, copied, validated) and cudaStreamGetDevice, dynamic shared memory
// available for an occupancy (host Occupancy Calculator reference), cluster occupancy
// without clusters, CUmemLocation-based pool getters, persisting L2 reset, GPUDirect RDMA
// flushes, async notifications, atomic capabilities, the error log (cudaLogs*) and the
// interop families Strata does not support; plus the driver forms (_v2 context calls,
// cuCtxGetId, cuDeviceGetLuid/Properties, cuFuncIsLoaded, core dump settings,
// checkpointing).
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "test_check.h"

#define CHECK_CU(call)                                                                    \
  do {                                                                                    \
    CUresult check_cu_result_ = (call);                                                   \
    if (check_cu_result_ != CUDA_SUCCESS) {                                               \
      std::printf("FAIL %s:%d: %s -> %d\n", __FILE__, __LINE__, #call, check_cu_result_); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

#define EXPECT_ERROR(call, expected)                                          \
  do {                                                                        \
    cudaError_t expect_error_ = (call);                                       \
    EXPECT_TRUE(expect_error_ == (expected), "%s: got %s, want %s", #call,    \
                cudaGetErrorName(expect_error_), cudaGetErrorName(expected)); \
    (void)cudaGetLastError();                                                 \
  } while (0)

#define EXPECT_CU(call, expected)                                          \
  do {                                                                     \
    CUresult expect_cu_ = (call);                                          \
    EXPECT_TRUE(expect_cu_ == (expected), "%s: got %d, want %d", #call,    \
                static_cast<int>(expect_cu_), static_cast<int>(expected)); \
  } while (0)

__global__ void light(float* x) {
  x[blockIdx.x * blockDim.x + threadIdx.x] += 1.0f;
}

__global__ void static_shared(float* x) {
  __shared__ float tile[4096];  // 16 KiB
  tile[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
}

static long round_up(long v, long unit) {
  return (v + unit - 1) / unit * unit;
}

// The CUDA Occupancy Calculator's blocks per SM (CC >= 7.0).
static int host_occupancy(const cudaDeviceProp& p, const cudaFuncAttributes& a, int block,
                          size_t dyn) {
  long warps = (block + p.warpSize - 1) / p.warpSize;
  long blocks = std::min<long>(p.maxBlocksPerMultiProcessor,
                               p.maxThreadsPerMultiProcessor / p.warpSize / warps);
  if (a.numRegs > 0) {
    long per_warp = round_up(long(a.numRegs) * p.warpSize, 256);
    if (per_warp * warps > p.regsPerBlock) return 0;
    blocks = std::min(blocks, p.regsPerMultiprocessor / per_warp / warps);
  }
  long shared = long(a.sharedSizeBytes) + long(dyn);
  if (shared > long(p.sharedMemPerBlockOptin)) return 0;
  long per_block = round_up(shared + long(p.reservedSharedMemPerBlock), 128);
  return int(std::min(blocks, long(p.sharedMemPerMultiprocessor) / per_block));
}

// The most dynamic shared memory with which `num_blocks` blocks fit per SM.
static size_t host_available_dynamic(const cudaDeviceProp& p, const cudaFuncAttributes& a,
                                     int num_blocks, int block) {
  size_t best = 0;
  size_t limit = p.sharedMemPerBlockOptin - a.sharedSizeBytes;
  for (size_t d = 0; d <= limit; ++d) {
    if (host_occupancy(p, a, block, d) >= num_blocks) best = d;
  }
  return best;
}

static std::string logged;
static void CUDART_CB on_log(void* data, cudaLogLevel level, char* message, size_t length) {
  ++*static_cast<int*>(data);
  EXPECT_TRUE(level == cudaLogLevelError, "log level %d", int(level));
  logged.assign(message, length);
}

static void CUDART_CB on_async(cudaAsyncNotificationInfo_t*, void*, cudaAsyncCallbackHandle_t) {}

static void check_devices_and_pci(int count) {
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop;
    CHECK_CUDA(cudaGetDeviceProperties(&prop, d));
    char id[64];
    CHECK_CUDA(cudaDeviceGetPCIBusId(id, sizeof id, d));
    unsigned domain = 0, bus = 0, dev = 0, fn = 0;
    EXPECT_TRUE(std::sscanf(id, "%x:%x:%x.%x", &domain, &bus, &dev, &fn) == 4, "id '%s'", id);
    EXPECT_TRUE(int(domain) == prop.pciDomainID && int(bus) == prop.pciBusID &&
                    int(dev) == prop.pciDeviceID && fn == 0,
                "id '%s' vs prop %d:%d:%d", id, prop.pciDomainID, prop.pciBusID, prop.pciDeviceID);
    int attr_bus = -1;
    CHECK_CU(cuDeviceGetAttribute(&attr_bus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, d));
    EXPECT_TRUE(attr_bus == prop.pciBusID, "bus %d vs %d", attr_bus, prop.pciBusID);
    int back = -1;
    CHECK_CUDA(cudaDeviceGetByPCIBusId(&back, id));
    EXPECT_TRUE(back == d, "%s -> %d, want %d", id, back, d);
    // The short forms: [domain]:[bus]:[device] and [bus]:[device].[function].
    char shorter[64];
    std::snprintf(shorter, sizeof shorter, "%x:%x.0", bus, dev);
    CHECK_CUDA(cudaDeviceGetByPCIBusId(&back, shorter));
    EXPECT_TRUE(back == d, "%s -> %d", shorter, back);
    std::snprintf(shorter, sizeof shorter, "%04x:%02x:%02x", domain, bus, dev);
    CHECK_CUDA(cudaDeviceGetByPCIBusId(&back, shorter));
    EXPECT_TRUE(back == d, "%s -> %d", shorter, back);
    // The driver form truncates to len - 1 characters.
    char small[5];
    CHECK_CU(cuDeviceGetPCIBusId(small, sizeof small, d));
    EXPECT_TRUE(std::strlen(small) == 4 && std::strncmp(small, id, 4) == 0, "'%s'", small);

    // cuDeviceGetProperties (deprecated, still exported) against cudaDeviceProp.
    CUdevprop dp;
    CHECK_CU(cuDeviceGetProperties(&dp, d));
    EXPECT_TRUE(dp.maxThreadsPerBlock == prop.maxThreadsPerBlock && dp.SIMDWidth == prop.warpSize &&
                    dp.maxGridSize[0] == prop.maxGridSize[0] &&
                    dp.maxThreadsDim[2] == prop.maxThreadsDim[2] &&
                    dp.regsPerBlock == prop.regsPerBlock &&
                    size_t(dp.sharedMemPerBlock) == prop.sharedMemPerBlock &&
                    size_t(dp.textureAlign) == prop.textureAlignment,
                "cuDeviceGetProperties differs from cudaDeviceProp");

    // The 1D linear texture width is the device limit in elements.
    size_t width = 0;
    cudaChannelFormatDesc f4 = cudaCreateChannelDesc<float4>();
    CHECK_CUDA(cudaDeviceGetTexture1DLinearMaxWidth(&width, &f4, d));
    int linear = 0;
    CHECK_CUDA(cudaDeviceGetAttribute(&linear, cudaDevAttrMaxTexture1DLinearWidth, d));
    EXPECT_TRUE(width == size_t(linear), "width %zu vs %d", width, linear);
  }
  EXPECT_ERROR(cudaDeviceGetByPCIBusId(nullptr, "0000:01:00.0"), cudaErrorInvalidValue);
  int dev = -1;
  EXPECT_ERROR(cudaDeviceGetByPCIBusId(&dev, "not a bus id"), cudaErrorInvalidValue);
  EXPECT_ERROR(cudaDeviceGetByPCIBusId(&dev, "ffff:ff:1f.0"), cudaErrorInvalidValue);
  char id[16];
  EXPECT_ERROR(cudaDeviceGetPCIBusId(id, sizeof id, count), cudaErrorInvalidDevice);

  // cudaChooseDevice: the device matching the requested compute capability.
  cudaDeviceProp want;
  std::memset(&want, 0, sizeof want);
  cudaDeviceProp p0;
  CHECK_CUDA(cudaGetDeviceProperties(&p0, 0));
  want.major = p0.major;
  want.minor = p0.minor;
  int chosen = -1;
  CHECK_CUDA(cudaChooseDevice(&chosen, &want));
  EXPECT_TRUE(chosen == 0, "chose %d", chosen);
  EXPECT_ERROR(cudaChooseDevice(&chosen, nullptr), cudaErrorInvalidValue);

  // cudaInitDevice and cudaSetValidDevices.
  CHECK_CUDA(cudaInitDevice(0, 0, 0));
  CHECK_CUDA(cudaInitDevice(count - 1, cudaDeviceScheduleAuto, cudaInitDeviceFlagsAreValid));
  EXPECT_ERROR(cudaInitDevice(count, 0, 0), cudaErrorInvalidDevice);
  EXPECT_ERROR(cudaInitDevice(0, 0, 2), cudaErrorInvalidValue);
  int valid[1] = {0};
  CHECK_CUDA(cudaSetValidDevices(valid, 1));
  int bad[1] = {count};
  EXPECT_ERROR(cudaSetValidDevices(bad, 1), cudaErrorInvalidDevice);
  int current = -1;
  CHECK_CUDA(cudaGetDevice(&current));
  EXPECT_TRUE(current == 0, "current device %d", current);
}

static void check_entry_points() {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
  CHECK_CUDA(
      cudaGetDriverEntryPointByVersion("cuDeviceGetCount", &fn, 12000, cudaEnableDefault, &status));
  EXPECT_TRUE(status == cudaDriverEntryPointSuccess && fn != nullptr, "status %d", int(status));
  int n = 0, m = 0;
  EXPECT_TRUE(reinterpret_cast<CUresult (*)(int*)>(fn)(&n) == CUDA_SUCCESS, "call failed");
  CHECK_CUDA(cudaGetDeviceCount(&m));
  EXPECT_TRUE(n == m, "count %d vs %d", n, m);
  // The deprecated unversioned form uses CUDART_VERSION.
  void* fn2 = nullptr;
  CHECK_CUDA(cudaGetDriverEntryPoint("cuDeviceGetCount", &fn2, cudaEnableDefault, &status));
  EXPECT_TRUE(fn2 == fn, "entry points differ");
  // Unknown symbols and versions that predate a symbol: success, with the status.
  CHECK_CUDA(
      cudaGetDriverEntryPointByVersion("cuNoSuchFunction", &fn, 13000, cudaEnableDefault, &status));
  EXPECT_TRUE(status == cudaDriverEntryPointSymbolNotFound && fn == nullptr, "status %d",
              int(status));
  CHECK_CUDA(cudaGetDriverEntryPointByVersion("cuStreamGetDevice", &fn, 12000, cudaEnableDefault,
                                              &status));
  EXPECT_TRUE(status == cudaDriverEntryPointVersionNotSufficent && fn == nullptr, "status %d",
              int(status));
  EXPECT_ERROR(cudaGetDriverEntryPointByVersion(nullptr, &fn, 13000, 0, &status),
               cudaErrorInvalidValue);
  EXPECT_ERROR(cudaGetDriverEntryPointByVersion("cuInit", &fn, 13000, 4, &status),
               cudaErrorInvalidValue);
  // A name whose signature changed resolves by version: cuCtxSynchronize (2.0) and
  // cuCtxSynchronize_v2 (13.0, takes the context).
  void* old_sync = nullptr;
  void* new_sync = nullptr;
  CHECK_CUDA(cudaGetDriverEntryPointByVersion("cuCtxSynchronize", &old_sync, 12000, 0, &status));
  CHECK_CUDA(cudaGetDriverEntryPointByVersion("cuCtxSynchronize", &new_sync, 13000, 0, &status));
  EXPECT_TRUE(old_sync != nullptr && new_sync != nullptr && old_sync != new_sync,
              "cuCtxSynchronize by version");
  EXPECT_TRUE(reinterpret_cast<CUresult (*)(CUcontext)>(new_sync)(nullptr) == CUDA_SUCCESS,
              "cuCtxSynchronize_v2(NULL)");

  // Export tables are NVIDIA-internal: Strata has none to give.
  const void* table = nullptr;
  cudaUUID_t uuid;
  std::memset(&uuid, 0, sizeof uuid);
  EXPECT_ERROR(cudaGetExportTable(&table, &uuid), cudaErrorNotSupported);
  EXPECT_ERROR(cudaGetExportTable(nullptr, &uuid), cudaErrorInvalidValue);
}

static void check_stream_attributes() {
  cudaStream_t s1, s2;
  CHECK_CUDA(cudaStreamCreate(&s1));
  CHECK_CUDA(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  int device = -1;
  CHECK_CUDA(cudaStreamGetDevice(s1, &device));
  EXPECT_TRUE(device == 0, "stream device %d", device);
  CHECK_CUDA(cudaStreamGetDevice(nullptr, &device));
  EXPECT_TRUE(device == 0, "null stream device %d", device);
  EXPECT_ERROR(cudaStreamGetDevice(s1, nullptr), cudaErrorInvalidValue);

  // Defaults of a new stream.
  cudaStreamAttrValue v;
  CHECK_CUDA(cudaStreamGetAttribute(s1, cudaStreamAttributeSynchronizationPolicy, &v));
  EXPECT_TRUE(v.syncPolicy == cudaSyncPolicyAuto, "default sync policy %d", int(v.syncPolicy));
  CHECK_CUDA(cudaStreamGetAttribute(s1, cudaStreamAttributeAccessPolicyWindow, &v));
  EXPECT_TRUE(v.accessPolicyWindow.base_ptr == nullptr && v.accessPolicyWindow.num_bytes == 0,
              "default window");
  CHECK_CUDA(cudaStreamGetAttribute(s1, cudaStreamAttributeMemSyncDomain, &v));
  EXPECT_TRUE(v.memSyncDomain == cudaLaunchMemSyncDomainDefault, "default domain");
  int priority = 1;
  CHECK_CUDA(cudaStreamGetPriority(s1, &priority));
  CHECK_CUDA(cudaStreamGetAttribute(s1, cudaStreamAttributePriority, &v));
  EXPECT_TRUE(v.priority == priority, "priority %d vs %d", v.priority, priority);

  // Set, get back, copy to another stream.
  std::memset(&v, 0, sizeof v);
  v.syncPolicy = cudaSyncPolicyBlockingSync;
  CHECK_CUDA(cudaStreamSetAttribute(s1, cudaStreamAttributeSynchronizationPolicy, &v));
  std::memset(&v, 0, sizeof v);
  v.memSyncDomain = cudaLaunchMemSyncDomainRemote;
  CHECK_CUDA(cudaStreamSetAttribute(s1, cudaStreamAttributeMemSyncDomain, &v));
  std::memset(&v, 0, sizeof v);
  v.memSyncDomainMap.default_ = 0;
  v.memSyncDomainMap.remote = 0;
  CHECK_CUDA(cudaStreamSetAttribute(s1, cudaStreamAttributeMemSyncDomainMap, &v));
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  float* buf = nullptr;
  CHECK_CUDA(cudaMalloc(&buf, 1 << 20));
  std::memset(&v, 0, sizeof v);
  v.accessPolicyWindow.base_ptr = buf;
  v.accessPolicyWindow.num_bytes = std::min<size_t>(1 << 20, prop.accessPolicyMaxWindowSize);
  v.accessPolicyWindow.hitRatio = 0.5f;
  v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  CHECK_CUDA(cudaStreamSetAttribute(s1, cudaStreamAttributeAccessPolicyWindow, &v));
  CHECK_CUDA(cudaStreamGetAttribute(s1, cudaStreamAttributeAccessPolicyWindow, &v));
  EXPECT_TRUE(v.accessPolicyWindow.base_ptr == buf && v.accessPolicyWindow.hitRatio == 0.5f &&
                  v.accessPolicyWindow.hitProp == cudaAccessPropertyPersisting &&
                  v.accessPolicyWindow.missProp == cudaAccessPropertyStreaming,
              "window not stored");
  // Invalid windows: beyond the device's maximum, a hit ratio above 1, a persisting miss.
  cudaStreamAttrValue badw = v;
  badw.accessPolicyWindow.num_bytes = size_t(prop.accessPolicyMaxWindowSize) + 1;
  EXPECT_ERROR(cudaStreamSetAttribute(s1, cudaStreamAttributeAccessPolicyWindow, &badw),
               cudaErrorInvalidValue);
  badw = v;
  badw.accessPolicyWindow.hitRatio = 1.5f;
  EXPECT_ERROR(cudaStreamSetAttribute(s1, cudaStreamAttributeAccessPolicyWindow, &badw),
               cudaErrorInvalidValue);
  badw = v;
  badw.accessPolicyWindow.missProp = cudaAccessPropertyPersisting;
  EXPECT_ERROR(cudaStreamSetAttribute(s1, cudaStreamAttributeAccessPolicyWindow, &badw),
               cudaErrorInvalidValue);
  // Not a stream attribute.
  EXPECT_ERROR(cudaStreamSetAttribute(s1, cudaLaunchAttributeCooperative, &v),
               cudaErrorInvalidValue);
  EXPECT_ERROR(cudaStreamGetAttribute(s1, cudaStreamAttributeSynchronizationPolicy, nullptr),
               cudaErrorInvalidValue);

  CHECK_CUDA(cudaStreamCopyAttributes(s2, s1));
  CHECK_CUDA(cudaStreamGetAttribute(s2, cudaStreamAttributeSynchronizationPolicy, &v));
  EXPECT_TRUE(v.syncPolicy == cudaSyncPolicyBlockingSync, "copied policy %d", int(v.syncPolicy));
  CHECK_CUDA(cudaStreamGetAttribute(s2, cudaStreamAttributeMemSyncDomain, &v));
  EXPECT_TRUE(v.memSyncDomain == cudaLaunchMemSyncDomainRemote, "copied domain");
  CHECK_CUDA(cudaStreamGetAttribute(s2, cudaStreamAttributeMemSyncDomainMap, &v));
  EXPECT_TRUE(v.memSyncDomainMap.remote == 0, "copied domain map");
  CHECK_CUDA(cudaStreamGetAttribute(s2, cudaStreamAttributeAccessPolicyWindow, &v));
  EXPECT_TRUE(v.accessPolicyWindow.base_ptr == buf, "copied window");

  // Work still runs on a stream with attributes; persisting lines can be reset.
  light<<<1, 32, 0, s1>>>(buf);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaStreamSynchronize(s1));
  CHECK_CUDA(cudaCtxResetPersistingL2Cache());

  // A destroyed stream's settings do not reach a new stream.
  CHECK_CUDA(cudaStreamDestroy(s2));
  CHECK_CUDA(cudaStreamCreate(&s2));
  CHECK_CUDA(cudaStreamGetAttribute(s2, cudaStreamAttributeSynchronizationPolicy, &v));
  EXPECT_TRUE(v.syncPolicy == cudaSyncPolicyAuto, "new stream policy %d", int(v.syncPolicy));

  // Driver forms: cuStreamGetCtx_v2 / cuStreamGetDevice.
  CUcontext ctx = nullptr, current = nullptr;
  CUgreenCtx green = reinterpret_cast<CUgreenCtx>(1);
  CHECK_CU(cuStreamGetCtx_v2(s1, &ctx, &green));
  CHECK_CU(cuCtxGetCurrent(&current));
  EXPECT_TRUE(ctx == current && green == nullptr, "cuStreamGetCtx_v2");
  CUdevice cudev = -1;
  CHECK_CU(cuStreamGetDevice(s1, &cudev));
  EXPECT_TRUE(cudev == 0, "cuStreamGetDevice %d", cudev);

  CHECK_CUDA(cudaFree(buf));
  CHECK_CUDA(cudaStreamDestroy(s1));
  CHECK_CUDA(cudaStreamDestroy(s2));
}

static void check_occupancy() {
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  const void* kernels[] = {reinterpret_cast<const void*>(light),
                           reinterpret_cast<const void*>(static_shared)};
  for (const void* k : kernels) {
    cudaFuncAttributes a;
    CHECK_CUDA(cudaFuncGetAttributes(&a, k));
    for (int block : {32, 128, 256}) {
      for (int blocks : {1, 2, 3, 4, 8}) {
        size_t got = 0;
        CHECK_CUDA(cudaOccupancyAvailableDynamicSMemPerBlock(&got, k, blocks, block));
        size_t want = host_available_dynamic(prop, a, blocks, block);
        EXPECT_TRUE(got == want, "block %d x %d: %zu, want %zu", block, blocks, got, want);
        if (want > 0) {
          int resident = 0;
          CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, k, block, got));
          EXPECT_TRUE(resident >= blocks, "%d resident with %zu bytes", resident, got);
        }
      }
    }
  }
  size_t dyn = 0;
  EXPECT_ERROR(
      cudaOccupancyAvailableDynamicSMemPerBlock(&dyn, reinterpret_cast<const void*>(light), 0, 32),
      cudaErrorInvalidValue);
  EXPECT_ERROR(cudaOccupancyAvailableDynamicSMemPerBlock(&dyn, &dyn, 1, 32),
               cudaErrorInvalidDeviceFunction);

  // Clusters need compute capability 9.0: not supported on this device.
  int cluster = 0;
  EXPECT_TRUE(prop.clusterLaunch == 0, "clusterLaunch %d", prop.clusterLaunch);
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(4);
  config.blockDim = dim3(32);
  EXPECT_ERROR(
      cudaOccupancyMaxActiveClusters(&cluster, reinterpret_cast<const void*>(light), &config),
      cudaErrorNotSupported);
  EXPECT_ERROR(
      cudaOccupancyMaxPotentialClusterSize(&cluster, reinterpret_cast<const void*>(light), &config),
      cudaErrorNotSupported);

  // Functions are loaded with their module.
  cudaFunction_t f = nullptr;
  CHECK_CUDA(cudaGetFuncBySymbol(&f, reinterpret_cast<const void*>(light)));
  CUfunctionLoadingState state = CU_FUNCTION_LOADING_STATE_UNLOADED;
  CHECK_CU(cuFuncIsLoaded(&state, reinterpret_cast<CUfunction>(f)));
  EXPECT_TRUE(state == CU_FUNCTION_LOADING_STATE_LOADED, "state %d", int(state));
  CHECK_CU(cuFuncLoad(reinterpret_cast<CUfunction>(f)));
}

static void check_pools() {
  cudaMemLocation loc = {};
  loc.type = cudaMemLocationTypeDevice;
  loc.id = 0;
  cudaMemPool_t by_location = nullptr, by_device = nullptr;
  CHECK_CUDA(cudaMemGetDefaultMemPool(&by_location, &loc, cudaMemAllocationTypePinned));
  CHECK_CUDA(cudaDeviceGetDefaultMemPool(&by_device, 0));
  EXPECT_TRUE(by_location == by_device, "default pools differ");
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location = loc;
  cudaMemPool_t pool = nullptr;
  CHECK_CUDA(cudaMemPoolCreate(&pool, &props));
  CHECK_CUDA(cudaMemSetMemPool(&loc, cudaMemAllocationTypePinned, pool));
  cudaMemPool_t current = nullptr;
  CHECK_CUDA(cudaMemGetMemPool(&current, &loc, cudaMemAllocationTypePinned));
  EXPECT_TRUE(current == pool, "current pool by location");
  CHECK_CUDA(cudaDeviceGetMemPool(&current, 0));
  EXPECT_TRUE(current == pool, "current pool by device");
  CHECK_CUDA(cudaMemSetMemPool(&loc, cudaMemAllocationTypePinned, by_device));
  CHECK_CUDA(cudaMemPoolDestroy(pool));
  EXPECT_ERROR(cudaMemGetMemPool(&current, nullptr, cudaMemAllocationTypePinned),
               cudaErrorInvalidValue);
  EXPECT_ERROR(cudaMemGetMemPool(&current, &loc, cudaMemAllocationTypeInvalid),
               cudaErrorInvalidValue);
}

static void check_misc(int count) {
  // GPUDirect RDMA flushes: as the device attribute says.
  int rdma = -1;
  CHECK_CUDA(cudaDeviceGetAttribute(&rdma, cudaDevAttrGPUDirectRDMAFlushWritesOptions, 0));
  EXPECT_ERROR(
      cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                         cudaFlushGPUDirectRDMAWritesToOwner),
      (rdma & cudaFlushGPUDirectRDMAWritesOptionHost) ? cudaSuccess : cudaErrorNotSupported);

  // Async notifications: registered and unregistered (none fires on Strata).
  cudaAsyncCallbackHandle_t handle = nullptr;
  CHECK_CUDA(cudaDeviceRegisterAsyncNotification(0, on_async, nullptr, &handle));
  CHECK_CUDA(cudaDeviceUnregisterAsyncNotification(0, handle));
  EXPECT_ERROR(cudaDeviceUnregisterAsyncNotification(0, handle), cudaErrorInvalidValue);
  EXPECT_ERROR(cudaDeviceRegisterAsyncNotification(0, nullptr, nullptr, &handle),
               cudaErrorInvalidValue);

  // Atomic capabilities follow the native-atomic attributes.
  cudaAtomicOperation ops[3] = {cudaAtomicOperationIntegerAdd, cudaAtomicOperationCAS,
                                cudaAtomicOperationFloatAdd};
  unsigned caps[3] = {1, 1, 1};
  int host_native = -1;
  CHECK_CUDA(cudaDeviceGetAttribute(&host_native, cudaDevAttrHostNativeAtomicSupported, 0));
  CHECK_CUDA(cudaDeviceGetHostAtomicCapabilities(caps, ops, 3, 0));
  if (host_native == 0) {
    EXPECT_TRUE(caps[0] == 0 && caps[1] == 0 && caps[2] == 0, "host caps without native atomics");
  }
  EXPECT_ERROR(cudaDeviceGetHostAtomicCapabilities(caps, ops, 0, 0), cudaErrorInvalidValue);
  cudaAtomicOperation bogus = static_cast<cudaAtomicOperation>(99);
  EXPECT_ERROR(cudaDeviceGetHostAtomicCapabilities(caps, &bogus, 1, 0), cudaErrorInvalidValue);
  if (count > 1) {
    int p2p_native = 0;
    CHECK_CUDA(cudaDeviceGetP2PAttribute(&p2p_native, cudaDevP2PAttrNativeAtomicSupported, 0, 1));
    CHECK_CUDA(cudaDeviceGetP2PAtomicCapabilities(caps, ops, 3, 0, 1));
    if (p2p_native) {
      EXPECT_TRUE(
          (caps[0] & cudaAtomicCapabilityScalar32) && (caps[1] & cudaAtomicCapabilityScalar64),
          "p2p caps %#x %#x", caps[0], caps[1]);
    }
  }

  // Interop Strata does not have.
  cudaExternalMemoryHandleDesc mem_desc = {};
  mem_desc.type = cudaExternalMemoryHandleTypeOpaqueFd;
  mem_desc.handle.fd = 0;
  mem_desc.size = 4096;
  cudaExternalMemory_t ext_mem = nullptr;
  EXPECT_ERROR(cudaImportExternalMemory(&ext_mem, &mem_desc), cudaErrorNotSupported);
  EXPECT_ERROR(cudaImportExternalMemory(nullptr, &mem_desc), cudaErrorInvalidValue);
  cudaExternalSemaphoreHandleDesc sem_desc = {};
  sem_desc.type = cudaExternalSemaphoreHandleTypeOpaqueFd;
  cudaExternalSemaphore_t ext_sem = nullptr;
  EXPECT_ERROR(cudaImportExternalSemaphore(&ext_sem, &sem_desc), cudaErrorNotSupported);
  cudaGraphicsResource_t resource = reinterpret_cast<cudaGraphicsResource_t>(&mem_desc);
  EXPECT_ERROR(cudaGraphicsUnregisterResource(resource), cudaErrorInvalidResourceHandle);
  EXPECT_ERROR(cudaGraphicsMapResources(1, &resource, 0), cudaErrorInvalidResourceHandle);
}

static void check_logs() {
  cudaLogIterator it = 0;
  CHECK_CUDA(cudaLogsCurrent(&it, 0));
  int calls = 0;
  cudaLogsCallbackHandle cb = nullptr;
  CHECK_CUDA(cudaLogsRegisterCallback(on_log, &calls, &cb));
  // A failing driver call (through the runtime) logs its line.
  cudaStreamAttrValue v = {};
  EXPECT_ERROR(cudaStreamSetAttribute(nullptr, cudaLaunchAttributeCooperative, &v),
               cudaErrorInvalidValue);
  EXPECT_TRUE(calls == 1, "callback ran %d times", calls);
  EXPECT_TRUE(logged.find("cuStreamSetAttribute") != std::string::npos, "logged '%s'",
              logged.c_str());
  CHECK_CUDA(cudaLogsUnregisterCallback(cb));
  char buffer[4096];
  size_t size = sizeof buffer;
  CHECK_CUDA(cudaLogsDumpToMemory(&it, buffer, &size, 0));
  EXPECT_TRUE(size == std::strlen(buffer) && size > 0 && buffer[size - 1] == '\n', "size %zu",
              size);
  EXPECT_TRUE(std::string(buffer).find("cuStreamSetAttribute") != std::string::npos, "dump '%s'",
              buffer);
  // The iterator advanced: nothing new since.
  size = sizeof buffer;
  CHECK_CUDA(cudaLogsDumpToMemory(&it, buffer, &size, 0));
  EXPECT_TRUE(size == 0 && buffer[0] == '\0', "second dump %zu bytes", size);
  EXPECT_TRUE(calls == 1, "unregistered callback ran");
  EXPECT_ERROR(cudaLogsCurrent(&it, 1), cudaErrorInvalidValue);
  // To a file.
  const char* path = "api_misc_logs.txt";
  CHECK_CUDA(cudaLogsDumpToFile(nullptr, path, 0));
  std::FILE* f = std::fopen(path, "r");
  EXPECT_TRUE(f != nullptr, "no log file");
  size_t n = std::fread(buffer, 1, sizeof buffer - 1, f);
  buffer[n] = '\0';
  std::fclose(f);
  std::remove(path);
  EXPECT_TRUE(std::string(buffer).find("cuStreamSetAttribute") != std::string::npos, "file '%s'",
              buffer);
}

static void check_driver_context() {
  CHECK_CUDA(cudaSetDevice(0));
  CHECK_CUDA(cudaFree(nullptr));
  CUcontext primary = nullptr;
  CHECK_CU(cuCtxGetCurrent(&primary));
  unsigned long long id1 = 0, id2 = 0, id3 = 0;
  CHECK_CU(cuCtxGetId(primary, &id1));
  CHECK_CU(cuCtxGetId(nullptr, &id2));
  EXPECT_TRUE(id1 == id2 && id1 != 0, "ids %llu %llu", id1, id2);
  CUcontext other = nullptr;
  CUctxCreateParams params = {};
  CHECK_CU(cuCtxCreate(&other, &params, 0, 0));
  CHECK_CU(cuCtxGetId(other, &id3));
  EXPECT_TRUE(id3 != id1, "distinct contexts share id %llu", id3);
  CUdevice dev = -1;
  CHECK_CU(cuCtxGetDevice_v2(&dev, other));
  EXPECT_TRUE(dev == 0, "cuCtxGetDevice_v2 %d", dev);
  CHECK_CU(cuCtxSynchronize_v2(other));
  CHECK_CU(cuCtxSynchronize_v2(nullptr));
  CHECK_CU(cuCtxPopCurrent(nullptr));
  CHECK_CU(cuCtxDestroy(other));
  EXPECT_CU(cuCtxSynchronize_v2(other), CUDA_ERROR_INVALID_CONTEXT);

  char luid[8];
  unsigned mask = 0;
  EXPECT_CU(cuDeviceGetLuid(luid, &mask, 0), CUDA_ERROR_NOT_SUPPORTED);

  // Core dump settings are stored (process-wide and per context).
  bool enable = true;
  size_t size = sizeof enable;
  CHECK_CU(cuCoredumpSetAttributeGlobal(CU_COREDUMP_ENABLE_ON_EXCEPTION, &enable, &size));
  bool got = false;
  size = sizeof got;
  CHECK_CU(cuCoredumpGetAttributeGlobal(CU_COREDUMP_ENABLE_ON_EXCEPTION, &got, &size));
  EXPECT_TRUE(got && size == sizeof(bool), "global coredump setting");
  char file[] = "/tmp/strata_core_%p";
  size = sizeof file;
  CHECK_CU(cuCoredumpSetAttribute(CU_COREDUMP_FILE, file, &size));
  char back[64] = {};
  size = sizeof back;
  CHECK_CU(cuCoredumpGetAttribute(CU_COREDUMP_FILE, back, &size));
  EXPECT_TRUE(std::strcmp(back, file) == 0 && size == sizeof file, "file '%s'", back);
  size = sizeof file;
  EXPECT_CU(cuCoredumpSetAttribute(CU_COREDUMP_PIPE, file, &size), CUDA_ERROR_INVALID_VALUE);
  enable = false;
  size = sizeof enable;
  CHECK_CU(cuCoredumpSetAttributeGlobal(CU_COREDUMP_ENABLE_ON_EXCEPTION, &enable, &size));

  CUprocessState state;
  EXPECT_CU(cuCheckpointProcessGetState(0, &state), CUDA_ERROR_NOT_SUPPORTED);
}

// cudaFuncAttributeMaxDynamicSharedMemorySize reads back exactly what was set (default:
// the 48 KiB non-opt-in limit less the static shared memory), and launches are checked
// against it; a captured kernel node reports the host stub as its function.
static void check_function_attributes_and_graph_nodes() {
  cudaFuncAttributes a;
  CHECK_CUDA(cudaFuncGetAttributes(&a, static_shared));
  EXPECT_TRUE(a.maxDynamicSharedSizeBytes == int(48 * 1024 - a.sharedSizeBytes),
              "default max dynamic shared %d (static %zu)", a.maxDynamicSharedSizeBytes,
              a.sharedSizeBytes);
  CHECK_CUDA(
      cudaFuncSetAttribute(static_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024));
  CHECK_CUDA(cudaFuncGetAttributes(&a, static_shared));
  EXPECT_TRUE(a.maxDynamicSharedSizeBytes == 1024, "set 1024, got %d", a.maxDynamicSharedSizeBytes);
  float* buf = nullptr;
  CHECK_CUDA(cudaMalloc(&buf, 4096 * sizeof(float)));
  CHECK_CUDA(cudaMemset(buf, 0, 4096 * sizeof(float)));
  static_shared<<<1, 256, 1024>>>(buf);
  CHECK_CUDA(cudaGetLastError());
  static_shared<<<1, 256, 2048>>>(buf);
  EXPECT_ERROR(cudaGetLastError(), cudaErrorInvalidValue);
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  int optin = int(prop.sharedMemPerBlockOptin - a.sharedSizeBytes);
  CHECK_CUDA(
      cudaFuncSetAttribute(static_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, optin));
  CHECK_CUDA(cudaFuncGetAttributes(&a, static_shared));
  EXPECT_TRUE(a.maxDynamicSharedSizeBytes == optin, "set %d, got %d", optin,
              a.maxDynamicSharedSizeBytes);
  CHECK_CUDA(cudaDeviceSynchronize());

  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreate(&s));
  cudaGraph_t graph = nullptr;
  CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  light<<<2, 64, 0, s>>>(buf);
  CHECK_CUDA(cudaStreamEndCapture(s, &graph));
  cudaGraphNode_t nodes[4];
  size_t count = 4;
  CHECK_CUDA(cudaGraphGetNodes(graph, nodes, &count));
  EXPECT_TRUE(count == 1, "%zu nodes", count);
  cudaKernelNodeParams params;
  CHECK_CUDA(cudaGraphKernelNodeGetParams(nodes[0], &params));
  EXPECT_TRUE(params.func == reinterpret_cast<void*>(light), "func %p, want %p", params.func,
              reinterpret_cast<void*>(light));
  EXPECT_TRUE(params.gridDim.x == 2 && params.blockDim.x == 64, "shape");
  CHECK_CUDA(cudaGraphDestroy(graph));
  CHECK_CUDA(cudaStreamDestroy(s));
  CHECK_CUDA(cudaFree(buf));
}

// The legacy launch API, cuPointerSetAttribute, cuCtxSetFlags, cuCtxRecordEvent and the
// shared memory bank configuration calls.
static void check_driver_legacy() {
  float* x = nullptr;
  CHECK_CUDA(cudaMalloc(&x, 128 * sizeof(float)));
  CHECK_CUDA(cudaMemset(x, 0, 128 * sizeof(float)));
  cudaFunction_t rf = nullptr;
  CHECK_CUDA(cudaGetFuncBySymbol(&rf, reinterpret_cast<const void*>(light)));
  CUfunction f = reinterpret_cast<CUfunction>(rf);
  CHECK_CU(cuFuncSetBlockShape(f, 32, 1, 1));
  CHECK_CU(cuFuncSetSharedSize(f, 0));
  CHECK_CU(cuParamSetSize(f, sizeof(void*)));
  CHECK_CU(cuParamSetf(f, 0, 1.0f));  // overwritten by the pointer below
  EXPECT_CU(cuParamSetTexRef(f, CU_PARAM_TR_DEFAULT, nullptr), CUDA_ERROR_NOT_SUPPORTED);
  CHECK_CU(cuParamSetv(f, 0, &x, sizeof(void*)));
  EXPECT_CU(cuParamSeti(f, 8, 1), CUDA_ERROR_INVALID_VALUE);     // beyond the set size
  EXPECT_CU(cuParamSetSize(f, 4096), CUDA_ERROR_INVALID_VALUE);  // beyond the kernel's
  CHECK_CU(cuLaunchGrid(f, 3, 1));                               // x[0..95] += 1
  CHECK_CU(cuLaunch(f));                                         // x[0..31] += 1
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreate(&s));
  CHECK_CU(cuLaunchGridAsync(f, 1, 1, s));  // x[0..31] += 1
  EXPECT_CU(cuLaunchGrid(f, 0, 1), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU(cuFuncSetBlockShape(f, 0, 1, 1), CUDA_ERROR_INVALID_VALUE);
  CHECK_CUDA(cudaStreamSynchronize(s));
  CHECK_CUDA(cudaDeviceSynchronize());
  float host[128];
  CHECK_CUDA(cudaMemcpy(host, x, sizeof host, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 128; ++i) {
    float want = i < 32 ? 3.0f : i < 96 ? 1.0f : 0.0f;
    EXPECT_TRUE(host[i] == want, "x[%d] = %g, want %g", i, host[i], want);
  }

  // Bank configuration: accepted, four-byte banks reported.
  CHECK_CU(cuFuncSetSharedMemConfig(f, CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE));
  CHECK_CU(cuCtxSetSharedMemConfig(CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE));
  CUsharedconfig config = CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE;
  CHECK_CU(cuCtxGetSharedMemConfig(&config));
  EXPECT_TRUE(config == CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE, "bank config %d", int(config));
  EXPECT_CU(cuCtxSetSharedMemConfig(static_cast<CUsharedconfig>(7)), CUDA_ERROR_INVALID_VALUE);

  // SYNC_MEMOPS: set, read back, cleared; only on device memory, the only settable one.
  bool on = true, got = false;
  CUdeviceptr dx = reinterpret_cast<CUdeviceptr>(x);
  CHECK_CU(cuPointerGetAttribute(&got, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, dx));
  EXPECT_TRUE(!got, "SYNC_MEMOPS set by default");
  CHECK_CU(cuPointerSetAttribute(&on, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, dx + 16));
  CHECK_CU(cuPointerGetAttribute(&got, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, dx));
  EXPECT_TRUE(got, "SYNC_MEMOPS not stored");
  on = false;
  CHECK_CU(cuPointerSetAttribute(&on, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, dx));
  CHECK_CU(cuPointerGetAttribute(&got, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, dx));
  EXPECT_TRUE(!got, "SYNC_MEMOPS not cleared");
  EXPECT_CU(cuPointerSetAttribute(&on, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, dx),
            CUDA_ERROR_INVALID_VALUE);
  float local = 0;
  EXPECT_CU(cuPointerSetAttribute(&on, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS,
                                  reinterpret_cast<CUdeviceptr>(&local)),
            CUDA_ERROR_INVALID_VALUE);

  // cuCtxSetFlags overwrites the current context's flags.
  unsigned flags = 0;
  CHECK_CU(cuCtxSetFlags(CU_CTX_SCHED_BLOCKING_SYNC));
  CHECK_CU(cuCtxGetFlags(&flags));
  EXPECT_TRUE((flags & CU_CTX_SCHED_MASK) == CU_CTX_SCHED_BLOCKING_SYNC, "flags %#x", flags);
  CHECK_CU(cuCtxSetFlags(CU_CTX_SCHED_AUTO));
  EXPECT_CU(cuCtxSetFlags(0x10000), CUDA_ERROR_INVALID_VALUE);

  // cuCtxRecordEvent captures the work of every stream queued so far.
  cudaEvent_t e;
  CHECK_CUDA(cudaEventCreate(&e));
  light<<<4, 32, 0, s>>>(x);
  CUcontext ctx = nullptr;
  CHECK_CU(cuCtxGetCurrent(&ctx));
  CHECK_CU(cuCtxRecordEvent(ctx, e));
  CHECK_CUDA(cudaEventSynchronize(e));
  CHECK_CUDA(cudaMemcpy(host, x, sizeof host, cudaMemcpyDeviceToHost));
  EXPECT_TRUE(host[100] == 1.0f && host[0] == 4.0f, "after cuCtxRecordEvent: %g %g", host[100],
              host[0]);

  CHECK_CUDA(cudaEventDestroy(e));
  CHECK_CUDA(cudaStreamDestroy(s));
  CHECK_CUDA(cudaFree(x));
}

// The driver forms of the runtime calls above give the same answers, and the interop
// calls Strata does not support fail with CUDA's errors.
static void check_driver_forms_and_interop() {
  char id[32];
  CHECK_CU(cuDeviceGetPCIBusId(id, sizeof id, 0));
  CUdevice dev = -1;
  CHECK_CU(cuDeviceGetByPCIBusId(&dev, id));
  EXPECT_TRUE(dev == 0, "cuDeviceGetByPCIBusId %d", dev);
  EXPECT_CU(cuDeviceGetByPCIBusId(&dev, "ffff:ff:1f.0"), CUDA_ERROR_INVALID_DEVICE);
  size_t width = 0, rt_width = 0;
  CHECK_CU(cuDeviceGetTexture1DLinearMaxWidth(&width, CU_AD_FORMAT_FLOAT, 4, 0));
  cudaChannelFormatDesc f4 = cudaCreateChannelDesc<float4>();
  CHECK_CUDA(cudaDeviceGetTexture1DLinearMaxWidth(&rt_width, &f4, 0));
  EXPECT_TRUE(width == rt_width, "widths %zu %zu", width, rt_width);
  EXPECT_CU(cuDeviceGetTexture1DLinearMaxWidth(&width, CU_AD_FORMAT_FLOAT, 3, 0),
            CUDA_ERROR_INVALID_VALUE);

  cudaFunction_t rf = nullptr;
  CHECK_CUDA(cudaGetFuncBySymbol(&rf, reinterpret_cast<const void*>(static_shared)));
  size_t cu_dyn = 0, rt_dyn = 0;
  CHECK_CU(
      cuOccupancyAvailableDynamicSMemPerBlock(&cu_dyn, reinterpret_cast<CUfunction>(rf), 2, 128));
  CHECK_CUDA(cudaOccupancyAvailableDynamicSMemPerBlock(&rt_dyn, static_shared, 2, 128));
  EXPECT_TRUE(cu_dyn == rt_dyn, "dynamic %zu %zu", cu_dyn, rt_dyn);
  CUlaunchConfig config = {};
  int clusters = 0;
  EXPECT_CU(cuOccupancyMaxActiveClusters(&clusters, reinterpret_cast<CUfunction>(rf), &config),
            CUDA_ERROR_NOT_SUPPORTED);
  EXPECT_CU(
      cuOccupancyMaxPotentialClusterSize(&clusters, reinterpret_cast<CUfunction>(rf), &config),
      CUDA_ERROR_NOT_SUPPORTED);

  CUstream s1, s2;
  CHECK_CU(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
  CHECK_CU(cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
  CUstreamAttrValue v = {};
  v.syncPolicy = CU_SYNC_POLICY_SPIN;
  CHECK_CU(cuStreamSetAttribute(s1, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v));
  CHECK_CU(cuStreamCopyAttributes(s2, s1));
  CUstreamAttrValue got = {};
  CHECK_CU(cuStreamGetAttribute(s2, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &got));
  EXPECT_TRUE(got.syncPolicy == CU_SYNC_POLICY_SPIN, "copied policy %d", int(got.syncPolicy));
  v.syncPolicy = static_cast<CUsynchronizationPolicy>(9);
  EXPECT_CU(cuStreamSetAttribute(s1, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v),
            CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(cuStreamDestroy(s1));
  CHECK_CU(cuStreamDestroy(s2));

  CUmemLocation loc = {};
  loc.type = CU_MEM_LOCATION_TYPE_DEVICE;
  loc.id = 0;
  CUmemoryPool by_location = nullptr, by_device = nullptr, current = nullptr;
  CHECK_CU(cuMemGetDefaultMemPool(&by_location, &loc, CU_MEM_ALLOCATION_TYPE_PINNED));
  CHECK_CU(cuDeviceGetDefaultMemPool(&by_device, 0));
  EXPECT_TRUE(by_location == by_device, "cuMemGetDefaultMemPool");
  CHECK_CU(cuMemSetMemPool(&loc, CU_MEM_ALLOCATION_TYPE_PINNED, by_device));
  CHECK_CU(cuMemGetMemPool(&current, &loc, CU_MEM_ALLOCATION_TYPE_PINNED));
  EXPECT_TRUE(current == by_device, "cuMemGetMemPool");

  CUdeviceptr dptr = 0;
  EXPECT_CU(cuCtxResetPersistingL2Cache(), CUDA_SUCCESS);
  EXPECT_CU(cuFlushGPUDirectRDMAWrites(CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TARGET_CURRENT_CTX,
                                       CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_ALL_DEVICES),
            CUDA_ERROR_NOT_SUPPORTED);
  EXPECT_CU(cuFlushGPUDirectRDMAWrites(CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TARGET_CURRENT_CTX,
                                       static_cast<CUflushGPUDirectRDMAWritesScope>(1)),
            CUDA_ERROR_INVALID_VALUE);
  CUasyncCallbackHandle handle = nullptr;
  CHECK_CU(cuDeviceRegisterAsyncNotification(0, reinterpret_cast<CUasyncCallback>(on_async),
                                             nullptr, &handle));
  CHECK_CU(cuDeviceUnregisterAsyncNotification(0, handle));
  CUatomicOperation op = CU_ATOMIC_OPERATION_INTEGER_ADD;
  unsigned caps = 0;
  CHECK_CU(cuDeviceGetHostAtomicCapabilities(&caps, &op, 1, 0));
  EXPECT_CU(cuDeviceGetP2PAtomicCapabilities(&caps, &op, 1, 0, 0), CUDA_ERROR_INVALID_DEVICE);

  // Logs through the driver.
  CUlogIterator it = 0;
  CHECK_CU(cuLogsCurrent(&it, 0));
  EXPECT_CU(cuMemGetMemPool(&current, &loc, static_cast<CUmemAllocationType>(0)),
            CUDA_ERROR_INVALID_VALUE);
  char text[1024];
  size_t size = sizeof text;
  CHECK_CU(cuLogsDumpToMemory(&it, text, &size, 0));
  EXPECT_TRUE(std::string(text).find("cuMemGetMemPool") != std::string::npos, "'%s'", text);
  size = 8;  // too small for the message
  CUlogIterator all = 0;
  CHECK_CU(cuLogsCurrent(&all, 0));
  EXPECT_CU(cuCtxGetId(nullptr, nullptr), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU(cuLogsDumpToMemory(&all, text, &size, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_TRUE(size == 0, "size %zu", size);
  CUlogsCallbackHandle cb = nullptr;
  int calls = 0;
  CHECK_CU(cuLogsRegisterCallback(reinterpret_cast<CUlogsCallback>(on_log), &calls, &cb));
  CHECK_CU(cuLogsUnregisterCallback(cb));
  EXPECT_CU(cuLogsUnregisterCallback(cb), CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(cuLogsDumpToFile(nullptr, "/dev/null", 0));

  // External memory and semaphores, graphics resources, NvSciSync.
  int fake_object = 0;
  void* fake = &fake_object;
  void* mapped = nullptr;
  cudaExternalMemoryBufferDesc buffer_desc = {};
  buffer_desc.size = 16;
  EXPECT_ERROR(cudaExternalMemoryGetMappedBuffer(&mapped, static_cast<cudaExternalMemory_t>(fake),
                                                 &buffer_desc),
               cudaErrorInvalidResourceHandle);
  cudaExternalMemoryMipmappedArrayDesc mip_desc = {};
  cudaMipmappedArray_t mip = nullptr;
  EXPECT_ERROR(cudaExternalMemoryGetMappedMipmappedArray(
                   &mip, static_cast<cudaExternalMemory_t>(fake), &mip_desc),
               cudaErrorInvalidResourceHandle);
  EXPECT_ERROR(cudaDestroyExternalMemory(static_cast<cudaExternalMemory_t>(fake)),
               cudaErrorInvalidResourceHandle);
  EXPECT_ERROR(cudaDestroyExternalSemaphore(static_cast<cudaExternalSemaphore_t>(fake)),
               cudaErrorInvalidResourceHandle);
  cudaExternalSemaphore_t sem = static_cast<cudaExternalSemaphore_t>(fake);
  cudaExternalSemaphoreSignalParams signal = {};
  cudaExternalSemaphoreWaitParams wait = {};
  EXPECT_ERROR(cudaSignalExternalSemaphoresAsync(&sem, &signal, 1, 0),
               cudaErrorInvalidResourceHandle);
  EXPECT_ERROR(cudaWaitExternalSemaphoresAsync(&sem, &wait, 1, 0), cudaErrorInvalidResourceHandle);
  cudaGraphicsResource_t resource = static_cast<cudaGraphicsResource_t>(fake);
  size_t bytes = 0;
  cudaArray_t array = nullptr;
  EXPECT_ERROR(cudaGraphicsUnmapResources(1, &resource, 0), cudaErrorInvalidResourceHandle);
  EXPECT_ERROR(cudaGraphicsResourceSetMapFlags(resource, 0), cudaErrorInvalidResourceHandle);
  EXPECT_ERROR(cudaGraphicsResourceGetMappedPointer(&mapped, &bytes, resource),
               cudaErrorInvalidResourceHandle);
  EXPECT_ERROR(cudaGraphicsSubResourceGetMappedArray(&array, resource, 0, 0),
               cudaErrorInvalidResourceHandle);
  EXPECT_ERROR(cudaGraphicsResourceGetMappedMipmappedArray(&mip, resource),
               cudaErrorInvalidResourceHandle);
  EXPECT_ERROR(cudaDeviceGetNvSciSyncAttributes(fake, 0, 0), cudaErrorNotSupported);
  CUDA_EXTERNAL_MEMORY_HANDLE_DESC cu_mem = {};
  cu_mem.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
  CUexternalMemory cu_ext = nullptr;
  EXPECT_CU(cuImportExternalMemory(&cu_ext, &cu_mem), CUDA_ERROR_NOT_SUPPORTED);
  EXPECT_CU(cuDestroyExternalMemory(static_cast<CUexternalMemory>(fake)),
            CUDA_ERROR_INVALID_HANDLE);
  CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC cu_sem = {};
  cu_sem.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD;
  CUexternalSemaphore cu_ext_sem = nullptr;
  EXPECT_CU(cuImportExternalSemaphore(&cu_ext_sem, &cu_sem), CUDA_ERROR_NOT_SUPPORTED);
  EXPECT_CU(cuGraphicsUnregisterResource(static_cast<CUgraphicsResource>(fake)),
            CUDA_ERROR_INVALID_HANDLE);
  EXPECT_CU(cuDeviceGetNvSciSyncAttributes(fake, 0, 0), CUDA_ERROR_NOT_SUPPORTED);
  CUcheckpointLockArgs lock_args = {};
  int tid = 0;
  EXPECT_CU(cuCheckpointProcessLock(0, &lock_args), CUDA_ERROR_NOT_SUPPORTED);
  EXPECT_CU(cuCheckpointProcessGetRestoreThreadId(0, &tid), CUDA_ERROR_NOT_SUPPORTED);
  // Multicast (the device reports MULTICAST_SUPPORTED 0), im2col tensor maps and
  // context-wide event waits: CUDA_ERROR_NOT_SUPPORTED.
  int multicast = -1;
  EXPECT_CU(cuDeviceGetAttribute(&multicast, CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED, 0),
            CUDA_SUCCESS);
  EXPECT_TRUE(multicast == 0, "MULTICAST_SUPPORTED %d", multicast);
  CUmulticastObjectProp mc_prop{};
  mc_prop.numDevices = 1;
  mc_prop.size = 2u << 20;
  CUmemGenericAllocationHandle mc = 0;
  EXPECT_CU(cuMulticastCreate(&mc, &mc_prop), CUDA_ERROR_NOT_SUPPORTED);
  size_t mc_granularity = 0;
  EXPECT_CU(cuMulticastGetGranularity(&mc_granularity, &mc_prop, CU_MULTICAST_GRANULARITY_MINIMUM),
            CUDA_ERROR_NOT_SUPPORTED);
  CUtensorMap im2col_map{};
  EXPECT_CU(cuTensorMapEncodeIm2col(&im2col_map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, nullptr,
                                    nullptr, nullptr, nullptr, nullptr, 1, 1, nullptr,
                                    CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                    CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                    CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
            CUDA_ERROR_NOT_SUPPORTED);
  CUcontext wait_ctx = nullptr;
  EXPECT_CU(cuCtxGetCurrent(&wait_ctx), CUDA_SUCCESS);
  CUevent wait_event = nullptr;
  EXPECT_CU(cuEventCreate(&wait_event, CU_EVENT_DISABLE_TIMING), CUDA_SUCCESS);
  EXPECT_CU(cuCtxWaitEvent(wait_ctx, wait_event), CUDA_ERROR_NOT_SUPPORTED);
  EXPECT_CU(cuEventDestroy(wait_event), CUDA_SUCCESS);
  CUcheckpointCheckpointArgs checkpoint_args = {};
  CUcheckpointRestoreArgs restore_args = {};
  CUcheckpointUnlockArgs unlock_args = {};
  EXPECT_CU(cuCheckpointProcessCheckpoint(0, &checkpoint_args), CUDA_ERROR_NOT_SUPPORTED);
  EXPECT_CU(cuCheckpointProcessRestore(0, &restore_args), CUDA_ERROR_NOT_SUPPORTED);
  EXPECT_CU(cuCheckpointProcessUnlock(0, &unlock_args), CUDA_ERROR_NOT_SUPPORTED);
  CUexternalSemaphore cu_fake_sem = static_cast<CUexternalSemaphore>(fake);
  CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS cu_signal = {};
  CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS cu_wait = {};
  EXPECT_CU(cuSignalExternalSemaphoresAsync(&cu_fake_sem, &cu_signal, 1, nullptr),
            CUDA_ERROR_INVALID_HANDLE);
  EXPECT_CU(cuWaitExternalSemaphoresAsync(&cu_fake_sem, &cu_wait, 1, nullptr),
            CUDA_ERROR_INVALID_HANDLE);
  EXPECT_CU(cuDestroyExternalSemaphore(cu_fake_sem), CUDA_ERROR_INVALID_HANDLE);
  CUexternalMemory cu_fake_mem = static_cast<CUexternalMemory>(fake);
  CUDA_EXTERNAL_MEMORY_BUFFER_DESC cu_buffer = {};
  CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC cu_mip_desc = {};
  CUmipmappedArray cu_mip = nullptr;
  EXPECT_CU(cuExternalMemoryGetMappedBuffer(&dptr, cu_fake_mem, &cu_buffer),
            CUDA_ERROR_INVALID_HANDLE);
  EXPECT_CU(cuExternalMemoryGetMappedMipmappedArray(&cu_mip, cu_fake_mem, &cu_mip_desc),
            CUDA_ERROR_INVALID_HANDLE);
  CUgraphicsResource cu_resource = static_cast<CUgraphicsResource>(fake);
  CUarray cu_array = nullptr;
  size_t cu_bytes = 0;
  EXPECT_CU(cuGraphicsMapResources(1, &cu_resource, nullptr), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_CU(cuGraphicsUnmapResources(1, &cu_resource, nullptr), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_CU(cuGraphicsMapResources(0, &cu_resource, nullptr), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU(cuGraphicsResourceSetMapFlags(cu_resource, 0), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_CU(cuGraphicsResourceGetMappedPointer(&dptr, &cu_bytes, cu_resource),
            CUDA_ERROR_INVALID_HANDLE);
  EXPECT_CU(cuGraphicsSubResourceGetMappedArray(&cu_array, cu_resource, 0, 0),
            CUDA_ERROR_INVALID_HANDLE);
  EXPECT_CU(cuGraphicsResourceGetMappedMipmappedArray(&cu_mip, cu_resource),
            CUDA_ERROR_INVALID_HANDLE);

  // Driver batch copies: d -> host on a stream; the legacy stream is refused.
  int values[4] = {5, 6, 7, 8}, out[4] = {};
  CUdeviceptr d = 0;
  CHECK_CU(cuMemAlloc(&d, sizeof values));
  CUstream bs;
  CHECK_CU(cuStreamCreate(&bs, CU_STREAM_NON_BLOCKING));
  CUdeviceptr dsts[] = {d};
  CUdeviceptr srcs[] = {reinterpret_cast<CUdeviceptr>(values)};
  size_t sizes[] = {sizeof values};
  CUmemcpyAttributes attrs = {};
  attrs.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
  size_t idx = 0;
  CHECK_CU(cuMemcpyBatchAsync(dsts, srcs, sizes, 1, &attrs, &idx, 1, bs));
  EXPECT_CU(cuMemcpyBatchAsync(dsts, srcs, sizes, 1, &attrs, &idx, 1, nullptr),
            CUDA_ERROR_INVALID_VALUE);
  CUDA_MEMCPY3D_BATCH_OP batch_op = {};
  batch_op.src.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
  batch_op.src.op.ptr.ptr = d;
  batch_op.dst.type = CU_MEMCPY_OPERAND_TYPE_POINTER;
  batch_op.dst.op.ptr.ptr = reinterpret_cast<CUdeviceptr>(out);
  batch_op.extent.width = sizeof out;
  batch_op.extent.height = 1;
  batch_op.extent.depth = 1;
  batch_op.srcAccessOrder = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
  CHECK_CU(cuMemcpy3DBatchAsync(1, &batch_op, 0, bs));
  CHECK_CU(cuStreamSynchronize(bs));
  EXPECT_TRUE(out[0] == 5 && out[3] == 8, "batch copy %d %d", out[0], out[3]);
  CHECK_CU(cuStreamDestroy(bs));
  CHECK_CU(cuMemFree(d));
}

// cuTensorMapEncodeTiled / cuTensorMapReplaceAddress: the documented parameter rules.
static void check_tensor_maps() {
  float* base = nullptr;
  CHECK_CUDA(cudaMalloc(&base, 1 << 20));
  alignas(128) CUtensorMap map;
  cuuint64_t dims[2] = {256, 128};
  cuuint64_t strides[1] = {256 * sizeof(float)};
  cuuint32_t box[2] = {32, 16};
  cuuint32_t estrides[2] = {1, 1};
  auto encode = [&](CUtensorMapDataType type, cuuint32_t rank, void* address,
                    CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
                    CUtensorMapFloatOOBfill fill) {
    return cuTensorMapEncodeTiled(&map, type, rank, address, dims, strides, box, estrides,
                                  interleave, swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_128B, fill);
  };
  CHECK_CU(encode(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, base, CU_TENSOR_MAP_INTERLEAVE_NONE,
                  CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA));
  CHECK_CU(cuTensorMapReplaceAddress(&map, base + 64));
  EXPECT_CU(cuTensorMapReplaceAddress(&map, base + 1), CUDA_ERROR_INVALID_VALUE);  // 4-byte aligned
  const CUresult bad = CUDA_ERROR_INVALID_VALUE;
  EXPECT_CU(encode(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 0, base, CU_TENSOR_MAP_INTERLEAVE_NONE,
                   CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
            bad);  // rank 0
  EXPECT_CU(encode(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, base + 2, CU_TENSOR_MAP_INTERLEAVE_NONE,
                   CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
            bad);  // 8-byte aligned address
  EXPECT_CU(encode(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, base, CU_TENSOR_MAP_INTERLEAVE_NONE,
                   CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
            bad);  // 128-byte box row in a 64-byte swizzle
  EXPECT_CU(encode(CU_TENSOR_MAP_DATA_TYPE_INT32, 2, base, CU_TENSOR_MAP_INTERLEAVE_NONE,
                   CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA),
            bad);  // NaN fill on integers
  EXPECT_CU(encode(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, base, CU_TENSOR_MAP_INTERLEAVE_16B,
                   CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
            bad);     // interleaved needs rank >= 3
  strides[0] = 1000;  // not a multiple of 16
  EXPECT_CU(encode(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, base, CU_TENSOR_MAP_INTERLEAVE_NONE,
                   CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
            bad);
  strides[0] = 256 * sizeof(float);
  box[0] = 2;  // 8 bytes: not a multiple of 16
  EXPECT_CU(encode(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, base, CU_TENSOR_MAP_INTERLEAVE_NONE,
                   CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
            bad);
  box[0] = 257;
  EXPECT_CU(encode(CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, base, CU_TENSOR_MAP_INTERLEAVE_NONE,
                   CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
            bad);
  box[0] = 32;
  estrides[1] = 9;
  EXPECT_CU(encode(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, base, CU_TENSOR_MAP_INTERLEAVE_NONE,
                   CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
            bad);
  estrides[1] = 1;
  CHECK_CU(encode(CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, base, CU_TENSOR_MAP_INTERLEAVE_NONE,
                  CU_TENSOR_MAP_SWIZZLE_32B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  CUtensorMap zero = {};
  EXPECT_CU(cuTensorMapReplaceAddress(&zero, base), bad);  // never encoded
  CHECK_CUDA(cudaFree(base));
}

int main() {
  int count = 0;
  CHECK_CUDA(cudaGetDeviceCount(&count));
  std::printf("devices: %d\n", count);
  check_devices_and_pci(count);
  check_entry_points();
  check_stream_attributes();
  check_occupancy();
  check_pools();
  check_misc(count);
  check_logs();
  check_driver_context();
  check_function_attributes_and_graph_nodes();
  check_driver_legacy();
  check_driver_forms_and_interop();
  check_tensor_maps();
  std::printf("PASS api_misc\n");
  return 0;
}
