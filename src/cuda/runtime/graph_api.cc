// CUDA graphs in the runtime API: every cudaGraph* / cudaGraphExec* / cudaUserObject*
// function wraps its driver equivalent (src/cuda/driver/api_graph.cc). The handle
// types are the driver's (cudaGraph_t is CUgraph, ...). Runtime structures are
// converted: a kernel node's func is the host stub, resolved to the current device's
// CUfunction as cudaLaunchKernel does; memcpy nodes take cudaMemcpy3DParms (CUDA arrays
// are not supported in graph nodes: cudaErrorNotSupported). The stream-ordered
// entry points (capture, launch, upload) are in graph_api_stream.inc.
#include <map>
#include <mutex>

#include "base/log.h"
#include "cuda/runtime/api_common.h"
#include "cuda/runtime/error_map.h"
#include "cuda/runtime/registry.h"

namespace rt = strata::cuda::runtime;

namespace {

cudaPitchedPtr make_cudaPitchedPtr(void* ptr, size_t pitch, size_t xsize, size_t ysize) {
  cudaPitchedPtr p;
  p.ptr = ptr;
  p.pitch = pitch;
  p.xsize = xsize;
  p.ysize = ysize;
  return p;
}
cudaPos make_cudaPos(size_t x, size_t y, size_t z) {
  return cudaPos{x, y, z};
}
cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) {
  return cudaExtent{w, h, d};
}

// CUfunction -> host stub, for cudaGraphKernelNodeGetParams.
std::mutex& stub_mutex() {
  static auto* m = new std::mutex();
  return *m;
}
std::map<CUfunction, const void*>& stubs() {
  static auto* m = new std::map<CUfunction, const void*>();
  return *m;
}

cudaError_t resolve_function(const void* func, CUfunction* out) {
  rt::KernelRecord* kernel = rt::find_kernel(func);
  if (kernel == nullptr) return cudaErrorInvalidDeviceFunction;
  CUresult r = rt::kernel_function(kernel, rt::current_device(), out);
  if (r != CUDA_SUCCESS) return rt::to_cuda_error(r);
  std::lock_guard<std::mutex> lock(stub_mutex());
  stubs()[*out] = func;
  return cudaSuccess;
}

const void* stub_of(CUfunction f) {
  std::lock_guard<std::mutex> lock(stub_mutex());
  auto it = stubs().find(f);
  if (it != stubs().end()) return it->second;
  // Captured launches: the runtime's own index of the functions it loaded.
  const void* stub = rt::host_stub(f);
  return stub != nullptr ? stub : static_cast<const void*>(f);
}

cudaError_t kernel_params(const void* func, dim3 grid, dim3 block, unsigned int shared, void** args,
                          void** extra, CUDA_KERNEL_NODE_PARAMS* out) {
  if (func == nullptr) return cudaErrorInvalidDeviceFunction;
  *out = CUDA_KERNEL_NODE_PARAMS{};
  if (cudaError_t e = resolve_function(func, &out->func); e != cudaSuccess) return e;
  out->gridDimX = grid.x;
  out->gridDimY = grid.y;
  out->gridDimZ = grid.z;
  out->blockDimX = block.x;
  out->blockDimY = block.y;
  out->blockDimZ = block.z;
  out->sharedMemBytes = shared;
  out->kernelParams = args;
  out->extra = extra;
  return cudaSuccess;
}

cudaError_t kernel_params(const cudaKernelNodeParams* p, CUDA_KERNEL_NODE_PARAMS* out) {
  if (p == nullptr) return cudaErrorInvalidValue;
  return kernel_params(p->func, p->gridDim, p->blockDim, p->sharedMemBytes, p->kernelParams,
                       p->extra, out);
}

CUmemorytype memory_type(cudaMemcpyKind kind, bool source) {
  switch (kind) {
    case cudaMemcpyHostToHost:
      return CU_MEMORYTYPE_HOST;
    case cudaMemcpyHostToDevice:
      return source ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
    case cudaMemcpyDeviceToHost:
      return source ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
    case cudaMemcpyDeviceToDevice:
      return CU_MEMORYTYPE_DEVICE;
    default:
      return CU_MEMORYTYPE_UNIFIED;
  }
}

void set_side(CUmemorytype type, void* ptr, CUmemorytype* t, const void** host, CUdeviceptr* dev) {
  *t = type;
  if (type == CU_MEMORYTYPE_HOST) {
    *host = ptr;
  } else {
    *dev = reinterpret_cast<CUdeviceptr>(ptr);
  }
}

