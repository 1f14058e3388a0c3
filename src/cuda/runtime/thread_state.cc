#include "cuda/runtime/thread_state.h"

#include <atomic>

#include "cuda/runtime/error_map.h"

namespace strata::cuda::runtime {
namespace {

thread_local cudaError_t t_last_error = cudaSuccess;
thread_local int t_device = 0;
std::atomic<int> g_sticky{cudaSuccess};

}  // namespace

cudaError_t record(cudaError_t error) {
  if (error == cudaSuccess) return error;
  t_last_error = error;
  if (is_sticky(error)) {
    int expected = cudaSuccess;
    g_sticky.compare_exchange_strong(expected, error);
  }
  return error;
}

cudaError_t record(CUresult result) { return record(to_cuda_error(result)); }

cudaError_t take_last_error() {
  cudaError_t sticky = sticky_error();
  cudaError_t last = t_last_error;
  t_last_error = cudaSuccess;
  return sticky != cudaSuccess ? sticky : last;
}

cudaError_t peek_last_error() {
  cudaError_t sticky = sticky_error();
  return sticky != cudaSuccess ? sticky : t_last_error;
}

cudaError_t sticky_error() { return static_cast<cudaError_t>(g_sticky.load()); }
void clear_sticky_error() { g_sticky.store(cudaSuccess); }

int current_device() { return t_device; }
void set_current_device(int device) { t_device = device; }

}  // namespace strata::cuda::runtime
