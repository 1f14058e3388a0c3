#include "cuda/driver/graph_exec.h"

#include <cstring>
#include <functional>

#include "base/log.h"
#include "cuda/driver/context.h"
#include "cuda/driver/cu_result.h"
#include "cuda/driver/event.h"
#include "cuda/driver/launch.h"
#include "cuda/driver/module.h"
#include "cuda/driver/stream.h"
#include "fmt/format.h"

namespace strata::cuda::driver {

struct GraphExec::Step {
  enum class Kind { kCommands, kHost, kEventRecord, kEventWait };
  Kind kind = Kind::kCommands;
  std::shared_ptr<hal::CommandBuffer> commands;  // kCommands (finalized)
  std::function<void()> host;                    // kHost
  std::shared_ptr<Event> event;                  // kEventRecord / kEventWait
};

namespace {

using Step = GraphExec::Step;

// One side of a (3D) copy: where row (y, z) starts.
struct CopySide {
  uint64_t base = 0;
  uint64_t pitch = 0;
  uint64_t rows_per_slice = 0;
  uint64_t row(uint64_t y, uint64_t z) const { return base + (z * rows_per_slice + y) * pitch; }
};

CopySide source_side(const CUDA_MEMCPY3D& p) {
  uint64_t ptr =
      p.srcMemoryType == CU_MEMORYTYPE_HOST ? reinterpret_cast<uint64_t>(p.srcHost) : p.srcDevice;
  CopySide s{ptr, p.srcPitch, p.srcHeight};
  s.base += (p.srcZ * p.srcHeight + p.srcY) * p.srcPitch + p.srcXInBytes;
  return s;
}

CopySide destination_side(const CUDA_MEMCPY3D& p) {
  uint64_t ptr =
      p.dstMemoryType == CU_MEMORYTYPE_HOST ? reinterpret_cast<uint64_t>(p.dstHost) : p.dstDevice;
  CopySide s{ptr, p.dstPitch, p.dstHeight};
  s.base += (p.dstZ * p.dstHeight + p.dstY) * p.dstPitch + p.dstXInBytes;
  return s;
}

// Linearises nodes into steps: device work accumulates in one command buffer until
// something needs the host or a launch-time event value.
class Recorder {
 public:
  Recorder(Context& context, std::vector<Step>& steps) : context_(context), steps_(steps) {}

  Status graph(const Graph& graph, const std::map<const GraphNode*, bool>* disabled) {
    ASSIGN_OR_RETURN(std::vector<GraphNode*> order, graph.topological_order());
    for (GraphNode* n : order) {
      if (disabled != nullptr && disabled->count(n) != 0) continue;
      RETURN_IF_ERROR(node(*n));
    }
    return ok_status();
  }

  Status finish() { return close(); }

 private:
  Status open() {
    if (!commands_) {
      ASSIGN_OR_RETURN(commands_, context_.hal().create_command_buffer());
      // Graph work is always described: the profiler may attach after instantiation.
      commands_->describe_work(true);
      commands_->set_work_tag(node_id_);
    }
    return ok_status();
  }
  Status close() {
    if (!commands_) return ok_status();
    RETURN_IF_ERROR(commands_->finalize());
    Step s;
    s.commands = std::move(commands_);
    steps_.push_back(std::move(s));
    commands_ = nullptr;
    return ok_status();
  }
  Status host(std::function<void()> fn) {
    RETURN_IF_ERROR(close());
    Step s;
    s.kind = Step::Kind::kHost;
    s.host = std::move(fn);
    steps_.push_back(std::move(s));
    return ok_status();
  }
  Status event(Step::Kind kind, std::shared_ptr<Event> event) {
    RETURN_IF_ERROR(close());
    Step s;
    s.kind = kind;
    s.event = std::move(event);
    steps_.push_back(std::move(s));
    return ok_status();
  }

  Status check_context(const Context* c) {
    if (c != nullptr && c != &context_) {
      return error(Code::kNotSupported, "graph nodes of several contexts are not supported");
    }
    return ok_status();
  }

