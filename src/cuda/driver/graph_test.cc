// CUDA graph structure, instantiation rules, capture bookkeeping and user objects
// through the driver API, on the HAL null backend (STRATA_BACKEND=null, set by CMake):
// nothing here needs a kernel to run. Expectations are the CUDA driver API reference's.
#include <cuda.h>
#include <gtest/gtest.h>

#include <vector>

namespace {

class Graphs : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
    CUdevice dev;
    ASSERT_EQ(cuDeviceGet(&dev, 0), CUDA_SUCCESS);
    ASSERT_EQ(cuDevicePrimaryCtxRetain(&context_, dev), CUDA_SUCCESS);
  }
  void SetUp() override { ASSERT_EQ(cuCtxSetCurrent(context_), CUDA_SUCCESS); }
  static CUcontext context_;
};
CUcontext Graphs::context_ = nullptr;

CUgraphNode empty(CUgraph g, std::vector<CUgraphNode> deps) {
  CUgraphNode n = nullptr;
  EXPECT_EQ(cuGraphAddEmptyNode(&n, g, deps.data(), deps.size()), CUDA_SUCCESS);
  return n;
}

TEST_F(Graphs, StructureQueries) {
  CUgraph g;
  ASSERT_EQ(cuGraphCreate(&g, 0), CUDA_SUCCESS);
  EXPECT_EQ(cuGraphCreate(&g, 1), CUDA_ERROR_INVALID_VALUE);
  CUgraphNode a = empty(g, {}), b = empty(g, {a}), c = empty(g, {a}), d = empty(g, {b, c});
  size_t n = 0;
  EXPECT_EQ(cuGraphGetNodes(g, nullptr, &n), CUDA_SUCCESS);
  EXPECT_EQ(n, 4u);
  CUgraphNode nodes[6];
  n = 6;
  EXPECT_EQ(cuGraphGetNodes(g, nodes, &n), CUDA_SUCCESS);
  EXPECT_EQ(n, 4u);
  EXPECT_EQ(nodes[4], nullptr);  // unused entries are NULL
  n = 0;
  EXPECT_EQ(cuGraphGetRootNodes(g, nullptr, &n), CUDA_SUCCESS);
  EXPECT_EQ(n, 1u);
  CUgraphNode from[4], to[4];
  n = 4;
  EXPECT_EQ(cuGraphGetEdges(g, from, to, nullptr, &n), CUDA_SUCCESS);
  EXPECT_EQ(n, 4u);
  n = 2;
  CUgraphNode deps[2];
  EXPECT_EQ(cuGraphNodeGetDependencies(d, deps, nullptr, &n), CUDA_SUCCESS);
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(deps[0], b);
  EXPECT_EQ(deps[1], c);
  CUgraphNodeType type;
  EXPECT_EQ(cuGraphNodeGetType(d, &type), CUDA_SUCCESS);
  EXPECT_EQ(type, CU_GRAPH_NODE_TYPE_EMPTY);
  // Edges: duplicates and unknown edges are errors.
  EXPECT_EQ(cuGraphAddDependencies(g, &a, &b, nullptr, 1), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuGraphRemoveDependencies(g, &a, &d, nullptr, 1), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuGraphRemoveDependencies(g, &c, &d, nullptr, 1), CUDA_SUCCESS);
  n = 0;
  EXPECT_EQ(cuGraphNodeGetDependentNodes(c, nullptr, nullptr, &n), CUDA_SUCCESS);
  EXPECT_EQ(n, 0u);
  // A node of another graph cannot be a dependency.
  CUgraph other;
  ASSERT_EQ(cuGraphCreate(&other, 0), CUDA_SUCCESS);
  CUgraphNode x;
  EXPECT_EQ(cuGraphAddEmptyNode(&x, other, &a, 1), CUDA_ERROR_INVALID_VALUE);
  // Destroying a node drops its edges.
  EXPECT_EQ(cuGraphDestroyNode(b), CUDA_SUCCESS);
  n = 0;
  EXPECT_EQ(cuGraphGetEdges(g, nullptr, nullptr, nullptr, &n), CUDA_SUCCESS);
  EXPECT_EQ(n, 1u);  // a -> c
  EXPECT_EQ(cuGraphNodeGetType(b, &type), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuGraphDestroy(other), CUDA_SUCCESS);
  EXPECT_EQ(cuGraphDestroy(g), CUDA_SUCCESS);
}

