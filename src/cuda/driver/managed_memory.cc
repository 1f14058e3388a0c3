#include "cuda/driver/managed_memory.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

#include "base/log.h"
#include "cuda/driver/context.h"
#include "fmt/format.h"
#include "hal/buffer.h"
#include "hw/contract/page_table.h"

namespace strata::cuda::driver {
namespace {

struct Entry {
  uint64_t size = 0;
  void* pages = nullptr;  // owned; page-aligned, so no two entries share a GPU page
  ManagedAdvice advice;
  // The registration of the pages in each context that maps them.
  std::vector<std::pair<const Context*, std::shared_ptr<hal::Buffer>>> mappings;
  // Variables only: (module key, name), the contexts bound, and how many bindings.
  bool variable = false;
  uint64_t module_key = 0;
  std::string name;
  std::multiset<const Context*> bound;
};

struct Table {
  std::mutex mutex;
  std::map<uint64_t, Entry> by_base;
  std::vector<std::weak_ptr<Context>> contexts;
};

// Never destroyed: entry points may run during static destruction.
Table& table() {
  static auto* instance = new Table();
  return *instance;
}

// Live contexts (caller holds the lock; the caller must release the returned
// references only after unlocking, since the last one may destroy a context).
std::vector<std::shared_ptr<Context>> live_contexts_locked(Table& t) {
  std::vector<std::shared_ptr<Context>> live;
  std::erase_if(t.contexts, [](const auto& w) { return w.expired(); });
  for (const auto& weak : t.contexts) {
    if (auto c = weak.lock()) live.push_back(std::move(c));
  }
  return live;
}

Status map_into(Context& context, Entry& entry) {
  ASSIGN_OR_RETURN(std::shared_ptr<hal::Buffer> buffer,
                   context.hal().allocator().register_host(entry.pages, entry.size));
  entry.mappings.emplace_back(&context, std::move(buffer));
  return ok_status();
}

// A new zeroed entry mapped in every live context, inserted into the table (caller holds
// the lock).
StatusOr<std::map<uint64_t, Entry>::iterator> create_locked(
    Table& t, uint64_t size, const std::vector<std::shared_ptr<Context>>& live) {
  const uint64_t bytes = (size + hw::kPageSize - 1) / hw::kPageSize * hw::kPageSize;
  void* pages = std::aligned_alloc(hw::kPageSize, bytes);
  if (pages == nullptr) {
    return error(Code::kOutOfMemory, fmt::format("no host memory for {} managed bytes", size));
  }
  std::memset(pages, 0, bytes);
  Entry entry;
  entry.size = size;
  entry.pages = pages;
  for (const auto& context : live) {
    Status status = map_into(*context, entry);
    if (!status.ok()) {
      entry.mappings.clear();
      std::free(pages);
      return status;
    }
  }
  return t.by_base.emplace(reinterpret_cast<uint64_t>(pages), std::move(entry)).first;
}

// A freed allocation's mappings and pages, released when this goes out of scope (after
// the table's lock: unmapping must not happen under it).
struct Dead {
  std::vector<std::pair<const Context*, std::shared_ptr<hal::Buffer>>> mappings;
  void* pages = nullptr;
  ~Dead() {
    mappings.clear();  // unmap first
    std::free(pages);
  }
};

class Binding final : public ManagedVariable {
 public:
  Binding(uint64_t base, const Context* context) : base_(base), context_(context) {}
  // The storage stays allocated when the last binding goes (see MANAGED VARIABLES).
  ~Binding() override {
    Table& t = table();
    std::lock_guard lock(t.mutex);
    auto it = t.by_base.find(base_);
    if (it == t.by_base.end()) return;
    auto bound = it->second.bound.find(context_);
    if (bound != it->second.bound.end()) it->second.bound.erase(bound);
  }
  uint64_t va() const override { return base_; }

 private:
  uint64_t base_;
  const Context* context_;
};

// The entry holding [va, va + count) (caller holds the lock), or null.
Entry* find_locked(Table& t, uint64_t va, uint64_t count, uint64_t* base) {
  auto it = t.by_base.upper_bound(va);
  if (it == t.by_base.begin()) return nullptr;
  --it;
  const uint64_t offset = va - it->first;
  if (offset >= it->second.size || count > it->second.size - offset) return nullptr;
  *base = it->first;
  return &it->second;
}

}  // namespace

StatusOr<uint64_t> allocate_managed(uint64_t size, unsigned int flags) {
  if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST) {
    return error(Code::kInvalidValue,
                 fmt::format("cuMemAllocManaged: flags {:#x} are not CU_MEM_ATTACH_GLOBAL or "
                             "CU_MEM_ATTACH_HOST",
                             flags));
  }
  if (size == 0) return error(Code::kInvalidValue, "cuMemAllocManaged: size is 0");
  std::vector<std::shared_ptr<Context>> live;  // released after the lock
  Table& t = table();
  std::lock_guard lock(t.mutex);
  live = live_contexts_locked(t);
  ASSIGN_OR_RETURN(auto it, create_locked(t, size, live));
  it->second.advice.attach = flags;
  return it->first;
}