cudaError_t copy_params(const cudaMemcpy3DParms* p, CUDA_MEMCPY3D* out) {
  if (p == nullptr) return cudaErrorInvalidValue;
  if (p->kind < cudaMemcpyHostToHost || p->kind > cudaMemcpyDefault) {
    return cudaErrorInvalidMemcpyDirection;
  }
  if (p->srcArray != nullptr || p->dstArray != nullptr) {
    STRATA_LOG_INFO("cudart: graph memcpy nodes with CUDA arrays are not supported");
    return cudaErrorNotSupported;
  }
  *out = CUDA_MEMCPY3D{};
  set_side(memory_type(p->kind, true), p->srcPtr.ptr, &out->srcMemoryType, &out->srcHost,
           &out->srcDevice);
  out->srcXInBytes = p->srcPos.x;
  out->srcY = p->srcPos.y;
  out->srcZ = p->srcPos.z;
  out->srcPitch = p->srcPtr.pitch;
  out->srcHeight = p->srcPtr.ysize;
  CUmemorytype dst_type = memory_type(p->kind, false);
  out->dstMemoryType = dst_type;
  if (dst_type == CU_MEMORYTYPE_HOST) {
    out->dstHost = p->dstPtr.ptr;
  } else {
    out->dstDevice = reinterpret_cast<CUdeviceptr>(p->dstPtr.ptr);
  }
  out->dstXInBytes = p->dstPos.x;
  out->dstY = p->dstPos.y;
  out->dstZ = p->dstPos.z;
  out->dstPitch = p->dstPtr.pitch;
  out->dstHeight = p->dstPtr.ysize;
  out->WidthInBytes = p->extent.width;
  out->Height = p->extent.height;
  out->Depth = p->extent.depth;
  return cudaSuccess;
}

cudaMemcpy3DParms copy_params_out(const CUDA_MEMCPY3D& c) {
  cudaMemcpy3DParms p{};
  auto side = [](CUmemorytype t, const void* host, CUdeviceptr dev) {
    return t == CU_MEMORYTYPE_HOST ? const_cast<void*>(host) : reinterpret_cast<void*>(dev);
  };
  p.srcPtr = make_cudaPitchedPtr(side(c.srcMemoryType, c.srcHost, c.srcDevice), c.srcPitch,
                                 c.WidthInBytes, c.srcHeight);
  p.srcPos = make_cudaPos(c.srcXInBytes, c.srcY, c.srcZ);
  p.dstPtr = make_cudaPitchedPtr(side(c.dstMemoryType, c.dstHost, c.dstDevice), c.dstPitch,
                                 c.WidthInBytes, c.dstHeight);
  p.dstPos = make_cudaPos(c.dstXInBytes, c.dstY, c.dstZ);
  p.extent = make_cudaExtent(c.WidthInBytes, c.Height, c.Depth);
  const bool src_host = c.srcMemoryType == CU_MEMORYTYPE_HOST;
  const bool dst_host = c.dstMemoryType == CU_MEMORYTYPE_HOST;
  if (c.srcMemoryType == CU_MEMORYTYPE_UNIFIED || c.dstMemoryType == CU_MEMORYTYPE_UNIFIED) {
    p.kind = cudaMemcpyDefault;
  } else {
    p.kind = src_host ? (dst_host ? cudaMemcpyHostToHost : cudaMemcpyHostToDevice)
                      : (dst_host ? cudaMemcpyDeviceToHost : cudaMemcpyDeviceToDevice);
  }
  return p;
}

// A 1D copy of `count` bytes as a 3D copy.
cudaError_t copy_params_1d(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                           CUDA_MEMCPY3D* out) {
  cudaMemcpy3DParms p{};
  p.srcPtr = make_cudaPitchedPtr(const_cast<void*>(src), count, count, 1);
  p.dstPtr = make_cudaPitchedPtr(dst, count, count, 1);
  p.extent = make_cudaExtent(count, 1, 1);
  p.kind = kind;
  return copy_params(&p, out);
}

// The device address of `symbol` + offset, checking that count bytes fit.
cudaError_t symbol_address(const void* symbol, size_t count, size_t offset, void** out) {
  void* base = nullptr;
  size_t size = 0;
  if (cudaError_t e = cudaGetSymbolAddress(&base, symbol); e != cudaSuccess) return e;
  if (cudaError_t e = cudaGetSymbolSize(&size, symbol); e != cudaSuccess) return e;
  if (offset > size || count > size - offset) return cudaErrorInvalidValue;
  *out = static_cast<char*>(base) + offset;
  return cudaSuccess;
}

CUDA_MEMSET_NODE_PARAMS memset_params(const cudaMemsetParams& p) {
  CUDA_MEMSET_NODE_PARAMS m{};
  m.dst = reinterpret_cast<CUdeviceptr>(p.dst);
  m.pitch = p.pitch;
  m.value = p.value;
  m.elementSize = p.elementSize;
  m.width = p.width;
  m.height = p.height;
  return m;
}

CUmemPoolProps pool_props(const cudaMemPoolProps& p) {
  CUmemPoolProps out{};
  out.allocType = static_cast<CUmemAllocationType>(p.allocType);
  out.handleTypes = static_cast<CUmemAllocationHandleType>(p.handleTypes);
  out.location.type = static_cast<CUmemLocationType>(p.location.type);
  out.location.id = p.location.id;
  return out;
}

const CUgraphEdgeData* edges(const cudaGraphEdgeData* e) {
  return reinterpret_cast<const CUgraphEdgeData*>(e);
}

