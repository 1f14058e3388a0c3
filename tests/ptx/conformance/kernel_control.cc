// Kernel conformance cases: bra/call/ret/exit/trap/nanosleep/special registers (see
// kernel_cases.h).
//
// Results are stored per thread as in thread_results.h and compared with host values
// computed from the PTX ISA's definitions. The special-register case checks what the
// ISA defines exactly (ids, dimensions, lane masks, %envreg = 0 here, the dynamic shared
// size) and, for the rest, the relations the ISA states (%warpid < %nwarpid, %smid <
// %nsmid, one %gridid per launch, clocks that never run backwards).
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "kernel_cases.h"
#include "thread_results.h"

namespace strata::ptx_conformance {
namespace {

using namespace thread_results;

// ---- bra / bra.uni --------------------------------------------------------------------

// A loop whose trip count differs per thread (g % 7 + 1), nested divergent branches,
// a uniform conditional bra.uni on %ctaid and an unconditional bra.uni over dead code.
KernelCase bra_case() {
  const Launch l = launch_1d(2, 64);
  const uint32_t n = 128;
  Body g(n);
  std::string v = g.r(), i = g.r(), trips = g.r(), more = g.p(), loop = g.label();
  g.b << "  mov.u32 " << v << ", %r6;\n  mov.u32 " << i << ", 0;\n  rem.u32 " << trips
      << ", %r4, 7;\n"
      << loop << ":\n  mad.lo.u32 " << v << ", " << v << ", 3, " << i << ";\n  add.u32 " << i
      << ", " << i << ", 1;\n"
      << "  setp.le.u32 " << more << ", " << i << ", " << trips << ";\n  @" << more << " bra "
      << loop << ";\n";
  g.st(0, v);
  // x = a & 1 ? (a & 2 ? 11 : 22) : (a & 4 ? 33 : 44)
  std::string x = g.r(), t = g.r(), p1 = g.p(), p2 = g.p(), p3 = g.p(), l_odd = g.label(),
              l_11 = g.label(), l_44 = g.label(), join = g.label();
  g.b << "  and.b32 " << t << ", %r6, 1;\n  setp.ne.u32 " << p1 << ", " << t << ", 0;\n  @" << p1
      << " bra " << l_odd << ";\n  and.b32 " << t << ", %r6, 4;\n  setp.eq.u32 " << p3 << ", " << t
      << ", 0;\n  @" << p3 << " bra " << l_44 << ";\n  mov.u32 " << x << ", 33;\n  bra " << join
      << ";\n"
      << l_44 << ":\n  mov.u32 " << x << ", 44;\n  bra " << join << ";\n"
      << l_odd << ":\n  and.b32 " << t << ", %r6, 2;\n  setp.eq.u32 " << p2 << ", " << t
      << ", 0;\n  @!" << p2 << " bra " << l_11 << ";\n  mov.u32 " << x << ", 22;\n  bra " << join
      << ";\n"
      << l_11 << ":\n  mov.u32 " << x << ", 11;\n"
      << join << ":\n";
  g.st(1, x);
  // bra.uni on a CTA-uniform predicate, and over dead code.
  std::string y = g.r(), c1 = g.p(), skip = g.label(), dead = g.label(), after = g.label();
  g.b << "  mov.u32 " << y << ", 5;\n  setp.eq.u32 " << c1 << ", %r2, 1;\n  @" << c1 << " bra.uni "
      << skip << ";\n  mov.u32 " << y << ", 6;\n"
      << skip << ":\n  bra.uni " << after << ";\n"
      << dead << ":\n  mov.u32 " << y << ", 7;\n"
      << after << ":\n";
  g.st(2, y);
  std::vector<uint32_t> in = random_words(2 * n, 0xb7a0);
  return make_case("bra.divergent-loops-and-uniform", "bra", {"bra", "bra.uni"}, module(g.b.str()),
                   l, 3, in, [n](const std::vector<uint32_t>& a, Expected& e) {
                     for (uint32_t t = 0; t < n; ++t) {
                       uint32_t v = a[t];
                       for (uint32_t i = 0; i <= t % 7; ++i) v = v * 3 + i;
                       e.set(0, t, v);
                       e.set(1, t, (a[t] & 1) ? ((a[t] & 2) ? 11 : 22) : ((a[t] & 4) ? 33 : 44));
                       e.set(2, t, t / 64 == 1 ? 5 : 6);
                     }
                   });
}

// ---- call / ret -----------------------------------------------------------------------

// nvcc-style .param calls: call.uni of a function with two arguments and an early
// `@p ret` taken by some threads; a void function storing through a pointer; a call
// made by part of a divergent warp; and a nested call.
const char* kFunctions = R"(.func (.param .b32 mix_ret) mix(.param .b32 mix_a, .param .b32 mix_b)
{
  .reg .b32 %m<8>;
  .reg .pred %q<3>;
  ld.param.u32 %m1, [mix_a];
  ld.param.u32 %m2, [mix_b];
  xor.b32 %m3, %m1, %m2;
  st.param.b32 [mix_ret], %m3;
  and.b32 %m4, %m1, 3;
  setp.eq.u32 %q1, %m4, 0;
  @%q1 ret;
  mad.lo.u32 %m5, %m1, 5, %m2;
  st.param.b32 [mix_ret], %m5;
  ret;
}

.func put(.param .b64 put_p, .param .b32 put_v)
{
  .reg .b32 %m<4>;
  .reg .b64 %n<3>;
  ld.param.u64 %n1, [put_p];
  ld.param.u32 %m1, [put_v];
  add.u32 %m2, %m1, 77;
  st.global.u32 [%n1], %m2;
  ret;
}

.func (.param .b32 twice_ret) twice(.param .b32 twice_a)
{
  .reg .b32 %m<6>;
  ld.param.u32 %m1, [twice_a];
  {
  .param .b32 pa;
  st.param.b32 [pa], %m1;
  .param .b32 pb;
  st.param.b32 [pb], %m1;
  .param .b32 pr;
  call.uni (pr), mix, (pa, pb);
  ld.param.b32 %m2, [pr];
  }
  add.u32 %m3, %m2, 1;
  st.param.b32 [twice_ret], %m3;
  ret;
}

)";

uint32_t mix_ref(uint32_t a, uint32_t b) {
  return (a & 3) == 0 ? (a ^ b) : a * 5 + b;
}

KernelCase call_case() {
  const Launch l = launch_1d(2, 64);
  const uint32_t n = 128;
  Body g(n);
  std::string r0 = g.r(), r1 = g.r(), r2 = g.r(), odd = g.p(), t = g.r(), skip = g.label();
  g.b << "  {\n  .param .b32 param0;\n  st.param.b32 [param0], %r6;\n  .param .b32 param1;\n  "
         "st.param.b32 [param1], %r7;\n"
      << "  .param .b32 retval0;\n  call.uni (retval0), mix, (param0, param1);\n  ld.param.b32 "
      << r0 << ", [retval0];\n  }\n";
  g.st(0, r0);
  // void call storing result 1 through a pointer.
  g.b << "  add.s64 %rd11, %rd2, " << 1 * n * 4
      << ";\n  {\n  .param .b64 param0;\n  st.param.b64 [param0], %rd11;\n"
      << "  .param .b32 param1;\n  st.param.b32 [param1], %r6;\n  call.uni put, (param0, "
         "param1);\n  }\n";
  // Only odd threads call (divergent warp), with `call` (not .uni); others keep 9.
  g.b << "  mov.u32 " << r1 << ", 9;\n  and.b32 " << t << ", %r4, 1;\n  setp.eq.u32 " << odd << ", "
      << t << ", 0;\n  @" << odd << " bra " << skip
      << ";\n  {\n  .param .b32 param0;\n  st.param.b32 [param0], %r7;\n"
      << "  .param .b32 param1;\n  st.param.b32 [param1], %r4;\n  .param .b32 retval0;\n"
      << "  call (retval0), mix, (param0, param1);\n  ld.param.b32 " << r1 << ", [retval0];\n  }\n"
      << skip << ":\n";
  g.st(2, r1);
  // Nested: twice(a) = mix(a, a) + 1.
  g.b << "  {\n  .param .b32 param0;\n  st.param.b32 [param0], %r6;\n  .param .b32 retval0;\n"
      << "  call.uni (retval0), twice, (param0);\n  ld.param.b32 " << r2 << ", [retval0];\n  }\n";
  g.st(3, r2);
  std::vector<uint32_t> in = random_words(2 * n, 0xca11);
  return make_case("call.uni.param-functions", "call", {"call.uni", "call", "ret"},
                   module(g.b.str(), "", kFunctions), l, 4, in,
                   [n](const std::vector<uint32_t>& a, Expected& e) {
                     for (uint32_t t = 0; t < n; ++t) {
                       e.set(0, t, mix_ref(a[t], a[n + t]));
                       e.set(1, t, a[t] + 77);
                       e.set(2, t, t % 2 ? mix_ref(a[n + t], t) : 9);
                       e.set(3, t, mix_ref(a[t], a[t]) + 1);
                     }
                   });
}

// ---- ret / exit -----------------------------------------------------------------------

// Threads leave early by `@p ret` (g % 3 == 0), `@p exit` (g % 3 == 1) and the rest
// through an unconditional exit after their last store; a CTA barrier afterwards
// must still complete for the survivors.
KernelCase exit_case() {
  const Launch l = launch_1d(2, 96);
  const uint32_t n = 192;
  Body g(n);
  std::string m = g.r(), p0 = g.p(), p1 = g.p(), v = g.r();
  g.st(0, "%r6");
  g.b << "  rem.u32 " << m << ", %r4, 3;\n  setp.eq.u32 " << p0 << ", " << m
      << ", 0;\n  setp.eq.u32 " << p1 << ", " << m << ", 1;\n  @" << p0 << " ret;\n";
  g.st(1, "%r7");
  g.b << "  @" << p1 << " exit;\n  bar.sync 0;\n  add.u32 " << v << ", %r6, %r7;\n";
  g.st(2, v);
  g.b << "  exit;\n";
  std::vector<uint32_t> in = random_words(2 * n, 0xe417);
  return make_case("exit.ret.early-from-kernel", "exit", {"exit", "ret"}, module(g.b.str()), l, 3,
                   in, [n](const std::vector<uint32_t>& a, Expected& e) {
                     for (uint32_t t = 0; t < n; ++t) {
                       e.set(0, t, a[t]);
                       e.set(1, t, t % 3 == 0 ? kUnwritten : a[n + t]);
                       e.set(2, t, t % 3 == 2 ? a[t] + a[n + t] : kUnwritten);
                     }
                   });
}

// ---- trap / nanosleep -----------------------------------------------------------------

// One thread traps: the launch ends with FaultKind::kTrap.
KernelCase trap_taken() {
  const Launch l = launch_1d(2, 64);
  Body g(128);
  std::string p = g.p();
  g.b << "  setp.eq.u32 " << p << ", %r4, 77;\n  @" << p << " trap;\n";
  g.st(0, "%r6");
  KernelCase c =
      make_case("trap.taken", "trap", {"trap"}, module(g.b.str()), l, 1, random_words(256, 0x7a9),
                [](const std::vector<uint32_t>&, Expected&) {});
  c.expect_fault = hw::FaultKind::kTrap;
  return c;
}

// A guarded trap no thread takes does nothing.
KernelCase trap_not_taken() {
  const Launch l = launch_1d(1, 64);
  const uint32_t n = 64;
  Body g(n);
  std::string p = g.p();
  g.b << "  setp.gt.u32 " << p << ", %r4, 1000;\n  @" << p << " trap;\n";
  g.st(0, "%r6");
  return make_case("trap.not-taken", "trap", {"trap"}, module(g.b.str()), l, 1,
                   random_words(2 * n, 0x7aa), [n](const std::vector<uint32_t>& a, Expected& e) {
                     for (uint32_t t = 0; t < n; ++t) e.set(0, t, a[t]);
                   });
}

// nanosleep with an immediate and a register (divergent: only some threads sleep);
// values live across the sleeps survive.
KernelCase nanosleep_case() {
  const Launch l = launch_1d(2, 64);
  const uint32_t n = 128;
  Body g(n);
  std::string t = g.r(), p = g.p(), v = g.r();
  g.b << "  nanosleep.u32 100;\n  and.b32 " << t << ", %r6, 1023;\n  setp.lt.u32 " << p
      << ", %r5, 7;\n  @" << p << " nanosleep.u32 " << t << ";\n  add.u32 " << v
      << ", %r6, %r7;\n  nanosleep.u32 0;\n";
  g.st(0, v);
  return make_case("nanosleep.immediate-and-register", "nanosleep", {"nanosleep.u32"},
                   module(g.b.str()), l, 1, random_words(2 * n, 0x51ee),
                   [n](const std::vector<uint32_t>& a, Expected& e) {
                     for (uint32_t t = 0; t < n; ++t) e.set(0, t, a[t] + a[n + t]);
                   });
}

// ---- special registers ----------------------------------------------------------------

// Result slots of the special-register case.
enum Slot : int {
  kTid = 0,
  kNtid = 3,
  kCtaid = 6,
  kNctaid = 9,
  kLaneid = 12,
  kWarpid,
  kNwarpid,
  kSmid,
  kNsmid,
  kGrididLo,
  kGrididHi,
  kLanemaskEq,
  kLanemaskLe,
  kLanemaskLt,
  kLanemaskGe,
  kLanemaskGt,
  kEnvreg,  // 32 slots
  kClock1 = kEnvreg + 32,
  kClock2,
  kClock64a,
  kClock64b = kClock64a + 2,
  kTimer1 = kClock64b + 2,
  kTimerLo = kTimer1 + 2,
  kTimerHi,
  kTimer2,
  kDynSmem = kTimer2 + 2,
  kTotalSmem,
  kWarpidAgain,
  kClockHi,
  kSlots
};

constexpr uint32_t kStaticShared = 256, kDynamicShared = 384;
constexpr uint32_t kGrid[3] = {2, 3, 2}, kBlock[3] = {8, 2, 3};

// Every special register read with mov in a 3-D launch whose CTAs end in a partial warp
// (48 threads). The prologue computes the linear thread index g from %tid/%ctaid.
KernelCase special_registers() {
  Launch l;
  std::copy(kGrid, kGrid + 3, l.grid);
  std::copy(kBlock, kBlock + 3, l.block);
  l.dynamic_shared = kDynamicShared;
  const uint32_t per_cta = kBlock[0] * kBlock[1] * kBlock[2];
  const uint32_t n = per_cta * kGrid[0] * kGrid[1] * kGrid[2];
  Body g(n);
  std::ostringstream& b = g.b;
  const char* axes[3] = {"x", "y", "z"};
  std::string tid[3], ntid[3], ctaid[3], nctaid[3];
  for (int i = 0; i < 3; ++i) {
    tid[i] = g.r(), ntid[i] = g.r(), ctaid[i] = g.r(), nctaid[i] = g.r();
    b << "  mov.u32 " << tid[i] << ", %tid." << axes[i] << ";\n  mov.u32 " << ntid[i] << ", %ntid."
      << axes[i] << ";\n"
      << "  mov.u32 " << ctaid[i] << ", %ctaid." << axes[i] << ";\n  mov.u32 " << nctaid[i]
      << ", %nctaid." << axes[i] << ";\n";
  }
  // g = ((ctaid.z * nctaid.y + ctaid.y) * nctaid.x + ctaid.x) * (ntid.x ntid.y ntid.z)
  //     + (tid.z * ntid.y + tid.y) * ntid.x + tid.x
  std::string cta = g.r(), thr = g.r(), size = g.r(), lin = g.r();
  b << "  mad.lo.u32 " << cta << ", " << ctaid[2] << ", " << nctaid[1] << ", " << ctaid[1]
    << ";\n  mad.lo.u32 " << cta << ", " << cta << ", " << nctaid[0] << ", " << ctaid[0]
    << ";\n  mad.lo.u32 " << thr << ", " << tid[2] << ", " << ntid[1] << ", " << tid[1]
    << ";\n  mad.lo.u32 " << thr << ", " << thr << ", " << ntid[0] << ", " << tid[0]
    << ";\n  mul.lo.u32 " << size << ", " << ntid[0] << ", " << ntid[1] << ";\n  mul.lo.u32 "
    << size << ", " << size << ", " << ntid[2] << ";\n  mad.lo.u32 " << lin << ", " << cta << ", "
    << size << ", " << thr << ";\n  mul.wide.u32 %rd11, " << lin
    << ", 4;\n  add.s64 %rd2, %rd1, %rd11;\n";
  for (int i = 0; i < 3; ++i) {
    g.st(kTid + i, tid[i]);
    g.st(kNtid + i, ntid[i]);
    g.st(kCtaid + i, ctaid[i]);
    g.st(kNctaid + i, nctaid[i]);
  }
  auto mov_st = [&](int slot, const std::string& sreg) {
    std::string r = g.r();
    b << "  mov.u32 " << r << ", " << sreg << ";\n";
    g.st(slot, r);
  };
  auto mov_st64 = [&](int slot, const std::string& sreg) {
    std::string r = g.rd();
    b << "  mov.u64 " << r << ", " << sreg << ";\n";
    g.st64(slot, r);
  };
  mov_st(kLaneid, "%laneid");
  mov_st(kWarpid, "%warpid");
  mov_st(kNwarpid, "%nwarpid");
  mov_st(kSmid, "%smid");
  mov_st(kNsmid, "%nsmid");
  mov_st64(kGrididLo, "%gridid");
  mov_st(kLanemaskEq, "%lanemask_eq");
  mov_st(kLanemaskLe, "%lanemask_le");
  mov_st(kLanemaskLt, "%lanemask_lt");
  mov_st(kLanemaskGe, "%lanemask_ge");
  mov_st(kLanemaskGt, "%lanemask_gt");
  for (int i = 0; i < 32; ++i) mov_st(kEnvreg + i, "%envreg" + std::to_string(i));
  // Clocks: first reads, a loop of work, second reads; %globaltimer_lo/_hi in between.
  mov_st(kClock1, "%clock");
  mov_st64(kClock64a, "%clock64");
  mov_st64(kTimer1, "%globaltimer");
  std::string i = g.r(), acc = g.r(), more = g.p(), loop = g.label();
  b << "  mov.u32 " << i << ", 0;\n  mov.u32 " << acc << ", %r6;\n"
    << loop << ":\n  mad.lo.u32 " << acc << ", " << acc << ", 13, " << i << ";\n  add.u32 " << i
    << ", " << i << ", 1;\n  setp.lt.u32 " << more << ", " << i << ", 50;\n  @" << more << " bra "
    << loop << ";\n";
  mov_st(kTimerLo, "%globaltimer_lo");
  mov_st(kTimerHi, "%globaltimer_hi");
  mov_st(kClock2, "%clock");
  mov_st(kClockHi, "%clock_hi");
  mov_st64(kClock64b, "%clock64");
  mov_st64(kTimer2, "%globaltimer");
  mov_st(kDynSmem, "%dynamic_smem_size");
  mov_st(kTotalSmem, "%total_smem_size");
  mov_st(kWarpidAgain, "%warpid");
  // Touch both shared arrays so that their sizes are part of the launch.
  b << "  mov.u64 %rd12, st_sh;\n  st.shared.u32 [%rd12], " << acc
    << ";\n  mov.u64 %rd13, dyn_sh;\n"
    << "  st.shared.u32 [%rd13], " << acc << ";\n";
  std::string decls = "  .shared .align 4 .b8 st_sh[" + std::to_string(kStaticShared) + "];\n";
  std::string before = ".extern .shared .align 16 .b8 dyn_sh[];\n\n";

  KernelCase c;
  c.name = "mov.special-registers";
  c.family = "sreg";
  c.forms = {"mov.u32", "mov.u64"};
  c.ptx = module(b.str(), decls, before);
  c.launch = l;
  c.buffers = {bytes_of(std::vector<uint32_t>(static_cast<size_t>(n) * kSlots, kUnwritten)),
               bytes_of(random_words(2 * n, 0x5e9))};
  c.check = [n, per_cta](const Buffers& after) -> std::string {
    std::vector<uint32_t> out = values_of<uint32_t>(after[0]);
    auto at = [&](int slot, uint32_t t) { return out[static_cast<size_t>(slot) * n + t]; };
    auto at64 = [&](int slot, uint32_t t) {
      return uint64_t{at(slot, t)} | uint64_t{at(slot + 1, t)} << 32;
    };
    char s[200];
    auto bad = [&](const char* what, uint32_t t, uint64_t want, uint64_t got) {
      std::snprintf(s, sizeof s, "%s of thread %u: expected 0x%llx got 0x%llx", what, t,
                    static_cast<unsigned long long>(want), static_cast<unsigned long long>(got));
      return std::string(s);
    };
    const uint64_t gridid = at64(kGrididLo, 0);
    for (uint32_t t = 0; t < n; ++t) {
      const uint32_t cl = t / per_cta, tl = t % per_cta, lane = tl % 32;
      const uint32_t want_tid[3] = {tl % kBlock[0], tl / kBlock[0] % kBlock[1],
                                    tl / (kBlock[0] * kBlock[1])};
      const uint32_t want_cta[3] = {cl % kGrid[0], cl / kGrid[0] % kGrid[1],
                                    cl / (kGrid[0] * kGrid[1])};
      for (int i = 0; i < 3; ++i) {
        if (at(kTid + i, t) != want_tid[i]) return bad("%tid", t, want_tid[i], at(kTid + i, t));
        if (at(kNtid + i, t) != kBlock[i]) return bad("%ntid", t, kBlock[i], at(kNtid + i, t));
        if (at(kCtaid + i, t) != want_cta[i])
          return bad("%ctaid", t, want_cta[i], at(kCtaid + i, t));
        if (at(kNctaid + i, t) != kGrid[i]) return bad("%nctaid", t, kGrid[i], at(kNctaid + i, t));
      }
      if (at(kLaneid, t) != lane) return bad("%laneid", t, lane, at(kLaneid, t));
      if (at(kNwarpid, t) < (per_cta + 31) / 32)
        return bad("%nwarpid (at least the CTA's warps)", t, 2, at(kNwarpid, t));
      if (at(kWarpid, t) >= at(kNwarpid, t))
        return bad("%warpid < %nwarpid", t, at(kNwarpid, t), at(kWarpid, t));
      if (at(kWarpidAgain, t) >= at(kNwarpid, t))
        return bad("%warpid < %nwarpid", t, at(kNwarpid, t), at(kWarpidAgain, t));
      if (at(kNsmid, t) == 0) return bad("%nsmid > 0", t, 1, 0);
      if (at(kSmid, t) >= at(kNsmid, t))
        return bad("%smid < %nsmid", t, at(kNsmid, t), at(kSmid, t));
      if (at64(kGrididLo, t) != gridid)
        return bad("%gridid (one per launch)", t, gridid, at64(kGrididLo, t));
      const uint32_t eq = 1u << lane, lt = eq - 1, le = lt | eq;
      if (at(kLanemaskEq, t) != eq) return bad("%lanemask_eq", t, eq, at(kLanemaskEq, t));
      if (at(kLanemaskLe, t) != le) return bad("%lanemask_le", t, le, at(kLanemaskLe, t));
      if (at(kLanemaskLt, t) != lt) return bad("%lanemask_lt", t, lt, at(kLanemaskLt, t));
      if (at(kLanemaskGe, t) != ~lt) return bad("%lanemask_ge", t, ~lt, at(kLanemaskGe, t));
      if (at(kLanemaskGt, t) != ~le) return bad("%lanemask_gt", t, ~le, at(kLanemaskGt, t));
      for (int i = 0; i < 32; ++i)
        if (at(kEnvreg + i, t) != 0) return bad("%envreg", t, 0, at(kEnvreg + i, t));
      // Clocks never run backwards in a thread; 50 loop iterations take cycles.
      if (static_cast<int32_t>(at(kClock2, t) - at(kClock1, t)) < 0)
        return bad("%clock (monotonic)", t, at(kClock1, t), at(kClock2, t));
      if (at64(kClock64b, t) <= at64(kClock64a, t))
        return bad("%clock64 (advances)", t, at64(kClock64a, t), at64(kClock64b, t));
      if (at(kClockHi, t) < at(kClock64a + 1, t) || at(kClockHi, t) > at(kClock64b + 1, t))
        return bad("%clock_hi between the high words of two %clock64 reads", t,
                   at(kClock64a + 1, t), at(kClockHi, t));
      const uint64_t t1 = at64(kTimer1, t), t2 = at64(kTimer2, t);
      const uint64_t split = uint64_t{at(kTimerHi, t)} << 32 | at(kTimerLo, t);
      if (t2 < t1) return bad("%globaltimer (monotonic)", t, t1, t2);
      if ((t1 >> 32) == (t2 >> 32) && (split < t1 || split > t2))
        return bad("%globaltimer_hi:%globaltimer_lo between two %globaltimer reads", t, t1, split);
      if (at(kDynSmem, t) != kDynamicShared)
        return bad("%dynamic_smem_size", t, kDynamicShared, at(kDynSmem, t));
      // Static plus dynamic, in whole allocation units (128 bytes on sm_80).
      const uint32_t total = at(kTotalSmem, t), used = kStaticShared + kDynamicShared;
      if (total < used || total % 128 != 0 || total >= used + 128)
        return bad("%total_smem_size", t, used, total);
    }
    return "";
  };
  return c;
}

// Dynamic shared memory as the only shared array: threads write, barrier, read back a
// neighbour's word, with %dynamic_smem_size bounding the indices.
KernelCase dynamic_shared_case() {
  Launch l = launch_1d(2, 128);
  l.dynamic_shared = 128 * 4;
  const uint32_t n = 256;
  Body g(n);
  std::string size = g.r(), words = g.r(), src = g.r(), got = g.r();
  g.b << "  mov.u32 " << size << ", %dynamic_smem_size;\n  shr.u32 " << words << ", " << size
      << ", 2;\n"
      << "  mov.u64 %rd11, dyn;\n  mul.wide.u32 %rd12, %r1, 4;\n  add.s64 %rd13, %rd11, %rd12;\n"
      << "  st.shared.u32 [%rd13], %r6;\n  bar.sync 0;\n  add.u32 " << src
      << ", %r1, 1;\n  rem.u32 " << src << ", " << src << ", " << words
      << ";\n  mul.wide.u32 %rd14, " << src
      << ", 4;\n  add.s64 %rd15, %rd11, %rd14;\n  ld.shared.u32 " << got << ", [%rd15];\n";
  g.st(0, got);
  g.st(1, size);
  return make_case("mov.dynamic-shared-memory", "sreg", {"bar.sync"},
                   module(g.b.str(), "", ".extern .shared .align 4 .b32 dyn[];\n\n"), l, 2,
                   random_words(2 * n, 0xd15), [n](const std::vector<uint32_t>& a, Expected& e) {
                     for (uint32_t t = 0; t < n; ++t) {
                       uint32_t cta = t / 128 * 128;
                       e.set(0, t, a[cta + (t % 128 + 1) % 128]);
                       e.set(1, t, 512);
                     }
                   });
}

// Recursion (a call stack per thread, depths differing within a warp) and `exit`
// executed inside a called function by some threads.
const char* kRecursive = R"(.func (.param .b32 sum_ret) sum_to(.param .b32 sum_n)
{
  .reg .b32 %m<6>;
  .reg .pred %q<2>;
  ld.param.u32 %m1, [sum_n];
  setp.eq.u32 %q1, %m1, 0;
  @%q1 bra SUM_ZERO;
  sub.u32 %m2, %m1, 1;
  {
  .param .b32 pn;
  st.param.b32 [pn], %m2;
  .param .b32 pr;
  call (pr), sum_to, (pn);
  ld.param.b32 %m3, [pr];
  }
  mad.lo.u32 %m4, %m1, 10, %m3;
  st.param.b32 [sum_ret], %m4;
  ret;
SUM_ZERO:
  st.param.b32 [sum_ret], 7;
  ret;
}

.func leave_if_odd(.param .b32 leave_x)
{
  .reg .b32 %m<3>;
  .reg .pred %q<2>;
  ld.param.u32 %m1, [leave_x];
  and.b32 %m2, %m1, 1;
  setp.ne.u32 %q1, %m2, 0;
  @%q1 exit;
  ret;
}

)";

