#include "blas/lt_desc.h"

namespace strata::blas {
namespace {

template <typename State, typename Desc>
State* state_of(Desc desc, uint64_t magic) {
  if (desc == nullptr) return nullptr;
  auto* s = reinterpret_cast<State*>(desc);
  return s->magic == magic ? s : nullptr;
}

}  // namespace

LayoutState* layout_of(cublasLtMatrixLayout_t desc) {
  return state_of<LayoutState>(desc, kLayoutMagic);
}
MatmulDescState* matmul_desc_of(cublasLtMatmulDesc_t desc) {
  return state_of<MatmulDescState>(desc, kMatmulDescMagic);
}
PreferenceState* preference_of(cublasLtMatmulPreference_t desc) {
  return state_of<PreferenceState>(desc, kPreferenceMagic);
}
TransformDescState* transform_desc_of(cublasLtMatrixTransformDesc_t desc) {
  return state_of<TransformDescState>(desc, kTransformDescMagic);
}
EmulationDescState* emulation_desc_of(cublasLtEmulationDesc_t desc) {
  return state_of<EmulationDescState>(desc, kEmulationDescMagic);
}

}  // namespace strata::blas
