#include "tools/cuda_binary.h"

#include <fmt/format.h>

namespace strata::tools {

CudaLinkageInfo classify_cuda_linkage(const ElfFile& elf) {
  CudaLinkageInfo info;
  for (const std::string& lib : elf.needed()) {
    if (lib.starts_with("libcudart.so")) info.cudart = lib;
  }
  if (info.cudart == "libcudart.so.13") {
    info.linkage = CudaLinkage::kSharedCudart13;
  } else if (!info.cudart.empty()) {
    info.linkage = CudaLinkage::kSharedOtherCudart;
  } else if (!elf.section(".nv_fatbin").empty() || elf.defines("__cudaRegisterFatBinary")) {
    info.linkage = CudaLinkage::kStaticCudart;
  }
  return info;
}

std::string linkage_problem(const CudaLinkageInfo& info, const std::string& program) {
  switch (info.linkage) {
    case CudaLinkage::kStaticCudart:
      return fmt::format(
          "strata: {} carries a static CUDA runtime (nvcc's default, -cudart static), which "
          "cannot run on Strata.\nRebuild it with the shared runtime: nvcc -cudart shared ...",
          program);
    case CudaLinkage::kSharedOtherCudart:
      return fmt::format(
          "strata: {} was built against {}; Strata provides libcudart.so.13.\nRebuild it with "
          "the CUDA 13 toolkit: nvcc -cudart shared ...", program, info.cudart);
    default:
      return "";
  }
}

}  // namespace strata::tools
