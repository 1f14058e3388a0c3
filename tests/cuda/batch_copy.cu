// cudaMemcpyBatchAsync and cudaMemcpy3DBatchAsync (CUDA 12.8+/13 forms), against the
// CUDA Runtime API documentation: copies of every direction in one batch with per-range
// attributes, CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL sources read before the call
// returns, 3D copies between pitched pointers and CUDA arrays, and the argument errors
// (legacy NULL stream, attrsIdxs rules, access orders, empty extents). Built twice: with
// the legacy default stream and with --default-stream per-thread (NULL = per-thread
// stream, which may take a batch).
#include <cuda_runtime.h>

#include <cstring>
#include <vector>

#include "test_check.h"

#define EXPECT_ERROR(call, expected)                                          \
  do {                                                                        \
    cudaError_t expect_error_ = (call);                                       \
    EXPECT_TRUE(expect_error_ == (expected), "%s: got %s, want %s", #call,    \
                cudaGetErrorName(expect_error_), cudaGetErrorName(expected)); \
    (void)cudaGetLastError();                                                 \
  } while (0)

static cudaMemcpyAttributes attributes(cudaMemcpySrcAccessOrder order) {
  cudaMemcpyAttributes a;
  std::memset(&a, 0, sizeof a);
  a.srcAccessOrder = order;
  return a;
}

