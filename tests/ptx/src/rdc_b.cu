// -rdc=true: definitions used by rdc_a.cu.
__device__ int shared_counter = 0;
__device__ float helper(float x) { return x * x + 1.0f; }
__device__ __attribute__((weak)) int weak_value = 3;
