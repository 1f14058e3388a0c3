// Entry points: tensor map encoding for the Tensor Memory Accelerator (cuTensorMapEncodeTiled,
// cuTensorMapReplaceAddress), host side only. The parameters are validated as cuda.h
// documents them and stored in the opaque 128-byte CUtensorMap (a Strata layout: only
// sm_90 TMA instructions would read it, and Strata's devices have none yet). The
// im2col forms are not implemented.
#include <cstring>

#include "cuda/driver/api_util.h"

using namespace strata;
using namespace strata::cuda::driver;

namespace {

constexpr uint32_t kTensorMapMagic = 0x53544d31;  // "STM1"

// Strata's layout of CUtensorMap::opaque (128 bytes).
struct EncodedTensorMap {
  uint32_t magic;
  uint8_t data_type, rank, interleave, swizzle, l2_promotion, oob_fill, pad[2];
  uint64_t address;
  uint64_t dims[5];
  uint64_t strides[4];
  uint16_t box[5];
  uint8_t element_strides[5];
};
static_assert(sizeof(EncodedTensorMap) <= sizeof(CUtensorMap));

// Bits per element of a CUtensorMapDataType, 0 if it is not one. Packed types count the
// memory they take per value (16 x U4 in 8 bytes: 4; in 16 bytes: 8; 16 x U6: 8).
unsigned element_bits(CUtensorMapDataType type) {
  switch (type) {
    case CU_TENSOR_MAP_DATA_TYPE_UINT8:
      return 8;
    case CU_TENSOR_MAP_DATA_TYPE_UINT16:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT16:
    case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16:
      return 16;
    case CU_TENSOR_MAP_DATA_TYPE_UINT32:
    case CU_TENSOR_MAP_DATA_TYPE_INT32:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT32:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ:
    case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32:
    case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ:
      return 32;
    case CU_TENSOR_MAP_DATA_TYPE_UINT64:
    case CU_TENSOR_MAP_DATA_TYPE_INT64:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT64:
      return 64;
    case CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B:
      return 4;
    case CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B:
    case CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B:
      return 8;
    default:
      return 0;
  }
}

bool is_float(CUtensorMapDataType type) {
  switch (type) {
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT16:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT32:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT64:
    case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16:
    case CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ:
    case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32:
    case CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ:
      return true;
    default:
      return false;
  }
}

bool packed_16b(CUtensorMapDataType type) {
  return type == CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B ||
         type == CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B;
}

// The global address alignment the data type and interleave need.
uint64_t address_alignment(CUtensorMapDataType type, CUtensorMapInterleave interleave) {
  return interleave == CU_TENSOR_MAP_INTERLEAVE_32B || packed_16b(type) ? 32 : 16;
}

Status invalid(const std::string& what) {
  return error(Code::kInvalidValue, "cuTensorMapEncodeTiled: " + what);
}

}  // namespace

