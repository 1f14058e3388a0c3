// CUDA virtual memory management through the driver API (linked with -lcuda), checked
// against the CUDA Driver API documentation: granularity, cuMemCreate of two physical
// chunks, cuMemAddressReserve, cuMemMap of both back to back, cuMemSetAccess, a kernel
// over the whole range, unmap and remap in the other order (the physical memory keeps
// its bytes), read-only access, handle retain/release, cuMemSetAccess on parts of
// mappings, the address hint of cuMemAddressReserve, the documented errors, memory
// of a second device made accessible to the first (with STRATA_DEVICES=2), and a fault
// when a kernel touches a mapped range whose access was never set.
#include <cuda.h>
#include <unistd.h>

#include <vector>

#include "test_check.h"

#define CHECK_CU(call)                                                                       \
  do {                                                                                       \
    CUresult r_ = (call);                                                                    \
    if (r_ != CUDA_SUCCESS) {                                                                \
      const char* name_ = nullptr;                                                           \
      cuGetErrorName(r_, &name_);                                                            \
      std::printf("FAIL %s:%d: %s -> %s\n", __FILE__, __LINE__, #call, name_ ? name_ : "?"); \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

#define EXPECT_CU(call, expected)                                                                \
  do {                                                                                           \
    CUresult r_ = (call);                                                                        \
    EXPECT_TRUE(r_ == (expected), "%s -> %d, expected %d (%s)", #call, (int)r_, (int)(expected), \
                #expected);                                                                      \
  } while (0)

__global__ void fill(unsigned* p, unsigned base, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) p[i] = base + (unsigned)i;
}

__global__ void add(unsigned* p, unsigned delta, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) p[i] += delta;
}

__global__ void sum_into(const unsigned* p, unsigned long long* out, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, (unsigned long long)p[i]);
}

static unsigned blocks(size_t n) {
  return (unsigned)((n + 255) / 256);
}

static void expect_range(const char* what, CUdeviceptr p, size_t n, unsigned base, unsigned delta) {
  std::vector<unsigned> h(n);
  CHECK_CUDA(cudaMemcpy(h.data(), (void*)p, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < n; ++i) {
    const unsigned want = base + (unsigned)i + delta;
    EXPECT_TRUE(h[i] == want, "%s: [%zu] = %u, expected %u", what, i, h[i], want);
  }
}

static CUmemAllocationProp device_prop(int device) {
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  return prop;
}

static void set_access(CUdeviceptr p, size_t size, int device, CUmemAccess_flags flags) {
  CUmemAccessDesc desc = {};
  desc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  desc.location.id = device;
  desc.flags = flags;
  CHECK_CU(cuMemSetAccess(p, size, &desc, 1));
}

int main() {
  CHECK_CUDA(cudaSetDevice(0));
  CHECK_CUDA(cudaFree(nullptr));  // the runtime's primary context is current from here on
  int devices = 0;
  CHECK_CUDA(cudaGetDeviceCount(&devices));

  int vmm_supported = 0;
  CHECK_CU(cuDeviceGetAttribute(&vmm_supported,
                                CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, 0));
  EXPECT_TRUE(vmm_supported == 1, "CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED = %d",
              vmm_supported);

  CUmemAllocationProp prop = device_prop(0);
  size_t granularity = 0, recommended = 0;
  CHECK_CU(cuMemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  CHECK_CU(
      cuMemGetAllocationGranularity(&recommended, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
  EXPECT_TRUE(granularity > 0 && (granularity & (granularity - 1)) == 0,
              "granularity %zu is not a power of two", granularity);
  EXPECT_TRUE(recommended >= granularity && recommended % granularity == 0,
              "recommended granularity %zu vs minimum %zu", recommended, granularity);
  EXPECT_CU(cuMemGetAllocationGranularity(&granularity, nullptr, CU_MEM_ALLOC_GRANULARITY_MINIMUM),
            CUDA_ERROR_INVALID_VALUE);

  // Two physical chunks: g and 2g bytes.
  const size_t g = granularity;
  const size_t size1 = g, size2 = 2 * g, total = size1 + size2;
  CUmemGenericAllocationHandle h1 = 0, h2 = 0;
  EXPECT_CU(cuMemCreate(&h1, g / 2, &prop, 0), CUDA_ERROR_INVALID_VALUE);  // not a multiple
  EXPECT_CU(cuMemCreate(&h1, g, &prop, 1), CUDA_ERROR_INVALID_VALUE);      // flags
  EXPECT_CU(cuMemCreate(&h1, g, nullptr, 0), CUDA_ERROR_INVALID_VALUE);
  CUmemAllocationProp bad_device = device_prop(devices + 3);
  EXPECT_CU(cuMemCreate(&h1, g, &bad_device, 0), CUDA_ERROR_INVALID_DEVICE);
  CHECK_CU(cuMemCreate(&h1, size1, &prop, 0));
  CHECK_CU(cuMemCreate(&h2, size2, &prop, 0));
  EXPECT_TRUE(h1 != h2, "two allocations share a handle");
  CUmemAllocationProp got = {};
  CHECK_CU(cuMemGetAllocationPropertiesFromHandle(&got, h2));
  EXPECT_TRUE(got.type == CU_MEM_ALLOCATION_TYPE_PINNED &&
                  got.location.type == CU_MEM_LOCATION_TYPE_DEVICE && got.location.id == 0,
              "properties from handle: type %d location %d/%d", (int)got.type,
              (int)got.location.type, got.location.id);

  // One reservation with room for both plus one spare granule.
  CUdeviceptr va = 0;
  EXPECT_CU(cuMemAddressReserve(&va, total + g, 0, 0, 1), CUDA_ERROR_INVALID_VALUE);  // flags
  CHECK_CU(cuMemAddressReserve(&va, total + g, 0, 0, 0));
  EXPECT_TRUE(va != 0 && va % g == 0, "reservation at %#llx", (unsigned long long)va);

  // Map both back to back, checking the mapping errors on the way.
  CHECK_CU(cuMemMap(va, size1, 0, h1, 0));
  EXPECT_CU(cuMemMap(va, size1, 0, h2, 0), CUDA_ERROR_INVALID_VALUE);              // already mapped
  EXPECT_CU(cuMemMap(va + size1, g / 2, 0, h2, 0), CUDA_ERROR_INVALID_VALUE);      // size
  EXPECT_CU(cuMemMap(va + size1, size2 + g, 0, h2, 0), CUDA_ERROR_INVALID_VALUE);  // > allocation
  EXPECT_CU(cuMemMap(va + size1, size2, 0, h2, 1), CUDA_ERROR_INVALID_VALUE);      // flags
  EXPECT_CU(cuMemMap(va + total + g, g, 0, h2, 0), CUDA_ERROR_INVALID_VALUE);      // outside
  CHECK_CU(cuMemMap(va + size1, size2, 0, h2, 0));

  // Access starts at none; set read-write for device 0 over the whole range.
  CUmemLocation dev0 = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
  unsigned long long flags = 99;
  CHECK_CU(cuMemGetAccess(&flags, &dev0, va));
  EXPECT_TRUE(flags == CU_MEM_ACCESS_FLAGS_PROT_NONE, "access before cuMemSetAccess: %llu", flags);
  CUmemAccessDesc desc = {};
  desc.location = dev0;
  desc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  EXPECT_CU(cuMemSetAccess(va, total + g, &desc, 1), CUDA_ERROR_INVALID_VALUE);  // unmapped tail
  EXPECT_CU(cuMemSetAccess(va, total, &desc, 0), CUDA_ERROR_INVALID_VALUE);
  set_access(va, total, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
  CHECK_CU(cuMemGetAccess(&flags, &dev0, va + size1 + 8));
  EXPECT_TRUE(flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE, "access after cuMemSetAccess: %llu",
              flags);

  // Kernels over the whole, contiguous range.
  const size_t n = total / sizeof(unsigned);
  unsigned* p = (unsigned*)va;
  fill<<<blocks(n), 256>>>(p, 1000, n);
  add<<<blocks(n), 256>>>(p, 3, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  expect_range("fill + add over both chunks", va, n, 1000, 3);

  cudaPointerAttributes pa = {};
  CHECK_CUDA(cudaPointerGetAttributes(&pa, (void*)(va + size1 + 64)));
  EXPECT_TRUE(pa.type == cudaMemoryTypeDevice && pa.device == 0,
              "attributes of VMM memory: type %d device %d", (int)pa.type, pa.device);

  // cuMemRetainAllocationHandle from any address of a mapping.
  CUmemGenericAllocationHandle again = 0;
  CHECK_CU(cuMemRetainAllocationHandle(&again, (void*)(va + size1 + 4)));
  EXPECT_TRUE(again == h2, "retained handle %llu, expected %llu", again, h2);
  CHECK_CU(cuMemRelease(again));
  EXPECT_CU(cuMemRetainAllocationHandle(&again, (void*)(va + total + 4)), CUDA_ERROR_INVALID_VALUE);

  // Unmapping must name whole mappings.
  EXPECT_CU(cuMemUnmap(va + size1, g), CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(cuMemUnmap(va, total));

  // Remap in the other order: chunk 2 first. The physical memory kept its bytes.
  CHECK_CU(cuMemMap(va, size2, 0, h2, 0));
  CHECK_CU(cuMemMap(va + size2, size1, 0, h1, 0));
  set_access(va, total, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
  const size_t n1 = size1 / sizeof(unsigned), n2 = size2 / sizeof(unsigned);
  expect_range("chunk 2 remapped first", va, n2, 1000 + (unsigned)n1, 3);
  expect_range("chunk 1 remapped second", va + size2, n1, 1000, 3);

  // Handles released while mapped: the memory stays until unmapped.
  CHECK_CU(cuMemRelease(h1));
  CHECK_CU(cuMemRelease(h2));
  add<<<blocks(n), 256>>>(p, 10, n);
  CHECK_CUDA(cudaDeviceSynchronize());
  expect_range("after cuMemRelease, still mapped", va + size2, n1, 1000, 13);

  // Read-only access: kernels may read.
  set_access(va, total, 0, CU_MEM_ACCESS_FLAGS_PROT_READ);
  CHECK_CU(cuMemGetAccess(&flags, &dev0, va));
  EXPECT_TRUE(flags == CU_MEM_ACCESS_FLAGS_PROT_READ, "access after PROT_READ: %llu", flags);
  unsigned long long* sum = nullptr;
  CHECK_CUDA(cudaMalloc(&sum, sizeof(unsigned long long)));
  CHECK_CUDA(cudaMemset(sum, 0, sizeof(unsigned long long)));
  sum_into<<<blocks(n1), 256>>>((const unsigned*)(va + size2), sum, n1);
  unsigned long long got_sum = 0;
  CHECK_CUDA(cudaMemcpy(&got_sum, sum, sizeof(got_sum), cudaMemcpyDeviceToHost));
  unsigned long long want_sum = 0;
  for (size_t i = 0; i < n1; ++i) want_sum += 1000 + i + 13;
  EXPECT_TRUE(got_sum == want_sum, "sum over read-only range %llu, expected %llu", got_sum,
              want_sum);

  CHECK_CU(cuMemUnmap(va, size2));
  CHECK_CU(cuMemUnmap(va + size2, size1));
  CHECK_CU(cuMemAddressFree(va, total + g));
  EXPECT_CU(cuMemAddressFree(va, total + g), CUDA_ERROR_INVALID_VALUE);

  // The address hint of cuMemAddressReserve: taken when the range is free and aligned,
  // otherwise the reservation lands elsewhere (still aligned, no error).
  CUdeviceptr probe = 0;
  CHECK_CU(cuMemAddressReserve(&probe, 4 * g, 0, 0, 0));
  CHECK_CU(cuMemAddressFree(probe, 4 * g));
  CUdeviceptr vs = 0;
  CHECK_CU(cuMemAddressReserve(&vs, 4 * g, 0, probe, 0));
  EXPECT_TRUE(vs == probe, "hint %#llx not taken: reserved at %#llx", (unsigned long long)probe,
              (unsigned long long)vs);
  CUdeviceptr taken = 0, misaligned = 0;
  CHECK_CU(cuMemAddressReserve(&taken, g, 0, vs + g, 0));  // inside the reservation
  EXPECT_TRUE(taken != 0 && taken % g == 0 && (taken + g <= vs || taken >= vs + 4 * g),
              "hint inside a reservation: got %#llx", (unsigned long long)taken);
  CHECK_CU(cuMemAddressReserve(&misaligned, g, 0, taken + g + g / 2, 0));
  EXPECT_TRUE(misaligned != 0 && misaligned % g == 0, "misaligned hint: got %#llx",
              (unsigned long long)misaligned);
  CHECK_CU(cuMemAddressFree(taken, g));
  CHECK_CU(cuMemAddressFree(misaligned, g));

  // cuMemSetAccess on parts of mappings: two mappings of 2g back to back, access set on
  // a range straddling them, then on the whole, then read-only on part of the second.
  CUmemGenericAllocationHandle ha = 0, hb = 0;
  CHECK_CU(cuMemCreate(&ha, 2 * g, &prop, 0));
  CHECK_CU(cuMemCreate(&hb, 2 * g, &prop, 0));
  CHECK_CU(cuMemMap(vs, 2 * g, 0, ha, 0));
  CHECK_CU(cuMemMap(vs + 2 * g, 2 * g, 0, hb, 0));
  EXPECT_CU(cuMemSetAccess(vs + g / 2, g, &desc, 1), CUDA_ERROR_INVALID_VALUE);  // unaligned
  set_access(vs + g, 2 * g, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
  const unsigned long long want_access[4] = {
      CU_MEM_ACCESS_FLAGS_PROT_NONE, CU_MEM_ACCESS_FLAGS_PROT_READWRITE,
      CU_MEM_ACCESS_FLAGS_PROT_READWRITE, CU_MEM_ACCESS_FLAGS_PROT_NONE};
  for (int k = 0; k < 4; ++k) {
    CHECK_CU(cuMemGetAccess(&flags, &dev0, vs + k * g + 16));
    EXPECT_TRUE(flags == want_access[k], "granule %d access %llu, expected %llu", k, flags,
                want_access[k]);
  }
  const size_t ng = g / sizeof(unsigned);
  fill<<<blocks(2 * ng), 256>>>((unsigned*)(vs + g), 50, 2 * ng);
  CHECK_CUDA(cudaDeviceSynchronize());
  expect_range("straddling sub-range", vs + g, 2 * ng, 50, 0);
  set_access(vs, 4 * g, 0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
  fill<<<blocks(4 * ng), 256>>>((unsigned*)vs, 9, 4 * ng);
  CHECK_CUDA(cudaDeviceSynchronize());
  expect_range("whole split range", vs, 4 * ng, 9, 0);
  set_access(vs + 3 * g, g, 0, CU_MEM_ACCESS_FLAGS_PROT_READ);
  CHECK_CU(cuMemGetAccess(&flags, &dev0, vs + 3 * g));
  EXPECT_TRUE(flags == CU_MEM_ACCESS_FLAGS_PROT_READ, "read-only part: %llu", flags);
  CHECK_CU(cuMemGetAccess(&flags, &dev0, vs + 2 * g));
  EXPECT_TRUE(flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE, "rest of the mapping: %llu", flags);
  add<<<blocks(ng), 256>>>((unsigned*)(vs + 2 * g), 5, ng);
  CHECK_CUDA(cudaMemset(sum, 0, sizeof(unsigned long long)));
  sum_into<<<blocks(ng), 256>>>((const unsigned*)(vs + 3 * g), sum, ng);
  CHECK_CUDA(cudaDeviceSynchronize());
  expect_range("writable part after the split", vs + 2 * g, ng, 9 + 2 * (unsigned)ng, 5);
  CHECK_CUDA(cudaMemcpy(&got_sum, sum, sizeof(got_sum), cudaMemcpyDeviceToHost));
  want_sum = 0;
  for (size_t i = 0; i < ng; ++i) want_sum += 9 + 3 * ng + i;
  EXPECT_TRUE(got_sum == want_sum, "sum over the read-only part %llu, expected %llu", got_sum,
              want_sum);
  // cuMemUnmap still takes whole cuMemMap ranges, however cuMemSetAccess split them.
  EXPECT_CU(cuMemUnmap(vs + 3 * g, g), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU(cuMemUnmap(vs + g, 2 * g), CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(cuMemUnmap(vs + 2 * g, 2 * g));
  CHECK_CU(cuMemUnmap(vs, 2 * g));
  CHECK_CU(cuMemRelease(ha));
  CHECK_CU(cuMemRelease(hb));
  CHECK_CU(cuMemAddressFree(vs, 4 * g));

  // Shareable handles: exported on a GPU, cleanly refused by Strata.
  CUmemAllocationProp fd_prop = device_prop(0);
  fd_prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  CUmemGenericAllocationHandle hfd = 0;
  CHECK_CU(cuMemCreate(&hfd, g, &fd_prop, 0));
  int fd = -1;
  CUresult exported =
      cuMemExportToShareableHandle(&fd, hfd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
  EXPECT_TRUE(exported == CUDA_SUCCESS || exported == CUDA_ERROR_NOT_SUPPORTED,
              "cuMemExportToShareableHandle -> %d", (int)exported);
  if (exported == CUDA_SUCCESS) close(fd);
  CHECK_CU(cuMemRelease(hfd));

  // Memory of device 1, accessible to device 0 (peer access through VMM).
  if (devices >= 2) {
    CUmemAllocationProp prop1 = device_prop(1);
    CUmemGenericAllocationHandle hp = 0;
    CHECK_CU(cuMemCreate(&hp, g, &prop1, 0));
    CUdeviceptr vp = 0;
    CHECK_CU(cuMemAddressReserve(&vp, g, 0, 0, 0));
    CHECK_CU(cuMemMap(vp, g, 0, hp, 0));
    CUmemAccessDesc both[2] = {};
    for (int d = 0; d < 2; ++d) {
      both[d].location.type = CU_MEM_LOCATION_TYPE_DEVICE;
      both[d].location.id = d;
      both[d].flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    }
    CHECK_CU(cuMemSetAccess(vp, g, both, 2));
    const size_t np = g / sizeof(unsigned);
    fill<<<blocks(np), 256>>>((unsigned*)vp, 7, np);  // device 0 writes device 1's memory
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaSetDevice(1));
    add<<<blocks(np), 256>>>((unsigned*)vp, 1, np);  // device 1 updates its own
    CHECK_CUDA(cudaDeviceSynchronize());
    expect_range("device 1 memory written by device 0", vp, np, 7, 1);
    CHECK_CUDA(cudaSetDevice(0));
    CHECK_CU(cuMemUnmap(vp, g));
    CHECK_CU(cuMemAddressFree(vp, g));
    CHECK_CU(cuMemRelease(hp));
    std::printf("two devices: ok\n");
  }

  // Mapped but no access set: a kernel touching it faults.
  CUmemGenericAllocationHandle h3 = 0;
  CUdeviceptr v3 = 0;
  CHECK_CU(cuMemCreate(&h3, g, &prop, 0));
  CHECK_CU(cuMemAddressReserve(&v3, g, 0, 0, 0));
  CHECK_CU(cuMemMap(v3, g, 0, h3, 0));
  fill<<<1, 32>>>((unsigned*)v3, 0, 32);
  cudaError_t fault = cudaDeviceSynchronize();
  EXPECT_TRUE(fault == cudaErrorIllegalAddress, "kernel on a range without access -> %s",
              cudaGetErrorName(fault));
  std::printf("PASS vmm_driver\n");
  return 0;
}
