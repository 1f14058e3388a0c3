// The TextureDescriptor that cuTexObjectCreate / cuSurfObjectCreate write at the handle
// (hw/contract/texture.h, docs/hw-contract.md "Textures and surfaces"), read back with
// cuMemcpyDtoH: geometry, formats, pitches, level offsets of mipmapped arrays, flags,
// the sampler fields and the driver's guarantees about them. No kernels run.
#include <cuda.h>
#include <gtest/gtest.h>

#include <cstring>

#include "hw/contract/texture.h"

namespace {

using strata::hw::TextureDescriptor;

class TextureObjects : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
    CUdevice dev;
    ASSERT_EQ(cuDeviceGet(&dev, 0), CUDA_SUCCESS);
    ASSERT_EQ(cuDevicePrimaryCtxRetain(&ctx_, dev), CUDA_SUCCESS);
  }
  void SetUp() override { ASSERT_EQ(cuCtxSetCurrent(ctx_), CUDA_SUCCESS); }

  static TextureDescriptor read(unsigned long long handle) {
    EXPECT_NE(handle, 0u);
    EXPECT_EQ(handle % strata::hw::kDescriptorAlign, 0u);
    TextureDescriptor d{};
    EXPECT_EQ(cuMemcpyDtoH(&d, handle, sizeof(d)), CUDA_SUCCESS);
    EXPECT_EQ(d.magic, strata::hw::kTextureDescriptorMagic);
    return d;
  }
  static CUDA_TEXTURE_DESC sampler(CUaddress_mode mode, CUfilter_mode filter, unsigned flags) {
    CUDA_TEXTURE_DESC t{};
    t.addressMode[0] = t.addressMode[1] = t.addressMode[2] = mode;
    t.filterMode = filter;
    t.flags = flags;
    return t;
  }
  static CUDA_RESOURCE_DESC array_resource(CUarray a) {
    CUDA_RESOURCE_DESC r{};
    r.resType = CU_RESOURCE_TYPE_ARRAY;
    r.res.array.hArray = a;
    return r;
  }

  static CUcontext ctx_;
};
CUcontext TextureObjects::ctx_ = nullptr;

TEST_F(TextureObjects, LayeredArray) {
  CUDA_ARRAY3D_DESCRIPTOR ad{};
  ad.Width = 10;
  ad.Height = 6;
  ad.Depth = 3;
  ad.Format = CU_AD_FORMAT_FLOAT;
  ad.NumChannels = 2;
  ad.Flags = CUDA_ARRAY3D_LAYERED;
  CUarray a;
  ASSERT_EQ(cuArray3DCreate(&a, &ad), CUDA_SUCCESS);
  CUDA_RESOURCE_DESC r = array_resource(a);
  CUDA_TEXTURE_DESC t =
      sampler(CU_TR_ADDRESS_MODE_BORDER, CU_TR_FILTER_MODE_LINEAR, CU_TRSF_NORMALIZED_COORDINATES);
  t.borderColor[0] = 0.5f;
  t.borderColor[3] = -2.0f;
  t.maxAnisotropy = 0;  // clamped to 1
  CUtexObject tex;
  ASSERT_EQ(cuTexObjectCreate(&tex, &r, &t, nullptr), CUDA_SUCCESS);
  TextureDescriptor d = read(tex);
  EXPECT_EQ(d.kind, strata::hw::kKind2DLayered);
  EXPECT_EQ(d.format, strata::hw::kFormatF32);
  EXPECT_EQ(d.channels, 2);
  EXPECT_EQ(d.levels, 1);
  EXPECT_EQ(d.width, 10u);
  EXPECT_EQ(d.height, 6u);
  EXPECT_EQ(d.depth, 1u);
  EXPECT_EQ(d.layers, 3u);
  EXPECT_EQ(d.row_pitch, 128u);  // align_up(10 * 8, kArrayRowAlign)
  EXPECT_EQ(d.flags, strata::hw::kFlagNormalizedCoords);
  EXPECT_EQ(d.address_mode[0], strata::hw::kAddressBorder);
  EXPECT_EQ(d.filter_mode, strata::hw::kFilterLinear);
  EXPECT_EQ(d.max_anisotropy, 1);
  float border[4];
  std::memcpy(border, d.border_color, sizeof(border));
  EXPECT_EQ(border[0], 0.5f);
  EXPECT_EQ(border[3], -2.0f);
  EXPECT_EQ(cuTexObjectDestroy(tex), CUDA_SUCCESS);
  EXPECT_EQ(cuTexObjectDestroy(tex), CUDA_ERROR_INVALID_VALUE);

  // Without normalized coordinates, wrap and mirror are stored as clamp; integers read
  // as integers get an integer border colour.
  ad.Format = CU_AD_FORMAT_SIGNED_INT16;
  CUarray b;
  ASSERT_EQ(cuArray3DCreate(&b, &ad), CUDA_SUCCESS);
  r = array_resource(b);
  t = sampler(CU_TR_ADDRESS_MODE_WRAP, CU_TR_FILTER_MODE_POINT, CU_TRSF_READ_AS_INTEGER);
  t.addressMode[1] = CU_TR_ADDRESS_MODE_MIRROR;
  t.addressMode[2] = CU_TR_ADDRESS_MODE_BORDER;
  t.borderColor[0] = -7.0f;
  ASSERT_EQ(cuTexObjectCreate(&tex, &r, &t, nullptr), CUDA_SUCCESS);
  d = read(tex);
  EXPECT_EQ(d.format, strata::hw::kFormatS16);
  EXPECT_EQ(d.flags, strata::hw::kFlagReadAsInteger);
  EXPECT_EQ(d.address_mode[0], strata::hw::kAddressClamp);
  EXPECT_EQ(d.address_mode[1], strata::hw::kAddressClamp);
  EXPECT_EQ(d.address_mode[2], strata::hw::kAddressBorder);
  EXPECT_EQ(static_cast<int32_t>(d.border_color[0]), -7);
  // The getter returns the modes as given.
  CUDA_TEXTURE_DESC got{};
  ASSERT_EQ(cuTexObjectGetTextureDesc(&got, tex), CUDA_SUCCESS);
  EXPECT_EQ(got.addressMode[0], CU_TR_ADDRESS_MODE_WRAP);
  EXPECT_EQ(got.addressMode[1], CU_TR_ADDRESS_MODE_MIRROR);
  // Linear filtering of integers read as integers is rejected.
  t.filterMode = CU_TR_FILTER_MODE_LINEAR;
  CUtexObject bad;
  EXPECT_EQ(cuTexObjectCreate(&bad, &r, &t, nullptr), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuTexObjectDestroy(tex), CUDA_SUCCESS);
  EXPECT_EQ(cuArrayDestroy(a), CUDA_SUCCESS);
  EXPECT_EQ(cuArrayDestroy(b), CUDA_SUCCESS);
}