  Status node(const GraphNode& n) {
    node_id_ = n.id();
    if (commands_) commands_->set_work_tag(node_id_);
    const NodeParams& p = n.params();
    switch (p.type) {
      case CU_GRAPH_NODE_TYPE_KERNEL:
        RETURN_IF_ERROR(check_context(p.context));
        RETURN_IF_ERROR(open());
        return record_kernel(*p.function, p.shape, p.args, *commands_);
      case CU_GRAPH_NODE_TYPE_MEMCPY:
        RETURN_IF_ERROR(check_context(p.context));
        return copy(p.copy);
      case CU_GRAPH_NODE_TYPE_MEMSET:
        RETURN_IF_ERROR(check_context(p.context));
        return fill(p.memset);
      case CU_GRAPH_NODE_TYPE_HOST: {
        CUhostFn fn = p.host_fn;
        void* data = p.user_data;
        return host([fn, data] { fn(data); });
      }
      case CU_GRAPH_NODE_TYPE_GRAPH:
        return graph(*p.child, nullptr);
      case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
        RETURN_IF_ERROR(check_context(p.context));
        return event(Step::Kind::kEventRecord, p.event);
      case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
        return event(Step::Kind::kEventWait, p.event);
      case CU_GRAPH_NODE_TYPE_EMPTY:
      case CU_GRAPH_NODE_TYPE_MEM_ALLOC:  // the memory exists from add time (graph.h)
      case CU_GRAPH_NODE_TYPE_MEM_FREE:
        return ok_status();
      default:
        return error(Code::kNotSupported,
                     fmt::format("graph node type {} is not supported", static_cast<int>(p.type)));
    }
  }

  // True if [va, va + bytes) lies in one GPU-visible buffer; kInvalidValue if it starts
  // in one and runs past its end.
  StatusOr<bool> gpu_visible(uint64_t va, uint64_t bytes) {
    auto buffer = context_.hal().allocator().find(va);
    if (!buffer.ok()) return false;
    if (va - (*buffer)->va() + bytes > (*buffer)->size()) {
      return error(Code::kInvalidValue,
                   fmt::format("memcpy node: {} bytes at {:#x} run past the end of the allocation",
                               bytes, va));
    }
    return true;
  }

