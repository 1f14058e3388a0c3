#include "cuda/driver/printf_format.h"

#include <cstdio>
#include <cstring>
#include <vector>

#include "compiler/sxbin/printf_layout.h"

namespace strata::cuda::driver {
namespace {

template <typename T>
bool read_arg(std::span<const uint8_t> args, int64_t offset, T* out) {
  if (offset < 0 || static_cast<uint64_t>(offset) + sizeof(T) > args.size()) return false;
  std::memcpy(out, args.data() + offset, sizeof(T));
  return true;
}

// snprintf into a std::string (the spec was validated by the parser).
template <typename... A>
std::string c_format(const std::string& spec, A... values) {
  int n = std::snprintf(nullptr, 0, spec.c_str(), values...);
  if (n <= 0) return {};
  std::string out(static_cast<size_t>(n) + 1, '\0');
  std::snprintf(out.data(), out.size(), spec.c_str(), values...);
  out.resize(static_cast<size_t>(n));
  return out;
}

// Formats one value with `spec` (the C spec with '*' replaced by numbers).
std::string format_one(const std::string& spec, const sxbin::PrintfSpec& s, int64_t offset,
                       std::span<const uint8_t> args, const DeviceStringReader& read_string) {
  char c = s.conversion;
  if (c == 'n') return {};
  if (s.value_bytes == 8) {
    uint64_t bits;
    if (!read_arg(args, offset, &bits)) return "<missing>";
    if (c == 'f' || c == 'F' || c == 'e' || c == 'E' || c == 'g' || c == 'G' || c == 'a' ||
        c == 'A') {
      double d;
      std::memcpy(&d, &bits, sizeof d);
      // long double specs (%Lf) get a long double; the device passes a double.
      if (spec.find('L') != std::string::npos) return c_format(spec, static_cast<long double>(d));
      return c_format(spec, d);
    }
    if (c == 's') {
      if (bits == 0) return c_format(spec, "(null)");
      std::optional<std::string> text = read_string(bits);
      return c_format(spec, text ? text->c_str() : "<bad string>");
    }
    if (c == 'p') return c_format(spec, reinterpret_cast<void*>(static_cast<uintptr_t>(bits)));
    // 64-bit integer: format with the 'll' length whatever the spec said (l, j, z, ...).
    std::string ll = spec;
    size_t first = ll.find_first_of("hlLqjzt");
    ll = ll.substr(0, first) + "ll" + c;
    return c_format(ll, static_cast<long long>(bits));
  }
  uint32_t bits;
  if (!read_arg(args, offset, &bits)) return "<missing>";
  // h / hh apply to the promoted int exactly as C printf does.
  return c_format(spec, bits);
}

}  // namespace

std::string format_device_printf(std::string_view format, std::span<const uint8_t> args,
                                 const DeviceStringReader& read_string) {
  std::vector<sxbin::PrintfSpec> specs = sxbin::parse_printf_format(format);
  uint64_t total = 0;
  std::vector<sxbin::PrintfArgOffsets> offsets = sxbin::layout_printf_args(specs, &total);
  std::string out;
  size_t pos = 0;
  for (size_t k = 0; k < specs.size(); ++k) {
    const sxbin::PrintfSpec& s = specs[k];
    size_t start = static_cast<size_t>(s.text.data() - format.data());
    out.append(format.substr(pos, start - pos));
    pos = start + s.text.size();
    if (s.conversion == '%') {
      out.push_back('%');
      continue;
    }
    if (s.conversion == 0) {
      out.append(s.text);
      continue;
    }
    // Replace '*' by the argument values so that snprintf needs only the value.
    std::string spec;
    bool missing = false;
    int star = 0;
    for (char ch : s.text) {
      if (ch != '*') {
        spec.push_back(ch);
        continue;
      }
      int32_t v = 0;
      int64_t off = star++ == 0 && s.width_star ? offsets[k].width : offsets[k].precision;
      if (!read_arg(args, off, &v)) missing = true;
      if (v < 0 && off == offsets[k].precision) {
        // A negative precision is taken as if it were omitted: drop ".<n>".
        spec.pop_back();
        continue;
      }
      spec += std::to_string(v);
    }
    if (missing) {
      out.append("<missing>");
      continue;
    }
    out.append(format_one(spec, s, offsets[k].value, args, read_string));
  }
  out.append(format.substr(pos));
  return out;
}

}  // namespace strata::cuda::driver
