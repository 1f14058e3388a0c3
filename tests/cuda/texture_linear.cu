// Textures on linear and pitched memory: tex1Dfetch on cudaResourceTypeLinear (float,
// int4 element reads, uchar4 and short normalized reads; out-of-range indices read 0
// in border mode) and tex2D on cudaResourceTypePitch2D with point and linear
// filtering. Expected values are computed on the host per the CUDA C++ Programming
// Guide ("Texture Fetching", "Read Mode").
#include <cuda_runtime.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "test_check.h"

__global__ void fetch_float(cudaTextureObject_t tex, const int* idx, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(tex, idx[i]);
}
__global__ void fetch_int4(cudaTextureObject_t tex, const int* idx, int4* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<int4>(tex, idx[i]);
}
__global__ void fetch_float4(cudaTextureObject_t tex, const int* idx, float4* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float4>(tex, idx[i]);
}
__global__ void sample_2d(cudaTextureObject_t tex, const float2* p, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(tex, p[i].x, p[i].y);
}

template <typename T>
static T* to_device(const std::vector<T>& v) {
  T* d = nullptr;
  CHECK_CUDA(cudaMalloc(&d, v.size() * sizeof(T)));
  CHECK_CUDA(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}
template <typename T>
static std::vector<T> from_device(const T* d, size_t n) {
  std::vector<T> v(n);
  CHECK_CUDA(cudaMemcpy(v.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return v;
}

static cudaTextureObject_t linear_texture(void* ptr, cudaChannelFormatDesc desc, size_t bytes,
                                          cudaTextureReadMode read) {
  cudaResourceDesc res;
  std::memset(&res, 0, sizeof(res));
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = ptr;
  res.res.linear.desc = desc;
  res.res.linear.sizeInBytes = bytes;
  cudaTextureDesc t;
  std::memset(&t, 0, sizeof(t));
  // Border mode (border colour 0): fetches past either end read zeros.
  t.addressMode[0] = cudaAddressModeBorder;
  t.readMode = read;
  cudaTextureObject_t tex = 0;
  CHECK_CUDA(cudaCreateTextureObject(&tex, &res, &t, nullptr));
  return tex;
}

int main() {
  const int N = 300;
  // Indices inside the buffer and past either end (those read zeros).
  std::vector<int> idx;
  for (int i = 0; i < 64; ++i) idx.push_back((i * 37) % (N + 40) - 20);
  int* d_idx = to_device(idx);
  const int n = static_cast<int>(idx.size());

  // float
  std::vector<float> f(N);
  for (int i = 0; i < N; ++i) f[i] = i * 1.25f - 7.0f;
  float* d_f = to_device(f);
  cudaTextureObject_t tex = linear_texture(d_f, cudaCreateChannelDesc<float>(), N * sizeof(float),
                                           cudaReadModeElementType);
  float* d_out = nullptr;
  CHECK_CUDA(cudaMalloc(&d_out, n * sizeof(float)));
  fetch_float<<<1, n>>>(tex, d_idx, d_out, n);
  CHECK_CUDA(cudaGetLastError());
  std::vector<float> got = from_device(d_out, n);
  for (int i = 0; i < n; ++i) {
    float want = idx[i] >= 0 && idx[i] < N ? f[idx[i]] : 0.0f;
    EXPECT_TRUE(got[i] == want, "tex1Dfetch<float>(%d) = %f, want %f", idx[i], got[i], want);
  }
  CHECK_CUDA(cudaDestroyTextureObject(tex));

  // int4, element type
  std::vector<int4> v4(N);
  for (int i = 0; i < N; ++i) v4[i] = make_int4(i, -i, i * 1000, 0x7fffffff - i);
  int4* d_v4 = to_device(v4);
  tex = linear_texture(d_v4, cudaCreateChannelDesc<int4>(), N * sizeof(int4),
                       cudaReadModeElementType);
  int4* d_i4 = nullptr;
  CHECK_CUDA(cudaMalloc(&d_i4, n * sizeof(int4)));
  fetch_int4<<<1, n>>>(tex, d_idx, d_i4, n);
  CHECK_CUDA(cudaGetLastError());
  std::vector<int4> gi = from_device(d_i4, n);
  for (int i = 0; i < n; ++i) {
    int4 want = idx[i] >= 0 && idx[i] < N ? v4[idx[i]] : make_int4(0, 0, 0, 0);
    EXPECT_TRUE(gi[i].x == want.x && gi[i].y == want.y && gi[i].z == want.z && gi[i].w == want.w,
                "tex1Dfetch<int4>(%d)", idx[i]);
  }
  CHECK_CUDA(cudaDestroyTextureObject(tex));

  // uchar4, normalized float: v / 255
  std::vector<uchar4> u4(N);
  for (int i = 0; i < N; ++i) u4[i] = make_uchar4(i & 0xff, (i * 3) & 0xff, 255 - (i & 0xff), 7);
  uchar4* d_u4 = to_device(u4);
  tex = linear_texture(d_u4, cudaCreateChannelDesc<uchar4>(), N * sizeof(uchar4),
                       cudaReadModeNormalizedFloat);
  float4* d_f4 = nullptr;
  CHECK_CUDA(cudaMalloc(&d_f4, n * sizeof(float4)));
  fetch_float4<<<1, n>>>(tex, d_idx, d_f4, n);
  CHECK_CUDA(cudaGetLastError());
  std::vector<float4> gf = from_device(d_f4, n);
  for (int i = 0; i < n; ++i) {
    if (idx[i] < 0 || idx[i] >= N) continue;
    const uchar4 t = u4[idx[i]];
    EXPECT_TRUE(
        std::fabs(gf[i].x - t.x / 255.0f) < 1e-6f && std::fabs(gf[i].y - t.y / 255.0f) < 1e-6f &&
            std::fabs(gf[i].z - t.z / 255.0f) < 1e-6f && std::fabs(gf[i].w - t.w / 255.0f) < 1e-6f,
        "tex1Dfetch<float4> normalized uchar4(%d) = (%f %f %f %f)", idx[i], gf[i].x, gf[i].y,
        gf[i].z, gf[i].w);
  }
  CHECK_CUDA(cudaDestroyTextureObject(tex));

  // short (one channel), normalized float: max(v / 32767, -1); missing channels 0, alpha 1
  std::vector<short> s1(N);
  for (int i = 0; i < N; ++i) s1[i] = static_cast<short>(i * 211 - 32768);
  short* d_s1 = to_device(s1);
  tex = linear_texture(d_s1, cudaCreateChannelDesc<short>(), N * sizeof(short),
                       cudaReadModeNormalizedFloat);
  fetch_float4<<<1, n>>>(tex, d_idx, d_f4, n);
  CHECK_CUDA(cudaGetLastError());
  gf = from_device(d_f4, n);
  for (int i = 0; i < n; ++i) {
    if (idx[i] < 0 || idx[i] >= N) continue;
    float want = std::fmax(s1[idx[i]] / 32767.0f, -1.0f);
    EXPECT_TRUE(
        std::fabs(gf[i].x - want) < 1e-6f && gf[i].y == 0.0f && gf[i].z == 0.0f && gf[i].w == 1.0f,
        "tex1Dfetch<float4> normalized short(%d) = (%f %f %f %f), want (%f 0 0 1)", idx[i], gf[i].x,
        gf[i].y, gf[i].z, gf[i].w, want);
  }
  CHECK_CUDA(cudaDestroyTextureObject(tex));

  // Pitch2D: float rows with padding, point and linear filtering, clamp.
  const int W = 20, H = 7;
  float* pitched = nullptr;
  size_t pitch = 0;
  CHECK_CUDA(cudaMallocPitch(reinterpret_cast<void**>(&pitched), &pitch, W * sizeof(float), H));
  std::vector<float> img(W * H);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) img[y * W + x] = x * 2.0f + y * 100.0f;
  CHECK_CUDA(cudaMemcpy2D(pitched, pitch, img.data(), W * sizeof(float), W * sizeof(float), H,
                          cudaMemcpyHostToDevice));
  std::vector<float2> pts;
  for (int i = 0; i < 32; ++i)
    pts.push_back(make_float2(-1.7f + i * 0.733f, -0.6f + (i % 9) * 0.91f));
  float2* d_pts = to_device(pts);
  for (int linear = 0; linear <= 1; ++linear) {
    cudaResourceDesc res;
    std::memset(&res, 0, sizeof(res));
    res.resType = cudaResourceTypePitch2D;
    res.res.pitch2D.devPtr = pitched;
    res.res.pitch2D.desc = cudaCreateChannelDesc<float>();
    res.res.pitch2D.width = W;
    res.res.pitch2D.height = H;
    res.res.pitch2D.pitchInBytes = pitch;
    cudaTextureDesc t;
    std::memset(&t, 0, sizeof(t));
    t.addressMode[0] = t.addressMode[1] = cudaAddressModeClamp;
    t.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
    t.readMode = cudaReadModeElementType;
    CHECK_CUDA(cudaCreateTextureObject(&tex, &res, &t, nullptr));
    sample_2d<<<1, 32>>>(tex, d_pts, d_out, 32);
    CHECK_CUDA(cudaGetLastError());
    got = from_device(d_out, 32);
    auto at = [&](int x, int y) {
      x = x < 0 ? 0 : (x >= W ? W - 1 : x);
      y = y < 0 ? 0 : (y >= H ? H - 1 : y);
      return img[y * W + x];
    };
    for (int i = 0; i < 32; ++i) {
      float want, tol = 1e-4f;
      if (!linear) {
        want = at(static_cast<int>(std::floor(pts[i].x)), static_cast<int>(std::floor(pts[i].y)));
      } else {
        float xb = pts[i].x - 0.5f, yb = pts[i].y - 0.5f;
        int x0 = static_cast<int>(std::floor(xb)), y0 = static_cast<int>(std::floor(yb));
        float a = std::nearbyint((xb - x0) * 256.0f) / 256.0f;
        float b = std::nearbyint((yb - y0) * 256.0f) / 256.0f;
        want = (1 - a) * (1 - b) * at(x0, y0) + a * (1 - b) * at(x0 + 1, y0) +
               (1 - a) * b * at(x0, y0 + 1) + a * b * at(x0 + 1, y0 + 1);
        tol = (2.0f + 100.0f) * 2 / 256.0f + 1e-3f;  // one weight step of each axis
      }
      EXPECT_TRUE(std::fabs(got[i] - want) <= tol, "pitch2D %s (%f, %f) = %f, want %f",
                  linear ? "linear" : "point", pts[i].x, pts[i].y, got[i], want);
    }
    CHECK_CUDA(cudaDestroyTextureObject(tex));
  }

  CHECK_CUDA(cudaFree(d_idx));
  CHECK_CUDA(cudaFree(d_f));
  CHECK_CUDA(cudaFree(d_v4));
  CHECK_CUDA(cudaFree(d_u4));
  CHECK_CUDA(cudaFree(d_s1));
  CHECK_CUDA(cudaFree(d_out));
  CHECK_CUDA(cudaFree(d_i4));
  CHECK_CUDA(cudaFree(d_f4));
  CHECK_CUDA(cudaFree(d_pts));
  CHECK_CUDA(cudaFree(pitched));
  std::printf("PASS texture_linear\n");
  return 0;
}
