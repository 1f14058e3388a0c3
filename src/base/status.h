// Status and StatusOr: the one error type inside Strata.
//
// Every layer returns Status/StatusOr<T>; each public API boundary (CUDA runtime,
// CUDA driver, libraries) maps it once to the enum that API returns. A Status carries a
// code (the closest CUDA driver error, see Code) and a human-readable message that
// names the object and location involved. Strata's own bugs are CHECK failures (check.h),
// never Status values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace strata {

// Codes mirror CUresult values where one exists so that the driver boundary maps them
// 1:1; the runtime maps them through its own table.
enum class Code : int {
  kOk = 0,
  kInvalidValue = 1,
  kOutOfMemory = 2,
  kNotInitialized = 3,
  kDeinitialized = 4,
  kNoDevice = 100,
  kInvalidDevice = 101,
  kInvalidImage = 200,
  kInvalidContext = 201,
  kNoBinaryForGpu = 209,
  kInvalidPtx = 218,
  kUnsupportedPtxVersion = 222,
  kInvalidSource = 300,
  kFileNotFound = 301,
  kInvalidHandle = 400,
  kNotFound = 500,
  kNotReady = 600,
  kIllegalAddress = 700,
  kLaunchOutOfResources = 701,
  kLaunchTimeout = 702,
  kHardwareStackError = 714,
  kIllegalInstruction = 715,
  kMisalignedAddress = 716,
  kInvalidAddressSpace = 717,
  kInvalidPc = 718,
  kLaunchFailed = 719,
  kAssert = 710,
  kNotPermitted = 800,
  kNotSupported = 801,
  kInvalidConfiguration = 9,  // cudaErrorInvalidConfiguration (runtime-only concept)
  kUnknown = 999,
};

const char* code_name(Code code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Code code, std::string message) : code_(code), message_(std::move(message)) {}

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }
  // "kInvalidPtx: kernel.ptx:3:7: unknown opcode 'foo'"
  std::string to_string() const;

 private:
  Code code_ = Code::kOk;
  std::string message_;
};

inline Status ok_status() { return Status(); }
inline Status error(Code code, std::string message) { return Status(code, std::move(message)); }

// Holds either a value or a non-OK Status.
template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(T value) : value_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  StatusOr(Status status) : status_(std::move(status)) {  // NOLINT
    if (status_.ok()) status_ = Status(Code::kUnknown, "StatusOr constructed from OK status");
  }

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T& operator*() & { return *value_; }
  const T& operator*() const& { return *value_; }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }

 private:
  std::optional<T> value_;
  Status status_;
};

}  // namespace strata

#define STRATA_CONCAT_INNER(a, b) a##b
#define STRATA_CONCAT(a, b) STRATA_CONCAT_INNER(a, b)

// Returns the Status from the enclosing function if `expr` is not OK.
#define RETURN_IF_ERROR(expr)                      \
  do {                                             \
    ::strata::Status _strata_status = (expr);      \
    if (!_strata_status.ok()) return _strata_status; \
  } while (0)

// ASSIGN_OR_RETURN(auto x, f()); — declares/assigns `lhs` from a StatusOr or returns.
#define ASSIGN_OR_RETURN(lhs, expr) \
  ASSIGN_OR_RETURN_IMPL(STRATA_CONCAT(_strata_or_, __LINE__), lhs, expr)
#define ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                          \
  if (!tmp.ok()) return tmp.status();         \
  lhs = std::move(tmp).value()
