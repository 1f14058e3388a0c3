// CUDA dynamic parallelism (CDP2) streams and ordering, checked against the CUDA
// programming guide's rules (expected values computed on the host):
// - launches into one stream (a block's NULL stream, a named stream) run in launch
//   order, each after the previous one (and its children) completed;
// - device streams are created with cudaStreamNonBlocking and may be destroyed while
//   their work is pending; cudaStreamWaitEvent orders a stream after an event recorded
//   in another; cudaMemcpyAsync / cudaMemsetAsync run in stream order;
// - a tail launch (cudaStreamTailLaunch) starts after the parent grid and all the work
//   it launched into other streams; tail launches run in launch order;
// - a fire-and-forget launch (cudaStreamFireAndForget) runs;
// - more pending launches than cudaLimitDevRuntimePendingLaunchCount (default 2048)
//   fail with cudaErrorLaunchPendingCountExceeded, recorded for cudaGetLastError;
// - nesting is limited to depth 24 (the host-launched grid has depth 0): a launch from
//   a depth-24 grid fails with cudaErrorLaunchMaxDepthExceeded.
#include <vector>

#include "test_check.h"

// ---- ordering within a stream -----------------------------------------------------------
// Step k of chain c: must find the chain at k, then advances it.
__global__ void step(int* chain, int* in_order, int c, int k) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    in_order[c * 8 + k] = (chain[c] == k);
    chain[c] = k + 1;
  }
}

__global__ void null_stream_parent(int* chain, int* in_order) {
  int c = blockIdx.x;  // one chain per block: each block has its own NULL stream
  if (threadIdx.x == 0) step<<<1, 32>>>(chain, in_order, c, 0);
  __syncthreads();
  if (threadIdx.x == 1) step<<<1, 32>>>(chain, in_order, c, 1);
  __syncthreads();
  if (threadIdx.x == 0) {
    step<<<1, 32>>>(chain, in_order, c, 2);
    step<<<2, 32>>>(chain, in_order, c, 3);
  }
}

__global__ void named_stream_parent(int* chain, int* in_order, int* status, unsigned long long* handles) {
  cudaStream_t a, b;
  status[0] = cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
  status[1] = cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking);
  handles[0] = reinterpret_cast<unsigned long long>(a);
  handles[1] = reinterpret_cast<unsigned long long>(b);
  for (int k = 0; k < 3; ++k) {
    step<<<1, 1, 0, a>>>(chain, in_order, 0, k);
    step<<<1, 1, 0, b>>>(chain, in_order, 1, k);
  }
  status[2] = cudaGetLastError();
  status[3] = cudaStreamDestroy(a);  // pending work still runs
  status[4] = cudaStreamDestroy(b);
}

// Stream b waits for an event recorded in stream a after a's first step, so b's step
// finds chain 0 advanced (chain 2 records what it saw).
__global__ void observe(int* chain, int* seen) {
  if (threadIdx.x == 0 && blockIdx.x == 0) *seen = chain[0];
}

__global__ void event_parent(int* chain, int* in_order, int* seen, int* status) {
  cudaStream_t a, b;
  cudaEvent_t done;
  status[0] = cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
  status[1] = cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking);
  status[2] = cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
  step<<<1, 1, 0, a>>>(chain, in_order, 0, 0);
  status[3] = cudaEventRecord(done, a);
  status[4] = cudaStreamWaitEvent(b, done, 0);
  observe<<<1, 1, 0, b>>>(chain, seen);
  status[5] = cudaEventDestroy(done);
  status[6] = cudaGetLastError();
  cudaStreamDestroy(a);
  cudaStreamDestroy(b);
}

// Device-side cudaMemcpyAsync / cudaMemsetAsync run in stream order between kernels.
__global__ void produce(int* src) { src[threadIdx.x] = 7 * threadIdx.x + 1; }

__global__ void consume(const int* copied, const unsigned char* filled, int* ok) {
  int t = threadIdx.x;
  ok[t] = copied[t] == 7 * t + 1 && filled[t] == 0x5a;
}

