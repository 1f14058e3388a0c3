extern __device__ int scale_factor;
extern __device__ int scaled(int x);
__global__ void use_extern(int* out) { out[threadIdx.x] = scaled(threadIdx.x) + scale_factor; }
