// The device-code modules a CUDA program built by nvcc hands to the runtime, as PTX
// exactly as Strata's runtime passes it to the driver (src/cuda/runtime/module_loader.cc),
// so that `strata cc --precompile` can fill the JIT cache under the driver's keys.
//
// nvcc's host code registers one fatbin wrapper per record of section .nvFatBinSegment
// (24 bytes: u32 magic, u32 version, u64 image pointer, u64 second pointer; see
// cuda/fatbin/wrapper.h):
// - a version-1 wrapper whose image lies in .nv_fatbin is one module: the runtime
//   selects the image's best PTX for the device (cuda/fatbin/ptx_select.h) and passes
//   that text to cuModuleLoadData;
// - with -rdc=true, each object's version-1 wrapper points into __nv_relfatbin and is
//   not registered itself: crt/link.stub's constructors collect those images, in the
//   order the objects' constructors run (their order in the file), into the array of
//   the version-2 wrapper, and the runtime links the best PTX of every one of them,
//   in that order (cuLinkAddData ... cuLinkComplete). The array is filled at run time
//   (it lives in .bss), so it is rebuilt here from the version-1 records, in order.
//   CUDA's device runtime library (-lcudadevrt) is left out, as the runtime does
//   (cuda/fatbin/device_runtime_library.h).
// - CUDA 13's nvcc also emits a version-2 wrapper for programs without -rdc, whose image
//   is nvlink's SASS and whose array stays empty; the program's kernels are registered
//   against the version-1 wrappers, so the runtime never loads it. Such a wrapper is
//   left out when its image holds no PTX for the device.
// Pointers are read as the loader leaves them (ElfFile::pointer_at), so position-
// independent executables work.
//
// Each PtxSource's text is what the driver receives (PTX up to its first NUL); names
// are for messages only. Pure; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "compiler/compiler.h"
#include "tools/elf_inspect.h"

namespace strata::tools {

struct AppModule {
  std::string name;  // "fatbin 0 (compute_80)", "-rdc link of 2 relocatable fatbins"
  // The PTX modules compiled together, in the runtime's order; empty when `error` is set.
  std::vector<compiler::PtxSource> sources;
  Status error;  // e.g. kNoBinaryForGpu: the image holds no PTX usable on this device
};

// Every module the runtime would load on a device of compute capability
// cc_major.cc_minor, in registration order. Errors: kNoBinaryForGpu when the program has
// no fatbin wrappers (not a CUDA program); kInvalidImage for malformed records. A
// module whose PTX cannot be selected is returned with its `error`, not as an error.
StatusOr<std::vector<AppModule>> app_modules(const ElfFile& elf, int cc_major, int cc_minor);

}  // namespace strata::tools
