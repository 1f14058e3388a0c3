// cuBLASLt descriptor entry points (cublasLt.h): Create / Destroy / *Init_internal /
// SetAttribute / GetAttribute for matrix layouts, matmul descriptors, matmul preferences,
// matrix transform descriptors and emulation descriptors. Attribute sizes come from the
// single table lt_desc.def.
#include <cublasLt.h>

#include <cstddef>
#include <cstring>
#include <new>

#include "blas/lt_desc.h"
#include "blas/status.h"

namespace strata::blas {
namespace {

enum class Kind { kLayout, kMatmulDesc, kPreference, kTransformDesc, kEmulationDesc };

struct AttrInfo {
  Kind kind;
  int attr;
  const char* name;
  size_t offset;
  size_t size;
};

constexpr AttrInfo kAttrs[] = {
#define STRATA_LT_ATTR(kind, enumerator, field)                          \
  {Kind::k##kind, enumerator, #enumerator, offsetof(kind##State, field), \
   sizeof(kind##State::field)},
#include "blas/lt_desc.def"
#undef STRATA_LT_ATTR
};

const AttrInfo* find_attr(Kind kind, int attr) {
  for (const AttrInfo& a : kAttrs)
    if (a.kind == kind && a.attr == attr) return &a;
  return nullptr;
}

cublasStatus_t set_attr(const char* function, Kind kind, void* state, int attr, const void* buf,
                        size_t size) {
  if (state == nullptr) return invalid(function, "the descriptor is null or not initialised");
  const AttrInfo* a = find_attr(kind, attr);
  if (a == nullptr) return invalid(function, "attribute {} is not one of this descriptor's", attr);
  if (buf == nullptr) return invalid(function, "{}: buf is null", a->name);
  if (size != a->size)
    return invalid(function, "{} takes {} bytes, not sizeInBytes = {}", a->name, a->size, size);
  std::memcpy(static_cast<char*>(state) + a->offset, buf, size);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t get_attr(const char* function, Kind kind, const void* state, int attr, void* buf,
                        size_t size, size_t* size_written) {
  if (state == nullptr) return invalid(function, "the descriptor is null or not initialised");
  const AttrInfo* a = find_attr(kind, attr);
  if (a == nullptr) return invalid(function, "attribute {} is not one of this descriptor's", attr);
  if (size == 0) {
    // A size query.
    if (size_written == nullptr)
      return invalid(function, "{}: sizeInBytes 0 and sizeWritten null", a->name);
    *size_written = a->size;
    return CUBLAS_STATUS_SUCCESS;
  }
  if (buf == nullptr) return invalid(function, "{}: buf is null", a->name);
  if (size != a->size)
    return invalid(function, "{} takes {} bytes, not sizeInBytes = {}", a->name, a->size, size);
  std::memcpy(buf, static_cast<const char*>(state) + a->offset, size);
  if (size_written != nullptr) *size_written = a->size;
  return CUBLAS_STATUS_SUCCESS;
}

// Initialises the state in `storage` of `size` bytes (ALLOC_FAILED when too small).
template <typename State>
cublasStatus_t init_state(const char* function, void* storage, size_t size, const State& state) {
  if (storage == nullptr) return invalid(function, "the descriptor storage is null");
  if (size < sizeof(State))
    return fail(CUBLAS_STATUS_ALLOC_FAILED, function, "{} bytes of storage, {} needed", size,
                sizeof(State));
  std::memset(storage, 0, size);
  std::memcpy(storage, &state, sizeof(State));
  return CUBLAS_STATUS_SUCCESS;
}

// Allocates an Opaque struct and initialises it.
template <typename Opaque, typename State, typename Handle>
cublasStatus_t create(const char* function, Handle* out, const State& state) {
  if (out == nullptr) return invalid(function, "the output pointer is null");
  auto* storage = new (std::nothrow) Opaque;
  if (storage == nullptr) return fail(CUBLAS_STATUS_ALLOC_FAILED, function, "out of host memory");
  const cublasStatus_t s = init_state(function, storage, sizeof(Opaque), state);
  if (s != CUBLAS_STATUS_SUCCESS) {
    delete storage;
    return s;
  }
  *out = storage;
  return CUBLAS_STATUS_SUCCESS;
}

// Destroying null is a no-op; anything else must be a live descriptor.
template <typename Opaque, typename State>
cublasStatus_t destroy(const char* function, Opaque* desc, State* state) {
  if (desc == nullptr) return CUBLAS_STATUS_SUCCESS;
  if (state == nullptr)
    return invalid(function, "{} is not a live descriptor", static_cast<void*>(desc));
  state->magic = 0;
  delete desc;
  return CUBLAS_STATUS_SUCCESS;
}

LayoutState layout_defaults(cudaDataType type, uint64_t rows, uint64_t cols, int64_t ld) {
  LayoutState s{};
  s.magic = kLayoutMagic;
  s.type = static_cast<uint32_t>(type);
  s.order = CUBLASLT_ORDER_COL;
  s.rows = rows, s.cols = cols, s.ld = ld;
  s.batch_count = 1;
  s.batch_mode = CUBLASLT_BATCH_MODE_STRIDED;
  return s;
}

MatmulDescState matmul_defaults(cublasComputeType_t compute, cudaDataType_t scale) {
  MatmulDescState s{};
  s.magic = kMatmulDescMagic;
  s.compute_type = compute;
  s.scale_type = scale;
  s.pointer_mode = CUBLASLT_POINTER_MODE_HOST;
  s.transa = s.transb = s.transc = CUBLAS_OP_N;
  s.fill_mode = CUBLAS_FILL_MODE_FULL;
  s.epilogue = CUBLASLT_EPILOGUE_DEFAULT;
  s.aux_data_type = -1;
  s.bias_data_type = -1;
  return s;
}

PreferenceState preference_defaults() {
  PreferenceState s{};
  s.magic = kPreferenceMagic;
  s.search_mode = CUBLASLT_SEARCH_BEST_FIT;
  s.reduction_scheme_mask = CUBLASLT_REDUCTION_SCHEME_MASK;
  s.min_alignment_a = s.min_alignment_b = s.min_alignment_c = s.min_alignment_d = 256;
  s.impl_mask = ~uint64_t{0};
  return s;
}

TransformDescState transform_defaults(cudaDataType scale) {
  TransformDescState s{};
  s.magic = kTransformDescMagic;
  s.scale_type = scale;
  s.pointer_mode = CUBLASLT_POINTER_MODE_HOST;
  s.transa = s.transb = CUBLAS_OP_N;
  return s;
}

EmulationDescState emulation_defaults() {
  EmulationDescState s{};
  s.magic = kEmulationDescMagic;
  s.strategy = CUBLAS_EMULATION_STRATEGY_DEFAULT;
  s.special_values = CUDA_EMULATION_SPECIAL_VALUES_SUPPORT_DEFAULT;
  s.mantissa_control = CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC;
  return s;
}

}  // namespace
}  // namespace strata::blas

using namespace strata::blas;  // NOLINT: the entry points below are its public face

extern "C" {

// --- matrix layouts ---
cublasStatus_t CUBLASWINAPI cublasLtMatrixLayoutInit_internal(cublasLtMatrixLayout_t matLayout,
                                                              size_t size, cudaDataType type,
                                                              uint64_t rows, uint64_t cols,
                                                              int64_t ld) {
  return init_state("cublasLtMatrixLayoutInit", matLayout, size,
                    layout_defaults(type, rows, cols, ld));
}
cublasStatus_t CUBLASWINAPI cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t* matLayout,
                                                       cudaDataType type, uint64_t rows,
                                                       uint64_t cols, int64_t ld) {
  return create<cublasLtMatrixLayoutOpaque_t>("cublasLtMatrixLayoutCreate", matLayout,
                                              layout_defaults(type, rows, cols, ld));
}
cublasStatus_t CUBLASWINAPI cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t matLayout) {
  return destroy("cublasLtMatrixLayoutDestroy", matLayout, layout_of(matLayout));
}
cublasStatus_t CUBLASWINAPI cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t matLayout,
                                                             cublasLtMatrixLayoutAttribute_t attr,
                                                             const void* buf, size_t sizeInBytes) {
  return set_attr("cublasLtMatrixLayoutSetAttribute", Kind::kLayout, layout_of(matLayout), attr,
                  buf, sizeInBytes);
}
cublasStatus_t CUBLASWINAPI cublasLtMatrixLayoutGetAttribute(cublasLtMatrixLayout_t matLayout,
                                                             cublasLtMatrixLayoutAttribute_t attr,
                                                             void* buf, size_t sizeInBytes,
                                                             size_t* sizeWritten) {
  return get_attr("cublasLtMatrixLayoutGetAttribute", Kind::kLayout, layout_of(matLayout), attr,
                  buf, sizeInBytes, sizeWritten);
}

// --- matmul descriptors ---
cublasStatus_t CUBLASWINAPI cublasLtMatmulDescInit_internal(cublasLtMatmulDesc_t matmulDesc,
                                                            size_t size,
                                                            cublasComputeType_t computeType,
                                                            cudaDataType_t scaleType) {
  return init_state("cublasLtMatmulDescInit", matmulDesc, size,
                    matmul_defaults(computeType, scaleType));
}
cublasStatus_t CUBLASWINAPI cublasLtMatmulDescCreate(cublasLtMatmulDesc_t* matmulDesc,
                                                     cublasComputeType_t computeType,
                                                     cudaDataType_t scaleType) {
  return create<cublasLtMatmulDescOpaque_t>("cublasLtMatmulDescCreate", matmulDesc,
                                            matmul_defaults(computeType, scaleType));
}
cublasStatus_t CUBLASWINAPI cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t matmulDesc) {
  return destroy("cublasLtMatmulDescDestroy", matmulDesc, matmul_desc_of(matmulDesc));
}
cublasStatus_t CUBLASWINAPI cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t matmulDesc,
                                                           cublasLtMatmulDescAttributes_t attr,
                                                           const void* buf, size_t sizeInBytes) {
  return set_attr("cublasLtMatmulDescSetAttribute", Kind::kMatmulDesc, matmul_desc_of(matmulDesc),
                  attr, buf, sizeInBytes);
}
cublasStatus_t CUBLASWINAPI cublasLtMatmulDescGetAttribute(cublasLtMatmulDesc_t matmulDesc,
                                                           cublasLtMatmulDescAttributes_t attr,
                                                           void* buf, size_t sizeInBytes,
                                                           size_t* sizeWritten) {
  return get_attr("cublasLtMatmulDescGetAttribute", Kind::kMatmulDesc, matmul_desc_of(matmulDesc),
                  attr, buf, sizeInBytes, sizeWritten);
}

