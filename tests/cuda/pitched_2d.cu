// cudaMallocPitch, cudaMemcpy2D(+Async) in every direction, cudaMemset2D(+Async) and
// their argument errors, per the CUDA Runtime API documentation. Every expectation is
// computed on the host.
#include <cuda_runtime.h>

#include <cstring>
#include <vector>

#include "test_check.h"

// Adds row * 1000 + col to every element, addressing rows through the pitch.
__global__ void add_index(float* base, size_t pitch, int width, int height) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y;
  if (col >= width || row >= height) return;
  float* p = reinterpret_cast<float*>(reinterpret_cast<char*>(base) + row * pitch);
  p[col] += row * 1000.0f + col;
}

static float initial(int row, int col) {
  return row * 0.5f + col * 0.25f;
}

int main() {
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  const int width = 100, height = 37;  // 400-byte rows: never a multiple of the alignment
  const size_t row_bytes = width * sizeof(float);

  // --- cudaMallocPitch ---------------------------------------------------------------
  float* dev = nullptr;
  size_t pitch = 0;
  CHECK_CUDA(cudaMallocPitch(reinterpret_cast<void**>(&dev), &pitch, row_bytes, height));
  EXPECT_TRUE(dev != nullptr, "null allocation");
  EXPECT_TRUE(pitch >= row_bytes, "pitch %zu < width %zu", pitch, row_bytes);
  EXPECT_TRUE(pitch % prop.texturePitchAlignment == 0, "pitch %zu not aligned to %zu", pitch,
              prop.texturePitchAlignment);
  EXPECT_TRUE(pitch <= prop.memPitch, "pitch %zu above memPitch", pitch);

  // --- Host -> device (packed host rows), kernel, device -> host (padded host rows) ----
  std::vector<float> host(width * height);
  for (int r = 0; r < height; ++r)
    for (int c = 0; c < width; ++c) host[r * width + c] = initial(r, c);
  CHECK_CUDA(
      cudaMemcpy2D(dev, pitch, host.data(), row_bytes, row_bytes, height, cudaMemcpyHostToDevice));
  add_index<<<dim3(1, height), 128>>>(dev, pitch, width, height);
  CHECK_CUDA(cudaGetLastError());

  const int host_stride = width + 16;  // floats; the 16 padding floats must stay untouched
  const float sentinel = -12345.0f;
  std::vector<float> back(host_stride * height, sentinel);
  CHECK_CUDA(cudaMemcpy2D(back.data(), host_stride * sizeof(float), dev, pitch, row_bytes, height,
                          cudaMemcpyDeviceToHost));
  for (int r = 0; r < height; ++r) {
    for (int c = 0; c < host_stride; ++c) {
      float want = c < width ? initial(r, c) + r * 1000.0f + c : sentinel;
      EXPECT_TRUE(back[r * host_stride + c] == want, "D2H [%d][%d] = %f, expected %f", r, c,
                  back[r * host_stride + c], want);
    }
  }

  // --- Device -> device: a sub-rectangle (rows 2.., cols 3..) into a second allocation --
  const int sub_w = 40, sub_h = 20, r0 = 2, c0 = 3;
  float* dev2 = nullptr;
  size_t pitch2 = 0;
  CHECK_CUDA(
      cudaMallocPitch(reinterpret_cast<void**>(&dev2), &pitch2, sub_w * sizeof(float), sub_h));
  CHECK_CUDA(cudaMemset2D(dev2, pitch2, 0, sub_w * sizeof(float), sub_h));
  const char* src = reinterpret_cast<const char*>(dev) + r0 * pitch + c0 * sizeof(float);
  CHECK_CUDA(cudaMemcpy2D(dev2, pitch2, src, pitch, sub_w * sizeof(float), sub_h,
                          cudaMemcpyDeviceToDevice));
  std::vector<float> sub(sub_w * sub_h, sentinel);
  CHECK_CUDA(cudaMemcpy2D(sub.data(), sub_w * sizeof(float), dev2, pitch2, sub_w * sizeof(float),
                          sub_h, cudaMemcpyDeviceToHost));
  for (int r = 0; r < sub_h; ++r) {
    for (int c = 0; c < sub_w; ++c) {
      int R = r + r0, C = c + c0;
      float want = initial(R, C) + R * 1000.0f + C;
      EXPECT_TRUE(sub[r * sub_w + c] == want, "D2D [%d][%d] = %f, expected %f", r, c,
                  sub[r * sub_w + c], want);
    }
  }

  // --- cudaMemset2D on a column range, then the whole rows back as bytes ---------------
  const size_t set_bytes = row_bytes - 24;
  CHECK_CUDA(cudaMemset2D(dev, pitch, 0xAB, set_bytes, height));
  std::vector<unsigned char> bytes(row_bytes * height);
  std::vector<float> before(back);
  CHECK_CUDA(
      cudaMemcpy2D(bytes.data(), row_bytes, dev, pitch, row_bytes, height, cudaMemcpyDeviceToHost));
  for (int r = 0; r < height; ++r) {
    for (size_t b = 0; b < row_bytes; ++b) {
      unsigned char want = 0xAB;
      if (b >= set_bytes) {
        unsigned char prev[sizeof(float)];
        std::memcpy(prev, &before[r * host_stride + b / sizeof(float)], sizeof(float));
        want = prev[b % sizeof(float)];
      }
      EXPECT_TRUE(bytes[r * row_bytes + b] == want, "memset2D row %d byte %zu = %#x, expected %#x",
                  r, b, bytes[r * row_bytes + b], want);
    }
  }

  // --- Async variants on a stream, pinned host memory, cudaMemcpyDefault ---------------
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  float* pinned = nullptr;
  CHECK_CUDA(cudaMallocHost(reinterpret_cast<void**>(&pinned), row_bytes * height));
  for (int i = 0; i < width * height; ++i) pinned[i] = float(i);
  CHECK_CUDA(cudaMemset2DAsync(dev, pitch, 0, row_bytes, height, stream));
  CHECK_CUDA(cudaMemcpy2DAsync(dev, pitch, pinned, row_bytes, row_bytes / 2, height,
                               cudaMemcpyHostToDevice, stream));
  std::vector<float> pinned_want(width * height);
  for (int r = 0; r < height; ++r)
    for (int c = 0; c < width; ++c)
      pinned_want[r * width + c] = c < width / 2 ? float(r * width + c) : 0.0f;
  CHECK_CUDA(cudaStreamSynchronize(stream));
  CHECK_CUDA(cudaMemcpy2DAsync(pinned, row_bytes, dev, pitch, row_bytes, height, cudaMemcpyDefault,
                               stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  for (int i = 0; i < width * height; ++i) {
    EXPECT_TRUE(pinned[i] == pinned_want[i], "async [%d] = %f, expected %f", i, pinned[i],
                pinned_want[i]);
  }

  // --- Host -> host with pitches ------------------------------------------------------
  std::vector<int> a(8 * 5), b2(10 * 5, -1);
  for (int i = 0; i < 40; ++i) a[i] = i;
  CHECK_CUDA(cudaMemcpy2D(b2.data(), 10 * sizeof(int), a.data(), 8 * sizeof(int), 6 * sizeof(int),
                          5, cudaMemcpyHostToHost));
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 10; ++c)
      EXPECT_TRUE(b2[r * 10 + c] == (c < 6 ? r * 8 + c : -1), "H2H [%d][%d] = %d", r, c,
                  b2[r * 10 + c]);

  // --- Errors ---------------------------------------------------------------------------
  EXPECT_TRUE(cudaMemcpy2D(dev, 64, host.data(), row_bytes, 128, 2, cudaMemcpyHostToDevice) ==
                  cudaErrorInvalidPitchValue,
              "width > dpitch accepted");
  EXPECT_TRUE(cudaGetLastError() == cudaErrorInvalidPitchValue, "last error not recorded");
  EXPECT_TRUE(cudaMemcpy2D(dev, pitch, host.data(), 64, 128, 2, cudaMemcpyHostToDevice) ==
                  cudaErrorInvalidPitchValue,
              "width > spitch accepted");
  EXPECT_TRUE(cudaMemcpy2D(dev, pitch, host.data(), row_bytes, row_bytes, 2,
                           static_cast<cudaMemcpyKind>(17)) == cudaErrorInvalidMemcpyDirection,
              "bad kind accepted");
  EXPECT_TRUE(cudaMemcpy2DAsync(dev, 64, host.data(), row_bytes, 128, 2, cudaMemcpyHostToDevice,
                                stream) == cudaErrorInvalidPitchValue,
              "async width > dpitch");
  EXPECT_TRUE(cudaMallocPitch(nullptr, &pitch, 16, 16) == cudaErrorInvalidValue, "null devPtr");
  cudaGetLastError();
  // Errors are not sticky: the device still works.
  CHECK_CUDA(
      cudaMemcpy2D(dev, pitch, host.data(), row_bytes, row_bytes, height, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaDeviceSynchronize());

  CHECK_CUDA(cudaStreamDestroy(stream));
  CHECK_CUDA(cudaFreeHost(pinned));
  CHECK_CUDA(cudaFree(dev2));
  CHECK_CUDA(cudaFree(dev));
  std::printf("PASS pitched_2d\n");
  return 0;
}
