// Dynamic parallelism: a parent launching a child into each kind of device stream.
__global__ void child(int* out, int base) { out[base + threadIdx.x] = base; }

__global__ void parent(int* out, int* err) {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  child<<<2, 32, 0, s>>>(out, threadIdx.x * 64);
  child<<<1, 64, 16>>>(out, 1000);
  child<<<1, 64, 0, cudaStreamTailLaunch>>>(out, 2000);
  child<<<1, 64, 0, cudaStreamFireAndForget>>>(out, 3000);
  err[threadIdx.x] = cudaGetLastError();
  cudaStreamDestroy(s);
}
