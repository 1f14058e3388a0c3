#include "isa/asm.h"

#include <fmt/format.h>

#include <array>
#include <map>
#include <optional>
#include <string>

#include "isa/asm_lexer.h"
#include "isa/encode.h"
#include "isa/fields.h"
#include "isa/modifiers.h"
#include "isa/operands.h"

namespace strata::isa {
namespace {

using Kind = AsmToken::Kind;

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& ch : out) {
    if (ch >= 'a' && ch <= 'z') ch = static_cast<char>(ch - 'a' + 'A');
  }
  return out;
}
std::string lower(std::string_view s) {
  std::string out(s);
  for (char& ch : out) {
    if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
  }
  return out;
}

// Parses a decimal or 0x-hex number up to `max`; false on bad digits or overflow.
bool parse_number(std::string_view text, uint64_t max, uint64_t* out) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  }
  if (text.empty()) return false;
  uint64_t v = 0;
  for (char c : text) {
    int d;
    if (c >= '0' && c <= '9') {
      d = c - '0';
    } else if (base == 16 && c >= 'a' && c <= 'f') {
      d = c - 'a' + 10;
    } else if (base == 16 && c >= 'A' && c <= 'F') {
      d = c - 'A' + 10;
    } else {
      return false;
    }
    if (v > (max - d) / base) return false;
    v = v * base + d;
  }
  *out = v;
  return true;
}

struct LabelRef {
  size_t inst_index;
  AsmToken token;
};

class Parser {
 public:
  Parser(std::vector<AsmToken> tokens, std::string_view source_name)
      : toks_(std::move(tokens)), name_(source_name) {}

  StatusOr<std::vector<Inst>> parse_program(bool allow_labels) {
    while (peek().kind != Kind::kEnd) {
      if (peek().is(';')) {  // empty statement
        next();
        continue;
      }
      if (peek().kind == Kind::kIdent && peek(1).is(':')) {
        const AsmToken label = next();
        next();
        if (!allow_labels) return err(label, "labels are not allowed here");
        if (!labels_.emplace(std::string(label.text), program_.size()).second) {
          return err(label, fmt::format("label '{}' is defined twice", label.text));
        }
        continue;
      }
      RETURN_IF_ERROR(parse_instruction());
    }
    for (const LabelRef& ref : refs_) {
      auto it = labels_.find(std::string(ref.token.text));
      if (it == labels_.end()) {
        return err(ref.token, fmt::format("undefined label '{}'", ref.token.text));
      }
      if (it->second > UINT32_MAX) return err(ref.token, "label index out of range");
      program_[ref.inst_index].imm = static_cast<uint32_t>(it->second);
    }
    return std::move(program_);
  }

 private:
  // ---- token access ----
  const AsmToken& peek(size_t ahead = 0) const {
    const size_t i = pos_ + ahead;
    return i < toks_.size() ? toks_[i] : toks_.back();
  }
  AsmToken next() {
    const AsmToken t = peek();
    if (pos_ < toks_.size() - 1) ++pos_;
    return t;
  }
  Status err(const AsmToken& at, std::string_view message) const {
    return asm_error(name_, at.line, at.col, message);
  }
  static std::string describe(const AsmToken& t) {
    return t.kind == Kind::kEnd ? "end of input" : fmt::format("'{}'", t.text);
  }
  Status expect(char punct, std::string_view what) {
    if (!peek().is(punct)) {
      return err(peek(), fmt::format("expected '{}' {}, found {}", punct, what, describe(peek())));
    }
    next();
    return ok_status();
  }

  // ---- operand pieces ----
  StatusOr<uint8_t> parse_reg() {
    const AsmToken t = next();
    if (t.kind == Kind::kIdent) {
      const std::string u = upper(t.text);
      if (u == "RZ") return kRZ;
      uint64_t n;
      if (u.size() > 1 && u[0] == 'R' && parse_decimal_index(std::string_view(u).substr(1), &n)) {
        if (n >= static_cast<uint64_t>(kNumGprs)) {
          return err(t, fmt::format("register {} out of range (R0-R{}, RZ)", t.text, kNumGprs - 1));
        }
        return static_cast<uint8_t>(n);
      }
    }
    return err(t, fmt::format("expected a register (R0-R{} or RZ), found {}", kNumGprs - 1,
                              describe(t)));
  }

