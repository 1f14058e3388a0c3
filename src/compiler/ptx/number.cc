#include "compiler/ptx/number.h"

#include <bit>
#include <charconv>
#include <cstring>
#include <string>

namespace strata::ptx {
namespace {

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

std::optional<uint64_t> parse_digits(std::string_view digits, unsigned base) {
  if (digits.empty()) return std::nullopt;
  uint64_t value = 0;
  for (char c : digits) {
    unsigned d = static_cast<unsigned>(digit_value(c));
    if (d >= base) return std::nullopt;
    if (value > (UINT64_MAX - d) / base) return std::nullopt;
    value = value * base + d;
  }
  return value;
}

}  // namespace

std::optional<IntLiteral> parse_int_literal(std::string_view text) {
  IntLiteral result;
  if (!text.empty() && (text.back() == 'U' || text.back() == 'u')) {
    result.unsigned_suffix = true;
    text.remove_suffix(1);
  }
  std::optional<uint64_t> value;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    value = parse_digits(text.substr(2), 16);
  } else if (text.size() > 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B')) {
    value = parse_digits(text.substr(2), 2);
  } else if (text.size() > 1 && text[0] == '0') {
    value = parse_digits(text.substr(1), 8);
  } else {
    value = parse_digits(text, 10);
  }
  if (!value) return std::nullopt;
  result.value = *value;
  return result;
}

std::optional<ImmFloat> parse_float_literal(std::string_view text) {
  if (text.size() > 2 && text[0] == '0' &&
      (text[1] == 'f' || text[1] == 'F' || text[1] == 'd' || text[1] == 'D')) {
    bool is_f32 = text[1] == 'f' || text[1] == 'F';
    if (text.size() != (is_f32 ? 10u : 18u)) return std::nullopt;
    std::optional<uint64_t> bits = parse_digits(text.substr(2), 16);
    if (!bits) return std::nullopt;
    return ImmFloat{*bits, is_f32};
  }
  // Decimal: validated by the lexer's shape; std::from_chars does the rounding.
  double value = 0;
  std::string owned(text);
  if (!owned.empty() && owned.back() == '.') owned.push_back('0');
  auto [end, ec] = std::from_chars(owned.data(), owned.data() + owned.size(), value);
  if (end != owned.data() + owned.size()) return std::nullopt;
  if (ec == std::errc::result_out_of_range) {
    // Overflow rounds to infinity and underflow to zero, as a C compiler would.
    bool negative_exponent = owned.find("e-") != std::string::npos ||
                             owned.find("E-") != std::string::npos;
    value = negative_exponent ? 0.0 : __builtin_huge_val();
  } else if (ec != std::errc()) {
    return std::nullopt;
  }
  return ImmFloat{std::bit_cast<uint64_t>(value), false};
}

}  // namespace strata::ptx