  Status copy(const CUDA_MEMCPY3D& p) {
    const uint64_t width = p.WidthInBytes, height = p.Height, depth = p.Depth;
    const CopySide src = source_side(p), dst = destination_side(p);
    const uint64_t src_extent = src.row(height - 1, depth - 1) + width - src.base;
    const uint64_t dst_extent = dst.row(height - 1, depth - 1) + width - dst.base;
    ASSIGN_OR_RETURN(bool src_gpu, gpu_visible(src.base, src_extent));
    ASSIGN_OR_RETURN(bool dst_gpu, gpu_visible(dst.base, dst_extent));
    const uint64_t total = width * height * depth;
    // Rows as (offset in a packed staging buffer, source row, destination row).
    auto for_rows = [&](const std::function<Status(uint64_t, uint64_t, uint64_t)>& f) -> Status {
      for (uint64_t z = 0; z < depth; ++z) {
        for (uint64_t y = 0; y < height; ++y) {
          RETURN_IF_ERROR(f((z * height + y) * width, src.row(y, z), dst.row(y, z)));
        }
      }
      return ok_status();
    };
    const bool packed = src_extent == total && dst_extent == total;
    if (src_gpu && dst_gpu) {
      RETURN_IF_ERROR(open());
      if (packed) return commands_->copy(src.base, dst.base, total);
      return for_rows(
          [&](uint64_t, uint64_t s, uint64_t d) { return commands_->copy(s, d, width); });
    }
    if (!src_gpu && !dst_gpu) {  // pageable to pageable: the host moves the rows
      return host([src, dst, width, height, depth] {
        for (uint64_t z = 0; z < depth; ++z) {
          for (uint64_t y = 0; y < height; ++y) {
            std::memmove(reinterpret_cast<void*>(dst.row(y, z)),
                         reinterpret_cast<const void*>(src.row(y, z)), width);
          }
        }
      });
    }
    // Pageable host memory on one side: staged through pinned memory owned by the step.
    ASSIGN_OR_RETURN(std::shared_ptr<hal::Buffer> staging,
                     context_.hal().allocator().allocate_host(total));
    auto* stage = static_cast<uint8_t*>(staging->host_ptr());
    if (!src_gpu) {
      RETURN_IF_ERROR(host([staging, stage, src, width, height, depth] {
        for (uint64_t z = 0; z < depth; ++z) {
          for (uint64_t y = 0; y < height; ++y) {
            std::memcpy(stage + (z * height + y) * width,
                        reinterpret_cast<const void*>(src.row(y, z)), width);
          }
        }
      }));
      RETURN_IF_ERROR(open());
      return for_rows([&](uint64_t off, uint64_t, uint64_t d) {
        return commands_->copy(staging->va() + off, d, width);
      });
    }
    RETURN_IF_ERROR(open());
    RETURN_IF_ERROR(for_rows([&](uint64_t off, uint64_t s, uint64_t) {
      return commands_->copy(s, staging->va() + off, width);
    }));
    return host([staging, stage, dst, width, height, depth] {
      for (uint64_t z = 0; z < depth; ++z) {
        for (uint64_t y = 0; y < height; ++y) {
          std::memcpy(reinterpret_cast<void*>(dst.row(y, z)), stage + (z * height + y) * width,
                      width);
        }
      }
    });
  }

  Status fill(const CUDA_MEMSET_NODE_PARAMS& p) {
    RETURN_IF_ERROR(open());
    const uint64_t row = uint64_t{p.width} * p.elementSize;
    if (p.height == 1 || p.pitch == row) {
      return commands_->fill(p.dst, row * p.height, p.value, p.elementSize);
    }
    for (uint64_t y = 0; y < p.height; ++y) {
      RETURN_IF_ERROR(commands_->fill(p.dst + y * p.pitch, row, p.value, p.elementSize));
    }
    return ok_status();
  }

