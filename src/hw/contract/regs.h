// Register offsets generated from regs.def.
#pragma once

#include <cstdint>

namespace strata::hw {

enum Reg : uint32_t {
#define STRATA_REG(NAME, OFFSET, ACCESS, DESCRIPTION) REG_##NAME = OFFSET,
#include "hw/contract/regs.def"
#undef STRATA_REG
};

inline constexpr uint32_t kChannelBase = 0x1000;
inline constexpr uint32_t kChannelStride = 0x100;
inline constexpr uint32_t kIdMagic = 0x53545241;
inline constexpr uint32_t kIntrCompletion = 1u << 0;
inline constexpr uint32_t kIntrFault = 1u << 1;
// CH_PRIORITY: 0 (the reset value, lowest) .. kMaxChannelPriority; larger values go first.
inline constexpr uint32_t kMaxChannelPriority = 7;

// Offset of a per-channel register for `channel` (reg is one of REG_CH_*).
constexpr uint32_t channel_reg(uint32_t channel, Reg reg) { return reg + channel * kChannelStride; }

}  // namespace strata::hw
