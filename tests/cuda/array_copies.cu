// CUDA arrays through the runtime: cudaMallocArray / cudaMalloc3DArray (1D, 2D, 3D,
// layered, cubemap) and cudaMallocMipmappedArray, copies into and out of them in every
// form (cudaMemcpy{To,From}Array, cudaMemcpy2D{To,From}Array, cudaMemcpy{,2D}ArrayToArray,
// cudaMemcpy3D with arrays and pitched pointers both ways, async forms on pinned memory),
// cudaMalloc3D / cudaMemset3D, the channel-descriptor and info queries, and the error
// cases the CUDA Runtime API documentation gives. Every expectation is computed on the
// host from the bytes written.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "test_check.h"

#define EXPECT_ERROR(call, expected)                                                          \
  do {                                                                                        \
    cudaError_t e_ = (call);                                                                  \
    EXPECT_TRUE(e_ == (expected), "%s returned %s, expected %s", #call, cudaGetErrorName(e_), \
                cudaGetErrorName(expected));                                                  \
    (void)cudaGetLastError();                                                                 \
  } while (0)

// A distinct byte for every (x, y, z) byte position of a pattern, per seed.
static uint8_t pattern(size_t x, size_t y, size_t z, unsigned seed) {
  return static_cast<uint8_t>((x * 7 + y * 13 + z * 29 + seed * 31 + (x >> 8) * 3) & 0xff);
}

static std::vector<uint8_t> make_box(size_t w, size_t h, size_t d, unsigned seed) {
  std::vector<uint8_t> v(w * h * d);
  for (size_t z = 0; z < d; ++z)
    for (size_t y = 0; y < h; ++y)
      for (size_t x = 0; x < w; ++x) v[(z * h + y) * w + x] = pattern(x, y, z, seed);
  return v;
}

