// The mbarrier object as Strata keeps it: one 64-bit word in shared memory, 8-byte
// aligned (docs/isa.md "Asynchronous copies and mbarrier"). The contract between the
// simulator, which updates it (MBINIT, MBARRIVE, MBDROP, MBINVAL, CPARRIVE), and the
// compiler, which reads the state tokens MBARRIVE returns (mbarrier.pending_count,
// mbarrier.test_wait). PTX calls the object and its tokens opaque; only this encoding
// gives them meaning.
//
//   bits  0-30  pending arrivals of the current phase
//   bit     31  0
//   bits 32-62  expected arrivals: the pending count each new phase starts with
//   bit     63  phase parity: 0 after MBINIT, flipped when a phase completes
//
// A phase completes when its pending count reaches 0: the parity flips and the pending
// count becomes the expected count. MBARRIVE/MBDROP return the word as it was before
// the arrival, so a token's parity is that of the phase it arrived on and its pending
// count that phase's pending count before the arrival. MBINVAL zeroes the word.
#pragma once

#include <cstdint>

namespace strata::isa {

inline constexpr uint64_t kMbarPendingMask = 0x7fffffffull;  // bits 0-30
inline constexpr int kMbarExpectedShift = 32;                // bits 32-62
inline constexpr uint64_t kMbarCountMax = 0x7fffffffull;
inline constexpr int kMbarPhaseBit = 63;

constexpr uint64_t mbar_pending(uint64_t w) {
  return w & kMbarPendingMask;
}
constexpr uint64_t mbar_expected(uint64_t w) {
  return (w >> kMbarExpectedShift) & kMbarCountMax;
}
constexpr uint32_t mbar_phase(uint64_t w) {
  return static_cast<uint32_t>(w >> kMbarPhaseBit);
}
constexpr uint64_t mbar_word(uint64_t pending, uint64_t expected, uint32_t phase) {
  return (pending & kMbarPendingMask) | ((expected & kMbarCountMax) << kMbarExpectedShift) |
         (static_cast<uint64_t>(phase & 1) << kMbarPhaseBit);
}

}  // namespace strata::isa