// --- matmul preferences ---
cublasStatus_t CUBLASWINAPI cublasLtMatmulPreferenceInit_internal(cublasLtMatmulPreference_t pref,
                                                                  size_t size) {
  return init_state("cublasLtMatmulPreferenceInit", pref, size, preference_defaults());
}
cublasStatus_t CUBLASWINAPI cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t* pref) {
  return create<cublasLtMatmulPreferenceOpaque_t>("cublasLtMatmulPreferenceCreate", pref,
                                                  preference_defaults());
}
cublasStatus_t CUBLASWINAPI cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t pref) {
  return destroy("cublasLtMatmulPreferenceDestroy", pref, preference_of(pref));
}
cublasStatus_t CUBLASWINAPI cublasLtMatmulPreferenceSetAttribute(
    cublasLtMatmulPreference_t pref, cublasLtMatmulPreferenceAttributes_t attr, const void* buf,
    size_t sizeInBytes) {
  return set_attr("cublasLtMatmulPreferenceSetAttribute", Kind::kPreference, preference_of(pref),
                  attr, buf, sizeInBytes);
}
cublasStatus_t CUBLASWINAPI cublasLtMatmulPreferenceGetAttribute(
    cublasLtMatmulPreference_t pref, cublasLtMatmulPreferenceAttributes_t attr, void* buf,
    size_t sizeInBytes, size_t* sizeWritten) {
  return get_attr("cublasLtMatmulPreferenceGetAttribute", Kind::kPreference, preference_of(pref),
                  attr, buf, sizeInBytes, sizeWritten);
}

