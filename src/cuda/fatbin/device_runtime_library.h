// Recognising CUDA's device runtime library (libcudadevrt) among the relocatable images
// of an -rdc=true program. nvcc links it into every program built with -lcudadevrt; its
// PTX defines the __cudaCDP2* functions that dynamic parallelism calls. Strata implements
// those in the compiler (compiler/ir/lower_device_launch.cc), and the library carries no
// PTX that an sm_8x device could use, so loaders leave the image out. Pure.
#pragma once

#include "cuda/fatbin/fatbin.h"

namespace strata::cuda::fatbin {

// True if a PTX entry of `image` defines (.visible/.weak .func) a __cudaCDP2* function.
bool is_device_runtime_library(const Image& image);

}  // namespace strata::cuda::fatbin
