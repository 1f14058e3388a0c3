// Stream-ordered pool memory across two devices (run with STRATA_DEVICES=2), checked
// against the CUDA programming guide's stream-ordered allocator chapter and the runtime
// API reference: cudaMemPoolSetAccess / cudaMemPoolGetAccess (the pool's own device
// always has read-write access; a grant maps the pool's present and future blocks for
// the other device's kernels; read-only grants; revoking; invalid locations and flags
// are cudaErrorInvalidValue), kernels of device 0 loading, storing and atomically
// updating device 1's pool memory, a stream of device 0 allocating from device 1's pool,
// and copies between pool memory of the two devices
// (cudaMemcpyPeer, cudaMemcpyPeerAsync, cudaMemcpy with cudaMemcpyDefault), which need
// no access. The driver API's cuMemPoolSetAccess / cuMemPoolGetAccess are checked too.
//
// With MEM_POOLS_PEER_FAULT=peer it checks instead that pool memory does not follow
// cudaDeviceEnablePeerAccess (a kernel of device 0 faults on device 1's pool memory),
// and with MEM_POOLS_PEER_FAULT=revoked that a revoked grant unmaps it. Expected values
// are computed on the host.
#include <cuda.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "test_check.h"

#define EXPECT_ERROR(call, expected)                                                    \
  do {                                                                                  \
    cudaError_t e_ = (call);                                                            \
    EXPECT_TRUE(e_ == (expected), "%s -> %s, expected %s", #call, cudaGetErrorName(e_), \
                cudaGetErrorName(expected));                                            \
    (void)cudaGetLastError();                                                           \
  } while (0)

constexpr int kN = 2000;

__global__ void fill(int* p, int base, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = base + i;
}

// Runs on device 0 over device 1's pool memory.
__global__ void touch(const int* in, int* out, int* counter, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = in[i] * 3 + 1;
    atomicAdd(counter, 1);
  }
}

__global__ void sum_into(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, in[i]);
}

static int blocks(int n) {
  return (n + 255) / 256;
}

static cudaMemAccessDesc desc_for(int device, cudaMemAccessFlags flags) {
  cudaMemAccessDesc desc;
  std::memset(&desc, 0, sizeof(desc));
  desc.location.type = cudaMemLocationTypeDevice;
  desc.location.id = device;
  desc.flags = flags;
  return desc;
}

static cudaMemAccessFlags access_of(cudaMemPool_t pool, int device) {
  cudaMemLocation location;
  std::memset(&location, 0, sizeof(location));
  location.type = cudaMemLocationTypeDevice;
  location.id = device;
  cudaMemAccessFlags flags = cudaMemAccessFlagsProtRead;
  CHECK_CUDA(cudaMemPoolGetAccess(&flags, pool, &location));
  return flags;
}

static void check_values(const std::vector<int>& got, int base, int mul, int add,
                         const char* what) {
  for (int i = 0; i < static_cast<int>(got.size()); ++i) {
    const int want = (base + i) * mul + add;
    EXPECT_TRUE(got[i] == want, "%s[%d] = %d, expected %d", what, i, got[i], want);
  }
}

// Device 0's kernel touches device 1's pool block; expects a fault.
static int expect_fault(const char* mode) {
  cudaMemPool_t pool1;
  CHECK_CUDA(cudaDeviceGetDefaultMemPool(&pool1, 1));
  CHECK_CUDA(cudaSetDevice(1));
  cudaStream_t s1;
  CHECK_CUDA(cudaStreamCreate(&s1));
  int* block = nullptr;
  CHECK_CUDA(cudaMallocAsync(&block, kN * sizeof(int), s1));
  fill<<<blocks(kN), 256, 0, s1>>>(block, 0, kN);
  CHECK_CUDA(cudaStreamSynchronize(s1));
  CHECK_CUDA(cudaSetDevice(0));
  if (std::strcmp(mode, "peer") == 0) {
    // Peer access between the devices does not reach pool memory.
    CHECK_CUDA(cudaDeviceEnablePeerAccess(1, 0));
  } else {
    cudaMemAccessDesc grant = desc_for(0, cudaMemAccessFlagsProtReadWrite);
    CHECK_CUDA(cudaMemPoolSetAccess(pool1, &grant, 1));
    cudaMemAccessDesc revoke = desc_for(0, cudaMemAccessFlagsProtNone);
    CHECK_CUDA(cudaMemPoolSetAccess(pool1, &revoke, 1));
    EXPECT_TRUE(access_of(pool1, 0) == cudaMemAccessFlagsProtNone, "access not revoked");
  }
  int* local = nullptr;
  CHECK_CUDA(cudaMalloc(&local, kN * sizeof(int)));
  touch<<<blocks(kN), 256>>>(block, local, local, kN);
  cudaError_t e = cudaDeviceSynchronize();
  EXPECT_TRUE(e == cudaErrorIllegalAddress, "kernel on pool memory without access: %s",
              cudaGetErrorName(e));
  std::printf("PASS mem_pools_peer fault %s\n", mode);
  return 0;
}