static void check_batch(cudaStream_t stream) {
  const size_t n = 1000;
  std::vector<int> host(n), back(n, -1), back2(n, -1);
  for (size_t i = 0; i < n; ++i) host[i] = int(i * 7 + 3);
  int *d1 = nullptr, *d2 = nullptr;
  CHECK_CUDA(cudaMalloc(&d1, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d2, n * sizeof(int)));

  // Batch 1: host -> d1 (stream order).
  void* dsts1[] = {d1};
  const void* srcs1[] = {host.data()};
  size_t sizes1[] = {n * sizeof(int)};
  cudaMemcpyAttributes attrs1[] = {attributes(cudaMemcpySrcAccessOrderStream)};
  size_t idx1[] = {0};
  CHECK_CUDA(cudaMemcpyBatchAsync(dsts1, srcs1, sizes1, 1, attrs1, idx1, 1, stream));
  // Batch 2 (after batch 1 in stream order): d1 -> d2 in two halves, then d1 -> back,
  // with two attribute ranges {0, 2}; a zero-sized copy is allowed.
  void* dsts2[] = {d2, d2 + n / 2, back.data(), back2.data()};
  const void* srcs2[] = {d1, d1 + n / 2, d1, d1};
  size_t sizes2[] = {n / 2 * sizeof(int), n / 2 * sizeof(int), n * sizeof(int), 0};
  cudaMemcpyAttributes attrs2[] = {attributes(cudaMemcpySrcAccessOrderStream),
                                   attributes(cudaMemcpySrcAccessOrderAny)};
  attrs2[1].flags = cudaMemcpyFlagPreferOverlapWithCompute;
  size_t idx2[] = {0, 2};
  CHECK_CUDA(cudaMemcpyBatchAsync(dsts2, srcs2, sizes2, 4, attrs2, idx2, 2, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  CHECK_CUDA(cudaMemcpy(back2.data(), d2, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < n; ++i) {
    EXPECT_TRUE(back[i] == host[i] && back2[i] == host[i], "element %zu: %d %d, want %d", i,
                back[i], back2[i], host[i]);
  }

  // A source read during the call: a stack buffer overwritten right after the call.
  {
    int ephemeral[4] = {11, 22, 33, 44};
    void* dsts[] = {d1};
    const void* srcs[] = {ephemeral};
    size_t sizes[] = {sizeof ephemeral};
    cudaMemcpyAttributes attrs[] = {attributes(cudaMemcpySrcAccessOrderDuringApiCall)};
    size_t idx[] = {0};
    CHECK_CUDA(cudaMemcpyBatchAsync(dsts, srcs, sizes, 1, attrs, idx, 1, stream));
    std::memset(ephemeral, 0, sizeof ephemeral);
    CHECK_CUDA(cudaStreamSynchronize(stream));
    int got[4];
    CHECK_CUDA(cudaMemcpy(got, d1, sizeof got, cudaMemcpyDeviceToHost));
    EXPECT_TRUE(got[0] == 11 && got[3] == 44, "ephemeral source: %d %d", got[0], got[3]);
  }

  // Argument errors.
  size_t bad_idx[] = {1};
  EXPECT_ERROR(cudaMemcpyBatchAsync(dsts1, srcs1, sizes1, 1, attrs1, bad_idx, 1, stream),
               cudaErrorInvalidValue);
  size_t unordered[] = {0, 0};
  EXPECT_ERROR(cudaMemcpyBatchAsync(dsts2, srcs2, sizes2, 4, attrs2, unordered, 2, stream),
               cudaErrorInvalidValue);
  EXPECT_ERROR(cudaMemcpyBatchAsync(dsts1, srcs1, sizes1, 1, attrs1, idx1, 2, stream),
               cudaErrorInvalidValue);  // numAttrs > count
  cudaMemcpyAttributes invalid[] = {attributes(cudaMemcpySrcAccessOrderInvalid)};
  EXPECT_ERROR(cudaMemcpyBatchAsync(dsts1, srcs1, sizes1, 1, invalid, idx1, 1, stream),
               cudaErrorInvalidValue);
  EXPECT_ERROR(cudaMemcpyBatchAsync(dsts1, srcs1, sizes1, 0, attrs1, idx1, 1, stream),
               cudaErrorInvalidValue);
  EXPECT_ERROR(cudaMemcpyBatchAsync(dsts1, srcs1, sizes1, 1, attrs1, idx1, 1, cudaStreamLegacy),
               cudaErrorInvalidValue);
  CHECK_CUDA(cudaFree(d1));
  CHECK_CUDA(cudaFree(d2));
}

static void check_batch_3d(cudaStream_t stream) {
  // A 5 x 4 x 3 box of floats out of a 8 x 6 x 4 host volume into a pitched device
  // volume, through a 2D layered-free CUDA array, and back to the host.
  const size_t W = 8, H = 6, D = 4, w = 5, h = 4, d = 3;
  std::vector<float> volume(W * H * D);
  for (size_t i = 0; i < volume.size(); ++i) volume[i] = float(i) * 0.5f;
  cudaPitchedPtr dev;
  CHECK_CUDA(cudaMalloc3D(&dev, make_cudaExtent(w * sizeof(float), h, d)));
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t array = nullptr;
  CHECK_CUDA(cudaMalloc3DArray(&array, &desc, make_cudaExtent(w, h, d)));
  std::vector<float> out(w * h * d, -1.0f);

  cudaMemcpy3DBatchOp ops[3];
  std::memset(ops, 0, sizeof ops);
  // host (offset (1, 1, 1)) -> pitched device memory; element size 1: byte extents.
  ops[0].src.type = cudaMemcpyOperandTypePointer;
  ops[0].src.op.ptr.ptr = volume.data() + (1 * H + 1) * W + 1;
  ops[0].src.op.ptr.rowLength = W * sizeof(float);
  ops[0].src.op.ptr.layerHeight = H;
  ops[0].dst.type = cudaMemcpyOperandTypePointer;
  ops[0].dst.op.ptr.ptr = dev.ptr;
  ops[0].dst.op.ptr.rowLength = dev.pitch;
  ops[0].dst.op.ptr.layerHeight = h;
  ops[0].extent = make_cudaExtent(w * sizeof(float), h, d);
  ops[0].srcAccessOrder = cudaMemcpySrcAccessOrderStream;
  // device memory -> array: elements are the array's (4 bytes).
  ops[1].src.type = cudaMemcpyOperandTypePointer;
  ops[1].src.op.ptr.ptr = dev.ptr;
  ops[1].src.op.ptr.rowLength = dev.pitch / sizeof(float);
  ops[1].src.op.ptr.layerHeight = h;
  ops[1].dst.type = cudaMemcpyOperandTypeArray;
  ops[1].dst.op.array.array = array;
  ops[1].extent = make_cudaExtent(w, h, d);
  ops[1].srcAccessOrder = cudaMemcpySrcAccessOrderStream;
  // array -> host, tightly packed (rowLength / layerHeight 0: the extent).
  ops[2].src.type = cudaMemcpyOperandTypeArray;
  ops[2].src.op.array.array = array;
  ops[2].dst.type = cudaMemcpyOperandTypePointer;
  ops[2].dst.op.ptr.ptr = out.data();
  ops[2].extent = make_cudaExtent(w, h, d);
  ops[2].srcAccessOrder = cudaMemcpySrcAccessOrderStream;
  CHECK_CUDA(cudaMemcpy3DBatchAsync(3, ops, 0, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  for (size_t z = 0; z < d; ++z)
    for (size_t y = 0; y < h; ++y)
      for (size_t x = 0; x < w; ++x) {
        float want = volume[((z + 1) * H + (y + 1)) * W + (x + 1)];
        float got = out[(z * h + y) * w + x];
        EXPECT_TRUE(got == want, "(%zu, %zu, %zu): %g, want %g", x, y, z, got, want);
      }

  // Errors: flags, empty extents, a row shorter than the extent, the legacy stream.
  EXPECT_ERROR(cudaMemcpy3DBatchAsync(3, ops, 1, stream), cudaErrorInvalidValue);
  cudaMemcpy3DBatchOp bad = ops[2];
  bad.extent.depth = 0;
  EXPECT_ERROR(cudaMemcpy3DBatchAsync(1, &bad, 0, stream), cudaErrorInvalidValue);
  bad = ops[0];
  bad.src.op.ptr.rowLength = 2;
  EXPECT_ERROR(cudaMemcpy3DBatchAsync(1, &bad, 0, stream), cudaErrorInvalidValue);
  bad = ops[0];
  bad.srcAccessOrder = cudaMemcpySrcAccessOrderInvalid;
  EXPECT_ERROR(cudaMemcpy3DBatchAsync(1, &bad, 0, stream), cudaErrorInvalidValue);
  EXPECT_ERROR(cudaMemcpy3DBatchAsync(3, ops, 0, cudaStreamLegacy), cudaErrorInvalidValue);
  EXPECT_ERROR(cudaMemcpy3DBatchAsync(0, ops, 0, stream), cudaErrorInvalidValue);
  CHECK_CUDA(cudaFreeArray(array));
  CHECK_CUDA(cudaFree(dev.ptr));
}

int main() {
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  check_batch(stream);
  check_batch_3d(stream);
#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
  // NULL is the per-thread default stream here: a batch may go on it.
  check_batch(nullptr);
  check_batch_3d(nullptr);
#else
  // The legacy NULL stream cannot take a batch.
  int x = 0, *dx = nullptr;
  CHECK_CUDA(cudaMalloc(&dx, sizeof x));
  void* dsts[] = {dx};
  const void* srcs[] = {&x};
  size_t sizes[] = {sizeof x};
  cudaMemcpyAttributes attrs[] = {attributes(cudaMemcpySrcAccessOrderStream)};
  size_t idx[] = {0};
  EXPECT_ERROR(cudaMemcpyBatchAsync(dsts, srcs, sizes, 1, attrs, idx, 1, nullptr),
               cudaErrorInvalidValue);
  CHECK_CUDA(cudaFree(dx));
#endif
  CHECK_CUDA(cudaStreamDestroy(stream));
  std::printf("PASS batch_copy\n");
  return 0;
}