__global__ void copy_parent(int* src, int* dst, unsigned char* bytes, int* ok, int* status) {
  cudaStream_t a;
  cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
  produce<<<1, 64, 0, a>>>(src);
  status[0] = cudaMemcpyAsync(dst, src, 64 * sizeof(int), cudaMemcpyDeviceToDevice, a);
  status[1] = cudaMemsetAsync(bytes, 0x5a, 64, a);
  consume<<<1, 64, 0, a>>>(dst, bytes, ok);
  status[2] = cudaGetLastError();
  cudaStreamDestroy(a);
}

// ---- tail launch ----------------------------------------------------------------------
struct TailLog {
  int done;            // regular work items finished
  int tail_saw[2];     // `done` seen by each tail launch
  int tail_order[2];   // order in which the tail launches ran
  int tail_count;
  int fire_and_forget;
  int status[4];
};

__global__ void work_item(TailLog* log, int spawn) {
  if (spawn) work_item<<<1, 1>>>(log, 0);  // a grandchild: part of this grid's work
  atomicAdd(&log->done, 1);
}

__global__ void tail(TailLog* log, int which) {
  log->tail_saw[which] = atomicAdd(&log->done, 0);
  log->tail_order[atomicAdd(&log->tail_count, 1)] = which;
}

__global__ void forgotten(TailLog* log) { atomicExch(&log->fire_and_forget, 1234); }

__global__ void tail_parent(TailLog* log) {
  cudaStream_t named;
  cudaStreamCreateWithFlags(&named, cudaStreamNonBlocking);
  tail<<<1, 1, 0, cudaStreamTailLaunch>>>(log, 0);  // launched first, still runs last
  work_item<<<1, 1>>>(log, 1);                     // 2 items: itself and a grandchild
  work_item<<<1, 1, 0, named>>>(log, 0);           // 1 item
  forgotten<<<1, 1, 0, cudaStreamFireAndForget>>>(log);
  tail<<<1, 1, 0, cudaStreamTailLaunch>>>(log, 1);
  log->status[0] = cudaPeekAtLastError();
  log->status[1] = cudaGetLastError();
  cudaStreamDestroy(named);
}

// ---- limits -----------------------------------------------------------------------------
constexpr int kLaunches = 2100;
constexpr int kDefaultPendingLimit = 2048;

__global__ void waiter(volatile int* release, int* ran) {
  while (*release == 0) {
  }
  atomicAdd(ran, 1);
}

// Children cannot finish before `release` is set, so all launches are pending.
__global__ void flood(int* release, int* ran, int* errors, int* last_errors) {
  for (int k = 0; k < kLaunches; ++k) {
    waiter<<<1, 1>>>(release, ran);
    errors[k] = cudaPeekAtLastError();
    last_errors[k] = cudaGetLastError();
  }
  __threadfence();
  atomicExch(release, 1);
}

__global__ void dive(int depth, int* errors) {
  if (depth >= 30) return;
  dive<<<1, 1>>>(depth + 1, errors);
  errors[depth] = cudaGetLastError();
}

