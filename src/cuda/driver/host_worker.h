// HostWorker: a Strata-owned thread that runs a stream's host functions
// (cuLaunchHostFunc, cuStreamAddCallback) one at a time, in the order they were posted.
// Host functions never run on a thread that called the API.
//
// CUDA forbids CUDA API calls from a host function ("may result in
// CUDA_ERROR_NOT_PERMITTED, but this is not required"): in Strata every driver entry
// point that goes through api_call returns CUDA_ERROR_NOT_PERMITTED on a worker thread
// (on_host_worker_thread()), so such a call cannot deadlock on the stream it runs in.
//
// close() lets the thread finish the jobs already posted and exit; the thread is
// detached and owns the worker, so closing never blocks the caller. Thread-safe.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>

namespace strata::cuda::driver {

class HostWorker {
 public:
  static std::shared_ptr<HostWorker> start();

  void post(std::function<void()> job);
  void close();

 private:
  HostWorker() = default;
  static void run(std::shared_ptr<HostWorker> self);

  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> jobs_;
  bool closed_ = false;
};

// True on a HostWorker thread (inside a host function).
bool on_host_worker_thread();

}  // namespace strata::cuda::driver