// --- matrix transform descriptors ---
cublasStatus_t CUBLASWINAPI cublasLtMatrixTransformDescInit_internal(
    cublasLtMatrixTransformDesc_t transformDesc, size_t size, cudaDataType scaleType) {
  return init_state("cublasLtMatrixTransformDescInit", transformDesc, size,
                    transform_defaults(scaleType));
}
cublasStatus_t CUBLASWINAPI cublasLtMatrixTransformDescCreate(
    cublasLtMatrixTransformDesc_t* transformDesc, cudaDataType scaleType) {
  return create<cublasLtMatrixTransformDescOpaque_t>("cublasLtMatrixTransformDescCreate",
                                                     transformDesc, transform_defaults(scaleType));
}
cublasStatus_t CUBLASWINAPI
cublasLtMatrixTransformDescDestroy(cublasLtMatrixTransformDesc_t transformDesc) {
  return destroy("cublasLtMatrixTransformDescDestroy", transformDesc,
                 transform_desc_of(transformDesc));
}
cublasStatus_t CUBLASWINAPI cublasLtMatrixTransformDescSetAttribute(
    cublasLtMatrixTransformDesc_t transformDesc, cublasLtMatrixTransformDescAttributes_t attr,
    const void* buf, size_t sizeInBytes) {
  return set_attr("cublasLtMatrixTransformDescSetAttribute", Kind::kTransformDesc,
                  transform_desc_of(transformDesc), attr, buf, sizeInBytes);
}
cublasStatus_t CUBLASWINAPI cublasLtMatrixTransformDescGetAttribute(
    cublasLtMatrixTransformDesc_t transformDesc, cublasLtMatrixTransformDescAttributes_t attr,
    void* buf, size_t sizeInBytes, size_t* sizeWritten) {
  return get_attr("cublasLtMatrixTransformDescGetAttribute", Kind::kTransformDesc,
                  transform_desc_of(transformDesc), attr, buf, sizeInBytes, sizeWritten);
}

