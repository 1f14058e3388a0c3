#include "cuda/driver/host_worker.h"

#include <thread>

namespace strata::cuda::driver {
namespace {
thread_local bool t_on_worker = false;
}  // namespace

bool on_host_worker_thread() {
  return t_on_worker;
}

std::shared_ptr<HostWorker> HostWorker::start() {
  std::shared_ptr<HostWorker> worker(new HostWorker());
  std::thread(&HostWorker::run, worker).detach();
  return worker;
}

void HostWorker::post(std::function<void()> job) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    jobs_.push_back(std::move(job));
  }
  ready_.notify_one();
}

void HostWorker::close() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
  }
  ready_.notify_one();
}

void HostWorker::run(std::shared_ptr<HostWorker> self) {
  t_on_worker = true;
  std::unique_lock<std::mutex> lock(self->mutex_);
  for (;;) {
    self->ready_.wait(lock, [&] { return self->closed_ || !self->jobs_.empty(); });
    if (self->jobs_.empty()) return;  // closed and drained
    std::function<void()> job = std::move(self->jobs_.front());
    self->jobs_.pop_front();
    lock.unlock();
    job();
    job = nullptr;  // release captures outside the lock
    lock.lock();
  }
}

}  // namespace strata::cuda::driver
