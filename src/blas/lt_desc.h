// cuBLASLt descriptors: matrix layouts, matmul descriptors, matmul preferences, matrix
// transform descriptors and emulation descriptors. Each lives inside NVIDIA's opaque
// struct (cublasLt*Opaque_t), which *Create allocates and *Init_internal fills in storage
// the program owns, so the state is plain data of a bounded size and holds no pointer to
// library memory. A magic word marks initialised storage. Attributes are set and read
// through one table per descriptor kind (lt_desc.def): its field, so its size.
#pragma once

#include <cublasLt.h>

#include <cstddef>
#include <cstdint>

namespace strata::blas {

// Magic words of initialised descriptors, one per kind.
inline constexpr uint64_t kLayoutMagic = 0x53544c54'4c41594full;         // "STLTLAYO"
inline constexpr uint64_t kMatmulDescMagic = 0x53544c54'4d41544dull;     // "STLTMATM"
inline constexpr uint64_t kPreferenceMagic = 0x53544c54'50524546ull;     // "STLTPREF"
inline constexpr uint64_t kTransformDescMagic = 0x53544c54'5452414eull;  // "STLTTRAN"
inline constexpr uint64_t kEmulationDescMagic = 0x53544c54'454d554cull;  // "STLTEMUL"

struct LayoutState {
  uint64_t magic;
  uint32_t type;  // cudaDataType
  int32_t order;  // cublasLtOrder_t
  uint64_t rows;
  uint64_t cols;
  int64_t ld;
  int32_t batch_count;
  uint32_t batch_mode;  // cublasLtBatchMode_t
  int64_t strided_batch_offset;
  int64_t plane_offset;
};
static_assert(sizeof(LayoutState) <= sizeof(cublasLtMatrixLayoutOpaque_t));

struct MatmulDescState {
  uint64_t magic;
  int32_t compute_type;  // cublasComputeType_t
  int32_t scale_type;    // cudaDataType
  int32_t pointer_mode;  // cublasLtPointerMode_t
  int32_t transa, transb, transc;
  int32_t fill_mode;
  uint32_t epilogue;  // cublasLtEpilogue_t
  const void* bias;
  int64_t bias_batch_stride;
  void* aux;
  int64_t aux_ld;
  int64_t aux_batch_stride;
  int64_t alpha_vector_batch_stride;
  int32_t sm_count_target;
  int32_t aux_data_type;
  const void* a_scale;
  const void* b_scale;
  const void* c_scale;
  const void* d_scale;
  void* amax_d;
  void* aux_scale;
  void* aux_amax;
  int8_t fast_accum;
  int32_t bias_data_type;
  int32_t a_scale_mode, b_scale_mode, c_scale_mode, d_scale_mode, aux_scale_mode;
  void* d_out_scale;
  int32_t d_out_scale_mode;
  cublasLtEmulationDesc_t emulation;
};
static_assert(sizeof(MatmulDescState) <= sizeof(cublasLtMatmulDescOpaque_t));

struct PreferenceState {
  uint64_t magic;
  uint32_t search_mode;  // cublasLtMatmulSearch_t
  uint32_t reduction_scheme_mask;
  uint64_t max_workspace_bytes;
  uint32_t min_alignment_a, min_alignment_b, min_alignment_c, min_alignment_d;
  float max_waves;
  uint64_t impl_mask;
};
static_assert(sizeof(PreferenceState) <= sizeof(cublasLtMatmulPreferenceOpaque_t));

struct TransformDescState {
  uint64_t magic;
  int32_t scale_type;
  int32_t pointer_mode;
  int32_t transa, transb;
};
static_assert(sizeof(TransformDescState) <= sizeof(cublasLtMatrixTransformDescOpaque_t));

struct EmulationDescState {
  uint64_t magic;
  int32_t strategy;        // cublasEmulationStrategy_t
  int32_t special_values;  // cudaEmulationSpecialValuesSupport
  int32_t mantissa_control;
  int32_t max_mantissa_bits;
  int32_t mantissa_bit_offset;
  int32_t* mantissa_bit_count;
};
static_assert(sizeof(EmulationDescState) <= sizeof(cublasLtEmulationDescOpaque_t));

// The state in initialised storage, or null (a null pointer or storage no *Create or
// *Init_internal initialised).
LayoutState* layout_of(cublasLtMatrixLayout_t desc);
MatmulDescState* matmul_desc_of(cublasLtMatmulDesc_t desc);
PreferenceState* preference_of(cublasLtMatmulPreference_t desc);
TransformDescState* transform_desc_of(cublasLtMatrixTransformDesc_t desc);
EmulationDescState* emulation_desc_of(cublasLtEmulationDesc_t desc);

}  // namespace strata::blas