// --- emulation descriptors ---
cublasStatus_t CUBLASWINAPI
cublasLtEmulationDescInit_internal(cublasLtEmulationDesc_t emulationDesc, size_t size) {
  return init_state("cublasLtEmulationDescInit", emulationDesc, size, emulation_defaults());
}
cublasStatus_t CUBLASWINAPI cublasLtEmulationDescCreate(cublasLtEmulationDesc_t* emulationDesc) {
  return create<cublasLtEmulationDescOpaque_t>("cublasLtEmulationDescCreate", emulationDesc,
                                               emulation_defaults());
}
cublasStatus_t CUBLASWINAPI cublasLtEmulationDescDestroy(cublasLtEmulationDesc_t emulationDesc) {
  return destroy("cublasLtEmulationDescDestroy", emulationDesc, emulation_desc_of(emulationDesc));
}
cublasStatus_t CUBLASWINAPI cublasLtEmulationDescSetAttribute(
    cublasLtEmulationDesc_t emulationDesc, cublasLtEmulationDescAttributes_t attr, const void* buf,
    size_t sizeInBytes) {
  return set_attr("cublasLtEmulationDescSetAttribute", Kind::kEmulationDesc,
                  emulation_desc_of(emulationDesc), attr, buf, sizeInBytes);
}
cublasStatus_t CUBLASWINAPI cublasLtEmulationDescGetAttribute(
    cublasLtEmulationDesc_t emulationDesc, cublasLtEmulationDescAttributes_t attr, void* buf,
    size_t sizeInBytes, size_t* sizeWritten) {
  return get_attr("cublasLtEmulationDescGetAttribute", Kind::kEmulationDesc,
                  emulation_desc_of(emulationDesc), attr, buf, sizeInBytes, sizeWritten);
}

}  // extern "C"
