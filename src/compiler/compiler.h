// The compiler's public entry: PTX text in, a Strata binary (sxbin) out.
//
// Several PTX modules (the per-file PTX of an `-rdc=true` build) are parsed, linked
// (resolving .extern/.weak functions and variables across modules) and compiled
// together. Errors: Code::kInvalidPtx with "name:line:col: message" for malformed or
// semantically invalid PTX; Code::kNotSupported naming the construct for valid PTX
// Strata cannot compile yet. Never crashes on bad input. Thread-safe (no global state).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"

namespace strata::compiler {

struct PtxSource {
  std::string name;   // for diagnostics, e.g. "a.cu.ptx" or "fatbin entry 2"
  std::string text;
};

struct CompileOptions {
  int opt_level = 2;          // 0: no optimisation passes
  bool verify_each_pass = false;  // run the IR verifier after every pass (on in debug builds)
};

// Returns the serialized sxbin (see compiler/sxbin/sxbin.h for reading it back).
StatusOr<std::vector<uint8_t>> compile_ptx(const std::vector<PtxSource>& sources,
                                           const CompileOptions& options);

// A hash of the compiler's own code and the ISA table, used in JIT cache keys.
std::string compiler_build_id();

}  // namespace strata::compiler
