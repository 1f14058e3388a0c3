// cudaLaunchKernelEx (cudaLaunchKernelExC) with launch attributes, the function queries
// around launches, and their driver API counterparts (cuLaunchKernelEx,
// cuLaunchCooperativeKernel, cuFuncGetName/ParamInfo/Module, cache configuration).
//
// Expectations, from the CUDA Runtime and Driver API documentation: hints (priority,
// programmatic stream serialization, access policy window, memory sync domain, a 1x1x1
// cluster) leave the launch's result unchanged; the cooperative attribute makes
// this_grid() valid and grid.sync() work; launch-completion and programmatic events need
// cudaEventDisableTiming and are complete once the kernel is; invalid attribute ids and
// values give cudaErrorInvalidValue; a device without thread block clusters
// (cudaDevAttrClusterLaunch 0) refuses clusters of more than one block with
// cudaErrorInvalidValue; the device-updatable-node attribute is for stream capture only.
#include <cooperative_groups.h>
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstring>
#include <vector>

#include "test_check.h"

namespace cg = cooperative_groups;

#define CHECK_CU(call)                                                         \
  do {                                                                         \
    CUresult check_cu_result_ = (call);                                        \
    if (check_cu_result_ != CUDA_SUCCESS) {                                    \
      const char* name_ = nullptr;                                             \
      cuGetErrorName(check_cu_result_, &name_);                                \
      std::printf("FAIL %s:%d: %s -> %s\n", __FILE__, __LINE__, #call, name_); \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

__global__ void axpb(int* x, int a, int b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = a * x[i] + b;
}

// Each block writes its id, then (after the grid barrier) reads the next block's.
__global__ void neighbours(int* slots, int* out, int* valid) {
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0) slots[blockIdx.x] = static_cast<int>(blockIdx.x) * 10 + 1;
  if (grid.thread_rank() == 0) *valid = grid.is_valid();
  grid.sync();
  if (threadIdx.x == 0) out[blockIdx.x] = slots[(blockIdx.x + 1) % gridDim.x];
}

__global__ void params(char c, double d, int* p, short s) {
  if (threadIdx.x == 0 && p != nullptr) *p = c + static_cast<int>(d) + s;
}

static cudaLaunchAttribute attr(cudaLaunchAttributeID id) {
  cudaLaunchAttribute a;
  std::memset(&a, 0, sizeof a);
  a.id = id;
  return a;
}

static void check_axpb(const int* dev, int n, int a, int b, const char* what) {
  std::vector<int> got(n);
  CHECK_CUDA(cudaMemcpy(got.data(), dev, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    EXPECT_TRUE(got[i] == a * i + b, "%s: x[%d] = %d, expected %d", what, i, got[i], a * i + b);
  }
}

static void reset(int* dev, int n) {
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i) v[i] = i;
  CHECK_CUDA(cudaMemcpy(dev, v.data(), n * sizeof(int), cudaMemcpyHostToDevice));
}

int main() {
  const int n = 1000;
  int* x = nullptr;
  CHECK_CUDA(cudaMalloc(&x, n * sizeof(int)));
  reset(x, n);
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));

  // 1. Hints accepted; the launch computes what it would without them.
  int cluster_launch = -1;
  CHECK_CUDA(cudaDeviceGetAttribute(&cluster_launch, cudaDevAttrClusterLaunch, 0));
  std::vector<cudaLaunchAttribute> hints;
  hints.push_back(attr(cudaLaunchAttributeIgnore));
  cudaLaunchAttribute a = attr(cudaLaunchAttributePriority);
  a.val.priority = -1;
  hints.push_back(a);
  a = attr(cudaLaunchAttributeProgrammaticStreamSerialization);
  a.val.programmaticStreamSerializationAllowed = 1;
  hints.push_back(a);
  a = attr(cudaLaunchAttributeAccessPolicyWindow);
  a.val.accessPolicyWindow.base_ptr = x;
  a.val.accessPolicyWindow.num_bytes = 0;
  a.val.accessPolicyWindow.hitRatio = 0.5f;
  a.val.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  a.val.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  hints.push_back(a);
  a = attr(cudaLaunchAttributeMemSyncDomain);
  a.val.memSyncDomain = cudaLaunchMemSyncDomainRemote;
  hints.push_back(a);
  a = attr(cudaLaunchAttributeClusterDimension);
  a.val.clusterDim.x = a.val.clusterDim.y = a.val.clusterDim.z = 1;
  hints.push_back(a);
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3((n + 127) / 128);
  config.blockDim = dim3(128);
  config.stream = stream;
  config.attrs = hints.data();
  config.numAttrs = static_cast<unsigned>(hints.size());
  CHECK_CUDA(cudaLaunchKernelEx(&config, axpb, x, 3, 7, n));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  check_axpb(x, n, 3, 7, "hints");

  // 2. Launch-completion and programmatic events are recorded with the launch.
  cudaEvent_t done, programmatic, timed;
  CHECK_CUDA(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
  CHECK_CUDA(cudaEventCreateWithFlags(&programmatic, cudaEventDisableTiming));
  CHECK_CUDA(cudaEventCreate(&timed));
  cudaLaunchAttribute events[2] = {attr(cudaLaunchAttributeLaunchCompletionEvent),
                                   attr(cudaLaunchAttributeProgrammaticEvent)};
  events[0].val.launchCompletionEvent.event = done;
  events[1].val.programmaticEvent.event = programmatic;
  events[1].val.programmaticEvent.triggerAtBlockStart = 1;
  config.attrs = events;
  config.numAttrs = 2;
  reset(x, n);
  CHECK_CUDA(cudaLaunchKernelEx(&config, axpb, x, 2, 1, n));
  CHECK_CUDA(cudaEventSynchronize(done));
  CHECK_CUDA(cudaEventSynchronize(programmatic));
  EXPECT_TRUE(cudaEventQuery(done) == cudaSuccess, "completion event");
  CHECK_CUDA(cudaStreamSynchronize(stream));
  check_axpb(x, n, 2, 1, "events");

  // 3. The cooperative attribute: grid.sync() across all blocks.
  int per_sm = 0, sms = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, neighbours, 64, 0));
  const int blocks = per_sm * sms;
  int *slots = nullptr, *out = nullptr, *valid = nullptr;
  CHECK_CUDA(cudaMalloc(&slots, blocks * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&out, blocks * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&valid, sizeof(int)));
  cudaLaunchAttribute coop = attr(cudaLaunchAttributeCooperative);
  coop.val.cooperative = 1;
  cudaLaunchConfig_t cconfig = {};
  cconfig.gridDim = dim3(blocks);
  cconfig.blockDim = dim3(64);
  cconfig.stream = stream;
  cconfig.attrs = &coop;
  cconfig.numAttrs = 1;
  CHECK_CUDA(cudaLaunchKernelEx(&cconfig, neighbours, slots, out, valid));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  std::vector<int> got(blocks);
  CHECK_CUDA(cudaMemcpy(got.data(), out, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    EXPECT_TRUE(got[b] == ((b + 1) % blocks) * 10 + 1, "block %d read %d", b, got[b]);
  }
  int host_valid = 0;
  CHECK_CUDA(cudaMemcpy(&host_valid, valid, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(host_valid == 1, "is_valid() in a cooperative cudaLaunchKernelEx");
  cconfig.gridDim = dim3(blocks + 1);
  cudaError_t e = cudaLaunchKernelEx(&cconfig, neighbours, slots, out, valid);
  EXPECT_TRUE(e == cudaErrorCooperativeLaunchTooLarge, "too large: %s", cudaGetErrorName(e));
  EXPECT_TRUE(cudaGetLastError() == cudaErrorCooperativeLaunchTooLarge, "last error");

  // 4. Invalid attributes.
  struct Bad {
    cudaLaunchAttribute a;
    const char* what;
  };
  std::vector<Bad> bad;
  bad.push_back({attr(static_cast<cudaLaunchAttributeID>(999)), "unknown id"});
  a = attr(cudaLaunchAttributeAccessPolicyWindow);
  a.val.accessPolicyWindow.hitRatio = 2.0f;
  bad.push_back({a, "hitRatio 2"});
  a = attr(cudaLaunchAttributeMemSyncDomain);
  a.val.memSyncDomain = static_cast<cudaLaunchMemSyncDomain>(5);
  bad.push_back({a, "memSyncDomain 5"});
  a = attr(cudaLaunchAttributeLaunchCompletionEvent);
  a.val.launchCompletionEvent.event = timed;  // timing not disabled
  bad.push_back({a, "completion event with timing"});
  a = attr(cudaLaunchAttributeDeviceUpdatableKernelNode);
  a.val.deviceUpdatableKernelNode.deviceUpdatable = 1;  // not capturing
  bad.push_back({a, "device-updatable node outside capture"});
  if (cluster_launch == 0) {
    a = attr(cudaLaunchAttributeClusterDimension);
    a.val.clusterDim.x = 2;
    a.val.clusterDim.y = a.val.clusterDim.z = 1;
    bad.push_back({a, "cluster of 2 blocks"});
  }
  config.gridDim = dim3((n + 127) / 128);
  for (Bad& b : bad) {
    config.attrs = &b.a;
    config.numAttrs = 1;
    e = cudaLaunchKernelEx(&config, axpb, x, 1, 0, n);
    EXPECT_TRUE(e == cudaErrorInvalidValue, "%s: %s", b.what, cudaGetErrorName(e));
    EXPECT_TRUE(cudaGetLastError() == cudaErrorInvalidValue, "%s: last error", b.what);
  }
  config.attrs = nullptr;
  config.numAttrs = 1;
  e = cudaLaunchKernelEx(&config, axpb, x, 1, 0, n);
  EXPECT_TRUE(e == cudaErrorInvalidValue, "null attrs: %s", cudaGetErrorName(e));
  cudaGetLastError();
  config.numAttrs = 0;  // no attributes at all: an ordinary launch
  reset(x, n);
  CHECK_CUDA(cudaLaunchKernelEx(&config, axpb, x, 5, 2, n));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  check_axpb(x, n, 5, 2, "no attributes");

  // 5. Function queries and cache preferences (runtime).
  const char* name = nullptr;
  CHECK_CUDA(cudaFuncGetName(&name, (const void*)axpb));
  EXPECT_TRUE(name != nullptr && std::strcmp(name, "_Z4axpbPiiii") == 0, "name %s", name);
  EXPECT_TRUE(cudaFuncGetName(nullptr, (const void*)axpb) == cudaErrorInvalidValue, "null name");
  cudaGetLastError();
  // params(char, double, int*, short): offsets by the PTX parameter layout (each at its
  // natural alignment): 0, 8, 16, 24.
  const size_t expect_offset[] = {0, 8, 16, 24}, expect_size[] = {1, 8, 8, 2};
  for (size_t i = 0; i < 4; ++i) {
    size_t offset = 99, size = 99;
    CHECK_CUDA(cudaFuncGetParamInfo((const void*)params, i, &offset, &size));
    EXPECT_TRUE(offset == expect_offset[i] && size == expect_size[i],
                "param %zu: offset %zu size %zu", i, offset, size);
  }
  size_t offset = 0, size = 0;
  e = cudaFuncGetParamInfo((const void*)params, 4, &offset, &size);
  EXPECT_TRUE(e == cudaErrorInvalidValue, "param 4: %s", cudaGetErrorName(e));
  cudaGetLastError();
  CHECK_CUDA(cudaFuncSetCacheConfig((const void*)axpb, cudaFuncCachePreferShared));
  CHECK_CUDA(cudaDeviceSetCacheConfig(cudaFuncCachePreferL1));
  cudaFuncCache cache = cudaFuncCachePreferNone;
  CHECK_CUDA(cudaDeviceGetCacheConfig(&cache));
  EXPECT_TRUE(cache == cudaFuncCachePreferL1, "cache config %d", static_cast<int>(cache));
  e = cudaDeviceSetCacheConfig(static_cast<cudaFuncCache>(7));
  EXPECT_TRUE(e == cudaErrorInvalidValue, "cache config 7: %s", cudaGetErrorName(e));
  cudaGetLastError();

  // 6. The driver API: cuLaunchCooperativeKernel and cuLaunchKernelEx on the kernels'
  //    CUfunctions.
  cudaFunction_t rfn = nullptr;
  CHECK_CUDA(cudaGetFuncBySymbol(&rfn, (const void*)neighbours));
  CUfunction fn = reinterpret_cast<CUfunction>(rfn);
  const char* dname = nullptr;
  CHECK_CU(cuFuncGetName(&dname, fn));
  EXPECT_TRUE(std::strcmp(dname, "_Z10neighboursPiS_S_") == 0, "driver name %s", dname);
  CUmodule module = nullptr;
  CHECK_CU(cuFuncGetModule(&module, fn));
  CUfunction again = nullptr;
  CHECK_CU(cuModuleGetFunction(&again, module, "_Z10neighboursPiS_S_"));
  EXPECT_TRUE(again == fn, "cuFuncGetModule's module holds the function");
  size_t doff = 0;
  CHECK_CU(cuFuncGetParamInfo(fn, 2, &doff, nullptr));
  EXPECT_TRUE(doff == 16, "driver param 2 offset %zu", doff);
  CHECK_CUDA(cudaMemset(out, 0, blocks * sizeof(int)));
  CHECK_CUDA(cudaMemset(valid, 0, sizeof(int)));
  void* args[] = {&slots, &out, &valid};
  CHECK_CU(cuLaunchCooperativeKernel(fn, blocks, 1, 1, 64, 1, 1, 0, nullptr, args));
  CHECK_CU(cuCtxSynchronize());
  CHECK_CUDA(cudaMemcpy(got.data(), out, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    EXPECT_TRUE(got[b] == ((b + 1) % blocks) * 10 + 1, "driver: block %d read %d", b, got[b]);
  }
  CUresult r = cuLaunchCooperativeKernel(fn, blocks + 1, 1, 1, 64, 1, 1, 0, nullptr, args);
  EXPECT_TRUE(r == CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, "driver too large: %d", r);
  CUlaunchAttribute dcoop;
  std::memset(&dcoop, 0, sizeof dcoop);
  dcoop.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
  dcoop.value.cooperative = 1;
  CUlaunchConfig dconfig = {};
  dconfig.gridDimX = blocks;
  dconfig.gridDimY = dconfig.gridDimZ = 1;
  dconfig.blockDimX = 64;
  dconfig.blockDimY = dconfig.blockDimZ = 1;
  dconfig.attrs = &dcoop;
  dconfig.numAttrs = 1;
  CHECK_CUDA(cudaMemset(valid, 0, sizeof(int)));
  CHECK_CU(cuLaunchKernelEx(&dconfig, fn, args, nullptr));
  CHECK_CU(cuCtxSynchronize());
  CHECK_CUDA(cudaMemcpy(&host_valid, valid, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(host_valid == 1, "is_valid() in a cooperative cuLaunchKernelEx");
  // The same through cuGetProcAddress (how the runtime's driver entry points resolve).
  void* pfn = nullptr;
  CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  CHECK_CU(cuGetProcAddress("cuLaunchKernelEx", &pfn, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &status));
  EXPECT_TRUE(pfn != nullptr && status == CU_GET_PROC_ADDRESS_SUCCESS, "cuGetProcAddress");
  using LaunchKernelEx = CUresult (*)(const CUlaunchConfig*, CUfunction, void**, void**);
  CHECK_CUDA(cudaMemset(valid, 0, sizeof(int)));
  CHECK_CU(reinterpret_cast<LaunchKernelEx>(pfn)(&dconfig, fn, args, nullptr));
  CHECK_CU(cuCtxSynchronize());
  CHECK_CUDA(cudaMemcpy(&host_valid, valid, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(host_valid == 1, "is_valid() through cuGetProcAddress(\"cuLaunchKernelEx\")");
  pfn = nullptr;
  CHECK_CU(cuGetProcAddress("cuLaunchCooperativeKernel", &pfn, 12000, CU_GET_PROC_ADDRESS_DEFAULT,
                            &status));
  EXPECT_TRUE(pfn != nullptr, "cuGetProcAddress(cuLaunchCooperativeKernel)");
  dcoop.id = static_cast<CUlaunchAttributeID>(15);
  r = cuLaunchKernelEx(&dconfig, fn, args, nullptr);
  EXPECT_TRUE(r == CUDA_ERROR_INVALID_VALUE, "driver unknown attribute: %d", r);
  CHECK_CU(cuCtxSetCacheConfig(CU_FUNC_CACHE_PREFER_EQUAL));
  CUfunc_cache dcache = CU_FUNC_CACHE_PREFER_NONE;
  CHECK_CU(cuCtxGetCacheConfig(&dcache));
  EXPECT_TRUE(dcache == CU_FUNC_CACHE_PREFER_EQUAL, "driver cache config %d", dcache);
  CHECK_CU(cuFuncSetCacheConfig(fn, CU_FUNC_CACHE_PREFER_L1));

  CHECK_CUDA(cudaStreamDestroy(stream));
  std::printf("PASS launch_ex\n");
  return 0;
}
