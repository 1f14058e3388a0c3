// The texture unit's geometries and surfaces through texture and surface objects:
// surf2Dwrite/surf2Dread (with the trap, clamp and zero boundary modes), layered 2D
// textures, cubemaps, mipmapped textures read at explicit levels, and tex1Dfetch from
// linear memory. The expected values are computed on the host from the CUDA C++
// Programming Guide: point sampling at floor(x) (normalized coordinates scaled by the
// level's size), the layer index clamped, the cubemap face and face coordinates of the
// guide's cubemap table, surface x coordinates in bytes, and tex1Dfetch reading zero
// outside the buffer.
#include <cuda_runtime.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "test_check.h"

static float T2(int x, int y) {
  return static_cast<float>(3 * x + 100 * y + 1);
}
static float TL(int layer, int x, int y) {
  return static_cast<float>(1000 * layer + x + 10 * y);
}
static float TC(int face, int x, int y) {
  return static_cast<float>(100 * face + x + 10 * y);
}
static float TM(int level, int x, int y) {
  return static_cast<float>(1000 * level + x + 20 * y);
}

// ---- surfaces ----

__global__ void surf_write(cudaSurfaceObject_t s, int w) {
  const int x = threadIdx.x, y = blockIdx.x;
  surf2Dwrite(static_cast<float>(3 * x + 100 * y + 1), s, x * 4, y);
}

__global__ void surf_read(cudaSurfaceObject_t s, int w, float* out, float* edge) {
  const int x = threadIdx.x, y = blockIdx.x;
  out[y * w + x] = surf2Dread<float>(s, ((x + 1) % w) * 4, y);
  if (x == 0 && y == 0) {
    edge[0] = surf2Dread<float>(s, (w + 5) * 4, 1, cudaBoundaryModeClamp);
    edge[1] = surf2Dread<float>(s, (w + 5) * 4, 1, cudaBoundaryModeZero);
    edge[2] = surf2Dread<float>(s, -8, 100, cudaBoundaryModeClamp);
  }
}

// ---- textures ----

__global__ void sample_layered(cudaTextureObject_t t, const float4* p, float* out, int n) {
  const int i = threadIdx.x;
  if (i < n) out[i] = tex2DLayered<float>(t, p[i].x, p[i].y, static_cast<int>(p[i].z));
}

__global__ void sample_cube(cudaTextureObject_t t, const float4* p, float* out, int n) {
  const int i = threadIdx.x;
  if (i < n) out[i] = texCubemap<float>(t, p[i].x, p[i].y, p[i].z);
}

__global__ void sample_lod(cudaTextureObject_t t, const float4* p, float* out, int n) {
  const int i = threadIdx.x;
  if (i < n) out[i] = tex2DLod<float>(t, p[i].x, p[i].y, p[i].z);
}

__global__ void fetch_linear(cudaTextureObject_t t, float2* out, int n) {
  const int i = threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float2>(t, i - 2);
}

static cudaTextureObject_t make_texture(const cudaResourceDesc& res, bool normalized,
                                        float max_level = 0) {
  cudaTextureDesc td;
  std::memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.mipmapFilterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = normalized;
  td.maxMipmapLevelClamp = max_level;
  cudaTextureObject_t t = 0;
  CHECK_CUDA(cudaCreateTextureObject(&t, &res, &td, nullptr));
  return t;
}

// Cubemap face and normalized face coordinates (the Programming Guide's cubemap table).
static void cube_face(float x, float y, float z, int* face, float* s, float* t) {
  const float ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z);
  float m, sc, tc;
  if (ax >= ay && ax >= az) {
    m = ax, *face = x >= 0 ? 0 : 1, sc = x >= 0 ? -z : z, tc = -y;
  } else if (ay >= az) {
    m = ay, *face = y >= 0 ? 2 : 3, sc = x, tc = y >= 0 ? z : -z;
  } else {
    m = az, *face = z >= 0 ? 4 : 5, sc = z >= 0 ? x : -x, tc = -y;
  }
  *s = (sc / m + 1) / 2;
  *t = (tc / m + 1) / 2;
}

