// Event flags and their documented error cases (CUDA Runtime API, Event Management):
// cudaEventInterprocess needs cudaEventDisableTiming; IPC events and memory handles
// either work (a GPU with IPC) or are cudaErrorNotSupported (a system without IPC,
// Strata); cudaEventBlockingSync events synchronise; cudaEventRecordWithFlags outside
// stream capture records; cudaEventElapsedTime's cudaErrorInvalidResourceHandle (never
// recorded, timing disabled) and cudaErrorNotReady (recorded, not complete) cases.
#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "test_check.h"

#define EXPECT_ERROR(call, expected)                                                        \
  do {                                                                                      \
    cudaError_t got_ = (call);                                                              \
    EXPECT_TRUE(got_ == (expected), "%s -> %s, expected %s", #call, cudaGetErrorName(got_), \
                cudaGetErrorName(expected));                                                \
    cudaGetLastError();                                                                     \
  } while (0)

namespace {

std::atomic<bool> released{false};

// Holds its stream until the host releases it: work queued behind it stays pending.
void CUDART_CB hold_stream(void*) {
  while (!released.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

__global__ void scale(int* p, int n, int factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= factor;
}

}  // namespace

int main() {
  cudaEvent_t event = nullptr;

  // Flags: unknown bits and interprocess without disable-timing are invalid values.
  EXPECT_ERROR(cudaEventCreateWithFlags(&event, 0x100), cudaErrorInvalidValue);
  EXPECT_ERROR(cudaEventCreateWithFlags(&event, cudaEventInterprocess), cudaErrorInvalidValue);
  EXPECT_ERROR(cudaEventCreateWithFlags(&event, cudaEventInterprocess | cudaEventBlockingSync),
               cudaErrorInvalidValue);
  EXPECT_ERROR(cudaEventCreateWithFlags(nullptr, cudaEventDefault), cudaErrorInvalidValue);

  // Interprocess events and memory handles: all supported, or all cudaErrorNotSupported.
  int* device_memory = nullptr;
  const int n = 4096;
  CHECK_CUDA(cudaMalloc(&device_memory, n * sizeof(int)));
  cudaEvent_t ipc_event = nullptr;
  cudaError_t ipc =
      cudaEventCreateWithFlags(&ipc_event, cudaEventInterprocess | cudaEventDisableTiming);
  cudaGetLastError();
  cudaIpcEventHandle_t event_handle;
  cudaIpcMemHandle_t memory_handle;
  if (ipc == cudaSuccess) {
    CHECK_CUDA(cudaIpcGetEventHandle(&event_handle, ipc_event));
    CHECK_CUDA(cudaIpcGetMemHandle(&memory_handle, device_memory));
    CHECK_CUDA(cudaEventDestroy(ipc_event));
    std::printf("IPC supported\n");
  } else {
    EXPECT_TRUE(ipc == cudaErrorNotSupported, "interprocess event -> %s", cudaGetErrorName(ipc));
    std::memset(&event_handle, 0, sizeof(event_handle));
    std::memset(&memory_handle, 0, sizeof(memory_handle));
    CHECK_CUDA(cudaEventCreate(&event));
    EXPECT_ERROR(cudaIpcGetEventHandle(&event_handle, event), cudaErrorNotSupported);
    EXPECT_ERROR(cudaIpcGetMemHandle(&memory_handle, device_memory), cudaErrorNotSupported);
    cudaEvent_t opened = nullptr;
    EXPECT_ERROR(cudaIpcOpenEventHandle(&opened, event_handle), cudaErrorNotSupported);
    void* mapped = nullptr;
    EXPECT_ERROR(cudaIpcOpenMemHandle(&mapped, memory_handle, cudaIpcMemLazyEnablePeerAccess),
                 cudaErrorNotSupported);
    EXPECT_ERROR(cudaIpcCloseMemHandle(device_memory), cudaErrorNotSupported);
    CHECK_CUDA(cudaEventDestroy(event));
    std::printf("IPC not supported\n");
  }
  EXPECT_ERROR(cudaIpcGetMemHandle(nullptr, device_memory), cudaErrorInvalidValue);

  // Blocking-sync events: cudaEventSynchronize waits for the work before the record.
  std::vector<int> host(n);
  for (int i = 0; i < n; ++i) host[i] = i;
  CHECK_CUDA(cudaMemcpy(device_memory, host.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaEvent_t blocking = nullptr;
  CHECK_CUDA(cudaEventCreateWithFlags(&blocking, cudaEventBlockingSync));
  int* pinned = nullptr;
  CHECK_CUDA(cudaMallocHost(&pinned, n * sizeof(int)));
  for (int round = 0; round < 3; ++round) {
    scale<<<n / 256, 256, 0, stream>>>(device_memory, n, 3);
    CHECK_CUDA(
        cudaMemcpyAsync(pinned, device_memory, n * sizeof(int), cudaMemcpyDeviceToHost, stream));
    CHECK_CUDA(cudaEventRecord(blocking, stream));
    CHECK_CUDA(cudaEventSynchronize(blocking));
    CHECK_CUDA(cudaEventQuery(blocking));
    int factor = round == 0 ? 3 : round == 1 ? 9 : 27;
    for (int i = 0; i < n; ++i) {
      EXPECT_TRUE(pinned[i] == i * factor, "round %d: pinned[%d] = %d", round, i, pinned[i]);
    }
  }

  // cudaEventRecordWithFlags: outside capture, cudaEventRecordExternal is a plain record.
  cudaEvent_t start = nullptr, stop = nullptr;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  CHECK_CUDA(cudaEventRecordWithFlags(start, stream, cudaEventRecordDefault));
  scale<<<n / 256, 256, 0, stream>>>(device_memory, n, 1);
  CHECK_CUDA(cudaEventRecordWithFlags(stop, stream, cudaEventRecordExternal));
  CHECK_CUDA(cudaEventSynchronize(stop));
  float ms = -1.0f;
  CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
  EXPECT_TRUE(ms >= 0.0f, "elapsed %f ms", ms);
  EXPECT_ERROR(cudaEventRecordWithFlags(stop, stream, 0x8), cudaErrorInvalidValue);

  // cudaEventElapsedTime's documented errors.
  cudaEvent_t never = nullptr, untimed = nullptr;
  CHECK_CUDA(cudaEventCreate(&never));
  CHECK_CUDA(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming));
  EXPECT_ERROR(cudaEventElapsedTime(&ms, never, stop), cudaErrorInvalidResourceHandle);
  EXPECT_ERROR(cudaEventElapsedTime(&ms, start, never), cudaErrorInvalidResourceHandle);
  CHECK_CUDA(cudaEventRecord(untimed, stream));
  CHECK_CUDA(cudaEventSynchronize(untimed));
  EXPECT_ERROR(cudaEventElapsedTime(&ms, start, untimed), cudaErrorInvalidResourceHandle);
  EXPECT_ERROR(cudaEventElapsedTime(nullptr, start, stop), cudaErrorInvalidValue);
  // Recorded but not complete: the stream is held by a host function.
  CHECK_CUDA(cudaEventRecord(start, stream));
  CHECK_CUDA(cudaLaunchHostFunc(stream, hold_stream, nullptr));
  CHECK_CUDA(cudaEventRecord(stop, stream));
  EXPECT_ERROR(cudaEventQuery(stop), cudaErrorNotReady);
  EXPECT_ERROR(cudaEventElapsedTime(&ms, start, stop), cudaErrorNotReady);
  released = true;
  CHECK_CUDA(cudaEventSynchronize(stop));
  CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
  EXPECT_TRUE(ms >= 0.0f, "elapsed %f ms after release", ms);

  for (cudaEvent_t e : {blocking, start, stop, never, untimed}) CHECK_CUDA(cudaEventDestroy(e));
  CHECK_CUDA(cudaStreamDestroy(stream));
  CHECK_CUDA(cudaFreeHost(pinned));
  CHECK_CUDA(cudaFree(device_memory));
  std::printf("PASS events_flags\n");
  return 0;
}
