// Compiled by check_exports.py with `nvcc -cudart shared` to learn which libcudart
// symbols (and version node) nvcc 13 binaries import.
#include <cstdio>

__constant__ float scale;
__device__ int counter;

__global__ void kernel(float* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= scale;
  if (i == 0) atomicAdd(&counter, 1);
}

int main() {
  int count = 0, device = 0, version = 0;
  cudaGetDeviceCount(&count);
  cudaSetDevice(0);
  cudaGetDevice(&device);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int value = 0;
  cudaDeviceGetAttribute(&value, cudaDevAttrMultiProcessorCount, 0);
  cudaDriverGetVersion(&version);
  cudaRuntimeGetVersion(&version);
  float* d = nullptr;
  float h[4] = {1, 2, 3, 4};
  cudaMalloc(&d, sizeof(h));
  cudaMemset(d, 0, sizeof(h));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  float s = 2;
  cudaMemcpyToSymbol(scale, &s, sizeof(s));
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreateWithFlags(&stop, cudaEventDefault);
  cudaEventRecord(start, stream);
  kernel<<<1, 4, 0, stream>>>(d, 4);
  void* args[] = {&d, &value};
  cudaLaunchKernel((const void*)kernel, dim3(1), dim3(4), args, 0, stream);
  cudaEventRecord(stop, stream);
  cudaEventSynchronize(stop);
  cudaEventQuery(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaMemcpyAsync(h, d, sizeof(h), cudaMemcpyDeviceToHost, stream);
  cudaMemsetAsync(d, 0, sizeof(h), stream);
  cudaStreamSynchronize(stream);
  int c = 0;
  cudaMemcpyFromSymbol(&c, counter, sizeof(c));
  void* address = nullptr;
  size_t size = 0;
  cudaGetSymbolAddress(&address, counter);
  cudaGetSymbolSize(&size, counter);
  cudaFuncAttributes attributes;
  cudaFuncGetAttributes(&attributes, kernel);
  cudaDeviceSynchronize();
  printf("%s %s\n", cudaGetErrorName(cudaGetLastError()), cudaGetErrorString(cudaPeekAtLastError()));
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(stream);
  cudaFree(d);
  cudaDeviceReset();
  return 0;
}
