#include "cupti/nvtx_recorder.h"

namespace strata::cupti {

NvtxCapture NvtxCapture::parse(const std::string& spec) {
  NvtxCapture c;
  size_t at = spec.rfind('@');
  c.text = spec.substr(0, at);
  if (at != std::string::npos) c.domain = spec.substr(at + 1);
  return c;
}

NvtxRecorder::NvtxRecorder(const prof::ProfilerTable& table) : table_(table) {}

prof::Nvtx NvtxRecorder::record(prof::Nvtx::Kind kind, const Open& open) const {
  prof::Nvtx r;
  r.pid = table_.this_pid();
  r.kind = kind;
  r.start = open.start;
  r.tid = open.tid;
  r.domain_id = open.domain_id;
  r.text = open.event.text;
  r.category = open.event.category;
  r.color = open.event.color;
  r.payload = open.event.payload;
  r.payload_value = open.event.payload_value;
  r.payload_bits = open.event.payload_bits;
  return r;
}

NvtxRecorder::ThreadStacks& NvtxRecorder::this_thread_stacks() {
  // Trivially destructible, so usable from static destructors after the thread's
  // thread_locals are gone; the stacks themselves belong to threads_.
  struct Cache {
    const NvtxRecorder* owner;
    ThreadStacks* stacks;
  };
  thread_local Cache cache = {nullptr, nullptr};
  if (cache.owner == this) return *cache.stacks;
  std::lock_guard lock(mutex_);
  threads_.push_back(std::make_unique<ThreadStacks>());
  cache = {this, threads_.back().get()};
  return *cache.stacks;
}

bool NvtxRecorder::capture_begins(const NvtxDomainState& domain, const NvtxEvent& event) {
  if (capture_.begin == nullptr || event.text != capture_.text) return false;
  if (capture_.domain != "*" && capture_.domain != (domain.id == 0 ? "" : domain.name)) {
    return false;
  }
  if (capture_depth_.fetch_add(1) == 0) capture_.begin();
  return true;
}

void NvtxRecorder::capture_ends() {
  if (capture_depth_.fetch_sub(1) == 1 && capture_.end != nullptr) capture_.end();
}

void NvtxRecorder::mark(const NvtxDomainState& domain, const NvtxEvent& event) {
  Open now{domain.id, table_.now_ns(), table_.this_tid(), event};
  table_.emit(record(prof::Nvtx::kMark, now));
}

int NvtxRecorder::push(const NvtxDomainState& domain, NvtxEvent event) {
  ThreadStacks& thread = this_thread_stacks();
  bool capture = capture_begins(domain, event);
  Open open{domain.id, table_.now_ns(), table_.this_tid(), std::move(event), capture};
  std::lock_guard lock(thread.mutex);
  std::vector<Open>& stack = thread.stacks[domain.id];
  stack.push_back(std::move(open));
  return static_cast<int>(stack.size()) - 1;
}

int NvtxRecorder::pop(const NvtxDomainState& domain) {
  uint64_t end = table_.now_ns();
  ThreadStacks& thread = this_thread_stacks();
  prof::Nvtx r;
  int level;
  bool capture;
  {
    std::lock_guard lock(thread.mutex);
    auto it = thread.stacks.find(domain.id);
    if (it == thread.stacks.end() || it->second.empty()) return -1;
    level = static_cast<int>(it->second.size()) - 1;
    r = record(prof::Nvtx::kPushPop, it->second.back());
    capture = it->second.back().capture;
    it->second.pop_back();
  }
  r.end = end;
  r.end_tid = r.tid;
  table_.emit(r);
  if (capture) capture_ends();
  return level;
}

uint64_t NvtxRecorder::start(const NvtxDomainState& domain, NvtxEvent event) {
  bool capture = capture_begins(domain, event);
  Open open{domain.id, table_.now_ns(), table_.this_tid(), std::move(event), capture};
  std::lock_guard lock(mutex_);
  uint64_t id = next_range_id_++;
  started_.emplace(id, std::move(open));
  return id;
}

void NvtxRecorder::end(uint64_t range_id) {
  uint64_t end = table_.now_ns();
  prof::Nvtx r;
  bool capture;
  {
    std::lock_guard lock(mutex_);
    auto it = started_.find(range_id);
    if (it == started_.end()) return;
    r = record(prof::Nvtx::kStartEnd, it->second);
    capture = it->second.capture;
    started_.erase(it);
  }
  r.range_id = range_id;
  r.end = end;
  r.end_tid = table_.this_tid();
  table_.emit(r);
  if (capture) capture_ends();
}

NvtxDomainState* NvtxRecorder::create_domain(const std::string& name) {
  prof::NvtxDomain r;
  NvtxDomainState* domain;
  {
    std::lock_guard lock(mutex_);
    auto it = domains_by_name_.find(name);
    if (it != domains_by_name_.end()) return it->second;
    domain = &domains_.emplace_back(NvtxDomainState{domains_.size() + 1, name});
    domains_by_name_.emplace(name, domain);
    r.pid = table_.this_pid();
    r.id = domain->id;
    r.name = name;
  }
  r.created = table_.now_ns();
  r.tid = table_.this_tid();
  table_.emit(r);
  return domain;
}

const NvtxRegisteredString* NvtxRecorder::register_string(const NvtxDomainState& domain,
                                                          const std::string& text) {
  std::lock_guard lock(mutex_);
  auto key = std::make_pair(domain.id, text);
  auto it = strings_by_text_.find(key);
  if (it != strings_by_text_.end()) return it->second;
  const NvtxRegisteredString* s = &strings_.emplace_back(NvtxRegisteredString{domain.id, text});
  strings_by_text_.emplace(std::move(key), s);
  return s;
}

void NvtxRecorder::name_category(const NvtxDomainState& domain, uint32_t category,
                                 const std::string& name) {
  NvtxEvent event;
  event.text = name;
  event.category = category;
  Open now{domain.id, table_.now_ns(), table_.this_tid(), std::move(event)};
  table_.emit(record(prof::Nvtx::kCategory, now));
}

void NvtxRecorder::name_os_thread(uint32_t tid, const std::string& name) {
  table_.emit(prof::Thread{table_.this_pid(), tid, name});
}

void NvtxRecorder::name_stream(CUstream stream, const std::string& name) {
  table_.name_stream(stream, name.c_str());
}

void NvtxRecorder::name_device(int device, const std::string& name) {
  table_.name_device(device, name.c_str());
}

void NvtxRecorder::finish() {
  std::vector<prof::Nvtx> open;
  {
    std::lock_guard lock(mutex_);
    for (auto& [id, range] : started_) {
      prof::Nvtx r = record(prof::Nvtx::kStartEnd, range);
      r.range_id = id;
      open.push_back(std::move(r));
    }
    started_.clear();
    for (auto& thread : threads_) {
      std::lock_guard thread_lock(thread->mutex);
      for (auto& [domain, stack] : thread->stacks) {
        for (const Open& range : stack) open.push_back(record(prof::Nvtx::kPushPop, range));
        stack.clear();
      }
    }
  }
  for (const prof::Nvtx& r : open) table_.emit(r);
}

}  // namespace strata::cupti