TEST_F(TextureObjects, LinearAndPitch2D) {
  CUdeviceptr mem;
  ASSERT_EQ(cuMemAlloc(&mem, 4096), CUDA_SUCCESS);
  CUDA_RESOURCE_DESC r{};
  r.resType = CU_RESOURCE_TYPE_LINEAR;
  r.res.linear.devPtr = mem;
  r.res.linear.format = CU_AD_FORMAT_UNSIGNED_INT8;
  r.res.linear.numChannels = 4;
  r.res.linear.sizeInBytes = 4000;
  CUDA_TEXTURE_DESC t = sampler(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_LINEAR, 0);
  CUtexObject tex;
  ASSERT_EQ(cuTexObjectCreate(&tex, &r, &t, nullptr), CUDA_SUCCESS);
  TextureDescriptor d = read(tex);
  EXPECT_EQ(d.kind, strata::hw::kKindBuffer);
  EXPECT_EQ(d.format, strata::hw::kFormatU8);
  EXPECT_EQ(d.channels, 4);
  EXPECT_EQ(d.base_va, mem);
  EXPECT_EQ(d.width, 1000u);
  EXPECT_EQ(d.height, 1u);
  EXPECT_EQ(d.filter_mode, strata::hw::kFilterPoint);  // buffers are never filtered
  EXPECT_EQ(cuTexObjectDestroy(tex), CUDA_SUCCESS);
  // Past the allocation's end.
  r.res.linear.sizeInBytes = 8192;
  EXPECT_EQ(cuTexObjectCreate(&tex, &r, &t, nullptr), CUDA_ERROR_INVALID_VALUE);
  // A resource view of linear memory is not honoured.
  r.res.linear.sizeInBytes = 4000;
  CUDA_RESOURCE_VIEW_DESC view{};
  view.format = CU_RES_VIEW_FORMAT_UINT_4X8;
  view.width = 1000;
  EXPECT_EQ(cuTexObjectCreate(&tex, &r, &t, &view), CUDA_ERROR_NOT_SUPPORTED);

  CUDA_RESOURCE_DESC p{};
  p.resType = CU_RESOURCE_TYPE_PITCH2D;
  p.res.pitch2D.devPtr = mem;
  p.res.pitch2D.format = CU_AD_FORMAT_HALF;
  p.res.pitch2D.numChannels = 1;
  p.res.pitch2D.width = 30;
  p.res.pitch2D.height = 10;
  p.res.pitch2D.pitchInBytes = 64;
  ASSERT_EQ(cuTexObjectCreate(&tex, &p, &t, nullptr), CUDA_SUCCESS);
  d = read(tex);
  EXPECT_EQ(d.kind, strata::hw::kKind2D);
  EXPECT_EQ(d.format, strata::hw::kFormatF16);
  EXPECT_EQ(d.row_pitch, 64u);
  EXPECT_EQ(d.width, 30u);
  EXPECT_EQ(d.height, 10u);
  EXPECT_EQ(d.filter_mode, strata::hw::kFilterLinear);
  EXPECT_EQ(cuTexObjectDestroy(tex), CUDA_SUCCESS);
  p.res.pitch2D.pitchInBytes = 48;  // not a multiple of the texture pitch alignment
  EXPECT_EQ(cuTexObjectCreate(&tex, &p, &t, nullptr), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuMemFree(mem), CUDA_SUCCESS);
}

