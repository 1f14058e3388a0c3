// Helpers for kernel cases whose threads each store 32-bit results (kernel_warp.cc,
// kernel_control.cc): result k of thread g lands at out[k * n + g], where g is the
// thread's linear index in the grid and n the number of threads. Buffer 0 is `out`
// (filled with kUnwritten before the run), buffer 1 is `in` (2n words: in[g] and
// in[n + g] are thread g's inputs).
//
// The standard prologue (1-D launches) defines:
//   %r1 tid.x, %r2 ctaid.x, %r3 ntid.x, %r4 g, %r5 lane (= tid.x & 31),
//   %r6 in[g], %r7 in[n + g], %rd2 &out[g].
// Bodies take fresh registers from Body (numbered above these).
#pragma once

#include <cstdio>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "kernel_cases.h"

namespace strata::ptx_conformance::thread_results {

// What a result slot holds when its thread never stores it.
inline constexpr uint32_t kUnwritten = 0xa5a5a5a5u;

// Expected results: value and whether it is checked, per (k, g).
struct Expected {
  uint32_t n = 0;
  std::vector<uint32_t> v;
  std::vector<uint8_t> care;
  Expected(uint32_t threads, int outputs)
      : n(threads), v(threads * outputs, 0), care(threads * outputs, 0) {}
  void set(int k, uint32_t g, uint32_t value) {
    v[k * n + g] = value;
    care[k * n + g] = 1;
  }
};

// "" when every checked slot of `out` matches, else the first mismatch.
inline std::string check_expected(const Expected& e, const std::vector<uint8_t>& out) {
  std::vector<uint32_t> got = values_of<uint32_t>(out);
  for (size_t i = 0; i < e.v.size(); ++i) {
    if (!e.care[i] || got[i] == e.v[i]) continue;
    char s[160];
    std::snprintf(s, sizeof s, "result %zu of thread %zu: expected 0x%x got 0x%x", i / e.n, i % e.n,
                  e.v[i], got[i]);
    return s;
  }
  return "";
}

// Builds the body of a case: fresh registers, labels and stores of results.
class Body {
 public:
  explicit Body(uint32_t n) : n_(n) {}
  std::string r() { return "%r" + std::to_string(++r_); }
  std::string p() { return "%p" + std::to_string(++p_); }
  std::string rd() { return "%rd" + std::to_string(++rd_); }
  std::string label() { return "L" + std::to_string(++l_); }
  // Stores 32-bit register `reg` as result k.
  void st(int k, const std::string& reg) {
    b << "  st.global.u32 [%rd2+" << static_cast<uint64_t>(k) * n_ * 4 << "], " << reg << ";\n";
  }
  // Stores predicate `pred` as result k (1 or 0).
  void st_pred(int k, const std::string& pred) {
    std::string t = r();
    b << "  selp.u32 " << t << ", 1, 0, " << pred << ";\n";
    st(k, t);
  }
  // Stores the two words of 64-bit register `reg` as results k (low) and k + 1 (high).
  void st64(int k, const std::string& reg) {
    std::string lo = r(), hi = r();
    b << "  mov.b64 {" << lo << ", " << hi << "}, " << reg << ";\n";
    st(k, lo);
    st(k + 1, hi);
  }
  std::ostringstream b;

 private:
  uint32_t n_;
  int r_ = 20, p_ = 0, rd_ = 10, l_ = 0;
};

// The module: `before` (module-scope declarations, .func definitions), then kernel
// `conf(out, in)` with `decls`, the standard prologue and `body`.
inline std::string module(const std::string& body, const std::string& decls = "",
                          const std::string& before = "") {
  std::ostringstream m;
  m << ".version 8.0\n.target sm_80\n.address_size 64\n\n" << before;
  m << ".visible .entry conf(.param .u64 out, .param .u64 in)\n{\n"
    << "  .reg .pred %p<400>;\n  .reg .b32 %r<1200>;\n  .reg .b64 %rd<200>;\n"
    << decls << "  ld.param.u64 %rd1, [out];\n  ld.param.u64 %rd3, [in];\n"
    << "  cvta.to.global.u64 %rd1, %rd1;\n  cvta.to.global.u64 %rd3, %rd3;\n"
    << "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n"
    << "  mad.lo.s32 %r4, %r2, %r3, %r1;\n  and.b32 %r5, %r1, 31;\n"
    << "  mul.wide.u32 %rd4, %r4, 4;\n  add.s64 %rd2, %rd1, %rd4;\n  add.s64 %rd5, %rd3, %rd4;\n"
    << "  ld.global.u32 %r6, [%rd5];\n  mov.u32 %r8, %nctaid.x;\n  mul.lo.u32 %r9, %r8, %r3;\n"
    << "  mul.wide.u32 %rd6, %r9, 4;\n  add.s64 %rd7, %rd5, %rd6;\n  ld.global.u32 %r7, [%rd7];\n"
    << body << "  ret;\n}\n";
  return m.str();
}

// Deterministic pseudo-random words (xorshift32), independent of the simulator.
inline std::vector<uint32_t> random_words(size_t count, uint32_t seed) {
  std::vector<uint32_t> v(count);
  uint32_t x = seed ? seed : 1;
  for (uint32_t& w : v) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    w = x;
  }
  return v;
}

inline Launch launch_1d(uint32_t grid, uint32_t block) {
  Launch l;
  l.grid[0] = grid;
  l.block[0] = block;
  return l;
}

// A case with `outputs` results per thread, checked against what `ref` computes from
// the inputs `in` (2n words).
inline KernelCase make_case(
    std::string name, std::string family, std::vector<std::string> forms, std::string ptx, Launch l,
    int outputs, std::vector<uint32_t> in,
    const std::function<void(const std::vector<uint32_t>&, Expected&)>& ref) {
  const uint32_t n = l.grid[0] * l.grid[1] * l.grid[2] * l.block[0] * l.block[1] * l.block[2];
  KernelCase c;
  c.name = std::move(name);
  c.family = std::move(family);
  c.forms = std::move(forms);
  c.ptx = std::move(ptx);
  c.launch = l;
  c.buffers = {bytes_of(std::vector<uint32_t>(static_cast<size_t>(n) * outputs, kUnwritten)),
               bytes_of(in)};
  auto exp = std::make_shared<Expected>(n, outputs);
  ref(in, *exp);
  c.check = [exp](const Buffers& after) { return check_expected(*exp, after[0]); };
  return c;
}

}  // namespace strata::ptx_conformance::thread_results