  Context& context_;
  std::vector<Step>& steps_;
  std::shared_ptr<hal::CommandBuffer> commands_;
  uint64_t node_id_ = 0;  // the node being recorded (work tags)
};

Status update_failure(CUgraphExecUpdateResultInfo* info, CUgraphExecUpdateResult result,
                      GraphNode* node, GraphNode* from, std::string why) {
  if (info != nullptr) {
    info->result = result;
    info->errorNode = node != nullptr ? node->handle() : nullptr;
    info->errorFromNode = from != nullptr ? from->handle() : nullptr;
  }
  return error(to_code(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE), std::move(why));
}

// Whether `next` may replace `current` in an instantiated graph (CUDA's limits), as a
// CUgraphExecUpdateResult.
CUgraphExecUpdateResult updatable(const NodeParams& current, const NodeParams& next) {
  if (current.type != next.type) return CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED;
  switch (current.type) {
    case CU_GRAPH_NODE_TYPE_KERNEL:
      if (current.context != next.context) {
        return CU_GRAPH_EXEC_UPDATE_ERROR_UNSUPPORTED_FUNCTION_CHANGE;
      }
      return CU_GRAPH_EXEC_UPDATE_SUCCESS;
    case CU_GRAPH_NODE_TYPE_MEMCPY:
      if (current.context != next.context ||
          current.copy.srcMemoryType != next.copy.srcMemoryType ||
          current.copy.dstMemoryType != next.copy.dstMemoryType) {
        return CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED;
      }
      return CU_GRAPH_EXEC_UPDATE_SUCCESS;
    case CU_GRAPH_NODE_TYPE_MEMSET: {
      const CUDA_MEMSET_NODE_PARAMS &a = current.memset, &b = next.memset;
      if (current.context != next.context) return CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED;
      // 2D memsets: only the address and the value may change.
      if ((a.height > 1 || b.height > 1) &&
          (a.height != b.height || a.width != b.width || a.pitch != b.pitch ||
           a.elementSize != b.elementSize)) {
        return CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED;
      }
      return CU_GRAPH_EXEC_UPDATE_SUCCESS;
    }
    case CU_GRAPH_NODE_TYPE_GRAPH: {
      const auto &x = current.child->nodes(), &y = next.child->nodes();
      if (x.size() != y.size()) return CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
      for (size_t i = 0; i < x.size(); ++i) {
        if (x[i]->dependencies().size() != y[i]->dependencies().size()) {
          return CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
        }
        CUgraphExecUpdateResult r = updatable(x[i]->params(), y[i]->params());
        if (r != CU_GRAPH_EXEC_UPDATE_SUCCESS) return r;
      }
      return CU_GRAPH_EXEC_UPDATE_SUCCESS;
    }
    case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
      return current.allocation == next.allocation ? CU_GRAPH_EXEC_UPDATE_SUCCESS
                                                   : CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED;
    case CU_GRAPH_NODE_TYPE_MEM_FREE:
      return current.free_ptr == next.free_ptr ? CU_GRAPH_EXEC_UPDATE_SUCCESS
                                               : CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED;
    default:
      return CU_GRAPH_EXEC_UPDATE_SUCCESS;
  }
}

}  // namespace

StatusOr<std::shared_ptr<GraphExec>> GraphExec::instantiate(const Graph& graph,
                                                            unsigned long long flags) {
  constexpr unsigned long long kKnown =
      CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH | CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD |
      CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH | CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY;
  if ((flags & ~kKnown) != 0) {
    return error(Code::kInvalidValue, fmt::format("unknown instantiate flags {:#x}", flags));
  }
  if ((flags & CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH) != 0) {
    STRATA_LOG_INFO(
        "cuGraphInstantiate: CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH (graphs "
        "launched from device code) is not supported by Strata");
    return error(Code::kNotSupported, "device-launchable graphs are not supported");
  }
  ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
  ASSIGN_OR_RETURN(std::vector<GraphNode*> order, graph.topological_order());
  (void)order;
  if (graph.has_memory_nodes() && graph.instantiations()->load() > 0) {
    return error(Code::kInvalidValue,
                 "a graph with memory nodes may have one instantiation at a "
                 "time");
  }
  std::shared_ptr<GraphExec> exec(new GraphExec());
  exec->flags_ = flags;
  exec->context_ = ctx.get();
  ASSIGN_OR_RETURN(exec->graph_, graph.clone());
  for (const auto& n : exec->graph_->nodes()) {
    exec->node_map_[n->origin()] = n.get();
    if (n->type() == CU_GRAPH_NODE_TYPE_MEM_ALLOC) {
      exec->allocations_.push_back(n->params().allocation);
    } else if (n->type() == CU_GRAPH_NODE_TYPE_MEM_FREE) {
      if (auto a = find_graph_allocation(n->params().free_ptr)) exec->frees_.push_back(a);
    }
  }
  {
    std::lock_guard<std::mutex> lock(exec->mutex_);
    RETURN_IF_ERROR(exec->record_locked());
  }
  if (graph.has_memory_nodes()) {
    exec->instantiations_ = graph.instantiations();
    exec->instantiations_->fetch_add(1);
  }
  return exec;
}

GraphExec::~GraphExec() {
  if (instantiations_) instantiations_->fetch_sub(1);
}

Status GraphExec::record_locked() {
  auto steps = std::make_shared<std::vector<Step>>();
  Recorder recorder(*context_, *steps);
  RETURN_IF_ERROR(recorder.graph(*graph_, &disabled_));
  RETURN_IF_ERROR(recorder.finish());
  steps_ = std::move(steps);
  return ok_status();
}

Status GraphExec::upload(Stream& stream) {
  if (&stream.context() != context_) {
    return error(Code::kInvalidValue, "the stream belongs to another context than the graph");
  }
  return stream.context().check();
}

Status GraphExec::launch(Stream& stream) {
  if (&stream.context() != context_) {
    return error(Code::kInvalidValue, "the stream belongs to another context than the graph");
  }
  RETURN_IF_ERROR(context_->check());
  std::lock_guard<std::mutex> launch_lock(launch_mutex_);
  ScopedGraphLaunch profiled(id_);
  std::shared_ptr<const std::vector<Step>> steps;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    steps = steps_;
  }
  const bool auto_free = (flags_ & CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH) != 0;
  for (const auto& a : allocations_) {
    if (a->live() && !auto_free) {
      return error(Code::kInvalidValue,
                   fmt::format("the graph's allocation {:#x} from a previous launch has not been "
                               "freed",
                               a->va()));
    }
  }
  std::vector<hal::SemaphoreValue> waits;
  if (last_launch_.semaphore && last_launch_.value > 0) waits.push_back(last_launch_);
  auto flush = [&]() -> Status {
    if (waits.empty()) return ok_status();
    RETURN_IF_ERROR(stream.submit(nullptr, waits));
    waits.clear();
    return ok_status();
  };
  for (const Step& step : *steps) {
    switch (step.kind) {
      case Step::Kind::kCommands:
        RETURN_IF_ERROR(stream.submit(step.commands, waits, {},
                                      std::const_pointer_cast<std::vector<Step>>(steps)));
        waits.clear();
        break;
      case Step::Kind::kEventWait: {
        hal::SemaphoreValue r = step.event->recorded();
        if (r.value > 0) waits.push_back(std::move(r));
        break;
      }
      case Step::Kind::kEventRecord:
        RETURN_IF_ERROR(flush());
        RETURN_IF_ERROR(step.event->record(stream));
        break;
      case Step::Kind::kHost:
        RETURN_IF_ERROR(flush());
        RETURN_IF_ERROR(stream.launch_host([steps, &fn = step.host](const Status& status) {
          if (status.ok()) fn();
        }));
        break;
    }
  }
  RETURN_IF_ERROR(flush());
  for (const auto& a : allocations_) a->set_live(true);
  for (const auto& a : frees_) a->set_live(false);
  last_launch_ = stream.tail();
  return ok_status();
}

