// Tensor-core fragments stay in registers: a loop of mma.sync over loop-carried
// accumulators (the shape of a GEMM main loop) computes the right product and compiles
// without spills and without register copies in the loop (fold_register_tuples keeps
// the fragments whole; the accumulators' phis coalesce with the HMMA results).
//
// One warp computes C (16 x 8T, f32) = A (16 x K, f16) * B (K x 8T, f16) with
// mma.sync.m16n8k16.row.col.f32.f16.f16.f32, T column tiles sharing each A fragment.
// The host lays the fragments out per lane by the PTX ISA's tables ("Matrix Fragments
// for mma.m16n8k16 with floating point type": groupID = lane >> 2, threadID_in_group =
// lane % 4) and checks against a host matrix product; small integer inputs keep every
// f16 value and f32 sum exact.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "exec_harness.h"

namespace strata::compiler::testing {
namespace {

constexpr int kLanes = 32;

// f16 bits of a small integer (|v| <= 2048): exact.
uint16_t half_of(int v) {
  if (v == 0) return 0;
  uint16_t sign = v < 0 ? 0x8000 : 0;
  uint32_t m = static_cast<uint32_t>(v < 0 ? -v : v);
  int e = 0;
  while ((m >> e) > 1) ++e;                 // m = 1.f * 2^e
  uint32_t frac = (m << (10 - e)) & 0x3ff;  // e <= 10
  return static_cast<uint16_t>(sign | ((e + 15) << 10) | frac);
}

// The kernel: per iteration, lane l loads its A fragment (4 x b32) from
// a + (iter * 32 + l) * 16 and, per tile t, its B fragment (2 x b32) from
// b + ((iter * T + t) * 32 + l) * 8; after `iters` iterations it stores its T
// accumulator fragments to c + (l * T + t) * 16.
std::string mma_loop_kernel(int tiles, int steps) {
  std::ostringstream s;
  s << ".version 8.0\n.target sm_80\n.address_size 64\n"
       ".visible .entry mma_loop(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u32 "
       "iters)\n{\n"
    << fmt::format("  .reg .b32 %a<4>;\n  .reg .b32 %b<2>;\n  .reg .f32 %c<{}>;\n", 4 * tiles)
    << "  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n  .reg .pred %p<2>;\n"
       "  ld.param.u64 %rd1, [pa];\n  ld.param.u64 %rd2, [pb];\n  ld.param.u64 %rd3, [pc];\n"
       "  ld.param.u32 %r1, [iters];\n  mov.u32 %r2, %tid.x;\n"
       "  mul.wide.u32 %rd4, %r2, 16;\n  add.s64 %rd1, %rd1, %rd4;\n"
       "  mul.wide.u32 %rd5, %r2, 8;\n  add.s64 %rd2, %rd2, %rd5;\n";
  for (int i = 0; i < 4 * tiles; ++i) s << fmt::format("  mov.f32 %c{}, 0f00000000;\n", i);
  s << "  mov.u32 %r3, 0;\nLOOP:\n";
  for (int st = 0; st < steps; ++st) {
    s << fmt::format("  ld.global.v4.u32 {{%a0, %a1, %a2, %a3}}, [%rd1+{}];\n", st * 512);
    for (int t = 0; t < tiles; ++t) {
      s << fmt::format("  ld.global.v2.u32 {{%b0, %b1}}, [%rd2+{}];\n", (st * tiles + t) * 256);
      s << fmt::format(
          "  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {{%c{0}, %c{1}, %c{2}, %c{3}}}, "
          "{{%a0, %a1, %a2, %a3}}, {{%b0, %b1}}, {{%c{0}, %c{1}, %c{2}, %c{3}}};\n",
          4 * t, 4 * t + 1, 4 * t + 2, 4 * t + 3);
    }
  }
  s << fmt::format(
      "  add.s64 %rd1, %rd1, {};\n  add.s64 %rd2, %rd2, {};\n  add.u32 %r3, %r3, 1;\n"
      "  setp.lt.u32 %p1, %r3, %r1;\n  @%p1 bra LOOP;\n"
      "  mul.wide.u32 %rd6, %r2, {};\n  add.s64 %rd3, %rd3, %rd6;\n",
      steps * 512, steps * tiles * 256, tiles * 16);
  for (int t = 0; t < tiles; ++t)
    s << fmt::format("  st.global.v4.f32 [%rd3+{}], {{%c{}, %c{}, %c{}, %c{}}};\n", t * 16, 4 * t,
                     4 * t + 1, 4 * t + 2, 4 * t + 3);
  s << "  ret;\n}\n";
  return s.str();
}

// The loop body in `dis`: from the last label before the first HMMA to the first branch
// after the last HMMA.
std::vector<std::string> loop_body(const std::string& dis) {
  std::vector<std::string> lines, body;
  std::istringstream in(dis);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  size_t first = lines.size(), last = 0;
  for (size_t i = 0; i < lines.size(); ++i)
    if (lines[i].find("HMMA") != std::string::npos) {
      first = std::min(first, i);
      last = i;
    }
  if (first == lines.size()) return body;
  while (first > 0 && !(lines[first - 1].size() > 1 && lines[first - 1][0] == 'L' &&
                        lines[first - 1].back() == ':'))
    --first;
  while (last + 1 < lines.size() && lines[last].find("BRA") == std::string::npos) ++last;
  for (size_t i = first; i <= last; ++i) body.push_back(lines[i]);
  return body;
}

// `steps` k steps per loop iteration (iters of them in all): each updates the same
// accumulators, which must stay in place (each HMMA's D is its C).
void run_mma_loop(int tiles, int iters, int steps = 1) {
  const int k = 16 * iters, n = 8 * tiles;
  // Logical matrices with small integers.
  std::vector<int> a(16 * k), b(static_cast<size_t>(k) * n);
  for (int r = 0; r < 16; ++r)
    for (int c = 0; c < k; ++c) a[r * k + c] = (r * 7 + c * 3) % 5 - 2;
  for (int r = 0; r < k; ++r)
    for (int c = 0; c < n; ++c) b[r * n + c] = (r * 5 + c * 11) % 5 - 2;
  auto pair = [](int lo, int hi) { return uint32_t{half_of(lo)} | (uint32_t{half_of(hi)} << 16); };
  // A fragment (row-major 16 x 16 block at k0): reg j holds rows g (+8 for odd j),
  // cols 2t, 2t+1 (+8 for j >= 2).
  std::vector<uint32_t> fa(static_cast<size_t>(iters) * kLanes * 4),
      fb(static_cast<size_t>(iters) * tiles * kLanes * 2);
  for (int it = 0; it < iters; ++it)
    for (int l = 0; l < kLanes; ++l) {
      const int g = l >> 2, tg = l % 4, k0 = 16 * it;
      for (int j = 0; j < 4; ++j) {
        const int row = g + ((j & 1) ? 8 : 0), col = k0 + 2 * tg + ((j & 2) ? 8 : 0);
        fa[(static_cast<size_t>(it) * kLanes + l) * 4 + j] =
            pair(a[row * k + col], a[row * k + col + 1]);
      }
      // B fragment (16 x 8 block at k0, tile t): reg j holds rows 2t, 2t+1 (+8 for j = 1), col g.
      for (int t = 0; t < tiles; ++t)
        for (int j = 0; j < 2; ++j) {
          const int row = k0 + 2 * tg + 8 * j, col = 8 * t + g;
          fb[((static_cast<size_t>(it) * tiles + t) * kLanes + l) * 2 + j] =
              pair(b[row * n + col], b[(row + 1) * n + col]);
        }
    }
  PtxExec e;
  Status st = e.compile(mma_loop_kernel(tiles, steps));
  ASSERT_TRUE(st.ok()) << st.to_string();
  const uint64_t da = e.alloc(fa.size() * 4), db = e.alloc(fb.size() * 4),
                 dc = e.alloc(kLanes * tiles * 16);
  e.write(da, fa);
  e.write(db, fb);
  e.write(dc, std::vector<float>(kLanes * tiles * 4, -1.0f));
  auto fault =
      e.run("mma_loop", Dim{1}, Dim{kLanes}, {da, db, dc, static_cast<uint64_t>(iters / steps)});
  ASSERT_TRUE(fault.ok()) << fault.status().to_string();
  ASSERT_EQ(fault->kind, hw::FaultKind::kNone) << "pc " << fault->pc << "\n"
                                               << e.disassembly("mma_loop");
  std::vector<float> out = e.read<float>(dc, kLanes * tiles * 4);
  // Accumulator c_i: row g (+8 for i >= 2), col 2t + (i & 1).
  for (int l = 0; l < kLanes; ++l)
    for (int t = 0; t < tiles; ++t)
      for (int i = 0; i < 4; ++i) {
        const int row = (l >> 2) + (i >= 2 ? 8 : 0), col = 8 * t + 2 * (l % 4) + (i & 1);
        int want = 0;
        for (int kk = 0; kk < k; ++kk) want += a[row * k + kk] * b[kk * n + col];
        ASSERT_EQ(out[(l * tiles + t) * 4 + i], static_cast<float>(want))
            << "lane " << l << " tile " << t << " c" << i;
      }
  // Structure: no local memory, and no copies or spill code in the loop.
  const sxbin::KernelDesc* kd = e.kernel("mma_loop");
  ASSERT_NE(kd, nullptr);
  const std::string dis = e.disassembly("mma_loop");
  EXPECT_EQ(kd->local_bytes, 0u) << dis;
  const std::vector<std::string> body = loop_body(dis);
  ASSERT_FALSE(body.empty()) << dis;
  EXPECT_NE(body.back().find("BRA"), std::string::npos) << "no loop branch found:\n" << dis;
  int hmma = 0;
  const std::regex hmma_regs("HMMA[.A-Z0-9]* (R[0-9]+), R[0-9]+, R[0-9]+, (R[0-9]+)");
  for (const std::string& l : body) {
    hmma += l.find("HMMA") != std::string::npos;
    if (std::smatch m; std::regex_search(l, m, hmma_regs))
      EXPECT_EQ(m[1], m[2]) << "accumulator not updated in place: " << l << "\n" << dis;
    // A register copy: MOV Rd, Rs (a MOV of an immediate materialises a constant).
    const bool copy =
        l.find(" MOV") != std::string::npos && std::regex_search(l, std::regex(", R[0-9]+;"));
    EXPECT_FALSE(copy) << "copy in the mma loop: " << l << "\n" << dis;
    EXPECT_EQ(l.find("LOCAL"), std::string::npos) << "spill code in the mma loop: " << l << "\n"
                                                  << dis;
  }
  EXPECT_EQ(hmma, tiles * steps) << dis;
}

TEST(ExecMmaRegs, LoopCarriedAccumulatorsOneTile) {
  run_mma_loop(/*tiles=*/1, /*iters=*/3);
}
TEST(ExecMmaRegs, LoopCarriedAccumulatorsSixteenTiles) {
  run_mma_loop(/*tiles=*/16, /*iters=*/4);
}

}  // namespace
}  // namespace strata::compiler::testing

