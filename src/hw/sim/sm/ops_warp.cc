// Warp-level data exchange (VOTE, SHFL) and special registers (S2R).
//
// VOTE and SHFL operate over the lanes that execute them together. The *.sync forms'
// member masks do not make the hardware wait: the compiler places a WARPSYNC with the
// mask first, which reconverges the named threads (see ops_control.cc), so they arrive
// here as one group. VOTE's optional member mask (c register) further restricts the
// lanes that take part. SHFL reads of a source lane outside the group read that lane's
// current register value (PTX leaves them undefined).
#include <bit>

#include "hw/sim/sm/lanes.h"
#include "hw/sim/sm/ops.h"

namespace strata::hw::sim {
namespace {

using isa::SpecialReg;

template <isa::VoteOp kOp>
void h_vote(ExecContext& c, const DecodedInst& in, uint32_t m) {
  uint32_t lanes = m;
  if (!in.c_is_rz) lanes &= c.row(in.c)[std::countr_zero(m)];
  const uint32_t p = pred_src(c, in.ps, in.ps_xor) & lanes;
  if constexpr (kOp == isa::VoteOp::BALLOT) {
    uint32_t* d = c.row(in.d);
    for (int l = 0; l < 32; ++l) {
      if ((m >> l) & 1u) d[l] = p;
    }
  } else {
    bool r;
    if constexpr (kOp == isa::VoteOp::ALL) r = p == lanes;
    else if constexpr (kOp == isa::VoteOp::ANY) r = p != 0;
    else r = p == 0 || p == lanes;
    pred_write(c, in.pd, r ? kAllLanes : 0, m);
  }
}

// shfl.sync semantics: b = lane/delta, c = clamp value | segment mask << 8; pd says
// whether the source lane was in range (else the lane keeps its own value).
template <isa::ShflOp kOp>
void h_shfl(ExecContext& c, const DecodedInst& in, uint32_t m) {
  const uint32_t* a = c.row(in.a);
  const uint32_t* b = c.src_b(in);
  const uint32_t* cr = c.row(in.c);
  uint32_t out[32];
  uint32_t in_range = 0;
  for (int lane = 0; lane < 32; ++lane) {
    const int bval = static_cast<int>(b[lane] & 0x1f);
    const int cval = static_cast<int>(cr[lane] & 0x1f);
    const int segmask = static_cast<int>((cr[lane] >> 8) & 0x1f);
    const int max_lane = (lane & segmask) | (cval & ~segmask);
    const int min_lane = lane & segmask;
    int j;
    bool ok;
    if constexpr (kOp == isa::ShflOp::UP) {
      j = lane - bval;
      ok = j >= max_lane;
    } else if constexpr (kOp == isa::ShflOp::DOWN) {
      j = lane + bval;
      ok = j <= max_lane;
    } else if constexpr (kOp == isa::ShflOp::BFLY) {
      j = lane ^ bval;
      ok = j <= max_lane;
    } else {
      j = min_lane | (bval & ~segmask);
      ok = j <= max_lane;
    }
    if (!ok) j = lane;
    out[lane] = a[j & 31];
    in_range |= static_cast<uint32_t>(ok) << lane;
  }
  lanes_store<uint32_t>(c.row(in.d), out, m);
  pred_write(c, in.pd, in_range, m);
}

// The SM's core clock (%clock, %clock64), in cycles since the launch: the warp
// instructions issued on the SM so far (never decreasing for a CTA, grid.cc) over the
// warp schedulers that issue them in parallel -- the kernel-duration model of
// device_clock.h. %globaltimer is the launch's device-clock start plus that many
// cycles in ns, so a kernel's readings lie within its modeled duration.
double sm_cycles(const ExecContext& c) {
  const uint64_t issued = c.worker->sm_clock(c.cta->sm) + c.insts;
  const ArchConfig* cfg = c.grid->config;
  const int64_t schedulers = cfg != nullptr && cfg->warp_schedulers_per_sm > 0 ? cfg->warp_schedulers_per_sm : 1;
  return static_cast<double>(issued) / static_cast<double>(schedulers);
}
uint64_t clock_cycles(const ExecContext& c) { return static_cast<uint64_t>(sm_cycles(c)); }

void h_s2r(ExecContext& c, const DecodedInst& in, uint32_t m) {
  const GridState& g = *c.grid;
  const LaunchPacket& p = *g.packet;
  const auto sr = static_cast<SpecialReg>(in.inst.mod);
  uint32_t out[32];
  auto all = [&](uint32_t v) {
    for (uint32_t& o : out) o = v;
  };
  switch (sr) {
    case SpecialReg::TID_X: case SpecialReg::TID_Y: case SpecialReg::TID_Z: {
      const int axis = static_cast<int>(sr) - static_cast<int>(SpecialReg::TID_X);
      for (int l = 0; l < 32; ++l) {
        uint32_t t[3];
        thread_index(g, c.warp->index, l, t);
        out[l] = t[axis];
      }
      break;
    }
    case SpecialReg::NTID_X: all(p.block[0]); break;
    case SpecialReg::NTID_Y: all(p.block[1]); break;
    case SpecialReg::NTID_Z: all(p.block[2]); break;
    case SpecialReg::CTAID_X: all(c.cta->id[0]); break;
    case SpecialReg::CTAID_Y: all(c.cta->id[1]); break;
    case SpecialReg::CTAID_Z: all(c.cta->id[2]); break;
    case SpecialReg::NCTAID_X: all(p.grid[0]); break;
    case SpecialReg::NCTAID_Y: all(p.grid[1]); break;
    case SpecialReg::NCTAID_Z: all(p.grid[2]); break;
    case SpecialReg::LANEID: for (int l = 0; l < 32; ++l) out[l] = l; break;
    case SpecialReg::WARPID: all(c.warp->index); break;
    case SpecialReg::NWARPID: all(g.nwarpid); break;
    case SpecialReg::SMID: all(c.cta->sm); break;
    case SpecialReg::NSMID: all(g.sm_count); break;
    case SpecialReg::GRIDID_LO: all(static_cast<uint32_t>(p.grid_id)); break;
    case SpecialReg::GRIDID_HI: all(static_cast<uint32_t>(p.grid_id >> 32)); break;
    case SpecialReg::LANEMASK_EQ: for (int l = 0; l < 32; ++l) out[l] = 1u << l; break;
    case SpecialReg::LANEMASK_LT: for (int l = 0; l < 32; ++l) out[l] = (1u << l) - 1; break;
    case SpecialReg::LANEMASK_LE: for (int l = 0; l < 32; ++l) out[l] = l == 31 ? kAllLanes : (2u << l) - 1; break;
    case SpecialReg::LANEMASK_GT: for (int l = 0; l < 32; ++l) out[l] = l == 31 ? 0 : ~((2u << l) - 1); break;
    case SpecialReg::LANEMASK_GE: for (int l = 0; l < 32; ++l) out[l] = ~((1u << l) - 1); break;
    case SpecialReg::CLOCK_LO: all(static_cast<uint32_t>(clock_cycles(c))); break;
    case SpecialReg::CLOCK_HI: all(static_cast<uint32_t>(clock_cycles(c) >> 32)); break;
    case SpecialReg::GLOBALTIMER_LO: case SpecialReg::GLOBALTIMER_HI: {
      const uint64_t ns = g.start_time_ns + static_cast<uint64_t>(sm_cycles(c) * g.ns_per_cycle);
      all(sr == SpecialReg::GLOBALTIMER_LO ? static_cast<uint32_t>(ns) : static_cast<uint32_t>(ns >> 32));
      break;
    }
    case SpecialReg::SHARED_WINDOW_LO: all(static_cast<uint32_t>(g.shared_window)); break;
    case SpecialReg::SHARED_WINDOW_HI: all(static_cast<uint32_t>(g.shared_window >> 32)); break;
    case SpecialReg::LOCAL_WINDOW_LO: all(static_cast<uint32_t>(g.local_window)); break;
    case SpecialReg::LOCAL_WINDOW_HI: all(static_cast<uint32_t>(g.local_window >> 32)); break;
    case SpecialReg::DYNAMIC_SMEM_SIZE: all(p.dynamic_shared_bytes); break;
    case SpecialReg::TOTAL_SMEM_SIZE: all(p.shared_bytes); break;
    default: all(0); break;
  }
  lanes_store<uint32_t>(c.row(in.d), out, m);
}

}  // namespace

Handler select_VOTE(const isa::Inst& i) {
  switch (static_cast<isa::VoteOp>(i.mod)) {
    case isa::VoteOp::ALL: return &h_vote<isa::VoteOp::ALL>;
    case isa::VoteOp::ANY: return &h_vote<isa::VoteOp::ANY>;
    case isa::VoteOp::UNI: return &h_vote<isa::VoteOp::UNI>;
    case isa::VoteOp::BALLOT: return &h_vote<isa::VoteOp::BALLOT>;
    default: return nullptr;
  }
}
Handler select_SHFL(const isa::Inst& i) {
  switch (static_cast<isa::ShflOp>(i.mod)) {
    case isa::ShflOp::IDX: return &h_shfl<isa::ShflOp::IDX>;
    case isa::ShflOp::UP: return &h_shfl<isa::ShflOp::UP>;
    case isa::ShflOp::DOWN: return &h_shfl<isa::ShflOp::DOWN>;
    case isa::ShflOp::BFLY: return &h_shfl<isa::ShflOp::BFLY>;
    default: return nullptr;
  }
}
Handler select_S2R(const isa::Inst& i) {
  return i.mod < static_cast<int>(SpecialReg::kCount) ? &h_s2r : nullptr;
}

}  // namespace strata::hw::sim
