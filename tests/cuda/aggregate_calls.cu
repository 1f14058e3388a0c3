// Aggregates across __noinline__ device-function calls: double2/float4/int4/struct
// results and by-value parameters of several sizes and alignments, mixed in one module,
// functions calling functions, early returns, and recursive (really called) functions.
// nvcc passes these as `.param .align A .b8 name[N]` and reads/writes them piecewise;
// every result is checked against host arithmetic written out separately below.
#include <cstdint>
#include <cstdio>

#include "test_check.h"

struct Small {  // 3 bytes, align 1
  char a, b, c;
};
struct Mixed {  // 16 bytes, align 8: a short, a char, a double
  short s;
  char c;
  double d;
};
struct alignas(16) Wide {  // 32 bytes, align 16
  int i[3];
  float f;
  long long l;
  double d;
};
struct Pair {  // 8 bytes, align 4
  int lo, hi;
};

__device__ __noinline__ double2 make_d2(const float* p, int i) {
  return make_double2(p[i], 0.5 * p[i]);
}
__device__ __noinline__ float4 make_f4(const float* p, int i) {
  if (i & 1) return make_float4(p[i], -p[i], 2.0f * p[i], 3.0f);  // an early return
  return make_float4(-p[i], p[i], 0.25f * p[i], 7.0f);
}
__device__ __noinline__ int4 make_i4(int i) {
  return make_int4(i, i * 3, -i, 1000 + i);
}
__device__ __noinline__ Small make_small(int i) {
  return Small{char(i), char(i + 1), char(-i)};
}
__device__ __noinline__ Mixed make_mixed(int i) {
  return Mixed{short(-300 * i), char(i + 5), 1.25 * i};
}
__device__ __noinline__ Wide make_wide(int i) {
  Wide w;
  w.i[0] = i;
  w.i[1] = 2 * i;
  w.i[2] = 3 * i;
  w.f = 0.5f * i;
  w.l = (1ll << 40) + i;
  w.d = -2.0 * i;
  return w;
}
__device__ __noinline__ Pair make_pair(int i) {
  return Pair{i, -i};
}

// By-value consumers.
__device__ __noinline__ double sum_d2(double2 v) {
  return v.x + 4.0 * v.y;
}
__device__ __noinline__ float sum_f4(float4 v) {
  return v.x + 2.0f * v.y + 4.0f * v.z + 8.0f * v.w;
}
__device__ __noinline__ long long sum_i4(int4 v) {
  return v.x + 10ll * v.y + 100ll * v.z + 1000ll * v.w;
}
__device__ __noinline__ int sum_small(Small s) {
  return s.a + 100 * s.b + 10000 * s.c;
}
__device__ __noinline__ double sum_mixed(Mixed m) {
  return m.s + 1000.0 * m.c + m.d;
}
__device__ __noinline__ double sum_wide(Wide w) {
  return w.i[0] + 10.0 * w.i[1] + 100.0 * w.i[2] + w.f + double(w.l) + w.d;
}
__device__ __noinline__ long long sum_pair(Pair p) {
  return p.lo * 1000ll + p.hi;
}

// Several aggregates in, one out; and a function that calls functions.
__device__ __noinline__ double2 combine(double2 a, float4 b, int4 c, Small s) {
  if (s.a < 0) return make_double2(-1.0, -1.0);  // never taken for i >= 0: an early return
  return make_double2(a.x + b.y + c.z + s.b, a.y * b.w + c.w);
}
__device__ __noinline__ double2 nested(const float* p, int i) {
  double2 a = make_d2(p, i);
  float4 b = make_f4(p, i);
  double2 c = combine(a, b, make_i4(i), make_small(i));
  return make_double2(c.x + sum_pair(make_pair(i)), c.y + sum_mixed(make_mixed(i)));
}

// Recursion makes these real calls (their own frames, docs/abi.md).
__device__ double2 walk(double2 v, int4 step, int n) {
  if (n == 0) return v;
  return walk(make_double2(v.x + step.x, v.y * 2.0 + step.y), step, n - 1);
}
__device__ Wide bump(Wide w, int n) {
  if (n == 0) return w;
  w.i[n % 3] += n;
  w.f += 1.0f;
  w.l += n;
  w.d *= 2.0;
  return bump(w, n - 1);
}

constexpr int kResults = 12;

__global__ void probe_return(const float* p, double* out) {
  // Only the double2 function, in a module that also has by-value double2 consumers.
  int i = threadIdx.x;
  out[i * kResults] = make_d2(p, i).x;
}

