// Function pointers valid across kernels (docs/abi.md "Code addresses"): a __device__
// table of function pointers initialised statically, a pointer stored to memory by one
// kernel and called by another, a pointer read on the host with cudaMemcpyFromSymbol and
// passed back as a kernel argument, and a called function using __shared__ memory.
#include <cstdint>
#include <vector>

#include "test_check.h"

typedef int (*op_t)(int, int);
__device__ __noinline__ int op_add(int a, int b) { return a + b; }
__device__ __noinline__ int op_sub(int a, int b) { return a - b; }
__device__ __noinline__ int op_mul(int a, int b) { return a * b; }
__device__ __noinline__ int op_xor(int a, int b) { return a ^ b; }

// Initialised by the loader: function addresses in a global initializer.
__device__ op_t g_table[4] = {op_add, op_sub, op_mul, op_xor};
__device__ op_t g_chosen = op_mul;

// A called function using a __shared__ array (hoisted to module scope by nvcc).
__device__ __noinline__ int shared_sum(int v) {
  __shared__ int cell[64];
  cell[threadIdx.x] = v;
  __syncthreads();
  int s = 0;
  for (int k = 0; k < blockDim.x; ++k) s += cell[k];
  __syncthreads();
  return s;
}
typedef int (*reduce_t)(int);
__device__ reduce_t g_reduce = shared_sum;

__global__ void table_kernel(int* out, const int* sel, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = g_table[sel[t] & 3](t, 7);
}

// Stores per-thread function pointers to memory for another kernel.
__global__ void store_kernel(op_t* slots, const int* sel, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  op_t local[4] = {op_xor, op_mul, op_sub, op_add};
  if (t < n) slots[t] = local[sel[t] & 3];
}

__global__ void call_stored_kernel(int* out, op_t* const* slots_ptr, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = (*slots_ptr)[t](t, 3);
}

__global__ void argument_kernel(int* out, op_t op, reduce_t reduce) {
  int t = threadIdx.x;
  out[t] = op(t, 5) + 1000 * reduce(t);
}

int host_op(int which, int a, int b) {
  switch (which & 3) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    default: return a ^ b;
  }
}

int main() {
  const int n = 256;
  std::vector<int> sel(n);
  for (int i = 0; i < n; ++i) sel[i] = (i * 7 + i / 5) % 4;
  int *d_out, *d_sel;
  op_t* d_slots;
  op_t** d_slots_ptr;
  CHECK_CUDA(cudaMalloc(&d_out, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_sel, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_slots, n * sizeof(op_t)));
  CHECK_CUDA(cudaMalloc(&d_slots_ptr, sizeof(op_t*)));
  CHECK_CUDA(cudaMemcpy(d_sel, sel.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_slots_ptr, &d_slots, sizeof(op_t*), cudaMemcpyHostToDevice));
  std::vector<int> out(n);

  table_kernel<<<n / 64, 64>>>(d_out, d_sel, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; ++t)
    EXPECT_TRUE(out[t] == host_op(sel[t], t, 7), "table thread %d: got %d want %d", t, out[t], host_op(sel[t], t, 7));

  store_kernel<<<n / 64, 64>>>(d_slots, d_sel, n);
  call_stored_kernel<<<n / 128, 128>>>(d_out, d_slots_ptr, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; ++t) {
    int want = host_op(3 - (sel[t] & 3), t, 3);  // local[] lists the ops in reverse
    EXPECT_TRUE(out[t] == want, "stored pointer thread %d: got %d want %d", t, out[t], want);
  }

  // Device function pointers read on the host and passed back as arguments.
  op_t chosen;
  reduce_t reduce;
  CHECK_CUDA(cudaMemcpyFromSymbol(&chosen, g_chosen, sizeof(chosen)));
  CHECK_CUDA(cudaMemcpyFromSymbol(&reduce, g_reduce, sizeof(reduce)));
  EXPECT_TRUE(chosen != nullptr && reduce != nullptr, "device function pointers are not null");
  argument_kernel<<<1, 64>>>(d_out, chosen, reduce);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaMemcpy(out.data(), d_out, 64 * sizeof(int), cudaMemcpyDeviceToHost));
  const int sum = 63 * 64 / 2;
  for (int t = 0; t < 64; ++t)
    EXPECT_TRUE(out[t] == t * 5 + 1000 * sum, "argument thread %d: got %d want %d", t, out[t], t * 5 + 1000 * sum);

  CHECK_CUDA(cudaFree(d_out));
  CHECK_CUDA(cudaFree(d_sel));
  CHECK_CUDA(cudaFree(d_slots));
  CHECK_CUDA(cudaFree(d_slots_ptr));
  std::printf("PASS\n");
  return 0;
}