Status free_managed(uint64_t va) {
  std::vector<std::shared_ptr<Context>> live;
  Dead dead;
  {
    Table& t = table();
    std::lock_guard lock(t.mutex);
    auto it = t.by_base.find(va);
    if (it == t.by_base.end() || it->second.variable) {
      return error(Code::kNotFound, fmt::format("{:#x} is not a managed allocation", va));
    }
    live = live_contexts_locked(t);
    dead.mappings = std::move(it->second.mappings);
    dead.pages = it->second.pages;
    t.by_base.erase(it);
  }
  // As cuMemFree: no queued work may still use the memory.
  Status first = ok_status();
  for (const auto& context : live) {
    Status status = context->synchronize();
    if (first.ok() && !status.ok()) first = status;
  }
  return first;
}

std::optional<ManagedRange> find_managed(uint64_t va, uint64_t count) {
  Table& t = table();
  std::lock_guard lock(t.mutex);
  uint64_t base = 0;
  const Entry* entry = find_locked(t, va, count, &base);
  if (entry == nullptr) return std::nullopt;
  return ManagedRange{base, entry->size, entry->advice};
}

Status update_managed_advice(uint64_t va, uint64_t count, const char* api,
                             const std::function<Status(ManagedAdvice&)>& update) {
  Table& t = table();
  std::lock_guard lock(t.mutex);
  uint64_t base = 0;
  Entry* entry = find_locked(t, va, count, &base);
  if (entry == nullptr) {
    return error(Code::kInvalidValue, fmt::format("{}: [{:#x}, +{}) is not inside one managed "
                                                  "allocation",
                                                  api, va, count));
  }
  return update(entry->advice);
}

void map_managed_memory(const std::shared_ptr<Context>& context) {
  Table& t = table();
  std::lock_guard lock(t.mutex);
  std::erase_if(t.contexts, [](const auto& w) { return w.expired(); });
  t.contexts.push_back(context);
  for (auto& [base, entry] : t.by_base) {
    Status status = map_into(*context, entry);
    if (!status.ok()) {
      STRATA_LOG_ERROR("driver: cannot map managed memory {:#x} into a new context: {}", base,
                       status.message());
    }
  }
}

void forget_managed_memory(const Context* context) {
  std::vector<std::shared_ptr<hal::Buffer>> dead;  // released after the lock
  Table& t = table();
  std::lock_guard lock(t.mutex);
  for (auto& [base, entry] : t.by_base) {
    std::erase_if(entry.mappings, [&](auto& m) {
      if (m.first != context) return false;
      dead.push_back(std::move(m.second));
      return true;
    });
  }
}

StatusOr<std::shared_ptr<ManagedVariable>> bind_managed_variable(Context& context,
                                                                 uint64_t module_key,
                                                                 const std::string& name,
                                                                 uint64_t size, bool* fresh) {
  std::vector<std::shared_ptr<Context>> live;  // released after the lock
  Table& t = table();
  std::lock_guard lock(t.mutex);
  for (auto& [base, entry] : t.by_base) {
    if (entry.variable && entry.module_key == module_key && entry.name == name &&
        entry.size == std::max<uint64_t>(size, 1) && !entry.bound.contains(&context)) {
      // Unbound storage is loaded afresh: the caller writes the initial image again.
      *fresh = entry.bound.empty();
      entry.bound.insert(&context);
      return std::shared_ptr<ManagedVariable>(new Binding(base, &context));
    }
  }
  live = live_contexts_locked(t);
  ASSIGN_OR_RETURN(auto it, create_locked(t, std::max<uint64_t>(size, 1), live));
  it->second.variable = true;
  it->second.module_key = module_key;
  it->second.name = name;
  it->second.bound.insert(&context);
  *fresh = true;
  return std::shared_ptr<ManagedVariable>(new Binding(it->first, &context));
}

}  // namespace strata::cuda::driver
