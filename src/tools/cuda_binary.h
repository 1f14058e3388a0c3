// Classifying a program by how it carries the CUDA runtime, for `strata run`.
#pragma once

#include <string>

#include "tools/elf_inspect.h"

namespace strata::tools {

enum class CudaLinkage {
  kSharedCudart13,  // imports libcudart.so.13: runs on Strata
  kSharedOtherCudart,  // imports another libcudart.so.N (another toolkit)
  kStaticCudart,    // carries NVIDIA's runtime inside (nvcc's default -cudart static)
  kNoCuda,          // no CUDA runtime at all (may still use the driver API)
};

struct CudaLinkageInfo {
  CudaLinkage linkage = CudaLinkage::kNoCuda;
  std::string cudart;  // the imported libcudart soname, if any
};

CudaLinkageInfo classify_cuda_linkage(const ElfFile& elf);

// The message `strata run` prints for a program it cannot run, or "" if it can.
std::string linkage_problem(const CudaLinkageInfo& info, const std::string& program);

}  // namespace strata::tools
