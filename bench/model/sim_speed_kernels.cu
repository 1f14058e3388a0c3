// Kernels of the simulator-speed benchmark (bench/sim_throughput.cc) beyond the
// ALU-bound and streaming ones in bench/kernels/sim_kernels.cu. The PTX nvcc generates
// from this file is checked in beside it (sim_speed_kernels.ptx); regenerate with
//   /usr/local/cuda/bin/nvcc -ptx -arch=sm_80 -o sim_speed_kernels.ptx sim_speed_kernels.cu

// Shared memory: 256 threads per CTA exchange values through shared memory every
// iteration, with a CTA barrier on each side of the exchange.
extern "C" __global__ void shared_mix(unsigned* out, int iterations) {
  __shared__ unsigned s[256];
  unsigned v = blockIdx.x * 256u + threadIdx.x;
  for (int it = 0; it < iterations; ++it) {
    s[threadIdx.x] = v;
    __syncthreads();
    v = v * 3u + s[(threadIdx.x + 1u + static_cast<unsigned>(it)) & 255u];
    __syncthreads();
  }
  out[blockIdx.x * 256u + threadIdx.x] = v;
}

// Tensor cores: each warp issues four independent mma.sync m16n8k16 (f16 inputs,
// f32 accumulators) per iteration, with every A element `a` and every B element `b`
// (f16x2 bit patterns), so every D element grows by 16 x a x b per mma.
extern "C" __global__ void tensor_mma(float* out, int iterations, unsigned a, unsigned b) {
  float d[4][4] = {};
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      asm volatile(
          "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
          "{%8,%9}, {%0,%1,%2,%3};\n"
          : "+f"(d[k][0]), "+f"(d[k][1]), "+f"(d[k][2]), "+f"(d[k][3])
          : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b));
    }
  }
  float sum = 0;
  for (int k = 0; k < 4; ++k) sum += (d[k][0] + d[k][1]) + (d[k][2] + d[k][3]);
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}
