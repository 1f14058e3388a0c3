// Half, bfloat16, TF32 and extended-precision integer arithmetic as nvcc compiles them
// for sm_80 (fma.rn.f16x2, fma.rn.bf16x2, cvt.rn.f16x2.f32, cvt.rn.bf16x2.f32,
// cvt.rna.tf32.f32, dp4a, dp2a, shf, prmt, lop3, bmsk, 128-bit integers through
// add.cc/addc/madc and mul.hi.u64, ...), checked against host arithmetic; the FP8
// conversions (software on sm_80) against CUDA's host implementation. Inputs are chosen
// so that the host's float arithmetic is exact before its one rounding.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <mma.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "test_check.h"

constexpr int kN = 512;

__global__ void half_ops(const __half2* a, const __half2* b, const __half2* c, __half2* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kN) return;
  __half2 x = a[i], y = b[i], z = c[i];
  out[8 * i + 0] = __hfma2(x, y, z);
  out[8 * i + 1] = __hadd2(x, y);
  out[8 * i + 2] = __hsub2(x, y);
  out[8 * i + 3] = __hmul2(x, y);
  out[8 * i + 4] = __hmax2(x, y);
  out[8 * i + 5] = __hmin2(x, y);
  out[8 * i + 6] = __hneg2(x);
  out[8 * i + 7] = __habs2(x);
}

__global__ void bf16_ops(const __nv_bfloat162* a, const __nv_bfloat162* b, const __nv_bfloat162* c,
                         __nv_bfloat162* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kN) return;
  out[2 * i + 0] = __hfma2(a[i], b[i], c[i]);
  out[2 * i + 1] = __hmul2(a[i], b[i]);
}

struct Converted {
  __half2 h2;
  __nv_bfloat162 b2;
  __nv_bfloat16 b;
  uint16_t fp8x2;
  __half2 from_fp8;
  float tf32;
  float back;
};

__global__ void conversions(const float2* in, Converted* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kN) return;
  float2 v = in[i];
  Converted r;
  r.h2 = __float22half2_rn(v);
  r.b2 = __float22bfloat162_rn(v);
  r.b = __float2bfloat16_rz(v.x);
  r.fp8x2 = __nv_cvt_float2_to_fp8x2(v, __NV_SATFINITE, __NV_E4M3);
  __half2_raw raw = __nv_cvt_fp8x2_to_halfraw2(r.fp8x2, __NV_E4M3);
  r.from_fp8 = __half2(raw);
  r.tf32 = nvcuda::wmma::__float_to_tf32(v.x);
  r.back = __half2float(__low2half(r.h2)) + __bfloat162float(r.b);
  out[i] = r;
}

struct IntResults {
  int dp4a_s;
  unsigned dp4a_u, dp2a_lo, shl, shr, shl_clamp, perm, lop, mask;
  unsigned long long mulhi;
  unsigned __int128 wide;
};

__global__ void int_ops(const unsigned* a, const unsigned* b, const unsigned long long* c,
                        IntResults* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= kN) return;
  unsigned x = a[i], y = b[i];
  IntResults r;
  r.dp4a_s = __dp4a(static_cast<int>(x), static_cast<int>(y), static_cast<int>(i));
  r.dp4a_u = __dp4a(x, y, static_cast<unsigned>(i));
  r.dp2a_lo = __dp2a_lo(x, y, 7u);
  r.shl = __funnelshift_l(x, y, i);
  r.shr = __funnelshift_r(x, y, i);
  r.shl_clamp = __funnelshift_lc(x, y, i);
  r.perm = __byte_perm(x, y, i * 0x1357u);
  r.lop = (x & y) ^ (~x | (y >> 3)) ^ (x | 0x5a5a5a5au);
  asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(r.mask) : "r"(x & 63u), "r"(y & 63u));
  r.mulhi = __umul64hi(c[2 * i], c[2 * i + 1]);
  unsigned __int128 p = static_cast<unsigned __int128>(c[2 * i]) << 64 | c[2 * i + 1];
  r.wide = p * c[2 * i] + (p - c[2 * i + 1]);
  out[i] = r;
}

