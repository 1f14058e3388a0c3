// Texture sampling of 1D, 2D and 3D CUDA arrays through texture objects: point and
// linear filtering, every address mode (wrap, clamp, mirror, border), normalized and
// unnormalized coordinates, normalized-float and element-type reads of integer formats,
// and tex2Dgather. The expected values come from a host implementation of the CUDA C++
// Programming Guide's "Texture Fetching" appendix: point sampling at floor(x); linear
// filtering at x_B = x - 0.5 with the weights held in 9-bit fixed point with 8 fractional
// bits; wrap and mirror (normalized coordinates only) and clamp/border per texel.
#include <cuda_runtime.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "test_check.h"

// ---- Host reference ------------------------------------------------------------------------

struct Sampler {
  cudaTextureAddressMode mode[3];
  bool linear;
  bool normalized;
  float border;
};

// The texel index `i` of an extent `n` after addressing; -1 for a border texel.
static int address(int i, int n, cudaTextureAddressMode mode) {
  switch (mode) {
    case cudaAddressModeWrap:
      return ((i % n) + n) % n;
    case cudaAddressModeMirror: {
      int m = ((i % (2 * n)) + 2 * n) % (2 * n);
      return m >= n ? 2 * n - 1 - m : m;
    }
    case cudaAddressModeClamp:
      return i < 0 ? 0 : (i >= n ? n - 1 : i);
    default:
      return i < 0 || i >= n ? -1 : i;
  }
}

static float quantize(float weight) {
  return std::nearbyint(weight * 256.0f) / 256.0f;
}

struct Volume {
  int w, h, d;
  std::vector<float> texels;
  float at(int x, int y, int z, const Sampler& s) const {
    int i = address(x, w, s.mode[0]), j = address(y, h, s.mode[1]), k = address(z, d, s.mode[2]);
    if (i < 0 || j < 0 || k < 0) return s.border;
    return texels[(static_cast<size_t>(k) * h + j) * w + i];
  }
  // Sample at (x, y, z) (dims beyond `dims` ignored); `tol` gets the spread of the taps
  // times the weight step, the freedom the 8-bit weights leave.
  float sample(float x, float y, float z, int dims, const Sampler& s, float* tol) const {
    if (s.normalized) {
      x *= w;
      y *= h;
      z *= d;
    }
    *tol = 1e-5f;
    if (!s.linear) {
      return at(static_cast<int>(std::floor(x)), dims > 1 ? static_cast<int>(std::floor(y)) : 0,
                dims > 2 ? static_cast<int>(std::floor(z)) : 0, s);
    }
    float xb = x - 0.5f, yb = y - 0.5f, zb = z - 0.5f;
    int i = static_cast<int>(std::floor(xb)), j = static_cast<int>(std::floor(yb)),
        k = static_cast<int>(std::floor(zb));
    float a = quantize(xb - std::floor(xb)), b = quantize(yb - std::floor(yb)),
          c = quantize(zb - std::floor(zb));
    if (dims < 2) {
      j = 0;
      b = 0.0f;
    }
    if (dims < 3) {
      k = 0;
      c = 0.0f;
    }
    float lo = 1e30f, hi = -1e30f, sum = 0.0f;
    for (int dz = 0; dz <= (dims > 2 ? 1 : 0); ++dz)
      for (int dy = 0; dy <= (dims > 1 ? 1 : 0); ++dy)
        for (int dx = 0; dx <= 1; ++dx) {
          float t = at(i + dx, j + dy, k + dz, s);
          float wgt = (dx ? a : 1 - a) * (dy ? b : 1 - b) * (dz ? c : 1 - c);
          sum += wgt * t;
          lo = std::fmin(lo, t);
          hi = std::fmax(hi, t);
        }
    *tol = (hi - lo) * dims / 256.0f + 1e-4f * std::fmax(1.0f, std::fabs(sum));
    return sum;
  }
};

// ---- Kernels -------------------------------------------------------------------------------

