// Surface objects: surf1Dwrite/read, surf2Dwrite/read, surf3Dwrite/read,
// surf1DLayered and surf2DLayered write/read on arrays created with
// cudaArraySurfaceLoadStore, checked by copying the arrays back to the host (and by
// reading host-written arrays through surfaces); the boundary modes zero and clamp for
// out-of-range reads (x in bytes, as CUDA's surface functions take it).
#include <cuda_runtime.h>

#include <cstring>
#include <vector>

#include "test_check.h"

__device__ float value(int layer, int x, int y, int z) {
  return layer * 100000.0f + z * 1000.0f + y * 50.0f + x;
}
static float host_value(int layer, int x, int y, int z) {
  return layer * 100000.0f + z * 1000.0f + y * 50.0f + x;
}

__global__ void write_2d(cudaSurfaceObject_t s, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h) surf2Dwrite(value(0, x, y, 0), s, x * 4, y);
}
// out[y][x] = surface(x, y) + 0.5, read back through the surface.
__global__ void read_2d(cudaSurfaceObject_t s, float* out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h) out[y * w + x] = surf2Dread<float>(s, x * 4, y) + 0.5f;
}
__global__ void read_out_of_range(cudaSurfaceObject_t s, float* out, int w, int h) {
  out[0] = surf2Dread<float>(s, (w + 3) * 4, 1, cudaBoundaryModeZero);
  out[1] = surf2Dread<float>(s, -8, h + 2, cudaBoundaryModeZero);
  out[2] = surf2Dread<float>(s, (w + 3) * 4, 1, cudaBoundaryModeClamp);
  out[3] = surf2Dread<float>(s, 2 * 4, h + 5, cudaBoundaryModeClamp);
}
__global__ void write_1d(cudaSurfaceObject_t s, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < w) surf1Dwrite(make_uchar4(x, x * 2, 255 - x, 7), s, x * 4);
}
__global__ void write_3d(cudaSurfaceObject_t s, int w, int h, int d) {
  int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
  if (x < w && y < h && z < d) surf3Dwrite(value(0, x, y, z), s, x * 4, y, z);
}
__global__ void copy_3d(cudaSurfaceObject_t from, float* out, int w, int h, int d) {
  int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
  if (x < w && y < h && z < d) out[(z * h + y) * w + x] = surf3Dread<float>(from, x * 4, y, z);
}
__global__ void write_2d_layered(cudaSurfaceObject_t s, int w, int h, int layers) {
  int x = threadIdx.x, y = blockIdx.x, l = blockIdx.y;
  if (x < w && y < h && l < layers) surf2DLayeredwrite(value(l, x, y, 0), s, x * 4, y, l);
}
__global__ void read_2d_layered(cudaSurfaceObject_t s, float* out, int w, int h, int layers) {
  int x = threadIdx.x, y = blockIdx.x, l = blockIdx.y;
  if (x < w && y < h && l < layers)
    out[(l * h + y) * w + x] = surf2DLayeredread<float>(s, x * 4, y, l);
}
__global__ void write_1d_layered(cudaSurfaceObject_t s, int w, int layers) {
  int x = threadIdx.x, l = blockIdx.x;
  if (x < w && l < layers) surf1DLayeredwrite(make_short2(x, -l), s, x * 4, l);
}

static cudaSurfaceObject_t make_surface(cudaArray_t array) {
  cudaResourceDesc res;
  std::memset(&res, 0, sizeof(res));
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaSurfaceObject_t s = 0;
  CHECK_CUDA(cudaCreateSurfaceObject(&s, &res));
  return s;
}

