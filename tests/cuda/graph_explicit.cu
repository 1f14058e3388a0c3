// Explicit CUDA graphs: every node type in one DAG (a diamond of kernels between
// memcpy/memset roots, a host node, a child graph, event record and wait nodes, an
// empty join), graph queries, clone, per-node exec updates, node enable/disable,
// cudaGraphExecUpdate (success, topology and node-type changes rejected with the
// documented cudaGraphExecUpdateResult) and cudaGraphDebugDotPrint. Expected values
// are computed on the host from the documented semantics of each node.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test_check.h"

__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

__global__ void add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

struct HostState {
  const float* out;  // pinned: the D2H copy before the host node wrote it
  int n;
  int calls = 0;
  double sum = 0;
};

void CUDART_CB host_node_fn(void* p) {
  auto* s = static_cast<HostState*>(p);
  ++s->calls;
  s->sum = 0;
  for (int i = 0; i < s->n; ++i) s->sum += s->out[i];
}

constexpr int kN = 1000;
constexpr int kBlock = 128;
constexpr int kGrid = (kN + kBlock - 1) / kBlock;

uint32_t bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// c = in * a_scale + b_value * b_scale, the diamond's result.
void check_out(const float* out, const float* in, float a_scale, float b_value, float b_scale,
               const char* what) {
  for (int i = 0; i < kN; ++i) {
    float expect = in[i] * a_scale + b_value * b_scale;
    EXPECT_TRUE(out[i] == expect, "%s: out[%d] = %f, expected %f", what, i, out[i], expect);
  }
}

cudaGraphNode_t add_kernel(cudaGraph_t g, std::vector<cudaGraphNode_t> deps, void* func,
                           void** args) {
  cudaKernelNodeParams p{};
  p.func = func;
  p.gridDim = dim3(kGrid);
  p.blockDim = dim3(kBlock);
  p.sharedMemBytes = 0;
  p.kernelParams = args;
  cudaGraphNode_t node;
  CHECK_CUDA(cudaGraphAddKernelNode(&node, g, deps.data(), deps.size(), &p));
  return node;
}

