// Texture and surface objects, inline PTX assembly.
__global__ void sample(cudaTextureObject_t tex, cudaSurfaceObject_t surf, float* out, int w) {
  int x = threadIdx.x, y = blockIdx.x;
  float4 v = tex2D<float4>(tex, x + 0.5f, y + 0.5f);
  float s = tex1Dfetch<float>(tex, x);
  out[y * w + x] = v.x + v.y + v.z + v.w + s;
  surf2Dwrite(v.x, surf, x * 4, y);
  float r;
  surf2Dread(&r, surf, x * 4, y);
  out[0] += r;
}
__global__ void inline_asm(unsigned* out, unsigned a, unsigned b) {
  unsigned r;
  asm("{\n\t.reg .u32 t;\n\tadd.u32 t, %1, %2;\n\tmul.lo.u32 %0, t, 3;\n\t}" : "=r"(r) : "r"(a), "r"(b));
  unsigned long long gt;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gt));
  unsigned e;
  asm volatile("mov.u32 %0, %%envreg3;" : "=r"(e));
  out[threadIdx.x] = r + (unsigned)gt + e;
}
