// Turns a registered fatbin into a module of the current context.
//
// Version 1 wrappers: the best PTX for the device (fatbin/ptx_select.h) is handed to
// cuModuleLoadData. Version 2 (-rdc=true): the best PTX of every relocatable fatbin is
// compiled and linked with cuLinkCreate/cuLinkAddData/cuLinkComplete and the result
// loaded. No usable PTX gives CUDA_ERROR_NO_BINARY_FOR_GPU and an error log line telling
// the user how to rebuild with PTX. Thread-safe (the driver serialises).
#pragma once

#include "cuda/fatbin/wrapper.h"
#include "cuda/runtime/cuda_api.h"

namespace strata::cuda::runtime {

CUresult load_module(const fatbin::Wrapper& wrapper, int cc_major, int cc_minor,
                     CUmodule* module);

}  // namespace strata::cuda::runtime