TEST_F(TextureObjects, MipmappedLevelsCubemapsAndSurfaces) {
  CUDA_ARRAY3D_DESCRIPTOR ad{};
  ad.Width = 20;
  ad.Height = 12;
  ad.Depth = 9;
  ad.Format = CU_AD_FORMAT_UNSIGNED_INT16;
  ad.NumChannels = 4;
  ad.Flags = CUDA_ARRAY3D_SURFACE_LDST;
  CUmipmappedArray m;
  ASSERT_EQ(cuMipmappedArrayCreate(&m, &ad, 4), CUDA_SUCCESS);
  CUDA_RESOURCE_DESC r{};
  r.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
  r.res.mipmap.hMipmappedArray = m;
  CUDA_TEXTURE_DESC t =
      sampler(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_LINEAR, CU_TRSF_NORMALIZED_COORDINATES);
  t.mipmapFilterMode = CU_TR_FILTER_MODE_LINEAR;
  t.maxMipmapLevelClamp = 3.0f;
  CUtexObject mip_tex;
  ASSERT_EQ(cuTexObjectCreate(&mip_tex, &r, &t, nullptr), CUDA_SUCCESS);
  TextureDescriptor md = read(mip_tex);
  EXPECT_EQ(md.kind, strata::hw::kKind3D);
  EXPECT_EQ(md.levels, 4);
  EXPECT_EQ(md.width, 20u);
  EXPECT_EQ(md.height, 12u);
  EXPECT_EQ(md.depth, 9u);
  EXPECT_EQ(md.row_pitch, 256u);  // align_up(20 * 8, 128)
  EXPECT_EQ(md.mip_filter_mode, strata::hw::kFilterLinear);
  EXPECT_EQ(md.max_mip_clamp, 3.0f);

  // A texture and a surface on level 2: a one-level resource at the level's offset.
  CUarray level;
  ASSERT_EQ(cuMipmappedArrayGetLevel(&level, m, 2), CUDA_SUCCESS);
  CUDA_RESOURCE_DESC lr = array_resource(level);
  CUtexObject level_tex;
  ASSERT_EQ(cuTexObjectCreate(&level_tex, &lr, &t, nullptr), CUDA_SUCCESS);
  TextureDescriptor ld = read(level_tex);
  const strata::hw::ArrayLevelLayout l2 = strata::hw::array_level_layout(20, 12, 9, 1, 8, 2);
  EXPECT_EQ(ld.levels, 1);
  EXPECT_EQ(ld.width, 5u);
  EXPECT_EQ(ld.height, 3u);
  EXPECT_EQ(ld.depth, 2u);
  EXPECT_EQ(ld.base_va, md.base_va + l2.offset);
  EXPECT_EQ(ld.row_pitch, l2.row_pitch);
  CUsurfObject surf;
  ASSERT_EQ(cuSurfObjectCreate(&surf, &lr), CUDA_SUCCESS);
  TextureDescriptor sd = read(surf);
  EXPECT_EQ(sd.flags, strata::hw::kFlagSurface);
  EXPECT_EQ(sd.base_va, ld.base_va);
  // Texture and surface handles are not interchangeable in the API.
  EXPECT_EQ(cuTexObjectDestroy(surf), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuSurfObjectDestroy(surf), CUDA_SUCCESS);
  // Surfaces need an array resource.
  EXPECT_EQ(cuSurfObjectCreate(&surf, &r), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuTexObjectDestroy(level_tex), CUDA_SUCCESS);
  EXPECT_EQ(cuTexObjectDestroy(mip_tex), CUDA_SUCCESS);
  EXPECT_EQ(cuMipmappedArrayDestroy(m), CUDA_SUCCESS);

  // Cubemaps: six layers of Width x Width.
  CUDA_ARRAY3D_DESCRIPTOR cd{};
  cd.Width = cd.Height = 8;
  cd.Depth = 6;
  cd.Format = CU_AD_FORMAT_FLOAT;
  cd.NumChannels = 1;
  cd.Flags = CUDA_ARRAY3D_CUBEMAP;
  CUarray cube;
  ASSERT_EQ(cuArray3DCreate(&cube, &cd), CUDA_SUCCESS);
  CUDA_RESOURCE_DESC cr = array_resource(cube);
  CUtexObject cube_tex;
  ASSERT_EQ(cuTexObjectCreate(&cube_tex, &cr, &t, nullptr), CUDA_SUCCESS);
  TextureDescriptor cdsc = read(cube_tex);
  EXPECT_EQ(cdsc.kind, strata::hw::kKindCube);
  EXPECT_EQ(cdsc.layers, 6u);
  EXPECT_EQ(cdsc.depth, 1u);
  EXPECT_EQ(cuTexObjectDestroy(cube_tex), CUDA_SUCCESS);
  // Not created with CUDA_ARRAY3D_SURFACE_LDST.
  EXPECT_EQ(cuSurfObjectCreate(&surf, &cr), CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(cuArrayDestroy(cube), CUDA_SUCCESS);
}

// cuGetProcAddress finds the array, copy and object entry points under the variants
// cuda.h binds.
TEST_F(TextureObjects, ProcAddresses) {
  void* fn = nullptr;
  CUdriverProcAddressQueryResult status;
  ASSERT_EQ(cuGetProcAddress("cuArray3DCreate", &fn, 13000, 0, &status), CUDA_SUCCESS);
  EXPECT_EQ(fn, reinterpret_cast<void*>(&cuArray3DCreate_v2));
  ASSERT_EQ(cuGetProcAddress("cuMemcpy3D", &fn, 13000, 0, &status), CUDA_SUCCESS);
  EXPECT_EQ(fn, reinterpret_cast<void*>(&cuMemcpy3D_v2));
  ASSERT_EQ(cuGetProcAddress("cuMemcpy3D", &fn, 13000,
                             CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &status),
            CUDA_SUCCESS);
  EXPECT_NE(fn, reinterpret_cast<void*>(&cuMemcpy3D_v2));
  ASSERT_EQ(cuGetProcAddress("cuTexObjectCreate", &fn, 13000, 0, &status), CUDA_SUCCESS);
  EXPECT_EQ(fn, reinterpret_cast<void*>(&cuTexObjectCreate));
  ASSERT_EQ(cuGetProcAddress("cuMemcpyAtoHAsync", &fn, 13000, 0, &status), CUDA_SUCCESS);
  EXPECT_EQ(fn, reinterpret_cast<void*>(&cuMemcpyAtoHAsync_v2));
}

// Destroying a context destroys its arrays and texture objects.
TEST_F(TextureObjects, ContextDestroyReleasesObjects) {
  CUcontext ctx;
  ASSERT_EQ(cuCtxCreate(&ctx, nullptr, 0, 0), CUDA_SUCCESS);
  CUDA_ARRAY3D_DESCRIPTOR ad{};
  ad.Width = 16;
  ad.Format = CU_AD_FORMAT_FLOAT;
  ad.NumChannels = 1;
  CUarray a;
  ASSERT_EQ(cuArray3DCreate(&a, &ad), CUDA_SUCCESS);
  CUmipmappedArray m;
  ASSERT_EQ(cuMipmappedArrayCreate(&m, &ad, 3), CUDA_SUCCESS);
  CUDA_RESOURCE_DESC r = array_resource(a);
  CUDA_TEXTURE_DESC t = sampler(CU_TR_ADDRESS_MODE_CLAMP, CU_TR_FILTER_MODE_POINT, 0);
  CUtexObject tex;
  ASSERT_EQ(cuTexObjectCreate(&tex, &r, &t, nullptr), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxDestroy(ctx), CUDA_SUCCESS);
  CUDA_ARRAY3D_DESCRIPTOR got{};
  EXPECT_EQ(cuArray3DGetDescriptor(&got, a), CUDA_ERROR_INVALID_HANDLE);
  CUarray level;
  EXPECT_EQ(cuMipmappedArrayGetLevel(&level, m, 0), CUDA_ERROR_INVALID_HANDLE);
  CUDA_RESOURCE_DESC got_res{};
  EXPECT_EQ(cuTexObjectGetResourceDesc(&got_res, tex), CUDA_ERROR_INVALID_VALUE);
}

}  // namespace