  // Plain decimal digits without a leading zero (except "0").
  static bool parse_decimal_index(std::string_view s, uint64_t* out) {
    if (s.empty() || s.size() > 4) return false;
    if (s.size() > 1 && s[0] == '0') return false;
    for (char c : s) {
      if (c < '0' || c > '9') return false;
    }
    return parse_number(s, 9999, out);
  }

  StatusOr<uint8_t> parse_pred_name() {
    const AsmToken t = next();
    if (t.kind == Kind::kIdent) {
      const std::string u = upper(t.text);
      if (u == "PT") return kPT;
      uint64_t n;
      if (u.size() > 1 && u[0] == 'P' && parse_decimal_index(std::string_view(u).substr(1), &n) &&
          n < static_cast<uint64_t>(kNumPreds)) {
        return static_cast<uint8_t>(n);
      }
    }
    return err(t, fmt::format("expected a predicate (P0-P{} or PT), found {}", kNumPreds - 1,
                              describe(t)));
  }

  // Optionally negated predicate.
  Status parse_pred(uint8_t* pred, bool* neg) {
    *neg = false;
    if (peek().is('!')) {
      next();
      *neg = true;
    }
    ASSIGN_OR_RETURN(*pred, parse_pred_name());
    return ok_status();
  }

  // ['-'] number -> 32-bit two's complement.
  StatusOr<uint32_t> parse_imm32() {
    bool negative = false;
    const AsmToken start = peek();
    if (peek().is('-')) {
      next();
      negative = true;
    }
    const AsmToken t = next();
    uint64_t v;
    if (t.kind != Kind::kNumber) {
      return err(t, fmt::format("expected an immediate, found {}", describe(t)));
    }
    if (!parse_number(t.text, negative ? 0x80000000ull : 0xffffffffull, &v)) {
      return err(start, fmt::format("invalid or out-of-range 32-bit immediate '{}{}'",
                                    negative ? "-" : "", t.text));
    }
    return static_cast<uint32_t>(negative ? (0 - v) : v);
  }

  Status claim_imm(const AsmToken& at, uint32_t value) {
    if (imm_claimed_ && inst_.imm != value) {
      return err(at, fmt::format("immediate 0x{:x} conflicts with the earlier immediate 0x{:x} "
                                 "(both are held in the one imm field)", value, inst_.imm));
    }
    imm_claimed_ = true;
    inst_.imm = value;
    return ok_status();
  }

  bool at_register_or_ident() const { return peek().kind == Kind::kIdent; }

  // "[Ra]", "[Ra+imm]", "[Ra-imm]", "[imm]".
  Status parse_address() {
    RETURN_IF_ERROR(expect('[', "to open an address"));
    const AsmToken start = peek();
    uint8_t base = kRZ;
    uint32_t offset = 0;
    if (peek().kind == Kind::kIdent) {
      ASSIGN_OR_RETURN(base, parse_reg());
      if (peek().is('+') || peek().is('-')) {
        const bool minus = peek().is('-');
        if (!minus) next();
        ASSIGN_OR_RETURN(offset, parse_imm32());
      }
    } else {
      ASSIGN_OR_RETURN(offset, parse_imm32());
    }
    RETURN_IF_ERROR(expect(']', "to close the address"));
    inst_.ra = base;
    return claim_imm(start, offset);
  }

