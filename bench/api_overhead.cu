// Host-side cost of the CUDA runtime's hot calls on Strata, and heap allocations per call.
//
// An ordinary CUDA program (nvcc -cudart shared, run by `strata run`). It times, on the
// calling thread only, the host time of:
//   - launch:      k<<<1, 1, 0, stream>>>(counter), a near-empty kernel (one atomicAdd);
//   - memcpy4:     cudaMemcpyAsync of 4 bytes from pinned host memory to the device;
//   - event:       cudaEventRecord on a stream;
//   - graph/node:  cudaGraphLaunch of a captured graph of kGraphNodes launches, divided by
//                  the node count (only when libcudart has the graph API; looked up with
//                  dlsym so that the program loads without it).
// Work is queued in batches small enough for the channel ring; the synchronisation after
// each batch is outside the timed region, so the figures are the cost of queueing, not of
// running the kernels.
//
// The baseline, measured in the same run, is the least a launch must do: a call through
// a function pointer that pushes a 64-byte record into a mutex-protected ring (no
// allocation). Each figure is printed with its ratio to the baseline.
//
// Heap allocations are counted by replacing malloc & co. in this executable (the
// libraries' calls bind to it, operator new included) and counting only on the thread
// being measured, in the steady state (after a warm-up).
//
// `--quick` (ctest): few iterations; checks the results (the kernel ran once per launch,
// the copies arrived), never the timings.
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "../tests/cuda/test_check.h"

// Allocation counting on the calling thread (api_overhead_hooks.cpp, host code).
void allocations_begin();
long allocations_end();