__global__ void sample_1d(cudaTextureObject_t tex, const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1D<float>(tex, x[i]);
}
__global__ void sample_2d(cudaTextureObject_t tex, const float2* p, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(tex, p[i].x, p[i].y);
}
__global__ void sample_3d(cudaTextureObject_t tex, const float4* p, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex3D<float>(tex, p[i].x, p[i].y, p[i].z);
}
__global__ void sample_2d_float4(cudaTextureObject_t tex, const float2* p, float4* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float4>(tex, p[i].x, p[i].y);
}
__global__ void sample_2d_int4(cudaTextureObject_t tex, const float2* p, int4* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<int4>(tex, p[i].x, p[i].y);
}
__global__ void gather_2d(cudaTextureObject_t tex, const float2* p, float4* out, int n, int comp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2Dgather<float4>(tex, p[i].x, p[i].y, comp);
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

static cudaTextureObject_t make_texture(cudaArray_t array, const Sampler& s,
                                        cudaTextureReadMode read = cudaReadModeElementType) {
  cudaResourceDesc res;
  std::memset(&res, 0, sizeof(res));
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaTextureDesc t;
  std::memset(&t, 0, sizeof(t));
  for (int i = 0; i < 3; ++i) t.addressMode[i] = s.mode[i];
  t.filterMode = s.linear ? cudaFilterModeLinear : cudaFilterModePoint;
  t.readMode = read;
  t.normalizedCoords = s.normalized;
  t.borderColor[0] = t.borderColor[1] = t.borderColor[2] = t.borderColor[3] = s.border;
  cudaTextureObject_t tex = 0;
  CHECK_CUDA(cudaCreateTextureObject(&tex, &res, &t, nullptr));
  return tex;
}

static const char* mode_name(cudaTextureAddressMode m) {
  switch (m) {
    case cudaAddressModeWrap:
      return "wrap";
    case cudaAddressModeClamp:
      return "clamp";
    case cudaAddressModeMirror:
      return "mirror";
    default:
      return "border";
  }
}

static void check(const char* what, int i, float got, float want, float tol) {
  EXPECT_TRUE(std::fabs(got - want) <= tol, "%s: sample %d = %.7f, want %.7f (tol %.7f)", what, i,
              got, want, tol);
}

// ---- 2D float array: every mode, both filters, both coordinate kinds ------------------------

static void test_2d() {
  Volume v{13, 9, 1, {}};
  for (int y = 0; y < v.h; ++y)
    for (int x = 0; x < v.w; ++x) v.texels.push_back(std::sin(x * 0.7f) * 10.0f + y * y * 0.5f + x);
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t array;
  CHECK_CUDA(cudaMallocArray(&array, &desc, v.w, v.h));
  CHECK_CUDA(cudaMemcpy2DToArray(array, 0, 0, v.texels.data(), v.w * sizeof(float),
                                 v.w * sizeof(float), v.h, cudaMemcpyHostToDevice));

  // Coordinates inside and outside the texture, away from texel and filter boundaries
  // (where the point sample or the tap pair would depend on the last bit).
  std::vector<float2> unnorm, norm;
  for (int i = 0; i < 64; ++i) {
    float x = -9.3f + i * 0.4871f, y = -6.2f + ((i * 7) % 64) * 0.3277f;
    unnorm.push_back(make_float2(x, y));
    norm.push_back(make_float2(x / v.w, y / v.h));
  }
  float2* d_unnorm = to_device(unnorm);
  float2* d_norm = to_device(norm);
  float* d_out = nullptr;
  CHECK_CUDA(cudaMalloc(&d_out, 64 * sizeof(float)));

  const cudaTextureAddressMode modes[] = {cudaAddressModeWrap, cudaAddressModeClamp,
                                          cudaAddressModeMirror, cudaAddressModeBorder};
  for (int normalized = 0; normalized <= 1; ++normalized) {
    for (cudaTextureAddressMode mode : modes) {
      // Wrap and mirror need normalized coordinates.
      if (!normalized && (mode == cudaAddressModeWrap || mode == cudaAddressModeMirror)) continue;
      for (int linear = 0; linear <= 1; ++linear) {
        Sampler s{{mode, mode, mode}, linear != 0, normalized != 0, -7.5f};
        cudaTextureObject_t tex = make_texture(array, s);
        const std::vector<float2>& pts = normalized ? norm : unnorm;
        sample_2d<<<1, 64>>>(tex, normalized ? d_norm : d_unnorm, d_out, 64);
        CHECK_CUDA(cudaGetLastError());
        std::vector<float> got = from_device(d_out, 64);
        char what[96];
        std::snprintf(what, sizeof(what), "2D %s %s %s", mode_name(mode),
                      linear ? "linear" : "point", normalized ? "normalized" : "unnormalized");
        for (int i = 0; i < 64; ++i) {
          float tol;
          float want = v.sample(pts[i].x, pts[i].y, 0, 2, s, &tol);
          check(what, i, got[i], want, tol);
        }
        CHECK_CUDA(cudaDestroyTextureObject(tex));
      }
    }
  }

  // The 8-bit weights: a step from 0 to 256 sampled 0.3 of the way is 76 or 77
  // (0.3 held with 8 fractional bits), never the exact 76.8.
  std::vector<float> step(v.w * v.h, 0.0f);
  for (int y = 0; y < v.h; ++y) step[y * v.w + 5] = 256.0f;
  CHECK_CUDA(cudaMemcpy2DToArray(array, 0, 0, step.data(), v.w * sizeof(float), v.w * sizeof(float),
                                 v.h, cudaMemcpyHostToDevice));
  Sampler s{{cudaAddressModeClamp, cudaAddressModeClamp, cudaAddressModeClamp}, true, false, 0};
  cudaTextureObject_t tex = make_texture(array, s);
  std::vector<float2> one = {make_float2(4.5f + 0.3f, 3.5f)};
  float2* d_one = to_device(one);
  sample_2d<<<1, 1>>>(tex, d_one, d_out, 1);
  float got = from_device(d_out, 1)[0];
  EXPECT_TRUE(got == 76.0f || got == 77.0f, "0.3 between 0 and 256 gave %f, want 76 or 77", got);
  CHECK_CUDA(cudaDestroyTextureObject(tex));

  CHECK_CUDA(cudaFree(d_one));
  CHECK_CUDA(cudaFree(d_unnorm));
  CHECK_CUDA(cudaFree(d_norm));
  CHECK_CUDA(cudaFree(d_out));
  CHECK_CUDA(cudaFreeArray(array));
}

// ---- 1D and 3D arrays ------------------------------------------------------------------------

static void test_1d_3d() {
  Volume line{29, 1, 1, {}};
  for (int x = 0; x < line.w; ++x) line.texels.push_back(x * x * 0.25f - 3.0f * x);
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t a1;
  CHECK_CUDA(cudaMallocArray(&a1, &desc, line.w, 0));
  CHECK_CUDA(cudaMemcpyToArray(a1, 0, 0, line.texels.data(), line.w * sizeof(float),
                               cudaMemcpyHostToDevice));
  std::vector<float> xs;
  for (int i = 0; i < 40; ++i) xs.push_back(-3.1f + i * 0.9173f);
  float* d_x = to_device(xs);
  float* d_out = nullptr;
  CHECK_CUDA(cudaMalloc(&d_out, 64 * sizeof(float)));
  for (int linear = 0; linear <= 1; ++linear) {
    Sampler s{{cudaAddressModeBorder, cudaAddressModeBorder, cudaAddressModeBorder},
              linear != 0,
              false,
              2.0f};
    cudaTextureObject_t tex = make_texture(a1, s);
    sample_1d<<<1, 40>>>(tex, d_x, d_out, 40);
    CHECK_CUDA(cudaGetLastError());
    std::vector<float> got = from_device(d_out, 40);
    for (int i = 0; i < 40; ++i) {
      float tol;
      float want = line.sample(xs[i], 0, 0, 1, s, &tol);
      check(linear ? "1D linear border" : "1D point border", i, got[i], want, tol);
    }
    CHECK_CUDA(cudaDestroyTextureObject(tex));
  }

  Volume vol{7, 6, 5, {}};
  for (int z = 0; z < vol.d; ++z)
    for (int y = 0; y < vol.h; ++y)
      for (int x = 0; x < vol.w; ++x) vol.texels.push_back(x * 1.5f - y * 2.25f + z * z * 3.0f);
  cudaArray_t a3;
  CHECK_CUDA(cudaMalloc3DArray(&a3, &desc, make_cudaExtent(vol.w, vol.h, vol.d)));
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(vol.texels.data(), vol.w * sizeof(float), vol.w, vol.h);
  p.dstArray = a3;
  p.extent = make_cudaExtent(vol.w, vol.h, vol.d);
  p.kind = cudaMemcpyHostToDevice;
  CHECK_CUDA(cudaMemcpy3D(&p));
  std::vector<float4> pts;
  for (int i = 0; i < 48; ++i)
    pts.push_back(make_float4(-1.3f + i * 0.2071f, -0.7f + ((i * 5) % 48) * 0.1613f,
                              -0.9f + ((i * 11) % 48) * 0.1407f, 0));
  float4* d_pts = to_device(pts);
  for (int linear = 0; linear <= 1; ++linear) {
    for (int normalized = 0; normalized <= 1; ++normalized) {
      cudaTextureAddressMode mode = normalized ? cudaAddressModeWrap : cudaAddressModeClamp;
      Sampler s{{mode, mode, mode}, linear != 0, normalized != 0, 0};
      std::vector<float4> q = pts;
      if (normalized)
        for (float4& v : q) v = make_float4(v.x / vol.w, v.y / vol.h, v.z / vol.d, 0);
      float4* d_q = to_device(q);
      cudaTextureObject_t tex = make_texture(a3, s);
      sample_3d<<<1, 48>>>(tex, d_q, d_out, 48);
      CHECK_CUDA(cudaGetLastError());
      std::vector<float> got = from_device(d_out, 48);
      for (int i = 0; i < 48; ++i) {
        float tol;
        float want = vol.sample(q[i].x, q[i].y, q[i].z, 3, s, &tol);
        check(linear ? "3D linear" : "3D point", i, got[i], want, tol);
      }
      CHECK_CUDA(cudaDestroyTextureObject(tex));
      CHECK_CUDA(cudaFree(d_q));
    }
  }
  CHECK_CUDA(cudaFree(d_pts));
  CHECK_CUDA(cudaFree(d_x));
  CHECK_CUDA(cudaFree(d_out));
  CHECK_CUDA(cudaFreeArray(a1));
  CHECK_CUDA(cudaFreeArray(a3));
}

// ---- Integer formats: normalized-float and element-type reads; gather --------------------------

static void test_integer_formats() {
  const int W = 6, H = 4;
  std::vector<uchar4> texels(W * H);
  for (int i = 0; i < W * H; ++i)
    texels[i] = make_uchar4(i * 10, 255 - i * 3, (i * 37) & 0xff, i % 2 ? 255 : 0);
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<uchar4>();
  cudaArray_t array;
  CHECK_CUDA(cudaMallocArray(&array, &desc, W, H, cudaArrayTextureGather));
  CHECK_CUDA(
      cudaMemcpy2DToArray(array, 0, 0, texels.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
  std::vector<float2> pts;
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) pts.push_back(make_float2(x + 0.5f, y + 0.5f));
  float2* d_pts = to_device(pts);
  const int n = W * H;

  // Normalized float: the unsigned 8-bit value / 255.
  Sampler s{{cudaAddressModeClamp, cudaAddressModeClamp, cudaAddressModeClamp}, false, false, 0};
  cudaTextureObject_t tex = make_texture(array, s, cudaReadModeNormalizedFloat);
  float4* d_f4 = nullptr;
  CHECK_CUDA(cudaMalloc(&d_f4, n * sizeof(float4)));
  sample_2d_float4<<<1, n>>>(tex, d_pts, d_f4, n);
  CHECK_CUDA(cudaGetLastError());
  std::vector<float4> f4 = from_device(d_f4, n);
  for (int i = 0; i < n; ++i) {
    check("uchar4 normalized x", i, f4[i].x, texels[i].x / 255.0f, 1e-6f);
    check("uchar4 normalized y", i, f4[i].y, texels[i].y / 255.0f, 1e-6f);
    check("uchar4 normalized z", i, f4[i].z, texels[i].z / 255.0f, 1e-6f);
    check("uchar4 normalized w", i, f4[i].w, texels[i].w / 255.0f, 1e-6f);
  }
  CHECK_CUDA(cudaDestroyTextureObject(tex));

  // Linear filtering of normalized reads, halfway between columns 1 and 2 of row 0.
  Sampler sl = s;
  sl.linear = true;
  tex = make_texture(array, sl, cudaReadModeNormalizedFloat);
  std::vector<float2> mid = {make_float2(2.0f, 0.5f)};
  float2* d_mid = to_device(mid);
  sample_2d_float4<<<1, 1>>>(tex, d_mid, d_f4, 1);
  float4 m = from_device(d_f4, 1)[0];
  check("uchar4 linear x", 0, m.x, (texels[1].x + texels[2].x) / 510.0f, 1e-5f);
  check("uchar4 linear w", 0, m.w, (texels[1].w + texels[2].w) / 510.0f, 1e-5f);
  CHECK_CUDA(cudaDestroyTextureObject(tex));

  // Gather: component 0 of the 2x2 footprint at (2.7, 1.2): i = 2, j = 0, in the order
  // (i, j+1), (i+1, j+1), (i+1, j), (i, j).
  tex = make_texture(array, s, cudaReadModeNormalizedFloat);
  std::vector<float2> g = {make_float2(2.7f, 1.2f)};
  float2* d_g = to_device(g);
  gather_2d<<<1, 1>>>(tex, d_g, d_f4, 1, 0);
  CHECK_CUDA(cudaGetLastError());
  float4 gv = from_device(d_f4, 1)[0];
  check("gather x", 0, gv.x, texels[1 * W + 2].x / 255.0f, 1e-6f);
  check("gather y", 0, gv.y, texels[1 * W + 3].x / 255.0f, 1e-6f);
  check("gather z", 0, gv.z, texels[0 * W + 3].x / 255.0f, 1e-6f);
  check("gather w", 0, gv.w, texels[0 * W + 2].x / 255.0f, 1e-6f);
  gather_2d<<<1, 1>>>(tex, d_g, d_f4, 1, 3);
  gv = from_device(d_f4, 1)[0];
  check("gather alpha x", 0, gv.x, texels[1 * W + 2].w / 255.0f, 1e-6f);
  check("gather alpha w", 0, gv.w, texels[0 * W + 2].w / 255.0f, 1e-6f);
  CHECK_CUDA(cudaDestroyTextureObject(tex));

  // Signed 16-bit integers read as element type and as normalized floats (max(v/32767, -1)).
  std::vector<short2> s16(W * H);
  for (int i = 0; i < W * H; ++i) s16[i] = make_short2(i * 1000 - 12000, i % 3 ? -32768 : 32767);
  cudaChannelFormatDesc sdesc = cudaCreateChannelDesc<short2>();
  cudaArray_t sarray;
  CHECK_CUDA(cudaMallocArray(&sarray, &sdesc, W, H));
  CHECK_CUDA(
      cudaMemcpy2DToArray(sarray, 0, 0, s16.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
  tex = make_texture(sarray, s, cudaReadModeElementType);
  int4* d_i4 = nullptr;
  CHECK_CUDA(cudaMalloc(&d_i4, n * sizeof(int4)));
  sample_2d_int4<<<1, n>>>(tex, d_pts, d_i4, n);
  CHECK_CUDA(cudaGetLastError());
  std::vector<int4> i4 = from_device(d_i4, n);
  for (int i = 0; i < n; ++i) {
    EXPECT_TRUE(i4[i].x == s16[i].x && i4[i].y == s16[i].y,
                "short2 element read %d: (%d, %d), want (%d, %d)", i, i4[i].x, i4[i].y, s16[i].x,
                s16[i].y);
  }
  CHECK_CUDA(cudaDestroyTextureObject(tex));
  tex = make_texture(sarray, s, cudaReadModeNormalizedFloat);
  sample_2d_float4<<<1, n>>>(tex, d_pts, d_f4, n);
  f4 = from_device(d_f4, n);
  for (int i = 0; i < n; ++i) {
    check("short2 normalized x", i, f4[i].x, std::fmax(s16[i].x / 32767.0f, -1.0f), 1e-6f);
    check("short2 normalized y", i, f4[i].y, std::fmax(s16[i].y / 32767.0f, -1.0f), 1e-6f);
  }
  CHECK_CUDA(cudaDestroyTextureObject(tex));

  CHECK_CUDA(cudaFree(d_i4));
  CHECK_CUDA(cudaFree(d_f4));
  CHECK_CUDA(cudaFree(d_pts));
  CHECK_CUDA(cudaFree(d_mid));
  CHECK_CUDA(cudaFree(d_g));
  CHECK_CUDA(cudaFreeArray(array));
  CHECK_CUDA(cudaFreeArray(sarray));
}

int main() {
  test_2d();
  test_1d_3d();
  test_integer_formats();
  CHECK_CUDA(cudaDeviceSynchronize());
  std::printf("PASS texture_filtering\n");
  return 0;
}