int main() {
  cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>();

  // --- 2D surface: write every element, read the right neighbour's ----------------------
  const int W = 16, H = 8;
  cudaArray_t sa;
  CHECK_CUDA(cudaMallocArray(&sa, &f1, W, H, cudaArraySurfaceLoadStore));
  cudaResourceDesc res;
  std::memset(&res, 0, sizeof res);
  res.resType = cudaResourceTypeArray;
  res.res.array.array = sa;
  cudaSurfaceObject_t surf = 0;
  CHECK_CUDA(cudaCreateSurfaceObject(&surf, &res));
  float *out = nullptr, *edge = nullptr;
  CHECK_CUDA(cudaMalloc(&out, 256 * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&edge, 4 * sizeof(float)));
  surf_write<<<H, W>>>(surf, W);
  surf_read<<<H, W>>>(surf, W, out, edge);
  CHECK_CUDA(cudaGetLastError());
  std::vector<float> got(W * H), host(W * H);
  float edges[3];
  CHECK_CUDA(cudaMemcpy(got.data(), out, W * H * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(edges, edge, sizeof edges, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy2DFromArray(host.data(), W * sizeof(float), sa, 0, 0, W * sizeof(float), H,
                                   cudaMemcpyDeviceToHost));
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      EXPECT_TRUE(host[y * W + x] == T2(x, y), "surface (%d,%d) holds %g", x, y, host[y * W + x]);
      EXPECT_TRUE(got[y * W + x] == T2((x + 1) % W, y), "surf2Dread (%d,%d) = %g", x, y,
                  got[y * W + x]);
    }
  EXPECT_TRUE(edges[0] == T2(W - 1, 1), "clamp read %g", edges[0]);
  EXPECT_TRUE(edges[1] == 0.0f, "zero read %g", edges[1]);
  EXPECT_TRUE(edges[2] == T2(0, H - 1), "clamp read %g", edges[2]);

  float4* coords = nullptr;
  CHECK_CUDA(cudaMalloc(&coords, 64 * sizeof(float4)));

  // --- layered 2D texture ------------------------------------------------------------------
  {
    const int S = 4, layers = 3;
    cudaArray_t la;
    CHECK_CUDA(cudaMalloc3DArray(&la, &f1, make_cudaExtent(S, S, layers), cudaArrayLayered));
    std::vector<float> data(S * S * layers);
    for (int l = 0; l < layers; ++l)
      for (int y = 0; y < S; ++y)
        for (int x = 0; x < S; ++x) data[(l * S + y) * S + x] = TL(l, x, y);
    cudaMemcpy3DParms cp;
    std::memset(&cp, 0, sizeof cp);
    cp.srcPtr = make_cudaPitchedPtr(data.data(), S * sizeof(float), S, S);
    cp.dstArray = la;
    cp.extent = make_cudaExtent(S, S, layers);
    cp.kind = cudaMemcpyHostToDevice;
    CHECK_CUDA(cudaMemcpy3D(&cp));
    res.res.array.array = la;
    cudaTextureObject_t t = make_texture(res, false);
    const float4 p[] = {{0.5f, 0.5f, 0, 0},
                        {3.5f, 2.5f, 1, 0},
                        {1.2f, 3.9f, 2, 0},
                        {2.5f, 1.5f, 7, 0},
                        {-3.f, 9.f, 1, 0}};
    const int n = sizeof p / sizeof p[0];
    CHECK_CUDA(cudaMemcpy(coords, p, sizeof p, cudaMemcpyHostToDevice));
    sample_layered<<<1, 32>>>(t, coords, out, n);
    float r[n];
    CHECK_CUDA(cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      const int x = std::min(std::max(static_cast<int>(std::floor(p[i].x)), 0), S - 1);
      const int y = std::min(std::max(static_cast<int>(std::floor(p[i].y)), 0), S - 1);
      const int l = std::min(static_cast<int>(p[i].z), layers - 1);
      EXPECT_TRUE(r[i] == TL(l, x, y), "tex2DLayered %d: %g, expected %g", i, r[i], TL(l, x, y));
    }
    CHECK_CUDA(cudaDestroyTextureObject(t));
  }

  // --- cubemap --------------------------------------------------------------------------------
  {
    const int S = 4;
    cudaArray_t ca;
    CHECK_CUDA(cudaMalloc3DArray(&ca, &f1, make_cudaExtent(S, S, 6), cudaArrayCubemap));
    std::vector<float> data(S * S * 6);
    for (int f = 0; f < 6; ++f)
      for (int y = 0; y < S; ++y)
        for (int x = 0; x < S; ++x) data[(f * S + y) * S + x] = TC(f, x, y);
    cudaMemcpy3DParms cp;
    std::memset(&cp, 0, sizeof cp);
    cp.srcPtr = make_cudaPitchedPtr(data.data(), S * sizeof(float), S, S);
    cp.dstArray = ca;
    cp.extent = make_cudaExtent(S, S, 6);
    cp.kind = cudaMemcpyHostToDevice;
    CHECK_CUDA(cudaMemcpy3D(&cp));
    res.res.array.array = ca;
    cudaTextureObject_t t = make_texture(res, true);
    const float4 p[] = {{1, 0.3f, -0.6f, 0},  {-1, 0.7f, 0.2f, 0}, {0.2f, 1, 0.9f, 0},
                        {-0.5f, -1, 0.1f, 0}, {0.3f, 0.4f, 1, 0},  {-0.8f, 0.1f, -1, 0},
                        {2, -1.5f, 1.1f, 0},  {0.5f, 5, -4.4f, 0}};
    const int n = sizeof p / sizeof p[0];
    CHECK_CUDA(cudaMemcpy(coords, p, sizeof p, cudaMemcpyHostToDevice));
    sample_cube<<<1, 32>>>(t, coords, out, n);
    float r[n];
    CHECK_CUDA(cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      int face;
      float s, tc;
      cube_face(p[i].x, p[i].y, p[i].z, &face, &s, &tc);
      const int x = std::min(static_cast<int>(std::floor(s * S)), S - 1);
      const int y = std::min(static_cast<int>(std::floor(tc * S)), S - 1);
      EXPECT_TRUE(r[i] == TC(face, x, y), "texCubemap %d: %g, expected %g (face %d)", i, r[i],
                  TC(face, x, y), face);
    }
    CHECK_CUDA(cudaDestroyTextureObject(t));
  }

  // --- mipmapped 2D texture at explicit levels ---------------------------------------------
  {
    const int S = 16, levels = 3;
    cudaMipmappedArray_t mip;
    CHECK_CUDA(cudaMallocMipmappedArray(&mip, &f1, make_cudaExtent(S, S, 0), levels));
    for (int l = 0; l < levels; ++l) {
      cudaArray_t level;
      CHECK_CUDA(cudaGetMipmappedArrayLevel(&level, mip, l));
      const int w = S >> l;
      std::vector<float> data(w * w);
      for (int y = 0; y < w; ++y)
        for (int x = 0; x < w; ++x) data[y * w + x] = TM(l, x, y);
      CHECK_CUDA(cudaMemcpy2DToArray(level, 0, 0, data.data(), w * sizeof(float), w * sizeof(float),
                                     w, cudaMemcpyHostToDevice));
    }
    cudaResourceDesc mres;
    std::memset(&mres, 0, sizeof mres);
    mres.resType = cudaResourceTypeMipmappedArray;
    mres.res.mipmap.mipmap = mip;
    cudaTextureObject_t t = make_texture(mres, true, levels - 1);
    const float4 p[] = {{0.3f, 0.6f, 0, 0},
                        {0.9f, 0.1f, 1, 0},
                        {0.55f, 0.45f, 2, 0},
                        {0.05f, 0.95f, 5, 0},
                        {0.7f, 0.2f, 1, 0}};
    const int n = sizeof p / sizeof p[0];
    CHECK_CUDA(cudaMemcpy(coords, p, sizeof p, cudaMemcpyHostToDevice));
    sample_lod<<<1, 32>>>(t, coords, out, n);
    float r[n];
    CHECK_CUDA(cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      const int l = std::min(static_cast<int>(p[i].z), levels - 1), w = S >> l;
      const int x = std::min(static_cast<int>(std::floor(p[i].x * w)), w - 1);
      const int y = std::min(static_cast<int>(std::floor(p[i].y * w)), w - 1);
      EXPECT_TRUE(r[i] == TM(l, x, y), "tex2DLod %d: %g, expected %g", i, r[i], TM(l, x, y));
    }
    CHECK_CUDA(cudaDestroyTextureObject(t));
  }

  // --- tex1Dfetch from linear memory: zeros outside the buffer ------------------------------
  {
    const int n = 10;
    std::vector<float2> lin(n);
    for (int i = 0; i < n; ++i) lin[i] = make_float2(0.5f * i, -3.0f * i);
    float2* dev = nullptr;
    CHECK_CUDA(cudaMalloc(&dev, n * sizeof(float2)));
    CHECK_CUDA(cudaMemcpy(dev, lin.data(), n * sizeof(float2), cudaMemcpyHostToDevice));
    cudaResourceDesc lres;
    std::memset(&lres, 0, sizeof lres);
    lres.resType = cudaResourceTypeLinear;
    lres.res.linear.devPtr = dev;
    lres.res.linear.desc = cudaCreateChannelDesc<float2>();
    lres.res.linear.sizeInBytes = n * sizeof(float2);
    cudaTextureObject_t t = make_texture(lres, false);
    float2* fo = nullptr;
    CHECK_CUDA(cudaMalloc(&fo, 16 * sizeof(float2)));
    fetch_linear<<<1, 16>>>(t, fo, 14);
    float2 r[14];
    CHECK_CUDA(cudaMemcpy(r, fo, sizeof r, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 14; ++i) {
      const int k = i - 2;
      const float2 want = k >= 0 && k < n ? lin[k] : make_float2(0, 0);
      EXPECT_TRUE(r[i].x == want.x && r[i].y == want.y, "tex1Dfetch(%d) = (%g, %g)", k, r[i].x,
                  r[i].y);
    }
    CHECK_CUDA(cudaDestroyTextureObject(t));
  }

  CHECK_CUDA(cudaDestroySurfaceObject(surf));
  CHECK_CUDA(cudaDeviceSynchronize());
  std::printf("PASS texture_geometries\n");
  return 0;
}