KernelCase call_recursive_and_exit() {
  const Launch l = launch_1d(2, 64);
  const uint32_t n = 128;
  Body g(n);
  std::string depth = g.r(), r = g.r();
  g.b << "  rem.u32 " << depth << ", %r4, 6;\n  {\n  .param .b32 param0;\n  st.param.b32 [param0], "
      << depth << ";\n"
      << "  .param .b32 retval0;\n  call (retval0), sum_to, (param0);\n  ld.param.b32 " << r
      << ", [retval0];\n  }\n";
  g.st(0, r);
  g.b << "  {\n  .param .b32 param0;\n  st.param.b32 [param0], %r6;\n  call.uni leave_if_odd, "
         "(param0);\n  }\n";
  g.st(1, "%r7");
  std::vector<uint32_t> in = random_words(2 * n, 0x5ec);
  return make_case("call.recursion-and-exit-in-function", "call",
                   {"call", "call.uni", "ret", "exit"}, module(g.b.str(), "", kRecursive), l, 2, in,
                   [n](const std::vector<uint32_t>& a, Expected& e) {
                     for (uint32_t t = 0; t < n; ++t) {
                       uint32_t v = 7;
                       for (uint32_t d = 1; d <= t % 6; ++d) v = d * 10 + v;
                       e.set(0, t, v);
                       e.set(1, t, (a[t] & 1) ? kUnwritten : a[n + t]);
                     }
                   });
}

