// Host functions and stream callbacks (cudaLaunchHostFunc, cudaStreamAddCallback) and
// the stream getters. Expectations follow the CUDA runtime API reference: a host
// function runs after all work queued before it in its stream, later work waits for it,
// it runs on a thread other than the caller's, a callback receives the stream as passed
// and cudaSuccess, cudaStreamQuery reports cudaErrorNotReady while work is pending.
#include <atomic>
#include <thread>

#include "test_check.h"

__global__ void write_value(volatile int* p, int value) {
  *p = value;
}
__global__ void copy_plus_one(volatile int* dst, volatile const int* src) {
  *dst = *src + 1;
}

struct OrderState {
  int* host;  // pinned, device-accessible
  int seen_before;
  std::thread::id thread;
};

void CUDART_CB order_host_fn(void* data) {
  auto* state = static_cast<OrderState*>(data);
  state->seen_before = state->host[0];  // written by the kernel queued before
  state->host[1] = 42;                  // read by the kernel queued after
  state->thread = std::this_thread::get_id();
}

struct CallbackState {
  cudaStream_t stream;
  int* host;
  int expected;
  std::atomic<int> calls{0};
  cudaStream_t got_stream = nullptr;
  cudaError_t got_status = cudaErrorUnknown;
  int got_value = -1;
};

void CUDART_CB stream_callback(cudaStream_t stream, cudaError_t status, void* data) {
  auto* state = static_cast<CallbackState*>(data);
  state->got_stream = stream;
  state->got_status = status;
  state->got_value = *state->host;
  state->calls.fetch_add(1);
}

std::atomic<bool> g_release{false};
std::atomic<bool> g_blocked_started{false};

void CUDART_CB blocking_host_fn(void*) {
  g_blocked_started.store(true);
  while (!g_release.load()) std::this_thread::yield();
}

void CUDART_CB noop_host_fn(void*) {}

