#include "cuda/driver/context.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "base/exit_safe_thread_local.h"
#include "base/log.h"
#include "cuda/driver/api_profiler.h"
#include "cuda/driver/cu_result.h"
#include "cuda/driver/device.h"
#include "cuda/driver/error_strings.h"
#include "cuda/driver/managed_memory.h"
#include "cuda/driver/module.h"
#include "cuda/driver/peer.h"
#include "cuda/driver/stream.h"
#include "fmt/format.h"

namespace strata::cuda::driver {
namespace {

// The calling thread's context stack; usable from static destructors at exit.
struct ContextStackTag;
std::vector<std::shared_ptr<Context>>& context_stack() {
  return exit_safe_thread_local<std::vector<std::shared_ptr<Context>>, ContextStackTag>();
}

// Every context ever created, so that process exit can print pending printf output
// (CUDA flushes it at exit too). Leaked on purpose: used from an atexit handler.
std::mutex& live_contexts_mutex() {
  static auto* m = new std::mutex();
  return *m;
}
std::vector<std::weak_ptr<Context>>& live_contexts() {
  static auto* v = new std::vector<std::weak_ptr<Context>>();
  return *v;
}

}  // namespace

std::vector<std::shared_ptr<Context>> live_context_list() {
  std::vector<std::shared_ptr<Context>> alive;
  std::lock_guard<std::mutex> lock(live_contexts_mutex());
  for (const auto& weak : live_contexts())
    if (auto c = weak.lock()) alive.push_back(std::move(c));
  return alive;
}

namespace {

void flush_all_at_exit() {
  std::vector<std::shared_ptr<Context>> alive;
  {
    std::lock_guard<std::mutex> lock(live_contexts_mutex());
    for (const auto& weak : live_contexts())
      if (auto c = weak.lock()) alive.push_back(std::move(c));
  }
  for (const auto& c : alive) c->flush_printf_if_idle();
}

void register_live_context(const std::shared_ptr<Context>& context) {
  std::lock_guard<std::mutex> lock(live_contexts_mutex());
  static bool registered = std::atexit(flush_all_at_exit) == 0;
  (void)registered;
  std::erase_if(live_contexts(), [](const auto& w) { return w.expired(); });
  live_contexts().push_back(context);
}

// Per-thread default streams, keyed by context; usable from static destructors at exit.
using PerThreadStreams = std::vector<std::pair<std::weak_ptr<Context>, std::shared_ptr<Stream>>>;
struct PerThreadStreamsTag;
PerThreadStreams& per_thread_streams() {
  return exit_safe_thread_local<PerThreadStreams, PerThreadStreamsTag>();
}

}  // namespace

StatusOr<std::shared_ptr<Context>> Context::create(Device* device, unsigned int flags,
                                                   bool primary) {
  ASSIGN_OR_RETURN(std::shared_ptr<hal::Context> hal_context, device->hal().create_context());
  std::shared_ptr<Context> context(new Context(device, std::move(hal_context), flags, primary));
  ASSIGN_OR_RETURN(context->legacy_stream_,
                   Stream::create(context.get(), Stream::Kind::kLegacy, 0));
  register_live_context(context);
  map_managed_memory(context);  // every live managed allocation, at its host address
  context->activity_->emit_context_record();
  context->activity_->emit_stream_record(*context->legacy_stream_);
  return context;
}

Context::~Context() {
  flush_printf_if_idle();
  activity_->harvest(/*wait=*/true);
  forget_managed_memory(this);
  peer_forget_context(this);
  legacy_stream_.reset();  // its destructor deregisters from this context
}

void Context::mark_destroyed() {
  destroyed_ = true;
  peer_forget_context(this);  // peer mappings from and into this context go
}

Status Context::check() {
  if (destroyed_) {
    return error(to_code(CUDA_ERROR_CONTEXT_IS_DESTROYED), "the context has been destroyed");
  }
  Status status = hal_->status();
  if (!status.ok()) log_fault_once(status);
  return status;
}

void Context::log_fault_once(const Status& status) {
  if (fault_logged_.exchange(true)) return;
  std::string where;
  if (auto fault = hal_->fault(); fault.has_value()) {
    if (fault->kind == hw::FaultKind::kAssert) {
      // CUDA prints the failed assertion to stderr.
      if (std::optional<std::string> line = device_runtime_->assert_line(*fault)) {
        std::fprintf(stderr, "%s\n", line->c_str());
        std::fflush(stderr);
      }
    }
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& weak : modules_) {
      if (auto module = weak.lock()) {
        where = module->describe_pc(fault->kernel_name, fault->pc);
        if (!where.empty()) break;
      }
    }
  }
  STRATA_LOG_ERROR("device fault in context {} (device {}): {}{}; the context is unusable "
                   "(sticky error {}), destroy or reset it", fmt::ptr(this), device_->ordinal(),
                   status.message(), where.empty() ? "" : " at " + where,
                   error_name(to_cu_result(status.code())));
}

