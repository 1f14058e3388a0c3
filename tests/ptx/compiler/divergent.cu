__global__ void collatz(const unsigned* in, unsigned* steps, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned x = in[i], s = 0;
  while (x != 1u) {
    if (x & 1u) x = 3u * x + 1u; else x >>= 1;
    ++s;
  }
  steps[i] = s;
}
__global__ void index3d(float* out, double scale) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  int w = gridDim.x * blockDim.x, h = gridDim.y * blockDim.y;
  out[(z * h + y) * w + x] = (float)(scale * x + y - z);
}
