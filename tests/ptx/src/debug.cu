// Compiled twice: with -lineinfo (.loc/.file) and with -G (debug sections).
__device__ __forceinline__ float sq(float x) { return x * x; }
__device__ float norm2(const float* v, int n) {
  float s = 0;
  for (int i = 0; i < n; ++i) s += sq(v[i]);
  return s;
}
__global__ void debug_kernel(const float* v, float* out, int n) {
  out[threadIdx.x] = norm2(v + threadIdx.x * n, n);
}