StatusOr<std::shared_ptr<Stream>> Context::per_thread_stream() {
  PerThreadStreams& streams = per_thread_streams();
  for (auto it = streams.begin(); it != streams.end();) {
    std::shared_ptr<Context> owner = it->first.lock();
    if (!owner || owner->destroyed_) {
      it = streams.erase(it);
      continue;
    }
    if (owner.get() == this) return it->second;
    ++it;
  }
  ASSIGN_OR_RETURN(std::shared_ptr<Stream> stream, Stream::create(this, Stream::Kind::kPerThread, 0));
  per_thread_streams().emplace_back(weak_from_this(), stream);
  notify_stream_created(*stream);
  return stream;
}

void Context::add_stream(Stream* stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  streams_.push_back(stream);
}

void Context::remove_stream(Stream* stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  streams_.erase(std::remove(streams_.begin(), streams_.end(), stream), streams_.end());
}

std::vector<Stream*> Context::blocking_streams(const Stream* except) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<Stream*> out;
  for (Stream* s : streams_) {
    if (s != except && s->blocking()) out.push_back(s);
  }
  return out;
}

Status Context::synchronize() {
  std::vector<Stream*> all;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    all = streams_;
  }
  Status first;
  for (Stream* s : all) {
    Status st = s->synchronize();
    if (first.ok() && !st.ok()) first = st;
  }
  flush_printf_if_idle();
  if (!first.ok()) return first;
  return check();
}

std::vector<hal::SemaphoreValue> Context::pending_work() {
  std::vector<Stream*> all;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    all = streams_;  // as synchronize(): tails are taken outside the lock
  }
  std::vector<hal::SemaphoreValue> out;
  for (Stream* s : all) {
    hal::SemaphoreValue tail = s->tail();
    if (tail.semaphore != nullptr && tail.value != 0) out.push_back(std::move(tail));
  }
  return out;
}

void Context::flush_printf_if_idle() {
  std::vector<Stream*> all;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    all = streams_;
  }
  for (Stream* s : all) {
    if (s->query().code() == Code::kNotReady) return;
  }
  Status flushed = device_runtime_->flush_printf();
  if (!flushed.ok()) STRATA_LOG_WARN("device printf output lost: {}", flushed.message());
  // A fault surfaces here first: report it (and a failed assertion's line) after the
  // output the kernel printed before it, as CUDA does.
  if (Status status = hal_->status(); !status.ok() && !destroyed_) log_fault_once(status);
}

StatusOr<std::shared_ptr<hal::Buffer>> Context::staging_buffer(std::unique_lock<std::mutex>* lock) {
  *lock = std::unique_lock<std::mutex>(staging_mutex_);
  if (staging_ == nullptr) {
    ASSIGN_OR_RETURN(staging_, hal_->allocator().allocate_host(kStagingBytes));
  }
  return staging_;
}

