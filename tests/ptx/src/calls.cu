// Device functions with calls and return values, structs by value, double, half, printf, assert.
#include <cassert>
#include <cstdio>
#include <cuda_fp16.h>
struct Vec3 { float x, y, z; };
__device__ __noinline__ Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
__device__ __noinline__ double poly(double x, int n) {
  double r = 0;
  for (int i = 0; i < n; ++i) r = r * x + i;
  return r;
}
__device__ __noinline__ void nothing_returned(int* p) { *p = 3; }
__global__ void use_calls(Vec3* v, double* d, __half* h, int* p) {
  v[threadIdx.x] = cross(v[0], v[1]);
  d[threadIdx.x] = poly(d[threadIdx.x], 5);
  h[threadIdx.x] = __hadd(h[threadIdx.x], __float2half(1.5f));
  nothing_returned(p);
  printf("thread %d value %f\n", threadIdx.x, d[0]);
  assert(p[0] != 42);
}
__global__ void by_value(Vec3 v, int arr_dummy, char c, short s) {
  printf("%f %d %c %d\n", v.x, arr_dummy, c, s);
}
typedef int (*fn_t)(int);
__device__ int inc(int x) { return x + 1; }
__device__ int dec(int x) { return x - 1; }
__device__ fn_t fns[2] = {inc, dec};
__global__ void indirect(int* out, int which) { out[0] = fns[which & 1](out[0]); }
