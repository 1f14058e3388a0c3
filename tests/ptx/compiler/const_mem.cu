__constant__ float coeffs[4] = {1.f, 2.f, 3.f, 4.f};
__device__ int gtable[3] = {7, 8, 9};
__global__ void poly(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    y[i] = coeffs[0] + v * (coeffs[1] + v * (coeffs[2] + v * coeffs[3])) + gtable[i % 3];
  }
}
