// A persistent pool of SM worker threads. run() executes one job on the first n
// threads (growing the pool on demand) and returns when all have finished. Jobs are
// serialised: a second caller waits for the first job to finish.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace strata::hw::sim {

class WorkerPool {
 public:
  static WorkerPool& instance();
  ~WorkerPool();

  // Calls fn(i) for i in [0, n) on n pool threads.
  void run(int n, const std::function<void(int)>& fn);

 private:
  void thread_main(int index);

  std::mutex run_mutex_;  // one job at a time
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  std::vector<std::thread> threads_;
  const std::function<void(int)>* job_ = nullptr;
  int job_threads_ = 0;
  int remaining_ = 0;
  uint64_t generation_ = 0;
  bool shutdown_ = false;
};

// Worker threads per grid: STRATA_THREADS if set to a positive number, else the number
// of host cores (read at every launch).
int worker_thread_count();

}  // namespace strata::hw::sim