TEST_F(Graphs, CycleIsRejectedAtInstantiate) {
  CUgraph g;
  ASSERT_EQ(cuGraphCreate(&g, 0), CUDA_SUCCESS);
  CUgraphNode a = empty(g, {}), b = empty(g, {a});
  ASSERT_EQ(cuGraphAddDependencies(g, &b, &a, nullptr, 1), CUDA_SUCCESS);
  CUgraphExec exec;
  EXPECT_EQ(cuGraphInstantiate(&exec, g, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuGraphInstantiate(&exec, g, CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH),
            CUDA_ERROR_NOT_SUPPORTED);
  // Strata does not implement conditional nodes: a clean error, not a crash.
  CUgraphConditionalHandle handle;
  EXPECT_EQ(cuGraphConditionalHandleCreate(&handle, g, context_, 0, 0), CUDA_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(cuGraphDestroy(g), CUDA_SUCCESS);
}

TEST_F(Graphs, CloneAndChildGraph) {
  CUgraph child, g;
  ASSERT_EQ(cuGraphCreate(&child, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphCreate(&g, 0), CUDA_SUCCESS);
  CUgraphNode c1 = empty(child, {});
  empty(child, {c1});
  CUgraphNode root = empty(g, {});
  CUgraphNode child_node;
  ASSERT_EQ(cuGraphAddChildGraphNode(&child_node, g, &root, 1, child), CUDA_SUCCESS);
  CUgraph embedded;
  ASSERT_EQ(cuGraphChildGraphNodeGetGraph(child_node, &embedded), CUDA_SUCCESS);
  EXPECT_NE(embedded, child);  // the child graph was cloned into the node
  size_t n = 0;
  EXPECT_EQ(cuGraphGetNodes(embedded, nullptr, &n), CUDA_SUCCESS);
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(cuGraphDestroy(embedded), CUDA_ERROR_INVALID_VALUE);  // owned by the node
  CUgraph clone;
  ASSERT_EQ(cuGraphClone(&clone, g), CUDA_SUCCESS);
  CUgraphNode cloned_root;
  ASSERT_EQ(cuGraphNodeFindInClone(&cloned_root, root, clone), CUDA_SUCCESS);
  EXPECT_NE(cloned_root, root);
  CUgraphNode not_there;
  EXPECT_EQ(cuGraphNodeFindInClone(&not_there, c1, clone), CUDA_ERROR_INVALID_VALUE);
  for (CUgraph x : {child, g, clone}) EXPECT_EQ(cuGraphDestroy(x), CUDA_SUCCESS);
}

TEST_F(Graphs, ExecUpdatePairsNodesAndEdges) {
  CUgraph g, same, wider;
  ASSERT_EQ(cuGraphCreate(&g, 0), CUDA_SUCCESS);
  CUgraphNode a = empty(g, {});
  empty(g, {a});
  ASSERT_EQ(cuGraphClone(&same, g), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphClone(&wider, g), CUDA_SUCCESS);
  empty(wider, {});
  CUgraphExec exec;
  ASSERT_EQ(cuGraphInstantiate(&exec, g, 0), CUDA_SUCCESS);
  CUgraphExecUpdateResultInfo info{};
  EXPECT_EQ(cuGraphExecUpdate(exec, same, &info), CUDA_SUCCESS);
  EXPECT_EQ(info.result, CU_GRAPH_EXEC_UPDATE_SUCCESS);
  EXPECT_EQ(cuGraphExecUpdate(exec, wider, &info), CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE);
  EXPECT_EQ(info.result, CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED);
  EXPECT_EQ(info.errorNode, nullptr);  // node counts differ
  cuuint64_t flags = 1;
  EXPECT_EQ(cuGraphExecGetFlags(exec, &flags), CUDA_SUCCESS);
  EXPECT_EQ(flags, 0u);
  // Only kernel, memcpy and memset nodes can be disabled.
  EXPECT_EQ(cuGraphNodeSetEnabled(exec, a, 0), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuGraphExecDestroy(exec), CUDA_SUCCESS);
  EXPECT_EQ(cuGraphExecDestroy(exec), CUDA_ERROR_INVALID_VALUE);
  for (CUgraph x : {g, same, wider}) EXPECT_EQ(cuGraphDestroy(x), CUDA_SUCCESS);
}

int destroyed = 0;
void CUDA_CB destroy(void* p) {
  destroyed += *static_cast<int*>(p);
}

TEST_F(Graphs, UserObjectReferences) {
  int weight = 1;
  CUuserObject object;
  ASSERT_EQ(cuUserObjectCreate(&object, &weight, destroy, 2, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC),
            CUDA_SUCCESS);
  CUgraph g;
  ASSERT_EQ(cuGraphCreate(&g, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphRetainUserObject(g, object, 3, 0), CUDA_SUCCESS);
  CUgraph clone;
  ASSERT_EQ(cuGraphClone(&clone, g), CUDA_SUCCESS);  // the clone holds its own references
  EXPECT_EQ(cuGraphReleaseUserObject(g, object, 4), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuGraphReleaseUserObject(g, object, 1), CUDA_SUCCESS);
  EXPECT_EQ(cuUserObjectRelease(object, 2), CUDA_SUCCESS);
  EXPECT_EQ(destroyed, 0);
  EXPECT_EQ(cuGraphDestroy(g), CUDA_SUCCESS);
  EXPECT_EQ(destroyed, 0);
  EXPECT_EQ(cuGraphDestroy(clone), CUDA_SUCCESS);
  EXPECT_EQ(destroyed, 1);
}

void CUDA_CB nothing(void*) {}

TEST_F(Graphs, CaptureBookkeeping) {
  CUstream s, t;
  ASSERT_EQ(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
  ASSERT_EQ(cuStreamCreate(&t, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
  CUgraph g = nullptr;
  EXPECT_EQ(cuStreamEndCapture(s, &g), CUDA_ERROR_ILLEGAL_STATE);
  ASSERT_EQ(cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED), CUDA_SUCCESS);
  EXPECT_EQ(cuLaunchHostFunc(s, nothing, nullptr), CUDA_SUCCESS);
  EXPECT_EQ(cuLaunchHostFunc(s, nothing, nullptr), CUDA_SUCCESS);
  CUstreamCaptureStatus status;
  cuuint64_t id = 0;
  CUgraph capturing = nullptr;
  const CUgraphNode* deps = nullptr;
  size_t num = 0;
  ASSERT_EQ(cuStreamGetCaptureInfo(s, &status, &id, &capturing, &deps, nullptr, &num),
            CUDA_SUCCESS);
  EXPECT_EQ(status, CU_STREAM_CAPTURE_STATUS_ACTIVE);
  EXPECT_NE(id, 0u);
  ASSERT_EQ(num, 1u);
  CUgraphNodeType type;
  EXPECT_EQ(cuGraphNodeGetType(deps[0], &type), CUDA_SUCCESS);
  EXPECT_EQ(type, CU_GRAPH_NODE_TYPE_HOST);
  // Dependencies can be set to nothing: the next node becomes a second root.
  EXPECT_EQ(
      cuStreamUpdateCaptureDependencies(s, nullptr, nullptr, 0, CU_STREAM_SET_CAPTURE_DEPENDENCIES),
      CUDA_SUCCESS);
  EXPECT_EQ(cuLaunchHostFunc(s, nothing, nullptr), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamUpdateCaptureDependencies(t, nullptr, nullptr, 0, 0), CUDA_ERROR_ILLEGAL_STATE);
  ASSERT_EQ(cuStreamEndCapture(s, &g), CUDA_SUCCESS);
  EXPECT_EQ(capturing, g);
  size_t n = 0;
  EXPECT_EQ(cuGraphGetNodes(g, nullptr, &n), CUDA_SUCCESS);
  EXPECT_EQ(n, 3u);
  EXPECT_EQ(cuGraphGetRootNodes(g, nullptr, &n), CUDA_SUCCESS);
  EXPECT_EQ(n, 2u);
  CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_THREAD_LOCAL;
  EXPECT_EQ(cuThreadExchangeStreamCaptureMode(&mode), CUDA_SUCCESS);
  EXPECT_EQ(mode, CU_STREAM_CAPTURE_MODE_GLOBAL);
  EXPECT_EQ(cuThreadExchangeStreamCaptureMode(&mode), CUDA_SUCCESS);
  mode = static_cast<CUstreamCaptureMode>(42);
  EXPECT_EQ(cuThreadExchangeStreamCaptureMode(&mode), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuGraphDestroy(g), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamDestroy(s), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamDestroy(t), CUDA_SUCCESS);
}

TEST_F(Graphs, ProcAddresses) {
  void* fn = nullptr;
  CUdriverProcAddressQueryResult result;
  ASSERT_EQ(
      cuGetProcAddress("cuGraphInstantiate", &fn, 12000, CU_GET_PROC_ADDRESS_DEFAULT, &result),
      CUDA_SUCCESS);
  EXPECT_EQ(result, CU_GET_PROC_ADDRESS_SUCCESS);
  EXPECT_EQ(fn, reinterpret_cast<void*>(&cuGraphInstantiateWithFlags));
  ASSERT_EQ(cuGetProcAddress("cuGraphLaunch", &fn, 12000,
                             CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &result),
            CUDA_SUCCESS);
  EXPECT_EQ(result, CU_GET_PROC_ADDRESS_SUCCESS);
  EXPECT_NE(fn, reinterpret_cast<void*>(&cuGraphLaunch));  // the _ptsz variant
}

}  // namespace