// A uniform loop closed by a backward bra.uni (trip count %ctaid.x + 2).
KernelCase bra_uni_loop() {
  const Launch l = launch_1d(3, 64);
  const uint32_t n = 192;
  Body g(n);
  std::string v = g.r(), i = g.r(), trips = g.r(), more = g.p(), loop = g.label();
  g.b << "  mov.u32 " << v << ", %r6;\n  mov.u32 " << i << ", 0;\n  add.u32 " << trips
      << ", %r2, 2;\n"
      << loop << ":\n  xor.b32 " << v << ", " << v << ", " << i << ";\n  shl.b32 " << v << ", " << v
      << ", 1;\n  add.u32 " << i << ", " << i << ", 1;\n  setp.lt.u32 " << more << ", " << i << ", "
      << trips << ";\n  @" << more << " bra.uni " << loop << ";\n";
  g.st(0, v);
  return make_case("bra.uni.uniform-loop", "bra", {"bra.uni"}, module(g.b.str()), l, 1,
                   random_words(2 * n, 0xb0b), [n](const std::vector<uint32_t>& a, Expected& e) {
                     for (uint32_t t = 0; t < n; ++t) {
                       uint32_t v = a[t];
                       for (uint32_t i = 0; i < t / 64 + 2; ++i) v = (v ^ i) << 1;
                       e.set(0, t, v);
                     }
                   });
}

}  // namespace

std::vector<KernelCase> control_cases() {
  return {bra_case(),          bra_uni_loop(),       call_case(),      call_recursive_and_exit(),
          exit_case(),         trap_taken(),         trap_not_taken(), nanosleep_case(),
          special_registers(), dynamic_shared_case()};
}

}  // namespace strata::ptx_conformance
