#include "hw/sim/sm/stats.h"

#include <algorithm>
#include <bit>

#include "hw/perf/tensor_type.h"
#include "hw/sim/sm/address.h"
#include "hw/sim/sm/trace_hook.h"
#include "isa/pipe.h"
#include "isa/tensor.h"

namespace strata::hw::sim {

// isa::PipeClass mirrors perf::Pipe (isa does not depend on hw/).
#define STRATA_SAME_PIPE(P)                                                             \
  static_assert(static_cast<int>(isa::PipeClass::P) == static_cast<int>(perf::Pipe::P), \
                "pipe order: " #P);
STRATA_SAME_PIPE(kFp32)
STRATA_SAME_PIPE(kFp64)
STRATA_SAME_PIPE(kInt)
STRATA_SAME_PIPE(kSfu)
STRATA_SAME_PIPE(kTensor)
STRATA_SAME_PIPE(kLdst)
STRATA_SAME_PIPE(kTexture)
STRATA_SAME_PIPE(kControl)
#undef STRATA_SAME_PIPE
static_assert(isa::kNumPipeClasses == perf::kNumPipes,
              "isa::PipeClass and perf::Pipe differ in size");

namespace {

template <typename T>
void insertion_sort(T* v, uint32_t n) {
  for (uint32_t i = 1; i < n; ++i) {
    const T x = v[i];
    uint32_t j = i;
    for (; j > 0 && v[j - 1] > x; --j) v[j] = v[j - 1];
    v[j] = x;
  }
}

// Sorts and deduplicates s[0, n) in place; returns the number of distinct values. Values
// within 128 of the smallest (a warp's sectors within 4 KiB: the common case) go through
// a bitmap instead of a sort.
uint32_t sort_unique(uint64_t* s, uint32_t n) {
  if (n <= 1) return n;
  uint64_t lo = s[0], hi = s[0];
  for (uint32_t i = 1; i < n; ++i) {
    lo = std::min(lo, s[i]);
    hi = std::max(hi, s[i]);
  }
  if (hi - lo < 128) {
    uint64_t bits[2] = {0, 0};
    for (uint32_t i = 0; i < n; ++i) {
      const uint64_t d = s[i] - lo;
      bits[d >> 6] |= uint64_t{1} << (d & 63);
    }
    uint32_t k = 0;
    for (int h = 0; h < 2; ++h) {
      for (uint64_t b = bits[h]; b != 0; b &= b - 1) s[k++] = lo + 64 * h + std::countr_zero(b);
    }
    return k;
  }
  if (n <= 64) {
    insertion_sort(s, n);
  } else {
    std::sort(s, s + n);
  }
  return static_cast<uint32_t>(std::unique(s, s + n) - s);
}

// Bits set in v, without a popcount call (the default x86-64 target has no instruction).
inline uint32_t popcount64(uint64_t v) {
  v = v - ((v >> 1) & 0x5555555555555555ull);
  v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
  v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return static_cast<uint32_t>((v * 0x0101010101010101ull) >> 56);
}

// The bits of 64-bit word `h` of a 128-bit map that lie below position k (0 <= k <= 128).
inline uint64_t bits_below(uint32_t k, int h) {
  const uint32_t in_word = k <= 64u * h ? 0 : std::min<uint32_t>(k - 64u * h, 64);
  return in_word == 64 ? ~uint64_t{0} : (uint64_t{1} << in_word) - 1;
}

// The per-pc counters of the instruction being executed: handlers run with c.pc already
// past it (run_group in warp_run.cc) and the memory handlers do not change c.pc; run_warp
// has sized pc_counts (stats.h).
inline PcCount& executing(ExecContext& c) {
  return c.worker->pc_counts[c.pc - 1];
}

// Turns sector indices into sector addresses and hands them to the cache models.
void record_sectors(ExecContext& c, AccessKind kind, uint64_t* s, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) s[i] <<= 5;
  record_memory_access(c, kind, s, n);
}

// Wavefronts of one shared-memory phase: the largest number of distinct 4-byte words
// (every word, for atomics) any bank serves. words[0, n) with n <= 32.
uint32_t phase_wavefronts(uint32_t* words, uint32_t n, bool atomic) {
  if (!atomic) {
    // Conflict-free (every bank serves at most one word) is the common case.
    uint32_t word_of_bank[32];
    uint32_t used = 0;
    bool conflict = false;
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t bank = words[i] & 31;
      if (((used >> bank) & 1u) == 0) {
        used |= 1u << bank;
        word_of_bank[bank] = words[i];
      } else if (word_of_bank[bank] != words[i]) {
        conflict = true;
      }
    }
    if (!conflict) return 1;
    insertion_sort(words, n);
    n = static_cast<uint32_t>(std::unique(words, words + n) - words);
  }
  uint8_t per_bank[32] = {};
  uint32_t most = 0;
  for (uint32_t i = 0; i < n; ++i) most = std::max<uint32_t>(most, ++per_bank[words[i] & 31]);
  return most;
}

}  // namespace

