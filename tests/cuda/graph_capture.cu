// Stream capture: a multi-stream fork/join pipeline (copy in, two branches on two
// forked streams, a join, a counter kernel, copy out, a host function) captured from
// three streams, instantiated and relaunched 100 times with fresh input each time;
// capture queries (cudaStreamIsCapturing, cudaStreamGetCaptureInfo), capture into an
// existing graph (cudaStreamBeginCaptureToGraph), cudaStreamUpdateCaptureDependencies,
// cudaThreadExchangeStreamCaptureMode and user objects. Expected values follow the
// CUDA programming guide's stream-capture rules and are computed on the host. Also
// built with --default-stream per-thread (graph_capture_per_thread).
#include <cstdio>

#include "test_check.h"

__global__ void multiply(const int* in, int* out, int factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * factor;
}

__global__ void add(const int* a, const int* b, int* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

__global__ void count(int* counter) {
  if (blockIdx.x == 0 && threadIdx.x == 0) ++*counter;
}

void CUDART_CB bump(void* p) {
  ++*static_cast<int*>(p);
}

int destroyed = 0;
void CUDART_CB destroy_object(void* p) {
  destroyed += *static_cast<int*>(p);
}

constexpr int kN = 4096;
constexpr int kBlock = 256;
constexpr int kGrid = kN / kBlock;

int main() {
  const size_t bytes = kN * sizeof(int);
  int *h_in, *h_out;
  CHECK_CUDA(cudaMallocHost(&h_in, bytes));
  CHECK_CUDA(cudaMallocHost(&h_out, bytes));
  int *d_in, *d_x, *d_y, *d_z, *d_counter;
  CHECK_CUDA(cudaMalloc(&d_in, bytes));
  CHECK_CUDA(cudaMalloc(&d_x, bytes));
  CHECK_CUDA(cudaMalloc(&d_y, bytes));
  CHECK_CUDA(cudaMalloc(&d_z, bytes));
  CHECK_CUDA(cudaMalloc(&d_counter, sizeof(int)));
  CHECK_CUDA(cudaMemset(d_counter, 0, sizeof(int)));
  CHECK_CUDA(cudaDeviceSynchronize());
  cudaStream_t s0, s1, s2;
  CHECK_CUDA(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
  CHECK_CUDA(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK_CUDA(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  cudaEvent_t fork, join1, join2;
  CHECK_CUDA(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CHECK_CUDA(cudaEventCreateWithFlags(&join1, cudaEventDisableTiming));
  CHECK_CUDA(cudaEventCreateWithFlags(&join2, cudaEventDisableTiming));
  int host_calls = 0;

  cudaStreamCaptureStatus status;
  CHECK_CUDA(cudaStreamIsCapturing(s0, &status));
  EXPECT_TRUE(status == cudaStreamCaptureStatusNone, "capturing before BeginCapture");
  CHECK_CUDA(cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
  CHECK_CUDA(cudaStreamIsCapturing(s0, &status));
  EXPECT_TRUE(status == cudaStreamCaptureStatusActive, "not capturing after BeginCapture");
  CHECK_CUDA(cudaMemcpyAsync(d_in, h_in, bytes, cudaMemcpyHostToDevice, s0));
  CHECK_CUDA(cudaEventRecord(fork, s0));
  CHECK_CUDA(cudaStreamIsCapturing(s1, &status));
  EXPECT_TRUE(status == cudaStreamCaptureStatusNone, "s1 capturing before it waited");
  CHECK_CUDA(cudaStreamWaitEvent(s1, fork, 0));
  CHECK_CUDA(cudaStreamWaitEvent(s2, fork, 0));
  CHECK_CUDA(cudaStreamIsCapturing(s1, &status));
  EXPECT_TRUE(status == cudaStreamCaptureStatusActive, "s1 did not join the capture");
  multiply<<<kGrid, kBlock, 0, s1>>>(d_in, d_x, 2, kN);
  CHECK_CUDA(cudaGetLastError());
  multiply<<<kGrid, kBlock, 0, s2>>>(d_in, d_y, 3, kN);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaEventRecord(join1, s1));
  CHECK_CUDA(cudaEventRecord(join2, s2));
  CHECK_CUDA(cudaStreamWaitEvent(s0, join1, 0));
  CHECK_CUDA(cudaStreamWaitEvent(s0, join2, 0));
  // s0 now depends on both branches.
  unsigned long long id0 = 0, id1 = 0;
  cudaGraph_t capturing = nullptr;
  const cudaGraphNode_t* deps = nullptr;
  size_t num_deps = 0;
  CHECK_CUDA(cudaStreamGetCaptureInfo(s0, &status, &id0, &capturing, &deps, nullptr, &num_deps));
  EXPECT_TRUE(status == cudaStreamCaptureStatusActive && capturing != nullptr && num_deps >= 2 &&
                  deps != nullptr,
              "capture info: status %d, %zu dependencies", (int)status, num_deps);
  CHECK_CUDA(cudaStreamGetCaptureInfo(s1, &status, &id1));
  EXPECT_TRUE(id0 == id1, "forked stream reports another capture id");
  add<<<kGrid, kBlock, 0, s0>>>(d_x, d_y, d_z, kN);
  CHECK_CUDA(cudaGetLastError());
  count<<<1, 32, 0, s0>>>(d_counter);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaMemcpyAsync(h_out, d_z, bytes, cudaMemcpyDeviceToHost, s0));
  CHECK_CUDA(cudaLaunchHostFunc(s0, bump, &host_calls));
  cudaGraph_t graph;
  CHECK_CUDA(cudaStreamEndCapture(s0, &graph));
  CHECK_CUDA(cudaStreamIsCapturing(s0, &status));
  EXPECT_TRUE(status == cudaStreamCaptureStatusNone, "still capturing after EndCapture");
  CHECK_CUDA(cudaStreamIsCapturing(s1, &status));
  EXPECT_TRUE(status == cudaStreamCaptureStatusNone, "s1 still capturing after EndCapture");
  EXPECT_TRUE(host_calls == 0, "a captured host function ran during capture");

  // Events and the empty dependency changes make no nodes: 7 operations, 7 nodes.
  size_t count_nodes = 0;
  CHECK_CUDA(cudaGraphGetNodes(graph, nullptr, &count_nodes));
  EXPECT_TRUE(count_nodes == 7, "captured graph has %zu nodes, expected 7", count_nodes);
  size_t roots = 0;
  CHECK_CUDA(cudaGraphGetRootNodes(graph, nullptr, &roots));
  EXPECT_TRUE(roots == 1, "captured graph has %zu roots, expected 1", roots);

  cudaGraphExec_t exec;
  CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  for (int launch = 0; launch < 100; ++launch) {
    for (int i = 0; i < kN; ++i) h_in[i] = i + launch;
    CHECK_CUDA(cudaGraphLaunch(exec, s1));  // any stream
    CHECK_CUDA(cudaStreamSynchronize(s1));
    for (int i = 0; i < kN; ++i) {
      EXPECT_TRUE(h_out[i] == 5 * (i + launch), "launch %d: out[%d] = %d, expected %d", launch, i,
                  h_out[i], 5 * (i + launch));
    }
  }
  int counter = 0;
  CHECK_CUDA(cudaMemcpy(&counter, d_counter, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(counter == 100, "counter kernel ran %d times, expected 100", counter);
  EXPECT_TRUE(host_calls == 100, "host function ran %d times, expected 100", host_calls);

  // Back-to-back launches without synchronisation are ordered.
  for (int launch = 0; launch < 10; ++launch) CHECK_CUDA(cudaGraphLaunch(exec, s0));
  CHECK_CUDA(cudaStreamSynchronize(s0));
  CHECK_CUDA(cudaMemcpy(&counter, d_counter, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(counter == 110, "counter is %d after 10 more launches", counter);

  // Launching a graph into a capture adds it as a child graph node; an external event
  // record becomes an event record node.
  cudaEvent_t done;
  CHECK_CUDA(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
  cudaGraph_t outer;
  CHECK_CUDA(cudaStreamBeginCapture(s2, cudaStreamCaptureModeGlobal));
  CHECK_CUDA(cudaGraphLaunch(exec, s2));
  CHECK_CUDA(cudaEventRecordWithFlags(done, s2, cudaEventRecordExternal));
  CHECK_CUDA(cudaStreamEndCapture(s2, &outer));
  cudaGraphNode_t outer_nodes[2];
  count_nodes = 2;
  CHECK_CUDA(cudaGraphGetNodes(outer, outer_nodes, &count_nodes));
  cudaGraphNodeType outer_types[2];
  CHECK_CUDA(cudaGraphNodeGetType(outer_nodes[0], &outer_types[0]));
  CHECK_CUDA(cudaGraphNodeGetType(outer_nodes[1], &outer_types[1]));
  EXPECT_TRUE(count_nodes == 2 && outer_types[0] == cudaGraphNodeTypeGraph &&
                  outer_types[1] == cudaGraphNodeTypeEventRecord,
              "graph launch captured as %zu nodes of types %d, %d", count_nodes,
              (int)outer_types[0], (int)outer_types[1]);
  cudaGraphExec_t outer_exec;
  CHECK_CUDA(cudaGraphInstantiate(&outer_exec, outer, 0));
  for (int i = 0; i < kN; ++i) h_in[i] = 3 * i;
  CHECK_CUDA(cudaGraphLaunch(outer_exec, s2));
  CHECK_CUDA(cudaEventSynchronize(done));
  for (int i = 0; i < kN; ++i) {
    EXPECT_TRUE(h_out[i] == 15 * i, "nested launch: out[%d] = %d", i, h_out[i]);
  }
  EXPECT_TRUE(host_calls == 111, "host function ran %d times, expected 111", host_calls);
  CHECK_CUDA(cudaGraphExecDestroy(outer_exec));
  CHECK_CUDA(cudaGraphDestroy(outer));

  // Capture into an existing graph, after a node of it.
  cudaGraph_t existing;
  CHECK_CUDA(cudaGraphCreate(&existing, 0));
  cudaGraphNode_t first;
  CHECK_CUDA(cudaGraphAddEmptyNode(&first, existing, nullptr, 0));
  CHECK_CUDA(
      cudaStreamBeginCaptureToGraph(s2, existing, &first, nullptr, 1, cudaStreamCaptureModeGlobal));
  count<<<1, 32, 0, s2>>>(d_counter);
  CHECK_CUDA(cudaGetLastError());
  // Dependencies replaced: the next node depends on nothing captured so far.
  CHECK_CUDA(cudaStreamUpdateCaptureDependencies(s2, &first, nullptr, 1,
                                                 cudaStreamSetCaptureDependencies));
  count<<<1, 32, 0, s2>>>(d_counter);
  CHECK_CUDA(cudaGetLastError());
  cudaGraph_t same;
  CHECK_CUDA(cudaStreamEndCapture(s2, &same));
  EXPECT_TRUE(same == existing, "capture to graph returned another graph");
  CHECK_CUDA(cudaGraphGetNodes(existing, nullptr, &count_nodes));
  EXPECT_TRUE(count_nodes == 3, "graph has %zu nodes after capture, expected 3", count_nodes);
  size_t dependents = 0;
  CHECK_CUDA(cudaGraphNodeGetDependentNodes(first, nullptr, nullptr, &dependents));
  EXPECT_TRUE(dependents == 2, "first node has %zu dependents, expected 2", dependents);

  // The per-thread default stream can capture too.
  {
    cudaGraph_t pt_graph;
    CHECK_CUDA(cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeGlobal));
    CHECK_CUDA(cudaMemsetAsync(d_z, 0, bytes, cudaStreamPerThread));
    multiply<<<kGrid, kBlock, 0, cudaStreamPerThread>>>(d_in, d_z, 7, kN);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpyAsync(h_out, d_z, bytes, cudaMemcpyDeviceToHost, cudaStreamPerThread));
    CHECK_CUDA(cudaStreamEndCapture(cudaStreamPerThread, &pt_graph));
    cudaGraphExec_t pt_exec;
    CHECK_CUDA(cudaGraphInstantiate(&pt_exec, pt_graph, 0));
    CHECK_CUDA(cudaGraphLaunch(pt_exec, cudaStreamPerThread));
    CHECK_CUDA(cudaStreamSynchronize(cudaStreamPerThread));
    for (int i = 0; i < kN; ++i) {
      EXPECT_TRUE(h_out[i] == 7 * 3 * i, "per-thread capture: out[%d] = %d", i, h_out[i]);
    }
    CHECK_CUDA(cudaGraphExecDestroy(pt_exec));
    CHECK_CUDA(cudaGraphDestroy(pt_graph));
  }

  // The thread's capture mode.
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  CHECK_CUDA(cudaThreadExchangeStreamCaptureMode(&mode));
  EXPECT_TRUE(mode == cudaStreamCaptureModeGlobal, "the default mode is %d", (int)mode);
  CHECK_CUDA(cudaThreadExchangeStreamCaptureMode(&mode));
  EXPECT_TRUE(mode == cudaStreamCaptureModeRelaxed, "exchange returned %d", (int)mode);

  // A user object lives as long as its last reference (here, the graph's).
  int weight = 1;
  cudaUserObject_t object;
  CHECK_CUDA(
      cudaUserObjectCreate(&object, &weight, destroy_object, 1, cudaUserObjectNoDestructorSync));
  CHECK_CUDA(cudaGraphRetainUserObject(existing, object, 1, cudaGraphUserObjectMove));
  CHECK_CUDA(cudaUserObjectRetain(object, 2));
  CHECK_CUDA(cudaUserObjectRelease(object, 2));
  EXPECT_TRUE(destroyed == 0, "user object destroyed while the graph holds it");
  CHECK_CUDA(cudaGraphDestroy(existing));
  CHECK_CUDA(cudaDeviceSynchronize());
  EXPECT_TRUE(destroyed == 1, "user object destructor ran %d times, expected 1", destroyed);

  CHECK_CUDA(cudaGraphExecDestroy(exec));
  CHECK_CUDA(cudaGraphDestroy(graph));
  std::printf("PASS graph_capture\n");
  return 0;
}
