#include "isa/modifiers.h"

#include <array>

#include "isa/fields.h"

namespace strata::isa {
namespace {

constexpr std::array<ModKind, kNumOpcodes> make_mod_kinds() {
  std::array<ModKind, kNumOpcodes> kinds{};
  for (auto& k : kinds) k = ModKind::kNone;
#define STRATA_MOD(OPCODE, KIND) kinds[static_cast<int>(Opcode::OPCODE)] = ModKind::KIND;
#include "isa/modifiers.def"
#undef STRATA_MOD
  return kinds;
}
constexpr std::array<ModKind, kNumOpcodes> kModKinds = make_mod_kinds();

constexpr std::string_view kCmpNames[] = {"EQ",  "NE",  "LT",  "LE",  "GT",  "GE",  "EQU",
                                          "NEU", "LTU", "LEU", "GTU", "GEU", "NUM", "NAN"};
constexpr std::string_view kBoolNames[] = {"AND", "OR", "XOR"};
constexpr std::string_view kRoundNames[] = {"RN", "RZ", "RM", "RP"};
constexpr std::string_view kMufuNames[] = {"RCP", "SQRT", "RSQ", "SIN",
                                           "COS", "EX2",  "LG2", "TANH"};
constexpr std::string_view kAtomNames[] = {"ADD", "MIN", "MAX", "INC",  "DEC",
                                           "AND", "OR",  "XOR", "EXCH", "CAS", "ADD2"};
constexpr std::string_view kVoteNames[] = {"ALL", "ANY", "UNI", "BALLOT"};
constexpr std::string_view kShflNames[] = {"IDX", "UP", "DOWN", "BFLY"};
constexpr std::string_view kBarNames[] = {"SYNC", "ARRIVE", "RED_POPC", "RED_AND", "RED_OR"};
constexpr std::string_view kPrmtNames[] = {"IDX", "F4E", "B4E", "RC8", "ECL", "ECR", "RC16"};
constexpr std::string_view kSpaceNames[] = {"GENERIC", "GLOBAL", "SHARED", "LOCAL", "CONST"};
constexpr std::string_view kSemNames[] = {"WEAK", "RELAXED", "ACQUIRE", "RELEASE"};
constexpr std::string_view kScopeNames[] = {"CTA", "GPU", "SYS"};

static_assert(std::size(kCmpNames) == static_cast<size_t>(CmpOp::kCount));
static_assert(std::size(kBoolNames) == static_cast<size_t>(BoolOp::kCount));
static_assert(std::size(kMufuNames) == static_cast<size_t>(MufuOp::kCount));
static_assert(std::size(kAtomNames) == static_cast<size_t>(AtomOp::kCount));
static_assert(std::size(kVoteNames) == static_cast<size_t>(VoteOp::kCount));
static_assert(std::size(kShflNames) == static_cast<size_t>(ShflOp::kCount));
static_assert(std::size(kBarNames) == static_cast<size_t>(BarOp::kCount));
static_assert(std::size(kPrmtNames) == static_cast<size_t>(PrmtMode::kCount));
static_assert(std::size(kSpaceNames) == static_cast<size_t>(MemSpace::kCount));
// The memory fields of the word are exactly wide enough for these enums.
static_assert(std::size(kSemNames) == 4);
static_assert(std::size(kScopeNames) == 3);

}  // namespace

ModKind mod_kind(Opcode op) {
  const auto i = static_cast<size_t>(op);
  return i < kModKinds.size() ? kModKinds[i] : ModKind::kNone;
}

std::string_view mod_kind_name(ModKind kind) {
  switch (kind) {
    case ModKind::kNone: return "kNone";
    case ModKind::kCompare: return "kCompare";
    case ModKind::kPredLogic: return "kPredLogic";
    case ModKind::kFloat: return "kFloat";
    case ModKind::kMufu: return "kMufu";
    case ModKind::kPrmt: return "kPrmt";
    case ModKind::kSpecialReg: return "kSpecialReg";
    case ModKind::kConstBank: return "kConstBank";
    case ModKind::kAtom: return "kAtom";
    case ModKind::kFence: return "kFence";
    case ModKind::kVote: return "kVote";
    case ModKind::kShfl: return "kShfl";
    case ModKind::kBar: return "kBar";
    case ModKind::kConvBarrier: return "kConvBarrier";
    case ModKind::kCache: return "kCache";
  }
  return "?";
}

uint8_t mod_syntax_mask(ModKind kind) {
  switch (kind) {
    case ModKind::kNone: return 0x00;
    case ModKind::kCompare: return 0x3f;
    case ModKind::kPredLogic: return 0xb0;
    case ModKind::kFloat: return 0x3f;
    case ModKind::kFence: return kModFenceSc;
    case ModKind::kCache: return kModCacheGlobal;
    case ModKind::kMufu:
    case ModKind::kPrmt:
    case ModKind::kSpecialReg:
    case ModKind::kConstBank:
    case ModKind::kAtom:
    case ModKind::kVote:
    case ModKind::kShfl:
    case ModKind::kBar:
    case ModKind::kConvBarrier: return 0xff;
  }
  return 0;
}

bool mod_is_legal(Opcode op, uint8_t mod) {
  switch (mod_kind(op)) {
    case ModKind::kCompare:
      return (mod & 0x0f) < static_cast<int>(CmpOp::kCount) &&
             ((mod >> 4) & 3) < static_cast<int>(BoolOp::kCount);
    case ModKind::kPredLogic: return ((mod >> 4) & 3) < static_cast<int>(BoolOp::kCount);
    case ModKind::kMufu: return mod < static_cast<int>(MufuOp::kCount);
    case ModKind::kPrmt: return mod < static_cast<int>(PrmtMode::kCount);
    case ModKind::kSpecialReg: return mod < static_cast<int>(SpecialReg::kCount);
    case ModKind::kAtom: return mod < static_cast<int>(AtomOp::kCount);
    case ModKind::kVote: return mod < static_cast<int>(VoteOp::kCount);
    case ModKind::kShfl: return mod < static_cast<int>(ShflOp::kCount);
    case ModKind::kBar: return mod < static_cast<int>(BarOp::kCount);
    case ModKind::kConvBarrier: return mod < kNumConvBarriers;
    case ModKind::kNone:
    case ModKind::kFloat:
    case ModKind::kConstBank:
    case ModKind::kFence:
    case ModKind::kCache: return true;
  }
  return false;
}

template <> std::span<const std::string_view> enum_names<CmpOp>() { return kCmpNames; }
template <> std::span<const std::string_view> enum_names<BoolOp>() { return kBoolNames; }
template <> std::span<const std::string_view> enum_names<Round>() { return kRoundNames; }
template <> std::span<const std::string_view> enum_names<MufuOp>() { return kMufuNames; }
template <> std::span<const std::string_view> enum_names<AtomOp>() { return kAtomNames; }
template <> std::span<const std::string_view> enum_names<VoteOp>() { return kVoteNames; }
template <> std::span<const std::string_view> enum_names<ShflOp>() { return kShflNames; }
template <> std::span<const std::string_view> enum_names<BarOp>() { return kBarNames; }
template <> std::span<const std::string_view> enum_names<PrmtMode>() { return kPrmtNames; }
template <> std::span<const std::string_view> enum_names<MemSpace>() { return kSpaceNames; }
template <> std::span<const std::string_view> enum_names<MemSem>() { return kSemNames; }
template <> std::span<const std::string_view> enum_names<MemScope>() { return kScopeNames; }

}  // namespace strata::isa
