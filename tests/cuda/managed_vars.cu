// __managed__ variables (nvcc: __cudaRegisterManagedVar + __cudaInitModule; PTX
// `.global .attribute(.managed)`): one address for host and device code, initialisers
// visible at first use from either side, kernels reading and atomically updating what the
// host wrote, arrays and structs, the symbol APIs on a managed variable, and (with two or
// more devices, STRATA_DEVICES=2) one address on every device. Also the driver API:
// cuModuleGetGlobal of a managed variable of PTX loaded with cuModuleLoadData,
// CU_POINTER_ATTRIBUTE_IS_MANAGED, cuMemAllocManaged with cuMemAdvise /
// cuMemPrefetchAsync / cuMemRangeGetAttribute, and the CUDA 13 batch calls (linked
// against the toolkit's libcuda stub, resolved at run time to Strata's libcuda.so.1).
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstring>

#include "test_check.h"

#define EXPECT_ERROR(call, expected)                                                        \
  do {                                                                                      \
    cudaError_t got_ = (call);                                                              \
    EXPECT_TRUE(got_ == (expected), "%s -> %s, expected %s", #call, cudaGetErrorName(got_), \
                cudaGetErrorName(expected));                                                \
    cudaGetLastError();                                                                     \
  } while (0)

struct Particle {
  int id;
  float mass;
  double position[2];
};

__managed__ int device_first = 42;  // first touched by a kernel
__managed__ int device_first_copy;  // zero-initialised
__managed__ int counter = 5;
__managed__ int table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
__managed__ Particle particle = {7, 1.5f, {0.25, -2.0}};
__managed__ unsigned long long big;

__global__ void copy_device_first() {
  device_first_copy = device_first + 1;
}

__global__ void bump(int times) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < times) atomicAdd(&counter, 1);
}

__global__ void scale_table(int factor) {
  int i = threadIdx.x;
  if (i < 8) table[i] = table[i] * factor + i;
}

__global__ void move_particle(float dm) {
  particle.id += 1;
  particle.mass += dm;
  particle.position[0] *= 4.0;
  particle.position[1] += 1.0;
}

__global__ void write_through(int* p, int value) {
  *p = value;
}

__global__ void add_big(unsigned long long v) {
  atomicAdd(&big, v);
}

#define CHECK_CU(call)                                               \
  do {                                                               \
    CUresult check_cu_result_ = (call);                              \
    EXPECT_TRUE(check_cu_result_ == CUDA_SUCCESS, "%s -> %d", #call, \
                static_cast<int>(check_cu_result_));                 \
  } while (0)
#define EXPECT_CU(call, expected)                                                                 \
  do {                                                                                            \
    CUresult got_cu_ = (call);                                                                    \
    EXPECT_TRUE(got_cu_ == (expected), "%s -> %d, expected %d", #call, static_cast<int>(got_cu_), \
                static_cast<int>(expected));                                                      \
  } while (0)

// A module with a managed variable, written by hand (PTX ISA: .attribute(.managed)).
static const char kManagedPtx[] = R"(
.version 8.0
.target sm_80
.address_size 64
.global .attribute(.managed) .align 4 .u32 hits = 17;
.visible .entry hit()
{
  .reg .b64 %rd<2>;
  .reg .b32 %r<3>;
  mov.u64 %rd1, hits;
  ld.global.u32 %r1, [%rd1];
  add.s32 %r2, %r1, 1;
  st.global.u32 [%rd1], %r2;
  ret;
}
)";

static bool is_managed(const void* p) {
  unsigned int managed = 2;
  CHECK_CU(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                 reinterpret_cast<CUdeviceptr>(p)));
  return managed == 1;
}

static int range_int(CUdeviceptr p, size_t bytes, CUmem_range_attribute attribute) {
  int value = -100;
  CHECK_CU(cuMemRangeGetAttribute(&value, sizeof(value), attribute, p, bytes));
  return value;
}