StatusOr<std::shared_ptr<Graph>> GraphExec::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (graph_->has_memory_nodes()) {
    return error(Code::kNotSupported,
                 "a graph with memory nodes cannot be launched into a capture");
  }
  return graph_->clone();
}

StatusOr<GraphNode*> GraphExec::exec_node_locked(const GraphNode* node) const {
  auto it = node_map_.find(node);
  if (it == node_map_.end()) {
    return error(Code::kInvalidValue, "the node is not part of the instantiated graph");
  }
  return it->second;
}

StatusOr<GraphNode*> GraphExec::exec_node(const GraphNode* node) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return exec_node_locked(node);
}

Status GraphExec::set_node_params(const GraphNode* node, NodeParams params) {
  std::lock_guard<std::mutex> lock(mutex_);
  ASSIGN_OR_RETURN(GraphNode * n, exec_node_locked(node));
  if (n->type() != params.type) {
    return error(Code::kInvalidValue, "the node's type cannot change");
  }
  if (n->type() == CU_GRAPH_NODE_TYPE_MEM_ALLOC || n->type() == CU_GRAPH_NODE_TYPE_MEM_FREE) {
    return error(Code::kInvalidValue, "memory nodes of an instantiated graph cannot be changed");
  }
  CUgraphExecUpdateResult r = updatable(n->params(), params);
  if (r != CU_GRAPH_EXEC_UPDATE_SUCCESS) {
    return error(Code::kInvalidValue,
                 fmt::format("the new parameters change what an instantiated node may not change "
                             "(CUgraphExecUpdateResult {})",
                             static_cast<int>(r)));
  }
  NodeParams old = n->params();
  RETURN_IF_ERROR(n->set_params(std::move(params)));
  Status recorded = record_locked();
  if (!recorded.ok()) (void)n->set_params(std::move(old));
  return recorded;
}