  Status parse_operand(OperandKind kind) {
    const AsmToken at = peek();
    switch (kind) {
      case OperandKind::kD: {
        ASSIGN_OR_RETURN(inst_.rd, parse_reg());
        return ok_status();
      }
      case OperandKind::kA: {
        if (inst_.op == Opcode::BAR && !at_register_or_ident()) {
          inst_.ra = kRZ;
          ASSIGN_OR_RETURN(uint32_t v, parse_imm32());
          return claim_imm(at, v);
        }
        ASSIGN_OR_RETURN(inst_.ra, parse_reg());
        return ok_status();
      }
      case OperandKind::kB: {
        if (at_register_or_ident()) {
          ASSIGN_OR_RETURN(inst_.rb, parse_reg());
          return ok_status();
        }
        inst_.b_imm = true;
        ASSIGN_OR_RETURN(uint32_t v, parse_imm32());
        return claim_imm(at, v);
      }
      case OperandKind::kC: {
        ASSIGN_OR_RETURN(inst_.rc, parse_reg());
        return ok_status();
      }
      case OperandKind::kPd: {
        ASSIGN_OR_RETURN(inst_.pd, parse_pred_name());
        return ok_status();
      }
      case OperandKind::kPs: return parse_pred(&inst_.ps, &inst_.ps_neg);
      case OperandKind::kPq: {
        uint8_t p;
        bool neg;
        RETURN_IF_ERROR(parse_pred(&p, &neg));
        inst_.rb = p == kPT ? kRZ : p;
        if (neg) inst_.mod |= kModPqNeg;
        return ok_status();
      }
      case OperandKind::kImm: {
        ASSIGN_OR_RETURN(uint32_t v, parse_imm32());
        return claim_imm(at, v);
      }
      case OperandKind::kTarget: {
        if (peek().kind == Kind::kIdent) {
          if (!allow_label_refs_) return err(at, "label targets are not allowed here");
          label_ref_ = next();
          return claim_imm(at, 0);
        }
        uint64_t v;
        const AsmToken t = next();
        if (t.kind != Kind::kNumber || !parse_number(t.text, UINT32_MAX, &v)) {
          return err(t, fmt::format("expected a label or an instruction index, found {}",
                                    describe(t)));
        }
        return claim_imm(at, static_cast<uint32_t>(v));
      }
      case OperandKind::kSpecialReg: {
        const AsmToken t = next();
        const std::string u = upper(t.text);
        for (int i = 0; t.kind == Kind::kIdent && i < static_cast<int>(SpecialReg::kCount); ++i) {
          if (special_reg_name(static_cast<SpecialReg>(i)) == u) {
            inst_.mod = static_cast<uint8_t>(i);
            return ok_status();
          }
        }
        return err(t, fmt::format("expected a special register (SR_TID.X, ...), found {}",
                                  describe(t)));
      }
      case OperandKind::kConvBarrier: {
        const AsmToken t = next();
        uint64_t n;
        const std::string u = upper(t.text);
        if (t.kind == Kind::kIdent && u.size() > 1 && u[0] == 'B' &&
            parse_decimal_index(std::string_view(u).substr(1), &n) &&
            n < static_cast<uint64_t>(kNumConvBarriers)) {
          inst_.mod = static_cast<uint8_t>(n);
          return ok_status();
        }
        return err(t, fmt::format("expected a convergence barrier (B0-B{}), found {}",
                                  kNumConvBarriers - 1, describe(t)));
      }
      case OperandKind::kMemory: return parse_address();
      case OperandKind::kConstBank: {
        const AsmToken t = next();
        if (t.kind != Kind::kIdent || upper(t.text) != "C") {
          return err(t, fmt::format("expected a constant operand c[bank][address], found {}",
                                    describe(t)));
        }
        RETURN_IF_ERROR(expect('[', "after 'c'"));
        const AsmToken bank = next();
        uint64_t v;
        if (bank.kind != Kind::kNumber || !parse_number(bank.text, 255, &v)) {
          return err(bank, fmt::format("expected a constant bank number 0-255, found {}",
                                       describe(bank)));
        }
        inst_.mod = static_cast<uint8_t>(v);
        RETURN_IF_ERROR(expect(']', "after the constant bank"));
        return parse_address();
      }
    }
    return err(at, "unsupported operand kind");
  }

