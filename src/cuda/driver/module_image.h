// Turning what cuModuleLoadData / cuModuleLoadFatBinary / cuLinkAddData receive into a
// Strata binary: PTX text is JIT-compiled (through the persistent cache), a fatbin
// image or wrapper contributes its best PTX for the device (fatbin/ptx_select.h), a
// Strata binary is taken as is. NVIDIA cubins cannot run on Strata.
//
// Errors: kInvalidPtx (the compiler's "name:line:col: message"), kNoBinaryForGpu (no
// usable PTX; the message says to rebuild with PTX), kInvalidImage (malformed
// container); valid PTX Strata cannot compile yet is kInvalidPtx too (the message names
// the instruction and its line), as CUDA's JIT reports PTX it cannot compile. Each error is also
// logged at error level, because the CUresult alone cannot say what went wrong.
// Thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"
#include "compiler/compiler.h"
#include "compiler/sxbin/sxbin.h"
#include "hw/config/arch_config.h"

namespace strata::cuda::driver {

// The PTX modules a module image holds for the device with `arch`'s compute capability:
// one for PTX text or a single-image fatbin, several for a version-2 (-rdc) wrapper.
// An empty vector with OK means the image is already a Strata binary (see
// sxbin_image_at).
StatusOr<std::vector<compiler::PtxSource>> ptx_sources_of_image(const void* image,
                                                               const hw::ArchConfig& arch);

// The bytes of a Strata binary starting at `image` (bounded by its ELF headers), or
// kInvalidImage / kNoBinaryForGpu (an NVIDIA cubin) if `image` is another ELF.
StatusOr<std::span<const uint8_t>> sxbin_image_at(const void* image);

// Compiles `sources` together for `arch` through the JIT cache (compiler/jit/cache.h).
StatusOr<std::vector<uint8_t>> jit_compile(const std::vector<compiler::PtxSource>& sources,
                                           const hw::ArchConfig& arch);

// The bytes of a module image as the profiler's resource events report it: PTX text with
// its NUL, a fatbin image, the fatbin a wrapper points to (its header-bounded image), a
// Strata binary. kInvalidImage when the extent cannot be known.
StatusOr<std::span<const uint8_t>> module_image_extent(const void* image);

// The whole path: image -> parsed, validated Strata binary.
StatusOr<sxbin::Binary> load_module_image(const void* image, const hw::ArchConfig& arch);

}  // namespace strata::cuda::driver
