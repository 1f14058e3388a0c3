// Every thread of a 3-D grid of 3-D blocks writes its coordinates; a 2-D launch too.
#include <vector>

#include "test_check.h"

__global__ void coords3d(int4* out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < nx && y < ny && z < nz) {
    int linear_block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    out[(z * ny + y) * nx + x] = make_int4(x, y, z, linear_block);
  }
}

__global__ void coords2d(int* out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) out[y * width + x] = x * 1000 + y;
}

int main() {
  const int nx = 19, ny = 13, nz = 7;
  dim3 block(4, 4, 2);
  dim3 grid((nx + 3) / 4, (ny + 3) / 4, (nz + 1) / 2);
  int4* d3;
  CHECK_CUDA(cudaMalloc(&d3, nx * ny * nz * sizeof(int4)));
  CHECK_CUDA(cudaMemset(d3, 0xff, nx * ny * nz * sizeof(int4)));
  coords3d<<<grid, block>>>(d3, nx, ny, nz);
  CHECK_CUDA(cudaGetLastError());
  std::vector<int4> out3(nx * ny * nz);
  CHECK_CUDA(cudaMemcpy(out3.data(), d3, out3.size() * sizeof(int4), cudaMemcpyDeviceToHost));
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        int4 v = out3[(z * ny + y) * nx + x];
        int block_id = ((z / 2) * grid.y + y / 4) * grid.x + x / 4;
        EXPECT_TRUE(v.x == x && v.y == y && v.z == z && v.w == block_id,
                    "(%d,%d,%d) got (%d,%d,%d,%d)", x, y, z, v.x, v.y, v.z, v.w);
      }
  const int width = 100, height = 37;
  int* d2;
  CHECK_CUDA(cudaMalloc(&d2, width * height * sizeof(int)));
  coords2d<<<dim3((width + 15) / 16, (height + 7) / 8), dim3(16, 8)>>>(d2, width, height);
  CHECK_CUDA(cudaGetLastError());
  std::vector<int> out2(width * height);
  CHECK_CUDA(cudaMemcpy(out2.data(), d2, out2.size() * sizeof(int), cudaMemcpyDeviceToHost));
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      EXPECT_TRUE(out2[y * width + x] == x * 1000 + y, "(%d,%d) got %d", x, y,
                  out2[y * width + x]);
  CHECK_CUDA(cudaFree(d3));
  CHECK_CUDA(cudaFree(d2));
  std::printf("PASS grid_2d_3d\n");
  return 0;
}