__global__ void all(const float* p, double* out) {
  int i = threadIdx.x;
  double* o = out + i * kResults;
  double2 d2 = make_d2(p, i);
  o[1] = d2.y;
  o[2] = sum_d2(d2);
  o[3] = sum_f4(make_f4(p, i));
  o[4] = double(sum_i4(make_i4(i)));
  o[5] = sum_small(make_small(i));
  o[6] = sum_mixed(make_mixed(i));
  o[7] = sum_wide(make_wide(i));
  double2 n = nested(p, i);
  o[8] = n.x;
  o[9] = n.y;
  double2 w = walk(make_double2(p[i], 1.0), make_int4(i, 1, 0, 0), i % 4 + 1);
  o[10] = w.x + 1000.0 * w.y;
  o[11] = sum_wide(bump(make_wide(i), i % 3 + 1));
}

// Host references, written out from the definitions above.
static void expected(const float* p, int i, double* e) {
  double x = p[i];
  double d2x = x, d2y = 0.5 * x;
  e[0] = d2x;
  e[1] = d2y;
  e[2] = d2x + 4.0 * d2y;
  float f4[4];
  if (i & 1) {
    f4[0] = p[i], f4[1] = -p[i], f4[2] = 2.0f * p[i], f4[3] = 3.0f;
  } else {
    f4[0] = -p[i], f4[1] = p[i], f4[2] = 0.25f * p[i], f4[3] = 7.0f;
  }
  e[3] = f4[0] + 2.0f * f4[1] + 4.0f * f4[2] + 8.0f * f4[3];
  long long i4[4] = {i, i * 3, -i, 1000 + i};
  e[4] = double(i4[0] + 10 * i4[1] + 100 * i4[2] + 1000 * i4[3]);
  signed char sa = char(i), sb = char(i + 1), sc = char(-i);
  e[5] = sa + 100 * sb + 10000 * sc;
  short ms = short(-300 * i);
  signed char mc = char(i + 5);
  double md = 1.25 * i;
  e[6] = ms + 1000.0 * mc + md;
  auto wide_sum = [](const int* wi, float wf, long long wl, double wd) {
    return wi[0] + 10.0 * wi[1] + 100.0 * wi[2] + wf + double(wl) + wd;
  };
  int wi[3] = {i, 2 * i, 3 * i};
  e[7] = wide_sum(wi, 0.5f * i, (1ll << 40) + i, -2.0 * i);
  double cx = d2x + f4[1] + i4[2] + sb, cy = d2y * f4[3] + i4[3];
  e[8] = cx + (i * 1000ll + -i);
  e[9] = cy + (ms + 1000.0 * mc + md);
  double vx = p[i], vy = 1.0;
  for (int k = 0; k < i % 4 + 1; ++k) vx += i, vy = vy * 2.0 + 1;
  e[10] = vx + 1000.0 * vy;
  float wf = 0.5f * i;
  long long wl = (1ll << 40) + i;
  double wd = -2.0 * i;
  for (int k = i % 3 + 1; k > 0; --k) wi[k % 3] += k, wf += 1.0f, wl += k, wd *= 2.0;
  e[11] = wide_sum(wi, wf, wl, wd);
}

int main() {
  constexpr int kThreads = 8;
  float h[kThreads];
  for (int i = 0; i < kThreads; ++i) h[i] = 1.5f + i;
  float* p;
  double* out;
  CHECK_CUDA(cudaMalloc(&p, sizeof(h)));
  CHECK_CUDA(cudaMalloc(&out, sizeof(double) * kThreads * kResults));
  CHECK_CUDA(cudaMemcpy(p, h, sizeof(h), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(out, 0, sizeof(double) * kThreads * kResults));
  probe_return<<<1, kThreads>>>(p, out);
  CHECK_CUDA(cudaGetLastError());
  all<<<1, kThreads>>>(p, out);
  CHECK_CUDA(cudaGetLastError());
  double got[kThreads * kResults];
  CHECK_CUDA(cudaMemcpy(got, out, sizeof(got), cudaMemcpyDeviceToHost));
  for (int i = 0; i < kThreads; ++i) {
    double e[kResults];
    expected(h, i, e);
    for (int k = 0; k < kResults; ++k)
      EXPECT_TRUE(got[i * kResults + k] == e[k], "thread %d result %d: got %.17g, expected %.17g",
                  i, k, got[i * kResults + k], e[k]);
  }
  std::printf("PASS aggregate_calls\n");
  return 0;
}
