#include "compiler/ir/ptx_types.h"

#include <fmt/format.h>

namespace strata::compiler::ir {

using isa::DataType;

bool ptx_type(const std::string& n, DataType* out) {
  static const std::pair<const char*, DataType> kTable[] = {
      {"u8", DataType::U8},   {"s8", DataType::S8},     {"u16", DataType::U16},
      {"s16", DataType::S16}, {"u32", DataType::U32},   {"s32", DataType::S32},
      {"u64", DataType::U64}, {"s64", DataType::S64},   {"f16", DataType::F16},
      {"bf16", DataType::BF16}, {"f32", DataType::F32}, {"f64", DataType::F64},
      {"b8", DataType::B8},   {"b16", DataType::B16},   {"b32", DataType::B32},
      {"b64", DataType::B64}, {"b128", DataType::B128}, {"pred", DataType::Pred},
      {"f16x2", DataType::B32}, {"bf16x2", DataType::B32},
  };
  for (auto& [name, t] : kTable)
    if (n == name) {
      *out = t;
      return true;
    }
  return false;
}

int ptx_type_bytes(const std::string& name) {
  // Opaque texture/sampler/surface references hold a 64-bit handle (unified mode).
  if (name == "texref" || name == "surfref" || name == "samplerref") return 8;
  DataType t;
  if (!ptx_type(name, &t)) return 0;
  if (t == DataType::Pred) return 1;
  return isa::type_bits(t) / 8;
}

uint64_t var_size(const ptx::VarDecl& d) {
  uint64_t n = static_cast<uint64_t>(ptx_type_bytes(d.type)) * static_cast<uint64_t>(d.vector_width);
  for (int64_t dim : d.dims) {
    if (dim < 0) return 0;
    if (dim == 0) return 0;
    if (n > (uint64_t{1} << 40) / static_cast<uint64_t>(dim)) return uint64_t{1} << 41;
    n *= static_cast<uint64_t>(dim);
  }
  return n;
}

uint64_t var_align(const ptx::VarDecl& d) {
  if (d.align > 0) return static_cast<uint64_t>(d.align);
  uint64_t a = static_cast<uint64_t>(ptx_type_bytes(d.type)) * static_cast<uint64_t>(d.vector_width);
  return a ? a : 1;
}

DataType arith_type(DataType t) {
  switch (t) {
    case DataType::B8: return DataType::U8;
    case DataType::B16: return DataType::U16;
    case DataType::B32: return DataType::U32;
    case DataType::B64: return DataType::U64;
    default: return t;
  }
}

std::string loc_string(const std::string& source, const ptx::SourceLoc& loc) {
  return fmt::format("{}:{}:{}", source, loc.line, loc.col);
}

}  // namespace strata::compiler::ir
