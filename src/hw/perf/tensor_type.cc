#include "hw/perf/tensor_type.h"

namespace strata::hw::perf {

bool tensor_type_of(isa::MmaFormat format, TensorType* out) {
  switch (format) {
    case isa::MmaFormat::F16:
    case isa::MmaFormat::BF16:
      *out = TensorType::kF16;
      return true;
    case isa::MmaFormat::TF32:
      *out = TensorType::kTf32;
      return true;
    case isa::MmaFormat::S8:
    case isa::MmaFormat::U8:
      *out = TensorType::kI8;
      return true;
    case isa::MmaFormat::S4:
    case isa::MmaFormat::U4:
      *out = TensorType::kI4;
      return true;
    case isa::MmaFormat::F64:
      *out = TensorType::kF64;
      return true;
    case isa::MmaFormat::E4M3:
    case isa::MmaFormat::E5M2:
      *out = TensorType::kF8;
      return true;
    default:
      return false;
  }
}

}  // namespace strata::hw::perf
