// The host half of device printf: turns one FIFO record (format string + packed
// argument bytes, layout in compiler/sxbin/printf_layout.h) into the text C printf
// would produce. Pure; thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace strata::cuda::driver {

// Reads a NUL-terminated string at a device VA (for %s); nullopt when it cannot.
using DeviceStringReader = std::function<std::optional<std::string>(uint64_t va)>;

// Formats `format` with the arguments in `args`, as C printf does: every conversion of
// printf_layout.h with its flags, width, precision and length modifier, '%%', '*'
// widths. Arguments missing from `args` (a short record) print as "<missing>"; %s of a
// null pointer prints "(null)", of an unreadable one "<bad string>"; %n prints nothing;
// malformed specs print verbatim.
std::string format_device_printf(std::string_view format, std::span<const uint8_t> args,
                                 const DeviceStringReader& read_string);

}  // namespace strata::cuda::driver
