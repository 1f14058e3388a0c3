// CHECK: for Strata's own invariants only. A failed CHECK is a bug in Strata, never a
// user error (user errors are Status values). It prints the location and aborts.
#pragma once

namespace strata::detail {
[[noreturn]] void check_failed(const char* file, int line, const char* expr, const char* msg);
}

#define CHECK(cond)                                                      \
  do {                                                                   \
    if (!(cond)) ::strata::detail::check_failed(__FILE__, __LINE__, #cond, ""); \
  } while (0)
#define CHECK_MSG(cond, msg)                                                \
  do {                                                                      \
    if (!(cond)) ::strata::detail::check_failed(__FILE__, __LINE__, #cond, msg); \
  } while (0)