  // ---- modifiers ----
  Status parse_suffix(const AsmToken& at, std::string_view raw) {
    const std::string u = upper(raw);
    auto dup = [&](bool& seen, std::string_view what) -> Status {
      if (seen) return err(at, fmt::format("{} given twice ('.{}')", what, raw));
      seen = true;
      return ok_status();
    };
    DataType type;
    if (type_from_name(lower(raw), &type)) {
      if (types_ == 0) {
        inst_.type = type;
      } else if (types_ == 1) {
        inst_.type2 = type;
      } else {
        return err(at, fmt::format("at most two types are allowed ('.{}')", raw));
      }
      ++types_;
      return ok_status();
    }
    const Opcode op = inst_.op;
    switch (mod_kind(op)) {
      case ModKind::kCompare: {
        CmpOp c;
        BoolOp b;
        if (enum_from_name(u, &c)) {
          RETURN_IF_ERROR(dup(seen_[0], "comparison"));
          inst_.mod = static_cast<uint8_t>((inst_.mod & ~0x0f) | static_cast<uint8_t>(c));
          return ok_status();
        }
        if (enum_from_name(u, &b)) {
          RETURN_IF_ERROR(dup(seen_[1], "boolean operation"));
          inst_.mod = static_cast<uint8_t>((inst_.mod & ~0x30) | (static_cast<uint8_t>(b) << 4));
          return ok_status();
        }
        break;
      }
      case ModKind::kPredLogic: {
        BoolOp b;
        if (enum_from_name(u, &b)) {
          RETURN_IF_ERROR(dup(seen_[1], "boolean operation"));
          inst_.mod = static_cast<uint8_t>((inst_.mod & ~0x30) | (static_cast<uint8_t>(b) << 4));
          return ok_status();
        }
        break;
      }
      case ModKind::kFloat: {
        Round r;
        if (enum_from_name(u, &r)) {
          RETURN_IF_ERROR(dup(seen_[0], "rounding mode"));
          inst_.mod = static_cast<uint8_t>((inst_.mod & ~3) | static_cast<uint8_t>(r));
          return ok_status();
        }
        struct Flag { std::string_view name; uint8_t bit; int slot; };
        for (Flag f : {Flag{"FTZ", kModFtz, 1}, Flag{"SAT", kModSat, 2},
                       Flag{"INT", kModRoundInt, 3}, Flag{"APPROX", kModApprox, 4}}) {
          if (u == f.name) {
            RETURN_IF_ERROR(dup(seen_[f.slot], f.name));
            inst_.mod |= f.bit;
            return ok_status();
          }
        }
        break;
      }
      case ModKind::kFence:
        if (u == "SC") {
          RETURN_IF_ERROR(dup(seen_[0], "SC"));
          inst_.mod |= kModFenceSc;
          return ok_status();
        }
        break;
      case ModKind::kCache:
        if (u == "CG") {
          RETURN_IF_ERROR(dup(seen_[0], "CG"));
          inst_.mod |= kModCacheGlobal;
          return ok_status();
        }
        break;
      case ModKind::kMufu: return parse_enum_suffix<MufuOp>(at, u, raw);
      case ModKind::kPrmt: return parse_enum_suffix<PrmtMode>(at, u, raw);
      case ModKind::kAtom: return parse_enum_suffix<AtomOp>(at, u, raw);
      case ModKind::kVote: return parse_enum_suffix<VoteOp>(at, u, raw);
      case ModKind::kShfl: return parse_enum_suffix<ShflOp>(at, u, raw);
      case ModKind::kBar: return parse_enum_suffix<BarOp>(at, u, raw);
      case ModKind::kNone:
      case ModKind::kSpecialReg:
      case ModKind::kConstBank:
      case ModKind::kConvBarrier: break;
    }
    if (op_info(op).flags & kMemory) return memory_suffix(at, u, raw);
    return err(at, fmt::format("unknown modifier '.{}' for {}", raw, op_info(op).name));
  }