int main() {
  // NULL streams of 3 blocks.
  int *chain, *in_order;
  CHECK_CUDA(cudaMalloc(&chain, 8 * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&in_order, 64 * sizeof(int)));
  CHECK_CUDA(cudaMemset(chain, 0, 8 * sizeof(int)));
  CHECK_CUDA(cudaMemset(in_order, 0, 64 * sizeof(int)));
  null_stream_parent<<<3, 64>>>(chain, in_order);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<int> h_chain(8), h_order(64);
  CHECK_CUDA(cudaMemcpy(h_chain.data(), chain, 8 * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(h_order.data(), in_order, 64 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int c = 0; c < 3; ++c) {
    EXPECT_TRUE(h_chain[c] == 4, "NULL stream of block %d: chain at %d, expected 4", c, h_chain[c]);
    for (int k = 0; k < 4; ++k)
      EXPECT_TRUE(h_order[c * 8 + k] == 1, "NULL stream of block %d: step %d out of order", c, k);
  }

  // Named streams.
  int* status;
  unsigned long long* handles;
  CHECK_CUDA(cudaMemset(chain, 0, 8 * sizeof(int)));
  CHECK_CUDA(cudaMemset(in_order, 0, 64 * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&status, 8 * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&handles, 2 * sizeof(unsigned long long)));
  CHECK_CUDA(cudaMemset(status, 0xff, 8 * sizeof(int)));
  named_stream_parent<<<1, 1>>>(chain, in_order, status, handles);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<int> h_status(8);
  std::vector<unsigned long long> h_handles(2);
  CHECK_CUDA(cudaMemcpy(h_chain.data(), chain, 8 * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(h_order.data(), in_order, 64 * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(h_status.data(), status, 8 * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(h_handles.data(), handles, 2 * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 5; ++i)
    EXPECT_TRUE(h_status[i] == cudaSuccess, "named streams: status[%d] = %d", i, h_status[i]);
  EXPECT_TRUE(h_handles[0] != 0 && h_handles[1] != 0 && h_handles[0] != h_handles[1],
              "stream handles %llx %llx", h_handles[0], h_handles[1]);
  for (int c = 0; c < 2; ++c) {
    EXPECT_TRUE(h_chain[c] == 3, "named stream %d: chain at %d, expected 3", c, h_chain[c]);
    for (int k = 0; k < 3; ++k)
      EXPECT_TRUE(h_order[c * 8 + k] == 1, "named stream %d: step %d out of order", c, k);
  }

  // Events between named streams.
  int* seen;
  CHECK_CUDA(cudaMalloc(&seen, sizeof(int)));
  CHECK_CUDA(cudaMemset(seen, 0xff, sizeof(int)));
  CHECK_CUDA(cudaMemset(chain, 0, 8 * sizeof(int)));
  CHECK_CUDA(cudaMemset(status, 0xff, 8 * sizeof(int)));
  event_parent<<<1, 1>>>(chain, in_order, seen, status);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  int h_seen = -1;
  CHECK_CUDA(cudaMemcpy(&h_seen, seen, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(h_status.data(), status, 8 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 7; ++i)
    EXPECT_TRUE(h_status[i] == cudaSuccess, "events: status[%d] = %d", i, h_status[i]);
  EXPECT_TRUE(h_seen == 1, "stream b saw chain 0 at %d after waiting for the event, expected 1", h_seen);
  CHECK_CUDA(cudaFree(seen));

  // Copies and fills.
  int *src, *dst, *ok;
  unsigned char* bytes;
  CHECK_CUDA(cudaMalloc(&src, 64 * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&dst, 64 * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&ok, 64 * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&bytes, 64));
  CHECK_CUDA(cudaMemset(dst, 0, 64 * sizeof(int)));
  CHECK_CUDA(cudaMemset(ok, 0, 64 * sizeof(int)));
  CHECK_CUDA(cudaMemset(bytes, 0, 64));
  CHECK_CUDA(cudaMemset(status, 0xff, 8 * sizeof(int)));
  copy_parent<<<1, 1>>>(src, dst, bytes, ok, status);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<int> h_dst(64), h_ok(64);
  std::vector<unsigned char> h_bytes(64);
  CHECK_CUDA(cudaMemcpy(h_dst.data(), dst, 64 * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(h_ok.data(), ok, 64 * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(h_bytes.data(), bytes, 64, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(h_status.data(), status, 8 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 3; ++i)
    EXPECT_TRUE(h_status[i] == cudaSuccess, "copies: status[%d] = %d", i, h_status[i]);
  for (int t = 0; t < 64; ++t) {
    EXPECT_TRUE(h_dst[t] == 7 * t + 1, "copied[%d] = %d, expected %d", t, h_dst[t], 7 * t + 1);
    EXPECT_TRUE(h_bytes[t] == 0x5a, "filled[%d] = %#x", t, h_bytes[t]);
    EXPECT_TRUE(h_ok[t] == 1, "the kernel after the copy saw stale data at %d", t);
  }
  CHECK_CUDA(cudaFree(src));
  CHECK_CUDA(cudaFree(dst));
  CHECK_CUDA(cudaFree(ok));
  CHECK_CUDA(cudaFree(bytes));

  // Tail launch and fire-and-forget.
  TailLog* log;
  CHECK_CUDA(cudaMalloc(&log, sizeof(TailLog)));
  CHECK_CUDA(cudaMemset(log, 0, sizeof(TailLog)));
  tail_parent<<<1, 1>>>(log);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  TailLog h_log;
  CHECK_CUDA(cudaMemcpy(&h_log, log, sizeof(TailLog), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(h_log.status[0] == cudaSuccess && h_log.status[1] == cudaSuccess,
              "tail: launch errors %d %d", h_log.status[0], h_log.status[1]);
  EXPECT_TRUE(h_log.done == 3, "tail: %d work items done, expected 3", h_log.done);
  EXPECT_TRUE(h_log.tail_count == 2, "tail: %d tail launches ran, expected 2", h_log.tail_count);
  EXPECT_TRUE(h_log.tail_saw[0] == 3 && h_log.tail_saw[1] == 3,
              "tail launches saw %d and %d work items done, expected 3", h_log.tail_saw[0],
              h_log.tail_saw[1]);
  EXPECT_TRUE(h_log.tail_order[0] == 0 && h_log.tail_order[1] == 1, "tail launches ran as %d, %d",
              h_log.tail_order[0], h_log.tail_order[1]);
  EXPECT_TRUE(h_log.fire_and_forget == 1234, "fire-and-forget grid did not run");

  // Pending launch count.
  int *release, *ran, *errors, *last_errors;
  CHECK_CUDA(cudaMalloc(&release, sizeof(int)));
  CHECK_CUDA(cudaMalloc(&ran, sizeof(int)));
  CHECK_CUDA(cudaMalloc(&errors, kLaunches * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&last_errors, kLaunches * sizeof(int)));
  CHECK_CUDA(cudaMemset(release, 0, sizeof(int)));
  CHECK_CUDA(cudaMemset(ran, 0, sizeof(int)));
  flood<<<1, 1>>>(release, ran, errors, last_errors);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<int> h_errors(kLaunches), h_last(kLaunches);
  int h_ran = 0;
  CHECK_CUDA(cudaMemcpy(h_errors.data(), errors, kLaunches * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(h_last.data(), last_errors, kLaunches * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(&h_ran, ran, sizeof(int), cudaMemcpyDeviceToHost));
  for (int k = 0; k < kLaunches; ++k) {
    int expected = k < kDefaultPendingLimit ? cudaSuccess : cudaErrorLaunchPendingCountExceeded;
    EXPECT_TRUE(h_errors[k] == expected && h_last[k] == expected,
                "launch %d: peek %d, get %d, expected %d", k, h_errors[k], h_last[k], expected);
  }
  EXPECT_TRUE(h_ran == kDefaultPendingLimit, "%d children ran, expected %d", h_ran, kDefaultPendingLimit);

  // Nesting depth.
  int* depth_errors;
  CHECK_CUDA(cudaMalloc(&depth_errors, 32 * sizeof(int)));
  CHECK_CUDA(cudaMemset(depth_errors, 0xff, 32 * sizeof(int)));
  dive<<<1, 1>>>(0, depth_errors);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<int> h_depth(32);
  CHECK_CUDA(cudaMemcpy(h_depth.data(), depth_errors, 32 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int d = 0; d < 32; ++d) {
    int expected = d < 24 ? cudaSuccess : d == 24 ? cudaErrorLaunchMaxDepthExceeded : -1;
    EXPECT_TRUE(h_depth[d] == expected, "launch from depth %d: %d, expected %d", d, h_depth[d], expected);
  }

  CHECK_CUDA(cudaFree(chain));
  CHECK_CUDA(cudaFree(in_order));
  CHECK_CUDA(cudaFree(status));
  CHECK_CUDA(cudaFree(handles));
  CHECK_CUDA(cudaFree(log));
  CHECK_CUDA(cudaFree(release));
  CHECK_CUDA(cudaFree(ran));
  CHECK_CUDA(cudaFree(errors));
  CHECK_CUDA(cudaFree(last_errors));
  CHECK_CUDA(cudaFree(depth_errors));
  std::printf("PASS cdp_streams\n");
  return 0;
}
