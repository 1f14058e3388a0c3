// Real device function calls: recursion with per-thread depths (factorial, Fibonacci,
// mutual recursion), a recursive function with a local array, and calls through
// function pointers whose targets differ per thread.
#include <vector>

#include "test_check.h"

__device__ __noinline__ unsigned fact(unsigned n) { return n <= 1 ? 1u : n * fact(n - 1); }
__device__ __noinline__ unsigned fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ __noinline__ bool is_odd(unsigned n);
__device__ __noinline__ bool is_even(unsigned n) { return n == 0 ? true : is_odd(n - 1); }
__device__ __noinline__ bool is_odd(unsigned n) { return n == 0 ? false : is_even(n - 1); }

// Each frame keeps its own array across the recursive call.
__device__ __noinline__ unsigned local_sum(unsigned n, volatile unsigned* scratch_bias) {
  if (n == 0) return 0;
  unsigned buf[4];
  for (unsigned k = 0; k < 4; ++k) buf[k] = n * k + *scratch_bias;
  unsigned below = local_sum(n - 1, scratch_bias);
  for (unsigned k = 0; k < 4; ++k) below += buf[(k + n) & 3];
  return below;
}

typedef unsigned (*op_t)(unsigned);
__device__ __noinline__ unsigned add100(unsigned x) { return x + 100; }
__device__ __noinline__ unsigned mul3(unsigned x) { return x * 3; }
__device__ __noinline__ unsigned negate(unsigned x) { return 0u - x; }

__global__ void calls_kernel(unsigned* out, const int* selector, unsigned* bias) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  op_t ops[3] = {add100, mul3, negate};
  op_t op = ops[selector[t] % 3];
  out[6 * t + 0] = fact(t % 13);
  out[6 * t + 1] = fib(t % 15);
  out[6 * t + 2] = is_even(t % 23) ? 1u : 0u;
  out[6 * t + 3] = local_sum(t % 10, bias);
  out[6 * t + 4] = op(t);
  out[6 * t + 5] = __activemask();
}

static unsigned host_fact(unsigned n) { return n <= 1 ? 1u : n * host_fact(n - 1); }
static unsigned host_fib(unsigned n) { return n < 2 ? n : host_fib(n - 1) + host_fib(n - 2); }

int main() {
  const unsigned blocks = 2, threads = 128, n = blocks * threads;
  std::vector<int> sel(n);
  for (unsigned i = 0; i < n; ++i) sel[i] = static_cast<int>((i * 7 + i / 5) % 3);
  unsigned* d_out;
  int* d_sel;
  unsigned* d_bias;
  const unsigned bias = 1;
  CHECK_CUDA(cudaMalloc(&d_out, 6 * n * sizeof(unsigned)));
  CHECK_CUDA(cudaMalloc(&d_sel, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_bias, sizeof(unsigned)));
  CHECK_CUDA(cudaMemcpy(d_sel, sel.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_bias, &bias, sizeof(unsigned), cudaMemcpyHostToDevice));
  calls_kernel<<<blocks, threads>>>(d_out, d_sel, d_bias);
  CHECK_CUDA(cudaGetLastError());
  std::vector<unsigned> out(6 * n);
  CHECK_CUDA(cudaMemcpy(out.data(), d_out, out.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (unsigned t = 0; t < n; ++t) {
    const unsigned* o = &out[6 * t];
    EXPECT_TRUE(o[0] == host_fact(t % 13), "fact: thread %u got %u", t, o[0]);
    EXPECT_TRUE(o[1] == host_fib(t % 15), "fib: thread %u got %u", t, o[1]);
    EXPECT_TRUE(o[2] == ((t % 23) % 2 == 0 ? 1u : 0u), "is_even: thread %u got %u", t, o[2]);
    unsigned m = t % 10, want = 0;
    for (unsigned k = 1; k <= m; ++k) want += 6 * k + 4 * bias;
    EXPECT_TRUE(o[3] == want, "local_sum: thread %u got %u, expected %u", t, o[3], want);
    unsigned s = static_cast<unsigned>(sel[t] % 3);
    unsigned want_op = s == 0 ? t + 100 : s == 1 ? t * 3 : 0u - t;
    EXPECT_TRUE(o[4] == want_op, "op: thread %u (target %u) got %u, expected %u", t, s, o[4], want_op);
    EXPECT_TRUE(o[5] == 0xffffffffu, "threads reconverge after the calls: thread %u mask %#x", t, o[5]);
  }
  CHECK_CUDA(cudaFree(d_out));
  CHECK_CUDA(cudaFree(d_sel));
  CHECK_CUDA(cudaFree(d_bias));
  std::printf("PASS recursion_fnptr (%u threads)\n", n);
  return 0;
}
