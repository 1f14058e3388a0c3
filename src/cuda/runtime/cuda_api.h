// The CUDA declarations libcudart implements, taken from the toolkit's own headers.
//
// Everything declared between the visibility pragmas is exported (default visibility);
// the library is otherwise built with hidden visibility, and exports.map gives every
// exported symbol the version node `libcudart.so.13` that nvcc 13 binaries import.
#pragma once

#pragma GCC visibility push(default)
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <fatbinary_section.h>
// The registration ABI nvcc-generated code calls is declared in registration_abi.h.
#pragma GCC visibility pop
