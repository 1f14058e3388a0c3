// Managed memory with the rules of the CUDA Runtime API reference (cuda_runtime_api.h):
// cudaMallocManaged (cudaMemAttachGlobal / cudaMemAttachHost), used by the host and by
// kernels alternately with cudaDeviceSynchronize between them; cudaStreamAttachMemAsync,
// cudaMemPrefetchAsync, cudaMemAdvise and cudaMemRangeGetAttribute(s) (advice read back
// as documented: cudaCpuDeviceId for the host, cudaInvalidDeviceId where none is set);
// documented invalid-argument errors. Expected values are computed on the host.
#include <cstdio>

#include "test_check.h"

#define EXPECT_ERROR(call, expected)                                                              \
  do {                                                                                            \
    cudaError_t got_ = (call);                                                                    \
    EXPECT_TRUE(got_ == (expected), "%s returned %s, expected %s", #call, cudaGetErrorName(got_), \
                cudaGetErrorName(expected));                                                      \
    cudaGetLastError(); /* the expected error is not sticky; clear it */                          \
  } while (0)

__global__ void step(int* data, int n, int add) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * 2 + add;
}

static cudaMemLocation device_location(int id) {
  cudaMemLocation loc{};
  loc.type = cudaMemLocationTypeDevice;
  loc.id = id;
  return loc;
}

static cudaMemLocation host_location() {
  cudaMemLocation loc{};
  loc.type = cudaMemLocationTypeHost;
  loc.id = 0;
  return loc;
}

static int range_int(const void* ptr, size_t bytes, cudaMemRangeAttribute attribute) {
  int value = 12345;
  CHECK_CUDA(cudaMemRangeGetAttribute(&value, sizeof(value), attribute, ptr, bytes));
  return value;
}

