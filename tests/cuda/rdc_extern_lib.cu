// The device-side library half of rdc_extern: a function and a variable that the other
// translation unit uses through `extern` declarations (needs -rdc=true).
__device__ int rdc_bias = 0;

__device__ int rdc_transform(int x) { return 3 * x + rdc_bias; }

__global__ void rdc_set_bias(int bias) { rdc_bias = bias; }