void count_global(ExecContext& c, AccessKind kind, uint32_t m, const uint64_t* addrs,
                  uint32_t bytes) {
  uint64_t s[64];
  uint32_t n = 0;
  for (uint32_t mm = m; mm != 0; mm &= mm - 1) {
    const uint64_t a = addrs[std::countr_zero(mm)];
    const uint64_t first = a >> 5, last = (a + bytes - 1) >> 5;
    s[n++] = first;
    if (last != first) s[n++] = last;  // bytes <= 16: at most two sectors
  }
  n = sort_unique(s, n);
  perf::KernelStats& k = c.worker->stats;
  perf::MemoryCounts& mc = kind == AccessKind::kLoad || kind == AccessKind::kLoadL2 ? k.global_loads
                           : kind == AccessKind::kStore ? k.global_stores
                                                        : k.global_atomics;
  const uint64_t asked = uint64_t{static_cast<uint32_t>(std::popcount(m))} * bytes;
  ++mc.requests;
  mc.sectors += n;
  mc.bytes += asked;
  PcCount& pc = executing(c);
  ++pc.global_requests;
  pc.global_sectors += n;
  pc.global_bytes += asked;
  record_sectors(c, kind, s, n);
}

void count_global_in_block(ExecContext& c, AccessKind kind, uint32_t m, const uint64_t* addrs,
                           uint32_t bytes, uint64_t block) {
  // The block's sectors as a bitmap (bit i: the sector at block + 32 i), which is also the
  // cache models' input (record_block_access: each nibble is a line's sector mask).
  uint64_t bits[2] = {0, 0};
  uint32_t n;
  // The coalesced pattern first: all lanes, lane l at addrs[0] + l * bytes, touch the
  // contiguous sectors of that range (a check the compiler vectorises).
  uint64_t off_pattern = ~uint64_t{0};
  if (m == ~0u) {
    off_pattern = 0;
    for (int l = 0; l < 31; ++l) off_pattern |= (addrs[l + 1] - addrs[l]) ^ bytes;
  }
  if (off_pattern == 0) {
    const uint32_t first = static_cast<uint32_t>((addrs[0] - block) >> 5);
    const uint32_t end = static_cast<uint32_t>((addrs[0] + 32 * bytes - 1 - block) >> 5) + 1;
    for (int h = 0; h < 2; ++h) bits[h] = bits_below(end, h) & ~bits_below(first, h);
    n = end - first;
  } else {
    // Aligned accesses of at most 16 bytes lie in one sector: the lane's first byte's.
    for (uint32_t mm = m; mm != 0; mm &= mm - 1) {
      const uint64_t d = ((addrs[std::countr_zero(mm)] - block) >> 5) & 127;
      bits[d >> 6] |= uint64_t{1} << (d & 63);
    }
    n = popcount64(bits[0]) + popcount64(bits[1]);
  }
  perf::KernelStats& k = c.worker->stats;
  perf::MemoryCounts& mc = kind == AccessKind::kLoad || kind == AccessKind::kLoadL2 ? k.global_loads
                           : kind == AccessKind::kStore ? k.global_stores
                                                        : k.global_atomics;
  const uint64_t asked = uint64_t{static_cast<uint32_t>(std::popcount(m))} * bytes;
  ++mc.requests;
  mc.sectors += n;
  mc.bytes += asked;
  PcCount& pc = executing(c);
  ++pc.global_requests;
  pc.global_sectors += n;
  pc.global_bytes += asked;
  record_block_access(c, kind, block, bits);
}

void count_local(ExecContext& c, bool store, uint32_t m, const uint64_t* offsets, uint32_t bytes) {
  const GridState& g = *c.grid;
  const uint64_t region =
      kLocalSectorBase + (c.cta->linear * g.warps_per_cta + c.warp->index) * (g.local_stride * 32);
  const uint32_t words = bytes <= 4 ? 1 : bytes / 4;
  uint64_t s[32 * 4];
  uint32_t n = 0;
  for (uint32_t mm = m; mm != 0; mm &= mm - 1) {
    const int l = std::countr_zero(mm);
    const uint64_t word = offsets[l] >> 2;
    for (uint32_t k = 0; k < words; ++k)
      s[n++] = (region + (word + k) * 128 + static_cast<uint64_t>(l) * 4) >> 5;
  }
  n = sort_unique(s, n);
  perf::MemoryCounts& mc = store ? c.worker->stats.local_stores : c.worker->stats.local_loads;
  ++mc.requests;
  mc.sectors += n;
  PcCount& pc = executing(c);
  ++pc.local_requests;
  pc.local_sectors += n;
  record_sectors(c, store ? AccessKind::kLocalStore : AccessKind::kLocalLoad, s, n);
}

