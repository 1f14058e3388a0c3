#include "isa/operands.h"

#include <array>
#include <vector>

#include "base/check.h"

namespace strata::isa {
namespace {

constexpr std::array<std::string_view, 13> kTokens = {"d", "a",  "b", "c",  "pd", "ps", "pq",
                                                      "i", "t", "sr", "bb", "m",  "cb"};

OperandKind parse_token(std::string_view token) {
  for (size_t i = 0; i < kTokens.size(); ++i) {
    if (kTokens[i] == token) return static_cast<OperandKind>(i);
  }
  CHECK_MSG(false, "isa/opcodes.def names an unknown operand kind");
}

std::vector<OperandKind> parse_list(std::string_view list) {
  std::vector<OperandKind> kinds;
  size_t pos = 0;
  while (pos < list.size()) {
    size_t end = list.find(',', pos);
    if (end == std::string_view::npos) end = list.size();
    std::string_view token = list.substr(pos, end - pos);
    while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
    while (!token.empty() && token.back() == ' ') token.remove_suffix(1);
    if (!token.empty()) kinds.push_back(parse_token(token));
    pos = end + 1;
  }
  return kinds;
}

const std::array<std::vector<OperandKind>, kNumOpcodes>& table() {
  static const auto* kTable = [] {
    auto* t = new std::array<std::vector<OperandKind>, kNumOpcodes>;
    for (int i = 0; i < kNumOpcodes; ++i) {
      (*t)[i] = parse_list(op_info(static_cast<Opcode>(i)).operands);
    }
    return t;
  }();
  return *kTable;
}

}  // namespace

std::span<const OperandKind> operand_kinds(Opcode op) {
  CHECK(static_cast<int>(op) < kNumOpcodes);
  return table()[static_cast<int>(op)];
}

std::string_view operand_kind_token(OperandKind kind) {
  return kTokens[static_cast<size_t>(kind)];
}

}  // namespace strata::isa