// Host references, written out.
float h2f(__half h) {
  return __half2float(h);
}
uint16_t bits(__half h) {
  uint16_t u;
  std::memcpy(&u, &h, 2);
  return u;
}
uint16_t bits(__nv_bfloat16 h) {
  uint16_t u;
  std::memcpy(&u, &h, 2);
  return u;
}
uint32_t tf32_rna(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u) return u;  // NaN
  return (u + 0x1000u) & 0xffffe000u;             // ties away from zero, on the magnitude
}
unsigned funnel(unsigned lo, unsigned hi, unsigned n, bool left) {
  unsigned long long v = static_cast<unsigned long long>(hi) << 32 | lo;
  return left ? static_cast<unsigned>((v << n) >> 32) : static_cast<unsigned>(v >> n);
}

int main() {
  // Halves: multiples of 1/64 in [-8, 8): sums, products and fmas are exact in float.
  std::vector<__half2> ha(kN), hb(kN), hc(kN), hout(8 * kN);
  std::vector<__nv_bfloat162> ba(kN), bb(kN), bc(kN), bout(2 * kN);
  std::vector<float2> fin(kN);
  std::vector<unsigned> ia(kN), ib(kN);
  std::vector<unsigned long long> ic(2 * kN);
  uint64_t seed = 12345;
  auto next = [&] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(seed >> 33);
  };
  auto small = [&] { return (static_cast<int>(next() % 1024) - 512) / 64.0f; };
  for (int i = 0; i < kN; ++i) {
    ha[i] = __floats2half2_rn(small(), small());
    hb[i] = __floats2half2_rn(small(), small());
    hc[i] = __floats2half2_rn(small(), small());
    // bf16: 8-bit mantissas, small exponents: exact in float too.
    ba[i] = __floats2bfloat162_rn(small() / 4, small());
    bb[i] = __floats2bfloat162_rn(small(), small() * 2);
    bc[i] = __floats2bfloat162_rn(small(), small());
    uint32_t r1 = next(), r2 = next();
    float f1, f2;
    std::memcpy(&f1, &r1, 4);
    std::memcpy(&f2, &r2, 4);
    // Ordinary magnitudes, and some near the FP8 range and its ties.
    fin[i] = i % 3 == 0 ? make_float2(small() * 33.0f, small() / 7.0f)
             : i % 3 == 1
                 ? make_float2(ldexpf(1.0f + (r1 % 16) / 16.0f, static_cast<int>(r2 % 24) - 12),
                               -500.0f + i)
                 : make_float2(std::isfinite(f1) ? f1 : 1.0f, std::isfinite(f2) ? f2 : -1.0f);
    ia[i] = next();
    ib[i] = next();
    ic[2 * i] = (static_cast<unsigned long long>(next()) << 32) | next();
    ic[2 * i + 1] = i % 4 == 0 ? ~0ull : (static_cast<unsigned long long>(next()) << 32) | next();
  }

  __half2 *dha, *dhb, *dhc, *dhout;
  __nv_bfloat162 *dba, *dbb, *dbc, *dbout;
  float2* dfin;
  Converted* dconv;
  unsigned *dia, *dib;
  unsigned long long* dic;
  IntResults* dint;
  CHECK_CUDA(cudaMalloc(&dha, kN * sizeof(__half2)));
  CHECK_CUDA(cudaMalloc(&dhb, kN * sizeof(__half2)));
  CHECK_CUDA(cudaMalloc(&dhc, kN * sizeof(__half2)));
  CHECK_CUDA(cudaMalloc(&dhout, 8 * kN * sizeof(__half2)));
  CHECK_CUDA(cudaMalloc(&dba, kN * sizeof(__nv_bfloat162)));
  CHECK_CUDA(cudaMalloc(&dbb, kN * sizeof(__nv_bfloat162)));
  CHECK_CUDA(cudaMalloc(&dbc, kN * sizeof(__nv_bfloat162)));
  CHECK_CUDA(cudaMalloc(&dbout, 2 * kN * sizeof(__nv_bfloat162)));
  CHECK_CUDA(cudaMalloc(&dfin, kN * sizeof(float2)));
  CHECK_CUDA(cudaMalloc(&dconv, kN * sizeof(Converted)));
  CHECK_CUDA(cudaMalloc(&dia, kN * sizeof(unsigned)));
  CHECK_CUDA(cudaMalloc(&dib, kN * sizeof(unsigned)));
  CHECK_CUDA(cudaMalloc(&dic, 2 * kN * sizeof(unsigned long long)));
  CHECK_CUDA(cudaMalloc(&dint, kN * sizeof(IntResults)));
  CHECK_CUDA(cudaMemcpy(dha, ha.data(), kN * sizeof(__half2), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dhb, hb.data(), kN * sizeof(__half2), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dhc, hc.data(), kN * sizeof(__half2), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dba, ba.data(), kN * sizeof(__nv_bfloat162), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dbb, bb.data(), kN * sizeof(__nv_bfloat162), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dbc, bc.data(), kN * sizeof(__nv_bfloat162), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dfin, fin.data(), kN * sizeof(float2), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dia, ia.data(), kN * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dib, ib.data(), kN * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK_CUDA(
      cudaMemcpy(dic, ic.data(), 2 * kN * sizeof(unsigned long long), cudaMemcpyHostToDevice));
  half_ops<<<kN / 128, 128>>>(dha, dhb, dhc, dhout);
  bf16_ops<<<kN / 128, 128>>>(dba, dbb, dbc, dbout);
  conversions<<<kN / 128, 128>>>(dfin, dconv);
  int_ops<<<kN / 128, 128>>>(dia, dib, dic, dint);
  CHECK_CUDA(cudaGetLastError());
  std::vector<Converted> conv(kN);
  std::vector<IntResults> ints(kN);
  CHECK_CUDA(cudaMemcpy(hout.data(), dhout, 8 * kN * sizeof(__half2), cudaMemcpyDeviceToHost));
  CHECK_CUDA(
      cudaMemcpy(bout.data(), dbout, 2 * kN * sizeof(__nv_bfloat162), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(conv.data(), dconv, kN * sizeof(Converted), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(ints.data(), dint, kN * sizeof(IntResults), cudaMemcpyDeviceToHost));

  for (int i = 0; i < kN; ++i) {
    const __half xs[2] = {__low2half(ha[i]), __high2half(ha[i])},
                 ys[2] = {__low2half(hb[i]), __high2half(hb[i])},
                 zs[2] = {__low2half(hc[i]), __high2half(hc[i])};
    for (int h = 0; h < 2; ++h) {
      float x = h2f(xs[h]), y = h2f(ys[h]), z = h2f(zs[h]);
      const float want[8] = {x * y + z,     x + y,         x - y, x * y,
                             x > y ? x : y, x < y ? x : y, -x,    x < 0 ? -x : x};
      for (int k = 0; k < 8; ++k) {
        __half got = h == 0 ? __low2half(hout[8 * i + k]) : __high2half(hout[8 * i + k]);
        __half w = __float2half_rn(want[k]);
        EXPECT_TRUE(bits(got) == bits(w) || (want[k] == 0 && h2f(got) == 0),
                    "half op %d [%d.%d]: got %a want %a", k, i, h, h2f(got), want[k]);
      }
    }
    for (int h = 0; h < 2; ++h) {
      float x = h == 0 ? __low2float(ba[i]) : __high2float(ba[i]),
            y = h == 0 ? __low2float(bb[i]) : __high2float(bb[i]);
      float z = h == 0 ? __low2float(bc[i]) : __high2float(bc[i]);
      const float want[2] = {x * y + z, x * y};
      for (int k = 0; k < 2; ++k) {
        __nv_bfloat16 got =
            h == 0 ? __low2bfloat16(bout[2 * i + k]) : __high2bfloat16(bout[2 * i + k]);
        __nv_bfloat16 w = __float2bfloat16_rn(want[k]);
        EXPECT_TRUE(bits(got) == bits(w) || (want[k] == 0 && __bfloat162float(got) == 0),
                    "bf16 op %d [%d.%d]: got %a want %a", k, i, h, __bfloat162float(got), want[k]);
      }
    }
    const Converted& c = conv[i];
    const float2 v = fin[i];
    EXPECT_TRUE(bits(__low2half(c.h2)) == bits(__float2half_rn(v.x)) &&
                    bits(__high2half(c.h2)) == bits(__float2half_rn(v.y)),
                "float2 -> half2 [%d]", i);
    EXPECT_TRUE(bits(__low2bfloat16(c.b2)) == bits(__float2bfloat16_rn(v.x)) &&
                    bits(__high2bfloat16(c.b2)) == bits(__float2bfloat16_rn(v.y)),
                "float2 -> bfloat162 [%d]", i);
    EXPECT_TRUE(bits(c.b) == bits(__float2bfloat16_rz(v.x)), "float -> bfloat16 rz [%d]", i);
    const __nv_fp8x2_storage_t fp8 = __nv_cvt_float2_to_fp8x2(v, __NV_SATFINITE, __NV_E4M3);
    EXPECT_TRUE(c.fp8x2 == fp8, "float2 -> e4m3x2 [%d] (%a, %a): got 0x%04x want 0x%04x", i, v.x,
                v.y, c.fp8x2, fp8);
    const __half2 up(__nv_cvt_fp8x2_to_halfraw2(fp8, __NV_E4M3));
    EXPECT_TRUE(bits(__low2half(c.from_fp8)) == bits(__low2half(up)) &&
                    bits(__high2half(c.from_fp8)) == bits(__high2half(up)),
                "e4m3x2 -> half2 [%d]", i);
    uint32_t tf;
    std::memcpy(&tf, &c.tf32, 4);
    EXPECT_TRUE(tf == tf32_rna(v.x), "float -> tf32 [%d]: got 0x%08x want 0x%08x", i, tf,
                tf32_rna(v.x));

    const IntResults& r = ints[i];
    const unsigned x = ia[i], y = ib[i];
    int ds = i;
    unsigned du = i, d2 = 7;
    for (int k = 0; k < 4; ++k) {
      ds += static_cast<int8_t>(x >> (8 * k)) * static_cast<int8_t>(y >> (8 * k));
      du += ((x >> (8 * k)) & 0xff) * ((y >> (8 * k)) & 0xff);
    }
    for (int k = 0; k < 2; ++k) d2 += ((x >> (16 * k)) & 0xffff) * ((y >> (8 * k)) & 0xff);
    EXPECT_TRUE(r.dp4a_s == ds && r.dp4a_u == du && r.dp2a_lo == d2, "dp4a/dp2a [%d]", i);
    EXPECT_TRUE(r.shl == funnel(x, y, i & 31, true) && r.shr == funnel(x, y, i & 31, false),
                "funnel shift [%d]", i);
    EXPECT_TRUE(r.shl_clamp == funnel(x, y, i < 32 ? i : 32, true), "funnel shift clamp [%d]", i);
    unsigned perm = 0;
    unsigned long long bytes = static_cast<unsigned long long>(y) << 32 | x;
    for (int k = 0; k < 4; ++k)
      perm |= static_cast<unsigned>((bytes >> (8 * (((i * 0x1357u) >> (4 * k)) & 7))) & 0xff)
              << (8 * k);
    EXPECT_TRUE(r.perm == perm, "byte_perm [%d]", i);
    EXPECT_TRUE(r.lop == ((x & y) ^ (~x | (y >> 3)) ^ (x | 0x5a5a5a5au)), "three-input logic [%d]",
                i);
    unsigned pos = x & 63u, width = y & 63u, mask = 0;
    for (unsigned bit = pos; bit < 32 && bit < pos + (width > 32 ? 32 : width); ++bit)
      mask |= 1u << bit;
    EXPECT_TRUE(r.mask == mask, "bmsk.clamp [%d]: pos %u width %u got 0x%08x want 0x%08x", i, pos,
                width, r.mask, mask);
    unsigned __int128 p = static_cast<unsigned __int128>(ic[2 * i]) << 64 | ic[2 * i + 1];
    EXPECT_TRUE(r.mulhi == static_cast<unsigned long long>(
                               (static_cast<unsigned __int128>(ic[2 * i]) * ic[2 * i + 1]) >> 64),
                "umul64hi [%d]", i);
    EXPECT_TRUE(r.wide == p * ic[2 * i] + (p - ic[2 * i + 1]), "128-bit arithmetic [%d]", i);
  }
  std::printf("PASS alu_half (%d elements)\n", kN);
  return 0;
}
