// Kernel conformance cases: shfl/vote/match/redux/activemask/bar/barrier (see kernel_cases.h).
//
// Every case is a 1-D launch whose threads store 32-bit results: result k of thread g
// (g = ctaid.x * ntid.x + tid.x, n threads in all) lands at out[k * n + g]. The host
// references below follow the PTX ISA's definitions (the shfl.sync pseudo-code, the
// vote/match/redux/bar.red descriptions); results the ISA leaves undefined (a shfl
// from a lane outside the member mask) are not checked.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <sstream>
#include <tuple>

#include "kernel_cases.h"
#include "thread_results.h"

namespace strata::ptx_conformance {
namespace {

using namespace thread_results;

// ---- shfl.sync ------------------------------------------------------------------------

enum class Mode { kUp, kDown, kBfly, kIdx };
const char* mode_name(Mode m) {
  switch (m) {
    case Mode::kUp:
      return "up";
    case Mode::kDown:
      return "down";
    case Mode::kBfly:
      return "bfly";
    default:
      return "idx";
  }
}

// The PTX ISA's shfl.sync pseudo-code: the source lane j and the predicate.
struct ShflSrc {
  uint32_t j;
  bool in_range;
};
ShflSrc shfl_source(Mode m, uint32_t lane, uint32_t b, uint32_t c) {
  const int bval = static_cast<int>(b & 31), cval = static_cast<int>(c & 31),
            seg = static_cast<int>((c >> 8) & 31);
  const int l = static_cast<int>(lane);
  const int max_lane = (l & seg) | (cval & ~seg), min_lane = l & seg;
  int j = 0;
  bool p = false;
  switch (m) {
    case Mode::kUp:
      j = l - bval;
      p = j >= max_lane;
      break;
    case Mode::kDown:
      j = l + bval;
      p = j <= max_lane;
      break;
    case Mode::kBfly:
      j = l ^ bval;
      p = j <= max_lane;
      break;
    case Mode::kIdx:
      j = min_lane | (bval & ~seg);
      p = j <= max_lane;
      break;
  }
  return {p ? static_cast<uint32_t>(j) : lane, p};
}

// b operand: an immediate, or (kRegB) the per-lane value (lane * 7 + 3) & 63.
constexpr int64_t kRegB = -1;
uint32_t b_value(int64_t b, uint32_t lane) {
  return b == kRegB ? (lane * 7 + 3) & 63 : static_cast<uint32_t>(b);
}

struct ShflCombo {
  Mode m;
  int64_t b;
  uint32_t c;
  bool c_in_reg = false;
  bool with_pred = true;
};

// Every mode over the full warp: clamp values, segment masks (the CUDA width argument),
// lane offsets past the segment and per-lane sources above 31 (only b[4:0] counts).
KernelCase shfl_full() {
  std::vector<ShflCombo> combos = {
      {Mode::kIdx, 0, 0x1f},
      {Mode::kIdx, 5, 0x1f},
      {Mode::kIdx, 31, 0x1f},
      {Mode::kIdx, kRegB, 0x1f},
      {Mode::kIdx, 3, 0x181f},
      {Mode::kIdx, kRegB, 0x1c1f},
      {Mode::kIdx, kRegB, 0x0f},
      {Mode::kIdx, 9, 0x1007},
      {Mode::kIdx, kRegB, 0x0810},
      {Mode::kIdx, 37, 0x1f, false, false},
      {Mode::kIdx, kRegB, 0x101f, true},
      {Mode::kUp, 1, 0},
      {Mode::kUp, 4, 0},
      {Mode::kUp, 0, 0},
      {Mode::kUp, 31, 0},
      {Mode::kUp, kRegB, 0},
      {Mode::kUp, 1, 0x1800},
      {Mode::kUp, 2, 0x1c00},
      {Mode::kUp, 3, 0x10},
      {Mode::kUp, 1, 0x1f},
      {Mode::kUp, kRegB, 0x1008},
      {Mode::kUp, 16, 0, false, false},
      {Mode::kDown, 1, 0x1f},
      {Mode::kDown, 16, 0x1f},
      {Mode::kDown, kRegB, 0x1f},
      {Mode::kDown, 1, 0x181f},
      {Mode::kDown, 3, 0x1c1f},
      {Mode::kDown, 2, 0x0f},
      {Mode::kDown, 0, 0x1f},
      {Mode::kDown, 5, 0x1000},
      {Mode::kDown, kRegB, 0x0807},
      {Mode::kDown, 8, 0x1f, true, false},
      {Mode::kBfly, 1, 0x1f},
      {Mode::kBfly, 2, 0x1f},
      {Mode::kBfly, 16, 0x1f},
      {Mode::kBfly, kRegB, 0x1f},
      {Mode::kBfly, 1, 0x181f},
      {Mode::kBfly, 4, 0x1c1f},
      {Mode::kBfly, 7, 0x0f},
      {Mode::kBfly, kRegB, 0x1007},
      {Mode::kBfly, 31, 0x1f, false, false},
      {Mode::kBfly, 3, 0x181f, true},
  };
  const Launch l = launch_1d(2, 64);
  const uint32_t n = 128;
  Body g(n);
  std::string breg = g.r();
  g.b << "  mad.lo.u32 " << breg << ", %r5, 7, 3;\n  and.b32 " << breg << ", " << breg << ", 63;\n";
  int k = 0;
  for (const ShflCombo& x : combos) {
    std::string d = g.r(), p = g.p(), c = std::to_string(x.c);
    if (x.c_in_reg) {
      c = g.r();
      g.b << "  mov.u32 " << c << ", " << x.c << ";\n";
    }
    std::string b = x.b == kRegB ? breg : std::to_string(x.b);
    g.b << "  shfl.sync." << mode_name(x.m) << ".b32 " << d << (x.with_pred ? "|" + p : "")
        << ", %r6, " << b << ", " << c << ", -1;\n";
    g.st(k, d);
    if (x.with_pred) g.st_pred(k + 1, p);
    k += 2;
  }
  std::vector<uint32_t> in = random_words(2 * n, 0x51f1);
  return make_case(
      "shfl.sync.modes-full-warp", "shfl",
      {"shfl.sync.idx.b32", "shfl.sync.up.b32", "shfl.sync.down.b32", "shfl.sync.bfly.b32"},
      module(g.b.str()), l, k, in, [combos, n](const std::vector<uint32_t>& a, Expected& e) {
        for (uint32_t t = 0; t < n; ++t) {
          const uint32_t lane = t % 32, base = t - lane;
          int k = 0;
          for (const ShflCombo& x : combos) {
            ShflSrc s = shfl_source(x.m, lane, b_value(x.b, lane), x.c);
            e.set(k, t, a[base + s.j]);
            if (x.with_pred) e.set(k + 1, t, s.in_range);
            k += 2;
          }
        }
      });
}

// Member masks naming part of the warp: non-members branch around the shfl (or are
// guarded off) and keep their marker; a member reading a non-member lane is undefined.
KernelCase shfl_partial() {
  struct P {
    uint32_t mask;
    ShflCombo x;
    bool guard;  // non-members guarded off instead of branching around
  };
  std::vector<P> cases = {
      {0x00ff00ffu, {Mode::kBfly, 16, 0x1f}, false},   {0x00ff00ffu, {Mode::kBfly, 3, 0x1f}, false},
      {0x00ff00ffu, {Mode::kIdx, kRegB, 0x1f}, false}, {0xf0f0f0f0u, {Mode::kDown, 1, 0x1f}, false},
      {0xf0f0f0f0u, {Mode::kUp, 2, 0x1c00}, false},    {0x0000ffffu, {Mode::kIdx, 0, 0x181f}, true},
      {0x80000001u, {Mode::kBfly, 31, 0x1f}, false},   {0x55555555u, {Mode::kDown, 2, 0x1f}, true},
      {0x00000010u, {Mode::kIdx, 4, 0x1f}, false},     {0xfffffffeu, {Mode::kUp, 1, 0}, false},
  };
  const Launch l = launch_1d(1, 96);
  const uint32_t n = 96;
  Body g(n);
  std::string breg = g.r();
  g.b << "  mad.lo.u32 " << breg << ", %r5, 7, 3;\n  and.b32 " << breg << ", " << breg << ", 63;\n";
  int k = 0;
  for (const P& c : cases) {
    std::string d = g.r(), p = g.p(), bit = g.r(), member = g.p(), skip = g.label();
    std::string b = c.x.b == kRegB ? breg : std::to_string(c.x.b);
    g.b << "  mov.u32 " << d << ", " << 0xc0de0000u + k << ";\n  setp.ne.u32 " << p << ", 0, 0;\n"
        << "  shr.b32 " << bit << ", " << c.mask << ", %r5;\n  and.b32 " << bit << ", " << bit
        << ", 1;\n"
        << "  setp.ne.u32 " << member << ", " << bit << ", 0;\n";
    std::string shfl = "shfl.sync." + std::string(mode_name(c.x.m)) + ".b32 " + d + "|" + p +
                       ", %r6, " + b + ", " + std::to_string(c.x.c) + ", " +
                       std::to_string(c.mask) + ";\n";
    if (c.guard) {
      g.b << "  @" << member << " " << shfl;
    } else {
      g.b << "  @!" << member << " bra " << skip << ";\n  " << shfl << skip << ":\n";
    }
    g.st(k, d);
    g.st_pred(k + 1, p);
    k += 2;
  }
  std::vector<uint32_t> in = random_words(2 * n, 0x7a11);
  return make_case(
      "shfl.sync.partial-member-masks", "shfl",
      {"shfl.sync.idx.b32", "shfl.sync.up.b32", "shfl.sync.down.b32", "shfl.sync.bfly.b32"},
      module(g.b.str()), l, k, in, [cases, n](const std::vector<uint32_t>& a, Expected& e) {
        for (uint32_t t = 0; t < n; ++t) {
          const uint32_t lane = t % 32, base = t - lane;
          int k = 0;
          for (const P& c : cases) {
            if ((c.mask >> lane & 1) == 0) {
              e.set(k, t, 0xc0de0000u + k);
              e.set(k + 1, t, 0);
            } else {
              ShflSrc s = shfl_source(c.x.m, lane, b_value(c.x.b, lane), c.x.c);
              if ((c.mask >> s.j) & 1) e.set(k, t, a[base + s.j]);
              e.set(k + 1, t, s.in_range);
            }
            k += 2;
          }
        }
      });
}

// Divergent warps: the two halves shuffle with different instructions and masks; then
// a loop whose trip count differs per lane shuffles among the lanes still looping.
KernelCase shfl_divergent() {
  const Launch l = launch_1d(2, 64);
  const uint32_t n = 128;
  Body g(n);
  std::string lo = g.p(), d = g.r(), p = g.p(), other = g.label(), join = g.label();
  g.b << "  setp.lt.u32 " << lo << ", %r5, 16;\n  @!" << lo << " bra " << other << ";\n"
      << "  shfl.sync.down.b32 " << d << "|" << p << ", %r6, 1, 15, 0xffff;\n  bra " << join
      << ";\n"
      << other << ":\n  shfl.sync.up.b32 " << d << "|" << p << ", %r6, 1, 16, 0xffff0000;\n"
      << join << ":\n";
  g.st(0, d);
  g.st_pred(1, p);
  std::string full = g.r();
  g.b << "  shfl.sync.idx.b32 " << full << ", " << d << ", 31, 31, -1;\n";
  g.st(2, full);
  // Loop: trips = lane % 4 + 1; iteration i's members are lanes with lane % 4 >= i.
  std::string v = g.r(), i = g.r(), trips = g.r(), m = g.r(), t = g.r(), more = g.p(),
              loop = g.label();
  g.b << "  mov.u32 " << v << ", %r6;\n  mov.u32 " << i << ", 0;\n  and.b32 " << trips
      << ", %r5, 3;\n"
      << loop << ":\n  shl.b32 " << m << ", 15, " << i << ";\n  and.b32 " << m << ", " << m
      << ", 15;\n"
      << "  mul.lo.u32 " << m << ", " << m << ", 0x11111111;\n"
      << "  shfl.sync.bfly.b32 " << t << ", " << v << ", 4, 31, " << m << ";\n"
      << "  mad.lo.u32 " << v << ", " << v << ", 3, " << t << ";\n  add.u32 " << i << ", " << i
      << ", 1;\n"
      << "  setp.le.u32 " << more << ", " << i << ", " << trips << ";\n  @" << more << " bra "
      << loop << ";\n";
  g.st(3, v);
  std::vector<uint32_t> in = random_words(2 * n, 0x3d1e);
  return make_case(
      "shfl.sync.divergent-warp", "shfl",
      {"shfl.sync.down.b32", "shfl.sync.up.b32", "shfl.sync.idx.b32", "shfl.sync.bfly.b32"},
      module(g.b.str()), l, 4, in, [n](const std::vector<uint32_t>& a, Expected& e) {
        for (uint32_t w = 0; w < n / 32; ++w) {
          uint32_t d[32], v[32];
          for (uint32_t lane = 0; lane < 32; ++lane) {
            ShflSrc s = lane < 16 ? shfl_source(Mode::kDown, lane, 1, 15)
                                  : shfl_source(Mode::kUp, lane, 1, 16);
            d[lane] = a[w * 32 + s.j];
            e.set(0, w * 32 + lane, d[lane]);
            e.set(1, w * 32 + lane, s.in_range);
            v[lane] = a[w * 32 + lane];
          }
          for (uint32_t lane = 0; lane < 32; ++lane) e.set(2, w * 32 + lane, d[31]);
          for (uint32_t it = 0; it < 4; ++it) {
            uint32_t nv[32];
            for (uint32_t lane = 0; lane < 32; ++lane) {
              nv[lane] = v[lane];
              if (lane % 4 >= it) nv[lane] = v[lane] * 3 + v[lane ^ 4];
            }
            std::copy(nv, nv + 32, v);
          }
          for (uint32_t lane = 0; lane < 32; ++lane) e.set(3, w * 32 + lane, v[lane]);
        }
      });
}

// ---- vote.sync ------------------------------------------------------------------------

struct VoteRes {
  uint32_t ballot;
  bool all, any, uni;
};
VoteRes vote_ref(const bool* pred, uint32_t members) {
  VoteRes r{0, true, false, true};
  int first = -1;
  for (int l = 0; l < 32; ++l) {
    if (!((members >> l) & 1)) continue;
    if (pred[l]) r.ballot |= 1u << l;
    r.all = r.all && pred[l];
    r.any = r.any || pred[l];
    if (first < 0) first = l;
    r.uni = r.uni && pred[l] == pred[first];
  }
  return r;
}

// Predicates: bit `k` of in[g] (k = 0..4), with and without `!`, over the full warp, a
// partial member mask (non-members branch around) and a divergent warp whose halves
// vote with their own masks.
KernelCase vote_cases() {
  const Launch l = launch_1d(2, 64);
  const uint32_t n = 128;
  Body g(n);
  int k = 0;
  auto vote_all4 = [&](const std::string& pred, const std::string& mask) {
    std::string b1 = g.r(), b2 = g.r(), pa = g.p(), py = g.p(), pu = g.p();
    g.b << "  vote.sync.ballot.b32 " << b1 << ", " << pred << ", " << mask << ";\n"
        << "  vote.ballot.sync.b32 " << b2 << ", " << pred << ", " << mask << ";\n"
        << "  vote.sync.all.pred " << pa << ", " << pred << ", " << mask << ";\n"
        << "  vote.sync.any.pred " << py << ", " << pred << ", " << mask << ";\n"
        << "  vote.sync.uni.pred " << pu << ", " << pred << ", " << mask << ";\n";
    return std::vector<std::string>{b1, b2, pa, py, pu};
  };
  auto store5 = [&](const std::vector<std::string>& r) {
    g.st(k, r[0]);
    g.st(k + 1, r[1]);
    g.st_pred(k + 2, r[2]);
    g.st_pred(k + 3, r[3]);
    g.st_pred(k + 4, r[4]);
    k += 5;
  };
  std::vector<std::string> preds;
  for (int bit = 0; bit < 5; ++bit) {
    std::string t = g.r(), p = g.p();
    g.b << "  shr.b32 " << t << ", %r6, " << bit << ";\n  and.b32 " << t << ", " << t << ", 1;\n"
        << "  setp.ne.u32 " << p << ", " << t << ", 0;\n";
    preds.push_back(p);
  }
  for (int bit = 0; bit < 5; ++bit) store5(vote_all4(preds[bit], "-1"));
  store5(vote_all4("!" + preds[0], "0xffffffff"));
  // Partial masks: members of 0x0f0f00ff vote; others branch around keeping markers.
  const uint32_t kMask = 0x0f0f00ffu;
  for (int bit : {0, 3}) {
    std::string t = g.r(), member = g.p(), skip = g.label();
    g.b << "  shr.b32 " << t << ", " << kMask << ", %r5;\n  and.b32 " << t << ", " << t << ", 1;\n"
        << "  setp.ne.u32 " << member << ", " << t << ", 0;\n";
    std::vector<std::string> r = {g.r(), g.r(), g.p(), g.p(), g.p()};
    g.b << "  mov.u32 " << r[0] << ", 7;\n  mov.u32 " << r[1] << ", 7;\n  setp.eq.u32 " << r[2]
        << ", 1, 1;\n"
        << "  setp.eq.u32 " << r[3] << ", 1, 1;\n  setp.eq.u32 " << r[4] << ", 1, 1;\n  @!"
        << member << " bra " << skip << ";\n"
        << "  vote.sync.ballot.b32 " << r[0] << ", " << preds[bit] << ", " << kMask << ";\n"
        << "  vote.ballot.sync.b32 " << r[1] << ", " << preds[bit] << ", " << kMask << ";\n"
        << "  vote.sync.all.pred " << r[2] << ", " << preds[bit] << ", " << kMask << ";\n"
        << "  vote.sync.any.pred " << r[3] << ", " << preds[bit] << ", " << kMask << ";\n"
        << "  vote.sync.uni.pred " << r[4] << ", " << preds[bit] << ", " << kMask << ";\n"
        << skip << ":\n";
    store5(r);
  }
  // Divergent: even lanes vote with 0x55555555 on bit 1, odd lanes with 0xaaaaaaaa on bit 0.
  {
    std::string t = g.r(), even = g.p(), odd = g.label(), join = g.label();
    std::vector<std::string> r = {g.r(), g.r(), g.p(), g.p(), g.p()};
    g.b << "  and.b32 " << t << ", %r5, 1;\n  setp.eq.u32 " << even << ", " << t << ", 0;\n  @!"
        << even << " bra " << odd << ";\n";
    for (auto [pred, mask, label] : {std::tuple{preds[1], "0x55555555", join},
                                     std::tuple{preds[0], "0xaaaaaaaa", std::string()}}) {
      g.b << "  vote.sync.ballot.b32 " << r[0] << ", " << pred << ", " << mask << ";\n"
          << "  vote.ballot.sync.b32 " << r[1] << ", " << pred << ", " << mask << ";\n"
          << "  vote.sync.all.pred " << r[2] << ", " << pred << ", " << mask << ";\n"
          << "  vote.sync.any.pred " << r[3] << ", " << pred << ", " << mask << ";\n"
          << "  vote.sync.uni.pred " << r[4] << ", " << pred << ", " << mask << ";\n";
      if (!label.empty()) g.b << "  bra " << label << ";\n" << odd << ":\n";
    }
    g.b << join << ":\n";
    store5(r);
  }
  // Inputs: bit 0 random; bit 1 set in warp 0 only; bit 2 clear everywhere except lane 9
  // of warp 1; bit 3 = lane < 16; bit 4 set everywhere except lane 31 of warp 2.
  std::vector<uint32_t> in = random_words(2 * n, 0x90fe);
  for (uint32_t t = 0; t < n; ++t) {
    uint32_t lane = t % 32, w = t / 32, x = in[t] & 1;
    x |= (w == 0) << 1;
    x |= (w == 1 && lane == 9) << 2;
    x |= (lane < 16) << 3;
    x |= !(w == 2 && lane == 31) << 4;
    in[t] = x;
  }
  return make_case("vote.sync.masks-and-divergence", "vote",
                   {"vote.sync.ballot.b32", "vote.ballot.sync.b32", "vote.sync.all.pred",
                    "vote.sync.any.pred", "vote.sync.uni.pred"},
                   module(g.b.str()), l, k, in,
                   [n, kMask](const std::vector<uint32_t>& a, Expected& e) {
                     for (uint32_t w = 0; w < n / 32; ++w) {
                       auto put = [&](int k, const bool* pred, uint32_t members, uint32_t lane) {
                         VoteRes r = vote_ref(pred, members);
                         uint32_t t = w * 32 + lane;
                         e.set(k, t, r.ballot);
                         e.set(k + 1, t, r.ballot);
                         e.set(k + 2, t, r.all);
                         e.set(k + 3, t, r.any);
                         e.set(k + 4, t, r.uni);
                       };
                       bool bits[5][32], neg0[32];
                       for (uint32_t lane = 0; lane < 32; ++lane) {
                         for (int b = 0; b < 5; ++b) bits[b][lane] = (a[w * 32 + lane] >> b) & 1;
                         neg0[lane] = !bits[0][lane];
                       }
                       for (uint32_t lane = 0; lane < 32; ++lane) {
                         for (int b = 0; b < 5; ++b) put(b * 5, bits[b], ~0u, lane);
                         put(25, neg0, ~0u, lane);
                         int k = 30;
                         for (int b : {0, 3}) {
                           if ((kMask >> lane) & 1) {
                             put(k, bits[b], kMask, lane);
                           } else {
                             for (int j = 0; j < 5; ++j) e.set(k + j, w * 32 + lane, j < 2 ? 7 : 1);
                           }
                           k += 5;
                         }
                         if (lane % 2 == 0)
                           put(40, bits[1], 0x55555555u, lane);
                         else
                           put(40, bits[0], 0xaaaaaaaau, lane);
                       }
                     }
                   });
}

// ---- match.sync -----------------------------------------------------------------------

// Values in few classes; the .b64 values share low words across classes so that only
// the high word tells some of them apart.
KernelCase match_cases() {
  const Launch l = launch_1d(2, 64);
  const uint32_t n = 128;
  Body g(n);
  std::string a64 = g.rd();
  g.b << "  mov.b64 " << a64 << ", {%r6, %r7};\n";
  int k = 0;
  struct M {
    uint32_t mask;
    bool divergent;  // even lanes use `mask`, odd lanes its complement
  };
  const std::vector<M> ms = {
      {0xffffffffu, false}, {0x00ff0f0fu, false}, {0x55555555u, true}, {0x0000ff00u, false}};
  for (const M& m : ms) {
    std::string t = g.r(), member = g.p(), skip = g.label();
    std::string any32 = g.r(), all32 = g.r(), any64 = g.r(), all64 = g.r(), p32 = g.p(),
                p64 = g.p(), d2 = g.r();
    g.b << "  mov.u32 " << any32 << ", 3;\n  mov.u32 " << all32 << ", 3;\n  mov.u32 " << any64
        << ", 3;\n  mov.u32 " << all64 << ", 3;\n  mov.u32 " << d2 << ", 3;\n  setp.eq.u32 " << p32
        << ", 1, 1;\n  setp.eq.u32 " << p64 << ", 1, 1;\n";
    auto body = [&](uint32_t mask) {
      g.b << "  match.any.sync.b32 " << any32 << ", %r6, " << mask << ";\n"
          << "  match.all.sync.b32 " << all32 << "|" << p32 << ", %r6, " << mask << ";\n"
          << "  match.any.sync.b64 " << any64 << ", " << a64 << ", " << mask << ";\n"
          << "  match.all.sync.b64 " << all64 << "|" << p64 << ", " << a64 << ", " << mask << ";\n"
          << "  match.all.sync.b32 " << d2 << ", %r7, " << mask << ";\n";
    };
    if (m.divergent) {
      std::string odd = g.label();
      g.b << "  and.b32 " << t << ", %r5, 1;\n  setp.ne.u32 " << member << ", " << t << ", 0;\n  @"
          << member << " bra " << odd << ";\n";
      body(m.mask);
      g.b << "  bra " << skip << ";\n" << odd << ":\n";
      body(~m.mask);
      g.b << skip << ":\n";
    } else {
      g.b << "  shr.b32 " << t << ", " << m.mask << ", %r5;\n  and.b32 " << t << ", " << t
          << ", 1;\n"
          << "  setp.eq.u32 " << member << ", " << t << ", 0;\n  @" << member << " bra " << skip
          << ";\n";
      body(m.mask);
      g.b << skip << ":\n";
    }
    g.st(k, any32);
    g.st(k + 1, all32);
    g.st_pred(k + 2, p32);
    g.st(k + 3, any64);
    g.st(k + 4, all64);
    g.st_pred(k + 5, p64);
    g.st(k + 6, d2);
    k += 7;
  }
  // in[g] (low word): class (lane * 5 / 7) % 3, except lanes 8..15 all 42; in[n + g]
  // (high word): lane % 2 in warp 0, 0 elsewhere, except lanes 8..15 all 9.
  std::vector<uint32_t> in(2 * n);
  for (uint32_t t = 0; t < n; ++t) {
    uint32_t lane = t % 32;
    in[t] = lane >= 8 && lane < 16 ? 42 : (lane * 5 / 7) % 3;
    in[n + t] = lane >= 8 && lane < 16 ? 9 : (t < 32 ? lane % 2 : 0);
  }
  return make_case(
      "match.sync.masks-and-divergence", "match",
      {"match.any.sync.b32", "match.all.sync.b32", "match.any.sync.b64", "match.all.sync.b64"},
      module(g.b.str()), l, k, in, [n, ms](const std::vector<uint32_t>& a, Expected& e) {
        for (uint32_t t = 0; t < n; ++t) {
          const uint32_t lane = t % 32, base = t - lane;
          int k = 0;
          for (const M& m : ms) {
            uint32_t mask = m.mask;
            if (m.divergent && lane % 2) mask = ~m.mask;
            if (!((mask >> lane) & 1)) {
              for (int j = 0; j < 7; ++j) e.set(k + j, t, j == 2 || j == 5 ? 1 : 3);
              k += 7;
              continue;
            }
            uint32_t any32 = 0, any64 = 0;
            bool all32 = true, all64 = true, all_hi = true;
            for (uint32_t j = 0; j < 32; ++j) {
              if (!((mask >> j) & 1)) continue;
              bool eq32 = a[base + j] == a[t];
              bool eq64 = eq32 && a[n + base + j] == a[n + t];
              any32 |= static_cast<uint32_t>(eq32) << j;
              any64 |= static_cast<uint32_t>(eq64) << j;
              all32 = all32 && eq32;
              all64 = all64 && eq64;
              all_hi = all_hi && a[n + base + j] == a[n + t];
            }
            e.set(k, t, any32);
            e.set(k + 1, t, all32 ? mask : 0);
            e.set(k + 2, t, all32);
            e.set(k + 3, t, any64);
            e.set(k + 4, t, all64 ? mask : 0);
            e.set(k + 5, t, all64);
            e.set(k + 6, t, all_hi ? mask : 0);
            k += 7;
          }
        }
      });
}

// ---- redux.sync -----------------------------------------------------------------------

// Every operation and type over the full warp, partial masks and a divergent warp.
KernelCase redux_cases() {
  const Launch l = launch_1d(2, 64);
  const uint32_t n = 128;
  const std::vector<std::string> ops = {"add.u32", "add.s32", "min.u32", "min.s32", "max.u32",
                                        "max.s32", "and.b32", "or.b32",  "xor.b32"};
  struct M {
    uint32_t mask;
    bool divergent;
  };
  const std::vector<M> ms = {
      {0xffffffffu, false}, {0x8001f00fu, false}, {0x0000ffffu, true}, {0x00000400u, false}};
  Body g(n);
  int k = 0;
  for (const M& m : ms) {
    std::vector<std::string> d;
    for (size_t i = 0; i < ops.size(); ++i) {
      d.push_back(g.r());
      g.b << "  mov.u32 " << d.back() << ", 0xbad;\n";
    }
    auto body = [&](uint32_t mask) {
      for (size_t i = 0; i < ops.size(); ++i)
        g.b << "  redux.sync." << ops[i] << " " << d[i] << ", %r6, " << mask << ";\n";
    };
    std::string t = g.r(), sel = g.p(), skip = g.label();
    if (m.divergent) {
      std::string hi = g.label();
      g.b << "  setp.ge.u32 " << sel << ", %r5, 16;\n  @" << sel << " bra " << hi << ";\n";
      body(m.mask);
      g.b << "  bra " << skip << ";\n" << hi << ":\n";
      body(~m.mask);
    } else {
      g.b << "  shr.b32 " << t << ", " << m.mask << ", %r5;\n  and.b32 " << t << ", " << t
          << ", 1;\n"
          << "  setp.eq.u32 " << sel << ", " << t << ", 0;\n  @" << sel << " bra " << skip << ";\n";
      body(m.mask);
    }
    g.b << skip << ":\n";
    for (size_t i = 0; i < ops.size(); ++i) g.st(k++, d[i]);
  }
  // Values: small signed numbers, large unsigned ones and random words.
  std::vector<uint32_t> in = random_words(2 * n, 0xbeef);
  for (uint32_t t = 0; t < n; ++t) {
    if (t % 3 == 0) in[t] = static_cast<uint32_t>(static_cast<int32_t>(t % 17) - 8);
    if (t % 5 == 1) in[t] = 0x80000000u + t;
  }
  return make_case("redux.sync.ops-masks-divergence", "redux",
                   {"redux.sync.add.u32", "redux.sync.add.s32", "redux.sync.min.u32",
                    "redux.sync.min.s32", "redux.sync.max.u32", "redux.sync.max.s32",
                    "redux.sync.and.b32", "redux.sync.or.b32", "redux.sync.xor.b32"},
                   module(g.b.str()), l, k, in,
                   [n, ms, ops](const std::vector<uint32_t>& a, Expected& e) {
                     for (uint32_t t = 0; t < n; ++t) {
                       const uint32_t lane = t % 32, base = t - lane;
                       int k = 0;
                       for (const M& m : ms) {
                         uint32_t mask = m.mask;
                         if (m.divergent && lane >= 16) mask = ~m.mask;
                         for (size_t i = 0; i < ops.size(); ++i, ++k) {
                           if (!((mask >> lane) & 1)) {
                             e.set(k, t, 0xbad);
                             continue;
                           }
                           uint32_t acc = 0;
                           bool first = true;
                           for (uint32_t j = 0; j < 32; ++j) {
                             if (!((mask >> j) & 1)) continue;
                             uint32_t v = a[base + j];
                             if (first) {
                               acc = v;
                               first = false;
                               continue;
                             }
                             const std::string& op = ops[i];
                             if (op.rfind("add", 0) == 0)
                               acc += v;
                             else if (op == "min.u32")
                               acc = std::min(acc, v);
                             else if (op == "max.u32")
                               acc = std::max(acc, v);
                             else if (op == "min.s32")
                               acc = static_cast<uint32_t>(
                                   std::min(static_cast<int32_t>(acc), static_cast<int32_t>(v)));
                             else if (op == "max.s32")
                               acc = static_cast<uint32_t>(
                                   std::max(static_cast<int32_t>(acc), static_cast<int32_t>(v)));
                             else if (op == "and.b32")
                               acc &= v;
                             else if (op == "or.b32")
                               acc |= v;
                             else
                               acc ^= v;
                           }
                           e.set(k, t, acc);
                         }
                       }
                     }
                   });
}

// ---- activemask -----------------------------------------------------------------------

// The full warp, a partial last warp, a branch taken by lanes % 3 == 0 and the lanes
// left after others exited.
KernelCase activemask_case() {
  const Launch l = launch_1d(1, 80);
  const uint32_t n = 80;
  Body g(n);
  std::string m0 = g.r(), m1 = g.r(), t = g.r(), q = g.p(), skip = g.label(), done = g.p(),
              m2 = g.r();
  g.b << "  activemask.b32 " << m0 << ";\n";
  g.st(0, m0);
  g.b << "  mov.u32 " << m1 << ", 0;\n  rem.u32 " << t << ", %r5, 3;\n  setp.ne.u32 " << q << ", "
      << t << ", 0;\n  @" << q << " bra " << skip << ";\n  activemask.b32 " << m1 << ";\n"
      << skip << ":\n";
  g.st(1, m1);
  g.b << "  setp.ge.u32 " << done << ", %r5, 20;\n  @" << done << " exit;\n  activemask.b32 " << m2
      << ";\n";
  g.st(2, m2);
  return make_case(
      "activemask.divergence-and-exit", "activemask", {"activemask.b32"}, module(g.b.str()), l, 3,
      std::vector<uint32_t>(2 * n, 0), [n](const std::vector<uint32_t>&, Expected& e) {
        for (uint32_t t = 0; t < n; ++t) {
          const uint32_t lane = t % 32, warp_threads = std::min<uint32_t>(32, n - (t - lane));
          e.set(0, t, warp_threads == 32 ? 0xffffffffu : (1u << warp_threads) - 1);
          uint32_t thirds = 0;
          for (uint32_t j = 0; j < warp_threads; j += 3) thirds |= 1u << j;
          e.set(1, t, lane % 3 == 0 ? thirds : 0);
          if (lane < 20)
            e.set(2, t, (1u << std::min<uint32_t>(20, warp_threads)) - 1);
          else
            e.set(2, t, kUnwritten);  // exited before storing
        }
      });
}

// ---- bar / barrier --------------------------------------------------------------------

const char* kSharedDecl = "  .shared .align 4 .b32 sh[1024];\n  .reg .b64 %sa<8>;\n";

// Shared-memory exchanges across warps of a CTA through every spelling of the CTA
// barrier: thread t writes, the barrier, then t reads what another warp wrote.
KernelCase bar_exchange() {
  const std::vector<std::string> spellings = {
      "bar.sync 0",      "barrier.sync 0",     "barrier.sync.aligned 0",
      "bar.cta.sync 0",  "barrier.cta.sync 0", "barrier.cta.sync.aligned 0",
      "bar.sync 0, 128", "barrier.sync 3",     "barrier.sync 15, 128"};
  const Launch l = launch_1d(2, 128);
  const uint32_t n = 256;
  Body g(n);
  std::string v = g.r(), src = g.r(), got = g.r();
  g.b << "  mov.u64 %sa1, sh;\n  mul.wide.u32 %sa2, %r1, 4;\n  add.s64 %sa3, %sa1, %sa2;\n  "
         "mov.u32 "
      << v << ", %r6;\n";
  int k = 0;
  for (const std::string& s : spellings) {
    // write v, barrier, read sh[(t + 37 + 8k) % 128], barrier, v = read + k
    g.b << "  st.shared.u32 [%sa3], " << v << ";\n  " << s << ";\n  add.u32 " << src << ", %r1, "
        << 37 + 8 * k << ";\n  and.b32 " << src << ", " << src << ", 127;\n  mul.wide.u32 %sa4, "
        << src << ", 4;\n"
        << "  add.s64 %sa5, %sa1, %sa4;\n  ld.shared.u32 " << got << ", [%sa5];\n  " << s << ";\n"
        << "  add.u32 " << v << ", " << got << ", " << k << ";\n";
    g.st(k, v);
    ++k;
  }
  std::vector<uint32_t> in = random_words(2 * n, 0x1234);
  return make_case("bar.sync.cta-exchange-spellings", "bar",
                   {"bar.sync", "barrier.sync", "barrier.sync.aligned", "bar.cta.sync",
                    "barrier.cta.sync", "barrier.cta.sync.aligned"},
                   module(g.b.str(), kSharedDecl), l, k, in,
                   [n, spellings](const std::vector<uint32_t>& a, Expected& e) {
                     std::vector<uint32_t> v(a.begin(), a.begin() + n);
                     for (size_t k = 0; k < spellings.size(); ++k) {
                       std::vector<uint32_t> nv(n);
                       for (uint32_t t = 0; t < n; ++t) {
                         uint32_t cta = t / 128 * 128, tid = t % 128;
                         nv[t] = v[cta + (tid + 37 + 8 * k) % 128] + static_cast<uint32_t>(k);
                         e.set(static_cast<int>(k), t, nv[t]);
                       }
                       v = nv;
                     }
                   });
}

// Named barriers with thread counts: warps 0-1 exchange through barrier 1 (64 threads),
// warps 2-3 through barrier 2 (64 threads, id and count in registers), then all 128
// meet at barrier 0.
KernelCase bar_named() {
  const Launch l = launch_1d(2, 128);
  const uint32_t n = 256;
  Body g(n);
  std::string hi = g.p(), v = g.r(), src = g.r(), base = g.r(), other = g.label(), join = g.label(),
              got = g.r();
  g.b << "  mov.u64 %sa1, sh;\n  mul.wide.u32 %sa2, %r1, 4;\n  add.s64 %sa3, %sa1, %sa2;\n"
      << "  st.shared.u32 [%sa3], %r6;\n  and.b32 " << base << ", %r1, 64;\n  sub.u32 " << src
      << ", %r1, " << base << ";\n"
      << "  add.u32 " << src << ", " << src << ", 33;\n  and.b32 " << src << ", " << src
      << ", 63;\n  add.u32 " << src << ", " << src << ", " << base << ";\n  mul.wide.u32 %sa4, "
      << src << ", 4;\n  add.s64 %sa5, %sa1, %sa4;\n"
      << "  setp.ge.u32 " << hi << ", %r1, 64;\n  @" << hi << " bra " << other
      << ";\n  bar.sync 1, 64;\n  bra " << join
      << ";\n"
      // Warps 2-3 name barrier and count in registers (id 2, count 64).
      << other << ":\n  mov.u32 " << v << ", 2;\n  shl.b32 " << base << ", " << v
      << ", 5;\n  barrier.sync " << v << ", " << base << ";\n"
      << join << ":\n  ld.shared.u32 " << got << ", [%sa5];\n";
  g.st(0, got);
  // Phase 2: everybody writes got + 1, barrier 0, reads the mirror thread 127 - t.
  std::string got2 = g.r(), mir = g.r();
  g.b << "  bar.sync 0;\n  add.u32 " << v << ", " << got << ", 1;\n  st.shared.u32 [%sa3], " << v
      << ";\n"
      << "  barrier.sync.aligned 0, 128;\n  sub.u32 " << mir << ", 127, %r1;\n  mul.wide.u32 %sa6, "
      << mir << ", 4;\n"
      << "  add.s64 %sa7, %sa1, %sa6;\n  ld.shared.u32 " << got2 << ", [%sa7];\n";
  g.st(1, got2);
  std::vector<uint32_t> in = random_words(2 * n, 0x4321);
  return make_case("bar.sync.named-barriers-with-counts", "bar",
                   {"bar.sync", "barrier.sync", "barrier.sync.aligned"},
                   module(g.b.str(), kSharedDecl), l, 2, in,
                   [n](const std::vector<uint32_t>& a, Expected& e) {
                     std::vector<uint32_t> got(n);
                     for (uint32_t t = 0; t < n; ++t) {
                       uint32_t cta = t / 128 * 128, tid = t % 128, base = tid & 64;
                       got[t] = a[cta + base + (tid - base + 33) % 64];
                       e.set(0, t, got[t]);
                     }
                     for (uint32_t t = 0; t < n; ++t) {
                       uint32_t cta = t / 128 * 128, tid = t % 128;
                       e.set(1, t, got[cta + 127 - tid] + 1);
                     }
                   });
}

// Producer/consumer: warps 0-1 produce into a buffer and bar.arrive; warps 2-3 bar.sync
// on the same barrier (128 threads), consume, and arrive on the second barrier that
// the producers wait on before refilling; two rounds, barriers 1 and 2.
KernelCase bar_producer_consumer() {
  const Launch l = launch_1d(2, 128);
  const uint32_t n = 256;
  Body g(n);
  std::string cons = g.p(), v = g.r(), w = g.r(), got1 = g.r(), got2 = g.r(), consumer = g.label(),
              end = g.label();
  g.b << "  mov.u64 %sa1, sh;\n  mul.wide.u32 %sa2, %r1, 4;\n  add.s64 %sa3, %sa1, %sa2;\n"
      << "  setp.ge.u32 " << cons << ", %r1, 64;\n  @" << cons << " bra " << consumer
      << ";\n"
      // producer: round 1 data, arrive 1; wait 2; round 2 data, arrive 1
      << "  mul.lo.u32 " << v << ", %r6, 3;\n  st.shared.u32 [%sa3], " << v
      << ";\n  bar.arrive 1, 128;\n"
      << "  bar.sync 2, 128;\n  add.u32 " << w << ", %r6, 1000;\n  st.shared.u32 [%sa3], " << w
      << ";\n"
      << "  barrier.cta.arrive 1, 128;\n  bra " << end << ";\n"
      << consumer << ":\n  sub.u32 " << v << ", %r1, 64;\n  mul.wide.u32 %sa4, " << v
      << ", 4;\n  add.s64 %sa5, %sa1, %sa4;\n"
      << "  bar.sync 1, 128;\n  ld.shared.u32 " << got1 << ", [%sa5];\n  barrier.arrive 2, 128;\n"
      << "  barrier.cta.sync 1, 128;\n  ld.shared.u32 " << got2 << ", [%sa5];\n";
  g.st(0, got1);
  g.st(1, got2);
  g.b << end << ":\n";
  std::vector<uint32_t> in = random_words(2 * n, 0x5150);
  return make_case(
      "bar.arrive.producer-consumer", "bar",
      {"bar.arrive", "bar.sync", "barrier.arrive", "barrier.cta.arrive", "barrier.cta.sync"},
      module(g.b.str(), kSharedDecl), l, 2, in, [n](const std::vector<uint32_t>& a, Expected& e) {
        for (uint32_t t = 0; t < n; ++t) {
          uint32_t cta = t / 128 * 128, tid = t % 128;
          if (tid < 64) {
            e.set(0, t, kUnwritten);
            e.set(1, t, kUnwritten);
          } else {
            e.set(0, t, a[cta + tid - 64] * 3);
            e.set(1, t, a[cta + tid - 64] + 1000);
          }
        }
      });
}

// bar.red / barrier.red: popc, and, or over the CTA, with `!c`, a named barrier with a
// count, and CTAs whose predicates are all set, all clear or mixed.
KernelCase bar_red() {
  const Launch l = launch_1d(3, 96);
  const uint32_t n = 288;
  Body g(n);
  std::string p = g.p(), t = g.r();
  g.b << "  and.b32 " << t << ", %r6, 1;\n  setp.ne.u32 " << p << ", " << t << ", 0;\n";
  std::string c1 = g.r(), c2 = g.r(), c3 = g.r(), a1 = g.p(), a2 = g.p(), o1 = g.p(), o2 = g.p(),
              a3 = g.p(), o3 = g.p();
  g.b << "  bar.red.popc.u32 " << c1 << ", 0, " << p << ";\n"
      << "  bar.red.and.pred " << a1 << ", 0, " << p << ";\n"
      << "  bar.red.or.pred " << o1 << ", 0, " << p << ";\n"
      << "  bar.red.popc.u32 " << c2 << ", 1, 96, !" << p << ";\n"
      << "  bar.red.and.pred " << a2 << ", 2, !" << p << ";\n"
      << "  bar.red.or.pred " << o2 << ", 3, 96, !" << p << ";\n"
      << "  barrier.red.popc.u32 " << c3 << ", 4, " << p << ";\n"
      << "  barrier.red.and.pred " << a3 << ", 5, " << p << ";\n"
      << "  barrier.cta.red.or.pred " << o3 << ", 6, " << p << ";\n";
  g.st(0, c1);
  g.st_pred(1, a1);
  g.st_pred(2, o1);
  g.st(3, c2);
  g.st_pred(4, a2);
  g.st_pred(5, o2);
  g.st(6, c3);
  g.st_pred(7, a3);
  g.st_pred(8, o3);
  // CTA 0: random bits; CTA 1: all set; CTA 2: all clear except thread 50.
  std::vector<uint32_t> in = random_words(2 * n, 0x0bad);
  for (uint32_t i = 96; i < 192; ++i) in[i] = 1;
  for (uint32_t i = 192; i < 288; ++i) in[i] = i == 242 ? 1 : 0;
  return make_case("bar.red.popc-and-or", "bar",
                   {"bar.red.popc.u32", "bar.red.and.pred", "bar.red.or.pred",
                    "barrier.red.popc.u32", "barrier.red.and.pred", "barrier.cta.red.or.pred"},
                   module(g.b.str()), l, 9, in, [n](const std::vector<uint32_t>& a, Expected& e) {
                     for (uint32_t cta = 0; cta < n / 96; ++cta) {
                       uint32_t count = 0;
                       for (uint32_t i = 0; i < 96; ++i) count += a[cta * 96 + i] & 1;
                       for (uint32_t i = 0; i < 96; ++i) {
                         uint32_t t = cta * 96 + i;
                         e.set(0, t, count);
                         e.set(1, t, count == 96);
                         e.set(2, t, count != 0);
                         e.set(3, t, 96 - count);
                         e.set(4, t, count == 0);
                         e.set(5, t, count != 96);
                         e.set(6, t, count);
                         e.set(7, t, count == 96);
                         e.set(8, t, count != 0);
                       }
                     }
                   });
}

// Threads 40..63 exit (part of warp 1) before the CTA barrier; the rest exchange.
KernelCase bar_after_exit() {
  const Launch l = launch_1d(2, 64);
  const uint32_t n = 128;
  Body g(n);
  std::string q = g.p(), src = g.r(), got = g.r();
  g.b << "  setp.ge.u32 " << q << ", %r1, 40;\n  @" << q << " exit;\n"
      << "  mov.u64 %sa1, sh;\n  mul.wide.u32 %sa2, %r1, 4;\n  add.s64 %sa3, %sa1, %sa2;\n  "
         "st.shared.u32 [%sa3], %r6;\n"
      << "  bar.sync 0;\n  add.u32 " << src << ", %r1, 7;\n  rem.u32 " << src << ", " << src
      << ", 40;\n"
      << "  mul.wide.u32 %sa4, " << src << ", 4;\n  add.s64 %sa5, %sa1, %sa4;\n  ld.shared.u32 "
      << got << ", [%sa5];\n"
      << "  barrier.sync 0;\n";
  g.st(0, got);
  // Reductions over the 40 threads left.
  std::string t = g.r(), p = g.p(), cnt = g.r(), all = g.p(), any = g.p();
  g.b << "  and.b32 " << t << ", %r6, 1;\n  setp.ne.u32 " << p << ", " << t
      << ", 0;\n  bar.red.popc.u32 " << cnt << ", 0, " << p << ";\n  bar.red.and.pred " << all
      << ", 1, " << p << ";\n  bar.red.or.pred " << any << ", 2, " << p << ";\n";
  g.st(1, cnt);
  g.st_pred(2, all);
  g.st_pred(3, any);
  std::vector<uint32_t> in = random_words(2 * n, 0x6060);
  for (uint32_t i = 64; i < 104; ++i) in[i] |= 1;  // CTA 1: every thread left has the bit
  return make_case("bar.sync.after-partial-warp-exit", "bar",
                   {"bar.sync", "barrier.sync", "exit", "bar.red.popc.u32", "bar.red.and.pred",
                    "bar.red.or.pred"},
                   module(g.b.str(), kSharedDecl), l, 4, in,
                   [n](const std::vector<uint32_t>& a, Expected& e) {
                     for (uint32_t t = 0; t < n; ++t) {
                       uint32_t cta = t / 64 * 64, tid = t % 64;
                       uint32_t count = 0;
                       for (uint32_t i = 0; i < 40; ++i) count += a[cta + i] & 1;
                       e.set(0, t, tid < 40 ? a[cta + (tid + 7) % 40] : kUnwritten);
                       e.set(1, t, tid < 40 ? count : kUnwritten);
                       e.set(2, t, tid < 40 ? count == 40 : kUnwritten);
                       e.set(3, t, tid < 40 ? count != 0 : kUnwritten);
                     }
                   });
}

// bar.warp.sync: the whole warp, and the two halves of a divergent warp each with its
// own mask, exchanging through shared memory (the barrier orders the accesses).
KernelCase bar_warp_sync() {
  const Launch l = launch_1d(1, 64);
  const uint32_t n = 64;
  Body g(n);
  std::string src = g.r(), got = g.r(), base = g.r(), v = g.r(), hi = g.p(), other = g.label(),
              join = g.label(), got2 = g.r();
  g.b << "  mov.u64 %sa1, sh;\n  mul.wide.u32 %sa2, %r1, 4;\n  add.s64 %sa3, %sa1, %sa2;\n  "
         "st.shared.u32 [%sa3], %r6;\n"
      << "  bar.warp.sync -1;\n  sub.u32 " << base << ", %r1, %r5;\n  add.u32 " << src
      << ", %r5, 1;\n  and.b32 " << src << ", " << src << ", 31;\n  add.u32 " << src << ", " << src
      << ", " << base << ";\n  mul.wide.u32 %sa4, " << src
      << ", 4;\n  add.s64 %sa5, %sa1, %sa4;\n  ld.shared.u32 " << got
      << ", [%sa5];\n  bar.warp.sync 0xffffffff;\n";
  g.st(0, got);
  // Halves: write got * 2, sync with the half's mask, read lane (lane + 5) % 16 of the half.
  g.b << "  mul.lo.u32 " << v << ", " << got << ", 2;\n  st.shared.u32 [%sa3], " << v
      << ";\n  and.b32 " << src << ", %r5, 16;\n"
      << "  add.u32 " << src << ", " << src << ", " << base << ";\n  add.u32 " << v
      << ", %r5, 5;\n  and.b32 " << v << ", " << v << ", 15;\n  add.u32 " << src << ", " << src
      << ", " << v << ";\n  mul.wide.u32 %sa4, " << src << ", 4;\n"
      << "  add.s64 %sa5, %sa1, %sa4;\n  setp.ge.u32 " << hi << ", %r5, 16;\n  @" << hi << " bra "
      << other << ";\n"
      << "  bar.warp.sync 0xffff;\n  ld.shared.u32 " << got2 << ", [%sa5];\n  bra " << join << ";\n"
      << other << ":\n  bar.warp.sync 0xffff0000;\n  ld.shared.u32 " << got2 << ", [%sa5];\n"
      << join << ":\n";
  g.st(1, got2);
  std::vector<uint32_t> in = random_words(2 * n, 0x7070);
  return make_case("bar.warp.sync.exchange", "bar", {"bar.warp.sync"},
                   module(g.b.str(), kSharedDecl), l, 2, in,
                   [n](const std::vector<uint32_t>& a, Expected& e) {
                     std::vector<uint32_t> got(n);
                     for (uint32_t t = 0; t < n; ++t) {
                       uint32_t base = t - t % 32;
                       got[t] = a[base + (t % 32 + 1) % 32];
                       e.set(0, t, got[t]);
                     }
                     for (uint32_t t = 0; t < n; ++t) {
                       uint32_t lane = t % 32, base = t - lane;
                       e.set(1, t, got[base + (lane & 16) + (lane + 5) % 16] * 2);
                     }
                   });
}

// barrier.sync (not .aligned) reached at two different instructions by the halves of
// each warp, then a loop that reuses barrier 0 four times; three warps per CTA.
KernelCase barrier_divergent_and_loop() {
  const Launch l = launch_1d(2, 96);
  const uint32_t n = 192;
  Body g(n);
  std::string hi = g.p(), src = g.r(), got = g.r(), other = g.label(), join = g.label();
  g.b << "  mov.u64 %sa1, sh;\n  mul.wide.u32 %sa2, %r1, 4;\n  add.s64 %sa3, %sa1, %sa2;\n"
      << "  add.u32 " << src << ", %r1, 40;\n  rem.u32 " << src << ", " << src
      << ", 96;\n  mul.wide.u32 %sa4, " << src
      << ", 4;\n  add.s64 %sa5, %sa1, %sa4;\n  setp.ge.u32 " << hi << ", %r5, 16;\n  @" << hi
      << " bra " << other << ";\n"
      << "  st.shared.u32 [%sa3], %r6;\n  barrier.sync 0;\n  ld.shared.u32 " << got
      << ", [%sa5];\n  bra " << join << ";\n"
      << other << ":\n  st.shared.u32 [%sa3], %r6;\n  barrier.sync 0;\n  ld.shared.u32 " << got
      << ", [%sa5];\n"
      << join << ":\n";
  g.st(0, got);
  // v = got; 4 times: sh[t] = v; bar; v = v * 3 + sh[(t + 1) % 96]; bar.
  std::string v = g.r(), i = g.r(), nb = g.r(), more = g.p(), loop = g.label();
  g.b << "  mov.u32 " << v << ", " << got << ";\n  mov.u32 " << i << ", 0;\n  add.u32 " << src
      << ", %r1, 1;\n  rem.u32 " << src << ", " << src << ", 96;\n  mul.wide.u32 %sa4, " << src
      << ", 4;\n  add.s64 %sa5, %sa1, %sa4;\n"
      << "  barrier.sync 0;\n"
      << loop << ":\n  st.shared.u32 [%sa3], " << v << ";\n  bar.sync 0;\n  ld.shared.u32 " << nb
      << ", [%sa5];\n  mad.lo.u32 " << v << ", " << v << ", 3, " << nb
      << ";\n  bar.sync 0;\n  add.u32 " << i << ", " << i << ", 1;\n  setp.lt.u32 " << more << ", "
      << i << ", 4;\n  @" << more << " bra " << loop << ";\n";
  g.st(1, v);
  std::vector<uint32_t> in = random_words(2 * n, 0x8181);
  return make_case("barrier.sync.divergent-sites-and-loop", "bar", {"barrier.sync", "bar.sync"},
                   module(g.b.str(), kSharedDecl), l, 2, in,
                   [n](const std::vector<uint32_t>& a, Expected& e) {
                     for (uint32_t cta = 0; cta < n; cta += 96) {
                       std::vector<uint32_t> v(96);
                       for (uint32_t t = 0; t < 96; ++t) {
                         v[t] = a[cta + (t + 40) % 96];
                         e.set(0, cta + t, v[t]);
                       }
                       for (int it = 0; it < 4; ++it) {
                         std::vector<uint32_t> nv(96);
                         for (uint32_t t = 0; t < 96; ++t) nv[t] = v[t] * 3 + v[(t + 1) % 96];
                         v = nv;
                       }
                       for (uint32_t t = 0; t < 96; ++t) e.set(1, cta + t, v[t]);
                     }
                   });
}

// Member masks from activemask: lanes % 3 == 0 branch off and shuffle / vote among
// themselves with the mask activemask reports; then, after lanes >= 24 exit, the rest
// vote with activemask's mask.
KernelCase activemask_as_member_mask() {
  const Launch l = launch_1d(1, 64);
  const uint32_t n = 64;
  Body g(n);
  std::string t = g.r(), q = g.p(), skip = g.label(), m = g.r(), d0 = g.r(), d1 = g.r(), p1 = g.p(),
              bal = g.r();
  std::string sum = g.r(), cls = g.r(), same = g.r();
  g.b << "  mov.u32 " << sum << ", 2;\n  mov.u32 " << same << ", 2;\n";
  g.b << "  mov.u32 " << d0 << ", 1;\n  mov.u32 " << d1 << ", 1;\n  setp.eq.u32 " << p1
      << ", 1, 0;\n  mov.u32 " << bal << ", 1;\n  rem.u32 " << t << ", %r5, 3;\n  setp.ne.u32 " << q
      << ", " << t << ", 0;\n  @" << q << " bra " << skip << ";\n  activemask.b32 " << m
      << ";\n  shfl.sync.idx.b32 " << d0 << ", %r6, 0, 31, " << m << ";\n"
      << "  shfl.sync.down.b32 " << d1 << "|" << p1 << ", %r6, 3, 31, " << m << ";\n  and.b32 " << t
      << ", %r6, 1;\n"
      << "  setp.ne.u32 " << q << ", " << t << ", 0;\n  vote.sync.ballot.b32 " << bal << ", " << q
      << ", " << m << ";\n";
  // Members with q set skip an instruction: they reach the redux from another path.
  g.b << "  @" << q << " bra " << skip << "_r;\n"
      << "  add.u32 " << same << ", " << same << ", 0;\n"
      << skip << "_r:\n  redux.sync.add.u32 " << sum << ", %r6, " << m << ";\n  and.b32 " << cls
      << ", %r6, 3;\n"
      << "  match.any.sync.b32 " << same << ", " << cls << ", " << m << ";\n"
      << skip << ":\n";
  g.st(5, sum);
  g.st(6, same);
  g.st(0, d0);
  g.st(1, d1);
  g.st_pred(2, p1);
  g.st(3, bal);
  std::string done = g.p(), m2 = g.r(), bal2 = g.r();
  g.b << "  setp.ge.u32 " << done << ", %r5, 24;\n  @" << done << " exit;\n  activemask.b32 " << m2
      << ";\n  and.b32 " << t << ", %r6, 2;\n  setp.ne.u32 " << q << ", " << t
      << ", 0;\n  vote.sync.ballot.b32 " << bal2 << ", " << q << ", " << m2 << ";\n";
  g.st(4, bal2);
  std::vector<uint32_t> in = random_words(2 * n, 0xac71);
  return make_case("activemask.as-member-mask", "activemask",
                   {"activemask.b32", "shfl.sync.idx.b32", "shfl.sync.down.b32",
                    "vote.sync.ballot.b32", "redux.sync.add.u32", "match.any.sync.b32"},
                   module(g.b.str()), l, 7, in, [n](const std::vector<uint32_t>& a, Expected& e) {
                     for (uint32_t t = 0; t < n; ++t) {
                       const uint32_t lane = t % 32, base = t - lane;
                       uint32_t sum = 0, same = 0;
                       for (uint32_t j = 0; j < 32; j += 3) {
                         sum += a[base + j];
                         if ((a[base + j] & 3) == (a[t] & 3)) same |= 1u << j;
                       }
                       e.set(5, t, lane % 3 == 0 ? sum : 2);
                       e.set(6, t, lane % 3 == 0 ? same : 2);
                       if (lane % 3 == 0) {
                         e.set(0, t, a[base]);
                         const bool in_range = lane + 3 <= 31;
                         e.set(1, t, in_range ? a[t + 3] : a[t]);
                         e.set(2, t, in_range);
                         uint32_t b = 0;
                         for (uint32_t j = 0; j < 32; j += 3) b |= (a[base + j] & 1) << j;
                         e.set(3, t, b);
                       } else {
                         for (int k = 0; k < 4; ++k) e.set(k, t, k == 2 ? 0 : 1);
                       }
                       uint32_t b2 = 0;
                       for (uint32_t j = 0; j < 24; ++j) b2 |= ((a[base + j] >> 1) & 1) << j;
                       e.set(4, t, lane < 24 ? b2 : kUnwritten);
                     }
                   });
}

// Member masks naming threads that exited or do not exist (a CTA of 48 threads ends in
// a 16-thread warp): vote, match and redux take "all non-exited threads in membermask".
// Lanes >= 40 of the CTA (8..15 of the partial warp, 8 lanes of warp 0 with lane >= 24)
// exit first.
KernelCase collectives_with_exited_members() {
  const Launch l = launch_1d(2, 48);
  const uint32_t n = 96;
  Body g(n);
  std::string q = g.p(), t = g.r(), pr = g.p(), ex = g.p();
  g.b << "  setp.ge.u32 " << ex << ", %r1, 40;\n  and.b32 " << t << ", %r1, 7;\n  setp.eq.u32 " << q
      << ", " << t << ", 7;\n  or.pred " << ex << ", " << ex << ", " << q << ";\n  @" << ex
      << " exit;\n  and.b32 " << t << ", %r6, 1;\n  setp.ne.u32 " << pr << ", " << t << ", 0;\n";
  const std::vector<std::string> ops = {"add.u32", "min.s32", "max.u32",
                                        "and.b32", "or.b32",  "xor.b32"};
  int k = 0;
  for (const std::string& op : ops) {
    std::string d = g.r();
    g.b << "  redux.sync." << op << " " << d << ", %r6, -1;\n";
    g.st(k++, d);
  }
  std::string bal = g.r(), all = g.p(), any = g.p(), cls = g.r(), same = g.r(), all_same = g.r(),
              ap = g.p();
  g.b << "  vote.sync.ballot.b32 " << bal << ", " << pr << ", -1;\n  vote.sync.all.pred " << all
      << ", " << pr << ", -1;\n  vote.sync.any.pred " << any << ", " << pr << ", -1;\n  and.b32 "
      << cls << ", %r6, 3;\n"
      << "  match.any.sync.b32 " << same << ", " << cls << ", -1;\n  match.all.sync.b32 "
      << all_same << "|" << ap << ", 5, -1;\n";
  g.st(k++, bal);
  g.st_pred(k++, all);
  g.st_pred(k++, any);
  g.st(k++, same);
  g.st(k++, all_same);
  g.st_pred(k++, ap);
  std::vector<uint32_t> in = random_words(2 * n, 0xe1e1);
  for (uint32_t i = 0; i < n; i += 5) in[i] = 0x80000000u | i;  // negative for min.s32
  return make_case(
      "redux.vote.match.exited-members", "redux",
      {"redux.sync.add.u32", "redux.sync.min.s32", "redux.sync.max.u32", "redux.sync.and.b32",
       "redux.sync.or.b32", "redux.sync.xor.b32", "vote.sync.ballot.b32", "vote.sync.all.pred",
       "vote.sync.any.pred", "match.any.sync.b32", "match.all.sync.b32"},
      module(g.b.str()), l, k, in, [n](const std::vector<uint32_t>& a, Expected& e) {
        auto live = [](uint32_t tid) { return tid < 40 && (tid & 7) != 7; };
        for (uint32_t t = 0; t < n; ++t) {
          const uint32_t tid = t % 48, lane = tid % 32, base = t - lane;
          if (!live(tid)) {
            for (int k = 0; k < 12; ++k) e.set(k, t, kUnwritten);
            continue;
          }
          uint32_t add = 0, mx = 0, an = ~0u, orr = 0, xr = 0, bal = 0, same = 0, members = 0;
          int32_t mn = INT32_MAX;
          for (uint32_t j = 0; j < 32; ++j) {
            const uint32_t jt = tid - lane + j;
            if (jt >= 48 || !live(jt)) continue;
            const uint32_t v = a[base + j];
            add += v;
            mn = std::min(mn, static_cast<int32_t>(v));
            mx = std::max(mx, v);
            an &= v;
            orr |= v;
            xr ^= v;
            bal |= (v & 1) << j;
            members |= 1u << j;
            if ((v & 3) == (a[t] & 3)) same |= 1u << j;
          }
          const uint32_t want[12] = {add,      static_cast<uint32_t>(mn),
                                     mx,       an,
                                     orr,      xr,
                                     bal,      bal == members,
                                     bal != 0, same,
                                     members,  1};
          for (int k = 0; k < 12; ++k) e.set(k, t, want[k]);
        }
      });
}

}  // namespace

std::vector<KernelCase> warp_cases() {
  return {shfl_full(),
          shfl_partial(),
          shfl_divergent(),
          vote_cases(),
          match_cases(),
          redux_cases(),
          activemask_case(),
          bar_exchange(),
          bar_named(),
          bar_producer_consumer(),
          bar_red(),
          bar_after_exit(),
          bar_warp_sync(),
          barrier_divergent_and_loop(),
          activemask_as_member_mask(),
          collectives_with_exited_members()};
}

}  // namespace strata::ptx_conformance