void count_shared(ExecContext& c, uint32_t m, const uint32_t* offsets, uint32_t bytes,
                  bool atomic) {
  perf::KernelStats& k = c.worker->stats;
  PcCount& pc = executing(c);
  ++k.shared_requests;
  ++pc.shared_requests;
  if (m == ~0u && bytes <= 4 && !atomic) {
    // The common cases of a whole warp's narrow access, without sorting: every lane in a
    // bank of its own, or every lane in one word (a broadcast); one wavefront each.
    uint32_t banks = 0, differ = 0;
    for (int l = 0; l < 32; ++l) {
      banks |= 1u << ((offsets[l] >> 2) & 31);
      differ |= (offsets[l] ^ offsets[0]) >> 2;
    }
    if (banks == ~0u || differ == 0) {
      ++k.shared_wavefronts;
      ++pc.shared_wavefronts;
      if (c.worker->trace != nullptr) [[unlikely]]
        trace_shared(c, 1);
      return;
    }
  }
  const uint32_t phases = bytes <= 4 ? 1 : bytes / 4;  // 8 bytes: 2, 16 bytes: 4
  const uint32_t words_per_lane = phases;
  const int lanes_per_phase = 32 / static_cast<int>(phases);
  uint64_t wavefronts = 0, minimum = 0;
  for (uint32_t p = 0; p < phases; ++p) {
    const uint32_t phase_mask =
        phases == 1 ? ~0u : ((1u << lanes_per_phase) - 1) << (p * lanes_per_phase);
    const uint32_t pm = m & phase_mask;
    if (pm == 0) continue;
    uint32_t words[32];
    uint32_t n = 0;
    for (uint32_t mm = pm; mm != 0; mm &= mm - 1) {
      const uint32_t w = offsets[std::countr_zero(mm)] >> 2;
      for (uint32_t i = 0; i < words_per_lane; ++i) words[n++] = w + i;
    }
    wavefronts += phase_wavefronts(words, n, atomic);
    ++minimum;
  }
  k.shared_wavefronts += wavefronts;
  k.shared_bank_conflicts += wavefronts - minimum;
  pc.shared_wavefronts += wavefronts;
  pc.shared_bank_conflicts += wavefronts - minimum;
  if (c.worker->trace != nullptr) [[unlikely]]
    trace_shared(c, static_cast<uint32_t>(wavefronts));
}

void count_memory(ExecContext& c, const DecodedInst& in, uint32_t m, uint32_t bytes,
                  AccessKind kind) {
  if (in.inst.space == isa::MemSpace::SHARED) {
    // lane_address's 32-bit offsets, for every lane (a loop the compiler vectorises).
    const uint32_t* a = c.row(in.a);
    uint32_t offsets[32];
    for (int l = 0; l < 32; ++l) offsets[l] = a[l] + in.imm;
    return count_shared(c, m, offsets, bytes, kind == AccessKind::kAtomic);
  }
  uint64_t addr[32];
  for (uint32_t mm = m; mm != 0; mm &= mm - 1) {
    const int l = std::countr_zero(mm);
    addr[l] = lane_address(c, in, l);
  }
  const bool store = kind != AccessKind::kLoad;
  switch (in.inst.space) {
    case isa::MemSpace::LOCAL:
      return count_local(c, store, m, addr, bytes);
    case isa::MemSpace::GENERIC:
      break;
    default:
      return count_global(c, kind, m, addr, bytes);
  }
  const GridState& g = *c.grid;
  uint32_t shared = 0, local = 0;
  for (uint32_t mm = m; mm != 0; mm &= mm - 1) {
    const int l = std::countr_zero(mm);
    if (addr[l] - g.shared_window < kWindowBytes) {
      shared |= 1u << l;
      addr[l] -= g.shared_window;
    } else if (addr[l] - g.local_window < kWindowBytes) {
      local |= 1u << l;
      addr[l] -= g.local_window;
    }
  }
  const uint32_t global = m & ~(shared | local);
  if (global != 0) count_global(c, kind, global, addr, bytes);
  if (shared != 0) {
    uint32_t offsets[32];
    for (uint32_t mm = shared; mm != 0; mm &= mm - 1) {
      const int l = std::countr_zero(mm);
      offsets[l] = static_cast<uint32_t>(addr[l]);
    }
    count_shared(c, shared, offsets, bytes, kind == AccessKind::kAtomic);
  }
  if (local != 0) count_local(c, store, local, addr, bytes);
}

