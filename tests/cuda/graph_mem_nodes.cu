// Graph memory nodes, per the CUDA runtime API reference (cudaGraphAddMemAllocNode,
// cudaGraphLaunch) and the programming guide's "Graph Memory Nodes":
// - the address is fixed when the node is added and reported by the node's params;
// - an allocation freed in the same graph lets the graph be relaunched;
// - one not freed makes a relaunch fail with cudaErrorInvalidValue until it is freed
//   by cudaFreeAsync, cudaFree or a free node of another graph; or is freed
//   automatically with cudaGraphInstantiateFlagAutoFreeOnLaunch;
// - cudaMallocAsync / cudaFreeAsync in a capture become memory nodes;
// - graphs with memory nodes cannot be cloned or instantiated twice.
#include <algorithm>
#include <cstdio>

#include "test_check.h"

__global__ void iota(int* p, int base, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = base + i;
}

constexpr int kN = 2048;

cudaMemAllocNodeParams alloc_params(size_t bytes) {
  cudaMemAllocNodeParams p{};
  p.poolProps.allocType = cudaMemAllocationTypePinned;
  p.poolProps.location.type = cudaMemLocationTypeDevice;
  p.poolProps.location.id = 0;
  p.bytesize = bytes;
  return p;
}

cudaGraphNode_t add_iota(cudaGraph_t g, cudaGraphNode_t dep, int** ptr, int* base, int* n) {
  void* args[] = {ptr, base, n};
  cudaKernelNodeParams k{};
  k.func = (void*)iota;
  k.gridDim = dim3(kN / 256);
  k.blockDim = dim3(256);
  k.kernelParams = args;
  cudaGraphNode_t node;
  CHECK_CUDA(cudaGraphAddKernelNode(&node, g, &dep, 1, &k));
  return node;
}

void check(const int* h, int base, const char* what) {
  for (int i = 0; i < kN; ++i) {
    EXPECT_TRUE(h[i] == base + i, "%s: h[%d] = %d, expected %d", what, i, h[i], base + i);
  }
}

