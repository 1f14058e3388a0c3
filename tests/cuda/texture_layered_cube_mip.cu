// Layered, cubemap and mipmapped textures: tex1DLayered / tex2DLayered, texCubemap and
// texCubemapLayered (face selection per the CUDA C++ Programming Guide's cubemap table),
// and tex2DLod on a mipmapped array with point and linear mipmap filtering and the level
// clamps. Every texel holds a value that names its layer/face/level and position, and
// the expected values are computed on the host.
#include <cuda_runtime.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "test_check.h"

__global__ void sample_1d_layered(cudaTextureObject_t tex, const float2* p, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1DLayered<float>(tex, p[i].x, static_cast<int>(p[i].y));
}
__global__ void sample_2d_layered(cudaTextureObject_t tex, const float4* p, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2DLayered<float>(tex, p[i].x, p[i].y, static_cast<int>(p[i].z));
}
__global__ void sample_cube(cudaTextureObject_t tex, const float4* p, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = texCubemap<float>(tex, p[i].x, p[i].y, p[i].z);
}
__global__ void sample_cube_layered(cudaTextureObject_t tex, const float4* p, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = texCubemapLayered<float>(tex, p[i].x, p[i].y, p[i].z, static_cast<int>(p[i].w));
}
__global__ void sample_lod(cudaTextureObject_t tex, const float4* p, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2DLod<float>(tex, p[i].x, p[i].y, p[i].z);
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

static cudaTextureObject_t make_texture(cudaResourceDesc res, bool linear, bool normalized,
                                        cudaTextureFilterMode mip_filter = cudaFilterModePoint,
                                        float max_level = 0.0f) {
  cudaTextureDesc t;
  std::memset(&t, 0, sizeof(t));
  t.addressMode[0] = t.addressMode[1] = t.addressMode[2] = cudaAddressModeClamp;
  t.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
  t.readMode = cudaReadModeElementType;
  t.normalizedCoords = normalized;
  t.mipmapFilterMode = mip_filter;
  t.maxMipmapLevelClamp = max_level;
  cudaTextureObject_t tex = 0;
  CHECK_CUDA(cudaCreateTextureObject(&tex, &res, &t, nullptr));
  return tex;
}

static cudaResourceDesc array_resource(cudaArray_t array) {
  cudaResourceDesc res;
  std::memset(&res, 0, sizeof(res));
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  return res;
}

static float value(int layer, int x, int y) {
  return layer * 1000.0f + y * 32.0f + x;
}

static void test_layered() {
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  // 2D layered: 9 x 5 texels, 4 layers.
  const int W = 9, H = 5, L = 4;
  std::vector<float> texels;
  for (int l = 0; l < L; ++l)
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) texels.push_back(value(l, x, y));
  cudaArray_t a2;
  CHECK_CUDA(cudaMalloc3DArray(&a2, &desc, make_cudaExtent(W, H, L), cudaArrayLayered));
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(texels.data(), W * sizeof(float), W, H);
  p.dstArray = a2;
  p.extent = make_cudaExtent(W, H, L);
  p.kind = cudaMemcpyHostToDevice;
  CHECK_CUDA(cudaMemcpy3D(&p));
  std::vector<float4> pts;
  for (int i = 0; i < 40; ++i)
    pts.push_back(
        make_float4((i * 3) % W + 0.5f, (i * 7) % H + 0.5f, static_cast<float>(i % L), 0));
  float4* d_pts = to_device(pts);
  float* d_out = nullptr;
  CHECK_CUDA(cudaMalloc(&d_out, 64 * sizeof(float)));
  cudaTextureObject_t tex = make_texture(array_resource(a2), false, false);
  sample_2d_layered<<<1, 40>>>(tex, d_pts, d_out, 40);
  CHECK_CUDA(cudaGetLastError());
  std::vector<float> got = from_device(d_out, 40);
  for (int i = 0; i < 40; ++i) {
    float want =
        value(static_cast<int>(pts[i].z), static_cast<int>(pts[i].x), static_cast<int>(pts[i].y));
    EXPECT_TRUE(got[i] == want, "tex2DLayered %d = %f, want %f", i, got[i], want);
  }
  CHECK_CUDA(cudaDestroyTextureObject(tex));
  // Linear filtering stays inside one layer: halfway between x = 2 and x = 3 of row 1.
  tex = make_texture(array_resource(a2), true, false);
  std::vector<float4> mid = {make_float4(3.0f, 1.5f, 2.0f, 0)};
  float4* d_mid = to_device(mid);
  sample_2d_layered<<<1, 1>>>(tex, d_mid, d_out, 1);
  float m = from_device(d_out, 1)[0];
  EXPECT_TRUE(std::fabs(m - (value(2, 2, 1) + value(2, 3, 1)) / 2) < 1e-3f,
              "tex2DLayered linear = %f", m);
  CHECK_CUDA(cudaDestroyTextureObject(tex));

  // 1D layered: 11 texels, 3 layers.
  std::vector<float> line;
  for (int l = 0; l < 3; ++l)
    for (int x = 0; x < 11; ++x) line.push_back(value(l, x, 0));
  cudaArray_t a1;
  CHECK_CUDA(cudaMalloc3DArray(&a1, &desc, make_cudaExtent(11, 0, 3), cudaArrayLayered));
  p = {};
  p.srcPtr = make_cudaPitchedPtr(line.data(), 11 * sizeof(float), 11, 1);
  p.dstArray = a1;
  p.extent = make_cudaExtent(11, 1, 3);
  p.kind = cudaMemcpyHostToDevice;
  CHECK_CUDA(cudaMemcpy3D(&p));
  std::vector<float2> lp;
  for (int i = 0; i < 33; ++i)
    lp.push_back(make_float2(i % 11 + 0.25f, static_cast<float>(i / 11)));
  float2* d_lp = to_device(lp);
  tex = make_texture(array_resource(a1), false, false);
  sample_1d_layered<<<1, 33>>>(tex, d_lp, d_out, 33);
  CHECK_CUDA(cudaGetLastError());
  got = from_device(d_out, 33);
  for (int i = 0; i < 33; ++i)
    EXPECT_TRUE(got[i] == value(i / 11, i % 11, 0), "tex1DLayered %d = %f", i, got[i]);
  CHECK_CUDA(cudaDestroyTextureObject(tex));

  CHECK_CUDA(cudaFree(d_pts));
  CHECK_CUDA(cudaFree(d_mid));
  CHECK_CUDA(cudaFree(d_lp));
  CHECK_CUDA(cudaFree(d_out));
  CHECK_CUDA(cudaFreeArray(a2));
  CHECK_CUDA(cudaFreeArray(a1));
}