static void driver_api_checks() {
  CUcontext context = nullptr;
  CHECK_CU(cuCtxGetCurrent(&context));
  EXPECT_TRUE(context != nullptr, "the runtime made a context current");
  CUdevice device = 0;
  CHECK_CU(cuCtxGetDevice(&device));
  int managed_memory = 0;
  CHECK_CU(cuDeviceGetAttribute(&managed_memory, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, device));
  EXPECT_TRUE(managed_memory == 1, "CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY = %d", managed_memory);

  // Managed variables from the runtime and plain device memory.
  EXPECT_TRUE(is_managed(&counter) && is_managed(&table[7]), "__managed__ is managed");
  int* plain = nullptr;
  CHECK_CUDA(cudaMalloc(&plain, 64));
  EXPECT_TRUE(!is_managed(plain), "cudaMalloc memory is not managed");
  CHECK_CUDA(cudaFree(plain));

  // cuModuleGetGlobal of a managed variable: the host reads the initialiser at the
  // returned address, and a kernel's update is visible there. Two loads in one context
  // have their own variables.
  CUmodule modules[2];
  CUdeviceptr hits[2];
  for (int i = 0; i < 2; ++i) {
    CHECK_CU(cuModuleLoadData(&modules[i], kManagedPtx));
    size_t bytes = 0;
    CHECK_CU(cuModuleGetGlobal(&hits[i], &bytes, modules[i], "hits"));
    EXPECT_TRUE(bytes == 4, "cuModuleGetGlobal size %zu", bytes);
    EXPECT_TRUE(is_managed(reinterpret_cast<void*>(hits[i])), "module global is managed");
    EXPECT_TRUE(*reinterpret_cast<unsigned*>(hits[i]) == 17, "hits initialiser = %u",
                *reinterpret_cast<unsigned*>(hits[i]));
  }
  EXPECT_TRUE(hits[0] != hits[1], "two loads in one context share a managed variable");
  CUfunction hit = nullptr;
  CHECK_CU(cuModuleGetFunction(&hit, modules[1], "hit"));
  *reinterpret_cast<unsigned*>(hits[1]) = 100;  // host write, then the kernel's increment
  CHECK_CU(cuLaunchKernel(hit, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, nullptr));
  CHECK_CU(cuCtxSynchronize());
  EXPECT_TRUE(
      *reinterpret_cast<unsigned*>(hits[1]) == 101 && *reinterpret_cast<unsigned*>(hits[0]) == 17,
      "hits after launch: %u %u", *reinterpret_cast<unsigned*>(hits[0]),
      *reinterpret_cast<unsigned*>(hits[1]));
  for (CUmodule m : modules) CHECK_CU(cuModuleUnload(m));

  // cuMemAllocManaged and the hints.
  CUdeviceptr managed = 0;
  const size_t bytes = 3 * 4096 + 12;
  CHECK_CU(cuMemAllocManaged(&managed, bytes, CU_MEM_ATTACH_GLOBAL));
  EXPECT_TRUE(is_managed(reinterpret_cast<void*>(managed + bytes - 1)), "allocation end");
  std::memset(reinterpret_cast<void*>(managed), 0x5a, bytes);  // host access
  CUdeviceptr bad = 0;
  EXPECT_CU(cuMemAllocManaged(&bad, 0, CU_MEM_ATTACH_GLOBAL), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU(cuMemAllocManaged(&bad, 16, CU_MEM_ATTACH_SINGLE), CUDA_ERROR_INVALID_VALUE);
  CUmemLocation gpu{CU_MEM_LOCATION_TYPE_DEVICE, static_cast<int>(device)};
  CUmemLocation host{CU_MEM_LOCATION_TYPE_HOST, 0};
  CHECK_CU(cuMemAdvise(managed, bytes, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, gpu));
  CHECK_CU(cuMemAdvise(managed + 4096, 8, CU_MEM_ADVISE_SET_READ_MOSTLY, host));
  CHECK_CU(cuMemPrefetchAsync(managed, bytes, host, 0, nullptr));
  EXPECT_TRUE(range_int(managed, bytes, CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION) ==
                  static_cast<int>(device),
              "preferred location");
  EXPECT_TRUE(range_int(managed, bytes, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY) == 1, "read mostly");
  EXPECT_TRUE(
      range_int(managed, bytes, CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION) == CU_DEVICE_CPU,
      "last prefetch location");
  EXPECT_CU(cuMemAdvise(managed, bytes + 1, CU_MEM_ADVISE_SET_READ_MOSTLY, host),
            CUDA_ERROR_INVALID_VALUE);
  CUmemLocation nowhere{CU_MEM_LOCATION_TYPE_DEVICE, 4096};
  EXPECT_CU(cuMemPrefetchAsync(managed, bytes, nowhere, 0, nullptr), CUDA_ERROR_INVALID_DEVICE);
  // The batch calls need concurrent managed access (cuda.h), which Strata reports as 0.
  int concurrent = -1;
  CHECK_CU(
      cuDeviceGetAttribute(&concurrent, CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, device));
  CUstream stream = nullptr;
  CHECK_CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  CUdeviceptr ptrs[1] = {managed};
  size_t sizes[1] = {bytes};
  size_t first[1] = {0};
  if (concurrent == 0) {
    EXPECT_CU(cuMemPrefetchBatchAsync(ptrs, sizes, 1, &gpu, first, 1, 0, stream),
              CUDA_ERROR_NOT_SUPPORTED);
    EXPECT_CU(cuMemDiscardBatchAsync(ptrs, sizes, 1, 0, stream), CUDA_ERROR_NOT_SUPPORTED);
  }
  EXPECT_CU(cuMemDiscardBatchAsync(ptrs, sizes, 1, 1, stream), CUDA_ERROR_INVALID_VALUE);
  // The entry points through cuGetProcAddress, under the names cuda.h binds.
  void* advise = nullptr;
  CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  CHECK_CU(cuGetProcAddress("cuMemAdvise", &advise, 12020, CU_GET_PROC_ADDRESS_DEFAULT, &found));
  EXPECT_TRUE(found == CU_GET_PROC_ADDRESS_SUCCESS && advise != nullptr, "cuMemAdvise: %d",
              static_cast<int>(found));
  using AdviseFn = CUresult (*)(CUdeviceptr, size_t, CUmem_advise, CUmemLocation);
  CHECK_CU(
      reinterpret_cast<AdviseFn>(advise)(managed, bytes, CU_MEM_ADVISE_UNSET_READ_MOSTLY, host));
  EXPECT_TRUE(range_int(managed, bytes, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY) == 0,
              "read mostly after cuMemAdvise through cuGetProcAddress");
  for (const char* name : {"cuMemAllocManaged", "cuMemPrefetchAsync", "cuStreamAttachMemAsync",
                           "cuMemRangeGetAttribute", "cuMemRangeGetAttributes"}) {
    for (cuuint64_t flags :
         {CU_GET_PROC_ADDRESS_DEFAULT, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM}) {
      void* fn = nullptr;
      CHECK_CU(cuGetProcAddress(name, &fn, 13000, flags, &found));
      EXPECT_TRUE(found == CU_GET_PROC_ADDRESS_SUCCESS && fn != nullptr, "%s (flags %llu): %d",
                  name, static_cast<unsigned long long>(flags), static_cast<int>(found));
    }
  }
  CHECK_CU(cuStreamAttachMemAsync(stream, managed, 0, CU_MEM_ATTACH_HOST));
  CHECK_CU(cuStreamSynchronize(stream));
  CHECK_CU(cuStreamDestroy(stream));
  CHECK_CU(cuMemFree(managed));
  EXPECT_CU(cuMemRangeGetAttribute(&concurrent, 4, CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, managed, 4),
            CUDA_ERROR_INVALID_VALUE);
}

int main() {
  // 1. Device first: the kernel sees the initialiser before the host touches anything.
  copy_device_first<<<1, 1>>>();
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  EXPECT_TRUE(device_first_copy == 43, "device_first_copy = %d, expected 43", device_first_copy);

  // 2. Host reads the initialisers.
  EXPECT_TRUE(counter == 5, "counter = %d, expected 5", counter);
  for (int i = 0; i < 8; ++i) EXPECT_TRUE(table[i] == i + 1, "table[%d] = %d", i, table[i]);
  EXPECT_TRUE(particle.id == 7 && particle.mass == 1.5f && particle.position[0] == 0.25 &&
                  particle.position[1] == -2.0,
              "particle initialiser {%d, %f, %f, %f}", particle.id, particle.mass,
              particle.position[0], particle.position[1]);
  EXPECT_TRUE(big == 0, "big = %llu, expected 0", big);

  // 3. Host writes, kernels read and update atomically, host reads after synchronising.
  counter = 1000;
  bump<<<4, 64>>>(250);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  EXPECT_TRUE(counter == 1250, "counter = %d, expected 1250", counter);

  int expected_table[8];
  for (int i = 0; i < 8; ++i) {
    table[i] = 10 * i;
    expected_table[i] = 10 * i * 3 + i;
  }
  scale_table<<<1, 8>>>(3);
  move_particle<<<1, 1>>>(0.5f);
  CHECK_CUDA(cudaDeviceSynchronize());
  for (int i = 0; i < 8; ++i) {
    EXPECT_TRUE(table[i] == expected_table[i], "table[%d] = %d, expected %d", i, table[i],
                expected_table[i]);
  }
  EXPECT_TRUE(particle.id == 8 && particle.mass == 2.0f && particle.position[0] == 1.0 &&
                  particle.position[1] == -1.0,
              "particle after kernel {%d, %f, %f, %f}", particle.id, particle.mass,
              particle.position[0], particle.position[1]);

  // 4. The host address of the variable is usable by kernels (one address).
  write_through<<<1, 1>>>(&counter, -7);
  CHECK_CUDA(cudaDeviceSynchronize());
  EXPECT_TRUE(counter == -7, "counter = %d after write_through, expected -7", counter);

  // 5. Symbol APIs on managed variables.
  void* address = nullptr;
  CHECK_CUDA(cudaGetSymbolAddress(&address, counter));
  EXPECT_TRUE(address == &counter, "cudaGetSymbolAddress(counter) = %p, host &counter = %p",
              address, static_cast<void*>(&counter));
  size_t size = 0;
  CHECK_CUDA(cudaGetSymbolSize(&size, table));
  EXPECT_TRUE(size == sizeof(int) * 8, "cudaGetSymbolSize(table) = %zu", size);
  CHECK_CUDA(cudaGetSymbolSize(&size, particle));
  EXPECT_TRUE(size == sizeof(Particle), "cudaGetSymbolSize(particle) = %zu", size);

  int value = 31337;
  CHECK_CUDA(cudaMemcpyToSymbol(counter, &value, sizeof(value)));
  EXPECT_TRUE(counter == 31337, "counter = %d after cudaMemcpyToSymbol", counter);
  int pair[2] = {-1, -2};
  CHECK_CUDA(cudaMemcpyToSymbol(table, pair, sizeof(pair), 3 * sizeof(int)));
  EXPECT_TRUE(table[3] == -1 && table[4] == -2 && table[2] == expected_table[2] &&
                  table[5] == expected_table[5],
              "table after cudaMemcpyToSymbol at offset: %d %d %d %d", table[2], table[3], table[4],
              table[5]);
  Particle read_back{};
  CHECK_CUDA(cudaMemcpyFromSymbol(&read_back, particle, sizeof(Particle)));
  EXPECT_TRUE(read_back.id == 8 && read_back.position[0] == 1.0,
              "cudaMemcpyFromSymbol(particle) {%d, %f}", read_back.id, read_back.position[0]);
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  value = 77;
  CHECK_CUDA(
      cudaMemcpyToSymbolAsync(counter, &value, sizeof(value), 0, cudaMemcpyHostToDevice, stream));
  bump<<<1, 32, 0, stream>>>(3);
  int after = 0;
  CHECK_CUDA(
      cudaMemcpyFromSymbolAsync(&after, counter, sizeof(after), 0, cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  EXPECT_TRUE(after == 80 && counter == 80, "async symbol copies: %d %d, expected 80", after,
              counter);
  EXPECT_ERROR(cudaMemcpyToSymbol(counter, pair, sizeof(pair)), cudaErrorInvalidValue);

  // 6. Pointer attributes: managed memory.
  cudaPointerAttributes attributes{};
  CHECK_CUDA(cudaPointerGetAttributes(&attributes, &table[2]));
  EXPECT_TRUE(attributes.type == cudaMemoryTypeManaged, "table is memory type %d",
              static_cast<int>(attributes.type));
  EXPECT_TRUE(attributes.devicePointer == &table[2] && attributes.hostPointer == &table[2],
              "managed aliases %p %p", attributes.devicePointer, attributes.hostPointer);

  // 7. 64-bit atomics on a zero-initialised managed variable.
  add_big<<<2, 128>>>(1ull << 33);
  CHECK_CUDA(cudaDeviceSynchronize());
  EXPECT_TRUE(big == 256ull << 33, "big = %llu, expected %llu", big, 256ull << 33);

  // 8. The driver API view.
  driver_api_checks();

  // 9. More devices: the same managed address everywhere.
  int devices = 0;
  CHECK_CUDA(cudaGetDeviceCount(&devices));
  for (int device = 1; device < devices; ++device) {
    CHECK_CUDA(cudaSetDevice(device));
    void* there = nullptr;
    CHECK_CUDA(cudaGetSymbolAddress(&there, counter));
    EXPECT_TRUE(there == &counter, "device %d: counter at %p, host sees %p", device, there,
                static_cast<void*>(&counter));
    counter = 100 * device;
    bump<<<1, 64>>>(10);
    scale_table<<<1, 8>>>(1);
    CHECK_CUDA(cudaDeviceSynchronize());
    EXPECT_TRUE(counter == 100 * device + 10, "device %d: counter = %d", device, counter);
    int* allocated = nullptr;  // cudaMallocManaged memory is also usable on every device
    CHECK_CUDA(cudaMallocManaged(&allocated, sizeof(int)));
    CHECK_CUDA(cudaSetDevice(0));
    write_through<<<1, 1>>>(allocated, 5);
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaSetDevice(device));
    write_through<<<1, 1>>>(allocated, *allocated + device);
    CHECK_CUDA(cudaDeviceSynchronize());
    EXPECT_TRUE(*allocated == 5 + device, "device %d: allocated = %d", device, *allocated);
    CHECK_CUDA(cudaFree(allocated));
  }
  CHECK_CUDA(cudaSetDevice(0));
  std::printf("devices: %d\n", devices);

  // 10. After cudaDeviceReset the variable is still where host code finds it.
  CHECK_CUDA(cudaStreamDestroy(stream));
  CHECK_CUDA(cudaDeviceReset());
  volatile int touched = counter;  // host access right after the reset
  (void)touched;
  bump<<<1, 32>>>(1);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaGetSymbolAddress(&address, counter));
  EXPECT_TRUE(address == &counter, "after reset: cudaGetSymbolAddress %p, host &counter %p",
              address, static_cast<void*>(&counter));
  counter = 9;
  bump<<<1, 32>>>(2);
  CHECK_CUDA(cudaDeviceSynchronize());
  EXPECT_TRUE(counter == 11, "after reset: counter = %d, expected 11", counter);

  std::printf("PASS managed_vars\n");
  return 0;
}