int main() {
  const size_t bytes = kN * sizeof(int);
  int* h = nullptr;
  CHECK_CUDA(cudaMallocHost(&h, bytes));
  cudaStream_t s;
  CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  int n = kN;

  // Allocate, use, copy out and free in one graph.
  cudaGraph_t g1;
  CHECK_CUDA(cudaGraphCreate(&g1, 0));
  cudaMemAllocNodeParams a1 = alloc_params(bytes);
  cudaGraphNode_t alloc1;
  CHECK_CUDA(cudaGraphAddMemAllocNode(&alloc1, g1, nullptr, 0, &a1));
  EXPECT_TRUE(a1.dptr != nullptr, "the allocation node returned no address");
  int* p1 = static_cast<int*>(a1.dptr);
  int base1 = 100;
  cudaGraphNode_t k1 = add_iota(g1, alloc1, &p1, &base1, &n);
  cudaGraphNode_t copy1, free1;
  CHECK_CUDA(cudaGraphAddMemcpyNode1D(&copy1, g1, &k1, 1, h, p1, bytes, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaGraphAddMemFreeNode(&free1, g1, &copy1, 1, p1));
  cudaMemAllocNodeParams back{};
  CHECK_CUDA(cudaGraphMemAllocNodeGetParams(alloc1, &back));
  EXPECT_TRUE(back.dptr == a1.dptr && back.bytesize == bytes, "alloc node params read back");
  void* freed = nullptr;
  CHECK_CUDA(cudaGraphMemFreeNodeGetParams(free1, &freed));
  EXPECT_TRUE(freed == p1, "free node params read back");
  cudaGraph_t clone;
  EXPECT_TRUE(cudaGraphClone(&clone, g1) != cudaSuccess, "a graph with memory nodes was cloned");
  cudaGetLastError();
  cudaGraphExec_t e1;
  CHECK_CUDA(cudaGraphInstantiate(&e1, g1, 0));
  cudaGraphExec_t twice;
  EXPECT_TRUE(cudaGraphInstantiate(&twice, g1, 0) != cudaSuccess,
              "a graph with memory nodes was instantiated twice");
  cudaGetLastError();
  for (int i = 0; i < 3; ++i) {
    CHECK_CUDA(cudaGraphLaunch(e1, s));
    CHECK_CUDA(cudaStreamSynchronize(s));
    check(h, 100, "alloc-use-free graph");
  }

  // An allocation the graph does not free.
  cudaGraph_t g2;
  CHECK_CUDA(cudaGraphCreate(&g2, 0));
  cudaMemAllocNodeParams a2 = alloc_params(bytes);
  cudaGraphNode_t alloc2;
  CHECK_CUDA(cudaGraphAddMemAllocNode(&alloc2, g2, nullptr, 0, &a2));
  int* p2 = static_cast<int*>(a2.dptr);
  int base2 = 7;
  add_iota(g2, alloc2, &p2, &base2, &n);
  cudaGraphExec_t e2;
  CHECK_CUDA(cudaGraphInstantiate(&e2, g2, 0));
  CHECK_CUDA(cudaGraphLaunch(e2, s));
  // The memory outlives the launch: ordinary stream work can read it.
  CHECK_CUDA(cudaMemcpyAsync(h, p2, bytes, cudaMemcpyDeviceToHost, s));
  CHECK_CUDA(cudaStreamSynchronize(s));
  check(h, 7, "unfreed allocation after launch");
  cudaError_t err = cudaGraphLaunch(e2, s);
  EXPECT_TRUE(err == cudaErrorInvalidValue, "relaunch with a live allocation: %s",
              cudaGetErrorName(err));
  cudaGetLastError();
  CHECK_CUDA(cudaFreeAsync(p2, s));
  CHECK_CUDA(cudaGraphLaunch(e2, s));
  CHECK_CUDA(cudaStreamSynchronize(s));
  CHECK_CUDA(cudaFree(p2));
  // A free node in another graph frees it too.
  cudaGraph_t g3;
  CHECK_CUDA(cudaGraphCreate(&g3, 0));
  cudaGraphNode_t free3;
  CHECK_CUDA(cudaGraphAddMemFreeNode(&free3, g3, nullptr, 0, p2));
  cudaGraphExec_t e3;
  CHECK_CUDA(cudaGraphInstantiate(&e3, g3, 0));
  CHECK_CUDA(cudaGraphLaunch(e2, s));
  CHECK_CUDA(cudaGraphLaunch(e3, s));
  CHECK_CUDA(cudaGraphLaunch(e2, s));
  CHECK_CUDA(cudaGraphLaunch(e3, s));
  CHECK_CUDA(cudaStreamSynchronize(s));
  cudaGraphExecDestroy(e2);

  // Freed automatically on relaunch.
  cudaGraphExec_t e2_auto;
  CHECK_CUDA(cudaGraphInstantiate(&e2_auto, g2, cudaGraphInstantiateFlagAutoFreeOnLaunch));
  unsigned long long flags = 0;
  CHECK_CUDA(cudaGraphExecGetFlags(e2_auto, &flags));
  EXPECT_TRUE(flags == cudaGraphInstantiateFlagAutoFreeOnLaunch, "exec flags %llu", flags);
  for (int i = 0; i < 3; ++i) CHECK_CUDA(cudaGraphLaunch(e2_auto, s));
  CHECK_CUDA(cudaStreamSynchronize(s));
  CHECK_CUDA(cudaMemcpy(h, p2, bytes, cudaMemcpyDeviceToHost));
  check(h, 7, "auto-free graph");
  CHECK_CUDA(cudaFree(p2));

  unsigned long long reserved = 0;
  CHECK_CUDA(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &reserved));
  EXPECT_TRUE(reserved >= bytes, "reserved graph memory %llu", reserved);
  unsigned long long zero = 0;
  CHECK_CUDA(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero));
  CHECK_CUDA(cudaDeviceGraphMemTrim(0));

  // Stream-ordered allocation in a capture.
  cudaGraph_t g4;
  CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  int* p4 = nullptr;
  CHECK_CUDA(cudaMallocAsync(&p4, bytes, s));
  iota<<<kN / 256, 256, 0, s>>>(p4, 55, kN);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaMemcpyAsync(h, p4, bytes, cudaMemcpyDeviceToHost, s));
  CHECK_CUDA(cudaFreeAsync(p4, s));
  CHECK_CUDA(cudaStreamEndCapture(s, &g4));
  cudaGraphNode_t nodes[8];
  size_t count = 8;
  CHECK_CUDA(cudaGraphGetNodes(g4, nodes, &count));
  EXPECT_TRUE(count == 4, "captured graph has %zu nodes, expected 4", count);
  int allocs = 0, frees = 0;
  for (size_t i = 0; i < count; ++i) {
    cudaGraphNodeType type;
    CHECK_CUDA(cudaGraphNodeGetType(nodes[i], &type));
    allocs += type == cudaGraphNodeTypeMemAlloc;
    frees += type == cudaGraphNodeTypeMemFree;
  }
  EXPECT_TRUE(allocs == 1 && frees == 1, "captured %d alloc and %d free nodes", allocs, frees);
  cudaGraphExec_t e4;
  CHECK_CUDA(cudaGraphInstantiate(&e4, g4, 0));
  for (int i = 0; i < 5; ++i) {
    std::fill(h, h + kN, -1);
    CHECK_CUDA(cudaGraphLaunch(e4, s));
    CHECK_CUDA(cudaStreamSynchronize(s));
    check(h, 55, "captured alloc/free");
  }

  CHECK_CUDA(cudaGraphExecDestroy(e1));
  CHECK_CUDA(cudaGraphExecDestroy(e2_auto));
  CHECK_CUDA(cudaGraphExecDestroy(e3));
  CHECK_CUDA(cudaGraphExecDestroy(e4));
  for (cudaGraph_t g : {g1, g2, g3, g4}) CHECK_CUDA(cudaGraphDestroy(g));
  CHECK_CUDA(cudaFreeHost(h));
  std::printf("PASS graph_mem_nodes\n");
  return 0;
}
