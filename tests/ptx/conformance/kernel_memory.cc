// Kernel conformance cases: ld/st/atom/red/cvta/fence/membar/alloca (see kernel_cases.h).
//
// Loads and stores run over per-thread 16-byte chunks in every state space (global,
// shared, local, generic addresses of each, param, const); the host model is a byte
// copy with the PTX extension rules (signed types sign-extend into the wider register,
// the others zero-extend; stores keep the low bytes). Atomics run with many threads
// contending on one location and are checked against what any serial order must give:
// the final value, and the old values returned (a chain of partial sums for add, a
// fixed multiset for inc/dec, a permutation for exch and a CAS loop).
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "kernel_cases.h"

namespace strata::ptx_conformance {
namespace {

using hw::FaultKind;

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : s) {
    if (ch == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  out.push_back(cur);
  return out;
}
bool has_token(const std::string& form, const std::string& tok) {
  for (const std::string& t : split(form, '.'))
    if (t == tok) return true;
  return false;
}
uint32_t seed_of(const std::string& s) {
  uint32_t h = 2166136261u;
  for (char ch : s) h = (h ^ static_cast<uint8_t>(ch)) * 16777619u;
  return h;
}
std::string hex(uint64_t v) {
  char s[24];
  std::snprintf(s, sizeof s, "0x%" PRIx64, v);
  return s;
}

// ---- module text ----------------------------------------------------------------------

constexpr char kRegs[] =
    "  .reg .pred %p<32>;\n  .reg .b16 %h<64>;\n  .reg .b32 %r<128>;\n  .reg .b64 %rd<128>;\n"
    "  .reg .f32 %f<64>;\n  .reg .f64 %fd<64>;\n";
// %r4 = global thread index; %r1 = %tid.x.
constexpr char kGid[] =
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, %ctaid.x;\n  mov.u32 %r3, %ntid.x;\n  mad.lo.s32 %r4, "
    "%r2, %r3, %r1;\n";

std::string buffer_params(int n) {
  std::string s;
  for (int i = 0; i < n; ++i)
    s += (i ? ", " : "") + std::string(".param .u64 p") + std::to_string(i);
  return s;
}
// %rd<2i+1> = parameter i as loaded (generic), %rd<2i+2> = its global address.
std::string load_buffers(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) {
    std::string g = "%rd" + std::to_string(2 * i + 1), a = "%rd" + std::to_string(2 * i + 2);
    s += "  ld.param.u64 " + g + ", [p" + std::to_string(i) + "];\n  cvta.to.global.u64 " + a +
         ", " + g + ";\n";
  }
  return s;
}
std::string module(const std::string& params, const std::string& body,
                   const std::string& globals = "", const std::string& target = "sm_80",
                   const std::string& version = "8.0") {
  return ".version " + version + "\n.target " + target + "\n.address_size 64\n\n" + globals +
         ".visible .entry conf(" + params + ")\n{\n" + kRegs + body + "  ret;\n}\n";
}

// ---- types ----------------------------------------------------------------------------

struct TypeInfo {
  int bytes = 4;
  bool is_signed = false;
  char cls =
      'r';  // register: r (.b32, also for 8/16-bit data), d (.b64), f (.f32), F (.f64), h (.b16)
};
TypeInfo type_info(const std::string& t) {
  TypeInfo i;
  i.bytes = std::stoi(t.substr(1)) / 8;
  i.is_signed = t[0] == 's';
  if (t == "f32")
    i.cls = 'f';
  else if (t == "f64")
    i.cls = 'F';
  else if (i.bytes == 8)
    i.cls = 'd';
  return i;
}
std::string reg(char cls, int n) {
  switch (cls) {
    case 'd':
      return "%rd" + std::to_string(n);
    case 'f':
      return "%f" + std::to_string(n);
    case 'F':
      return "%fd" + std::to_string(n);
    case 'h':
      return "%h" + std::to_string(n);
    default:
      return "%r" + std::to_string(n);
  }
}
// The value a load of `bytes` at `p` leaves in the output slot (32-bit registers are
// stored as .u32, so the slot holds the register's 32 bits).
uint64_t loaded(const uint8_t* p, const TypeInfo& t) {
  uint64_t v = 0;
  std::memcpy(&v, p, t.bytes);
  if (t.bytes < 4 && t.is_signed) {
    int shift = 64 - 8 * t.bytes;
    v = static_cast<uint64_t>(static_cast<int64_t>(v << shift) >> shift) & 0xffffffffu;
  }
  return v;
}

// ---- loads and stores -----------------------------------------------------------------

constexpr int kThreads = 64;  // one CTA, two warps
constexpr int kChunk = 16;    // bytes per thread
constexpr uint32_t kPattern = 0xa5a5a5a5u;

// Where a load or store form's address comes from.
enum class Via { kDirect, kGenericGlobal, kGenericShared, kGenericLocal };

std::string space_of(const std::string& form) {
  for (const char* s : {"global", "shared", "local", "param", "const"})
    if (has_token(form, s)) return s;
  return "generic";
}

// Sets %rd30 to the address of chunk `idx_reg` of the state space the form accesses,
// after copying (for shared/local) the input chunks there. `copy_in` copies the thread's
// input chunk (at %rd6) into the space; for stores the chunk is filled with the pattern.
std::string chunk_address(const std::string& space, Via via, bool copy_in, const char* idx_reg) {
  std::ostringstream b;
  if (space == "global" || (space == "generic" && via == Via::kGenericGlobal)) {
    b << "  mul.wide.u32 %rd28, " << idx_reg << ", " << kChunk << ";\n";
    // generic: the parameter as passed; global: after cvta.to.global.
    b << "  add.s64 %rd30, " << (space == "global" ? "%rd29" : "%rd27") << ", %rd28;\n";
    return b.str();
  }
  const bool shared = space == "shared" || via == Via::kGenericShared;
  b << "  mov.u64 %rd20, " << (shared ? "sbuf" : "lbuf") << ";\n";
  if (shared)
    b << "  mul.wide.u32 %rd21, %r1, " << kChunk << ";\n  add.s64 %rd22, %rd20, %rd21;\n";
  else
    b << "  mov.u64 %rd22, %rd20;\n";
  const char* st = shared ? "st.shared.u32" : "st.local.u32";
  for (int w = 0; w < kChunk / 4; ++w) {
    if (copy_in)
      b << "  ld.global.u32 %r" << 100 + w << ", [%rd6+" << 4 * w << "];\n";
    else
      b << "  mov.u32 %r" << 100 + w << ", " << kPattern << ";\n";
    b << "  " << st << " [%rd22+" << 4 * w << "], %r" << 100 + w << ";\n";
  }
  if (shared)
    b << "  bar.sync 0;\n  mul.wide.u32 %rd23, " << idx_reg << ", " << kChunk
      << ";\n  add.s64 %rd24, %rd20, %rd23;\n";
  else
    b << "  mov.u64 %rd24, %rd22;\n";
  if (space == "generic")
    b << "  cvta." << (shared ? "shared" : "local") << ".u64 %rd30, %rd24;\n";
  else
    b << "  mov.u64 %rd30, %rd24;\n";
  return b.str();
}
const char* kChunkDecls = ".shared .align 16 .b8 sbuf[1024];\n";

// A load form: each thread loads the elements of one chunk (another thread's, where the
// space is shared by the CTA) and stores each to its own 8-byte output slot.
KernelCase load_case(const std::string& form, Via via = Via::kDirect,
                     const std::string& inst = "") {
  const std::string text = inst.empty() ? form : inst;
  std::vector<std::string> tok = split(text, '.');
  const TypeInfo t = type_info(tok.back());
  const int vec = has_token(text, "v4") ? 4 : has_token(text, "v2") ? 2 : 1;
  const std::string space = space_of(text);
  const bool local = space == "local" || via == Via::kGenericLocal;
  std::ostringstream b;
  b << kGid << load_buffers(2);
  b << "  mov.u64 %rd27, %rd1;\n  mov.u64 %rd29, %rd2;\n";
  b << "  mul.wide.u32 %rd5, %r1, " << kChunk
    << ";\n  add.s64 %rd6, %rd2, %rd5;\n";               // own input chunk
  b << "  sub.u32 %r5, " << kThreads - 1 << ", %r1;\n";  // reversed index
  b << chunk_address(space, via, /*copy_in=*/true, local ? "%r1" : "%r5");
  std::string regs;
  for (int k = 0; k < vec; ++k) regs += (k ? ", " : "") + reg(t.cls, 40 + k);
  b << "  " << text << " " << (vec > 1 ? "{" + regs + "}" : regs) << ", [%rd30];\n";
  b << "  mul.wide.u32 %rd7, %r1, 32;\n  add.s64 %rd8, %rd4, %rd7;\n";
  for (int k = 0; k < vec; ++k) {
    std::string r = reg(t.cls, 40 + k);
    switch (t.cls) {
      case 'f':
        b << "  mov.b32 %r" << 60 + k << ", " << r << ";\n  st.global.u32 [%rd8+" << 8 * k
          << "], %r" << 60 + k << ";\n";
        break;
      case 'F':
        b << "  mov.b64 %rd" << 60 + k << ", " << r << ";\n  st.global.u64 [%rd8+" << 8 * k
          << "], %rd" << 60 + k << ";\n";
        break;
      case 'd':
        b << "  st.global.u64 [%rd8+" << 8 * k << "], " << r << ";\n";
        break;
      default:
        b << "  st.global.u32 [%rd8+" << 8 * k << "], " << r << ";\n";
    }
  }
  std::mt19937 rng(seed_of(form + std::to_string(static_cast<int>(via))));
  std::vector<uint8_t> in(kThreads * kChunk);
  for (auto& x : in) x = static_cast<uint8_t>(rng());
  KernelCase c;
  c.name = form + (via == Via::kGenericShared  ? " (generic->shared)"
                   : via == Via::kGenericLocal ? " (generic->local)"
                                               : "");
  c.family = tok[0];
  c.forms = {form};
  c.ptx = module(buffer_params(2), b.str(),
                 space == "shared" || via == Via::kGenericShared ? kChunkDecls : "");
  if (local) c.ptx.insert(c.ptx.find("  .reg .pred"), "  .local .align 16 .b8 lbuf[16];\n");
  c.launch.block[0] = kThreads;
  c.buffers = {in, std::vector<uint8_t>(kThreads * 32, 0)};
  c.check = [in, t, vec, local](const Buffers& after) {
    std::vector<uint64_t> want(kThreads * 4, 0);
    for (int i = 0; i < kThreads; ++i) {
      int src = local ? i : kThreads - 1 - i;
      for (int k = 0; k < vec; ++k) want[i * 4 + k] = loaded(&in[src * kChunk + k * t.bytes], t);
    }
    return compare_u64("out", want, values_of<uint64_t>(after[1]));
  };
  return c;
}

// A store form: each thread stores values taken from its input (64 bytes a thread) into
// one chunk prefilled with a pattern; the chunks are then copied out (another thread's,
// where the space is shared by the CTA).
KernelCase store_case(const std::string& form, Via via = Via::kDirect,
                      const std::string& inst = "") {
  const std::string text = inst.empty() ? form : inst;
  std::vector<std::string> tok = split(text, '.');
  const TypeInfo t = type_info(tok.back());
  const int vec = has_token(text, "v4") ? 4 : has_token(text, "v2") ? 2 : 1;
  const std::string space = space_of(text);
  const bool local = space == "local" || via == Via::kGenericLocal;
  const bool shared = space == "shared" || via == Via::kGenericShared;
  std::ostringstream b;
  b << kGid << load_buffers(2);
  b << "  mov.u64 %rd27, %rd3;\n  mov.u64 %rd29, %rd4;\n";
  b << "  mul.wide.u32 %rd5, %r1, 64;\n  add.s64 %rd6, %rd2, %rd5;\n";  // own input values
  std::string regs;
  for (int k = 0; k < vec; ++k) {
    std::string r = reg(t.cls, 40 + k);
    regs += (k ? ", " : "") + r;
    if (t.bytes == 8) {
      b << "  ld.global.u64 %rd" << 60 + k << ", [%rd6+" << 8 * k << "];\n";
      b << "  mov.b64 " << r << ", %rd" << 60 + k << ";\n";
    } else {
      b << "  ld.global.u32 %r" << 60 + k << ", [%rd6+" << 4 * k << "];\n";
      b << "  mov.b32 " << r << ", %r" << 60 + k << ";\n";
    }
  }
  b << chunk_address(space, via, /*copy_in=*/false, "%r1");
  b << "  " << text << " [%rd30], " << (vec > 1 ? "{" + regs + "}" : regs) << ";\n";
  if (shared || local) {
    // Copy chunk (reversed for shared) out to the thread's output chunk.
    b << (shared ? "  bar.sync 0;\n  sub.u32 %r5, " + std::to_string(kThreads - 1) +
                       ", %r1;\n  mul.wide.u32 %rd23, %r5, " + std::to_string(kChunk) +
                       ";\n  add.s64 %rd24, %rd20, %rd23;\n"
                 : "  mov.u64 %rd24, %rd20;\n");
    b << "  mul.wide.u32 %rd7, %r1, " << kChunk << ";\n  add.s64 %rd8, %rd4, %rd7;\n";
    for (int w = 0; w < kChunk / 4; ++w)
      b << "  ld." << (shared ? "shared" : "local") << ".u32 %r" << 110 + w << ", [%rd24+" << 4 * w
        << "];\n  st.global.u32 [%rd8+" << 4 * w << "], %r" << 110 + w << ";\n";
  }
  std::mt19937 rng(seed_of(form + "st" + std::to_string(static_cast<int>(via))));
  std::vector<uint8_t> in(kThreads * 64);
  for (auto& x : in) x = static_cast<uint8_t>(rng());
  KernelCase c;
  c.name = form + (via == Via::kGenericShared  ? " (generic->shared)"
                   : via == Via::kGenericLocal ? " (generic->local)"
                                               : "");
  c.family = tok[0];
  c.forms = {form};
  c.ptx = module(buffer_params(2), b.str(), shared ? kChunkDecls : "");
  if (local) c.ptx.insert(c.ptx.find("  .reg .pred"), "  .local .align 16 .b8 lbuf[16];\n");
  c.launch.block[0] = kThreads;
  c.buffers = {in, std::vector<uint8_t>(kThreads * kChunk, 0xa5)};
  c.check = [in, t, vec, shared](const Buffers& after) {
    std::vector<uint8_t> want(kThreads * kChunk, 0xa5);
    for (int i = 0; i < kThreads; ++i) {
      int src = shared ? kThreads - 1 - i : i;
      for (int k = 0; k < vec; ++k) {
        // Element k came from bytes [k*4, +4) (or [k*8, +8)) of the source's input.
        const uint8_t* v = &in[src * 64 + k * (t.bytes == 8 ? 8 : 4)];
        std::memcpy(&want[i * kChunk + k * t.bytes], v, t.bytes);
      }
    }
    std::vector<uint32_t> w(want.size() / 4);
    std::memcpy(w.data(), want.data(), want.size());
    return compare_u32("out", w, values_of<uint32_t>(after[1]));
  };
  return c;
}

// ---- atomics --------------------------------------------------------------------------

enum class Where { kGlobal, kShared, kGenericGlobal, kGenericShared };

struct AtomType {
  int bytes = 4;   // storage
  char cls = 'r';  // register class of the operands
  bool is_signed = false;
  int fp = 0;         // 0: integer; 16: f16; 17: bf16; 32, 64: f32/f64
  bool pair = false;  // f16x2/bf16x2
};
AtomType atom_type(const std::string& t) {
  AtomType a;
  if (t == "f16" || t == "bf16")
    a = {2, 'h', false, t == "f16" ? 16 : 17, false};
  else if (t == "f16x2" || t == "bf16x2")
    a = {4, 'r', false, t == "f16x2" ? 16 : 17, true};
  else if (t == "f32")
    a = {4, 'f', false, 32, false};
  else if (t == "f64")
    a = {8, 'F', false, 64, false};
  else
    a = {std::stoi(t.substr(1)) / 8,
         std::stoi(t.substr(1)) == 64 ? 'd'
         : t == "b16"                 ? 'h'
                                      : 'r',
         t[0] == 's', 0, false};
  return a;
}

double half_value(uint32_t h, int fp) {
  if (fp == 17) {
    uint32_t b = h << 16;
    float f;
    std::memcpy(&f, &b, 4);
    return f;
  }
  int e = (h >> 10) & 31, m = h & 1023;
  double v = e == 0 ? std::ldexp(m, -24) : std::ldexp(1024 + m, e - 25);
  return (h & 0x8000) ? -v : v;
}
uint32_t half_bits(double v, int fp) {  // exact small integers only
  if (fp == 17) {
    float f = static_cast<float>(v);
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b >> 16;
  }
  if (v == 0) return 0;
  int e;
  double m = std::frexp(v, &e);  // v = m * 2^e, m in [0.5, 1)
  return static_cast<uint32_t>(((e + 14) << 10) | (static_cast<uint32_t>(m * 2048) & 1023));
}
double float_value(uint64_t raw, const AtomType& t, int half) {
  if (t.fp == 32) {
    float f;
    uint32_t b = static_cast<uint32_t>(raw);
    std::memcpy(&f, &b, 4);
    return f;
  }
  if (t.fp == 64) {
    double d;
    std::memcpy(&d, &raw, 8);
    return d;
  }
  return half_value(static_cast<uint32_t>(raw >> (16 * half)) & 0xffff, t.fp);
}
uint64_t float_raw(double v, const AtomType& t) {
  if (t.fp == 32) {
    float f = static_cast<float>(v);
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
  }
  if (t.fp == 64) {
    uint64_t b;
    std::memcpy(&b, &v, 8);
    return b;
  }
  return half_bits(v, t.fp);
}

// Checks an atomic's results against every serial order: `olds` (empty for red) are
// the values returned, `vals` the operands, `init`/`final` the location.
std::string check_atomic(const std::string& op, const AtomType& t, uint64_t init,
                         const std::vector<uint64_t>& vals, const std::vector<uint64_t>& olds,
                         uint64_t final, uint64_t bound) {
  const int w = 8 * t.bytes;
  const uint64_t mask = w == 64 ? ~0ull : (1ull << w) - 1;
  auto sx = [&](uint64_t v) {
    return w == 64 ? static_cast<int64_t>(v) : static_cast<int64_t>(v << (64 - w)) >> (64 - w);
  };
  auto less = [&](uint64_t a, uint64_t b) {
    return t.is_signed ? sx(a) < sx(b) : (a & mask) < (b & mask);
  };
  const size_t n = vals.size();
  auto bad = [&](const std::string& what, uint64_t want, uint64_t got) {
    return what + ": expected " + hex(want) + " got " + hex(got);
  };
  if (op == "add" && t.fp) {
    for (int half = 0; half < (t.pair ? 2 : 1); ++half) {
      double want = float_value(init, t, half);
      for (uint64_t v : vals) want += float_value(v, t, half);
      double got = float_value(final, t, half);
      if (got != want)
        return "final (half " + std::to_string(half) + "): expected " + std::to_string(want) +
               " got " + std::to_string(got);
      if (olds.empty()) continue;
      std::vector<std::pair<double, double>> chain;  // (old, operand), ascending
      for (size_t i = 0; i < n; ++i)
        chain.push_back({float_value(olds[i], t, half), float_value(vals[i], t, half)});
      std::sort(chain.begin(), chain.end());
      double cur = float_value(init, t, half);
      for (auto& [o, v] : chain) {
        if (o != cur)
          return "old values are not a chain of partial sums at " + std::to_string(o) +
                 " (expected " + std::to_string(cur) + ")";
        cur += v;
      }
    }
    return "";
  }
  uint64_t want = init & mask;
  std::vector<uint64_t> seq;  // inc/dec: the olds of any serial order
  for (uint64_t v : vals) {
    uint64_t o = want;
    if (op == "add")
      want = (want + v) & mask;
    else if (op == "min")
      want = less(v, want) ? v & mask : want;
    else if (op == "max")
      want = less(want, v) ? v & mask : want;
    else if (op == "and")
      want &= v;
    else if (op == "or")
      want |= v;
    else if (op == "xor")
      want ^= v & mask;
    else if (op == "exch")
      want = v & mask;
    else if (op == "inc")
      want = want >= bound ? 0 : want + 1;
    else if (op == "dec")
      want = (want == 0 || want > bound) ? bound : want - 1;
    else if (op == "cas")
      want = want + 1;  // the CAS loop increments
    seq.push_back(o);
  }
  // The last exchange depends on the order; the permutation check below covers it.
  if (op != "exch" && (final & mask) != want) return bad("final value", want, final & mask);
  if (olds.empty()) return "";
  std::vector<uint64_t> got = olds;
  for (auto& g : got) g &= mask;
  if (op == "inc" || op == "dec" || op == "cas") {
    std::sort(seq.begin(), seq.end());
    std::sort(got.begin(), got.end());
    for (size_t i = 0; i < n; ++i)
      if (seq[i] != got[i])
        return bad("sorted old values[" + std::to_string(i) + "]", seq[i], got[i]);
    return "";
  }
  if (op == "exch") {
    std::multiset<uint64_t> a(got.begin(), got.end()), b;
    a.insert(final & mask);
    b.insert(init & mask);
    for (uint64_t v : vals) b.insert(v & mask);
    return a == b ? ""
                  : "old values and the final value are not a permutation of the initial value and "
                    "the operands";
  }
  if (op == "add") {
    std::vector<std::pair<uint64_t, uint64_t>> chain;
    for (size_t i = 0; i < n; ++i) chain.push_back({got[i], vals[i] & mask});
    std::sort(chain.begin(), chain.end());
    uint64_t cur = init & mask;
    for (auto& [o, v] : chain) {
      if (o != cur) return bad("old values are not a chain of partial sums", cur, o);
      cur = (cur + v) & mask;
    }
    return "";
  }
  std::set<uint64_t> possible = {init & mask};
  for (uint64_t v : vals) possible.insert(v & mask);
  bool saw_init = false;
  for (size_t i = 0; i < n; ++i) {
    uint64_t o = got[i];
    saw_init |= o == (init & mask);
    if (op == "min" && (less(o, want) || !possible.count(o)))
      return bad("old value " + std::to_string(i), want, o);
    if (op == "max" && (less(want, o) || !possible.count(o)))
      return bad("old value " + std::to_string(i), want, o);
    if (op == "and" && (o & want) != want)
      return bad("old value (a superset of the final bits) " + std::to_string(i), want, o);
    if (op == "or" && (o | want) != want)
      return bad("old value (a subset of the final bits) " + std::to_string(i), want, o);
  }
  if ((op == "min" || op == "max") && !saw_init) return "no thread saw the initial value";
  return "";
}

// One atomic (or red) instruction `inst` ("atom.global.add.u32", any modifier order)
// executed once by every thread on one location in `where`.
KernelCase atom_case(const std::string& form, Where where, const std::string& inst = "",
                     int ctas = 0, int block = 0, const std::string& target = "sm_80",
                     const std::string& version = "8.0") {
  const std::string text = inst.empty() ? form : inst;
  std::vector<std::string> tok = split(text, '.');
  const bool red = tok[0] == "red";
  std::string op;
  for (const char* o : {"add", "inc", "dec", "min", "max", "and", "or", "xor", "exch", "cas"})
    if (has_token(text, o)) op = o;
  const AtomType t = atom_type(tok.back());
  const bool shared = where == Where::kShared || where == Where::kGenericShared;
  if (ctas == 0) ctas = shared ? 1 : 4;
  if (block == 0) block = shared ? 256 : 128;
  const int n = ctas * block;
  std::mt19937_64 rng(seed_of(form + std::to_string(static_cast<int>(where))));
  // Operands and the initial value.
  std::vector<uint64_t> vals(n);
  uint64_t init = 0, bound = 99;
  const uint64_t mask = t.bytes == 8 ? ~0ull : (1ull << (8 * t.bytes)) - 1;
  for (int i = 0; i < n; ++i) {
    uint64_t r = rng();
    if (op == "add" && t.fp == 32)
      vals[i] = float_raw(1 + i * 7919 % 1000, t);
    else if (op == "add" && t.fp == 64)
      vals[i] = float_raw(1 + i * 7919 % 1000, t);
    else if (op == "add" && t.fp)
      vals[i] = t.pair ? half_bits(1 + i % 3, t.fp) | half_bits(1 + i / 3 % 2, t.fp) << 16
                       : half_bits(1 + i % (t.fp == 17 ? 2 : 3), t.fp);
    else if (op == "add")
      vals[i] = static_cast<uint64_t>(1 + i * 7919 % 1000) << (t.bytes == 8 ? 24 : 0);
    else if (op == "inc" || op == "dec")
      vals[i] = bound;
    else if (op == "and")
      vals[i] = ~(1ull << (i % 24)) & mask;
    else if (op == "or")
      vals[i] = 1ull << (i % 24);
    else if (op == "exch")
      vals[i] = (i + 1) | (t.bytes == 8 ? 1ull << 40 : 0);
    else
      vals[i] = r & mask;
  }
  if (op == "add")
    init = t.fp == 32 || t.fp == 64 ? float_raw(0.5, t)
           : t.fp                   ? 0
           : t.bytes == 8           ? 1ull << 40
                                    : 1000;
  else if (op == "dec")
    init = bound;
  else if (op == "and")
    init = mask;
  else if (op == "or")
    init = 0x1000000;
  else if (op == "xor" || op == "min" || op == "max")
    init = rng() & mask;
  else if (op == "exch")
    init = 0xdead;
  // Kernel.
  std::ostringstream b;
  b << kGid << load_buffers(2);
  b << "  mul.wide.u32 %rd5, %r4, 8;\n  add.s64 %rd6, %rd4, %rd5;\n  add.s64 %rd7, %rd2, %rd5;\n";
  switch (t.cls) {
    case 'd':
      b << "  ld.global.u64 %rd10, [%rd6];\n";
      break;
    case 'f':
      b << "  ld.global.f32 %f10, [%rd6];\n";
      break;
    case 'F':
      b << "  ld.global.f64 %fd10, [%rd6];\n";
      break;
    case 'h':
      b << "  ld.global.b16 %h10, [%rd6];\n";
      break;
    default:
      b << "  ld.global.u32 %r10, [%rd6];\n";
  }
  if (shared) {
    b << "  mov.u64 %rd20, cnt;\n  setp.eq.u32 %p1, %r1, 0;\n  @%p1 ld.global.u64 %rd21, [%rd2];\n"
      << "  @%p1 st.shared.u64 [%rd20], %rd21;\n  bar.sync 0;\n";
    b << (where == Where::kShared ? "  mov.u64 %rd30, %rd20;\n"
                                  : "  cvta.shared.u64 %rd30, %rd20;\n");
  } else {
    b << (where == Where::kGlobal ? "  mov.u64 %rd30, %rd2;\n" : "  mov.u64 %rd30, %rd1;\n");
  }
  const std::string v = reg(t.cls, 10), o = reg(t.cls, 11), nw = reg(t.cls, 12);
  if (op == "cas") {
    const std::string w = t.cls == 'd' ? "u64" : t.cls == 'h' ? "u16" : "u32";
    const std::string bw = t.cls == 'd' ? "b64" : t.cls == 'h' ? "b16" : "b32";
    b << "  mov." << bw << " " << v << ", 0;\n$Lcas:\n  add." << w << " " << nw << ", " << v
      << ", 1;\n";
    b << "  " << text << " " << o << ", [%rd30], " << v << ", " << nw << ";\n";
    b << "  setp.ne." << bw << " %p2, " << o << ", " << v << ";\n  mov." << bw << " " << v << ", "
      << o << ";\n";
    b << "  @%p2 bra $Lcas;\n";
  } else if (red) {
    b << "  " << text << " [%rd30], " << v << ";\n";
  } else {
    b << "  " << text << " " << o << ", [%rd30], " << v << ";\n";
  }
  if (!red) {
    switch (t.cls) {
      case 'd':
        b << "  st.global.u64 [%rd7+8], " << o << ";\n";
        break;
      case 'f':
        b << "  st.global.f32 [%rd7+8], " << o << ";\n";
        break;
      case 'F':
        b << "  st.global.f64 [%rd7+8], " << o << ";\n";
        break;
      case 'h':
        b << "  st.global.b16 [%rd7+8], " << o << ";\n";
        break;
      default:
        b << "  st.global.u32 [%rd7+8], " << o << ";\n";
    }
  }
  if (shared)
    b << "  bar.sync 0;\n  @%p1 ld.shared.u64 %rd21, [%rd20];\n  @%p1 st.global.u64 [%rd2], "
         "%rd21;\n";
  KernelCase c;
  const char* wn[] = {"", " (shared)", " (generic->global)", " (generic->shared)"};
  c.name =
      form + (form.find("shared") == std::string::npos && form.find("global") == std::string::npos
                  ? wn[static_cast<int>(where)]
                  : "");
  c.family = tok[0];
  c.forms = {form};
  c.ptx = module(buffer_params(2), b.str(), shared ? ".shared .align 8 .b8 cnt[8];\n" : "", target,
                 version);
  c.launch.grid[0] = ctas;
  c.launch.block[0] = block;
  std::vector<uint64_t> out(n + 1, 0);
  out[0] = init;
  c.buffers = {bytes_of(out), bytes_of(vals)};
  c.check = [op, t, init, vals, bound, red](const Buffers& after) {
    std::vector<uint64_t> got = values_of<uint64_t>(after[0]);
    std::vector<uint64_t> olds;
    if (!red) olds.assign(got.begin() + 1, got.end());
    return check_atomic(op, t, init, vals, olds, got[0], bound);
  };
  return c;
}

// ---- cvta, param, ordering, faults ----------------------------------------------------

KernelCase simple_case(const std::string& name, const std::string& family,
                       std::vector<std::string> forms, const std::string& ptx, Buffers buffers,
                       std::function<std::string(const Buffers&)> check) {
  KernelCase c;
  c.name = name;
  c.family = family;
  c.forms = std::move(forms);
  c.ptx = ptx;
  c.buffers = std::move(buffers);
  c.check = std::move(check);
  return c;
}

// Generic addresses of global, shared and local memory through cvta and back: every
// thread writes through the generic address, reads back through the space (another
// thread's word for shared), and records cvta.to(cvta(x)) - x (must be 0).
std::vector<KernelCase> cvta_cases() {
  std::vector<KernelCase> out;
  const int n = 64;
  std::vector<uint32_t> init(n);
  for (int i = 0; i < n; ++i) init[i] = 0x1000 + i * 3;
  {
    std::ostringstream b;
    b << kGid << load_buffers(2);
    b << "  cvta.global.u64 %rd10, %rd2;\n  cvta.to.global.u64 %rd11, %rd10;\n  sub.s64 %rd12, "
         "%rd11, %rd2;\n"
      << "  mul.wide.u32 %rd5, %r1, 4;\n  add.s64 %rd13, %rd10, %rd5;\n  ld.u32 %r10, [%rd13];\n"
      << "  add.s64 %rd14, %rd11, %rd5;\n  ld.global.u32 %r11, [%rd14];\n  add.u32 %r12, %r10, "
         "%r11;\n"
      << "  mul.wide.u32 %rd6, %r1, 16;\n  add.s64 %rd15, %rd4, %rd6;\n  st.global.u32 [%rd15], "
         "%r12;\n"
      << "  st.global.u64 [%rd15+8], %rd12;\n";
    KernelCase c =
        simple_case("cvta.global round trip", "cvta", {"cvta.global.u64", "cvta.to.global.u64"},
                    module(buffer_params(2), b.str()),
                    {bytes_of(init), std::vector<uint8_t>(n * 16, 0xff)}, [init](const Buffers& a) {
                      std::vector<uint32_t> w;
                      for (int i = 0; i < 64; ++i)
                        w.insert(w.end(), {2 * init[i], 0xffffffffu, 0, 0});
                      return compare_u32("out", w, values_of<uint32_t>(a[1]));
                    });
    c.launch.block[0] = n;
    out.push_back(c);
  }
  for (const char* space : {"shared", "local"}) {
    const bool shared = std::string(space) == "shared";
    std::ostringstream b;
    b << kGid << load_buffers(2);
    b << "  mul.wide.u32 %rd5, %r1, 4;\n  add.s64 %rd6, %rd2, %rd5;\n  ld.global.u32 %r10, "
         "[%rd6];\n";
    if (shared)
      b << "  mov.u64 %rd20, sbuf;\n  add.s64 %rd21, %rd20, %rd5;\n";
    else
      b << "  mov.u64 %rd21, lbuf;\n";
    b << "  cvta." << space << ".u64 %rd22, %rd21;\n  st.u32 [%rd22], %r10;\n";
    b << "  cvta.to." << space << ".u64 %rd23, %rd22;\n  sub.s64 %rd24, %rd23, %rd21;\n";
    if (shared) {
      b << "  bar.sync 0;\n  sub.u32 %r5, " << n - 1 << ", %r1;\n  mul.wide.u32 %rd25, %r5, 4;\n"
        << "  add.s64 %rd26, %rd20, %rd25;\n  ld.shared.u32 %r11, [%rd26];\n  cvta.shared.u64 "
           "%rd27, %rd26;\n"
        << "  ld.u32 %r12, [%rd27];\n";
    } else {
      b << "  ld.local.u32 %r11, [%rd23];\n  ld.u32 %r12, [%rd22];\n";
    }
    b << "  add.u32 %r13, %r11, %r12;\n  mul.wide.u32 %rd7, %r1, 16;\n  add.s64 %rd8, %rd4, %rd7;\n"
      << "  st.global.u32 [%rd8], %r13;\n  st.global.u64 [%rd8+8], %rd24;\n";
    std::string ptx =
        module(buffer_params(2), b.str(), shared ? ".shared .align 16 .b8 sbuf[256];\n" : "");
    if (!shared) ptx.insert(ptx.find("  .reg .pred"), "  .local .align 16 .b8 lbuf[16];\n");
    KernelCase c = simple_case(
        std::string("cvta.") + space + " round trip", "cvta",
        {std::string("cvta.") + space + ".u64", std::string("cvta.to.") + space + ".u64"}, ptx,
        {bytes_of(init), std::vector<uint8_t>(n * 16, 0xff)}, [init, shared](const Buffers& a) {
          std::vector<uint32_t> w;
          for (int i = 0; i < 64; ++i)
            w.insert(w.end(), {2 * init[shared ? 63 - i : i], 0xffffffffu, 0, 0});
          return compare_u32("out", w, values_of<uint32_t>(a[1]));
        });
    c.launch.block[0] = n;
    out.push_back(c);
  }
  return out;
}

// Kernel parameters of every size and a by-value vector, and parameters of a called
// function (st.param in the caller, ld.param in the callee, st.param of the result).
std::vector<KernelCase> param_cases() {
  std::vector<KernelCase> out;
  {
    std::string params =
        ".param .u64 p0, .param .u32 a, .param .f32 b, .param .b32 c, .param .f64 d, .param .b64 "
        "e, .param .s32 f, "
        ".param .s8 g, .param .u16 h, .param .align 8 .b8 v[8], .param .align 8 .b8 w[8], .param "
        ".s16 k, .param .u8 m";
    std::ostringstream b;
    b << "  ld.param.u64 %rd1, [p0];\n  cvta.to.global.u64 %rd2, %rd1;\n";
    b << "  ld.param.u32 %r10, [a];\n  st.global.u32 [%rd2], %r10;\n";
    b << "  ld.param.f32 %f1, [b];\n  st.global.f32 [%rd2+8], %f1;\n";
    b << "  ld.param.b32 %r11, [c];\n  st.global.u32 [%rd2+16], %r11;\n";
    b << "  ld.param.f64 %fd1, [d];\n  st.global.f64 [%rd2+24], %fd1;\n";
    b << "  ld.param.b64 %rd10, [e];\n  st.global.u64 [%rd2+32], %rd10;\n";
    b << "  ld.param.s32 %r12, [f];\n  st.global.u32 [%rd2+40], %r12;\n";
    b << "  ld.param.s8 %r13, [g];\n  st.global.u32 [%rd2+48], %r13;\n";
    b << "  ld.param.u16 %r14, [h];\n  st.global.u32 [%rd2+56], %r14;\n";
    b << "  ld.param.v2.u32 {%r15, %r16}, [v];\n  st.global.v2.u32 [%rd2+64], {%r15, %r16};\n";
    b << "  ld.param.v2.f32 {%f2, %f3}, [w];\n  st.global.v2.f32 [%rd2+72], {%f2, %f3};\n";
    b << "  ld.param.s16 %r17, [k];\n  st.global.u32 [%rd2+80], %r17;\n";
    b << "  ld.param.u8 %r18, [m];\n  st.global.u32 [%rd2+88], %r18;\n";
    b << "  ld.param.u32 %r19, [v+4];\n  st.global.u32 [%rd2+96], %r19;\n";
    const uint64_t d = 0x400921fb54442d18ull;  // pi
    KernelCase c = simple_case(
        "ld.param kernel parameters", "ld",
        {"ld.param.u64", "ld.param.u32", "ld.param.f32", "ld.param.b32", "ld.param.f64",
         "ld.param.b64", "ld.param.s32", "ld.param.s8", "ld.param.u16", "ld.param.v2.u32",
         "ld.param.v2.f32", "ld.param.s16", "ld.param.u8"},
        module(params, b.str()), {std::vector<uint8_t>(13 * 8, 0)}, [d](const Buffers& a) {
          std::vector<uint64_t> want = {0x89abcdefu,
                                        0x40490fdbu,
                                        0xdeadbeefu,
                                        d,
                                        0x0123456789abcdefull,
                                        0xfffffff6u,
                                        0xffffff85u,
                                        0xfffeu,
                                        0x2222222211111111ull,
                                        0xbf8000003f800000ull,
                                        0xffff8001u,
                                        0xfeu,
                                        0x22222222u};
          return compare_u64("out", want, values_of<uint64_t>(a[0]));
        });
    c.launch.block[0] = 1;
    c.scalars = {0x89abcdef,
                 0x40490fdb,
                 0xdeadbeef,
                 d,
                 0x0123456789abcdefull,
                 0xfffffff6,
                 0x85,
                 0xfffe,
                 0x2222222211111111ull,
                 0xbf8000003f800000ull,
                 0x8001,
                 0xfe};
    out.push_back(c);
  }
  {
    std::string fn =
        ".func (.param .b32 ret) combine(.param .b64 x, .param .f64 y, .param .b32 z)\n{\n"
        "  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n  .reg .f64 %fd<4>;\n"
        "  ld.param.b64 %rd1, [x];\n  ld.param.f64 %fd1, [y];\n  ld.param.b32 %r1, [z];\n"
        "  cvt.rzi.s32.f64 %r2, %fd1;\n  cvt.u32.u64 %r3, %rd1;\n  shr.u64 %rd2, %rd1, 32;\n  "
        "cvt.u32.u64 %r4, %rd2;\n"
        "  add.u32 %r5, %r3, %r4;\n  mul.lo.u32 %r6, %r2, %r1;\n  add.u32 %r7, %r5, %r6;\n"
        "  st.param.b32 [ret], %r7;\n  ret;\n}\n\n";
    std::ostringstream b;
    b << kGid << load_buffers(1);
    b << "  cvt.u64.u32 %rd10, %r4;\n  shl.b64 %rd11, %rd10, 32;\n  add.s64 %rd12, %rd11, 7;\n"
      << "  cvt.rn.f64.u32 %fd1, %r4;\n  add.u32 %r10, %r4, 3;\n"
      << "  {\n  .param .b64 pa;\n  st.param.b64 [pa], %rd12;\n  .param .f64 pb;\n  st.param.f64 "
         "[pb], %fd1;\n"
      << "  .param .b32 pc;\n  st.param.b32 [pc], %r10;\n  .param .b32 rv;\n"
      << "  call.uni (rv), combine, (pa, pb, pc);\n  ld.param.b32 %r11, [rv];\n  }\n"
      << "  mul.wide.u32 %rd5, %r4, 4;\n  add.s64 %rd6, %rd2, %rd5;\n  st.global.u32 [%rd6], "
         "%r11;\n";
    KernelCase c = simple_case("st.param call arguments", "st",
                               {"st.param.b64", "st.param.f64", "st.param.b32"},
                               module(buffer_params(1), b.str(), fn),
                               {std::vector<uint8_t>(64 * 4, 0)}, [](const Buffers& a) {
                                 std::vector<uint32_t> want(64);
                                 for (uint32_t i = 0; i < 64; ++i) want[i] = 7 + i + i * (i + 3);
                                 return compare_u32("out", want, values_of<uint32_t>(a[0]));
                               });
    c.launch.block[0] = 64;
    out.push_back(c);
  }
  return out;
}

// Message passing: a writer stores data, then (fence or release) sets a flag; a reader
// spins on the flag a bounded number of times and, once it sees it, (fence or acquire)
// reads the data, which must then be the written value. `cta`: reader and writer in
// one CTA (different warps), else in different CTAs.
KernelCase message_case(const std::string& name, std::vector<std::string> forms,
                        const std::string& fence, const std::string& flag_st,
                        const std::string& flag_ld, bool cta) {
  std::ostringstream b;
  b << kGid << load_buffers(2);
  b << "  setp.eq.u32 %p1, %r4, " << (cta ? 32 : 64) << ";\n  @%p1 bra $Lwriter;\n";
  b << "  setp.ne.u32 %p2, %r4, 0;\n  @%p2 bra $Ldone;\n";
  // reader
  b << "  mov.u32 %r20, 0;\n$Lspin:\n  " << flag_ld
    << " %r21, [%rd30];\n  setp.ne.u32 %p3, %r21, 0;\n  @%p3 bra $Lseen;\n"
    << "  add.u32 %r20, %r20, 1;\n  setp.lt.u32 %p4, %r20, 200000;\n  @%p4 bra $Lspin;\n";
  b << "$Lseen:\n"
    << (fence.empty() ? "" : "  " + fence + ";\n") << "  ld.global.u32 %r22, [%rd2];\n"
    << "  st.global.u32 [%rd4], %r21;\n  st.global.u32 [%rd4+4], %r22;\n  bra $Ldone;\n";
  // writer
  b << "$Lwriter:\n  mov.u32 %r23, 42;\n  st.global.u32 [%rd2], %r23;\n"
    << (fence.empty() ? "" : "  " + fence + ";\n") << "  mov.u32 %r24, 1;\n  " << flag_st
    << " [%rd30], %r24;\n";
  b << "$Ldone:\n";
  std::string body = b.str();
  // The flag lives 128 bytes after the data; generic forms address it generically.
  const bool generic = space_of(flag_ld) == "generic";
  body.insert(body.find("  setp.eq.u32 %p1"),
              generic ? "  add.s64 %rd30, %rd1, 128;\n" : "  add.s64 %rd30, %rd2, 128;\n");
  KernelCase c =
      simple_case(name, "fence", std::move(forms), module(buffer_params(2), body),
                  {std::vector<uint8_t>(256, 0), std::vector<uint8_t>(8, 0)}, [](const Buffers& a) {
                    std::vector<uint32_t> got = values_of<uint32_t>(a[1]);
                    if (got[0] == 1 && got[1] != 42)
                      return "flag seen but data " + std::to_string(got[1]);
                    if (got[0] > 1) return "flag " + std::to_string(got[0]);
                    return std::string();
                  });
  c.family = split(c.forms[0], '.')[0];
  c.launch.grid[0] = cta ? 1 : 2;
  c.launch.block[0] = 64;
  return c;
}

std::vector<KernelCase> ordering_cases() {
  std::vector<KernelCase> out;
  const char* st_v = "st.volatile.global.u32";
  const char* ld_v = "ld.volatile.global.u32";
  for (const char* f : {"membar.gl", "membar.sys", "fence.sc.gpu", "fence.sc.sys",
                        "fence.acq_rel.gpu", "fence.acq_rel.sys"})
    out.push_back(message_case(std::string(f) + " message passing", {f}, f, st_v, ld_v, false));
  for (const char* f : {"membar.cta", "fence.sc.cta", "fence.acq_rel.cta"})
    out.push_back(message_case(std::string(f) + " message passing", {f}, f, st_v, ld_v, true));
  out.push_back(message_case("release/acquire gpu message passing",
                             {"st.release.gpu.global.u32", "ld.acquire.gpu.global.u32"}, "",
                             "st.release.gpu.global.u32", "ld.acquire.gpu.global.u32", false));
  out.push_back(message_case("release/acquire generic message passing",
                             {"st.release.gpu.u32", "ld.acquire.gpu.u32"}, "", "st.release.gpu.u32",
                             "ld.acquire.gpu.u32", false));
  out.push_back(message_case("release/acquire cta message passing", {"ld.acquire.cta.u32"}, "",
                             "st.release.cta.u32", "ld.acquire.cta.u32", true));
  out.push_back(message_case("relaxed + fence message passing",
                             {"st.relaxed.cta.b32", "ld.relaxed.cta.b32"}, "fence.acq_rel.cta",
                             "st.relaxed.cta.b32", "ld.relaxed.cta.b32", true));
  out.push_back(message_case("relaxed sys + fence message passing", {"ld.relaxed.sys.global.u32"},
                             "fence.sc.sys", "st.relaxed.sys.global.u32",
                             "ld.relaxed.sys.global.u32", false));
  return out;
}

// Misaligned and out-of-range accesses end the launch with the matching fault.
KernelCase fault_case(const std::string& name, const std::string& form,
                      const std::string& body_tail, FaultKind kind, const std::string& decls = "",
                      bool local = false) {
  std::string body =
      std::string(kGid) + load_buffers(1) + "  mov.u32 %r10, 7;\n  mov.u64 %rd10, 7;\n" + body_tail;
  std::string ptx = module(buffer_params(1), body, decls);
  if (local) ptx.insert(ptx.find("  .reg .pred"), "  .local .align 8 .b8 lbuf[16];\n");
  KernelCase c =
      simple_case(name, split(form, '.')[0], {form}, ptx, {std::vector<uint8_t>(4096, 0)}, nullptr);
  c.expect_fault = kind;
  c.launch.block[0] = 32;
  return c;
}

std::vector<KernelCase> fault_cases() {
  std::vector<KernelCase> out;
  const std::string sh = ".shared .align 16 .b8 sbuf[64];\n";
  out.push_back(fault_case("fault: misaligned ld.global.u32", "ld.global.u32",
                           "  ld.global.u32 %r11, [%rd2+2];\n  st.global.u32 [%rd2], %r11;\n",
                           FaultKind::kMisaligned));
  out.push_back(fault_case("fault: misaligned st.global.u64", "st.global.u64",
                           "  st.global.u64 [%rd2+4], %rd10;\n", FaultKind::kMisaligned));
  out.push_back(fault_case(
      "fault: misaligned ld.global.v4.u32", "ld.global.v4.u32",
      "  ld.global.v4.u32 {%r11, %r12, %r13, %r14}, [%rd2+8];\n  st.global.u32 [%rd2], %r11;\n",
      FaultKind::kMisaligned));
  out.push_back(fault_case("fault: misaligned st.shared.u64", "st.shared.u64",
                           "  mov.u64 %rd20, sbuf;\n  st.shared.u64 [%rd20+4], %rd10;\n",
                           FaultKind::kMisaligned, sh));
  out.push_back(
      fault_case("fault: misaligned atom.global.add.u32", "atom.global.add.u32",
                 "  atom.global.add.u32 %r11, [%rd2+1], 1;\n  st.global.u32 [%rd2], %r11;\n",
                 FaultKind::kMisaligned));
  out.push_back(fault_case("fault: misaligned generic ld.u64", "ld.u64",
                           "  ld.u64 %rd11, [%rd1+12];\n  st.global.u64 [%rd2], %rd11;\n",
                           FaultKind::kMisaligned));
  out.push_back(fault_case("fault: ld.shared.u32 beyond shared memory", "ld.shared.u32",
                           "  mov.u64 %rd20, sbuf;\n  ld.shared.u32 %r11, [%rd20+65536];\n  "
                           "st.global.u32 [%rd2], %r11;\n",
                           FaultKind::kAddressSpace, sh));
  out.push_back(fault_case("fault: st.shared.u32 beyond shared memory", "st.shared.u32",
                           "  mov.u64 %rd20, sbuf;\n  st.shared.u32 [%rd20+64], %r10;\n",
                           FaultKind::kAddressSpace, sh));
  out.push_back(fault_case(
      "fault: generic ld.u32 beyond shared memory", "ld.u32",
      "  mov.u64 %rd20, sbuf;\n  cvta.shared.u64 %rd21, %rd20;\n  ld.u32 %r11, [%rd21+4096];\n"
      "  st.global.u32 [%rd2], %r11;\n",
      FaultKind::kAddressSpace, sh));
  out.push_back(fault_case("fault: ld.local.u32 beyond local memory", "ld.local.u32",
                           "  mov.u64 %rd20, lbuf;\n  st.local.u32 [%rd20], %r10;\n  ld.local.u32 "
                           "%r11, [%rd20+1048576];\n"
                           "  st.global.u32 [%rd2], %r11;\n",
                           FaultKind::kAddressSpace, "", true));
  out.push_back(fault_case(
      "fault: ld.global.u32 of an unmapped address", "ld.global.u32",
      "  mov.u64 %rd20, 4096;\n  ld.global.u32 %r11, [%rd20];\n  st.global.u32 [%rd2], %r11;\n",
      FaultKind::kUnmapped));
  out.push_back(fault_case("fault: st.u32 to an unmapped address", "st.u32",
                           "  add.s64 %rd20, %rd1, 1099511627776;\n  st.u32 [%rd20], %r10;\n",
                           FaultKind::kUnmapped));
  out.push_back(fault_case("fault: atom.global.add.u32 on an unmapped address",
                           "atom.global.add.u32",
                           "  mov.u64 %rd20, 4096;\n  atom.global.add.u32 %r11, [%rd20], 1;\n  "
                           "st.global.u32 [%rd2], %r11;\n",
                           FaultKind::kUnmapped));
  return out;
}

// alloca / stacksave / stackrestore: allocations of a dynamic size and alignment in
// local memory, used through ld/st.local and a generic address, released by
// stackrestore; an allocation far beyond the local memory faults on use.
std::vector<KernelCase> alloca_cases() {
  std::vector<KernelCase> out;
  std::ostringstream b;
  b << kGid << load_buffers(1);
  b << "  stacksave.u64 %rd40;\n"
    << "  and.b32 %r10, %r1, 3;\n  shl.b32 %r11, %r10, 2;\n  add.u32 %r12, %r11, 4;\n  cvt.u64.u32 "
       "%rd41, %r12;\n"
    << "  alloca.u64 %rd42, %rd41, 16;\n  alloca.u64 %rd43, 8;\n  alloca.u64 %rd44, 32, 32;\n"
    << "  mul.lo.u32 %r13, %r1, 3;\n  st.local.u32 [%rd42], %r13;\n"
    << "  cvt.u64.u32 %rd45, %r1;\n  add.s64 %rd46, %rd45, 1000;\n  st.local.u64 [%rd43], %rd46;\n"
    << "  add.u32 %r14, %r1, 77;\n  st.local.u32 [%rd44+28], %r14;\n"
    << "  cvta.local.u64 %rd47, %rd42;\n  ld.u32 %r15, [%rd47];\n"
    << "  ld.local.u64 %rd48, [%rd43];\n  ld.local.u32 %r16, [%rd44+28];\n"
    // alignment and disjointness: (p1 & 15) | (p3 & 31) == 0; p2 >= p1 + size; p3 >= p2 + 8
    << "  and.b64 %rd50, %rd42, 15;\n  and.b64 %rd51, %rd44, 31;\n  or.b64 %rd52, %rd50, %rd51;\n"
    << "  add.s64 %rd53, %rd42, %rd41;\n  setp.ge.u64 %p1, %rd43, %rd53;\n  add.s64 %rd54, %rd43, "
       "8;\n"
    << "  setp.ge.u64 %p2, %rd44, %rd54;\n  and.pred %p3, %p1, %p2;\n  selp.u32 %r17, 1, 0, %p3;\n"
    << "  stackrestore.u64 %rd40;\n  stacksave.u64 %rd55;\n  sub.s64 %rd56, %rd55, %rd40;\n"
    << "  alloca.u64 %rd57, 64, 64;\n  st.local.u32 [%rd57+60], %r14;\n  ld.local.u32 %r18, "
       "[%rd57+60];\n"
    << "  mul.wide.u32 %rd5, %r1, 48;\n  add.s64 %rd6, %rd2, %rd5;\n"
    << "  st.global.u32 [%rd6], %r15;\n  st.global.u64 [%rd6+8], %rd48;\n  st.global.u32 "
       "[%rd6+16], %r16;\n"
    << "  st.global.u64 [%rd6+24], %rd52;\n  st.global.u32 [%rd6+32], %r17;\n  st.global.u32 "
       "[%rd6+36], %r18;\n"
    << "  st.global.u64 [%rd6+40], %rd56;\n";
  KernelCase c = simple_case("alloca, stacksave, stackrestore", "alloca",
                             {"alloca.u64", "stacksave.u64", "stackrestore.u64"},
                             module(buffer_params(1), b.str()),
                             {std::vector<uint8_t>(64 * 48, 0xff)}, [](const Buffers& a) {
                               std::vector<uint32_t> want;
                               for (uint32_t i = 0; i < 64; ++i)
                                 want.insert(want.end(), {i * 3, 0xffffffffu, i + 1000, 0, i + 77,
                                                          0xffffffffu, 0, 0, 1, i + 77, 0, 0});
                               return compare_u32("out", want, values_of<uint32_t>(a[0]));
                             });
  c.launch.block[0] = 64;
  out.push_back(c);
  {
    std::string body = std::string(kGid) + load_buffers(1) +
                       "  alloca.u64 %rd10, 1048576, 16;\n  mov.u32 %r10, 5;\n  st.local.u32 "
                       "[%rd10+1048572], %r10;\n"
                       "  ld.local.u32 %r11, [%rd10+1048572];\n  st.global.u32 [%rd2], %r11;\n";
    KernelCase f =
        simple_case("fault: alloca beyond local memory", "alloca", {"alloca.u64"},
                    module(buffer_params(1), body), {std::vector<uint8_t>(64, 0)}, nullptr);
    f.expect_fault = FaultKind::kAddressSpace;
    out.push_back(f);
  }
  return out;
}

// .const data (constant bank 2) read by symbol, by symbol + offset and through a
// register holding the symbol's address plus a per-thread index.
std::vector<KernelCase> const_cases() {
  std::vector<KernelCase> out;
  std::string decls =
      ".const .align 16 .f32 ctab[8] = {1.0, 2.5, -3.0, 0.125, 100.0, -0.5, 7.0, 1e10};\n"
      ".const .align 8 .u64 cwide[2] = {81985529216486895, 18364758544493064720};\n"
      ".const .align 4 .s8 cbytes[4] = {-1, 2, -128, 127};\n\n";
  std::ostringstream b;
  b << kGid << load_buffers(1);
  b << "  and.b32 %r10, %r1, 7;\n  mul.wide.u32 %rd10, %r10, 4;\n  mov.u64 %rd11, ctab;\n  add.s64 "
       "%rd12, %rd11, %rd10;\n"
    << "  ld.const.f32 %f1, [%rd12];\n  ld.const.f32 %f2, [ctab+16];\n  ld.const.v4.f32 {%f3, %f4, "
       "%f5, %f6}, [ctab];\n"
    << "  ld.const.u64 %rd13, [cwide+8];\n  and.b32 %r11, %r1, 3;\n  cvt.u64.u32 %rd14, %r11;\n  "
       "mov.u64 %rd15, cbytes;\n"
    << "  add.s64 %rd16, %rd15, %rd14;\n  ld.const.s8 %r12, [%rd16];\n  ld.const.u32 %r13, "
       "[ctab+28];\n"
    << "  add.f32 %f7, %f3, %f4;\n  add.f32 %f8, %f5, %f6;\n  add.f32 %f9, %f7, %f8;\n"
    << "  mul.wide.u32 %rd5, %r1, 32;\n  add.s64 %rd6, %rd2, %rd5;\n  st.global.f32 [%rd6], %f1;\n"
    << "  st.global.f32 [%rd6+4], %f2;\n  st.global.f32 [%rd6+8], %f9;\n  st.global.u32 [%rd6+12], "
       "%r12;\n"
    << "  st.global.u64 [%rd6+16], %rd13;\n  st.global.u32 [%rd6+24], %r13;\n";
  KernelCase c = simple_case(
      "ld.const by symbol and register", "ld",
      {"ld.const.f32", "ld.const.v4.f32", "ld.const.u64", "ld.const.s8", "ld.const.u32"},
      module(buffer_params(1), b.str(), decls), {std::vector<uint8_t>(64 * 32, 0)},
      [](const Buffers& a) {
        const float tab[8] = {1.0f, 2.5f, -3.0f, 0.125f, 100.0f, -0.5f, 7.0f, 1e10f};
        const int8_t bytes[4] = {-1, 2, -128, 127};
        std::vector<uint32_t> want;
        auto bits = [](float f) {
          uint32_t u;
          std::memcpy(&u, &f, 4);
          return u;
        };
        for (uint32_t i = 0; i < 64; ++i) {
          const uint64_t w = 18364758544493064720ull;
          want.insert(want.end(),
                      {bits(tab[i & 7]), bits(100.0f), bits(1.0f + 2.5f + (-3.0f + 0.125f)),
                       static_cast<uint32_t>(static_cast<int32_t>(bytes[i & 3])),
                       static_cast<uint32_t>(w), static_cast<uint32_t>(w >> 32), bits(1e10f), 0});
        }
        return compare_u32("out", want, values_of<uint32_t>(a[0]));
      });
  c.launch.block[0] = 64;
  out.push_back(c);
  return out;
}

}  // namespace