int main() {
  cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>();

  // --- 2D: kernel writes, host reads; host writes, kernel reads ---------------------------
  const int W = 37, H = 11;
  cudaArray_t a2;
  CHECK_CUDA(cudaMallocArray(&a2, &f1, W, H, cudaArraySurfaceLoadStore));
  cudaSurfaceObject_t s2 = make_surface(a2);
  write_2d<<<dim3(1, H), 64>>>(s2, W, H);
  CHECK_CUDA(cudaGetLastError());
  std::vector<float> back(W * H, 0.0f);
  CHECK_CUDA(cudaMemcpy2DFromArray(back.data(), W * 4, a2, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      EXPECT_TRUE(back[y * W + x] == host_value(0, x, y, 0), "surf2Dwrite (%d,%d) = %f", x, y,
                  back[y * W + x]);
  std::vector<float> host(W * H);
  for (int i = 0; i < W * H; ++i) host[i] = -1.0f * i;
  CHECK_CUDA(cudaMemcpy2DToArray(a2, 0, 0, host.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
  float* d_out = nullptr;
  CHECK_CUDA(cudaMalloc(&d_out, W * H * 4 * sizeof(float)));
  read_2d<<<dim3(1, H), 64>>>(s2, d_out, W, H);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaMemcpy(back.data(), d_out, W * H * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < W * H; ++i)
    EXPECT_TRUE(back[i] == host[i] + 0.5f, "surf2Dread %d = %f, want %f", i, back[i],
                host[i] + 0.5f);
  read_out_of_range<<<1, 1>>>(s2, d_out, W, H);
  CHECK_CUDA(cudaGetLastError());
  float oob[4];
  CHECK_CUDA(cudaMemcpy(oob, d_out, sizeof(oob), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(oob[0] == 0.0f && oob[1] == 0.0f, "boundary zero: %f %f", oob[0], oob[1]);
  EXPECT_TRUE(oob[2] == host[1 * W + W - 1], "boundary clamp x: %f, want %f", oob[2],
              host[1 * W + W - 1]);
  EXPECT_TRUE(oob[3] == host[(H - 1) * W + 2], "boundary clamp y: %f, want %f", oob[3],
              host[(H - 1) * W + 2]);

  // --- 1D uchar4 --------------------------------------------------------------------------
  cudaChannelFormatDesc u4 = cudaCreateChannelDesc<uchar4>();
  cudaArray_t a1;
  CHECK_CUDA(cudaMallocArray(&a1, &u4, 100, 0, cudaArraySurfaceLoadStore));
  cudaSurfaceObject_t s1 = make_surface(a1);
  write_1d<<<1, 128>>>(s1, 100);
  CHECK_CUDA(cudaGetLastError());
  std::vector<uchar4> line(100);
  CHECK_CUDA(cudaMemcpyFromArray(line.data(), a1, 0, 0, 100 * 4, cudaMemcpyDeviceToHost));
  for (int x = 0; x < 100; ++x)
    EXPECT_TRUE(
        line[x].x == x && line[x].y == ((x * 2) & 0xff) && line[x].z == 255 - x && line[x].w == 7,
        "surf1Dwrite %d", x);

  // --- 3D: write through one surface, read through another ---------------------------------
  const int X = 9, Y = 5, Z = 4;
  cudaArray_t a3, b3;
  CHECK_CUDA(cudaMalloc3DArray(&a3, &f1, make_cudaExtent(X, Y, Z), cudaArraySurfaceLoadStore));
  CHECK_CUDA(cudaMalloc3DArray(&b3, &f1, make_cudaExtent(X, Y, Z), cudaArraySurfaceLoadStore));
  cudaSurfaceObject_t s3 = make_surface(a3);
  write_3d<<<dim3(Y, Z), 32>>>(s3, X, Y, Z);
  CHECK_CUDA(cudaGetLastError());
  std::vector<float> vol(X * Y * Z, 0.0f);
  cudaMemcpy3DParms p = {};
  p.srcArray = a3;
  p.dstPtr = make_cudaPitchedPtr(vol.data(), X * 4, X, Y);
  p.extent = make_cudaExtent(X, Y, Z);
  p.kind = cudaMemcpyDeviceToHost;
  CHECK_CUDA(cudaMemcpy3D(&p));
  for (int z = 0; z < Z; ++z)
    for (int y = 0; y < Y; ++y)
      for (int x = 0; x < X; ++x)
        EXPECT_TRUE(vol[(z * Y + y) * X + x] == host_value(0, x, y, z), "surf3Dwrite (%d,%d,%d)", x,
                    y, z);
  // Host -> b3 -> kernel surface read.
  for (float& v : vol) v = -v;
  p = {};
  p.srcPtr = make_cudaPitchedPtr(vol.data(), X * 4, X, Y);
  p.dstArray = b3;
  p.extent = make_cudaExtent(X, Y, Z);
  p.kind = cudaMemcpyHostToDevice;
  CHECK_CUDA(cudaMemcpy3D(&p));
  cudaSurfaceObject_t t3 = make_surface(b3);
  copy_3d<<<dim3(Y, Z), 32>>>(t3, d_out, X, Y, Z);
  CHECK_CUDA(cudaGetLastError());
  std::vector<float> read3(X * Y * Z);
  CHECK_CUDA(cudaMemcpy(read3.data(), d_out, read3.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < read3.size(); ++i)
    EXPECT_TRUE(read3[i] == vol[i], "surf3Dread %zu = %f, want %f", i, read3[i], vol[i]);

  // --- Layered ------------------------------------------------------------------------------
  const int LW = 12, LH = 6, L = 3;
  cudaArray_t al;
  CHECK_CUDA(cudaMalloc3DArray(&al, &f1, make_cudaExtent(LW, LH, L),
                               cudaArrayLayered | cudaArraySurfaceLoadStore));
  cudaSurfaceObject_t sl = make_surface(al);
  write_2d_layered<<<dim3(LH, L), 32>>>(sl, LW, LH, L);
  CHECK_CUDA(cudaGetLastError());
  std::vector<float> layers(LW * LH * L, 0.0f);
  p = {};
  p.srcArray = al;
  p.dstPtr = make_cudaPitchedPtr(layers.data(), LW * 4, LW, LH);
  p.extent = make_cudaExtent(LW, LH, L);
  p.kind = cudaMemcpyDeviceToHost;
  CHECK_CUDA(cudaMemcpy3D(&p));
  for (int l = 0; l < L; ++l)
    for (int y = 0; y < LH; ++y)
      for (int x = 0; x < LW; ++x)
        EXPECT_TRUE(layers[(l * LH + y) * LW + x] == host_value(l, x, y, 0),
                    "surf2DLayeredwrite (%d,%d) layer %d", x, y, l);
  read_2d_layered<<<dim3(LH, L), 32>>>(sl, d_out, LW, LH, L);
  CHECK_CUDA(cudaGetLastError());
  std::vector<float> lread(LW * LH * L);
  CHECK_CUDA(cudaMemcpy(lread.data(), d_out, lread.size() * sizeof(float), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(lread == layers, "surf2DLayeredread");

  cudaChannelFormatDesc s2d = cudaCreateChannelDesc<short2>();
  cudaArray_t a1l;
  CHECK_CUDA(cudaMalloc3DArray(&a1l, &s2d, make_cudaExtent(20, 0, 4),
                               cudaArrayLayered | cudaArraySurfaceLoadStore));
  cudaSurfaceObject_t s1l = make_surface(a1l);
  write_1d_layered<<<4, 32>>>(s1l, 20, 4);
  CHECK_CUDA(cudaGetLastError());
  std::vector<short2> l1(20 * 4);
  p = {};
  p.srcArray = a1l;
  p.dstPtr = make_cudaPitchedPtr(l1.data(), 20 * 4, 20, 1);
  p.extent = make_cudaExtent(20, 1, 4);
  p.kind = cudaMemcpyDeviceToHost;
  CHECK_CUDA(cudaMemcpy3D(&p));
  for (int l = 0; l < 4; ++l)
    for (int x = 0; x < 20; ++x)
      EXPECT_TRUE(l1[l * 20 + x].x == x && l1[l * 20 + x].y == -l, "surf1DLayeredwrite %d/%d", x,
                  l);

  for (cudaSurfaceObject_t s : {s2, s1, s3, t3, sl, s1l}) CHECK_CUDA(cudaDestroySurfaceObject(s));
  for (cudaArray_t a : {a2, a1, a3, b3, al, a1l}) CHECK_CUDA(cudaFreeArray(a));
  CHECK_CUDA(cudaFree(d_out));
  CHECK_CUDA(cudaDeviceSynchronize());
  std::printf("PASS surface_rw\n");
  return 0;
}