int main() {
  const int n = 1000;
  const size_t bytes = n * sizeof(int);

  // Host and kernels use the same pointer alternately.
  int* data = nullptr;
  CHECK_CUDA(cudaMallocManaged(&data, bytes));  // default flags: cudaMemAttachGlobal
  int expected[n];
  for (int i = 0; i < n; ++i) data[i] = expected[i] = i - 300;
  for (int round = 0; round < 3; ++round) {
    step<<<(n + 127) / 128, 128>>>(data, n, round);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    for (int i = 0; i < n; ++i) {
      expected[i] = expected[i] * 2 + round;
      EXPECT_TRUE(data[i] == expected[i], "round %d: data[%d] = %d, expected %d", round, i, data[i],
                  expected[i]);
      data[i] += 1;  // the host writes between kernels
      expected[i] += 1;
    }
  }

  // cudaMemAttachHost allocation, attached to a stream and back.
  int* host_attached = nullptr;
  CHECK_CUDA(cudaMallocManaged(&host_attached, bytes, cudaMemAttachHost));
  for (int i = 0; i < n; ++i) host_attached[i] = i;
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  CHECK_CUDA(cudaStreamAttachMemAsync(stream, host_attached, 0, cudaMemAttachSingle));
  step<<<(n + 127) / 128, 128, 0, stream>>>(host_attached, n, 7);
  CHECK_CUDA(cudaStreamAttachMemAsync(stream, host_attached, bytes, cudaMemAttachHost));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  for (int i = 0; i < n; ++i) {
    EXPECT_TRUE(host_attached[i] == i * 2 + 7, "host_attached[%d] = %d", i, host_attached[i]);
  }
  CHECK_CUDA(cudaStreamAttachMemAsync(stream, host_attached, 0, cudaMemAttachGlobal));
  // length must be 0 or the whole allocation; flags one of the three; managed memory only.
  EXPECT_ERROR(cudaStreamAttachMemAsync(stream, host_attached, bytes / 2, cudaMemAttachGlobal),
               cudaErrorInvalidValue);
  EXPECT_ERROR(cudaStreamAttachMemAsync(stream, host_attached, 0, 0x8), cudaErrorInvalidValue);
  int* plain = nullptr;
  CHECK_CUDA(cudaMalloc(&plain, bytes));
  EXPECT_ERROR(cudaStreamAttachMemAsync(stream, plain, 0, cudaMemAttachGlobal),
               cudaErrorInvalidValue);

  // Prefetch: a hint; the last prefetch location is recorded.
  EXPECT_TRUE(
      range_int(data, bytes, cudaMemRangeAttributeLastPrefetchLocation) == cudaInvalidDeviceId,
      "no prefetch yet");
  CHECK_CUDA(cudaMemPrefetchAsync(data, bytes, device_location(0), 0, stream));
  step<<<(n + 127) / 128, 128, 0, stream>>>(data, n, 1);
  CHECK_CUDA(cudaMemPrefetchAsync(data, bytes, host_location(), 0, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  for (int i = 0; i < n; ++i) {
    expected[i] = expected[i] * 2 + 1;
    EXPECT_TRUE(data[i] == expected[i], "after prefetch: data[%d] = %d", i, data[i]);
  }
  EXPECT_TRUE(range_int(data, bytes, cudaMemRangeAttributeLastPrefetchLocation) == cudaCpuDeviceId,
              "last prefetch to the host");
  EXPECT_TRUE(range_int(data, bytes, cudaMemRangeAttributeLastPrefetchLocationType) ==
                  cudaMemLocationTypeHost,
              "last prefetch type host");
  EXPECT_ERROR(cudaMemPrefetchAsync(data, bytes, device_location(0), 1, stream),
               cudaErrorInvalidValue);
  EXPECT_ERROR(cudaMemPrefetchAsync(data, bytes, device_location(9999), 0, stream),
               cudaErrorInvalidDevice);
  EXPECT_ERROR(cudaMemPrefetchAsync(plain, bytes, device_location(0), 0, stream),
               cudaErrorInvalidValue);

  // Advice, read back through the range attributes.
  EXPECT_TRUE(range_int(data, bytes, cudaMemRangeAttributeReadMostly) == 0, "not read-mostly");
  EXPECT_TRUE(range_int(data, bytes, cudaMemRangeAttributePreferredLocation) == cudaInvalidDeviceId,
              "no preferred location");
  CHECK_CUDA(cudaMemAdvise(data, bytes, cudaMemAdviseSetReadMostly, device_location(0)));
  CHECK_CUDA(cudaMemAdvise(data, bytes, cudaMemAdviseSetPreferredLocation, device_location(0)));
  CHECK_CUDA(cudaMemAdvise(data, bytes, cudaMemAdviseSetAccessedBy, device_location(0)));
  EXPECT_TRUE(range_int(data, bytes, cudaMemRangeAttributeReadMostly) == 1, "read-mostly");
  EXPECT_TRUE(range_int(data, bytes, cudaMemRangeAttributePreferredLocation) == 0,
              "preferred device 0");
  EXPECT_TRUE(range_int(data, bytes, cudaMemRangeAttributePreferredLocationType) ==
                  cudaMemLocationTypeDevice,
              "preferred type device");
  int accessed[3] = {7, 7, 7};
  CHECK_CUDA(cudaMemRangeGetAttribute(accessed, sizeof(accessed), cudaMemRangeAttributeAccessedBy,
                                      data, bytes));
  EXPECT_TRUE(
      accessed[0] == 0 && accessed[1] == cudaInvalidDeviceId && accessed[2] == cudaInvalidDeviceId,
      "accessed by {%d, %d, %d}", accessed[0], accessed[1], accessed[2]);
  // cudaMemRangeGetAttributes: several at once.
  int read_mostly = -1, preferred = -1;
  void* values[2] = {&read_mostly, &preferred};
  size_t sizes[2] = {sizeof(int), sizeof(int)};
  cudaMemRangeAttribute attributes[2] = {cudaMemRangeAttributeReadMostly,
                                         cudaMemRangeAttributePreferredLocation};
  CHECK_CUDA(cudaMemRangeGetAttributes(values, sizes, attributes, 2, data, bytes));
  EXPECT_TRUE(read_mostly == 1 && preferred == 0, "attributes %d %d", read_mostly, preferred);
  // Advice does not change the data's coherence.
  step<<<(n + 127) / 128, 128>>>(data, n, 2);
  CHECK_CUDA(cudaDeviceSynchronize());
  for (int i = 0; i < n; ++i) {
    expected[i] = expected[i] * 2 + 2;
    EXPECT_TRUE(data[i] == expected[i], "after advice: data[%d] = %d", i, data[i]);
  }
  CHECK_CUDA(cudaMemAdvise(data, bytes, cudaMemAdviseUnsetReadMostly, device_location(0)));
  CHECK_CUDA(cudaMemAdvise(data, bytes, cudaMemAdviseSetPreferredLocation, host_location()));
  CHECK_CUDA(cudaMemAdvise(data, bytes, cudaMemAdviseUnsetAccessedBy, device_location(0)));
  EXPECT_TRUE(range_int(data, bytes, cudaMemRangeAttributeReadMostly) == 0, "unset read-mostly");
  EXPECT_TRUE(range_int(data, bytes, cudaMemRangeAttributePreferredLocation) == cudaCpuDeviceId,
              "preferred host");
  CHECK_CUDA(cudaMemRangeGetAttribute(accessed, sizeof(accessed), cudaMemRangeAttributeAccessedBy,
                                      data, bytes));
  EXPECT_TRUE(accessed[0] == cudaInvalidDeviceId, "accessed-by cleared");
  CHECK_CUDA(cudaMemAdvise(data, bytes, cudaMemAdviseUnsetPreferredLocation, host_location()));
  EXPECT_TRUE(range_int(data, bytes, cudaMemRangeAttributePreferredLocation) == cudaInvalidDeviceId,
              "preferred location unset");

  // Invalid arguments.
  EXPECT_ERROR(cudaMemAdvise(data, bytes, cudaMemAdviseSetPreferredLocation, device_location(9999)),
               cudaErrorInvalidDevice);
  EXPECT_ERROR(cudaMemAdvise(data, 0, cudaMemAdviseSetReadMostly, device_location(0)),
               cudaErrorInvalidValue);
  EXPECT_ERROR(cudaMemAdvise(plain, bytes, cudaMemAdviseSetReadMostly, device_location(0)),
               cudaErrorInvalidValue);
  int value = 0;
  EXPECT_ERROR(cudaMemRangeGetAttribute(&value, 2, cudaMemRangeAttributeReadMostly, data, bytes),
               cudaErrorInvalidValue);
  EXPECT_ERROR(cudaMemRangeGetAttribute(accessed, 6, cudaMemRangeAttributeAccessedBy, data, bytes),
               cudaErrorInvalidValue);
  void* bad = nullptr;
  EXPECT_ERROR(cudaMallocManaged(&bad, 0), cudaErrorInvalidValue);
  EXPECT_ERROR(cudaMallocManaged(&bad, bytes, 0), cudaErrorInvalidValue);
  EXPECT_ERROR(cudaMallocManaged(&bad, bytes, cudaMemAttachSingle), cudaErrorInvalidValue);
  EXPECT_ERROR(cudaMallocManaged(&bad, bytes, cudaMemAttachGlobal | cudaMemAttachHost),
               cudaErrorInvalidValue);

  CHECK_CUDA(cudaStreamDestroy(stream));
  CHECK_CUDA(cudaFree(plain));
  CHECK_CUDA(cudaFree(host_attached));
  CHECK_CUDA(cudaFree(data));
  std::printf("PASS managed_memory\n");
  return 0;
}