void count_constant(ExecContext& c, uint32_t m, const uint64_t* offsets) {
  uint64_t s[32];
  uint32_t n = 0;
  bool uniform = true;
  const uint64_t first = offsets[std::countr_zero(m)];
  for (uint32_t mm = m; mm != 0; mm &= mm - 1) {
    s[n] = offsets[std::countr_zero(mm)];
    uniform = uniform && s[n] == first;
    ++n;
  }
  if (!uniform) {
    insertion_sort(s, n);
    n = static_cast<uint32_t>(std::unique(s, s + n) - s);
  } else {
    n = 1;
  }
  ++c.worker->stats.constant_requests;
  c.worker->stats.constant_wavefronts += n;
}

void TexelSectors::compact() {
  std::sort(s_, s_ + n_);
  n_ = static_cast<uint32_t>(std::unique(s_, s_ + n_) - s_);
}

void TexelSectors::finish(ExecContext& c) {
  compact();
  perf::MemoryCounts& mc = c.worker->stats.texture_loads;
  ++mc.requests;
  mc.sectors += n_;
  if (n_ != 0) record_sectors(c, AccessKind::kTexture, s_, n_);
}

void fold_pc_counts(const Program& program, const Worker& w, perf::KernelStats* out) {
  const DecodedInst* code = program.code();
  const size_t n = std::min<size_t>(w.pc_counts.size(), program.size() + 1u);
  for (size_t pc = 0; pc < n; ++pc) {
    const PcCount& k = w.pc_counts[pc];
    if (k.warps == 0) continue;
    const isa::Inst& inst = code[pc].inst;
    const int pipe = static_cast<int>(isa::pipe_of(inst));
    out->warp_instructions += k.warps;
    out->thread_instructions += k.lanes;
    out->pipe_warp_instructions[pipe] += k.warps;
    out->pipe_thread_instructions[pipe] += k.lanes;
    isa::MmaDesc desc;
    perf::TensorType type;
    if (inst.op == isa::Opcode::HMMA && isa::MmaDesc::decode(inst.imm, &desc) &&
        perf::tensor_type_of(desc.a, &type)) {
      const isa::MmaDims d = isa::mma_dims(desc.shape);
      out->tensor_fmas[static_cast<int>(type)] += k.warps * static_cast<uint64_t>(d.m) * d.n * d.k;
    }
  }
}

void add_pc_counts(const Program& program, const Worker& w, std::vector<PcCount>* sum) {
  sum->resize(program.size());
  const size_t n = std::min<size_t>(w.pc_counts.size(), program.size());
  for (size_t pc = 0; pc < n; ++pc) {
    const PcCount& k = w.pc_counts[pc];
    if (k.warps == 0) continue;
    PcCount& s = (*sum)[pc];
    s.warps += k.warps;
    s.lanes += k.lanes;
    s.global_requests += k.global_requests;
    s.global_sectors += k.global_sectors;
    s.global_bytes += k.global_bytes;
    s.local_requests += k.local_requests;
    s.local_sectors += k.local_sectors;
    s.shared_requests += k.shared_requests;
    s.shared_wavefronts += k.shared_wavefronts;
    s.shared_bank_conflicts += k.shared_bank_conflicts;
  }
}

std::vector<PcCounters> pc_counters_of(const std::vector<PcCount>& sum) {
  std::vector<PcCounters> out;
  for (size_t pc = 0; pc < sum.size(); ++pc) {
    const PcCount& k = sum[pc];
    if (k.warps == 0) continue;
    PcCounters r{};
    r.pc = static_cast<uint32_t>(pc);
    r.warp_instructions = k.warps;
    r.thread_instructions = k.lanes;
    r.global_requests = k.global_requests;
    r.global_sectors = k.global_sectors;
    r.global_bytes = k.global_bytes;
    r.local_requests = k.local_requests;
    r.local_sectors = k.local_sectors;
    r.shared_requests = k.shared_requests;
    r.shared_wavefronts = k.shared_wavefronts;
    r.shared_bank_conflicts = k.shared_bank_conflicts;
    out.push_back(r);
  }
  return out;
}

}  // namespace strata::hw::sim
