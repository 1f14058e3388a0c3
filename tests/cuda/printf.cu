// Device printf: conversions, widths, strings (literal and __device__), 64-bit values,
// many threads, the FIFO limit and printf's return value (the number of arguments, -1
// when the FIFO is full). printf_check.py compares
// stdout with printf.expected (the [many] lines as a set, each thread's in order).
#include <cstdio>

#include "test_check.h"

__device__ const char kDeviceName[] = "strata";

__global__ void formats(int i, double d, const char* host_string_unused, long long big) {
  printf("ints: %d %i %u %x %X %o %c%c\n", i, -i, 3000000000u, 0xbeef, 0xbeef, 8, 'o', 'k');
  printf("widths: [%6d] [%-6d] [%06d] [%+d] [% d] [%*d]\n", i, i, i, i, i, 5, i);
  printf("floats: %f %.2f %10.4f %e %E %g %G\n", d, d, d, d, d, d, 1e-10);
  printf("float single: %.3f %a\n", 0.125f, 1.0);
  printf("64-bit: %ld %lld %lu %llu %llx\n", big, -big, (unsigned long)big,
         18446744073709551615ull, big);
  printf("strings: [%s] [%10s] [%-8s] [%.3s] %%\n", "literal", kDeviceName, "left", kDeviceName);
  printf("pointer: %p\n", reinterpret_cast<void*>(0x1000));
  printf("no arguments\n");
}

__global__ void many(int* returns) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  returns[t] = printf("[many] t=%03d first block=%d thread=%d\n", t, blockIdx.x, threadIdx.x);
  printf("[many] t=%03d second %.1f\n", t, t * 0.5);
}

__global__ void fill_fifo(int* returns, int n) {
  for (int k = 0; k < n; ++k) returns[k] = printf("[fifo] line %d\n", k);
}

int main() {
  size_t fifo = 0;
  CHECK_CUDA(cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize));
  EXPECT_TRUE(fifo == 1u << 20, "default printf FIFO is %zu bytes", fifo);

  formats<<<1, 1>>>(42, 3.14159265, nullptr, 1234567890123ll);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::printf("host: after formats\n");
  std::fflush(stdout);

  const int blocks = 3, threads = 40, n = blocks * threads;
  int* returns;
  CHECK_CUDA(cudaMalloc(&returns, n * sizeof(int)));
  many<<<blocks, threads>>>(returns);
  int host[n];
  CHECK_CUDA(cudaMemcpy(host, returns, sizeof host, cudaMemcpyDeviceToHost));  // flushes
  for (int k = 0; k < n; ++k) EXPECT_TRUE(host[k] == 3, "printf returned %d", host[k]);
  std::printf("host: after many\n");
  std::fflush(stdout);

  // A FIFO that holds only a few records: the rest are dropped and printf returns -1.
  // "[fifo] line %d\n" takes a 24-byte record (16-byte header, 8 bytes of arguments);
  // the FIFO's own header takes 16 bytes, so 112 bytes hold exactly 4 records.
  CHECK_CUDA(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 112));
  CHECK_CUDA(cudaDeviceGetLimit(&fifo, cudaLimitPrintfFifoSize));
  EXPECT_TRUE(fifo == 112, "printf FIFO is %zu bytes", fifo);
  fill_fifo<<<1, 1>>>(returns, 6);
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(host, returns, 6 * sizeof(int), cudaMemcpyDeviceToHost));
  std::printf("host: fifo returns %d %d %d %d %d %d\n", host[0], host[1], host[2], host[3],
              host[4], host[5]);
  // The FIFO is emptied at each synchronisation: the next launch prints again.
  fill_fifo<<<1, 1>>>(returns, 1);
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaFree(returns));
  std::printf("PASS printf\n");
  return 0;
}