// The direction that hits texel (i, j) of `face` (Programming Guide, "Cubemap Textures":
// face +X: s = -z, t = -y; -X: s = z, t = -y; +Y: s = x, t = z; -Y: s = x, t = -z;
// +Z: s = x, t = -y; -Z: s = -x, t = -y; u = (s/m + 1)/2, v = (t/m + 1)/2).
static float4 direction(int face, int i, int j, int w, float scale, float layer) {
  float s = 2.0f * (i + 0.5f) / w - 1.0f, t = 2.0f * (j + 0.5f) / w - 1.0f;
  float x = 0, y = 0, z = 0;
  switch (face) {
    case 0:
      x = 1;
      z = -s;
      y = -t;
      break;
    case 1:
      x = -1;
      z = s;
      y = -t;
      break;
    case 2:
      y = 1;
      x = s;
      z = t;
      break;
    case 3:
      y = -1;
      x = s;
      z = -t;
      break;
    case 4:
      z = 1;
      x = s;
      y = -t;
      break;
    default:
      z = -1;
      x = -s;
      y = -t;
      break;
  }
  return make_float4(x * scale, y * scale, z * scale, layer);
}

static void test_cubemap() {
  const int W = 6;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  for (int layered = 0; layered <= 1; ++layered) {
    const int cubes = layered ? 2 : 1, layers = 6 * cubes;
    std::vector<float> texels;
    for (int l = 0; l < layers; ++l)
      for (int y = 0; y < W; ++y)
        for (int x = 0; x < W; ++x) texels.push_back(value(l, x, y));
    cudaArray_t a;
    CHECK_CUDA(cudaMalloc3DArray(&a, &desc, make_cudaExtent(W, W, layers),
                                 cudaArrayCubemap | (layered ? cudaArrayLayered : 0)));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(texels.data(), W * sizeof(float), W, W);
    p.dstArray = a;
    p.extent = make_cudaExtent(W, W, layers);
    p.kind = cudaMemcpyHostToDevice;
    CHECK_CUDA(cudaMemcpy3D(&p));
    std::vector<float4> dirs;
    std::vector<float> want;
    for (int c = 0; c < cubes; ++c)
      for (int face = 0; face < 6; ++face)
        for (int k = 0; k < 5; ++k) {
          int i = (k * 5 + face) % W, j = (k * 2 + face + c) % W;
          dirs.push_back(direction(face, i, j, W, 0.5f + k, static_cast<float>(c)));
          want.push_back(value(6 * c + face, i, j));
        }
    const int n = static_cast<int>(dirs.size());
    float4* d_dirs = to_device(dirs);
    float* d_out = nullptr;
    CHECK_CUDA(cudaMalloc(&d_out, n * sizeof(float)));
    cudaTextureObject_t tex = make_texture(array_resource(a), false, true);
    if (layered) {
      sample_cube_layered<<<1, n>>>(tex, d_dirs, d_out, n);
    } else {
      sample_cube<<<1, n>>>(tex, d_dirs, d_out, n);
    }
    CHECK_CUDA(cudaGetLastError());
    std::vector<float> got = from_device(d_out, n);
    for (int i = 0; i < n; ++i)
      EXPECT_TRUE(got[i] == want[i], "%s %d: direction (%f, %f, %f) = %f, want %f",
                  layered ? "texCubemapLayered" : "texCubemap", i, dirs[i].x, dirs[i].y, dirs[i].z,
                  got[i], want[i]);
    CHECK_CUDA(cudaDestroyTextureObject(tex));
    CHECK_CUDA(cudaFree(d_dirs));
    CHECK_CUDA(cudaFree(d_out));
    CHECK_CUDA(cudaFreeArray(a));
  }
}

