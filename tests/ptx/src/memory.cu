// Shared memory (static and extern), constants with initializers, device arrays.
__constant__ float coeffs[4] = {1.0f, 0.5f, 0.25f, 0.125f};
__constant__ int table[3][2] = {{1, 2}, {3, 4}, {5, 6}};
__device__ int counter = 7;
__device__ int buffer[16] = {1, 2, 3};
__device__ int* ptr_to_buffer = &buffer[2];
__device__ int* ptrs[2] = {&counter, buffer + 4};
struct Pair { int a; float* p; };
__device__ float fvals[2] = {3.5f, -1.0f};
__device__ Pair pair = {5, &fvals[1]};
__device__ double dvals[2] = {2.5, 1e300};
__device__ unsigned char bytes[5] = {1, 2, 255, 0, 9};

__global__ void reduce(const float* in, float* out, int n) {
  __shared__ float tile[256];
  extern __shared__ float dyn[];
  int t = threadIdx.x;
  tile[t] = (t < n) ? in[t] * coeffs[t & 3] : 0.0f;
  dyn[t] = tile[t];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) tile[t] += tile[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = tile[0] + dyn[1] + table[1][1] + counter + *ptr_to_buffer + *ptrs[1] + *pair.p + dvals[0] + bytes[2];
}

__global__ void vec4(const float4* in, float4* out, volatile int* flag) {
  float4 v = in[threadIdx.x];
  v.x += v.w;
  out[threadIdx.x] = v;
  *flag = 1;
  while (*flag == 0) {}
}

// Packed pointers force byte-masked address initializers: 0xFF00(generic(a)+4).
struct __attribute__((packed)) Packed { char c; int* p; short s; int* q; };
__device__ int packed_target[4];
__device__ Packed packed = {1, &packed_target[1], 2, packed_target};
__managed__ int managed_value = 3;
__device__ float fscalar = 1.5f;
__device__ double dscalar = 2.0;
__global__ void read_globals(int* o) {
  o[0] = packed.c + *packed.p + managed_value + fscalar + dscalar;
}