Status GraphExec::set_enabled(const GraphNode* node, bool enabled) {
  std::lock_guard<std::mutex> lock(mutex_);
  ASSIGN_OR_RETURN(GraphNode * n, exec_node_locked(node));
  if (n->type() != CU_GRAPH_NODE_TYPE_KERNEL && n->type() != CU_GRAPH_NODE_TYPE_MEMCPY &&
      n->type() != CU_GRAPH_NODE_TYPE_MEMSET) {
    return error(Code::kInvalidValue, "only kernel, memcpy and memset nodes can be disabled");
  }
  if (enabled) {
    disabled_.erase(n);
  } else {
    disabled_[n] = true;
  }
  return record_locked();
}

StatusOr<bool> GraphExec::enabled(const GraphNode* node) const {
  std::lock_guard<std::mutex> lock(mutex_);
  ASSIGN_OR_RETURN(GraphNode * n, exec_node_locked(node));
  return disabled_.count(n) == 0;
}

Status GraphExec::update(const Graph& graph, CUgraphExecUpdateResultInfo* info) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto& mine = graph_->nodes();
  const auto& theirs = graph.nodes();
  if (mine.size() != theirs.size()) {
    return update_failure(
        info, CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, nullptr, nullptr,
        fmt::format("the graph has {} nodes, the instantiated one {}", theirs.size(), mine.size()));
  }
  std::map<const GraphNode*, size_t> my_index, their_index;
  for (size_t i = 0; i < mine.size(); ++i) {
    my_index[mine[i].get()] = i;
    their_index[theirs[i].get()] = i;
  }
  for (size_t i = 0; i < mine.size(); ++i) {
    GraphNode* t = theirs[i].get();
    if (mine[i]->type() != t->type()) {
      return update_failure(info, CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED, t, nullptr,
                            fmt::format("node {} changed type", i));
    }
    const auto &md = mine[i]->dependencies(), &td = t->dependencies();
    if (md.size() != td.size()) {
      return update_failure(info, CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, t, nullptr,
                            fmt::format("node {} has a different number of dependencies", i));
    }
    for (size_t j = 0; j < md.size(); ++j) {
      if (my_index[md[j]] != their_index[td[j]]) {
        return update_failure(info, CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED, t, td[j],
                              fmt::format("dependency {} of node {} changed", j, i));
      }
    }
    CUgraphExecUpdateResult r = updatable(mine[i]->params(), t->params());
    if (r != CU_GRAPH_EXEC_UPDATE_SUCCESS) {
      return update_failure(info, r, t, nullptr,
                            fmt::format("node {} changed in a way an update cannot apply", i));
    }
  }
  std::vector<NodeParams> old;
  for (size_t i = 0; i < mine.size(); ++i) {
    old.push_back(mine[i]->params());
    NodeParams next = theirs[i]->params();
    if (next.child) {
      ASSIGN_OR_RETURN(next.child, next.child->clone());
    }
    RETURN_IF_ERROR(mine[i]->set_params(std::move(next)));
  }
  Status recorded = record_locked();
  if (!recorded.ok()) {
    for (size_t i = 0; i < mine.size(); ++i) (void)mine[i]->set_params(std::move(old[i]));
    (void)record_locked();
    return update_failure(info, CU_GRAPH_EXEC_UPDATE_ERROR, nullptr, nullptr,
                          std::string(recorded.message()));
  }
  if (info != nullptr)
    *info = CUgraphExecUpdateResultInfo{CU_GRAPH_EXEC_UPDATE_SUCCESS, nullptr, nullptr};
  return ok_status();
}

}  // namespace strata::cuda::driver
