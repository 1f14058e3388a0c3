#include "hw/sim/sm/worker_pool.h"

#include <cstdlib>

#include "base/log.h"

namespace strata::hw::sim {

WorkerPool& WorkerPool::instance() {
  // Never destroyed: at process exit a command processor may still be running a grid
  // (work left pending when main returns) while static destructors run, and destroying
  // the pool under it would deadlock the exit.
  static auto* pool = new WorkerPool();
  return *pool;
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    shutdown_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void WorkerPool::run(int n, const std::function<void(int)>& fn) {
  std::lock_guard<std::mutex> run_lock(run_mutex_);
  std::unique_lock<std::mutex> lock(mutex_);
  while (static_cast<int>(threads_.size()) < n) {
    const int index = static_cast<int>(threads_.size());
    threads_.emplace_back([this, index] { thread_main(index); });
  }
  job_ = &fn;
  job_threads_ = n;
  remaining_ = n;
  ++generation_;
  wake_.notify_all();
  done_.wait(lock, [this] { return remaining_ == 0; });
  job_ = nullptr;
}

void WorkerPool::thread_main(int index) {
  uint64_t seen = 0;
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    wake_.wait(lock, [&] { return shutdown_ || generation_ != seen; });
    if (shutdown_) return;
    seen = generation_;
    if (index >= job_threads_) continue;
    const std::function<void(int)>* job = job_;
    lock.unlock();
    (*job)(index);
    lock.lock();
    if (--remaining_ == 0) done_.notify_all();
  }
}

int worker_thread_count() {
  if (const char* env = std::getenv("STRATA_THREADS"); env != nullptr && *env != '\0') {
    char* end = nullptr;
    const long n = std::strtol(env, &end, 10);
    if (end != env && *end == '\0' && n > 0 && n <= 1024) return static_cast<int>(n);
    STRATA_LOG_WARN("ignoring STRATA_THREADS='{}' (want a number 1..1024)", env);
  }
  const unsigned hc = std::thread::hardware_concurrency();
  return hc == 0 ? 1 : static_cast<int>(hc);
}

}  // namespace strata::hw::sim