std::vector<KernelCase> memory_cases() {
  std::vector<KernelCase> all;
  // ---- loads ----
  for (const char* f :
       {// global: every width, vector, cache operator, .nc, volatile, L1/L2 hints
        "ld.global.u8", "ld.global.s8", "ld.global.u16", "ld.global.s16", "ld.global.cs.b16",
        "ld.global.u32", "ld.global.s32", "ld.global.b32", "ld.global.f32", "ld.global.u64",
        "ld.global.s64", "ld.global.b64", "ld.global.f64", "ld.global.v2.u8", "ld.global.v4.u8",
        "ld.global.v2.s8", "ld.global.v2.u16", "ld.global.v4.u16", "ld.global.v4.s16",
        "ld.global.v2.u32", "ld.global.v2.f32", "ld.global.v4.u32", "ld.global.v4.s32",
        "ld.global.v4.f32", "ld.global.v2.u64", "ld.global.v2.f64", "ld.global.v2.s64",
        "ld.global.ca.u32", "ld.global.cg.b32", "ld.global.cs.f32", "ld.global.lu.u32",
        "ld.global.cv.u32", "ld.global.cs.v4.s32", "ld.global.cs.v4.f32", "ld.global.cg.v2.u64",
        "ld.global.lu.v4.u32", "ld.global.nc.u8", "ld.global.nc.u16", "ld.global.nc.u32",
        "ld.global.nc.u64", "ld.global.nc.f32", "ld.global.nc.f64", "ld.global.nc.v2.u32",
        "ld.global.nc.v2.f32", "ld.global.nc.v2.f64", "ld.global.nc.v4.u32", "ld.global.nc.v4.f32",
        "ld.global.nc.s8", "ld.global.nc.ca.u32", "ld.global.nc.cs.f32", "ld.volatile.global.u32",
        "ld.volatile.global.f32", "ld.volatile.global.u64", "ld.global.L1::evict_last.u32",
        "ld.global.L1::evict_first.f32", "ld.global.L1::evict_normal.u64",
        "ld.global.L1::evict_unchanged.u32", "ld.global.L1::no_allocate.v4.u32",
        "ld.global.L2::64B.u32", "ld.global.L2::128B.v4.u32", "ld.global.L2::256B.f32",
        "ld.global.nc.L1::no_allocate.L2::256B.u32", "ld.global.nc.L2::128B.v4.f32",
        "ld.global.L1::evict_last.L2::256B.v2.f64", "ld.relaxed.gpu.global.u32",
        "ld.relaxed.sys.global.u64", "ld.relaxed.cta.global.b32", "ld.acquire.gpu.global.u32",
        "ld.acquire.sys.global.u64", "ld.acquire.cta.global.f32",
        // shared
        "ld.shared.u8", "ld.shared.s8", "ld.shared.u16", "ld.shared.s16", "ld.shared.u32",
        "ld.shared.s32", "ld.shared.f32", "ld.shared.u64", "ld.shared.f64", "ld.shared.v2.u16",
        "ld.shared.v4.u8", "ld.shared.v2.u32", "ld.shared.v2.f32", "ld.shared.v2.f64",
        "ld.shared.v2.u64", "ld.shared.v4.u32", "ld.shared.v4.f32", "ld.shared.v4.s32",
        "ld.volatile.shared.u32", "ld.volatile.shared.f32", "ld.volatile.shared.f64",
        "ld.relaxed.cta.shared.u32", "ld.acquire.cta.shared.u32",
        // local
        "ld.local.u8", "ld.local.s16", "ld.local.u32", "ld.local.u64", "ld.local.f32",
        "ld.local.f64", "ld.local.v2.u32", "ld.local.v4.f32", "ld.local.v2.f64", "ld.local.v4.u8",
        // generic (global memory)
        "ld.u8", "ld.s16", "ld.u32", "ld.f32", "ld.u64", "ld.f64", "ld.v2.u32", "ld.v4.f32",
        "ld.v2.f64", "ld.volatile.u32", "ld.relaxed.gpu.u32", "ld.relaxed.sys.b64",
        "ld.relaxed.cta.b32", "ld.acquire.gpu.u32", "ld.acquire.cta.u32", "ld.acquire.sys.u64"})
    all.push_back(load_case(f, space_of(f) == "generic" ? Via::kGenericGlobal : Via::kDirect));
  for (const char* f : {"ld.u32", "ld.f64", "ld.v4.u32", "ld.u8", "ld.v2.f32", "ld.volatile.u32",
                        "ld.acquire.cta.u32"}) {
    all.push_back(load_case(f, Via::kGenericShared));
    all.push_back(load_case(f, Via::kGenericLocal));
  }
  // ---- stores ----
  for (const char* f : {"st.global.u8",
                        "st.global.s8",
                        "st.global.u16",
                        "st.global.cs.b16",
                        "st.global.u32",
                        "st.global.s32",
                        "st.global.b32",
                        "st.global.f32",
                        "st.global.u64",
                        "st.global.b64",
                        "st.global.f64",
                        "st.global.v2.u8",
                        "st.global.v4.u8",
                        "st.global.v2.u16",
                        "st.global.v4.u16",
                        "st.global.v2.u32",
                        "st.global.v2.f32",
                        "st.global.v4.u32",
                        "st.global.v4.f32",
                        "st.global.v2.u64",
                        "st.global.v2.f64",
                        "st.global.cs.f32",
                        "st.global.cs.v4.s32",
                        "st.global.cg.v4.s32",
                        "st.global.wb.u32",
                        "st.global.wt.u32",
                        "st.global.cg.u64",
                        "st.global.wt.v2.f32",
                        "st.volatile.global.u32",
                        "st.volatile.global.f32",
                        "st.volatile.global.u64",
                        "st.global.L1::no_allocate.u32",
                        "st.global.L1::evict_last.v4.u32",
                        "st.global.L1::evict_first.f64",
                        "st.relaxed.gpu.global.u32",
                        "st.relaxed.sys.global.u64",
                        "st.relaxed.cta.global.b32",
                        "st.release.gpu.global.u32",
                        "st.release.sys.global.u64",
                        "st.release.cta.global.f32",
                        "st.shared.u8",
                        "st.shared.u16",
                        "st.shared.u32",
                        "st.shared.f32",
                        "st.shared.u64",
                        "st.shared.f64",
                        "st.shared.v2.u16",
                        "st.shared.v4.u8",
                        "st.shared.v2.u32",
                        "st.shared.v2.f32",
                        "st.shared.v4.u32",
                        "st.shared.v4.f32",
                        "st.shared.v2.f64",
                        "st.shared.v2.u64",
                        "st.volatile.shared.u32",
                        "st.volatile.shared.f32",
                        "st.volatile.shared.f64",
                        "st.volatile.shared.u64",
                        "st.relaxed.cta.shared.u32",
                        "st.release.cta.shared.u32",
                        "st.local.u8",
                        "st.local.u16",
                        "st.local.u32",
                        "st.local.f32",
                        "st.local.u64",
                        "st.local.f64",
                        "st.local.v2.u32",
                        "st.local.v4.f32",
                        "st.local.v4.u8",
                        "st.local.v2.f64",
                        "st.u8",
                        "st.u16",
                        "st.u32",
                        "st.f32",
                        "st.u64",
                        "st.f64",
                        "st.v2.u32",
                        "st.v4.f32",
                        "st.v2.f64",
                        "st.volatile.u32",
                        "st.relaxed.cta.b32",
                        "st.relaxed.gpu.u32",
                        "st.release.gpu.u32",
                        "st.release.sys.u64"})
    all.push_back(store_case(f, space_of(f) == "generic" ? Via::kGenericGlobal : Via::kDirect));
  for (const char* f : {"st.u32", "st.f64", "st.v4.u32", "st.u8", "st.v2.f32", "st.volatile.u32",
                        "st.release.cta.u32"}) {
    all.push_back(store_case(f, Via::kGenericShared));
    all.push_back(store_case(f, Via::kGenericLocal));
  }
  // ---- atomics: every operation and type, on global, shared and generic addresses ----
  for (const char* f : {"atom.global.add.u32",
                        "atom.global.add.s32",
                        "atom.global.add.u64",
                        "atom.global.add.f32",
                        "atom.global.add.f64",
                        "atom.global.add.noftz.f16",
                        "atom.global.add.noftz.f16x2",
                        "atom.global.inc.u32",
                        "atom.global.dec.u32",
                        "atom.global.min.u32",
                        "atom.global.min.s32",
                        "atom.global.min.u64",
                        "atom.global.min.s64",
                        "atom.global.max.u32",
                        "atom.global.max.s32",
                        "atom.global.max.u64",
                        "atom.global.max.s64",
                        "atom.global.and.b32",
                        "atom.global.or.b32",
                        "atom.global.xor.b32",
                        "atom.global.and.b64",
                        "atom.global.or.b64",
                        "atom.global.xor.b64",
                        "atom.global.exch.b32",
                        "atom.global.exch.b64",
                        "atom.global.cas.b32",
                        "atom.global.cas.b64",
                        "atom.global.cas.b16",
                        "atom.global.sys.add.u32",
                        "atom.global.sys.and.b32",
                        "atom.global.sys.cas.b32",
                        "atom.global.sys.dec.u32",
                        "atom.global.sys.exch.b32",
                        "atom.global.sys.inc.u32",
                        "atom.global.sys.max.s32",
                        "atom.global.sys.min.s32",
                        "atom.global.sys.or.b32",
                        "atom.global.sys.xor.b32",
                        "atom.global.gpu.add.u64",
                        "atom.relaxed.gpu.global.add.u32",
                        "atom.acquire.gpu.global.inc.u32",
                        "atom.release.gpu.global.exch.b32",
                        "atom.acq_rel.gpu.global.add.f32",
                        "atom.acq_rel.sys.global.cas.b64",
                        "atom.relaxed.sys.global.max.u64",
                        "red.global.add.u32",
                        "red.global.add.u64",
                        "red.global.add.f32",
                        "red.global.add.f64",
                        "red.global.add.noftz.f16",
                        "red.global.add.noftz.f16x2",
                        "red.global.inc.u32",
                        "red.global.dec.u32",
                        "red.global.min.s32",
                        "red.global.max.u64",
                        "red.global.and.b32",
                        "red.global.or.b64",
                        "red.global.xor.b32",
                        "red.global.sys.add.u32",
                        "red.release.gpu.global.add.u32",
                        "red.relaxed.sys.global.or.b32"})
    all.push_back(atom_case(f, Where::kGlobal));
  for (const char* f : {"atom.shared.add.u32",
                        "atom.shared.add.u64",
                        "atom.shared.add.f32",
                        "atom.shared.add.f64",
                        "atom.shared.add.noftz.f16",
                        "atom.shared.add.noftz.f16x2",
                        "atom.shared.inc.u32",
                        "atom.shared.dec.u32",
                        "atom.shared.min.s32",
                        "atom.shared.max.u32",
                        "atom.shared.min.u64",
                        "atom.shared.and.b32",
                        "atom.shared.or.b32",
                        "atom.shared.xor.b64",
                        "atom.shared.exch.b32",
                        "atom.shared.exch.b64",
                        "atom.shared.cas.b32",
                        "atom.shared.cas.b64",
                        "atom.shared.cas.b16",
                        "atom.acquire.cta.shared.add.u32",
                        "atom.acq_rel.cta.shared.cas.b32",
                        "red.shared.add.u32",
                        "red.shared.add.f32",
                        "red.shared.max.s32",
                        "red.shared.xor.b32",
                        "red.release.cta.shared.add.u64"})
    all.push_back(atom_case(f, Where::kShared));
  for (const char* f : {"atom.add.u32", "atom.add.release.gpu.u32", "atom.cas.b32", "atom.exch.b64",
                        "atom.add.f64", "atom.inc.u32", "atom.min.s64", "atom.acq_rel.sys.add.u32",
                        "red.add.f32", "red.release.gpu.or.b32"})
    all.push_back(atom_case(f, Where::kGenericGlobal));
  for (const char* f :
       {"atom.add.u32", "atom.add.acquire.cta.u32", "atom.add.relaxed.cta.u32",
        "atom.or.acq_rel.cta.b32", "atom.cas.b32", "atom.dec.u32", "atom.max.u64", "atom.add.f32",
        "atom.add.noftz.f16x2", "red.and.release.cta.b32", "red.add.u32"})
    all.push_back(atom_case(f, Where::kGenericShared));
  // bf16 adds are PTX sm_90 forms.
  for (const char* f : {"atom.global.add.noftz.bf16", "atom.global.add.noftz.bf16x2",
                        "red.global.add.noftz.bf16x2"})
    all.push_back(atom_case(f, Where::kGlobal, "", 1, 128, "sm_90", "8.0"));
  all.push_back(
      atom_case("atom.shared.add.noftz.bf16", Where::kShared, "", 1, 128, "sm_90", "8.0"));
  for (auto* group :
       {&cvta_cases, &param_cases, &ordering_cases, &fault_cases, &alloca_cases, &const_cases})
    for (KernelCase& c : (*group)()) all.push_back(std::move(c));
  return all;
}

}  // namespace strata::ptx_conformance
