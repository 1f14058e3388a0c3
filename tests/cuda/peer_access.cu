// Peer access between two devices (run with STRATA_DEVICES=2), checked against the
// CUDA Runtime API documentation: cudaDeviceCanAccessPeer, cudaDeviceGetP2PAttribute,
// cudaDeviceEnablePeerAccess / DisablePeerAccess and their errors, a kernel on device 0
// loading, storing and atomically updating device 1's memory (allocations made before
// and after access was enabled), cudaMemcpyPeer(Async) both ways, cudaMemcpy with
// cudaMemcpyDefault between the devices' pointers (unified addressing),
// cudaPointerGetAttributes of the other device's pointer, and a fault once access is
// disabled again; the driver API's equivalents (cuCtxEnablePeerAccess, cuMemcpyPeer,
// cuDeviceGetP2PAttribute) and their errors. With PEER_ACCESS_COPY_ONLY=1 in the environment it
// checks instead that copies between the devices do not grant access: a kernel of device 0 still
// faults on device 1's memory after cudaMemcpyPeer and cudaMemcpyDefault copies of it.
#include <cuda.h>

#include <cstdlib>
#include <vector>

#include "test_check.h"

#define EXPECT_ERROR(call, expected)                                                    \
  do {                                                                                  \
    cudaError_t e_ = (call);                                                            \
    EXPECT_TRUE(e_ == (expected), "%s -> %s, expected %s", #call, cudaGetErrorName(e_), \
                cudaGetErrorName(expected));                                            \
    (void)cudaGetLastError();                                                           \
  } while (0)

constexpr int kN = 3000;

// Runs on device 0; `remote` and `counter` are device 1's memory, `local` device 0's.
__global__ void touch_peer(int* remote, const int* remote_in, int* counter, int* local, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    remote[i] = remote_in[i] * 7 + 1;  // load and store device 1's memory
    local[i] = remote_in[i];
    atomicAdd(counter, 1);  // atomics on device 1's memory
  }
}

__global__ void fill(int* p, int base, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = base + i;
}

// Slow on purpose: many iterations, so a copy that did not wait for it would see zeros.
__global__ void slow_fill(int* p, int base, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = 0;
  for (int k = 0; k < 200; ++k) v += (i + k) & 1;
  p[i] = base + i + (v - v);
}

static void expect_values(const char* what, const int* d, int base, int scale, int add) {
  std::vector<int> h(kN, -1);
  CHECK_CUDA(cudaMemcpy(h.data(), d, kN * sizeof(int), cudaMemcpyDefault));
  for (int i = 0; i < kN; ++i) {
    const int want = (base + i) * scale + add;
    EXPECT_TRUE(h[i] == want, "%s: [%d] = %d, expected %d", what, i, h[i], want);
  }
}

// Copies without peer access, then a kernel touching the other device's memory.
static int copies_grant_no_access() {
  int* a0 = nullptr;
  int* a1 = nullptr;
  CHECK_CUDA(cudaSetDevice(1));
  CHECK_CUDA(cudaMalloc(&a1, kN * sizeof(int)));
  fill<<<(kN + 127) / 128, 128>>>(a1, 300, kN);
  CHECK_CUDA(cudaSetDevice(0));
  CHECK_CUDA(cudaMalloc(&a0, kN * sizeof(int)));
  CHECK_CUDA(cudaMemcpyPeer(a0, 0, a1, 1, kN * sizeof(int)));
  expect_values("cudaMemcpyPeer 1 -> 0 without access", a0, 300, 1, 0);
  CHECK_CUDA(cudaMemcpy(a1, a0, kN * sizeof(int), cudaMemcpyDefault));
  touch_peer<<<1, 32>>>(a1, a0, a0, a0, 32);
  CHECK_CUDA(cudaGetLastError());
  cudaError_t fault = cudaDeviceSynchronize();
  EXPECT_TRUE(fault == cudaErrorIllegalAddress,
              "kernel touching device 1 without peer access -> %s", cudaGetErrorName(fault));
  std::printf("PASS peer_access copy-only\n");
  return 0;
}