int main() {
  int* host;
  CHECK_CUDA(cudaHostAlloc(&host, 64 * sizeof(int), cudaHostAllocMapped));
  for (int i = 0; i < 64; ++i) host[i] = 0;

  // 1. kernel -> host function -> kernel in one stream, observed through memory.
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreate(&s));
  OrderState order{host, -1, std::this_thread::get_id()};
  write_value<<<1, 1, 0, s>>>(host + 0, 7);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaLaunchHostFunc(s, order_host_fn, &order));
  copy_plus_one<<<1, 1, 0, s>>>(host + 2, host + 1);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaStreamSynchronize(s));
  EXPECT_TRUE(order.seen_before == 7, "host function saw %d before it, expected 7",
              order.seen_before);
  EXPECT_TRUE(host[2] == 43, "kernel after the host function read %d, expected 43", host[2] - 1);
  EXPECT_TRUE(order.thread != std::this_thread::get_id(),
              "host function ran on the calling thread");

  // 2. Callbacks on several streams (one non-blocking), and on the legacy stream.
  const int kStreams = 4;
  cudaStream_t streams[kStreams];
  CallbackState states[kStreams];
  for (int i = 0; i < kStreams; ++i) {
    CHECK_CUDA(
        cudaStreamCreateWithFlags(&streams[i], i == 3 ? cudaStreamNonBlocking : cudaStreamDefault));
    states[i].stream = streams[i];
    states[i].host = host + 8 + i;
    states[i].expected = 100 + i;
  }
  for (int i = 0; i < kStreams; ++i) {
    write_value<<<1, 1, 0, streams[i]>>>(states[i].host, states[i].expected);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaStreamAddCallback(streams[i], stream_callback, &states[i], 0));
  }
  CallbackState legacy;
  legacy.stream = 0;
  legacy.host = host + 16;
  legacy.expected = 77;
  write_value<<<1, 1>>>(legacy.host, legacy.expected);
  CHECK_CUDA(cudaStreamAddCallback(0, stream_callback, &legacy, 0));
  CHECK_CUDA(cudaDeviceSynchronize());
  for (int i = 0; i < kStreams; ++i) {
    EXPECT_TRUE(states[i].calls.load() == 1, "stream %d: %d calls", i, states[i].calls.load());
    EXPECT_TRUE(states[i].got_stream == streams[i], "stream %d: callback got another stream", i);
    EXPECT_TRUE(states[i].got_status == cudaSuccess, "stream %d: status %s", i,
                cudaGetErrorName(states[i].got_status));
    EXPECT_TRUE(states[i].got_value == states[i].expected, "stream %d: callback saw %d", i,
                states[i].got_value);
  }
  EXPECT_TRUE(legacy.calls.load() == 1 && legacy.got_stream == 0 &&
                  legacy.got_status == cudaSuccess && legacy.got_value == 77,
              "legacy stream callback: calls %d value %d", legacy.calls.load(), legacy.got_value);

  // 3. cudaStreamQuery is cudaErrorNotReady while a host function waits for a flag that
  // only this thread sets, and while work queued after it waits.
  CHECK_CUDA(cudaLaunchHostFunc(s, blocking_host_fn, nullptr));
  write_value<<<1, 1, 0, s>>>(host + 20, 5);
  CHECK_CUDA(cudaGetLastError());
  cudaError_t pending = cudaStreamQuery(s);
  EXPECT_TRUE(pending == cudaErrorNotReady, "query while blocked: %s", cudaGetErrorName(pending));
  while (!g_blocked_started.load()) std::this_thread::yield();
  pending = cudaStreamQuery(s);
  EXPECT_TRUE(pending == cudaErrorNotReady, "query while blocked: %s", cudaGetErrorName(pending));
  EXPECT_TRUE(host[20] == 0, "work after a blocked host function ran early");
  g_release.store(true);
  CHECK_CUDA(cudaStreamSynchronize(s));
  CHECK_CUDA(cudaStreamQuery(s));
  EXPECT_TRUE(host[20] == 5, "work after the host function: %d", host[20]);

  // 4. Getters.
  unsigned int flags = 123;
  CHECK_CUDA(cudaStreamGetFlags(s, &flags));
  EXPECT_TRUE(flags == cudaStreamDefault, "flags %u", flags);
  CHECK_CUDA(cudaStreamGetFlags(streams[3], &flags));
  EXPECT_TRUE(flags == cudaStreamNonBlocking, "non-blocking flags %u", flags);
  int least = 1, greatest = 1;
  CHECK_CUDA(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  EXPECT_TRUE(greatest <= least, "priority range [%d, %d]", least, greatest);
  cudaStream_t prio;
  CHECK_CUDA(cudaStreamCreateWithPriority(&prio, cudaStreamNonBlocking, greatest));
  int priority = 1000;
  CHECK_CUDA(cudaStreamGetPriority(prio, &priority));
  EXPECT_TRUE(priority == greatest, "priority %d, created with %d", priority, greatest);
  CHECK_CUDA(cudaStreamGetFlags(prio, &flags));
  EXPECT_TRUE(flags == cudaStreamNonBlocking, "priority stream flags %u", flags);
  CHECK_CUDA(cudaStreamGetPriority(s, &priority));
  EXPECT_TRUE(priority >= greatest && priority <= least, "default priority %d", priority);
  unsigned long long id_a = 0, id_b = 0, id_a2 = 0, id_null = 0;
  CHECK_CUDA(cudaStreamGetId(s, &id_a));
  CHECK_CUDA(cudaStreamGetId(prio, &id_b));
  CHECK_CUDA(cudaStreamGetId(s, &id_a2));
  CHECK_CUDA(cudaStreamGetId(0, &id_null));
  EXPECT_TRUE(id_a == id_a2, "stream id changed: %llu %llu", id_a, id_a2);
  EXPECT_TRUE(id_a != id_b && id_a != id_null && id_b != id_null, "ids not unique: %llu %llu %llu",
              id_a, id_b, id_null);

  // 5. Invalid arguments.
  cudaError_t err = cudaLaunchHostFunc(s, nullptr, nullptr);
  EXPECT_TRUE(err == cudaErrorInvalidValue, "null host function: %s", cudaGetErrorName(err));
  err = cudaStreamAddCallback(s, nullptr, nullptr, 0);
  EXPECT_TRUE(err == cudaErrorInvalidValue, "null callback: %s", cudaGetErrorName(err));
  err = cudaStreamAddCallback(s, stream_callback, &legacy, 1);
  EXPECT_TRUE(err == cudaErrorInvalidValue, "callback flags 1: %s", cudaGetErrorName(err));
  err = cudaStreamGetFlags(s, nullptr);
  EXPECT_TRUE(err == cudaErrorInvalidValue, "null flags: %s", cudaGetErrorName(err));
  err = cudaStreamGetPriority(s, nullptr);
  EXPECT_TRUE(err == cudaErrorInvalidValue, "null priority: %s", cudaGetErrorName(err));
  err = cudaStreamGetId(s, nullptr);
  EXPECT_TRUE(err == cudaErrorInvalidValue, "null id: %s", cudaGetErrorName(err));
  (void)cudaGetLastError();
  // A host function with nothing before it still runs.
  CHECK_CUDA(cudaLaunchHostFunc(prio, noop_host_fn, nullptr));
  CHECK_CUDA(cudaStreamSynchronize(prio));
  EXPECT_TRUE(legacy.calls.load() == 1, "rejected callback ran");

  for (int i = 0; i < kStreams; ++i) CHECK_CUDA(cudaStreamDestroy(streams[i]));
  CHECK_CUDA(cudaStreamDestroy(prio));
  CHECK_CUDA(cudaStreamDestroy(s));
  CHECK_CUDA(cudaFreeHost(host));
  std::printf("PASS host_funcs\n");
  return 0;
}