namespace strata::compiler::testing {
namespace {

// An unrolled main loop: two k steps per iteration chain each accumulator through two
// HMMAs, which must both update it in place (out-of-SSA coalesces an instruction's result
// with its dying accumulator source).
TEST(ExecMmaRegs, UnrolledStepsUpdateAccumulatorsInPlace) {
  run_mma_loop(/*tiles=*/8, /*iters=*/4, /*steps=*/2);
}

}  // namespace
}  // namespace strata::compiler::testing

namespace strata::compiler::testing {
namespace {

// Dependency barriers around HMMA (compiler/target/sx/schedule.h): an HMMA's late source
// reads and its result are on different barriers, so a load that overwrites a fragment
// register the HMMAs read (the next step's fragment) waits for their reads only, never
// for their results (the accumulators, consumed a step later).
TEST(ExecMmaRegs, FragmentLoadsDoNotWaitForHmmaResults) {
  PtxExec e;
  Status st = e.compile(mma_loop_kernel(/*tiles=*/4, /*steps=*/2));
  ASSERT_TRUE(st.ok()) << st.to_string();
  const std::string dis = e.disassembly("mma_loop", /*with_control=*/true);
  const std::vector<std::string> body = loop_body(dis);
  ASSERT_FALSE(body.empty()) << dis;
  const std::regex ctrl("wbar=([-0-9]), rbar=([-0-9]), wait=0x([0-9a-f]+)");
  unsigned hmma_writes = 0;
  for (const std::string& l : body) {
    std::smatch m;
    if (l.find("HMMA") == std::string::npos || !std::regex_search(l, m, ctrl)) continue;
    ASSERT_NE(m[1], "-") << l;
    ASSERT_NE(m[2], "-") << l;
    EXPECT_NE(m[1], m[2]) << "an HMMA's result and source reads share a barrier: " << l;
    hmma_writes |= 1u << std::stoi(m[1]);
  }
  ASSERT_NE(hmma_writes, 0u) << dis;
  int loads = 0;
  for (const std::string& l : body) {
    std::smatch m;
    if (l.find("LD.") == std::string::npos || !std::regex_search(l, m, ctrl)) continue;
    ++loads;
    EXPECT_EQ(std::stoul(m[3], nullptr, 16) & hmma_writes, 0u)
        << "a fragment load waits for an HMMA result: " << l << "\n"
        << dis;
  }
  EXPECT_GT(loads, 0) << dis;
}

}  // namespace
}  // namespace strata::compiler::testing
