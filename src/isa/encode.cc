#include "isa/encode.h"

#include <fmt/format.h>

#include "base/check.h"
#include "isa/fields.h"
#include "isa/modifiers.h"

namespace strata::isa {
namespace {

Status illegal(std::string message) {
  return error(Code::kIllegalInstruction, std::move(message));
}

// Checks only what the raw field values say, so that decode can run it on a word.
Status validate_fields(const Inst& inst) {
  for (int i = 0; i < kNumFields; ++i) {
    const auto f = static_cast<Field>(i);
    const uint64_t v = get_field(inst, f);
    if (v > field_info(f).max_value()) {
      return illegal(fmt::format("field '{}' value {} does not fit {} bits",
                                 field_info(f).name, v, field_info(f).width));
    }
  }
  if (static_cast<int>(inst.op) >= kNumOpcodes) {
    return illegal(fmt::format("unknown opcode {}", static_cast<int>(inst.op)));
  }
  const std::string_view op = op_info(inst.op).name;
  if (static_cast<int>(inst.type) >= static_cast<int>(DataType::kCount)) {
    return illegal(fmt::format("{}: undefined type {}", op, static_cast<int>(inst.type)));
  }
  if (static_cast<int>(inst.type2) >= static_cast<int>(DataType::kCount)) {
    return illegal(fmt::format("{}: undefined type2 {}", op, static_cast<int>(inst.type2)));
  }
  if (static_cast<int>(inst.space) >= static_cast<int>(MemSpace::kCount)) {
    return illegal(fmt::format("{}: undefined memory space {}", op,
                               static_cast<int>(inst.space)));
  }
  if (static_cast<int>(inst.scope) > static_cast<int>(MemScope::SYS)) {
    return illegal(fmt::format("{}: undefined memory scope {}", op,
                               static_cast<int>(inst.scope)));
  }
  if (!mod_is_legal(inst.op, inst.mod)) {
    return illegal(fmt::format("{}: mod 0x{:02x} is not a legal {} modifier", op, inst.mod,
                               mod_kind_name(mod_kind(inst.op))));
  }
  return ok_status();
}

}  // namespace

Status validate(const Inst& inst) { return validate_fields(inst); }

Word encode(const Inst& inst) {
  Word word;
  for (int i = 0; i < kNumFields; ++i) {
    const auto f = static_cast<Field>(i);
    set_field(word, f, get_field(inst, f));  // CHECKs the width
  }
  return word;
}

StatusOr<Inst> decode(const Word& word) {
  Inst inst;
  for (int i = 0; i < kNumFields; ++i) {
    const auto f = static_cast<Field>(i);
    set_field(inst, f, get_field(word, f));
  }
  // Inst's members are at least as wide as the fields, so the values are exact;
  // only enum legality remains to check.
  RETURN_IF_ERROR(validate_fields(inst));
  return inst;
}

std::vector<uint8_t> encode_program(std::span<const Inst> program) {
  std::vector<uint8_t> bytes;
  bytes.reserve(program.size() * kInstBytes);
  for (const Inst& inst : program) {
    const Word w = encode(inst);
    for (uint64_t half : {w.lo, w.hi}) {
      for (int b = 0; b < 8; ++b) bytes.push_back(static_cast<uint8_t>(half >> (8 * b)));
    }
  }
  return bytes;
}

StatusOr<std::vector<Inst>> decode_program(std::span<const uint8_t> bytes) {
  if (bytes.size() % kInstBytes != 0) {
    return illegal(fmt::format("code size {} is not a multiple of the {}-byte instruction",
                               bytes.size(), kInstBytes));
  }
  std::vector<Inst> program;
  program.reserve(bytes.size() / kInstBytes);
  for (size_t i = 0; i < bytes.size(); i += kInstBytes) {
    Word w;
    for (int b = 0; b < 8; ++b) {
      w.lo |= static_cast<uint64_t>(bytes[i + b]) << (8 * b);
      w.hi |= static_cast<uint64_t>(bytes[i + 8 + b]) << (8 * b);
    }
    auto inst = decode(w);
    if (!inst.ok()) {
      return illegal(fmt::format("instruction {}: {}", i / kInstBytes, inst.status().message()));
    }
    program.push_back(*inst);
  }
  return program;
}

}  // namespace strata::isa