int main() {
  const size_t bytes = kN * sizeof(float);
  std::vector<float> in(kN), in2(kN), out2(kN);  // pageable
  for (int i = 0; i < kN; ++i) {
    in[i] = static_cast<float>(i);
    in2[i] = static_cast<float>(2 * i + 1);
  }
  float* out = nullptr;  // pinned
  CHECK_CUDA(cudaMallocHost(&out, bytes));
  float *d_a, *d_b, *d_c;
  CHECK_CUDA(cudaMalloc(&d_a, bytes));
  CHECK_CUDA(cudaMalloc(&d_b, bytes));
  CHECK_CUDA(cudaMalloc(&d_c, bytes));
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  cudaEvent_t recorded, waited;
  CHECK_CUDA(cudaEventCreate(&recorded));
  CHECK_CUDA(cudaEventCreate(&waited));

  cudaGraph_t g;
  CHECK_CUDA(cudaGraphCreate(&g, 0));
  // Roots: a pageable H2D copy, a memset and an event wait.
  cudaGraphNode_t copy_in, set_b, wait_node;
  CHECK_CUDA(cudaGraphAddMemcpyNode1D(&copy_in, g, nullptr, 0, d_a, in.data(), bytes,
                                      cudaMemcpyHostToDevice));
  cudaMemsetParams ms{};
  ms.dst = d_b;
  ms.value = bits(1.0f);
  ms.elementSize = 4;
  ms.width = kN;
  ms.height = 1;
  CHECK_CUDA(cudaGraphAddMemsetNode(&set_b, g, nullptr, 0, &ms));
  CHECK_CUDA(cudaGraphAddEventWaitNode(&wait_node, g, nullptr, 0, waited));
  // The diamond.
  int n = kN;
  float two = 2.0f, three = 3.0f;
  void* scale_a_args[] = {&d_a, &two, &n};
  void* scale_b_args[] = {&d_b, &three, &n};
  void* add_args[] = {&d_a, &d_b, &d_c, &n};
  cudaGraphNode_t scale_a = add_kernel(g, {copy_in}, (void*)scale, scale_a_args);
  cudaGraphNode_t scale_b = add_kernel(g, {set_b, wait_node}, (void*)scale, scale_b_args);
  two = 100.0f;  // arguments are copied when the node is added
  cudaGraphNode_t sum = add_kernel(g, {scale_a, scale_b}, (void*)add, add_args);
  cudaGraphNode_t copy_out;
  CHECK_CUDA(
      cudaGraphAddMemcpyNode1D(&copy_out, g, &sum, 1, out, d_c, bytes, cudaMemcpyDeviceToHost));
  HostState host{out, kN};
  cudaHostNodeParams hp{host_node_fn, &host};
  cudaGraphNode_t host_node;
  CHECK_CUDA(cudaGraphAddHostNode(&host_node, g, &copy_out, 1, &hp));
  cudaGraphNode_t record_node;
  CHECK_CUDA(cudaGraphAddEventRecordNode(&record_node, g, &host_node, 1, recorded));
  // A child graph: halve a copy of c and bring it back into pageable memory.
  cudaGraph_t child;
  CHECK_CUDA(cudaGraphCreate(&child, 0));
  float* d_half;
  CHECK_CUDA(cudaMalloc(&d_half, bytes));
  cudaGraphNode_t child_copy, child_scale, child_out;
  CHECK_CUDA(cudaGraphAddMemcpyNode1D(&child_copy, child, nullptr, 0, d_half, d_c, bytes,
                                      cudaMemcpyDeviceToDevice));
  float half = 0.5f;
  void* half_args[] = {&d_half, &half, &n};
  child_scale = add_kernel(child, {child_copy}, (void*)scale, half_args);
  CHECK_CUDA(cudaGraphAddMemcpyNode1D(&child_out, child, &child_scale, 1, out2.data(), d_half,
                                      bytes, cudaMemcpyDeviceToHost));
  cudaGraphNode_t child_node;
  CHECK_CUDA(cudaGraphAddChildGraphNode(&child_node, g, &sum, 1, child));
  cudaGraphNode_t join;
  cudaGraphNode_t leaves[] = {record_node, child_node};
  CHECK_CUDA(cudaGraphAddEmptyNode(&join, g, leaves, 2));

  // Queries.
  size_t count = 0;
  CHECK_CUDA(cudaGraphGetNodes(g, nullptr, &count));
  EXPECT_TRUE(count == 11, "graph has %zu nodes, expected 11", count);
  CHECK_CUDA(cudaGraphGetRootNodes(g, nullptr, &count));
  EXPECT_TRUE(count == 3, "graph has %zu root nodes, expected 3", count);
  CHECK_CUDA(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &count));
  EXPECT_TRUE(count == 11, "graph has %zu edges, expected 11", count);
  cudaGraphNode_t deps[4];
  count = 4;
  CHECK_CUDA(cudaGraphNodeGetDependencies(sum, deps, nullptr, &count));
  EXPECT_TRUE(count == 2 && deps[0] == scale_a && deps[1] == scale_b, "add's dependencies");
  count = 4;
  CHECK_CUDA(cudaGraphNodeGetDependentNodes(sum, deps, nullptr, &count));
  EXPECT_TRUE(count == 2, "add has %zu dependents, expected 2", count);
  cudaGraphNodeType type;
  CHECK_CUDA(cudaGraphNodeGetType(host_node, &type));
  EXPECT_TRUE(type == cudaGraphNodeTypeHost, "host node type %d", (int)type);
  CHECK_CUDA(cudaGraphNodeGetType(child_node, &type));
  EXPECT_TRUE(type == cudaGraphNodeTypeGraph, "child node type %d", (int)type);
  cudaKernelNodeParams kp{};
  CHECK_CUDA(cudaGraphKernelNodeGetParams(scale_a, &kp));
  EXPECT_TRUE(kp.func == (void*)scale && kp.gridDim.x == kGrid && kp.blockDim.x == kBlock,
              "kernel node params read back");
  EXPECT_TRUE(*static_cast<float*>(kp.kernelParams[1]) == 2.0f, "argument copy is %f",
              *static_cast<float*>(kp.kernelParams[1]));
  cudaMemsetParams ms_back{};
  CHECK_CUDA(cudaGraphMemsetNodeGetParams(set_b, &ms_back));
  EXPECT_TRUE(ms_back.dst == d_b && ms_back.value == bits(1.0f) && ms_back.width == kN,
              "memset params read back");
  cudaGraph_t child_back;
  CHECK_CUDA(cudaGraphChildGraphNodeGetGraph(child_node, &child_back));
  CHECK_CUDA(cudaGraphGetNodes(child_back, nullptr, &count));
  EXPECT_TRUE(count == 3, "child graph has %zu nodes", count);

  // Kernel node attributes are kept per node and can be copied.
  cudaKernelNodeAttrValue attr{};
  attr.priority = 0;
  CHECK_CUDA(cudaGraphKernelNodeSetAttribute(scale_a, cudaLaunchAttributePriority, &attr));
  attr.accessPolicyWindow.base_ptr = d_a;
  attr.accessPolicyWindow.num_bytes = bytes;
  attr.accessPolicyWindow.hitRatio = 0.5f;
  attr.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  attr.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  CHECK_CUDA(
      cudaGraphKernelNodeSetAttribute(scale_a, cudaLaunchAttributeAccessPolicyWindow, &attr));
  CHECK_CUDA(cudaGraphKernelNodeCopyAttributes(scale_b, scale_a));
  cudaKernelNodeAttrValue attr_back{};
  CHECK_CUDA(
      cudaGraphKernelNodeGetAttribute(scale_b, cudaLaunchAttributeAccessPolicyWindow, &attr_back));
  EXPECT_TRUE(attr_back.accessPolicyWindow.base_ptr == d_a &&
                  attr_back.accessPolicyWindow.num_bytes == bytes,
              "copied access policy window");

  // Instantiate and launch; the graph is replayed, reading the pageable input anew.
  cudaGraphExec_t exec;
  CHECK_CUDA(cudaGraphInstantiate(&exec, g, 0));
  CHECK_CUDA(cudaEventRecord(waited, stream));
  for (int launch = 0; launch < 10; ++launch) {
    CHECK_CUDA(cudaGraphLaunch(exec, stream));
  }
  CHECK_CUDA(cudaStreamSynchronize(stream));
  check_out(out, in.data(), 2.0f, 1.0f, 3.0f, "first launches");
  for (int i = 0; i < kN; ++i) {
    EXPECT_TRUE(out2[i] == out[i] * 0.5f, "child graph: out2[%d] = %f", i, out2[i]);
  }
  EXPECT_TRUE(host.calls == 10, "host node ran %d times, expected 10", host.calls);
  double expect_sum = 0;
  for (int i = 0; i < kN; ++i) expect_sum += out[i];
  EXPECT_TRUE(host.sum == expect_sum, "host node saw sum %f, expected %f", host.sum, expect_sum);
  CHECK_CUDA(cudaEventQuery(recorded));

  // Instantiation with parameters, uploaded ahead of its launch.
  cudaGraphInstantiateParams ip{};
  ip.flags = cudaGraphInstantiateFlagUpload;
  ip.uploadStream = stream;
  cudaGraphExec_t uploaded;
  CHECK_CUDA(cudaGraphInstantiateWithParams(&uploaded, g, &ip));
  EXPECT_TRUE(ip.result_out == cudaGraphInstantiateSuccess, "instantiate result %d",
              (int)ip.result_out);
  CHECK_CUDA(cudaGraphUpload(uploaded, stream));
  CHECK_CUDA(cudaGraphLaunch(uploaded, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  check_out(out, in.data(), 2.0f, 1.0f, 3.0f, "uploaded exec");
  CHECK_CUDA(cudaGraphExecDestroy(uploaded));
  EXPECT_TRUE(host.calls == 11, "host node ran %d times, expected 11", host.calls);

  // Clone: an edit of the clone leaves the original alone.
  cudaGraph_t clone;
  CHECK_CUDA(cudaGraphClone(&clone, g));
  cudaGraphNode_t clone_scale_a;
  CHECK_CUDA(cudaGraphNodeFindInClone(&clone_scale_a, scale_a, clone));
  EXPECT_TRUE(clone_scale_a != scale_a, "the clone has its own nodes");
  float four = 4.0f;
  void* four_args[] = {&d_a, &four, &n};
  cudaKernelNodeParams kp4 = kp;
  kp4.kernelParams = four_args;
  CHECK_CUDA(cudaGraphKernelNodeSetParams(clone_scale_a, &kp4));
  cudaGraphExec_t clone_exec;
  CHECK_CUDA(cudaGraphInstantiate(&clone_exec, clone, 0));
  CHECK_CUDA(cudaGraphLaunch(clone_exec, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  check_out(out, in.data(), 4.0f, 1.0f, 3.0f, "clone");
  CHECK_CUDA(cudaGraphLaunch(exec, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  check_out(out, in.data(), 2.0f, 1.0f, 3.0f, "original after the clone's edit");

  // Per-node exec updates.
  float five = 5.0f;
  void* five_args[] = {&d_a, &five, &n};
  cudaKernelNodeParams kp5 = kp;
  kp5.kernelParams = five_args;
  CHECK_CUDA(cudaGraphExecKernelNodeSetParams(exec, scale_a, &kp5));
  cudaMemsetParams ms2 = ms;
  ms2.value = bits(2.0f);
  CHECK_CUDA(cudaGraphExecMemsetNodeSetParams(exec, set_b, &ms2));
  CHECK_CUDA(cudaGraphExecMemcpyNodeSetParams1D(exec, copy_in, d_a, in2.data(), bytes,
                                                cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaGraphLaunch(exec, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  check_out(out, in2.data(), 5.0f, 2.0f, 3.0f, "exec node updates");
  // The graph itself is unchanged by exec updates.
  CHECK_CUDA(cudaGraphKernelNodeGetParams(scale_a, &kp));
  EXPECT_TRUE(*static_cast<float*>(kp.kernelParams[1]) == 2.0f, "graph node kept its argument");
  // A disabled kernel node does nothing.
  CHECK_CUDA(cudaGraphNodeSetEnabled(exec, scale_b, 0));
  unsigned int enabled = 1;
  CHECK_CUDA(cudaGraphNodeGetEnabled(exec, scale_b, &enabled));
  EXPECT_TRUE(enabled == 0, "node reported enabled after disabling");
  CHECK_CUDA(cudaGraphLaunch(exec, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  check_out(out, in2.data(), 5.0f, 2.0f, 1.0f, "disabled node");
  CHECK_CUDA(cudaGraphNodeSetEnabled(exec, scale_b, 1));

  // cudaGraphExecUpdate from a topologically identical graph.
  cudaGraph_t same;
  CHECK_CUDA(cudaGraphClone(&same, g));
  cudaGraphNode_t same_scale_a;
  CHECK_CUDA(cudaGraphNodeFindInClone(&same_scale_a, scale_a, same));
  float seven = 7.0f;
  void* seven_args[] = {&d_a, &seven, &n};
  cudaKernelNodeParams kp7 = kp;
  kp7.kernelParams = seven_args;
  CHECK_CUDA(cudaGraphKernelNodeSetParams(same_scale_a, &kp7));
  cudaGraphExecUpdateResultInfo info{};
  CHECK_CUDA(cudaGraphExecUpdate(exec, same, &info));
  EXPECT_TRUE(info.result == cudaGraphExecUpdateSuccess, "update result %d", (int)info.result);
  CHECK_CUDA(cudaGraphLaunch(exec, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  check_out(out, in.data(), 7.0f, 1.0f, 3.0f, "cudaGraphExecUpdate");

  // A topology change is rejected and leaves the exec as it was.
  cudaGraph_t bigger;
  CHECK_CUDA(cudaGraphClone(&bigger, g));
  cudaGraphNode_t extra;
  CHECK_CUDA(cudaGraphAddEmptyNode(&extra, bigger, nullptr, 0));
  cudaError_t err = cudaGraphExecUpdate(exec, bigger, &info);
  EXPECT_TRUE(err == cudaErrorGraphExecUpdateFailure, "topology change: %s", cudaGetErrorName(err));
  EXPECT_TRUE(info.result == cudaGraphExecUpdateErrorTopologyChanged, "result %d",
              (int)info.result);
  cudaGetLastError();
  // So is a changed dependency.
  cudaGraph_t rewired;
  CHECK_CUDA(cudaGraphClone(&rewired, g));
  cudaGraphNode_t r_sum, r_scale_b;
  CHECK_CUDA(cudaGraphNodeFindInClone(&r_sum, sum, rewired));
  CHECK_CUDA(cudaGraphNodeFindInClone(&r_scale_b, scale_b, rewired));
  CHECK_CUDA(cudaGraphRemoveDependencies(rewired, &r_scale_b, &r_sum, nullptr, 1));
  err = cudaGraphExecUpdate(exec, rewired, &info);
  EXPECT_TRUE(err == cudaErrorGraphExecUpdateFailure &&
                  info.result == cudaGraphExecUpdateErrorTopologyChanged,
              "rewired: %s, result %d", cudaGetErrorName(err), (int)info.result);
  EXPECT_TRUE(info.errorNode == r_sum, "rewired: the error node is the changed node");
  cudaGetLastError();
  CHECK_CUDA(cudaGraphLaunch(exec, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  check_out(out, in.data(), 7.0f, 1.0f, 3.0f, "after rejected updates");
  // A node type change.
  cudaGraph_t one_empty, one_memset;
  CHECK_CUDA(cudaGraphCreate(&one_empty, 0));
  CHECK_CUDA(cudaGraphCreate(&one_memset, 0));
  cudaGraphNode_t e_node, m_node;
  CHECK_CUDA(cudaGraphAddEmptyNode(&e_node, one_empty, nullptr, 0));
  CHECK_CUDA(cudaGraphAddMemsetNode(&m_node, one_memset, nullptr, 0, &ms));
  cudaGraphExec_t small_exec;
  CHECK_CUDA(cudaGraphInstantiate(&small_exec, one_empty, 0));
  err = cudaGraphExecUpdate(small_exec, one_memset, &info);
  EXPECT_TRUE(err == cudaErrorGraphExecUpdateFailure &&
                  info.result == cudaGraphExecUpdateErrorNodeTypeChanged &&
                  info.errorNode == m_node,
              "type change: %s, result %d", cudaGetErrorName(err), (int)info.result);
  cudaGetLastError();

  // An update does not disturb a launch already queued: each launch copies into the
  // buffer its exec had when it was launched.
  {
    std::vector<float> first(kN, -1.0f), second(kN, -1.0f);
    cudaGraph_t small;
    CHECK_CUDA(cudaGraphCreate(&small, 0));
    cudaGraphNode_t set_node, copy_node;
    cudaMemsetParams fill = ms;
    fill.dst = d_c;
    fill.value = bits(11.0f);
    CHECK_CUDA(cudaGraphAddMemsetNode(&set_node, small, nullptr, 0, &fill));
    CHECK_CUDA(cudaGraphAddMemcpyNode1D(&copy_node, small, &set_node, 1, first.data(), d_c, bytes,
                                        cudaMemcpyDeviceToHost));
    cudaGraphExec_t small_exec;
    CHECK_CUDA(cudaGraphInstantiate(&small_exec, small, 0));
    CHECK_CUDA(cudaGraphLaunch(small_exec, stream));
    fill.value = bits(22.0f);
    CHECK_CUDA(cudaGraphExecMemsetNodeSetParams(small_exec, set_node, &fill));
    CHECK_CUDA(cudaGraphExecMemcpyNodeSetParams1D(small_exec, copy_node, second.data(), d_c, bytes,
                                                  cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaGraphLaunch(small_exec, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    for (int i = 0; i < kN; ++i) {
      EXPECT_TRUE(first[i] == 11.0f && second[i] == 22.0f, "in-flight update: %f, %f", first[i],
                  second[i]);
    }
    CHECK_CUDA(cudaGraphExecDestroy(small_exec));
    CHECK_CUDA(cudaGraphDestroy(small));
  }

  // A Graphviz file of the graph.
  const char* dot = "graph_explicit.dot";
  CHECK_CUDA(cudaGraphDebugDotPrint(g, dot, cudaGraphDebugDotFlagsVerbose));
  std::ifstream file(dot);
  std::stringstream text;
  text << file.rdbuf();
  EXPECT_TRUE(
      text.str().find("digraph") != std::string::npos && text.str().find("->") != std::string::npos,
      "the dot file is not a graph");
  std::remove(dot);

  // Destroying a node removes its edges.
  CHECK_CUDA(cudaGraphDestroyNode(extra));
  CHECK_CUDA(cudaGraphGetNodes(bigger, nullptr, &count));
  EXPECT_TRUE(count == 11, "after cudaGraphDestroyNode: %zu nodes", count);

  CHECK_CUDA(cudaGraphExecDestroy(small_exec));
  CHECK_CUDA(cudaGraphExecDestroy(clone_exec));
  CHECK_CUDA(cudaGraphExecDestroy(exec));
  for (cudaGraph_t x : {g, child, clone, same, bigger, rewired, one_empty, one_memset}) {
    CHECK_CUDA(cudaGraphDestroy(x));
  }
  CHECK_CUDA(cudaFree(d_a));
  CHECK_CUDA(cudaFree(d_b));
  CHECK_CUDA(cudaFree(d_c));
  CHECK_CUDA(cudaFree(d_half));
  CHECK_CUDA(cudaFreeHost(out));
  std::printf("PASS graph_explicit\n");
  return 0;
}
