// -rdc=true: extern device function and variable defined in rdc_b.cu.
extern __device__ int shared_counter;
extern __device__ float helper(float x);
__global__ void rdc_kernel(float* out) {
  out[threadIdx.x] = helper(out[threadIdx.x]);
  atomicAdd(&shared_counter, 1);
}