  template <typename E>
  Status parse_enum_suffix(const AsmToken& at, const std::string& u, std::string_view raw) {
    E value;
    if (enum_from_name(u, &value)) {
      if (seen_[0]) return err(at, fmt::format("operation given twice ('.{}')", raw));
      seen_[0] = true;
      inst_.mod = static_cast<uint8_t>(value);
      return ok_status();
    }
    // ATOM's memory modifiers.
    if (op_info(inst_.op).flags & kMemory) return memory_suffix(at, u, raw);
    return err(at, fmt::format("unknown modifier '.{}' for {}", raw, op_info(inst_.op).name));
  }

  Status memory_suffix(const AsmToken& at, const std::string& u, std::string_view raw) {
    MemSpace space;
    MemSem sem;
    MemScope scope;
    auto dup = [&](bool& seen, std::string_view what) -> Status {
      if (seen) return err(at, fmt::format("{} given twice ('.{}')", what, raw));
      seen = true;
      return ok_status();
    };
    if (enum_from_name(u, &space)) {
      RETURN_IF_ERROR(dup(seen_[5], "memory space"));
      inst_.space = space;
      return ok_status();
    }
    if (u == "ACQ_REL") sem = MemSem::RELEASE;
    if (u == "ACQ_REL" || enum_from_name(u, &sem)) {
      RETURN_IF_ERROR(dup(seen_[6], "memory semantics"));
      inst_.sem = sem;
      return ok_status();
    }
    if (enum_from_name(u, &scope)) {
      RETURN_IF_ERROR(dup(seen_[7], "memory scope"));
      inst_.scope = scope;
      return ok_status();
    }
    return err(at, fmt::format("unknown modifier '.{}' for {}", raw, op_info(inst_.op).name));
  }

  Status parse_mnemonic() {
    const AsmToken t = next();
    if (t.kind != Kind::kIdent) {
      return err(t, fmt::format("expected an instruction, found {}", describe(t)));
    }
    std::string_view text = t.text;
    const size_t dot = text.find('.');
    const std::string name = upper(text.substr(0, dot));
    if (!opcode_from_name(name, &inst_.op)) {
      return err(t, fmt::format("unknown instruction '{}'", text.substr(0, dot)));
    }
    std::string_view rest = dot == std::string_view::npos ? "" : text.substr(dot + 1);
    size_t col = dot == std::string_view::npos ? 0 : dot + 1;
    const bool had_suffix = dot != std::string_view::npos;
    while (had_suffix) {
      const size_t d = rest.find('.');
      const std::string_view suffix = rest.substr(0, d);
      AsmToken at = t;
      at.col = t.col + static_cast<int>(col);
      if (suffix.empty()) return err(at, "empty modifier");
      RETURN_IF_ERROR(parse_suffix(at, suffix));
      if (d == std::string_view::npos) break;
      rest.remove_prefix(d + 1);
      col += d + 1;
    }
    const ModKind kind = mod_kind(inst_.op);
    if (kind == ModKind::kCompare && !seen_[0]) {
      return err(t, fmt::format("{} needs a comparison (.EQ, .LT, ...)", name));
    }
    if ((kind == ModKind::kMufu || kind == ModKind::kAtom || kind == ModKind::kVote ||
         kind == ModKind::kShfl) && !seen_[0]) {
      return err(t, fmt::format("{} needs an operation modifier", name));
    }
    return ok_status();
  }