StatusOr<uint64_t> Context::allocate_device(uint64_t size) {
  if (size == 0) return error(Code::kInvalidValue, "cuMemAlloc: size is 0");
  ASSIGN_OR_RETURN(std::shared_ptr<hal::Buffer> buffer, hal_->allocator().allocate_device(size));
  uint64_t va = buffer->va();
  peer_track_allocation(*this, buffer);  // peers with access enabled map it too
  std::lock_guard<std::mutex> lock(mutex_);
  allocations_[va] = std::move(buffer);
  return va;
}

Status Context::free_device(uint64_t va) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (allocations_.find(va) == allocations_.end()) {
      return error(Code::kInvalidValue,
                   fmt::format("cuMemFree: {:#x} is not an allocation of this context", va));
    }
  }
  Status sync = synchronize();
  peer_untrack_allocation(*this, va);  // unmapped from peers before the memory goes
  std::shared_ptr<hal::Buffer> dead;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = allocations_.find(va);
    if (it != allocations_.end()) {
      dead = std::move(it->second);
      allocations_.erase(it);
    }
  }
  return sync;
}

void Context::add_module(const std::shared_ptr<Module>& module) {
  std::lock_guard<std::mutex> lock(mutex_);
  modules_.push_back(module);
}

std::vector<Stream*> Context::streams() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<Stream*> out;
  for (Stream* s : streams_) {
    if (s != legacy_stream_.get()) out.push_back(s);
  }
  if (legacy_stream_) out.push_back(legacy_stream_.get());
  return out;
}

std::vector<std::shared_ptr<Module>> Context::modules() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::shared_ptr<Module>> out;
  for (const auto& weak : modules_) {
    if (auto m = weak.lock()) out.push_back(std::move(m));
  }
  return out;
}

void Context::remove_module(const Module* module) {
  std::lock_guard<std::mutex> lock(mutex_);
  modules_.erase(std::remove_if(modules_.begin(), modules_.end(),
                                [module](const std::weak_ptr<Module>& w) {
                                  auto m = w.lock();
                                  return !m || m.get() == module;
                                }),
                 modules_.end());
}

std::shared_ptr<const SourceLines> Context::source_lines_at(uint64_t kernel_code_va) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (const auto& weak : modules_) {
    auto module = weak.lock();
    if (module == nullptr || module->executable() == nullptr) continue;
    const hal::Executable& e = *module->executable();
    if (kernel_code_va < e.code_va() || kernel_code_va - e.code_va() >= e.code_size()) continue;
    std::shared_ptr<const SourceLines> lines = module->source_lines();
    if (lines->has_kernel(kernel_code_va)) return lines;
  }
  return nullptr;
}

std::shared_ptr<Context> current_context() {
  return context_stack().empty() ? nullptr : context_stack().back();
}

void set_current_context(std::shared_ptr<Context> context) {
  if (!context) {
    if (!context_stack().empty()) context_stack().pop_back();
    return;
  }
  if (context_stack().empty()) {
    context_stack().push_back(std::move(context));
  } else {
    context_stack().back() = std::move(context);
  }
}

void push_current_context(std::shared_ptr<Context> context) {
  context_stack().push_back(std::move(context));
}

std::shared_ptr<Context> pop_current_context() {
  if (context_stack().empty()) return nullptr;
  std::shared_ptr<Context> top = std::move(context_stack().back());
  context_stack().pop_back();
  return top;
}

void forget_current_context(const Context* context) {
  std::erase_if(context_stack(), [context](const auto& c) { return c.get() == context; });
}

StatusOr<std::shared_ptr<Context>> checked_current_context() {
  std::shared_ptr<Context> context = current_context();
  if (!context) return error(Code::kInvalidContext, "no CUDA context is current to this thread");
  RETURN_IF_ERROR(context->check());
  return context;
}

}  // namespace strata::cuda::driver