// The runtime's generic node parameters as the driver's.
cudaError_t node_params(const cudaGraphNodeParams* p, CUgraphNodeParams* out) {
  if (p == nullptr) return cudaErrorInvalidValue;
  *out = CUgraphNodeParams{};
  out->type = static_cast<CUgraphNodeType>(p->type);
  switch (p->type) {
    case cudaGraphNodeTypeKernel: {
      CUDA_KERNEL_NODE_PARAMS k{};
      cudaError_t e =
          kernel_params(p->kernel.func, p->kernel.gridDim, p->kernel.blockDim,
                        p->kernel.sharedMemBytes, p->kernel.kernelParams, p->kernel.extra, &k);
      if (e != cudaSuccess) return e;
      out->kernel.func = k.func;
      out->kernel.gridDimX = k.gridDimX;
      out->kernel.gridDimY = k.gridDimY;
      out->kernel.gridDimZ = k.gridDimZ;
      out->kernel.blockDimX = k.blockDimX;
      out->kernel.blockDimY = k.blockDimY;
      out->kernel.blockDimZ = k.blockDimZ;
      out->kernel.sharedMemBytes = k.sharedMemBytes;
      out->kernel.kernelParams = k.kernelParams;
      out->kernel.extra = k.extra;
      return cudaSuccess;
    }
    case cudaGraphNodeTypeMemcpy:
      return copy_params(&p->memcpy.copyParams, &out->memcpy.copyParams);
    case cudaGraphNodeTypeMemset:
      out->memset.dst = reinterpret_cast<CUdeviceptr>(p->memset.dst);
      out->memset.pitch = p->memset.pitch;
      out->memset.value = p->memset.value;
      out->memset.elementSize = p->memset.elementSize;
      out->memset.width = p->memset.width;
      out->memset.height = p->memset.height;
      return cudaSuccess;
    case cudaGraphNodeTypeHost:
      out->host.fn = p->host.fn;
      out->host.userData = p->host.userData;
      return cudaSuccess;
    case cudaGraphNodeTypeGraph:
      out->graph.graph = p->graph.graph;
      out->graph.ownership = static_cast<CUgraphChildGraphNodeOwnership>(p->graph.ownership);
      return cudaSuccess;
    case cudaGraphNodeTypeEmpty:
      return cudaSuccess;
    case cudaGraphNodeTypeWaitEvent:
      out->eventWait.event = p->eventWait.event;
      return cudaSuccess;
    case cudaGraphNodeTypeEventRecord:
      out->eventRecord.event = p->eventRecord.event;
      return cudaSuccess;
    case cudaGraphNodeTypeMemAlloc:
      out->alloc.poolProps = pool_props(p->alloc.poolProps);
      out->alloc.bytesize = p->alloc.bytesize;
      return cudaSuccess;
    case cudaGraphNodeTypeMemFree:
      out->free.dptr = reinterpret_cast<CUdeviceptr>(p->free.dptr);
      return cudaSuccess;
    default:
      STRATA_LOG_INFO("cudart: graph node type {} is not supported", static_cast<int>(p->type));
      return cudaErrorNotSupported;
  }
}

#define ENTER()                                                                     \
  do {                                                                              \
    if (cudaError_t enter_error_ = rt::enter_device(); enter_error_ != cudaSuccess) \
      return enter_error_;                                                          \
  } while (0)

}  // namespace

extern "C" {

cudaError_t cudaGraphCreate(cudaGraph_t* pGraph, unsigned int flags) {
  ENTER();
  return rt::record(cuGraphCreate(pGraph, flags));
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  ENTER();
  return rt::record(cuGraphDestroy(graph));
}

cudaError_t cudaGraphClone(cudaGraph_t* pGraphClone, cudaGraph_t originalGraph) {
  ENTER();
  return rt::record(cuGraphClone(pGraphClone, originalGraph));
}

cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t* pNode, cudaGraphNode_t originalNode,
                                     cudaGraph_t clonedGraph) {
  ENTER();
  return rt::record(cuGraphNodeFindInClone(pNode, originalNode, clonedGraph));
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                   const cudaKernelNodeParams* pNodeParams) {
  ENTER();
  CUDA_KERNEL_NODE_PARAMS k;
  if (cudaError_t e = kernel_params(pNodeParams, &k); e != cudaSuccess) return rt::record(e);
  return rt::record(cuGraphAddKernelNode(pGraphNode, graph, pDependencies, numDependencies, &k));
}

cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, cudaKernelNodeParams* pNodeParams) {
  ENTER();
  if (pNodeParams == nullptr) return rt::record(cudaErrorInvalidValue);
  CUDA_KERNEL_NODE_PARAMS k{};
  if (CUresult r = cuGraphKernelNodeGetParams(node, &k); r != CUDA_SUCCESS) return rt::record(r);
  pNodeParams->func = const_cast<void*>(stub_of(k.func));
  pNodeParams->gridDim = dim3(k.gridDimX, k.gridDimY, k.gridDimZ);
  pNodeParams->blockDim = dim3(k.blockDimX, k.blockDimY, k.blockDimZ);
  pNodeParams->sharedMemBytes = k.sharedMemBytes;
  pNodeParams->kernelParams = k.kernelParams;
  pNodeParams->extra = k.extra;
  return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                                         const cudaKernelNodeParams* pNodeParams) {
  ENTER();
  CUDA_KERNEL_NODE_PARAMS k;
  if (cudaError_t e = kernel_params(pNodeParams, &k); e != cudaSuccess) return rt::record(e);
  return rt::record(cuGraphKernelNodeSetParams(node, &k));
}

cudaError_t cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t hDst, cudaGraphNode_t hSrc) {
  ENTER();
  return rt::record(cuGraphKernelNodeCopyAttributes(hDst, hSrc));
}

cudaError_t cudaGraphKernelNodeGetAttribute(cudaGraphNode_t hNode, cudaKernelNodeAttrID attr,
                                            cudaKernelNodeAttrValue* value_out) {
  ENTER();
  return rt::record(
      cuGraphKernelNodeGetAttribute(hNode, static_cast<CUkernelNodeAttrID>(attr),
                                    reinterpret_cast<CUkernelNodeAttrValue*>(value_out)));
}

cudaError_t cudaGraphKernelNodeSetAttribute(cudaGraphNode_t hNode, cudaKernelNodeAttrID attr,
                                            const cudaKernelNodeAttrValue* value) {
  ENTER();
  return rt::record(
      cuGraphKernelNodeSetAttribute(hNode, static_cast<CUkernelNodeAttrID>(attr),
                                    reinterpret_cast<const CUkernelNodeAttrValue*>(value)));
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                   const cudaMemcpy3DParms* pCopyParams) {
  ENTER();
  CUDA_MEMCPY3D c;
  if (cudaError_t e = copy_params(pCopyParams, &c); e != cudaSuccess) return rt::record(e);
  return rt::record(
      cuGraphAddMemcpyNode(pGraphNode, graph, pDependencies, numDependencies, &c, nullptr));
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                     void* dst, const void* src, size_t count,
                                     cudaMemcpyKind kind) {
  ENTER();
  CUDA_MEMCPY3D c;
  if (cudaError_t e = copy_params_1d(dst, src, count, kind, &c); e != cudaSuccess) {
    return rt::record(e);
  }
  return rt::record(
      cuGraphAddMemcpyNode(pGraphNode, graph, pDependencies, numDependencies, &c, nullptr));
}

cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                           const cudaGraphNode_t* pDependencies,
                                           size_t numDependencies, const void* symbol,
                                           const void* src, size_t count, size_t offset,
                                           cudaMemcpyKind kind) {
  ENTER();
  void* dst = nullptr;
  if (cudaError_t e = symbol_address(symbol, count, offset, &dst); e != cudaSuccess) {
    return rt::record(e);
  }
  return cudaGraphAddMemcpyNode1D(pGraphNode, graph, pDependencies, numDependencies, dst, src,
                                  count, kind);
}

cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                             const cudaGraphNode_t* pDependencies,
                                             size_t numDependencies, void* dst, const void* symbol,
                                             size_t count, size_t offset, cudaMemcpyKind kind) {
  ENTER();
  void* src = nullptr;
  if (cudaError_t e = symbol_address(symbol, count, offset, &src); e != cudaSuccess) {
    return rt::record(e);
  }
  return cudaGraphAddMemcpyNode1D(pGraphNode, graph, pDependencies, numDependencies, dst, src,
                                  count, kind);
}

cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, cudaMemcpy3DParms* pNodeParams) {
  ENTER();
  if (pNodeParams == nullptr) return rt::record(cudaErrorInvalidValue);
  CUDA_MEMCPY3D c{};
  if (CUresult r = cuGraphMemcpyNodeGetParams(node, &c); r != CUDA_SUCCESS) return rt::record(r);
  *pNodeParams = copy_params_out(c);
  return cudaSuccess;
}

cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node,
                                         const cudaMemcpy3DParms* pNodeParams) {
  ENTER();
  CUDA_MEMCPY3D c;
  if (cudaError_t e = copy_params(pNodeParams, &c); e != cudaSuccess) return rt::record(e);
  return rt::record(cuGraphMemcpyNodeSetParams(node, &c));
}

cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void* dst, const void* src,
                                           size_t count, cudaMemcpyKind kind) {
  ENTER();
  CUDA_MEMCPY3D c;
  if (cudaError_t e = copy_params_1d(dst, src, count, kind, &c); e != cudaSuccess) {
    return rt::record(e);
  }
  return rt::record(cuGraphMemcpyNodeSetParams(node, &c));
}

cudaError_t cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t node, const void* symbol,
                                                 const void* src, size_t count, size_t offset,
                                                 cudaMemcpyKind kind) {
  ENTER();
  void* dst = nullptr;
  if (cudaError_t e = symbol_address(symbol, count, offset, &dst); e != cudaSuccess) {
    return rt::record(e);
  }
  return cudaGraphMemcpyNodeSetParams1D(node, dst, src, count, kind);
}

