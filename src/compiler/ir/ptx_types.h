// PTX type names and sizes as the lowering needs them.
#pragma once

#include <cstdint>
#include <string>

#include "compiler/ptx/ast.h"
#include "isa/inst.h"

namespace strata::compiler::ir {

// "u32" -> U32, "b32" -> B32, "pred" -> Pred, ... false if not a PTX scalar type.
bool ptx_type(const std::string& name, isa::DataType* out);
// Bytes of a PTX scalar type name (0 if unknown).
int ptx_type_bytes(const std::string& name);
// Size and alignment of a declared variable (vector width, array dims, .align).
uint64_t var_size(const ptx::VarDecl& d);
uint64_t var_align(const ptx::VarDecl& d);
// b32 -> U32 (bit types become unsigned for arithmetic), others unchanged.
isa::DataType arith_type(isa::DataType t);
std::string loc_string(const std::string& source, const ptx::SourceLoc& loc);

}  // namespace strata::compiler::ir