int main() {
  int count = 0;
  CHECK_CUDA(cudaGetDeviceCount(&count));
  EXPECT_TRUE(count == 2, "cudaGetDeviceCount -> %d, expected 2 (STRATA_DEVICES=2)", count);
  if (const char* mode = std::getenv("PEER_ACCESS_COPY_ONLY"); mode && *mode == '1') {
    return copies_grant_no_access();
  }

  // Capability queries.
  int can = -1;
  CHECK_CUDA(cudaDeviceCanAccessPeer(&can, 0, 1));
  EXPECT_TRUE(can == 1, "cudaDeviceCanAccessPeer(0, 1) = %d", can);
  CHECK_CUDA(cudaDeviceCanAccessPeer(&can, 1, 0));
  EXPECT_TRUE(can == 1, "cudaDeviceCanAccessPeer(1, 0) = %d", can);
  CHECK_CUDA(cudaDeviceCanAccessPeer(&can, 0, 0));
  EXPECT_TRUE(can == 0, "cudaDeviceCanAccessPeer(0, 0) = %d", can);
  EXPECT_ERROR(cudaDeviceCanAccessPeer(&can, 0, 2), cudaErrorInvalidDevice);
  int attr = -1;
  CHECK_CUDA(cudaDeviceGetP2PAttribute(&attr, cudaDevP2PAttrAccessSupported, 0, 1));
  EXPECT_TRUE(attr == 1, "cudaDevP2PAttrAccessSupported = %d", attr);
  CHECK_CUDA(cudaDeviceGetP2PAttribute(&attr, cudaDevP2PAttrNativeAtomicSupported, 1, 0));
  EXPECT_TRUE(attr == 1, "cudaDevP2PAttrNativeAtomicSupported = %d", attr);
  EXPECT_ERROR(cudaDeviceGetP2PAttribute(&attr, cudaDevP2PAttrAccessSupported, 1, 1),
               cudaErrorInvalidDevice);

  int* a0 = nullptr;  // device 0
  int* a1 = nullptr;  // device 1
  int* in1 = nullptr;
  int* counter1 = nullptr;
  CHECK_CUDA(cudaSetDevice(1));
  CHECK_CUDA(cudaMalloc(&a1, kN * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&in1, kN * sizeof(int)));
  fill<<<(kN + 127) / 128, 128>>>(in1, 100, kN);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaSetDevice(0));
  CHECK_CUDA(cudaMalloc(&a0, kN * sizeof(int)));
  CHECK_CUDA(cudaMemset(a0, 0, kN * sizeof(int)));

  // Unified addressing: the two devices' allocations never share an address.
  EXPECT_TRUE(a0 != a1 && a0 != in1, "device allocations collide");
  cudaPointerAttributes pa{};
  CHECK_CUDA(cudaPointerGetAttributes(&pa, in1));  // device 0 current, device 1's pointer
  EXPECT_TRUE(pa.type == cudaMemoryTypeDevice && pa.device == 1,
              "attributes of device 1's pointer: type %d device %d", pa.type, pa.device);

  // Errors before access is enabled.
  EXPECT_ERROR(cudaDeviceDisablePeerAccess(1), cudaErrorPeerAccessNotEnabled);
  EXPECT_ERROR(cudaDeviceEnablePeerAccess(0, 0), cudaErrorInvalidDevice);
  EXPECT_ERROR(cudaDeviceEnablePeerAccess(5, 0), cudaErrorInvalidDevice);
  EXPECT_ERROR(cudaDeviceEnablePeerAccess(1, 1), cudaErrorInvalidValue);

  // The driver API on the runtime's primary contexts (device 0's is current).
  CUcontext ctx0 = nullptr, ctx1 = nullptr;
  EXPECT_TRUE(cuCtxGetCurrent(&ctx0) == CUDA_SUCCESS && ctx0 != nullptr, "cuCtxGetCurrent");
  CHECK_CUDA(cudaSetDevice(1));
  EXPECT_TRUE(cuCtxGetCurrent(&ctx1) == CUDA_SUCCESS && ctx1 != nullptr && ctx1 != ctx0,
              "cuCtxGetCurrent on device 1");
  CHECK_CUDA(cudaSetDevice(0));
  EXPECT_TRUE(cuCtxEnablePeerAccess(ctx1, 1) == CUDA_ERROR_INVALID_VALUE,
              "cuCtxEnablePeerAccess with flags 1");
  EXPECT_TRUE(cuCtxEnablePeerAccess(ctx0, 0) == CUDA_ERROR_INVALID_CONTEXT,
              "cuCtxEnablePeerAccess of the current context");
  EXPECT_TRUE(cuCtxDisablePeerAccess(ctx1) == CUDA_ERROR_PEER_ACCESS_NOT_ENABLED,
              "cuCtxDisablePeerAccess before enabling");
  int value = -1;
  EXPECT_TRUE(cuDeviceCanAccessPeer(&value, 0, 1) == CUDA_SUCCESS && value == 1,
              "cuDeviceCanAccessPeer(0, 1) = %d", value);
  EXPECT_TRUE(cuDeviceGetP2PAttribute(&value, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0, 0) ==
                  CUDA_ERROR_INVALID_DEVICE,
              "cuDeviceGetP2PAttribute on one device");
  EXPECT_TRUE(cuDeviceGetP2PAttribute(&value, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0, 1) ==
                      CUDA_SUCCESS &&
                  value == 1,
              "cuDeviceGetP2PAttribute(ACCESS_SUPPORTED, 0, 1) = %d", value);

  CHECK_CUDA(cudaDeviceEnablePeerAccess(1, 0));
  EXPECT_ERROR(cudaDeviceEnablePeerAccess(1, 0), cudaErrorPeerAccessAlreadyEnabled);
  EXPECT_TRUE(cuCtxEnablePeerAccess(ctx1, 0) == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED,
              "cuCtxEnablePeerAccess after cudaDeviceEnablePeerAccess");

  // An allocation of device 1 made after access was enabled is reachable too.
  CHECK_CUDA(cudaSetDevice(1));
  CHECK_CUDA(cudaMalloc(&counter1, sizeof(int)));
  CHECK_CUDA(cudaMemset(counter1, 0, sizeof(int)));
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaSetDevice(0));

  touch_peer<<<(kN + 127) / 128, 128>>>(a1, in1, counter1, a0, kN);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  expect_values("device 1 written by device 0", a1, 100, 7, 1);
  expect_values("device 0 read from device 1", a0, 100, 1, 0);
  int hits = 0;
  CHECK_CUDA(cudaMemcpy(&hits, counter1, sizeof(int), cudaMemcpyDefault));
  EXPECT_TRUE(hits == kN, "atomicAdd on device 1's counter: %d, expected %d", hits, kN);

  // cudaMemcpyPeer both ways, with each device current.
  CHECK_CUDA(cudaSetDevice(0));
  fill<<<(kN + 127) / 128, 128>>>(a0, 5000, kN);
  CHECK_CUDA(cudaMemcpyPeer(a1, 1, a0, 0, kN * sizeof(int)));
  expect_values("cudaMemcpyPeer 0 -> 1", a1, 5000, 1, 0);
  CHECK_CUDA(cudaSetDevice(1));
  fill<<<(kN + 127) / 128, 128>>>(a1, 9000, kN);
  CHECK_CUDA(cudaMemcpyPeer(a0, 0, a1, 1, kN * sizeof(int)));
  expect_values("cudaMemcpyPeer 1 -> 0", a0, 9000, 1, 0);
  EXPECT_ERROR(cudaMemcpyPeer(a0, 0, a1, 3, kN * sizeof(int)), cudaErrorInvalidDevice);
  CHECK_CUDA(cudaSetDevice(0));
  fill<<<(kN + 127) / 128, 128>>>(a0, 7000, kN);
  EXPECT_TRUE(
      cuMemcpyPeer((CUdeviceptr)a1, ctx1, (CUdeviceptr)a0, ctx0, kN * sizeof(int)) == CUDA_SUCCESS,
      "cuMemcpyPeer");
  expect_values("cuMemcpyPeer 0 -> 1", a1, 7000, 1, 0);

  // cudaMemcpyPeerAsync in a stream of device 0, ordered after device 1's pending kernel.
  CHECK_CUDA(cudaSetDevice(1));
  slow_fill<<<(kN + 127) / 128, 128>>>(a1, 20000, kN);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaSetDevice(0));
  cudaStream_t s0;
  CHECK_CUDA(cudaStreamCreate(&s0));
  CHECK_CUDA(cudaMemcpyPeerAsync(a0, 0, a1, 1, kN * sizeof(int), s0));
  CHECK_CUDA(cudaStreamSynchronize(s0));
  expect_values("cudaMemcpyPeerAsync 1 -> 0", a0, 20000, 1, 0);
  CHECK_CUDA(cudaStreamDestroy(s0));

  // cudaMemcpyDefault between the two devices' pointers, device 0 current.
  fill<<<(kN + 127) / 128, 128>>>(a0, 40000, kN);
  CHECK_CUDA(cudaMemcpy(a1, a0, kN * sizeof(int), cudaMemcpyDefault));
  expect_values("cudaMemcpyDefault 0 -> 1", a1, 40000, 1, 0);
  CHECK_CUDA(cudaSetDevice(1));
  fill<<<(kN + 127) / 128, 128>>>(in1, 60000, kN);
  CHECK_CUDA(cudaSetDevice(0));
  CHECK_CUDA(cudaMemcpy(a0, in1, kN * sizeof(int), cudaMemcpyDefault));
  expect_values("cudaMemcpyDefault 1 -> 0", a0, 60000, 1, 0);

  // Access from device 1 to device 0 is separate (unidirectional).
  CHECK_CUDA(cudaSetDevice(1));
  EXPECT_ERROR(cudaDeviceDisablePeerAccess(0), cudaErrorPeerAccessNotEnabled);
  CHECK_CUDA(cudaDeviceEnablePeerAccess(0, 0));
  CHECK_CUDA(cudaDeviceDisablePeerAccess(0));

  // Disable; then a kernel of device 0 touching device 1's memory faults.
  CHECK_CUDA(cudaSetDevice(0));
  CHECK_CUDA(cudaDeviceDisablePeerAccess(1));
  EXPECT_ERROR(cudaDeviceDisablePeerAccess(1), cudaErrorPeerAccessNotEnabled);
  touch_peer<<<1, 32>>>(a1, in1, counter1, a0, 32);
  CHECK_CUDA(cudaGetLastError());
  cudaError_t fault = cudaDeviceSynchronize();
  EXPECT_TRUE(fault == cudaErrorIllegalAddress,
              "kernel touching device 1 after cudaDeviceDisablePeerAccess -> %s",
              cudaGetErrorName(fault));
  std::printf("PASS peer_access\n");
  return 0;
}