cudaError_t cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t node, void* dst,
                                                   const void* symbol, size_t count, size_t offset,
                                                   cudaMemcpyKind kind) {
  ENTER();
  void* src = nullptr;
  if (cudaError_t e = symbol_address(symbol, count, offset, &src); e != cudaSuccess) {
    return rt::record(e);
  }
  return cudaGraphMemcpyNodeSetParams1D(node, dst, src, count, kind);
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                   const cudaMemsetParams* pMemsetParams) {
  ENTER();
  if (pMemsetParams == nullptr) return rt::record(cudaErrorInvalidValue);
  CUDA_MEMSET_NODE_PARAMS m = memset_params(*pMemsetParams);
  return rt::record(
      cuGraphAddMemsetNode(pGraphNode, graph, pDependencies, numDependencies, &m, nullptr));
}

cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, cudaMemsetParams* pNodeParams) {
  ENTER();
  if (pNodeParams == nullptr) return rt::record(cudaErrorInvalidValue);
  CUDA_MEMSET_NODE_PARAMS m{};
  if (CUresult r = cuGraphMemsetNodeGetParams(node, &m); r != CUDA_SUCCESS) return rt::record(r);
  pNodeParams->dst = reinterpret_cast<void*>(m.dst);
  pNodeParams->pitch = m.pitch;
  pNodeParams->value = m.value;
  pNodeParams->elementSize = m.elementSize;
  pNodeParams->width = m.width;
  pNodeParams->height = m.height;
  return cudaSuccess;
}

cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node,
                                         const cudaMemsetParams* pNodeParams) {
  ENTER();
  if (pNodeParams == nullptr) return rt::record(cudaErrorInvalidValue);
  CUDA_MEMSET_NODE_PARAMS m = memset_params(*pNodeParams);
  return rt::record(cuGraphMemsetNodeSetParams(node, &m));
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                 const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                 const cudaHostNodeParams* pNodeParams) {
  ENTER();
  if (pNodeParams == nullptr) return rt::record(cudaErrorInvalidValue);
  CUDA_HOST_NODE_PARAMS h{pNodeParams->fn, pNodeParams->userData};
  return rt::record(cuGraphAddHostNode(pGraphNode, graph, pDependencies, numDependencies, &h));
}

cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, cudaHostNodeParams* pNodeParams) {
  ENTER();
  if (pNodeParams == nullptr) return rt::record(cudaErrorInvalidValue);
  CUDA_HOST_NODE_PARAMS h{};
  if (CUresult r = cuGraphHostNodeGetParams(node, &h); r != CUDA_SUCCESS) return rt::record(r);
  pNodeParams->fn = h.fn;
  pNodeParams->userData = h.userData;
  return cudaSuccess;
}

cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node,
                                       const cudaHostNodeParams* pNodeParams) {
  ENTER();
  if (pNodeParams == nullptr) return rt::record(cudaErrorInvalidValue);
  CUDA_HOST_NODE_PARAMS h{pNodeParams->fn, pNodeParams->userData};
  return rt::record(cuGraphHostNodeSetParams(node, &h));
}

cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                       cudaGraph_t childGraph) {
  ENTER();
  return rt::record(
      cuGraphAddChildGraphNode(pGraphNode, graph, pDependencies, numDependencies, childGraph));
}

cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t* pGraph) {
  ENTER();
  return rt::record(cuGraphChildGraphNodeGetGraph(node, pGraph));
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                  const cudaGraphNode_t* pDependencies, size_t numDependencies) {
  ENTER();
  return rt::record(cuGraphAddEmptyNode(pGraphNode, graph, pDependencies, numDependencies));
}

cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                        const cudaGraphNode_t* pDependencies,
                                        size_t numDependencies, cudaEvent_t event) {
  ENTER();
  return rt::record(
      cuGraphAddEventRecordNode(pGraphNode, graph, pDependencies, numDependencies, event));
}

cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t* event_out) {
  ENTER();
  return rt::record(cuGraphEventRecordNodeGetEvent(node, event_out));
}

cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
  ENTER();
  return rt::record(cuGraphEventRecordNodeSetEvent(node, event));
}

cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                      const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                      cudaEvent_t event) {
  ENTER();
  return rt::record(
      cuGraphAddEventWaitNode(pGraphNode, graph, pDependencies, numDependencies, event));
}

cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t* event_out) {
  ENTER();
  return rt::record(cuGraphEventWaitNodeGetEvent(node, event_out));
}

cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
  ENTER();
  return rt::record(cuGraphEventWaitNodeSetEvent(node, event));
}

cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                     cudaMemAllocNodeParams* nodeParams) {
  ENTER();
  if (nodeParams == nullptr) return rt::record(cudaErrorInvalidValue);
  CUDA_MEM_ALLOC_NODE_PARAMS a{};
  a.poolProps = pool_props(nodeParams->poolProps);
  a.bytesize = nodeParams->bytesize;
  CUresult r = cuGraphAddMemAllocNode(pGraphNode, graph, pDependencies, numDependencies, &a);
  if (r == CUDA_SUCCESS) nodeParams->dptr = reinterpret_cast<void*>(a.dptr);
  return rt::record(r);
}

cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node,
                                           cudaMemAllocNodeParams* params_out) {
  ENTER();
  if (params_out == nullptr) return rt::record(cudaErrorInvalidValue);
  CUDA_MEM_ALLOC_NODE_PARAMS a{};
  if (CUresult r = cuGraphMemAllocNodeGetParams(node, &a); r != CUDA_SUCCESS) return rt::record(r);
  *params_out = cudaMemAllocNodeParams{};
  params_out->poolProps.allocType = static_cast<cudaMemAllocationType>(a.poolProps.allocType);
  params_out->poolProps.handleTypes =
      static_cast<cudaMemAllocationHandleType>(a.poolProps.handleTypes);
  params_out->poolProps.location.type = static_cast<cudaMemLocationType>(a.poolProps.location.type);
  params_out->poolProps.location.id = a.poolProps.location.id;
  params_out->bytesize = a.bytesize;
  params_out->dptr = reinterpret_cast<void*>(a.dptr);
  return cudaSuccess;
}

cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                    const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                    void* dptr) {
  ENTER();
  return rt::record(cuGraphAddMemFreeNode(pGraphNode, graph, pDependencies, numDependencies,
                                          reinterpret_cast<CUdeviceptr>(dptr)));
}

cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void* dptr_out) {
  ENTER();
  return rt::record(cuGraphMemFreeNodeGetParams(node, static_cast<CUdeviceptr*>(dptr_out)));
}

cudaError_t cudaDeviceGraphMemTrim(int device) {
  ENTER();
  return rt::record(cuDeviceGraphMemTrim(device));
}

cudaError_t cudaDeviceGetGraphMemAttribute(int device, cudaGraphMemAttributeType attr,
                                           void* value) {
  ENTER();
  return rt::record(
      cuDeviceGetGraphMemAttribute(device, static_cast<CUgraphMem_attribute>(attr), value));
}

cudaError_t cudaDeviceSetGraphMemAttribute(int device, cudaGraphMemAttributeType attr,
                                           void* value) {
  ENTER();
  return rt::record(
      cuDeviceSetGraphMemAttribute(device, static_cast<CUgraphMem_attribute>(attr), value));
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* pType) {
  ENTER();
  return rt::record(cuGraphNodeGetType(node, reinterpret_cast<CUgraphNodeType*>(pType)));
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* numNodes) {
  ENTER();
  return rt::record(cuGraphGetNodes(graph, nodes, numNodes));
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* pRootNodes,
                                  size_t* pNumRootNodes) {
  ENTER();
  return rt::record(cuGraphGetRootNodes(graph, pRootNodes, pNumRootNodes));
}

cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t* from, cudaGraphNode_t* to,
                              cudaGraphEdgeData* edgeData, size_t* numEdges) {
  ENTER();
  return rt::record(
      cuGraphGetEdges(graph, from, to, reinterpret_cast<CUgraphEdgeData*>(edgeData), numEdges));
}

cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t* pDependencies,
                                         cudaGraphEdgeData* edgeData, size_t* pNumDependencies) {
  ENTER();
  return rt::record(cuGraphNodeGetDependencies(
      node, pDependencies, reinterpret_cast<CUgraphEdgeData*>(edgeData), pNumDependencies));
}

cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t* pDependentNodes,
                                           cudaGraphEdgeData* edgeData,
                                           size_t* pNumDependentNodes) {
  ENTER();
  return rt::record(cuGraphNodeGetDependentNodes(
      node, pDependentNodes, reinterpret_cast<CUgraphEdgeData*>(edgeData), pNumDependentNodes));
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                     const cudaGraphNode_t* to, const cudaGraphEdgeData* edgeData,
                                     size_t numDependencies) {
  ENTER();
  return rt::record(cuGraphAddDependencies(graph, from, to, edges(edgeData), numDependencies));
}

cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                        const cudaGraphNode_t* to,
                                        const cudaGraphEdgeData* edgeData, size_t numDependencies) {
  ENTER();
  return rt::record(cuGraphRemoveDependencies(graph, from, to, edges(edgeData), numDependencies));
}

cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node) {
  ENTER();
  return rt::record(cuGraphDestroyNode(node));
}

cudaError_t cudaGraphAddNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                             const cudaGraphNode_t* pDependencies,
                             const cudaGraphEdgeData* dependencyData, size_t numDependencies,
                             cudaGraphNodeParams* nodeParams) {
  ENTER();
  CUgraphNodeParams p;
  if (cudaError_t e = node_params(nodeParams, &p); e != cudaSuccess) return rt::record(e);
  CUresult r =
      cuGraphAddNode(pGraphNode, graph, pDependencies, edges(dependencyData), numDependencies, &p);
  if (r == CUDA_SUCCESS && nodeParams->type == cudaGraphNodeTypeMemAlloc) {
    nodeParams->alloc.dptr = reinterpret_cast<void*>(p.alloc.dptr);
  }
  return rt::record(r);
}

cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node, cudaGraphNodeParams* nodeParams) {
  ENTER();
  CUgraphNodeParams p;
  if (cudaError_t e = node_params(nodeParams, &p); e != cudaSuccess) return rt::record(e);
  return rt::record(cuGraphNodeSetParams(node, &p));
}

cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec, cudaGraphNode_t node,
                                       cudaGraphNodeParams* nodeParams) {
  ENTER();
  CUgraphNodeParams p;
  if (cudaError_t e = node_params(nodeParams, &p); e != cudaSuccess) return rt::record(e);
  return rt::record(cuGraphExecNodeSetParams(graphExec, node, &p));
}

cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char* path, unsigned int flags) {
  ENTER();
  return rt::record(cuGraphDebugDotPrint(graph, path, flags));
}

cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle* pHandle_out,
                                             cudaGraph_t graph, unsigned int defaultLaunchValue,
                                             unsigned int flags) {
  ENTER();
  return rt::record(
      cuGraphConditionalHandleCreate(reinterpret_cast<CUgraphConditionalHandle*>(pHandle_out),
                                     graph, nullptr, defaultLaunchValue, flags));
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* pGraphExec, cudaGraph_t graph,
                                 unsigned long long flags) {
  ENTER();
  return rt::record(cuGraphInstantiateWithFlags(pGraphExec, graph, flags));
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* pGraphExec, cudaGraph_t graph,
                                          unsigned long long flags) {
  return cudaGraphInstantiate(pGraphExec, graph, flags);
}

cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long* flags) {
  ENTER();
  return rt::record(cuGraphExecGetFlags(graphExec, reinterpret_cast<cuuint64_t*>(flags)));
}

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const cudaKernelNodeParams* pNodeParams) {
  ENTER();
  CUDA_KERNEL_NODE_PARAMS k;
  if (cudaError_t e = kernel_params(pNodeParams, &k); e != cudaSuccess) return rt::record(e);
  return rt::record(cuGraphExecKernelNodeSetParams(hGraphExec, node, &k));
}

cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const cudaMemcpy3DParms* pNodeParams) {
  ENTER();
  CUDA_MEMCPY3D c;
  if (cudaError_t e = copy_params(pNodeParams, &c); e != cudaSuccess) return rt::record(e);
  return rt::record(cuGraphExecMemcpyNodeSetParams(hGraphExec, node, &c, nullptr));
}

cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                               void* dst, const void* src, size_t count,
                                               cudaMemcpyKind kind) {
  ENTER();
  CUDA_MEMCPY3D c;
  if (cudaError_t e = copy_params_1d(dst, src, count, kind, &c); e != cudaSuccess) {
    return rt::record(e);
  }
  return rt::record(cuGraphExecMemcpyNodeSetParams(hGraphExec, node, &c, nullptr));
}

cudaError_t cudaGraphExecMemcpyNodeSetParamsToSymbol(cudaGraphExec_t hGraphExec,
                                                     cudaGraphNode_t node, const void* symbol,
                                                     const void* src, size_t count, size_t offset,
                                                     cudaMemcpyKind kind) {
  ENTER();
  void* dst = nullptr;
  if (cudaError_t e = symbol_address(symbol, count, offset, &dst); e != cudaSuccess) {
    return rt::record(e);
  }
  return cudaGraphExecMemcpyNodeSetParams1D(hGraphExec, node, dst, src, count, kind);
}

cudaError_t cudaGraphExecMemcpyNodeSetParamsFromSymbol(cudaGraphExec_t hGraphExec,
                                                       cudaGraphNode_t node, void* dst,
                                                       const void* symbol, size_t count,
                                                       size_t offset, cudaMemcpyKind kind) {
  ENTER();
  void* src = nullptr;
  if (cudaError_t e = symbol_address(symbol, count, offset, &src); e != cudaSuccess) {
    return rt::record(e);
  }
  return cudaGraphExecMemcpyNodeSetParams1D(hGraphExec, node, dst, src, count, kind);
}

cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const cudaMemsetParams* pNodeParams) {
  ENTER();
  if (pNodeParams == nullptr) return rt::record(cudaErrorInvalidValue);
  CUDA_MEMSET_NODE_PARAMS m = memset_params(*pNodeParams);
  return rt::record(cuGraphExecMemsetNodeSetParams(hGraphExec, node, &m, nullptr));
}

cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                           const cudaHostNodeParams* pNodeParams) {
  ENTER();
  if (pNodeParams == nullptr) return rt::record(cudaErrorInvalidValue);
  CUDA_HOST_NODE_PARAMS h{pNodeParams->fn, pNodeParams->userData};
  return rt::record(cuGraphExecHostNodeSetParams(hGraphExec, node, &h));
}

cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                 cudaGraph_t childGraph) {
  ENTER();
  return rt::record(cuGraphExecChildGraphNodeSetParams(hGraphExec, node, childGraph));
}

cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                                 cudaEvent_t event) {
  ENTER();
  return rt::record(cuGraphExecEventRecordNodeSetEvent(hGraphExec, hNode, event));
}

cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                               cudaEvent_t event) {
  ENTER();
  return rt::record(cuGraphExecEventWaitNodeSetEvent(hGraphExec, hNode, event));
}

cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                    unsigned int isEnabled) {
  ENTER();
  return rt::record(cuGraphNodeSetEnabled(hGraphExec, hNode, isEnabled));
}

cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                    unsigned int* isEnabled) {
  ENTER();
  return rt::record(cuGraphNodeGetEnabled(hGraphExec, hNode, isEnabled));
}

cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                cudaGraphExecUpdateResultInfo* resultInfo) {
  ENTER();
  return rt::record(cuGraphExecUpdate(hGraphExec, hGraph,
                                      reinterpret_cast<CUgraphExecUpdateResultInfo*>(resultInfo)));
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec) {
  ENTER();
  return rt::record(cuGraphExecDestroy(graphExec));
}

cudaError_t cudaUserObjectCreate(cudaUserObject_t* object_out, void* ptr, cudaHostFn_t destroy,
                                 unsigned int initialRefcount, unsigned int flags) {
  ENTER();
  return rt::record(cuUserObjectCreate(object_out, ptr, destroy, initialRefcount, flags));
}

cudaError_t cudaUserObjectRetain(cudaUserObject_t object, unsigned int count) {
  ENTER();
  return rt::record(cuUserObjectRetain(object, count));
}

cudaError_t cudaUserObjectRelease(cudaUserObject_t object, unsigned int count) {
  ENTER();
  return rt::record(cuUserObjectRelease(object, count));
}

cudaError_t cudaGraphRetainUserObject(cudaGraph_t graph, cudaUserObject_t object,
                                      unsigned int count, unsigned int flags) {
  ENTER();
  return rt::record(cuGraphRetainUserObject(graph, object, count, flags));
}

cudaError_t cudaGraphReleaseUserObject(cudaGraph_t graph, cudaUserObject_t object,
                                       unsigned int count) {
  ENTER();
  return rt::record(cuGraphReleaseUserObject(graph, object, count));
}

cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode* mode) {
  ENTER();
  return rt::record(
      cuThreadExchangeStreamCaptureMode(reinterpret_cast<CUstreamCaptureMode*>(mode)));
}

#define STRATA_RT_GRAPH_NOT_SUPPORTED(name, ...)                                 \
  cudaError_t name(__VA_ARGS__) {                                                \
    STRATA_LOG_INFO("cudart: " #name ": external semaphores are not supported"); \
    return rt::record(cudaErrorNotSupported);                                    \
  }
STRATA_RT_GRAPH_NOT_SUPPORTED(cudaGraphAddExternalSemaphoresSignalNode, cudaGraphNode_t*,
                              cudaGraph_t, const cudaGraphNode_t*, size_t,
                              const cudaExternalSemaphoreSignalNodeParams*)
STRATA_RT_GRAPH_NOT_SUPPORTED(cudaGraphAddExternalSemaphoresWaitNode, cudaGraphNode_t*, cudaGraph_t,
                              const cudaGraphNode_t*, size_t,
                              const cudaExternalSemaphoreWaitNodeParams*)
STRATA_RT_GRAPH_NOT_SUPPORTED(cudaGraphExternalSemaphoresSignalNodeGetParams, cudaGraphNode_t,
                              cudaExternalSemaphoreSignalNodeParams*)
STRATA_RT_GRAPH_NOT_SUPPORTED(cudaGraphExternalSemaphoresSignalNodeSetParams, cudaGraphNode_t,
                              const cudaExternalSemaphoreSignalNodeParams*)
STRATA_RT_GRAPH_NOT_SUPPORTED(cudaGraphExternalSemaphoresWaitNodeGetParams, cudaGraphNode_t,
                              cudaExternalSemaphoreWaitNodeParams*)
STRATA_RT_GRAPH_NOT_SUPPORTED(cudaGraphExternalSemaphoresWaitNodeSetParams, cudaGraphNode_t,
                              const cudaExternalSemaphoreWaitNodeParams*)
STRATA_RT_GRAPH_NOT_SUPPORTED(cudaGraphExecExternalSemaphoresSignalNodeSetParams, cudaGraphExec_t,
                              cudaGraphNode_t, const cudaExternalSemaphoreSignalNodeParams*)
STRATA_RT_GRAPH_NOT_SUPPORTED(cudaGraphExecExternalSemaphoresWaitNodeSetParams, cudaGraphExec_t,
                              cudaGraphNode_t, const cudaExternalSemaphoreWaitNodeParams*)
#undef STRATA_RT_GRAPH_NOT_SUPPORTED

}  // extern "C"

#include "cuda/runtime/graph_api_stream.inc"