static void test_mipmapped() {
  const int W = 32, H = 16, LEVELS = 5;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t mip;
  CHECK_CUDA(cudaMallocMipmappedArray(&mip, &desc, make_cudaExtent(W, H, 0), LEVELS));
  for (int l = 0; l < LEVELS; ++l) {
    cudaArray_t level;
    CHECK_CUDA(cudaGetMipmappedArrayLevel(&level, mip, l));
    int w = W >> l, h = H >> l;
    std::vector<float> texels;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) texels.push_back(value(l, x, y));
    CHECK_CUDA(cudaMemcpy2DToArray(level, 0, 0, texels.data(), w * sizeof(float), w * sizeof(float),
                                   h, cudaMemcpyHostToDevice));
  }
  cudaResourceDesc res;
  std::memset(&res, 0, sizeof(res));
  res.resType = cudaResourceTypeMipmappedArray;
  res.res.mipmap.mipmap = mip;

  // Point mip filtering at integer levels: the texel of that level at (u, v).
  std::vector<float4> pts;
  std::vector<float> want;
  for (int l = 0; l < LEVELS + 2; ++l)
    for (int k = 0; k < 6; ++k) {
      int level = l < LEVELS ? l : LEVELS - 1;  // beyond the last level: the last level
      int w = W >> level, h = H >> level;
      int x = (k * 5) % w, y = (k * 3) % h;
      pts.push_back(make_float4((x + 0.5f) / w, (y + 0.5f) / h, static_cast<float>(l), 0));
      want.push_back(value(level, x, y));
    }
  const int n = static_cast<int>(pts.size());
  float4* d_pts = to_device(pts);
  float* d_out = nullptr;
  CHECK_CUDA(cudaMalloc(&d_out, n * sizeof(float)));
  cudaTextureObject_t tex = make_texture(res, false, true, cudaFilterModePoint, LEVELS - 1);
  sample_lod<<<1, n>>>(tex, d_pts, d_out, n);
  CHECK_CUDA(cudaGetLastError());
  std::vector<float> got = from_device(d_out, n);
  for (int i = 0; i < n; ++i)
    EXPECT_TRUE(got[i] == want[i], "tex2DLod point %d (lod %f) = %f, want %f", i, pts[i].z, got[i],
                want[i]);
  CHECK_CUDA(cudaDestroyTextureObject(tex));

  // maxMipmapLevelClamp: with the clamp at 1, level 3 reads level 1.
  tex = make_texture(res, false, true, cudaFilterModePoint, 1.0f);
  std::vector<float4> clamp_pt = {make_float4(0.5f / 16, 0.5f / 8, 3.0f, 0)};
  float4* d_clamp = to_device(clamp_pt);
  sample_lod<<<1, 1>>>(tex, d_clamp, d_out, 1);
  float c = from_device(d_out, 1)[0];
  EXPECT_TRUE(c == value(1, 0, 0), "max clamp: %f, want %f", c, value(1, 0, 0));
  CHECK_CUDA(cudaDestroyTextureObject(tex));

  // Linear mip filtering halfway between levels 1 and 2 at the centre of a level-2 texel
  // (point filtering within each level): the average of the two levels' texels there.
  tex = make_texture(res, false, true, cudaFilterModeLinear, LEVELS - 1);
  // Level 2 texel (3, 1) is 8 x 4 texels; its centre is level-1 texel (6..7, 2..3)'s corner,
  // so use a point inside both: level-1 texel (7, 3) and level-2 texel (3, 1).
  std::vector<float4> half = {make_float4(7.25f / 16, 3.25f / 8, 1.5f, 0)};
  float4* d_half = to_device(half);
  sample_lod<<<1, 1>>>(tex, d_half, d_out, 1);
  float h = from_device(d_out, 1)[0];
  float want_h = (value(1, 7, 3) + value(2, 3, 1)) / 2;
  EXPECT_TRUE(std::fabs(h - want_h) < 1e-2f, "linear mip: %f, want %f", h, want_h);
  CHECK_CUDA(cudaDestroyTextureObject(tex));

  CHECK_CUDA(cudaFree(d_pts));
  CHECK_CUDA(cudaFree(d_clamp));
  CHECK_CUDA(cudaFree(d_half));
  CHECK_CUDA(cudaFree(d_out));
  CHECK_CUDA(cudaFreeMipmappedArray(mip));
}

int main() {
  test_layered();
  test_cubemap();
  test_mipmapped();
  CHECK_CUDA(cudaDeviceSynchronize());
  std::printf("PASS texture_layered_cube_mip\n");
  return 0;
}
