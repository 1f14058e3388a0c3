// Texture and surface objects through the runtime API, without sampling: creation from
// every resource type, the getters returning what was passed, and the documented
// validation (alignment, pitch, limits, filtering of integer reads, channel descriptors,
// surfaces on arrays without cudaArraySurfaceLoadStore).
#include <cuda_runtime.h>

#include <cstring>

#include "test_check.h"

#define EXPECT_ERROR(call, expected)                                                          \
  do {                                                                                        \
    cudaError_t e_ = (call);                                                                  \
    EXPECT_TRUE(e_ == (expected), "%s returned %s, expected %s", #call, cudaGetErrorName(e_), \
                cudaGetErrorName(expected));                                                  \
    (void)cudaGetLastError();                                                                 \
  } while (0)

static cudaTextureDesc point_desc() {
  cudaTextureDesc t;
  std::memset(&t, 0, sizeof(t));
  t.addressMode[0] = t.addressMode[1] = t.addressMode[2] = cudaAddressModeClamp;
  t.filterMode = cudaFilterModePoint;
  t.readMode = cudaReadModeElementType;
  return t;
}

int main() {
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));

  // --- An array texture and its getters ---------------------------------------------------
  cudaChannelFormatDesc f4 = cudaCreateChannelDesc<float4>();
  cudaArray_t array;
  CHECK_CUDA(cudaMallocArray(&array, &f4, 16, 8));
  cudaResourceDesc res;
  std::memset(&res, 0, sizeof(res));
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaTextureDesc t = point_desc();
  t.addressMode[0] = cudaAddressModeWrap;
  t.addressMode[1] = cudaAddressModeMirror;
  t.addressMode[2] = cudaAddressModeBorder;
  t.filterMode = cudaFilterModeLinear;
  t.normalizedCoords = 1;
  t.borderColor[0] = 0.25f;
  t.borderColor[3] = 1.0f;
  t.maxAnisotropy = 4;
  t.mipmapLevelBias = 0.5f;
  t.maxMipmapLevelClamp = 3.0f;
  cudaTextureObject_t tex = 0;
  CHECK_CUDA(cudaCreateTextureObject(&tex, &res, &t, nullptr));
  EXPECT_TRUE(tex != 0, "texture object 0");
  cudaResourceDesc got_res;
  CHECK_CUDA(cudaGetTextureObjectResourceDesc(&got_res, tex));
  EXPECT_TRUE(got_res.resType == cudaResourceTypeArray && got_res.res.array.array == array,
              "resource desc");
  cudaTextureDesc got;
  CHECK_CUDA(cudaGetTextureObjectTextureDesc(&got, tex));
  EXPECT_TRUE(got.addressMode[0] == cudaAddressModeWrap &&
                  got.addressMode[1] == cudaAddressModeMirror &&
                  got.addressMode[2] == cudaAddressModeBorder,
              "address modes %d %d %d", got.addressMode[0], got.addressMode[1], got.addressMode[2]);
  EXPECT_TRUE(got.filterMode == cudaFilterModeLinear && got.normalizedCoords == 1 &&
                  got.readMode == cudaReadModeElementType,
              "filter/normalized/read mode");
  EXPECT_TRUE(got.borderColor[0] == 0.25f && got.borderColor[3] == 1.0f, "border color");
  EXPECT_TRUE(
      got.maxAnisotropy == 4 && got.mipmapLevelBias == 0.5f && got.maxMipmapLevelClamp == 3.0f,
      "anisotropy/mip fields");
  // Created without a resource view: the view getter has nothing to return.
  cudaResourceViewDesc view;
  EXPECT_ERROR(cudaGetTextureObjectResourceViewDesc(&view, tex), cudaErrorInvalidValue);

  // The identity view of the array is accepted and returned.
  std::memset(&view, 0, sizeof(view));
  view.format = cudaResViewFormatFloat4;
  view.width = 16;
  view.height = 8;
  cudaTextureObject_t tex_view = 0;
  CHECK_CUDA(cudaCreateTextureObject(&tex_view, &res, &t, &view));
  EXPECT_TRUE(tex_view != tex, "two objects share a handle");
  cudaResourceViewDesc got_view;
  CHECK_CUDA(cudaGetTextureObjectResourceViewDesc(&got_view, tex_view));
  EXPECT_TRUE(
      got_view.format == cudaResViewFormatFloat4 && got_view.width == 16 && got_view.height == 8,
      "resource view");
  CHECK_CUDA(cudaDestroyTextureObject(tex_view));

  // --- Linear memory ---------------------------------------------------------------------
  int max_linear = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&max_linear, cudaDevAttrMaxTexture1DLinearWidth, 0));
  EXPECT_TRUE(max_linear > 0, "maxTexture1DLinear %d", max_linear);
  float* linear = nullptr;
  CHECK_CUDA(cudaMalloc(&linear, 1024 * sizeof(float)));
  std::memset(&res, 0, sizeof(res));
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = linear;
  res.res.linear.desc = cudaCreateChannelDesc<float>();
  res.res.linear.sizeInBytes = 1024 * sizeof(float);
  cudaTextureObject_t tex_linear = 0;
  CHECK_CUDA(cudaCreateTextureObject(&tex_linear, &res, &t, nullptr));
  CHECK_CUDA(cudaGetTextureObjectResourceDesc(&got_res, tex_linear));
  EXPECT_TRUE(got_res.resType == cudaResourceTypeLinear && got_res.res.linear.devPtr == linear &&
                  got_res.res.linear.sizeInBytes == 1024 * sizeof(float) &&
                  got_res.res.linear.desc.x == 32 && got_res.res.linear.desc.y == 0 &&
                  got_res.res.linear.desc.f == cudaChannelFormatKindFloat,
              "linear resource desc");
  CHECK_CUDA(cudaDestroyTextureObject(tex_linear));
  // devPtr must be aligned to textureAlignment.
  res.res.linear.devPtr = reinterpret_cast<char*>(linear) + 4;
  res.res.linear.sizeInBytes = 512;
  EXPECT_ERROR(cudaCreateTextureObject(&tex_linear, &res, &t, nullptr), cudaErrorInvalidValue);
  // At most maxTexture1DLinear elements.
  res.res.linear.devPtr = linear;
  res.res.linear.sizeInBytes = (static_cast<size_t>(max_linear) + 1) * sizeof(float);
  EXPECT_ERROR(cudaCreateTextureObject(&tex_linear, &res, &t, nullptr), cudaErrorInvalidValue);
  // A three-channel format has no texture format.
  res.res.linear.sizeInBytes = 1024 * sizeof(float);
  res.res.linear.desc = cudaCreateChannelDesc(32, 32, 32, 0, cudaChannelFormatKindFloat);
  EXPECT_ERROR(cudaCreateTextureObject(&tex_linear, &res, &t, nullptr),
               cudaErrorInvalidChannelDescriptor);

  // --- Filtering and read modes of integer data -------------------------------------------
  res.res.linear.desc = cudaCreateChannelDesc<uchar4>();
  cudaTextureDesc tl = point_desc();
  tl.filterMode = cudaFilterModeLinear;
  tl.readMode = cudaReadModeElementType;  // linear filtering needs float results
  EXPECT_ERROR(cudaCreateTextureObject(&tex_linear, &res, &tl, nullptr), cudaErrorInvalidValue);
  tl.readMode = cudaReadModeNormalizedFloat;
  CHECK_CUDA(cudaCreateTextureObject(&tex_linear, &res, &tl, nullptr));
  CHECK_CUDA(cudaDestroyTextureObject(tex_linear));
  res.res.linear.desc = cudaCreateChannelDesc<int>();
  cudaTextureDesc tn = point_desc();
  tn.readMode = cudaReadModeNormalizedFloat;  // only 8- and 16-bit integers normalize
  EXPECT_ERROR(cudaCreateTextureObject(&tex_linear, &res, &tn, nullptr), cudaErrorInvalidValue);

  // --- Pitched 2D memory ------------------------------------------------------------------
  float* pitched = nullptr;
  size_t pitch = 0;
  CHECK_CUDA(cudaMallocPitch(reinterpret_cast<void**>(&pitched), &pitch, 100 * sizeof(float), 20));
  std::memset(&res, 0, sizeof(res));
  res.resType = cudaResourceTypePitch2D;
  res.res.pitch2D.devPtr = pitched;
  res.res.pitch2D.desc = cudaCreateChannelDesc<float>();
  res.res.pitch2D.width = 100;
  res.res.pitch2D.height = 20;
  res.res.pitch2D.pitchInBytes = pitch;
  cudaTextureObject_t tex_pitch = 0;
  CHECK_CUDA(cudaCreateTextureObject(&tex_pitch, &res, &t, nullptr));
  CHECK_CUDA(cudaGetTextureObjectResourceDesc(&got_res, tex_pitch));
  EXPECT_TRUE(got_res.resType == cudaResourceTypePitch2D && got_res.res.pitch2D.width == 100 &&
                  got_res.res.pitch2D.height == 20 && got_res.res.pitch2D.pitchInBytes == pitch,
              "pitch2D resource desc");
  CHECK_CUDA(cudaDestroyTextureObject(tex_pitch));
  res.res.pitch2D.pitchInBytes = pitch - prop.texturePitchAlignment / 2;
  EXPECT_ERROR(cudaCreateTextureObject(&tex_pitch, &res, &t, nullptr), cudaErrorInvalidValue);
  res.res.pitch2D.pitchInBytes = pitch;
  res.res.pitch2D.devPtr = reinterpret_cast<char*>(pitched) + 16;
  EXPECT_ERROR(cudaCreateTextureObject(&tex_pitch, &res, &t, nullptr), cudaErrorInvalidValue);

  // --- Mipmapped arrays --------------------------------------------------------------------
  cudaMipmappedArray_t mip;
  CHECK_CUDA(cudaMallocMipmappedArray(&mip, &f4, make_cudaExtent(32, 32, 0), 6));
  std::memset(&res, 0, sizeof(res));
  res.resType = cudaResourceTypeMipmappedArray;
  res.res.mipmap.mipmap = mip;
  cudaTextureObject_t tex_mip = 0;
  CHECK_CUDA(cudaCreateTextureObject(&tex_mip, &res, &t, nullptr));
  CHECK_CUDA(cudaGetTextureObjectResourceDesc(&got_res, tex_mip));
  EXPECT_TRUE(got_res.resType == cudaResourceTypeMipmappedArray && got_res.res.mipmap.mipmap == mip,
              "mipmapped resource desc");
  CHECK_CUDA(cudaDestroyTextureObject(tex_mip));

  // --- Surfaces ---------------------------------------------------------------------------
  std::memset(&res, 0, sizeof(res));
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;  // created without cudaArraySurfaceLoadStore
  cudaSurfaceObject_t surf = 0;
  EXPECT_ERROR(cudaCreateSurfaceObject(&surf, &res), cudaErrorInvalidValue);
  cudaArray_t surf_array;
  CHECK_CUDA(cudaMallocArray(&surf_array, &f4, 16, 8, cudaArraySurfaceLoadStore));
  res.res.array.array = surf_array;
  CHECK_CUDA(cudaCreateSurfaceObject(&surf, &res));
  EXPECT_TRUE(surf != 0, "surface object 0");
  CHECK_CUDA(cudaGetSurfaceObjectResourceDesc(&got_res, surf));
  EXPECT_TRUE(got_res.resType == cudaResourceTypeArray && got_res.res.array.array == surf_array,
              "surface resource desc");
  std::memset(&res, 0, sizeof(res));
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = linear;
  res.res.linear.desc = cudaCreateChannelDesc<float>();
  res.res.linear.sizeInBytes = 1024 * sizeof(float);
  cudaSurfaceObject_t surf_linear = 0;
  EXPECT_ERROR(cudaCreateSurfaceObject(&surf_linear, &res), cudaErrorInvalidValue);

  CHECK_CUDA(cudaDestroySurfaceObject(surf));
  CHECK_CUDA(cudaDestroyTextureObject(tex));
  CHECK_CUDA(cudaFreeMipmappedArray(mip));
  CHECK_CUDA(cudaFreeArray(array));
  CHECK_CUDA(cudaFreeArray(surf_array));
  CHECK_CUDA(cudaFree(linear));
  CHECK_CUDA(cudaFree(pitched));
  CHECK_CUDA(cudaDeviceSynchronize());
  std::printf("PASS texture_objects\n");
  return 0;
}
