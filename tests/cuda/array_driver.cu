// CUDA arrays through the driver API: cuArrayCreate / cuArray3DCreate and their
// descriptors, cuMemcpyHtoA/AtoH/DtoA/AtoD/AtoA (+Async), cuMemcpy2D and cuMemcpy3D with
// CU_MEMORYTYPE_ARRAY sides, cuMemcpy3DPeer within one context, mipmapped arrays, and
// the documented errors (formats, flags, extents, sparse/plane/memory-requirement
// queries). Expectations are computed on the host from the bytes written.
#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK_CU(call)                                                         \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS) {                                                  \
      const char* name_ = nullptr;                                             \
      cuGetErrorName(r_, &name_);                                              \
      std::printf("FAIL %s:%d: %s -> %s\n", __FILE__, __LINE__, #call, name_); \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

#define EXPECT_CU(call, expected)                                                                 \
  do {                                                                                            \
    CUresult r_ = (call);                                                                         \
    if (r_ != (expected)) {                                                                       \
      const char *got_ = nullptr, *want_ = nullptr;                                               \
      cuGetErrorName(r_, &got_);                                                                  \
      cuGetErrorName(expected, &want_);                                                           \
      std::printf("FAIL %s:%d: %s -> %s, expected %s\n", __FILE__, __LINE__, #call, got_, want_); \
      std::exit(1);                                                                               \
    }                                                                                             \
  } while (0)

#define EXPECT(cond, ...)                                         \
  do {                                                            \
    if (!(cond)) {                                                \
      std::printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
      std::printf(__VA_ARGS__);                                   \
      std::printf("\n");                                          \
      std::exit(1);                                               \
    }                                                             \
  } while (0)

static uint8_t pattern(size_t i, unsigned seed) {
  return static_cast<uint8_t>((i * 11 + seed * 57 + (i >> 8) * 5) & 0xff);
}

static std::vector<uint8_t> bytes(size_t n, unsigned seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = pattern(i, seed);
  return v;
}

int main() {
  CHECK_CU(cuInit(0));
  CUdevice dev;
  CHECK_CU(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CHECK_CU(cuDevicePrimaryCtxRetain(&ctx, dev));
  CHECK_CU(cuCtxSetCurrent(ctx));

  // --- cuArrayCreate / descriptors -----------------------------------------------------
  CUDA_ARRAY_DESCRIPTOR d2{};
  d2.Width = 30;
  d2.Height = 11;
  d2.Format = CU_AD_FORMAT_UNSIGNED_INT16;
  d2.NumChannels = 2;
  CUarray a;
  CHECK_CU(cuArrayCreate(&a, &d2));
  CUDA_ARRAY_DESCRIPTOR got2{};
  CHECK_CU(cuArrayGetDescriptor(&got2, a));
  EXPECT(got2.Width == 30 && got2.Height == 11 && got2.Format == CU_AD_FORMAT_UNSIGNED_INT16 &&
             got2.NumChannels == 2,
         "cuArrayGetDescriptor");
  CUDA_ARRAY3D_DESCRIPTOR got3{};
  CHECK_CU(cuArray3DGetDescriptor(&got3, a));
  EXPECT(got3.Width == 30 && got3.Height == 11 && got3.Depth == 0 && got3.Flags == 0,
         "cuArray3DGetDescriptor of a 2D array");
  const size_t row = 30 * 4, total = row * 11;

  // --- Linear copies: HtoA / AtoH / DtoA / AtoD / AtoA ----------------------------------
  std::vector<uint8_t> host = bytes(total, 1);
  CHECK_CU(cuMemcpyHtoA(a, 0, host.data(), total));
  std::vector<uint8_t> back(total, 0);
  CHECK_CU(cuMemcpyAtoH(back.data(), a, 0, total));
  EXPECT(back == host, "HtoA/AtoH round trip");
  // An unaligned range that straddles rows.
  std::vector<uint8_t> piece = bytes(3 * row + 7, 2);
  CHECK_CU(cuMemcpyHtoA(a, row - 5, piece.data(), piece.size()));
  std::memcpy(host.data() + row - 5, piece.data(), piece.size());
  CHECK_CU(cuMemcpyAtoH(back.data(), a, 0, total));
  EXPECT(back == host, "straddling HtoA");
  EXPECT_CU(cuMemcpyHtoA(a, total - 4, piece.data(), 8), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU(cuMemcpyAtoH(back.data(), a, 1, total), CUDA_ERROR_INVALID_VALUE);

  CUdeviceptr dptr;
  CHECK_CU(cuMemAlloc(&dptr, total));
  CHECK_CU(cuMemcpyAtoD(dptr, a, 0, total));
  CUarray b;
  CHECK_CU(cuArrayCreate(&b, &d2));
  CHECK_CU(cuMemcpyDtoA(b, 0, dptr, total));
  CUarray c;
  CHECK_CU(cuArrayCreate(&c, &d2));
  CHECK_CU(cuMemcpyAtoA(c, 0, b, 0, total));
  std::fill(back.begin(), back.end(), 0);
  CHECK_CU(cuMemcpyAtoH(back.data(), c, 0, total));
  EXPECT(back == host, "AtoD/DtoA/AtoA");

  // Async forms on pinned memory.
  CUstream stream;
  CHECK_CU(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  uint8_t* pinned;
  CHECK_CU(cuMemAllocHost(reinterpret_cast<void**>(&pinned), total));
  std::vector<uint8_t> fresh = bytes(total, 3);
  std::memcpy(pinned, fresh.data(), total);
  CHECK_CU(cuMemcpyHtoAAsync(a, 0, pinned, total, stream));
  uint8_t* pinned_back;
  CHECK_CU(cuMemAllocHost(reinterpret_cast<void**>(&pinned_back), total));
  CHECK_CU(cuMemcpyAtoHAsync(pinned_back, a, 0, total, stream));
  CHECK_CU(cuStreamSynchronize(stream));
  EXPECT(std::memcmp(pinned_back, fresh.data(), total) == 0, "async HtoA/AtoH");

  // --- cuMemcpy2D with array sides --------------------------------------------------------
  CUDA_MEMCPY2D p2{};
  p2.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  p2.srcArray = a;
  p2.srcXInBytes = 8;
  p2.srcY = 2;
  p2.dstMemoryType = CU_MEMORYTYPE_HOST;
  std::vector<uint8_t> sub(40 * 5, 0);
  p2.dstHost = sub.data();
  p2.dstPitch = 40;
  p2.WidthInBytes = 40;
  p2.Height = 5;
  CHECK_CU(cuMemcpy2D(&p2));
  for (size_t y = 0; y < 5; ++y)
    for (size_t x = 0; x < 40; ++x)
      EXPECT(sub[y * 40 + x] == fresh[(y + 2) * row + 8 + x], "2D sub-rectangle (%zu,%zu)", x, y);
  p2.srcY = 7;  // rows 7..11 of an 11-row array
  EXPECT_CU(cuMemcpy2D(&p2), CUDA_ERROR_INVALID_VALUE);
  p2.srcY = 0;
  p2.srcXInBytes = row - 39;
  EXPECT_CU(cuMemcpy2DUnaligned(&p2), CUDA_ERROR_INVALID_VALUE);

  // --- cuArray3DCreate, cuMemcpy3D, cuMemcpy3DPeer ----------------------------------------
  CUDA_ARRAY3D_DESCRIPTOR d3{};
  d3.Width = 10;
  d3.Height = 6;
  d3.Depth = 4;
  d3.Format = CU_AD_FORMAT_FLOAT;
  d3.NumChannels = 1;
  CUarray vol;
  CHECK_CU(cuArray3DCreate(&vol, &d3));
  const size_t vw = 40, vh = 6, vd = 4;
  std::vector<uint8_t> box = bytes(vw * vh * vd, 4);
  CUDA_MEMCPY3D p3{};
  p3.srcMemoryType = CU_MEMORYTYPE_HOST;
  p3.srcHost = box.data();
  p3.srcPitch = vw;
  p3.srcHeight = vh;
  p3.dstMemoryType = CU_MEMORYTYPE_ARRAY;
  p3.dstArray = vol;
  p3.WidthInBytes = vw;
  p3.Height = vh;
  p3.Depth = vd;
  CHECK_CU(cuMemcpy3D(&p3));
  CUDA_MEMCPY3D_PEER pp{};
  pp.srcMemoryType = CU_MEMORYTYPE_ARRAY;
  pp.srcArray = vol;
  pp.srcY = 1;
  pp.srcZ = 1;
  pp.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  CUdeviceptr vdev;
  CHECK_CU(cuMemAlloc(&vdev, vw * vh * vd));
  pp.dstDevice = vdev;
  pp.dstContext = ctx;
  pp.dstPitch = vw;
  pp.dstHeight = vh - 1;
  pp.WidthInBytes = vw;
  pp.Height = vh - 1;
  pp.Depth = vd - 1;
  CHECK_CU(cuMemcpy3DPeer(&pp));
  std::vector<uint8_t> vback(vw * (vh - 1) * (vd - 1), 0);
  CHECK_CU(cuMemcpyDtoH(vback.data(), vdev, vback.size()));
  for (size_t z = 0; z < vd - 1; ++z)
    for (size_t y = 0; y < vh - 1; ++y)
      for (size_t x = 0; x < vw; ++x)
        EXPECT(vback[(z * (vh - 1) + y) * vw + x] == box[((z + 1) * vh + y + 1) * vw + x],
               "3D peer (%zu,%zu,%zu)", x, y, z);
  p3.dstLOD = 1;
  EXPECT_CU(cuMemcpy3D(&p3), CUDA_ERROR_INVALID_VALUE);
  p3.dstLOD = 0;
  p3.Depth = vd + 1;
  EXPECT_CU(cuMemcpy3D(&p3), CUDA_ERROR_INVALID_VALUE);
  p3.Depth = vd;
  p3.srcHeight = vh - 1;  // a host height smaller than the copy's
  EXPECT_CU(cuMemcpy3D(&p3), CUDA_ERROR_INVALID_VALUE);
  p3.srcHeight = vh;
  CHECK_CU(cuMemcpy3DAsync(&p3, stream));
  CHECK_CU(cuStreamSynchronize(stream));

  // --- Errors from cuArray3DCreate -------------------------------------------------------
  CUarray bad;
  CUDA_ARRAY3D_DESCRIPTOR e = d3;
  e.NumChannels = 3;
  EXPECT_CU(cuArray3DCreate(&bad, &e), CUDA_ERROR_INVALID_VALUE);
  e = d3;
  e.Format = CU_AD_FORMAT_BC1_UNORM;
  EXPECT_CU(cuArray3DCreate(&bad, &e), CUDA_ERROR_NOT_SUPPORTED);
  e = d3;
  e.Format = static_cast<CUarray_format>(0x77);
  EXPECT_CU(cuArray3DCreate(&bad, &e), CUDA_ERROR_INVALID_VALUE);
  e = d3;
  e.Flags = 0x4000;
  EXPECT_CU(cuArray3DCreate(&bad, &e), CUDA_ERROR_INVALID_VALUE);
  e = d3;
  e.Flags = CUDA_ARRAY3D_SPARSE;
  EXPECT_CU(cuArray3DCreate(&bad, &e), CUDA_ERROR_NOT_SUPPORTED);
  e = d3;
  e.Width = 0;
  EXPECT_CU(cuArray3DCreate(&bad, &e), CUDA_ERROR_INVALID_VALUE);
  e = d3;
  e.Flags = CUDA_ARRAY3D_TEXTURE_GATHER;  // gather needs a 2D array
  EXPECT_CU(cuArray3DCreate(&bad, &e), CUDA_ERROR_INVALID_VALUE);
  int max3d = 0;
  CHECK_CU(cuDeviceGetAttribute(&max3d, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH, dev));
  int max3d_alt = 0;
  CHECK_CU(
      cuDeviceGetAttribute(&max3d_alt, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE, dev));
  e = d3;
  e.Depth = (max3d > max3d_alt ? max3d : max3d_alt) + 1;
  EXPECT_CU(cuArray3DCreate(&bad, &e), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU(cuArray3DCreate(&bad, nullptr), CUDA_ERROR_INVALID_VALUE);

  // --- Queries that need sparse, deferred-mapping or planar arrays ------------------------
  CUDA_ARRAY_SPARSE_PROPERTIES sparse;
  EXPECT_CU(cuArrayGetSparseProperties(&sparse, a), CUDA_ERROR_INVALID_VALUE);
  CUDA_ARRAY_MEMORY_REQUIREMENTS req;
  EXPECT_CU(cuArrayGetMemoryRequirements(&req, a, dev), CUDA_ERROR_INVALID_VALUE);
  CUarray plane;
  EXPECT_CU(cuArrayGetPlane(&plane, a, 0), CUDA_ERROR_INVALID_VALUE);

  // --- Mipmapped arrays ---------------------------------------------------------------------
  CUDA_ARRAY3D_DESCRIPTOR dm{};
  dm.Width = 16;
  dm.Height = 16;
  dm.Depth = 3;
  dm.Format = CU_AD_FORMAT_UNSIGNED_INT8;
  dm.NumChannels = 4;
  dm.Flags = CUDA_ARRAY3D_LAYERED;
  CUmipmappedArray m;
  CHECK_CU(cuMipmappedArrayCreate(&m, &dm, 5));
  for (unsigned l = 0; l < 5; ++l) {
    CUarray level;
    CHECK_CU(cuMipmappedArrayGetLevel(&level, m, l));
    CUDA_ARRAY3D_DESCRIPTOR ld{};
    CHECK_CU(cuArray3DGetDescriptor(&ld, level));
    EXPECT(ld.Width == (16u >> l) && ld.Height == (16u >> l) && ld.Depth == 3 &&
               ld.Flags == CUDA_ARRAY3D_LAYERED,
           "layered level %u: %zu x %zu x %zu", l, ld.Width, ld.Height, ld.Depth);
    // Each layer of the level gets its own bytes.
    const size_t lw = (16u >> l) * 4, lh = 16u >> l;
    std::vector<uint8_t> layers = bytes(lw * lh * 3, 20 + l);
    CUDA_MEMCPY3D q{};
    q.srcMemoryType = CU_MEMORYTYPE_HOST;
    q.srcHost = layers.data();
    q.srcPitch = lw;
    q.srcHeight = lh;
    q.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    q.dstArray = level;
    q.WidthInBytes = lw;
    q.Height = lh;
    q.Depth = 3;
    CHECK_CU(cuMemcpy3D(&q));
    EXPECT_CU(cuArrayDestroy(level), CUDA_ERROR_INVALID_HANDLE);
  }
  for (unsigned l = 0; l < 5; ++l) {
    CUarray level;
    CHECK_CU(cuMipmappedArrayGetLevel(&level, m, l));
    const size_t lw = (16u >> l) * 4, lh = 16u >> l;
    std::vector<uint8_t> out(lw * lh * 3, 0);
    CUDA_MEMCPY3D q{};
    q.srcMemoryType = CU_MEMORYTYPE_ARRAY;
    q.srcArray = level;
    q.dstMemoryType = CU_MEMORYTYPE_HOST;
    q.dstHost = out.data();
    q.dstPitch = lw;
    q.dstHeight = lh;
    q.WidthInBytes = lw;
    q.Height = lh;
    q.Depth = 3;
    CHECK_CU(cuMemcpy3D(&q));
    EXPECT(out == bytes(lw * lh * 3, 20 + l), "layered mip level %u", l);
  }
  CUarray past;
  EXPECT_CU(cuMipmappedArrayGetLevel(&past, m, 5), CUDA_ERROR_INVALID_VALUE);
  EXPECT_CU(cuMipmappedArrayGetMemoryRequirements(&req, m, dev), CUDA_ERROR_INVALID_VALUE);
  CHECK_CU(cuMipmappedArrayDestroy(m));
  EXPECT_CU(cuMipmappedArrayDestroy(m), CUDA_ERROR_INVALID_HANDLE);
  dm.Flags = CUDA_ARRAY3D_TEXTURE_GATHER;
  EXPECT_CU(cuMipmappedArrayCreate(&m, &dm, 2), CUDA_ERROR_INVALID_VALUE);

  // --- Destruction ----------------------------------------------------------------------------
  CHECK_CU(cuArrayDestroy(a));
  EXPECT_CU(cuArrayDestroy(a), CUDA_ERROR_INVALID_HANDLE);
  EXPECT_CU(cuArrayGetDescriptor(&got2, a), CUDA_ERROR_INVALID_HANDLE);
  CHECK_CU(cuArrayDestroy(b));
  CHECK_CU(cuArrayDestroy(c));
  CHECK_CU(cuArrayDestroy(vol));
  CHECK_CU(cuMemFree(dptr));
  CHECK_CU(cuMemFree(vdev));
  CHECK_CU(cuMemFreeHost(pinned));
  CHECK_CU(cuMemFreeHost(pinned_back));
  CHECK_CU(cuStreamDestroy(stream));
  CHECK_CU(cuDevicePrimaryCtxRelease(dev));
  std::printf("PASS array_driver\n");
  return 0;
}