static void test_2d_float_array() {
  const int W = 37, H = 19;
  const size_t row = W * sizeof(float);
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  EXPECT_TRUE(desc.x == 32 && desc.y == 0 && desc.z == 0 && desc.w == 0 &&
                  desc.f == cudaChannelFormatKindFloat,
              "cudaCreateChannelDesc<float>");
  cudaArray_t a = nullptr;
  CHECK_CUDA(cudaMallocArray(&a, &desc, W, H));

  std::vector<float> host(W * H);
  for (int i = 0; i < W * H; ++i) host[i] = i * 0.5f - 100.0f;
  CHECK_CUDA(cudaMemcpy2DToArray(a, 0, 0, host.data(), row, row, H, cudaMemcpyHostToDevice));

  // Back into a padded host buffer: the padding must stay untouched.
  const int stride = W + 5;
  std::vector<float> back(stride * H, -1.0f);
  CHECK_CUDA(cudaMemcpy2DFromArray(back.data(), stride * sizeof(float), a, 0, 0, row, H,
                                   cudaMemcpyDeviceToHost));
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < stride; ++x) {
      float want = x < W ? host[y * W + x] : -1.0f;
      EXPECT_TRUE(back[y * stride + x] == want, "2D round trip [%d][%d] = %f, want %f", y, x,
                  back[y * stride + x], want);
    }

  // A sub-rectangle out of the array (x offset in bytes).
  const int sx = 3, sy = 4, sw = 10, sh = 6;
  std::vector<float> sub(sw * sh, 0.0f);
  CHECK_CUDA(cudaMemcpy2DFromArray(sub.data(), sw * sizeof(float), a, sx * sizeof(float), sy,
                                   sw * sizeof(float), sh, cudaMemcpyDeviceToHost));
  for (int y = 0; y < sh; ++y)
    for (int x = 0; x < sw; ++x)
      EXPECT_TRUE(sub[y * sw + x] == host[(y + sy) * W + x + sx], "sub [%d][%d]", y, x);

  // cudaMemcpyToArray / FromArray: linear byte ranges that wrap from row to row.
  std::vector<float> line(2 * W, 0.0f);
  for (int i = 0; i < 2 * W; ++i) line[i] = 5000.0f + i;
  CHECK_CUDA(cudaMemcpyToArray(a, 7 * sizeof(float), 2, line.data(), line.size() * sizeof(float),
                               cudaMemcpyHostToDevice));
  for (int i = 0; i < 2 * W; ++i) host[2 * W + 7 + i] = line[i];
  std::vector<float> all(W * H, 0.0f);
  CHECK_CUDA(
      cudaMemcpyFromArray(all.data(), a, 0, 0, all.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < W * H; ++i)
    EXPECT_TRUE(all[i] == host[i], "linear view [%d] = %f, want %f", i, all[i], host[i]);

  // Device memory <-> array, and array <-> array.
  float* dev = nullptr;
  size_t pitch = 0;
  CHECK_CUDA(cudaMallocPitch(reinterpret_cast<void**>(&dev), &pitch, row, H));
  CHECK_CUDA(cudaMemcpy2DFromArray(dev, pitch, a, 0, 0, row, H, cudaMemcpyDeviceToDevice));
  cudaArray_t b = nullptr;
  CHECK_CUDA(cudaMallocArray(&b, &desc, W, H));
  CHECK_CUDA(cudaMemcpy2DToArray(b, 0, 0, dev, pitch, row, H, cudaMemcpyDeviceToDevice));
  cudaArray_t c = nullptr;
  CHECK_CUDA(cudaMallocArray(&c, &desc, W, H));
  CHECK_CUDA(cudaMemcpy2DArrayToArray(c, 0, 0, b, 0, 0, row, H, cudaMemcpyDeviceToDevice));
  std::fill(all.begin(), all.end(), 0.0f);
  CHECK_CUDA(cudaMemcpy2DFromArray(all.data(), row, c, 0, 0, row, H, cudaMemcpyDefault));
  for (int i = 0; i < W * H; ++i) EXPECT_TRUE(all[i] == host[i], "D2A/A2A [%d]", i);
  // cudaMemcpyArrayToArray: a byte range at an offset.
  CHECK_CUDA(cudaMemcpyArrayToArray(c, 0, 1, a, 4 * sizeof(float), 0, 3 * sizeof(float),
                                    cudaMemcpyDeviceToDevice));
  for (int i = 0; i < 3; ++i) host[W + i] = host[4 + i];
  CHECK_CUDA(
      cudaMemcpyFromArray(all.data(), c, 0, 0, all.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < W * H; ++i) EXPECT_TRUE(all[i] == host[i], "ArrayToArray [%d]", i);

  // Async forms on pinned memory.
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  float* pinned = nullptr;
  CHECK_CUDA(cudaMallocHost(reinterpret_cast<void**>(&pinned), row * H));
  for (int i = 0; i < W * H; ++i) pinned[i] = -3.0f * i;
  CHECK_CUDA(
      cudaMemcpy2DToArrayAsync(b, 0, 0, pinned, row, row, H, cudaMemcpyHostToDevice, stream));
  std::vector<float> async_back(W * H, 0.0f);
  float* pinned_back = nullptr;
  CHECK_CUDA(cudaMallocHost(reinterpret_cast<void**>(&pinned_back), row * H));
  CHECK_CUDA(cudaMemcpy2DFromArrayAsync(pinned_back, row, b, 0, 0, row, H, cudaMemcpyDeviceToHost,
                                        stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  for (int i = 0; i < W * H; ++i) EXPECT_TRUE(pinned_back[i] == -3.0f * i, "async 2D [%d]", i);
  CHECK_CUDA(cudaMemcpyToArrayAsync(b, 0, 0, pinned + 5, 10 * sizeof(float), cudaMemcpyHostToDevice,
                                    stream));
  CHECK_CUDA(cudaMemcpyFromArrayAsync(pinned_back, b, 0, 0, 12 * sizeof(float),
                                      cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  for (int i = 0; i < 12; ++i) {
    float want = i < 10 ? -3.0f * (i + 5) : -3.0f * i;
    EXPECT_TRUE(pinned_back[i] == want, "async linear [%d] = %f, want %f", i, pinned_back[i], want);
  }

  // Errors.
  EXPECT_ERROR(cudaMemcpy2DToArray(a, 0, H - 2, host.data(), row, row, 3, cudaMemcpyHostToDevice),
               cudaErrorInvalidValue);  // past the last row
  EXPECT_ERROR(cudaMemcpy2DToArray(a, 4, 0, host.data(), row, row, 1, cudaMemcpyHostToDevice),
               cudaErrorInvalidValue);  // past the end of the row
  EXPECT_ERROR(cudaMemcpy2DToArray(a, 0, 0, host.data(), row - 4, row, 2, cudaMemcpyHostToDevice),
               cudaErrorInvalidPitchValue);  // spitch < width
  EXPECT_ERROR(
      cudaMemcpy2DToArray(a, 0, 0, host.data(), row, row, 2, static_cast<cudaMemcpyKind>(7)),
      cudaErrorInvalidMemcpyDirection);
  EXPECT_ERROR(cudaMemcpyToArray(a, 0, H - 1, host.data(), row + 4, cudaMemcpyHostToDevice),
               cudaErrorInvalidValue);  // runs past the end of the array

  CHECK_CUDA(cudaStreamDestroy(stream));
  CHECK_CUDA(cudaFreeHost(pinned));
  CHECK_CUDA(cudaFreeHost(pinned_back));
  CHECK_CUDA(cudaFree(dev));
  CHECK_CUDA(cudaFreeArray(a));
  CHECK_CUDA(cudaFreeArray(b));
  CHECK_CUDA(cudaFreeArray(c));
}

// cudaMemcpy3D between host memory, a 3D (or layered/cubemap) array and a cudaMalloc3D
// allocation, whole and by sub-box, checked byte for byte against the host pattern.
static void test_3d(cudaExtent extent, unsigned flags, const char* what) {
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<uchar4>();
  const size_t elem = 4;
  const size_t W = extent.width, H = extent.height, D = extent.depth;
  cudaArray_t a = nullptr;
  CHECK_CUDA(cudaMalloc3DArray(&a, &desc, extent, flags));

  cudaChannelFormatDesc got_desc;
  cudaExtent got_extent;
  unsigned got_flags = 99;
  CHECK_CUDA(cudaArrayGetInfo(&got_desc, &got_extent, &got_flags, a));
  EXPECT_TRUE(got_desc.x == 8 && got_desc.y == 8 && got_desc.z == 8 && got_desc.w == 8 &&
                  got_desc.f == cudaChannelFormatKindUnsigned,
              "%s: cudaArrayGetInfo desc", what);
  EXPECT_TRUE(got_extent.width == W && got_extent.height == H && got_extent.depth == D,
              "%s: extent %zu x %zu x %zu", what, got_extent.width, got_extent.height,
              got_extent.depth);
  EXPECT_TRUE(got_flags == flags, "%s: flags %u, want %u", what, got_flags, flags);

  const size_t hw = W * elem, hh = H == 0 ? 1 : H, hd = D == 0 ? 1 : D;
  std::vector<uint8_t> host = make_box(hw, hh, hd, 1);

  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(host.data(), hw, hw, hh);
  p.dstArray = a;
  p.extent = make_cudaExtent(W, hh, hd);
  p.kind = cudaMemcpyHostToDevice;
  CHECK_CUDA(cudaMemcpy3D(&p));

  // Array -> pitched device memory -> host.
  cudaPitchedPtr dev;
  CHECK_CUDA(cudaMalloc3D(&dev, make_cudaExtent(hw, hh, hd)));
  EXPECT_TRUE(dev.pitch >= hw && dev.xsize == hw && dev.ysize == hh, "%s: cudaMalloc3D", what);
  CHECK_CUDA(cudaMemset3D(dev, 0xee, make_cudaExtent(dev.pitch, hh, hd)));
  p = {};
  p.srcArray = a;
  p.dstPtr = dev;
  p.extent = make_cudaExtent(W, hh, hd);
  p.kind = cudaMemcpyDeviceToDevice;
  CHECK_CUDA(cudaMemcpy3D(&p));
  std::vector<uint8_t> back(dev.pitch * hh * hd, 0);
  p = {};
  p.srcPtr = dev;
  p.dstPtr = make_cudaPitchedPtr(back.data(), dev.pitch, dev.pitch, hh);
  p.extent = make_cudaExtent(dev.pitch, hh, hd);
  p.kind = cudaMemcpyDeviceToHost;
  CHECK_CUDA(cudaMemcpy3D(&p));
  for (size_t z = 0; z < hd; ++z)
    for (size_t y = 0; y < hh; ++y)
      for (size_t x = 0; x < dev.pitch; ++x) {
        uint8_t want = x < hw ? pattern(x, y, z, 1) : 0xee;
        uint8_t got = back[(z * hh + y) * dev.pitch + x];
        EXPECT_TRUE(got == want, "%s: A->D->H (%zu,%zu,%zu) = %u, want %u", what, x, y, z, got,
                    want);
      }

  // A sub-box from the pitched copy into the array at an offset (positions in elements
  // on the array side, bytes on the pointer side), then the whole array back to host.
  if (D > 1 && H > 1) {
    const size_t bx = 1, by = 1, bz = 1, bw = W - 2, bh = H - 1, bd = D - 1;
    std::vector<uint8_t> box = make_box(bw * elem, bh, bd, 2);
    cudaPitchedPtr box_dev;
    CHECK_CUDA(cudaMalloc3D(&box_dev, make_cudaExtent(bw * elem, bh, bd)));
    p = {};
    p.srcPtr = make_cudaPitchedPtr(box.data(), bw * elem, bw * elem, bh);
    p.dstPtr = box_dev;
    p.extent = make_cudaExtent(bw * elem, bh, bd);
    p.kind = cudaMemcpyHostToDevice;
    CHECK_CUDA(cudaMemcpy3D(&p));
    p = {};
    p.srcPtr = box_dev;
    p.dstArray = a;
    p.dstPos = make_cudaPos(bx, by, bz);
    p.extent = make_cudaExtent(bw, bh, bd);
    p.kind = cudaMemcpyDeviceToDevice;
    CHECK_CUDA(cudaMemcpy3D(&p));
    for (size_t z = 0; z < bd; ++z)
      for (size_t y = 0; y < bh; ++y)
        for (size_t x = 0; x < bw * elem; ++x)
          host[((z + bz) * hh + y + by) * hw + x + bx * elem] = box[(z * bh + y) * bw * elem + x];
    std::vector<uint8_t> whole(hw * hh * hd, 0);
    p = {};
    p.srcArray = a;
    p.dstPtr = make_cudaPitchedPtr(whole.data(), hw, hw, hh);
    p.extent = make_cudaExtent(W, hh, hd);
    p.kind = cudaMemcpyDeviceToHost;
    CHECK_CUDA(cudaMemcpy3D(&p));
    for (size_t i = 0; i < whole.size(); ++i)
      EXPECT_TRUE(whole[i] == host[i], "%s: sub-box byte %zu = %u, want %u", what, i, whole[i],
                  host[i]);
    // Out of the box: the region must lie inside the array.
    p = {};
    p.srcPtr = box_dev;
    p.dstArray = a;
    p.dstPos = make_cudaPos(bx + 2, by, bz);
    p.extent = make_cudaExtent(bw, bh, bd);
    p.kind = cudaMemcpyDeviceToDevice;
    EXPECT_ERROR(cudaMemcpy3D(&p), cudaErrorInvalidValue);
    CHECK_CUDA(cudaFree(box_dev.ptr));
  }

  // Asynchronous 3D copies through pinned memory on a stream.
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  uint8_t* pinned = nullptr;
  CHECK_CUDA(cudaMallocHost(reinterpret_cast<void**>(&pinned), hw * hh * hd));
  std::vector<uint8_t> fresh = make_box(hw, hh, hd, 3);
  std::memcpy(pinned, fresh.data(), fresh.size());
  p = {};
  p.srcPtr = make_cudaPitchedPtr(pinned, hw, hw, hh);
  p.dstArray = a;
  p.extent = make_cudaExtent(W, hh, hd);
  p.kind = cudaMemcpyHostToDevice;
  CHECK_CUDA(cudaMemcpy3DAsync(&p, stream));
  CHECK_CUDA(cudaMemset3DAsync(dev, 0, make_cudaExtent(hw, hh, hd), stream));
  p = {};
  p.srcArray = a;
  p.dstPtr = dev;
  p.extent = make_cudaExtent(W, hh, hd);
  p.kind = cudaMemcpyDefault;
  CHECK_CUDA(cudaMemcpy3DAsync(&p, stream));
  // A second pinned buffer: the first may still be read by the queued copy.
  uint8_t* pinned_out = nullptr;
  CHECK_CUDA(cudaMallocHost(reinterpret_cast<void**>(&pinned_out), hw * hh * hd));
  std::memset(pinned_out, 0, hw * hh * hd);
  p = {};
  p.srcPtr = dev;
  p.dstPtr = make_cudaPitchedPtr(pinned_out, hw, hw, hh);
  p.extent = make_cudaExtent(hw, hh, hd);
  p.kind = cudaMemcpyDeviceToHost;
  CHECK_CUDA(cudaMemcpy3DAsync(&p, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  EXPECT_TRUE(std::memcmp(pinned_out, fresh.data(), fresh.size()) == 0, "%s: async 3D round trip",
              what);

  // Both an array and a pointer as the source.
  p = {};
  p.srcArray = a;
  p.srcPtr = dev;
  p.dstPtr = dev;
  p.extent = make_cudaExtent(1, 1, 1);
  p.kind = cudaMemcpyDeviceToDevice;
  EXPECT_ERROR(cudaMemcpy3D(&p), cudaErrorInvalidValue);

  CHECK_CUDA(cudaStreamDestroy(stream));
  CHECK_CUDA(cudaFreeHost(pinned));
  CHECK_CUDA(cudaFreeHost(pinned_out));
  CHECK_CUDA(cudaFree(dev.ptr));
  CHECK_CUDA(cudaFreeArray(a));
}

static void test_mipmapped() {
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<short2>();
  const size_t W = 64, H = 24, elem = 4;
  cudaMipmappedArray_t m = nullptr;
  // 10 levels requested; a 64 x 24 chain has 1 + floor(log2(64)) = 7.
  CHECK_CUDA(cudaMallocMipmappedArray(&m, &desc, make_cudaExtent(W, H, 0), 10));
  std::vector<cudaArray_t> levels;
  for (unsigned l = 0; l < 7; ++l) {
    cudaArray_t level = nullptr;
    CHECK_CUDA(cudaGetMipmappedArrayLevel(&level, m, l));
    cudaArray_t again = nullptr;
    CHECK_CUDA(cudaGetMipmappedArrayLevel(&again, m, l));
    EXPECT_TRUE(level == again, "level %u: two different handles", l);
    cudaExtent e;
    cudaChannelFormatDesc d;
    CHECK_CUDA(cudaArrayGetInfo(&d, &e, nullptr, level));
    size_t want_w = W >> l ? W >> l : 1, want_h = H >> l ? H >> l : 1;
    EXPECT_TRUE(e.width == want_w && e.height == want_h && e.depth == 0,
                "level %u extent %zu x %zu x %zu, want %zu x %zu x 0", l, e.width, e.height,
                e.depth, want_w, want_h);
    EXPECT_TRUE(d.x == 16 && d.y == 16 && d.z == 0 && d.f == cudaChannelFormatKindSigned,
                "level %u desc", l);
    levels.push_back(level);
  }
  cudaArray_t past = nullptr;
  EXPECT_ERROR(cudaGetMipmappedArrayLevel(&past, m, 7), cudaErrorInvalidValue);
  // Distinct data in every level; reading each back shows the levels do not overlap.
  for (unsigned l = 0; l < 7; ++l) {
    size_t w = (W >> l ? W >> l : 1) * elem, h = H >> l ? H >> l : 1;
    std::vector<uint8_t> data = make_box(w, h, 1, 10 + l);
    CHECK_CUDA(cudaMemcpy2DToArray(levels[l], 0, 0, data.data(), w, w, h, cudaMemcpyHostToDevice));
  }
  for (unsigned l = 0; l < 7; ++l) {
    size_t w = (W >> l ? W >> l : 1) * elem, h = H >> l ? H >> l : 1;
    std::vector<uint8_t> back(w * h, 0);
    CHECK_CUDA(
        cudaMemcpy2DFromArray(back.data(), w, levels[l], 0, 0, w, h, cudaMemcpyDeviceToHost));
    EXPECT_TRUE(back == make_box(w, h, 1, 10 + l), "level %u data", l);
  }
  CHECK_CUDA(cudaFreeMipmappedArray(m));
  // The level handles died with the mipmapped array.
  cudaExtent e;
  EXPECT_ERROR(cudaArrayGetInfo(nullptr, &e, nullptr, levels[0]), cudaErrorInvalidResourceHandle);

  // numLevels is clamped to [1, 1 + floor(log2(largest extent))]: 0 gives one level.
  CHECK_CUDA(cudaMallocMipmappedArray(&m, &desc, make_cudaExtent(8, 4, 0), 0));
  cudaArray_t only = nullptr;
  CHECK_CUDA(cudaGetMipmappedArrayLevel(&only, m, 0));
  EXPECT_ERROR(cudaGetMipmappedArrayLevel(&only, m, 1), cudaErrorInvalidValue);
  CHECK_CUDA(cudaFreeMipmappedArray(m));
  // A 3D mipmapped array: the depth shrinks too.
  CHECK_CUDA(cudaMallocMipmappedArray(&m, &desc, make_cudaExtent(8, 4, 16), 100));
  cudaArray_t level = nullptr;
  CHECK_CUDA(cudaGetMipmappedArrayLevel(&level, m, 4));  // 1 + log2(16) = 5 levels
  CHECK_CUDA(cudaArrayGetInfo(nullptr, &e, nullptr, level));
  EXPECT_TRUE(e.width == 1 && e.height == 1 && e.depth == 1, "3D level 4: %zu x %zu x %zu", e.width,
              e.height, e.depth);
  EXPECT_ERROR(cudaGetMipmappedArrayLevel(&level, m, 5), cudaErrorInvalidValue);
  CHECK_CUDA(cudaFreeMipmappedArray(m));
}

static void test_errors_and_queries() {
  cudaArray_t a = nullptr;
  cudaChannelFormatDesc bad_mixed =
      cudaCreateChannelDesc(8, 16, 0, 0, cudaChannelFormatKindUnsigned);
  EXPECT_ERROR(cudaMallocArray(&a, &bad_mixed, 16, 16), cudaErrorInvalidChannelDescriptor);
  cudaChannelFormatDesc three = cudaCreateChannelDesc(8, 8, 8, 0, cudaChannelFormatKindUnsigned);
  EXPECT_ERROR(cudaMallocArray(&a, &three, 16, 16), cudaErrorInvalidChannelDescriptor);
  cudaChannelFormatDesc float8 = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindFloat);
  EXPECT_ERROR(cudaMallocArray(&a, &float8, 16, 16), cudaErrorInvalidChannelDescriptor);
  cudaChannelFormatDesc none = cudaCreateChannelDesc(0, 0, 0, 0, cudaChannelFormatKindNone);
  EXPECT_ERROR(cudaMallocArray(&a, &none, 16, 16), cudaErrorInvalidChannelDescriptor);

  cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  EXPECT_ERROR(cudaMallocArray(&a, &f, 0, 16), cudaErrorInvalidValue);
  EXPECT_ERROR(cudaMalloc3DArray(&a, &f, make_cudaExtent(8, 9, 6), cudaArrayCubemap),
               cudaErrorInvalidValue);  // width != height
  EXPECT_ERROR(cudaMalloc3DArray(&a, &f, make_cudaExtent(8, 8, 5), cudaArrayCubemap),
               cudaErrorInvalidValue);  // depth != 6
  EXPECT_ERROR(
      cudaMalloc3DArray(&a, &f, make_cudaExtent(8, 8, 8), cudaArrayCubemap | cudaArrayLayered),
      cudaErrorInvalidValue);  // not a multiple of 6
  EXPECT_ERROR(cudaMalloc3DArray(&a, &f, make_cudaExtent(8, 0, 4), 0),
               cudaErrorInvalidValue);  // depth without height or layers

  // The device limits cudaDeviceProp reports are the ones enforced.
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  EXPECT_TRUE(prop.maxTexture1D > 0 && prop.maxTexture2D[0] > 0 && prop.maxTexture3D[2] > 0,
              "texture limits are zero");
  EXPECT_ERROR(cudaMallocArray(&a, &f, prop.maxTexture1D + 1, 0), cudaErrorInvalidValue);
  CHECK_CUDA(cudaMallocArray(&a, &f, prop.maxTexture1D, 0));
  CHECK_CUDA(cudaFreeArray(a));
  EXPECT_ERROR(cudaMalloc3DArray(&a, &f, make_cudaExtent(prop.maxTexture3D[0] + 1, 2, 2), 0),
               cudaErrorInvalidValue);
  EXPECT_ERROR(cudaMalloc3DArray(&a, &f, make_cudaExtent(4, 4, prop.maxTexture2DLayered[2] + 1),
                                 cudaArrayLayered),
               cudaErrorInvalidValue);

  // Arrays take device memory, which cuMemGetInfo counts (the runtime's primary context
  // is current).
  size_t free_before = 0, free_during = 0, free_after = 0, total = 0;
  EXPECT_TRUE(cuMemGetInfo(&free_before, &total) == CUDA_SUCCESS, "cuMemGetInfo");
  cudaChannelFormatDesc f4 = cudaCreateChannelDesc<float4>();
  CHECK_CUDA(cudaMallocArray(&a, &f4, 1024, 1024, cudaArraySurfaceLoadStore));
  EXPECT_TRUE(cuMemGetInfo(&free_during, &total) == CUDA_SUCCESS, "cuMemGetInfo");
  EXPECT_TRUE(free_before - free_during >= 1024 * 1024 * 16, "a 16 MiB array took %zu bytes",
              free_before - free_during);
  cudaChannelFormatDesc got;
  CHECK_CUDA(cudaGetChannelDesc(&got, a));
  EXPECT_TRUE(got.x == 32 && got.y == 32 && got.z == 32 && got.w == 32 &&
                  got.f == cudaChannelFormatKindFloat,
              "cudaGetChannelDesc");
  unsigned flags = 0;
  CHECK_CUDA(cudaArrayGetInfo(nullptr, nullptr, &flags, a));
  EXPECT_TRUE(flags == cudaArraySurfaceLoadStore, "flags %u", flags);
  // Only arrays with deferred mapping have memory requirements, and only planar ones planes.
  cudaArrayMemoryRequirements req;
  EXPECT_ERROR(cudaArrayGetMemoryRequirements(&req, a, 0), cudaErrorInvalidValue);
  cudaArray_t plane = nullptr;
  EXPECT_ERROR(cudaArrayGetPlane(&plane, a, 0), cudaErrorInvalidValue);
  CHECK_CUDA(cudaFreeArray(a));
  EXPECT_TRUE(cuMemGetInfo(&free_after, &total) == CUDA_SUCCESS, "cuMemGetInfo");
  EXPECT_TRUE(free_after == free_before, "free memory %zu after the array, %zu before", free_after,
              free_before);
  // A destroyed array is an invalid handle.
  EXPECT_ERROR(cudaGetChannelDesc(&got, a), cudaErrorInvalidResourceHandle);
  CHECK_CUDA(cudaFreeArray(nullptr));

  // Half floats are CU_AD_FORMAT_HALF: two channels of 16-bit float.
  cudaChannelFormatDesc h2 = cudaCreateChannelDescHalf2();
  CHECK_CUDA(cudaMallocArray(&a, &h2, 5, 0));
  CHECK_CUDA(cudaGetChannelDesc(&got, a));
  EXPECT_TRUE(got.x == 16 && got.y == 16 && got.z == 0 && got.f == cudaChannelFormatKindFloat,
              "half2 desc");
  CHECK_CUDA(cudaFreeArray(a));
}

// cudaMemcpy3DPeer: within one device, and (with two devices) from an array on device 0
// to pitched memory on device 1 and back into a second array on device 0.
static void test_peer() {
  int devices = 0;
  CHECK_CUDA(cudaGetDeviceCount(&devices));
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<int>();
  const size_t W = 11, H = 5, D = 3, bytes = W * 4;
  std::vector<uint8_t> host = make_box(bytes, H, D, 7);
  cudaArray_t a, b;
  CHECK_CUDA(cudaMalloc3DArray(&a, &desc, make_cudaExtent(W, H, D)));
  CHECK_CUDA(cudaMalloc3DArray(&b, &desc, make_cudaExtent(W, H, D)));
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(host.data(), bytes, W, H);
  p.dstArray = a;
  p.extent = make_cudaExtent(W, H, D);
  p.kind = cudaMemcpyHostToDevice;
  CHECK_CUDA(cudaMemcpy3D(&p));

  const int other = devices > 1 ? 1 : 0;
  CHECK_CUDA(cudaSetDevice(other));
  cudaPitchedPtr remote;
  CHECK_CUDA(cudaMalloc3D(&remote, make_cudaExtent(bytes, H, D)));
  CHECK_CUDA(cudaSetDevice(0));
  cudaMemcpy3DPeerParms q = {};
  q.srcArray = a;
  q.srcDevice = 0;
  q.dstPtr = remote;
  q.dstDevice = other;
  q.extent = make_cudaExtent(W, H, D);
  CHECK_CUDA(cudaMemcpy3DPeer(&q));
  q = {};
  q.srcPtr = remote;
  q.srcDevice = other;
  q.dstArray = b;
  q.dstDevice = 0;
  q.extent = make_cudaExtent(W, H, D);
  CHECK_CUDA(cudaMemcpy3DPeerAsync(&q, nullptr));
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<uint8_t> back(host.size(), 0);
  p = {};
  p.srcArray = b;
  p.dstPtr = make_cudaPitchedPtr(back.data(), bytes, W, H);
  p.extent = make_cudaExtent(W, H, D);
  p.kind = cudaMemcpyDeviceToHost;
  CHECK_CUDA(cudaMemcpy3D(&p));
  EXPECT_TRUE(back == host, "cudaMemcpy3DPeer round trip through device %d", other);
  CHECK_CUDA(cudaSetDevice(other));
  CHECK_CUDA(cudaFree(remote.ptr));
  CHECK_CUDA(cudaSetDevice(0));
  CHECK_CUDA(cudaFreeArray(a));
  CHECK_CUDA(cudaFreeArray(b));
  std::printf("devices: %d\n", devices);
}

int main() {
  test_2d_float_array();
  test_peer();
  test_3d(make_cudaExtent(13, 7, 5), 0, "3D");
  test_3d(make_cudaExtent(9, 6, 4), cudaArrayLayered, "2D layered");
  test_3d(make_cudaExtent(21, 0, 3), cudaArrayLayered, "1D layered");
  test_3d(make_cudaExtent(8, 8, 6), cudaArrayCubemap, "cubemap");
  test_3d(make_cudaExtent(4, 4, 12), cudaArrayCubemap | cudaArrayLayered, "layered cubemap");
  test_3d(make_cudaExtent(50, 0, 0), 0, "1D");
  test_3d(make_cudaExtent(17, 3, 0), cudaArraySurfaceLoadStore, "2D");
  test_mipmapped();
  test_errors_and_queries();
  CHECK_CUDA(cudaDeviceSynchronize());
  std::printf("PASS array_copies\n");
  return 0;
}