CUresult CUDAAPI cuTensorMapEncodeTiled(
    CUtensorMap* tensorMap, CUtensorMapDataType tensorDataType, cuuint32_t tensorRank,
    void* globalAddress, const cuuint64_t* globalDim, const cuuint64_t* globalStrides,
    const cuuint32_t* boxDim, const cuuint32_t* elementStrides, CUtensorMapInterleave interleave,
    CUtensorMapSwizzle swizzle, CUtensorMapL2promotion l2Promotion,
    CUtensorMapFloatOOBfill oobFill) {
  return api_call("cuTensorMapEncodeTiled", [&]() -> Status {
    if (tensorMap == nullptr || globalDim == nullptr || boxDim == nullptr ||
        elementStrides == nullptr || (tensorRank > 1 && globalStrides == nullptr)) {
      return null_arg("cuTensorMapEncodeTiled",
                      "tensorMap, globalDim, globalStrides, boxDim "
                      "or elementStrides");
    }
    RETURN_IF_ERROR(checked_current_context().status());
    if (reinterpret_cast<uintptr_t>(tensorMap) % 64 != 0) {
      return invalid("tensorMap must be 64-byte aligned");
    }
    const unsigned bits = element_bits(tensorDataType);
    if (bits == 0) return invalid(fmt::format("data type {}", static_cast<int>(tensorDataType)));
    if (interleave < CU_TENSOR_MAP_INTERLEAVE_NONE || interleave > CU_TENSOR_MAP_INTERLEAVE_32B) {
      return invalid(fmt::format("interleave {}", static_cast<int>(interleave)));
    }
    if (swizzle < CU_TENSOR_MAP_SWIZZLE_NONE || swizzle > CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B) {
      return invalid(fmt::format("swizzle {}", static_cast<int>(swizzle)));
    }
    if (l2Promotion < CU_TENSOR_MAP_L2_PROMOTION_NONE ||
        l2Promotion > CU_TENSOR_MAP_L2_PROMOTION_L2_256B) {
      return invalid(fmt::format("L2 promotion {}", static_cast<int>(l2Promotion)));
    }
    if (oobFill != CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE &&
        (oobFill != CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA ||
         !is_float(tensorDataType))) {
      return invalid(fmt::format("OOB fill {} (NaN fill needs a floating-point type)",
                                 static_cast<int>(oobFill)));
    }
    if (tensorRank == 0 || tensorRank > 5 ||
        (interleave != CU_TENSOR_MAP_INTERLEAVE_NONE && tensorRank < 3)) {
      return invalid(fmt::format("rank {} (1..5; 3..5 when interleaved)", tensorRank));
    }
    const uint64_t align = address_alignment(tensorDataType, interleave);
    if (reinterpret_cast<uintptr_t>(globalAddress) % align != 0) {
      return invalid(
          fmt::format("global address {} is not {}-byte aligned", fmt::ptr(globalAddress), align));
    }
    for (cuuint32_t i = 0; i < tensorRank; ++i) {
      if (globalDim[i] == 0 || globalDim[i] > (uint64_t{1} << 32)) {
        return invalid(fmt::format("globalDim[{}] = {} (1..2^32)", i, globalDim[i]));
      }
      if (boxDim[i] == 0 || boxDim[i] > 256) {
        return invalid(fmt::format("boxDim[{}] = {} (1..256)", i, boxDim[i]));
      }
      if (elementStrides[i] == 0 || elementStrides[i] > 8) {
        return invalid(fmt::format("elementStrides[{}] = {} (1..8)", i, elementStrides[i]));
      }
    }
    if (packed_16b(tensorDataType) && (globalDim[0] % 128 != 0 || boxDim[0] != 128)) {
      return invalid("packed 16-byte types need globalDim[0] a multiple of 128 and boxDim[0] 128");
    }
    if (tensorDataType == CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B && globalDim[0] % 2 != 0) {
      return invalid("CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B needs an even globalDim[0]");
    }
    const uint64_t stride_unit = align == 32 ? 32 : 16;
    for (cuuint32_t i = 0; i + 1 < tensorRank; ++i) {
      if (globalStrides[i] % stride_unit != 0 || globalStrides[i] >= (uint64_t{1} << 40)) {
        return invalid(fmt::format("globalStrides[{}] = {} (a multiple of {} below 2^40)", i,
                                   globalStrides[i], stride_unit));
      }
    }
    const uint64_t inner_bytes = (uint64_t{boxDim[0]} * bits + 7) / 8;
    if (interleave == CU_TENSOR_MAP_INTERLEAVE_NONE) {
      if (inner_bytes % 16 != 0) {
        return invalid(fmt::format("boxDim[0] spans {} bytes (a multiple of 16)", inner_bytes));
      }
      const uint64_t span = swizzle == CU_TENSOR_MAP_SWIZZLE_NONE  ? 0
                            : swizzle == CU_TENSOR_MAP_SWIZZLE_32B ? 32
                            : swizzle == CU_TENSOR_MAP_SWIZZLE_64B ? 64
                                                                   : 128;
      if (span != 0 && inner_bytes > span) {
        return invalid(fmt::format("boxDim[0] spans {} bytes, more than the {}-byte swizzle",
                                   inner_bytes, span));
      }
    }
    if (interleave == CU_TENSOR_MAP_INTERLEAVE_32B && swizzle != CU_TENSOR_MAP_SWIZZLE_32B) {
      return invalid("CU_TENSOR_MAP_INTERLEAVE_32B needs CU_TENSOR_MAP_SWIZZLE_32B");
    }
    if (tensorDataType == CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B &&
        interleave != CU_TENSOR_MAP_INTERLEAVE_NONE) {
      return invalid("CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B needs CU_TENSOR_MAP_INTERLEAVE_NONE");
    }
    if (packed_16b(tensorDataType) && swizzle != CU_TENSOR_MAP_SWIZZLE_NONE &&
        swizzle != CU_TENSOR_MAP_SWIZZLE_128B && swizzle != CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B &&
        !(tensorDataType == CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B &&
          swizzle == CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B)) {
      return invalid(fmt::format("swizzle {} is not available for packed type {}",
                                 static_cast<int>(swizzle), static_cast<int>(tensorDataType)));
    }
    EncodedTensorMap e{};
    e.magic = kTensorMapMagic;
    e.data_type = static_cast<uint8_t>(tensorDataType);
    e.rank = static_cast<uint8_t>(tensorRank);
    e.interleave = static_cast<uint8_t>(interleave);
    e.swizzle = static_cast<uint8_t>(swizzle);
    e.l2_promotion = static_cast<uint8_t>(l2Promotion);
    e.oob_fill = static_cast<uint8_t>(oobFill);
    e.address = reinterpret_cast<uintptr_t>(globalAddress);
    for (cuuint32_t i = 0; i < tensorRank; ++i) {
      e.dims[i] = globalDim[i];
      e.box[i] = static_cast<uint16_t>(boxDim[i]);
      e.element_strides[i] = static_cast<uint8_t>(elementStrides[i]);
      if (i + 1 < tensorRank) e.strides[i] = globalStrides[i];
    }
    std::memset(tensorMap, 0, sizeof(*tensorMap));
    std::memcpy(tensorMap, &e, sizeof e);
    return ok_status();
  });
}

CUresult CUDAAPI cuTensorMapReplaceAddress(CUtensorMap* tensorMap, void* globalAddress) {
  return api_call("cuTensorMapReplaceAddress", [&]() -> Status {
    if (tensorMap == nullptr) return null_arg("cuTensorMapReplaceAddress", "tensorMap");
    EncodedTensorMap e;
    std::memcpy(&e, tensorMap, sizeof e);
    if (e.magic != kTensorMapMagic) {
      return error(Code::kInvalidValue,
                   "cuTensorMapReplaceAddress: not a tensor map from cuTensorMapEncodeTiled");
    }
    const uint64_t align = address_alignment(static_cast<CUtensorMapDataType>(e.data_type),
                                             static_cast<CUtensorMapInterleave>(e.interleave));
    if (reinterpret_cast<uintptr_t>(globalAddress) % align != 0) {
      return error(Code::kInvalidValue,
                   fmt::format("cuTensorMapReplaceAddress: {} is not {}-byte aligned",
                               fmt::ptr(globalAddress), align));
    }
    e.address = reinterpret_cast<uintptr_t>(globalAddress);
    std::memcpy(tensorMap, &e, sizeof e);
    return ok_status();
  });
}
