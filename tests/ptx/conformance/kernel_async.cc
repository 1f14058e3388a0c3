// Kernel conformance cases: cp.async and mbarrier (see kernel_cases.h).
//
// The cases use thread_results.h: one CTA of kThreads threads, thread g's results at
// out[k * n + g]. The copies read the `in` buffer past the prologue's 2n words (byte
// offset 8n), where the host puts pseudo-random words; the references below compute the
// copied bytes (with the PTX ISA's zero fill for src-size and ignore-src) from the same
// words. Only what the PTX ISA guarantees is checked: data copied by cp.async is checked
// after the cp.async.wait_group / wait_all / mbarrier phase that covers it, never before;
// an mbarrier's state is only looked at through test_wait/try_wait and pending_count.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <sstream>
#include <string>

#include "kernel_cases.h"
#include "thread_results.h"

namespace strata::ptx_conformance {
namespace {

using namespace thread_results;

constexpr uint32_t kThreads = 64;  // one CTA, two warps
constexpr uint32_t kMarker = 0xdeadbeefu;

// The input: 2n prologue words, then `extra` pseudo-random words per thread.
std::vector<uint32_t> input(uint32_t extra_per_thread, uint32_t seed) {
  return random_words(static_cast<size_t>(kThreads) * (2 + extra_per_thread), seed);
}
// Word i of the copy source area.
uint32_t src_word(const std::vector<uint32_t>& in, uint32_t i) {
  return in[2 * kThreads + i];
}

// PTX that sets %r30 = shared address of thread g's `bytes`-byte slot of `buf` and
// %rd31 = global address of thread g's `bytes`-byte slot of the copy source area.
std::string slots(uint32_t bytes, const std::string& buf = "sbuf") {
  std::ostringstream s;
  s << "  mov.u32 %r29, " << buf << ";\n"
    << "  mad.lo.u32 %r30, %r4, " << bytes << ", %r29;\n"
    << "  mul.wide.u32 %rd30, %r4, " << bytes << ";\n"
    << "  add.s64 %rd31, %rd3, %rd30;\n"
    << "  add.s64 %rd31, %rd31, " << 8 * kThreads << ";\n";
  return s.str();
}
// Fills `words` words of the thread's slot (at %r30) with kMarker.
std::string mark(uint32_t words) {
  std::ostringstream s;
  s << "  mov.u32 %r31, " << kMarker << ";\n";
  for (uint32_t w = 0; w < words; ++w) s << "  st.shared.u32 [%r30+" << 4 * w << "], %r31;\n";
  return s.str();
}
// Stores words [first, first + count) of the thread's slot as results from `k`.
std::string read_slot(uint32_t first, uint32_t count, int k, const std::string& addr = "%r30") {
  std::ostringstream s;
  for (uint32_t w = 0; w < count; ++w) {
    s << "  ld.shared.u32 %r32, [" << addr << "+" << 4 * (first + w) << "];\n"
      << "  st.global.u32 [%rd2+" << static_cast<uint64_t>(k + w) * kThreads * 4 << "], %r32;\n";
  }
  return s.str();
}
std::string shared_decls(uint32_t bytes) {
  return "  .shared .align 16 .b8 sbuf[" + std::to_string(bytes) +
         "];\n  .shared .align 8 .b64 bar[4];\n";
}

// The words a `bytes`-byte copy leaves when it reads `src_bytes` of `src` (zero fill).
std::vector<uint32_t> copied(const uint32_t* src, uint32_t bytes, uint32_t src_bytes) {
  std::vector<uint8_t> b(bytes, 0);
  std::memcpy(b.data(), src, std::min(bytes, src_bytes));
  std::vector<uint32_t> w(bytes / 4);
  std::memcpy(w.data(), b.data(), bytes);
  return w;
}

// ---- cp.async copies ---------------------------------------------------------------

// 4, 8 and 16-byte .ca copies into one 32-byte slot per thread; word 1 is not copied and
// keeps its marker.
KernelCase ca_sizes() {
  std::string body = slots(32) + mark(8) +
                     "  cp.async.ca.shared.global [%r30], [%rd31], 4;\n"
                     "  cp.async.ca.shared.global [%r30+8], [%rd31+8], 8;\n"
                     "  cp.async.ca.shared::cta.global [%r30+16], [%rd31+16], 16;\n"
                     "  cp.async.commit_group;\n"
                     "  cp.async.wait_group 0;\n" +
                     read_slot(0, 8, 0);
  return make_case("cp.async.ca.sizes", "cp",
                   {"cp.async.ca.shared.global", "cp.async.ca.shared::cta.global",
                    "cp.async.commit_group", "cp.async.wait_group"},
                   module(body, shared_decls(32 * kThreads)), launch_1d(1, kThreads), 8,
                   input(8, 0x1234), [](const std::vector<uint32_t>& in, Expected& e) {
                     for (uint32_t g = 0; g < kThreads; ++g) {
                       const uint32_t s = g * 8;
                       uint32_t want[8] = {src_word(in, s),     kMarker,
                                           src_word(in, s + 2), src_word(in, s + 3),
                                           src_word(in, s + 4), src_word(in, s + 5),
                                           src_word(in, s + 6), src_word(in, s + 7)};
                       for (int k = 0; k < 8; ++k) e.set(k, g, want[k]);
                     }
                   });
}

// .cg and the L2 prefetch-size and cache-hint qualifiers (hints only: the data is the
// same); completed by cp.async.wait_all.
KernelCase cg_l2() {
  std::string body =
      slots(80) + mark(20) +
      "  mov.b64 %rd32, 0;\n"
      "  cp.async.cg.shared.global [%r30], [%rd31], 16;\n"
      "  cp.async.cg.shared.global.L2::128B [%r30+16], [%rd31+16], 16;\n"
      "  cp.async.cg.shared.global.L2::64B [%r30+32], [%rd31+32], 16;\n"
      "  cp.async.ca.shared.global.L2::256B [%r30+48], [%rd31+48], 8;\n"
      "  cp.async.ca.shared.global.L2::cache_hint [%r30+56], [%rd31+56], 4, %rd32;\n"
      "  cp.async.cg.shared.global.L2::cache_hint.L2::128B [%r30+64], [%rd31+64], 16, 12, %rd32;\n"
      "  cp.async.wait_all;\n" +
      read_slot(0, 20, 0);
  return make_case("cp.async.cg.l2-qualifiers", "cp",
                   {"cp.async.cg.shared.global", "cp.async.cg.shared.global.L2::128B",
                    "cp.async.cg.shared.global.L2::64B", "cp.async.ca.shared.global.L2::256B",
                    "cp.async.ca.shared.global.L2::cache_hint",
                    "cp.async.cg.shared.global.L2::cache_hint.L2::128B", "cp.async.wait_all"},
                   module(body, shared_decls(80 * kThreads)), launch_1d(1, kThreads), 20,
                   input(20, 0x777), [](const std::vector<uint32_t>& in, Expected& e) {
                     for (uint32_t g = 0; g < kThreads; ++g) {
                       const uint32_t s = g * 20;
                       std::vector<uint32_t> want(20, kMarker);
                       for (int w = 0; w < 14; ++w) want[w] = src_word(in, s + w);  // bytes 0-55
                       want[14] = src_word(in, s + 14);  // the 4-byte copy
                       want[15] = kMarker;
                       std::vector<uint32_t> last = copied(&in[2 * kThreads + s + 16], 16, 12);
                       for (int w = 0; w < 4; ++w) want[16 + w] = last[w];
                       for (int k = 0; k < 20; ++k) e.set(k, g, want[k]);
                     }
                   });
}

// src-size: only the first src-size bytes are read, the rest of cp-size is zero-filled
// (register and immediate src-size, 0 included).
KernelCase src_size() {
  std::string body = slots(32) + mark(8) +
                     "  rem.u32 %r33, %r4, 17;\n"  // 0..16 bytes
                     "  cp.async.ca.shared.global [%r30], [%rd31], 16, %r33;\n"
                     "  cp.async.ca.shared.global [%r30+16], [%rd31+16], 8, 5;\n"
                     "  cp.async.ca.shared.global [%r30+24], [%rd31+24], 4, 0;\n"
                     "  cp.async.commit_group;\n"
                     "  cp.async.wait_group 0;\n" +
                     read_slot(0, 8, 0);
  return make_case("cp.async.src-size", "cp", {"cp.async.ca.shared.global"},
                   module(body, shared_decls(32 * kThreads)), launch_1d(1, kThreads), 8,
                   input(8, 0x99), [](const std::vector<uint32_t>& in, Expected& e) {
                     for (uint32_t g = 0; g < kThreads; ++g) {
                       const uint32_t* s = &in[2 * kThreads + g * 8];
                       std::vector<uint32_t> want = copied(s, 16, g % 17);
                       std::vector<uint32_t> b = copied(s + 4, 8, 5), c = copied(s + 6, 4, 0);
                       want.insert(want.end(), b.begin(), b.end());
                       want.insert(want.end(), c.begin(), c.end());
                       want.push_back(kMarker);
                       for (int k = 0; k < 8; ++k) e.set(k, g, want[k]);
                     }
                   });
}

// ignore-src: when the predicate is true nothing is read and the destination is zeroed.
KernelCase ignore_src() {
  std::string body = slots(32) + mark(8) +
                     "  and.b32 %r33, %r4, 1;\n"
                     "  setp.ne.u32 %p10, %r33, 0;\n"
                     "  cp.async.cg.shared.global [%r30], [%rd31], 16, %p10;\n"
                     "  cp.async.ca.shared.global [%r30+16], [%rd31+16], 16, !%p10;\n"
                     "  cp.async.commit_group;\n"
                     "  cp.async.wait_group 0;\n" +
                     read_slot(0, 8, 0);
  return make_case("cp.async.ignore-src", "cp",
                   {"cp.async.cg.shared.global", "cp.async.ca.shared.global"},
                   module(body, shared_decls(32 * kThreads)), launch_1d(1, kThreads), 8,
                   input(8, 0x4242), [](const std::vector<uint32_t>& in, Expected& e) {
                     for (uint32_t g = 0; g < kThreads; ++g) {
                       const uint32_t* s = &in[2 * kThreads + g * 8];
                       const bool odd = g & 1;
                       std::vector<uint32_t> want = copied(s, 16, odd ? 0 : 16);
                       std::vector<uint32_t> b = copied(s + 4, 16, odd ? 16 : 0);
                       want.insert(want.end(), b.begin(), b.end());
                       for (int k = 0; k < 8; ++k) e.set(k, g, want[k]);
                     }
                   });
}

// Groups: wait_group 1 completes all but the most recent committed group; copies of the
// open (uncommitted) group are completed by wait_all. Data is checked only once a wait
// covers it.
KernelCase groups() {
  std::string body = slots(48) + mark(12) +
                     "  cp.async.ca.shared.global [%r30], [%rd31], 16;\n"
                     "  cp.async.commit_group;\n"
                     "  cp.async.ca.shared.global [%r30+16], [%rd31+16], 16;\n"
                     "  cp.async.commit_group;\n"
                     "  cp.async.ca.shared.global [%r30+32], [%rd31+32], 16;\n"
                     "  cp.async.wait_group 1;\n" +
                     read_slot(0, 4, 0) + "  cp.async.wait_group 0;\n" + read_slot(4, 4, 4) +
                     "  cp.async.wait_all;\n" + read_slot(8, 4, 8);
  return make_case("cp.async.groups", "cp",
                   {"cp.async.ca.shared.global", "cp.async.commit_group", "cp.async.wait_group",
                    "cp.async.wait_all"},
                   module(body, shared_decls(48 * kThreads)), launch_1d(1, kThreads), 12,
                   input(12, 0x5150), [](const std::vector<uint32_t>& in, Expected& e) {
                     for (uint32_t g = 0; g < kThreads; ++g)
                       for (int k = 0; k < 12; ++k) e.set(k, g, src_word(in, g * 12 + k));
                   });
}

// A copy whose shared destination is not aligned to its size faults.
KernelCase misaligned() {
  std::string body =
      slots(32) + "  cp.async.cg.shared.global [%r30+4], [%rd31], 16;\n  cp.async.wait_all;\n";
  KernelCase c = make_case("cp.async.misaligned", "cp", {},
                           module(body, shared_decls(32 * kThreads)), launch_1d(1, kThreads), 1,
                           input(8, 1), [](const std::vector<uint32_t>&, Expected&) {});
  c.expect_fault = hw::FaultKind::kMisaligned;
  return c;
}

// L2 cache policies: createpolicy in each form makes the cache-policy operand of
// cp.async's .L2::cache_hint; the hints change no data. applypriority (a hint) and
// discard run on lines of the input: the copies after applypriority still see the input
// data; the discarded line (past every copy's source, whose contents PTX then leaves
// indeterminate) is not read.
KernelCase cache_policies() {
  std::ostringstream b;
  b << slots(48) << mark(12) << "  createpolicy.fractional.L2::evict_last.b64 %rd50, 1.0;\n"
    << "  createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 %rd51, 0.5;\n"
    << "  createpolicy.fractional.L2::evict_first.b64 %rd52;\n"
    << "  createpolicy.range.L2::evict_last.L2::evict_first.b64 %rd53, [%rd31], 64, 128;\n"
    << "  createpolicy.cvt.L2.b64 %rd54, %rd50;\n"
    << "  setp.eq.u32 %p10, %r4, 0;\n"
    << "  @%p10 applypriority.global.L2::evict_normal [%rd3+" << 8 * kThreads << "], 128;\n"
    << "  add.s64 %rd55, %rd3, " << 8 * kThreads + 48 * kThreads << ";\n"
    << "  @%p10 discard.global.L2 [%rd55], 128;\n"
    << "  cp.async.ca.shared.global.L2::cache_hint [%r30], [%rd31], 8, %rd50;\n"
    << "  cp.async.ca.shared.global.L2::cache_hint [%r30+8], [%rd31+8], 8, %rd51;\n"
    << "  cp.async.cg.shared.global.L2::cache_hint [%r30+16], [%rd31+16], 16, %rd52;\n"
    << "  cp.async.ca.shared.global.L2::cache_hint [%r30+32], [%rd31+32], 4, %rd53;\n"
    << "  cp.async.ca.shared.global.L2::cache_hint [%r30+36], [%rd31+36], 4, %rd54;\n"
    << "  cp.async.wait_all;\n"
    << read_slot(0, 12, 0);
  return make_case(
      "createpolicy.cache-hint", "createpolicy",
      {"createpolicy.fractional.L2::evict_last.b64",
       "createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64",
       "createpolicy.fractional.L2::evict_first.b64",
       "createpolicy.range.L2::evict_last.L2::evict_first.b64", "createpolicy.cvt.L2.b64",
       "applypriority.global.L2::evict_normal", "discard.global.L2",
       "cp.async.ca.shared.global.L2::cache_hint", "cp.async.cg.shared.global.L2::cache_hint"},
      module(b.str(), shared_decls(48 * kThreads)), launch_1d(1, kThreads), 12,
      input(12 + 2, 0x2468), [](const std::vector<uint32_t>& in, Expected& e) {
        for (uint32_t g = 0; g < kThreads; ++g) {
          for (int k = 0; k < 10; ++k) e.set(k, g, src_word(in, g * 12 + k));
          e.set(10, g, kMarker);
          e.set(11, g, kMarker);
        }
      });
}

// ---- cp.async with mbarrier ----------------------------------------------------------

// Each thread copies its slot and makes the mbarrier track the copy; after the phase
// completes every thread reads its neighbour's slot. `noinc`: the barrier expects 2n
// arrivals (each thread's cp.async arrival counts) and is waited on by parity.
KernelCase cp_mbarrier(bool noinc) {
  std::ostringstream b;
  b << slots(16) << "  mov.u32 %r40, bar;\n"
    << "  setp.eq.u32 %p10, %r4, 0;\n"
    << "  @%p10 mbarrier.init.shared.b64 [%r40], " << (noinc ? 2 * kThreads : kThreads) << ";\n"
    << "  bar.sync 0;\n"
    << "  cp.async.ca.shared.global [%r30], [%rd31], 16;\n"
    << (noinc ? "  cp.async.mbarrier.arrive.noinc.shared.b64 [%r40];\n"
              : "  cp.async.mbarrier.arrive.shared.b64 [%r40];\n")
    << "  mbarrier.arrive.shared.b64 %rd40, [%r40];\n"
    << "WAIT:\n"
    << (noinc ? "  mbarrier.test_wait.parity.shared.b64 %p11, [%r40], 0;\n"
              : "  mbarrier.test_wait.shared.b64 %p11, [%r40], %rd40;\n")
    << "  @!%p11 bra WAIT;\n"
    << "  add.u32 %r41, %r4, 1;\n  rem.u32 %r41, %r41, " << kThreads << ";\n"
    << "  mov.u32 %r42, sbuf;\n  mad.lo.u32 %r43, %r41, 16, %r42;\n"
    << read_slot(0, 4, 0, "%r43") << read_slot(0, 4, 4);
  std::vector<std::string> forms = {"cp.async.ca.shared.global", "mbarrier.init.shared.b64",
                                    "mbarrier.arrive.shared.b64"};
  forms.push_back(noinc ? "cp.async.mbarrier.arrive.noinc.shared.b64"
                        : "cp.async.mbarrier.arrive.shared.b64");
  forms.push_back(noinc ? "mbarrier.test_wait.parity.shared.b64" : "mbarrier.test_wait.shared.b64");
  return make_case(noinc ? "cp.async.mbarrier.arrive.noinc" : "cp.async.mbarrier.arrive", "cp",
                   forms, module(b.str(), shared_decls(16 * kThreads)), launch_1d(1, kThreads), 8,
                   input(4, noinc ? 3 : 4), [](const std::vector<uint32_t>& in, Expected& e) {
                     for (uint32_t g = 0; g < kThreads; ++g) {
                       const uint32_t next = (g + 1) % kThreads;
                       for (int w = 0; w < 4; ++w) {
                         e.set(w, g, src_word(in, next * 4 + w));
                         e.set(4 + w, g, src_word(in, g * 4 + w));
                       }
                     }
                   });
}

// A producer warp streams 4 chunks through a 2-slot ring with cp.async, each chunk's
// arrival tracked by a `full` mbarrier (.noinc, 32 expected); the consumer warp waits on
// `full`, reads the chunk (each lane its neighbour's word) and releases the slot through
// an `empty` mbarrier the producer waits on before refilling it.
KernelCase producer_consumer() {
  std::ostringstream b;
  b << "  mov.u32 %r40, bar;\n"  // full[0], full[1], empty[0], empty[1]
    << "  setp.eq.u32 %p10, %r4, 0;\n"
    << "  @!%p10 bra INITED;\n"
    << "  mbarrier.init.shared.b64 [%r40], 32;\n  mbarrier.init.shared.b64 [%r40+8], 32;\n"
    << "  mbarrier.init.shared.b64 [%r40+16], 32;\n  mbarrier.init.shared.b64 [%r40+24], 32;\n"
    << "INITED:\n  bar.sync 0;\n"
    << "  mov.u32 %r41, sbuf;\n"
    << "  mov.u32 %r42, 0;\n"  // i
    << "  setp.ge.u32 %p11, %r1, 32;\n"
    << "  @%p11 bra CONSUMER;\n"
    // producer lane l: chunk i word l from src word i * 32 + l
    << "PLOOP:\n"
    << "  and.b32 %r43, %r42, 1;\n  shr.u32 %r44, %r42, 1;\n"
    << "  setp.eq.u32 %p12, %r44, 0;\n"
    << "  @%p12 bra FILL;\n"
    << "  add.u32 %r45, %r44, 1;\n  and.b32 %r45, %r45, 1;\n"  // parity of phase k - 1
    << "  mad.lo.u32 %r46, %r43, 8, %r40;\n  add.u32 %r46, %r46, 16;\n"
    << "PWAIT:\n  mbarrier.test_wait.parity.shared.b64 %p13, [%r46], %r45;\n  @!%p13 bra PWAIT;\n"
    << "FILL:\n"
    << "  mad.lo.u32 %r47, %r43, 128, %r41;\n  mad.lo.u32 %r47, %r5, 4, %r47;\n"
    << "  mad.lo.u32 %r48, %r42, 32, %r5;\n  mul.wide.u32 %rd40, %r48, 4;\n  add.s64 %rd41, %rd3, "
       "%rd40;\n"
    << "  add.s64 %rd41, %rd41, " << 8 * kThreads << ";\n"
    << "  cp.async.ca.shared.global [%r47], [%rd41], 4;\n"
    << "  mad.lo.u32 %r49, %r43, 8, %r40;\n"
    << "  cp.async.mbarrier.arrive.noinc.shared.b64 [%r49];\n"
    << "  add.u32 %r42, %r42, 1;\n  setp.lt.u32 %p14, %r42, 4;\n  @%p14 bra PLOOP;\n"
    << "  bra.uni DONE;\n"
    << "CONSUMER:\n"
    << "  and.b32 %r43, %r42, 1;\n  shr.u32 %r44, %r42, 1;\n  and.b32 %r45, %r44, 1;\n"
    << "  mad.lo.u32 %r46, %r43, 8, %r40;\n"
    << "CWAIT:\n  mbarrier.test_wait.parity.shared.b64 %p13, [%r46], %r45;\n  @!%p13 bra CWAIT;\n"
    << "  add.u32 %r50, %r5, 1;\n  and.b32 %r50, %r50, 31;\n"
    << "  mad.lo.u32 %r47, %r43, 128, %r41;\n  mad.lo.u32 %r47, %r50, 4, %r47;\n"
    << "  ld.shared.u32 %r51, [%r47];\n"
    << "  mul.lo.u32 %r52, %r42, " << 4 * kThreads
    << ";\n  cvt.u64.u32 %rd42, %r52;\n  add.s64 %rd43, %rd2, %rd42;\n"
    << "  st.global.u32 [%rd43], %r51;\n"
    << "  add.u32 %r46, %r46, 16;\n"
    << "  mbarrier.arrive.shared.b64 _, [%r46];\n"
    << "  add.u32 %r42, %r42, 1;\n  setp.lt.u32 %p14, %r42, 4;\n  @%p14 bra CONSUMER;\n"
    << "DONE:\n";
  return make_case("cp.async.mbarrier.producer-consumer", "cp",
                   {"cp.async.ca.shared.global", "cp.async.mbarrier.arrive.noinc.shared.b64",
                    "mbarrier.init.shared.b64", "mbarrier.test_wait.parity.shared.b64",
                    "mbarrier.arrive.shared.b64"},
                   module(b.str(), shared_decls(256)), launch_1d(1, kThreads), 4, input(2, 0xabc),
                   [](const std::vector<uint32_t>& in, Expected& e) {
                     for (uint32_t g = 32; g < kThreads; ++g) {
                       const uint32_t lane = g & 31;
                       for (uint32_t i = 0; i < 4; ++i)
                         e.set(static_cast<int>(i), g, src_word(in, i * 32 + ((lane + 1) & 31)));
                     }
                   });
}

// ---- mbarrier ----------------------------------------------------------------------

// Three phases with every thread arriving once each: after waiting for phase k (with its
// state token), the phase of parity k & 1 has completed and the current one (k + 1) has
// not, since this thread has not arrived on it yet.
KernelCase phases() {
  std::ostringstream b;
  b << "  mov.u32 %r40, bar;\n  setp.eq.u32 %p10, %r4, 0;\n"
    << "  @%p10 mbarrier.init.shared.b64 [%r40], " << kThreads << ";\n  bar.sync 0;\n";
  for (int k = 0; k < 3; ++k) {
    b << "  mbarrier.arrive.shared.b64 %rd40, [%r40];\n"
      << "W" << k << ":\n  mbarrier.test_wait.shared.b64 %p11, [%r40], %rd40;\n  @!%p11 bra W" << k
      << ";\n"
      << "  mbarrier.test_wait.parity.shared.b64 %p12, [%r40], " << (k & 1) << ";\n"
      << "  mbarrier.test_wait.parity.shared.b64 %p13, [%r40], " << ((k + 1) & 1) << ";\n"
      << "  selp.u32 %r41, 1, 0, %p12;\n  st.global.u32 [%rd2+" << (2 * k) * kThreads * 4
      << "], %r41;\n"
      << "  selp.u32 %r41, 1, 0, %p13;\n  st.global.u32 [%rd2+" << (2 * k + 1) * kThreads * 4
      << "], %r41;\n";
  }
  return make_case("mbarrier.phases", "mbarrier",
                   {"mbarrier.init.shared.b64", "mbarrier.arrive.shared.b64",
                    "mbarrier.test_wait.shared.b64", "mbarrier.test_wait.parity.shared.b64"},
                   module(b.str(), shared_decls(16)), launch_1d(1, kThreads), 6, input(0, 5),
                   [](const std::vector<uint32_t>&, Expected& e) {
                     for (uint32_t g = 0; g < kThreads; ++g)
                       for (int k = 0; k < 3; ++k) {
                         e.set(2 * k, g, 1);
                         e.set(2 * k + 1, g, 0);
                       }
                   });
}

// arrive_drop: the first half of the threads leave after phase 0, so phase 1 completes
// with the second half's arrivals alone.
KernelCase arrive_drop() {
  std::ostringstream b;
  b << "  mov.u32 %r40, bar;\n  setp.eq.u32 %p10, %r4, 0;\n"
    << "  @%p10 mbarrier.init.shared.b64 [%r40], " << kThreads << ";\n  bar.sync 0;\n"
    << "  setp.lt.u32 %p11, %r4, " << kThreads / 2 << ";\n"
    << "  @%p11 mbarrier.arrive_drop.shared.b64 %rd40, [%r40];\n"
    << "  @!%p11 mbarrier.arrive.shared.b64 %rd40, [%r40];\n"
    << "W0:\n  mbarrier.test_wait.shared.b64 %p12, [%r40], %rd40;\n  @!%p12 bra W0;\n"
    << "  @%p11 bra OUT;\n"
    << "  mbarrier.arrive.shared.b64 %rd41, [%r40];\n"
    << "W1:\n  mbarrier.test_wait.parity.shared.b64 %p13, [%r40], 1;\n  @!%p13 bra W1;\n"
    << "OUT:\n  mov.u32 %r41, 1;\n  st.global.u32 [%rd2], %r41;\n";
  return make_case("mbarrier.arrive_drop", "mbarrier",
                   {"mbarrier.arrive_drop.shared.b64", "mbarrier.arrive.shared.b64",
                    "mbarrier.test_wait.shared.b64", "mbarrier.test_wait.parity.shared.b64"},
                   module(b.str(), shared_decls(16)), launch_1d(1, kThreads), 1, input(0, 6),
                   [](const std::vector<uint32_t>&, Expected& e) {
                     for (uint32_t g = 0; g < kThreads; ++g) e.set(0, g, 1);
                   });
}

// .noComplete arrivals with counts and pending_count. Expected count 4n. Round 1: each
// thread arrive.noComplete 1; round 2 (after bar.sync): arrive_drop.noComplete 2; round
// 3: plain arrivals complete phase 0 (n left). Phase 1 expects 4n - 2n = 2n: round 4
// arrive.noComplete 1, then plain arrivals. pending_count gives the pending count
// before each thread's arrival, so over the threads the values of a round are exactly
// {4n..3n+1}, {3n, 3n-2, .., n+2} and {2n..n+1}, in some order.
KernelCase no_complete() {
  const uint32_t n = kThreads;
  std::ostringstream b;
  b << "  mov.u32 %r40, bar;\n  setp.eq.u32 %p10, %r4, 0;\n"
    << "  @%p10 mbarrier.init.shared.b64 [%r40], " << 4 * n << ";\n  bar.sync 0;\n"
    << "  mov.u32 %r41, 1;\n"
    << "  mbarrier.arrive.noComplete.shared.b64 %rd40, [%r40], %r41;\n"
    << "  mbarrier.pending_count.b64 %r42, %rd40;\n  st.global.u32 [%rd2], %r42;\n  bar.sync 0;\n"
    << "  mbarrier.arrive_drop.noComplete.shared.b64 %rd41, [%r40], 2;\n"
    << "  mbarrier.pending_count.b64 %r42, %rd41;\n  st.global.u32 [%rd2+" << n * 4
    << "], %r42;\n  bar.sync 0;\n"
    << "  mbarrier.arrive.shared.b64 %rd42, [%r40];\n"
    << "W0:\n  mbarrier.test_wait.shared.b64 %p11, [%r40], %rd42;\n  @!%p11 bra W0;\n  bar.sync "
       "0;\n"
    << "  mbarrier.arrive.noComplete.shared.b64 %rd43, [%r40], 1;\n"
    << "  mbarrier.pending_count.b64 %r42, %rd43;\n  st.global.u32 [%rd2+" << 2 * n * 4
    << "], %r42;\n  bar.sync 0;\n"
    << "  mbarrier.arrive.shared.b64 %rd44, [%r40];\n"
    << "W1:\n  mbarrier.test_wait.parity.shared.b64 %p12, [%r40], 1;\n  @!%p12 bra W1;\n"
    << "  mbarrier.test_wait.shared.b64 %p13, [%r40], %rd44;\n"
    << "  selp.u32 %r43, 1, 0, %p13;\n  st.global.u32 [%rd2+" << 3 * n * 4 << "], %r43;\n";
  KernelCase c = make_case(
      "mbarrier.noComplete.pending_count", "mbarrier",
      {"mbarrier.arrive.noComplete.shared.b64", "mbarrier.arrive_drop.noComplete.shared.b64",
       "mbarrier.pending_count.b64", "mbarrier.arrive.shared.b64", "mbarrier.test_wait.shared.b64",
       "mbarrier.test_wait.parity.shared.b64"},
      module(b.str(), shared_decls(16)), launch_1d(1, n), 4, input(0, 7),
      [](const std::vector<uint32_t>&, Expected&) {});
  c.check = [n](const Buffers& after) -> std::string {
    std::vector<uint32_t> out = values_of<uint32_t>(after[0]);
    auto round = [&](int k) {
      std::vector<uint32_t> v(out.begin() + k * n, out.begin() + (k + 1) * n);
      std::sort(v.begin(), v.end());
      return v;
    };
    std::vector<uint32_t> r1(n), r2(n), r4(n), done(n, 1);
    for (uint32_t i = 0; i < n; ++i) {
      r1[i] = 3 * n + 1 + i;
      r2[i] = n + 2 + 2 * i;
      r4[i] = n + 1 + i;
    }
    for (auto [k, want] : {std::pair{0, &r1}, {1, &r2}, {2, &r4}, {3, &done}}) {
      std::string why = compare_u32("sorted round " + std::to_string(k), *want, round(k));
      if (!why.empty()) return why;
    }
    return "";
  };
  return c;
}

// inval, then init again: the object works with the new count (one thread, two phases).
KernelCase inval() {
  std::string body =
      "  mov.u32 %r40, bar;\n"
      "  setp.eq.u32 %p10, %r4, 0;\n  @!%p10 bra OUT;\n"
      "  mbarrier.init.shared.b64 [%r40+8], 1;\n"
      "  mbarrier.arrive.shared.b64 %rd40, [%r40+8];\n"
      "  mbarrier.test_wait.shared.b64 %p11, [%r40+8], %rd40;\n"
      "  mbarrier.inval.shared.b64 [%r40+8];\n"
      "  mbarrier.init.shared.b64 [%r40+8], 2;\n"
      "  mbarrier.arrive.shared.b64 %rd41, [%r40+8];\n"
      "  mbarrier.test_wait.shared.b64 %p12, [%r40+8], %rd41;\n"
      "  mbarrier.arrive.shared.b64 %rd42, [%r40+8];\n"
      "  mbarrier.test_wait.shared.b64 %p13, [%r40+8], %rd41;\n"
      "  mbarrier.inval.shared.b64 [%r40+8];\n"
      "  selp.u32 %r41, 1, 0, %p11;\n  st.global.u32 [%rd2], %r41;\n"
      "  selp.u32 %r41, 1, 0, %p12;\n  st.global.u32 [%rd2+" +
      std::to_string(kThreads * 4) +
      "], %r41;\n"
      "  selp.u32 %r41, 1, 0, %p13;\n  st.global.u32 [%rd2+" +
      std::to_string(2 * kThreads * 4) +
      "], %r41;\n"
      "OUT:\n";
  return make_case("mbarrier.inval", "mbarrier",
                   {"mbarrier.init.shared.b64", "mbarrier.arrive.shared.b64",
                    "mbarrier.test_wait.shared.b64", "mbarrier.inval.shared.b64"},
                   module(body, shared_decls(16)), launch_1d(1, kThreads), 3, input(0, 8),
                   [](const std::vector<uint32_t>&, Expected& e) {
                     e.set(0, 0, 1);  // count 1: the arrival completes the phase
                     e.set(1, 0, 0);  // count 2: one arrival does not
                     e.set(2, 0, 1);  // the second does
                   });
}

// Generic addressing of the mbarrier (no .shared): cvta.shared gives the address.
KernelCase generic() {
  std::ostringstream b;
  b << slots(16) << "  mov.u64 %rd39, bar;\n  cvta.shared.u64 %rd40, %rd39;\n"
    << "  setp.eq.u32 %p10, %r4, 0;\n"
    << "  @%p10 mbarrier.init.b64 [%rd40], " << kThreads << ";\n  bar.sync 0;\n"
    << "  cp.async.ca.shared.global [%r30], [%rd31], 16;\n"
    << "  cp.async.mbarrier.arrive.b64 [%rd40];\n"
    << "  mbarrier.arrive.b64 %rd41, [%rd40];\n"
    << "WAIT:\n  mbarrier.test_wait.b64 %p11, [%rd40], %rd41;\n  @!%p11 bra WAIT;\n"
    << "  add.u32 %r41, %r4, " << kThreads - 1 << ";\n  rem.u32 %r41, %r41, " << kThreads << ";\n"
    << "  mov.u32 %r42, sbuf;\n  mad.lo.u32 %r43, %r41, 16, %r42;\n"
    << read_slot(0, 4, 0, "%r43");
  return make_case("mbarrier.generic-address", "mbarrier",
                   {"mbarrier.init.b64", "mbarrier.arrive.b64", "mbarrier.test_wait.b64",
                    "cp.async.mbarrier.arrive.b64"},
                   module(b.str(), shared_decls(16 * kThreads)), launch_1d(1, kThreads), 4,
                   input(4, 9), [](const std::vector<uint32_t>& in, Expected& e) {
                     for (uint32_t g = 0; g < kThreads; ++g) {
                       const uint32_t prev = (g + kThreads - 1) % kThreads;
                       for (int w = 0; w < 4; ++w) e.set(w, g, src_word(in, prev * 4 + w));
                     }
                   });
}

// The .release/.acquire orderings at .cta scope (what the plain forms imply) and the
// .shared::cta spelling: each thread stores its input to shared memory, arrives
// (release), waits (acquire) and reads its neighbour's; then a second phase completes
// with arrive_drop.
KernelCase sem_scope() {
  std::ostringstream b;
  b << slots(4) << "  mov.u32 %r40, bar;\n  setp.eq.u32 %p10, %r4, 0;\n"
    << "  @%p10 mbarrier.init.shared::cta.b64 [%r40], " << kThreads << ";\n  bar.sync 0;\n"
    << "  st.shared.u32 [%r30], %r6;\n"
    << "  mbarrier.arrive.release.cta.shared::cta.b64 %rd40, [%r40];\n"
    << "W0:\n  mbarrier.test_wait.acquire.cta.shared::cta.b64 %p11, [%r40], %rd40;\n"
    << "  @!%p11 bra W0;\n"
    << "  add.u32 %r41, %r4, 1;\n  rem.u32 %r41, %r41, " << kThreads << ";\n"
    << "  mov.u32 %r42, sbuf;\n  mad.lo.u32 %r43, %r41, 4, %r42;\n"
    << read_slot(0, 1, 0, "%r43")
    << "  mbarrier.arrive_drop.release.cta.shared::cta.b64 %rd41, [%r40];\n"
    << "W1:\n  mbarrier.test_wait.parity.acquire.cta.shared::cta.b64 %p12, [%r40], 1;\n"
    << "  @!%p12 bra W1;\n"
    << "  selp.u32 %r44, 1, 0, %p12;\n  st.global.u32 [%rd2+" << kThreads * 4 << "], %r44;\n";
  return make_case("mbarrier.release-acquire.cta", "mbarrier",
                   {"mbarrier.init.shared::cta.b64", "mbarrier.arrive.release.cta.shared::cta.b64",
                    "mbarrier.test_wait.acquire.cta.shared::cta.b64",
                    "mbarrier.arrive_drop.release.cta.shared::cta.b64",
                    "mbarrier.test_wait.parity.acquire.cta.shared::cta.b64"},
                   module(b.str(), shared_decls(4 * kThreads)), launch_1d(1, kThreads), 2,
                   input(0, 11), [](const std::vector<uint32_t>& in, Expected& e) {
                     for (uint32_t g = 0; g < kThreads; ++g) {
                       e.set(0, g, in[(g + 1) % kThreads]);
                       e.set(1, g, 1);
                     }
                   });
}

// The sm_90 forms Strata accepts (a module for sm_90): try_wait with a state token and,
// by parity, with a suspend-time hint, and arrive / arrive_drop with a count but without
// .noComplete. Expected 2n: phase 0 takes one arrival of count 2 per thread; in phase 1
// each thread drops one (expected becomes n) and arrives once more; phase 2 completes
// with n arrivals.
KernelCase try_wait() {
  std::ostringstream b;
  b << "  mov.u32 %r40, bar;\n  setp.eq.u32 %p10, %r4, 0;\n"
    << "  @%p10 mbarrier.init.shared.b64 [%r40], " << 2 * kThreads << ";\n  bar.sync 0;\n"
    << "  mbarrier.arrive.shared.b64 %rd40, [%r40], 2;\n"
    << "W0:\n  mbarrier.try_wait.shared.b64 %p11, [%r40], %rd40;\n  @!%p11 bra W0;\n"
    << "  mbarrier.arrive_drop.shared.b64 %rd41, [%r40], 1;\n"
    << "  mbarrier.arrive.shared.b64 %rd42, [%r40];\n"
    << "W1:\n  mbarrier.try_wait.parity.shared.b64 %p12, [%r40], 1, 1000;\n  @!%p12 bra W1;\n"
    << "  mbarrier.arrive.shared.b64 %rd43, [%r40];\n"
    << "W2:\n  mbarrier.try_wait.parity.shared.b64 %p13, [%r40], 0;\n  @!%p13 bra W2;\n"
    << "  mbarrier.test_wait.parity.shared.b64 %p14, [%r40], 0;\n"
    << "  mbarrier.test_wait.parity.shared.b64 %p15, [%r40], 1;\n"
    << "  selp.u32 %r41, 1, 0, %p14;\n  st.global.u32 [%rd2], %r41;\n"
    << "  selp.u32 %r41, 1, 0, %p15;\n  st.global.u32 [%rd2+" << kThreads * 4 << "], %r41;\n";
  std::string ptx = module(b.str(), shared_decls(16));
  ptx.replace(ptx.find(".target sm_80"), 13, ".target sm_90");
  return make_case("mbarrier.try_wait", "mbarrier",
                   {"mbarrier.try_wait.shared.b64", "mbarrier.try_wait.parity.shared.b64"}, ptx,
                   launch_1d(1, kThreads), 2, input(0, 10),
                   [](const std::vector<uint32_t>&, Expected& e) {
                     // Phases 0-2 have completed; the current phase, 3, has parity 1.
                     for (uint32_t g = 0; g < kThreads; ++g) {
                       e.set(0, g, 1);
                       e.set(1, g, 0);
                     }
                   });
}

}  // namespace

std::vector<KernelCase> async_cases() {
  // The mbarrier cases first: a form reports under the family of the first case that
  // lists it.
  std::vector<KernelCase> v;
  for (auto make : {&phases, &arrive_drop, &no_complete, &inval, &try_wait, &sem_scope, &ca_sizes,
                    &cg_l2, &src_size, &ignore_src, &groups, &misaligned, &cache_policies})
    v.push_back(make());
  v.push_back(cp_mbarrier(/*noinc=*/false));
  v.push_back(cp_mbarrier(/*noinc=*/true));
  v.push_back(producer_consumer());
  v.push_back(generic());
  return v;
}

}  // namespace strata::ptx_conformance
