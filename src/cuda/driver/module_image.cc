#include "cuda/driver/module_image.h"
#include "cuda/driver/compute_capability.h"

#include <algorithm>
#include <cstring>

#include "base/log.h"
#include "compiler/jit/cache.h"
#include "compiler/jit/cache_key.h"
#include "cuda/fatbin/device_runtime_library.h"
#include "cuda/fatbin/fatbin.h"
#include "cuda/fatbin/ptx_select.h"
#include "cuda/fatbin/wrapper.h"
#include "fmt/format.h"

namespace strata::cuda::driver {
namespace {

constexpr uint16_t kElfMachineCuda = 190;  // EM_CUDA: an NVIDIA cubin
constexpr uint64_t kMaxElfImage = uint64_t{1} << 32;

template <typename T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

// Appends the PTX `entry` selected for `arch` from every image in `images`.
Status add_best_ptx(std::span<const fatbin::Image> images, const hw::ArchConfig& arch,
                    std::string_view what, std::vector<compiler::PtxSource>* out) {
  ComputeCapability cc = reported_compute_capability(arch);
  ASSIGN_OR_RETURN(const fatbin::Entry* entry, fatbin::select_ptx(images, cc.major, cc.minor));
  ASSIGN_OR_RETURN(std::string text, fatbin::ptx_text(*entry));
  std::string name = entry->name.empty() ? std::string(what) : entry->name;
  out->push_back({fmt::format("{} ({})", name, fatbin::target_name(*entry)), std::move(text)});
  return ok_status();
}

Status add_fatbin(std::span<const uint8_t> bytes, const hw::ArchConfig& arch,
                  std::string_view what, std::vector<compiler::PtxSource>* out) {
  ASSIGN_OR_RETURN(fatbin::Image image, fatbin::parse_image(bytes));
  return add_best_ptx(std::span<const fatbin::Image>(&image, 1), arch, what, out);
}

StatusOr<std::vector<compiler::PtxSource>> collect_sources(const void* image,
                                                          const hw::ArchConfig& arch) {
  std::vector<compiler::PtxSource> sources;
  switch (fatbin::classify_module_image(image)) {
    case fatbin::ModuleImageKind::kPtx:
      sources.push_back({"ptx module", static_cast<const char*>(image)});
      return sources;
    case fatbin::ModuleImageKind::kFatbin: {
      ASSIGN_OR_RETURN(std::span<const uint8_t> bytes, fatbin::image_at(image));
      RETURN_IF_ERROR(add_fatbin(bytes, arch, "fatbin", &sources));
      return sources;
    }
    case fatbin::ModuleImageKind::kWrapper: {
      ASSIGN_OR_RETURN(fatbin::Wrapper wrapper, fatbin::read_wrapper(image));
      if (wrapper.version == 1 || wrapper.relocatable.empty()) {
        RETURN_IF_ERROR(add_fatbin(wrapper.image, arch, "fatbin", &sources));
        return sources;
      }
      // -rdc=true: every object's relocatable PTX, compiled together and linked.
      for (size_t i = 0; i < wrapper.relocatable.size(); ++i) {
        auto relocatable = fatbin::parse_image(wrapper.relocatable[i]);
        if (relocatable.ok() && fatbin::is_device_runtime_library(*relocatable)) {
          STRATA_LOG_DEBUG("relocatable fatbin {} is CUDA's device runtime library; Strata "
                           "implements it in the compiler", i);
          continue;
        }
        RETURN_IF_ERROR(add_fatbin(wrapper.relocatable[i], arch,
                                   fmt::format("relocatable fatbin {}", i), &sources));
      }
      return sources;
    }
    case fatbin::ModuleImageKind::kElf:
      return sources;  // a Strata binary or an NVIDIA cubin: see sxbin_image_at
  }
  return error(Code::kInvalidImage, "unrecognised module image");
}

}  // namespace

StatusOr<std::span<const uint8_t>> sxbin_image_at(const void* image) {
  const auto* p = static_cast<const uint8_t*>(image);
  // e_ident (16) .. e_shstrndx: the 64-byte ELF64 header.
  if (std::memcmp(p, "\x7f" "ELF", 4) != 0 || p[4] != 2 || p[5] != 1) {
    return error(Code::kInvalidImage, "module image: not a 64-bit little-endian ELF");
  }
  uint16_t machine = load<uint16_t>(p + 18);
  if (machine == kElfMachineCuda) {
    return error(Code::kNoBinaryForGpu,
                 "module image is an NVIDIA cubin (SASS), which Strata cannot run; rebuild "
                 "with PTX (e.g. nvcc -gencode arch=compute_XX,code=compute_XX)");
  }
  if (machine != sxbin::kElfMachineStrata) {
    return error(Code::kInvalidImage,
                 fmt::format("module image: ELF for machine {} is not a Strata binary", machine));
  }
  uint64_t shoff = load<uint64_t>(p + 40);
  uint16_t shentsize = load<uint16_t>(p + 58);
  uint16_t shnum = load<uint16_t>(p + 60);
  if (shentsize < 64 || shoff > kMaxElfImage) {
    return error(Code::kInvalidImage, "sxbin: malformed section header table");
  }
  uint64_t extent = std::max<uint64_t>(64, shoff + uint64_t{shentsize} * shnum);
  for (uint16_t i = 0; i < shnum; ++i) {
    const uint8_t* sh = p + shoff + uint64_t{i} * shentsize;
    uint32_t type = load<uint32_t>(sh + 4);
    uint64_t offset = load<uint64_t>(sh + 24);
    uint64_t size = load<uint64_t>(sh + 32);
    if (type == 8 /*SHT_NOBITS*/ || type == 0 /*SHT_NULL*/) continue;
    if (offset > kMaxElfImage || size > kMaxElfImage) {
      return error(Code::kInvalidImage, fmt::format("sxbin: section {} out of range", i));
    }
    extent = std::max(extent, offset + size);
  }
  if (extent > kMaxElfImage) return error(Code::kInvalidImage, "sxbin: image too large");
  return std::span<const uint8_t>(p, extent);
}

StatusOr<std::vector<compiler::PtxSource>> ptx_sources_of_image(const void* image,
                                                               const hw::ArchConfig& arch) {
  auto sources = collect_sources(image, arch);
  if (!sources.ok()) {
    STRATA_LOG_ERROR("cannot load module: {}", sources.status().message());
  }
  return sources;
}

// The process-wide persistent JIT cache (STRATA_CACHE_DIR, default ~/.cache/strata).
jit::JitCache& jit_cache() {
  static jit::JitCache cache = jit::JitCache::from_environment();
  return cache;
}

StatusOr<std::vector<uint8_t>> jit_compile(const std::vector<compiler::PtxSource>& sources,
                                           const hw::ArchConfig& arch) {
  compiler::CompileOptions options;
  std::vector<std::string> texts;
  texts.reserve(sources.size());
  for (const compiler::PtxSource& source : sources) texts.push_back(source.text);
  const std::string option_text = fmt::format("O{}", options.opt_level);
  const std::string key =
      jit::make_cache_key(texts, compiler::compiler_build_id(), arch.content_hash, option_text);
  auto cached = jit_cache().lookup(key);
  if (cached.ok() && cached->has_value()) {
    // A cached image that no longer reads back is recompiled (and replaced) below.
    if (sxbin::read_sxbin(**cached).ok()) {
      STRATA_LOG_DEBUG("JIT cache hit {}", key);
      return std::move(**cached);
    }
    STRATA_LOG_WARN("JIT cache entry {} is not a valid Strata binary; recompiling", key);
  }
  auto bytes = compiler::compile_ptx(sources, options);
  if (!bytes.ok()) {
    const Status& s = bytes.status();
    if (s.code() == Code::kInvalidPtx) {
      STRATA_LOG_ERROR("PTX JIT compilation failed: {}", s.message());
    } else if (s.code() == Code::kNotSupported) {
      // Valid PTX that Strata cannot compile (an instruction, type or modifier it lacks):
      // CUDA_ERROR_INVALID_PTX, as NVIDIA's JIT reports PTX it cannot compile for a device.
      STRATA_LOG_ERROR("PTX JIT compilation failed: unsupported by Strata: {}", s.message());
      return error(Code::kInvalidPtx, s.message());
    } else {
      STRATA_LOG_ERROR("JIT compilation failed: {}", s.message());
    }
    return bytes;
  }
  Status stored = jit_cache().store(key, *bytes);
  if (!stored.ok()) STRATA_LOG_DEBUG("JIT cache store failed: {}", stored.message());
  return bytes;
}

StatusOr<std::span<const uint8_t>> module_image_extent(const void* image) {
  if (image == nullptr) return error(Code::kInvalidImage, "module image is null");
  switch (fatbin::classify_module_image(image)) {
    case fatbin::ModuleImageKind::kPtx: {
      const char* text = static_cast<const char*>(image);
      return std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text),
                                      std::strlen(text) + 1);
    }
    case fatbin::ModuleImageKind::kFatbin:
      return fatbin::image_at(image);
    case fatbin::ModuleImageKind::kWrapper: {
      ASSIGN_OR_RETURN(fatbin::Wrapper wrapper, fatbin::read_wrapper(image));
      return wrapper.image;
    }
    case fatbin::ModuleImageKind::kElf:
      return sxbin_image_at(image);
  }
  return error(Code::kInvalidImage, "unrecognised module image");
}

StatusOr<sxbin::Binary> load_module_image(const void* image, const hw::ArchConfig& arch) {
  if (image == nullptr) return error(Code::kInvalidValue, "module image is null");
  ASSIGN_OR_RETURN(std::vector<compiler::PtxSource> sources, ptx_sources_of_image(image, arch));
  if (sources.empty()) {
    auto bytes = sxbin_image_at(image);
    if (!bytes.ok()) {
      STRATA_LOG_ERROR("cannot load module: {}", bytes.status().message());
      return bytes.status();
    }
    return sxbin::read_sxbin(*bytes);
  }
  ASSIGN_OR_RETURN(std::vector<uint8_t> compiled, jit_compile(sources, arch));
  return sxbin::read_sxbin(compiled);
}

}  // namespace strata::cuda::driver
