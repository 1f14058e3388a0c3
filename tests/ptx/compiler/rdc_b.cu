__device__ int scale_factor = 3;
__device__ __noinline__ int scaled(int x) { return x * scale_factor; }
