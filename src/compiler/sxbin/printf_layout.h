// Device printf's argument-buffer layout: how a C format string's conversions map to
// the packed argument bytes nvcc passes to vprintf(format, args).
//
// nvcc packs each argument after the default promotions (char/short -> int, float ->
// double) at the next offset aligned to its size: 4 bytes for int-sized integers
// (%d %i %u %x %X %o %c and a '*' width or precision), 8 bytes for doubles (%f %F %e %E
// %g %G %a %A), 64-bit integers (%ld %lld %lu %llu %jd %zu %td ...) and pointers (%s %p
// %n). The compiler uses this to size a printf record (it copies exactly
// argument_bytes() bytes); the driver's host formatter walks the same specs to read
// them back. Header-only so that both sides share one definition. Pure functions.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace strata::sxbin {

// One conversion of a format string ("%-08.3lld"). `text` is the whole spec including
// the leading '%'; '%%' is a conversion with no arguments.
struct PrintfSpec {
  std::string_view text;
  char conversion = 0;        // 'd', 'f', 's', '%', ...; 0: malformed (printed as text)
  bool width_star = false;    // '*' width: an int argument before the value
  bool precision_star = false;
  int value_bytes = 0;        // 0 (no value: '%%' or malformed), 4 or 8
};

// Splits `format` into its conversion specs (literal text is what lies between them).
// A spec runs from '%' through flags [-+ #0'], width, precision, length modifiers
// (hh h l ll L q j z t) and a conversion character; an unknown conversion character or
// a spec cut off by the end of the string is malformed (conversion 0, no arguments).
inline std::vector<PrintfSpec> parse_printf_format(std::string_view format) {
  std::vector<PrintfSpec> specs;
  size_t i = 0;
  while ((i = format.find('%', i)) != std::string_view::npos) {
    size_t start = i++;
    PrintfSpec spec;
    auto at = [&](size_t k) { return k < format.size() ? format[k] : '\0'; };
    while (std::string_view("-+ #0'").find(at(i)) != std::string_view::npos && at(i) != '\0') ++i;
    if (at(i) == '*') {
      spec.width_star = true;
      ++i;
    }
    while (at(i) >= '0' && at(i) <= '9') ++i;
    if (at(i) == '.') {
      ++i;
      if (at(i) == '*') {
        spec.precision_star = true;
        ++i;
      }
      while (at(i) >= '0' && at(i) <= '9') ++i;
    }
    int longs = 0;
    bool wide = false;
    while (std::string_view("hlLqjzt").find(at(i)) != std::string_view::npos && at(i) != '\0') {
      char m = at(i++);
      if (m == 'l') ++longs;
      if (m == 'L' || m == 'q' || m == 'j' || m == 'z' || m == 't') wide = true;
    }
    char c = at(i);
    if (c != '\0') ++i;
    spec.text = format.substr(start, i - start);
    switch (c) {
      case '%': spec.conversion = '%'; break;
      case 'd': case 'i': case 'u': case 'x': case 'X': case 'o':
        spec.conversion = c;
        spec.value_bytes = longs > 0 || wide ? 8 : 4;
        break;
      case 'c':  // int, or wint_t for %lc: 4 bytes either way
        spec.conversion = c;
        spec.value_bytes = 4;
        break;
      case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
      case 's': case 'p': case 'n':
        spec.conversion = c;
        spec.value_bytes = 8;
        break;
      default:
        spec.conversion = 0;
        spec.width_star = spec.precision_star = false;
        break;
    }
    specs.push_back(spec);
  }
  return specs;
}

// Offsets of each argument a spec consumes, in order: width, precision, value.
struct PrintfArgOffsets {
  int64_t width = -1, precision = -1, value = -1;  // -1: not consumed
};

// Lays the specs' arguments out as nvcc packs them; returns the offsets per spec and
// sets *total to the buffer's size in bytes.
inline std::vector<PrintfArgOffsets> layout_printf_args(const std::vector<PrintfSpec>& specs,
                                                        uint64_t* total) {
  std::vector<PrintfArgOffsets> out;
  uint64_t off = 0;
  auto place = [&](uint64_t bytes) {
    off = (off + bytes - 1) / bytes * bytes;
    uint64_t at = off;
    off += bytes;
    return static_cast<int64_t>(at);
  };
  for (const PrintfSpec& s : specs) {
    PrintfArgOffsets o;
    if (s.width_star) o.width = place(4);
    if (s.precision_star) o.precision = place(4);
    if (s.value_bytes > 0) o.value = place(static_cast<uint64_t>(s.value_bytes));
    out.push_back(o);
  }
  *total = off;
  return out;
}

// The size of the argument buffer for `format`.
inline uint64_t printf_argument_bytes(std::string_view format) {
  uint64_t total = 0;
  layout_printf_args(parse_printf_format(format), &total);
  return total;
}

// The number of arguments `format` consumes ('*' widths and precisions count): what
// CUDA's device printf returns.
inline uint32_t printf_argument_count(std::string_view format) {
  uint32_t n = 0;
  for (const PrintfSpec& s : parse_printf_format(format))
    n += (s.width_star ? 1 : 0) + (s.precision_star ? 1 : 0) + (s.value_bytes > 0 ? 1 : 0);
  return n;
}

}  // namespace strata::sxbin