  // "{field=value, yield, ...}"
  Status parse_overrides() {
    next();  // '{'
    std::array<bool, kNumFields> given{};
    while (true) {
      const AsmToken key = next();
      Field f;
      if (key.kind != Kind::kIdent || !field_from_name(key.text, &f)) {
        return err(key, fmt::format("expected an instruction field name, found {}", describe(key)));
      }
      if (f == Field::opcode) return err(key, "the opcode is given by the mnemonic");
      if (given[static_cast<int>(f)]) {
        return err(key, fmt::format("field '{}' given twice", key.text));
      }
      given[static_cast<int>(f)] = true;
      uint64_t value = 1;
      if (peek().is('=')) {
        next();
        const AsmToken v = next();
        const uint64_t max = field_info(f).max_value();
        if (v.is('-') && (f == Field::wbar || f == Field::rbar)) {
          value = kNoDepBarrier;
        } else if (v.kind != Kind::kNumber || !parse_number(v.text, UINT64_MAX, &value)) {
          return err(v, fmt::format("expected a value for '{}', found {}", key.text, describe(v)));
        } else if (value > max) {
          return err(v, fmt::format("value {} does not fit field '{}' ({} bits)", v.text,
                                    key.text, field_info(f).width));
        }
      } else if (f != Field::yield) {
        return err(key, fmt::format("field '{}' needs a value ('{}=...')", key.text, key.text));
      }
      if (f == Field::imm && label_ref_) {
        return err(key, "an imm override conflicts with the label target");
      }
      set_field(inst_, f, value);
      if (peek().is('}')) {
        next();
        return ok_status();
      }
      RETURN_IF_ERROR(expect(',', "or '}' in the field list"));
    }
  }

  Status parse_instruction() {
    inst_ = Inst();
    imm_claimed_ = false;
    types_ = 0;
    seen_ = {};
    label_ref_.reset();
    if (peek().is('@')) {
      next();
      RETURN_IF_ERROR(parse_pred(&inst_.guard, &inst_.guard_neg));
    }
    const AsmToken mnemonic = peek();
    RETURN_IF_ERROR(parse_mnemonic());
    const auto kinds = operand_kinds(inst_.op);
    for (size_t i = 0; i < kinds.size(); ++i) {
      if (i > 0) RETURN_IF_ERROR(expect(',', "between operands"));
      RETURN_IF_ERROR(parse_operand(kinds[i]));
    }
    // An optional trailing immediate when no operand holds imm (BFI's length, ...).
    const bool trailing = kinds.empty() ? (peek().kind == Kind::kNumber || peek().is('-'))
                                        : peek().is(',');
    if (trailing) {
      if (!kinds.empty()) next();
      const AsmToken at = peek();
      if (imm_claimed_) {
        return err(at, fmt::format("too many operands for {} (expected {})",
                                   op_info(inst_.op).name, kinds.size()));
      }
      ASSIGN_OR_RETURN(inst_.imm, parse_imm32());
      if (inst_.imm == 0) return err(at, "a trailing immediate must be non-zero");
      imm_claimed_ = true;
    }
    if (peek().is('{')) RETURN_IF_ERROR(parse_overrides());
    RETURN_IF_ERROR(expect(';', "at the end of the instruction"));
    if (Status s = validate(inst_); !s.ok()) return err(mnemonic, s.message());
    if (label_ref_) refs_.push_back({program_.size(), *label_ref_});
    program_.push_back(inst_);
    return ok_status();
  }

 public:
  bool allow_label_refs_ = true;

 private:
  std::vector<AsmToken> toks_;
  std::string_view name_;
  size_t pos_ = 0;
  std::vector<Inst> program_;
  std::map<std::string, size_t> labels_;
  std::vector<LabelRef> refs_;
  // Per instruction.
  Inst inst_;
  bool imm_claimed_ = false;
  int types_ = 0;
  std::array<bool, 8> seen_{};
  std::optional<AsmToken> label_ref_;
};

}  // namespace

StatusOr<std::vector<Inst>> assemble(std::string_view text, std::string_view source_name) {
  ASSIGN_OR_RETURN(auto tokens, tokenize_asm(text, source_name));
  Parser parser(std::move(tokens), source_name);
  return parser.parse_program(/*allow_labels=*/true);
}

StatusOr<Inst> assemble_instruction(std::string_view text) {
  ASSIGN_OR_RETURN(auto tokens, tokenize_asm(text, "<instruction>"));
  Parser parser(std::move(tokens), "<instruction>");
  parser.allow_label_refs_ = false;
  ASSIGN_OR_RETURN(auto program, parser.parse_program(/*allow_labels=*/false));
  if (program.size() != 1) {
    return error(Code::kInvalidSource,
                 fmt::format("<instruction>: expected exactly one instruction, found {}",
                             program.size()));
  }
  return program[0];
}

}  // namespace strata::isa