int main() {
  int count = 0;
  CHECK_CUDA(cudaGetDeviceCount(&count));
  EXPECT_TRUE(count >= 2, "needs two devices (STRATA_DEVICES=2), found %d", count);
  if (const char* mode = std::getenv("MEM_POOLS_PEER_FAULT")) return expect_fault(mode);

  cudaMemPool_t pool1;
  CHECK_CUDA(cudaDeviceGetDefaultMemPool(&pool1, 1));

  // The owner always has read-write access; other devices none until granted.
  EXPECT_TRUE(access_of(pool1, 1) == cudaMemAccessFlagsProtReadWrite, "owner access");
  EXPECT_TRUE(access_of(pool1, 0) == cudaMemAccessFlagsProtNone, "initial peer access");

  // Invalid descriptors change nothing.
  cudaMemAccessDesc bad = desc_for(0, cudaMemAccessFlagsProtReadWrite);
  bad.location.type = cudaMemLocationTypeInvalid;
  EXPECT_ERROR(cudaMemPoolSetAccess(pool1, &bad, 1), cudaErrorInvalidValue);
  bad = desc_for(count + 5, cudaMemAccessFlagsProtReadWrite);
  EXPECT_ERROR(cudaMemPoolSetAccess(pool1, &bad, 1), cudaErrorInvalidValue);
  bad = desc_for(0, static_cast<cudaMemAccessFlags>(0x10));
  EXPECT_ERROR(cudaMemPoolSetAccess(pool1, &bad, 1), cudaErrorInvalidValue);
  bad = desc_for(1, cudaMemAccessFlagsProtNone);  // the owner cannot lose access
  EXPECT_ERROR(cudaMemPoolSetAccess(pool1, &bad, 1), cudaErrorInvalidValue);
  cudaMemAccessDesc pair[2] = {desc_for(0, cudaMemAccessFlagsProtReadWrite),
                               desc_for(count + 5, cudaMemAccessFlagsProtReadWrite)};
  EXPECT_ERROR(cudaMemPoolSetAccess(pool1, pair, 2), cudaErrorInvalidValue);
  EXPECT_TRUE(access_of(pool1, 0) == cudaMemAccessFlagsProtNone, "access after failed set");
  cudaMemLocation bad_location;
  std::memset(&bad_location, 0, sizeof(bad_location));
  bad_location.type = cudaMemLocationTypeDevice;
  bad_location.id = count + 5;
  cudaMemAccessFlags flags;
  EXPECT_ERROR(cudaMemPoolGetAccess(&flags, pool1, &bad_location), cudaErrorInvalidValue);
  // Granting the owner read-write is allowed (it has it).
  cudaMemAccessDesc owner = desc_for(1, cudaMemAccessFlagsProtReadWrite);
  CHECK_CUDA(cudaMemPoolSetAccess(pool1, &owner, 1));

  // A block allocated before the grant and one after it.
  CHECK_CUDA(cudaSetDevice(1));
  cudaStream_t s1;
  CHECK_CUDA(cudaStreamCreate(&s1));
  int *before = nullptr, *after = nullptr, *counter = nullptr;
  CHECK_CUDA(cudaMallocAsync(&before, kN * sizeof(int), s1));
  fill<<<blocks(kN), 256, 0, s1>>>(before, 100, kN);
  CHECK_CUDA(cudaStreamSynchronize(s1));

  cudaMemAccessDesc grant = desc_for(0, cudaMemAccessFlagsProtReadWrite);
  CHECK_CUDA(cudaMemPoolSetAccess(pool1, &grant, 1));
  EXPECT_TRUE(access_of(pool1, 0) == cudaMemAccessFlagsProtReadWrite, "granted access");
  CHECK_CUDA(cudaMallocAsync(&after, kN * sizeof(int), s1));
  CHECK_CUDA(cudaMallocAsync(&counter, sizeof(int), s1));
  CHECK_CUDA(cudaMemsetAsync(counter, 0, sizeof(int), s1));
  CHECK_CUDA(cudaStreamSynchronize(s1));

  // Device 0's kernel loads, stores and atomically updates device 1's pool memory.
  CHECK_CUDA(cudaSetDevice(0));
  touch<<<blocks(kN), 256>>>(before, after, counter, kN);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<int> host(kN);
  CHECK_CUDA(cudaMemcpy(host.data(), after, kN * sizeof(int), cudaMemcpyDefault));
  check_values(host, 100, 3, 1, "after (written by device 0)");
  int hits = 0;
  CHECK_CUDA(cudaMemcpy(&hits, counter, sizeof(int), cudaMemcpyDefault));
  EXPECT_TRUE(hits == kN, "counter = %d, expected %d", hits, kN);

  // Copies between pool memory of the two devices: device 0's default pool, device 1's
  // explicit pool (which grants nothing: copies need no access).
  cudaStream_t s0;
  CHECK_CUDA(cudaStreamCreate(&s0));
  int* local = nullptr;
  CHECK_CUDA(cudaMallocAsync(&local, kN * sizeof(int), s0));
  CHECK_CUDA(cudaMemcpyPeerAsync(local, 0, before, 1, kN * sizeof(int), s0));
  CHECK_CUDA(cudaStreamSynchronize(s0));
  CHECK_CUDA(cudaMemcpy(host.data(), local, kN * sizeof(int), cudaMemcpyDeviceToHost));
  check_values(host, 100, 1, 0, "local (peer copy of before)");

  cudaMemPoolProps props;
  std::memset(&props, 0, sizeof(props));
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 1;
  cudaMemPool_t explicit1;
  CHECK_CUDA(cudaMemPoolCreate(&explicit1, &props));
  EXPECT_TRUE(access_of(explicit1, 0) == cudaMemAccessFlagsProtNone, "explicit pool access");
  CHECK_CUDA(cudaSetDevice(1));
  int* remote = nullptr;
  CHECK_CUDA(cudaMallocFromPoolAsync(&remote, kN * sizeof(int), explicit1, s1));
  CHECK_CUDA(cudaStreamSynchronize(s1));
  CHECK_CUDA(cudaSetDevice(0));
  fill<<<blocks(kN), 256, 0, s0>>>(local, 500, kN);
  CHECK_CUDA(cudaMemcpyPeerAsync(remote, 1, local, 0, kN * sizeof(int), s0));
  CHECK_CUDA(cudaStreamSynchronize(s0));
  CHECK_CUDA(cudaMemcpyPeer(after, 1, remote, 1, kN * sizeof(int)));
  CHECK_CUDA(cudaMemcpy(host.data(), after, kN * sizeof(int), cudaMemcpyDefault));
  check_values(host, 500, 1, 0, "after (copied back through the explicit pool)");
  CHECK_CUDA(cudaMemcpy(local, remote, kN * sizeof(int), cudaMemcpyDefault));
  CHECK_CUDA(cudaMemcpy(host.data(), local, kN * sizeof(int), cudaMemcpyDeviceToHost));
  check_values(host, 500, 1, 0, "local (cudaMemcpyDefault from device 1's pool)");

  // Device 0's stream allocating from device 1's pool (the pool may be of another
  // device than the stream): device 1's memory, which device 0's kernels reach once the
  // pool grants device 0 access.
  cudaMemAccessDesc grant_explicit = desc_for(0, cudaMemAccessFlagsProtReadWrite);
  CHECK_CUDA(cudaMemPoolSetAccess(explicit1, &grant_explicit, 1));
  int* cross = nullptr;
  CHECK_CUDA(cudaMallocFromPoolAsync(&cross, kN * sizeof(int), explicit1, s0));
  cudaPointerAttributes attributes;
  CHECK_CUDA(cudaPointerGetAttributes(&attributes, cross));
  EXPECT_TRUE(attributes.type == cudaMemoryTypeDevice && attributes.device == 1,
              "pool block allocated in device 0's stream: type %d device %d",
              static_cast<int>(attributes.type), attributes.device);
  fill<<<blocks(kN), 256, 0, s0>>>(cross, 7000, kN);
  CHECK_CUDA(cudaMemcpyAsync(host.data(), cross, kN * sizeof(int), cudaMemcpyDefault, s0));
  CHECK_CUDA(cudaStreamSynchronize(s0));
  check_values(host, 7000, 1, 0, "cross (device 1's pool, device 0's stream)");
  CHECK_CUDA(cudaFreeAsync(cross, s0));
  CHECK_CUDA(cudaStreamSynchronize(s0));

  // Read-only access: device 0 reads device 1's pool memory.
  cudaMemAccessDesc read_only = desc_for(0, cudaMemAccessFlagsProtRead);
  CHECK_CUDA(cudaMemPoolSetAccess(pool1, &read_only, 1));
  EXPECT_TRUE(access_of(pool1, 0) == cudaMemAccessFlagsProtRead, "read-only access");
  int* sum = nullptr;
  CHECK_CUDA(cudaMalloc(&sum, sizeof(int)));
  CHECK_CUDA(cudaMemset(sum, 0, sizeof(int)));
  sum_into<<<blocks(kN), 256>>>(before, sum, kN);
  CHECK_CUDA(cudaDeviceSynchronize());
  int total = 0;
  CHECK_CUDA(cudaMemcpy(&total, sum, sizeof(int), cudaMemcpyDeviceToHost));
  long long want = 0;
  for (int i = 0; i < kN; ++i) want += 100 + i;
  EXPECT_TRUE(total == want, "sum = %d, expected %lld", total, want);

  // The driver API sees the same access; revoking through it.
  CUmemLocation location;
  std::memset(&location, 0, sizeof(location));
  location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  location.id = 0;
  CUmemAccess_flags driver_flags = CU_MEM_ACCESS_FLAGS_PROT_NONE;
  EXPECT_TRUE(cuMemPoolGetAccess(&driver_flags, pool1, &location) == CUDA_SUCCESS &&
                  driver_flags == CU_MEM_ACCESS_FLAGS_PROT_READ,
              "cuMemPoolGetAccess: %d", static_cast<int>(driver_flags));
  CUmemAccessDesc revoke;
  std::memset(&revoke, 0, sizeof(revoke));
  revoke.location = location;
  revoke.flags = CU_MEM_ACCESS_FLAGS_PROT_NONE;
  EXPECT_TRUE(cuMemPoolSetAccess(pool1, &revoke, 1) == CUDA_SUCCESS, "cuMemPoolSetAccess");
  EXPECT_TRUE(access_of(pool1, 0) == cudaMemAccessFlagsProtNone, "revoked access");
  EXPECT_TRUE(cuMemPoolSetAccess(pool1, nullptr, 1) == CUDA_ERROR_INVALID_VALUE,
              "cuMemPoolSetAccess(null)");
  EXPECT_TRUE(cuMemPoolGetAccess(nullptr, pool1, &location) == CUDA_ERROR_INVALID_VALUE,
              "cuMemPoolGetAccess(null)");

  // Copies still work without access.
  CHECK_CUDA(cudaMemcpyPeer(local, 0, before, 1, kN * sizeof(int)));
  CHECK_CUDA(cudaMemcpy(host.data(), local, kN * sizeof(int), cudaMemcpyDeviceToHost));
  check_values(host, 100, 1, 0, "local (peer copy after revoking)");

  CHECK_CUDA(cudaFreeAsync(local, s0));
  CHECK_CUDA(cudaStreamSynchronize(s0));
  CHECK_CUDA(cudaFree(sum));
  CHECK_CUDA(cudaSetDevice(1));
  CHECK_CUDA(cudaFreeAsync(before, s1));
  CHECK_CUDA(cudaFreeAsync(after, s1));
  CHECK_CUDA(cudaFreeAsync(counter, s1));
  CHECK_CUDA(cudaFreeAsync(remote, s1));
  CHECK_CUDA(cudaStreamSynchronize(s1));
  CHECK_CUDA(cudaMemPoolDestroy(explicit1));
  CHECK_CUDA(cudaStreamDestroy(s1));
  CHECK_CUDA(cudaSetDevice(0));
  CHECK_CUDA(cudaStreamDestroy(s0));
  std::printf("PASS mem_pools_peer\n");
  return 0;
}