namespace {

// --- Kernels and the native baseline ----------------------------------------------------

__global__ void tick(unsigned int* counter) {
  atomicAdd(counter, 1u);
}

struct Record {
  void* function;
  unsigned grid[3], block[3];
  void* args[4];
};

struct NativeQueue {
  std::mutex mutex;
  Record ring[1024];
  size_t head = 0;
};

NativeQueue g_queue;

__attribute__((noinline)) void native_push(void* function, void** args) {
  std::lock_guard lock(g_queue.mutex);
  Record& r = g_queue.ring[g_queue.head++ % 1024];
  r.function = function;
  r.grid[0] = r.grid[1] = r.grid[2] = 1;
  r.block[0] = r.block[1] = r.block[2] = 1;
  std::memcpy(r.args, args, sizeof(r.args));
}

void (*volatile g_native_push)(void*, void**) = native_push;

using Clock = std::chrono::steady_clock;

struct Figure {
  double ns_per_op = 0;
  double allocations_per_op = 0;
};

// Runs `op` `batches` x `per_batch` times, timing only the ops (`sync` runs between
// batches, untimed); the result is the median batch's ns per op. Allocations on this
// thread are counted over all timed ops.
template <typename Op, typename Sync>
Figure measure(int batches, int per_batch, Op op, Sync sync) {
  for (int i = 0; i < per_batch; ++i) op();  // warm-up: lazy loading, first-use caches
  sync();
  std::vector<double> ns;
  long allocations = 0;
  for (int b = 0; b < batches; ++b) {
    allocations_begin();
    auto t0 = Clock::now();
    for (int i = 0; i < per_batch; ++i) op();
    auto t1 = Clock::now();
    allocations += allocations_end();
    sync();
    ns.push_back(std::chrono::duration<double, std::nano>(t1 - t0).count() / per_batch);
  }
  std::sort(ns.begin(), ns.end());
  return {ns[ns.size() / 2], static_cast<double>(allocations) / (double(batches) * per_batch)};
}

// The graph API through dlsym: the program must load on a libcudart without it.
struct GraphApi {
  decltype(&cudaStreamBeginCapture) begin_capture = nullptr;
  decltype(&cudaStreamEndCapture) end_capture = nullptr;
  cudaError_t (*instantiate)(cudaGraphExec_t*, cudaGraph_t, unsigned long long) = nullptr;
  decltype(&cudaGraphLaunch) launch = nullptr;
  decltype(&cudaGraphExecDestroy) exec_destroy = nullptr;
  decltype(&cudaGraphDestroy) destroy = nullptr;
  bool load() {
    begin_capture =
        reinterpret_cast<decltype(begin_capture)>(dlsym(RTLD_DEFAULT, "cudaStreamBeginCapture"));
    end_capture =
        reinterpret_cast<decltype(end_capture)>(dlsym(RTLD_DEFAULT, "cudaStreamEndCapture"));
    instantiate =
        reinterpret_cast<decltype(instantiate)>(dlsym(RTLD_DEFAULT, "cudaGraphInstantiate"));
    launch = reinterpret_cast<decltype(launch)>(dlsym(RTLD_DEFAULT, "cudaGraphLaunch"));
    exec_destroy =
        reinterpret_cast<decltype(exec_destroy)>(dlsym(RTLD_DEFAULT, "cudaGraphExecDestroy"));
    destroy = reinterpret_cast<decltype(destroy)>(dlsym(RTLD_DEFAULT, "cudaGraphDestroy"));
    return begin_capture && end_capture && instantiate && launch && exec_destroy && destroy;
  }
};

void report(const char* name, const Figure& f, const Figure& baseline) {
  std::printf("%-12s %9.0f ns/op  %6.1fx baseline  %6.2f heap allocations/op\n", name, f.ns_per_op,
              f.ns_per_op / baseline.ns_per_op, f.allocations_per_op);
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  // A batch must fit the channel ring (64 KiB, ~250 launch packets): once it is full the
  // host waits for the simulator, and the figure would be the simulator's throughput.
  const int batches = quick ? 3 : 60;
  const int per_batch = quick ? 20 : 100;
  constexpr int kGraphNodes = 16;

  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  unsigned int* counter;
  CHECK_CUDA(cudaMalloc(&counter, sizeof(unsigned int)));
  CHECK_CUDA(cudaMemset(counter, 0, sizeof(unsigned int)));
  unsigned int* pinned;
  CHECK_CUDA(cudaMallocHost(&pinned, sizeof(unsigned int)));
  *pinned = 0x5a5a1234u;
  unsigned int* target;
  CHECK_CUDA(cudaMalloc(&target, sizeof(unsigned int)));
  cudaEvent_t event;
  CHECK_CUDA(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
  auto sync = [&] { CHECK_CUDA(cudaStreamSynchronize(stream)); };

  void* args[4] = {counter, nullptr, nullptr, nullptr};
  Figure baseline = measure(
      batches, per_batch, [&] { g_native_push(reinterpret_cast<void*>(&tick), args); }, [] {});

  long launches = 0;
  Figure launch = measure(
      batches, per_batch,
      [&] {
        tick<<<1, 1, 0, stream>>>(counter);
        ++launches;
      },
      sync);
  CHECK_CUDA(cudaGetLastError());
  unsigned int ran = 0;
  CHECK_CUDA(cudaMemcpy(&ran, counter, sizeof(ran), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(ran == launches, "the kernel ran %u times for %ld launches", ran, launches);

  Figure memcpy4 = measure(
      batches, per_batch,
      [&] { CHECK_CUDA(cudaMemcpyAsync(target, pinned, 4, cudaMemcpyHostToDevice, stream)); },
      sync);
  unsigned int copied = 0;
  CHECK_CUDA(cudaMemcpy(&copied, target, sizeof(copied), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(copied == 0x5a5a1234u, "copied %#x", copied);

  Figure event_record = measure(
      batches, per_batch, [&] { CHECK_CUDA(cudaEventRecord(event, stream)); }, sync);
  CHECK_CUDA(cudaEventSynchronize(event));

  std::printf("api_overhead: host time per call, median of %d batches of %d (%s)\n", batches,
              per_batch, quick ? "quick: figures meaningless" : "steady state");
  report("baseline", baseline, baseline);
  report("launch", launch, baseline);
  report("memcpy4", memcpy4, baseline);
  report("event", event_record, baseline);

  GraphApi graph_api;
  if (graph_api.load()) {
    CHECK_CUDA(cudaMemset(counter, 0, sizeof(unsigned int)));
    cudaGraph_t graph;
    CHECK_CUDA(graph_api.begin_capture(stream, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < kGraphNodes; ++i) tick<<<1, 1, 0, stream>>>(counter);
    CHECK_CUDA(graph_api.end_capture(stream, &graph));
    cudaGraphExec_t exec;
    CHECK_CUDA(graph_api.instantiate(&exec, graph, 0));
    long graph_launches = 0;
    const int graph_per_batch = std::max(1, per_batch / kGraphNodes);
    Figure per_node = measure(
        batches, graph_per_batch,
        [&] {
          CHECK_CUDA(graph_api.launch(exec, stream));
          ++graph_launches;
        },
        sync);
    CHECK_CUDA(cudaMemcpy(&ran, counter, sizeof(ran), cudaMemcpyDeviceToHost));
    EXPECT_TRUE(ran == graph_launches * kGraphNodes,
                "the graph's kernels ran %u times for %ld x %d", ran, graph_launches, kGraphNodes);
    per_node.ns_per_op /= kGraphNodes;
    per_node.allocations_per_op /= kGraphNodes;
    report("graph/node", per_node, baseline);
    CHECK_CUDA(graph_api.exec_destroy(exec));
    CHECK_CUDA(graph_api.destroy(graph));
  } else {
    std::printf("graph/node: libcudart has no graph API yet, skipped\n");
  }

  CHECK_CUDA(cudaEventDestroy(event));
  CHECK_CUDA(cudaFreeHost(pinned));
  CHECK_CUDA(cudaFree(target));
  CHECK_CUDA(cudaFree(counter));
  CHECK_CUDA(cudaStreamDestroy(stream));
  std::printf("PASS api_overhead\n");
  return 0;
}
