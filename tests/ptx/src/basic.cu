// Element-wise kernels, guards, special registers, loops.
extern "C" __global__ void saxpy(int n, float a, const float* __restrict__ x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void __launch_bounds__(256, 2) scale_rows(double* m, int rows, int cols, double s) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows || c >= cols) return;
#pragma unroll 4
  for (int k = 0; k < 8; ++k) m[r * cols + c] = m[r * cols + c] * s + k;
}

__global__ void clocks(long long* out, unsigned* lanes) {
  long long t0 = clock64();
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  lanes[threadIdx.x] = lane;
  out[threadIdx.x] = clock64() - t0;
}
