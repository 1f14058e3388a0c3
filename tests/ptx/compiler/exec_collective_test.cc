// redux.sync and match.any/all.sync, checked against a host reference for the full warp
// and for partial member masks (the non-members skip the instruction).
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

#include "exec_harness.h"

namespace strata::compiler::testing {
namespace {

// Each member lane t (bit t of `mask`) computes the 6 reductions of v[t] and the match
// results of key[t] (32-bit) and key64[t]; non-members store nothing.
constexpr const char* kCollectives = R"(
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 v, .param .u64 key, .param .u64 out, .param .u32 mask)
{
  .reg .pred %p<4>;
  .reg .b32 %r<32>;
  .reg .b64 %rd<16>;
  ld.param.u64 %rd1, [v];
  ld.param.u64 %rd2, [key];
  ld.param.u64 %rd3, [out];
  ld.param.u32 %r1, [mask];
  mov.u32 %r2, %laneid;
  shr.u32 %r3, %r1, %r2;
  and.b32 %r3, %r3, 1;
  setp.eq.u32 %p1, %r3, 0;
  @%p1 bra DONE;
  mul.wide.u32 %rd4, %r2, 4;
  add.s64 %rd5, %rd1, %rd4;
  ld.global.u32 %r4, [%rd5];
  add.s64 %rd6, %rd2, %rd4;
  ld.global.u32 %r5, [%rd6];
  cvt.u64.u32 %rd7, %r5;
  shl.b64 %rd7, %rd7, 33;
  cvt.u64.u32 %rd8, %r2;
  and.b64 %rd8, %rd8, 1;
  or.b64 %rd7, %rd7, %rd8;
  redux.sync.add.s32 %r10, %r4, %r1;
  redux.sync.min.s32 %r11, %r4, %r1;
  redux.sync.max.u32 %r12, %r4, %r1;
  redux.sync.and.b32 %r13, %r4, %r1;
  redux.sync.or.b32 %r14, %r4, %r1;
  redux.sync.xor.b32 %r15, %r4, %r1;
  match.any.sync.b32 %r16, %r5, %r1;
  match.all.sync.b32 %r17|%p2, %r5, %r1;
  selp.u32 %r18, 1, 0, %p2;
  match.any.sync.b64 %r19, %rd7, %r1;
  match.all.sync.b64 %r20, %rd7, %r1;
  redux.sync.min.u32 %r21, %r4, 0xffffffff;
  mul.wide.u32 %rd9, %r2, 64;
  add.s64 %rd10, %rd3, %rd9;
  st.global.v4.u32 [%rd10], {%r10, %r11, %r12, %r13};
  st.global.v4.u32 [%rd10+16], {%r14, %r15, %r16, %r17};
  st.global.v4.u32 [%rd10+32], {%r18, %r19, %r20, %r21};
DONE:
  ret;
}
)";

struct Case {
  uint32_t mask;
  bool same_keys;
};

void run_case(PtxExec& e, const Case& c, const std::vector<uint32_t>& v) {
  std::vector<uint32_t> key(32);
  for (uint32_t t = 0; t < 32; ++t) key[t] = c.same_keys ? 7 : (t * 7) % 5;
  uint64_t dv = e.alloc(128), dkey = e.alloc(128), dout = e.alloc(32 * 64);
  e.write(dv, v);
  e.write(dkey, key);
  e.write(dout, std::vector<uint32_t>(32 * 16, 0xdeadbeef));
  auto f = e.run("k", Dim{1}, Dim{32}, {dv, dkey, dout, c.mask});
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  ASSERT_EQ(f->kind, hw::FaultKind::kNone) << "pc " << f->pc;
  auto r = e.read<uint32_t>(dout, 32 * 16);
  auto reduce = [&](uint32_t init, const std::function<uint32_t(uint32_t, uint32_t)>& op) {
    uint32_t acc = init;
    for (uint32_t t = 0; t < 32; ++t)
      if (c.mask >> t & 1) acc = op(acc, v[t]);
    return acc;
  };
  uint32_t add = reduce(0, [](uint32_t a, uint32_t b) { return a + b; });
  uint32_t smin = reduce(0x7fffffff, [](uint32_t a, uint32_t b) {
    return static_cast<uint32_t>(std::min(static_cast<int32_t>(a), static_cast<int32_t>(b)));
  });
  uint32_t umax = reduce(0, [](uint32_t a, uint32_t b) { return std::max(a, b); });
  uint32_t band = reduce(~0u, [](uint32_t a, uint32_t b) { return a & b; });
  uint32_t bor = reduce(0, [](uint32_t a, uint32_t b) { return a | b; });
  uint32_t bxor = reduce(0, [](uint32_t a, uint32_t b) { return a ^ b; });
  uint32_t all_min = *std::min_element(v.begin(), v.end());
  for (uint32_t t = 0; t < 32; ++t) {
    const uint32_t* o = &r[16 * t];
    if (!(c.mask >> t & 1)) {
      EXPECT_EQ(o[0], 0xdeadbeefu) << "non-member " << t;
      continue;
    }
    uint32_t any32 = 0, any64 = 0;
    for (uint32_t u = 0; u < 32; ++u) {
      if (!(c.mask >> u & 1)) continue;
      if (key[u] == key[t]) any32 |= 1u << u;
      if (key[u] == key[t] && (u & 1) == (t & 1)) any64 |= 1u << u;
    }
    SCOPED_TRACE(::testing::Message() << "mask " << std::hex << c.mask << std::dec << " lane " << t);
    EXPECT_EQ(o[0], add);
    EXPECT_EQ(o[1], smin);
    EXPECT_EQ(o[2], umax);
    EXPECT_EQ(o[3], band);
    EXPECT_EQ(o[4], bor);
    EXPECT_EQ(o[5], bxor);
    EXPECT_EQ(o[6], any32);
    EXPECT_EQ(o[7], any32 == c.mask ? c.mask : 0u);
    EXPECT_EQ(o[8], any32 == c.mask ? 1u : 0u);
    EXPECT_EQ(o[9], any64);
    EXPECT_EQ(o[10], any64 == c.mask ? c.mask : 0u);
    if (c.mask == 0xffffffffu) EXPECT_EQ(o[11], all_min);
  }
}

TEST(ExecCollective, ReduxAndMatchForMemberMasks) {
  PtxExec e;
  Status s = e.compile(kCollectives);
  ASSERT_TRUE(s.ok()) << s.to_string();
  SCOPED_TRACE(e.disassembly("k"));
  std::vector<uint32_t> v(32);
  for (uint32_t t = 0; t < 32; ++t) v[t] = (t * 0x9e3779b9u) ^ (t % 3 == 0 ? 0x80000000u : 0);
  const Case cases[] = {{0xffffffffu, false}, {0xffffffffu, true}, {0x00000009u, false}, {0x80000001u, true},
                        {0xa5c3f00fu, false}, {0x00010000u, false}, {0x7ffffffeu, true}};
  for (const Case& c : cases) run_case(e, c, v);
}

}  // namespace
}  // namespace strata::compiler::testing
